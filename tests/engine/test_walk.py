"""``walk``'s turning rule: its quick test of the ledge probe's top row (``engine/crowd.py``) gives what the
whole probe (``_ground_ahead``: every row of the probe, the map's walled sides, platforms, crates) gives.

Random grids (the runway test's scenes: floors, hills, slopes of any heights, walls, map edges), platforms
and crates, and actors anywhere (on and off the map, across tile edges, at every size the runway test
uses), standing or not, with or without a wall contact, either way, with the default ledge depth or their
own: ``walk`` against the rule written out plainly, direction and ``vx``, bit for bit.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Actor, Path, Platform, World, walk
from engine.bodies import Contact
from engine.crowd import _depth, _ground_ahead

from .test_runway import SETTINGS, SIZES, scenes

MANY = settings(SETTINGS, max_examples=10 * SETTINGS.max_examples)  # (no stepping: cheap examples)


def plain_walk(world, actor, direction, speed, ledges=True, ledge_depth=None) -> int:
    """The rule as documented (the engine's walk before its quick test)."""
    d = direction
    if any(c.normal[0] for c in actor.contacts):
        d = -d
    elif ledges and actor.on_ground and not _ground_ahead(world.grid, world.platforms, actor.x, actor.y, actor.w,
                                                          actor.h, d, world._hash if world._crates else None,
                                                          _depth("walk", actor.w, ledge_depth)):
        d = -d
    actor.vx = d * speed
    return d


@st.composite
def probes(draw):
    grid = draw(scenes())[0]
    ts = grid.tile_size
    actors = []
    for _ in range(draw(st.integers(1, 20))):
        w, h = draw(st.sampled_from(SIZES))
        edge = draw(st.integers(-2, grid.cols + 1)) * ts  # a column edge: the box, or the probe, on it
        x = draw(st.floats(-2.0 * ts, grid.width + ts) | st.sampled_from([edge, edge + 0.5, edge - w - 0.5, edge - w]))
        feet = draw(st.integers(-1, grid.rows + 1)) * ts + draw(st.sampled_from([0.0, 0.0, -1e-9, 0.25, -0.5, -0.5 - 1e-10, -0.5 + 1e-10, 3.0]))
        contact = draw(st.sampled_from([None, None, (0, -1), (1, 0), (-1, 0), (0, 1)]))
        actors.append((x, feet - h, w, h, draw(st.booleans() | st.just(True)), contact, draw(st.sampled_from([1, -1])),
                       draw(st.booleans() | st.just(True)), draw(st.sampled_from([None, None, 0.25, 0.5, 3.0, 20.0])),
                       draw(st.sampled_from([40.0, 0.0, 90.0]))))
    platforms = [(draw(st.floats(-ts, grid.width)), draw(st.floats(-ts, grid.height)))
                 for _ in range(draw(st.integers(0, 2)))]
    crates = [(draw(st.floats(0.0, grid.width)), draw(st.floats(0.0, grid.height))) for _ in range(draw(st.integers(0, 2)))]
    return grid, actors, platforms, crates


@MANY
@given(probes())
def test_walk_turns_exactly_as_the_whole_ledge_probe_says(scene):
    grid, actors, platforms, crates = scene
    world = World(grid)
    for px, py in platforms:
        world.add(Platform(px, py, 2 * grid.tile_size, 4.0, Path([(px, py)], 0.0)))
    for cx, cy in crates:
        world.add(Actor(cx, cy, 8.0, 8.0, solid=True))
    world._crates = bool(crates)  # (as a step leaves it: walk looks for crates in the hash)
    for x, y, w, h, on_ground, contact, d, ledges, depth, speed in actors:
        a = world.add(Actor(x, y, w, h))
        a.on_ground = on_ground
        a.contacts = [] if contact is None else [Contact(contact, "solid", None, None, 1.0, 2.0)]
        got = walk(world, a, d, speed, ledges, depth)
        vx = a.vx
        want = plain_walk(world, a, d, speed, ledges, depth)
        assert (got, repr(vx)) == (want, repr(a.vx)), (x, y, w, h, d, ledges, depth)


def test_walk_matches_the_whole_probe_at_every_tile_edge_of_a_map_of_ledges():
    """Every box edge and probe on or an ulp either side of a column edge, feet on or near a row edge, on a
    map of ledges, steps and slopes with open sides (off the map the probe meets nothing)."""
    import math

    from engine import Edges, TileGrid

    grid = TileGrid.from_ascii("""
#..#.=/..\\.##
..#..#.#.=..#
#.=#..##p.#..
.#..#.b..#.=#
""", tile_size=8, edges=Edges(False, False, False, False))
    world = World(grid)
    ts = grid.tile_size
    for w, h in SIZES:
        for col in range(-1, grid.cols + 2):
            edge = float(col * ts)
            for x0 in (edge, edge + 0.5, edge - w - 0.5, edge - w):
                for x in (math.nextafter(x0, -math.inf), x0, math.nextafter(x0, math.inf)):
                    for row in range(-1, grid.rows + 2):
                        for feet in (row * ts - 0.5, row * ts - 1e-9, float(row * ts), row * ts + 0.25):
                            a = Actor(x, feet - h, w, h)
                            a.on_ground = True
                            for d in (1, -1):
                                want = plain_walk(world, a, d, 40.0)
                                assert walk(world, a, d, 40.0) == want, (x, feet - h, w, h, d)
