"""F3 debug overlay: tile kinds, collision boxes, sensors, and the controller's state as text."""

from __future__ import annotations

import pygame

from .. import ui
from .world import platforms_of

__all__ = ["draw_debug", "place_box"]

PANEL_W = 196  # px, the state panel's width (every line fits inside it)
TOP = 24  # px: the HUD's band at the top of the canvas; the state panel stays under it
MARGIN = 4  # px between the state panel and the region's edges
NEAR = 20  # px: the hero this close to the state panel sends it to another corner
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


def place_box(size, region: pygame.Rect, hero: pygame.Rect | None, previous: int | None) -> tuple[int, pygame.Rect]:
    """Where the state panel goes: a corner of ``region`` (0 top-left, 1 top-right, 2 bottom-left,
    3 bottom-right). The corner it was in (``previous``) while the hero stays clear of it by NEAR px, else
    the corner farthest from the hero that it does not cover; returns ``(corner, rect)``."""
    w, h = size
    inner = region.inflate(-2 * MARGIN, -2 * MARGIN)
    rects = [pygame.Rect(inner.x, inner.y, w, h), pygame.Rect(inner.right - w, inner.y, w, h),
             pygame.Rect(inner.x, inner.bottom - h, w, h), pygame.Rect(inner.right - w, inner.bottom - h, w, h)]
    if hero is None:
        i = previous if previous is not None else 0
        return i, rects[i]
    near = hero.inflate(2 * NEAR, 2 * NEAR)
    if previous is not None and not rects[previous].colliderect(near):
        return previous, rects[previous]
    cx, cy = hero.center

    def score(i):
        r = rects[i]
        return (not r.colliderect(hero), (r.centerx - cx) ** 2 + (r.centery - cy) ** 2)

    i = max(range(4), key=score)
    return i, rects[i]


def draw_debug(surf, session, alpha: float, view, *, fps: float, step_ms: float, t_hz: int,
               region: pygame.Rect | None = None, corner: int | None = None) -> int:
    """Draw the F3 overlay; the state panel goes in a corner of ``region`` (default: the canvas under the
    HUD; the game passes the part the F2 panel leaves free) away from the hero. Returns the corner used,
    to pass back as ``corner`` next frame (it stays put until the hero comes near)."""
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
    if region is None:
        region = pygame.Rect(0, TOP - MARGIN, surf.get_width(), surf.get_height() - TOP + MARGIN)
    hero = pygame.Rect(view.at(x, y), (max(1, round(pl.w)), max(1, round(pl.h))))
    corner, rect = place_box(box.get_size(), region, hero, corner)
    surf.blit(box, rect.topleft)
    for i, line in enumerate(lines):
        ui.draw_text(surf, line, (rect.x + 4, rect.y + 3 + i * ui.LINE_H), (200, 255, 200))
    return corner
