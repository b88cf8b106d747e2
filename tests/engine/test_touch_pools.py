"""Among many actors, a bullet or toucher whose groups hold only a few tests those few directly, wherever
they are, instead of asking the spatial hash (``_touches.POOL``): on random scenes, every bullet, touch,
event and trigger comes out exactly as through the hash. Also: the trigger pass follows a trigger's
``senses`` changed after a step (it gathers the groups sensed once, until a trigger or a mask changes)."""

from __future__ import annotations

import random

import pytest

from engine import Actor, Character, Path, Platform, TileGrid, Trigger, World, _touches

MAP = "#" + "." * 48 + "#\n" + ("#" + "." * 48 + "#\n") * 28 + "#" * 50 + "\n"
HERO, ENEMY, SHOT = 1, 2, 4


def _run(seed: int, steps: int = 60):
    rng = random.Random(seed)
    w = World(TileGrid.from_ascii(MAP))
    bodies = []
    for _ in range(rng.randint(0, 30)):
        x, y = rng.uniform(16.0, 740.0), rng.uniform(16.0, 420.0)
        path = Path([(x, y), (x + rng.uniform(-80.0, 80.0), y + rng.uniform(-60.0, 60.0))], speed=200.0) \
            if rng.random() < 0.5 else None
        w.add(Platform(x, y, rng.uniform(8.0, 60.0), rng.uniform(4.0, 30.0), path, one_way=rng.random() < 0.3))
    heroes = [w.add(Character(rng.uniform(20.0, 740.0), rng.uniform(20.0, 400.0), group=HERO,
                              touches=ENEMY | SHOT)) for _ in range(rng.randint(1, 4))]
    for _ in range(rng.randint(30, 60)):  # more than _solids.FEW: the hash is in use
        e = w.add(Actor(rng.uniform(20.0, 740.0), rng.uniform(20.0, 420.0), rng.uniform(6.0, 20.0),
                        rng.uniform(6.0, 20.0), group=ENEMY, touches=rng.choice([0, HERO, ENEMY]),
                        gravity_scale=rng.choice([0.0, 1.0])))
        e.vx, e.vy = rng.uniform(-300.0, 300.0), rng.uniform(-300.0, 300.0)
        bodies.append(e)
    for _ in range(5):
        w.add(Trigger(rng.uniform(0.0, 700.0), rng.uniform(0.0, 400.0), rng.uniform(0.0, 120.0),
                      rng.uniform(0.0, 120.0), senses=rng.choice([HERO, ENEMY, HERO | ENEMY])))
    names = {}
    out = []
    for step in range(steps):
        if step % 2 == 0:
            b = w.add(Actor(rng.uniform(20.0, 740.0), rng.uniform(20.0, 420.0), 4.0, 4.0, bullet=True,
                            gravity_scale=rng.choice([0.0, 1.0]), bounce=rng.choice([0.0, 1.0]), group=SHOT,
                            touches=rng.choice([HERO, HERO, ENEMY, HERO | ENEMY])))
            b.vx, b.vy = rng.uniform(-1500.0, 1500.0), rng.uniform(-1500.0, 1500.0)
            names[b] = f"shot{step}"
            bodies.append(b)
        for i, h in enumerate(heroes):
            names[h] = f"hero{i}"
        for i, e in enumerate(bodies):
            names.setdefault(e, f"body{i}")
        r = w.step()
        out.append(([(names[t.actor], names[t.other], t.side) for t in r.touches],
                    [(e.kind, names.get(e.actor), e.normal) for e in r.events],
                    [(e.kind, e.trigger.x, names.get(e.actor)) for e in r.triggers]))
        for t in r.touches:  # what was hit goes, as a game does with a bullet
            if t.actor.bullet and t.actor in w.actors:
                w.remove(t.actor)
    out.append([(a.x, a.y, a.vx, a.vy) for a in w.actors])
    return out


@pytest.mark.parametrize("seed", range(3))
def test_few_targets_tested_directly_give_what_the_hash_gives(seed, monkeypatch):
    pooled = _run(seed)
    monkeypatch.setattr(_touches, "POOL", False)
    assert _run(seed) == pooled


def test_a_triggers_senses_changed_after_a_step_is_followed():
    w = World(TileGrid.from_ascii("#####\n#...#\n#####\n"))
    hero = w.add(Actor(20.0, 16.0, 8.0, 8.0, gravity=False, group=HERO))
    t = w.add(Trigger(16.0, 16.0, 16.0, 16.0, senses=ENEMY))
    assert w.step().triggers == []
    t.senses = HERO
    assert [(e.kind, e.actor) for e in w.step().triggers] == [("enter", hero)]
    t.senses = ENEMY
    assert [(e.kind, e.actor) for e in w.step().triggers] == [("exit", hero)]
    with pytest.raises(TypeError, match="bit mask"):
        t.senses = 1.5
