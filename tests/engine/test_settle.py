"""World.settle: stand an actor on the ground near where it was placed (spawns and respawns); and the rule
it shares with every step: an actor found inside solid geometry moves to the nearest free spot (a
bounded search, each thing left through its nearer face, never through a wall or down through a
floor, up first on a tie), or is reported squished and stays put."""

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


# -- the free-spot rule (World.step and settle) -----------------------------------------------------
WALLED = """
..........
....#.....
....#.....
....#.....
##########
"""  # a one-tile wall x 64..80, y 16..64; floor top y=64


def test_an_actor_teleported_into_a_wall_is_moved_out_on_its_near_side():
    # (it used to walk through the solids and out of the map: x = -46, below the floor)
    world = World(TileGrid.from_ascii(WALLED))
    hero = world.add(Character(20, 50))
    assert world.settle(hero)
    for x, side in ((62.0, "left"), (69.0, "right"), (58.0, "left")):
        hero.teleport(x, 50)
        hero.vx = -100.0
        r = world.step(Buttons(left=True))
        assert r.squished == []
        assert not world.grid.solid_overlaps(hero.x, hero.y, hero.w, hero.h)
        if side == "left":
            assert hero.x + hero.w <= 64.0 and hero.x > 40
        else:
            assert hero.x >= 80.0 - 3 and hero.x < 90  # out on the right, then walking left against it
        for _ in range(30):
            world.step(Buttons(left=True))
            assert hero.y + hero.h <= 64.0 and hero.x >= 0.0


def test_an_actor_deep_inside_a_thick_wall_is_squished_and_stays():
    world = World(TileGrid.from_ascii("##########\n##########\n##########\n##########\n##########"))
    rock = world.add(Actor(60, 30, 10, 10))
    rock.vx = -300.0
    for _ in range(5):
        r = world.step()
        assert r.squished == [rock] and rock.squished
        assert (rock.x, rock.y) == (60, 30)


def test_up_first_on_a_tie():
    world = World(TileGrid.from_ascii("........\n........\n...#....\n........\n........"))
    a = world.add(Actor(48, 32, 16, 16, gravity=False))  # exactly on the tile: 16 px out every way
    world.step()
    assert (a.x, a.y) == (48, 16)


def test_never_pushed_down_through_a_one_way_floor():
    # inside a solid platform's lower half while standing on a one-way floor: no way out -> squished
    world = World(TileGrid.from_ascii("........\n........\n........\n========\n........\n........\n########"))
    hero = world.add(Character(20, 30))
    assert world.settle(hero) and hero.y + hero.h == 48.0
    world.add(Platform(0, 28, 64, 8))  # added right over the hero's head (y 34..48)
    r = world.step()
    assert r.squished == [hero] and hero.y + hero.h == 48.0


def test_a_platform_added_over_an_actor_moves_it_out_or_squishes_it():
    world = World(TileGrid.from_ascii("........\n........\n........\n########"))
    hero = world.add(Character(20, 30))
    assert world.settle(hero)
    slab = world.add(Platform(24, 40, 40, 8))  # over the hero's right half, low down
    r = world.step()
    assert r.squished == []
    assert hero.x + hero.w <= slab.x  # left through the slab's near (left) face


def test_growing_into_a_ceiling_is_noticed():
    world = World(TileGrid.from_ascii("........\n###.####\n........\n........\n########"))
    hero = world.add(Character(40, 50))
    assert world.settle(hero) and hero.y == 50.0
    hero.h, hero.y = 40.0, 24.0  # "stands up" through the ceiling (y 16..32), feet still on the floor
    r = world.step()
    assert hero in r.squished or not world.grid.solid_overlaps(hero.x, hero.y, hero.w, hero.h)


def test_settle_uses_the_same_rule_as_a_step():
    for x in (62.0, 69.0):
        a_world, b_world = World(TileGrid.from_ascii(WALLED)), World(TileGrid.from_ascii(WALLED))
        a = a_world.add(Actor(x, 50, 10, 14, gravity=False))
        b = b_world.add(Actor(x, 50, 10, 14, gravity=False))
        a_world.step()
        assert b_world.settle(b, reach=16)
        assert (a.x, a.y) == (b.x, b.y)


def test_the_reach_is_a_tile_or_half_the_actor_whichever_is_larger():
    # 4 px tiles: a 10x14 actor 6 px into a thick wall is still brought out (reach 7 px), 8 px is too deep
    g = TileGrid.from_ascii("\n".join(["......######"] * 8 + ["#" * 12]), tile_size=4)
    for depth, freed in ((6.0, True), (8.0, False)):
        world = World(g)
        a = world.add(Actor(24 - 10 + depth, 10, 10, 14, gravity=False))
        r = world.step()
        assert (r.squished == []) is freed
        if freed:
            assert a.x + a.w == 24.0
