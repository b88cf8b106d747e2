"""The moves a level grants: its ``moves`` map property switches the feel's moves on, with the feel's values.

A level that lists ``wall_jump`` plays with ``wall.jump`` on under any feel file (the default, a preset,
your own); how far and how fast the wall jump goes stays that file's ``[wall]`` table. Everything that
simulates a level reads the feel through :func:`level_feel` -- the Session (so the window, the headless
CLI and its replays, snapshots), and the route finder behind ``python -m game check`` (its move set
widens with the level's moves, so its verdicts stay exact) -- so a level plays the same everywhere.
A move the feel already has on stays on; a level never switches one off.
"""

from __future__ import annotations

from engine import FeelConfig

from game.files.levelkinds import MOVES

__all__ = ["MOVES", "level_feel", "new_moves"]


def level_feel(level, feel: FeelConfig | None = None) -> FeelConfig:
    """``feel`` (default: the defaults) with every move ``level`` grants switched on."""
    feel = feel or FeelConfig()
    for name in getattr(level, "moves", ()):
        dotted = MOVES[name][0]
        if not feel.get(dotted):
            feel = feel.with_value(dotted, True)
    return feel


def new_moves(level, before=None) -> tuple[str, ...]:
    """The moves ``level`` grants that the level ``before`` it (None: none) did not: what it teaches."""
    had = set(getattr(before, "moves", ()))
    return tuple(m for m in getattr(level, "moves", ()) if m not in had)
