"""World snapshots: restore-then-step is bit-identical to never having left, on random scenes; every slot
of every body class (and every World attribute) is either copied or declared kept, so a new field cannot
be forgotten."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import Actor, Buttons, Character, FeelConfig, Path, Platform, Rope, RopeConfig, TileGrid, Trigger, World
from engine._snapshot import STATE, WORLD_STATE, Slots

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "40")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

TILE = st.sampled_from("........" + "##" + "=" + "/\\" + "pq")
buttons = st.builds(Buttons, left=st.booleans(), right=st.booleans(), down=st.booleans(), jump=st.booleans())


def _engine_body_classes():
    """Every class defined in engine/ that is a body (Actor, Platform, Trigger or a subclass)."""
    found = set()
    for info in pkgutil.iter_modules(engine.__path__):
        module = importlib.import_module(f"engine.{info.name}")
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, (Actor, Platform, Trigger)):
                found.add(cls)
    return sorted(found, key=lambda c: c.__qualname__)


def _own_slots(cls) -> set[str]:
    slots = cls.__dict__.get("__slots__", ())
    return {slots} if isinstance(slots, str) else set(slots)


def _declared(entry: Slots) -> set[str]:
    return set(entry.copied) | set(entry.lists) | set(entry.kept)


@pytest.mark.parametrize("cls", _engine_body_classes(), ids=lambda c: c.__name__)
def test_every_slot_of_every_body_class_is_copied_or_declared_kept(cls):
    assert cls in STATE, f"{cls.__name__} has no entry in engine/_snapshot.py STATE; list its slots there"
    missing = _own_slots(cls) - _declared(STATE[cls])
    assert not missing, (f"{cls.__name__} has slots {sorted(missing)} that the snapshot neither copies nor "
                         f"declares kept: add them to STATE[{cls.__name__}] in engine/_snapshot.py")
    stale = _declared(STATE[cls]) - _own_slots(cls)
    assert not stale, f"STATE[{cls.__name__}] names {sorted(stale)}, which {cls.__name__} does not have"
    entry = STATE[cls]
    assert not (set(entry.copied) & set(entry.kept)) and not (set(entry.lists) & set(entry.kept))


def test_every_world_attribute_is_copied_or_declared_kept():
    world = World(TileGrid.from_ascii("....\n####"))
    hero = world.add(Character(8, 2))
    world.add(Platform(0, 0, 16, 8, Path([(0, 0), (16, 0)], speed=10)))
    world.add(Trigger(0, 0, 8, 8))
    world.step(Buttons(right=True))
    world.remove(hero)
    attrs = set(vars(world))
    assert attrs - _declared(WORLD_STATE) == set(), \
        "World has attributes the snapshot does not know: add them to WORLD_STATE in engine/_snapshot.py"
    assert _declared(WORLD_STATE) - attrs == set(), "WORLD_STATE names attributes World no longer has"


# -- random scenes ------------------------------------------------------------------------------------------

@st.composite
def scenes(draw):
    rows, cols = draw(st.integers(4, 8)), draw(st.integers(5, 12))
    lines = ["".join(draw(st.lists(TILE, min_size=cols, max_size=cols))) for _ in range(rows)]
    lines.append("#" * cols)
    grid = TileGrid.from_ascii("\n".join(lines))
    empty = [(c, r) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "."] or [(0, 0)]
    world = World(grid, FeelConfig())
    for i in range(draw(st.integers(1, 3))):
        c, r = draw(st.sampled_from(empty))
        role = draw(st.sampled_from(["plain", "solid", "bullet"]))
        body = Character(c * 16 + 3, r * 16 + 1, name=f"c{i}", touches=draw(st.integers(0, 3))) \
            if i == 0 or draw(st.booleans()) \
            else Actor(c * 16 + 4, r * 16 + 4, 8, 8, name=f"a{i}", solid=role == "solid", bullet=role == "bullet",
                       bounce=draw(st.sampled_from([0.0, 0.5, 1.0])), group=draw(st.integers(0, 3)),
                       touches=draw(st.integers(0, 3)))
        body.vx, body.vy = draw(st.floats(-300, 300)), draw(st.floats(-300, 300))
        world.add(body)
    for _ in range(draw(st.integers(0, 2))):
        x, y = draw(st.integers(0, cols * 16 - 32)), draw(st.integers(0, rows * 16))
        path = Path([(x, y), (x + draw(st.integers(-40, 40)), y + draw(st.integers(-40, 40)))],
                    speed=draw(st.floats(5, 200)), mode=draw(st.sampled_from(["ping-pong", "loop"])),
                    wait=draw(st.sampled_from([0.0, 0.1, 0.25])))
        world.add(Platform(x, y, 32, 8, path, one_way=draw(st.booleans())))
    for i in range(draw(st.integers(0, 3))):
        world.add(Trigger(draw(st.integers(0, cols * 16)), draw(st.integers(0, rows * 16)),
                          draw(st.integers(4, 48)), draw(st.integers(4, 48)), name=f"t{i}"))
    before = draw(st.lists(buttons, max_size=40))
    after = draw(st.lists(buttons, min_size=1, max_size=60))
    return world, before, after


def fingerprint(world: World) -> tuple:
    """Everything a snapshot promises to bring back, read straight from the objects (stricter than
    state_hash: every slot of every body, who is in the world, which pairs overlap)."""
    def slots(obj):
        names = []
        for klass in type(obj).__mro__:
            entry = STATE.get(klass)
            if entry is not None:
                names += entry.copied + entry.lists
        return tuple((n, repr(getattr(obj, n))) for n in names)

    bodies = world.actors + world.platforms + world.triggers
    index = {id(b): i for i, b in enumerate(bodies)}
    inside = sorted((index[id(t)], index[id(a)]) for t, a in world._inside)
    return world.steps, tuple(id(b) for b in bodies), tuple(slots(b) for b in bodies), tuple(inside)


def run(world, inputs):
    out = []
    for b in inputs:
        result = world.step(b)
        events = [(e.kind, e.trigger.name, e.actor.name) for e in result.triggers]
        happened = [(e.kind, e.actor.name, e.normal, e.tile, e.vx, e.vy) for e in result.events]
        touches = [(t.actor.name, t.other.name, t.side) for t in result.touches]
        out.append((world.state_hash(), fingerprint(world), events, len(result.squished), happened, touches))
    return out


@SETTINGS
@given(scenes())
def test_restore_then_step_is_identical_to_never_having_left(scene):
    world, before, after = scene
    run(world, before)
    snap = world.snapshot()
    start = (world.state_hash(), fingerprint(world))
    first = run(world, after)
    world.restore(snap)
    assert (world.state_hash(), fingerprint(world)) == start
    assert run(world, after) == first
    world.restore(snap)  # a snapshot can be restored again and again
    assert run(world, after) == first


def _scene():
    world = World(TileGrid.from_ascii("..........\n..........\n....==....\n##########"))
    hero = world.add(Character(10, 30))
    lift = world.add(Platform(100, 40, 32, 8, Path([(100, 40), (100, 10)], speed=30, wait=0.2)))
    zone = world.add(Trigger(0, 0, 40, 64, name="zone"))
    return world, hero, lift, zone


def test_restore_brings_back_removed_and_drops_added_bodies():
    world, hero, lift, zone = _scene()
    for _ in range(10):
        world.step(Buttons(right=True))
    snap = world.snapshot()
    state = fingerprint(world)
    world.remove(lift)
    world.remove(zone)
    extra = world.add(Actor(50, 0, 8, 8))
    world.step(Buttons(jump=True))
    world.restore(snap)
    assert world.platforms == [lift] and world.triggers == [zone] and extra not in world.actors
    assert fingerprint(world) == state


def test_a_body_kept_outside_the_world_comes_back_when_named_as_extra():
    world, hero, _lift, _zone = _scene()
    world.step(Buttons(right=True))
    world.remove(hero)  # e.g. a dead player, added again later
    snap = world.snapshot(extra=[hero])
    x, held = hero.x, hero.held
    hero.teleport(90, 0)
    hero.held = Buttons(jump=True)
    world.restore(snap)
    assert (hero.x, hero.held) == (x, held) and hero not in world.actors


def test_a_trigger_moved_after_the_snapshot_is_put_back_and_sensed_there():
    world, hero, _lift, zone = _scene()
    world.step(Buttons())
    snap = world.snapshot()
    expected = run(world, [Buttons(right=True)] * 30)
    world.restore(snap)
    zone.x = 200  # moves the sensor (the world rebuilds its index)
    world.restore(snap)
    assert zone.x == 0
    assert run(world, [Buttons(right=True)] * 30) == expected


def test_the_feel_is_configuration_and_survives_a_restore():
    world, _hero, _lift, _zone = _scene()
    snap = world.snapshot()
    floaty = FeelConfig().with_value("jump.height", 64.0)
    world.set_feel(floaty)
    world.restore(snap)
    assert world.feel is floaty


def test_a_snapshot_restores_only_into_its_own_world():
    a, _, _, _ = _scene()
    b, _, _, _ = _scene()
    with pytest.raises(ValueError, match="another World"):
        b.restore(a.snapshot())


def test_a_subclass_without_an_entry_has_its_own_slots_and_attributes_copied():
    class Walker(Actor):
        __slots__ = ("mood",)

    class Loose(Actor):  # no __slots__: instances carry a __dict__
        pass

    world = World(TileGrid.from_ascii("......\n######"))
    w = world.add(Walker(0, 0, 8, 8))
    w.mood = "calm"
    loose = world.add(Loose(20, 0, 8, 8))
    loose.hp = 3
    snap = world.snapshot()
    w.mood, loose.hp = "angry", 1
    loose.extra = True
    world.restore(snap)
    assert w.mood == "calm" and loose.hp == 3 and not hasattr(loose, "extra")


# -- ropes --------------------------------------------------------------------------------------------------

def _roped_scene():
    world, hero, lift, zone = _scene()
    vine = world.add(Rope(30, 0, RopeConfig(segments=6, segment_length=4)))
    chain = world.add(Rope(8, 0, RopeConfig(segments=4, segment_length=5), follow=lift))
    return world, hero, vine, chain


def test_ropes_restore_then_step_identically_even_when_swinging_and_pushed():
    world, hero, vine, chain = _roped_scene()
    inputs = [Buttons(right=True, jump=i % 17 < 6) for i in range(60)]
    run(world, inputs[:20])
    vine.push(3, 80.0, 0.0)
    snap = world.snapshot()
    start = world.state_hash()
    first = run(world, inputs[20:])
    points = vine.points, chain.points
    world.restore(snap)
    assert world.state_hash() == start
    assert run(world, inputs[20:]) == first and (vine.points, chain.points) == points


def test_a_rope_added_after_the_snapshot_is_dropped_and_a_removed_one_comes_back():
    world, _hero, vine, chain = _roped_scene()
    run(world, [Buttons(right=True)] * 10)
    snap = world.snapshot()
    expected = run(world, [Buttons(right=True)] * 20)
    world.restore(snap)
    world.remove(vine)
    extra = world.add(Rope(60, 0, RopeConfig(segments=3, segment_length=4)))
    world.step(Buttons())
    world.restore(snap)
    assert world.ropes == [vine, chain] and extra not in world.ropes
    assert run(world, [Buttons(right=True)] * 20) == expected
