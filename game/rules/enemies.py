"""Enemies: walkers, hoppers and flyers in the level's world, their rules, and stomps.

Walkers are the walkers of one engine ``Crowd`` (moved as a numpy batch, the crowd's own ledge probe
off); hoppers and flyers are plain engine ``Actor``s (group ``ENEMY``). The same ``World`` steps them with
the player, so slopes, one-way tiles and platforms apply to all. After every world step
:meth:`Enemies.after_step` sets what each one does on the next:

- ``walker`` walks at ``speed``; it turns round at a wall and where the ground ends ahead (it never walks
  off an edge: the ground is probed one step ahead of its leading foot), for all walkers at once.
- ``hopper`` sits ``hop_period`` s, then hops to ``hop_height`` px at ``speed`` sideways; it turns round
  at walls, and before a hop whose landing spot has no ground under it.
- ``flyer`` has no gravity and follows its ``route`` like a moving platform (ping-pong, ``wait`` s at
  each end): its position is a pure function of the time since it started, so it needs no state.

The player touches the ``ENEMY`` group (``Session`` sets the masks). :meth:`Enemies.meet` reads the step's
touches: landing on an enemy from above (``Touch.side == "top"``: its previous top at or below the
player's previous feet) stomps it (it is removed, a puff is shown, the player bounces: full jump height
while jump is held, a small hop when not); any other touch hits the player. Enemies squished by a
platform or fallen out of the map die quietly.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from engine import Actor, Crowd, TileKind, Walker

__all__ = ["HERO", "ENEMY", "SHOT", "Enemies", "Puff", "launch", "route_position"]

HERO, ENEMY, SHOT = 1, 2, 4  # touch groups (bits): the player, enemies, bullets
LEDGE_PROBE = 0.5  # px beyond the distance of one step that a walker looks for ground ahead
NEVER = 1 << 30  # air_steps of a body launched from the ground: no coyote jump


class Puff(NamedTuple):
    """An enemy stomped (or a bullet burst): where and when, for the puff drawn on screen."""

    step: int  # world step it happened
    x: float  # px, centre
    y: float
    kind: str = ""  # the enemy's kind (its flattened frame shows under the puff), "" for a bullet
    w: float = 0.0  # px, the enemy's box
    h: float = 0.0
    facing: int = 1


class Enemy:
    """One enemy: its spec and its engine body (a crowd ``Walker`` for a walker, else an ``Actor``)."""

    __slots__ = ("actor", "spec")

    def __init__(self, spec, actor: Actor):
        self.spec = spec
        self.actor = actor


def route_position(route, speed: float, wait: float, t: float) -> tuple[float, float]:
    """Where a ping-pong route (points, ``speed`` px/s, ``wait`` s at each end) is ``t`` s after starting
    at its first point: out, wait, back, wait, again."""
    if len(route) < 2 or speed <= 0.0:
        return route[0]
    lengths = [math.dist(a, b) for a, b in zip(route, route[1:], strict=False)]
    total = sum(lengths)
    if total <= 0.0:
        return route[0]
    one_way = total / speed
    t %= 2.0 * (one_way + wait)
    if t < one_way:
        d = t * speed
    elif t < one_way + wait:
        d = total
    elif t < 2.0 * one_way + wait:
        d = total - (t - one_way - wait) * speed
    else:
        d = 0.0
    for (ax, ay), (bx, by), n in zip(route, route[1:], lengths, strict=False):
        if d <= n and n > 0.0:
            f = d / n
            return ax + (bx - ax) * f, ay + (by - ay) * f
        d -= n
    return route[-1]


class Enemies:
    """The level's enemies in one world. State that a step changes and is not in the world's own snapshot
    (who is alive, facing, hop timers, when each started, recent puffs) is :meth:`state`."""

    def __init__(self, world, level):
        self.world = world
        self.level = level
        self.crowd = world.add(Crowd("enemies"))  # the walkers, stepped as one batch
        self.all = [Enemy(spec, self._body(spec)) for spec in level.enemies]
        self.index = {e.actor: i for i, e in enumerate(self.all)}  # body -> its enemy number
        self._actors = [i for i, e in enumerate(self.all) if e.spec.kind != "walker"]  # ruled after each step
        n = len(self.all)
        self.alive = [True] * n
        self.facing = [e.spec.facing for e in self.all]  # (a walker's is its crowd row's direction)
        self.hop_left = [0] * n  # steps a hopper still sits on the ground
        self.epoch = [0] * n  # world step a flyer's route started at
        self.puffs: tuple[Puff, ...] = ()
        for i in range(n):
            self._start(i)

    def _body(self, spec):
        if spec.kind == "walker":
            return self.crowd.add(spec.x, spec.y, spec.w, spec.h, speed=spec.speed, direction=spec.facing,
                                  ledges=False, group=ENEMY, name=spec.name, data=spec)  # (ledges: _turn)
        return self.world.add(Actor(spec.x, spec.y, spec.w, spec.h, gravity_scale=0.0 if spec.kind == "flyer"
                                    else 1.0, name=spec.name, data=spec, group=ENEMY))

    # -- life -----------------------------------------------------------------------------------------------
    def _start(self, i: int) -> None:
        e, a = self.all[i], self.all[i].actor
        spec = e.spec
        a.teleport(spec.x, spec.y)
        self.facing[i] = spec.facing
        self.hop_left[i] = self.hop_steps(spec)
        self.epoch[i] = self.world.steps
        if spec.kind == "walker":
            a.direction = spec.facing
            a.vx = spec.facing * spec.speed
        elif spec.kind == "flyer":
            self._steer(i)

    def reset(self) -> None:
        """The player respawned: every living enemy starts over from where the level placed it (the ones
        stomped stay stomped, like coins taken)."""
        for i in range(len(self.all)):
            if self.alive[i]:
                self._start(i)

    def put(self, i: int, spec) -> None:
        """Enemy ``i`` starts over as ``spec`` (an EnemySpec: where, which kind, how it moves), alive, in a
        body of its own."""
        e = self.all[i]
        if self.alive[i]:
            self._take_out(e.actor)
        del self.index[e.actor]
        e.spec, e.actor = spec, self._body(spec)
        self.index[e.actor] = i
        self.alive[i] = True
        self._actors = [j for j, other in enumerate(self.all) if other.spec.kind != "walker"]
        self._start(i)

    def carry(self, old: Enemies) -> None:
        """F5: continue ``old``'s enemies (a session of the same run on the map read again, at the same world
        step): an enemy the map file did not change (an equal spec) stays stomped, or goes on where it was;
        a new or changed one starts from where the map places it."""
        before = {e.spec: j for j, e in enumerate(old.all)}
        for i, e in enumerate(self.all):
            j = before.get(e.spec)
            if j is None:
                self._start(i)
                continue
            if not old.alive[j]:
                self.alive[i] = False
                self._take_out(e.actor)
                continue
            o = old.all[j].actor
            e.actor.teleport(o.x, o.y)
            e.actor.vx, e.actor.vy = o.vx, o.vy
            if isinstance(o, Walker):
                e.actor.direction = o.direction
            self.facing[i], self.hop_left[i], self.epoch[i] = old.facing[j], old.hop_left[j], old.epoch[j]

    def kill(self, actor: Actor, step: int) -> None:
        i = self.index[actor]
        if not self.alive[i]:
            return
        puff = Puff(step, actor.x + actor.w / 2, actor.y + actor.h / 2, self.all[i].spec.kind, actor.w, actor.h,
                    self.facing_of(i))
        self.alive[i] = False
        self._take_out(actor)
        self.puffs = (*self._recent(step), puff)

    def _take_out(self, body) -> None:
        if isinstance(body, Walker):
            self.crowd.remove(body)
        else:
            self.world.remove(body)

    def facing_of(self, i: int) -> int:
        """Which way living enemy ``i`` faces: +1 right, -1 left."""
        body = self.all[i].actor
        return body.direction if isinstance(body, Walker) else self.facing[i]

    def _recent(self, step: int) -> tuple[Puff, ...]:
        hz = round(1.0 / self.world.dt)
        return tuple(p for p in self.puffs if step - p.step < hz)  # a puff lasts well under a second

    def living(self) -> list[Enemy]:
        return [e for e, alive in zip(self.all, self.alive, strict=True) if alive]

    # -- the rules, after each world step -------------------------------------------------------------
    def after_step(self, result, step: int) -> None:
        """Turn, hop and steer for the next step; enemies squished or fallen out of the map die."""
        for a in result.squished:
            if a in self.index:
                self.kill(a, step)
        bottom = self.level.height
        crowd = self.crowd
        if len(crowd):
            for k in np.flatnonzero(crowd.y > bottom).tolist()[::-1]:  # (from the last row: rows move up)
                self.kill(crowd.walkers[k], step)
            self._turn(result)
        for i in self._actors:
            if not self.alive[i]:
                continue
            e = self.all[i]
            a = e.actor
            if a.y > bottom:
                self.kill(a, step)
            elif e.spec.kind == "hopper":
                self._hop(i, a, e.spec)
            else:
                self._steer(i)

    def _turn(self, result) -> None:
        """The walkers' rule, all at once: away from a wall its own move ran into; else, standing, round
        where the ground ends ``speed * dt + LEDGE_PROBE`` px ahead of the leading foot (the crowd turns
        them at walls only, its ledge probe being off)."""
        crowd = self.crowd
        d = crowd.direction  # (views of the crowd's rows)
        look = crowd.on_ground.copy()
        for ev in result.events:  # a walker's "wall": its own move stopped by a side (its x contact)
            a = ev.actor
            if ev.kind == "wall" and a.__class__ is Walker and a.index >= 0 and a.crowd is crowd:
                d[a.index] = ev.normal[0]
                look[a.index] = False
        x, w, speed = crowd.x, crowd.w, crowd.speed
        reach = np.abs(speed) * self.world.dt + LEDGE_PROBE
        ahead = np.where(d > 0, x + w + reach, x - reach)
        feet = crowd.y + crowd.h
        grid = self.world.grid
        ts, kinds = grid.tile_size, grid.kinds
        col, row = (ahead // ts).astype(np.int64), ((feet + 0.5) // ts).astype(np.int64)
        inside = (col >= 0) & (col < grid.cols) & (row >= 0) & (row < grid.rows)
        c, r = np.where(inside, col, 0), np.where(inside, row, 0)
        above = np.where(r > 0, kinds[np.maximum(r - 1, 0), c], TileKind.EMPTY)  # (off the map's top: empty)
        floor = inside & (kinds[r, c] == TileKind.SOLID) & (above == TileKind.EMPTY)
        walkers = crowd.walkers
        for k in np.flatnonzero(look & ~floor).tolist():  # the rest: a raycast each (_ground_ahead)
            if not self._ground_ahead(walkers[k], int(d[k]), reach.item(k)):
                d[k] = -d[k]
        crowd.vx[:] = d * speed

    def _ground_ahead(self, a: Actor, d: int, reach: float) -> bool:
        """Whether the ground goes on ``reach`` px ahead of the leading foot: a floor no lower than the
        engine's ground snap follows (``reach + w/2``: a small step down), or a slope going down (its
        surface may be up to the box's width below the foot that has just passed the slope's top)."""
        x = a.x + a.w + reach if d > 0 else a.x - reach
        feet = a.y + a.h
        grid = self.world.grid
        ts = grid.tile_size
        col, row = int(x // ts), int((feet + 0.5) // ts)
        if 0 <= col < grid.cols and 0 <= row < grid.rows and grid.kind_at(col, row) == TileKind.SOLID \
                and grid.kind_at(col, row - 1) == TileKind.EMPTY:
            return True  # the common case: a plain solid tile top right there (no raycast needed)
        hit = self.world.raycast(x, feet - 1.0, x, feet + a.w + reach + 1.0)
        if hit is None:
            return False
        if hit.y - feet <= reach + a.w / 2 + 0.5:
            return True  # level ground, a step the snap follows, or a slope's first pixels
        tile = hit.tile
        if tile is None or tile.kind != TileKind.SLOPE:
            return False
        # further down a slope: only one that starts where the ground before it ends (not a dip beyond
        # a step): its surface at the edge facing the walker meets the surface of the column before it
        edge = (tile.col + 1) * ts if d < 0 else tile.col * ts
        top = grid.surface_y(tile.col, tile.row, edge)
        before = self._surface(tile.col + (1 if d < 0 else -1), edge, top)
        return before is not None and abs(before - top) <= 0.5

    def _surface(self, col: int, x: float, near: float) -> float | None:
        """The ground's top in column ``col`` at map x ``x`` nearest height ``near`` (a tile's top or a
        slope's surface, one tile either way), or None."""
        grid = self.world.grid
        ts = grid.tile_size
        best = None
        for row in range(int(near // ts) - 1, int(near // ts) + 2):
            kind = grid.kind_at(col, row)
            if kind == TileKind.SLOPE:
                y = grid.surface_y(col, row, x)
            elif kind != TileKind.EMPTY and grid.kind_at(col, row - 1) == TileKind.EMPTY:
                y = float(row * ts)
            else:
                continue
            if best is None or abs(y - near) < abs(best - near):
                best = y
        return best

    def _hop(self, i: int, a: Actor, spec) -> None:
        if a.wall is not None:
            self.facing[i] = a.wall.normal[0] or -self.facing[i]
            a.vx = self.facing[i] * spec.speed if not a.on_ground else 0.0
        if not a.on_ground:
            return
        a.vx = 0.0
        self.hop_left[i] -= 1
        if self.hop_left[i] > 0:
            return
        d = self.world._derived
        g = d.gravity * a.gravity_scale
        v = math.sqrt(2.0 * g * spec.hop_height) if g > 0 and spec.hop_height > 0 else 0.0
        air = v / g + math.sqrt(2.0 * spec.hop_height / (d.fall_gravity * a.gravity_scale)) if v else 0.0
        if spec.speed > 0 and not self._ground_ahead(a, self.facing[i], spec.speed * air):
            self.facing[i] = -self.facing[i]  # that hop would land in a pit: hop back the other way
        a.vy = -v
        a.vx = self.facing[i] * spec.speed
        a.on_ground, a.ground = False, None
        self.hop_left[i] = self.hop_steps(spec)

    def hop_steps(self, spec) -> int:
        """Steps a hopper sits between two hops."""
        return max(1, round(spec.hop_period / self.world.dt))

    def _steer(self, i: int) -> None:
        """A flyer: velocity that puts it where its route is at the next step."""
        e = self.all[i]
        spec, a, dt = e.spec, e.actor, self.world.dt
        t = (self.world.steps + 1 - self.epoch[i]) * dt
        x, y = route_position(spec.route or ((spec.x, spec.y),), spec.speed, spec.wait, t)
        a.vx, a.vy = (x - a.x) / dt, (y - a.y) / dt
        if a.vx:
            self.facing[i] = 1 if a.vx > 0 else -1

    # -- meeting the player ---------------------------------------------------------------------------
    def meet(self, touches, player, step: int) -> tuple[list[str], Actor | None]:
        """The player's touches with enemies this step: ``(names stomped, the enemy that hit it or None)``.
        A stomp bounces the player; a side touch in the same step as a stomp is forgiven."""
        stomped, hit = [], None
        for t in touches:
            if t.actor is not player or t.other not in self.index:
                continue
            if t.side == "top":
                stomped.append(t.other)
            elif hit is None:
                hit = t.other
        for a in stomped:
            self.kill(a, step)
        if stomped:
            launch(player, self.world._derived.takeoff_speed, jump=True)
            hit = None
        return [a.name for a in stomped], hit

    # -- snapshots ------------------------------------------------------------------------------------
    def state(self) -> tuple:
        return (tuple(self.alive), tuple(self.facing), tuple(self.hop_left), tuple(self.epoch), self.puffs)

    def set_state(self, state: tuple) -> None:
        alive, facing, hop_left, epoch, self.puffs = state
        self.alive, self.facing, self.hop_left, self.epoch = list(alive), list(facing), list(hop_left), list(epoch)


def launch(body, speed: float, jump: bool = False) -> None:
    """Send ``body`` up at ``speed`` px/s off whatever it stands on. ``jump``: a Character's rise is a jump
    (releasing jump cuts it, holding it keeps it); otherwise nothing cuts it short (a spring)."""
    body.vy = -speed
    body.on_ground, body.ground = False, None
    if hasattr(body, "jumping"):  # a Character: no coyote jump, no buffered jump off the launch
        body.jumping = jump
        body.air_steps = NEVER
        body.since_press = None
