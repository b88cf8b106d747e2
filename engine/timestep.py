"""FixedTimestep: turn variable frame times into a whole number of fixed steps, plus ``alpha``.

    clock = FixedTimestep(world)                 # the world's step rate: feel.physics.hz
    for _ in range(clock.advance(frame_seconds)):
        world.step(buttons)
    draw(lerp(prev, current, clock.alpha))

The clock takes its rate from the world it drives (live: ``world.set_feel`` with a new ``physics.hz``
retimes it), so the clock and the simulation can never disagree about how long a step is. The
simulation only ever sees the fixed step, so the same inputs per step give the same states whatever the
frame rate. Frame times longer than ``max_frame_time`` are clipped (the spiral-of-death guard: a slow
frame never asks for an ever-growing number of steps).
"""

from __future__ import annotations

import math

from . import _check
from .feel import FeelConfig
from .world import World

__all__ = ["FixedTimestep"]


class FixedTimestep:
    """Fixed steps for a :class:`World` (or, without a world, for a :class:`FeelConfig`).

    ``max_frame_time`` (s): None follows the feel's ``physics.max_frame_time``.
    """

    # A frame whose time leaves the accumulator within this fraction of a step short of a whole step
    # counts as that step: 4 frames of 1/240 s are one 1/60 s step despite float rounding.
    _SLACK = 1e-7

    def __init__(self, world: World | FeelConfig | None = None, max_frame_time: float | None = None, *,
                 hz=None):
        if hz is not None or not isinstance(world, (World, FeelConfig)):
            got = f"hz={hz!r}" if hz is not None else f"{type(world).__name__} {world!r}"
            raise TypeError(f"FixedTimestep takes the World it drives, FixedTimestep(world), so both step at "
                            f"the same rate (set it with FeelConfig physics.hz); got {got}")
        self._source = world
        if max_frame_time is not None:
            max_frame_time = _check.number("FixedTimestep", "max_frame_time", max_frame_time, "s")
            if max_frame_time <= 0.0:
                raise ValueError(f"FixedTimestep: max_frame_time must be > 0 s, got {max_frame_time!r}")
        self._max_frame_time = max_frame_time
        self.accumulator = 0.0  # s of simulated time owed, in [0, dt)
        self.steps = 0  # steps handed out so far
        self.dropped_time = 0.0  # s clipped away by the spiral guard

    @property
    def feel(self) -> FeelConfig:
        source = self._source
        return source.feel if isinstance(source, World) else source

    @property
    def hz(self) -> int:
        """Steps per second: the world's ``feel.physics.hz``."""
        return self.feel.physics.hz

    @property
    def dt(self) -> float:
        """s per step."""
        return 1.0 / self.feel.physics.hz

    @property
    def max_frame_time(self) -> float:
        """s: the longest frame time simulated."""
        if self._max_frame_time is not None:
            return self._max_frame_time
        return self.feel.physics.max_frame_time

    def advance(self, frame_time: float) -> int:
        """Add a frame's time; returns how many fixed steps to run now."""
        if isinstance(frame_time, bool) or not isinstance(frame_time, (int, float)) \
                or not (frame_time >= 0 and math.isfinite(frame_time)):
            raise ValueError(f"frame_time must be a finite number of seconds >= 0, got {frame_time!r}")
        limit_time = self.max_frame_time
        if frame_time > limit_time:
            self.dropped_time += frame_time - limit_time
            frame_time = limit_time
        self.accumulator += frame_time
        dt = self.dt
        n = 0
        limit = dt * (1.0 - self._SLACK)
        while self.accumulator >= limit:
            self.accumulator = max(0.0, self.accumulator - dt)
            n += 1
        self.steps += n
        return n

    @property
    def alpha(self) -> float:
        """How far between the last two steps to draw: 0 = previous state, 1 = current."""
        return min(1.0, max(0.0, self.accumulator / self.dt))

    def reset(self) -> None:
        self.accumulator = 0.0
