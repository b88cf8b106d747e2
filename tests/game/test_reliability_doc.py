"""docs/reliability.md lists every limit the code enforces, with the value the code uses."""

from dataclasses import fields
from pathlib import Path

import pytest

from game.files import feelfile, inputscript, save
from game.window import input as controls
from game.files.levelfile import LIMITS, Limits
from game.files.userfiles import size_text

DOC = (Path(__file__).resolve().parents[2] / "docs" / "reliability.md").read_text(encoding="utf-8")
LIMITS_IN_CODE = {
    **{f"levelfile.LIMITS.{f.name}": getattr(LIMITS, f.name) for f in fields(Limits)},
    "inputscript.MAX_SCRIPT_BYTES": inputscript.MAX_SCRIPT_BYTES,
    "inputscript.MAX_STEPS": inputscript.MAX_STEPS,
    "feelfile.MAX_FEEL_BYTES": feelfile.MAX_FEEL_BYTES,
    "input.MAX_CONTROLS_BYTES": controls.MAX_CONTROLS_BYTES,
    "save.MAX_SAVE_BYTES": save.MAX_SAVE_BYTES,
    "save.MAX_TIME": save.MAX_TIME,
}


@pytest.mark.parametrize("name", LIMITS_IN_CODE)
def test_each_limit_is_documented_with_its_value(name):
    rows = [line for line in DOC.splitlines() if line.startswith(f"| `{name}` |")]
    assert rows, f"docs/reliability.md has no row for {name}"
    value = LIMITS_IN_CODE[name]
    shown = size_text(value) if name.lower().endswith("_bytes") else f"{int(value):,}"
    cell = rows[0].split("|")[2].strip()
    assert cell == shown or cell.startswith(shown + " "), rows[0]


def test_the_readme_links_to_it():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "(docs/reliability.md)" in readme
