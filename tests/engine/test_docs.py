"""engine/README.md and its reference pages (engine/docs/) document every public name, name nothing outside
engine/ (they travel with the folder), link only to pages that exist, and their code runs; the ASCII maps
people copy draw what they mean."""

import contextlib
import io
import re
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "engine" / "README.md").read_text()
PAGES = [ROOT / "engine" / "README.md"] + sorted((ROOT / "engine" / "docs").glob("*.md"))


def _docs_text() -> str:
    """engine/README.md and the reference pages beside it (engine/docs/*.md)."""
    return "\n".join(p.read_text() for p in PAGES)


def test_every_public_name_is_documented_in_the_engine_readme_or_its_pages():
    documented = set(re.findall(r"`([A-Za-z_][A-Za-z_0-9]*)", _docs_text()))
    missing = [name for name in engine.__all__ if name not in documented]
    assert not missing, f"engine/README.md and engine/docs/ never mention {missing}"
    in_readme = set(re.findall(r"`([A-Za-z_][A-Za-z_0-9]*)", README))
    assert not [name for name in engine.__all__ if name not in in_readme]  # (its table of public names)


def test_the_pages_name_nothing_outside_engine():
    outside = re.compile(r"\b(examples|tests|benchmarks|game|tools|levels|presets|assets)/|feel\.toml|python -m ")
    for page in PAGES:
        for n, line in enumerate(page.read_text().split("\n"), 1):
            assert not outside.search(line), f"{page.relative_to(ROOT)}:{n} names a file outside engine/: {line}"


def test_every_link_between_the_pages_resolves():
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text()):
            assert (page.parent / target).exists(), f"{page.relative_to(ROOT)} links to {target}, which is missing"
    linked = set(re.findall(r"\]\(docs/([^)]+)\)", README))
    assert linked == {p.name for p in PAGES[1:]}, "the README lists every reference page"


def test_the_readme_reads_in_ten_minutes_and_its_quick_start_runs():
    assert len(README.split()) < 2000  # (about 200 words a minute)
    block = re.findall(r"```python\n(.*?)```", README, flags=re.S)[0]
    assert len(block.strip().split("\n")) <= 32
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README quick start", "exec"), {})
    assert out.getvalue() == "hero at (411.0, 34.0), standing: True, coin taken: True\n"


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


def test_the_documented_patrol_recipe_walks_over_a_hill():
    # found by an adopter: the recipe's probe looked h/2 down, a 45-degree ramp falls w + 1 px within a
    # width of its top: every hill turned the walker round at its top
    from engine import Actor, TileGrid, World

    blocks = re.findall(r"```python\n(.*?)```", _docs_text(), flags=re.S)
    block = next(b for b in blocks if "def patrol(" in b)
    lines = block.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("def patrol("))
    end = next(i for i in range(start + 1, len(lines)) if lines[i] and not lines[i].startswith(" "))
    scope: dict = {}
    exec("\n".join(lines[start:end]), scope)
    patrol = scope["patrol"]
    hill = "\n".join(["." * 18, "." * 18, "......../#######\\.", "#" * 18])
    for x, vx in ((160.0, -40.0), (180.0, 40.0), (60.0, 40.0)):
        world = World(TileGrid.from_ascii(hill))
        a = world.add(Actor(x, 20.0, 12, 12))
        world.settle(a)
        a.vx = vx
        xs = []
        for _ in range(1400):
            world.step()
            patrol(world, a)
            xs.append(a.x)
        assert min(xs) == 0.0 and max(xs) == world.grid.width - 12  # over the hill both ways, wall to wall


def test_every_test_the_promise_audit_names_exists():
    # tests/engine/PROMISES.md maps each promise of the pages to the tests that fail without it
    here = Path(__file__).resolve().parent
    audit = (here / "PROMISES.md").read_text()
    defined = set()
    for path in here.glob("test_*.py"):
        defined.add(path.stem)
        defined.update(re.findall(r"^def (test_\w+)", path.read_text(), flags=re.M))
    named = set(re.findall(r"\b(test_\w+?)(?:\.py)?\b", audit))
    assert named and not sorted(named - defined), f"PROMISES.md names missing tests: {sorted(named - defined)}"
