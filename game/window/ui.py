"""Text and menus for a low-resolution canvas: a built-in 5x7 pixel font and a vertical menu widget.

The font is data (one string per glyph row, ``1`` = ink) so it needs no font file and stays crisp at any
whole-number scale. ``text()`` renders a string (with an optional 1-px shadow) and caches the result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pygame

__all__ = ["text", "text_width", "draw_text", "LINE_H", "Menu", "panel", "wrap", "fit", "format_time", "menu_backdrop",
           "INK", "DIM", "GOLD", "SHADOW", "ACCENT"]

INK = (244, 240, 228)
DIM = (150, 154, 170)
GOLD = (255, 214, 92)
ACCENT = (120, 220, 255)
SHADOW = (20, 18, 34)
LINE_H = 10  # px: 7 rows of capitals + descender + gap

_G = {
    "A": "01110 10001 10001 10001 11111 10001 10001", "B": "11110 10001 10001 11110 10001 10001 11110",
    "C": "01110 10001 10000 10000 10000 10001 01110", "D": "11100 10010 10001 10001 10001 10010 11100",
    "E": "11111 10000 10000 11110 10000 10000 11111", "F": "11111 10000 10000 11110 10000 10000 10000",
    "G": "01110 10001 10000 10111 10001 10001 01111", "H": "10001 10001 10001 11111 10001 10001 10001",
    "I": "111 010 010 010 010 010 111", "J": "00111 00010 00010 00010 00010 10010 01100",
    "K": "10001 10010 10100 11000 10100 10010 10001", "L": "10000 10000 10000 10000 10000 10000 11111",
    "M": "10001 11011 10101 10101 10001 10001 10001", "N": "10001 10001 11001 10101 10011 10001 10001",
    "O": "01110 10001 10001 10001 10001 10001 01110", "P": "11110 10001 10001 11110 10000 10000 10000",
    "Q": "01110 10001 10001 10001 10101 10010 01101", "R": "11110 10001 10001 11110 10100 10010 10001",
    "S": "01111 10000 10000 01110 00001 00001 11110", "T": "11111 00100 00100 00100 00100 00100 00100",
    "U": "10001 10001 10001 10001 10001 10001 01110", "V": "10001 10001 10001 10001 10001 01010 00100",
    "W": "10001 10001 10001 10101 10101 10101 01010", "X": "10001 10001 01010 00100 01010 10001 10001",
    "Y": "10001 10001 10001 01010 00100 00100 00100", "Z": "11111 00001 00010 00100 01000 10000 11111",
    "a": "00000 00000 01110 00001 01111 10001 01111", "b": "10000 10000 10110 11001 10001 10001 11110",
    "c": "00000 00000 01110 10000 10000 10001 01110", "d": "00001 00001 01101 10011 10001 10001 01111",
    "e": "00000 00000 01110 10001 11111 10000 01110", "f": "0011 0100 0100 1110 0100 0100 0100",
    "g": "00000 00000 01111 10001 10001 10001 01111 00001 01110",
    "h": "10000 10000 10110 11001 10001 10001 10001", "i": "1 0 1 1 1 1 1",
    "j": "001 000 011 001 001 001 001 101 010", "k": "1000 1000 1001 1010 1100 1010 1001",
    "l": "110 010 010 010 010 010 111", "m": "00000 00000 11010 10101 10101 10001 10001",
    "n": "00000 00000 10110 11001 10001 10001 10001", "o": "00000 00000 01110 10001 10001 10001 01110",
    "p": "00000 00000 11110 10001 10001 10001 11110 10000 10000",
    "q": "00000 00000 01111 10001 10001 10001 01111 00001 00001",
    "r": "0000 0000 1011 1100 1000 1000 1000", "s": "0000 0000 0111 1000 0110 0001 1110",
    "t": "0100 0100 1110 0100 0100 0100 0011", "u": "00000 00000 10001 10001 10001 10011 01101",
    "v": "00000 00000 10001 10001 10001 01010 00100", "w": "00000 00000 10001 10001 10101 10101 01010",
    "x": "00000 00000 10001 01010 00100 01010 10001",
    "y": "00000 00000 10001 10001 10001 10001 01111 00001 01110",
    "z": "00000 00000 11111 00010 00100 01000 11111",
    "0": "01110 10001 10011 10101 11001 10001 01110", "1": "010 110 010 010 010 010 111",
    "2": "01110 10001 00001 00010 00100 01000 11111", "3": "11111 00010 00100 00010 00001 10001 01110",
    "4": "00010 00110 01010 10010 11111 00010 00010", "5": "11111 10000 11110 00001 00001 10001 01110",
    "6": "00110 01000 10000 11110 10001 10001 01110", "7": "11111 00001 00010 00100 01000 01000 01000",
    "8": "01110 10001 10001 01110 10001 10001 01110", "9": "01110 10001 10001 01111 00001 00010 01100",
    " ": "000 000 000 000 000 000 000", ".": "0 0 0 0 0 0 1", ",": "00 00 00 00 00 01 01 10",
    "!": "1 1 1 1 1 0 1", "?": "01110 10001 00001 00010 00100 00000 00100", ":": "0 0 1 0 0 1 0",
    ";": "00 00 01 00 00 01 01 10", "'": "1 1 0 0 0 0 0", '"': "101 101 000 000 000 000 000",
    "-": "0000 0000 0000 1111 0000 0000 0000", "+": "00000 00100 00100 11111 00100 00100 00000",
    "/": "00001 00001 00010 00100 01000 10000 10000", "(": "001 010 100 100 100 010 001",
    ")": "100 010 001 001 001 010 100", "[": "111 100 100 100 100 100 111",
    "]": "111 001 001 001 001 001 111",
    "%": "11000 11001 00010 00100 01000 10011 00011", "#": "01010 01010 11111 01010 11111 01010 01010",
    "=": "00000 00000 11111 00000 11111 00000 00000", "<": "0001 0010 0100 1000 0100 0010 0001",
    ">": "1000 0100 0010 0001 0010 0100 1000", "*": "00000 00100 10101 01110 10101 00100 00000",
    "_": "00000 00000 00000 00000 00000 00000 11111", "&": "01100 10010 10100 01000 10101 10010 01101",
    "^": "00100 01010 10001 00000 00000 00000 00000", "|": "1 1 1 1 1 1 1",
    "@": "01110 10001 10111 10101 10111 10000 01110", "$": "00100 01111 10100 01110 00101 11110 00100",
    "~": "00000 00000 01000 10101 00010 00000 00000", "`": "10 01 00 00 00 00 00",
    "{": "0011 0100 0100 1000 0100 0100 0011", "}": "1100 0010 0010 0001 0010 0010 1100",
    "\\": "10000 10000 01000 00100 00010 00001 00001",
}
_GLYPHS: dict[str, list[str]] = {ch: rows.split() for ch, rows in _G.items() if len(ch) == 1}
_cache: dict[tuple, pygame.Surface] = {}
_glyph_cache: dict[tuple, pygame.Surface] = {}


def _glyph(ch: str, color) -> pygame.Surface:
    key = (ch, tuple(color))
    surf = _glyph_cache.get(key)
    if surf is None:
        rows = _GLYPHS.get(ch) or _GLYPHS.get(ch.upper()) or _GLYPHS["?"]
        surf = pygame.Surface((len(rows[0]), LINE_H), pygame.SRCALPHA)
        for y, row in enumerate(rows):
            for x, bit in enumerate(row):
                if bit == "1":
                    surf.set_at((x, y), color)
        _glyph_cache[key] = surf
    return surf


# Button prompts (game/window/prompts.py writes "[Space]" for a key, "(A)" for a pad button) are drawn as
# glyphs: a key cap, a pad's coloured face button or a dark pill. Only what a prompt writes matches.
_PROMPT = re.compile(r"\[([A-Za-z][A-Za-z0-9 +'-]{0,11}|[^\]\s\d])\]"
                     r"|\((A|B|X|Y|LB|RB|L3|R3|Start|Back|Select|Guide|D-pad(?: left| right| up| down)?)\)")
FACE_COLOURS = {"A": (86, 178, 86), "B": (214, 78, 78), "X": (74, 136, 228), "Y": (232, 192, 60)}
CAP, CAP_EDGE, CAP_INK = (236, 232, 220), (120, 116, 140), (28, 24, 48)
PILL, PILL_INK = (58, 54, 84), (244, 240, 228)


def _plain_width(s: str) -> int:
    widths = [len((_GLYPHS.get(c) or _GLYPHS.get(c.upper()) or _GLYPHS["?"])[0]) + 1 for c in s]
    return max(0, sum(widths) - 1)


def _segments(s: str) -> list[tuple[str, str]]:
    """``s`` cut into ("text", ...), ("key", label) and ("pad", label) pieces."""
    out, at = [], 0
    for m in _PROMPT.finditer(s):
        if m.start() > at:
            out.append(("text", s[at:m.start()]))
        out.append(("key", m.group(1)) if m.group(1) else ("pad", m.group(2)))
        at = m.end()
    if at < len(s):
        out.append(("text", s[at:]))
    return out


def _piece_width(kind: str, label: str) -> int:
    if kind == "text":
        return _plain_width(label)
    if kind == "pad" and label in FACE_COLOURS:
        return 9  # a round face button around one letter
    return _plain_width(label.upper()) + 6  # 1 px edge and 2 px air each side


def _pieces_width(pieces: list[tuple[str, str]]) -> int:
    return max(0, sum(_piece_width(k, v) + 1 for k, v in pieces) - 1)


def text_width(s: str, scale: int = 1) -> int:
    return _pieces_width(_segments(s)) * scale


def _draw_word(surf: pygame.Surface, word: str, x: int, y: int, color) -> None:
    for ch in word:
        g = _glyph(ch, color)
        surf.blit(g, (x, y))
        x += g.get_width() + 1


def _draw_prompt(surf: pygame.Surface, kind: str, label: str, x: int) -> None:
    """A key cap (light, with a darker lower edge) or a pad button at ``x``, the line's height."""
    w = _piece_width(kind, label)
    if kind == "pad" and label in FACE_COLOURS:
        pygame.draw.ellipse(surf, FACE_COLOURS[label], (x, 0, 9, 9))
        _draw_word(surf, label, x + 2, 1, (255, 255, 255))
        return
    fill, ink = (CAP, CAP_INK) if kind == "key" else (PILL, PILL_INK)
    pygame.draw.rect(surf, CAP_EDGE if kind == "key" else SHADOW, (x, 0, w, LINE_H), border_radius=2)
    pygame.draw.rect(surf, fill, (x, 0, w, LINE_H - 1), border_radius=2)
    _draw_word(surf, label.upper(), x + 3, 1, ink)


def text(s: str, color=INK, *, shadow=SHADOW, scale: int = 1) -> pygame.Surface:
    """A surface holding ``s`` in the pixel font (cached). ``shadow`` draws a 1-px drop shadow. Prompts
    ("[Space]", "(A)") are drawn as key caps and pad buttons."""
    key = (s, tuple(color), tuple(shadow) if shadow else None, scale)
    surf = _cache.get(key)
    if surf is not None:
        return surf
    pieces = _segments(s)
    w = _pieces_width(pieces) + (1 if shadow else 0)
    surf = pygame.Surface((max(1, w), LINE_H + (1 if shadow else 0)), pygame.SRCALPHA)
    for dx, col in ((1, shadow), (0, color)) if shadow else ((0, color),):
        x = 0
        for kind, value in pieces:
            if kind == "text":
                _draw_word(surf, value, x + dx, dx, col)
            elif dx == 0:
                _draw_prompt(surf, kind, value, x)
            x += _piece_width(kind, value) + 1
    if scale != 1:
        surf = pygame.transform.scale(surf, (surf.get_width() * scale, surf.get_height() * scale))
    if len(_cache) > 2000:
        _cache.clear()
    _cache[key] = surf
    return surf


def draw_text(target: pygame.Surface, s: str, pos, color=INK, *, align: str = "left", shadow=SHADOW,
              scale: int = 1) -> pygame.Rect:
    """Draw ``s`` with its top-left (``align="left"``), top-centre (``"center"``) or top-right at ``pos``."""
    surf = text(s, color, shadow=shadow, scale=scale)
    x, y = pos
    if align == "center":
        x -= surf.get_width() // 2
    elif align == "right":
        x -= surf.get_width()
    return target.blit(surf, (int(x), int(y)))


def wrap(s: str, width: int) -> list[str]:
    """Split ``s`` into lines no wider than ``width`` px (explicit newlines kept)."""
    lines: list[str] = []
    for para in s.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if line and text_width(trial) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def panel(target: pygame.Surface, rect, *, fill=(28, 24, 48, 230), border=(244, 240, 228),
          inner=(86, 76, 128)):
    """A rounded pixel-art box: dark fill, light outer border, a muted inner line."""
    rect = pygame.Rect(rect)
    box = pygame.Surface(rect.size, pygame.SRCALPHA)
    w, h = rect.size
    box.fill(fill, (1, 1, w - 2, h - 2))
    pygame.draw.line(box, border, (2, 0), (w - 3, 0))
    pygame.draw.line(box, border, (2, h - 1), (w - 3, h - 1))
    pygame.draw.line(box, border, (0, 2), (0, h - 3))
    pygame.draw.line(box, border, (w - 1, 2), (w - 1, h - 3))
    box.set_at((1, 1), border)
    box.set_at((w - 2, 1), border)
    box.set_at((1, h - 2), border)
    box.set_at((w - 2, h - 2), border)
    pygame.draw.rect(box, inner, (2, 2, w - 4, h - 4), 1)
    target.blit(box, rect.topleft)


def fit(s: str, width: int) -> str:
    """``s`` cut to at most ``width`` px, ending in "..." when cut."""
    if text_width(s) <= width:
        return s
    while s and text_width(s + "...") > width:
        s = s[:-1]
    return s.rstrip() + "..."


def menu_backdrop(target: pygame.Surface, t: float) -> None:
    """The menus' background: dark, with a soft diagonal pattern drifting so the screen isn't flat."""
    w, h = target.get_size()
    target.fill((26, 22, 46))
    for i in range(-h, w, 24):
        x = i + int(t * 8) % 24
        pygame.draw.line(target, (32, 28, 56), (x, 0), (x + h, h), 6)


def format_time(seconds: float | None) -> str:
    """``83.456`` -> ``"1:23.45"``; None -> ``"--:--.--"``."""
    if seconds is None:
        return "--:--.--"
    cs = int(round(seconds * 100))
    return f"{cs // 6000}:{cs // 100 % 60:02d}.{cs % 100:02d}"


@dataclass
class Menu:
    """A vertical list of items moved with up/down and chosen with confirm (``horizontal``: a row, moved
    with left/right too).

    ``items`` are labels; ``enabled`` (optional) greys some out. ``handle(action)`` returns the chosen
    label on confirm, else None. Draw with ``draw(surface, centre_x, top)``.
    """

    items: list[str]
    index: int = 0
    enabled: list[bool] | None = None
    on_move: object = None  # callable() for a sound, optional
    blink: float = field(default=0.0)
    horizontal: bool = False
    gap: int = 22  # px between items in a row

    def _ok(self, i: int) -> bool:
        return self.enabled is None or self.enabled[i]

    def handle(self, action: str) -> str | None:
        n = len(self.items)
        moves = ("up", "down", "left", "right") if self.horizontal else ("up", "down")
        if action in moves and n:
            d = -1 if action in ("up", "left") else 1
            i = self.index
            for _ in range(n):
                i = (i + d) % n
                if self._ok(i):
                    break
            if i != self.index:
                self.index = i
                if callable(self.on_move):
                    self.on_move()
        elif action == "confirm" and n and self._ok(self.index):
            return self.items[self.index]
        return None

    def update(self, dt: float) -> None:
        self.blink = (self.blink + dt) % 1.0

    def width(self) -> int:
        """A row's width in px (horizontal menus)."""
        return sum(text_width(label) for label in self.items) + self.gap * (len(self.items) - 1)

    def draw(self, target: pygame.Surface, cx: int, top: int, spacing: int = 13) -> None:
        x = cx - self.width() // 2
        for i, label in enumerate(self.items):
            y = top + i * spacing
            if self.horizontal:  # each label centred in its own slot of the row
                y = top
                cx = x + text_width(label) // 2
                x += text_width(label) + self.gap
            if i == self.index:
                col = GOLD
                bob = 1 if self.blink < 0.5 else 0
                w = text_width(label)
                draw_text(target, ">", (cx - w // 2 - 9 + bob, y), GOLD)
                draw_text(target, "<", (cx + w // 2 + 5 - bob, y), GOLD)
            else:
                col = INK if self._ok(i) else DIM
            draw_text(target, label, (cx, y), col, align="center")
