"""Level select: every level in play order, locked or not, with best time and coins; then, under an
"Extra" heading, the maps in the levels folder that are not in the campaign's chain (always open)."""

from __future__ import annotations

import pygame

from .. import ui
from ..render.canvas import CANVAS_H, CANVAS_W
from .base import Scene
from ..prompts import say

__all__ = ["SelectScene"]

ROW_H = 22
VISIBLE = 7


def _lock() -> pygame.Surface:
    s = pygame.Surface((9, 10), pygame.SRCALPHA)
    pygame.draw.rect(s, (150, 154, 170), (2, 0, 5, 6), 1, border_radius=2)
    s.fill((150, 154, 170), (0, 4, 9, 6))
    s.fill((60, 56, 80), (4, 6, 1, 2))
    return s


class SelectScene(Scene):
    music = "title"

    def __init__(self, app, current: str | None = None):
        super().__init__(app)
        self.levels = app.levels
        self.index = 0
        for i, info in enumerate(self.levels):
            if info.name == current:
                self.index = i
        # the rows shown: a level's index, or None for the "Extra" heading before the first extra level
        self.rows: list[int | None] = []
        for i, info in enumerate(self.levels):
            if info.extra and (not self.rows or not self.levels[self.rows[-1]].extra):
                self.rows.append(None)
            self.rows.append(i)
        self.top = 0
        self.t = 0.0
        self.lock = _lock()
        self.error: str | None = None

    def unlocked(self, i: int) -> bool:
        return self.app.is_unlocked(self.levels[i])

    def update(self, dt: float, actions: list[str]) -> None:
        self.t += dt
        app = self.app
        n = len(self.levels)
        for action in actions:
            if action in ("up", "down") and n:
                self.index = (self.index + (-1 if action == "up" else 1)) % n
                app.play_sound("menu_move")
                self.error = None
            elif action == "confirm" and n:
                if self.unlocked(self.index):
                    app.play_sound("menu_confirm")
                    self.error = app.start_level(self.levels[self.index])
                else:
                    self.error = "Locked: finish the level before it first."
            elif action in ("back", "pause"):
                from .title import TitleScene
                app.scenes.switch(TitleScene(app))
                return
        at = self.rows.index(self.index) if self.rows else 0
        head = at - 1 if at > 0 and self.rows[at - 1] is None else at  # a heading shows with its first level
        self.top = min(max(self.top, at - VISIBLE + 1), head)

    def draw(self, canvas) -> None:
        ui.menu_backdrop(canvas, self.t)
        ui.draw_text(canvas, "SELECT LEVEL", (CANVAS_W // 2, 14), ui.GOLD, align="center", scale=2)
        if not self.levels:
            ui.draw_text(canvas, "No levels found in levels/", (CANVAS_W // 2, 120), ui.INK, align="center")
            return
        x, w = 60, CANVAS_W - 120
        y0 = 44
        for row, i in enumerate(self.rows[self.top:self.top + VISIBLE]):
            y = y0 + row * (ROW_H + 4)
            if i is None:
                ui.draw_text(canvas, "EXTRA", (x + 10, y + 9), ui.GOLD)
                ui.draw_text(canvas, "maps found in the levels folder", (x + 60, y + 9), ui.DIM)
                continue
            info = self.levels[i]
            sel = i == self.index
            open_ = self.unlocked(i)
            box = pygame.Surface((w, ROW_H), pygame.SRCALPHA)
            box.fill((255, 214, 92, 50) if sel else (255, 255, 255, 14))
            canvas.blit(box, (x, y))
            if sel:
                pygame.draw.rect(canvas, ui.GOLD, (x, y, w, ROW_H), 1)
            num = "+" if info.extra else f"{i + 1}"
            ui.draw_text(canvas, num, (x + 10, y + 7), ui.GOLD if sel else ui.DIM)
            if open_:
                ui.draw_text(canvas, info.title, (x + 26, y + 7), ui.INK)
                rec = self.app.progress.record(info.name)
                done = rec.completions > 0
                ui.draw_text(canvas, ui.format_time(rec.best_time) if done else "new",
                             (x + w - 70, y + 7), ui.INK if done else ui.ACCENT, align="right")
                coins = f"{rec.best_coins}/{info.coins}" if info.coins else "-"
                coin = self.app.art.coin[0]
                canvas.blit(coin, (x + w - 62, y + 3))
                ui.draw_text(canvas, coins, (x + w - 44, y + 7),
                             ui.GOLD if info.coins and rec.best_coins >= info.coins else ui.INK)
            else:
                canvas.blit(self.lock, (x + 26, y + 6))
                ui.draw_text(canvas, "locked", (x + 40, y + 7), ui.DIM)
        if self.error:
            ui.draw_text(canvas, self.error, (CANVAS_W // 2, CANVAS_H - 34), (255, 130, 120), align="center")
        ui.draw_text(canvas, say(self.app, "{confirm}: play     {cancel}: back"), (CANVAS_W // 2, CANVAS_H - 18),
                     ui.DIM, align="center")
