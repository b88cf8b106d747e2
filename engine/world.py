"""World: owns the grid, actors, crowds, platforms, ropes and triggers, and steps them in one fixed order.

Step order (``World.step``):
1. every body's previous position <- its current one (for render interpolation); an actor the engine
   did not leave where it is now (placed, teleported, resized, a platform or solid actor moved by hand, or
   a tile it overlaps edited with ``grid.set_tile``) and found inside solid geometry is moved to the
   nearest free spot within reach (a tile, or half its size if larger), or reported squished (solid
   actors first, then the others, with those a crate was moved onto); the same for the walkers of each
   crowd, after them;
2. platforms, in the order added: follow their path (in pieces of at most 4 px, corner to corner),
   carrying riders, pushing actors in the way (both with the same collision-aware passes as any move),
   reporting actors crushed against anything solid as squished (``_solids.py``); a crowd's walkers that
   could meet a platform or a solid actor this step take part as stand-in actors, after the actors;
3. actors but bullets, in the order added (squished ones stay pinned this step): a Character runs the
   controller, a plain Actor falls; each moves Y then X against tiles, platforms and solid actors, then
   lands or snaps to the ground (an actor holding a rope waits for 5.; a Character with ``control``
   off moves like a plain actor); one that ran into a pushable crate pushes it and walks on behind it;
   a solid actor then carries, pushes and squishes like a platform;
   then each crowd, in the order added: its walkers the same way as one batch, then turn (``crowd.py``);
4. bullets, in the order added: a swept move along the step's segment, stopped by tiles, platforms,
   solid actors and the first actor (or walker) they touch (``_bullets.py``);
5. ropes, all at once: Verlet, the held particles swung with their actors (moved through what blocks
   them), nudged by the actors (then walkers) that moved, constraints, tiles (``ropes.py``);
6. touches: for each actor that touches a group, the actors of that group it overlaps or ran into, with
   the side it came from (``_touches.py``); then the walkers that touch a group, the same way;
7. triggers, in the order added, against actors in the order added (then walkers): enter / stay / exit.
Same grid, feel and inputs give bit-identical states (``state_hash``). The spatial hash (``_spatial.py``)
lists every actor, platform and trigger for the queries (``queries.py``), the movers, bullets and touches
and the trigger pass; what a step moved is re-read at the first query after it. (Crowds keep their
walkers in their own arrays; the trigger and touch passes test them there, all at once.)
"""

from __future__ import annotations

import copy
import hashlib
import math
import struct
from collections.abc import Mapping
from typing import NamedTuple

from . import _batch, _bullets, _check, _motion, _runway, _snapshot, _solids, _touches, queries, sweep
from ._spatial import SpatialHash
from .bodies import NO_BUTTONS, Actor, ActorEvent, Buttons, Character, Contact, Trigger, TriggerEvent
from .controller import control
from .crowd import Crowd, Walker, _Stand
from .feel import FeelConfig
from .geometry import overlaps, place_before
from .platforms import Platform
from .ropes import Rope, _RopeSet
from .tiles import TileGrid

__all__ = ["StepResult", "World"]

_new, _floor, _FLOOR = tuple.__new__, math.floor, (0, -1)  # (a runway's floor contact: see step)


def _is_actor(obj) -> bool:
    return isinstance(obj, Actor)


class StepResult(NamedTuple):
    step: int  # the step just taken, numbered from 1
    # (a crowd's walkers are reported as ``Walker``s, after the actors: see crowd.py)
    triggers: list  # [TriggerEvent] in order: by trigger as added, then by actor as added (then walkers)
    squished: list  # [Actor | Walker] crushed by a mover, or found inside solid geometry with no way out
    jumped: list  # [Character] that jumped (wall jumps too)
    landed: list  # [Character]
    dropped: list  # [Character] dropped through a one-way platform
    events: list  # [ActorEvent] for every actor and walker: landed, wall, ceiling, pushed, squished (and a
    #   character's dash, wall_jump, climb_jump, wall_slide); in order
    touches: list  # [Touch]: by actor as added (then walkers), what it ran into first, then what it overlaps


class World:
    """Everything that moves, on one tile grid, stepped at the feel's fixed rate."""


    def __init__(self, grid: TileGrid, feel: FeelConfig | None = None, *, cell: float = 64.0):
        if not isinstance(grid, TileGrid):
            raise TypeError("World needs a TileGrid; build one with TileGrid(kinds) or TileGrid.from_ascii(text)")
        self.grid = grid
        # The broadphase over every actor, platform and trigger (``_spatial.py``), current after every
        # phase of a step that moves bodies and after add / remove / teleport.
        self._hash = SpatialHash(_check.size("World", "cell", cell))
        self.feel = self._valid_feel(feel)
        self._derived = self.feel.derived
        self.actors: list[Actor] = []
        self.crowds: list[Crowd] = []
        self.platforms: list[Platform] = []
        self.triggers: list[Trigger] = []
        self._members: set = set()  # every actor, platform and trigger in this world (identity)
        self._rope_set = _RopeSet(self)
        self.ropes: list[Rope] = self._rope_set.ropes
        self._inside: set[tuple[Trigger, Actor]] = set()  # (trigger, actor) pairs overlapping now
        self._sensor_order: dict[Trigger, int] | None = None  # trigger -> index, rebuilt when triggers change
        self._sensed: tuple = (None, 0, 0)  # (_sensor_order, Trigger.masks, groups sensed) when last gathered
        self._trigger_moves = Trigger.moves  # Trigger.moves when the hash last saw the triggers' boxes
        self._tiles_grid, self._tiles_seen = grid, grid.version  # the grid and its edits the actors were checked on
        self.steps = 0
        self._grid_tables = None  # the grid's arrays for crowds (_batch.Tables), built when first needed
        self._crates = False  # were there solid actors in the last step (walk() looks for ground on them)
        self._st = None  # during the rope phase of a step: its _solids.Step (what blocks a rope's holders)
        self._rest = (None, 0.0, 0.0, 0.0)  # (derived, fall.max_speed, vy, dy): a plain actor's fall from rest
        self._runs = (None, -1, {})  # (grid, version, {key: runway}): the runways found on its tiles as they are

    @staticmethod
    def _valid_feel(feel) -> FeelConfig:
        if feel is None:
            return FeelConfig()
        if not isinstance(feel, FeelConfig):
            raise TypeError(f"World: feel must be a FeelConfig (or None for the defaults), got {type(feel).__name__}; "
                            f"e.g. FeelConfig.from_dict({{'jump': {{'height': 56}}}})")
        return feel

    # -- membership ------------------------------------------------------------------------------------
    def add(self, obj):
        """Add an Actor/Character, Crowd, Platform, Rope or Trigger; returns it."""
        if isinstance(obj, Rope):
            return self._rope_set.add(obj, self.grid)
        if isinstance(obj, Crowd):
            if obj._world is not None:
                raise ValueError(f"{obj!r} is already in a world; a crowd belongs to one world at a time")
            obj._world = self
            self.crowds.append(obj)
            return obj
        if isinstance(obj, Actor):
            bucket = self.actors
        elif isinstance(obj, Platform):
            bucket = self.platforms
        elif isinstance(obj, Trigger):
            bucket = self.triggers
        else:
            raise TypeError(f"cannot add {type(obj).__name__} to a World; add an Actor, Character, Crowd, "
                            f"Platform, Rope or Trigger")
        if obj in self._members:
            raise ValueError(f"{obj!r} is already in this world")
        if bucket is self.actors:
            obj._clear = None  # checked for solid geometry at its first step
            obj._world = self  # (so teleport re-indexes it at once)
        elif bucket is self.platforms:
            obj._seen = None  # a new platform may sit on actors: they are checked next step
        else:
            self._sensor_order = None
        bucket.append(obj)
        self._members.add(obj)
        self._hash.insert(obj, obj.x, obj.y, obj.w, obj.h)
        if bucket is self.triggers and len(bucket) > _solids.FEW and self._hash.mirrored is None:
            self._hash.mirror(_is_actor)  # (many coins: the movers look for actors in a hash of their own)
        return obj

    def remove(self, obj) -> None:
        """Take an actor, crowd, platform, rope or trigger out of the world (an actor leaves its triggers
        silently)."""
        if isinstance(obj, Rope):
            return self._rope_set.remove(obj)
        if isinstance(obj, Crowd):
            if obj._world is not self:
                raise ValueError(f"{obj!r} is not in this world; call world.add(crowd) first")
            self.crowds[:] = [c for c in self.crowds if c is not obj]
            obj._world = None
            self._inside = {pair for pair in self._inside if not (pair[1].__class__ is Walker and pair[1].crowd is obj)}
            return None
        if obj not in self._members:
            raise ValueError(f"{obj!r} is not in this world; call world.add(obj) first")
        self._members.discard(obj)
        self._hash.remove(obj)
        bucket = self.actors if isinstance(obj, Actor) else \
            self.triggers if isinstance(obj, Trigger) else self.platforms
        for i, o in enumerate(bucket):  # (only its own list: a bullet gone never walks the 10,000 coins)
            if o is obj:
                del bucket[i]
                break
        if isinstance(obj, Trigger):
            self._inside = {pair for pair in self._inside if pair[0] is not obj}
            self._sensor_order = None
        elif isinstance(obj, Actor):
            if obj._hold is not None:
                obj._hold.release(obj)  # (it falls, keeping its swing)
            if obj._world is self:
                obj._world = None
            self._inside = {pair for pair in self._inside if pair[1] is not obj}
            if obj.ground is not None and obj.ground.platform is not None:
                obj.ground = None
            obj.drop_platform = None
        if isinstance(obj, Platform) or isinstance(obj, Actor) and obj.solid:
            for a in self.actors:  # what stood on it stands on nothing now
                if a.ground is not None and a.ground.platform is obj:
                    a.ground, a.on_ground = None, False
                if a.drop_platform is obj:
                    a.drop_platform = None
            for crowd in self.crowds:
                crowd._forget(obj)

    def set_feel(self, feel: FeelConfig) -> None:
        """Retune live: positions, velocities and timers in steps are kept."""
        self.feel = self._valid_feel(feel)
        self._derived = self.feel.derived

    def _tables(self) -> _batch.Tables:
        """The grid as crowds read it (rebuilt when the grid is replaced; edits are followed tile by tile)."""
        t = self._grid_tables
        if t is None or t.grid is not self.grid or (t.version != self.grid.version and not t.update()):
            t = self._grid_tables = _batch.Tables(self.grid)
        return t

    @property
    def dt(self) -> float:
        """s per step: 1 / feel.physics.hz."""
        return self._derived.dt

    # -- stepping --------------------------------------------------------------------------------------
    def step(self, inputs: Buttons | Mapping[Character, Buttons] | None = None) -> StepResult:
        """Advance one fixed step. ``inputs``: one Buttons for every Character, or a dict per character
        (characters left out hold nothing); None holds nothing."""
        by_actor = inputs is not None and inputs.__class__ is not Buttons and self._check_inputs(inputs)
        self.steps += 1
        grid, platforms, d, actors, space = self.grid, self.platforms, self._derived, self.actors, self._hash
        if grid.version != self._tiles_seen or grid is not self._tiles_grid:
            self._sync_tiles()
        stale = False
        for p in platforms:
            p.prev_x, p.prev_y = p.x, p.y
            if p._seen != (p.x, p.y, p.w, p.h, p.one_way):
                stale = True  # added, moved or resized by hand: actors under it are checked
                self._check_box(p)
                space.move(p, p.x, p.y, p.w, p.h)
        special = False
        check = None  # the actors the engine did not leave where they are
        for a in actors:
            a.prev_x, a.prev_y = a.x, a.y
            a.squished = False
            if a.solid or a.bullet or a.touches:
                special = True
            if stale or a._clear != (a.x, a.y, a.w, a.h):
                check = [a] if check is None else check + [a]
        solids, bullets, touchers = platforms, (), ()
        if special:
            solids, bullets, touchers, moved = self._roles()
            if moved:
                check = actors  # a solid actor moved by hand: every actor is checked
                stale = True  # (and every walker)
        self._crates = solids is not platforms
        crowds = self.crowds
        # what the step collects as it goes (a world of plain actors on tiles needs none of it)
        st = _solids.Step(grid, actors, platforms, solids, space) if platforms or special or check or crowds \
            else None
        if check:
            for a in check:
                a._run = None  # (moved or resized by hand: its runway is looked for again)
        if check and self._unstick_all(check, st):
            stale = True  # a crate moved out of solid geometry: the walkers are checked too
        if crowds:  # walkers that could meet a platform or a solid actor this step: stand-in actors
            stands = []
            for crowd in crowds:
                crowd._begin(self, stale, st)
                stands += crowd._stands
            if stands:
                st.actors, st.stands = actors + stands, stands

        moved = space.pending  # (re-read by the hash at its next query: see _spatial.py)
        for p in platforms:  # (what they carry and push is marked moved as it goes: _solids.py)
            _solids.move_platform(st, p, d.dt)
            p._seen = (p.x, p.y, p.w, p.h, p.one_way)

        jumped, landed, dropped = [], [], []
        many = len(platforms) > _solids.FEW  # then each actor looks only at the platforms near it
        events = st.events if st is not None else []
        lean, top_speed = _runway.ENABLED, self.feel.fall.max_speed
        runs = self._runs
        if runs[0] is not grid or runs[1] != grid.version:
            runs = self._runs = (grid, grid.version, {})
        runs = runs[2]  # (the runways found on these tiles, for the actors to share: _runway.find)
        # Runways (_runway.py): a plain actor on a flat stretch of tiles it found before, nothing solid
        # near, gravity 1: its whole step in a few lines (the same numbers as the general path below).
        # Among a few solid actors, they are tested too (every one: a superset of what the general path
        # asks), and a solid one only while it stays put (a move of its own is a mover's: _solids.follow)
        boxes = None if st is None or not st.crates else st.solids if len(st.solids) <= _solids.FEW else False
        fast = lean and boxes is not False
        if fast:
            dt, ts = d.dt, grid.tile_size
            rest = self._rest
            if rest[0] is not d or rest[1] != top_speed:
                fall = min(0.0 + d.fall_gravity * 1.0 * dt, top_speed)  # World._fall from rest, scale 1
                rest = self._rest = (d, top_speed, fall, (0.0 + fall) * 0.5 * dt)
            fall, dy = rest[2], rest[3]
        alone = boxes is None and not many  # (then what blocks an actor's own move: the platforms, all of them)
        for a in actors:
            run = a._run
            if fast and run is not None and a.on_ground and a.vy == 0.0 and not a.squished and not a.bounce \
                    and a._gravity_scale == 1.0 and a._hold is None:
                if a.y == run[3] and a.ground is run[2]:
                    x, vx, y = a.x, a.vx, run[3]
                    dx = vx * dt
                    tx = x + dx if dx else x
                    x_min, x_max, dx_max = run[6], run[7], run[16]
                    if x_min <= x <= x_max and x_min <= tx <= x_max:
                        on = True
                    else:  # over an end of the stretch, its centre over the stretch (as _runway.step tests it)
                        x_min, x_max, half, ca, cb = run[12], run[13], run[17], run[14], run[15]
                        on = x_min <= x <= x_max and x_min <= tx <= x_max and ca <= _floor((x + half) / ts) <= cb \
                            and ca <= _floor((tx + half) / ts) <= cb
                    if on and -dx_max <= dx <= dx_max \
                            and (run[21] == dy or _runway.falls_in(run, dy)) \
                            and not (platforms and _runway.near(platforms, x, tx, y, run[4], run[5], run[11])) \
                            and (boxes is None or (tx == x or not a.solid)
                                 and not _runway.near(boxes, x, tx, y, run[4], run[5], run[11], a)):
                        col, hit = _floor((x + run[17]) / ts), run[24]  # (the last step's contact, when the same)
                        if hit is None or hit[3][0] != col or hit[4] != vx or not vx or hit[5] != fall:
                            hit = run[24] = _new(Contact, (_FLOOR, run[8], None, (col, run[9]), vx, fall))
                        a.contacts = [hit]
                        a.vy = 0.0
                        a.x = tx
                        a._clear = (tx, y, run[4], run[5])
                        moved[a] = None
                        continue
                if alone and not a.solid and a.vx - a.vx == 0.0:
                    # the rest of a runway's steps (a slope tile, hanging past a stretch's end, leaving it): its
                    # own step or the general passes, and what the loop below does after them for this actor
                    if not _runway.step(a, grid, d, platforms, top_speed, runs):
                        self._move_plain(a, d, platforms)
                    a._clear = (a.x, a.y, a.w, a.h)
                    moved[a] = None
                    hits = a.contacts
                    if hits and (len(hits) > 1 or hits[0].normal[1] >= 0):  # (it was on the ground)
                        self._note(a, True, events)
                    continue
            if a.squished:  # pinned: crushed this step
                a.contacts = []
                continue
            if a.vx - a.vx != 0.0 or a.vy - a.vy != 0.0:  # NaN or inf (set by hand)
                raise ValueError(f"{a!r} has velocity vx={a.vx!r} vy={a.vy!r}; velocities must be finite px/s")
            if a.bullet:
                continue  # moved after everything else (4.)
            is_character = own_move = isinstance(a, Character)  # (own_move: never a runway, control or not)
            if is_character:
                if by_actor:
                    buttons = inputs.get(a, NO_BUTTONS)
                else:
                    buttons = inputs if inputs is not None else NO_BUTTONS
                if a._hold is not None or not a.control:
                    a.held = buttons  # (read by a rope it holds; no press is saved for later)
                    is_character = False
            if a._hold is not None:
                a.contacts = []  # swung by its rope (5.)
                continue
            was_grounded = a.on_ground
            x0, y0 = a.x, a.y
            if is_character:
                if a._feel is None:
                    feel, own = self.feel, d
                else:  # its own feel, at the world's step rate
                    feel, own = a._own_feel(self.feel.physics)
                blockers = st.around(a, d.dt, own.reach) if st is not None and (st.crates or many) else platforms
                did_jump, did_land, did_drop = control(a, buttons, feel, own, grid, blockers, events)
                if did_jump:
                    jumped.append(a)
                if did_land:
                    landed.append(a)
                if did_drop:
                    dropped.append(a)
            else:
                blockers = st.around(a, d.dt) if st is not None and (st.crates or many) else platforms
                if own_move or not (lean and _runway.step(a, grid, d, blockers, top_speed, runs)):
                    self._move_plain(a, d, blockers)
            if st is not None and st.crates and a.contacts:
                self._push_crates(a, x0, st)
            if a.solid:
                _solids.follow(st, a, x0, y0)
            a._clear = (a.x, a.y, a.w, a.h)
            moved[a] = None
            hits = a.contacts
            if (a.on_ground and not was_grounded) or (hits and (len(hits) > 1 or hits[0].normal[1] >= 0)):
                self._note(a, was_grounded, events)  # (not for the floor pressed on by a grounded actor)

        if crowds:
            for crowd in crowds:
                crowd._move(self, d, st)
            if st.stands:
                st.actors, st.stands = actors, ()
            if st.squished:
                st.squished[:] = [a.walker if a.__class__ is _Stand else a for a in st.squished]
            if events:  # (a stand-in's events are its walker's)
                events[:] = [e._replace(actor=e.actor.walker) if e.actor.__class__ is _Stand else e for e in events]

        self._st = st  # (what the ropes' holders are blocked by)
        if bullets:
            self._fly(bullets, st)
        if self.ropes:
            self._rope_set.step(grid, actors, d, crowds, self._swing_to)
            self._st = None
        if touchers or crowds:
            touches = _touches.find(touchers, actors, space, _solids.FEW, crowds)
        else:
            touches = []
        sensed = self._sense() if self.triggers else []
        squished = st.squished if st is not None else []
        return _new(StepResult, (self.steps, sensed, squished, jumped, landed, dropped, events, touches))

    def _roles(self):
        """The solids (platforms, then solid actors in the order added), the bullets and the actors that
        touch a group, checked; and whether a solid actor was moved by hand (then every actor is checked
        for solid geometry)."""
        solids, bullets, touchers, moved = list(self.platforms), [], [], False
        for a in self.actors:
            if a.touches:
                touchers.append(a)
            if a.bullet:
                a._run = None  # (never on a runway: see _runway.py)
            if a.solid:
                if a.bullet:
                    raise ValueError(f"{a!r} is both solid and a bullet; an actor is one or the other")
                solids.append(a)
                if a._clear != (a.x, a.y, a.w, a.h):
                    moved = True
            elif a.bullet:
                if isinstance(a, Character):
                    raise ValueError(f"{a!r}: a Character cannot be a bullet (bullets are plain Actors)")
                bullets.append(a)
        if len(solids) == len(self.platforms):
            solids = self.platforms  # (no solid actors: the fast path)
        return solids, bullets, touchers, moved

    def _push_crates(self, a: Actor, x0: float, st) -> None:
        """An actor whose own move ran into the side of a pushable crate pushes it the rest of the way (times
        ``1 - friction``), then walks on behind it at that speed; a crate pushes the next pushable one."""
        for k, c in enumerate(a.contacts):
            crate = c.other
            if not c.normal[0] or not getattr(crate, "pushable", False) or crate is a or crate.squished:
                continue
            dt = self._derived.dt
            keep = 1.0 - crate.friction
            rest = (c.vx * dt - (a.x - x0)) * keep  # px: what the wall took from this step's move, times keep
            if rest * c.normal[0] >= 0.0 or not keep:
                continue  # (moving away from it, or a crate that cannot move)
            moved = self._shove(crate, rest, st, 0)
            if moved:
                bx = a.x
                solids = st.around(a, dt)
                hit = _motion.move_x(self.grid, solids, a, a.x + moved)
                a.vx = c.vx if hit is None or hit.other is crate else 0.0  # (its run, slowed by the crate)
                if a.x != bx:
                    a.contacts[k] = c._replace(vx=c.vx)
            return

    def _shove(self, crate: Actor, dx: float, st, depth: int) -> float:
        """Move a pushed crate ``dx`` px across through what blocks it (pushing the pushable crate beyond in
        turn), carrying its riders; returns how far it went."""
        x0, y0 = crate.x, crate.y
        target = x0 + dx
        pad = abs(dx) + self.grid.tile_size
        box = (crate.x - pad, crate.y - pad, crate.w + 2.0 * pad, crate.h + 2.0 * pad)
        hit = _motion.move_x(self.grid, st.blockers(crate, *box), crate, target)
        beyond = hit.other if hit is not None else None
        # a platform beyond stops the crate: platforms are never pushed (and have no 'pushable')
        if isinstance(beyond, Actor) and beyond.pushable and not beyond.squished and depth < 8:
            left = (target - crate.x) * (1.0 - beyond.friction)
            if left * dx > 0.0 and self._shove(beyond, left, st, depth + 1):
                _motion.move_x(self.grid, st.blockers(crate, *box), crate, crate.x + left)  # (up to it)
        moved = crate.x - x0
        if moved:
            _solids.follow(st, crate, x0, y0)
            crate._clear = (crate.x, crate.y, crate.w, crate.h)
        return moved

    def _swing_to(self, a: Actor, x: float, y: float) -> tuple[float, float]:
        """Move an actor held by a rope toward ``x, y`` through tiles, platforms and solid actors (the Y
        pass, then the X pass); it hangs: never on the ground. Returns where it ended."""
        st = self._st
        solids = st.around(a, self._derived.dt) if st is not None and st.crates else self.platforms
        vx, vy = a.vx, a.vy
        a.vx, a.vy = (x - a.x) / self._derived.dt, (y - a.y) / self._derived.dt  # (what contacts report)
        _motion.move(self.grid, solids, a, x - a.x, y - a.y, False)
        a.vx, a.vy = vx, vy
        a.on_ground, a.ground = False, None
        a._clear = (a.x, a.y, a.w, a.h)
        self._hash.pending[a] = None
        return a.x, a.y

    def _note(self, a: Actor, was_grounded: bool, events: list, target=None) -> None:
        """The events of an actor's own move: walls and ceilings it ran into, and a landing; for a bullet,
        the actor (or walker) ``target`` it stopped at, a "hit"."""
        landed = a.on_ground and not was_grounded
        for c in a.contacts:
            n = c.normal
            if target is not None and c.other is target and c.kind == "actor":
                events.append(ActorEvent("hit", a, n, None, target, c.vx, c.vy))
            elif n[1] < 0:
                if landed:
                    events.append(ActorEvent("landed", a, n, c.tile, c.other, c.vx, c.vy))
                    landed = False
            else:
                events.append(ActorEvent("ceiling" if n[1] else "wall", a, n, c.tile, c.other, c.vx, c.vy))
        if landed:  # set down without a hit (already at the surface, or snapped onto it)
            g = a.ground
            tile = None if g.platform is not None else \
                _motion._support_tile(self.grid, a, a.y + a.h, g.kind)
            events.append(ActorEvent("landed", a, (0, -1), tile, g.platform, a.vx, a.vy))

    def _fly(self, bullets, st) -> None:
        """Move every bullet, swept (``_bullets.py``)."""
        d, grid, events = self._derived, self.grid, st.events
        reach = 2.0 * grid.tile_size  # px: targets that moved at most this far this step are found near the path
        fast, rank = None, None  # the bodies that moved further (found once a step, when a bullet looks)
        for b in bullets:
            if b.squished:
                continue
            was_grounded = b.on_ground
            dy = self._fall(b, d)
            dx = b.vx * d.dt
            x, y = min(b.x, b.x + dx), min(b.y, b.y + dy)
            far = abs(dx) + abs(dy) + 1.0  # px: slides and bounces turn it, but its path is no longer than this
            solids = st.blockers(b, x - 1.0, y - 1.0, b.w + abs(dx) + 2.0, b.h + abs(dy) + 2.0,
                                 st.platforms_in(b.x - far, b.y - far, b.w + 2.0 * far, b.h + 2.0 * far))
            if b.touches:
                if fast is None:
                    fast = self._fast_bodies(reach)
                    rank = self._body_rank() if fast else None
                    near = self._bullet_pool(st, bullets)
                targets = _bullets.targets(near, b, dx, dy, reach, fast, rank)
            else:
                targets = ()
            hit = _bullets.fly(grid, solids, targets, b, dx, dy, d.fall_gravity * b._gravity_scale * d.dt)
            b._clear = (b.x, b.y, b.w, b.h)
            st.space.pending[b] = None
            if fast is not None and (abs(b.x - b.prev_x) > reach or abs(b.y - b.prev_y) > reach):
                fast.append(b)  # (a later bullet may meet this one)
                rank = rank or self._body_rank()
            if b.contacts or (b.on_ground and not was_grounded):
                self._note(b, was_grounded, events, None if hit is None else hit[0])

    def _bullet_pool(self, st, bullets):
        """What the bullets ask for the bodies they may touch near a box (``_bullets.targets``' ``near``):
        among many actors of which only a few are in the groups some bullet touches (the player among
        enemies and bullets), those few wherever they are, as added -- a superset of the near ones in the
        same order, so the same first hit, without asking the hash (which also lists every coin)."""
        if self.crowds or len(self.actors) <= _solids.FEW or not _touches.POOL:
            return self._near_bodies(st)
        mask = 0
        for b in bullets:
            mask |= b.touches
        pool = [a for a in self.actors if a.group & mask and not a.solid]
        if len(pool) > _solids.FEW:
            return st.near
        return lambda x, y, w, h: pool

    def _fast_bodies(self, reach: float) -> list:
        """The actors and walkers that moved more than ``reach`` px along an axis this step (so far): a
        bullet's targets are gathered near its path, and these wherever they are."""
        out = [a for a in self.actors if not a.bullet and (abs(a.x - a.prev_x) > reach or abs(a.y - a.prev_y) > reach)]
        for crowd in self.crowds:
            out += crowd._fast(reach)
        return out

    def _near_bodies(self, st):
        """``st.near``, and then the crowds' walkers in the box (what a bullet may hit)."""
        if not self.crowds:
            return st.near

        def near(x: float, y: float, w: float, h: float) -> list:
            found = st.near(x, y, w, h)
            walkers = [wk for crowd in self.crowds for wk in crowd._in_box(x, y, w, h)]
            return found + walkers if walkers else found

        return near

    def _check_inputs(self, inputs) -> bool:
        """Validate ``step``'s argument; returns True for a per-character dict."""
        if inputs is None or isinstance(inputs, Buttons):
            return False
        if not isinstance(inputs, Mapping):
            raise TypeError(f"world.step() takes Buttons (held by every Character), a dict {{character: Buttons}} "
                            f"or None; got {type(inputs).__name__} {inputs!r}")
        for who, buttons in inputs.items():
            if not isinstance(who, Character):
                raise ValueError(f"world.step(): {who!r} is not a Character; only Characters read Buttons "
                                 f"(move a plain Actor by setting its vx / vy)")
            if who not in self._members:
                raise ValueError(f"world.step(): {who!r} is not in this world; call world.add(character) first")
            if not isinstance(buttons, Buttons):
                raise TypeError(f"world.step(): the buttons for {who!r} must be Buttons(...), "
                                f"got {type(buttons).__name__} {buttons!r}")
        return True

    def _sync_tiles(self) -> None:
        """Tiles edited since the last step (``grid.set_tile``): every actor overlapping one is checked at
        this step like one placed by hand (moved out of a new solid, or squished); a new grid checks all."""
        grid = self.grid
        changes = grid.changes_since(self._tiles_seen) if grid is self._tiles_grid else None
        if changes is None:
            for a in self.actors:
                a._clear = a._run = None
        else:
            ts, query = grid.tile_size, self._hash.query
            changes = list(dict.fromkeys(changes))
            for col, row in changes:
                x, y = col * ts, row * ts
                for a in query(x, y, ts, ts):
                    if isinstance(a, Actor) and overlaps(x, y, ts, ts, a.x, a.y, a.w, a.h):
                        a._clear = None
            for a in self.actors:  # (a runway read from an edited tile is looked for again)
                if a._run is not None and _runway.edited(a._run, changes):
                    a._run = None
        for crowd in self.crowds:
            crowd._recheck(grid, changes)
        self._tiles_grid, self._tiles_seen = grid, grid.version


    def _unstick_all(self, check: list, st) -> bool:
        """``_unstick`` the actors in ``check``: the solid ones first (in the order added), then the others,
        with every actor a crate was moved onto (so none is left inside a crate, whatever the add order).
        Returns True when a crate moved."""
        space = self._hash
        rest = [a for a in check if not a.solid]
        moved = False
        if len(rest) != len(check):
            listed = set(rest)
            for a in check:
                if not a.solid:
                    continue
                x, y = a.x, a.y
                self._unstick(a, st)
                space.move(a, a.x, a.y, a.w, a.h)
                if (a.x, a.y) == (x, y):
                    continue
                moved = True
                for b in st.near(a.x, a.y, a.w, a.h):
                    if b not in listed and not b.solid and overlaps(a.x, a.y, a.w, a.h, b.x, b.y, b.w, b.h):
                        rest.append(b)
                        listed.add(b)
            if moved:
                order = {b: i for i, b in enumerate(self.actors)}
                rest.sort(key=order.__getitem__)
        for a in rest:
            self._unstick(a, st)
            space.move(a, a.x, a.y, a.w, a.h)
        return moved

    def _unstick(self, a: Actor, st) -> None:
        """An actor the engine did not leave where it is: check its numbers, then move it out of solid
        geometry to the nearest free spot within ``_unstick_reach``, or report it squished (pinned)."""
        self._check_box(a)
        x, y = a.x, a.y
        reach = self._unstick_reach(a)
        pad = reach + self.grid.tile_size
        solids = st.blockers(a, a.x - pad, a.y - pad, a.w + 2.0 * pad, a.h + 2.0 * pad)
        if _motion.depenetrate(self.grid, solids, a, reach):
            if (a.x, a.y) != (x, y):
                a.prev_x, a.prev_y = a.x, a.y  # a correction, not motion: no interpolation smear
                a.on_ground, a.ground = False, None
            a._clear = (a.x, a.y, a.w, a.h)
        else:
            _solids.squish(st, a)

    @staticmethod
    def _check_box(body) -> None:
        """A body's x, y, w, h set by hand: finite numbers of px (sizes > 0), or a one-line error."""
        for name in ("x", "y", "w", "h"):
            v = getattr(body, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v)) or (name in "wh" and v <= 0):
                what = "a finite number of px" if name in "xy" else "a finite size > 0 px"
                fix = " (or use actor.teleport(x, y))" if isinstance(body, Actor) else ""
                raise ValueError(f"{body!r}: {name} must be {what}, got {v!r}; set it{fix}")

    def _unstick_reach(self, actor: Actor) -> float:
        """px: how far a step may move an actor found inside solid geometry to a free spot: the larger of
        one tile and half the actor's larger side."""
        return max(float(self.grid.tile_size), 0.5 * max(actor.w, actor.h))

    def settle(self, actor: Actor, reach: float | None = None) -> bool:
        """Stand ``actor`` on the ground near where it is (spawns, respawns): move it out of solid geometry
        to the nearest free spot within ``reach`` px (the same rule as a step: never through a wall), then
        drop it onto the ground at most ``reach`` px below (default reach: two tiles). Returns True when
        it stands; False leaves it where it was (inside geometry) or where it got free (no ground).
        """
        if isinstance(actor, Walker) and actor.index >= 0 and actor.crowd._world is self:
            stand = actor.crowd._stand(actor.index)
            done = self._settle(stand, reach)
            actor.crowd._store(stand)
            return done
        if not isinstance(actor, Actor) or actor not in self._members:
            raise ValueError(f"settle: {actor!r} is not an actor in this world; call world.add(actor) first")
        return self._settle(actor, reach)

    def _settle(self, actor: Actor, reach: float | None) -> bool:
        grid = self.grid
        reach = 2.0 * grid.tile_size if reach is None else _check.size("settle", "reach", reach, zero=True)
        st = _solids.Step(grid, self.actors, self.platforms, self._roles()[0], self._hash)
        pad = reach + actor.w + actor.h + grid.tile_size
        box = (actor.x - pad, actor.y - pad, actor.w + 2.0 * pad, actor.h + 2.0 * pad)
        platforms = st.blockers(actor, *box)
        if actor.solid:  # a crate is moved out of the other actors too, and lands on them, never inside one
            others = [o for o in st.near(*box) if o is not actor and not o.solid and overlaps(*box, o.x, o.y, o.w, o.h)]
            if others:
                platforms = list(platforms) + others
        if not _motion.depenetrate(grid, platforms, actor, reach):
            return False
        feet = actor.y + actor.h
        sup = _motion.find_support(grid, platforms, None, actor.x, actor.w, feet, feet + reach, False)
        actor.prev_x, actor.prev_y = actor.x, actor.y
        actor._clear = (actor.x, actor.y, actor.w, actor.h)
        listed = actor._listed  # (a walker standing in is not in the hash: its crowd is)
        if listed:
            self._hash.move(actor, actor.x, actor.y, actor.w, actor.h)
        if sup is None:
            return False
        actor.y = place_before(sup[0], actor.h)
        actor.prev_y = actor.y
        actor._clear = (actor.x, actor.y, actor.w, actor.h)
        if listed:
            self._hash.move(actor, actor.x, actor.y, actor.w, actor.h)
        actor.vy = 0.0
        actor.on_ground, actor.ground = True, sup[1]
        if isinstance(actor, Character):
            actor.air_steps = 0
        return True

    # -- queries (engine/queries.py) --------------------------------------------------------------------
    def tile_at(self, x: float, y: float) -> queries.Tile:
        """The tile ``(col, row, kind)`` holding the point (px); EMPTY off the map."""
        return queries.tile_at(self.grid, x, y)

    def query_rect(self, x: float, y: float, w: float, h: float) -> list:
        """Actors, platforms and triggers strictly overlapping the box, in the order added."""
        return queries.query_rect(self, x, y, w, h)

    def query_point(self, x: float, y: float) -> list:
        """Actors, platforms and triggers holding the point, in the order added."""
        return queries.query_point(self, x, y)

    def raycast(self, x0: float, y0: float, x1: float, y1: float, actors: bool = False,
                ignore=None) -> queries.RayHit | None:
        """The first tile, wall, platform (or, with ``actors``, actor) the segment enters, or None."""
        return queries.raycast(self, x0, y0, x1, y1, actors, ignore)

    def sweep(self, box, dx: float, dy: float, touches: int = 0, ignore=None) -> sweep.SweepHit | None:
        """The first tile, wall, platform or solid actor (or, with ``touches``, actor of those groups) the
        box would meet moving by (dx, dy) px, as a SweepHit (fraction, where it stops, normal, kind, tile,
        other), or None; nothing moves (``engine/sweep.py``). ``box``: an Actor (skips itself), a Rect or
        (x, y, w, h); ``ignore``: bodies to skip."""
        return sweep.sweep(self, box, dx, dy, touches, ignore)

    # -- triggers --------------------------------------------------------------------------------------
    def _sync_triggers(self) -> None:
        """Re-index the triggers when any trigger's box was changed (``Trigger.moves``)."""
        if self._trigger_moves != Trigger.moves:
            space = self._hash
            for t in self.triggers:
                space.move(t, *t._box)
            self._trigger_moves = Trigger.moves

    def _sense(self) -> list[TriggerEvent]:
        """Enter / stay / exit for every (trigger, actor) pair, ordered by trigger then actor."""
        if self._trigger_moves != Trigger.moves:
            self._sync_triggers()
        now: set[tuple[Trigger, Actor]] = set()
        order = self._sensor_order
        if order is None:
            order = self._sensor_order = {t: i for i, t in enumerate(self.triggers)}
        kept = self._sensed  # the groups some trigger reports (other actors are skipped at once), gathered
        if kept[0] is not order or kept[1] != Trigger.masks:  # again only when the triggers or a mask changed
            sensed = 0
            for t in self.triggers:
                sensed |= t.senses
            self._sensed = kept = (order, Trigger.masks, sensed)
        sensed = kept[2]
        triggers = self.triggers
        if len(triggers) <= _solids.FEW:  # (then testing each costs less than asking the hash)
            for a in self.actors:
                group = a.group
                if group & sensed:
                    ax, ay, aw, ah = a.x, a.y, a.w, a.h
                    for t in triggers:
                        if t._senses & group:  # (the field: the property costs a call)
                            tx, ty, tw, th = t._box
                            if ax < tx + tw and tx < ax + aw and ay < ty + th and ty < ay + ah:  # (overlaps)
                                now.add((t, a))
        else:
            near = self._hash.near
            for a in self.actors:
                group = a.group
                if group & sensed:
                    ax, ay, aw, ah = a.x, a.y, a.w, a.h
                    for t in near(ax, ay, aw, ah):
                        if isinstance(t, Trigger) and t.senses & group:
                            tx, ty, tw, th = t._box
                            if ax < tx + tw and tx < ax + aw and ay < ty + th and ty < ay + ah:  # (overlaps)
                                now.add((t, a))
        if self.crowds:
            for crowd in self.crowds:
                now.update(crowd._sense(triggers))
        before = self._inside
        self._inside = now
        if not now and not before:
            return []
        if len(now) == 1 and now == before:  # (the usual step inside: one actor staying in one trigger)
            for pair in now:
                return [_new(TriggerEvent, ("stay", pair[0], pair[1]))]
        pairs = now | before
        if len(pairs) > 1:
            rank = self._body_rank()
            pairs = sorted(pairs, key=lambda p: (order[p[0]], rank(p[1])))
        events = []
        for pair in pairs:
            if pair in now:
                events.append(TriggerEvent("stay" if pair in before else "enter", pair[0], pair[1]))
            else:
                events.append(TriggerEvent("exit", pair[0], pair[1]))
        return events

    def inside(self, trigger: Trigger) -> list[Actor | Walker]:
        """The actors overlapping ``trigger`` after the last step, in the order added, then the crowds'
        walkers (crowd by crowd, in row order)."""
        rank = self._body_rank()
        return sorted((a for t, a in self._inside if t is trigger), key=rank)

    def _body_rank(self):
        """A sort key putting bodies in step order: actors as added, then each crowd's walkers by row."""
        actor_order = {a: i for i, a in enumerate(self.actors)}
        crowd_order = {c: i for i, c in enumerate(self.crowds)}

        def rank(body) -> tuple[int, int]:
            if body.__class__ is Walker:
                return 1 + crowd_order.get(body.crowd, -1), body.index
            return 0, actor_order.get(body, -1)

        return rank

    def _fall(self, a: Actor, d) -> float:
        """Gravity on a plain actor over one step: updates ``vy``, returns the step's dy (exact for constant
        gravity)."""
        vy = a.vy
        scale = a._gravity_scale
        # rising against gravity, the feel's rising gravity, then the falling one: a hop has the player's
        # arc; a bouncing body has the falling one both ways, so bounce 1 comes back to where it fell from
        if scale > 0.0:
            g = d.gravity if vy < 0.0 and not a.bounce else d.fall_gravity
            vy_new = min(vy + g * scale * d.dt, self.feel.fall.max_speed)
        elif scale < 0.0:  # pulled up: the same, mirrored
            g = d.gravity if vy > 0.0 and not a.bounce else d.fall_gravity
            vy_new = max(vy + g * scale * d.dt, -self.feel.fall.max_speed)
        else:
            vy_new = vy
        a.vy = vy_new
        return (vy + vy_new) * 0.5 * d.dt

    def _move_plain(self, a: Actor, d, solids) -> None:
        """A plain actor: gravity, then the Y and X passes and the ground snap, with no controller."""
        grid = self.grid
        vy0 = a.vy
        dy = self._fall(a, d)
        was_grounded = a.on_ground
        dx = a.vx * d.dt
        reach = _motion.short_reach(a, dx, was_grounded, False)
        if _motion.flat_step(grid, solids, a, dx, dy, reach) if was_grounded \
                else _motion.air_step(grid, solids, a, dx, dy, reach):
            return
        rest = d.fall_gravity * a._gravity_scale * d.dt  # px/s: a slower rebound off a floor stops
        _hit, x_before = _motion.move(grid, solids, a, dx, dy, False, None, rest, vy0)
        _motion.land(grid, solids, a, was_grounded, a.x - x_before)

    # -- state -----------------------------------------------------------------------------------------
    def state_hash(self) -> str:
        """A hex digest of everything the next step reads: the grid, the feel, the step count, every
        actor (box, velocity, flags, ground and the platform it stands on, timers, held buttons), every
        platform (box, path, progress), every rope particle, every trigger box and who is inside it,
        every crowd's walkers (the same, and their directions, speeds and settings)."""
        h = hashlib.sha256(self.grid.digest())
        pack = struct.pack
        h.update(repr(self.feel).encode())
        h.update(pack("<q", self.steps))
        index = {p: i for i, p in enumerate(self.platforms)}
        for i, a in enumerate(self.actors):
            if a.solid:
                index[a] = len(self.platforms) + i  # a crate stood on

        def which(p) -> int:
            return -1 if p is None else index.get(p, -2)

        for a in self.actors:
            g = a.ground
            h.update(type(a).__name__.encode())
            h.update(pack("<7d2?", a.x, a.y, a.w, a.h, a.vx, a.vy, a._gravity_scale, a.on_ground, a.snap))
            h.update(pack("<2?d2Q?d", a.solid, a.bullet, a.bounce, a.group, a.touches, a.pushable, a.friction))
            h.update(pack("<2q", which(a.drop_platform), -3 if g is None else which(g.platform)))
            if g is not None:
                h.update(pack("<?", g.one_way))
                h.update(g.kind.encode())
            if isinstance(a, Character):
                since = -1 if a.since_press is None else a.since_press
                h.update(pack("<4q2?", a.facing, a.air_steps, since, a.drop_left, a.jumping, a.control))
                h.update(pack("<6?", *a.held))
                since = -1 if a.since_dash is None else a.since_dash
                wall = a.wall_hit
                h.update(pack("<9q2d", a.wall_steps, a.wall_side, a.grip_used, a.lock_left, a.lock_dir,
                              a.dash_left, a.dash_cooldown, a.dashes_spent, since, *a.dash_dir))
                if wall is not None:
                    h.update(pack("<2q", *(wall.tile or (-1, -1))))
                    h.update(pack("<q", which(wall.other)))
                if a._feel is not None:
                    h.update(repr(a._feel).encode())
        for p in self.platforms:
            path = p.path
            h.update(pack("<16d?", p.x, p.y, p.w, p.h, *p.state()[2:], p.one_way))
            h.update(pack("<2d", path.speed, path.wait))
            h.update(path.mode.encode())
            h.update(pack(f"<{2 * len(path.points)}d", *(v for pt in path.points for v in pt)))
        rank = self._body_rank()
        for t in self.triggers:
            h.update(pack("<4d", *t._box))
            h.update(bytes(1 if (t, a) in self._inside else 0 for a in self.actors))
            inside = sorted(rank(w) for t2, w in self._inside if t2 is t and w.__class__ is Walker)
            h.update(pack(f"<{2 * len(inside)}q", *(v for pair in inside for v in pair)))
        self._rope_set.digest(h, self.grid)
        for crowd in self.crowds:
            crowd._digest(h, which)
        return h.hexdigest()

    def clone(self, triggers: bool = True) -> World:
        """An independent copy (its own copy of the grid) sharing the bodies' ``data`` (for previews).

        ``triggers=False`` leaves the sensors out: cheaper, and they never move anything.
        """
        memo = {}  # (the grid is copied: tile edits in one do not show in the other)
        for t in self.triggers:
            memo[id(t.data)] = t.data
        for p in self.platforms:
            memo[id(p.data)] = p.data
        for a in self.actors:
            memo[id(a.data)] = a.data
        for crowd in self.crowds:
            for w in crowd.walkers:
                memo[id(w.data)] = w.data
        if not triggers:
            saved = (self.triggers, self._inside, self._sensor_order, self._members, self._hash)
            self.triggers, self._inside, self._sensor_order = [], set(), None
            self._members = {m for m in self._members if not isinstance(m, Trigger)}
            self._hash = SpatialHash(self._hash.cell)
            for obj in saved[4].objects():
                if not isinstance(obj, Trigger):
                    self._hash.insert(obj, obj.x, obj.y, obj.w, obj.h)
            try:
                return copy.deepcopy(self, memo)
            finally:
                self.triggers, self._inside, self._sensor_order, self._members, self._hash = saved
        return copy.deepcopy(self, memo)

    # -- snapshots (engine/_snapshot.py) ----------------------------------------------------------------
    def snapshot(self, extra=()) -> _snapshot.Snapshot:
        """The whole simulation state now: bodies, timers, platform phases, membership, trigger overlaps.

        Cheap (plain values, no deep copy). ``extra``: bodies kept outside the world whose state should
        come back too (e.g. a removed player that will be added again). Feel and grid are not state.
        """
        return _snapshot.take(self, extra)

    def restore(self, snap: _snapshot.Snapshot) -> None:
        """Put this world (the same body objects) back to ``snap``; stepping on is bit-identical to
        never having left. A snapshot can be restored any number of times."""
        _snapshot.put(self, snap)
