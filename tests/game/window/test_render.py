"""Rendering: Tiled layer order, parallax, background colour, animated tiles, cached chunks, the
pixel-perfect canvas, the whole-pixel camera, the pixel font."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.window import ui  # noqa: E402
from game.rules.camera import Camera, View  # noqa: E402
from game.files.levelfile import load_level  # noqa: E402
from game.window.particles import Particles, Squash  # noqa: E402
from game.window.render.canvas import CANVAS_H, CANVAS_W, Screen  # noqa: E402
from game.window.render.tilemap import MapRenderer  # noqa: E402

MAPS = Path(__file__).resolve().parents[2] / "maps"
BROWN = (120, 90, 60)  # test_tiles.png tile 0 (solid)
YELLOW = (240, 200, 40)  # tile 7
BG = (0x33, 0x66, 0x99)

TSX_ANIM = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="anim" tilewidth="16" tileheight="16" tilecount="8"
 columns="4">
 <image source="test_tiles.png" width="64" height="32"/>
 <tile id="0"><properties><property name="collision" value="solid"/></properties></tile>
 <tile id="5"><animation>
  <frame tileid="0" duration="100"/><frame tileid="7" duration="100"/>
 </animation></tile>
</tileset>
"""


def _map(layers: str, w=40, h=20) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{w}"
 height="{h}" tilewidth="16" tileheight="16" infinite="0" backgroundcolor="#336699" nextlayerid="9"
 nextobjectid="9">
 <tileset firstgid="1" source="anim.tsx"/>
{layers}
 <objectgroup id="8" name="objects"><object id="1" type="spawn" x="8" y="300"><point/></object></objectgroup>
</map>"""


def _layer(lid, name, cells, w=40, h=20, extra=""):
    rows = [[0] * w for _ in range(h)]
    for (c, r), gid in cells.items():
        rows[r][c] = gid
    data = ",\n".join(",".join(map(str, row)) for row in rows)
    return (f' <layer id="{lid}" name="{name}" width="{w}" height="{h}" {extra}>'
            f'<data encoding="csv">\n{data}\n</data></layer>')


@pytest.fixture
def folder(tmp_path):
    shutil.copy(MAPS / "test_tiles.png", tmp_path)
    (tmp_path / "anim.tsx").write_text(TSX_ANIM)
    return tmp_path


def _render(folder, layers, cam=(0, 0), t=0.0, name="m.tmx"):
    path = folder / name
    path.write_text(_map(layers))
    level = load_level(path, images=True)
    r = MapRenderer(level)
    surf = pygame.Surface((CANVAS_W, CANVAS_H))
    r.draw(surf, *cam, t)
    return r, surf


def test_layers_draw_in_file_order_not_pytmx_order(display, folder):
    floor = {(c, 19): 1 for c in range(40)}
    _, surf = _render(folder, _layer(1, "a", {(2, 0): 8, **floor}) + _layer(2, "b", {(2, 0): 1}))
    assert surf.get_at((40, 8))[:3] == BROWN  # b is later in the file: on top
    _, surf = _render(folder, _layer(1, "b", {(2, 0): 1, **floor}) + _layer(2, "a", {(2, 0): 8}))
    assert surf.get_at((40, 8))[:3] == YELLOW


def test_background_colour_and_parallax_factor(display, folder):
    floor = {(c, 19): 1 for c in range(40)}
    layers = (_layer(1, "far", {(4, 0): 8}, extra='parallaxx="0.5" parallaxy="1"')
              + _layer(2, "ground", floor))
    _, surf = _render(folder, layers, cam=(32, 0))
    assert surf.get_at((200, 100))[:3] == BG
    # tile at x = 64 drawn at 64 - 32 * 0.5 = 48 (a factor-1 layer would be at 32)
    assert surf.get_at((56, 8))[:3] == YELLOW
    assert surf.get_at((40, 8))[:3] == BG


def test_animated_tiles_change_frames_over_time(display, folder):
    floor = {(c, 19): 1 for c in range(40)}
    layers = _layer(1, "ground", {**floor, (1, 1): 6})
    _, a = _render(folder, layers, t=0.05)
    _, b = _render(folder, layers, t=0.15)
    assert a.get_at((24, 24))[:3] == BROWN and b.get_at((24, 24))[:3] == YELLOW


def test_tile_layers_are_cached_in_chunks(display, folder):
    floor = {(c, 19): 1 for c in range(40)}
    r, surf = _render(folder, _layer(1, "ground", floor))
    group = r.layers[0]
    built = dict(group.chunks)
    assert 0 < len(built) <= 6  # 640x320 px of map: at most 3x2 chunks of 256 px
    r.draw(surf, 0, 0, 0.0)
    assert all(group.chunks[k] is built[k] for k in built)  # drawn again from the same pictures


def test_screen_scales_by_whole_numbers_and_letterboxes():
    s = Screen(scale=2)
    assert s.window.get_size() == (960, 540) and s.scale == 2
    s.window = pygame.display.set_mode((1000, 700))
    assert s.scale == 2 and s.offset == (20, 80)
    assert s.to_canvas((20 + 10, 80 + 4)) == (5, 2)
    s.canvas.fill((255, 0, 0))
    s.present()
    assert s.window.get_at((20, 80))[:3] == (255, 0, 0) and s.window.get_at((5, 5))[:3] == (0, 0, 0)
    pygame.display.quit()


def test_camera_dead_zone_clamp_and_whole_pixels():
    cam = Camera(480, 270, 2000, 600)
    cam.snap(100, 400)
    assert cam.view().x == 0  # clamped at the left edge
    cam.snap(1000, 300)
    x0 = cam.x
    cam.update(1 / 60, 1005, 300, 0, 0, True)  # inside the dead zone: no horizontal move
    assert cam.x == x0
    for _ in range(200):
        cam.update(1 / 60, 1300, 300, 150, 0, True)
    assert cam.x > x0 + 100
    vx, vy = cam.view(0.37).origin
    assert isinstance(vx, int) and isinstance(vy, int)
    for _ in range(400):
        cam.update(1 / 60, 1990, 590, 150, 0, True)
    assert cam.view().origin == (2000 - 480, 600 - 270 + 48)  # the bottom: it may look 48 px past it


def test_camera_centres_a_small_map():
    cam = Camera(480, 270, 320, 160)
    cam.snap(10, 10)
    assert cam.view().origin == (-80, -55)


def test_pixel_font_widths_and_wrapping(display):
    assert ui.text_width("A") == 5 and ui.text_width("AA") == 11
    assert ui.text("Hi!").get_height() == ui.LINE_H + 1
    lines = ui.wrap("one two three four five six", 60)
    assert len(lines) > 1 and all(ui.text_width(line) <= 60 for line in lines)
    assert ui.format_time(83.456) == "1:23.46" and ui.format_time(None) == "--:--.--"


def test_menu_skips_disabled_items():
    m = ui.Menu(["a", "b", "c"], enabled=[True, False, True])
    m.handle("down")
    assert m.index == 2
    assert m.handle("confirm") == "c"


def test_particles_fade_and_squash_springs_back():
    p = Particles()
    p.burst(0, 0)
    assert p.items
    for _ in range(80):
        p.update(1 / 60)
    assert not p.items
    s = Squash()
    s.jump()
    for _ in range(60):
        s.update(1 / 60)
    assert abs(s.sx - 1) < 0.02 and abs(s.sy - 1) < 0.02


def test_player_is_drawn_at_the_interpolated_position(display):
    from engine import Character

    from game.window.render.sprites import Art
    from game.window.render.world import PlayerLook, draw_player

    art = Art()
    p = Character(100, 50, 10, 14)
    p.prev_x, p.prev_y = 90.0, 50.0
    look, sq = PlayerLook(), Squash()
    boxes = []
    for alpha in (0.0, 0.5, 1.0):
        surf = pygame.Surface((200, 100), pygame.SRCALPHA)
        draw_player(surf, art, p, look, sq, alpha, View(0.0, 0.0))
        boxes.append(surf.get_bounding_rect())
    assert boxes[1].x - boxes[0].x == 5 and boxes[2].x - boxes[0].x == 10
    assert boxes[0].bottom == 64  # feet on the box's bottom edge


def test_player_sprite_eases_over_a_step_pop_but_follows_slopes_exactly():
    from types import SimpleNamespace

    from game.window.render.world import PlayerLook

    look = PlayerLook()
    p = SimpleNamespace(x=0.0, y=100.0, vx=150.0, vy=0.0, on_ground=True)
    look.update(1 / 60, p)
    for _ in range(5):  # walking down a 45° slope: no smoothing, the sprite is exactly on the box
        p.x += 2.5
        p.y += 2.5
        look.update(1 / 60, p)
        assert look.step_offset == 0.0
    p.x += 2.5
    p.y -= 6.5  # the pop onto a block at a ramp's top: 4 px more than the slope explains
    look.update(1 / 60, p)
    assert 0 < look.step_offset < 4.0  # drawn a little lower, easing up
    for _ in range(20):
        look.update(1 / 60, p)
    assert look.step_offset == 0.0
    p.y -= 200  # a respawn is not smoothed
    look.update(1 / 60, p)
    assert look.step_offset == 0.0


def test_the_hero_stands_in_front_of_a_signpost(display):
    """A shipped level: the hero drawn at a signpost shows every one of its pixels (props are behind)."""
    from engine import Character

    from game.rules.camera import View
    from game.window.render.sprites import Art
    from game.window.render.world import PlayerLook, draw_player

    if pygame.display.get_surface() is None:  # another test here may have closed the display
        pygame.display.init()
        pygame.display.set_mode((1, 1))
    level = load_level(Path(__file__).resolve().parents[3] / "levels" / "01_first_steps.tmx", images=True)
    sign = next(t for t in level.triggers if t.props.get("message"))
    hero = Character(sign.x + sign.w / 2 - 5, sign.y + sign.h - 14, 10, 14)
    art, look, sq = Art(), PlayerLook(), Squash()
    view = View(hero.x - 100.0, hero.y - 100.0)
    alone = pygame.Surface((200, 150), pygame.SRCALPHA)
    draw_player(alone, art, hero, look, sq, 1.0, view)
    scene = pygame.Surface((200, 150))
    MapRenderer(level, art).draw(scene, *view.origin, 0.0,
                                 lambda surf: draw_player(surf, art, hero, look, sq, 1.0, view))
    box = alone.get_bounding_rect()
    covered = [(x, y) for x in range(box.left, box.right) for y in range(box.top, box.bottom)
               if alone.get_at((x, y)).a == 255 and scene.get_at((x, y))[:3] != alone.get_at((x, y))[:3]]
    assert box.w > 5 and not covered, f"{len(covered)} hero pixels drawn over"


def test_moving_platforms_have_a_rail_along_their_route_and_none_when_still():
    from game.window.render.world import rail_image

    assert rail_image([(100.0, 50.0)], 48, 8) is None
    assert rail_image([(100.0, 50.0), (100.0, 50.0)], 48, 8) is None
    img, (x0, y0) = rail_image([(100.0, 50.0), (244.0, 50.0), (244.0, -30.0)], 48, 8)
    # through the platform's centre, from the first end stop to the last, with a few px for the stops
    assert x0 <= 124 - 3 and x0 + img.get_width() >= 268 + 3
    assert y0 <= -26 - 3 and y0 + img.get_height() >= 54 + 3
    assert img.get_at((124 - x0, 54 - y0)).a == 255 and img.get_at((200 - x0, 54 - y0)).a == 255
    assert img.get_at((200 - x0, 20 - y0)).a == 0  # nothing off the route
    assert rail_image([(100.0, 50.0), (244.0, 50.0)], 48, 8)[0] is rail_image([(100, 50), (244, 50)], 48, 8)[0]


def test_moving_platforms_do_not_look_like_the_static_planks(display):
    """The one-way moving platform's middle piece against the tileset's plank middle (tile 37)."""
    from game.window.render.sprites import Art

    art = Art()
    tiles = pygame.image.load(str(Path(__file__).resolve().parents[3] / "assets" / "tiles.png"))
    columns = tiles.get_width() // 16
    plank = tiles.subsurface(((37 % columns) * 16, (37 // columns) * 16, 16, 8))
    moving = art.platform_one_way.subsurface((16, 0, 16, 8))
    differ = sum(1 for x in range(16) for y in range(8) if plank.get_at((x, y)) != moving.get_at((x, y)))
    assert differ > 64, f"only {differ} of 128 pixels differ"


def test_the_debug_overlay_draws_ropes_at_their_interpolated_positions(display):
    from engine import Rope, RopeConfig

    from game.rules.camera import View
    from game.window.render.debug import draw_debug
    from game.rules.session import Session

    session = Session(load_level(MAPS / "flat.tmx"))
    rope = session.world.add(Rope(300, 2, RopeConfig(segments=3, segment_length=10)))  # right of the text
    surf = pygame.Surface((CANVAS_W, CANVAS_H))
    draw_debug(surf, session, 1.0, View(0.0, 0.0), fps=60.0, step_ms=0.1, t_hz=60)
    x, y = rope.points[2]
    assert surf.get_at((round(x), round(y)))[:3] == (120, 230, 120)
