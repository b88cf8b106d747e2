"""Playing one level: fixed steps from latched input (or a replay), juice, camera, HUD, dev keys.

Also used behind the title menu as the attract mode (``attract=True``: a replay, no HUD, no sound,
restarting when it ends).
"""

from __future__ import annotations

import math
import time

import pygame

from engine import Buttons, FixedTimestep

from game.rules.camera import Camera, CameraTuning
from game.files.levelfile import load_level
from game.files.levelkinds import MOVES
from game.rules.moves import new_moves
from ..particles import DEATH, DUST, Particles, Squash
from ..render.canvas import CANVAS_H, CANVAS_W
from ..render.debug import draw_debug
from ..render.objects import BlockTiles, draw_level_objects
from ..render.hud import (BANNER_DURATION, BANNER_ROWS, MESSAGE_FADE, MESSAGE_HOLD, NOTICE_TOP, UI_SEE_THROUGH,
                          banner_rect, draw_banner, draw_hud, draw_message, hud_rects, message_rect)
from ..render.tilemap import MapRenderer
from ..render.worlds import draw_ambience
from ..render.world import PlayerLook, draw_level_things, draw_player, spike_strips
from game.rules.session import Session, carry_over
from .base import Scene
from ..prompts import say
from game.files.catalog import LEVEL_MUSIC

__all__ = ["PlayScene", "carry_over"]  # carry_over: from game.rules.session (F5)

NO_BUTTONS = Buttons()
IRIS_CLOSE = 0.28  # s, the death iris closing on the player
HIT_STOP = {"stomp": 3, "death": 4}  # drawn frames the simulation holds still on a stomp and a death (impact)
SHAKE = {"stomp": (2.0, 0.14), "break": (2.0, 0.12), "death": (4.0, 0.3)}  # (px, s) unless Options turn it off
IRIS_OPEN = 0.35  # s, opening again at the respawn point
FINISH_DELAY = 1.4  # s of celebration before the level-complete screen
WARP_AT = 0.35  # s after reaching the goal, the player vanishes into it
PANEL_EASE = 8.0  # 1/s, how fast the view slides aside when the F2 panel opens or closes
PANEL_MARGIN = 72  # px the player keeps at least right of the F2 panel (room for a leftward jump arc)
NEW_MOVE_HOLD = 4.0  # s a new move's line stays up beyond a sign's hold (the player is in the room that teaches it)
UI_FADE_SPEED = 10.0  # 1/s, how fast a HUD pill or the banner turns see-through (and back)
# behind the title the player is kept in the band between the logo and the menu row: standing lower than
# in play, and followed sooner when it jumps or falls
ATTRACT_CAMERA = CameraTuning(ground_bias=44.0, dead_up=28.0, dead_down=52.0, fall_look=12.0, sky=64.0)


class PlayScene(Scene):
    def __init__(self, app, info, *, replay: list | None = None, attract: bool = False, start: list | None = None):
        """``start``: Buttons per step played at once before the player takes over (opening a level where
        the F2 strip's search got stuck)."""
        super().__init__(app)
        self.info = info
        self.attract = attract
        if not attract and getattr(app, "tuning", None) is not None:
            app.tuning.playing = info.path  # the F2 strip checks this level first after a change of feel
        self.replay = replay
        self.replay_i = 0
        self.debug_corner: int | None = None  # where the F3 state panel sits (render.debug.place_box)
        self.assists: list[str] = []  # assist options used in this level ("70% speed", "invincible")
        self.music = getattr(info, "music", None) or LEVEL_MUSIC[0]
        self.level = load_level(info.path, images=True, goal=True)  # LevelError: the caller shows it
        session = Session(self.level, app.feel)
        for buttons in start or ():
            session.step(buttons)
        self._start(session)
        self.record = list(start or ())  # a recording still replays from the level's start
        taught = self.new_moves_text()
        if taught and not attract:  # a move granted for the first time: its button, held a while longer
            self.show_message(taught)
            self.msg_left = -NEW_MOVE_HOLD

    def new_moves_text(self) -> str:
        """What the level grants that the campaign's level before it did not ("" for none): one line per move,
        with its button prompts (``{jump}``, ``{dash}``)."""
        before = next((i for i in getattr(self.app, "levels", ()) if i.next == self.info.name and not i.extra), None)
        return "\n".join("New: " + MOVES[m][2] for m in new_moves(self.level, before))

    def _start(self, session: Session) -> None:
        self.session = session
        if getattr(self, "renderer", None) is None or self.renderer.level is not self.level:
            self.renderer = MapRenderer(self.level, self.app.art)  # a restart keeps its cached pictures
            self.spikes = spike_strips(self.level, self.renderer.has_tile)
            self.block_tiles = BlockTiles(self.renderer, self.level)
        # the rules' camera (what decides which turrets fire) is the one drawn; the title's demo frames its own
        self.camera = Camera(CANVAS_W, CANVAS_H, self.level.width, self.level.height, ATTRACT_CAMERA) \
            if self.attract else session.camera
        p = session.player
        self.camera.snap(p.x + p.w / 2, p.y + p.h / 2)
        self.clock = FixedTimestep(session.world)  # steps at the world's feel.physics.hz, also after a retune
        self.particles = Particles()
        self.squash = Squash()
        self.look = PlayerLook()
        self.reached: set[int] = set()
        self.record: list = []
        self.t = 0.0  # s since the scene started (animations)
        self.finish_t: float | None = None
        self.iris: tuple[str, float, float, float] | None = None  # (mode, age, x, y)
        self.msg: str | None = None  # the signpost message shown (lingers after leaving its trigger)
        self.msg_age = 0.0  # s since it appeared
        self.msg_left = 0.0  # s since the player left its trigger (0 while inside)
        self.view_shift = 0.0  # px the view is slid right of the camera (F2 panel open), eased
        # HUD pills and the level banner turn see-through while a coin or the player is behind them
        self.hud_fades, self.hud_want = [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]
        self.banner_fade = self.banner_want = 1.0
        self.banner_y: int | None = None  # canvas y picked for the banner on its first frame
        self.step_ms = 0.0
        self._collected = set(session.collected)
        self._counted = (session.steps, session.deaths)  # already added to the game's totals
        self._was_ground = p.on_ground
        self._fall_speed = 0.0
        self.hitstop = 0  # drawn frames left in which the fixed steps wait (a stomp's or a death's impact)

    # -- scene hooks ----------------------------------------------------------------------------------
    def enter(self) -> None:
        self.app.input.clear()

    def leave(self) -> None:
        self.app.write_recording(self)
        self.count_play()

    def count_play(self) -> None:
        """Add the time and deaths since the last count to the game's totals (a replay is not play)."""
        if self.attract or self.replay is not None:
            return
        s = self.session
        steps, deaths = s.steps - self._counted[0], s.deaths - self._counted[1]
        self._counted = (s.steps, s.deaths)
        self.app.count_play(steps / self.clock.hz, deaths)

    def handle_event(self, event) -> bool:
        if self.attract:
            return False
        panel = self.app.tuning
        if panel is not None and panel.handle_event(event):
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F5:
            self.reload()
            return True
        return False

    # -- simulation -----------------------------------------------------------------------------------
    def update(self, dt: float, actions: list[str]) -> None:
        app = self.app
        dt = min(dt, 0.1)
        if not self.attract and self.replay is None:  # assist options: the player's own play only
            options = getattr(app, "options", None)
            speed, invincible = getattr(options, "speed", 100), bool(getattr(options, "invincible", False))
            dt *= speed / 100.0  # game speed: everything runs slower, the fixed step stays the same
            self.session.invincible = invincible
            for used in getattr(options, "assists", ()):
                if used not in self.assists:
                    self.assists.append(used)
        self.t += dt
        if not self.attract and self.finish_t is None:
            if "pause" in actions or "pad_removed" in actions:
                from .pause import PauseScene
                app.scenes.switch(PauseScene(app, self), fade=False)
                return
        panel = None if self.attract else app.tuning
        if panel is not None:
            new = panel.changed_feel
            if new is not None:
                app.set_feel(new)
            where = panel.take_open()
            if where is not None:  # a red level in the F2 strip: open it where the search got stuck
                app.open_at(*where)
                return
        if self.hitstop > 0:  # the impact holds: no steps this frame (the simulation only waits, so a
            self.hitstop -= 1  # replay or a recording is step for step the same)
        elif panel is None or not panel.paused:
            n = self.clock.advance(dt)
            if n:
                t0 = time.perf_counter()
                for _ in range(n):
                    self.fixed_step()
                self.step_ms = self.step_ms * 0.9 + (time.perf_counter() - t0) * 1000 / n * 0.1
        if panel is not None:
            panel.update(self.session.given_feel, self.session.world, self.session.player, self.level)
        self.visuals(dt)
        if self.finish_t is not None:
            self.finish_t += dt
            if self.finish_t > WARP_AT and self.look.visible:  # the hero steps into the portal
                p = self.session.player
                self.look.visible = False
                self.particles.ring(p.x + p.w / 2, p.y + p.h / 2, n=24)
                self.particles.sparkle(p.x + p.w / 2, p.y + p.h / 2, 16)
            if self.finish_t >= FINISH_DELAY:
                self.finished()

    def set_feel(self, feel) -> None:
        self.session.set_feel(feel)  # the clock follows the world's feel: a new hz retimes it

    def next_buttons(self):
        if self.replay is not None:
            i = self.replay_i
            self.replay_i += 1
            return self.replay[i] if i < len(self.replay) else NO_BUTTONS
        if self.attract:
            return NO_BUTTONS
        return self.app.input.step_buttons()

    def fixed_step(self) -> None:
        s = self.session
        if s.completed:
            return
        if self.attract and self.replay is not None and self.replay_i >= len(self.replay) + 60:
            self.finish_t = FINISH_DELAY  # replay over: restart it
            return
        buttons = self.next_buttons()
        self.record.append(buttons)
        vy_before = s.player.vy
        events = s.step(buttons)
        p = s.player
        dt = 1.0 / self.clock.hz
        if not s.dead:
            if self.camera is not s.camera:  # (the session updates its own)
                self.camera.update(dt, p.x + p.w / 2, p.y + p.h / 2, p.vx, p.vy, p.on_ground)
            if p.on_ground and abs(p.vx) > 70 and s.steps % 7 == 0:
                self.particles.run_dust(p.x + p.w / 2, p.y + p.h, 1 if p.vx > 0 else -1)
            if self.look.anim == "skid" and s.steps % 3 == 0:  # the feet brake: dust kicked forward
                self.particles.run_dust(p.x + p.w / 2, p.y + p.h, 1 if p.vx > 0 else -1)
        for ev in events:
            self.on_event(ev, vy_before)
        if s.message and not s.completed:  # sampled every step, so a sign only brushed in mid-jump shows
            self.show_message(s.message)

    def show_message(self, message: str) -> None:
        """The player is inside a signpost trigger this step: show its message (another sign's replaces
        the current one at once) and restart the linger."""
        if message != self.msg:
            self.msg, self.msg_age = message, 0.0
        self.msg_left = 0.0

    @property
    def sign_text(self) -> str:
        """The sign's message with its prompts for the device in use (keys, or pad buttons)."""
        return say(self.app, self.msg or "")

    @property
    def message_fade(self) -> float:
        """1 while the message is fully shown .. 0 once it has faded out after leaving the sign."""
        if self.msg is None:
            return 0.0
        return max(0.0, min(1.0, 1.0 - (self.msg_left - MESSAGE_HOLD) / MESSAGE_FADE))

    def on_event(self, ev, vy_before: float) -> None:
        s, p, fx, sfx = self.session, self.session.player, self.particles, self.sound
        feet = (p.x + p.w / 2, p.y + p.h)
        mid = (p.x + p.w / 2, p.y + p.h / 2)
        kind = ev.type
        if kind == "jump":
            self.look.took_off()
            self.squash.jump()
            fx.jump_dust(*feet)
            sfx("jump")
        elif kind == "wall_jump":  # (a wall jump gives this instead of "jump")
            self.squash.jump()
            sfx("wall_jump")
        elif kind == "dash":
            sfx("dash")
        elif kind == "wall_slide":  # every sliding step: the mixer paces the scrape (RETRIGGER)
            sfx("wall_slide")
        elif kind == "refill":
            refills = s.refills
            for i, spec in enumerate(refills.specs):
                if spec.name == ev.name and refills.used[i] == s.world.steps:
                    x, y, w, h = refills.boxes[i]
                    fx.sparkle(x + w / 2, y + h / 2, 10)
            sfx("refill")
        elif kind == "land":
            strength = min(1.0, max(0.0, vy_before) / 320)
            if strength > 0.15:
                self.squash.land(strength)
                fx.land_dust(*feet, strength)
                self.look.landed()
                sfx("land")
        elif kind == "coin":
            for coin in s.level.coins:
                if coin.id in s.collected and coin.id not in self._collected:
                    fx.sparkle(coin.x + coin.w / 2, coin.y + coin.h / 2, 12)
            self._collected = set(s.collected)
            sfx("coin")
        elif kind == "stomp":
            self.squash.jump()
            fx.land_dust(*feet, 1.0)
            self.shake("stomp")
            self.hitstop = max(self.hitstop, HIT_STOP["stomp"])
            sfx("stomp")
        elif kind == "spring":
            self.squash.jump()
            fx.jump_dust(*feet)
            sfx("spring")
        elif kind in ("break", "crumble"):
            blocks, step = s.blocks, s.world.steps
            for spec, when in [*zip(blocks.breakables, blocks.broken, strict=True),
                               *zip(blocks.crumbles, blocks.fell, strict=True)]:
                if when == step and spec.name == ev.name:
                    fx.burst(spec.x + spec.w / 2, spec.y + spec.h / 2, DUST, 10)
                    if getattr(spec, "coin", False):
                        fx.sparkle(spec.x + spec.w / 2, spec.y - 4, 14)
            if kind == "break":
                self.shake("break")
            sfx(kind)
        elif kind == "checkpoint":
            if s.checkpoint is not None:
                self.reached.add(s.checkpoint.id)
                cp = s.checkpoint
                fx.ring(cp.x + cp.w / 2, cp.y + cp.h - 10, n=16)
            sfx("checkpoint")
        elif kind == "death":
            fx.burst(*mid, DEATH, 30)
            self.shake("death")
            self.hitstop = max(self.hitstop, HIT_STOP["death"])
            self.look.died()
            self.iris = ("close", 0.0, *mid)
            self.msg = None
            sfx("death")
        elif kind == "respawn":
            self.look.respawned()
            self.camera.snap(*mid)
            self.squash.land(0.8)
            self.iris = ("open", 0.0, *mid)
            fx.ring(*mid, n=14)
            sfx("respawn")
        elif kind == "goal":
            self.squash.jump()
            for i in range(4):
                fx.sparkle(mid[0], mid[1] - 4 * i, 12)
            self.finish_t = 0.0
            if self.msg is not None:  # a sign at the goal fades out during the celebration
                self.msg_left = max(self.msg_left, MESSAGE_HOLD)
            sfx("goal")
            if not self.attract and self.replay is None:  # a replay is not the player's progress
                self.app.level_completed(self)

    def shake(self, what: str) -> None:
        """Shake the view for a stomp, a break or a death, unless the player turned shaking off."""
        if getattr(getattr(self.app, "options", None), "shake", True):
            self.camera.shake(*SHAKE[what])

    def sound(self, name: str) -> None:
        if not self.attract:
            self.app.play_sound(name)

    def visuals(self, dt: float) -> None:
        self.particles.update(dt)
        self.squash.update(min(dt, 1 / 30))
        self.look.update(dt, self.session.player)
        if self.iris is not None:
            mode, age, x, y = self.iris
            age += dt
            self.iris = None if mode == "open" and age >= IRIS_OPEN else (mode, age, x, y)
        if self.session.message and not self.session.completed:
            self.show_message(self.session.message)
        elif self.msg is not None:
            self.msg_left += dt
            if self.msg_left >= MESSAGE_HOLD + MESSAGE_FADE:
                self.msg = None
        self.msg_age += dt
        k = 1.0 - math.exp(-UI_FADE_SPEED * dt)
        self.hud_fades = [f + (w - f) * k for f, w in zip(self.hud_fades, self.hud_want, strict=True)]
        self.banner_fade += (self.banner_want - self.banner_fade) * k
        panel = None if self.attract else self.app.tuning
        want = 0.0
        if panel is not None and panel.visible:
            # slide the view right so the player sits in the uncovered part; more where the camera is
            # held by the map's left edge (level start), so the player is never left under the panel
            p = self.session.player
            on_screen = p.x + p.w / 2 - self.camera.view(self.clock.alpha).x
            want = max(panel.view_shift, panel.free_left + PANEL_MARGIN - on_screen)
        self.view_shift += (want - self.view_shift) * (1.0 - math.exp(-PANEL_EASE * dt))
        if abs(want - self.view_shift) < 0.5:
            self.view_shift = want

    def finished(self) -> None:
        if self.attract:
            self.restart()
            return
        from .complete import CompleteScene
        self.app.scenes.switch(CompleteScene(self.app, self), fade=True)
        self.finish_t = None

    def restart(self) -> None:
        """Start the level over (attract mode loops this way; no reload from disk)."""
        self.replay_i = 0
        self._start(Session(self.level, self.app.feel))

    @property
    def seconds(self) -> float:
        return self.session.time

    # -- developer keys -------------------------------------------------------------------------------
    def reload(self) -> None:
        """F5: re-read the feel file and the level file and carry on the same run in the new level: time,
        steps, deaths, collected coins and the respawn checkpoint (matched by object id), the player's
        position, velocity and facing, and the camera are kept. A level that fails to load is shown as a
        notice and the old one keeps playing."""
        app = self.app
        app.reload_feel()
        if self.session.completed:  # celebrating: the feel is reloaded, the level is done
            return
        try:
            level = load_level(self.info.path, images=True, goal=True)
        except Exception as exc:  # LevelError: show it, keep playing the old one
            app.notice(" ".join(str(exc).split()) or type(exc).__name__, error=True, seconds=6)
            return
        was_dead = self.session.dead
        self.level = level
        self.session = carry_over(self.session, level, app.feel)
        if not self.attract:
            self.camera = self.session.camera
        self.renderer = MapRenderer(level, app.art)
        self.spikes = spike_strips(level, self.renderer.has_tile)
        self.block_tiles = BlockTiles(self.renderer, level)
        self.camera.resize_map(level.width, level.height)
        self._collected = set(self.session.collected)
        self.reached = {cp.id for cp in level.checkpoints if cp.id in self.reached}
        if was_dead:  # reloaded while dead: back at the respawn point
            p = self.session.player
            self.look.respawned()
            self.iris = ("open", 0.0, p.x + p.w / 2, p.y + p.h / 2)
            self.camera.snap(p.x + p.w / 2, p.y + p.h / 2)
        app.notice(f"reloaded {level.name} and the feel file")

    # -- drawing --------------------------------------------------------------------------------------
    def draw(self, canvas: pygame.Surface, overlays: bool = True) -> None:
        """The level, the HUD and (``overlays``) the level banner and a sign's message: a pause or
        level-complete panel draws the level without them, as they would sit behind it."""
        alpha = self.clock.alpha
        view = self.camera.view(alpha)
        if self.view_shift:  # the F2 panel covers the left: show the player in the part right of it
            view = view.shifted(round(self.view_shift))
        cam = view.origin
        s = self.session

        self.block_tiles.sync(s.blocks)

        def things(surf):
            draw_level_things(surf, self.app.art, s, alpha, view, self.t, self.reached, self.spikes)
            draw_level_objects(surf, self.app.art, s, alpha, view, self.t)
            if self.look.visible:
                draw_player(surf, self.app.art, s.player, self.look, self.squash, alpha, view)
            self.particles.draw(surf, *cam, self.app.art.dust)

        self.renderer.draw(canvas, cam[0], cam[1], self.t, things)
        draw_ambience(canvas, self.level.world, view.x, view.y, self.t)
        if self.iris is not None:
            self._draw_iris(canvas, view)
        if self.attract:
            return
        app = self.app
        if app.debug:
            region = None
            if self._panel_open():  # the part of the canvas the F2 panel leaves free
                panel = app.tuning
                region = pygame.Rect(panel.free_left, 20, CANVAS_W - panel.free_left, panel.free_bottom - 20)
            self.debug_corner = draw_debug(canvas, s, alpha, view, fps=app.fps, step_ms=self.step_ms,
                                           t_hz=self.clock.hz, region=region, corner=self.debug_corner)
        seen = self.seen_rects(view, alpha)
        stats = dict(coins=s.coins, coins_total=s.coins_total, seconds=self.seconds, deaths=s.deaths)
        self.hud_want = [UI_SEE_THROUGH if r.collidelist(seen) >= 0 else 1.0 for r in hud_rects(CANVAS_W, **stats)]
        draw_hud(canvas, app.art, t=self.t, fades=self.hud_fades, **stats)
        if overlays and self.t < BANNER_DURATION:
            title = self.level.title or self.info.title
            if self.banner_y is None:  # the first row where it hides no coin and not the player
                self.banner_y = next((y for y in BANNER_ROWS if banner_rect(canvas, title, y).collidelist(seen) < 0),
                                     BANNER_ROWS[0])
            self.banner_want = UI_SEE_THROUGH if banner_rect(canvas, title, self.banner_y).collidelist(seen) >= 0 \
                else 1.0
            draw_banner(canvas, title, self.t, y=self.banner_y, fade=self.banner_fade)
        if overlays and self.msg:
            draw_message(canvas, self.sign_text, self.msg_age, fade=self.message_fade, **self._message_place())
        if app.tuning is not None:
            app.tuning.draw(canvas, view)

    def seen_rects(self, view, alpha: float) -> list[pygame.Rect]:
        """Canvas rects of what the HUD and the banner must not hide: coins still to collect and the
        player (a little larger than their sprites, for the coins' bob and the player's squash)."""
        s = self.session
        out = []
        for c in s.level.coins:
            if c.id not in s.collected:
                x, y = view.at(c.x + c.w / 2, c.y + c.h / 2)
                if -8 < x < CANVAS_W + 8 and -8 < y < CANVAS_H + 8:
                    out.append(pygame.Rect(x - 8, y - 9, 16, 18))
        if self.look.visible:
            p = s.player
            px, py = p.interpolated(alpha)
            x, y = view.at(px + p.w / 2, py + p.h)
            out.append(pygame.Rect(x - 9, y - 24, 18, 24))
        return out

    # -- where the app puts its notices (game.window.app.App.draw) ---------------------------------------------
    def notice_span(self) -> tuple[int, int]:
        """The canvas columns not covered by the F2 panel."""
        if self._panel_open():
            return self.app.tuning.free_left, CANVAS_W
        return 0, CANVAS_W

    def _panel_open(self) -> bool:
        return not self.attract and self.app.tuning is not None and self.app.tuning.visible

    def _message_place(self) -> dict:
        """The sign box: bottom centre; with the F2 panel open, at the top of the part right of it (the
        player and the jump arcs are in the middle, the derived-values box at the bottom right)."""
        left, right = self.notice_span()
        return dict(left=left, right=right, top=NOTICE_TOP) if self._panel_open() else {}

    def notice_top(self, canvas) -> int:
        """Canvas y where the app's notices start: under the HUD, or under the sign box when that is
        up there too (F2 panel open)."""
        if self.msg and self._panel_open():
            return message_rect(canvas, self.sign_text, **self._message_place()).bottom + 3
        return NOTICE_TOP

    def notices(self) -> list[tuple[str, bool]]:
        """Lines this scene wants shown with the app's notices: the feel file's error, replay over."""
        out = []
        if self.attract:
            return out
        if self.replay is not None and self.replay_i >= len(self.replay) and not self.session.completed:
            out.append(("replay over", False))
        if self.app.feel_error:
            out.append((self.app.feel_error, True))
        return out

    def _draw_iris(self, canvas, view) -> None:
        mode, age, x, y = self.iris
        if mode == "close":
            k = max(0.0, 1.0 - age / IRIS_CLOSE)
        else:
            k = min(1.0, age / IRIS_OPEN)
        r = round(k * k * 300)
        shade = pygame.Surface(canvas.get_size(), pygame.SRCALPHA)
        shade.fill((12, 8, 20, 255))
        if r > 0:
            pygame.draw.circle(shade, (0, 0, 0, 0), view.at(x, y), r)
        canvas.blit(shade, (0, 0))
