"""tools/find_replay.py --after: a script's beginning kept up to where the player first stands past a column,
and the search goes on from there (for a level edited only beyond that column)."""

import importlib.util
import sys
from pathlib import Path

import pytest

from engine import FeelConfig
from game.files.inputscript import parse_script
from game.files.levelfile import load_level
from game.rules.session import Session

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
SPEC = importlib.util.spec_from_file_location("find_replay", ROOT / "tools" / "find_replay.py")
fr = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(fr)
MAP = ROOT / "tests" / "maps" / "goal.tmx"  # 20 x 8 tiles, the spawn at x 32, the goal at x 96


def test_the_kept_beginning_ends_where_the_player_first_stands_past_the_column(tmp_path):
    level, feel = load_level(MAP, goal=True), FeelConfig()
    script = tmp_path / "walk.txt"
    script.write_text("20 -\n60 right\n")
    kept = fr.kept_prefix(level, feel, (script, 3))
    s, played = Session(level, feel), 0
    for b in parse_script(script.read_text(), "walk"):
        s.step(b)
        played += 1
        if s.player.on_ground and s.player.x > 4 * level.tile_size:
            break
    assert len(kept) == played and 20 < len(kept) < 80
    route = fr.tour(level, feel, [], leg=5.0, goal=30.0, prefix=kept)
    assert route is not None and tuple(route[:len(kept)]) == kept  # the beginning kept as it was
    assert fr.completes(level, feel, route).completed


def test_a_script_that_never_gets_past_the_column_is_a_clear_error(tmp_path, capsys):
    script = tmp_path / "stand.txt"
    script.write_text("30 -\n")
    with pytest.raises(SystemExit) as stop:
        fr.kept_prefix(load_level(MAP, goal=True), FeelConfig(), (script, 3))
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "never stands past column 3" in err


@pytest.mark.parametrize(("script", "column", "says"), [
    ("missing.txt", "3", "missing.txt"), ("walk.txt", "three", "whole number"), ("bad.txt", "3", "bad.txt")])
def test_bad_after_arguments_are_one_line_errors_with_exit_2(tmp_path, capsys, script, column, says):
    (tmp_path / "walk.txt").write_text("30 right\n")
    (tmp_path / "bad.txt").write_text("thirty right\n")
    with pytest.raises(SystemExit) as stop:
        fr.main([str(MAP), "--after", str(tmp_path / script), column, "--out", str(tmp_path / "out.txt")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "Traceback" not in err
    assert not (tmp_path / "out.txt").exists()


def test_in_a_tall_level_the_kept_beginning_ends_where_the_player_first_stands_above_the_row():
    """A climb goes up, not right: there --after's number is a row, and the beginning kept ends where the
    player first stands above it (level 8's replay, above the third flag's floor)."""
    path = ROOT / "levels" / "08_crumbling_heights.tmx"
    level, feel = load_level(path), FeelConfig()
    replay = ROOT / "levels" / "replays" / "08_crumbling_heights.txt"
    kept = fr.kept_prefix(level, feel, (replay, 100))
    s, played = Session(level, feel), 0
    for b in parse_script(replay.read_text(), replay.name):
        s.step(b)
        played += 1
        if s.player.on_ground and s.player.y + s.player.h < 100 * level.tile_size:
            break
    assert len(kept) == played and s.player.x < 20 * level.tile_size < s.player.y  # far from column 100


def test_footholds_are_where_a_script_has_the_player_stand_in_order_up_to_the_goal(tmp_path):
    """--follow: a box around the player where the script has it stand, one per second of its play at most,
    in the order met; a preset's search through them finishes the level."""
    level = load_level(MAP, goal=True)
    script = tmp_path / "walk.txt"
    script.write_text("20 -\n200 right\n")
    holds = fr.footholds(level, script, every=0.1)
    s = Session(level, FeelConfig())
    stood = []
    for b in parse_script(script.read_text(), "walk"):
        s.step(b)
        if s.completed:
            break
        p = s.player
        if p.on_ground:
            stood.append((p.x, p.y))
    assert len(holds) >= 3
    xs = [h[0] for h in holds]
    assert xs == sorted(xs)  # met left to right, as the walk goes
    for x, y, w, h, how in holds:
        assert how == fr.STAND and h == s.player.h and w == s.player.w + 2 * fr.REACH
        assert any(abs(px - (x + fr.REACH)) < 1e-9 and py == y for px, py in stood)  # where it stood
    route = fr.tour(level, FeelConfig().with_value("run.max_speed", 120.0), holds, leg=5.0, goal=30.0)
    assert route is not None


def test_a_script_that_never_reaches_the_goal_cannot_be_followed(tmp_path, capsys):
    script = tmp_path / "stand.txt"
    script.write_text("30 -\n")
    with pytest.raises(SystemExit) as stop:
        fr.main([str(MAP), "--follow", str(script), "--out", str(tmp_path / "out.txt")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "never reaches the goal" in err and str(script) in err
    assert not (tmp_path / "out.txt").exists()
    with pytest.raises(SystemExit) as stop:
        fr.main([str(MAP), "--follow", str(script), "--goal-only"])
    assert stop.value.code == 2 and "--follow" in capsys.readouterr().err


def test_a_standing_waypoint_is_reached_only_by_a_state_standing_in_it():
    """A foothold is where the player stood: a state passing through its box in the air does not count,
    or a preset's route could be led on from a jump it cannot land."""
    from game.guard.route import Search
    level, feel = load_level(MAP, goal=True), FeelConfig()
    tall_box = (64.0, 0.0, 16.0, level.height)  # a column from the top of the map to its floor
    for standing in (False, True):
        search = Search(level, feel)
        search.aim(tall_box, standing=standing)
        assert search.run(lambda s=search: len(s.touched) >= 12, None, 20000) == "done"
        grounded = []
        for node in search.touched:
            search.session.restore(node.snap)
            grounded.append(search.session.player.on_ground)
        assert all(grounded) if standing else not all(grounded)
