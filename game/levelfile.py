"""Load a Tiled map (.tmx with external .tsx tilesets) into :class:`LevelData`.

The loader reads the XML itself for everything with meaning -- tile collision, objects, properties,
layer order -- so that every problem becomes one :class:`LevelError` line naming the file and the
offending tile (tileset name + local tile id) or object (id, name, class). It then loads the same file
with pytmx for the renderer (``LevelData.tmx``). It never draws. The format is documented for level
designers in ``docs/levels.md``.
"""

from __future__ import annotations

import base64
import bisect
import difflib
import gzip
import math
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from xml.etree import ElementTree as ET

import numpy as np

__all__ = [
    "LevelError", "Area", "PlatformSpec", "LevelData", "load_level",
    "COLLISION_VALUES", "OBJECT_CLASSES", "COIN_POINT_SIZE",
]

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
        self.firstgids = [t.firstgid for t in self.tilesets]

        layer_order: list[str] = []
        tile_layers: list[tuple[str, list[int]]] = []
        objects: list[_Object] = []
        self.walk_layers(root, cols, rows, layer_order, tile_layers, objects)

        kinds, left, right = self.collision_arrays(tile_layers, cols, rows, tile_size)
        level = self.build_level(objects, map_props, tile_size, cols, rows, layer_order)
        level.grid = self.make_grid(kinds, left, right, tile_size)
        level.tmx = self.load_pytmx(images)
        self.attach_gids(level)
        return level

    def read_map_xml(self) -> ET.Element:
        if self.path.suffix.lower() in (".tmj", ".json"):
            raise self.error("", "JSON maps are not supported; save the map as .tmx "
                                 "(Tiled: File > Save As, 'Tiled map files (*.tmx)')")
        root = self.parse_xml(self.path, "map")
        if root.tag != "map":
            raise self.error("", f"not a Tiled map (the root element is <{root.tag}>, expected <map>)")
        return root

    def parse_xml(self, path: Path, what: str) -> ET.Element:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise self.error("" if path == self.path else str(path), f"{what} file not found") from None
        except OSError as exc:
            raise self.error("" if path == self.path else str(path),
                             f"cannot read {what} file ({exc.strerror or exc})") from None
        try:
            return ET.fromstring(data)
        except ET.ParseError as exc:
            line, col = getattr(exc, "position", (0, 0))
            reason = str(exc).split(":")[0]
            where = "" if path == self.path else str(path)
            raise self.error(where, f"broken XML at line {line}, column {col} ({reason}); "
                                    f"is the file complete? Re-save it from Tiled") from None

    def check_map(self, root: ET.Element) -> tuple[int, int, int]:
        orientation = root.get("orientation", "orthogonal")
        if orientation != "orthogonal":
            raise self.error("", f"{orientation} maps are not supported; use an orthogonal map")
        if root.get("infinite", "0") == "1":
            raise self.error("", "infinite maps are not supported; turn off 'Infinite' in Map > Map "
                                 "Properties (or Map > Resize Map to a fixed size)")
        try:
            tw, th = int(root.get("tilewidth", "0")), int(root.get("tileheight", "0"))
            cols, rows = int(root.get("width", "0")), int(root.get("height", "0"))
        except ValueError:
            raise self.error("", "map size or tile size is not a whole number") from None
        if tw <= 0 or tw != th:
            raise self.error("", f"tiles must be square; this map has {tw}x{th} px tiles")
        if cols <= 0 or rows <= 0:
            raise self.error("", f"map size {cols}x{rows} tiles is empty")
        return tw, cols, rows

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
                raise fail(f"property '{name}' is a {ptype} property, which this game does not read; "
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
                    raise fail(f"property '{name}' has the unknown type '{ptype}'")
            except ValueError:
                raise fail(f"property '{name}' is {_a(ptype)} property but holds {raw!r}") from None
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
                                    f"not {_a(prop.type)} property ({prop.raw!r}); change its type in Tiled")
        if kinds[0] == "float":
            return float(prop.value)
        return prop.value

    # -- tilesets --------------------------------------------------------------------------------------
    def read_tileset(self, node: ET.Element, tile_size: int) -> _Tileset:
        source = node.get("source")
        try:
            firstgid = int(node.get("firstgid", ""))
        except ValueError:
            raise self.error("", "a <tileset> has no valid firstgid; re-save the map from Tiled") from None
        if not source:
            name = node.get("name", "?")
            raise self.error(f"tileset '{name}'", "is embedded in the map; tilesets must be external "
                                                  ".tsx files (Tiled: Export Tileset As..., then use it)")
        tsx_path = self.path.parent / source
        if source.lower().endswith((".tsj", ".json")):
            raise self.error(f"tileset '{source}'", "JSON tilesets are not supported; save it as .tsx")
        if not tsx_path.exists():
            raise self.error(f"tileset '{source}'", f"file not found (looked for {tsx_path})")
        tsx = self.parse_xml(tsx_path, "tileset")
        if tsx.tag != "tileset":
            raise self.error(f"tileset '{source}'", f"not a Tiled tileset (root element <{tsx.tag}>)")
        name = tsx.get("name", Path(source).stem)
        where = f"tileset '{name}' ({source})"
        try:
            tw, th = int(tsx.get("tilewidth", "0")), int(tsx.get("tileheight", "0"))
            tilecount = int(tsx.get("tilecount", "0"))
        except ValueError:
            raise self.error(where, "tile size or tile count is not a whole number") from None
        self.properties(tsx, where)
        image = tsx.find("image")
        if image is not None:
            self.check_image(image, tsx_path, where)
        tiles: dict[int, tuple[str, dict[str, _Prop]]] = {}
        for tile in tsx.findall("tile"):
            try:
                local = int(tile.get("id", ""))
            except ValueError:
                raise self.error(where, "a <tile> has no valid id; re-save the tileset from Tiled") from None
            twhere = f"tileset '{name}' tile {local}"
            own_image = tile.find("image")
            if own_image is not None:
                self.check_image(own_image, tsx_path, twhere)
            cls = tile.get("type") or tile.get("class") or ""
            tiles[local] = (cls, self.properties(tile, twhere))
        ts = _Tileset(name, firstgid, source, tsx_path, tw, th, tilecount, image is None, tiles)
        self.read_collision(ts, tile_size)
        return ts

    def check_image(self, image: ET.Element, tsx_path: Path, where: str) -> None:
        src = image.get("source")
        if not src:
            raise self.error(where, "an <image> has no source")
        if not (tsx_path.parent / src).is_file():
            raise self.error(where, f"image '{src}' not found (looked for {tsx_path.parent / src})")

    def read_collision(self, ts: _Tileset, tile_size: int) -> None:
        for local, (_cls, props) in sorted(ts.tiles.items()):
            where = ts.where(local)
            kind = self.get(props, "collision", ("string",), where, default=None)
            if kind is None or kind == "":
                continue
            if kind not in COLLISION_VALUES:
                raise self.error(where, f"unknown collision {kind!r}{_suggest(kind, COLLISION_VALUES)}")
            if (ts.tilewidth, ts.tileheight) != (tile_size, tile_size):
                raise self.error(where, f"has collision but the tileset's tiles are "
                                        f"{ts.tilewidth}x{ts.tileheight} px and the map's {tile_size} px")
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
                        raise self.error(where, f"{key} = {value} is outside 0..{tile_size} px")
            ts.collision[local] = (kind, left, right)

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
                    tile_layers: list[tuple[str, list[int]]], objects: list[_Object],
                    offset: tuple[float, float] = (0.0, 0.0)) -> None:
        for node in parent:
            name = node.get("name", "")
            try:
                ox = offset[0] + float(node.get("offsetx", "0"))
                oy = offset[1] + float(node.get("offsety", "0"))
            except ValueError:
                raise self.error(f"layer '{name}'", "has an offset that is not a number") from None
            if node.tag == "group":
                self.properties(node, f"group layer '{name}'")
                self.walk_layers(node, cols, rows, order, tile_layers, objects, (ox, oy))
            elif node.tag == "layer":
                order.append(name)
                self.properties(node, f"layer '{name}'")
                gids = self.read_tile_data(node, name, cols, rows)
                if (ox, oy) != (0.0, 0.0):
                    self.check_unshifted(name, gids, ox, oy)
                tile_layers.append((name, gids))
            elif node.tag == "objectgroup":
                order.append(name)
                self.properties(node, f"object layer '{name}'")
                for obj in node.findall("object"):
                    item = self.read_object(obj)
                    item.x += ox  # Tiled draws (and so the designer sees) objects shifted by the offset
                    item.y += oy
                    objects.append(item)
            elif node.tag == "imagelayer":
                order.append(name)
                self.properties(node, f"image layer '{name}'")
                image = node.find("image")
                if image is not None and image.get("source"):
                    if not (self.path.parent / image.get("source")).is_file():
                        raise self.error(f"image layer '{name}'", f"image '{image.get('source')}' not found")

    def check_unshifted(self, name: str, gids: list[int], ox: float, oy: float) -> None:
        """Collision follows the tile grid, so a layer holding collision tiles must not be offset."""
        for raw in gids:
            ts = self.tileset_of(raw & _GID_MASK) if raw else None
            if ts is not None and (raw & _GID_MASK) - ts.firstgid in ts.collision:
                raise self.error(f"layer '{name}'", f"is offset by ({ox:g}, {oy:g}) px but holds collision "
                                                    "tiles; reset its offset (Layer Properties > Offset)")

    def read_tile_data(self, node: ET.Element, name: str, cols: int, rows: int) -> list[int]:
        where = f"layer '{name}'"
        data = node.find("data")
        if data is None:
            raise self.error(where, "has no <data>; re-save the map from Tiled")
        if data.find("chunk") is not None:
            raise self.error(where, "is stored in chunks (an infinite map); turn off 'Infinite' in Tiled")
        encoding, compression = data.get("encoding"), data.get("compression")
        text = (data.text or "").strip()
        try:
            if encoding == "csv":
                gids = [int(v) for v in text.replace("\n", "").split(",")] if text else []
            elif encoding == "base64":
                raw = base64.b64decode(text)
                if compression == "zlib":
                    raw = zlib.decompress(raw)
                elif compression == "gzip":
                    raw = gzip.decompress(raw)
                elif compression:
                    raise self.error(where, f"{compression} compression is not supported; use CSV or "
                                            "zlib/gzip (Map > Map Properties > Tile Layer Format)")
                if len(raw) % 4:
                    raise ValueError("length")
                gids = list(np.frombuffer(raw, dtype="<u4").tolist())
            else:
                raise self.error(where, "uses XML tile data, which is not supported; use CSV "
                                        "(Map > Map Properties > Tile Layer Format)")
        except (ValueError, zlib.error, OSError, EOFError):
            raise self.error(where, "has corrupt tile data; re-save the map from Tiled") from None
        if len(gids) != cols * rows:
            raise self.error(where, f"has {len(gids)} tiles, expected {cols}x{rows} = {cols * rows} "
                                    "(is the file cut short?)")
        return gids

    def read_object(self, node: ET.Element) -> _Object:
        try:
            oid = int(node.get("id", "0"))
        except ValueError:
            oid = 0
        name = node.get("name", "")
        where = f"object {oid}" + (f" '{name}'" if name else "")
        if node.get("template"):
            raise self.error(where, f"uses the template '{node.get('template')}', which this game does "
                                    "not read; detach it in Tiled (right-click > Detach Template)")
        try:
            x, y = float(node.get("x", "0")), float(node.get("y", "0"))
            w, h = float(node.get("width", "0")), float(node.get("height", "0"))
            rotation = float(node.get("rotation", "0"))
            gid = int(node.get("gid", "0"))
        except ValueError:
            raise self.error(where, "has a position or size that is not a number") from None
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
                w, h = float(ts.tilewidth), float(ts.tileheight)
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
        where = f"object {oid}" + (f" '{name}'" if name else "") + (f" ({cls})" if cls else "")
        props.update(self.properties(node, where))
        return _Object(oid, name, cls, x, y, w, h, shape, points, rotation, gid, props)

    # -- collision grid --------------------------------------------------------------------------------
    def collision_arrays(self, tile_layers, cols: int, rows: int, tile_size: int):
        kinds = np.full((rows, cols), "", dtype=object)
        strength = np.zeros((rows, cols), dtype=np.int8)
        left = np.zeros((rows, cols), dtype=np.int32)
        right = np.zeros((rows, cols), dtype=np.int32)
        for name, gids in tile_layers:
            for index, raw in enumerate(gids):
                if not raw:
                    continue
                gid = raw & _GID_MASK
                row, col = divmod(index, cols)
                ts = self.tileset_of(gid)
                if ts is None:
                    raise self.error(f"layer '{name}' at column {col}, row {row}",
                                     f"tile gid {gid} is in no tileset (was the map edited outside Tiled?)")
                info = ts.collision.get(gid - ts.firstgid)
                if info is None:
                    continue
                kind, lh, rh = info
                if kind == "slope" and raw & (_FLIP_V | _FLIP_D | _FLIP_HEX):
                    raise self.error(f"layer '{name}' at column {col}, row {row}",
                                     f"the slope tile ({ts.where(gid - ts.firstgid)}) is flipped "
                                     "vertically or rotated; slopes may only be flipped horizontally")
                if kind == "slope" and raw & _FLIP_H:
                    lh, rh = rh, lh
                s = _STRENGTH[kind]
                if s >= strength[row, col]:
                    strength[row, col] = s
                    kinds[row, col] = kind
                    left[row, col], right[row, col] = lh, rh
        return kinds, left, right

    def make_grid(self, kinds, left, right, tile_size: int):
        from engine import GridError, TileGrid, TileKind

        codes = {"": int(TileKind.EMPTY), "solid": int(TileKind.SOLID),
                 "one_way": int(TileKind.ONE_WAY), "slope": int(TileKind.SLOPE)}
        rows, cols = kinds.shape
        numeric = np.zeros((rows, cols), dtype=np.int8)
        for name, code in codes.items():
            numeric[kinds == name] = code
        try:
            return TileGrid(numeric, tile_size=tile_size, slope_left=left, slope_right=right)
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
            elif obj.cls:
                close = difflib.get_close_matches(obj.cls, OBJECT_CLASSES, n=1, cutoff=0.75)
                if close:
                    raise self.error(obj.where, f"unknown class '{obj.cls}'; did you mean '{close[0]}'?")
            known = KNOWN_PROPERTIES.get(obj.cls, ())
            for pname in obj.props:
                if pname not in known:
                    close = difflib.get_close_matches(pname, known, n=1, cutoff=0.75)
                    if close:
                        raise self.error(obj.where, f"unknown property '{pname}'; did you mean '{close[0]}'?")

        spawns = buckets["spawn"]
        if not spawns:
            raise self.error("", "has no spawn; add a point object of class 'spawn' where the player's "
                                 "feet start")
        if len(spawns) > 1:
            ids = ", ".join(str(o.id) for o in spawns)
            raise self.error(spawns[1].where, f"is a second spawn (spawn objects: {ids}); keep exactly one")
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
            cols=cols, rows=rows, width=cols * tile_size, height=rows * tile_size, grid=None,
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
        for obj in buckets["platform"]:
            level.platforms.append(self.platform(obj, by_id))
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

    def platform(self, obj: _Object, by_id: dict[int, _Object]) -> PlatformSpec:
        self.check_rect(obj)
        where = obj.where
        # Tiled leaves out a property still at its class default, so the project's defaults apply here.
        speed = self.get(obj.props, "speed", ("float", "int"), where, default=PLATFORM_SPEED,
                         meaning=" (px/s)")
        if speed <= 0:
            raise self.error(where, f"speed = {speed:g} px/s must be above 0")
        wait = self.get(obj.props, "wait", ("float", "int"), where, default=0.0, meaning=" (s)")
        if wait < 0:
            raise self.error(where, f"wait = {wait:g} s must not be negative")
        one_way = self.get(obj.props, "one_way", ("bool",), where, default=False)
        path_id = self.get(obj.props, "path", ("object",), where, default=0,
                           meaning=" (pick the polyline with Tiled's object picker)")
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
            if target.rotation:
                raise self.error(where, f"path {target.where} is rotated; paths must not be rotated")
            x0, y0 = target.points[0]
            points = [(obj.x + px - x0, obj.y + py - y0) for px, py in target.points]
        else:
            dx, dy = dx or 0.0, dy or 0.0
            if dx == 0 and dy == 0:
                raise self.error(where, "goes nowhere; give it a 'path' (object property -> polyline) "
                                        "or a non-zero 'dx'/'dy' (px)")
            points = [(obj.x, obj.y), (obj.x + dx, obj.y + dy)]
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


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _suggest(word: str, options) -> str:
    close = difflib.get_close_matches(str(word), list(options), n=1, cutoff=0.5)
    if close:
        return f"; did you mean '{close[0]}'?"
    return f"; use one of {', '.join(options)}"
