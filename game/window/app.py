"""The windowed game: ``run_app(args)`` opens the window and runs the main loop.

The loop is deliberately tiny (poll input -> scene update, which runs the fixed steps -> draw with
alpha -> present) so an async wrapper for pygbag is two lines::

    async def main(args):
        app = App(args); app.start()
        while app.running:
            app.frame(); await asyncio.sleep(0)

With no display, ``run_app`` says so in one line and plays the first level's replay headless instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path

import pygame

from engine import FeelConfig

from .input import Input, init_devices, load_bindings
from game.rules.profile import Options, Totals
from .render.canvas import Screen
from .render.canvas import CANVAS_W
from .render.hud import draw_notices
from .render.sprites import ASSETS, Art
from game.files.save import load_progress, save_path, save_progress
from game.files.userfiles import FileProblem, printable
from .scenes.base import SceneManager
from game.files.catalog import discover

__all__ = ["run_app", "App", "headless_replay"]

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_FEEL = ROOT / "feel.toml"


def run_app(args) -> int:
    app = App(args)
    code = app.start()
    if code is not None:
        return code
    while app.running:
        app.frame()
    return app.close()


class _Mute:  # stands in for game.window.audio.Audio until (or if) it cannot load
    muted = True
    music = None

    def play(self, name):
        pass

    def play_music(self, name):
        self.music = name

    def update(self):
        pass

    def duck(self, on):
        pass

    def set_volumes(self, music=None, effects=None):
        pass

    def toggle_mute(self):
        return True


class App:
    def __init__(self, args):
        self.args = args
        self.running = False
        self.title_choice: str | None = None  # the title menu's last choice: its cursor starts there again
        self.debug = bool(getattr(args, "debug", False))
        self.fps = 0.0
        self._notice: tuple[str, bool, float] | None = None
        self.feel_path = Path(args.feel) if getattr(args, "feel", None) else (
            DEFAULT_FEEL if DEFAULT_FEEL.is_file() and not getattr(args, "default_feel", False) else None)
        self.feel = FeelConfig()
        self.feel_error: str | None = None
        self.watcher = None
        self.tuning = None
        self.levels = []
        self.scenes = SceneManager()
        self._recorded: tuple[str, int] | None = None
        self._first_frame = bool(os.environ.get("TILEFEEL_FIRST_FRAME"))  # for `python -m benchmarks`

    # -- set-up ---------------------------------------------------------------------------------------
    def start(self) -> int | None:
        """Open everything. Returns an exit code to stop now, or None to run the loop."""
        from game.files.feelfile import FeelFileError, load_feel
        if self.feel_path is not None:
            try:
                self.feel = load_feel(self.feel_path)
            except FeelFileError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
        self.levels = discover()
        self.progress, msg = load_progress()  # before the window: its options say how to open it
        self.options, problems = Options.from_json(self.progress.options)
        self.totals, more = Totals.from_json(self.progress.totals)
        said = [i.problem for i in self.levels if i.problem] + ([msg] if msg else []) + \
            [f"{save_path()}: {line}" for line in problems + more]
        try:
            why = _no_display_reason()
            if why is None:
                with _runtime_dir():
                    pygame.display.init()
                why = _virtual_driver_reason()
            if why is None:
                self.screen = Screen(scale=getattr(self.args, "scale", None) or self.options.scale,
                                     fullscreen=bool(getattr(self.args, "fullscreen", False)
                                                     or self.options.fullscreen),
                                     title="tilefeel", icon=ASSETS / "icon.png")
        except pygame.error as exc:
            why = str(exc).strip() or "SDL could not open a window"
        if why is not None:
            level, steps = self._start_request()
            what = "the replay" if steps is not None else "the first level's replay"
            print(f"no display available ({why}); playing {what} headless instead")
            pygame.display.quit()
            if level is not None and steps is not None:
                return headless_replay(self.levels, self.feel, start=(Path(level), steps, Path(self.args.replay)))
            return headless_replay(self.levels, self.feel)
        for line in said:
            print(line)
        pygame.key.set_repeat(320, 70)
        init_devices()
        bindings, msg = load_bindings()
        if msg:
            print(msg)
        self.input = Input(bindings)
        self.art = Art()
        self.audio = self._audio()
        self._watch()
        self.clock = pygame.time.Clock()
        self.running = True
        self.scenes = SceneManager(self._first_scene())
        return None

    def _audio(self):
        try:
            from .audio import Audio
            music, effects = self.options.volumes
            return Audio(True, music_volume=music, effects_volume=effects)
        except Exception as exc:  # no audio device, or audio.py missing: play silently
            self.log(f"sound off ({type(exc).__name__}: {str(exc).strip()})")
            return _Mute()

    def _watch(self) -> None:
        if self.feel_path is None:
            return
        try:
            from game.files.hotreload import FeelWatcher
            self.watcher = FeelWatcher(self.feel_path, self.feel)
        except Exception as exc:
            self.log(f"feel hot reload off: {exc}")
        try:
            from .tuning import TuningPanel
            self.tuning = TuningPanel(self.feel_path, self.feel)
            self.tuning.to_canvas = self.screen.to_canvas
            self.tuning.levels = [info.path for info in self.levels]  # the "levels" strip checks these
        except Exception as exc:
            self.log(f"tuning panel off: {exc}")

    def _first_scene(self):
        """``--level`` / ``--replay`` straight into play (the CLI checked them before the window opened;
        a problem found now is still one line, and the title comes up instead)."""
        from .scenes.title import TitleScene
        level, steps = self._start_request()
        if level is not None:
            scene = self._play_scene(self._info_for(str(level)), steps)
            if not isinstance(scene, str):
                return scene
            print(f"error: {scene}", file=sys.stderr)
        return TitleScene(self)

    def _start_request(self):
        """``(level path, replay steps or None)`` from ``--level`` / ``--replay``, or ``(None, None)``."""
        args = self.args
        level, replay = getattr(args, "level", None), getattr(args, "replay", None)
        if not replay:
            return (Path(level) if level else None), None
        from game.files.inputscript import resolve_script
        try:
            path, script = resolve_script(level, replay)
        except Exception as exc:  # ScriptError / CliError: one line, like headless
            print(f"error: {printable(' '.join(str(exc).split()))}", file=sys.stderr)
            return None, None
        return path, script.steps

    def _info_for(self, path: str):
        p = Path(path).resolve()
        for info in self.levels:
            if info.path.resolve() == p:
                return info
        from game.files.catalog import _peek
        return _peek(p)

    # -- the loop -------------------------------------------------------------------------------------
    def frame(self) -> None:
        dt = self.clock.tick(240 if self.screen.vsync else 120) / 1000.0
        self.fps = self.clock.get_fps()
        self.work(dt)
        self.screen.present()
        if self._first_frame:  # TILEFEEL_FIRST_FRAME set: say when the first frame was shown, and stop
            print(f"first frame drawn at {time.time():.6f}", flush=True)
            self.quit()

    def work(self, dt: float) -> None:
        """One frame's game work, the present aside: input, the scene (its fixed steps), drawing."""
        self.input.begin_frame()
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.quit()
            elif self.screen.handle(event):
                continue
            elif self.scenes.handle_event(event):
                continue
            elif event.type == pygame.KEYDOWN and self._dev_key(event.key):
                continue
            self.input.handle(event)
        self._poll_feel()
        self.scenes.update(dt, self.input.actions)
        self.sync_music()
        self.draw()

    def draw(self) -> None:
        canvas = self.screen.canvas
        scene = self.scenes.current
        self.scenes.draw(canvas)
        # notices stack top-centre under the HUD, beside the F2 panel (never over it or a sign's box)
        notices = list(scene.notices()) if hasattr(scene, "notices") else []
        left, right = scene.notice_span() if hasattr(scene, "notice_span") else (0, CANVAS_W)
        if self._notice:
            text, error, until = self._notice
            if time.monotonic() < until:
                notices.append((text, error))
            else:
                self._notice = None
        if notices:
            top = scene.notice_top(canvas) if hasattr(scene, "notice_top") else None
            draw_notices(canvas, notices, left=left, right=right, top=top)

    def _dev_key(self, key: int) -> bool:
        if key == pygame.K_F3:
            self.debug = not self.debug
        elif key == pygame.K_F12:
            try:
                path = self.screen.screenshot()
            except (FileProblem, OSError, pygame.error) as exc:  # a full disk, a read-only folder: play on
                self.notice(f"screenshot not saved: {' '.join(str(exc).split())}", error=True)
                return True
            self.notice(f"screenshot saved: {path}")
            print(f"screenshot saved: {path}")
        elif key == pygame.K_m:
            muted = self.audio.toggle_mute()
            self.notice("sound off" if getattr(self.audio, "muted", muted) else "sound on")
        elif key == pygame.K_F5:
            self.reload_feel()
        else:
            return False
        return True

    def close(self) -> int:
        if self.scenes.current is not None:
            self.scenes.current.leave()
        if self._recorded:
            print(f"recorded {self._recorded[1]} steps to {self._recorded[0]}")
        if self.tuning is not None:
            self.tuning.close()
        pygame.quit()
        return 0

    def quit(self) -> None:
        self.running = False

    # -- services for the scenes ----------------------------------------------------------------------
    def log(self, text: str) -> None:
        print(text)

    def notice(self, text: str, *, error: bool = False, seconds: float = 2.5) -> None:
        self._notice = (text, error, time.monotonic() + seconds)

    def play_sound(self, name: str) -> None:
        try:
            self.audio.play(name)
        except Exception:
            pass

    def sync_music(self) -> None:
        """Play the current scene's loop (a crossfade when it changes), lowered while it asks to duck."""
        scene = self.scenes.current
        try:
            if getattr(scene, "music", None):
                self.audio.play_music(scene.music)
            self.audio.duck(bool(getattr(scene, "ducked", False)))
            update = getattr(self.audio, "update", None)  # the music back up once the effects are done
            if update is not None:
                update()
        except Exception as exc:  # music is decoration: say it once, keep playing
            self.log(f"music off ({type(exc).__name__}: {exc})")
            self.audio = _Mute()

    def save_profile(self, options=None, totals=None) -> None:
        """Store new options and/or totals in the progress file."""
        if options is not None:
            self.options = options
            self.progress.options = options.to_json()
        if totals is not None:
            self.totals = totals
            self.progress.totals = totals.to_json()
        err = save_progress(self.progress)
        if err:
            print(err)
            self.notice(err, error=True)
        else:  # the save merged in another game's totals (and perhaps its options): show those
            self.options, _ = Options.from_json(self.progress.options)
            self.totals, _ = Totals.from_json(self.progress.totals)

    def count_play(self, seconds: float, deaths: int) -> None:
        """Add time played and deaths to the game's totals (saved)."""
        if seconds > 0 or deaths > 0:
            self.save_profile(totals=self.totals.plus(seconds, deaths))

    def game_completed(self) -> bool:
        """Every level has been finished at least once (the ending and the title's Credits open)."""
        return bool(self.campaign) and all(self.progress.record(i.name).completions for i in self.campaign)

    @property
    def campaign(self) -> list:
        """The levels of the campaign's chain (not the extra levels dropped into the folder)."""
        return [i for i in self.levels if not i.extra]

    def _poll_feel(self) -> None:
        if self.watcher is None:
            return
        saved = self.tuning.take_saved() if self.tuning is not None else None
        if saved is not None:  # the panel wrote the file itself: not an outside edit to reload
            self.watcher.mark_saved(saved)
        new = self.watcher.poll()
        self.feel_error = self.watcher.error
        if new is not None:
            self.set_feel(new)
            self.notice("feel file reloaded")

    def reload_feel(self) -> None:
        if self.watcher is None:
            return
        new = self.watcher.reload()
        self.feel_error = self.watcher.error
        if new is not None:
            self.set_feel(new)

    def set_feel(self, feel) -> None:
        self.feel = feel
        scene = self.scenes.current
        play = getattr(scene, "play", scene)
        if hasattr(play, "set_feel"):
            play.set_feel(feel)

    # levels and progress
    def first_level(self):
        return self.levels[0] if self.levels else None

    def is_unlocked(self, info) -> bool:
        if info.extra:  # a map dropped into levels/: open from the start
            return True
        first = self.first_level()
        return self.progress.is_unlocked(info.name, first.name if first else None)

    def next_level(self, info):
        names = [i.name for i in self.levels]
        if info.next and info.next in names:
            return self.levels[names.index(info.next)]
        return None

    def continue_level(self):
        """The first unlocked campaign level not yet completed, else the first level."""
        for info in self.campaign:
            if self.is_unlocked(info) and self.progress.record(info.name).completions == 0:
                return info
        return self.first_level()

    def _play_scene(self, info, replay=None, start=None):
        from .scenes.play import PlayScene
        try:
            return PlayScene(self, info, replay=replay, start=start)
        except Exception as exc:  # LevelError and friends: one line, the menu stays
            text = " ".join(str(exc).split())
            if self.debug:
                import traceback
                traceback.print_exc()
            return text or type(exc).__name__

    def open_at(self, path, start) -> str | None:
        """Open the level at ``path`` and play ``start`` (Buttons per step) at once: the F2 strip's "open
        where the search got stuck"."""
        return self.start_level(self._info_for(str(path)), fade=False, start=list(start))

    def start_level(self, info, fade: bool = True, start=None) -> str | None:
        """Play ``info``; ``start`` (Buttons per step) is played at once first (the F2 strip's "open where
        the search got stuck"). Returns the error text when the level does not load."""
        scene = self._play_scene(info, start=start)
        if isinstance(scene, str):
            self.notice(scene, error=True, seconds=6)
            print(f"error: {scene}", file=sys.stderr)
            return scene
        self.scenes.switch(scene, fade=fade)
        return None

    def level_completed(self, play) -> None:
        s = play.session
        nxt = self.next_level(play.info)
        play.new_best = self.progress.complete(play.info.name, play.seconds, s.coins, s.deaths,
                                               nxt.name if nxt else None)
        err = save_progress(self.progress)
        if err:
            print(err)
            self.notice(err, error=True)

    def make_attract(self):
        """The title's backdrop: the first level with a replay file playing it, else the first level
        standing still; None when no level loads."""
        from game.files.inputscript import read_script
        from .scenes.play import PlayScene
        with_replay = [i for i in self.levels if i.replay is not None]
        for info in with_replay + [i for i in self.levels if i.replay is None][:1]:
            try:
                steps = None
                if info.replay is not None:
                    steps = read_script(info.replay).steps
                return PlayScene(self, info, replay=steps, attract=True)
            except Exception as exc:
                self.log(f"attract mode: {' '.join(str(exc).split())}")
        return None

    def write_recording(self, play) -> None:
        path = getattr(self.args, "record", None)
        if not path or play.attract or play.replay is not None or not play.record:
            return
        from game.files.inputscript import format_script
        from game.files.userfiles import write_atomic
        try:  # whole or not at all: a full disk never leaves half a recording
            write_atomic(path, format_script(play.record, level=play.info.name), "recording")
            self._recorded = (str(path), len(play.record))
        except FileProblem as exc:
            print(f"error: {exc}", file=sys.stderr)
            self.notice(str(exc), error=True, seconds=6)


def _no_display_reason() -> str | None:
    """On Linux/BSD with no X11 or Wayland display named and no SDL_VIDEODRIVER chosen, there is
    nothing to open (SDL would fall back to an invisible 'offscreen' window)."""
    if os.environ.get("SDL_VIDEODRIVER") or sys.platform in ("win32", "darwin") \
            or sys.platform.startswith(("emscripten", "wasi")):
        return None
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "neither DISPLAY nor WAYLAND_DISPLAY is set"
    return None


def _virtual_driver_reason() -> str | None:
    """SDL picked an invisible driver by itself (not asked for with SDL_VIDEODRIVER, as tests do)."""
    driver = pygame.display.get_driver()
    if driver in ("offscreen", "dummy") and os.environ.get("SDL_VIDEODRIVER") != driver:
        display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        if display:
            return f"cannot open display {display!r}; SDL found only its '{driver}' video driver"
        return f"SDL found only its '{driver}' video driver"
    return None


@contextlib.contextmanager
def _runtime_dir():
    """With XDG_RUNTIME_DIR unset, SDL's Wayland probe makes libwayland print "error: XDG_RUNTIME_DIR is
    invalid or not set" before we can say anything. For the ``with`` block (SDL video start-up) point it
    at a private empty folder (mode 0700), then put things back as they were: nothing of ours lives
    there, and later users of the variable (audio) see the environment they were started with."""
    if os.environ.get("XDG_RUNTIME_DIR") or not sys.platform.startswith(("linux", "freebsd", "openbsd",
                                                                          "netbsd")):
        yield
        return
    import shutil
    import tempfile
    path = tempfile.mkdtemp(prefix="tilefeel-runtime-")
    os.environ["XDG_RUNTIME_DIR"] = path
    try:
        yield path
    finally:
        os.environ.pop("XDG_RUNTIME_DIR", None)
        shutil.rmtree(path, ignore_errors=True)


def headless_replay(levels, feel, out=None, start=None) -> int:
    """No window: play ``start`` = ``(level path, steps, replay path)``, else the first level that has a
    replay, printing progress once a second and the result."""
    out = out or sys.stdout
    from game.files.inputscript import read_script
    from game.files.levelfile import load_level
    from game.rules.session import Session
    try:
        if start is None:
            info = next((i for i in levels if i.replay is not None), None)
            if info is None:
                print("no level with a replay in levels/replays/; nothing to play", file=out)
                return 0
            start = (info.path, read_script(info.replay).steps, info.replay)
        path, steps, replay = start
        session = Session(load_level(path), feel)
        hz = feel.physics.hz
        level = session.level
        print(f"playing {replay.name} on {level.name} ({level.title}), {len(steps)} steps", file=out)
        for i, buttons in enumerate(steps, 1):
            for ev in session.step(buttons):
                if ev.type in ("checkpoint", "coin", "death", "goal"):
                    print(f"  {ev.step / hz:6.2f} s  {ev.type}{' ' + ev.name if ev.name else ''}", file=out)
            if i % hz == 0:
                p = session.player
                print(f"  {i / hz:6.2f} s  x={p.x:7.1f} y={p.y:7.1f}  coins {session.coins}  "
                      f"deaths {session.deaths}", file=out)
            if session.completed:
                break
        s = session.summary()
        verdict = "completed" if s["completed"] else "not completed"
        print(f"{verdict} in {session.time:.2f} s: {s['coins']}/{len(session.level.coins)} coins, "
              f"{s['deaths']} deaths", file=out)
        print(json.dumps(s), file=out)
        return 0
    except Exception as exc:  # never a traceback from the fallback
        print(f"headless replay failed: {' '.join(str(exc).split())}", file=out)
        return 1
