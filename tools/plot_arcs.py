"""Draw the jump arcs of the shipped feel files into docs/img/arcs.png, using the REAL controller.

    python tools/plot_arcs.py [--out docs/img/arcs.png] [--panel-shot docs/img/panel.png] [FEEL.toml ...]

For each feel (default: feel.toml and every presets/*.toml) a player runs on a flat floor until it is at
full speed, then jumps: once holding jump (top chart) and once tapping it for one step (bottom chart).
The arcs come from game.window.tuning.predict_arcs, i.e. the engine stepping a copy of the world.
``--panel-shot`` also renders the F2 tuning panel over a small sample level (for docs/feel.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from engine import Buttons, Character, TileGrid, World  # noqa: E402
from game.files.feelfile import load_feel  # noqa: E402
from game.window.tuning import FONT, predict_arcs  # noqa: E402

COLORS = [(240, 240, 250), (96, 230, 255), (255, 150, 80), (150, 230, 120), (240, 110, 200), (255, 220, 90)]
SCALE = 4                  # image px per world px
VIEW_W, VIEW_H = 176, 80   # world px shown per chart (11 x 5 tiles)
MARGIN = 14 * 2


def flights(feel):
    """(held, tapped) feet points relative to take-off, after a run-up to full speed."""
    cols = 80
    grid = TileGrid.from_ascii("\n".join(["." * cols] * 10 + ["#" * cols]))
    world = World(grid, feel=feel)
    player = world.add(Character(16, 10 * 16 - 14))
    for _ in range(600):
        world.step(Buttons(right=True))
        if player.on_ground and player.vx >= feel.run.max_speed:
            break
    held, tapped = predict_arcs(world, player, feel, steps=600, direction=1)
    x0, y0 = player.x, player.y
    rel = [[(x - x0, y0 - y) for x, y in arc] for arc in (held, tapped)]
    return rel[0], rel[1]


def chart(canvas, top, title, arcs):
    left = MARGIN
    w, h = VIEW_W * SCALE, VIEW_H * SCALE
    canvas.fill((22, 26, 40), (left, top, w, h))
    for tx in range(0, VIEW_W + 1, 16):  # tile grid
        canvas.fill((44, 50, 72), (left + tx * SCALE, top, 1, h))
    for ty in range(0, VIEW_H + 1, 16):
        canvas.fill((44, 50, 72), (left, top + h - ty * SCALE - 1, w, 1))
    for ty in range(0, VIEW_H + 1, 16):
        label = FONT.render(f"{ty // 16}", (130, 140, 170), 2)
        canvas.blit(label, (left - label.get_width() - 6, top + h - ty * SCALE - 6))
    for tx in range(0, VIEW_W + 1, 16):
        label = FONT.render(f"{tx // 16}", (130, 140, 170), 2)
        canvas.blit(label, (left + tx * SCALE - label.get_width() // 2, top + h + 6))
    canvas.fill((120, 100, 80), (left, top + h, w, 2))  # the floor
    canvas.blit(FONT.render(title, (255, 196, 92), 2), (left, top - 16))
    for (points, color) in zip(arcs, COLORS, strict=False):
        px = [(left + x * SCALE, top + h - y * SCALE) for x, y in points if x <= VIEW_W]
        if len(px) >= 2:
            pygame.draw.lines(canvas, color, False, px, 3)
        for i in range(0, len(px), 5):  # a dot every 5 steps (1/12 s at 60 Hz)
            pygame.draw.circle(canvas, color, (round(px[i][0]), round(px[i][1])), 4)


SAMPLE = "\n".join([
    "." * 46, "." * 46, "." * 46, "." * 46, "." * 46, "." * 46, "." * 46, "." * 46,
    "." * 24 + "####" + "." * 18,
    "." * 46,
    "." * 46,
    "." * 18 + "====" + "." * 13 + "###" + "." * 8,
    "." * 46,
    "." * 43 + "##.",
    "#" * 30 + "." * 7 + "#" * 9,
    "#" * 30 + "." * 7 + "#" * 9,
    "#" * 30 + "." * 7 + "#" * 9,
])


def panel_shot(out: Path, feel_path: Path) -> None:
    """The tuning panel over a sample level, 2x, as the player runs towards a one-way platform."""
    from game.window.tuning import TuningPanel

    pygame.display.set_mode((1, 1))
    grid = TileGrid.from_ascii(SAMPLE)
    feel = load_feel(feel_path)
    world = World(grid, feel=feel)
    player = world.add(Character(190, 14 * 16 - 14))
    for _ in range(22):
        world.step(Buttons(right=True))
    panel = TuningPanel(feel_path, feel)
    panel.toggle()
    panel.update(feel, world, player)
    cam = (round(player.x + 5 - 240), 0)
    canvas = pygame.Surface((480, 270))
    for y in range(270):
        canvas.fill((70 + y // 6, 110 + y // 5, 170 + y // 8), (0, y, 480, 1))
    for r in range(grid.rows):
        for c in range(grid.cols):
            kind = int(grid.kind_at(c, r))
            x, y = c * 16 - cam[0], r * 16 - cam[1]
            if kind == 1:
                canvas.fill((92, 72, 54), (x, y, 16, 16))
                canvas.fill((72, 56, 42), (x, y + 15, 16, 1))
                if r == 0 or int(grid.kind_at(c, r - 1)) != 1:
                    canvas.fill((90, 170, 80), (x, y, 16, 3))
            elif kind == 2:
                canvas.fill((200, 170, 110), (x, y, 16, 3))
    canvas.fill((250, 240, 230), (round(player.x) - cam[0], round(player.y) - cam[1], 10, 14))
    panel.draw(canvas, cam)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(pygame.transform.scale_by(canvas, 2), str(out))
    print(f"wrote {out}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("feels", nargs="*", type=Path)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "arcs.png")
    ap.add_argument("--panel-shot", type=Path, help="also save a picture of the tuning panel here")
    args = ap.parse_args(argv)
    files = args.feels or [ROOT / "feel.toml", *sorted((ROOT / "presets").glob("*.toml"))]
    pygame.init()
    results = []
    for path in files:
        feel = load_feel(path)
        held, tapped = flights(feel)
        results.append((path.stem if path.stem != "feel" else "default", feel, held, tapped))
    width = MARGIN + VIEW_W * SCALE + 300
    chart_h = VIEW_H * SCALE
    height = 30 + 2 * (chart_h + 56) + 10
    canvas = pygame.Surface((width, height))
    canvas.fill((12, 14, 24))
    top1, top2 = 40, 40 + chart_h + 56
    chart(canvas, top1, "jump held, from a full run (tiles)", [r[2] for r in results])
    chart(canvas, top2, "jump tapped, from a full run (tiles)", [r[3] for r in results])
    lx = MARGIN + VIEW_W * SCALE + 24
    ly = top1
    canvas.blit(FONT.render("feel file", (255, 196, 92), 2), (lx, ly - 16))
    for (name, feel, held, tapped), color in zip(results, COLORS, strict=False):
        apex = max(y for _x, y in held)
        dist = held[-1][0]
        tap_apex = max(y for _x, y in tapped)
        air = (len(held) - 1) / feel.physics.hz
        canvas.fill(color, (lx, ly + 4, 20, 3))
        canvas.blit(FONT.render(name, color, 2), (lx + 28, ly))
        for j, line in enumerate((f"held: {apex:.0f} px high, {dist:.0f} px far",
                                  f"air time {air:.2f} s",
                                  f"tapped: {tap_apex:.0f} px high")):
            canvas.blit(FONT.render(line, (190, 196, 214), 2), (lx + 28, ly + 16 + j * 14))
        ly += 70
    canvas.blit(FONT.render("dots every 5 steps (1/12 s)", (130, 140, 170), 2), (lx, top2 + chart_h - 10))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(canvas, str(args.out))
    print(f"wrote {args.out}")
    if args.panel_shot:
        panel_shot(args.panel_shot, ROOT / "feel.toml")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
