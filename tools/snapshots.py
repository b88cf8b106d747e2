#!/usr/bin/env python3
"""Save what the game shows at chosen moments of a level's replay, without a display (SDL's dummy drivers).

    python tools/snapshots.py levels/01_first_steps.tmx --at 2 5.5 9 --out shots
    python tools/snapshots.py levels/08_crumbling_heights.tmx --at 20 --scale 2 --out docs/img --name world_tower

Plays ``levels/replays/<level>.txt`` (or ``--replay FILE``) in the real App at 60 frames a second and writes
the 480x270 canvas (times ``--scale``) as ``<name>_<seconds>.png`` (``<name>.png`` for one moment).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("level", type=Path)
    ap.add_argument("--at", type=float, nargs="+", required=True, help="seconds into the replay")
    ap.add_argument("--replay", type=Path, help="input script (default: the level's default replay)")
    ap.add_argument("--out", type=Path, default=Path("shots"))
    ap.add_argument("--name", help="file name stem (default: the level's)")
    ap.add_argument("--scale", type=int, default=1)
    args = ap.parse_args(argv)
    if not args.level.exists():
        print(f"{args.level}: no such level", file=sys.stderr)
        return 2
    replay = args.replay or ROOT / "levels" / "replays" / f"{args.level.stem}.txt"
    if not replay.exists():
        print(f"{replay}: no such replay", file=sys.stderr)
        return 2
    import pygame

    from game.cli import build_parser
    from game.files.userfiles import atomic_output
    from game.window.app import App

    app = App(build_parser().parse_args(["--level", str(args.level), "--replay", str(replay)]))
    if app.start() is not None:
        print("the game did not start its play scene", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.name or args.level.stem
    frame, dt = 0, 1.0 / 60.0
    for at in sorted(args.at):
        while frame * dt < at:
            app.work(dt)
            frame += 1
        img = app.screen.canvas
        if args.scale > 1:
            img = pygame.transform.scale_by(img, args.scale)
        path = args.out / (f"{stem}.png" if len(args.at) == 1 else f"{stem}_{at:g}.png")
        with atomic_output(path, "screenshot", binary=True) as f:
            pygame.image.save(img, f, path.name)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
