"""What ropes cost per World.step, beside the player step measured in the same run.

Run:  python benchmarks/bench_ropes.py
The scene is bench_player_step's (a running, jumping player on slopes and one-way platforms) with vines
of 12 segments hanging from y = 0 to the floor along the player's path: the player runs through them,
they sway, their ends drag on the floor. Each figure is the median over many single steps; "ropes"
is the median step with them minus the median step of the same scene without them.
"""

import statistics
import time

from bench_player_step import measure, scene

from engine import Rope

STEPS = 2400


def step_times(world, inputs) -> list[float]:
    times = []
    clock = time.perf_counter
    for b in inputs:
        t0 = clock()
        world.step(b)
        times.append(clock() - t0)
    return times


def with_ropes(count: int, repeats: int = 5) -> tuple[float, float]:
    """Median µs per step of the player scene with and without ``count`` vines (same inputs)."""
    plain, roped = [], []
    for _ in range(repeats):
        world, inputs = scene(False)
        plain += step_times(world, inputs)
        world, inputs = scene(False)
        for i in range(count):
            world.add(Rope(40 + i * 900 / max(count, 1), 0.0))  # 12 x 8 px: the floor is at y = 96
        roped += step_times(world, inputs)
    return statistics.median(plain) * 1e6, statistics.median(roped) * 1e6


if __name__ == "__main__":
    print(f"player step (bench_player_step, tiles only): {measure(False):7.1f} µs   (baseline, same run)")
    for count in (1, 12, 48):
        plain, roped = with_ropes(count)
        print(f"{count:3d} ropes x 12 segments: {roped:7.1f} µs per step with them, {plain:6.1f} µs without: "
              f"ropes {roped - plain:6.1f} µs ({(roped - plain) / plain:4.1f} x the player step)")
    print(f"median of {5 * STEPS} single steps each; the target: a dozen ropes well under 1000 µs")
