"""Bad input fails where it is given, in one line that names the argument and says the fix: every public
constructor and ``World.step`` reject non-finite numbers, negative sizes and wrong types
(``engine/_check.py``). Nothing is accepted now to crash a later step far from the mistake."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import (Actor, Buttons, Character, Edges, FeelConfig, GridError, Jump, Path, Platform, Rect,
                    TileGrid, TileKind, Trigger, World)

NAN, INF = math.nan, math.inf
GRID = TileGrid.from_ascii("........\n........\n########")


def one_line(err: pytest.ExceptionInfo, *words: str) -> None:
    text = str(err.value)
    assert "\n" not in text, text
    for word in words:
        assert word in text, f"{word!r} not named in: {text}"


BAD_CONSTRUCTIONS = [
    # (call, exception, words the message must name)
    (lambda: Actor(NAN, 0, 10, 10), ValueError, ["Actor", "x", "finite"]),
    (lambda: Actor(0, INF, 10, 10), ValueError, ["Actor", "y"]),
    (lambda: Actor(0, 0, -1, 5), ValueError, ["Actor", "w", "> 0"]),
    (lambda: Actor(0, 0, 5, 0), ValueError, ["Actor", "h"]),
    (lambda: Actor(0, 0, 5, NAN), ValueError, ["Actor", "h"]),
    (lambda: Actor("1", 0, 5, 5), TypeError, ["Actor", "x", "number"]),
    (lambda: Actor(True, 0, 5, 5), TypeError, ["Actor", "x"]),
    (lambda: Actor(0, 0, 5, 5, gravity="yes"), TypeError, ["Actor", "gravity", "True or False"]),
    (lambda: Actor(0, 0, 5, 5, snap=None), TypeError, ["Actor", "snap"]),
    (lambda: Actor(0, 0, 5, 5, name=3), TypeError, ["Actor", "name", "string"]),
    (lambda: Character(NAN, 0), ValueError, ["Character", "x"]),
    (lambda: Character(0, 0, w=-10), ValueError, ["Character", "w"]),
    (lambda: Platform(0, 0, 0, 5), ValueError, ["Platform", "w"]),
    (lambda: Platform(NAN, 0, 5, 5), ValueError, ["Platform", "x"]),
    (lambda: Platform(0, 0, 5, 5, path=[(0, 0), (5, 0)]), TypeError, ["Platform", "path", "Path("]),
    (lambda: Platform(0, 0, 5, 5, one_way="no"), TypeError, ["Platform", "one_way"]),
    (lambda: Path([], 40), ValueError, ["Path", "points", "at least one point"]),
    (lambda: Path("abc", 40), TypeError, ["Path", "points"]),
    (lambda: Path([(0, 0), 5], 40), TypeError, ["Path", "points[1]"]),
    (lambda: Path([(0, 0), (0, NAN)], 40), ValueError, ["Path", "points[1] y"]),
    (lambda: Path([(0, 0)], speed=-1), ValueError, ["Path", "speed", "px/s"]),
    (lambda: Path([(0, 0)], speed=INF), ValueError, ["Path", "speed"]),
    (lambda: Path([(0, 0)], speed="fast"), TypeError, ["Path", "speed"]),
    (lambda: Path([(0, 0)], speed=1, wait=-0.5), ValueError, ["Path", "wait", " s"]),
    (lambda: Path([(0, 0)], speed=1, mode="bounce"), ValueError, ["Path", "mode", "ping-pong"]),
    (lambda: Trigger(0, 0, -1, 5), ValueError, ["Trigger", "w", ">= 0"]),
    (lambda: Trigger(0, NAN, 1, 5), ValueError, ["Trigger", "y"]),
    (lambda: Rect(0, 0, -1, 1), ValueError, ["Rect", "w"]),
    (lambda: Buttons(left="yes"), TypeError, ["Buttons", "left", "True or False"]),
    (lambda: Buttons(jump=None), TypeError, ["Buttons", "jump"]),
    (lambda: Edges(left="wall"), TypeError, ["Edges", "left"]),
    (lambda: Jump(height=-1), ValueError, ["jump.height", "4.0..400.0"]),
    (lambda: FeelConfig(jump=3), ValueError, ["jump", "Jump(...)"]),
    (lambda: World(GRID, feel={"jump": {}}), TypeError, ["feel", "FeelConfig"]),
    (lambda: World("map"), TypeError, ["TileGrid"]),
    (lambda: TileGrid.from_ascii("v.", legend={"v": TileKind.SLOPE}), GridError, ["'v'", "slope", "heights"]),
    (lambda: TileGrid.from_ascii("v.", legend={"v": (TileKind.SLOPE, 0, 2)}), GridError, ["'v'", "0..1"]),
    (lambda: TileGrid.from_ascii("v.", legend={"vv": TileKind.SOLID}), GridError, ["single characters"]),
    (lambda: TileGrid.from_ascii("v.", legend={"v": 9}), GridError, ["'v'", "kind"]),
    (lambda: TileGrid.from_ascii("..", edges=(True, True)), GridError, ["edges", "Edges("]),
]


@pytest.mark.parametrize("call,error,words", BAD_CONSTRUCTIONS, ids=[" ".join(c[2][:2]) for c in BAD_CONSTRUCTIONS])
def test_bad_constructor_arguments_are_named_with_the_fix(call, error, words):
    with pytest.raises(error) as err:
        call()
    one_line(err, *words)


def test_friendly_inputs_are_accepted_and_normalised():
    a = Actor(np.float32(1.5), 2, np.int64(10), 14, gravity=np.bool_(False))
    assert (a.x, a.w, a.gravity) == (1.5, 10.0, False) and type(a.w) is float
    assert Buttons(left=1, jump=np.bool_(True)) == Buttons(left=True, jump=True)
    assert Path(np.array([[0, 0], [32, 0]]), speed=40).points == [(0.0, 0.0), (32.0, 0.0)]
    assert Trigger(0, 0, 0, 0).w == 0.0  # a point trigger
    # a bare kind in a legend is a flat tile (it used to fail with "cannot unpack non-iterable TileKind")
    g = TileGrid.from_ascii("E#", legend={"E": TileKind.EMPTY})
    assert g.kind_at(0, 0) is TileKind.EMPTY and g.kind_at(1, 0) is TileKind.SOLID


def test_trigger_setters_validate_too():
    t = Trigger(0, 0, 5, 5)
    with pytest.raises(ValueError) as err:
        t.h = -2
    one_line(err, "Trigger", "h")
    assert t.h == 5


def test_teleport_checks_its_numbers():
    a = Actor(0, 0, 5, 5)
    with pytest.raises(ValueError) as err:
        a.teleport(NAN, 3)
    one_line(err, "teleport", "x")


# -- World.step ------------------------------------------------------------------------------------
def world_with_hero():
    w = World(GRID)
    hero = w.add(Character(20, 0))
    return w, hero


@pytest.mark.parametrize("inputs", ["right", 3, [Buttons()], (True, False, False, False, True)])
def test_step_rejects_what_is_not_buttons(inputs):
    w, _ = world_with_hero()
    with pytest.raises(TypeError) as err:
        w.step(inputs)
    one_line(err, "world.step()", "Buttons")


def test_step_rejects_buttons_for_a_plain_actor_or_a_stranger():
    w, hero = world_with_hero()
    rock = w.add(Actor(40, 0, 5, 5))
    with pytest.raises(ValueError) as err:
        w.step({rock: Buttons(jump=True)})
    one_line(err, "not a Character", "vx")
    stranger = Character(0, 0)
    with pytest.raises(ValueError) as err:
        w.step({stranger: Buttons()})
    one_line(err, "not in this world", "world.add")
    with pytest.raises(TypeError) as err:
        w.step({hero: "jump"})
    one_line(err, "Buttons(...)")
    assert w.steps == 0  # nothing was stepped
    w.step({hero: Buttons(right=True)})
    assert w.steps == 1


@pytest.mark.parametrize("field,value", [("x", NAN), ("y", INF), ("w", -3.0), ("h", NAN)])
def test_a_position_or_size_broken_by_hand_is_named_at_the_next_step(field, value):
    w, hero = world_with_hero()
    w.step()
    setattr(hero, field, value)
    with pytest.raises(ValueError) as err:
        w.step()
    one_line(err, field, "teleport")


@pytest.mark.parametrize("field", ["vx", "vy"])
def test_a_non_finite_velocity_set_by_hand_is_named_at_the_next_step(field):
    w, hero = world_with_hero()
    w.step()
    setattr(hero, field, NAN)
    with pytest.raises(ValueError) as err:
        w.step()
    one_line(err, "velocity", "finite")


def test_settle_checks_its_arguments():
    w, hero = world_with_hero()
    with pytest.raises(ValueError) as err:
        w.settle(hero, reach=-1)
    one_line(err, "reach")
    with pytest.raises(ValueError) as err:
        w.settle(Character(0, 0))
    one_line(err, "not an actor in this world")
