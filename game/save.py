"""Player progress: unlocked levels, best times and coins, saved as JSON in the user's data directory.

Where: ``$TILEFEEL_DATA_DIR`` if set (tests use this), else ``%APPDATA%\\tilefeel`` on Windows, else
``$XDG_DATA_HOME/tilefeel`` or ``~/.local/share/tilefeel``. The file is ``progress.json``.

Writes are atomic (a temp file in the same folder, then ``os.replace``), so a crash mid-write never leaves a
half-written save. A missing save starts fresh; a corrupt one is reported in one line, kept as
``progress.json.bak`` and the game starts fresh.
"""

from __future__ import annotations

import json
import math
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["APP_NAME", "data_dir", "Progress", "LevelRecord", "load_progress", "save_progress", "save_path"]

APP_NAME = "tilefeel"
VERSION = 1


def data_dir() -> Path:
    """The folder holding the save (created on first save, not here)."""
    env = os.environ.get("TILEFEEL_DATA_DIR")
    if env:
        return Path(env)
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
        return Path(base) / APP_NAME
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_NAME


def save_path() -> Path:
    return data_dir() / "progress.json"


@dataclass
class LevelRecord:
    best_time: float | None = None  # s, fastest completion
    best_coins: int = 0  # most coins collected in one completion
    best_deaths: int | None = None  # fewest deaths in one completion
    completions: int = 0


@dataclass
class Progress:
    unlocked: set[str] = field(default_factory=set)  # level file names
    levels: dict[str, LevelRecord] = field(default_factory=dict)
    # profile sections, kept as plain JSON here; game/profile.py reads and checks them
    options: object = None
    totals: object = None

    def record(self, level: str) -> LevelRecord:
        return self.levels.get(level) or LevelRecord()

    def is_unlocked(self, level: str, first: str | None = None) -> bool:
        return level == first or level in self.unlocked

    def complete(self, level: str, time_s: float, coins: int, deaths: int, next_level: str | None) -> bool:
        """Record a completion; unlock ``next_level``. Returns True if ``time_s`` is a new best time."""
        rec = self.levels.setdefault(level, LevelRecord())
        new_best = rec.best_time is None or time_s < rec.best_time
        if new_best:
            rec.best_time = round(time_s, 3)
        rec.best_coins = max(rec.best_coins, coins)
        rec.best_deaths = deaths if rec.best_deaths is None else min(rec.best_deaths, deaths)
        rec.completions += 1
        self.unlocked.add(level)
        if next_level:
            self.unlocked.add(next_level)
        return new_best

    # -- JSON ------------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        out = {"version": VERSION, "unlocked": sorted(self.unlocked),
               "levels": {name: vars(rec) for name, rec in sorted(self.levels.items())}}
        out.update({k: v for k, v in (("options", self.options), ("totals", self.totals)) if v is not None})
        return out

    @classmethod
    def from_json(cls, data) -> Progress:
        """Build from a parsed save, checking every field's type and range; raises ValueError naming the
        first field that is wrong (so a save that loads never crashes a scene later)."""
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ValueError(f"expected an object with \"version\": {VERSION}")
        unlocked = data.get("unlocked", [])
        levels = data.get("levels", {})
        if not isinstance(unlocked, list) or not all(isinstance(u, str) and u for u in unlocked):
            raise ValueError("\"unlocked\" must be a list of level file names")
        if not isinstance(levels, dict):
            raise ValueError("\"levels\" must be an object")
        out = cls(unlocked=set(unlocked), options=data.get("options"), totals=data.get("totals"))
        for name, rec in levels.items():
            if not isinstance(rec, dict):
                raise ValueError(f"levels[{name!r}] must be an object")
            out.levels[name] = _record_from_json(name, rec)
        return out


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)


def _record_from_json(name: str, rec: dict) -> LevelRecord:
    """One level's record, each field checked: best_time a positive number or null; best_coins and
    completions whole numbers >= 0; best_deaths a whole number >= 0 or null."""
    known = {"best_time", "best_coins", "best_deaths", "completions"}
    unknown = sorted(set(rec) - known)
    if unknown:
        raise ValueError(f"levels[{name!r}]: unknown field {unknown[0]!r}")

    def bad(key: str, want: str) -> ValueError:
        shown = json.dumps(rec[key])
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        return ValueError(f"levels[{name!r}].{key} is {shown}, expected {want}")

    out = LevelRecord()
    if "best_time" in rec:
        v = rec["best_time"]
        if v is not None and not (_is_number(v) and v > 0):
            raise bad("best_time", "a positive number of seconds or null")
        out.best_time = None if v is None else float(v)
    for key in ("best_coins", "completions"):
        if key in rec:
            v = rec[key]
            if not (_is_int(v) and v >= 0):
                raise bad(key, "a whole number >= 0")
            setattr(out, key, v)
    if "best_deaths" in rec:
        v = rec["best_deaths"]
        if v is not None and not (_is_int(v) and v >= 0):
            raise bad("best_deaths", "a whole number >= 0 or null")
        out.best_deaths = v
    return out


def load_progress(path: Path | None = None) -> tuple[Progress, str | None]:
    """Read the save. Returns ``(progress, message)``; ``message`` is one line when something was off
    (missing save, or a corrupt one moved aside to ``.bak``), else None. Never raises."""
    path = Path(path) if path else save_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Progress(), f"no save yet; progress will be saved to {path}"
    except OSError as exc:
        return Progress(), f"cannot read save {path} ({exc.strerror or exc}); starting fresh"
    try:
        return Progress.from_json(json.loads(raw.decode("utf-8"))), None
    except UnicodeDecodeError as exc:
        return _set_aside(path, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at offset {exc.start}")
    except (ValueError, TypeError, RecursionError) as exc:
        return _set_aside(path, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)


def _set_aside(path: Path, reason: str) -> tuple[Progress, str]:
    """Keep a corrupt save as ``.bak`` and start fresh, with one line saying what was wrong."""
    bak = path.with_name(path.name + ".bak")
    try:
        os.replace(path, bak)
        kept = f"kept as {bak}"
    except OSError as err:
        kept = f"could not keep it as .bak ({err.strerror or err})"
    return Progress(), f"save {path} is corrupt ({reason}); {kept}; starting fresh"


def save_progress(progress: Progress, path: Path | None = None) -> str | None:
    """Write atomically. Returns None on success, else a one-line reason (the game keeps running)."""
    path = Path(path) if path else save_path()
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(progress.to_json(), f, indent=2)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return None
    except OSError as exc:
        if tmp:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return f"cannot save progress to {path} ({exc.strerror or exc})"
