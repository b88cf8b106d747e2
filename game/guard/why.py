"""Why a level is not finished: the nearest surface the search never stood on, and what the feel lacks to get there.

    why = explain(level, feel, report)     # report: an "impossible" or "unknown" RouteReport
    why.text   # "the jump from tile 17,13 to 19,12 needs 48 px of height; this feel reaches 40 px"
    why.kind   # "height", "gap", "wall" or "reachable" (the arcs allow it: something else stops the way)

A **surface** is a run of tiles in one row where a player can stand (an empty or one-way tile above solid ground,
a one-way tile or a slope), named by the tiles the player's feet are in. The search records the feet tiles of
every standing state it found (``RouteReport.stood``); the surfaces they touch are *reached*. The *candidates*
are the unreached surfaces nearer the goal (by the search's distance field) than every reached one. Of all
(reached, candidate) pairs, closest first in px (gap, then rise), the first the feel's derived arcs allow is
named ("reachable": the arcs are not what stops the way, though a closer jump may be out of reach); when they
allow none, the closest pair is the obstacle, and the arcs say what it takes:

- **height**: the feet must rise ``(from row - to row) x tile`` px (or over a wall between the two); a held jump
  from flat ground rises ``jump.height`` px;
- **gap**: ``N`` empty columns between the two edges: the player box must travel ``N x tile - box width`` px in
  the air before it comes down to the far surface's height; a held jump at full run stays in the air
  ``time_to_apex + sqrt(2 (height - rise) / fall gravity)`` s, so it needs ``travel / that`` px/s of run speed
  (coyote time and air acceleration not counted: a little in the feel's favour is left out, never added);
- **wall**: solid tiles between the two surfaces up to the top of the map: no jump passes;
- **reachable**: both within the arcs: hazards, enemies, a lift's timing or the search's own moves (and, for
  "unknown", its budget) are what stops the way.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from engine import FeelConfig, TileKind

from game.files.levelfile import LevelData
from game.rules.moves import level_feel
from .route import distance_field, support_map

__all__ = ["Why", "Surface", "explain", "surfaces", "flight_time"]


class Surface(NamedTuple):
    """Standing room: feet tiles ``col0..col1`` (inclusive) in ``row``."""

    row: int
    col0: int
    col1: int


class Why(NamedTuple):
    kind: str  # "height", "gap", "wall" or "reachable"
    text: str  # one line for a designer
    src: tuple  # (col, row) the feet tile the jump starts from (the reached surface's edge)
    dst: tuple  # (col, row) the feet tile it has to reach (the unreached surface's edge)
    need: float  # what the map asks (px of height, px/s of run speed); 0 for a wall or "reachable"
    have: float  # what the feel gives, in the same unit
    unit: str  # "px", "px/s" or ""
    gap: int = 0  # empty columns between the two surfaces

    def as_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text, "from": {"col": self.src[0], "row": self.src[1]},
                "to": {"col": self.dst[0], "row": self.dst[1]}, "need": round(self.need, 1),
                "have": round(self.have, 1), "unit": self.unit, "gap_tiles": self.gap}


def surfaces(level: LevelData) -> list[Surface]:
    """Every run of standing room in the map, row by row."""
    kinds = np.asarray(level.grid.kinds)
    rows, cols = kinds.shape
    solid = kinds == TileKind.SOLID
    below = np.zeros_like(solid)
    below[:-1] = kinds[1:] != TileKind.EMPTY  # ground of any kind under the feet tile
    stand = (~solid) & (below | (kinds == TileKind.ONE_WAY) | (kinds == TileKind.SLOPE))
    out = []
    for r in range(rows):
        c = 0
        while c < cols:
            if stand[r, c]:
                c0 = c
                while c + 1 < cols and stand[r, c + 1]:
                    c += 1
                out.append(Surface(r, c0, c))
            c += 1
    return out


def flight_time(feel: FeelConfig, rise: float) -> float | None:
    """Seconds a held jump from flat ground stays at or above ``rise`` px (negative: below the take-off height);
    None when it never gets that high. The fall from the apex is at fall gravity, up to the fall's top speed."""
    height = feel.jump.height
    if rise > height + 1e-9:
        return None
    g, cap = feel.derived.fall_gravity, feel.fall.max_speed
    drop = height - rise  # px from the apex down to the surface
    reach_cap = cap * cap / (2.0 * g)  # px fallen when the top speed is reached
    down = math.sqrt(2.0 * drop / g) if drop <= reach_cap else cap / g + (drop - reach_cap) / cap
    return feel.jump.time_to_apex + down


def explain(level: LevelData, feel: FeelConfig, report) -> Why | None:
    """The obstacle between where the search stood and the goal (None: no surface nearer the goal is
    unreached, e.g. the goal itself floats in the air)."""
    feel = level_feel(level, feel)  # what the feel lacks is judged with the level's moves on
    if not level.goals:
        return None
    ts = level.tile_size
    kinds = np.asarray(level.grid.kinds)
    solid = kinds == TileKind.SOLID
    field = distance_field(level.grid, [(g.x, g.y, g.w, g.h) for g in level.goals],
                           support=support_map(level, feel))
    stood = set(report.stood)
    if report.stuck is not None:
        stood.add((report.stuck.col, report.stuck.row))
    hazard = np.zeros_like(solid)
    for a in level.hazards:
        c0, c1 = max(0, int(a.x // ts)), min(level.cols - 1, int((a.x + a.w - 1e-9) // ts))
        r0, r1 = max(0, int(a.y // ts)), min(level.rows - 1, int((a.y + a.h - 1e-9) // ts))
        hazard[r0:r1 + 1, c0:c1 + 1] = True
    reached, candidates = [], []
    for s in surfaces(level):
        cells = [(c, s.row) for c in range(s.col0, s.col1 + 1)]
        near = min(field[s.row, c] for c, _ in cells)
        if any(cell in stood for cell in cells):
            reached.append((s, near))
        elif math.isfinite(near) and not all(hazard[s.row, c] for c, _ in cells):
            candidates.append((s, near))
    if not reached:
        return None
    best = min(near for _s, near in reached)
    candidates = [(s, near) for s, near in candidates if near < best]
    if not candidates:
        return None
    pairs = []
    for a, _ in reached:
        for b, near in candidates:
            gap, rise, src, dst = _between(a, b, ts)
            pairs.append((math.hypot(gap, max(rise, 0.0)), near, a, b, gap, rise, src, dst))
    pairs.sort(key=lambda p: (p[0], p[1], p[2], p[3]))
    width = report_width(level, feel)
    closest = None
    height = feel.jump.height
    for _d, _near, a, b, gap_px, rise, src, dst in pairs:
        if closest is not None and rise > height + 1e-6:
            continue  # (too high whatever lies between: not the reachable one looked for)
        why = _verdict(level, feel, report, solid, a, b, gap_px, rise, src, dst, width)
        if why.kind == "reachable":
            return why  # a way on toward the goal the arcs allow: they are not what stops the search
        if closest is None:
            closest = why
    return closest


def _between(a: Surface, b: Surface, ts: int) -> tuple[float, float, tuple, tuple]:
    """(gap px between the edges, rise px of the feet, a's edge tile, b's edge tile)."""
    rise = float((a.row - b.row) * ts)
    if b.col0 > a.col1:
        return float((b.col0 - a.col1 - 1) * ts), rise, (a.col1, a.row), (b.col0, b.row)
    if b.col1 < a.col0:
        return float((a.col0 - b.col1 - 1) * ts), rise, (a.col0, a.row), (b.col1, b.row)
    # one above the other: from the end of a nearest b's edge
    col = min(max(b.col0, a.col0), a.col1)
    return 0.0, rise, (col, a.row), (min(max(col, b.col0), b.col1), b.row)


def _verdict(level, feel, report, solid, a, b, gap_px, rise, src, dst, w: float) -> Why:
    ts = level.tile_size
    height = feel.jump.height
    lo, hi = sorted((src[0], dst[0]))
    between = range(lo + 1, hi)
    top_row = min(a.row, b.row)
    # a wall between the two: solid in the band of rows from the higher feet tile down to the lower
    wall_top = None
    for c in between:
        for r in range(top_row, max(a.row, b.row) + 1):
            if solid[r, c]:
                t = r
                while t > 0 and solid[t - 1, c]:
                    t -= 1
                wall_top = t if wall_top is None else min(wall_top, t)
                break
    need_rise = max(rise, 0.0)
    jump = f"the jump from tile {src[0]},{src[1]} to {dst[0]},{dst[1]}"
    # (a search stopped by its budget stood on only part of the map: the shortfall is that of the nearest way
    # on it did not take, which another way round may avoid)
    unsure = "; the budget ran out first, so another way may exist" if report.outcome == "unknown" else ""
    if wall_top is not None:
        if wall_top == 0:
            return Why("wall", f"{jump} is closed by a wall up to the top of the map (columns {lo + 1}-{hi - 1}); "
                               f"no jump passes{unsure}", src, dst, 0.0, 0.0, "", len(between))
        need_rise = max(need_rise, float((a.row + 1 - wall_top) * ts))
    if need_rise > height + 1e-6:
        what = "over the wall between" if wall_top is not None and need_rise > rise else "of height"
        return Why("height", f"{jump} needs {need_rise:.0f} px {what}; this feel reaches {height:.0f} px{unsure}",
                   src, dst, need_rise, height, "px", len(between))
    travel = gap_px - w
    speed = feel.run.max_speed
    if travel > 0 and wall_top is None:
        t = flight_time(feel, need_rise)
        need = travel / t
        if need > speed + 1e-6:
            n = len(between)
            return Why("gap", f"the {n}-tile gap at tile {lo + 1},{a.row} (from tile {src[0]},{src[1]} to "
                              f"{dst[0]},{dst[1]}) needs {need:.0f} px/s of run speed; this feel has {speed:.0f}"
                              f"{unsure}",
                       src, dst, need, speed, "px/s", n)
    after = "the budget ran out before the search found the way" if report.outcome == "unknown" else \
        "hazards, enemies, a lift's timing or the search's moves stop the way"
    return Why("reachable", f"{jump} is within this feel's arcs ({need_rise:.0f} of {height:.0f} px of height, "
                            f"{max(gap_px, 0):.0f} px across at {speed:.0f} px/s); {after}",
               src, dst, need_rise, height, "px", len(between))


def report_width(level, feel) -> float:
    """px, the player box's width (a session knows it)."""
    from game.rules.session import Session

    return float(Session(level, feel).player.w)
