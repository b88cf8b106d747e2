"""The generated big map is a valid level (the loader accepts it) with three tile layers."""

import pygame

from benchmarks.loading import generate
from benchmarks.render import camera_path
from game.files.levelfile import load_level


def test_generated_map_loads(tmp_path):
    level = load_level(generate(tmp_path, cols=120, rows=60))
    assert (level.cols, level.rows) == (120, 60)
    assert [name for name in level.layer_order if name != "objects"] == ["background", "terrain", "foreground"]
    kinds = set(level.grid.kinds.ravel().tolist())
    assert {0, 1, 2, 3} <= kinds  # empty, solid, one-way, slope
    assert level.goals and level.spawn


def test_camera_path_stays_on_the_map():
    path = camera_path(2000, 500, 2000, view=(640, 360))
    assert all(0 <= x <= 2000 - 640 and 0 <= y <= 500 - 360 for x, y in path)
    assert max(x for x, _ in path) == 2000 - 640 and min(x for x, _ in path) == 0
    assert camera_path(300, 200, 3, view=(640, 360))[0] == (0, -80)  # a small map stays centred
    assert pygame  # imported for the display-free loader
