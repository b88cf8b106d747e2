"""Bullets: a swept box along each step's straight segment — never passing anything thin however fast,
stopping at the first actor it touches — checked against a brute-force walk along the same segment."""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import numpy as np

from engine import Actor, Character, Crowd, Edges, Platform, TileGrid, TileKind, World, _bullets
from engine.tiles import ONE_WAY, SLOPE, SOLID

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "150")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

OPEN = """
#..............................#
#..............................#
#..............................#
#..............................#
#..............................#
#..............................#
#..............................#
#..............................#
#..............................#
################################
"""
PLAYER, ENEMY, SHOT = 1, 2, 4
STEP = 40.0  # px a step
SPEED = STEP * 60.0  # px/s at the default 60 Hz


def shot(x, y, vx, vy, touches=PLAYER, **kw):
    b = Actor(x, y, 2, 2, bullet=True, gravity=False, group=SHOT, touches=touches, **kw)
    b.vx, b.vy = vx, vy
    return b


@pytest.mark.parametrize("phase", range(0, 40, 3))
@pytest.mark.parametrize("direction", [1, -1])
def test_a_2px_bullet_at_40px_a_step_hits_a_4px_wide_actor_at_any_phase(phase, direction):
    w = World(TileGrid.from_ascii(OPEN))
    target = w.add(Actor(250, 60, 4, 20, gravity=False, group=PLAYER))
    start = 250 - 100 - phase if direction > 0 else 254 + 100 + phase - 2
    b = w.add(shot(start, 70, direction * SPEED, 0.0))
    for _ in range(6):
        result = w.step()
        if result.touches:
            break
    assert [(t.actor, t.other, t.side) for t in result.touches] == \
        [(b, target, "left" if direction > 0 else "right")]
    assert b.contacts[-1].other is target and b.contacts[-1].kind == "actor"
    gap = target.x - (b.x + b.w) if direction > 0 else b.x - (target.x + target.w)
    assert 0.0 <= gap < 1e-5  # stopped against it, not past it


@pytest.mark.parametrize("phase", range(0, 40, 3))
@pytest.mark.parametrize("direction", [1, -1])
def test_a_2px_bullet_at_40px_a_step_stops_on_a_4px_thick_platform(phase, direction):
    w = World(TileGrid.from_ascii(OPEN))
    plank = w.add(Platform(100, 80, 64, 4))
    start = 80 - 100 - phase if direction > 0 else 84 + 100 + phase - 2
    b = w.add(shot(120, start, 0.0, direction * SPEED))
    kinds = []
    for _ in range(8):
        kinds += [e.kind for e in w.step().events if e.actor is b]
    assert kinds[:1] == ["landed" if direction > 0 else "ceiling"]
    assert b.contacts == [] or b.contacts[0].other is plank
    assert (b.y + b.h <= plank.y) if direction > 0 else (b.y >= plank.y + plank.h)


def test_a_diagonal_bullet_does_not_cut_the_corner_of_a_tile():
    # moving (+40, +40) from (8, 8): the L-shaped Y-then-X path of an ordinary move misses the tile at
    # (32..48, 32..48); the straight segment goes through it
    grid = TileGrid.from_ascii("""
..........
..........
..#.......
..........
..........
..........
""", edges=None)
    w = World(grid)
    plain = w.add(Actor(8, 8, 2, 2, gravity=False))
    plain.vx = plain.vy = SPEED
    b = w.add(shot(8, 8, SPEED, SPEED))
    w.step()
    assert plain.contacts == [] and (plain.x, plain.y) == (48.0, 48.0)  # (the ordinary move passed it)
    assert b.contacts and b.contacts[0].tile == (2, 2)
    assert b.x + b.w <= 32.0 or b.y + b.h <= 32.0


def test_a_bullet_flying_through_walls_at_any_speed_stops_at_the_first():
    w = World(TileGrid.from_ascii(OPEN.replace("#.......", "#...#..#", 3)))
    b = w.add(shot(120, 20, -20000.0, 0.0))  # 333 px a step
    w.step()
    assert b.wall.tile == (7, 0) if b.y < 16 else b.wall.tile in {(7, 1), (7, 2)}
    assert b.x == 128.0 and b.vx == 0.0


def test_a_bullet_crossing_the_path_of_a_moving_target_hits_it():
    w = World(TileGrid.from_ascii(OPEN))
    target = w.add(Actor(200, 100, 4, 4, gravity=False, group=PLAYER))
    target.vy = -60 * 20.0  # 20 px up a step: it crosses the bullet's line during the step
    b = w.add(shot(170, 88, SPEED, 0.0))  # they meet between 0.7 and 0.8 of the step; at its end, apart
    result = w.step()
    assert [t.other for t in result.touches] == [target]
    assert 197.0 < b.x < 200.0 and b.contacts[0].normal == (-1, 0)  # stopped where they met, mid-step


def test_a_bullet_stops_at_the_first_of_two_targets_in_line_and_passes_one_it_already_touches():
    w = World(TileGrid.from_ascii(OPEN))
    near = w.add(Actor(200, 60, 6, 20, gravity=False, group=ENEMY, name="near"))
    far = w.add(Actor(212, 60, 6, 20, gravity=False, group=ENEMY, name="far"))
    b = w.add(shot(150, 70, SPEED, 0.0, touches=ENEMY))
    touched = []
    while far not in touched:
        touched += [t.other for t in w.step().touches]
    # stopped at the first; the game left the bullet there: it flies on through (it had its hit) into
    # the next one, never passing it
    assert touched == [near, far] and far.x - 1e-5 <= b.x + b.w <= far.x


@pytest.mark.parametrize("bystanders", [0, 30])
def test_a_bullet_meets_a_target_crossing_its_path_from_far_away_however_many_actors_there_are(bystanders):
    # found by an adopter: past 24 actors the targets were gathered near the path by where they ended the step
    w = World(TileGrid(np.zeros((10, 40), int), 16, edges=Edges(False, False, False, False)))
    for i in range(bystanders):
        w.add(Actor(2000 + 20 * i, 0, 4, 4, gravity_scale=0))
    target = w.add(Actor(0, 50, 4, 4, gravity_scale=0, group=PLAYER))
    target.vx = 150 * 60  # 150 px a step, straight through the bullet's spot
    b = w.add(shot(60, 51, 0.0, 0.0))
    result = w.step()
    assert [(t.actor, t.other) for t in result.touches] == [(b, target)]
    assert [(c.kind, c.other) for c in b.contacts] == [("actor", target)]


def test_a_bullet_meets_a_fast_walker_among_many_actors():
    w = World(TileGrid(np.zeros((10, 40), int), 16, edges=Edges(False, False, False, False)))
    for i in range(30):
        w.add(Actor(2000 + 20 * i, 0, 4, 4, gravity_scale=0))
    walker = w.add(Crowd()).add(0, 50, 4, 4, speed=150 * 60, gravity=False, group=PLAYER)
    b = w.add(shot(60, 51, 0.0, 0.0))
    result = w.step()
    assert [(t.actor, t.other) for t in result.touches] == [(b, walker)]


def test_a_bullet_hitting_an_actor_reports_a_hit_event_never_a_wall():
    # found by an adopter: the hit was a "wall" event with other = the actor, so "the shot dies on a wall"
    # loops dropped the shot before the touch loop saw the hit
    w = World(TileGrid.from_ascii(OPEN))
    target = w.add(Actor(100, 60, 6, 20, gravity=False, group=PLAYER))
    crate = w.add(Actor(200, 60, 6, 20, gravity=False, solid=True))
    b = w.add(shot(80, 70, SPEED, 0.0))
    result = w.step()
    assert [(e.kind, e.actor, e.other, e.normal, e.tile) for e in result.events] == [("hit", b, target, (-1, 0), None)]
    assert [(t.actor, t.other, t.side) for t in result.touches] == [(b, target, "left")]
    w.remove(target)
    b.vx = SPEED
    for _ in range(5):
        result = w.step()
        if result.events:
            break
    assert [(e.kind, e.other) for e in result.events] == [("wall", crate)]  # a solid actor is a wall


def test_the_readme_turret_loop_sees_hits_and_walls():
    w = World(TileGrid.from_ascii(OPEN))
    hero = w.add(Actor(100, 60, 6, 20, gravity=False, group=PLAYER))
    shots = [w.add(shot(80, 70, SPEED, 0.0)), w.add(shot(80, 20, SPEED, 0.0))]
    hurt, stopped = [], []
    for _ in range(30):
        result = w.step()
        for e in result.events:  # (the loop of engine/docs/enemies.md, the turret)
            if e.actor in shots and e.kind in ("wall", "ceiling", "landed", "hit"):
                if e.kind == "hit" and e.other is hero:
                    hurt.append(e.actor)
                shots.remove(e.actor)
                w.remove(e.actor)
                stopped.append(e.kind)
    assert len(hurt) == 1 and stopped == ["hit", "wall"] and not shots


def test_a_bullet_passes_a_slope_tile_of_heights_0_0_like_raycast():
    # found by an adopter: it stopped under the empty tile forever, four floor contacts a step, still rising
    k = np.zeros((4, 6), int)
    k[2, 2] = 3
    g = TileGrid(k, 16, np.zeros((4, 6)), np.zeros((4, 6)), Edges(False, False, False, False))
    w = World(g)
    assert w.raycast(40, 63, 40, 0) is None
    b = w.add(Actor(38, 60, 2, 2, bullet=True, gravity=False))
    b.vy = -3000.0
    w.step()
    assert b.y == 10.0 and not b.contacts and not b.on_ground
    down = w.add(Actor(36, 0, 2, 2, bullet=True, gravity=False))
    down.vy = 3000.0
    for _ in range(3):
        w.step()
    assert down.y == 150.0 and not down.contacts


def test_one_way_tiles_stop_bullets_from_above_only():
    w = World(TileGrid.from_ascii(OPEN.replace("#.......", "#=======", 1)))
    up = w.add(shot(40, 100, 0.0, -SPEED))
    down = w.add(shot(80, -30, 0.0, SPEED))
    hits = []
    for _ in range(6):
        w.step()
        assert up.contacts == []  # up through it (and out of the open top)
        hits += down.contacts
    assert up.y < -100.0
    assert down.y + down.h == 0.0 and [(c.kind, c.tile) for c in hits] == [("one_way", (5, 0))]


def test_a_bullet_stops_on_a_slope_surface_never_inside_it():
    grid = TileGrid.from_ascii(OPEN.replace("#..............................#\n####", "#.........../##################\n####"))
    w = World(grid)
    down = w.add(shot(200, 60, 0.0, SPEED))  # onto the '/' at (192..208, 128..144), rising right
    across = w.add(shot(150, 100, SPEED, SPEED * 0.5))
    hits = {}
    for _ in range(10):
        w.step()
        for b in (down, across):
            assert not _overlaps_slope(grid, 12, 8, b.x, b.y, b.w, b.h)
            if b.contacts and b not in hits:
                hits[b] = (b.contacts[0], b.x, b.y)
    hit = hits[down][0]
    assert hit.kind == "slope" and hit.tile == (12, 8) and hit.normal == (0, -1)
    assert down.vx == pytest.approx(-SPEED / 2)  # it slid down along it (and onto the floor at its foot)
    assert hits[across][0].kind == "slope" and hits[across][0].tile == (12, 8)
    # where it first meets the surface: the box's top-right corner's column, 10 px up the 45-degree rise
    t, axis, kind, _other, tile, _face = _bullets._first_hit(grid, [], [], 200, 60, 2, 2, 0, 100)
    assert (kind, tile) == ("slope", (12, 8)) and 60 + 100 * t + 2 == pytest.approx(144 - 10)


def test_bouncy_bullets_mirror_off_walls_within_the_step():
    w = World(TileGrid.from_ascii(OPEN))
    b = w.add(shot(490, 70, SPEED, 0.0, bounce=1.0))
    w.step()
    assert b.vx == -SPEED and b.x == pytest.approx(496 - 2 - (490 + 40 + 2 - 496), abs=1e-5)


def test_a_grenade_comes_to_rest_on_the_floor():
    w = World(TileGrid.from_ascii(OPEN))
    g = w.add(Actor(100, 20, 3, 3, bullet=True, bounce=0.5))
    g.vx = 120.0
    for _ in range(300):
        w.step()
    assert g.on_ground and g.vy == 0.0 and g.ground.kind == "solid"
    assert 144.0 - 1e-5 < g.y + g.h <= 144.0  # on the floor (a hair above it: it rolls)


def test_bad_roles_are_clear_errors():
    with pytest.raises(ValueError, match="solid or a bullet"):
        Actor(0, 0, 4, 4, solid=True, bullet=True)
    w = World(TileGrid.from_ascii(OPEN))
    hero = w.add(Character(40, 40))
    hero.bullet = True
    with pytest.raises(ValueError, match="Character cannot be a bullet"):
        w.step()


# -- never tunnelling: the sweep against a brute-force walk along the segment ---------------------------------

def _overlaps_slope(grid, c, r, x, y, w, h) -> bool:
    """Does the box strictly overlap the part of slope tile (c, r) under its surface? (independent of the
    sweep's separating axes: the surface is a line, so its lowest point over the box's span is an end)"""
    ts = grid.tile_size
    i = r * grid.cols + c
    lo, hi = max(x, c * ts), min(x + w, (c + 1) * ts)
    if lo >= hi - 1e-9 or y >= (r + 1) * ts - 1e-9 or max(grid._sl[i], grid._sr[i]) <= 0.0:
        return False  # (a slope of heights 0, 0 holds nothing)
    def surface(px):
        return (r + 1) * ts - (grid._sl[i] + (grid._sr[i] - grid._sl[i]) * (px - c * ts) / ts)
    return min(surface(lo), surface(hi)) < y + h - 1e-9  # (by more than rounding: a graze along it is not in)


def _crossed_top(top, ox, ow, x0, y0, w, h, dx, dy, t) -> bool:
    """Did the box's bottom, moving by (dx, dy) from (x0, y0), cross ``top`` from at or above it within
    [ox, ox + ow] by time t? (a one-way top)"""
    if dy <= 0.0 or y0 + h > top + 1e-6:
        return False
    tc = max(0.0, (top - (y0 + h)) / dy)
    xc = x0 + dx * tc
    return tc < t and xc < ox + ow - 1e-9 and ox < xc + w - 1e-9 and y0 + dy * t + h > top + 1e-9


def _blocked(world, b, x, y, t, x0, y0, targets, dx=0.0, dy=0.0) -> bool:
    """Is the bullet's box at (x, y) (time t of the step, on its way from (x0, y0) by (dx, dy)) inside
    anything it should have stopped at?"""
    grid, w, h = world.grid, b.w, b.h
    if x < grid._x_lo or x + w > grid._x_hi or y < grid._y_lo or y + h > grid._y_hi:
        return True
    ts = grid.tile_size
    for r in range(max(0, math.floor(y / ts)), min(grid.rows, math.ceil((y + h) / ts))):
        for c in range(max(0, math.floor(x / ts)), min(grid.cols, math.ceil((x + w) / ts))):
            kind = grid._k[r * grid.cols + c]
            if kind == SOLID and x < (c + 1) * ts and c * ts < x + w and y < (r + 1) * ts and r * ts < y + h:
                return True
            if kind == SLOPE and _overlaps_slope(grid, c, r, x, y, w, h):
                return True
            if kind == ONE_WAY and _crossed_top(r * ts, c * ts, ts, x0, y0, w, h, dx, dy, t):
                return True
    for p in world.platforms:
        if p.one_way:
            if _crossed_top(p.y, p.x, p.w, x0, y0, w, h, dx, dy, t):
                return True
        elif x < p.x + p.w and p.x < x + w and y < p.y + p.h and p.y < y + h:
            return True
    for o, (ox0, oy0, ox1, oy1) in targets.items():
        ox, oy = ox0 + (ox1 - ox0) * t, oy0 + (oy1 - oy0) * t
        if x < ox + o.w and ox < x + w and y < oy + o.h and oy < y + h:
            return True
    return False


TILE = st.sampled_from("......." + "#" + "=" + "/\\pq_")
FLAT = {"_": (TileKind.SLOPE, 0.0, 0.0)}  # a slope of heights 0, 0: nothing under its surface


@st.composite
def ranges(draw):
    cols, rows = draw(st.integers(6, 14)), draw(st.integers(5, 10))
    lines = ["".join(draw(st.lists(TILE, min_size=cols, max_size=cols))) for _ in range(rows)]
    grid = TileGrid.from_ascii("\n".join(lines), legend=FLAT)
    world = World(grid)
    for i in range(draw(st.sampled_from([0, 0, 30]))):  # bystanders far away: the broadphase finds the targets
        world.add(Actor(4000.0 + 10.0 * i, 0.0, 4.0, 4.0, gravity=False, group=PLAYER))
    for _ in range(draw(st.integers(0, 3))):
        world.add(Platform(draw(st.floats(0, cols * 16)), draw(st.floats(0, rows * 16)), draw(st.floats(4, 40)),
                           draw(st.floats(2, 6)), one_way=draw(st.booleans())))
    targets = []
    for _ in range(draw(st.integers(0, 3))):
        o = world.add(Actor(draw(st.floats(1, cols * 16 - 6)), draw(st.floats(-40, rows * 16)),
                            draw(st.floats(2, 6)), draw(st.floats(2, 6)), gravity=False, group=PLAYER))
        o.vx, o.vy = draw(st.floats(-600, 600) | st.floats(-9000, 9000)), draw(st.floats(-600, 600))
        targets.append(o)
    size = draw(st.floats(1, 6))
    b = world.add(Actor(draw(st.floats(1, cols * 16 - 8)), draw(st.floats(-30, rows * 16)), size,
                        draw(st.floats(1, 6)), bullet=True, gravity=False, touches=PLAYER))
    angle = draw(st.floats(0, 2 * math.pi))
    speed = draw(st.floats(600, 12000))  # 10..200 px a step
    b.vx, b.vy = speed * math.cos(angle), speed * math.sin(angle)
    return world, b, targets


@SETTINGS
@given(scene=ranges())
def test_swept_bullets_never_pass_anything_and_never_stop_for_nothing(scene):
    passes = _bullets._PASSES
    _bullets._PASSES = 1  # one straight segment: the first hit ends the step
    try:
        _check_sweeps(*scene)
    finally:
        _bullets._PASSES = passes


def _check_sweeps(world, b, targets):
    world.step()  # settle: bodies found inside geometry are moved out first
    history = [(b.x, b.y, b.vx, b.vy)]
    for _ in range(3):
        if b.squished:
            return
        x0, y0 = b.x, b.y
        vx, vy = b.vx, b.vy
        starts = {o: (o.x, o.y) for o in targets}
        world.step()
        history.append((b.x, b.y, b.vx, b.vy, b.contacts))
        if b.squished:
            return
        dx, dy = vx * world.dt, vy * world.dt
        e = 1e-5  # px: a target touching the bullet (within a hair) when it starts is passed through
        paths = {o: (*starts[o], o.x, o.y) for o in targets
                 if not (x0 <= starts[o][0] + o.w + e and starts[o][0] <= x0 + b.w + e
                         and y0 <= starts[o][1] + o.h + e and starts[o][1] <= y0 + b.h + e)}
        if _blocked(world, b, x0, y0, 0.0, x0, y0, {}):
            continue  # (a start inside a tile the unstick could not clear: nothing to sweep)
        length = math.hypot(dx, dy)
        if not length:  # a bullet at rest: a target moving onto it is reported (it cannot stop the target)
            met = [o for o in paths if any(_blocked(world, b, x0, y0, k / 200, x0, y0, {o: paths[o]})
                                           for k in range(201))]
            assert not met or [c.other for c in b.contacts] == met[:1] or b.contacts[0].other in met
            continue
        t_end = math.hypot(b.x - x0, b.y - y0) / length
        # never passes: the straight path up to where it stopped is free all the way
        for k in range(800):
            t = t_end * k / 800.0
            assert not _blocked(world, b, x0 + dx * t, y0 + dy * t, t, x0, y0, paths, dx, dy), \
                repr((t, t_end, b.contacts, x0, y0, dx, dy, b.w, b.h, world.grid.kinds.tolist(), world.platforms, paths))
        assert not _blocked(world, b, b.x, b.y, t_end, x0, y0, paths, dx, dy), \
            repr(("ends inside", b.x, b.y, x0, y0, dx, dy, b.w, b.h, b.contacts, history,
                  [(p.rect, p.one_way) for p in world.platforms]))
        # never stops for nothing: a hair further on, something is there
        if b.contacts:
            t = min(1.0, t_end + 1e-4 / length)
            ahead = 1e-4 / length
            assert _blocked(world, b, x0 + dx * (t_end + ahead), y0 + dy * (t_end + ahead), t, x0, y0, paths, dx, dy), \
                (t_end, b.contacts)
        else:  # nothing in the way: the whole step
            assert (b.x, b.y) == pytest.approx((x0 + dx, y0 + dy), abs=1e-9)
