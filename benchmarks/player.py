"""The player's step with every feel feature on, and how step cost depends on the map's size.

``player_step_us``: one running, jumping, dropping player on ``bench_player_step``'s scene with two
moving platforms and three triggers, the game's feel file with apex hang turned on (every other feature
is on by default).
``player_step_cpu_us``: the same steps in CPU time (this process only: steadier on a shared machine).
``map_size_ratio``: the same scene pasted into a 4000x400 map and into a 100x50 one; the step cost on
the big map over the small one (1.0 = the map's size costs nothing per step).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine import FeelConfig, TileGrid

from .bench_player_step import LEVEL, scene
from .common import Figure, interleaved, pick

ROOT = Path(__file__).resolve().parents[1]


def feel() -> FeelConfig:
    """The shipped feel file, apex hang on: every feature of the controller in play."""
    try:
        from game.files.feelfile import load_feel
        base = load_feel(ROOT / "feel.toml")
    except Exception:  # the game package or file missing: the engine's defaults
        base = FeelConfig()
    return base.with_value("jump.apex_hang_gravity", 0.6)


def pasted(cols: int, rows: int) -> TileGrid:
    """``LEVEL`` at the top-left of an empty cols x rows map."""
    small = TileGrid.from_ascii(LEVEL)
    kinds = np.zeros((rows, cols), np.int64)
    left, right = np.zeros((rows, cols)), np.zeros((rows, cols))
    h, w = small.kinds.shape
    kinds[:h, :w], left[:h, :w], right[:h, :w] = small.kinds, small.slope_left, small.slope_right
    return TileGrid(kinds, small.tile_size, left, right)


def stepper(grid: TileGrid, cfg: FeelConfig):
    """A step function cycling through ``scene``'s inputs on its world over ``grid``."""
    world, inputs = scene(True, grid, cfg)
    state = {"i": 0}

    def step():
        world.step(inputs[state["i"] % len(inputs)])
        state["i"] += 1

    return step


def run(mode: str) -> list[Figure]:
    calls, rounds = pick(mode, (50, 2), (2400, 5), (2400, 15))
    cfg = feel()
    small_grid = TileGrid.from_ascii(LEVEL)
    big = pick(mode, (800, 80), (4000, 400), (4000, 400))
    cpu: dict[str, float] = {}
    times = interleaved({"player": stepper(small_grid, cfg), "small": stepper(pasted(100, 50), cfg),
                         "big": stepper(pasted(*big), cfg)}, calls, rounds, cpu)
    return [Figure("player_step_us", times["player"] * 1e6),
            Figure("player_step_cpu_us", cpu["player"] * 1e6),
            Figure("map_size_ratio", times["big"] / times["small"])]
