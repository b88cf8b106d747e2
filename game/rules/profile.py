"""The player's profile sections of progress.json: ``options`` (volumes, window) and ``totals`` (time
played and deaths over the whole game).

``game.files.save`` keeps both sections as plain JSON; this module gives them their fields, ranges and
defaults. A bad value never loses the save: it is reported in one line (``options.music is "loud",
expected a whole number from 0 to 10; using 7``) and its default is used, the other fields keep theirs.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields

__all__ = ["Options", "Totals", "MAX_SCALE"]

MAX_SCALE = 8  # the largest window scale the options accept (the screen may allow less)


def _field(default, lo=None, hi=None, doc: str = ""):
    return field(default=default, metadata={"lo": lo, "hi": hi, "doc": doc})


def _want(f) -> str:
    lo, hi, kind = f.metadata["lo"], f.metadata["hi"], f.type
    if kind == "bool":
        return "true or false"
    what = "a whole number" if kind == "int" else "a number"
    return f"{what} from {lo:g} to {hi:g}" if hi is not None else f"{what} >= {lo:g}"


def _ok(value, f) -> bool:
    if f.type == "bool":
        return isinstance(value, bool)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if f.type == "int" and not isinstance(value, int):
        return False
    if isinstance(value, int) and abs(value) > 1 << 63:  # 401 digits: float() and isfinite() would overflow
        return False
    if not math.isfinite(value):
        return False
    lo, hi = f.metadata["lo"], f.metadata["hi"]
    return (lo is None or value >= lo) and (hi is None or value <= hi)


class _Section:
    """A frozen dataclass read from one object of progress.json, field by field."""

    NAME = ""

    @classmethod
    def from_json(cls, data) -> tuple[_Section, list[str]]:
        """Read the section; returns (section, problems), one line per bad value (its default is used).
        A missing section or field is not a problem: it takes the default."""
        if data is None:
            return cls(), []
        if not isinstance(data, dict):
            return cls(), [f"{cls.NAME} is {_shown(data)}, expected an object; using the defaults"]
        values, problems = {}, []
        known = {f.name: f for f in fields(cls)}
        for key, value in data.items():
            f = known.get(key)
            if f is None:
                problems.append(f"{cls.NAME}.{key} is not an option here ({', '.join(known)}); ignored")
            elif _ok(value, f):
                values[key] = float(value) if f.type == "float" else value
            else:
                problems.append(f"{cls.NAME}.{key} is {_shown(value)}, expected {_want(f)}; "
                                f"using {_shown(f.default)}")
        return cls(**values), problems

    def to_json(self) -> dict:
        return asdict(self)


def _shown(value) -> str:
    s = json.dumps(value)
    return s if len(s) <= 30 else s[:27] + "..."


@dataclass(frozen=True)
class Options(_Section):
    NAME = "options"

    music: int = _field(7, 0, 10, "music volume in tenths")
    effects: int = _field(8, 0, 10, "sound effects volume in tenths")
    scale: int = _field(0, 0, MAX_SCALE, "window scale; 0 picks the largest that fits the screen")
    fullscreen: bool = _field(False, doc="start in fullscreen")
    shake: bool = _field(True, doc="the screen shakes on stomps, breaks and deaths")
    speed: int = _field(100, 50, 100, "assist: game speed in percent (100 = normal)")
    invincible: bool = _field(False, doc="assist: spikes, enemies and bullets do no harm (pits still do)")

    @property
    def assists(self) -> list[str]:
        """The assist options in use, in words ("70% speed", "invincible"); empty when none are."""
        return ([f"{self.speed}% speed"] if self.speed < 100 else []) + (["invincible"] if self.invincible else [])

    @property
    def volumes(self) -> tuple[float, float]:
        """(music, effects) as 0..1 for :meth:`game.window.audio.Audio.set_volumes`."""
        return self.music / 10, self.effects / 10


@dataclass(frozen=True)
class Totals(_Section):
    NAME = "totals"

    seconds: float = _field(0.0, 0.0, 1e10, "time played in levels, all attempts (s)")
    deaths: int = _field(0, 0, 10**9, "deaths in levels, all attempts")

    def plus(self, seconds: float, deaths: int) -> Totals:
        return Totals(round(self.seconds + seconds, 3), self.deaths + deaths)
