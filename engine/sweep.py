"""Sweeps: the first thing a box would hit moving along a straight segment, without moving anything.

``World.sweep(box, dx, dy)`` answers "what if I moved this box by (dx, dy)?" (bump.lua's ``check``, Godot's
``test_move``): a dash's landing spot, a ledge probe, a crate's room to slide, an enemy's line of charge.
It meets what a bullet meets (``_bullets.py``), in one pass along the segment:
- solid tiles (boxes), slope tiles (the region under their surface: a corner is enough), the walled sides
  of the map, and the top of a one-way tile or platform crossed going down from at or above it;
- solid platforms and solid actors (crates), where they are now;
- with ``touches``: the other actors in those groups (their boxes, where they are now).
What the box overlaps at the start is not a hit (it is not moving into it); ``ignore`` skips bodies (an
actor swept skips itself). Crowds' walkers and ropes are never hit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, NamedTuple

from . import _bullets, _check, _motion
from .bodies import Actor
from .geometry import place_before

__all__ = ["SweepHit", "sweep"]


class SweepHit(NamedTuple):
    """The first hit of a box swept by (dx, dy) (``world.sweep``)."""

    fraction: float  # 0..1 of (dx, dy) travelled before the hit
    x: float  # px, where the box's top-left corner stops: touching what it hit, never inside it
    y: float  # px
    normal: tuple[float, float]  # unit vector pointing away from what was hit (a slope: its surface's)
    kind: str  # "solid" (a tile or a wall edge), "slope", "one_way", "platform" or "actor"
    tile: tuple[int, int] | None = None  # (col, row) of the tile hit, or None (a body, a wall edge)
    other: Any = None  # the Platform or Actor hit, or None


def sweep(world, box, dx: float, dy: float, touches: int = 0, ignore=None) -> SweepHit | None:
    """The first tile, wall, platform, solid actor (or actor of a group in ``touches``) the box meets
    moving by (dx, dy) px; None if the whole way is free. ``box``: an Actor (its box; it skips itself), a
    ``Rect`` or an ``(x, y, w, h)`` tuple. Nothing moves."""
    skip = _skipped(ignore)
    if isinstance(box, Actor):
        skip.add(id(box))
        x, y, w, h = box.x, box.y, box.w, box.h
    else:
        try:
            if isinstance(box, (str, bytes)):
                raise TypeError
            x, y, w, h = box
        except (TypeError, ValueError):
            raise TypeError(f"sweep: box must be an Actor, a Rect or an (x, y, w, h) tuple, got {box!r}") from None
    x, y = _check.number("sweep", "x", x), _check.number("sweep", "y", y)
    w, h = _check.size("sweep", "w", w), _check.size("sweep", "h", h)
    dx, dy = _check.number("sweep", "dx", dx), _check.number("sweep", "dy", dy)
    touches = _check.mask("sweep", "touches", touches)
    if not dx and not dy:
        return None
    grid = world.grid
    bx, by = min(x, x + dx) - 1.0, min(y, y + dy) - 1.0
    near = world._hash.query(bx, by, w + abs(dx) + 2.0, h + abs(dy) + 2.0)
    solids = [p for p in world.platforms if id(p) not in skip]
    targets = []
    for o in near:
        if not isinstance(o, Actor) or id(o) in skip:
            continue
        if o.solid:
            solids.append(o)
        elif touches & o.group:
            targets.append((o, 0.0, 0.0, o.x, o.y))
    hit = _bullets._first_hit(grid, solids, targets, x, y, w, h, dx, dy)
    if hit is None:
        return None
    t, axis, kind, other, tile, face = hit
    if kind is None:  # an actor of a group it touches
        kind = "actor"
        face = _bullets._face(axis, dx, dy, other.x, other.y, other.w, other.h)
    length = math.hypot(dx, dy)
    back = max(0.0, t - _motion.EPS / length)  # a hair early: never one ulp inside
    nx, ny = x + dx * back, y + dy * back
    if axis == _bullets._X and not dy and face is not None:
        nx = place_before(face, w) if dx > 0.0 else face
    elif axis == _bullets._Y and not dx and face is not None:
        ny = place_before(face, h) if dy > 0.0 else face
    if axis == _bullets._SURFACE:
        normal = _bullets._surface_normal(grid, tile)
    else:
        n = _bullets._normal(axis, dx, dy)
        normal = (float(n[0]), float(n[1]))
    return SweepHit(t, nx, ny, normal, kind, tile, other)


def _skipped(ignore) -> set:
    if ignore is None:
        return set()
    if isinstance(ignore, Iterable) and not isinstance(ignore, (str, bytes)):
        return {id(o) for o in ignore}
    return {id(ignore)}
