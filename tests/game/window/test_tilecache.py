"""The cached map renderer draws exactly what blitting every visible tile draws (game/window/render/reference.py):
merged layers, parallax, offsets, opacity, hidden layers, animated and translucent tiles, tiles larger
than the grid, chunk borders, run-time tile edits that repaint only their cells, and the cache budget."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import random  # noqa: E402
from pathlib import Path  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from game.window.render.reference import ReferenceRenderer  # noqa: E402
from game.window.render.tilecache import fast_surface, free_colour  # noqa: E402
from game.window.render.tilemap import MapRenderer  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
TS = 16
KEY_PINK = (255, 0, 255)

# Tiles of the generated "small" tileset (local ids; gid = id + 1):
OPAQUE, GREEN, HOLES, GLASS, HALF, EMPTY, PINK, RAMP = range(8)  # PINK is the usual colour key
FRAME_A, FRAME_B, FRAME_C, FRAME_D = range(8, 12)
ANIM, ANIM_GLASS = 12, 13  # animated: A/B opaque frames, C/D translucent frames
SMALL = 16
# "big" tileset (32x32 tiles, gid = 17 + id): a solid block with holes, a translucent pane, an animated one
BIG_FIRST = SMALL + 1
BIG_SOLID, BIG_GLASS, BIG_ANIM = range(3)


def _tile_pixels(i: int, size: int) -> np.ndarray:
    """RGBA (size x size x 4) for tile i: a mix of opaque, holed and translucent pixels."""
    px = np.zeros((size, size, 4), np.uint8)
    x, y = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    colour = [(200, 40, 40), (40, 200, 40), (40, 40, 200), (240, 220, 40), (160, 60, 200), (0, 0, 0),
              KEY_PINK, (20, 160, 160), (250, 120, 0), (0, 120, 250), (255, 255, 255), (90, 90, 90)]
    px[..., :3] = colour[i % len(colour)]
    px[..., 0] = (px[..., 0].astype(int) + x * 3) % 256  # vary the colours a little
    alpha = {OPAQUE: 255, GREEN: 255, PINK: 255, FRAME_A: 255, FRAME_B: 255, EMPTY: 0, GLASS: 120,
             FRAME_C: 90, FRAME_D: 200}
    if i in alpha:
        px[..., 3] = alpha[i]
    elif i == HOLES:
        px[..., 3] = np.where((x // 4 + y // 4) % 2 == 0, 255, 0)
    elif i == HALF:
        px[..., 3] = np.where(y < size // 2, 255, 200)
        px[0, 0, 3] = 0
    elif i == RAMP:
        px[..., 3] = np.where(x + y >= size, 255, 0)
        px[..., 3] = np.where((x + y >= size - 3) & (x + y < size), 150, px[..., 3])
    else:
        px[..., 3] = 255
    return px


def _sheet(path: Path, n: int, size: int, cols: int) -> None:
    rows = -(-n // cols)
    surf = pygame.Surface((cols * size, rows * size), pygame.SRCALPHA)
    surf.fill((0, 0, 0, 0))
    for i in range(n):
        tile = pygame.Surface((size, size), pygame.SRCALPHA)
        px = _tile_pixels(i, size)
        pygame.surfarray.pixels3d(tile)[:] = px[..., :3]
        pygame.surfarray.pixels_alpha(tile)[:] = px[..., 3]
        surf.blit(tile, ((i % cols) * size, (i // cols) * size))
    pygame.image.save(surf, str(path))


SMALL_TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="small" tilewidth="16" tileheight="16" tilecount="16" columns="8">
 <image source="small.png" width="128" height="32"/>
 <tile id="12"><animation><frame tileid="8" duration="100"/><frame tileid="9" duration="150"/></animation></tile>
 <tile id="13"><animation><frame tileid="10" duration="120"/><frame tileid="11" duration="80"/></animation></tile>
</tileset>
"""
BIG_TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="big" tilewidth="32" tileheight="32" tilecount="4" columns="4">
 <image source="big.png" width="128" height="32"/>
 <tile id="2"><animation><frame tileid="1" duration="90"/><frame tileid="3" duration="90"/></animation></tile>
</tileset>
"""


@pytest.fixture(scope="module")
def assets(display, tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiles")
    _sheet(folder / "small.png", SMALL, TS, 8)
    _sheet(folder / "big.png", 4, 32, 4)
    (folder / "small.tsx").write_text(SMALL_TSX)
    (folder / "big.tsx").write_text(BIG_TSX)
    sky = pygame.Surface((64, 40), pygame.SRCALPHA)
    sky.fill((30, 60, 90, 255))
    pygame.draw.circle(sky, (250, 250, 200, 255), (20, 20), 8)
    pygame.image.save(sky, str(folder / "sky.png"))
    hills = pygame.Surface((48, 30), pygame.SRCALPHA)
    hills.fill((0, 0, 0, 0))
    pygame.draw.polygon(hills, (40, 90, 40, 255), [(0, 30), (24, 4), (48, 30)])
    pygame.draw.polygon(hills, (40, 90, 40, 140), [(0, 30), (8, 20), (16, 30)])
    pygame.image.save(hills, str(folder / "hills.png"))
    return folder


def tile(layer_id, name, cells, w, h, **attrs):
    rows = [[0] * w for _ in range(h)]
    for (c, r), gid in cells.items():
        rows[r][c] = gid
    extra = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    data = ",\n".join(",".join(map(str, row)) for row in rows)
    return (f'<layer id="{layer_id}" name="{name}" width="{w}" height="{h}" {extra}>'
            f'<data encoding="csv">\n{data}\n</data></layer>')


def image(layer_id, name, source, **attrs):
    extra = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    return f'<imagelayer id="{layer_id}" name="{name}" {extra}><image source="{source}"/></imagelayer>'


def objects(layer_id, name, decor=()):
    objs = "".join(f'<object id="{100 + i}" gid="{gid}" x="{x}" y="{y}" width="{w}" height="{h}"/>'
                   for i, (gid, x, y, w, h) in enumerate(decor))
    return f'<objectgroup id="{layer_id}" name="{name}">{objs}</objectgroup>'


def make_level(folder: Path, layers: list[str], w: int, h: int, name="m.tmx", background="#336699"):
    """Write a map with the given layer XML (in drawing order) and load it the way the game does."""
    from pytmx.util_pygame import load_pygame

    bg = f'backgroundcolor="{background}"' if background else ""
    body = "\n".join(layers)
    path = folder / name
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}"
 tilewidth="{TS}" tileheight="{TS}" infinite="0" {bg} nextlayerid="50" nextobjectid="200">
 <tileset firstgid="1" source="small.tsx"/>
 <tileset firstgid="{BIG_FIRST}" source="big.tsx"/>
{body}
</map>""")
    tmx = load_pygame(str(path), allow_duplicate_names=True)
    order = [layer.split('name="')[1].split('"')[0] for layer in layers]
    return SimpleNamespace(tmx=tmx, tile_size=TS, layer_order=order, width=w * TS, height=h * TS, path=path)


def marker(surf):
    surf.fill((255, 255, 0), (30, 20, 12, 40))  # where the game's sprites would be


def differences(a: pygame.Surface, b: pygame.Surface) -> int:
    return int((pygame.surfarray.array3d(a) != pygame.surfarray.array3d(b)).any(axis=2).sum())


def assert_same(level, views, art=None, size=(200, 120), renderer=None, **options):
    """Draw every (cam_x, cam_y, t) with the cached renderer and the reference; pixels must be equal."""
    fast = renderer or MapRenderer(level, art, **options)
    ref = ReferenceRenderer(level, art)
    a, b = pygame.Surface(size).convert(), pygame.Surface(size).convert()
    for cam_x, cam_y, t in views:
        a.fill((1, 2, 3))
        b.fill((4, 5, 6))
        fast.draw(a, cam_x, cam_y, t, marker)
        ref.draw(b, cam_x, cam_y, t, marker)
        bad = differences(a, b)
        assert bad == 0, f"{bad} pixels differ at camera ({cam_x}, {cam_y}), t={t}"
    return fast


def sweep(level, n=40, seed=1, size=(200, 120)):
    rng = random.Random(seed)
    return [(rng.randint(-size[0] // 2, level.width), rng.randint(-size[1] // 2, level.height),
             rng.random() * 2) for _ in range(n)]


def scatter(w, h, gids, density=0.5, seed=0):
    rng = random.Random(seed)
    return {(c, r): rng.choice(gids) for r in range(h) for c in range(w) if rng.random() < density}


def g(local: int) -> int:
    return local + 1


# -- shipped levels ----------------------------------------------------------------------------------
@pytest.mark.parametrize("path", sorted((ROOT / "levels").glob("*.tmx")), ids=lambda p: p.stem)
def test_shipped_levels_match_the_reference(display, path):
    from game.files.levelfile import load_level
    from game.window.render.sprites import Art

    level = load_level(path, images=True)
    assert_same(level, sweep(level, 12, size=(480, 270)), art=Art(), size=(480, 270))
    level.tmx.layers[0].visible = 0  # the sky hidden: hills first (holes), then tiles over hills
    assert_same(level, sweep(level, 4, seed=2, size=(480, 270)), size=(480, 270))


def test_shipped_level_without_image_layers_gets_the_backdrop(display):
    import pytmx

    from game.files.levelfile import load_level
    from game.window.render.sprites import Art

    level = load_level(ROOT / "levels" / "03_hills.tmx", images=True)
    for layer in level.tmx.layers:
        if isinstance(layer, pytmx.TiledImageLayer):
            layer.visible = 0
    r = assert_same(level, sweep(level, 10, size=(480, 270)), art=Art(), size=(480, 270))
    assert r.backdrop and r.groups[0].backing is None
    r = assert_same(level, sweep(level, 10, size=(480, 270)), size=(480, 270))  # no art: tiles backed
    assert r.groups[0].backing == r.background


# -- merging, order, parallax, opacity, hidden layers ------------------------------------------------
def test_layers_merge_only_between_the_same_sprite_layers_and_parallax(assets):
    w, h = 30, 14
    cells = scatter(w, h, [g(OPAQUE), g(HOLES), g(GLASS), g(HALF), g(RAMP), g(GREEN)], seed=3)
    layers = [
        image(1, "sky", "sky.png", parallaxx="0.2", parallaxy="0.1", repeatx="1", repeaty="1"),
        tile(2, "back", scatter(w, h, [g(GREEN), g(GLASS)], 0.3, 4), w, h, parallaxx="0.5", parallaxy="0.5"),
        image(3, "hills", "hills.png", parallaxx="0.6", parallaxy="1", repeatx="1", offsety="80"),
        tile(4, "a", cells, w, h),
        tile(5, "b", scatter(w, h, [g(OPAQUE), g(GLASS), g(ANIM), g(HOLES)], 0.3, 5), w, h),
        tile(6, "hidden", {(c, r): g(OPAQUE) for c in range(w) for r in range(h)}, w, h, visible="0"),
        tile(7, "c", scatter(w, h, [g(HALF), g(GLASS)], 0.2, 6), w, h, offsetx="5", offsety="-3"),
        objects(8, "things", [(g(OPAQUE), 40, 60, 16, 16), (g(HOLES), 90, 30, 32, 24)]),
        tile(9, "fg", scatter(w, h, [g(HOLES), g(GLASS)], 0.2, 7), w, h),
        tile(10, "fg faded", scatter(w, h, [g(OPAQUE), g(GLASS), g(ANIM_GLASS)], 0.3, 8), w, h,
             opacity="0.55"),
        tile(11, "fg same", scatter(w, h, [g(OPAQUE)], 0.1, 9), w, h),
    ]
    level = make_level(assets, layers, w, h)
    r = assert_same(level, sweep(level, 30), chunk=64)
    names = [[layer.name for layer in group.layers] for group in r.groups]
    assert names == [["back"], ["a", "b"], ["c"], ["fg"], ["fg faded"], ["fg same"]]


def test_tiles_drawn_over_translucent_or_animated_tiles_stay_exact(assets):
    w, h = 12, 8
    under = {(c, r): [g(GLASS), g(ANIM), g(ANIM_GLASS), g(HALF)][(c + r) % 4] for c in range(w) for r in range(h)}
    over = {(c, r): [g(GLASS), g(OPAQUE), g(HALF), g(HOLES), g(RAMP)][(c * 3 + r) % 5]
            for c in range(w) for r in range(h) if (c + r) % 3}
    top = {(c, r): g(GLASS) for c in range(w) for r in range(h) if c % 2}
    for backed in (True, False):
        layers = ([] if backed else [image(1, "sky", "sky.png", repeatx="1", repeaty="1")]) + [
            tile(2, "under", under, w, h), tile(3, "over", over, w, h), tile(4, "top", top, w, h)]
        level = make_level(assets, layers, w, h, name=f"glass{backed}.tmx")
        times = [(0, 0, t / 100) for t in range(0, 300, 7)]
        r = assert_same(level, times + sweep(level, 10), chunk=64)
        group = r.groups[0]
        assert len(r.groups) == 1 and (group.backing is not None) == backed
        assert group.overlay[0].sum() == sum(1 for gid in under.values() if gid in (g(ANIM), g(ANIM_GLASS)))


def test_map_without_background_colour_or_layers_draws_the_default_colour(assets):
    level = make_level(assets, [tile(1, "a", {(1, 1): g(OPAQUE)}, 4, 3)], 4, 3, background=None)
    assert_same(level, [(-50, -40, 0), (0, 0, 0), (10, 5, 1)])


def test_tiles_larger_than_the_grid_reach_up_and_right_across_chunks(assets):
    w, h = 20, 12
    big = {(c, r): BIG_FIRST + [BIG_SOLID, BIG_GLASS, BIG_ANIM][(c + 2 * r) % 3]
           for c in range(0, w, 3) for r in range(1, h, 2)}
    small = scatter(w, h, [g(OPAQUE), g(GLASS), g(HOLES), g(ANIM)], 0.4, 11)
    layers = [tile(1, "small", small, w, h), tile(2, "big", big, w, h), tile(3, "more", scatter(
        w, h, [g(GLASS), g(HALF)], 0.3, 12), w, h), objects(4, "o")]
    level = make_level(assets, layers, w, h)
    r = assert_same(level, sweep(level, 30) + [(0, 0, t / 50) for t in range(20)], chunk=32)
    assert r.groups[0]._oversize
    for chunk in (48, 256):
        assert_same(level, sweep(level, 10, seed=5), chunk=chunk)


@settings(max_examples=int(os.environ.get("TILECACHE_EXAMPLES", "25")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), n_layers=st.integers(1, 4), big=st.booleans(), sky=st.booleans(),
       chunk=st.sampled_from([16, 32, 48, 64, 256]))
def test_random_maps_match_the_reference(assets, seed, n_layers, big, sky, chunk):
    rng = random.Random(seed)
    w, h = rng.randint(1, 24), rng.randint(1, 14)
    pool = [g(i) for i in (OPAQUE, GREEN, HOLES, GLASS, HALF, EMPTY, PINK, RAMP, ANIM, ANIM_GLASS)]
    if big:
        pool += [BIG_FIRST + BIG_SOLID, BIG_FIRST + BIG_GLASS, BIG_FIRST + BIG_ANIM]
    layers = [image(1, "sky", "hills.png", repeatx="1")] if sky else []
    for i in range(n_layers):
        attrs = {}
        if rng.random() < 0.3:
            attrs["parallaxx"] = rng.choice(["0.5", "1", "1.5"])
        if rng.random() < 0.2:
            attrs["opacity"] = rng.choice(["0.3", "0.8"])
        if rng.random() < 0.15:
            attrs["visible"] = "0"
        if rng.random() < 0.2:
            attrs["offsetx"] = str(rng.randint(-20, 20))
        layers.append(tile(10 + i, f"L{i}", scatter(w, h, pool, rng.random(), rng.randint(0, 99)), w, h, **attrs))
        if rng.random() < 0.2:
            layers.append(objects(30 + i, f"O{i}"))
    level = make_level(assets, layers, w, h, name=f"r{seed % 7}.tmx")
    views = [(rng.randint(-150, w * TS), rng.randint(-100, h * TS), rng.random() * 3) for _ in range(6)]
    assert_same(level, views, size=(160, 96), chunk=chunk)


# -- run-time edits ----------------------------------------------------------------------------------
def _edited_level(assets, name="edit.tmx", big=False):
    w, h = 24, 14
    pool = [g(OPAQUE), g(HOLES), g(GLASS), g(HALF)] + ([BIG_FIRST + BIG_SOLID] if big else [])
    every = {(i, 0): g(i) for i in range(SMALL)} | {(i, 2): BIG_FIRST + i for i in range(3)}
    layers = [image(1, "sky", "sky.png", repeatx="1", repeaty="1"),
              tile(2, "ground", scatter(w, h, pool, 0.6, 21), w, h),
              tile(3, "deco", scatter(w, h, [g(GLASS), g(ANIM)], 0.2, 22), w, h),
              tile(4, "hidden", every, w, h, visible="0")]  # so that pytmx loads every tile
    return make_level(assets, layers, w, h, name=name)


def _built(r, level, size=(200, 120)):
    surf = pygame.Surface(size).convert()
    for y in range(-size[1], level.height, 40):
        for x in range(-size[0], level.width, 60):
            r.draw(surf, x, y, 0.0)
    group = r.groups[-1]
    return group, {k: (ch.solid, ch.glass) for k, ch in group.chunks.items() if ch is not None}


EDITS = [("ground", 3, 4, g(OPAQUE)), ("ground", 3, 4, 0), ("deco", 5, 5, g(GLASS)), ("ground", 5, 5, g(HALF)),
         ("deco", 7, 2, g(ANIM)), ("ground", 7, 2, g(GLASS)), ("deco", 7, 2, 0), ("ground", 0, 0, g(PINK)),
         ("ground", 23, 13, g(HOLES)), ("deco", 8, 8, g(ANIM_GLASS))]


def test_set_tile_repaints_only_the_changed_cell(assets):
    level = _edited_level(assets)
    r = MapRenderer(level, chunk=64)
    group, surfaces = _built(r, level)
    views = sweep(level, 12, seed=3)
    for layer, col, row, tiled in EDITS:
        before = group.painted
        gid = r.gid_for(tiled)
        r.set_tile(layer, col, row, gid)
        assert level.tmx.get_layer_by_name(layer).data[row][col] == gid
        assert_same(level, views, renderer=r)
        assert group.painted - before <= 3 * len(views), "an edit repainted more than its cell"
    kept = {k: (ch.solid, ch.glass) for k, ch in group.chunks.items() if ch is not None}
    assert sum(1 for k in surfaces if k in kept and kept[k][0] is surfaces[k][0]) >= len(surfaces) - 4
    r.set_tile("hidden", 1, 1, r.gid_for(g(OPAQUE)))  # not drawn: nothing to repaint, nothing breaks
    assert_same(level, views, renderer=r)


@settings(max_examples=int(os.environ.get("TILECACHE_EXAMPLES", "6")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), big=st.booleans(), chunk=st.sampled_from([16, 48, 64]))
def test_random_edits_match_the_reference(assets, seed, big, chunk):
    rng = random.Random(seed)
    level = _edited_level(assets, f"e{seed % 5}.tmx", big=big)
    r = MapRenderer(level, chunk=chunk)
    _built(r, level, size=(160, 96))
    cols, rows = level.width // TS, level.height // TS
    choices = [0] + [g(i) for i in range(SMALL)] + ([BIG_FIRST + i for i in range(3)] if big else [])
    for _ in range(4):
        for _ in range(rng.randint(1, 6)):
            r.set_tile(rng.choice(["ground", "deco"]), rng.randrange(cols), rng.randrange(rows),
                       r.gid_for(rng.choice(choices)))
        assert_same(level, [(rng.randint(-80, level.width), rng.randint(-50, level.height), rng.random())
                            for _ in range(3)], size=(160, 96), renderer=r)


def test_invalidate_after_editing_the_layer_data(assets):
    level = _edited_level(assets, "inv.tmx")
    r = MapRenderer(level, chunk=64)
    _built(r, level)
    data = level.tmx.get_layer_by_name("ground").data
    for r_ in range(2, 6):
        for c in range(3, 9):
            data[r_][c] = r.gid_for(g(GLASS)) if (r_ + c) % 2 else 0
    r.invalidate(3, 2, cols=6, rows=4)
    assert_same(level, sweep(level, 15, seed=4), renderer=r)


def test_edits_on_a_map_with_big_tiles(assets):
    level = _edited_level(assets, "bigedit.tmx", big=True)
    r = MapRenderer(level, chunk=64)
    _built(r, level)
    for layer, col, row, tiled in EDITS + [("ground", 4, 6, BIG_FIRST + BIG_GLASS), ("deco", 4, 6, BIG_FIRST + 2)]:
        r.set_tile(layer, col, row, r.gid_for(tiled))
        assert_same(level, sweep(level, 6, seed=col), renderer=r)


def test_set_tile_rejects_bad_input_in_one_line(assets):
    level = _edited_level(assets, "bad.tmx")
    r = MapRenderer(level)
    with pytest.raises(ValueError, match="no tile layer named 'nope'.*'ground'"):
        r.set_tile("nope", 0, 0, 1)
    with pytest.raises(ValueError, match=r"cell \(24, 0\) is outside layer 'ground' \(24x14 tiles\)"):
        r.set_tile("ground", 24, 0, 1)
    with pytest.raises(ValueError, match="gid 999 is not a tile of this map"):
        r.set_tile("ground", 0, 0, 999)
    with pytest.raises(ValueError, match="tile 999 is not loaded: the map never uses it"):
        r.gid_for(999)


def test_a_small_cache_budget_drops_and_rebuilds_chunks(assets):
    level = _edited_level(assets, "budget.tmx")
    r = assert_same(level, sweep(level, 40, seed=8), chunk=32, budget=32 * 32 * 4 * 12)
    group = r.groups[0]
    on_screen = (200 // 32 + 2) * (120 // 32 + 2)  # chunks a 200x120 view can touch: never dropped
    assert group.cache_bytes <= group.budget + on_screen * 32 * 32 * 8
    assert len(group.chunks) < (group._last[0] + 1) * (group._last[1] + 1)


# -- building blocks ---------------------------------------------------------------------------------
def test_fast_surfaces_blit_like_the_original(display):
    img = pygame.Surface((20, 10), pygame.SRCALPHA)
    img.fill((0, 0, 0, 0))
    img.fill(KEY_PINK + (255,), (0, 0, 10, 10))  # the usual key colour is used by the picture itself
    img.fill((10, 20, 30, 255), (10, 0, 5, 10))
    fast, opaque = fast_surface(img)
    assert not opaque and fast.get_colorkey()[:3] != KEY_PINK
    assert free_colour([img]) == fast.get_colorkey()[:3]
    for picture in (img, img.subsurface((0, 0, 10, 10)).copy()):
        fast, _ = fast_surface(picture)
        a, b = pygame.Surface((30, 20)).convert(), pygame.Surface((30, 20)).convert()
        a.fill((7, 7, 7))
        b.fill((7, 7, 7))
        a.blit(picture, (3, 4))
        b.blit(fast, (3, 4))
        assert differences(a, b) == 0
    glass = pygame.Surface((4, 4), pygame.SRCALPHA)
    glass.fill((9, 9, 9, 100))
    assert fast_surface(glass) == (glass, False)
