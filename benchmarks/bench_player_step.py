"""How long one World.step takes with one running, jumping player (the 25 µs budget).

Run:  python benchmarks/bench_player_step.py   (python -m benchmarks runs it with everything else)
Prints the median over several repeats of the µs per step, for three scenes: flat running, slopes
and one-way platforms, and the same with two moving platforms and three triggers.
"""

import statistics
import time

from engine import Buttons, Character, Path, Platform, TileGrid, Trigger, World

LEVEL = """
..................................................................
..................................................................
.............====.....................====........................
..................................................................
.......................p q................./####..................
.....................p q###......\\......./######.......====.......
##################################\\#####/########################
##################################################################
"""


def scene(extras: bool, grid: TileGrid | None = None, feel=None) -> tuple[World, list[Buttons]]:
    """The world (on ``LEVEL``, or on ``grid`` holding it at the top-left) and 2400 steps of inputs."""
    world = World(grid or TileGrid.from_ascii(LEVEL), feel)
    world.add(Character(20, 40))
    if extras:
        world.add(Platform(300, 40, 32, 8, Path([(300, 40), (360, 40)], speed=40, wait=0.3)))
        world.add(Platform(600, 70, 32, 8, Path([(600, 70), (600, 20)], speed=30), one_way=True))
        for i in range(3):
            world.add(Trigger(150 * i + 100, 0, 32, 128, name=f"t{i}"))
    inputs = []
    for i in range(2400):
        phase = (i // 300) % 2
        inputs.append(Buttons(right=phase == 0, left=phase == 1, jump=(i % 50) < 14, down=(i % 170) > 160))
    return world, inputs


def measure(extras: bool, repeats: int = 7) -> float:
    times = []
    for _ in range(repeats):
        world, inputs = scene(extras)
        t0 = time.perf_counter()
        for b in inputs:
            world.step(b)
        times.append((time.perf_counter() - t0) / len(inputs) * 1e6)
    return statistics.median(times)


if __name__ == "__main__":
    print(f"player step, tiles only:            {measure(False):6.1f} µs (median of 7 x 2400 steps)")
    print(f"player step, +2 platforms +3 triggers: {measure(True):6.1f} µs")
    print("budget: 25 µs per player step")
