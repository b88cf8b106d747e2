"""Load a Tiled map (.tmx; tilesets external .tsx files or embedded in the map) into :class:`LevelData`.

The loader reads the XML itself for everything with meaning -- tile collision, objects, properties,
layer order -- so that every problem becomes one :class:`LevelError` line naming the file and the
offending tile (tileset name + local tile id) or object (id, name, class). Sizes, counts and numbers are
checked against :data:`LIMITS` before anything is allocated for them. It then loads the same file with
pytmx for the renderer (``LevelData.tmx``). It never draws. The format is documented for level designers
in ``docs/levels.md``, the limits in ``docs/reliability.md``.
"""

from __future__ import annotations

import base64
import bisect
import difflib
import logging
import math
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from xml.etree import ElementTree as ET

import numpy as np

from .userfiles import FileProblem, read_bytes, shown

__all__ = [
    "LevelError", "Area", "PlatformSpec", "LevelData", "Limits", "LIMITS", "load_level",
    "COLLISION_VALUES", "OBJECT_CLASSES", "COIN_POINT_SIZE",
]

# pytmx logs a warning before it raises (e.g. "Found external tileset, but cannot handle type: None");
# with no handler configured Python would print it to stderr as a second line beside our one-line error.
# A NullHandler keeps it quiet unless the application configures logging itself.
logging.getLogger("pytmx").addHandler(logging.NullHandler())


@dataclass(frozen=True)
class Limits:
    """What a map may hold; each is checked before anything is allocated for it (docs/reliability.md)."""

    map_bytes: int = 32 << 20  # bytes, the .tmx file
    tileset_bytes: int = 8 << 20  # bytes, one .tsx file
    map_side: int = 4096  # tiles, the map's width and its height
    map_tiles: int = 1 << 20  # tiles, width x height (e.g. 1024 x 1024 or 4096 x 256)
    map_area: int = 1 << 28  # px^2, the map's width x height in px (e.g. 16384 x 16384 px)
    tile_size: int = 256  # px, the map's tiles (and any tileset's)
    layer_tiles: int = 1 << 22  # tiles in all tile layers together (e.g. 4 layers of 1024 x 1024)
    tileset_tiles: int = 1 << 16  # tiles in one tileset
    group_depth: int = 32  # group layers inside group layers
    objects: int = 10_000  # objects in the map
    margin: float = 1024.0  # px, how far outside the map an object the game uses may reach
    area_cover: int = 16  # goals, checkpoints, hazards, coins and triggers together cover at most this
    #                       many times the map's area
    platforms: int = 256  # moving platforms
    platform_speed: float = 2000.0  # px/s
    platform_wait: float = 3600.0  # s at each end of a platform's route
    path_points: int = 256  # points in a platform's path polyline


LIMITS = Limits()

PLATFORM_SPEED = 40.0  # px/s, a platform's speed when the map leaves it out (the class default)

COLLISION_VALUES = ("solid", "one_way", "slope")
OBJECT_CLASSES = ("spawn", "goal", "checkpoint", "hazard", "coin", "trigger", "platform")
#: properties each class understands; a property *close to* one of these names is reported as a typo
KNOWN_PROPERTIES = {
    "platform": ("path", "dx", "dy", "speed", "wait", "one_way"),
    "trigger": ("message",),
}
COIN_POINT_SIZE = 8.0  # px; the session gives a point coin a pickup box this big, centred on the point

# Tiled stores flips in the top bits of a gid.
_FLIP_H, _FLIP_V, _FLIP_D, _FLIP_HEX = 0x80000000, 0x40000000, 0x20000000, 0x10000000
_GID_MASK = 0x0FFFFFFF
# When tile layers overlap, the strongest collision wins a cell (equal strength: the upper layer).
_STRENGTH = {"one_way": 1, "slope": 2, "solid": 3}


class LevelError(Exception):
    """A problem with a level file. ``str(e)`` is one line naming the file and the tile or object."""


@dataclass
class Area:
    """A rectangle object in map px (top-left ``x, y``). Points are 0-size rects at the point;
    tile objects use their rect with ``y`` at the top. ``gid`` is the pytmx gid of a tile object."""

    x: float
    y: float
    w: float
    h: float
    name: str
    id: int
    props: dict
    gid: int | None = None

    @property
    def bottom_centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2.0, self.y + self.h)


@dataclass
class PlatformSpec:
    """A moving platform: its rect at the start and the top-left positions it travels through."""

    x: float
    y: float
    w: float
    h: float
    name: str
    id: int
    points: list[tuple[float, float]]  # absolute top-left positions along the route, first = start
    speed: float  # px/s
    wait: float  # s at each end
    one_way: bool
    gid: int | None = None


@dataclass
class LevelData:
    path: Path
    name: str  # file name, e.g. "01_first_steps.tmx"
    title: str
    next: str | None
    tile_size: int
    cols: int
    rows: int
    width: int  # px
    height: int  # px
    grid: Any  # engine.TileGrid
    spawn: tuple[float, float]  # feet point (bottom-centre of the player box)
    goals: list[Area] = field(default_factory=list)
    checkpoints: list[Area] = field(default_factory=list)
    hazards: list[Area] = field(default_factory=list)
    coins: list[Area] = field(default_factory=list)
    triggers: list[Area] = field(default_factory=list)  # props["message"]: optional signpost text
    platforms: list[PlatformSpec] = field(default_factory=list)
    tmx: Any = None  # pytmx.TiledMap, for rendering
    layer_order: list[str] = field(default_factory=list)  # layer names in drawing order, groups flattened


def load_level(path: str | Path, *, images: bool = False) -> LevelData:
    """Read a .tmx level. ``images=True`` loads tile images with pygame (needs a display mode set).

    Raises :class:`LevelError` (one line: file + tile/object + what to fix) for any problem.
    """
    return _Loader(Path(path)).load(images)


# -- internals ---------------------------------------------------------------------------------------


class _Prop(NamedTuple):
    type: str  # Tiled property type: string int float bool color file object
    value: Any
    raw: str


@dataclass
class _Tileset:
    name: str
    firstgid: int
    source: str  # as written in the map
    path: Path
    tilewidth: int
    tileheight: int
    tilecount: int
    image_collection: bool
    tiles: dict[int, tuple[str, dict[str, _Prop]]]  # local id -> (class, properties)
    collision: dict[int, tuple[str, int, int]] = field(default_factory=dict)  # local id -> (kind, l, r)
    sizes: dict[int, tuple[int, int]] = field(default_factory=dict)  # a collection's tiles: own image px

    def size(self, local: int) -> tuple[int, int]:
        """A tile's size in px: its own image's in a collection of images, else the tileset's."""
        return self.sizes.get(local, (self.tilewidth, self.tileheight))

    def where(self, local: int) -> str:
        return f"tileset '{self.name}' tile {local}"


@dataclass
class _Object:
    id: int
    name: str
    cls: str
    x: float
    y: float  # top (tile objects are converted from Tiled's bottom-left origin)
    w: float
    h: float
    shape: str  # rect point ellipse polygon polyline text tile
    points: list[tuple[float, float]]  # polyline/polygon points relative to (x, y)
    rotation: float
    gid: int  # Tiled gid with flip bits, 0 if none
    props: dict[str, _Prop]

    @property
    def where(self) -> str:
        text = f"object {self.id}"
        if self.name:
            text += f" '{self.name}'"
        if self.cls:
            text += f" ({self.cls})"
        return text


_MISSING = object()


class _Loader:
    def __init__(self, path: Path):
        self.path = path
        self.tilesets: list[_Tileset] = []
        self.firstgids: list[int] = []
        self.objects = 0  # objects read so far (LIMITS.objects)
        self.layer_tiles = 0  # tiles in the tile layers read so far (LIMITS.layer_tiles)

    def error(self, where: str, message: str) -> LevelError:
        where = f"{where}: " if where else ""
        return LevelError(" ".join(f"{self.path}: {where}{message}".split()))

    # -- top level -------------------------------------------------------------------------------------
    def load(self, images: bool) -> LevelData:
        root = self.read_map_xml()
        tile_size, cols, rows = self.check_map(root)
        map_props = self.properties(root, "map properties")
        for node in root.findall("tileset"):
            self.tilesets.append(self.read_tileset(node, tile_size))
        self.tilesets.sort(key=lambda t: t.firstgid)
        self.check_gid_ranges()
        self.firstgids = [t.firstgid for t in self.tilesets]

        layer_order: list[str] = []
        tile_layers: list[tuple[str, np.ndarray]] = []
        objects: list[_Object] = []
        self.walk_layers(root, cols, rows, layer_order, tile_layers, objects)

        kinds, left, right = self.collision_arrays(tile_layers, cols, rows)
        level = self.build_level(objects, map_props, tile_size, cols, rows, layer_order)
        level.grid = self.make_grid(kinds, left, right, tile_size)
        level.tmx = self.load_pytmx(images)
        self.attach_gids(level)
        return level

    def read_map_xml(self) -> ET.Element:
        if self.path.suffix.lower() in (".tmj", ".json"):
            raise self.error("", "JSON maps are not supported; save the map as .tmx "
                                 "(Tiled: File > Save As, 'Tiled map files (*.tmx)')")
        root = self.parse_xml(self.path, "map", LIMITS.map_bytes)
        if root.tag != "map":
            raise self.error("", f"not a Tiled map (the root element is <{shown(root.tag)[1:-1]}>, expected <map>)")
        return root

    def parse_xml(self, path: Path, what: str, limit: int) -> ET.Element:
        where = "" if path == self.path else str(path)
        try:
            data = read_bytes(path, f"{what} file", limit)
        except FileProblem as exc:  # its text starts with the path; ours adds the map's
            raise self.error(where, str(exc).removeprefix(f"{path}: ")) from None
        try:
            return ET.fromstring(data)
        except ET.ParseError as exc:
            line, col = getattr(exc, "position", (0, 0))
            reason = str(exc).split(":")[0]
            raise self.error(where, f"broken XML at line {line}, column {col} ({reason}); "
                                    f"is the file complete? Re-save it from Tiled") from None

    def check_map(self, root: ET.Element) -> tuple[int, int, int]:
        orientation = root.get("orientation", "orthogonal")
        if orientation != "orthogonal":
            raise self.error("", f"{shown(orientation)[1:-1]} maps are not supported; use an orthogonal map")
        if root.get("infinite", "0") == "1":
            raise self.error("", "infinite maps are not supported; turn off 'Infinite' in Map > Map "
                                 "Properties (or Map > Resize Map to a fixed size)")
        tw, th = self.whole(root, "tilewidth"), self.whole(root, "tileheight")
        cols, rows = self.whole(root, "width"), self.whole(root, "height")
        if tw is None or th is None or cols is None or rows is None:
            raise self.error("", "map size or tile size is not a whole number")
        if tw <= 0 or tw != th:
            raise self.error("", f"tiles must be square; this map has {tw}x{th} px tiles")
        if tw > LIMITS.tile_size:
            raise self.error("", f"tiles of {tw} px are larger than the {LIMITS.tile_size} px limit")
        if cols <= 0 or rows <= 0:
            raise self.error("", f"map size {cols}x{rows} tiles is empty")
        if cols > LIMITS.map_side or rows > LIMITS.map_side or cols * rows > LIMITS.map_tiles \
                or cols * rows * tw * tw > LIMITS.map_area:
            raise self.error("", f"map size {cols}x{rows} tiles of {tw} px is over the limits (at most "
                                 f"{LIMITS.map_side} tiles a side, {LIMITS.map_tiles} tiles and "
                                 f"{LIMITS.map_area} px^2 in all; see docs/reliability.md)")
        return tw, cols, rows

    @staticmethod
    def whole(node: ET.Element, key: str, default: str = "0") -> int | None:
        """An attribute holding a whole number of at most 12 digits (longer is certainly corrupt)."""
        text = node.get(key, default).strip()
        if len(text.lstrip("+-")) > 12:
            return None
        try:
            return int(text)
        except ValueError:
            return None

    # -- properties ------------------------------------------------------------------------------------
    def properties(self, node: ET.Element, where: str) -> dict[str, _Prop]:
        out: dict[str, _Prop] = {}
        for prop in node.findall("properties/property"):
            name = prop.get("name", "")
            ptype = prop.get("type", "string")
            raw = prop.get("value")
            if raw is None:
                raw = prop.text or ""

            def fail(msg: str) -> LevelError:
                return self.error(where, msg)

            if ptype in ("class", "list"):
                raise fail(f"property {shown(name)} is a {ptype} property, which this game does not read; "
                           f"use plain string/int/float/bool properties")
            try:
                if ptype in ("string", "color", "file"):
                    value: Any = raw
                elif ptype in ("int", "object"):
                    value = int(raw)
                elif ptype == "float":
                    value = float(raw)
                    if not math.isfinite(value):
                        raise ValueError(raw)
                elif ptype == "bool":
                    if raw.strip().lower() not in ("true", "false", "1", "0"):
                        raise ValueError(raw)
                    value = raw.strip().lower() in ("true", "1")
                else:
                    raise fail(f"property {shown(name)} has the unknown type {shown(ptype)}")
            except ValueError:  # also an int of more than 4,300 digits
                raise fail(f"property {shown(name)} is {_a(ptype)} property but holds {shown(raw)}") from None
            out[name] = _Prop(ptype, value, raw)
        return out

    def get(self, props: dict[str, _Prop], name: str, kinds: tuple[str, ...], where: str,
            default: Any = _MISSING, meaning: str = "") -> Any:
        prop = props.get(name)
        if prop is None:
            if default is _MISSING:
                raise self.error(where, f"needs {_a(kinds[0])} property '{name}'{meaning}")
            return default
        if prop.type not in kinds:
            raise self.error(where, f"property '{name}' must be {_a(kinds[0])} property{meaning}, "
                                    f"not {_a(prop.type)} property ({shown(prop.raw)}); change its type in Tiled")
        if kinds[0] == "float":
            try:
                return float(prop.value)
            except OverflowError:  # an int property of 400 digits
                raise self.error(where, f"property '{name}' = {shown(prop.raw, 20)} is far too large") from None
        return prop.value

    def number(self, props: dict[str, _Prop], name: str, where: str, default: float, unit: str,
               lo: float, hi: float, *, lo_open: bool = False) -> float:
        """A float (or int) property within ``lo..hi`` (above ``lo`` when ``lo_open``)."""
        value = self.get(props, name, ("float", "int"), where, default=default, meaning=f" ({unit})")
        if value > hi or value < lo or (lo_open and value == lo):
            bound = f"above {lo:g}" if lo_open else f"at least {lo:g}"
            raise self.error(where, f"{name} = {value:g} {unit} must be {bound} and at most {hi:g} {unit}")
        return float(value)

    # -- tilesets --------------------------------------------------------------------------------------
    def read_tileset(self, node: ET.Element, tile_size: int) -> _Tileset:
        source = node.get("source")
        firstgid = self.whole(node, "firstgid", "")
        label = f"tileset {shown(source or node.get('name', '?'))}"
        if firstgid is None:
            raise self.error(label, "has no valid firstgid; re-save the map from Tiled")
        if not 1 <= firstgid <= _GID_MASK:
            raise self.error(label, f"firstgid = {firstgid} must be 1 or more (and below {_GID_MASK + 1}); "
                                    "gid 0 means 'no tile'. Re-save the map from Tiled")
        if source:
            if source.lower().endswith((".tsj", ".json")):
                raise self.error(label, "JSON tilesets are not supported; save it as .tsx")
            if not source.lower().endswith(".tsx"):
                raise self.error(label, "is not a .tsx file; save the tileset as a .tsx (Tiled: Export "
                                        "Tileset As..., 'Tiled tileset files (*.tsx)')")
            tsx_path = self.path.parent / source
            if not os.path.exists(tsx_path):  # (os.path never raises: a name may be too long)
                raise self.error(label, f"file not found (looked for {_short(tsx_path)})")
            tsx = self.parse_xml(tsx_path, "tileset", LIMITS.tileset_bytes)
            if tsx.tag != "tileset":
                raise self.error(label, f"not a Tiled tileset (root element <{shown(tsx.tag)[1:-1]}>)")
            name = tsx.get("name", Path(source).stem)
            where = f"tileset {shown(name)} ({shown(source)[1:-1]})"
        else:  # embedded in the map: the same element, images relative to the map
            tsx, tsx_path = node, self.path
            name = node.get("name", "?")
            where = f"tileset {shown(name)}"
        tw, th = self.whole(tsx, "tilewidth"), self.whole(tsx, "tileheight")
        tilecount = self.whole(tsx, "tilecount")
        if tw is None or th is None or tilecount is None:
            raise self.error(where, "tile size or tile count is not a whole number")
        if not (0 <= tw <= 4 * LIMITS.tile_size and 0 <= th <= 4 * LIMITS.tile_size) \
                or not 0 <= tilecount <= LIMITS.tileset_tiles:
            raise self.error(where, f"{tw}x{th} px tiles, {tilecount} of them, are over the limits (at "
                                    f"most {4 * LIMITS.tile_size} px and {LIMITS.tileset_tiles} tiles)")
        self.properties(tsx, where)
        image = tsx.find("image")
        if image is not None:
            self.check_image(image, tsx_path, where)
            self.check_grid(image, tw, th, where)
        tiles: dict[int, tuple[str, dict[str, _Prop]]] = {}
        sizes: dict[int, tuple[int, int]] = {}
        for tile in tsx.findall("tile"):
            local = self.whole(tile, "id", "")
            if local is None or local < 0:
                raise self.error(where, "a <tile> has no valid id; re-save the tileset from Tiled")
            twhere = f"tileset {shown(name)} tile {local}"
            own_image = tile.find("image")
            if own_image is not None:
                self.check_image(own_image, tsx_path, twhere)
                iw, ih = self.whole(own_image, "width", ""), self.whole(own_image, "height", "")
                if iw is not None and ih is not None:  # Tiled writes them; without, the tileset's size
                    sizes[local] = (iw, ih)
            cls = tile.get("type") or tile.get("class") or ""
            tiles[local] = (cls, self.properties(tile, twhere))
        if len(tiles) > LIMITS.tileset_tiles:
            raise self.error(where, f"has {len(tiles)} tiles, over the limit of {LIMITS.tileset_tiles}")
        ts = _Tileset(name, firstgid, source or "", tsx_path, tw, th, tilecount, image is None, tiles,
                      sizes=sizes if image is None else {})
        self.read_collision(ts, tile_size)
        return ts

    def check_image(self, image: ET.Element, tsx_path: Path, where: str) -> None:
        src = image.get("source")
        if not src:
            raise self.error(where, "an <image> has no source")
        if not os.path.isfile(tsx_path.parent / src):
            raise self.error(where, f"image {shown(src)} not found (looked for {_short(tsx_path.parent / src)})")

    def check_grid(self, image: ET.Element, tw: int, th: int, where: str) -> None:
        """pytmx cuts a tileset image into tiles by the image's declared size: keep that count bounded."""
        w, h = self.whole(image, "width"), self.whole(image, "height")
        if w is None or h is None or w < 0 or h < 0:
            raise self.error(where, "the tileset image's width or height is not a whole number")
        if tw <= 0 or th <= 0:
            raise self.error(where, f"tiles of {tw}x{th} px have no size")
        if (w // tw) * (h // th) > LIMITS.tileset_tiles:
            raise self.error(where, f"a {w}x{h} px image of {tw}x{th} px tiles holds over "
                                    f"{LIMITS.tileset_tiles} tiles, the limit")

    def read_collision(self, ts: _Tileset, tile_size: int) -> None:
        for local, (_cls, props) in sorted(ts.tiles.items()):
            where = ts.where(local)
            kind = self.get(props, "collision", ("string",), where, default=None)
            if kind is None or kind == "":
                continue
            if kind not in COLLISION_VALUES:
                raise self.error(where, f"unknown collision {shown(kind)}{_suggest(kind, COLLISION_VALUES)}")
            tw, th = ts.size(local)
            if (tw, th) != (tile_size, tile_size):
                raise self.error(where, f"has collision but the tile is {tw}x{th} px and the map's tiles "
                                        f"{tile_size} px")
            left = right = 0
            if kind == "slope":
                if "slope_left" not in props or "slope_right" not in props:
                    raise self.error(where, "collision 'slope' needs heights; add int properties slope_left "
                                            "and slope_right (surface height in px above the tile's "
                                            f"bottom at its left/right edge, 0..{tile_size})")
                left = self.get(props, "slope_left", ("int",), where, meaning=" (px)")
                right = self.get(props, "slope_right", ("int",), where, meaning=" (px)")
                for key, value in (("slope_left", left), ("slope_right", right)):
                    if not 0 <= value <= tile_size:
                        raise self.error(where, f"{key} = {shown(str(value), 12)[1:-1]} is outside "
                                                f"0..{tile_size} px")
            ts.collision[local] = (kind, left, right)

    def check_gid_ranges(self) -> None:
        """Tilesets' gid ranges must not overlap (the map was edited outside Tiled otherwise)."""
        for a, b in zip(self.tilesets, self.tilesets[1:], strict=False):
            span = max(a.tiles, default=-1) + 1 if a.image_collection else a.tilecount
            if b.firstgid < a.firstgid + max(span, 1):
                raise self.error(f"tileset {shown(b.name)}",
                                 f"starts at firstgid {b.firstgid}, inside tileset {shown(a.name)} (gids "
                                 f"{a.firstgid}..{a.firstgid + max(span, 1) - 1}); re-save the map from Tiled")

    def tileset_of(self, gid: int) -> _Tileset | None:
        i = bisect.bisect_right(self.firstgids, gid) - 1
        if i < 0:
            return None
        ts = self.tilesets[i]
        local = gid - ts.firstgid
        if ts.image_collection:
            return ts if local in ts.tiles else None
        return ts if ts.tilecount <= 0 or local < ts.tilecount else None

    # -- layers ----------------------------------------------------------------------------------------
    def walk_layers(self, parent: ET.Element, cols: int, rows: int, order: list[str],
                    tile_layers: list[tuple[str, np.ndarray]], objects: list[_Object],
                    offset: tuple[float, float] = (0.0, 0.0), depth: int = 0) -> None:
        for node in parent:
            name = node.get("name", "")
            label = f"layer {shown(name)}"
            try:
                ox = offset[0] + float(node.get("offsetx", "0"))
                oy = offset[1] + float(node.get("offsety", "0"))
            except ValueError:
                raise self.error(label, "has an offset that is not a number") from None
            if node.tag in ("group", "layer", "objectgroup", "imagelayer") and not (
                    abs(ox) <= LIMITS.margin and abs(oy) <= LIMITS.margin):  # also NaN
                raise self.error(label, f"is offset by ({ox:g}, {oy:g}) px, more than the "
                                        f"{LIMITS.margin:g} px an offset may be")
            if node.tag == "group":
                if depth >= LIMITS.group_depth:
                    raise self.error(f"group layer {shown(name)}", f"is nested more than "
                                                                   f"{LIMITS.group_depth} groups deep")
                self.properties(node, f"group layer {shown(name)}")
                self.walk_layers(node, cols, rows, order, tile_layers, objects, (ox, oy), depth + 1)
            elif node.tag == "layer":
                order.append(name)
                self.properties(node, label)
                self.layer_tiles += cols * rows
                if self.layer_tiles > LIMITS.layer_tiles:
                    raise self.error(label, f"brings the tile layers to more than {LIMITS.layer_tiles} "
                                            "tiles in all, the limit; merge or remove layers")
                gids = self.read_tile_data(node, label, cols, rows)
                if (ox, oy) != (0.0, 0.0):
                    self.check_unshifted(label, gids, ox, oy)
                tile_layers.append((name, gids))
            elif node.tag == "objectgroup":
                order.append(name)
                self.properties(node, f"object layer {shown(name)}")
                for obj in node.findall("object"):
                    self.objects += 1
                    if self.objects > LIMITS.objects:
                        raise self.error(f"object layer {shown(name)}",
                                         f"brings the map to more than {LIMITS.objects} objects, the limit")
                    item = self.read_object(obj)
                    item.x += ox  # Tiled draws (and so the designer sees) objects shifted by the offset
                    item.y += oy
                    objects.append(item)
            elif node.tag == "imagelayer":
                order.append(name)
                self.properties(node, f"image layer {shown(name)}")
                image = node.find("image")
                if image is not None and image.get("source"):
                    if not os.path.isfile(self.path.parent / image.get("source")):
                        raise self.error(f"image layer {shown(name)}",
                                         f"image {shown(image.get('source'))} not found")

    def collision_codes(self, gids: np.ndarray, label: str, cols: int) -> tuple[np.ndarray, ...]:
        """Per cell of one layer: collision strength (0 = none), engine TileKind code, slope heights.
        Worked out once per distinct gid, so a big layer costs a few array operations."""
        from engine import TileKind

        codes = {"solid": int(TileKind.SOLID), "one_way": int(TileKind.ONE_WAY), "slope": int(TileKind.SLOPE)}
        uniq, inverse = np.unique(gids, return_inverse=True)
        table = np.zeros((len(uniq), 4), dtype=np.int32)  # strength, code, left, right
        bad: dict[int, str] = {}  # raw gid -> what is wrong with it
        for j, raw in enumerate(uniq.tolist()):
            if not raw:
                continue
            gid = raw & _GID_MASK
            ts = self.tileset_of(gid)
            if ts is None:
                bad[raw] = f"tile gid {gid} is in no tileset (was the map edited outside Tiled?)"
                continue
            info = ts.collision.get(gid - ts.firstgid)
            if info is None:
                continue
            kind, lh, rh = info
            if kind == "slope" and raw & (_FLIP_V | _FLIP_D | _FLIP_HEX):
                bad[raw] = (f"the slope tile ({ts.where(gid - ts.firstgid)}) is flipped vertically or "
                            "rotated; slopes may only be flipped horizontally")
                continue
            if kind == "slope" and raw & _FLIP_H:
                lh, rh = rh, lh
            table[j] = (_STRENGTH[kind], codes[kind], lh, rh)
        if bad:  # report the first bad cell in reading order, as Tiled would show it
            index = int(np.flatnonzero(np.isin(gids, np.array(list(bad), dtype=gids.dtype)))[0])
            row, col = divmod(index, cols)
            raise self.error(f"{label} at column {col}, row {row}", bad[int(gids[index])])
        cells = table[inverse.reshape(-1)]
        return cells[:, 0], cells[:, 1], cells[:, 2], cells[:, 3]

    def check_unshifted(self, label: str, gids: np.ndarray, ox: float, oy: float) -> None:
        """Collision follows the tile grid, so a layer holding collision tiles must not be offset."""
        for raw in np.unique(gids).tolist():
            ts = self.tileset_of(raw & _GID_MASK) if raw else None
            if ts is not None and (raw & _GID_MASK) - ts.firstgid in ts.collision:
                raise self.error(label, f"is offset by ({ox:g}, {oy:g}) px but holds collision "
                                        "tiles; reset its offset (Layer Properties > Offset)")

    def read_tile_data(self, node: ET.Element, label: str, cols: int, rows: int) -> np.ndarray:
        """The layer's gids (flip bits included) as a flat uint32 array of ``cols * rows``."""
        data = node.find("data")
        if data is None:
            raise self.error(label, "has no <data>; re-save the map from Tiled")
        if data.find("chunk") is not None:
            raise self.error(label, "is stored in chunks (an infinite map); turn off 'Infinite' in Tiled")
        encoding, compression = data.get("encoding"), data.get("compression")
        text = (data.text or "").strip()
        expected = cols * rows

        def wrong_count(found: int) -> LevelError:
            return self.error(label, f"has {found} tiles, expected {cols}x{rows} = {expected} "
                                     "(is the file cut short?)")

        try:
            if encoding == "csv":
                cells = text.replace("\n", "").split(",") if text else []
                if len(cells) != expected:
                    raise wrong_count(len(cells))
                return np.array([int(v) for v in cells], dtype=np.uint32)
            if encoding != "base64":
                raise self.error(label, "uses XML tile data, which is not supported; use CSV "
                                        "(Map > Map Properties > Tile Layer Format)")
            raw = base64.b64decode(text)
            if compression in ("zlib", "gzip"):  # never inflate past what the layer can hold
                inflater = zlib.decompressobj(zlib.MAX_WBITS | (16 if compression == "gzip" else 0))
                raw = inflater.decompress(raw, 4 * expected + 4)
                if len(raw) > 4 * expected:
                    raise wrong_count(expected + 1)
            elif compression:
                raise self.error(label, f"{shown(compression)} compression is not supported; use CSV or "
                                        "zlib/gzip (Map > Map Properties > Tile Layer Format)")
            if len(raw) % 4:
                raise ValueError("length")
            if len(raw) != 4 * expected:
                raise wrong_count(len(raw) // 4)
            return np.frombuffer(raw, dtype="<u4").astype(np.uint32)
        except (ValueError, OverflowError, zlib.error):  # OverflowError: a gid past 32 bits
            raise self.error(label, "has corrupt tile data; re-save the map from Tiled") from None

    def read_object(self, node: ET.Element) -> _Object:
        oid = self.whole(node, "id") or 0
        name = node.get("name", "")
        where = f"object {oid}" + (f" {shown(name)}" if name else "")
        if node.get("template"):
            raise self.error(where, f"uses the template {shown(node.get('template'))}, which this game does "
                                    "not read; detach it in Tiled (right-click > Detach Template)")
        try:
            x, y = float(node.get("x", "0")), float(node.get("y", "0"))
            w, h = float(node.get("width", "0")), float(node.get("height", "0"))
            rotation = float(node.get("rotation", "0"))
        except ValueError:
            raise self.error(where, "has a position or size that is not a number") from None
        gid = self.whole(node, "gid")
        if gid is None or not 0 <= gid < 1 << 32:
            raise self.error(where, "has a tile gid that is not a 32-bit whole number")
        cls = node.get("type") or node.get("class") or ""
        props: dict[str, _Prop] = {}
        shape, points = "rect", []
        if gid:
            ts = self.tileset_of(gid & _GID_MASK)
            if ts is None:
                raise self.error(where, f"shows tile gid {gid & _GID_MASK}, which is in no tileset")
            local = (gid & _GID_MASK) - ts.firstgid
            tile_cls, tile_props = ts.tiles.get(local, ("", {}))
            cls = cls or tile_cls
            props.update(tile_props)
            shape = "tile"
            if not node.get("width"):
                w, h = map(float, ts.size(local))
            y -= h  # Tiled places tile objects by their bottom-left corner
        for child in node:
            if child.tag in ("point", "ellipse", "text"):
                shape = child.tag
            elif child.tag in ("polygon", "polyline"):
                shape = child.tag
                try:
                    points = [(float(a), float(b)) for a, b in
                              (p.split(",") for p in child.get("points", "").split())]
                except ValueError:
                    raise self.error(where, f"has unreadable {child.tag} points") from None
        where = f"object {oid}" + (f" {shown(name)}" if name else "") + (f" ({shown(cls)[1:-1]})" if cls else "")
        props.update(self.properties(node, where))
        return _Object(oid, name, cls, x, y, w, h, shape, points, rotation, gid, props)

    def check_placed(self, obj: _Object, width: int, height: int) -> None:
        """An object the game uses: finite numbers, no negative size, within the map plus the margin."""
        m = LIMITS.margin
        numbers = (obj.x, obj.y, obj.w, obj.h, obj.rotation, *(c for p in obj.points for c in p))
        if not all(math.isfinite(v) for v in numbers):
            raise self.error(obj.where, "has a position, size, rotation or point that is not a finite "
                                        "number (nan or inf); re-enter it in Tiled")
        if obj.w < 0 or obj.h < 0:
            raise self.error(obj.where, f"has a negative size ({obj.w:g}x{obj.h:g} px)")
        xs = [obj.x, obj.x + obj.w] + [obj.x + px for px, _ in obj.points]
        ys = [obj.y, obj.y + obj.h] + [obj.y + py for _, py in obj.points]
        if min(xs) < -m or max(xs) > width + m or min(ys) < -m or max(ys) > height + m:
            raise self.error(obj.where, f"reaches outside the map (x {min(xs):g}..{max(xs):g}, y "
                                        f"{min(ys):g}..{max(ys):g} px; the map is {width}x{height} px and "
                                        f"objects may reach {m:g} px beyond it)")

    # -- collision grid --------------------------------------------------------------------------------
    def collision_arrays(self, tile_layers, cols: int, rows: int):
        """Engine tile codes and slope heights per cell: the strongest collision over all layers wins a
        cell, the upper layer among equals."""
        n = cols * rows
        kinds = np.zeros(n, dtype=np.int8)
        strength = np.zeros(n, dtype=np.int32)
        left = np.zeros(n, dtype=np.int32)
        right = np.zeros(n, dtype=np.int32)
        for name, gids in tile_layers:
            s, code, lh, rh = self.collision_codes(gids, f"layer {shown(name)}", cols)
            take = (s > 0) & (s >= strength)
            strength[take], kinds[take], left[take], right[take] = s[take], code[take], lh[take], rh[take]
        shape = (rows, cols)
        return kinds.reshape(shape), left.reshape(shape), right.reshape(shape)

    def make_grid(self, kinds, left, right, tile_size: int):
        from engine import GridError, TileGrid

        try:
            return TileGrid(kinds, tile_size=tile_size, slope_left=left, slope_right=right)
        except GridError as exc:
            raise self.error("collision", str(exc)) from None

    # -- objects ---------------------------------------------------------------------------------------
    def build_level(self, objects: list[_Object], map_props, tile_size: int, cols: int, rows: int,
                    layer_order: list[str]) -> LevelData:
        by_id = {o.id: o for o in objects}
        buckets: dict[str, list[_Object]] = {c: [] for c in OBJECT_CLASSES}
        for obj in objects:
            if obj.cls in buckets:
                buckets[obj.cls].append(obj)
        spawns = buckets["spawn"]
        if not spawns:  # first: a map made for another game lacks it, and that is the thing to say
            close = [o for o in objects if difflib.get_close_matches(o.cls, ["spawn"], n=1, cutoff=0.75)]
            hint = f" ({close[0].where} looks like a misspelt one)" if close else ""
            raise self.error("", "has no spawn; add a point object of class 'spawn' where the player's "
                                 f"feet start{hint}")
        if len(spawns) > 1:
            ids = ", ".join(str(o.id) for o in spawns)
            raise self.error(spawns[1].where, f"is a second spawn (spawn objects: {ids}); keep exactly one")
        width, height = cols * tile_size, rows * tile_size
        for obj in objects:
            if obj.cls not in buckets and obj.cls:
                close = difflib.get_close_matches(obj.cls, OBJECT_CLASSES, n=1, cutoff=0.75)
                if close:
                    raise self.error(obj.where, f"unknown class {shown(obj.cls)}; did you mean '{close[0]}'?")
            known = KNOWN_PROPERTIES.get(obj.cls, ())
            for pname in obj.props:
                if pname not in known:
                    close = difflib.get_close_matches(pname, known, n=1, cutoff=0.75)
                    if close:
                        raise self.error(obj.where, f"unknown property {shown(pname)}; did you mean "
                                                    f"'{close[0]}'?")
            if obj.cls in buckets or obj.gid:  # simulated or drawn: its numbers must be sane
                self.check_placed(obj, width, height)
        spawn = spawns[0]
        if spawn.shape == "point":
            spawn_point = (spawn.x, spawn.y)
        else:
            self.check_rect(spawn)
            spawn_point = (spawn.x + spawn.w / 2.0, spawn.y + spawn.h)

        title = self.get(map_props, "title", ("string",), "map property", default="") or self.path.stem
        nxt = self.get(map_props, "next", ("string", "file"), "map property", default="") or None

        level = LevelData(
            path=self.path, name=self.path.name, title=title, next=nxt, tile_size=tile_size,
            cols=cols, rows=rows, width=width, height=height, grid=None,
            spawn=spawn_point, layer_order=layer_order,
        )
        for cls, target in (("goal", level.goals), ("checkpoint", level.checkpoints),
                            ("hazard", level.hazards), ("trigger", level.triggers)):
            for obj in buckets[cls]:
                self.check_rect(obj)
                target.append(self.area(obj))
        for obj in buckets["trigger"]:
            self.get(obj.props, "message", ("string",), obj.where, default="")
        for obj in buckets["coin"]:
            if obj.shape != "point":
                self.check_rect(obj)
            level.coins.append(self.area(obj))
        cover = sum(a.w * a.h for a in (*level.goals, *level.checkpoints, *level.hazards, *level.coins,
                                          *level.triggers))
        if cover > LIMITS.area_cover * width * height:
            raise self.error("", f"its goals, checkpoints, hazards, coins and triggers together cover more "
                                 f"than {LIMITS.area_cover} times the map's area, the limit")
        if len(buckets["platform"]) > LIMITS.platforms:
            raise self.error(buckets["platform"][LIMITS.platforms].where,
                             f"is one platform too many; a map may have {LIMITS.platforms}")
        for obj in buckets["platform"]:
            level.platforms.append(self.platform(obj, by_id, width, height))
        return level

    def check_rect(self, obj: _Object) -> None:
        if obj.shape in ("point", "polygon", "polyline", "text"):
            raise self.error(obj.where, f"must be a rectangle (or a tile object), not a {obj.shape}")
        if obj.rotation:
            raise self.error(obj.where, f"is rotated by {obj.rotation:g} degrees; areas must not be rotated")
        if obj.w <= 0 or obj.h <= 0:
            raise self.error(obj.where, f"has no size ({obj.w:g}x{obj.h:g} px); drag out a rectangle")

    def area(self, obj: _Object) -> Area:
        return Area(obj.x, obj.y, obj.w, obj.h, obj.name, obj.id,
                    {k: p.value for k, p in obj.props.items()}, None)

    def platform(self, obj: _Object, by_id: dict[int, _Object], width: int, height: int) -> PlatformSpec:
        self.check_rect(obj)
        where = obj.where
        # Tiled leaves out a property still at its class default, so the project's defaults apply here.
        speed = self.number(obj.props, "speed", where, PLATFORM_SPEED, "px/s", 0.0, LIMITS.platform_speed,
                            lo_open=True)
        wait = self.number(obj.props, "wait", where, 0.0, "s", 0.0, LIMITS.platform_wait)
        one_way = self.get(obj.props, "one_way", ("bool",), where, default=False)
        path_id = self.get(obj.props, "path", ("object",), where, default=0,
                           meaning=" (pick the polyline with Tiled's object picker)")
        span = 2 * LIMITS.margin + max(width, height)  # no route may be longer than the map and its margin
        dx = self.get(obj.props, "dx", ("float", "int"), where, default=None, meaning=" (px)")
        dy = self.get(obj.props, "dy", ("float", "int"), where, default=None, meaning=" (px)")
        if path_id:
            if dx is not None or dy is not None:
                raise self.error(where, "has both a path and dx/dy; use one of them")
            target = by_id.get(path_id)
            if target is None:
                raise self.error(where, f"path refers to object {path_id}, which does not exist")
            if target.shape != "polyline":
                raise self.error(where, f"path refers to {target.where}, which is a {target.shape}, "
                                        "not a polyline")
            if len(target.points) < 2:
                raise self.error(where, f"path {target.where} has fewer than 2 points")
            if len(target.points) > LIMITS.path_points:
                raise self.error(where, f"path {target.where} has {len(target.points)} points, over the "
                                        f"limit of {LIMITS.path_points}")
            if target.rotation:
                raise self.error(where, f"path {target.where} is rotated; paths must not be rotated")
            if not all(math.isfinite(c) and abs(c) <= span for p in target.points for c in p):
                raise self.error(where, f"path {target.where} has a point that is not a finite number or "
                                        f"is more than {span:g} px from its first point")
            x0, y0 = target.points[0]
            points = [(obj.x + px - x0, obj.y + py - y0) for px, py in target.points]
        else:
            dx, dy = dx or 0.0, dy or 0.0
            if not (abs(dx) <= span and abs(dy) <= span):
                raise self.error(where, f"dx/dy ({shown(str(dx), 12)[1:-1]}, {shown(str(dy), 12)[1:-1]}) "
                                        f"reach more than {span:g} px, beyond the map")
            points = [(obj.x, obj.y), (obj.x + dx, obj.y + dy)]
        if all(p == points[0] for p in points):  # one rule for a path and for dx/dy
            raise self.error(where, "goes nowhere; give it a 'path' (object property -> polyline) whose "
                                    "points are not all the same, or a non-zero 'dx'/'dy' (px)")
        for px, py in points:
            moved = _Object(obj.id, obj.name, obj.cls, px, py, obj.w, obj.h, "rect", [], 0.0, 0, {})
            self.check_placed(moved, width, height)
        return PlatformSpec(obj.x, obj.y, obj.w, obj.h, obj.name, obj.id, points, float(speed),
                            float(wait), bool(one_way), None)

    # -- pytmx -----------------------------------------------------------------------------------------
    def load_pytmx(self, images: bool):
        try:
            import pytmx

            if images:
                from pytmx.util_pygame import load_pygame

                return load_pygame(str(self.path), allow_duplicate_names=True)
            return pytmx.TiledMap(str(self.path), allow_duplicate_names=True)
        except Exception as exc:  # pytmx raises bare Exception/KeyError/ValueError; keep it one line
            reason = " ".join(str(exc).split()) or type(exc).__name__
            hint = ""
            if images and ("mode" in reason or "display" in reason):
                hint = " (images=True needs pygame.display.set_mode() first)"
            raise self.error("", f"pytmx could not load the map: {reason}{hint}") from None

    def attach_gids(self, level: LevelData) -> None:
        """Give tile objects the pytmx gid the renderer draws them with."""
        gids = {}
        for group in level.tmx.objectgroups:
            for obj in group:
                if obj.gid:
                    gids[obj.id] = obj.gid
        for area in (*level.goals, *level.checkpoints, *level.hazards, *level.coins, *level.triggers,
                     *level.platforms):
            area.gid = gids.get(area.id)


def _short(path, most: int = 160) -> str:
    """A path for a message: whole when short, else its start and '...'."""
    text = str(path)
    return text if len(text) <= most else text[:most] + "..."


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _suggest(word: str, options) -> str:
    close = difflib.get_close_matches(str(word), list(options), n=1, cutoff=0.5)
    if close:
        return f"; did you mean '{close[0]}'?"
    return f"; use one of {', '.join(options)}"
