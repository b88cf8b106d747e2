"""`python -m game check`, run as the real command on small maps, and on the shipped levels in-process: the
routes it writes complete their levels through `python -m game --headless`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import FeelConfig
from game.guard.check import check_level, route_script

ROOT = Path(__file__).resolve().parents[3]
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))
# the route finder needs 30-80 s of search on these (crumble timers multiply the states); their shipped
# replays are checked in test_levels.py on every run, the search only with TILEFEEL_SLOW_TESTS=1
LONG_SEARCH = {"08_crumbling_heights", "09_the_summit"}
SEARCHED = [pytest.param(p, marks=pytest.mark.skipif(p.stem in LONG_SEARCH and not os.environ.get("TILEFEEL_SLOW_TESTS"),
                                                     reason="long route search: set TILEFEEL_SLOW_TESTS=1"))
            for p in LEVELS]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}

EASY = "\n".join([
    "..........",
    "...o......",
    "P......o.G",
    "##########",
])
WALLED = "\n".join([
    "#########",
    "#...#...#",
    "#P..#.oG#",
    "#########",
])


def game(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "game", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=ENV, timeout=120)


def one_line_error(done) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def headless_completes(level: Path, script: Path) -> dict:
    done = game("--headless", "--level", level, "--inputs", script)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["completed"] and out["deaths"] == 0, out
    return out


def test_a_finished_level_exits_0_and_its_route_completes_it_headless(write_map, tmp_path):
    level = write_map("easy.tmx", EASY)
    done = game("check", level, "--routes", tmp_path / "routes", "--budget", "5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "checking 1 level under the default feel (budget 5 s each)"
    assert lines[1].startswith("easy.tmx  finished") and "coins 2/2" in lines[1]
    assert lines[-1] == "all 1 level finished"
    route = tmp_path / "routes" / "easy.txt"
    assert f"route written to {route}" in done.stdout
    assert route.read_text().startswith("# easy.tmx: a route to the goal found by `python -m game check`")
    out = headless_completes(level, route)
    steps = sum(int(line.split()[0]) for line in route.read_text().splitlines() if line[:1].isdigit())
    assert out["steps"] == steps  # the route ends on the goal step


def test_an_unfinishable_level_exits_1_saying_where_it_got_stuck(write_map):
    walled = write_map("walled.tmx", WALLED)
    easy = write_map("easy.tmx", EASY)
    done = game("check", easy, walled, "--json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["finished"] is False and report["feel"] == "the default feel"
    first, second = report["levels"]
    assert (first["level"], first["finished"], first["stuck"]) == ("easy.tmx", True, None)
    assert first["route_steps"] > 0 and first["coins"] == first["coins_total"] == 2
    assert second["level"] == "walled.tmx" and second["finished"] is False and second["exhausted"] is True
    assert second["route_steps"] is None and second["coins"] == 0
    assert second["coins_missed"] == [{"x": 104.0, "y": 40.0, "col": 6, "row": 2}]
    stuck = second["stuck"]
    assert stuck["row"] == 2 and 1 <= stuck["col"] <= 3  # against the wall, on the start's side
    assert set(second) >= {"states", "seconds", "goal_states", "goal_seconds", "route_file", "path"}


def test_the_text_report_names_the_stuck_tile_and_the_coins_out_of_reach(write_map):
    done = game("check", write_map("walled.tmx", WALLED))
    assert done.returncode == 1
    line = done.stdout.splitlines()[1]
    assert line.startswith("walled.tmx  NOT FINISHED  stuck at tile ") and "out of reach (every reachable state explored)" in line
    assert "coins out of reach: (104, 40) tile 6,2" in done.stdout
    assert done.stdout.strip().endswith("0 of 1 level finished")


def test_a_feel_file_is_used_and_named(write_map, tmp_path):
    feel = tmp_path / "low.toml"
    feel.write_text("[jump]\nheight = 24.0\n")  # too low to climb two tiles
    step = write_map("step.tmx", "\n".join(["#######", "#.....#", "#...G.#", "#..####", "#P.####", "#######"]))
    done = game("check", step, "--feel", feel, "--json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["feel"] == str(feel) and report["levels"][0]["finished"] is False
    assert game("check", step).returncode == 0


@pytest.mark.parametrize("args, expected", [
    (["check", "nope.tmx"], "nope.tmx: map file not found"),
    (["check", "README.md"], "README.md: not a Tiled map (.tmx)"),
    (["check", "docs"], "docs: no .tmx maps in this folder"),
    (["check", "levels/01_first_steps.tmx", "--budget", "0"], "argument --budget: must be a positive number"),
    (["check", "levels/01_first_steps.tmx", "--budget", "soon"], "argument --budget: expected a number of seconds"),
    (["check", "levels/01_first_steps.tmx", "--feel", "nope.toml"], "nope.toml"),
    (["check", "levels/01_first_steps.tmx", "--routes", "README.md"], "README.md: --routes needs a folder"),
    (["check", "--frobnicate"], "unrecognized arguments: --frobnicate"),
])
def test_bad_input_is_one_line_and_exit_2(args, expected):
    line = one_line_error(game(*args))
    assert expected in line


def test_a_broken_map_is_reported_before_any_search(write_map, tmp_path):
    bad = tmp_path / "broken.tmx"
    bad.write_text("<map")
    done = game("check", write_map("easy.tmx", EASY), bad)
    assert "broken.tmx" in one_line_error(done) and done.stdout == ""


@pytest.mark.parametrize("path", SEARCHED, ids=lambda p: p.stem)
def test_every_shipped_level_is_finished_and_its_route_completes_it_headless(path, tmp_path):
    # a state budget, no clock: the same search on any machine (the default feel needs 900-5300 states)
    check = check_level(path, FeelConfig(), None, max_states=12000, coins=False)
    assert check.report.finished, f"{path.name}: stuck at {check.report.stuck}"
    script = tmp_path / f"{path.stem}.txt"
    script.write_text(route_script(check, "the default feel"))
    out = headless_completes(path, script)
    assert out["steps"] == check.report.route_steps and out["coins"] == check.route_coins


def test_the_route_finder_plays_through_enemies_turrets_springs_and_changing_blocks(tmp_path):
    level = ROOT / "tests" / "maps" / "kinds.tmx"  # every new kind of object
    done = game("check", level, "--routes", tmp_path, "--budget", "10")
    assert done.returncode == 0, done.stderr
    headless_completes(level, tmp_path / "kinds.txt")
