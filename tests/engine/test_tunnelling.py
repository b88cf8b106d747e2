"""Tunnelling: no speed (up to and well beyond 10 tiles per step) carries a box through a 1-tile wall,
floor or ceiling."""

from __future__ import annotations

import pytest

from engine import Actor, Buttons, Character, FeelConfig, TileGrid, World

TS = 16
HZ = 60
N = 64  # map size in tiles
MID = 32  # the 1-tile wall/floor/ceiling sits here

# tiles per step: slow, exactly 10, beyond 10, and absurd
SPEEDS = [0.5, 1, 3.7, 9.99, 10, 10.01, 12.5, 25, 31]


def _grid(kind: str) -> TileGrid:
    rows = []
    for r in range(N):
        if kind in ("floor", "ceiling"):
            rows.append("#" * N if r == MID else "." * N)
        else:
            rows.append("." * MID + "#" + "." * (N - MID - 1))
    return TileGrid.from_ascii("\n".join(rows))


def _run(world: World, a: Actor, steps: int = 8):
    for _ in range(steps):
        world.step()
        assert not world.grid.solid_overlaps(a.x, a.y, a.w, a.h)


@pytest.mark.parametrize("tiles_per_step", SPEEDS)
@pytest.mark.parametrize("size", [(10, 14), (1, 1), (16, 16)])
def test_fast_box_moving_right_stops_at_a_one_tile_wall(tiles_per_step, size):
    g = _grid("wall")
    w = World(g)
    a = w.add(Actor(MID * TS - 40.3, 200.5, *size, gravity=False))
    a.vx = tiles_per_step * TS * HZ
    _run(w, a)
    assert a.x + a.w == MID * TS
    assert a.vx == 0.0


@pytest.mark.parametrize("tiles_per_step", SPEEDS)
@pytest.mark.parametrize("size", [(10, 14), (1, 1)])
def test_fast_box_moving_left_stops_at_a_one_tile_wall(tiles_per_step, size):
    g = _grid("wall")
    w = World(g)
    a = w.add(Actor((MID + 1) * TS + 37.1, 200.5, *size, gravity=False))
    a.vx = -tiles_per_step * TS * HZ
    _run(w, a)
    assert a.x == (MID + 1) * TS


@pytest.mark.parametrize("tiles_per_step", SPEEDS)
@pytest.mark.parametrize("size", [(10, 14), (1, 1)])
def test_fast_box_falling_lands_on_a_one_tile_floor(tiles_per_step, size):
    g = _grid("floor")
    w = World(g)
    a = w.add(Actor(200.25, MID * TS - 45.7, *size, gravity=False))
    a.vy = tiles_per_step * TS * HZ
    _run(w, a)
    assert a.y + a.h == MID * TS
    assert a.on_ground
    assert a.vy == 0.0


@pytest.mark.parametrize("tiles_per_step", SPEEDS)
@pytest.mark.parametrize("size", [(10, 14), (1, 1)])
def test_fast_box_rising_stops_under_a_one_tile_ceiling(tiles_per_step, size):
    g = _grid("ceiling")
    w = World(g)
    a = w.add(Actor(200.25, (MID + 1) * TS + 33.3, *size, gravity=False))
    a.vy = -tiles_per_step * TS * HZ
    _run(w, a)
    assert a.y == (MID + 1) * TS


@pytest.mark.parametrize("tiles_per_step", [10, 15, 25])
@pytest.mark.parametrize("direction", [(1, 1), (1, -1), (-1, 1), (-1, -1)])
def test_fast_diagonal_box_never_crosses_a_plus_shaped_cross(tiles_per_step, direction):
    # walls through the middle row and column: whatever the diagonal, the box stays in its quadrant
    rows = []
    for r in range(N):
        rows.append("#" * N if r == MID else "." * MID + "#" + "." * (N - MID - 1))
    g = TileGrid.from_ascii("\n".join(rows))
    w = World(g)
    sx, sy = direction
    x = MID * TS - 60.5 if sx > 0 else (MID + 1) * TS + 50.5
    y = MID * TS - 60.5 if sy > 0 else (MID + 1) * TS + 50.5
    a = w.add(Actor(x, y, 10, 14, gravity=False))
    v = tiles_per_step * TS * HZ
    for _ in range(6):
        a.vx, a.vy = sx * v, sy * v
        w.step()
        assert not g.solid_overlaps(a.x, a.y, a.w, a.h)
        if sx > 0:
            assert a.x + a.w <= MID * TS
        else:
            assert a.x >= (MID + 1) * TS
        if sy > 0:
            assert a.y + a.h <= MID * TS
        else:
            assert a.y >= (MID + 1) * TS


def test_a_character_falling_at_a_huge_terminal_speed_lands_on_a_thin_floor():
    # fast fall capped at 3000 px/s = 50 px/step (> 3 tiles/step) from high up
    feel = FeelConfig.from_dict({"fall": {"fast_max_speed": 3000, "max_speed": 2000,
                                          "fast_gravity_multiplier": 5, "gravity_multiplier": 5}})
    g = _grid("floor")
    w = World(g, feel)
    hero = w.add(Character(200.0, 0.0))
    top_speed = 0.0
    for _ in range(200):
        w.step(Buttons(down=True))
        top_speed = max(top_speed, hero.vy)
        assert hero.y + hero.h <= MID * TS
        if hero.on_ground:
            break
    assert hero.on_ground and hero.y + hero.h == MID * TS
    assert top_speed > 1000


def test_a_character_launched_sideways_at_ten_tiles_per_step_stops_at_a_wall():
    g = _grid("wall")
    w = World(g)
    hero = w.add(Character(MID * TS - 150.0, 300.0))
    hero.vx = 10 * TS * HZ
    w.step(Buttons(right=True))
    assert hero.x + hero.w == MID * TS
    for _ in range(10):
        w.step(Buttons(right=True))
        assert hero.x + hero.w <= MID * TS
