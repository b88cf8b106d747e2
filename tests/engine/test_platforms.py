"""Moving platforms: ping-pong and loop paths at constant speed with waits; riders carried in the same
step with no lag (horizontal, downward, rising, one-way); pushing; squish results; lift momentum on
jumps, capped."""

from __future__ import annotations

import math

import pytest

from engine import Actor, Buttons, Character, FeelConfig, Path, Platform, TileGrid, World

HZ = 60
DT = 1 / HZ


def open_room(cols: int = 40, rows: int = 16) -> TileGrid:
    """Empty space with a floor on the last row (top at (rows - 1) * 16)."""
    return TileGrid.from_ascii("\n".join(["." * cols] * (rows - 1) + ["#" * cols]))


def ping_pong_reference(t: float, length: float, speed: float, wait: float) -> float:
    """Distance from the start along a two-point ping-pong path after t seconds."""
    travel = length / speed
    period = 2 * (travel + wait)
    tm = t % period
    if tm < travel:
        return speed * tm
    if tm < travel + wait:
        return length
    if tm < 2 * travel + wait:
        return length - speed * (tm - travel - wait)
    return 0.0


# -- paths -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("speed,wait", [(60.0, 0.0), (90.0, 0.25), (37.5, 0.5), (240.0, 0.1)])
def test_ping_pong_path_follows_the_reference_motion(speed, wait):
    w = World(open_room())
    p = w.add(Platform(100, 50, 32, 8, Path([(100, 50), (164, 50)], speed=speed, wait=wait)))
    for n in range(1, 400):
        w.step()
        expect = 100 + ping_pong_reference(n * DT, 64.0, speed, wait)
        assert p.x == pytest.approx(expect, abs=1e-6), f"step {n}"
        assert p.y == 50.0
        assert 100.0 <= p.x <= 164.0


def test_ping_pong_waits_whole_steps_at_both_ends():
    w = World(open_room())
    p = w.add(Platform(0, 50, 32, 8, Path([(0, 50), (60, 50)], speed=60, wait=0.5)))
    xs = []
    for _ in range(240):
        w.step()
        xs.append(p.x)
    assert xs[59] == 60.0  # arrives at the end after 60 steps
    assert xs[59:90] == [60.0] * 31  # waits 0.5 s = 30 steps, moves on the 31st
    assert xs[90] == pytest.approx(59.0)
    assert xs[149] == pytest.approx(0.0)  # back at the start
    assert all(x == pytest.approx(0.0) for x in xs[149:180])  # waits there too
    assert xs[180] == pytest.approx(1.0)


def test_ping_pong_through_three_points_turns_at_the_ends_only():
    pts = [(0, 0), (40, 0), (40, 40)]
    w = World(open_room())
    p = w.add(Platform(0, 0, 16, 8, Path(pts, speed=60)))
    seen = []
    for _ in range(160):
        w.step()
        seen.append((round(p.x, 6), round(p.y, 6)))
    assert seen[39] == (40, 0)  # through the middle point
    assert seen[79] == (40, 40)  # the far end
    assert seen[119] == (40, 0)  # back through the middle
    assert seen[159] == (0, 0)  # home
    for (xa, ya), (xb, yb) in zip(seen, seen[1:], strict=False):
        assert abs(xb - xa) + abs(yb - ya) == pytest.approx(1.0, abs=1e-6)  # 60 px/s everywhere


@pytest.mark.parametrize("speed", [60.0, 45.0, 100.0])
def test_loop_path_goes_round_at_constant_speed(speed):
    square = [(0, 0), (48, 0), (48, 48), (0, 48)]
    w = World(open_room())
    p = w.add(Platform(0, 0, 16, 8, Path(square, speed=speed, mode="loop")))
    prev = (p.x, p.y)
    travelled = 0.0
    per_step = speed * DT
    for n in range(1, 300):
        w.step()
        # axis-aligned square: the path length covered in a step is |dx| + |dy| (also around corners)
        step_len = abs(p.x - prev[0]) + abs(p.y - prev[1])
        assert step_len == pytest.approx(per_step, abs=1e-6), f"step {n}"
        travelled += step_len
        prev = (p.x, p.y)
        assert -1e-9 <= p.x <= 48 + 1e-9 and -1e-9 <= p.y <= 48 + 1e-9
        # on the square's perimeter
        on_edge = min(abs(p.x), abs(p.x - 48), abs(p.y), abs(p.y - 48))
        assert on_edge < 1e-6
    # after one full lap (192 px) it is back at the start, going the same way (no ping-pong)
    w2 = World(open_room())
    p2 = w2.add(Platform(0, 0, 16, 8, Path(square, speed=60, mode="loop")))
    xs = []
    for _ in range(200):
        w2.step()
        xs.append((round(p2.x, 6), round(p2.y, 6)))
    assert xs[191] == (0, 0)
    assert xs[192] == (1, 0)  # straight on to the second point, not back the way it came
    assert xs[143] == (0, 48)
    assert xs[150] == (0, 41)  # the closing edge runs from the last point to the first


def test_loop_waits_at_the_first_point_only():
    square = [(0, 0), (30, 0), (30, 30), (0, 30)]
    w = World(open_room())
    p = w.add(Platform(0, 0, 16, 8, Path(square, speed=60, mode="loop", wait=0.25)))
    xs = []
    for _ in range(160):
        w.step()
        xs.append((round(p.x, 6), round(p.y, 6)))
    assert xs[29] == (30, 0) and xs[30] == (30, 1)  # no wait at the second point
    assert xs[59] == (30, 30) and xs[60] == (29, 30)  # nor the third
    assert xs[119] == (0, 0)
    assert xs[119:135] == [(0, 0)] * 16  # 15 steps of waiting at the first point
    assert xs[135] == (1, 0)


def test_platform_velocity_is_reported_per_step():
    w = World(open_room())
    p = w.add(Platform(0, 50, 32, 8, Path([(0, 50), (30, 20)], speed=60 * math.sqrt(2))))
    w.step()
    assert p.vx == pytest.approx(60.0) and p.vy == pytest.approx(-60.0)
    assert (p.prev_x, p.prev_y) == (0.0, 50.0)


# -- riders --------------------------------------------------------------------------------------------
def board(world: World, p: Platform, offset: float = 8.0) -> Character:
    """A character dropped onto the platform while it is held still, settled; then the platform goes."""
    speed, p.path.speed = p.path.speed, 0.0
    hero = world.add(Character(p.x + offset, p.y - 30))
    for _ in range(60):
        world.step()
        if hero.on_ground:
            break
    p.path.speed = speed
    assert hero.on_ground and hero.ground.kind == "platform" and hero.ground.platform is p
    return hero


def assert_riding(hero: Character, p: Platform, rel_x: float):
    assert hero.on_ground and hero.ground.platform is p
    assert hero.y + hero.h == p.y, f"lag: feet {hero.y + hero.h} vs platform top {p.y}"
    assert hero.x - p.x == pytest.approx(rel_x, abs=1e-9), "rider slid on the platform"


@pytest.mark.parametrize("one_way", [False, True])
@pytest.mark.parametrize("speed", [30.0, 120.0, 300.0])
def test_rider_on_a_horizontal_platform_is_carried_with_no_lag(one_way, speed):
    w = World(open_room(60))
    p = w.add(Platform(200, 150, 48, 8, Path([(200, 150), (400, 150)], speed=speed), one_way=one_way))
    hero = board(w, p, 16.0)
    rel = hero.x - p.x
    for _ in range(int(2.5 * 200 / speed * HZ)):  # there and back, past both ends
        w.step()
        assert_riding(hero, p, rel)


@pytest.mark.parametrize("one_way", [False, True])
@pytest.mark.parametrize("speed", [30.0, 120.0, 300.0, 600.0])
def test_rider_on_a_vertical_platform_is_carried_down_and_up_with_no_lag(one_way, speed):
    # faster than the fall speed going down (600 px/s > 360): still glued to the top
    w = World(open_room(40, 40))
    p = w.add(Platform(100, 100, 48, 8, Path([(100, 100), (100, 500)], speed=speed), one_way=one_way))
    hero = board(w, p)
    rel = hero.x - p.x
    went_down = went_up = False
    for _ in range(int(2.2 * 400 / speed * HZ)):
        w.step()
        went_down |= p.vy > 0
        went_up |= p.vy < 0
        assert_riding(hero, p, rel)
    assert went_down and went_up


def test_rider_on_a_diagonal_loop_platform_is_carried():
    w = World(open_room(40, 30))
    square = [(100, 100), (200, 100), (200, 300), (100, 300)]
    p = w.add(Platform(100, 100, 40, 8, Path(square, speed=90, mode="loop")))
    hero = board(w, p)
    rel = hero.x - p.x
    for _ in range(500):
        w.step()
        assert_riding(hero, p, rel)


def test_rider_can_walk_on_a_moving_platform():
    w = World(open_room(60))
    p = w.add(Platform(200, 150, 64, 8, Path([(200, 150), (600, 150)], speed=60)))
    hero = board(w, p, 4.0)
    for _ in range(20):
        before_rel = hero.x - p.x
        w.step(Buttons(right=True))
        assert hero.on_ground and hero.y + hero.h == p.y
        assert hero.x - p.x > before_rel  # walks forward relative to the platform


def test_rider_stays_when_platform_waits_and_reverses():
    w = World(open_room())
    p = w.add(Platform(100, 150, 40, 8, Path([(100, 150), (100, 120)], speed=60, wait=0.2)))
    hero = board(w, p)
    rel = hero.x - p.x
    for _ in range(200):
        w.step()
        assert_riding(hero, p, rel)


def test_a_rising_platform_lifts_an_actor_standing_where_its_top_starts():
    # the platform's top starts flush with the floor under the actor's feet: rising, it lifts the actor
    w = World(open_room())
    hero = w.add(Character(110, 200))
    for _ in range(40):
        w.step()
    assert hero.y + hero.h == 240.0
    p = w.add(Platform(100, 240, 40, 8, Path([(100, 240), (100, 150)], speed=60)))
    for _ in range(60):
        w.step()
        assert hero.y + hero.h == pytest.approx(p.y)
        assert hero.on_ground
        assert not (p.y < hero.y + hero.h)  # never inside the platform
    assert hero.ground.platform is p


def test_jumping_up_through_a_one_way_platform_and_landing_on_it():
    w = World(open_room())
    p = w.add(Platform(96, 200, 48, 8, Path([(96, 200), (96, 200)], speed=0), one_way=True))
    hero = w.add(Character(110, 220))
    for _ in range(40):
        w.step()
    assert hero.y + hero.h == 240.0
    w.step(Buttons(jump=True))
    landed = False
    for _ in range(60):
        r = w.step(Buttons(jump=True))
        if r.landed:
            landed = True
            break
    assert landed
    assert hero.ground.platform is p and hero.y + hero.h == 200.0


@pytest.mark.parametrize("start_y", [201.0, 205.0, 209.99])
def test_rising_one_way_platform_passes_through_an_actor_whose_feet_are_below_its_top(start_y):
    w = World(open_room())
    p = w.add(Platform(96, start_y, 48, 4, Path([(96, start_y), (96, 100)], speed=60, wait=5.0), one_way=True))
    floater = w.add(Actor(100, 200, 10, 10, gravity=False))  # feet at 210, below the platform's top
    for _ in range(120):
        w.step()
        assert (floater.x, floater.y) == (100, 200)  # never lifted or pushed
        assert not floater.on_ground
    assert p.y == 100.0


def test_rising_one_way_platform_lifts_an_actor_its_top_reaches_from_below_the_feet():
    # the feet are above the top before the step: that is standing on it
    w = World(open_room())
    p = w.add(Platform(96, 236, 48, 4, Path([(96, 236), (96, 100)], speed=50, wait=5.0), one_way=True))
    floater = w.add(Actor(100, 150, 10, 10, gravity=False))
    for _ in range(180):
        w.step()
        assert floater.y + floater.h <= max(p.y, 160.0) + 1e-9
    assert floater.y + floater.h == p.y == 100.0
    assert floater.on_ground and floater.ground.platform is p


# -- pushing and squishing --------------------------------------------------------------------------
@pytest.mark.parametrize("direction", [1, -1])
def test_a_platform_pushes_an_actor_in_its_way(direction):
    w = World(open_room(60))
    start, end = (100, 230), (500, 230)
    if direction < 0:
        start, end = (600, 230), (100, 230)
    p = w.add(Platform(*start, 40, 10, Path([start, end], speed=60)))
    hero = w.add(Character(180 if direction > 0 else 500, 220))
    for _ in range(30):
        w.step()
    pushed = 0
    for _ in range(240):
        before = hero.x
        w.step()
        assert not (p.x < hero.x + hero.w and hero.x < p.x + p.w and p.y < hero.y + hero.h
                    and hero.y < p.y + p.h), "actor inside the platform"
        if hero.x != before:
            pushed += 1
            if direction > 0:
                assert hero.x == p.x + p.w  # touching its leading face
            else:
                assert hero.x + hero.w == p.x
    assert pushed > 100
    assert hero.on_ground and hero.y + hero.h == 240.0


@pytest.mark.parametrize("direction", [1, -1])
def test_an_actor_crushed_between_a_platform_and_a_wall_is_squished(direction):
    text = "\n".join(["#" + "." * 30 + "#"] * 15 + ["#" * 32])
    w = World(TileGrid.from_ascii(text))
    if direction > 0:
        w.add(Platform(100, 220, 40, 20, Path([(100, 220), (480, 220)], speed=120)))
        hero = w.add(Character(300, 226))
    else:
        w.add(Platform(360, 220, 40, 20, Path([(360, 220), (16, 220)], speed=120)))
        hero = w.add(Character(100, 226))
    squished_at = None
    for n in range(300):
        r = w.step()
        assert not w.grid.solid_overlaps(hero.x, hero.y, hero.w, hero.h)
        if r.squished:
            assert r.squished == [hero]
            assert hero.squished
            squished_at = n
            break
        assert not hero.squished
    assert squished_at is not None
    # crushed against the wall: the actor is at the wall, the platform reached into its box
    if direction > 0:
        assert hero.x + hero.w == 31 * 16
    else:
        assert hero.x == 16


def test_an_actor_crushed_between_a_descending_platform_and_the_floor_is_squished():
    w = World(open_room())
    w.add(Platform(100, 150, 40, 16, Path([(100, 150), (100, 300)], speed=120)))
    hero = w.add(Character(110, 226))
    result = None
    for _ in range(120):
        r = w.step()
        assert hero.y + hero.h <= 240.0
        if r.squished:
            result = r
            break
    assert result is not None and result.squished == [hero]


def test_an_actor_lifted_into_a_ceiling_is_squished():
    text = "\n".join(["#" * 20] + ["." * 20] * 14 + ["#" * 20])
    w = World(TileGrid.from_ascii(text))
    p = w.add(Platform(100, 230, 40, 10, Path([(100, 230), (100, 0)], speed=120)))
    hero = board(w, p)
    result = None
    for _ in range(200):
        r = w.step()
        assert hero.y >= 16.0
        if r.squished:
            result = r
            break
    assert result is not None and result.squished == [hero]


def test_a_free_actor_is_never_squished():
    w = World(open_room())
    w.add(Platform(100, 150, 40, 8, Path([(100, 150), (300, 150)], speed=120)))
    hero = w.add(Character(300, 200))
    for _ in range(300):
        r = w.step(Buttons(left=True))
        assert r.squished == [] and not hero.squished


# -- lift momentum -----------------------------------------------------------------------------------
def jump_off(platform_path: Path, feel: FeelConfig) -> tuple[float, float, float]:
    """Ride a platform, jump; returns (vx, vy) just after the jump step and the platform's velocity."""
    w = World(open_room(100, 40), feel)
    p = w.add(Platform(500, 400, 64, 8, platform_path))
    hero = board(w, p, 20.0)
    for _ in range(3):
        w.step()
    r = w.step(Buttons(jump=True))
    assert r.jumped == [hero]
    return hero.vx, hero.vy, p.vx, p.vy


NO_AIR_DRAG = FeelConfig.from_dict({"run": {"air_decel": 0.0}})


@pytest.mark.parametrize("speed,expect", [(60.0, 60.0), (150.0, 150.0), (200.0, 200.0), (400.0, 200.0),
                                          (-90.0, -90.0), (-500.0, -200.0)])
def test_jumping_off_a_horizontal_platform_inherits_its_speed_capped(speed, expect):
    a, b = (500, 400), (500 + math.copysign(1000, speed), 400)
    vx, vy, pvx, _ = jump_off(Path([a, b], speed=abs(speed)), NO_AIR_DRAG)
    assert pvx == pytest.approx(speed)
    assert vx == pytest.approx(expect)
    assert NO_AIR_DRAG.platforms.lift_cap_x == 200.0


def _still_jump_vy() -> float:
    return jump_off(Path([(500, 400)], speed=0), NO_AIR_DRAG)[1]


@pytest.mark.parametrize("rise,extra", [(60.0, 60.0), (130.0, 130.0), (300.0, 130.0)])
def test_jumping_off_a_rising_platform_adds_its_rise_capped(rise, extra):
    base = _still_jump_vy()
    assert base < 0
    vx, vy, _, pvy = jump_off(Path([(500, 400), (500, 0)], speed=rise), NO_AIR_DRAG)
    assert pvy == pytest.approx(-rise)
    assert vy - base == pytest.approx(-extra)
    assert vx == 0.0


def test_jumping_off_a_descending_platform_gets_a_normal_jump():
    base = _still_jump_vy()
    _, vy, _, pvy = jump_off(Path([(500, 400), (500, 600)], speed=100), NO_AIR_DRAG)
    assert pvy > 0
    assert vy == pytest.approx(base)


def test_lift_caps_are_configurable():
    feel = FeelConfig.from_dict({"run": {"air_decel": 0.0}, "platforms": {"lift_cap_x": 50.0}})
    vx, *_ = jump_off(Path([(500, 400), (1500, 400)], speed=300), feel)
    assert vx == pytest.approx(50.0)
    feel0 = FeelConfig.from_dict({"run": {"air_decel": 0.0}, "platforms": {"lift_cap_x": 0.0}})
    vx, *_ = jump_off(Path([(500, 400), (1500, 400)], speed=300), feel0)
    assert vx == 0.0


@pytest.mark.parametrize("speed", [1200.0, 3000.0])
def test_a_very_fast_platform_pushes_instead_of_passing_through(speed):
    from engine import Buttons, Character, Path, Platform, TileGrid, World

    world = World(TileGrid.from_ascii("." * 60 + "\n" + "." * 60 + "\n" + "#" * 60))
    hero = world.add(Character(200, 18))
    world.settle(hero)
    world.add(Platform(0, 10, 16, 20, Path([(0, 10), (900, 10)], speed=speed)))
    for _ in range(30):
        world.step(Buttons())
        plat = world.platforms[0]
        assert hero.x >= plat.x + plat.w or hero.x + hero.w <= plat.x  # never inside, never skipped
    assert hero.x > 600  # pushed along, not left behind


def test_a_freshly_placed_actor_on_a_descending_platform_is_carried_from_the_first_step():
    from engine import Buttons, Character, Path, Platform, TileGrid, World

    world = World(TileGrid.from_ascii("." * 20 + "\n" * 1 + ("." * 20 + "\n") * 8 + "#" * 20))
    lift = world.add(Platform(32, 40, 48, 8, Path([(32, 40), (32, 120)], speed=120)))
    hero = world.add(Character(40, 26))  # feet exactly on the lift's top, not yet grounded
    for _ in range(20):
        world.step(Buttons())
        assert hero.y + hero.h == lift.y


# -- regressions from the adversarial pass (issue 8) ----------------------------------------------
def _overlaps(a, p) -> bool:
    return p.x < a.x + a.w and a.x < p.x + p.w and p.y < a.y + a.h and a.y < p.y + p.h


def _feet_not_under_a_slope(g: TileGrid, a) -> bool:
    cx, feet = a.x + a.w / 2, a.y + a.h
    c, r = math.floor(cx / 16), math.floor((feet - 1e-6) / 16)
    return g.kind_at(c, r) != 3 or feet <= g.surface_y(c, r, cx) + 1e-6


def test_push_into_slope():
    # a platform pushing an actor along the floor pushes it up the slope, never into it
    g = TileGrid.from_ascii("..........\n......////\n##########")
    w = World(g)
    pusher = w.add(Platform(0, 16, 16, 16, Path([(0, 16), (120, 16)], speed=60)))
    hero = w.add(Character(20, 18))
    assert w.settle(hero)
    for i in range(100):
        r = w.step()
        assert _feet_not_under_a_slope(g, hero), f"step {i}: {hero!r} under the slope surface"
        assert not g.solid_overlaps(hero.x, hero.y, hero.w, hero.h)
        assert hero in r.squished or not _overlaps(hero, pusher), f"step {i}: inside the pusher"
    assert hero.y + hero.h < 32.0  # it went up the slope


def test_rider_snapped_into_solid_platform():
    # a rider of a one-way lift caught under a faster solid crusher is squished, never inside it
    w = World(TileGrid.from_ascii("\n".join(["........"] * 20)))
    crusher = w.add(Platform(0, 60, 64, 8, Path([(0, 60), (0, 260)], speed=120)))
    lift = w.add(Platform(0, 100, 64, 8, Path([(0, 100), (0, 300)], speed=60), one_way=True))
    hero = w.add(Character(20, 86))
    assert w.settle(hero) and hero.ground.platform is lift
    squished = False
    for i in range(40):
        r = w.step()
        squished |= hero in r.squished
        assert hero in r.squished or not _overlaps(hero, crusher), f"step {i}: inside the crusher unreported"
    assert squished


def test_rider_teleported_into_solid():
    # a fast diagonal platform drops its rider on a ledge mid-step; later pieces do not drag it on
    g = TileGrid.from_ascii("........\n........\n....#...\n...#....\n........\n........")
    w = World(g)
    speed = math.hypot(30, 30) * 60  # the whole diagonal in one step
    lift = w.add(Platform(50, 28, 8, 4, Path([(50, 28), (20, 58)], speed=speed, wait=10)))
    hero = w.add(Actor(50, 24, 40, 4))
    r = w.step()
    assert (lift.x, lift.y) == (20, 58)
    assert not g.solid_overlaps(hero.x, hero.y, hero.w, hero.h) and hero not in r.squished
    assert hero.y + hero.h == 32.0  # left standing on the ledge it landed on (top y=32)
    for _ in range(30):
        w.step()
        assert not g.solid_overlaps(hero.x, hero.y, hero.w, hero.h)
    assert hero.on_ground and hero.y + hero.h == 32.0


def test_platform_cuts_path_corner():
    # a fast platform passing a path corner within one step sweeps the path, not the chord
    w = World(TileGrid.from_ascii("\n".join([".........."] * 4)))
    p = w.add(Platform(16, 0, 8, 8, Path([(16, 0), (32, 0), (32, 32)], speed=32 * 60)))
    a = w.add(Actor(24, 12, 4, 4, gravity=False))  # off the L: right of the chord, left of the 2nd leg
    w.step()
    assert (p.x, p.y) == (32, 16)
    assert (a.x, a.y) == (24, 12)


def test_a_fast_platform_turning_a_corner_pushes_what_is_on_its_path():
    w = World(TileGrid.from_ascii("\n".join([".........."] * 6)))
    w.add(Platform(0, 0, 8, 8, Path([(0, 0), (32, 0), (32, 64)], speed=64 * 60)))
    a = w.add(Actor(33, 20, 4, 4, gravity=False))  # on the second leg, below the corner
    w.step()
    assert a.y == 40  # pushed down ahead of the platform's bottom (y 32..40)


def test_crusher_pushes_through_oneway_floor():
    # decided: a one-way floor holds an actor pushed down onto it like a solid floor does -> squished
    for floor in ("=", "#"):
        g = TileGrid.from_ascii("\n".join(["........"] * 3 + [floor * 8] + ["........"] * 3 + ["########"]))
        w = World(g)
        crusher = w.add(Platform(0, 0, 64, 8, Path([(0, 0), (0, 100)], speed=60)))
        hero = w.add(Character(20, 30))
        assert w.settle(hero)
        squished = False
        for _ in range(120):
            r = w.step()
            squished |= hero in r.squished
            assert hero.y + hero.h <= 48.0, f"floor {floor!r}: pushed through to {hero!r}"
            assert hero in r.squished or not _overlaps(hero, crusher)
        assert squished, floor


def test_a_rider_carried_into_a_wall_stays_at_the_wall():
    # the carry is an ordinary move: the wall stops the rider, the platform slides on under its feet
    text = "\n".join(["." * 12 + "#" * 4] * 6 + ["#" * 16])
    w = World(TileGrid.from_ascii(text))
    p = w.add(Platform(120, 60, 64, 8, Path([(120, 60), (400, 60)], speed=120)))
    hero = board(w, p, 40.0)
    for _ in range(40):
        r = w.step()
        assert r.squished == [] and not w.grid.solid_overlaps(hero.x, hero.y, hero.w, hero.h)
    assert hero.x + hero.w == 12 * 16 and hero.vx == 0.0  # against the wall


def test_a_platform_is_drawn_between_its_last_two_positions():
    # (engine/docs/bodies.md: platform.interpolated(alpha) lerps prev -> current, as an Actor's)
    world = World(TileGrid.from_ascii("." * 20 + "\n" + "." * 20))
    lift = world.add(Platform(16, 8, 32, 8, Path([(16, 8), (160, 8)], speed=60.0)))
    world.step()
    assert (lift.prev_x, lift.x) == (16.0, 17.0)
    assert lift.interpolated(0.0) == (16.0, 8.0) and lift.interpolated(1.0) == (17.0, 8.0)
    assert lift.interpolated(0.25) == (16.25, 8.0)


@pytest.mark.parametrize("kind, left, right", [(1, 0, 0), (3, 3, 3), (3, 0, 16), (3, 15, 15), (3, 16, 16), (3, 0, 0)])
def test_a_lift_never_carries_its_rider_up_into_a_ceiling_of_slopes(kind, left, right):
    # from below, a slope tile is a flat ceiling: the rider is held under it and squished, as under rock
    import numpy as np

    from engine import Character, Edges

    k = np.zeros((10, 10), int)
    sl, sr = np.zeros((10, 10)), np.zeros((10, 10))
    k[3, 3:6] = kind  # the ceiling: y = 48..64
    sl[3, 3:6], sr[3, 3:6] = (left, right) if kind == 3 else (0, 0)
    w = World(TileGrid(k, 16, sl, sr, Edges(False, False, False, False)))
    w.add(Platform(40.0, 140.0, 48.0, 8.0, Path([(40.0, 140.0), (40.0, 20.0)], 30.0)))
    hero = w.add(Character(58.0, 126.0, 10.0, 14.0))
    squished = 0
    for _ in range(400):
        squished += hero in w.step().squished
        assert hero.y >= 64.0 or hero.squished  # never inside the ceiling row, nor above it
    assert squished > 0 and hero.y > 160.0  # crushed, then fell once the lift had passed through it


@pytest.mark.parametrize("speed", [30.0, 40.0, 48.0, 60.0, 96.0, 128.0, 256.0, 320.0])
@pytest.mark.parametrize("mode", ["ping-pong", "loop"])
def test_a_lift_lands_exactly_on_its_points_however_long_it_runs(speed, mode):
    # 512 px legs covered in a whole number of steps: at every arrival the platform is on the point itself,
    # never 1e-12 px beside it (its position comes from the distance along the leg, not a running sum)
    w = World(TileGrid.from_ascii("." * 40 + "\n" + "." * 40))
    points = [(0.0, 0.0), (512.0, 0.0)] if mode == "ping-pong" else [(0.0, 0.0), (512.0, 0.0), (512.0, 512.0)]
    p = w.add(Platform(0.0, 0.0, 32, 8, Path(points, speed, mode)))
    per_leg = round(512.0 / (speed / 60.0))
    legs = []
    for step in range(1, 6 * per_leg + 1):
        w.step()
        assert 0.0 <= p.x <= 512.0 and 0.0 <= p.y <= 512.0
        if step % per_leg == 0:
            legs.append((p.x, p.y))
    if mode == "ping-pong":
        assert legs == [(512.0, 0.0), (0.0, 0.0)] * 3
    else:  # the diagonal back is longer: only the first two arrivals fall on a step
        assert legs[:2] == [(512.0, 0.0), (512.0, 512.0)]
