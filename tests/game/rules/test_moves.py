"""A level's ``moves`` map property (game/rules/moves.py): the moves it grants are on under any feel, with
that feel's values, in everything that simulates -- the Session (window, headless CLI, replays, snapshots,
hot reload) and the route finder behind ``python -m game check``; bad names are one line with a "did you
mean"; the campaign never takes a move back."""

from __future__ import annotations

import pytest

from engine import FeelConfig
from game.cli import main as cli_main
from game.files.feelfile import load_feel
from game.files.inputscript import format_script, read_script
from game.files.levelfile import LevelError, lint_level, load_level
from game.guard.check import check_level
from game.guard.route import Search
from game.rules.moves import level_feel, new_moves
from game.rules.session import Session

from ..guard.test_moves_route import MOVES, ROOT, SHAFT

BUDGET = 5000  # states: the shaft with wall jumps needs well under it (see test_moves_route.py)


def granted(tmp_path, moves: str, src=SHAFT, name="granted.tmx"):
    """``src`` with a ``moves`` map property (a copy beside its tileset's folder)."""
    text = src.read_text().replace('source="../test_tiles.tsx"', f'source="{(MOVES.parent / "test_tiles.tsx")}"')
    head, rest = text.split("\n <tileset", 1)
    prop = f' <properties>\n  <property name="moves" value="{moves}"/>\n </properties>\n'
    path = tmp_path / name
    path.write_text(f"{head}\n{prop} <tileset{rest}")
    return path


def test_a_level_grants_its_moves_with_the_feels_values(tmp_path):
    level = load_level(granted(tmp_path, "wall_jump, wall_slide"))
    assert level.moves == ("wall_slide", "wall_jump")  # in the table's order, spaces allowed
    tuned = FeelConfig().with_value("wall.jump_speed", 300.0).with_value("dash.speed", 900.0)
    s = Session(level, tuned)
    assert s.feel.wall.jump and s.feel.wall.slide and not s.feel.dash.enabled
    assert s.feel.wall.jump_speed == 300.0 and s.feel.dash.speed == 900.0  # the values stay the feel file's
    assert s.given_feel is tuned and not s.given_feel.wall.jump  # what the F2 panel edits and saves
    assert s.world.feel is s.feel and s.feel.derived.moves
    s.set_feel(tuned.with_value("run.max_speed", 200.0))  # a hot reload keeps the level's moves on
    assert s.feel.wall.jump and s.feel.run.max_speed == 200.0 and s.world.feel is s.feel
    plain = load_level(SHAFT)
    assert plain.moves == () and level_feel(plain, tuned) is tuned  # nothing granted: the feel as it is
    assert new_moves(level, plain) == ("wall_slide", "wall_jump") and new_moves(level, level) == ()


def test_the_route_finder_and_check_include_the_granted_moves(tmp_path, capsys):
    """The shaft needs wall jumps: impossible under the default feel (test_moves_route.py), finished once the
    map grants them -- the search, its replay from a fresh Session, and the shipped script all agree."""
    path = granted(tmp_path, "wall_slide,wall_jump")
    level = load_level(path, goal=True)
    made = check_level(path, FeelConfig(), BUDGET, seconds=None, level=level)
    assert made.report.outcome == "finished"
    s = Session(level)
    kinds = []
    for b in made.report.route:
        kinds += [e.type for e in s.step(b)]
    assert s.completed and "wall_jump" in kinds
    # the shipped shaft script (found under walls.toml) plays the granted map under the default feel, headless
    script = read_script(MOVES / "shaft.txt")
    (tmp_path / "run.txt").write_text(format_script(script.steps, level=path.name))  # no feel header: the default
    assert cli_main(["--headless", "--replay", str(tmp_path / "run.txt")]) == 0
    assert '"completed": true' in capsys.readouterr().out
    # a preset with the moves off plays the level with them on, and the search knows it
    floaty = load_feel(ROOT / "presets" / "floaty.toml")
    assert not floaty.derived.moves
    search = Search(level, floaty)
    assert search.feel.wall.jump and search.session.feel.wall.jump and search.feel.run == floaty.run


def test_snapshots_restore_a_granted_level_exactly(tmp_path):
    level = load_level(granted(tmp_path, "wall_slide,wall_jump"))
    steps = read_script(MOVES / "shaft.txt").steps
    s = Session(level)
    for b in steps[:40]:
        s.step(b)
    snap = s.snapshot()
    for b in steps[40:]:
        s.step(b)
    end = s.state_hash()
    s.restore(snap)
    for b in steps[40:]:
        s.step(b)
    assert s.state_hash() == end and s.completed


@pytest.mark.parametrize(("value", "words"), [
    ("wall_jmup", "moves: 'wall_jmup' is not a move; did you mean 'wall_jump'?"),
    ("dash,,wall_jump", "moves: an empty name (two commas?)"),
    ("dash,dash", "moves: 'dash' is listed twice"),
    ("fly", "moves: 'fly' is not a move; use one of wall_slide, wall_jump, dash"),
])
def test_a_bad_moves_property_is_one_line_naming_the_file(tmp_path, value, words, capsys):
    path = granted(tmp_path, value)
    with pytest.raises(LevelError) as err:
        load_level(path)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith(str(path)) and words in msg, msg
    problems, _ = lint_level(path)
    assert any(words in p for p in problems)
    assert cli_main(["check", "--lint", str(path)]) == 2
    assert words in capsys.readouterr().out
