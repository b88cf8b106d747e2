"""HUD (coins, time, deaths), the level-title banner, signpost message box and on-screen notices."""

from __future__ import annotations

import pygame

from .. import ui

__all__ = ["draw_hud", "hud_rects", "draw_banner", "banner_rect", "draw_message", "message_rect", "draw_notice",
           "draw_notices", "MESSAGE_HOLD", "MESSAGE_FADE", "NOTICE_TOP", "UI_SEE_THROUGH", "BANNER_ROWS"]

CHIP_H = 15  # px, a HUD pill's height
UI_SEE_THROUGH = 0.3  # opacity of a HUD pill or the banner while a coin or the player is behind it


def _chip_rect(x: int, y: int, label: str, icon: bool, align: str) -> pygame.Rect:
    w = ui.text_width(label) + (14 if icon else 0) + 8
    x -= w if align == "right" else w // 2 if align == "center" else 0
    return pygame.Rect(x, y, w, CHIP_H)


def _chip(surf, rect: pygame.Rect, icon, label, fade: float = 1.0):
    w = rect.w
    box = pygame.Surface(rect.size, pygame.SRCALPHA)
    box.fill((20, 16, 36, 150))
    box.fill((0, 0, 0, 0), (0, 0, 1, 1))
    box.fill((0, 0, 0, 0), (w - 1, 0, 1, 1))
    box.fill((0, 0, 0, 0), (0, 14, 1, 1))
    box.fill((0, 0, 0, 0), (w - 1, 14, 1, 1))
    tx = 4
    if icon is not None:
        box.blit(icon, (tx - 3, 7 - icon.get_height() // 2))
        tx += 14
    ui.draw_text(box, label, (tx, 3))
    if fade < 1.0:
        box.fill((255, 255, 255, round(255 * fade)), special_flags=pygame.BLEND_RGBA_MULT)
    surf.blit(box, rect.topleft)


def _hud_items(width: int, coins: int, coins_total: int, seconds: float, deaths: int):
    return [(_chip_rect(6, 6, f"{coins}/{coins_total}", True, "left"), "coin", f"{coins}/{coins_total}"),
            (_chip_rect(width // 2, 6, ui.format_time(seconds), False, "center"), None, ui.format_time(seconds)),
            (_chip_rect(width - 6, 6, str(deaths), True, "right"), "skull", str(deaths))]


def hud_rects(width: int, *, coins: int, coins_total: int, seconds: float, deaths: int) -> list[pygame.Rect]:
    """Where :func:`draw_hud` puts its three pills (coins, time, deaths) on a canvas ``width`` px wide."""
    return [rect for rect, _icon, _label in _hud_items(width, coins, coins_total, seconds, deaths)]


def _skull() -> pygame.Surface:
    s = pygame.Surface((12, 12), pygame.SRCALPHA)
    pygame.draw.rect(s, (236, 232, 222), (3, 2, 7, 6), border_radius=2)
    s.fill((236, 232, 222), (4, 8, 5, 2))
    s.fill((40, 30, 50), (4, 4, 2, 2))
    s.fill((40, 30, 50), (7, 4, 2, 2))
    s.fill((40, 30, 50), (6, 9, 1, 1))
    return s


_SKULL = None


def draw_hud(surf, art, *, coins: int, coins_total: int, seconds: float, deaths: int, t: float,
             fades=(1.0, 1.0, 1.0)) -> None:
    """Three pills along the top: coins, time, deaths. ``fades`` (0..1 each) lets the play scene make a
    pill see-through while a coin or the player is behind it."""
    global _SKULL
    if _SKULL is None:
        _SKULL = _skull()
    icons = {"coin": art.coin[int(t * 8) % len(art.coin)] if art.coin else None, "skull": _SKULL}
    for (rect, icon, label), fade in zip(_hud_items(surf.get_width(), coins, coins_total, seconds, deaths),
                                         fades, strict=True):
        _chip(surf, rect, icons.get(icon), label, fade)


BANNER_DURATION = 2.4  # s the level title shows at the start of a level
BANNER_H = 30
BANNER_ROWS = (52, 28, 84, 116, 148)  # canvas y tried in turn for the banner, so it covers no coin


def banner_rect(surf, title: str, y: int) -> pygame.Rect:
    w = ui.text_width(title, 2) + 24
    return pygame.Rect((surf.get_width() - w) // 2, y, w, BANNER_H)


def draw_banner(surf, title: str, age: float, *, y: int = BANNER_ROWS[0], fade: float = 1.0) -> None:
    """The level title fading in at the start of a level, its top at canvas ``y``; ``fade`` 0..1 makes it
    see-through (something the player wants to see is behind it)."""
    if age >= BANNER_DURATION:
        return
    k = min(1.0, age / 0.25, (BANNER_DURATION - age) / 0.35) * fade
    rect = banner_rect(surf, title, y)
    band = pygame.Surface(rect.size, pygame.SRCALPHA)
    band.fill((20, 16, 36, round(190 * k)))
    surf.blit(band, rect.topleft)
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
