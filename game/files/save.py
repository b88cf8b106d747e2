"""Player progress: unlocked levels, best times and coins, saved as JSON in the user's data directory.

Where: ``$TILEFEEL_DATA_DIR`` if set (tests use this), else ``%APPDATA%\\tilefeel`` on Windows, else
``$XDG_DATA_HOME/tilefeel`` or ``~/.local/share/tilefeel``. The file is ``progress.json``.

Nothing is ever lost:
- Writes are atomic (a temp file in the same folder, then ``os.replace``): a crash or a full disk mid-write
  leaves the complete old save. Temp files orphaned by a killed game are removed at the next start.
- Fields this version does not know (a save from a newer version, a section added later) are kept and
  written back as they were read: top-level ones in ``Progress.extra``, per-level ones in
  ``LevelRecord.extra``. To add a section, give ``Progress`` a field, read it in ``from_json`` and write it
  in ``to_json``; everything else round-trips by itself.
- A save that is partly wrong (a bad best time, an odd entry) is salvaged: what is readable is kept, the
  rest dropped, and the original is copied to a backup first. A save that cannot be read at all is moved
  to a backup and the game starts fresh. Backups are never overwritten: ``progress.json.bak``, then
  ``progress.json.bak.2``, ``.bak.3``... (a save identical to an existing backup is not copied again).
Every such event is reported in one line.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .userfiles import FileProblem, decode_text, printable, read_bytes, size_text, write_atomic

__all__ = ["APP_NAME", "data_dir", "Progress", "LevelRecord", "load_progress", "save_progress", "save_path",
           "MAX_SAVE_BYTES"]

APP_NAME = "tilefeel"
VERSION = 1
MAX_SAVE_BYTES = 1 << 20  # a save is read only up to this size
ORPHAN_AGE = 60.0  # s; a temp file older than this is left over from a killed game, not a save in progress


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
    extra: dict = field(default_factory=dict)  # fields this version does not know, written back as read

    def to_json(self) -> dict:
        return {"best_time": self.best_time, "best_coins": self.best_coins, "best_deaths": self.best_deaths,
                "completions": self.completions, **self.extra}


@dataclass
class Progress:
    unlocked: set[str] = field(default_factory=set)  # level file names
    levels: dict[str, LevelRecord] = field(default_factory=dict)
    # profile sections, kept as plain JSON here; game/rules/profile.py reads and checks them
    options: object = None
    totals: object = None
    extra: dict = field(default_factory=dict)  # top-level fields this version does not know, kept as read

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
        sections = {k: v for k, v in (("options", self.options), ("totals", self.totals)) if v is not None}
        return {"version": VERSION, "unlocked": sorted(self.unlocked),
                "levels": {name: rec.to_json() for name, rec in sorted(self.levels.items())},
                **sections, **self.extra}

    @classmethod
    def from_json(cls, data) -> tuple[Progress, list[str]]:
        """Build from a parsed save, salvaging what is readable: returns the progress and the list of what
        was dropped (one short phrase each). Raises ValueError when it is not a save at all (not an
        object, or no whole-number ``version``)."""
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        version = data.get("version")
        if not (_is_int(version) and version >= 1):  # "version": true is no version
            raise ValueError(f"\"version\" is {_shown(version)}, expected a whole number >= 1")
        problems: list[str] = []
        known = ("version", "unlocked", "levels", "options", "totals")
        out = cls(unlocked=_read_unlocked(data.get("unlocked", []), problems),
                  levels=_read_levels(data.get("levels", {}), problems),
                  options=data.get("options"), totals=data.get("totals"),
                  extra={k: v for k, v in data.items() if k not in known})
        return out, problems


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)


def _shown(value) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _read_unlocked(value, problems: list[str]) -> set[str]:
    if not isinstance(value, list):
        problems.append(f"\"unlocked\" is {_shown(value)}, expected a list of level file names")
        return set()
    bad = [u for u in value if not (isinstance(u, str) and u)]
    if bad:
        problems.append(f"\"unlocked\" holds {_shown(bad[0])}, not a level file name")
    return {u for u in value if isinstance(u, str) and u}


def _read_levels(value, problems: list[str]) -> dict[str, LevelRecord]:
    if not isinstance(value, dict):
        problems.append(f"\"levels\" is {_shown(value)}, expected an object")
        return {}
    out = {}
    for name, rec in value.items():
        if isinstance(rec, dict):
            out[name] = _read_record(name, rec, problems)
        else:
            problems.append(f"levels[{name!r}] is {_shown(rec)}, expected an object")
    return out


MAX_TIME = 1e7  # s (about 116 days): a longer best time is corrupt, and would not fit the screen
MAX_COUNT = 10**9  # coins, deaths, completions

#: each known field of a level record: (check, what it must be)
_FIELDS = {
    "best_time": (lambda v: v is None or (_is_number(v) and 0 < v <= MAX_TIME),
                  f"a positive number of seconds up to {MAX_TIME:g}, or null"),
    "best_coins": (lambda v: _is_int(v) and 0 <= v <= MAX_COUNT, "a whole number >= 0"),
    "best_deaths": (lambda v: v is None or (_is_int(v) and 0 <= v <= MAX_COUNT), "a whole number >= 0 or null"),
    "completions": (lambda v: _is_int(v) and 0 <= v <= MAX_COUNT, "a whole number >= 0"),
}


def _read_record(name: str, rec: dict, problems: list[str]) -> LevelRecord:
    """One level's record: a field with a wrong value is dropped (and named in ``problems``), unknown
    fields are kept in ``extra``."""
    out = LevelRecord(extra={k: v for k, v in rec.items() if k not in _FIELDS})
    for key, (ok, want) in _FIELDS.items():
        if key not in rec:
            continue
        v = rec[key]
        if not ok(v):
            problems.append(f"levels[{name!r}].{key} is {_shown(v)}, expected {want}")
            continue
        setattr(out, key, float(v) if key == "best_time" and v is not None else v)
    return out


def load_progress(path: Path | None = None) -> tuple[Progress, str | None]:
    """Read the save. Returns ``(progress, message)``; ``message`` is one line when something was off
    (no save yet, a salvaged or a corrupt one, a newer version's), else None. Never raises."""
    path = Path(path) if path else save_path()
    progress, msg = _load(path)
    return progress, (printable(" ".join(msg.split())) if msg else None)


def _load(path: Path) -> tuple[Progress, str | None]:
    _remove_orphans(path)
    try:
        raw = read_bytes(path, "save", MAX_SAVE_BYTES)
    except FileProblem as exc:
        if exc.missing:
            return Progress(), f"no save yet; progress will be saved to {path}"
        if path.is_file():  # too big to read: move it aside whole
            return Progress(), _corrupt(path, None, f"larger than {size_text(MAX_SAVE_BYTES)}")
        return Progress(), f"cannot read save ({exc}); starting fresh"
    try:
        data = json.loads(decode_text(raw, path, "save"))
        progress, problems = Progress.from_json(data)
    except FileProblem as exc:
        return Progress(), _corrupt(path, raw, str(exc).removeprefix(f"{path}: "))
    except (ValueError, TypeError, RecursionError) as exc:
        return Progress(), _corrupt(path, raw, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    if data["version"] > VERSION:
        kept = _backup(path, raw)
        return progress, (f"save {path} was written by a newer version of the game (version {data['version']}); "
                          f"kept what this version reads, and a copy {kept}")
    if problems:
        kept = _backup(path, raw)
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return progress, f"save {path}: dropped {problems[0]}{more}; kept the rest, and the original {kept}"
    return progress, None


def _corrupt(path: Path, raw: bytes | None, reason: str) -> str:
    """Move an unreadable save to a backup (``raw``: its bytes, or None to move it unread) and say so."""
    kept = _backup(path, raw)
    if raw is not None and not kept.startswith("could not"):
        try:
            os.unlink(path)
        except OSError:
            pass
    return f"save {path} is corrupt ({reason}); {kept}; starting fresh"


def _backup(path: Path, raw: bytes | None) -> str:
    """Keep the save's bytes under the first free ``progress.json.bak[.N]`` name -- never over an
    existing backup -- unless one already holds exactly these bytes. Returns "kept as NAME" or why not."""
    for n in range(1, 10_000):
        bak = path.with_name(path.name + (".bak" if n == 1 else f".bak.{n}"))
        try:
            if raw is None:  # too big to have been read: move the file itself, refusing to clobber
                os.link(path, bak)
                os.unlink(path)
            else:
                if bak.is_file() and bak.stat().st_size == len(raw) and bak.read_bytes() == raw:
                    return f"kept as {bak}"
                with open(bak, "xb") as f:
                    f.write(raw)
                    f.flush()
                    os.fsync(f.fileno())
            return f"kept as {bak}"
        except FileExistsError:
            continue
        except OSError as err:
            return f"could not keep a copy ({err.strerror or err})"
    return "could not keep a copy (too many backups)"


def _remove_orphans(path: Path) -> None:
    """Temp files (``progress.json.XXXX.tmp``) left by a game killed mid-save; fresh ones may be another
    running game's save in progress and are left alone."""
    now = time.time()
    try:
        for tmp in path.parent.glob(f"{path.name}.*.tmp"):
            try:
                if now - tmp.stat().st_mtime > ORPHAN_AGE:
                    tmp.unlink()
            except OSError:
                pass
    except OSError:
        pass


def save_progress(progress: Progress, path: Path | None = None) -> str | None:
    """Write atomically. Returns None on success, else a one-line reason (the game keeps running)."""
    path = Path(path) if path else save_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and not (path.is_file() or path.is_dir()):  # a FIFO or a socket holds no progress
            path.unlink()
        write_atomic(path, json.dumps(progress.to_json(), indent=2) + "\n", "progress")
        return None
    except OSError as exc:
        return f"cannot save progress to {path} ({exc.strerror or exc})"
    except FileProblem as exc:  # "PATH: cannot write the progress (No space left on device)"
        return str(exc)
