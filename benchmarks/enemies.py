"""The game's own enemies at scale: level 1 with 1,000 enemy walkers, stepped by the game's ``Session`` (what
``python -m game --headless`` steps), beside the same level with none.

``game_enemies_1000_ms`` is the step cost the 1,000 walkers add: the session with them minus the empty
level's session (``game_empty_ms``), timed in alternating rounds. The walkers are the game's ``EnemySpec``s
(``game/rules/enemies.py``: touched by the player, stomped, turning at walls and ledges) standing on every
kind of floor of the level; the player holds nothing at the spawn and cannot die (``Session._die`` is a
no-op: a death would reset the enemies and time the respawn instead), while hits are still found every step.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from .common import Figure, interleaved, pick

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "01_first_steps.tmx"


def session(n: int, seed: int = 4):
    """Level 1's session with ``n`` walkers spread over its floors; returns its step function."""
    from engine import Buttons
    from game.files.levelfile import load_level
    from game.files.levelkinds import EnemySpec
    from game.rules.session import Session

    level = load_level(LEVEL)
    grid, rng = level.grid, random.Random(seed)
    ts = grid.tile_size
    spots = [(c * ts + ts / 2, (r + 1) * ts) for r in range(grid.rows - 1) for c in range(grid.cols)
             if grid.kind_at(c, r) == 0 and grid.kind_at(c, r + 1) in (1, 2)]
    specs = []
    for i in range(n):
        x, feet = rng.choice(spots)
        specs.append(EnemySpec(i + 1, f"walker {i + 1}", "walker", x - 7.0, feet - 12.0, 14.0, 12.0,
                               rng.choice((-1, 1)), 40.0, 24.0, 0.8, (), 0.3))
    s = Session(replace(level, enemies=specs))
    s._die = lambda name, out: None
    idle = Buttons()

    def step():
        s.step(idle)

    for _ in range(30):  # (settled on their floors, walking)
        step()
    step.session = s
    return step


def run(mode: str) -> list[Figure]:
    try:
        import game.rules.session  # noqa: F401
    except ImportError as e:
        return [Figure("game_enemies_1000_ms", None, f"the game package is missing: {e}")]
    n = pick(mode, 50, 1000, 1000)
    calls, rounds = pick(mode, (2, 2), (20, 5), (60, 9))
    times = interleaved({"empty": session(0), "enemies": session(n)}, calls, rounds)
    return [Figure("game_enemies_1000_ms", (times["enemies"] - times["empty"]) * 1e3),
            Figure("game_enemies_1000_total_ms", times["enemies"] * 1e3),
            Figure("game_empty_ms", times["empty"] * 1e3)]
