"""Ropes: Verlet particles at a fixed spacing, pinned at the top, swayed by actors, colliding with tiles.

Step by step behaviour, the fast numpy path against a plain-Python reference, and a hypothesis property:
on random maps, with random ropes, pushes and a moving actor, no particle ever ends a step inside a solid
tile or below a slope's surface.
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Actor,
    Buttons,
    Character,
    ConfigError,
    Edges,
    FeelConfig,
    Path,
    Platform,
    Rope,
    RopeConfig,
    TileGrid,
    TileKind,
    World,
)

TS = 16
ROOM = """
####################
....................
....................
....................
....................
....................
....................
....................
....................
....................
####################
"""  # ceiling at row 0 (its underside at y = 16), floor at row 10 (its top at y = 160)


def room(*ropes, text=ROOM, feel=None):
    w = World(TileGrid.from_ascii(text), feel)
    for r in ropes:
        w.add(r)
    return w


def assert_points_near(got, want, abs=None):
    """Point by point: pytest.approx compares flat sequences only (pytest 9 rejects a list of (x, y) tuples)."""
    assert len(got) == len(want), f"{len(got)} points, expected {len(want)}"
    for i, (p, q) in enumerate(zip(got, want, strict=True)):
        assert p == pytest.approx(q, abs=abs), f"point {i}: {p} != {q}"


def segment_lengths(rope):
    pts = rope.points
    return [math.dist(a, b) for a, b in zip(pts, pts[1:], strict=False)]


# -- hanging and swinging ----------------------------------------------------------------------------------

def test_a_rope_is_made_hanging_straight_down_at_rest():
    rope = Rope(100, 16, RopeConfig(segments=4, segment_length=10))
    assert rope.points == [(100.0, 16.0), (100.0, 26.0), (100.0, 36.0), (100.0, 46.0), (100.0, 56.0)]
    assert rope.velocity(4) == (0.0, 0.0)


def test_it_settles_hanging_straight_down_at_its_full_length():
    rope = Rope(100, 16)  # 12 x 8 px
    w = room(rope)
    rope.push(12, 250.0, -40.0)
    rope.push(6, -120.0, 0.0)
    for _ in range(60 * 15):
        w.step()
    pts = rope.points
    assert all(abs(x - 100.0) < 0.01 for x, _ in pts)
    assert pts[-1][1] == pytest.approx(16 + 12 * 8, abs=0.05)
    assert all(L == pytest.approx(8.0, abs=0.02) for L in segment_lengths(rope))
    vx, vy = rope.velocity(12)
    assert math.hypot(vx, vy) < 0.5


def test_the_pinned_top_never_moves():
    rope = Rope(100, 16)
    w = room(rope)
    hero = w.add(Character(60, 146))
    for step in range(240):
        if step % 30 == 0:
            rope.push(step % 12 + 1, 400.0, -300.0)
        w.step(Buttons(right=step < 120, left=step >= 120, jump=step % 40 == 0))
        assert rope.points[0] == pytest.approx((100.0, 16.0), abs=1e-9)
        assert rope.velocity(0) == pytest.approx((0.0, 0.0), abs=1e-6)
    assert hero.x != 60


def swing(damping, seconds):
    """Push a 12 x 8 px rope's free end sideways; its x offset from the pin after every step."""
    rope = Rope(100, 16, RopeConfig(damping=damping))
    w = room(rope)
    rope.push(12, 150.0, 0.0)
    ends = []
    for _ in range(60 * seconds):
        w.step()
        ends.append(rope.points[-1][0] - 100.0)
    return ends, rope


def test_a_push_swings_it_out_and_back_and_damping_stops_it():
    ends, rope = swing(0.8, 20)
    first = max(ends[:60])
    assert first > 5.0  # swung out to the right...
    back = min(ends[:150])
    assert back < -0.3 * first  # ...and back through the rest position to the left
    swings = [max(ends[i:i + 150]) for i in range(0, len(ends), 150)]
    assert all(b <= a + 1e-9 for a, b in zip(swings, swings[1:], strict=False))  # each smaller than the last
    assert abs(ends[-1]) < 0.05
    assert math.hypot(*rope.velocity(12)) < 0.2


def test_less_damping_swings_longer():
    def late_swing(damping):
        ends, _ = swing(damping, 10)
        return max(ends[-150:]) / max(ends[:150])

    assert late_swing(0.0) > 0.3  # only the solver's own small loss
    assert late_swing(0.0) > 10 * late_swing(RopeConfig().damping)


def test_more_iterations_hold_the_shape_closer_to_the_rest_length():
    def worst_stretch(iterations):
        rope = Rope(100, 16, RopeConfig(iterations=iterations))
        w = room(rope)
        rope.push(12, 600.0, 0.0)
        worst = 0.0
        for _ in range(120):
            w.step()
            worst = max(worst, max(abs(L - 8.0) for L in segment_lengths(rope)))
        return worst

    assert worst_stretch(12) < worst_stretch(1)


def test_gravity_scale_zero_floats_and_negative_rises():
    still = Rope(100, 16, RopeConfig(gravity_scale=0.0))
    up = Rope(200, 80, RopeConfig(segments=4, gravity_scale=-1.0))
    w = room(still, up)
    up.push(4, 5.0, 0.0)  # off the balance point of hanging straight down
    for _ in range(600):
        w.step()
    assert_points_near(still.points, Rope(100, 16).points, abs=1e-9)
    assert up.points[-1] == pytest.approx((200.0, 80.0 - 32.0), abs=0.05)


# -- actors ------------------------------------------------------------------------------------------------

def vine_and_runner(nudge):
    vine = Rope(160, 16, RopeConfig(segments=17, nudge=nudge))  # reaches y = 152, the floor is at 160
    w = room(vine)
    hero = w.add(Character(100, 146))
    return w, vine, hero


def test_an_actor_running_through_pushes_the_particles_aside_and_they_swing_back():
    w, vine, hero = vine_and_runner(0.5)
    most = 0.0
    for _ in range(60):
        w.step(Buttons(right=True))
        most = max(most, max(x for x, _ in vine.points) - 160.0)
    assert hero.x > 200  # it ran through
    assert most > 4.0
    low = vine.points[-3:]
    assert vine.points[0] == pytest.approx((160.0, 16.0))
    for _ in range(60 * 15):
        w.step()
    assert all(abs(x - 160.0) < 0.1 for x, _ in vine.points)
    assert low != vine.points[-3:]


def test_nudge_zero_lets_actors_pass_through_untouched():
    w, vine, hero = vine_and_runner(0.0)
    before = vine.points
    for _ in range(60):
        w.step(Buttons(right=True))
    assert hero.x > 200
    assert vine.points == before


def test_a_standing_actor_does_not_nudge():
    vine = Rope(160, 16, RopeConfig(segments=17))
    w = room(vine)
    w.add(Character(155, 146))
    w.step()  # it lands
    for _ in range(30):
        w.step()
    assert all(abs(x - 160.0) < 1e-9 for x, _ in vine.points)


# -- tiles -------------------------------------------------------------------------------------------------

def assert_outside(grid, rope, where=""):
    r = rope.config.radius
    s = 1e-9  # the public points are box corners + radius, rounded
    for i, (x, y) in enumerate(rope.points[1:], 1):
        assert math.isfinite(x) and math.isfinite(y)
        assert not grid.solid_overlaps(x - r + s, y - r + s, 2 * r - 2 * s, 2 * r - 2 * s), \
            f"{where}: particle {i} at ({x}, {y}) is inside a solid tile"
        c, row = math.floor(x / TS), math.floor((y + r - 1e-6) / TS)
        if grid.kind_at(c, row) is TileKind.SLOPE:
            surface = grid.surface_y(c, row, x)
            assert y + r <= surface + 1e-6, f"{where}: particle {i} at ({x}, {y}) is below a slope surface {surface}"


def test_extra_length_lies_on_the_floor():
    rope = Rope(100, 16, RopeConfig(segments=17))  # reaches y = 152
    w = room(rope)
    rope.pin = (100, 80)  # lowered: 64 px too long to hang free
    rope.push(17, 100.0, 0.0)
    for step in range(600):
        w.step()
        assert_outside(w.grid, rope, f"step {step}")
    on_floor = [y for _, y in rope.points if y > 155]
    assert len(on_floor) >= 4
    assert all(y == pytest.approx(160 - 1.0) for y in on_floor)  # the radius above the floor top


def test_a_rope_made_through_the_floor_lies_along_it():
    rope = Rope(100, 120, RopeConfig(segments=10, segment_length=8))  # made hanging to y = 200
    w = room(rope, text=ROOM + "####################\n" * 3)  # into a floor 64 px thick
    assert_outside(w.grid, rope, "made")
    lying = [x for x, y in rope.points if y > 155]
    assert len(lying) >= 5 and lying == sorted(lying) and lying[-1] > 120  # laid out to the right
    for step in range(120):
        w.step()
        assert_outside(w.grid, rope, f"step {step}")
    assert max(y for _, y in rope.points) == pytest.approx(159.0)


def test_a_wall_stops_particles_swung_at_it():
    text = "\n".join(["#" * 20] + [".............#......"] * 9 + ["#" * 20])
    rope = Rope(190, 16)  # 18 px left of a wall column at x = 208..224
    w = room(rope, text=text)
    most = 0.0
    for step in range(120):
        if step % 20 == 0:
            for i in range(4, 13):
                rope.push(i, 900.0, 0.0)
        w.step()
        assert_outside(w.grid, rope, f"step {step}")
        most = max(most, max(x for x, _ in rope.points))
    assert most == pytest.approx(208 - 1.0)  # pressed against the face, never through it


def test_one_way_tiles_hold_particles_from_above_only():
    text = "\n".join(["#" * 20] + ["." * 20] * 5 + ["....====............"] + ["." * 20] * 5 + ["#" * 20])
    w = room(text=text)  # the one-way tiles span x = 64..128, their top at y = 96
    above = w.add(Rope(72, 16, RopeConfig(segments=8)))  # hangs to y = 80
    above.pin = (80, 48)  # lowered: its end would reach y = 112
    below = w.add(Rope(120, 120, RopeConfig(segments=4, gravity_scale=-1.0)))  # rises from under the tiles
    below.push(4, 5.0, 0.0)
    for step in range(600):
        w.step()
        assert_outside(w.grid, above, f"step {step}")
    assert max(y for _, y in above.points) == pytest.approx(96 - 1.0)  # landed on the top
    assert below.points[-1] == pytest.approx((120.0, 120.0 - 32.0), abs=0.05)  # passed up through them


def test_particles_rest_on_slope_surfaces():
    text = ROOM.replace("....................\n####################\n", "......./##\\.........\n"
                        "####################\n")  # a hill: a 45° slope up, two solids, a slope down
    w = room(text=text)
    rope = w.add(Rope(136, 16, RopeConfig(segments=24)))  # made too long: the rest lies over the hill
    assert_outside(w.grid, rope, "made")
    rope.push(24, -300.0, 0.0)
    for step in range(600):
        w.step()
        assert_outside(w.grid, rope, f"step {step}")
    feet_in_slope = [(x, y, math.floor(x / TS)) for x, y in rope.points
                     if w.grid.kind_at(math.floor(x / TS), math.floor((y + 1.0 - 1e-6) / TS)) is TileKind.SLOPE]
    assert feet_in_slope
    assert all(y + 1.0 == pytest.approx(w.grid.surface_y(c, 9, x)) for x, y, c in feet_in_slope)  # resting on it


def test_without_collision_particles_pass_through_tiles():
    rope = Rope(100, 16, RopeConfig(segments=24, collide=False))
    w = room(rope)
    for _ in range(120):
        w.step()
    assert rope.points[-1][1] == pytest.approx(16 + 24 * 8, abs=0.05)


# -- the pin -----------------------------------------------------------------------------------------------

def test_the_pin_can_follow_a_moving_platform():
    w = room()
    lift = w.add(Platform(100, 60, 32, 8, Path([(100, 60), (200, 60)], speed=60)))
    chain = w.add(Rope(116, 68, RopeConfig(segments=6), follow=lift))
    for _ in range(100):
        w.step()
        assert chain.pin == (lift.x + 16, lift.y + 8)
        assert chain.points[0] == pytest.approx(chain.pin, abs=1e-9)
    assert lift.x > 190
    assert chain.points[-1][0] < chain.pin[0] - 1.0  # the free end trails behind
    alpha_half = chain.interpolated(0.5)[0]
    assert alpha_half[0] == pytest.approx(lift.prev_x + 16 + (lift.x - lift.prev_x) * 0.5)


def test_setting_the_pin_or_the_follow_keeps_the_pin_where_asked():
    rope = Rope(100, 16, RopeConfig(segments=3))
    w = room(rope)
    rope.pin = (140, 30)
    w.step()
    assert rope.points[0] == pytest.approx((140.0, 30.0))
    body = w.add(Actor(150, 40, 8, 8, gravity=False))
    rope.follow = body
    assert rope.pin == (140.0, 30.0)
    body.vx = 60.0
    for _ in range(30):
        w.step()
    assert rope.pin == pytest.approx((140.0 + 30.0, 30.0))
    assert rope.points[0] == pytest.approx(rope.pin)
    rope.follow = None
    pin = rope.pin
    w.step()
    assert rope.pin == pin


# -- reading and acting on it ------------------------------------------------------------------------------

def test_nearest_push_and_velocity():
    rope = Rope(100, 16, RopeConfig(segments=4, segment_length=10))
    w = room(rope)
    assert rope.nearest(103, 37) == 2
    assert rope.nearest(100, 21) == 0  # a tie goes to the lower index
    assert rope.nearest(-50, 900) == 4
    rope.push(-1, 120.0, 0.0)
    rope.push(0, 500.0, 500.0)  # the pin does not move
    w.step()
    vx, _ = rope.velocity(4)
    assert vx > 60.0
    assert rope.velocity(0) == (0.0, 0.0)
    with pytest.raises(IndexError, match="outside 0..4"):
        rope.push(5, 1.0, 0.0)
    with pytest.raises(ValueError, match="finite"):
        rope.push(1, math.nan, 0.0)


def test_interpolated_runs_from_the_start_of_the_step_to_now():
    rope = Rope(100, 16, RopeConfig(segments=3))
    w = room(rope)
    rope.push(3, 300.0, 0.0)
    w.step()
    w.step()
    before = [(x, y) for x, y in rope.interpolated(0.0)]
    now = rope.points
    assert_points_near(rope.interpolated(1.0), now)
    assert before != now
    mid = rope.interpolated(0.5)[3]
    assert mid[0] == pytest.approx((before[3][0] + now[3][0]) / 2)


# -- the world ---------------------------------------------------------------------------------------------

def test_add_remove_and_their_errors():
    w1, w2 = room(), room()
    rope = w1.add(Rope(100, 16))
    assert w1.ropes == [rope]
    with pytest.raises(ValueError, match="already in this world"):
        w1.add(rope)
    with pytest.raises(ValueError, match="another world"):
        w2.add(rope)
    rope.push(12, 200.0, 0.0)
    for _ in range(10):
        w1.step()
    kept = rope.points
    w1.remove(rope)
    assert w1.ropes == [] and rope.points == kept
    with pytest.raises(ValueError, match="not in this world"):
        w1.remove(rope)
    w1.step()  # a world whose ropes are gone still steps
    w2.add(rope)
    w2.step()
    assert rope.points != kept  # it carries on swinging in its new world
    with pytest.raises(TypeError, match="Rope"):
        w2.add("a rope")


def test_config_errors_name_the_knob():
    with pytest.raises(ConfigError, match=r"rope\.segments: 0 is out of range"):
        RopeConfig(segments=0)
    with pytest.raises(ConfigError, match=r"rope\.segments: expected a whole number"):
        RopeConfig(segments=2.5)
    with pytest.raises(ConfigError, match=r"rope\.radius"):
        RopeConfig(radius=0.0)
    with pytest.raises(ConfigError, match=r"rope\.nudge"):
        RopeConfig(nudge=1.5)
    with pytest.raises(ConfigError, match=r"rope\.collide: expected true or false"):
        RopeConfig(collide="yes")
    with pytest.raises(ConfigError, match=r"rope\.damping: expected a number"):
        RopeConfig(damping="lots")
    with pytest.raises(ValueError, match="rope x must be a finite number"):
        Rope(math.inf, 0)
    with pytest.raises(TypeError, match="RopeConfig"):
        Rope(0, 0, {"segments": 3})
    with pytest.raises(TypeError, match="numeric x and y"):
        Rope(0, 0, follow=object())


def test_state_hash_includes_rope_particles_and_clone_copies_them():
    def build():
        w = room()
        lift = w.add(Platform(40, 60, 32, 8, Path([(40, 60), (120, 60)], speed=50)))
        w.add(Rope(56, 68, RopeConfig(segments=5), follow=lift))
        w.add(Rope(200, 16))
        w.add(Character(150, 146))
        return w

    a, b = build(), build()
    assert a.state_hash() == b.state_hash()
    a.ropes[1].push(12, 10.0, 0.0)
    assert a.state_hash() != b.state_hash()  # a pending push is state too
    b.ropes[1].push(12, 10.0, 0.0)
    for step in range(200):
        buttons = Buttons(right=step % 100 < 60, jump=step % 45 == 0)
        a.step(buttons)
        b.step(buttons)
        assert a.state_hash() == b.state_hash()
    twin = a.clone()
    assert twin.state_hash() == a.state_hash()
    assert twin.ropes[0].follow is twin.platforms[0]  # the clone's chain rides the clone's lift
    twin.ropes[1].push(6, 300.0, 0.0)
    for _ in range(30):
        twin.step()
        a.step()
        b.step()
    assert a.state_hash() == b.state_hash() != twin.state_hash()
    assert a.ropes[1].points == b.ropes[1].points != twin.ropes[1].points


def test_a_rope_moves_the_same_alone_or_beside_ropes_of_other_shapes():
    def run(*others):
        w = room()
        for o in others:
            w.add(o)
        rope = w.add(Rope(100, 16, RopeConfig(segments=7, iterations=3, damping=0.3, radius=2.0)))
        for o in others:
            o.push(len(o.points) - 1, -90.0, 0.0)
        hero = w.add(Character(60, 146))
        rope.push(7, 200.0, 50.0)
        for step in range(150):
            w.step(Buttons(right=step < 80))
        return rope.points, hero.x

    alone = run()
    crowd = run(Rope(40, 16, RopeConfig(segments=16, iterations=9)), Rope(250, 30, RopeConfig(segments=1)),
                Rope(300, 16, RopeConfig(segments=4, nudge=0.0, collide=False)))
    assert crowd == alone


def test_retuning_the_step_keeps_the_swing_speed():
    rope = Rope(100, 16)
    w = room(rope)
    rope.push(12, 200.0, 0.0)
    for _ in range(20):
        w.step()
    v60 = rope.velocity(12)
    w.set_feel(FeelConfig.from_dict({"physics": {"hz": 120}}))
    w.step()
    v120 = rope.velocity(12)
    assert v120[0] == pytest.approx(v60[0], rel=0.15)


# -- the fast path against the obvious one -----------------------------------------------------------------

def reference_step(state, cfg, pin, g, dt, kicks):
    """One step of one rope in plain Python, in the same order and arithmetic as the numpy path (no tiles,
    no actors; numpy's hypot on single numbers, which rounds like its array form). ``state`` is a list of
    [x, y, prev_x, prev_y] box corners."""
    r, L = cfg.radius, cfg.segment_length
    keep = math.exp(-cfg.damping * dt)
    fall = cfg.gravity_scale * g * dt * dt
    px, py = pin[0] - r, pin[1] - r
    for i, p in enumerate(state):
        x, y, ox, oy = p
        nx, ny = (x - ox) * keep + x, ((y - oy) * keep + (fall if i else 0.0)) + y
        p[:] = [nx, ny, x, y]
    state[0][0], state[0][1] = px, py
    for i, vx, vy in kicks:
        if i:
            state[i][0] += vx * dt
            state[i][1] += vy * dt
    n = len(state)
    for _ in range(cfg.iterations):
        for first in (0, 1):
            for j in range(first, n - 1, 2):
                a, b = state[j], state[j + 1]
                w = 1.0 if j == 0 else 0.5
                dx, dy = b[0] - a[0], b[1] - a[1]
                dist = max(float(np.hypot(dx, dy)), 1e-9)
                f = w - (w * L) / dist
                cx, cy = dx * f, dy * f
                a[0] += cx
                a[1] += cy
                b[0] -= cx
                b[1] -= cy
            state[0][0], state[0][1] = px, py
    for i, p in enumerate(state):
        dx, dy = p[0] - px, p[1] - py
        dist = float(np.hypot(dx, dy))
        if dist > i * L:
            s = (i * L) / dist
            p[0], p[1] = px + dx * s, py + dy * s


configs = st.builds(RopeConfig, segments=st.integers(1, 14), segment_length=st.floats(1.0, 20.0),
                    iterations=st.integers(1, 8), damping=st.floats(0.0, 5.0),
                    gravity_scale=st.floats(-2.0, 2.0), radius=st.floats(0.1, 3.0), collide=st.just(False))


@settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "40")), deadline=None,
          derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(st.tuples(configs, st.floats(0, 300), st.floats(0, 150)), min_size=1, max_size=5),
       st.lists(st.tuples(st.integers(0, 4), st.integers(0, 14), st.floats(-500, 500), st.floats(-500, 500)),
                max_size=20),
       st.integers(1, 40))
def test_the_numpy_path_matches_a_plain_python_reference(specs, pushes, steps):
    w = World(TileGrid.from_ascii("." * 30))
    ropes = [w.add(Rope(x, y, cfg)) for cfg, x, y in specs]
    states = []
    for rope in ropes:
        r = rope.config.radius
        states.append([[x - r, y - r, x - r, y - r] for x, y in rope.points])
        states[-1][0][:2] = states[-1][0][2:] = [rope.pin[0] - r, rope.pin[1] - r]
    d = w.feel.derived
    for step in range(steps):
        kicks = [[] for _ in ropes]
        for k, (which, i, vx, vy) in enumerate(pushes):
            if k % steps == step and which < len(ropes):
                i = i % len(ropes[which].points)
                ropes[which].push(i, vx, vy)
                kicks[which].append((i, vx, vy))
        w.step()
        for rope, state, kick in zip(ropes, states, kicks, strict=True):
            reference_step(state, rope.config, rope.pin, d.fall_gravity, d.dt, kick)
    for rope, state in zip(ropes, states, strict=True):
        assert rope._pos.real.tolist() == [p[0] for p in state]
        assert rope._pos.imag.tolist() == [p[1] for p in state]


# -- never inside a solid (hypothesis) ---------------------------------------------------------------------

TILE = st.sampled_from("......." + "###" + "=" + "/\\" + "pqdb")
SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "40")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def scenes(draw):
    rows, cols = draw(st.integers(4, 9)), draw(st.integers(4, 12))
    lines = ["".join(draw(st.lists(TILE, min_size=cols, max_size=cols))) for _ in range(rows)]
    if draw(st.booleans()):
        lines.append("#" * cols)
    empty = [(c, r) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "."]
    if not empty:
        lines[0] = "." + lines[0][1:]
        empty = [(0, 0)]
    ropes = []
    for _ in range(draw(st.integers(1, 3))):
        c, r = draw(st.sampled_from(empty))  # the pin's box inside an empty tile
        radius = draw(st.floats(0.25, 3.0))
        cfg = RopeConfig(segments=draw(st.integers(1, 12)), segment_length=draw(st.floats(1.0, 14.0)),
                         iterations=draw(st.integers(1, 6)), radius=radius,
                         damping=draw(st.floats(0.0, 3.0)), nudge=draw(st.floats(0.0, 1.0)),
                         gravity_scale=draw(st.floats(-1.0, 3.0)))
        ropes.append((c * TS + draw(st.floats(radius, TS - radius)), r * TS + draw(st.floats(radius, TS - radius)),
                      cfg))
    pushes = draw(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 12), st.floats(-2500, 2500),
                                     st.floats(-2500, 2500)), max_size=12))
    c, r = draw(st.sampled_from(empty))
    actor = (c * TS + 3.0, r * TS + 1.0, draw(st.floats(-600, 600)), draw(st.floats(-600, 600)))
    steps = draw(st.integers(5, 60))
    return "\n".join(lines), ropes, pushes, actor, steps


@SETTINGS
@given(scenes())
def test_no_particle_ever_ends_a_step_inside_a_solid_or_below_a_slope(scene):
    text, specs, pushes, (ax, ay, avx, avy), steps = scene
    w = World(TileGrid.from_ascii(text))
    ropes = [w.add(Rope(x, y, cfg)) for x, y, cfg in specs]
    for rope in ropes:
        assert_outside(w.grid, rope, "made")
    rock = w.add(Actor(ax, ay, 10, 14))
    rock.vx, rock.vy = avx, avy
    for step in range(steps):
        for k, (which, i, vx, vy) in enumerate(pushes):
            if k % steps == step and which < len(ropes):
                ropes[which].push(i % len(ropes[which].points), vx, vy)
        w.step()
        for rope in ropes:
            assert_outside(w.grid, rope, f"step {step + 1}")


# -- issue 22: the tether holds after the tiles, laying through walls, restore-then-replay -----------------


def _worst_stretch(rope, pin=None):
    px, py = pin or rope.pin
    seg = rope.config.segment_length
    return max(math.hypot(x - px, y - py) / (i * seg) for i, (x, y) in enumerate(rope.points) if i)


def test_a_chain_on_a_lift_is_pulled_through_a_one_way_plank_never_stretched():
    g = TileGrid.from_ascii("..........\n" * 4 + "...====...\n" + "..........\n" * 4 + "##########", 16,
                            edges=Edges(False, False, False, False))
    w = World(g)
    lift = w.add(Platform(56.0, 0.0, 32.0, 6.0, Path([(56.0, 0.0), (56.0, 120.0)], 40.0)))
    chain = w.add(Rope(72.0, 6.0, RopeConfig(segments=8, segment_length=6.0), follow=lift))
    for _ in range(200):
        w.step()
        assert _worst_stretch(chain) <= 1.0 + 1e-9
    assert chain.points[-1][1] > 64.0  # below the plank, hanging from the pin under it


def test_a_rope_swung_against_a_block_never_stretches():
    k = np.zeros((6, 6), int)
    k[1, 3] = k[2, 3] = 1
    k[5, :] = 1
    w = World(TileGrid(k, 16, edges=Edges(False, False, False, False)))
    rope = w.add(Rope(40.0, 24.0, RopeConfig(segments=3, segment_length=16.0, iterations=4)))
    pushes = {0: (2, 1355.2210827544936, 167.3113888493508), 1: (3, -396.7138580042267, 569.4833482736476),
              2: (2, 691.5887367600812, -868.4944798616685)}
    for s in range(30):
        if s in pushes:
            rope.push(*pushes[s])
        w.step()
        assert _worst_stretch(rope, (40.0, 24.0)) <= 1.0 + 1e-9
        assert not any(w.grid.solid_overlaps(x - 1.0, y - 1.0, 2.0, 2.0) for x, y in rope.points[1:])


@SETTINGS
@given(st.integers(0, 5), st.floats(-900, 900), st.floats(-900, 900), st.integers(1, 4),
       st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=5))
def test_a_rope_never_stretches_beyond_its_tether_among_tiles(at, vx, vy, iterations, blocks):
    k = np.zeros((6, 6), int)
    for c, r in blocks:
        if (c, r) != (2, 1):  # (the pin's tile stays open)
            k[r, c] = 1
    k[5, :] = 1
    w = World(TileGrid(k, 16, edges=Edges(False, False, True, True)))
    rope = w.add(Rope(40.0, 24.0, RopeConfig(segments=5, segment_length=10.0, iterations=iterations)))
    for s in range(40):
        if s % 7 == 0:
            rope.push(1 + at % 5, vx, vy)
        w.step()
        assert _worst_stretch(rope, (40.0, 24.0)) <= 1.0 + 1e-9


def test_a_rope_is_laid_along_a_walled_bottom_edge_never_through_it():
    g = TileGrid.from_ascii("....\n....\n####", 16, edges=Edges(left=False, right=False, top=False, bottom=True))
    w = World(g)
    rope = w.add(Rope(56.0, 8.0, RopeConfig(segments=20, segment_length=4.0)))  # off the open right side
    assert all(y + rope.config.radius <= g.height for _x, y in rope.points)


def test_restore_then_replay_is_bit_identical_with_a_rope_just_added():
    g = TileGrid.from_ascii("....\n....\n####", 16, edges=Edges(left=False, right=False, top=False, bottom=True))
    w = World(g)
    rope = w.add(Rope(56.0, 8.0, RopeConfig(segments=20, segment_length=4.0)))
    snap = w.snapshot()
    hashes, points = [], []
    for _ in range(2):
        w.restore(snap)
        for _ in range(3):
            w.step()
        hashes.append(w.state_hash())
        points.append(rope.points)
    assert hashes[0] == hashes[1] and points[0] == points[1]


def test_restore_then_replay_is_bit_identical_with_a_tile_put_on_a_rope():
    w = World(TileGrid.from_ascii("........\n" * 6 + "########", 16))
    rope = w.add(Rope(40.0, 8.0, RopeConfig(segments=8, segment_length=8.0)))
    for _ in range(5):
        w.step()
    w.grid.set_tile(2, 3, TileKind.SOLID)  # onto the rope: the next step re-places what it covers
    snap = w.snapshot()
    runs = []
    for _ in range(2):
        w.restore(snap)
        for _ in range(4):
            w.step()
        runs.append((w.state_hash(), rope.points))
    assert runs[0] == runs[1]
