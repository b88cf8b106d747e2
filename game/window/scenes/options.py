"""Options: music and effects volume, window scale, fullscreen, and the key and pad bindings.

Reached from the title and the pause menu; changes apply at once (a volume change plays a sample) and
are saved with the progress when leaving. The bindings page shows what ``input.toml`` binds.
"""

from __future__ import annotations

import pygame

from .. import ui
from game.rules.profile import Options
from ..render.canvas import CANVAS_H, CANVAS_W
from .base import Scene

__all__ = ["OptionsScene", "ROWS", "binding_rows"]

ROWS = ["Music", "Effects", "Window scale", "Fullscreen", "Game speed", "Invincible", "Controls", "Back"]
ASSIST_ROWS = ("Game speed", "Invincible")  # Celeste's Assist Mode: off by default, noted with the totals
PANEL = pygame.Rect((CANVAS_W - 280) // 2, 30, 280, 204)
SPEED_STEP = 10  # percent per Left/Right on Game speed
ROW_H = 18
BAR_STEPS = 10  # volume in tenths
ACTION_NAMES = [("left", "Move left"), ("right", "Move right"), ("up", "Up"), ("down", "Down / drop"),
                ("jump", "Jump"), ("pause", "Pause"), ("confirm", "Confirm"), ("back", "Back")]
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
                       "speed": app.options.speed, "invincible": app.options.invincible}
        self.index = 0
        self.page = "options"  # or "controls"
        self.t = 0.0
        self._veil = pygame.Surface((CANVAS_W, CANVAS_H), pygame.SRCALPHA)
        self._veil.fill((12, 8, 24, 200))

    # -- input ----------------------------------------------------------------------------------------
    def update(self, dt: float, actions: list[str]) -> None:
        self.t += dt
        for action in actions:
            if self.page == "controls":
                if action in ("back", "pause", "confirm"):
                    self.page = "options"
                    self.app.play_sound("menu_move")
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
                elif row in ("Fullscreen", "Invincible"):
                    self.change(row, 1)

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
                                 "invincible": self.values["invincible"]})

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
            elif row in ("Window scale", "Fullscreen") + ASSIST_ROWS:
                text = self.value_text(row)
                ui.draw_text(canvas, f"< {text} >" if sel else text, (right, y), col, align="right")
            elif row == "Controls":
                ui.draw_text(canvas, "keys and pad", (right, y), ui.DIM, align="right")
        ui.draw_text(canvas, "Up/Down choose   Left/Right change   Esc back", (cx, PANEL.bottom + 8), ui.DIM,
                     align="center")

    @staticmethod
    def _bar(canvas, x: int, y: int, value: int, selected: bool) -> None:
        for i in range(BAR_STEPS):
            on = i < value
            col = (ui.GOLD if selected else ui.INK) if on else (70, 64, 100)
            canvas.fill(col, (x + i * 10, y + (0 if on else 2), 8, 8 if on else 4))

    def _draw_controls(self, canvas) -> None:
        rect = pygame.Rect(24, 24, CANVAS_W - 48, 214)
        ui.panel(canvas, rect)
        cx = CANVAS_W // 2
        ui.draw_text(canvas, "CONTROLS", (cx, rect.y + 8), ui.GOLD, align="center", scale=2)
        cols = (rect.x + 14, rect.x + 112, rect.x + 300)
        y = rect.y + 32
        for text, x in zip(("action", "keyboard", "gamepad"), cols, strict=True):
            ui.draw_text(canvas, text, (x, y), ui.DIM)
        bindings = getattr(getattr(self.app, "input", None), "bindings", None)
        for label, keys, pad in binding_rows(bindings) if bindings is not None else []:
            y += 13
            ui.draw_text(canvas, label, (cols[0], y), ui.INK)
            ui.draw_text(canvas, keys, (cols[1], y), ui.GOLD)
            ui.draw_text(canvas, pad, (cols[2], y), ui.ACCENT)
        y += 18
        ui.draw_text(canvas, DEV_KEYS, (cx, y), ui.DIM, align="center")
        from ..input import config_path
        y += 14
        for line in ui.wrap(f"Change them in {config_path()} (see README, Controls file).", rect.w - 28):
            ui.draw_text(canvas, line, (cx, y), ui.DIM, align="center")
            y += ui.LINE_H
        ui.draw_text(canvas, "Enter or Esc: back", (cx, rect.bottom - 14), ui.DIM, align="center")
