"""One whole frame of game work with 100 enemies on screen: input, the fixed steps, drawing and the HUD
(``App.work``), not the present. Wall-clock time (``frame_ms_*``) and this thread's CPU time
(``frame_cpu_ms_*``: what is left when other programs on a shared machine take the processor away).

The game has no enemies yet, so the 100 are walking engine actors added to the level's world (they turn
at walls and ledges after each step, like ``walkers.py``) and drawn with the player's running sprite in
the map's sprite slot, through the game's real renderer. The game runs its real App under SDL's dummy
drivers at the default window scale, playing level 1's replay so the camera moves; walkers that leave
the view are put back into it between frames (not timed), so 100 are always on screen.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

from .common import Figure, pick
from .walkers import turn

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "01_first_steps.tmx"
REPLAY = ROOT / "levels" / "replays" / "01_first_steps.txt"
ENEMIES = 100
ENEMY = (10.0, 14.0)  # px, the player's box: the sprite fits it
WARM_UP = 10  # frames not counted (the level's first chunks are built then)


class Crowd:
    """Walkers in the play scene's world, drawn after the scene's own sprites, kept in view."""

    def __init__(self, play, n: int, seed: int = 3):
        from engine import Actor

        self.play = play
        self.rng = random.Random(seed)
        world = play.session.world
        grid = world.grid
        ts = grid.tile_size
        # places to stand: an empty cell over a solid or one-way one
        self.spots = [(c * ts + 3, (r + 1) * ts - ENEMY[1]) for r in range(grid.rows - 1) for c in range(grid.cols)
                      if grid.kind_at(c, r) == 0 and grid.kind_at(c, r + 1) in (1, 2)]
        self.actors = [world.add(Actor(0, 0, *ENEMY, name="enemy")) for _ in range(n)]
        self.dirs = [self.rng.choice((-1, 1)) for _ in range(n)]
        for a in self.actors:
            self._place(a)
        step = play.session.step

        def session_step(buttons):
            events = step(buttons)
            turn(world, self.actors, self.dirs)
            return events

        play.session.step = session_step
        draw = play.renderer.draw

        def renderer_draw(surf, cam_x, cam_y, t, things=None):
            def sprites(s):
                if things is not None:
                    things(s)
                self.draw(s, cam_x, cam_y, t)

            draw(surf, cam_x, cam_y, t, sprites)

        play.renderer.draw = renderer_draw

    def _place(self, a, view=None) -> None:
        spots = self.spots
        if view is not None:
            x0, x1 = view
            spots = [s for s in spots if x0 <= s[0] <= x1 - ENEMY[0]] or self.spots
        x, y = self.rng.choice(spots)
        a.teleport(x, y)
        self.play.session.world.settle(a)

    def keep_in_view(self) -> None:
        from game.render.canvas import CANVAS_W

        x0 = self.play.camera.view(1.0)[0]
        for a in self.actors:
            if not (x0 - 8 < a.x < x0 + CANVAS_W + 8) or a.y > self.play.level.height:
                self._place(a, (x0, x0 + CANVAS_W))

    def draw(self, surf, cam_x: int, cam_y: int, t: float) -> None:
        art, alpha = self.play.app.art, self.play.clock.alpha
        frame = art.player_frame("run", t)
        back = art.flipped(frame)
        fw, fh = frame.get_size()
        blits = []
        for a, d in zip(self.actors, self.dirs, strict=True):
            x, y = a.interpolated(alpha)
            blits.append((frame if d > 0 else back, (round(x + a.w / 2) - cam_x - fw // 2,
                                                     round(y + a.h) - cam_y - fh)))
        surf.fblits(blits)


def run(mode: str) -> list[Figure]:
    from game.app import App
    from game.cli import build_parser

    args = build_parser().parse_args(["--level", str(LEVEL), "--replay", str(REPLAY)])
    app = App(args)
    code = app.start()
    play = app.scenes.current
    if code is not None or not hasattr(play, "session"):
        why = "the game did not start its play scene under SDL's dummy drivers"
        return [Figure("frame_ms_median", None, why), Figure("frame_ms_p99", None, why)]
    crowd = Crowd(play, ENEMIES)
    dt = 1.0 / 60.0
    frames = pick(mode, 20, 400, 1000)  # level 1's replay lasts about 1,100 steps
    wall, cpu = [], []
    for i in range(WARM_UP + frames):
        crowd.keep_in_view()
        t0, c0 = time.perf_counter(), time.thread_time()
        app.work(dt)
        if i >= WARM_UP:
            wall.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
        app.screen.present()
    return [Figure("frame_ms_median", statistics.median(wall) * 1e3), Figure("frame_ms_p99", p99(wall) * 1e3),
            Figure("frame_cpu_ms_median", statistics.median(cpu) * 1e3), Figure("frame_cpu_ms_p99", p99(cpu) * 1e3)]


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
