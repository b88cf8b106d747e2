"""Slopes: 45° and shallow (0->8, 8->16) tiles in both directions. Walking up and down keeps the actor
grounded every step with its bottom-centre on the surface; slopes join flat tiles and each other; jump
from and land on slopes; slope tiles are flat ceilings; a jump in surface height is a wall; solid tiles
are never overlapped."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from engine import Actor, Buttons, Character, FeelConfig, TileGrid, TileKind, World, _motion

TS = 16
EPS = 1e-6


# -- helpers -------------------------------------------------------------------------------------------
def slope_under_centre(g: TileGrid, a: Actor):
    """(col, row) of the slope tile whose column holds the box's bottom-centre and whose rows hold the
    feet (inclusive of the tile's top and bottom edges), or None."""
    cx, feet = a.x + a.w / 2, a.y + a.h
    c = math.floor(cx / TS)
    for r in sorted({math.floor((feet - EPS) / TS), math.floor((feet + EPS) / TS)}):
        if g.kind_at(c, r) is TileKind.SLOPE:
            return c, r
    return None


def standing_on_a_solid_top(g: TileGrid, a: Actor) -> bool:
    feet = a.y + a.h
    r = round(feet / TS)
    if abs(r * TS - feet) > EPS:
        return False
    c0, c1 = math.floor(a.x / TS), math.ceil((a.x + a.w) / TS) - 1
    return any(g.kind_at(c, r) is TileKind.SOLID for c in range(c0, c1 + 1))


def check_slope_invariants(g: TileGrid, a: Actor, grounded: bool = True) -> None:
    """The actor is not in a solid, not below the surface under its centre, and (when grounded over a
    slope's interior) has its bottom-centre exactly on the surface — or stands on a solid's top above it."""
    assert not g.solid_overlaps(a.x, a.y, a.w, a.h), f"{a!r} overlaps a solid tile"
    hit = slope_under_centre(g, a)
    if hit is None:
        return
    cx, feet = a.x + a.w / 2, a.y + a.h
    surface = g.surface_y(*hit, cx)
    assert feet <= surface + EPS, f"{a!r}: feet {feet} below the slope surface {surface}"
    if grounded:
        on_surface = abs(feet - surface) <= 1e-6
        assert on_surface or standing_on_a_solid_top(g, a), \
            f"{a!r}: grounded over a slope but feet {feet} not on its surface {surface}"


def spawn(world: World, x: float, settle: int = 40, y: float = 0.0) -> Character:
    hero = world.add(Character(x, y))
    for _ in range(settle):
        world.step()
    assert hero.on_ground
    return hero


def walk(world: World, hero: Character, direction: int, steps: int, stop_x=None) -> list[tuple]:
    """Walk, checking every step; returns [(x, feet, ground kind)]."""
    g = world.grid
    buttons = Buttons(right=direction > 0, left=direction < 0)
    trace = []
    for i in range(steps):
        before = hero.x
        world.step(buttons)
        assert hero.on_ground, f"step {i}: airborne while walking at {hero!r}"
        assert (hero.x - before) * direction > 0, f"step {i}: stuck at {hero!r}"
        check_slope_invariants(g, hero)
        trace.append((hero.x, hero.y + hero.h, hero.ground.kind))
        if stop_x is not None and (hero.x - stop_x) * direction >= 0:
            break
    return trace


def visited(trace, kind="slope") -> int:
    return sum(1 for _, _, k in trace if k == kind)


# -- maps ----------------------------------------------------------------------------------------------
STAIRS_45 = """
..................
..................
..................
......./##########
....../###########
##################
"""  # floor feet 80, slopes up to a plateau at feet 48

STAIRS_45_LEFT = """
..................
..................
..................
##########\\.......
###########\\......
##################
"""

SHALLOW_RIGHT = """
..................
..................
..................
.......pq#########
##################
"""  # 0->8, 8->16: floor at 64 up to a plateau at 48

SHALLOW_LEFT = """
..................
..................
..................
#########db.......
##################
"""

PEAK_45 = """
..................
..................
..................
......./\\.........
##################
"""

VALLEY_45 = """
..................
..................
#######\\/#########
##################
##################
"""

PEAK_SHALLOW = """
..................
..................
..................
......pqdb........
##################
"""

VALLEY_SHALLOW = """
..................
..................
..................
#####dbpq#########
##################
"""

SHALLOW_THEN_45 = """
..................
..................
........./########
.......pq#########
##################
"""  # 64 -> 48 over two shallow tiles, then 48 -> 32 at 45°

MIXED_PEAK = """
..................
..................
..................
....../db.........
##################
"""  # up at 45°, then down the shallow pair


CASES = [
    # name, map, start x, direction, feet at start, feet at end
    ("45 up right", STAIRS_45, 40.3, 1, 80, 48),
    ("45 down left", STAIRS_45, 230.7, -1, 48, 80),
    ("45 up left", STAIRS_45_LEFT, 240.1, -1, 80, 48),
    ("45 down right", STAIRS_45_LEFT, 60.9, 1, 48, 80),
    ("shallow up right", SHALLOW_RIGHT, 40.0, 1, 64, 48),
    ("shallow down left", SHALLOW_RIGHT, 230.0, -1, 48, 64),
    ("shallow up left", SHALLOW_LEFT, 240.5, -1, 64, 48),
    ("shallow down right", SHALLOW_LEFT, 60.25, 1, 48, 64),
    ("45 peak right", PEAK_45, 40.0, 1, 64, 64),
    ("45 peak left", PEAK_45, 240.0, -1, 64, 64),
    ("45 valley right", VALLEY_45, 40.0, 1, 32, 32),
    ("45 valley left", VALLEY_45, 240.0, -1, 32, 32),
    ("shallow peak right", PEAK_SHALLOW, 40.0, 1, 64, 64),
    ("shallow peak left", PEAK_SHALLOW, 240.0, -1, 64, 64),
    ("shallow valley right", VALLEY_SHALLOW, 20.0, 1, 48, 48),
    ("shallow valley left", VALLEY_SHALLOW, 240.0, -1, 48, 48),
    ("shallow then 45 up", SHALLOW_THEN_45, 40.0, 1, 64, 32),
    ("45 then shallow down", SHALLOW_THEN_45, 240.0, -1, 32, 64),
    ("mixed peak right", MIXED_PEAK, 40.0, 1, 64, 64),
    ("mixed peak left", MIXED_PEAK, 240.0, -1, 64, 64),
]


@pytest.mark.parametrize("name,text,x0,direction,feet0,feet1", CASES, ids=[c[0] for c in CASES])
def test_walking_over_slopes_stays_grounded_on_the_surface_every_step(name, text, x0, direction, feet0, feet1):
    g = TileGrid.from_ascii(text)
    w = World(g)
    hero = spawn(w, x0)
    assert hero.y + hero.h == feet0
    trace = walk(w, hero, direction, 200, stop_x=(x0 + direction * 190))
    assert visited(trace) >= 8, "never walked on the slope"
    assert hero.y + hero.h == feet1
    assert trace[-1][2] == "solid"  # back on flat ground at the end


@pytest.mark.parametrize("offset", [0.0, 0.1, 0.5, 1 / 3, 0.99])
@pytest.mark.parametrize("speed", [60.0, 150.0, 400.0])
def test_slopes_at_various_speeds_and_sub_pixel_offsets(offset, speed):
    feel = FeelConfig.from_dict({"run": {"max_speed": speed}})
    for text, x0, d, feet1 in ((STAIRS_45, 40.0, 1, 48), (STAIRS_45, 230.0, -1, 80),
                               (PEAK_SHALLOW, 40.0, 1, 64), (VALLEY_45, 240.0, -1, 32)):
        w = World(TileGrid.from_ascii(text), feel)
        hero = spawn(w, x0 + offset)
        walk(w, hero, d, 400, stop_x=x0 + d * 190)
        assert hero.y + hero.h == feet1


@pytest.mark.parametrize("direction", [1, -1])
def test_on_a_45_slope_the_feet_follow_one_straight_line(direction):
    # both '/' tiles of STAIRS_45 lie on the line feet + centre_x = 176
    g = TileGrid.from_ascii(STAIRS_45)
    w = World(g)
    hero = spawn(w, 40.0 if direction > 0 else 230.0)
    trace = walk(w, hero, direction, 200, stop_x=230.0 if direction > 0 else 40.0)
    on_slope = [(x, f) for x, f, k in trace if k == "slope"]
    assert len(on_slope) >= 8
    for x, feet in on_slope:
        assert feet + x + hero.w / 2 == pytest.approx(176.0, abs=1e-9)


def test_standing_still_on_a_slope_does_not_slide():
    g = TileGrid.from_ascii(STAIRS_45)
    w = World(g)
    hero = w.add(Character(100.0 - 5, 0.0))  # centre at x=100, over the lower '/' (col 6)
    for i in range(120):
        w.step()
        if i > 40:
            assert hero.on_ground and hero.ground.kind == "slope"
            assert hero.x == 95.0
            assert hero.y + hero.h == pytest.approx(g.surface_y(6, 4, 100.0))
    assert hero.y + hero.h == pytest.approx(80 - 4)


def test_plain_actor_lands_on_and_rests_on_a_slope():
    g = TileGrid.from_ascii(STAIRS_45)
    w = World(g)
    a = w.add(Actor(120 - 5, 0.0, 10, 14))  # centre x=120: over '/' at col 7 row 3, surface y 56
    for _ in range(90):
        w.step()
        check_slope_invariants(g, a, grounded=a.on_ground)
    assert a.on_ground and a.ground.kind == "slope"
    assert a.y + a.h == pytest.approx(56.0)


@pytest.mark.parametrize("cx,col,row", [(104.0, 6, 4), (116.5, 7, 3)])
def test_land_on_a_slope_from_a_fall(cx, col, row):
    g = TileGrid.from_ascii(STAIRS_45)
    w = World(g)
    hero = w.add(Character(cx - 5, 0.0))
    landed_at = None
    for i in range(90):
        r = w.step()
        check_slope_invariants(g, hero, grounded=hero.on_ground)
        if r.landed:
            landed_at = i
            assert hero.ground.kind == "slope"
            assert hero.y + hero.h == pytest.approx(g.surface_y(col, row, cx))
    assert landed_at is not None
    assert hero.x == cx - 5


@pytest.mark.parametrize("text,x0", [(STAIRS_45, 99.0), (SHALLOW_RIGHT, 120.0), (PEAK_45, 117.0)])
def test_jump_from_a_slope_and_land_back_on_it(text, x0):
    g = TileGrid.from_ascii(text)
    w = World(g)
    hero = spawn(w, x0)
    assert hero.ground.kind == "slope"
    start_feet = hero.y + hero.h
    r = w.step(Buttons(jump=True))
    assert r.jumped == [hero]
    assert not hero.on_ground and hero.vy < 0
    top = hero.y
    landed = False
    for i in range(120):
        r = w.step(Buttons(jump=i < 10))
        top = min(top, hero.y)
        check_slope_invariants(g, hero, grounded=hero.on_ground)
        if r.landed:
            landed = True
            break
    assert landed
    assert start_feet - (top + hero.h) > 20  # a real jump
    assert hero.ground.kind == "slope"
    assert hero.y + hero.h == pytest.approx(start_feet)  # straight up and down: same spot
    assert hero.x == x0


def test_jumping_while_running_up_a_slope_lands_further_up():
    g = TileGrid.from_ascii(STAIRS_45)
    w = World(g)
    hero = spawn(w, 60.0)
    for _ in range(10):
        w.step(Buttons(right=True))
    w.step(Buttons(right=True, jump=True))
    for _i in range(120):
        r = w.step(Buttons(right=True, jump=True))
        check_slope_invariants(g, hero, grounded=hero.on_ground)
        if r.landed:
            break
    assert hero.on_ground
    assert hero.y + hero.h < 80


CEILING_SLOPES = """
........
//\\\\pqdb
........
........
........
########
"""


@pytest.mark.parametrize("x0", [2.0, 20.0, 37.0, 51.0, 70.0, 90.0, 110.0])
def test_slope_tiles_are_flat_ceilings(x0):
    g = TileGrid.from_ascii(CEILING_SLOPES)
    w = World(g)
    hero = spawn(w, x0, y=40.0)
    w.step(Buttons(jump=True))
    heads = []
    for _ in range(40):
        w.step(Buttons(jump=True))
        heads.append(hero.y)
        assert not g.solid_overlaps(hero.x, hero.y, hero.w, hero.h)
    # the head stops at the slope row's flat bottom (y=32), whatever the slope's shape above
    assert min(heads) == 32.0
    assert hero.x == x0


def test_running_up_a_slope_into_a_low_ceiling_stops_without_overlap():
    g = TileGrid.from_ascii("""
..................
..................
.........#########
......./##########
....../###########
##################
""")
    w = World(g)
    hero = spawn(w, 40.0)
    for _ in range(120):
        w.step(Buttons(right=True))
        assert not g.solid_overlaps(hero.x, hero.y, hero.w, hero.h)
        check_slope_invariants(g, hero, grounded=hero.on_ground)
    assert hero.on_ground
    assert hero.x + hero.w <= 9 * TS


# -- steeper than 45° is a wall ------------------------------------------------------------------------
STEP_LEGEND = {"S": (3, 0.5, 1.0), "T": (3, 1.0, 0.5)}  # a slope starting 8 px above the floor


@pytest.mark.parametrize("direction", [1, -1])
def test_a_jump_in_surface_height_is_a_wall(direction):
    text = """
..................
..................
..................
........S#########
##################
""" if direction > 0 else """
..................
..................
..................
#########T........
##################
"""
    g = TileGrid.from_ascii(text, legend=STEP_LEGEND)
    w = World(g)
    hero = spawn(w, 40.0 if direction > 0 else 230.0)
    for _ in range(100):
        w.step(Buttons(right=direction > 0, left=direction < 0))
        assert hero.on_ground and hero.y + hero.h == 64.0  # never climbs the 8 px face
        check_slope_invariants(g, hero)
    if direction > 0:
        assert hero.x + hero.w == 8 * TS
    else:
        assert hero.x == 10 * TS
    assert hero.vx == 0.0


def test_a_slope_ending_below_a_higher_tile_is_a_wall_at_its_top():
    # '/' rises to 48 at x=128 but the column to its right is solid up to y=32: a 16 px face
    g = TileGrid.from_ascii("""
..................
..................
........##########
......./##########
....../###########
##################
""")
    w = World(g)
    hero = spawn(w, 40.0)
    for _ in range(120):
        w.step(Buttons(right=True))
        check_slope_invariants(g, hero)
        assert hero.on_ground
    assert hero.x + hero.w == 8 * TS
    assert hero.y + hero.h > 48.0 - EPS  # still on the slope, never above its top


def test_the_wall_can_be_jumped_onto():
    g = TileGrid.from_ascii("""
..................
..................
..................
........S#########
##################
""", legend=STEP_LEGEND)
    w = World(g)
    hero = spawn(w, 100.0)
    for i in range(80):
        w.step(Buttons(right=i < 30, jump=i < 20))
        check_slope_invariants(g, hero, grounded=hero.on_ground)
    assert hero.on_ground and hero.y + hero.h == 48.0
    assert hero.x > 9 * TS


# -- regressions: bugs found by a longer hypothesis search ----------------------------------------
def test_corner_correction_next_to_a_slope_never_puts_the_feet_below_it():
    g = TileGrid.from_ascii("""
###.##
.../..
######
""")  # '/' at col 3 (x 48..64, y 16..32) under a 1-tile gap in a ceiling
    feel = FeelConfig.from_dict({"jump": {"height": 6.0, "time_to_apex": 0.2}})
    w = World(g, feel)
    hero = w.add(Character(44.05, 10.0))
    for _ in range(30):
        w.step()
    assert hero.ground.kind == "slope"
    w.step(Buttons(jump=True))  # head hits the ceiling corner: nudged 4 px right, over the slope
    for _ in range(40):
        check_slope_invariants(g, hero, grounded=hero.on_ground)
        w.step()
    check_slope_invariants(g, hero, grounded=hero.on_ground)
    assert hero.ground.kind == "slope"


def test_jumping_up_under_the_low_edge_of_a_floating_slope_does_not_pass_into_it():
    g = TileGrid.from_ascii("""
..........
..........
....//....
..........
..........
##########
""")  # floating slopes at y 32..48, floor top 80
    w = World(g)
    hero = w.add(Character(48.0, 66.0))
    w.step()
    for _ in range(60):
        w.step(Buttons(right=True, jump=True))
        check_slope_invariants(g, hero, grounded=hero.on_ground)


BARE_45 = """
..............
.........../..
........../...
........./....
......../.....
##############
"""  # a bare diagonal of 45° slopes: nothing under them

BARE_SHALLOW = """
..................
..............pq..
............pq....
..........pq......
........pq........
##################
"""


@pytest.mark.parametrize("text", [BARE_45, BARE_SHALLOW], ids=["45", "shallow"])
def test_a_bare_diagonal_of_slopes_is_climbed_and_descended_without_snagging(text):
    g = TileGrid.from_ascii(text)
    mirrored = TileGrid(g.kinds[:, ::-1], 16, g.slope_right[:, ::-1], g.slope_left[:, ::-1])
    for grid, x0, d in ((g, 40.0, 1), (mirrored, g.width - 50.0, -1)):
        w = World(grid)
        hero = spawn(w, x0)
        on_slope = 0
        for _ in range(200):
            before = hero.x
            w.step(Buttons(right=d > 0, left=d < 0))
            if hero.y + hero.h < 20:  # reached the top row
                break
            assert hero.on_ground, f"airborne climbing at {hero!r}"
            assert (hero.x - before) * d > 0, f"stuck at {hero!r}"
            check_slope_invariants(grid, hero, grounded=False)
            on_slope += hero.ground.kind == "slope"
        assert hero.y + hero.h <= 32 and on_slope > 15
        # and back down: grounded every step until the floor
        for _ in range(200):
            w.step(Buttons(right=d < 0, left=d > 0))
            if hero.y + hero.h == 80.0 and hero.ground.kind == "solid":
                break
            assert hero.on_ground, f"airborne descending at {hero!r}"
            check_slope_invariants(grid, hero, grounded=False)
        assert hero.y + hero.h == 80.0


# -- regressions from the adversarial pass (issue 8) ----------------------------------------------
FLOATING = {"v": (TileKind.SLOPE, 1.0, 1.0)}  # a slope tile whose surface is flat at its top


@pytest.mark.parametrize("ceiling", ["....######", "....//////", "....\\\\\\\\\\\\", "....vvvvvv"],
                         ids=["solid", "45-right", "45-left", "flat-slope"])
def test_walk_under_slope_ceiling(ceiling):
    # a 1-tile corridor whose ceiling is slope tiles (a ramp's underside): 2 px of head room, no snag
    g = TileGrid.from_ascii(ceiling + "\n..........\n##########", legend=FLOATING)
    w = World(g)
    hero = w.add(Character(2, 18))
    assert w.settle(hero)
    for _ in range(60):
        before = hero.x
        w.step(Buttons(right=True))
        assert hero.x > before or hero.x + hero.w == g.width, f"snagged at {hero!r}"
        check_slope_invariants(g, hero)
    assert hero.vx == 150.0 and hero.x > 120


def test_air_snag_under_floating_slope():
    # feet in the row just below a floating slope tile, head clear of it: flies on under it
    g = TileGrid.from_ascii("..........\n..........\n....v.....\n..........\n..........", legend=FLOATING)
    w = World(g)
    a = w.add(Actor(20, 50, 10, 12, gravity=False))
    a.vx = 120.0
    for _ in range(30):
        w.step()
        assert a.vx == 120.0, f"stopped dead at {a!r}: {a.contacts}"
    assert a.x > 70 and a.y == 50.0


@pytest.mark.parametrize("vx", [300, 600, 960, 1440, 3000])
def test_fast_tunnel_through_slope(vx):
    # a body whose bottom-centre crosses a whole slope column in one step climbs it like a slow one
    g = TileGrid.from_ascii(".........\n.........\n..../....\n.........")
    w = World(g)
    a = w.add(Actor(55, 36, 10, 8, gravity=False))  # feet 44: 4 px above the slope's low corner
    a.vx = vx
    for _ in range(8):
        w.step()
        check_slope_invariants(g, a, grounded=False)
        if a.x + a.w / 2 >= 80:  # past the slope's top edge (y=32): it went over, not through
            assert a.y + a.h <= 32.0 + EPS, f"passed through the slope: {a!r}"
    assert a.x + a.w / 2 > 80


@pytest.mark.parametrize("size", [(10, 14), (16, 9), (16, 7), (33, 7), (33, 16), (10, 1)])
def test_flat_box_stuck_at_ramp_top(size):
    # a filled 45° ramp topped by solid tiles: boxes of every shape walk up onto the top
    g = TileGrid.from_ascii("""
..............
..............
......../#####
......./######
##############
""")
    w = World(g)
    hero = w.add(Character(8, 40, *size))
    assert w.settle(hero)
    for _ in range(150):
        w.step(Buttons(right=True))
        check_slope_invariants(g, hero, grounded=False)
    assert hero.y + hero.h == 32.0 and hero.x > 9 * TS, f"stuck on the ramp: {hero!r}"


def test_corner_correction_into_slope():
    # the nudge around a ceiling corner never moves a tall box sideways into a floating slope that cuts
    # through its middle (it is swept like any sideways move: that slope is a wall to it)
    g = TileGrid.from_ascii("..#.\n.v..\n....\n....\n....\n####", legend={"v": (TileKind.SLOPE, 0.125, 0.125)})
    w = World(g)
    hero = w.add(Character(32.5, 46.0, w=2, h=34))
    assert w.settle(hero)
    for _ in range(40):
        w.step(Buttons(jump=True))
        check_slope_invariants(g, hero, grounded=hero.on_ground)
    assert hero.x == 32.5


def test_a_box_stopped_by_a_slope_face_stops_at_the_face_not_where_it_started():
    # the 8 px face of an 'S' tile (0.5 -> 1.0) is a wall: a fast box stops at it in the same step
    g = TileGrid.from_ascii("..................\n..................\n........S#########\n##################",
                            legend=STEP_LEGEND)
    w = World(g)
    a = w.add(Actor(40, 34, 10, 14))
    assert w.settle(a)
    a.vx = 6000.0  # 100 px per step
    w.step()
    assert a.x + a.w == 8 * TS and a.vx == 0.0


# -- every grounded actor snaps down slopes (one routine for Characters and plain actors) -------------
@pytest.mark.parametrize("speed", [40.0, 150.0, 400.0])
@pytest.mark.parametrize("text,x0,direction", [(STAIRS_45, 230.0, -1), (STAIRS_45_LEFT, 60.0, 1),
                                               (SHALLOW_RIGHT, 230.0, -1), (VALLEY_45, 60.0, 1)],
                         ids=["45-left", "45-right", "shallow", "valley"])
def test_plain_actors_snap_down_slopes_like_characters(speed, text, x0, direction):
    g = TileGrid.from_ascii(text)
    w = World(g)
    walker = w.add(Actor(x0, 0.0, 10, 14))
    for _ in range(40):
        w.step()
    assert walker.on_ground
    walker.vx = direction * speed
    on_slope = 0
    for i in range(int(160 / speed * 60)):
        w.step()
        assert walker.on_ground, f"step {i}: airborne at {walker!r}"
        check_slope_invariants(g, walker)
        on_slope += walker.ground.kind == "slope"
    assert on_slope >= 3


@pytest.mark.parametrize("make", [lambda x: Actor(x, 0.0, 10, 14, snap=False), lambda x: Character(x, 0.0, snap=False)],
                         ids=["actor", "character"])
def test_snap_off_leaves_the_ground_on_a_descent(make):
    g = TileGrid.from_ascii(STAIRS_45)
    w = World(g)
    a = w.add(make(230.0))
    for _ in range(40):
        w.step()
    assert a.on_ground and not a.snap
    airborne = 0
    for _ in range(60):
        a.vx = -150.0
        w.step(Buttons(left=True))
        airborne += not a.on_ground
        check_slope_invariants(g, a, grounded=False)
    assert airborne > 10  # hops down the slope instead of following it
    a.vx = 0.0
    for _ in range(20):
        w.step()
    assert a.on_ground and a.y + a.h == 80.0  # and still ends on the floor below


# -- the bottom-centre stopped at a column edge ------------------------------------------------------
def test_a_centre_stopped_at_an_edge_as_far_from_zero_as_its_half_width_is_found_at_once():
    # edge - half == 0: the floats walked one at a time from 0 down to where x + 16 < 16 are 2**62 (a hang
    # hypothesis once found in the runway test)
    x = _motion._centre_before(16.0, 16.0, True, -math.inf)
    assert x + 16.0 < 16.0 and not math.nextafter(x, math.inf) + 16.0 < 16.0
    assert _motion._centre_before(16.0, 16.0, True, -math.inf, inclusive=True) == 0.0
    assert _motion._centre_before(16.0, 16.0, False, math.inf) == 0.0
    assert _motion._centre_before(16.0, 16.0, True, -1e-17) == -1e-17  # never behind where the move started


@settings(max_examples=2000, deadline=None)
@given(edge=st.integers(-40, 400).map(lambda c: c * 16.0),
       half=st.one_of(st.floats(1e-300, 200.0), st.sampled_from([16.0, 8.0, 0.5, 0.1, 1e-9])),
       right=st.booleans(), inclusive=st.booleans())
def test_the_centre_before_an_edge_is_the_first_float_on_the_near_side(edge, half, right, inclusive):
    x = _motion._centre_before(edge, half, right, -math.inf if right else math.inf, inclusive)
    start = edge - half
    if right:
        def before(v):
            return v + half <= edge if inclusive else v + half < edge
        assert x <= start and before(x)
        assert x == start or not before(math.nextafter(x, math.inf))  # the first such float going left
    else:
        assert x >= start and x + half >= edge
        assert x == start or not math.nextafter(x, -math.inf) + half >= edge
