"""Route finder: a best-first search over held-input macros, on the real Session, to the goal and every coin.

    report = find_routes(load_level("levels/01_first_steps.tmx"), feel, max_states=20000)
    report.outcome                         # "finished", "impossible" or "unknown" (the budget ran out)
    report.route                           # finished: its buttons, one per step (an input script)
    report.coins_reached, report.coins_missed, report.stuck, report.states, report.steps, report.seconds

The search steps the same :class:`~game.rules.session.Session` the game plays (so hazards, squishing platforms
and every later rule count), jumping between branches with ``Session.snapshot`` / ``restore``.

- **Macros** are what a player does between two decisions: hold left, right or nothing for a short,
  medium or long moment, or press jump (with a direction) and hold it for a tap (one step), a third of a
  full hold or the full rise; or drop through a one-way platform (down+jump). Durations follow the
  feel (seconds, and the full hold is ``jump.time_to_apex``). A macro also ends when the player lands or
  leaves the ground, so the next decision comes exactly there (a jump on landing, a coyote jump).
- **The moves**, when the feel turns them on or the level grants them (its ``moves`` property: the search
  runs under ``level_feel``, game/rules/moves.py; all off: the macros and the key above, nothing more):
  with ``wall.jump``, in the air beside a wall (a solid or slope tile, the map's side or a solid platform
  within ``wall.jump_reach``, or still in the wall's coyote window), a wall jump holding no direction,
  away or toward, for a tap, a third or all of the wall jump's rise; and coming within reach of a wall
  in the air ends a macro, so the next decision is taken at the wall (slide down it by holding toward
  it, with ``wall.slide``; kick off). With ``dash.enabled`` and a dash left, a dash each way the feel
  allows (8, or 4 without ``dash.diagonals``; pressed as soon as the cooldown allows), the direction held
  through it, deciding again where it ends and a medium moment later. The key then also holds the wall's
  coyote count and side, the lock after a wall jump, the grip worn (in quarters), the dashes spent, the
  dash under way (steps left, direction), the cooldown and a buffered dash press; and, in a level with
  refill crystals, which are gone and for how long.
- **Deduplication**: two states with the same coarse key are the same place to search from. The key holds
  what changes the future: the player's half-tile cell, velocity buckets, grounded, jumping, jump held,
  coyote left, dropping; the phase of every moving body nearby (moving platforms, enemies, bullets) and of
  every turret nearby; which enemies are alive and which blocks broken; every crumble that is not at rest
  (shaking: steps until it falls; gone: that it is, and for one within a jump of the player when it comes
  back, in half seconds), so waiting for a lift is a real choice while waiting in an empty field is not.
  (A far crumble's countdown made every state around one per moment: level 8's search from the start
  ran out of 60,000 states; with this it finishes in 56,914.) Coins taken are not in the key: coins never
  change the physics.
- **Guidance**: a distance field over the tile grid from the target (Dijkstra through every non-solid
  tile; climbing dearer than walking or falling, air with nothing to land on within a jump's height
  dearer still) scores each state, a state in the air by where it would land; the open state with the
  lowest score is expanded first (greedy: the routes come out a little longer than a speedrunner's).
- **Segments**: a state that has reached a checkpoint nearer the goal (by the distance field) is always
  expanded before one that has not, so the states that reached one checkpoint seed the search toward the
  next; the others are only taken up again if every state beyond the checkpoint dies out.
- **Targets**: the goal; with ``coins``, then all coins not yet touched (the field then leads to the nearest
  one). A coin counts as reached when any state explored touched it; deaths end a branch.
- **Known routes first**: ``known`` routes (a shipped replay, a route found before) are each replayed once;
  the first that completes the level is the verdict. One that fails seeds a search from the last checkpoint
  it reached standing (its route so far kept), before the search from the start.
- **Budget**: a number of states, counted the same on any machine: the same level, feel and budget give the
  same outcome, route and figures. ``seconds`` is only a safety cap: a search stopped by it is "unknown"
  (and says so in ``capped``). When the open list of the search from the start runs dry, everything
  reachable under the key was explored: the outcome is "impossible" (up to the macros and the key's
  coarseness; a search that ends so is repeated once on a finer key while the budget lasts).
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from engine import Buttons, FeelConfig, TileKind

from game.files.inputscript import parse_script
from game.files.levelfile import COIN_POINT_SIZE, LevelData
from game.rules.moves import level_feel
from game.rules.session import Session

__all__ = ["Stuck", "RouteReport", "Cancelled", "find_routes", "find_tour", "replay_route", "distance_field",
           "support_map", "Search", "DEFAULT_STATES", "SAFETY_SECONDS", "OUTCOMES"]

DEFAULT_STATES = 20000  # states per level (the goal search; the coins share it)
SAFETY_SECONDS = 600.0  # s, the wall-clock cap of one level's search: stopped by it, the outcome is "unknown"
OUTCOMES = ("finished", "impossible", "unknown")

GRAINS = (8.0, 4.0)  # px, the position grain of the dedup key: half a tile, then a quarter if that failed
MOVER_GRAIN = (16.0, 64.0)  # px, the position grain of a moving platform in the key: close by, further off
CLOSE = 48.0  # px between the player and a platform's box under which the fine grain counts
TIMER_GRAIN = 6  # steps, the grain of a crumble's timer and a turret's phase in the key
RETURN_GRAIN = 0.5  # s, the grain of a gone crumble's time to come back, for one near the player (else: gone)
UP_COST = 2.0  # distance field: a tile climbed costs this many tiles walked or fallen
UNSUPPORTED_COST = 4.0  # distance field: a tile with nothing to land on below costs this many
ARC_DT = 1 / 30  # s, the sampling of a jump's arc when scoring where it lands (see Search._arc_landing)
ARC_S = 1.5  # s, how far along the arc to look
PIT_PENALTY = 64.0  # px added to the score of a state in the air with nothing below it (yet)
WALK_TIMES = (0.05, 0.13, 0.27)  # s, the stops of a held direction
JUMP_SHARE = 1 / 3  # the medium jump holds this share of the full rise

@dataclass(frozen=True)
class Stuck:
    """The furthest point toward the goal (by the distance field) where the player stood."""

    x: float  # px, the player's top-left
    y: float
    col: int  # tile of the player's feet
    row: int
    steps: int  # steps from the start to get there (``route`` replays it)
    route: tuple = ()  # Buttons per step


@dataclass(frozen=True)
class RouteReport:
    level: str  # file name
    outcome: str  # "finished", "impossible" (everything reachable explored) or "unknown" (budget spent)
    route: tuple  # Buttons per step from the start to the goal (empty if not finished)
    coins_total: int
    coins_reached: tuple  # coin Area ids touched by some route
    coins_missed: tuple  # ((x, y), ...) centres of the coins no route touched, px
    stuck: Stuck | None  # where the search got closest to the goal, when not finished
    states: int  # distinct states found
    expanded: int  # states searched from
    seconds: float  # wall-clock time of the whole search (goal and coins)
    goal_seconds: float | None  # wall-clock time until the goal was reached
    goal_states: int | None  # distinct states found until then
    exhausted: bool  # every state reachable (under the key) was explored: what was not reached is out of reach
    grain: float  # px, the position grain of the key in the last pass
    coin_routes: dict = field(default_factory=dict, compare=False)  # coin id -> Buttons per step
    steps: int = 0  # session steps simulated (known routes and search): the work done, machine-independent
    source: str = "search"  # what gave the route: "search", "known NAME" or "repaired NAME"
    capped: bool = False  # the safety cap (seconds) stopped the search: "unknown" for a reason of time
    budget: int | None = None  # the state budget the search had
    route_coins: int = 0  # coins the goal route collects (known routes; check_level counts a searched one)
    stood: frozenset = field(default=frozenset(), compare=False)  # (col, row) feet tiles a searched state stood in

    @property
    def finished(self) -> bool:
        return self.outcome == "finished"

    @property
    def route_steps(self) -> int:
        return len(self.route)


def distance_field(grid, targets: list[tuple[float, float, float, float]], *, support: np.ndarray | None = None,
                   up_cost: float | None = None, unsupported_cost: float | None = None) -> np.ndarray:
    """Distance (px) from every tile to the nearest target box, moving through non-solid tiles.

    8-neighbour Dijkstra between tile centres; a move upward costs ``up_cost`` times as much, diagonals
    may not cut a solid corner. ``support`` (rows x cols bool, see :func:`support_map`) marks tiles a
    player can be in without falling to its death; moving through the others costs ``unsupported_cost``
    times as much, so a wide pit is far across and a lift's path over it is near. Solid and unreachable
    tiles are ``inf``."""
    up_cost = UP_COST if up_cost is None else up_cost
    unsupported_cost = UNSUPPORTED_COST if unsupported_cost is None else unsupported_cost
    rows, cols, ts = grid.rows, grid.cols, grid.tile_size
    open_ = (np.asarray(grid.kinds) != TileKind.SOLID).ravel().tolist()
    weight = [1.0] * (rows * cols) if support is None else \
        np.where(support, 1.0, unsupported_cost).ravel().tolist()
    dist = [math.inf] * (rows * cols)
    heap: list[tuple[float, int]] = []
    for x, y, w, h in targets:
        c0, c1 = max(0, int(x // ts)), min(cols - 1, int((x + w - 1e-9) // ts))
        r0, r1 = max(0, int(y // ts)), min(rows - 1, int((y + h - 1e-9) // ts))
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                i = r * cols + c
                if open_[i] and dist[i] > 0.0:
                    dist[i] = 0.0
                    heap.append((0.0, i))
    heapq.heapify(heap)
    # from a tile toward the target is the reverse of the search's move: a step *down* here is the
    # player climbing *up* toward the target
    moves = [(dc, dr, ts * math.hypot(dc, dr * (up_cost if dr > 0 else 1.0)))
             for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr]
    while heap:
        d, i = heapq.heappop(heap)
        if d > dist[i]:
            continue
        r, c = divmod(i, cols)
        for dc, dr, cost in moves:
            nr, nc = r + dr, c + dc
            if not (0 <= nr < rows and 0 <= nc < cols):
                continue
            j = nr * cols + nc
            if not open_[j] or (dc and dr and not (open_[r * cols + nc] and open_[nr * cols + c])):
                continue
            nd = d + cost * max(weight[i], weight[j])
            if nd < dist[j]:
                dist[j] = nd
                heapq.heappush(heap, (nd, j))
    return np.asarray(dist, dtype=np.float64).reshape(rows, cols)


def support_map(level: LevelData, feel: FeelConfig) -> np.ndarray:
    """Tiles with something to stand on at most a jump's height (plus a tile) below: ground of any kind,
    or the sweep of a moving platform along its path. Hazard tiles are never support."""
    grid, ts = level.grid, level.tile_size
    kinds = np.asarray(grid.kinds)
    base = kinds != TileKind.EMPTY
    for spec in level.platforms:
        xs = [x for x, _ in spec.points] + [spec.x]
        ys = [y for _, y in spec.points] + [spec.y]
        _mark(base, min(xs), min(ys), max(xs) + spec.w - min(xs), max(ys) + spec.h - min(ys), ts)
    reach = max(1, math.ceil(feel.jump.height / ts) + 1)
    support = np.zeros_like(base)
    for k in range(1, min(reach, base.shape[0] - 1) + 1):
        support[:-k] |= base[k:]
    for area in level.hazards:
        support[_cells(area.x, area.y, area.w, area.h, ts, base.shape)] = False
    return support & (kinds != TileKind.SOLID)


def _cells(x, y, w, h, ts, shape):
    rows, cols = shape
    c0, c1 = max(0, int(x // ts)), min(cols - 1, int((x + w - 1e-9) // ts))
    r0, r1 = max(0, int(y // ts)), min(rows - 1, int((y + h - 1e-9) // ts))
    return slice(r0, r1 + 1), slice(c0, c1 + 1)


def _mark(grid_bool, x, y, w, h, ts):
    grid_bool[_cells(x, y, w, h, ts, grid_bool.shape)] = True


class _Node:
    __slots__ = ("parent", "word", "count", "steps", "snap", "cx", "cy", "score", "penalty", "grounded", "rank",
                 "prefix")

    def __init__(self, parent, word, count, steps, snap, cx, cy):
        self.parent, self.word, self.count, self.steps = parent, word, count, steps
        self.snap, self.cx, self.cy = snap, cx, cy
        self.score = 0.0
        self.penalty = 0.0  # px added to the score (in the air with nothing below)
        self.grounded = False
        self.rank = 0  # the checkpoint reached: lower is nearer the goal (see Search._rank)
        self.prefix = ()  # a root's route so far (Buttons per step): a search seeded inside a known route

    def route(self) -> tuple:
        chunks = []
        node = self
        while node is not None and node.word is not None:
            chunks.append((node.word, node.count))
            node = node.parent
        out: list[Buttons] = list(node.prefix) if node is not None else []
        for word, count in reversed(chunks):
            out.extend([_BUTTONS[word]] * count)
        return tuple(out)


_AIMS = ("right", "up+right", "up", "up+left", "left", "down+left", "down", "down+right")  # the dash's 8 ways
_BUTTONS = {w: parse_script(f"1 {w}")[0] for w in ("-", "left", "right", "jump", "left+jump", "right+jump",
                                                   "down+jump", *_AIMS, *(f"{a}+dash" for a in _AIMS))}


class Cancelled(Exception):
    """Raised out of :func:`find_routes` when its ``stop()`` said so: the answer is no longer wanted (a newer
    change of feel in the F2 strip). Never a verdict: the caller drops the check."""


STOP_EVERY = 64  # states expanded between two calls of a search's stop()
STOP_STEPS = 512  # steps of a known route replayed between two calls of stop()


class Search:
    """One search over one level and feel; :meth:`run` it toward a target set, then read the results."""

    stop = None  # a callable: true when the search should raise Cancelled (checked every STOP_EVERY states)

    def __init__(self, level: LevelData, feel: FeelConfig | None = None, *, cell: float = GRAINS[0],
                 start: _Node | None = None, session: Session | None = None):
        """A search from the level's start, or from ``start`` (a node of an earlier search on ``session``,
        with its snapshot: the routes found then continue that node's route)."""
        self.level = level
        self.cell = cell
        self.feel = feel = level_feel(level, feel)  # with the level's moves: they are in the move set
        self.session = session or Session(level, feel)
        hz = feel.physics.hz
        full = max(1, round(feel.jump.time_to_apex * hz))
        self.walk_stops = sorted({max(1, round(t * hz)) for t in WALK_TIMES})
        self.jump_stops = sorted({1, max(1, round(full * JUMP_SHARE)), full})
        d = feel.derived
        self.coyote = d.coyote_steps
        self._ballistic = (d.gravity, d.fall_gravity, feel.fall.max_speed)  # px/s^2, px/s^2, px/s: see _aim
        self.vx_grain = max(feel.run.max_speed / 3.0, 1.0)
        self.vy_grain = max(d.takeoff_speed / 4.0, 1.0)
        # the moves the feel turns on (each widens the macros and the key; all off: exactly the old search)
        wall, dash = feel.wall, feel.dash
        self.wall_jump = wall.jump
        self.wall_slide = wall.slide
        self.wall_reach = wall.jump_reach + 1.0 if wall.jump else 1.0  # px beside the box that a wall counts in
        self.wall_coyote = max(1, d.wall_coyote_steps) if wall.jump else 0
        wall_full = max(1, round(d.wall_time_to_apex * hz))
        self.wall_stops = sorted({1, max(1, round(wall_full * JUMP_SHARE)), wall_full})
        self.grip_grain = max(1, d.grip_steps // 4)
        self.dash = dash.enabled
        self.dash_steps = d.dash_steps
        self.dash_aims = _AIMS if dash.diagonals else _AIMS[::2]
        flight = feel.jump.time_to_apex + d.fall_time  # s, a full jump from take-off to landing
        self.movers = [_Mover(p, d.jump_distance + p.path.speed * flight, hz)
                       for p in self.session.world.platforms if len(p.path.points) > 1 and p.path.speed > 0]
        self.reach = d.jump_distance  # px: other actors nearer than this are part of the key
        self.coin_boxes = {c.id: _coin_box(c) for c in level.coins}
        self.seen: set = set()
        self.open: list = []  # heap of (score, order, node)
        self.order = 0
        self.states = 0
        self.expanded = 0
        self.goal_node: _Node | None = None
        self.coin_nodes: dict[int, _Node] = {}
        self.waypoint: tuple[float, float, float, float] | None = None  # see aim()
        self.standing = False  # the waypoint counts only for a state standing on the ground in it
        self.touched: list[_Node] = []  # states that touched the waypoint, with their snapshots
        self.best: tuple[float, _Node] | None = None  # the standing state closest to the goal
        self.stood: set[tuple[int, int]] = set()  # (col, row) of the feet's tiles of every standing state found
        self.support = support_map(level, feel)
        self._goal_field = self._field([(g.x, g.y, g.w, g.h) for g in level.goals])
        self.field = self._goal_field
        self.simulated = 0  # session steps played
        # checkpoints by their distance to the goal: rank 0 nearest; no checkpoint reached ranks last
        ts = level.tile_size
        dist = {c.id: self._h(self._goal_field, c.x + c.w / 2, min(c.y + c.h, level.height) - ts / 2)
                for c in level.checkpoints}
        order = sorted(dist, key=lambda cid: (dist[cid], cid))
        self.ranks = {cid: i for i, cid in enumerate(order)}
        self.no_rank = len(order)
        self.turrets = [(t.x + t.w / 2, t.y + t.h / 2, round(t.delay * hz), max(1, round(t.period * hz)))
                        for t in level.turrets]
        self.crumble_boxes = [(c.x, c.y, c.x + c.w, c.y + c.h) for c in level.crumbles]
        self.return_grain = max(TIMER_GRAIN, round(RETURN_GRAIN * hz))  # steps
        s = self.session
        self.floor_below = _floor_below(level.grid)
        if start is None:
            start = _Node(None, None, 0, 0, s.snapshot(), *self._aim(s.player))
            start.grounded = True  # where the level starts counts as reached, standing or not
        else:
            s.restore(start.snap)
        start.rank = self._rank()
        root = start
        self.seen.add(self._key())
        self.states = 1
        self._push(root)

    # -- the heuristic ------------------------------------------------------------------------------------
    def _h(self, field: np.ndarray, cx: float, cy: float) -> float:
        """Distance field at a point: the best of the 3x3 tiles around it plus the way to their centre."""
        ts = self.level.tile_size
        rows, cols = field.shape
        c0 = min(max(int(cx // ts), 0), cols - 1)
        r0 = min(max(int(cy // ts), 0), rows - 1)
        best = math.inf
        for r in range(max(r0 - 1, 0), min(r0 + 2, rows)):
            for c in range(max(c0 - 1, 0), min(c0 + 2, cols)):
                f = field[r, c]
                if f < best:
                    dx, dy = (c + 0.5) * ts - cx, (r + 0.5) * ts - cy
                    f += math.hypot(dx, dy * (UP_COST if dy < 0 else 1.0))
                    if f < best:
                        best = f
        return best

    def _aim(self, p) -> tuple[float, float]:
        """The point whose distance scores a state: the player's centre when standing; in the air, where
        it would stand on the first ground or platform straight below (a jump in place is no progress,
        passing over a ledge is), or sooner along its arc (a jump across a gap counts from the far
        side). Nothing below: the centre (the field there knows it is unsupported)."""
        cx, cy = p.x + p.w / 2, p.y + p.h / 2
        if p.on_ground:
            return cx, cy
        grid, ts = self.level.grid, self.level.tile_size
        feet = p.y + p.h
        row = int(feet // ts)
        land = math.inf
        if 0 <= row < grid.rows:
            below = self.floor_below
            for col in range(max(int(p.x // ts), 0), min(int((p.x + p.w - 1e-9) // ts), grid.cols - 1) + 1):
                r = below[row][col]
                if r < grid.rows:
                    land = min(land, r * ts)
        elif row < 0:
            land = 0.0  # above the map: no telling, count the top row
        for m in self.session.world.platforms:
            if m.y >= feet - 1e-6 and m.x < p.x + p.w and p.x < m.x + m.w:
                land = min(land, m.y)
        if p.vx and 0 <= row < grid.rows:  # moving across: where its arc lands, if that is not straight below
            arc = self._arc_landing(p, land)
            if arc is not None:
                return arc
        return (cx, cy) if land == math.inf else (cx, land - p.h / 2)

    def _arc_landing(self, p, straight: float) -> tuple[float, float] | None:
        """The centre where the player would stand first along its arc (its ``vx`` held, gravity, the fall
        capped), when that comes before the ground straight below (feet ``straight``): a run-up jump over a
        gap is scored by the far side, not by the pit under its take-off. None: no such landing in ARC_S."""
        grid, ts, below = self.level.grid, self.level.tile_size, self.floor_below
        rise, fall, cap = self._ballistic
        x, feet, vx, vy = p.x, p.y + p.h, p.vx, p.vy
        dt = ARC_DT
        for _ in range(int(ARC_S / dt)):
            vy = min(vy + (rise if vy < 0 else fall) * dt, cap)
            x += vx * dt
            new = feet + vy * dt
            if vy > 0:  # coming down: a floor top crossed between feet and new
                row = int(feet // ts)
                if row >= grid.rows or new >= straight:
                    return None  # out of the map, or no sooner than straight down: keep that
                if row >= 0:
                    for col in range(max(int(x // ts), 0), min(int((x + p.w - 1e-9) // ts), grid.cols - 1) + 1):
                        r = below[row][col]
                        if r < grid.rows and r * ts <= new and r * ts >= feet - 1e-6:
                            return x + p.w / 2, r * ts - p.h / 2
            feet = new
        return None

    def _field(self, boxes) -> np.ndarray:
        return distance_field(self.level.grid, boxes, support=self.support)

    def _push(self, node: _Node) -> None:
        h = self._h(self.field, node.cx, node.cy)
        node.score = h + node.penalty
        if math.isinf(node.score):
            node.score = 1e12  # out of the field's reach (e.g. walled off from the target): last resort
        self.order += 1
        rank = node.rank if self.field is self._goal_field else 0  # segments count toward the goal only
        heapq.heappush(self.open, (rank, node.score, self.order, node))
        if node.grounded and self.field is self._goal_field and (self.best is None or h < self.best[0]):
            self.best = (h, node)  # the furthest place toward the goal the player stood
        p = self.session.player  # (the state just found: _push follows the snapshot)
        if p.on_ground:
            ts = self.level.tile_size
            row = int((p.y + p.h - 1e-6) // ts)
            for col in range(int(p.x // ts), int((p.x + p.w - 1e-6) // ts) + 1):
                self.stood.add((col, row))

    def aim(self, box: tuple[float, float, float, float], standing: bool = False) -> None:
        """Make ``box`` (x, y, w, h) a waypoint: states touching it (``standing``: standing on the ground
        in it, not passing through in the air) are collected in ``touched`` (and not searched on), and the
        search is led there."""
        self.waypoint = box
        self.standing = standing
        self.retarget([box])

    def retarget(self, boxes: list[tuple[float, float, float, float]]) -> None:
        """Lead the search toward ``boxes`` (x, y, w, h) from now on: rescore the open states."""
        self.field = self._field(boxes) if boxes else self._goal_field
        nodes = [entry[-1] for entry in self.open]
        self.open = []
        for node in nodes:
            self._push(node)

    # -- the key ------------------------------------------------------------------------------------------
    def _key(self) -> tuple:
        s = self.session
        p = s.player
        cell = self.cell
        key = (int(p.x // cell), int(p.y // cell), round(p.vx / self.vx_grain), round(p.vy / self.vy_grain),
               p.on_ground, p.jumping, p.held.jump, max(0, self.coyote - p.air_steps), p.drop_left > 0)
        if self.wall_jump or self.wall_slide:  # the wall's coyote count and side, the lock, the grip worn
            key += (min(p.wall_steps, self.wall_coyote), p.wall_side if p.wall_steps < self.wall_coyote else 0,
                    p.lock_left and p.lock_dir, -(-p.lock_left // TIMER_GRAIN), p.grip_used // self.grip_grain)
        if self.dash:  # dashes left, in a dash (how far along, which way), cooling down
            key += (p.dashes_spent, p.dash_left, p.dash_dir if p.dash_left else None, p.dash_cooldown > 0,
                    p.since_dash is not None)
        cx, cy = p.x + p.w / 2, p.y + p.h / 2
        movers = [m.phase(i, cx, cy) for i, m in enumerate(self.movers) if m.near(cx, cy)]
        reach = self.reach
        for i, a in enumerate(s.world.actors):  # other actors (enemies, bullets) nearby
            if a is not p and abs(a.x - p.x) < reach and abs(a.y - p.y) < reach:
                movers.append((-1 - i, int(a.x // cell), int(a.y // cell), round(a.vx), round(a.vy)))
        crowd = s.enemies.crowd  # the walkers nearby, by enemy
        if len(crowd):
            index = s.enemies.index
            for k in np.flatnonzero((np.abs(crowd.x - p.x) < reach) & (np.abs(crowd.y - p.y) < reach)).tolist():
                w = crowd.walkers[k]
                movers.append((-100000 - index[w], int(w.x // cell), int(w.y // cell), round(w.vx), round(w.vy)))
        step = s.world.steps
        for i, (tx, ty, first, period) in enumerate(self.turrets):  # when the next shot comes, nearby
            if abs(tx - cx) < 2 * reach and abs(ty - cy) < 2 * reach:
                movers.append((-1000 - i, (step - first) % period // TIMER_GRAIN if step >= first else -1))
        return key + tuple(movers) + self._parts_key(step)

    def _parts_key(self, step: int) -> tuple:
        """What the level's objects carry into the future: enemies alive, blocks broken, crumbles not at rest
        (shaking: its timer in TIMER_GRAIN steps; gone: when it comes back in return_grain steps, only within
        a jump of the player), refill crystals gone (with their timers)."""
        s = self.session
        b = s.blocks
        p = s.player
        boxes, reach = self.crumble_boxes, self.reach
        crumbles = []
        for i in range(len(b.crumbles)):
            if b.fell[i] >= 0:  # gone: when it comes back, for one nearby (as a mover's phase), else only gone
                x0, y0, x1, y1 = boxes[i]
                if b.back[i] < 0 or max(x0 - p.x - p.w, p.x - x1, y0 - p.y - p.h, p.y - y1) > reach:
                    crumbles.append((i, 1))
                else:
                    crumbles.append((i, 1, (b.back[i] - step) // self.return_grain))
            elif b.shook[i] >= 0:
                crumbles.append((i, 0, (step - b.shook[i]) // TIMER_GRAIN))
        crumbles = tuple(crumbles)
        key = (tuple(s.enemies.alive), tuple(x >= 0 for x in b.broken), crumbles)
        r = s.refills
        if r.specs:  # refill crystals gone, with the steps until each is back (TIMER_GRAIN; None: not this life)
            dt = s.world.dt
            key += (tuple((i, (used + round(r.specs[i].respawn / dt) - step) // TIMER_GRAIN
                           if r.specs[i].respawn > 0 else None) for i, used in enumerate(r.used) if used >= 0),)
        return key

    def _rank(self) -> int:
        cp = self.session.checkpoint
        return self.no_rank if cp is None else self.ranks.get(cp.id, self.no_rank)

    def _wait_limit(self) -> int:
        """Steps worth standing still here: the longest period of a moving platform whose path passes
        within reach (0 when none does: then waiting changes nothing)."""
        p = self.session.player
        cx, cy = p.x + p.w / 2, p.y + p.h / 2
        return max((m.period for m in self.movers if m.path_near(cx, cy)), default=0)

    # -- macros -------------------------------------------------------------------------------------------
    def _lanes(self) -> list[tuple[list[tuple[str, int]], tuple[int, ...], bool]]:
        """(segments, stops, is_jump) for the state the session is in: segments of (word, steps); a child
        state is made after each stop (a count of steps from the lane's start)."""
        p = self.session.player
        # on the ground: a short, medium and long hold; in the air: one decision per medium moment
        if p.on_ground:
            walk = tuple(self.walk_stops)
        else:  # and, just off a ledge, every step a coyote jump is still possible
            coyote = range(1, self.coyote - p.air_steps) if p.air_steps < self.coyote else ()
            walk = tuple(sorted({*coyote, self.walk_stops[len(self.walk_stops) // 2]}))
        lanes = [([(d, walk[-1])], walk, False) for d in ("right", "left")]
        # standing still: where a moving platform passes, wait (up to its period) until the key changes
        wait = self._wait_limit() if p.on_ground else 0
        lanes.append(([("-", max(walk[-1], wait))], walk, False))
        full = self.jump_stops[-1]
        jumps = (("right", "right+jump"), ("left", "left+jump"), ("-", "jump"))
        if p.held.jump and p.jumping:  # rising from a held jump: holding on (maybe turning) is a choice too
            lanes += [([(word, full)], (full,), True) for _d, word in jumps]
        elif p.on_ground or p.air_steps < self.coyote:
            for d, word in jumps:
                if p.held.jump:  # let go for a step first, or it is no press
                    lanes.append(([(d, 1), (word, full)], tuple(1 + k for k in self.jump_stops), True))
                else:
                    lanes.append(([(word, full)], tuple(self.jump_stops), True))
        if p.on_ground and p.ground is not None and p.ground.one_way:
            lanes.append(([("down+jump", 1)], (1,), True))
        if self.wall_jump and not p.on_ground and p.air_steps >= self.coyote and not p.dashing \
                and (p.wall_steps < self.wall_coyote or self._near_wall(p)):
            lanes += self._wall_lanes(p)
        if self.dash and not p.dashing and p.dashes_spent < self.feel.dash.count:
            lanes += self._dash_lanes(p, walk)
        return lanes

    def _wall_lanes(self, p) -> list:
        """In the air beside a wall (or just off one): a wall jump, holding no direction, away or toward,
        for a tap, a third of the wall jump's rise or all of it (the lock steers it away at first)."""
        full = self.wall_stops[-1]
        out = []
        for word in ("jump", "right+jump", "left+jump"):
            if p.held.jump:  # let go for a step first, or it is no press
                out.append(([("-", 1), (word, full)], tuple(1 + k for k in self.wall_stops), True))
            else:
                out.append(([(word, full)], tuple(self.wall_stops), True))
        return out

    def _dash_lanes(self, p, walk) -> list:
        """A dash each way the feel allows: the press (with the direction), the direction held through it,
        a decision where it ends and a medium moment later (holding on)."""
        n = self.dash_steps
        after = walk[len(walk) // 2] if len(walk) > 1 else walk[-1]
        cooling = p.dash_cooldown  # still cooling down: steer the aim's way (if sideways) until it is over
        stops = (cooling + n, cooling + n + after)
        lanes = []
        for a in self.dash_aims:
            side = "right" if "right" in a else "left" if "left" in a else "-"
            plan = ([(side, cooling)] if cooling else []) + [(f"{a}+dash", 1)] + ([(a, n - 1 + after)] if n + after > 1
                                                                               else [])
            lanes.append((plan, stops, True))
        return lanes

    def _near_wall(self, p) -> bool:
        """Something that may be a wall within the wall jump's reach of either side of the box: a solid or
        slope tile, the map's side, a solid platform (a superset of the controller's walls: a lane it offers
        in vain is only a wasted press)."""
        grid = self.session.world.grid
        ts, reach = grid.tile_size, self.wall_reach
        x0, x1 = p.x - reach, p.x + p.w + reach
        edges = grid.edges
        if (edges.left and x0 < 0.0) or (edges.right and x1 > grid.width):
            return True
        kinds = grid.kinds
        r0, r1 = max(0, int(p.y // ts)), min(grid.rows - 1, int((p.y + p.h - 1e-9) // ts))
        for c in {int(x0 // ts), int((x1 - 1e-9) // ts)}:
            if 0 <= c < grid.cols:
                for r in range(r0, r1 + 1):
                    if kinds[r, c] == TileKind.SOLID or kinds[r, c] == TileKind.SLOPE:
                        return True
        for m in self.session.world.platforms:
            if not m.one_way and m.x < x1 and x0 < m.x + m.w and m.y < p.y + p.h and p.y < m.y + m.h:
                return True
        return False

    def _expand(self, node: _Node) -> None:
        """Play every macro from ``node``; each new state met at a stop, a landing, a take-off or a coin
        becomes a child (a coin or the goal is recorded even in a known state)."""
        s = self.session
        self.expanded += 1
        s.restore(node.snap)
        walls = self.wall_jump
        for segments, stops, jumping in self._lanes():
            s.restore(node.snap)
            plan = [word for word, count in segments for _ in range(count)]
            waiting = len(plan) > stops[-1]  # a wait: every step may end it
            deaths, grounded, taken = s.deaths, s.player.on_ground, len(s.collected)
            near = walls and not grounded and self._near_wall(s.player)
            parent, word, run = node, None, 0  # the route so far: parent + `run` steps of `word`
            for done, w in enumerate(plan, 1):
                s.step(_BUTTONS[w])
                self.simulated += 1
                if w != word and run:  # the buttons change inside a macro: close the run
                    parent = _Node(parent, word, run, parent.steps + run, None, 0.0, 0.0)
                    run = 0
                word, run = w, run + 1
                if s.deaths != deaths:
                    break  # a branch that dies is no route
                p = s.player
                turned = p.on_ground != grounded and not (jumping and done <= stops[0])  # landed or left
                grounded = p.on_ground
                if walls:  # in the air, come within reach of a wall: decide there (slide, kick off)
                    was_near, near = near, not grounded and self._near_wall(p)
                    turned = turned or (near and not was_near and not (jumping and done <= stops[0]))
                coin = len(s.collected) > taken
                box = self.waypoint
                touch = box is not None and p.x < box[0] + box[2] and box[0] < p.x + p.w and \
                    p.y < box[1] + box[3] and box[1] < p.y + p.h and (p.on_ground or not self.standing)
                if not (done in stops or turned or coin or touch or s.completed or (waiting and done > stops[-1])):
                    continue
                parent = child = _Node(parent, word, run, parent.steps + run, None, *self._aim(p))
                child.grounded = p.on_ground
                child.rank = self._rank()
                if not p.on_ground and child.cy == p.y + p.h / 2:
                    child.penalty = PIT_PENALTY
                run = 0
                if coin:
                    taken = len(s.collected)
                    for cid in s.collected:
                        self.coin_nodes.setdefault(cid, child)
                if s.completed:
                    self.goal_node = self.goal_node or child
                    break
                if touch:
                    child.snap = s.snapshot()
                    self.touched.append(child)
                    break
                key = self._key()
                if key in self.seen:
                    if (coin and not (done in stops or turned)) or (waiting and not turned):
                        continue  # only a coin, or still waiting for a platform: the macro goes on
                    break  # a known place: its own search covers what follows
                self.seen.add(key)
                self.states += 1
                child.snap = s.snapshot()
                self._push(child)
                if turned or (waiting and done > stops[-1]):
                    break  # decide again where the ground changed, or the wait paid off
        node.snap = None  # searched: free the snapshot (the route is kept through the parents)

    # -- running ------------------------------------------------------------------------------------------
    def run(self, done, deadline: float | None, max_states: int | None) -> str:
        """Expand states until ``done()``; returns "done", "budget" or "exhausted" (or raises Cancelled)."""
        stop, count = self.stop, 0
        while True:
            count += 1
            if stop is not None and count % STOP_EVERY == 0 and stop():
                raise Cancelled
            if done():
                return "done"
            if not self.open:
                return "exhausted"
            if (deadline is not None and time.perf_counter() >= deadline) or \
                    (max_states is not None and self.states >= max_states):
                return "budget"
            node = heapq.heappop(self.open)[-1]
            self._expand(node)


class _Mover:
    """A moving platform as the search sees it: near the player (within ``reach`` px, a jump plus the
    platform's own travel during one), its phase is part of the key."""

    __slots__ = ("body", "reach", "legs", "period")

    def __init__(self, body, reach: float, hz: int):
        self.body, self.reach = body, reach
        pts = body.path.points
        loop = body.path.mode == "loop"
        centres = [(x + body.w / 2, y + body.h / 2) for x, y in pts + (pts[:1] if loop else [])]
        self.legs = list(itertools.pairwise(centres))  # the path of the platform's centre
        length = sum(math.dist(a, b) for a, b in self.legs)
        seconds = (length if loop else 2 * length) / body.path.speed + (1 if loop else 2) * body.path.wait
        self.period = math.ceil(seconds * hz)

    def near(self, cx: float, cy: float) -> bool:
        b, r = self.body, self.reach
        return abs(b.x + b.w / 2 - cx) < r + b.w / 2 and abs(b.y + b.h / 2 - cy) < r + b.h / 2

    def path_near(self, cx: float, cy: float) -> bool:
        """Whether the platform comes near (see :meth:`near`) somewhere along its path."""
        b, r = self.body, self.reach
        for (x0, y0), (x1, y1) in self.legs:
            # the leg's point closest to the player, measured like near(): per axis, box half-size added
            dx, dy = x1 - x0, y1 - y0
            t = ((cx - x0) * dx + (cy - y0) * dy) / (dx * dx + dy * dy) if dx or dy else 0.0
            t = min(max(t, 0.0), 1.0)
            if abs(x0 + t * dx - cx) < r + b.w / 2 and abs(y0 + t * dy - cy) < r + b.h / 2:
                return True
        return False

    def phase(self, i: int, cx: float, cy: float) -> tuple:
        """Where the platform is and which way it goes: finely when it is close to the player."""
        b = self.body
        gap = max(abs(b.x + b.w / 2 - cx) - b.w / 2, abs(b.y + b.h / 2 - cy) - b.h / 2)
        grain = MOVER_GRAIN[0] if gap < CLOSE else MOVER_GRAIN[1]
        return i, int(b.x // grain), int(b.y // grain), (b.vx > 0) - (b.vx < 0), (b.vy > 0) - (b.vy < 0)


def _floor_below(grid) -> list[list[int]]:
    """``[row][col]``: the first row at or below ``row`` whose tile is not empty (``rows`` if none)."""
    kinds = np.asarray(grid.kinds)
    out = np.full(kinds.shape, grid.rows, dtype=np.int64)
    nxt = np.full(grid.cols, grid.rows, dtype=np.int64)
    for r in range(grid.rows - 1, -1, -1):
        nxt = np.where(kinds[r] != TileKind.EMPTY, r, nxt)
        out[r] = nxt
    return out.tolist()


def _coin_box(area) -> tuple[float, float, float, float]:
    if area.w <= 0 or area.h <= 0:
        half = COIN_POINT_SIZE / 2.0
        return area.x - half, area.y - half, COIN_POINT_SIZE, COIN_POINT_SIZE
    return area.x, area.y, area.w, area.h


class Replay(NamedTuple):
    """What one known route does under a feel (see :func:`replay_route`)."""

    completed: bool
    route: tuple  # Buttons per step, up to the goal step when completed
    deaths: int
    seed: object  # (_Node with snapshot) the last standing state after the furthest checkpoint, or None
    steps: int  # session steps played
    collected: frozenset = frozenset()  # coin ids the route touched
    coins: int = 0  # coins the route collects (coin objects and breakable blocks)


def replay_route(level: LevelData, feel: FeelConfig, buttons, session: Session | None = None, *,
                 stop=None) -> Replay:
    """Play ``buttons`` once from the start. Completed: its route up to the goal step. Not completed: the seed
    for a repair -- the last step, before the first death, where the player stood after reaching the
    furthest checkpoint it reached (None if it reached none). ``stop``: as a Search's (raises Cancelled)."""
    s = session or Session(level, feel)
    played: list[Buttons] = []
    seed_at = None  # the step of the seed (after it)
    base = None  # (step, snapshot) where the player first stood after the last checkpoint reached
    cp = None
    for b in buttons:
        if stop is not None and len(played) % STOP_STEPS == 0 and stop():
            raise Cancelled
        s.step(b)
        played.append(b)
        if s.completed:
            return Replay(True, tuple(played), s.deaths, None, len(played), frozenset(s.collected), s.coins)
        if s.deaths:
            break
        if s.checkpoint is not None and s.player.on_ground:
            if s.checkpoint is not cp:  # one snapshot per checkpoint; the seed's is taken again from it below
                cp = s.checkpoint
                base = (len(played), s.snapshot())
            seed_at = len(played)
    seed, deaths = None, s.deaths
    if seed_at is not None:
        n = seed_at
        p = s.player
        x, y = p.x + p.w / 2, p.y + p.h / 2  # (where the replay ended, as before: the seed's rank reads it)
        s.restore(base[1])  # replay from the checkpoint's snapshot to the seed's step: the same state
        for b in played[base[0]:n]:
            s.step(b)
        snap = s.snapshot()
        seed = _Node(None, None, 0, n, snap, x, y)
        seed.prefix = tuple(played[:n])
        seed.grounded = True
    return Replay(False, (), deaths, seed, len(played))


def find_routes(level: LevelData, feel: FeelConfig | None = None, *, max_states: int | None = DEFAULT_STATES,
                seconds: float | None = SAFETY_SECONDS, coins: bool = False, grains: tuple[float, ...] = GRAINS,
                known=(), stop=None) -> RouteReport:
    """Search ``level`` under ``feel`` for a route to the goal (then, with ``coins``, to every coin not touched
    on the way).

    ``known``: ``(name, buttons)`` routes tried first, each replayed once; the first that completes the
    level gives the verdict ("known NAME"). Of those that fail, the one whose seed (see :func:`replay_route`)
    is nearest the goal seeds a search with half the budget ("repaired NAME") before the search from the
    start. ``max_states`` bounds the searches (goal first; the coins get what is left); ``seconds`` is a
    safety cap only (stopped by it: "unknown", ``capped``). A search from the start that explores every state
    it can reach without finding the goal is repeated with a finer key (``grains``, px) while the budget
    lasts, so "impossible" is not an artefact of the coarse key. ``stop``: a callable polled every few states
    and steps; when it returns true the search raises :class:`Cancelled` (no verdict: the F2 strip's check of
    a feel already replaced).
    """
    feel = level_feel(level, feel)  # the moves the level grants are in the move set (and the verdict)
    t0 = time.perf_counter()
    deadline = None if seconds is None else t0 + seconds
    session = None
    simulated = 0
    seeds: list[tuple[str, _Node]] = []
    for name, buttons in known:
        session = Session(level, feel)  # a fresh one each: a route that completes is verified by it
        rep = replay_route(level, feel, buttons, session, stop=stop)
        simulated += rep.steps
        if rep.completed:
            report = _known_report(level, rep, f"known {name}", simulated, t0, max_states)
            if coins:
                return _with_coins(report, level, feel, max_states, deadline, grains, t0)
            return report
        if rep.seed is not None:
            seeds.append((name, rep.seed))

    passes: list[Search] = []
    states = lambda: sum(x.states for x in passes)  # noqa: E731
    outcome, source, search = "budget", "search", None
    if seeds:
        probe = Search(level, feel)  # for the ranks and the field only
        name, seed = min(seeds, key=lambda ns: (probe_rank(probe, ns[1]), -ns[1].steps))
        search = Search(level, feel, start=seed, session=seed.snap.session)
        search.stop = stop
        passes.append(search)
        half = None if max_states is None else max(1, max_states // 2)
        outcome = search.run(lambda: search.goal_node is not None, deadline, half)
        simulated += search.simulated
        if outcome == "done":
            source = f"repaired {name}"
    if outcome != "done":
        for cell in grains:
            session = Session(level, feel)
            search = Search(level, feel, cell=cell, session=session)
            search.stop = stop
            passes.append(search)
            left = None if max_states is None else max(0, max_states - states() + search.states)
            outcome = search.run(lambda s=search: s.goal_node is not None, deadline, left)
            simulated += search.simulated
            if outcome != "exhausted":
                break
    goal_at = (time.perf_counter() - t0, states()) if outcome == "done" else (None, None)
    coin_nodes: dict[int, _Node] = {}
    for x in passes:
        for cid, node in x.coin_nodes.items():
            coin_nodes.setdefault(cid, node)
    if coins and outcome == "done":
        while len(coin_nodes) < len(search.coin_boxes):
            missing = [c for c in search.coin_boxes if c not in coin_nodes]
            search.retarget([search.coin_boxes[c] for c in missing])
            left = None if max_states is None else max(0, max_states - states() + search.states)
            before = search.simulated
            coin_outcome = search.run(lambda m=missing: any(c in search.coin_nodes for c in m), deadline, left)
            simulated += search.simulated - before
            for cid, node in search.coin_nodes.items():
                coin_nodes.setdefault(cid, node)
            if coin_outcome != "done":
                break
    finished = search.goal_node is not None
    capped = outcome == "budget" and deadline is not None and time.perf_counter() >= deadline
    verdict = "finished" if finished else "impossible" if outcome == "exhausted" else "unknown"
    stuck = None
    if not finished:
        best = min((x.best for x in passes if x.best is not None), key=lambda b: b[0], default=None)
        if best is not None:
            stuck = _stuck(level, feel, best[1].route())
    missed = tuple((round(b[0] + b[2] / 2, 1), round(b[1] + b[3] / 2, 1))
                   for cid, b in search.coin_boxes.items() if cid not in coin_nodes)
    return RouteReport(
        level=level.name, outcome=verdict, route=search.goal_node.route() if finished else (),
        coins_total=len(search.coin_boxes), coins_reached=tuple(sorted(coin_nodes)), coins_missed=missed,
        stuck=stuck, states=states(), expanded=sum(x.expanded for x in passes),
        seconds=time.perf_counter() - t0, goal_seconds=goal_at[0], goal_states=goal_at[1],
        exhausted=not search.open, grain=search.cell,
        coin_routes={cid: n.route() for cid, n in coin_nodes.items()}, steps=simulated, source=source,
        capped=capped, budget=max_states, stood=frozenset().union(*(x.stood for x in passes)))


def probe_rank(search: Search, node: _Node) -> tuple:
    """How far along a seed is: its checkpoint's rank, then its distance to the goal."""
    cp = node.snap.checkpoint if hasattr(node.snap, "checkpoint") else None
    cp = node.snap.values[Session.STATE_COPIED.index("checkpoint")] if cp is None else cp
    rank = search.no_rank if cp is None else search.ranks.get(cp.id, search.no_rank)
    return rank, search._h(search._goal_field, node.cx, node.cy)


def _known_report(level, rep: Replay, source, simulated, t0, max_states) -> RouteReport:
    """A known route completed the level (its replay, from a fresh session, is the verification)."""
    reached = tuple(sorted({c.id for c in level.coins} & rep.collected))
    missed = tuple((round(x + w / 2, 1), round(y + h / 2, 1))
                   for cid, (x, y, w, h) in ((c.id, _coin_box(c)) for c in level.coins) if cid not in rep.collected)
    seconds = time.perf_counter() - t0
    return RouteReport(level=level.name, outcome="finished", route=rep.route, coins_total=len(level.coins),
                       coins_reached=reached, coins_missed=missed, stuck=None, states=0, expanded=0,
                       seconds=seconds, goal_seconds=seconds, goal_states=0, exhausted=False, grain=GRAINS[0],
                       coin_routes={}, steps=simulated, source=source, budget=max_states, route_coins=rep.coins)


def _with_coins(report, level, feel, max_states, deadline, grains, t0) -> RouteReport:
    """A known route finished the level: search for the coins from the start with the budget."""
    search = Search(level, feel, cell=grains[0])
    coin_nodes: dict[int, _Node] = {}
    reached = set(report.coins_reached)
    while True:
        missing = [c for c in search.coin_boxes if c not in coin_nodes and c not in reached]
        if not missing:
            break
        search.retarget([search.coin_boxes[c] for c in missing])
        if search.run(lambda m=missing: any(c in search.coin_nodes for c in m), deadline, max_states) != "done":
            for cid, node in search.coin_nodes.items():
                coin_nodes.setdefault(cid, node)
            break
        for cid, node in search.coin_nodes.items():
            coin_nodes.setdefault(cid, node)
    all_reached = reached | set(coin_nodes)
    boxes = search.coin_boxes
    missed = tuple((round(b[0] + b[2] / 2, 1), round(b[1] + b[3] / 2, 1))
                   for cid, b in boxes.items() if cid not in all_reached)
    return replace(report, coins_reached=tuple(sorted(all_reached)), coins_missed=missed, states=search.states,
                   expanded=search.expanded, seconds=time.perf_counter() - t0, steps=report.steps + search.simulated,
                   coin_routes={cid: n.route() for cid, n in coin_nodes.items()})


def find_tour(level: LevelData, feel: FeelConfig | None = None,
              waypoints: list[tuple[float, float, float, float]] = (), *, seconds: float | None = 60.0,
              tries: int = 3) -> tuple | None:
    """A route that touches each waypoint box (x, y, w, h) in order, then reaches the goal: Buttons per step,
    or None. Each leg searches from a state that touched the last waypoint; when a leg finds nothing (a
    waypoint touched in mid-air can be a trap), up to ``tries`` other states that touched it are tried."""
    deadline = None if seconds is None else time.perf_counter() + seconds
    feel = level_feel(level, feel)
    session = Session(level, feel)

    def leg(start: _Node | None, i: int) -> _Node | None:
        search = Search(level, feel, start=start, session=session)
        if i == len(waypoints):
            search.run(lambda: search.goal_node is not None, deadline, None)
            return search.goal_node
        search.aim(waypoints[i])
        for k in range(tries):
            if search.run(lambda k=k: len(search.touched) > k, deadline, None) != "done":
                return None
            end = leg(search.touched[k], i + 1)
            if end is not None:
                return end
        return None

    end = leg(None, 0)
    return None if end is None else end.route()


def _stuck(level: LevelData, feel: FeelConfig, route: tuple) -> Stuck:
    """Where ``route`` leaves the player (replayed from a fresh start)."""
    replay = Session(level, feel)
    for b in route:
        replay.step(b)
    p = replay.player
    ts = level.tile_size
    return Stuck(p.x, p.y, int((p.x + p.w / 2) // ts), int((p.y + p.h - 1e-6) // ts), len(route), route)
