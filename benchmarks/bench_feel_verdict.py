"""Seconds from a change of feel to the F2 strip's verdict for one level: today's kept-alive worker beside
the throw-away process of before (the baseline), in the same run.

Run:  python benchmarks/bench_feel_verdict.py [LEVEL.tmx] [RUNS]      (default: levels/04_lifts.tmx, 7)
      python benchmarks/bench_feel_verdict.py --cpu [LEVEL.tmx] [RUNS]

Each run changes the feel the way a designer nudging a slider does (``fall.max_speed`` 380, 381, ... px/s:
harmless, every level stays finishable) and times, as the game does it (``LevelGuard.feel_changed`` then
``poll()`` every 10 ms, the 0.25 s / 0.6 s pause before a check starts included), until the level's box
leaves "checking". The guard is the game's, over all nine shipped levels, with the difficulty measured
after the verdicts as in the game. Three ways, interleaved run by run so they share the machine's load:

- ``before``: a fresh process per change (``persistent=False``), the levels in their order (the way the
  strip worked until now: start-up, imports, maps read, then levels 1, 2, ... until this one);
- ``spawn+focus``: the same process per change, but the level played first (what the focus alone gives);
- ``kept``: one process kept alive, the level played first (``LevelGuard`` as the game makes it).

After each verdict the rest of that check is dropped (``_cancel``), so no way's background work runs while
another is timed. Prints every run, then the median, spread (min-max) and the ratio to ``before``.
The verdicts themselves never depend on time (states, not seconds); only when they arrive does.

On a loaded machine the background process (at nice +10, as in the game) waits behind every busier one,
and wall seconds say more about the load than about the strip. ``--cpu`` prints the same split in CPU
seconds, which the load does not change: what a fresh process pays before it checks anything (start-up and
imports, in a new interpreter each run) beside what the check of the level itself costs (its map read, then
its route under the previous feel replayed, as the kept-alive process does it), median of RUNS.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from engine import FeelConfig  # noqa: E402

from game.guard.feelguard import DEBOUNCE, SPAWN_DEBOUNCE, LevelGuard  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def time_verdict(guard: LevelGuard, index: int, feel: FeelConfig, cap: float = 600.0) -> tuple[float, str]:
    """(seconds from the change of feel to level ``index``'s verdict, that verdict)."""
    t0 = time.monotonic()
    guard.feel_changed(feel, now=t0)
    while guard.results[index].state == "checking":
        guard.poll()
        if time.monotonic() - t0 > cap:
            return float("nan"), "no verdict within the cap"
        time.sleep(0.01)
    seconds = time.monotonic() - t0
    state = guard.results[index].state
    guard._cancel()  # drop the rest of this check: nothing of this way runs while the next is timed
    return seconds, state


IMPORTS = ("import time; t = time.process_time(); import game.guard.feelguard, game.guard.check, "
           "game.guard.difficulty, game.files.levelfile; print(time.process_time() - t)")


def cpu(level: Path, runs: int) -> int:
    import resource
    import subprocess

    from game.files.levelfile import load_level
    from game.guard.check import check_level, known_routes

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start, imports, loads, checks = [], [], [], []
    for _ in range(runs):  # a fresh interpreter: what a new process pays before its first level
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([sys.executable, "-c", IMPORTS], capture_output=True, text=True, env=env, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        start.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)  # the whole child
        imports.append(float(done.stdout.strip().splitlines()[-1]))
    route = None
    for run in range(runs):
        feel = FeelConfig().with_value("fall.max_speed", 380.0 + run)
        t = time.process_time()
        data = load_level(level, goal=True)
        loads.append(time.process_time() - t)
        known = ([("last", route)] if route else []) + known_routes(level)
        t = time.process_time()
        check = check_level(level, feel, known=known, level=data)
        checks.append(time.process_time() - t)
        route = check.report.route
        print(f"run {run + 1}: {check.report.outcome} ({check.report.source}), map read {loads[-1]:.2f} s CPU, "
              f"check {checks[-1]:.2f} s CPU", flush=True)
    med = statistics.median
    print(f"\nfresh process: {med(start):.2f} s CPU from its start to its imports done (the imports "
          f"{med(imports):.2f} s of it), map read {med(loads):.2f} s CPU")
    print(f"check of {level.name} by its last route: {med(checks):.2f} s CPU (min {min(checks):.2f}, "
          f"max {max(checks):.2f})")
    print(f"a quiet machine's verdict: before ~{SPAWN_DEBOUNCE + med(start) + med(loads) + med(checks):.1f} s "
          f"(pause {SPAWN_DEBOUNCE} + start-up + map + check, this level first), kept ~"
          f"{DEBOUNCE + med(checks):.1f} s (pause {DEBOUNCE} + check)")
    return 0


def main(argv: list[str]) -> int:
    if len(argv) > 1 and argv[1] == "--cpu":
        level = Path(argv[2]) if len(argv) > 2 else ROOT / "levels" / "04_lifts.tmx"
        return cpu(level.resolve(), int(argv[3]) if len(argv) > 3 else 7)
    level = Path(argv[1]) if len(argv) > 1 else ROOT / "levels" / "04_lifts.tmx"
    runs = int(argv[2]) if len(argv) > 2 else 7
    paths = sorted((ROOT / "levels").glob("*.tmx"))
    level = level.resolve()
    if level not in paths:
        print(f"{level}: not one of the shipped levels in {ROOT / 'levels'}", file=sys.stderr)
        return 2
    index = paths.index(level)
    ways = {"before": LevelGuard(paths, persistent=False),
            "spawn+focus": LevelGuard(paths, persistent=False),
            "kept": LevelGuard(paths)}
    ways["spawn+focus"].focus = ways["kept"].focus = level
    times: dict[str, list[float]] = {name: [] for name in ways}
    print(f"{level.name} (level {index + 1} of {len(paths)}), {runs} changes of feel each, load "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    try:
        for run in range(runs):
            feel = FeelConfig().with_value("fall.max_speed", 380.0 + run)
            line = []
            for name, guard in ways.items():
                seconds, state = time_verdict(guard, index, feel)
                times[name].append(seconds)
                line.append(f"{name} {seconds:6.2f} s ({state})")
            print(f"run {run + 1}: " + ", ".join(line), flush=True)
    finally:
        for guard in ways.values():
            guard.close()
    base = statistics.median(times["before"])
    print(f"\n{'way':<12} {'median s':>9} {'min s':>7} {'max s':>7} {'vs before':>10}")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"{name:<12} {med:9.2f} {min(ts):7.2f} {max(ts):7.2f} {base / med:9.1f}x")
    print(f"(load at the end {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
