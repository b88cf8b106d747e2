"""Loading Tiled maps: collision from tile properties, objects by class, and one-line errors."""

from pathlib import Path

import pytest

from engine import TileKind
from game.files.levelfile import Area, LevelError, load_level

MAPS = Path(__file__).resolve().parents[2] / "maps"
ERRORS = MAPS / "errors"
E, S, OW, SL = TileKind.EMPTY, TileKind.SOLID, TileKind.ONE_WAY, TileKind.SLOPE


def kinds_row(level, row):
    return [TileKind(int(k)) for k in level.grid.kinds[row]]


# -- the map and its tiles ----------------------------------------------------------------------------

def test_map_size_title_next_and_spawn_point():
    level = load_level(MAPS / "flat.tmx")
    assert (level.name, level.title, level.next) == ("flat.tmx", "Flat ground", "ledge.tmx")
    assert (level.tile_size, level.cols, level.rows, level.width, level.height) == (16, 20, 8, 320, 128)
    assert level.spawn == (40.0, 112.0)
    assert level.path == MAPS / "flat.tmx"


def test_title_defaults_to_the_file_name_and_next_to_none():
    level = load_level(MAPS / "ledge.tmx")
    assert (level.title, level.next) == ("ledge", None)


def test_solid_tiles_build_the_grid():
    level = load_level(MAPS / "flat.tmx")
    assert kinds_row(level, 7) == [S] * 20
    assert kinds_row(level, 3) == [S] + [E] * 18 + [S]
    assert (level.grid.rows, level.grid.cols, level.grid.tile_size) == (8, 20, 16)


def test_one_way_tiles():
    level = load_level(MAPS / "one_way.tmx")
    assert kinds_row(level, 6) == [S] + [OW] * 13 + [E, S]


def test_slope_heights_come_from_tile_properties_and_a_horizontal_flip_swaps_them():
    level = load_level(MAPS / "slopes.tmx")
    grid = level.grid
    assert kinds_row(level, 6)[3:5] == [SL, SL]
    assert (grid.slope_left[6, 3], grid.slope_right[6, 3]) == (0, 8)
    assert (grid.slope_left[6, 4], grid.slope_right[6, 4]) == (8, 16)
    assert (grid.slope_left[5, 6], grid.slope_right[5, 6]) == (0, 16)
    assert (grid.slope_left[6, 10], grid.slope_right[6, 10]) == (16, 0)
    # column 9 holds tile 2 (0 -> 16) flipped horizontally in Tiled: 16 -> 0
    assert grid.kind_at(9, 5) == SL
    assert (grid.slope_left[5, 9], grid.slope_right[5, 9]) == (16, 0)


def test_layer_order_follows_the_file_with_groups_flattened():
    level = load_level(MAPS / "layers.tmx")
    assert level.layer_order == ["sky", "base", "things", "over", "front"]


def test_overlapping_tile_layers_keep_the_strongest_collision():
    # base row 3 is solid; 'over' puts one-way and solid there: solid wins over one-way,
    # slope wins over one-way (row 1), and cells only one layer fills keep it.
    level = load_level(MAPS / "layers.tmx")
    assert kinds_row(level, 3) == [S] * 8
    assert kinds_row(level, 1) == [S, OW, OW, SL, SL, OW, E, S]


# -- objects ------------------------------------------------------------------------------------------

def test_objects_by_class_accepting_both_type_and_class_attributes():
    level = load_level(MAPS / "objects.tmx")
    assert level.spawn == (24.0, 112.0)
    (sign,) = level.triggers  # written with Tiled 1.9's class="trigger"
    assert (sign.name, sign.id, sign.x, sign.y, sign.w, sign.h) == ("sign", 2, 48, 80, 32, 32)
    assert sign.props["message"] == "Jump the spikes"
    assert [(a.name, a.id) for a in level.checkpoints] == [("cp1", 4)]
    assert [(a.name, a.x, a.y, a.w, a.h) for a in level.hazards] == [("spikes", 176, 104, 16, 8)]
    assert [a.name for a in level.goals] == ["exit"]
    assert level.platforms == []


def test_coins_may_be_points_rects_or_tile_objects():
    c1, c2, c3 = load_level(MAPS / "objects.tmx").coins
    assert (c1.name, c1.x, c1.y, c1.w, c1.h, c1.gid) == ("c1", 100, 104, 0, 0, None)
    assert (c2.name, c2.x, c2.y, c2.w, c2.h, c2.gid) == ("c2", 260, 96, 8, 8, None)
    # a tile object: class 'coin' comes from the tile; y is converted to the top; gid is pytmx's
    assert (c3.name, c3.x, c3.y, c3.w, c3.h) == ("c3", 280, 96, 16, 16)
    assert c3.gid is not None and c3.gid > 0


def test_objects_of_other_classes_are_left_alone():
    level = load_level(MAPS / "objects.tmx")  # has a 'decor' rect
    names = {a.name for group in (level.goals, level.checkpoints, level.hazards, level.coins, level.triggers)
             for a in group}
    assert "note" not in names


def test_a_rect_spawn_puts_the_feet_at_its_bottom_centre():
    assert load_level(MAPS / "goal.tmx").spawn == (40.0, 112.0)


def test_platform_with_a_polyline_path_travels_its_shape_from_where_it_is_placed():
    lift, shuttle = load_level(MAPS / "platforms.tmx").platforms
    assert (lift.name, lift.id, lift.x, lift.y, lift.w, lift.h) == ("lift", 2, 64, 160, 32, 8)
    assert lift.points == [(64, 160), (64, 96), (112, 96)]
    assert (lift.speed, lift.wait, lift.one_way) == (40.0, 0.5, False)


def test_platform_with_dx_dy_goes_back_and_forth():
    _, shuttle = load_level(MAPS / "platforms.tmx").platforms
    assert shuttle.points == [(160, 120), (224, 120)]
    assert (shuttle.speed, shuttle.wait, shuttle.one_way) == (60.0, 0.0, True)


def test_area_bottom_centre():
    assert Area(10, 20, 16, 32, "", 1, {}).bottom_centre == (18, 52)


def test_the_pytmx_map_is_attached_for_rendering():
    level = load_level(MAPS / "objects.tmx")
    assert level.tmx.width == 30 and level.tmx.tilewidth == 16


def test_images_load_with_a_display():
    pygame = pytest.importorskip("pygame")
    pygame.display.init()
    try:
        pygame.display.set_mode((1, 1))
        level = load_level(MAPS / "objects.tmx", images=True)
        coin = level.coins[2]
        assert level.tmx.get_tile_image_by_gid(coin.gid).get_size() == (16, 16)
    finally:
        pygame.display.quit()


# -- errors: one line naming the file and the tile or object --------------------------------------------

@pytest.mark.parametrize("name, fragments", [
    ("truncated.tmx", ["broken XML at line"]),
    ("missing_tileset.tmx", ["tileset 'no_such_tiles.tsx'", "not found"]),
    ("missing_image.tmx", ["tileset 'lost_art'", "image 'no_such_image.png' not found"]),
    ("unknown_collision.tmx", ["tileset 'unknown_collision' tile 3", "unknown collision 'soild'",
                               "did you mean 'solid'"]),
    ("slope_without_heights.tmx", ["tileset 'slope_without_heights' tile 2", "slope_left", "slope_right"]),
    ("slope_out_of_range.tmx", ["tileset 'slope_out_of_range' tile 2", "slope_right = 20", "0..16"]),
    ("tile_property_type.tmx", ["tileset 'tile_property_type' tile 4", "'slope_left'", "int property"]),
    ("flipped_slope.tmx", ["column 6, row 2", "tileset 'test_tiles' tile 2", "flipped"]),
    ("no_spawn.tmx", ["no spawn"]),
    ("two_spawns.tmx", ["object 7 'again' (spawn)", "exactly one"]),
    ("object_property_type.tmx", ["object 5 'lift' (platform)", "'speed'", "float property", "'fast'"]),
    ("bad_bool.tmx", ["object 5 'lift' (platform)", "'one_way'", "'maybe'"]),
    ("zero_speed.tmx", ["object 5 'lift' (platform)", "speed = 0 px/s must be above 0"]),
    ("platform_nowhere.tmx", ["object 5 'stuck' (platform)", "path", "dx"]),
    ("path_not_polyline.tmx", ["object 5 'lift' (platform)", "object 6 'route'", "not a polyline"]),
    ("path_missing.tmx", ["object 5 'lift' (platform)", "object 99", "does not exist"]),
    ("typo_class.tmx", ["object 4 'cp' (chekpoint)", "did you mean 'checkpoint'"]),
    ("point_hazard.tmx", ["object 4 'spike' (hazard)", "rectangle"]),
    ("template.tmx", ["object 4", "template 'coin.tx'"]),
    ("list_property.tmx", ["object 4 'sign' (trigger)", "'lines'", "list property"]),
    ("class_property.tmx", ["object 4 'sign' (trigger)", "'style'", "class property"]),
    ("infinite.tmx", ["infinite maps are not supported"]),
    ("level.tmj", ["JSON maps are not supported"]),
])
def test_a_broken_map_is_one_line_naming_the_file_and_the_culprit(name, fragments):
    path = ERRORS / name
    with pytest.raises(LevelError) as err:
        load_level(path)
    message = str(err.value)
    assert message.startswith(f"{path}: "), message
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message


def test_a_missing_map_file(tmp_path):
    with pytest.raises(LevelError, match=r"nope\.tmx: map file not found"):
        load_level(tmp_path / "nope.tmx")


def test_a_file_that_is_not_a_map(tmp_path):
    path = tmp_path / "tiles.tmx"
    path.write_text((MAPS / "test_tiles.tsx").read_text())
    with pytest.raises(LevelError, match="not a Tiled map"):
        load_level(path)


def test_objects_follow_their_layer_and_group_offsets():
    level = load_level(MAPS / "offsets.tmx")  # group offset (4, 2) + layer offset (4, -2)
    assert level.spawn == (32.0, 48.0)
    assert (level.coins[0].x, level.coins[0].y) == (48.0, 40.0)


def test_a_collision_layer_must_not_be_offset():
    path = ERRORS / "offset_layer.tmx"
    message = r"layer 'ground': is offset by \(3, 0\) px but holds collision tiles"
    with pytest.raises(LevelError, match=message):
        load_level(path)


def test_a_platform_without_speed_moves_at_the_class_default():
    from game.files.levelfile import PLATFORM_SPEED

    level = load_level(MAPS / "no_speed.tmx")
    assert [p.speed for p in level.platforms] == [PLATFORM_SPEED] == [40.0]


# -- hostile numbers, sizes and files (issue 10): a one-line error naming the object, before allocating ---

FLAT_ROWS = ",\n".join([",".join(["0"] * 20)] * 7 + [",".join(["1"] * 20)])
SPAWN = '<object id="1" name="start" type="spawn" x="40" y="112"><point/></object>'


def write_map(tmp_path, objects=SPAWN, *, size='width="20" height="8"', tileset=None, layers=None,
              name="m.tmx") -> Path:
    """A 20x8 flat map (test_tiles.tsx beside it) with the given object XML, tileset and layers."""
    for f in ("test_tiles.tsx", "test_tiles.png"):
        (tmp_path / f).write_bytes((MAPS / f).read_bytes())
    tileset = tileset if tileset is not None else '<tileset firstgid="1" source="test_tiles.tsx"/>'
    if layers is None:
        layers = f'<layer id="1" name="ground" width="20" height="8"><data encoding="csv">{FLAT_ROWS}</data></layer>'
    path = tmp_path / name
    path.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" '
                    f'{size} tilewidth="16" tileheight="16" infinite="0">{tileset}{layers}'
                    f'<objectgroup id="2" name="objects">{objects}</objectgroup></map>')
    return path


def platform(props: str, extra: str = "") -> str:
    return (SPAWN + f'<object id="5" name="lift" type="platform" x="40" y="60" width="32" height="8">'
            f'<properties>{props}</properties></object>{extra}')


def prop(name, value, kind="float"):
    return f'<property name="{name}" type="{kind}" value="{value}"/>'


@pytest.mark.parametrize("objects, fragments", [
    ('<object id="1" type="spawn" x="nan" y="112"><point/></object>', ["object 1 (spawn)", "not a finite"]),
    ('<object id="1" type="spawn" x="1e308" y="112"><point/></object>', ["object 1 (spawn)", "outside the map"]),
    (SPAWN + '<object id="2" name="exit" type="goal" x="40" y="10" width="inf" height="10"/>',
     ["object 2 'exit' (goal)", "not a finite"]),
    (SPAWN + '<object id="2" type="goal" x="40" y="10" width="1e308" height="10"/>',
     ["object 2 (goal)", "outside the map"]),
    (SPAWN + '<object id="2" type="goal" x="40" y="10" width="1e6" height="1e6"/>',
     ["object 2 (goal)", "outside the map", "1024 px"]),
    (SPAWN + '<object id="2" type="goal" x="40" y="10" width="-16" height="16" gid="1"/>',
     ["object 2 (goal)", "negative size"]),
    (SPAWN + '<object id="3" type="decor" x="1e9" y="0" width="16" height="16" gid="7"/>',
     ["object 3 (decor)", "outside the map"]),  # a drawn tile object counts too
    (platform(prop("speed", "1e9") + prop("dx", "1e9")), ["object 5 'lift' (platform)", "at most 2000 px/s"]),
    (platform(prop("speed", "40") + prop("dx", "1e7")), ["object 5 'lift' (platform)", "dx/dy", "beyond the map"]),
    (platform(prop("speed", "9" * 400, "int") + prop("dx", "64")), ["'speed'", "far too large"]),
    (platform(prop("speed", "9" * 5000, "int")), ["'speed'", "int property but holds '9999"]),
    (platform(prop("wait", "1e9") + prop("dx", "64")), ["wait = 1e+09 s", "at most 3600 s"]),
    (platform(prop("path", "6", "object"), '<object id="6" x="40" y="60"><polyline points="0,0 nan,0"/></object>'),
     ["object 5 'lift' (platform)", "not a finite number"]),
    (platform(prop("path", "6", "object"), '<object id="6" x="40" y="60"><polyline points="0,0 inf,0"/></object>'),
     ["object 5 'lift' (platform)", "not a finite number"]),
    (platform(prop("path", "6", "object"),
              '<object id="6" x="40" y="60"><polyline points="' + " ".join(f"{i},0" for i in range(300)) + '"/></object>'),
     ["object 5 'lift' (platform)", "300 points", "limit of 256"]),
])
def test_hostile_numbers_in_objects_are_one_line_naming_the_object(tmp_path, objects, fragments, load_error):
    message = load_error(write_map(tmp_path, objects))
    for fragment in fragments:
        assert fragment in message, message


def test_a_zero_length_path_and_zero_dx_dy_break_the_same_rule(tmp_path, load_error):
    still = platform(prop("path", "6", "object"), '<object id="6" x="40" y="60"><polyline points="3,3 3,3"/></object>')
    zero = platform(prop("dx", "0") + prop("dy", "0"))
    messages = [load_error(write_map(tmp_path, objects, name=f"{i}.tmx")) for i, objects in enumerate((still, zero))]
    assert all("goes nowhere" in m for m in messages)
    assert messages[0].split(": ", 1)[1] == messages[1].split(": ", 1)[1]


@pytest.mark.parametrize("firstgid", ["0", "-5", "x", "268435456"])
def test_a_tileset_firstgid_below_1_is_refused_rather_than_shifting_collision(tmp_path, firstgid, load_error):
    path = write_map(tmp_path, tileset=f'<tileset firstgid="{firstgid}" source="test_tiles.tsx"/>')
    assert "firstgid" in load_error(path)


def test_overlapping_tileset_gid_ranges_are_refused(tmp_path, load_error):
    tilesets = '<tileset firstgid="1" source="test_tiles.tsx"/><tileset firstgid="5" source="test_tiles.tsx"/>'
    message = load_error(write_map(tmp_path, tileset=tilesets))
    assert "starts at firstgid 5" in message and "gids 1..8" in message


def test_a_tileset_that_is_not_tsx_is_one_line_and_pytmx_logs_nothing(tmp_path, capfd, load_error):
    (tmp_path / "tiles.xml").write_bytes((MAPS / "test_tiles.tsx").read_bytes())
    path = write_map(tmp_path, tileset='<tileset firstgid="1" source="tiles.xml"/>')
    assert "is not a .tsx file" in load_error(path)
    assert capfd.readouterr().err == ""


def test_pytmx_warnings_never_reach_stderr(tmp_path, capfd):
    import logging
    logging.getLogger("pytmx.pytmx").warning("Found external tileset, but cannot handle type: None")
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("size, layers, fragment", [
    ('width="10000" height="10000"', "", "over the limits"),  # used to take 100 s and 15 GB
    ('width="100000" height="100000"', "", "over the limits"),  # MemoryError: 74.5 GiB
    ('width="4000" height="15000"', '<layer id="1" name="big" width="4000" height="15000">'
                                    '<data encoding="base64" compression="zlib">eJwDAAAAAAE=</data></layer>',
     "over the limits"),
    ('width="20" height="8"', "", "no spawn"),  # the spawn check still runs on a small map without layers
    ('width="99999999999999999999" height="8"', "", "not a whole number"),
])
def test_huge_maps_are_refused_before_anything_is_allocated(tmp_path, size, layers, fragment, load_error):
    import tracemalloc
    path = write_map(tmp_path, "" if fragment == "no spawn" else SPAWN, size=size, layers=layers)
    tracemalloc.start()
    try:
        message = load_error(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert fragment in message, message
    assert peak < 8 << 20  # bytes: nothing sized by the declared map was allocated


def test_a_zlib_bomb_is_not_inflated_past_the_layer(tmp_path, load_error):
    import base64
    import zlib
    bomb = base64.b64encode(zlib.compress(bytes(4 * 20 * 8 * 1000))).decode()  # 1000x the layer's size
    layers = f'<layer id="1" name="ground" width="20" height="8"><data encoding="base64" compression="zlib">{bomb}</data></layer>'
    message = load_error(write_map(tmp_path, layers=layers))
    assert "layer 'ground'" in message and "expected 20x8 = 160" in message


@pytest.mark.parametrize("field, value, fragment", [
    ("layer_tiles", 300, "more than 300 tiles in all"),
    ("objects", 1, "more than 1 objects"),
    ("area_cover", 0, "cover more than 0 times"),
    ("platforms", 0, "one platform too many"),
    ("group_depth", 0, "nested more than 0 groups"),
])
def test_each_count_limit_is_a_one_line_error(tmp_path, monkeypatch, field, value, fragment, load_error):
    import dataclasses

    from game.files import levelfile
    monkeypatch.setattr(levelfile, "LIMITS", dataclasses.replace(levelfile.LIMITS, **{field: value}))
    ground = f'<layer id="1" name="ground" width="20" height="8"><data encoding="csv">{FLAT_ROWS}</data></layer>'
    layers = ground + ground.replace('id="1"', 'id="3"') if field == "layer_tiles" else \
        f'<group id="4" name="g">{ground}</group>' if field == "group_depth" else None
    objects = platform(prop("dx", "16")) + '<object id="9" type="hazard" x="0" y="0" width="8" height="8"/>'
    assert fragment in load_error(write_map(tmp_path, objects, layers=layers))


def test_collision_from_numpy_matches_every_layer_rule_on_a_big_map(tmp_path):
    """The vectorised collision pass gives what the shipped maps had: checked on a 1024x256 map too."""
    import base64
    import zlib

    import numpy as np
    gids = np.zeros((256, 1024), dtype="<u4")
    gids[-1, :] = 1  # solid floor
    gids[200, 10:20] = 2  # one-way shelf
    gids[100, 7] = 3 | 0x80000000  # a slope flipped horizontally: heights swap
    data = base64.b64encode(zlib.compress(gids.tobytes())).decode()
    layers = f'<layer id="1" name="ground" width="1024" height="256"><data encoding="base64" compression="zlib">{data}</data></layer>'
    level = load_level(write_map(tmp_path, size='width="1024" height="256"', layers=layers))
    k = level.grid.kinds
    assert (k[-1] == int(S)).all() and (k[200, 10:20] == int(OW)).all() and k[100, 7] == int(SL)
    assert int(np.count_nonzero(k)) == 1024 + 10 + 1
    assert level.grid.surface_y(7, 100, 7 * 16) == 100 * 16  # rises to the left now: 16 high at x=0


@pytest.mark.parametrize("tileset, layers", [
    (f'<tileset firstgid="1" source="{"9" * 5000}.tsx"/>', None),  # found by tools/fuzz.py: OSError ENAMETOOLONG
    (None, f'<imagelayer id="7" name="sky"><image source="{"a" * 5000}.png"/></imagelayer>'),
])
def test_a_file_name_too_long_for_the_system_is_one_line(tmp_path, tileset, layers, load_error):
    ground = f'<layer id="1" name="ground" width="20" height="8"><data encoding="csv">{FLAT_ROWS}</data></layer>'
    message = load_error(write_map(tmp_path, tileset=tileset, layers=ground + (layers or "")))
    assert "not found" in message and len(message) < 600


# -- loading fast (issue 11): pytmx gets the layers we read, numpy reads the CSV -------------------------------

LEVELS = MAPS.parents[1] / "levels"
PLAYABLE = sorted(p for p in [*MAPS.glob("*.tmx"), *(MAPS / "tiled").glob("*.tmx"), *LEVELS.glob("*.tmx")]
                  if p.stem not in ("zstd", "third_party"))


def _same_pytmx_map(ours, plain):
    """Everything the renderer reads from pytmx: numbering, layer cells, images' slots, tile properties."""
    import pytmx
    assert (ours.maxgid, ours.tiledgidmap, dict(ours.gidmap), ours.imagemap) == \
        (plain.maxgid, plain.tiledgidmap, dict(plain.gidmap), plain.imagemap)

    def props(tmx):  # collision-editor shapes are objects: compare what they hold
        return {gid: {k: [(o.id, o.x, o.y, o.width, o.height) for o in v] if k == "colliders" else v
                      for k, v in p.items()} for gid, p in tmx.tile_properties.items()}
    assert props(ours) == props(plain)
    assert [(type(t), t.name) for t in ours.layers] == [(type(t), t.name) for t in plain.layers]
    for a, b in zip(ours.layers, plain.layers, strict=True):
        if isinstance(a, pytmx.TiledTileLayer):
            assert a.data == b.data, a.name
            assert all(type(row) is list for row in a.data)
        if isinstance(a, pytmx.TiledObjectGroup):
            assert [(o.id, o.gid, o.x, o.y) for o in a] == [(o.id, o.gid, o.x, o.y) for o in b]
    assert [img is None for img in ours.images] == [img is None for img in plain.images]


@pytest.mark.parametrize("path", PLAYABLE, ids=lambda p: p.stem)
def test_the_renderers_pytmx_map_is_the_one_pytmx_reads_itself(path):
    import pytmx
    _same_pytmx_map(load_level(path).tmx, pytmx.TiledMap(str(path), allow_duplicate_names=True))


def test_with_images_too(tmp_path):
    pygame = pytest.importorskip("pygame")
    from pytmx.util_pygame import load_pygame
    pygame.display.init()
    try:
        pygame.display.set_mode((1, 1))
        for path in (MAPS / "tiled" / "emb_collection.tmx", LEVELS / "02_planks.tmx"):
            ours, plain = load_level(path, images=True).tmx, load_pygame(str(path), allow_duplicate_names=True)
            _same_pytmx_map(ours, plain)
            sizes = [img.get_size() if img else None for img in ours.images]
            assert sizes == [img.get_size() if img else None for img in plain.images]
    finally:
        pygame.display.quit()


def test_flipped_and_big_gids_are_numbered_as_pytmx_numbers_them(tmp_path):
    import base64
    import zlib

    import numpy as np
    import pytmx
    gids = np.zeros((8, 20), dtype="<u4")
    gids[-1, :] = 1
    gids[3, 2:9] = [7, 7 | 0x80000000, 7 | 0x40000000, 8, 7 | 0x20000000, 8 | 0x80000000, 7]
    data = base64.b64encode(zlib.compress(gids.tobytes())).decode()
    layers = (f'<layer id="1" name="a" width="20" height="8"><data encoding="base64" compression="zlib">{data}'
              f'</data></layer><layer id="3" name="b" width="20" height="8"><data encoding="csv">'
              f'{FLAT_ROWS.replace("0", "8", 3)}</data></layer>')
    path = write_map(tmp_path, SPAWN + '<object id="2" gid="2147483656" x="8" y="40" width="16" height="16"/>',
                     layers=layers)
    _same_pytmx_map(load_level(path).tmx, pytmx.TiledMap(str(path), allow_duplicate_names=True))


def _read_csv(text: str, cols: int, rows: int, fast: bool, monkeypatch):
    """The loader's reading of one CSV layer: the gids, or the error's text after the file name."""
    from xml.etree import ElementTree as ET

    from game.files import levelfile
    node = ET.fromstring('<layer name="l"><data encoding="csv"/></layer>')
    node.find("data").text = text
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(levelfile, "_csv_gids", lambda text, expected: None)
        try:
            return levelfile._Loader(Path("m.tmx")).read_tile_data(node, "layer 'l'", cols, rows).tolist()
        except LevelError as exc:
            return str(exc)


def test_numpy_reads_csv_exactly_as_the_cell_by_cell_reading(monkeypatch):
    """Any text: the same gids or the same error, whichever reading runs. Run big once with
    HYPOTHESIS_EXAMPLES=20000."""
    import os

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    cell = st.one_of(st.integers(0, 2**32 + 5).map(str), st.integers(-5, 5).map(str),
                     st.sampled_from(["", " 7 ", "+3", "-0", "1_000", "0x10", "1.5", "1e3", "nan", "\t4\r", "٣",
                                      "1 2", "\n", " ", "99999999999999999999", "4294967295", "4294967296"]))
    texts = st.tuples(st.lists(cell, min_size=0, max_size=14), st.sampled_from([",", ",\n", ", "]),
                      st.sampled_from(["", ",", "\n", " ,"]), st.sampled_from(["", ",", "\n"]))

    @settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "400")), deadline=None,
              derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(texts, st.sampled_from([(3, 4), (1, 1), (12, 1), (2, 5)]))
    def check(parts, size):
        cells, sep, head, tail = parts
        text = head + sep.join(cells) + tail
        cols, rows = size
        assert _read_csv(text, cols, rows, True, monkeypatch) == _read_csv(text, cols, rows, False, monkeypatch)

    check()
    # and a whole layer of plain numbers takes the fast path
    from game.files.levelfile import _csv_gids
    text = ",\n".join(",".join(str((r * 7 + c) % 300) for c in range(40)) for r in range(30))
    assert _csv_gids(text, 1200).tolist() == _read_csv(text, 40, 30, False, monkeypatch)
    assert _csv_gids(text + ",", 1200) is None and _csv_gids(text.replace("7", "x"), 1200) is None


@pytest.mark.parametrize("cell", ["4294967296", "-3", "-1", "99999999999999999999"])
def test_a_csv_gid_past_32_bits_or_negative_is_corrupt_data_not_a_tile(tmp_path, cell):
    """numpy 1.x turned such a cell into a real gid with only a DeprecationWarning (4294967296 -> 0, an empty
    tile: the map loaded wrong, silently); numpy 2 raises, as the loader expects. Hence numpy>=2.0."""
    rows = FLAT_ROWS.replace("0", cell, 1)
    path = write_map(tmp_path, layers=f'<layer id="1" name="ground" width="20" height="8"><data encoding="csv">'
                                      f'{rows}</data></layer>')
    with pytest.raises(LevelError, match="layer 'ground': has corrupt tile data; re-save the map from Tiled"):
        load_level(path)
