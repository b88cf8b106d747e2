"""Title: the first level's replay plays between the logo and the menu row (attract mode)."""

from __future__ import annotations

import math

import pygame

from .. import ui
from ..render.canvas import CANVAS_H, CANVAS_W
from .base import Scene

__all__ = ["TitleScene", "GAME_TITLE", "hint_line"]

GAME_TITLE = "TILEFEEL"
MENU_TOP = 226  # canvas y of the menu row: a band at the bottom, under the demo player
MENU_BAND = pygame.Rect(0, MENU_TOP - 8, CANVAS_W, 26)  # the dark strip the menu sits on
LOGO_BOTTOM = 78  # the logo and its tag line end here; the demo plays between this and the menu band


class TitleScene(Scene):
    music = "title"

    def __init__(self, app):
        super().__init__(app)
        items = ["Play", "Levels", "Options"] + (["Credits"] if app.game_completed() else []) + ["Quit"]
        self.menu = ui.Menu(items, on_move=lambda: app.play_sound("menu_move"), horizontal=True)
        remembered = getattr(app, "title_choice", None)  # back from Options or Levels: the cursor stays
        if remembered in items:
            self.menu.index = items.index(remembered)
        self.confirm: ui.Menu | None = None  # "Quit the game?" asked: No / Yes
        self.t = 0.0
        self.attract = app.make_attract()
        self._band = _band()
        self._veil = pygame.Surface((CANVAS_W, CANVAS_H), pygame.SRCALPHA)
        for y in range(CANVAS_H):  # darker under the logo and at the bottom, clear where the demo runs
            k = max(0.0, 1 - y / LOGO_BOTTOM) ** 1.5 + max(0.0, (y - 150) / (CANVAS_H - 150)) ** 2
            self._veil.fill((14, 10, 30, round(60 + 110 * min(1.0, k))), (0, y, CANVAS_W, 1))

    def update(self, dt: float, actions: list[str]) -> None:
        self.t += dt
        self.menu.update(dt)
        if self.attract is not None:
            try:
                self.attract.update(dt, [])
            except Exception as exc:  # the backdrop must never take the menu down
                self.app.log(f"attract mode stopped: {exc}")
                self.attract = None
        app = self.app
        for action in actions:
            if self.confirm is not None:
                if self._confirm_quit(action):
                    return
                continue
            if action in ("back", "pause"):
                continue
            choice = self.menu.handle(action)
            if choice:
                app.play_sound("menu_confirm")
                app.title_choice = choice
            if choice == "Play":
                info = app.continue_level()
                if info is None:
                    app.notice("no levels found in levels/", error=True)
                else:
                    app.start_level(info)
            elif choice == "Levels":
                from .select import SelectScene
                app.scenes.switch(SelectScene(app))
            elif choice == "Options":
                from .options import OptionsScene
                app.scenes.switch(OptionsScene(app))
            elif choice == "Credits":
                from .ending import EndingScene
                app.scenes.switch(EndingScene(app))
            elif choice == "Quit":
                self.confirm = ui.Menu(["No", "Yes"], on_move=lambda: app.play_sound("menu_move"),
                                       horizontal=True)
            if choice:
                return

    def _confirm_quit(self, action: str) -> bool:
        """The quit question: Yes quits; No, Back or Esc go back to the menu. True when it is answered."""
        if action in ("back", "pause"):
            answer = "No"
        else:
            answer = self.confirm.handle(action)
        if answer == "Yes":
            self.app.play_sound("menu_confirm")
            self.app.quit()
        elif answer == "No":
            self.app.play_sound("menu_move")
            self.confirm = None
        return answer is not None

    def draw(self, canvas) -> None:
        if self.attract is not None:
            self.attract.draw(canvas)
        else:
            canvas.fill((40, 52, 96))
        canvas.blit(self._veil, (0, 0))
        cx = CANVAS_W // 2
        bob = round(math.sin(self.t * 2.0) * 2)
        _outlined(canvas, GAME_TITLE, cx, 30 + bob)
        ui.draw_text(canvas, "a tiny platformer about good jumps", (cx, 70), ui.INK, align="center")
        canvas.blit(self._band, MENU_BAND.topleft)
        if self.confirm is not None:
            ui.draw_text(canvas, "Quit the game?", (cx - 40, MENU_TOP), ui.INK, align="center")
            self.confirm.draw(canvas, cx + 50, MENU_TOP)
        else:
            self.menu.draw(canvas, cx, MENU_TOP)
        ui.draw_text(canvas, hint_line(self.app), (cx, CANVAS_H - 14), ui.DIM, align="center")


def hint_line(app) -> str:
    """The controls hint, for the device the player last pressed (keyboard keys or pad buttons), from
    the bindings in use."""
    from .options import PAD_NAMES
    inp = getattr(app, "input", None)
    bindings = getattr(inp, "bindings", None)
    if bindings is None:
        return "Arrows move   Space jump   Esc pause"
    if getattr(inp, "device", "keyboard") == "gamepad":
        def pad(action, n=1):
            names = bindings.pad.get(action, [])[:n]
            return "/".join(PAD_NAMES.get(b, b.upper() if len(b) == 1 else b.capitalize()) for b in names) or "-"
        move = "D-pad" if pad("left") == "D-pad left" else f"{pad('left')}/{pad('right')}"
        return f"{move} move   {pad('jump', 2)} jump   {pad('pause')} pause"

    def key(action, n=1):
        names = [pygame.key.name(k).capitalize() for k in bindings.keys.get(action, [])]
        return "/".join(dict.fromkeys(names[:n])) or "-"
    return f"{key('left')}/{key('right')} move   {key('jump', 2)} jump   {key('pause')} pause   F11 fullscreen"


def _band() -> pygame.Surface:
    """The menu's strip across the screen: nearly opaque, fading out at its top and bottom edges, so the
    demo's coins and signs never show through the menu text."""
    surf = pygame.Surface(MENU_BAND.size, pygame.SRCALPHA)
    h = MENU_BAND.h
    for y in range(h):
        edge = min(y, h - 1 - y)
        surf.fill((14, 10, 30, min(225, 60 + 40 * edge)), (0, y, MENU_BAND.w, 1))
    return surf


def _outlined(canvas, s: str, cx: int, y: int) -> None:
    """Big logo text: a dark outline, a drop shadow and a two-tone fill."""
    scale = 4
    body = ui.text(s, ui.GOLD, shadow=None, scale=scale)
    outline = ui.text(s, (58, 30, 40), shadow=None, scale=scale)
    x = cx - body.get_width() // 2
    rim = ((-2, 0), (2, 0), (0, -2), (0, 2), (2, 2), (-2, 2), (2, -2), (-2, -2), (0, 5), (2, 5), (-2, 5))
    for dx, dy in rim:
        canvas.blit(outline, (x + dx, y + dy))
    canvas.blit(body, (x, y))
    light = ui.text(s, (255, 246, 200), shadow=None, scale=scale)
    canvas.blit(light, (x, y), (0, 0, body.get_width(), scale * 3))
