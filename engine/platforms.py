"""Moving platforms: kinematic boxes following a path of points at constant speed.

A platform's path is stepped with a time budget per step, so a fast platform passes through several
points in one step and every step covers exactly ``speed * dt`` px of travel (less any wait).
Carrying riders, pushing and squishing happen in ``world.py`` because they need the other bodies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .geometry import Rect

__all__ = ["Path", "Platform"]

MODES = ("ping-pong", "loop")


class Path:
    """Points (top-left positions of the platform, px), travelled at ``speed`` px/s.

    ``mode`` "ping-pong" goes to the last point and back; "loop" goes from the last point straight back
    to the first. ``wait`` s is spent at each end (both ends for ping-pong; the first point for loop).
    """

    __slots__ = ("mode", "points", "speed", "wait")

    def __init__(self, points: Sequence[tuple[float, float]], speed: float, mode: str = "ping-pong",
                 wait: float = 0.0):
        pts = [(float(x), float(y)) for x, y in points]
        if not pts:
            raise ValueError("a path needs at least one point, e.g. Path([(0, 0), (64, 0)], speed=40)")
        if mode not in MODES:
            raise ValueError(f"path mode {mode!r} is unknown; use 'ping-pong' or 'loop'")
        if not (speed >= 0 and math.isfinite(speed)):
            raise ValueError(f"path speed must be a finite number >= 0 px/s, got {speed!r}")
        if not (wait >= 0 and math.isfinite(wait)):
            raise ValueError(f"path wait must be a finite number >= 0 s, got {wait!r}")
        self.points = pts
        self.speed = float(speed)
        self.mode = mode
        self.wait = float(wait)


class Platform:
    """A kinematic solid (or one-way) box moving along a :class:`Path`."""

    __slots__ = (
        "_dir",
        "_target",
        "_wait_left",
        "data",
        "h",
        "name",
        "one_way",
        "path",
        "prev_x",
        "prev_y",
        "vx",
        "vy",
        "w",
        "x",
        "y",
    )

    def __init__(self, x: float, y: float, w: float, h: float, path: Path | None = None, *,
                 one_way: bool = False, name: str = "", data=None):
        if not (w > 0 and h > 0):
            raise ValueError(f"platform size must be positive, got w={w!r} h={h!r}")
        self.x, self.y, self.w, self.h = float(x), float(y), float(w), float(h)
        self.path = path or Path([(x, y)], speed=0.0)
        self.one_way = one_way
        self.name = name
        self.data = data
        self.prev_x, self.prev_y = self.x, self.y
        self.vx = self.vy = 0.0  # px/s over the last step
        self._target = 1 if len(self.path.points) > 1 else 0  # index of the point we head to
        self._dir = 1
        self._wait_left = 0.0

    @property
    def rect(self) -> Rect:
        return Rect(self.x, self.y, self.w, self.h)

    def interpolated(self, alpha: float) -> tuple[float, float]:
        return self.prev_x + (self.x - self.prev_x) * alpha, self.prev_y + (self.y - self.prev_y) * alpha

    def next_position(self, dt: float) -> tuple[float, float]:
        """Advance along the path by one step of ``dt`` s; returns the new position (and updates the
        path state, not x/y: the world moves the box so it can carry and push)."""
        path = self.path
        pts = path.points
        if len(pts) < 2 or path.speed <= 0.0:
            return self.x, self.y
        x, y = self.x, self.y
        budget = dt
        for _ in range(4 * len(pts) + 8):  # bounded: at most a few laps per step
            if budget <= 0.0:
                break
            if self._wait_left > 0.0:
                used = min(self._wait_left, budget)
                self._wait_left -= used
                budget -= used
                continue
            tx, ty = pts[self._target]
            dist = math.hypot(tx - x, ty - y)
            reach = path.speed * budget
            if dist > reach:
                x += (tx - x) * (reach / dist)
                y += (ty - y) * (reach / dist)
                budget = 0.0
                break
            x, y = tx, ty
            budget -= dist / path.speed
            self._advance_target()
        return x, y

    def _advance_target(self) -> None:
        pts, path = self.path.points, self.path
        last = len(pts) - 1
        if path.mode == "loop":
            self._target = (self._target + 1) % len(pts)
            if self._target == 1:  # just arrived at the first point
                self._wait_left = path.wait
            return
        nxt = self._target + self._dir
        if nxt > last or nxt < 0:
            self._dir = -self._dir
            nxt = self._target + self._dir
            self._wait_left = path.wait
        self._target = nxt

    def state(self) -> tuple:
        return (self.x, self.y, self.vx, self.vy, float(self._target), float(self._dir), self._wait_left)

    def __repr__(self) -> str:
        kind = "one-way " if self.one_way else ""
        return f"Platform({kind}{self.name!r} x={self.x:.3f} y={self.y:.3f} w={self.w:g} h={self.h:g})"
