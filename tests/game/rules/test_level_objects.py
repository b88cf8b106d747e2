"""Every new level object together (tests/maps/kinds.tmx): deterministic, and snapshots restore them all."""

import random
from pathlib import Path

from engine import Buttons, FeelConfig
from game.files.levelfile import load_level
from game.rules.session import Session

MAPS = Path(__file__).resolve().parents[2] / "maps"


def inputs(n, seed=5):
    rng = random.Random(seed)
    out, held = [], Buttons()
    for _ in range(n):
        if rng.random() < 0.08:
            held = Buttons(left=rng.random() < 0.3, right=rng.random() < 0.6, jump=rng.random() < 0.4,
                           down=rng.random() < 0.05)
        out.append(held)
    return out


def session():
    return Session(load_level(MAPS / "kinds.tmx"), FeelConfig.from_dict({"jump": {"height": 64}}))


def play(s, buttons):
    hashes, events = [], []
    for b in buttons:
        events += s.step(b)
        hashes.append(s.state_hash())
    return hashes, events


def test_the_same_inputs_give_the_same_states_with_every_kind_in_play():
    moves = inputs(900)
    a, ev = play(session(), moves)
    b, _ = play(session(), moves)
    assert a == b
    kinds = {e.type for e in ev}
    assert {"death", "hit"} <= kinds, kinds  # the run meets the objects, not only empty floor


def test_restoring_a_snapshot_then_replaying_gives_identical_hashes_with_every_kind_in_play():
    moves = inputs(900, seed=8)
    s = session()
    snaps = {}
    hashes = []
    for i, b in enumerate(moves):
        if i in (0, 150, 400, 700):
            snaps[i] = s.snapshot()
        s.step(b)
        hashes.append(s.state_hash())
    s.step(Buttons(jump=True))  # wander off, then come back
    for at, snap in sorted(snaps.items(), reverse=True):
        s.restore(snap)
        again = []
        for b in moves[at:]:
            s.step(b)
            again.append(s.state_hash())
        assert again == hashes[at:], at
    assert len(s.world.actors) + len(s.enemies.crowd) > 1 and s.blocks.state() and s.enemies.state()


def test_a_snapshot_keeps_bullets_crumbles_broken_blocks_and_dead_enemies():
    s = session()
    for e in s.enemies.all[:2]:
        s.enemies.kill(e.actor, 0)
    for _ in range(130):
        s.step(Buttons())
    snap = s.snapshot()
    before = (len(s.hazards.bullets), s.enemies.alive[:], s.world.grid.digest(), s.state_hash())
    s.hazards.reset()
    s.enemies.kill(s.enemies.all[2].actor, 1)
    s.world.grid.set_tile(10, 6, 0)
    s.restore(snap)
    assert (len(s.hazards.bullets), s.enemies.alive, s.world.grid.digest(), s.state_hash()) == before


def test_the_demo_tour_meets_every_kind_through_the_headless_cli():
    import json
    import os
    import subprocess
    import sys

    root = MAPS.parents[1]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-m", "game", "--headless", "--level", MAPS / "objects_demo.tmx",
                           "--inputs", MAPS / "objects_demo_tour.txt"], capture_output=True, text=True, cwd=root,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    seen = [(e["type"], e["name"]) for e in out["events"]]
    assert ("stomp", "goomba") in seen and ("stomp", "ledge walker") in seen and ("spring", "boing") in seen
    assert [t for t, _ in seen].count("crumble") == 3 and [t for t, _ in seen].count("break") == 3
    assert ("coin", "brick") in seen and out["coins"] == 2 and out["completed"] and out["deaths"] == 0
