"""Level complete: time, coins, deaths, best time; next level, retry, level select."""

from __future__ import annotations

import pygame

from .. import ui
from ..render.canvas import CANVAS_H, CANVAS_W
from .base import Scene

__all__ = ["CompleteScene"]


class CompleteScene(Scene):
    def __init__(self, app, play):
        super().__init__(app)
        self.play = play
        self.music = play.music
        s = play.session
        self.info = play.info
        self.seconds = play.seconds
        self.coins, self.coins_total, self.deaths = s.coins, s.coins_total, s.deaths
        self.record = app.progress.record(self.info.name)
        self.new_best = getattr(play, "new_best", False)
        # a --replay run is not the player's progress: it unlocks nothing and has no best time, so Next
        # level is offered only if the player has unlocked it themselves
        self.is_replay = play.replay is not None
        self.last = app.next_level(self.info) is None
        self.next_info = app.next_level(self.info)
        if self.next_info is not None and self.is_replay and not app.is_unlocked(self.next_info):
            self.next_info = None
        # the last level, finished for real, with every level done: on to the ending
        self.ending = self.last and not self.is_replay and app.game_completed()
        first = ["The end"] if self.ending else ["Next level"] if self.next_info else []
        items = first + ["Retry", "Level select"]
        self.menu = ui.Menu(items, on_move=lambda: app.play_sound("menu_move"))
        self.t = 0.0
        self._veil = pygame.Surface((CANVAS_W, CANVAS_H), pygame.SRCALPHA)
        self._veil.fill((12, 8, 24, 150))

    def update(self, dt: float, actions: list[str]) -> None:
        self.t += dt
        self.menu.update(dt)
        self.play.visuals(dt)
        app = self.app
        if self.t < 0.4:
            return  # let the screen land before a held key chooses
        for action in actions:
            choice = self.menu.handle(action)
            if action == "back":
                choice = "Level select"
            if not choice:
                continue
            app.play_sound("menu_confirm")
            if choice == "Next level":
                app.start_level(self.next_info)
            elif choice == "The end":
                from .ending import EndingScene
                app.scenes.switch(EndingScene(app))
            elif choice == "Retry":
                app.start_level(self.info)
            else:
                from .select import SelectScene
                app.scenes.switch(SelectScene(app, current=self.info.name))
            return

    @property
    def rows(self) -> list[tuple[str, str]]:
        """(label, value) lines of the panel. A replay's time is not a record: "Your best" is the player's."""
        rows = [("Time", ui.format_time(self.seconds)),
                ("Coins", f"{self.coins} / {self.coins_total}"),
                ("Deaths", str(self.deaths)),
                ("Your best", ui.format_time(self.record.best_time))]
        assists = getattr(self.play, "assists", [])
        if assists:  # played with assist options: said with the totals, as Celeste does
            rows.append(("Assist", ", ".join(assists)))
        return rows

    def draw(self, canvas) -> None:
        self.play.draw(canvas, overlays=False)
        canvas.blit(self._veil, (0, 0))
        w, h = 250, 124 + 13 * len(self.menu.items) + 13 * (len(self.rows) - 4)
        x, y = (CANVAS_W - w) // 2, (CANVAS_H - h) // 2
        ui.panel(canvas, (x, y, w, h))
        cx = CANVAS_W // 2
        title = "REPLAY COMPLETE" if self.is_replay else "GAME COMPLETE!" if self.ending else "LEVEL COMPLETE"
        ui.draw_text(canvas, title, (cx, y + 9), ui.GOLD, align="center", scale=2)
        ui.draw_text(canvas, self.play.level.title or self.info.title, (cx, y + 29), ui.DIM, align="center")
        rows = self.rows
        shown = min(len(rows), int(self.t / 0.18) + 1)
        for i, (label, value) in enumerate(rows[:shown]):
            yy = y + 46 + i * 13
            ui.draw_text(canvas, label, (x + 50, yy), ui.INK)
            all_coins = label == "Coins" and self.coins == self.coins_total > 0
            color = ui.GOLD if all_coins else ui.INK
            ui.draw_text(canvas, value, (x + w - 50, yy), color, align="right")
        if self.new_best and shown == len(rows) and int(self.t * 3) % 2 == 0:
            ui.draw_text(canvas, "NEW BEST!", (x + w - 50, y + 46 + 4 * 13), ui.ACCENT, align="right")
        self.menu.draw(canvas, cx, y + 112 + 13 * (len(rows) - 4))
