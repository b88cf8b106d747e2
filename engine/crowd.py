"""Crowd: many simple walkers moved as one numpy batch, exactly as the per-actor path moves them.

A walker is a plain actor (gravity, ground snap) that walks at its ``speed`` and turns round at walls
and, if asked, at ledges: the rule :func:`walk` applies to one ``Actor`` after a step. A ``Crowd`` holds
thousands of them as a structure of arrays and steps them inside ``World.step`` with the same Y-then-X
passes, mirrored in numpy (``_batch.py``), so every position is bit-identical to what ``World`` and
``walk`` give the same walkers as separate actors. Walkers that could meet a platform or a solid actor
this step, or that need moving out of solid geometry, take the per-actor path (``_motion.py``) as stand-in
actors; so do the few whose step hits a wall or a ceiling or lands (their contacts and events come from
the per-actor path itself). Walkers take part in touches (``group`` / ``touches``, with actors) and
trigger events like actors, after them.
"""

from __future__ import annotations

import math
import struct

import numpy as np

from . import _batch, _check, _motion
from ._motion import EPS
from .bodies import UNGROUPED, Actor, Contact, Ground, Touch, Trigger, _scale
from .geometry import overlaps
from ._touches import _SIDE, side
from .tiles import EMPTY

__all__ = ["Crowd", "Walker", "walk"]

PROBE = 0.5  # px ahead of the leading foot (and at least this far below the feet) where walk() looks for ground
DEPTH_PAD = 1.0  # px: the default ledge depth is half the width plus this (see walk)
_MARGIN = 0.01  # px: slack on the reach of a step (far more than any rounding, far less than a pixel)
_LATER = -2  # Walker hit_y_col: the floor's tile is looked up when read
_floor = math.floor
_ONE_BY_ONE = 30  # walkers: at most this many needing the full passes take the per-actor path instead


# -- the rule, for one actor -------------------------------------------------------------------------------
def walk(world, actor: Actor, direction: int, speed: float, ledges: bool = True,
         ledge_depth: float | None = None) -> int:
    """After a step: turn ``actor`` round if its own move hit something sideways (a wall, a slope face, a
    platform's side, the map's edge) or, with ``ledges``, if it stands and there is no ground just ahead
    of its leading foot; then set ``vx`` to walk on at ``speed`` px/s. Returns the direction (+1 right,
    -1 left) to pass in next time. A ``Crowd`` applies the same rule to each of its walkers.

    "Ground ahead" is a tile that is not empty, a walled side of the map, a platform or a solid actor
    met by the probe: the vertical segment ``PROBE`` px ahead of the leading foot, from ``PROBE`` px
    below the feet down to ``ledge_depth`` px below them (None: half the width + ``DEPTH_PAD`` px, the
    drop of a 45° ramp from the centre to the probe, which the ground snap follows; so a walker walks
    down a ramp onto the floor at its foot). A drop deeper than that is a ledge: the walker turns before
    it would step off, as long as it moves less than its width in a step.
    """
    d = direction
    for c in actor.contacts:
        if c[0][0]:  # (c.normal: a namedtuple's field by index is the quicker read)
            d = -d
            break
    else:
        if ledges and actor.on_ground:
            grid = world.grid
            if ledge_depth is None:  # the usual case first: a tile in the probe's top row is ground ahead
                x, ts, cols = actor.x, grid.tile_size, grid.cols
                col = _floor((x + actor.w + PROBE if d > 0 else x - PROBE) / ts)
                row = _floor((actor.y + actor.h + PROBE) / ts)  # (_ground_ahead's r0: the depth is > PROBE)
                if 0 <= col < cols and 0 <= row < grid.rows and grid._k[row * cols + col] != EMPTY:
                    actor.vx = d * speed
                    return d
            if not _ground_ahead(grid, world.platforms, actor.x, actor.y, actor.w, actor.h, d,
                                 world._hash if world._crates else None, _depth("walk", actor.w, ledge_depth)):
                d = -d
    actor.vx = d * speed
    return d


def _depth(owner: str, w: float, depth) -> float:
    """px: how far below the feet the ledge probe reaches (``walk``'s ``ledge_depth``; None: the default)."""
    if depth is None:
        return w * 0.5 + DEPTH_PAD
    return _check.size(owner, "ledge_depth", depth)


def _ground_ahead(grid, platforms, x: float, y: float, w: float, h: float, d: int, space=None,
                  depth: float = PROBE) -> bool:
    px = x + w + PROBE if d > 0 else x - PROBE
    feet = y + h
    py = feet + depth  # (the probe: from feet + PROBE, or less when depth is less, down to py)
    ts = grid.tile_size
    col, r0, r1 = math.floor(px / ts), math.floor((feet + min(PROBE, depth)) / ts), math.floor(py / ts)
    if 0 <= col < grid.cols:
        k, cols = grid._k, grid.cols
        for row in range(max(r0, 0), min(r1, grid.rows - 1) + 1):
            if k[row * cols + col] != EMPTY:
                return True
    if _beyond_wall(grid.edges, col, r0, r1, grid.cols, grid.rows):
        return True
    return _solid_ahead(platforms, space, px, feet, py)


def _solid_ahead(platforms, space, px: float, feet: float, py: float) -> bool:
    """``_ground_ahead``'s platforms and solid actors (through ``space``, the world's hash, when it has any):
    does one meet the probe at ``px`` from the feet down to ``py``?"""
    for p in platforms:
        if p.x <= px <= p.x + p.w and p.y - EPS <= py and feet - EPS <= p.y + p.h:
            return True
    if space is not None:
        for p in space.query(px - 1.0, feet - 1.0, 2.0, py - feet + 2.0):
            if isinstance(p, Actor) and p.solid and p.x <= px <= p.x + p.w and p.y - EPS <= py \
                    and feet - EPS <= p.y + p.h:
                return True
    return False


def _push_reach(world, dt: float) -> float:
    """px: the most an actor or a walker walking into a pushable crate can push it across in a step: its
    own move (a Character's: its speed or the top running speed, a jump's inherited lift, a dash or a
    wall jump); a chain of crates moves no farther than its pusher."""
    reach = 0.0
    for a in world.actors:
        if a.solid or a.bullet:
            continue
        r = abs(a.vx) * dt
        if a.__class__ is not Actor and hasattr(a, "_own_feel"):  # a Character (the controller sets vx)
            feel, own = (world.feel, world._derived) if a._feel is None else a._own_feel(world.feel.physics)
            r = max(r, (feel.run.max_speed + feel.platforms.lift_cap_x) * dt) + own.reach
        if r > reach:
            reach = r
    for crowd in world.crowds:
        if crowd._n:
            reach = max(reach, float(np.abs(crowd._a["vx"][:crowd._n]).max()) * dt)
    return reach


def _solid_reach(world, solids, d) -> list:
    """Each solid's box grown by what it can do this step, ``(left, right, top, bottom)`` (``_near_solids``):
    a platform by its path's speed; a solid actor by its own move and snap, and by being carried or pushed
    by the fastest platform and every solid actor at their speeds."""
    dt = d.dt
    g = max(d.gravity, d.fall_gravity)
    platforms = world.platforms
    crates = solids[len(platforms):]  # (solids: the platforms, then the solid actors)
    # what carrying and pushing can add to a solid actor's own move: the fastest platform, and every
    # solid actor at its speed (a chain of pushes or a stack of riders), per axis
    lift = own_x = own_y = size = 0.0
    for q in platforms:
        if q.path.speed > lift:
            lift = q.path.speed
    pushable = False
    for p in crates:
        own_x += abs(p.vx)
        own_y += abs(p.vy) + g * abs(p._gravity_scale) * dt
        size += p.w + p.h
        pushable = pushable or p.pushable
    pace_x = (lift + own_x) * dt
    pushed = _push_reach(world, dt) if pushable else 0.0
    pace_x += pushed  # (a pushable one: pushed by an actor or a walker walking into it)
    pace_y = (lift + own_y) * dt
    # A platform moves a crate only through a chain of crates touching it, one after the other: no
    # longer than all of them laid end to end, each with its step's motion. A crate farther than that
    # from every platform's reach this step moves by the crates' own motion at most (and pushes).
    chain = size + pace_x + pace_y + 1.0
    boxes, reach = [], []
    for q in platforms:
        r = q.path.speed * dt + _MARGIN
        boxes.append((q.x - r, q.x + q.w + r, q.y - r, q.y + q.h + r))
        r = q.path.speed * dt + chain
        reach.append((q.x - r, q.x + q.w + r, q.y - r, q.y + q.h + r))
    loose_x, loose_y = own_x * dt + pushed, own_y * dt
    for p in crates:
        x0, y0, x1, y1 = p.x, p.y, p.x + p.w, p.y + p.h
        lifted = False
        for q0, q1, q2, q3 in reach:
            if q0 <= x1 and x0 <= q1 and q2 <= y1 and y0 <= q3:
                lifted = True
                break
        along = abs(p.vx) * dt + (pace_x if lifted else loose_x)
        rx = along + _MARGIN if along > 0.0 else 0.0  # (not moving across: its x stays exactly)
        ry = (pace_y if lifted else loose_y) + _MARGIN \
            + (0.5 * p.w + along + 0.5 if along > 0.0 else 0.0)  # (a step up or snap)
        boxes.append((x0 - rx, x1 + rx, y0 - ry, y1 + ry))
    return boxes


def _beyond_wall(edges, col, r0, r1, cols, rows):
    """Does the probe in tile column ``col``, rows ``r0..r1``, reach outside the map beyond a walled side?
    (Works on numbers and on arrays.)"""
    return ((col < 0) & edges.left) | ((col >= cols) & edges.right) | ((r0 < 0) & edges.top) \
        | ((r1 >= rows) & edges.bottom)


# -- the batch -------------------------------------------------------------------------------------------------
# name -> (dtype, default): one array each, ``capacity`` long, the first ``len(crowd)`` in use
_FIELDS = {
    "x": (np.float64, 0.0), "y": (np.float64, 0.0), "w": (np.float64, 1.0), "h": (np.float64, 1.0),
    "vx": (np.float64, 0.0), "vy": (np.float64, 0.0), "prev_x": (np.float64, 0.0), "prev_y": (np.float64, 0.0),
    "speed": (np.float64, 0.0), "direction": (np.int8, 1), "ledges": (bool, True),
    "ledge_depth": (np.float64, np.nan), "gravity_scale": (np.float64, 1.0),
    "snap": (bool, True), "on_ground": (bool, False), "squished": (bool, False),
    "group": (np.uint64, UNGROUPED), "touches": (np.uint64, 0),
    "ground_kind": (np.int8, -1), "ground_one_way": (bool, False), "ground_platform": (object, None),
    # the contacts of the last step's own move: normal (y: -1 floor, 1 ceiling; x: -1 / 1; 0 none), kind code
    "hit_y": (np.int8, 0), "hit_y_kind": (np.int8, -1), "hit_y_other": (object, None),
    "hit_x": (np.int8, 0), "hit_x_kind": (np.int8, -1), "hit_x_other": (object, None),
    # ... the tile each hit (column -1: none; -2: a floor the batch met, looked up when read from the top it
    # stood on and the y where the Y pass left it, at x = prev_x) and the velocity (px/s) just before it
    "hit_y_col": (np.int64, -1), "hit_y_row": (np.int64, -1), "hit_y_top": (np.float64, np.nan),
    "hit_y_at": (np.float64, np.nan), "hit_y_vx": (np.float64, 0.0),
    "hit_y_vy": (np.float64, 0.0), "hit_x_col": (np.int64, -1), "hit_x_row": (np.int64, -1),
    "hit_x_vx": (np.float64, 0.0), "hit_x_vy": (np.float64, 0.0),
    # the box the engine last saw free of solids (NaN: check it at the next step)
    "clear_x": (np.float64, np.nan), "clear_y": (np.float64, np.nan), "clear_w": (np.float64, np.nan),
    "clear_h": (np.float64, np.nan),
    # a cache, not state: the x range (for this y) of the flat stretch the walker is on, where a step only
    # moves it along (see _batch.runway); run_y NaN: none known
    "run_lo": (np.float64, np.nan), "run_hi": (np.float64, np.nan), "run_y": (np.float64, np.nan),
    "run_kind": (np.int8, -1),
}
CACHE = ("run_lo", "run_hi", "run_y", "run_kind")
STATE = tuple(k for k in _FIELDS if k not in CACHE)  # what snapshots copy
_STAND_FLOATS = ("x", "y", "w", "h", "vx", "vy", "prev_x", "prev_y")
_STAND_FLAGS = ("on_ground", "squished", "snap")
_UNREAD = ()  # a stand-in's contacts before its move sets them
_HASHED = tuple(k for k in STATE if _FIELDS[k][0] is not object and not k.startswith("clear"))
_HIT_KEYS = {axis == "x": tuple(f"hit_{axis}{part}" for part in ("", "_kind", "_other", "_col", "_row", "_vx", "_vy"))
             for axis in "xy"}  # (a contact along x?) -> the columns its hit is stored in


class Walker:
    """One walker of a :class:`Crowd` (what ``crowd.add`` returns): reads and writes its row of the
    crowd's arrays. ``index`` is its row now (it moves down when a walker before it is removed)."""

    __slots__ = ("crowd", "data", "index", "name")
    solid = bullet = False  # (a walker is neither; read where actors are)
    bounce = 0.0
    # read as an Actor's (they only read x, y, w, h, prev_x, prev_y, contacts)
    wall, ceiling, floor, rect, feet, interpolated = (Actor.wall, Actor.ceiling, Actor.floor, Actor.rect, Actor.feet,
                                                      Actor.interpolated)

    def __init__(self, crowd: Crowd, index: int, name: str, data):
        self.crowd, self.index, self.name, self.data = crowd, index, name, data

    def _row(self) -> int:
        if self.index < 0:
            raise ValueError(f"{self!r} was removed from its crowd")
        return self.index

    def _get(self, name):
        return self.crowd._a[name][self._row()].item()

    def _set(self, name, value) -> None:
        self.crowd._a[name][self._row()] = value

    @property
    def ground(self) -> Ground | None:
        i, a = self._row(), self.crowd._a
        k = int(a["ground_kind"][i])
        return None if k < 0 else Ground(_batch.KINDS[k], a["ground_platform"][i], bool(a["ground_one_way"][i]))

    @property
    def contacts(self) -> list[Contact]:
        """What the last step's own move touched, the Y pass first (as ``Actor.contacts``)."""
        i, a = self._row(), self.crowd._a
        out = []
        for axis in ("y", "x"):
            n = int(a["hit_" + axis][i])
            if n:
                normal = (0, n) if axis == "y" else (n, 0)
                col = int(a[f"hit_{axis}_col"][i])
                if col == _LATER:
                    tile = self._floor_tile(i)
                else:
                    tile = None if col < 0 else (col, int(a[f"hit_{axis}_row"][i]))
                out.append(Contact(normal, _batch.KINDS[a[f"hit_{axis}_kind"][i]], a[f"hit_{axis}_other"][i], tile,
                                   a[f"hit_{axis}_vx"][i].item(), a[f"hit_{axis}_vy"][i].item()))
        return out

    def _floor_tile(self, i: int):
        """The tile of the floor the batch set walker ``i`` down on (``_motion._support_tile``)."""
        crowd, a = self.crowd, self.crowd._a
        grid = crowd._world.grid if crowd._world is not None else None
        if grid is None:
            return None
        box = _batch._Box(a["prev_x"].item(i), a["hit_y_at"].item(i), a["w"].item(i), a["h"].item(i))
        return _motion._support_tile(grid, box, a["hit_y_top"].item(i), _batch.KINDS[a["hit_y_kind"][i]])

    def teleport(self, x: float, y: float) -> None:
        """Put the walker somewhere at rest, without interpolation smear (as ``Actor.teleport``)."""
        owner = "Walker.teleport"
        x, y = _check.number(owner, "x", x), _check.number(owner, "y", y)
        i, a = self._row(), self.crowd._a
        a["x"][i] = a["prev_x"][i] = x
        a["y"][i] = a["prev_y"][i] = y
        a["vx"][i] = a["vy"][i] = 0.0
        a["on_ground"][i] = a["squished"][i] = False
        self.crowd._no_ground(i)

    def __repr__(self) -> str:
        if self.index < 0:
            return f"Walker({self.name or ''} removed)"
        return f"Walker({self.name or ''} #{self.index} x={self.x:.3f} y={self.y:.3f} w={self.w:g} h={self.h:g})"


def _walker_field(name: str, check=None):
    def get(self):
        return self._get(name)

    def set_(self, value):
        self._set(name, check(f"Walker.{name}", value) if check else value)

    return property(get, set_ if check else None)


def _number(owner, value, name="value"):
    return _check.number(owner, name, value)


def _size(owner, value):
    return _check.size(owner, "size", value)


def _speed(owner, value):
    return _check.size(owner, "speed", value, zero=True, unit="px/s")


def _direction(owner, value):
    if value not in (1, -1) or isinstance(value, bool):
        raise ValueError(f"{owner}: direction must be 1 (right) or -1 (left), got {value!r}")
    return int(value)


def _velocity(owner, value):
    return _check.number(owner, "velocity", value, "px/s")


def _flag(owner, value):
    return _check.flag(owner, "flag", value)


def _mask(owner, value):
    return _check.mask(owner, "mask", value)


for _name, _chk in (("x", _number), ("y", _number), ("w", _size), ("h", _size), ("vx", _velocity),
                    ("vy", _velocity), ("speed", _speed), ("direction", _direction), ("ledges", _flag),
                    ("gravity_scale", lambda owner, v: _scale(owner, v, None)), ("snap", _flag), ("group", _mask),
                    ("touches", _mask), ("prev_x", None),
                    ("prev_y", None), ("on_ground", None), ("squished", None)):
    setattr(Walker, _name, _walker_field(_name, _chk))
Walker.ledge_depth = property(
    lambda self: None if math.isnan(self._get("ledge_depth")) else self._get("ledge_depth"),
    lambda self, v: self._set("ledge_depth", np.nan if v is None else _depth("Walker.ledge_depth", 1.0, v)),
    doc="px below the feet that still count as ground ahead (walk's ledge_depth); None: half the width + 1 px.")
Walker.gravity = property(lambda self: self.gravity_scale != 0.0,
                          lambda self, on: self._set("gravity_scale", _scale("Walker", None, on)),
                          doc="On/off view of gravity_scale: True unless it is 0; setting it makes the scale 1 or 0.")


def _column(name: str, doc: str):
    def get(self):
        return self._a[name][:self._n]

    return property(get, doc=doc)


_COLUMNS = {  # the arrays a game reads (and may write): name -> what it holds
    "x": "px, left edges", "y": "px, top edges", "w": "px, widths", "h": "px, heights",
    "vx": "px/s (the walking rule sets it every step)", "vy": "px/s, positive is down",
    "prev_x": "px, x before the last step (for interpolation)", "prev_y": "px, y before the last step",
    "speed": "px/s, walking speed", "direction": "+1 right, -1 left", "ledges": "turns round at ledges",
    "ledge_depth": "px below the feet the ledge probe reaches (NaN: the default, half the width + 1 px)",
    "gravity_scale": "times the feel's gravity (1 normal, 0 none, negative pulls up)",
    "snap": "follows the ground down slopes and steps", "on_ground": "stands after the last step",
    "squished": "crushed in the last step",
    "group": "bit mask: the groups it is in (uint64)", "touches": "bit mask: the groups it reports touching (uint64)",
}


class _Stand(Actor):
    """A walker as a plain Actor for one step of the per-actor path (near platforms, out of solids)."""

    __slots__ = ("walker",)
    _listed = False  # (its crowd is listed, not the stand-in)


class Crowd:
    """Many walkers stepped as one batch by the world they are added to (``world.add(crowd)``).

    ``crowd.x``, ``crowd.y``, ``crowd.vx`` ... are numpy arrays, one row per walker in the order added
    (views: write into them to move walkers by hand; the next step checks those for solid geometry like
    a teleported actor). See engine/docs/crowds.md.
    """

    def __init__(self, name: str = ""):
        self.name = _check.text("Crowd", "name", name)
        self._n = 0
        self._a = {k: np.full(16, default, dtype) for k, (dtype, default) in _FIELDS.items()}
        self.walkers: list[Walker] = []
        self._world = None
        self._stands: list[_Stand] = []  # this step's walkers on the per-actor path
        self._runways = None  # the Tables the runways were found on
        self._trigger_key, self._trigger_index = None, None  # (Trigger.moves, the triggers): their index

    # -- membership ------------------------------------------------------------------------------------
    def add(self, x: float, y: float, w: float, h: float, *, speed: float = 40.0, direction: int = 1,
            ledges: bool = True, ledge_depth: float | None = None, gravity_scale: float | None = None,
            gravity: bool | None = None, snap: bool = True, group: int = UNGROUPED, touches: int = 0,
            name: str = "", data=None) -> Walker:
        """A walker with its top-left at (x, y), w x h px, walking at ``speed`` px/s toward ``direction``
        (+1 right, -1 left); ``ledges``: turns round where the ground ends (else walks off);
        ``ledge_depth``: px below the feet that still count as ground ahead (``walk``; None: half the
        width + 1 px); ``gravity_scale`` (or its on/off alias ``gravity``), ``snap``, ``group``,
        ``touches``: as for an ``Actor``. Returns its :class:`Walker`."""
        owner = "Crowd.add"
        values = {"x": _check.number(owner, "x", x), "y": _check.number(owner, "y", y),
                  "w": _check.size(owner, "w", w), "h": _check.size(owner, "h", h),
                  "speed": _check.size(owner, "speed", speed, zero=True, unit="px/s"),
                  "direction": _direction(owner, direction), "ledges": _check.flag(owner, "ledges", ledges),
                  "ledge_depth": np.nan if ledge_depth is None else _depth(owner, 1.0, ledge_depth),
                  "gravity_scale": _scale(owner, gravity_scale, gravity), "snap": _check.flag(owner, "snap", snap),
                  "group": _check.mask(owner, "group", group), "touches": _check.mask(owner, "touches", touches)}
        name = _check.text(owner, "name", name)
        i = self._n
        if i == len(self._a["x"]):
            for k, arr in self._a.items():
                grown = np.full(2 * i, _FIELDS[k][1], arr.dtype)
                grown[:i] = arr
                self._a[k] = grown
        for k, (_dtype, default) in _FIELDS.items():
            self._a[k][i] = default
        for k, v in values.items():
            self._a[k][i] = v
        a = self._a
        a["prev_x"][i], a["prev_y"][i] = values["x"], values["y"]
        a["vx"][i] = values["direction"] * values["speed"]
        self._n = i + 1
        walker = Walker(self, i, name, data)
        self.walkers.append(walker)
        return walker

    def remove(self, walker: Walker) -> None:
        """Take a walker out (the walkers after it move up a row; their handles follow)."""
        if not isinstance(walker, Walker) or walker.crowd is not self or walker.index < 0:
            raise ValueError(f"{walker!r} is not in this crowd")
        i, n = walker.index, self._n
        for arr in self._a.values():
            arr[i:n - 1] = arr[i + 1:n]
            arr[n - 1] = None if arr.dtype == object else arr[n - 1]
        del self.walkers[i]
        for later in self.walkers[i:]:
            later.index -= 1
        if self._world is not None:  # it leaves its triggers silently, as a removed actor does
            self._world._inside = {pair for pair in self._world._inside if pair[1] is not walker}
        walker.index = -1
        self._n = n - 1

    def __len__(self) -> int:
        return self._n

    def __iter__(self):
        return iter(list(self.walkers))

    def __getitem__(self, i: int) -> Walker:
        return self.walkers[i]

    def __repr__(self) -> str:
        return f"Crowd({self.name!r}, {self._n} walkers)"

    def interpolated(self, alpha: float) -> tuple[np.ndarray, np.ndarray]:
        """Every walker's position to draw: lerp(previous, current, alpha), as two arrays."""
        n, a = self._n, self._a
        px, py = a["prev_x"][:n], a["prev_y"][:n]
        return px + (a["x"][:n] - px) * alpha, py + (a["y"][:n] - py) * alpha

    # -- triggers ----------------------------------------------------------------------------------------
    def _sense(self, triggers: list) -> list:
        """The (trigger, walker) pairs overlapping now, of triggers that sense the walker's group: walkers
        with a corner in a cell (``_CELL`` px) holding such a trigger are found all at once, then each is
        tested exactly as an actor is."""
        n = self._n
        if not n or not triggers:
            return []
        a = self._a
        groups = a["group"][:n]
        held = int(np.bitwise_or.reduce(groups))  # every group some walker is in
        key = (Trigger.moves, Trigger.masks, held, tuple(triggers))
        if self._trigger_key != key:
            live = [t for t in triggers if t.senses & held]
            self._trigger_key, self._trigger_index = key, _TriggerIndex(live) if live else None
        index = self._trigger_index
        if index is None:
            return []
        x, y, w, h = a["x"][:n], a["y"][:n], a["w"][:n], a["h"][:n]
        near = index.candidates(x, y, w, h) & ((groups & np.uint64(index.senses)) != 0)
        pairs = []
        for i in np.flatnonzero(near).tolist():
            walker, group = self.walkers[i], int(groups[i])
            bx, by, bw, bh = a["x"].item(i), a["y"].item(i), a["w"].item(i), a["h"].item(i)
            pairs += [(t, walker) for t in index.near(bx, by, bw, bh)
                      if t.senses & group and overlaps(bx, by, bw, bh, t.x, t.y, t.w, t.h)]
        return pairs

    # -- touches (World.step, _touches.py) ---------------------------------------------------------------
    def _in_box(self, x: float, y: float, w: float, h: float, mask: int | None = None) -> list:
        """The walkers strictly overlapping the box (with ``mask``: only those in one of its groups), in row
        order."""
        n, a = self._n, self._a
        if not n:
            return []
        wx, wy = a["x"][:n], a["y"][:n]
        hit = (wx < x + w) & (x < wx + a["w"][:n]) & (wy < y + h) & (y < wy + a["h"][:n])
        if mask is not None:
            hit &= (a["group"][:n] & np.uint64(mask)) != 0
        return [self.walkers[i] for i in np.flatnonzero(hit).tolist()]

    def _fast(self, reach: float) -> list:
        """The walkers that moved more than ``reach`` px along an axis in the last step, in row order."""
        n, a = self._n, self._a
        if not n:
            return []
        far = (np.abs(a["x"][:n] - a["prev_x"][:n]) > reach) | (np.abs(a["y"][:n] - a["prev_y"][:n]) > reach)
        return [self.walkers[i] for i in np.flatnonzero(far).tolist()]

    def _holding(self, x: float, y: float) -> list:
        """The walkers holding the point (left and top edges in, right and bottom out: ``query_point``)."""
        n, a = self._n, self._a
        if not n:
            return []
        wx, wy = a["x"][:n], a["y"][:n]
        hit = (wx <= x) & (x < wx + a["w"][:n]) & (wy <= y) & (y < wy + a["h"][:n])
        return [self.walkers[i] for i in np.flatnonzero(hit).tolist()]

    def _touch(self, actors, space, few: int) -> list:
        """The touches of the walkers that touch a group, in row order, each as an actor's (``_touches.find``):
        the solid actors its own move ran into, then the actors it overlaps, as added. Walkers never report
        other walkers."""
        n, a = self._n, self._a
        if not n or not actors:
            return []
        masks = a["touches"][:n]
        who = np.flatnonzero(masks)
        if not who.size:
            return []
        wanted = int(np.bitwise_or.reduce(masks[who]))
        near = [b for b in actors if b.group & wanted]
        if not near:
            return []
        hits: dict[int, list] = {}  # row -> the actors it touches, in order
        sides: dict[int, list] = {}  # row -> the sides of the first of those (from its contacts)
        for k in np.flatnonzero((a["hit_y_kind"][who] == _batch.R_ACTOR) | (a["hit_x_kind"][who] == _batch.R_ACTOR)):
            i = int(who[k])
            walker, mask = self.walkers[i], int(masks[i])
            for c in walker.contacts:
                o = c.other
                if c.kind == "actor" and mask & o.group and o not in hits.setdefault(i, []):
                    hits[i].append(o)
                    sides.setdefault(i, []).append(_SIDE[c.normal])
        x, y, w, h, m = a["x"][who], a["y"][who], a["w"][who], a["h"][who], masks[who]
        if len(near) <= few:
            for b in near:  # (in the order added)
                bx, by = b.x, b.y
                hit = (x < bx + b.w) & (bx < x + w) & (y < by + b.h) & (by < y + h) & ((m & np.uint64(b.group)) != 0)
                for k in np.flatnonzero(hit).tolist():
                    found = hits.setdefault(int(who[k]), [])
                    if b not in found:
                        found.append(b)
        else:  # many actors: each walker asks the broadphase (in the order added)
            for k in range(len(who)):
                i = int(who[k])
                wx, wy, ww, wh, mask = x.item(k), y.item(k), w.item(k), h.item(k), int(m[k])
                for b in space.query(wx, wy, ww, wh):
                    if isinstance(b, Actor) and mask & b.group and wx < b.x + b.w and b.x < wx + ww \
                            and wy < b.y + b.h and b.y < wy + wh:
                        found = hits.setdefault(i, [])
                        if b not in found:
                            found.append(b)
        out = []
        for i in sorted(hits):
            walker, first = self.walkers[i], sides.get(i, ())
            out += [Touch(walker, b, first[j] if j < len(first) else side(walker, b)) for j, b in enumerate(hits[i])]
        return out

    # -- state (snapshots, hashes) ----------------------------------------------------------------------
    def _state(self) -> tuple:
        """Every walker's row (copies) and who the walkers are: what a snapshot keeps."""
        n = self._n
        return n, tuple(self.walkers), {k: self._a[k][:n].copy() for k in STATE}

    def _put_state(self, state) -> None:
        n, walkers, arrays = state
        for w in self.walkers:
            w.index = -1  # (those still here get their row back below)
        if len(self._a["x"]) < n:
            self._a = {k: np.full(max(16, n), d, t) for k, (t, d) in _FIELDS.items()}
        for k, arr in arrays.items():
            self._a[k][:n] = arr
        for k in CACHE:
            self._a[k][:n] = _FIELDS[k][1]
        self._n = n
        self.walkers[:] = walkers
        for i, w in enumerate(walkers):
            w.index = i

    def _digest(self, h, platform_index) -> None:
        """Feed everything the next step reads into the hash ``h`` (platforms by their index)."""
        n, a = self._n, self._a
        h.update(struct.pack("<q", n))
        for k in _HASHED:
            h.update(np.ascontiguousarray(a[k][:n]).tobytes())
        for k in ("ground_platform", "hit_y_other", "hit_x_other"):
            h.update(np.array([platform_index(p) for p in a[k][:n]], np.int64).tobytes())

    def _recheck(self, grid, changes) -> None:
        """Tiles were edited (``changes``: their (col, row), or None for all): walkers overlapping one (and,
        to be sure, those within a tile of one) are checked at the next step like a teleported actor."""
        n, a = self._n, self._a
        if not n:
            return
        if changes is None:
            a["clear_x"][:n] = np.nan
            a["run_y"][:n] = np.nan
            return
        ts = grid.tile_size
        edited = np.zeros((grid.rows + 1, grid.cols + 1), np.int32)
        for c, r in changes:
            edited[r + 1, c + 1] = 1
        edited = edited.cumsum(axis=0).cumsum(axis=1).ravel()
        span = grid.cols + 1

        def any_edited(x0, y0, x1, y1):  # an edited tile in the tiles around the box (a tile's margin)
            c0, c1 = np.floor(x0 / ts).astype(np.int64) - 1, np.ceil(x1 / ts).astype(np.int64) + 1
            r0, r1 = np.floor(y0 / ts).astype(np.int64) - 1, np.ceil(y1 / ts).astype(np.int64) + 1
            c0, c1 = np.clip(c0, 0, grid.cols), np.clip(c1, 0, grid.cols)
            r0, r1 = np.clip(r0, 0, grid.rows), np.clip(r1, 0, grid.rows)
            return edited[r1 * span + c1] - edited[r0 * span + c1] - edited[r1 * span + c0] + edited[r0 * span + c0] > 0

        x, y, w, h = a["x"][:n], a["y"][:n], a["w"][:n], a["h"][:n]
        a["clear_x"][:n][any_edited(x, y, x + w, y + h)] = np.nan
        # a runway (the flat stretch a walker only moves along) is known free of edits no more where one of
        # its tiles, the floor's row or the row above changed
        known = np.flatnonzero(~np.isnan(a["run_y"][:n]))
        if known.size:
            ry, lo, hi = a["run_y"][known], a["run_lo"][known], a["run_hi"][known]
            stale = any_edited(lo, ry, hi + w[known], ry + h[known])
            a["run_y"][known[stale]] = np.nan

    def _forget(self, platform) -> None:
        """A platform left the world: nobody stands on it any more."""
        a, n = self._a, self._n
        for i in np.flatnonzero(a["ground_platform"][:n] == np.array(platform, dtype=object)).tolist():
            a["on_ground"][i] = False
            self._no_ground(i)

    def _no_ground(self, i) -> None:
        a = self._a
        a["ground_kind"][i] = -1
        a["ground_one_way"][i] = False
        a["ground_platform"][i] = None

    # -- the step (called by World.step) ---------------------------------------------------------------
    def _begin(self, world, stale: bool, st) -> None:
        """Phase 1 for the crowd: previous positions; walkers not where the engine left them are checked
        for solid geometry (as ``World._unstick``); those near a platform or a solid actor this step become
        stand-ins. ``st``: the world's step (``_solids.Step``)."""
        n = self._n
        self._stands = []
        if not n:
            return
        a = self._a
        x, y, w, h = a["x"][:n], a["y"][:n], a["w"][:n], a["h"][:n]
        a["prev_x"][:n] = x
        a["prev_y"][:n] = y
        a["squished"][:n] = False
        check = np.ones(n, bool) if stale else \
            (x != a["clear_x"][:n]) | (y != a["clear_y"][:n]) | (w != a["clear_w"][:n]) | (h != a["clear_h"][:n])
        stand = np.zeros(n, bool)
        idx = np.flatnonzero(check)
        if idx.size:
            a["run_y"][idx] = np.nan  # (moved or resized by hand)
            self._check_numbers(idx)
            free = _batch.box_free(world._tables(), x[idx], y[idx], w[idx], h[idx])
            for p in st.solids:
                if not p.one_way:
                    xi, yi = x[idx], y[idx]
                    free &= ~((p.x < xi + w[idx]) & (xi < p.x + p.w) & (p.y < yi + h[idx]) & (yi < p.y + p.h))
            ok = idx[free]
            a["clear_x"][ok], a["clear_y"][ok], a["clear_w"][ok], a["clear_h"][ok] = x[ok], y[ok], w[ok], h[ok]
            stand[idx[~free]] = True
            a["clear_x"][idx[~free]] = np.nan  # (moved out below, as World._unstick moves an actor)
        if st.solids:
            stand |= self._near_solids(world, st.solids)
        for i in np.flatnonzero(stand).tolist():
            self._stands.append(self._stand(i))
        for s in self._stands:
            if check[s.walker.index] and s._clear is None:
                world._unstick(s, st)

    def _check_numbers(self, idx) -> None:
        a = self._a
        for name in ("x", "y", "w", "h"):
            v = a[name][idx]
            bad = ~np.isfinite(v) | ((v <= 0) if name in "wh" else False)
            if bad.any():
                walker = self.walkers[int(idx[np.argmax(bad)])]
                what = "a finite number of px" if name in "xy" else "a finite size > 0 px"
                raise ValueError(f"{walker!r}: {name} must be {what}, got {v[np.argmax(bad)].item()!r}; set it "
                                 f"(or use walker.teleport(x, y))")

    def _near_solids(self, world, solids) -> np.ndarray:
        """Walkers whose step could touch a platform or a solid actor, from this step's motion: each
        walker's box swept by its X pass and grown by what the rest of its step can do (a fall, a snap
        down, a step up or a climb), against each solid's box grown by what it can do this step (a
        platform: its path's speed; a solid actor: its own move and snap, and being carried or pushed by
        the fastest platform and every solid actor at their speeds). Up and down, touching counts as
        meeting; across, only a solid strictly inside the swept box (the X pass's blocking and every
        support, ceiling and overlap test are strict). The walking rule's look ahead is left out: where the
        tiles show no ground ahead, the batch asks the platforms and crates (``_solid_ahead``)."""
        n, a, d = self._n, self._a, world._derived
        dt = d.dt
        s0, s1, s2, s3 = np.array(_solid_reach(world, solids, d)).T[:, :, None]
        # across first (solids x walkers, at once): from x to the X pass's target ``tx``, as the pass
        # computes them
        x, w, vx = a["x"][:n], a["w"][:n], a["vx"][:n]
        tx = x + vx * dt
        across = (s0 < np.maximum(x, tx) + w) & (np.minimum(x, tx) < s1)
        near = across.any(axis=0)
        idx = np.flatnonzero(near)
        if idx.size:  # then up and down, for the few across from one
            y, h, vy, scale = a["y"][idx], a["h"][idx], a["vy"][idx], a["gravity_scale"][idx]
            g = max(d.gravity, d.fall_gravity)  # px/s^2: the strongest pull, either way
            fall = (np.abs(vy) + np.abs(scale) * (g * dt)) * dt  # px: the Y pass, either way
            climb = 0.5 * w[idx] + np.abs(vx[idx]) * (2.0 * dt)  # px: a step up and a climb; the snap less 0.5
            down = fall + climb + (0.5 + _MARGIN)
            # above: only a step up or a climb, unless the step may rise (moving up, or pulled up)
            up = np.where(np.minimum(vy, scale) < 0.0, down, climb + _MARGIN)
            near[idx] = (across[:, idx] & (s2 <= y + h + down) & (y - up <= s3)).any(axis=0)
        return near

    def _stand(self, i: int) -> _Stand:
        """Walker ``i`` as a plain Actor (its state copied in)."""
        a = self._a
        s = _Stand.__new__(_Stand)
        walker = self.walkers[i]
        s.walker, s.name = walker, walker.name
        s.x, s.y, s.w, s.h, s.vx, s.vy, s.prev_x, s.prev_y = [a[k].item(i) for k in _STAND_FLOATS]
        s.on_ground, s.squished, s.snap = [a[k].item(i) for k in _STAND_FLAGS]
        s._gravity_scale, s.data, s._world = a["gravity_scale"].item(i), walker.data, None
        s.solid = s.bullet = False
        s.bounce = 0.0
        s.group, s.touches = int(a["group"][i]), int(a["touches"][i])
        kind = a["ground_kind"].item(i)
        s.ground = None if kind < 0 else Ground(_batch.KINDS[kind], a["ground_platform"][i],
                                                a["ground_one_way"].item(i))
        s.contacts = _UNREAD  # (every path that reads contacts sets them first; settle keeps them)
        s.drop_platform = None
        box = (s.x, s.y, s.w, s.h)
        s._clear = box if (a["clear_x"].item(i), a["clear_y"].item(i), a["clear_w"].item(i),
                           a["clear_h"].item(i)) == box else None
        return s

    def _store(self, s: _Stand) -> None:
        """Write a stand-in's state back into its walker's row."""
        i, a = s.walker.index, self._a
        for k, v in zip(_STAND_FLOATS, (s.x, s.y, s.w, s.h, s.vx, s.vy, s.prev_x, s.prev_y), strict=True):
            a[k][i] = v
        a["on_ground"][i], a["squished"][i] = s.on_ground, s.squished
        if s._clear is None:
            a["clear_x"][i] = np.nan
        else:
            a["clear_x"][i], a["clear_y"][i], a["clear_w"][i], a["clear_h"][i] = s._clear
        g = s.ground
        if g is None:
            self._no_ground(i)
        else:
            a["ground_kind"][i] = _batch.KINDS.index(g.kind)
            a["ground_one_way"][i], a["ground_platform"][i] = g.one_way, g.platform
        if s.contacts is _UNREAD:
            return
        a["hit_y"][i] = a["hit_x"][i] = 0
        a["hit_y_kind"][i] = a["hit_x_kind"][i] = -1
        a["hit_y_other"][i] = a["hit_x_other"][i] = None
        for c in s.contacts:
            hit, kind, other, col, row, vx, vy = _HIT_KEYS[c.normal[0] != 0]
            a[hit][i] = c.normal[0] or c.normal[1]
            a[kind][i] = _batch.KINDS.index(c.kind)
            a[other][i] = c.other
            a[col][i], a[row][i] = (-1, -1) if c.tile is None else c.tile
            a[vx][i], a[vy][i] = c.vx, c.vy

    def _move(self, world, d, st) -> None:
        """Phase 3 for the crowd: the stand-ins through the per-actor path, everyone else as one batch;
        then every walker's walking rule. Their events go to ``st.events`` in row order."""
        n = self._n
        if not n:
            return
        events, caused_by = [], {}
        for s in self._stands:
            mark, own = len(st.events), len(events)
            self._one(world, d, st, s, events)
            if len(st.events) > mark:  # what its push of a crate did (pushed, squished): before its own events
                caused = st.events[mark:]
                del st.events[mark:]
                for e in caused:
                    caused_by[id(e)] = s.walker.index
                events[own:own] = caused
        for s in self._stands:  # (after every stand-in moved: a later one's push may move an earlier one)
            self._walk_and_store(world, s)
        if len(self._stands) < n:
            keep = None  # (the stand-ins' rows, already stepped, are read with the others and left alone)
            if self._stands:
                keep = np.ones(n, bool)
                keep[[s.walker.index for s in self._stands]] = False
            self._step_batch(world, d, st, keep, events)
        if events:
            if self._stands:
                events.sort(key=lambda e: caused_by.get(id(e)) if caused_by and id(e) in caused_by
                            else e.actor.walker.index)
            st.events += events

    def _one(self, world, d, st, s: _Stand, events: list, near: bool = True) -> None:
        """One walker through the per-actor path as the stand-in ``s``: ``World._move_plain``, a pushable
        crate it walked into pushed, its events (as ``World.step`` notes them); ``_walk_and_store`` follows.
        ``near``: it may meet a platform or a solid actor this step (else none is looked at: the near test
        found none it can reach)."""
        if s.squished:
            s.contacts = []
        else:
            _finite_velocity(s.walker, s.vx, s.vy)
            was_grounded, x0 = s.on_ground, s.x
            world._move_plain(s, d, (st.around(s, d.dt) if st.crates else world.platforms) if near else ())
            if near and st.crates and s.contacts:
                world._push_crates(s, x0, st)  # (a walker pushes a pushable crate as an actor does)
            s._clear = (s.x, s.y, s.w, s.h)
            hits = s.contacts
            if (s.on_ground and not was_grounded) or (hits and (len(hits) > 1 or hits[0].normal[1] >= 0)):
                world._note(s, was_grounded, events)

    def _walk_and_store(self, world, s: _Stand) -> None:
        """A stand-in's walking rule (``walk``, as after the step), then its state stored back in its row."""
        a, i = self._a, s.walker.index
        depth = a["ledge_depth"].item(i)
        a["direction"][i] = walk(world, s, int(a["direction"][i]), float(a["speed"][i]), bool(a["ledges"][i]),
                                 None if depth != depth else depth)
        self._store(s)

    def _step_batch(self, world, d, st, keep, events) -> None:
        """``World._move_plain`` (gravity, the Y pass, the X pass, the ground snap) and ``walk`` for the
        walkers ``idx``, none of them near a platform or a solid actor. Cheapest first: walkers on a runway
        (a stretch of flat ground known to hold nothing in their way) only move along it; walkers on flat
        ground or a slope with nothing in the way take one short pass; the rest go through the mirrored
        passes (or, when only a few, the per-actor path), and those whose step hits a wall or a ceiling or
        lands through the per-actor path (their contacts and events are its own). ``keep``: which rows
        to step (None: all); the others are read (views cost less than copies) but never written."""
        a, T = self._a, world._tables()
        idx = slice(0, self._n)
        if self._runways is not T:  # the grid changed: every runway is unknown
            a["run_y"][:] = np.nan
            self._runways = T
        x, y, vx, vy = a["x"][idx], a["y"][idx], a["vx"][idx], a["vy"][idx]
        if not np.isfinite(vx + vy).all():  # (the stand-ins' rows passed this test in _one)
            bad = ~np.isfinite(vx) | ~np.isfinite(vy)
            k = int(np.argmax(bad))
            _finite_velocity(self.walkers[int(np.arange(self._n)[idx][k])], vx[k], vy[k])
        dt = d.dt
        # gravity, integrated over the step (World._fall: pulled up, the same mirrored)
        scale, top = a["gravity_scale"][idx], world.feel.fall.max_speed
        vy_new = np.where(scale > 0.0, np.minimum(vy + np.where(vy < 0.0, d.gravity, d.fall_gravity) * scale * dt, top),
                          np.where(scale < 0.0,
                                   np.maximum(vy + np.where(vy > 0.0, d.gravity, d.fall_gravity) * scale * dt, -top),
                                   vy))
        dy = (vy + vy_new) * 0.5 * dt
        tx = x + vx * dt
        rows = np.arange(self._n)[idx]
        lo, hi = a["run_lo"][idx], a["run_hi"][idx]
        on_runway = (y == a["run_y"][idx]) & (x >= lo) & (x <= hi) & (tx >= lo) & (tx <= hi) & (y + dy > y)
        if keep is not None:
            on_runway &= keep
        run = rows[on_runway]
        if run.size:  # nothing to meet, no ledge to see: only x moves (and the step's records)
            ry, rw, rh = y[on_runway], a["w"][run], a["h"][run]
            kind = a["run_kind"][run]
            self._floor(run, ry, np.rint((ry + rh) / T.ts) * T.ts, kind, vx[on_runway], vy_new[on_runway])
            a["x"][run] = a["clear_x"][run] = tx[on_runway]
            a["vx"][run] = a["direction"][run] * a["speed"][run]
            a["vy"][run] = 0.0
            a["on_ground"][run] = True
            a["ground_kind"][run] = kind
            a["ground_one_way"][run] = kind == _batch.R_ONE_WAY
            a["hit_x"][run] = 0
            a["clear_y"][run] = ry
            a["clear_w"][run], a["clear_h"][run] = rw, rh
        rest = ~on_runway if keep is None else ~on_runway & keep
        if rest.any():
            self._step_lanes(world, d, st, T, rows[rest], tx[rest], vy_new[rest], dy[rest], events)

    def _floor(self, rows, y, top, kind, vx, vy) -> None:
        """Record a floor contact (the Y pass's) for the walkers ``rows``: left at ``y`` (x unchanged) on
        ``top`` of a floor of ``kind``, moving at ``(vx, vy)`` just before."""
        a = self._a
        a["hit_y"][rows] = -1
        a["hit_y_kind"][rows] = kind
        a["hit_y_other"][rows] = None
        a["hit_y_col"][rows] = _LATER  # (most are never read: Walker.contacts looks the tile up)
        a["hit_y_top"][rows], a["hit_y_at"][rows] = top, y
        a["hit_y_vx"][rows], a["hit_y_vy"][rows] = vx, vy

    def _step_lanes(self, world, d, st, T, rows, tx, vy_new, dy, events) -> None:
        """The walkers ``rows`` not on a runway (see ``_step_batch``)."""
        a = self._a
        m = len(rows)
        x, y, w, h = a["x"][rows], a["y"][rows], a["w"][rows], a["h"][rows]
        vx = a["vx"][rows]
        was_grounded = a["on_ground"][rows]
        snap = a["snap"][rows]
        reach = np.where(was_grounded & snap, np.abs(tx - x) + w * 0.5 + 0.5, EPS)
        ground = a["ground_kind"][rows]
        flat = np.flatnonzero((ground == _batch.R_SOLID) | (ground == _batch.R_ONE_WAY))
        sloped = np.flatnonzero(ground == _batch.R_SLOPE)
        out_x, out_y, out_vy = tx, y.copy(), np.zeros(m)
        on_ground = np.ones(m, bool)
        ground = ground.copy()
        hit_y = np.full(m, -1, np.int8)
        hit_y_kind = np.full(m, -1, np.int8)
        hit_x = np.zeros(m, np.int8)
        mid_y, top = y.copy(), np.full(m, np.inf)  # where the Y pass left them, the floor's top
        easy = np.zeros(m, bool)
        clear, step_row, col, right = _batch.leading_edge(T, x, y, w, h, tx)
        if flat.size:
            ok, before, after, ny = _batch.flat_walk(T, x[flat], y[flat], w[flat], h[flat], tx[flat], dy[flat],
                                                     reach[flat], clear[flat])
            on = flat[ok]
            easy[on] = True
            hit_y_kind[on] = before[ok]
            ground[on] = after[ok]
            out_y[on] = ny[ok]
            top[on] = np.rint((y[on] + h[on]) / T.ts) * T.ts
            ok &= after != _batch.R_SLOPE  # (those went down onto a slope)
            on = flat[ok]
            if on.size:  # a runway from here, where the ground allows one
                lo, hi, kind = _batch.runway(T, tx[on], y[on], w[on], h[on], after[ok])
                found = lo <= hi
                r = rows[on[found]]
                a["run_lo"][r], a["run_hi"][r], a["run_y"][r], a["run_kind"][r] = lo[found], hi[found], y[on[found]], \
                    kind[found]
        if sloped.size:
            s = sloped
            ok, ny, s0, after = _batch.slope_walk(T, x[s], y[s], w[s], h[s], tx[s], dy[s], reach[s], clear[s],
                                                  step_row[s], col[s], right[s])
            on = sloped[ok]
            easy[on] = True
            out_y[on] = ny[ok]
            top[on] = s0[ok]
            hit_y_kind[on] = _batch.R_SLOPE
            ground[on] = after[ok]
        rest = np.flatnonzero(~easy)
        if rest.size > _ONE_BY_ONE:  # many: the mirrored passes
            r = rest
            (out_x[r], out_y[r], out_vy[r], on_ground[r], ground[r], hit_y[r], hit_y_kind[r], hit_x[r], mid_y[r],
             top[r]) = _passes(T, x[r], y[r], w[r], h[r], vx[r], vy_new[r], dy[r], tx[r], was_grounded[r], snap[r])
            # a wall, a ceiling or a landing: those few take the per-actor path (its contacts, its events)
            easy[r] = (hit_x[r] == 0) & (hit_y[r] != 1) & (was_grounded[r] | ~on_ground[r])
            rest = np.flatnonzero(~easy)
        for k in rows[rest].tolist():  # (their rows still hold the step's start)
            s = self._stand(k)
            self._one(world, d, st, s, events, near=False)  # (not a stand-in: no platform or crate near it)
            self._walk_and_store(world, s)  # (nothing later moves it this step)
        if rest.size:
            keep = np.flatnonzero(easy)
            rows, x, out_x, out_y, out_vy, mid_y, top, vx, vy_new = (rows[keep], x[keep], out_x[keep], out_y[keep],
                                                                     out_vy[keep], mid_y[keep], top[keep], vx[keep],
                                                                     vy_new[keep])
            on_ground, ground, hit_y, hit_y_kind, w, h = (on_ground[keep], ground[keep], hit_y[keep], hit_y_kind[keep],
                                                          w[keep], h[keep])
        if not rows.size:
            return
        # the floor contacts (the easy ones: every one; the passes: those that came down on a floor)
        floor = hit_y == -1
        if floor.all():
            self._floor(rows, mid_y, top, hit_y_kind, vx, vy_new)
        else:
            f = np.flatnonzero(floor)
            self._floor(rows[f], mid_y[f], top[f], hit_y_kind[f], vx[f], vy_new[f])
            a["hit_y"][rows[~floor]] = 0
            a["hit_y_kind"][rows[~floor]] = -1
        x, y = out_x, out_y
        # the walking rule (none of them hit anything sideways)
        direction = a["direction"][rows]
        turn = np.zeros(len(rows), bool)
        look = np.flatnonzero(on_ground & a["ledges"][rows])
        if look.size:
            turn[look] = ~self._ground_ahead(T, world.grid, x[look], y[look], w[look], h[look], direction[look],
                                             a["ledge_depth"][rows[look]])
            if world.platforms or world._crates:  # no tile ahead: a platform or a crate there is ground too
                solids, space = world.platforms, world._hash if world._crates else None
                if space is not None and st.boxes is not None:  # a few crates: each tested, not the hash
                    solids, space = st.solids, None
                for k in np.flatnonzero(turn).tolist():
                    bx, bw, feet, depth = x.item(k), w.item(k), y.item(k) + h.item(k), a["ledge_depth"].item(rows[k])
                    px = bx + bw + PROBE if direction[k] > 0 else bx - PROBE
                    depth = bw * 0.5 + DEPTH_PAD if depth != depth else depth  # (NaN: the default)
                    if _solid_ahead(solids, space, px, feet, feet + depth):
                        turn[k] = False
        direction = np.where(turn, -direction, direction).astype(np.int8)
        # store
        a["x"][rows], a["y"][rows], a["vx"][rows], a["vy"][rows] = x, y, direction * a["speed"][rows], out_vy
        a["on_ground"][rows], a["ground_kind"][rows] = on_ground, ground
        a["ground_one_way"][rows] = ground == _batch.R_ONE_WAY
        a["ground_platform"][rows] = None
        a["hit_x"][rows] = 0
        a["direction"][rows] = direction
        a["clear_x"][rows], a["clear_y"][rows], a["clear_w"][rows], a["clear_h"][rows] = x, y, w, h

    @staticmethod
    def _ground_ahead(T, grid, x, y, w, h, direction, depth):
        """``_ground_ahead`` on arrays, tiles and walled sides only (where they find none, the caller asks the
        platforms and crates); ``depth``: the walkers' ``ledge_depth`` (NaN: the default)."""
        ts = T.ts
        px = np.where(direction > 0, x + w + PROBE, x - PROBE)
        feet = y + h
        depth = np.where(np.isnan(depth), w * 0.5 + DEPTH_PAD, depth)
        col = _batch.floor(px / ts)
        r0, r1 = _batch.floor((feet + np.minimum(PROBE, depth)) / ts), _batch.floor((feet + depth) / ts)
        found = _beyond_wall(grid.edges, col, r0, r1, T.cols, T.rows)
        for k in range(int((r1 - r0).max()) + 1):  # (a row or two: the probe is short)
            found |= (r0 + k <= r1) & (T.span(r0 + k, col, col) != 0)
        return found


for _name, _doc in _COLUMNS.items():
    setattr(Crowd, _name, _column(_name, f"numpy array, one per walker: {_doc}"))


def _passes(T, x, y, w, h, vx, vy, dy, tx, was_grounded, snap):
    """The mirrored passes for walkers anywhere (no platform near): the Y pass, the X pass, the snap.
    ``vy`` is the velocity after gravity, ``dy`` the step's fall. Returns the new x, y, vy, on_ground,
    ground kind, the Y contact (normal, kind code), the X contact's normal, and where the Y pass left y
    and the top of the floor it came down on (inf: none)."""
    m = len(x)
    x, y, vx, vy = x.copy(), y.copy(), vx.copy(), vy.copy()
    hit_y = np.zeros(m, np.int8)
    hit_y_kind = np.full(m, -1, np.int8)
    top = np.full(m, np.inf)
    sel = np.flatnonzero(dy != 0.0)
    if sel.size:
        ny, hit_y[sel], hit_y_kind[sel], top[sel] = _batch.move_y(T, x[sel], y[sel], w[sel], h[sel], y[sel] + dy[sel])
        y[sel] = ny
    vy[hit_y != 0] = 0.0
    mid_y = y.copy()
    x_before = x.copy()
    hit_x = np.zeros(m, np.int8)
    sel = np.flatnonzero(tx != x)
    if sel.size:
        xs, ys = x[sel], y[sel]
        kind = _batch.move_x(T, xs, ys, w[sel], h[sel], tx[sel], hit_y[sel] == -1)
        x[sel], y[sel] = xs, ys
        hit = kind >= 0
        hit_x[sel[hit]] = np.where(tx[sel[hit]] > x_before[sel[hit]], -1, 1)
    on_ground = np.zeros(m, bool)
    ground = np.full(m, -1, np.int8)
    sel = np.flatnonzero(vy >= 0.0)
    if sel.size:
        reach = np.where(was_grounded[sel] & snap[sel], np.abs(x[sel] - x_before[sel]) + w[sel] * 0.5 + 0.5, EPS)
        ny, kind = _batch.land(T, x[sel], y[sel], w[sel], h[sel], reach)
        y[sel] = ny
        stands = kind >= 0
        vy[sel[stands]] = 0.0
        on_ground[sel] = stands
        ground[sel] = kind
    return x, y, vy, on_ground, ground, hit_y, hit_y_kind, hit_x, mid_y, top


class _TriggerIndex:
    """Triggers by the ``CELL`` px cells they meet, with the occupied cells as sorted integer codes so that a
    whole crowd's boxes are matched against them in a few numpy calls. A trigger meeting more than
    ``BIG`` cells is tested against every walker instead."""

    CELL = 64.0
    BIG = 256

    def __init__(self, triggers):
        cell = self.CELL
        self.cells: dict[tuple[int, int], list] = {}
        self.big: list = []
        self.all = list(triggers)
        self.senses = 0  # the groups any of them senses
        for t in triggers:
            self.senses |= t.senses
            c0, r0, c1, r1 = (math.floor(t.x / cell), math.floor(t.y / cell), math.floor((t.x + t.w) / cell),
                              math.floor((t.y + t.h) / cell))
            if (c1 - c0 + 1) * (r1 - r0 + 1) > self.BIG:
                self.big.append(t)
                continue
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    self.cells.setdefault((c, r), []).append(t)
        self.codes = np.sort(np.array([int(_cell_code(c, r)) for c, r in self.cells], np.int64))

    def candidates(self, x, y, w, h):
        """Which boxes could overlap a trigger: a corner in an occupied cell, more than two cells a side,
        or any box when a big trigger meets it."""
        cell, codes = self.CELL, self.codes
        near = np.zeros(len(x), bool)
        if codes.size:
            c0, c1 = np.floor(x / cell).astype(np.int64), np.floor((x + w) / cell).astype(np.int64)
            r0, r1 = np.floor(y / cell).astype(np.int64), np.floor((y + h) / cell).astype(np.int64)
            corners = np.concatenate([_cell_code(c0, r0), _cell_code(c1, r0), _cell_code(c0, r1), _cell_code(c1, r1)])
            found = codes[np.minimum(np.searchsorted(codes, corners), codes.size - 1)] == corners
            near = found.reshape(4, len(x)).any(axis=0) | (c1 - c0 > 1) | (r1 - r0 > 1)
        for t in self.big:
            near |= (x < t.x + t.w) & (t.x < x + w) & (y < t.y + t.h) & (t.y < y + h)
        return near

    def near(self, x: float, y: float, w: float, h: float) -> list:
        """The triggers listed in the cells the box meets, and the big ones (each once)."""
        cell = self.CELL
        c0, r0, c1, r1 = math.floor(x / cell), math.floor(y / cell), math.floor((x + w) / cell), \
            math.floor((y + h) / cell)
        if (c1 - c0 + 1) * (r1 - r0 + 1) > len(self.cells):  # a huge box: every trigger
            return self.all
        cells = self.cells
        found = dict.fromkeys(t for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) for t in cells.get((c, r), ()))
        found.update(dict.fromkeys(self.big))
        return list(found)


def _cell_code(cx, cy):
    """One integer per trigger cell (numbers or arrays; cells past a million a side share codes, which only
    makes a walker there a candidate for an exact test)."""
    big = 1 << 20
    return (np.clip(cx, -big, big) + 2 * big) * (4 * big) + (np.clip(cy, -big, big) + 2 * big)


def _finite_velocity(walker, vx, vy) -> None:
    if not (math.isfinite(vx) and math.isfinite(vy)):
        raise ValueError(f"{walker!r} has velocity vx={float(vx)!r} vy={float(vy)!r}; velocities must be finite px/s")

