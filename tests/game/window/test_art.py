"""The art script is deterministic, its outputs are committed, and the tileset's collision data matches
the pixels."""

import importlib.util
import os
import pathlib
import textwrap

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402
import pytmx  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]
ASSETS = ROOT / "assets"
TSX = ROOT / "levels" / "tileset.tsx"
PNGS = ["tiles.png", "player.png", "items.png", "platform.png", "objects.png", "bg_far.png", "bg_near.png",
        "icon.png"]


def _load_make_art():
    spec = importlib.util.spec_from_file_location("make_art", ROOT / "tools" / "make_art.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def make_art():
    return _load_make_art()


@pytest.fixture(scope="module")
def fresh(make_art, tmp_path_factory):
    out = tmp_path_factory.mktemp("art")
    assert make_art.main(["--out", str(out)]) == 0
    return out


def _pixels(path: pathlib.Path) -> np.ndarray:
    surf = pygame.image.load(str(path))
    return np.frombuffer(pygame.image.tobytes(surf, "RGBA"), np.uint8).reshape(
        surf.get_height(), surf.get_width(), 4
    )


@pytest.mark.parametrize("name", PNGS)
def test_committed_png_matches_a_fresh_run(fresh, name):
    committed = ASSETS / name
    assert committed.exists(), f"{committed} missing: run `python tools/make_art.py`"
    a, b = _pixels(committed), _pixels(fresh / name)
    assert a.shape == b.shape, f"{name}: size changed; run `python tools/make_art.py`"
    assert np.array_equal(a, b), f"{name} differs from a fresh run; run `python tools/make_art.py`"


def test_committed_tileset_and_readme_match_a_fresh_run(fresh):
    assert TSX.read_text() == (fresh / "tileset.tsx").read_text(), "run `python tools/make_art.py`"
    assert (ASSETS / "README.md").read_text() == (fresh / "README.md").read_text()


def test_two_runs_are_identical(make_art, fresh, tmp_path):
    make_art.main(["--out", str(tmp_path)])
    for name in PNGS:
        assert (tmp_path / name).read_bytes() == (fresh / name).read_bytes(), name


def test_sheet_sizes():
    sizes = {
        "tiles.png": (256, 96),
        "player.png": (128, 220),
        "items.png": (128, 64),
        "platform.png": (48, 16),
        "objects.png": (128, 152),
        "bg_far.png": (480, 270),
        "bg_near.png": (480, 270),
        **{f"bg_{w}_{layer}.png": (480, 270) for w in ("day", "night", "tower") for layer in ("far", "near")},
        "icon.png": (32, 32),
    }
    for name, size in sizes.items():
        assert pygame.image.load(str(ASSETS / name)).get_size() == size, name


def test_assets_are_small():
    total = sum((ASSETS / n).stat().st_size for n in PNGS)
    assert total < 300_000, f"PNGs total {total} bytes"


def test_backgrounds_tile_horizontally():
    for name in ("bg_far.png", "bg_near.png"):
        px = _pixels(ASSETS / name).astype(int)
        seam = np.abs(px[:, 0] - px[:, -1]).sum(axis=1)
        inside = np.abs(px[:, 1] - px[:, 0]).sum(axis=1)
        assert seam.mean() <= inside.mean() * 2 + 8, f"{name}: visible seam when tiled"


def test_player_feet_stand_on_the_bottom_row():
    px = _pixels(ASSETS / "player.png")
    for row in range(5):  # idle..land; death explodes
        for i in range({0: 4, 1: 6, 2: 2, 3: 2, 4: 2}[row]):
            frame = px[row * 20 : (row + 1) * 20, i * 16 : (i + 1) * 16, 3]
            assert frame.any(), (row, i)
            if row in (0, 1, 4):  # on the ground
                assert frame[19].any(), f"row {row} frame {i}: feet not on the bottom row"


def _tmx(tmp_path, data: list[list[int]]) -> pathlib.Path:
    rows = ",\n".join(",".join(str(g) for g in r) for r in data)
    text = textwrap.dedent(f"""\
        <?xml version="1.0" encoding="UTF-8"?>
        <map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down"
         width="{len(data[0])}" height="{len(data)}" tilewidth="16" tileheight="16" infinite="0"
         nextlayerid="2" nextobjectid="1">
         <tileset firstgid="1" source="{TSX.as_posix()}"/>
         <layer id="1" name="ground" width="{len(data[0])}" height="{len(data)}">
          <data encoding="csv">
        {rows}
        </data>
         </layer>
        </map>
        """)
    path = tmp_path / "t.tmx"
    path.write_text(text)
    return path


def test_tileset_loads_with_pytmx_and_carries_collision(make_art, tmp_path):
    table = make_art.tile_table()
    ids = {name: i for i, (name, *_rest) in enumerate(table)}
    names = [
        "grass_t",
        "fill",
        "slope45_r",
        "slope45_l",
        "slope22_r1",
        "slope22_r2",
        "slope22_l1",
        "slope22_l2",
        "plank_m",
        "tuft_a",
        "torch",
        "water",
    ]
    m = pytmx.TiledMap(str(_tmx(tmp_path, [[ids[n] + 1 for n in names]])))
    props = [m.get_tile_properties(x, 0, 0) or {} for x in range(len(names))]
    got = {n: p for n, p in zip(names, props, strict=True)}
    assert got["grass_t"]["collision"] == "solid"
    assert got["fill"]["collision"] == "solid"
    assert got["plank_m"]["collision"] == "one_way"
    assert "collision" not in got["tuft_a"]
    expect = {
        "slope45_r": (0, 16),
        "slope45_l": (16, 0),
        "slope22_r1": (0, 8),
        "slope22_r2": (8, 16),
        "slope22_l1": (16, 8),
        "slope22_l2": (8, 0),
    }
    for n, (left, right) in expect.items():
        assert got[n]["collision"] == "slope"
        assert (got[n]["slope_left"], got[n]["slope_right"]) == (left, right), n
    assert len(got["torch"]["frames"]) == 4 and len(got["water"]["frames"]) == 4


def test_every_collision_value_is_known(make_art):
    for name, _px, props, _desc in make_art.tile_table():
        assert props.get("collision", "solid") in {"solid", "one_way", "slope"}, name
        if props.get("collision") == "slope":
            assert 0 <= props["slope_left"] <= 16 and 0 <= props["slope_right"] <= 16, name


def test_slope_art_matches_slope_heights(make_art):
    """The top opaque pixel of each slope tile column lies within 1 px of the collision surface."""
    tiles = _pixels(ASSETS / "tiles.png")
    for tid, (name, _px, props, _desc) in enumerate(make_art.tile_table()):
        if props.get("collision") != "slope":
            continue
        tile = tiles[(tid // 16) * 16 : (tid // 16 + 1) * 16, (tid % 16) * 16 : (tid % 16 + 1) * 16, 3]
        for x in range(16):
            surface = 16 - (
                props["slope_left"] + (props["slope_right"] - props["slope_left"]) * (x + 0.5) / 16
            )
            top = int(np.argmax(tile[:, x] > 0)) if tile[:, x].any() else 16
            assert abs(top - surface) <= 1.0, f"{name} column {x}: art top {top}, surface {surface:.1f}"


def test_solid_terrain_tiles_are_opaque(make_art):
    tiles = _pixels(ASSETS / "tiles.png")
    for tid, (name, _px, props, _desc) in enumerate(make_art.tile_table()):
        if props.get("collision") == "solid":
            tile = tiles[(tid // 16) * 16 : (tid // 16 + 1) * 16, (tid % 16) * 16 : (tid % 16 + 1) * 16, 3]
            assert (tile == 255).all(), f"{name} (id {tid}) has transparent pixels"


def _frames(name: str) -> list[np.ndarray]:
    from game.window.render.kinds import OBJECT_FRAMES

    px = _pixels(ASSETS / "objects.png")
    f = OBJECT_FRAMES[name]
    return [px[f.y : f.y + f.h, f.x + i * f.w : f.x + (i + 1) * f.w, 3] for i in range(f.count)]


def test_every_object_frame_has_art_and_the_frames_do_not_overlap():
    from game.window.render.kinds import OBJECT_FRAMES, SHEET_SIZE

    taken = np.zeros(SHEET_SIZE[::-1], bool)
    for name, f in OBJECT_FRAMES.items():
        assert f.x + f.count * f.w <= SHEET_SIZE[0] and f.y + f.h <= SHEET_SIZE[1], name
        assert not taken[f.y : f.y + f.h, f.x : f.x + f.count * f.w].any(), f"{name} overlaps another entry"
        taken[f.y : f.y + f.h, f.x : f.x + f.count * f.w] = True
        for i, frame in enumerate(_frames(name)):
            assert frame.any(), f"{name} frame {i} is empty"


def test_walkers_hoppers_and_springs_stand_on_the_bottom_row_and_flyers_are_centred():
    for name in ("walker_walk", "walker_stomped", "hopper_idle", "hopper_crouch", "hopper_land",
                 "hopper_stomped", "spring"):
        for i, frame in enumerate(_frames(name)):
            assert frame[15].any(), f"{name} frame {i}: not standing on the bottom row"
    for frame in _frames("flyer_fly"):
        rows = np.flatnonzero(frame.any(axis=1))
        assert abs((rows[0] + rows[-1]) / 2 - 7.5) <= 2.5


def test_spring_pads_are_where_the_table_says():
    for frame, pad in zip(_frames("spring"), (8, 11, 2), strict=True):
        assert int(np.flatnonzero(frame.any(axis=1))[0]) == pad - 1  # the outline sits on the pad's top


def test_crumble_and_breakable_tiles_carry_their_class_and_load_as_kinds(make_art, tmp_path):
    from game.files.levelfile import load_level

    ids = {name: i for i, (name, *_rest) in enumerate(make_art.tile_table())}
    data = [[0] * 8 for _ in range(5)] + [[ids["fill"] + 1] * 8]
    data[2][1:4] = [ids["crumble_plank"] + 1] * 3
    data[3][5] = ids["breakable_coin"] + 1
    data[3][6] = ids["breakable"] + 1
    data[4][1] = ids["crumble"] + 1
    path = _tmx(tmp_path, data)
    text = "\n".join(line.strip() for line in path.read_text().splitlines()).replace("</map>", '<objectgroup id="2" name="o"><object id="1" type="spawn" x="8" '
                                              'y="80"><point/></object></objectgroup></map>')
    path.write_text(text)
    level = load_level(path)
    assert [(c.cells, c.one_way) for c in level.crumbles] == [(((1, 2), (2, 2), (3, 2)), True), (((1, 4),), False)]
    assert [(b.cells, b.coin) for b in level.breakables] == [(((5, 3),), True), (((6, 3),), False)]
