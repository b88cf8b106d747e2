"""engine/README.md documents every public name, and the ASCII maps people copy draw what they mean."""

import re
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "engine" / "README.md").read_text()


def test_every_public_name_is_documented_in_the_engine_readme():
    documented = set(re.findall(r"`([A-Za-z_][A-Za-z_0-9]*)", README))
    missing = [name for name in engine.__all__ if name not in documented]
    assert not missing, f"engine/README.md never mentions {missing}"


def test_every_public_name_is_exported():
    for name in engine.__all__:
        assert getattr(engine, name) is not None


def _maps(path: Path) -> list[str]:
    """The triple-quoted ASCII maps in a Python file (strings made only of tile characters)."""
    text = path.read_text()
    out = []
    for block in re.findall(r'"""(.*?)"""', text, flags=re.S):
        rows = [r for r in block.split("\n") if r.strip()]
        if rows and all(set(r) <= set(".#=/\\pqdb ") for r in rows):
            out.append(block)
    return out


def test_shipped_ascii_maps_have_no_gap_inside_a_shallow_slope_pair():
    # 'p q' is p, an EMPTY tile, then q: a slope with a step in it (examples/minimal.py had one)
    files = [ROOT / "examples" / "minimal.py", ROOT / "benchmarks" / "bench_player_step.py"]
    found = 0
    for path in files:
        for block in _maps(path):
            found += 1
            for pair in ("p q", "d b"):
                assert pair not in block, f"{path.name}: '{pair}' leaves an empty tile in the slope"
    assert found >= 2
