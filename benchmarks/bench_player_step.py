"""How long one World.step takes with one running, jumping player (the 25 µs budget).

Run:  python benchmarks/bench_player_step.py
Prints the median over several repeats of the µs per step, for two scenes: running and jumping over flat
ground, slopes and one-way platforms; and the same with two moving platforms and three triggers. The
level is walled at both sides so the player stays in it (an unwalled level let it fall out of the map
and time empty space).
"""

import statistics
import time

from engine import Buttons, Character, Path, Platform, TileGrid, Trigger, World

LEVEL = """
#................................................................#
#................................................................#
#............====.....................====.......................#
#................................................................#
#.......................pq................./####.................#
#.....................pq###......\\......./######.......====......#
##################################\\#####/########################
##################################################################
"""


def scene(extras: bool) -> tuple[World, list[Buttons]]:
    world = World(TileGrid.from_ascii(LEVEL))
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
