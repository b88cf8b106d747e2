"""Solid actors (crates): other actors stand on them, ride them and are blocked by them; moving, they carry,
push and squish like moving platforms — and nothing ever ends a step inside one."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import UNGROUPED, Actor, Buttons, Character, Path, Platform, TileGrid, World, overlaps
from engine._motion import box_free

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "40")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ROOM = """
#......................#
#......................#
#......................#
#......................#
#......................#
#......................#
########################
"""
FLOOR = 96.0  # px, the top of the floor row


def crate(x, y, size=16, **kw):
    return Actor(x, y, size, size, solid=True, name="crate", **kw)


def hero_on_crate():
    """A character dropped onto a crate in ROOM, settled: (world, crate, character)."""
    w = World(TileGrid.from_ascii(ROOM))
    box = w.add(crate(100, 80))
    hero = w.add(Character(103, 40))
    for _ in range(40):
        w.step()
    return w, box, hero


def test_a_character_stands_on_a_crate_and_walks_off_it():
    w, box, hero = hero_on_crate()
    assert hero.on_ground and hero.ground.kind == "actor" and hero.ground.platform is box
    assert hero.y + hero.h == box.y
    for _ in range(30):
        w.step(Buttons(right=True))
    assert hero.on_ground and hero.ground.kind == "solid" and hero.y + hero.h == FLOOR


def test_walking_into_a_crate_is_blocked_and_names_it():
    w = World(TileGrid.from_ascii(ROOM))
    box = w.add(crate(100, 80))
    hero = w.add(Character(60, 82))
    walls = []
    for _ in range(60):
        result = w.step(Buttons(right=True))
        walls += [e for e in result.events if e.kind == "wall"]
    assert hero.x + hero.w == box.x
    assert walls and all(e.other is box and e.tile is None and e.normal == (-1, 0) for e in walls)
    assert hero.wall.kind == "actor"


def test_a_moving_crate_carries_its_rider_and_pushes_what_is_in_its_way():
    w = World(TileGrid.from_ascii(ROOM))
    box = w.add(crate(60, 80))
    rider = w.add(Actor(64, 60, 8, 8, name="rider"))
    walker = w.add(Actor(120, 80, 8, 16, name="walker"))
    for _ in range(30):
        w.step()
    box.vx = 60.0
    pushed = []
    for _ in range(60):
        pushed += [e for e in w.step().events if e.kind == "pushed"]
    assert box.x == pytest.approx(120.0)
    assert rider.x == pytest.approx(124.0) and rider.ground.platform is box  # carried all the way
    assert walker.x == box.x + box.w and not walker.squished  # pushed ahead
    assert pushed and {e.actor for e in pushed} == {walker} and all(e.other is box for e in pushed)


def test_a_falling_crate_crushes_what_is_under_it():
    w = World(TileGrid.from_ascii(ROOM))
    victim = w.add(Actor(104, 80, 8, 16, name="victim"))
    box = w.add(crate(100, 0))
    squished = []
    for _ in range(60):
        result = w.step()
        squished += result.squished
        if squished:
            event = next(e for e in result.events if e.kind == "squished")
            break
    assert squished == [victim] and event.other is box


def test_a_stack_of_crates_rides_a_lift_and_the_top_one_is_blocked_by_a_ceiling():
    grid = TileGrid.from_ascii(ROOM.replace("#......................#", "#...........#####......#", 1))
    w = World(grid)
    lift = w.add(Platform(32, 88, 48, 8, Path([(32, 88), (200, 88)], speed=60)))
    low = w.add(crate(40, 72))
    high = w.add(crate(44, 56))
    hero = w.add(Character(46, 30))
    for _ in range(120):
        w.step()
    assert low.ground.platform is lift and high.ground.platform is low and hero.ground.platform is high
    assert high.x - low.x == pytest.approx(4.0) and low.x - lift.x == pytest.approx(8.0)
    for _ in range(200):
        w.step()
        for a in (low, high, hero):
            assert box_free(grid, [lift] + [b for b in (low, high) if b is not a], a.x, a.y, a.w, a.h) \
                or a.squished


def test_a_crate_is_blocked_by_another_crate_and_by_walls():
    w = World(TileGrid.from_ascii(ROOM))
    a = w.add(crate(40, 80))
    b = w.add(crate(100, 80))
    a.vx = 200.0
    walls = []
    for _ in range(60):
        walls += [e for e in w.step().events if e.kind == "wall"]
    assert a.x + a.w == b.x and b.x == 100.0 and [(e.actor, e.other) for e in walls] == [(a, b)]
    b.vx = 500.0
    for _ in range(60):
        walls += [e for e in w.step().events if e.kind == "wall"]
    assert b.x + b.w == 368.0 and (walls[-1].actor, walls[-1].tile) == (b, (23, 5))


def test_a_platform_pushes_a_crate_and_crushes_it_against_a_wall():
    w = World(TileGrid.from_ascii(ROOM))
    box = w.add(crate(100, 80))
    on_top = w.add(Actor(104, 60, 8, 8))
    w.add(Platform(40, 64, 16, 32, Path([(40, 64), (360, 64)], speed=120)))
    for _ in range(40):
        w.step()
    assert box.x > 100.0 and on_top.ground.platform is box  # pushed, with its rider
    crushed = []
    for _ in range(240):
        crushed += w.step().squished
    assert box in crushed and box.x + box.w <= 368.0


def test_removing_a_crate_drops_what_stood_on_it():
    w, box, hero = hero_on_crate()
    assert hero.ground.platform is box
    w.remove(box)
    assert hero.ground is None and not hero.on_ground
    for _ in range(30):
        w.step()
    assert hero.on_ground and hero.ground.kind == "solid" and hero.y + hero.h == FLOOR


def test_a_bullet_stops_at_a_crate():
    w = World(TileGrid.from_ascii(ROOM))
    box = w.add(crate(200, 80))
    shot = w.add(Actor(40, 86, 2, 2, bullet=True, gravity=False, touches=UNGROUPED))  # (the crate has no group)
    shot.vx = 3000.0
    touched, hits = [], []
    for _ in range(10):
        touched += w.step().touches
        hits += shot.contacts
    assert shot.x + shot.w <= box.x and [(c.kind, c.other) for c in hits] == [("actor", box)]
    assert [(t.actor, t.other, t.side) for t in touched][:1] == [(shot, box, "left")]


def test_an_actor_placed_inside_a_crate_is_moved_out():
    w = World(TileGrid.from_ascii(ROOM))
    box = w.add(crate(100, 80))
    a = w.add(Actor(104, 84, 8, 8))
    w.step()
    assert box_free(w.grid, [box], a.x, a.y, a.w, a.h)
    box.teleport(a.x - 4, a.y - 4)  # a crate moved onto an actor by hand: the actor gets out next step
    w.step()
    assert box_free(w.grid, [box], a.x, a.y, a.w, a.h) or a.squished


# -- never inside: random crates, actors and lifts ----------------------------------------------------------

TILE = st.sampled_from("........" + "##" + "=" + "/\\" + "pq")


@st.composite
def yards(draw):
    rows, cols = draw(st.integers(5, 8)), draw(st.integers(6, 14))
    lines = ["".join(draw(st.lists(TILE, min_size=cols, max_size=cols))) for _ in range(rows)]
    lines.append("#" * cols)
    grid = TileGrid.from_ascii("\n".join(lines))
    world = World(grid)
    for _ in range(draw(st.integers(0, 2))):
        x, y = draw(st.integers(0, cols * 16 - 32)), draw(st.integers(0, rows * 16))
        path = Path([(x, y), (x + draw(st.integers(-40, 40)), y + draw(st.integers(-40, 40)))],
                    speed=draw(st.floats(5, 150)))
        world.add(Platform(x, y, 32, 8, path, one_way=draw(st.booleans())))
    bodies = []
    for i in range(draw(st.integers(1, 6))):
        x, y = draw(st.floats(0, cols * 16 - 16)), draw(st.floats(0, rows * 16))
        size = draw(st.sampled_from([8.0, 12.0, 16.0, 20.0]))
        solid = draw(st.booleans())
        pushable = solid and draw(st.booleans())
        body = world.add(Actor(x, y, size, size, solid=solid, name=f"{'crate' if solid else 'actor'}{i}",
                               pushable=pushable, friction=draw(st.sampled_from([0.0, 0.0, 0.5]))))
        body.vx = draw(st.floats(-200, 200))
        bodies.append(body)
    pushes = draw(st.lists(st.tuples(st.integers(0, len(bodies) - 1), st.floats(-300, 300)), max_size=8))
    return world, bodies, pushes


@SETTINGS
@given(yards())
def test_nothing_ends_a_step_inside_a_tile_platform_or_crate_unless_squished(scene):
    world, bodies, pushes = scene
    grid = world.grid
    for step in range(90):
        if pushes and step % 10 == 0:
            i, vx = pushes[step // 10 % len(pushes)]
            bodies[i].vx = vx  # the game shoves a crate (or an actor) now and then
        world.step()
        crates = [b for b in bodies if b.solid]
        for a in bodies:
            if a.squished:
                continue
            others = world.platforms + [c for c in crates if c is not a]
            assert box_free(grid, others, a.x, a.y, a.w, a.h), (step, a, [c.rect for c in others])


# -- issue 22: crates and the actors next to them, in either add order -----------------------------------

OPEN = """
..........
..#.......
..........
##########
"""


def _inside(a, b) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


def _open_world(text="..........\n..........\n..........\n##########"):
    from engine import Edges

    return World(TileGrid.from_ascii(text, 16, edges=Edges(False, False, False, False)))


@pytest.mark.parametrize("crate_first", [False, True])
def test_a_crate_moved_out_of_a_door_never_lands_inside_an_actor(crate_first):
    w = _open_world()
    bodies = [Actor(20.0, 32.0, 16.0, 16.0, solid=True), Actor(36.0, 34.0, 8.0, 14.0)]
    if not crate_first:
        bodies.reverse()
    for b in bodies:
        w.add(b)
    box, hero = (bodies[0], bodies[1]) if crate_first else (bodies[1], bodies[0])
    w.step()
    w.step()
    w.add(Platform(4.0, 0.0, 26.0, 48.0))  # a door shuts on the crate's left part: it moves out, right
    for _ in range(3):
        r = w.step()
        assert box.x == 30.0
        assert not _inside(hero, box) or hero in r.squished
    assert hero.x == 46.0  # pushed out of the crate's way, in both orders


@pytest.mark.parametrize("crate_first", [False, True])
def test_settle_puts_a_crate_on_the_actor_under_it_never_through_it(crate_first):
    w = _open_world()
    if crate_first:
        box = w.add(Actor(36.0, 30.0, 12.0, 12.0, solid=True))
        hero = w.add(Actor(40.0, 34.0, 10.0, 14.0))
        assert w.settle(box)
        w.settle(hero)
    else:
        hero = w.add(Actor(40.0, 34.0, 10.0, 14.0))
        w.settle(hero)
        box = w.add(Actor(36.0, 30.0, 12.0, 12.0, solid=True))
        assert w.settle(box)
    assert not _inside(hero, box)
    assert box.y + box.h == hero.y and box.ground.platform is hero  # on its head
    for _ in range(5):
        r = w.step()
        assert not _inside(hero, box) or hero in r.squished  # (a falling crate crushes: then it gets out)


@pytest.mark.parametrize("crate_first", [False, True])
def test_a_rider_held_by_a_wall_stops_standing_on_the_crate_that_slid_away(crate_first):
    w = _open_world(OPEN)
    bodies = [Actor(40.0, 32.0, 40.0, 16.0, solid=True), Actor(48.0, 18.0, 10.0, 14.0)]
    for b in (bodies if crate_first else bodies[::-1]):
        w.add(b)
    box, hero = bodies
    w.step()
    w.step()
    assert hero.ground.platform is box
    for _ in range(4):
        box.vx = -600.0  # slides left under the block (2, 1), which holds the rider back
        w.step()
        if not (box.x < hero.x + hero.w and hero.x < box.x + box.w):
            assert not hero.on_ground and hero.ground is None
    assert box.x + box.w <= hero.x


# -- pushable crates ---------------------------------------------------------------------------------------

LONG = "." * 60 + "\n" + "#" * 60


def push_run(crate_first, friction=0.0, steps=200, **kw):
    w = World(TileGrid.from_ascii(LONG))
    make = [lambda: Actor(60, 0, 16, 16, solid=True, pushable=True, friction=friction, name="crate", **kw),
            lambda: Character(20, 2)]
    bodies = [f() for f in (make if crate_first else make[::-1])]
    for b in bodies:
        w.add(b)
    box, hero = (bodies[0], bodies[1]) if crate_first else (bodies[1], bodies[0])
    w.settle(hero)
    w.settle(box)
    xs = []
    for _ in range(steps):
        w.step(Buttons(right=True))
        xs.append((box.x, hero.x))
    return w, box, hero, xs


@pytest.mark.parametrize("friction", [0.0, 0.5])
def test_a_pushable_crate_moves_at_the_pushers_speed_in_either_add_order(friction):
    _w, box, hero, first = push_run(False, friction)
    _w, _box, _hero, second = push_run(True, friction)
    assert first == second  # the same, step by step, whichever was added first
    speed = (first[-1][0] - first[119][0]) / 80 * 60  # px/s over the last 80 steps
    assert speed == pytest.approx(hero.vx * (1.0 - friction))
    assert hero.vx == pytest.approx(150.0)  # the character runs on at its own speed, slowed by the crate
    assert all(b[0] > a[0] for a, b in zip(first[120:], first[121:], strict=False))  # never a still step
    assert box.x == hero.x + hero.w  # touching, never inside


def test_a_pushed_crate_carries_its_rider_stops_at_a_wall_and_pushes_the_next_one():
    w = World(TileGrid.from_ascii("#......................#\n" * 3 + "########################"))
    hero = w.add(Character(30, 34))
    a = w.add(Actor(60, 32, 16, 16, solid=True, pushable=True, name="a"))
    b = w.add(Actor(100, 32, 16, 16, solid=True, pushable=True, name="b"))
    rider = w.add(Actor(64, 10, 8, 8, name="rider"))
    heavy = w.add(Actor(200, 32, 16, 16, solid=True, name="heavy"))  # solid, not pushable: a wall
    for _ in range(20):
        w.step()
    for _ in range(300):
        w.step(Buttons(right=True))
        assert hero.x + hero.w <= a.x and a.x + a.w <= b.x and b.x + b.w <= heavy.x
    assert b.x + b.w == heavy.x and a.x + a.w == b.x and hero.x + hero.w == a.x  # a train, stopped
    assert hero.vx == 0.0 and rider.ground.platform is a and a.x < rider.x + rider.w and rider.x < a.x + a.w


def test_a_crate_pushed_against_a_platform_stops_there():
    # (it read the platform's "pushable", which platforms do not have: AttributeError)
    w = World(TileGrid.from_ascii("..........\n..........\n##########", tile_size=8))
    wall = w.add(Platform(40, 0, 8, 16, Path([(40, 0)], speed=0)))
    crate = w.add(Actor(31, 8, 8, 8, solid=True, pushable=True))
    pusher = w.add(Actor(20, 9, 6, 7))
    pusher.vx = 120.0
    for _ in range(20):
        w.step()
    assert crate.x + crate.w == wall.x and pusher.x + pusher.w == crate.x


def test_pushable_needs_solid_and_friction_is_a_ratio():
    with pytest.raises(ValueError, match="pushable actor is a solid one"):
        Actor(0, 0, 8, 8, pushable=True)
    with pytest.raises(ValueError, match="friction"):
        Actor(0, 0, 8, 8, solid=True, pushable=True, friction=1.5)
    w, box, hero, xs = push_run(False, steps=60)
    snap, h = w.snapshot(), w.state_hash()
    box.pushable = False
    assert w.state_hash() != h
    w.restore(snap)
    assert box.pushable and w.state_hash() == h


def test_a_crate_with_friction_one_does_not_move():
    _w, box, hero, xs = push_run(False, friction=1.0, steps=120)
    assert box.x == 60.0 and hero.x + hero.w == 60.0 and hero.vx == 0.0


@st.composite
def pushing_yards(draw):
    cols = draw(st.integers(10, 18))
    rows = ["".join(draw(st.lists(st.sampled_from("........#=/\\"), min_size=cols, max_size=cols)))
            for _ in range(draw(st.integers(3, 6)))]
    rows.append("#" * cols)
    crates = [(draw(st.floats(0, cols * 16 - 16)), draw(st.floats(0, len(rows) * 16)),
               draw(st.sampled_from([12.0, 16.0, 24.0])), draw(st.sampled_from([0.0, 0.0, 0.3, 1.0])))
              for _ in range(draw(st.integers(1, 4)))]
    plan = draw(st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()), min_size=2, max_size=6))
    return "\n".join(rows), crates, draw(st.floats(0, cols * 16 - 10)), plan, draw(st.booleans())


@SETTINGS
@given(pushing_yards())
def test_pushing_crates_never_ends_inside_anything_is_deterministic_and_restores(scene):
    text, crates, hero_x, plan, reverse = scene
    grid = TileGrid.from_ascii(text)

    def build():
        w = World(grid)
        bodies = [Actor(x, y, s, s, solid=True, pushable=True, friction=f, name=f"crate{i}")
                  for i, (x, y, s, f) in enumerate(crates)]
        hero = Character(hero_x, 0.0)
        for b in ([hero] + bodies)[::-1 if reverse else 1]:
            w.add(b)
        return w, hero, bodies

    def run(w, hero, bodies):
        hashes = []
        for left, right, jump in plan:
            for _ in range(15):
                w.step(Buttons(left=left, right=right and not left, jump=jump))
                crates_now = [b for b in bodies]
                for a in [hero] + bodies:
                    if not a.squished:
                        others = w.platforms + [c for c in crates_now if c is not a]
                        assert box_free(grid, others, a.x, a.y, a.w, a.h), (w.steps, a)
            hashes.append(w.state_hash())
        return hashes

    w1, h1, b1 = build()
    snap = w1.snapshot()
    first = run(w1, h1, b1)
    w2, h2, b2 = build()
    assert run(w2, h2, b2) == first  # same inputs, same states
    w1.restore(snap)
    assert run(w1, h1, b1) == first  # restore, replay: bit-identical


def test_a_crate_made_not_solid_is_a_plain_actor_from_the_next_step():
    # (engine/docs/actors.md: "Solidity is checked every step: set a.solid = False and it is a plain actor
    # from the next step")
    w, box, hero = hero_on_crate()
    assert hero.ground.platform is box
    box.solid = False
    w.step()
    assert hero.ground is None or hero.ground.platform is not box  # nothing to stand on: it falls into it
    for _ in range(40):
        w.step()
    assert hero.on_ground and hero.ground.kind == "solid" and hero.y + hero.h == FLOOR  # fell through it
    walker = w.add(Character(60, 82))
    for _ in range(60):
        w.step(Buttons(right=True))
    assert walker.x > box.x + box.w  # walked through it: no wall
    box.solid = True
    w.step()
    assert not any(a is not box and overlaps(a.x, a.y, a.w, a.h, box.x, box.y, box.w, box.h) and not a.squished
                   for a in w.actors)  # solid again: the actors inside it were moved out (or squished)


def test_a_stack_of_eight_crates_on_a_lift_is_carried_whole():
    # (engine/docs/actors.md: "A crate riding a lift or another crate carries its own riders, up to 8 high")
    grid = TileGrid.from_ascii("#" + "." * 22 + "#\n" * 1 + ("#" + "." * 22 + "#\n") * 9 + "#" * 24)
    w = World(grid)
    lift = w.add(Platform(32, 150, 48, 8, Path([(32, 150), (200, 150)], speed=60)))
    stack = [w.add(crate(40, 150 - 12 * (i + 1), size=12)) for i in range(8)]
    for _ in range(20):
        w.step()
    assert [c.ground.platform for c in stack] == [lift] + stack[:-1]
    starts = [c.x - lift.x for c in stack]
    for _ in range(120):
        w.step()
        assert [c.x - lift.x for c in stack] == pytest.approx(starts)  # every crate moves with the lift
    assert lift.x > 100.0
