"""Frame times of the game while the F2 panel's "levels" strip checks every level in the background.

Run:  python benchmarks/bench_panel_frames.py [SECONDS]
Runs the real game loop (``App.frame``, SDL's dummy video driver, no window) on level 4 with the F2 panel
open and the player running (D held), first with nothing in the background, then right after a change of
feel (jump height 18 px: several levels cannot be finished, so the background search works through its
whole budget), and prints the work per frame (input, fixed steps, drawing; the clock's sleep left out) and
the frame-to-frame intervals, side by side in the same run: median, 95th and 99th percentile, worst, and
the frames over 1/60 s.
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
_tmp = tempfile.mkdtemp(prefix="tilefeel-bench-")
for var in ("TILEFEEL_DATA_DIR", "TILEFEEL_CONFIG_DIR", "TILEFEEL_SHOTS_DIR"):
    os.environ.setdefault(var, _tmp)

import pygame  # noqa: E402

from game.window.app import App  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def run_frames(app, seconds: float, until=None) -> tuple[list[float], list[float]]:
    """Frames for ``seconds`` (or until ``until()``): (work ms, interval ms) per frame."""
    work, gaps = [], []
    clock = app.clock
    marks = {}

    class TimedClock:  # the game's clock, noting when its sleep ends
        def tick(self, fps):
            ms = clock.tick(fps)
            marks["after_tick"] = time.perf_counter()
            return ms

        def get_fps(self):
            return clock.get_fps()

    app.clock = TimedClock()
    end = time.perf_counter() + seconds
    last = None
    try:
        while time.perf_counter() < end and not (until and until()):
            app.frame()
            done = time.perf_counter()
            work.append((done - marks["after_tick"]) * 1000)
            if last is not None:
                gaps.append((done - last) * 1000)
            last = done
    finally:
        app.clock = clock
    return work, gaps


def describe(values: list[float]) -> str:
    v = sorted(values)
    pick = lambda q: v[min(len(v) - 1, int(q * len(v)))]  # noqa: E731
    over = sum(x > 1000 / 60 for x in v)
    return (f"median {statistics.median(v):5.2f}  p95 {pick(0.95):5.2f}  p99 {pick(0.99):5.2f}  "
            f"worst {v[-1]:6.2f} ms   over 16.7 ms: {over}/{len(v)}")


def main(seconds: float) -> None:
    args = SimpleNamespace(level=str(ROOT / "levels" / "04_lifts.tmx"), feel=None, record=None, replay=None,
                           debug=False, fullscreen=False, scale=1)
    app = App(args)
    assert app.start() is None, "the game did not start"
    panel = app.tuning
    panel.toggle()  # F2
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0, unicode="d"))  # run right
    run_frames(app, 1.0)  # warm up
    idle = run_frames(app, seconds)
    panel.set_value("jump.height", 18.0)
    started = time.perf_counter()
    busy = run_frames(app, seconds)
    waited = time.perf_counter() - started
    states = [r.state for r in panel._guard.results]
    app.close()
    print(f"level 4, F2 panel open, player running; {seconds:g} s per phase")
    print(f"work per frame, nothing in the background:  {describe(idle[0])}")
    print(f"work per frame, levels checked meanwhile:    {describe(busy[0])}")
    print(f"frame interval, nothing in the background:  {describe(idle[1])}")
    print(f"frame interval, levels checked meanwhile:    {describe(busy[1])}")
    print(f"background check after {waited:.1f} s: {states}")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 8.0)
