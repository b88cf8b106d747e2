"""Vines: a rope of `length` px hanging from its top, swaying in a breeze, brushed aside by the player."""

import math

import pytest

from engine import Buttons
from game.files.levelfile import load_level
from game.rules.session import Session
from game.rules.vines import vine_config

ROOM = """
........................
........................
........................
........................
.P......................
########################
"""


def vine(x, y, length):
    return (f'<object id="ID" name="ivy" type="vine" x="{x}" y="{y}"><properties><property name="length" '
            f'type="float" value="{length}"/></properties><point/></object>')


@pytest.mark.parametrize("length", [3.0, 8.0, 48.0, 50.0, 200.0])
def test_a_vine_is_as_long_as_its_length_with_joints_at_most_8_px_apart(length):
    cfg = vine_config(length)
    assert cfg.segments * cfg.segment_length == pytest.approx(length) and cfg.segment_length <= 8.0


def test_a_vine_hangs_from_its_top_and_sways_a_little_on_its_own(write_map):
    s = Session(load_level(write_map("v.tmx", ROOM, [vine(200, 8, 48)])))
    rope = s.vines.ropes[0]
    tips = []
    for _ in range(400):
        s.step(Buttons())
        tips.append(rope.points[-1])
    assert rope.points[0] == (200.0, 8.0)
    xs = [x for x, _ in tips[200:]]
    assert 1.0 < max(xs) - 200 < 6.0 and 1.0 < 200 - min(xs) < 6.0  # a gentle sway both ways
    assert all(math.dist(t, (200.0, 8.0)) <= 48.0 + 1e-6 for t in tips)


def test_the_player_running_through_a_vine_brushes_it_aside(write_map):
    s = Session(load_level(write_map("b.tmx", ROOM, [vine(120, 24, 48)])))  # the tip at the player's height
    rope = s.vines.ropes[0]
    swing = 0.0
    for _ in range(120):
        s.step(Buttons(right=True))
        swing = max(swing, rope.points[-1][0] - 120.0)
    assert swing > 8.0  # pushed well past the breeze's few px, the way the player ran


def test_the_player_grabs_a_vine_with_up_swings_on_it_and_lets_go_with_a_jump(write_map):
    s = Session(load_level(write_map("g.tmx", ROOM, [vine(60, 8, 48)])))  # its tip in jump reach, right of P
    rope, p = s.vines.ropes[0], s.player
    for _ in range(200):  # walk under it and jump, holding up
        under = abs(p.x + p.w / 2 - 60.0) < 2.0
        s.step(Buttons(right=p.x + p.w / 2 < 58.0, left=p.x + p.w / 2 > 62.0, jump=under and p.on_ground, up=True))
        if p.holding is rope:
            break
    assert p.holding is rope
    xs = []
    for _ in range(240):
        s.step(Buttons(right=p.vx >= 0.0, left=p.vx < 0.0))  # pumping with the swing
        xs.append(p.x)
    assert max(xs) - min(xs) > 30.0
    s.step(Buttons(jump=True))
    assert p.holding is None and p.vy < 0.0
    snap = s.world.snapshot()
    for _ in range(120):
        s.step(Buttons())
    assert p.on_ground
    s.world.restore(snap)
    assert p.holding is None


def test_replays_without_up_never_grab_a_vine(write_map):
    s = Session(load_level(write_map("n.tmx", ROOM, [vine(60, 8, 48)])))
    for k in range(300):
        s.step(Buttons(right=k % 90 < 60, left=k % 90 >= 60, jump=k % 30 == 0))
        assert s.player.holding is None


def test_a_vine_far_from_the_view_is_frozen_until_the_view_comes_near(write_map):
    """The session freezes a vine whose reach lies more than VINE_WAKE px outside the view: no breeze, no
    work; running toward it, it moves again (at rest, from where it was held) before it is on screen."""
    from game.rules.session import VINE_WAKE

    hall = "\n".join(["." * 100] * 6 + [".P" + "." * 98, "#" * 100])  # 1,600 px long
    s = Session(load_level(write_map("far.tmx", hall, [vine(1400, 8, 48), vine(60, 8, 48)])))
    far, near = s.vines.ropes
    s.step(Buttons())
    assert far.frozen and not near.frozen
    held = far.points
    for _ in range(120):
        s.step(Buttons())
    assert far.points == held and not near.frozen
    cam = s.camera
    while far.frozen:
        s.step(Buttons(right=True))
        assert s.steps < 1200
    assert cam.x + cam.view_w + VINE_WAKE >= 1400 - 48  # woken as its reach came within VINE_WAKE of the view
    assert cam.x + cam.view_w < 1400 - 48  # (not yet on screen)
    for _ in range(60):
        s.step(Buttons())
    assert far.points != held  # swaying in the breeze again
