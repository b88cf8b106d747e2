"""The route finder with the feel's moves (game/guard/route.py): wall jumps up a two-wall shaft 10 tiles tall
and a dash over a 9-tile gap a run-jump cannot clear are *finished* with the moves on and *impossible* (every
reachable state explored) with them off; the shipped scripts beside the maps (tests/maps/moves/) play them
headless; the key knows the moves' state."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine import FeelConfig
from game.cli import main as cli_main
from game.files.feelfile import load_feel
from game.files.inputscript import read_script
from game.files.levelfile import load_level
from game.guard.route import Search, find_routes
from game.rules.session import PLAYER_W, Session

ROOT = Path(__file__).resolve().parents[3]
MOVES = ROOT / "tests" / "maps" / "moves"
SHAFT, GAP = MOVES / "shaft.tmx", MOVES / "dash_gap.tmx"
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
BUDGET = 5000  # states: each search below needs well under it (the shaft without moves: 117 at 8 px)
ON = load_feel(MOVES / "moves.toml")  # all three moves on
WALLS = load_feel(MOVES / "walls.toml")  # wall slide and wall jump only
DASH = ON.with_value("wall.jump", False).with_value("wall.slide", False)  # the dash only


def game(*args):
    return subprocess.run([sys.executable, "-m", "game", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env=ENV, timeout=120)


def play(level, feel, route) -> tuple[Session, list[str]]:
    """Replay ``route`` from a fresh start: the session and the kinds of every event on the way."""
    s = Session(level, feel)
    kinds = []
    for b in route:
        kinds += [e.type for e in s.step(b)]
        if s.completed:
            break
    return s, kinds


def test_the_maps_are_what_they_claim():
    shaft, gap = load_level(SHAFT), load_level(GAP)
    ts = shaft.tile_size
    floor = shaft.spawn[1]
    ledge = shaft.goals[0].y + shaft.goals[0].h
    assert floor - ledge == 10 * ts  # the climb: 10 tiles from the floor to the ledge with the goal
    assert 2 * FeelConfig().jump.height < floor - ledge  # not two jumps' worth, let alone one
    kinds = gap.grid.kinds
    pit = [c for c in range(gap.cols) if kinds[-1, c] == 0]
    assert len(pit) == 9 and pit == list(range(pit[0], pit[0] + 9))
    for feel in (FeelConfig(), ON):  # a held run-jump carries less than the gap, from edge to edge
        assert feel.derived.jump_distance + PLAYER_W < 9 * ts


def test_the_shaft_is_climbed_by_wall_jumps_and_is_impossible_without():
    level = load_level(SHAFT)
    made = find_routes(level, WALLS, max_states=BUDGET, seconds=None)
    assert made.outcome == "finished"
    s, kinds = play(level, WALLS, made.route)
    assert s.completed and s.deaths == 0
    assert kinds.count("wall_jump") >= 3 and kinds.count("jump") == 1  # one jump off the floor, then kicks
    off = find_routes(level, FeelConfig(), max_states=BUDGET, seconds=None, grains=(8.0,))
    assert off.outcome == "impossible" and off.exhausted and off.states < BUDGET


def test_the_gap_is_crossed_by_a_dash_and_is_impossible_without():
    level = load_level(GAP)
    made = find_routes(level, DASH, max_states=BUDGET, seconds=None)
    assert made.outcome == "finished"
    s, kinds = play(level, DASH, made.route)
    assert s.completed and s.deaths == 0 and "dash" in kinds
    off = find_routes(level, FeelConfig(), max_states=BUDGET, seconds=None, grains=(8.0,))
    assert off.outcome == "impossible" and off.exhausted and off.states < BUDGET


def test_check_finishes_both_maps_with_the_moves_on_and_the_shipped_scripts_play_them(capsys):
    done = game("check", SHAFT, GAP, "--feel", MOVES / "moves.toml", "--fresh", "--budget", BUDGET, "--json",
                "--jobs", 1)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [lv["outcome"] for lv in report["levels"]] == ["finished", "finished"]
    for name, feel, move in (("shaft", WALLS, "wall_jump"), ("dash_gap", ON, "dash")):
        script = MOVES / f"{name}.txt"
        # `python -m game --headless --replay SCRIPT` (its main, in this process: the script's own level and
        # feel headers)
        assert cli_main(["--headless", "--replay", str(script)]) == 0
        result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert result["completed"] is True and result["deaths"] == 0
        s, kinds = play(load_level(MOVES / f"{name}.tmx"), feel, read_script(script).steps)
        assert s.completed and move in kinds


def test_check_says_impossible_for_the_shaft_with_the_moves_off():
    done = game("check", SHAFT, "--fresh", "--budget", BUDGET, "--json", "--jobs", 1)
    assert done.returncode == 1, done.stderr
    (shaft,) = json.loads(done.stdout)["levels"]
    assert shaft["outcome"] == "impossible" and shaft["exhausted"] is True


def test_with_the_moves_off_the_search_is_the_old_one():
    """The moves add macros and key fields only when the feel turns them on: the same level, budget and
    grains give the same figures whether or not the moves' knobs differ while switched off."""
    level = load_level(GAP)
    tuned_off = FeelConfig().with_value("dash.speed", 900.0).with_value("wall.jump_speed", 100.0)
    a = find_routes(level, FeelConfig(), max_states=100, seconds=None, grains=(8.0,))
    b = find_routes(level, tuned_off, max_states=100, seconds=None, grains=(8.0,))
    assert (a.outcome, a.states, a.steps, a.expanded) == (b.outcome, b.states, b.steps, b.expanded)


def test_the_key_holds_the_moves_state():
    level = load_level(GAP)
    search = Search(level, ON)
    s, p = search.session, search.session.player
    before = search._key()
    p.dashes_spent = 1
    assert search._key() != before  # a dash spent is another place to search from
    p.dashes_spent = 0
    p.lock_left, p.lock_dir = 5, 1
    assert search._key() != before
    p.lock_left = 0
    assert search._key() == before
    plain = Search(level, FeelConfig())
    assert len(plain._key()) < len(before)  # no move on: no move fields
    assert s is search.session
