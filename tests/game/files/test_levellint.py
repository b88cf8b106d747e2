"""The map linter in the loader: one line naming the file and the object for a level with no goal, an unknown
property on a known class, an object outside the map beyond LIMITS.outside, and a spawn or checkpoint whose
player box is inside solid ground; ``python -m game check --lint`` lists every such problem of every map."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.files.levelfile import LevelError, lint_level, load_level
from game.files.levelkinds import LIMITS

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}

GROUND = "\n".join([
    "..........",
    "P.......G.",
    "##########",
    "##########",
    "##########",
])
SPRING = ('<object id="ID" name="boing" type="spring" x="48" y="24" width="16" height="8"><properties>'
          '<property name="bounce" type="float" value="90"/></properties></object>')
SPRING_TYPO = ('<object id="ID" name="boing" type="spring" x="48" y="24" width="16" height="8"><properties>'
               '<property name="heigth" type="float" value="90"/></properties></object>')
COIN_FAR = '<object id="ID" name="lost" type="coin" x="40" y="-900"><point/></object>'
SUNK = '<object id="ID" name="deep" type="checkpoint" x="64" y="16" width="16" height="64"/>'  # bottom 3 tiles down


def error(path, **kw) -> str:
    with pytest.raises(LevelError) as err:
        load_level(path, **kw)
    text = str(err.value)
    assert text.startswith(f"{path}: ") and "\n" not in text
    return text


def test_a_level_without_a_goal_is_an_error_where_a_level_is_played(write_map):
    path = write_map("nogoal.tmx", GROUND.replace("G", "."))
    assert "has no goal: the level cannot be finished" in error(path, goal=True)
    load_level(path)  # a sandbox map for the physics tests may have none
    done = subprocess.run([sys.executable, "-m", "game", "check", str(path)], capture_output=True, text=True,
                          env=ENV, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "has no goal" in done.stderr


def test_an_unknown_property_on_a_known_class_is_an_error_with_a_suggestion(write_map):
    text = error(write_map("spring.tmx", GROUND, [SPRING]))
    assert "object 3 'boing' (spring): unknown property 'bounce'" in text and "a spring has height" in text
    text = error(write_map("typo.tmx", GROUND, [SPRING_TYPO]))
    assert "unknown property 'heigth'; did you mean 'height'?" in text


def test_an_object_beyond_the_documented_margin_outside_the_map_is_an_error(write_map):
    text = error(write_map("far.tmx", GROUND, [COIN_FAR]))
    assert "object 3 'lost' (coin): lies outside the map" in text and f"{LIMITS.outside:g} px" in text
    near = COIN_FAR.replace('y="-900"', f'y="{-LIMITS.outside + 1:g}"')
    load_level(write_map("near.tmx", GROUND, [near]))  # within the margin: fine


def test_a_spawn_or_checkpoint_inside_solid_ground_is_an_error(write_map):
    text = error(write_map("sunk.tmx", GROUND, [SUNK]))
    assert "object 3 'deep' (checkpoint): checkpoint 3 'deep' puts the player's 10x14 px box inside solid" in text
    buried = '<object id="ID" name="start" type="spawn" x="40" y="72"><point/></object>'  # feet 2.5 tiles down
    text = error(write_map("s.tmx", GROUND.replace("P", "."), [buried]))
    assert "object 2 'start' (spawn): the spawn puts the player's 10x14 px box inside solid ground (tile 2,3)" in text
    ok = GROUND.replace("P", ".").replace("..........\n", "P.........\n", 1)  # a tile above the floor: it falls
    load_level(write_map("ok.tmx", ok))


def test_lint_lists_every_problem_of_every_map_at_once(write_map, tmp_path):
    bad = write_map("bad.tmx", GROUND.replace("G", "."), [SPRING, COIN_FAR, SUNK])
    good = write_map("good.tmx", GROUND)
    errors, warnings = lint_level(bad)
    assert len(errors) == 4 and warnings == []
    assert [e.split(": ", 2)[1] for e in errors] == ["object 2 'boing' (spring)", "object 3 'lost' (coin)",
                                                     "has no goal", "object 4 'deep' (checkpoint)"]
    done = subprocess.run([sys.executable, "-m", "game", "check", "--lint", str(bad), str(good)],
                          capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=120)
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 5 and all(x.startswith("error: ") for x in lines[:4])
    assert lines[-1] == "2 maps: 4 problems"
    clean = subprocess.run([sys.executable, "-m", "game", "check", "--lint"], capture_output=True, text=True,
                           env=ENV, cwd=ROOT, timeout=120)
    assert clean.returncode == 0 and clean.stdout.strip().splitlines()[-1] == "9 maps: no problems"


def test_an_unknown_class_is_a_warning_listing_the_known_ones(write_map):
    note = '<object id="ID" name="memo" type="note" x="16" y="16"><point/></object>'
    level = load_level(write_map("note.tmx", GROUND, [note]))
    assert len(level.warnings) == 1
    assert "object 3 'memo' (note): unknown class 'note', ignored; the classes the game knows are spawn, goal" \
        in level.warnings[0]
