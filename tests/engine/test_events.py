"""Events as data: every actor's landings, walls, ceilings, pushes and squishes each step, with the tile or
body hit, the normal and the velocity before the hit (StepResult.events, actor.contacts)."""

from __future__ import annotations

from engine import Actor, ActorEvent, Buttons, Character, Contact, Path, Platform, TileGrid, World

ROOM = """
#................#
#................#
#................#
#................#
#................#
##################
"""


def kinds(result, actor):
    return [e.kind for e in result.events if e.actor is actor]


def test_a_plain_actor_landing_reports_the_tile_and_how_fast_it_fell():
    w = World(TileGrid.from_ascii(ROOM))
    a = w.add(Actor(40, 10, 8, 8))
    seen = []
    for _ in range(60):
        seen += [e for e in w.step().events if e.actor is a]
    assert [e.kind for e in seen] == ["landed"]  # once: standing on afterwards is not a landing
    e = seen[0]
    assert e.normal == (0, -1) and e.tile == (2, 5) and e.other is None
    assert e.vy > 200.0 and a.vy == 0.0 and a.on_ground  # the speed it hit with, kept on the record
    assert a.floor.tile == (2, 5)  # pressed on the floor each step: actor.floor says which tile


def test_turning_round_at_a_wall_is_one_line():
    w = World(TileGrid.from_ascii(ROOM))
    walker = w.add(Actor(40, 64, 8, 16))
    walker.vx = 90.0
    xs, walls = [], []
    for _ in range(900):
        result = w.step()
        if walker.wall:
            walker.vx = -walker.wall.vx  # the speed before the wall zeroed it
        xs.append(walker.x)
        walls += [e for e in result.events if e.kind == "wall"]
    assert min(xs) == 16.0 and max(xs) == 272.0 - 8.0  # both walls reached, again and again
    assert len(walls) >= 4 and {e.normal for e in walls} == {(-1, 0), (1, 0)}
    assert all(abs(e.vx) == 90.0 and e.actor is walker for e in walls)
    assert {e.tile for e in walls} == {(0, 4), (17, 4)}  # the wall tile level with the walker's middle


def test_a_head_bump_names_the_block_nearest_the_head():
    grid = TileGrid.from_ascii("""
..........
...##.....
..........
..........
..........
##########
""")
    w = World(grid)
    hero = w.add(Character(54, 50))  # centre x = 59: under column 3 (48..64) more than column 4
    w.settle(hero)
    bumps = []
    for i in range(40):
        result = w.step(Buttons(jump=i < 20))
        bumps += [e for e in result.events if e.kind == "ceiling"]
    assert len(bumps) == 1
    bump = bumps[0]
    assert bump.actor is hero and bump.normal == (0, 1) and bump.tile == (3, 1) and bump.vy < 0.0
    hero.teleport(62, 50)  # centre x = 67: column 4
    w.settle(hero)
    bumps = [e for i in range(40) for e in w.step(Buttons(jump=i < 20)).events if e.kind == "ceiling"]
    assert [e.tile for e in bumps] == [(4, 1)]


def test_a_platform_pushing_an_actor_reports_it_once_a_step_and_a_crush_names_the_platform():
    w = World(TileGrid.from_ascii(ROOM))
    a = w.add(Actor(100, 64, 8, 16))
    pusher = w.add(Platform(60, 48, 16, 32, Path([(60, 48), (250, 48)], speed=480)))  # 8 px a step: 2 pieces
    pushed, crushed = [], []
    for _ in range(30):
        result = w.step()
        mine = [e for e in result.events if e.actor is a]
        assert len([e for e in mine if e.kind == "pushed"]) <= 1
        pushed += [e for e in mine if e.kind == "pushed"]
        crushed += [(e, result.squished) for e in mine if e.kind == "squished"]
    assert len(pushed) > 10 and all(e.normal == (1, 0) and e.other is pusher and e.tile is None for e in pushed)
    event, squished = crushed[0]  # against the right wall
    assert event.other is pusher and squished == [a] and a.x + a.w <= 272.0


def test_landing_on_a_platform_names_it_and_no_tile():
    w = World(TileGrid.from_ascii(ROOM))
    lift = w.add(Platform(32, 48, 48, 8))
    w.add(Actor(40, 10, 8, 8))
    events = [e for _ in range(40) for e in w.step().events]
    assert [(e.kind, e.other, e.tile) for e in events] == [("landed", lift, None)]


def test_events_cover_every_actor_in_the_order_they_happened():
    w = World(TileGrid.from_ascii(ROOM))
    w.add(Actor(20, 10, 8, 8, name="first"))
    w.add(Actor(60, 30, 8, 8, name="second"))
    hero = w.add(Character(100, 20))
    order = []
    for _ in range(60):
        result = w.step()
        order += [e.actor.name for e in result.events if e.kind == "landed"]
        assert all(isinstance(e, ActorEvent) for e in result.events)
        # a Character's landing is in both lists, on the same step
        assert (hero in result.landed) == any(e.actor is hero and e.kind == "landed" for e in result.events)
    assert sorted(order) == ["first", "player", "second"]
    assert order.index("second") < order.index("first")  # it had less far to fall


def test_contacts_keep_slopes_one_way_tiles_and_the_map_edge_apart():
    grid = TileGrid.from_ascii("""
..................
..................
......====........
..................
........../#######
##################
""")
    w = World(grid)
    a = w.add(Actor(160, 40, 8, 8))
    b = w.add(Actor(100, 0, 8, 8))
    for _ in range(60):
        w.step()
    assert a.floor == Contact((0, -1), "slope", None, (10, 4), 0.0, a.floor.vy)
    assert b.floor.kind == "one_way" and b.floor.tile == (6, 2)
    b.vx = -9000.0
    w.step()
    assert b.wall.tile is None and b.wall.kind == "solid" and b.x == 0.0  # the map's left edge
