"""Input scripts: the ``COUNT BUTTONS`` text format used by headless runs, recordings and replays.

    # walk right for half a second, then jump while still running
    30 right
    1  right+jump   # a press: jump is held this step and was not the step before
    20 right+jump
    10 -

One instruction per line: hold BUTTONS for COUNT fixed steps. BUTTONS is ``-`` (nothing) or names
joined by ``+`` from ``left right up down jump``. Blank lines and ``#`` comments are ignored. Optional
header lines before the first step: ``level NAME.tmx`` names the level the script plays (``--record``
writes it; ``--replay`` uses it); ``feel PATH`` names the feel file it was made under (a path relative to
the script's folder, or ``default`` for the built-in defaults; ``python -m game check --routes`` writes
it, and a run without ``--feel`` uses it). The format is documented in ``docs/headless.md``.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import NamedTuple

from engine import Buttons

from .userfiles import CliError, FileProblem, read_text, shown

__all__ = ["ScriptError", "Script", "BUTTON_NAMES", "MAX_STEPS", "MAX_SCRIPT_BYTES", "parse", "parse_script",
           "read_script", "resolve_script", "script_feel", "format_script", "buttons_word", "DEFAULT_FEEL"]

BUTTON_NAMES = ("left", "right", "up", "down", "jump")
MAX_STEPS = 1_000_000  # about 4.6 hours at 60 Hz; longer scripts are certainly a mistake
MAX_SCRIPT_BYTES = 16 << 20  # a script file is read only up to this size (1,000,000 one-step lines fit)
HEADER = "level"  # the header line's keyword: ``level 01_first_steps.tmx``
FEEL_HEADER = "feel"  # ``feel ../presets/floaty.toml`` (relative to the script's folder) or ``feel default``
DEFAULT_FEEL = "default"  # the feel header's word for the built-in defaults


class ScriptError(Exception):
    """A bad input-script line: ``"FILE: line N: unknown button 'jmup' ..."`` (one line)."""


_cache: dict[frozenset, Buttons] = {}


def _buttons(names: frozenset) -> Buttons:
    b = _cache.get(names)
    if b is None:
        b = _cache[names] = Buttons(**{n: (n in names) for n in BUTTON_NAMES})
    return b


class Script(NamedTuple):
    level: str | None  # the level file name from the ``level NAME`` header, None without one
    level_line: int  # the header's line number (0 without one), for messages about it
    steps: list[Buttons]  # one per fixed step
    feel: str | None = None  # the ``feel PATH`` header as written (``default``: the built-in defaults)
    feel_line: int = 0


def parse(text: str, source: str = "<script>") -> Script:
    """The header and one :class:`engine.Buttons` per step. Raises :class:`ScriptError` naming ``line N``
    and the (escaped, shortened) bad word."""
    steps: list[Buttons] = []
    level, level_line = None, 0
    feel, feel_line = None, 0
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        code = line.split("#", 1)[0]
        words = code.split()
        if not words:
            continue

        def fail(message: str, number: int = number) -> ScriptError:
            return ScriptError(f"{source}: line {number}: {message}")

        count_word = words[0]
        if count_word == HEADER:
            if level is not None or steps:
                raise fail(f"the '{HEADER} NAME.tmx' header must come once, before the first step")
            level, level_line = _level_name(code, fail), number
            continue
        if count_word == FEEL_HEADER:
            if feel is not None or steps:
                raise fail(f"the '{FEEL_HEADER} PATH' header must come once, before the first step")
            feel = code.split(None, 1)[1].strip() if len(words) > 1 else ""
            if not feel or not feel.isprintable():
                raise fail(f"the header needs the feel file's path, e.g. '{FEEL_HEADER} ../presets/tight.toml', "
                           f"or '{FEEL_HEADER} {DEFAULT_FEEL}'")
            feel_line = number
            continue
        if not (count_word.isascii() and count_word.isdigit()) or not count_word.lstrip("0"):
            raise fail(f"bad count {shown(count_word)}; expected 'COUNT BUTTONS' with COUNT a positive whole "
                       "number of steps, e.g. '30 right+jump'")
        if len(words) == 1:
            raise fail(f"missing buttons after {shown(count_word)}; write e.g. '30 right' or "
                       "'30 -' for no buttons")
        if len(words) > 2:
            raise fail(f"unexpected {shown(words[2])} after {shown(words[1])}; join buttons with '+', "
                       "e.g. 'right+jump'")
        names = _parse_buttons(words[1], fail)
        digits = count_word.lstrip("0")  # the length test first: int() of 5,000 digits would raise
        if len(digits) > len(str(MAX_STEPS)) or len(steps) + int(digits) > MAX_STEPS:
            raise fail(f"the script is longer than {MAX_STEPS} steps")
        steps.extend([_buttons(names)] * int(digits))
    return Script(level, level_line, steps, feel, feel_line)


def _level_name(code: str, fail) -> str:
    name = code.split(None, 1)[1].strip() if len(code.split()) > 1 else ""
    if not name:
        raise fail(f"the header needs the level's file name, e.g. '{HEADER} 01_first_steps.tmx'")
    if "/" in name or "\\" in name or not name.lower().endswith(".tmx") or not name.isprintable():
        raise fail(f"level {shown(name)} must be a map's file name without a folder, e.g. "
                   f"'{HEADER} 01_first_steps.tmx'")
    return name


def parse_script(text: str, source: str = "<script>") -> list[Buttons]:
    """One :class:`engine.Buttons` per step (the header, if any, is checked and dropped); see :func:`parse`."""
    return parse(text, source).steps


def read_script(path: str | Path) -> Script:
    """Read and parse the script file at ``path`` (a regular UTF-8 file, BOM allowed, at most
    ``MAX_SCRIPT_BYTES``). Raises :class:`ScriptError`."""
    try:
        text = read_text(path, "input script", MAX_SCRIPT_BYTES)
    except FileProblem as exc:
        raise ScriptError(str(exc)) from None
    return parse(text, source=str(path))


def resolve_script(level: str | Path | None, script_path: str | Path):
    """Read the input script and decide which level it plays: ``level`` when given (a script whose
    ``level NAME`` header names another map is an error), else the map its header names, looked up in
    the levels folder, then beside the script, then in the script's parent folder.
    Returns ``(level path, Script)``; raises ScriptError / CliError with one-line messages."""
    from .catalog import levels_folder

    script = read_script(script_path)
    where = f"{script_path}: line {script.level_line}"
    if level is not None:
        if script.level is not None and script.level != Path(level).name:
            raise CliError(f"{where}: this script is for level '{script.level}', not '{Path(level).name}'; "
                           "drop --level to play it on its own level")
        return Path(level), script
    if script.level is None:
        raise CliError(f"{script_path}: the script does not say which level it plays; give --level "
                       f"LEVEL.tmx or start the script with a '{HEADER} NAME.tmx' line")
    folders = [levels_folder(), Path(script_path).parent, Path(script_path).parent.parent]
    for folder in dict.fromkeys(folders):
        if os.path.isfile(folder / script.level):  # (never raises, even for a 300-character name)
            return folder / script.level, script
    raise CliError(f"{where}: level '{script.level}' not found (looked in {', '.join(map(str, folders))}); "
                   "give --level LEVEL.tmx")


def script_feel(script_path: str | Path, script: Script) -> Path | str | None:
    """The feel the script's ``feel`` header names: ``DEFAULT_FEEL`` for the built-in defaults, else the file
    (relative paths against the script's folder); None without a header. Raises CliError when the file is
    not there."""
    if script.feel is None:
        return None
    if script.feel == DEFAULT_FEEL:
        return DEFAULT_FEEL
    path = Path(script.feel)
    if not path.is_absolute():
        path = Path(script_path).parent / path
    if not os.path.isfile(path):
        raise CliError(f"{script_path}: line {script.feel_line}: feel file {shown(script.feel)} not found (looked "
                       f"for {path}); give --feel FILE")
    return path


def _parse_buttons(word: str, fail) -> frozenset:
    if word == "-":
        return frozenset()
    names: set[str] = set()
    for name in word.split("+"):
        if name not in BUTTON_NAMES:
            if not name:
                raise fail(f"bad buttons {shown(word)}; join names with a single '+', e.g. 'right+jump'")
            close = difflib.get_close_matches(name.lower()[:20], BUTTON_NAMES, n=1, cutoff=0.5)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise fail(f"unknown button {shown(name)}; {hint}buttons are {' '.join(BUTTON_NAMES)}, "
                       "or '-' for none")
        if name in names:
            raise fail(f"button '{name}' is named twice in {shown(word)}")
        names.add(name)
    return frozenset(names)


def buttons_word(buttons: Buttons) -> str:
    """``right+jump`` or ``-``: the script spelling of one step's buttons."""
    names = [n for n in BUTTON_NAMES if getattr(buttons, n)]
    return "+".join(names) if names else "-"


def format_script(steps: list[Buttons], level: str | None = None, feel: str | None = None) -> str:
    """Run-length encode steps into the script format (``parse_script(format_script(s)) == s``), after a
    ``level NAME`` header line when ``level`` (a map's file name) is given and a ``feel PATH`` line when
    ``feel`` is."""
    lines: list[str] = [f"{HEADER} {level}"] if level else []
    if feel:
        lines.append(f"{FEEL_HEADER} {feel}")
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
