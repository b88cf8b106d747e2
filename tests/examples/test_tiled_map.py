"""examples/tiled_map.py: every shipped Tiled level in a World through TileGrid.from_gids, checked against the
map file read here with nothing but the XML (tiles, platforms and their paths, triggers, the spawn)."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))

import tiled_map  # noqa: E402  (the example, imported as a module)

LEVELS = sorted((ROOT / "levels").glob("*.tmx"))


def expected_tiles(level):
    """The terrain layer's kinds and slope heights, from the .tmx and its tilesets' properties."""
    root = ET.parse(level).getroot()
    props = {}
    for ts in root.findall("tileset"):
        first, tsx = int(ts.get("firstgid")), ET.parse(level.parent / ts.get("source")).getroot()
        for tile in tsx.findall("tile"):
            values = {p.get("name"): p.get("value") for p in tile.iter("property")}
            props[first + int(tile.get("id"))] = values
    layer = next(layer for layer in root.findall("layer") if layer.get("name") == "terrain")
    gids = np.array([[int(v) for v in row.split(",") if v] for row in layer.find("data").text.split()])
    kinds, left, right = (np.zeros(gids.shape) for _ in range(3))
    for (r, c), gid in np.ndenumerate(gids & 0x0FFFFFFF):
        what = props.get(int(gid), {}).get("collision")
        kinds[r, c] = {"solid": 1, "one_way": 2, "slope": 3}.get(what, 0)
        if what == "slope":
            left[r, c], right[r, c] = float(props[gid]["slope_left"]), float(props[gid]["slope_right"])
            if gids[r, c] & 0x80000000:
                left[r, c], right[r, c] = right[r, c], left[r, c]
    return kinds, left, right


def expected_platforms(level):
    """name -> (rect, path points, speed, wait) for every platform object, from the XML alone: a `path`
    property names a polyline whose shape starts at the platform's corner; else dx/dy from the corner."""
    objects = {o.get("id"): o for o in ET.parse(level).getroot().iter("object")}
    out = {}
    for o in objects.values():
        if o.get("type") != "platform":
            continue
        props = {p.get("name"): p.get("value") for p in o.iter("property")}
        x, y = float(o.get("x")), float(o.get("y"))
        if "path" in props:
            line = objects[props["path"]]
            shape = [tuple(float(v) for v in pt.split(",")) for pt in line.find("polyline").get("points").split()]
            points = [(x + px - shape[0][0], y + py - shape[0][1]) for px, py in shape]
        else:
            points = [(x, y), (x + float(props.get("dx", 0)), y + float(props.get("dy", 0)))]
        rect = (x, y, float(o.get("width")), float(o.get("height")))
        out[o.get("name")] = (rect, points, float(props["speed"]), float(props.get("wait", 0)))
    return out


def test_the_levels_together_cover_slopes_one_way_tiles_and_polyline_paths():
    text = [level.read_text() for level in LEVELS]
    assert len(LEVELS) >= 9
    assert any('name="path"' in t and "<polyline" in t for t in text)
    kinds = [expected_tiles(level)[0] for level in LEVELS]
    assert any((k == 3).any() for k in kinds) and any((k == 2).any() for k in kinds)


@pytest.mark.parametrize("level", LEVELS, ids=[level.stem for level in LEVELS])
def test_the_example_loads_a_level_tile_for_tile_with_its_platforms_and_triggers(level):
    world, hero = tiled_map.load(level)
    kinds, left, right = expected_tiles(level)
    g = world.grid
    assert (g.kinds == kinds).all() and (g.slope_left == left).all() and (g.slope_right == right).all()
    platforms = expected_platforms(level)
    assert sorted(p.name for p in world.platforms) == sorted(platforms)
    for p in world.platforms:
        rect, points, speed, wait = platforms[p.name]
        assert (p.x, p.y, p.w, p.h) == rect
        assert p.path.points == points and p.path.speed == speed and p.path.wait == wait
    objects = list(ET.parse(level).getroot().iter("object"))
    sensors = [o for o in objects if o.get("type") and o.get("width") and o.get("type") not in ("platform", "spawn")]
    assert len(world.triggers) == len(sensors)
    assert {"coin", "goal"} <= {t.data for t in world.triggers}
    for _ in range(120):
        world.step()
    spawn = next(o for o in objects if o.get("type") == "spawn")
    assert hero.on_ground and hero.y + hero.h == float(spawn.get("y"))  # stands at the spawn point


def test_the_example_runs_as_a_script():
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "tiled_map.py")], env=env, capture_output=True,
                         text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert "platforms" in out.stdout and "triggers" in out.stdout
