"""How long one World.step takes with one running, jumping player (the 25 µs budget).

Run:  python benchmarks/bench_player_step.py [--baseline OTHER_CHECKOUT]   (python -m benchmarks runs it
with everything else)
Prints the median over several repeats of the µs per step, for two scenes: running and jumping over flat
ground, slopes and one-way platforms; and the same with two moving platforms and three triggers. The
level is walled at both sides so the player stays in it (an unwalled level let it fall out of the map
and time empty space). Wall time swings with the machine's load; CPU time (this process only) much
less. ``--baseline DIR`` times another checkout's engine on these same scenes, alternating with this
one, and prints both side by side.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import pathlib

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


SCENES = {"tiles only": False, "+2 platforms +3 triggers": True}


def measure(extras: bool, repeats: int = 7) -> tuple[list[float], list[float]]:
    """µs per step over ``repeats`` runs of the scene: (wall times, CPU times of this process)."""
    wall, cpu = [], []
    for _ in range(repeats):
        world, inputs = scene(extras)
        t0, c0 = time.perf_counter(), time.process_time()
        for b in inputs:
            world.step(b)
        wall.append((time.perf_counter() - t0) / len(inputs) * 1e6)
        cpu.append((time.process_time() - c0) / len(inputs) * 1e6)
    return wall, cpu


def run_in_checkout(root: str, module: str, expression: str):
    """``expression`` (over ``b``, this folder's ``module``) worked out with the engine of the checkout at
    ``root``, in a fresh process; returns its value (it must be JSON)."""
    here = str(pathlib.Path(__file__).parent)
    code = (f"import json, sys; sys.path[:0] = [{root!r}, {here!r}]; import {module} as b; "
            f"print(json.dumps({expression}))")
    env = dict(os.environ, PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _run_elsewhere(root: str, repeats: int) -> dict:
    """This benchmark (this file's scenes) on the engine in another checkout, in a fresh process."""
    return run_in_checkout(root, "bench_player_step",
                           f"{{k: b.measure(v, {repeats}) for k, v in b.SCENES.items()}}")


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", metavar="DIR", help="another checkout: time its engine on the same scenes, "
                                                       "interleaved with this one, and print both side by side")
    ap.add_argument("--rounds", type=int, default=3, help="with --baseline: alternations (default 3)")
    args = ap.parse_args(argv)
    here = str(pathlib.Path(__file__).resolve().parents[1])
    if not args.baseline:
        for name, extras in SCENES.items():
            wall, cpu = measure(extras)
            print(f"player step, {name:26s} {statistics.median(wall):6.1f} µs wall, "
                  f"{statistics.median(cpu):6.1f} µs CPU (medians of 7 x 2400 steps; best wall {min(wall):.1f})")
        print("budget: 25 µs per player step")
        return
    runs: dict[str, dict[str, tuple[list, list]]] = {"baseline": {}, "this": {}}
    for _ in range(args.rounds):
        for label, root in (("baseline", args.baseline), ("this", here)):
            for name, (wall, cpu) in _run_elsewhere(root, 5).items():
                w, c = runs[label].setdefault(name, ([], []))
                w += wall
                c += cpu
    print(f"µs per step, medians (best) of {5 * args.rounds} runs each, alternating; baseline = {args.baseline}")
    for name in SCENES:
        (bw, bc), (tw, tc) = runs["baseline"][name], runs["this"][name]
        print(f"{name:26s} wall {statistics.median(bw):5.1f} ({min(bw):4.1f}) -> {statistics.median(tw):5.1f} "
              f"({min(tw):4.1f})   CPU {statistics.median(bc):5.1f} ({min(bc):4.1f}) -> {statistics.median(tc):5.1f} "
              f"({min(tc):4.1f})   CPU ratio {statistics.median(tc) / statistics.median(bc):.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
