"""The tile map, drawn layer by layer in Tiled's order with parallax, opacity and animated tiles.

Consecutive tile layers that share parallax and offset (nothing drawn between them) are one
:class:`~game.window.render.tilecache.TileGroup`: a single cached picture in chunks, so a frame costs a few
blits per group however many layers and tiles there are (see tilecache.py for how the pixels stay
exactly those of drawing every tile). Image layers draw with Tiled's ``repeatx``/``repeaty``. Parallax
follows Tiled: a layer with factor f is drawn at ``world - camera * f`` (Tiled: offset = camera x (1 - f)).

The game's sprites (player, coins, platforms...) are drawn where the FIRST object layer sits in the
file's order, so tile layers above it (foliage, "fg") cover the player. A map without image layers gets
its world's backdrop (render/worlds.py; assets/bg_far.png and bg_near.png for the default, dusk) behind
everything. The tiles are drawn in the map's world's colours (``world`` property, render/worlds.py).

Tiles can change at run time: :meth:`MapRenderer.set_tile` (or edit the pytmx layer's ``data`` and call
:meth:`MapRenderer.invalidate`) repaints only the changed cells in the chunks already built.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame
import pytmx

from game.files.levelkinds import KINDS
from .tilecache import CACHE_BYTES, CHUNK, TileGroup, TileImages, fast_surface
from .worlds import recolour_images

__all__ = ["MapRenderer", "GAME_CLASSES", "object_class", "parse_color", "visible_layers", "layer_image",
           "decor_items", "draw_image_layer", "draw_backdrop", "draw_below"]

GAME_CLASSES = {k.name for k in KINDS if not k.decor}  # tile objects the game draws itself
BACKDROP = ((0.15, 0.08), (0.4, 0.25))  # (parallax x, parallax y) of the default bg_far and bg_near


def object_class(obj) -> str:
    return (getattr(obj, "type", None) or getattr(obj, "class", None) or "").strip().lower()


def _f(value, default: float) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def _visible(layer) -> bool:
    return str(getattr(layer, "visible", 1)).lower() not in ("0", "false")


def _flag(value) -> bool:
    return str(value).lower() in ("1", "true")


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


def placement(layer) -> tuple[float, float, float, float]:
    """A layer's (parallax x, parallax y, offset x, offset y)."""
    return (_f(getattr(layer, "parallaxx", 1), 1.0), _f(getattr(layer, "parallaxy", 1), 1.0),
            _f(getattr(layer, "offsetx", 0), 0.0), _f(getattr(layer, "offsety", 0), 0.0))


def visible_layers(level) -> list:
    """The map's visible layers in Tiled's drawing order (pytmx groups them by kind; the level file's
    ``layer_order`` has the real order). Layers ``layer_order`` misses keep pytmx's order, after."""
    by_name: dict[str, list] = {}
    for layer in level.tmx.layers:
        by_name.setdefault(layer.name, []).append(layer)
    layers = []
    for name in getattr(level, "layer_order", None) or []:
        if by_name.get(name):
            layers.append(by_name[name].pop(0))
    for rest in by_name.values():
        layers.extend(rest)
    return [layer for layer in layers if _visible(layer)]


def layer_image(tmx, layer):
    """The image layer's picture, read from its file: pytmx 3.32 can hand back a tile instead when
    the layer's image id collides with a tile's gid."""
    source = getattr(layer, "source", None)
    filename = getattr(tmx, "filename", None)
    if source and filename:
        path = Path(filename).parent / source
        try:
            img = pygame.image.load(str(path))
            return img.convert_alpha() if pygame.display.get_surface() is not None else img
        except (pygame.error, FileNotFoundError, OSError):
            pass
    return layer.image


def decor_items(layer) -> list:
    """(x, y, image) of the tile objects of an object layer that are not game objects (drawn as art)."""
    out = []
    for obj in layer:
        if getattr(obj, "gid", 0) and object_class(obj) not in GAME_CLASSES and obj.image:
            img = obj.image
            if (img.get_width(), img.get_height()) != (int(obj.width), int(obj.height)) \
                    and obj.width and obj.height:
                img = pygame.transform.scale(img, (int(obj.width), int(obj.height)))
            out.append((obj.x, obj.y, img))  # pytmx already moved y to the top
    return out


def image_layer_origin(layer, cam_x: int, cam_y: int) -> tuple[int, int]:
    return round(layer.ox - cam_x * layer.px), round(layer.oy - cam_y * layer.py)


def draw_image_layer(surf, layer, img, cam_x: int, cam_y: int) -> None:
    """Draw ``img`` as the image layer ``layer`` (a :class:`_ImageLayer`), repeated as Tiled says."""
    w, h = img.get_size()
    vw, vh = surf.get_size()
    x, y = image_layer_origin(layer, cam_x, cam_y)
    xs = range(x % w - w if layer.repeat_x else x, vw if layer.repeat_x else x + 1, w)
    ys = range(y % h - h if layer.repeat_y else y, vh if layer.repeat_y else y + 1, h)
    surf.fblits([(img, (xx, yy)) for yy in ys for xx in xs])


def draw_backdrop(surf, far, near, map_height: int, cam_x: int, cam_y: int) -> None:
    """The default two-layer parallax backdrop, anchored to the map's bottom. It covers the whole view
    when ``far`` is given (its top and bottom rows are stretched over what the picture does not reach)."""
    vw, vh = surf.get_size()
    max_y = max(0, map_height - vh)
    for img, (fx, fy), is_far in ((far, BACKDROP[0], True), (near, BACKDROP[1], False)):
        if img is None:
            continue
        w, h = img.get_size()
        y = vh - h + round((max_y - cam_y) * fy)
        if is_far:
            if y > 0:
                surf.fill(img.get_at((0, 0))[:3], (0, 0, vw, y))
            if y + h < vh:
                surf.fill(img.get_at((0, h - 1))[:3], (0, y + h, vw, vh - y - h))
        x = -round(cam_x * fx) % w - w
        surf.fblits([(img, (xx, y)) for xx in range(x, vw, w)])


BELOW_SHADE = (24, 20, 37)  # the dark under the map where a pit goes on down


def draw_below(surf, map_height: int, ts: int, layers, images, cam_x: int, cam_y: int) -> None:
    """Under the bottom edge of a map taller than the view (the camera may look a little past it,
    ``CameraTuning.below``): a dark fill, and the bottom row of each of ``layers`` (the tile layers drawn
    before the sprites, at parallax 1, not offset) repeated on down, so the ground goes on and a pit stays
    a pit. A map no taller than the view is centred by the camera: nothing is drawn."""
    vw, vh = surf.get_size()
    bottom = map_height - cam_y
    if bottom >= vh or map_height <= vh:
        return
    top = max(0, bottom)
    surf.fill(BELOW_SHADE, (0, top, vw, vh - top))
    c0, c1 = max(0, cam_x // ts), (cam_x + vw) // ts + 1
    for layer in layers:
        row = layer.data[-1] if layer.data else ()
        surf.fblits([(images[gid], (c * ts - cam_x, y)) for c in range(c0, min(c1, len(row)))
                     if (gid := row[c]) and 0 < gid < len(images) and images[gid] is not None
                     for y in range(bottom, vh, ts)])


def fill_outside(surf, color, rect: pygame.Rect) -> None:
    """Fill the part of ``surf`` that ``rect`` does not cover (at most four strips)."""
    view = surf.get_rect()
    inner = rect.clip(view)
    if not inner.width or not inner.height:
        surf.fill(color)
        return
    if inner.top > 0:
        surf.fill(color, (0, 0, view.width, inner.top))
    if inner.bottom < view.height:
        surf.fill(color, (0, inner.bottom, view.width, view.height - inner.bottom))
    if inner.left > 0:
        surf.fill(color, (0, inner.top, inner.left, inner.height))
    if inner.right < view.width:
        surf.fill(color, (inner.right, inner.top, view.width - inner.right, inner.height))


@dataclass
class _ImageLayer:
    image: pygame.Surface  # as loaded (the reference renderer draws this one)
    fast: pygame.Surface  # the same pixels in the quickest form to blit
    opaque: bool  # no transparent pixel: covers what it is drawn over
    px: float
    py: float
    ox: float
    oy: float
    repeat_x: bool
    repeat_y: bool

    def cover(self, cam_x: int, cam_y: int, view: pygame.Rect) -> pygame.Rect:
        """The part of the view this layer paints over."""
        x, y = image_layer_origin(self, cam_x, cam_y)
        w, h = self.fast.get_size()
        return pygame.Rect(view.x if self.repeat_x else x, view.y if self.repeat_y else y,
                           view.width if self.repeat_x else w, view.height if self.repeat_y else h)


@dataclass
class _Decor:  # tile objects on object layers that are not game objects: drawn as their tile
    items: list  # (x, y, image)


class _Entities:  # marker: the game's sprites go here
    pass


class MapRenderer:
    """Draws a level's map. ``chunk`` (px) and ``budget`` (bytes of cached chunk pixels) tune the cache."""

    def __init__(self, level, art=None, *, chunk: int = CHUNK, budget: int = CACHE_BYTES):
        self.level = level
        tmx = level.tmx
        self.tmx = tmx
        self.ts = level.tile_size
        self.background = parse_color(getattr(tmx, "background_color", None)) or (92, 148, 204)
        self.world = getattr(level, "world", "dusk") or "dusk"
        if getattr(tmx, "images", None) and getattr(tmx, "tilefeel_world", "dusk") != self.world:
            tmx.images = recolour_images(tmx.images, self.world)  # the world's tile variant, once per map
            tmx.tilefeel_world = self.world
        self.tiles = TileImages(tmx, self.ts)
        self.layers: list = []
        self.groups: list[TileGroup] = []
        self._by_layer: dict[int, TileGroup] = {}  # id(pytmx layer) -> its group
        self._default_backdrop = art
        self._build(chunk, budget)

    # -- set-up ---------------------------------------------------------------------------------------
    def _build(self, chunk: int, budget: int) -> None:
        tmx = self.tmx
        size = (int(getattr(tmx, "width", 0) or 0), int(getattr(tmx, "height", 0) or 0)) or None
        runs: list[tuple[list, tuple, float]] = []  # (layers, placement, opacity): one group each
        placed = has_image = False
        for layer in visible_layers(self.level):
            if isinstance(layer, pytmx.TiledTileLayer):
                where = placement(layer)
                opacity = _f(getattr(layer, "opacity", 1), 1.0)
                last = runs[-1] if runs and self.layers and self.layers[-1] is runs[-1] else None
                if last is not None and last[1] == where and last[2] >= 1 and opacity >= 1:
                    last[0].append(layer)
                else:
                    runs.append(([layer], where, opacity))
                    self.layers.append(runs[-1])
            elif isinstance(layer, pytmx.TiledImageLayer):
                img = layer_image(tmx, layer)
                if isinstance(img, pygame.Surface):
                    has_image = True
                    px, py, ox, oy = placement(layer)
                    self.layers.append(_ImageLayer(img, *fast_surface(img), px, py, ox, oy,
                                                   _flag(getattr(layer, "repeatx", 0)),
                                                   _flag(getattr(layer, "repeaty", 0))))
            elif isinstance(layer, pytmx.TiledObjectGroup):
                decor = decor_items(layer)
                if decor:
                    self.layers.append(_Decor([(x, y, fast_surface(img)[0]) for x, y, img in decor]))
                if not placed:
                    self.layers.append(_Entities())
                    placed = True
        if not placed:
            self.layers.append(_Entities())
        self.backdrop = not has_image and self._default_backdrop is not None
        if self.backdrop:
            art = self._default_backdrop
            pair = art.backdrop(self.world) if hasattr(art, "backdrop") else (art.bg_far, art.bg_near)
            self._backdrop = tuple(fast_surface(img)[0] if img is not None else None for img in pair)
        share = budget // max(1, len(runs))
        for i, item in enumerate(self.layers):
            if isinstance(item, tuple):
                layers, (px, py, ox, oy), opacity = item
                backed = i == 0 and not self.backdrop  # nothing under it but the background colour
                group = TileGroup(layers, self.tiles, parallax=(px, py), offset=(ox, oy), opacity=opacity,
                                  backing=self.background if backed else None, chunk=chunk, budget=share,
                                  map_size=size if all(size) else None)
                self.layers[i] = group
                self.groups.append(group)
                for layer in layers:
                    self._by_layer[id(layer)] = group

    def has_tile(self, x: float, y: float) -> bool:
        """Whether any visible tile layer (drawn at parallax 1) has a tile at map point (x, y)."""
        c, r = int(x // self.ts), int(y // self.ts)
        for group in self.groups:
            if group.px == 1 and group.py == 1:
                for layer in group.layers:
                    data = layer.data
                    if 0 <= r < len(data) and 0 <= c < len(data[r]) and data[r][c]:
                        return True
        return False

    # -- run-time edits -------------------------------------------------------------------------------
    def _tile_layer(self, layer):
        if isinstance(layer, pytmx.TiledTileLayer):
            return layer
        for candidate in self.tmx.layers:
            if isinstance(candidate, pytmx.TiledTileLayer) and candidate.name == layer:
                return candidate
        names = ", ".join(repr(t.name) for t in self.tmx.layers if isinstance(t, pytmx.TiledTileLayer))
        raise ValueError(f"no tile layer named {layer!r} in this map; its tile layers are {names or 'none'}")

    def gid_for(self, tiled_gid: int) -> int:
        """pytmx's number for the tile Tiled calls ``tiled_gid`` (the tileset's firstgid + the tile's id):
        pytmx renumbers tiles, and loads only those the map uses somewhere (put the tiles you want to
        place in a hidden layer)."""
        found = self.tmx.map_gid(tiled_gid) if tiled_gid else [(0, None)]
        if not found:
            raise ValueError(f"tile {tiled_gid} is not loaded: the map never uses it; place it once in a "
                             f"hidden layer so that it is")
        return found[0][0]

    def tile_gid(self, layer, col: int, row: int) -> int:
        """The tile (pytmx's numbering, 0 = none) at (col, row) of ``layer`` (its name or the pytmx layer)."""
        data = self._tile_layer(layer).data
        return data[row][col] if 0 <= row < len(data) and 0 <= col < len(data[row]) else 0

    def set_tile(self, layer, col: int, row: int, gid: int) -> None:
        """Put tile ``gid`` (pytmx's numbering, as in the layers' ``data``; see :meth:`gid_for`; 0 = none)
        at (col, row) of ``layer`` (its name or the pytmx layer) and repaint that cell only."""
        target = self._tile_layer(layer)
        data = target.data
        if not (0 <= row < len(data) and 0 <= col < len(data[row])):
            raise ValueError(f"cell ({col}, {row}) is outside layer {target.name!r} "
                             f"({len(data[0]) if data else 0}x{len(data)} tiles)")
        images = self.tiles.images
        if not (isinstance(gid, int) and (gid == 0 or (0 < gid < len(images) and images[gid] is not None))):
            raise ValueError(f"gid {gid!r} is not a tile of this map (use 0 for none, or 1..{len(images) - 1})")
        data[row][col] = gid
        group = self._by_layer.get(id(target))
        if group is not None:
            group.refresh(col, row, col + 1, row + 1)

    def invalidate(self, col: int, row: int, cols: int = 1, rows: int = 1) -> None:
        """The tile data of cells [col, col + cols) x [row, row + rows) changed (in the pytmx layers):
        repaint those cells, in every layer, wherever they are cached."""
        for group in self.groups:
            group.refresh(col, row, col + cols, row + rows)

    # -- drawing --------------------------------------------------------------------------------------
    def draw(self, surf: pygame.Surface, cam_x: int, cam_y: int, t: float, draw_entities=None) -> None:
        """Draw every layer at camera (cam_x, cam_y) and time ``t`` (s, for animations);
        ``draw_entities(surf)`` is called where the sprites belong."""
        self._draw_base(surf, cam_x, cam_y)
        ms = int(t * 1000)
        for layer in self.layers:
            if isinstance(layer, TileGroup):
                layer.draw(surf, cam_x, cam_y, ms)
            elif isinstance(layer, _ImageLayer):
                draw_image_layer(surf, layer, layer.fast, cam_x, cam_y)
            elif isinstance(layer, _Decor):
                vw, vh = surf.get_size()
                surf.fblits([(img, (sx, sy)) for x, y, img in layer.items
                             if -img.get_width() < (sx := round(x) - cam_x) < vw
                             and -img.get_height() < (sy := round(y) - cam_y) < vh])
            else:
                self._draw_below(surf, cam_x, cam_y)
                if draw_entities is not None:
                    draw_entities(surf)

    def _draw_below(self, surf, cam_x: int, cam_y: int) -> None:
        layers = []
        for item in self.layers:
            if isinstance(item, _Entities):
                break
            if isinstance(item, TileGroup) and item.px == 1 and item.py == 1 and item.ox == 0 and item.oy == 0:
                layers.extend(item.layers)
        draw_below(surf, self.level.height, self.ts, layers, self.tiles.images, cam_x, cam_y)

    def _draw_base(self, surf, cam_x: int, cam_y: int) -> None:
        """The background colour (or the default backdrop), painted only where the first layer does not
        cover the view with opaque pixels anyway."""
        if self.backdrop:
            far, near = self._backdrop
            if far is None:
                surf.fill(self.background)
            draw_backdrop(surf, far, near, self.level.height, cam_x, cam_y)
            return
        first = self.layers[0] if self.layers else None
        if isinstance(first, TileGroup) and first.backing is not None:
            lx, ly = first.offset(cam_x, cam_y)
            fill_outside(surf, self.background, first.area.move(lx, ly))
        elif isinstance(first, _ImageLayer) and first.opaque:
            fill_outside(surf, self.background, first.cover(cam_x, cam_y, surf.get_rect()))
        else:
            surf.fill(self.background)
