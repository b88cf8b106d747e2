"""FixedTimestep: turn variable frame times into a whole number of fixed steps, plus ``alpha``.

    clock = FixedTimestep(hz=60, max_frame_time=0.25)
    for _ in range(clock.advance(frame_seconds)):
        world.step(buttons)
    draw(lerp(prev, current, clock.alpha))

The simulation only ever sees the fixed step, so the same inputs per step give the same states whatever
the frame rate. Frame times longer than ``max_frame_time`` are clipped (the spiral-of-death guard: a
slow frame never asks for an ever-growing number of steps).
"""

from __future__ import annotations

import math

__all__ = ["FixedTimestep"]


class FixedTimestep:
    # A frame whose time leaves the accumulator within this fraction of a step short of a whole step
    # counts as that step: 4 frames of 1/240 s are one 1/60 s step despite float rounding.
    _SLACK = 1e-7

    def __init__(self, hz: int = 60, max_frame_time: float = 0.25):
        if isinstance(hz, bool) or not isinstance(hz, int) or hz <= 0:
            raise ValueError(f"hz must be a positive whole number of steps per second, got {hz!r}")
        if not (max_frame_time > 0 and math.isfinite(max_frame_time)):
            raise ValueError(f"max_frame_time must be a positive number of seconds, got {max_frame_time!r}")
        self.hz = hz
        self.dt = 1.0 / hz  # s per step
        self.max_frame_time = float(max_frame_time)  # s
        self.accumulator = 0.0  # s of simulated time owed, in [0, dt)
        self.steps = 0  # steps handed out so far
        self.dropped_time = 0.0  # s clipped away by the spiral guard

    def advance(self, frame_time: float) -> int:
        """Add a frame's time; returns how many fixed steps to run now."""
        if not (frame_time >= 0 and math.isfinite(frame_time)):
            raise ValueError(f"frame_time must be a finite number of seconds >= 0, got {frame_time!r}")
        if frame_time > self.max_frame_time:
            self.dropped_time += frame_time - self.max_frame_time
            frame_time = self.max_frame_time
        self.accumulator += frame_time
        n = 0
        limit = self.dt * (1.0 - self._SLACK)
        while self.accumulator >= limit:
            self.accumulator = max(0.0, self.accumulator - self.dt)
            n += 1
        self.steps += n
        return n

    @property
    def alpha(self) -> float:
        """How far between the last two steps to draw: 0 = previous state, 1 = current."""
        return min(1.0, max(0.0, self.accumulator / self.dt))

    def reset(self) -> None:
        self.accumulator = 0.0
