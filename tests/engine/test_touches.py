"""Touches: each actor reports the actors of the groups it cares about that it overlaps (or ran into), with
the side it came from judged from previous positions — checked against brute force on random crowds."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import UNGROUPED, Actor, Character, Crowd, TileGrid, Touch, World
from engine._touches import side

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "30")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

PLAYER, ENEMY, COIN = 1, 2, 4
ROOM = "\n".join(["#" + "." * 30 + "#"] * 8 + ["#" * 32])


def test_only_the_groups_an_actor_touches_are_reported_each_way():
    w = World(TileGrid.from_ascii(ROOM))
    w.add(Actor(100, 100, 10, 14, group=PLAYER, touches=ENEMY | COIN, name="hero"))
    w.add(Actor(104, 104, 8, 8, group=ENEMY, touches=PLAYER, name="enemy"))
    coin = w.add(Actor(96, 110, 6, 6, group=COIN, name="coin"))
    friend = w.add(Actor(102, 102, 8, 8, group=ENEMY, touches=0, name="friend"))
    result = w.step()
    pairs = [(t.actor.name, t.other.name) for t in result.touches]
    assert pairs == [("hero", "enemy"), ("hero", "coin"), ("hero", "friend"), ("enemy", "hero")]
    assert all(isinstance(t, Touch) for t in result.touches)
    assert coin.touches == 0 and friend.touches == 0  # they care about nothing: they report nothing


def test_a_stomp_is_landing_from_above_judged_by_previous_positions():
    w = World(TileGrid.from_ascii(ROOM))
    enemy = w.add(Actor(100, 112, 12, 16, group=ENEMY, name="walker"))
    hero = w.add(Character(101, 60, group=PLAYER, touches=ENEMY))
    enemy.vx = 30.0
    sides = []
    for _ in range(60):
        sides += [(t.other, t.side) for t in w.step().touches if t.actor is hero]
        if sides:
            break
    assert sides == [(enemy, "top")]  # its previous top at or below the hero's previous feet


@pytest.mark.parametrize(("dx", "dy", "expected"), [(30, 0, "left"), (-30, 0, "right"), (0, -30, "bottom")])
def test_the_side_is_where_the_actor_came_from(dx, dy, expected):
    w = World(TileGrid.from_ascii(ROOM))
    other = w.add(Actor(200, 60, 16, 16, gravity=False, group=ENEMY))
    a = w.add(Actor(200 - 30 * (dx > 0) + 30 * (dx < 0), 60 + 30 * (dy < 0), 8, 8, gravity=False,
                    touches=ENEMY))
    a.vx, a.vy = dx * 60.0, dy * 60.0  # one step: from outside to overlapping
    result = w.step()
    assert [(t.other, t.side) for t in result.touches] == [(other, expected)]
    a.vx = a.vy = 0.0
    assert [t.side for t in w.step().touches] == ["inside"]  # overlapping before and after the step


def test_standing_on_a_solid_enemy_is_a_touch_from_the_top():
    w = World(TileGrid.from_ascii(ROOM))
    shell = w.add(Actor(100, 112, 16, 16, solid=True, group=ENEMY, name="shell"))
    hero = w.add(Character(103, 60, group=PLAYER, touches=ENEMY))
    found = []
    for _ in range(40):
        found += [(t.other, t.side) for t in w.step().touches]
    assert found and set(found) == {(shell, "top")} and hero.ground.platform is shell


def test_a_bad_mask_is_a_clear_error():
    with pytest.raises(TypeError, match="touches must be a bit mask"):
        Actor(0, 0, 4, 4, touches=1.5)
    with pytest.raises(ValueError, match="group must be a bit mask"):
        Actor(0, 0, 4, 4, group=-1)
    with pytest.raises(ValueError, match="64 bits"):
        Actor(0, 0, 4, 4, group=1 << 64)


def test_side_of_two_boxes_from_previous_positions():
    a, b = Actor(0, 0, 10, 10), Actor(5, 10, 10, 10)
    assert side(a, b) == "top" and side(b, a) == "bottom"
    a.prev_x, a.prev_y = -10.0, 5.0
    assert side(a, b) == "left" and side(b, a) == "right"
    a.prev_x = 6.0
    assert side(a, b) == "inside"


# -- against brute force: random crowds moving at random ------------------------------------------------------

@st.composite
def crowds(draw):
    world = World(TileGrid.from_ascii(ROOM), cell=draw(st.sampled_from([16.0, 32.0, 64.0, 100.0])))
    for i in range(draw(st.integers(2, 40))):
        a = world.add(Actor(draw(st.floats(16, 460)), draw(st.floats(0, 120)), draw(st.floats(1, 40)),
                            draw(st.floats(1, 40)), gravity=draw(st.booleans()), group=draw(st.integers(0, 7)),
                            touches=draw(st.integers(0, 7)), solid=draw(st.booleans()) and i % 3 == 0,
                            name=f"a{i}"))
        a.vx, a.vy = draw(st.floats(-300, 300)), draw(st.floats(-300, 300))
    return world


@SETTINGS
@given(crowds())
def test_touches_match_brute_force_overlap(world):
    for _ in range(20):
        result = world.step()
        got = [(t.actor, t.other, t.side) for t in result.touches]
        expected = []
        for a in world.actors:
            if not a.touches:
                continue
            ran_into = []
            for c in a.contacts:
                if c.kind == "actor" and a.touches & c.other.group and c.other not in ran_into:
                    ran_into.append(c.other)
                    expected.append((a, c.other, {(0, -1): "top", (0, 1): "bottom", (-1, 0): "left",
                                                  (1, 0): "right"}[c.normal]))
            for b in world.actors:
                if b is not a and a.touches & b.group and b not in ran_into and a.x < b.x + b.w \
                        and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h:
                    expected.append((a, b, side(a, b)))
        assert got == expected


def test_a_body_given_no_group_is_in_none_of_the_groups_a_game_names():
    # found by an adopter: every body's default group was 1, the README's own PLAYER, so a shot with
    # touches=PLAYER reported sheep and barrels
    PLAYER, SHOT = 1, 4
    world = World(TileGrid.from_ascii("\n".join(["." * 30] * 3 + ["#" * 30])))
    hero = world.add(Character(400, 34, group=PLAYER, name="player"))
    barrel = world.add(Actor(200, 32, 16, 16, name="barrel"))
    sheep = world.add(Crowd()).add(100, 40, 8, 8, speed=0, name="sheep")
    assert barrel.group == sheep.group == Character(0, 0).group == UNGROUPED == 1 << 63
    for b in (hero, barrel, sheep):
        world.settle(b)
    shot = world.add(Actor(10, 44, 2, 2, bullet=True, gravity=False, group=SHOT, touches=PLAYER))
    shot.vx = 600.0
    hit = []
    for _ in range(45):
        hit += [t.other.name for t in world.step().touches if t.actor is shot]
    assert hit and set(hit) == {"player"}
    grazer = world.add(Actor(10, 44, 2, 2, bullet=True, gravity=False, touches=UNGROUPED))
    grazer.vx = 600.0
    seen = []
    for _ in range(45):
        seen += [t.other.name for t in world.step().touches if t.actor is grazer]
    assert seen[:1] == ["sheep"] and "player" not in seen
