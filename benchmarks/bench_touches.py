"""What the touch pass and swept bullets cost at 10, 100 and 1,000 actors: the cost grows with what is near,
not with the number of actors.

Run:  python benchmarks/bench_touches.py [--repeats N]
Each scene is a walled strip of 16 px tiles at one density of actors (the strip grows with the count, so each
actor has as many neighbours at 10 as at 1,000): a third are players and bullets that touch enemies, the rest
walkers and enemies wandering about. Printed side by side, in the same run, CPU-time medians of:
- the touch pass (``engine/_touches.py``) over the spatial hash, and the same answer found by testing every
  pair (what a game's loop over every actor did): per step, and per actor;
- a whole ``World.step`` of that scene;
- 10, 100 and 1,000 swept bullets (2x2, 40 px a step, touching players) crossing the scene of as many
  actors, per bullet: the step with them less the same step without them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import Actor, TileGrid, World, _touches
from engine._solids import FEW

PLAYER, ENEMY = 1, 2
DENSITY = 1 / 2000.0  # actors per px^2 of open space: a crowded level
ROWS = 24  # tiles


def scene(count: int, seed: int = 7) -> World:
    """A walled strip just big enough for ``count`` actors at DENSITY, with a floor every 6 rows."""
    rng = random.Random(seed)
    cols = max(16, int(count / DENSITY / (ROWS * 16 * 16)) + 2)
    lines = []
    for r in range(ROWS):
        if r % 6 == 5:
            lines.append("#" + "".join("=" if rng.random() < 0.2 else "#" for _ in range(cols - 2)) + "#")
        else:
            lines.append("#" + "." * (cols - 2) + "#")
    world = World(TileGrid.from_ascii("\n".join(lines)))
    for i in range(count):
        floor = rng.randrange(ROWS // 6)
        x = rng.uniform(20, cols * 16 - 40)
        y = floor * 96 + rng.uniform(20, 60)
        if i % 3 == 0:
            a = world.add(Actor(x, y, 10, 14, group=PLAYER, touches=ENEMY))
        else:
            a = world.add(Actor(x, y, 8, 8, group=ENEMY, touches=PLAYER if i % 3 == 1 else 0))
        a.vx = rng.choice((-1, 1)) * rng.uniform(20, 80)
    for _ in range(30):  # settle on the floors
        world.step()
    return world


def brute_force(actors) -> list:
    """The same touches, found by testing every pair."""
    found = []
    for a in actors:
        mask = a.touches
        if not mask:
            continue
        for b in actors:
            if b is not a and mask & b.group and a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h \
                    and b.y < a.y + a.h:
                found.append((a, b))
    return found


def cpu(fn, calls: int) -> float:
    c0 = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - c0) / calls


def touch_figures(count: int, repeats: int) -> tuple[float, float, float, int]:
    """(µs per touch pass over the hash, µs by every pair, µs per whole step, touches found)."""
    world = scene(count)
    touchers = [a for a in world.actors if a.touches]

    def touch_pass():
        return _touches.find(touchers, world.actors, world._hash, FEW)

    ours = sorted((id(t.actor), id(t.other)) for t in touch_pass())
    theirs = sorted((id(a), id(b)) for a, b in brute_force(world.actors))
    assert ours == theirs, "the touch pass and brute force disagree"
    calls = max(1, 2000 // count)
    hashed, pairs, steps = [], [], []
    for _ in range(repeats):
        hashed.append(cpu(touch_pass, calls))
        pairs.append(cpu(lambda: brute_force(world.actors), max(1, calls // 10) if count >= 1000 else calls))
        steps.append(cpu(world.step, max(1, calls // 4)))
    med = statistics.median
    return med(hashed) * 1e6, med(pairs) * 1e6, med(steps) * 1e6, len(ours)


def bullet_figures(count: int, repeats: int) -> float:
    """µs per bullet per step: ``count`` 2x2 bullets at 40 px a step through the scene of ``count`` actors."""
    rng = random.Random(3)
    times = []
    for _ in range(repeats):
        world = scene(count)
        w = world.grid.width
        bullets = []
        for _ in range(count):
            b = world.add(Actor(rng.uniform(20, w - 20), rng.uniform(10, ROWS * 16 - 20), 2, 2, bullet=True,
                                gravity=False, touches=PLAYER))
            b.vx = rng.choice((-1, 1)) * 2400.0
            b.vy = rng.uniform(-300, 300)
            bullets.append(b)
        world.step()
        base = World(world.grid)  # the same scene without bullets, for the difference
        for a in world.actors:
            if not a.bullet:
                twin = base.add(Actor(a.x, a.y, a.w, a.h, group=a.group, touches=a.touches))
                twin.vx = a.vx
        steps = 20
        with_b = cpu(world.step, steps)
        without = cpu(base.step, steps)
        times.append(max(0.0, with_b - without) / count)
    return statistics.median(times) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    print("CPU-time medians of", args.repeats, "runs; touches checked equal to brute force in each scene")
    print(f"{'actors':>7} {'touches':>8} | {'touch pass (hash)':>18} {'every pair':>12} {'ratio':>7} | "
          f"{'per actor':>10} {'every pair':>11} | {'whole step':>11} {'per actor':>10}")
    for count in (10, 100, 1000):
        ours, pairs, step, found = touch_figures(count, args.repeats)
        print(f"{count:>7} {found:>8} | {ours:>15.1f} µs {pairs:>9.1f} µs {pairs / ours:>6.1f}x | "
              f"{ours / count:>7.2f} µs {pairs / count:>8.2f} µs | {step / 1000:>8.2f} ms {step / count:>7.1f} µs")
    print()
    print(f"{'bullets':>7} | µs per bullet per step (2x2, 40 px a step, through as many actors)")
    for count in (10, 100, 1000):
        print(f"{count:>7} | {bullet_figures(count, max(3, args.repeats // 2)):>8.1f}")


if __name__ == "__main__":
    main()
