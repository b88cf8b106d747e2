"""How long building a TileGrid takes and how much memory it keeps, on a 2,000x200 map; and what a tile
edit costs (``grid.set_tile``).

Run:  python benchmarks/bench_tiles.py [--baseline OTHER_CHECKOUT]
The map is made like the loading benchmark's: rolling ground of solid tiles with 45° slopes where it
steps, one-way planks above it, mostly air. Build time is CPU time (this process only), the median of
several builds; memory is what tracemalloc sees: the peak while building and what the grid keeps
afterwards. ``--baseline DIR`` builds the same map with another checkout's engine, in a fresh process,
alternating with this one, and prints both side by side.
"""

from __future__ import annotations

import argparse
import gc
import pathlib
import statistics
import sys
import time
import tracemalloc

import numpy as np
from bench_player_step import run_in_checkout

COLS, ROWS, TS = 2000, 200, 16


def big_map(cols: int = COLS, rows: int = ROWS, seed: int = 7):
    """(kinds, slope_left, slope_right) arrays of a rolling landscape."""
    rng = np.random.default_rng(seed)
    kinds = np.zeros((rows, cols), np.int64)
    left = np.zeros((rows, cols))
    right = np.zeros((rows, cols))
    height = rows // 3
    for c in range(cols):
        step = int(rng.choice((-1, 0, 0, 0, 1))) if 2 < c < cols - 3 else 0
        new = min(rows - 10, max(8, height + step))
        kinds[rows - new:, c] = 1
        if new > height:  # rising into this column: a slope in the cell before, rising right
            r = rows - new
            kinds[r, c - 1], left[r, c - 1], right[r, c - 1] = 3, 0.0, TS
        elif new < height:  # falling: a slope in this column's top cell, falling right
            r = rows - height
            kinds[r, c], left[r, c], right[r, c] = 3, TS, 0.0
        height = new
        if c % 23 == 0:
            kinds[rows - height - 4, c:c + 5] = 2
    return kinds, left, right


def measure(repeats: int = 5) -> dict:
    """Build time (ms, CPU medians), peak and kept memory (MB), and µs per set_tile when the engine has it."""
    from engine import TileGrid, TileKind

    kinds, left, right = big_map()
    times = []
    for _ in range(repeats):
        gc.collect()
        c0 = time.process_time()
        grid = TileGrid(kinds, TS, left, right)
        times.append((time.process_time() - c0) * 1e3)
        del grid
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    grid = TileGrid(kinds, TS, left, right)
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    out = {"build_ms": statistics.median(times), "kept_mb": (kept - base) / 1e6, "peak_mb": (peak - base) / 1e6}
    if hasattr(grid, "set_tile"):
        rng = np.random.default_rng(1)
        spots = [(int(c), int(r)) for c, r in zip(rng.integers(1, COLS - 1, 2000), rng.integers(1, ROWS - 1, 2000),
                                                   strict=True)]
        c0 = time.process_time()
        for i, (c, r) in enumerate(spots):
            if i % 3 == 2:
                grid.set_tile(c, r, TileKind.SLOPE, 0.0, 8.0)
            else:
                grid.set_tile(c, r, TileKind.SOLID if i % 3 else TileKind.EMPTY)
        out["set_tile_us"] = (time.process_time() - c0) / len(spots) * 1e6
    return out


def _run_in(root: str, repeats: int) -> dict:
    """``measure`` on the engine of another checkout, in a fresh process."""
    return run_in_checkout(root, "bench_tiles", f"b.measure({repeats})")


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", metavar="DIR", help="another checkout: build the same map with its engine")
    ap.add_argument("--rounds", type=int, default=3, help="with --baseline: alternations (default 3)")
    args = ap.parse_args(argv)
    here = str(pathlib.Path(__file__).resolve().parents[1])
    labels = (("baseline", args.baseline), ("this", here)) if args.baseline else (("this", here),)
    runs: dict[str, list[dict]] = {label: [] for label, _root in labels}
    for _ in range(args.rounds if args.baseline else 1):
        for label, root in labels:
            runs[label].append(_run_in(root, 5))
    print(f"TileGrid of {COLS}x{ROWS} tiles ({COLS * ROWS:,} cells), medians of {len(runs['this'])} processes"
          + (f"; baseline = {args.baseline}" if args.baseline else ""))
    for key, unit in (("build_ms", "ms CPU"), ("peak_mb", "MB peak"), ("kept_mb", "MB kept"), ("set_tile_us", "µs")):
        row = []
        for label, _root in labels:
            values = [r[key] for r in runs[label] if key in r]
            row.append(statistics.median(values) if values else None)
        text = "  ->  ".join("n/a" if v is None else f"{v:8.2f}" for v in row)
        ratio = f"   ratio {row[1] / row[0]:.2f}" if len(row) == 2 and None not in row else ""
        print(f"{key:12s} {text} {unit}{ratio}")


if __name__ == "__main__":
    main(sys.argv[1:])
