"""The tutorial as a test: the README's first program, and examples/minimal.py running headless."""

import os
import subprocess
import sys
from pathlib import Path

from engine import Buttons, Character, FixedTimestep, TileGrid, World

ROOT = Path(__file__).resolve().parents[2]


def test_hello_world():
    # 1. A level: one character per 16 px tile ('#' solid, '=' one-way, '/' a 45° slope).
    world = World(TileGrid.from_ascii("""
..........
...====...
......./##
##########
"""))
    # 2. A player: a 10x14 box whose top-left corner starts at (8, 10).
    hero = world.add(Character(8, 10))
    # 3. Fixed steps from variable frame times: here 55 frames at 60 fps, holding right.
    clock = FixedTimestep(world)  # steps at the world's rate: feel.physics.hz (60)
    for _ in range(55):
        for _ in range(clock.advance(1 / 60)):
            world.step(Buttons(right=True))
    # It fell onto the floor, ran right and walked up the slope onto the block.
    assert hero.on_ground
    assert hero.x > 120 and hero.y + hero.h == 32
    # 4. Draw it between the last two steps: lerp(previous, current, alpha). Frames here are exactly one
    #    step long, so alpha is 0 and the drawing is one step behind (the price of smoothness).
    x, y = hero.interpolated(clock.alpha)
    assert clock.alpha == 0.0
    assert (x, y) == (hero.prev_x, hero.prev_y)


def test_minimal_example_runs_headless():
    # the checkout's engine/ first, installed or not (a copied engine/ sits beside the user's script)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "minimal.py"), "90"], env=env,
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
