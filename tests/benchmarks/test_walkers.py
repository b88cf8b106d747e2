"""The walkers scene: everyone starts standing, nobody ends inside a wall, and they turn at walls and
ledges like the game's rule says."""

from benchmarks.walkers import COLS, ROWS, SIZE, SPEED, batch, crates, handloop, naive, per_actor, scene, turn, \
    walker_map
from engine import Actor, TileGrid, TileKind, World


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


def test_the_hand_written_loop_walks_stands_and_turns():
    sc = scene(200)
    step = handloop(sc)
    start = [b[0] for b in step.bodies]
    turned = set()
    for _ in range(400):
        before = [b[5] for b in step.bodies]
        step()
        turned.update(i for i, b in enumerate(step.bodies) if b[5] != before[i])
    w, h = int(SIZE[0]), int(SIZE[1])
    blocks = (TileKind.SOLID, TileKind.SLOPE)
    for x, y, *_ in step.bodies:  # never inside a wall, a slope (a block here) included
        assert not any(sc.grid.kind_at(c, r) in blocks for r in range(y // 8, (y + h - 1) // 8 + 1)
                       for c in range(x // 8, (x + w - 1) // 8 + 1))
    assert all(b[6] for b in step.bodies)  # all standing: nobody walked off a ledge
    assert sum(abs(b[0] - x) > 4 for b, x in zip(step.bodies, start, strict=True)) > 150
    assert len(turned) > 100  # at walls, slopes and ledges


def test_the_crate_scene_has_crates_a_lift_and_the_crowd():
    sc = scene(300)
    step = crates(sc)
    world = step.__self__
    assert sum(a.solid for a in world.actors) == 6 and len(world.platforms) == 1
    lift = world.platforms[0]
    ys = set()
    for _ in range(400):
        step()
        ys.add(lift.y)
    assert max(ys) - min(ys) > 30  # the lift runs
    crowd = world.crowds[0]
    assert len(crowd) == 300 and all(abs(v) == SPEED for v in crowd.vx)
    assert not any(sc.grid.solid_overlaps(w.x, w.y, w.w, w.h) for w in crowd)
    assert all(a.on_ground for a in world.actors)  # the crates stay put on their floors
