"""Input scripts: the ``COUNT BUTTONS`` text format used by headless runs, recordings and replays.

    # walk right for half a second, then jump while still running
    30 right
    1  right+jump   # a press: jump is held this step and was not the step before
    20 right+jump
    10 -

One instruction per line: hold BUTTONS for COUNT fixed steps. BUTTONS is ``-`` (nothing) or names
joined by ``+`` from ``left right up down jump``. Blank lines and ``#`` comments are ignored.
The format is documented in ``docs/headless.md``.
"""

from __future__ import annotations

import difflib

from engine import Buttons

__all__ = ["ScriptError", "BUTTON_NAMES", "MAX_STEPS", "parse_script", "format_script", "buttons_word"]

BUTTON_NAMES = ("left", "right", "up", "down", "jump")
MAX_STEPS = 1_000_000  # about 4.6 hours at 60 Hz; longer scripts are certainly a mistake


class ScriptError(Exception):
    """A bad input-script line: ``"FILE: line N: unknown button 'jmup' ..."`` (one line)."""


_cache: dict[frozenset, Buttons] = {}


def _buttons(names: frozenset) -> Buttons:
    b = _cache.get(names)
    if b is None:
        b = _cache[names] = Buttons(**{n: (n in names) for n in BUTTON_NAMES})
    return b


def parse_script(text: str, source: str = "<script>") -> list[Buttons]:
    """One :class:`engine.Buttons` per step. Raises :class:`ScriptError` naming ``line N`` and the word."""
    steps: list[Buttons] = []
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        code = line.split("#", 1)[0]
        words = code.split()
        if not words:
            continue

        def fail(message: str, number: int = number) -> ScriptError:
            return ScriptError(f"{source}: line {number}: {message}")

        count_word = words[0]
        if not (count_word.isascii() and count_word.isdigit()) or int(count_word) <= 0:
            raise fail(f"bad count '{count_word}'; expected 'COUNT BUTTONS' with COUNT a positive whole "
                       "number of steps, e.g. '30 right+jump'")
        if len(words) == 1:
            raise fail(f"missing buttons after '{count_word}'; write e.g. '{count_word} right' or "
                       f"'{count_word} -' for no buttons")
        if len(words) > 2:
            raise fail(f"unexpected '{words[2]}' after '{words[1]}'; join buttons with '+', "
                       "e.g. 'right+jump'")
        names = _parse_buttons(words[1], fail)
        count = int(count_word)
        if len(steps) + count > MAX_STEPS:
            raise fail(f"the script is longer than {MAX_STEPS} steps")
        steps.extend([_buttons(names)] * count)
    return steps


def _parse_buttons(word: str, fail) -> frozenset:
    if word == "-":
        return frozenset()
    names: set[str] = set()
    for name in word.split("+"):
        if name not in BUTTON_NAMES:
            if not name:
                raise fail(f"bad buttons '{word}'; join names with a single '+', e.g. 'right+jump'")
            close = difflib.get_close_matches(name.lower(), BUTTON_NAMES, n=1, cutoff=0.5)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise fail(f"unknown button '{name}'; {hint}buttons are {' '.join(BUTTON_NAMES)}, "
                       "or '-' for none")
        if name in names:
            raise fail(f"button '{name}' is named twice in '{word}'")
        names.add(name)
    return frozenset(names)


def buttons_word(buttons: Buttons) -> str:
    """``right+jump`` or ``-``: the script spelling of one step's buttons."""
    names = [n for n in BUTTON_NAMES if getattr(buttons, n)]
    return "+".join(names) if names else "-"


def format_script(steps: list[Buttons]) -> str:
    """Run-length encode steps into the script format (``parse_script(format_script(s)) == s``)."""
    lines: list[str] = []
    run_word, run = None, 0
    for buttons in steps:
        word = buttons_word(buttons)
        if word == run_word:
            run += 1
            continue
        if run:
            lines.append(f"{run} {run_word}")
        run_word, run = word, 1
    if run:
        lines.append(f"{run} {run_word}")
    return "".join(line + "\n" for line in lines)
