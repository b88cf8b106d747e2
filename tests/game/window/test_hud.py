"""What the HUD, the level banner, sign messages and the F3 panel must never hide or spill over."""
# ruff: noqa: F811  -- tests take the imported `app` and `levels` fixtures as arguments

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.files.inputscript import parse_script  # noqa: E402
from game.window.render import hud  # noqa: E402
from game.window.render.canvas import CANVAS_W  # noqa: E402
from game.window.render.debug import PANEL_W, draw_debug  # noqa: E402
from game.window.scenes.play import PlayScene  # noqa: E402

from .test_scenes import app, levels, tick  # noqa: E402,F401  (the two-level fixture and its App)


def _canvas():
    return pygame.Surface((CANVAS_W, 270))


def _coin_at_screen(play, sx: int, sy: int) -> None:
    """Move the level's coin so its centre is drawn at canvas (sx, sy) with the camera where it is."""
    view = play.camera.view(play.clock.alpha)
    coin = play.level.coins[0]
    coin.x, coin.y = view.x + sx - coin.w / 2, view.y + sy - coin.h / 2


def test_the_banner_picks_a_row_that_hides_no_coin(app):
    play = PlayScene(app, app.levels[0])
    canvas = _canvas()
    title = play.level.title
    first = hud.banner_rect(canvas, title, hud.BANNER_ROWS[0])
    _coin_at_screen(play, first.centerx, first.centery)  # a coin right where the banner used to go
    play.draw(canvas)
    seen = play.seen_rects(play.camera.view(play.clock.alpha), play.clock.alpha)
    assert play.banner_y != hud.BANNER_ROWS[0]
    assert hud.banner_rect(canvas, title, play.banner_y).collidelist(seen) < 0


def test_a_hud_pill_turns_see_through_while_a_coin_is_behind_it_and_back_after(app):
    play = PlayScene(app, app.levels[0])
    canvas = _canvas()
    s = play.session
    rects = hud.hud_rects(CANVAS_W, coins=s.coins, coins_total=len(play.level.coins), seconds=0.0, deaths=0)
    _coin_at_screen(play, rects[1].centerx, rects[1].centery)  # behind the timer
    for _ in range(12):
        play.update(1 / 60, [])
        play.draw(canvas)
    assert play.hud_want == [1.0, hud.UI_SEE_THROUGH, 1.0]
    assert play.hud_fades[1] < 0.5 and play.hud_fades[0] == play.hud_fades[2] == 1.0
    _coin_at_screen(play, 240, 200)  # out from under it: the pill comes back
    for _ in range(60):
        play.update(1 / 60, [])
        play.draw(canvas)
    assert all(f > 0.99 for f in play.hud_fades)


def test_pause_and_level_complete_draw_the_level_without_banner_or_sign(app, monkeypatch):
    from game.window.scenes import play as play_module
    calls = []
    monkeypatch.setattr(play_module, "draw_banner", lambda *a, **k: calls.append("banner"))
    monkeypatch.setattr(play_module, "draw_message", lambda *a, **k: calls.append("message"))
    app.start_level(app.levels[0], fade=False)
    play = app.scenes.current
    tick(app, frames=2)  # the player spawns inside the sign: banner and message both up
    assert "banner" in calls and "message" in calls
    tick(app, ["pause"])
    calls.clear()
    tick(app, frames=2)
    assert calls == [], "the pause panel has the banner or a sign behind it"
    tick(app, ["pause"])
    assert app.scenes.current is play


def test_a_sign_at_the_goal_fades_out_before_the_complete_panel(app):
    from game.window.scenes.complete import CompleteScene
    from game.window.scenes.play import FINISH_DELAY
    app.start_level(app.levels[0], fade=False)
    play = app.scenes.current
    tick(app, frames=2)
    assert play.msg  # inside the sign
    goal = play.level.goals[0]
    sign = next(t for t in play.level.triggers if t.props.get("message"))
    sign.x, sign.w = goal.x - 8, goal.w + 16  # the sign now covers the goal as well
    play.session.player.teleport(goal.x + 2, goal.y + goal.h - 14)
    tick(app, frames=2)
    assert play.session.completed
    tick(app, dt=0.1, frames=int(FINISH_DELAY / 0.1) + 4)
    assert isinstance(app.scenes.current, CompleteScene)
    assert play.message_fade == 0.0


def test_replay_complete_shows_the_players_own_best_not_the_word_replay(app, levels):
    from game.window.scenes.complete import CompleteScene
    steps = parse_script((levels / "replays" / "01_start.txt").read_text(), "r")
    play = PlayScene(app, app.levels[0], replay=steps)
    app.progress.complete(app.levels[0].name, 42.0, 0, 0, None)
    done = CompleteScene(app, play)
    canvas = _canvas()
    done.t = 5.0
    done.draw(canvas)
    assert done.is_replay and ("Your best", "0:42.00") in done.rows
    assert all("replay" not in value for _label, value in done.rows)


def test_the_f3_panel_keeps_a_long_sign_inside_it(app):
    app.start_level(app.levels[0], fade=False)
    play = app.scenes.current
    tick(app, frames=2)
    play.session.message = "A very long signpost message that goes on and on well past any panel's edge, " * 2
    canvas = _canvas()
    canvas.fill((0, 0, 0))
    view = play.camera.view(1.0)
    draw_debug(canvas, play.session, 1.0, view, fps=60.0, step_ms=0.1, t_hz=60)
    text = (200, 255, 200)
    xs = [x for x in range(CANVAS_W) for y in range(24, 270) if canvas.get_at((x, y))[:3] == text]
    assert xs and max(xs) - min(xs) < PANEL_W - 4, "panel text drawn outside the panel"


def test_the_f3_panel_goes_to_the_corner_away_from_the_hero_and_stays_put():
    import pygame

    from game.window.render.debug import place_box
    region = pygame.Rect(0, 20, CANVAS_W, 250)
    size = (PANEL_W, 76)
    corner, rect = place_box(size, region, pygame.Rect(60, 60, 10, 14), None)  # hero top-left
    assert corner == 3 and not rect.colliderect(pygame.Rect(60, 60, 10, 14))
    corner, rect = place_box(size, region, pygame.Rect(200, 150, 10, 14), corner)  # wanders, not near
    assert corner == 3
    hero = pygame.Rect(rect.centerx, rect.centery, 10, 14)  # walks into it: it moves away
    corner2, rect2 = place_box(size, region, hero, corner)
    assert corner2 != 3 and not rect2.colliderect(hero)
    for hx in range(0, CANVAS_W, 24):  # anywhere the hero is, the panel does not cover it
        for hy in range(24, 260, 24):
            hero = pygame.Rect(hx, hy, 10, 14)
            _c, r = place_box(size, region, hero, None)
            assert not r.colliderect(hero) and region.contains(r), (hx, hy)


def test_with_f2_open_the_f3_panel_is_never_under_it(app):
    from game.window.tuning import DERIVED, PANEL, TuningPanel
    app.start_level(app.levels[0], fade=False)
    play = app.scenes.current
    tick(app, frames=2)
    app.tuning = TuningPanel(app.feel_path or "feel.toml", app.feel)
    app.tuning.visible = True
    app.debug = True
    canvas = _canvas()
    text = (200, 255, 200)
    for hero_x in (30.0, 250.0, 420.0):
        play.session.player.x = play.camera.view(1.0).origin[0] + hero_x
        play.debug_corner = None
        canvas.fill((0, 0, 0))
        play.draw(canvas)
        pixels = [(x, y) for x in range(CANVAS_W) for y in range(0, 270, 2) if canvas.get_at((x, y))[:3] == text]
        assert pixels, "the F3 panel was not drawn"
        assert not any(PANEL.collidepoint(p) or DERIVED.collidepoint(p) for p in pixels), hero_x
