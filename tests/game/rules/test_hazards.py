"""Turrets and their bullets, springs."""

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Buttons, FeelConfig
from game.files.levelfile import load_level
from game.rules.session import Session

NONE, RIGHT, JUMP = Buttons(), Buttons(right=True), Buttons(jump=True)


def obj(kind, name, x, y, w=None, h=None, **props):
    """An object line for ``write_map``: numbers are float properties, text string ones."""
    extra = "".join(f'<property name="{k}" type="float" value="{v}"/>' if isinstance(v, (int, float))
                    else f'<property name="{k}" value="{v}"/>' for k, v in props.items())
    size = f' width="{w}" height="{h}"' if w else ""
    return (f'<object id="ID" name="{name}" type="{kind}" x="{x}" y="{y}"{size}><properties>{extra}'
            f'</properties>{"" if w else "<point/>"}</object>')


GALLERY = """
#..............#
#..............#
#..............#
#.............P#
################
"""


def test_a_turret_fires_on_its_period_and_its_bullets_die_on_a_wall(write_map):
    gun = obj("turret", "gun", 24, 24, direction="right", period=0.5, speed=300)  # fires over the player
    s = Session(load_level(write_map("t.tmx", GALLERY, [gun])))
    counts = []
    for _ in range(240):
        s.step(NONE)
        counts.append(len(s.hazards.bullets))
    assert counts[0] == 1  # the first shot right away (delay 0)
    assert max(counts) == 2  # 224 px at 300 px/s lasts 0.75 s: never more than two in flight
    assert len(s.hazards.bursts) >= 1 and all(b.x < 240 for b in s.hazards.bullets)
    assert s.deaths == 0


def test_a_bullet_kills_the_player_with_a_hit_event_named_after_its_turret(write_map):
    gun = obj("turret", "gun", 24, 56, direction="right", period=1, speed=200, delay=0.2)
    s = Session(load_level(write_map("k.tmx", GALLERY, [gun])))
    events = []
    for _ in range(120):
        events += s.step(NONE)
    kinds = [(e.type, e.name) for e in events if e.type in ("hit", "death")]
    assert kinds[:2] == [("hit", "gun"), ("death", "gun")]
    assert not s.hazards.bullets or s.hazards.bullets[0].x < 100  # the one that hit is gone


def test_bullets_are_cleared_when_the_player_respawns_and_the_turret_keeps_its_rhythm(write_map):
    gun = obj("turret", "gun", 24, 56, direction="right", period=1, speed=100)
    s = Session(load_level(write_map("c.tmx", GALLERY, [gun])))
    while not s.dead:
        s.step(NONE)
    while s.dead:
        s.step(NONE)
    assert all(s.world.steps - b.data[1] <= 1 for b in s.hazards.bullets)  # none from before the death
    assert s.hazards.fires(s.hazards.turrets[0].data, 61) and not s.hazards.fires(s.hazards.turrets[0].data, 62)


SPRING = """
..........
..........
..........
..........
..........
..........
..........
..........
..........
.P........
##########
"""


@pytest.mark.parametrize("height", [40.0, 64.0, 100.0])
@pytest.mark.parametrize("jump", [False, True])
def test_a_spring_launches_the_player_to_its_apex_height_within_a_pixel(write_map, height, jump):
    spring = obj("spring", "boing", 64, 152, 16, 8, height=height)
    s = Session(load_level(write_map("sp.tmx", SPRING, [spring])), FeelConfig())
    p = s.player
    s.step(NONE)
    p.teleport(67, 152 - 14 - 30.0)  # above the spring, falling onto it
    events, launched, apex = [], None, None
    for _ in range(200):
        events += s.step(Buttons(jump=jump))
        if launched is None and any(e.type == "spring" for e in events):
            launched = p.y + p.h
            apex = launched
        elif launched is not None:
            apex = min(apex, p.y + p.h)
            if p.vy > 0:
                break
    assert launched == 152.0  # on the spring's top
    assert launched - apex == pytest.approx(height, abs=1.0)
    assert [e.name for e in events if e.type == "spring"] == ["boing"]
    assert s.hazards.used == [next(e.step for e in events if e.type == "spring")]


def test_a_spring_launch_uses_the_feel_in_force_and_launches_enemies_too(write_map):
    feel = FeelConfig.from_dict({"jump": {"height": 30, "time_to_apex": 0.25}})
    frog = ('<object id="ID" name="frog" type="enemy" x="72" y="100"><properties><property name="kind" '
            'value="hopper"/><property name="speed" type="float" value="0"/></properties><point/></object>')
    spring = obj("spring", "boing", 64, 152, 16, 8, height=80)
    s = Session(load_level(write_map("sp2.tmx", SPRING, [spring, frog])), feel)
    a = s.enemies.all[0].actor
    ys = []
    for _ in range(120):
        s.step(NONE)
        ys.append(a.y + a.h)
    top = min(ys)
    assert 152 - top == pytest.approx(80, abs=1.0)  # the frog went up to the spring's height, not its hop's


SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "25")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@SETTINGS
@given(jump=st.floats(16.0, 120.0), apex=st.floats(0.2, 0.6), hz=st.sampled_from((30, 60, 120, 144)),
       height=st.floats(8.0, 300.0), held=st.booleans())
def test_a_spring_apex_is_its_height_within_a_pixel_under_any_feel(write_map, jump, apex, hz, height, held):
    feel = FeelConfig.from_dict({"jump": {"height": jump, "time_to_apex": apex}, "physics": {"hz": hz}})
    tall = "\n".join(["." * 10] * 24 + [".P........", "#" * 10])
    spring = obj("spring", "boing", 64, 392, 16, 8, height=round(height, 3))
    s = Session(load_level(write_map("spr.tmx", tall, [spring])), feel)
    p = s.player
    s.step(NONE)
    p.teleport(67, 392 - 14 - 20.0)
    launched = apex_y = None
    for _ in range(20 * hz):
        events = s.step(Buttons(jump=held))
        if launched is None:
            if any(e.type == "spring" for e in events):
                launched = apex_y = p.y + p.h
        else:
            apex_y = min(apex_y, p.y + p.h)
            if p.vy > 0:
                break
    assert launched == 392.0
    assert launched - apex_y == pytest.approx(round(height, 3), abs=1.0)


def test_a_bullet_that_leaves_the_map_is_gone(write_map):
    gun = obj("turret", "sky gun", 120, 40, direction="up", period=2, speed=400)  # the map's top is open
    s = Session(load_level(write_map("up.tmx", GALLERY, [gun])))
    first = None
    for _ in range(30):
        s.step(NONE)
        if first is None and s.hazards.bullets:
            first = s.hazards.bullets[0]
    assert first is not None and first not in s.hazards.bullets and first not in s.world.actors
    assert first.y < -40  # it flew off the top, nothing stopped it


def test_a_bullet_beyond_the_views_reach_is_gone_quietly_so_bullets_in_flight_stay_bounded(write_map, monkeypatch):
    from game.rules import session

    hall = "\n".join(["#" + "." * 198 + "#"] * 3 + ["#P" + "." * 197 + "#", "#" * 200])  # 3,200 px long
    gun = obj("turret", "gun", 24, 24, direction="right", period=0.1, speed=600)

    def fly(steps: int):
        s = Session(load_level(write_map("hall.tmx", hall, [gun])))
        most = 0
        for _ in range(steps):
            s.step(NONE)
            most = max(most, len(s.hazards.bullets))
            cam = s.camera
            assert all(b.x < cam.x + cam.view_w + session.BULLET_REACH + 600 / 60 for b in s.hazards.bullets)
        return s, most

    s, most = fly(240)
    assert s.camera.x + s.camera.view_w + session.BULLET_REACH < 3000  # (the far wall is out of reach)
    assert most <= (s.camera.view_w + session.BULLET_REACH) / 600 * 10 + 2  # a view and its reach of them
    assert not s.hazards.bursts  # gone quietly: no bullet reached the far wall, none made a puff
    monkeypatch.setattr(session, "BULLET_REACH", float("inf"))
    assert fly(240)[1] > most  # (without the rule they fly on to the far wall)
