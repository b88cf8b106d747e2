"""Find an input script that completes a level, using the real simulation (game.session.Session).

    python tools/find_replay.py levels/01_first_steps.tmx            # writes levels/replays/01_first_steps.txt
    python tools/find_replay.py levels/01_first_steps.tmx --out -    # print the script instead

A bot walks the level's route: waypoints (tile column, row) listed with the level in tools/make_levels.py
(coins worth detouring for, then the goal). From each waypoint it runs a beam search over short
"macro-actions" a player would do -- run, stop, wait, jump with a short / medium / full hold, drop through
a plank -- scoring states by distance to the next waypoint and throwing away states that died. Session is
deterministic, so the found script replays exactly; it is checked once more from a fresh start before it
is written. The scripts look like a decent player (no frame-perfect wiggles), good enough for the title
screen's attract mode.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from engine import Buttons  # noqa: E402
from game.inputscript import format_script  # noqa: E402
from game.levelfile import load_level  # noqa: E402
from game.session import Session  # noqa: E402

B = {}


def buttons(word: str) -> Buttons:
    if word not in B:
        names = set() if word == "-" else set(word.split("+"))
        B[word] = Buttons(**{n: n in names for n in ("left", "right", "up", "down", "jump")})
    return B[word]


def macros() -> list[list[tuple[str, int]]]:
    out = []
    for d in ("right", "left"):
        out.append([(d, 2)])
        out.append([(d, 5)])
        out.append([(d, 12)])
        for hold in (4, 9, 16, 26):
            out.append([(f"{d}+jump", hold), (d, 2)])
        out.append([("-", 6), (f"{d}+jump", 26)])  # stop, then a careful jump
    out.append([("-", 5)])
    out.append([("-", 15)])
    out.append([("-", 40)])
    for hold in (9, 26):
        out.append([("jump", hold)])
    for d in ("right", "left", "-"):  # keep holding jump (no new press) through a long arc
        out.append([("hold", 0), (f"{d}+jump" if d != "-" else "jump", 8)])
    out.append([("down+jump", 2), ("-", 8)])
    out.append([("down+jump", 2), ("right", 8)])
    out.append([("down+jump", 2), ("left", 8)])
    return out


MACROS = macros()


class Node:
    __slots__ = ("s", "parent", "macro", "steps")

    def __init__(self, s, parent, macro, steps):
        self.s, self.parent, self.macro, self.steps = s, parent, macro, steps

    def script(self) -> list[Buttons]:
        chunks = []
        n = self
        while n is not None and n.macro is not None:
            chunks.append(n.macro)
            n = n.parent
        out = []
        for macro in reversed(chunks):
            for word, count in macro:
                out.extend([buttons(word)] * count)
        return out


def clone(s: Session) -> Session:
    """A copy of a live session (player alive) via World.clone()."""
    new = copy.copy(s)
    new.world = s.world.clone()
    new.player = new.world.actors[s.world.actors.index(s.player)]
    index = {id(p): i for i, p in enumerate(s.world.platforms)}
    new.platforms = {k: new.world.platforms[index[id(p)]] for k, p in s.platforms.items()}
    new.collected = set(s.collected)
    new.events = list(s.events)
    new._inside = list(s._inside)
    return new


def run(s: Session, macro) -> bool:
    """Play a macro; False if the player died. Stops early on completion."""
    deaths = s.deaths
    for word, count in macro:
        b = buttons(word)
        for _ in range(count):
            s.step(b)
            if s.deaths != deaths:
                return False
            if s.completed:
                return True
    return True


def centre(s: Session) -> tuple[float, float]:
    p = s.player
    return p.x + p.w / 2, p.y + p.h / 2


def dist(s: Session, target) -> float:
    cx, cy = centre(s)
    dx, dy = target[0] - cx, target[1] - cy
    # below the target is worse than above it: falling is easy, climbing is not
    return math.hypot(dx, dy * (4.0 if dy < 0 else 1.3))


ROLLOUTS = ([("right", 45)], [("left", 45)], [("-", 45)], [("right+jump", 20), ("right", 25)],
            [("left+jump", 20), ("left", 25)])


def viable(s: Session, toward: float | None = None) -> bool:
    """Whether the player can still land somewhere safe (a waypoint in mid-air can be a trap), moving
    toward x = ``toward`` (the next waypoint) if given."""
    if s.completed or s.player.on_ground:
        return True
    side = None if toward is None else ("right" if toward > centre(s)[0] else "left")
    for r in ROLLOUTS:
        if side and r[0][0].startswith("left" if side == "right" else "right"):
            continue
        c = clone(s)
        if run(c, r) and (c.player.on_ground or c.completed):
            return True
    return False


def search(starts: list[Node], target, reached, beam: int, depth: int, verbose: bool,
           toward: float | None = None) -> list[Node]:
    """Nodes that reached the target (fewest steps first), from the first depth where any did."""
    frontier = list(starts)
    seen = set()
    best_d = float("inf")
    for level in range(depth):
        children = []
        for node in frontier:
            for k, m in enumerate(MACROS):
                if m[0][0] == "hold":
                    if not (node.macro and node.macro[-1][0].endswith("jump")):
                        continue
                    m = m[1:]
                elif node.macro and node.macro[-1][0].endswith("jump") and m[0][0].endswith("jump"):
                    # a held jump must be released before the next press
                    m = [(m[0][0].replace("+jump", "").replace("jump", "-") or "-", 1)] + m
                s = clone(node.s) if k < len(MACROS) - 1 else node.s
                if not run(s, m):
                    continue
                child = Node(s, node, m, node.steps + sum(c for _, c in m))
                if reached(s):
                    if viable(s, toward):
                        children.append((-1.0, child))
                    continue
                p = s.player
                key = (round(p.x / 3), round(p.y / 3), round(p.vx / 40), round(p.vy / 60), p.on_ground,
                       len(s.collected), *(round(q.x / 4) + 1000 * round(q.y / 4) for q in s.platforms.values()))
                if key in seen:
                    continue
                seen.add(key)
                # airborne states look closer than they are (a jump in place rises toward the target):
                # score them a little worse than standing ones, so the beam does not fill with hops
                d = dist(s, target) - 6 * len(s.collected) + (0 if p.on_ground else 40)
                children.append((d, child))
        for node in frontier:
            node.s = None  # expanded: free the session
        done = [c for d, c in children if d == -1.0]
        if done:
            done.sort(key=lambda c: (c.steps, not c.s.player.on_ground))
            return done[:beam]
        if not children:
            return []
        children.sort(key=lambda dc: (dc[0], dc[1].steps))
        frontier = []
        for _, c in children:  # the best few that can still land somewhere (mid-air states may be doomed)
            if viable(c.s):
                frontier.append(c)
                if len(frontier) >= beam:
                    break
        if not frontier:
            return []
        best_d = min(best_d, children[0][0])
        if verbose and level % 5 == 4:
            print(f"    depth {level + 1}: best distance {children[0][0]:.0f}", file=sys.stderr)
    return []


def find(level_path: Path, route: list[tuple[float, float]], beam: int, depth: int, verbose: bool):
    level = load_level(level_path)
    ts = level.tile_size
    nodes = [Node(Session(level), None, None, 0)]
    goal = level.goals[0]
    waypoints = [((c + 0.5) * ts, (r + 0.5) * ts) for c, r in route]
    waypoints.append((goal.x + goal.w / 2, goal.y + goal.h / 2))
    for i, wp in enumerate(waypoints):
        last = i == len(waypoints) - 1

        def reached(s, wp=wp, last=last):
            if last:
                return s.completed
            p = s.player  # touches a coin-sized box on the waypoint
            return (p.x < wp[0] + 6 and wp[0] - 6 < p.x + p.w and p.y < wp[1] + 6 and wp[1] - 6 < p.y + p.h)

        if verbose:
            print(f"  waypoint {i + 1}/{len(waypoints)} at tile {wp[0] / ts - 0.5:.0f},{wp[1] / ts - 0.5:.0f}",
                  file=sys.stderr)
        toward = waypoints[i + 1][0] if not last else None
        found = search(nodes, wp, reached, beam, depth, verbose, toward)
        if not found:
            raise SystemExit(f"{level_path}: stuck before waypoint {i + 1} (tile {wp[0] / ts - 0.5:.0f},"
                             f"{wp[1] / ts - 0.5:.0f})")
        nodes = found[: max(4, beam // 3)]
    steps = nodes[0].script()
    # check from a fresh start
    s = Session(load_level(level_path))
    for b in steps:
        s.step(b)
        if s.completed:
            break
    if not s.completed:
        raise SystemExit(f"{level_path}: the found script does not replay (non-deterministic session?)")
    return steps[: s.steps], s


def main(argv=None) -> int:
    import make_levels

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("levels", nargs="+", type=Path)
    ap.add_argument("--out", default=None, help="output file, '-' for stdout (default levels/replays/STEM.txt)")
    ap.add_argument("--beam", type=int, default=12)
    ap.add_argument("--depth", type=int, default=60)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    routes = {lv.file: lv.route for lv in make_levels.levels()}
    for path in args.levels:
        route = routes.get(path.name, [])
        steps, s = find(path, route, args.beam, args.depth, args.verbose)
        text = (f"# {path.name}: found by tools/find_replay.py; {s.steps} steps, {s.coins} coins, "
                f"{s.deaths} deaths\n") + format_script(steps, level=path.name)
        if args.out == "-":
            sys.stdout.write(text)
        else:
            out = Path(args.out) if args.out else path.parent / "replays" / f"{path.stem}.txt"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text)
            print(f"{out}: {s.steps} steps, {s.coins}/{len(s.level.coins)} coins, {s.deaths} deaths")
    return 0


if __name__ == "__main__":
    sys.exit(main())
