"""The spatial hash (engine/_spatial.py): what a query returns (every object whose cells meet the box, once,
in insertion order; a box on a cell edge counts in both cells), checked against a brute-force model on
random operations; and the World keeping it current through every phase of a step, add, remove,
teleport, settle, trigger edits, snapshots and clones."""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Actor, Buttons, Character, FeelConfig, Path, Platform, TileGrid, Trigger, World
from engine._spatial import _BIG, SpatialHash

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "60")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class Box:
    """A stand-in object (identity, no __eq__): what the hash stores."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


def cell_range(cell, x, y, w, h):
    """The contract's cells, written out: a box's edge on a boundary reaches into the cell beyond it."""
    return (math.ceil(x / cell) - 1, math.ceil(y / cell) - 1, math.floor((x + w) / cell),
            math.floor((y + h) / cell))


def meets(a, b) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


# -- the hash on its own ----------------------------------------------------------------------------------

def test_query_returns_each_object_once_in_insertion_order():
    h = SpatialHash(16)
    a, b, c = Box("a"), Box("b"), Box("c")
    h.insert(c, 40, 40, 30, 30)  # spans several cells
    h.insert(a, 0, 0, 50, 50)
    h.insert(b, 45, 45, 2, 2)
    assert h.query(0, 0, 100, 100) == [c, a, b]
    h.move(c, 41, 41, 30, 30)  # moving keeps the place in the order
    assert h.query(44, 44, 4, 4) == [c, a, b]
    h.remove(c)
    h.insert(c, 40, 40, 30, 30)  # re-inserted: last
    assert h.query(44, 44, 4, 4) == [a, b, c]


def test_a_box_on_a_cell_edge_counts_in_both_cells():
    h = SpatialHash(64)
    left, right, below = Box("left"), Box("right"), Box("below")
    h.insert(left, 0.5, 10, 63.5, 10)  # right edge exactly on x = 64
    h.insert(right, 64, 10, 10, 10)  # left edge exactly on x = 64
    h.insert(below, 100, 128, 10, 10)  # top edge exactly on y = 128
    assert h.cells_of(left) == (0, 0, 1, 0)
    assert h.cells_of(right) == (0, 0, 1, 0)
    assert h.cells_of(below) == (1, 1, 1, 2)
    # a query box touching x = 64 from either side finds both (touching boxes share a cell)
    assert h.query(70, 12, 1, 1) == [left, right]
    assert h.query(10, 12, 1, 1) == [left, right]
    assert h.query(130, 40, 5, 5) == []
    assert h.query(100, 120, 5, 5) == [below]  # its top edge on y = 128 reaches into row 1


def test_zero_size_boxes_and_negative_coordinates():
    h = SpatialHash(32)
    p, q = Box("p"), Box("q")
    h.insert(p, -40, -40, 0, 0)
    h.insert(q, -64, 0, 0, 0)  # a point on a corner of four cells
    assert h.cells_of(p) == (-2, -2, -2, -2)
    assert h.cells_of(q) == (-3, -1, -2, 0)
    assert h.query(-45, -45, 2, 2) == [p]
    assert h.query(-96, 0, 1, 1) == [q]
    assert h.query(-63.5, -5, 1, 1) == [q]


def test_a_huge_object_is_not_listed_cell_by_cell():
    h = SpatialHash(16)
    small, huge = Box("small"), Box("huge")
    h.insert(small, 5, 5, 4, 4)
    h.insert(huge, -10000, -10000, 20000, 20000)
    assert len(h._cells) <= 4  # the small box's cells only
    assert h.query(7, 7, 1, 1) == [small, huge]
    assert h.query(9000, 9000, 1, 1) == [huge]
    assert h.query(20000, 0, 1, 1) == []
    h.move(huge, 0, 0, 2, 2)  # shrunk: back in the cells
    assert huge not in h._big and h.query(1, 1, 1, 1) == [small, huge]
    h.move(huge, -10000, -10000, 20000, 20000)
    h.remove(huge)
    assert h.query(9000, 9000, 1, 1) == [] and len(h) == 1


def test_a_query_bigger_than_what_is_stored_scans_the_objects():
    h = SpatialHash(8)
    boxes = [Box(str(i)) for i in range(5)]
    for i, b in enumerate(boxes):
        h.insert(b, i * 100.0, 0, 4, 4)
    assert h.query(-1e9, -1e9, 2e9, 2e9) == boxes
    assert h.query(150, -10, 200, 20) == boxes[2:4]


@pytest.mark.parametrize("call, message", [
    (lambda h, b: h.insert(b, 0, 0, 1, 1), "already in the hash"),
    (lambda h, b: h.move(Box("other"), 0, 0, 1, 1), "not in the hash"),
    (lambda h, b: h.remove(Box("other")), "not in the hash"),
    (lambda h, b: h.insert(Box("n"), math.nan, 0, 1, 1), "x must be a finite"),
    (lambda h, b: h.insert(Box("n"), 0, 0, -1, 1), "w must be a finite number of px >= 0"),
])
def test_misuse_is_a_clear_error(call, message):
    h = SpatialHash()
    b = Box("b")
    h.insert(b, 0, 0, 1, 1)
    with pytest.raises(ValueError, match=message):
        call(h, b)


@pytest.mark.parametrize("cell", [0, -4, math.inf, "8"])
def test_bad_cell_size(cell):
    with pytest.raises((ValueError, TypeError), match="cell"):
        SpatialHash(cell)
    with pytest.raises((ValueError, TypeError), match="World: cell"):
        World(TileGrid.from_ascii("..\n##"), cell=cell)


coord = st.one_of(st.integers(-300, 300).map(float), st.floats(-300, 300), st.sampled_from([0.0, 64.0, -64.0]))
size = st.one_of(st.sampled_from([0.0, 16.0, 64.0, 128.0]), st.floats(0, 200), st.floats(0, 3000))
boxes = st.tuples(coord, coord, size, size)
ops = st.lists(st.tuples(st.sampled_from(["insert", "move", "remove", "query"]), st.integers(0, 9), boxes),
               max_size=60)


@SETTINGS
@given(cell=st.sampled_from([16.0, 48.0, 64.0, 100.0, 7.5]), program=ops, mirror_at=st.integers(0, 70))
def test_hash_matches_a_brute_force_model(cell, program, mirror_at):
    h = SpatialHash(cell)
    objects = [Box(f"o{i}") for i in range(10)]
    keep = {id(o) for o in objects[::2]}  # the mirror (made at op ``mirror_at``) lists every other object
    model: dict = {}  # obj -> box, in insertion order
    for n, (op, i, box) in enumerate(program):
        if n == mirror_at:
            h.mirror(lambda o: id(o) in keep)
        obj = objects[i]
        if op == "insert" and obj not in model:
            h.insert(obj, *box)
            model[obj] = box
        elif op == "move" and obj in model:
            h.move(obj, *box)
            model[obj] = box
        elif op == "remove" and obj in model:
            h.remove(obj)
            del model[obj]
        elif op == "query":
            got = h.query(*box)
            want = [o for o, b in model.items() if meets(cell_range(cell, *b), cell_range(cell, *box))]
            assert got == want
            qx, qy, qw, qh = box
            for o, (x, y, w, hh) in model.items():  # a broadphase: nothing touching is ever missed
                if x <= qx + qw and qx <= x + w and y <= qy + qh and qy <= y + hh:
                    assert o in got
            assert sorted(set(map(id, h.near(*box)))) == sorted(map(id, want))  # (nothing pending here)
            if h.mirrored is not None:  # the same answer, less what it does not keep
                assert h.mirrored.query(*box) == [o for o in got if id(o) in keep]
        assert list(model) == h.objects() and len(h) == len(model)
        if h.mirrored is not None:
            assert h.mirrored.objects() == [o for o in model if id(o) in keep]
            for o in h.mirrored.objects():
                assert h.mirrored.cells_of(o) == h.cells_of(o)
        for o, b in model.items():
            assert h.cells_of(o) == cell_range(cell, *b)
    for r in h._cells.values():  # every cell list is in insertion order, with no stray entries
        assert r == sorted(r, key=list(model).index)
    assert sum(len(r) for r in h._cells.values()) == sum(
        (c1 - c0 + 1) * (r1 - r0 + 1) for c0, r0, c1, r1 in (cell_range(cell, *b) for b in model.values())
        if (c1 - c0 + 1) * (r1 - r0 + 1) <= _BIG)


# -- the World keeps it current ----------------------------------------------------------------------------

def assert_current(world: World) -> None:
    """Every actor, platform and trigger is in the hash at its present box, in the order added."""
    space = world._hash
    members = world.actors + world.platforms + world.triggers
    assert set(map(id, space.objects())) == set(map(id, members))
    for body in members:
        assert space.cells_of(body) == cell_range(space.cell, body.x, body.y, body.w, body.h), body
    if space.mirrored is not None:  # (many triggers: the actors in a hash of their own too, in order)
        assert space.mirrored.objects() == [o for o in space.objects() if isinstance(o, Actor)]
        for body in world.actors:
            assert space.mirrored.cells_of(body) == space.cells_of(body), body


TILE = st.sampled_from("........" + "##" + "=" + "/\\" + "pq")
buttons = st.builds(Buttons, left=st.booleans(), right=st.booleans(), down=st.booleans(), jump=st.booleans())


@st.composite
def scenes(draw):
    rows, cols = draw(st.integers(4, 8)), draw(st.integers(5, 12))
    lines = ["".join(draw(st.lists(TILE, min_size=cols, max_size=cols))) for _ in range(rows)]
    lines.append("#" * cols)
    world = World(TileGrid.from_ascii("\n".join(lines)), FeelConfig(), cell=draw(st.sampled_from([8, 16, 64])))
    for i in range(draw(st.integers(1, 4))):
        x, y = draw(st.integers(0, cols * 16 - 12)), draw(st.integers(0, rows * 16))
        body = Character(x, y, name=f"c{i}") if draw(st.booleans()) else Actor(x, y, 8, 8, name=f"a{i}")
        body.vx, body.vy = draw(st.floats(-400, 400)), draw(st.floats(-400, 400))
        world.add(body)
    for _ in range(draw(st.integers(0, 2))):
        x, y = draw(st.integers(0, cols * 16 - 32)), draw(st.integers(0, rows * 16))
        path = Path([(x, y), (x + draw(st.integers(-60, 60)), y + draw(st.integers(-60, 60)))],
                    speed=draw(st.floats(5, 300)))
        world.add(Platform(x, y, 32, 8, path, one_way=draw(st.booleans())))
    for i in range(draw(st.sampled_from([0, 1, 2, 3, 30]))):  # (30: more than FEW, the actors' mirror)
        world.add(Trigger(draw(st.integers(0, cols * 16)), draw(st.integers(0, rows * 16)),
                          draw(st.integers(0, 48)), draw(st.integers(0, 48)), name=f"t{i}"))
    return world, draw(st.lists(buttons, min_size=1, max_size=50))


@SETTINGS
@given(scenes(), st.data())
def test_world_keeps_the_hash_current(scene, data):
    world, inputs = scene
    assert_current(world)
    snap = None
    for i, b in enumerate(inputs):
        world.step(b)
        assert_current(world)
        if i == 3:
            snap = world.snapshot()
        event = data.draw(st.sampled_from(["", "", "", "teleport", "trigger", "remove", "settle", "restore"]))
        if event == "teleport" and world.actors:
            a = world.actors[0]
            a.teleport(a.x + data.draw(st.floats(-200, 200)), a.y + data.draw(st.floats(-200, 200)))
        elif event == "trigger" and world.triggers:
            world.triggers[-1].x += data.draw(st.floats(-100, 100))
            world._sync_triggers()  # (a query or the next step does this)
        elif event == "remove" and len(world.actors) > 1:
            world.remove(world.actors[-1])
        elif event == "settle" and world.actors:
            world.settle(world.actors[0])
        elif event == "restore" and snap is not None:
            world.restore(snap)
        assert_current(world)


def test_hand_moved_bodies_are_reindexed_at_the_next_step():
    world = World(TileGrid.from_ascii("." * 40 + "\n" + "#" * 40))
    a = world.add(Actor(10, 0, 8, 8))
    p = world.add(Platform(100, 0, 32, 8))
    a.x, p.x = 400.0, 500.0
    world.step()
    assert_current(world)


def test_hash_order_survives_a_restore_after_removal_and_re_adding():
    world = World(TileGrid.from_ascii("." * 20 + "\n" + "#" * 20))
    a, b = world.add(Actor(10, 0, 8, 8)), world.add(Actor(40, 0, 8, 8))
    t = world.add(Trigger(0, 0, 300, 20))
    snap = world.snapshot()
    world.remove(a)
    world.add(a)  # now after b and t
    assert world._hash.objects() == [b, t, a]
    world.restore(snap)
    assert world._hash.objects() == [a, b, t]
    assert a._world is world
    extra = world.add(Actor(80, 0, 8, 8))
    world.restore(snap)  # added after the snapshot: out again, and no longer tied to the world
    assert extra._world is None and extra not in world._hash
    extra.teleport(0, 0)  # (harmless)
    assert_current(world)


def test_clones_have_their_own_hash():
    world = World(TileGrid.from_ascii("." * 20 + "\n" + "#" * 20))
    a = world.add(Actor(10, 0, 8, 8))
    world.add(Trigger(0, 0, 100, 100))
    for keep in (True, False):
        twin = world.clone(triggers=keep)
        assert twin._hash is not world._hash
        assert twin.actors[0]._world is twin and a._world is world
        twin.actors[0].teleport(200, 0)
        assert_current(twin)
        assert_current(world)
        assert len(twin._hash) == (2 if keep else 1)


def test_an_actor_removed_from_one_world_and_added_to_another_follows_it():
    one, two = (World(TileGrid.from_ascii("." * 20 + "\n" + "#" * 20)) for _ in range(2))
    a = one.add(Actor(10, 0, 8, 8))
    one.remove(a)
    two.add(a)
    a.teleport(100, 0)
    assert a not in one._hash
    assert_current(two)


def test_a_box_set_to_nan_by_hand_is_a_clear_error():
    world = World(TileGrid.from_ascii("." * 8 + "\n" + "#" * 8))
    lift = world.add(Platform(0, 0, 16, 4))
    lift.x = math.nan
    with pytest.raises(ValueError, match=r"Platform.*: x must be a finite number of px, got nan"):
        world.step()
    lift.x = 0.0
    a = world.add(Actor(40, 0, 4, 4))
    world.step()
    a.y = math.inf  # after the step: the next query re-reads it
    with pytest.raises(ValueError, match=r"Actor.*positions and sizes must be finite px"):
        world.query_rect(0, 0, 10, 10)
    with pytest.raises(ValueError, match="SpatialHash.query: the box"):
        SpatialHash().query(math.nan, 0, 1, 1)
