"""World.settle: stand an actor on the ground near where it was placed (spawns and respawns)."""

import pytest

from engine import Actor, Buttons, Character, Path, Platform, TileGrid, World

ROOM = """
..........
..........
..........
....##....
##########
"""  # floor top y=64; a block x 64..96, top y=48


@pytest.mark.parametrize("feet", [64.0, 70.0, 79.0, 60.0, 40.0])
def test_settle_stands_an_actor_on_the_floor_below_or_around_its_feet(feet):
    world = World(TileGrid.from_ascii(ROOM))
    hero = world.add(Character(20, feet - 14))
    assert world.settle(hero)
    assert hero.y + hero.h == 64.0 and hero.on_ground and hero.vy == 0.0
    assert (hero.prev_x, hero.prev_y) == (hero.x, hero.y)
    assert not world.grid.solid_overlaps(hero.x, hero.y, hero.w, hero.h)
    world.step(Buttons())
    assert hero.y + hero.h == 64.0 and hero.on_ground


def test_settle_lifts_an_actor_out_of_a_block_onto_its_top():
    world = World(TileGrid.from_ascii(ROOM))
    hero = world.add(Character(70, 44))  # feet 58: inside the block (48..64)
    assert world.settle(hero)
    assert hero.y + hero.h == 48.0 and hero.ground.kind == "solid"


def test_settle_gives_up_beyond_its_reach_and_leaves_the_actor_where_it_was():
    world = World(TileGrid.from_ascii(".....\n.....\n.....\n.....\n.....\n.....\n#####"))
    a = world.add(Actor(20, 0, 10, 10))
    assert not world.settle(a, reach=16)
    assert a.y == 0 and not a.on_ground


def test_a_settled_actor_rides_a_platform_from_the_first_step():
    world = World(TileGrid.from_ascii("." * 20 + "\n" + "." * 20 + "\n" + "." * 20 + "\n" + "#" * 20))
    lift = world.add(Platform(32, 30, 48, 8, Path([(32, 30), (32, 0)], speed=60)))
    hero = world.add(Character(40, 10))
    assert world.settle(hero) and hero.ground.platform is lift
    for _ in range(20):
        world.step(Buttons())
        assert hero.y + hero.h == lift.y and hero.on_ground


def test_settle_lifts_through_floating_slope():
    # a floating slope tile (with a solid above it) over the actor's head is not a surface to stand on
    world = World(TileGrid.from_ascii("........\n..#.....\n../.....\n........\n........\n########"))
    hero = world.add(Character(35, 50))
    assert world.settle(hero)
    assert hero.y + hero.h == 80.0 and hero.ground.kind == "solid"
    assert not world.grid.solid_overlaps(hero.x, hero.y, hero.w, hero.h)
