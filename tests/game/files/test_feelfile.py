"""The feel file: every knob round-trips, every error is one line that says what to fix."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
import tomlkit

from engine import FeelConfig, knobs
from game.files.feelfile import (DEFAULT_FEEL_PATH, GUIDE, FeelFileError, default_feel_text, explain, load_feel,
                           parse_feel, save_feel)

ROOT = Path(__file__).resolve().parents[3]
KNOBS = [name for name, *_ in knobs()]


def _write(tmp_path, text, name="feel.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _error(tmp_path, text) -> str:
    path = _write(tmp_path, text)
    with pytest.raises(FeelFileError) as info:
        load_feel(path)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith(str(path) + ": ")
    return msg


# -- the shipped files ----------------------------------------------------------------------------------

def test_default_feel_toml_holds_every_knob_at_its_engine_default():
    data = tomllib.loads(DEFAULT_FEEL_PATH.read_text(encoding="utf-8"))
    named = sorted(f"{section}.{key}" for section, table in data.items() for key in table)
    assert named == sorted(KNOBS), "feel.toml must name every knob of engine.knobs(), no more"
    defaults = FeelConfig()
    for name, type_name, default, _meta in knobs():
        section, key = name.split(".")
        value = data[section][key]
        assert value == default == defaults.get(name), name
        assert type(value).__name__ == type_name, f"{name} is written as {type(value).__name__}"
    assert load_feel(DEFAULT_FEEL_PATH) == FeelConfig()


def test_default_feel_toml_comments_every_knob_with_unit_and_range():
    lines = DEFAULT_FEEL_PATH.read_text(encoding="utf-8").splitlines()
    for name, _t, _d, meta in knobs():
        key = name.split(".")[1]
        section_start = lines.index(f"[{name.split('.')[0]}]")
        line = next(ln for ln in lines[section_start:] if ln.split("=")[0].strip() == key)
        comment = line.split("#", 1)[1]
        assert comment.strip().startswith(meta["unit"] + ","), name
        g = GUIDE[name]
        if meta["unit"] == "on/off":  # a switch: says how to write it
            assert comment.rstrip().endswith("[true/false]"), name
        else:
            assert "[" in comment and ".." in comment, f"{name}: no sensible range in the comment"
        assert meta["min"] <= g.lo < g.hi <= meta["max"], f"{name}: guide range outside the engine limits"


def test_generated_default_text_matches_the_shipped_file():
    assert tomllib.loads(default_feel_text()) == tomllib.loads(DEFAULT_FEEL_PATH.read_text(encoding="utf-8"))


def test_every_knob_has_a_guide():
    assert sorted(GUIDE) == sorted(KNOBS)


@pytest.mark.parametrize("preset", sorted((ROOT / "presets").glob("*.toml")), ids=lambda p: p.stem)
def test_presets_load_and_stay_playable(preset):
    feel = load_feel(preset)
    assert feel != FeelConfig()
    d = feel.derived
    assert feel.jump.height >= 48, "levels are built for 3-tile (48 px) climbs"
    assert d.jump_distance >= 88, "levels are built for 5-tile gaps at full run"


def test_there_are_at_least_three_presets():
    names = {p.stem for p in (ROOT / "presets").glob("*.toml")}
    assert {"tight", "floaty", "heavy"} <= names


# -- round trips --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", KNOBS)
def test_every_key_round_trips_through_a_toml_file(tmp_path, name):
    type_name, meta = next((t, m) for n, t, _d, m in knobs() if n == name)
    default = FeelConfig().get(name)
    value = GUIDE[name].lo if GUIDE[name].lo != default else GUIDE[name].hi
    value = bool(value) if type_name == "bool" else int(value) if type_name == "int" else float(value)
    section, key = name.split(".")
    doc = tomlkit.document()
    table = tomlkit.table()
    table.add(key, value)
    doc.add(section, table)
    path = _write(tmp_path, tomlkit.dumps(doc))
    feel = load_feel(path)
    assert feel.get(name) == value
    assert type(feel.get(name)).__name__ == type_name
    # every other knob keeps its default: a file that names some keys overrides only those
    for other in KNOBS:
        if other != name:
            assert feel.get(other) == FeelConfig().get(other)
    # and it comes back out through save_feel unchanged
    out = tmp_path / "out.toml"
    save_feel(out, feel)
    assert load_feel(out) == feel


def test_whole_config_round_trips_through_save(tmp_path):
    feel = load_feel(ROOT / "presets" / "floaty.toml")
    path = tmp_path / "all.toml"
    path.write_text(default_feel_text(), encoding="utf-8")
    written = save_feel(path, feel)
    assert load_feel(path) == feel
    assert set(written) == {n for n in KNOBS if feel.get(n) != FeelConfig().get(n)}


def test_base_fills_keys_the_file_does_not_name(tmp_path):
    base = FeelConfig().with_value("run.max_speed", 200.0)
    feel = load_feel(_write(tmp_path, "[jump]\nheight = 60\n"), base=base)
    assert feel.jump.height == 60.0 and feel.run.max_speed == 200.0


def test_integers_are_accepted_for_float_knobs(tmp_path):
    feel = load_feel(_write(tmp_path, "[jump]\nheight = 60\n[physics]\nhz = 120\n"))
    assert feel.jump.height == 60.0 and feel.physics.hz == 120 and isinstance(feel.physics.hz, int)


def test_a_float_for_a_whole_number_knob_is_a_wrong_type(tmp_path):
    msg = _error(tmp_path, "[physics]\nhz = 120.0\n")
    assert msg.endswith("line 2: physics.hz: expected a whole number (Hz), got 120.0; write 120; allowed 10..1000 Hz")


def test_an_empty_file_means_the_defaults(tmp_path):
    assert load_feel(_write(tmp_path, "# nothing yet\n")) == FeelConfig()


# -- errors -------------------------------------------------------------------------------------------------

def test_unknown_key_names_it_its_line_and_the_closest_key(tmp_path):
    msg = _error(tmp_path, "[jump]\nheight = 50\nhieght = 52\n")
    assert msg.endswith("line 3: jump.hieght: unknown key; did you mean 'jump.height'?")


def test_unknown_table_names_it_and_suggests_a_table(tmp_path):
    msg = _error(tmp_path, "[jmup]\nheight = 50\n")
    assert "line 1: jmup: unknown section; did you mean 'jump'?" in msg


def test_unknown_key_with_nothing_close_lists_the_valid_keys(tmp_path):
    msg = _error(tmp_path, "[fall]\nzzz = 1\n")
    assert "fall.zzz: unknown key; valid: fall.gravity_multiplier, fall.max_speed" in msg


def test_a_knob_outside_its_table_says_which_table(tmp_path):
    msg = _error(tmp_path, "coyote_time = 0.1\n[jump]\n")
    assert "line 1: coyote_time" in msg and "jump.coyote_time" in msg and "[jump]" in msg


def test_a_section_that_is_not_a_table(tmp_path):
    msg = _error(tmp_path, "jump = 3\n")
    assert "line 1: jump: expected a table like [jump], got 3" in msg


def test_wrong_type_names_key_value_and_allowed_range(tmp_path):
    msg = _error(tmp_path, '[jump]\nheight = "high"\n')
    assert msg.endswith("line 2: jump.height: expected a number (px), got the text 'high'; "
                        "allowed 4.0..400.0 px")


def test_boolean_is_a_wrong_type(tmp_path):
    msg = _error(tmp_path, "[run]\nmax_speed = true\n")
    assert "run.max_speed: expected a number (px/s), got the boolean true; allowed 10.0..1000.0 px/s" in msg


def test_fraction_for_a_whole_number_knob(tmp_path):
    msg = _error(tmp_path, "[physics]\nhz = 59.5\n")
    assert "line 2: physics.hz: expected a whole number (Hz), got 59.5; allowed 10..1000 Hz" in msg


def test_out_of_range_names_key_value_and_range(tmp_path):
    msg = _error(tmp_path, "[jump]\ncoyote_time = 0.1\nheight = 900.0\n")
    assert msg.endswith("line 3: jump.height: 900.0 is out of range; allowed 4.0..400.0 px")


def test_nan_and_infinity_are_out_of_range(tmp_path):
    assert "fall.max_speed: nan is out of range" in _error(tmp_path, "[fall]\nmax_speed = nan\n")
    assert "fall.max_speed: inf is out of range" in _error(tmp_path, "[fall]\nmax_speed = inf\n")


def test_toml_syntax_error_gives_file_and_line(tmp_path):
    msg = _error(tmp_path, "[jump]\nheight = 50\ntime_to_apex = = 0.4\n")
    assert msg.startswith(f"{tmp_path / 'feel.toml'}: line 3: TOML syntax error: ")
    assert "(column" in msg and "(at line" not in msg


def test_unterminated_table_header_is_a_syntax_error_with_its_line(tmp_path):
    assert ": line 2: TOML syntax error" in _error(tmp_path, "# hi\n[jump\nheight = 3\n")


def test_duplicate_key_is_a_syntax_error_with_its_line(tmp_path):
    assert ": line 3: TOML syntax error" in _error(tmp_path, "[jump]\nheight = 50\nheight = 52\n")


def test_missing_file_says_so(tmp_path):
    with pytest.raises(FeelFileError, match=r"no such feel file"):
        load_feel(tmp_path / "nope.toml")


def test_binary_file_says_so(tmp_path):
    path = tmp_path / "feel.toml"
    path.write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(FeelFileError, match=r"line 1: the feel file is not UTF-8 text"):
        load_feel(path)


def test_parse_feel_uses_the_given_source_name():
    with pytest.raises(FeelFileError, match=r"^my.toml: line 1: "):
        parse_feel("[jmp]\n", source="my.toml")


# -- explain ------------------------------------------------------------------------------------------------

def test_explain_prints_every_derived_value_as_a_table():
    text = explain(FeelConfig())
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["derived", "value", "value"]
    assert set(lines[1]) <= {"-", " "}
    for label, value in [("gravity, rising", "600.0"), ("gravity, falling", "960.0"),
                         ("take-off speed", "240.0"), ("coyote window", "6"), ("jump buffer window", "6"),
                         ("drop-through", "12"), ("jump distance at full run", "107.4"),
                         ("step (dt)", "0.01667")]:
        row = next(ln for ln in lines if ln.startswith(label))
        assert f" {value} " in row, row
    # columns line up
    assert len({ln.index(" px/s^2 ") for ln in lines if " px/s^2 " in ln}) == 1


def test_explain_follows_the_knobs():
    feel = FeelConfig().with_value("physics.hz", 120).with_value("jump.coyote_time", 0.05)
    assert any(ln.startswith("coyote window") and " 6 " in ln for ln in explain(feel).splitlines())


def test_module_cli_checks_a_file(tmp_path, capsys):
    from game.files.feelfile import main
    assert main([str(DEFAULT_FEEL_PATH)]) == 0
    assert "take-off speed" in capsys.readouterr().out
    assert main([str(_write(tmp_path, "[jump]\nheight = -1\n"))]) == 2
    assert "jump.height: -1 is out of range" in capsys.readouterr().err


# -- write-back ---------------------------------------------------------------------------------------------

def test_save_preserves_comments_layout_and_untouched_lines(tmp_path):
    original = DEFAULT_FEEL_PATH.read_text(encoding="utf-8")
    path = _write(tmp_path, original)
    feel = FeelConfig().with_value("jump.height", 56.0).with_value("physics.hz", 120)
    assert save_feel(path, feel) == ["physics.hz", "jump.height"]
    after = path.read_text(encoding="utf-8")
    before_lines, after_lines = original.splitlines(), after.splitlines()
    assert len(before_lines) == len(after_lines)
    changed = [(a, b) for a, b in zip(before_lines, after_lines, strict=True) if a != b]
    assert len(changed) == 2, changed
    for old, new in changed:
        # the comment is kept, at the same column
        assert old.split("#", 1)[1] == new.split("#", 1)[1]
        assert old.index("#") == new.index("#")
    assert any(new.startswith("height            = 56.0  #") for _old, new in changed)
    assert load_feel(path) == feel


def test_save_into_a_partial_file_adds_only_what_differs(tmp_path):
    path = _write(tmp_path, "# my feel\n[jump]\nheight = 60.0  # px, tall\n")
    feel = load_feel(path).with_value("fall.max_speed", 300.0).with_value("jump.coyote_time", 0.12)
    save_feel(path, feel)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# my feel\n[jump]\nheight = 60.0  # px, tall\n")
    data = tomllib.loads(text)
    assert data == {"jump": {"height": 60.0, "coyote_time": 0.12}, "fall": {"max_speed": 300.0}}
    assert load_feel(path) == feel


def test_save_writes_clean_numbers(tmp_path):
    path = _write(tmp_path, "[jump]\nrelease_cut = 0.5\n")
    feel = FeelConfig().with_value("jump.release_cut", 0.1 + 0.2)
    save_feel(path, feel)
    assert "release_cut = 0.3\n" in path.read_text(encoding="utf-8")


def test_save_refuses_to_overwrite_a_broken_file(tmp_path):
    path = _write(tmp_path, "[jump]\nheight = = 3\n")
    with pytest.raises(FeelFileError, match="line 2"):
        save_feel(path, FeelConfig())
    assert path.read_text(encoding="utf-8") == "[jump]\nheight = = 3\n"


def test_save_creates_a_missing_file(tmp_path):
    path = tmp_path / "new.toml"
    save_feel(path, FeelConfig().with_value("run.max_speed", 170.0))
    assert tomllib.loads(path.read_text(encoding="utf-8")) == {"run": {"max_speed": 170.0}}


def test_save_with_nothing_changed_leaves_the_file_alone(tmp_path):
    path = _write(tmp_path, "[jump]\nheight = 48.0\n")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    assert save_feel(path, FeelConfig()) == []
    assert path.stat().st_mtime_ns == 1_000_000_000


# -- hostile feel files (issue 10) ------------------------------------------------------------------------

@pytest.mark.parametrize("text, fragment", [
    ("[jump]\nheight = " + "[" * 500 + "]" * 500 + "\n", "nested too deeply"),  # was a RecursionError
    ("[jump]\nheight = " + "9" * 5000 + "\n", "thousands of digits"),  # was ValueError (4300 digits)
    ("[physics]\nhz = " + "9" * 400 + "\n", "line 2: physics.hz: 99999999999999999999... is far too large; "
                                           "allowed 10..1000 Hz"),  # was OverflowError (found by tools/fuzz.py)
    ("[jump]\nheight = nan\n", "jump.height"),
    ("[jump]\nheight = inf\n", "jump.height"),
])
def test_hostile_values_are_one_line_errors(text, fragment):
    with pytest.raises(FeelFileError) as err:
        parse_feel(text, source="f.toml")
    assert str(err.value).startswith("f.toml: ") and fragment in str(err.value) and "\n" not in str(err.value)


def test_deep_nesting_is_one_line_through_the_cli_too(tmp_path):
    import subprocess
    import sys
    feel = tmp_path / "feel.toml"
    feel.write_text("[jump]\nheight = " + "[" * 500 + "]" * 500 + "\n")
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-m", "game", "--headless", "--feel", str(feel), "--level",
                           str(root / "tests/maps/flat.tmx"), "--inputs", os.devnull], capture_output=True,
                          text=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "nested too deeply" in done.stderr


def test_a_byte_order_mark_is_accepted_and_kept_when_saving(tmp_path):
    path = tmp_path / "feel.toml"
    path.write_bytes(b"\xef\xbb\xbf# mine\n[jump]\nheight = 60.0\n")
    assert load_feel(path).jump.height == 60.0  # was "TOML syntax error"
    save_feel(path, load_feel(path).with_value("jump.height", 62.0))
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf# mine\n") and load_feel(path).jump.height == 62.0


def test_saving_over_a_file_that_is_not_utf8_refuses_and_keeps_it(tmp_path):
    path = tmp_path / "feel.toml"
    raw = "[jump]\nheight = 60.0 # hauteur réglée\n".encode("latin-1")
    path.write_bytes(raw)
    with pytest.raises(FeelFileError) as err:  # was UnicodeDecodeError from save_feel (F2, Ctrl+S)
        save_feel(path, FeelConfig())
    assert "line 2" in str(err.value) and "not UTF-8" in str(err.value) and "fix it before saving" in str(err.value)
    assert path.read_bytes() == raw


def test_a_failed_save_leaves_the_file_whole(tmp_path, monkeypatch):
    import errno

    from game.files import userfiles
    path = tmp_path / "feel.toml"
    path.write_text("[jump]\nheight = 60.0\n")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(userfiles.os, "fsync", full)
    with pytest.raises(FeelFileError, match="No space left on device"):
        save_feel(path, FeelConfig())
    assert path.read_text() == "[jump]\nheight = 60.0\n" and [p.name for p in tmp_path.iterdir()] == ["feel.toml"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_feel_file_is_refused_when_loading_saving_and_watching(tmp_path):
    from game.files.hotreload import FeelWatcher
    path = tmp_path / "feel.toml"
    os.mkfifo(path)
    with pytest.raises(FeelFileError, match="FIFO"):
        load_feel(path)
    with pytest.raises(FeelFileError, match="FIFO"):
        save_feel(path, FeelConfig())
    watcher = FeelWatcher(path, FeelConfig())
    assert watcher.reload() is None and "FIFO" in watcher.error


def test_a_control_character_in_a_key_is_escaped_on_the_command_line(tmp_path, capsys):
    from game.cli import main
    feel = tmp_path / "feel.toml"
    feel.write_text('[jump]\n"height\\u001b[2J" = 50\n')
    assert main(["--feel", str(feel), "--explain"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\\x1b[2J" in err and "\x1b" not in err


# -- the moves: switches, explain -----------------------------------------------------------------------

def test_switches_are_written_and_read_as_true_and_false(tmp_path):
    path = _write(tmp_path, "[wall]\nslide = true\n[dash]\nenabled = true\ndiagonals = false\n")
    feel = load_feel(path)
    assert feel.wall.slide is True and feel.dash.enabled is True and feel.dash.diagonals is False
    out = tmp_path / "out.toml"
    out.write_text(default_feel_text(), encoding="utf-8")
    assert set(save_feel(out, feel)) == {"wall.slide", "dash.enabled", "dash.diagonals"}
    text = out.read_text(encoding="utf-8")
    assert "slide       = true   # on/off," in text and "diagonals         = false  # on/off," in text
    assert load_feel(out) == feel


def test_a_number_for_a_switch_is_one_line_saying_true_or_false(tmp_path):
    msg = _error(tmp_path, "[dash]\nenabled = 1\n")
    assert msg.endswith("line 2: dash.enabled: expected true or false (on/off), got 1")


def test_explain_shows_the_wall_jump_arc_and_the_dash_distance():
    text = explain(load_feel(ROOT / "presets" / "moves" / "celeste.toml"))
    rows = {line.split("  ")[0]: line.split() for line in text.splitlines()[2:]}
    assert rows["wall-jump rise"][2] == "57.1" and rows["dash distance in tiles"][4] == "4.50"
    assert float(rows["wall-jump push at the apex"][5]) > 48  # kicked a few tiles clear of the wall
    assert "(off)" not in text
    assert "dash distance (off)" in explain(FeelConfig())  # what turning it on would give


def test_the_celeste_preset_turns_the_three_moves_on_with_celeste_values():
    feel = load_feel(ROOT / "presets" / "moves" / "celeste.toml")
    assert feel.wall.slide and feel.wall.jump and feel.dash.enabled and not feel.wall.climb_jump
    assert (feel.run.max_speed, feel.dash.speed, feel.dash.end_speed, feel.wall.jump_speed) == (180, 480, 320, 260)
    assert (feel.dash.time, feel.dash.cooldown, feel.wall.slide_time, feel.wall.lock_time) == (0.15, 0.2, 1.2, 0.16)
