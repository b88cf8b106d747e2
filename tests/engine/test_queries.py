"""World queries (engine/queries.py): tile_at, query_point, query_rect and raycast, step by step on small
maps, then against brute force on random scenes: every query, and raycasts along tile edges, through
tile corners, of zero length and starting inside solids.

The brute-force raycast is written from the definition with exact fractions: it cuts the segment at every
grid line and slope line it crosses, tests the middle of each piece for being inside the solid mass, and
takes the first piece inside; one-way tops and bodies are tested one by one."""

from __future__ import annotations

import math
import os
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import numpy as np

from engine import Actor, Edges, Platform, RayHit, Tile, TileGrid, TileKind, Trigger, World, queries

TS = 16
SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "150")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
R2 = math.sqrt(0.5)


def world_of(text: str, edges: Edges | None = None) -> World:
    return World(TileGrid.from_ascii(text, edges=edges))


ROOM = """
..........
....#.....
..........
..==.....p
####\\..###
##########
"""


# -- step by step ------------------------------------------------------------------------------------------

def test_tile_at():
    w = world_of(ROOM)
    assert w.tile_at(65, 20) == Tile(4, 1, TileKind.SOLID) == (4, 1, TileKind.SOLID)
    assert w.tile_at(64, 16) == (4, 1, TileKind.SOLID)  # on an edge: the tile right of / below it
    assert w.tile_at(63.99, 15.99) == (3, 0, TileKind.EMPTY)
    assert w.tile_at(-3, 2) == (-1, 0, TileKind.EMPTY)  # off the map: EMPTY (the walls are edges)
    assert w.tile_at(1000, 1000) == (62, 62, TileKind.EMPTY)


def test_raycast_hits_a_wall_face():
    w = world_of(ROOM)
    hit = w.raycast(1, 20, 150, 20)
    assert hit == RayHit(64.0, 20.0, (-1.0, 0.0), hit.fraction, Tile(4, 1, TileKind.SOLID), None)
    assert hit.fraction == pytest.approx(63 / 149)
    hit = w.raycast(100, 24, 10, 24)
    assert (hit.x, hit.normal, hit.tile.col) == (80.0, (1.0, 0.0), 4)


def test_raycast_lands_on_one_way_tops_only_from_above():
    w = world_of(ROOM)
    hit = w.raycast(40, 0, 40, 70)
    assert (hit.x, hit.y, hit.normal, hit.tile) == (40.0, 48.0, (0.0, -1.0), (2, 3, TileKind.ONE_WAY))
    assert w.raycast(40, 70 - 8, 40, 20) is None  # from below: through it (up to the row above)
    assert w.raycast(40, 50, 40, 70).tile == (2, 4, TileKind.SOLID)  # started inside it: the floor below
    hit = w.raycast(40, 48, 40, 60)  # starting on its top, going down
    assert (hit.fraction, hit.normal, hit.tile.col) == (0.0, (0.0, -1.0), 2)
    assert w.raycast(30, 48, 80, 48) is None or w.raycast(30, 48, 80, 48).tile.kind != TileKind.ONE_WAY


def test_raycast_hits_a_slope_on_its_surface():
    w = world_of(ROOM)
    hit = w.raycast(150, 40, 150, 90)  # 'p' at col 9, row 3: 0 -> 8 px rising right
    assert hit.tile == (9, 3, TileKind.SLOPE)
    assert hit.y == pytest.approx(64 - 8 * 6 / 16)
    k = 0.5
    assert hit.normal == pytest.approx((-k / math.hypot(k, 1), -1 / math.hypot(k, 1)))
    hit = w.raycast(100, 70, 60, 70)  # '\\' at col 4 row 4 (16 -> 0 rising left): its right edge is low
    assert hit.tile == (4, 4, TileKind.SLOPE) and hit.normal == pytest.approx((R2, -R2))
    assert hit.x == pytest.approx(70.0)  # the surface is at y = 70 there


def test_raycast_along_a_seam_between_solid_tiles_is_inside_them():
    w = world_of("""
..........
.....##...
.....##...
..........
##########
""")
    hit = w.raycast(0.5, 32, 150, 32)  # along y = 32, between rows 1 and 2 of the block
    assert (hit.x, hit.y, hit.normal, hit.tile) == (80.0, 32.0, (-1.0, 0.0), (5, 2, TileKind.SOLID))
    hit = w.raycast(96, 0.5, 96, 60)  # along x = 96, between its two columns
    assert (hit.x, hit.y, hit.normal, hit.tile) == (96.0, 16.0, (0.0, -1.0), (6, 1, TileKind.SOLID))
    assert w.raycast(0.5, 16, 150, 16) is None or w.raycast(0.5, 16, 150, 16).tile is None  # grazes its top
    assert w.raycast(0.5, 48, 159, 48) is None  # grazes its bottom


def test_raycast_through_a_corner_where_tiles_only_touch_passes():
    w = world_of("""
....
.#..
..#.
....
""", Edges(False, False, False, False))
    assert w.raycast(48, 16, 16, 48) is None  # through (32, 32), where the two solids only touch
    hit = w.raycast(0, 0, 64, 64)  # along the other diagonal it enters the first one at its corner
    assert (hit.x, hit.y, hit.tile) == (16.0, 16.0, (1, 1, TileKind.SOLID))


def test_raycast_at_a_tile_corner_takes_the_face_met_head_on():
    w = world_of("....\n....\n..#.\n....", Edges(False, False, False, False))
    assert w.raycast(0, 0, 48, 48).normal == (0.0, -1.0)  # 45 degrees: a floor first
    assert w.raycast(16, 0, 40, 48).normal == (0.0, -1.0)  # steep: its top
    assert w.raycast(0, 16, 64, 48).normal == (-1.0, 0.0)  # shallow: its side
    w = world_of("....\n..#.\n..#.\n....", Edges(False, False, False, False))  # a wall two tiles high
    hit = w.raycast(16, 0, 40, 48)  # steep, into (32, 32): a point on the wall's face
    assert (hit.x, hit.y, hit.normal, hit.tile) == (32.0, 32.0, (-1.0, 0.0), (2, 2, TileKind.SOLID))


def test_raycast_starting_inside_solids_hits_at_once():
    w = world_of(ROOM)
    hit = w.raycast(10, 70, 10, 75)
    assert hit == RayHit(10.0, 70.0, (0.0, 0.0), 0.0, Tile(0, 4, TileKind.SOLID), None)
    hit = w.raycast(-5, 5, 10, 5)  # beyond the left wall
    assert hit == RayHit(-5.0, 5.0, (0.0, 0.0), 0.0, None, None)
    hit = w.raycast(70, 78, 75, 20)  # under a slope's surface
    assert hit.fraction == 0.0 and hit.tile == (4, 4, TileKind.SLOPE)
    assert w.raycast(0, 10, 0, 20) is None  # along the left wall's face: touching, not inside


def test_zero_length_segments():
    w = world_of(ROOM)
    assert w.raycast(10, 10, 10, 10) is None
    assert w.raycast(10, 70, 10, 70) == RayHit(10.0, 70.0, (0.0, 0.0), 0.0, Tile(0, 4, TileKind.SOLID), None)
    assert w.raycast(16, 64, 16, 64) is None  # on the floor's top corner: touching


def test_raycast_map_edges():
    w = world_of("....\n....", Edges(left=True, right=True, top=True, bottom=False))
    assert w.raycast(10, 10, 100, 10)[:4] == (64.0, 10.0, (-1.0, 0.0), pytest.approx(54 / 90))
    assert w.raycast(10, 10, 10, -100).normal == (0.0, 1.0)
    assert w.raycast(10, 10, 10, 500) is None  # the bottom is open
    assert w.raycast(10, -1000, 10, 10) == RayHit(10.0, -1000.0, (0.0, 0.0), 0.0, None, None)
    hit = w.raycast(200, -50, -10, 30)  # from inside the right wall
    assert hit.fraction == 0.0
    w = world_of("....\n....", Edges(left=True, right=False, top=False, bottom=False))
    hit = w.raycast(500, -400, -100, -400)  # far above the map, into the left wall's half-plane
    assert (hit.x, hit.y, hit.normal, hit.tile) == (0.0, -400.0, (1.0, 0.0), None)


def test_raycast_platforms_and_actors():
    w = world_of("." * 20 + "\n" + "." * 20 + "\n" + "#" * 20)
    lift = w.add(Platform(100, 10, 32, 8))
    ledge = w.add(Platform(200, 10, 32, 8, one_way=True))
    hero = w.add(Actor(40, 8, 10, 14))
    hit = w.raycast(10, 14, 300, 14)
    assert (hit.x, hit.obj, hit.tile, hit.normal) == (100.0, lift, None, (-1.0, 0.0))
    hit = w.raycast(10, 14, 300, 14, actors=True)
    assert (hit.x, hit.obj) == (40.0, hero)
    assert w.raycast(45, 14, 300, 14, actors=True).fraction == 0.0  # starts inside the actor
    assert w.raycast(45, 14, 300, 14, actors=True, ignore=hero).obj is lift  # ... unless it casts it
    assert w.raycast(45, 14, 300, 14, actors=True, ignore=[hero, lift]) is None
    hit = w.raycast(210, 0, 210, 30)  # a one-way platform from above
    assert (hit.y, hit.obj, hit.normal) == (10.0, ledge, (0.0, -1.0))
    assert w.raycast(210, 30, 210, 0) is None  # from below: through it
    assert w.raycast(190, 14, 250, 14) is None  # from the side: through it
    assert w.raycast(100, 0, 100, 30) is None or w.raycast(100, 0, 100, 30).obj is not lift  # grazing its side


def test_raycast_ties_tiles_then_platforms_then_actors():
    w = world_of("....#...\n........\n########")
    p = w.add(Platform(64, 0, 16, 16))  # exactly over the solid tile at col 4
    a = w.add(Actor(64, 0, 16, 16))
    hit = w.raycast(0, 8, 120, 8, actors=True)
    assert hit.tile == (4, 0, TileKind.SOLID) and hit.obj is None
    w.remove(p)
    w.grid = TileGrid.from_ascii("........\n........\n########")
    w.add(p)
    assert w.raycast(0, 8, 120, 8, actors=True).obj is p
    w.remove(p)
    assert w.raycast(0, 8, 120, 8, actors=True).obj is a


def test_query_rect_and_point():
    w = world_of("." * 20 + "\n" + "#" * 20)
    a = w.add(Actor(10, 0, 10, 10))
    p = w.add(Platform(20, 0, 10, 10))
    t = w.add(Trigger(0, 0, 100, 5))
    dot = w.add(Trigger(15, 5, 0, 0))
    assert w.query_rect(0, 0, 40, 10) == [a, p, t, dot]
    assert w.query_rect(20, 5, 5, 5) == [p]  # touching a (its right edge at 20) does not count
    assert w.query_rect(12, 3, 0, 0) == [a, t]  # a zero-size box: a point strictly inside
    assert w.query_point(20, 2) == [p, t]  # on the edge a and p share: p's (left edges belong)
    assert w.query_point(15, 5) == [a]  # the zero-size trigger holds no point; t ends at y = 5
    t.y = 100  # triggers moved by hand are seen at once
    assert w.query_point(15, 100) == [t]
    a.teleport(300, 0)  # so are teleported actors
    assert w.query_point(305, 5) == [a]


@pytest.mark.parametrize("call, message", [
    (lambda w: w.raycast(0, 0, math.nan, 0), "raycast: x1 must be a finite"),
    (lambda w: w.raycast(0, "1", 0, 0), "raycast: y0 must be a number"),
    (lambda w: w.raycast(0, 0, 1, 1, actors="yes"), "raycast: actors must be True or False"),
    (lambda w: w.raycast(0, 0, 1, 1, ignore=3), "raycast: ignore must be a body or a list"),
    (lambda w: w.query_rect(0, 0, -1, 1), "query_rect: w must be >= 0"),
    (lambda w: w.query_point(math.inf, 0), "query_point: x must be a finite"),
    (lambda w: w.tile_at(None, 0), "tile_at: x must be a number"),
])
def test_bad_arguments(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call(world_of("..\n##"))


# -- against brute force -----------------------------------------------------------------------------------

def covers(grid, c, r, x, y) -> bool:
    """Does cell (c, r) fill the part of a small neighbourhood of the exact point (x, y) inside it?"""
    if not (0 <= c < grid.cols and 0 <= r < grid.rows):
        e = grid.edges
        return (c < 0 and e.left) or (c >= grid.cols and e.right) or (r < 0 and e.top) or (r >= grid.rows and e.bottom)
    kind = int(grid.kinds[r, c])
    if kind == TileKind.SOLID:
        return True
    if kind != TileKind.SLOPE:
        return False
    sl, sr = F(grid.slope_left[r, c]), F(grid.slope_right[r, c])
    if sl == sr == TS:
        return True
    surface = (r + 1) * TS - (sl + (sr - sl) * (x - c * TS) / TS)
    return y > surface


def cells_around(x, y):
    fx, fy = x / TS, y / TS
    c, r = math.floor(fx), math.floor(fy)
    return [(cc, rr) for cc in ((c - 1, c) if fx == c else (c,)) for rr in ((r - 1, r) if fy == r else (r,))]


def inside(grid, x, y) -> bool:
    return all(covers(grid, c, r, x, y) for c, r in cells_around(x, y))


def surface_line(grid, c, r):
    """(a, b, k) with the surface y = a + b * x (exact), and k its rise per px."""
    sl, sr = F(grid.slope_left[r, c]), F(grid.slope_right[r, c])
    k = (sr - sl) / TS
    return (r + 1) * TS - sl + k * c * TS, -k, k


def brute_tiles(grid, x0, y0, x1, y1):
    """(t, x, y, normal, tile) from the definition, in exact arithmetic."""
    X0, Y0, DX, DY = F(x0), F(y0), F(x1) - F(x0), F(y1) - F(y0)

    def at(t):
        return X0 + t * DX, Y0 + t * DY

    if inside(grid, X0, Y0):
        c, r = math.floor(X0 / TS), math.floor(Y0 / TS)
        on_map = 0 <= c < grid.cols and 0 <= r < grid.rows
        return 0, x0, y0, (0.0, 0.0), (c, r, TileKind(int(grid.kinds[r, c]))) if on_map else None
    if DX == 0 and DY == 0:
        return None
    cuts = {F(0)}
    lo_x, hi_x = min(X0, X0 + DX), max(X0, X0 + DX)
    lo_y, hi_y = min(Y0, Y0 + DY), max(Y0, Y0 + DY)
    if DX:
        cuts |= {(c * TS - X0) / DX for c in range(math.floor(lo_x / TS), math.ceil(hi_x / TS) + 1)}
    if DY:
        cuts |= {(r * TS - Y0) / DY for r in range(math.floor(lo_y / TS), math.ceil(hi_y / TS) + 1)}
    slopes = [(c, r) for r in range(grid.rows) for c in range(grid.cols) if grid.kinds[r, c] == TileKind.SLOPE]
    for c, r in slopes:  # where the segment meets each slope's surface line
        a, b, _k = surface_line(grid, c, r)
        denom = DY - b * DX
        if denom:
            cuts.add((a + b * X0 - Y0) / denom)
    ts = sorted(t for t in cuts if 0 <= t < 1) + [F(1)]
    solid = None
    for t, t_next in zip(ts, ts[1:], strict=False):
        mx, my = at((t + t_next) / 2)
        if inside(grid, mx, my):
            solid = (t, mx, my)
            break
    ways = []  # one-way tops crossed going down
    if DY > 0:
        for r in range(grid.rows):
            t = (r * TS - Y0) / DY
            if 0 <= t < 1:
                x, _y = at(t)
                for c in range(grid.cols):
                    if grid.kinds[r, c] == TileKind.ONE_WAY and c * TS <= x <= (c + 1) * TS:
                        ways.append((t, c, r))
    if ways and (solid is None or min(ways)[0] < solid[0]):
        t = min(ways)[0]
        here = [(c, r) for tw, c, r in ways if tw == t]
        x, y = at(t)
        after = math.ceil(x / TS) - 1 if DX < 0 else math.floor(x / TS)
        c, r = next(((c, r) for c, r in here if c == after), min(here))
        return t, x, y, (0.0, -1.0), (c, r, TileKind.ONE_WAY)
    if solid is None:
        return None
    t, mx, my = solid
    col, row = math.floor(mx / TS), math.floor(my / TS)
    px, py = at(t)
    return t, px, py, brute_normal(grid, col, row, px, py, DX, DY, mx, my), \
        (col, row, TileKind(int(grid.kinds[row, col]))) if 0 <= col < grid.cols and 0 <= row < grid.rows else None


def fill(grid, c, r):
    if not (0 <= c < grid.cols and 0 <= r < grid.rows):
        return "full" if covers(grid, c, r, 0, 0) else "none"
    kind = int(grid.kinds[r, c])
    if kind == TileKind.SOLID:
        return "full"
    if kind == TileKind.SLOPE:
        sl, sr = grid.slope_left[r, c], grid.slope_right[r, c]
        return "full" if sl == sr == TS else "part" if sl or sr else "none"
    return "none"


def brute_normal(grid, col, row, px, py, DX, DY, mx, my):
    """The documented rule, from the exact hit point."""
    found = []
    # slopes whose surface the segment crosses going in at the hit point: the cell entered, or on a seam
    # the cell beside it
    seam = [(col, row)] + [cr for cr in cells_around(mx, my) if cr != (col, row)]
    for c, r in seam:
        if fill(grid, c, r) == "part":
            a, b, k = surface_line(grid, c, r)
            if py == a + b * px and DY - b * DX > 0:
                n = math.hypot(k, 1)
                nx, ny = float(-k) / n, -1 / n
                found.append((-(nx * DX + ny * DY), 1, (nx, ny)))
                break
    on_x, on_y = (px / TS).denominator == 1 and DX != 0, (py / TS).denominator == 1 and DY != 0
    here = fill(grid, col, row)
    if on_x:
        side = -1 if DX > 0 else 1
        height = TS if here == "full" else grid.slope_left[row, col] if DX > 0 else grid.slope_right[row, col]
        if height > 0 and fill(grid, col + side, row) != "full":
            found.append((abs(DX), 2, (float(side), 0.0)))
    if on_y and (here == "full" or DY < 0):
        side = -1 if DY > 0 else 1
        if fill(grid, col, row + side) != "full":
            found.append((abs(DY), 0, (0.0, float(side))))
    if not found:
        if DX:
            found.append((abs(DX), 2, (-1.0 if DX > 0 else 1.0, 0.0)))
        if DY:
            found.append((abs(DY), 0, (0.0, -1.0 if DY > 0 else 1.0)))
    return min(found, key=lambda f: (-f[0], f[1]))[2]


def brute_box(x0, y0, x1, y1, b):
    """(t, normal) entering the open box of body b, from the definition (exact)."""
    X0, Y0, DX, DY = F(x0), F(y0), F(x1) - F(x0), F(y1) - F(y0)
    bx, by, bw, bh = F(b.x), F(b.y), F(b.w), F(b.h)
    if isinstance(b, Platform) and b.one_way:
        if DY <= 0 or Y0 > by:
            return None
        t = (by - Y0) / DY
        return (t, (0.0, -1.0)) if t < 1 and bx <= X0 + t * DX <= bx + bw else None
    if bx < X0 < bx + bw and by < Y0 < by + bh:
        return F(0), (0.0, 0.0)
    spans = []
    for p0, d, lo, hi in ((X0, DX, bx, bx + bw), (Y0, DY, by, by + bh)):
        if d == 0:
            if not lo < p0 < hi:
                return None
            spans.append((None, None))
        else:
            spans.append(tuple(sorted(((lo - p0) / d, (hi - p0) / d))))
    nears = [s[0] for s in spans if s[0] is not None]
    fars = [s[1] for s in spans if s[1] is not None]
    enter, leave = max(nears), min(fars)
    if not (enter < leave and 0 <= enter < 1):
        return None
    nx_t, ny_t = spans[0][0], spans[1][0]
    x_face = ny_t is None or (nx_t is not None and (nx_t > ny_t or (nx_t == ny_t and abs(DX) > abs(DY))))
    if x_face:
        return enter, (-1.0 if DX > 0 else 1.0, 0.0)
    return enter, (0.0, -1.0 if DY > 0 else 1.0)


def brute_raycast(world, x0, y0, x1, y1, actors, ignore=()):
    best = brute_tiles(world.grid, x0, y0, x1, y1)
    key = None if best is None else (best[0], 0, 0)
    result = best and (best[0], best[3], best[4], None)
    order = {id(o): i for i, o in enumerate(world._hash.objects())}
    for b in world.platforms + (world.actors if actors else []):
        if any(b is o for o in ignore):
            continue
        hit = brute_box(x0, y0, x1, y1, b)
        if hit is None:
            continue
        k = (hit[0], 1 if isinstance(b, Platform) else 2, order[id(b)])
        if key is None or k < key:
            key, result = k, (hit[0], hit[1], None, b)
    return result


def check_raycast(world, x0, y0, x1, y1, actors, ignore=()):
    got = world.raycast(x0, y0, x1, y1, actors=actors, ignore=list(ignore))
    want = brute_raycast(world, x0, y0, x1, y1, actors, ignore)
    if want is None:
        assert got is None, (x0, y0, x1, y1)
        return got
    assert got is not None, (x0, y0, x1, y1, want)
    t, normal, tile, obj = want
    assert got.fraction == pytest.approx(float(t), abs=1e-9), (x0, y0, x1, y1, want)
    assert got.obj is obj, (x0, y0, x1, y1, want)
    assert got.tile == tile, (x0, y0, x1, y1, want)
    assert got.normal == pytest.approx(normal, abs=1e-9), (x0, y0, x1, y1, want)
    assert got.x == pytest.approx(x0 + float(t) * (x1 - x0), abs=1e-6)
    assert got.y == pytest.approx(y0 + float(t) * (y1 - y0), abs=1e-6)
    assert 0.0 <= got.fraction < 1.0 or (got.fraction == 0.0)
    return got


TILE = st.sampled_from("......" + "##" + "==" + "/\\pqdb")
quarter = st.integers(-160, 800).map(lambda v: v / 4)  # exact in binary: crossings are exact


@st.composite
def scenes(draw):
    rows, cols = draw(st.integers(2, 6)), draw(st.integers(2, 8))
    lines = ["".join(draw(st.lists(TILE, min_size=cols, max_size=cols))) for _ in range(rows)]
    edges = Edges(*draw(st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans())))
    world = World(TileGrid.from_ascii("\n".join(lines), edges=edges), cell=draw(st.sampled_from([8, 16, 64])))
    W, H = cols * TS, rows * TS
    pos = st.integers(-8, 4 * (W + 8)).map(lambda v: v / 4), st.integers(-8, 4 * (H + 8)).map(lambda v: v / 4)
    size = st.sampled_from([0.25, 4, 8, 10, 16, 32])
    for i in range(draw(st.integers(0, 3))):
        world.add(Platform(draw(pos[0]), draw(pos[1]), draw(size), draw(size), one_way=draw(st.booleans()),
                           name=f"p{i}"))
    for i in range(draw(st.integers(0, 4))):
        world.add(Actor(draw(pos[0]), draw(pos[1]), draw(size), draw(size), name=f"a{i}"))
    for i in range(draw(st.integers(0, 2))):
        world.add(Trigger(draw(pos[0]), draw(pos[1]), draw(size), draw(size), name=f"t{i}"))
    return world


@st.composite
def segments(draw, world):
    """Random segments, many of them on grid lines, through tile corners, along edges, of zero length,
    or starting inside solids and bodies."""
    W, H = world.grid.width, world.grid.height
    line = st.integers(-2, max(W, H) // TS + 2).map(lambda v: float(v * TS))
    coord = st.one_of(quarter, line, quarter)
    x0, y0 = draw(coord), draw(coord)
    how = draw(st.sampled_from(["any", "any", "horizontal", "vertical", "diagonal", "zero", "corner", "body"]))
    if how == "body" and (world.actors or world.platforms):
        b = draw(st.sampled_from(world.actors + world.platforms))
        x0, y0 = b.x + b.w / 2, b.y + b.h / 2
    if how == "corner":
        x0, y0 = draw(line), draw(line)
    if how == "horizontal":
        return x0, y0, draw(coord), y0
    if how == "vertical":
        return x0, y0, x0, draw(coord)
    if how == "diagonal":  # 45 degrees, through grid corners when it starts on one
        d = draw(st.integers(-12, 12)) * TS / 2
        return x0, y0, x0 + d, y0 + d * draw(st.sampled_from([1, -1]))
    if how == "zero":
        return x0, y0, x0, y0
    return x0, y0, draw(coord), draw(coord)


@SETTINGS
@given(scenes(), st.data())
@example(world_of("..\n.#", Edges(False, False, False, False)), None)
def test_raycast_matches_brute_force(world, data):
    cases = [(0.0, 0.0, 32.0, 32.0), (32.0, 0.0, 0.0, 32.0), (16.0, -8.0, 16.0, 40.0)] if data is None \
        else [data.draw(segments(world)) for _ in range(8)]
    for x0, y0, x1, y1 in cases:
        for actors in (False, True):
            check_raycast(world, x0, y0, x1, y1, actors)
        if data is not None and world.actors and data.draw(st.booleans()):
            check_raycast(world, x0, y0, x1, y1, True, ignore=world.actors[:1])


@SETTINGS
@given(scenes(), st.data())
def test_queries_match_brute_force(world, data):
    bodies = world._hash.objects()
    assert bodies == world.actors + world.platforms + world.triggers or len(bodies) == len(
        world.actors + world.platforms + world.triggers)
    for _ in range(6):
        x, y = data.draw(quarter), data.draw(quarter)
        w, h = data.draw(st.sampled_from([0.0, 0.25, 4.0, 16.0, 100.0, 1000.0])), data.draw(
            st.sampled_from([0.0, 0.25, 4.0, 16.0, 100.0]))
        assert world.query_rect(x, y, w, h) == [
            b for b in bodies if x < b.x + b.w and b.x < x + w and y < b.y + b.h and b.y < y + h]
        assert world.query_point(x, y) == [b for b in bodies if b.x <= x < b.x + b.w and b.y <= y < b.y + b.h]
        c, r = math.floor(x / TS), math.floor(y / TS)
        kind = world.grid.kinds[r, c] if 0 <= c < world.grid.cols and 0 <= r < world.grid.rows else 0
        assert world.tile_at(x, y) == (c, r, kind)


@settings(SETTINGS, max_examples=max(10, SETTINGS.max_examples // 4))  # (the brute-force test above covers both too)
@given(scenes(), st.data(), st.sampled_from(["walk", "scan"]))
def test_raycast_matches_brute_force_walking_the_hash_or_scanning_its_occupied_cells(world, data, way):
    # a ray crossing many more hash cells than are occupied scans the occupied ones: both ways, one answer
    saved = queries._SCAN
    queries._SCAN = math.inf if way == "walk" else 0.0
    try:
        for _ in range(8):
            x0, y0, x1, y1 = data.draw(segments(world))
            for actors in (False, True):
                check_raycast(world, x0, y0, x1, y1, actors)
    finally:
        queries._SCAN = saved


class _CountingCells(dict):
    """A hash's cells that count the lookups."""

    gets = 0

    def get(self, key, default=None):
        self.gets += 1
        return super().get(key, default)


def test_a_long_raycast_costs_the_occupied_cells_not_its_length():
    # found by an adopter: the hash's cells were walked one by one to the end (1e12 px: hours)
    world = World(TileGrid(np.zeros((10, 20), int), 16, edges=Edges(False, False, False, False)))
    far = world.add(Actor(1e9, 96, 4, 16, name="far"))
    world.add(Actor(10, 10, 4, 4, name="near"))
    world._hash.flush()
    world._hash._cells = _CountingCells(world._hash._cells)
    assert world.raycast(-5, 100, 1e12, 100) is None
    hit = world.raycast(-5, 100, 1e12, 100, actors=True)
    assert hit.obj is far and hit.x == 1e9 and hit.normal == (-1.0, 0.0)
    assert world.raycast(1e12, 100, -5, 100, actors=True).obj is far
    assert world._hash._cells.gets <= 16
