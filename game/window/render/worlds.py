"""The visual worlds (a map's ``world`` property): each world's backdrop pictures and its tile variant.

A world's backdrop is two parallax pictures (``assets/bg_*``, painted by ``tools/make_art.py``); the maps
made by ``tools/make_levels.py`` carry them as image layers, and a map without image layers gets its
world's pair as the default backdrop. Its tiles are the one tileset recoloured: the art is drawn in a
fixed palette (Endesga 32), so a world is a palette swap of the terrain colours -- fresh grass by day,
moss on stone in the tower, snow on frozen rock on the summit. And its air: snow falling at night, motes
drifting in the tower's light, fireflies at dusk (:func:`draw_ambience`).
"""

from __future__ import annotations

import math

import numpy as np
import pygame

from game.files.levelkinds import WORLDS

__all__ = ["WORLDS", "BACKDROPS", "TILE_COLOURS", "AMBIENCE", "recolour", "recolour_images", "draw_ambience"]

# world -> (far picture, near picture) in assets/
BACKDROPS: dict[str, tuple[str, str]] = {
    "dusk": ("bg_far.png", "bg_near.png"),
    "day": ("bg_day_far.png", "bg_day_near.png"),
    "tower": ("bg_tower_far.png", "bg_tower_near.png"),
    "night": ("bg_night_far.png", "bg_night_near.png"),
}

_P = {  # the palette colours the terrain is drawn in (tools/make_art.py _HEX)
    "grass_hi": 0x63c74d, "grass": 0x3e8948, "grass_lo": 0x265c42, "leaf_dark": 0x193c3e,
    "earth": 0x733e39, "earth_dark": 0x3e2731, "earth_hi": 0xb86f50, "earth_top": 0xe4a672,
    "rust": 0xbe4a2f, "rust_hi": 0xd77643,
}
# world -> {from rgb: to rgb}: the tiles' terrain colours in that world (a world not listed keeps the art)
TILE_COLOURS: dict[str, dict[int, int]] = {
    "day": {_P["earth"]: 0x8a4b3c, _P["earth_dark"]: 0x5a3036, _P["grass"]: 0x4fa64a, _P["grass_lo"]: 0x2f7044},
    "tower": {_P["grass_hi"]: 0x3e8948, _P["grass"]: 0x265c42, _P["grass_lo"]: 0x193c3e,
              _P["earth"]: 0x5a6988, _P["earth_dark"]: 0x3a4466, _P["earth_hi"]: 0x8b9bb4,
              _P["earth_top"]: 0xc0cbdc, _P["rust"]: 0x5a6988, _P["rust_hi"]: 0x8b9bb4},
    "night": {_P["grass_hi"]: 0xffffff, _P["grass"]: 0xc0cbdc, _P["grass_lo"]: 0x8b9bb4,
              _P["leaf_dark"]: 0x5a6988, _P["earth"]: 0x3a4466, _P["earth_dark"]: 0x262b44,
              _P["earth_hi"]: 0x5a6988, _P["earth_top"]: 0x8b9bb4, _P["rust"]: 0x3a4466, _P["rust_hi"]: 0x5a6988},
}
assert set(BACKDROPS) == set(WORLDS) and set(TILE_COLOURS) <= set(WORLDS)


def recolour(img: pygame.Surface, world: str) -> pygame.Surface:
    """A copy of ``img`` with the world's terrain colours swapped in (alpha kept); ``img`` itself when the
    world changes nothing."""
    table = TILE_COLOURS.get(world)
    if not table:
        return img
    out = img.convert_alpha() if pygame.display.get_surface() is not None else img.copy()
    if out is img:
        out = img.copy()
    rgb = pygame.surfarray.pixels3d(out)
    packed = (rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8) | rgb[..., 2]
    for src, dst in table.items():
        hit = packed == src
        if hit.any():
            rgb[hit] = ((dst >> 16) & 255, (dst >> 8) & 255, dst & 255)
    del rgb
    return out


def recolour_images(images: list, world: str) -> list:
    """The tile images of a map (pytmx's ``images``, None where no tile) in the world's colours; one copy
    per distinct picture."""
    if not TILE_COLOURS.get(world):
        return images
    done: dict[int, pygame.Surface] = {}
    out = []
    for img in images:
        if isinstance(img, pygame.Surface):
            if id(img) not in done:
                done[id(img)] = recolour(img, world)
            out.append(done[id(img)])
        else:
            out.append(img)
    return out


# world -> (count, colours, fall speed px/s, sway px, parallax, size px): what drifts in the air, in front
AMBIENCE: dict[str, tuple[int, tuple, float, float, float, int]] = {
    "night": (48, ((255, 255, 255), (192, 203, 220)), 22.0, 6.0, 0.9, 1),  # snow
    "tower": (18, ((254, 231, 97), (234, 212, 170)), -4.0, 3.0, 0.7, 1),  # dust motes in the light
    "dusk": (10, ((254, 231, 97), (99, 199, 77)), -2.0, 8.0, 0.8, 1),  # fireflies
}


def draw_ambience(surf: pygame.Surface, world: str, cam_x: float, cam_y: float, t: float) -> None:
    """The world's air: snow at night, motes in the tower's light, fireflies at dusk (none by day). Each
    speck's place is a function of the time and the camera only (nothing to step, the same every run)."""
    spec = AMBIENCE.get(world)
    if spec is None:
        return
    count, colours, fall, sway, parallax, size = spec
    w, h = surf.get_size()
    span_w, span_h = w + 32, h + 32
    for i in range(count):
        seed = (i * 2654435761) & 0xFFFFFFFF
        x0, y0 = seed % span_w, (seed >> 12) % span_h
        phase = (seed >> 7) % 628 / 100.0
        x = (x0 - cam_x * parallax + sway * math.sin(t * (0.6 + (i % 5) * 0.15) + phase)) % span_w - 16
        y = (y0 - cam_y * parallax + fall * t * (0.7 + (i % 3) * 0.2)) % span_h - 16
        if world == "dusk" and math.sin(t * 2.2 + phase * 3) < 0.2:
            continue  # a firefly glows now and then
        surf.fill(colours[i % len(colours)], (round(x), round(y), size + (i % 4 == 0), size + (i % 4 == 0)))
