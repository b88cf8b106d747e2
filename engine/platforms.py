"""Moving platforms: kinematic boxes following a path of points at constant speed.

A platform's path is stepped with a time budget per step, so a fast platform passes through several
points in one step and every step covers exactly ``speed * dt`` px of travel (less any wait). Its position
is computed from the distance covered along the current leg (never by adding up steps), so it lands
exactly on every point of its path, however long it runs.
Carrying riders, pushing and squishing happen in ``world.py`` because they need the other bodies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from . import _check
from .geometry import Rect

__all__ = ["Path", "Platform"]

MODES = ("ping-pong", "loop")
_ARRIVED = 1e-9  # px: this close to the next point of its path, a platform is on it


def _between(a: float, b: float, u: float) -> float:
    """a + (b - a) * u, exact at both ends and where a == b (from the nearer end)."""
    return a + (b - a) * u if u < 0.5 else b - (b - a) * (1.0 - u)


class Path:
    """Points (top-left positions of the platform, px), travelled at ``speed`` px/s.

    ``mode`` "ping-pong" goes to the last point and back; "loop" goes from the last point straight back
    to the first. ``wait`` s is spent at each end (both ends for ping-pong; the first point for loop).
    """

    __slots__ = ("mode", "points", "speed", "wait")

    def __init__(self, points: Sequence[tuple[float, float]], speed: float, mode: str = "ping-pong",
                 wait: float = 0.0):
        example = "e.g. Path([(0, 0), (64, 0)], speed=40)"
        try:
            items = list(points) if not isinstance(points, (str, bytes)) else None
        except TypeError:
            items = None
        if items is None:
            raise TypeError(f"Path: points must be a list of (x, y) pairs, {example}; got {type(points).__name__}")
        pts = []
        for i, pt in enumerate(items):
            try:
                px, py = pt
            except (TypeError, ValueError):
                raise TypeError(f"Path: points[{i}] must be an (x, y) pair of px, got {pt!r}") from None
            pts.append((_check.number("Path", f"points[{i}] x", px), _check.number("Path", f"points[{i}] y", py)))
        if not pts:
            raise ValueError(f"Path: points is empty; a path needs at least one point, {example}")
        if mode not in MODES:
            raise ValueError(f"Path: mode {mode!r} is unknown; use 'ping-pong' or 'loop'")
        self.points = pts
        self.speed = _check.size("Path", "speed", speed, zero=True, unit="px/s")
        self.mode = mode
        self.wait = _check.size("Path", "wait", wait, zero=True, unit="s")


class Platform:
    """A kinematic solid (or one-way) box moving along a :class:`Path`."""

    _kind = "platform"  # what Ground / Contact call it

    __slots__ = (
        "_at",
        "_base",
        "_dir",
        "_from",
        "_leg_dt",
        "_steps",
        "_seen",
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
        self.x, self.y = _check.number("Platform", "x", x), _check.number("Platform", "y", y)
        self.w, self.h = _check.size("Platform", "w", w), _check.size("Platform", "h", h)
        if path is not None and not isinstance(path, Path):
            raise TypeError(f"Platform: path must be a Path (or None to stand still), got {type(path).__name__}; "
                            f"e.g. Path([(x0, y0), (x1, y1)], speed=40)")
        self.path = path or Path([(x, y)], speed=0.0)
        self.one_way = _check.flag("Platform", "one_way", one_way)
        self.name = _check.text("Platform", "name", name)
        self.data = data
        self.prev_x, self.prev_y = self.x, self.y
        self.vx = self.vy = 0.0  # px/s over the last step
        self._target = 1 if len(self.path.points) > 1 else 0  # index of the point we head to
        self._dir = 1
        self._wait_left = 0.0
        # Progress along the current leg (from ``_from`` toward the point ``_target``): ``_base`` px, then
        # ``_steps`` whole steps of ``_leg_dt`` s: px covered = _base + (_steps * speed) * _leg_dt, never a
        # running sum, so no rounding piles up however long a leg is.
        self._from = (self.x, self.y)
        self._base, self._steps, self._leg_dt = 0.0, 0, 0.0
        self._at = self._from  # where the path last put the box (anything else: moved by hand)
        self._seen = None  # (x, y, w, h, one_way) after the last step: a change by hand is noticed

    @property
    def rect(self) -> Rect:
        return Rect(self.x, self.y, self.w, self.h)

    def interpolated(self, alpha: float) -> tuple[float, float]:
        return self.prev_x + (self.x - self.prev_x) * alpha, self.prev_y + (self.y - self.prev_y) * alpha

    def next_position(self, dt: float) -> tuple[float, float]:
        """Advance along the path by one step of ``dt`` s; returns the new position (and updates the
        path state, not x/y: the world moves the box so it can carry and push)."""
        route = self._travel(dt)
        return route[-1] if route else (self.x, self.y)

    def _travel(self, dt: float) -> list[tuple[float, float]]:
        """Advance along the path by one step of ``dt`` s; returns the points passed, in order: the path
        corners reached this step, then where it stops (empty when it does not move)."""
        path = self.path
        pts = path.points
        if len(pts) < 2 or path.speed <= 0.0:
            return []
        x, y = self.x, self.y
        at = self._at
        if x != at[0] or y != at[1]:  # moved by hand: the leg goes on from here
            self._from, self._base, self._steps = (x, y), 0.0, 0
        speed = path.speed
        # The two usual steps, first: waiting the whole step at a point, or going on along the leg without
        # reaching its end (the same numbers as the loop below, without its bookkeeping)
        wait = self._wait_left
        if wait > 0.0:
            if wait >= dt:
                self._wait_left = wait - dt
                self._at = (x, y)
                return []
        elif self._leg_dt == dt:
            tx, ty = pts[self._target]
            fx, fy = self._from
            length = math.hypot(tx - fx, ty - fy)
            steps = self._steps + 1
            along = self._base + (steps * speed) * dt
            if along < length - _ARRIVED:
                u = along / length  # (then _between(fx, tx, u), _between(fy, ty, u), spelled out)
                if u < 0.5:
                    x, y = fx + (tx - fx) * u, fy + (ty - fy) * u
                else:
                    v = 1.0 - u
                    x, y = tx - (tx - fx) * v, ty - (ty - fy) * v
                self._steps = steps
                self._at = (x, y)
                return [self._at]
        route = []
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
            fx, fy = self._from
            length = math.hypot(tx - fx, ty - fy)
            done = self._base + (self._steps * speed) * self._leg_dt  # px covered before this step
            if budget == dt:  # a whole step along this leg
                if self._leg_dt != dt:  # (a new leg, or a new step rate: counted from here)
                    self._base, self._steps, self._leg_dt = done, 0, dt
                steps, base = self._steps + 1, self._base
                along = base + (steps * speed) * dt
            else:  # the leg starts within this step (after a wait or another leg)
                steps, base = 0, speed * budget
                along = base
            if along < length - _ARRIVED:
                u = along / length
                x, y = _between(fx, tx, u), _between(fy, ty, u)
                self._base, self._steps, self._leg_dt = base, steps, dt
                route.append((x, y))
                break
            if (x, y) != (tx, ty):
                route.append((tx, ty))
            x, y = tx, ty
            budget -= max(0.0, length - done) / speed
            if budget * speed <= _ARRIVED:
                budget = 0.0  # (float noise, not time left: the step ends on the point)
            self._from, self._base, self._steps, self._leg_dt = (tx, ty), 0.0, 0, 0.0
            self._advance_target()
        self._at = (x, y)
        return route

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
        """Position, velocity and progress along the path (numbers; for hashes and traces)."""
        return (self.x, self.y, self.vx, self.vy, float(self._target), float(self._dir), self._wait_left,
                *self._from, self._base, float(self._steps), self._leg_dt, *self._at)

    def __repr__(self) -> str:
        kind = "one-way " if self.one_way else ""
        return f"Platform({kind}{self.name!r} x={self.x:.3f} y={self.y:.3f} w={self.w:g} h={self.h:g})"
