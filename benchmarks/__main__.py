"""``python -m benchmarks [--quick] [--json FILE]``: every speed figure, ours beside the alternatives.

Each part runs in a fresh Python process (its imports, windows and memory cannot touch the next one's
figures), prints one JSON object of figures, and the table is printed at the end. A baseline whose
library is missing (``pip install -e ".[bench]"``) is reported as skipped and written as null.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from .common import MODES, Figure

PARTS = {  # name -> (module, what it measures)
    "walkers": ("benchmarks.walkers", "walkers: ours, the naive loop, arcade, pymunk"),
    "player": ("benchmarks.player", "player step and map size"),
    "render": ("benchmarks.render", "map drawing beside pyscroll"),
    "frame": ("benchmarks.frame", "whole frame with 100 enemies"),
    "enemies": ("benchmarks.enemies", "the game's session with 1,000 enemy walkers"),
    "loading": ("benchmarks.loading", "loading a 2,000x200 map, start-up"),
}

# (label, our key, unit, lower is better, [(baseline label, key)], target); a baseline label ending in ":"
# is shown for context, without a ratio
ROWS = [
    ("100 walkers, batch", "actors_100_ms", "ms/step", True,
     [("per-actor", "actors_100_per_actor_ms"), ("arcade", "arcade_100_ms")], ""),
    ("1,000 walkers, batch", "actors_1000_ms", "ms/step", True,
     [("per-actor", "actors_1000_per_actor_ms"), ("hand-written loop", "handloop_1000_ms"),
      ("pymunk", "pymunk_1000_ms"), ("naive loop", "naive_1000_ms")], "<= 2 ms"),
    ("1,000 walkers, batch, 6 crates and a lift", "crowd_crate_1000_ms", "ms/step", True,
     [("crowd alone", "actors_1000_ms"), ("hand-written loop", "handloop_1000_ms"), ("pymunk", "pymunk_1000_ms")],
     "<= 1.3 x crowd alone"),
    ("10,000 walkers, batch", "actors_10000_ms", "ms/step", True, [], "<= 12 ms"),
    ("  CPU time: 100 / 1,000 / 10,000 walkers", "actors_1000_cpu_ms", "ms/step", True,
     [("100:", "actors_100_cpu_ms"), ("10,000:", "actors_10000_cpu_ms"),
      ("per-actor 1,000", "actors_1000_per_actor_cpu_ms")], ""),
    ("1,000 walkers, per-actor path", "actors_1000_per_actor_ms", "ms/step", True,
     [("hand-written loop", "handloop_1000_ms"), ("pymunk", "pymunk_1000_ms"), ("naive loop", "naive_1000_ms")],
     "<= 3 ms, <= pymunk"),
    ("1,000 walkers, hand-written loop", "handloop_1000_ms", "ms/step", True, [("pymunk", "pymunk_1000_ms")], ""),
    ("100 walkers, per-actor path", "actors_100_per_actor_ms", "ms/step", True, [("arcade", "arcade_100_ms")], ""),
    ("player step, every feel feature", "player_step_us", "us", True, [("CPU time:", "player_step_cpu_us")],
     "<= 20 us"),
    ("step cost 4000x400 map / 100x50 map", "map_size_ratio", "x", True, [], "~ 1"),
    ("level 02 at 640x360, as the game shows it", "render_fps", "fps", False,
     [("pyscroll, tile layers only", "pyscroll_fps"), ("pyscroll + same image layers", "pyscroll_full_fps"),
      ("every tile blitted", "reference_render_fps")], ">= pyscroll"),
    ("level 02 at 640x360, tile layers only", "render_tiles_fps", "fps", False,
     [("pyscroll", "pyscroll_fps")], ">= pyscroll"),
    ("game session, 1,000 enemy walkers (extra)", "game_enemies_1000_ms", "ms/step", True,
     [("with them:", "game_enemies_1000_total_ms"), ("empty level:", "game_empty_ms")], "<= 3 ms"),
    ("frame, 100 enemies: median", "frame_ms_median", "ms", True, [], "<= 4 ms"),
    ("frame, 100 enemies: 99th percentile", "frame_ms_p99", "ms", True, [], "<= 8 ms"),
    ("frame CPU time: median", "frame_cpu_ms_median", "ms", True, [], ""),
    ("frame CPU time: 99th percentile", "frame_cpu_ms_p99", "ms", True, [], ""),
    ("load 2,000x200 map, 3 tile layers", "load_s", "s", True, [("CPU time:", "load_cpu_s")], "<= 1.5 s"),
    ("  peak memory of that process", "load_mb", "MB", True, [("before loading:", "load_base_mb")], "<= 150 MB"),
    ("start-up to first frame", "startup_s", "s", True, [("with no bytecode cache:", "startup_cold_s")], "<= 1 s"),
]
REQUIRED = ("actors_100_ms", "actors_1000_ms", "actors_10000_ms", "actors_1000_per_actor_ms", "naive_1000_ms",
            "handloop_1000_ms", "crowd_crate_1000_ms",
            "arcade_100_ms", "pymunk_1000_ms", "player_step_us", "map_size_ratio", "render_fps", "pyscroll_fps",
            "frame_ms_median", "frame_ms_p99", "load_s", "load_mb", "startup_s")


def run_part(name: str, mode: str) -> dict[str, Figure]:
    """Run one part in a fresh process (scratch save and config folders: the player's are never
    touched); its figures by key."""
    import tempfile

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory(prefix="tilefeel-bench-") as tmp:
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", ARCADE_HEADLESS="1",
                   PYGAME_HIDE_SUPPORT_PROMPT="1", TILEFEEL_DATA_DIR=os.path.join(tmp, "data"),
                   TILEFEEL_CONFIG_DIR=os.path.join(tmp, "config"))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH", "")]))
        done = subprocess.run([sys.executable, "-m", "benchmarks", "--part", name, "--mode", mode],
                              env=env, capture_output=True, text=True, cwd=root)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        why = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return {"!" + name: Figure("!" + name, None, f"part '{name}' failed: {why}")}
    return {f[0]: Figure(*f) for f in json.loads(lines[-1])}


def _child(name: str, mode: str) -> int:
    import importlib

    module = importlib.import_module(PARTS[name][0])
    figures = module.run(mode)
    print(json.dumps([list(f) for f in figures]))
    return 0


def _number(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    digits = 0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2
    return f"{value:,.{digits}f} {unit}".strip()


def table(figures: dict[str, Figure], out=sys.stdout) -> None:
    """Our figure, then each baseline with how many times better ours is (>1: ours is better)."""
    print(f"\n{'benchmark':44} {'ours':>14}   baselines (ours is N x better)", file=out)
    print("-" * 118, file=out)
    for label, key, unit, lower, baselines, target in ROWS:
        mine = figures.get(key)
        value = mine.value if mine else None
        text = _number(value, unit) if value is not None else f"skipped: {mine.why if mine else 'not measured'}"
        parts = []
        for name, bkey in baselines:
            b = figures.get(bkey)
            if b is None or b.value is None:
                parts.append(f"{name.rstrip(':')}: skipped ({b.why if b else 'not measured'})")
                continue
            ratio = ""
            if value and b.value and not name.endswith(":"):
                ratio = f" = {b.value / value if lower else value / b.value:.2f}x"
            parts.append(f"{name} {_number(b.value, unit)}{ratio}")
        goal = f"   [target {target}]" if target else ""
        if value is None:
            print(f"{label:44} {text}", file=out)
            if parts:
                print(f"{'':44} {'':>14}   " + "; ".join(parts), file=out)
            continue
        print(f"{label:44} {text:>14}   " + "; ".join(parts) + goal, file=out)
    failed = [f for k, f in figures.items() if k.startswith("!")]
    for f in failed:
        print(f"! {f.why}", file=out)
    print("Notes: walkers are engine Actors on a 120x68 map of 8 px tiles with slopes and one-way planks; the "
          "frame's 100 enemies are the game's own (60 walkers, 20 hoppers, 20 flyers) in level 1, drawn with art; "
          "render and frame figures are medians of alternating rounds on a shared machine.", file=out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller runs: under a minute")
    ap.add_argument("--smoke", action="store_true", help="tiny runs, every key, figures meaningless (tests)")
    ap.add_argument("--json", metavar="FILE", help="write the figures as one JSON object")
    ap.add_argument("--only", metavar="PART", action="append", choices=sorted(PARTS),
                    help="run only this part (repeatable): " + ", ".join(PARTS))
    ap.add_argument("--profile-load", action="store_true", help="print a cProfile of loading the big map")
    ap.add_argument("--part", help=argparse.SUPPRESS)
    ap.add_argument("--mode", choices=MODES, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.part:
        return _child(args.part, args.mode)
    if args.profile_load:
        from .loading import load_figures
        print(load_figures("full" if not args.quick else "quick", profile=True))
        return 0
    mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    names = args.only or list(PARTS)
    t0 = time.perf_counter()
    figures: dict[str, Figure] = {}
    if mode == "smoke":  # figures do not matter: run the parts side by side
        with ThreadPoolExecutor(len(names)) as pool:
            for result in pool.map(lambda n: run_part(n, mode), names):
                figures.update(result)
    else:
        for name in names:
            print(f"running {name}: {PARTS[name][1]} ...", file=sys.stderr, flush=True)
            figures.update(run_part(name, mode))
    table(figures)
    note = ": smaller scenes, figures meaningless" if mode == "smoke" else ""
    print(f"({mode} run{note}, {time.perf_counter() - t0:.0f} s)")
    if args.json:
        keys = [k for k in REQUIRED] + sorted(k for k in figures if k not in REQUIRED and not k.startswith("!"))
        data = {k: (figures[k].value if k in figures else None) for k in keys}
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")
        print(f"wrote {args.json}")
    return 1 if any(k.startswith("!") for k in figures) else 0


if __name__ == "__main__":
    sys.exit(main())
