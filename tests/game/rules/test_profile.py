"""The profile sections of progress.json: options and totals persist with the progress; a bad value is
one line and its default, never a lost save."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.profile import MAX_SCALE, Options, Totals
from game.files.save import Progress, load_progress, save_progress


def test_options_and_totals_persist_with_the_progress(tmp_path):
    path = tmp_path / "progress.json"
    p = Progress()
    p.complete("01_a.tmx", 12.0, 3, 1, "02_b.tmx")
    p.options = Options(music=3, effects=10, scale=2, fullscreen=True).to_json()
    p.totals = Totals().plus(75.5, 4).to_json()
    assert save_progress(p, path) is None
    back, msg = load_progress(path)
    assert msg is None
    assert Options.from_json(back.options) == (Options(music=3, effects=10, scale=2, fullscreen=True), [])
    assert Totals.from_json(back.totals) == (Totals(75.5, 4), [])
    assert back.levels["01_a.tmx"].best_time == 12.0  # the rest of the save is untouched
    assert "02_b.tmx" in back.unlocked


def test_a_save_without_the_sections_takes_the_defaults(tmp_path):
    path = tmp_path / "progress.json"
    path.write_text(json.dumps({"version": 1, "unlocked": [], "levels": {}}))
    p, msg = load_progress(path)
    assert msg is None and p.options is None
    assert Options.from_json(p.options) == (Options(), [])
    assert Totals.from_json(p.totals) == (Totals(), [])
    assert "options" not in p.to_json()  # nothing to write until the player changes something


def test_a_bad_option_is_one_line_and_its_default_the_rest_kept(tmp_path):
    path = tmp_path / "progress.json"
    path.write_text(json.dumps({"version": 1, "unlocked": [], "levels": {},
                                "options": {"music": "loud", "effects": 4, "scale": 99, "fullscreen": 1,
                                            "colour": "red"}}))
    p, msg = load_progress(path)
    assert msg is None, "a bad option must not set the whole save aside"
    opts, problems = Options.from_json(p.options)
    assert opts == Options(effects=4)
    assert problems == [
        'options.music is "loud", expected a whole number from 0 to 10; using 7',
        f"options.scale is 99, expected a whole number from 0 to {MAX_SCALE}; using 0",
        "options.fullscreen is 1, expected true or false; using false",
        "options.colour is not an option here (music, effects, scale, fullscreen, shake, speed, invincible); ignored",
    ]
    assert all("\n" not in line for line in problems)


def test_a_section_that_is_not_an_object_is_reported_and_defaulted():
    opts, problems = Options.from_json([1, 2])
    assert opts == Options() and problems == ["options is [1, 2], expected an object; using the defaults"]
    totals, problems = Totals.from_json({"seconds": -3, "deaths": 2.5})
    assert totals == Totals() and len(problems) == 2
    assert problems[0] == "totals.seconds is -3, expected a number from 0 to 1e+10; using 0.0"


def test_the_app_reports_bad_options_in_one_line_and_starts(tmp_path, monkeypatch, capsys):
    import os
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from ..window.test_scenes import _args
    from game.window.app import App
    data = tmp_path / "data"
    data.mkdir()
    (data / "progress.json").write_text(json.dumps({"version": 1, "unlocked": [], "levels": {},
                                                     "options": {"music": 11}}))
    monkeypatch.setenv("TILEFEEL_DATA_DIR", str(data))
    monkeypatch.setenv("TILEFEEL_CONFIG_DIR", str(tmp_path / "config"))
    a = App(_args())
    assert a.start() is None
    try:
        assert a.options.music == 7
        out = capsys.readouterr().out
        assert "options.music is 11, expected a whole number from 0 to 10; using 7" in out
        assert "progress.json" in out
    finally:
        a.close()


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["music", "effects", "scale", "fullscreen", "x"]),
                       st.one_of(st.none(), st.booleans(), st.integers(-5, 20), st.floats(allow_nan=True),
                                 st.text(max_size=5))))
def test_any_options_object_reads_without_raising_and_round_trips(data):
    opts, problems = Options.from_json(data)
    assert 0 <= opts.music <= 10 and 0 <= opts.scale <= MAX_SCALE and isinstance(opts.fullscreen, bool)
    assert len(problems) == sum(1 for k, v in data.items() if k == "x" or getattr(opts, k) != v or
                                type(v) is not type(getattr(opts, k)))
    assert Options.from_json(opts.to_json()) == (opts, [])


@pytest.mark.parametrize("section, key", [(Options, "music"), (Totals, "deaths"), (Totals, "seconds")])
@pytest.mark.parametrize("value", [10**400, float("nan"), "7", [7], None])
def test_huge_nan_and_wrong_types_are_named_and_defaulted(section, key, value):
    got, problems = section.from_json({key: value})
    assert got == section() and len(problems) == 1 and problems[0].startswith(f"{section.NAME}.{key} is ")
    assert len(problems[0]) < 120
