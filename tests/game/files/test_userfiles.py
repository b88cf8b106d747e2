"""Reading and writing user files: regular files only, size caps, UTF-8 with a BOM, whole-or-nothing writes."""

import errno
import os
import stat
from pathlib import Path

import pytest

from game.files import userfiles
from game.files.userfiles import FileProblem, atomic_output, read_bytes, read_text, shown, write_atomic

posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev files are POSIX")


def test_a_regular_file_reads_whole(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes(b"hello")
    assert read_bytes(f, "input script", 100) == b"hello"


def test_a_missing_file_says_so_and_is_flagged(tmp_path):
    with pytest.raises(FileProblem, match=r"nope\.txt: input script not found") as err:
        read_bytes(tmp_path / "nope.txt", "input script", 100)
    assert err.value.missing


@posix_only
def test_a_fifo_is_refused_at_once_instead_of_hanging(tmp_path):
    fifo = tmp_path / "level.tmx"
    os.mkfifo(fifo)  # no writer: a plain open() would block forever
    with pytest.raises(FileProblem, match=r"is a FIFO \(named pipe\), not a map file"):
        read_bytes(fifo, "map file", 100)


@posix_only
def test_dev_zero_is_refused_and_dev_null_reads_empty():
    with pytest.raises(FileProblem, match="is a device"):
        read_bytes("/dev/zero", "feel file", 100)
    assert read_bytes(os.devnull, "input script", 100) == b""


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(FileProblem, match="folder"):
        read_bytes(tmp_path, "feel file", 100)


def test_a_file_over_the_cap_is_refused_before_reading(tmp_path):
    f = tmp_path / "big.txt"
    f.write_bytes(b"x" * 2048)
    with pytest.raises(FileProblem, match=r"is 2 KB, over the 1 KB limit for a controls file"):
        read_bytes(f, "controls file", 1024)


def test_text_accepts_a_bom_and_names_the_line_of_a_bad_byte(tmp_path):
    f = tmp_path / "a.toml"
    f.write_bytes("\ufeff[jump]\nheight = 50\n".encode())
    assert read_text(f, "feel file", 100) == "[jump]\nheight = 50\n"
    f.write_bytes(b'[keyboard]\njump = ["\xe9"]\n')  # Latin-1
    with pytest.raises(FileProblem, match=r"a\.toml: line 2: the feel file is not UTF-8 text \(byte 0xe9"):
        read_text(f, "feel file", 100)


def test_shown_escapes_control_characters_and_cuts_long_text():
    assert shown("a\x00b") == "'a\\x00b'"
    assert shown("é") == "'é'"
    assert shown("x" * 100, 5) == "'xxxxx'..."


def test_atomic_write_replaces_whole_and_keeps_the_usual_permissions(tmp_path):
    f = tmp_path / "out.txt"
    write_atomic(f, "one\n", "recording")
    write_atomic(f, "two\n", "recording")
    assert f.read_text() == "two\n" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    if os.name == "posix":
        mask = os.umask(0)
        os.umask(mask)
        assert stat.S_IMODE(f.stat().st_mode) == 0o666 & ~mask


def test_a_full_disk_mid_write_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    f = tmp_path / "trace.csv"
    f.write_text("old\n")
    with pytest.raises(FileProblem) as err:
        with atomic_output(f, "trace") as out:
            out.write("new\n")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert str(err.value) == f"{f}: cannot write the trace (No space left on device)"
    assert f.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["trace.csv"]


def test_a_failing_fsync_is_a_full_disk_too(tmp_path, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(userfiles.os, "fsync", full)
    with pytest.raises(FileProblem, match="No space left"):
        write_atomic(tmp_path / "rec.txt", "1 right\n", "recording")
    assert list(tmp_path.iterdir()) == []


def test_a_missing_folder_names_the_target(tmp_path):
    with pytest.raises(FileProblem, match=r"no_dir/t\.csv: cannot write the trace"):
        write_atomic(tmp_path / "no_dir" / "t.csv", "x", "trace")


@posix_only
def test_an_existing_device_is_written_directly():
    write_atomic(os.devnull, "discarded\n", "trace")  # not replaced by a regular file, even as root
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@posix_only
def test_a_fifo_as_an_output_is_refused_instead_of_waiting_for_a_reader(tmp_path):
    fifo = tmp_path / "trace.csv"
    os.mkfifo(fifo)
    with pytest.raises(FileProblem, match=r"is a FIFO \(named pipe\); give a file name for the trace"):
        write_atomic(fifo, "x", "trace")


@posix_only
def test_a_symlink_as_an_output_is_refused_and_the_file_it_points_to_is_untouched(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("keep me\n")
    link = tmp_path / "route.txt"
    link.symlink_to(secret)
    with pytest.raises(FileProblem) as err:
        write_atomic(link, "overwritten\n", "route")
    assert str(err.value) == (f"{link}: is a symbolic link; refusing to write the route through it "
                              "(give the real file's name)")
    assert secret.read_text() == "keep me\n" and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["route.txt", "secret.txt"]


@posix_only
def test_a_device_other_than_dev_null_is_refused(tmp_path):
    with pytest.raises(FileProblem, match=r"^/dev/zero: is a device; give a file name for the screenshot$"):
        write_atomic("/dev/zero", b"x", "screenshot")


def test_a_folder_as_an_output_is_refused_in_one_line(tmp_path):
    with pytest.raises(FileProblem, match=r"is a folder; give a file name for the trace$"):
        write_atomic(tmp_path, "x", "trace")


def test_an_interrupt_mid_write_leaves_the_old_file_and_no_temp(tmp_path):
    f = tmp_path / "save.json"
    f.write_text("old\n")
    with pytest.raises(KeyboardInterrupt):
        with atomic_output(f, "progress") as out:
            out.write("new")
            raise KeyboardInterrupt
    assert f.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_a_settled_read_waits_out_a_file_being_written(tmp_path):
    f = tmp_path / "feel.toml"
    f.write_text("[jump]\nheight = 4")  # half of "height = 48.5", just written
    assert userfiles.read_settled(f, "feel file", 1000) is None  # too fresh to believe
    os.utime(f, (1000, 1000))
    assert userfiles.read_settled(f, "feel file", 1000) == b"[jump]\nheight = 4"


def test_a_settled_read_refuses_a_file_that_changes_while_it_is_read(tmp_path, monkeypatch):
    f = tmp_path / "feel.toml"
    f.write_text("[jump]\nheight = 48.5\n")
    os.utime(f, (1000, 1000))
    real = userfiles.read_bytes

    def racing(path, what, limit):
        data = real(path, what, limit)
        f.write_text("[jump]\nheight = 4")  # the editor rewrites it meanwhile
        os.utime(f, (1001, 1001))
        return data
    monkeypatch.setattr(userfiles, "read_bytes", racing)
    assert userfiles.read_settled(f, "feel file", 1000) is None


WRITERS = """
import sys
sys.path.insert(0, {root!r})
from game.files.userfiles import write_atomic
tag, n = sys.argv[1], 0
while True:
    n = n % 300 + 1
    write_atomic({path!r}, tag * n + "\\n" + str(n) + "\\n", "route")
"""


@posix_only
def test_two_processes_writing_one_route_never_show_a_reader_an_empty_or_mixed_file(tmp_path):
    """Two `check --routes` on one target: readers saw 7,407 empty and 1,483 partial reads (issue 24)."""
    import subprocess
    import sys
    import time

    target = tmp_path / "route.txt"
    write_atomic(target, "A\n1\n", "route")
    code = WRITERS.format(root=str(Path(__file__).resolve().parents[3]), path=str(target))
    procs = [subprocess.Popen([sys.executable, "-c", code, tag]) for tag in "AB"]
    try:
        reads, bad, end = 0, [], time.monotonic() + 1.5
        while time.monotonic() < end:
            text = target.read_text()
            reads += 1
            body, count, rest = text.split("\n")
            if rest or len(body) != int(count) or len(set(body)) != 1:
                bad.append(text[:60])
    finally:
        for p in procs:
            p.kill()
            p.wait()
    assert reads > 100 and not bad
