"""Vines: an engine ``Rope`` of ``length`` px hanging from its top point, in the level's world.

The world steps the ropes after the actors: whoever moves through a vine (the player, an enemy) brushes
it aside (the rope's ``nudge``). A light breeze keeps every vine that hangs free swaying: each step its
free end gets a small push that follows a slow sine, each vine at its own phase, on the world's step count
(so replays and snapshots see exactly the same sway). A vine whose free end lies on the ground (or against
a wall: ``rope.resting``) is out of the breeze: it settles, and once still for ``SLEEP_TIME`` s it sleeps
(the engine's rope sleep: it costs nothing until someone brushes or grabs it, or a tile near it changes).
A vine far from the view (the session: its reach more than ``VINE_WAKE`` px outside it) is frozen where it
is -- no breeze, nothing brushes it -- and goes on from there, at rest, once the view comes near.

The player grabs a vine by holding Up with its hands (the top-centre of its box) at a joint: the engine's
``rope.attach`` then swings it (Left / Right pump, Up / Down climb); a jump press lets go with a hop,
keeping the swing's speed (``rope.release``). Who holds what is in the world's snapshot.
"""

from __future__ import annotations

import math

from engine import Rope, RopeConfig

__all__ = ["Vines", "vine_config"]

LINK = 8.0  # px, the longest segment of a vine (a joint every 8 px carries a leaf)
BREEZE = 1.2  # px/s added to a vine's free end per step, at the breeze's peak
GUST = 3.0  # s, one back-and-forth of the breeze
GRAB = 4.0  # px: how far above the player's hands a joint may be and still be grabbed
HOP = 0.6  # times the jump's take-off speed: the hop of letting go with a jump press
SLEEP_SPEED = 2.0  # px/s: a vine whose every joint moves slower than this for SLEEP_TIME falls asleep
SLEEP_TIME = 0.5  # s


def vine_config(length: float) -> RopeConfig:
    """A vine's rope: joints at most ``LINK`` px apart along ``length`` px."""
    segments = max(1, math.ceil(length / LINK - 1e-9))
    return RopeConfig(segments=segments, segment_length=length / segments, sleep_speed=SLEEP_SPEED,
                      sleep_time=SLEEP_TIME)


class Vines:
    """The level's vines as ropes; the breeze is a function of the step count, so there is no state."""

    def __init__(self, world, level):
        self.world = world
        self.ropes = [world.add(Rope(v.x, v.y, vine_config(v.length), name=v.name, data=v)) for v in level.vines]

    def before_step(self, player=None, buttons=None, near=None) -> None:
        """The breeze, grabs and letting go; with ``near(x, y, w, h)`` (the session: within ``VINE_WAKE``
        px of the view), a vine whose reach (its length around its top) is not near is frozen (the engine's
        ``rope.frozen``: held where it is, costing nothing) until it is near again."""
        t = (self.world.steps + 1) * self.world.dt
        for i, rope in enumerate(self.ropes):
            if near is not None:
                v = rope.data
                rope.frozen = not rope.holders and not near(v.x - v.length, v.y - v.length, 2.0 * v.length,
                                                            2.0 * v.length)
                if rope.frozen:
                    continue
            if not rope.resting:  # (one lying on the ground is out of the breeze, and may sleep)
                rope.push(-1, BREEZE * math.sin(2.0 * math.pi * t / GUST + 1.7 * i), 0.0)
        if player is not None and buttons is not None:
            self._hold(player, buttons)

    def _hold(self, p, buttons) -> None:
        """Up grabs the joint at the player's hands; a jump press lets go of the vine held, with a hop."""
        held = p.holding
        if held is not None:
            if buttons.jump and not p.held.jump and any(held is r for r in self.ropes):
                held.release(p)
                p.vy = min(p.vy, -HOP * self.world.feel.derived.takeoff_speed)
            return
        if not buttons.up:
            return
        hx, hy = p.x + p.w / 2.0, p.y
        for rope in self.ropes:
            i = rope.nearest(hx, hy)
            x, y = rope.points[i]
            if i and abs(x - hx) <= p.w / 2.0 and hy - GRAB <= y <= p.y + p.h:
                rope.attach(p, i)
                return

    def reset(self) -> None:
        """Vines need nothing on a respawn (the player, put back at the checkpoint, lets go)."""

    def state(self) -> tuple:
        return ()

    def set_state(self, state: tuple) -> None:
        """The ropes are in the world's snapshot; the breeze follows the step count."""
