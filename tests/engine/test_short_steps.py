"""Short steps (``_motion.air_step`` and ``flat_step``): a step through open air, or walking on a flat solid
floor, is told from a few reads of the grid instead of the passes, and leaves every body exactly where
the passes (``_motion.move`` + ``land``) would.

Random scenes (test_runway's: floors, hills, walls, slopes of any height, open and walled map edges, tile
sizes, moving platforms, crates, plain actors, tile edits) with one to three Characters of random sizes,
gravity scales, snap and bounce, driven by random runs of buttons under several feels, are stepped twice,
short steps on and off; every body's position, velocity, ground and contacts, the step's events and
jumps / landings / drops, and the state hash are compared after every step, bit for bit.
``HYPOTHESIS_EXAMPLES=2000`` runs the big sample.
"""

from __future__ import annotations

import copy
import os
import tomllib
from contextlib import contextmanager
from pathlib import Path as FilePath

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Buttons, Character, FeelConfig, TileGrid, TileKind, Trigger, World, _motion
from tests.engine.test_runway import build, happened, scenes, snapshot

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "40")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
STEPS = 160
ROOT = FilePath(__file__).resolve().parents[2]
FEELS = {
    "default": {},
    "no corner correction": {"jump": {"corner_correction": 0.0}},
    "apex hang": {"jump": {"apex_hang_speed": 80.0, "apex_hang_gravity": 0.3}},
    "moves": {"wall": {"slide": True, "jump": True, "climb_jump": True}, "dash": {"enabled": True}},
    "30 Hz": {"physics": {"hz": 30}},
    "floaty": tomllib.loads((ROOT / "presets" / "floaty.toml").read_text()),
    "celeste": tomllib.loads((ROOT / "presets" / "moves" / "celeste.toml").read_text()),
}


@contextmanager
def short_steps(on: bool):
    """Short steps as built (on) or never taken (off: every step takes the passes)."""
    saved = _motion.air_step, _motion.flat_step
    if not on:
        _motion.air_step = _motion.flat_step = lambda *args: False
    try:
        yield
    finally:
        _motion.air_step, _motion.flat_step = saved


@contextmanager
def counting():
    """Counts the steps the short steps answered: ``counts["air"]``, ``counts["flat"]``."""
    saved, counts = (_motion.air_step, _motion.flat_step), {"air": 0, "flat": 0}

    def counted(name, fn):
        def step(*args):
            taken = fn(*args)
            counts[name] += taken
            return taken
        return step

    _motion.air_step, _motion.flat_step = counted("air", saved[0]), counted("flat", saved[1])
    try:
        yield counts
    finally:
        _motion.air_step, _motion.flat_step = saved


BUTTONS = st.builds(Buttons, left=st.booleans(), right=st.booleans(), down=st.booleans() | st.just(False),
                    jump=st.booleans(), dash=st.booleans() | st.just(False))


@st.composite
def players(draw, grid):
    """Characters (box, snap, bounce, gravity) and, for each, runs of held buttons covering STEPS."""
    out = []
    for _ in range(draw(st.integers(1, 3))):
        w, h = draw(st.sampled_from([(10.0, 14.0), (6.0, 7.0), (12.0, 20.0), (7.5, 9.25), (16.0, 3.0)]))
        x = draw(st.floats(-4.0, grid.width + 4.0 - w))
        r = draw(st.integers(0, grid.rows))
        y = r * grid.tile_size - h if draw(st.booleans()) else draw(st.floats(-4.0, grid.height - h))
        runs, left = [], STEPS
        while left > 0:
            n = draw(st.integers(1, 60))
            runs.append((min(n, left), draw(BUTTONS)))
            left -= n
        out.append(dict(x=x, y=y, w=w, h=h, snap=draw(st.booleans() | st.just(True)),
                        bounce=draw(st.sampled_from([0.0, 0.0, 0.0, 0.6])),
                        gravity=draw(st.sampled_from([1.0, 1.0, 1.0, 0.5, -1.0])), runs=runs))
    return out


def _world(grid, actors, bodies, feel, specs, triggers=()):
    world, _walkers = build(grid, actors, bodies, False)
    world.set_feel(feel)
    for i, box in enumerate(triggers):
        world.add(Trigger(*box, name=f"t{i}"))
    chars = []
    for s in specs:
        ch = world.add(Character(s["x"], s["y"], s["w"], s["h"], snap=s["snap"], gravity_scale=s["gravity"]))
        ch.bounce = s["bounce"]
        chars.append(ch)
    return world, chars


def compare(on, off, inputs, edits=()) -> None:
    """Step ``on`` with short steps and ``off`` without, ``inputs[step]`` (``{index of a Character in the
    world's actors: Buttons}``) each step and the tile ``edits`` ``(step, col, row, kind)`` after it;
    assert both worlds agree after every step."""
    index = [{a: i for i, a in enumerate(w.actors)} for w in (on, off)]
    by_index = [{i: a for a, i in ix.items()} for ix in index]
    for step, held in enumerate(inputs):
        results = []
        for world, flag, bodies in ((on, True, by_index[0]), (off, False, by_index[1])):
            with short_steps(flag):
                results.append(world.step({bodies[i]: b for i, b in held.items()}))
        for when, col, row, kind in edits:
            if when == step:
                on.grid.set_tile(col, row, kind)
                off.grid.set_tile(col, row, kind)
        s_on, s_off = snapshot(on), snapshot(off)
        for i, (a, b) in enumerate(zip(s_on, s_off, strict=True)):
            assert a == b, f"step {step}, body {i}:\n short  {a}\n passes {b}"
        assert happened(on, results[0]) == happened(off, results[1]), f"step {step}"
        for field in ("jumped", "landed", "dropped"):
            assert [index[0][a] for a in getattr(results[0], field)] == \
                [index[1][a] for a in getattr(results[1], field)], f"step {step}: {field}"
        assert [(e.kind, e.trigger.name, index[0][e.actor]) for e in results[0].triggers] == \
            [(e.kind, e.trigger.name, index[1][e.actor]) for e in results[1].triggers], f"step {step}"
        assert on.state_hash() == off.state_hash(), f"step {step}"


@SETTINGS
@given(st.data())
def test_short_steps_leave_every_body_where_the_passes_would(data):
    grid, actors, bodies, changes, _settle = data.draw(scenes())
    actors = actors[:data.draw(st.integers(0, 3))]  # (a few plain actors: the characters are the point)
    feel = FeelConfig.from_dict(FEELS[data.draw(st.sampled_from(sorted(FEELS)))])
    triggers = data.draw(st.lists(st.tuples(st.floats(-8.0, grid.width), st.floats(-8.0, grid.height),
                                            st.floats(1.0, 64.0), st.floats(1.0, 64.0)), max_size=3))
    specs = data.draw(players(grid))
    (on, on_chars), (off, _chars) = (_world(copy.deepcopy(grid), actors, bodies, feel, specs, triggers)
                                     for _ in range(2))
    at = {ch: i for i, ch in enumerate(on.actors)}
    presses = [[b for n, b in s["runs"] for _ in range(n)] for s in specs]
    inputs = [{at[ch]: presses[j][step] for j, ch in enumerate(on_chars)} for step in range(STEPS)]
    compare(on, off, inputs, [c[1:5] for c in changes if c[0] == "tile"])


def test_the_player_on_the_benchmark_level_mostly_takes_short_steps_and_matches():
    from benchmarks.bench_player_step import scene

    steps = 1200
    for name, share in (("default", 0.6), ("floaty", 0.5), ("30 Hz", 0.3), ("moves", 0.3)):
        feel = FeelConfig.from_dict(FEELS[name])
        world, inputs = scene(True, feel=feel)
        with counting() as counts:
            for b in inputs[:steps]:
                world.step(b)
        assert counts["air"] + counts["flat"] > share * steps, (name, counts)  # default: 79 % (41 % air)
        assert counts["air"] > 0.05 * steps and counts["flat"] > 0.05 * steps, (name, counts)
        (on, inputs), (off, _inputs) = scene(True, feel=feel), scene(True, feel=feel)
        player = next(i for i, a in enumerate(on.actors) if isinstance(a, Character))
        compare(on, off, [{player: b} for b in inputs[:steps]])


def test_air_runs_follow_every_edit_copy_and_restore():
    grid = TileGrid.from_ascii("""
..#..=..
........
#..##../
""")
    world = World(grid)
    snap = world.snapshot()

    def expected(g):
        runs = []
        for r in range(g.rows):
            for c in range(g.cols):
                n = 0
                while c + n < g.cols and g.kind_at(c + n, r) == TileKind.EMPTY:
                    n += 1
                runs.append(n)
        return runs

    assert grid._air_runs() == expected(grid)
    for col, row, kind in ((0, 0, TileKind.SOLID), (1, 0, TileKind.ONE_WAY), (2, 0, TileKind.EMPTY),
                           (7, 1, TileKind.SOLID), (7, 1, TileKind.EMPTY), (7, 2, TileKind.EMPTY),
                           (3, 2, TileKind.EMPTY), (4, 2, TileKind.EMPTY), (0, 1, TileKind.SOLID)):
        grid.set_tile(col, row, kind)
        assert grid._air == expected(grid), (col, row, kind)
    twin = grid.copy()
    twin.set_tile(5, 1, TileKind.SOLID)
    assert twin._air == expected(twin) and grid._air == expected(grid)
    grid.fill_tiles(0, 1, 8, 1, TileKind.SOLID)
    assert grid._air == expected(grid)
    world.restore(snap)
    assert grid._air == expected(grid) and grid._air[8:16] == [8, 7, 6, 5, 4, 3, 2, 1]
