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
