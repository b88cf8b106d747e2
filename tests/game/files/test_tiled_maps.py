"""Maps written by the real Tiled (tests/maps/tiled/, made by tools/make_tiled_test_maps.py): embedded and
external tilesets, CSV/base64/zlib/gzip tile data and a collection of images all load, render and play
exactly alike; zstd and a third-party map without a spawn are the documented one-line errors.

The committed maps always run; the test that re-exports them needs the ``tiled`` binary (skipped without)."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import importlib.util  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from engine import Buttons  # noqa: E402
from game.files.levelfile import LevelError, load_level  # noqa: E402
from game.window.render.tilemap import MapRenderer  # noqa: E402
from game.rules.session import Session  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
TILED = ROOT / "tests" / "maps" / "tiled"
PLAYABLE = ["ext_csv", "ext_zlib", "emb_csv", "emb_base64", "emb_zlib", "emb_gzip", "ext_collection",
            "emb_collection", "empty_tileset_shared_firstgid", "ext_tsj", "templates"]
JSON_MAPS = ["ext_csv", "emb_zlib", "ext_collection", "emb_collection"]  # written by Tiled as .tmj
RUN = [Buttons(right=True)] * 300  # over both slopes (the far one flipped), two coins, a sign, the goal
NO_SPAWN = ("has no spawn; add a point object of class 'spawn' where the player's feet start")


def play(path: Path) -> dict:
    session = Session(load_level(path))
    for buttons in RUN:
        session.step(buttons)
        if session.completed:
            break
    summary = session.summary()
    summary.pop("level")
    return summary


@pytest.fixture(scope="module")
def reference():
    return play(TILED / "ext_csv.tmx")


@pytest.mark.parametrize("name", PLAYABLE)
def test_every_tileset_kind_and_encoding_plays_exactly_alike(name, reference):
    assert reference["completed"] and reference["coins"] == 2
    assert [e["type"] for e in reference["events"]] == ["coin", "enter", "exit", "coin", "checkpoint", "goal"]
    assert play(TILED / f"{name}.tmx") == reference  # same steps, events and state hash, to the bit


@pytest.mark.parametrize("name", PLAYABLE)
def test_embedded_tilesets_give_the_collision_of_external_ones(name):
    ref, level = load_level(TILED / "ext_csv.tmx"), load_level(TILED / f"{name}.tmx")
    assert np.array_equal(level.grid.kinds, ref.grid.kinds)
    assert level.grid.surface_y(14, 8, 14 * 16) == ref.grid.surface_y(14, 8, 14 * 16) == 8 * 16  # flipped
    assert [(p.id, p.points, p.speed, p.one_way) for p in level.platforms] == \
           [(p.id, p.points, p.speed, p.one_way) for p in ref.platforms]
    assert [(c.name, c.x, c.y, c.w, c.h) for c in level.coins] == [(c.name, c.x, c.y, c.w, c.h) for c in ref.coins]


@pytest.fixture
def display():
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    yield
    pygame.display.quit()


@pytest.mark.parametrize("name", PLAYABLE + ["third_party_spawned"])
def test_each_map_loads_its_images_and_draws(display, name):
    level = load_level(TILED / f"{name}.tmx", images=True)
    canvas = pygame.Surface((480, 270))
    MapRenderer(level).draw(canvas, 0, 0, 0.3)
    assert len(set(canvas.get_at((x, y))[:3] for x in range(0, 480, 7) for y in range(0, 270, 7))) > 3
    for coin in level.coins:  # pytmx's leaked collision shapes (embedded tilesets) do not confuse the gids
        if coin.gid:
            assert level.tmx.get_tile_image_by_gid(coin.gid).get_size() == (16, 16)


def test_the_collection_tree_is_drawn_at_its_own_size(display):
    level = load_level(TILED / "emb_collection.tmx", images=True)
    tree = next(o for g in level.tmx.objectgroups for o in g if o.name == "tree")
    assert level.tmx.get_tile_image_by_gid(tree.gid).get_size() == (32, 48)


def _cli(*args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "game", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=60)


def test_a_third_party_map_without_spawn_is_exactly_the_documented_line():
    path = TILED / "third_party.tmx"
    with pytest.raises(LevelError) as err:
        load_level(path)
    assert str(err.value) == f"{path}: {NO_SPAWN}"
    done = _cli("--headless", "--level", path, "--inputs", os.devnull)
    assert done.returncode == 2 and done.stderr == f"error: {path}: {NO_SPAWN}\n" and done.stdout == ""


def test_a_third_party_map_with_a_spawn_plays():
    session = Session(load_level(TILED / "third_party_spawned.tmx"))
    for _ in range(200):
        session.step(Buttons(right=True))
    assert session.steps == 200 and session.deaths >= 1  # nothing collides: the hero falls out, respawns


def test_zstd_tile_data_is_one_line():
    done = _cli("--headless", "--level", TILED / "zstd.tmx", "--inputs", os.devnull)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "layer 'ground': 'zstd' compression is not supported; use CSV or zlib/gzip" in done.stderr


@pytest.mark.skipif(shutil.which("tiled") is None or shutil.which("zstd") is None,
                    reason="needs the tiled and zstd binaries (apt-get install tiled zstd)")
def test_maps_exported_by_tiled_now_play_like_the_committed_ones(tmp_path, reference):
    spec = importlib.util.spec_from_file_location("make_tiled_test_maps", ROOT / "tools" / "make_tiled_test_maps.py")
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    written = {p.stem: p for p in maker.build(tmp_path)}
    assert set(written) == {p.stem for p in TILED.glob("*.tmx")}
    for name in PLAYABLE:
        assert play(written[name]) == reference, name
    for name in JSON_MAPS:
        assert play(tmp_path / f"{name}.tmj") == reference, name
    with pytest.raises(LevelError, match="has no spawn"):
        load_level(written["third_party"])


# -- issue 24: Tiled's JSON format, read into the same level data -------------------------------------------

@pytest.mark.parametrize("name", JSON_MAPS)
def test_a_json_map_written_by_tiled_plays_exactly_like_its_tmx(name, reference):
    assert play(TILED / f"{name}.tmj") == reference
    ref, level = load_level(TILED / f"{name}.tmx"), load_level(TILED / f"{name}.tmj")
    assert np.array_equal(level.grid.kinds, ref.grid.kinds)
    assert [(c.name, c.x, c.y, c.w, c.h) for c in level.coins] == [(c.name, c.x, c.y, c.w, c.h) for c in ref.coins]


@pytest.mark.parametrize("name", JSON_MAPS + ["third_party_spawned"])
def test_a_json_map_loads_its_images_and_draws(display, name):
    level = load_level(TILED / f"{name}.tmj", images=True)
    canvas = pygame.Surface((480, 270))
    MapRenderer(level).draw(canvas, 0, 0, 0.3)
    assert len(set(canvas.get_at((x, y))[:3] for x in range(0, 480, 7) for y in range(0, 270, 7))) > 3


def test_a_json_map_plays_headless_from_the_command_line():
    done = _cli("--headless", "--level", TILED / "ext_csv.tmj", "--inputs", os.devnull)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("text, fragment", [
    ("{", "broken JSON at line 1, column 2"),
    ("[1, 2]", "not a Tiled map (the JSON is a list, expected an object)"),
    ('{"type": "tileset"}', "not a Tiled map (\"type\" is 'tileset', expected \"map\")"),
    ('{"type": "map", "width": 4, "height": 2, "tilewidth": 16, "tileheight": 16, "layers": [7]}',
     "a layer is a number, expected an object"),
    ('{"type": "map", "width": 4, "height": 2, "tilewidth": 16, "tileheight": 16,'
     ' "layers": [{"type": "tilelayer", "name": "g", "width": 4, "height": 2, "data": 5}]}',
     "layer 'g': data is a number, expected a list of gids or a base64 string"),
    ('{"type": "map", "width": "ten", "height": 2, "tilewidth": 16, "tileheight": 16, "layers": []}',
     "map size or tile size is not a whole number"),  # the very line a .tmx with width="ten" gives
])
def test_a_broken_json_map_is_one_line_naming_the_file(tmp_path, load_error, text, fragment):
    path = tmp_path / "bad.tmj"
    path.write_text(text)
    assert fragment in load_error(path)


def test_a_broken_tsj_tileset_names_it(tmp_path, load_error):
    import shutil
    for name in ("ext_tsj.tmx", "test_tiles.png"):
        shutil.copy(TILED / name, tmp_path / name)
    (tmp_path / "tiles.tsj").write_text('{"name": "tiles", "tiles": 3}')
    assert load_error(tmp_path / "ext_tsj.tmx").endswith(
        "ext_tsj.tmx: tileset 'tiles.tsj': tileset 'tiles': tiles is a number, expected a list")


def test_a_template_map_gets_the_templates_objects(tmp_path, load_error):
    level = load_level(TILED / "templates.tmx")
    assert sorted(c.name for c in level.coins) == ["c1", "c2"]
    sign = next(t for t in level.triggers if t.name == "sign")
    assert (sign.w, sign.h, sign.props.get("message")) == (32.0, 44.0, "Slopes ahead")
    shutil.copy(TILED / "templates.tmx", tmp_path / "t.tmx")
    assert "object 2: template 'coin.tx' not found" in load_error(tmp_path / "t.tmx")


def test_an_infinite_map_is_made_bounded_and_plays_like_the_fixed_one(reference):
    level = load_level(TILED / "infinite.tmx")
    assert (level.grid.width, level.grid.height) == (48 * 16, 32 * 16)  # the chunks' bounds: 3 x 2 chunks
    assert level.spawn == (24.0 + 11 * 16, 144.0 + 13 * 16)  # moved by the bounds (chunks from -16, -16)
    got = play(TILED / "infinite.tmx")
    assert (got["completed"], got["coins"], got["steps"]) == (True, 2, reference["steps"])
    assert [e["type"] for e in got["events"]] == [e["type"] for e in reference["events"]]


@pytest.mark.parametrize("size, said", [('tilewidth="0"', "tiles must be square; this map has 0x16 px tiles"),
                                         ('tilewidth="x"', "tile size is not a whole number")])
def test_an_infinite_map_with_a_bad_tile_size_is_one_line(tmp_path, load_error, size, said):
    """Found by tools/fuzz.py (maps, seed 34637): its chunks were laid out by a tile size of 0 ("could not
    broadcast ... into shape (0,0)": an internal error)."""
    text = (TILED / "infinite.tmx").read_text().replace('tilewidth="16"', size, 1)
    (tmp_path / "tiles.tsx").write_text((TILED / "tiles.tsx").read_text())
    (tmp_path / "bad.tmx").write_text(text)
    assert said in load_error(tmp_path / "bad.tmx")


def test_an_infinite_map_whose_chunks_span_too_much_is_one_line(tmp_path, load_error):
    text = (TILED / "infinite.tmx").read_text().replace('<chunk x="16" y="-16"', '<chunk x="99999" y="-16"', 1)
    (tmp_path / "far.tmx").write_text(text)
    assert "the infinite map's chunks span" in load_error(tmp_path / "far.tmx")
