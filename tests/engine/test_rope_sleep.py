"""Ropes asleep (``RopeConfig.sleep_speed``): a rope at rest holds still and costs nothing until something
wakes it; the broad phase of the nudge (each actor tested against the ropes near it only) moves every
particle exactly as testing every actor against every particle does."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import Actor, Buttons, Character, Rope, RopeConfig, TileGrid, TileKind, World
from engine import ropes as ropes_module

FLOOR = "." * 40 + "\n"
MAP = FLOOR * 9 + "#" * 40 + "\n"  # a floor whose top is at y = 144
SLEEPY = RopeConfig(segments=30, segment_length=8.0, sleep_speed=2.0, sleep_time=0.5)


def lying(config=SLEEPY, x=40.0):
    """A world with one rope pinned 40 px above the floor: most of it lies along the floor."""
    w = World(TileGrid.from_ascii(MAP))
    rope = w.add(Rope(x, 104.0, config))
    return w, rope


def settle(w, rope, most=600):
    for i in range(most):
        w.step()
        if rope.asleep:
            return i + 1
    raise AssertionError("the rope never fell asleep")


def test_a_rope_lying_still_falls_asleep_and_then_holds_exactly_still():
    w, rope = lying()
    steps = settle(w, rope)
    assert 30 <= steps < 600  # at least sleep_time of stillness first
    assert rope.resting  # its free end lies on the floor
    before = rope.points
    assert rope.velocity(-1) == (0.0, 0.0)  # put to rest as it fell asleep
    for _ in range(120):
        w.step()
    assert rope.asleep and rope.points == before


def test_without_a_sleep_speed_a_rope_never_sleeps():
    w, rope = lying(RopeConfig(segments=30, segment_length=8.0))
    for _ in range(400):
        w.step()
    assert not rope.asleep


@pytest.mark.parametrize("how", ["push", "pin", "tile", "actor"])
def test_a_sleeping_rope_wakes_when_something_changes(how):
    w, rope = lying()
    settle(w, rope)
    if how == "push":
        rope.push(-1, 200.0, -200.0)
    elif how == "pin":
        x, y = rope.pin
        rope.pin = (x + 20.0, y)
    elif how == "tile":
        w.grid.set_tile(5, 9, TileKind.EMPTY)  # a hole in the floor under it
    else:
        w.add(Character(10.0, 120.0))
    before = rope.points
    for _ in range(40):
        w.step(Buttons(right=True))
    assert rope.points != before
    assert not rope.asleep or how == "tile"  # (it may have settled again in the hole by now)


def test_snapshot_and_restore_keep_the_sleep_state():
    w, rope = lying()
    for _ in range(20):  # settling, not asleep yet
        w.step()
    snap = w.snapshot()
    runs = []
    for _ in range(2):
        w.restore(snap)
        for _ in range(100):
            w.step()
        runs.append((w.state_hash(), rope.points, rope.asleep))
    assert runs[0] == runs[1] and runs[0][2]


# -- the nudge's broad phase against testing everything --------------------------------------------------

def _reference_nudge(self, actors, crowds=(), asleep=None, frozen=None):
    """The plain nudge: every moving actor against every particle (crowds: not in these scenes), but the
    particles of a frozen rope."""
    moving = [a for a in actors if (a.x != a.prev_x or a.y != a.prev_y) and a._hold is None]
    pos, prev, cols, nudging = self._pos, self._prev, self._cols, self._nudging
    if frozen is not None:
        nudging = nudging & ~np.repeat(np.array(frozen), cols)
    for a in moving:
        x, y = pos.real, pos.imag
        hit = (x < a.x + a.w) & (x + self._size > a.x) & (y < a.y + a.h) & (y + self._size > a.y) & nudging
        if not hit.any():
            continue
        mx, my = a.x - a.prev_x, a.y - a.prev_y
        for at in np.flatnonzero(hit).tolist():
            if asleep is not None and asleep[at]:
                row = at // cols
                asleep[row * cols:(row + 1) * cols] = False
                self.ropes[row]._still = 0
            share, p, s = self._share[at // cols], complex(pos[at]), complex(prev[at])
            gx, gy = mx - (p.real - s.real), my - (p.imag - s.imag)
            pos[at] = complex(p.real + share * gx if gx * mx > 0.0 else p.real,
                              p.imag + share * gy if gy * my > 0.0 else p.imag)


def _scene(seed):
    rng = random.Random(seed)
    w = World(TileGrid.from_ascii(MAP))
    for _ in range(12):
        cfg = RopeConfig(segments=rng.randint(2, 24), segment_length=rng.uniform(2.0, 9.0),
                         nudge=rng.choice([0.0, 0.3, 1.0]), radius=rng.uniform(0.5, 3.0),
                         sleep_speed=rng.choice([0.0, 5.0]), sleep_time=0.1)
        w.add(Rope(rng.uniform(8.0, 600.0), rng.uniform(8.0, 100.0), cfg))
    movers = []
    for _ in range(8):
        a = w.add(Actor(rng.uniform(0.0, 600.0), rng.uniform(0.0, 120.0), rng.uniform(2.0, 20.0),
                        rng.uniform(2.0, 20.0), gravity=rng.random() < 0.5))
        movers.append(a)
    return w, movers, rng


@pytest.mark.parametrize("seed", range(6))
def test_the_nudge_broad_phase_moves_every_particle_as_testing_everything_does(seed, monkeypatch):
    runs = []
    for nudge in (None, _reference_nudge):
        if nudge is not None:
            monkeypatch.setattr(ropes_module._RopeSet, "_nudge", nudge)
        w, movers, rng = _scene(seed)
        for _ in range(150):
            for a in movers:
                if rng.random() < 0.1:
                    a.vx, a.vy = rng.uniform(-400.0, 400.0), rng.uniform(-300.0, 300.0)
            if rng.random() < 0.1:  # a rope frozen or let go (a game freezing the ropes far from its view)
                rope = rng.choice(w.ropes)
                rope.frozen = not rope.frozen
            w.step()
        runs.append([r.points for r in w.ropes] + [[(a.x, a.y) for a in movers]])
    assert runs[0] == runs[1]


# -- particles sliding along flat tops: all at once against one by one -------------------------------------

def _slide_each(self, grid, todo):
    """The one-by-one ``_slides`` test for each particle (what ``_slide_all`` does in numpy)."""
    pos, prev, cols = self._pos, self._prev, self._cols
    rest = []
    for at in todo.tolist():
        p, s = complex(pos[at]), complex(prev[at])
        w = float(self._size[at])
        if p.imag >= s.imag and ropes_module._slides(grid, s.real, s.imag, p.real, w):
            q = complex(p.real, s.imag)
            if abs(q - complex(self._pins[at // cols])) <= self._reach[at] + ropes_module._EDGE:
                pos[at] = q
                continue
        rest.append(at)
    return np.array(rest, np.intp)


def _lying_scene(seed):
    rng = random.Random(seed)
    rows = []
    for r in range(12):
        rows.append("".join(rng.choice("......#=/\\") if r in (4, 8) or rng.random() < 0.03 else "."
                            for _ in range(40)))
    rows.append("#" * 40)
    w = World(TileGrid.from_ascii("\n".join(rows) + "\n"))
    for _ in range(10):
        cfg = RopeConfig(segments=rng.randint(4, 40), segment_length=rng.uniform(3.0, 12.0),
                         radius=rng.choice([0.5, 1.0, 3.0, 9.0]), sleep_speed=rng.choice([0.0, 3.0]))
        w.add(Rope(rng.uniform(8.0, 620.0), rng.uniform(2.0, 40.0), cfg))
    hero = w.add(Character(rng.uniform(16.0, 600.0), 150.0))
    return w, hero, rng


@pytest.mark.parametrize("seed", range(5))
def test_sliding_particles_move_the_same_all_at_once_as_one_by_one(seed, monkeypatch):
    runs = []
    for slide in (None, _slide_each):
        if slide is not None:
            monkeypatch.setattr(ropes_module._RopeSet, "_slide_all", slide)
        w, hero, rng = _lying_scene(seed)
        for _ in range(200):
            if rng.random() < 0.05:
                w.ropes[rng.randrange(len(w.ropes))].push(-1, rng.uniform(-300, 300), rng.uniform(-300, 300))
            w.step(Buttons(right=rng.random() < 0.6, jump=rng.random() < 0.1))
        runs.append([r.points for r in w.ropes] + [[(hero.x, hero.y)]])
    assert runs[0] == runs[1]


def test_a_frozen_rope_holds_still_unbrushed_and_moves_again_once_let_go():
    w = World(TileGrid.from_ascii(MAP))
    rope = w.add(Rope(100.0, 40.0, RopeConfig(segments=8, segment_length=8.0)))  # hangs free, never sleeps
    rope.push(-1, 300.0, 0.0)
    for _ in range(5):
        w.step()
    rope.frozen = True
    before = rope.points
    walker = w.add(Actor(60.0, 60.0, 10.0, 10.0, gravity=False))  # flies through it
    walker.vx = 200.0
    for _ in range(30):
        rope.push(-1, 500.0, 0.0)  # (dropped: nothing moves it)
        w.step()
        assert rope.points == before and rope.frozen
    assert walker.x > 120.0  # (it went through)
    with pytest.raises(TypeError, match="True or False"):
        rope.frozen = 1
    snap, frozen_hash = w.snapshot(), w.state_hash()
    rope.frozen = False
    assert w.state_hash() != frozen_hash  # (in the state hash, and in snapshots)
    w.restore(snap)
    assert rope.frozen and w.state_hash() == frozen_hash
    rope.frozen = False
    for _ in range(10):
        w.step()
    assert rope.points != before  # it hangs back down from where it was held, swinging
    assert all(abs(v) < 400.0 for i in range(1, 9) for v in rope.velocity(i))


# -- every rope frozen: the step is skipped, exactly as if it had run ----------------------------------------

def _frozen_world(rng):
    w = World(TileGrid.from_ascii(MAP))
    for _ in range(rng.randint(1, 4)):
        cfg = RopeConfig(segments=rng.randint(2, 12), segment_length=rng.uniform(3.0, 9.0),
                         nudge=rng.choice([0.0, 0.5]), sleep_speed=rng.choice([0.0, 2.0]), sleep_time=0.1)
        w.add(Rope(rng.uniform(20.0, 600.0), rng.uniform(8.0, 120.0), cfg))
    hero = w.add(Character(rng.uniform(20.0, 600.0), 100.0, 10.0, 14.0))
    return w, hero


def _change(rng, w, hero, saved):
    """One change a game may make between two steps; ``saved``: the list holding the last snapshot."""
    r = rng.random()
    rope = rng.choice(w.ropes)
    if r < 0.25:
        for each in w.ropes:
            each.frozen = True
    elif r < 0.30:
        rope.frozen = not rope.frozen
    elif r < 0.34:
        rope.push(-1, rng.uniform(-300.0, 300.0), 0.0)
    elif r < 0.37 and hero._hold is None:
        rope.attach(hero)
        if rng.random() < 0.5:  # (a grab let go before the next step: the rope moved all the same)
            rope.release(hero)
    elif r < 0.40 and hero._hold is not None:
        hero._hold.release(hero)
    elif r < 0.43:
        x, y = rope.pin
        rope.pin = (x + rng.uniform(-8.0, 8.0), y)
    elif r < 0.47:
        kind = rng.choice([TileKind.SOLID, TileKind.EMPTY])
        w.grid.set_tile(rng.randrange(w.grid.cols), rng.randrange(3, 9), kind)
    elif r < 0.50:
        if rng.random() < 0.5:  # (a snapshot of ropes frozen since the last step)
            for each in w.ropes:
                each.frozen = True
        saved[:] = [w.snapshot()]
    elif r < 0.53 and saved:
        w.restore(saved[0])


def _frozen_run(seed, reference: bool):
    """A scene that freezes every rope most of the time and meanwhile pushes, grabs, lets go, moves pins,
    edits tiles under the ropes and restores snapshots (up to three changes between two steps);
    ``reference``: never skip a step. Per step: the world's state hash; and how many steps were skipped."""
    rng = random.Random(seed)
    w, hero = _frozen_world(rng)
    hashes, saved, skipped = [], [], 0
    for _ in range(200):
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            _change(rng, w, hero, saved)
        rs = w._rope_set
        if reference:
            rs._quiet = None
        quiet = rs._quiet
        w.step(Buttons(right=rng.random() < 0.5, jump=rng.random() < 0.1))
        skipped += quiet is not None and rs._quiet is quiet
        hashes.append(w.state_hash())
    return hashes, skipped


@pytest.mark.parametrize("seed", range(24))
def test_a_step_with_every_rope_frozen_is_skipped_only_where_it_would_change_nothing(seed):
    """The rope set skips a step while every rope is frozen and the last step changed nothing (a tall level's
    vines far from the view cost nothing); against a world that runs every step in full, the state hash is
    the same after every step, through pushes, grabs, pins, tile edits and restored snapshots."""
    fast, skipped = _frozen_run(seed, reference=False)
    slow, _ = _frozen_run(seed, reference=True)
    assert fast == slow
    if seed == 0:
        assert skipped > 20  # (and the skip happens)


def test_a_frozen_rope_grabbed_and_let_go_between_two_steps_moves_as_in_a_full_step():
    """A grab writes the particle at the hands (and its velocity); let go before the next step, the rope is
    frozen and unheld again, but that step must still run."""
    def run(skip: bool):
        w = World(TileGrid.from_ascii(MAP))
        rope = w.add(Rope(100.0, 40.0, RopeConfig(segments=8, segment_length=8.0)))
        hero = w.add(Character(96.0, 60.0, 10.0, 14.0))
        rope.frozen = True
        for _ in range(4):
            w.step(Buttons(right=True))
        assert w._rope_set._quiet is not None  # (skipping from here)
        rope.attach(hero)
        rope.release(hero)
        if not skip:
            w._rope_set._quiet = None
        w.step(Buttons(right=True))
        return w.state_hash(), rope.points
    assert run(skip=True) == run(skip=False)

