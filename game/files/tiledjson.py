"""Tiled's JSON format (``.tmj``/``.json`` maps, ``.tsj`` tilesets) turned into the XML tree of the same map.

The level loader reads a ``.tmx`` tree; a JSON map is converted element for element into that tree (the
names of Tiled's JSON keys are its XML attributes), so it meets exactly the same validation, limits and
errors, and pytmx (which reads no JSON) builds the renderer's map from the same tree. An external ``.tsj``
tileset -- from a JSON map or a ``.tmx`` -- is read (size-capped like a ``.tsx``) and embedded in the tree
with its image paths made relative to the map, since pytmx would try to read the file itself.

Any structural problem (not JSON, a layer that is not an object, ``data`` that is neither a list nor a
string) is a :class:`JsonProblem` whose text is one line without the file name (the loader adds it).
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

from .userfiles import shown

__all__ = ["JsonProblem", "map_tree", "tileset_tree", "parse_json"]


class JsonProblem(Exception):
    """One line: what is wrong with the JSON (the caller names the file)."""


def parse_json(data: bytes, what: str) -> dict:
    """The JSON object in ``data``; a syntax error names its line and column."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise JsonProblem(f"the {what} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                          f"{exc.start}); save it as UTF-8") from None
    except json.JSONDecodeError as exc:
        raise JsonProblem(f"broken JSON at line {exc.lineno}, column {exc.colno} ({exc.msg}); is the file "
                          "complete? Re-save it from Tiled") from None
    except RecursionError:
        raise JsonProblem("JSON nested too deeply (hundreds of brackets inside each other)") from None
    except ValueError:  # int() of more than 4,300 digits
        raise JsonProblem("JSON holds a number thousands of digits long") from None
    if not isinstance(doc, dict):
        raise JsonProblem(f"not a Tiled {what} (the JSON is {_json_kind(doc)}, expected an object)")
    return doc


def _json_kind(v) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false"}.get(
        type(v), "null" if v is None else "a number")


def _text(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, (dict, list)):
        return json.dumps(value)[:200]
    return "" if value is None else str(value)


def _attrs(el: ET.Element, obj: dict, keys) -> None:
    for key in keys:
        if key in obj and obj[key] is not None:
            el.set(key, _text(obj[key]))


def _object(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise JsonProblem(f"{where} is {_json_kind(value)}, expected an object")
    return value


def _list(value, where: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise JsonProblem(f"{where} is {_json_kind(value)}, expected a list")
    return value


def _properties(parent: ET.Element, obj: dict, where: str) -> None:
    props = _list(obj.get("properties"), f"{where}: properties")
    if not props:
        return
    out = ET.SubElement(parent, "properties")
    for p in props:
        p = _object(p, f"{where}: a property")
        el = ET.SubElement(out, "property")
        _attrs(el, p, ("name", "type", "propertytype"))
        value = p.get("value")
        if isinstance(value, bool):
            el.set("value", "true" if value else "false")
        elif isinstance(value, dict):  # a class property: its members as properties
            _properties(el, {"properties": [{"name": k, "value": v} for k, v in value.items()]}, where)
        elif value is not None:
            el.set("value", _text(value))


_MAP_KEYS = ("version", "tiledversion", "orientation", "renderorder", "width", "height", "tilewidth",
             "tileheight", "infinite", "backgroundcolor", "nextlayerid", "nextobjectid", "class",
             "parallaxoriginx", "parallaxoriginy", "compressionlevel")
_LAYER_KEYS = ("id", "name", "class", "x", "y", "width", "height", "opacity", "visible", "tintcolor",
               "offsetx", "offsety", "parallaxx", "parallaxy", "locked")
_OBJECT_KEYS = ("id", "name", "type", "class", "x", "y", "width", "height", "rotation", "gid", "visible",
                "template")
_TILESET_KEYS = ("firstgid", "name", "class", "tilewidth", "tileheight", "spacing", "margin", "tilecount",
                 "columns", "objectalignment", "tilerendersize", "fillmode")


def map_tree(doc: dict, folder: Path, read_tileset) -> ET.Element:
    """The ``<map>`` tree of the JSON map ``doc`` (its folder: ``folder``). ``read_tileset(path)`` returns
    a ``.tsj`` file's parsed object (the caller caps and names it)."""
    if doc.get("type", "map") != "map":
        raise JsonProblem(f"not a Tiled map (\"type\" is {shown(doc.get('type'))}, expected \"map\")")
    root = ET.Element("map")
    _attrs(root, doc, _MAP_KEYS)
    _properties(root, doc, "map")
    for ts in _list(doc.get("tilesets"), "tilesets"):
        ts = _object(ts, "a tileset")
        source = ts.get("source")
        if isinstance(source, str) and source.lower().endswith((".tsj", ".json")):
            root.append(embedded_tileset(ts.get("firstgid"), source, folder, read_tileset))
        elif source is not None:
            ET.SubElement(root, "tileset", firstgid=_text(ts.get("firstgid")), source=_text(source))
        else:
            root.append(tileset_tree(ts, folder, folder))
    for layer in _list(doc.get("layers"), "layers"):
        _layer(root, layer, folder)
    return root


def embedded_tileset(firstgid, source: str, folder: Path, read_tileset) -> ET.Element:
    """The external ``.tsj`` tileset ``source`` (relative to ``folder``), embedded with its firstgid."""
    path = folder / source
    el = tileset_tree(read_tileset(path), path.parent, folder)
    el.set("firstgid", _text(firstgid))
    if el.get("name") is None:
        el.set("name", Path(source).stem)
    return el


def tileset_tree(ts: dict, images_from: Path, folder: Path) -> ET.Element:
    """A ``<tileset>`` from a JSON tileset; image paths (relative to ``images_from``) are rewritten
    relative to the map's ``folder``."""
    el = ET.Element("tileset")
    _attrs(el, ts, _TILESET_KEYS)
    where = f"tileset {shown(ts.get('name', '?'))}"
    offset = ts.get("tileoffset")
    if isinstance(offset, dict):
        _attrs(ET.SubElement(el, "tileoffset"), offset, ("x", "y"))
    _properties(el, ts, where)
    if ts.get("image") is not None:
        _image(el, ts, images_from, folder)
    for tile in _list(ts.get("tiles"), f"{where}: tiles"):
        tile = _object(tile, f"{where}: a tile")
        t = ET.SubElement(el, "tile")
        _attrs(t, tile, ("id", "type", "class", "probability"))
        _properties(t, tile, f"{where} tile {shown(tile.get('id'))}")
        if tile.get("image") is not None:
            _image(t, tile, images_from, folder)
        if isinstance(tile.get("objectgroup"), dict):
            _layer(t, {**tile["objectgroup"], "type": "objectgroup"}, folder)
        frames = _list(tile.get("animation"), f"{where}: an animation")
        if frames:
            anim = ET.SubElement(t, "animation")
            for f in frames:
                _attrs(ET.SubElement(anim, "frame"), _object(f, f"{where}: a frame"), ("tileid", "duration"))
    return el


def _image(parent: ET.Element, obj: dict, images_from: Path, folder: Path) -> None:
    src = obj.get("image")
    if not isinstance(src, str):
        raise JsonProblem(f"an image is {_json_kind(src)}, expected a file name")
    if src and images_from != folder:
        src = os.path.relpath(images_from / src, folder)
    img = ET.SubElement(parent, "image", source=src)
    if obj.get("imagewidth") is not None:
        img.set("width", _text(obj["imagewidth"]))
    if obj.get("imageheight") is not None:
        img.set("height", _text(obj["imageheight"]))
    if obj.get("transparentcolor") is not None:
        img.set("trans", _text(obj["transparentcolor"]).lstrip("#"))


def _layer(parent: ET.Element, layer, folder: Path) -> None:
    layer = _object(layer, "a layer")
    kind = layer.get("type")
    where = f"layer {shown(layer.get('name', '?'))}"
    tag = {"tilelayer": "layer", "objectgroup": "objectgroup", "imagelayer": "imagelayer",
           "group": "group"}.get(kind)
    if tag is None:
        raise JsonProblem(f"{where}: \"type\" is {shown(kind)}, expected tilelayer, objectgroup, imagelayer "
                          "or group")
    el = ET.SubElement(parent, tag)
    _attrs(el, layer, _LAYER_KEYS + (("draworder",) if tag == "objectgroup" else ()))
    _properties(el, layer, where)
    if tag == "layer":
        _tile_data(el, layer, where)
    elif tag == "objectgroup":
        for obj in _list(layer.get("objects"), f"{where}: objects"):
            _map_object(el, _object(obj, f"{where}: an object"), where)
    elif tag == "imagelayer":
        if layer.get("image"):
            _image(el, layer, folder, folder)
    else:
        for child in _list(layer.get("layers"), f"{where}: layers"):
            _layer(el, child, folder)


def _tile_data(el: ET.Element, layer: dict, where: str) -> None:
    if "chunks" in layer and "data" not in layer:
        chunks = ET.SubElement(el, "data", encoding=_text(layer.get("encoding") or "csv"))
        if layer.get("compression"):
            chunks.set("compression", _text(layer["compression"]))
        for ch in _list(layer["chunks"], f"{where}: chunks"):
            ch = _object(ch, f"{where}: a chunk")
            c = ET.SubElement(chunks, "chunk")
            _attrs(c, ch, ("x", "y", "width", "height"))
            c.text = _data_text(ch.get("data"), f"{where}: a chunk's data")
        return
    data = layer.get("data")
    encoding = layer.get("encoding") or ("csv" if isinstance(data, list) else "base64")
    d = ET.SubElement(el, "data", encoding=_text(encoding))
    if layer.get("compression"):
        d.set("compression", _text(layer["compression"]))
    d.text = _data_text(data, f"{where}: data")


def _data_text(data, where: str) -> str:
    if isinstance(data, str):
        return data
    if isinstance(data, list):
        return ",".join(_text(v) if not isinstance(v, (list, dict)) else "x" for v in data)
    raise JsonProblem(f"{where} is {_json_kind(data)}, expected a list of gids or a base64 string")


def _map_object(parent: ET.Element, obj: dict, where: str) -> None:
    el = ET.SubElement(parent, "object")
    _attrs(el, obj, _OBJECT_KEYS)
    if "visible" in obj:
        el.set("visible", _text(bool(obj["visible"])))
    _properties(el, obj, f"{where} object {shown(obj.get('id'))}")
    if obj.get("point"):
        ET.SubElement(el, "point")
    elif obj.get("ellipse"):
        ET.SubElement(el, "ellipse")
    for shape in ("polygon", "polyline"):
        if shape in obj:
            pts = _list(obj[shape], f"{where}: a {shape}")
            ET.SubElement(el, shape, points=" ".join(
                f"{_text(p.get('x'))},{_text(p.get('y'))}" if isinstance(p, dict) else "x,x" for p in pts))
    if isinstance(obj.get("text"), dict):
        t = ET.SubElement(el, "text")
        t.text = _text(obj["text"].get("text", ""))
