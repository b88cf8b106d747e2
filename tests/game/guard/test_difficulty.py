"""Difficulty, measured: every jump press and release of a route shifted in time, re-simulated; on a map where a
missed jump is a death, the window measured is exactly the shifts under which the whole route still finishes."""

from __future__ import annotations

import json
import math
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from engine import Buttons, FeelConfig
from game.files.levelfile import load_level
from game.guard.check import check_level, curve_line
from game.guard.difficulty import _shifted, measure
from game.guard.plot import curve_png
from game.rules.session import Session

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
PIT = "\n".join([  # one jump over a pit that kills (a fall out of the map), then a walk to the goal
    "...............",
    "P.............G",
    "#####....######",
])
FLAT = "\n".join(["..........", "P........G", "##########"])


def finishes(level, feel, route) -> bool:
    s = Session(level, feel)
    for b in route:
        s.step(b)
        if s.completed:
            return s.deaths == 0
    return False


def test_the_window_is_every_shift_under_which_the_whole_route_still_finishes(write_map):
    level = load_level(write_map("pit.tmx", PIT))
    feel = FeelConfig().with_value("run.max_speed", 90.0)  # the pit is a real jump at this speed
    route = (Buttons(right=True),) * 51 + (Buttons(right=True, jump=True),) * 24 + (Buttons(right=True),) * 200
    d = measure(level, feel, route)
    assert [(m.step, m.button, m.kind) for m in d.moves] == [(51, "jump", "press"), (75, "jump", "release")]
    for move in d.moves:
        ok = {}
        for k in range(-d.shift, d.shift + 1):
            lo, new = _shifted(route, move.step, move.button, move.kind, k) if k else (move.step, [])
            ok[k] = finishes(level, feel, route[:lo] + tuple(new) + route[lo + len(new):])
        earlier = next((i for i in range(1, d.shift + 1) if not ok[-i]), d.shift + 1) - 1
        later = next((i for i in range(1, d.shift + 1) if not ok[i]), d.shift + 1) - 1
        assert (move.earlier, move.later) == (earlier, later), (move, ok)
    press = d.moves[0]
    assert (press.earlier, press.later) == (5, 6) and press.window == 12  # pressed at 46..57 it clears the pit
    assert d.inputs >= 1 and d == measure(level, feel, route)  # deterministic


def test_hops_on_flat_ground_do_not_matter_and_the_figure_is_the_documented_sum(write_map):
    level = load_level(write_map("flat.tmx", FLAT))
    feel = FeelConfig()
    route = (Buttons(right=True),) * 10 + (Buttons(right=True, jump=True),) * 12 + (Buttons(right=True),) * 200
    d = measure(level, feel, route)
    assert [(m.step, m.kind) for m in d.moves] == [(10, "press"), (22, "release")]
    assert d.inputs == 0 and d.figure == 0.0 and d.tight == 0
    pit = load_level(write_map("pit.tmx", PIT))
    slow = FeelConfig().with_value("run.max_speed", 110.0)
    p = measure(pit, slow, check_level(pit.path, slow, level=pit).report.route)
    full = 2 * p.shift + 1
    assert math.isclose(p.figure, sum(math.log2(full / m.window) for m in p.moves if m.window < full))
    assert p.tight == sum(m.window <= p.tight_steps for m in p.moves if m.window < full)
    assert (p.shift, p.tight_steps) == (6, 3)  # 0.1 s and 0.05 s at 60 Hz


def test_a_route_that_does_not_finish_is_refused(write_map):
    level = load_level(write_map("flat.tmx", FLAT))
    with pytest.raises(ValueError, match="does not finish the level"):
        measure(level, FeelConfig(), (Buttons(),) * 10)


def png_size(data: bytes) -> tuple[int, int, bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, size = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    return (*size, zlib.decompress(idat))


def test_the_curve_is_a_valid_png_with_one_colour_per_feel():
    from game.guard.plot import COLOURS

    data = curve_png(["01", "02", "03"], [("default", [1.0, 4.0, None]), ("tight", [2.0, 3.0, 5.0])])
    w, h, raw = png_size(data)
    assert (w, h) == (720, 420) and len(raw) == h * (1 + 3 * w)
    pixels = {bytes(raw[y * (1 + 3 * w) + 1 + 3 * x:y * (1 + 3 * w) + 4 + 3 * x]) for y in range(h) for x in range(w)}
    assert bytes(COLOURS[0]) in pixels and bytes(COLOURS[1]) in pixels and bytes(COLOURS[2]) not in pixels


def test_the_curve_line_names_its_largest_fall():
    line = curve_line(["levels/01_a.tmx", "levels/02_b.tmx", "levels/03_c.tmx"], [10.0, 6.0, 8.0])
    assert line == "difficulty curve (bits): 01 10.0, 02 6.0, 03 8.0; largest fall 4.0 bits (40%) from 01 to 02"
    assert curve_line(["01_a.tmx", "02_b.tmx"], [1.0, 2.0]).endswith("it never falls")


def test_check_difficulty_and_plot_from_the_command_line(write_map, tmp_path):
    pit = write_map("pit.tmx", PIT)
    flat = write_map("flat.tmx", FLAT)
    plot = tmp_path / "curve.png"
    done = subprocess.run([sys.executable, "-m", "game", "check", flat, pit, "--plot", plot, "--json",
                           "--feel", "default", "--feel", ROOT / "presets" / "tight.toml"],
                          capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [f["feel"] for f in report["feels"]] == ["the default feel", str(ROOT / "presets" / "tight.toml")]
    for block in report["feels"]:
        assert len(block["curve"]) == 2 and all(isinstance(v, float) for v in block["curve"])
        for level in block["levels"]:
            assert set(level["difficulty"]) >= {"figure", "inputs", "tight", "moves", "tightest", "shift_steps"}
    assert png_size(plot.read_bytes())[:2] == (720, 420)
    bad = subprocess.run([sys.executable, "-m", "game", "check", flat, "--plot", tmp_path / "curve.txt"],
                         capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=120)
    assert bad.returncode == 2 and bad.stderr.strip().endswith("give a file name ending in .png")


# The shipped campaign under the default feel: each level at least (1 - FALL_TOLERANCE) as hard as the one
# before. Measuring all nine routes costs ~6 min of CPU, so it runs only with TILEFEEL_SLOW_TESTS=1. Measured
# on the levels of 2026-12-01 it FALLS (01 31.5, 02 18.5, 03 13.2, 04 15.6, 05 30.8, 06 20.7, 07 8.4, 08 36.6
# bits): marked xfail until the levels are reworked; strict, so it says when that is done.
FALL_TOLERANCE = 0.25  # a level may be a quarter easier than the one before it (a breather), not more
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))


@pytest.mark.skipif(not os.environ.get("TILEFEEL_SLOW_TESTS"), reason="~6 min of CPU: set TILEFEEL_SLOW_TESTS=1")
@pytest.mark.xfail(strict=True, reason="the shipped curve falls (levels 2, 3, 6, 7): reported to the lead")
def test_the_shipped_campaign_never_gets_much_easier_from_one_level_to_the_next():
    from game.guard.check import known_routes

    figures = []
    for path in LEVELS:
        check = check_level(path, FeelConfig(), known=known_routes(path), difficulty=True)
        assert check.report.finished, path.name
        figures.append(check.difficulty.figure)
    for i in range(len(figures) - 1):
        assert figures[i + 1] >= (1 - FALL_TOLERANCE) * figures[i], curve_line(LEVELS, figures)
