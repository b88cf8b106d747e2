"""Plain value types and pure functions over numbers: boxes, strict overlap, float placement."""

from __future__ import annotations

import math
from typing import NamedTuple

from . import _check

__all__ = ["Rect", "lerp", "overlaps", "place_after", "place_before"]


class _RectFields(NamedTuple):
    x: float
    y: float
    w: float
    h: float


class Rect(_RectFields):
    """An axis-aligned box: top-left corner and size (>= 0), in px (y grows downward)."""

    __slots__ = ()

    def __new__(cls, x: float, y: float, w: float, h: float):
        return super().__new__(cls, _check.number("Rect", "x", x), _check.number("Rect", "y", y),
                               _check.size("Rect", "w", w, zero=True), _check.size("Rect", "h", h, zero=True))

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def overlaps(self, other: Rect) -> bool:
        return overlaps(self.x, self.y, self.w, self.h, other.x, other.y, other.w, other.h)


def overlaps(ax: float, ay: float, aw: float, ah: float, bx: float, by: float, bw: float, bh: float) -> bool:
    """Strict overlap: boxes that only touch along an edge do not overlap."""
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def place_before(edge: float, size: float) -> float:
    """The largest start s with s + size <= edge (a box ending exactly on ``edge``, never past it).

    ``edge - size`` alone can round so that ``(edge - size) + size > edge`` by one ulp, which a strict
    overlap test would call overlapping.
    """
    s = edge - size
    while s + size > edge:
        s = math.nextafter(s, -math.inf)
    return s


def place_after(edge: float) -> float:
    """A box starting exactly on ``edge`` (touching, not overlapping)."""
    return edge


def lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t
