"""The ending: after the last level (and from the title's Credits once the game is finished), the
game's totals -- time, coins and deaths over every level -- then the credits, with fireworks over the
hero running home.
"""

from __future__ import annotations

import random

import pygame

from .. import ui
from ..particles import DEATH, SPARKLE, Particles
from ..render.canvas import CANVAS_H, CANVAS_W
from .base import Scene
from ..prompts import say

__all__ = ["EndingScene", "game_totals", "CREDITS"]

CREDITS = [
    ("TILEFEEL", "gold"),
    ("a tiny platformer about good jumps", "ink"),
    ("", ""),
    ("Engine, game and levels", "dim"),
    ("the tilefeel developers", "ink"),
    ("", ""),
    ("Art", "dim"),
    ("drawn in code by tools/make_art.py", "ink"),
    ("Palette: Endesga 32 by ENDESGA", "ink"),
    ("", ""),
    ("Music and sound", "dim"),
    ("synthesized with numpy at start-up", "ink"),
    ("", ""),
    ("Built with", "dim"),
    ("pygame-ce, numpy, pytmx and the Tiled map editor", "ink"),
    ("", ""),
    ("Thank you for playing!", "gold"),
]
CREDITS_SPEED = 14.0  # px/s the credits roll up
GROUND_Y = 246  # canvas y of the ground line the hero runs on
ROLL = pygame.Rect(0, 136, CANVAS_W, GROUND_Y - 30 - 136)  # where the credits roll
_ROLL_W = max(ui.text_width(line) for line, _c in CREDITS) + 28
ROLL_PANEL = pygame.Rect(CANVAS_W // 2 - _ROLL_W // 2, ROLL.y - 6, _ROLL_W, ROLL.h + 12)  # the box behind them
FADE_PX = 12  # px over which a credit line fades in at the roll's bottom and out at its top
COLORS = {"gold": ui.GOLD, "ink": ui.INK, "dim": ui.DIM}


def game_totals(app) -> list[tuple[str, str]]:
    """(label, value) rows: levels finished, time played, sum of best times, coins found, deaths."""
    levels = app.campaign
    records = [app.progress.record(i.name) for i in levels]
    done = sum(1 for r in records if r.completions)
    coins = sum(min(r.best_coins, i.coins) for r, i in zip(records, levels, strict=True))
    best = sum(r.best_time for r in records if r.best_time) if done == len(levels) else None
    return [("Levels finished", f"{done} / {len(levels)}"),
            ("Time played", ui.format_time(app.totals.seconds)),
            ("Best times, all levels", ui.format_time(best)),
            ("Coins found", f"{coins} / {sum(i.coins for i in levels)}"),
            ("Deaths", str(app.totals.deaths))]


class EndingScene(Scene):
    music = "ending"

    def __init__(self, app):
        super().__init__(app)
        self.t = 0.0
        self.rows = game_totals(app)
        self.fx = Particles(seed=1986)
        self.rng = random.Random(1986)
        self._next_burst = 0.6
        self._sky = _sky()

    def update(self, dt: float, actions: list[str]) -> None:
        self.t += dt
        self.fx.update(dt)
        self._next_burst -= dt
        if self._next_burst <= 0:  # fireworks: a burst somewhere in the sky every ~0.7 s
            r = self.rng
            x, y = r.uniform(60, CANVAS_W - 60), r.uniform(24, 120)
            self.fx.burst(x, y, colors=r.choice((SPARKLE, DEATH)), n=36)
            self.fx.ring(x, y, n=16)
            self._next_burst = r.uniform(0.45, 1.0)
        if self.t < 0.8:
            return  # a held key from the last level does not skip the ending
        for action in actions:
            if action in ("confirm", "back", "pause"):
                self.app.play_sound("menu_confirm")
                from .title import TitleScene
                self.app.scenes.switch(TitleScene(self.app))
                return

    @property
    def roll_offset(self) -> float:
        """px the credits have rolled up (they loop)."""
        return (self.t * CREDITS_SPEED) % (len(CREDITS) * 12 + ROLL.h)

    def draw(self, canvas) -> None:
        canvas.blit(self._sky, (0, 0))
        art = self.app.art
        for img, speed, y in ((art.bg_far, 4.0, 0), (art.bg_near, 14.0, 0)):
            if img is None:
                continue
            w = img.get_width()
            x = -round(self.t * speed) % w - w
            while x < CANVAS_W:
                canvas.blit(img, (x, y + CANVAS_H - img.get_height()))
                x += w
        self.fx.draw(canvas, 0, 0)
        canvas.fill((62, 137, 72), (0, GROUND_Y, CANVAS_W, 2))
        canvas.fill((115, 62, 57), (0, GROUND_Y + 2, CANVAS_W, CANVAS_H - GROUND_Y - 2))
        frame = art.player_frame("run", self.t)
        canvas.blit(frame, (CANVAS_W // 2 - frame.get_width() // 2, GROUND_Y - frame.get_height()))

        cx = CANVAS_W // 2
        ui.draw_text(canvas, "THE END", (cx, 12), ui.GOLD, align="center", scale=2)
        box = pygame.Rect(cx - 130, 36, 260, 18 + 12 * len(self.rows))
        ui.panel(canvas, box)
        shown = min(len(self.rows), int(self.t / 0.25) + 1)
        for i, (label, value) in enumerate(self.rows[:shown]):
            y = box.y + 9 + i * 12
            ui.draw_text(canvas, label, (box.x + 14, y), ui.INK)
            ui.draw_text(canvas, value, (box.right - 14, y), ui.GOLD, align="right")

        # the roll on a dark panel (readable over any backdrop); a line fades in at the bottom and out at
        # the top instead of being cut through its letters
        ui.panel(canvas, ROLL_PANEL, fill=(20, 16, 36, 250))
        y0 = ROLL.bottom - self.roll_offset
        for i, (line, color) in enumerate(CREDITS):
            y = round(y0 + i * 12)
            if not line or y < ROLL.top or y + 8 > ROLL.bottom:
                continue
            img = ui.text(line, COLORS[color])
            img.set_alpha(round(255 * min(1.0, (y - ROLL.top) / FADE_PX, (ROLL.bottom - 8 - y) / FADE_PX)))
            canvas.blit(img, (cx - img.get_width() // 2, y))
            img.set_alpha(None)
        if self.t >= 0.8:
            ui.draw_text(canvas, say(self.app, "{confirm}: back to the title"), (cx, CANVAS_H - 12), ui.INK,
                         align="center")


def _sky() -> pygame.Surface:
    """A night sky gradient with a few fixed stars (the far backdrop's colours)."""
    sky = pygame.Surface((CANVAS_W, CANVAS_H))
    top, bottom = (38, 43, 68), (104, 56, 108)
    for y in range(CANVAS_H):
        k = y / (CANVAS_H - 1)
        sky.fill(tuple(round(a + (b - a) * k) for a, b in zip(top, bottom, strict=True)), (0, y, CANVAS_W, 1))
    r = random.Random(7)
    for _ in range(60):
        x, y = r.randrange(CANVAS_W), r.randrange(150)
        sky.fill((255, 255, 255) if r.random() < 0.3 else (192, 203, 220), (x, y, 1, 1))
    return sky
