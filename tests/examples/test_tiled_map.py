"""examples/tiled_map.py: a Tiled level in a World through TileGrid.from_gids, checked against the map file
read here with nothing but the XML (tiles, platforms and their paths, triggers, the spawn)."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))

import tiled_map  # noqa: E402  (the example, imported as a module)

LEVEL = ROOT / "levels" / "05_the_climb.tmx"


def expected_tiles():
    """The terrain layer's kinds and slope heights, from the .tmx and its tilesets' properties."""
    root = ET.parse(LEVEL).getroot()
    props = {}
    for ts in root.findall("tileset"):
        first, tsx = int(ts.get("firstgid")), ET.parse(LEVEL.parent / ts.get("source")).getroot()
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


def test_the_example_loads_the_level_tile_for_tile_with_its_platforms_and_triggers():
    world, hero = tiled_map.load(LEVEL)
    kinds, left, right = expected_tiles()
    g = world.grid
    assert (g.kinds == kinds).all() and (g.slope_left == left).all() and (g.slope_right == right).all()
    assert (kinds == 3).any() and (kinds == 2).any()  # (the level has slopes and one-way tiles)
    objects = ET.parse(LEVEL).getroot().iter("object")
    types = [o.get("type") for o in objects]
    assert len(world.platforms) == types.count("platform") == 4
    assert {"coin", "checkpoint", "goal"} <= {t.data for t in world.triggers}
    lift = next(p for p in world.platforms if p.name == "lift")  # along a polyline: its shape, from the corner
    line = [o for o in ET.parse(LEVEL).getroot().iter("object") if o.get("id") == "1"][0]
    x0, y0 = float(line.get("x")), float(line.get("y"))
    shape = [tuple(float(v) for v in pt.split(",")) for pt in line.find("polyline").get("points").split()]
    assert lift.path.points == [(1456.0 + px - shape[0][0], 288.0 + py - shape[0][1]) for px, py in shape]
    assert x0 and y0 and lift.path.wait == 0.5 and lift.path.speed == 50.0
    raft = next(p for p in world.platforms if p.name == "raft 2")
    assert raft.path.points == [(3504.0, 192.0), (3600.0, 224.0)]  # dx, dy
    for _ in range(120):
        world.step()
    spawn = next(o for o in ET.parse(LEVEL).getroot().iter("object") if o.get("type") == "spawn")
    assert hero.on_ground and hero.y + hero.h == float(spawn.get("y"))  # stands at the spawn point


def test_the_example_runs_as_a_script():
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "tiled_map.py")], env=env, capture_output=True,
                         text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert "platforms" in out.stdout and "triggers" in out.stdout
