"""docs/feel.md covers every knob; the arcs picture is generated from the real controller."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import importlib.util  # noqa: E402
from pathlib import Path  # noqa: E402

from engine import knobs  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]


def test_docs_describe_every_knob_and_the_panel_keys():
    text = (ROOT / "docs" / "feel.md").read_text(encoding="utf-8")
    tables = text.split("## Every knob", 1)[1].split("## Derived values", 1)[0]
    for name, _t, _d, meta in knobs():
        section, key = name.split(".")
        part = tables.split(f"`[{section}]`", 1)[1]
        row = next((ln for ln in part.splitlines() if ln.startswith(f"| `{key}` |")), None)
        assert row is not None, f"docs/feel.md does not describe {name}"
        assert f"| {meta['unit']} |" in row
    for words in ("F2", "F5", "Ctrl+S", "Ctrl+R", "--explain", "img/arcs.png", "tight.toml", "floaty.toml",
                  "heavy.toml"):
        assert words in text


def test_plot_arcs_draws_the_picture(tmp_path):
    spec = importlib.util.spec_from_file_location("plot_arcs", ROOT / "tools" / "plot_arcs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "arcs.png"
    files = [str(ROOT / "feel.toml"), str(ROOT / "presets" / "heavy.toml")]
    assert module.main(["--out", str(out), *files]) == 0
    assert out.stat().st_size > 2000
    assert (ROOT / "docs" / "img" / "arcs.png").exists()


def test_flights_reach_the_configured_height():
    spec = importlib.util.spec_from_file_location("plot_arcs", ROOT / "tools" / "plot_arcs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from engine import FeelConfig
    held, tapped = module.flights(FeelConfig())
    assert abs(max(y for _x, y in held) - 48.0) <= 1.5
    assert max(y for _x, y in tapped) < 30
