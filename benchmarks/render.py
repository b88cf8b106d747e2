"""Drawing a shipped level at 640x360 along one camera path: our renderer beside pyscroll, same run.

The camera runs across the level and back at 150 px/s (2.5 px a frame at 60 fps) while bobbing up and
down the map's height, so every contender draws the same views. Each first draws the whole path once
(caches warm), then frames are timed in alternating rounds.

* ``render_fps``: :class:`game.window.render.tilemap.MapRenderer` drawing the level as the game shows it:
  background colour, the parallax image layers (sky, hills), the tile layers, the foreground.
* ``pyscroll_fps``: pyscroll's ``BufferedRenderer`` (its default, opaque buffer) on the same map. It draws
  the tile layers only: it has no image layers and no parallax.
* ``render_tiles_fps``: our renderer with the image layers hidden: the same layers pyscroll draws.
* ``pyscroll_full_fps``: pyscroll with a transparent buffer over the same image layers we draw: the picture
  the game shows, the way a pyscroll user would get it.
* ``reference_render_fps``: every visible tile blitted each frame (game/window/render/reference.py).
"""

from __future__ import annotations

import math
from pathlib import Path

from .common import Figure, interleaved, missing, pick

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "02_planks.tmx"
VIEW = (640, 360)


def camera_path(map_w: int, map_h: int, frames: int, view=VIEW) -> list[tuple[int, int]]:
    """Top-left camera positions: across the map and back at 2.5 px a frame, bobbing vertically."""
    vw, vh = view
    span = max(1, map_w - vw)
    out = []
    for i in range(frames):
        u = (i * 2.5) % (2 * span)
        x = u if u <= span else 2 * span - u
        y = (map_h - vh) / 2 * (1 + math.sin(i / 90)) if map_h > vh else (map_h - vh) / 2
        out.append((round(x), round(y)))
    return out


def _display():
    import pygame

    pygame.display.init()
    pygame.display.set_mode((1, 1))
    return pygame


def _looping(draw, path):
    """A frame function drawing the next camera position of ``path`` each call."""
    state = {"i": 0}

    def frame():
        i = state["i"]
        state["i"] = i + 1
        x, y = path[i % len(path)]
        draw(x, y, i / 60)

    return frame


def run(mode: str) -> list[Figure]:
    pygame = _display()
    import pytmx

    from game.files.levelfile import load_level
    from game.window.render.reference import ReferenceRenderer
    from game.window.render.tilemap import MapRenderer, _ImageLayer, draw_image_layer

    level = load_level(LEVEL, images=True)
    surf = pygame.Surface(VIEW).convert()
    path = camera_path(level.width, level.height, 2 * max(1, level.width - VIEW[0]) * 2 // 5)
    path = path[:pick(mode, 24, len(path), len(path))]  # (smoke: a few frames; its warm-up pass walks the path)
    ours = MapRenderer(level)
    ref = ReferenceRenderer(level)
    contenders = {
        "render_fps": _looping(lambda x, y, t: ours.draw(surf, x, y, t), path),
        "reference_render_fps": _looping(lambda x, y, t: ref.draw(surf, x, y, t), path),
    }
    hidden = [layer for layer in level.tmx.layers if isinstance(layer, pytmx.TiledImageLayer)]
    for layer in hidden:
        layer.visible = 0
    tiles_only = MapRenderer(level)
    for layer in hidden:
        layer.visible = 1
    contenders["render_tiles_fps"] = _looping(lambda x, y, t: tiles_only.draw(surf, x, y, t), path)
    figures = []
    try:
        import pyscroll
    except ImportError:
        figures += [Figure(k, None, missing("pyscroll")) for k in ("pyscroll_fps", "pyscroll_full_fps")]
    else:
        rect = surf.get_rect()
        plain = pyscroll.BufferedRenderer(pyscroll.TiledMapData(level.tmx), VIEW)
        see_through = pyscroll.BufferedRenderer(pyscroll.TiledMapData(level.tmx), VIEW, alpha=True)
        images = [layer for layer in ours.layers if isinstance(layer, _ImageLayer)]

        def pyscroll_draw(x, y, t):
            plain.center((x + VIEW[0] // 2, y + VIEW[1] // 2))
            plain.draw(surf, rect)

        def pyscroll_full(x, y, t):
            ours._draw_base(surf, x, y)
            for layer in images:
                draw_image_layer(surf, layer, layer.fast, x, y)
            see_through.center((x + VIEW[0] // 2, y + VIEW[1] // 2))
            see_through.draw(surf, rect)

        contenders["pyscroll_fps"] = _looping(pyscroll_draw, path)
        contenders["pyscroll_full_fps"] = _looping(pyscroll_full, path)
    for frame in contenders.values():  # one pass over the path: every cache warm
        for _ in range(len(path)):
            frame()
    calls, rounds = pick(mode, (10, 2), (150, 5), (300, 11))
    seconds = interleaved(contenders, calls, rounds)
    figures += [Figure(key, 1.0 / s) for key, s in seconds.items()]
    return figures
