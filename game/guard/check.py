"""``python -m game check``: can every level still be finished under a feel file, and where not?

    python -m game check [LEVEL ...] [--feel FILE] [--budget SECONDS] [--routes DIR] [--json]

For each level (default: every map in ``levels/``, or ``$TILEFEEL_LEVELS_DIR``) the route finder
(``game/guard/route.py``) searches the real game for a route to the goal and to every coin. One line per level:
finished or not, the route's length, coins reached (and where the others are), where the search got stuck,
and its figures. Exit code 0 when every goal was reached, 1 when one was not, 2 on bad input (one line).
Each route found is replayed from a fresh start before it is reported; ``--routes DIR`` writes it as an
input script that completes the level through ``python -m game --headless --level L --inputs R``.
The format of the text and the JSON is in docs/feel.md ("Checking levels after tuning").
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from engine import FeelConfig

from game.files.inputscript import format_script
from game.files.userfiles import CliError
from game.files.levelfile import LevelData, load_level
from .route import RouteReport, find_routes
from game.rules.session import Session

__all__ = ["DEFAULT_BUDGET", "LevelCheck", "check_level", "level_paths", "route_script", "run_check"]

DEFAULT_BUDGET = 20.0  # s of search per level
LEVELS_DIR = Path(__file__).resolve().parents[2] / "levels"


@dataclass(frozen=True)
class LevelCheck:
    """One level's verdict: the route finder's report plus what a replay of the route collected."""

    path: Path
    level: LevelData
    report: RouteReport
    route_coins: int  # coins the goal route itself collects
    route_file: Path | None = None

    def as_dict(self) -> dict:
        r, ts = self.report, self.level.tile_size
        stuck = None
        if r.stuck is not None:
            s = r.stuck
            stuck = {"x": round(s.x, 1), "y": round(s.y, 1), "col": s.col, "row": s.row, "steps": s.steps}
        return {
            "level": r.level,
            "path": str(self.path),
            "finished": r.finished,
            "route_steps": r.route_steps if r.finished else None,
            "route_coins": self.route_coins if r.finished else None,
            "coins": len(r.coins_reached),
            "coins_total": r.coins_total,
            "coins_missed": [{"x": x, "y": y, "col": int(x // ts), "row": int(y // ts)} for x, y in r.coins_missed],
            "stuck": stuck,
            "exhausted": r.exhausted,
            "states": r.states,
            "seconds": round(r.seconds, 2),
            "goal_states": r.goal_states,
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


def check_level(path: Path, feel: FeelConfig, budget: float | None = DEFAULT_BUDGET, *,
                max_states: int | None = None, coins: bool = True, level: LevelData | None = None) -> LevelCheck:
    """Search one level; the goal route (if any) is replayed from a fresh start and must complete it."""
    level = level or load_level(path)
    report = find_routes(level, feel, seconds=budget, max_states=max_states, coins=coins)
    route_coins = 0
    if report.finished:
        replay = Session(level, feel)
        for buttons in report.route:
            replay.step(buttons)
        if not replay.completed or replay.steps != report.route_steps:
            raise RuntimeError(f"{level.name}: the route found does not replay to the goal (the search and a fresh "
                               f"session disagree: a snapshot or determinism bug)")
        route_coins = replay.coins
    return LevelCheck(Path(path), level, report, route_coins)


def route_script(check: LevelCheck, feel_name: str) -> str:
    """The goal route as an input script, with a comment header saying what it is."""
    r = check.report
    header = (f"# {r.level}: a route to the goal found by `python -m game check` under {feel_name}\n"
              f"# {r.route_steps} steps, {check.route_coins} of {r.coins_total} coins on the way; replay with:\n"
              f"#   python -m game --headless --level {check.path} --inputs THIS_FILE\n")
    return header + format_script(list(r.route))


def _text_line(check: LevelCheck, width: int, hz: int) -> str:
    r, ts = check.report, check.level.tile_size
    name = r.level.ljust(width)
    coins = f"coins {len(r.coins_reached)}/{r.coins_total}"
    if r.finished:
        head = (f"{name}  finished      route {r.route_steps} steps ({r.route_steps / hz:.1f} s)  {coins}  "
                f"goal found in {r.goal_seconds:.1f} s ({r.goal_states} states); {r.seconds:.1f} s, "
                f"{r.states} states in all")
    else:
        s = r.stuck
        why = "out of reach (every reachable state explored)" if r.exhausted else "not found before the budget ran out"
        where = f"stuck at tile {s.col},{s.row} (x {s.x:.0f}, y {s.y:.0f}) after {s.steps} steps" if s else "stuck"
        head = f"{name}  NOT FINISHED  {where}  {coins}  goal {why}: {r.seconds:.1f} s, {r.states} states"
    lines = [head]
    if r.coins_missed:
        why = "out of reach" if r.exhausted else "not reached within the budget"
        spots = ", ".join(f"({x:.0f}, {y:.0f}) tile {int(x // ts)},{int(y // ts)}" for x, y in r.coins_missed[:8])
        more = f" and {len(r.coins_missed) - 8} more" if len(r.coins_missed) > 8 else ""
        lines.append(f"{' ' * width}  coins {why}: {spots}{more}")
    if check.route_file is not None:
        lines.append(f"{' ' * width}  route written to {check.route_file}")
    return "\n".join(lines)


def run_check(levels: list[str], feel: FeelConfig, feel_name: str, budget: float, routes: str | None,
              as_json: bool, out=None) -> int:
    """The ``check`` command; returns the exit code. Bad input raises CliError / LevelError (one line)."""
    out = out or sys.stdout
    paths = level_paths(levels)
    loaded = [(p, load_level(p)) for p in paths]  # every map is read before any search starts
    folder = _routes_folder(routes) if routes else None
    width = max(len(level.name) for _p, level in loaded)
    if not as_json:
        print(f"checking {len(loaded)} level{'s' * (len(loaded) != 1)} under {feel_name} "
              f"(budget {budget:g} s each)", file=out, flush=True)
    results = []
    for path, level in loaded:
        check = check_level(path, feel, budget, level=level)
        if folder is not None and check.report.finished:
            target = folder / f"{path.stem}.txt"
            try:
                target.write_text(route_script(check, feel_name), encoding="utf-8")
            except OSError as exc:
                raise CliError(f"{target}: cannot write the route ({exc.strerror or exc})") from None
            check = LevelCheck(check.path, check.level, check.report, check.route_coins, target)
        results.append(check)
        if not as_json:
            print(_text_line(check, width, feel.physics.hz), file=out, flush=True)
    finished = all(c.report.finished for c in results)
    if as_json:
        print(json.dumps({"feel": feel_name, "budget": budget, "finished": finished,
                          "levels": [c.as_dict() for c in results]}), file=out)
    else:
        done = sum(c.report.finished for c in results)
        n = len(results)
        print(f"{done} of {n} level{'s' * (n != 1)} finished" if not finished else
              f"all {n} level{'s' * (n != 1)} finished", file=out)
    return 0 if finished else 1


def _routes_folder(name: str) -> Path:
    folder = Path(name)
    if folder.exists() and not folder.is_dir():
        raise CliError(f"{folder}: --routes needs a folder, and this is a file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"{folder}: cannot create the routes folder ({exc.strerror or exc})") from None
    return folder
