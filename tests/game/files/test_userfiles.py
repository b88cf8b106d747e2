"""Reading and writing user files: regular files only, size caps, UTF-8 with a BOM, whole-or-nothing writes."""

import errno
import os
import stat

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
