"""Title: the first level's replay plays behind the logo and the menu (attract mode)."""

from __future__ import annotations

import math

import pygame

from .. import ui
from ..render.canvas import CANVAS_H, CANVAS_W
from .base import Scene

__all__ = ["TitleScene", "GAME_TITLE"]

GAME_TITLE = "TILEFEEL"
MENU_HALO = 14  # px of soft shadow around the menu box


class TitleScene(Scene):
    def __init__(self, app):
        super().__init__(app)
        self.menu = ui.Menu(["Play", "Levels", "Quit"], on_move=lambda: app.play_sound("menu_move"))
        self.t = 0.0
        self.attract = app.make_attract()
        self._menu_box = _menu_backdrop(112, 56)
        self._veil = pygame.Surface((CANVAS_W, CANVAS_H), pygame.SRCALPHA)
        for y in range(CANVAS_H):  # darker at the bottom where the menu sits
            a = 70 + round(110 * (y / CANVAS_H) ** 1.5)
            self._veil.fill((14, 10, 30, a), (0, y, CANVAS_W, 1))

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
            if action in ("back", "pause"):
                continue
            choice = self.menu.handle(action)
            if choice:
                app.play_sound("menu_confirm")
            if choice == "Play":
                info = app.continue_level()
                if info is None:
                    app.notice("no levels found in levels/", error=True)
                else:
                    app.start_level(info)
            elif choice == "Levels":
                from .select import SelectScene
                app.scenes.switch(SelectScene(app))
            elif choice == "Quit":
                app.quit()
            if choice:
                return

    def draw(self, canvas) -> None:
        if self.attract is not None:
            self.attract.draw(canvas)
        else:
            canvas.fill((40, 52, 96))
        canvas.blit(self._veil, (0, 0))
        cx = CANVAS_W // 2
        bob = round(math.sin(self.t * 2.0) * 2)
        _outlined(canvas, GAME_TITLE, cx, 46 + bob)
        ui.draw_text(canvas, "a tiny platformer about good jumps", (cx, 86), ui.INK, align="center")
        canvas.blit(self._menu_box, (cx - self._menu_box.get_width() // 2, 142 - MENU_HALO))
        self.menu.draw(canvas, cx, 150, spacing=15)
        ui.draw_text(canvas, "Arrows/WASD move   Space/Z jump   Esc pause   F11 fullscreen",
                     (cx, CANVAS_H - 16), ui.DIM, align="center")


def _menu_backdrop(w: int, h: int) -> pygame.Surface:
    """The menu's box: nearly opaque, inside a soft dark halo that fades out over ``MENU_HALO`` px, so
    the attract mode's coins, signs and player never show through the menu text."""
    m = MENU_HALO
    surf = pygame.Surface((w + 2 * m, h + 2 * m), pygame.SRCALPHA)
    for i in range(m, 0, -1):  # outermost first; each ring replaces the one before inside it
        a = round(120 * (1 - i / (m + 1)) ** 2)
        pygame.draw.rect(surf, (14, 10, 30, a), (m - i, m - i, w + 2 * i, h + 2 * i), border_radius=i + 2)
    box = pygame.Rect(m, m, w, h)
    pygame.draw.rect(surf, (14, 10, 30, 228), box, border_radius=2)
    pygame.draw.rect(surf, (86, 76, 128, 235), box, 1, border_radius=2)
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
