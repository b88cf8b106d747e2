"""The game rules over a level: spawn, death and respawn, checkpoints, coins, signposts, goal."""

from dataclasses import replace
from pathlib import Path

import pytest

from engine import Buttons, FeelConfig
from game.files.inputscript import parse_script
from game.files.levelfile import load_level
from game.rules.session import CONTRACT_EVENTS, DEATH_STEPS, PLAYER_H, PLAYER_W, Session

MAPS = Path(__file__).resolve().parents[2] / "maps"
RIGHT, LEFT, NONE = Buttons(right=True), Buttons(left=True), Buttons()


def session(name, feel=None):
    return Session(load_level(MAPS / name), feel or FeelConfig())


def play(s, buttons, steps):
    out = []
    for _ in range(steps):
        out.extend(s.step(buttons))
    return out


def first(events, kind):
    return next(e for e in events if e.type == kind)


def test_the_player_starts_with_its_feet_centred_on_the_spawn_point():
    s = session("flat.tmx")
    p = s.player
    assert (p.w, p.h) == (PLAYER_W, PLAYER_H) == (10, 14)
    assert (p.x + p.w / 2, p.y + p.h) == (40.0, 112.0)
    s.step(NONE)
    assert p.on_ground and (p.x, p.y + p.h) == (35.0, 112.0)
    assert (s.steps, s.deaths, s.coins, s.completed, s.dead) == (1, 0, 0, False, False)


def test_walking_through_a_signpost_reports_enter_and_exit_and_shows_its_message():
    s = session("objects.tmx")
    messages = []
    events = []
    for _ in range(40):
        events += s.step(RIGHT)
        messages.append(s.message)
    enter, exit_ = first(events, "enter"), first(events, "exit")
    assert (enter.name, exit_.name) == ("sign", "sign")
    assert messages[enter.step - 1] == "Jump the spikes"
    assert messages[exit_.step - 2] == "Jump the spikes" and messages[exit_.step - 1] is None


def test_a_hazard_kills_and_the_player_reappears_standing_at_the_checkpoint_within_30_steps():
    s = session("objects.tmx")
    events = play(s, RIGHT, 80)
    cp, death = first(events, "checkpoint"), first(events, "death")
    assert (cp.name, death.name, s.deaths) == ("cp1", "spikes", 1)
    assert s.respawn == (136.0, 112.0)
    # replay from scratch to observe each step after the death
    s = session("objects.tmx")
    play(s, RIGHT, death.step)
    frozen = (s.player.x, s.player.y)
    for _ in range(DEATH_STEPS):
        assert s.step(RIGHT) == [] and s.dead
        assert (s.player.x, s.player.y) == frozen
    back = s.step(RIGHT)  # inputs are ignored on the respawn step
    assert [e.type for e in back][:1] == ["respawn"]
    assert s.steps - death.step <= 30
    p = s.player
    assert not s.dead and p.on_ground and (p.vx, p.vy) == (0.0, 0.0)
    assert (p.x + p.w / 2, p.y + p.h) == (136.0, 112.0)
    assert [e.type for e in s.events].count("checkpoint") == 1  # same checkpoint again: no event


def test_passing_high_above_a_flag_does_not_reach_it():
    """A checkpoint is its own rectangle (16 x 32 px here), never its column: 46 px above its top the
    player passes by without taking it (level 8 took flags 2,178 px above the hero by column)."""
    s = session("objects.tmx")
    cp = s.level.checkpoints[0]
    p = s.player
    s.step(NONE)
    p.teleport(cp.x - 30, cp.y - 80)
    p.vx = 150.0
    while p.x < cp.x + cp.w:
        assert s.steps < 60, "never got past the flag"
        s.step(RIGHT)
        assert p.y + p.h < cp.y  # above the flag's box all the way
    assert s.checkpoint is None and s.respawn == s.level.spawn


def test_a_flag_drawn_over_the_whole_passage_is_reached_by_jumping_over_the_art():
    """The designer draws the rectangle floor to ceiling where a player may jump over the flag; the flag's
    art and the respawn point stand at its bottom-centre."""
    lv = load_level(MAPS / "objects.tmx")
    cp = lv.checkpoints[0]
    tall = replace(cp, y=cp.y - 64, h=cp.h + 64)
    s = Session(replace(lv, checkpoints=[tall]), FeelConfig())
    p = s.player
    s.step(NONE)
    p.teleport(cp.x - 30, cp.y - 50)
    p.vx = 150.0
    events = []
    while not any(e.type == "checkpoint" for e in events):
        assert s.steps < 60, "never reached the checkpoint"
        events += s.step(RIGHT)
    assert p.y + p.h < cp.y  # in the air above the flag's art
    assert s.respawn == tall.bottom_centre == cp.bottom_centre


def _two_overlapping_flags():
    lv = load_level(MAPS / "objects.tmx")
    cp = lv.checkpoints[0]
    a, b = replace(cp, name="a", id=100), replace(cp, x=cp.x + 8, name="b", id=101)
    return Session(replace(lv, checkpoints=[a, b]), FeelConfig()), a, b


def test_each_flag_fires_once_a_life_even_where_two_overlap():
    """Standing where two flags overlap fired a checkpoint event every step (273 in level 8's replay)."""
    s, a, b = _two_overlapping_flags()
    p = s.player
    s.step(NONE)
    p.teleport(a.x + 8 - p.w / 2, a.y + a.h - p.h)  # in both boxes
    play(s, NONE, 60)
    play(s, LEFT, 6)
    play(s, RIGHT, 6)  # out of one and back in
    play(s, NONE, 30)
    assert [(e.type, e.name) for e in s.events if e.type == "checkpoint"] == [("checkpoint", "a"), ("checkpoint", "b")]
    assert s.checkpoint is b


def test_after_a_death_a_flag_may_be_taken_again():
    s, a, b = _two_overlapping_flags()
    p = s.player
    s.step(NONE)
    p.teleport(a.x + 8 - p.w / 2, a.y + a.h - p.h)
    play(s, NONE, 5)
    assert s.checkpoint is b
    while not s.deaths:  # on into the spikes; respawn at b's foot, inside both boxes
        assert s.steps < 120, "never reached the spikes"
        s.step(RIGHT)
    play(s, NONE, DEATH_STEPS + 10)
    names = [e.name for e in s.events if e.type == "checkpoint"]
    assert names == ["a", "b", "a", "b"]  # a new life: each is taken again, once
    assert s.checkpoint is b


def test_a_flag_not_yet_touched_is_not_reached():
    s = session("objects.tmx")
    cp = s.level.checkpoints[0]
    s.player.teleport(cp.x - s.player.w - 1, cp.y)  # just left of the flag's box
    s.step(NONE)
    assert s.checkpoint is None


def test_a_collected_coin_stays_collected_after_a_death():
    s = session("objects.tmx")
    play(s, RIGHT, 80)
    assert (s.coins, s.deaths) == (1, 1)
    assert s.collected == {3}
    play(s, NONE, 25)
    events = play(s, LEFT, 40)  # back over where coin c1 was
    assert "coin" not in [e.type for e in events] and s.coins == 1


def test_falling_out_of_the_map_kills_and_respawns_at_the_spawn():
    s = session("pit.tmx")
    events = play(s, RIGHT, 70)
    death = first(events, "death")
    assert death.name == ""
    play(s, NONE, DEATH_STEPS + 1)
    assert (s.player.x + 5, s.player.y + 14, s.player.on_ground) == (40.0, 112.0, True)


def test_the_fall_death_happens_when_the_top_of_the_box_passes_the_bottom_edge():
    s = session("pit.tmx")
    ys = []
    while not s.dead:
        s.step(RIGHT)
        ys.append(s.player.y)
    assert ys[-1] > s.level.height >= ys[-2]


def test_a_platform_crushing_the_player_against_the_floor_kills():
    s = session("crusher.tmx")
    events = play(s, NONE, 60)
    death = first(events, "death")
    assert death.name == "" and s.deaths >= 1


def test_reaching_the_goal_completes_the_run_on_that_step():
    s = session("goal.tmx")
    events = play(s, RIGHT, 100)
    goal = first(events, "goal")
    assert goal.name == "flag" and s.completed and s.steps == goal.step
    assert s.step(RIGHT) == [] and s.steps == goal.step  # nothing happens after the goal
    assert s.coins == 0  # the coin past the goal was never reached


def test_platforms_follow_their_spec():
    s = session("platforms.tmx")
    lift, shuttle = s.platforms[2], s.platforms[4]
    assert lift.path.points == [(64, 160), (64, 96), (112, 96)]
    assert (lift.path.speed, lift.path.wait, lift.path.mode, lift.one_way) == (40.0, 0.5, "ping-pong", False)
    assert shuttle.one_way
    play(s, NONE, 30)
    assert lift.y == pytest.approx(160 - 40 * 0.5)
    assert shuttle.x == pytest.approx(160 + 60 * 0.5)


def test_extras_are_returned_by_step_but_never_recorded_as_contract_events():
    s = session("flat.tmx")
    returned = play(s, NONE, 5) + play(s, Buttons(jump=True), 30) + play(s, NONE, 40)
    kinds = [e.type for e in returned]
    assert "jump" in kinds and "land" in kinds
    assert all(e.type in CONTRACT_EVENTS for e in s.events) and s.events == []


def test_same_inputs_give_the_same_state_and_different_inputs_differ():
    steps = parse_script("20 right\n15 right+jump\n30 -\n")
    a, b = session("objects.tmx"), session("objects.tmx")
    for buttons in steps:
        a.step(buttons)
        b.step(buttons)
    assert a.summary() == b.summary()
    b.step(NONE)
    assert a.state_hash() != b.state_hash()


def test_summary_has_the_contract_shape():
    s = session("objects.tmx")
    play(s, RIGHT, 40)
    out = s.summary()
    assert list(out) == ["level", "steps", "completed", "deaths", "coins", "player", "events", "state_hash"]
    assert out["level"] == "objects.tmx" and out["steps"] == 40
    assert set(out["player"]) == {"x", "y", "w", "h", "vx", "vy", "on_ground"}
    assert all(isinstance(out["player"][k], float) for k in ("x", "y", "w", "h", "vx", "vy"))
    assert out["events"][0] == {"step": 10, "type": "enter", "name": "sign"}


def test_set_feel_keeps_position_and_velocity():
    s = session("flat.tmx")
    play(s, RIGHT, 10)
    before = (s.player.x, s.player.y, s.player.vx, s.player.vy)
    s.set_feel(FeelConfig.from_dict({"run": {"max_speed": 300}}))
    assert (s.player.x, s.player.y, s.player.vx, s.player.vy) == before
    assert s.world.feel.run.max_speed == 300 and s.feel.run.max_speed == 300


def test_walking_over_slopes_stays_grounded_without_snagging():
    s = session("slopes.tmx")
    grounds = []
    for _ in range(100):
        s.step(RIGHT)
        p = s.player
        assert p.on_ground, s.steps
        grounds.append(p.ground.kind)
        if s.steps >= 10 and p.x < 280:
            assert p.vx == 150.0, s.steps  # full speed over every seam, up and down
        if p.ground.kind == "slope":
            col, row = int((p.x + p.w / 2) // 16), int((p.y + p.h - 1e-6) // 16)
            assert p.y + p.h == pytest.approx(s.level.grid.surface_y(col, row, p.x + p.w / 2))
    assert grounds.count("slope") >= 15


def test_the_player_rides_a_platform_along_its_path():
    s = session("platforms.tmx")
    for buttons in parse_script("8 right\n20 right+jump\n153 -\n"):
        s.step(buttons)
    lift, p = s.platforms[2], s.player
    assert p.on_ground and p.ground.kind == "platform" and p.ground.platform is lift
    assert (lift.x, lift.y) == (112.0, 96.0)  # the end of its polyline path
    assert p.y + p.h == lift.y


def _pit_with_spawn_at(tmp_path, y):
    import shutil

    for name in ("test_tiles.tsx", "test_tiles.png"):
        shutil.copy(MAPS / name, tmp_path / name)
    text = (MAPS / "pit.tmx").read_text().replace('type="spawn" x="40" y="112"', f'type="spawn" x="40" y="{y}"')
    (tmp_path / "pit.tmx").write_text(text)
    return Session(load_level(tmp_path / "pit.tmx"), FeelConfig())


@pytest.mark.parametrize("y", [112, 120, 104, 100])
def test_a_spawn_drawn_into_or_above_the_floor_still_starts_standing_on_it(tmp_path, y):
    s = _pit_with_spawn_at(tmp_path, y)  # floor top is y=112
    p = s.player
    assert p.on_ground and p.y + p.h == 112 and (p.vx, p.vy) == (0.0, 0.0)
    assert s.summary()["player"]["on_ground"] is True
    play(s, Buttons(), 30)
    assert s.deaths == 0 and p.y + p.h == 112


def test_a_jump_held_through_a_death_is_not_a_new_press():
    s = session("pit.tmx")
    events = play(s, Buttons(), 2) + play(s, Buttons(right=True, jump=True), 200)
    assert s.deaths >= 2
    assert [e.type for e in events].count("jump") == 1  # one press, however many respawns
    for _ in range(60):  # hold jump (no new press) until the player stands at the spawn again
        if not s.dead and s.player.on_ground:
            break
        s.step(Buttons(jump=True))
    assert not s.dead and s.player.on_ground
    assert "jump" not in [e.type for e in play(s, Buttons(jump=True), 3)]
    s.step(Buttons())  # released...
    assert "jump" in [e.type for e in s.step(Buttons(jump=True))]  # ...and pressed again: a jump


def test_level_time_accumulates_each_step_at_the_rate_in_force():
    """Issue 10: switching physics.hz mid-run made the HUD jump 0:12.58 -> 0:02.26 and saved 2.925 s for a
    ~13 s run (time was steps / the current hz)."""
    s = session("flat.tmx")
    play(s, NONE, 755)
    assert s.time == 755 / 60
    s.set_feel(FeelConfig().with_value("physics.hz", 1000))
    play(s, NONE, 500)
    assert s.time == pytest.approx(755 / 60 + 0.5, abs=1e-9)
    s.set_feel(FeelConfig())
    play(s, NONE, 30)
    assert s.time == pytest.approx(755 / 60 + 0.5 + 0.5, abs=1e-9)


def test_level_time_at_one_rate_is_exactly_steps_over_hz():
    s = session("flat.tmx", FeelConfig().with_value("physics.hz", 120))
    play(s, RIGHT, 1000)
    assert s.time == 1000 / 120


# -- snapshots ----------------------------------------------------------------------------------------------

def test_every_session_attribute_is_copied_or_declared_kept():
    s = session("objects.tmx")
    play(s, RIGHT, 40)
    declared = set(Session.STATE_COPIED) | set(Session.STATE_CONTAINERS) | set(Session.STATE_KEPT)
    assert set(vars(s)) - declared == set(), \
        "Session has attributes its snapshot does not know: list them in Session.STATE_* (game/rules/session.py)"
    assert declared - set(vars(s)) == set()


def _random_buttons(seed, n):
    import random

    rng = random.Random(seed)
    words = [Buttons(right=True), Buttons(right=True, jump=True), Buttons(left=True), Buttons(jump=True),
             Buttons(down=True, jump=True), Buttons()]
    return [rng.choice(words) for _ in range(n)]


def _trace(s, inputs):
    return [(tuple(s.step(b)), s.state_hash(), s.message) for b in inputs]


@pytest.mark.parametrize("name, seed", [("objects.tmx", 1), ("objects.tmx", 2), ("pit.tmx", 3),
                                        ("platforms.tmx", 4), ("crusher.tmx", 5)])
def test_session_restore_then_step_is_identical_to_never_having_left(name, seed):
    s = session(name)
    for k in (0, 37, 90, 160):  # snapshots at several points, alive or dead
        inputs = _random_buttons(seed * 100 + k, 150)
        snap = s.snapshot()
        summary = s.summary()
        first = _trace(s, inputs)
        s.restore(snap)
        assert s.summary() == summary
        assert _trace(s, inputs) == first


def test_a_snapshot_taken_while_dead_respawns_the_same_way():
    s = session("pit.tmx")
    play(s, RIGHT, 200)
    while not s.dead:
        s.step(RIGHT)
    snap = s.snapshot()
    first = _trace(s, [Buttons(jump=True)] * 40)
    assert not s.dead
    s.restore(snap)
    assert s.dead and s.player not in s.world.actors
    assert _trace(s, [Buttons(jump=True)] * 40) == first


def test_a_session_snapshot_restores_only_into_its_own_session():
    with pytest.raises(ValueError, match="another Session"):
        session("flat.tmx").restore(session("flat.tmx").snapshot())
