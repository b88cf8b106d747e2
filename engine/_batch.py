"""Batched motion: numpy mirrors of ``_motion.py``'s passes for many boxes at once (tiles and map edges).

Each function here is the function of the same name in ``_motion.py`` applied to arrays, operation for
operation in the same order, so every float comes out bit-identical (numpy's float64 arithmetic is the
same IEEE arithmetic as Python's floats). Platforms are left out: a box that could meet one takes the
per-actor path (``crowd.py`` decides). Loops over tile rows and columns become a few Python
iterations over the whole batch, each one masked to the boxes still scanning; "any solid tile in this
span" is two reads of a prefix sum.

Support ranks double as kind codes: 0 solid, 1 slope, 2 platform, 3 one-way (``KINDS``).
"""

from __future__ import annotations

import numpy as np

from . import _motion
from ._motion import EPS, _continues_ramp
from .tiles import ONE_WAY, SLOPE, SOLID

KINDS = ("solid", "slope", "platform", "one_way", "actor")  # kind code -> Ground / Contact kind
R_SOLID, R_SLOPE, R_PLATFORM, R_ONE_WAY, R_ACTOR = 0, 1, 2, 3, 4
INF = np.inf
_ONE_BY_ONE = 8  # boxes: at most this many left in a loop of the passes finish through _motion instead


def clip(a, lo, hi):
    """``np.clip`` for integer arrays, without its dispatch overhead (a few µs a call)."""
    return np.minimum(np.maximum(a, lo), hi)


def floor(a):
    return np.floor(a).astype(np.int64)


def ceil(a):
    return np.ceil(a).astype(np.int64)


def place_before(edge, size):
    """``geometry.place_before`` on arrays: the largest s with s + size <= edge."""
    s = edge - size
    over = s + size > edge
    while over.any():
        s[over] = np.nextafter(s[over], -INF)
        over = s + size > edge
    return s


class Tables:
    """A grid as the batch reads it: flat kinds and slope heights, the y of each slope tile's left and
    right edges, prefix sums of solid, one-way and slope tiles packed into one integer (any of each kind
    in a row span: two reads; in a box: four), slope faces and ramps. Built once per grid version."""

    def __init__(self, grid):
        self.grid = grid
        self.version = getattr(grid, "version", 0)
        ts, rows, cols = grid.tile_size, grid.rows, grid.cols
        self.ts, self.rows, self.cols = ts, rows, cols
        k = np.asarray(grid.kinds, dtype=np.int8)
        self.k = k.ravel().copy()
        slope = k == SLOPE
        self.sl = np.where(slope, grid.slope_left, 0.0).ravel()
        self.sr = np.where(slope, grid.slope_right, 0.0).ravel()
        # row prefix, one empty row above and below the map (rows -1 and ``rows`` read as empty)
        packed = _packed_row(k.astype(np.int64))
        self.row_p = np.zeros((rows + 2, cols + 1), np.int64)
        np.cumsum(packed, axis=1, out=self.row_p[1:-1, 1:])
        self.row_p = self.row_p.ravel()
        box = _packed_box(k.astype(np.int64))
        self.box_p = np.zeros((rows + 1, cols + 1), np.int64)
        self.box_p[1:, 1:] = box.cumsum(axis=0).cumsum(axis=1)
        self.box_p = self.box_p.ravel()
        bottom = (np.arange(rows, dtype=np.float64)[:, None] + 1.0) * ts
        # y of each slope tile's left / right edge (inf elsewhere): a neighbour's edge nearest the centre
        self.top_l = np.where(slope, bottom - self.sl.reshape(rows, cols), INF).ravel()
        self.top_r = np.where(slope, bottom - self.sr.reshape(rows, cols), INF).ravel()
        self.x_lo, self.x_hi, self.y_lo, self.y_hi = grid._x_lo, grid._x_hi, grid._y_lo, grid._y_hi
        self._find_odd()
        n = rows * cols
        # faces of slope tiles (low, high above the tile's bottom; NaN: none) met moving right / left
        self.face_r = np.full((2, n), np.nan)
        self.face_l = np.full((2, n), np.nan)
        self.cont_r = np.zeros(n, bool)  # a slope tile continuing a ramp climbed moving right / left
        self.cont_l = np.zeros(n, bool)
        for i in np.flatnonzero(self.k == SLOPE).tolist():
            r, c = divmod(i, cols)
            self._join(grid, i, r, c)
        self.ramp_r = np.array(grid._ramp_l, bool)  # a solid stepped onto moving right (its left is a ramp)
        self.ramp_l = np.array(grid._ramp_r, bool)
        self._runs = None

    def __deepcopy__(self, memo):
        return self  # (a clone has its own grid, and so builds its own tables)

    def update(self) -> bool:
        """Follow the grid's tile edits since these tables were made, tile by tile (prefix sums by the
        change of each edited tile). Returns False when the edits are too old to list: build new tables."""
        grid = self.grid
        changes = grid.changes_since(self.version) if grid.version > self.version else None
        if changes is None:
            return False
        rows, cols, ts = self.rows, self.cols, self.ts
        kinds, left, right = grid.kinds.ravel(), grid.slope_left.ravel(), grid.slope_right.ravel()
        row_p = self.row_p.reshape(rows + 2, cols + 1)
        box_p = self.box_p.reshape(rows + 1, cols + 1)
        near = set()
        for c, r in dict.fromkeys(changes):
            i = r * cols + c
            old, new = int(self.k[i]), int(kinds[i])
            row_p[r + 1, c + 1:] += _packed_row(new) - _packed_row(old)
            box_p[r + 1:, c + 1:] += _packed_box(new) - _packed_box(old)
            self.k[i] = new
            sl, sr = (float(left[i]), float(right[i])) if new == SLOPE else (0.0, 0.0)
            self.sl[i], self.sr[i] = sl, sr
            bottom = (r + 1.0) * ts
            self.top_l[i], self.top_r[i] = (bottom - sl, bottom - sr) if new == SLOPE else (INF, INF)
            near.update((rr, cc) for rr in (r - 1, r, r + 1) for cc in (c - 1, c, c + 1)
                        if 0 <= rr < rows and 0 <= cc < cols)
        for r, c in near:  # slope joins and ramps, as the grid now has them
            i = r * cols + c
            self.ramp_r[i], self.ramp_l[i] = bool(grid._ramp_l[i]), bool(grid._ramp_r[i])
            self.face_r[:, i] = self.face_l[:, i] = np.nan
            self.cont_r[i] = self.cont_l[i] = False
            if self.k[i] == SLOPE:
                self._join(grid, i, r, c)
        self._runs = None
        self._find_odd()
        self.version = grid.version
        return True

    def _join(self, grid, i: int, r: int, c: int) -> None:
        """Slope tile ``i``'s faces and whether it continues a ramp, from the grid's own joins."""
        for wall, face in ((grid._wall_l[i], self.face_r), (grid._wall_r[i], self.face_l)):
            if wall is not None:
                face[0, i], face[1, i] = wall
        self.cont_r[i] = _continues_ramp(grid, i, r, c, True)
        self.cont_l[i] = _continues_ramp(grid, i, r, c, False)

    def _find_odd(self) -> None:
        """Slope tiles with an edge a hair above their bottom: a flat top beside them is not simply tied."""
        rows, cols = self.rows, self.cols
        sl, sr = self.sl.reshape(rows, cols), self.sr.reshape(rows, cols)
        odd = (self.k.reshape(rows, cols) == SLOPE) & (((sl > 0) & (sl <= 2 * EPS)) | ((sr > 0) & (sr <= 2 * EPS)))
        self.odd = None
        if odd.any():
            self.odd = np.zeros((rows + 2, cols + 1), np.int32)
            np.cumsum(odd, axis=1, out=self.odd[1:-1, 1:])
            self.odd = self.odd.ravel()

    # -- spans ------------------------------------------------------------------------------------------
    def span(self, r, c0, c1):
        """Packed counts of the tiles in row ``r``, columns ``c0..c1`` (any row and any columns: outside the
        map reads empty, an empty span ``c0 > c1`` reads 0). Test with ``& F_SOLID`` etc."""
        cols = self.cols
        base = (clip(r, -1, self.rows) + 1) * (cols + 1)
        lo = clip(c0, 0, cols)
        hi = np.maximum(clip(c1 + 1, 0, cols), lo)
        return self.row_p.take(base + hi) - self.row_p.take(base + lo)

    def runs(self):
        """Per row and column, for a box no taller than a tile standing on the row's top: the first and
        last column of the run of columns around it with a solid (then, for one-way: a one-way) tile in
        the row and nothing solid or sloped in the row above; -1 where the column is not on one. Two
        flat arrays, solid runs first."""
        if self._runs is None:
            k = self.k.reshape(self.rows, self.cols)
            above = np.vstack([np.zeros((1, self.cols), np.int8), k[:-1]])
            open_above = (above == 0) | (above == ONE_WAY)
            starts, ends = [], []
            idx = np.arange(self.cols)
            for good in ((k == SOLID) & open_above, (k == ONE_WAY) & open_above):
                start = np.maximum.accumulate(np.where(good, -1, idx), axis=1) + 1
                end = np.minimum.accumulate(np.where(good, self.cols, idx)[:, ::-1], axis=1)[:, ::-1] - 1
                starts.append(np.where(good, start, -1).ravel())
                ends.append(np.where(good, end, -1).ravel())
            self._runs = np.concatenate(starts), np.concatenate(ends)
        return self._runs

    def span_odd(self, r, c0, c1):
        """``span`` for the odd slope tiles (``_find_odd``): how many in row ``r``, columns ``c0..c1``."""
        cols = self.cols
        base = (clip(r, -1, self.rows) + 1) * (cols + 1)
        lo = clip(c0, 0, cols)
        hi = np.maximum(clip(c1 + 1, 0, cols), lo)
        return self.odd.take(base + hi) - self.odd.take(base + lo)

    def box(self, r0, r1, c0, c1):
        """Packed counts (``& B_SOLID``; slope: ``> B_SOLID``) of the tiles in rows ``r0..r1``, columns
        ``c0..c1``, each range clamped below / above to the map; 0 where a range is empty."""
        w = self.cols + 1
        a, b = r0 * w, (r1 + 1) * w
        p, q = c0, c1 + 1
        t = self.box_p
        d = t.take(b + q, mode="clip") - t.take(a + q, mode="clip") - t.take(b + p, mode="clip") \
            + t.take(a + p, mode="clip")
        return np.where((r0 <= r1) & (c0 <= c1), d, 0)

    def height(self, i, u):
        """``_motion._slope_height``: surface height of slope tile ``i`` at local x ``u``."""
        left = self.sl[i]
        return left + (self.sr[i] - left) * (u / self.ts)

    def cols_of(self, x, w):
        return np.maximum(0, floor(x / self.ts)), np.minimum(self.cols - 1, ceil((x + w) / self.ts) - 1)


def _packed_row(kind):
    """A tile's contribution to the row prefix sums: solid, one-way and slope counts in one integer."""
    return (kind == SOLID) * 1 + (kind == ONE_WAY) * (1 << 21) + (kind == SLOPE) * (1 << 42)


def _packed_box(kind):
    """A tile's contribution to the box prefix sums: solid and slope counts in one integer."""
    return (kind == SOLID) * 1 + (kind == SLOPE) * (1 << 31)


F_SOLID = (1 << 21) - 1  # fields of Tables.span
F_ONE_WAY = F_SOLID << 21
F_FLAT = F_SOLID | F_ONE_WAY
F_CEILING = F_SOLID | (F_SOLID << 42)
F_SLOPE = 1 << 42  # (a count >= this has a slope tile)
B_SOLID = (1 << 31) - 1  # fields of Tables.box


# -- queries ---------------------------------------------------------------------------------------------
def find_support(T: Tables, x, w, feet_from, feet_to):
    """``_motion.find_support`` without platforms, not dropping: ``(y, kind)`` arrays, y = inf where none.

    The flat tops of the first row holding a solid (or else one-way) tile under the box, the slope
    surfaces (the centre's column, or a neighbour's edge nearest the centre), the bottom wall edge; the
    highest wins, ties within EPS going to the best rank (all slope candidates share one rank, so only
    the highest of them matters).
    """
    ts = T.ts
    m = len(x)
    lo = feet_from - EPS
    c0, c1 = T.cols_of(x, w)
    r1 = np.minimum(T.rows - 1, floor(feet_to / ts))
    lot = lo / ts
    ra = np.maximum(0, ceil(lot))
    n = np.where(c0 <= c1, r1 - ra + 1, 0)
    nr = int(n.max()) if m else 0
    # flat tops: the first row from the top with a solid (or else a one-way) tile under the box
    if nr == 1:
        d = T.span(ra, c0, c1)
        live = n > 0
        solid = live & ((d & F_SOLID) != 0)
        flat_y = np.where(live & ((d & F_FLAT) != 0), ra * float(ts), INF)
    elif nr > 1:
        k = np.arange(nr)[:, None]
        d = T.span(ra + k, c0, c1)
        found = (k < n) & ((d & F_FLAT) != 0)
        first = found.argmax(axis=0)
        d = d[first, np.arange(m)]
        has = found[first, np.arange(m)]
        solid = has & ((d & F_SOLID) != 0)
        flat_y = np.where(has, (ra + first) * float(ts), INF)
    else:
        solid, flat_y = np.zeros(m, bool), np.full(m, INF)
    best = flat_y
    # slope surfaces, for boxes with a slope tile in the rows and columns searched
    slope_y = None
    rs = np.maximum(0, floor(lot) - 1)
    near = np.flatnonzero(T.box(rs, r1, c0, c1) > B_SOLID)
    if near.size:
        slope_y = np.full(m, INF)
        slope_y[near] = _slope_support(T, x[near], w[near], lo[near], feet_to[near], rs[near], r1[near], c0[near],
                                       c1[near])
        best = np.minimum(best, slope_y)
    edge_y = None
    if T.y_hi < INF:
        edge = T.y_hi
        edge_y = np.where((lo <= edge) & (edge <= feet_to), edge, INF)
        best = np.minimum(best, edge_y)
    tie = best + EPS
    kind = np.where(flat_y <= tie, np.where(solid, R_SOLID, R_ONE_WAY), 9)
    if slope_y is not None:
        kind = np.where(slope_y <= tie, np.minimum(kind, R_SLOPE), kind)
    if edge_y is not None:
        kind = np.where(edge_y <= tie, R_SOLID, kind)
    return best, np.where(best < INF, kind, -1).astype(np.int8)


def _slope_support(T, x, w, lo, feet_to, rs, r1, c0, c1):
    """The highest slope candidate of find_support (inf where none), every (row, column) at once (rows and
    columns past a box's last are read again as its last: a repeat never changes a minimum)."""
    ts, cols = T.ts, T.cols
    cx = x + w * 0.5
    cc = floor(cx / ts)
    r = np.minimum(rs + np.arange(int((r1 - rs).max()) + 1)[:, None], r1)  # (rows, boxes)
    base = r * cols
    in_map = (cc >= 0) & (cc < cols)
    ic = base + np.where(in_map, cc, 0)
    centre = in_map & (T.k[ic] == SLOPE)
    yc = (r + 1) * float(ts) - T.height(ic, cx - cc * ts)
    yc = np.where(centre & (lo <= yc) & (yc <= feet_to), yc, INF).min(axis=0)
    # a neighbour's edge nearest the centre, in rows where the centre is not over a slope
    c = np.minimum(c0 + np.arange(int((c1 - c0).max()) + 1)[:, None], c1)  # (cols, boxes)
    i = base[:, None, :] + c
    yn = np.where(c > cc, T.top_l[i], np.where(c < cc, T.top_r[i], INF))
    yn = np.where(~centre[:, None, :] & (lo <= yn) & (yn <= feet_to), yn, INF).min(axis=(0, 1))
    return np.minimum(yc, yn)


def find_ceiling(T: Tables, x, w, head_from, head_to):
    """``_motion.find_ceiling`` without platforms: the lowest ceiling crossed moving the head up from
    ``head_from`` to ``head_to``, -inf where none. (Every row from ``r_lo`` up has its bottom below
    ``head_to``: ``_motion``'s "bottom <= head_to" test never ends the scan early.)"""
    ts = T.ts
    m = len(x)
    c0, c1 = T.cols_of(x, w)
    r_hi = np.minimum(T.rows - 1, floor((head_from + EPS) / ts) - 1)
    n = np.where(c0 <= c1, r_hi - np.maximum(0, floor(head_to / ts)) + 1, 0)
    nr = int(n.max()) if m else 0
    if nr == 1:
        found = np.where((n > 0) & ((T.span(r_hi, c0, c1) & F_CEILING) != 0), (r_hi + 1) * float(ts), -INF)
    elif nr > 1:
        k = np.arange(nr)[:, None]
        hit = (k < n) & ((T.span(r_hi - k, c0, c1) & F_CEILING) != 0)
        first = hit.argmax(axis=0)
        found = np.where(hit[first, np.arange(m)], (r_hi - first + 1) * float(ts), -INF)
    else:
        found = np.full(m, -INF)
    top = T.y_lo
    if top > -INF:
        found = np.where((head_to < top) & (top <= head_from + EPS) & (top > found), top, found)
    return found


def _feet_ceiling(T: Tables, cx, feet_from, feet_to):
    """``_motion._feet_ceiling``: rising, the highest the feet may go without entering a slope tile
    through its flat bottom; -inf where unbounded."""
    ts, cols = T.ts, T.cols
    m = len(cx)
    out = np.full(m, -INF)
    cc = floor(cx / ts)
    r = np.minimum(T.rows, floor((feet_from - EPS) / ts)) - 1
    r_end = np.maximum(0, floor((feet_to - EPS) / ts))
    live = np.flatnonzero((cc >= 0) & (cc < cols) & (r >= r_end))
    r = r[live]
    while live.size:
        i = r * cols + cc[live]
        hit = (T.k[i] == SLOPE) & (T.height(i, cx[live] - cc[live] * ts) > 0.0)
        out[live[hit]] = (r[hit] + 1) * float(ts) + 2.0 * EPS
        more = ~hit & (r > r_end[live])
        live, r = live[more], r[more] - 1
    return out


def solid_overlaps(T: Tables, x, y, w, h):
    """``TileGrid.solid_overlaps``: strictly overlaps a SOLID tile or reaches past a wall edge."""
    ts = T.ts
    c0, c1 = T.cols_of(x, w)
    r0, r1 = np.maximum(0, floor(y / ts)), np.minimum(T.rows - 1, ceil((y + h) / ts) - 1)
    out = (T.box(r0, r1, c0, c1) & B_SOLID) != 0
    for lo, hi, a, size in ((T.x_lo, T.x_hi, x, w), (T.y_lo, T.y_hi, y, h)):
        if lo > -INF:
            out |= a < lo
        if hi < INF:
            out |= a + size > hi
    return out


def slope_depth(T: Tables, x, y, w, h):
    """``_motion.slope_depth``: how far the bottom-centre is under the surface of the slope tile holding
    it (0 if not)."""
    ts, cols = T.ts, T.cols
    cx = x + w * 0.5
    cc = floor(cx / ts)
    feet = y + h
    r = floor((feet - EPS) / ts)
    ok = (cc >= 0) & (cc < cols) & (r >= 0) & (r < T.rows)
    i = np.where(ok, r * cols + cc, 0)
    ok &= T.k[i] == SLOPE
    surface = (r + 1) * float(ts) - T.height(i, cx - cc * ts)
    return np.where(ok & (feet > surface), feet - surface, 0.0)


def box_free(T: Tables, x, y, w, h):
    """``_motion.box_free`` without platforms."""
    return ~solid_overlaps(T, x, y, w, h) & (slope_depth(T, x, y, w, h) <= EPS)


# -- the passes ------------------------------------------------------------------------------------------
def move_y(T: Tables, x, y, w, h, ty):
    """``_motion.move_y`` (no platforms, no drop) for boxes moving: the new y, the contact (``normal``: -1
    floor, 1 ceiling, 0 none; ``kind`` code) and the top of the floor landed on (inf: none)."""
    m = len(x)
    ny = ty.copy()
    normal = np.zeros(m, np.int8)
    kind = np.full(m, -1, np.int8)
    top = np.full(m, INF)
    down = np.flatnonzero(ty > y)
    if down.size:
        hh = h[down]
        sy, sk = find_support(T, x[down], w[down], y[down] + hh, ty[down] + hh)
        hit = sk >= 0
        ny[down[hit]] = place_before(sy[hit], hh[hit])
        normal[down[hit]] = -1
        kind[down[hit]] = sk[hit]
        top[down[hit]] = sy[hit]
    up = np.flatnonzero(ty < y)
    if up.size:
        xu, yu, wu, hu, tu = x[up], y[up], w[up], h[up], ty[up]
        ceiling = find_ceiling(T, xu, wu, yu, tu)
        feet_cap = np.full(up.size, -INF)
        rows = floor((tu + hu - EPS) / T.ts) < floor((yu + hu - EPS) / T.ts)  # only entering a new row
        if rows.any():
            feet_cap[rows] = _feet_ceiling(T, xu[rows] + wu[rows] * 0.5, yu[rows] + hu[rows], tu[rows] + hu[rows])
        cap = feet_cap - hu > ceiling
        roof = ~cap & (ceiling > -INF)
        ny[up[cap]] = np.minimum(yu[cap], feet_cap[cap] - hu[cap])
        ny[up[roof]] = ceiling[roof]
        normal[up[cap | roof]] = 1
        kind[up[cap]] = R_SLOPE
        kind[up[roof]] = R_SOLID
    return ny, normal, kind, top


def _x_blocked(T: Tables, c, y0, y1, right):
    """``_motion._x_blocked_at_column`` on arrays: ``(blocked, step_row)``. Scanning the rows from the
    top, the first solid continuing a ramp is a step; any other solid, a second such step, a slope tile
    reaching above the box's bottom that is not the next tile of the ramp, or a slope face in the box's
    span blocks outright."""
    ts, cols = T.ts, T.cols
    m = len(c)
    r0 = np.maximum(0, floor(y0 / ts))
    r1 = np.minimum(T.rows - 1, ceil(y1 / ts) - 1)
    n = r1 - r0 + 1
    nr = int(n.max()) if m else 0
    if nr <= 0:
        return np.zeros(m, bool), np.full(m, -1, np.int64)
    r = r0 + np.arange(nr)[:, None]
    live = np.arange(nr)[:, None] < n
    i = np.where(live, r * cols + c, 0)
    kind = T.k[i]
    solid = live & (kind == SOLID)
    ramp = solid & np.where(right, T.ramp_r[i], T.ramp_l[i])
    slope = live & (kind == SLOPE)
    bottom = (r + 1) * float(ts)
    below = y1 > bottom + EPS
    low, high = np.where(right, T.face_r[0][i], T.face_l[0][i]), np.where(right, T.face_r[1][i], T.face_l[1][i])
    wall = ~below & (bottom - high < y1) & (y0 < bottom - low)  # (NaN: no face)
    stop = (solid & ~ramp) | (slope & ((below & ~np.where(right, T.cont_r[i], T.cont_l[i])) | wall))
    steps = ramp.sum(axis=0)
    blocked = stop.any(axis=0) | (steps > 0)
    step_row = np.where(~stop.any(axis=0) & (steps == 1), r0 + ramp.argmax(axis=0), -1)
    return blocked, step_row


def _centre_before(edge, half, right, x0, inclusive):
    """``_motion._centre_before`` on arrays (``right`` an array, ``inclusive`` a bool)."""
    x = edge - half
    rs = np.flatnonzero(right)
    if rs.size:
        e, hf, xr = edge[rs], half[rs], x[rs]
        back = (xr + hf > e) if inclusive else (xr + hf >= e)
        for _ in range(_motion._TRIES):
            if not back.any():
                break
            xr[back] = np.nextafter(xr[back], -INF)
            back = (xr + hf > e) if inclusive else (xr + hf >= e)
        for j in np.flatnonzero(back):  # (rare: a centre a float's width from 0, say) one by one
            xr[j] = _motion._centre_before(float(e[j]), float(hf[j]), True, -INF, inclusive)
        x[rs] = np.maximum(xr, x0[rs])
    ls = np.flatnonzero(~right)
    if ls.size:
        e, hf, xl = edge[ls], half[ls], x[ls]
        fwd = xl + hf < e
        for _ in range(_motion._TRIES):
            if not fwd.any():
                break
            xl[fwd] = np.nextafter(xl[fwd], INF)
            fwd = xl + hf < e
        for j in np.flatnonzero(fwd):
            xl[j] = _motion._centre_before(float(e[j]), float(hf[j]), False, INF, inclusive)
        x[ls] = np.minimum(xl, x0[ls])
    return x


def _slope_ahead(T: Tables, y, h, w, x0, x1):
    """``_motion._slope_ahead``: a slope tile in the feet's row along the bottom-centre's way?"""
    ts = T.ts
    half = w * 0.5
    c0, c1 = floor((x0 + half) / ts), floor((x1 + half) / ts)
    lo = clip(np.minimum(c0, c1), 0, T.cols)
    hi = clip(np.maximum(c0, c1), -1, T.cols - 1)
    return (x1 != x0) & (T.span(floor((y + h - EPS) / ts), lo, hi) >= F_SLOPE)


def _climb(T: Tables, y, w, h, x0, x1):
    """``_motion._climb`` for boxes with a slope ahead. Updates ``y`` in place where lifted; returns
    ``(state, nx)``: state 0 no lift needed, 1 lifted to ``nx``, 2 stopped at ``nx`` (a face or a
    blocked lift)."""
    ts, cols = T.ts, T.cols
    m = len(y)
    half = w * 0.5
    c_from, c_to = x0 + half, x1 + half
    feet = y + h
    r = floor((feet - EPS) / ts)
    right = x1 > x0
    cc0, cc1 = floor(c_from / ts), floor(c_to / ts)
    step = np.where(right, 1, -1)
    base = r * cols
    bottom = (r + 1) * float(ts)
    state = np.zeros(m, np.int8)
    nx = x1.copy()
    live = np.arange(m)
    j = 0
    span = np.abs(cc1 - cc0)
    while live.size:
        c = cc0[live] + step[live] * j
        go = (c >= 0) & (c < cols)
        i = np.where(go, base[live] + c, 0)
        go &= T.k[i] == SLOPE
        sel = np.flatnonzero(go)
        if sel.size:
            L = live[sel]
            c, i = c[sel], i[sel]
            left = c * float(ts)
            first, last = c == cc0[L], c == cc1[L]
            rt = right[L]
            seg_a = np.where(first, c_from[L], np.where(rt, left, left + ts))
            seg_b = np.where(last, c_to[L], np.where(rt, left + ts, left))
            fe, bt, hh, ww = feet[L], bottom[L], h[L], w[L]
            face = fe > bt - T.height(i, np.minimum(np.maximum(seg_a - left, 0.0), ts)) + EPS
            surface = bt - T.height(i, np.minimum(np.maximum(seg_b - left, 0.0), ts))
            lift = ~face & (fe > surface)
            done = face | lift
            if face.any():
                f = np.flatnonzero(face)
                back = x0[L[f]].copy()
                nf = ~first[f]
                if nf.any():
                    back[nf] = _centre_before(seg_a[f][nf], half[L[f]][nf], rt[f][nf], x0[L[f]][nf], False)
                state[L[f]] = 2
                nx[L[f]] = back
            if lift.any():
                g = np.flatnonzero(lift)
                Lg = L[g]
                new_y = place_before(surface[g], hh[g])
                to = x1[Lg].copy()
                mid = ~last[g]
                if mid.any():
                    rm = rt[g][mid]
                    to[mid] = np.where(rm, _centre_before(seg_b[g][mid], half[Lg][mid], rm, x0[Lg][mid], False),
                                       seg_b[g][mid] - half[Lg][mid])
                free = box_free(T, to, new_y, ww[g], hh[g]) & (find_ceiling(T, to, ww[g], y[Lg], new_y) == -INF)
                y[Lg[free]] = new_y[free]
                state[Lg[free]] = 1
                nx[Lg[free]] = to[free]
                stuck = ~free
                if stuck.any():
                    back = x0[Lg[stuck]].copy()
                    nf = ~first[g][stuck]
                    if nf.any():
                        back[nf] = _centre_before(seg_a[g][stuck][nf], half[Lg[stuck]][nf], rt[g][stuck][nf],
                                                  x0[Lg[stuck]][nf], True)
                    state[Lg[stuck]] = 2
                    nx[Lg[stuck]] = back
            keep = np.ones(live.size, bool)
            keep[sel[done]] = False
        else:
            keep = np.ones(live.size, bool)
        keep &= span[live] > j
        live = live[keep]
        j += 1
    return state, nx


def move_x(T: Tables, x, y, w, h, tx, can_step):
    """``_motion.move_x`` without platforms, for boxes with ``tx != x``: updates ``x`` and ``y`` in place
    and returns the contact kind code per box (-1 none, 0 a wall, 1 a slope face or a blocked lift); the
    normal is minus the direction of the move."""
    ts, cols = T.ts, T.cols
    m = len(x)
    kind = np.full(m, -1, np.int8)
    right_all = tx > x
    travel = np.abs(tx - x)
    live = np.arange(m)
    lifts = 0
    while live.size:
        xs, ws, hs, ts_, rt = x[live], w[live], h[live], tx[live], right_all[live]
        lead0 = np.where(rt, xs + ws, xs)
        lead1 = np.where(rt, ts_ + ws, ts_)
        cs = np.where(rt, np.maximum(0, ceil((lead0 - EPS) / ts)), np.minimum(cols - 1, floor((lead0 + EPS) / ts) - 1))
        ce = np.where(rt, np.minimum(cols - 1, ceil(lead1 / ts) - 1), np.maximum(0, floor(lead1 / ts)))
        ncols = np.where(rt, ce - cs + 1, cs - ce + 1)
        stop = np.full(live.size, np.nan)
        scan = np.flatnonzero(ncols > 0)
        j = 0
        while scan.size:
            c = cs[scan] + np.where(rt[scan], j, -j)
            edge = np.where(rt[scan], c * float(ts), (c + 1) * float(ts))
            check = np.arange(scan.size)
            while check.size:  # step up onto ramp tops, then look at the column again
                sc = scan[check]
                L = live[sc]
                blocked, step_row = _x_blocked(T, c[check], y[L], y[L] + h[L], rt[sc])
                up = blocked & (step_row >= 0) & can_step[L]
                stepped = np.zeros(check.size, bool)
                if up.any():
                    u = np.flatnonzero(up)
                    Lu = L[u]
                    top = step_row[u] * float(ts)
                    rise = y[Lu] + h[Lu] - top
                    new_y = place_before(top, h[Lu])
                    ok = (0.0 < rise) & (rise <= w[Lu] * 0.5 + travel[Lu] + EPS)
                    ok &= box_free(T, x[Lu], new_y, w[Lu], h[Lu])
                    ok &= find_ceiling(T, x[Lu], w[Lu], y[Lu], new_y) == -INF
                    y[Lu[ok]] = new_y[ok]
                    stepped[u[ok]] = True
                stops = blocked & ~stepped
                stop[sc[stops]] = edge[check[stops]]
                check = check[stepped]
            more = np.isnan(stop[scan]) & (ncols[scan] > j + 1)
            scan = scan[more]
            j += 1
        # the map's side edges
        has = ~np.isnan(stop)
        edge_r = (lead0 - EPS <= T.x_hi) & (T.x_hi < lead1) & (~has | (T.x_hi < stop))
        edge_l = (lead1 < T.x_lo) & (T.x_lo <= lead0 + EPS) & (~has | (T.x_lo > stop))
        stop = np.where(rt & edge_r, T.x_hi, np.where(~rt & edge_l, T.x_lo, stop))
        has = ~np.isnan(stop)
        end = ts_.copy()
        hr = np.flatnonzero(has & rt)
        end[hr] = place_before(stop[hr], ws[hr])
        hl = has & ~rt
        end[hl] = stop[hl]
        hit = np.where(has, 0, -1).astype(np.int8)
        # the bottom-centre: climb the slopes on the way
        y_now = y[live]
        ahead = _slope_ahead(T, y_now, hs, ws, xs, end)
        state = np.zeros(live.size, np.int8)
        nx = end.copy()
        sel = np.flatnonzero(ahead)
        if sel.size:
            yy = y_now[sel]
            state[sel], nx[sel] = _climb(T, yy, ws[sel], hs[sel], xs[sel], end[sel])
            y[live[sel]] = yy
        x[live] = nx
        kind[live] = np.where(state == 2, R_SLOPE, hit)
        again = (state == 1) & (nx != end)
        lifts += 1
        if lifts > 2 * cols + 8:  # (the safety net of move_x: never reached)
            kind[live[again]] = R_SLOPE
            break
        live = live[again]
        if 0 < live.size <= _ONE_BY_ONE:  # a few lifted part-way: on from there, one at a time
            for i in live.tolist():
                box = _Box(float(x[i]), float(y[i]), float(w[i]), float(h[i]))
                hit = _motion.move_x(T.grid, (), box, float(tx[i]), bool(can_step[i]), None, float(travel[i]))
                x[i], y[i] = box.x, box.y
                kind[i] = -1 if hit is None else KINDS.index(hit.kind)
            break
    return kind


class _Box:
    """The fields ``_motion.move_x`` reads and writes."""

    __slots__ = ("h", "w", "x", "y")

    def __init__(self, x, y, w, h):
        self.x, self.y, self.w, self.h = x, y, w, h


def land(T: Tables, x, y, w, h, reach):
    """``_motion.land`` without platforms for boxes not rising: ``(y, kind)`` with kind -1 where nothing
    is under the feet within ``reach``."""
    feet = y + h
    sy, sk = find_support(T, x, w, feet, feet + reach)
    ny = y.copy()
    hit = sk >= 0
    ny[hit] = place_before(sy[hit], h[hit])
    return ny, sk


def _leading_edge(T: Tables, x, w, tx):
    """Where the X pass's leading edge goes: ``(enters, walls, right, cs, ce)``: it reaches new tile
    columns ``cs..ce`` (scan order), it crosses a wall edge of the map."""
    ts, cols = T.ts, T.cols
    right = tx > x
    lead0, lead1 = np.where(right, x + w, x), np.where(right, tx + w, tx)
    cs = np.where(right, np.maximum(0, ceil((lead0 - EPS) / ts)), np.minimum(cols - 1, floor((lead0 + EPS) / ts) - 1))
    ce = np.where(right, np.minimum(cols - 1, ceil(lead1 / ts) - 1), np.maximum(0, floor(lead1 / ts)))
    enters = np.where(right, cs <= ce, ce <= cs)
    walls = np.zeros(len(x), bool)
    if T.x_hi < INF:
        walls |= right & (lead0 - EPS <= T.x_hi) & (T.x_hi < lead1)
    if T.x_lo > -INF:
        walls |= ~right & (lead1 < T.x_lo) & (T.x_lo <= lead0 + EPS)
    return enters, walls, right, cs, ce


def leading_edge(T: Tables, x, y, w, h, tx):
    """The X pass's leading edge for boxes at ``(x, y)`` going to ``tx`` (the short passes' test):
    ``(clear, step_row, col, right)``: ``clear`` where it crosses no wall edge of the map and enters no
    column that stops it; where it enters one column that blocks it with a ramp's top to step up onto,
    the top's row and that column (else row -1)."""
    enters, walls, right, cs, ce = _leading_edge(T, x, w, tx)
    if not enters.any():
        return ~walls, np.full(len(x), -1, np.int64), cs, right
    free, step_row = _open_columns(T, y, y + h, enters, right, cs, ce)
    return ~walls & free, np.where(walls, -1, step_row), cs, right


def _open_columns(T: Tables, y, feet, enters, right, cs, ce):
    """Where the X pass's leading edge enters columns ``cs..ce`` (``_leading_edge``), does its column scan
    stop nowhere? True where it enters none, where they hold nothing solid or sloped in the box's rows,
    and where it enters one column that ``_x_blocked`` lets it through (a slope tile that continues the
    way, a slope face below the box). Returns ``(free, step_row)``: where one column entered blocks it
    with a ramp top to step up onto, that top's row (else -1)."""
    rows = T.rows
    free = ~enters | (T.box(np.maximum(0, floor(y / T.ts)), np.minimum(rows - 1, ceil(feet / T.ts) - 1),
                            np.where(right, cs, ce), np.where(right, ce, cs)) == 0)
    step_row = np.full(len(y), -1, np.int64)
    look = np.flatnonzero(~free & (cs == ce))
    if look.size:
        blocked, step_row[look] = _x_blocked(T, cs[look], y[look], feet[look], right[look])
        free[look] = ~blocked
    return free, step_row


def flat_walk(T: Tables, x, y, w, h, tx, dy, reach, clear):
    """Which boxes, standing on a flat top, make a step that the passes would reduce to ``x = tx``?

    For those, ``move_y`` lands back on the top it stands on, ``move_x`` meets nothing and ``land`` snaps
    back onto the same top: ``y`` is already ``place_before(top, h)``, the step goes down, the leading
    edge is ``clear`` (``leading_edge``: no wall edge, no column that stops it), the top
    has a solid or one-way tile (or the bottom wall) under the box before and after, and no slope tile
    changes what ``find_support`` finds. Only slopes in the row above the top (whose bottom is the top)
    or the row of the top can give a candidate near the top: over the centre in the row above it would be
    higher (excluded), anywhere else it is the top itself or lower, which at most ties, and a tie with a
    solid top is still solid (a one-way top with a slope near is excluded).
    Also a box leaving a solid top for the slope beside it (``_down_slope``).
    Returns ``(mask, kind before, kind after, y after)``: the floor's kind code for the Y pass and for the
    snap, and the y the snap leaves.
    """
    ts, rows, cols = T.ts, T.rows, T.cols
    feet = y + h
    r = np.rint(feet / ts).astype(np.int64)
    top = r * float(ts)
    ok = (y == place_before(top, h)) & (y + dy > y) & clear
    c0, c1 = T.cols_of(x, w)
    n0, n1 = T.cols_of(tx, w)
    d0, d1 = T.span(r, c0, c1), T.span(r, n0, n1)
    bottom = T.y_hi == top
    before = bottom | ((d0 & F_SOLID) != 0)
    after = bottom | ((d1 & F_SOLID) != 0)
    # slopes: none over the centre's way in the row above; near a one-way top, none at all
    half = w * 0.5
    k0, k1 = floor((x + half) / ts), floor((tx + half) / ts)
    lo, hi = np.minimum(k0, k1), np.maximum(k0, k1)
    ok &= T.span(r - 1, clip(lo, 0, cols), clip(hi, -1, cols - 1)) < F_SLOPE
    a, b = np.minimum(c0, n0), np.maximum(c1, n1)
    if T.odd is not None:
        ok &= T.span_odd(r - 1, a, b) == 0
    new_y, kind_after = y.copy(), np.where(after, R_SOLID, R_ONE_WAY).astype(np.int8)
    down = np.flatnonzero(ok & before & ~bottom & ((d1 & F_FLAT) == 0))
    ok &= (bottom | ((d0 & F_FLAT) != 0)) & (bottom | ((d1 & F_FLAT) != 0))
    ok &= (before & after) | (T.box(np.maximum(0, r - 1), np.minimum(rows - 1, r), a, b) <= B_SOLID)
    if down.size:
        good, sy = _down_slope(T, tx[down], w[down], feet[down], r[down], n0[down], n1[down], k1[down], reach[down])
        down = down[good]
        ok[down], new_y[down], kind_after[down] = True, place_before(sy[good], h[down]), R_SLOPE
    return ok, np.where(before, R_SOLID, R_ONE_WAY).astype(np.int8), kind_after, new_y


def _down_slope(T: Tables, tx, w, feet, r, n0, n1, cc, reach):
    """For boxes whose step is otherwise ``flat_walk``'s from a solid top (row ``r``) but that end over no
    solid or one-way tile of that row (columns ``n0..n1``): ``(mask, surface)`` where ``land`` puts them
    on the surface of the slope tile in that row under their new centre (column ``cc``).

    The Y pass lands back on the solid top (slopes near it at most tie, and solid wins a tie); the X pass
    goes to ``tx``. ``land`` then scans flat tops from the top's row, which has none under the box now;
    the slope under the centre is the only candidate in that row (a centre over a slope hides the others),
    the row above has no slope under the box, and the rows below are lower than the surface, kept ``EPS``
    above the slope tile's bottom; the snap's ``reach`` must get down to it."""
    ts, rows, cols = T.ts, T.rows, T.cols
    ok = (cc >= 0) & (cc < cols) & (r >= 0) & (r < rows)
    i = np.where(ok, r * cols + cc, 0)
    ok &= (T.k[i] == SLOPE) & (T.span(r - 1, n0, n1) < F_SLOPE)
    bottom = (r + 1) * float(ts)
    s1 = bottom - T.height(i, (tx + w * 0.5) - cc * ts)
    ok &= (s1 + EPS < bottom) & (feet - EPS <= s1) & (s1 <= feet + reach)
    return ok, s1


def slope_walk(T: Tables, x, y, w, h, tx, dy, reach, clear, step_row, col, right):
    """Which boxes, standing on a slope's surface with the bottom-centre staying in that tile's column,
    make a step the passes reduce to ``x = tx, y = place_before(surface at the new centre)``?

    ``y`` is already ``place_before(surface, h)`` and the feet's row (just above them) is the slope's
    row, so ``find_support`` scans flat tops from the row below, whose candidates (and those of any slope
    further down) are all at or below the slope tile's bottom: the surface, kept ``EPS`` above that
    bottom, wins alone. ``move_x``'s leading edge is ``clear`` (``leading_edge``), so only ``_climb``
    acts: no face
    (the feet are on the surface); uphill it lifts onto the surface at the new centre if the box there
    overlaps no solid and the head crosses no ceiling (else the box is left to the full passes);
    downhill the snap (``reach``) follows the surface down. Returns ``(mask, y after, the surface stood
    on before, the ground's kind after)``. Where the leading edge steps up onto a ramp's top instead
    (``step_row``, ``col``, ``right`` from ``leading_edge``), ``_step_up`` decides.
    """
    ts, rows, cols = T.ts, T.rows, T.cols
    half = w * 0.5
    cx, ncx = x + half, tx + half
    cc = floor(cx / ts)
    feet = y + h
    lot = (feet - EPS) / ts
    r = floor(lot)
    ok = (floor(ncx / ts) == cc) & (cc >= 0) & (cc < cols) & (r >= 0) & (r < rows) & (lot > r)
    i = np.where(ok, r * cols + cc, 0)
    ok &= T.k[i] == SLOPE
    bottom = (r + 1) * float(ts)
    u0, u1 = cx - cc * ts, ncx - cc * ts
    ok &= (u0 >= 0.0) & (u0 <= ts) & (u1 >= 0.0) & (u1 <= ts)  # (so _climb's clamps change nothing)
    s0 = bottom - T.height(i, u0)
    s1 = bottom - T.height(i, u1)
    ok &= (y == place_before(s0, h)) & (y + dy > y) & ((y + dy) + h >= s0)
    ok &= (s0 + EPS < bottom) & (s1 + EPS < bottom)
    steps = np.flatnonzero(ok & (step_row >= 0))
    ok &= clear
    new_y = place_before(s1, h)
    up = feet > s1
    feet1 = np.where(up, new_y + h, feet)
    ok &= (feet1 - EPS) / ts > r  # the snap's window starts in the slope's row too
    ok &= up | (s1 <= feet + reach)
    if up.any():  # the lift: no solid in the box at its new place, no ceiling crossed by the head
        lift_ok = ~solid_overlaps(T, tx, new_y, w, h)
        c0, c1 = T.cols_of(tx, w)
        r_hi = np.minimum(rows - 1, floor((y + EPS) / ts) - 1)
        lift_ok &= T.box(np.maximum(0, floor(new_y / ts)), r_hi, c0, c1) == 0
        if T.y_lo > -INF:
            lift_ok &= ~((new_y < T.y_lo) & (T.y_lo <= y + EPS))
        ok &= ~up | lift_ok
    after = np.full(len(x), R_SLOPE, np.int8)
    if steps.size:  # the leading edge steps up onto a ramp's top
        s = steps
        good, sy = _step_up(T, x[s], y[s], w[s], h[s], tx[s], col[s], step_row[s], right[s])
        s = s[good]
        ok[s], new_y[s], after[s] = True, sy[good], R_SOLID
    return ok, new_y, s0, after


def _step_up(T: Tables, x, y, w, h, tx, c, step_row, right):
    """For boxes on a slope whose step is otherwise ``slope_walk``'s but whose leading edge enters column
    ``c``, blocked there by a solid tile continuing the ramp (row ``step_row``): ``(mask, y)`` where the
    passes reduce the step to ``x = tx, y = place_before(that tile's top, h)`` standing on solid ground.

    ``move_x`` steps up (the rise within reach, the box free at the new height and no ceiling crossed),
    the column no longer blocks, no slope is ahead of the centre in the new feet's row (no climb), so the
    box goes to ``tx``. ``land`` then finds the solid top of that row under the box at ``tx`` and, with no
    slope in the row above it under the box, nothing higher: slopes in the top's row are at or below it
    (a tie is solid's), rows further down lower still."""
    ts = T.ts
    top = step_row * float(ts)
    rise = y + h - top
    ny = place_before(top, h)
    ok = (0.0 < rise) & (rise <= w * 0.5 + np.abs(tx - x) + EPS)
    # (box_free: with no slope ahead of the centre in the new feet's row, none is under it at x either)
    ok &= ~_slope_ahead(T, ny, h, w, x, tx)
    ok &= ~solid_overlaps(T, x, ny, w, h) & (find_ceiling(T, x, w, y, ny) == -INF)
    ok &= ~_x_blocked(T, c, ny, ny + h, right)[0]
    n0, n1 = T.cols_of(tx, w)
    ok &= ((T.span(step_row, n0, n1) & F_SOLID) != 0) & (T.span(step_row - 1, n0, n1) < F_SLOPE)
    return ok, ny


def runway(T: Tables, x, y, w, h, kind, reach=4):
    """For boxes that ``flat_walk`` passed at ``x``: an x range ``lo..hi`` (``lo > hi``: none) around them
    where every step of theirs at this ``y`` is again such a step, with this floor ``kind`` before and
    after and no ledge or wall ahead: a run of columns, each with a tile of that kind under the box and
    nothing solid or sloped in the box's rows or the row above the top (for a one-way floor, no slope in
    the top's row either), a pixel short of its ends (``walk``'s look ahead stays on it). Boxes no taller
    than a tile take the whole run (precomputed per row); taller ones look ``reach`` columns each side."""
    ts, rows, cols = T.ts, T.rows, T.cols
    feet = y + h
    r = np.rint(feet / ts).astype(np.int64)
    c0, c1 = T.cols_of(x, w)
    solid = kind == R_SOLID
    lo, hi = np.full(len(x), INF), np.full(len(x), -INF)
    short = (h <= ts) & (r >= 0) & (r < rows)
    s = np.flatnonzero(short)
    if s.size:
        start, end = T.runs()
        i0 = np.where(solid[s], 0, rows * cols) + r[s] * cols
        a, b = start[i0 + c0[s]], end[i0 + c1[s]]
        ok = (a >= 0) & (end[i0 + c0[s]] >= c1[s])  # (the box's columns on one run; -1: not on a run)
        lo[s] = np.where(ok, a * float(ts) + 1.0, INF)
        hi[s] = np.where(ok, (b + 1) * float(ts) - w[s] - 1.0, -INF)
    t = np.flatnonzero(~short)
    if t.size:
        r, c0, c1, solid = r[t], c0[t], c1[t], solid[t]
        a, b = np.maximum(0, c0 - reach), np.minimum(cols - 1, c1 + reach)
        d = T.span(r, a, b)
        ok = np.where(solid, d & F_SOLID, (d >> 21) & F_SOLID) == b - a + 1
        ok &= T.box(np.maximum(0, floor(y[t] / ts)), np.minimum(rows - 1, ceil(feet[t] / ts) - 1), a, b) == 0
        ok &= T.span(r - 1, a, b) < F_SLOPE
        ok &= solid | (T.box(np.maximum(0, r - 1), np.minimum(rows - 1, r), a, b) <= B_SOLID)
        if T.odd is not None:
            ok &= T.span_odd(r - 1, a, b) == 0
        lo[t] = np.where(ok, a * float(ts) + 1.0, INF)
        hi[t] = np.where(ok, (b + 1) * float(ts) - w[t] - 1.0, -INF)
    return lo, hi, kind

