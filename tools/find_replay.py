"""Find an input script that completes a level through its coin route, for the title's attract mode.

    python tools/find_replay.py levels/01_first_steps.tmx            # writes levels/replays/01_first_steps.txt
    python tools/find_replay.py levels/01_first_steps.tmx --out -    # print the script instead

A thin wrapper over the route finder (``game.route.find_tour``, the search behind ``python -m game check``):
the route passes the waypoints listed with the level in tools/make_levels.py (tile column, row: coins
worth detouring for), in order, then reaches the goal. The script is replayed from a fresh start before
it is written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from game.inputscript import format_script  # noqa: E402
from game.levelfile import load_level  # noqa: E402
from game.route import find_tour  # noqa: E402
from game.session import Session  # noqa: E402

REACH = 6.0  # px: a waypoint counts as passed when the player touches a box this far around the tile's centre


def main(argv=None) -> int:
    import make_levels

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("levels", nargs="+", type=Path)
    ap.add_argument("--out", default=None, help="output file, '-' for stdout (default levels/replays/STEM.txt)")
    ap.add_argument("--budget", type=float, default=120.0, help="seconds of search per level")
    args = ap.parse_args(argv)
    routes = {lv.file: lv.route for lv in make_levels.levels()}
    for path in args.levels:
        level = load_level(path)
        ts = level.tile_size
        waypoints = [((c + 0.5) * ts - REACH, (r + 0.5) * ts - REACH, 2 * REACH, 2 * REACH)
                     for c, r in routes.get(path.name, [])]
        steps = find_tour(level, None, waypoints, seconds=args.budget)
        if steps is None:
            raise SystemExit(f"{path}: no route through the waypoints to the goal within {args.budget:g} s")
        s = Session(level)
        for b in steps:
            s.step(b)
        if not s.completed:
            raise SystemExit(f"{path}: the found script does not replay (non-deterministic session?)")
        text = (f"# {path.name}: found by tools/find_replay.py; {s.steps} steps, {s.coins} coins, "
                f"{s.deaths} deaths\n") + format_script(list(steps), level=path.name)
        if args.out == "-":
            sys.stdout.write(text)
        else:
            out = Path(args.out) if args.out else path.parent / "replays" / f"{path.stem}.txt"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text)
            print(f"{out}: {s.steps} steps, {s.coins}/{len(level.coins)} coins, {s.deaths} deaths")
    return 0


if __name__ == "__main__":
    sys.exit(main())
