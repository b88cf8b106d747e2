"""Input scripts: `COUNT BUTTONS` lines -> one Buttons per step, and back."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Buttons
from game.inputscript import BUTTON_NAMES, ScriptError, buttons_word, format_script, parse_script

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
