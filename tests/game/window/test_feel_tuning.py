"""The F2 tuning panel and its jump preview (headless)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import tomllib  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from engine import Buttons, Character, FeelConfig, Path as Route, Platform, TileGrid, World  # noqa: E402
from game.files.feelfile import DEFAULT_FEEL_PATH, load_feel  # noqa: E402
from game.window.tuning import DERIVED, PANEL, SLIDER, TuningPanel, jump_buttons, predict_arcs  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]

LEVEL = "\n".join([
    "........................................",
    "........................................",
    "........................................",
    "........................................",
    "........................................",
    "........................................",
    "...................####.................",
    "........................................",
    "........................................",
    "..............====......................",
    "........................................",
    "........................................",
    "##########################......########",
    "##########################......########",
])


def _world(x=40.0, feel=None):
    world = World(TileGrid.from_ascii(LEVEL), feel=feel)
    player = world.add(Character(x, 12 * 16 - 14))
    world.step()  # settle on the floor
    assert player.on_ground
    return world, player


def _fly(world, player, n, direction, tap):
    points = [(player.x, player.y)]
    for i in range(n):
        world.step({player: jump_buttons(i, direction, tap)})
        points.append((player.x, player.y))
    return points


# -- the jump preview ------------------------------------------------------------------------------------

@pytest.mark.parametrize("run_up", [0, 8, 40])
@pytest.mark.parametrize("direction", [1, -1, 0])
def test_predicted_arcs_equal_the_arcs_actually_flown(run_up, direction):
    world, player = _world(x=150.0)
    for _ in range(run_up):
        world.step(Buttons(right=direction > 0, left=direction < 0))
    held, tapped = predict_arcs(world, player, direction=direction)
    assert len(held) > 20 and len(tapped) > 5
    assert min(y for _x, y in held) < min(y for _x, y in tapped) < player.y
    start = world.clone(), player
    for points, tap in ((held, False), (tapped, True)):
        sim = world.clone()
        me = sim.actors[world.actors.index(player)]
        assert _fly(sim, me, len(points) - 1, direction, tap) == points  # exactly, step by step
    assert start[1] is player and (player.x, player.y) == held[0]  # the real world was not touched


def test_prediction_leaves_the_world_alone():
    world, player = _world()
    before = world.state_hash()
    predict_arcs(world, player, direction=1)
    assert world.state_hash() == before


def test_predicted_arc_ends_on_landing_and_reaches_the_configured_height():
    world, player = _world(x=40.0)
    held, _ = predict_arcs(world, player, direction=0)
    apex = min(y for _x, y in held)
    assert abs((player.y - apex) - world.feel.jump.height) <= 1.5
    assert held[-1][1] == player.y  # back on the floor
    assert len(held) < 120


def test_prediction_with_other_feel_matches_a_flight_with_that_feel():
    world, player = _world(x=150.0)
    floaty = load_feel(ROOT / "presets" / "floaty.toml")
    held, tapped = predict_arcs(world, player, floaty, direction=1)
    assert world.feel == FeelConfig()  # the real world keeps its feel
    world.set_feel(floaty)
    assert _fly(world, player, len(held) - 1, 1, False) == held
    default_held, _ = predict_arcs(*_world(x=150.0), direction=1)
    assert min(y for _x, y in held) < min(y for _x, y in default_held)  # floaty jumps higher


def test_prediction_from_mid_air_uses_coyote_time():
    world, player = _world(x=26 * 16 - 12.0)  # at the edge of the pit
    for _ in range(30):
        world.step(Buttons(right=True))
        if not player.on_ground:
            break
    assert not player.on_ground
    held, _ = predict_arcs(world, player, direction=1)
    assert min(y for _x, y in held) < player.y - 30  # a coyote jump, not a fall
    sim = world.clone()
    me = sim.actors[0]
    assert _fly(sim, me, len(held) - 1, 1, False) == held


def test_prediction_treats_a_held_jump_as_a_fresh_press():
    world, player = _world()
    for _ in range(3):
        world.step(Buttons(jump=True))  # jumps, then keeps holding
    while not player.on_ground:
        world.step(Buttons(jump=True))
    held, _ = predict_arcs(world, player, direction=0)
    assert min(y for _x, y in held) < player.y - 40


def test_prediction_on_a_moving_platform_matches_the_flight():
    world = World(TileGrid.from_ascii(LEVEL))
    lift = world.add(Platform(80, 150, 32, 8, Route([(80, 150), (80, 100)], speed=40)))
    player = world.add(Character(90, 150 - 14))
    for _ in range(5):
        world.step()
    assert player.on_ground and player.ground.platform is lift
    held, tapped = predict_arcs(world, player, direction=1)
    sim = world.clone()
    assert _fly(sim, sim.actors[0], len(tapped) - 1, 1, True) == tapped
    assert _fly(world, player, len(held) - 1, 1, False) == held


def test_direction_defaults_to_motion_then_facing():
    world, player = _world(x=150.0)
    for _ in range(10):
        world.step(Buttons(left=True))
    held, _ = predict_arcs(world, player)
    assert held[-1][0] < held[0][0]


# -- the panel -------------------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _no_preview_throttle(monkeypatch):
    """The every-other-frame throttle depends on machine speed; tests opt in to it explicitly."""
    import game.window.tuning as tuning
    monkeypatch.setattr(tuning, "PREVIEW_BUDGET", float("inf"))


@pytest.fixture
def pg():
    pygame.init()
    pygame.display.set_mode((1, 1))
    yield
    pygame.quit()


@pytest.fixture
def panel(pg, tmp_path):
    path = tmp_path / "feel.toml"
    path.write_text(DEFAULT_FEEL_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    p = TuningPanel(path, load_feel(path))
    p.handle_event(_key(pygame.K_F2))
    return p


def _key(key, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)


def _mouse(kind, pos, button=1):
    if kind == pygame.MOUSEMOTION:
        return pygame.event.Event(kind, pos=pos, rel=(0, 0), buttons=(1, 0, 0))
    return pygame.event.Event(kind, pos=pos, button=button)


def _row_y(panel, dotted):
    from game.window.tuning import LIST_TOP, ROW_H
    return LIST_TOP + (panel.rows.index(("knob", dotted)) - panel.scroll) * ROW_H + 3


def test_f2_toggles_and_hidden_panel_ignores_other_keys(pg, tmp_path):
    p = TuningPanel(tmp_path / "feel.toml")
    assert not p.visible and not p.handle_event(_key(pygame.K_RIGHT))
    assert p.handle_event(_key(pygame.K_F2)) and p.visible and p.keyboard
    assert p.handle_event(_key(pygame.K_ESCAPE)) and not p.visible


def test_arrows_select_and_change_by_a_step(panel):
    assert panel.selected_knob() == "jump.height"
    assert panel.handle_event(_key(pygame.K_RIGHT))
    new = panel.changed_feel
    assert new.jump.height == 49.0 and panel.feel is new
    assert panel.changed_feel is None  # reading clears it
    panel.handle_event(_key(pygame.K_RIGHT, pygame.KMOD_LSHIFT))
    assert panel.feel.jump.height == 59.0
    panel.handle_event(_key(pygame.K_DOWN))
    assert panel.selected_knob() == "jump.time_to_apex"
    panel.handle_event(_key(pygame.K_LEFT))
    assert panel.feel.jump.time_to_apex == 0.39  # no float noise
    panel.handle_event(_key(pygame.K_LEFT, pygame.KMOD_LCTRL))
    assert panel.feel.jump.time_to_apex == 0.389


def test_selection_skips_group_rows_and_wraps(panel):
    panel.handle_event(_key(pygame.K_UP))
    assert panel.selected_knob() == "run.air_turn_accel"
    for _ in range(30):
        panel.handle_event(_key(pygame.K_DOWN))
        assert panel.rows[panel.selected][0] == "knob"
    panel.handle_event(_key(pygame.K_PAGEDOWN))
    assert panel.selected_knob().split(".")[1] in {"hz", "max_speed", "height", "gravity_multiplier",
                                                  "drop_through_time"}


def test_values_stop_at_the_engine_limits(panel):
    for _ in range(100):
        panel.handle_event(_key(pygame.K_RIGHT, pygame.KMOD_SHIFT))
    assert panel.feel.jump.height == 400.0


def test_int_knob_stays_an_int(panel):
    panel.selected = panel.rows.index(("knob", "physics.hz"))
    panel.handle_event(_key(pygame.K_RIGHT))
    assert panel.feel.physics.hz == 61 and isinstance(panel.feel.physics.hz, int)


def test_save_writes_back_keeping_comments(panel):
    panel.handle_event(_key(pygame.K_RIGHT, pygame.KMOD_SHIFT))  # height 58
    assert panel.modified("jump.height")
    assert panel.handle_event(_key(pygame.K_s, pygame.KMOD_LCTRL))
    text = panel.path.read_text(encoding="utf-8")
    assert "height            = 58.0  # px, apex of a held jump from flat ground [16..128]" in text
    assert text.startswith("# feel.toml -- every knob")
    assert tomllib.loads(text)["jump"]["height"] == 58.0
    assert not panel.modified("jump.height") and "saved 1 value" in panel.status


def test_backspace_and_reset_go_back_to_the_file(panel):
    panel.handle_event(_key(pygame.K_RIGHT))
    panel.handle_event(_key(pygame.K_DOWN))
    panel.handle_event(_key(pygame.K_RIGHT))
    panel.handle_event(_key(pygame.K_BACKSPACE))
    assert panel.feel.jump.time_to_apex == 0.4 and panel.feel.jump.height == 49.0
    assert panel.changed_feel is not None
    panel.handle_event(_key(pygame.K_r, pygame.KMOD_CTRL))
    assert panel.feel == FeelConfig() and panel.changed_feel == FeelConfig()


def test_reset_picks_up_an_edited_file_and_reports_a_broken_one(panel):
    panel.path.write_text("[jump]\nheight = 70.0\n", encoding="utf-8")
    panel.reset_to_file()
    assert panel.feel.jump.height == 70.0
    panel.path.write_text("[jump]\nheight = 7000.0\n", encoding="utf-8")
    assert not panel.reset_to_file()
    assert panel.status_error and "jump.height: 7000.0 is out of range" in panel.status
    assert panel.feel.jump.height == 70.0


def test_pause_toggle_only_pauses_while_visible(panel):
    assert not panel.paused
    panel.handle_event(_key(pygame.K_p))
    assert panel.paused
    panel.handle_event(_key(pygame.K_F2))
    assert not panel.paused  # hidden panel never holds the game
    panel.handle_event(_key(pygame.K_F2))
    assert panel.paused


def test_mouse_click_and_drag_on_a_slider(panel):
    y = _row_y(panel, "run.max_speed")
    assert panel.handle_event(_mouse(pygame.MOUSEBUTTONDOWN, (SLIDER[1], y)))
    assert panel.selected_knob() == "run.max_speed" and panel.feel.run.max_speed == 300.0
    panel.handle_event(_mouse(pygame.MOUSEMOTION, (SLIDER[0], y + 20)))  # dragging keeps the knob
    assert panel.feel.run.max_speed == 60.0
    mid = (SLIDER[0] + SLIDER[1]) // 2
    panel.handle_event(_mouse(pygame.MOUSEMOTION, (mid, y)))
    assert 170 <= panel.feel.run.max_speed <= 190 and panel.feel.run.max_speed % 5 == 0
    panel.handle_event(_mouse(pygame.MOUSEBUTTONUP, (mid, y)))
    before = panel.feel
    panel.handle_event(_mouse(pygame.MOUSEMOTION, (SLIDER[0], y)))
    assert panel.feel is before


def test_mouse_wheel_over_a_value_changes_it(panel):
    y = _row_y(panel, "fall.max_speed")
    panel.handle_event(_mouse(pygame.MOUSEMOTION, (SLIDER[0] + 5, y)))
    assert panel.handle_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False))
    assert panel.feel.fall.max_speed == 380.0 and panel.selected_knob() == "fall.max_speed"


def test_mouse_buttons(panel):
    panel.set_value("jump.height", 60.0)
    rect = panel.draw(pygame.Surface((480, 270))) or panel._buttons
    assert panel.handle_event(_mouse(pygame.MOUSEBUTTONDOWN, rect["save"].center))
    assert load_feel(panel.path).jump.height == 60.0
    panel.handle_event(_mouse(pygame.MOUSEBUTTONDOWN, rect["pause"].center))
    assert panel.paused


def test_clicks_outside_the_panel_go_to_the_game(panel):
    assert not panel.handle_event(_mouse(pygame.MOUSEBUTTONDOWN, (300, 200)))
    assert panel.handle_event(_mouse(pygame.MOUSEBUTTONDOWN, (PANEL.x + 3, PANEL.y + 3)))


def test_to_canvas_maps_window_coordinates(panel):
    panel.to_canvas = lambda pos: (pos[0] // 3, pos[1] // 3)
    y = _row_y(panel, "run.max_speed")
    panel.handle_event(_mouse(pygame.MOUSEBUTTONDOWN, (SLIDER[1] * 3, y * 3)))
    assert panel.feel.run.max_speed == 300.0


def test_update_adopts_values_from_a_hot_reload(panel):
    reloaded = FeelConfig().with_value("jump.height", 64.0)
    panel.update(reloaded)
    assert panel.feel is reloaded and panel.changed_feel is None


def test_update_computes_the_preview_only_when_visible(panel):
    world, player = _world(x=150.0)
    panel.update(world.feel, world, player)
    held, tapped = panel.arcs
    assert (held, tapped) == predict_arcs(world, player, world.feel)
    panel.handle_event(_key(pygame.K_F2))
    world.step(Buttons(right=True))
    panel.update(world.feel, world, player)
    assert panel.arcs[0] == held  # hidden: nothing recomputed


def test_the_preview_follows_edits(panel):
    world, player = _world(x=150.0)
    panel.update(world.feel, world, player)
    low = min(y for _x, y in panel.arcs[0])
    panel.handle_event(_key(pygame.K_RIGHT, pygame.KMOD_SHIFT))
    panel.update(world.feel, world, player)  # the game has not applied it yet: the panel's edit wins
    assert min(y for _x, y in panel.arcs[0]) < low - 8


def test_draws_neatly_onto_a_480x270_canvas(panel, tmp_path):
    world, player = _world(x=150.0)
    for _ in range(12):
        world.step(Buttons(right=True))
    panel.handle_event(_key(pygame.K_RIGHT))
    panel.update(world.feel, world, player)
    canvas = pygame.Surface((480, 270))
    canvas.fill((90, 140, 200))
    panel.draw(canvas, (0, 0))
    out = tmp_path / "panel.png"
    pygame.image.save(canvas, str(out))
    assert out.stat().st_size > 1000
    # the panel box is dark, the derived box too, and the held arc (cyan) is drawn above the player
    assert sum(canvas.get_at((PANEL.x + 3, PANEL.bottom - 3))[:3]) < 150
    assert sum(canvas.get_at((DERIVED.right - 3, DERIVED.y + 30))[:3]) < 150
    apex_x, apex_y = min(panel.arcs[0], key=lambda p: p[1])
    column = [tuple(canvas.get_at((round(apex_x + 5) + dx, round(apex_y + 14) + dy))[:3])
              for dx in (-1, 0, 1) for dy in (-2, -1, 0, 1)]
    assert any(c[2] > 200 and c[1] > 200 and c[0] < 150 for c in column)


def test_hidden_panel_draws_nothing(pg, tmp_path):
    p = TuningPanel(tmp_path / "feel.toml")
    canvas = pygame.Surface((480, 270))
    canvas.fill((1, 2, 3))
    p.draw(canvas)
    assert canvas.get_at((10, 10))[:3] == (1, 2, 3)


def test_an_expensive_preview_refreshes_every_other_frame_and_follows_the_player(panel, monkeypatch):
    import game.window.tuning as tuning
    monkeypatch.setattr(tuning, "PREVIEW_BUDGET", 0.0)
    world, player = _world(x=150.0)
    panel.update(world.feel, world, player)
    first = panel.arcs
    world.step(Buttons(right=True))
    panel.update(world.feel, world, player)
    assert panel.arcs is first  # skipped this frame ...
    canvas = pygame.Surface((480, 270))
    panel.draw(canvas, (0, 0))  # ... and drawn shifted with the player (no crash)
    world.step(Buttons(right=True))
    panel.update(world.feel, world, player)
    assert panel.arcs == predict_arcs(world, player, world.feel)  # ... refreshed the next


def test_key_releases_always_reach_the_game(panel):
    up = pygame.event.Event(pygame.KEYUP, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0)
    assert not panel.handle_event(up)


def test_status_confirmation_fades_but_errors_stay(panel, monkeypatch):
    import game.window.tuning as tuning
    panel.save()
    assert panel.status
    monkeypatch.setattr(tuning, "STATUS_SECONDS", -1.0)
    panel.draw(pygame.Surface((480, 270)))
    assert panel.status == ""
    panel.path.write_text("[jump\n", encoding="utf-8")
    panel.reset_to_file()
    panel.draw(pygame.Surface((480, 270)))
    assert panel.status_error and "line 1: TOML syntax error" in panel.status


def test_ctrl_s_over_a_file_saved_as_latin1_says_why_and_keeps_the_game_running(panel):
    raw = "[jump]\nheight = 60.0 # réglé\n".encode("latin-1")
    panel.path.write_bytes(raw)  # edited outside while the game runs; the panel still holds good values
    panel.handle_event(_key(pygame.K_RIGHT, pygame.KMOD_SHIFT))
    assert panel.handle_event(_key(pygame.K_s, pygame.KMOD_LCTRL))  # was UnicodeDecodeError from save_feel
    assert panel.status.startswith("not saved: ") and "not UTF-8" in panel.status
    assert panel.path.read_bytes() == raw


# -- the levels strip ---------------------------------------------------------------------------------------

class FakeGuard:
    """Stands in for game.guard.feelguard.LevelGuard: no process, results set by the test."""

    def __init__(self, paths):
        from game.guard.feelguard import LevelResult

        self.paths = list(paths)
        self.feels = []
        self.results = [LevelResult("finished", "a.tmx: finished, route 300 steps"),
                        LevelResult("impossible", "b.tmx: impossible: every reachable state explored; stuck at tile 4,7",
                                    (Buttons(right=True),) * 30, 4, 7),
                        LevelResult("checking")]
        self.closed = False

    checking = property(lambda self: any(r.state == "checking" for r in self.results))

    def feel_changed(self, feel):
        self.feels.append(feel)

    def poll(self):
        return False

    def close(self):
        self.closed = True


@pytest.fixture
def strip_panel(tmp_path, monkeypatch):
    import game.window.tuning as tuning

    monkeypatch.setattr(tuning, "LevelGuard", FakeGuard)
    feel_file = tmp_path / "feel.toml"
    feel_file.write_text(DEFAULT_FEEL_PATH.read_text())
    panel = TuningPanel(feel_file)
    panel.levels = [tmp_path / "a.tmx", tmp_path / "b.tmx", tmp_path / "c.tmx"]
    panel.toggle()
    return panel


def _canvas_with(panel):
    canvas = pygame.Surface((480, 270))
    canvas.fill((0, 0, 0))
    panel.draw(canvas)
    return canvas


def test_the_strip_appears_after_a_change_of_feel_and_checks_the_new_values(strip_panel):
    from game.window.tuning import LEVELS

    before = _canvas_with(strip_panel)
    assert strip_panel._guard is None and before.get_at(LEVELS.center)[:3] == (0, 0, 0)
    strip_panel.nudge("jump.height", -10)
    guard = strip_panel._guard
    assert guard.feels == [strip_panel.feel] and strip_panel.feel.jump.height == 38.0
    canvas = _canvas_with(strip_panel)
    boxes = strip_panel._level_boxes
    assert len(boxes) == 3 and all(LEVELS.contains(b) for b in boxes)
    from game.window.tuning import FINISHED, STUCK

    assert canvas.get_at((boxes[0].x + 2, boxes[0].y + 1))[:3] == FINISHED
    assert canvas.get_at((boxes[1].x + 2, boxes[1].y + 1))[:3] == STUCK
    assert strip_panel.changed_feel is not None  # the game takes the edit...
    strip_panel.update(FeelConfig().with_value("jump.height", 60.0))  # ...then a hot reload is a change too
    assert guard.feels[-1].jump.height == 60.0
    strip_panel.close()
    assert guard.closed


def test_clicking_a_red_level_asks_the_game_to_open_it_where_the_search_got_stuck(strip_panel):
    strip_panel.nudge("jump.height", -10)
    _canvas_with(strip_panel)
    box = strip_panel._level_boxes[1]
    assert strip_panel.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=box.center))
    path, route = strip_panel.take_open()
    assert path.name == "b.tmx" and route == (Buttons(right=True),) * 30
    assert strip_panel.take_open() is None  # once
    assert "tile 4,7" in strip_panel.status


def test_the_strip_says_why_a_level_is_red_and_shows_each_finished_levels_difficulty(strip_panel):
    from game.guard.feelguard import LevelResult
    from game.window.tuning import VALUE

    strip_panel.nudge("jump.height", -10)
    guard = strip_panel._guard
    why = "the jump from tile 4,7 to 6,5 needs 32 px of height; this feel reaches 24 px"
    guard.results[0] = guard.results[0]._replace(difficulty=20.0, tight=3)
    guard.results[1] = guard.results[1]._replace(why=why)
    guard.results[2] = LevelResult("finished", "c.tmx: finished", (), difficulty=5.0, tight=0)
    _canvas_with(strip_panel)
    a, b, c = strip_panel._level_boxes
    canvas = _canvas_with(strip_panel)
    assert canvas.get_at((a.x + a.w - 1, a.bottom + 1))[:3] == VALUE  # the hardest: a full-width bar
    assert canvas.get_at((c.x, c.bottom + 1))[:3] == VALUE and canvas.get_at((c.right - 2, c.bottom + 1))[:3] != VALUE
    assert canvas.get_at((b.x, b.bottom + 1))[:3] != VALUE  # not finished: no figure
    from game.window.tuning import _level_note

    assert _level_note(0, guard.results[0]) == "1: 20.0 bits, 3 tight"
    assert strip_panel.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=b.center))
    assert why in strip_panel.status and "tile 4,7" in strip_panel.status


def test_number_keys_pick_a_level_and_green_or_amber_ones_only_say_so(strip_panel):
    strip_panel.nudge("jump.height", -10)
    press = lambda k: strip_panel.handle_event(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0))  # noqa: E731
    assert press(pygame.K_1) and strip_panel.take_open() is None and "finished" in strip_panel.status
    assert press(pygame.K_3) and strip_panel.take_open() is None and "still checking" in strip_panel.status
    assert press(pygame.K_2) and strip_panel.take_open()[0].name == "b.tmx"
    assert press(pygame.K_9) and strip_panel.take_open() is None  # no such level: nothing happens


def test_a_switch_is_toggled_by_the_arrows_and_a_click(panel):
    panel.selected = panel.rows.index(("knob", "dash.enabled"))
    panel.handle_event(_key(pygame.K_RIGHT))
    assert panel.feel.dash.enabled is True and panel.modified("dash.enabled")
    panel.handle_event(_key(pygame.K_RIGHT, pygame.KMOD_SHIFT))
    assert panel.feel.dash.enabled is True
    panel.handle_event(_key(pygame.K_LEFT))
    assert panel.feel.dash.enabled is False
    panel._keep_visible()
    pos = (SLIDER[0] + 4, _row_y(panel, "dash.enabled"))
    panel.handle_event(_mouse(pygame.MOUSEBUTTONDOWN, pos))
    assert panel.feel.dash.enabled is True
    panel.handle_event(_mouse(pygame.MOUSEBUTTONDOWN, pos))
    assert panel.feel.dash.enabled is False
    panel.handle_event(_key(pygame.K_RIGHT))
    assert panel.save()
    assert "enabled           = true   # on/off," in panel.path.read_text(encoding="utf-8")


def test_the_panel_lists_the_new_knobs_and_draws_the_moves(panel):
    names = {ident for kind, ident in panel.rows if kind == "knob"}
    assert {"wall.slide", "wall.jump_reach", "wall.lock_time", "dash.speed", "dash.count"} <= names
    assert ("group", "wall") in panel.rows and ("group", "dash") in panel.rows
    panel._apply(load_feel(ROOT / "presets" / "moves" / "celeste.toml"))
    surface = pygame.Surface((480, 270), pygame.SRCALPHA)
    for dotted in ("wall.slide", "dash.speed"):
        panel.selected = panel.rows.index(("knob", dotted))
        panel._keep_visible()
        panel.draw(surface)
    assert surface.get_at((DERIVED.x + 1, DERIVED.y + 1)).a > 0


# -- the dash preview ----------------------------------------------------------------------------------

@pytest.mark.parametrize("airborne", [False, True])
@pytest.mark.parametrize("direction", [1, -1])
def test_the_predicted_dash_is_the_dash_actually_flown(airborne, direction):
    from game.window.tuning import dash_buttons, predict_dash
    feel = load_feel(ROOT / "presets" / "moves" / "celeste.toml")
    world, player = _world(x=200.0, feel=feel)
    if airborne:
        world.step(Buttons(jump=True))
        for _ in range(5):
            world.step(Buttons(jump=True))
    before = world.state_hash()
    points = predict_dash(world, player, direction=direction)
    assert world.state_hash() == before  # the real world is not touched
    assert len(points) > feel.derived.dash_steps
    flown = [(player.x, player.y)]
    for i in range(len(points) - 1):
        world.step({player: dash_buttons(i, direction)})
        flown.append((player.x, player.y))
    assert flown == points
    assert abs(points[feel.derived.dash_steps][0] - points[0][0]) == pytest.approx(feel.dash.speed * feel.dash.time)


def test_no_dash_preview_without_the_dash_or_with_none_left():
    from game.window.tuning import predict_dash
    world, player = _world()
    assert predict_dash(world, player) == []
    feel = FeelConfig().with_value("dash.enabled", True)
    world, player = _world(feel=feel)
    player.dashes_spent = 1
    assert predict_dash(world, player) == []


# -- round 3: the panel never shows an internal error, and no text runs into other text --------------------

def test_a_preview_that_cannot_run_says_why_in_words(panel):
    world, player = _world()
    panel.update(panel.feel, world, player)
    good = panel.arcs
    assert len(good[0]) > 5 and not panel.preview_note
    world.remove(player)  # dying: the player is out of the world until it respawns
    player.x += 1.0  # (a new state, so the preview tries again)
    panel.update(panel.feel, world, player)
    assert panel.arcs == ([], [])
    assert panel.preview_note == "no jump preview while the player respawns"
    assert "world.add" not in panel.status and not panel.status_error
    canvas = pygame.Surface((480, 270))
    panel.draw(canvas, (0, 0))  # the words are drawn in the status line


def test_a_preview_that_fails_keeps_the_last_good_arcs(panel, monkeypatch):
    import game.window.tuning as tuning
    world, player = _world()
    panel.update(panel.feel, world, player)
    good = panel.arcs

    def broken(*a, **k):
        raise RuntimeError("internal: clone() lost track of body 7")

    monkeypatch.setattr(tuning, "predict_arcs", broken)
    player.x += 1.0
    panel.update(panel.feel, world, player)
    assert panel.arcs == good
    assert "internal" not in panel.status and "clone" not in panel.preview_note
    assert panel.preview_note.startswith("jump preview failed here")


def test_no_knob_name_runs_into_its_value_at_any_value(panel):
    import game.window.tuning as tuning
    from game.files.feelfile import format_value
    from engine.feel import knobs
    for dotted, _t, default, meta in knobs():
        for value in (meta["min"], meta["max"], default):
            text = format_value(dotted, value)
            room = tuning.COL_VALUE_R - tuning.FONT.size(text)[0] - 6 - tuning.COL_NAME
            label = tuning._fit(tuning._label(dotted.split(".", 1)[1]), room)
            assert tuning.FONT.size(label)[0] <= room, (dotted, value, label)
    assert tuning._fit("drop through time", 30).endswith("..")
    assert tuning._fit("hz", 300) == "hz"


def test_the_footer_name_and_its_limits_never_overlap(panel):
    import game.window.tuning as tuning
    canvas = pygame.Surface((480, 270))
    for i, (kind, ident) in enumerate(panel.rows):
        if kind != "knob":
            continue
        panel.selected = i
        panel._draw_panel(canvas)
        name, info = panel._footer(ident)
        assert tuning.FONT.size(name)[0] + 8 + tuning.FONT.size(info)[0] <= PANEL.w - 10, ident
        assert ("switch" if panel.types[ident] == "bool" else "limits") in info  # (an on/off knob has no limits)
        assert name.rstrip(".") and ident.startswith(name.rstrip("."))


def test_the_strip_checks_the_level_being_played_first(strip_panel):
    strip_panel.playing = strip_panel.levels[1]  # set by the play scene
    strip_panel.nudge("jump.height", -10)
    assert strip_panel._guard.focus == strip_panel.levels[1]
