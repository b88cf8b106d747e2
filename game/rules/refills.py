"""Refill crystals: touching one gives back the player's spent dashes; it then respawns after a delay.

- A ``refill`` is a box in the map (a point: a ``REFILL_SIZE`` px square centred on it). While it is there
  and the player's box overlaps it at the end of a step in which the player has spent a dash (the feel's
  ``[dash]`` on), it is used: ``Character.refill_dash()`` gives every dash back, the crystal is gone (a
  ``refill`` event) and comes back ``respawn`` s later (0: not in this life). A player with a dash left
  passes through it and it stays, as in Celeste, so a crystal is never wasted.
- Timing is on the world's step count, like the crumbles; ``state()`` is the step each was used (-1:
  there), so snapshots, replays and the route finder's key see it exactly.
- When the player respawns every crystal is back (what moves starts over).
"""

from __future__ import annotations

from game.files.levelkinds import REFILL_SIZE, refill_box

__all__ = ["REFILL_SIZE", "Refills", "refill_box"]


class Refills:
    """The level's refill crystals: which are there, and since when the others are gone."""

    def __init__(self, world, level):
        self.world = world
        self.specs = list(level.refills)
        self.boxes = [refill_box(s) for s in self.specs]
        self.used = [-1] * len(self.specs)  # world step it was used (-1: there)

    def ready(self, i: int) -> bool:
        """Crystal ``i`` is there (not used, or back)."""
        return self.used[i] < 0

    def back_in(self, i: int) -> float:
        """Seconds until crystal ``i`` is back (0 when it is there; inf when it stays gone this life)."""
        if self.used[i] < 0:
            return 0.0
        spec = self.specs[i]
        if spec.respawn <= 0:
            return float("inf")
        left = self.used[i] + round(spec.respawn / self.world.dt) - self.world.steps
        return max(0.0, left * self.world.dt)

    def after_step(self, player) -> list:
        """Crystals come back, then the player (None while dead) uses the ones it touches with a dash spent.
        Returns the specs used this step, in map order."""
        step, dt = self.world.steps, self.world.dt
        for i, spec in enumerate(self.specs):
            if self.used[i] >= 0 and spec.respawn > 0 and step - self.used[i] >= round(spec.respawn / dt):
                self.used[i] = -1
        if player is None or not self.specs or player.dashes_spent == 0:
            return []
        out = []
        px, py, pw, ph = player.x, player.y, player.w, player.h
        for i, (x, y, w, h) in enumerate(self.boxes):
            if self.used[i] < 0 and px < x + w and x < px + pw and py < y + h and y < py + ph:
                if player.refill_dash():
                    self.used[i] = step
                    out.append(self.specs[i])
                break  # one crystal at a time: the others stay for the next dash
        return out

    def reset(self) -> None:
        """A respawn: every crystal is back."""
        self.used = [-1] * len(self.specs)

    def state(self) -> tuple:
        return tuple(self.used)

    def set_state(self, state: tuple) -> None:
        self.used = list(state)
