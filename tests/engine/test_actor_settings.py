"""Per-actor settings: gravity_scale (and the old gravity flag as its on/off alias), data, and a
Character's own FeelConfig (its jump, run and windows; the world's step rate)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import Actor, Buttons, Character, FeelConfig, TileGrid, World

OPEN = "\n".join(["." * 30] * 12 + ["#" * 30])


def world_of(text: str = OPEN, feel: FeelConfig | None = None) -> World:
    return World(TileGrid.from_ascii(text), feel)


# -- gravity_scale -------------------------------------------------------------------------------------------

def test_gravity_scale_scales_the_fall():
    w = world_of()
    ones = [w.add(Actor(16 + 40 * i, 0, 8, 8, gravity_scale=s)) for i, s in enumerate((1.0, 0.5, 2.0, 0.0))]
    for _ in range(10):  # well before terminal speed
        w.step()
    full, half, double, none = (a.y for a in ones)
    assert full > 0 and none == 0.0 and ones[3].vy == 0.0
    assert half == pytest.approx(full / 2) and double == pytest.approx(full * 2)
    assert ones[1].vy == pytest.approx(ones[0].vy / 2)


def test_gravity_scale_one_is_bit_identical_to_the_default():
    a, b = world_of(), world_of()
    x = a.add(Actor(20, 0, 8, 8))
    y = b.add(Actor(20, 0, 8, 8, gravity_scale=1.0))
    for _ in range(50):
        a.step()
        b.step()
        assert (x.y, x.vy) == (y.y, y.vy)
    assert a.state_hash() == b.state_hash()


def test_negative_gravity_pulls_up_to_the_ceiling_at_terminal_speed():
    w = world_of("#" * 30 + "\n" + OPEN)
    balloon = w.add(Actor(40, 150, 8, 8, gravity_scale=-1.0))
    speeds = []
    for _ in range(120):
        w.step()
        speeds.append(balloon.vy)
    assert balloon.y == 16.0  # resting against the ceiling (the first row)
    assert min(speeds) >= -w.feel.fall.max_speed
    assert min(speeds) == pytest.approx(-w.feel.fall.max_speed)
    assert not balloon.on_ground


def test_terminal_speed_holds_for_heavy_actors():
    w = world_of("\n".join(["." * 4] * 200 + ["#" * 4]))
    rock = w.add(Actor(4, 0, 8, 8, gravity_scale=5.0))
    for _ in range(60):
        w.step()
    assert rock.vy == w.feel.fall.max_speed


def test_a_character_with_lower_gravity_jumps_higher():
    heights = []
    for scale in (1.0, 0.5):
        w = world_of()
        hero = w.add(Character(20, 178, gravity_scale=scale))
        w.step()
        top = hero.y
        for i in range(120):
            w.step(Buttons(jump=i < 60))
            top = min(top, hero.y)
        heights.append(178 - top)
    assert heights[1] > heights[0] * 1.8


def test_the_gravity_flag_is_an_on_off_alias():
    assert Actor(0, 0, 4, 4, gravity=False).gravity_scale == 0.0
    assert Actor(0, 0, 4, 4, gravity=True).gravity_scale == 1.0
    assert Actor(0, 0, 4, 4, gravity=np.bool_(False)).gravity is False
    a = Actor(0, 0, 4, 4, gravity_scale=2.5)
    assert a.gravity is True
    a.gravity = False
    assert a.gravity_scale == 0.0
    a.gravity = True
    assert a.gravity_scale == 1.0
    a.gravity_scale = -0.5
    assert a.gravity_scale == -0.5 and a.gravity is True


@pytest.mark.parametrize("value", [0.5, 2.0, -1.0, 3])
def test_a_number_given_as_gravity_says_to_use_gravity_scale(value):
    with pytest.raises(TypeError, match=rf"Actor: gravity must be True or False .*gravity_scale={value!r}") as e:
        Actor(0, 0, 4, 4, gravity=value)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("call, error, message", [
    (lambda: Actor(0, 0, 4, 4, gravity=False, gravity_scale=0.5), ValueError, "give gravity_scale only"),
    (lambda: Actor(0, 0, 4, 4, gravity_scale="heavy"), TypeError, "Actor: gravity_scale must be a number"),
    (lambda: Actor(0, 0, 4, 4, gravity_scale=math.nan), ValueError, "Actor: gravity_scale must be a finite"),
    (lambda: Character(0, 0, gravity_scale=math.inf), ValueError, "Character: gravity_scale must be a finite"),
    (lambda: Character(0, 0, feel={"jump": {}}), TypeError, "Character: feel must be a FeelConfig"),
])
def test_bad_settings(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_setting_gravity_scale_is_checked():
    a = Actor(0, 0, 4, 4)
    with pytest.raises(ValueError, match="gravity_scale"):
        a.gravity_scale = math.inf
    with pytest.raises(TypeError, match="gravity"):
        a.gravity = 0.5
    assert a.gravity_scale == 1.0


def test_state_hash_and_snapshots_see_gravity_scale():
    w = world_of()
    a = w.add(Actor(20, 0, 8, 8))
    before = w.state_hash()
    snap = w.snapshot()
    a.gravity_scale = 0.25
    assert w.state_hash() != before
    w.restore(snap)
    assert a.gravity_scale == 1.0 and w.state_hash() == before


# -- data ----------------------------------------------------------------------------------------------------

def test_data_is_a_keyword_and_an_attribute_the_engine_never_reads():
    stats = {"hp": 3}
    w = world_of()
    goomba = w.add(Actor(20, 0, 8, 8, data=stats))
    hero = w.add(Character(60, 0, data="me"))
    assert goomba.data is stats and hero.data == "me"
    goomba.data = ("walker", 2)
    hero.data = None
    assert Actor(0, 0, 1, 1).data is None
    snap = w.snapshot()
    goomba.data = "changed"
    w.restore(snap)
    assert goomba.data == "changed"  # the game's own: a snapshot leaves it alone (like Trigger.data)
    twin = w.clone()
    assert twin.actors[0].data is goomba.data  # clones share it


# -- a character's own feel ----------------------------------------------------------------------------------

def jump_height(world: World, hero: Character) -> float:
    for _ in range(3):
        world.step()
    start, top = hero.y, hero.y
    for i in range(150):
        world.step({hero: Buttons(jump=i < 80)})
        top = min(top, hero.y)
    return start - top


def test_each_character_jumps_with_its_own_feel():
    w = world_of()
    plain = w.add(Character(20, 178))
    springy = w.add(Character(200, 178, feel=FeelConfig.from_dict({"jump": {"height": 96}})))
    for _ in range(3):
        w.step()
    start, top = {plain: plain.y, springy: springy.y}, {plain: plain.y, springy: springy.y}
    for i in range(150):
        w.step(Buttons(jump=i < 80))
        for c in top:
            top[c] = min(top[c], c.y)
    assert start[plain] - top[plain] == pytest.approx(48, abs=1.0)
    assert start[springy] - top[springy] == pytest.approx(96, abs=1.0)


def test_the_world_feel_is_the_default_and_own_feel_ignores_the_step_rate():
    w = world_of(feel=FeelConfig.from_dict({"jump": {"height": 32}}))
    hero = w.add(Character(20, 178))
    assert jump_height(w, hero) == pytest.approx(32, abs=1.0)
    w2 = world_of()
    other = w2.add(Character(20, 178, feel=FeelConfig.from_dict({"physics": {"hz": 240}, "jump": {"height": 32}})))
    assert jump_height(w2, other) == pytest.approx(32, abs=1.0)
    assert w2.dt == pytest.approx(1 / 60)  # the world still steps at 60 Hz


def coyote_jumps(feel: FeelConfig | None, late: int) -> bool:
    """Run off a ledge and press jump ``late`` steps after the last grounded step."""
    w = world_of("\n".join(["." * 30] * 12 + ["#####" + "." * 25] + ["." * 30] * 4 + ["#" * 30]))
    hero = w.add(Character(60, 178, feel=feel))
    w.step()
    for _ in range(200):
        w.step(Buttons(right=True))
        if not hero.on_ground:
            break
    for _ in range(late - 1):
        w.step(Buttons(right=True))
    return hero in w.step(Buttons(right=True, jump=True)).jumped


def test_coyote_and_buffer_windows_come_from_the_characters_feel():
    none = FeelConfig.from_dict({"jump": {"coyote_time": 0.0, "buffer_time": 0.0}})
    assert coyote_jumps(None, 3)  # the default: 6 steps of coyote time
    assert not coyote_jumps(none, 1)
    long = FeelConfig.from_dict({"jump": {"coyote_time": 0.5}})
    assert coyote_jumps(long, 25) and not coyote_jumps(None, 25)


def test_own_feel_is_state_for_hashes_and_snapshots():
    w = world_of()
    hero = w.add(Character(20, 178))
    snap = w.snapshot()
    before = w.state_hash()
    hero.feel = FeelConfig.from_dict({"run": {"max_speed": 300}})
    assert w.state_hash() != before
    w.restore(snap)
    assert hero.feel is None and w.state_hash() == before
    hero.feel = FeelConfig.from_dict({"run": {"max_speed": 300}})
    for _ in range(60):
        w.step(Buttons(right=True))
    assert hero.vx == pytest.approx(300)


def test_control_false_rests_the_controller_and_the_game_drives_the_move():
    from engine import Buttons, Character, TileGrid, World

    w = World(TileGrid.from_ascii("." * 40 + "\n" + "." * 40 + "\n" + "#" * 40))
    hero = w.add(Character(20, 18))
    w.settle(hero)
    hero.control = False
    hero.vx = 300.0  # a dash: the game's own speed, kept (no run acceleration, no turn)
    x0 = hero.x
    for _ in range(10):
        w.step(Buttons(left=True, jump=True))
    assert hero.x == pytest.approx(x0 + 50.0) and hero.on_ground and hero.vx == 300.0
    assert hero.held == Buttons(left=True, jump=True)  # (so the held jump is no new press later)
    hero.vx, hero.vy = 0.0, -200.0  # a scripted hop: gravity and the floor still apply
    for _ in range(60):
        w.step()
    assert hero.on_ground and hero.y + hero.h == 32.0
    hero.control = True
    for _ in range(30):
        w.step(Buttons(right=True))
    assert hero.vx == pytest.approx(w.feel.run.max_speed)
    snap = w.snapshot()
    hero.control = False
    w.restore(snap)
    assert hero.control  # part of the state


def test_control_is_in_the_state_hash_and_a_clone_keeps_it():
    # (engine/docs/bodies.md: control is "part of state_hash and snapshots")
    from engine import Character, TileGrid, World

    w = World(TileGrid.from_ascii("." * 10 + "\n" + "#" * 10))
    hero = w.add(Character(20, 2))
    before = w.state_hash()
    hero.control = False
    assert w.state_hash() != before
    twin = w.clone()
    assert not twin.actors[0].control and twin.state_hash() == w.state_hash()
    hero.control = True
    assert w.state_hash() == before
