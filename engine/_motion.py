"""Moving a box through the tiles and platforms: the Y pass, the X pass, slopes, ground snapping.

Small functions over plain numbers and the grid's flat lists, so a batched (numpy) mover can mirror
them. Invariants kept here:
- a box never ends a move strictly overlapping a SOLID tile or a solid platform;
- moves scan every tile between start and end, so nothing tunnels at any speed;
- touching is not overlapping: boxes are placed *on* edges with ``place_before``.

Slopes: the surface under the box's bottom-centre is what an actor stands on (its corners may dip into
the slope tile). Where the centre is not over a slope, a neighbouring slope tile supports the box at the
slope's edge nearest the centre, like a ledge.
"""

from __future__ import annotations

import math

from .bodies import Contact, Ground
from .geometry import place_before
from .tiles import ONE_WAY, SLOPE, SOLID

EPS = 1e-6  # px: "at" a surface (float slack for touching tests)
INF = math.inf
_floor, _ceil = math.floor, math.ceil

# Ranks for supports at the same height: what you "stand on" when several things touch the feet.
_RANK = {"solid": 0, "slope": 1, "platform": 2, "one_way": 3}


def _slope_height(grid, i: int, u: float) -> float:
    """Surface height (px above the tile bottom) of slope tile ``i`` at local x ``u``."""
    ts = grid.tile_size
    left = grid._sl[i]
    return left + (grid._sr[i] - left) * (u / ts)


def find_support(grid, platforms, skip, x: float, w: float, feet_from: float, feet_to: float,
                 drop: bool):
    """The highest surface under the box whose y lies in ``[feet_from - EPS, feet_to]``.

    Returns ``(y, Ground)`` or ``None``. ``drop`` ignores one-way tiles and one-way platforms.
    ``skip`` is a platform to ignore (the one being moved).
    """
    ts, cols, rows, k = grid.tile_size, grid.cols, grid.rows, grid._k
    lo = feet_from - EPS
    best = INF
    best_kind = ""
    best_plat = None
    all_one_way = True

    def offer(y, kind, plat, one_way):
        nonlocal best, best_kind, best_plat, all_one_way
        if y < best - EPS:
            best, best_kind, best_plat, all_one_way = y, kind, plat, one_way
        elif y <= best + EPS:
            if _RANK[kind] < _RANK[best_kind]:
                best_kind, best_plat = kind, plat
            all_one_way = all_one_way and one_way
            best = min(best, y)

    c0 = max(0, _floor(x / ts))
    c1 = min(cols - 1, _ceil((x + w) / ts) - 1)
    cx = x + w * 0.5
    cc = _floor(cx / ts)
    if c0 <= c1:
        # Flat tops of solid and one-way tiles under any part of the box.
        r0 = max(0, _ceil(lo / ts))
        r1 = min(rows - 1, _floor(feet_to / ts))
        for r in range(r0, r1 + 1):
            top = r * ts
            if top > best + EPS:
                break
            base = r * cols
            for c in range(c0, c1 + 1):
                kind = k[base + c]
                if kind == SOLID:
                    offer(top, "solid", None, False)
                elif kind == ONE_WAY and not drop:
                    offer(top, "one_way", None, True)
        # Slope surfaces: the centre column, or a neighbour's edge nearest the centre.
        r0 = max(0, _floor(lo / ts) - 1)
        for r in range(r0, r1 + 1):
            base = r * cols
            bottom = (r + 1) * ts
            centre_is_slope = 0 <= cc < cols and k[base + cc] == SLOPE
            for c in range(c0, c1 + 1):
                i = base + c
                if k[i] != SLOPE:
                    continue
                if c == cc:
                    y = bottom - _slope_height(grid, i, cx - c * ts)
                elif centre_is_slope:
                    continue
                elif c > cc:
                    y = bottom - grid._sl[i]
                else:
                    y = bottom - grid._sr[i]
                if lo <= y <= feet_to:
                    offer(y, "slope", None, False)
    for p in platforms:
        if p is skip or (drop and p.one_way):
            continue
        if p.x < x + w and x < p.x + p.w and lo <= p.y <= feet_to:
            offer(p.y, "platform", p, p.one_way)
    if best == INF:
        return None
    return best, Ground(best_kind, best_plat, all_one_way)


def find_ceiling(grid, platforms, skip, x: float, w: float, head_from: float, head_to: float) -> float:
    """The lowest ceiling (a tile or solid platform bottom) crossed moving the head from ``head_from`` up
    to ``head_to``; ``-inf`` if none. Slope tiles are flat ceilings."""
    ts, cols, rows, k = grid.tile_size, grid.cols, grid.rows, grid._k
    c0 = max(0, _floor(x / ts))
    c1 = min(cols - 1, _ceil((x + w) / ts) - 1)
    found = -INF
    r_hi = min(rows - 1, _floor((head_from + EPS) / ts) - 1)
    r_lo = max(0, _floor(head_to / ts))
    for r in range(r_hi, r_lo - 1, -1):
        bottom = (r + 1) * ts
        if bottom <= head_to:
            break
        base = r * cols
        for c in range(c0, c1 + 1):
            kind = k[base + c]
            if kind == SOLID or kind == SLOPE:
                found = bottom
                break
        if found > -INF:
            break
    for p in platforms:
        if p is skip or p.one_way:
            continue
        pb = p.y + p.h
        if p.x < x + w and x < p.x + p.w and head_to < pb <= head_from + EPS and pb > found:
            found = pb
    return found


def move_y(grid, platforms, a, dy: float, drop: bool, skip=None):
    """Vertical pass. Returns a Contact (floor: normal (0,-1); ceiling: (0,1)) or None.

    Down: lands on the highest support crossed. Up: stops under the lowest ceiling crossed; one-way
    tiles and platforms never block upward motion.
    """
    if dy > 0.0:
        feet = a.y + a.h
        sup = find_support(grid, platforms, skip, a.x, a.w, feet, feet + dy, drop)
        if sup is not None:
            a.y = place_before(sup[0], a.h)
            a.ground = sup[1]
            return Contact((0, -1), sup[1].kind, sup[1].platform)
        a.y += dy
        return None
    if dy < 0.0:
        ceiling = find_ceiling(grid, platforms, skip, a.x, a.w, a.y, a.y + dy)
        if ceiling > -INF:
            a.y = ceiling
            return Contact((0, 1), "solid", None)
        a.y += dy
    return None


def _x_blocked_at_column(grid, c: int, y0: float, y1: float, moving_right: bool):
    """Does column ``c`` block a box spanning (y0, y1) entering it sideways?

    Returns ``(blocked, step_row)``: ``step_row`` is the row of a solid tile the box may step up onto
    (a solid continuing a slope's top), or -1.
    """
    ts, cols, rows, k = grid.tile_size, grid.cols, grid.rows, grid._k
    r0 = max(0, _floor(y0 / ts))
    r1 = min(rows - 1, _ceil(y1 / ts) - 1)
    walls = grid._wall_l if moving_right else grid._wall_r
    ramps = grid._ramp_l if moving_right else grid._ramp_r
    step_row = -1
    for r in range(r0, r1 + 1):
        i = r * cols + c
        kind = k[i]
        if kind == SOLID:
            if step_row == -1 and ramps[i] and r * ts > y0:
                step_row = r
                continue
            return True, -1
        if kind == SLOPE:
            bottom = (r + 1) * ts
            if y1 > bottom + EPS:
                # The box reaches below the slope tile: its flat bottom and sides are solid, unless it
                # continues the slope we are walking up (a filled ramp or a bare diagonal of slopes).
                if not _continues_ramp(grid, i, r, c, moving_right):
                    return True, -1
                continue
            wall = walls[i]
            if wall is not None and bottom - wall[1] < y1 and y0 < bottom - wall[0]:
                return True, -1
    return (step_row != -1), step_row


def _continues_ramp(grid, i: int, r: int, c: int, moving_right: bool) -> bool:
    """Is slope tile ``i`` (row r, col c) the next tile of a ramp climbed from the row below?

    Either the solid under it is a step continuing a slope (a filled ramp), or it starts at its bottom on
    the side we enter and the slope diagonally below-behind ends at its top there (a bare diagonal).
    """
    ts, cols, k = grid.tile_size, grid.cols, grid._k
    if r + 1 >= grid.rows:
        return False
    below = i + cols
    if k[below] == SOLID and (grid._ramp_l if moving_right else grid._ramp_r)[below]:
        return True
    if k[below] in (SOLID, SLOPE):  # something under it that the actor would walk on instead
        return False
    if moving_right:
        return c > 0 and grid._sl[i] == 0.0 and k[below - 1] == SLOPE and grid._sr[below - 1] >= ts
    return c < cols - 1 and grid._sr[i] == 0.0 and k[below + 1] == SLOPE and grid._sl[below + 1] >= ts


def move_x(grid, platforms, a, dx: float, can_step: bool, skip=None):
    """Horizontal pass. Returns a Contact (wall) or None.

    Solid tiles and the vertical faces of slopes block; slope tiles are otherwise passed through (the
    caller lifts the actor onto the surface). ``can_step`` lets a grounded actor step up onto a solid
    tile that continues a slope's top (at most half its width: the rise of a 45° slope).
    """
    if dx == 0.0:
        return None
    ts, cols = grid.tile_size, grid.cols
    right = dx > 0.0
    if right:
        lead0 = a.x + a.w
        lead1 = lead0 + dx
        cs = max(0, _ceil((lead0 - EPS) / ts))
        ce = min(cols - 1, _ceil(lead1 / ts) - 1)
        cols_range = range(cs, ce + 1)
    else:
        lead0 = a.x
        lead1 = lead0 + dx
        cs = min(cols - 1, _floor((lead0 + EPS) / ts) - 1)
        ce = max(0, _floor(lead1 / ts))
        cols_range = range(cs, ce - 1, -1)
    stop = None  # the x the leading edge stops at
    for c in cols_range:
        edge = c * ts if right else (c + 1) * ts
        while True:
            blocked, step_row = _x_blocked_at_column(grid, c, a.y, a.y + a.h, right)
            if not blocked:
                break
            if step_row >= 0 and can_step:
                top = step_row * ts
                rise = a.y + a.h - top
                new_y = place_before(top, a.h)
                if rise <= a.w * 0.5 + abs(dx) + EPS and not grid.solid_overlaps(a.x, new_y, a.w, a.h) \
                        and find_ceiling(grid, platforms, skip, a.x, a.w, a.y, new_y) == -INF:
                    a.y = new_y
                    continue
            stop = edge
            break
        if stop is not None:
            break
    kind = "solid"
    other = None
    for p in platforms:
        if p is skip or p.one_way:
            continue
        if not (p.y < a.y + a.h and a.y < p.y + p.h):
            continue
        if right:
            if lead0 - EPS <= p.x < lead1 and (stop is None or p.x < stop):
                stop, kind, other = p.x, "platform", p
        else:
            pr = p.x + p.w
            if lead1 < pr <= lead0 + EPS and (stop is None or pr > stop):
                stop, kind, other = pr, "platform", p
    if stop is None:
        a.x += dx
        return None
    if right:
        a.x = place_before(stop, a.w)
        return Contact((-1, 0), kind, other)
    a.x = stop
    return Contact((1, 0), kind, other)


def slope_lift(grid, a) -> float:
    """How far the box's bottom-centre is below a slope surface (0 if not)."""
    ts, cols = grid.tile_size, grid.cols
    cx = a.x + a.w * 0.5
    cc = _floor(cx / ts)
    feet = a.y + a.h
    r = _floor((feet - EPS) / ts)
    if not (0 <= cc < cols and 0 <= r < grid.rows):
        return 0.0
    i = r * cols + cc
    kind = grid._k[i]
    if kind != SLOPE:
        # Climbing a bare diagonal of slopes, the centre can cross into a column whose slope starts
        # in the row above the feet: that surface counts too.
        if kind == SOLID or r == 0:
            return 0.0
        r -= 1
        i -= cols
        if grid._k[i] != SLOPE:
            return 0.0
    surface = (r + 1) * ts - _slope_height(grid, i, cx - cc * ts)
    return feet - surface if feet > surface else 0.0


def follow_slope(grid, platforms, a, moved: float, skip=None) -> bool:
    """After a horizontal move, lift the bottom-centre onto a slope surface it went under.

    A rise of at most ``|moved|`` (45°) is a slope; more is a wall: returns False and the caller undoes
    the move. Returns True when nothing needed lifting or the lift worked.
    """
    rise = slope_lift(grid, a)
    if rise <= 0.0:
        return True
    if rise > abs(moved) + 1e-3:
        return False
    new_y = place_before(a.y + a.h - rise, a.h)
    if grid.solid_overlaps(a.x, new_y, a.w, a.h) or \
            find_ceiling(grid, platforms, skip, a.x, a.w, a.y, new_y) > -INF:
        return False
    a.y = new_y
    return True


def overlaps_solid_platform(platforms, x: float, y: float, w: float, h: float) -> bool:
    """Does the box strictly overlap a solid (not one-way) platform?"""
    for p in platforms:
        if not p.one_way and p.x < x + w and x < p.x + p.w and p.y < y + h and y < p.y + p.h:
            return True
    return False


def move(grid, platforms, a, dx: float, dy: float, drop: bool):
    """One step of motion for any actor: the Y pass, then the X pass with slope following.

    Records ``a.contacts`` and stops the velocity on each axis that hit something. A move that would
    put the bottom-centre under a slope by more than 45° is undone (a slope face is a wall).
    Returns ``(y_contact or None, x_before)``.
    """
    a.contacts = []
    hit_y = move_y(grid, platforms, a, dy, drop)
    if hit_y is not None:
        a.contacts.append(hit_y)
        a.vy = 0.0
    x_before, y_before = a.x, a.y
    hit_x = move_x(grid, platforms, a, dx, can_step=hit_y is not None and hit_y.normal[1] < 0)
    if not follow_slope(grid, platforms, a, a.x - x_before):
        a.x, a.y = x_before, y_before
        hit_x = hit_x or Contact((-1 if dx > 0 else 1, 0), "slope", None)
    if hit_x is not None:
        a.contacts.append(hit_x)
        a.vx = 0.0
    return hit_y, x_before
