"""The dash: speed x time at any step rate, no gravity, no steering, 8 or 4 directions, count refilled
on landing or by refill_dash(), cooldown and buffer exact to the step, clean stops at walls and
ceilings, corners slipped round, one-way tiles crossed upward and landed on downward; and never inside
anything solid, at any speed and step rate."""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Actor, Buttons, Character, FeelConfig, Path, Platform, TileGrid, TileKind, World

TS = 16
ON = FeelConfig.from_dict({"dash": {"enabled": True}})
OPEN = "\n".join(["." * 60] * 40) + "\n" + "#" * 60
NONE = Buttons()
DIRECTIONS = [(1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1)]

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "40")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def held(x: int, y: int, dash: bool = False, jump: bool = False) -> Buttons:
    return Buttons(left=x < 0, right=x > 0, up=y < 0, down=y > 0, dash=dash, jump=jump)


def dash_kinds(result):
    return [e for e in result.events if e.kind == "dash"]


def standing(feel=ON, text=OPEN, x=400.0):
    w = World(TileGrid.from_ascii(text), feel)
    hero = w.add(Character(x, 40 * TS - 14))
    for _ in range(3):
        w.step(NONE)
    assert hero.on_ground
    return w, hero


# -- distance, gravity, steering -----------------------------------------------------------------------
@pytest.mark.parametrize("hz", [30, 45, 50, 60, 90, 120, 144, 240])
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_dash_distance_is_speed_times_time_at_any_step_rate(hz, direction):
    feel = ON.from_dict({"physics": {"hz": hz}, "dash": {"end_speed": 0.0}}, base=ON)
    d = feel.derived
    assert d.dash_steps == math.ceil(feel.dash.time * hz - 1e-9)
    w = World(TileGrid.from_ascii(OPEN), feel)
    hero = w.add(Character(400.0, 300.0))
    x0, y0 = hero.x, hero.y
    r = w.step(held(*direction, dash=True))
    assert [e.normal for e in dash_kinds(r)] == [direction]
    for _ in range(d.dash_steps - 1):
        assert hero.dashing
        w.step(held(*direction))
    assert not hero.dashing
    dist = math.hypot(hero.x - x0, hero.y - y0)
    assert dist == pytest.approx(feel.dash.speed * feel.dash.time, abs=0.5)
    assert d.dash_distance == feel.dash.speed * feel.dash.time
    along = ((hero.x - x0) * direction[0] + (hero.y - y0) * direction[1]) / math.hypot(*direction)
    assert along == pytest.approx(dist)  # straight along the direction held


def test_no_gravity_and_no_steering_during_a_dash_then_end_speed_along_it():
    feel, d = ON, ON.derived
    w = World(TileGrid.from_ascii(OPEN), feel)
    hero = w.add(Character(300.0, 200.0))
    w.step(held(1, 0, dash=True))
    ys = [hero.y]
    for _ in range(d.dash_steps - 1):
        w.step(Buttons(left=True, jump=True))  # neither steers nor jumps
        ys.append(hero.y)
    assert ys == [200.0] * d.dash_steps
    assert hero.vx == feel.dash.end_speed and hero.vy == 0.0
    w.step(NONE)
    assert hero.vy > 0.0  # gravity again


def test_a_diagonal_dash_ends_with_end_speed_along_the_diagonal():
    w = World(TileGrid.from_ascii(OPEN), ON)
    hero = w.add(Character(300.0, 300.0))
    w.step(held(1, -1, dash=True))
    for _ in range(ON.derived.dash_steps - 1):
        w.step(NONE)
    end = ON.dash.end_speed / math.sqrt(2)
    assert (hero.vx, hero.vy) == (pytest.approx(end), pytest.approx(-end))


def test_a_neutral_dash_goes_the_way_the_hero_faces():
    w, hero = standing()
    w.step(Buttons(left=True))
    w.step(NONE)
    x0 = hero.x
    r = w.step(Buttons(dash=True))
    assert dash_kinds(r)[0].normal == (-1, 0) and hero.x < x0


def test_four_directions_dash_a_diagonal_input_sideways():
    feel = ON.with_value("dash.diagonals", False)
    w = World(TileGrid.from_ascii(OPEN), feel)
    hero = w.add(Character(300.0, 300.0))
    r = w.step(held(1, -1, dash=True))
    assert dash_kinds(r)[0].normal == (1, 0) and hero.y == 300.0
    r = World(TileGrid.from_ascii(OPEN), feel)
    h2 = r.add(Character(300.0, 300.0))
    assert dash_kinds(r.step(held(0, -1, dash=True)))[0].normal == (0, -1) and h2.y < 300.0


def test_a_dash_keeps_a_faster_run_the_same_way():
    w = World(TileGrid.from_ascii(OPEN), ON)
    hero = w.add(Character(300.0, 300.0))
    hero.vx = 700.0
    w.step(held(1, 0, dash=True))
    assert hero.vx == 700.0


def test_the_dash_event_is_a_record():
    w = World(TileGrid.from_ascii(OPEN), ON)
    hero = w.add(Character(300.0, 300.0))
    hero.vx = 20.0
    r = w.step(held(1, 1, dash=True))
    (e,) = dash_kinds(r)
    assert (e.actor, e.normal, e.tile, e.other, e.vx) == (hero, (1, 1), None, None, 20.0)


# -- count, refill, cooldown, buffer -------------------------------------------------------------------
@pytest.mark.parametrize("count", [1, 2, 3])
def test_dashes_per_air_time_and_landing_refills_them(count):
    feel = ON.with_value("dash.count", count).with_value("dash.cooldown", 0.0)
    d = feel.derived
    w = World(TileGrid.from_ascii(OPEN), feel)
    hero = w.add(Character(300.0, 100.0))
    dashes = 0
    for _ in range(count + 3):
        dashes += len(dash_kinds(w.step(held(1, 0, dash=True))))
        for _ in range(d.dash_steps + 1):
            w.step(NONE)
    assert dashes == count and hero.dashes_spent == count
    while not hero.on_ground:
        w.step(NONE)
    assert hero.dashes_spent == 0
    assert dash_kinds(w.step(held(1, 0, dash=True)))


def test_refill_dash_gives_a_spent_dash_back_in_the_air():
    w = World(TileGrid.from_ascii(OPEN), ON)
    hero = w.add(Character(300.0, 100.0))
    assert not hero.refill_dash()  # nothing spent: a refill crystal stays
    w.step(held(1, 0, dash=True))
    for _ in range(ON.derived.dash_cooldown_steps + 1):
        w.step(NONE)
    assert not dash_kinds(w.step(held(1, 0, dash=True)))
    w.step(NONE)
    assert hero.refill_dash() and hero.dashes_spent == 0
    assert dash_kinds(w.step(held(1, 0, dash=True)))


def test_a_ground_dash_refills_when_it_ends_on_the_ground_not_before():
    w, hero = standing()
    w.step(held(1, 0, dash=True))
    for _ in range(ON.derived.dash_steps - 1):
        assert hero.dashes_spent == 1
        w.step(NONE)
    assert not hero.dashing and hero.on_ground and hero.dashes_spent == 0


def test_the_cooldown_is_exact_to_the_step():
    feel = ON.with_value("dash.buffer_time", 0.0)
    c = feel.derived.dash_cooldown_steps
    assert c == 12 and feel.derived.dash_steps == 9
    for gap in range(c - 3, c + 3):
        w, hero = standing(feel)
        w.step(held(1, 0, dash=True))
        for _ in range(gap - 1):
            w.step(NONE)
        r = w.step(held(1, 0, dash=True))
        assert bool(dash_kinds(r)) == (gap >= c), f"a second press {gap} steps after the first"


def test_the_dash_buffer_is_exact_to_the_step():
    c, b = ON.derived.dash_cooldown_steps, ON.derived.dash_buffer_steps
    assert b == round(0.08 * 60)
    for early in range(b + 3):
        w, hero = standing()
        start = w.steps + 1
        w.step(held(1, 0, dash=True))
        dashed_at = []
        for s in range(start + 1, start + c + 3):
            r = w.step(Buttons(dash=(s == start + c - early)))
            if dash_kinds(r):
                dashed_at.append(r.step)
        assert dashed_at == ([start + c] if early <= b else []), f"pressed {early} steps before the cooldown ends"


def test_a_jump_pressed_during_a_dash_happens_when_it_ends():
    w, hero = standing()
    start = w.steps + 1
    w.step(held(1, 0, dash=True))
    jumped_at = []
    for s in range(start + 1, start + 15):
        r = w.step(Buttons(jump=(s >= start + 4)))
        if hero in r.jumped:
            jumped_at.append(r.step)
    assert jumped_at == [start + ON.derived.dash_steps]


# -- hits, corners, one-way tiles ----------------------------------------------------------------------
def test_a_dash_into_a_wall_stops_cleanly_at_its_face():
    text = "\n".join("." * 30 + "#" + "." * 9 for _ in range(30)) + "\n" + "#" * 40
    w = World(TileGrid.from_ascii(text), ON)
    hero = w.add(Character(30 * TS - 10 - 12, 200.0))
    r = w.step(held(1, 0, dash=True))
    assert hero.dashing and hero.x == 30 * TS - 10 - 4
    r = w.step(NONE)
    assert hero.x == 30 * TS - 10 and not hero.dashing and hero.vx == 0.0 and hero.vy == 0.0
    assert any(e.kind == "wall" for e in r.events)
    w.step(NONE)
    assert hero.vy > 0.0  # falling again from the next step


def test_a_diagonal_dash_slides_along_a_ceiling_and_along_a_wall():
    text = "\n".join(["#" * 40] + ["." * 40] * 30) + "\n" + "#" * 40
    w = World(TileGrid.from_ascii(text), ON)
    hero = w.add(Character(300.0, TS + 3.0))
    w.step(held(1, -1, dash=True))
    assert hero.y == TS and hero.dashing and hero.vy == 0.0 and hero.vx > 0
    x1 = hero.x
    w.step(NONE)
    assert hero.x > x1 and hero.y == TS  # on along the ceiling, no gravity yet
    text = "\n".join("." * 30 + "#" + "." * 9 for _ in range(30)) + "\n" + "#" * 40
    w = World(TileGrid.from_ascii(text), ON)
    hero = w.add(Character(30 * TS - 10 - 2, 300.0))
    w.step(held(1, -1, dash=True))
    assert hero.x == 30 * TS - 10 and hero.vx == 0.0 and hero.vy < 0 and hero.dashing
    y1 = hero.y
    w.step(NONE)
    assert hero.y < y1  # up along the wall


def test_a_dash_straight_down_lands_and_ends():
    w = World(TileGrid.from_ascii(OPEN), ON)
    hero = w.add(Character(300.0, 40 * TS - 14 - 12))
    w.step(held(0, 1, dash=True))
    r = w.step(NONE)
    assert hero.on_ground and not hero.dashing and hero in r.landed and hero.dashes_spent == 0


def test_a_dash_crosses_one_way_tiles_upward_and_lands_on_them_downward():
    text = "\n".join(["." * 30] * 10 + ["=" * 30] + ["." * 30] * 10) + "\n" + "#" * 30
    top = 10 * TS
    w = World(TileGrid.from_ascii(text), ON)
    hero = w.add(Character(200.0, top + 20))
    w.step(held(0, -1, dash=True))
    for _ in range(ON.derived.dash_steps):
        w.step(NONE)
    assert hero.y + hero.h < top  # through it from below
    w = World(TileGrid.from_ascii(text), ON)
    hero = w.add(Character(200.0, top - 14 - 30))
    w.step(held(0, 1, dash=True))
    for _ in range(ON.derived.dash_steps):
        w.step(NONE)
    assert hero.on_ground and hero.y + hero.h == top and hero.ground.kind == "one_way"


@pytest.mark.parametrize("clip", [1.0, 3.0, 4.0])
def test_a_sideways_dash_slips_over_a_ledge_corner_it_clips(clip):
    rows = ["." * 40] * 20
    rows[12] = "." * 22 + "#" * 18  # a ledge top at y = 192, its face at x = 352
    text = "\n".join(rows) + "\n" + "#" * 40
    w = World(TileGrid.from_ascii(text), ON)
    hero = w.add(Character(352 - 10 - 4, 12 * TS - 14 + clip))  # feet `clip` px below the ledge's top
    w.step(held(1, 0, dash=True))
    assert hero.x > 352 - 10 and hero.y + hero.h <= 12 * TS
    hero2 = World(TileGrid.from_ascii(text), ON.with_value("dash.corner_correction", 0.0))
    h2 = hero2.add(Character(352 - 10 - 4, 12 * TS - 14 + clip))
    hero2.step(held(1, 0, dash=True))
    assert h2.x == 352 - 10  # without it: stopped at the face


@pytest.mark.parametrize("correction", [4.0, 0.0])
def test_an_upward_dash_slips_round_a_ceiling_corner_it_clips(correction):
    rows = ["." * 40] * 20
    rows[5] = "#" * 20 + "." * 20  # a ceiling ending at x = 320
    text = "\n".join(rows) + "\n" + "#" * 40
    w = World(TileGrid.from_ascii(text), ON.with_value("dash.corner_correction", correction))
    hero = w.add(Character(320 - 3, 8 * TS))
    w.step(held(0, -1, dash=True))
    for _ in range(ON.derived.dash_steps):
        w.step(NONE)
    if correction:
        assert hero.x == 320 and hero.y < 6 * TS - 14
    else:
        assert hero.x == 320 - 3 and hero.y >= 6 * TS  # stopped under the ceiling


@pytest.mark.parametrize("correction", [4.0, 0.0])
def test_a_downward_dash_slips_past_a_floor_corner_it_clips(correction):
    rows = ["." * 40] * 20
    rows[15] = "#" * 20 + "." * 20  # a floor ending at x = 320; a pit beyond it
    text = "\n".join(rows) + "\n" + "#" * 40
    w = World(TileGrid.from_ascii(text), ON.with_value("dash.corner_correction", correction))
    hero = w.add(Character(320 - 3, 13 * TS))
    w.step(held(0, 1, dash=True))
    for _ in range(ON.derived.dash_steps):
        w.step(NONE)
    if correction:
        assert hero.x == 320 and hero.y > 15 * TS
    else:
        assert hero.x == 320 - 3 and hero.on_ground and hero.y + hero.h == 15 * TS


# -- never inside anything -----------------------------------------------------------------------------
@st.composite
def dash_scenes(draw):
    rows, cols = draw(st.integers(6, 12)), draw(st.integers(6, 16))
    ts = draw(st.sampled_from([8, 16]))
    lines = ["".join(draw(st.lists(st.sampled_from("......" + "##" + "=" + "/\\pq"), min_size=cols,
                                   max_size=cols))) for _ in range(rows)]
    lines.append("#" * cols)
    free = [(c, r) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "."]
    if not free:
        lines[0] = "." + lines[0][1:]
        free = [(0, 0)]
    col, row = draw(st.sampled_from(free))
    hz = draw(st.sampled_from([10, 24, 30, 60, 144, 240, 500]))
    speed = draw(st.one_of(st.sampled_from([50.0, 480.0, 4000.0]), st.floats(50.0, 4000.0)))
    feel = {"physics": {"hz": hz}, "dash": {"enabled": True, "speed": speed, "cooldown": 0.0,
                                            "time": draw(st.sampled_from([0.02, 0.15, 0.5])),
                                            "end_speed": draw(st.sampled_from([0.0, 320.0, 4000.0])),
                                            "corner_correction": draw(st.sampled_from([0.0, 4.0, 8.0])),
                                            "count": 10},
            "wall": {"slide": True, "jump": draw(st.booleans())}}
    plats = []
    for _ in range(draw(st.integers(0, 2))):
        px, py = draw(st.floats(0, cols * ts)), draw(st.floats(0, rows * ts))
        plats.append((px, py, draw(st.floats(2, 40)), draw(st.floats(2, 30)), draw(st.booleans()),
                      draw(st.sampled_from([0.0, 120.0, 900.0]))))
    crates = [(draw(st.floats(0, cols * ts)), draw(st.floats(0, rows * ts))) for _ in range(draw(st.integers(0, 2)))]
    steps = draw(st.lists(st.builds(held, st.sampled_from([-1, 0, 1]), st.sampled_from([-1, 0, 1]),
                                    st.booleans(), st.booleans()), min_size=5, max_size=40))
    start = (col * ts + (ts - 10) / 2 if ts >= 10 else col * ts, row * ts)
    return "\n".join(lines), ts, feel, plats, crates, start, steps


def _free(w, a, step, squished):
    if any(a is s for s in squished):
        return
    g = w.grid
    assert not g.solid_overlaps(a.x, a.y, a.w, a.h), f"step {step}: {a!r} in a solid tile"
    for p in w.platforms:
        if not p.one_way:
            assert not (p.x < a.x + a.w and a.x < p.x + p.w and p.y < a.y + a.h and a.y < p.y + p.h), \
                f"step {step}: {a!r} inside {p!r}"
    for c in w.actors:
        if c.solid and c is not a:
            assert not (c.x < a.x + a.w and a.x < c.x + c.w and c.y < a.y + a.h and a.y < c.y + c.h), \
                f"step {step}: {a!r} inside the crate {c!r}"
    ts = g.tile_size
    cx, feet = a.x + a.w / 2, a.y + a.h
    col, row = math.floor(cx / ts), math.floor((feet - 1e-6) / ts)
    if g.kind_at(col, row) is TileKind.SLOPE:
        assert feet <= g.surface_y(col, row, cx) + 1e-6, f"step {step}: {a!r} under a slope's surface"


@SETTINGS
@given(dash_scenes())
def test_a_dash_never_ends_a_step_inside_anything_at_any_speed_and_rate(scene):
    text, ts, feel_dict, plats, crates, (x, y), steps = scene
    w = World(TileGrid.from_ascii(text, tile_size=ts), FeelConfig.from_dict(feel_dict))
    for px, py, pw, ph, one_way, speed in plats:
        w.add(Platform(px, py, pw, ph, Path([(px, py), (px + 40, py - 30)], speed=speed), one_way=one_way))
    for cx, cy in crates:
        w.add(Actor(cx, cy, 12, 12, solid=True))
    hero = w.add(Character(x, y, 10, 14 if ts >= 16 else 6))
    hero.w = min(hero.w, ts - 1)
    w.settle(hero)
    dashed = False
    for i, b in enumerate(steps, 1):
        r = w.step(b)
        dashed |= hero.dashing
        assert all(math.isfinite(v) for v in (hero.x, hero.y, hero.vx, hero.vy))
        _free(w, hero, i, r.squished)


@SETTINGS
@given(dash_scenes())
def test_dashes_and_wall_moves_are_deterministic_and_snapshot_exact(scene):
    text, ts, feel_dict, plats, crates, (x, y), steps = scene

    def build():
        w = World(TileGrid.from_ascii(text, tile_size=ts), FeelConfig.from_dict(feel_dict))
        for px, py, pw, ph, one_way, speed in plats:
            w.add(Platform(px, py, pw, ph, Path([(px, py), (px + 40, py - 30)], speed=speed), one_way=one_way))
        for cx, cy in crates:
            w.add(Actor(cx, cy, 12, 12, solid=True))
        hero = w.add(Character(x, y, min(10, ts - 1), 14 if ts >= 16 else 6))
        w.settle(hero)
        return w

    a, b = build(), build()
    half = len(steps) // 2
    snap = None
    hashes = []
    for i, s in enumerate(steps):
        if i == half:
            snap = a.snapshot()
        a.step(s)
        b.step(s)
        assert a.state_hash() == b.state_hash()
        hashes.append(a.state_hash())
    a.restore(snap)
    for i, s in enumerate(steps[half:], half):
        a.step(s)
        assert a.state_hash() == hashes[i]


def test_a_run_jump_and_a_dash_clear_a_nine_tile_gap_that_a_run_jump_cannot():
    rows = ["." * 50] * 12 + ["#" * 10 + "." * 9 + "#" * 31] + ["." * 50] * 6 + ["#" * 50]
    text, edge, far = "\n".join(rows), 10 * TS, 19 * TS

    def attempt(dash: bool):
        w = World(TileGrid.from_ascii(text), ON)
        hero = w.add(Character(8.0, 12 * TS - 14))
        while hero.x + hero.w < edge:
            w.step(Buttons(right=True))
        for i in range(120):
            w.step(Buttons(right=True, jump=i < 30, dash=dash and i == 20))
        return hero

    assert FeelConfig().derived.jump_distance < 9 * TS  # (6.7 tiles)
    hero = attempt(True)
    assert hero.on_ground and hero.x >= far and hero.y + hero.h == 12 * TS  # on the far side
    hero = attempt(False)
    assert hero.y + hero.h > 13 * TS  # down in the pit
