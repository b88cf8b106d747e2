"""The big run of the crowd / per-actor equivalence test, by hand: N random scenes x S steps.

The suite runs a small sample of ``tests/engine/test_crowd.py``'s generator; this runs the same generator
and the same comparison (``run_both``: every body's state and the step's reports after every step) for as
many scenes as asked, printing progress and, at the end, scenes run, failures and wall time. A failing
scene is printed and pickled to ``--out`` (``NNN.pickle``: ``(scene, way, steps)``; ``--replay FILE`` runs
one again) and the run goes on (no shrinking); the exit code is then 1.

    PYTHONPATH=. nice -n 19 python tools/crowd_equivalence.py --scenes 10000 --steps 300
    PYTHONPATH=. nice -n 19 python tools/crowd_equivalence.py --scenes 5000 --seed 2   # one of two halves
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import os
import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=1000, help="random scenes to run (default 1000)")
    parser.add_argument("--steps", type=int, default=300, help="steps per scene (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="the generator's seed (runs with other seeds differ)")
    parser.add_argument("--every", type=int, default=100, help="print progress every N scenes")
    parser.add_argument("--out", default="crowd_failures", help="folder for failing scenes (default crowd_failures)")
    parser.add_argument("--replay", help="run one pickled failing scene again (its traceback shows the mismatch)")
    args = parser.parse_args(argv)
    if args.scenes < 1 or args.steps < 1:
        print("crowd_equivalence: --scenes and --steps must be at least 1", file=sys.stderr)
        return 2
    os.environ["CROWD_STEPS"] = str(args.steps)  # read when the test module is imported (the edits' steps)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    spec = importlib.util.spec_from_file_location("test_crowd", ROOT / "tests" / "engine" / "test_crowd.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # (its scenes' records pickle by this name)
    spec.loader.exec_module(mod)

    from hypothesis import HealthCheck, Phase, given, seed, settings
    from hypothesis import strategies as st

    if args.replay:
        with open(args.replay, "rb") as f:
            scene, way, steps = pickle.load(f)
        with mod.residue(way):
            mod.run_both(*scene, steps=steps)
        print(f"{args.replay}: passes")
        return 0
    runs = {"scenes": 0, "failed": 0}
    out = Path(args.out)
    start = time.perf_counter()

    @seed(args.seed)
    @settings(max_examples=args.scenes, deadline=None, database=None, print_blob=True,
              phases=(Phase.generate,),
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(mod.scenes(), st.sampled_from(["mirrored", "one by one"]))
    def equivalence(scene, way):
        runs["scenes"] += 1
        kept = copy.deepcopy(scene)  # (as drawn: run_both edits its own copy of the grid)
        try:
            with mod.residue(way):
                mod.run_both(*scene, steps=args.steps)
        except Exception as exc:  # noqa: BLE001 -- every failure is recorded, and the run goes on
            runs["failed"] += 1
            out.mkdir(parents=True, exist_ok=True)
            name = out / f"seed{args.seed}-{runs['scenes']:05d}.pickle"
            with open(name, "wb") as f:
                pickle.dump((kept, way, args.steps), f)
            print(f"FAILED scene {runs['scenes']} ({way}), saved as {name}: {type(exc).__name__}: {exc}", flush=True)
        if runs["scenes"] % args.every == 0:
            print(f"{runs['scenes']} scenes x {args.steps} steps, {runs['failed']} failures, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)

    equivalence()
    wall = time.perf_counter() - start
    print(f"done: seed {args.seed}, {runs['scenes']} scenes x {args.steps} steps, {runs['failed']} failures, "
          f"wall {wall:.0f} s", flush=True)
    return 1 if runs["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
