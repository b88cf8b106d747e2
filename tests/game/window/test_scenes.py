"""The demo's scenes driven headless (dummy video and audio): title -> select -> play -> pause -> complete.

Each test builds a two-level chain in a temp folder (TILEFEEL_LEVELS_DIR) and keeps progress in another
(TILEFEEL_DATA_DIR), then runs the real App a frame or two per scene with synthetic frame times.
"""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import json  # noqa: E402
import shutil  # noqa: E402
from pathlib import Path  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.window import app as app_module  # noqa: E402
from game.window import ui  # noqa: E402
from game.window.app import App, headless_replay  # noqa: E402
from game.files.catalog import discover  # noqa: E402
from game.window.scenes.complete import CompleteScene  # noqa: E402
from game.window.scenes.pause import PauseScene  # noqa: E402
from game.window.scenes.play import FINISH_DELAY, PlayScene  # noqa: E402
from game.window.scenes.select import SelectScene  # noqa: E402
from game.window.scenes.title import TitleScene  # noqa: E402

MAPS = Path(__file__).resolve().parents[2] / "maps"

ROW_EMPTY = ",".join(["0"] * 24)
ROW_FLOOR = ",".join(["1"] * 24)


def _level(title: str, nxt: str | None) -> str:
    rows = [ROW_EMPTY] * 9 + [ROW_FLOOR]
    nxt_prop = f'<property name="next" value="{nxt}"/>' if nxt else ""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="24"
 height="10" tilewidth="16" tileheight="16" infinite="0" backgroundcolor="#336699" nextlayerid="4"
 nextobjectid="20">
 <properties><property name="title" value="{title}"/>{nxt_prop}</properties>
 <tileset firstgid="1" source="test_tiles.tsx"/>
 <layer id="1" name="ground" width="24" height="10"><data encoding="csv">
{(","+chr(10)).join(rows)}
</data></layer>
 <objectgroup id="2" name="objects">
  <object id="1" type="spawn" x="24" y="144"><point/></object>
  <object id="2" name="c" type="coin" x="60" y="136"><point/></object>
  <object id="3" name="sign" type="trigger" x="16" y="112" width="32" height="32">
   <properties><property name="message" value="Hello there, jumper!"/></properties></object>
  <object id="4" name="cp" type="checkpoint" x="100" y="112" width="16" height="32"/>
  <object id="5" name="lift" type="platform" x="200" y="96" width="32" height="8">
   <properties><property name="dx" type="int" value="64"/>
    <property name="speed" type="int" value="40"/></properties></object>
  <object id="6" name="spikes" type="hazard" x="300" y="136" width="32" height="8"/>
  <object id="7" name="goal" type="goal" x="150" y="112" width="16" height="32"/>
 </objectgroup>
</map>
"""


@pytest.fixture
def levels(tmp_path, monkeypatch):
    lv = tmp_path / "levels"
    (lv / "replays").mkdir(parents=True)
    shutil.copy(MAPS / "test_tiles.tsx", lv)
    shutil.copy(MAPS / "test_tiles.png", lv)
    (lv / "01_start.tmx").write_text(_level("Start", "02_end.tmx"))
    (lv / "02_end.tmx").write_text(_level("The End", None))
    (lv / "replays" / "01_start.txt").write_text("# walk to the goal\nlevel 01_start.tmx\n150 right\n")
    monkeypatch.setenv("TILEFEEL_LEVELS_DIR", str(lv))
    monkeypatch.setenv("TILEFEEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TILEFEEL_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("TILEFEEL_SHOTS_DIR", str(tmp_path / "shots"))
    return lv


def _args(**kw):
    base = dict(level=None, feel=None, record=None, replay=None, debug=False, fullscreen=False, scale=1)
    base.update(kw)
    return SimpleNamespace(**base)


@pytest.fixture
def app(levels):
    a = App(_args())
    assert a.start() is None
    yield a
    a.close()


def tick(app, actions=(), dt=1 / 60, frames=1):
    for _ in range(frames):
        app.input.begin_frame()
        app.input.actions = list(actions)
        app.scenes.update(dt, list(actions))
        app.draw()
        actions = ()


def settle(app):
    """Run frames until a fade finished."""
    for _ in range(60):
        if not app.scenes.busy:
            return
        tick(app, dt=0.05)


def key(app, k, down=True):
    app.input.handle(pygame.event.Event(pygame.KEYDOWN if down else pygame.KEYUP, key=k, mod=0, unicode=""))


def test_catalog_follows_next_from_01(levels):
    assert [i.name for i in discover()] == ["01_start.tmx", "02_end.tmx"]
    first = discover()[0]
    assert first.title == "Start" and first.coins == 1 and first.replay is not None


def test_title_runs_the_attract_replay_behind_the_menu(app):
    title = app.scenes.current
    assert isinstance(title, TitleScene)
    assert title.attract is not None
    tick(app, frames=5)
    assert title.attract.session.steps > 0


def test_title_select_play_pause_complete(app):
    tick(app, ["down"])
    tick(app, ["confirm"])
    settle(app)
    select = app.scenes.current
    assert isinstance(select, SelectScene)
    tick(app, ["down"])  # the second level is locked
    tick(app, ["confirm"])
    assert "Locked" in (select.error or "")
    tick(app, ["up"])
    tick(app, ["confirm"])
    settle(app)
    play = app.scenes.current
    assert isinstance(play, PlayScene) and play.info.name == "01_start.tmx"

    key(app, pygame.K_RIGHT)
    tick(app, frames=10)
    assert play.session.player.vx > 0
    key(app, pygame.K_RIGHT, down=False)

    tick(app, ["pause"])
    pause = app.scenes.current
    assert isinstance(pause, PauseScene)
    steps = play.session.steps
    tick(app, frames=3)
    assert play.session.steps == steps  # frozen while paused
    tick(app, ["confirm"])  # Resume
    assert app.scenes.current is play

    goal = play.level.goals[0]
    play.session.player.teleport(goal.x + 2, goal.y + goal.h - 14)
    tick(app, frames=3)
    assert play.session.completed
    tick(app, dt=0.1, frames=int(FINISH_DELAY / 0.1) + 2)
    settle(app)
    done = app.scenes.current
    assert isinstance(done, CompleteScene)
    tick(app, dt=0.2, frames=3)

    saved = json.loads((Path(os.environ["TILEFEEL_DATA_DIR"]) / "progress.json").read_text())
    assert "02_end.tmx" in saved["unlocked"]
    assert saved["levels"]["01_start.tmx"]["completions"] == 1

    tick(app, ["confirm"])  # Next level
    settle(app)
    assert isinstance(app.scenes.current, PlayScene)
    assert app.scenes.current.info.name == "02_end.tmx"


def test_pause_menu_restart_and_level_select(app):
    app.start_level(app.levels[0], fade=False)
    tick(app, ["pause"])
    tick(app, ["down"])
    tick(app, ["confirm"])  # Restart
    settle(app)
    assert isinstance(app.scenes.current, PlayScene)
    tick(app, ["pause"])
    tick(app, ["down"])
    tick(app, ["down"])
    tick(app, ["confirm"])  # Level select
    settle(app)
    assert isinstance(app.scenes.current, SelectScene)


def test_unplugging_a_pad_pauses(app):
    app.start_level(app.levels[0], fade=False)
    tick(app, ["pad_removed"])
    assert isinstance(app.scenes.current, PauseScene)


def test_death_and_respawn_play_their_transition(app):
    app.start_level(app.levels[0], fade=False)
    play = app.scenes.current
    spikes = play.level.hazards[0]
    play.session.player.teleport(spikes.x + 4, spikes.y - 10)
    tick(app, frames=3)
    assert play.session.deaths == 1 and play.iris is not None
    tick(app, frames=30)
    assert not play.session.dead and play.look.visible


def test_signpost_message_and_debug_overlay_draw(app):
    app.start_level(app.levels[0], fade=False)
    play = app.scenes.current
    tick(app, frames=2)
    assert play.session.message == "Hello there, jumper!"
    app.debug = True
    tick(app, frames=2)


def test_developer_keys_screenshot_and_reload(app, levels):
    app.start_level(app.levels[0], fade=False)
    tick(app, frames=2)
    assert app._dev_key(pygame.K_F12)
    assert list(Path(os.environ["TILEFEEL_SHOTS_DIR"]).glob("tilefeel-*.png"))
    play = app.scenes.current
    play.session.player.teleport(60, 100)
    play.reload()
    assert app.scenes.current.session.player.x == 60


def test_level_error_is_one_line_and_keeps_the_menu(app, levels):
    (levels / "01_start.tmx").write_text("<map><broken")
    scene = app.scenes.current
    err = app.start_level(app.levels[0])
    assert err and "\n" not in err
    assert app.scenes.current is scene


def test_replay_and_record(levels, tmp_path):
    rec = tmp_path / "rec.txt"
    a = App(_args(replay=str(levels / "replays" / "01_start.txt"), record=str(rec)))
    assert a.start() is None
    play = a.scenes.current
    assert isinstance(play, PlayScene) and play.replay is not None
    tick(a, frames=20)
    assert play.session.player.x > 20
    a.close()
    b = App(_args(level=str(levels / "01_start.tmx"), record=str(rec)))
    assert b.start() is None
    key(b, pygame.K_RIGHT)
    tick(b, frames=10)
    b.close()
    text = rec.read_text()
    assert "right" in text


def test_no_display_plays_the_replay_headless(levels, monkeypatch, capsys):
    def no_window(*a, **k):
        raise pygame.error("x11 not available")
    monkeypatch.setattr(app_module, "Screen", no_window)
    assert app_module.run_app(_args()) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("no display available (x11 not available)")
    assert any(line.startswith("completed in") for line in out)


def test_headless_replay_without_levels_says_so(capsys):
    from engine import FeelConfig
    assert headless_replay([], FeelConfig()) == 0
    assert "no level" in capsys.readouterr().out


# -- music and sounds: what plays when (a fake mixer records it) -------------------------------------------

class FakeAudio:
    """Records what the game asks the audio for."""

    def __init__(self):
        self.sounds: list[str] = []
        self.music: str | None = None
        self.tracks: list[str | None] = []
        self.ducked = False
        self.volumes = (0.7, 0.8)
        self.muted = False

    def play(self, name):
        from game.window.audio import NAMES
        assert name in NAMES, name
        self.sounds.append(name)

    def play_music(self, name):
        if name != self.music:
            self.music = name
            self.tracks.append(name)

    def duck(self, on):
        self.ducked = bool(on)

    def set_volumes(self, music=None, effects=None):
        self.volumes = (self.volumes[0] if music is None else music, self.volumes[1] if effects is None else effects)

    def toggle_mute(self):
        self.muted = not self.muted
        return self.muted


def frame(app, actions=(), dt=1 / 60, frames=1):
    """tick() plus the app's music sync, as App.frame does."""
    for _ in range(frames):
        tick(app, actions, dt=dt)
        app.sync_music()
        actions = ()


def test_music_follows_the_scenes_and_every_sound_is_used(app):
    fake = app.audio = FakeAudio()
    frame(app)
    assert fake.tracks == ["title"]
    app.start_level(app.levels[0], fade=False)
    frame(app)
    play = app.scenes.current
    assert fake.music == play.music == app.levels[0].music == "meadow" and not fake.ducked
    frame(app, ["pause"])
    assert isinstance(app.scenes.current, PauseScene) and fake.ducked and fake.music == "meadow"
    frame(app, ["pause"])  # resume
    assert app.scenes.current is play and not fake.ducked
    assert fake.sounds.count("pause") == 2  # opening and closing the pause menu
    spikes = play.level.hazards[0]
    play.session.player.teleport(spikes.x + 4, spikes.y - 10)
    frame(app, frames=40)
    assert fake.sounds.index("death") < fake.sounds.index("respawn")
    goal = play.level.goals[0]
    play.session.player.teleport(goal.x + 2, goal.y + goal.h - 14)
    frame(app, frames=3)
    assert "goal" in fake.sounds
    frame(app, dt=0.1, frames=int(FINISH_DELAY / 0.1) + 6)
    assert isinstance(app.scenes.current, CompleteScene) and fake.music == "meadow"
    from game.window.audio import NAMES
    unused = set(NAMES) - set(fake.sounds) - {"coin", "checkpoint", "jump", "land", "menu_move", "menu_confirm",
                                              "stomp", "spring", "crumble", "break",  # (the next tests)
                                              "wall_jump", "wall_slide", "dash", "refill"}
    assert not unused, f"sounds built but never played: {unused}"


def test_levels_take_their_music_by_group_or_from_the_map(tmp_path, monkeypatch):
    from game.window.audio import LOOPS
    folder = tmp_path / "many"
    folder.mkdir()
    shutil.copy(MAPS / "test_tiles.tsx", folder)
    shutil.copy(MAPS / "test_tiles.png", folder)
    names = [f"0{i}_l.tmx" for i in range(1, 6)]
    for i, name in enumerate(names):
        (folder / name).write_text(_level(f"L{i}", names[i + 1] if i + 1 < len(names) else None))
    infos = discover(folder)
    assert [i.music for i in infos] == ["meadow", "meadow", "hills", "hills", "finale"]
    assert all(i.music in LOOPS for i in infos)
    text = _level("Sky", None).replace('<properties>', '<properties><property name="music" value="climb"/>')
    (folder / "05_l.tmx").write_text(text)
    assert discover(folder)[-1].music == "climb"
    (folder / "05_l.tmx").write_text(text.replace('"climb"', '"jazz"'))
    last = discover(folder)[-1]
    assert last.music == "finale" and "map property 'music' is 'jazz'" in last.problem
    assert "\n" not in last.problem and "05_l.tmx" in last.problem


def test_title_demo_player_stays_between_the_logo_and_the_menu(monkeypatch, tmp_path):
    """The shipped first level's replay behind the title: the player is never under the menu row."""
    from game.window.scenes.title import LOGO_BOTTOM, MENU_BAND
    monkeypatch.delenv("TILEFEEL_LEVELS_DIR", raising=False)
    monkeypatch.setenv("TILEFEEL_DATA_DIR", str(tmp_path / "data"))
    a = App(_args())
    assert a.start() is None
    try:
        title = a.scenes.current
        demo = title.attract
        assert demo is not None and demo.replay
        seen = 0
        for _ in range(len(demo.replay) + 60):
            title.update(1 / 60, [])
            if not demo.look.visible:
                continue
            p = demo.session.player
            px, py = p.interpolated(demo.clock.alpha)
            x, feet = demo.camera.view(demo.clock.alpha).at(px + p.w / 2, py + p.h)
            sprite = pygame.Rect(x - 8, feet - 20, 16, 20)
            assert not sprite.colliderect(MENU_BAND), f"hidden by the menu at {demo.session.steps}"
            assert sprite.top >= LOGO_BOTTOM - 2, f"under the tag line at {demo.session.steps}"
            seen += 1
        assert seen > len(demo.replay) * 0.9
    finally:
        a.close()


def test_title_menu_is_a_row_and_offers_options_and_credits_once_the_game_is_done(app):
    title = app.scenes.current
    assert title.menu.horizontal and title.menu.items == ["Play", "Levels", "Options", "Quit"]
    for info in app.levels:
        app.progress.complete(info.name, 10.0, 1, 0, None)
    again = TitleScene(app)
    assert again.menu.items == ["Play", "Levels", "Options", "Credits", "Quit"]


# -- options --------------------------------------------------------------------------------------------

def test_options_change_volumes_at_once_and_are_saved_on_leaving(app, levels):
    from game.window.scenes.options import OptionsScene
    fake = app.audio = FakeAudio()
    frame(app, ["right"])
    frame(app, ["right"])
    frame(app, ["confirm"])  # Options
    settle(app)
    opts = app.scenes.current
    assert isinstance(opts, OptionsScene)
    frame(app, ["left"])  # music 7 -> 6
    assert fake.volumes[0] == pytest.approx(0.6)
    frame(app, ["down"])
    frame(app, ["right"])  # effects 8 -> 9, with a sample to hear it
    assert fake.volumes[1] == pytest.approx(0.9) and fake.sounds[-1] == "coin"
    frame(app, ["down"])
    frame(app, ["right"])  # window scale auto -> 1x
    assert app.screen.window.get_size() == (480, 270)
    frame(app, ["right"])  # 2x
    assert app.screen.window.get_size() == (960, 540)
    for _ in range(5):  # past Fullscreen, Screen shake and the two assist rows
        frame(app, ["down"])
    frame(app, ["confirm"])  # Controls
    assert opts.page == "controls"
    frame(app, ["back"])
    frame(app, ["back"])  # leave: saved
    settle(app)
    assert isinstance(app.scenes.current, TitleScene)
    saved = json.loads((Path(os.environ["TILEFEEL_DATA_DIR"]) / "progress.json").read_text())
    assert saved["options"] == {"music": 6, "effects": 9, "scale": 2, "fullscreen": False, "shake": True,
                                "speed": 100, "invincible": False}
    b = App(_args(scale=None))
    assert b.start() is None
    try:
        assert b.options.music == 6 and b.screen.window.get_size() == (960, 540)
    finally:
        b.close()


def test_options_from_the_pause_menu_return_to_it(app):
    from game.window.scenes.options import OptionsScene
    app.start_level(app.levels[0], fade=False)
    tick(app, ["pause"])
    pause = app.scenes.current
    for _ in range(3):
        tick(app, ["down"])
    tick(app, ["confirm"])
    assert isinstance(app.scenes.current, OptionsScene) and app.scenes.current.ducked
    tick(app, ["back"])
    assert app.scenes.current is pause


def test_the_bindings_page_lists_keys_and_pad_buttons(app):
    from game.window.scenes.options import binding_rows
    rows = {label: (keys, pad) for label, keys, pad in binding_rows(app.input.bindings)}
    assert rows["Jump"] == ("Space / Z / K", "A")
    assert rows["Move left"] == ("Left / A", "D-pad left")
    assert rows["Confirm"][0] == "Return (or jump)"


# -- the ending -----------------------------------------------------------------------------------------

def test_finishing_the_last_level_leads_to_the_ending_with_totals(app):
    from game.window.scenes.ending import EndingScene, game_totals
    fake = app.audio = FakeAudio()
    app.progress.complete(app.levels[0].name, 12.5, 1, 2, app.levels[1].name)
    app.start_level(app.levels[1], fade=False)
    play = app.scenes.current
    spikes = play.level.hazards[0]
    play.session.player.teleport(spikes.x + 4, spikes.y - 10)
    frame(app, frames=30)  # one death
    goal = play.level.goals[0]
    play.session.player.teleport(goal.x + 2, goal.y + goal.h - 14)
    frame(app, frames=3)
    frame(app, dt=0.1, frames=int(FINISH_DELAY / 0.1) + 6)
    done = app.scenes.current
    assert isinstance(done, CompleteScene) and done.menu.items[0] == "The end"
    frame(app, dt=0.2, frames=3)
    frame(app, ["confirm"])
    settle(app)
    ending = app.scenes.current
    assert isinstance(ending, EndingScene)
    frame(app, frames=2)
    assert fake.music == "ending"
    rows = dict(game_totals(app))
    assert rows["Levels finished"] == "2 / 2"
    assert rows["Deaths"] == "1"  # counted when the level was left (the one before was not played here)
    assert rows["Coins found"] == "1 / 2"
    assert app.totals.seconds > 0
    frame(app, dt=0.1, frames=30)  # the credits roll, fireworks go off
    assert ending.roll_offset > 0 and ending.fx.items
    frame(app, ["confirm"])
    settle(app)
    assert isinstance(app.scenes.current, TitleScene) and "Credits" in app.scenes.current.menu.items


def test_credits_open_from_the_title(app):
    from game.window.scenes.ending import EndingScene
    for info in app.levels:
        app.progress.complete(info.name, 10.0, 1, 0, None)
    app.scenes.switch(TitleScene(app), fade=False)
    for _ in range(3):
        tick(app, ["right"])
    tick(app, ["confirm"])
    settle(app)
    assert isinstance(app.scenes.current, EndingScene)


def test_open_at_plays_a_route_at_once_and_hands_over_there(app, levels):
    from engine import Buttons
    from game.files.levelfile import load_level
    from game.rules.session import Session

    route = [Buttons(right=True)] * 25 + [Buttons()] * 5
    assert app.open_at(levels / "01_start.tmx", route) is None
    settle(app)
    play = app.scenes.current
    assert isinstance(play, PlayScene) and play.info.name == "01_start.tmx"
    fresh = Session(load_level(levels / "01_start.tmx"), app.feel)
    for b in route:
        fresh.step(b)
    assert play.session.steps == 30 and play.session.state_hash() == fresh.state_hash()
    assert play.record == route  # a recording made from here still replays from the level's start


def test_a_red_level_picked_in_the_f2_strip_is_opened_by_the_play_scene(app, levels):
    from engine import Buttons

    assert app.start_level(app.levels[1], fade=False) is None  # playing the second level
    assert app.tuning is not None
    app.tuning._open = (levels / "01_start.tmx", (Buttons(right=True),) * 12)  # what pick_level leaves
    tick(app)
    play = app.scenes.current
    assert play.info.name == "01_start.tmx" and play.session.steps >= 12


def test_the_level_objects_events_play_their_sounds(app):
    from game.files.catalog import LevelInfo
    from game.window.scenes.play import PlayScene
    from game.rules.session import GameEvent

    fake = app.audio = FakeAudio()
    path = MAPS / "objects_demo.tmx"
    play = PlayScene(app, LevelInfo(path, path.name, "Objects", None, 2))
    for kind, name in (("stomp", "goomba"), ("spring", "boing"), ("crumble", "ledge"), ("break", "brick")):
        play.on_event(GameEvent(1, kind, name), 0.0)
    assert fake.sounds == ["stomp", "spring", "crumble", "break"]


def test_the_moves_play_their_sounds_and_a_slide_scrapes_at_a_pace(app, monkeypatch):
    """The shaft climbed by wall jumps under the walls feel, in the play scene: each kick sounds (not as a
    jump), the slides ask every step and the mixer's RETRIGGER paces them; a dash and a refill sound too."""
    from engine import Buttons
    from game.files.catalog import LevelInfo
    from game.files.feelfile import load_feel
    from game.files.inputscript import read_script
    from game.rules.session import GameEvent
    from game.window import audio as audio_mod
    from game.window.scenes.play import PlayScene

    fake = app.audio = FakeAudio()
    moves = MAPS / "moves"
    feel = load_feel(moves / "moves.toml")
    monkeypatch.setattr(app, "feel", feel, raising=False)
    path = moves / "shaft.tmx"
    play = PlayScene(app, LevelInfo(path, path.name, "Shaft", None, 0))
    play.session.set_feel(feel)
    kinds = []
    for b in read_script(moves / "shaft.txt").steps:
        events = play.session.step(b)
        kinds += [e.type for e in events]
        for ev in events:
            play.on_event(ev, 0.0)
    assert kinds.count("wall_jump") == fake.sounds.count("wall_jump") >= 3
    assert fake.sounds.count("jump") == kinds.count("jump") == 1  # the floor's jump only
    play = PlayScene(app, LevelInfo(path, path.name, "Shaft", None, 0))
    play.session.set_feel(feel)
    p = play.session.player
    p.teleport(16.0, 100.0)  # in the shaft against its left wall, falling: hold left to slide
    for _ in range(20):
        for ev in play.session.step(Buttons(left=True)):
            play.on_event(ev, 0.0)
    assert fake.sounds.count("wall_slide") >= 15  # asked every sliding step (the mixer paces them)
    gap = moves / "dash_gap.tmx"
    play = PlayScene(app, LevelInfo(gap, gap.name, "Gap", None, 0))
    play.session.set_feel(feel)
    for b in read_script(moves / "dash_gap.txt").steps[:3]:
        for ev in play.session.step(b):
            play.on_event(ev, 0.0)
    assert fake.sounds[-1] == "dash"
    play.on_event(GameEvent(1, "refill", ""), 0.0)
    assert fake.sounds[-1] == "refill"
    assert audio_mod.RETRIGGER["wall_slide"] >= 0.1  # a slide asks every step; the mixer plays one per 0.1 s


def test_the_level_list_counts_the_coins_hidden_in_breakable_objects_and_tiles(tmp_path):
    from game.files.catalog import _peek

    assert _peek(MAPS / "kinds.tmx").coins == 2  # the brick object and one breakable tile with a coin
    assert _peek(MAPS / "objects_demo.tmx").coins == 2
    broken = tmp_path / "k.tmx"  # a tileset that cannot be read: the map's own coins still count
    broken.write_text((MAPS / "kinds.tmx").read_text().replace("kinds_tiles.tsx", "missing.tsx"))
    assert _peek(broken).coins == 1


def test_a_map_outside_the_chain_is_an_extra_level_open_with_its_best_time(levels):
    """A map dropped into the levels folder (not reached by the chain from 01) showed as '3 locked'."""
    (levels / "my_draft.tmx").write_text(_level("My Draft", None))
    infos = discover()
    assert [(i.name, i.extra) for i in infos] == [("01_start.tmx", False), ("02_end.tmx", False),
                                                 ("my_draft.tmx", True)]
    a = App(_args())
    try:
        assert a.start() is None
        draft = infos[2]
        assert a.is_unlocked(a.levels[2]) and not a.is_unlocked(a.levels[1])
        assert [i.name for i in a.campaign] == ["01_start.tmx", "02_end.tmx"]
        assert a.continue_level().name == "01_start.tmx"  # the campaign first, not the draft
        a.progress.complete(draft.name, 12.5, 1, 0, None)
        select = SelectScene(a)
        a.scenes.switch(select)
        settle(a)
        assert a.scenes.current is select and select.rows == [0, 1, None, 2]  # the "Extra" heading before it
        shown = []
        real = ui.draw_text
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(ui, "draw_text", lambda surf, text, *args, **kw: (shown.append(text), real(surf, text, *args, **kw))[1])
            select.draw(a.screen.canvas)
        assert "EXTRA" in shown and "My Draft" in shown and ui.format_time(12.5) in shown
        assert shown.count("locked") == 1  # only the campaign's second level
        tick(a, ["down"])
        tick(a, ["down"])
        assert select.index == 2
        tick(a, ["confirm"])
        settle(a)
        assert isinstance(a.scenes.current, PlayScene) and a.scenes.current.level.name == "my_draft.tmx"
        assert not a.game_completed()  # finishing a draft does not finish the game
    finally:
        a.close()


# -- menus, round 3 ---------------------------------------------------------------------------------------

def test_two_presses_within_one_frame_count_twice(app):
    app.input.begin_frame()
    for _ in range(2):
        key(app, pygame.K_DOWN)
        key(app, pygame.K_DOWN, down=False)
    assert app.input.actions == ["down", "down"]
    app.input.begin_frame()
    key(app, pygame.K_SPACE)  # one press bound to jump (menus: confirm) is one confirm
    assert app.input.actions == ["confirm"]


def test_the_title_cursor_remembers_its_place_after_options(app):
    from game.window.scenes.options import OptionsScene
    frame(app, ["right"])
    frame(app, ["right"])
    frame(app, ["confirm"])  # Options
    settle(app)
    assert isinstance(app.scenes.current, OptionsScene)
    frame(app, ["back"])
    settle(app)
    title = app.scenes.current
    assert isinstance(title, TitleScene) and title.menu.items[title.menu.index] == "Options"


def test_quit_asks_first(app):
    title = app.scenes.current
    for _ in range(3):
        frame(app, ["right"])
    assert title.menu.items[title.menu.index] == "Quit"
    frame(app, ["confirm"])
    assert app.running and title.confirm is not None
    canvas = pygame.Surface((480, 270))
    title.draw(canvas)
    frame(app, ["confirm"])  # the answer starts on No
    assert app.running and title.confirm is None
    frame(app, ["confirm"])
    frame(app, ["back"])  # Esc / Back: no
    assert app.running and title.confirm is None
    frame(app, ["confirm"])
    frame(app, ["right"])
    frame(app, ["confirm"])  # Yes
    assert not app.running


def test_credits_sit_on_a_panel_and_never_show_a_cut_line(app):
    from game.window.scenes import ending
    scene = ending.EndingScene(app)
    canvas = pygame.Surface((480, 270))
    for t in (0.5, 3.0, 7.7, 12.3, 20.0):
        scene.t = t
        scene.draw(canvas)
        y0 = ending.ROLL.bottom - scene.roll_offset
        drawn = [round(y0 + i * 12) for i, (line, _c) in enumerate(ending.CREDITS) if line]
        shown = [y for y in drawn if ending.ROLL.top <= y and y + 8 <= ending.ROLL.bottom]
        assert all(ending.ROLL_PANEL.top < y and y + 8 < ending.ROLL_PANEL.bottom for y in shown)
    from game.window import ui
    assert all(ui.text_width(line) < ending.ROLL_PANEL.w - 8 for line, _c in ending.CREDITS)


def test_assist_options_are_off_by_default_apply_at_once_and_show_with_the_totals(app):
    from game.window.scenes.options import OptionsScene
    assert app.options.speed == 100 and app.options.invincible is False
    app.start_level(app.levels[0], fade=False)
    play = app.scenes.current
    tick(app, frames=30)
    normal = play.session.steps
    opts = OptionsScene(app, back=play)
    app.scenes.switch(opts, fade=False)
    opts.index = opts_rows().index("Game speed")
    for _ in range(7):
        tick(app, ["left"])  # down to the floor: 50 %
    assert opts.values["speed"] == 50 and app.options.speed == 50
    tick(app, ["down"])
    tick(app, ["confirm"])  # Invincible: on
    assert app.options.invincible is True
    tick(app, ["back"])
    assert app.scenes.current is play
    before = play.session.steps
    tick(app, frames=30)
    assert play.session.steps - before == pytest.approx(normal / 2, abs=2)
    assert play.session.invincible
    spikes = next(a for a in play.session.level.hazards)
    p = play.session.player
    p.teleport(spikes.x + 4, spikes.y - p.h + 4)
    deaths = play.session.deaths
    tick(app, frames=10)
    assert play.session.deaths == deaths, "invincible, yet the spikes killed"
    done = CompleteScene(app, play)
    assert ("Assist", "50% speed, invincible") in done.rows
    done.t = 5.0
    done.draw(pygame.Surface((480, 270)))
    saved = json.loads((Path(os.environ["TILEFEEL_DATA_DIR"]) / "progress.json").read_text())
    assert saved["options"]["speed"] == 50 and saved["options"]["invincible"] is True


def _controls(app):
    from game.window.scenes.options import OptionsScene
    opts = OptionsScene(app)
    app.scenes.switch(opts, fade=False)
    opts.index = opts_rows().index("Controls")
    tick(app, ["confirm"])
    assert opts.page == "controls"
    return opts


def opts_rows():
    from game.window.scenes.options import ROWS
    return ROWS


def _event(app, kind, **kw):
    ev = pygame.event.Event(kind, **kw)
    if not app.scenes.handle_event(ev):
        app.input.handle(ev)


def test_rebinding_a_key_swaps_a_conflict_refuses_a_reserved_key_and_saves_keeping_comments(app, levels):
    from game.window.input import config_path
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# my own controls\n[keyboard]\njump = [\"space\", \"z\"]  # both thumbs\n")
    from game.window.input import load_bindings
    app.input.set_bindings(load_bindings()[0])
    opts = _controls(app)
    from game.window.scenes.options import ACTION_NAMES
    jump_row = [a for a, _l in ACTION_NAMES].index("jump")
    opts.cell = (jump_row, 0)
    tick(app, ["confirm"])
    assert opts.capture == ("jump", "keyboard")
    canvas = pygame.Surface((480, 270))
    opts.draw(canvas)
    # (C is free; X is Dash's own key now, and would swap with it)
    _event(app, pygame.KEYDOWN, key=pygame.K_c, mod=0, unicode="c")
    assert opts.capture is None and opts.said == ("Jump: C", False)
    assert app.input.bindings.keys["jump"][0] == pygame.K_c
    text = path.read_text()
    assert "# my own controls" in text and "# both thumbs" in text and 'jump = ["c", "z"]' in text
    tick(app, ["confirm"])  # again, to A: Move left had it, and gets C instead
    _event(app, pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a")
    assert "swapped with Move left" in opts.said[0]
    assert pygame.K_c in app.input.bindings.keys["left"] and pygame.K_a not in app.input.bindings.keys["left"]
    tick(app, ["confirm"])
    _event(app, pygame.KEYDOWN, key=pygame.K_F3, mod=0, unicode="")
    assert opts.said[1] is True and "F3" in opts.said[0]
    assert app.input.bindings.keys["jump"][0] == pygame.K_a
    tick(app, ["confirm"])
    _event(app, pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")  # Esc cancels
    assert opts.capture is None and "cancelled" in opts.said[0]
    # the new key works in play at once: the input maps it
    app.input.begin_frame()
    _event(app, pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a")
    assert app.input.peek_buttons().jump
    # the pad column: B for jump (jump and confirm may share, back may not)
    opts.cell = (jump_row, 1)
    tick(app, ["confirm"])
    _event(app, pygame.CONTROLLERBUTTONDOWN, instance_id=0, button=pygame.CONTROLLER_BUTTON_B)
    assert app.input.bindings.pad["jump"][0] == "b"
    assert "gamepad" in path.read_text() and "# my own controls" in path.read_text()
    # reset to defaults: the file keeps its comments, the actions go back
    opts.cell = (len(ACTION_NAMES), 0)
    tick(app, ["confirm"])
    assert app.input.bindings.keys["jump"][0] == pygame.K_SPACE and app.input.bindings.pad["jump"] == ["a"]
    assert "# my own controls" in path.read_text() and "jump" not in path.read_text().split("[keyboard]")[1]
    opts.draw(canvas)


def test_prompts_follow_the_device_in_use(app):
    assert app.input.device == "keyboard"
    from game.window.input import _Pad
    app.input.pads[0] = _Pad(None, True)  # a pad plugged in
    _event(app, pygame.CONTROLLERBUTTONDOWN, instance_id=0, button=pygame.CONTROLLER_BUTTON_A)
    assert app.input.device == "gamepad"
    from game.window.scenes.title import hint_line
    assert "A jump" in hint_line(app) and "Space" not in hint_line(app)
    key(app, pygame.K_RIGHT)
    assert app.input.device == "keyboard" and "Space" in hint_line(app)


def test_a_level_that_first_grants_a_move_names_it_with_its_button(app, levels):
    """02_end grants the wall jump (its ``moves`` property) and 01_start none: playing 02 shows the new move
    with the key in use (the jump key), and its session plays with the move on under the default feel."""
    end = levels / "02_end.tmx"
    end.write_text(end.read_text().replace('<property name="title" value="The End"/>',
                                           '<property name="title" value="The End"/>'
                                           '<property name="moves" value="wall_slide,wall_jump"/>'))
    app.levels = discover()
    first, second = app.levels
    assert first.moves == () and second.moves == ("wall_slide", "wall_jump")
    play = PlayScene(app, second)
    assert play.session.feel.wall.jump and not app.feel.wall.jump
    assert play.msg and "wall jump" in play.msg and "slide" in play.msg
    assert "[Space]" in play.sign_text and "{jump}" not in play.sign_text
    assert PlayScene(app, first).msg is None  # nothing new there
