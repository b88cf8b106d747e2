"""``python -m game check``: can every level still be finished under a feel file, and where not?

    python -m game check [LEVEL ...] [--feel FILE ...] [--budget STATES] [--coins] [--routes DIR] [--fresh]
                         [--jobs N] [--time-cap SECONDS] [--difficulty] [--plot FILE.png] [--json]

For each level (default: every map the level list shows from ``levels/``, or ``$TILEFEEL_LEVELS_DIR``; a
folder given: the same maps from it) three outcomes:

- **finished**: a route to the goal, replayed from a fresh start before it is reported;
- **impossible**: every state the search can reach under its moves was explored, and none is the goal;
- **unknown**: the budget (a number of states, the same on every machine) ran out first, or the safety
  cap on time did (said so).

The level's known routes are tried first, one simulation each: its route in ``--routes DIR`` (written by an
earlier check), then its shipped replays (``levels/replays/STEM.FEEL.txt`` for a feel file of that name,
``STEM.txt``, the others); the first that completes the level is the verdict. Where they all fail, the one
that got furthest seeds a search from its last checkpoint, then the search from the start runs
(``game/guard/route.py``). ``--fresh`` skips the known routes. One process per level, on every core.

A level not finished says why (``why.py``: the nearest unreached surface and what the feel lacks); with
``--difficulty`` each route found is timed (``difficulty.py``) and ``--plot`` draws the curve (``plot.py``),
one line per ``--feel``. Each worker loads its own map (one map in memory per worker); a map that cannot be
loaded is its own ``error:`` line and exit code 2, the others still checked.

Exit code 0 when every level is finished, 1 when one is impossible, 3 when one is unknown and none is
impossible, 2 on bad input (one line). ``--routes DIR`` writes each route found as an input script with
``level`` and ``feel`` headers, so ``python -m game --headless --replay DIR/LEVEL.txt`` plays it as found.
The format of the text and the JSON is in docs/feel.md ("Checking levels after tuning").
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from engine import FeelConfig

from game.files.catalog import MAP_SUFFIXES, level_files
from game.files.inputscript import DEFAULT_FEEL, ScriptError, format_script, read_script
from game.files.userfiles import CliError, FileProblem, write_atomic
from game.files.levelfile import LevelData, load_level
from .difficulty import FALL_TOLERANCE, Difficulty, curve_falls, measure
from .route import DEFAULT_STATES, SAFETY_SECONDS, RouteReport, find_routes
from .why import Why, explain
from game.rules.moves import level_feel
from game.rules.session import Session

__all__ = ["DEFAULT_BUDGET", "LevelCheck", "FeelRun", "check_level", "level_paths", "route_script", "run_check",
           "run_lint", "known_routes", "exit_code", "difficulty_line", "curve_line", "EXIT_IMPOSSIBLE", "EXIT_UNKNOWN"]

DEFAULT_BUDGET = DEFAULT_STATES  # states of search per level
LEVELS_DIR = Path(__file__).resolve().parents[2] / "levels"
EXIT_IMPOSSIBLE = 1
EXIT_UNKNOWN = 3
MAX_KNOWN = 4  # known routes tried per level at most (each costs one simulation)


@dataclass(frozen=True)
class LevelCheck:
    """One level's verdict: the route finder's report plus what a replay of the route collected."""

    path: Path
    level: LevelData | None  # None in the parent of a worker that checked it (the map stays in the worker)
    report: RouteReport
    route_coins: int  # coins the goal route itself collects
    route_file: Path | None = None
    why: Why | None = None  # not finished: the obstacle (game/guard/why.py)
    difficulty: Difficulty | None = None  # finished, with difficulty=True: the route's timing (difficulty.py)
    tile_size: int = 16  # px, the map's (kept for the text and JSON when ``level`` is not)

    @property
    def outcome(self) -> str:
        return self.report.outcome

    def _replace_route_file(self, target: Path) -> LevelCheck:
        return replace(self, route_file=target)

    def as_dict(self) -> dict:
        r, ts = self.report, self.tile_size
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
            "why": None if self.why is None else self.why.as_dict(),
            "difficulty": None if self.difficulty is None else self.difficulty.as_dict(),
        }


def level_paths(names: list[str]) -> list[Path]:
    """The maps to check: each name a map file (``.tmx``, ``.tmj``, ``.json``) or a folder, whose maps are
    the ones the level list shows (``catalog.level_files``); none given: the game's levels."""
    if not names:
        names = [os.environ.get("TILEFEEL_LEVELS_DIR") or str(LEVELS_DIR)]
    out: list[Path] = []
    suffixes = "/".join(MAP_SUFFIXES)
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = level_files(path)
            if not found:
                raise CliError(f"{path}: no maps ({suffixes}) in this folder")
            out += found
        elif path.suffix.lower() not in MAP_SUFFIXES and path.exists():
            raise CliError(f"{path}: not a Tiled map ({suffixes}); give level files or a folder of them")
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
                known=(), difficulty: bool = False, stop=None) -> LevelCheck:
    """Check one level; a route found is replayed from a fresh start and must complete it. Not finished: say
    why (``why``); finished and ``difficulty``: time every input of the route (``difficulty``). ``stop``: see
    :func:`~game.guard.route.find_routes` (raises ``Cancelled``)."""
    level = level or load_level(path, goal=True)
    feel = level_feel(level, feel)  # the level's moves on: the search, the replay, why and the timing see them
    report = find_routes(level, feel, max_states=budget, seconds=seconds, coins=coins, known=known, stop=stop)
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
    why = None if report.finished else explain(level, feel, report)
    timing = measure(level, feel, report.route, stop=stop) if report.finished and difficulty else None
    return LevelCheck(Path(path), level, report, route_coins, why=why, difficulty=timing, tile_size=level.tile_size)


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
    r, ts = check.report, check.tile_size
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
    pad = " " * width
    if check.why is not None:
        lines.append(f"{pad}  why: {check.why.text}")
    if check.difficulty is not None:
        lines.append(f"{pad}  {difficulty_line(check.difficulty, hz)}")
    if r.coins_missed and (r.states or not r.finished):
        why = "out of reach" if r.exhausted else "not reached"
        spots = ", ".join(f"({x:.0f}, {y:.0f}) tile {int(x // ts)},{int(y // ts)}" for x, y in r.coins_missed[:8])
        more = f" and {len(r.coins_missed) - 8} more" if len(r.coins_missed) > 8 else ""
        lines.append(f"{pad}  coins {why}: {spots}{more}")
    if check.route_file is not None:
        lines.append(f"{pad}  route written to {check.route_file}")
    return "\n".join(lines)


def difficulty_line(d: Difficulty, hz: int) -> str:
    """``difficulty 5.1 bits (~34 attempts; hardest ...): ...`` for the text report."""
    worst = d.tightest
    tight = f"{d.tight} tight (window <= {d.tight_steps} steps)"
    line = f"difficulty {d.figure:.1f} bits (~{_attempts(d.attempts)} attempts"
    hardest = d.hardest
    if hardest is not None and hardest.inputs:
        line += (f"; hardest: section {hardest.index + 1} of {len(d.sections)}, steps {hardest.start}-"
                 f"{hardest.end - 1} ({hardest.start / hz:.1f}-{hardest.end / hz:.1f} s), {hardest.bits:.1f} bits, "
                 f"{hardest.deadly} of its {hardest.inputs} inputs deadly")
    line += f"): {d.inputs} of {len(d.moves)} timed inputs matter, {tight}"
    if worst is not None and worst.window < 2 * d.shift + 1:
        line += (f"; tightest: {worst.button} {worst.kind} at step {worst.step} (tile {worst.col},{worst.row}), "
                 f"window {worst.window} step{'s' * (worst.window != 1)} ({worst.earlier} earlier, "
                 f"{worst.later} later, of {d.shift} tried each way)")
    return line


def _attempts(n: float) -> str:
    return f"{n:.1f}" if n < 10 else f"{n:,.0f}" if n < 1e6 else f"{n:.1e}"


def _one(job: tuple) -> tuple:
    """A worker: load one map and check it; picklable arguments and results (the map itself stays in the
    worker, so memory holds one map per worker). A map that cannot be read gives ``("error", line)``."""
    path, feel, budget, seconds, coins, known, difficulty = job
    try:
        level = load_level(path, goal=True)
    except MemoryError:
        return "error", f"{path}: not enough memory to load this map"
    except Exception as exc:  # noqa: BLE001 - the loader's errors are one line naming the file
        return "error", _error_line(path, exc)
    check = check_level(path, feel, budget, seconds=seconds, coins=coins, known=known, level=level,
                        difficulty=difficulty)
    return "ok", (check.report, check.route_coins, check.why, check.difficulty, level.tile_size, level.name)


def _error_line(path, exc: BaseException) -> str:
    from game.files.userfiles import printable

    text = printable(" ".join(str(exc).split()))
    return text if str(path) in text or Path(path).name in text else f"{path}: {text}"


class FeelRun(NamedTuple):
    """One feel to check the levels under: its config, the name the report gives it and its file."""

    feel: FeelConfig
    name: str  # "the default feel" or the path given
    path: str | None  # the feel file (None: the defaults)


def run_check(levels: list[str], feel: FeelConfig, feel_name: str, budget: int | None, routes: str | None,
              as_json: bool, out=None, *, coins: bool = False, fresh: bool = False, jobs: int | None = None,
              seconds: float | None = SAFETY_SECONDS, feel_path: str | None = None, difficulty: bool = False,
              plot: str | None = None, more_feels: list[FeelRun] = (), err=None) -> int:
    """The ``check`` command; returns the exit code. Bad input raises CliError / LevelError (one line); a map
    that cannot be loaded is one ``error:`` line on ``err`` (the others are still checked) and exit code 2.
    ``more_feels``: check again under each (text: one block per feel; JSON: ``{"feels": [...]}``)."""
    out = out or sys.stdout
    err = err or sys.stderr
    paths = level_paths(levels)
    folder = _routes_folder(routes) if routes else None
    runs = [FeelRun(feel, feel_name, feel_path), *more_feels]
    if plot is not None:
        _plot_target(plot)
    blocks, codes, curves = [], [], []
    for run in runs:
        code, block, curve = _check_feel(paths, run, budget, folder, as_json, out, err, coins=coins, fresh=fresh,
                                         jobs=jobs, seconds=seconds, difficulty=difficulty or plot is not None,
                                         many=len(runs) > 1)
        codes.append(code)
        blocks.append(block)
        curves.append(curve)
    code = 2 if 2 in codes else exit_code(_overall(c) for c in codes)
    if as_json:
        if len(runs) == 1:
            print(json.dumps(blocks[0]), file=out)
        else:
            print(json.dumps({"outcome": _overall(code) if code != 2 else "error", "finished": code == 0,
                              "feels": blocks}), file=out)
    if plot is not None:
        names = [Path(p).stem.split("_")[0] for p in paths]
        series = [(_short_feel(run), curve) for run, curve in zip(runs, curves, strict=True)]
        from .plot import curve_png

        try:
            write_atomic(plot, curve_png(names, series), "plot")
        except FileProblem as exc:
            raise CliError(str(exc)) from None
        if not as_json:
            print(f"difficulty curve drawn to {plot}", file=out)
    return code


def _short_feel(run: FeelRun) -> str:
    return "default" if run.path is None else Path(run.path).stem


def _plot_target(plot: str) -> None:
    if Path(plot).suffix.lower() != ".png":
        raise CliError(f"{plot}: --plot writes a PNG picture; give a file name ending in .png")
    if Path(plot).is_dir():
        raise CliError(f"{plot}: --plot needs a file name, and this is a folder")
    if not Path(plot).resolve().parent.is_dir():
        raise CliError(f"{plot}: the folder for the plot does not exist")


def _check_feel(paths, run: FeelRun, budget, folder, as_json, out, err, *, coins, fresh, jobs, seconds, difficulty,
                many) -> tuple[int, dict, list]:
    """Every level under one feel: prints the text lines as they come; returns (exit code, the JSON object,
    the difficulty figure per level, None where there is none)."""
    feel, feel_name, feel_path = run
    width = max(len(Path(p).name) for p in paths)
    if not as_json:
        print(f"checking {len(paths)} level{'s' * (len(paths) != 1)} under {feel_name} "
              f"(budget {budget} states each{', goal and coins' if coins else ''}"
              f"{', difficulty' if difficulty else ''})", file=out, flush=True)
    work = [(p, feel, budget, seconds, coins, () if fresh else tuple(known_routes(p, feel_path, folder)), difficulty)
            for p in paths]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(work)))
    results: list[LevelCheck] = []
    errors: list[tuple[Path, str]] = []
    entries: list[dict] = []
    curve: list = []
    for path, (kind, value) in zip(paths, _map(work, jobs), strict=True):
        if kind == "error":
            errors.append((path, value))
            print(f"error: {value}", file=err, flush=True)
            entries.append({"level": Path(path).name, "path": str(path), "outcome": "error", "finished": False,
                            "error": value})
            curve.append(None)
            continue
        report, route_coins, why, timing, tile_size, _name = value
        check = LevelCheck(Path(path), None, report, route_coins, why=why, difficulty=timing, tile_size=tile_size)
        if folder is not None and check.report.finished:
            target = folder / f"{check.path.stem}.txt"
            try:
                write_atomic(target, route_script(check, feel_name, feel_path, target), "route")
            except FileProblem as exc:
                raise CliError(str(exc)) from None
            check = check._replace_route_file(target)
        results.append(check)
        entries.append(check.as_dict())
        curve.append(None if timing is None else round(timing.figure, 2))
        if not as_json:
            print(_text_line(check, width, feel.physics.hz), file=out, flush=True)
    code = 2 if errors else exit_code(c.outcome for c in results)
    block = {"feel": feel_name, "budget": budget, "outcome": "error" if errors else _overall(code),
             "finished": code == 0, "levels": entries}
    if difficulty:
        block["curve"] = curve
    if not as_json:
        n = len(paths)
        counts = {o: sum(c.outcome == o for c in results) for o in ("finished", "impossible", "unknown")}
        counts["not loaded"] = len(errors)
        if counts["finished"] == n:
            print(f"all {n} level{'s' * (n != 1)} finished", file=out)
        else:
            rest = ", ".join(f"{counts[o]} {o}" for o in ("impossible", "unknown", "not loaded") if counts[o])
            print(f"{counts['finished']} of {n} level{'s' * (n != 1)} finished; {rest}", file=out)
        if difficulty:
            print(curve_line(paths, curve), file=out)
        if many:
            print(file=out)
    return code, block, curve


def curve_line(paths, curve: list) -> str:
    """``difficulty curve (bits): 01 12.3, 02 15.0, ...; largest fall ...`` for the text report; the falls of
    more than FALL_TOLERANCE bits are named."""
    names = [Path(p).stem.split("_")[0] for p in paths]
    parts = ", ".join(f"{n} {'-' if v is None else f'{v:.1f}'}" for n, v in zip(names, curve, strict=True))
    falls = [(curve[i] - curve[i + 1], i) for i in range(len(curve) - 1)
             if curve[i] is not None and curve[i + 1] is not None and curve[i + 1] < curve[i]]
    if not falls:
        return f"difficulty curve (bits): {parts}; it never falls"
    fall, i = max(falls)
    line = f"difficulty curve (bits): {parts}; largest fall {fall:.1f} bits from {names[i]} to {names[i + 1]}"
    steep = curve_falls(curve)
    if steep:
        line += (f"; falls of more than {FALL_TOLERANCE:g} bits: " +
                 ", ".join(f"{names[j]} to {names[j + 1]} ({b:.1f})" for j, b in steep))
    else:
        line += f" (within the {FALL_TOLERANCE:g}-bit tolerance)"
    return line


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
    return {0: "finished", EXIT_IMPOSSIBLE: "impossible", EXIT_UNKNOWN: "unknown", 2: "error"}[code]


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
