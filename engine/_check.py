"""Argument checks for the public constructors: one-line errors that name the argument and the fix.

Used at construction and assignment boundaries only, never in the per-step hot path.
"""

from __future__ import annotations

import math
import numbers


def number(owner: str, name: str, value, unit: str = "px") -> float:
    """A finite real number (bools are not numbers here); returns it as a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{owner}: {name} must be a number of {unit}, got {_show(value)}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{owner}: {name} must be a finite number of {unit}, got {v!r}")
    return v


def size(owner: str, name: str, value, *, zero: bool = False, unit: str = "px") -> float:
    """A finite size: > 0 (or >= 0 with ``zero``)."""
    v = number(owner, name, value, unit)
    if v < 0.0 or (v == 0.0 and not zero):
        least = ">= 0" if zero else "> 0"
        raise ValueError(f"{owner}: {name} must be {least} {unit}, got {v!r}; sizes are widths and heights, "
                         f"never negative")
    return v


def flag(owner: str, name: str, value) -> bool:
    """A boolean (numpy bools and the ints 0 and 1 count: key-state arrays give those)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral) and value in (0, 1):
        return bool(value)
    if getattr(getattr(value, "dtype", None), "kind", "") == "b" and getattr(value, "shape", None) == ():
        return bool(value)  # a numpy bool
    raise TypeError(f"{owner}: {name} must be True or False, got {_show(value)}")


def ratio(owner: str, name: str, value) -> float:
    """A number in 0..1."""
    v = number(owner, name, value, "ratio")
    if not 0.0 <= v <= 1.0:
        raise ValueError(f"{owner}: {name} must be between 0 and 1, got {v!r}")
    return v


def mask(owner: str, name: str, value) -> int:
    """A bit mask: a whole number >= 0 (e.g. 1 | 4)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{owner}: {name} must be a bit mask, a whole number >= 0 (e.g. 1 | 4), got {_show(value)}")
    if not 0 <= value < 1 << 64:
        raise ValueError(f"{owner}: {name} must be a bit mask of 64 bits at most, >= 0 (e.g. 1 | 4), got {value!r}")
    return int(value)


def text(owner: str, name: str, value) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{owner}: {name} must be a string, got {_show(value)}")
    return value


def _show(value) -> str:
    if isinstance(value, str):
        return f"the text {value!r}"
    return f"{type(value).__name__} {value!r}"
