"""HUD (coins, time, deaths), the level-title banner, signpost message box and on-screen notices."""

from __future__ import annotations

import pygame

from .. import ui

__all__ = ["draw_hud", "draw_banner", "draw_message", "message_rect", "draw_notice", "draw_notices",
           "MESSAGE_HOLD", "MESSAGE_FADE", "NOTICE_TOP"]


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


MESSAGE_HOLD = 1.4  # s a signpost message stays fully visible after the player leaves its trigger
MESSAGE_FADE = 0.6  # s it then takes to fade out (so it lingers MESSAGE_HOLD + MESSAGE_FADE in all)
NOTICE_TOP = 24  # canvas y of the first notice: just under the HUD chips


def message_rect(surf, message: str, *, left: int = 0, right: int | None = None,
                 bottom: int | None = None, top: int | None = None) -> pygame.Rect:
    """Where :func:`draw_message` puts ``message``: centred in ``left..right``, its top at ``top`` if
    given, else its bottom at ``bottom`` (default: 10 px above the canvas bottom)."""
    right = surf.get_width() if right is None else right
    bottom = surf.get_height() - 10 if bottom is None else bottom
    width = min(300, right - left - 8)
    lines = ui.wrap(message, width - 20)
    h = len(lines) * ui.LINE_H + 14
    return pygame.Rect(left + (right - left - width) // 2, bottom - h if top is None else top, width, h)


def draw_message(surf, message: str, age: float, *, fade: float = 1.0, left: int = 0,
                 right: int | None = None, bottom: int | None = None, top: int | None = None) -> pygame.Rect:
    """A signpost box (bottom centre of ``left..right``, or from ``top``); rises in over 0.15 s; ``fade``
    1 opaque .. 0 gone. Returns the box drawn."""
    rect = message_rect(surf, message, left=left, right=right, bottom=bottom, top=top)
    if fade <= 0:
        return rect
    lines = ui.wrap(message, rect.w - 20)
    rise = max(0, round(8 * (1 - min(1.0, age / 0.15))))
    box = pygame.Surface(rect.size, pygame.SRCALPHA)
    ui.panel(box, box.get_rect())
    for i, line in enumerate(lines):
        ui.draw_text(box, line, (rect.w // 2, 7 + i * ui.LINE_H), align="center")
    if fade < 1.0:
        box.fill((255, 255, 255, round(255 * fade)), special_flags=pygame.BLEND_RGBA_MULT)
    surf.blit(box, (rect.x, rect.y + rise))
    return rect


def draw_notice(surf, text: str, *, error: bool = False, y: int | None = None, left: int = 0,
                right: int | None = None) -> int:
    """One notice (feel-file errors, 'saved screenshot', 'muted') in a box centred in ``left..right``,
    its top at ``y`` (default :data:`NOTICE_TOP`, under the HUD). Up to 3 wrapped lines. Returns the
    y just below it, for stacking the next one."""
    right = surf.get_width() if right is None else right
    y = NOTICE_TOP if y is None else y
    color = (255, 120, 110) if error else ui.INK
    lines = ui.wrap(text, right - left - 16)[:3]
    w = max(ui.text_width(line) for line in lines) + 12 if lines else 12
    h = len(lines) * ui.LINE_H + 4
    x = left + (right - left - w) // 2
    strip = pygame.Surface((w, h), pygame.SRCALPHA)
    strip.fill((16, 8, 20, 210))
    surf.blit(strip, (x, y))
    for i, line in enumerate(lines):
        ui.draw_text(surf, line, (x + 6, y + 2 + i * ui.LINE_H), color)
    return y + h + 2


def draw_notices(surf, notices, *, left: int = 0, right: int | None = None, top: int | None = None) -> int:
    """Stack ``(text, error)`` notices downward from ``top``; returns the y below the last."""
    y = NOTICE_TOP if top is None else top
    for text, error in notices:
        y = draw_notice(surf, text, error=error, y=y, left=left, right=right)
    return y
