"""Vines: an engine ``Rope`` of ``length`` px hanging from its top point, in the level's world.

The world steps the ropes after the actors: whoever moves through a vine (the player, an enemy) brushes
it aside (the rope's ``nudge``). A light breeze keeps every vine swaying: each step the free end gets a
small push that follows a slow sine, each vine at its own phase, on the world's step count (so replays
and snapshots see exactly the same sway).
"""

from __future__ import annotations

import math

from engine import Rope, RopeConfig

__all__ = ["Vines", "vine_config"]

LINK = 8.0  # px, the longest segment of a vine (a joint every 8 px carries a leaf)
BREEZE = 1.2  # px/s added to a vine's free end per step, at the breeze's peak
GUST = 3.0  # s, one back-and-forth of the breeze


def vine_config(length: float) -> RopeConfig:
    """A vine's rope: joints at most ``LINK`` px apart along ``length`` px."""
    segments = max(1, math.ceil(length / LINK - 1e-9))
    return RopeConfig(segments=segments, segment_length=length / segments)


class Vines:
    """The level's vines as ropes; the breeze is a function of the step count, so there is no state."""

    def __init__(self, world, level):
        self.world = world
        self.ropes = [world.add(Rope(v.x, v.y, vine_config(v.length), name=v.name, data=v)) for v in level.vines]

    def before_step(self) -> None:
        t = (self.world.steps + 1) * self.world.dt
        for i, rope in enumerate(self.ropes):
            rope.push(-1, BREEZE * math.sin(2.0 * math.pi * t / GUST + 1.7 * i), 0.0)

    def reset(self) -> None:
        """Vines need nothing on a respawn."""

    def state(self) -> tuple:
        return ()

    def set_state(self, state: tuple) -> None:
        """The ropes are in the world's snapshot; the breeze follows the step count."""
