"""World queries at 10, 100 and 1,000 actors: query_rect, query_point, raycast, beside a plain loop.

What each costs, beside the obvious loop over every body, timed in the same run.

Run:  python benchmarks/bench_queries.py
Two layouts per count: *spread*, the actors scattered over a map that grows with their number (the same
crowd around any spot: a query should cost the same at every count), and *crowded*, all of them on one
fixed 100x40-tile map (more of them near every spot: the cost grows with what is near, like the loop's
answer does). Each query is a box or point near a random actor (the typical "what is around me") and a
200 px ray from one; the loop is ``[b for b in bodies if overlaps(...)]``, the least any query must do
without a broadphase. Figures are µs per query, medians of five passes (CPU time). Last, what
keeping the hash current costs a step: ``world.step()`` with the crowd walking, and the time the first
query after it spends re-reading the boxes of what moved (a world nobody queries never pays it).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from engine import Actor, TileGrid, World
from engine.geometry import overlaps

COUNTS = (10, 100, 1000)
TS = 16


def make(count: int, spread: bool, seed: int = 3) -> World:
    """A floor, a few walls and ``count`` 10x14 actors at rest (scattered, not overlapping tiles)."""
    cols = max(40, int((count * 40) ** 0.5 * 4)) if spread else 100
    rows = max(20, cols // 4) if spread else 40
    rng = random.Random(seed)
    lines = []
    for r in range(rows):
        row = ["."] * cols
        if r == rows - 1:
            row = ["#"] * cols
        elif r % 8 == 7:
            for c in range(cols):
                if rng.random() < 0.3:
                    row[c] = "#"
        lines.append("".join(row))
    world = World(TileGrid.from_ascii("\n".join(lines)))
    placed = 0
    while placed < count:
        x, y = rng.uniform(0, cols * TS - 10), rng.uniform(0, (rows - 1) * TS - 14)
        if not world.grid.solid_overlaps(x, y, 10, 14):
            world.add(Actor(x, y, 10, 14, gravity_scale=0.0, name=f"a{placed}"))
            placed += 1
    return world


def per_query(fn, args: list, rounds: int = 5) -> float:
    """µs per call of fn(*a) over ``args``: median of ``rounds`` passes (CPU time)."""
    times = []
    for _ in range(rounds):
        t0 = time.process_time()
        for a in args:
            fn(*a)
        times.append((time.process_time() - t0) / len(args) * 1e6)
    return statistics.median(times)


def measure(count: int, spread: bool) -> dict[str, float]:
    world = make(count, spread)
    rng = random.Random(count)
    bodies = world.actors
    spots = [rng.choice(bodies) for _ in range(400)]
    boxes = [(a.x - 27, a.y - 25, 64, 64) for a in spots]
    points = [(a.x + 5, a.y + 7) for a in spots]
    rays = [(a.x + 5, a.y + 7, a.x + 5 + rng.uniform(-200, 200), a.y + 7 + rng.uniform(-60, 60)) for a in spots]

    def loop_rect(x, y, w, h):
        return [b for b in bodies if overlaps(x, y, w, h, b.x, b.y, b.w, b.h)]

    def ray_actors(x0, y0, x1, y1):
        return world.raycast(x0, y0, x1, y1, actors=True)

    found = statistics.mean(len(world.query_rect(*b)) for b in boxes)
    return {
        "near": found,
        "rect": per_query(world.query_rect, boxes),
        "loop": per_query(loop_rect, boxes),
        "point": per_query(world.query_point, points),
        "ray": per_query(world.raycast, rays),
        "ray_actors": per_query(ray_actors, rays),
    }


def upkeep(count: int, steps: int = 40) -> tuple[float, float]:
    """(µs per world.step, µs the first query after it spends re-reading the boxes of what moved) with
    ``count`` actors walking on the crowded map."""
    world = make(count, False)
    for i, a in enumerate(world.actors):
        a.gravity_scale = 1.0
        a.vx = 40.0 if i % 2 else -40.0
    hero = world.actors[0]
    step_us, flush_us = [], []
    clock = time.process_time
    for _ in range(steps):
        t0 = clock()
        world.step()
        t1 = clock()
        world.query_rect(hero.x - 27, hero.y - 25, 64, 64)  # re-reads what moved, then queries
        t2 = clock()
        world.query_rect(hero.x - 27, hero.y - 25, 64, 64)  # the query alone
        t3 = clock()
        step_us.append((t1 - t0) * 1e6)
        flush_us.append(((t2 - t1) - (t3 - t2)) * 1e6)
    return statistics.median(step_us), statistics.median(flush_us)


def main() -> None:
    print(__doc__.split("\n")[0])
    print(f"{'layout':9s} {'actors':>6s} {'in box':>6s} {'query_rect':>10s} {'the loop':>9s} {'ratio':>6s} "
          f"{'query_point':>11s} {'raycast':>8s} {'+actors':>8s}   (µs per query)")
    for spread in (True, False):
        for count in COUNTS:
            m = measure(count, spread)
            print(f"{'spread' if spread else 'crowded':9s} {count:6d} {m['near']:6.1f} {m['rect']:10.2f} "
                  f"{m['loop']:9.2f} {m['rect'] / m['loop']:6.2f} {m['point']:11.2f} {m['ray']:8.2f} "
                  f"{m['ray_actors']:8.2f}")
    print(f"\n{'actors':>6s} {'step':>9s} {'hash upkeep':>12s}   (µs per step, crowded map, all walking; the "
          f"upkeep is paid by the first query after a step)")
    for count in COUNTS:
        step, flush = upkeep(count)
        print(f"{count:6d} {step:9.1f} {flush:12.1f}")


if __name__ == "__main__":
    sys.exit(main())
