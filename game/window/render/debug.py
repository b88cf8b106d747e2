"""F3 debug overlay: tile kinds, collision boxes, sensors, and the controller's state as text."""

from __future__ import annotations

import pygame

from .. import ui
from .world import platforms_of

__all__ = ["draw_debug"]

PANEL_W = 196  # px, the state panel's width (every line fits inside it)
KIND_COLORS = {1: (255, 80, 80), 2: (80, 160, 255), 3: (90, 230, 120)}
AREA_COLORS = {"goals": (255, 214, 92), "checkpoints": (120, 230, 120), "hazards": (255, 60, 160),
               "coins": (255, 240, 140), "triggers": (180, 120, 255)}


def _kind(grid, c, r) -> int:
    return int(grid.kind_at(c, r))


_grid_cache: dict[int, pygame.Surface] = {}


def grid_overlay(grid) -> pygame.Surface:
    """The whole collision grid drawn once (cached per grid): solid outlines facing open space, one-way
    tops, slope surfaces. A frame then costs one blit."""
    surf = _grid_cache.get(id(grid))
    if surf is not None:
        return surf
    ts = grid.tile_size
    surf = pygame.Surface((grid.cols * ts, grid.rows * ts), pygame.SRCALPHA)
    for r in range(grid.rows):
        for c in range(grid.cols):
            k = _kind(grid, c, r)
            if not k:
                continue
            x, y = c * ts, r * ts
            col = KIND_COLORS.get(k, (255, 255, 255))
            if k == 1:
                surf.fill((*col, 22), (x, y, ts, ts))
                for dc, dr, edge in ((-1, 0, (x, y, 1, ts)), (1, 0, (x + ts - 1, y, 1, ts)),
                                     (0, -1, (x, y, ts, 1)), (0, 1, (x, y + ts - 1, ts, 1))):
                    if _kind(grid, c + dc, r + dr) != 1:
                        surf.fill((*col, 220), edge)
            elif k == 2:
                surf.fill((*col, 220), (x, y, ts, 2))
            else:
                left = grid.surface_y(c, r, x)
                right = grid.surface_y(c, r, x + ts - 1e-6)
                surf.fill((*col, 30), (x, y, ts, ts))
                pygame.draw.line(surf, (*col, 240), (x, round(left)), (x + ts - 1, round(right)))
    if len(_grid_cache) > 4:
        _grid_cache.clear()
    _grid_cache[id(grid)] = surf
    return surf


def draw_debug(surf, session, alpha: float, view, *, fps: float, step_ms: float, t_hz: int) -> None:
    level = session.level
    ox, oy = view.origin
    surf.blit(grid_overlay(level.grid), (-ox, -oy))

    # sensors and areas
    for attr, col in AREA_COLORS.items():
        for a in getattr(level, attr, []):
            if attr == "coins" and a.id in session.collected:
                continue
            rect = pygame.Rect(view.at(a.x, a.y), (max(1, round(a.w)), max(1, round(a.h))))
            pygame.draw.rect(surf, col, rect, 1)
            if attr == "triggers" and a.name:
                ui.draw_text(surf, a.name, (rect.x + 2, rect.y + 2), col)
    for p in platforms_of(session.world):
        pygame.draw.rect(surf, (255, 160, 60), (view.at(*p.interpolated(alpha)), (round(p.w), round(p.h))), 1)
    for rope in getattr(session.world, "ropes", ()):
        pygame.draw.lines(surf, (120, 230, 120), False, [view.at(x, y) for x, y in rope.interpolated(alpha)])
    rx, ry = view.at(*session.respawn)
    pygame.draw.line(surf, (120, 230, 120), (rx - 3, ry), (rx + 3, ry))

    pl = session.player
    x, y = pl.interpolated(alpha)
    pygame.draw.rect(surf, (255, 255, 255), (view.at(x, y), (round(pl.w), round(pl.h))), 1)
    # velocity arrow (1 px per 10 px/s)
    mx, my = view.at(x + pl.w / 2, y + pl.h / 2)
    pygame.draw.line(surf, (255, 255, 0), (mx, my), (mx + round(pl.vx / 10), my + round(pl.vy / 10)))

    d = session.feel.derived
    air = getattr(pl, "air_steps", None)
    coyote = getattr(pl, "coyote_left", None)
    if coyote is None and air is not None:
        coyote = max(0, d.coyote_steps - air) if not pl.on_ground else d.coyote_steps
    since = getattr(pl, "since_press", None)
    buffer = getattr(pl, "buffer_left", None)
    if buffer is None:
        buffer = max(0, d.buffer_steps - since) if since is not None else 0
    ground = getattr(pl, "ground", None)
    gkind = getattr(ground, "kind", "-") if ground else "-"
    lines = [
        f"fps {fps:5.1f}  step {step_ms:5.2f} ms  {t_hz} Hz",
        f"pos {pl.x:7.2f} {pl.y:7.2f}",
        f"vel {pl.vx:7.1f} {pl.vy:7.1f} px/s",
        f"ground {'yes' if pl.on_ground else 'no '} {gkind}",
        f"coyote {coyote}/{d.coyote_steps}  buffer {buffer}/{d.buffer_steps}",
        f"drop {getattr(pl, 'drop_left', 0)}  jumping {'yes' if getattr(pl, 'jumping', False) else 'no'}",
        f"step {session.steps}  deaths {session.deaths}  coins {session.coins}",
    ]
    if session.message:  # wrapped inside the box, at most three lines
        said = ui.wrap(f"trigger: {session.message}", PANEL_W - 8)
        lines += said[:2] + ([ui.fit(" ".join(said[2:]), PANEL_W - 8)] if len(said) > 2 else [])
    box = pygame.Surface((PANEL_W, len(lines) * ui.LINE_H + 6), pygame.SRCALPHA)
    box.fill((0, 0, 0, 170))
    surf.blit(box, (4, 24))
    for i, line in enumerate(lines):
        ui.draw_text(surf, line, (8, 27 + i * ui.LINE_H), (200, 255, 200))
