"""What a snapshot + restore costs next to a player step, on a shipped level (the "less than a few player
steps" budget of World.snapshot / World.restore).

Run:  python benchmarks/bench_snapshot.py [LEVEL.tmx]
Prints medians of several repeats, side by side in the same run: one World.step with the player running,
one World.snapshot() + World.restore(), and the same pair for the game's Session (what the route finder
uses), with the ratios.
"""

import statistics
import sys
import time
from pathlib import Path

from engine import Buttons
from game.files.levelfile import load_level
from game.rules.session import Session

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "04_lifts.tmx"  # the busiest shipped level: 6 moving platforms, 29 triggers
RIGHT = Buttons(right=True)


def per_call(fn, n: int, repeats: int = 9) -> float:
    """Median µs per call of ``fn`` over ``repeats`` runs of ``n`` calls."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(times)


def main(path: Path) -> None:
    level = load_level(path)
    session = Session(level)
    for _ in range(90):  # running, with platforms under way
        session.step(RIGHT)
    world = session.world
    snap, ssnap = world.snapshot(), session.snapshot()

    def world_step():
        world.step(RIGHT)

    def world_pair():
        world.restore(world.snapshot())

    def session_step():
        session.step(RIGHT)

    def session_pair():
        session.restore(session.snapshot())

    world.restore(snap)
    step = per_call(world_step, 300)
    world.restore(snap)
    pair = per_call(world_pair, 2000)
    session.restore(ssnap)
    sstep = per_call(session_step, 300)
    session.restore(ssnap)
    spair = per_call(session_pair, 2000)
    print(f"{path.name}: {len(world.actors)} actor, {len(world.platforms)} platforms, {len(world.triggers)} triggers")
    print(f"World.step (player running)         {step:7.1f} µs")
    print(f"World.snapshot() + restore()        {pair:7.1f} µs   = {pair / step:4.2f} player steps")
    print(f"Session.step                        {sstep:7.1f} µs")
    print(f"Session.snapshot() + restore()      {spair:7.1f} µs   = {spair / sstep:4.2f} session steps")
    print("budget: a snapshot + restore under a few player steps")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else LEVEL)
