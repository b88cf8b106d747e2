"""Bounce: an actor's restitution 0..1 against what it hits — 0 slides, 1 mirrors, between loses speed
and comes to rest."""

from __future__ import annotations

import pytest

from engine import Actor, TileGrid, World

BOX = """
#..........................#
#..........................#
#..........................#
#..........................#
#..........................#
#..........................#
#..........................#
#..........................#
############################
"""


def test_bounce_zero_slides_along_what_it_hits():
    w = World(TileGrid.from_ascii(BOX))
    a = w.add(Actor(100, 20, 8, 8))
    a.vx = 60.0
    for _ in range(60):
        w.step()
    assert a.on_ground and a.vy == 0.0 and a.vx == 60.0  # landed and kept running


def test_bounce_one_mirrors_off_walls_and_floors():
    w = World(TileGrid.from_ascii(BOX), )
    ball = w.add(Actor(200, 40, 8, 8, bounce=1.0, gravity=False))
    ball.vx, ball.vy = -300.0, 180.0
    for _ in range(200):
        w.step()
        for c in ball.contacts:
            if c.normal[0]:
                assert ball.vx == -c.vx  # mirrored exactly
            else:
                assert ball.vy == -c.vy
        assert abs(ball.vx) == 300.0 and abs(ball.vy) == 180.0
    assert not ball.on_ground


def test_bounce_one_under_gravity_comes_back_to_the_height_it_fell_from():
    w = World(TileGrid.from_ascii(BOX))
    ball = w.add(Actor(200, 64, 8, 8, bounce=1.0))  # a 56 px drop: slower than the fall speed limit
    tops = []
    for _ in range(400):
        before = ball.vy
        w.step()
        if before < 0.0 <= ball.vy:
            tops.append(ball.y)
    assert len(tops) >= 3
    assert all(abs(t - 64.0) < 1.0 for t in tops), tops  # within a step's travel near the apex


def test_a_partly_elastic_ball_loses_height_each_bounce_then_rests():
    w = World(TileGrid.from_ascii(BOX))
    ball = w.add(Actor(200, 0, 8, 8, bounce=0.6))
    speeds = []
    for _ in range(600):
        w.step()
        if ball.floor is not None and ball.vy < 0.0:
            speeds.append((ball.floor.vy, -ball.vy))
    assert len(speeds) >= 3
    # 0.6 of the speed at the moment of the hit: at most the step's end speed, at least a step's gravity less
    g_step = w.feel.derived.fall_gravity * w.dt
    assert all(0.6 * (hit - g_step) <= back <= 0.6 * hit + 1e-9 for hit, back in speeds)
    assert all(b[1] < a[1] for a, b in zip(speeds, speeds[1:], strict=False))
    assert ball.on_ground and ball.vy == 0.0  # at rest, not buzzing
    y = ball.y
    for _ in range(30):
        w.step()
        assert ball.y == y and ball.on_ground


def test_a_ball_falling_upward_rests_against_the_ceiling():
    w = World(TileGrid.from_ascii(BOX.replace("#..........................#", "############################", 1)))
    ball = w.add(Actor(200, 100, 8, 8, bounce=0.6, gravity_scale=-1.0))
    rebounds = 0
    for _ in range(600):
        w.step()
        rebounds += ball.ceiling is not None and ball.vy > 0.0
    assert rebounds >= 3 and ball.y == 16.0 and ball.vy == 0.0  # bounced down a few times, then rests
    for _ in range(30):
        w.step()
        assert ball.y == 16.0


@pytest.mark.parametrize(("slope", "bounce", "up"), [("/", 1.0, False), ("p", 0.8, True)])
def test_a_ball_dropped_on_a_ramp_bounces_off_its_surface(slope, bounce, up):
    grid = TileGrid.from_ascii(BOX.replace("#..........................#\n############################",
                                           f"#............{slope}#############\n############################"))
    w = World(grid)
    ball = w.add(Actor(212, 60, 6, 6, bounce=bounce))  # centre over the slope tile (208..224), rising right
    for _ in range(40):
        w.step()
        if ball.floor is not None:
            break
    hit = ball.floor
    assert hit.kind == "slope" and hit.tile == (13, 7)
    if not up:  # 45 degrees, mirrored: straight down comes back straight across
        g_step = w.feel.derived.fall_gravity * w.dt  # (at the moment of the hit: up to a step's gravity less)
        assert -hit.vy - 1e-9 <= ball.vx <= -hit.vy + g_step and abs(ball.vy) < 1e-9
    else:  # a shallow ramp throws it back up and away
        assert ball.vx < -50.0 and ball.vy < -50.0


def test_bounce_out_of_range_is_a_clear_error():
    with pytest.raises(ValueError, match="bounce must be between 0 and 1"):
        Actor(0, 0, 8, 8, bounce=1.5)
    with pytest.raises(TypeError, match="bounce"):
        Actor(0, 0, 8, 8, bounce="high")
    w = World(TileGrid.from_ascii(BOX))
    a = w.add(Actor(100, 100, 8, 8))
    a.bounce = -2.0  # set by hand: named at the first hit
    with pytest.raises(ValueError, match="bounce must be between 0 and 1"):
        for _ in range(60):
            w.step()
