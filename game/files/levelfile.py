"""Load a Tiled map (.tmx; tilesets external .tsx files or embedded in the map) into :class:`LevelData`.

The loader reads the XML itself for everything with meaning -- tile collision, objects, properties,
layer order -- so that every problem becomes one :class:`LevelError` line naming the file and the
offending tile (tileset name + local tile id) or object (id, name, class). Objects are checked and read
by the table of kinds in ``levelkinds.py`` (each kind's properties, ranges and reader). Sizes, counts and
numbers are checked against :data:`LIMITS` before anything is allocated for them. It then hands the same
XML, with the tile layers it has already read, to pytmx for the renderer (``LevelData.tmx``). It never
draws. The format is documented for level designers
in ``docs/levels.md``, the limits in ``docs/reliability.md``.
"""

from __future__ import annotations

import base64
import bisect
import copy
import difflib
import logging
import math
import os
import warnings
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from xml.etree import ElementTree as ET

import numpy as np

from .levelkinds import (
    PLAYER_BOX,
    KIND_BY_NAME,
    KINDS,
    LIMITS,
    MOVES,
    WORLDS,
    Area,
    BreakableSpec,
    CrumbleSpec,
    EnemySpec,
    Kind,
    LevelData,
    Limits,
    PlatformSpec,
    SpringSpec,
    TurretSpec,
    RefillSpec,
    VineSpec,
    refill_box,
)
from .tiledjson import JsonProblem, embedded_tileset, map_tree, parse_json
from .userfiles import FileProblem, read_bytes, shown

__all__ = ["lint_level",
    "LevelError", "Area", "PlatformSpec", "EnemySpec", "TurretSpec", "SpringSpec", "CrumbleSpec",
    "BreakableSpec", "VineSpec", "RefillSpec", "LevelData", "Limits", "LIMITS", "load_level", "COLLISION_VALUES",
    "OBJECT_CLASSES", "COIN_POINT_SIZE", "PLATFORM_SPEED",
]

# pytmx logs a warning before it raises (e.g. "Found external tileset, but cannot handle type: None");
# with no handler configured Python would print it to stderr as a second line beside our one-line error.
# A NullHandler keeps it quiet unless the application configures logging itself.
logging.getLogger("pytmx").addHandler(logging.NullHandler())

COLLISION_VALUES = ("solid", "one_way", "slope")
OBJECT_CLASSES = tuple(k.name for k in KINDS)
PLATFORM_SPEED = KIND_BY_NAME["platform"].prop("speed").default  # px/s, when the map leaves it out
COIN_POINT_SIZE = 8.0  # px; the session gives a point coin a pickup box this big, centred on the point
# Tile properties that are not a tile kind's own (a kind's typo check leaves them alone).
_TILE_PROPERTIES = ("collision", "slope_left", "slope_right")
# A table property's Tiled type -> the types a map may give it (an int property serves as a float).
_ACCEPTS = {"float": ("float", "int"), "int": ("int",), "bool": ("bool",), "string": ("string",),
            "object": ("object",)}

# Tiled stores flips in the top bits of a gid.
_FLIP_H, _FLIP_V, _FLIP_D, _FLIP_HEX = 0x80000000, 0x40000000, 0x20000000, 0x10000000
_GID_MASK = 0x0FFFFFFF
# When tile layers overlap, the strongest collision wins a cell (equal strength: the upper layer).
_STRENGTH = {"one_way": 1, "slope": 2, "solid": 3}


class LevelError(Exception):
    """A problem with a level file. ``str(e)`` is one line naming the file and the tile or object."""


def load_level(path: str | Path, *, images: bool = False, goal: bool = False) -> LevelData:
    """Read a .tmx level. ``images=True`` loads tile images with pygame (needs a display mode set).

    Raises :class:`LevelError` (one line: file + tile/object + what to fix) for any problem, the map
    linter's included (see :func:`lint_level`). Warnings (an object of an unknown class, ignored) are in
    ``level.warnings``. ``goal``: a map without a goal is an error too (``python -m game check`` and the
    headless runner ask for it; a sandbox map for physics tests may have none).
    """
    loader = _Loader(Path(path))
    loader.require_goal = goal
    return loader.load(images)


def lint_level(path: str | Path) -> tuple[list[str], list[str]]:
    """Every problem of the map at ``path`` at once: ``(errors, warnings)``, one line each. The linter's
    problems -- no goal; an unknown property on a known class; an object further than ``LIMITS.outside``
    px outside the map; a spawn or checkpoint whose player box is inside solid ground -- are all listed;
    any other problem stops the reading, so it is listed alone (fix it and lint again)."""
    problems: list[str] = []
    loader = _Loader(Path(path), collect=problems)
    try:
        level = loader.load(False)
    except LevelError as exc:
        return problems + [str(exc)], []
    return problems, list(level.warnings)


# -- internals ---------------------------------------------------------------------------------------


class _Layer(NamedTuple):
    name: str
    gids: np.ndarray  # flat uint32, flip bits included
    node: ET.Element  # its <layer> element


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
    kinds: dict[int, int] = field(default_factory=dict)  # local id -> index into the loader's tile_kinds
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
    def __init__(self, path: Path, collect: list[str] | None = None):
        self.path = path
        self.collect = collect  # the linter's problems are listed here instead of raised (lint_level)
        self.warnings: list[str] = []
        self.outside: list[tuple[str, str]] = []  # objects beyond LIMITS.outside: reported after the reading
        self.require_goal = True
        self.tilesets: list[_Tileset] = []
        self.firstgids: list[int] = []
        self.objects = 0  # objects read so far (LIMITS.objects)
        self.layer_tiles = 0  # tiles in the tile layers read so far (LIMITS.layer_tiles)
        self.tile_kinds: list[tuple[Kind, dict, str, dict]] = []  # (kind, values, collision, props) of the
        #                 tileset tiles whose class is a tile kind; a tileset's ``kinds`` index it from 1
        self.by_id: dict[int, _Object] = {}
        self.size = (0, 0, 0)  # the map's width and height in px, and its tile size

    def error(self, where: str, message: str) -> LevelError:
        where = f"{where}: " if where else ""
        return LevelError(" ".join(f"{self.path}: {where}{message}".split()))

    def problem(self, where: str, message: str) -> None:
        """A map linter's problem: raised at once, or listed when linting (the map reads on)."""
        error = self.error(where, message)
        if self.collect is None:
            raise error
        self.collect.append(str(error))

    # -- top level -------------------------------------------------------------------------------------
    def load(self, images: bool) -> LevelData:
        root = self.read_map_xml()
        tile_size, cols, rows = self.check_map(root)
        map_props = self.properties(root, "map properties")
        for node in root.findall("tileset"):
            ts = self.read_tileset(node, tile_size)
            if ts.image_collection and not ts.tiles and ts.tilecount == 0:
                continue  # an empty image collection holds no gid: Tiled writes it sharing the next's firstgid
            self.tilesets.append(ts)
        self.tilesets.sort(key=lambda t: t.firstgid)
        self.check_gid_ranges()
        self.firstgids = [t.firstgid for t in self.tilesets]

        layer_order: list[str] = []
        tile_layers: list[_Layer] = []
        objects: list[_Object] = []
        self.walk_layers(root, cols, rows, layer_order, tile_layers, objects)

        kinds, left, right, marked = self.collision_arrays(tile_layers, cols, rows)
        level = self.build_level(objects, map_props, tile_size, cols, rows, layer_order)
        self.read_kind_tiles(level, marked, cols)
        level.tmx = self.load_pytmx(images, root, tile_layers, cols, rows)
        del root, tile_layers, marked  # the engine's grid is the biggest allocation: let it have the room
        level.grid = self.make_grid(kinds, left, right, tile_size)
        self.attach_gids(level)
        self.check_standing(level)
        level.warnings = list(self.warnings)
        return level

    def check_standing(self, level: LevelData) -> None:
        """The spawn and every checkpoint must give the player a box that is not inside solid ground (after
        the nudge out of the floor every spawn and respawn gets: engine ``World.settle``)."""
        from engine import Character, TileKind, World

        w, h = PLAYER_BOX
        grid = level.grid
        spots = [("the spawn", self.spawn_where, level.spawn)] + \
            [(f"checkpoint {c.id}" + (f" '{c.name}'" if c.name else ""), f"object {c.id}" +
              (f" '{c.name}'" if c.name else "") + " (checkpoint)", c.bottom_centre) for c in level.checkpoints]
        for what, where, (fx, fy) in spots:
            x, y = fx - w / 2.0, fy - h
            ts = grid.tile_size
            c0, c1 = math.floor(x / ts), math.floor((x + w - 1e-6) / ts)
            r0, r1 = math.floor(y / ts), math.floor((y + h - 1e-6) / ts)
            inside = [(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)
                      if 0 <= c < grid.cols and 0 <= r < grid.rows and grid.kind_at(c, r) == TileKind.SOLID]
            if inside:  # a box a little in the floor is nudged out by settle; one deeper in stays stuck
                world = World(grid)
                stands = world.settle(world.add(Character(x, y, w, h)))
            if inside and not stands:
                c, r = inside[0]
                self.problem(where, f"{what} puts the player's {w}x{h} px box inside solid ground (tile {c},{r}); "
                                    "move it up so the player's feet rest on the floor")
        for spec in level.refills:  # a crystal wholly inside solid ground can never be touched
            x, y, bw, bh = refill_box(spec)
            ts = grid.tile_size
            c0, c1 = math.floor(x / ts), math.floor((x + bw - 1e-6) / ts)
            r0, r1 = math.floor(y / ts), math.floor((y + bh - 1e-6) / ts)
            cells = [(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
            if all(0 <= c < grid.cols and 0 <= r < grid.rows and grid.kind_at(c, r) == TileKind.SOLID
                   for c, r in cells):
                where = f"object {spec.id}" + (f" '{spec.name}'" if spec.name else "") + " (refill)"
                self.problem(where, f"is inside solid ground (tile {cells[0][0]},{cells[0][1]}), where the player "
                                    "can never touch it; move it into the open")

    def read_map_xml(self) -> ET.Element:
        """The map's XML tree; a JSON map (``.tmj``/``.json``) converted into the same tree, and external
        ``.tsj`` tilesets embedded in it (see ``tiledjson``)."""
        if self.path.suffix.lower() in (".tmj", ".json"):
            try:
                doc = parse_json(self.read_capped(self.path, "map", LIMITS.map_bytes), "map")
                root = map_tree(doc, self.path.parent, self.read_tsj)
            except JsonProblem as exc:
                raise self.error("", str(exc)) from None
            except RecursionError:
                raise self.error("", "layers nested too deeply") from None
        else:
            root = self.parse_xml(self.path, "map", LIMITS.map_bytes)
        if root.tag != "map":
            raise self.error("", f"not a Tiled map (the root element is <{shown(root.tag)[1:-1]}>, expected <map>)")
        for i, node in enumerate(list(root)):
            source = node.get("source", "") if node.tag == "tileset" else ""
            if source.lower().endswith((".tsj", ".json")):
                try:
                    embedded = embedded_tileset(node.get("firstgid"), source, self.path.parent, self.read_tsj)
                except JsonProblem as exc:
                    raise self.error(f"tileset {shown(source)}", str(exc)) from None
                root.remove(node)
                root.insert(i, embedded)
        if root.get("infinite", "0") in ("1", "true"):
            self.bound_infinite(root)
        templates: dict[str, ET.Element] = {}
        for node in root.iter("object"):
            if node.get("template"):
                self.apply_template(root, node, templates)
        return root

    def bound_infinite(self, root: ET.Element) -> None:
        """An infinite map (tile layers in chunks) made a fixed-size one: the smallest rectangle of tiles
        holding every chunk, each layer's chunks laid into it as CSV, and every object and layer offset
        moved by the same amount (so the map plays as Tiled shows it). Sizes are checked against the
        limits before any grid is built."""
        tw, th = self.whole(root, "tilewidth"), self.whole(root, "tileheight")
        layers = [n for n in root.iter("layer")]
        boxes = []
        for layer in layers:
            data = layer.find("data")
            for ch in (data.findall("chunk") if data is not None else []):
                box = [self.whole(ch, k, "") for k in ("x", "y", "width", "height")]
                if None in box or box[2] <= 0 or box[3] <= 0 or box[2] * box[3] > LIMITS.map_tiles:
                    raise self.error(f"layer {shown(layer.get('name', '?'))}", "has a chunk whose position or "
                                     "size is not a whole number; re-save the map from Tiled")
                boxes.append(box)
        if boxes and (tw is None or th is None):  # (the checks the fixed-size map has, before the chunks
            raise self.error("", "map size or tile size is not a whole number")  # are laid out by them)
        if boxes and (tw <= 0 or tw != th):
            raise self.error("", f"tiles must be square; this map has {tw}x{th} px tiles")
        if not boxes:
            left = top = 0
            cols = rows = 1
        else:
            left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
            cols = max(b[0] + b[2] for b in boxes) - left
            rows = max(b[1] + b[3] for b in boxes) - top
        if cols > LIMITS.map_side or rows > LIMITS.map_side or cols * rows > LIMITS.map_tiles:
            raise self.error("", f"the infinite map's chunks span {cols}x{rows} tiles, over the limits (at most "
                                 f"{LIMITS.map_side} tiles a side and {LIMITS.map_tiles} tiles)")
        root.set("infinite", "0")
        root.set("width", str(cols))
        root.set("height", str(rows))
        for layer in layers:
            label = f"layer {shown(layer.get('name', '?'))}"
            grid = np.zeros((rows, cols), dtype=np.uint32)
            data = layer.find("data")
            if data is not None:
                for ch in data.findall("chunk"):
                    x, y, w, h = (self.whole(ch, k, "") for k in ("x", "y", "width", "height"))
                    fake = ET.Element("layer")
                    piece = ET.SubElement(fake, "data", dict(data.attrib))
                    piece.text = ch.text
                    gids = self.read_tile_data(fake, label, w, h)
                    grid[y - top:y - top + h, x - left:x - left + w] = gids.reshape(h, w)
                layer.remove(data)
            layer.set("width", str(cols))
            layer.set("height", str(rows))
            layer.attrib.pop("startx", None)
            layer.attrib.pop("starty", None)
            new = ET.SubElement(layer, "data", encoding="csv")
            new.text = "\n" + ",\n".join(",".join(map(str, row)) for row in grid.tolist()) + "\n"
        dx, dy = -left * (tw or 0), -top * (th or 0)
        if dx or dy:
            for group in root.iter("objectgroup"):
                for obj in group.findall("object"):
                    for key, d in (("x", dx), ("y", dy)):
                        try:
                            obj.set(key, repr(float(obj.get(key, "0")) + d))
                        except ValueError:
                            pass  # read_object names it
            for node in root.iter("imagelayer"):
                for key, d in (("offsetx", dx), ("offsety", dy)):
                    try:
                        node.set(key, repr(float(node.get(key, "0")) + d))
                    except ValueError:
                        pass

    def apply_template(self, root: ET.Element, node: ET.Element, cache: dict) -> None:
        """Fill an object from its template (``.tx``, or ``.tj`` JSON): the template's attributes, shape
        and properties, each overridden by the object's own -- what Tiled shows. A tile template's gid is
        moved into the map's copy of its tileset."""
        source = node.attrib.pop("template")
        where = f"object {shown(node.get('id', '?'), 20)[1:-1]}"
        path = self.path.parent / source
        key = os.path.normpath(path)
        if key not in cache:
            if not os.path.isfile(path):
                raise self.error(where, f"template {shown(source)} not found (looked for {_short(path)})")
            if source.lower().endswith((".tj", ".json")):
                try:
                    doc = parse_json(self.read_capped(path, "template", LIMITS.tileset_bytes), "template")
                    tree = ET.Element("template")
                    if isinstance(doc.get("tileset"), dict):
                        ET.SubElement(tree, "tileset", firstgid=str(doc["tileset"].get("firstgid", "")),
                                      source=str(doc["tileset"].get("source", "")))
                    layer = map_tree({"type": "map", "layers": [{"type": "objectgroup", "objects": [
                        doc.get("object")]}]}, path.parent, self.read_tsj)
                    tree.extend(layer.find("objectgroup"))
                except JsonProblem as exc:
                    raise self.error(f"template {shown(source)}", str(exc)) from None
            else:
                tree = self.parse_xml(path, "template", LIMITS.tileset_bytes)
            if tree.tag != "template" or tree.find("object") is None:
                raise self.error(f"template {shown(source)}", "is not a Tiled object template (<template> with "
                                                             "an <object>)")
            cache[key] = tree
        tree = cache[key]
        template = tree.find("object")
        own = dict(node.attrib)
        node.attrib.clear()
        node.attrib.update({k: v for k, v in template.attrib.items() if k != "id"})
        node.attrib.update(own)
        if template.get("gid") and "gid" not in own:
            node.set("gid", str(self.template_gid(root, tree, template.get("gid"), path.parent, source, where)))
        shapes = ("point", "ellipse", "polygon", "polyline", "text")
        if not any(child.tag in shapes for child in node):
            node.extend(copy.deepcopy(child) for child in template if child.tag in shapes)
        theirs = template.find("properties")
        if theirs is not None:
            mine = node.find("properties")
            if mine is None:
                mine = ET.SubElement(node, "properties")
            named = {p.get("name") for p in mine}
            mine.extend(copy.deepcopy(p) for p in theirs if p.get("name") not in named)

    def template_gid(self, root: ET.Element, tree: ET.Element, gid_text: str, folder: Path, source: str,
                     where: str) -> int:
        ts = tree.find("tileset")
        gid = self.whole(tree.find("object"), "gid")
        first = self.whole(ts, "firstgid", "") if ts is not None else None
        if ts is None or gid is None or first is None or not ts.get("source"):
            raise self.error(where, f"its template {shown(source)} shows a tile without its tileset")
        want = os.path.normpath(folder / ts.get("source"))
        for mts in root.findall("tileset"):
            if mts.get("source") and os.path.normpath(self.path.parent / mts.get("source")) == want:
                mfirst = self.whole(mts, "firstgid", "")
                if mfirst is not None:
                    flags, local = gid & ~_GID_MASK, (gid & _GID_MASK) - first
                    return flags | (mfirst + local)
        raise self.error(where, f"its template {shown(source)} shows a tile of {shown(ts.get('source'))}, a "
                                "tileset the map does not use; add that tileset to the map")

    def read_capped(self, path: Path, what: str, limit: int) -> bytes:
        where = "" if path == self.path else f"tileset {shown(path.name)}"
        try:
            return read_bytes(path, f"{what} file", limit)
        except FileProblem as exc:
            raise self.error(where, str(exc).removeprefix(f"{path}: ")) from None

    def read_tsj(self, path: Path) -> dict:
        """A JSON tileset file's object; any problem names the file."""
        try:
            return parse_json(self.read_capped(path, "tileset", LIMITS.tileset_bytes), "tileset")
        except JsonProblem as exc:
            raise self.error(f"tileset {shown(path.name)}", str(exc)) from None

    def parse_xml(self, path: Path, what: str, limit: int) -> ET.Element:
        where = "" if path == self.path else str(path)
        try:
            data = read_bytes(path, f"{what} file", limit)
        except FileProblem as exc:  # its text starts with the path; ours adds the map's
            raise self.error(where, str(exc).removeprefix(f"{path}: ")) from None
        if b"<!DOCTYPE" in data or b"<!ENTITY" in data:  # an entity may expand a KB into gigabytes
            raise self.error(where, "declares a DOCTYPE or XML entities, which Tiled never writes (and which "
                                    "can expand into gigabytes); remove them or re-save the file from Tiled")
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
            self.check_grid(tsx, image, tsx_path, tw, th, where)
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

    def check_grid(self, tsx: ET.Element, image: ET.Element, tsx_path: Path, tw: int, th: int,
                   where: str) -> None:
        """pytmx cuts a tileset image into tiles by the image's declared size, margin and spacing: keep
        that count bounded, the steps positive, and the declared size the image's own (a larger one would
        cut past its edge). An image without a size (older Tiled) gets the one its file states."""
        image_path = tsx_path.parent / image.get("source", "")
        if image.get("width") is None or image.get("height") is None:
            real = _image_size(image_path)
            if real is None or tsx_path != self.path:  # pytmx reads a .tsx itself: it must state the size
                raise self.error(where, "the tileset image has no width and height; re-save the tileset "
                                        "from Tiled")
            image.set("width", str(real[0]))
            image.set("height", str(real[1]))
        w, h = self.whole(image, "width"), self.whole(image, "height")
        if w is None or h is None or w < 0 or h < 0:
            raise self.error(where, "the tileset image's width or height is not a whole number")
        if tw <= 0 or th <= 0:
            raise self.error(where, f"tiles of {tw}x{th} px have no size")
        for key in ("spacing", "margin"):  # pytmx steps through the image by tile + spacing from margin
            v = self.whole(tsx, key)
            if v is None or not 0 <= v <= LIMITS.tile_size:
                raise self.error(where, f"{key} = {shown(tsx.get(key), 20)} must be a whole number of px from 0 "
                                        f"to {LIMITS.tile_size}")
        spacing, margin = self.whole(tsx, "spacing"), self.whole(tsx, "margin")
        across = max(0, (w - 2 * margin + spacing) // (tw + spacing))
        down = max(0, (h - 2 * margin + spacing) // (th + spacing))
        if across * down > LIMITS.tileset_tiles:
            raise self.error(where, f"a {w}x{h} px image of {tw}x{th} px tiles holds over "
                                    f"{LIMITS.tileset_tiles} tiles, the limit")
        real = _image_size(image_path)
        if real is not None and real != (w, h):
            raise self.error(where, f"the image {shown(image.get('source'))} is {real[0]}x{real[1]} px, but the "
                                    f"tileset says {w}x{h} px; re-save the tileset from Tiled so they agree")

    def read_collision(self, ts: _Tileset, tile_size: int) -> None:
        for local, (cls, props) in sorted(ts.tiles.items()):
            where = ts.where(local)
            kind = self.get(props, "collision", ("string",), where, default=None)
            if kind:
                if kind not in COLLISION_VALUES:
                    raise self.error(where, f"unknown collision {shown(kind)}{_suggest(kind, COLLISION_VALUES)}")
                tw, th = ts.size(local)
                if (tw, th) != (tile_size, tile_size):
                    raise self.error(where, f"has collision but the tile is {tw}x{th} px and the map's tiles "
                                            f"{tile_size} px")
                left = right = 0
                if kind == "slope":
                    if "slope_left" not in props or "slope_right" not in props:
                        raise self.error(where, "collision 'slope' needs heights; add int properties "
                                                "slope_left and slope_right (surface height in px above the "
                                                f"tile's bottom at its left/right edge, 0..{tile_size})")
                    left = self.get(props, "slope_left", ("int",), where, meaning=" (px)")
                    right = self.get(props, "slope_right", ("int",), where, meaning=" (px)")
                    for key, value in (("slope_left", left), ("slope_right", right)):
                        if not 0 <= value <= tile_size:
                            raise self.error(where, f"{key} = {shown(str(value), 12)[1:-1]} is outside "
                                                    f"0..{tile_size} px")
                ts.collision[local] = (kind, left, right)
            self.read_tile_kind(ts, local, cls, props, kind or "")

    def read_tile_kind(self, ts: _Tileset, local: int, cls: str, props: dict[str, _Prop], collision: str):
        """A tile whose class is a tile kind (crumble, breakable): its properties and collision checked."""
        where = ts.where(local)
        kind = KIND_BY_NAME.get(cls)
        if kind is None or not kind.tiles:
            close = difflib.get_close_matches(cls, [k.name for k in KINDS if k.tiles], n=1, cutoff=0.75)
            if cls and close and kind is None:
                raise self.error(where, f"unknown class {shown(cls)}; did you mean '{close[0]}'?")
            return
        values = self.check_props(kind, props, where, tile=True)
        if collision not in kind.tile_collision:
            need = " or ".join(f"'{c}'" for c in kind.tile_collision)
            have = f", not '{collision}'" if collision else " (it has none)"
            raise self.error(where, f"is a {kind.name} tile, so it needs collision {need}{have}")
        self.tile_kinds.append((kind, values, collision, props))
        ts.kinds[local] = len(self.tile_kinds)

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
                    tile_layers: list[_Layer], objects: list[_Object],
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
                tile_layers.append(_Layer(name, gids, node))
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
        table = np.zeros((len(uniq), 5), dtype=np.int32)  # strength, code, left, right, tile kind
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
            table[j, 4] = ts.kinds.get(gid - ts.firstgid, 0)
            kind, lh, rh = info
            if kind == "slope" and raw & (_FLIP_V | _FLIP_D | _FLIP_HEX):
                bad[raw] = (f"the slope tile ({ts.where(gid - ts.firstgid)}) is flipped vertically or "
                            "rotated; slopes may only be flipped horizontally")
                continue
            if kind == "slope" and raw & _FLIP_H:
                lh, rh = rh, lh
            table[j, :4] = (_STRENGTH[kind], codes[kind], lh, rh)
        if bad:  # report the first bad cell in reading order, as Tiled would show it
            index = int(np.flatnonzero(np.isin(gids, np.array(list(bad), dtype=gids.dtype)))[0])
            row, col = divmod(index, cols)
            raise self.error(f"{label} at column {col}, row {row}", bad[int(gids[index])])
        inverse = inverse.reshape(-1)
        return tuple(table[:, i].astype(dtype)[inverse]
                     for i, dtype in enumerate((np.int8, np.int8, np.int16, np.int16, np.int32)))

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
                fast = _csv_gids(text, expected)
                if fast is not None:
                    return fast
                cells = text.replace("\n", "").split(",") if text else []  # the exact reading, for its errors
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

    def check_placed(self, obj: _Object, width: int, height: int, where: str = "") -> None:
        """An object the game uses: finite numbers, no negative size, within the map plus the margin."""
        m = LIMITS.margin
        where = where or obj.where
        numbers = (obj.x, obj.y, obj.w, obj.h, obj.rotation, *(c for p in obj.points for c in p))
        if not all(math.isfinite(v) for v in numbers):
            raise self.error(where, "has a position, size, rotation or point that is not a finite "
                                        "number (nan or inf); re-enter it in Tiled")
        if obj.w < 0 or obj.h < 0:
            raise self.error(where, f"has a negative size ({obj.w:g}x{obj.h:g} px)")
        xs = [obj.x, obj.x + obj.w] + [obj.x + px for px, _ in obj.points]
        ys = [obj.y, obj.y + obj.h] + [obj.y + py for _, py in obj.points]
        if min(xs) < -m or max(xs) > width + m or min(ys) < -m or max(ys) > height + m:
            raise self.error(where, f"reaches outside the map (x {min(xs):g}..{max(xs):g}, y "
                                        f"{min(ys):g}..{max(ys):g} px; the map is {width}x{height} px and "
                                        f"objects may reach {m:g} px beyond it)")
        o = LIMITS.outside
        if obj.cls and (min(xs) < -o or max(xs) > width + o or min(ys) < -o or max(ys) > height + o):
            self.outside.append((where, f"lies outside the map (x {min(xs):g}..{max(xs):g}, y {min(ys):g}.."
                                        f"{max(ys):g} px; the map is {width}x{height} px and an object may reach "
                                        f"{o:g} px beyond its edges); move it inside"))

    # -- collision grid --------------------------------------------------------------------------------
    def collision_arrays(self, tile_layers, cols: int, rows: int):
        """Engine tile codes and slope heights per cell: the strongest collision over all layers wins a
        cell, the upper layer among equals. Also the layers holding tile-kind tiles (crumble, breakable):
        ``[(layer name, tile kind index per cell)]``, checked to share no cell with other collision."""
        n = cols * rows
        kinds = np.zeros(n, dtype=np.int8)
        strength = np.zeros(n, dtype=np.int8)
        left = np.zeros(n, dtype=np.int16)
        right = np.zeros(n, dtype=np.int16)
        layers = np.zeros(n, dtype=np.int32)  # collision tiles in each cell, over all layers
        marked: list[tuple[str, np.ndarray]] = []
        for name, gids, _node in tile_layers:
            s, code, lh, rh, tk = self.collision_codes(gids, f"layer {shown(name)}", cols)
            take = (s > 0) & (s >= strength)
            strength[take], kinds[take], left[take], right[take] = s[take], code[take], lh[take], rh[take]
            layers += s > 0
            if tk.any():
                marked.append((name, tk))
        if marked:
            self.check_kind_cells(marked, layers, cols)
        shape = (rows, cols)
        return kinds.reshape(shape), left.reshape(shape), right.reshape(shape), marked

    def check_kind_cells(self, marked, layers: np.ndarray, cols: int) -> None:
        """A crumble or breakable tile alone holds its cell's collision (when it goes, the cell is free)
        and there are at most LIMITS.kind_tiles of them."""
        count = sum(int(np.count_nonzero(tk)) for _, tk in marked)
        if count > LIMITS.kind_tiles:
            raise self.error(f"layer {shown(marked[-1][0])}", f"brings the crumble and breakable tiles to "
                                                              f"{count}, over the limit of {LIMITS.kind_tiles}")
        for name, tk in marked:
            shared = np.flatnonzero((tk > 0) & (layers > 1))
            if shared.size:
                row, col = divmod(int(shared[0]), cols)
                kind = self.tile_kinds[int(tk[shared[0]]) - 1][0].name
                raise self.error(f"layer {shown(name)} at column {col}, row {row}",
                                 f"a {kind} tile shares its cell with a collision tile of another layer; "
                                 f"when it goes the other would stay: remove one of them")

    def read_kind_tiles(self, level: LevelData, marked, cols: int) -> None:
        """Records for the crumble and breakable tiles: a row run of equal tiles per record ("run" kinds)
        or one per cell, in layer order, then reading order."""
        ts = level.tile_size
        runs = np.array([k[0].tiles == "run" for k in self.tile_kinds], dtype=bool)
        for name, tk in marked:
            idx = np.flatnonzero(tk)
            vals = tk[idx]
            rows, cols_ = np.divmod(idx, cols)
            joined = np.zeros(len(idx), dtype=bool)  # continues the run of the cell before it
            joined[1:] = (rows[1:] == rows[:-1]) & (cols_[1:] == cols_[:-1] + 1) & (vals[1:] == vals[:-1]) \
                & runs[vals[1:] - 1]
            starts = np.flatnonzero(~joined).tolist() + [len(idx)]
            for a, b in zip(starts, starts[1:], strict=False):
                kind, values, collision, props = self.tile_kinds[int(vals[a]) - 1]
                row, c0, c1 = int(rows[a]), int(cols_[a]), int(cols_[b - 1])
                cells = tuple((c, row) for c in range(c0, c1 + 1))
                view = _View(self, f"layer {shown(name)} at column {c0}, row {row}", kind, values, props,
                             shape="tiles", x=c0 * ts, y=row * ts, w=(c1 - c0 + 1) * ts, h=ts, layer=name,
                             cells=cells, collision=collision)
                getattr(level, kind.field).append(kind.read(view))

    def read_moves(self, text: str) -> tuple[str, ...]:
        """The ``moves`` map property: move names joined by commas (spaces allowed), each once; in MOVES order."""
        names = [w.strip() for w in str(text or "").split(",")]
        if names == [""]:
            return ()
        for name in names:
            if name not in MOVES:
                what = "an empty name (two commas?)" if not name else f"{shown(name)} is not a move"
                self.problem("map property", f"moves: {what}{_suggest(name, MOVES)}")
            elif names.count(name) > 1:
                self.problem("map property", f"moves: {shown(name)} is listed twice")
        return tuple(m for m in MOVES if m in names)

    def make_grid(self, kinds, left, right, tile_size: int):
        from engine import GridError, TileGrid

        try:
            return TileGrid(kinds, tile_size=tile_size, slope_left=left, slope_right=right)
        except GridError as exc:
            raise self.error("collision", str(exc)) from None

    # -- objects ---------------------------------------------------------------------------------------
    def build_level(self, objects: list[_Object], map_props, tile_size: int, cols: int, rows: int,
                    layer_order: list[str]) -> LevelData:
        self.by_id = {o.id: o for o in objects}
        buckets: dict[str, list[_Object]] = {k.name: [] for k in KINDS}
        for obj in objects:
            if obj.cls in buckets:
                buckets[obj.cls].append(obj)
        for kind in KINDS:  # first: a map made for another game lacks a spawn, and that is the thing to say
            if kind.one:
                self.check_one(kind, buckets[kind.name], objects)
        self.spawn_where = buckets["spawn"][0].where if buckets.get("spawn") else "the spawn"
        width, height = cols * tile_size, rows * tile_size
        self.size = (width, height, tile_size)
        for obj in objects:
            if obj.cls not in buckets and obj.cls:
                close = difflib.get_close_matches(obj.cls, OBJECT_CLASSES, n=1, cutoff=0.75)
                if close:
                    raise self.error(obj.where, f"unknown class {shown(obj.cls)}; did you mean '{close[0]}'?")
                self.warnings.append(f"{self.path}: {obj.where}: unknown class {shown(obj.cls)}, ignored; the "
                                     f"classes the game knows are {', '.join(OBJECT_CLASSES)}")
            if obj.cls in buckets or obj.gid:  # simulated or drawn: its numbers must be sane
                self.check_placed(obj, width, height)
        for kind in KINDS:
            most = getattr(LIMITS, kind.most) if kind.most else None
            if most is not None and len(buckets[kind.name]) > most:
                raise self.error(buckets[kind.name][most].where,
                                 f"is one {kind.name} too many; a map may have {most}")

        title = self.get(map_props, "title", ("string",), "map property", default="") or self.path.stem
        nxt = self.get(map_props, "next", ("string", "file"), "map property", default="") or None
        fall = (self.number(map_props, "fall_limit", "map property", 0.0, "px", 0.0, float(height), lo_open=True)
                if "fall_limit" in map_props else None)
        world = self.get(map_props, "world", ("string",), "map property", default="dusk") or "dusk"
        if world not in WORLDS:
            self.problem("map property", f"world {shown(world)} is not a world{_suggest(world, WORLDS)}")
            world = "dusk"
        moves = self.read_moves(self.get(map_props, "moves", ("string",), "map property", default=""))
        level = LevelData(
            path=self.path, name=self.path.name, title=title, next=nxt, tile_size=tile_size,
            cols=cols, rows=rows, width=width, height=height, grid=None, spawn=(0.0, 0.0),
            layer_order=layer_order, fall_limit=fall, world=world, moves=moves,
        )
        for kind in KINDS:
            for obj in buckets[kind.name]:
                record = self.read(kind, obj)
                if kind.one:
                    setattr(level, kind.field, record)
                else:
                    getattr(level, kind.field).append(record)
        covers = [k for k in KINDS if k.covers]
        cover = sum(a.w * a.h for k in covers for a in getattr(level, k.field))
        if cover > LIMITS.area_cover * width * height:
            names = [k.field for k in covers]
            raise self.error("", f"its {', '.join(names[:-1])} and {names[-1]} together cover more than "
                                 f"{LIMITS.area_cover} times the map's area, the limit")
        for where, message in self.outside:
            self.problem(where, message)
        if self.require_goal and "goal" in buckets and not buckets["goal"]:
            close = [o for o in objects if difflib.get_close_matches(o.cls, ["goal"], n=1, cutoff=0.6)]
            hint = f" ({close[0].where} looks like a misspelt one)" if close else ""
            self.problem("", f"has no goal: the level cannot be finished; add a rectangle object of class "
                             f"'goal' where it ends{hint}")
        return level

    def check_one(self, kind: Kind, found: list[_Object], objects: list[_Object]) -> None:
        if not found:
            close = [o for o in objects if difflib.get_close_matches(o.cls, [kind.name], n=1, cutoff=0.75)]
            hint = f" ({close[0].where} looks like a misspelt one)" if close else ""
            raise self.error("", f"has no {kind.name}; add a point object of class '{kind.name}' where the "
                                 f"player's feet start{hint}")
        if len(found) > 1:
            ids = ", ".join(str(o.id) for o in found)
            raise self.error(found[1].where, f"is a second {kind.name} ({kind.name} objects: {ids}); keep "
                                             "exactly one")

    def read(self, kind: Kind, obj: _Object):
        """One object of a table kind: its shape and properties checked, then its reader's record."""
        self.check_shape(kind, obj)
        values = self.check_props(kind, obj.props, obj.where, tile_object=bool(obj.gid))
        view = _View(self, obj.where, kind, values, obj.props, id=obj.id, name=obj.name, x=obj.x, y=obj.y,
                     w=obj.w, h=obj.h, shape="point" if obj.shape == "point" else "tile" if obj.gid else "rect")
        return kind.read(view)

    def check_shape(self, kind: Kind, obj: _Object) -> None:
        shape = "point" if obj.shape == "point" else "rect" if obj.shape in ("rect", "ellipse", "tile") else ""
        if shape not in kind.shapes:
            allowed = " or ".join((["a point"] if "point" in kind.shapes else [])
                                  + (["a rectangle (or a tile object)"] if "rect" in kind.shapes else []))
            raise self.error(obj.where, f"must be {allowed}, not a {obj.shape}")
        if shape == "rect":
            if obj.rotation:
                raise self.error(obj.where, f"is rotated by {obj.rotation:g} degrees; areas must not be rotated")
            if obj.w <= 0 or obj.h <= 0:
                raise self.error(obj.where, f"has no size ({obj.w:g}x{obj.h:g} px); drag out a rectangle")
            if kind.side and max(obj.w, obj.h) > LIMITS.body_side:
                raise self.error(obj.where, f"is {obj.w:g}x{obj.h:g} px; {_a(kind.name)} is at most "
                                            f"{LIMITS.body_side:g} px a side")

    def check_props(self, kind: Kind, props: dict[str, _Prop], where: str, *, tile: bool = False,
                    tile_object: bool = False) -> dict:
        """Every table property of ``kind``: its checked value, or its default when the map leaves it out
        (Tiled leaves out a property still at its class default). A name close to one of the kind's is
        reported as a typo; other unknown properties are left alone."""
        names = [p.name for p in kind.props]
        for pname in props:
            if pname not in names and not ((tile or tile_object) and pname in _TILE_PROPERTIES):
                close = difflib.get_close_matches(pname, names, n=1, cutoff=0.6)
                hint = f"did you mean '{close[0]}'? " if close else ""
                known = f"a {kind.name} has {', '.join(names)}" if names else f"a {kind.name} has no properties"
                self.problem(where, f"unknown property {shown(pname)}; {hint}the game would ignore it ({known})")
        values = {}
        for p in kind.props:
            if p.lo is not None:
                value = self.number(props, p.name, where, p.default, p.unit, p.lo, p.hi, lo_open=p.lo_open)
            else:
                meaning = f" ({p.unit})" if p.unit else \
                    " (pick the polyline with Tiled's object picker)" if p.type == "object" else ""
                value = self.get(props, p.name, _ACCEPTS[p.type], where, default=p.default, meaning=meaning)
            if p.choices and value not in p.choices:
                close = difflib.get_close_matches(str(value), p.choices, n=1, cutoff=0.5)
                hint = f"did you mean '{close[0]}'? " if close else ""
                raise self.error(where, f"{p.name} {shown(value)} is unknown; {hint}({p.name} is one of "
                                        f"{', '.join(p.choices)})")
            if tile and not p.tiles and p.name in props:
                raise self.error(where, f"property '{p.name}' is for {kind.name} objects; on a tile, the "
                                        "tile's collision decides")
            values[p.name] = value
        for p in kind.props:
            chosen = values.get(kind.selector)
            if p.only and p.name in props and chosen not in p.only:
                raise self.error(where, f"property '{p.name}' is for {kind.selector} "
                                        f"{' or '.join(repr(c) for c in p.only)} only, and this {kind.name} is "
                                        f"{kind.selector} {shown(chosen)}; remove it or change "
                                        f"'{kind.selector}'")
        return values

    def route(self, where: str, values: dict, given, start: tuple[float, float],
              size: tuple[float, float]) -> list[tuple[float, float]]:
        """Top-left positions from ``start`` along the 'path' polyline's shape, or to start + (dx, dy);
        every one within the map and its margin."""
        width, height, _ = self.size
        span = 2 * LIMITS.margin + max(width, height)  # no route may be longer than the map and its margin
        path_id, dx, dy = values["path"], values["dx"], values["dy"]
        sx, sy = start
        if path_id:
            if given("dx") or given("dy"):
                raise self.error(where, "has both a path and dx/dy; use one of them")
            target = self.by_id.get(path_id)
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
            points = [(sx + px - x0, sy + py - y0) for px, py in target.points]
        else:
            if not (abs(dx) <= span and abs(dy) <= span):
                raise self.error(where, f"dx/dy ({shown(str(dx), 12)[1:-1]}, {shown(str(dy), 12)[1:-1]}) "
                                        f"reach more than {span:g} px, beyond the map")
            points = [(sx, sy), (sx + dx, sy + dy)]
        if all(p == points[0] for p in points):  # one rule for a path and for dx/dy
            raise self.error(where, "goes nowhere; give it a 'path' (object property -> polyline) whose "
                                    "points are not all the same, or a non-zero 'dx'/'dy' (px)")
        w, h = size
        for px, py in points:
            self.check_placed(_Object(0, "", "", px, py, w, h, "rect", [], 0.0, 0, {}), width, height, where)
        return points

    # -- pytmx -----------------------------------------------------------------------------------------
    def load_pytmx(self, images: bool, root: ET.Element, tile_layers: list[_Layer], cols: int, rows: int):
        """pytmx's map for the renderer, built from the XML already read. The tile layers' data is not
        parsed a second time: each layer's few distinct gids are registered with pytmx in the order pytmx
        itself meets them (so its numbering is the one ``pytmx.TiledMap(path)`` gives), then its cells are
        mapped from our arrays."""
        try:
            import pytmx

            if images:
                from pytmx.util_pygame import pygame_image_loader as image_loader
            else:
                image_loader = pytmx.pytmx.default_image_loader
            tmx = pytmx.TiledMap(image_loader=image_loader, allow_duplicate_names=True)
            tmx.filename = str(self.path)
            data = {}
            for layer in tile_layers:
                uniq, first, inverse = np.unique(layer.gids, return_index=True, return_inverse=True)
                numbers = [0] * len(uniq)
                for j in np.argsort(first).tolist():
                    numbers[j] = tmx.register_gid_check_flags(int(uniq[j]))
                # an object array hands every cell the same int object pytmx keeps for its gid
                data[id(layer.node)] = np.array(numbers, dtype=object)[inverse.reshape(-1)].reshape(rows,
                                                                                                  cols).tolist()
                node = layer.node.find("data")
                node.text, node.attrib = "", {"encoding": "base64"}  # pytmx reads an empty layer
            self.ready_for_pytmx(root)
            tmx.parse_xml(root)
            nodes = root.findall(".//layer")  # the order pytmx made its tile layers in
            for layer, node in zip([t for t in tmx.layers if isinstance(t, pytmx.TiledTileLayer)], nodes,
                                   strict=True):
                if id(node) in data:
                    layer.data = data.pop(id(node))
            return tmx
        except LevelError:
            raise
        except Exception as exc:  # pytmx raises bare Exception/KeyError/ValueError; keep it one line
            reason = " ".join(str(exc).split()) or type(exc).__name__
            hint = ""
            if images and ("mode" in reason or "display" in reason):
                hint = " (images=True needs pygame.display.set_mode() first)"
            raise self.error("", f"pytmx could not load the map: {reason}{hint}") from None

    def ready_for_pytmx(self, root: ET.Element) -> None:
        """Every attribute pytmx casts must cast, or the error names the element it is on (pytmx's own
        says only "invalid literal for int()"). Fractional layer offsets, which Tiled writes and this
        loader reads, are rounded to the whole px pytmx (and the renderer) draws at."""
        import pytmx

        casts = pytmx.pytmx.types
        for node in root.iter():
            for key, value in node.attrib.items():
                cast = casts.get(key)
                if cast is None:
                    continue
                if key in ("offsetx", "offsety"):
                    try:
                        number = float(value)
                    except ValueError:
                        number = math.nan
                    if math.isfinite(number):
                        node.set(key, str(round(number)))
                        continue
                try:
                    cast(value)
                except (ValueError, TypeError, OverflowError):
                    raise self.error(_label(node), f"{key}={shown(value, 40)} is not "
                                                   f"{'a whole number' if cast is int else 'a number'}") from None

    def attach_gids(self, level: LevelData) -> None:
        """Give tile objects the pytmx gid the renderer draws them with."""
        gids = {}
        for group in level.tmx.objectgroups:
            for obj in group:
                if obj.gid:
                    gids[obj.id] = obj.gid
        for kind in KINDS:
            for record in getattr(level, kind.field) if not kind.one else ():
                if isinstance(record, (Area, PlatformSpec)):
                    record.gid = gids.get(record.id)


class _View:
    """A reader's view of one object or run of tiles (``levelkinds.Obj``): checked values, the object's
    place, and the loader's errors and routes."""

    def __init__(self, loader: _Loader, where: str, kind: Kind, values: dict, props: dict[str, _Prop], *,
                 shape: str, x: float, y: float, w: float, h: float, id: int = 0, name: str = "",
                 layer: str = "", cells: tuple = (), collision: str = ""):
        self._loader, self._where, self._values, self._given = loader, where, values, props
        self.id, self.name, self.shape = id, name, shape
        self.x, self.y, self.w, self.h = float(x), float(y), float(w), float(h)
        self.props = {k: p.value for k, p in props.items()}
        self.layer, self.cells, self.collision = layer, cells, collision
        self.tile_size = loader.size[2]

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def given(self, name: str) -> bool:
        return name in self._given

    def fail(self, message: str) -> LevelError:
        return self._loader.error(self._where, message)

    def box(self, size: tuple[float, float], anchor: str) -> tuple[float, float, float, float]:
        if self.shape != "point":
            return self.x, self.y, self.w, self.h
        w, h = size
        return self.x - w / 2.0, self.y - (h if anchor == "feet" else h / 2.0), w, h

    def route(self, start: tuple[float, float], size: tuple[float, float]) -> list[tuple[float, float]]:
        return self._loader.route(self._where, self._values, self.given, start, size)


def _csv_gids(text: str, expected: int) -> np.ndarray | None:
    """A CSV layer's gids read by numpy, or None when the text is anything but ``expected`` plain whole
    numbers 0..2^32-1 between commas (then the exact reading decides, and says what is wrong)."""
    if text.count(",") != expected - 1:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            values = np.fromstring(text, dtype=np.int64, sep=",")
    except (ValueError, DeprecationWarning):
        return None
    if values.size != expected or (expected and (values.min() < 0 or values.max() > 0xFFFFFFFF)):
        return None
    return values.astype(np.uint32)


def _label(node: ET.Element) -> str:
    """How an error names a map element: ``layer 'ground'``, ``tileset 'tiles'``, ``object 12``."""
    tag = node.tag
    if tag in ("layer", "objectgroup", "imagelayer", "group"):
        return f"layer {shown(node.get('name', '?'))}"
    if tag in ("object", "tileset"):
        return f"{tag} {shown(node.get('name') or node.get('id', '?'))}"
    return f"<{shown(tag, 20)[1:-1]}>"


def _image_size(path: Path) -> tuple[int, int] | None:
    """(width, height) from a PNG's header (its first 24 bytes), or None for another format or a file
    that cannot be read (the renderer's image loader then reports it)."""
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except OSError:
        return None
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


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
