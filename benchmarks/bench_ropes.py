"""What ropes cost per World.step, beside the player step measured in the same run.

Run:  python benchmarks/bench_ropes.py
The scene is bench_player_step's (a player running and jumping over slopes and one-way platforms) with
vines of 12 segments hanging from y = 0 along the player's path, which the player runs and jumps through.
"clear": 6 px segments, hanging clear of the ground; "resting": 8 px segments, long enough to reach the
floor and the one-way platforms, so their lower particles rest on tiles every step (the dearer case:
each particle touching a tile takes the actors' tile pass). Each figure is the median over many single
steps; "ropes" is the median step with them minus the median step of the same scene without them.
"""

import statistics
import time

from bench_player_step import measure, scene

from engine import Rope, RopeConfig

REPEATS = 5


def step_times(world, inputs) -> list[float]:
    times = []
    clock = time.perf_counter
    for b in inputs:
        t0 = clock()
        world.step(b)
        times.append(clock() - t0)
    return times


def with_ropes(count: int, length: float) -> tuple[float, float]:
    """Median µs per step of the player scene without and with ``count`` vines (same inputs)."""
    plain, roped = [], []
    for _ in range(REPEATS):
        world, inputs = scene(False)
        plain += step_times(world, inputs)
        world, inputs = scene(False)
        for i in range(count):
            world.add(Rope(40 + i * 900 / count, 0.0, RopeConfig(segments=12, segment_length=length)))
        roped += step_times(world, inputs)
    return statistics.median(plain) * 1e6, statistics.median(roped) * 1e6


if __name__ == "__main__":
    print(f"player step (bench_player_step, tiles only): {statistics.median(measure(False)[0]):6.1f} µs   "
          f"(the baseline, this run)")
    for count, length, how in ((1, 6.0, "clear"), (12, 6.0, "clear"), (12, 8.0, "resting"), (48, 6.0, "clear")):
        plain, roped = with_ropes(count, length)
        print(f"{count:3d} ropes x 12 segments, {how:7s}: step {roped:6.1f} µs, without them {plain:5.1f} µs: "
              f"ropes {roped - plain:6.1f} µs = {(roped - plain) / plain:5.1f} x the player step")
    print(f"medians of {REPEATS} x 2400 single steps; the target: a dozen ropes well under 1000 µs")
