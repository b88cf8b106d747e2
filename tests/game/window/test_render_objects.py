"""Drawing the level objects of a session in play, and keeping the map's crumble/breakable tiles in step."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame

from game.rules.camera import View
from game.files.inputscript import read_script
from game.files.levelfile import load_level
from game.window.render.objects import BlockTiles, draw_level_objects, enemy_pose
from game.window.render.tilemap import MapRenderer
from game.rules.session import Session

MAPS = Path(__file__).resolve().parents[2] / "maps"


def drawn_at(art, session, box, view) -> int:
    """Pixels drawn inside ``box`` (map px) by draw_level_objects."""
    surf = pygame.Surface((480, 270), pygame.SRCALPHA)
    surf.fill((0, 0, 0, 0))
    draw_level_objects(surf, art, session, 1.0, view, 0.0)
    x, y, w, h = box
    alpha = pygame.surfarray.pixels_alpha(surf).T
    return int(np.count_nonzero(alpha[max(0, int(y - view.y)):int(y + h - view.y),
                                      max(0, int(x - view.x)):int(x + w - view.x)]))


def test_every_kind_is_drawn_where_its_body_is(art):
    s = Session(load_level(MAPS / "objects_demo.tmx"))
    s.step(read_script(MAPS / "objects_demo_tour.txt").steps[0])
    view = View(0.0, 0.0)
    for e in s.enemies.all[:3]:
        a = e.actor
        assert drawn_at(art, s, (a.x, a.y, a.w, a.h), view) > 20, e.spec.name
    spring = s.hazards.springs[0]
    assert drawn_at(art, s, (spring.x, spring.y, spring.w, spring.h), View(400.0, 0.0)) > 20
    far = View(1056.0, 0.0)  # the vines and the breakable object
    brick = next(b for b in s.blocks.breakables if b.name == "brick")
    assert drawn_at(art, s, (brick.x, brick.y, brick.w, brick.h), far) > 100
    rope = s.vines.ropes[0]
    (x, y), (_, y1) = rope.points[0], rope.points[-1]
    assert drawn_at(art, s, (x - 4, y, 8, y1 - y), far) > 30


def test_the_map_tiles_of_a_crumble_leave_while_it_shakes_and_come_back(art):
    level = load_level(MAPS / "objects_demo.tmx", images=True)
    renderer = MapRenderer(level, art)
    tiles = BlockTiles(renderer, level)
    s = Session(level)
    i = next(i for i, c in enumerate(s.blocks.crumbles) if c.cells and c.one_way)  # the plank bridge
    col, row = s.blocks.crumbles[i].cells[0]
    layer = s.blocks.crumbles[i].layer
    gid = renderer.tile_gid(layer, col, row)
    assert gid
    s.blocks.shook[i] = s.world.steps
    tiles.sync(s.blocks)
    assert renderer.tile_gid(layer, col, row) == 0
    s.blocks.shook[i] = -1
    tiles.sync(s.blocks)
    assert renderer.tile_gid(layer, col, row) == gid


def test_a_hopper_crouches_before_its_hop_and_shows_its_rise_and_fall():
    class Body:
        on_ground, vy = True, 0.0

    b = Body()
    assert enemy_pose("hopper", b, 5, 60) == "crouch" and enemy_pose("hopper", b, 58, 60) == "land"
    assert enemy_pose("hopper", b, 30, 60) == "idle" and enemy_pose("walker", b, 0, 60) == "walk"
    b.on_ground, b.vy = False, -10.0
    assert enemy_pose("hopper", b, 30, 60) == "jump"
    b.vy = 10.0
    assert enemy_pose("hopper", b, 30, 60) == "fall"


def test_a_refill_crystal_is_drawn_bright_and_dim_while_it_is_gone(art, write_map):
    text = "\n".join(["." * 20] * 3 + ["P" + "." * 18 + "G", "#" * 20])
    crystal = '<object id="ID" name="crystal" type="refill" x="100" y="20"><point/></object>'
    s = Session(load_level(write_map("refill.tmx", text, [crystal])))
    view = View(0.0, 0.0)
    box = s.refills.boxes[0]
    surf = pygame.Surface((480, 270), pygame.SRCALPHA)

    def colours() -> set:
        surf.fill((0, 0, 0, 0))
        draw_level_objects(surf, art, s, 1.0, view, 0.0)
        x, y, w, h = (int(v) for v in box)
        return {tuple(surf.get_at((x + i, y + j)))[:3] for i in range(-2, w + 2) for j in range(-3, h + 3)
                if surf.get_at((x + i, y + j)).a}

    there = colours()
    assert (44, 232, 245) in there and len(there) >= 3  # body, facet, outline
    full = drawn_at(art, s, box, view)
    assert full > 30
    s.refills.used[0] = s.world.steps  # used this step: a dim outline, nothing bright
    gone = colours()
    assert gone and (44, 232, 245) not in gone and drawn_at(art, s, box, view) < full / 2
