"""examples/actors.py played headless for a few thousand steps by a small bot: blocks broken by head
bumps, a walker stomped, bullets stopped by the walls, and nothing ever inside a solid."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine import Buttons
from engine._motion import box_free

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))

import actors  # noqa: E402  (the example, imported as a module: its Game runs without a window)


class Bot:
    """Stomp the walker on the left, then stand under each breakable block and jump."""

    def __init__(self, game: actors.Game):
        self.game, self.held = game, False

    def buttons(self) -> Buttons:
        game, hero = self.game, self.game.hero
        centre = hero.x + hero.w / 2
        prey = [w for w in game.walkers if w.y > 140 and w.x < game.crate.x]  # on the floor, left of the crate
        if game.stomps == 0 and prey:
            target, reach = prey[0].x + prey[0].w / 2, 48.0
        elif game.breakable:
            col, _row = min(game.breakable)
            target, reach = col * 16 + 8, 2.0
        else:
            return Buttons()
        dx = target - centre
        jump = hero.on_ground and abs(dx) < reach and not self.held or (self.held and hero.vy < 0)
        self.held = jump
        near = abs(dx) < 2.0 and not hero.on_ground or abs(dx) < 1.0
        return Buttons(left=dx < 0 and not near, right=dx > 0 and not near, jump=jump)


def test_the_example_plays_breaks_blocks_stomps_and_never_leaves_anything_in_a_solid():
    game = actors.Game()
    bot, world = Bot(game), game.world
    for _ in range(3000):
        game.step(bot.buttons())
        crates = [a for a in world.actors if a.solid]
        for a in world.actors:
            solids = world.platforms + [c for c in crates if c is not a]
            assert a.squished or box_free(world.grid, solids, a.x, a.y, a.w, a.h), (world.steps, a)
    assert game.broken == 4 and not game.breakable  # every block broken by a head bump
    assert game.stomps >= 1 and len(game.walkers) == 2
    assert game.stopped >= 25  # the turret's shots died on the far wall (one every 1.5 s)
    assert all(b.x < world.grid.width for b in game.bullets)


def test_the_example_window_runs_headless():
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))  # this engine/
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "actors.py"), "120"], env=env,
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
