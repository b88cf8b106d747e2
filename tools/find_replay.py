"""Find an input script that completes a level through its coins, for the shipped replays and the title's
attract mode.

    python tools/find_replay.py levels/01_first_steps.tmx            # writes levels/replays/01_first_steps.txt
    python tools/find_replay.py levels/*.tmx --feel presets/tight.toml
    python tools/find_replay.py levels/*.tmx --presets                # a replay per preset where needed
    python tools/find_replay.py levels/*.tmx --presets --goal-only    # ... straight to the goal (quicker)
    python tools/find_replay.py levels/01_first_steps.tmx --out -    # print the script instead
    python tools/find_replay.py levels/09_the_summit.tmx --after old.txt 318  # edited past column 318
    python tools/find_replay.py levels/08_crumbling_heights.tmx --after old.txt 100  # a tall level: above row 100

A thin wrapper over the route finder (``game.guard.route``, the search behind ``python -m game check``). The
route passes waypoints in order, then reaches the goal: the ones listed with the level in
tools/level_maps.py (``route``, or ``routes[PRESET]`` for a preset), else one per coin in the order the
player meets them (one taken on the way to another is passed) (hidden coins left for the player to find). A waypoint no route reaches within
``--leg`` seconds is skipped. The script is replayed from a fresh start before it is written.

Replays are named ``levels/replays/STEM.txt`` (the default feel) and ``levels/replays/STEM.PRESET.txt``
(``presets/PRESET.toml``). With ``--presets``, each preset first tries the level's default replay; only a
level that replay cannot complete under the preset gets its own (and a preset replay no longer needed is
removed), so the shipped replays are: one per level, plus one per preset where one does not fit all.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from engine import FeelConfig  # noqa: E402
from game.files.feelfile import load_feel  # noqa: E402
from game.files.inputscript import ScriptError, format_script, parse_script, read_script  # noqa: E402
from game.files.userfiles import write_atomic  # noqa: E402
from game.files.levelfile import LevelData, load_level  # noqa: E402
from game.guard.route import Search  # noqa: E402
from game.rules.session import Session  # noqa: E402

FOOTHOLD_EVERY = 1.0  # s of play between two waypoints that --follow takes from a script
STAND = "stand"  # a waypoint's fifth item: reached only standing in it (a coin's is its id)
REACH = 6.0  # px: a listed waypoint counts as passed when the player touches a box this far around the tile's centre
PRESETS = ROOT / "presets"


def replay_path(level: Path, preset: str | None = None) -> Path:
    """Where a level's replay lives: STEM.txt, or STEM.PRESET.txt for a preset."""
    return level.parent / "replays" / (f"{level.stem}.{preset}.txt" if preset else f"{level.stem}.txt")


def tall(level: LevelData) -> bool:
    """A climb: a level taller than wide, whose way on is up (rows), not right (columns)."""
    return level.rows > level.cols


def coin_waypoints(level: LevelData) -> list[tuple[float, float, float, float, int]]:
    """One box per coin (not the hidden ones), with the coin's id, in the order the player meets them."""
    coins = [c for c in level.coins if c.name != "hidden"]
    coins.sort(key=(lambda c: (-c.y, c.x)) if tall(level) else (lambda c: (c.x, c.y)))
    return [(c.x, c.y, c.w, c.h, c.id) for c in coins]


def tour(level: LevelData, feel: FeelConfig, boxes: list, leg: float, goal: float, tries: int = 3,
         prefix: tuple = (), progress=None) -> tuple | None:
    """Buttons per step through as many of ``boxes`` (x, y, w, h[, coin id or STAND]; in order) as legs of ``leg``
    seconds reach -- a coin already taken on the way is passed -- then to the goal (``goal`` seconds).

    A waypoint touched in mid-air can be a trap (every way on dies or ends boxed in), so each leg keeps up
    to ``tries`` states that touched its waypoint. A state from which a search explores everything without
    reaching the next waypoint is a dead end and is dropped; when all of a waypoint's states are, the route
    backs up to the waypoint before (the dead one is skipped). ``progress(line)`` hears of each waypoint."""
    session = Session(level, feel)
    for b in prefix:  # the kept beginning: the search goes on from where it leaves the player
        session.step(b)
    # per waypoint reached: [(node, its snapshot)] -- the states it left the player in; first: the start
    stack = [[(None, session.snapshot())]]

    def search_from(start):
        node, snap = start
        if node is not None:
            node.snap = snap  # a search frees the snapshots of the states it expands
        else:
            session.restore(snap)  # (a search without a node starts from the session as it is)
        return Search(level, feel, start=node, session=session)

    def run_leg(box, budget):
        """The states that touched ``box`` (none: could not), dropping dead ends from the current set."""
        for start in list(stack[-1]):
            search = search_from(start)
            search.aim(tuple(box[:4]), standing=len(box) > 4 and box[4] == STAND)
            deadline = time.perf_counter() + budget
            out = search.run(lambda s=search: bool(s.touched), deadline, None)
            if out == "done":
                search.run(lambda s=search: len(s.touched) >= tries, min(deadline, time.perf_counter() + 1.0), None)
                return [(n, n.snap) for n in search.touched[:tries]]
            if out == "exhausted":
                stack[-1].remove(start)
        return []

    i = 0
    while i < len(boxes):
        box = boxes[i]
        session.restore(stack[-1][0][1])
        if len(box) > 4 and box[4] in session.collected:
            i += 1
            continue
        found = run_leg(box, leg)
        if progress is not None:
            ts = level.tile_size
            where = f"tile ({(box[0] + box[2] / 2) / ts:.1f}, {(box[1] + box[3]) / ts:.1f})"
            if found:
                session.restore(found[0][1])
                where += f", at {session.time:.1f} s of play"
            progress(f"waypoint {i + 1} of {len(boxes)}, {where}: {'reached' if found else 'skipped'}")
        if found:
            stack.append(found)
        elif not stack[-1]:
            if len(stack) == 1:
                return None  # the start itself leads nowhere
            stack.pop()  # every state the last waypoint left is a dead end: try this one from the one before
            continue
        i += 1
    while stack:
        for start in stack.pop():
            search = search_from(start)
            search.run(lambda s=search: s.goal_node is not None, time.perf_counter() + goal, None)
            if search.goal_node is not None:
                return tuple(prefix) + search.goal_node.route()
    return None


def completes(level: LevelData, feel: FeelConfig, steps) -> Session:
    s = Session(level, feel)
    for b in steps:
        if s.completed:
            break
        s.step(b)
    return s


def bad_input(message: str) -> SystemExit:
    """A one-line error on stderr and exit code 2 (raise what this returns)."""
    print(f"find_replay: {message}", file=sys.stderr)
    return SystemExit(2)


def script_steps(script: Path) -> tuple:
    """The buttons per step of an input script; a bad or missing one is a one-line error, exit code 2."""
    try:
        return read_script(script).steps
    except ScriptError as exc:
        raise bad_input(str(exc)) from None


def past(level: LevelData, x: float, y: float, tile: int) -> bool:
    """Whether a point is past tile ``tile`` on the level's way on: right of that column, or in a level
    taller than wide (a climb) above that row."""
    ts = level.tile_size
    return y < tile * ts if tall(level) else x > (tile + 1) * ts


def kept_prefix(level: LevelData, feel: FeelConfig, after: tuple[Path, int]) -> tuple:
    """The steps of script ``after[0]`` up to the first where the player stands past tile ``after[1]`` (a
    column; in a tall level a row, see :func:`past`), for a level edited only beyond it: its beginning, and
    so the script's, are unchanged."""
    script, col = after
    steps = script_steps(script)
    s, out = Session(level, feel), []
    for b in steps:
        s.step(b)
        out.append(b)
        p = s.player
        if p.on_ground and past(level, p.x, p.y + p.h, col) and not s.completed:
            return tuple(out)
    what = "row" if tall(level) else "column"
    raise bad_input(f"{script}: the player never stands past {what} {col} before the goal")


def footholds(level: LevelData, script: Path, every: float = FOOTHOLD_EVERY) -> list[tuple]:
    """Where ``script`` (played under the default feel) has the player stand, or hold to a wall (in the air
    within reach of one): a box around the player at the first such step after each ``every`` seconds of
    play, up to the goal; a standing one is reached only standing in it (fifth item ``STAND``), and none
    is on crumbling ground (a preset's player left standing there falls with it). Waypoints for a preset
    whose feel needs other inputs along the same way (a tall level's search from scratch can run for an
    hour)."""
    steps = script_steps(script)
    s, out, due = Session(level, FeelConfig()), [], every
    crumbles = level.crumbles
    for b in steps:
        s.step(b)
        if s.completed:
            return out
        p = s.player
        if (p.on_ground or p.wall_steps == 0) and not s.dead and s.time >= due:
            if p.on_ground and any(c.y == p.y + p.h and c.x < p.x + p.w and p.x < c.x + c.w for c in crumbles):
                continue  # it falls from under a state left standing there: a trap for the next leg
            out.append((p.x - REACH, p.y, p.w + 2 * REACH, p.h, STAND if p.on_ground else None))
            due = s.time + every
    raise bad_input(f"{script}: the player never reaches the goal under the default feel")


def find(path: Path, level: LevelData, feel: FeelConfig, preset: str | None, args) -> tuple[str, Session]:
    import make_levels

    spec = {lv.file: lv for lv in make_levels.levels()}.get(path.name)
    listed = (spec.routes.get(preset) or spec.route) if spec else []
    ts = level.tile_size
    prefix = kept_prefix(level, feel, args.after) if args.after else ()
    by_coin = coin_waypoints(level)
    coins = {(int(b[0] // ts), int(b[1] // ts)): b for b in by_coin}
    # a listed waypoint on a coin's tile is that coin: taken on the way to another, it is passed
    boxes = (footholds(level, args.follow) if args.follow else [] if args.goal_only else
             [coins.get((c, r)) or ((c + 0.5) * ts - REACH, (r + 0.5) * ts - REACH, 2 * REACH, 2 * REACH)
              for c, r in listed]
             if listed else by_coin)
    if prefix:  # only the waypoints past where the kept beginning ends
        edge = args.after[1] * ts
        boxes = [b for b in boxes if (b[1] + b[3] <= edge if tall(level) else b[0] >= edge + ts)]
    steps = tour(level, feel, boxes, args.leg, args.budget, prefix=prefix,
                 progress=lambda line: print(f"{path.name}: {line}", file=sys.stderr, flush=True))
    if steps is None:
        raise SystemExit(f"{path}: no route to the goal within {args.budget:g} s")
    s = completes(level, feel, steps)
    if not s.completed:
        raise SystemExit(f"{path}: the found script does not replay (non-deterministic session?)")
    how = f"the {preset} preset" if preset else "the default feel"
    text = (f"# {path.name} under {how}: found by tools/find_replay.py; {s.steps} steps ({s.time:.1f} s), "
            f"{s.coins} of {len(level.coins)} coins, {s.deaths} deaths\n") + format_script(list(steps), level=path.name)
    return text, s


def write(out: Path | str | None, path: Path, preset: str | None, text: str, s: Session, level: LevelData) -> None:
    if out == "-":
        sys.stdout.write(text)
        return
    dest = Path(out) if out else replay_path(path, preset)
    dest.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(dest, text, "replay")  # whole or nothing, never through a symlink
    print(f"{dest}: {s.steps} steps ({s.time:.1f} s), {s.coins}/{len(level.coins)} coins, {s.deaths} deaths")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("levels", nargs="+", type=Path)
    ap.add_argument("--out", default=None, help="output file, '-' for stdout (default levels/replays/STEM[.PRESET].txt)")
    ap.add_argument("--feel", type=Path, default=None, help="a preset (presets/NAME.toml) or feel file")
    ap.add_argument("--presets", action="store_true", help="check every preset in presets/ against each "
                    "level's replay; write a preset's own replay only where that one fails")
    ap.add_argument("--budget", type=float, default=120.0, help="seconds of search for the leg to the goal")
    ap.add_argument("--leg", type=float, default=20.0, help="seconds of search per waypoint before skipping it")
    ap.add_argument("--goal-only", action="store_true", help="no waypoints: the quickest route to the goal "
                    "(a preset's own replay only has to finish the level)")
    ap.add_argument("--after", nargs=2, metavar=("SCRIPT", "COLUMN"), default=None,
                    help="keep SCRIPT up to where the player first stands past tile COLUMN (in a level taller "
                    "than wide: above tile row COLUMN) and search on from there (the level was edited only "
                    "beyond it)")
    ap.add_argument("--follow", type=Path, default=None, metavar="SCRIPT",
                    help="waypoints where SCRIPT (the default replay, say) has the player stand, every "
                    f"{FOOTHOLD_EVERY:g} s of its play: a preset's replay along the same way")
    args = ap.parse_args(argv)
    if args.after:
        script, column = args.after
        if not column.isdigit():
            raise bad_input(f"--after {script} {column}: the column must be a whole number of tiles, 0 or more")
        args.after = (Path(script), int(column))
    if args.follow and args.goal_only:
        raise bad_input("--follow gives the waypoints itself: it cannot go with --goal-only")
    for path in args.levels:
        level = load_level(path)
        if not args.presets:
            preset = args.feel.stem if args.feel and args.feel.parent.resolve() == PRESETS.resolve() else None
            feel = load_feel(args.feel) if args.feel else FeelConfig()
            text, s = find(path, level, feel, preset, args)
            write(args.out, path, preset, text, s, level)
            continue
        default = parse_script(replay_path(path).read_text(), str(replay_path(path)))
        for toml in sorted(PRESETS.glob("*.toml")):
            feel, own = load_feel(toml), replay_path(path, toml.stem)
            if completes(level, feel, default).completed:
                if own.exists():
                    own.unlink()
                    print(f"{own}: removed (the default replay completes {path.name} under {toml.stem})")
                else:
                    print(f"{path.name} under {toml.stem}: the default replay completes it")
                continue
            if own.exists() and completes(level, feel, parse_script(own.read_text(), str(own))).completed:
                print(f"{own}: still completes the level")
                continue
            text, s = find(path, level, feel, toml.stem, args)
            write(None, path, toml.stem, text, s, level)
    return 0


if __name__ == "__main__":
    sys.exit(main())
