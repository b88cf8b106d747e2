"""Moving a box through the tiles and platforms: the Y pass, the X pass, slopes, ground snapping, and
moving a box found inside solid geometry out to the nearest free spot.

Small functions over plain numbers and the grid's flat lists, so a batched (numpy) mover can mirror
them. Invariants kept here:
- a box never ends a move strictly overlapping a SOLID tile, a solid platform or a wall edge;
- moves scan every tile between start and end, so nothing tunnels at any speed (the bottom-centre is
  swept across slope columns too);
- a pass decides with the box it ends in (``target + size``), so float rounding never leaves a box one
  ulp inside what it was tested against;
- touching is not overlapping: boxes are placed *on* edges with ``place_before``.

Slopes: the surface under the box's bottom-centre is what an actor stands on (its corners may dip into
the slope tile). Only the slope tile holding the bottom-centre counts: a slope in the row above the feet
is a ceiling, never a surface to be lifted onto. Where the centre is not over a slope, a neighbouring
slope tile supports the box at the slope's edge nearest the centre, like a ledge.
"""

from __future__ import annotations

import math
import struct

from .bodies import Contact, Ground
from .geometry import place_before
from .tiles import ONE_WAY, SLOPE, SOLID

EPS = 1e-6  # px: "at" a surface (float slack for touching tests)
INF = math.inf
_floor, _ceil = math.floor, math.ceil
_new = tuple.__new__  # (a record built without its Python-level __new__: the same tuple)

# Supports at the same height rank solid 0, slope 1, platform 2, one-way (tile or platform) 3: what you
# "stand on" when several things touch the feet (see find_support).


def _slope_height(grid, i: int, u: float) -> float:
    """Surface height (px above the tile bottom) of slope tile ``i`` at local x ``u``."""
    ts = grid.tile_size
    left = grid._sl[i]
    return left + (grid._sr[i] - left) * (u / ts)


# -- queries ---------------------------------------------------------------------------------------
def find_support(grid, platforms, skip, x: float, w: float, feet_from: float, feet_to: float,
                 drop: bool):
    """The highest surface under the box whose y lies in ``[feet_from - EPS, feet_to]``.

    Returns ``(y, Ground)`` or ``None``. ``drop`` ignores one-way tiles and one-way platforms.
    ``skip`` is a platform to ignore (the one being moved, or one being dropped through).
    """
    ts, cols, k = grid.tile_size, grid.cols, grid._k
    lo = feet_from - EPS
    found = None  # [(y, rank, kind, platform, one_way)]: every support in range, once there are several
    first = None  # the first support found
    c0 = _floor(x / ts)
    if c0 < 0:
        c0 = 0
    c1 = _ceil((x + w) / ts) - 1
    if c1 >= cols:
        c1 = cols - 1
    if c0 <= c1:
        # Flat tops of solid and one-way tiles under any part of the box: the first row with one wins.
        r1 = _floor(feet_to / ts)
        if r1 >= grid.rows:
            r1 = grid.rows - 1
        r = _ceil(lo / ts)
        if r < 0:
            r = 0
        while r <= r1:
            base = r * cols
            row = k[base + c0:base + c1 + 1]
            if SOLID in row:  # (a solid top outranks a one-way one at the same height)
                first = (r * ts, 0, "solid", None, False)
                break
            if not drop and ONE_WAY in row:
                first = (r * ts, 3, "one_way", None, True)
                break
            r += 1
        # Slope surfaces: the centre column, or a neighbour's edge nearest the centre.
        r = _floor(lo / ts) - 1
        if r < 0:
            r = 0
        slope_rows = grid._slope_rows
        if r <= r1 and True in slope_rows[r:r1 + 1]:
            cx = x + w * 0.5
            cc = _floor(cx / ts)
            sl, sr = grid._sl, grid._sr
            while r <= r1:
                base = r * cols
                if not slope_rows[r] or SLOPE not in k[base + c0:base + c1 + 1]:
                    r += 1
                    continue  # (the usual case: no slope under the box in this row)
                bottom = (r + 1) * ts
                centre_is_slope = 0 <= cc < cols and k[base + cc] == SLOPE
                for c in range(c0, c1 + 1):
                    i = base + c
                    if k[i] != SLOPE:
                        continue
                    if c == cc:
                        left = sl[i]
                        y = bottom - (left + (sr[i] - left) * ((cx - c * ts) / ts))  # _slope_height
                    elif centre_is_slope:
                        continue
                    elif c > cc:
                        y = bottom - sl[i]
                    else:
                        y = bottom - sr[i]
                    if lo <= y <= feet_to:
                        f = (y, 1, "slope", None, False)
                        if first is None:
                            first = f
                        elif found is None:
                            found = [first, f]
                        else:
                            found.append(f)
                r += 1
    floor_edge = grid._y_hi
    if lo <= floor_edge <= feet_to:  # a bottom wall edge is a floor
        f = (floor_edge, 0, "solid", None, False)
        if first is None:
            first = f
        elif found is None:
            found = [first, f]
        else:
            found.append(f)
    for p in platforms:
        if p is skip or (drop and p.one_way):
            continue
        if p.x < x + w and x < p.x + p.w and lo <= p.y <= feet_to:
            f = (p.y, 2, p._kind, p, p.one_way)
            if first is None:
                first = f
            elif found is None:
                found = [first, f]
            else:
                found.append(f)
    if found is None:
        if first is None:
            return None
        y, _rank, kind, plat, one_way = first
        return y, _new(Ground, (kind, plat, one_way))
    best = first[0]  # (min, the ties and the lowest rank among them, spelled out: a hill's edge runs this)
    for f in found:
        if f[0] < best:
            best = f[0]
    lim = best + EPS
    pick, one_way = None, True
    for f in found:
        if f[0] <= lim:
            if pick is None or f[1] < pick[1]:  # (the first of the lowest rank, as min() takes it)
                pick = f
            if not f[4]:
                one_way = False
    return best, _new(Ground, (pick[2], pick[3], one_way))


def find_ceiling(grid, platforms, skip, x: float, w: float, head_from: float, head_to: float) -> float:
    """The lowest ceiling (a tile, a solid platform's bottom or a top wall edge) crossed moving the head
    from ``head_from`` up to ``head_to``; ``-inf`` if none. Slope tiles are flat ceilings."""
    ts, cols, rows, k = grid.tile_size, grid.cols, grid.rows, grid._k
    c0 = max(0, _floor(x / ts))
    c1 = min(cols - 1, _ceil((x + w) / ts) - 1)
    found = -INF
    # (a box wholly off the map's sides meets no tile: the row slice below must not wrap round)
    r_hi = min(rows - 1, _floor((head_from + EPS) / ts) - 1) if c0 <= c1 else -1
    r_lo = max(0, _floor(head_to / ts))
    for r in range(r_hi, r_lo - 1, -1):
        bottom = (r + 1) * ts
        if bottom <= head_to:
            break
        base = r * cols
        row = k[base + c0:base + c1 + 1]
        if SOLID in row or SLOPE in row:
            found = bottom
            break
    top_edge = grid._y_lo
    if head_to < top_edge <= head_from + EPS and top_edge > found:
        found = top_edge
    for p in platforms:
        if p is skip or p.one_way:
            continue
        pb = p.y + p.h
        if p.x < x + w and x < p.x + p.w and head_to < pb <= head_from + EPS and pb > found:
            found = pb
    return found


def _feet_ceiling(grid, cx: float, feet_from: float, feet_to: float) -> float:
    """Rising, the bottom-centre never enters a slope tile through its flat bottom (it would be under the
    surface): the highest the feet may go, or ``-inf``. (A box whose side already dips into a slope's
    column can otherwise carry its bottom-centre up into it.)"""
    ts = grid.tile_size
    cc = _floor(cx / ts)
    if not 0 <= cc < grid.cols:
        return -INF
    r0 = min(grid.rows, _floor((feet_from - EPS) / ts))
    r1 = max(0, _floor((feet_to - EPS) / ts))
    k, cols = grid._k, grid.cols
    for r in range(r0 - 1, r1 - 1, -1):
        i = r * cols + cc
        if k[i] == SLOPE and _slope_height(grid, i, cx - cc * ts) > 0.0:
            return (r + 1) * ts + 2.0 * EPS  # just below the bottom edge: in the row under it
    return -INF


def overlaps_solid_platform(platforms, x: float, y: float, w: float, h: float, skip=None) -> bool:
    """Does the box strictly overlap a solid (not one-way) platform other than ``skip``?"""
    for p in platforms:
        if not p.one_way and p is not skip and p.x < x + w and x < p.x + p.w and p.y < y + h and y < p.y + p.h:
            return True
    return False


def slope_depth(grid, x: float, y: float, w: float, h: float) -> float:
    """How far the box's bottom-centre is below the surface of the slope tile holding it (0 if not).

    Only the tile at the feet counts: a slope in the row above is a ceiling, never lifted onto.
    """
    ts, cols = grid.tile_size, grid.cols
    cx = x + w * 0.5
    cc = _floor(cx / ts)
    feet = y + h
    r = _floor((feet - EPS) / ts)
    if not (0 <= cc < cols and 0 <= r < grid.rows):
        return 0.0
    i = r * cols + cc
    if grid._k[i] != SLOPE:
        return 0.0
    surface = (r + 1) * ts - _slope_height(grid, i, cx - cc * ts)
    return feet - surface if feet > surface else 0.0


def box_free(grid, platforms, x: float, y: float, w: float, h: float, skip=None) -> bool:
    """Free to be in: no solid tile, wall edge or solid platform overlapped, feet not under a slope."""
    return not grid.solid_overlaps(x, y, w, h) and not overlaps_solid_platform(platforms, x, y, w, h, skip) \
        and slope_depth(grid, x, y, w, h) <= EPS


# -- the passes ------------------------------------------------------------------------------------
def move_y(grid, platforms, a, ty: float, drop: bool, skip=None):
    """Vertical pass toward ``y = ty``. Returns a Contact (floor: normal (0,-1); ceiling: (0,1)) or None.

    Down: lands on the highest support crossed (one-way tops the feet were at or above hold unless
    ``drop``). Up: stops under the lowest ceiling crossed; one-way tiles and platforms never block it.
    """
    y = a.y
    if ty > y:
        h = a.h
        sup = find_support(grid, platforms, skip, a.x, a.w, y + h, ty + h, drop)
        if sup is not None:
            top = sup[0]
            a.y = place_before(top, h)
            ground = sup[1]
            a.ground = ground
            kind = ground.kind
            if kind == "solid" or kind == "one_way":  # (inline: a grounded actor does this every step)
                ts = grid.tile_size
                r = int(top // ts)
                cc = _floor((a.x + a.w * 0.5) / ts)
                tile = (cc, r) if r * ts == top and 0 <= r < grid.rows and 0 <= cc < grid.cols and \
                    grid._k[r * grid.cols + cc] == (SOLID if kind == "solid" else ONE_WAY) \
                    else _support_tile(grid, a, top, kind)
            else:
                tile = None if ground.platform is not None else _support_tile(grid, a, top, kind)
            return _new(Contact, ((0, -1), kind, ground.platform, tile, a.vx, a.vy))
        a.y = ty
        return None
    if ty < y:
        ceiling = find_ceiling(grid, platforms, skip, a.x, a.w, y, ty)
        h, ts = a.h, grid.tile_size
        feet_cap = _feet_ceiling(grid, a.x + a.w * 0.5, y + h, ty + h) \
            if _floor((ty + h - EPS) / ts) < _floor((y + h - EPS) / ts) else -INF  # (only entering a new row)
        if feet_cap - h > ceiling:
            a.y = min(y, feet_cap - h)
            cc = _floor((a.x + a.w * 0.5) / ts)
            return Contact((0, 1), "slope", None, (cc, round(feet_cap / ts) - 1), a.vx, a.vy)
        if ceiling > -INF:
            a.y = ceiling
            for p in platforms:
                if p is not skip and not p.one_way and p.y + p.h == ceiling and p.x < a.x + a.w \
                        and a.x < p.x + p.w:
                    return _new(Contact, ((0, 1), p._kind, p, None, a.vx, a.vy))
            r = round(ceiling / ts) - 1
            return Contact((0, 1), "solid", None, _tile_hit(grid, a, r, r, _BLOCKS), a.vx, a.vy)
        a.y = ty
    return None


_BLOCKS = (SOLID, SLOPE)  # what a ceiling or a wall can be made of
_FLOORS = {"solid": (SOLID,), "one_way": (ONE_WAY,), "slope": (SLOPE,)}


def _tile_hit(grid, a, r0: int, r1: int, kinds, c0: int | None = None, c1: int | None = None):
    """``(col, row)`` of the tile of one of ``kinds`` in rows r0..r1 (and columns c0..c1, by default those
    the box spans) nearest the box's centre, or None (a wall edge of the map). Only called on a hit."""
    ts, cols = grid.tile_size, grid.cols
    if c0 is None:
        c0, c1 = _floor(a.x / ts), _ceil((a.x + a.w) / ts) - 1
    c0, c1, r0, r1 = max(c0, 0), min(c1, cols - 1), max(r0, 0), min(r1, grid.rows - 1)
    cx, cy = (a.x + a.w * 0.5) / ts - 0.5, (a.y + a.h * 0.5) / ts - 0.5  # in tiles, to tile centres
    k, best, far = grid._k, None, INF
    for r in range(r0, r1 + 1):
        base = r * cols
        for c in range(c0, c1 + 1):
            if k[base + c] in kinds:
                d = (c - cx) * (c - cx) + (r - cy) * (r - cy)
                if d < far:
                    best, far = (c, r), d
    return best


def _support_tile(grid, a, y: float, kind: str):
    """The tile a box standing at ``y`` stands on (its flat top or slope surface at ``y``), or None."""
    ts = grid.tile_size
    if kind == "slope":
        r = _floor((y - EPS) / ts)
        if r == _floor((y + EPS) / ts) and 0 <= r < grid.rows:  # one row: the slope under the centre is the
            u = (a.x + a.w * 0.5) / ts  # nearest (unless the centre is on a column edge: a tie)
            cc = _floor(u)
            if 1e-6 < u - cc < 1.0 - 1e-6 and 0 <= cc < grid.cols and grid._k[r * grid.cols + cc] == SLOPE:
                return cc, r
        return _tile_hit(grid, a, _floor((y - EPS) / ts), _floor((y + EPS) / ts), _FLOORS[kind])
    r = round(y / ts)
    if r * ts != y or not 0 <= r < grid.rows:
        return None  # a wall edge of the map
    cc = _floor((a.x + a.w * 0.5) / ts)  # usually the tile under the centre (a few list reads)
    if 0 <= cc < grid.cols and grid._k[r * grid.cols + cc] == (SOLID if kind == "solid" else ONE_WAY):
        return cc, r
    return _tile_hit(grid, a, r, r, _FLOORS[kind])


def _x_blocked_at_column(grid, c: int, y0: float, y1: float, moving_right: bool):
    """Does column ``c`` block a box spanning (y0, y1) entering it sideways?

    Returns ``(blocked, step_row)``: ``step_row`` is the row of a solid tile the box may step up onto
    (a solid continuing a slope's top, the first one from the top of the box), or -1.
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
            if step_row == -1 and ramps[i]:
                step_row = r  # the caller checks the rise (at most half the box's width)
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


def move_x(grid, platforms, a, tx: float, can_step: bool = False, skip=None, travel: float = -1.0):
    """Horizontal pass toward ``x = tx``. Returns a Contact (a wall, a platform's side or a slope face) or
    None.

    Solid tiles, wall edges, solid platforms and the vertical faces of slopes block the leading edge;
    ``can_step`` lets a grounded actor step up onto a solid tile that continues a slope's top (at most half
    its width plus ``travel``, the whole move: the rise of a 45° slope). The bottom-centre is swept across
    every slope column it crosses and lifted onto the surface (a face steeper than 45°, or a lift into
    something solid, stops it); after a lift the rest of the way is another pass at the new height.
    """
    x = a.x
    if tx == x:
        return None
    ts, cols, w = grid.tile_size, grid.cols, a.w
    right = tx > x
    if travel < 0.0:
        travel = abs(tx - x)
    lifts = 0
    while True:  # one pass, or one more from each point where a slope lifted the box
        # -- the leading edge: tiles column by column (stepping up ramp tops), the map edge, platforms ------
        if right:
            lead0 = x + w
            lead1 = tx + w
            cs = max(0, _ceil((lead0 - EPS) / ts))
            ce = min(cols - 1, _ceil(lead1 / ts) - 1)
            cols_range = range(cs, ce + 1)
        else:
            lead0 = x
            lead1 = tx
            cs = min(cols - 1, _floor((lead0 + EPS) / ts) - 1)
            ce = max(0, _floor(lead1 / ts))
            cols_range = range(cs, ce - 1, -1)
        stop = None  # the x the leading edge stops at
        stop_col = -1  # the tile column that stopped it
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
                    if 0.0 < rise <= w * 0.5 + travel + EPS and box_free(grid, platforms, x, new_y, w, a.h, skip) \
                            and find_ceiling(grid, platforms, skip, x, w, a.y, new_y) == -INF:
                        a.y = new_y
                        continue
                stop, stop_col = edge, c
                break
            if stop is not None:
                break
        kind = "solid"
        other = None
        if right:
            edge = grid._x_hi
            if lead0 - EPS <= edge < lead1 and (stop is None or edge < stop):
                stop, stop_col = edge, -1
        else:
            edge = grid._x_lo
            if lead1 < edge <= lead0 + EPS and (stop is None or edge > stop):
                stop, stop_col = edge, -1
        for p in platforms:
            if p is skip or p.one_way:
                continue
            if not (p.y < a.y + a.h and a.y < p.y + p.h):
                continue
            if right:
                if lead0 - EPS <= p.x < lead1 and (stop is None or p.x < stop):
                    stop, kind, other = p.x, p._kind, p
            else:
                pr = p.x + p.w
                if lead1 < pr <= lead0 + EPS and (stop is None or pr > stop):
                    stop, kind, other = pr, p._kind, p
        if stop is None:
            end = tx
        elif right:
            end = place_before(stop, w)
        else:
            end = stop
        # -- the bottom-centre: climb the slopes on the way -------------------------------------------------
        climbed = _climb(grid, platforms, a, x, end, skip) if _slope_ahead(grid, a, x, end) else None
        if climbed is None:
            a.x = end
            return None if stop is None else _wall(grid, a, right, kind, other, stop_col)
        a.x, lifted, col = climbed
        if not lifted:
            return Contact((-1 if right else 1, 0), "slope", None, (col, _floor((a.y + a.h - EPS) / ts)), a.vx,
                           a.vy)
        if a.x == end:
            return None if stop is None else _wall(grid, a, right, kind, other, stop_col)
        x = a.x  # on from the lift, at the new height (each lift ends a column further on)
        lifts += 1
        if lifts > 2 * cols + 8:  # (a safety net: never reached)
            return Contact((-1 if right else 1, 0), "slope", None, None, a.vx, a.vy)


def _wall(grid, a, right: bool, kind: str, other, col: int) -> Contact:
    """The Contact for a side stopped at tile column ``col`` (-1: a map edge or ``other``, a body)."""
    tile = None
    if other is None and col >= 0:
        ts = grid.tile_size
        tile = _tile_hit(grid, a, _floor(a.y / ts), _ceil((a.y + a.h) / ts) - 1, _BLOCKS, col, col)
    return _new(Contact, ((-1 if right else 1, 0), kind, other, tile, a.vx, a.vy))


def _slope_ahead(grid, a, x0: float, x1: float) -> bool:
    """Is there a slope tile in the feet's row along the bottom-centre's way from ``x0`` to ``x1``? (Without
    one nothing can need climbing: the usual case, checked in a few list reads.)"""
    ts = grid.tile_size
    r = _floor((a.y + a.h - EPS) / ts)
    if x1 == x0 or not 0 <= r < grid.rows or not grid._slope_rows[r]:
        return False
    half, cols = a.w * 0.5, grid.cols
    c0, c1 = _floor((x0 + half) / ts), _floor((x1 + half) / ts)
    if c0 == c1:
        return 0 <= c0 < cols and grid._k[r * cols + c0] == SLOPE
    if c0 > c1:
        c0, c1 = c1, c0
    base = r * cols
    return SLOPE in grid._k[base + max(c0, 0):base + min(c1, cols - 1) + 1]


def _climb(grid, platforms, a, x0: float, x1: float, skip):
    """Sweep the bottom-centre from box x ``x0`` toward ``x1``, column by column, up to the first slope
    surface it would pass under. Returns None when it needs no lift all the way; ``(x, True, col)`` after
    lifting ``a.y`` onto the surface of column ``col`` at box x ``x`` (the end of that column's stretch);
    ``(x, False, col)`` where a slope face (steeper than 45°) or a lift into something solid stops it.
    (Called when ``_slope_ahead``: the feet's row is inside the map.)"""
    ts, cols, k = grid.tile_size, grid.cols, grid._k
    w, h = a.w, a.h
    half = w * 0.5
    c_from, c_to = x0 + half, x1 + half
    feet = a.y + h
    r = _floor((feet - EPS) / ts)
    right = x1 > x0
    cc0, cc1 = _floor(c_from / ts), _floor(c_to / ts)
    base = r * cols
    step = 1 if right else -1
    for c in range(cc0, cc1 + step, step):
        if not 0 <= c < cols:
            continue
        i = base + c
        if k[i] != SLOPE:
            continue
        left = c * ts
        first = c == cc0
        seg_a = c_from if first else (left if right else left + ts)
        last = c == cc1
        seg_b = c_to if last else (left + ts if right else left)
        bottom = (r + 1) * ts
        if feet > bottom - _slope_height(grid, i, min(max(seg_a - left, 0.0), ts)) + EPS:
            # the surface starts above the feet: a face, a wall at this column's edge
            return (x0 if first else _centre_before(seg_a, half, right, x0)), False, c
        surface = bottom - _slope_height(grid, i, min(max(seg_b - left, 0.0), ts))
        if feet <= surface:
            continue
        new_y = place_before(surface, h)
        # (moving right, a centre exactly on the column's right edge would be in the next column)
        nx = x1 if last else _centre_before(seg_b, half, right, x0) if right else seg_b - half
        if not box_free(grid, platforms, nx, new_y, w, h, skip) \
                or find_ceiling(grid, platforms, skip, nx, w, a.y, new_y) > -INF:
            # (a solid, a platform, a ceiling, or a slope stacked right above the one climbed)
            return (x0 if first else _centre_before(seg_a, half, right, x0, inclusive=True)), False, c
        a.y = new_y
        return nx, True, c
    return None


def _centre_before(edge: float, half: float, right: bool, x0: float, inclusive: bool = False) -> float:
    """The box x putting the bottom-centre at a column edge, on the side it came from (``inclusive``: on
    the edge itself is fine), never behind where the move started."""
    x = edge - half
    if right:
        for _ in range(_TRIES):
            if x + half < edge or (inclusive and x + half == edge):
                return max(x, x0)
            x = math.nextafter(x, -INF)
        x = first_float(x, (lambda v: v + half <= edge) if inclusive else (lambda v: v + half < edge), False)
        return max(x, x0)
    for _ in range(_TRIES):
        if x + half >= edge:
            return min(x, x0)
        x = math.nextafter(x, INF)
    return min(first_float(x, lambda v: v + half >= edge, True), x0)


_TRIES = 4  # floats stepped one at a time before searching (near 0, ``x + half`` can stay put for 2**62 of them)
_DOUBLE, _INT = struct.Struct("<d"), struct.Struct("<q")
_SIGN = 1 << 63


def _rank(x: float) -> int:
    """``x``'s place in the order of floats: consecutive floats have consecutive ranks (0.0 and -0.0: 0)."""
    b = _INT.unpack(_DOUBLE.pack(x))[0]
    return b if b >= 0 else -(b & (_SIGN - 1))


def _ranked(r: int) -> float:
    """The float of rank ``r`` (see _rank)."""
    return _DOUBLE.unpack(_INT.pack(r if r >= 0 else -r - _SIGN))[0]


_TOP = _rank(INF)


def first_float(x: float, good, up: bool) -> float:
    """The first float from ``x`` on (up or down) for which ``good`` holds, given that ``good`` is monotone
    that way (false, then true) and holds somewhere before infinity: what stepping ``math.nextafter`` one
    float at a time finds, in about 2 * 64 tests (a gallop, then a bisection over float ranks)."""
    sign = 1 if up else -1
    start = _rank(x)
    if good(x):
        return x
    limit = _TOP - start if up else _TOP + start  # (the offset of infinity)
    bad, gap = 0, 1  # (offsets from start: good is false at ``bad``)
    while True:
        probe = min(bad + gap, limit)
        if good(_ranked(start + sign * probe)):
            break
        if probe == limit:
            return _ranked(start + sign * limit)  # (never: good holds before infinity)
        bad, gap = probe, gap * 2
    ok = probe
    while ok - bad > 1:
        mid = (bad + ok) // 2
        if good(_ranked(start + sign * mid)):
            ok = mid
        else:
            bad = mid
    return _ranked(start + sign * ok)


# -- short steps: what the passes would find, told from a few reads ------------------------------------
# An actor in open air, or walking on a flat solid floor, is most steps of most actors. These two answer
# such a step in a few list reads, or say False (then the caller takes the passes). They are exact: each
# leaves the actor as move() and land() would, bit for bit (the differential test holds them to it).
_SLACK = 1e-3  # px around the box tested: far over the passes' float slack (EPS) and any rounding
_ON_SOLID = Ground("solid", None, False)
_FLOOR = (0, -1)


def short_reach(a, dx: float, was_grounded: bool, drop: bool) -> float:
    """px under the feet the short steps must find clear: what land() will read after this step's move
    (its snap depth, with ``a.vy`` already this step's), and half a pixel more; 0 when rising."""
    if a.vy < 0.0:
        return 0.0  # (land() stands nothing that rises)
    return abs(dx) + a.w * 0.5 + 1.0 if was_grounded and a.snap and not drop else EPS


def air_step(grid, platforms, a, dx: float, dy: float, reach: float) -> bool:
    """The step of a box moving ``(dx, dy)`` through air: every tile its sweep (and ``reach`` px under its
    feet, what land() looks at) spans is EMPTY and inside the map, and no platform is within 1 px. Then
    it moves the whole way, touching nothing and standing on nothing."""
    ts = grid.tile_size
    x, y = a.x, a.y
    tx, ty = x + dx, y + dy
    w, h = a.w, a.h
    if dx < 0.0:
        left, right = tx - _SLACK, x + w + _SLACK
    else:
        left, right = x - _SLACK, tx + w + _SLACK
    if dy < 0.0:
        top, bottom = ty - _SLACK, y + h + reach + _SLACK
    else:
        top, bottom = y - _SLACK, ty + h + reach + _SLACK
    c0, c1 = _floor(left / ts), _floor(right / ts)
    r0 = _floor(top / ts)
    r_feet = _floor((top + h) / ts) - 1  # (a support's slope search starts a row above the feet's)
    if r_feet < r0:
        r0 = r_feet
    r1 = _floor(bottom / ts)
    cols = grid.cols
    if c0 < 0 or r0 < 0 or c1 >= cols or r1 >= grid.rows:
        return False  # (near a map edge: the passes)
    air = grid._air if grid._air is not None else grid._air_runs()
    span = c1 - c0
    for i in range(r0 * cols + c0, r1 * cols + c0 + 1, cols):
        if air[i] <= span:
            return False
    for p in platforms:
        if p.x < right + 1.0 and left - 1.0 < p.x + p.w and p.y < bottom + 1.0 and top - 1.0 < p.y + p.h:
            return False
    a.contacts = []
    if dy:
        a.y = ty
    if dx:
        a.x = tx
    a.on_ground = False
    a.ground = None
    return True


def flat_step(grid, platforms, a, dx: float, dy: float, reach: float) -> bool:
    """The step of a box standing on a flat solid floor and pressed into it (``dy`` > 0) while moving ``dx``:
    solid under its centre before and after, air over the floor's row where it goes, no slope in the rows
    the support search reads (``reach`` px deep), no wall edge and no platform within 1 px. Then it lands
    where it stood, ``dx`` further on, with the floor as its one contact."""
    if dy <= 0.0 or a.bounce:
        return False
    ts, cols, k = grid.tile_size, grid.cols, grid._k
    x, y = a.x, a.y
    w, h = a.w, a.h
    r = _ceil((y + h - EPS) / ts)  # the row whose top is under the feet
    top = r * ts
    tx = x + dx
    if (y + dy) + h < top or place_before(top, h) != y:
        return False
    half = w * 0.5
    cc0, cc1 = _floor((x + half) / ts), _floor((tx + half) / ts)
    if dx < 0.0:
        left, right = tx - _SLACK, x + w + _SLACK
    else:
        left, right = x - _SLACK, tx + w + _SLACK
    c0, c1 = _floor(left / ts), _floor(right / ts)
    r0 = _floor((y - _SLACK) / ts)
    if r0 > r - 2:
        r0 = r - 2  # (a support's slope search starts a row above the feet's)
    deepest = top + (dy if dy > reach else reach) + _SLACK
    r1 = _floor(deepest / ts)
    if c0 < 0 or r0 < 0 or c1 >= cols or r1 >= grid.rows or not deepest + 1.0 < grid._y_hi:
        return False
    base = r * cols
    if k[base + cc0] != SOLID or k[base + cc1] != SOLID:
        return False
    air = grid._air if grid._air is not None else grid._air_runs()
    span = c1 - c0
    for i in range(r0 * cols + c0, base, cols):
        if air[i] <= span:
            return False
    slope_rows = grid._slope_rows
    if True in slope_rows[r:r1 + 1]:
        for rr in range(r, r1 + 1):
            b = rr * cols
            if slope_rows[rr] and SLOPE in k[b + c0:b + c1 + 1]:
                return False
    for p in platforms:
        if p.x < right + 1.0 and left - 1.0 < p.x + p.w and p.y < deepest + 1.0 and y - 1.0 < p.y + p.h:
            return False
    a.contacts = [_new(Contact, (_FLOOR, "solid", None, (cc0, r), a.vx, a.vy))]
    a.vy = 0.0
    if dx:
        a.x = tx
    a.on_ground = True
    a.ground = _ON_SOLID
    return True


def move(grid, platforms, a, dx: float, dy: float, drop: bool, skip=None, rest: float = 0.0,
         vy0: float | None = None):
    """One step of motion for any actor: the Y pass, then the X pass (which climbs slopes).

    Records ``a.contacts`` and stops the velocity on each axis that hit something, or bounces it back
    (``a.bounce``, see :func:`rebound`; ``rest``: px/s, a rebound off a floor slower than this stops;
    ``vy0``: px/s, the vertical speed before this step's gravity, so a bounce starts from the speed at
    the moment of the hit, not the step's end). Returns ``(y_contact or None, x_before)``.
    """
    a.contacts = []
    y0 = a.y
    hit_y = move_y(grid, platforms, a, y0 + dy, drop, skip) if dy else None
    if hit_y is not None:
        a.contacts.append(hit_y)
        if a.bounce:
            if vy0 is not None:  # v^2 grows linearly with the distance under constant gravity
                vy = a.vy
                a.vy = math.copysign(math.sqrt(max(0.0, vy0 * vy0 + (vy * vy - vy0 * vy0) * (a.y - y0) / dy)), vy)
            rebound(grid, a, hit_y, rest)
        else:
            a.vy = 0.0
    x_before = a.x
    if dx:
        hit_x = move_x(grid, platforms, a, x_before + dx, hit_y is not None and hit_y.normal[1] < 0, skip)
        if hit_x is not None:
            a.contacts.append(hit_x)
            if a.bounce:
                rebound(grid, a, hit_x, rest)
            else:
                a.vx = 0.0
    return hit_y, x_before


def rebound(grid, a, hit, rest: float) -> None:
    """The velocity after ``hit`` for an actor with ``bounce`` e (0..1): the part along the normal comes
    back e times as fast (0 slides along, 1 mirrors); a rebound slower than ``abs(rest)`` px/s off the
    surface gravity presses on — a floor, or a ceiling when ``rest`` < 0 (gravity pulling up) — stops,
    so a ball comes to rest instead of buzzing. On a slope's surface the normal is the surface's own, so
    a ball bounces off a ramp at an angle."""
    e = a.bounce
    if not 0.0 <= e <= 1.0:
        raise ValueError(f"{a!r}: bounce must be between 0 and 1, got {e!r}")
    nx, ny = hit.normal
    if nx:
        a.vx = -e * a.vx
        return
    if ny > 0 or hit.kind != "slope" or hit.tile is None:
        back = -e * a.vy
        a.vy = back if ny * rest >= 0.0 or abs(back) > abs(rest) else 0.0
        return
    col, row = hit.tile  # a slope's surface: reflect about its normal
    i = row * grid.cols + col
    s = (grid._sr[i] - grid._sl[i]) / grid.tile_size  # rise per px to the right
    norm = math.hypot(s, 1.0)
    nx, ny = -s / norm, -1.0 / norm
    into = a.vx * nx + a.vy * ny  # < 0: moving into the surface
    if -e * into < rest:  # (a slope's surface is a floor: only gravity pulling down rests on it)
        a.vy = 0.0  # too slow to bounce: lands, keeping its run
        return
    a.vx -= (1.0 + e) * into * nx
    a.vy -= (1.0 + e) * into * ny


def land(grid, platforms, a, was_grounded: bool, moved: float, drop: bool = False, skip=None) -> bool:
    """After a move: stand the actor on what is under its feet and set ``on_ground`` / ``ground``.

    An actor that was grounded, is not rising and has ``snap`` on follows the ground down: slopes and
    steps up to ``|moved| + w/2`` px below (the drop of a 45° slope under half its width). Every actor
    (Character or not) goes through here. Returns True when it stands.
    """
    if a.vy < 0.0:
        a.on_ground, a.ground = False, None
        return False
    feet = a.y + a.h
    reach = abs(moved) + a.w * 0.5 + 0.5 if was_grounded and a.snap and not drop else EPS
    sup = find_support(grid, platforms, skip, a.x, a.w, feet, feet + reach, drop)
    if sup is None:
        a.on_ground, a.ground = False, None
        return False
    a.y = place_before(sup[0], a.h)
    a.vy = 0.0
    a.on_ground, a.ground = True, sup[1]
    return True


# -- out of solid geometry -------------------------------------------------------------------------
_MAX_OBSTACLES = 256  # a box overlapping more than this is deep inside: no search, it is stuck


def _obstacles(grid, platforms, x: float, y: float, w: float, h: float):
    """The solid tiles and solid platforms the box strictly overlaps, as ``{key: (x, y, w, h)}``, or None
    when there are too many to search around."""
    ts, cols, k = grid.tile_size, grid.cols, grid._k
    c0, c1 = max(0, _floor(x / ts)), min(cols - 1, _ceil((x + w) / ts) - 1)
    r0, r1 = max(0, _floor(y / ts)), min(grid.rows - 1, _ceil((y + h) / ts) - 1)
    if (c1 - c0 + 1) * (r1 - r0 + 1) > _MAX_OBSTACLES * 4:
        return None
    found = {}
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            if k[r * cols + c] == SOLID:
                found[r * cols + c] = (c * ts, r * ts, ts, ts)
    for p in platforms:
        if not p.one_way and p.x < x + w and x < p.x + p.w and p.y < y + h and y < p.y + p.h:
            found[p] = (p.x, p.y, p.w, p.h)
    return found if len(found) <= _MAX_OBSTACLES else None


def _sweep_ok(grid, platforms, allowed, x0, y0, x1, y1, w, h) -> bool:
    """Moving the box from (x0, y0) to (x1, y1) along one axis touches nothing solid but ``allowed``
    (what it overlapped to begin with) and never leaves the map through a wall edge."""
    bx, by = min(x0, x1), min(y0, y1)
    bw, bh = abs(x1 - x0) + w, abs(y1 - y0) + h
    if bx < grid._x_lo and x1 < x0 or bx + bw > grid._x_hi and x1 > x0 \
            or by < grid._y_lo and y1 < y0 or by + bh > grid._y_hi and y1 > y0:
        return False
    found = _obstacles(grid, platforms, bx, by, bw, bh)
    return found is not None and all(key in allowed for key in found)


def depenetrate(grid, platforms, a, reach: float) -> bool:
    """Move an actor found inside solid geometry to the nearest free spot at most ``reach`` px away.

    Free: no solid tile, wall edge or solid platform overlapped and the bottom-centre not under a slope.
    The spot is searched among the box placed against the faces of what it overlaps, each left through
    its nearer face (never out through the far side of a wall or a platform), along a path that touches
    nothing it was not already inside and never takes the feet down through a floor they were on or above
    (one-way tops included). Nearest first; on a tie up, then left, right, down. Returns True
    when the actor is free (moved or not), False when there is no such spot (it is left where it was).
    """
    x0, y0, w, h = a.x, a.y, a.w, a.h
    if box_free(grid, platforms, x0, y0, w, h):
        return True
    found = _obstacles(grid, platforms, x0, y0, w, h)
    if found is None:
        return False
    cx, cy = x0 + w * 0.5, y0 + h * 0.5
    xs, ys = {x0}, {y0}
    exits = []  # per obstacle: (box, may leave left, right, up, down)
    for ox, oy, ow, oh in found.values():
        left, right = cx <= ox + ow * 0.5, cx >= ox + ow * 0.5
        up, down = cy <= oy + oh * 0.5, cy >= oy + oh * 0.5
        exits.append((ox, oy, ow, oh, left, right, up, down))
        if left:
            xs.add(place_before(ox, w))
        if right:
            xs.add(ox + ow)
        if up:
            ys.add(place_before(oy, h))
        if down:
            ys.add(oy + oh)
    if x0 < grid._x_lo:
        xs.add(grid._x_lo)
    if x0 + w > grid._x_hi:
        xs.add(place_before(grid._x_hi, w))
    if y0 < grid._y_lo:
        ys.add(grid._y_lo)
    if y0 + h > grid._y_hi:
        ys.add(place_before(grid._y_hi, h))
    xs = [v for v in xs if abs(v - x0) <= reach]
    ys = [v for v in ys if abs(v - y0) <= reach]
    candidates = []
    for x in xs:
        for y in ys:
            depth = slope_depth(grid, x, y, w, h)
            if depth > EPS:  # stand on the slope surface rather than under it
                y = place_before(y + h - depth, h)
            dist = math.hypot(x - x0, y - y0)
            if dist > reach or dist == 0.0:
                continue
            rank = 0 if y < y0 else 3 if y > y0 else 1 if x < x0 else 2
            candidates.append((dist, rank, y, x))
    candidates.sort()
    ceilings = _slope_ceilings(grid, x0, y0, w, h)
    for _dist, _rank, y, x in candidates:
        if not _leaves_near_faces(exits, x, y, w, h) or not box_free(grid, platforms, x, y, w, h) \
                or not _slope_ceilings(grid, x, y, w, h) <= ceilings:
            continue  # (nor up into a slope tile over its head: from below a slope is a flat ceiling)
        if (_sweep_ok(grid, platforms, found, x0, y0, x, y0, w, h)
                and _sweep_ok(grid, platforms, found, x, y0, x, y, w, h)) \
                or (_sweep_ok(grid, platforms, found, x0, y0, x0, y, w, h)
                    and _sweep_ok(grid, platforms, found, x0, y, x, y, w, h)):
            if y > y0 and find_support(grid, platforms, None, x0, w, y0 + h, y + h, False) is not None \
                    and find_support(grid, platforms, None, x, w, y0 + h, y + h, False) is not None:
                continue  # never pushed down through a floor the feet were on or above (one-way tops too)
            a.x, a.y = x, y
            return True
    return False


def _slope_ceilings(grid, x: float, y: float, w: float, h: float) -> set:
    """The slope tiles (flat indices) the box overlaps in rows above its feet's row: ceilings it is in."""
    ts, cols, k = grid.tile_size, grid.cols, grid._k
    c0, c1 = max(0, _floor(x / ts)), min(cols - 1, _ceil((x + w) / ts) - 1)
    r0, r1 = max(0, _floor(y / ts)), min(grid.rows - 1, _floor((y + h - EPS) / ts) - 1)
    found = set()
    for r in range(r0, r1 + 1):
        if grid._slope_rows[r]:
            base = r * cols
            found.update(i for i in range(base + c0, base + c1 + 1) if k[i] == SLOPE)
    return found


def _leaves_near_faces(exits, x: float, y: float, w: float, h: float) -> bool:
    """Is every obstacle left through a face it may be left through (its nearer faces)?"""
    for ox, oy, ow, oh, left, right, up, down in exits:
        if not ((left and x + w <= ox) or (right and x >= ox + ow) or (up and y + h <= oy)
                or (down and y >= oy + oh)):
            return False
    return True
