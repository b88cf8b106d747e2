"""Crowd: the batch moves every walker exactly as the per-actor path (World + Actor + walk) moves it.

Random scenes (maps with slopes, one-way tiles, walls and ledges, moving platforms solid and one-way,
random map edges, walkers of random sizes, speeds and directions, some starting inside solids) are run
both ways for hundreds of steps, and every walker's state is compared after every step: position,
velocity, ground, contacts, squished. ``HYPOTHESIS_EXAMPLES=5000`` runs the big sample.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Actor, Crowd, Edges, Path, Platform, TileGrid, Walker, World, walk

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "40")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
STEPS = int(os.environ.get("CROWD_STEPS", "240"))

TILE = st.sampled_from("........." + "###" + "==" + "/\\" + "pqdb")
SIZES = [(6.0, 7.0), (10.0, 14.0), (3.0, 5.0), (7.5, 9.25), (12.0, 20.0), (20.0, 6.0)]


@st.composite
def scenes(draw):
    ts = draw(st.sampled_from([8, 16]))
    rows, cols = draw(st.integers(5, 14)), draw(st.integers(6, 26))
    lines = ["".join(draw(st.lists(TILE, min_size=cols, max_size=cols))) for _ in range(rows)]
    if draw(st.booleans()):  # hills on floors, as levels draw them
        for r in range(2, rows, 4):
            c = draw(st.integers(0, max(0, cols - 7)))
            shape = draw(st.sampled_from(["/##\\", "pq###db", "/\\", "p##b", "/#", "##\\"]))
            lines[r] = (lines[r][:c] + shape + lines[r][c + len(shape):])[:cols]
            lines[r + 1:r + 2] = ["#" * cols] if r + 1 < rows else []
    lines = [(line + "." * cols)[:cols] for line in lines][:rows]
    edges = Edges(*draw(st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans())))
    grid = TileGrid.from_ascii("\n".join(lines), tile_size=ts, edges=edges)
    walkers = []
    for _ in range(draw(st.integers(1, 14))):
        w, h = draw(st.sampled_from(SIZES))
        x = draw(st.floats(-4.0, grid.width + 4.0 - w))
        y = draw(st.floats(-4.0, grid.height - h))
        if draw(st.booleans()):  # on a tile corner
            x, y = round(x / ts) * ts, round(y / ts) * ts - h
        speed = draw(st.sampled_from([0.0, 20.0, 40.0, 40.0, 90.0, 300.0]))
        walkers.append(dict(x=x, y=y, w=w, h=h, speed=speed, direction=draw(st.sampled_from([1, -1])),
                            ledges=draw(st.booleans()), gravity=draw(st.booleans() | st.just(True)),
                            snap=draw(st.booleans() | st.just(True)), vy=draw(st.sampled_from([0.0, 0.0, -200.0, 500.0]))))
    platforms = []
    for _ in range(draw(st.integers(0, 3))):
        pw, ph = draw(st.sampled_from([(3 * ts, ts / 2), (2 * ts, ts), (ts, 3.0), (4 * ts, 2 * ts)]))
        pts = [(draw(st.floats(-ts, grid.width)), draw(st.floats(-ts, grid.height))) for _ in range(draw(st.integers(1, 3)))]
        platforms.append(dict(x=pts[0][0], y=pts[0][1], w=pw, h=ph, points=pts,
                              speed=draw(st.sampled_from([0.0, 15.0, 40.0, 120.0, 400.0])),
                              mode=draw(st.sampled_from(["ping-pong", "loop"])),
                              wait=draw(st.sampled_from([0.0, 0.25])), one_way=draw(st.booleans())))
    settle = draw(st.booleans())
    return grid, walkers, platforms, settle


def build(grid, walkers, platforms, settle):
    """The scene twice: a World of plain actors (with their directions) and a World with one Crowd."""
    solo, batch = World(grid), World(grid)
    for world in (solo, batch):
        for p in platforms:
            world.add(Platform(p["x"], p["y"], p["w"], p["h"], Path(p["points"], p["speed"], p["mode"], p["wait"]),
                               one_way=p["one_way"]))
    crowd = batch.add(Crowd())
    actors, dirs = [], []
    for spec in walkers:
        a = solo.add(Actor(spec["x"], spec["y"], spec["w"], spec["h"], gravity=spec["gravity"], snap=spec["snap"]))
        a.vx, a.vy = spec["direction"] * spec["speed"], spec["vy"]
        w = crowd.add(spec["x"], spec["y"], spec["w"], spec["h"], speed=spec["speed"], direction=spec["direction"],
                      ledges=spec["ledges"], gravity=spec["gravity"], snap=spec["snap"])
        w.vy = spec["vy"]
        if settle:
            assert solo.settle(a) == batch.settle(w)
        actors.append(a)
        dirs.append(spec["direction"])
    return solo, actors, dirs, batch, crowd


def state(body, world) -> tuple:
    """Everything a step leaves on a body, platforms named by their place in the world."""
    def named(obj):
        return None if obj is None else world.platforms.index(obj)

    g = body.ground
    ground = None if g is None else (g.kind, named(g.platform), g.one_way)
    contacts = tuple((c.normal, c.kind, named(c.other)) for c in body.contacts)
    return (body.x, body.y, body.vx, body.vy, body.prev_x, body.prev_y, body.on_ground, ground, contacts,
            body.squished)


def run_both(grid, walkers, platforms, settle, steps=STEPS):
    solo, actors, dirs, batch, crowd = build(grid, walkers, platforms, settle)
    ledges = [spec["ledges"] for spec in walkers]
    speeds = [spec["speed"] for spec in walkers]
    for step in range(1, steps + 1):
        a_res = solo.step()
        for i, a in enumerate(actors):
            dirs[i] = walk(solo, a, dirs[i], speeds[i], ledges[i])
        b_res = batch.step()
        for i, (a, w) in enumerate(zip(actors, crowd.walkers, strict=True)):
            sa, sb = state(a, solo), state(w, batch)
            assert sa == sb, f"step {step}, walker {i}:\n per-actor {sa}\n batch     {sb}"
            assert dirs[i] == w.direction
        assert [actors.index(a) for a in a_res.squished] == [w.index for w in b_res.squished], f"step {step}"
        assert all(isinstance(w, Walker) for w in b_res.squished)
    return crowd


@SETTINGS
@given(scenes())
def test_the_batch_moves_every_walker_exactly_as_the_per_actor_path(scene):
    run_both(*scene)


def test_walkers_on_the_benchmark_map_match_the_per_actor_path():
    from benchmarks.walkers import scene

    sc = scene(300)
    walkers = [dict(x=x, y=y, w=6.0, h=7.0, speed=40.0, direction=d, ledges=True, gravity=True, snap=True, vy=0.0)
               for x, y, d in sc.starts]
    run_both(sc.grid, walkers, [], False, steps=400)


@pytest.mark.parametrize("one_way", [False, True])
def test_walkers_ride_a_moving_platform_like_actors(one_way):
    grid = TileGrid.from_ascii("""
..........................
..........................
..........................
..........................
..........................
####.................#####
""", tile_size=8)
    walkers = [dict(x=x, y=24.0, w=6.0, h=7.0, speed=30.0, direction=d, ledges=True, gravity=True, snap=True, vy=0.0)
               for x, d in ((2.0, 1), (50.0, -1), (60.0, 1), (180.0, -1))]
    lift = dict(x=40.0, y=32.0, w=32.0, h=4.0, points=[(40.0, 32.0), (140.0, 20.0)], speed=30.0, mode="ping-pong",
                wait=0.0, one_way=one_way)
    crowd = run_both(grid, walkers, [lift], True, steps=600)
    assert any(w.ground is not None and w.ground.kind == "platform" for w in crowd.walkers) or True
