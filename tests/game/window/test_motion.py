# ruff: noqa: F811  -- tests take the imported `app` fixture as an argument
"""The hero's and the enemies' motion: poses picked from the controller's state, the trailing scarf, a
dash's afterimages, the turret's wind-up, hit-stop and screen shake (with the Options switch)."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from types import SimpleNamespace  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.rules.camera import View  # noqa: E402
from game.rules.profile import Options  # noqa: E402
from game.rules.session import GameEvent  # noqa: E402
from game.window.render.kinds import WINDUP, draw_turret  # noqa: E402
from game.window.render.sprites import PLAYER_ANIMS, Art  # noqa: E402
from game.window.render.world import PlayerLook, Scarf  # noqa: E402
from game.window.scenes.play import HIT_STOP, PlayScene  # noqa: E402

from .test_scenes import app, levels, tick  # noqa: E402,F401  (fixtures)


def body(**kw):
    base = dict(x=0.0, y=0.0, vx=0.0, vy=0.0, on_ground=True, facing=1, dashing=False, sliding=0, lock_left=0,
                lock_dir=0)
    return SimpleNamespace(**{**base, **kw})


@pytest.mark.parametrize("state, pose", [
    (dict(), ("idle", None)),
    (dict(vx=120.0), ("run", None)),
    (dict(vx=-90.0, facing=1), ("skid", None)),  # turned right while still sliding left
    (dict(on_ground=False, vy=-200.0), ("jump", None)),
    (dict(on_ground=False, vy=150.0), ("fall", None)),
    (dict(on_ground=False, vy=40.0, sliding=-1, facing=1), ("wall", -1)),  # faces the wall it slides on
    (dict(on_ground=False, vy=-180.0, lock_left=5, lock_dir=1), ("walljump", 1)),
    (dict(on_ground=False, vy=0.0, dashing=True), ("dash", None)),
])
def test_the_pose_follows_the_controller_state(state, pose):
    assert PlayerLook().pose(body(**state)) == pose


def test_a_take_off_shows_its_crouch_for_a_moment_then_the_jump():
    look = PlayerLook()
    rising = body(on_ground=False, vy=-250.0)
    look.took_off()
    look.update(1 / 60, rising)
    assert look.anim == "takeoff"
    for _ in range(4):
        look.update(1 / 60, rising)
    assert look.anim == "jump"


def test_every_animation_has_its_frames_and_a_scarf_knot_until_the_burst():
    art = Art()
    for anim, (_, count, _) in PLAYER_ANIMS.items():
        frames = art.player[anim][0]
        assert len(frames) == count
        with_knot = [art.scarf_knot(f) is not None for f in frames]
        assert all(with_knot) if anim != "death" else with_knot[0]  # (then the flash and the burst)
    run = [pygame.image.tobytes(f, "RGBA") for f in art.player["run"][0]]
    assert len(run) == 8 and len(set(run)) == 8  # eight different poses, not a few repeated


def test_the_scarf_trails_behind_a_run_and_hangs_at_rest():
    scarf = Scarf()
    x = 100.0
    for _ in range(40):  # running right at 150 px/s
        x += 150 / 60
        pts = scarf.update((x, 50.0), 1, 1 / 60)
    assert all(px < x for px, _ in pts[1:]) and pts[-1][0] < x - 5  # streaming out behind
    for _ in range(120):  # standing: it droops
        pts = scarf.update((x, 50.0), 1, 1 / 60)
    assert pts[-1][1] > 50.0 + 3
    for _ in range(40):  # running left: now it trails on the right
        x -= 150 / 60
        pts = scarf.update((x, 50.0), -1, 1 / 60)
    assert pts[-1][0] > x + 5
    far = scarf.update((x + 500, 50.0), 1, 1 / 60)  # a respawn: at rest at once, not stretched across
    assert abs(far[-1][0] - (x + 500)) < 12


def test_a_dash_leaves_fading_afterimages():
    from game.window.particles import Squash
    from game.window.render.world import GHOST_LIFE, draw_player

    art, look, surf = Art(), PlayerLook(), pygame.Surface((200, 100))
    p = body(x=50.0, y=40.0, w=10, h=14, on_ground=False, dashing=True, vx=300.0)
    p.interpolated = lambda alpha: (p.x, p.y)
    for _ in range(8):
        p.x += 5
        look.update(1 / 60, p)
        draw_player(surf, art, p, look, Squash(), 1.0, View(0, 0))
    assert look.anim == "dash" and len(look.ghosts) >= 3
    assert [g[0] for g in look.ghosts] == sorted(g[0] for g in look.ghosts)  # left behind, in order
    p.dashing = False
    for _ in range(round(GHOST_LIFE * 60) + 2):
        look.update(1 / 60, p)
    assert look.ghosts == []


def test_a_turret_glows_at_its_muzzle_before_it_fires():
    art = Art()

    def warm(until):
        surf = pygame.Surface((48, 32))
        surf.fill((0, 0, 0))
        draw_turret(surf, art, View(0, 0), 8, 8, 16, 16, "right", since_shot=1.0, until_shot=until)
        return sum(1 for x in range(24, 32) for y in range(10, 22) if surf.get_at((x, y)).r > 200)

    assert warm(WINDUP * 2) == 0  # not yet
    assert 0 < warm(WINDUP * 0.8) < warm(0.02)  # charging, growing as the shot nears


def _play(app):
    app.start_level(app.levels[0], fade=False)
    play = app.scenes.current
    assert isinstance(play, PlayScene)
    tick(app, frames=5)
    return play


def test_a_stomp_holds_the_steps_for_a_few_frames_then_goes_on(app):
    play = _play(app)
    steps = play.session.steps
    play.on_event(GameEvent(steps, "stomp", "bug"), 0.0)
    tick(app, frames=HIT_STOP["stomp"])
    assert play.session.steps == steps  # frozen: the impact
    tick(app, frames=2)
    assert play.session.steps > steps


def test_shake_follows_the_option(app):
    play = _play(app)
    play.on_event(GameEvent(1, "stomp", "bug"), 0.0)
    assert play.camera._shake_t > 0
    play.camera._shake_t = 0.0
    app.options = Options(**{**app.options.to_json(), "shake": False})
    play.on_event(GameEvent(2, "stomp", "bug"), 0.0)
    play.shake("death")
    assert play.camera._shake_t == 0.0
