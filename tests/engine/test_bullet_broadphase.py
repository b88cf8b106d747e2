"""Bullets among many platforms look only at the platforms near their path (``Step.platforms_in``): on
random scenes, every bullet goes exactly where it goes when it tests every platform."""

from __future__ import annotations

import random

import pytest

from engine import Actor, Character, Path, Platform, TileGrid, World, _solids

MAP = "#" + "." * 48 + "#\n" + ("#" + "." * 48 + "#\n") * 28 + "#" * 50 + "\n"


def _run(seed: int, steps: int = 120):
    rng = random.Random(seed)
    w = World(TileGrid.from_ascii(MAP))
    for _ in range(60):  # many more than _solids.FEW: the broad phase is in use
        x, y = rng.uniform(16.0, 740.0), rng.uniform(16.0, 420.0)
        size = (rng.uniform(4.0, 60.0), rng.uniform(4.0, 40.0))
        path = None
        if rng.random() < 0.4:
            path = Path([(x, y), (x + rng.uniform(-80.0, 80.0), y + rng.uniform(-60.0, 60.0))],
                        speed=rng.uniform(20.0, 400.0))
        w.add(Platform(x, y, *size, path, one_way=rng.random() < 0.3))
    hero = w.add(Character(380.0, 200.0, group=1))
    shots = []
    for step in range(steps):
        if step % 3 == 0:
            b = w.add(Actor(rng.uniform(20.0, 740.0), rng.uniform(20.0, 420.0), 4.0, 4.0, bullet=True,
                            gravity_scale=rng.choice([0.0, 1.0]), bounce=rng.choice([0.0, 0.5, 1.0]),
                            group=2, touches=1))
            b.vx, b.vy = rng.uniform(-2500.0, 2500.0), rng.uniform(-2500.0, 2500.0)
            shots.append(b)
        w.step()
    return [(b.x, b.y, b.vx, b.vy, b.on_ground) for b in shots] + [(hero.x, hero.y)]


@pytest.mark.parametrize("seed", range(4))
def test_bullets_near_platforms_fly_as_they_do_testing_every_platform(seed, monkeypatch):
    near = _run(seed)
    monkeypatch.setattr(_solids, "FEW", 10 ** 9)  # every platform, always
    assert _run(seed) == near
