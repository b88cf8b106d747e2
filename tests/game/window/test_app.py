"""The window path (game/window/app.py, driven headless with SDL's dummy drivers) is as clean as the headless CLI:
the same one-line errors, before a window opens where possible, and no file or edit stops a running game."""

# ruff: noqa: F811  -- tests take the imported `levels` fixture as an argument

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import errno  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from engine import FeelConfig  # noqa: E402
from game.files import userfiles  # noqa: E402
from game.window.app import App  # noqa: E402
from game.window.scenes.play import PlayScene  # noqa: E402
from game.window.scenes.title import TitleScene  # noqa: E402

from .test_scenes import _args, app, levels, tick  # noqa: E402,F401  (fixtures: the app on two levels)

ROOT = Path(__file__).resolve().parents[3]
MAPS = ROOT / "tests" / "maps"


def window(*args, env=None, timeout=60):
    """``python -m game ARGS`` with a (dummy) display: a run that gets past its checks would open the window
    and play until the timeout, so these tests only pass if the error comes first."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT),
           **(env or {})}
    return subprocess.run([sys.executable, "-m", "game", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=timeout)


def one_line(done) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in done.stderr, done.stderr
    assert "internal error" not in lines[0], lines[0]
    return lines[0]


# -- errors before the window opens (issue 10, defect 6) ---------------------------------------------------

def test_a_missing_replay_is_one_line_before_the_window(tmp_path):
    line = one_line(window("--replay", tmp_path / "missing.txt"))  # was internal error: FileNotFoundError
    assert line == f"error: {tmp_path / 'missing.txt'}: input script not found"


def test_a_binary_replay_is_one_line(tmp_path):
    replay = tmp_path / "r.txt"
    replay.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    assert "not UTF-8" in one_line(window("--replay", replay))  # was internal error: UnicodeDecodeError


def test_a_spawn_far_outside_the_map_is_one_line(tmp_path):
    level = tmp_path / "far.tmx"
    level.write_text((MAPS / "flat.tmx").read_text().replace('x="40" y="112"', 'x="1e308" y="112"')
                     .replace('source="test_tiles.tsx"', f'source="{MAPS / "test_tiles.tsx"}"'))
    line = one_line(window("--level", level))  # was TypeError: invalid destination position for blit
    assert "object 1 'start' (spawn): reaches outside the map" in line


def test_a_replay_for_another_level_is_one_line(tmp_path):
    replay = tmp_path / "r.txt"
    replay.write_text("level 02_planks.tmx\n10 right\n")
    line = one_line(window("--level", MAPS / "flat.tmx", "--replay", replay))
    assert "this script is for level '02_planks.tmx', not 'flat.tmx'" in line


def test_a_recording_into_a_missing_folder_is_one_line(tmp_path):
    line = one_line(window("--level", MAPS / "flat.tmx", "--record", tmp_path / "no" / "r.txt"))
    assert "cannot write the recording" in line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_level_is_one_line(tmp_path):
    fifo = tmp_path / "level.tmx"
    os.mkfifo(fifo)
    assert "FIFO" in one_line(window("--level", fifo))


# -- the replay's header picks the level (issue 12) ----------------------------------------------------------

def test_replay_without_level_plays_the_level_its_header_names(levels):
    (levels / "replays" / "r.txt").write_text("level 02_end.tmx\n30 right\n")
    a = App(_args(replay=str(levels / "replays" / "r.txt")))
    assert a.start() is None
    try:
        play = a.scenes.current
        assert isinstance(play, PlayScene) and play.info.name == "02_end.tmx"  # was always level 1
    finally:
        a.close()


def test_a_replay_without_a_header_and_without_level_shows_the_title(levels, capsys):
    (levels / "replays" / "old.txt").write_text("30 right\n")
    a = App(_args(replay=str(levels / "replays" / "old.txt")))
    assert a.start() is None
    try:
        assert isinstance(a.scenes.current, TitleScene)
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "does not say which level it plays" in err
    finally:
        a.close()


def test_no_display_plays_the_given_replay_headless(levels, monkeypatch, capsys):
    from game.window import app as app_module

    def no_window(*a, **k):
        raise pygame.error("x11 not available")
    monkeypatch.setattr(app_module, "Screen", no_window)
    (levels / "replays" / "r.txt").write_text("level 02_end.tmx\n200 right\n")
    assert app_module.run_app(_args(replay=str(levels / "replays" / "r.txt"))) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("playing the replay headless instead")
    assert out[1].startswith("playing r.txt on 02_end.tmx")
    assert json.loads(out[-1])["level"] == "02_end.tmx"


# -- a running game survives its files (issue 10) ------------------------------------------------------------

def test_a_feel_change_mid_level_saves_an_honest_best_time(app):
    """Defect 3: after switching to 1000 Hz a ~13 s run saved best_time 2.925."""
    app.start_level(app.levels[0], fade=False)
    play = app.scenes.current
    play.session.player.teleport(60, 100)
    tick(app, frames=600)  # 10 s at 60 Hz
    assert play.seconds == pytest.approx(10.0, abs=0.02)
    app.set_feel(FeelConfig().with_value("physics.hz", 1000))
    tick(app, frames=60)  # one more second, now in 1000 steps
    assert play.seconds == pytest.approx(11.0, abs=0.03)  # the HUD's clock did not jump back
    goal = play.level.goals[0]
    play.session.player.teleport(goal.x + 2, goal.y + goal.h - 14)
    tick(app, frames=3)
    assert play.session.completed
    best = app.progress.record(play.info.name).best_time
    assert best == pytest.approx(11.0, abs=0.05)


def test_a_full_disk_on_f12_is_a_notice_not_a_crash(app, monkeypatch):
    app.start_level(app.levels[0], fade=False)
    tick(app, frames=2)

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(userfiles.os, "fsync", full)
    assert app._dev_key(pygame.K_F12)
    assert "screenshot not saved" in app._notice[0] and "No space left" in app._notice[0]
    shots = Path(os.environ["TILEFEEL_SHOTS_DIR"])
    assert not list(shots.glob("*.png")) and not list(shots.glob("*.tmp"))  # no half PNG


def test_a_full_disk_when_the_recording_is_written_is_one_line_and_no_file(levels, tmp_path, monkeypatch, capsys):
    rec = tmp_path / "rec.txt"
    a = App(_args(level=str(levels / "01_start.tmx"), record=str(rec)))
    assert a.start() is None
    tick(a, frames=10)

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(userfiles.os, "fsync", full)
    a.close()
    err = capsys.readouterr().err
    assert err == f"error: {rec}: cannot write the recording (No space left on device)\n"
    assert not rec.exists() and list(tmp_path.glob("*.tmp")) == []


def test_the_recording_names_its_level(levels, tmp_path):
    rec = tmp_path / "rec.txt"
    a = App(_args(level=str(levels / "02_end.tmx"), record=str(rec)))
    assert a.start() is None
    tick(a, frames=10)
    a.close()
    assert rec.read_text().startswith("level 02_end.tmx\n")


def test_a_broken_controls_file_does_not_stop_the_game(levels, capsys):
    config = Path(os.environ["TILEFEEL_CONFIG_DIR"])
    config.mkdir(parents=True, exist_ok=True)
    (config / "input.toml").write_bytes('[keyboard]\njump = ["é"]\n'.encode("latin-1"))
    a = App(_args())
    assert a.start() is None  # was: internal error: UnicodeDecodeError, no game
    try:
        out = capsys.readouterr().out
        assert "input.toml: line 2: the controls file is not UTF-8" in out and "using default controls" in out
    finally:
        a.close()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs and signals")
def test_a_fifo_save_neither_hangs_the_window_nor_stops_sigterm(tmp_path):
    """Defect 9: a FIFO progress.json hung the window at start, and SIGTERM did not stop it."""
    import signal
    data = tmp_path / "data"
    data.mkdir()
    os.mkfifo(data / "progress.json")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT),
           "TILEFEEL_DATA_DIR": str(data), "TILEFEEL_CONFIG_DIR": str(tmp_path / "config")}
    game = subprocess.Popen([sys.executable, "-m", "game", "--level", str(MAPS / "flat.tmx")], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    import threading
    guard = threading.Timer(40, game.kill)  # a hang fails the test instead of stalling the suite
    guard.start()
    try:
        line = game.stdout.readline()  # the one line about the save, printed once the window is up
        assert "FIFO" in line and "starting fresh" in line, line
        game.send_signal(signal.SIGTERM)
        assert game.wait(timeout=20) in (0, -signal.SIGTERM)
    finally:
        guard.cancel()
        if game.poll() is None:
            game.kill()
            game.wait()
        game.stdout.close()
        game.stderr.close()
