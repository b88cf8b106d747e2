"""Runways (``engine/_runway.py``): an actor walking a flat stretch of tiles is stepped by a short path,
and that path leaves every actor exactly where the general one (``_motion.py``'s passes) would.

Random scenes (floors of solid and one-way runs with gaps, hills of 45-degree and shallow slopes, walls, random map edges and
tile sizes, moving platforms solid and one-way, solid crates, actors of random sizes, speeds, gravity
scales and snap settings walking with ``walk``, tile edits during the run, velocities, positions and
sizes set by hand between steps, and snapshots put back later) are stepped twice, runways on and off, and every actor's position,
velocity, ground, contacts (tile and velocity included) and the step's events are compared after every
step, bit for bit. ``HYPOTHESIS_EXAMPLES=2000 RUNWAY_STEPS=400`` runs the big sample.
"""

from __future__ import annotations

import copy
import os
from contextlib import contextmanager

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import _motion, _runway
from engine import Actor, Edges, Path, Platform, TileGrid, TileKind, World, walk

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "30")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
STEPS = int(os.environ.get("RUNWAY_STEPS", "150"))
SIZES = [(6.0, 7.0), (10.0, 14.0), (3.0, 5.0), (7.5, 9.25), (12.0, 20.0), (20.0, 6.0), (8.0, 8.0), (16.0, 3.0)]


@contextmanager
def runways(on: bool):
    saved = _runway.ENABLED
    _runway.ENABLED = on
    try:
        yield
    finally:
        _runway.ENABLED = saved


@st.composite
def scenes(draw):
    ts = draw(st.sampled_from([8, 16, 10]))
    rows, cols = draw(st.integers(5, 14)), draw(st.integers(6, 30))
    lines = [["."] * cols for _ in range(rows)]
    for r in range(draw(st.integers(1, 3)), rows, draw(st.integers(2, 5))):  # floors: runs and gaps
        c = 0
        while c < cols:
            run = draw(st.integers(1, 12))
            kind = draw(st.sampled_from("##=#."))
            for k in range(c, min(cols, c + run)):
                lines[r][k] = kind
            c += run + draw(st.integers(0, 3))
    floors = [r for r in range(rows) if "#" in lines[r]]
    for _ in range(draw(st.integers(0, 3)) if floors else 0):  # hills on solid floors, as levels draw them
        r = draw(st.sampled_from(floors))
        if r > 0:
            shape = draw(st.sampled_from(["/##\\", "pq###db", "/\\", "p##b", "/#", "##\\", "pqqp", "dbbd", "u##v",
                                          "uv", "#w#", "v.u"]))
            c = draw(st.integers(0, max(0, cols - len(shape))))
            for i, ch in enumerate(shape[:cols - c]):
                lines[r - 1][c + i] = ch
                lines[r][c + i] = "#"
    for _ in range(draw(st.integers(0, 8))):  # anything anywhere: walls, slopes, planks
        r, c = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
        lines[r][c] = draw(st.sampled_from("#=/\\pqdbuvw."))
    text = "\n".join("".join(line) for line in lines)
    edges = Edges(*draw(st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans())))
    # slopes of any heights (edges at 0 or a whole tile, or where the sums round: 0.3 of a tile)
    height = st.sampled_from([0.0, 0.0, 1.0, 0.5]) | st.floats(0.0, 1.0)
    legend = {ch: (TileKind.SLOPE, draw(height), draw(height)) for ch in "uvw"}
    grid = TileGrid.from_ascii(text, tile_size=ts, edges=edges, legend=legend) if text.strip(". \n") else \
        TileGrid.from_ascii(text[:-1] + "#", tile_size=ts, edges=edges, legend=legend)
    actors = []
    for _ in range(draw(st.integers(1, 12))):
        w, h = draw(st.sampled_from(SIZES))
        x = draw(st.floats(-4.0, grid.width + 4.0 - w))
        r = draw(st.integers(0, rows))
        y = r * ts - h if draw(st.booleans()) else draw(st.floats(-4.0, grid.height - h))
        actors.append(dict(x=x, y=y, w=w, h=h, speed=draw(st.sampled_from([0.0, 20.0, 40.0, 40.0, 90.0, 300.0, 900.0])),
                           direction=draw(st.sampled_from([1, -1])), ledges=draw(st.booleans()),
                           gravity=draw(st.sampled_from([1.0, 1.0, 1.0, 0.0, 2.0, 0.5, -1.0, 1e-9])),
                           snap=draw(st.booleans() | st.just(True)), bounce=draw(st.sampled_from([0.0, 0.0, 0.0, 0.5]))))
    bodies = []
    for _ in range(draw(st.integers(0, 2))):
        pw, ph = draw(st.sampled_from([(3 * ts, ts / 2), (2 * ts, ts), (ts, 3.0)]))
        pts = [(draw(st.floats(-ts, grid.width)), draw(st.floats(-ts, grid.height))) for _ in range(draw(st.integers(1, 3)))]
        bodies.append(("platform", pts, pw, ph, draw(st.sampled_from([0.0, 15.0, 40.0, 120.0])), draw(st.booleans())))
    for _ in range(draw(st.integers(0, 2))):
        bodies.append(("crate", draw(st.floats(0.0, grid.width - 8.0)), draw(st.floats(-8.0, grid.height - 8.0)),
                       draw(st.sampled_from([0.0, 30.0, -60.0]))))
    # between steps: ("tile", step, col, row, kind) edits; ("poke", step, actor, what, value) by hand; each
    # before the step or after it, before walk (whose ledge probe may read the runway)
    changes = []
    for _ in range(draw(st.integers(0, 4))):
        changes.append(("tile", draw(st.integers(1, STEPS)), draw(st.integers(0, cols - 1)),
                        draw(st.integers(0, rows - 1)), draw(st.sampled_from([TileKind.SOLID, TileKind.EMPTY,
                                                                               TileKind.ONE_WAY])), draw(st.booleans())))
    for _ in range(draw(st.integers(0, 6))):
        changes.append(("poke", draw(st.integers(1, STEPS)), draw(st.integers(0, len(actors) - 1)),
                        draw(st.sampled_from(["vy", "vx", "x", "y", "w", "h", "gravity", "bounce", "snap", "teleport"])),
                        draw(st.sampled_from([-250.0, 0.0, 0.25, 1.0, 3.0, 45.0])), draw(st.booleans())))
    for _ in range(draw(st.integers(0, 2))):  # a snapshot taken, and put back later (tiles edited in between too)
        taken = draw(st.integers(1, STEPS))
        back = draw(st.integers(taken, STEPS))
        changes.append(("snap", taken, draw(st.booleans())))
        for _ in range(draw(st.integers(0, 3))):  # tiles edited while it is held: the restore puts them back
            changes.append(("tile", draw(st.integers(taken, back)), draw(st.integers(0, cols - 1)),
                            draw(st.integers(0, rows - 1)), draw(st.sampled_from([TileKind.SOLID, TileKind.EMPTY])),
                            True))
        changes.append(("restore", back, True))
    return grid, actors, bodies, changes, draw(st.booleans())


def build(grid, actors, bodies, settle):
    world = World(grid)
    for b in bodies:
        if b[0] == "platform":
            _kind, pts, pw, ph, speed, one_way = b
            world.add(Platform(pts[0][0], pts[0][1], pw, ph, Path(pts, speed), one_way=one_way))
        else:
            crate = world.add(Actor(b[1], b[2], 8.0, 8.0, solid=True))
            crate.vx = b[3]
    walkers = []
    for spec in actors:
        a = world.add(Actor(spec["x"], spec["y"], spec["w"], spec["h"], gravity_scale=spec["gravity"],
                            snap=spec["snap"], bounce=spec["bounce"]))
        a.vx = spec["direction"] * spec["speed"]
        if settle:
            world.settle(a)
        walkers.append(a)
    return world, walkers


def snapshot(world) -> list:
    index = {b: i for i, b in enumerate(world.platforms + world.actors)}

    def name(obj):
        return None if obj is None else index[obj]

    out = []
    for a in world.actors:
        g = a.ground
        out.append((a.x, a.y, a.w, a.h, a.vx, a.vy, a.prev_x, a.prev_y, a.on_ground, a.squished,
                    None if g is None else (g.kind, name(g.platform), g.one_way),
                    tuple((c.normal, c.kind, name(c.other), c.tile, c.vx, c.vy) for c in a.contacts)))
    return out


def happened(world, result) -> tuple:
    index = {b: i for i, b in enumerate(world.platforms + world.actors)}
    return ([(e.kind, index[e.actor], e.normal, e.tile, index.get(e.other), e.vx, e.vy) for e in result.events],
            [index[a] for a in result.squished])


def poke(a, what: str, value: float) -> None:
    if what in ("vx", "vy"):
        setattr(a, what, value * 10.0)
    elif what in ("x", "y"):
        setattr(a, what, getattr(a, what) + value)
    elif what in ("w", "h"):
        setattr(a, what, max(1.0, getattr(a, what) + value))
    elif what == "gravity":
        a.gravity_scale = value / 45.0
    elif what == "bounce":
        a.bounce = min(1.0, max(0.0, value / 45.0))
    elif what == "teleport":
        a.teleport(a.x + value, a.y)
    else:
        a.snap = not a.snap


def run_both(grid, actors, bodies, changes, settle, steps=STEPS) -> int:
    """Step the scene with runways on and off; returns how many actor steps took a runway (did not go
    through ``_motion.move``: squished and bullet steps count too)."""
    import copy

    grids = copy.deepcopy(grid), copy.deepcopy(grid)
    (on, on_walkers), (off, off_walkers) = build(grids[0], actors, bodies, settle), build(grids[1], actors, bodies,
                                                                                            settle)
    dirs = {id(w): [s["direction"] for s in actors] for w in (on_walkers, off_walkers)}
    general = 0  # actor steps through _motion.move with runways on
    original = _motion.move

    def counting(*args, **kw):
        nonlocal general
        general += 1
        return original(*args, **kw)

    snaps = {}
    try:
        def apply(step, after):
            for ch in changes:
                if ch[1] != step or ch[-1] != after:
                    continue
                if ch[0] == "snap":
                    snaps.update({id(w): w.snapshot() for w in (on, off)})
                    continue
                if ch[0] == "restore":
                    for w in (on, off):
                        if id(w) in snaps:
                            w.restore(snaps[id(w)])
                    continue
                for g, ws in zip(grids, (on_walkers, off_walkers), strict=True):
                    if ch[0] == "tile":
                        g.set_tile(ch[2], ch[3], ch[4])
                    else:
                        poke(ws[ch[2]], ch[3], ch[4])

        for step in range(1, steps + 1):
            apply(step, False)
            results = []
            for world, flag in ((on, True), (off, False)):
                with runways(flag):
                    _motion.move = counting if flag else original
                    results.append(world.step())
                    _motion.move = original
            apply(step, True)
            for world, ws in ((on, on_walkers), (off, off_walkers)):
                d = dirs[id(ws)]
                for i, (a, spec) in enumerate(zip(ws, actors, strict=True)):
                    d[i] = walk(world, a, d[i], spec["speed"], spec["ledges"])
            s_on, s_off = snapshot(on), snapshot(off)
            for i, (a, b) in enumerate(zip(s_on, s_off, strict=True)):
                assert a == b, f"step {step}, actor {i}:\n runway  {a}\n general {b}"
            assert happened(on, results[0]) == happened(off, results[1]), f"step {step}"
            assert dirs[id(on_walkers)] == dirs[id(off_walkers)], f"step {step}"
            assert on.state_hash() == off.state_hash(), f"step {step}"
    finally:
        _motion.move = original
    return steps * len(actors) - general


@SETTINGS
@given(scenes())
def test_runways_step_every_actor_exactly_as_the_general_path(scene):
    run_both(*scene)


def test_walkers_on_the_benchmark_map_mostly_take_runways_and_match():
    from benchmarks.walkers import scene

    sc = scene(150)
    actors = [dict(x=x, y=y, w=6.0, h=7.0, speed=40.0, direction=d, ledges=True, gravity=1.0, snap=True, bounce=0.0)
              for x, y, d in sc.starts]
    steps = 200
    taken = run_both(sc.grid, actors, [], [], False, steps)
    assert taken > 0.95 * steps * len(actors)  # flat runs, hill edges, ramps' feet, slopes (98 %; main 91 %)


def _general_steps(world, actor, steps: int, where) -> int:
    """Step ``world`` (walking ``actor`` on with ``walk``) and count the steps taken by the general path
    (``_motion.move``) among those that began with ``where(actor)`` true."""
    original, calls = _motion.move, []

    def counting(*args, **kw):
        calls.append(args[2])
        return original(*args, **kw)

    d, counted = 1 if actor.vx >= 0 else -1, 0
    _motion.move = counting
    try:
        for _ in range(steps):
            before, n = where(actor), len(calls)
            world.step()
            if before:
                counted += 1
                assert len(calls) == n, f"general path at x={actor.x}"
            d = walk(world, actor, d, abs(actor.vx) or 40.0)
    finally:
        _motion.move = original
    return counted


RAMP = """
............
......./##..
############
"""


def test_a_walker_at_the_foot_of_a_ramp_keeps_its_runway_until_its_centre_reaches_the_slope():
    world = World(TileGrid.from_ascii(RAMP, tile_size=8))
    a = world.add(Actor(30.0, 9.0, 6.0, 7.0))
    assert world.settle(a)
    a.vx = 40.0
    # the box over the slope's column (x + w > 56), the centre still short of it (x + w / 2 < 56)
    steps = _general_steps(world, a, 60, lambda a: a.x + a.w > 56.0 and a.x + a.w * 0.5 + a.vx * world.dt < 56.0)
    assert steps >= 3
    run_both(TileGrid.from_ascii(RAMP, tile_size=8), [dict(x=30.0, y=9.0, w=6.0, h=7.0, speed=40.0, direction=1,
                                                          ledges=True, gravity=1.0, snap=True, bounce=0.0)],
             [], [], True, steps=120)


HILL = """
............
...pq##db...
############
"""


def test_a_walker_whose_centre_hangs_over_a_slope_beside_a_hill_top_keeps_its_runway():
    world = World(TileGrid.from_ascii(HILL, tile_size=8))
    a = world.add(Actor(44.0, 1.0, 6.0, 7.0))  # on the hill's top (columns 5 and 6)
    assert world.settle(a) and a.ground.kind == "solid"
    a.vx = 40.0
    # the centre over the slope beside the top (x + w / 2 >= 56) while the box still covers the top (x < 56)
    steps = _general_steps(world, a, 40, lambda a: 56.0 <= a.x + a.w * 0.5 and a.x + a.vx * world.dt < 56.0)
    assert steps >= 3
    for speed, x in ((40.0, 44.0), (-40.0, 46.0), (90.0, 40.0), (-20.0, 48.0)):
        run_both(TileGrid.from_ascii(HILL, tile_size=8), [dict(x=x, y=1.0, w=6.0, h=7.0, speed=abs(speed),
                                                              direction=1 if speed > 0 else -1, ledges=False,
                                                              gravity=1.0, snap=True, bounce=0.0)],
                 [], [], True, steps=120)


def test_a_runway_follows_a_tile_edit_ahead():
    grid = TileGrid.from_ascii("""
..........
..........
##########
""", tile_size=8)
    world = World(grid)
    a = world.add(Actor(8, 9, 6, 7))
    assert world.settle(a)
    a.vx = 60.0
    for _ in range(5):
        world.step()
    assert a._run is not None and a.on_ground
    grid.set_tile(5, 1, TileKind.SOLID)  # a wall appears ahead
    walls = 0
    for _ in range(60):
        world.step()
        walls += a.wall is not None
    assert a.x + a.w == 40.0 and walls == 1  # stopped at it, not walked through


def test_a_reused_contact_matches_the_general_paths_to_the_bit_whatever_vx_is_set_to():
    # A runway step reuses its last floor contact while the column, vx and the fall are the same; vx set
    # by hand to 0.0, -0.0 or back to an earlier speed must still give the general path's contact, sign
    # of zero included (== alone would call -0.0 and 0.0 the same).
    grid = TileGrid.from_ascii("""
..............
......p#b.....
##############
""", tile_size=8)
    speeds = [40.0, 40.0, 40.0, 0.0, -0.0, -0.0, 0.0, -40.0, -40.0, 40.0, 12.5, 12.5, -0.0, 40.0] * 6

    def contacts(on: bool) -> list:
        world = World(copy.deepcopy(grid))
        flat = world.add(Actor(10.0, 9.0, 6.0, 7.0))
        ramp = world.add(Actor(44.0, 4.0, 6.0, 7.0))
        for a in (flat, ramp):
            assert world.settle(a)
        seen = []
        with runways(on):
            for vx in speeds:
                flat.vx = ramp.vx = vx
                world.step()
                seen.append([(a.x.hex(), a.y.hex(), a.ground, [(c.normal, c.kind, c.tile, c.vx.hex(), c.vy.hex())
                                                                for c in a.contacts]) for a in (flat, ramp)])
        return seen

    on, off = contacts(True), contacts(False)
    assert on == off
    assert any(s[1][2].kind == "slope" for s in on)  # (the ramp's walker did walk on the slope)


HILL = """
................
....../##\\......
.....p####b.....
################
"""


def test_a_step_leaving_its_runway_finishes_with_the_general_passes_exactly():
    # Over a hill's crest and off a ramp's end, a walker's Y pass is still its runway's (into the floor it
    # stands on) while its X pass and snap are not: those steps run the general X pass and snap after it
    # (_runway._across), and must leave it where the general path alone would.
    grid = TileGrid.from_ascii(HILL, tile_size=8)
    actors = [dict(x=x, y=0.0, w=w, h=h, speed=speed, direction=d, ledges=False, gravity=1.0, snap=True, bounce=0.0)
              for x, w, h, speed, d in [(2.0, 6.0, 7.0, 40.0, 1), (100.0, 6.0, 7.0, 40.0, -1), (20.0, 3.0, 5.0, 90.0, 1),
                                        (60.0, 10.0, 14.0, 20.0, -1)]]
    original, halves = _runway._across, []

    def counting(a, *args):
        halves.append(a)
        return original(a, *args)

    _runway._across = counting
    try:
        run_both(grid, actors, [], [], True, steps=400)
    finally:
        _runway._across = original
    assert len(halves) > 20  # (the crests, the ramps' feet and the walls at the ends: each a half step)


def test_runways_shared_by_actors_of_one_size_follow_a_restore_that_puts_a_wall_back():
    # The world keeps the runways it found for the actors of one size to share, read from the tiles as they
    # are: a restore that puts a wall back makes them look again (a runway found past the wall while it
    # was gone must not walk a walker through it), and the steps after it are the steps a world that never
    # saw the edit takes, to the bit.
    def walled():
        world = World(TileGrid.from_ascii("""
................
.........#......
################
""", tile_size=8))
        walkers = [world.add(Actor(x, 0.0, 6.0, 7.0)) for x in (8.0, 30.0)]
        for a in walkers:
            assert world.settle(a)
            a.vx = 60.0
        return world, walkers

    world, walkers = walled()
    snap = world.snapshot()
    world.grid.set_tile(9, 1, TileKind.EMPTY)  # the wall gone: both walk on past where it stood
    for _ in range(60):
        world.step()
    assert walkers[1].x > 80.0
    world.restore(snap)  # the wall is back
    never, _ = walled()
    for _ in range(90):
        world.step()
        never.step()
        assert world.state_hash() == never.state_hash()
    assert [a.x + a.w for a in walkers] == [72.0, 72.0]  # stopped at it, not walked through


def test_a_full_cache_of_runways_starts_again_and_changes_nothing(monkeypatch):
    from benchmarks.walkers import scene

    monkeypatch.setattr(_runway, "CACHE", 3)  # emptied every few runways found
    sc = scene(60)
    actors = [dict(x=x, y=y, w=6.0, h=7.0, speed=40.0, direction=d, ledges=True, gravity=1.0, snap=True, bounce=0.0)
              for x, y, d in sc.starts]
    run_both(sc.grid, actors, [], [], False, 120)


def test_a_walker_past_its_runways_end_looks_for_the_next_one():
    # A runway reaches REACH columns either way from where it was found: on a longer floor, or past a wall
    # edited away beyond its end, the walker finds the runway that goes on (it used to take the general
    # path for the rest of the floor), and every step is still the general path's.
    grid = TileGrid.from_ascii("." * 200 + "\n" + "." * 200 + "\n" + "#" * 200, tile_size=8)
    actors = [dict(x=8.0, y=0.0, w=6.0, h=7.0, speed=60.0, direction=1, ledges=True, gravity=1.0, snap=True,
                   bounce=0.0)]
    assert _runway.REACH < 120  # (1,200 steps at 60 px/s: 150 tiles, past the first runway's end)
    assert run_both(grid, actors, [], [], True, steps=1200) == 1200  # (no step through _motion.move)
