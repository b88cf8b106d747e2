"""Feel guard: after a change of feel, every level is checked for a route to its goal in a background process.

The F2 panel shows the results as its "levels" strip (``game/window/tuning.py``); the search is the one behind
``python -m game check`` (``game/guard/check.py``, ``game/guard/route.py``). It runs in a separate process (started
fresh with ``spawn``, at a lower priority), so the game's frames never wait for it; the game only
``poll()``s a queue once a frame. A new change of feel cancels the check under way and starts again after a
short pause (dragging a slider changes the feel every frame).

Each level's known routes are replayed first, one simulation each: the route that finished it under the
last feel checked (most changes of feel leave it working), then its shipped replays; only where they all
fail does the search run (with the state budget of ``python -m game check``: the same verdict as it).
Outcomes: "finished", "impossible" (every reachable state explored) and "unknown" (budget spent).

    guard = LevelGuard([Path("levels/01_first_steps.tmx"), ...])
    guard.feel_changed(feel)          # on every change of feel
    guard.poll()                      # once a frame: starts due checks, takes in results
    guard.results                     # one LevelResult per level, in order
    guard.close()                     # when the game ends
"""

from __future__ import annotations

import multiprocessing
import os
import queue as queues
import time
from pathlib import Path
from typing import NamedTuple

from engine import FeelConfig

__all__ = ["LevelGuard", "LevelResult", "DEBOUNCE"]

DEBOUNCE = 0.6  # s without a further change before a check starts
BUDGET = None  # states of search per level: None for check's default (DEFAULT_STATES)
UNFINISHED = ("impossible", "unknown")  # the states where the search got stuck somewhere


class LevelResult(NamedTuple):
    state: str  # "idle" (not checked yet), "checking", "finished", "impossible", "unknown" or "error"
    detail: str = ""  # one line for the panel's status line
    route: tuple = ()  # impossible / unknown: Buttons per step to the furthest point reached; finished: the route
    col: int = -1  # impossible / unknown: the tile where the search got stuck
    row: int = -1
    why: str = ""  # impossible / unknown: the obstacle and what the feel lacks (game/guard/why.py), or ""
    difficulty: float | None = None  # finished: the route's difficulty, bits (game/guard/difficulty.py), when measured
    tight: int = 0  # finished and measured: its tight moves

    @property
    def stuck(self) -> bool:
        return self.state in UNFINISHED


class LevelGuard:
    def __init__(self, paths: list[Path], budget: int | None = BUDGET):
        self.paths = [Path(p) for p in paths]
        self.budget = budget
        self.results = [LevelResult("idle") for _ in self.paths]
        self.known: dict[int, tuple] = {}  # level index -> the route that last finished it (any feel)
        self.feel: FeelConfig | None = None  # the feel the results are (or will be) for
        self._due: float | None = None  # when to start the next check
        self._proc = None
        self._queue = None
        self._generation = 0
        self._dying: list = []  # cancelled processes not yet reaped

    @property
    def checking(self) -> bool:
        return any(r.state == "checking" for r in self.results)

    def feel_changed(self, feel: FeelConfig, now: float | None = None) -> None:
        """The game now runs ``feel``: check every level again (after the pause)."""
        if feel == self.feel:
            return  # checked, or being checked, already
        self.feel = feel
        self._cancel()
        self._due = (time.monotonic() if now is None else now) + DEBOUNCE
        self.results = [LevelResult("checking") for _ in self.paths]

    def poll(self, now: float | None = None) -> bool:
        """Start a due check, take in finished levels. Never blocks. True when a result came in."""
        now = time.monotonic() if now is None else now
        self._dying = [p for p in self._dying if p.is_alive()]
        if self._due is not None and now >= self._due:
            self._due = None
            self._start()
        changed = False
        while self._queue is not None:
            try:
                generation, index, result = self._queue.get_nowait()
            except (queues.Empty, OSError, EOFError):
                break
            if generation == self._generation:
                self.results[index] = LevelResult(*result)
                if self.results[index].state == "finished":
                    self.known[index] = self.results[index].route
                changed = True
        if self._proc is not None and not self._proc.is_alive() and not changed:
            self._finish()
        return changed

    def close(self) -> None:
        self._cancel()
        for p in self._dying:
            p.join(timeout=1.0)

    # -- internals ----------------------------------------------------------------------------------------
    def _start(self) -> None:
        self._generation += 1
        try:
            ctx = multiprocessing.get_context("spawn")  # a clean interpreter: no copy of the game's window
            self._queue = ctx.Queue()
            self._proc = ctx.Process(target=_work, name="tilefeel-level-check", daemon=True,
                                     args=(self._generation, self.feel, [str(p) for p in self.paths],
                                           self.budget, self._queue, dict(self.known)))
            self._proc.start()
        except (OSError, ValueError, ImportError) as exc:  # no processes here (a browser build, a sandbox)
            self._proc = self._queue = None
            why = f"cannot check levels in the background here ({' '.join(str(exc).split()) or type(exc).__name__})"
            self.results = [LevelResult("error", why) for _ in self.paths]

    def _finish(self) -> None:
        """The process ended: anything still "checking" did not report (it crashed)."""
        code = self._proc.exitcode
        self._proc = None
        self.results = [r if r.state != "checking" else
                        LevelResult("error", f"the check stopped early (exit code {code})") for r in self.results]

    def _cancel(self) -> None:
        if self._proc is not None:
            if self._proc.is_alive():
                self._proc.terminate()
            self._dying.append(self._proc)
            self._proc = None
        self._generation += 1  # whatever the old process still sends is ignored
        self._queue = None


def _work(generation: int, feel: FeelConfig, paths: list[str], budget: int | None, out, known=None,
          difficulty: bool = True) -> None:
    """The background process: check each level (goal only; its last route and shipped replays first) and
    send a LevelResult tuple per level; then, with ``difficulty``, measure each finished level's route and send
    its result again with the figure (the verdicts come first: they are what a change of feel is checked for)."""
    try:
        os.nice(10)  # the game comes first
    except (AttributeError, OSError):
        pass
    from .check import DEFAULT_BUDGET, check_level, known_routes
    from game.files.levelfile import load_level
    from .difficulty import measure

    known = known or {}
    finished = []
    for index, path in enumerate(paths):
        try:
            routes = ([("(its route under the last feel)", known[index])] if index in known else []) + \
                known_routes(Path(path))
            check = check_level(Path(path), feel, DEFAULT_BUDGET if budget is None else budget, known=routes)
        except Exception as exc:  # noqa: BLE001 - a broken level is reported, the others still checked
            result = LevelResult("error", " ".join(str(exc).split()) or type(exc).__name__)
        else:
            result = describe(Path(path).name, check.report, check.why)
            if result.state == "finished":
                finished.append((index, path, result))
        out.put((generation, index, tuple(result)))
    for index, path, result in finished if difficulty else ():
        try:  # the map is read again: one map in memory at a time
            d = measure(load_level(Path(path), goal=True), feel, result.route)
        except Exception:  # noqa: BLE001 - the verdict stands; only the figure is missing
            continue
        figure = f"difficulty {d.figure:.1f} bits, {d.tight} tight move{'s' * (d.tight != 1)}"
        out.put((generation, index, tuple(result._replace(detail=f"{result.detail}; {figure}", difficulty=d.figure,
                                                          tight=d.tight))))


def describe(name: str, r, why=None) -> LevelResult:
    """The strip's LevelResult for one RouteReport (and, not finished, its Why)."""
    if r.finished:
        how = "its route replayed" if r.source != "search" else f"found in {r.states} states"
        return LevelResult("finished", f"{name}: finished, route {r.route_steps} steps ({how})", r.route)
    s = r.stuck
    why_ = "impossible: every reachable state explored" if r.outcome == "impossible" else \
        f"unknown: the budget of {r.budget} states ran out" if not r.capped else "unknown: stopped by the time cap"
    where = f"; stuck at tile {s.col},{s.row}" if s else ""
    text = "" if why is None else why.text
    return LevelResult(r.outcome, f"{name}: {why_}{where}" + (f"; {text}" if text else ""), s.route if s else (),
                       s.col if s else -1, s.row if s else -1, text)
