"""Cached pictures of tile layers: a run of tile layers sharing parallax and offset, merged into chunks.

A :class:`TileGroup` draws its layers as a grid of ``chunk``-px pictures built the first time they are
seen (plus one neighbour a frame, ahead of the camera) and kept, least recently used dropped past a
memory budget. A frame is then a few blits per group, whatever the number of layers or tiles.

Pixels equal drawing every tile of every layer in Tiled's order (``reference.py``, checked by the tests):

* Each chunk is split by pixel: opaque pixels in a colour-keyed, RLE-encoded surface (a plain opaque one
  when it has no holes; none when it has no opaque pixel), translucent pixels in a separate alpha surface
  blitted over their bounding box only. Both blits copy exactly what a direct tile blit would produce.
* Tiles whose merged picture would differ are kept out of the chunks and drawn each frame on top, in
  Tiled's order ("overlay" tiles): animated tiles, any tile drawn over one of those, and a translucent
  tile over another translucent tile (blending is not associative). For grid-sized tiles this is decided
  per cell with numpy; maps with tiles larger than the grid use an exact pass over the tiles.
* A group that is the first thing drawn ("backed") bakes the map's background colour into its chunks,
  which are then fully opaque; a layer with opacity below 1 is a group of its own, drawn with surface
  alpha (Tiled applies layer opacity to each tile).

Runtime tile edits go through :meth:`TileGroup.refresh`: only the changed cells are repainted, in the
chunks already built, when those chunks are next drawn.
"""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
import pygame

__all__ = ["TileGroup", "TileImages", "CHUNK", "CACHE_BYTES"]

CHUNK = 256  # px, side of a cached chunk (rounded to whole tiles)
CACHE_BYTES = 64 << 20  # bytes of chunk pixels a renderer keeps before dropping the least recently used
_CLEAR = (0, 0, 0, 0)


def _display() -> bool:
    return pygame.display.get_init() and pygame.display.get_surface() is not None


def _opaque_surface(size) -> pygame.Surface:
    surf = pygame.Surface(size)
    return surf.convert() if _display() else surf


def _alpha_surface(size) -> pygame.Surface:
    surf = pygame.Surface(size, pygame.SRCALPHA)
    if _display():
        surf = surf.convert_alpha()
    surf.fill(_CLEAR)
    return surf


def alpha_values(img: pygame.Surface) -> np.ndarray | None:
    """The image's per-pixel alpha (w x h), or None when it has none (opaque or colour-keyed)."""
    if not img.get_flags() & pygame.SRCALPHA:
        return None
    return pygame.surfarray.array_alpha(img)


def is_translucent(img: pygame.Surface) -> bool:
    """Has pixels that are neither fully opaque nor fully transparent (blending them is order-sensitive)."""
    surface_alpha = img.get_alpha()
    if surface_alpha is not None and surface_alpha < 255 and not img.get_flags() & pygame.SRCALPHA:
        return True
    a = alpha_values(img)
    return a is not None and bool(((a > 0) & (a < 255)).any())


def _has_opaque(img: pygame.Surface, rgb) -> bool:
    """Does any fully opaque pixel of ``img`` have colour ``rgb``?"""
    if img.get_bitsize() != 32:
        px = pygame.surfarray.array3d(img)
        hit = (px[..., 0] == rgb[0]) & (px[..., 1] == rgb[1]) & (px[..., 2] == rgb[2])
        a = alpha_values(img)
        return bool((hit if a is None else hit & (a == 255)).any())
    r, g, b, a = img.get_masks()
    px = pygame.surfarray.pixels2d(img)  # a view: no copy
    hit = (px & (r | g | b)) == (img.map_rgb(rgb) & (r | g | b))
    if a and img.get_flags() & pygame.SRCALPHA:
        hit &= (px & a) == a
    found = bool(hit.any())
    del px
    return found


def free_colour(images, preferred=(255, 0, 255)) -> tuple[int, int, int]:
    """An RGB colour no opaque pixel of ``images`` has: safe as a colour key for pictures made of them."""
    images = list(images)
    value = (preferred[0] << 16) | (preferred[1] << 8) | preferred[2]
    while True:
        rgb = (value >> 16) & 255, (value >> 8) & 255, value & 255
        if not any(_has_opaque(img, rgb) for img in images):
            return rgb
        value = (value * 1103515245 + 12345) & 0xFFFFFF  # walk away from the preferred key


def fast_surface(img: pygame.Surface) -> tuple[pygame.Surface, bool]:
    """``(surface, opaque)``: the quickest surface that blits exactly like ``img``, and whether ``img``
    has no transparent pixel. Images without translucent pixels become colour-keyed, RLE-encoded
    surfaces (opaque ones too: SDL's plain copy is several times slower at some alignments on x86,
    see docs/speed.md); images with translucent pixels stay as they are."""
    a = alpha_values(img)
    opaque = a is None and img.get_colorkey() is None or a is not None and bool((a == 255).all())
    if not _display() or a is not None and ((a > 0) & (a < 255)).any():
        return img, opaque
    if a is None and img.get_colorkey() is not None:
        return img, False
    key = free_colour([img])
    out = _opaque_surface(img.get_size())
    out.fill(key)
    out.blit(img, (0, 0))
    out.set_colorkey(key, pygame.RLEACCEL)
    return out, opaque


def frame_at(frames, k: int):
    """The image shown ``k`` ms into one cycle of ``[(image, ms), ...]``."""
    for img, ms in frames:
        if k < ms:
            return img
        k -= ms
    return frames[-1][0]


class TileImages:
    """Per gid (pytmx's numbering): the image, animation frames, and lookup tables the groups classify
    tiles with. Shared by every group of a renderer."""

    def __init__(self, tmx, tile_size: int):
        self.tile_size = ts = tile_size
        images = list(getattr(tmx, "images", None) or [None])
        self.images = images
        n = len(images)
        self.frames: dict[int, list] = {}  # gid -> [(image, ms)]
        self.total: dict[int, int] = {}  # gid -> ms of one cycle
        for gid, props in (getattr(tmx, "tile_properties", None) or {}).items():
            frames = props.get("frames") if isinstance(props, dict) else None
            if frames and 0 < gid < n:
                seq = [(images[f.gid], max(1, int(f.duration))) for f in frames
                       if 0 <= f.gid < n and images[f.gid] is not None]
                if seq:
                    self.frames[gid] = seq
                    self.total[gid] = sum(ms for _, ms in seq)
        self.drawable = np.zeros(n, bool)
        self.animated = np.zeros(n, bool)
        self.translucent = np.zeros(n, bool)
        self.oversize = np.zeros(n, bool)
        self.wider = np.zeros(n, np.int64)  # px the image reaches right of its cell
        self.taller = np.zeros(n, np.int64)  # px the image reaches above its cell
        seen: dict[int, bool] = {}  # id(image) -> translucent

        def translucent(img) -> bool:
            if id(img) not in seen:
                seen[id(img)] = is_translucent(img)
            return seen[id(img)]

        self.reach_x = self.reach_y = 0  # px an image reaches right of / above its cell
        for gid, img in enumerate(images):
            if img is None or gid == 0:
                continue
            frames = self.frames.get(gid)
            shown = [f for f, _ in frames] if frames else [img]
            self.drawable[gid] = True
            self.animated[gid] = frames is not None
            self.translucent[gid] = any(translucent(f) for f in shown)
            w = max(f.get_width() for f in shown)
            h = max(f.get_height() for f in shown)
            self.oversize[gid] = w > ts or h > ts
            self.wider[gid], self.taller[gid] = max(0, w - ts), max(0, h - ts)
            self.reach_x = max(self.reach_x, w - ts)
            self.reach_y = max(self.reach_y, h - ts)
        self._key = None
        self._faded: dict[tuple[int, int], pygame.Surface] = {}

    @property
    def key(self) -> tuple[int, int, int]:
        """A colour no opaque tile pixel has (the chunks' colour key)."""
        if self._key is None:
            shown = {id(img): img for img in self.images if img is not None}
            self._key = free_colour(shown.values())
        return self._key

    def lut(self, table: np.ndarray, gids: np.ndarray) -> np.ndarray:
        """``table[gids]``, with gids outside the table (no image) reading as 0 / False."""
        out = table[np.clip(gids, 0, len(table) - 1)]
        return out & (gids < len(table)) if out.dtype == bool else np.where(gids < len(table), out, 0)

    def image_at(self, gid: int, ms: int) -> pygame.Surface | None:
        frames = self.frames.get(gid)
        if frames is not None:
            return frame_at(frames, ms % self.total[gid])
        return self.images[gid] if 0 < gid < len(self.images) else None

    def faded(self, img: pygame.Surface, alpha: int) -> pygame.Surface:
        """``img`` drawn at ``alpha`` (0..255) of its opacity: a cached per-pixel-alpha copy with surface
        alpha (always per-pixel: SDL rounds an opaque surface's surface alpha differently)."""
        key = (id(img), alpha)
        out = self._faded.get(key)
        if out is None:
            out = img.convert_alpha() if _display() else img.copy()
            out.set_alpha(alpha)
            self._faded[key] = out
        return out


class _Chunk:
    __slots__ = ("solid", "keyed", "glass", "glass_area", "dirty", "bytes")

    def __init__(self):
        self.solid: pygame.Surface | None = None  # opaque pixels (colour-keyed when ``keyed``)
        self.keyed = False
        self.glass: pygame.Surface | None = None  # translucent pixels, drawn over ``glass_area``
        self.glass_area: pygame.Rect | None = None
        self.dirty: list[pygame.Rect] = []  # chunk-local rects to repaint before the next blit
        self.bytes = 0


class TileGroup:
    """Tile layers drawn as one picture: same parallax and offset, consecutive in Tiled's order."""

    def __init__(self, layers: list, tiles: TileImages, *, parallax=(1.0, 1.0), offset=(0.0, 0.0),
                 opacity: float = 1.0, backing: tuple[int, int, int] | None = None, chunk: int = CHUNK,
                 budget: int = CACHE_BYTES, map_size: tuple[int, int] | None = None):
        self.layers = list(layers)  # pytmx TiledTileLayer, bottom first
        self.tiles = tiles
        self.ts = ts = tiles.tile_size
        self.px, self.py = parallax
        self.ox, self.oy = offset
        self.opacity = opacity
        self.alpha = max(0, min(255, round(opacity * 255)))
        self.backing = backing if opacity >= 1 else None
        self.chunk = max(ts, round(chunk / ts) * ts)
        if map_size is None:
            map_size = (max(len(layer.data[0]) if layer.data else 0 for layer in self.layers),
                        max(len(layer.data) for layer in self.layers))
        self.cols, self.rows = map_size
        self.width, self.height = self.cols * ts, self.rows * ts
        self.gids = [self._read(layer) for layer in self.layers]
        self.overlay = [np.zeros((self.rows, self.cols), bool) for _ in self.layers]
        self.budget = budget
        self.chunks: OrderedDict[tuple[int, int], _Chunk | None] = OrderedDict()
        self.cache_bytes = 0
        self.painted = 0  # tiles blitted into chunks so far (tests check edits repaint only a few)
        self._overlay_at: dict[tuple[int, int], list] = {}
        self._oversize = False
        self._stamp = 0  # bumped whenever a chunk or an overlay list changes
        self._shape()
        self._view: tuple | None = None  # chunk range (c0, c1, r0, r1) the lists below were made for
        self._view_stamp = -1
        self._solid: list = []  # (surface, x, y) in group px
        self._glass: list = []  # (surface, x, y, area)
        self._items: list = []  # overlay tiles (layer, row, col, gid) that may be in view
        self._ring_done = False

    # -- tile data --------------------------------------------------------------------------------------
    def _read(self, layer) -> np.ndarray:
        out = np.zeros((self.rows, self.cols), np.int32)
        data = np.asarray(layer.data, dtype=np.int32) if layer.data else np.zeros((0, 0), np.int32)
        if data.ndim == 2:
            h, w = min(self.rows, data.shape[0]), min(self.cols, data.shape[1])
            out[:h, :w] = data[:h, :w]
        return out

    def _shape(self) -> None:
        """Size the chunk grid to what the tiles can cover (the map, plus what larger tiles reach above
        and right of it), forget the chunks, and classify every tile."""
        t, ts, c = self.tiles, self.ts, self.chunk
        self.reach_x = max(int(t.lut(t.wider, g).max(initial=0)) for g in self.gids)
        self.reach_y = max(int(t.lut(t.taller, g).max(initial=0)) for g in self.gids)
        top = -(-self.reach_y // ts) * ts  # whole tiles, so chunk edges stay on cell edges
        self.area = pygame.Rect(0, -top, self.width + self.reach_x, self.height + top)
        self._last = ((self.area.width - 1) // c, (self.area.height - 1) // c)  # last chunk column, row
        self.clear()
        self._classify()

    def _classify(self) -> None:
        """Decide which tiles are overlay tiles (drawn each frame) and index them by chunk."""
        t = self.tiles
        self._oversize = any(t.lut(t.oversize, g).any() for g in self.gids)
        if self._oversize:
            self._classify_exact()
        else:
            self._classify_cells(slice(None), slice(None))
        self._overlay_at = {}
        for li, (g, o) in enumerate(zip(self.gids, self.overlay, strict=True)):
            rows, cols = np.nonzero(o)
            for r, col in zip(rows.tolist(), cols.tolist(), strict=True):
                self._overlay_at.setdefault(self._chunk_of(col, r), []).append((li, r, col, int(g[r, col])))

    def _chunk_of(self, col: int, row: int) -> tuple[int, int]:
        """The chunk holding the bottom-left pixel of cell (col, row): where its tile's picture starts."""
        c = self.chunk
        return (col * self.ts - self.area.x) // c, ((row + 1) * self.ts - 1 - self.area.y) // c

    def _classify_cells(self, rs: slice, cs: slice) -> None:
        """Grid-sized tiles only overlap tiles of their own cell: decide cell by cell, layer by layer."""
        t = self.tiles
        over = glass = None
        for g, o in zip(self.gids, self.overlay, strict=True):
            cell = g[rs, cs]
            drawn = t.lut(t.drawable, cell)
            see_through = t.lut(t.translucent, cell) & drawn
            mine = drawn & t.lut(t.animated, cell)
            if over is not None:
                mine |= drawn & over
                if self.backing is None:  # over a backed colour every blend happens in order anyway
                    mine |= see_through & glass
                over |= mine
                glass |= see_through & ~mine
            else:
                over, glass = mine.copy(), see_through & ~mine
            o[rs, cs] = mine

    def _classify_exact(self) -> None:
        """Tiles larger than the grid reach into other cells: walk every tile in drawing order and test
        its picture against the earlier ones it overlaps."""
        t, ts = self.tiles, self.ts
        bucket: dict[tuple[int, int], list] = {}  # cell -> [(x0, y0, x1, y1, overlay, translucent)]
        for g, o in zip(self.gids, self.overlay, strict=True):
            o[:, :] = False
            rows, cols = np.nonzero(t.lut(t.drawable, g))
            for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
                gid = int(g[r, c])
                img = t.images[gid]
                x0, y1 = c * ts, (r + 1) * ts
                x1, y0 = x0 + img.get_width(), y1 - img.get_height()
                if t.animated[gid]:
                    frames = t.frames[gid]
                    x1 = x0 + max(f.get_width() for f, _ in frames)
                    y0 = y1 - max(f.get_height() for f, _ in frames)
                see_through = bool(t.translucent[gid])
                cells = [(cc, rr) for rr in range(math.floor(y0 / ts), math.ceil(y1 / ts))
                         for cc in range(math.floor(x0 / ts), math.ceil(x1 / ts))]
                under = {id(b): b for cell in cells for b in bucket.get(cell, ())
                         if b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3]}.values()
                mine = bool(t.animated[gid]) or any(b[4] for b in under)
                if self.alpha < 255:
                    mine = mine or bool(under)  # each tile fades on its own (Tiled's layer opacity)
                elif self.backing is None and see_through:
                    mine = mine or any(b[5] and not b[4] for b in under)
                o[r, c] = mine
                box = (x0, y0, x1, y1, mine, see_through)
                for cell in cells:
                    bucket.setdefault(cell, []).append(box)

    # -- edits ------------------------------------------------------------------------------------------
    def refresh(self, col0: int, row0: int, col1: int, row1: int) -> bool:
        """Re-read cells [col0, col1) x [row0, row1) from the layers' data; repaint what changed.
        Returns True when anything did. With tiles larger than the grid in the group, every tile is
        classified again (a pass over the whole group); a tile larger than any before rebuilds it all."""
        col0, row0 = max(0, col0), max(0, row0)
        col1, row1 = min(self.cols, col1), min(self.rows, row1)
        if col0 >= col1 or row0 >= row1:
            return False
        rs, cs = slice(row0, row1), slice(col0, col1)
        changed = np.zeros((row1 - row0, col1 - col0), bool)
        for layer, g in zip(self.layers, self.gids, strict=True):
            fresh = np.array([row[col0:col1] for row in layer.data[row0:row1]], dtype=np.int32)
            fresh = fresh.reshape(row1 - row0, col1 - col0)
            changed |= fresh != g[rs, cs]
            g[rs, cs] = fresh
        if not changed.any():
            return False
        t = self.tiles
        if any(t.lut(t.wider, g[rs, cs]).max(initial=0) > self.reach_x
               or t.lut(t.taller, g[rs, cs]).max(initial=0) > self.reach_y for g in self.gids):
            self._shape()  # a larger tile than any before: a new chunk grid
            self._stamp += 1
            return True
        if self._oversize:  # (a first larger tile grew the reach above: reshaped)
            before = [o.copy() for o in self.overlay]
            self._classify()  # a larger tile can change what its neighbours are
            moved = np.zeros((self.rows, self.cols), bool)
            for o, b in zip(self.overlay, before, strict=True):
                moved |= o != b
            moved[rs, cs] |= changed
            rows, cols = np.nonzero(moved)
            cells = list(zip(cols.tolist(), rows.tolist(), strict=True))
        else:
            self._classify_cells(rs, cs)
            rows, cols = np.nonzero(changed)
            cells = [(col0 + c, row0 + r) for r, c in zip(rows.tolist(), cols.tolist(), strict=True)]
            self._reindex(cells)
        for c, r in cells:
            self._invalidate_cell(c, r)
        self._stamp += 1
        return True

    def _reindex(self, cells: list[tuple[int, int]]) -> None:
        """Update the overlay lists for cells (col, row) whose tiles changed."""
        by_chunk: dict[tuple[int, int], set] = {}
        for col, row in cells:
            by_chunk.setdefault(self._chunk_of(col, row), set()).add((row, col))
        for key, changed in by_chunk.items():
            items = [it for it in self._overlay_at.get(key, ()) if (it[1], it[2]) not in changed]
            for row, col in changed:
                items.extend((li, row, col, int(g[row, col]))
                             for li, (g, o) in enumerate(zip(self.gids, self.overlay, strict=True)) if o[row, col])
            if items:
                self._overlay_at[key] = sorted(items)
            else:
                self._overlay_at.pop(key, None)

    def _invalidate_cell(self, col: int, row: int) -> None:
        """Mark everything a tile at (col, row) can cover as needing a repaint, in the chunks built."""
        ts, c = self.ts, self.chunk
        area = pygame.Rect(col * ts, row * ts - self.reach_y, ts + self.reach_x, ts + self.reach_y)
        ax, ay = self.area.topleft
        for cy in range(max(0, (area.top - ay) // c), (area.bottom - 1 - ay) // c + 1):
            for cx in range(max(0, (area.left - ax) // c), (area.right - 1 - ax) // c + 1):
                if (cx, cy) not in self.chunks:
                    continue
                if self.chunks[(cx, cy)] is None:  # was empty: build it afresh when next seen
                    del self.chunks[(cx, cy)]
                    continue
                local = area.move(-ax - cx * c, -ay - cy * c).clip(pygame.Rect(0, 0, c, c))
                if local.width and local.height:
                    self.chunks[(cx, cy)].dirty.append(local)

    # -- chunks -----------------------------------------------------------------------------------------
    def _chunk_rect(self, cx: int, cy: int) -> pygame.Rect:
        c, area = self.chunk, self.area
        return pygame.Rect(area.x + cx * c, area.y + cy * c, min(c, area.width - cx * c), min(c, area.height - cy * c))

    def _static_blits(self, area: pygame.Rect, origin) -> tuple[list, bool]:
        """(image, position) of every non-overlay tile whose picture meets ``area`` (group px), in
        drawing order, positioned relative to ``origin``; and whether any of them is translucent."""
        ts, t = self.ts, self.tiles
        images = t.images
        c0 = max(0, (area.left - self.reach_x) // ts)
        c1 = min(self.cols, (area.right - 1) // ts + 1)
        r0 = max(0, area.top // ts)
        r1 = min(self.rows, (area.bottom - 1 + self.reach_y) // ts + 1)
        ox, oy = origin
        out = []
        see_through = False
        for g, o in zip(self.gids, self.overlay, strict=True):
            cells = g[r0:r1, c0:c1]
            rows, cols = np.nonzero(t.lut(t.drawable, cells) & ~o[r0:r1, c0:c1])
            if not len(rows):
                continue
            found = cells[rows, cols]
            see_through = see_through or bool(t.translucent[found].any())
            for r, col, gid in zip(rows.tolist(), cols.tolist(), found.tolist(), strict=True):
                img = images[gid]
                out.append((img, ((c0 + col) * ts - ox, (r0 + r + 1) * ts - img.get_height() - oy)))
        self.painted += len(out)
        return out, see_through

    def _build(self, cx: int, cy: int) -> _Chunk | None:
        rect = self._chunk_rect(cx, cy)
        ch = _Chunk()
        if self.alpha < 255:
            ch.glass = _alpha_surface(rect.size)
            ch.glass.set_alpha(self.alpha)
            ch.glass_area = pygame.Rect((0, 0), rect.size)
        else:
            ch.solid = _opaque_surface(rect.size)
        self._paint(ch, rect, pygame.Rect((0, 0), rect.size))
        if ch.solid is None and ch.glass is None:
            return None
        return ch

    def _paint(self, ch: _Chunk, rect: pygame.Rect, local: pygame.Rect) -> None:
        """Redraw the chunk-local ``local`` part of chunk ``ch`` (whose place in the group is ``rect``)."""
        blits, see_through = self._static_blits(local.move(rect.topleft), rect.topleft)
        t = self.tiles
        if self.alpha < 255:  # a faded layer: one alpha picture, faded as a whole
            ch.glass.fill(_CLEAR, local)
            self._blit_clipped(ch.glass, blits, local)
            return
        solid = ch.solid
        if solid is None:
            solid = ch.solid = _opaque_surface(rect.size)
            solid.fill(t.key)
        if ch.keyed:
            solid.set_colorkey(None)  # decode the RLE once, not once per blit
        if self.backing is not None:
            solid.fill(self.backing, local)
            self._blit_clipped(solid, blits, local)
        elif not see_through:
            solid.fill(t.key, local)
            self._blit_clipped(solid, blits, local)
            if ch.glass is not None:
                ch.glass.fill(_CLEAR, local)
        else:
            self._paint_split(ch, blits, local)
        self._settle(ch, rect)

    @staticmethod
    def _blit_clipped(target: pygame.Surface, blits: list, clip: pygame.Rect) -> None:
        target.set_clip(clip)
        target.fblits(blits)
        target.set_clip(None)

    def _paint_split(self, ch: _Chunk, blits: list, local: pygame.Rect) -> None:
        """Translucent tiles here: compose the area in an alpha scratch surface, then send its opaque
        pixels to the keyed surface and the rest to the glass surface."""
        key = self.tiles.key
        scratch = _alpha_surface(local.size)
        scratch.fblits([(img, (x - local.x, y - local.y)) for img, (x, y) in blits])
        a = pygame.surfarray.pixels_alpha(scratch)
        rgb = pygame.surfarray.pixels3d(scratch)
        solid_px = (a == 255) & ~((rgb[..., 0] == key[0]) & (rgb[..., 1] == key[1]) & (rgb[..., 2] == key[2]))
        glass_px = (a > 0) & ~solid_px
        opaque = scratch.copy()
        del rgb
        keep = pygame.surfarray.pixels_alpha(opaque)
        keep[~solid_px] = 0
        del keep
        ch.solid.fill(key, local)
        ch.solid.blit(opaque, local)
        if glass_px.any():
            a[solid_px] = 0
            del a
            if ch.glass is None:
                ch.glass = _alpha_surface(ch.solid.get_size())
            ch.glass.fill(_CLEAR, local)
            ch.glass.blit(scratch, local)
            cols, rows = np.nonzero(glass_px)
            used = pygame.Rect(local.x + int(cols.min()), local.y + int(rows.min()),
                               int(cols.max() - cols.min()) + 1, int(rows.max() - rows.min()) + 1)
            ch.glass_area = used if ch.glass_area is None else ch.glass_area.union(used)
        else:
            del a
            if ch.glass is not None:
                ch.glass.fill(_CLEAR, local)

    def _settle(self, ch: _Chunk, rect: pygame.Rect) -> None:
        """After painting: drop an empty solid surface; key and RLE-encode the others (holes or not: an
        RLE blit is a run of memcpys, never SDL's slow aligned-copy path)."""
        solid, key = ch.solid, self.tiles.key
        px = pygame.surfarray.pixels2d(solid)
        holes = (px & 0xFFFFFF) == (solid.map_rgb(key) & 0xFFFFFF)
        n_holes = int(holes.sum())
        del px
        if self.backing is not None and n_holes:
            ch.keyed = False  # a blend that happens to hit the key colour: keep this one unkeyed
        elif n_holes == holes.size:
            ch.solid, ch.keyed = None, False
        else:
            solid.set_colorkey(key, pygame.RLEACCEL)
            ch.keyed = True
        if ch.glass is not None and ch.glass_area is not None:
            a = pygame.surfarray.pixels_alpha(ch.glass)
            empty = not a.any()
            del a
            if empty:
                ch.glass = ch.glass_area = None

    def _get(self, cx: int, cy: int) -> _Chunk | None:
        """The chunk at (cx, cy): built if missing, its dirty parts repainted."""
        key = (cx, cy)
        chunks = self.chunks
        if key in chunks:
            chunks.move_to_end(key)
            ch = chunks[key]
            if ch is None or not ch.dirty:
                return ch
            rect = self._chunk_rect(cx, cy)
            dirty, ch.dirty = ch.dirty, []
            self.cache_bytes -= ch.bytes
            for local in dirty:
                self._paint(ch, rect, local)
            if ch.solid is None and ch.glass is None:
                ch = chunks[key] = None
        else:
            ch = chunks[key] = self._build(cx, cy)
        if ch is not None:
            ch.bytes = sum(s.get_width() * s.get_height() * 4 for s in (ch.solid, ch.glass) if s is not None)
            self.cache_bytes += ch.bytes
        self._stamp += 1
        return ch

    def _evict(self, keep: set) -> None:
        """Drop the least recently used chunks (never those in ``keep``) until within the budget."""
        for key in [k for k in self.chunks if k not in keep]:  # oldest first
            if self.cache_bytes <= self.budget:
                break
            ch = self.chunks.pop(key)
            if ch is not None:
                self.cache_bytes -= ch.bytes
        self._stamp += 1

    def clear(self) -> None:
        """Forget every cached chunk (they are rebuilt when next seen)."""
        self.chunks.clear()
        self.cache_bytes = 0
        self._stamp += 1

    # -- drawing ----------------------------------------------------------------------------------------
    def offset(self, cam_x: int, cam_y: int) -> tuple[int, int]:
        """Where the group's top-left lands on screen for a camera at (cam_x, cam_y)."""
        return round(self.ox - cam_x * self.px), round(self.oy - cam_y * self.py)

    def draw(self, surf: pygame.Surface, cam_x: int, cam_y: int, ms: int) -> None:
        lx, ly = self.offset(cam_x, cam_y)
        vw, vh = surf.get_size()
        c = self.chunk
        x0, y0 = lx + self.area.x, ly + self.area.y  # where chunk (0, 0) lands
        view = (max(0, -x0 // c), min(self._last[0], (vw - x0 - 1) // c),
                max(0, -y0 // c), min(self._last[1], (vh - y0 - 1) // c))
        if view != self._view or self._stamp != self._view_stamp:
            self._prepare(view)
        if self._solid:
            surf.fblits([(img, (lx + x, ly + y)) for img, x, y in self._solid])
        if self._glass:
            surf.blits([(img, (lx + x, ly + y), area) for img, x, y, area in self._glass], doreturn=False)
        if self._items:
            self._draw_overlay(surf, lx, ly, ms)
        if not self._ring_done:
            self._prefetch()

    def _prepare(self, view: tuple[int, int, int, int]) -> None:
        """The visible chunks changed (or were repainted): gather what to blit for this range."""
        c0, c1, r0, r1 = view
        c = self.chunk
        ax, ay = self.area.topleft
        solid, glass, items = [], [], []
        for cy in range(r0, r1 + 1):
            for cx in range(c0, c1 + 1):
                ch = self._get(cx, cy)
                if ch is None:
                    continue
                if ch.solid is not None:
                    solid.append((ch.solid, ax + cx * c, ay + cy * c))
                if ch.glass is not None:
                    area = ch.glass_area
                    glass.append((ch.glass, ax + cx * c + area.x, ay + cy * c + area.y, area))
        ts = self.ts
        # chunks a picture may reach into from the one holding its bottom-left pixel
        reach_x, reach_y = -(-(ts - 1 + self.reach_x) // c), -(-(ts - 1 + self.reach_y) // c)
        for cy in range(r0, r1 + 1 + reach_y):
            for cx in range(c0 - reach_x, c1 + 1):
                items.extend(self._overlay_at.get((cx, cy), ()))
        if self._oversize:
            items.sort()
        if self.cache_bytes > self.budget:
            self._evict({(cx, cy) for cy in range(r0, r1 + 1) for cx in range(c0, c1 + 1)})
        self._solid, self._glass, self._items = solid, glass, items
        self._view, self._view_stamp = view, self._stamp
        self._ring_done = False

    def _prefetch(self) -> None:
        """Build one missing chunk of the ring just outside the view a frame, so that scrolling rarely
        has to build one on screen."""
        c0, c1, r0, r1 = self._view
        chunks = self.chunks
        for cy in range(max(0, r0 - 1), min(self._last[1], r1 + 1) + 1):
            for cx in range(max(0, c0 - 1), min(self._last[0], c1 + 1) + 1):
                if (cx, cy) not in chunks:
                    self._get(cx, cy)
                    self._view_stamp = self._stamp  # a chunk off screen: what is drawn is unchanged
                    return
        self._ring_done = True

    def _draw_overlay(self, surf, lx: int, ly: int, ms: int) -> None:
        ts, t = self.ts, self.tiles
        vw, vh = surf.get_size()
        fade = self.alpha < 255
        blits = []
        for _li, r, col, gid in self._items:
            img = t.image_at(gid, ms)
            if img is None:
                continue
            x, y = lx + col * ts, ly + (r + 1) * ts - img.get_height()
            if x < vw and y < vh and x + img.get_width() > 0 and y + img.get_height() > 0:
                blits.append((t.faded(img, self.alpha) if fade else img, (x, y)))
        surf.fblits(blits)
