"""The obvious map renderer: every visible tile of every layer blitted each frame, nothing cached.

It defines what :class:`~game.window.render.tilemap.MapRenderer` must draw (the tests compare the two pixel by
pixel) and is the naive baseline of ``python -m benchmarks``. Tiled's rules it follows: layers in file
order, parallax ``world - camera * factor``, tiles bottom-left aligned in their cell (larger tiles reach
up and right), each tile of a layer with opacity < 1 drawn at that opacity, animated tiles showing the
frame for time ``t``; and the game's own: the tiles in the map's world's colours, and under the bottom
edge of a map taller than the view the bottom row going on down (``draw_below``).
"""

from __future__ import annotations

import pygame
import pytmx

from .tilecache import TileImages
from .tilemap import (_f, _flag, decor_items, draw_backdrop, draw_below, layer_image, parse_color, placement,
                      visible_layers)
from .worlds import recolour_images

__all__ = ["ReferenceRenderer"]


class ReferenceRenderer:
    def __init__(self, level, art=None):
        self.level = level
        self.tmx = level.tmx
        self.ts = level.tile_size
        self.background = parse_color(getattr(self.tmx, "background_color", None)) or (92, 148, 204)
        world = getattr(level, "world", "dusk") or "dusk"
        if getattr(self.tmx, "images", None) and getattr(self.tmx, "tilefeel_world", "dusk") != world:
            self.tmx.images = recolour_images(self.tmx.images, world)  # the world's colours, as the game's
            self.tmx.tilefeel_world = world
        self.tiles = TileImages(self.tmx, self.ts)
        self.art = art
        self.layers = visible_layers(level)
        self.images = {id(layer): layer_image(self.tmx, layer) for layer in self.layers
                       if isinstance(layer, pytmx.TiledImageLayer)}
        self.backdrop = art is not None and not any(isinstance(img, pygame.Surface)
                                                    for img in self.images.values())

    def draw(self, surf: pygame.Surface, cam_x: int, cam_y: int, t: float, draw_entities=None) -> None:
        surf.fill(self.background)
        if self.backdrop:
            far, near = self.art.backdrop(getattr(self.level, "world", "dusk")) if hasattr(self.art, "backdrop") \
                else (self.art.bg_far, self.art.bg_near)
            draw_backdrop(surf, far, near, self.level.height, cam_x, cam_y)
        ms = int(t * 1000)
        entities_drawn = False
        below = []  # the tile layers under the sprites (at parallax 1): their bottom row goes on under the map
        for layer in self.layers:
            if isinstance(layer, pytmx.TiledTileLayer):
                self._draw_tiles(surf, layer, cam_x, cam_y, ms)
                if not entities_drawn and placement(layer) == (1.0, 1.0, 0.0, 0.0):
                    below.append(layer)
            elif isinstance(layer, pytmx.TiledImageLayer):
                img = self.images[id(layer)]
                if isinstance(img, pygame.Surface):
                    px, py, ox, oy = placement(layer)
                    rx, ry = _flag(getattr(layer, "repeatx", 0)), _flag(getattr(layer, "repeaty", 0))
                    w, h = img.get_size()
                    vw, vh = surf.get_size()
                    x = round(ox - cam_x * px)
                    y = round(oy - cam_y * py)
                    for yy in range(y % h - h if ry else y, vh if ry else y + 1, h):
                        for xx in range(x % w - w if rx else x, vw if rx else x + 1, w):
                            surf.blit(img, (xx, yy))
            elif isinstance(layer, pytmx.TiledObjectGroup):
                for x, y, img in decor_items(layer):
                    surf.blit(img, (round(x) - cam_x, round(y) - cam_y))
                if not entities_drawn:
                    entities_drawn = True
                    draw_below(surf, self.level.height, self.ts, below, self.tiles.images, cam_x, cam_y)
                    if draw_entities is not None:
                        draw_entities(surf)
        if not entities_drawn:
            draw_below(surf, self.level.height, self.ts, below, self.tiles.images, cam_x, cam_y)
            if draw_entities is not None:
                draw_entities(surf)

    def _draw_tiles(self, surf, layer, cam_x: int, cam_y: int, ms: int) -> None:
        ts, tiles = self.ts, self.tiles
        px, py, ox, oy = placement(layer)
        lx, ly = round(ox - cam_x * px), round(oy - cam_y * py)
        alpha = max(0, min(255, round(_f(getattr(layer, "opacity", 1), 1.0) * 255)))
        vw, vh = surf.get_size()
        c0 = max(0, (-lx - tiles.reach_x) // ts)
        r0 = max(0, -ly // ts)
        blits = []
        for r in range(r0, min(len(layer.data), (vh - ly + tiles.reach_y) // ts + 1)):
            row = layer.data[r]
            for c in range(c0, min(len(row), (vw - lx) // ts + 1)):
                img = tiles.image_at(row[c], ms)
                if img is not None:
                    if alpha < 255:
                        img = tiles.faded(img, alpha)
                    blits.append((img, (lx + c * ts, ly + (r + 1) * ts - img.get_height())))
        surf.fblits(blits)
