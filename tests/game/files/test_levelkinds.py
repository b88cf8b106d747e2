"""The table of object kinds: what each kind loads into, every property's one-line errors (generated from the
table itself), the tile forms of crumble and breakable, and the docs and Tiled project kept in step."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from game.files import levelfile
from game.files.levelfile import LevelData, load_level
from game.files.levelkinds import (
    DOCS_BEGIN,
    DOCS_END,
    ENEMY_SIZE,
    KIND_BY_NAME,
    KINDS,
    BreakableSpec,
    CrumbleSpec,
    TurretSpec,
    docs_section,
    tiled_property_types,
    MOVES,
)

ROOT = Path(__file__).resolve().parents[3]
MAPS = ROOT / "tests" / "maps"
FLAT = ",\n".join([",".join(["0"] * 20)] * 7 + [",".join(["1"] * 20)])
SPAWN = '<object id="1" name="start" type="spawn" x="40" y="112"><point/></object>'


def write_map(tmp_path, objects: str = "", *, layer: str = FLAT, tileset: str = "kinds_tiles.tsx",
              extra_layers: str = "") -> Path:
    for f in ("kinds_tiles.tsx", "test_tiles.tsx", "test_tiles.png"):
        (tmp_path / f).write_bytes((MAPS / f).read_bytes())
    path = tmp_path / "m.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" width="20" '
        f'height="8" tilewidth="16" tileheight="16" infinite="0"><tileset firstgid="1" source="{tileset}"/>'
        f'<layer id="1" name="ground" width="20" height="8"><data encoding="csv">{layer}</data></layer>'
        f'{extra_layers}<objectgroup id="2" name="objects">{SPAWN}{objects}</objectgroup></map>')
    return path


def obj(cls: str, props: dict, *, oid: int = 5, name: str = "it", shape: str = "") -> str:
    """An object of ``cls``: a point where the kind takes one, else a 32x16 rectangle."""
    kind = KIND_BY_NAME[cls]
    point = shape == "point" or (not shape and "point" in kind.shapes)
    xml = "".join(f'<property name="{k}" type="{t}" value="{v}"/>' for k, (t, v) in props.items())
    size = "" if point else ' width="32" height="16"'
    return (f'<object id="{oid}" name="{name}" type="{cls}" x="96" y="64"{size}><properties>{xml}</properties>'
            + ("<point/>" if point else "") + "</object>")


def setting(cls: str, prop) -> dict:
    """What a valid object needs beside ``prop``: the kind that the property applies to, a flyer's route."""
    kind = KIND_BY_NAME[cls]
    out = {}
    if prop.only:
        out[kind.selector] = ("string", prop.only[0])
    if (cls == "platform" or "flyer" in prop.only) and prop.name not in ("path", "dx", "dy"):
        out["dx"] = ("float", "32")
    return out


# -- what each kind loads into ----------------------------------------------------------------------------

def test_every_kind_fills_a_list_of_level_data():
    fields = {f.name for f in dataclasses.fields(LevelData)}
    assert len({k.name for k in KINDS}) == len(KINDS)
    for kind in KINDS:
        assert kind.field in fields, kind.name
    assert levelfile.OBJECT_CLASSES == tuple(k.name for k in KINDS)


def test_the_new_kinds_load_with_their_properties_and_defaults():
    level = load_level(MAPS / "kinds.tmx")
    walker, hopper, flyer = level.enemies
    assert (walker.kind, walker.facing, walker.speed) == ("walker", -1, 40.0)
    assert (walker.w, walker.h) == ENEMY_SIZE["walker"]
    assert (walker.x + walker.w / 2, walker.y + walker.h) == (80.0, 176.0)  # a point is where its feet stand
    assert (hopper.kind, hopper.facing, hopper.speed, hopper.hop_height, hopper.hop_period) == \
        ("hopper", 1, 0.0, 24.0, 0.75)
    assert (hopper.x, hopper.y, hopper.w, hopper.h) == (120.0, 160.0, 16.0, 16.0)  # a rectangle is its body
    assert flyer.kind == "flyer" and flyer.wait == 0.5 and flyer.speed == 50.0
    assert flyer.route == ((193.0, 70.0), (257.0, 70.0), (257.0, 38.0))
    assert walker.route == hopper.route == ()

    gun, cannon = level.turrets
    assert (gun.x, gun.y, gun.w, gun.h) == (32.0, 48.0, 16.0, 16.0)  # a point is its centre
    assert (gun.direction, gun.period, gun.speed, gun.delay) == ("right", 1.5, 200.0, 0.5)
    assert gun.aim == (1, 0) and gun.muzzle == (48.0, 56.0)
    assert cannon.direction == "down" and cannon.muzzle == (464.0, 32.0) and cannon.period == 2.0

    boing, big = level.springs
    assert (boing.x, boing.y, boing.w, boing.h, boing.height) == (292.0, 168.0, 16.0, 8.0, 64.0)
    assert (big.w, big.height) == (32.0, 120.0)

    ledge, bridge, *tiles = level.crumbles
    assert (ledge.delay, ledge.respawn, ledge.one_way, ledge.cells) == (0.5, 3.0, False, ())
    assert (bridge.delay, bridge.respawn, bridge.one_way) == (1.0, 0.0, True)
    brick, *cells = level.breakables
    assert brick.coin and brick.cells == ()
    ivy, long_ivy = level.vines
    assert (ivy.x, ivy.y, ivy.length, long_ivy.length) == (360.0, 16.0, 48.0, 96.0)
    assert tiles and cells  # below


def test_crumble_tiles_fall_a_row_at_a_time_and_breakable_tiles_one_by_one():
    level = load_level(MAPS / "kinds.tmx")
    tiles = [c for c in level.crumbles if c.cells]
    assert tiles == [
        CrumbleSpec(0, "", 320.0, 128.0, 64.0, 16.0, 0.25, 3.0, True, "ground", ((20, 8), (21, 8), (22, 8), (23, 8))),
        CrumbleSpec(0, "", 384.0, 128.0, 16.0, 16.0, 0.5, 0.0, False, "ground", ((24, 8),)),  # another tile
        CrumbleSpec(0, "", 416.0, 128.0, 32.0, 16.0, 0.5, 0.0, False, "ground", ((26, 8), (27, 8))),
    ]
    assert [b for b in level.breakables if b.cells] == [
        BreakableSpec(0, "", 160.0 + 16 * i, 96.0, 16.0, 16.0, i == 1, "ground", ((10 + i, 6),)) for i in range(3)]
    # they collide as their tiles say, so the engine's grid holds them until the game edits it
    assert level.grid.kind_at(20, 8).name == "ONE_WAY" and level.grid.kind_at(11, 6).name == "SOLID"


def test_records_are_frozen():
    turret = load_level(MAPS / "kinds.tmx").turrets[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        turret.speed = 1.0
    assert isinstance(turret, TurretSpec)


def test_pytmx_reads_the_enum_properties_tiled_writes():
    import pytmx
    tmx = pytmx.TiledMap(str(MAPS / "kinds.tmx"), allow_duplicate_names=True)
    assert tmx.get_object_by_name("frog").properties["kind"] == "hopper"


# -- every property's errors, from the table ----------------------------------------------------------------

def _error_cases():
    wrong = {"float": ("string", "fast"), "int": ("string", "fast"), "bool": ("string", "maybe"),
             "string": ("int", "3"), "object": ("string", "route")}
    for kind in KINDS:
        for p in kind.props:
            ident = f"{kind.name}.{p.name}"
            yield pytest.param(kind.name, p, {p.name: wrong[p.type]}, [f"'{p.name}'", f"{p.type} property"],
                               id=f"{ident}-type")
            if p.type == "float":
                for bad in ("nan", "inf", "-inf"):
                    yield pytest.param(kind.name, p, {p.name: ("float", bad)}, [f"'{p.name}'", repr(bad)],
                                       id=f"{ident}-{bad}")
            if p.lo is not None:
                low = p.lo if p.lo_open else p.lo - 1
                bound = f"above {p.lo:g}" if p.lo_open else f"at least {p.lo:g}"
                for value in (low, p.hi * 2 + 1):
                    yield pytest.param(kind.name, p, {p.name: ("float", repr(float(value)))},
                                       [f"{p.name} = {value:g}", bound, f"at most {p.hi:g}"], id=f"{ident}-{value:g}")
            if p.choices:
                typo = p.choices[-1][:-1] + "x"
                yield pytest.param(kind.name, p, {p.name: ("string", typo)},
                                   [f"{p.name} '{typo}' is unknown", f"did you mean '{p.choices[-1]}'",
                                    ", ".join(p.choices)], id=f"{ident}-choice")
            if p.only:
                other = next(c for c in KIND_BY_NAME[kind.name].prop(kind.selector).choices if c not in p.only)
                value = ("object", "99") if p.type == "object" else ("float", "1") if p.type == "float" else None
                yield pytest.param(kind.name, None, {kind.selector: ("string", other), p.name: value},
                                   [f"property '{p.name}' is for {kind.selector} '{p.only[0]}' only",
                                    f"{kind.selector} '{other}'"], id=f"{ident}-only")
            typo = p.name + "s"
            yield pytest.param(kind.name, p, {typo: ("string", "1")}, [f"unknown property '{typo}'",
                                                                        f"did you mean '{p.name}'"],
                               id=f"{ident}-typo")


@pytest.mark.parametrize("cls, prop, props, fragments", list(_error_cases()))
def test_each_bad_property_is_one_line_naming_the_object_and_the_property(tmp_path, cls, prop, props, fragments, load_error):
    given = {**(setting(cls, prop) if prop else {}), **props}  # (no prop: the case sets everything)
    message = load_error(write_map(tmp_path, obj(cls, given)))
    assert f"object 5 'it' ({cls})" in message, message
    for fragment in fragments:
        assert fragment in message, message


@pytest.mark.parametrize("objects, fragments", [
    (obj("enemy", {}, shape="point").replace("<point/>", '<polyline points="0,0 4,4"/>'),
     ["(enemy)", "must be a point or a rectangle (or a tile object), not a polyline"]),
    (obj("vine", {}).replace("<point/>", "").replace('y="64"', 'y="64" width="16" height="16"'),
     ["(vine)", "must be a point, not a rect"]),
    (obj("crumble", {}, shape="point"), ["(crumble)", "must be a rectangle (or a tile object), not a point"]),
    (obj("turret", {}, shape="rect").replace('width="32"', 'width="300"'), ["(turret)", "300x16 px",
                                                                              "at most 256 px a side"]),
    (obj("spring", {}, shape="rect").replace('height="16"', 'height="0"'), ["(spring)", "has no size"]),
    (obj("enemy", {"kind": ("string", "flyer")}), ["(enemy)", "goes nowhere", "'path'"]),
    (obj("enemy", {"kind": ("string", "flyer"), "dx": ("float", "32"), "speed": ("float", "0")}),
     ["(enemy)", "flyer with speed = 0 px/s"]),
    (obj("enemy", {"kind": ("string", "flyer"), "path": ("object", "6"), "dx": ("float", "8")}),
     ["(enemy)", "both a path and dx/dy"]),
    (obj("enemy", {"kind": ("string", "flyer"), "path": ("object", "99")}), ["object 99", "does not exist"]),
    (obj("enemy", {"kind": ("string", "flyer"), "dx": ("float", "1e6")}), ["(enemy)", "beyond the map"]),
    (obj("enemy", {"kind": ("string", "flyer"), "dy": ("float", "-1100")}), ["(enemy)", "outside the map"]),
    (obj("enemy", {}).replace('x="96"', 'x="nan"'), ["(enemy)", "not a finite number"]),
    (obj("vine", {}).replace('y="64"', 'y="1e9"'), ["(vine)", "outside the map"]),
    ('<object id="5" type="enemmy" x="3" y="3"><point/></object>', ["object 5 (enemmy)", "did you mean 'enemy'"]),
    ('<object id="5" type="crumbel" x="3" y="3" width="16" height="16"/>', ["did you mean 'crumble'"]),
])
def test_shapes_routes_and_places_of_the_new_kinds(tmp_path, objects, fragments, load_error):
    message = load_error(write_map(tmp_path, objects))
    for fragment in fragments:
        assert fragment in message, message


@pytest.mark.parametrize("field, kind", [("enemies", "enemy"), ("turrets", "turret"), ("vines", "vine")])
def test_each_count_limit_of_the_new_kinds(tmp_path, monkeypatch, field, kind, load_error):
    monkeypatch.setattr(levelfile, "LIMITS", dataclasses.replace(levelfile.LIMITS, **{field: 1}))
    objects = obj(kind, {}, oid=5) + obj(kind, {}, oid=6, name="two")
    message = load_error(write_map(tmp_path, objects))
    assert f"object 6 'two' ({kind}): is one {kind} too many; a map may have 1" in message


# -- tiles of a kind ------------------------------------------------------------------------------------------

def tileset(tile: str) -> str:
    return ('<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="8" columns="4">'
            '<image source="test_tiles.png" width="64" height="32"/>'
            '<tile id="0"><properties><property name="collision" value="solid"/></properties></tile>'
            f'{tile}</tileset>')


def write_tiles(tmp_path, tile: str, layer: str = FLAT.replace("0", "2", 1)) -> Path:
    path = write_map(tmp_path, layer=layer)
    text = path.read_text().replace('<tileset firstgid="1" source="kinds_tiles.tsx"/>', tileset(tile))
    path.write_text(text)
    return path


@pytest.mark.parametrize("tile, fragments", [
    ('<tile id="1" type="crumble"/>', ["tileset 't' tile 1", "crumble tile", "needs collision 'solid' or "
                                       "'one_way' (it has none)"]),
    ('<tile id="1" type="breakable"><properties><property name="collision" value="one_way"/></properties></tile>',
     ["tileset 't' tile 1", "needs collision 'solid', not 'one_way'"]),
    ('<tile id="1" type="crumble"><properties><property name="collision" value="solid"/>'
     '<property name="one_way" type="bool" value="true"/></properties></tile>',
     ["tileset 't' tile 1", "'one_way' is for crumble objects", "tile's collision decides"]),
    ('<tile id="1" type="crumble"><properties><property name="collision" value="solid"/>'
     '<property name="delay" type="float" value="-1"/></properties></tile>',
     ["tileset 't' tile 1", "delay = -1 s must be at least 0"]),
    ('<tile id="1" type="breakable"><properties><property name="collision" value="solid"/>'
     '<property name="coins" type="bool" value="true"/></properties></tile>',
     ["tileset 't' tile 1", "unknown property 'coins'; did you mean 'coin'?"]),
    ('<tile id="1" type="breakabel"><properties><property name="collision" value="solid"/></properties></tile>',
     ["tileset 't' tile 1", "unknown class 'breakabel'; did you mean 'breakable'?"]),
])
def test_a_bad_kind_tile_is_one_line_naming_the_tile(tmp_path, tile, fragments, load_error):
    message = load_error(write_tiles(tmp_path, tile))
    for fragment in fragments:
        assert fragment in message, message


def test_a_kind_tile_must_hold_its_cell_alone(tmp_path, load_error):
    tile = '<tile id="1" type="breakable"><properties><property name="collision" value="solid"/></properties></tile>'
    over = FLAT.replace("0", "1", 1)  # another layer's solid tile in the same cell (column 0, row 0)
    path = write_tiles(tmp_path, tile)
    text = path.read_text().replace('<objectgroup', f'<layer id="3" name="over" width="20" height="8">'
                                                    f'<data encoding="csv">{over}</data></layer><objectgroup')
    path.write_text(text)
    message = load_error(path)
    assert "layer 'ground' at column 0, row 0: a breakable tile shares its cell" in message, message


def test_kind_tiles_are_counted_against_their_limit(tmp_path, monkeypatch, load_error):
    monkeypatch.setattr(levelfile, "LIMITS", dataclasses.replace(levelfile.LIMITS, kind_tiles=3))
    tile = '<tile id="1" type="breakable"><properties><property name="collision" value="solid"/></properties></tile>'
    layer = FLAT.replace("0,0,0,0", "2,2,2,2", 1)
    assert "brings the crumble and breakable tiles to 4, over the limit of 3" in load_error(
        write_tiles(tmp_path, tile, layer))


def test_a_kind_tile_placed_as_a_tile_object_is_an_object_of_its_kind(tmp_path):
    objects = '<object id="5" name="block" gid="3" x="96" y="64" width="16" height="16"/>'  # kinds_tiles tile 2
    level = load_level(write_map(tmp_path, objects))
    (block,) = level.breakables
    assert (block.name, block.x, block.y, block.cells, block.coin) == ("block", 96.0, 48.0, (), False)


# -- the docs and the Tiled project, generated from the table ------------------------------------------------

def test_docs_list_every_kind_as_the_table_says():
    text = (ROOT / "docs" / "levels.md").read_text(encoding="utf-8")
    assert DOCS_BEGIN in text and DOCS_END in text
    assert docs_section() in text, "docs/levels.md is out of step with game/files/levelkinds.py; run " \
                                   "python tools/make_levels.py"
    for kind in KINDS:
        assert f"| `{kind.name}` |" in docs_section()
        for p in kind.props:
            assert f"| `{p.name}` |" in docs_section().split(f"### `{kind.name}`")[1]


def test_the_tiled_project_defines_every_kind_as_the_table_says():
    project = json.loads((ROOT / "levels" / "platformer.tiled-project").read_text())
    assert project["propertyTypes"] == tiled_property_types(), "run python tools/make_levels.py"
    classes = {t["name"]: t for t in project["propertyTypes"] if t["type"] == "class"}
    enums = {t["name"]: t["values"] for t in project["propertyTypes"] if t["type"] == "enum"}
    assert list(classes) == [k.name for k in KINDS] + ["level"]
    assert classes["level"]["useAs"] == ["map"]  # the map's moves: a flags enum, stored joined by commas
    (moves,) = classes["level"]["members"]
    flags = next(t for t in project["propertyTypes"] if t["name"] == moves["propertyType"])
    assert moves["name"] == "moves" and flags["valuesAsFlags"] and flags["values"] == list(MOVES)
    for kind in KINDS:
        members = {m["name"]: m for m in classes[kind.name]["members"]}
        assert list(members) == [p.name for p in kind.props]
        for p in kind.props:
            assert members[p.name]["type"] == p.type and members[p.name]["value"] == p.default, (kind.name, p)
            if p.choices:
                assert enums[members[p.name]["propertyType"]] == list(p.choices)
        assert ("tile" in classes[kind.name]["useAs"]) == bool(kind.tiles)
    ids = [t["id"] for t in project["propertyTypes"]]
    assert len(set(ids)) == len(ids)
