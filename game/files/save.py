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
  A backup is written whole to a temp file and only then linked into place; a damaged save whose backup
  cannot be written whole (a full disk) is never replaced.
- Two games open on one save both keep their progress: each save re-reads the file under an advisory lock
  (``flock`` on the save's folder), adds the completions and totals played since this game last read it,
  keeps the better best time / coins / deaths and every unlocked level, and writes the merge.
- The save is written as compact JSON (one field a line, one level a line): a large field this version
  does not know goes back at the size it was read.
- A ``progress.json`` that is a symbolic link is neither read nor written through (one line says so); an
  unreadable one (permissions) is left as it is and never saved over.
Every such event is reported in one line.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import os
import stat
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .userfiles import FileProblem, decode_text, printable, read_bytes, size_text, write_atomic

try:
    import fcntl
except ImportError:  # Windows: saves are still atomic, but two games on one save are not merged
    fcntl = None

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
    # what the file held when this progress was last read or written (its JSON): a save adds what was
    # played since then to what the file holds now, so two games on one save both keep their completions
    base: dict | None = field(default=None, repr=False, compare=False)

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
    """A finite int or float; an integer of hundreds of digits is no number a save holds (and
    ``math.isfinite`` would raise OverflowError on it)."""
    if _is_int(v):
        return abs(v) <= 1 << 63
    return isinstance(v, float) and math.isfinite(v)


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
    with _locked(path.parent):  # another game's save in progress finishes first
        progress, msg = _load(path)
    return progress, (printable(" ".join(msg.split())) if msg else None)


def _load(path: Path) -> tuple[Progress, str | None]:
    _remove_orphans(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return Progress(base={}), f"no save yet; progress will be saved to {path}"
    except OSError as exc:
        return Progress(), f"cannot read save {path} ({exc.strerror or exc}); starting fresh"
    if stat.S_ISLNK(st.st_mode):  # its bytes may be anyone's file: never read, copied or written through
        return Progress(), (f"save {path} is a symbolic link; not reading or writing through it (put the "
                            "save itself there); progress will not be saved")
    if stat.S_ISREG(st.st_mode) and st.st_size > MAX_SAVE_BYTES:  # too big to read: move it aside whole
        return Progress(base={}), _corrupt(path, None, f"{st.st_size:,} bytes, larger than "
                                                       f"{size_text(MAX_SAVE_BYTES)}")
    try:
        raw = read_bytes(path, "save", MAX_SAVE_BYTES)
    except FileProblem as exc:
        if exc.missing:
            return Progress(base={}), f"no save yet; progress will be saved to {path}"
        if stat.S_ISREG(st.st_mode):  # unreadable (permissions): left as it is, never replaced
            return Progress(), (f"cannot read save ({exc}); starting fresh; the file is left as it is "
                                "and progress will not be saved over it")
        return Progress(base={}), f"cannot read save ({exc}); starting fresh"
    try:
        data = json.loads(decode_text(raw, path, "save"))
        progress, problems = Progress.from_json(data)
    except FileProblem as exc:
        return Progress(base={}), _corrupt(path, raw, str(exc).removeprefix(f"{path}: "))
    except (ValueError, TypeError, RecursionError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return Progress(base={}), _corrupt(path, raw, reason[:120])
    progress.base = json.loads(json.dumps(progress.to_json()))  # a copy (deepcopy recurses in Python)
    if data["version"] > VERSION:
        kept = _backup(path, raw)
        return progress, (f"save {path} was written by a newer version of the game (version "
                          f"{_shown(data['version'])}); kept what this version reads, and a copy {kept}")
    if problems:
        kept = _backup(path, raw)
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return progress, f"save {path}: dropped {problems[0]}{more}; kept the rest, and the original {kept}"
    return progress, None


@contextlib.contextmanager
def _locked(folder: Path):
    """Hold an advisory lock (``flock``) on the save's folder: one game at a time reads, merges and
    writes the save. Without ``fcntl`` (Windows) or a folder yet, nothing is locked."""
    fd = None
    if fcntl is not None:
        try:
            fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            if fd is not None:
                os.close(fd)
            fd = None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # releases the lock


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
    existing backup -- unless one already holds exactly these bytes. Returns "kept as NAME" or, when no
    whole copy could be made (a full disk), "could not keep a copy (why)": a backup is written to a
    temporary file and linked into place only once complete, so a cut backup never exists."""
    tmp = None
    try:
        if raw is not None:
            for bak in _backups(path):
                if bak.is_file() and bak.stat().st_size == len(raw) and bak.read_bytes() == raw:
                    return f"kept as {bak}"
            fd, tmp = tempfile.mkstemp(prefix=f"{path.name}.bak.", suffix=".tmp", dir=path.parent)
            with os.fdopen(fd, "wb") as f:
                f.write(raw)
                f.flush()
                os.fsync(f.fileno())
        for bak in _backups(path):
            try:
                os.link(tmp if raw is not None else path, bak)  # fails on an existing name: no clobbering
            except FileExistsError:
                continue
            if raw is None:  # too big to have been read: the file itself moves
                os.unlink(path)
            return f"kept as {bak}"
        return "could not keep a copy (too many backups)"
    except OSError as err:
        return f"could not keep a copy ({err.strerror or err})"
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _backups(path: Path):
    for n in range(1, 10_000):
        yield path.with_name(path.name + (".bak" if n == 1 else f".bak.{n}"))


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
    """Write the save, merged with what the file holds now. Returns None on success, else a one-line
    reason (the game keeps running).

    Under the folder lock: re-read the file, add what was played since ``progress.base`` (completions,
    totals) to it, keep the better best times / coins / deaths and every unlocked level, write it
    atomically, and update ``progress`` to the merged save (so a second game's completions show).
    A file that does not read cleanly is backed up whole first -- if that fails it is not replaced.
    A symbolic link, a folder or an unreadable file is left as it is."""
    path = Path(path) if path else save_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot save progress to {path} ({exc.strerror or exc})"
    with _locked(path.parent):
        try:
            return _save(progress, path)
        except OSError as exc:
            return f"cannot save progress to {path} ({exc.strerror or exc})"
        except FileProblem as exc:  # "PATH: cannot write the progress (No space left on device)"
            return str(exc)


def _save(progress: Progress, path: Path) -> str | None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    disk = None
    if st is not None:
        if stat.S_ISLNK(st.st_mode):
            return (f"{path}: the save is a symbolic link; not writing through it (put the save itself "
                    "there); progress not saved")
        if stat.S_ISDIR(st.st_mode):
            return f"{path}: is a folder; cannot save progress there"
        if not stat.S_ISREG(st.st_mode):  # a FIFO or a socket holds no progress
            path.unlink()
        elif st.st_size > MAX_SAVE_BYTES:
            kept = _backup(path, None)
            if kept.startswith("could not"):
                return f"cannot save progress to {path}: it is over {size_text(MAX_SAVE_BYTES)} and {kept}"
        else:
            try:
                raw = read_bytes(path, "save", MAX_SAVE_BYTES)
            except FileProblem as exc:
                return f"cannot save progress ({exc}); the file is left as it is"
            disk, clean = _parse(raw, path)
            if not clean:
                kept = _backup(path, raw)
                if kept.startswith("could not"):
                    why = kept.removeprefix("could not keep a copy ")
                    return (f"cannot save progress to {path}: it holds a damaged or newer save, and a whole "
                            f"copy of it could not be kept first {why}; it is left as it is")
    merged = _merge(progress, disk)
    doc = merged.to_json()
    text = _dumps(doc)
    size = len(text.encode("utf-8"))
    if size > MAX_SAVE_BYTES:
        theirs = size - len(_dumps(Progress(merged.unlocked, merged.levels).to_json()).encode("utf-8"))
        return (f"cannot save progress to {path}: the save would be {size:,} bytes, over the "
                f"{size_text(MAX_SAVE_BYTES)} limit ({theirs:,} of them in fields this version does not "
                "know or in options/totals); the file is left as it is")
    write_atomic(path, text, "progress")
    progress.unlocked, progress.levels = merged.unlocked, merged.levels
    progress.options, progress.totals, progress.extra = merged.options, merged.totals, merged.extra
    progress.base = json.loads(text)
    return None


def _parse(raw: bytes, path: Path) -> tuple[Progress | None, bool]:
    """The save on disk for a merge: (progress or None, whether it read cleanly)."""
    try:
        data = json.loads(decode_text(raw, path, "save"))
        disk, problems = Progress.from_json(data)
    except (FileProblem, ValueError, TypeError, RecursionError):
        return None, False
    return disk, not problems and data["version"] <= VERSION


def _merge(mine: Progress, disk: Progress | None) -> Progress:
    """``disk`` plus what ``mine`` changed since ``mine.base``."""
    if disk is None:
        return Progress(set(mine.unlocked), {k: copy.copy(v) for k, v in mine.levels.items()},
                        mine.options, mine.totals, dict(mine.extra))
    base, _ = Progress.from_json(mine.base) if mine.base else (Progress(), [])
    out = Progress(disk.unlocked | mine.unlocked, {}, _changed(mine.options, base.options, disk.options),
                   _merge_totals(mine.totals, base.totals, disk.totals),
                   _merge_extra(mine.extra, base.extra, disk.extra))
    for name in sorted(set(disk.levels) | set(mine.levels)):
        d, m, b = disk.levels.get(name), mine.levels.get(name), base.levels.get(name) or LevelRecord()
        if m is None or d is None:
            out.levels[name] = copy.copy(m or d)
            continue
        out.levels[name] = LevelRecord(
            best_time=_least(d.best_time, m.best_time), best_coins=max(d.best_coins, m.best_coins),
            best_deaths=_least(d.best_deaths, m.best_deaths),
            completions=min(MAX_COUNT, d.completions + max(0, m.completions - b.completions)),
            extra=_merge_extra(m.extra, b.extra, d.extra))
    return out


def _least(a, b):
    return b if a is None else a if b is None else min(a, b)


def _changed(mine, base, disk):
    """``mine`` if this game changed it since it read the file, else what the file holds now."""
    return mine if mine != base else disk


def _merge_extra(mine: dict, base: dict, disk: dict) -> dict:
    out = dict(disk)
    for key, value in mine.items():
        if key not in disk or value != base.get(key):
            out[key] = value
    return out


def _merge_totals(mine, base, disk):
    """Totals add up: the file's, plus what this game played since it read the file."""
    if not (isinstance(mine, dict) and isinstance(disk, dict)):
        return _changed(mine, base, disk)
    base = base if isinstance(base, dict) else {}
    out = _merge_extra(mine, base, disk)
    for key, value in mine.items():
        was, now = base.get(key, 0), disk.get(key)
        if now is None or value == was or not all(_is_number(v) for v in (value, was, now)):
            continue
        total = now + (value - was)
        out[key] = round(total, 3) if isinstance(total, float) else total
    return out


def _dumps(doc: dict) -> str:
    """The save as JSON: one top-level field a line, one level a line, each value compact -- a field
    this version does not know is written back at the size it was read (not indented into megabytes)."""
    def one(v) -> str:
        return json.dumps(v, separators=(",", ":"))

    lines = []
    for key, value in doc.items():
        if key == "levels" and isinstance(value, dict) and value:
            inner = ",\n".join(f"    {one(name)}: {one(rec)}" for name, rec in value.items())
            lines.append(f"  {one(key)}: {{\n{inner}\n  }}")
        else:
            lines.append(f"  {one(key)}: {one(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"
