"""The walkers scene: everyone starts standing, nobody ends inside a wall, and they turn at walls and
ledges like the game's rule says."""

from benchmarks.walkers import COLS, ROWS, SIZE, SPEED, batch, naive, per_actor, scene, turn, walker_map
from engine import Actor, TileGrid, World


def test_map_has_slopes_one_way_planks_and_ledges():
    text = walker_map()
    rows = text.split("\n")
    assert len(rows) == ROWS and all(len(r) == COLS for r in rows)
    assert "/" in text and "\\" in text and "p" in text and "=" in text
    assert any("#." in r or ".#" in r for r in rows[5:-2])  # gaps in the floors: ledges


def test_walkers_stand_and_stay_out_of_solids():
    sc = scene(120)
    step = per_actor(sc)
    world = next(c.cell_contents for c in step.__closure__ if isinstance(c.cell_contents, World))
    assert all(a.on_ground or world.settle(a) for a in world.actors)
    start = [a.x for a in world.actors]
    for _ in range(300):
        step()
    assert not any(sc.grid.solid_overlaps(a.x, a.y, a.w, a.h) for a in world.actors)
    assert sum(abs(a.x - x) > 4 for a, x in zip(world.actors, start, strict=True)) > 100  # they walk
    assert all(abs(a.vx) == SPEED for a in world.actors)
    simple = naive(sc)
    simple()  # the naive loop runs on the same scene


def test_turn_at_wall_and_at_ledge():
    grid = TileGrid.from_ascii("""
#........#
#........#
#..####..#
##########
""", tile_size=8)
    world = World(grid)
    at_wall = world.add(Actor(9, 17, *SIZE))
    at_ledge = world.add(Actor(40, 9, *SIZE))
    for a in (at_wall, at_ledge):
        assert world.settle(a)
    dirs = [-1, 1]
    at_wall.vx, at_ledge.vx = -SPEED, SPEED
    seen = []
    for _ in range(60):
        world.step()
        turn(world, [at_wall, at_ledge], dirs)
        seen.append(tuple(dirs))
        assert at_ledge.y == 9 and at_ledge.on_ground  # never walks off the block
    assert seen[4][0] == 1 and seen[3][1] == 1 and seen[20][1] == -1  # turned at the wall, then at the ledge
    assert 4 < at_wall.x + at_wall.w <= 24 and 24 <= at_ledge.x  # pacing between wall/block and ledges


def test_the_batch_steps_the_same_scene():
    sc = scene(50)
    step = batch(sc)
    world = step.__self__
    for _ in range(100):
        step()
    crowd = world.crowds[0]
    assert len(crowd) == 50 and all(abs(v) == SPEED for v in crowd.vx)
    assert not any(sc.grid.solid_overlaps(w.x, w.y, w.w, w.h) for w in crowd)
