"""Debug drawing through callbacks: the engine describes shapes, your renderer draws them.

    class PygameDraw:                      # in your game, not here: the engine never imports pygame
        def box(self, x, y, w, h, what): ...
        def polygon(self, points, what): ...
        def line(self, x0, y0, x1, y1, what): ...

    debug_draw(world, PygameDraw(), view=(cam_x, cam_y, 480, 270))

``what`` names the thing: "solid", "one_way", "slope", "actor", "actor_ground", "actor_solid" (a crate),
"bullet", "platform", "platform_one_way", "trigger", "trigger_active", "velocity", "rope" (a line from
each rope particle to the next, the pin first). Only tiles inside ``view`` are visited.
"""

from __future__ import annotations

import math
from typing import Protocol

from .bodies import Actor
from .tiles import ONE_WAY, SLOPE, SOLID

__all__ = ["DebugDraw", "debug_draw"]


class DebugDraw(Protocol):
    def box(self, x: float, y: float, w: float, h: float, what: str) -> None: ...

    def polygon(self, points: list[tuple[float, float]], what: str) -> None: ...

    def line(self, x0: float, y0: float, x1: float, y1: float, what: str) -> None: ...


def debug_draw(world, draw: DebugDraw, view: tuple[float, float, float, float] | None = None,
               velocity_scale: float = 0.1) -> None:
    """Describe the world's tiles (within ``view``), platforms, triggers, ropes and actors to ``draw``."""
    grid = world.grid
    ts = grid.tile_size
    if view is None:
        view = (0.0, 0.0, float(grid.width), float(grid.height))
    vx, vy, vw, vh = view
    c0, c1 = max(0, math.floor(vx / ts)), min(grid.cols - 1, math.ceil((vx + vw) / ts))
    r0, r1 = max(0, math.floor(vy / ts)), min(grid.rows - 1, math.ceil((vy + vh) / ts))
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            i = r * grid.cols + c
            kind = grid._k[i]
            if kind == SOLID:
                draw.box(c * ts, r * ts, ts, ts, "solid")
            elif kind == ONE_WAY:
                draw.line(c * ts, r * ts, (c + 1) * ts, r * ts, "one_way")
            elif kind == SLOPE:
                bottom = (r + 1) * ts
                draw.polygon([(c * ts, bottom), (c * ts, bottom - grid._sl[i]),
                              ((c + 1) * ts, bottom - grid._sr[i]), ((c + 1) * ts, bottom)], "slope")
    for t in world.triggers:
        active = bool(world.inside(t))
        draw.box(t.x, t.y, t.w, t.h, "trigger_active" if active else "trigger")
    for p in world.platforms:
        draw.box(p.x, p.y, p.w, p.h, "platform_one_way" if p.one_way else "platform")
    for rope in world.ropes:
        points = rope.points
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            draw.line(x0, y0, x1, y1, "rope")
    for a in world.actors:
        _actor(a, draw, velocity_scale)


def _actor(a: Actor, draw: DebugDraw, scale: float) -> None:
    what = "actor_solid" if a.solid else "bullet" if a.bullet else "actor_ground" if a.on_ground else "actor"
    draw.box(a.x, a.y, a.w, a.h, what)
    cx, cy = a.x + a.w / 2, a.y + a.h / 2
    draw.line(cx, cy, cx + a.vx * scale, cy + a.vy * scale, "velocity")
