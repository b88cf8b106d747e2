"""Runways: a plain actor (a crate too) walking or resting on a flat stretch of tiles, stepped in a few
lines with exactly what the Y pass, the X pass and the ground snap of ``_motion.py`` would give it there.

Most walkers of a level spend most steps on flat ground with nothing near: their step falls into the floor
(a floor contact, ``vy`` back to 0), slides along (``x += vx * dt``) and snaps onto the same top. An actor's
*runway* is the stretch of box x it can do that on: every column under it a tile of one kind (solid or
one-way) in the row under its feet, nothing solid or sloped in its rows or the two rows find_support looks
at for slopes, and inside the map's wall edges. It is found once (``find``) and kept on the actor
(``Actor._run``) while the tiles it was read from, the actor's size, its height and its ground stay the
same (an actor moved or resized by hand, or made a bullet, drops it); a step that would leave
it, or any body that could reach the actor, takes the general path.

``step`` mirrors ``World._fall`` + ``_motion.move`` + ``_motion.land`` for that case, in the same float
operations in the same order, so positions, velocities, contacts and ground are bit-identical to the
general path's (``tests/engine/test_runway.py`` runs both on random scenes and compares).
"""

from __future__ import annotations

import math

from . import _motion
from .bodies import Contact, Ground
from .geometry import place_before
from .tiles import EMPTY, ONE_WAY, SLOPE, SOLID

EPS = 1e-6  # px: as in _motion.py
REACH = 64  # columns: how far either way a runway is looked for
_floor, _ceil = math.floor, math.ceil
_new = tuple.__new__
_FLOOR_NORMAL = (0, -1)

CACHE = 4096  # runways a world keeps for its actors to share (see find)
_UNSEEN = object()
ENABLED = True  # False: every actor takes the general path (the differential test compares the two)


def find(grid, a, cache=None):
    """The runway of actor ``a`` standing on a flat tile top (``a.ground`` solid or one-way, no body), or
    None. A runway is the list ``[grid, version, ground, y, w, h, x_min, x_max, kind, row, top, below,
    hang_min, hang_max, col_lo, col_hi, dx_max, half_w, row_lo, col_from, col_to, fall, hang_lo,
    hang_hi, contact]``: the box x range ``[x_min, x_max]`` it is valid over at height ``y`` for a ``w`` x
    ``h`` box; the ground and contact kind; the tile row of the floor and its top (px); ``below`` (px): a
    fall reaching less than this past the top stays in that row; the wider box x range over the gaps,
    slopes and ramps' feet at its ends, valid while the box's centre is over the columns
    ``col_lo..col_hi`` of the stretch (or hangs over ``hang_lo..hang_hi``: see ``hangs``); the largest
    ``|dx|`` (px) a step may move it by; ``w / 2``; the tiles it was read from (rows ``row_lo..row``,
    columns ``col_from..col_to``); the fall from rest (px per step) last found to land on it
    (``falls_in``); the floor contact World.step last made on it (reused while the same). A tile edit
    there, or a new grid, drops it (``World._sync_tiles``). ``cache``: the runways found on this grid's
    tiles as they are now, by what they are read from (``kept``), shared by the actors of one size."""
    g = a.ground
    if g is None or g.platform is not None:
        return None
    kind = g.kind
    if kind == "solid":
        code = SOLID
    elif kind == "one_way":
        code = ONE_WAY
    else:
        return None
    ts, cols, rows, k = grid.tile_size, grid.cols, grid.rows, grid._k
    x, y, w, h = a.x, a.y, a.w, a.h
    r = _floor((y + h) / ts + 0.5)  # the row whose top the feet are at
    if not 0 <= r < rows:
        return None
    t = float(r * ts)
    if place_before(t, h) != y or t - 1.0 <= grid._y_hi < t + ts:
        return None  # not standing right on the top; or a bottom wall edge within a tile below it
    lo_row = max(0, min(_floor(y / ts), r - 2))  # the box's rows and the two find_support reads for slopes
    c0 = _floor((x + w * 0.5) / ts)  # (the stretch is looked for from the column under the centre)
    if c0 < 0 or c0 >= cols:
        return None
    key = (code, y, w, h, c0)  # (all a runway looked for from the centre's column is read from)
    run = _UNSEEN if cache is None else looked_up(cache, key)
    if run is not _UNSEEN:
        return run

    def good(c: int) -> bool:
        if k[r * cols + c] != code:
            return False
        for rr in range(lo_row, r):
            v = k[rr * cols + c]
            if v == SOLID or v == SLOPE:
                return False
        return True

    if not good(c0):  # the centre past the end of a stretch the box covers (a hill's edge): from its column
        key = None  # (then x itself chose the column: not kept)
        first, last = max(0, _floor(x / ts)), min(cols - 1, _ceil((x + w) / ts) - 1)
        c0 = next((c for c in sorted(range(first, last + 1), key=lambda c: abs(c - c0)) if good(c)), None)
        if c0 is None:
            return None
    ca = cb = c1 = c0
    while ca > 0 and c0 - ca < REACH and good(ca - 1):
        ca -= 1
    while cb < cols - 1 and cb - c1 < REACH and good(cb + 1):
        cb += 1

    # Past the ends the box may hang over a gap while its centre is on the stretch (the tile under the
    # centre is the one stood on, and a gap holds nothing) or, on a solid top, over a slope tile in the
    # floor's row (its surface is never above the top, and at the top a solid outranks it): the passes
    # only read the box's own rows and the slopes in the rows above.
    beside = (EMPTY, SLOPE) if code == SOLID else (EMPTY,)

    def over(c: int) -> bool:
        if k[r * cols + c] not in beside:
            return False
        for rr in range(lo_row, r):
            v = k[rr * cols + c]
            if v == SOLID or v == SLOPE:
                return False
        return True

    hang = _floor(w * 0.5 / ts) + 1  # columns a box with its centre on the stretch can reach past it
    ea, eb = ca, cb
    while ea > 0 and ca - ea < hang and over(ea - 1):
        ea -= 1
    while eb < cols - 1 and eb - cb < hang and over(eb + 1):
        eb += 1
    ha, hb = ea, eb  # the columns the centre may be over (past the stretch: see hangs)

    # At the foot of a ramp beside a solid stretch (a slope in the row above the floor, its edge toward the
    # stretch at height 0) the box may overlap the slope's column while its centre stays on the stretch:
    # find_support meets the slope's edge at the top's height, where the solid outranks it, and the X pass
    # meets no face there (the edge's face has height 0).
    def foot(c: int, edge: dict) -> bool:
        i = (r - 1) * cols + c
        if k[i] != SLOPE or edge[i] != 0.0:
            return False
        for rr in range(lo_row, r - 1):
            v = k[rr * cols + c]
            if v == SOLID or v == SLOPE:
                return False
        return True

    if code == SOLID and r > 0:
        if ea == ca and ca > 0 and foot(ca - 1, grid._sr):
            ea = ca - 1
        if eb == cb and cb < cols - 1 and foot(cb + 1, grid._sl):
            eb = cb + 1
    x_lo, x_hi = grid._x_lo, grid._x_hi
    x_min = max(float(ca * ts), x_lo)
    x_max = place_before(min(float((cb + 1) * ts), x_hi), w)  # (then x + w never passes the edge)
    hang_min = max(float(ea * ts), x_lo)
    hang_max = place_before(min(float((eb + 1) * ts), x_hi), w)
    # the Y pass's fall and the ground snap's reach must end above the next row: find_support then sees
    # this row's top and nothing else (no slope below it)
    below = (r + 1) * ts - t - 2.0 * EPS
    # the largest |dx| whose ground snap (|dx| + w/2 + 0.5 px) stays above the next row, with a margin far
    # wider than any rounding of the sums
    dx_max = below - (w * 0.5 + 0.5) - 1e-6
    run = None if x_max < x_min else \
        [grid, grid.version, Ground(kind, None, code == ONE_WAY), y, w, h, x_min, x_max, kind, r, t, below,
         hang_min, hang_max, ca, cb, dx_max, w * 0.5, lo_row, ea, eb, None, ha, hb, None]
    return kept(cache, key, run) if key is not None else run


def looked_up(cache, key):
    """The runway ``cache`` keeps under ``key`` for an actor (a copy: see kept; None: none there), or
    ``_UNSEEN`` when it has not been looked for on these tiles."""
    run = cache.get(key, _UNSEEN)
    return run[:] if run is not _UNSEEN and run is not None else run


def kept(cache, key, run):
    """Keep ``run`` in ``cache`` under ``key`` (a world's cache of runways; emptied when it grows past
    ``CACHE`` entries: actors resized all the time must not fill memory); returns it for an actor (a copy:
    the last entries of a runway, what its last step left, are that actor's own)."""
    if cache is None:
        return run
    if len(cache) >= CACHE:
        cache.clear()
    cache[key] = run
    return run if run is None else run[:]


def falls_in(run, dy: float) -> bool:
    """Does a fall of ``dy`` px from the runway's height reach its top and stay in its row? (Remembered for
    the last ``dy`` asked: a world's fall from rest is the same every step.)"""
    y = run[3]
    ok = y + dy > y and y + dy + run[5] >= run[10] and dy < run[11]
    if ok:
        run[21] = dy
    return ok


def edited(run, changes) -> bool:
    """Does any edited tile ``(col, row)`` of ``changes`` lie where ``run`` was read from?"""
    r0, r1, c0, c1 = run[18], run[9], run[19], run[20]
    for c, r in changes:
        if c0 <= c <= c1 and r0 <= r <= r1:
            return True
    return False


def step(a, grid, d, blockers, max_speed: float, cache=None) -> bool:
    """Step plain actor ``a`` along its runway (gravity, the Y pass into the floor, the X pass, the
    snap), as ``World._move_plain`` would; False (nothing changed) when the general path must do it.
    ``cache``: the world's runways on these tiles (see find)."""
    if not a.on_ground or a.vy != 0.0 or a.bounce or not a._gravity_scale > 0.0:
        return False
    run = a._run
    g = a.ground
    if run is not None and run[8] == "slope" and run[0] is grid and a.w == run[4] and a.h == run[5] \
            and (g is run[2] or g == run[2]):
        placed = run[22]
        if placed is None or placed[0] != a.x or placed[1] != a.y:
            placed = None
            if _floor((a.x + run[14]) / grid.tile_size) != run[6]:  # on to the next slope tile: its own runway
                run = a._run = find_slope(grid, a, cache)
                if run is None:
                    return False
        return _slope_step(a, run, grid, d, blockers, max_speed, placed)
    if run is None or run[0] is not grid or a.y != run[3] or a.w != run[4] or a.h != run[5] \
            or (g is not run[2] and g != run[2]) or not run[12] <= a.x <= run[13]:
        # (also past the runway's ends: on along a floor longer than REACH, or past a wall edited away)
        run = a._run = find(grid, a, cache) if g is None or g.kind != "slope" else find_slope(grid, a, cache)
        if run is None:
            return False
        if run[8] == "slope":
            return _slope_step(a, run, grid, d, blockers, max_speed)
    x, y, w, h = a.x, a.y, a.w, a.h
    dt = d.dt
    vy_new = min(0.0 + d.fall_gravity * a._gravity_scale * dt, max_speed)  # World._fall from vy = 0
    dy = (0.0 + vy_new) * 0.5 * dt
    vx = a.vx
    dx = vx * dt
    tx = x + dx if dx else x
    x_min, x_max = run[6], run[7]
    ts = grid.tile_size
    cc = col = _floor((x + w * 0.5) / ts)
    across = True  # the X pass and the snap too (else the general ones, after the Y pass stepped here)
    if not (x_min <= x <= x_max and x_min <= tx <= x_max):
        # over an end of the stretch (a gap, a slope beside a solid top, a ramp's foot): fine while the
        # centre stays over the stretch (the tile under it is the one stood on, and the tiles under the box
        # hold nothing else), or hangs past it (see hangs: the contact's tile is then the stretch's end)
        h_min, h_max = run[12], run[13]
        ca, cb = run[14], run[15]
        if not x_min <= x <= x_max:  # (the box at x: where the Y pass is)
            if not h_min <= x <= h_max:
                return False
            if not ca <= cc <= cb:
                if not hangs(run, grid, x, cc):
                    return False
                col = ca if cc < ca else cb
        if not h_min <= tx <= h_max:  # (the box at tx: the X pass and the snap)
            across = False
        else:
            cc1 = _floor((tx + w * 0.5) / ts)
            if not ca <= cc1 <= cb and not hangs(run, grid, tx, cc1):
                across = False
    if not (run[21] == dy or falls_in(run, dy)):
        return False  # the fall would not reach the top, or could look past this row
    if not -run[16] <= dx <= run[16]:
        across = False  # the snap could look past this row
    if blockers and (not across or near(blockers, x, tx, y, w, h, run[11])):
        return False
    # the Y pass: into the floor (a contact at the tile under the centre), vy stopped
    a.contacts = [_new(Contact, (_FLOOR_NORMAL, run[8], None, (col, run[9]), vx, vy_new))]
    a.vy = 0.0
    if not across:
        return _across(a, grid, dx)
    # the X pass: nothing in the way; the snap: onto the same top
    a.x = tx
    a.ground = run[2]
    return True


def _across(a, grid, dx: float) -> bool:
    """The rest of a step whose Y pass a runway did (into its floor, ``a.contacts`` holding that contact):
    the general X pass and ground snap, as ``_motion.move`` and ``land`` do them after that pass, for an
    actor with nothing but tiles near (no blockers) leaving its runway's stretch or slope tile."""
    x = a.x
    if dx:
        hit = _motion.move_x(grid, (), a, x + dx, True, None)
        if hit is not None:
            a.contacts.append(hit)
            a.vx = 0.0
    _motion.land(grid, (), a, True, a.x - x)
    return True


def hangs(run, grid, x: float, c: int) -> bool:
    """May a box at ``x`` on ``run``, its centre over column ``c`` past the stretch, be stepped as on it?
    Yes when ``c`` is a column the box may hang over (not a ramp's foot), the box still covers a column of
    the stretch (find_support's columns) and, over a slope, the slope's surface under the centre is not
    above the top (find_support's own sum): the top under the box is then the highest support, a solid
    one outranking a slope at its height, and the contact's tile, the tile nearest the centre
    (_tile_hit), is the stretch's end."""
    if not run[22] <= c <= run[23]:
        return False
    ts = grid.tile_size
    if _floor(x / ts) > run[15] or _ceil((x + run[4]) / ts) - 1 < run[14]:
        return False
    r = run[9]
    i = r * grid.cols + c
    if grid._k[i] == SLOPE:
        left = grid._sl[i]
        if (r + 1) * ts - (left + (grid._sr[i] - left) * ((x + run[17] - c * ts) / ts)) < run[10]:
            return False
    return True


def near(blockers, x: float, tx: float, y: float, w: float, h: float, below: float, skip=None) -> bool:
    """Could any of ``blockers`` (platforms, solid actors; less ``skip``, the mover itself) meet a box at
    height ``y`` moving from x to tx along a runway (its sides, or a top within ``below`` px under its feet)?"""
    bx0, bx1 = (x - 1.0, tx + w + 1.0) if tx >= x else (tx - 1.0, x + w + 1.0)
    by0, by1 = y - 1.0, y + h + below + 1.0
    for p in blockers:
        if p.x <= bx1 and bx0 <= p.x + p.w and p.y <= by1 and by0 <= p.y + p.h and p is not skip:
            return True
    return False


# -- slopes ---------------------------------------------------------------------------------------------
MARGIN = 1e-3  # px: a surface this close to its tile's top or bottom edge takes the general path (ties)
_SLOPE_GROUND = Ground("slope", None, False)


def find_slope(grid, a, cache=None):
    """The slope runway of actor ``a`` standing on a slope (``a.ground`` a slope) with its bottom-centre
    over slope tile (col, row), or None: while the centre stays over that tile, its rows above hold nothing
    solid or sloped where the box can be, and the map's edges are beyond its reach, a step only slides the
    box along the surface. The list ``[grid, version, ground, nan, w, h, col, i, "slope", row, left,
    right, bottom, blocked, half, col_from, col_to, solid_row, row_lo, col_from, col_to, None, placed,
    contact, tile]``: ``i``
    the tile's flat index, ``left, right`` its surface heights (px), ``bottom`` its bottom (px),
    ``blocked`` the columns in its row the leading edge must not enter (solid or sloped), ``solid_row``
    whether any tile in its row within reach is solid; ``placed`` the ``(x, y, surface)`` the last step put
    the box at (the next step starts from there without working it out again), ``contact`` that step's
    contact (reused while the same), ``tile`` ``(col, row)``. ``cache``: as for ``find``."""
    ts, w, h = grid.tile_size, a.w, a.h
    cc = _floor((a.x + w * 0.5) / ts)
    r = _floor((a.y + h - EPS) / ts)
    key = (SLOPE, cc, r, w, h)  # (all a slope runway is read from)
    run = _UNSEEN if cache is None else looked_up(cache, key)
    if run is not _UNSEEN:
        return run
    return kept(cache, key, _slope_run(grid, cc, r, w, h))


def _slope_run(grid, cc: int, r: int, w: float, h: float):
    """``find_slope``'s runway for a ``w`` x ``h`` box with its bottom-centre over tile (cc, r), or None."""
    ts, cols, rows, k = grid.tile_size, grid.cols, grid.rows, grid._k
    half = w * 0.5
    if not (0 <= cc < cols and 0 <= r < rows) or k[r * cols + cc] != SLOPE:
        return None
    i = r * cols + cc
    sl, sr = grid._sl[i], grid._sr[i]
    bottom = (r + 1) * ts
    c_from, c_to = _floor((cc * ts - half) / ts), math.ceil(((cc + 1) * ts + half) / ts) - 1
    head = bottom - max(sl, sr) - h  # px: the highest the box's top can be over this tile
    if c_from < 0 or c_to >= cols or cc * ts - half < grid._x_lo or (cc + 1) * ts + half > grid._x_hi \
            or head - 1.0 <= grid._y_lo:
        return None
    r_lo = max(0, _floor(head / ts) - 1)
    for rr in range(r_lo, r):  # the rows the box (and a ceiling test) can reach: nothing in the way
        for c in range(c_from, c_to + 1):
            v = k[rr * cols + c]
            if v == SOLID or v == SLOPE:
                return None
    # the columns whose entry stops the leading edge or steps it up (_x_blocked_at_column in this row: a
    # solid; a slope with a face on the side it is entered from, right of the centre from its left)
    base, faces_l, faces_r = r * cols, grid._wall_l, grid._wall_r
    blocked = frozenset(c for c in range(c_from, c_to + 1) if c != cc and (
        k[base + c] == SOLID or k[base + c] == SLOPE and (faces_l if c > cc else faces_r)[base + c] is not None))
    solid_row = any(k[r * cols + c] == SOLID for c in range(c_from, c_to + 1))
    return [grid, grid.version, _SLOPE_GROUND, math.nan, w, h, cc, i, "slope", r, sl, sr, bottom, blocked, half,
            c_from, c_to, solid_row, r_lo, c_from, c_to, None, None, None, (cc, r)]


def _slope_step(a, run, grid, d, blockers, max_speed: float, placed=None) -> bool:
    """``step`` on a slope runway: the Y pass into the surface under the centre, the X pass sliding along
    (lifted onto the surface going up), the snap down onto it going down; the same numbers as
    ``_motion.py`` (its find_support, _climb and land, read for this case). ``placed``: the run's record of
    where its last step left the box, when the box is still there."""
    if not a.snap:
        return False
    ts = grid.tile_size
    cc, r, sl, sr, bottom, half = run[6], run[9], run[10], run[11], run[12], run[14]
    x, y, w, h = a.x, a.y, a.w, a.h
    cx = x + w * 0.5
    u = cx / ts
    top_ok, bottom_ok = r * ts + MARGIN, bottom - MARGIN
    if placed is not None:  # (the caller found the box where the last step left it: run[22])
        s0 = placed[2]  # the checks below held there
    else:
        if _floor(u) != cc:
            return False  # off the tile
        s0 = bottom - (sl + (sr - sl) * ((cx - cc * ts) / ts))  # find_support's surface under the centre
        if not top_ok < s0 < bottom_ok or place_before(s0, h) != y:
            return False
    dt = d.dt
    vy_new = min(0.0 + d.fall_gravity * a._gravity_scale * dt, max_speed)  # World._fall from vy = 0
    dy = (0.0 + vy_new) * 0.5 * dt
    if not (y + dy > y and y + dy + h >= s0):
        return False  # the Y pass would not reach the surface
    vx = a.vx
    dx = vx * dt
    tx = x + dx if dx else x
    cx1 = tx + half
    across = _floor(cx1 / ts) == cc  # the X pass and the snap too (else the general ones after the Y pass)
    if across:
        v = cx1 - cc * ts
        inside = 0.0 <= v <= ts  # (then s1 is the s0 the next step would work out from here)
        s1 = bottom - (sl + (sr - sl) * ((v if inside else 0.0 if v < 0.0 else ts) / ts))  # (v clamped to 0..ts)
        across = top_ok < s1 < bottom_ok
    blocked = run[13]
    if across and blocked:  # the columns the leading edge enters (move_x's scan)
        if tx > x:
            entered = range(math.ceil((x + w - EPS) / ts), math.ceil((tx + w) / ts))
        else:
            entered = range(_floor(tx / ts), _floor((x + EPS) / ts) - 1 + 1)
        for c in entered:
            if c in blocked:
                across = False
                break
    if across:
        up = y + h > s1
        y1 = place_before(s1, h)
        if up and run[17]:  # lifted: the box there must overlap no solid tile of its row
            c0, c1 = _floor(tx / ts), math.ceil((tx + w) / ts) - 1
            k, base = grid._k, r * grid.cols
            if SOLID in k[base + c0:base + c1 + 1]:
                across = False
    if blockers and (not across or near(blockers, x, tx, min(y, y1), w, h, float(ts))):
        return False
    # the Y pass: the contact's tile is the slope under the centre, or on a column edge the nearest (move_y's
    # own rule)
    hit = run[23]
    if 1e-6 < u - cc < 1.0 - 1e-6:
        if hit is None or hit[4] != vx or not vx or hit[5] != vy_new:
            hit = run[23] = _new(Contact, (_FLOOR_NORMAL, "slope", None, run[24], vx, vy_new))
    else:
        hit = _new(Contact, (_FLOOR_NORMAL, "slope", None, _motion._support_tile(grid, a, s0, "slope"), vx, vy_new))
    a.contacts = [hit]
    a.vy = 0.0
    if not across:
        run[22] = None
        return _across(a, grid, dx)
    a.x = tx
    a.y = y1
    a.ground = _SLOPE_GROUND
    run[22] = (tx, y1, s1) if inside else None
    return True
