"""Input scripts: `COUNT BUTTONS` lines -> one Buttons per step, and back."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Buttons
from game.files.inputscript import (BUTTON_NAMES, MAX_STEPS, ScriptError, buttons_word, format_script, parse,
                              parse_script, read_script)

NONE = Buttons()
RIGHT = Buttons(right=True)
RIGHT_JUMP = Buttons(right=True, jump=True)


def test_each_line_holds_its_buttons_for_count_steps():
    steps = parse_script("3 right\n2 right+jump\n1 -\n")
    assert steps == [RIGHT] * 3 + [RIGHT_JUMP] * 2 + [NONE]


def test_every_button_name_is_understood():
    steps = parse_script("1 left+right+up+down+jump\n")
    assert steps == [Buttons(left=True, right=True, up=True, down=True, jump=True)]


def test_blank_lines_comments_and_trailing_comments_are_ignored():
    text = "# a header\n\n   \n2 right   # run\n\t1 jump#no space needed\n# done\n"
    assert parse_script(text) == [RIGHT, RIGHT, Buttons(jump=True)]


def test_a_byte_order_mark_and_windows_line_ends_are_fine():
    assert parse_script("\ufeff1 right\r\n1 -\r\n") == [RIGHT, NONE]


def test_an_empty_script_has_no_steps():
    assert parse_script("# nothing\n") == []


@pytest.mark.parametrize("text, line, word", [
    ("1 right\n2 jmup\n", 2, "'jmup'"),
    ("1 right+Jump\n", 1, "'Jump'"),
    ("0 right\n", 1, "'0'"),
    ("-3 right\n", 1, "'-3'"),
    ("1.5 right\n", 1, "'1.5'"),
    ("ten right\n", 1, "'ten'"),
    ("\n\n5\n", 3, "'5'"),
    ("2 right jump\n", 1, "'jump'"),
    ("2 right++jump\n", 1, "'right++jump'"),
    ("2 jump+jump\n", 1, "'jump'"),
])
def test_a_bad_line_names_its_number_and_quotes_the_bad_word(text, line, word):
    with pytest.raises(ScriptError) as err:
        parse_script(text, source="runs/a.txt")
    message = str(err.value)
    assert message.startswith(f"runs/a.txt: line {line}: ")
    assert word in message
    assert "\n" not in message


def test_a_misspelt_button_gets_a_suggestion():
    with pytest.raises(ScriptError, match="did you mean 'jump'"):
        parse_script("2 jmup\n")


def test_format_is_run_length_encoded_in_button_order():
    steps = [RIGHT, RIGHT, RIGHT_JUMP, NONE, NONE, Buttons(jump=True, left=True)]
    assert format_script(steps) == "2 right\n1 right+jump\n2 -\n1 left+jump\n"
    assert format_script([]) == ""
    assert buttons_word(NONE) == "-"


@given(st.lists(st.tuples(st.integers(1, 5), st.frozensets(st.sampled_from(BUTTON_NAMES))), max_size=12))
def test_format_then_parse_gives_the_same_steps(runs):
    steps = [Buttons(**{n: n in names for n in BUTTON_NAMES}) for count, names in runs for _ in range(count)]
    assert parse_script(format_script(steps)) == steps


# -- the level header (issue 12: a replay names its level) ---------------------------------------------

def test_a_header_names_the_level_and_is_not_a_step():
    script = parse("# found by hand\nlevel 02_planks.tmx\n3 right\n", "r.txt")
    assert (script.level, script.level_line, script.steps) == ("02_planks.tmx", 2, [RIGHT] * 3)
    assert parse("3 right\n").level is None
    assert parse_script("level a.tmx\n1 -\n") == [NONE]


@pytest.mark.parametrize("text, fragment", [
    ("1 right\nlevel a.tmx\n", "line 2: the 'level NAME.tmx' header must come once, before the first step"),
    ("level a.tmx\nlevel b.tmx\n", "line 2: the 'level NAME.tmx' header must come once"),
    ("level\n", "line 1: the header needs the level's file name"),
    ("level ../secret/a.tmx\n", "without a folder"),
    ("level notes.txt\n", "without a folder"),
])
def test_a_bad_header_is_one_line(text, fragment):
    with pytest.raises(ScriptError, match=fragment.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        parse(text, "r.txt")


@given(st.lists(st.tuples(st.integers(1, 5), st.frozensets(st.sampled_from(BUTTON_NAMES))), max_size=8),
       st.sampled_from(["01_first_steps.tmx", "my level.tmx", "é.tmx"]))
def test_format_with_a_level_then_parse_gives_the_level_and_the_steps(runs, level):
    steps = [Buttons(**{n: n in names for n in BUTTON_NAMES}) for count, names in runs for _ in range(count)]
    script = parse(format_script(steps, level=level))
    assert (script.level, script.steps) == (level, steps)


# -- hostile scripts (issue 10) -------------------------------------------------------------------------

def test_a_count_of_thousands_of_digits_is_a_one_line_error_not_a_crash():
    with pytest.raises(ScriptError, match=f"line 1: the script is longer than {MAX_STEPS} steps"):
        parse_script("9" * 4301 + " right\n", "s.txt")  # int() would raise 'Exceeds the limit (4300 digits)'
    assert parse_script("0" * 5000 + "1 right\n") == [RIGHT]  # leading zeros are still a small number


@pytest.mark.parametrize("text, shown", [
    ("1 \x00\n", "'\\x00'"),
    ("1 right+\x1b[2J\n", "'\\x1b[2J'"),
    ("\x07 right\n", "'\\x07'"),
])
def test_control_characters_in_a_bad_word_are_shown_escaped(text, shown):
    with pytest.raises(ScriptError) as err:
        parse_script(text, "s.txt")
    message = str(err.value)
    assert shown in message and message.isprintable(), message


def test_a_very_long_bad_word_is_cut_short():
    with pytest.raises(ScriptError) as err:
        parse_script("1 " + "x" * 100_000 + "\n", "s.txt")
    assert len(str(err.value)) < 300


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="POSIX FIFOs")
def test_reading_a_fifo_or_dev_zero_is_refused(tmp_path):
    import os
    os.mkfifo(tmp_path / "s.txt")
    with pytest.raises(ScriptError, match="FIFO"):
        read_script(tmp_path / "s.txt")
    with pytest.raises(ScriptError, match="device"):
        read_script("/dev/zero")


def test_reading_a_binary_file_names_the_line(tmp_path):
    (tmp_path / "s.txt").write_bytes(b"1 right\n\xff\xfe\n")
    with pytest.raises(ScriptError, match=r"s\.txt: line 2: the input script is not UTF-8"):
        read_script(tmp_path / "s.txt")


# -- issue 24: any file name the loader accepts reads back from the header ---------------------------------

@pytest.mark.parametrize("name", ["boss#2.tmx", '"quoted".tmx', " lead.tmx", "trail .tmx", "line\u2028sep.tmx", "tab\tin.tmx",
                                  "é#1.tmx", "a  b.tmx", "new\nline.tmx"])
def test_a_recorded_header_reads_back_for_an_awkward_file_name(name):
    script = parse(format_script([Buttons(right=True)] * 3, level=name))
    assert script.level == name and len(script.steps) == 3


@given(st.text(st.characters(blacklist_characters="/\\\x00", blacklist_categories=("Cs",)), max_size=40))
def test_any_file_name_the_loader_accepts_reads_back(stem):
    name = stem + ".tmx"
    assert parse(format_script([Buttons()], level=name)).level == name


def test_a_quoted_header_keeps_a_trailing_comment_and_refuses_junk():
    assert parse('level "boss#2.tmx"  # the boss\n1 -\n').level == "boss#2.tmx"
    with pytest.raises(ScriptError, match="line 1: unexpected 'x' after the level name"):
        parse('level "boss.tmx" x\n')
    with pytest.raises(ScriptError, match="opens a quote it does not close"):
        parse('level "boss.tmx\n')
    with pytest.raises(ScriptError, match="without a folder"):
        parse('level "../up.tmx"\n')


def test_dash_is_a_button_word():
    steps = parse_script("2 right+up+dash\n1 dash+jump\n")
    assert [s.dash for s in steps] == [True, True, True] and steps[0].up and steps[2].jump
    assert parse_script(format_script(steps)) == steps
    assert format_script(steps).splitlines()[0] == "2 right+up+dash"
