"""Loading Tiled maps: collision from tile properties, objects by class, and one-line errors."""

from pathlib import Path

import pytest

from engine import TileKind
from game.levelfile import Area, LevelError, load_level

MAPS = Path(__file__).resolve().parents[1] / "maps"
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
    ("embedded_tileset.tmx", ["tileset 'inline'", "external .tsx"]),
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
    from game.levelfile import PLATFORM_SPEED

    level = load_level(MAPS / "no_speed.tmx")
    assert [p.speed for p in level.platforms] == [PLATFORM_SPEED] == [40.0]
