"""The campaign's difficulty curve as a PNG, drawn on a small raster and written with zlib + struct (no pygame).

    png = curve_png(["01", "02", ...], [("default", [12.0, 15.5, ...]), ("tight.toml", [...])])
    write_atomic("curve.png", png, "plot")

Levels on x, difficulty (bits, see ``game/guard/difficulty.py``) on the left axis and the expected attempts
it stands for (``2 ** bits``) on the right one, one line per feel in its own colour with a legend in a row
above the plot; a level with no figure (not finished) leaves a gap in its line. Labels use a 3x5 pixel font
drawn at twice its size.
"""

from __future__ import annotations

import math
import struct
import zlib

__all__ = ["curve_png", "png_bytes", "COLOURS"]

WIDTH, HEIGHT = 720, 420  # px
LEFT, RIGHT, TOP, BOTTOM = 64, 72, 66, 56  # px of margin around the plot area
BACK, AXIS, GRID, INK = (255, 255, 255), (40, 40, 40), (225, 225, 225), (30, 30, 30)
COLOURS = [(31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189), (255, 127, 14), (23, 190, 207),
           (140, 86, 75), (227, 119, 194)]

_FONT = {  # 3x5 glyphs, rows top to bottom, "#" = ink
    "0": "### #.# #.# #.# ###", "1": ".#. ##. .#. .#. ###", "2": "### ..# ### #.. ###", "3": "### ..# ### ..# ###",
    "4": "#.# #.# ### ..# ..#", "5": "### #.. ### ..# ###", "6": "### #.. ### #.# ###", "7": "### ..# .#. .#. .#.",
    "8": "### #.# ### #.# ###", "9": "### #.# ### ..# ###", ".": "... ... ... ... .#.", "-": "... ... ### ... ...",
    "_": "... ... ... ... ###", "/": "..# ..# .#. #.. #..", "(": ".#. #.. #.. #.. .#.", ")": ".#. ..# ..# ..# .#.",
    ":": "... .#. ... .#. ...", " ": "... ... ... ... ...", ",": "... ... ... .#. #..",
    "~": "... #.. ### ..# ...", "=": "... ### ... ### ...",
    "a": ".#. #.# ### #.# #.#", "b": "##. #.# ##. #.# ##.", "c": ".## #.. #.. #.. .##", "d": "##. #.# #.# #.# ##.",
    "e": "### #.. ##. #.. ###", "f": "### #.. ##. #.. #..", "g": ".## #.. #.# #.# .##", "h": "#.# #.# ### #.# #.#",
    "i": "### .#. .#. .#. ###", "j": "..# ..# ..# #.# .#.", "k": "#.# #.# ##. #.# #.#", "l": "#.. #.. #.. #.. ###",
    "m": "#.# ### ### #.# #.#", "n": "##. #.# #.# #.# #.#", "o": ".#. #.# #.# #.# .#.", "p": "##. #.# ##. #.. #..",
    "q": ".#. #.# #.# ##. .##", "r": "##. #.# ##. #.# #.#", "s": ".## #.. .#. ..# ##.", "t": "### .#. .#. .#. .#.",
    "u": "#.# #.# #.# #.# ###", "v": "#.# #.# #.# #.# .#.", "w": "#.# #.# ### ### #.#", "x": "#.# #.# .#. #.# #.#",
    "y": "#.# #.# .#. .#. .#.", "z": "### ..# .#. #.. ###",
}


class _Raster:
    def __init__(self, w: int, h: int):
        self.w, self.h = w, h
        self.px = bytearray(bytes(BACK) * (w * h))

    def dot(self, x: int, y: int, colour) -> None:
        if 0 <= x < self.w and 0 <= y < self.h:
            i = 3 * (y * self.w + x)
            self.px[i:i + 3] = bytes(colour)

    def rect(self, x: int, y: int, w: int, h: int, colour) -> None:
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.dot(xx, yy, colour)

    def line(self, x0: float, y0: float, x1: float, y1: float, colour, thick: int = 1) -> None:
        n = max(1, int(max(abs(x1 - x0), abs(y1 - y0))))
        for k in range(n + 1):
            x, y = x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n
            self.rect(round(x) - thick // 2, round(y) - thick // 2, thick, thick, colour)

    def text(self, x: int, y: int, s: str, colour, scale: int = 2) -> int:
        """Draw ``s`` with its top-left at (x, y); returns the width drawn."""
        cx = x
        for ch in s.lower():
            glyph = _FONT.get(ch, _FONT[" "]).split()
            for r, row in enumerate(glyph):
                for c, bit in enumerate(row):
                    if bit == "#":
                        self.rect(cx + c * scale, y + r * scale, scale, scale, colour)
            cx += 4 * scale
        return cx - x

    def png(self) -> bytes:
        return png_bytes(self.w, self.h, bytes(self.px))


def text_width(s: str, scale: int = 2) -> int:
    return 4 * scale * len(s)


def png_bytes(w: int, h: int, rgb: bytes) -> bytes:
    """An 8-bit RGB PNG of ``w`` x ``h`` pixels from rows of RGB bytes."""
    raw = b"".join(b"\x00" + rgb[3 * w * y:3 * w * (y + 1)] for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _nice_step(top: float) -> float:
    raw = top / 8.0  # about eight grid lines; steps of 1, 2 or 5 (whole bits: the attempts read 2, 4, 32...)
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    return next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)


def _attempts(bits: float) -> str:
    n = 2.0 ** bits
    for div, unit in ((1e6, "m"), (1e3, "k")):
        if n >= div:
            return f"{n / div:.0f}{unit}" if n / div >= 10 else f"{n / div:.1f}{unit}".replace(".0", "")
    return f"{n:.0f}" if n >= 10 else f"{n:.1f}".replace(".0", "")


def curve_png(levels: list[str], series: list[tuple[str, list]],
              title: str = "difficulty per level: bits, log2 of the expected attempts") -> bytes:
    """The picture: ``levels`` labels on x; ``series`` of (feel name, figure per level or None)."""
    img = _Raster(WIDTH, HEIGHT)
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM
    values = [v for _n, vs in series for v in vs if v is not None]
    top = max(values, default=1.0) or 1.0
    step = _nice_step(top * 1.05)
    top = step * math.ceil(top * 1.05 / step)

    def ypix(v: float) -> float:
        return y1 - (y1 - y0) * v / top

    n = len(levels)

    def xpix(i: int) -> float:
        return x0 + (x1 - x0) * (i + 0.5) / max(n, 1)

    k = 0
    while k * step <= top + 1e-9:  # the y grid and its labels
        y = round(ypix(k * step))
        img.line(x0, y, x1, y, GRID)
        label = f"{k * step:g}"
        img.text(x0 - 8 - text_width(label), y - 5, label, INK)
        img.line(x1, y, x1 + 4, y, AXIS)
        img.text(x1 + 8, y - 5, _attempts(k * step), INK)  # the right axis: what those bits mean in attempts
        k += 1
    img.line(x0, y0, x0, y1, AXIS)
    img.line(x1, y0, x1, y1, AXIS)
    img.line(x0, y1, x1, y1, AXIS)
    img.text(x0 - 8 - text_width("bits"), y0 - 18, "bits", INK)
    img.text(x1 - text_width("attempts") // 2, y0 - 18, "attempts", INK)
    for i, name in enumerate(levels):  # the x labels
        x = round(xpix(i))
        img.line(x, y1, x, y1 + 4, AXIS)
        img.text(x - text_width(name) // 2, y1 + 10, name, INK)
    img.text(x0, 12, title, INK)
    img.text((x0 + x1) // 2 - text_width("level") // 2, HEIGHT - 20, "level", INK)
    for s, (_name, vs) in enumerate(series):
        colour = COLOURS[s % len(COLOURS)]
        last = None
        for i, v in enumerate(vs):
            if v is None:
                last = None
                continue
            point = (xpix(i), ypix(v))
            if last is not None:
                img.line(*last, *point, colour, thick=3)
            img.rect(round(point[0]) - 3, round(point[1]) - 3, 7, 7, colour)
            last = point
    lx = x0  # the legend: one row above the plot
    for s, (name, _vs) in enumerate(series):
        colour = COLOURS[s % len(COLOURS)]
        label = name[:21]
        if lx + 24 + text_width(label) > x1 - text_width("attempts") // 2 - 8:
            break  # no room left in the row
        img.rect(lx, 36, 18, 5, colour)
        img.text(lx + 24, 34, label, INK)
        lx += 24 + text_width(label) + 20
    return img.png()
