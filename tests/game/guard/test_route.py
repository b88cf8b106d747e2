"""The route finder (game/guard/route.py) on small maps: it agrees with the physics about gaps derived from the
feel's jump distance (both ways), rides moving platforms, avoids hazards, drops through planks, finds or
places coins, reports where it got stuck, and is deterministic under a state budget."""

from __future__ import annotations

import pytest

from engine import FeelConfig
from game.files.levelfile import load_level
from game.guard.route import find_routes
from game.rules.session import PLAYER_W, Session

MARGIN = 12.0  # px the gap is inside / outside the feel's reach


RUN_UP = 4  # tiles of floor before the gap (full speed is reached in under one)


def gap_map(gap: int) -> str:
    """A run-up, a pit ``gap`` tiles wide, a landing with the goal; three tiles of air above (a jump's
    height: the arc may leave the top of the map, which is open)."""
    width = RUN_UP + gap + 3
    return "\n".join([
        "." * width,
        "." * width,
        "P" + "." * (RUN_UP - 1 + gap + 1) + "G.",
        "#" * RUN_UP + "." * gap + "#" * 3,
    ])


def feel_reaching(reach: float) -> FeelConfig:
    """The default feel with the run speed set so a held jump at full run carries ``reach`` px from the
    last foothold to the first (the Derived jump distance plus the player's width), coyote time off."""
    base = FeelConfig().with_value("jump.coyote_time", 0.0)
    d = base.derived
    flight = base.jump.time_to_apex + d.fall_time  # s, take-off to landing at the same height
    feel = base.with_value("run.max_speed", round((reach - PLAYER_W) / flight, 3))
    assert feel.derived.jump_distance + PLAYER_W == pytest.approx(reach, abs=0.01)
    return feel


def replays_to_goal(level, feel, route) -> bool:
    s = Session(level, feel)
    for b in route:
        s.step(b)
    return s.completed and s.deaths == 0


@pytest.mark.parametrize("gap", [4, 6, 8])
def test_a_gap_inside_the_jump_distance_is_crossed_and_one_outside_is_not(write_map, gap):
    level = load_level(write_map(f"gap{gap}.tmx", gap_map(gap)))
    long_feel, short_feel = feel_reaching(gap * 16 + MARGIN), feel_reaching(gap * 16 - MARGIN)

    made = find_routes(level, long_feel, seconds=None, max_states=20000, coins=False, grains=(8.0,))
    assert made.finished, f"a {gap}-tile gap is {MARGIN} px inside the reach but no route was found"
    assert replays_to_goal(level, long_feel, made.route)

    short = find_routes(level, short_feel, seconds=None, max_states=20000, coins=False, grains=(8.0,))
    assert not short.finished and short.exhausted  # everything reachable explored: truly out of reach
    edge = RUN_UP * 16  # px, where the run-up ends: the search got stuck standing right there
    assert short.stuck is not None and edge - 16 < short.stuck.x + PLAYER_W and short.stuck.x < edge
    assert short.stuck.y + 14 == 3 * 16
    assert replays_to_goal(level, short_feel, short.stuck.route) is False


def test_a_pit_too_wide_to_jump_is_crossed_on_a_moving_platform(write_map):
    text = "\n".join([
        "." * 22,
        "." * 22,
        "P" + "." * 19 + "G.",
        "#" * 4 + "." * 15 + "#" * 3,  # a 15-tile pit: 240 px, more than twice a jump
    ])
    ferry = ('<object id="ID" name="ferry" type="platform" x="64" y="48" width="48" height="8">'
             '<properties><property name="dx" type="int" value="144"/><property name="speed" type="float" '
             'value="80"/><property name="wait" type="float" value="0.3"/></properties></object>')
    assert 15 * 16 > 2 * FeelConfig().derived.jump_distance  # no jump, nor two, crosses it
    level = load_level(write_map("ferry.tmx", text, [ferry]))
    report = find_routes(level, FeelConfig(), seconds=None, max_states=20000, coins=False)
    assert report.finished and replays_to_goal(level, FeelConfig(), report.route)
    s = Session(level, FeelConfig())
    rode = False
    for b in report.route:
        s.step(b)
        rode = rode or (s.player.ground is not None and s.player.ground.kind == "platform")
    assert rode


def solved(path) -> bool:
    """The default feel finds a route to the goal that replays without a death."""
    level = load_level(path)
    report = find_routes(level, FeelConfig(), seconds=None, max_states=20000, coins=False)
    return report.finished and replays_to_goal(level, FeelConfig(), report.route)


def test_the_route_jumps_hazards_and_never_dies(write_map):
    assert solved(write_map("spikes.tmx", "\n".join([
        "." * 24,
        "." * 24,
        "..P.....^^....^^...G..",
        "#" * 24,
    ])))


def test_a_goal_under_a_plank_is_reached_by_dropping_through(write_map):
    assert solved(write_map("drop.tmx", "\n".join([
        "..........",
        "..P.......",
        "##====####",
        "#........#",
        "#...G....#",
        "##########",
    ])))


def test_coins_reachable_are_reached_and_the_others_are_placed(write_map):
    text = "\n".join([
        "########",
        "#.o....#",
        "#......#",
        "#P.##G.#",
        "#..#o#.#",  # the second coin is walled in
        "########",
    ])
    level = load_level(write_map("coins.tmx", text))
    report = find_routes(level, FeelConfig(), seconds=None, max_states=20000, coins=True, grains=(8.0,))
    assert report.finished and report.coins_total == 2
    assert len(report.coins_reached) == 1 and report.exhausted
    assert report.coins_missed == ((4 * 16 + 8.0, 4 * 16 + 8.0),)
    reached = report.coins_reached[0]
    s = Session(level, FeelConfig())
    for b in report.coin_routes[reached]:
        s.step(b)
    assert reached in s.collected


def test_a_state_budget_makes_the_search_deterministic(write_map):
    level = load_level(write_map("gap6.tmx", gap_map(6)))
    feel = feel_reaching(6 * 16 + MARGIN)
    a = find_routes(level, feel, seconds=None, max_states=400, coins=False)
    b = find_routes(level, feel, seconds=None, max_states=400, coins=False)
    assert (a.finished, a.route, a.states, a.expanded) == (b.finished, b.route, b.states, b.expanded)
    assert a.states >= 400 or a.finished


def test_a_budget_that_runs_out_says_so(write_map):
    level = load_level(write_map("gap6.tmx", gap_map(6)))
    report = find_routes(level, feel_reaching(6 * 16 - MARGIN), seconds=None, max_states=30, coins=False)
    assert not report.finished and not report.exhausted and report.stuck is not None


def test_a_search_that_explores_everything_in_vain_is_repeated_with_a_finer_key(write_map):
    text = "\n".join([
        "#######",
        "#...#.#",
        "#P..#G#",  # a wall from floor to roof
        "#######",
    ])
    level = load_level(write_map("wall.tmx", text))
    report = find_routes(level, FeelConfig(), seconds=None, max_states=20000, coins=False)
    assert not report.finished and report.exhausted and report.grain == 4.0


def test_a_failed_replay_seeds_from_the_last_place_it_stood_after_its_checkpoint(write_map):
    """The seed's snapshot is taken again from the checkpoint's (one snapshot per checkpoint, not per step):
    it must be the state a fresh session reaches after the seed's steps."""
    from engine import Buttons
    from game.guard.route import replay_route

    flag = '<object id="ID" name="half" type="checkpoint" x="64" y="0" width="16" height="32"/>'
    level = load_level(write_map("cp_pit.tmx", "\n".join([
        "..................",
        "P................G",
        "##########....####",  # walks past the flag, stands a while, then walks into the pit
    ]), platforms=[flag]))
    route = (Buttons(right=True),) * 60 + (Buttons(),) * 30 + (Buttons(right=True),) * 200
    rep = replay_route(level, FeelConfig(), route)
    assert not rep.completed and rep.deaths == 1 and rep.seed is not None
    n = rep.seed.steps
    fresh = Session(level, FeelConfig())
    for b in route[:n]:
        fresh.step(b)
    assert fresh.player.on_ground and fresh.checkpoint is not None and n > 90  # the last step it stood
    probe = rep.seed.snap.session
    probe.restore(rep.seed.snap)
    assert probe.state_hash() == fresh.state_hash() and rep.seed.prefix == route[:n]


def test_the_search_key_holds_the_walkers_near_the_player_and_not_those_far_off(write_map):
    from game.guard.route import Search

    def walker(name, x):
        return (f'<object id="ID" name="{name}" type="enemy" x="{x}" y="96"><properties>'
                '<property name="kind" value="walker"/></properties><point/></object>')

    level = "\n".join(["." * 120] * 5 + [".P" + "." * 118, "#" * 120])
    s = Session(load_level(write_map("key.tmx", level, [walker("near", 80), walker("far", 1800)])))
    search = Search(s.level, session=s)
    near, far = (e.actor for e in s.enemies.all)
    key = search._key()
    far.teleport(far.x - 64.0, far.y)
    assert search._key() == key
    near.teleport(near.x + 32.0, near.y)
    assert search._key() != key


def test_a_gone_crumble_is_in_the_key_with_its_return_time_only_near_the_player():
    """Near the player: when it comes back, in RETURN_GRAIN steps; farther than a jump: only that it is gone
    (its countdown would split every state around into one per moment, while it cannot matter yet)."""
    from pathlib import Path

    from game.guard.route import RETURN_GRAIN, Search

    level = load_level(Path(__file__).resolve().parents[2] / "maps" / "kinds.tmx")
    s = Session(level)
    search = Search(level, session=s)
    b, step = s.blocks, s.world.steps
    i = next(k for k, c in enumerate(level.crumbles) if (20, 8) in c.cells)
    b.fell[i], b.back[i] = step, step + 100
    crumble = level.crumbles[i]
    grain = round(RETURN_GRAIN * search.feel.physics.hz)
    p = s.player
    p.teleport(crumble.x, crumble.y - p.h - 1.0)
    near = search._parts_key(step)[2]
    assert (i, 1, 100 // grain) in near
    b.back[i] = step + 100 - grain  # a moment sooner: another key
    assert search._parts_key(step)[2] != near
    away = crumble.x + search.reach + 200.0
    p.teleport(away if away < level.width - p.w else crumble.x - search.reach - 200.0, p.y)
    far = search._parts_key(step)[2]
    assert (i, 1) in far
    b.back[i] = step + 20
    assert search._parts_key(step)[2] == far


def test_a_jump_across_a_gap_is_scored_by_where_its_arc_lands_not_by_the_pit_below(write_map):
    """A state in the air is scored by where it would stand. Straight down from a run-up jump over a gap
    is the pit floor: scored there, the run-up ranked behind every jump in place at the edge (level 8
    under the heavy preset: 12,117 states without the easy hop). Along its arc it lands on the far ledge."""
    from game.guard.route import Search
    text = "\n".join([
        "." * 16,
        "." * 16,
        "." * 16,
        "..........G.....",
        "P.........######",  # the far ledge (row 4): a tile up, 4 tiles across from the run-up's end
        "######..........",
        "................",
        "................",
        "################",  # the pit's floor (row 8), 3 tiles below the run-up
    ])
    level = load_level(write_map("arc.tmx", text))
    search = Search(level, FeelConfig())
    p = search.session.player
    ts = level.tile_size
    p.x, p.y = 6 * ts - PLAYER_W / 2, 4.5 * ts - p.h  # just off the run-up's edge, rising
    p.vx, p.vy = FeelConfig().run.max_speed, -FeelConfig().derived.takeoff_speed * 0.8
    p.on_ground = False
    cx, cy = search._aim(p)
    assert cy + p.h / 2 == 4 * ts  # feet on the far ledge's top (row 4), not on the pit's floor (row 8)
    assert cx > 10 * ts
    p.vx = 0.0  # the same place going straight up: it comes down where it took off (no progress)
    cx, cy = search._aim(p)
    assert cy + p.h / 2 == 5 * ts and cx == p.x + p.w / 2  # on the run-up (row 5)
