"""``python -m game check``: can every level still be finished under a feel file, and where not?

    python -m game check [LEVEL ...] [--feel FILE] [--budget STATES] [--coins] [--routes DIR] [--fresh]
                         [--jobs N] [--time-cap SECONDS] [--json]

For each level (default: every map in ``levels/``, or ``$TILEFEEL_LEVELS_DIR``) three outcomes:

- **finished**: a route to the goal, replayed from a fresh start before it is reported;
- **impossible**: every state the search can reach under its moves was explored, and none is the goal;
- **unknown**: the budget (a number of states, the same on every machine) ran out first, or the safety
  cap on time did (said so).

The level's known routes are tried first, one simulation each: its route in ``--routes DIR`` (written by an
earlier check), then its shipped replays (``levels/replays/STEM.FEEL.txt`` for a feel file of that name,
``STEM.txt``, the others); the first that completes the level is the verdict. Where they all fail, the one
that got furthest seeds a search from its last checkpoint, then the search from the start runs
(``game/guard/route.py``). ``--fresh`` skips the known routes. One process per level, on every core.

Exit code 0 when every level is finished, 1 when one is impossible, 3 when one is unknown and none is
impossible, 2 on bad input (one line). ``--routes DIR`` writes each route found as an input script with
``level`` and ``feel`` headers, so ``python -m game --headless --replay DIR/LEVEL.txt`` plays it as found.
The format of the text and the JSON is in docs/feel.md ("Checking levels after tuning").
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from engine import FeelConfig

from game.files.inputscript import DEFAULT_FEEL, ScriptError, format_script, read_script
from game.files.userfiles import CliError, FileProblem, write_atomic
from game.files.levelfile import LevelData, load_level
from .route import DEFAULT_STATES, SAFETY_SECONDS, RouteReport, find_routes
from game.rules.session import Session

__all__ = ["DEFAULT_BUDGET", "LevelCheck", "check_level", "level_paths", "route_script", "run_check", "run_lint",
           "known_routes", "exit_code", "EXIT_IMPOSSIBLE", "EXIT_UNKNOWN"]

DEFAULT_BUDGET = DEFAULT_STATES  # states of search per level
LEVELS_DIR = Path(__file__).resolve().parents[2] / "levels"
EXIT_IMPOSSIBLE = 1
EXIT_UNKNOWN = 3
MAX_KNOWN = 4  # known routes tried per level at most (each costs one simulation)


@dataclass(frozen=True)
class LevelCheck:
    """One level's verdict: the route finder's report plus what a replay of the route collected."""

    path: Path
    level: LevelData
    report: RouteReport
    route_coins: int  # coins the goal route itself collects
    route_file: Path | None = None

    @property
    def outcome(self) -> str:
        return self.report.outcome

    def as_dict(self) -> dict:
        r, ts = self.report, self.level.tile_size
        stuck = None
        if r.stuck is not None:
            s = r.stuck
            stuck = {"x": round(s.x, 1), "y": round(s.y, 1), "col": s.col, "row": s.row, "steps": s.steps}
        return {
            "level": r.level,
            "path": str(self.path),
            "outcome": r.outcome,
            "finished": r.finished,
            "source": r.source,
            "route_steps": r.route_steps if r.finished else None,
            "route_coins": self.route_coins if r.finished else None,
            "coins": len(r.coins_reached),
            "coins_total": r.coins_total,
            "coins_missed": [{"x": x, "y": y, "col": int(x // ts), "row": int(y // ts)} for x, y in r.coins_missed],
            "stuck": stuck,
            "exhausted": r.exhausted,
            "capped": r.capped,
            "budget": r.budget,
            "states": r.states,
            "steps": r.steps,
            "goal_states": r.goal_states,
            "seconds": round(r.seconds, 2),
            "goal_seconds": None if r.goal_seconds is None else round(r.goal_seconds, 2),
            "route_file": None if self.route_file is None else str(self.route_file),
        }


def level_paths(names: list[str]) -> list[Path]:
    """The maps to check: each name a .tmx file or a folder of them; none given: the game's levels."""
    if not names:
        names = [os.environ.get("TILEFEEL_LEVELS_DIR") or str(LEVELS_DIR)]
    out: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = sorted(path.glob("*.tmx"))
            if not found:
                raise CliError(f"{path}: no .tmx maps in this folder")
            out += found
        elif path.suffix.lower() != ".tmx" and path.exists():
            raise CliError(f"{path}: not a Tiled map (.tmx); give level files or a folder of them")
        else:
            out.append(path)
    return out


def known_routes(path: Path, feel_name: str | None = None, routes: Path | None = None) -> list[tuple[str, tuple]]:
    """``(name, Buttons per step)`` of the routes known for the level at ``path``, best first: its route in
    ``routes`` (an earlier check's), then its shipped replays beside it in ``replays/`` (the one named for
    the feel file's stem, the level's own, the other feels'). Unreadable files are skipped."""
    path = Path(path)
    stem = path.stem
    folder = path.parent / "replays"
    candidates: list[Path] = []
    if routes is not None:
        candidates.append(Path(routes) / f"{stem}.txt")
    feel_stem = Path(feel_name).stem if feel_name and feel_name != DEFAULT_FEEL else None
    if feel_stem:
        candidates.append(folder / f"{stem}.{feel_stem}.txt")
    candidates.append(folder / f"{stem}.txt")
    if folder.is_dir():
        candidates += sorted(folder.glob(f"{stem}.*.txt"))
    out: list[tuple[str, tuple]] = []
    for candidate in dict.fromkeys(candidates):
        if len(out) >= MAX_KNOWN or not candidate.is_file():
            continue
        try:
            script = read_script(candidate)
        except ScriptError:
            continue
        if script.level is not None and script.level != path.name:
            continue
        out.append((str(candidate), tuple(script.steps)))
    return out


def check_level(path: Path, feel: FeelConfig, budget: int | None = DEFAULT_BUDGET, *,
                seconds: float | None = SAFETY_SECONDS, coins: bool = False, level: LevelData | None = None,
                known=()) -> LevelCheck:
    """Check one level; a route found is replayed from a fresh start and must complete it."""
    level = level or load_level(path, goal=True)
    report = find_routes(level, feel, max_states=budget, seconds=seconds, coins=coins, known=known)
    route_coins = 0
    if report.finished and report.source.startswith("known "):
        route_coins = report.route_coins  # its replay was from a fresh session: the verification itself
    elif report.finished:
        replay = Session(level, feel)
        for buttons in report.route:
            replay.step(buttons)
        if not replay.completed or replay.steps != report.route_steps:
            raise RuntimeError(f"{level.name}: the route found does not replay to the goal (the search and a fresh "
                               f"session disagree: a snapshot or determinism bug)")
        route_coins = replay.coins
    return LevelCheck(Path(path), level, report, route_coins)


def route_script(check: LevelCheck, feel_name: str, feel_path: str | Path | None = None,
                 target: Path | None = None) -> str:
    """The goal route as an input script: comment lines saying what it is, then ``level NAME.tmx`` and
    ``feel PATH`` headers (the feel file relative to ``target``'s folder, or ``default``)."""
    r = check.report
    feel = DEFAULT_FEEL
    if feel_path is not None:
        where = Path(feel_path).resolve()
        base = (Path(target).parent if target is not None else Path.cwd()).resolve()
        try:
            feel = os.path.relpath(where, base)
        except ValueError:  # another drive (Windows)
            feel = str(where)
        feel = feel.replace(os.sep, "/")
    header = (f"# {r.level}: a route to the goal found by `python -m game check` under {feel_name} ({r.source})\n"
              f"# {r.route_steps} steps, {check.route_coins} of {r.coins_total} coins on the way; replay with:\n"
              f"#   python -m game --headless --replay THIS_FILE   (or without --headless, in the window)\n")
    return header + format_script(list(r.route), level=r.level, feel=feel)


def exit_code(outcomes) -> int:
    """0 every level finished, 1 one impossible, 3 one unknown and none impossible."""
    outcomes = list(outcomes)
    if "impossible" in outcomes:
        return EXIT_IMPOSSIBLE
    if "unknown" in outcomes:
        return EXIT_UNKNOWN
    return 0


def _text_line(check: LevelCheck, width: int, hz: int) -> str:
    r, ts = check.report, check.level.tile_size
    name = r.level.ljust(width)
    coins = f"coins {len(r.coins_reached)}/{r.coins_total}"
    work = f"{r.states} states, {r.steps} steps simulated, {r.seconds:.1f} s"
    if r.finished:
        kind, _, where = r.source.partition(" ")
        how = f"by {kind} route {where}" if where else "by search"
        head = f"{name}  finished    route {r.route_steps} steps ({r.route_steps / hz:.1f} s)  {coins}  {how}; {work}"
    else:
        s = r.stuck
        where = (f"stuck at tile {s.col},{s.row} (x {s.x:.0f}, y {s.y:.0f}) after {s.steps} steps" if s else
                 "stuck at the start")
        if r.outcome == "impossible":
            why = "every reachable state explored"
        elif r.capped:
            why = f"the safety cap of {r.seconds:.0f} s stopped the search first"
        else:
            why = f"the budget of {r.budget} states ran out"
        label = "IMPOSSIBLE" if r.outcome == "impossible" else "UNKNOWN   "
        head = f"{name}  {label}  {where}  {coins}  {why}; {work}"
    lines = [head]
    if r.coins_missed and (r.states or not r.finished):
        why = "out of reach" if r.exhausted else "not reached"
        spots = ", ".join(f"({x:.0f}, {y:.0f}) tile {int(x // ts)},{int(y // ts)}" for x, y in r.coins_missed[:8])
        more = f" and {len(r.coins_missed) - 8} more" if len(r.coins_missed) > 8 else ""
        lines.append(f"{' ' * width}  coins {why}: {spots}{more}")
    if check.route_file is not None:
        lines.append(f"{' ' * width}  route written to {check.route_file}")
    return "\n".join(lines)


def _one(job: tuple) -> tuple:
    """A worker: check one level; picklable arguments and results (the report and the route's coins: the
    level itself stays in the parent), so it runs in a pool process too."""
    path, feel, budget, seconds, coins, known = job
    check = check_level(path, feel, budget, seconds=seconds, coins=coins, known=known)
    return check.report, check.route_coins


def run_check(levels: list[str], feel: FeelConfig, feel_name: str, budget: int | None, routes: str | None,
              as_json: bool, out=None, *, coins: bool = False, fresh: bool = False, jobs: int | None = None,
              seconds: float | None = SAFETY_SECONDS, feel_path: str | None = None) -> int:
    """The ``check`` command; returns the exit code. Bad input raises CliError / LevelError (one line)."""
    out = out or sys.stdout
    paths = level_paths(levels)
    loaded = [(p, load_level(p, goal=True)) for p in paths]  # every map is read before any search starts
    folder = _routes_folder(routes) if routes else None
    width = max(len(level.name) for _p, level in loaded)
    if not as_json:
        print(f"checking {len(loaded)} level{'s' * (len(loaded) != 1)} under {feel_name} "
              f"(budget {budget} states each{', goal and coins' if coins else ''})", file=out, flush=True)
    work = [(p, feel, budget, seconds, coins, () if fresh else tuple(known_routes(p, feel_path, folder)))
            for p, _level in loaded]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(work)))
    results = []
    for (path, level), (report, route_coins) in zip(loaded, _map(work, jobs), strict=True):
        check = LevelCheck(path, level, report, route_coins)
        if folder is not None and check.report.finished:
            target = folder / f"{check.path.stem}.txt"
            try:
                write_atomic(target, route_script(check, feel_name, feel_path, target), "route")
            except FileProblem as exc:
                raise CliError(str(exc)) from None
            check = LevelCheck(check.path, check.level, check.report, check.route_coins, target)
        results.append(check)
        if not as_json:
            print(_text_line(check, width, feel.physics.hz), file=out, flush=True)
    code = exit_code(c.outcome for c in results)
    if as_json:
        print(json.dumps({"feel": feel_name, "budget": budget, "outcome": _overall(code),
                          "finished": code == 0, "levels": [c.as_dict() for c in results]}), file=out)
    else:
        n = len(results)
        counts = {o: sum(c.outcome == o for c in results) for o in ("finished", "impossible", "unknown")}
        if counts["finished"] == n:
            print(f"all {n} level{'s' * (n != 1)} finished", file=out)
        else:
            rest = ", ".join(f"{counts[o]} {o}" for o in ("impossible", "unknown") if counts[o])
            print(f"{counts['finished']} of {n} level{'s' * (n != 1)} finished; {rest}", file=out)
    return code


def run_lint(levels: list[str], out=None) -> int:
    """``check --lint``: every problem of every map (one line each, ``error:`` or ``warning:``); exit 2 if any
    error, else 0."""
    from game.files.levelfile import lint_level

    out = out or sys.stdout
    paths = level_paths(levels)
    errors = 0
    for path in paths:
        if not Path(path).is_file():
            print(f"error: {path}: map file not found", file=out)
            errors += 1
            continue
        problems, warnings = lint_level(path)
        errors += len(problems)
        for line in problems:
            print(f"error: {line}", file=out)
        for line in warnings:
            print(f"warning: {line}", file=out)
    n = len(paths)
    print(f"{n} map{'s' * (n != 1)}: {errors} problem{'s' * (errors != 1)}" if errors else
          f"{n} map{'s' * (n != 1)}: no problems", file=out)
    return 2 if errors else 0


def _overall(code: int) -> str:
    return {0: "finished", EXIT_IMPOSSIBLE: "impossible", EXIT_UNKNOWN: "unknown"}[code]


def _map(work: list, jobs: int):
    """The checks in order, ``jobs`` levels at a time in worker processes (in this process for one)."""
    if jobs <= 1:
        for job in work:
            yield _one(job)
        return
    import multiprocessing

    try:
        pool = multiprocessing.get_context("spawn").Pool(jobs)
    except (OSError, ValueError, ImportError):  # no processes here: one at a time
        for job in work:
            yield _one(job)
        return
    try:
        yield from pool.imap(_one, work)
    finally:
        pool.terminate()
        pool.join()


def _routes_folder(name: str) -> Path:
    folder = Path(name)
    if folder.exists() and not folder.is_dir():
        raise CliError(f"{folder}: --routes needs a folder, and this is a file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"{folder}: cannot create the routes folder ({exc.strerror or exc})") from None
    return folder
