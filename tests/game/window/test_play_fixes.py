"""Play-scene behaviour fixed after review: signpost messages linger, F5 keeps the run, the F2 panel
slides the view aside and its own saves are not reloaded, notices stay clear of the panel and the sign
box, a --replay's complete screen, the title menu box, the window size after F11, quiet start-up."""

# ruff: noqa: F811  -- tests take the imported `levels` fixture as an argument

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.window import app as app_module  # noqa: E402
from game.window.app import App  # noqa: E402
from game.window.audio import quiet_stderr  # noqa: E402
from game.window.render.canvas import Screen  # noqa: E402
from game.window.render.hud import MESSAGE_FADE, MESSAGE_HOLD, NOTICE_TOP, draw_notices, message_rect  # noqa: E402
from game.window.scenes.complete import CompleteScene  # noqa: E402
from game.window.scenes.play import FINISH_DELAY, PlayScene  # noqa: E402
from game.window.scenes.title import TitleScene  # noqa: E402
from game.window.tuning import DERIVED, PANEL, STATUS, TuningPanel, predict_arcs  # noqa: E402

from .test_scenes import _args, levels, settle, tick  # noqa: E402,F401  (levels: the two-level fixture)

ROOT = Path(__file__).resolve().parents[3]
SIGN = "Hello there, jumper!"


@pytest.fixture
def app(levels, tmp_path):
    feel = tmp_path / "feel.toml"
    shutil.copy(ROOT / "feel.toml", feel)
    a = App(_args(feel=str(feel)))
    assert a.start() is None
    yield a
    a.close()


def _play(app) -> PlayScene:
    app.start_level(app.levels[0], fade=False)
    play = app.scenes.current
    assert isinstance(play, PlayScene)
    return play


def _away_from_the_sign(play):
    play.session.player.teleport(70, 144 - 14)  # on the floor, right of the 16..48 sign


# -- 2. signpost messages ------------------------------------------------------------------------------

def test_sign_message_lingers_then_fades_after_leaving(app):
    play = _play(app)
    tick(app, frames=2)  # the spawn is inside the sign
    assert play.msg == SIGN and play.message_fade == 1.0
    _away_from_the_sign(play)
    tick(app, frames=2)
    assert play.session.message is None
    assert play.msg == SIGN and play.message_fade == 1.0  # still up right after leaving
    tick(app, frames=round((MESSAGE_HOLD - 0.1) * 60))
    assert play.msg == SIGN and play.message_fade == 1.0
    tick(app, frames=round(0.4 * 60))
    assert play.msg == SIGN and 0.0 < play.message_fade < 1.0  # fading out
    tick(app, frames=round(MESSAGE_FADE * 60))
    assert play.msg is None  # gone ~2 s after leaving


def test_a_sign_brushed_for_one_step_inside_a_frame_still_shows(app):
    play = _play(app)
    _away_from_the_sign(play)
    tick(app, frames=round((MESSAGE_HOLD + MESSAGE_FADE) * 60) + 5)
    assert play.msg is None
    p = play.session.player
    p.teleport(20, 120)  # mid-air inside the sign for one step ...
    play.fixed_step()
    p.teleport(200, 60)  # ... and out of it on the next step of the same frame
    play.fixed_step()
    assert play.session.message is None
    tick(app, frames=1)
    assert play.msg == SIGN


def test_another_sign_replaces_the_message_at_once(app):
    play = _play(app)
    tick(app, frames=2)
    _away_from_the_sign(play)
    tick(app, frames=30)
    play.show_message("Another sign")
    assert play.msg == "Another sign" and play.msg_age == 0.0 and play.message_fade == 1.0


def test_the_message_box_is_drawn_while_lingering(app):
    play = _play(app)
    tick(app, frames=2)
    _away_from_the_sign(play)
    tick(app, frames=30)
    canvas = app.screen.canvas
    rect = message_rect(canvas, SIGN)
    inside, above = (rect.centerx, rect.bottom - 3), (rect.centerx, rect.top - 20)
    assert canvas.get_at(inside)[:3] != canvas.get_at(above)[:3]


# -- 3. F5 keeps the run ---------------------------------------------------------------------------------

def test_f5_reloads_the_level_and_keeps_the_run(app, levels):
    play = _play(app)
    s = play.session
    coin, cp = play.level.coins[0], play.level.checkpoints[0]
    s.player.teleport(coin.x - 5, coin.y - 7)
    tick(app, frames=2)
    s.player.teleport(cp.x + 3, cp.y + cp.h - 14)
    tick(app, frames=2)
    assert s.coins == 1 and s.checkpoint is cp
    tick(app, frames=200)  # past the title banner
    s.deaths = 3
    p = s.player
    p.teleport(130, 80)
    p.vx, p.vy, p.facing = 55.0, -40.0, -1
    cam = (play.camera.x, play.camera.y)
    t, steps = play.t, s.steps
    # the designer edits the map: a new title, the goal moved
    path = levels / "01_start.tmx"
    text = path.read_text().replace('value="Start"', 'value="Start 2"')
    path.write_text(text.replace('x="150"', 'x="170"'))
    play.reload()
    n = play.session
    assert n is not s and n.level.title == "Start 2" and n.level.goals[0].x == 170
    assert (n.steps, n.deaths, n.coins, n.collected) == (steps, 3, 1, {coin.id})
    assert n.checkpoint is not None and n.checkpoint.id == cp.id and n.respawn == n.checkpoint.bottom_centre
    q = n.player
    assert (q.x, q.y, q.vx, q.vy, q.facing) == (130, 80, 55.0, -40.0, -1)
    assert (play.camera.x, play.camera.y) == cam
    assert play.t == t and play.seconds == steps / play.clock.hz  # no banner replay, timer kept
    assert play.reached == {cp.id}
    tick(app, frames=2)
    assert n.steps == steps + 2


def test_f5_with_a_broken_level_keeps_playing_the_old_one(app, levels):
    play = _play(app)
    tick(app, frames=5)
    s = play.session
    (levels / "01_start.tmx").write_text("<map><broken")
    play.reload()
    assert play.session is s
    text, error, _until = app._notice
    assert error and "\n" not in text
    tick(app, frames=2)
    assert s.steps == 7


def test_f5_while_dead_brings_the_player_back_at_the_respawn_point(app):
    play = _play(app)
    spikes = play.level.hazards[0]
    play.session.player.teleport(spikes.x + 4, spikes.y - 10)
    tick(app, frames=3)
    assert play.session.dead
    play.reload()
    n = play.session
    assert not n.dead and n.deaths == 1 and play.look.visible
    rx, ry = n.respawn
    assert n.player.x == rx - n.player.w / 2 and n.player.y == ry - n.player.h


# -- 4. the view slides aside while the F2 panel is open --------------------------------------------------

def test_panel_slides_the_view_so_player_and_arcs_are_beside_it(app):
    play = _play(app)
    tick(app, frames=5)
    panel = app.tuning
    assert isinstance(panel, TuningPanel)
    panel.toggle()
    tick(app, frames=2)
    assert 0 < play.view_shift < panel.view_shift  # eases in, no jump
    tick(app, frames=60)
    # this small map is centred in the view, the player near its left end: the view slides further
    assert play.view_shift >= panel.view_shift
    settled = play.view_shift
    tick(app, frames=5)
    assert play.view_shift == settled
    cam_x = play.camera.view().x - round(play.view_shift)
    p = play.session.player
    assert p.x - cam_x > PANEL.right + 20  # the player is right of the panel
    held, tapped = predict_arcs(play.session.world, p)
    for x, _y in held + tapped:
        assert x - cam_x > PANEL.right
    panel.toggle()
    tick(app, frames=60)
    assert play.view_shift == 0


# -- 5. the panel's own save is not an outside edit -------------------------------------------------------

def test_panel_save_is_not_reloaded_as_an_outside_edit(app):
    _play(app)
    tick(app, frames=2)
    panel, watcher = app.tuning, app.watcher
    panel.toggle()
    panel.nudge("jump.height", 1)
    tick(app, frames=1)  # the play scene applies the edit
    applied = []
    real = app.set_feel
    app.set_feel = lambda feel: (applied.append(feel), real(feel))
    reloads = watcher.reloads
    assert panel.save()
    watcher._next_check = 0.0  # poll the file now
    app._notice = None
    app._poll_feel()
    assert watcher.reloads == reloads and applied == []
    assert app._notice is None and watcher.feel == panel.feel and app.feel_error is None


# -- 6. notices stay clear of the panel and the sign box ----------------------------------------------

def test_notices_sit_under_the_hud_beside_the_panel_and_clear_of_the_sign(app):
    play = _play(app)
    tick(app, frames=2)
    canvas = app.screen.canvas
    assert play.msg == SIGN
    assert play.notice_span() == (0, canvas.get_width()) and play.notice_top(canvas) == NOTICE_TOP
    sign = message_rect(canvas, SIGN, **play._message_place())
    assert sign.top > canvas.get_height() // 2  # without the panel: bottom centre, notices at the top
    app.tuning.toggle()
    tick(app, frames=2)
    left, right = play.notice_span()
    assert left >= PANEL.right
    sign = message_rect(canvas, SIGN, **play._message_place())
    top = play.notice_top(canvas)
    bottom = draw_notices(canvas, [("a long notice " * 4, True), ("another one", False)], left=left,
                          right=right, top=top)
    notices = pygame.Rect(left, top, right - left, bottom - top)
    for other in (PANEL, DERIVED, STATUS, sign):
        assert not notices.colliderect(other), other
    for other in (PANEL, DERIVED, STATUS):
        assert not sign.colliderect(other), other
    app.notice("saved")
    app.draw()  # draws without error with the panel, the sign and notices up


# -- 9. a --replay run's complete screen ------------------------------------------------------------------

def test_replay_complete_screen_says_replay_and_offers_no_locked_level(levels):
    a = App(_args(replay=str(levels / "replays" / "01_start.txt")))
    assert a.start() is None
    try:
        play = a.scenes.current
        goal = play.level.goals[0]
        play.session.player.teleport(goal.x + 2, goal.y + goal.h - 14)
        tick(a, frames=3)
        tick(a, dt=0.1, frames=int(FINISH_DELAY / 0.1) + 2)
        settle(a)
        done = a.scenes.current
        assert isinstance(done, CompleteScene) and done.is_replay
        assert "Next level" not in done.menu.items  # 02 is still locked: a replay unlocks nothing
        assert not a.is_unlocked(a.levels[1])
        tick(a, dt=0.2, frames=5)  # draws the player's own best time, not the replay's
        a.progress.unlocked.add(a.levels[1].name)
        assert "Next level" in CompleteScene(a, play).menu.items
    finally:
        a.close()


# -- 10. the title menu band ---------------------------------------------------------------------------

def test_title_menu_band_is_nearly_opaque_with_a_soft_edge(levels):
    a = App(_args())
    assert a.start() is None
    try:
        title = a.scenes.current
        assert isinstance(title, TitleScene)
        band = title._band
        w, h = band.get_size()
        assert band.get_at((w // 2, h // 2)).a >= 220
        assert 0 < band.get_at((w // 2, 0)).a < 100  # it fades out toward its edges
    finally:
        a.close()


# -- 7. the window's real size is re-read every frame --------------------------------------------------

def test_present_follows_the_window_surface_even_without_an_event():
    s = Screen(scale=2)
    try:
        pygame.display.set_mode((1000, 700))  # resized behind the Screen's back, no event handled
        s.canvas.fill((255, 0, 0))
        s.present()
        assert s.window.get_size() == (1000, 700) and s.offset == (20, 80)
        assert s.window.get_at((20, 80))[:3] == (255, 0, 0) and s.window.get_at((5, 5))[:3] == (0, 0, 0)
        s.toggle_fullscreen()
        s.present()
        assert s.window is pygame.display.get_surface()
    finally:
        pygame.display.quit()


# -- 8. quiet start-up ---------------------------------------------------------------------------------

def test_quiet_stderr_drops_c_level_output_and_restores_fd2(capfd):
    with quiet_stderr():
        os.write(2, b"ALSA lib pcm.c: Unknown PCM default\n")
    os.write(2, b"ours\n")
    err = capfd.readouterr().err
    assert "ALSA" not in err and "ours" in err


def test_runtime_dir_is_private_during_video_start_up_only(monkeypatch):
    if not sys.platform.startswith("linux"):
        pytest.skip("XDG only")
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    with app_module._runtime_dir() as path:
        assert os.environ["XDG_RUNTIME_DIR"] == path
        assert (Path(path).stat().st_mode & 0o777) == 0o700
    assert "XDG_RUNTIME_DIR" not in os.environ and not Path(path).exists()
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/1234")
    with app_module._runtime_dir():
        assert os.environ["XDG_RUNTIME_DIR"] == "/run/user/1234"  # a set one is left alone


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland probe")
def test_unreachable_display_prints_one_line_and_nothing_on_stderr(levels):
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_RUNTIME_DIR", "SDL_VIDEODRIVER",
                                                             "WAYLAND_DISPLAY")}
    env["DISPLAY"] = ":987"
    r = subprocess.run([sys.executable, "-m", "game"], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0
    assert r.stderr == ""
    assert r.stdout.splitlines()[0].startswith("no display available (cannot open display ':987'")
