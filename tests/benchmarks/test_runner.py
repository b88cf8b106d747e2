"""`python -m benchmarks` runs every part and writes every key of the issue's table: numbers, or null
for what cannot be measured (never faked); the scenes it measures behave as described."""

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEYS = ("actors_100_ms", "actors_1000_ms", "actors_10000_ms", "actors_1000_per_actor_ms", "naive_1000_ms",
        "handloop_1000_ms", "crowd_crate_1000_ms",
        "arcade_100_ms", "pymunk_1000_ms", "player_step_us", "map_size_ratio", "render_fps", "pyscroll_fps",
        "frame_ms_median", "frame_ms_p99", "load_s", "load_mb", "startup_s")
# The baselines come from the optional bench extra; `pip install -e ".[test]"` alone leaves them out.
BASELINES = {"arcade_100_ms": "arcade", "pymunk_1000_ms": "pymunk", "pyscroll_fps": "pyscroll",
             "pyscroll_full_fps": "pyscroll"}


def test_smoke_run_writes_every_key(tmp_path):
    out = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, "-m", "benchmarks", "--smoke", "--json", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(out.read_text())
    assert set(KEYS) <= set(figures)
    for key, value in figures.items():
        if key in BASELINES and importlib.util.find_spec(BASELINES[key]) is None:
            assert value is None, (key, value)  # null, never faked, and the table says why
            assert f'{BASELINES[key]} is not installed (pip install -e ".[bench]")' in done.stdout
            continue
        assert isinstance(value, float) and math.isfinite(value) and value > 0, (key, value)
    assert "1,000 walkers, batch" in done.stdout
    assert "pyscroll" in done.stdout and "render_fps" not in done.stdout  # a table of labels, not keys


def test_unknown_part_is_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "benchmarks", "--only", "nope"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "invalid choice: 'nope'" in done.stderr and "Traceback" not in done.stderr
