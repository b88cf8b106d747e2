"""World: owns the grid, actors, platforms, ropes and triggers, and steps them in one fixed order.

Step order (``World.step``):
1. every body's previous position <- its current one (for render interpolation);
2. platforms, in the order added: follow their path (X then Y), carrying riders, pushing actors in the
   way, reporting actors crushed against tiles or other platforms as squished;
3. actors, in the order added: a Character runs the controller, a plain Actor falls; each moves
   Y then X against tiles and platforms;
4. ropes, all at once: Verlet, nudged by the actors that moved, constraints, tiles (``ropes.py``);
5. triggers, in the order added, against actors in the order added: enter / stay / exit.
Same grid, feel and inputs give bit-identical states (``state_hash``).
"""

from __future__ import annotations

import copy
import hashlib
import math
import struct
from collections.abc import Mapping
from typing import NamedTuple

from . import _motion
from .bodies import NO_BUTTONS, Actor, Buttons, Character, Ground, Trigger, TriggerEvent
from .controller import control
from .feel import FeelConfig
from .geometry import overlaps, place_before
from .platforms import Platform
from .ropes import Rope, _RopeSet
from .tiles import TileGrid

__all__ = ["StepResult", "World"]


class StepResult(NamedTuple):
    step: int  # the step just taken, numbered from 1
    triggers: list  # [TriggerEvent]
    squished: list  # [Actor] crushed by a platform this step
    jumped: list  # [Character]
    landed: list  # [Character]
    dropped: list  # [Character] dropped through a one-way platform


class World:
    """Everything that moves, on one tile grid, stepped at the feel's fixed rate."""

    def __init__(self, grid: TileGrid, feel: FeelConfig | None = None):
        if not isinstance(grid, TileGrid):
            raise TypeError("World needs a TileGrid; build one with TileGrid(kinds) or TileGrid.from_ascii(text)")
        self.grid = grid
        self.feel = feel or FeelConfig()
        self._derived = self.feel.derived
        self.actors: list[Actor] = []
        self.platforms: list[Platform] = []
        self.triggers: list[Trigger] = []
        self._rope_set = _RopeSet()
        self.ropes: list[Rope] = self._rope_set.ropes
        self._inside: set[tuple[Trigger, Actor]] = set()  # (trigger, actor) pairs overlapping now
        self._sensor_cells: dict[tuple[int, int], list[Trigger]] = {}  # broadphase: cell -> triggers
        self._sensor_order: dict[Trigger, int] = {}
        self._sensor_moves = -1  # Trigger.moves when the index was built
        self.steps = 0

    # -- membership ------------------------------------------------------------------------------------
    def add(self, obj):
        """Add an Actor/Character, Platform, Rope or Trigger; returns it."""
        if isinstance(obj, Rope):
            return self._rope_set.add(obj, self.grid)
        if isinstance(obj, Actor):
            bucket = self.actors
        elif isinstance(obj, Platform):
            bucket = self.platforms
        elif isinstance(obj, Trigger):
            bucket = self.triggers
            self._sensor_moves = -1
        else:
            raise TypeError(f"cannot add {type(obj).__name__} to a World; add an Actor, Character, Platform, "
                            f"Rope or Trigger")
        if any(o is obj for o in bucket):
            raise ValueError(f"{obj!r} is already in this world")
        bucket.append(obj)
        return obj

    def remove(self, obj) -> None:
        if isinstance(obj, Rope):
            return self._rope_set.remove(obj)
        for bucket in (self.actors, self.platforms, self.triggers):
            for i, o in enumerate(bucket):
                if o is obj:
                    del bucket[i]
                    if isinstance(obj, Trigger):
                        self._inside = {pair for pair in self._inside if pair[0] is not obj}
                        self._sensor_moves = -1
                    elif isinstance(obj, Actor):
                        self._inside = {pair for pair in self._inside if pair[1] is not obj}
                        if obj.ground is not None and obj.ground.platform is not None:
                            obj.ground = None
                    elif isinstance(obj, Platform):
                        for a in self.actors:
                            if a.ground is not None and a.ground.platform is obj:
                                a.ground, a.on_ground = None, False
                    return
        raise ValueError(f"{obj!r} is not in this world; call world.add(obj) first")

    def set_feel(self, feel: FeelConfig) -> None:
        """Retune live: positions, velocities and timers in steps are kept."""
        self.feel = feel
        self._derived = feel.derived

    @property
    def dt(self) -> float:
        return self._derived.dt

    # -- stepping --------------------------------------------------------------------------------------
    def step(self, inputs: Buttons | Mapping[Character, Buttons] | None = None) -> StepResult:
        """Advance one fixed step. ``inputs``: one Buttons for every Character, or a dict per character."""
        self.steps += 1
        grid, platforms, d = self.grid, self.platforms, self._derived
        for a in self.actors:
            a.prev_x, a.prev_y = a.x, a.y
            a.squished = False
        for p in platforms:
            p.prev_x, p.prev_y = p.x, p.y

        squished: list[Actor] = []
        for p in platforms:
            self._move_platform(p, d.dt, squished)

        jumped, landed, dropped = [], [], []
        by_actor = isinstance(inputs, Mapping)
        for a in self.actors:
            if isinstance(a, Character):
                if by_actor:
                    buttons = inputs.get(a, NO_BUTTONS)
                else:
                    buttons = inputs if inputs is not None else NO_BUTTONS
                flags = control(a, buttons, self.feel, d, grid, platforms)
                if flags.jumped:
                    jumped.append(a)
                if flags.landed:
                    landed.append(a)
                if flags.dropped:
                    dropped.append(a)
            else:
                self._move_plain(a, d)

        if self.ropes:
            self._rope_set.step(grid, self.actors, d)
        events = self._sense() if self.triggers else []
        return StepResult(self.steps, events, squished, jumped, landed, dropped)

    def settle(self, actor: Actor, reach: float | None = None) -> bool:
        """Stand ``actor`` on the ground near where it is: lift it out of any solid tile or solid platform
        it overlaps and onto a slope it is below, then drop it onto the ground at most ``reach`` px
        (default: two tiles) below. For spawning and respawning. Returns True when it stands.
        """
        grid, platforms = self.grid, self.platforms
        ts = grid.tile_size
        reach = 2.0 * ts if reach is None else float(reach)
        x0, y0 = actor.x, actor.y
        lifted = 0.0
        while self._overlaps_solid(actor):
            feet = actor.y + actor.h
            top = math.floor((feet - _motion.EPS) / ts) * ts  # the tile edge at or above the feet
            for p in platforms:
                if not p.one_way and overlaps(actor.x, actor.y, actor.w, actor.h, p.x, p.y, p.w, p.h):
                    top = min(top, p.y)
            lifted += feet - top
            if lifted > reach:
                actor.x, actor.y = x0, y0
                return False
            actor.y = place_before(top, actor.h)
        actor.y -= _motion.slope_lift(grid, actor)
        feet = actor.y + actor.h
        sup = _motion.find_support(grid, platforms, None, actor.x, actor.w, feet, feet + reach, False)
        if sup is None:
            return False
        actor.y = place_before(sup[0], actor.h)
        actor.prev_x, actor.prev_y = actor.x, actor.y
        actor.vy = 0.0
        actor.on_ground, actor.ground = True, sup[1]
        if isinstance(actor, Character):
            actor.air_steps = 0
        return True

    def _overlaps_solid(self, a: Actor) -> bool:
        return self.grid.solid_overlaps(a.x, a.y, a.w, a.h) or \
            _motion.overlaps_solid_platform(self.platforms, a.x, a.y, a.w, a.h)

    # -- triggers --------------------------------------------------------------------------------------
    _CELL = 64  # px, side of a broadphase cell for triggers

    def _index_sensors(self) -> None:
        cell = self._CELL
        cells: dict[tuple[int, int], list[Trigger]] = {}
        for t in self.triggers:
            for key in self._cells_of(t.x, t.y, t.w, t.h, cell):
                cells.setdefault(key, []).append(t)
        self._sensor_cells = cells
        self._sensor_order = {t: i for i, t in enumerate(self.triggers)}
        self._sensor_moves = Trigger.moves

    @staticmethod
    def _cells_of(x: float, y: float, w: float, h: float, cell: int):
        x0, y0 = int(x // cell), int(y // cell)
        x1, y1 = int((x + w) // cell), int((y + h) // cell)
        return [(cx, cy) for cy in range(y0, y1 + 1) for cx in range(x0, x1 + 1)]

    def _sense(self) -> list[TriggerEvent]:
        """Enter / stay / exit for every (trigger, actor) pair, ordered by trigger then actor."""
        if self._sensor_moves != Trigger.moves:
            self._index_sensors()
        cells, cell = self._sensor_cells, self._CELL
        now: set[tuple[Trigger, Actor]] = set()
        for a in self.actors:
            ax, ay, aw, ah = a.x, a.y, a.w, a.h
            for key in self._cells_of(ax, ay, aw, ah, cell):
                for t in cells.get(key, ()):
                    if overlaps(ax, ay, aw, ah, t.x, t.y, t.w, t.h):
                        now.add((t, a))
        before = self._inside
        self._inside = now
        if not now and not before:
            return []
        order = self._sensor_order
        actor_order = {a: i for i, a in enumerate(self.actors)}
        pairs = sorted(now | before, key=lambda p: (order[p[0]], actor_order.get(p[1], -1)))
        events = []
        for pair in pairs:
            if pair in now:
                events.append(TriggerEvent("stay" if pair in before else "enter", pair[0], pair[1]))
            else:
                events.append(TriggerEvent("exit", pair[0], pair[1]))
        return events

    def inside(self, trigger: Trigger) -> list[Actor]:
        """The actors overlapping ``trigger`` after the last step, in the order added."""
        return [a for a in self.actors if (trigger, a) in self._inside]

    def _move_plain(self, a: Actor, d) -> None:
        """A simple actor: gravity, then Y and X passes, no controller."""
        grid, platforms = self.grid, self.platforms
        vy = a.vy
        if a.gravity:
            g = d.gravity if vy < 0.0 else d.fall_gravity
            vy_new = min(vy + g * d.dt, self.feel.fall.max_speed)
        else:
            vy_new = vy
        dy = (vy + vy_new) * 0.5 * d.dt
        a.vy = vy_new
        _motion.move(grid, platforms, a, a.vx * d.dt, dy, False)
        feet = a.y + a.h
        sup = _motion.find_support(grid, platforms, None, a.x, a.w, feet, feet + _motion.EPS, False) \
            if a.vy >= 0.0 else None
        a.on_ground = sup is not None
        a.ground = sup[1] if sup is not None else None

    # -- platforms -------------------------------------------------------------------------------------
    _PUSH_STEP = 4.0  # px: a platform moving further in one step moves in pieces, so it cannot jump
    #                   over an actor it should push

    def _move_platform(self, p: Platform, dt: float, squished: list) -> None:
        nx, ny = p.next_position(dt)
        dx, dy = nx - p.x, ny - p.y
        p.vx, p.vy = dx / dt, dy / dt
        if dx == 0.0 and dy == 0.0:
            return
        riders = [a for a in self.actors if self._rides(a, p)]
        span = max(abs(dx), abs(dy))
        if span <= self._PUSH_STEP:  # the usual case: one piece
            if dx != 0.0:
                self._shift_platform(p, nx, p.y, riders, squished)
            if dy != 0.0:
                self._shift_platform(p, p.x, ny, riders, squished)
            return
        pieces = math.ceil(span / self._PUSH_STEP)
        x0, y0 = p.x, p.y
        for k in range(1, pieces + 1):
            tx = nx if k == pieces else x0 + dx * k / pieces
            ty = ny if k == pieces else y0 + dy * k / pieces
            if tx != p.x:
                self._shift_platform(p, tx, p.y, riders, squished)
            if ty != p.y:
                self._shift_platform(p, p.x, ty, riders, squished)

    @staticmethod
    def _rides(a: Actor, p: Platform) -> bool:
        """Standing on ``p``: grounded on it last step, or just placed (not yet grounded on anything)
        with its feet on the platform's top."""
        if a.on_ground:
            return a.ground is not None and a.ground.platform is p
        return a.vy >= 0.0 and abs(a.y + a.h - p.y) <= 1e-6 and p.x < a.x + a.w and a.x < p.x + p.w

    def _shift_platform(self, p: Platform, nx: float, ny: float, riders: list, squished: list) -> None:
        """Move a platform along one axis, carrying riders and pushing actors in the way."""
        grid, platforms = self.grid, self.platforms
        dx, dy = nx - p.x, ny - p.y
        old_top = p.y
        p.x, p.y = nx, ny
        for a in self.actors:
            if any(a is r for r in riders):
                if dx != 0.0:
                    _motion.move_x(grid, platforms, a, dx, can_step=False, skip=p)
                elif _motion.move_y(grid, platforms, a, dy, drop=True, skip=p) is None:
                    a.y = place_before(p.y, a.h)  # exactly on top: no drift, no lag
                if p.one_way:
                    continue
            elif p.one_way:
                feet = a.y + a.h
                if dy < 0.0 and feet <= old_top + _motion.EPS and feet > p.y \
                        and p.x < a.x + a.w and a.x < p.x + p.w:
                    if _motion.move_y(grid, platforms, a, p.y - feet, drop=True, skip=p) is None:
                        a.y = place_before(p.y, a.h)
                        a.vy = min(a.vy, 0.0) if a.vy < 0.0 else 0.0
                        a.on_ground, a.ground = True, Ground("platform", p, True)
                continue
            if not overlaps(a.x, a.y, a.w, a.h, p.x, p.y, p.w, p.h):
                continue
            if dx > 0.0:
                hit = _motion.move_x(grid, platforms, a, p.x + p.w - a.x, can_step=False, skip=p)
                if hit is None:
                    a.x = p.x + p.w
            elif dx < 0.0:
                hit = _motion.move_x(grid, platforms, a, p.x - (a.x + a.w), can_step=False, skip=p)
                if hit is None:
                    a.x = place_before(p.x, a.w)
            elif dy > 0.0:
                hit = _motion.move_y(grid, platforms, a, p.y + p.h - a.y, drop=True, skip=p)
                if hit is None:
                    a.y = p.y + p.h
                    a.vy = max(a.vy, 0.0)
            else:
                hit = _motion.move_y(grid, platforms, a, p.y - (a.y + a.h), drop=True, skip=p)
                if hit is None:
                    a.y = place_before(p.y, a.h)
                    a.vy = min(a.vy, 0.0) if a.vy < 0.0 else 0.0
                    a.on_ground, a.ground = True, Ground("platform", p, False)
            if hit is not None and overlaps(a.x, a.y, a.w, a.h, p.x, p.y, p.w, p.h):
                a.squished = True
                if not any(a is s for s in squished):
                    squished.append(a)

    # -- state -----------------------------------------------------------------------------------------
    def state_hash(self) -> str:
        """A hex digest of the whole simulation state (positions, velocities, timers, platforms, rope
        particles, trigger membership, step count)."""
        h = hashlib.sha256()
        pack = struct.pack
        h.update(pack("<q", self.steps))
        for a in self.actors:
            ground = a.ground.kind if a.ground is not None else "-"
            h.update(pack("<6d?", a.x, a.y, a.w, a.h, a.vx, a.vy, a.on_ground))
            h.update(ground.encode())
            if isinstance(a, Character):
                since = -1 if a.since_press is None else a.since_press
                h.update(pack("<4q?", a.facing, a.air_steps, since, a.drop_left, a.jumping))
                h.update(pack("<5?", *a.held))
        for p in self.platforms:
            h.update(pack("<7d", *p.state()))
        for t in self.triggers:
            h.update(bytes(1 if (t, a) in self._inside else 0 for a in self.actors))
        self._rope_set.digest(h)
        return h.hexdigest()

    def clone(self, triggers: bool = True) -> World:
        """An independent copy sharing the immutable grid and the bodies' ``data`` (for previews).

        ``triggers=False`` leaves the sensors out: cheaper, and they never move anything.
        """
        memo = {id(self.grid): self.grid}
        for t in self.triggers:
            memo[id(t.data)] = t.data
        for p in self.platforms:
            memo[id(p.data)] = p.data
        if not triggers:
            saved = self.triggers, self._inside, self._sensor_cells, self._sensor_order, self._sensor_moves
            self.triggers, self._inside, self._sensor_cells, self._sensor_order = [], set(), {}, {}
            try:
                return copy.deepcopy(self, memo)
            finally:
                (self.triggers, self._inside, self._sensor_cells, self._sensor_order,
                 self._sensor_moves) = saved
        return copy.deepcopy(self, memo)
