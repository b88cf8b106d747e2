"""Progress save: where it lives, atomic writes, a corrupt save kept as .bak and a fresh start."""

import json
import os
import time

import pytest

from game.files import save
from game.files.save import Progress, data_dir, load_progress, save_progress


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("TILEFEEL_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_data_dir_env_override_then_xdg(monkeypatch, tmp_path, data):
    assert data_dir() == data
    monkeypatch.delenv("TILEFEEL_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if os.name != "nt":
        assert data_dir() == tmp_path / "xdg" / "tilefeel"


def test_round_trip_and_unlocking(data):
    p = Progress()
    assert p.complete("01_a.tmx", 12.5, 3, 1, "02_b.tmx") is True
    assert p.complete("01_a.tmx", 14.0, 5, 0, "02_b.tmx") is False  # slower: not a new best time
    assert save_progress(p) is None
    q, msg = load_progress()
    assert msg is None
    rec = q.record("01_a.tmx")
    assert (rec.best_time, rec.best_coins, rec.best_deaths, rec.completions) == (12.5, 5, 0, 2)
    assert q.is_unlocked("02_b.tmx") and not q.is_unlocked("03_c.tmx")
    assert q.is_unlocked("01_a.tmx", first="01_a.tmx")


def test_missing_save_starts_fresh_with_one_line(data):
    p, msg = load_progress()
    assert p.unlocked == set() and msg and "\n" not in msg


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2]", '{"version": true}', '{"version": 0}',
                                  '{"unlocked": ["a"]}', "[" * 5000 + "]" * 5000])
def test_a_save_that_is_not_a_save_is_moved_to_bak_and_reported(data, text):
    data.mkdir(parents=True)
    f = data / "progress.json"
    f.write_text(text)
    p, msg = load_progress()
    assert p.unlocked == set() and p.levels == {}
    assert msg and "\n" not in msg and "corrupt" in msg and ".bak" in msg
    assert not f.exists()
    assert (data / "progress.json.bak").read_text() == text


def test_write_is_atomic_a_failed_replace_keeps_the_old_save(data, monkeypatch):
    p = Progress(unlocked={"01_a.tmx"})
    assert save_progress(p) is None
    before = (data / "progress.json").read_text()

    def boom(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(save.os, "replace", boom)
    p.unlocked.add("02_b.tmx")
    msg = save_progress(p)
    assert msg and "No space left" in msg and "\n" not in msg
    assert (data / "progress.json").read_text() == before
    assert [f.name for f in data.iterdir()] == ["progress.json"]  # no temp file left behind


def test_saved_file_is_readable_json(data):
    save_progress(Progress(unlocked={"b", "a"}))
    doc = json.loads((data / "progress.json").read_text())
    assert doc["version"] == 1 and doc["unlocked"] == ["a", "b"]


def test_non_utf8_save_is_kept_as_bak_and_reported(data):
    data.mkdir(parents=True)
    f = data / "progress.json"
    raw = b'{"version": 1, "unlocked": ["\xff\xfe"]}'
    f.write_bytes(raw)
    p, msg = load_progress()  # used to raise UnicodeDecodeError (crash at start-up)
    assert p.unlocked == set() and p.levels == {}
    assert msg and "\n" not in msg and "corrupt" in msg and "UTF-8" in msg and str(f) in msg
    assert not f.exists() and (data / "progress.json.bak").read_bytes() == raw


@pytest.mark.parametrize("record, field", [
    ({"best_time": "fast"}, "best_time"),
    ({"best_time": -3}, "best_time"),
    ({"best_time": True}, "best_time"),
    ({"best_time": 1e308}, "best_time"),  # would overflow the clock on the level-select screen
    ({"best_coins": 2.5}, "best_coins"),
    ({"best_coins": -1}, "best_coins"),
    ({"best_deaths": "none"}, "best_deaths"),
    ({"completions": None}, "completions"),
    ({"completions": [1]}, "completions"),
])
def test_a_wrong_field_is_dropped_the_rest_kept_and_the_original_backed_up(data, record, field):
    data.mkdir(parents=True)
    f = data / "progress.json"
    text = json.dumps({"version": 1, "unlocked": ["01_a.tmx"],
                       "levels": {"01_a.tmx": {"completions": 2, "best_coins": 3, **record}}})
    f.write_text(text)
    p, msg = load_progress()
    assert p.unlocked == {"01_a.tmx"}  # salvaged, not discarded
    kept = {k: v for k, v in {"completions": 2, "best_coins": 3}.items() if k != field}
    assert all(getattr(p.record("01_a.tmx"), k) == v for k, v in kept.items())
    assert getattr(p.record("01_a.tmx"), field) == getattr(save.LevelRecord(), field)
    assert msg and "\n" not in msg and "dropped" in msg and field in msg and str(f) in msg
    assert (data / "progress.json.bak").read_text() == text and f.read_text() == text


def test_nan_best_time_and_empty_level_name_are_dropped(data):
    data.mkdir(parents=True)
    for text in ['{"version": 1, "levels": {"a": {"best_time": NaN}}}', '{"version": 1, "unlocked": ["", "b"]}']:
        (data / "progress.json").write_text(text)
        p, msg = load_progress()
        assert p.record("a").best_time is None and "" not in p.unlocked and "dropped" in msg


def test_valid_save_with_nulls_and_ints_loads(data):
    data.mkdir(parents=True)
    (data / "progress.json").write_text(json.dumps({"version": 1, "unlocked": ["a"], "levels": {
        "a": {"best_time": 12, "best_coins": 0, "best_deaths": None, "completions": 1}}}))
    p, msg = load_progress()
    assert msg is None
    assert p.record("a").best_time == 12.0 and p.record("a").best_deaths is None


# -- nothing is ever lost (issue 10, defect 7) --------------------------------------------------------------

def test_unknown_fields_round_trip_top_level_and_per_level(data):
    """A save from a newer version used to be discarded whole for one unknown field."""
    data.mkdir(parents=True)
    doc = {"version": 1, "unlocked": ["a"], "achievements": {"speedrun": True, "streak": 3},
           "levels": {"a": {"best_time": 9.5, "best_coins": 1, "best_deaths": 0, "completions": 1,
                            "ghost": [1, 2, 3]}}}
    (data / "progress.json").write_text(json.dumps(doc))
    p, msg = load_progress()
    assert msg is None and p.extra == {"achievements": {"speedrun": True, "streak": 3}}
    assert p.record("a").best_time == 9.5 and p.record("a").extra == {"ghost": [1, 2, 3]}
    p.complete("a", 8.0, 2, 0, "b")
    assert save_progress(p) is None
    back = json.loads((data / "progress.json").read_text())
    assert back["achievements"] == doc["achievements"] and back["levels"]["a"]["ghost"] == [1, 2, 3]
    assert back["levels"]["a"]["best_time"] == 8.0 and back["unlocked"] == ["a", "b"]


def test_a_newer_versions_save_loads_what_it_can_and_keeps_a_copy(data):
    data.mkdir(parents=True)
    text = json.dumps({"version": 2, "unlocked": ["a"], "levels": {"a": {"completions": 3}}, "cloud": "x"})
    (data / "progress.json").write_text(text)
    p, msg = load_progress()
    assert p.unlocked == {"a"} and p.record("a").completions == 3 and p.extra == {"cloud": "x"}
    assert "newer version" in msg and "\n" not in msg
    assert (data / "progress.json.bak").read_text() == text


def test_a_second_corruption_never_overwrites_the_first_backup(data):
    data.mkdir(parents=True)
    f = data / "progress.json"
    f.write_text('{"version": 1, "unlocked": ["the original progress"]')  # cut short
    load_progress()
    f.write_text("garbage later")
    p, msg = load_progress()
    assert "progress.json.bak.2" in msg
    assert (data / "progress.json.bak").read_text() == '{"version": 1, "unlocked": ["the original progress"]'
    assert (data / "progress.json.bak.2").read_text() == "garbage later"
    f.write_text("garbage later")  # the same bytes again: no third copy
    load_progress()
    assert sorted(x.name for x in data.iterdir()) == ["progress.json.bak", "progress.json.bak.2"]


def test_orphaned_temp_files_are_cleaned_up_fresh_ones_kept(data):
    data.mkdir(parents=True)
    old = time.time() - 3600
    for i in range(300):  # what 300 kill -9 during saves left behind
        tmp = data / f"progress.json.{i:06d}.tmp"
        tmp.write_bytes(b"x" * 1000)
        os.utime(tmp, (old, old))
    (data / "progress.json.live01.tmp").write_text("another game is saving right now")
    (data / "progress.json").write_text('{"version": 1}')
    load_progress()
    assert sorted(x.name for x in data.iterdir()) == ["progress.json", "progress.json.live01.tmp"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_save_does_not_hang_and_the_next_save_replaces_it(data):
    data.mkdir(parents=True)
    os.mkfifo(data / "progress.json")
    p, msg = load_progress()  # used to hang the window at start (and SIGTERM did not stop it)
    assert p.unlocked == set() and "FIFO" in msg and "starting fresh" in msg
    assert save_progress(Progress(unlocked={"a"})) is None
    assert load_progress()[0].unlocked == {"a"}


def test_a_save_over_the_size_cap_is_moved_aside_whole(data):
    data.mkdir(parents=True)
    f = data / "progress.json"
    f.write_bytes(b" " * (save.MAX_SAVE_BYTES + 1))
    p, msg = load_progress()
    assert "corrupt" in msg and "larger than 1 MB" in msg and not f.exists()
    assert (data / "progress.json.bak").stat().st_size == save.MAX_SAVE_BYTES + 1


def test_a_full_disk_keeps_the_complete_old_save(data, monkeypatch):
    import errno

    from game.files import userfiles
    save_progress(Progress(unlocked={"a"}))
    before = (data / "progress.json").read_bytes()

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(userfiles.os, "fsync", full)
    msg = save_progress(Progress(unlocked={"a", "b"}))
    assert msg == f"{data / 'progress.json'}: cannot write the progress (No space left on device)"
    assert (data / "progress.json").read_bytes() == before and len(list(data.iterdir())) == 1
