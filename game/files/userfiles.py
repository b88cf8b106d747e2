"""The player's and designer's files, read and written safely.

Reading accepts regular files only (a FIFO, a device, a socket or a folder is refused at once instead of
hanging or reading forever; ``/dev/null`` reads as empty), never reads more than the caller's size cap,
and decodes UTF-8 with or without a byte-order mark. Writing is whole-or-nothing: the data goes to a
temporary file in the same folder, which replaces the target only once it is complete, so a full disk or
a crash never leaves a half-written file under the final name. Every problem is a :class:`FileProblem`
whose text is one line naming the file. ``shown`` quotes file text for such a line (escaped, cut short).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import tomllib
from pathlib import Path

__all__ = ["CliError", "FileProblem", "read_bytes", "read_text", "decode_text", "parse_toml", "write_atomic",
           "atomic_output", "printable", "shown", "size_text"]

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class CliError(Exception):
    """A user-facing problem with what was asked on the command line (one line, names the file): the error
    every layer may raise up to ``game/cli.py``, which prints it as ``error: ...`` with exit code 2."""


class FileProblem(Exception):
    """A file that cannot be read or written as asked; ``str()`` is one line naming the file.
    ``missing`` is True when the file does not exist (callers may want to treat that as "use defaults")."""

    def __init__(self, message: str, *, missing: bool = False):
        super().__init__(message)
        self.missing = missing


def size_text(n: int) -> str:
    """``1 MB``, ``64 KB``, ``300 bytes``: a size cap as the docs spell it."""
    for unit, size in (("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def printable(text: str) -> str:
    """``text`` with control and other unprintable characters escaped (``\\x1b``), for a message line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a one-line message: control and other unprintable characters escaped (a NUL
    shows as ``\\x00``), cut to ``limit`` characters with ``...`` after it."""
    text = str(text)
    if len(text) > limit:
        return repr(text[:limit]) + "..."
    return repr(text)


def _a(what: str) -> str:
    return f"an {what}" if what[:1] in "aeiou" else f"a {what}"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _is_devnull(st: os.stat_result) -> bool:
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return (st.st_dev, st.st_ino) == (null.st_dev, null.st_ino) or (
        stat.S_ISCHR(st.st_mode) and st.st_rdev == null.st_rdev)


def read_bytes(path: str | os.PathLike, what: str, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (a ``what`` such as "feel file"), at most ``limit`` of them.

    Opens without blocking (a FIFO with no writer does not hang), checks the opened file is a regular
    file, and refuses one larger than ``limit`` before reading it. Raises :class:`FileProblem`.
    """
    path = Path(path)
    try:
        fd = os.open(path, _READ_FLAGS)
    except FileNotFoundError:
        raise FileProblem(f"{path}: {what} not found", missing=True) from None
    except IsADirectoryError:
        raise FileProblem(f"{path}: is a folder, not {_a(what)}") from None
    except OSError as exc:
        raise FileProblem(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            if _is_devnull(st):
                return b""
            raise FileProblem(f"{path}: is {_kind(st.st_mode)}, not {_a(what)}; give a file saved on disk")
        if st.st_size > limit:
            raise FileProblem(f"{path}: the {what} is {size_text(st.st_size)}, over the {size_text(limit)} "
                              f"limit for {_a(what)}")
        chunks, left = [], limit + 1
        while left > 0:  # a file growing while it is read still stops at the cap
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise FileProblem(f"{path}: the {what} is over the {size_text(limit)} limit for {_a(what)}")
        return data
    except OSError as exc:
        raise FileProblem(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def decode_text(data: bytes, path: str | os.PathLike, what: str) -> str:
    """UTF-8 text (a leading byte-order mark dropped); a bad byte is named by line and offset."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FileProblem(f"{path}: line {line}: the {what} is not UTF-8 text (byte 0x{data[exc.start]:02x} "
                          f"at offset {exc.start}); save it as UTF-8") from None


def read_text(path: str | os.PathLike, what: str, limit: int) -> str:
    """:func:`read_bytes` decoded as UTF-8 (see :func:`decode_text`)."""
    return decode_text(read_bytes(path, what, limit), path, what)


_AT_LINE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_AT_EOF = re.compile(r"\s*\(at end of document\)\s*$")


def parse_toml(text: str, source: str) -> dict:
    """TOML text (a BOM allowed) as a dict. Any problem is a :class:`FileProblem` with one line:
    ``SOURCE: line N: TOML syntax error: ... (column C)``; also for brackets nested hundreds deep
    (tomllib would overflow the stack) and a number of thousands of digits."""
    text = text.removeprefix("\ufeff")  # one mark; a second is a stray character, as in any TOML reader
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc).splitlines()[0] if str(exc) else "invalid TOML"
        m = _AT_LINE.search(msg)
        if m:
            raise FileProblem(f"{source}: line {m.group(1)}: TOML syntax error: {_AT_LINE.sub('', msg)} "
                              f"(column {m.group(2)})") from None
        if _AT_EOF.search(msg):
            last = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
            raise FileProblem(f"{source}: line {last}: TOML syntax error: {_AT_EOF.sub('', msg)} "
                              "(at end of file)") from None
        raise FileProblem(f"{source}: TOML syntax error: {msg}") from None
    except RecursionError:
        raise FileProblem(f"{source}: TOML nested too deeply (hundreds of brackets inside each other)") from None
    except ValueError:  # int() of more than 4,300 digits
        raise FileProblem(f"{source}: TOML holds a number thousands of digits long") from None


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike, what: str, *, binary: bool = False):
    """``with atomic_output(path, "trace") as f: f.write(...)``: a file object on a temporary file beside
    ``path`` (``NAME.XXXX.tmp``) that replaces ``path`` when the block ends without an error (flushed and
    synced first). On any error the temporary file is removed and ``path`` is untouched; an ``OSError``
    (a full disk, a missing folder, no permission) becomes a :class:`FileProblem` naming ``path``.
    An existing device (``/dev/null``, a terminal) is written to directly; a FIFO or a socket is refused
    (opening it would wait for a reader)."""
    path = Path(path)
    opts = {} if binary else {"encoding": "utf-8", "newline": ""}
    tmp = None
    try:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            st = None
        if st is not None and (stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)):
            with open(path, "wb" if binary else "w", **opts) as f:  # /dev/null, a terminal
                yield f
            return
        if st is not None and not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
            raise FileProblem(f"{path}: is {_kind(st.st_mode)}; give a file name for the {what}")
        fd, tmp = tempfile.mkstemp(prefix=f"{path.name}.", suffix=".tmp", dir=path.parent)
        os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else _new_file_mode())
        with os.fdopen(fd, "wb" if binary else "w", **opts) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise FileProblem(f"{path}: cannot write the {what} ({exc.strerror or exc})") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _new_file_mode() -> int:
    """What ``open(path, "w")`` would give a new file (mkstemp's own 0600 would surprise a user)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: str | os.PathLike, data: str | bytes, what: str) -> None:
    """Write all of ``data`` to ``path`` or nothing (see :func:`atomic_output`). Raises FileProblem."""
    with atomic_output(path, what, binary=isinstance(data, bytes)) as f:
        f.write(data)
