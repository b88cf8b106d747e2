"""The tile map, drawn layer by layer in Tiled's order with parallax, opacity and animated tiles.

Tile layers are pre-rendered lazily into 256x256 chunks, so a frame is a handful of blits per layer;
animated tiles are kept out of the chunks and drawn on top of their layer each frame. Image layers draw
with Tiled's ``repeatx``/``repeaty``. Parallax follows Tiled: a layer with factor f is drawn at
``world - camera * f`` (Tiled: offset = camera x (1 - f)).

The game's sprites (player, coins, platforms...) are drawn where the FIRST object layer sits in the
file's order, so tile layers above it (foliage, "fg") cover the player. A map without image layers gets
the default backdrop (assets/bg_far.png, bg_near.png) behind everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pathlib import Path

import pygame
import pytmx

__all__ = ["MapRenderer", "GAME_CLASSES", "object_class"]

CHUNK = 256
GAME_CLASSES = {"spawn", "goal", "checkpoint", "coin", "platform", "trigger"}


def object_class(obj) -> str:
    return (getattr(obj, "type", None) or getattr(obj, "class", None) or "").strip().lower()


def _f(value, default: float) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def _visible(layer) -> bool:
    return str(getattr(layer, "visible", 1)).lower() not in ("0", "false")


def parse_color(value) -> tuple[int, int, int] | None:
    """``'#rrggbb'`` or ``'#aarrggbb'`` (Tiled) -> (r, g, b)."""
    if not value or not isinstance(value, str):
        return None
    h = value.lstrip("#")
    if len(h) == 8:
        h = h[2:]
    try:
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    except ValueError:
        return None


def _frame_at(frames, k: int):
    """The image shown ``k`` ms into one cycle of ``[(image, ms), ...]``."""
    for img, ms in frames:
        if k < ms:
            return img
        k -= ms
    return frames[-1][0]


@dataclass
class _TileLayer:
    layer: object
    px: float
    py: float
    ox: float
    oy: float
    opacity: float
    chunks: dict = field(default_factory=dict)  # (cx, cy) -> Surface | None
    animated: list = field(default_factory=list)  # (x, y, [(image, ms)], total_ms)
    anim_gids: set = field(default_factory=set)  # gids drawn per frame instead of into chunks


@dataclass
class _ImageLayer:
    image: pygame.Surface
    px: float
    py: float
    ox: float
    oy: float
    repeat_x: bool
    repeat_y: bool


@dataclass
class _Decor:  # tile objects on object layers that are not game objects: drawn as their tile
    items: list  # (x, y, image)


class _Entities:  # marker: the game's sprites go here
    pass


class MapRenderer:
    def __init__(self, level, art=None):
        self.level = level
        tmx = level.tmx
        self.tmx = tmx
        self.ts = level.tile_size
        self.background = parse_color(getattr(tmx, "background_color", None)) or (92, 148, 204)
        self.layers: list = []
        self._default_backdrop = art
        self._build(list(getattr(level, "layer_order", None) or []))

    # -- set-up ---------------------------------------------------------------------------------------
    def _build(self, order: list[str]) -> None:
        by_name: dict[str, list] = {}
        for layer in self.tmx.layers:
            by_name.setdefault(layer.name, []).append(layer)
        layers = []
        for name in order:
            if by_name.get(name):
                layers.append(by_name[name].pop(0))
        for rest in by_name.values():  # anything layer_order missed keeps pytmx's order
            layers.extend(rest)
        placed = False
        has_image = False
        for layer in layers:
            if not _visible(layer):
                continue
            px = _f(getattr(layer, "parallaxx", 1), 1.0)
            py = _f(getattr(layer, "parallaxy", 1), 1.0)
            ox = _f(getattr(layer, "offsetx", 0), 0.0)
            oy = _f(getattr(layer, "offsety", 0), 0.0)
            if isinstance(layer, pytmx.TiledTileLayer):
                tl = _TileLayer(layer, px, py, ox, oy, _f(getattr(layer, "opacity", 1), 1.0))
                self._find_animated(tl)
                self.layers.append(tl)
            elif isinstance(layer, pytmx.TiledImageLayer):
                img = self._layer_image(layer)
                if isinstance(img, pygame.Surface):
                    has_image = True
                    self.layers.append(_ImageLayer(img, px, py, ox, oy,
                                                   str(getattr(layer, "repeatx", 0)) in ("1", "true"),
                                                   str(getattr(layer, "repeaty", 0)) in ("1", "true")))
            elif isinstance(layer, pytmx.TiledObjectGroup):
                decor = []
                for obj in layer:
                    if getattr(obj, "gid", 0) and object_class(obj) not in GAME_CLASSES and obj.image:
                        img = obj.image
                        if (img.get_width(), img.get_height()) != (int(obj.width), int(obj.height)) \
                                and obj.width and obj.height:
                            img = pygame.transform.scale(img, (int(obj.width), int(obj.height)))
                        decor.append((obj.x, obj.y, img))  # pytmx already moved y to the top
                if decor:
                    self.layers.append(_Decor(decor))
                if not placed:
                    self.layers.append(_Entities())
                    placed = True
        if not placed:
            self.layers.append(_Entities())
        self.backdrop = not has_image

    def _layer_image(self, layer):
        """The image layer's picture, read from its file: pytmx 3.32 can hand back a tile instead when
        the layer's image id collides with a tile's gid."""
        source = getattr(layer, "source", None)
        filename = getattr(self.tmx, "filename", None)
        if source and filename:
            path = Path(filename).parent / source
            try:
                img = pygame.image.load(str(path))
                return img.convert_alpha() if pygame.display.get_surface() is not None else img
            except (pygame.error, FileNotFoundError, OSError):
                pass
        return layer.image

    def _find_animated(self, tl: _TileLayer) -> None:
        anim_gids = {}
        for gid, props in getattr(self.tmx, "tile_properties", {}).items():
            frames = props.get("frames") if isinstance(props, dict) else None
            if frames:
                anim_gids[gid] = [(self.tmx.images[f.gid], max(1, int(f.duration))) for f in frames
                                  if self.tmx.images[f.gid] is not None]
        if not anim_gids:
            return
        tl.anim_gids = set(anim_gids)
        for y, row in enumerate(tl.layer.data):
            for x, gid in enumerate(row):
                if gid in anim_gids and anim_gids[gid]:
                    frames = anim_gids[gid]
                    tl.animated.append((x * self.ts, y * self.ts, frames, sum(ms for _, ms in frames)))

    def _chunk(self, tl: _TileLayer, cx: int, cy: int) -> pygame.Surface | None:
        key = (cx, cy)
        if key in tl.chunks:
            return tl.chunks[key]
        ts = self.ts
        data = tl.layer.data
        images = self.tmx.images
        surf = None
        c0, r0 = cx * CHUNK // ts, cy * CHUNK // ts
        blits = []
        for r in range(r0, min(r0 + CHUNK // ts, len(data))):
            row = data[r]
            for c in range(c0, min(c0 + CHUNK // ts, len(row))):
                gid = row[c]
                if gid and gid not in tl.anim_gids:
                    img = images[gid]
                    if img is not None:
                        blits.append((img, ((c - c0) * ts, (r - r0) * ts + ts - img.get_height())))
        if blits:
            surf = pygame.Surface((CHUNK, CHUNK), pygame.SRCALPHA)
            surf.blits(blits, doreturn=False)
            if pygame.display.get_surface() is not None:
                surf = surf.convert_alpha()
            if tl.opacity < 1:
                surf.set_alpha(round(tl.opacity * 255))
        tl.chunks[key] = surf
        return surf

    def has_tile(self, x: float, y: float) -> bool:
        """Whether any visible tile layer (drawn at parallax 1) has a tile at map point (x, y)."""
        c, r = int(x // self.ts), int(y // self.ts)
        for layer in self.layers:
            if isinstance(layer, _TileLayer) and layer.px == 1 and layer.py == 1:
                data = layer.layer.data
                if 0 <= r < len(data) and 0 <= c < len(data[r]) and data[r][c]:
                    return True
        return False

    # -- drawing --------------------------------------------------------------------------------------
    def draw(self, surf: pygame.Surface, cam_x: int, cam_y: int, t: float, draw_entities=None) -> None:
        """Draw every layer at camera (cam_x, cam_y) and time ``t`` (s, for animations);
        ``draw_entities(surf)`` is called where the sprites belong."""
        surf.fill(self.background)
        if self.backdrop and self._default_backdrop is not None:
            self._draw_backdrop(surf, cam_x, cam_y)
        vw, vh = surf.get_size()
        ms = int(t * 1000)
        for layer in self.layers:
            if isinstance(layer, _TileLayer):
                lx = round(layer.ox - cam_x * layer.px)
                ly = round(layer.oy - cam_y * layer.py)
                c0, c1 = (-lx) // CHUNK, (vw - lx - 1) // CHUNK
                r0, r1 = (-ly) // CHUNK, (vh - ly - 1) // CHUNK
                for cy in range(max(0, r0), r1 + 1):
                    for cx in range(max(0, c0), c1 + 1):
                        chunk = self._chunk(layer, cx, cy)
                        if chunk is not None:
                            surf.blit(chunk, (lx + cx * CHUNK, ly + cy * CHUNK))
                for x, y, frames, total in layer.animated:
                    sx, sy = x + lx, y + ly
                    if -self.ts < sx < vw and -self.ts < sy < vh:
                        img = _frame_at(frames, ms % total)
                        surf.blit(img, (sx, sy + self.ts - img.get_height()))
            elif isinstance(layer, _ImageLayer):
                self._draw_image(surf, layer, cam_x, cam_y)
            elif isinstance(layer, _Decor):
                for x, y, img in layer.items:
                    surf.blit(img, (round(x) - cam_x, round(y) - cam_y))
            elif draw_entities is not None:
                draw_entities(surf)

    def _draw_image(self, surf, layer: _ImageLayer, cam_x, cam_y) -> None:
        img = layer.image
        w, h = img.get_size()
        vw, vh = surf.get_size()
        x = round(layer.ox - cam_x * layer.px)
        y = round(layer.oy - cam_y * layer.py)
        xs = range(x % w - w if layer.repeat_x else x, vw if layer.repeat_x else x + 1, w)
        ys = range(y % h - h if layer.repeat_y else y, vh if layer.repeat_y else y + 1, h)
        for yy in ys:
            for xx in xs:
                surf.blit(img, (xx, yy))

    def _draw_backdrop(self, surf, cam_x, cam_y) -> None:
        """The default two-layer parallax backdrop, anchored to the map's bottom."""
        vw, vh = surf.get_size()
        max_y = max(0, self.level.height - vh)
        for img, fx, fy in ((self._default_backdrop.bg_far, 0.15, 0.08),
                            (self._default_backdrop.bg_near, 0.4, 0.25)):
            if img is None:
                continue
            w, h = img.get_size()
            y = vh - h + round((max_y - cam_y) * fy)
            if img is self._default_backdrop.bg_far:
                if y > 0:
                    surf.fill(img.get_at((0, 0))[:3], (0, 0, vw, y))
                if y + h < vh:
                    surf.fill(img.get_at((0, h - 1))[:3], (0, y + h, vw, vh - y - h))
            x = -round(cam_x * fx) % w - w
            while x < vw:
                surf.blit(img, (x, y))
                x += w
