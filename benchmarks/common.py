"""What every benchmark part shares: the sizes of each mode, timing helpers, and the figure record."""

from __future__ import annotations

import gc
import statistics
import time
from typing import NamedTuple

MODES = ("smoke", "quick", "full")


class Figure(NamedTuple):
    """One measured number. ``value`` is None when it could not be measured; ``why`` says why."""

    key: str
    value: float | None
    why: str = ""


def pick(mode: str, smoke, quick, full):
    """The setting for this mode."""
    return {"smoke": smoke, "quick": quick, "full": full}[mode]


def per_call(fn, calls: int) -> float:
    """Seconds per call of ``fn()`` over ``calls`` calls (garbage collection off while timing)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        return (time.perf_counter() - t0) / calls
    finally:
        if enabled:
            gc.enable()


def interleaved(contenders: dict, calls: int, rounds: int, cpu: dict | None = None) -> dict[str, float]:
    """Median seconds per call for each ``{name: fn}``, timed in alternating rounds so that the load
    of a shared machine falls on all of them alike. Given a dict as ``cpu``, fills it with the median
    CPU seconds per call of the same calls (this process only: steadier on a busy machine)."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    cpus: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, fn in contenders.items():
            c0 = time.process_time()
            times[name].append(per_call(fn, calls))
            cpus[name].append((time.process_time() - c0) / calls)
    if cpu is not None:
        cpu.update({name: statistics.median(t) for name, t in cpus.items()})
    return {name: statistics.median(t) for name, t in times.items()}


def missing(module: str) -> str:
    return f"{module} is not installed (pip install -e \".[bench]\")"
