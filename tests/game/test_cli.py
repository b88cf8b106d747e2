"""The headless CLI, run as the real command: `python -m game --headless --level L --inputs S ...`."""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game import cli
from game.cli import TRACE_COLUMNS, main

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "tests" / "maps"
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}

# objects.tmx: run, jump the spikes, collect three coins, reach the goal
FULL_RUN = "50 right\n25 right+jump\n200 right\n"


def run_game(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "game", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=ENV, timeout=60)


def headless(tmp_path, level, script, *extra, trace=False):
    path = tmp_path / "inputs.txt"
    path.write_text(script)
    args = ["--headless", "--level", MAPS / level, "--inputs", path, *extra]
    if trace:
        args += ["--trace", tmp_path / "trace.csv"]
    done = run_game(*args)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    rows = list(csv.DictReader(open(tmp_path / "trace.csv"))) if trace else None
    return out, rows


def error_of(done):
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


# -- the JSON contract ----------------------------------------------------------------------------------

def test_a_run_prints_the_contract_json_on_its_last_line(tmp_path):
    out, _ = headless(tmp_path, "objects.tmx", FULL_RUN)
    assert list(out) == ["level", "steps", "completed", "deaths", "coins", "player", "events", "state_hash"]
    assert (out["level"], out["completed"], out["deaths"], out["coins"]) == ("objects.tmx", True, 0, 3)
    assert set(out["player"]) == {"x", "y", "w", "h", "vx", "vy", "on_ground"}
    assert (out["player"]["w"], out["player"]["h"]) == (10, 14)
    kinds = [(e["type"], e["name"]) for e in out["events"]]
    assert kinds == [("enter", "sign"), ("exit", "sign"), ("coin", "c1"), ("checkpoint", "cp1"),
                     ("coin", "c2"), ("coin", "c3"), ("goal", "exit")]
    # the goal ends the run on that step, though the script is longer
    assert out["events"][-1]["step"] == out["steps"] < 275
    assert all(e["type"] not in ("jump", "land", "respawn") for e in out["events"])


def test_same_inputs_give_identical_json(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text(FULL_RUN)
    args = ("--headless", "--level", MAPS / "objects.tmx", "--inputs", script)
    runs = [run_game(*args).stdout for _ in range(2)]
    assert runs[0] == runs[1] and runs[0].strip()


def test_trace_has_a_header_and_one_row_per_step(tmp_path):
    out, rows = headless(tmp_path, "flat.tmx", "10 right\n1 jump\n20 left\n", trace=True)
    assert list(rows[0]) == list(TRACE_COLUMNS)
    assert {"step", "x", "y", "vx", "vy", "on_ground"} <= set(rows[0])
    assert [int(r["step"]) for r in rows] == list(range(1, 32)) and out["steps"] == 31
    last = rows[-1]
    assert float(last["x"]) == out["player"]["x"] and float(last["vy"]) == out["player"]["vy"]
    assert last["on_ground"] in ("0", "1") and rows[10]["on_ground"] == "0"


# -- timing windows, exact to the step ---------------------------------------------------------------

@pytest.fixture(scope="module")
def ledge(tmp_path_factory):
    """Run off the ledge without jumping: the last grounded step and the landing step."""
    out, rows = headless(tmp_path_factory.mktemp("ledge"), "ledge.tmx", "150 right\n", trace=True)
    grounded = [r["on_ground"] == "1" for r in rows]
    last = next(i + 1 for i in range(len(rows)) if grounded[i] and not grounded[i + 1])
    landing = next(i + 1 for i in range(last, len(rows)) if grounded[i])
    return last, landing


def jumped_at(rows, step):
    return float(rows[step - 1]["vy"]) < 0


@pytest.mark.parametrize("after, jumps", [(6, True), (7, False)])  # N = round(0.1 s * 60 Hz) = 6
def test_coyote_a_jump_in_the_first_n_steps_after_leaving_a_ledge_still_jumps(tmp_path, ledge, after, jumps):
    last, _ = ledge
    press = last + after
    _, rows = headless(tmp_path, "ledge.tmx", f"{press - 1} right\n5 right+jump\n", trace=True)
    assert jumped_at(rows, press) is jumps


@pytest.mark.parametrize("before, jumps", [(6, True), (7, False)])  # M = round(0.1 s * 60 Hz) = 6
def test_buffer_a_press_up_to_m_steps_before_landing_jumps_on_landing(tmp_path, ledge, before, jumps):
    _, landing = ledge
    press = landing - before
    _, rows = headless(tmp_path, "ledge.tmx", f"{press - 1} right\n1 right+jump\n30 right\n", trace=True)
    assert not jumped_at(rows, press)  # in the air: nothing yet
    assert (jumped_at(rows, landing) or jumped_at(rows, landing + 1)) is jumps


def test_feel_file_overrides_only_the_keys_it_names(tmp_path, ledge):
    last, _ = ledge
    feel = tmp_path / "feel.toml"
    feel.write_text("[jump]\ncoyote_time = 0.2  # 12 steps\n")
    press = last + 12
    script = f"{press - 1} right\n5 right+jump\n"
    _, rows = headless(tmp_path, "ledge.tmx", script, "--feel", feel, trace=True)
    assert jumped_at(rows, press)
    _, rows = headless(tmp_path, "ledge.tmx", script, trace=True)
    assert not jumped_at(rows, press)


# -- one-way platforms, checkpoints, coins, goal --------------------------------------------------------

def test_down_and_jump_drops_through_a_one_way_platform(tmp_path):
    out, _ = headless(tmp_path, "one_way.tmx", "10 -\n1 down+jump\n60 -\n")
    assert out["player"]["on_ground"] and out["player"]["y"] + 14 == 176  # on the floor below


def test_jump_alone_on_a_one_way_platform_is_an_ordinary_jump(tmp_path):
    out, rows = headless(tmp_path, "one_way.tmx", "10 -\n20 jump\n60 -\n", trace=True)
    assert float(rows[10]["vy"]) < 0
    assert out["player"]["on_ground"] and out["player"]["y"] + 14 == 96  # back on the platform


def test_death_respawns_at_the_checkpoint_and_coins_stay_collected(tmp_path):
    out, rows = headless(tmp_path, "objects.tmx", "100 right\n", trace=True)
    deaths = [e["step"] for e in out["events"] if e["type"] == "death"]
    assert out["deaths"] == len(deaths) == 2 and out["coins"] == 1
    assert [e["type"] for e in out["events"]].count("coin") == 1
    d = deaths[0]
    back = next(r for r in rows[d:] if r["dead"] == "0")
    assert int(back["step"]) - d <= 30
    assert (float(back["x"]) + 5, float(back["y"]) + 14) == (136.0, 112.0)  # checkpoint bottom-centre
    assert (back["vx"], back["vy"], back["on_ground"]) == ("0.0", "0.0", "1")


def test_goal_ends_the_run_on_that_step(tmp_path):
    out, rows = headless(tmp_path, "goal.tmx", "300 right\n", trace=True)
    assert out["completed"] and out["events"][-1] == {"step": out["steps"], "type": "goal", "name": "flag"}
    assert len(rows) == out["steps"] < 300 and out["coins"] == 0


# -- errors: one line, exit code 2, no traceback --------------------------------------------------------

def test_a_broken_level_is_one_line_naming_the_file_and_tile(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("1 -\n")
    level = MAPS / "errors" / "unknown_collision.tmx"
    line = error_of(run_game("--headless", "--level", level, "--inputs", script))
    assert str(level) in line and "tileset 'unknown_collision' tile 3" in line


def test_a_bad_script_line_names_its_number_and_word(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("# warm up\n10 right\n5 rigth+jump\n")
    line = error_of(run_game("--headless", "--level", MAPS / "flat.tmx", "--inputs", script))
    assert f"{script}: line 3:" in line and "'rigth'" in line


def test_a_bad_feel_file_names_the_key(tmp_path):
    script, feel = tmp_path / "s.txt", tmp_path / "feel.toml"
    script.write_text("1 -\n")
    feel.write_text("[jump]\nhieght = 40\n")
    line = error_of(run_game("--headless", "--level", MAPS / "flat.tmx", "--inputs", script, "--feel", feel))
    assert str(feel) in line and "hieght" in line


def test_usage_errors_exit_2():
    assert error_of(run_game("--scale", "0")).startswith("error: argument --scale")
    assert run_game("--no-such-flag").returncode == 2


@pytest.mark.parametrize("argv, fragment", [
    (["--headless", "--inputs", os.devnull], "--level"),
    (["--headless", "--level", "x.tmx"], "--inputs"),
    (["--headless", "--level", "x.tmx", "--inputs", "a", "--replay", "b"], "either --inputs or --replay"),
    (["--headless", "--level", str(MAPS / "flat.tmx"), "--inputs", "nope.txt"],
     "nope.txt: input script not found"),
    (["--headless", "--level", "nope.tmx", "--inputs", str(MAPS / "flat.tmx")], "line 1"),
    (["--feel", "nope.toml", "--explain"], "nope.toml"),
])
def test_every_error_is_one_line_with_exit_code_2(capsys, argv, fragment):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and fragment in err, err


def test_an_unwritable_trace_is_an_error_naming_it(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("1 -\n")
    trace = tmp_path / "no_dir" / "t.csv"
    assert main(["--headless", "--level", str(MAPS / "flat.tmx"), "--inputs", str(script),
                 "--trace", str(trace)]) == 2
    assert f"{trace}: cannot write the trace" in capsys.readouterr().err


def test_internal_errors_are_one_line_too_and_debug_shows_the_traceback(tmp_path, capsys, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(cli, "run_headless", boom)
    argv = ["--headless", "--level", "x.tmx", "--inputs", "y.txt"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == "error: internal error: RuntimeError: kaboom (run again with --debug for the traceback)\n"
    assert main(argv + ["--debug"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" in err and err.strip().splitlines()[-1].startswith("error: internal error")


# -- replay, record, explain, window hand-off -----------------------------------------------------------

def test_replay_is_an_alias_for_inputs_and_record_writes_what_was_played(tmp_path, capsys):
    script, record = tmp_path / "s.txt", tmp_path / "rec.txt"
    script.write_text("# comment\n3 right\n2 right\n1 -\n")
    level = str(MAPS / "flat.tmx")
    assert main(["--headless", "--level", level, "--inputs", str(script)]) == 0
    by_inputs = capsys.readouterr().out
    assert main(["--headless", "--level", level, "--replay", str(script), "--record", str(record)]) == 0
    assert capsys.readouterr().out == by_inputs
    assert record.read_text() == "level flat.tmx\n5 right\n1 -\n"


def test_record_stops_where_the_goal_ended_the_run(tmp_path, capsys):
    script, record = tmp_path / "s.txt", tmp_path / "rec.txt"
    script.write_text("300 right\n")
    assert main(["--headless", "--level", str(MAPS / "goal.tmx"), "--inputs", str(script),
                 "--record", str(record)]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert record.read_text() == f"level goal.tmx\n{steps} right\n"


def test_explain_prints_the_derived_feel_and_exits(capsys):
    assert main(["--explain"]) == 0
    assert "coyote" in capsys.readouterr().out.lower()


# -- a script names its level (issue 12) ----------------------------------------------------------------

def test_replay_without_level_plays_the_level_its_header_names(tmp_path, capsys):
    script = tmp_path / "run.txt"
    script.write_text("level goal.tmx\n300 right\n")
    # the header's level is looked up beside the script, then in its parent folder
    (tmp_path / "maps").mkdir()
    for f in ("goal.tmx", "test_tiles.tsx", "test_tiles.png"):
        (tmp_path / f).write_bytes((MAPS / f).read_bytes())
    assert main(["--headless", "--replay", str(script)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["level"] == "goal.tmx" and out["completed"]


def test_a_header_naming_another_level_than_level_is_one_line(tmp_path, capsys):
    script = tmp_path / "run.txt"
    script.write_text("# recorded\nlevel 02_planks.tmx\n10 right\n")
    assert main(["--headless", "--level", str(MAPS / "flat.tmx"), "--replay", str(script)]) == 2
    err = capsys.readouterr().err
    assert err == (f"error: {script}: line 2: this script is for level '02_planks.tmx', not 'flat.tmx'; "
                   "drop --level to play it on its own level\n")


def test_a_header_level_that_is_nowhere_is_one_line(tmp_path, capsys):
    script = tmp_path / "run.txt"
    script.write_text("level nowhere.tmx\n10 right\n")
    assert main(["--headless", "--replay", str(script)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "level 'nowhere.tmx' not found" in err and "--level" in err


def test_the_header_is_checked_against_inputs_too(tmp_path, capsys):
    script = tmp_path / "run.txt"
    script.write_text("level goal.tmx\n10 right\n")
    assert main(["--headless", "--level", str(MAPS / "goal.tmx"), "--inputs", str(script)]) == 0
    capsys.readouterr()


# -- hostile files and full disks (issue 10) ------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
@pytest.mark.parametrize("flag", ["--level", "--inputs", "--feel"])
def test_a_fifo_as_any_input_is_refused_at_once(tmp_path, flag):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # no writer: reading it used to hang forever
    script = tmp_path / "s.txt"
    script.write_text("1 -\n")
    args = {"--level": MAPS / "flat.tmx", "--inputs": script, "--feel": None}
    args[flag] = fifo
    argv = ["--headless"] + [x for k, v in args.items() if v is not None for x in (k, v)]
    line = error_of(run_game(*argv))
    assert str(fifo) in line and "FIFO" in line


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("flag", ["--level", "--inputs", "--feel"])
def test_dev_zero_as_any_input_is_refused(tmp_path, flag, capsys):
    script = tmp_path / "s.txt"
    script.write_text("1 -\n")
    args = {"--level": str(MAPS / "flat.tmx"), "--inputs": str(script), flag: "/dev/zero"}
    assert main(["--headless"] + [x for kv in args.items() for x in kv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/dev/zero: is a device" in err


def _full_disk_after(limit: int):
    """Run the child with a file-size limit: a write past ``limit`` bytes fails like a full disk."""
    import resource
    import signal

    def limit_writes():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limit_writes


@pytest.mark.skipif(os.name != "posix", reason="RLIMIT_FSIZE is POSIX")
@pytest.mark.parametrize("flag", ["--trace", "--record"])
def test_a_full_disk_while_writing_names_the_file_exits_2_and_leaves_no_half_file(tmp_path, flag):
    script = tmp_path / "s.txt"
    script.write_text("".join(f"{n % 5 + 1} right\n1 -\n" for n in range(150)))  # a recording over 1000 bytes
    out = tmp_path / "out.txt"
    done = subprocess.run([sys.executable, "-m", "game", "--headless", "--level", str(MAPS / "flat.tmx"),
                           "--inputs", str(script), flag, str(out)], capture_output=True, text=True, cwd=ROOT,
                          env=ENV, timeout=60, preexec_fn=_full_disk_after(1000))
    line = error_of(done)
    what = "trace" if flag == "--trace" else "recording"
    assert line.startswith(f"error: {out}: cannot write the {what} (File too large)"), line
    assert list(tmp_path.iterdir()) == [script]  # no half-written file, no temp file


def test_an_unwritable_recording_keeps_an_old_one_whole(tmp_path, capsys, monkeypatch):
    import errno

    from game.files import userfiles
    script, record = tmp_path / "s.txt", tmp_path / "rec.txt"
    script.write_text("5 right\n")
    record.write_text("old run\n")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(userfiles.os, "fsync", full)
    assert main(["--headless", "--level", str(MAPS / "flat.tmx"), "--inputs", str(script),
                 "--record", str(record)]) == 2
    assert capsys.readouterr().err == f"error: {record}: cannot write the recording (No space left on device)\n"
    assert record.read_text() == "old run\n" and sorted(p.name for p in tmp_path.iterdir()) == ["rec.txt", "s.txt"]


def test_a_header_naming_a_file_too_long_for_the_system_is_one_line(tmp_path, capsys):
    script = tmp_path / "run.txt"
    script.write_text("level " + "a" * 300 + ".tmx\n10 right\n")  # over NAME_MAX: is_file() would raise
    assert main(["--headless", "--replay", str(script)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not found" in err and "internal error" not in err


@pytest.mark.parametrize("with_level", [False, True])
def test_a_header_naming_a_million_character_level_is_one_short_line(tmp_path, capsys, with_level):
    """A long level name in a replay header made a one-line error of 1,000,000 characters (issue 24)."""
    script = tmp_path / "run.txt"
    script.write_text("level " + "a" * 1_000_000 + ".tmx\n10 right\n")
    level = ["--level", str(MAPS / "flat.tmx")] if with_level else []
    assert main(["--headless", *level, "--replay", str(script)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 400 and str(script) in err


def test_a_recording_of_a_level_with_a_hash_in_its_name_replays(tmp_path, capsys):
    """--record on boss#2.tmx wrote 'level boss#2.tmx', which --replay refused ('#' read as a comment)."""
    import shutil
    for name in ("test_tiles.tsx", "test_tiles.png"):
        shutil.copy(MAPS / name, tmp_path / name)
    level = tmp_path / "boss#2.tmx"
    shutil.copy(MAPS / "flat.tmx", level)
    script, record = tmp_path / "s.txt", tmp_path / "rec.txt"
    script.write_text("5 right\n")
    assert main(["--headless", "--level", str(level), "--inputs", str(script), "--record", str(record)]) == 0
    first = capsys.readouterr().out
    assert record.read_text() == 'level "boss#2.tmx"\n5 right\n'
    assert main(["--headless", "--replay", str(record)]) == 0  # the level found from the header
    assert capsys.readouterr().out == first
