"""Feel guard: after a change of feel, every level is checked for a route to its goal in a background process.

The F2 panel shows the results as its "levels" strip (``game/window/tuning.py``); the search is the one behind
``python -m game check`` (``game/guard/check.py``, ``game/guard/route.py``). It runs in a separate process (started
with ``spawn``, at a lower priority), so the game's frames never wait for it; the game only ``poll()``s a queue
once a frame.

The process is **kept alive** between changes of feel: it is started once (its imports done once), keeps each
map it loaded (read again only when the file changed on disk) and the route that finished each level under
the last feel it checked. A new change of feel tells it to drop the check under way (a shared generation
number it reads every few dozen states: ``stop`` in ``route.find_routes``; a dropped check is never a
verdict) and, after a short pause (dragging a slider changes the feel every frame), sends it the new feel.
The level being played (``focus``) is checked first. Should the process die, the next change starts another.
``persistent=False`` is the older way, kept as the benchmark's baseline and for hosts without shared memory:
a fresh process per change of feel, terminated by the next one.

Each level's known routes are replayed first, one simulation each: the route that finished it under the
last feel checked (most changes of feel leave it working), then its shipped replays; only where they all
fail does the search run (with the state budget of ``python -m game check``: the same verdict as it).
Outcomes: "finished", "impossible" (every reachable state explored) and "unknown" (budget spent). What
the strip shows never depends on time: only when it shows it does.

    guard = LevelGuard([Path("levels/01_first_steps.tmx"), ...])
    guard.focus = Path("levels/04_lifts.tmx")   # optional: the level played, checked first
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

__all__ = ["LevelGuard", "LevelResult", "DEBOUNCE", "SPAWN_DEBOUNCE"]

DEBOUNCE = 0.25  # s without a further change before a check starts (the kept-alive process: cancelling is cheap)
SPAWN_DEBOUNCE = 0.6  # s, the same for persistent=False (each check costs a new process)
BUDGET = None  # states of search per level: None for check's default (DEFAULT_STATES)
UNFINISHED = ("impossible", "unknown")  # the states where the search got stuck somewhere
DONE = -1  # the index a worker sends, with its generation, when every level of a check has been sent


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
    def __init__(self, paths: list[Path], budget: int | None = BUDGET, *, persistent: bool = True,
                 difficulty: bool = True):
        self.paths = [Path(p) for p in paths]
        self.budget = budget
        self.persistent = persistent
        self.difficulty = difficulty  # after the verdicts, measure each finished level's difficulty
        self.debounce = DEBOUNCE if persistent else SPAWN_DEBOUNCE
        self.focus: Path | None = None  # the level checked first (the one being played), if among ``paths``
        self.results = [LevelResult("idle") for _ in self.paths]
        self.known: dict[int, tuple] = {}  # level index -> the route that last finished it (any feel)
        self.feel: FeelConfig | None = None  # the feel the results are (or will be) for
        self.done = False  # every level of the current check has reported (difficulties included)
        self.started = 0  # background processes started so far (the kept-alive one counts once)
        self._due: float | None = None  # when to start the next check
        self._proc = None
        self._queue = None  # results: (generation, index, LevelResult tuple), (generation, DONE, None)
        self._jobs = None  # persistent: checks to run, newest wins
        self._latest = None  # persistent: a shared integer, the generation wanted now
        self._fresh = True  # persistent: the process does not know self.known yet
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
        self._due = (time.monotonic() if now is None else now) + self.debounce
        self.results = [LevelResult("checking") for _ in self.paths]
        self.done = False

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
            except (queues.Empty, OSError, EOFError, ValueError):
                break
            if generation != self._generation:
                continue  # a dropped check's late word
            if index == DONE:
                self.done = True
                continue
            self.results[index] = LevelResult(*result)
            if self.results[index].state == "finished":
                self.known[index] = self.results[index].route
            changed = True
        if self._proc is not None and not self._proc.is_alive() and not changed:
            self._finish()
        return changed

    def close(self) -> None:
        self._due = None
        if self._proc is not None and self.persistent and self._proc.is_alive():
            try:
                self._latest.value = -1  # drop whatever it is doing
                self._jobs.put(None)  # and end
            except (OSError, ValueError):
                pass
            self._proc.join(timeout=2.0)
        self._cancel(stop_worker=True)
        for p in self._dying:
            p.join(timeout=1.0)

    # -- internals ----------------------------------------------------------------------------------------
    def _order(self) -> list[int]:
        order = list(range(len(self.paths)))
        if self.focus is not None and Path(self.focus) in self.paths:
            first = self.paths.index(Path(self.focus))
            order.remove(first)
            order.insert(0, first)
        return order

    def _start(self) -> None:
        self._generation += 1
        paths = [str(p) for p in self.paths]
        try:
            ctx = multiprocessing.get_context("spawn")  # a clean interpreter: no copy of the game's window
            if not self.persistent:
                self._queue = ctx.Queue()
                self._proc = ctx.Process(target=_work, name="tilefeel-level-check", daemon=True,
                                         args=(self._generation, self.feel, paths, self.budget, self._queue,
                                               dict(self.known), self.difficulty, self._order()))
                self._proc.start()
                self.started += 1
                return
            if self._proc is None or not self._proc.is_alive():
                self._queue, self._jobs = ctx.Queue(), ctx.Queue()
                self._latest = ctx.Value("q", self._generation)
                self._proc = ctx.Process(target=_serve, name="tilefeel-level-check", daemon=True,
                                         args=(self._jobs, self._queue, self._latest))
                self._proc.start()
                self.started += 1
                self._fresh = True
            known = {paths[i]: r for i, r in self.known.items()} if self._fresh else {}
            self._fresh = False
            self._latest.value = self._generation
            self._jobs.put((self._generation, self.feel, paths, self.budget, known, self.difficulty, self._order()))
        except (OSError, ValueError, ImportError) as exc:  # no processes here (a browser build, a sandbox)
            self._proc = self._queue = self._jobs = self._latest = None
            why = f"cannot check levels in the background here ({' '.join(str(exc).split()) or type(exc).__name__})"
            self.results = [LevelResult("error", why) for _ in self.paths]

    def _finish(self) -> None:
        """The process ended: anything still "checking" did not report (it crashed)."""
        code = self._proc.exitcode
        self._proc = self._jobs = self._latest = None
        self.results = [r if r.state != "checking" else
                        LevelResult("error", f"the check stopped early (exit code {code})") for r in self.results]

    def _cancel(self, stop_worker: bool = False) -> None:
        """Drop the check under way: the kept-alive process is told (it goes on to the next feel); a
        throw-away one (or, with ``stop_worker``, any) is terminated."""
        self._generation += 1  # whatever the old check still sends is ignored
        if self._proc is None:
            return
        if self.persistent and not stop_worker and self._proc.is_alive():
            try:
                self._latest.value = self._generation  # no job has this number yet: the worker stops and waits
            except (OSError, ValueError):
                pass
            return
        if self._proc.is_alive():
            self._proc.terminate()
            if stop_worker:
                self._proc.join(timeout=2.0)
        self._dying.append(self._proc)
        self._proc = self._queue = self._jobs = self._latest = None


def _lower_priority() -> None:
    try:
        os.nice(10)  # the game comes first
    except (AttributeError, OSError):
        pass


def _work(generation: int, feel: FeelConfig, paths: list[str], budget: int | None, out, known=None,
          difficulty: bool = True, order=None) -> None:
    """A throw-away background process (``persistent=False``): one check, then it ends."""
    _lower_priority()
    known = {paths[i]: r for i, r in (known or {}).items()}
    check_all(generation, feel, paths, budget, out, known, difficulty, order=order)


def _serve(jobs, out, latest) -> None:
    """The kept-alive background process: run each check sent (only the newest of those waiting), until
    ``None``. ``latest`` (shared) is the generation wanted: when it moves on, the check under way stops."""
    _lower_priority()
    from game.files.levelfile import load_level
    from .route import Cancelled

    maps: dict[str, tuple] = {}  # path -> ((mtime ns, size), LevelData): each map read again when it changed
    routes: dict[str, tuple] = {}  # path -> the route that finished it under the last feel checked

    def load(path: str):
        st = os.stat(path)
        key = (st.st_mtime_ns, st.st_size)
        hit = maps.get(path)
        if hit is not None and hit[0] == key:
            return hit[1]
        maps.pop(path, None)
        level = load_level(Path(path), goal=True)
        maps[path] = (key, level)
        return level

    while True:
        job = jobs.get()
        while job is not None:  # only the newest of the checks waiting matters
            try:
                job = jobs.get_nowait()
            except queues.Empty:
                break
            except (OSError, EOFError, ValueError):
                return
        if job is None:
            return
        generation, feel, paths, budget, known, difficulty, order = job
        routes.update(known)
        stop = lambda g=generation: latest.value != g  # noqa: E731
        if stop():
            continue
        try:
            check_all(generation, feel, paths, budget, out, routes, difficulty, order=order, stop=stop, load=load)
        except Cancelled:
            continue


def check_all(generation: int, feel: FeelConfig, paths: list[str], budget: int | None, out, known: dict,
              difficulty: bool = True, *, order=None, stop=None, load=None) -> None:
    """Check each level (goal only; its last route in ``known`` and its shipped replays first) and send a
    LevelResult tuple per level to ``out``; then, with ``difficulty``, measure each finished level's route
    and send its result again with the figure (the verdicts come first: they are what a change of feel is
    checked for); then ``(generation, DONE, None)``. ``known`` (path -> route) is updated with each route
    that finished. ``stop()`` true: raises ``Cancelled`` (nothing more is sent). ``load``: path -> LevelData
    (default: read the map each time, one map in memory at a time)."""
    from .check import DEFAULT_BUDGET, check_level, known_routes
    from game.files.levelfile import load_level
    from .difficulty import measure
    from .route import Cancelled

    load = load or (lambda p: load_level(Path(p), goal=True))
    finished = []
    for index in range(len(paths)) if order is None else order:
        path = paths[index]
        try:
            routes = ([("(its route under the last feel)", known[path])] if path in known else []) + \
                known_routes(Path(path))
            check = check_level(Path(path), feel, DEFAULT_BUDGET if budget is None else budget, known=routes,
                                level=load(path), stop=stop)
        except Cancelled:
            raise
        except Exception as exc:  # noqa: BLE001 - a broken level is reported, the others still checked
            result = LevelResult("error", " ".join(str(exc).split()) or type(exc).__name__)
        else:
            result = describe(Path(path).name, check.report, check.why)
            if result.state == "finished":
                finished.append((index, path, result))
                known[path] = result.route
        if stop is not None and stop():
            raise Cancelled
        out.put((generation, index, tuple(result)))
    for index, path, result in finished if difficulty else ():
        try:
            d = measure(load(path), feel, result.route, stop=stop)
        except Cancelled:
            raise
        except Exception:  # noqa: BLE001 - the verdict stands; only the figure is missing
            continue
        figure = (f"difficulty {d.figure:.1f} bits (~{d.attempts:.0f} attempts), {d.tight} tight "
                  f"move{'s' * (d.tight != 1)}")
        if stop is not None and stop():
            raise Cancelled
        out.put((generation, index, tuple(result._replace(detail=f"{result.detail}; {figure}", difficulty=d.figure,
                                                          tight=d.tight))))
    out.put((generation, DONE, None))


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
