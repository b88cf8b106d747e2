"""One whole frame of game work with 100 enemies on screen: input, the fixed steps, drawing and the HUD
(``App.work``), not the present. Wall-clock time (``frame_ms_*``) and this thread's CPU time
(``frame_cpu_ms_*``: what is left when other programs on a shared machine take the processor away).

The 100 are the game's own enemies (``game/rules/enemies.py``): 60 walkers, 20 hoppers and 20 flyers added to
level 1's data, so the session steps them, the touch pass meets them and the play scene draws them with
their art, exactly as in a level. The game runs its real App under SDL's dummy drivers at the default
window scale, playing level 1's replay so the camera moves. Between frames (not timed) enemies that left
the view or were stomped are put back into it (``Enemies.put``), so 100 are always on screen, and the
player cannot die (``Session._die`` is a no-op: the replay keeps its route and the camera keeps moving,
while hits and stomps are still found every step).
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import replace
from pathlib import Path

from .common import Figure, pick

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "01_first_steps.tmx"
REPLAY = ROOT / "levels" / "replays" / "01_first_steps.txt"
ENEMIES = 100
KINDS = ("walker",) * 6 + ("hopper",) * 2 + ("flyer",) * 2  # one in ten of each kind in turn
WARM_UP = 10  # frames not counted (the level's first chunks are built then)


class Crowd:
    """The game's enemies in the play scene's session, kept in view."""

    def __init__(self, play, n: int, seed: int = 3):
        from game.window.render.canvas import CANVAS_W
        from game.rules.session import Session

        self.play = play
        self.rng = random.Random(seed)
        grid = play.level.grid
        ts = grid.tile_size
        # places to stand: an empty cell over a solid or one-way one (x, feet y)
        self.spots = [(c * ts + ts / 2, (r + 1) * ts) for r in range(grid.rows - 1) for c in range(grid.cols)
                      if grid.kind_at(c, r) == 0 and grid.kind_at(c, r + 1) in (1, 2)]
        specs = [self._spec(i, (0, CANVAS_W)) for i in range(n)]
        play.level = replace(play.level, enemies=specs)
        play._start(Session(play.level, play.app.feel))  # (the scene's own restart, with 100 enemies)
        play.session._die = lambda name, out: None

    def _spec(self, i: int, view):
        from game.files.levelkinds import EnemySpec

        x0, x1 = view
        spots = [s for s in self.spots if x0 + 8 <= s[0] <= x1 - 8] or self.spots
        x, feet = self.rng.choice(spots)
        kind = KINDS[i % len(KINDS)]
        w, h = {"walker": (14, 12), "hopper": (12, 12), "flyer": (14, 10)}[kind]
        left, top = x - w / 2, feet - h - (28 if kind == "flyer" else 0)
        route = ((left, top), (left + 48, top)) if kind == "flyer" else ()
        return EnemySpec(i + 1, f"enemy {i + 1}", kind, left, top, w, h, self.rng.choice((-1, 1)), 40.0, 24.0,
                         0.8, route, 0.3)

    def _shown(self, i: int, x0: float) -> bool:
        from game.window.render.canvas import CANVAS_W

        enemies = self.play.session.enemies
        a = enemies.all[i].actor
        return enemies.alive[i] and x0 - a.w < a.x < x0 + CANVAS_W and a.y < self.play.level.height

    def keep_in_view(self) -> None:
        from game.window.render.canvas import CANVAS_W

        x0 = self.play.camera.view(1.0)[0]
        enemies = self.play.session.enemies
        for i in range(len(enemies.all)):
            if not self._shown(i, x0):
                enemies.put(i, self._spec(i, (x0, x0 + CANVAS_W)))

    def on_screen(self) -> int:
        x0 = self.play.camera.view(1.0)[0]
        return sum(1 for i in range(len(self.play.session.enemies.all)) if self._shown(i, x0))


def run(mode: str) -> list[Figure]:
    from game.window.app import App
    from game.cli import build_parser

    args = build_parser().parse_args(["--level", str(LEVEL), "--replay", str(REPLAY)])
    app = App(args)
    code = app.start()
    play = app.scenes.current
    if code is not None or not hasattr(play, "session"):
        why = "the game did not start its play scene under SDL's dummy drivers"
        return [Figure("frame_ms_median", None, why), Figure("frame_ms_p99", None, why)]
    crowd = Crowd(play, ENEMIES)
    shown = []
    dt = 1.0 / 60.0
    frames = pick(mode, 20, 400, 1000)  # level 1's replay lasts about 1,100 steps
    wall, cpu = [], []
    for i in range(WARM_UP + frames):
        crowd.keep_in_view()
        shown.append(crowd.on_screen())
        t0, c0 = time.perf_counter(), time.thread_time()
        app.work(dt)
        if i >= WARM_UP:
            wall.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
        app.screen.present()
    return [Figure("frame_ms_median", statistics.median(wall) * 1e3), Figure("frame_ms_p99", p99(wall) * 1e3),
            Figure("frame_cpu_ms_median", statistics.median(cpu) * 1e3), Figure("frame_cpu_ms_p99", p99(cpu) * 1e3),
            Figure("frame_enemies_min", float(min(shown)))]  # enemies on screen at the least busy frame


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
