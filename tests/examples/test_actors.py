"""examples/actors.py played headless for a few thousand steps by a small bot: blocks broken by head
bumps, a walker stomped, bullets stopped by the walls, and nothing ever inside a solid."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_walking_into_the_crate_pushes_it_at_the_heros_speed():
    game = actors.Game()
    world, hero, crate = game.world, game.hero, game.crate
    for walker in game.walkers:  # (out of the way)
        world.remove(walker)
    game.walkers.clear()
    hero.teleport(crate.x - 40, crate.y)
    world.settle(hero)
    xs = []
    for _ in range(90):
        game.step(Buttons(right=True))
        xs.append(crate.x)
    speed = (xs[70] - xs[40]) * 2  # px/s, over a second half
    assert speed == pytest.approx(world.feel.run.max_speed)
    assert crate.x + crate.w == 26 * 16 and hero.x + hero.w == crate.x  # up against the block in the floor


def test_the_vine_is_grabbed_swung_on_climbed_and_let_go_of():
    game = actors.Game()
    hero, vine = game.hero, game.vine
    x, y = vine.points[-1]
    hero.teleport(x - hero.w / 2, y - 2)  # the hands at the vine's end
    game.step(Buttons(up=True))
    assert hero.holding is vine and game.swings == 1
    xs = []
    for _ in range(240):
        game.step(Buttons(right=hero.vx >= 0.0, left=hero.vx < 0.0))  # pumping with the swing
        xs.append(hero.x)
    assert max(xs) - min(xs) > 40.0  # pumped into a swing
    held = vine.holders[0][1]
    for _ in range(30):
        game.step(Buttons(up=True))
    assert vine.holders[0][1] < held  # climbed
    game.step(Buttons(jump=True))
    assert hero.holding is None and hero.vy < 0.0  # let go with a hop
    for _ in range(200):
        game.step(Buttons())
    assert hero.on_ground



def test_patrol_walks_over_a_hill_and_turns_at_the_end_of_a_ledge():
    # (the example's patrol probes the ground ahead with world.sweep, a dry-run move; a probe half the
    # walker's height deep turned it round at the top of every 45-degree ramp)
    from engine import Actor, TileGrid, World

    hill = TileGrid.from_ascii("\n".join(["." * 18, "." * 18, "......../#######\\.", "#" * 18]))
    ledge = TileGrid.from_ascii("\n".join(["." * 18, "." * 18, "....######........", "." * 18, "#" * 18]))
    for grid, x, vx in ((hill, 160.0, -actors.WALK), (hill, 20.0, actors.WALK), (ledge, 70.0, actors.WALK)):
        world = World(grid)
        walker = world.add(Actor(x, 20, 12, 12))
        world.settle(walker)
        walker.vx = vx
        xs = []
        for _ in range(1400):
            world.step()
            actors.patrol(world, walker)
            xs.append(walker.x)
        if grid is hill:  # over the hill both ways, wall to wall (its probe past a wall finds no ground)
            assert min(xs) < 2.0 and max(xs) > grid.width - 12 - 2.0
        else:  # back and forth on the ledge, never off it
            assert walker.y + walker.h == 32.0 and 64.0 - 12.0 < min(xs) and max(xs) < 160.0
            assert max(xs) > 140.0 and min(xs) < 72.0
