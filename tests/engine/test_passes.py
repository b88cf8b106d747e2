"""Movement passes: Y first, then X; never end overlapping a solid; touching is not overlapping; no
snagging on the seams between adjacent floor, wall and ceiling tiles."""

from __future__ import annotations

import pytest

from engine import Actor, Buttons, Character, TileGrid, World

DT = 1 / 60


def floating(world: World, x, y, w=10, h=10, vx=0.0, vy=0.0) -> Actor:
    """A plain actor without gravity: moves exactly vx*dt, vy*dt per step unless blocked."""
    a = world.add(Actor(x, y, w, h, gravity=False))
    a.vx, a.vy = vx, vy
    return a


def assert_clear(grid: TileGrid, a: Actor):
    assert not grid.solid_overlaps(a.x, a.y, a.w, a.h), f"{a!r} overlaps a solid tile"


# -- Y then X -----------------------------------------------------------------------------------------
BLOCK = """
.....
.....
..#..
.....
"""


def test_vertical_pass_runs_before_horizontal_pass():
    # block at x 32..48, y 32..48. Box 10x10 at (20, 20) moving (+6, +6).
    # Y first: nothing below x 20..30, falls to y 26 (rows 26..36 now meet the block) -> X stops at 32.
    # (X first would have slid to x 26 and then landed on the block at y 22.)
    g = TileGrid.from_ascii(BLOCK)
    w = World(g)
    a = floating(w, 20, 20, vx=6 * 60, vy=6 * 60)
    w.step()
    assert a.y == pytest.approx(26.0)
    assert a.x + a.w == 32.0  # touching the block's left face
    assert a.x + a.w <= 32.0
    assert a.vx == 0.0  # stopped by the wall
    assert a.vy == pytest.approx(360.0)  # the vertical pass was free
    assert_clear(g, a)
    assert [c.normal for c in a.contacts] == [(-1, 0)]


def test_vertical_pass_lands_first_then_horizontal_slides_on_the_top():
    # Box over the block's left half at (30, 16): Y lands on the top (y=22), X then slides right freely.
    g = TileGrid.from_ascii(BLOCK)
    w = World(g)
    a = floating(w, 30, 16, vx=6 * 60, vy=12 * 60)
    w.step()
    assert a.y + a.h == 32.0
    assert a.x == pytest.approx(36.0)
    assert a.vy == 0.0 and a.vx == 360.0
    assert [c.normal for c in a.contacts] == [(0, -1)]


def test_moving_up_then_sideways_hits_ceiling_first():
    g = TileGrid.from_ascii(BLOCK)
    w = World(g)
    # Below the block's right edge: rising 8 px hits its bottom (y 48), then X moves free.
    a = floating(w, 44, 52, vx=-3 * 60, vy=-8 * 60)
    w.step()
    assert a.y == 48.0
    assert a.x == pytest.approx(41.0)
    assert a.vy == 0.0
    assert [c.normal for c in a.contacts] == [(0, 1)]


# -- touching is not overlapping ---------------------------------------------------------------------
def test_resting_on_a_floor_touches_it_exactly_and_counts_as_ground():
    g = TileGrid.from_ascii("""
....
....
####
""")
    w = World(g)
    a = w.add(Actor(20, 5, 10, 14))
    for _ in range(120):
        w.step()
        assert_clear(g, a)
        assert a.y + a.h <= 32.0
    assert a.y + a.h == 32.0
    assert a.on_ground and a.ground.kind == "solid"
    assert a.vy == 0.0


def test_flush_against_a_wall_is_not_blocked_moving_along_it():
    g = TileGrid.from_ascii("""
..#.
..#.
..#.
..#.
""")
    w = World(g)
    a = floating(w, 22, 0, vy=2 * 60)  # right edge at x=32, touching the wall
    for i in range(1, 20):
        w.step()
        assert a.x == 22.0
        assert a.y == pytest.approx(2.0 * i)
        assert_clear(g, a)


def test_a_box_exactly_in_a_one_tile_gap_fits():
    g = TileGrid.from_ascii("""
#.#
#.#
#.#
#.#
""")
    w = World(g)
    a = floating(w, 16, 0, w=16, h=16, vy=4 * 60)
    for i in range(1, 10):
        w.step()
        assert a.x == 16.0 and a.y == pytest.approx(4.0 * i)
        assert a.contacts == []


def test_fractional_positions_stop_exactly_on_the_edge_without_overlap():
    g = TileGrid.from_ascii("""
.........#
.........#
##########
""")
    for x0 in (0.1, 1.0 / 3.0, 7.77777, 12.123456789):
        w = World(g)
        a = floating(w, x0, 32 - 10, vx=97.3)
        for _ in range(200):
            w.step()
            assert_clear(g, a)
            assert a.x + a.w <= 144.0
        assert a.x + a.w == 144.0


# -- no snagging on seams ----------------------------------------------------------------------------
FLOOR = "\n".join(["." * 80] * 3 + ["#" * 80])  # 1280 px wide

OFFSETS = [0.0, 0.001, 0.25, 0.5, 0.999, 3.3333333, 15.9999]


@pytest.mark.parametrize("x0", OFFSETS)
@pytest.mark.parametrize("vx", [37.0, 60.0, 119.9, -83.3])
def test_sliding_along_a_floor_of_many_tiles_never_snags(x0, vx):
    g = TileGrid.from_ascii(FLOOR)
    w = World(g)
    start = 600.0 + x0
    a = w.add(Actor(start, 48 - 14, 10, 14))
    a.vx = vx
    for i in range(1, 150):
        before = a.x
        w.step()
        assert a.x == pytest.approx(before + vx * DT, abs=1e-9), f"snagged at step {i}, x={before}"
        assert a.y + a.h == 48.0
        assert a.on_ground
        assert a.vx == vx


@pytest.mark.parametrize("x0", OFFSETS)
@pytest.mark.parametrize("direction", [1, -1])
def test_character_runs_across_floor_seams_without_stopping(x0, direction):
    g = TileGrid.from_ascii(FLOOR)
    w = World(g)
    hero = w.add(Character(600 + x0, 48 - 14))
    w.step()
    assert hero.on_ground
    buttons = Buttons(right=direction > 0, left=direction < 0)
    speed = 0.0
    for i in range(120):
        before, vx_before = hero.x, hero.vx
        w.step(buttons)
        assert hero.on_ground and hero.y + hero.h == 48.0
        assert (hero.x - before) * direction > 0, f"stopped at step {i}"
        assert abs(hero.vx) >= abs(vx_before)  # never loses speed on a seam
        speed = abs(hero.vx)
    assert speed == w.feel.run.max_speed


WALL = """
.....#
.....#
.....#
.....#
.....#
.....#
.....#
.....#
"""


@pytest.mark.parametrize("y0", [0.0, 0.001, 0.5, 7.25, 15.9999])
@pytest.mark.parametrize("vy", [53.0, -71.7, 240.0])
def test_sliding_along_a_wall_of_stacked_tiles_never_snags(y0, vy):
    g = TileGrid.from_ascii(WALL)
    w = World(g)
    start_y = 40 + y0
    a = floating(w, 60, start_y, vx=90.0, vy=vy)  # pushes right into the wall at x=80
    for i in range(1, 40):
        before = a.y
        w.step()
        if not (0 <= a.y and a.y + a.h <= 128):
            break
        assert a.x + a.w == 80.0 or a.x + a.w < 80.0
        assert_clear(g, a)
        assert a.y == pytest.approx(before + vy * DT, abs=1e-9), f"snagged at step {i}"
        a.vx = 90.0  # keep pressing into the wall (a hit zeroes vx)
    assert a.x + a.w == 80.0


def test_wall_on_the_left_side_too():
    g = TileGrid.from_ascii("\n".join("#......" for _ in range(8)))
    w = World(g)
    a = floating(w, 20, 3.3, vx=-90.0, vy=100.0)
    for _i in range(30):
        before = a.y
        w.step()
        assert a.y == pytest.approx(before + 100.0 * DT)
        assert a.x >= 16.0
        a.vx = -90.0
    assert a.x == 16.0


CEILING = "\n".join(["#" * 80] + ["." * 80] * 3)


@pytest.mark.parametrize("x0", OFFSETS)
@pytest.mark.parametrize("vx", [45.0, -130.0])
def test_sliding_along_a_ceiling_of_many_tiles_never_snags(x0, vx):
    g = TileGrid.from_ascii(CEILING)
    w = World(g)
    a = floating(w, 600 + x0, 16.0, vx=vx, vy=-60.0)
    for i in range(1, 100):
        before = a.x
        w.step()
        assert a.y == 16.0
        assert a.x == pytest.approx(before + vx * DT, abs=1e-9), f"snagged at step {i}"
        assert a.vx == vx
        a.vy = -60.0  # keep pressing up


def test_character_jumping_against_a_wall_slides_up_it():
    g = TileGrid.from_ascii("""
........#
........#
........#
........#
........#
........#
#########
""")
    w = World(g)
    hero = w.add(Character(128 - 10 - 0.3, 96 - 14))
    w.step()
    ys = []
    for _i in range(20):
        w.step(Buttons(right=True, jump=True))
        assert hero.x + hero.w <= 128.0
        assert_clear(g, hero)
        ys.append(hero.y)
    assert hero.x + hero.w == 128.0
    # rising every step while the jump lasts (no snag on the wall seams at y 16, 32, 48, 64, 80)
    rising = ys[: ys.index(min(ys)) + 1]
    assert len(rising) >= 15
    assert all(b < a for a, b in zip(rising, rising[1:], strict=False))
    assert min(ys) < 96 - 14 - 40


# -- regressions from the adversarial pass (issue 8) ----------------------------------------------
def test_float_ulp_overlap():
    # the X pass decides with the box it ends in: (x + dx) + w, not (x + w) + dx, one ulp apart here
    g = TileGrid.from_ascii("..#\n...")
    w = World(g)
    a = w.add(Actor(23.233333333333338, 2.0, 7.1, 10.0, gravity=False))
    a.vx = 100.0
    w.step()
    assert a.x + a.w <= 32.0
    assert not g.solid_overlaps(a.x, a.y, a.w, a.h)


@pytest.mark.parametrize("seed", range(20))
def test_no_ulp_overlap_in_either_pass_at_random_fractions(seed):
    import random

    rnd = random.Random(seed)
    g = TileGrid.from_ascii("..#.\n....\n####")
    for _ in range(200):
        w = World(g)
        a = w.add(Actor(rnd.uniform(0, 22), rnd.uniform(0, 2), rnd.uniform(1, 9.9), rnd.uniform(1, 12),
                        gravity=False))
        a.vx, a.vy = rnd.uniform(0, 2000), rnd.uniform(0, 2000)
        w.step()
        assert not g.solid_overlaps(a.x, a.y, a.w, a.h), a


def test_contacts_record_what_the_move_touched():
    from engine import Contact, Path, Platform

    g = TileGrid.from_ascii("........\n........\n........\n..====..\n........\n########")
    w = World(g)
    lid = w.add(Platform(0, 0, 128, 8, Path([(0, 0)], speed=0)))
    a = w.add(Actor(40, 20, 10, 10))
    for _ in range(30):
        w.step()
    assert a.on_ground and a.ground.kind == "one_way"
    # resting: gravity presses it on the floor; the tile under its centre, and how fast it was falling
    assert a.contacts == [Contact((0, -1), "one_way", None, (2, 3), 0.0, w.feel.derived.fall_gravity * w.dt)]
    a.vy = -2000.0
    w.step()
    assert a.contacts[0][:4] == ((0, 1), "platform", lid, None) and a.contacts[0].vy < -1900.0
    assert a.vy == 0.0 and a.ceiling is a.contacts[0]
    a.vx = 9000.0
    w.step()
    assert a.contacts[-1][:5] == ((-1, 0), "solid", None, None, 9000.0)  # the map's right wall edge
    assert a.wall is a.contacts[-1] and a.vx == 0.0
    assert a.x + a.w == g.width
