"""engine/ alone, copied into an empty folder with pygame and pytmx unimportable, still runs."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import engine

PROGRAM = r'''
import sys

class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pygame", "pytmx", "game"):
            raise ImportError(f"{name} is blocked in this test")
        return None

sys.meta_path.insert(0, Block())
from engine import Buttons, Character, TileGrid, World, FixedTimestep
grid = TileGrid.from_ascii("""
..........
...====...
......./#.
##########
""")
world = World(grid)
hero = world.add(Character(8, 10))
clock = FixedTimestep(world)
for frame in range(120):
    for _ in range(clock.advance(1 / 60)):
        world.step(Buttons(right=frame > 20, jump=40 < frame < 60))
assert hero.x > 60, hero
mods = [m for m in sys.modules if m.split(".")[0] in ("pygame", "pytmx", "game")]
assert not mods, mods
import engine, os
assert os.path.dirname(os.path.abspath(engine.__file__)) == os.path.join(os.getcwd(), "engine"), engine.__file__
print("ok", round(hero.x, 3), world.state_hash()[:12])
'''


def test_engine_folder_runs_alone(tmp_path: Path):
    src = Path(engine.__file__).parent
    shutil.copytree(src, tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "run.py").write_text(PROGRAM)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    out = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok ")


def test_engine_sources_import_nothing_from_pygame_pytmx_or_game():
    src = Path(engine.__file__).parent
    for path in src.glob("*.py"):
        for line in path.read_text().splitlines():
            words = line.split()
            if words[:1] in (["import"], ["from"]) and len(words) > 1:
                root = words[1].split(".")[0]
                assert root not in ("pygame", "pytmx", "game"), f"{path.name}: {line}"
