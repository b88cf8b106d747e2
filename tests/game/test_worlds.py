"""The visual worlds: a map's ``world`` property, checked by the loader, drawn by render/worlds.py."""

from pathlib import Path

import pygame
import pytest

from game.files.levelfile import LevelError, lint_level, load_level
from game.files.levelkinds import WORLDS
from game.window.render.worlds import BACKDROPS, TILE_COLOURS, recolour

from .files.test_levelfile import write_map

ROOT = Path(__file__).resolve().parents[2]


def with_world(path: Path, value: str, kind: str = "string") -> Path:
    text = path.read_text()
    head, rest = text.split('infinite="0">', 1)
    t = "" if kind == "string" else f' type="{kind}"'
    path.write_text(f'{head}infinite="0"><properties><property name="world"{t} value="{value}"/></properties>{rest}')
    return path


def test_a_map_without_the_property_is_at_dusk(tmp_path):
    assert load_level(write_map(tmp_path)).world == "dusk"


@pytest.mark.parametrize("world", sorted(WORLDS))
def test_every_world_name_loads(tmp_path, world):
    assert load_level(with_world(write_map(tmp_path), world)).world == world


def test_an_unknown_world_is_one_line_with_a_suggestion(tmp_path):
    path = with_world(write_map(tmp_path), "towr")
    with pytest.raises(LevelError) as err:
        load_level(path)
    msg = str(err.value)
    assert "\n" not in msg and str(path) in msg and "'towr'" in msg and "did you mean 'tower'?" in msg
    errors, _ = lint_level(path)  # the linter lists it and reads on
    assert any("did you mean 'tower'?" in e for e in errors)


def test_a_world_that_is_not_a_string_is_refused(tmp_path):
    with pytest.raises(LevelError, match="world"):
        load_level(with_world(write_map(tmp_path), "3", "int"))


def test_the_nine_levels_span_four_worlds_and_the_climb_is_the_tower():
    worlds = {p.name: load_level(p).world for p in sorted((ROOT / "levels").glob("0*.tmx"))}
    assert len(worlds) == 9 and len(set(worlds.values())) >= 4
    assert worlds["08_crumbling_heights.tmx"] == "tower"
    for name, world in worlds.items():  # each map's image layers are its world's pictures
        text = (ROOT / "levels" / name).read_text()
        assert all(f"../assets/{img}" in text for img in BACKDROPS[world]), name


def test_every_world_has_its_backdrop_pictures():
    for far, near in BACKDROPS.values():
        assert (ROOT / "assets" / far).exists() and (ROOT / "assets" / near).exists()


def test_a_world_recolours_the_terrain_and_keeps_transparency():
    grass = 0x63c74d
    img = pygame.Surface((2, 1), pygame.SRCALPHA)
    img.set_at((0, 0), ((grass >> 16) & 255, (grass >> 8) & 255, grass & 255, 255))
    img.set_at((1, 0), (0, 0, 0, 0))
    snow = recolour(img, "night")
    assert tuple(snow.get_at((0, 0))) == (255, 255, 255, 255) and snow.get_at((1, 0)).a == 0
    assert tuple(img.get_at((0, 0)))[:3] == (0x63, 0xc7, 0x4d)  # the original is left alone
    assert recolour(img, "dusk") is img and "dusk" not in TILE_COLOURS


# -- camera zones (class `camera`): read by the table of kinds, checked like every kind ----------------------

def zone(mode: str | None = "lock", shape: str = 'width="288" height="128"') -> str:
    props = f'<properties><property name="mode" value="{mode}"/></properties>' if mode else ""
    return ('<object id="1" name="start" type="spawn" x="40" y="112"><point/></object>'
            f'<object id="7" name="arena" type="camera" x="16" y="0" {shape}>{props}</object>')


def test_a_camera_zone_is_read_with_its_mode(tmp_path):
    level = load_level(write_map(tmp_path, zone("lock")))
    (z,) = level.cameras
    assert (z.x, z.y, z.w, z.h, z.mode, z.name, z.id) == (16, 0, 288, 128, "lock", "arena", 7)
    assert load_level(write_map(tmp_path, zone(None))).cameras[0].mode == "bound"  # the default


def test_a_bad_camera_zone_is_one_line(tmp_path):
    with pytest.raises(LevelError, match="did you mean 'lock'"):
        load_level(write_map(tmp_path, zone("lokc")))
    with pytest.raises(LevelError, match="camera"):
        load_level(write_map(tmp_path, zone("bound", "").replace("></object>", "><point/></object>")))


def test_the_air_of_a_world_is_the_same_every_time_and_empty_by_day():
    from game.window.render.worlds import draw_ambience

    def picture(world, t):
        surf = pygame.Surface((480, 270))
        surf.fill((0, 0, 0))
        draw_ambience(surf, world, 100.0, 50.0, t)
        return pygame.image.tobytes(surf, "RGB")

    blank = picture("day", 0.0)
    assert picture("night", 1.5) == picture("night", 1.5) != blank  # snow, drawn from the time alone
    assert picture("night", 1.5) != picture("night", 2.0)  # falling
    assert picture("dusk", 1.0) != blank and picture("tower", 1.0) != blank
