"""Progress save: where it lives, atomic writes, a corrupt save kept as .bak and a fresh start."""

import json
import os

import pytest

from game import save
from game.save import Progress, data_dir, load_progress, save_progress


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


@pytest.mark.parametrize("text", ["{not json", '{"version": 99}', '{"version": 1, "unlocked": 5}', ""])
def test_corrupt_save_is_kept_as_bak_and_reported(data, text):
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
    ({"best_coins": 2.5}, "best_coins"),
    ({"best_coins": -1}, "best_coins"),
    ({"best_deaths": "none"}, "best_deaths"),
    ({"completions": None}, "completions"),
    ({"completions": [1]}, "completions"),
    ({"speed": 3}, "speed"),
])
def test_save_with_wrong_value_types_is_rejected_on_load(data, record, field):
    data.mkdir(parents=True)
    f = data / "progress.json"
    text = json.dumps({"version": 1, "unlocked": ["01_a.tmx"], "levels": {"01_a.tmx": record}})
    f.write_text(text)
    p, msg = load_progress()
    assert p.unlocked == set() and p.levels == {}
    assert msg and "\n" not in msg and "corrupt" in msg and field in msg and str(f) in msg
    assert (data / "progress.json.bak").read_text() == text


def test_nan_best_time_and_empty_level_name_are_rejected(data):
    data.mkdir(parents=True)
    for text in ['{"version": 1, "levels": {"a": {"best_time": NaN}}}', '{"version": 1, "unlocked": [""]}']:
        (data / "progress.json").write_text(text)
        p, msg = load_progress()
        assert p.levels == {} and "corrupt" in msg


def test_valid_save_with_nulls_and_ints_loads(data):
    data.mkdir(parents=True)
    (data / "progress.json").write_text(json.dumps({"version": 1, "unlocked": ["a"], "levels": {
        "a": {"best_time": 12, "best_coins": 0, "best_deaths": None, "completions": 1}}}))
    p, msg = load_progress()
    assert msg is None
    assert p.record("a").best_time == 12.0 and p.record("a").best_deaths is None
