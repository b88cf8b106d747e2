"""Enemies in play: walkers turn at walls and ledges, hoppers hop, flyers patrol, stomps and hits."""

import math
from dataclasses import replace
import os
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import Buttons, TileGrid, World
from game.rules.enemies import LEDGE_PROBE, Enemies, route_position
from game.files.levelkinds import EnemySpec
from game.files.levelfile import load_level
from game.rules.session import Session

NONE, RIGHT, LEFT, JUMP = Buttons(), Buttons(right=True), Buttons(left=True), Buttons(jump=True)


def enemy(name, kind, x, y, facing="left", w=None, h=None, **props):
    """An ``enemy`` object line for ``write_map`` (a point unless a size is given)."""
    extra = "".join(f'<property name="{k}" type="float" value="{v}"/>' for k, v in props.items())
    size = f' width="{w}" height="{h}"' if w else ""
    shape = "" if w else "<point/>"
    return (f'<object id="ID" name="{name}" type="enemy" x="{x}" y="{y}"{size}><properties>'
            f'<property name="kind" value="{kind}"/><property name="facing" value="{facing}"/>{extra}'
            f'</properties>{shape}</object>')


def run(s, buttons, steps):
    out = []
    for _ in range(steps):
        out += s.step(buttons)
    return out


LEDGE = """
################
#..............#
#..............#
#..............#
#P.......#######
#######........#
################
"""


def test_a_walker_turns_at_the_wall_and_at_the_ledge_and_never_falls(write_map):
    s = Session(load_level(write_map("w.tmx", LEDGE, [enemy("goomba", "walker", 200, 64, "right")])))
    a = s.enemies.all[0].actor
    seen = []
    for _ in range(900):
        s.step(NONE)
        seen.append((a.x, a.y))
    xs = [x for x, _ in seen]
    assert {y for _, y in seen} == {64 - 12}  # on the floor all along
    assert max(xs) == pytest.approx(240 - 14)  # to the wall...
    assert 144 < min(xs) < 144 + 2  # ...and back to the ledge, its leading foot never past it
    turns = sum(1 for a_, b, c in zip(xs, xs[1:], xs[2:], strict=False) if (b - a_) * (c - b) < 0)
    assert turns >= 3


def test_stomping_a_walker_kills_it_and_bounces_the_player(write_map):
    level = """
..............
..............
..............
.P............
##############
"""
    s = Session(load_level(write_map("s.tmx", level, [enemy("goomba", "walker", 72, 64, speed=0)])))
    p, goomba = s.player, s.enemies.all[0].actor
    run(s, NONE, 2)
    p.teleport(goomba.x, goomba.y - 40)  # falling onto it from above
    events = run(s, JUMP, 30)
    stomp = [e for e in events if e.type == "stomp"]
    assert [e.name for e in stomp] == ["goomba"] and s.deaths == 0
    assert s.enemies.alive == [False] and s.enemies.all[0].actor not in s.world.actors
    assert p.vy < 0 and not p.on_ground  # bounced up
    assert [e.type for e in s.events].count("stomp") == 1 and s.enemies.puffs


def test_walking_into_a_walker_kills_the_player_with_a_hit_event(write_map):
    level = """
..............
..............
.P............
##############
"""
    s = Session(load_level(write_map("h.tmx", level, [enemy("goomba", "walker", 120, 48)])))
    events = run(s, RIGHT, 60)
    kinds = [(e.type, e.name) for e in events if e.type in ("hit", "death", "stomp")]
    assert kinds[:2] == [("hit", "goomba"), ("death", "goomba")]
    assert s.enemies.alive == [True]


def test_stomped_enemies_stay_stomped_and_living_ones_go_back_to_their_start_after_a_death(write_map):
    level = """
....................
....................
.P..................
####################
"""
    s = Session(load_level(write_map("r.tmx", level, [enemy("left", "walker", 120, 48, speed=0),
                                                       enemy("right", "walker", 250, 48, "left")])))
    first = s.enemies.all[0].actor
    run(s, NONE, 2)
    s.player.teleport(first.x, first.y - 30)
    run(s, NONE, 30)
    assert s.enemies.alive == [False, True] and s.deaths == 0
    while not s.dead:
        s.step(RIGHT)
    assert s.deaths == 1 and s.enemies.alive == [False, True]
    while s.dead:
        s.step(NONE)
    right = s.enemies.all[1]
    assert s.enemies.alive == [False, True] and right.actor.x == pytest.approx(right.spec.x, abs=1.0)


def test_a_hopper_hops_to_its_hop_height_and_turns_at_a_wall(write_map):
    level = """
#............#
#............#
#............#
#............#
#P...........#
##############
"""
    s = Session(load_level(write_map("hop.tmx", level, [
        enemy("frog", "hopper", 168, 80, "right", hop_height=32, hop_period=0.5, speed=60)])))
    a = s.enemies.all[0].actor
    ys, xs = [], []
    for _ in range(400):
        s.step(NONE)
        ys.append(a.y)
        xs.append(a.x)
    assert min(ys) == pytest.approx(80 - 12 - 32, abs=1.0)  # the apex of a 32 px hop
    assert max(xs) <= 208 - 12 and s.enemies.facing[0] == -1 or min(xs) < 150  # turned at the wall


def test_a_flyer_follows_its_route_without_gravity_and_back(write_map):
    route = '<object id="ID" name="r" x="100" y="40"><polyline points="0,0 64,0"/></object>'
    level = """
..............
..............
..............
.P............
##############
"""
    bat = ('<object id="ID" name="bat" type="enemy" x="107" y="40"><properties><property name="kind" '
           'value="flyer"/><property name="path" type="object" value="3"/><property name="speed" type="float" value="32"/>'
           '</properties><point/></object>')
    s = Session(load_level(write_map("fly.tmx", level, [bat, route])))
    a, spec = s.enemies.all[0].actor, s.enemies.all[0].spec
    track = []
    for _ in range(300):
        s.step(NONE)
        track.append((a.x, a.y))
    assert {round(y, 6) for _, y in track} == {spec.y}
    assert max(x for x, _ in track) == pytest.approx(spec.route[-1][0], abs=0.6)
    assert track[-1][0] < max(x for x, _ in track)  # came back


def test_route_position_ping_pongs_with_a_wait_at_each_end():
    route = ((0.0, 0.0), (30.0, 0.0), (30.0, 40.0))  # 70 px
    assert route_position(route, 10.0, 1.0, 0.0) == (0.0, 0.0)
    assert route_position(route, 10.0, 1.0, 3.0) == (30.0, 0.0)
    assert route_position(route, 10.0, 1.0, 7.5) == (30.0, 40.0)  # waiting at the end
    assert route_position(route, 10.0, 1.0, 10.0) == pytest.approx((30.0, 20.0))
    assert route_position(route, 10.0, 1.0, 15.5) == (0.0, 0.0)
    assert math.dist(route_position(route, 10.0, 0.0, 14.0 + 0.5), (5.0, 0.0)) < 1e-9


# -- try to break it: random floors of solid and one-way runs at different heights, gaps between ----------

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "40")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def floors(draw):
    cols = draw(st.integers(6, 24))
    rows = ["." * cols for _ in range(7)]
    grid = [list(r) for r in rows]
    c = 0
    while c < cols:
        run = draw(st.integers(1, 6))
        row = draw(st.integers(3, 6))
        ch = draw(st.sampled_from("##=^")) if draw(st.integers(0, 4)) else "."
        for k in range(c, min(cols, c + run)):
            grid[row][k] = "#" if ch == "^" else ch
        if ch == "^" and run >= 3 and c + run <= cols:  # a 45-degree hill on the run: up, plateau, down
            grid[row - 1][c:c + run] = ["/"] + ["#"] * (run - 2) + ["\\"]
        c += run
    text = "\n".join("".join(r) for r in grid)
    tops = [(k, r) for k in range(cols) for r in range(1, 7) if grid[r][k] in "#=" and grid[r - 1][k] == "."]
    assume(tops)
    col, row = draw(st.sampled_from(tops))
    w, h = draw(st.integers(4, 16)), draw(st.integers(4, 14))
    speed = draw(st.floats(5.0, 240.0))
    return text, col, row, w, h, speed, draw(st.sampled_from((-1, 1)))


@SETTINGS
@given(floors())
def test_a_walker_never_walks_off_an_edge_on_any_floor(case):
    """Flat runs at different heights: it stays at its height; over hills it walks up and down the
    slopes and is on the ground every step."""
    text, col, row, w, h, speed, facing = case
    world = World(TileGrid.from_ascii(text))
    ts = 16
    x = min(col * ts + (ts - w) / 2, world.grid.width - w)
    spec = EnemySpec(1, "w", "walker", x, row * ts - h, w, h, facing, speed, 0.0, 1.0, (), 0.0)
    enemies = Enemies(world, SimpleNamespace(enemies=[spec], height=world.grid.height))
    a = enemies.all[0].actor
    world.step()
    enemies.after_step(world.step(), world.steps)
    assert a.on_ground and a.y == row * ts - h
    hills = "/" in text
    for _ in range(240):
        enemies.after_step(world.step(), world.steps)
        assert a.on_ground and (hills or a.y == row * ts - h), (a, text)


def test_a_walker_rides_a_moving_platform_and_turns_at_its_ends(write_map):
    level = "\n".join(["." * 20] * 5 + [".P" + "." * 18, "#" * 20])
    lift = ('<object id="ID" name="lift" type="platform" x="96" y="48" width="48" height="8"><properties>'
            '<property name="dx" type="float" value="96"/><property name="speed" type="float" value="30"/>'
            '</properties></object>')
    s = Session(load_level(write_map("lift.tmx", level, [lift, enemy("rider", "walker", 120, 48, "right")])))
    a, platform = s.enemies.all[0].actor, next(iter(s.platforms.values()))
    for _ in range(900):
        s.step(NONE)
        assert a.on_ground and a.ground.platform is platform and a.y == 36.0
        assert platform.x - 0.5 <= a.x <= platform.x + platform.w - a.w + 0.5


def test_a_walker_walks_up_and_down_slopes_and_turns_at_a_step_up():
    hills = "\n".join([
        "........................",
        "........................",
        ".............####.......",
        ".........../######\\.....",
        "......../##########\\....",
        "#.pq####################",
        "########################",
    ])
    world = World(TileGrid.from_ascii(hills))
    spec = EnemySpec(1, "w", "walker", 40, 5 * 16 - 12, 14, 12, 1, 40.0, 0.0, 1.0, (), 0.0)
    enemies = Enemies(world, SimpleNamespace(enemies=[spec], height=world.grid.height))
    a = enemies.all[0].actor
    seen = []
    for _ in range(3000):
        enemies.after_step(world.step(), world.steps)
        seen.append((a.x, a.y, a.on_ground))
    assert all(on for _, _, on in seen[10:])  # (it starts in the air over the shallow slope)
    assert min(x for x, _, _ in seen) == pytest.approx(16.0)  # the wall at the far left
    assert max(x for x, _, _ in seen) == pytest.approx(208 - 14)  # the block on top of the hill: a wall
    assert min(y for _, y, _ in seen) == pytest.approx(48 - 12)  # up on the hill's plateau


# -- the walkers' batch against the obvious rule: each walker an Actor, turned one by one ---------------

def reference_walk(enemies, actor, d: int, speed: float) -> int:
    """The walkers' rule for one plain Actor (what Enemies did before its walkers were a Crowd): away from
    the wall its own move ran into; standing, round where no ground is one step ahead."""
    wall = actor.wall
    if wall is not None:
        d = wall.normal[0] or -d
    elif actor.on_ground and not enemies._ground_ahead(actor, d, abs(speed) * enemies.world.dt + LEDGE_PROBE):
        d = -d
    actor.vx = d * speed
    return d


@st.composite
def walker_scenes(draw):
    """Floors of solid, one-way and hill runs at random heights with gaps (walled or open map sides),
    sometimes a lift or a solid platform crossing them, and walkers of every size and speed on them."""
    cols = draw(st.integers(8, 40))
    grid = [["."] * cols for _ in range(9)]
    c = 0
    while c < cols:
        run, row = draw(st.integers(1, 8)), draw(st.integers(3, 8))
        ch = draw(st.sampled_from("##=^/\\")) if draw(st.integers(0, 5)) else "."
        for k in range(c, min(cols, c + run)):
            grid[row][k] = "#" if ch in "^/\\" else ch
        if ch == "^" and run >= 3 and c + run <= cols:
            grid[row - 1][c:c + run] = ["/"] + ["#"] * (run - 2) + ["\\"]
        elif ch in "/\\" and row > 1:
            grid[row - 1][c] = ch
        c += run
    if draw(st.booleans()):  # a wall somewhere
        k = draw(st.integers(0, cols - 1))
        for r in range(draw(st.integers(0, 6)), 9):
            grid[r][k] = "#"
    text = "\n".join("".join(r) for r in grid)
    spots = [(k, r) for k in range(cols) for r in range(1, 9) if grid[r][k] in "#=" and grid[r - 1][k] == "."]
    assume(spots)
    walkers = []
    for _ in range(draw(st.integers(1, 12))):
        col, row = draw(st.sampled_from(spots))
        w, h = draw(st.integers(3, 20)), draw(st.integers(3, 16))
        walkers.append((col, row, w, h, draw(st.floats(0.0, 300.0)), draw(st.sampled_from((-1, 1))),
                        draw(st.floats(-8.0, 8.0))))
    lift = None
    if draw(st.integers(0, 2)) == 0:
        lift = (draw(st.integers(0, cols - 2)), draw(st.integers(2, 7)), draw(st.integers(2, 6)),
                draw(st.floats(10.0, 120.0)), draw(st.booleans()), draw(st.booleans()))
    walled = draw(st.booleans())
    return text, walkers, lift, walled, draw(st.sampled_from((30, 60, 120, 144)))


def _world(text, lift, walled, hz):
    from engine import Edges, FeelConfig, Path, Platform
    from engine.feel import Physics

    edges = Edges() if walled else Edges(left=False, right=False)
    world = World(TileGrid.from_ascii(text, edges=edges), feel=FeelConfig(physics=Physics(hz=hz)))
    if lift is not None:
        col, row, width, speed, one_way, vertical = lift
        x, y = col * 16.0, row * 16.0 - 4.0
        end = (x, y + 48.0) if vertical else (x + 96.0, y)
        world.add(Platform(x, y, width * 16.0, 8.0, Path([(x, y), end], speed=speed, mode="ping-pong"),
                           one_way=one_way))
    return world


@settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "150")), deadline=None,
          derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"), suppress_health_check=list(HealthCheck))
@given(walker_scenes())
def test_the_walkers_batch_moves_and_turns_them_as_the_rule_moves_actors(scene):
    """Every step, every walker of the game's crowd is where the same walker is as a plain Actor turned by
    the obvious rule (positions, velocities, on the ground, facing), and they die (squished, fallen out)
    at the same steps."""
    from engine import Actor

    text, walkers, lift, walled, hz = scene
    fast, slow = _world(text, lift, walled, hz), _world(text, lift, walled, hz)
    specs = []
    for n, (col, row, w, h, speed, facing, dx) in enumerate(walkers):
        x = min(max(col * 16 + (16 - w) / 2 + dx, 0.0), fast.grid.width - w)
        specs.append(EnemySpec(n + 1, f"w{n}", "walker", x, row * 16.0 - h, float(w), float(h), facing, speed,
                               0.0, 1.0, (), 0.0))
    level = SimpleNamespace(enemies=specs, height=fast.grid.height)
    enemies = Enemies(fast, level)
    rule = object.__new__(Enemies)
    rule.world = slow
    actors = [slow.add(Actor(s.x, s.y, s.w, s.h, name=s.name)) for s in specs]
    for a, s in zip(actors, specs, strict=True):
        a.vx = s.facing * s.speed
    facing, alive = [s.facing for s in specs], [True] * len(specs)
    for step in range(240):
        enemies.after_step(fast.step(), fast.steps)
        squished = slow.step().squished
        for i, (a, s) in enumerate(zip(actors, specs, strict=True)):
            if alive[i]:
                if a in squished or a.y > slow.grid.height:
                    alive[i] = False
                    slow.remove(a)
                else:
                    facing[i] = reference_walk(rule, a, facing[i], s.speed)
        assert enemies.alive == alive, step
        for i, a in enumerate(actors):
            if alive[i]:
                b = enemies.all[i].actor
                assert (b.x, b.y, b.vx, b.vy, b.on_ground, enemies.facing_of(i)) == \
                    (a.x, a.y, a.vx, a.vy, a.on_ground, facing[i]), (step, i, text)


def test_put_starts_an_enemy_over_as_another_kind_in_a_body_of_its_own(write_map):
    level = "\n".join(["." * 20] * 5 + [".P" + "." * 18, "#" * 20])
    s = Session(load_level(write_map("put.tmx", level, [enemy("a", "walker", 200, 96), enemy("b", "hopper", 260, 96)])))
    walker, hopper = s.enemies.all[0].actor, s.enemies.all[1].actor
    assert walker in s.enemies.crowd.walkers and hopper in s.world.actors
    spec_a, spec_b = s.enemies.all[0].spec, s.enemies.all[1].spec
    s.enemies.put(0, replace(spec_b, x=40.0))
    s.enemies.put(1, replace(spec_a, x=280.0))
    assert walker.index < 0 and hopper not in s.world.actors  # the old bodies are gone
    a, b = s.enemies.all[0].actor, s.enemies.all[1].actor
    assert a in s.world.actors and b in s.enemies.crowd.walkers and s.enemies.alive == [True, True]
    run(s, NONE, 120)
    assert b.on_ground and b.x != 280.0 and s.enemies.hop_left[0] != s.enemies.hop_steps(s.enemies.all[0].spec)
