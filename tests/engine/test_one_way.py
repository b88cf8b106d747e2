"""One-way platforms: pass through from below and the sides; land only when the feet were at or above
the top before the step; drop through with down+jump for a configurable number of steps; rising
through never snags; down+jump on solid ground is an ordinary jump."""

from __future__ import annotations

import pytest

from engine import Actor, Buttons, Character, FeelConfig, TileGrid, World

TS = 16

SHELF = """
..........
..........
..........
..====....
..........
..........
##########
"""  # one-way top at y=48, floor at y=96


def settle(world: World, hero: Character, steps: int = 40) -> None:
    for _ in range(steps):
        world.step()
    assert hero.on_ground


def test_standing_on_a_one_way_tile():
    g = TileGrid.from_ascii(SHELF)
    w = World(g)
    hero = w.add(Character(40, 0))
    settle(w, hero)
    assert hero.y + hero.h == 48.0
    assert hero.ground.kind == "one_way" and hero.ground.one_way


def test_jumping_up_through_from_below_and_landing_on_top():
    g = TileGrid.from_ascii(SHELF)
    w = World(g)
    hero = w.add(Character(40, 80))
    settle(w, hero)
    assert hero.y + hero.h == 96.0
    w.step(Buttons(jump=True))
    passed_through = False
    landed = None
    for _i in range(80):
        r = w.step(Buttons(jump=True))
        if hero.y + hero.h < 48.0:
            passed_through = True
        if r.landed:
            landed = hero.y + hero.h
            break
        assert not hero.on_ground
    assert passed_through  # the one-way did not stop the rise
    assert landed == 48.0  # and caught the fall
    assert hero.ground.kind == "one_way"


def _jump_trace(text: str, x: float, vx_buttons: Buttons, steps: int = 60) -> list[tuple[float, float]]:
    g = TileGrid.from_ascii(text)
    w = World(g)
    hero = w.add(Character(x, 80))
    settle(w, hero)
    trace = []
    w.step(Buttons(jump=True, left=vx_buttons.left, right=vx_buttons.right))
    for _ in range(steps):
        w.step(Buttons(jump=True, left=vx_buttons.left, right=vx_buttons.right))
        if hero.vy >= 0:  # the rise is over
            break
        trace.append((hero.x, hero.y, hero.vx, hero.vy))
    return trace


@pytest.mark.parametrize("x", [40.0, 30.5, 27.0, 91.3])
@pytest.mark.parametrize("direction", [0, 1, -1])
def test_rising_through_a_one_way_is_identical_to_rising_through_air(x, direction):
    """No snag: the rise through a one-way row matches the same jump under empty sky, step for step."""
    buttons = Buttons(right=direction > 0, left=direction < 0)
    empty = SHELF.replace("=", ".")
    through = _jump_trace(SHELF, x, buttons)
    reference = _jump_trace(empty, x, buttons)
    assert len(through) > 10
    assert through == reference


def test_thick_one_way_block_is_also_passed_from_below():
    text = """
..........
..====....
..====....
..====....
..........
..........
##########
"""
    g = TileGrid.from_ascii(text)
    w = World(g)
    hero = w.add(Character(40, 80))
    settle(w, hero)
    w.step(Buttons(jump=True))
    lowest_head = hero.y
    for _ in range(25):
        w.step(Buttons(jump=True))
        lowest_head = min(lowest_head, hero.y)
    assert lowest_head < 40  # rose into / through the one-way rows without being stopped at y=64


@pytest.mark.parametrize("direction", [1, -1])
def test_walking_through_from_the_sides(direction):
    # a one-way row at body height: the character walks straight through it
    text = """
.................
.................
.................
.................
.......==........
#################
"""
    g = TileGrid.from_ascii(text)
    w = World(g)
    hero = w.add(Character(40 if direction > 0 else 220, 60))
    settle(w, hero)
    assert hero.y + hero.h == 80.0
    buttons = Buttons(right=direction > 0, left=direction < 0)
    for _ in range(70):
        before = hero.x
        w.step(buttons)
        assert (hero.x - before) * direction > 0
        assert hero.y + hero.h == 80.0 and hero.ground.kind == "solid"
    if direction > 0:  # fully past the one-way tiles (x 112..144)
        assert hero.x > 144
    else:
        assert hero.x + hero.w < 112


def test_flying_sideways_through_a_one_way_tile():
    g = TileGrid.from_ascii(SHELF)
    w = World(g)
    a = w.add(Actor(0, 50, 10, 10, gravity=False))  # body at y 50..60, one-way rows 48..64
    a.vx = 300.0
    for _ in range(20):
        before = a.x
        w.step()
        assert a.x == pytest.approx(before + 5.0)
        assert a.contacts == []


@pytest.mark.parametrize("feet_offset,lands", [(-3.0, True), (-0.001, True), (0.0, True),
                                              (0.001, False), (1.0, False), (8.0, False)])
def test_land_only_when_the_feet_were_at_or_above_the_top(feet_offset, lands):
    g = TileGrid.from_ascii(SHELF)
    w = World(g)
    a = w.add(Actor(40, 48.0 - 14 + feet_offset, 10, 14))
    a.vy = 300.0  # falling at least 5 px this step
    w.step()
    if lands:
        assert a.on_ground and a.ground.kind == "one_way"
        assert a.y + a.h == 48.0
    else:
        assert not a.on_ground
        assert a.y + a.h > 48.0
        for _ in range(60):
            w.step()
        assert a.y + a.h == 96.0  # fell through to the floor


def test_a_fast_fall_from_far_above_still_lands():
    g = TileGrid.from_ascii(SHELF)
    w = World(g)
    a = w.add(Actor(40, 0, 10, 14, gravity=False))
    a.vy = 60 * 40.0  # 40 px per step: crosses the top within one step
    w.step()
    assert a.y + a.h == 48.0 and a.on_ground


def test_apex_inside_the_one_way_falls_back_through():
    # a short hop whose feet never clear the top: the character falls back to the floor below
    text = """
..........
..........
..====....
..........
##########
"""  # one-way top 32, floor 64; jump height 20 px: feet reach 44 only
    feel = FeelConfig.from_dict({"jump": {"height": 20.0}})
    g = TileGrid.from_ascii(text)
    w = World(g, feel)
    hero = w.add(Character(40, 40))
    settle(w, hero)
    w.step(Buttons(jump=True))
    for _i in range(60):
        r = w.step(Buttons(jump=True))
        if r.landed:
            break
    assert hero.on_ground and hero.y + hero.h == 64.0
    assert hero.ground.kind == "solid"


# -- drop through -----------------------------------------------------------------------------------
STACK = """
..........
..........
..........
..====....
..====....
..........
..====....
..........
..........
##########
"""  # one-way tops at 48, 64 and 96; floor at 144


def test_down_and_jump_drops_through_for_the_drop_time():
    g = TileGrid.from_ascii(STACK)
    w = World(g)
    d = w.feel.derived
    hero = w.add(Character(40, 0))
    settle(w, hero)
    assert hero.y + hero.h == 48.0
    r = w.step(Buttons(down=True, jump=True))
    assert r.dropped == [hero] and r.jumped == []
    assert not hero.on_ground
    assert hero.vy >= 0.0  # no upward jump
    assert hero.drop_left == d.drop_steps - 1
    lefts = [hero.drop_left]
    for _ in range(60):
        r = w.step()
        lefts.append(hero.drop_left)
        if r.landed:
            break
    # the timer counts down one per step
    assert lefts[: d.drop_steps] == list(range(d.drop_steps - 1, -1, -1))
    # dropped through the tops at 48 and 64 while the timer ran, caught by the one at 96 after it
    assert hero.on_ground and hero.y + hero.h == 96.0
    assert hero.ground.kind == "one_way"


def test_the_drop_time_is_configurable():
    feel = FeelConfig.from_dict({"platforms": {"drop_through_time": 0.02}})  # round(1.2) = one step
    g = TileGrid.from_ascii(STACK)
    w = World(g, feel)
    hero = w.add(Character(40, 0))
    settle(w, hero)
    r = w.step(Buttons(down=True, jump=True))
    assert r.dropped == [hero]
    for _ in range(60):
        if w.step().landed:
            break
    assert hero.y + hero.h == 64.0  # the next one-way down catches it
    assert w.feel.derived.drop_steps == 1


def test_holding_down_alone_does_not_drop():
    g = TileGrid.from_ascii(SHELF)
    w = World(g)
    hero = w.add(Character(40, 0))
    settle(w, hero)
    for _ in range(30):
        r = w.step(Buttons(down=True))
        assert r.dropped == [] and hero.on_ground and hero.y + hero.h == 48.0


def test_a_drop_lands_back_on_the_floor_not_the_one_way():
    g = TileGrid.from_ascii(SHELF)
    w = World(g)
    hero = w.add(Character(40, 0))
    settle(w, hero)
    w.step(Buttons(down=True, jump=True))
    for _ in range(60):
        w.step(Buttons(down=True, jump=True))  # holding both: no new press, no new drop
        assert hero.y + hero.h > 48.0
    assert hero.on_ground and hero.y + hero.h == 96.0 and hero.ground.kind == "solid"


def test_down_and_jump_on_solid_ground_is_a_normal_jump():
    g = TileGrid.from_ascii(SHELF)
    normal = World(g)
    hero_n = normal.add(Character(120, 60))
    settle(normal, hero_n)
    downy = World(g)
    hero_d = downy.add(Character(120, 60))
    settle(downy, hero_d)
    assert hero_d.ground.kind == "solid"
    rn = normal.step(Buttons(jump=True))
    rd = downy.step(Buttons(down=True, jump=True))
    assert rd.jumped == [hero_d] and rd.dropped == []
    assert rn.jumped == [hero_n]
    assert hero_d.vy < 0 and hero_d.y == hero_n.y
    for _ in range(8):  # rising: holding down does not change the rise
        normal.step(Buttons(jump=True))
        downy.step(Buttons(jump=True, down=True))
        assert hero_d.y == hero_n.y


def test_drop_from_a_one_way_next_to_solid_under_the_other_foot_is_a_jump():
    # standing on a one-way and a solid tile at the same height: the solid wins, down+jump jumps
    text = """
..........
..........
..........
..==##....
..........
..........
##########
"""
    g = TileGrid.from_ascii(text)
    w = World(g)
    hero = w.add(Character(60, 0))  # x 60..70 spans the one-way (col 3) and the solid (col 4)
    settle(w, hero)
    assert hero.ground.kind == "solid" and not hero.ground.one_way
    r = w.step(Buttons(down=True, jump=True))
    assert r.jumped == [hero] and r.dropped == []


@pytest.mark.parametrize("speed", [60, 120, 200, 300, 600])
def test_drop_through_descending_lift_fails(speed):
    # dropping through a one-way lift going down faster than the player falls at first: the lift is
    # ignored until the player is below its top, however long that takes
    from engine import Path, Platform

    g = TileGrid.from_ascii("\n".join(["........"] * 60))
    w = World(g)
    lift = w.add(Platform(0, 50, 64, 8, Path([(0, 50), (0, 900)], speed=speed), one_way=True))
    hero = w.add(Character(20, 36))
    assert w.settle(hero)
    w.step()
    r = w.step(Buttons(down=True, jump=True))
    assert r.dropped == [hero]
    for _ in range(240):  # (a lift faster than the fall passes through when it turns back up)
        r = w.step(Buttons(down=True))
        assert r.landed == [], f"landed back on the lift at {hero!r}"
        if hero.y > lift.y + lift.h:
            break
    assert hero.y > lift.y + lift.h and hero.drop_platform is None


def test_a_lift_carrying_a_rider_down_onto_a_one_way_floor_leaves_it_there():
    # a one-way top holds anything moving down onto it, a carried rider too (the lift passes behind it)
    from engine import Path, Platform

    g = TileGrid.from_ascii("\n".join(["........"] * 4 + ["=======."] + ["........"] * 5 + ["########"]))
    w = World(g)
    lift = w.add(Platform(40, 40, 48, 8, Path([(40, 40), (40, 140)], speed=60, wait=5)))
    hero = w.add(Character(50, 26))
    assert w.settle(hero) and hero.ground.platform is lift
    for _ in range(120):
        w.step()
    assert lift.y == 140.0
    assert hero.on_ground and hero.ground.kind == "one_way" and hero.y + hero.h == 64.0
