"""Ropes: Verlet particles held at a fixed spacing, pinned at the top, swayed by actors: vines and chains.

Each step (run by ``World.step`` after the actors): Verlet integration with the world's falling gravity
and damping; actors that moved and overlap a particle give it part of their motion; the distance
constraints are relaxed ``iterations`` times (position-based, even then odd segments); a tether keeps
particle ``i`` within ``i`` segment lengths of the pin (so a rope never stretches, however few
iterations); finally each particle touching a tile moves from where it started the step to where the
solver put it through ``_motion.move``, the actors' own Y-then-X tile pass, so it lands on solid tops,
slope surfaces and one-way tops (from above only) and never ends inside a solid tile. (A particle lying
on a flat top with nothing beside it just slides: the same result for much less work.) A rope added to a
world is first laid through the tiles from its pin down, so none of it starts inside or beyond a floor.

A particle is the centre of a small box (``radius`` px each side) for tiles and actors. Internally the
arrays hold the box's top-left corner, so the collision pass works on exactly what it stores; the public
points are the centres. All of a world's ropes live in one numpy structure of arrays (``_RopeSet``),
padded to the longest rope: a step costs a fixed number of array operations however many ropes there
are, plus a little per particle touching a tile.
"""

from __future__ import annotations

import copy
import math
import struct
from dataclasses import dataclass, field, fields

import numpy as np

from . import _motion
from .bodies import Actor
from .feel import ConfigError, _check, _knob
from .tiles import ONE_WAY, SLOPE, SOLID

__all__ = ["Rope", "RopeConfig"]

_TINY = 1e-9  # px: a distance below this has no direction to correct along
_EDGE = 1e-6  # px: the collision prefilter widens boxes by this, so float rounding never hides a tile


@dataclass(frozen=True)
class RopeConfig:
    """A rope's knobs; each field's metadata carries its unit, range and meaning (like ``FeelConfig``)."""

    segments: int = _knob(12, "count", 1, 1000, "links; the rope has segments + 1 particles")
    segment_length: float = _knob(8.0, "px", 0.5, 1000.0, "rest distance between neighbouring particles")
    iterations: int = _knob(4, "count", 1, 64, "constraint passes per step: more is stiffer and costs more")
    damping: float = _knob(1.5, "1/s", 0.0, 100.0,
                           "speed decays as exp(-damping * t); 0 leaves only the solver's own small loss")
    gravity_scale: float = _knob(1.0, "ratio", -10.0, 10.0,
                                 "times the world's falling gravity; 0 floats, negative rises")
    radius: float = _knob(1.0, "px", 0.05, 64.0, "half-size of each particle's box against tiles and actors")
    nudge: float = _knob(0.5, "ratio", 0.0, 1.0, "share of a brushing actor's motion a particle takes up")
    collide: bool = field(default=True, metadata={"unit": "bool", "doc": "particles collide with tiles"})
    # an actor holding on (rope.attach): a pendulum bob at the particle it holds
    climb_speed: float = _knob(48.0, "px/s", 0.0, 10000.0, "how fast a Character holding on climbs (up / down)")
    pump: float = _knob(240.0, "px/s^2", 0.0, 100000.0, "sideways push of left / right on a Character holding on")
    swing_damping: float = _knob(0.25, "1/s", 0.0, 100.0, "a holder's swing decays as exp(-swing_damping * t)")
    # sleeping: a rope at rest costs nothing until something changes
    sleep_speed: float = _knob(0.0, "px/s", 0.0, 10000.0,
                               "a rope whose every particle moves slower than this for sleep_time sleeps: it "
                               "holds still and costs nothing until pushed, held, brushed by an actor, its pin "
                               "moves, its pin's body moves or the tiles change; 0 never sleeps")
    sleep_time: float = _knob(0.5, "s", 0.0, 3600.0, "how long a rope stays slower than sleep_speed before it sleeps")

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "collide":
                if not isinstance(value, bool):
                    raise ConfigError("rope.collide", f"expected true or false, got {value!r}")
                continue
            object.__setattr__(self, f.name, _check(f"rope.{f.name}", f, value))


def _grid_key(grid) -> tuple:
    """(grid, its edit version): what the set remembers of the tiles a step saw."""
    return grid, getattr(grid, "version", 0)


def _sleep_steps(cfg: RopeConfig, dt: float) -> int:
    """Steps a rope must stay slower than its sleep speed before it sleeps (at least one)."""
    return max(1, math.ceil(cfg.sleep_time / dt - 1e-9))


def _number(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"rope {what} must be a finite number, got {value!r}")
    return float(value)


def _inside(grid, a) -> bool:
    """Is the box in a solid tile, or the middle of its top or bottom edge under a slope's surface?"""
    if grid.solid_overlaps(a.x, a.y, a.w, a.h) or _motion.slope_depth(grid, a.x, a.y, a.w, a.h) > _motion.EPS:
        return True
    ts, cx = grid.tile_size, a.x + a.w * 0.5  # a box hanging out of the bottom of a slope tile:
    col, row = math.floor(cx / ts), math.floor(a.y / ts)
    return grid.kind_at(col, row) == SLOPE and a.y > grid.surface_y(col, row, cx) + _motion.EPS


def _slides(grid, x: float, y: float, to_x: float, w: float) -> bool:
    """Does a box (side ``w``) lying on a flat top (solid or one-way) at ``x, y`` stay on it moving to
    ``to_x``? True when its feet are on a tile row's top edge with such a tile under it, and its own row
    is clear of tiles all the way: then it just slides (the cheap case of a rope lying on the floor)."""
    ts, cols, k = grid.tile_size, grid.cols, grid._k
    feet = y + w
    row = round(feet / ts)
    if not (0.0 <= row * ts - feet <= 1e-9 and (row - 1) * ts <= y and 0 <= row < grid.rows):
        return False
    base = row * cols
    for c in range(max(0, math.floor(x / ts)), min(cols - 1, math.ceil((x + w) / ts) - 1) + 1):
        if k[base + c] == SOLID or k[base + c] == ONE_WAY:
            break
    else:
        return False  # nothing under it: it falls
    if row == 0:
        return True
    base -= cols  # its own row must be clear from where it is to where it goes
    lo, hi = (x, to_x + w) if x <= to_x else (to_x, x + w)
    if lo < grid._x_lo or hi > grid._x_hi:  # into a walled side of the map: the full pass stops it
        return False
    for c in range(max(0, math.floor(lo / ts)), min(cols - 1, math.ceil(hi / ts) - 1) + 1):
        if k[base + c]:
            return False
    return True


class Rope:
    """A chain of ``segments + 1`` particles hanging from a pin at ``(x, y)`` (px), created at rest
    straight down. ``follow``: a body with ``x, y`` (a Platform, an Actor) the pin rides with, keeping
    its offset; ``None`` pins it in place. Add it with ``world.add(rope)``.
    """

    __slots__ = ("_config", "_dt", "_follow", "_frozen", "_holds", "_kicks", "_pin", "_pos", "_prev", "_rests", "_set",
                 "_still", "data", "name")

    def __init__(self, x: float, y: float, config: RopeConfig | None = None, *, follow=None, name: str = "",
                 data=None):
        cfg = RopeConfig() if config is None else config
        if not isinstance(cfg, RopeConfig):
            raise TypeError(f"rope config must be a RopeConfig, got {type(config).__name__}")
        x, y = _number(x, "x"), _number(y, "y")
        self._config = cfg
        r, n = cfg.radius, cfg.segments + 1
        pos = np.empty(n, complex)  # each particle's box corner (centre - radius): x + y*1j
        pos.real = x - r
        pos.imag = y + np.arange(n) * cfg.segment_length - r
        self._pos = pos
        self._prev = pos.copy()  # where each particle started the last step (Verlet and interpolation)
        self._pin = (x, y)  # the pin, or its offset from ``follow``'s (x, y)
        self._follow = None
        self._kicks: list[tuple[int, float, float]] = []  # pushes waiting for the next step (px/s)
        self._holds: list[tuple] = []  # (actor, particle index, px climbed toward the next one), as attached
        self._set = None  # the _RopeSet of the world it is in
        self._dt = 1.0 / 60.0  # s, the step of the world it was last stepped in
        self._still = 0  # steps in a row every particle moved slower than sleep_speed (asleep from sleep_time on)
        self._rests = False  # its free end touched a tile (or a wall edge) in the last step
        self._frozen = False  # held still by the game (``frozen``): skipped by the step, nudges included
        self.name = name
        self.data = data
        self.follow = follow

    # -- the pin ---------------------------------------------------------------------------------------
    @property
    def pin(self) -> tuple[float, float]:
        """Where particle 0 is held (px). Set it to move the pin (the rope swings after it)."""
        f = self._follow
        if f is None:
            return self._pin
        return f.x + self._pin[0], f.y + self._pin[1]

    @pin.setter
    def pin(self, xy) -> None:
        x, y = (_number(v, "pin") for v in xy)
        f = self._follow
        self._pin = (x, y) if f is None else (x - f.x, y - f.y)
        self._still = 0  # (a moved pin wakes it)
        if self._set is not None:
            self._set._pins_moved = True

    @property
    def follow(self):
        """The body the pin rides with (or None). Setting it keeps the pin where it is now."""
        return self._follow

    @follow.setter
    def follow(self, body) -> None:
        if body is not None and not all(isinstance(getattr(body, k, None), (int, float)) for k in "xy"):
            raise TypeError(f"a rope can follow a body with numeric x and y (a Platform or an Actor), "
                            f"not {type(body).__name__}")
        x, y = self.pin
        self._follow = body
        self._pin = (x, y) if body is None else (x - body.x, y - body.y)
        self._still = 0
        if self._set is not None:
            self._set._stale = True

    @property
    def config(self) -> RopeConfig:
        """The rope's knobs, fixed when it was made (make a new Rope to change them)."""
        return self._config

    # -- reading ---------------------------------------------------------------------------------------
    @property
    def points(self) -> list[tuple[float, float]]:
        """Particle centres (px), from the pin (index 0) to the free end."""
        r = self._config.radius
        return list(zip((self._pos.real + r).tolist(), (self._pos.imag + r).tolist(), strict=True))

    def interpolated(self, alpha: float) -> list[tuple[float, float]]:
        """Particle centres to draw: lerp(start of the last step, now, alpha), like ``Actor.interpolated``."""
        prev, r = self._prev, self._config.radius
        xy = prev + (self._pos - prev) * alpha
        return list(zip((xy.real + r).tolist(), (xy.imag + r).tolist(), strict=True))

    def nearest(self, x: float, y: float) -> int:
        """Index of the particle whose centre is nearest ``(x, y)`` (the lowest index on a tie)."""
        r = self._config.radius
        return int(np.argmin((self._pos.real + r - x) ** 2 + (self._pos.imag + r - y) ** 2))

    @property
    def asleep(self) -> bool:
        """Is the rope asleep (``RopeConfig.sleep_speed``): holding still, skipped by the step until a push,
        a holder, an actor brushing it, a pin that moves or a tile edit wakes it?"""
        cfg = self._config
        return cfg.sleep_speed > 0.0 and self._still >= _sleep_steps(cfg, self._dt)

    @property
    def frozen(self) -> bool:
        """Held still by the game: while True (and no one holds it) the rope is skipped by the step like a
        rope asleep, and neither pushes nor actors brushing it move or wake it -- a game freezes the ropes
        far from the view. Set True, it comes to rest where it is (its velocity zeroed); set False, it
        moves again from there at the next step."""
        return self._frozen

    @frozen.setter
    def frozen(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"rope.frozen must be True or False, got {value!r}")
        if value != self._frozen and self._set is not None:
            self._set._quiet = None
        if value and not self._frozen:
            self._prev[:] = self._pos  # (at rest: prev is where it stays)
        elif self._frozen and not value:
            self._still = 0  # (awake: it measures its stillness again)
        self._frozen = value

    @property
    def resting(self) -> bool:
        """Did the free end touch a tile (lying on a floor, against a wall) or a side of the map in the
        last step? (A game may let a breeze sway only ropes hanging free, so ropes on the ground can sleep.)"""
        return self._rests

    def velocity(self, i: int) -> tuple[float, float]:
        """Particle ``i``'s velocity over the last step (px/s)."""
        v = complex(self._pos[self._index(i)] - self._prev[self._index(i)]) / self._dt
        return v.real, v.imag

    # -- acting on it ----------------------------------------------------------------------------------
    def push(self, i: int, vx: float, vy: float) -> None:
        """Add ``(vx, vy)`` px/s to particle ``i`` at the next step (a hit, a grab, a gust). The pinned
        particle 0 does not move."""
        self._kicks.append((self._index(i), _number(vx, "push vx"), _number(vy, "push vy")))

    def attach(self, actor, segment: int | None = None) -> int:
        """Hang ``actor`` from a particle (``segment``: its index, 1 .. segments; None: the one nearest the
        top-centre of its box), which is moved to its hands keeping the actor's velocity. From the next
        step the rope carries it: the top-centre of its box is at that particle, which swings as a
        pendulum bob (at most its tether's length from the pin) under the actor's own gravity; a Character pumps
        the swing with left / right and climbs with up / down (``RopeConfig.pump``, ``climb_speed``),
        and its controller rests meanwhile. Tiles, platforms and solid actors still stop it (its
        ``contacts`` say what). Returns the particle index held."""
        world = self._world("attach")
        if not isinstance(actor, Actor) or actor not in world._members:
            raise ValueError(f"rope.attach: {actor!r} is not an actor in this rope's world; world.add(actor) first")
        if actor.solid or actor.bullet:
            raise ValueError(f"rope.attach: {actor!r} is solid or a bullet; only plain actors and characters hold on")
        if actor._hold is not None:
            raise ValueError(f"rope.attach: {actor!r} already holds {actor._hold!r}; release it first")
        n = len(self._pos)
        if segment is None:
            segment = max(1, self.nearest(actor.x + actor.w * 0.5, actor.y))
        elif isinstance(segment, bool) or not isinstance(segment, (int, np.integer)) or not 1 <= segment < n:
            raise IndexError(f"rope.attach: segment {segment!r} is outside 1..{n - 1} (particle 0 is the pin)")
        segment = int(segment)
        # the rope comes to the hands (the tether pulls it taut at the next step), at the actor's velocity
        r = self._config.radius
        grab = complex(actor.x + actor.w * 0.5 - r, actor.y - r)
        self._pos[segment] = grab
        self._prev[segment] = grab - complex(actor.vx, actor.vy) * self._dt
        self._holds.append((actor, segment, 0.0))
        actor._hold = self
        self._set._quiet = None
        actor.on_ground, actor.ground = False, None
        if hasattr(actor, "air_steps"):
            actor.air_steps, actor.jumping, actor.since_press = 1 << 30, False, None
        return segment

    def release(self, actor) -> tuple[float, float]:
        """Let go of ``actor``: it keeps the velocity it swung with (px/s, returned) and moves on its own."""
        for k, hold in enumerate(self._holds):
            if hold[0] is actor:
                del self._holds[k]
                actor._hold = None
                self._set._quiet = None
                return actor.vx, actor.vy
        raise ValueError(f"rope.release: {actor!r} does not hold {self!r}; rope.attach(actor) first")

    @property
    def holders(self) -> list[tuple]:
        """``(actor, particle index)`` for every actor holding on, in the order they attached."""
        return [(a, i) for a, i, _ in self._holds]

    def _world(self, what: str):
        owner = self._set._world if self._set is not None else None
        if owner is None:
            raise ValueError(f"rope.{what}: {self!r} is not in a world; world.add(rope) first")
        return owner

    def _index(self, i) -> int:
        n = len(self._pos)
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not -n <= i < n:
            raise IndexError(f"rope particle index {i!r} is outside 0..{n - 1}")
        return int(i) % n

    def __deepcopy__(self, memo):
        new = Rope.__new__(Rope)
        memo[id(self)] = new
        new._config, new.name, new.data = self._config, self.name, self.data  # data is shared, like bodies'
        new._pos, new._prev = self._pos.copy(), self._prev.copy()
        new._pin, new._kicks, new._dt = self._pin, list(self._kicks), self._dt
        new._still, new._rests, new._frozen = self._still, self._rests, self._frozen
        new._holds = [(copy.deepcopy(a, memo), i, c) for a, i, c in self._holds]
        new._follow = copy.deepcopy(self._follow, memo)
        new._set = None  # a copied _RopeSet links its ropes again
        return new

    def __repr__(self) -> str:
        x, y = self.pin
        cfg = self._config
        return f"Rope({self.name!r} pin=({x:.3f}, {y:.3f}) {cfg.segments} x {cfg.segment_length:g} px)"


class _RopeSet:
    """Every rope of one world in flat complex arrays (x + y*1j), one row of ``cols`` particles per rope,
    padded to the longest rope (an even count). Each Rope's ``_pos`` / ``_prev`` are views into its row
    while it is in the world. Flat 1-D arrays and strided slices keep numpy's per-call cost at its lowest:
    at these sizes a step costs what its number of array operations costs, not its number of particles."""

    def __init__(self, world=None):
        self._world = world  # the World it belongs to (for rope.attach)
        self.ropes: list[Rope] = []
        self._stale = True  # ropes added or removed or a follow changed: rebuild before stepping
        self._pins_moved = False  # a pin was set: read the pins again before stepping
        self._key = None  # (dt, gravity) the step factors were computed for
        self._tiles = (None,)  # ((grid, version), summed-area table of its tiles, index limits, scales)
        self._seen = None  # (grid, version) the last step collided with: state (snapshots keep it)
        # (grid, version) when the last step found every rope frozen and came out as it went in: while that
        # holds, a step would change nothing, so it is skipped (frozen ropes cost nothing, as promised)
        self._quiet = None
        self._probe = Actor(0.0, 0.0, 1.0, 1.0, gravity=False, name="rope particle")

    # -- membership ------------------------------------------------------------------------------------
    def add(self, rope: Rope, grid) -> Rope:
        if rope._set is self:
            raise ValueError(f"{rope!r} is already in this world")
        if rope._set is not None:
            raise ValueError(f"{rope!r} is in another world; world.remove(rope) it there first")
        if rope.config.collide:
            self._thread(rope, grid)
        self.ropes.append(rope)
        rope._set = self
        self._stale = True
        return rope

    def _thread(self, rope: Rope, grid) -> None:
        """Lay a rope through the tiles from the pin down, each particle placed from the one before it:
        made through a floor, it stops on top and its extra length lies along the floor to the right
        (never inside a tile, nor hanging out beyond one)."""
        probe, w = self._probe, 2.0 * rope.config.radius
        probe.w = probe.h = w
        pos, prev = rope._pos, rope._prev
        made = pos.tolist()
        for i in range(1, len(pos)):
            s = complex(pos[i - 1])
            p = s + (made[i] - made[i - 1])
            x, y = min(s.real, p.real), min(s.imag, p.imag)
            x1, y1 = max(s.real, p.real) + w, max(s.imag, p.imag) + w
            if next(grid.tiles_in(x, y, x1 - x, y1 - y), None) is None and grid._x_lo <= x and x1 <= grid._x_hi \
                    and grid._y_lo <= y and y1 <= grid._y_hi:  # (nothing in the way: no wall edge either)
                if p != made[i]:
                    prev[i] += p - made[i]
                    pos[i] = p
                continue
            probe.x, probe.y = s.real, s.imag
            _motion.move(grid, (), probe, p.real - s.real, p.imag - s.imag, False)
            short = abs(p - complex(probe.x, probe.y))
            if short > _motion.EPS:  # stopped on something: the rest of the segment goes sideways
                _motion.move(grid, (), probe, short, 0.0, False)
            moved = complex(probe.x, probe.y)
            prev[i] += moved - made[i]  # same velocity, from its new place
            pos[i] = moved

    def remove(self, rope: Rope) -> None:
        for i, r in enumerate(self.ropes):
            if r is rope:
                del self.ropes[i]
                break
        else:
            raise ValueError(f"{rope!r} is not in this world; call world.add(rope) first")
        rope._pos, rope._prev = rope._pos.copy(), rope._prev.copy()  # its own arrays again
        for actor, _i, _c in rope._holds:  # what held it falls, keeping its swing
            actor._hold = None
        rope._holds.clear()
        rope._set = None
        self._stale = True

    # -- layout ----------------------------------------------------------------------------------------
    def _build(self, d) -> None:
        ropes = self.ropes
        sizes = [len(r._pos) for r in ropes]
        rows, cols = len(ropes), max(sizes) + max(sizes) % 2
        total = rows * cols
        pos, prev = np.empty(total, complex), np.empty(total, complex)
        movable = np.zeros((rows, cols), bool)  # real particles other than the pin
        reach = np.full((rows, cols), np.inf)  # px, most distance from the pin (the tether)
        rest = np.zeros((rows, cols))  # px, constraint j joins particles j and j + 1
        weight = np.zeros((rows, cols))  # share of a constraint's correction each end takes
        for row, (rope, n) in enumerate(zip(ropes, sizes, strict=True)):
            cfg, at = rope.config, row * cols
            pos[at:at + n], prev[at:at + n] = rope._pos, rope._prev
            pos[at + n:at + cols] = prev[at + n:at + cols] = rope._pos[n - 1]  # padding: still, weightless
            rope._pos, rope._prev = pos[at:at + n], prev[at:at + n]
            movable[row, 1:n] = True
            reach[row, :n] = np.arange(n) * cfg.segment_length
            rest[row, :n - 1] = cfg.segment_length
            weight[row, :n - 1] = 0.5
            weight[row, 0] = 1.0  # the pin's half is undone by re-pinning: the whole correction moves particle 1
        self._pos, self._prev, self._tmp = pos, prev, np.empty_like(pos)
        self._rows, self._cols, self._sizes = rows, cols, sizes
        self._movable = movable
        self._pins = np.array([complex(*rope.pin) - complex(rope.config.radius, rope.config.radius)
                               for rope in ropes])
        self._following = [(row, r) for row, r in enumerate(ropes) if r._follow is not None]
        self._radius = [r.config.radius for r in ropes]
        self._share = [r.config.nudge for r in ropes]
        self._size = np.repeat([2.0 * r for r in self._radius], cols)  # px, each particle's box side
        self._widest = float(self._size.max())
        self._span = np.empty(4 * total)
        self._widen = np.concatenate([np.full(2 * total, -_EDGE), np.repeat(self._size + _EDGE, 2)])
        nudging = np.array([[r.config.nudge > 0.0] for r in ropes]) & movable
        self._nudging = nudging.ravel() if nudging.any() else None
        collide = np.array([[r.config.collide] for r in ropes]) & movable
        self._collide = collide.ravel() if collide.any() else None
        self._reach = reach.ravel()
        self._ends = np.array([row * cols + n - 1 for row, n in enumerate(sizes)], np.intp)  # the free ends
        self._tiles = (None,)
        # Even constraints never share a particle, nor do odd ones: each group is solved at once, exactly
        # as one after another. A row's last (odd) constraint would join it to the next row: weight 0.
        its = np.array([[r.config.iterations] for r in ropes])
        self._passes = []  # per iteration; a rope past its iteration count takes no correction
        for k in range(int(its.max())):
            w = (weight * (its > k)).ravel()
            rw = w * rest.ravel()
            groups = [(pos[0::2], pos[1::2], w[0::2].copy(), rw[0::2].copy())]
            if total > 2:
                groups.append((pos[1:-1:2], pos[2::2], w[1:-1:2].copy(), rw[1:-1:2].copy()))
            self._passes.append(groups)
        self._stale = self._pins_moved = False
        self._factors(d)

    def _factors(self, d) -> None:
        """The per-step factors that depend on the world's step and gravity."""
        dt, g = d.dt, d.fall_gravity
        old = self._key[0] if self._key is not None else None
        if old is not None and old != dt:  # keep speeds in px/s when the step changes
            self._prev[...] = self._pos - (self._pos - self._prev) * (dt / old)
        cols = self._cols
        self._keep = np.repeat([math.exp(-r.config.damping * dt) for r in self.ropes], cols)
        self._fall = (np.repeat([r.config.gravity_scale * g * dt * dt for r in self.ropes], cols)
                      * self._movable.ravel())
        for r in self.ropes:
            r._dt = dt
            if old is not None and old != dt:
                r._still = 0  # a new step rate: measure again
        self._need = [_sleep_steps(r.config, dt) for r in self.ropes]
        self._slow = np.array([r.config.sleep_speed * dt for r in self.ropes])  # px a step
        self._sleepy = bool(self._slow.any())
        self._key = (dt, g)

    # -- stepping --------------------------------------------------------------------------------------
    def step(self, grid, actors, d, crowds=(), swing=None) -> None:
        """One step of every rope. ``swing(actor, x, y)``: moves a holder's box to ``x, y`` through what
        blocks it (the world's collision pass) and says where it ended."""
        if self._stale:
            self._build(d)
            self._quiet = None
        elif self._key != (d.dt, d.fall_gravity):
            self._factors(d)
            self._quiet = None
        all_frozen = all(r._frozen and not r._holds and not r._kicks for r in self.ropes)
        if all_frozen and not self._pins_moved and not self._following and self._quiet == _grid_key(grid):
            return  # (the last step, from this same state, changed nothing)
        pos, prev, tmp, pins, cols = self._pos, self._prev, self._tmp, self._pins, self._cols
        if self._pins_moved:
            for row, rope in enumerate(self.ropes):
                x, y = rope.pin
                r = rope.config.radius
                pins[row] = complex(x - r, y - r)
            self._pins_moved = False
        for row, rope in self._following:
            f, (ox, oy), r = rope._follow, rope._pin, rope.config.radius
            pins[row] = complex(f.x + ox - r, f.y + oy - r)
        bobs = self._bobs(d) if swing is not None and any(r._holds for r in self.ropes) else None
        frozen = [r._frozen and not r._holds for r in self.ropes]
        frozen = frozen if any(frozen) else None
        # flat mask of the particles held still (asleep or frozen), or None
        asleep = self._sleepers(grid, frozen) if self._sleepy or frozen is not None else None
        # Verlet: x' = x + (x - x_prev) * keep + g dt^2
        np.subtract(pos, prev, out=tmp)
        tmp *= self._keep
        tmp.imag += self._fall
        tmp += pos
        prev[...] = pos
        pos[...] = tmp
        pos[0::cols] = pins
        held = self._swing(bobs, swing, d.dt) if bobs else None
        for row, rope in enumerate(self.ropes):
            if rope._kicks:
                for i, vx, vy in rope._kicks:
                    if i:
                        pos[row * cols + i] += complex(vx * d.dt, vy * d.dt)
                rope._kicks.clear()
        if held is not None:  # a held particle is a second pin for the rest of the rope
            held_at, held_pos = held
            pos[held_at] = held_pos
        if asleep is not None:
            np.copyto(pos, prev, where=asleep)  # (asleep: prev is where it rests)
        if (actors or crowds) and self._nudging is not None:
            self._nudge(actors, crowds, asleep, frozen)
        hypot, maximum = np.hypot, np.maximum
        for groups in self._passes:
            for a, b, w, rw in groups:
                delta = b - a
                dist = hypot(delta.real, delta.imag)
                maximum(dist, _TINY, out=dist)
                corr = delta * (w - rw / dist)  # = delta * w * (1 - rest / dist)
                a += corr
                b -= corr
            pos[0::cols] = pins
            if held is not None:
                pos[held_at] = held_pos
        self._tether()
        if held is not None:
            pos[held_at] = held_pos
        if asleep is not None:
            np.copyto(pos, prev, where=asleep)
        ends = None
        if self._collide is not None:
            ends = self._collide_tiles(grid, None if held is None else held_at, asleep)
        self._rest_and_sleep(ends)
        # every rope frozen from the start (each one's prev is where it stays): the next step from here
        # changes nothing while the tiles, pins and ropes stay as they are
        self._quiet = _grid_key(grid) if all_frozen and not self._following else None

    def _sleepers(self, grid, frozen=None):
        """Before a step: wake the ropes pushed, held or meeting changed tiles; the flat mask of the
        particles of the ropes still asleep or ``frozen`` (a list of bools per rope; None when none is)."""
        if self._seen != _grid_key(grid):
            for rope in self.ropes:  # tiles edited (or another grid): every rope looks again
                rope._still = 0
            if frozen is None:
                return None
            return np.repeat(np.array(frozen), self._cols)
        rows = []
        for k, (rope, need) in enumerate(zip(self.ropes, self._need, strict=True)):
            if frozen is not None and frozen[k]:
                rows.append(True)
                continue
            if rope._kicks or rope._holds:
                rope._still = 0
            rows.append(self._sleepy and rope._still >= need)
        if not any(rows):
            return None
        return np.repeat(np.array(rows), self._cols)

    def _rest_and_sleep(self, ends) -> None:
        """After a step: each rope's ``resting`` (its free end touched a tile), and its count of still steps:
        a rope whose every particle moved less than ``sleep_speed * dt`` this step, held by no one and
        pinned to no moving body, counts one more; at the count for ``sleep_time`` it falls asleep, at rest
        (its velocity zeroed)."""
        ropes = self.ropes
        rests = ends.tolist() if ends is not None else [False] * len(ropes)
        if not self._sleepy:
            for rope, r in zip(ropes, rests, strict=True):
                rope._rests = r
            return
        pos, prev, cols = self._pos, self._prev, self._cols
        moved = np.abs(pos.view(np.float64) - prev.view(np.float64)).reshape(len(ropes), 2 * cols).max(axis=1)
        slow = (moved < self._slow).tolist()
        for row, (rope, r, still, need) in enumerate(zip(ropes, rests, slow, self._need, strict=True)):
            rope._rests = r
            if rope._frozen and not rope._holds:
                continue  # (held still: its count waits for it to be let go)
            if not still or rope._holds or rope._follow is not None:
                rope._still = 0
            elif rope._still < need:
                rope._still += 1
                if rope._still == need:  # asleep from here: at rest where it is
                    prev[row * cols:(row + 1) * cols] = pos[row * cols:(row + 1) * cols]

    def _bobs(self, d) -> list:
        """Before the Verlet step: each holder's particle as a pendulum bob: ``(rope, k, actor, flat index,
        where it goes)``, after climbing, the actor's gravity, pumping and the swing's own damping."""
        pos, prev, cols, dt = self._pos, self._prev, self._cols, d.dt
        bobs = []
        for row, rope in enumerate(self.ropes):
            cfg = rope.config
            keep = math.exp(-cfg.swing_damping * dt)
            last = len(rope._pos) - 1
            for k, (actor, i, climbed) in enumerate(rope._holds):
                buttons = getattr(actor, "held", None)
                if buttons is not None and buttons.up != buttons.down and cfg.climb_speed > 0.0:
                    climbed += cfg.climb_speed * dt
                    while climbed >= cfg.segment_length - 1e-9:  # (0.8 px ten times is 8 px)
                        climbed = max(0.0, climbed - cfg.segment_length)
                        i = max(1, i - 1) if buttons.up else min(last, i + 1)
                    if i == (1 if buttons.up else last):
                        climbed = 0.0
                else:
                    climbed = 0.0
                rope._holds[k] = (actor, i, climbed)
                at = row * cols + i
                push = 0.0
                if buttons is not None and buttons.left != buttons.right:
                    push = cfg.pump if buttons.right else -cfg.pump
                p, q = complex(pos[at]), complex(prev[at])
                g = d.fall_gravity * actor._gravity_scale
                to = p + (p - q) * keep + complex(push, g) * (dt * dt)
                bobs.append((rope, row, at, actor, to))
        return bobs

    def _swing(self, bobs, swing, dt):
        """Hold each bob within its tether, move its actor there through what blocks it, and keep the bob
        where the actor ended (a wall stops the swing along its axis). Returns (flat indices, positions)."""
        prev, pins, reach = self._prev, self._pins, self._reach
        at_list, where = [], []
        for rope, row, at, actor, to in bobs:
            r = rope.config.radius
            pin, most = complex(pins[row]), reach[at]
            start = complex(prev[at])  # where it was at the step's start
            far = abs(to - pin)
            if far > most:  # taut: on the circle, moving only along it (the rope takes the pull outward)
                to = pin + (to - pin) * (most / far)
                n, v = (to - pin) / most, to - start
                radial = v.real * n.real + v.imag * n.imag
                if radial < 0.0:
                    start = to - (v - n * radial)
            if actor.squished:
                to = start = complex(actor.x + actor.w * 0.5 - r, actor.y - r)
            else:
                tx, ty = to.real + r - actor.w * 0.5, to.imag + r
                x, y = swing(actor, tx, ty)
                if x != tx:
                    to = complex(x + actor.w * 0.5 - r, to.imag)
                    start = complex(to.real, start.imag)  # stopped across: no swing that way
                if y != ty:
                    to = complex(to.real, y - r)
                    start = complex(start.real, to.imag)
            prev[at] = start  # (the next step's Verlet velocity)
            actor.vx, actor.vy = (to.real - start.real) / dt, (to.imag - start.imag) / dt
            at_list.append(at)
            where.append(to)
        return np.array(at_list, np.intp), np.array(where, complex)

    def _tether(self) -> None:
        """Long-range attachment: particle i no further than i segment lengths from the pin."""
        pos, reach = self._pos, self._reach
        pins = np.repeat(self._pins, self._cols)
        delta = pos - pins
        dist = np.hypot(delta.real, delta.imag)
        over = dist > reach
        if over.any():
            scale = np.divide(reach, dist, out=np.ones_like(dist), where=over)
            np.copyto(pos, pins + delta * scale, where=over)

    def _nudge(self, actors, crowds=(), asleep=None, frozen=None) -> None:
        """Particles overlapping an actor that moved this step take up ``nudge`` of the difference between
        the actor's motion and their own, along each axis the actor outruns them; then the same for the
        crowds' walkers (those that could reach a particle, found for all of them at once). Each nudger is
        tested only against the ropes whose box could meet it (found for all nudgers at once, from each
        rope's start box widened by how far a nudge can carry a particle); a rope asleep that a nudger
        touches wakes."""
        moving = [a for a in actors if (a.x != a.prev_x or a.y != a.prev_y) and a._hold is None]
        walkers = self._walkers_near(moving, crowds) if crowds else []
        nudgers = moving + walkers
        if not nudgers:
            return
        pos, prev, cols, nudging, size = self._pos, self._prev, self._cols, self._nudging, self._size
        rows = len(self.ropes)
        # A nudge moves a particle toward its start plus the nudger's motion, never further from its start
        # than the larger of the two: each rope stays within its start box widened by that much.
        start, now = prev.reshape(rows, cols), pos.reshape(rows, cols)
        reach = max(max(abs(a.x - a.prev_x), abs(a.y - a.prev_y)) for a in nudgers)
        reach = np.maximum(np.abs(now - start).max(axis=1, initial=0.0), reach) + self._widest + _EDGE
        lo_x, hi_x = start.real.min(axis=1) - reach, start.real.max(axis=1) + reach
        lo_y, hi_y = start.imag.min(axis=1) - reach, start.imag.max(axis=1) + reach
        ax = np.array([a.x for a in nudgers])[:, None]
        ay = np.array([a.y for a in nudgers])[:, None]
        aw = np.array([a.w for a in nudgers])[:, None]
        ah = np.array([a.h for a in nudgers])[:, None]
        meets = (ax <= hi_x) & (lo_x <= ax + aw) & (ay <= hi_y) & (lo_y <= ay + ah)  # nudger x rope
        if frozen is not None:
            meets &= ~np.array(frozen)  # (a frozen rope is never brushed)
        for n, row_list in zip(np.flatnonzero(meets.any(axis=1)).tolist(),
                               (np.flatnonzero(m).tolist() for m in meets[meets.any(axis=1)]), strict=True):
            a = nudgers[n]
            ax_, ay_, aw_, ah_ = a.x, a.y, a.w, a.h
            mx, my = ax_ - a.prev_x, ay_ - a.prev_y
            for row in row_list:
                lo, hi = row * cols, (row + 1) * cols
                x, y, sz = pos.real[lo:hi], pos.imag[lo:hi], size[lo:hi]
                hit = (x < ax_ + aw_) & (x + sz > ax_) & (y < ay_ + ah_) & (y + sz > ay_) & nudging[lo:hi]
                if not hit.any():
                    continue
                if asleep is not None and asleep[lo]:
                    asleep[lo:hi] = False  # touched: awake from this step
                    self.ropes[row]._still = 0
                share = self._share[row]
                where = np.flatnonzero(hit) + lo
                now_, start_ = pos[where].tolist(), prev[where].tolist()
                for k in range(len(now_)):
                    p, s_ = now_[k], start_[k]
                    gx, gy = mx - (p.real - s_.real), my - (p.imag - s_.imag)
                    now_[k] = complex(p.real + share * gx if gx * mx > 0.0 else p.real,
                                      p.imag + share * gy if gy * my > 0.0 else p.imag)
                pos[where] = now_

    def _walkers_near(self, moving, crowds) -> list:
        """The crowds' walkers that moved this step and could overlap a particle while the actors and they
        nudge (in crowd order, then row order). A nudge moves a particle from where it started the step
        toward the start plus the nudger's motion, never further from its start than the larger of the two:
        so each rope's particles stay within their start box widened by the larger of their own travel
        since and the largest motion of any nudger."""
        motions = [abs(v) for a in moving for v in (a.x - a.prev_x, a.y - a.prev_y)]
        moved = []
        for crowd in crowds:
            n = len(crowd)
            if n:
                dx, dy = crowd.x - crowd.prev_x, crowd.y - crowd.prev_y
                moved.append((crowd, (dx != 0.0) | (dy != 0.0)))
                motions.append(float(max(np.abs(dx).max(), np.abs(dy).max())))
        if not moved:
            return []
        rows = len(self.ropes)
        start, now = self._prev.reshape(rows, self._cols), self._pos.reshape(rows, self._cols)
        reach = np.maximum(np.abs(now - start).max(axis=1, initial=0.0), max(motions))[:, None]
        lo_x, hi_x = start.real.min(axis=1)[:, None] - reach, start.real.max(axis=1)[:, None] + reach + self._widest
        lo_y, hi_y = start.imag.min(axis=1)[:, None] - reach, start.imag.max(axis=1)[:, None] + reach + self._widest
        found = []
        for crowd, move in moved:
            x, y, w, h = crowd.x, crowd.y, crowd.w, crowd.h
            near = ((x <= hi_x) & (lo_x <= x + w) & (y <= hi_y) & (lo_y <= y + h)).any(axis=0) & move
            found += [crowd.walkers[i] for i in np.flatnonzero(near).tolist()]
        return found

    def _tile_table(self, grid):
        """A summed-area table of the grid's non-empty tiles (flat, (rows + 1) x (cols + 1)): the number
        of tiles in any box in four lookups. Also says whether the tiles changed since the last step."""
        key = _grid_key(grid)
        changed = self._seen != key
        self._seen = key
        if self._tiles[0] != key:
            table = np.zeros((grid.rows + 1, grid.cols + 1), np.int64)
            table[1:, 1:] = (grid.kinds != 0).cumsum(0).cumsum(1)
            pairs = 2 * len(self._pos)  # x, y of every particle's low corner, then of its high corner
            limit = np.tile(np.array([grid.cols, grid.rows], float), pairs)  # clip tile indices to the table
            scale = np.tile(np.array([1, grid.cols + 1], np.intp), pairs)  # row index -> flat table index
            self._tiles = (key, table.ravel(), limit, scale)
            kinds = grid.kinds
            flat = np.zeros((grid.rows, grid.cols + 1), np.int64)  # per row: flat tops before each column
            flat[:, 1:] = ((kinds == SOLID) | (kinds == ONE_WAY)).cumsum(1)
            filled = np.zeros((grid.rows, grid.cols + 1), np.int64)  # per row: non-empty tiles before each column
            filled[:, 1:] = (kinds != 0).cumsum(1)
            self._row_sums = (flat.ravel(), filled.ravel())
        return self._tiles[1:] + (changed,)

    def _tiles_state(self, grid) -> bool:
        """What the next step remembers of the tiles (for snapshots): have they changed since the last
        step (then it looks for particles a tile appeared on)?"""
        return self._seen != _grid_key(grid)

    def _memory(self, grid) -> tuple[bool, bool]:
        """What a snapshot keeps of the set's memory of the last step: have the tiles changed since (see
        ``_tiles_state``), and may the next step be skipped (every rope frozen, nothing changed since)?"""
        key = _grid_key(grid)
        return self._seen != key, self._quiet == key

    def _put_memory(self, grid, memory: tuple[bool, bool]) -> None:
        changed, quiet = memory
        key = _grid_key(grid)
        self._seen = None if changed else key
        # (the state restored is the one the snapshot saw: a step from it could be skipped then, so now)
        self._quiet = key if quiet and not changed else None

    def _collide_tiles(self, grid, held=None, asleep=None):
        """Move each particle from where it started the step to where the solver put it, through the
        tiles: the same Y-then-X pass actors use (``_motion.move``), so it cannot end inside a solid.
        Only particles whose swept box overlaps a non-empty tile take that (slower) pass, and none of a
        rope asleep (it rests outside the tiles, which have not changed). Returns, per rope, whether its
        free end's box touched a tile or a wall edge (a bool array)."""
        pos, prev, cols = self._pos, self._prev, self._cols
        table, limit, scale, changed = self._tile_table(grid)
        span, half = self._span, 2 * len(pos)  # the swept boxes: x0, y0, x0, y0, ... then x1, y1, ...
        lo, hi = span[:half], span[half:]
        np.minimum(pos.view(np.float64), prev.view(np.float64), out=lo)
        np.maximum(pos.view(np.float64), prev.view(np.float64), out=hi)
        span += self._widen
        # a swept box reaching past a walled side of the map takes the full pass too (Edges)
        edge = (span[0:half:2] < grid._x_lo) | (span[half::2] > grid._x_hi) | \
            (span[1:half:2] < grid._y_lo) | (span[half + 1::2] > grid._y_hi)
        span /= grid.tile_size
        np.maximum(span, 0.0, out=span)
        np.minimum(span, limit, out=span)
        np.ceil(hi, out=hi)
        cell = span.astype(np.intp)  # tile columns and rows [low, high)
        cell *= scale
        c0, r0, c1, r1 = cell[0:half:2], cell[1:half:2], cell[half::2], cell[half + 1::2]
        count = table[r1 + c1] - table[r0 + c1] - table[r1 + c0] + table[r0 + c0]
        near = ((count > 0) | edge) & self._collide
        ends = near[self._ends]
        if held is not None:
            near[held] = False  # (its actor's box went through the tiles instead)
        if asleep is not None:
            near &= ~asleep
        if not near.any():
            return ends
        radius, probe, move, reach, pins = self._radius, self._probe, _motion.move, self._reach, self._pins
        todo = np.flatnonzero(near)
        if not changed:  # the particles lying on a flat top that just slide: all at once
            todo = self._slide_all(grid, todo)
            changed = None  # (what is left does not slide: no need to ask again)
        for at in todo.tolist():  # in order: a rope's particles from the pin down
            w = 2.0 * radius[at // cols]
            probe.w = probe.h = w
            p, s = complex(pos[at]), complex(prev[at])
            probe.x, probe.y = s.real, s.imag
            if changed and _inside(grid, probe):
                # A tile appeared on it (or the world's grid was swapped): come in from the neighbour
                # nearer the pin, which is already placed. Otherwise a start is never inside: every
                # particle ends each step outside, and a rope is threaded through the tiles when added.
                s = complex(pos[at - 1])
                probe.x, probe.y = s.real, s.imag
            elif changed is not None and p.imag >= s.imag and _slides(grid, s.real, s.imag, p.real, w):
                q = complex(p.real, s.imag)
                if abs(q - complex(pins[at // cols])) <= reach[at] + _EDGE:
                    pos[at] = q
                    continue
            move(grid, (), probe, p.real - s.real, p.imag - s.imag, False)
            q = complex(probe.x, probe.y)
            pin, most = complex(pins[at // cols]), reach[at]
            far = abs(q - pin)
            if far > most + _EDGE:
                # held by the tiles beyond its tether: pulled back toward the pin through them (one-way
                # tops never hold a rope pulled taut); where a solid is in the way, onto its neighbour
                # nearer the pin, which is free and within reach
                to = pin + (q - pin) * (most / far)
                probe.x, probe.y = q.real, q.imag
                move(grid, (), probe, to.real - q.real, to.imag - q.imag, True)
                q = complex(probe.x, probe.y)
                if abs(q - pin) > most + _EDGE:
                    q = complex(pos[at - 1])
            pos[at] = q
        return ends

    def _slide_all(self, grid, todo):
        """``_slides`` for the particles ``todo`` at once (the same tests, in numpy): those that slide
        along a flat top within their tether move there; returns the rest, in order, for the full pass."""
        pos, prev, cols = self._pos, self._prev, self._cols
        ts, gcols, grows = grid.tile_size, grid.cols, grid.rows
        flat, filled = self._row_sums
        p, s = pos[todo], prev[todo]
        w = self._size[todo]
        sx, sy, px = s.real, s.imag, p.real
        feet = sy + w
        row = np.rint(feet / ts)
        gap = row * ts - feet
        ok = (p.imag >= sy) & (gap >= 0.0) & (gap <= 1e-9) & ((row - 1) * ts <= sy) & (row >= 0) & (row < grows)
        if not ok.any():
            return todo
        r = np.where(ok, row, 0).astype(np.intp)
        base = r * (gcols + 1)
        c0 = np.clip(np.floor(sx / ts), 0, gcols).astype(np.intp)
        c1 = np.clip(np.ceil((sx + w) / ts) - 1, -1, gcols - 1).astype(np.intp)
        under = flat[base + np.maximum(c1 + 1, c0)] - flat[base + c0]  # flat tops under it
        ok &= under > 0
        lo, hi = np.where(sx <= px, sx, px), np.where(sx <= px, px + w, sx + w)
        ok &= ~((r > 0) & ((lo < grid._x_lo) | (hi > grid._x_hi)))
        above = np.maximum(r - 1, 0) * (gcols + 1)
        d0 = np.clip(np.floor(lo / ts), 0, gcols).astype(np.intp)
        d1 = np.clip(np.ceil(hi / ts) - 1, -1, gcols - 1).astype(np.intp)
        own = filled[above + np.maximum(d1 + 1, d0)] - filled[above + d0]  # tiles in its own row on the way
        ok &= (r == 0) | (own <= 0)
        rows_of = todo // cols
        pin = self._pins[rows_of]
        ok &= np.hypot(px - pin.real, sy - pin.imag) <= self._reach[todo] + _EDGE
        if not ok.any():
            return todo
        slid = todo[ok]
        q = np.empty(len(slid), complex)
        q.real, q.imag = px[ok], sy[ok]
        pos[slid] = q
        return todo[~ok]

    # -- state -----------------------------------------------------------------------------------------
    def digest(self, h, grid=None) -> None:
        """Feed every rope's particles, pin and pending pushes to the hash ``h`` (and whether the tiles
        changed since the last step: the next one then looks for particles a tile appeared on)."""
        if self.ropes:
            h.update(struct.pack("<?", self._tiles_state(grid)))
        for rope in self.ropes:
            h.update(rope._pos.tobytes())
            h.update(rope._prev.tobytes())
            h.update(struct.pack("<2d?q??", *rope._pin, rope._follow is not None, rope._still, rope._rests,
                                 rope._frozen))
            for kick in rope._kicks:
                h.update(struct.pack("<q2d", *kick))
            for actor, i, climbed in rope._holds:
                h.update(struct.pack("<qd4d", i, climbed, actor.x, actor.y, actor.w, actor.h))

    def __deepcopy__(self, memo):
        new = _RopeSet(copy.deepcopy(self._world, memo))
        memo[id(self)] = new
        new._seen = copy.deepcopy(self._seen, memo)  # (the copied world's copy of the grid)
        new.ropes = copy.deepcopy(self.ropes, memo)
        for rope in new.ropes:
            rope._set = new
        return new
