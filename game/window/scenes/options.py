"""Options: music and effects volume, window scale, fullscreen, screen shake, the assists, and the key and
pad bindings.

Reached from the title and the pause menu; changes apply at once (a volume change plays a sample) and
are saved with the progress when leaving. The Controls page rebinds every action for keyboard and pad:
choose a cell, press Enter, press the new key or button (Esc cancels); a key another action of the same
kind had is swapped to it, a reserved one refused with a message; "Reset to defaults" restores them.
Every change is saved to ``input.toml`` at once, keeping the file's comments.
"""

from __future__ import annotations

import pygame

from .. import ui
from game.rules.profile import Options
from ..render.canvas import CANVAS_H, CANVAS_W
from .base import Scene
from ..prompts import say

__all__ = ["OptionsScene", "ROWS", "binding_rows"]

ROWS = ["Music", "Effects", "Window scale", "Fullscreen", "Screen shake", "Game speed", "Invincible", "Controls",
        "Back"]
ASSIST_ROWS = ("Game speed", "Invincible")  # Celeste's Assist Mode: off by default, noted with the totals
PANEL = pygame.Rect((CANVAS_W - 280) // 2, 24, 280, 214)
SPEED_STEP = 10  # percent per Left/Right on Game speed
CAPTURE_SECONDS = 6.0  # s the controls page waits for a new key before giving up
ROW_H = 18
BAR_STEPS = 10  # volume in tenths
ACTION_NAMES = [("left", "Move left"), ("right", "Move right"), ("up", "Up"), ("down", "Down / drop"),
                ("jump", "Jump"), ("dash", "Dash"), ("pause", "Pause"), ("confirm", "Confirm"), ("back", "Back")]
DEV_KEYS = "F2 feel panel   F3 debug   F5 reload   F11 fullscreen   F12 screenshot   M mute"


PAD_NAMES = {"dpleft": "D-pad left", "dpright": "D-pad right", "dpup": "D-pad up", "dpdown": "D-pad down",
             "leftshoulder": "LB", "rightshoulder": "RB", "leftstick": "L3", "rightstick": "R3"}


def _unique(names) -> list[str]:
    return list(dict.fromkeys(names))


def binding_rows(bindings) -> list[tuple[str, str, str]]:
    """(action, keys, pad buttons) for each action, as the bindings page shows them."""
    out = []
    for action, label in ACTION_NAMES:
        keys = _unique(pygame.key.name(k).capitalize() for k in bindings.keys.get(action, []))
        pad = _unique(PAD_NAMES.get(b, b.upper() if len(b) == 1 else b.capitalize())
                      for b in bindings.pad.get(action, []))
        text = " / ".join(keys) or "-"
        if action in ("confirm", "back"):  # menus also take jump for confirm (and pause for back)
            text += " (or " + ("jump" if action == "confirm" else "pause") + ")"
        out.append((label, text, " / ".join(pad) or "-"))
    return out


class OptionsScene(Scene):
    def __init__(self, app, back: Scene | None = None):
        super().__init__(app)
        self.back = back  # the scene to return to (None: the title)
        self.music = getattr(back, "music", None) or "title"
        self.ducked = bool(getattr(back, "ducked", False))
        self.start = app.options
        screen = getattr(app, "screen", None)
        self.max_scale = getattr(screen, "max_scale", 1)
        full = bool(getattr(screen, "fullscreen", app.options.fullscreen))
        self.values = {"music": app.options.music, "effects": app.options.effects,
                       "scale": min(app.options.scale, self.max_scale), "fullscreen": full,
                       "shake": app.options.shake,
                       "speed": app.options.speed, "invincible": app.options.invincible}
        self.index = 0
        self.page = "options"  # or "controls"
        self.cell = (0, 0)  # controls page: (action row or the reset row, 0 keyboard / 1 gamepad)
        self.capture: tuple[str, str] | None = None  # (action, device) waiting for a key or button
        self.capture_t = 0.0
        self.said: tuple[str, bool] | None = None  # the controls page's last message (text, is an error)
        self.t = 0.0
        self._veil = pygame.Surface((CANVAS_W, CANVAS_H), pygame.SRCALPHA)
        self._veil.fill((12, 8, 24, 200))

    # -- input ----------------------------------------------------------------------------------------
    def update(self, dt: float, actions: list[str]) -> None:
        self.t += dt
        if self.capture is not None:
            self.capture_t += dt
            if self.capture_t > CAPTURE_SECONDS:  # nothing pressed: give up, say so
                self.capture, self.said = None, ("nothing pressed; binding unchanged", False)
            return
        for action in actions:
            if self.page == "controls":
                if self._controls_action(action):
                    return
                continue
            if action in ("back", "pause"):
                self.leave_options()
                return
            if action in ("up", "down"):
                self.index = (self.index + (-1 if action == "up" else 1)) % len(ROWS)
                self.app.play_sound("menu_move")
            elif action in ("left", "right"):
                self.change(ROWS[self.index], -1 if action == "left" else 1)
            elif action == "confirm":
                row = ROWS[self.index]
                if row == "Back":
                    self.app.play_sound("menu_confirm")
                    self.leave_options()
                    return
                if row == "Controls":
                    self.app.play_sound("menu_confirm")
                    self.page = "controls"
                elif row in ("Fullscreen", "Screen shake", "Invincible"):
                    self.change(row, 1)

    # -- the controls page ------------------------------------------------------------------------------
    def _controls_action(self, action: str) -> bool:
        row, col = self.cell
        n = len(ACTION_NAMES) + 1  # the actions, then "Reset to defaults"
        if action in ("back", "pause"):
            self.page, self.said = "options", None
            self.app.play_sound("menu_move")
            return True
        if action in ("up", "down"):
            self.cell = ((row + (-1 if action == "up" else 1)) % n, col)
            self.app.play_sound("menu_move")
        elif action in ("left", "right"):
            self.cell = (row, 1 - col)
            self.app.play_sound("menu_move")
        elif action == "confirm":
            self.app.play_sound("menu_confirm")
            if row == len(ACTION_NAMES):
                self._set_bindings(type(self._bindings()).defaults(), "controls reset to the defaults")
            else:
                self.capture = (ACTION_NAMES[row][0], "keyboard" if col == 0 else "gamepad")
                self.capture_t, self.said = 0.0, None
        return False

    def _bindings(self):
        from ..input import Bindings
        return getattr(getattr(self.app, "input", None), "bindings", None) or Bindings.defaults()

    def handle_event(self, event) -> bool:
        """While waiting for a new binding, the next key (or pad button) is taken here, before the game's
        input sees it. Esc cancels."""
        if self.capture is None:
            return False
        from ..input import BindingsError, _button_name, rebind
        action, device = self.capture
        name = None
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.capture, self.said = None, ("cancelled; binding unchanged", False)
                return True
            if device == "keyboard":
                name = pygame.key.name(event.key)
        elif event.type == pygame.CONTROLLERBUTTONDOWN and device == "gamepad":
            name = _button_name(event.button)
        elif event.type == pygame.JOYBUTTONDOWN and device == "gamepad":
            from ..input import JOY_FALLBACK
            name = JOY_FALLBACK.get(event.button)
        if not name:
            return event.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.CONTROLLERBUTTONDOWN,
                                  pygame.CONTROLLERBUTTONUP, pygame.JOYBUTTONDOWN, pygame.JOYBUTTONUP)
        self.capture = None
        try:
            new, said = rebind(self._bindings(), device, action, name)
        except BindingsError as exc:
            self.said = (str(exc), True)
            self.app.play_sound("menu_move")
            return True
        self._set_bindings(new, said)
        return True

    def _set_bindings(self, new, said: str) -> None:
        from ..input import save_bindings
        from game.files.userfiles import FileProblem
        inp = getattr(self.app, "input", None)
        if inp is not None:
            inp.set_bindings(new)
        try:
            save_bindings(new)
            self.said = (said, False)
        except (FileProblem, OSError) as exc:
            self.said = (f"{said}; not saved: {' '.join(str(exc).split())}", True)

    def change(self, row: str, step: int) -> None:
        v, app = self.values, self.app
        if row in ("Music", "Effects"):
            key = row.lower()
            v[key] = min(BAR_STEPS, max(0, v[key] + step))
            app.audio.set_volumes(**{key: v[key] / BAR_STEPS})
            app.play_sound("coin" if key == "effects" else "menu_move")
        elif row == "Window scale":
            v["scale"] = (v["scale"] + step) % (self.max_scale + 1)  # 0 = auto, then 1x .. the largest
            screen = getattr(app, "screen", None)
            if screen is not None:
                screen.set_scale(v["scale"])
            app.play_sound("menu_move")
        elif row == "Game speed":
            v["speed"] = min(100, max(50, v["speed"] + step * SPEED_STEP))
            self._apply_assists()
            app.play_sound("menu_move")
        elif row == "Invincible":
            v["invincible"] = not v["invincible"]
            self._apply_assists()
            app.play_sound("menu_move")
        elif row == "Screen shake":
            v["shake"] = not v["shake"]
            self._apply_assists()  # at once: a paused level goes on with it
            app.play_sound("menu_move")
        elif row == "Fullscreen":
            v["fullscreen"] = not v["fullscreen"]
            screen = getattr(app, "screen", None)
            if screen is not None and screen.fullscreen != v["fullscreen"]:
                screen.toggle_fullscreen()
            app.play_sound("menu_move")

    def _apply_assists(self) -> None:
        """Assist options take effect at once (a paused level resumes with them); saved on leaving."""
        app = self.app
        app.options = Options(**{**app.options.to_json(), "speed": self.values["speed"],
                                 "invincible": self.values["invincible"], "shake": self.values["shake"]})

    def leave_options(self) -> None:
        """Save what changed and go back."""
        new = Options(**self.values)
        if new != self.start:
            self.app.save_profile(options=new)
        if self.back is not None:
            self.app.scenes.switch(self.back, fade=False)
        else:
            from .title import TitleScene
            self.app.scenes.switch(TitleScene(self.app))

    # -- drawing --------------------------------------------------------------------------------------
    def draw(self, canvas) -> None:
        if self.back is not None:  # the paused level, dimmed
            self.back.draw(canvas)
            canvas.blit(self._veil, (0, 0))
        else:
            ui.menu_backdrop(canvas, self.t)
        if self.page == "controls":
            self._draw_controls(canvas)
        else:
            self._draw_options(canvas)

    def value_text(self, row: str) -> str:
        v = self.values
        if row == "Window scale":
            auto = getattr(getattr(self.app, "screen", None), "auto_scale", lambda: 1)()
            return f"Auto ({auto}x)" if v["scale"] == 0 else f"{v['scale']}x"
        if row == "Fullscreen":
            return "On" if v["fullscreen"] else "Off"
        if row == "Screen shake":
            return "On" if v["shake"] else "Off"
        if row == "Game speed":
            return f"{v['speed']}%"
        if row == "Invincible":
            return "On" if v["invincible"] else "Off"
        return ""

    def _draw_options(self, canvas) -> None:
        ui.panel(canvas, PANEL)
        cx = CANVAS_W // 2
        ui.draw_text(canvas, "OPTIONS", (cx, PANEL.y + 9), ui.GOLD, align="center", scale=2)
        left, right = PANEL.x + 24, PANEL.right - 24
        for i, row in enumerate(ROWS):
            y = PANEL.y + 36 + i * ROW_H + (6 if row in ASSIST_ROWS else 12 if row in ("Controls", "Back") else 0)
            sel = i == self.index
            col = ui.GOLD if sel else ui.INK
            if sel:
                bob = 1 if self.t % 1.0 < 0.5 else 0
                ui.draw_text(canvas, ">", (left - 12 + bob, y), ui.GOLD)
            ui.draw_text(canvas, row, (left, y), col)
            if row in ("Music", "Effects"):
                self._bar(canvas, right - 100, y + 1, self.values[row.lower()], sel)
            elif row in ("Window scale", "Fullscreen", "Screen shake") + ASSIST_ROWS:
                text = self.value_text(row)
                ui.draw_text(canvas, f"< {text} >" if sel else text, (right, y), col, align="right")
            elif row == "Controls":
                ui.draw_text(canvas, "keys and pad", (right, y), ui.DIM, align="right")
        ui.draw_text(canvas, say(self.app, "Arrows: choose and change   Esc: back"),
                     (cx, PANEL.bottom + 8), ui.DIM,
                     align="center")

    @staticmethod
    def _bar(canvas, x: int, y: int, value: int, selected: bool) -> None:
        for i in range(BAR_STEPS):
            on = i < value
            col = (ui.GOLD if selected else ui.INK) if on else (70, 64, 100)
            canvas.fill(col, (x + i * 10, y + (0 if on else 2), 8, 8 if on else 4))

    def _draw_controls(self, canvas) -> None:
        rect = pygame.Rect(16, 10, CANVAS_W - 32, 250)
        ui.panel(canvas, rect)
        cx = CANVAS_W // 2
        ui.draw_text(canvas, "CONTROLS", (cx, rect.y + 7), ui.GOLD, align="center", scale=2)
        cols = (rect.x + 14, rect.x + 110, rect.x + 290)
        y = rect.y + 28
        for text, x in zip(("action", "keyboard", "gamepad"), cols, strict=True):
            ui.draw_text(canvas, text, (x, y), ui.DIM)
        rows = binding_rows(self._bindings())
        for r, (label, keys, pad) in enumerate(rows):
            y += 13
            ui.draw_text(canvas, label, (cols[0], y), ui.INK)
            for c, text in enumerate((keys, pad)):
                x = cols[1 + c]
                w = (cols[2] - cols[1] if c == 0 else rect.right - 10 - cols[2]) - 6
                chosen = self.cell == (r, c)
                if chosen:
                    canvas.fill((58, 50, 104), (x - 4, y - 2, w + 4, 12))
                waiting = self.capture is not None and chosen
                shown = ("press a key..." if c == 0 else "press a button...") if waiting else text
                color = ui.ACCENT if waiting else ui.GOLD if chosen else (ui.INK if c == 0 else ui.DIM)
                ui.draw_text(canvas, ui.fit(shown, w - 4), (x, y), color)
        y += 17
        reset = self.cell[0] == len(ACTION_NAMES)
        ui.draw_text(canvas, ("> " if reset else "") + "Reset to defaults", (cols[0], y),
                     ui.GOLD if reset else ui.INK)
        y += 16
        if self.said:
            text, error = self.said
            for line in ui.wrap(text, rect.w - 28)[:2]:
                ui.draw_text(canvas, line, (cx, y), (255, 120, 100) if error else (150, 230, 150), align="center")
                y += ui.LINE_H
        else:
            from ..input import config_path
            for line in ui.wrap(f"Saved to {config_path()}", rect.w - 28)[:2]:
                ui.draw_text(canvas, line, (cx, y), ui.DIM, align="center")
                y += ui.LINE_H
        ui.draw_text(canvas, DEV_KEYS, (cx, rect.bottom - 26), ui.DIM, align="center")
        hint = say(self.app, "Esc: cancel" if self.capture else "Enter: rebind   Arrows: choose   Esc: back")
        ui.draw_text(canvas, hint, (cx, rect.bottom - 14), ui.DIM, align="center")
