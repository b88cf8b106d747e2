"""FixedTimestep: frames in, whole fixed steps out; alpha for interpolation; spiral guard."""

import pytest

from engine import Buttons, Character, FeelConfig, FixedTimestep, TileGrid, World

LEVEL = """
..............................
..............................
..........====................
..............................
.....#..................../###
..........p q.....======./####
##############################
"""


def test_60hz_frames_give_one_step_each():
    clock = FixedTimestep(FeelConfig())
    assert [clock.advance(1 / 60) for _ in range(10)] == [1] * 10
    assert clock.steps == 10


def test_240hz_frames_give_a_step_every_fourth_frame_and_alpha_rises():
    clock = FixedTimestep(FeelConfig())
    seen = []
    for _ in range(8):
        seen.append((clock.advance(1 / 240), round(clock.alpha, 6)))
    assert [n for n, _ in seen] == [0, 0, 0, 1, 0, 0, 0, 1]
    assert [a for _, a in seen][:3] == [0.25, 0.5, 0.75]
    assert all(0.0 <= a <= 1.0 for _, a in seen)


def test_slow_frame_is_capped_by_the_spiral_guard():
    clock = FixedTimestep(FeelConfig(), max_frame_time=0.1)
    assert clock.advance(5.0) == 6  # 0.1 s of steps, not 300
    assert clock.dropped_time == pytest.approx(4.9)


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(ValueError, match="frame_time"):
        FixedTimestep(FeelConfig()).advance(float("nan"))
    with pytest.raises(ValueError, match="max_frame_time"):
        FixedTimestep(FeelConfig(), max_frame_time=0)
    with pytest.raises(TypeError, match="max_frame_time"):
        FixedTimestep(FeelConfig(), max_frame_time="1")


# -- one step rate: the clock takes it from the world --------------------------------------------
@pytest.mark.parametrize("call", [lambda: FixedTimestep(hz=120), lambda: FixedTimestep(60), lambda: FixedTimestep()],
                         ids=["hz=120", "60", "nothing"])
def test_a_clock_with_its_own_rate_is_a_clear_error(call):
    with pytest.raises(TypeError, match=r"FixedTimestep\(world\).*physics.hz"):
        call()


@pytest.mark.parametrize("hz", [30, 60, 120, 240])
def test_the_clock_steps_at_the_worlds_rate_so_one_second_is_one_second(hz):
    world = World(TileGrid.from_ascii(LEVEL), FeelConfig.from_dict({"physics": {"hz": hz}}))
    hero = world.add(Character(20, 60))
    clock = FixedTimestep(world)
    assert (clock.hz, clock.dt) == (hz, world.dt)
    hero.vx = 100.0
    hero.teleport(20, 60)
    for _ in range(60):  # one second of 60 fps frames, holding right
        for _ in range(clock.advance(1 / 60)):
            world.step(Buttons(right=True))
    assert world.steps == hz
    assert clock.max_frame_time == world.feel.physics.max_frame_time


def test_a_retuned_rate_retimes_the_clock():
    world = World(TileGrid.from_ascii(LEVEL))
    clock = FixedTimestep(world)
    assert [clock.advance(1 / 60) for _ in range(3)] == [1, 1, 1]
    world.set_feel(world.feel.with_value("physics.hz", 120))
    assert clock.hz == 120
    assert [clock.advance(1 / 60) for _ in range(3)] == [2, 2, 2]


def _inputs(n):
    """A fixed, busy input sequence: run, jump, turn, drop, hold."""
    out = []
    for i in range(n):
        out.append(Buttons(right=(i // 40) % 3 != 2, left=(i // 40) % 3 == 2, jump=(i % 37) < 12,
                           down=(i % 90) > 80))
    return out


@pytest.mark.parametrize("fps", [30, 60, 144, 240])
def test_same_inputs_at_any_frame_rate_give_a_bit_identical_state(fps):
    reference = _run_fixed(600)
    world, hero = _world()
    clock = FixedTimestep(world)
    inputs = _inputs(600)
    done = 0
    while done < len(inputs):
        for _ in range(clock.advance(1 / fps)):
            if done < len(inputs):
                world.step(inputs[done])
                done += 1
    assert world.steps == 600
    assert world.state_hash() == reference
    x, _y = hero.interpolated(clock.alpha)
    assert min(hero.prev_x, hero.x) <= x <= max(hero.prev_x, hero.x)


def _world():
    world = World(TileGrid.from_ascii(LEVEL))
    hero = world.add(Character(20, 60))
    return world, hero


def _run_fixed(n):
    world, _ = _world()
    for b in _inputs(n):
        world.step(b)
    return world.state_hash()
