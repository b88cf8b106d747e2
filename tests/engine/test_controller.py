"""The feel controller: jump height and apex time, variable jump, coyote and buffer windows exact to
the step, running accelerations, fast fall, corner correction."""

import pytest

from engine import Buttons, Character, FeelConfig, TileGrid, World

FLAT = "\n".join(["." * 40] * 12 + ["#" * 40])
NONE, JUMP, RIGHT = Buttons(), Buttons(jump=True), Buttons(right=True)


def settled(text=FLAT, x=100.0, y=150.0, feel=None):
    world = World(TileGrid.from_ascii(text), feel or FeelConfig())
    hero = world.add(Character(x, y))
    for _ in range(60):
        world.step(NONE)
    assert hero.on_ground
    return world, hero


@pytest.mark.parametrize("height,t_apex,hz", [(48, 0.40, 60), (56, 0.38, 60), (32, 0.3, 120), (80, 0.5, 50)])
def test_held_jump_reaches_the_configured_height_and_apex_time(height, t_apex, hz):
    feel = FeelConfig.from_dict({"jump": {"height": height, "time_to_apex": t_apex}, "physics": {"hz": hz}})
    world, hero = settled(feel=feel)
    y0 = hero.y
    ys = []
    for _ in range(int(hz * t_apex * 2) + 4):
        world.step(JUMP)
        ys.append(hero.y)
    peak = min(ys)
    assert abs((y0 - peak) - height) <= 1.5
    apex_step = ys.index(peak) + 1
    assert abs(apex_step - t_apex * hz) <= 2


def test_tapped_jump_is_much_lower_than_a_held_one():
    def peak(hold_steps):
        world, hero = settled()
        y0 = hero.y
        best = y0
        for i in range(80):
            world.step(JUMP if i < hold_steps else NONE)
            best = min(best, hero.y)
        return y0 - best

    tap, half, full = peak(1), peak(12), peak(80)
    assert tap < half < full
    assert full == pytest.approx(48, abs=1.5)
    assert tap < 0.4 * full


def _walk_off_ledge():
    text = "\n".join(["." * 40] * 8 + ["#" * 12 + "." * 28] + ["." * 40] * 10 + ["#" * 40])
    world, hero = settled(text, x=150, y=100)
    last_ground = None
    while True:
        world.step(RIGHT)
        if hero.on_ground:
            last_ground = world.steps
        else:
            break
    return world, hero, last_ground


def test_coyote_window_is_exact_to_the_step():
    n = FeelConfig().derived.coyote_steps
    assert n == 6
    world, _hero, k = _walk_off_ledge()
    # ``world`` is now at step k + 1 (first airborne step, no jump pressed).
    for j in range(2, n + 3):
        branch = world.clone()
        b_hero = branch.actors[0]
        while branch.steps < k + j - 1:
            branch.step(RIGHT)
        result = branch.step(Buttons(right=True, jump=True))
        assert result.step == k + j
        jumped = b_hero in result.jumped
        assert jumped == (j <= n), f"press {j} steps after the last grounded step"


def test_coyote_zero_means_only_grounded_jumps():
    feel = FeelConfig.from_dict({"jump": {"coyote_time": 0.0}})
    world, hero = settled(feel=feel)
    assert hero in world.step(JUMP).jumped


def _fall_and_land():
    world, hero = settled()
    hero.teleport(hero.x, hero.y - 120)
    start = world.clone()
    landing = None
    while landing is None:
        world.step(NONE)
        if hero.on_ground:
            landing = world.steps
    return start, landing


def test_jump_buffer_window_is_exact_to_the_step():
    m = FeelConfig().derived.buffer_steps
    start, landing = _fall_and_land()
    for i in range(m + 3):
        world = start.clone()
        hero = world.actors[0]
        jumped_at = None
        for s in range(start.steps + 1, landing + 3):
            result = world.step(Buttons(jump=(s == landing - i)))
            if hero in result.jumped:
                jumped_at = result.step
        if i <= m:
            assert jumped_at == landing + 1, f"press {i} steps before landing"
        else:
            assert jumped_at is None, f"press {i} steps before landing must not jump"


def test_holding_jump_does_not_rejump_on_landing():
    world, hero = settled()
    jumps = 0
    for _ in range(200):
        jumps += hero in world.step(JUMP).jumped
    assert jumps == 1


def test_running_reaches_max_speed_and_stops_with_deceleration():
    feel = FeelConfig()
    world, hero = settled()
    speeds = []
    for _ in range(30):
        world.step(RIGHT)
        speeds.append(hero.vx)
    assert speeds == sorted(speeds)
    assert speeds[-1] == pytest.approx(feel.run.max_speed)
    steps_to_top = next(i for i, v in enumerate(speeds) if v == feel.run.max_speed) + 1
    assert steps_to_top == pytest.approx(feel.run.max_speed / feel.run.ground_accel * 60, abs=1)
    world.step(NONE)
    assert hero.vx == pytest.approx(feel.run.max_speed - feel.run.ground_decel / 60)
    world.step(Buttons(left=True))
    assert hero.vx < feel.run.max_speed - feel.run.ground_decel / 60 - feel.run.turn_accel / 60 + 1e-9
    assert hero.facing == -1


def test_fall_speed_is_capped_and_fast_fall_is_faster():
    feel = FeelConfig()
    text = "\n".join(["." * 10] * 200 + ["#" * 10])
    for buttons, cap in ((NONE, feel.fall.max_speed), (Buttons(down=True), feel.fall.fast_max_speed)):
        world = World(TileGrid.from_ascii(text))
        hero = world.add(Character(40, 0))
        for _ in range(120):
            world.step(buttons)
        assert hero.vy == pytest.approx(cap)


CEILING = "\n".join(["." * 20] * 9 + ["......####.........."] + ["." * 20] * 2 + ["#" * 20])


def test_corner_correction_nudges_around_a_ceiling_corner():
    # the ceiling block spans x 96..160, y 144..160; the hero's right edge pokes 3 px under its corner
    world, hero = settled(CEILING, x=96 - 10 + 3, y=170)
    x0 = hero.x
    top = hero.y
    for _ in range(30):
        world.step(JUMP)
        top = min(top, hero.y)
    assert hero.x == x0 - 3  # nudged just clear of the corner
    assert top < 144 - 10, "rose past the ceiling's bottom edge (y=160)"


def test_a_wide_overlap_with_a_ceiling_is_a_head_bonk():
    world, hero = settled(CEILING, x=100, y=170)
    x0 = hero.x
    for _ in range(30):
        world.step(JUMP)
        assert hero.y >= 160  # never above the block's bottom edge (y=160)
    assert hero.x == x0


def test_apex_hang_lowers_gravity_near_the_apex():
    base = FeelConfig()
    hang = base.with_value("jump.apex_hang_gravity", 0.4)

    def airtime(feel):
        world, hero = settled(feel=feel)
        n = 0
        world.step(JUMP)
        while not hero.on_ground:
            world.step(JUMP)
            n += 1
        return n

    assert airtime(hang) > airtime(base)


def test_corner_correction_through_thin_wall():
    # the nudge is swept: a 2 px character never hops through a 1 px solid platform used as a wall ...
    from engine import Platform

    g = TileGrid.from_ascii("........\n........\n##......\n........\n........\n........\n########")
    w = World(g)
    w.add(Platform(33.0, 48, 1, 48))
    hero = w.add(Character(30.0, 80, w=2, h=14))
    assert w.settle(hero)
    for _ in range(40):
        w.step(JUMP)
        assert hero.x + hero.w <= 33.0, f"through the 1 px wall: {hero!r}"
    # ... nor through a one-tile wall of 4 px tiles with an 8 px correction
    g4 = TileGrid.from_ascii("\n".join(["." * 10] * 3 + ["###......."] + ["...#......"] * 7 + ["#" * 10]),
                             tile_size=4)
    w4 = World(g4, FeelConfig.from_dict({"jump": {"corner_correction": 8.0, "height": 30.0}}))
    h4 = w4.add(Character(10.0, 30, w=2, h=6))
    assert w4.settle(h4)
    for _ in range(30):
        w4.step(JUMP)
        assert h4.x + h4.w <= 12.0, f"through the wall column: {h4!r}"
