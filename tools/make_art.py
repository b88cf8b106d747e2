#!/usr/bin/env python3
"""Draw every sprite, tile and background of the demo procedurally and write them as PNGs.

    python tools/make_art.py              # assets/*.png, assets/README.md, levels/tileset.tsx
    python tools/make_art.py --out DIR    # everything into DIR instead (tileset.tsx included)

Deterministic: fixed seeds, no clock, no randomness outside ``np.random.default_rng(SEED + n)``.
Everything is drawn in palette indices (the Endesga 32 palette by ENDESGA, plus three translucent
water colours) and converted to RGBA at the end, so restyling is mostly a palette edit.

Terrain tiles are rendered inside a 3x3-tile context (the neighbours a level puts around them) and
the centre is cropped out: grass thickness, outlines and shading then match across tile seams.
The tileset table ``TILES`` is the single source of the tile ids, the collision properties written to
``tileset.tsx`` and the id map in ``assets/README.md``.
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.window.render.kinds import OBJECT_FRAMES, SHEET_SIZE  # noqa: E402  (the layout the game reads)

SEED = 1986
T = 16  # tile size, px

# --------------------------------------------------------------------------------------------------
# Palette: one character per colour, used by the ASCII sprites below and by the procedural drawing.
# --------------------------------------------------------------------------------------------------
_HEX = {
    "o": "181425",
    "n": "262b44",
    "s": "3a4466",
    "S": "5a6988",
    "l": "8b9bb4",
    "L": "c0cbdc",
    "w": "ffffff",
    "b": "3e2731",
    "B": "733e39",
    "t": "b86f50",
    "T": "e4a672",
    "c": "ead4aa",
    "k": "e8b796",
    "K": "c28569",
    "r": "a22633",
    "R": "e43b44",
    "e": "be4a2f",
    "E": "d77643",
    "O": "f77622",
    "y": "feae34",
    "Y": "fee761",
    "g": "265c42",
    "G": "3e8948",
    "h": "63c74d",
    "d": "193c3e",
    "u": "124e89",
    "U": "0099db",
    "C": "2ce8f5",
    "p": "68386c",
    "P": "b55088",
    "m": "f6757a",
    "x": "ff0044",
    # translucent water
    "a": "0099db96",
    "A": "2ce8f5c0",
    "z": "124e89b4",
    "W": "ffffffc8",
    # translucent light (the tower's shafts and window glow)
    "q": "fee76126",
    "Q": "fee76140",
    "v": "c0cbdc30",
}
CHARS = "." + "".join(_HEX)
IDX = {ch: i for i, ch in enumerate(CHARS)}
LUT = np.zeros((len(CHARS), 4), np.uint8)
for _ch, _hx in _HEX.items():
    _hx = _hx + "ff" if len(_hx) == 6 else _hx
    LUT[IDX[_ch]] = [int(_hx[i : i + 2], 16) for i in (0, 2, 4, 6)]

BAYER4 = np.array([[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]]) / 16.0 + 1 / 32


def C(ch: str) -> int:
    return IDX[ch]


def canvas(w: int, h: int) -> np.ndarray:
    return np.zeros((h, w), np.uint8)


def ascii_art(rows: list[str], w: int = T, h: int = T, name: str = "?") -> np.ndarray:
    """Rows of palette characters, bottom-aligned in a w x h canvas."""
    a = canvas(w, h)
    if len(rows) > h:
        raise ValueError(f"sprite {name!r}: {len(rows)} rows, the canvas has {h}")
    top = h - len(rows)
    for y, row in enumerate(rows):
        if len(row) != w:
            raise ValueError(f"sprite {name!r}: row {y} is {len(row)} wide, expected {w}: {row!r}")
        for x, ch in enumerate(row):
            if ch != ".":
                a[top + y, x] = IDX[ch]
    return a


def shift(m: np.ndarray, dy: int, dx: int, fill=False) -> np.ndarray:
    """m moved by (dy, dx) without wrapping."""
    out = np.full_like(m, fill)
    h, w = m.shape
    ys, yd = (slice(0, h - dy), slice(dy, h)) if dy >= 0 else (slice(-dy, h), slice(0, h + dy))
    xs, xd = (slice(0, w - dx), slice(dx, w)) if dx >= 0 else (slice(-dx, w), slice(0, w + dx))
    out[yd, xd] = m[ys, xs]
    return out


def outline(a: np.ndarray, ch: str = "o", diagonal: bool = False) -> np.ndarray:
    filled = a != 0
    near = shift(filled, 1, 0) | shift(filled, -1, 0) | shift(filled, 0, 1) | shift(filled, 0, -1)
    if diagonal:
        near |= shift(filled, 1, 1) | shift(filled, 1, -1) | shift(filled, -1, 1) | shift(filled, -1, -1)
    a = a.copy()
    a[~filled & near] = IDX[ch]
    return a


def remap(a: np.ndarray, mapping: dict[str, str]) -> np.ndarray:
    lut = np.arange(len(CHARS), dtype=np.uint8)
    for src, dst in mapping.items():
        lut[IDX[src]] = IDX[dst]
    return lut[a]


def paste(dst: np.ndarray, src: np.ndarray, x: int, y: int) -> None:
    """Copy the non-transparent pixels of src onto dst at (x, y), clipped."""
    h, w = src.shape
    H, W = dst.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if x0 >= x1 or y0 >= y1:
        return
    s = src[y0 - y : y1 - y, x0 - x : x1 - x]
    d = dst[y0:y1, x0:x1]
    d[s != 0] = s[s != 0]


def rect(a: np.ndarray, x: int, y: int, w: int, h: int, ch: str) -> None:
    H, W = a.shape
    a[max(y, 0) : min(y + h, H), max(x, 0) : min(x + w, W)] = IDX[ch]


def ball(
    a: np.ndarray, cx: float, cy: float, rx: float, ry: float, ramp: str, light=(-0.6, -0.75), only=None
) -> None:
    """A shaded ellipse: ramp is dark..light palette chars, dithered with a Bayer matrix."""
    H, W = a.shape
    yy, xx = np.mgrid[0:H, 0:W]
    nx, ny = (xx + 0.5 - cx) / rx, (yy + 0.5 - cy) / ry
    r2 = nx * nx + ny * ny
    inside = r2 <= 1.0
    if only is not None:
        inside &= only
    nz = np.sqrt(np.clip(1 - r2, 0, 1))
    lx, ly = light
    lz = math.sqrt(max(0.0, 1 - lx * lx - ly * ly))
    v = np.clip(nx * lx + ny * ly + nz * lz, 0, 1) ** 1.2
    v = v * (len(ramp) - 1) + (BAYER4[yy % 4, xx % 4] - 0.5) * 0.9
    lvl = np.clip(np.round(v), 0, len(ramp) - 1).astype(int)
    ramp_idx = np.array([IDX[c] for c in ramp], np.uint8)
    a[inside] = ramp_idx[lvl[inside]]


def to_rgba(a: np.ndarray) -> np.ndarray:
    return LUT[a]


def save_png(a: np.ndarray, path: pathlib.Path) -> None:
    rgba = np.ascontiguousarray(to_rgba(a) if a.ndim == 2 else a)
    h, w = rgba.shape[:2]
    surf = pygame.image.frombuffer(rgba.tobytes(), (w, h), "RGBA")
    pygame.image.save(surf, str(path))


# --------------------------------------------------------------------------------------------------
# Terrain: masks of cells, rendered in a 3x3 context, centre cropped.
# --------------------------------------------------------------------------------------------------
# Slope cells use the engine's ASCII letters: surface height (px above the tile bottom) left -> right.
SLOPES = {"/": (0, 16), "\\": (16, 0), "p": (0, 8), "q": (8, 16), "d": (16, 8), "b": (8, 0)}
GRASS_JAG = [1, 2, 2, 1, 0, 1, 2, 3, 2, 1, 1, 0, 1, 2, 1, 1]  # extra grass depth per column (x % 16)


def slope_top(left: int, right: int) -> np.ndarray:
    """First solid row of each pixel column: a clean pixel line that meets flat tiles at the ends."""
    h = lambda t: left + (right - left) * t / T  # noqa: E731
    return np.array([T - math.ceil(max(h(x), h(x + 1)) - 1e-9) for x in range(T)])


def cell_mask(ch: str) -> np.ndarray:
    if ch == ".":
        return np.zeros((T, T), bool)
    if ch == "#":
        return np.ones((T, T), bool)
    top = slope_top(*SLOPES[ch])
    return np.arange(T)[:, None] >= top[None, :]


def _dirt_texture(seed: int) -> np.ndarray:
    """A 16x16 periodic dirt texture (palette indices): sparse embedded stones and specks."""
    rng = np.random.default_rng(seed)
    a = np.full((T, T), IDX["B"], np.uint8)
    stones = [  # embedded stones: light rim on top-left, dark body
        [".tt.", "tbbb", ".bb."],
        [".t.", "tbb"],
        ["tt", "bb"],
    ]
    spots = [(2, 3), (10, 8), (5, 12)]
    for (x, y), rows in zip(spots, stones, strict=True):
        for dy, row in enumerate(rows):
            for dx, ch in enumerate(row):
                if ch != ".":
                    a[(y + dy) % T, (x + dx) % T] = IDX[ch]
    for _ in range(5):  # single dark specks
        x, y = rng.integers(0, T, 2)
        if a[y, x] == IDX["B"]:
            a[y, x] = IDX["b"]
    for _ in range(3):  # single light specks
        x, y = rng.integers(0, T, 2)
        if a[y, x] == IDX["B"]:
            a[y, x] = IDX["t"]
    return a


DIRT = _dirt_texture(SEED)


def render_terrain(mask: np.ndarray, grass: bool = True, base: np.ndarray | None = None) -> np.ndarray:
    """Shade a solid mask (a multiple of 16 px, aligned to the tile grid) into palette indices."""
    H, W = mask.shape
    tex = np.tile(DIRT if base is None else base, (H // T, W // T))
    out = np.where(mask, tex, 0).astype(np.uint8)
    big = 50
    # depth below the top of the solid run; distance to air below; to the left; to the right
    depth = np.full((H, W), 99)
    run = np.full(W, big)
    for y in range(H):
        above = mask[y - 1] if y > 0 else mask[0]
        run = np.where(mask[y], np.where(above, run + 1, 0), 0)
        depth[y] = np.where(mask[y], run, 99)
    below = np.full((H, W), 99)
    run = np.full(W, big)
    for y in range(H - 1, -1, -1):
        under = mask[y + 1] if y < H - 1 else mask[H - 1]
        run = np.where(mask[y], np.where(under, run + 1, 0), 0)
        below[y] = np.where(mask[y], run, 99)
    left = np.full((H, W), 99)
    run = np.full(H, big)
    for x in range(W):
        prev = mask[:, x - 1] if x > 0 else mask[:, 0]
        run = np.where(mask[:, x], np.where(prev, run + 1, 0), 0)
        left[:, x] = np.where(mask[:, x], run, 99)
    right = np.full((H, W), 99)
    run = np.full(H, big)
    for x in range(W - 1, -1, -1):
        nxt = mask[:, x + 1] if x < W - 1 else mask[:, W - 1]
        run = np.where(mask[:, x], np.where(nxt, run + 1, 0), 0)
        right[:, x] = np.where(mask[:, x], run, 99)

    # grass distance: the depth, or a neighbour column's depth plus a cost (wraps into inner corners)
    g = depth.copy()
    for dx, cost in ((1, 1), (2, 3)):
        for s in (dx, -dx):
            g = np.minimum(g, shift(depth, 0, s, fill=99) + cost)
    g = np.where(mask, g, 99)
    xx = np.arange(W)[None, :].repeat(H, 0)
    thick = 3 + np.array(GRASS_JAG)[xx % T]
    top = np.where(mask, np.arange(H)[:, None] - depth, 0)  # y of the surface above each solid pixel
    steep = np.abs(shift(top, 0, 1, fill=0) - shift(top, 0, -1, fill=0)) / 2
    thick = thick + np.where(
        mask & shift(mask, 0, 1) & shift(mask, 0, -1), np.minimum(np.round(steep * 1.5), 3), 0
    )

    side = (left == 0) | (right == 0)
    out[mask & (left == 1)] = np.where(out[mask & (left == 1)] == IDX["B"], IDX["t"], out[mask & (left == 1)])
    out[mask & ((right == 1) | (below == 1))] = IDX["b"]
    out[mask & (side | (below == 0))] = IDX["o"]
    if grass:
        shadow = mask & (g == thick)
        out[shadow & ~side & (below > 0)] = IDX["b"]
        gz = mask & (g < thick)
        out[gz] = IDX["G"]
        out[gz & (g <= 1)] = IDX["h"]
        out[gz & (g == thick - 1)] = IDX["g"]
        # a few bright blades on the top edge
        tip = gz & (g == 0) & (np.isin(xx % T, (4, 12)))
        out[tip] = IDX["Y"]
        out[gz & (side | (below == 0))] = IDX["g"]
    return out


def terrain_tile(ctx: list[str], grass: bool = True, base: np.ndarray | None = None) -> np.ndarray:
    mask = np.zeros((3 * T, 3 * T), bool)
    for r in range(3):
        for c in range(3):
            mask[r * T : (r + 1) * T, c * T : (c + 1) * T] = cell_mask(ctx[r][c])
    return render_terrain(mask, grass, base)[T : 2 * T, T : 2 * T]


def with_stamp(tile: np.ndarray, rows: list[str], x: int, y: int) -> np.ndarray:
    a = tile.copy()
    paste(a, ascii_art(rows, len(rows[0]), len(rows)), x, y)
    return a


# ----- individual tiles -------------------------------------------------------------------------
FULL = ["###", "###", "###"]


def fill_variant(kind: str) -> np.ndarray:
    t = terrain_tile(FULL)
    if kind == "stones":
        t = with_stamp(t, [".bbbb.", "bLlSSb", "blSSsb", ".bbbb."], 2, 3)
        t = with_stamp(t, [".bb.", "bLSb", ".bb."], 10, 10)
    elif kind == "roots":
        t = with_stamp(
            t,
            [
                "..t.......",
                "..t.......",
                "...tt.....",
                ".....t..t.",
                "......tt..",
                ".......t..",
                "......t...",
            ],
            3,
            2,
        )
    elif kind == "fossil":
        t = with_stamp(t, [".cc....cc.", "cLcccccLcc", ".cc....cc.", "...b..b..."], 3, 6)
    elif kind == "deep":
        t = remap(t, {"B": "b", "t": "B", "T": "t"})
    return t


def brick(dark: bool = False) -> np.ndarray:
    a = canvas(T, T)
    for row in range(4):
        y0 = row * 4
        off = 0 if row % 2 == 0 else 4
        a[y0 : y0 + 4, :] = IDX["S"]
        a[y0, :] = IDX["l"]
        a[y0 + 3, :] = IDX["s"]
        for x0 in range(-off, T, 8):
            xm = (x0 + 7) % T
            a[y0 : y0 + 4, xm] = IDX["n"]
            if 0 <= x0 < T:
                a[y0 + 1 : y0 + 3, x0] = np.where(
                    a[y0 + 1 : y0 + 3, x0] == IDX["S"], IDX["l"], a[y0 + 1 : y0 + 3, x0]
                )
        a[y0 + 3, :] = IDX["n"]
    # wear: a few chipped pixels
    for x, y in ((3, 5), (12, 9), (6, 13), (9, 1)):
        a[y, x] = IDX["s"]
    if dark:
        a = remap(a, {"S": "n", "l": "s", "s": "n", "n": "o"})
    return a


def brick_top() -> np.ndarray:
    a = brick()
    moss = [
        "hhhhYhhhhhhhYhhh",
        "GhGGGhGGhGGGGhGG",
        "gGGgGGgGGGgGgGGg",
        "g.gg.gG.g.gg..gg",
        "..g..g..g...g..g",
        ".....g..........",
    ]
    paste(a, ascii_art(moss, T, len(moss)), 0, 0)
    return a


def stone_block() -> np.ndarray:
    a = ascii_art(
        [
            "oooooooooooooooo",
            "oLLLLLLLLLLLLLlo",
            "oLlllllllllllSso",
            "oLllllllllllSSso",
            "oLlllSllllllllso",
            "oLllSlllllllllso",
            "oLlllllllllllSso",
            "oLllllllllllllso",
            "oLlllllllSllllso",
            "oLllllllSlllllso",
            "oLlllllllSllllso",
            "oLllllllllllllso",
            "oLlSllllllllllso",
            "olllllllllllllso",
            "oSssssssssssssso",
            "oooooooooooooooo",
        ],
        name="stone_block",
    )
    return remap(a, {"l": "S", "L": "l", "S": "s", "s": "n"})


def crate() -> np.ndarray:
    return ascii_art(
        [
            "oooooooooooooooo",
            "oTTTTTTTTTTTTTto",
            "otbbbbbbbbbbbbBo",
            "otbTtbbbbbbBtbBo",
            "otbbTtbbbbBtbbBo",
            "otbbbTtbbBtbbbBo",
            "otbbbbTtBtbbbbBo",
            "otbbbbbTtbbbbbBo",
            "otbbbbBtTtbbbbBo",
            "otbbbBtbbTtbbbBo",
            "otbbBtbbbbTtbbBo",
            "otbBtbbbbbbTtbBo",
            "otbbbbbbbbbbbbBo",
            "otlBBBBBBBBBBlBo",
            "oBBBBBBBBBBBBBBo",
            "oooooooooooooooo",
        ],
        name="crate",
    )


def plank(left: bool, right: bool) -> np.ndarray:
    rows = [
        "oooooooooooooooo",
        "TTTTTTTTbTTTTTTT",
        "tltttttlbltttttl",
        "ttttttttbttttttt",
        "BBBBBBBBbBBBBBBB",
        "oooooooooooooooo",
        "..obo......obo..",
        "...o........o...",
    ]
    a = ascii_art(rows, T, T, "plank")[T - 8 :]
    a = np.vstack([a, canvas(T, 8)])
    if left:
        a[0:6, 0] = IDX["o"]
        a[0, 0] = a[5, 0] = 0
        a[6:8, 0:5] = 0
    if right:
        a[0:6, T - 1] = IDX["o"]
        a[0, T - 1] = a[5, T - 1] = 0
        a[6:8, T - 5 :] = 0
    return a


def bg_wall(ctx: list[str], grass: bool) -> np.ndarray:
    t = terrain_tile(ctx, grass)
    return remap(
        t,
        {
            "B": "n",
            "b": "o",
            "t": "s",
            "T": "S",
            "o": "o",
            "h": "g",
            "G": "d",
            "g": "d",
            "Y": "G",
            "c": "s",
            "L": "S",
            "l": "s",
        },
    )


def bg_window() -> np.ndarray:
    a = brick(dark=True)
    win = ascii_art(
        [
            "....oooooo....",
            "...ouuuuuuo...",
            "..ouUuuuuuuo..",
            "..ouuuuuuuuo..",
            "..ouuuuuuuuo..",
            "..oooooooooo..",
            "..ouuuuuuuuo..",
            "..ouuuuuuuuo..",
            "..ouuuuuuuuo..",
            "..oooooooooo..",
            "..oSSSSSSSSo..",
            "..oooooooooo..",
        ],
        14,
        12,
        "window",
    )
    paste(a, win, 1, 2)
    return a


def bg_column() -> np.ndarray:
    a = brick(dark=True)
    col = ascii_art(["onsSSsssno"] * 16, 10, 16, "column")
    col[::8, 1:9] = IDX["n"]
    paste(a, col, 3, 0)
    return a


def tuft(which: int) -> np.ndarray:
    if which == 0:
        rows = [
            "......h....h....",
            "..h...hG..hG..h.",
            "..Gh.GhG.GhG.hG.",
            ".gGhgGhGgGGGgGGg",
        ]
    elif which == 1:
        rows = [
            ".......h........",
            "..h....hG.......",
            "..Gh..GhG....h..",
            "...Gh.GhG...hG..",
            ".h.GhgGhG..hGg..",
            ".GhgGhGGGg.GGg..",
            "gGGhgGGhGgGGGgg.",
        ]
    else:
        rows = [
            "..........h.....",
            "....h.....h.....",
            "....h....hG..h..",
            "...hG....hG..h..",
            "...hG.h..GG.hG..",
            "..hG..hG.G..hG..",
            "..hG.hGG.G.hGG..",
            "..GG.hG.GG.hG...",
            ".hGG.GG.GGhGG...",
            ".GGg.GgGGgGGg...",
        ]
    return ascii_art(rows, name="tuft")


def flowers(petal: str, centre: str) -> np.ndarray:
    rows = [
        "..........R.....",
        "...R.....RYR....",
        "..RYR.....R.....",
        "...R......G..R..",
        "...G.....hG.RYR.",
        "...Gh....G...G..",
        "..hG....GG..hG..",
        "..GG.h..Gh.hG...",
        ".gGGhGg.GGgGGg..",
    ]
    a = ascii_art(rows, name="flowers")
    return remap(a, {"R": petal, "Y": centre})


def rock(big: bool) -> np.ndarray:
    a = canvas(T, T)
    if big:
        ball(a, 7.5, 12.0, 6.5, 5.0, "nsSlL")
        ball(a, 12.0, 13.5, 3.0, 2.6, "nsSlL")
    else:
        ball(a, 8.0, 13.5, 4.5, 3.0, "nsSlL")
    a[T - 1 :, :] = np.where(a[T - 1 :, :] != 0, IDX["s"], 0)
    a = outline(a)
    a[T - 1, :] = np.where(a[T - 1, :] == IDX["o"], IDX["o"], a[T - 1, :])
    return a


def mushrooms(cap: str, dots: str) -> np.ndarray:
    a = ascii_art(
        [
            ".....oooo.......",
            "...ooRRwRoo.....",
            "..oRwRRRRRwo....",
            "..orRRRwRRro....",
            "...ooooooooo....",
            ".....okKo..ooo..",
            ".....okKo.oRwRo.",
            ".....okKo.ooooo.",
            "....okkKKo.okKo.",
        ],
        name="mushrooms",
    )
    return remap(a, {"R": cap, "w": dots, "r": "r" if cap == "R" else "b"})


def bush(part: str) -> np.ndarray:
    """A bush: 'small' fits one tile; 'left' + 'right' make a two-tile bush."""
    w = 2 * T if part != "small" else T
    a = canvas(w, T)
    ramp = "dgGGhh"
    if part == "small":
        for cx, cy, r in ((5, 11, 4), (11, 11, 4), (8, 8, 4.5)):
            ball(a, cx, cy, r, r, ramp)
    else:
        for cx, cy, r in ((6, 11, 5), (26, 11, 5), (12, 8, 6), (21, 8, 6), (16, 5.5, 5)):
            ball(a, cx, cy, r, r, ramp)
    a[T - 1, :] = np.where(a[T - 1, :] != 0, IDX["g"], 0)
    a = outline(a)
    # berries
    for x, y in (
        ((9, 7), (4, 11), (13, 11)) if part == "small" else ((10, 6), (17, 3), (23, 9), (6, 10), (28, 11))
    ):
        if a[y, x] not in (0, IDX["o"]):
            a[y, x] = IDX["R"]
    if part == "left":
        return a[:, :T]
    if part == "right":
        return a[:, T:]
    return a


def fence(part: str) -> np.ndarray:
    rows = [
        "......oo........",
        ".....oTto.......",
        ".....otBo.......",
        "ooooootBoooooooo",
        "TTTTTotBoTTTTTTT",
        "tttttotBottttttt",
        "ooooootBoooooooo",
        ".....otBo.......",
        "ooooootBoooooooo",
        "TTTTTotBoTTTTTTT",
        "tttttotBottttttt",
        "ooooootBoooooooo",
        ".....otBo.......",
    ]
    a = ascii_art(rows, name="fence")
    if part == "left":
        a[:, :5] = 0
    elif part == "right":
        a[:, 9:] = 0
    return a


def sign_post() -> np.ndarray:
    return ascii_art(
        [
            ".oooooooooooooo.",
            ".oTTTTTTTTTTTTo.",
            ".oTbbTbbbTbbTto.",
            ".oTTTTTTTTTTTto.",
            ".oTbbbTbbTbbbto.",
            ".otttttttttttto.",
            ".oooooooooooooo.",
            "......otBo......",
            "......otBo......",
            "......otBo......",
            "......otBo......",
            "....g.otBo.h....",
            "...gGhotBoGhg...",
        ],
        name="sign",
    )


def sign_arrow(direction: int) -> np.ndarray:
    a = ascii_art(
        [
            ".ooooooooooo....",
            ".oTTTTTTTTTToo..",
            ".oTTTbbbbTTTTTo.",
            ".oTTTTTTTTTTtto.",
            ".otttttttttoo...",
            ".ooooooooooo....",
            "......otBo......",
            "......otBo......",
            "......otBo......",
            "......otBo......",
            "......otBo......",
            "....g.otBo.h....",
            "...gGhotBoGhg...",
        ],
        name="arrow",
    )
    return a if direction > 0 else a[:, ::-1].copy()


def vine(part: str) -> np.ndarray:
    a = canvas(T, T)
    end = T if part != "bottom" else 11
    for y in range(end):
        x = 7 + round(1.4 * math.sin(2 * math.pi * y / T))
        a[y, x] = IDX["G"]
        if y % 4 == 1 and y + 2 < end + 2:
            side = 1 if (y // 4) % 2 == 0 else -1
            for k, ch in enumerate("hhG"):
                xx, yy = x + side * (1 + k), y + (1 if k == 2 else 0)
                if 0 <= xx < T and yy < T:
                    a[yy, xx] = IDX[ch]
            if 0 <= x + side * 2 < T and y + 1 < T:
                a[y + 1, x + side * 2] = IDX["g"]
    if part == "top":
        a[0, 4:11] = IDX["g"]
        a[1, 5:10:2] = IDX["g"]
    if part == "bottom":
        x = 7 + round(1.4 * math.sin(2 * math.pi * 10 / T))
        paste(a, ascii_art([".P.", "PmP", ".P."], 3, 3), x - 1, 11)
    return outline(a, "d") if part != "none" else a


def spikes() -> np.ndarray:
    """Spikes pointing up: two teeth per tile, lit from the left, on a metal base."""
    a = canvas(T, T)
    for cx in (4, 12):
        for y in range(4, 13):
            half = (y - 3.5) / 9 * 4.0
            for x in range(cx - 4, cx + 4):
                c = x + 0.5 - cx
                if abs(c) <= half:
                    a[y, x] = IDX["L"] if c < -1 else IDX["l"] if c < 1 else IDX["S"]
        a[4, cx - 1] = IDX["w"]
    a = outline(a)
    a[12, :] = IDX["l"]
    a[13, :] = IDX["S"]
    a[14, :] = IDX["s"]
    a[15, :] = IDX["o"]
    a[12:15, 0] = a[12:15, T - 1] = IDX["o"]
    return a


def torch(frame: int) -> np.ndarray:
    a = ascii_art(
        [
            ".....otBo.......",
            ".....otBo.......",
            "....olSSlo......",
            "....oSssSo......",
            ".....otBo.......",
            ".....otBo.......",
            "......oo........",
        ],
        name="torch",
    )
    heights = [7, 8, 7, 6]
    sway = [0, 1, 0, -1]
    f = canvas(T, T)
    h = heights[frame]
    for y in range(h):
        t = y / (h - 1)  # 0 at tip .. 1 at base
        half = 0.6 + 2.3 * math.sin(min(t, 0.999) * math.pi * 0.62)
        cx = 7.5 + sway[frame] * (1 - t)
        for x in range(T):
            d = abs(x + 0.5 - cx)
            if d <= half:
                yy = 9 - h + y
                f[yy, x] = (
                    IDX["Y"] if d < half * 0.35 and t > 0.3 else IDX["y"] if d < half * 0.7 else IDX["O"]
                )
    paste(f, a, 0, 0)
    f = outline(f, "e")
    paste(f, a, 0, 0)
    return f


def water(frame: int | None) -> np.ndarray:
    a = canvas(T, T)
    if frame is None:
        a[:, :] = IDX["a"]
        for x, y in ((3, 4), (4, 4), (11, 10), (12, 10), (13, 10), (7, 14)):
            a[y, x] = IDX["A"]
        return a
    for x in range(T):
        top = 4 + round(math.sin(2 * math.pi * x / T + frame * math.pi / 2))
        a[top:, x] = IDX["a"]
        a[top, x] = IDX["W"] if (x + frame * 4) % T in (2, 3, 9) else IDX["A"]
        a[top + 1, x] = IDX["A"] if (x + frame * 4) % 8 < 3 else IDX["a"]
    return a


# ----- the tileset table: (name, drawing, properties) in id order ---------------------------------
def _slope_props(ch: str) -> dict:
    left, right = SLOPES[ch]
    return {"collision": "slope", "slope_left": left, "slope_right": right}


SOLID = {"collision": "solid"}
ONE_WAY = {"collision": "one_way"}
DECO: dict = {}
COLUMNS = 16


def tile_table() -> list[tuple[str, np.ndarray, dict, str]]:
    """(name, pixels, properties, description) for every tile id, row by row, 16 columns."""
    tt = terrain_tile
    rows: list[list[tuple[str, np.ndarray, dict, str]]] = [
        [
            ("grass_tl", tt(["...", ".##", ".##"]), SOLID, "grass top, left end (outer corner)"),
            ("grass_t", tt(["...", "###", "###"]), SOLID, "grass top"),
            ("grass_tr", tt(["...", "##.", "##."]), SOLID, "grass top, right end (outer corner)"),
            ("pillar_t", tt(["...", ".#.", ".#."]), SOLID, "one-tile-wide column: top"),
            (
                "inner_tl",
                tt([".##", "###", "###"]),
                SOLID,
                "concave corner: floor on the left meets a wall rising on the right (air only top-left)",
            ),
            (
                "inner_tr",
                tt(["##.", "###", "###"]),
                SOLID,
                "concave corner: wall rising on the left meets a floor on the right (air only top-right)",
            ),
            ("slope45_r", tt(["...", "./#", "###"]), _slope_props("/"), "45° slope rising right (0->16)"),
            ("slope45_l", tt(["...", "#\\.", "###"]), _slope_props("\\"), "45° slope rising left (16->0)"),
            (
                "slope22_r1",
                tt(["...", ".pq", "###"]),
                _slope_props("p"),
                "shallow slope rising right, low half (0->8)",
            ),
            (
                "slope22_r2",
                tt(["...", "pq#", "###"]),
                _slope_props("q"),
                "shallow slope rising right, high half (8->16)",
            ),
            (
                "slope22_l1",
                tt(["...", "#db", "###"]),
                _slope_props("d"),
                "shallow slope rising left, high half (16->8)",
            ),
            (
                "slope22_l2",
                tt(["...", "db.", "###"]),
                _slope_props("b"),
                "shallow slope rising left, low half (8->0)",
            ),
            ("strip_l", tt(["...", ".##", "..."]), SOLID, "one-tile-high ledge: left end"),
            ("strip_m", tt(["...", "###", "..."]), SOLID, "one-tile-high ledge: middle"),
            ("strip_r", tt(["...", "##.", "..."]), SOLID, "one-tile-high ledge: right end"),
            ("block", tt(["...", ".#.", "..."]), SOLID, "single floating grass block"),
        ],
        [
            ("wall_l", tt([".##", ".##", ".##"]), SOLID, "left wall (air on the left)"),
            ("fill", tt(FULL), SOLID, "ground fill"),
            ("wall_r", tt(["##.", "##.", "##."]), SOLID, "right wall (air on the right)"),
            ("pillar_m", tt([".#.", ".#.", ".#."]), SOLID, "one-tile-wide column: middle"),
            (
                "inner_bl",
                tt(["###", "###", ".##"]),
                SOLID,
                "inner corner: air only at the bottom-left diagonal",
            ),
            (
                "inner_br",
                tt(["###", "###", "##."]),
                SOLID,
                "inner corner: air only at the bottom-right diagonal",
            ),
            ("under45_r", tt(["./#", "###", "###"]), SOLID, "fill under slope45_r (grass wedge top-left)"),
            ("under45_l", tt(["#\\.", "###", "###"]), SOLID, "fill under slope45_l (grass wedge top-right)"),
            ("under22_r1", tt([".pq", "###", "###"]), SOLID, "fill under slope22_r1"),
            ("under22_r2", tt(["pq#", "###", "###"]), SOLID, "fill under slope22_r2"),
            ("under22_l1", tt(["#db", "###", "###"]), SOLID, "fill under slope22_l1"),
            ("under22_l2", tt(["db.", "###", "###"]), SOLID, "fill under slope22_l2"),
            ("fill_stones", fill_variant("stones"), SOLID, "ground fill with stones"),
            ("fill_roots", fill_variant("roots"), SOLID, "ground fill with roots"),
            ("fill_fossil", fill_variant("fossil"), SOLID, "ground fill with a fossil bone"),
            ("fill_deep", fill_variant("deep"), SOLID, "darker deep ground fill"),
        ],
        [
            ("ceil_l", tt([".##", ".##", "..."]), SOLID, "underside, left end (outer corner)"),
            ("ceil", tt(["###", "###", "..."]), SOLID, "underside / ceiling"),
            ("ceil_r", tt(["##.", "##.", "..."]), SOLID, "underside, right end (outer corner)"),
            ("pillar_b", tt([".#.", ".#.", "..."]), SOLID, "one-tile-wide column: bottom"),
            ("plank_l", plank(True, False), ONE_WAY, "one-way wooden plank: left end"),
            ("plank_m", plank(False, False), ONE_WAY, "one-way wooden plank: middle"),
            ("plank_r", plank(False, True), ONE_WAY, "one-way wooden plank: right end"),
            ("plank_1", plank(True, True), ONE_WAY, "one-way wooden plank: single"),
            ("brick", brick(), SOLID, "stone bricks"),
            ("brick_moss", brick_top(), SOLID, "stone bricks with moss on top"),
            ("stone", stone_block(), SOLID, "bevelled stone block"),
            ("crate", crate(), SOLID, "wooden crate"),
            ("bg_dirt_t", bg_wall(["...", "###", "###"], True), DECO, "background earth wall: top edge"),
            ("bg_dirt", bg_wall(FULL, False), DECO, "background earth wall"),
            ("bg_brick", brick(dark=True), DECO, "background bricks"),
            ("bg_window", bg_window(), DECO, "background bricks with a window"),
        ],
        [
            ("tuft_a", tuft(0), DECO, "grass tuft, short"),
            ("tuft_b", tuft(1), DECO, "grass tuft"),
            ("tall_grass", tuft(2), DECO, "tall grass"),
            ("flowers_red", flowers("R", "Y"), DECO, "red flowers"),
            ("flowers_yellow", flowers("Y", "O"), DECO, "yellow flowers"),
            ("flowers_blue", flowers("U", "w"), DECO, "blue flowers"),
            ("rock_small", rock(False), DECO, "small rock"),
            ("rock_big", rock(True), DECO, "big rock"),
            ("mushrooms_red", mushrooms("R", "w"), DECO, "red mushrooms"),
            ("mushrooms_brown", mushrooms("t", "T"), DECO, "brown mushrooms"),
            ("bush_small", bush("small"), DECO, "small bush"),
            ("bush_l", bush("left"), DECO, "big bush, left half"),
            ("bush_r", bush("right"), DECO, "big bush, right half"),
            ("fence_l", fence("left"), DECO, "fence, left end"),
            ("fence_m", fence("mid"), DECO, "fence, middle"),
            ("fence_r", fence("right"), DECO, "fence, right end"),
        ],
        [
            ("sign", sign_post(), DECO, "sign post (put a trigger with a message on it)"),
            ("vine_t", vine("top"), DECO, "hanging vine: top (under a ceiling)"),
            ("vine_m", vine("mid"), DECO, "hanging vine: middle (repeat)"),
            ("vine_b", vine("bottom"), DECO, "hanging vine: bottom with a flower"),
            ("spikes_up", spikes(), DECO, "spikes pointing up (art only: add a hazard object)"),
            ("spikes_down", np.rot90(spikes(), 2).copy(), DECO, "spikes pointing down"),
            ("spikes_left", np.rot90(spikes(), 1).copy(), DECO, "spikes pointing left"),
            ("spikes_right", np.rot90(spikes(), -1).copy(), DECO, "spikes pointing right"),
            ("torch", torch(0), DECO, "wall torch, animated (frames 72-75)"),
            ("torch_f1", torch(1), DECO, "torch frame 1"),
            ("torch_f2", torch(2), DECO, "torch frame 2"),
            ("torch_f3", torch(3), DECO, "torch frame 3"),
            ("water", water(0), DECO, "water surface, animated (frames 76-79)"),
            ("water_f1", water(1), DECO, "water frame 1"),
            ("water_f2", water(2), DECO, "water frame 2"),
            ("water_f3", water(3), DECO, "water frame 3"),
        ],
        [
            ("water_fill", water(None), DECO, "water below the surface (translucent)"),
            ("bg_brick_t", brick_dark_top(), DECO, "background bricks: top edge"),
            ("bg_column", bg_column(), DECO, "background bricks with a column"),
            ("sign_right", sign_arrow(+1), DECO, "arrow sign pointing right"),
            ("sign_left", sign_arrow(-1), DECO, "arrow sign pointing left"),
            ("crumble", crumble_block(0), {"class": "crumble", **SOLID},
             "crumbling sandstone block: falls after it is stood on, comes back (class `crumble`)"),
            ("crumble_plank", crumble_plank(0), {"class": "crumble", **ONE_WAY},
             "crumbling one-way plank, a row of them falls together (class `crumble`)"),
            ("breakable", breakable_block(False), {"class": "breakable", **SOLID},
             "clay bricks broken by a head bump from below (class `breakable`)"),
            ("breakable_coin", breakable_block(True), {"class": "breakable", **SOLID, "coin": True},
             "the same, hiding a coin: a glint of gold (class `breakable`, `coin` true)"),
        ],
    ]
    table = []
    for row in rows:
        if len(row) > COLUMNS:
            raise ValueError(f"tileset row starting with {row[0][0]!r} has {len(row)} tiles, max {COLUMNS}")
        row = row + [
            (f"empty_{len(table) + len(row) + i}", canvas(T, T), DECO, "(unused)")
            for i in range(COLUMNS - len(row))
        ]
        table.extend(row)
    return table


def brick_dark_top() -> np.ndarray:
    a = brick(dark=True)
    a[0, :] = IDX["s"]
    a[1, :] = IDX["n"]
    return a


ANIMATIONS = {"torch": ([72, 73, 74, 75], 140), "water": ([76, 77, 78, 79], 220)}


def draw_tileset() -> tuple[np.ndarray, list]:
    table = tile_table()
    rows = len(table) // COLUMNS
    sheet = canvas(COLUMNS * T, rows * T)
    for i, (_, px, _, _) in enumerate(table):
        sheet[(i // COLUMNS) * T : (i // COLUMNS + 1) * T, (i % COLUMNS) * T : (i % COLUMNS + 1) * T] = px
    names = [t[0] for t in table]
    assert names[72] == "torch" and names[76] == "water", "animation ids moved: update ANIMATIONS"
    return sheet, table


def tileset_tsx(table: list, image_w: int, image_h: int) -> str:
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="1.10" tiledversion="1.10.2" name="tiles" tilewidth="{T}" tileheight="{T}" '
        f'tilecount="{len(table)}" columns="{COLUMNS}">',
        f' <image source="../assets/tiles.png" width="{image_w}" height="{image_h}"/>',
    ]
    for tid, (_, _, props, _) in enumerate(table):
        anim = next((v for v in ANIMATIONS.values() if v[0][0] == tid), None)
        if not props and not anim:
            continue
        props = dict(props)
        cls = props.pop("class", "")
        out.append(f' <tile id="{tid}"' + (f' type="{cls}"' if cls else "") + ">")
        if props:
            out.append("  <properties>")
            for k, v in props.items():
                if isinstance(v, bool):
                    typ, v = ' type="bool"', str(v).lower()
                else:
                    typ = ' type="int"' if isinstance(v, int) else ""
                out.append(f'   <property name="{k}"{typ} value="{v}"/>')
            out.append("  </properties>")
        if anim:
            out.append("  <animation>")
            for f in anim[0]:
                out.append(f'   <frame tileid="{f}" duration="{anim[1]}"/>')
            out.append("  </animation>")
        out.append(" </tile>")
    out.append("</tileset>")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------------
# Player: 16x20 frames, facing right. Collision box 10x14 bottom-centred: x 3..12, y 6..19.
# --------------------------------------------------------------------------------------------------
PW, PH = 16, 20
PLAYER_ROWS = [("idle", 4), ("run", 8), ("jump", 2), ("fall", 2), ("land", 2), ("death", 4), ("skid", 1),
               ("takeoff", 1), ("wall", 2), ("dash", 2), ("walljump", 1)]
PLAYER_COLS = 8  # the widest row (run)
HEAD = [
    "...RRRR...",
    ".RRmmRRRR.",
    "RRmRRRRRRR",
    "RRRRkkkkkR",
    "RRRkkokkok",
    "rRRkkokkok",
    "rRRkmkkkmk",
    "rrRRkkkkkr",
    ".rrrrrrrr.",
]


def hero(
    bob: int = 0,
    lean: int = 0,
    legs=((-1, 0), (1, 0)),
    arms=("down", "down"),
    eyes: str = "open",
    squash: int = 0,
    tail: int | None = None,
) -> np.ndarray:
    """One player frame. legs: (dx, lift) for the back and front foot; arms: down/fwd/back/up. ``tail``:
    a scarf tail baked into the frame (the icon's), None for none: the game draws the scarf trailing
    behind with the player's motion, knotted at the scarf band's left end."""
    a = canvas(PW, PH)
    hy = 3 + bob + squash
    by = 12 + bob + squash  # body top (scarf row)
    body_rows = 4 - squash
    leg_rows = 2 - (1 if squash >= 2 else 0)
    foot_y = PH - 2  # shoe row
    # back arm (behind the body)
    arm_pos = {"down": (0, 2), "fwd": (1, 1), "back": (-1, 1), "up": (0, -2)}
    bx, byy = arm_pos[arms[0]]
    rect(a, 4 + min(bx, 0) - 0 + lean, by + 1 + min(byy, 1), 1, 2, "u")
    a[by + 1 + byy, 3 + bx + lean] = IDX["K"]
    # legs
    for i, (dx, lift) in enumerate(legs):
        hip = 5 if i == 0 else 8
        col_leg, col_shoe = ("s", "b") if i == 0 else ("n", "B")
        top = by + body_rows
        for r in range(leg_rows):
            y = top + r
            x = hip + (dx if r == leg_rows - 1 else dx // 2)
            if y < foot_y - lift:
                rect(a, x, y, 2, 1, col_leg)
        fx = hip + dx
        rect(a, fx, foot_y - lift, 3, 1, col_shoe)
        if lift == 0:
            a[foot_y, fx + 2] = IDX["t"] if i == 1 else IDX["b"]
    # body: scarf, tunic, belt
    for r in range(body_rows):
        y = by + r
        if r == 0:
            rect(a, 5 + lean, y, 6, 1, "O")
            a[y, 5 + lean] = IDX["e"]
        elif r == body_rows - 1:
            rect(a, 5 + lean, y, 6, 1, "b")
            a[y, 8 + lean] = IDX["y"]
        else:
            rect(a, 5 + lean, y, 6, 1, "U")
            a[y, 5 + lean] = IDX["u"]
            a[y, 10 + lean] = IDX["C"] if r == 1 else IDX["U"]
    # scarf tail
    tails = [
        [(4, 0), (3, 1)],
        [(4, 0), (3, 0), (2, -1)],
        [(4, 0), (3, -1), (2, -2)],
        [(4, 0), (3, 1), (3, 2)],
    ]
    for x, dy in tails[tail] if tail is not None else ():
        a[by + dy, x + lean] = IDX["O"] if dy <= 0 else IDX["e"]
    # head
    head = ascii_art(HEAD, 10, 9, "head")
    if eyes == "blink":
        head[4, 5] = head[4, 8] = IDX["k"]
    elif eyes == "hurt":
        head[4, 5] = head[4, 8] = IDX["k"]
        head[5, 4:6] = IDX["o"]
        head[5, 8:10] = IDX["o"]
        head[5, 6:8] = IDX["k"]
    elif eyes == "wide":
        head[3, 5] = head[3, 8] = IDX["o"]
    paste(a, head, 3 + lean, hy)
    # front arm
    fx, fy = arm_pos[arms[1]]
    x, y = 11 + lean + fx, by + 1 + fy
    if arms[1] == "up":
        rect(a, 11 + lean, by, 1, 1, "U")
        rect(a, 11 + lean + 1, by - 1, 1, 1, "k")
    else:
        rect(a, 11 + lean, by + 1, 1, 1, "U")
        a[y, x] = IDX["k"]
    return outline(a)


def burst(radius: float, size: int) -> np.ndarray:
    a = canvas(PW, PH)
    for k in range(8):
        ang = k * math.pi / 4 + 0.3
        cx, cy = 8 + radius * math.cos(ang), 12 + radius * math.sin(ang)
        col = "R" if k % 2 == 0 else "Y"
        if size >= 2:
            rect(a, round(cx - 1), round(cy - 1), 2, 2, col)
        else:
            rect(a, round(cx - 0.5), round(cy - 0.5), 1, 1, col)
    return outline(a) if size >= 2 else a


def draw_player() -> np.ndarray:
    # run: contact, down, passing, up -- then the same with the other leg (back foot, front foot: dx, lift)
    stride = [((-3, 0), (3, 0), 0, ("fwd", "back")), ((-2, 1), (2, 0), 1, ("fwd", "down")),
              ((0, 3), (0, 0), 0, ("down", "down")), ((2, 2), (-1, 0), -1, ("back", "fwd")),
              ((3, 0), (-3, 0), 0, ("back", "fwd")), ((2, 0), (-2, 1), 1, ("down", "fwd")),
              ((0, 0), (0, 3), 0, ("down", "down")), ((-1, 0), (2, 2), -1, ("fwd", "back"))]
    frames = {
        "idle": [hero(0), hero(0), hero(1), hero(1, eyes="blink")],
        "run": [hero(bob, 1, (back, front), arms) for back, front, bob, arms in stride],
        "jump": [
            hero(-1, 0, ((-1, 0), (1, 2)), ("down", "up"), eyes="wide"),
            hero(-1, 0, ((-1, 1), (1, 2)), ("up", "up")),
        ],
        "fall": [
            hero(-1, 0, ((-1, 0), (1, 0)), ("up", "up"), eyes="wide"),
            hero(-1, 0, ((-2, 0), (2, 0)), ("up", "up"), eyes="wide"),
        ],
        "land": [
            hero(0, 0, ((-2, 0), (2, 0)), ("back", "down"), squash=2),
            hero(0, 0, ((-1, 0), (1, 0)), ("down", "down"), squash=1),
        ],
        "death": [
            hero(-1, 0, ((-1, 1), (1, 1)), ("up", "up"), eyes="hurt"),
            remap(
                hero(-1, 0, ((-1, 1), (1, 1)), ("up", "up"), eyes="hurt"),
                {c: "w" for c in "RrmkKOeUuCbBnsyt"} | {"o": "m"},
            ),
            burst(4, 2),
            burst(7, 1),
        ],
        # turning: facing the new way, leaning into it, both feet braced behind, sliding
        "skid": [hero(1, 1, ((-3, 0), (-1, 0)), ("fwd", "fwd"), eyes="wide")],
        # the crouch of a take-off (anticipation): knees bent, arms swung back
        "takeoff": [hero(0, 0, ((-2, 0), (2, 0)), ("back", "back"), squash=2)],
        # against a wall on the right: a hand and a foot on it, sliding down
        "wall": [hero(0, 1, ((-1, 1), (2, 3)), ("down", "up")), hero(1, 1, ((-1, 0), (2, 2)), ("down", "up"))],
        # dashing: stretched forward, legs trailing
        "dash": [hero(0, 2, ((-3, 1), (-1, 2)), ("back", "fwd"), eyes="wide"),
                 hero(0, 2, ((-3, 2), (0, 1)), ("back", "fwd"), eyes="wide")],
        # kicking off a wall (on the left): spread out, arms up
        "walljump": [hero(-1, 0, ((-3, 2), (2, 1)), ("up", "up"), eyes="wide")],
    }
    sheet = canvas(PW * PLAYER_COLS, PH * len(PLAYER_ROWS))
    for r, (name, n) in enumerate(PLAYER_ROWS):
        assert len(frames[name]) == n, name
        for i, f in enumerate(frames[name]):
            sheet[r * PH : (r + 1) * PH, i * PW : (i + 1) * PW] = f
    return sheet


def draw_icon() -> np.ndarray:
    a = canvas(32, 32)
    ball(a, 16, 16, 15.5, 15.5, "upuU")
    head = ascii_art(HEAD, 10, 9, "head")
    big = np.kron(head, np.ones((2, 2), np.uint8))
    b2 = canvas(32, 32)
    paste(b2, big, 5, 6)
    rect(b2, 9, 24, 14, 3, "O")
    b2 = outline(b2)
    paste(a, b2, 0, 0)
    return a


# --------------------------------------------------------------------------------------------------
# Items: coins, checkpoint flags, goal door, spikes, particles.  Platforms.  Backgrounds.
# --------------------------------------------------------------------------------------------------
def _ellipse(w: int, h: int, cx: float, cy: float, rx: float, ry: float) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w]
    return ((xx + 0.5 - cx) / rx) ** 2 + ((yy + 0.5 - cy) / ry) ** 2 <= 1.0


def coin(frame: int) -> np.ndarray:
    """Frames 0..5 of a coin spin: face, turning, edge-on, turning back (mirrored)."""
    widths = [5.2, 4.2, 2.6, 1.0, 2.6, 4.2]
    rx = widths[frame]
    a = canvas(T, T)
    outer = _ellipse(T, T, 8, 8, rx, 5.6)
    a[outer] = IDX["y"]
    up, down = shift(outer, 1, 0), shift(outer, -1, 0)
    lft, rgt = shift(outer, 0, 1), shift(outer, 0, -1)
    a[outer & ~(up & lft)] = IDX["Y"]  # lit rim (top-left)
    a[outer & ~(down & rgt)] = IDX["O"]  # shaded rim (bottom-right)
    if rx > 2:
        inner = _ellipse(T, T, 8, 8, rx - 1.8, 3.8)
        iu, il = shift(inner, 1, 0), shift(inner, 0, 1)
        idn, ir = shift(inner, -1, 0), shift(inner, 0, -1)
        a[inner] = IDX["y"]
        a[inner & ~(iu & il)] = IDX["O"]  # embossed: inner rim shaded top-left
        a[inner & ~(idn & ir)] = IDX["Y"]
    if rx > 3:
        rect(a, 7, 6, 2, 4, "Y")
        a[6:10, 8] = IDX["y"]
    a = outline(a)
    if frame in (0, 1):
        a[5, 5 + frame] = IDX["w"]
        a[4, 6 + frame] = IDX["w"]
    if frame >= 4:
        a = a[:, ::-1].copy()
        a = np.roll(a, 0, axis=1)
    return a


def sparkle(frame: int, size: int = T) -> np.ndarray:
    a = canvas(size, size)
    c = size // 2
    arms = [size // 2 - 1, size // 2 - 3, size // 2 - 5][min(frame, 2)] if size == T else [3, 2, 1, 1][frame]
    for d in range(-arms, arms + 1):
        a[c, c + d - 1 if size == T else c + d - 1] = IDX["Y"]
        a[c + d - 1 if size == T else c + d - 1, c - 1] = IDX["Y"]
    a[c - 1, c - 1] = IDX["w"]
    if frame == 3 and size != T:
        a[:] = 0
        a[c - 1, c - 1] = IDX["Y"]
    return a


def checkpoint(raised: bool, wave: int = 0) -> np.ndarray:
    a = canvas(T, 2 * T)
    rect(a, 3, 3, 2, 26, "l")
    a[3:29, 3] = IDX["L"]
    rect(a, 2, 1, 4, 3, "y")  # knob
    a[1, 3] = IDX["Y"]
    rect(a, 1, 28, 6, 3, "S")  # base stone
    rect(a, 1, 28, 6, 1, "l")
    if True:
        top = 4 if raised else 19
        ramp = ("y", "O", "e") if raised else ("l", "S", "s")
        for x in range(5, 15):
            amp = 1.2 if raised else 0.0
            off = round(amp * math.sin((x - 5) / 9 * math.pi * 1.5 + wave * math.pi / 2) * (x - 5) / 9)
            droop = 0 if raised else (x - 5) // 2
            if not raised and x > 11:
                break
            y0 = top + off + droop
            rect(a, x, y0, 1, 8 - (x - 5) // 4, ramp[1])
            a[y0, x] = IDX[ramp[0]]
            a[y0 + 7 - (x - 5) // 4, x] = IDX[ramp[2]]
        if raised:
            a[7:9, 8:10] = np.where(a[7:9, 8:10] != 0, IDX["Y"], 0)
    return outline(a)


def goal(frame: int) -> np.ndarray:
    """A stone archway with a shimmering portal, 32x32."""
    a = canvas(32, 32)
    yy, xx = np.mgrid[0:32, 0:32]
    arch = (np.abs(xx + 0.5 - 16) <= 13) & (
        (yy >= 12) | ((xx + 0.5 - 16) ** 2 + (yy + 0.5 - 13) ** 2 <= 13**2)
    )
    hole = (np.abs(xx + 0.5 - 16) <= 8) & (
        (yy >= 12) | ((xx + 0.5 - 16) ** 2 + (yy + 0.5 - 12.5) ** 2 <= 8**2)
    )
    hole &= yy < 31
    a[arch] = IDX["S"]
    # stone blocks on the arch
    for y in range(32):
        for x in range(32):
            if arch[y, x] and not hole[y, x]:
                if (y % 5 == 0) or ((x + (y // 5) * 3) % 7 == 0):
                    a[y, x] = IDX["s"]
                elif y % 5 == 1:
                    a[y, x] = IDX["l"]
    rng = np.random.default_rng(SEED + 7 + frame)
    swirl = np.sin(
        np.hypot(xx - 15.5, yy - 18) * 0.9 - np.arctan2(yy - 18, xx - 15.5) * 2 + frame * math.pi / 2
    )
    portal = np.where(swirl > 0.35, IDX["P"], np.where(swirl > -0.4, IDX["p"], IDX["u"]))
    a[hole] = portal[hole]
    for _ in range(6):
        x, y = rng.integers(9, 23), rng.integers(6, 30)
        if hole[y, x]:
            a[y, x] = IDX["w"] if rng.random() < 0.5 else IDX["m"]
    a[31, :] = np.where(arch[31], IDX["s"], 0)
    a = outline(a)
    # keystone gem
    paste(a, ascii_art([".oo.", "oYyo", "oyeo", ".oo."], 4, 4), 14, 0)
    return a


def dust(frame: int) -> np.ndarray:
    a = canvas(8, 8)
    r = [3.2, 3.0, 2.2, 1.3][frame]
    ball(a, 4, 4.5 - frame * 0.3, r, r * 0.85, "lLcw" if frame < 2 else "lLc")
    return a


def draw_items() -> np.ndarray:
    sheet = canvas(128, 64)
    for i in range(6):
        paste(sheet, coin(i), i * T, 0)
    paste(sheet, sparkle(0), 96, 0)
    paste(sheet, sparkle(1), 112, 0)
    paste(sheet, checkpoint(False), 0, 16)
    for i in range(3):
        paste(sheet, checkpoint(True, i), 16 + i * T, 16)
    paste(sheet, goal(0), 64, 16)
    paste(sheet, goal(1), 96, 16)
    sp = spikes()
    for i, k in enumerate((0, 2, 1, -1)):  # up, down, left, right
        paste(sheet, np.rot90(sp, k).copy(), i * T, 48)
    for i in range(4):
        paste(sheet, dust(i), 64 + i * 8, 48)
        paste(sheet, sparkle(i, 8), 64 + i * 8, 56)
    return sheet


def draw_platforms() -> np.ndarray:
    """Moving platforms: machines, so they never read as the static planks and blocks of the tileset.
    Row y 0: the solid lift, a steel slab with hazard-striped ends. Row y 8: the one-way lift, a wooden
    deck bolted onto a steel girder with a lamp on each end. Both have rollers hanging under the caps."""
    sheet = canvas(48, 16)
    solid = ascii_art(
        [
            "oooooooooooooooo",
            "LLLLLLLLLLLLLLLL",
            "lllllllLllllllll",
            "llSSlllllllSSlll",
            "SSSSSSSSSSSSSSSS",
            "ssssssssssssssss",
            "oooooooooooooooo",
            "................",
        ],
        T,
        8,
        "platform",
    )
    deck = ascii_art(
        [
            "oooooooooooooooo",
            "TTTTTTTbTTTTTTTT",
            "tttttttbtttttttt",
            "oooooooooooooooo",
            "SlSSSSSSSlSSSSSS",
            "ssssssssssssssss",
            "oooooooooooooooo",
            "................",
        ],
        T,
        8,
        "moving deck",
    )
    for part in range(3):  # left cap, middle, right cap
        for row, a0 in ((0, solid), (1, deck)):
            a = a0.copy()
            if part != 1:
                edge = 0 if part == 0 else T - 1
                a[0:7, edge] = IDX["o"]
                a[0, edge] = a[6, edge] = 0
                cols = range(1, 6) if part == 0 else range(T - 6, T - 1)
                if row == 0:  # hazard stripes on the slab's ends
                    for x in cols:
                        for y in range(1, 6):
                            a[y, x] = IDX["y"] if (x + y) % 4 < 2 else IDX["o"]
                else:
                    a[4, 3 if part == 0 else T - 4] = IDX["Y"]  # a lamp on the girder
                a[7, (4 if part == 0 else T - 7) : (7 if part == 0 else T - 4)] = [IDX["o"], IDX["l"], IDX["o"]]
            paste(sheet, a, part * T, row * 8)
    return sheet


# --------------------------------------------------------------------------------------------------
# Level objects (objects.png, laid out by game/window/render/kinds.py OBJECT_FRAMES): enemies, turrets,
# bullets, springs, crumbling ground, breakable blocks, vines, the hit puff.
# --------------------------------------------------------------------------------------------------
def _eye(a: np.ndarray, x: int, y: int, look: int = 1, angry: bool = True) -> None:
    """A 2x3 white eye with its pupil on the ``look`` side and, when angry, a brow slanting down inward."""
    rect(a, x, y, 2, 3, "w")
    a[y + 1 : y + 3, x + (1 if look > 0 else 0)] = IDX["o"]
    if angry:
        a[y - 1, x] = a[y - 1, x + 1] = IDX["o"]
        a[y, x + (0 if look > 0 else 1)] = IDX["o"]


def walker(frame: int | None) -> np.ndarray:
    """A grumpy purple beetle, 16x16 facing right, its 14x12 body box bottom-centred. ``frame`` 0..3 walks
    (feet swap, the shell bobs); None is the stomped, flattened one."""
    a = canvas(T, T)
    if frame is None:
        ball(a, 8, 13.5, 7.2, 2.8, "pPm", light=(-0.4, -0.9))
        a = outline(a)
        for x in (5, 10):  # dizzy eyes: little crosses
            a[12, x] = a[14, x] = a[12, x + 2] = a[14, x + 2] = a[13, x + 1] = IDX["o"]
        rect(a, 0, 15, 3, 1, "n")
        rect(a, 13, 15, 3, 1, "n")
        return a
    bob = 1 if frame % 2 else 0
    # a stride: feet apart, the back one lifted and swinging forward, together, the front one lifted
    feet = [((2, 0), (11, 0)), ((5, 2), (10, 0)), ((6, 0), (8, 0)), ((3, 0), (9, 2))][frame]
    ball(a, 7.5, 10 + bob, 6.6, 5.6, "pPPm")
    a[14 + bob :, :] = 0  # a flat belly: the legs show under the dome
    rect(a, 2, 13 + bob, 12, 1, "p")
    for x, y in ((4, 7), (7, 6), (5, 10)):  # spots on the shell
        a[y + bob, x : x + 2] = IDX["p"]
    for x, lift in feet:
        rect(a, x, 14 - lift, 3, 2, "S")
    a = outline(a)
    a[2 + bob, 6:8] = IDX["o"]  # feelers
    a[1 + bob, 5] = a[1 + bob, 9] = IDX["y"]
    a[2 + bob, 5] = a[2 + bob, 8] = IDX["o"]
    _eye(a, 9, 8 + bob)
    _eye(a, 12, 8 + bob)
    a[12 + bob, 10:13] = IDX["o"]  # a frown
    for x, lift in feet:  # shoes
        rect(a, x, 15 - lift, 3, 1, "l")
        a[14 - lift, x] = IDX["S"]
    return a


def hopper(pose: str) -> np.ndarray:
    """A green frog, 16x16 facing right, its 12x12 body box bottom-centred: idle, crouch, jump, fall, land,
    stomped."""
    a = canvas(T, T)
    if pose == "stomped":
        ball(a, 8, 13.6, 7.0, 2.6, "gGh", light=(-0.4, -0.9))
        a = outline(a)
        for x in (5, 10):
            a[12, x] = a[14, x] = a[12, x + 2] = a[14, x + 2] = a[13, x + 1] = IDX["o"]
        return a
    # (body centre y, body half-width, half-height, legs: "tucked" | "down" | "out")
    cy, rx, ry, legs = {"idle": (11.0, 6.0, 4.2, "tucked"), "crouch": (12.2, 6.8, 3.4, "tucked"),
                        "jump": (8.5, 4.8, 5.0, "down"), "fall": (9.5, 5.6, 4.4, "out"),
                        "land": (12.6, 7.2, 3.0, "tucked")}[pose]
    if legs == "tucked":
        ball(a, 8 - rx + 1.5, 14, 2.6, 1.8, "gG")
        ball(a, 8 + rx - 1.5, 14, 2.6, 1.8, "gG")
    elif legs == "down":
        rect(a, 4, int(cy + ry - 1), 2, 16 - int(cy + ry - 1), "g")
        rect(a, 10, int(cy + ry - 1), 2, 16 - int(cy + ry - 1), "g")
    else:
        for x0, dx in ((5, -1), (10, 1)):
            for k in range(4):
                a[min(15, int(cy + ry) - 1 + k), x0 + dx * k] = IDX["g"]
                a[min(15, int(cy + ry) - 1 + k), x0 + dx * k + 1] = IDX["g"]
    ball(a, 8, cy, rx, ry, "gGGh")
    belly = _ellipse(T, T, 8.5, cy + ry * 0.45, rx * 0.65, ry * 0.45)
    a[belly & (a != 0)] = IDX["c"]
    top = int(cy - ry)
    for ex in (6, 10):  # eyes bulging above the head
        ball(a, ex + 0.5, top + 1.2, 1.9, 1.9, "Gh")
    a = outline(a)
    for ex in (6, 10):
        rect(a, ex, top, 2, 2, "w")
        a[top + 1, ex + 1] = IDX["o"]
    a[int(cy) + 1, 9:14] = IDX["g"]  # the wide mouth
    a[int(cy), 14 if rx > 6 else 13] = IDX["g"]
    return a


def flyer(frame: int | None) -> np.ndarray:
    """A bat, 16x16 facing right, its 14x10 body box centred: ``frame`` 0..3 flaps (up, middle, down,
    middle); None is the stomped one, wings drooping, eyes crossed."""
    a = canvas(T, T)
    lift = [-5, -1, 3, -1][2 if frame is None else frame]  # wing tips: y offset from the shoulder
    for k in range(6):  # each wing: a bone from the shoulder to the tip, the membrane hanging under it
        bone = 7 + round(lift * (k + 1) / 6)
        depth = max(1, 4 - k // 2 - (1 if k % 2 else 0))  # scalloped, thinning to the tip
        for x in (5 - k, 10 + k):
            a[bone : min(T, bone + depth + 1), x] = IDX["p"]
            a[bone, x] = IDX["P"]  # the wing's bone, lit
    ball(a, 7.5, 8.5, 3.4, 3.4, "sSl")
    a[4:6, 5] = IDX["S"]  # ears
    a[4:6, 10] = IDX["S"]
    a = outline(a)
    if frame is None:
        for cx in (7, 10):  # crossed-out eyes
            for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):
                a[8 + dy, cx + dx] = IDX["o"]
        return a
    a[7:9, 8] = a[7:9, 10] = IDX["Y"]  # glowing eyes, looking right
    a[8, 9] = IDX["S"]
    a[10, 9] = IDX["w"]  # a fang
    return a


def turret(firing: bool) -> np.ndarray:
    """A wall gun facing right, 16x16: a riveted steel housing, a barrel to the right edge and a red
    sensor; firing: the barrel recoils a pixel and a flash fills its mouth."""
    a = canvas(T, T)
    rect(a, 1, 2, 10, 12, "S")
    rect(a, 1, 2, 10, 1, "L")
    rect(a, 1, 3, 1, 11, "l")
    rect(a, 1, 13, 10, 1, "s")
    rect(a, 10, 3, 1, 11, "s")
    for x, y in ((2, 3), (9, 3), (2, 12), (9, 12)):
        a[y, x] = IDX["l"]
    end = 14 if firing else 15
    rect(a, 10, 6, end - 10, 4, "l")
    rect(a, 10, 6, end - 10, 1, "L")
    rect(a, 10, 9, end - 10, 1, "s")
    a[7:9, end - 1] = IDX["o"]
    a = outline(a)
    ball(a, 5.5, 8, 2.0, 2.0, "rRm")
    a[7, 5] = IDX["w"]
    if firing:
        a[6:10, 15] = IDX["Y"]
        a[7:9, 14] = IDX["w"]
        a[5, 15] = a[10, 15] = IDX["y"]
    return a


def bullet(frame: int) -> np.ndarray:
    """A shot, 8x8 centred: a hot orange core with a dark rim; the two frames flicker."""
    a = canvas(8, 8)
    ball(a, 4, 4, 2.9 if frame == 0 else 2.6, 2.9 if frame == 0 else 2.6, "rROY", light=(-0.5, -0.6))
    a = outline(a)
    a[3, 3] = IDX["w"]
    if frame == 1:
        a[2, 4] = IDX["Y"]
    return a


def puff(frame: int) -> np.ndarray:
    """A stomp or hit: puffs of cloud bursting outwards with a few sparks, 16x16 centred."""
    a = canvas(T, T)
    if frame == 0:  # the flash of the hit: a white star with a soft core
        ball(a, 8, 8, 3.2, 3.0, "cw")
        for d in range(1, 7):
            for x, y in ((8 + d, 8), (8 - d - 1, 8), (8, 8 + d), (8, 8 - d - 1)):
                if 0 <= x < T and 0 <= y < T:
                    a[y, x] = IDX["w"] if d < 5 else IDX["Y"]
        return a
    radius, size = [(0, 0), (4.8, 2.3), (5.8, 1.8), (6.6, 1.1)][frame]
    for k in range(6):
        ang = k * math.pi / 3 + 0.4
        ball(a, 8 + radius * math.cos(ang), 8 + radius * math.sin(ang) * 0.8, size, size * 0.9,
             "Lcw" if frame < 3 else "lL")
    if frame < 3:
        for k in range(4):
            ang = k * math.pi / 2 + 0.8
            x, y = round(8 + (radius + 2) * math.cos(ang)), round(8 + (radius + 2) * math.sin(ang))
            if 0 <= x < T and 0 <= y < T:
                a[y, x] = IDX["Y"]
    return a


def spring(pose: str) -> np.ndarray:
    """A spring, 16x16 standing on the bottom row: base plate, steel coil and a red pad whose top is at
    y 8 at rest (its box: the lower half tile), y 11 compressed, y 2 extended."""
    a = canvas(T, T)
    pad = {"rest": 8, "compressed": 11, "extended": 2}[pose]
    rect(a, 2, 14, 12, 2, "s")
    rect(a, 2, 14, 12, 1, "S")
    for y in range(pad + 2, 14):  # the coil: bright front loops over the dark back of the next
        if (14 - y) % 2 == 1:
            rect(a, 4, y, 8, 1, "L")
            a[y, 4] = a[y, 11] = IDX["l"]
        else:
            rect(a, 5, y, 6, 1, "s")
    rect(a, 1, pad, 14, 2, "R")
    rect(a, 2, pad, 12, 1, "m")
    rect(a, 1, pad + 1, 14, 1, "r")
    return outline(a)


def _stone(a: np.ndarray, x0: int, y0: int, w: int, h: int, ramp: str = "KTc") -> None:
    """A bevelled block: ``ramp`` = shade, face, light."""
    rect(a, x0, y0, w, h, ramp[1])
    rect(a, x0, y0, w, 1, ramp[2])
    rect(a, x0, y0, 1, h, ramp[2])
    rect(a, x0, y0 + h - 1, w, 1, ramp[0])
    rect(a, x0 + w - 1, y0, 1, h, ramp[0])


CRACKS = [  # crack paths added at each stage, as (x, y) pixels
    [(6, 1), (6, 2), (7, 3), (7, 4), (8, 5)],
    [(8, 6), (9, 7), (9, 8), (10, 9), (3, 9), (4, 10), (5, 10), (6, 11), (12, 2), (11, 3)],
    [(10, 10), (11, 11), (11, 12), (12, 13), (6, 12), (5, 13), (2, 4), (3, 5), (13, 6), (12, 7), (8, 13)],
]


def crumble_block(stage: int) -> np.ndarray:
    """Cracked sandstone, 16x16 and opaque (a solid tile): stage 0 intact (a hairline crack says it is
    fragile), 1..3 ever more cracked, the last with chunks gone from its corners."""
    a = canvas(T, T)
    rect(a, 0, 0, T, T, "b")
    _stone(a, 1, 1, 14, 14)
    rng = np.random.default_rng(SEED + 40)
    for _ in range(7):
        x, y = rng.integers(2, 13), rng.integers(3, 13)
        a[y, x] = IDX["K"]
    for x, y in CRACKS[0][: 3 if stage == 0 else None]:
        a[y, x] = IDX["b"]
    for s in range(1, stage + 1):
        for x, y in CRACKS[s - 1] + CRACKS[min(s, 2)]:
            a[y, x] = IDX["b"]
            if s >= 2 and 0 < x < 15:
                a[y, x + 1] = IDX["K"] if a[y, x + 1] == IDX["T"] else a[y, x + 1]
    if stage == 3:
        for x, y in ((0, 0), (1, 0), (0, 1), (15, 15), (14, 15), (15, 14), (15, 0)):
            a[y, x] = 0
    return a


def crumble_plank(stage: int) -> np.ndarray:
    """A pale, split wooden plank in the top 8 px (a one-way tile), cracking like the block."""
    a = canvas(T, T)
    rect(a, 0, 0, T, 6, "c")
    rect(a, 0, 0, T, 1, "w")
    rect(a, 0, 4, T, 2, "K")
    rect(a, 0, 6, T, 1, "b")
    a[1:4, 0] = IDX["K"]
    a[1:4, T - 1] = IDX["K"]
    for x in (4, 11):  # split grain
        a[2, x : x + 3] = IDX["T"]
    splits = [[(7, 1), (8, 2)], [(3, 3), (4, 4), (12, 1), (12, 2), (13, 3)],
              [(7, 3), (6, 4), (9, 1), (10, 2), (1, 1), (2, 2)], [(4, 1), (5, 2), (14, 4), (13, 5), (11, 4)]]
    for s in range(stage + 1):  # jagged splits, more at every stage
        for x, y in splits[s]:
            a[y, x] = IDX["b"]
    a[6, 2:4] = IDX["B"]
    a[6, 12:14] = IDX["B"]
    rect(a, 2, 7, 2, 1, "b")
    rect(a, 12, 7, 2, 1, "b")
    if stage == 3:
        a[0:2, 0] = a[0:2, 15] = 0
    return a


def debris(kind: str, i: int) -> np.ndarray:
    """One chunk, 8x8 centred, of what a crumble block, plank or breakable block falls apart into."""
    a = canvas(8, 8)
    shapes = [[(2, 2, 4, 3)], [(2, 3, 3, 3), (4, 2, 2, 2)], [(3, 2, 3, 4)], [(2, 3, 4, 2), (3, 5, 1, 1)]]
    ramp = {"crumble": "KTc", "plank": "KcK", "breakable": "eEO"}[kind]
    for x, y, w, h in shapes[i]:
        rect(a, x, y, w, h, ramp[1])
        a[y, x] = IDX[ramp[2]]
        a[y + h - 1, x + w - 1] = IDX[ramp[0]]
    return outline(a, "b")


def breakable_block(coin: bool) -> np.ndarray:
    """Warm clay bricks, 16x16 and opaque (a solid tile), clearly not the grey stone bricks; one that
    hides a coin has a glint of gold in the mortar."""
    a = canvas(T, T)
    rect(a, 0, 0, T, T, "B")
    for row, y in enumerate((1, 6, 11)):
        h = 4
        off = 0 if row % 2 == 0 else 4
        for x0 in range(-8 + off, T, 8):
            x, w = max(x0 + 1, 1), min(x0 + 8, T - 1) - max(x0 + 1, 1)
            if w > 0:
                _stone(a, x, y, w, h, "eEO")
    rect(a, 0, 0, T, 1, "o")
    rect(a, 0, 0, 1, T, "o")
    rect(a, 0, T - 1, T, 1, "o")
    rect(a, T - 1, 0, 1, T, "o")
    if coin:
        a[5, 9] = IDX["Y"]
        a[10, 4] = IDX["y"]
    return a


VINE_PARTS = [
    ["gGGGGGg.", ".gGhGg..", "..gGg...", "...G....", "...G....", "........", "........", "........"],  # tuft
    ["........", "........", ".hhh....", "hhhGG...", ".GGGgG..", "...gg...", "........", "........"],  # leaf
    ["........", "........", "........", "..hh....", ".hGGG...", "..g.....", "........", "........"],  # small
    ["........", "........", "...G....", "..PmP...", "...PG...", "...G....", "........", "........"],  # tip
]


def vine_part(i: int) -> np.ndarray:
    """Vine pieces, 8x8, the rope joint they sit on at (4, 4): 0 the tuft it hangs from (over the
    ceiling's edge), 1/2 a leaf to the left/right, 3/4 a small leaf, 5 the tip with its flower. The stem
    between joints is drawn as a line."""
    rows = VINE_PARTS[{0: 0, 1: 1, 2: 1, 3: 2, 4: 2, 5: 3}[i]]
    a = ascii_art(rows, 8, 8, "vine")
    if i == 0:
        a = shift(a, 2, 0, 0)  # the tuft hangs below the anchor, its top row on the ceiling's edge
    if i in (2, 4):
        a = a[:, ::-1].copy()
        a = shift(a, 0, 1, 0)  # mirrored about the joint column
    return outline(a, "d")


def object_frames() -> dict[str, list[np.ndarray]]:
    """Every frame of objects.png by the names of game/window/render/kinds.py's table."""
    return {
        "walker_walk": [walker(i) for i in range(4)],
        "walker_stomped": [walker(None)],
        **{f"hopper_{p}": [hopper(p)] for p in ("idle", "crouch", "jump", "fall", "land", "stomped")},
        "flyer_fly": [flyer(i) for i in range(4)],
        "flyer_stomped": [flyer(None)],
        "turret_right": [turret(False), turret(True)],
        "turret_left": [turret(False)[:, ::-1].copy(), turret(True)[:, ::-1].copy()],
        "turret_up": [np.rot90(turret(False)).copy(), np.rot90(turret(True)).copy()],
        "turret_down": [np.rot90(turret(False), -1).copy(), np.rot90(turret(True), -1).copy()],
        "bullet": [bullet(0), bullet(1)],
        "puff": [puff(i) for i in range(4)],
        "spring": [spring(p) for p in ("rest", "compressed", "extended")],
        "crumble": [crumble_block(s) for s in range(4)],
        "crumble_debris": [debris("crumble", i) for i in range(4)],
        "crumble_plank": [crumble_plank(s) for s in range(4)],
        "plank_debris": [debris("plank", i) for i in range(4)],
        "breakable": [breakable_block(False), breakable_block(True)],
        "breakable_debris": [debris("breakable", i) for i in range(4)],
        "vine": [vine_part(i) for i in range(6)],
    }


def draw_objects() -> np.ndarray:
    w, h = SHEET_SIZE
    sheet = canvas(w, h)
    frames = object_frames()
    assert set(frames) == set(OBJECT_FRAMES), set(frames) ^ set(OBJECT_FRAMES)
    for name, (x, y, fw, fh, n, _what) in OBJECT_FRAMES.items():
        assert len(frames[name]) == n, name
        for i, f in enumerate(frames[name]):
            assert f.shape == (fh, fw), (name, f.shape)
            sheet[y : y + fh, x + i * fw : x + (i + 1) * fw] = f
    return sheet


def _periodic_noise(width: int, harmonics, rng) -> np.ndarray:
    x = np.arange(width)
    y = np.zeros(width)
    for k, amp in harmonics:
        y += amp * np.sin(2 * np.pi * k * x / width + rng.uniform(0, 2 * np.pi))
    return y


def draw_bg_far() -> np.ndarray:
    W, H = 480, 270
    rng = np.random.default_rng(SEED + 100)
    yy, xx = np.mgrid[0:H, 0:W]
    bands = "nspPmT"  # dusk: navy at the top to warm sand at the horizon
    t = np.clip((yy / (H * 0.68)) ** 1.15, 0, 1) * (len(bands) - 1)
    level = np.clip(np.floor(t + BAYER4[yy % 4, xx % 4] - 0.5), 0, len(bands) - 1).astype(int)
    a = np.array([IDX[c] for c in bands], np.uint8)[level]
    # stars in the upper sky
    for _ in range(70):
        x, y = int(rng.integers(0, W)), int(rng.integers(0, 90))
        a[y, x] = IDX["L"] if rng.random() < 0.7 else IDX["w"]
    for x, y in ((60, 22), (250, 40), (400, 16)):
        a[y, x - 1 : x + 2] = IDX["w"]
        a[y - 1 : y + 2, x] = IDX["w"]
    # sun low on the horizon
    ball(a, 330, 158, 22, 22, "yYY", light=(0.0, -0.9))
    # streaky clouds
    for cy, cx, ln in ((136, 300, 70), (148, 372, 40), (112, 90, 80), (124, 150, 50), (90, 420, 60)):
        for k in range(ln):
            x = (cx + k) % W
            a[cy, x] = IDX["m"] if cy > 130 else IDX["P"]
            if 5 < k < ln - 8:
                a[cy + 1, x] = IDX["P"] if cy > 130 else IDX["p"]
    # far mountains (two ranges, tileable)
    far = 150 + _periodic_noise(W, [(2, 14), (5, 8), (11, 4), (23, 1.5)], rng)
    near = 178 + _periodic_noise(W, [(3, 12), (7, 6), (13, 3), (29, 1.2)], rng)
    for x in range(W):
        f, n = int(far[x]), int(near[x])
        a[f:, x] = IDX["p"]
        a[f, x] = IDX["P"]
        a[n:, x] = IDX["s"]
        if far[x] < far[x - 1]:
            a[f + 1, x] = IDX["P"]
        a[n, x] = IDX["p"]
    # snow caps on the far peaks
    for x in range(W):
        f = int(far[x])
        if f < 140:
            a[f : min(f + (140 - f) // 2 + 1, H), x] = np.where(
                (np.arange(f, min(f + (140 - f) // 2 + 1, H)) + x) % 3 == 0, IDX["m"], IDX["c"]
            )
    return a


def draw_bg_near() -> np.ndarray:
    W, H = 480, 270
    rng = np.random.default_rng(SEED + 200)
    a = canvas(W, H)
    hills = 200 + _periodic_noise(W, [(2, 10), (4, 6), (9, 3)], rng)
    for x in range(W):
        h = int(hills[x])
        a[h:, x] = IDX["d"]
        a[h, x] = IDX["g"]
    # trees: round ones and pines, wrapping around the edges
    for _ in range(26):
        x = int(rng.integers(0, W))
        base = int(hills[x]) + 3
        tree = canvas(24, 48)
        if rng.random() < 0.5:
            h = int(rng.integers(20, 34))
            for y in range(h):
                half = (y / h) * 8 * (0.75 + 0.25 * ((y % 6) / 5))
                rect(tree, int(12 - half), 48 - 4 - h + y, max(1, int(2 * half)), 1, "d")
            rect(tree, 11, 44, 2, 4, "n")
            tree[48 - 4 - h + 1 : 44, 11] = np.where(tree[48 - 4 - h + 1 : 44, 11] != 0, IDX["g"], 0)
        else:
            r = float(rng.uniform(6, 9))
            ball(tree, 12, 44 - r - 6, r, r, "ddg", light=(-0.5, -0.8))
            ball(tree, 8, 44 - r, r * 0.7, r * 0.7, "ddg", light=(-0.5, -0.8))
            rect(tree, 11, 44 - 6, 2, 10, "n")
        for dx in (-W, 0, W):
            paste(a, tree, x - 12 + dx, base - 48)
    # a hint of grass on the hill tops
    for x in range(W):
        h = int(hills[x])
        if (x * 7) % 11 == 0 and a[h - 1, x] == 0:
            a[h - 1, x] = IDX["g"]
    return a


# -- the other worlds' backdrops (game/window/render/worlds.py picks them by the map's `world`) -------------
def _sky(H: int, W: int, bands: str, reach: float, power: float = 1.15) -> np.ndarray:
    yy, xx = np.mgrid[0:H, 0:W]
    t = np.clip((yy / (H * reach)) ** power, 0, 1) * (len(bands) - 1)
    level = np.clip(np.floor(t + BAYER4[yy % 4, xx % 4] - 0.5), 0, len(bands) - 1).astype(int)
    return np.array([IDX[c] for c in bands], np.uint8)[level]


def _cloud(a: np.ndarray, cx: float, cy: float, size: float, ramp: str, rng) -> None:
    W = a.shape[1]
    for k in range(5):
        dx = (k - 2) * size * 0.9
        r = size * (1.0 - abs(k - 2) * 0.22)
        for wrap in (-W, 0, W):
            ball(a, cx + dx + wrap, cy - r * 0.35, r, r * 0.7, ramp, light=(-0.2, -0.95))
    rect(a, int(cx - size * 2.4), int(cy), int(size * 4.8), 1, ramp[0])


def draw_bg_day_far() -> np.ndarray:
    """Hills by day: a clear blue sky, fat clouds, far green-blue ridges."""
    W, H = 480, 270
    rng = np.random.default_rng(SEED + 300)
    a = _sky(H, W, "uUCL", 0.8, 1.4)
    for cx, cy, size in ((70, 60, 11), (230, 38, 8), (350, 82, 13), (440, 30, 7), (150, 110, 6)):
        _cloud(a, cx, cy, size, "lLww", rng)
    far = 168 + _periodic_noise(W, [(2, 16), (5, 7), (11, 3), (23, 1.2)], rng)
    near = 196 + _periodic_noise(W, [(3, 10), (7, 5), (13, 2.5)], rng)
    for x in range(W):
        f, n = int(far[x]), int(near[x])
        a[f:, x] = IDX["S"]
        a[f, x] = IDX["l"]
        a[n:, x] = IDX["g"]
        a[n, x] = IDX["G"]
    return a


def draw_bg_day_near() -> np.ndarray:
    """Hills by day, near layer: bright rolling hills with round trees and a few fences."""
    W, H = 480, 270
    rng = np.random.default_rng(SEED + 301)
    a = canvas(W, H)
    hills = 206 + _periodic_noise(W, [(2, 12), (4, 6), (9, 2.5)], rng)
    for x in range(W):
        h = int(hills[x])
        a[h:, x] = IDX["G"]
        a[h:h + 2, x] = IDX["h"]
        a[h + 14:, x] = IDX["g"]
    for _ in range(18):
        x = int(rng.integers(0, W))
        base = int(hills[x]) + 4
        tree = canvas(24, 48)
        r = float(rng.uniform(6, 9))
        rect(tree, 11, 44 - 8, 2, 12, "b")
        ball(tree, 12, 44 - r - 6, r, r, "gGh", light=(-0.5, -0.8))
        tree = outline(tree, "d")
        for dx in (-W, 0, W):
            paste(a, tree, x - 12 + dx, base - 48)
    return a


def draw_bg_night_far() -> np.ndarray:
    """The snowy summit at night: deep navy, a big moon, many stars, white peaks."""
    W, H = 480, 270
    rng = np.random.default_rng(SEED + 400)
    a = _sky(H, W, "onsS", 0.85, 1.3)
    for _ in range(160):
        x, y = int(rng.integers(0, W)), int(rng.integers(0, 150))
        a[y, x] = IDX["l"] if rng.random() < 0.6 else (IDX["L"] if rng.random() < 0.7 else IDX["w"])
    for x, y in ((40, 30), (190, 18), (300, 60), (430, 44), (120, 90)):
        a[y, x - 1 : x + 2] = IDX["w"]
        a[y - 1 : y + 2, x] = IDX["w"]
    ball(a, 360, 62, 26, 26, "SlLLw", light=(-0.5, -0.5))  # the moon, craters
    for cx, cy, r in ((352, 56, 4), (370, 70, 3), (362, 48, 2), (346, 72, 2)):
        ball(a, cx, cy, r, r, "lL", light=(0.5, 0.5))
    far = 150 + _periodic_noise(W, [(2, 22), (5, 10), (11, 5), (23, 2)], rng)
    near = 186 + _periodic_noise(W, [(3, 14), (7, 7), (13, 3), (29, 1.2)], rng)
    for x in range(W):
        f, n = int(far[x]), int(near[x])
        a[f:, x] = IDX["s"]
        cap = max(2, int((170 - f) * 0.7))
        a[f : f + cap, x] = np.where((np.arange(f, f + cap) + x) % 4 == 0, IDX["l"], IDX["L"])
        a[f, x] = IDX["w"]
        a[n:, x] = IDX["n"]
        a[n : n + 3, x] = IDX["S"]
        a[n, x] = IDX["l"]
    return a


def draw_bg_night_near() -> np.ndarray:
    """Night, near layer: snowdrifts and snow-laden pines in silhouette."""
    W, H = 480, 270
    rng = np.random.default_rng(SEED + 401)
    a = canvas(W, H)
    hills = 204 + _periodic_noise(W, [(2, 10), (4, 6), (9, 3)], rng)
    for x in range(W):
        h = int(hills[x])
        a[h:, x] = IDX["s"]
        a[h : h + 3, x] = IDX["l"]
        a[h, x] = IDX["L"]
    for _ in range(30):
        x = int(rng.integers(0, W))
        base = int(hills[x]) + 3
        tree = canvas(24, 48)
        h = int(rng.integers(18, 36))
        for y in range(h):
            half = (y / h) * 8 * (0.75 + 0.25 * ((y % 6) / 5))
            rect(tree, int(12 - half), 48 - 4 - h + y, max(1, int(2 * half)), 1, "n")
            if y % 6 == 0 and y > 2:  # snow on each tier
                rect(tree, int(12 - half), 48 - 4 - h + y, max(1, int(2 * half)), 1, "L")
        rect(tree, 11, 44, 2, 4, "o")
        for dx in (-W, 0, W):
            paste(a, tree, x - 12 + dx, base - 48)
    return a


def draw_bg_tower_far() -> np.ndarray:
    """Inside the tower (a tall climb): a far wall of dark bricks with tall arched windows of moonlit
    sky, tileable both ways (the layer repeats up the whole shaft)."""
    W, H = 480, 270
    a = canvas(W, H)
    a[:, :] = IDX["o"]
    for y in range(H):  # bricks: 12x6, offset every other course
        for x in range(W):
            off = 6 if (y // 6) % 2 else 0
            if y % 6 == 5 or (x + off) % 12 == 11:
                continue
            a[y, x] = IDX["n"] if (x // 12 + y // 6 * 7) % 5 else IDX["s"]
    for wx in (60, 220, 380):  # windows: 40 wide, an arch on top, bars, the night outside
        top, bottom = 40, 200
        win = canvas(44, bottom - top + 24)
        ball(win, 22, 22, 20, 20, "n")
        rect(win, 2, 22, 40, bottom - top, "n")
        inside = win != 0
        sky = _sky(win.shape[0], 44, "nsS", 1.0)
        win[inside] = sky[inside]
        for sx, sy in ((10, 30), (30, 60), (16, 90), (26, 130), (8, 150)):
            win[sy, sx] = IDX["L"]
        win = outline(win, "p")
        win[:, 21:23][inside[:, 21:23]] = IDX["o"]  # mullion
        for by in range(40, win.shape[0], 36):
            win[by, :][inside[by, :]] = IDX["o"]
        win = outline(win, "S")
        paste(a, win, wx - 22, top - 22)
        rect(a, wx - 26, bottom + 2, 52, 4, "S")  # the sill
        rect(a, wx - 26, bottom + 2, 52, 1, "l")
    return a


def draw_bg_tower_near() -> np.ndarray:
    """Inside the tower, near layer: stone pillars with beams between them and shafts of moonlight
    falling from the windows (translucent), tileable both ways."""
    W, H = 480, 270
    a = canvas(W, H)
    yy, xx = np.mgrid[0:H, 0:W]
    for wx in (60, 220, 380):  # light shafts: slanted bands under each far window, soft edges
        d = (xx - wx - yy * 160 / H) % W  # one window spacing per picture height: it tiles up and down
        d = np.minimum(d, W - d)
        a[(d < 26) & (a == 0)] = IDX["q"]
        a[(d < 14)] = IDX["Q"]
    for px in (140, 300, 460):  # pillars: dark, a dim lit left edge, a carved band every 54 px
        rect(a, px - 12, 0, 24, H, "n")
        rect(a, px - 12, 0, 2, H, "s")
        rect(a, px + 10, 0, 2, H, "o")
        for by in range(0, H, 54):
            rect(a, px - 13, by, 26, 4, "s")
            rect(a, px - 13, by + 3, 26, 1, "o")
    for cx in (60, 220, 380):  # chains hanging in the shafts: links every 6 px, never a ledge to stand on
        for y in range(0, H, 6):
            a[y : y + 4, cx - 1] = IDX["s"]
            a[y : y + 4, cx + 1] = IDX["s"]
            a[y, cx] = a[y + 3, cx] = IDX["s"]
            a[y + 4 : y + 6, cx] = IDX["S"]
    return a


STRIP_SCALE, STRIP_GAP = 6, 2  # px: frames scaled up, a gap (in frame px) between them


def _strip(frames: list[np.ndarray]) -> np.ndarray:
    """Frames side by side on a dark backing, each scaled STRIP_SCALE times (palette indices)."""
    h = max(f.shape[0] for f in frames)
    w = sum(f.shape[1] for f in frames) + STRIP_GAP * (len(frames) + 1)
    a = np.full((h + 2 * STRIP_GAP, w), IDX["s"], np.uint8)
    x = STRIP_GAP
    for f in frames:
        fh, fw = f.shape
        cell = a[STRIP_GAP + h - fh : STRIP_GAP + h, x : x + fw]
        cell[:] = np.where(f != 0, f, IDX["S"])
        x += fw + STRIP_GAP
    return np.kron(a, np.ones((STRIP_SCALE, STRIP_SCALE), np.uint8))


def animation_strips() -> dict[str, np.ndarray]:
    """docs/img's frame strips: the hero's run, its moves, and the enemies' cycles."""
    sheet = draw_player()
    rows = {name: [sheet[r * PH : (r + 1) * PH, i * PW : (i + 1) * PW] for i in range(n)]
            for r, (name, n) in enumerate(PLAYER_ROWS)}
    objs = object_frames()
    return {
        "anim_run.png": _strip(rows["run"]),
        "anim_moves.png": _strip(rows["idle"][:1] + rows["skid"] + rows["takeoff"] + rows["jump"] + rows["fall"]
                                 + rows["land"] + rows["wall"] + rows["walljump"] + rows["dash"]),
        "anim_enemies.png": _strip(objs["walker_walk"] + [objs[f"hopper_{p}"][0] for p in
                                                          ("idle", "crouch", "jump", "fall", "land")]
                                   + objs["flyer_fly"] + objs["turret_right"]),
    }


# --------------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=pathlib.Path, help="write everything into this directory")
    ap.add_argument("--strips", type=pathlib.Path, metavar="DIR",
                    help="write only the animation strips (frames side by side, scaled up) into DIR, e.g. docs/img")
    args = ap.parse_args(argv)
    if args.strips:
        args.strips.mkdir(parents=True, exist_ok=True)
        for name, strip in animation_strips().items():
            save_png(strip, args.strips / name)
            print(f"wrote {args.strips / name}")
        return 0
    assets = args.out or ROOT / "assets"
    tsx_path = (args.out / "tileset.tsx") if args.out else ROOT / "levels" / "tileset.tsx"
    assets.mkdir(parents=True, exist_ok=True)
    tsx_path.parent.mkdir(parents=True, exist_ok=True)

    sheet, table = draw_tileset()
    save_png(sheet, assets / "tiles.png")
    tsx_path.write_text(tileset_tsx(table, sheet.shape[1], sheet.shape[0]), encoding="utf-8")
    for name, fn in EXTRA_SHEETS.items():
        save_png(fn(), assets / name)
    (assets / "README.md").write_text(readme(table), encoding="utf-8")
    print(f"wrote {len(EXTRA_SHEETS) + 1} PNGs and README.md to {assets}, tileset to {tsx_path}")
    return 0


EXTRA_SHEETS: dict = {
    "player.png": draw_player,
    "items.png": draw_items,
    "platform.png": draw_platforms,
    "objects.png": draw_objects,
    "bg_far.png": draw_bg_far,
    "bg_near.png": draw_bg_near,
    "bg_day_far.png": draw_bg_day_far,
    "bg_day_near.png": draw_bg_day_near,
    "bg_night_far.png": draw_bg_night_far,
    "bg_night_near.png": draw_bg_night_near,
    "bg_tower_far.png": draw_bg_tower_far,
    "bg_tower_near.png": draw_bg_tower_near,
    "icon.png": draw_icon,
}


ITEM_RECTS = [  # (name, x, y, w, h, frames, step_x) in items.png
    ("coin spin", 0, 0, 16, 16, 6, 16),
    ("coin pickup sparkle", 96, 0, 16, 16, 2, 16),
    ("checkpoint flag down (grey, low)", 0, 16, 16, 32, 1, 16),
    ("checkpoint flag raised (waving loop)", 16, 16, 16, 32, 3, 16),
    ("goal portal arch (shimmer loop)", 64, 16, 32, 32, 2, 32),
    ("spikes up, down, left, right", 0, 48, 16, 16, 4, 16),
    ("dust puff (grow->fade)", 64, 48, 8, 8, 4, 8),
    ("sparkle particle (big->small)", 64, 56, 8, 8, 4, 8),
]


def readme(table: list) -> str:
    L = [
        "# assets/ — generated art",
        "",
        "Everything here (and `levels/tileset.tsx`) is drawn by `tools/make_art.py`; do not edit the PNGs by",
        "hand. Regenerate with:",
        "",
        "```",
        "python tools/make_art.py              # assets/*.png, assets/README.md, levels/tileset.tsx",
        "python tools/make_art.py --out /tmp/a # same files into another directory",
        "```",
        "",
        "The output is deterministic (fixed seeds), so",
        "`tests/game/window/test_art.py` checks that the committed files",
        "match a fresh run. Palette: [Endesga",
        "32](https://lospec.com/palette-list/endesga-32) by ENDESGA, plus",
        "translucent water blues. To restyle, edit `_HEX` (the palette) or the drawing functions and rerun.",
        "All sheets are RGBA PNGs with transparent backgrounds (except `bg_far.png`, which is opaque).",
        "",
        "## tiles.png + levels/tileset.tsx",
        "",
        f"16x16 tiles, {COLUMNS} columns, {len(table) // COLUMNS} rows; tile id",
        f"= row * {COLUMNS} + column; in a",
        "`.tmx` CSV layer, gid = firstgid + id (firstgid is 1 when the tileset is the map's first).",
        "`tileset.tsx` gives each collidable tile the string property `collision` = `solid`, `one_way` or",
        "`slope`; slope tiles also have int `slope_left` / `slope_right` = surface height in px above the",
        "tile's bottom at its left / right edge. Tiles without `collision` are decoration (use them on",
        "non-collision layers). One-way planks are drawn in the top 8 px of their tile; the collision top is",
        "the tile's top edge.",
        "",
        "Terrain is drawn for these neighbours: use `grass_t` on top of a ground mass, `wall_l`/`wall_r` on",
        "its sides, `fill` inside, `ceil*` on undersides, `inner_*` at concave corners. A slope tile sits",
        "on top of its `under*` tile (same column, one row down). A 45° ramp going up to the right is a",
        "diagonal of `slope45_r` tiles, each with `under45_r` below it and `fill` below that; the shallow",
        "ramp is the pair `slope22_r1` (0->8) then `slope22_r2` (8->16) on the same row. Mirror for",
        "`_l`. The flat ground at the top of a ramp is `grass_t`; at the foot, the ground continues with",
        "`grass_t` one row lower.",
        "",
        "Animated tiles (Tiled `<animation>` on the first frame; place the first id):",
        "",
    ]
    names = [t[0] for t in table]
    for frames, ms in ANIMATIONS.values():
        L.append(f"- `{names[frames[0]]}` id {frames[0]}: frames {frames} every {ms} ms")
    L += ["", "| id | name | collision | slope L/R | what |", "| --- | --- | --- | --- | --- |"]
    for tid, (name, _, props, desc) in enumerate(table):
        if name.startswith("empty_"):
            continue
        col = props.get("collision", "")
        sl = f"{props['slope_left']}/{props['slope_right']}" if col == "slope" else ""
        L.append(f"| {tid} | `{name}` | {col} | {sl} | {desc} |")
    empty = [tid for tid, t in enumerate(table) if t[0].startswith("empty_")]
    if empty:
        L.append(f"\nIds {empty[0]}..{empty[-1]} are empty (reserved).")
    L += [
        "",
        "## player.png",
        "",
        f"Frames {PW}x{PH} px, one animation per row, frame i of row r at `({PW}*i, {PH}*r)`. Facing right",
        "(flip horizontally for left). The 10x14 collision box is",
        "bottom-centred: frame rect x 3..12, y 6..19",
        "(draw the frame at `(box.x - 3, box.y - 6)`); the feet are on the frame's bottom row. The scarf's",
        "band is drawn; its tail is not: the game draws it trailing with the motion, knotted at the band's",
        "leftmost orange pixel.",
        "",
        "| row | y | animation | frames | suggested timing |",
        "| --- | --- | --- | --- | --- |",
    ]
    timing = {
        "idle": "160 ms each, loop",
        "run": "70 ms each, loop (contact, down, passing, up, twice)",
        "jump": "0 rising fast, 1 near apex",
        "fall": "100 ms each, loop",
        "land": "60 ms each, once",
        "death": "90 ms each, once",
        "skid": "while turning at speed (facing the new way)",
        "takeoff": "the first 50 ms of a jump (anticipation)",
        "wall": "120 ms each, loop, while sliding down a wall on the right",
        "dash": "50 ms each, loop, while dashing",
        "walljump": "kicking off a wall (on the left), while rising",
    }
    for r, (name, n) in enumerate(PLAYER_ROWS):
        L.append(f"| {r} | {r * PH} | {name} | {n} | {timing[name]} |")
    L += [
        "",
        "## items.png (128x64)",
        "",
        "| what | first frame rect (x, y, w, h) | frames | next frame |",
        "| --- | --- | --- | --- |",
    ]
    for name, x, y, w, h, n, step in ITEM_RECTS:
        L.append(f"| {name} | ({x}, {y}, {w}, {h}) | {n} | x + {step} |")
    L += [
        "",
        "Coin: draw the 16x16 frame centred on the coin's area (the coin itself is about 12x12). Checkpoint",
        "flag 16x32: the pole stands at x 3..4, its base on the bottom row;",
        "align the frame's bottom with the",
        "checkpoint's bottom. Goal 32x32: the arch's bottom row is the ground",
        "line. Spikes: the art fills the",
        "lower 12 px (tips at y 4) of the 16x16 tile pointing up (rotate for",
        "the others); a fair hazard box is",
        "the lower ~10 px. The same spikes are tiles 68..71 of the tileset.",
        "",
        "## platform.png (48x16)",
        "",
        "3-slice moving platforms, 16x8 pieces: row y 0 = solid (steel slab with hazard-striped ends),",
        "row y 8 = one-way (wooden deck on a steel girder with a lamp at each end). Both have a roller",
        "hanging under each cap, so they never look like the static planks and blocks of the tileset.",
        "x 0 = left cap, x 16 = middle (repeat), x 32 = right cap. A platform W px wide draws the",
        "left cap, (W - 32) / 16 middles, the right cap (make platforms 8 px tall and a multiple of 16 wide;",
        "a 16 px platform: left cap's left half + right cap's right half). The body is the top 7 px; the",
        "rollers hang in the 8th row. The game draws a rail along each platform's route behind it.",
        "",
        "## objects.png",
        "",
        f"{SHEET_SIZE[0]}x{SHEET_SIZE[1]} px: the level objects (`game/window/render/kinds.py` draws them; its table",
        "`OBJECT_FRAMES` is this layout). Every frame faces right: mirror it for left.",
        "",
        "| name | first frame rect (x, y, w, h) | frames | what |",
        "| --- | --- | --- | --- |",
        *[f"| `{name}` | ({f.x}, {f.y}, {f.w}, {f.h}) | {f.count} | {f.what} |" for name, f in OBJECT_FRAMES.items()],
        "",
        "## Backgrounds",
        "",
        "- `bg_far.png` 480x270, opaque: dusk sky gradient, stars, setting sun, two mountain ranges. Tiles",
        "  horizontally. Use a small parallax factor (about 0.1-0.2) and anchor its bottom to the canvas",
        "  bottom (or to the map bottom). Top colour `#262b44`: use it as the map background colour.",
        "- `bg_near.png` 480x270, transparent above the hills: forested hills (hill tops around y 200-225).",
        "  Tiles horizontally; parallax factor about 0.4-0.5.",
        "- `bg_day_far.png`, `bg_day_near.png`: the `day` world (blue sky, clouds, bright hills and round trees).",
        "- `bg_night_far.png`, `bg_night_near.png`: the `night` world (moon, stars, snowy peaks, snowy pines).",
        "- `bg_tower_far.png`, `bg_tower_near.png`: the `tower` world, tileable both ways: a brick wall with",
        "  tall moonlit windows (far, opaque); pillars, chains and translucent shafts of light (near).",
        "- `icon.png` 32x32: the window icon.",
        "",
    ]
    return "\n".join(L)


if __name__ == "__main__":
    sys.exit(main())
