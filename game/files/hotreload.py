"""FeelWatcher: live reload of the feel file while the game runs.

Polls the file's (mtime, size) at most every ``interval`` seconds (0.25 s by default) and, when they
change, reads it and compares a content hash, so a touch without a change costs nothing and an editor
that rewrites the file with the same mtime granularity is still caught by its size or by F5.

    watcher = FeelWatcher("feel.toml", feel)        # feel: the values in use now (last good)
    new = watcher.poll()                            # each frame; FeelConfig on a good change, else None
    watcher.error                                   # one-line text of the last bad edit, None when fine
    new = watcher.reload()                          # F5: read now, whatever the timestamps say
    watcher.feel                                    # the last good FeelConfig

A bad edit never replaces the last good values: ``poll`` returns None, ``error`` holds the message
(show it on screen), and the next good save clears it and returns the new values.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from collections.abc import Callable

from engine import FeelConfig

from .feelfile import MAX_FEEL_BYTES, FeelFileError, parse_feel
from .userfiles import FileProblem, decode_text, read_bytes

__all__ = ["FeelWatcher"]


class FeelWatcher:
    def __init__(self, path: str | os.PathLike, feel: FeelConfig | None = None, *,
                 base: FeelConfig | None = None, interval: float = 0.25,
                 clock: Callable[[], float] = time.monotonic):
        """Watch ``path``. ``feel`` is the current (last good) config; if None the file is read now
        (a bad file then leaves the defaults in use and ``error`` set). ``base`` fills keys the file
        does not name (defaults: the engine's)."""
        self.path = Path(path)
        self.base = base
        self.interval = interval
        self._clock = clock
        self._next_check = clock() + interval
        self._stamp = self._stat()
        self._digest: bytes | None = None
        self._problem = ""  # why the last read failed
        self.error: str | None = None
        self.reloads = 0  # good reloads so far (handy for an on-screen "reloaded" flash)
        if feel is None:
            self.feel = base or FeelConfig()
            self._load(force=True)
        else:
            self.feel = feel
            data = self._read()
            self._digest = hashlib.sha1(data).digest() if data is not None else None

    # -- public ------------------------------------------------------------------------------------
    def poll(self, now: float | None = None) -> FeelConfig | None:
        """Cheap; call every frame. Returns the new FeelConfig after a good change, else None."""
        now = self._clock() if now is None else now
        if now < self._next_check:
            return None
        self._next_check = now + self.interval
        stamp = self._stat()
        if stamp == self._stamp:
            return None
        self._stamp = stamp
        return self._load(force=False)

    def reload(self) -> FeelConfig | None:
        """Read the file now (F5). Returns the FeelConfig if it is good (even if unchanged), else None."""
        self._stamp = self._stat()
        return self._load(force=True)

    def mark_saved(self, feel: FeelConfig) -> None:
        """The game itself just wrote ``feel`` to the file (panel save): adopt it without a reload."""
        self.feel = feel
        self.error = None
        self._stamp = self._stat()
        data = self._read()
        self._digest = hashlib.sha1(data).digest() if data is not None else None

    # -- private -----------------------------------------------------------------------------------
    def _stat(self):
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def _read(self) -> bytes | None:
        try:
            return read_bytes(self.path, "feel file", MAX_FEEL_BYTES)
        except FileProblem as exc:
            self._problem = str(exc)
            return None

    def _load(self, force: bool) -> FeelConfig | None:
        data = self._read()
        if data is None:  # gone, a FIFO, too big...: say why, keep playing with the last good values
            self.error = f"cannot read the feel file: {self._problem} (keeping the last good values)"
            self._digest = None
            return None
        digest = hashlib.sha1(data).digest()
        if digest == self._digest and not force:
            return None
        self._digest = digest
        try:
            text = decode_text(data, self.path, "feel file")
        except FileProblem as exc:
            self.error = f"{exc} (keeping the last good values)"
            return None
        try:
            feel = parse_feel(text, source=str(self.path), base=self.base)
        except FeelFileError as exc:
            self.error = str(exc)
            return None
        self.error = None
        self.feel = feel
        self.reloads += 1
        return feel
