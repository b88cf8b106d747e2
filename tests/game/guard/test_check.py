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
from game.files.catalog import discover
from game.guard.check import check_level, level_paths, route_script

ROOT = Path(__file__).resolve().parents[3]
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))
# the search alone needs 40-70 s of CPU on these (crumble timers and bullets multiply the states and the
# cost of a step); `check` finishes them with their shipped replays in one simulation (tested below, and in
# test_levels.py on every run); the search alone only with TILEFEEL_SLOW_TESTS=1
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
    done = game("check", level, "--routes", tmp_path / "routes", "--budget", "5000", "--coins")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "checking 1 level under the default feel (budget 5000 states each, goal and coins)"
    assert lines[1].startswith("easy.tmx  finished") and "coins 2/2" in lines[1] and "by search" in lines[1]
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
    done = game("check", easy, walled, "--json", "--coins")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["finished"] is False and report["outcome"] == "impossible" and report["feel"] == "the default feel"
    first, second = report["levels"]
    assert (first["level"], first["outcome"], first["stuck"]) == ("easy.tmx", "finished", None)
    assert first["route_steps"] > 0 and first["coins"] == first["coins_total"] == 2
    assert second["level"] == "walled.tmx" and second["outcome"] == "impossible" and second["exhausted"] is True
    assert second["route_steps"] is None and second["coins"] == 0
    assert second["coins_missed"] == [{"x": 104.0, "y": 40.0, "col": 6, "row": 2}]
    stuck = second["stuck"]
    assert stuck["row"] == 2 and 1 <= stuck["col"] <= 3  # against the wall, on the start's side
    assert set(second) >= {"states", "steps", "budget", "seconds", "goal_states", "goal_seconds", "route_file", "path",
                           "source", "capped"}


def test_the_text_report_names_the_stuck_tile_and_the_coins_out_of_reach(write_map):
    done = game("check", write_map("walled.tmx", WALLED))
    assert done.returncode == 1
    line = done.stdout.splitlines()[1]
    assert line.startswith("walled.tmx  IMPOSSIBLE  stuck at tile ") and "every reachable state explored" in line
    assert "coins out of reach: (104, 40) tile 6,2" in done.stdout
    assert done.stdout.strip().endswith("0 of 1 level finished; 1 impossible")


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
    (["check", "README.md"], "README.md: not a Tiled map (.tmx/.tmj/.json)"),
    (["check", "docs"], "docs: no maps (.tmx/.tmj/.json) in this folder"),
    (["check", "levels/01_first_steps.tmx", "--budget", "0"], "argument --budget: must be 1 or more"),
    (["check", "levels/01_first_steps.tmx", "--budget", "soon"], "argument --budget: expected a whole number"),
    (["check", "levels/01_first_steps.tmx", "--time-cap", "0"], "argument --time-cap: must be a positive number"),
    (["check", "levels/01_first_steps.tmx", "--feel", "nope.toml"], "nope.toml"),
    (["check", "levels/01_first_steps.tmx", "--routes", "README.md"], "README.md: --routes needs a folder"),
    (["check", "--frobnicate"], "unrecognized arguments: --frobnicate"),
])
def test_bad_input_is_one_line_and_exit_2(args, expected):
    line = one_line_error(game(*args))
    assert expected in line


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_broken_map_is_its_own_one_line_error_and_the_others_are_still_checked(write_map, tmp_path, jobs):
    bad = tmp_path / "broken.tmx"
    bad.write_text("<map")
    easy = write_map("easy.tmx", EASY)
    done = game("check", bad, easy, "--jobs", jobs)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith(f"error: {bad}: ") and "easy" not in lines[0]
    assert "easy.tmx    finished" in done.stdout and done.stdout.strip().endswith("1 of 2 levels finished; 1 not loaded")
    report = json.loads(game("check", bad, easy, "--json", "--jobs", jobs).stdout)
    assert [lv["outcome"] for lv in report["levels"]] == ["error", "finished"] and report["outcome"] == "error"
    assert report["levels"][0]["error"].startswith(f"{bad}: ")


def test_check_holds_one_map_at_a_time(write_map, monkeypatch):
    import gc
    import weakref

    import game.guard.check as check_module
    from game.guard.check import run_check

    maps = [write_map(f"easy{i}.tmx", EASY) for i in range(3)]
    alive: list = []  # weak references to every map loaded
    most = []
    real = check_module.load_level

    def counting(path, **kw):
        gc.collect()
        most.append(sum(ref() is not None for ref in alive))
        level = real(path, **kw)
        alive.append(weakref.ref(level))
        return level

    monkeypatch.setattr(check_module, "load_level", counting)
    out = open(os.devnull, "w")
    assert run_check([str(m) for m in maps], FeelConfig(), "the default feel", 500, None, False, out, jobs=1) == 0
    out.close()
    assert most == [0, 0, 0]  # each map is loaded only once the one before is gone


@pytest.mark.parametrize("path", SEARCHED, ids=lambda p: p.stem)
def test_every_shipped_level_is_finished_and_its_route_completes_it_headless(path, tmp_path):
    # the search alone (no known route), on the default budget: the same search on any machine
    check = check_level(path, FeelConfig())
    assert check.report.finished, f"{path.name}: stuck at {check.report.stuck}"
    script = tmp_path / f"{path.stem}.txt"
    script.write_text(route_script(check, "the default feel"))
    out = headless_completes(path, script)
    assert out["steps"] == check.report.route_steps and out["coins"] == check.route_coins


def test_the_route_finder_plays_through_enemies_turrets_springs_and_changing_blocks(tmp_path):
    level = ROOT / "tests" / "maps" / "kinds.tmx"  # every new kind of object
    done = game("check", level, "--routes", tmp_path)
    assert done.returncode == 0, done.stderr
    headless_completes(level, tmp_path / "kinds.txt")


# -- three outcomes, deterministic budgets, known routes, self-contained routes ----------------------------

LONG = "\n".join([  # a walk and a climb the search needs a few dozen states for
    "....................",
    "..................G.",
    "...............#####",
    "P.........###.......",
    "####################",
])


def without_seconds(report: dict) -> dict:
    out = {k: v for k, v in report.items()}
    out["levels"] = [{k: v for k, v in level.items() if k not in ("seconds", "goal_seconds")}
                     for level in report["levels"]]
    return out


BOXED = "\n".join(["#####", "#P#G#", "#####"])  # walled in: every state is explored in about 30


def test_a_budget_spent_is_unknown_and_exits_3_unless_a_level_is_impossible(write_map):
    long, walled = write_map("long.tmx", LONG), write_map("boxed.tmx", BOXED)
    done = game("check", long, "--budget", "3", "--json")
    assert done.returncode == 3, done.stderr
    level = json.loads(done.stdout)["levels"][0]
    assert (level["outcome"], level["exhausted"], level["capped"], level["budget"]) == ("unknown", False, False, 3)
    assert level["states"] >= 3 and level["stuck"] is not None
    text = game("check", long, "--budget", "3")
    assert text.returncode == 3 and "UNKNOWN" in text.stdout and "the budget of 3 states ran out" in text.stdout
    assert text.stdout.strip().endswith("0 of 1 level finished; 1 unknown")
    both = game("check", long, walled, "--budget", "40", "--json")  # long: unknown; boxed: impossible
    assert both.returncode == 1  # impossible outranks unknown
    report = json.loads(both.stdout)
    assert [lv["outcome"] for lv in report["levels"]] == ["unknown", "impossible"]
    assert report["outcome"] == "impossible"
    assert game("check", long).returncode == 0


def test_the_same_check_gives_the_same_json_apart_from_seconds_even_under_load(write_map, tmp_path):
    levels = [write_map("long.tmx", LONG), write_map("boxed.tmx", BOXED), write_map("easy.tmx", EASY)]
    quiet = game("check", *levels, "--json", "--coins", "--budget", "400")
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    try:
        loaded = game("check", *levels, "--json", "--coins", "--budget", "400")
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
    assert quiet.returncode == loaded.returncode == 1
    a, b = json.loads(quiet.stdout), json.loads(loaded.stdout)
    assert without_seconds(a) == without_seconds(b)
    assert [lv["outcome"] for lv in a["levels"]] == ["finished", "impossible", "finished"]


def test_a_route_written_under_a_feel_file_replays_alone_under_that_feel(write_map, tmp_path):
    level = write_map("long.tmx", LONG)
    feel = tmp_path / "feels" / "floaty.toml"
    feel.parent.mkdir()
    feel.write_text((ROOT / "presets" / "floaty.toml").read_text())
    routes = tmp_path / "routes"
    done = game("check", level, "--feel", feel, "--routes", routes)
    assert done.returncode == 0, done.stderr
    route = routes / "long.txt"
    lines = [line for line in route.read_text().splitlines() if not line.startswith("#")]
    assert lines[:2] == ["level long.tmx", "feel ../feels/floaty.toml"]
    alone = game("--headless", "--replay", route, cwd=tmp_path)  # no --level, no --feel
    assert alone.returncode == 0, alone.stderr
    out = json.loads(alone.stdout)
    under = game("--headless", "--level", level, "--inputs", route, "--feel", feel)
    assert out["completed"] and out == json.loads(under.stdout)
    default = game("--headless", "--level", level, "--inputs", route, "--feel", ROOT / "presets" / "heavy.toml")
    assert json.loads(default.stdout)["state_hash"] != out["state_hash"]  # the header's feel was used, not another


def test_a_default_feel_route_says_so_and_a_missing_feel_file_is_one_line(write_map, tmp_path):
    level = write_map("easy.tmx", EASY)
    done = game("check", level, "--routes", tmp_path / "r")
    assert done.returncode == 0, done.stderr
    route = tmp_path / "r" / "easy.txt"
    assert "feel default" in route.read_text().splitlines()
    assert json.loads(game("--headless", "--replay", route).stdout)["completed"]
    route.write_text(route.read_text().replace("feel default", "feel nowhere.toml"))
    line = one_line_error(game("--headless", "--replay", route))
    assert "feel file 'nowhere.toml' not found" in line and str(route) in line


def test_a_route_written_before_is_replayed_first_and_a_broken_one_is_repaired(write_map, tmp_path):
    level = write_map("long.tmx", LONG)
    routes = tmp_path / "routes"
    first = json.loads(game("check", level, "--routes", routes, "--json").stdout)["levels"][0]
    assert first["source"] == "search" and first["states"] > 0
    again = json.loads(game("check", level, "--routes", routes, "--json").stdout)["levels"][0]
    assert again["source"] == f"known {routes / 'long.txt'}" and again["states"] == 0
    assert again["steps"] == again["route_steps"] == first["route_steps"]  # one simulation
    fresh = json.loads(game("check", level, "--routes", routes, "--json", "--fresh").stdout)["levels"][0]
    assert fresh["source"] == "search"


def test_the_shipped_replays_give_the_verdict_in_one_simulation_each():
    levels = [ROOT / "levels" / "01_first_steps.tmx", ROOT / "levels" / "03_hills.tmx"]
    done = game("check", *levels, "--json", "--budget", "1")  # one state: only the known routes can finish
    assert done.returncode == 0, done.stdout
    for level in json.loads(done.stdout)["levels"]:
        assert level["source"] == f"known {ROOT / 'levels' / 'replays' / level['level'].replace('.tmx', '.txt')}"
        assert level["outcome"] == "finished" and level["steps"] == level["route_steps"]


@pytest.mark.skipif(os.name != "posix", reason="FIFOs and symlinks are POSIX")
def test_a_route_target_that_is_a_fifo_or_a_symlink_is_refused_in_one_line(write_map, tmp_path):
    level = write_map("easy.tmx", EASY)
    routes = tmp_path / "routes"
    routes.mkdir()
    os.mkfifo(routes / "easy.txt")  # writing into it would wait for a reader forever
    line = one_line_error(game("check", level, "--routes", routes))
    assert line == f"error: {routes / 'easy.txt'}: is a FIFO (named pipe); give a file name for the route"
    (routes / "easy.txt").unlink()
    other = tmp_path / "precious.txt"
    other.write_text("keep\n")
    (routes / "easy.txt").symlink_to(other)
    line = one_line_error(game("check", level, "--routes", routes))
    assert "is a symbolic link; refusing to write the route through it" in line
    assert other.read_text() == "keep\n" and sorted(p.name for p in routes.iterdir()) == ["easy.txt"]


def test_a_folder_is_checked_for_the_maps_the_level_list_shows(write_map, tmp_path):
    """The same rule as the level list (``catalog.level_files``): .tmx, .tmj and .json maps, not a JSON
    tileset or template beside them; a file that cannot be read is listed (its error comes when checked)."""
    folder = write_map("easy.tmx", EASY).parent
    tiled = ROOT / "tests" / "maps" / "tiled"
    for name in ("ext_csv.tmj", "tiles.tsj", "test_tiles.png"):
        (folder / name).write_bytes((tiled / name).read_bytes())
    (folder / "drawn.JSON").write_bytes((tiled / "emb_zlib.tmj").read_bytes())  # (a map, any letter case)
    (folder / "tileset.json").write_text('{"type": "tileset", "name": "t"}')
    (folder / "broken.json").write_text("{not json")
    (folder / "notes.txt").write_text("not a map")
    listed = level_paths([str(folder)])
    assert [p.name for p in listed] == ["broken.json", "drawn.JSON", "easy.tmx", "ext_csv.tmj"]
    assert set(listed) == {info.path for info in discover(folder)}
    assert level_paths([str(folder / "ext_csv.tmj")]) == [folder / "ext_csv.tmj"]
