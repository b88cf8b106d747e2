"""Wall slide and wall jump: off unless the feel turns them on; the slide's cap and grip, the wall jump's
push, height, reach, coyote window, buffer and input lock exact to the step; walls are what the X pass
stops at (tiles, slope faces, platforms, crates, map edges), never a one-way tile's side or a slope one
could walk up."""

import math

import pytest

from engine import Actor, Buttons, Character, FeelConfig, Platform, TileGrid, World

TS = 16
WALL_COL = 20  # a solid column: its left face at x = 320
FACE = WALL_COL * TS
ROWS = 40
WALLED = "\n".join("." * WALL_COL + "#" + "." * 19 for _ in range(ROWS)) + "\n" + "#" * 40
ON = FeelConfig.from_dict({"wall": {"slide": True, "jump": True}})
NONE, RIGHT, LEFT = Buttons(), Buttons(right=True), Buttons(left=True)


def world(feel=ON, text=WALLED):
    return World(TileGrid.from_ascii(text), feel)


def hanging(w, gap=0.0, y=40.0, vy=0.0):
    """A hero in the air, ``gap`` px left of the wall's face, falling at ``vy``."""
    hero = w.add(Character(FACE - 10 - gap, y))
    hero.vy = vy
    return hero


def kinds(result):
    return [e.kind for e in result.events if e.kind in ("wall_slide", "wall_jump", "climb_jump", "dash")]


# -- off unless turned on ------------------------------------------------------------------------------
def test_the_moves_are_off_in_a_default_feel():
    feel = FeelConfig()
    assert not (feel.wall.slide or feel.wall.jump or feel.dash.enabled)
    assert not feel.derived.moves
    w = world(feel)
    hero = hanging(w)
    for i in range(80):
        r = w.step(Buttons(right=True, jump=i % 10 == 5))
        assert not kinds(r) and hero not in r.jumped
    assert hero.vy == feel.fall.max_speed  # pushing into the wall never slowed the fall


def test_a_feel_without_the_moves_steps_exactly_as_one_that_never_heard_of_them():
    """Turning the moves off is the old controller: the same positions, step for step, dash button or not."""
    text = "\n".join(["." * 30] * 8 + ["....##....====..........#....."] + ["." * 30] * 3 + ["#" * 30])
    script = [Buttons(right=(i // 40) % 2 == 0, left=(i // 40) % 2 == 1, jump=(i % 23) < 9, down=i % 50 > 45,
                      up=i % 7 == 0) for i in range(300)]
    a = World(TileGrid.from_ascii(text), FeelConfig())
    b = World(TileGrid.from_ascii(text), FeelConfig.from_dict({"wall": {"slide_speed": 10.0, "jump_reach": 20.0},
                                                               "dash": {"speed": 900.0}}))
    ha, hb = a.add(Character(40, 100)), b.add(Character(40, 100))
    for s in script:
        a.step(s)
        b.step(s._replace(dash=True))
        assert (ha.x, ha.y, ha.vx, ha.vy, ha.on_ground) == (hb.x, hb.y, hb.vx, hb.vy, hb.on_ground)


# -- wall slide ----------------------------------------------------------------------------------------
def test_sliding_caps_the_fall_at_slide_speed_and_the_grip_wears_off_over_slide_time():
    d, wall, fall = ON.derived, ON.wall, ON.fall
    g = d.fall_gravity * d.dt
    w = world()
    hero = hanging(w, y=0.0)
    for k in range(d.grip_steps + 5):
        vy0 = hero.vy
        r = w.step(RIGHT)
        if k < d.grip_steps:
            cap = wall.slide_speed + (fall.max_speed - wall.slide_speed) * k / d.grip_steps
            assert hero.vy == pytest.approx(min(vy0 + g, cap)), f"sliding step {k}"
            assert kinds(r) == ["wall_slide"] and hero.sliding == 1
        else:  # the grip is spent: an ordinary fall
            assert hero.vy == pytest.approx(min(vy0 + g, fall.max_speed))
            assert not kinds(r) and hero.sliding == 0
    assert d.grip_steps == round(wall.slide_time * 60) == 72
    assert hero.x == FACE - 10  # pressed against the face all the way down


def test_a_fast_fall_into_a_wall_slows_at_the_rate_gravity_speeds_it_up():
    d = ON.derived
    w = world()
    hero = hanging(w, y=0.0, vy=300.0)
    w.step(RIGHT)
    assert hero.vy == pytest.approx(300.0 - d.fall_gravity * d.dt)
    for _ in range(30):
        w.step(RIGHT)
    cap = ON.wall.slide_speed + (ON.fall.max_speed - ON.wall.slide_speed) * 30 / d.grip_steps
    assert hero.vy == pytest.approx(cap)


@pytest.mark.parametrize("why,buttons,gap,vy", [
    ("not pushing into it", NONE, 0.0, 50.0),
    ("pushing away from it", LEFT, 0.0, 50.0),
    ("holding down lets go", Buttons(right=True, down=True), 0.0, 50.0),
    ("rising", RIGHT, 0.0, -200.0),
    ("more than a pixel off the wall", RIGHT, 1.5, 50.0),
])
def test_no_slide(why, buttons, gap, vy):
    w = world(ON.with_value("run.air_accel", 0.0))  # (so pushing toward it does not close the gap)
    hero = hanging(w, gap=gap, vy=vy)
    r = w.step(buttons)
    assert not kinds(r) and hero.sliding == 0, why


def test_landing_renews_the_grip():
    w = world()
    hero = hanging(w, y=ROWS * TS - 200)
    steps = 0
    while not hero.on_ground:
        w.step(RIGHT)
        steps += 1
    assert 0 < steps < ON.derived.grip_steps and hero.grip_used == 0


def test_slide_off_only_with_slide_on():
    w = world(FeelConfig.from_dict({"wall": {"jump": True}}))
    hero = hanging(w)
    for _ in range(60):
        assert not kinds(w.step(RIGHT))
    assert hero.vy == ON.fall.max_speed


# -- wall jump -----------------------------------------------------------------------------------------
def test_a_wall_jump_kicks_away_at_jump_speed_and_rises_to_jump_height():
    d, wall, run = ON.derived, ON.wall, ON.run
    w = world()
    hero = hanging(w, y=300.0, vy=40.0)
    w.step(RIGHT)
    y0, vy0 = hero.y, hero.vy
    r = w.step(Buttons(right=True, jump=True))
    assert hero in r.jumped and kinds(r) == ["wall_jump"]
    event = next(e for e in r.events if e.kind == "wall_jump")
    assert event.normal == (-1, 0) and event.tile == (WALL_COL, math.floor((y0 + 7) / TS)) \
        and event.other is None and event.vy == vy0 and event.vx == 0.0
    # away at jump_speed (this step's air drag already applied: it is faster than running), up at the
    # take-off speed of jump_height
    assert hero.vx == pytest.approx(-(wall.jump_speed - run.air_decel * d.dt))
    assert hero.facing == -1
    top = hero.y
    for _ in range(80):
        w.step(Buttons(jump=True))
        top = min(top, hero.y)
    assert (y0 - top) == pytest.approx(wall.jump_height, abs=1.5)
    assert d.wall_takeoff_speed == pytest.approx(math.sqrt(2 * d.gravity * wall.jump_height))


@pytest.mark.parametrize("height,speed", [(32.0, 200.0), (80.0, 400.0)])
def test_wall_jump_height_and_speed_are_knobs(height, speed):
    feel = ON.from_dict({"wall": {"jump_height": height, "jump_speed": speed}}, base=ON)
    w = world(feel)
    hero = hanging(w, y=300.0)
    y0 = hero.y
    w.step(Buttons(jump=True))
    assert hero.vx == pytest.approx(-(speed - feel.run.air_decel * feel.derived.dt))
    top = hero.y
    for _ in range(120):
        w.step(Buttons(jump=True))
        top = min(top, hero.y)
    assert (y0 - top) == pytest.approx(height, abs=1.5)


@pytest.mark.parametrize("reach", [0.0, 3.0, 6.0, 16.0])
def test_jump_reach_is_exact(reach):
    feel = ON.with_value("wall.jump_reach", reach)
    for gap, kicks in ((reach, True), (reach + 0.01, False)):
        w = world(feel)
        hero = hanging(w, gap=gap)
        r = w.step(Buttons(jump=True))
        assert (hero in r.jumped) == kicks, f"gap {gap} with reach {reach}"


def _leave_the_wall(feel):
    """A hero sliding down the wall, then drifting away from it with no input; returns the world just
    after the last step that ended within reach of the wall, and that step's number."""
    w = world(feel)
    hero = hanging(w, vy=20.0)
    for _ in range(5):
        w.step(RIGHT)
    hero.vx = -30.0  # drifting off, slowly (no air drag)
    reach = feel.wall.jump_reach
    while True:
        before = w.clone()
        w.step(NONE)
        if FACE - (hero.x + hero.w) > reach:
            return before, before.steps


@pytest.mark.parametrize("coyote", [0.0, 0.05, 0.1])
def test_wall_coyote_window_is_exact_to_the_step(coyote):
    feel = ON.from_dict({"wall": {"coyote_time": coyote}, "run": {"air_decel": 0.0}}, base=ON)
    k_steps = feel.derived.wall_coyote_steps
    assert k_steps == round(coyote * 60)
    start, k = _leave_the_wall(feel)
    for j in range(1, k_steps + 3):
        branch = start.clone()
        hero = branch.actors[0]
        while branch.steps < k + j - 1:
            branch.step(NONE)
        r = branch.step(Buttons(jump=True))
        assert r.step == k + j
        assert (hero in r.jumped) == (j <= max(k_steps, 1)), f"press {j} steps after the last step near the wall"
        assert (kinds(r) == ["wall_jump"]) == (j <= max(k_steps, 1))


def test_wall_jump_buffer_is_exact_to_the_step():
    """A jump pressed in the air up to M steps before the step that ends within reach of a wall (or on
    it) kicks off on the step after it."""
    feel = ON.with_value("run.air_decel", 0.0)
    m = feel.derived.buffer_steps
    w = world(feel)
    hero = w.add(Character(FACE - 10 - 60, 40.0))
    hero.vx = 90.0  # drifting toward the wall, 1.5 px a step
    start = w.clone()
    arrival = None
    while arrival is None:
        w.step(NONE)
        if FACE - (hero.x + hero.w) <= feel.wall.jump_reach:
            arrival = w.steps
    for i in range(m + 3):
        branch = start.clone()
        b_hero = branch.actors[0]
        kicked = None
        for s in range(start.steps + 1, arrival + 3):
            r = branch.step(Buttons(jump=(s == arrival - i)))
            if b_hero in r.jumped:
                kicked = r.step
        assert kicked == (arrival + 1 if i <= m else None), f"press {i} steps before reaching the wall"


def test_input_is_locked_away_from_the_wall_for_lock_time_exactly():
    d = ON.derived
    assert d.lock_steps == round(ON.wall.lock_time * 60) == 10
    w = world()
    hero = hanging(w, y=300.0)
    r = w.step(Buttons(right=True, jump=True))
    assert hero in r.jumped
    facings = [hero.facing]
    for _ in range(d.lock_steps + 3):
        w.step(RIGHT)  # pushing straight back toward the wall
        facings.append(hero.facing)
    # the jump's step and the next lock_steps - 1 read "away" (left); then right is right again
    assert facings == [-1] * d.lock_steps + [1] * 4


def test_landing_ends_the_lock():
    w = world(ON.with_value("wall.lock_time", 1.0))
    hero = hanging(w, y=ROWS * TS - 40)
    w.step(Buttons(jump=True))
    assert hero.lock_left > 0
    while not hero.on_ground:
        w.step(NONE)
    assert hero.lock_left == 0
    w.step(RIGHT)
    assert hero.facing == 1


def test_the_ground_jump_wins_next_to_a_wall():
    w = world()
    hero = w.add(Character(FACE - 10, ROWS * TS - 14))
    for _ in range(5):
        w.step(NONE)
    assert hero.on_ground
    r = w.step(Buttons(jump=True))
    assert hero in r.jumped and not kinds(r) and hero.vx == 0.0


def test_one_kick_per_press_in_a_narrow_shaft():
    text = "\n".join("##..##" for _ in range(30)) + "\n######"
    w = World(TileGrid.from_ascii(text), ON)
    hero = w.add(Character(32.0, 300.0))
    jumps = sum(hero in w.step(Buttons(jump=True)).jumped for _ in range(40))
    assert jumps == 1


def test_climbing_a_two_wall_shaft_by_wall_jumps():
    text = "\n".join("##..##" for _ in range(30)) + "\n######"
    w = World(TileGrid.from_ascii(text), ON)
    hero = w.add(Character(32.0, 30 * TS - 14))
    for _ in range(5):
        w.step(NONE)
    y0 = hero.y
    side = 1
    for i in range(400):
        push = Buttons(right=side > 0, left=side < 0, jump=i % 20 < 10)
        r = w.step(push)
        if any(e.kind == "wall_jump" for e in r.events):
            side = -side
    assert y0 - hero.y > 10 * TS  # ten tiles up and out of the shaft's top


def test_climb_jump_goes_straight_up_the_wall():
    feel = ON.with_value("wall.climb_jump", True)
    w = world(feel)
    hero = hanging(w, y=300.0)
    r = w.step(Buttons(right=True, jump=True))
    assert kinds(r) == ["climb_jump"] and hero in r.jumped
    assert hero.vx == 0.0 and hero.vy < 0.0 and hero.lock_left == 0 and hero.x == FACE - 10
    w2 = world(feel)
    hero2 = hanging(w2, y=300.0)
    assert kinds(w2.step(Buttons(jump=True))) == ["wall_jump"]  # not pushing into it: away
    assert hero2.vx < 0


# -- what counts as a wall -----------------------------------------------------------------------------
def test_a_one_way_tile_has_no_sides_to_slide_on_or_kick_off():
    text = "\n".join("." * WALL_COL + "=" + "." * 19 for _ in range(ROWS)) + "\n" + "#" * 40
    w = world(text=text)
    hero = hanging(w)
    r = w.step(Buttons(right=True, jump=True))
    assert not kinds(r) and hero not in r.jumped
    for _ in range(10):
        assert not kinds(w.step(RIGHT))
    assert hero.x > FACE - 10  # it walked into the one-way column


def test_a_slope_one_could_walk_up_is_no_wall_but_a_slope_face_is():
    rows = ["." * 20] * 12
    rows[10] = "." * 10 + "/" + "." * 9  # rising right: its left side is the ground line
    rows[6] = "." * 10 + "\\" + "." * 9  # falling right: a 16 px face on its left
    text = "\n".join(rows) + "\n" + "#" * 20
    g = TileGrid.from_ascii(text)
    w = World(g, ON)
    hero = w.add(Character(160 - 10, 10 * TS + 1))  # feet in the '/' tile's row, beside its low edge
    assert hero not in w.step(Buttons(jump=True)).jumped
    w = World(g, ON)
    hero = w.add(Character(160 - 10, 6 * TS + 1))  # beside the '\' tile's face
    r = w.step(Buttons(jump=True))
    assert hero in r.jumped and kinds(r) == ["wall_jump"]


def test_a_platform_and_a_crate_are_walls_and_the_event_names_them():
    text = "\n".join(["." * 30] * 30) + "\n" + "#" * 30
    w = World(TileGrid.from_ascii(text), ON)
    pillar = w.add(Platform(200, 100, 16, 200))
    hero = w.add(Character(200 - 10, 150))
    r = w.step(RIGHT)
    slide = [e for e in r.events if e.kind == "wall_slide"]
    assert slide and slide[0].other is pillar and slide[0].tile is None
    r = w.step(Buttons(jump=True))
    assert [e.other for e in r.events if e.kind == "wall_jump"] == [pillar]
    w = World(TileGrid.from_ascii(text), ON)
    crate = w.add(Actor(200, 30 * TS - 64, 16, 64, solid=True))
    hero = w.add(Character(200 - 10, 30 * TS - 60))
    hero.vy = 30.0
    r = w.step(RIGHT)
    assert [e.other for e in r.events if e.kind == "wall_slide"] == [crate]
    r = w.step(Buttons(jump=True))
    assert [e.other for e in r.events if e.kind == "wall_jump"] == [crate] and hero.vx < 0


def test_a_wall_jump_off_a_moving_platform_inherits_its_motion():
    from engine import Path
    text = "\n".join(["." * 40] * 30) + "\n" + "#" * 40
    w = World(TileGrid.from_ascii(text), ON)
    lift = w.add(Platform(300, 100, 16, 200, Path([(300, 100), (300, 0)], speed=60)))
    hero = w.add(Character(300 - 10, 150))
    w.step(NONE)
    r = w.step(Buttons(jump=True))
    assert hero in r.jumped and lift.vy == pytest.approx(-60.0)
    plain = ON.derived.wall_takeoff_speed
    assert hero.vy == pytest.approx(-plain - 60.0 + ON.derived.gravity / 60)


def test_the_map_edge_is_a_wall():
    w = world()
    hero = w.add(Character(0.0, 100.0))
    r = w.step(Buttons(jump=True))
    assert kinds(r) == ["wall_jump"] and hero.vx > 0


def test_snapshot_restore_mid_wall_jump_is_bit_identical():
    w = world(ON.with_value("dash.enabled", True))
    hero = hanging(w, y=200.0)
    script = [RIGHT] * 5 + [Buttons(jump=True)] * 3 + [Buttons(right=True, dash=True)] + [RIGHT] * 30
    for b in script[:7]:
        w.step(b)
    snap = w.snapshot()
    first = []
    for b in script[7:]:
        w.step(b)
        first.append(w.state_hash())
    w.restore(snap)
    again = []
    for b in script[7:]:
        w.step(b)
        again.append(w.state_hash())
    assert first == again
    assert hero.lock_left == 0 and hero.dashes_spent == 1
