"""Pause: the frozen level behind a dimmed veil; resume, restart, level select, options, quit."""

from __future__ import annotations

import pygame

from .. import ui
from ..render.canvas import CANVAS_H, CANVAS_W
from .base import Scene
from ..prompts import say

__all__ = ["PauseScene"]


class PauseScene(Scene):
    ITEMS = ["Resume", "Restart", "Level select", "Options", "Quit game"]
    ducked = True

    def __init__(self, app, play):
        super().__init__(app)
        self.play = play
        self.music = play.music
        app.play_sound("pause")
        self.menu = ui.Menu(list(self.ITEMS), on_move=lambda: app.play_sound("menu_move"))
        self._veil = pygame.Surface((CANVAS_W, CANVAS_H), pygame.SRCALPHA)
        self._veil.fill((12, 8, 24, 160))

    def update(self, dt: float, actions: list[str]) -> None:
        self.menu.update(dt)
        app = self.app
        for action in actions:
            if action in ("pause", "back"):
                self._resume()
                return
            choice = self.menu.handle(action)
            if choice:
                app.play_sound("menu_confirm")
            if choice == "Resume":
                self._resume()
            elif choice == "Restart":
                app.start_level(self.play.info, fade=True)
            elif choice == "Level select":
                app.write_recording(self.play)
                from .select import SelectScene
                app.scenes.switch(SelectScene(app, current=self.play.info.name))
            elif choice == "Options":
                from .options import OptionsScene
                app.scenes.switch(OptionsScene(app, back=self), fade=False)
            elif choice == "Quit game":
                app.write_recording(self.play)
                app.quit()
            if choice:
                return

    def _resume(self) -> None:
        self.app.play_sound("pause")
        self.app.scenes.switch(self.play, fade=False)

    def draw(self, canvas) -> None:
        self.play.draw(canvas, overlays=False)
        canvas.blit(self._veil, (0, 0))
        w, h = 170, 98 + 13
        x, y = (CANVAS_W - w) // 2, (CANVAS_H - h) // 2
        ui.panel(canvas, (x, y, w, h))
        ui.draw_text(canvas, "PAUSED", (CANVAS_W // 2, y + 9), ui.GOLD, align="center", scale=2)
        self.menu.draw(canvas, CANVAS_W // 2, y + 35)
        ui.draw_text(canvas, say(self.app, "Enter: choose   {pause}: resume"), (CANVAS_W // 2, y + h + 6), ui.INK,
                     align="center")
