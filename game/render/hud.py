"""HUD (coins, time, deaths), the level-title banner, signpost message box and on-screen notices."""

from __future__ import annotations

import pygame

from .. import ui

__all__ = ["draw_hud", "draw_banner", "draw_message", "draw_notice"]


def _chip(surf, x, y, icon, label, align="left"):
    w = ui.text_width(label) + (14 if icon is not None else 0) + 8
    if align == "right":
        x -= w
    elif align == "center":
        x -= w // 2
    box = pygame.Surface((w, 15), pygame.SRCALPHA)
    box.fill((20, 16, 36, 150))
    box.fill((0, 0, 0, 0), (0, 0, 1, 1))
    box.fill((0, 0, 0, 0), (w - 1, 0, 1, 1))
    box.fill((0, 0, 0, 0), (0, 14, 1, 1))
    box.fill((0, 0, 0, 0), (w - 1, 14, 1, 1))
    surf.blit(box, (x, y))
    tx = x + 4
    if icon is not None:
        surf.blit(icon, (tx - 3, y + 7 - icon.get_height() // 2))
        tx += 14
    ui.draw_text(surf, label, (tx, y + 3))


def _skull() -> pygame.Surface:
    s = pygame.Surface((12, 12), pygame.SRCALPHA)
    pygame.draw.rect(s, (236, 232, 222), (3, 2, 7, 6), border_radius=2)
    s.fill((236, 232, 222), (4, 8, 5, 2))
    s.fill((40, 30, 50), (4, 4, 2, 2))
    s.fill((40, 30, 50), (7, 4, 2, 2))
    s.fill((40, 30, 50), (6, 9, 1, 1))
    return s


_SKULL = None


def draw_hud(surf, art, *, coins: int, coins_total: int, seconds: float, deaths: int, t: float) -> None:
    global _SKULL
    if _SKULL is None:
        _SKULL = _skull()
    coin = art.coin[int(t * 8) % len(art.coin)] if art.coin else None
    _chip(surf, 6, 6, coin, f"{coins}/{coins_total}")
    _chip(surf, surf.get_width() // 2, 6, None, ui.format_time(seconds), align="center")
    _chip(surf, surf.get_width() - 6, 6, _SKULL, str(deaths), align="right")


def draw_banner(surf, title: str, age: float, duration: float = 2.4) -> None:
    """The level title sliding in at the start of a level."""
    if age >= duration:
        return
    k = min(1.0, age / 0.25, (duration - age) / 0.35)
    w = ui.text_width(title, 2) + 24
    y = 52
    band = pygame.Surface((w, 30), pygame.SRCALPHA)
    band.fill((20, 16, 36, round(190 * k)))
    x = (surf.get_width() - w) // 2
    surf.blit(band, (x, y))
    t = ui.text(title, ui.GOLD, scale=2).copy()
    t.set_alpha(round(255 * k))
    surf.blit(t, ((surf.get_width() - t.get_width()) // 2, y + 6))


def draw_message(surf, message: str, age: float) -> None:
    """A signpost box at the bottom centre; fades in over 0.15 s."""
    width = 300
    lines = ui.wrap(message, width - 20)
    h = len(lines) * ui.LINE_H + 14
    x = (surf.get_width() - width) // 2
    rise = max(0, round(8 * (1 - min(1.0, age / 0.15))))
    y = surf.get_height() - h - 10 + rise
    ui.panel(surf, (x, y, width, h))
    for i, line in enumerate(lines):
        ui.draw_text(surf, line, (surf.get_width() // 2, y + 7 + i * ui.LINE_H), align="center")


def draw_notice(surf, text: str, *, error: bool = False, y: int | None = None) -> None:
    """One line in a strip (feel-file errors, 'saved screenshot', 'muted')."""
    color = (255, 120, 110) if error else ui.INK
    lines = ui.wrap(text, surf.get_width() - 16)[:3]
    h = len(lines) * ui.LINE_H + 4
    y = surf.get_height() - h - 2 if y is None else y
    strip = pygame.Surface((surf.get_width(), h), pygame.SRCALPHA)
    strip.fill((16, 8, 20, 200))
    surf.blit(strip, (0, y))
    for i, line in enumerate(lines):
        ui.draw_text(surf, line, (8, y + 2 + i * ui.LINE_H), color)
