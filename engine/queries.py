"""Queries: what is at a point, inside a box, or first along a segment (tiles, platforms, triggers, actors).

``World.tile_at``, ``query_point``, ``query_rect`` and ``raycast`` are thin wrappers over these. Bodies come
from the world's spatial hash (``_spatial.py``), so a query costs what is near it, not the number of bodies.

A raycast hits where the segment first *enters* something (touching or grazing is not a hit, as for boxes):
- tiles: solid tiles, the shape under a slope's surface (its surface, vertical sides and flat bottom) and
  the walled sides of the map, as one solid mass: a segment running along the seam between two solid
  tiles is inside them; one through a corner where two tiles only touch diagonally passes;
- one-way tiles and one-way platforms: their top edge (ends included), only by a segment going down;
- solid platforms and (``actors=True``) actors: each its own box.
A segment that starts inside solid tiles, a wall, a solid platform or an actor hits it at once (fraction 0,
normal (0, 0)); ``ignore`` skips bodies (the one casting). Triggers and ropes are never hit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, NamedTuple

from . import _check
from .bodies import Actor, Trigger
from .geometry import overlaps
from .platforms import Platform
from .tiles import ONE_WAY, SLOPE, SOLID, TileKind

__all__ = ["RayHit", "Tile", "query_point", "query_rect", "raycast", "tile_at"]

_floor, _ceil, _inf = math.floor, math.ceil, math.inf
_NONE, _FULL, _PART = 0, 1, 2  # how a cell fills its box: not at all, wholly, partly (a slope)
_INSIDE = (0.0, 0.0)  # the normal of a segment that starts inside what it hits
_OPEN = (0, ONE_WAY)  # kinds a segment passes through (a one-way tile stops it only at its top line)


class Tile(NamedTuple):
    """A tile of the grid: its column, row and kind (``world.tile_at``, ``RayHit.tile``)."""

    col: int
    row: int
    kind: TileKind


class RayHit(NamedTuple):
    """Where a segment first entered something (``world.raycast``)."""

    x: float  # px, the hit point
    y: float  # px
    normal: tuple[float, float]  # unit vector out of the surface hit; (0.0, 0.0) when the segment starts inside
    fraction: float  # 0..1 along the segment
    tile: Tile | None  # the tile hit, or None (a wall edge of the map, a platform, an actor)
    obj: Any = None  # the Platform or Actor hit, or None


def _numbers(owner: str, names: tuple, values: tuple) -> tuple:
    """The arguments as finite floats (the usual case, floats and ints, checked cheaply); anything else
    gets ``_check.number``'s one-line error."""
    for v in values:
        if (v.__class__ is not float and v.__class__ is not int) or v - v != 0:
            return tuple(_check.number(owner, n, v) for n, v in zip(names, values, strict=True))
    return tuple(float(v) for v in values)


# -- points and boxes ------------------------------------------------------------------------------
def tile_at(grid, x: float, y: float) -> Tile:
    """The tile holding the point (a point on a tile edge belongs to the tile right of / below it);
    outside the map its kind is EMPTY (the map's walls are edges, not tiles)."""
    x, y = _numbers("tile_at", ("x", "y"), (x, y))
    ts = grid.tile_size
    col, row = _floor(x / ts), _floor(y / ts)
    return Tile(col, row, grid.kind_at(col, row))


def query_rect(world, x: float, y: float, w: float, h: float) -> list:
    """Actors, platforms and triggers strictly overlapping the box (touching does not count), in the order
    they were added to the world; then the crowds' walkers, crowd by crowd, in row order."""
    x, y, w, h = _numbers("query_rect", ("x", "y", "w", "h"), (x, y, w, h))
    if w < 0.0 or h < 0.0:
        _check.size("query_rect", "w", w, zero=True)
        _check.size("query_rect", "h", h, zero=True)
    world._sync_triggers()
    found = [o for o in world._hash.query(x, y, w, h) if overlaps(x, y, w, h, o.x, o.y, o.w, o.h)]
    for crowd in world.crowds:
        found += crowd._in_box(x, y, w, h)
    return found


def query_point(world, x: float, y: float) -> list:
    """Actors, platforms and triggers holding the point, in the order added. A box holds the points on its
    left and top edges, not those on its right and bottom edges (like pixels and tiles), so a point on
    the edge two boxes share is in exactly one of them; a box of zero width or height holds none. Then
    the crowds' walkers holding it, crowd by crowd, in row order."""
    x, y = _numbers("query_point", ("x", "y"), (x, y))
    world._sync_triggers()
    found = [o for o in world._hash.query(x, y, 0.0, 0.0) if o.x <= x < o.x + o.w and o.y <= y < o.y + o.h]
    for crowd in world.crowds:
        found += crowd._holding(x, y)
    return found


# -- raycasts --------------------------------------------------------------------------------------
def raycast(world, x0: float, y0: float, x1: float, y1: float, actors: bool = False, ignore=None):
    """The first thing the segment from (x0, y0) to (x1, y1) enters: a RayHit, or None.

    ``actors``: actors count too. ``ignore``: a body, or bodies, never hit (the one casting the ray).
    On an exact tie tiles come first, then platforms, then actors, each in the order added.
    """
    x0, y0, x1, y1 = _numbers("raycast", ("x0", "y0", "x1", "y1"), (x0, y0, x1, y1))
    if actors is not True and actors is not False:
        actors = _check.flag("raycast", "actors", actors)
    skip = _ignored(ignore)
    dx, dy = x1 - x0, y1 - y0
    grid = world.grid
    best = _cast_tiles(grid, x0, y0, dx, dy)  # (t, x, y, normal, tile) or None
    limit = 1.0 if best is None else best[0]
    body = _cast_bodies(world, x0, y0, dx, dy, actors, skip, limit)
    if body is not None and (best is None or body[0] < best[0]):
        t, x, y, normal, obj = body
        return RayHit(x, y, normal, t, None, obj)
    if best is None:
        return None
    t, x, y, normal, tile = best
    return RayHit(x, y, normal, t, tile, None)


def _ignored(ignore) -> set:
    if ignore is None:
        return set()
    if isinstance(ignore, (Actor, Platform, Trigger)):
        return {id(ignore)}
    if not isinstance(ignore, Iterable) or isinstance(ignore, (str, bytes)):
        raise TypeError(f"raycast: ignore must be a body or a list of bodies, got {type(ignore).__name__}")
    return {id(o) for o in ignore}


# -- the tiles and the map's walls -----------------------------------------------------------------
def _cell(grid, c: int, r: int):
    """``(fill, index)`` of cell (c, r): _FULL for a solid tile, a slope filling its box, or a cell beyond a
    walled side; _PART for a slope; _NONE otherwise. ``index`` is the flat tile index (-1 off the map)."""
    cols = grid.cols
    if 0 <= c < cols and 0 <= r < grid.rows:
        i = r * cols + c
        kind = grid._k[i]
        if kind == SOLID:
            return _FULL, i
        if kind == SLOPE:
            sl, sr, ts = grid._sl[i], grid._sr[i], grid.tile_size
            if sl >= ts and sr >= ts:
                return _FULL, i
            return (_PART if sl > 0.0 or sr > 0.0 else _NONE), i
        return _NONE, i
    e = grid.edges
    walled = (c < 0 and e.left) or (c >= cols and e.right) or (r < 0 and e.top) or (r >= grid.rows and e.bottom)
    return (_FULL if walled else _NONE), -1


def _surface(grid, i: int, c: int, r: int, x0: float, y0: float, dx: float, dy: float):
    """Slope tile ``i`` at (c, r): ``g(t) = a + b*t`` is how far below its surface (px, along y) the
    segment's point at ``t`` is; returns (a, b, k) with k the surface's rise per px (y up)."""
    ts = grid.tile_size
    sl = grid._sl[i]
    k = (grid._sr[i] - sl) / ts
    a = y0 - (r + 1) * ts + sl + k * (x0 - c * ts)
    return a, dy + k * dx, k


def _point_inside(grid, x: float, y: float) -> bool:
    """Is the point inside the solid mass of tiles and walls (every cell around it fills its side of it)?"""
    ts = grid.tile_size
    fx, fy = x / ts, y / ts
    c, r = _floor(fx), _floor(fy)
    for cc in ((c - 1, c) if fx == c else (c,)):
        for rr in ((r - 1, r) if fy == r else (r,)):
            fill, i = _cell(grid, cc, rr)
            if fill == _NONE:
                return False
            if fill == _PART:
                a, _b, _k = _surface(grid, i, cc, rr, x, y, 0.0, 0.0)
                if a <= 0.0:
                    return False
    return True


def _clip(lo: float, hi: float, p0: float, d: float, t0: float, t1: float):
    """Liang-Barsky on one axis: the part of [t0, t1] where p0 + t*d lies in [lo, hi], or None."""
    if d == 0.0:
        return (t0, t1) if lo <= p0 <= hi else None
    ta, tb = (lo - p0) / d, (hi - p0) / d
    if ta > tb:
        ta, tb = tb, ta
    t0, t1 = max(t0, ta), min(t1, tb)
    return (t0, t1) if t0 <= t1 else None


def _cast_tiles(grid, x0: float, y0: float, dx: float, dy: float):
    """``(t, x, y, normal, tile)`` where the segment first enters the tiles or a wall, or None."""
    ts = grid.tile_size
    if _point_inside(grid, x0, y0):
        inside = tile_at(grid, x0, y0)
        on_map = 0 <= inside.col < grid.cols and 0 <= inside.row < grid.rows
        return 0.0, x0, y0, _INSIDE, inside if on_map else None
    if dx == 0.0 and dy == 0.0:
        return None
    # Tiles only exist on the map: walk the cells of the map and one cell around it (so the walls beside
    # the map are seen as cells too); beyond that only the walls can be hit, found directly.
    span = _clip(-ts, grid.width + ts, x0, dx, 0.0, 1.0)
    span = span and _clip(-ts, grid.height + ts, y0, dy, span[0], span[1])
    if span is None or span[0] == span[1]:
        return _wall_entry(grid, x0, y0, dx, dy, 0.0, 1.0)
    t_in, t_out = span
    if t_in > 0.0:
        hit = _wall_entry(grid, x0, y0, dx, dy, 0.0, t_in)
        if hit is not None:
            return hit
    hit = _walk(grid, x0, y0, dx, dy, t_in, t_out)
    if hit is not None or t_out >= 1.0:
        return hit
    return _wall_entry(grid, x0, y0, dx, dy, t_out, 1.0)


def _next_line(p0: float, d: float, t: float, ts: int):
    """The index of the next grid line the coordinate ``p0 + t*d`` crosses after ``t``, and when."""
    if d == 0.0:
        return 0, _inf
    p = p0 + t * d
    n = _floor(p / ts) + 1 if d > 0.0 else _ceil(p / ts) - 1
    step = 1 if d > 0.0 else -1
    tn = (n * ts - p0) / d
    while tn <= t:
        n += step
        tn = (n * ts - p0) / d
    return n, tn


def _walk(grid, x0: float, y0: float, dx: float, dy: float, t: float, t_out: float):
    """Walk the cells along the segment from ``t`` to ``t_out``; the first entry into the solid mass or
    crossing of a one-way top, as ``(t, x, y, normal, tile)``."""
    ts = grid.tile_size
    seam_x = dx == 0.0 and (x0 / ts).is_integer()  # running along a vertical grid line
    seam_y = dy == 0.0 and (y0 / ts).is_integer()
    px, py = x0 + t * dx, y0 + t * dy
    on_x = (px / ts).is_integer() and dx != 0.0  # is t on a vertical / horizontal grid line?
    on_y = (py / ts).is_integer() and dy != 0.0
    cx, tx = _next_line(x0, dx, t, ts)
    cy, ty = _next_line(y0, dy, t, ts)
    col = cx - 1 if dx > 0.0 else cx if dx < 0.0 else _floor(x0 / ts)
    row = cy - 1 if dy > 0.0 else cy if dy < 0.0 else _floor(y0 / ts)
    sx, sy = (1 if dx > 0.0 else -1), (1 if dy > 0.0 else -1)
    cols, rows, k = grid.cols, grid.rows, grid._k
    plain = not (seam_x or seam_y)
    while True:
        t_next = tx if tx < ty else ty
        if t_out < t_next:
            t_next = t_out
        # one-way tops on the line just crossed (going down): row `row` is the one below it
        ways = _one_way_tops(grid, x0 + t * dx, row) if on_y and dy > 0.0 and t < 1.0 else ()
        if plain and 0 <= col < cols and 0 <= row < rows and k[row * cols + col] in _OPEN:
            entry = None  # (the usual cell: air)
        else:
            cells = [(col - 1, row), (col, row)] if seam_x else [(col, row - 1), (col, row)] if seam_y \
                else [(col, row)]
            entry = _enter_piece(grid, cells, x0, y0, dx, dy, t, t_next)
        if entry is not None and entry[0] == t:  # (it wins a tie with a one-way top: the segment goes on in it)
            return _solid_hit(grid, x0, y0, dx, dy, t, col, row, on_x, on_y, entry[1])
        if ways:  # the tile the segment goes on into, else the one whose top it just touched at an end
            c = col if (col, row) in ways else ways[0][0]
            return t, x0 + t * dx, float(row * ts), (0.0, -1.0), Tile(c, row, TileKind.ONE_WAY)
        if entry is not None:  # through a slope's surface, inside the cell
            return _solid_hit(grid, x0, y0, dx, dy, entry[0], col, row, False, False, entry[1])
        if t_next >= t_out:
            return None
        on_x, on_y = tx == t_next, ty == t_next
        if on_x:  # (each crossing from its own line, never summed: corners stay exact)
            col += sx
            cx += sx
            tx = (cx * ts - x0) / dx
            if tx <= t_next:
                cx, tx = _next_line(x0, dx, t_next, ts)
        if on_y:
            row += sy
            cy += sy
            ty = (cy * ts - y0) / dy
            if ty <= t_next:
                cy, ty = _next_line(y0, dy, t_next, ts)
        t = t_next


def _one_way_tops(grid, x: float, row: int) -> list:
    """One-way tiles in ``row`` whose top edge (ends included) holds x: [(col, row), ...], col ascending."""
    if not 0 <= row < grid.rows:
        return []
    ts, cols, k = grid.tile_size, grid.cols, grid._k
    f = x / ts
    c = _floor(f)
    base = row * cols
    return [(cc, row) for cc in ((c - 1, c) if f == c else (c,)) if 0 <= cc < cols and k[base + cc] == ONE_WAY]


def _enter_piece(grid, cells, x0, y0, dx, dy, ta: float, tb: float):
    """Where the piece (ta, tb) of the segment, lying in ``cells`` (two when it runs along their shared
    edge), first enters the solid mass: ``(t, k)`` with k the rise of the slope surface it crosses there
    (None when it enters through a side), or None."""
    fills = []  # (a, b, k, n) of each slope among the cells: g(t) = a + b*t > 0 below its surface
    for n, (c, r) in enumerate(cells):
        fill, i = _cell(grid, c, r)
        if fill == _NONE:
            return None
        if fill == _PART:
            fills.append((*_surface(grid, i, c, r, x0, y0, dx, dy), n))
    if not fills:
        return ta, None
    roots = [(-a / b, b, k, n) for a, b, k, n in fills if b != 0.0]  # where the segment meets each surface
    cuts = sorted(root for root, _b, _k, _n in roots if ta < root < tb)
    start = ta
    for end in cuts + [tb]:
        mid = (start + end) * 0.5
        if all(a + b * mid > 0.0 for a, b, _k, _n in fills):
            # through a surface when one meets the segment here going in (b > 0: ever deeper); on a seam
            # the surface of the right / lower cell (the last) first
            entered = [(n, k) for root, b, k, n in roots if root == start and b > 0.0]
            return start, max(entered)[1] if entered else None
        start = end
    return None


def _solid_hit(grid, x0, y0, dx, dy, t, col, row, on_x, on_y, surface):
    """The record of an entry into the solid mass at ``t`` into cell (col, row) (for a piece along a seam,
    the right / lower of its two cells)."""
    ts = grid.tile_size
    x = float(round((x0 + t * dx) / ts) * ts) if on_x else x0 + t * dx  # (exactly on the grid line)
    y = float(round((y0 + t * dy) / ts) * ts) if on_y else y0 + t * dy
    normal = _entry_normal(grid, col, row, on_x, on_y, surface, dx, dy)
    on_map = 0 <= col < grid.cols and 0 <= row < grid.rows
    return t, x, y, normal, Tile(col, row, grid.kind_at(col, row)) if on_map else None


def _entry_normal(grid, col, row, on_x, on_y, surface, dx, dy) -> tuple[float, float]:
    """The face of cell (col, row) the segment enters it through: its slope surface, or a side on a grid
    line crossed there, unless the neighbour across that side is solid (then the side is inside the solid
    mass). Several (a corner): the one met most head-on; on a tie a floor or ceiling, then a slope, then a
    wall. None (an inside corner of the mass): the axis face met most head-on."""
    fill, i = _cell(grid, col, row)
    found = []  # (how head-on, preference, normal)
    if surface is not None:
        n = math.hypot(surface, 1.0)
        nx, ny = -surface / n, -1.0 / n  # (y grows down: a surface rising to the right faces up and left)
        found.append((-(nx * dx + ny * dy), 1, (nx, ny)))
    if on_x and dx != 0.0:
        side = -1 if dx > 0.0 else 1  # the neighbour the segment came from
        height = grid.tile_size if fill == _FULL else grid._sl[i] if dx > 0.0 else grid._sr[i]
        if height > 0.0 and _cell(grid, col + side, row)[0] != _FULL:
            found.append((abs(dx), 2, (float(side), 0.0)))
    if on_y and dy != 0.0 and (fill == _FULL or dy < 0.0):  # (a slope's top is not a face)
        side = -1 if dy > 0.0 else 1
        if _cell(grid, col, row + side)[0] != _FULL:
            found.append((abs(dy), 0, (0.0, float(side))))
    if not found:
        if dx != 0.0:
            found.append((abs(dx), 2, (-1.0 if dx > 0.0 else 1.0, 0.0)))
        if dy != 0.0:
            found.append((abs(dy), 0, (0.0, -1.0 if dy > 0.0 else 1.0)))
    return min(found, key=lambda f: (-f[0], f[1]))[2]


_WALLS = (  # side, axis (0: x, 1: y), the line's place: 0 or the map's size, which way is inward, normal
    ("left", 0, False, -1.0, (1.0, 0.0)),
    ("right", 0, True, 1.0, (-1.0, 0.0)),
    ("top", 1, False, -1.0, (0.0, 1.0)),
    ("bottom", 1, True, 1.0, (0.0, -1.0)),
)


def _wall_entry(grid, x0: float, y0: float, dx: float, dy: float, lo: float, hi: float):
    """Off the map's cells only the walls are solid: where in [lo, hi) the segment first crosses into one,
    as ``(t, x, y, normal, None)``, or None."""
    found = []
    for side, axis, far, inward, normal in _WALLS:
        if not getattr(grid.edges, side):
            continue
        p0, d = (x0, dx) if axis == 0 else (y0, dy)
        line = (grid.width if axis == 0 else grid.height) if far else 0.0
        if d * inward <= 0.0:
            continue  # moving along it or away from it
        t = (line - p0) / d
        if lo <= t < hi:
            x = float(line) if axis == 0 else x0 + t * dx
            y = float(line) if axis == 1 else y0 + t * dy
            found.append((t, -abs(d), axis == 0, x, y, normal))
    if not found:
        return None
    t, _how, _wall, x, y, normal = min(found)
    return t, x, y, normal, None


# -- platforms and actors --------------------------------------------------------------------------
def _enter_box(x0, y0, dx, dy, bx, by, bw, bh):
    """``(t, normal, x, y)`` where the segment first enters the open box, or None; t = 0 with normal
    (0, 0) when it starts strictly inside. Touching or grazing a face is no hit."""
    if bx < x0 < bx + bw and by < y0 < by + bh:
        return 0.0, _INSIDE, x0, y0
    slab_x = _slab(x0, dx, bx, bx + bw)
    slab_y = slab_x and _slab(y0, dy, by, by + bh)
    if slab_y is None:
        return None
    (nx_t, fx_t), (ny_t, fy_t) = slab_x, slab_y
    enter, leave = max(nx_t, ny_t), min(fx_t, fy_t)
    if not (enter < leave and 0.0 <= enter < 1.0):
        return None
    x_face = nx_t > ny_t or (nx_t == ny_t and abs(dx) > abs(dy))
    if x_face:
        face = bx if dx > 0.0 else bx + bw
        return enter, (-1.0 if dx > 0.0 else 1.0, 0.0), face, y0 + enter * dy
    face = by if dy > 0.0 else by + bh
    return enter, (0.0, -1.0 if dy > 0.0 else 1.0), x0 + enter * dx, face


def _slab(p0: float, d: float, lo: float, hi: float):
    """When the coordinate ``p0 + t*d`` is strictly between lo and hi: (from, to) in t, or None."""
    if d == 0.0:
        return (-_inf, _inf) if lo < p0 < hi else None
    near, far = (lo - p0) / d, (hi - p0) / d
    return (near, far) if near <= far else (far, near)


def _enter_top(x0, y0, dx, dy, bx, by, bw):
    """A one-way top (the edge y = by from bx to bx + bw, ends included) crossed going down:
    ``(t, normal, x, y)`` or None."""
    if dy <= 0.0 or y0 > by:
        return None
    t = (by - y0) / dy
    if t >= 1.0:
        return None
    x = x0 + t * dx
    if bx <= x <= bx + bw:
        return t, (0.0, -1.0), x, by
    return None


def _cast_bodies(world, x0, y0, dx, dy, actors: bool, skip: set, limit: float):
    """``(t, x, y, normal, obj)`` of the first platform (or actor) the segment enters at ``t <= limit``:
    the hash's cells along the segment, nearest first, until a hit is nearer than the next cell."""
    space = world._hash
    if not len(space):
        return None
    if space.pending:
        space.flush()
    best = None  # (t, rank, order, normal, x, y, obj)
    seen = set(skip)
    order = space._order
    for t_cell, bucket in _hash_cells(space, x0, y0, dx, dy, limit):
        if best is not None and t_cell > best[0]:
            break
        for o in bucket:
            if id(o) in seen:
                continue
            seen.add(id(o))
            if isinstance(o, Trigger):
                continue
            if isinstance(o, Actor):
                if not actors:
                    continue
                rank, hit = 2, _enter_box(x0, y0, dx, dy, o.x, o.y, o.w, o.h)
            elif o.one_way:
                rank, hit = 1, _enter_top(x0, y0, dx, dy, o.x, o.y, o.w)
            else:
                rank, hit = 1, _enter_box(x0, y0, dx, dy, o.x, o.y, o.w, o.h)
            if hit is None or hit[0] > limit:
                continue
            key = (hit[0], rank, order[o], hit[1], hit[2], hit[3], o)
            if best is None or key[:3] < best[:3]:
                best = key
    if best is None:
        return None
    t, _rank, _order, normal, x, y, obj = best
    return t, x, y, normal, obj


_SCAN = 4  # a ray crossing more than this many cells per occupied cell of the hash scans the occupied ones


def _occupied_along(cells, cell, x0, y0, dx, dy, limit):
    """``_hash_cells`` for a segment crossing many more cells than are occupied: each occupied cell the
    segment meets (its closed square: a corner or an edge run along is met), by the t it first reaches
    it, nearest first; the cost is the occupied cells', not the segment's length."""
    met = []
    for key, bucket in cells.items():
        c, r = key
        span = _clip(c * cell, (c + 1) * cell, x0, dx, 0.0, limit)
        span = span and _clip(r * cell, (r + 1) * cell, y0, dy, span[0], span[1])
        if span is not None:
            met.append((span[0], key, bucket))
    met.sort(key=_by_entry)
    for t, _key, bucket in met:
        yield t, bucket


def _by_entry(item):
    return item[0], item[1]


def _hash_cells(space, x0, y0, dx, dy, limit):
    """The hash's lists along the segment up to ``limit``, as (t where the segment reaches the cell,
    objects), nearest first (conservatively: at a corner the cells on both sides too); then the
    objects too big for the cells."""
    cell, cells = space.cell, space._cells
    if space._big:
        yield 0.0, list(space._big)
    if not cells:
        return
    crossed = (abs(dx) + abs(dy)) * limit / cell + 2.0  # about how many cells the walk below visits
    if crossed > _SCAN * len(cells):  # a long ray past few occupied cells: those cells, by when it reaches each
        yield from _occupied_along(cells, cell, x0, y0, dx, dy, limit)
        return
    c, r = _floor(x0 / cell), _floor(y0 / cell)
    extra_c = [c - 1] if (x0 / cell).is_integer() else []  # a start on a cell edge: both sides
    extra_r = [r - 1] if (y0 / cell).is_integer() else []
    for cc in [c] + extra_c:
        for rr in [r] + extra_r:
            b = cells.get((cc, rr))
            if b:
                yield 0.0, b
    sx = 1 if dx > 0.0 else -1
    sy = 1 if dy > 0.0 else -1
    nx = (c + (1 if dx > 0.0 else 0)) * cell
    ny = (r + (1 if dy > 0.0 else 0)) * cell
    tx = (nx - x0) / dx if dx != 0.0 else _inf
    ty = (ny - y0) / dy if dy != 0.0 else _inf
    while True:
        t = min(tx, ty)
        if t > limit:
            return
        step_x, step_y = tx == t, ty == t
        if step_x and step_y:  # through a corner: the two cells beside it as well
            for cc, rr in ((c + sx, r), (c, r + sy)):
                b = cells.get((cc, rr))
                if b:
                    yield t, b
        if step_x:
            c += sx
            tx = ((c + (1 if dx > 0.0 else 0)) * cell - x0) / dx
        if step_y:
            r += sy
            ty = ((r + (1 if dy > 0.0 else 0)) * cell - y0) / dy
        b = cells.get((c, r))
        if b:
            yield t, b
        # a segment along a cell edge also meets the cells on the other side of it
        if dx == 0.0 and extra_c:
            b = cells.get((c - 1, r))
            if b:
                yield t, b
        if dy == 0.0 and extra_r:
            b = cells.get((c, r - 1))
            if b:
                yield t, b
