"""Holding a rope (rope.attach / rope.release): an actor hangs from a particle, swings as a pendulum with
the rope, pumps and climbs, lets go keeping its velocity; walls still stop it; snapshots, clones and
hashes know who holds what."""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Actor, Buttons, Character, Rope, RopeConfig, TileGrid, World
from engine._motion import box_free

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "20")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

HALL = ("." * 30 + "\n") * 15 + "#" * 30


def hanging(at=5, x=230.0, text=HALL, cfg=None):
    """A character holding particle ``at`` of a vine pinned at (240, 0), let go of ``x`` px to the side."""
    w = World(TileGrid.from_ascii(text))
    vine = w.add(Rope(240, 0, cfg or RopeConfig(segments=10, segment_length=8)))
    hero = w.add(Character(x - 5.0, 40.0))
    assert vine.attach(hero, at) == at
    return w, vine, hero


def centre_x(hero):
    return hero.x + hero.w / 2


def test_a_held_character_hangs_from_its_particle_and_swings_like_a_pendulum():
    w, vine, hero = hanging(x=224.0)
    xs = []
    for _ in range(240):
        w.step()
        i = vine.holders[0][1]
        px, py = vine.points[i]
        assert centre_x(hero) == pytest.approx(px, abs=1e-6) and hero.y == pytest.approx(py, abs=1e-6)
        assert not hero.on_ground and hero.ground is None
        xs.append(centre_x(hero))
    assert min(xs) < 232.0 and max(xs) > 248.0  # through the bottom and up the other side
    crossings = [k for k in range(1, len(xs)) if (xs[k - 1] - 240.0) * (xs[k] - 240.0) < 0.0]
    period = 2.0 * (crossings[-1] - crossings[0]) / (len(crossings) - 1) / 60.0  # s
    length = 5 * 8.0
    expected = 2.0 * math.pi * math.sqrt(length / w.feel.derived.fall_gravity)
    assert period == pytest.approx(expected, rel=0.1)


def test_pumping_left_and_right_in_time_swings_higher():
    def amplitude(pump):
        w, vine, hero = hanging()
        most = 0.0
        for s in range(360):
            right = hero.vx > 0.0
            w.step(Buttons(right=pump and right, left=pump and not right))
            if s > 240:
                most = max(most, abs(centre_x(hero) - 240.0))
        return most

    assert amplitude(True) > 2.0 * amplitude(False)


def test_up_and_down_climb_along_the_rope_one_particle_at_a_time():
    w, vine, hero = hanging(at=5)
    seen = []
    for _ in range(60):
        w.step(Buttons(up=True))
        seen.append(vine.holders[0][1])
    assert seen[-1] == 1 and all(b - a in (0, -1) for a, b in zip([5] + seen[:-1], seen, strict=True))
    for _ in range(400):
        w.step(Buttons(down=True))
    assert vine.holders[0][1] == 10  # the free end
    # 48 px/s: one 8 px segment every 10 steps
    w, vine, hero = hanging(at=9)
    for _ in range(10):
        w.step(Buttons(up=True))
    assert vine.holders[0][1] == 8


def test_letting_go_keeps_the_swing_velocity_and_the_controller_takes_over():
    w, vine, hero = hanging(x=220.0)
    for _ in range(20):
        w.step()
    swing = (hero.vx, hero.vy)
    assert abs(swing[0]) > 30.0
    assert vine.release(hero) == swing and vine.holders == []
    x0 = hero.x
    w.step()
    assert (hero.x - x0) / (swing[0] / 60.0) > 0.75  # flies on (the controller's air drag aside), then runs
    for _ in range(120):
        w.step()
    for _ in range(20):
        w.step(Buttons(left=True))
    assert hero.on_ground and hero.vx < -50.0  # the controller runs it again


def test_a_wall_stops_the_holder_and_its_particle():
    text = ("......#.........\n") * 12 + "################"
    w = World(TileGrid.from_ascii(text))
    vine = w.add(Rope(140, 0, RopeConfig(segments=10, segment_length=8)))
    hero = w.add(Character(180, 60))
    vine.attach(hero, 8)
    walls = 0
    for _ in range(240):
        w.step(Buttons(left=True))
        assert box_free(w.grid, [], hero.x, hero.y, hero.w, hero.h)
        assert hero.x >= 112.0
        walls += hero.wall is not None
        px, _py = vine.points[8]
        assert px == pytest.approx(centre_x(hero), abs=1e-6)
    assert walls > 0


def test_a_plain_actor_can_hold_on_too_and_hangs_still_without_input():
    w = World(TileGrid.from_ascii(HALL))
    vine = w.add(Rope(240, 0, RopeConfig(segments=6, segment_length=8)))
    crate = w.add(Actor(235, 30, 10, 10))
    vine.attach(crate)
    for _ in range(600):
        w.step()
    x, y = vine.points[vine.holders[0][1]]
    assert crate.y == pytest.approx(y) and abs(centre_x(crate) - 240.0) < 0.5  # settled under the pin


def test_removing_teleporting_or_removing_the_rope_lets_go():
    w, vine, hero = hanging()
    w.step()
    hero.teleport(100, 100)
    assert vine.holders == [] and hero._hold is None and (hero.vx, hero.vy) == (0.0, 0.0)
    vine.attach(hero)
    w.remove(hero)
    assert vine.holders == []
    w.add(hero)
    vine.attach(hero)
    w.step()
    w.remove(vine)
    assert hero._hold is None
    w.step()  # falls on its own


def test_attach_and_release_say_what_is_wrong():
    w, vine, hero = hanging()
    with pytest.raises(ValueError, match="already holds"):
        vine.attach(hero)
    with pytest.raises(ValueError, match="not an actor in this rope's world"):
        vine.attach(Actor(0, 0, 4, 4))
    with pytest.raises(ValueError, match="solid or a bullet"):
        vine.attach(w.add(Actor(0, 0, 4, 4, solid=True)))
    other = w.add(Actor(200, 40, 8, 8))
    with pytest.raises(IndexError, match="outside 1..10"):
        vine.attach(other, 0)
    with pytest.raises(ValueError, match="does not hold"):
        vine.release(other)
    with pytest.raises(ValueError, match="not in a world"):
        Rope(0, 0).attach(other)


def test_state_hash_snapshot_restore_and_clone_with_a_holder():
    w, vine, hero = hanging(x=222.0)
    before = w.snapshot()
    for _ in range(10):
        w.step(Buttons(right=True))
    snap, h = w.snapshot(), w.state_hash()
    twin = w.clone()
    runs = []
    for _ in range(2):
        w.restore(snap)
        assert w.state_hash() == h
        for s in range(30):
            w.step(Buttons(up=s < 15, left=s >= 15))
        runs.append((w.state_hash(), hero.x, hero.y, vine.holders[0][1]))
    assert runs[0] == runs[1]
    for s in range(30):
        twin.step(Buttons(up=s < 15, left=s >= 15))
    assert twin.state_hash() == runs[0][0]
    vine.release(hero)
    w.restore(before)  # held again, as at the snapshot
    assert vine.holders == [(hero, 5)] and hero._hold is vine
    w.restore(snap)
    other = w.add(Character(100, 40))
    w2 = w.state_hash()
    vine.attach(other)
    assert w.state_hash() != w2  # who holds what is state


@st.composite
def swings(draw):
    cols = draw(st.integers(8, 16))
    rows = ["".join(draw(st.lists(st.sampled_from("......#=/"), min_size=cols, max_size=cols)))
            for _ in range(draw(st.integers(5, 9)))]
    rows[0] = "." * cols
    rows.append("#" * cols)
    pin = draw(st.integers(1, cols - 2)) * 16 + 8
    plan = draw(st.lists(st.tuples(st.integers(0, 7), st.sampled_from(["attach", "release", "none"])),
                         min_size=3, max_size=8))
    return "\n".join(rows), pin, draw(st.integers(2, 8)), plan


@SETTINGS
@given(swings())
def test_holding_never_ends_inside_a_solid_is_deterministic_and_restores(scene):
    text, pin, segments, plan = scene
    grid = TileGrid.from_ascii(text)

    def run(world, hero, vine, record):
        for k, (bits, what) in enumerate(plan):
            if what == "attach" and hero._hold is None:
                vine.attach(hero)
            elif what == "release" and hero._hold is vine:
                vine.release(hero)
            for _ in range(12):
                world.step(Buttons(left=bits & 1 > 0, right=bits & 2 > 0, up=bits & 4 > 0, down=k % 3 == 0))
                if not hero.squished:
                    assert box_free(world.grid, world.platforms, hero.x, hero.y, hero.w, hero.h), (k, hero)
            record.append(world.state_hash())

    def build():
        world = World(grid.copy())
        vine = world.add(Rope(pin, 0, RopeConfig(segments=segments, segment_length=8)))
        hero = world.add(Character(pin - 5, 2))
        return world, vine, hero

    w1, v1, h1 = build()
    w2, v2, h2 = build()
    first, second = [], []
    snap = w1.snapshot()
    run(w1, h1, v1, first)
    run(w2, h2, v2, second)
    assert first == second  # same inputs, same states
    w1.restore(snap)
    again = []
    run(w1, h1, v1, again)
    assert again == first
