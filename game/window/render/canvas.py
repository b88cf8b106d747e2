"""The window: a fixed 480x270 canvas scaled by the largest whole number that fits (letterboxed).

Pixel-perfect (nearest-neighbour, integer scale), resizable, F11 toggles borderless fullscreen, vsync
where the driver supports it. ``present()`` scales the canvas into the window and flips.
"""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path

import pygame

from game.files.userfiles import atomic_output
from game.rules.camera import VIEW_H, VIEW_W

__all__ = ["Screen", "CANVAS_W", "CANVAS_H"]

CANVAS_W, CANVAS_H = VIEW_W, VIEW_H  # the rules' view (game/rules/camera.py)


class Screen:
    def __init__(self, *, scale: int | None = None, fullscreen: bool = False, title: str = "tilefeel",
                 icon: Path | None = None):
        """Open the window (raises ``pygame.error`` when there is no display)."""
        self.canvas = pygame.Surface((CANVAS_W, CANVAS_H))
        if not pygame.display.get_init():
            pygame.display.init()
        pygame.display.set_caption(title)
        if icon and icon.exists():
            try:
                pygame.display.set_icon(pygame.image.load(str(icon)))
            except pygame.error:
                pass
        self.max_scale = self._fit()
        if not scale:
            scale = self.auto_scale()
        self.windowed_size = (CANVAS_W * scale, CANVAS_H * scale)
        self.fullscreen = False
        self.vsync = False
        self.window = self._open(self.windowed_size)
        self._size = self.window.get_size()
        self._scaled: pygame.Surface | None = None
        if fullscreen:
            self.toggle_fullscreen()

    def _open(self, size, fullscreen: bool = False) -> pygame.Surface:
        flags = pygame.RESIZABLE
        if fullscreen:
            flags = pygame.FULLSCREEN
            size = (0, 0)
        try:
            with warnings.catch_warnings(record=True) as caught:  # "no fast renderer available"
                warnings.simplefilter("always")
                win = pygame.display.set_mode(size, flags, vsync=1)
            self.vsync = not caught
        except pygame.error:
            win = pygame.display.set_mode(size, flags)
            self.vsync = False
        self.fullscreen = fullscreen
        return win

    @staticmethod
    def _fit() -> int:
        """The largest whole scale whose window fits the desktop."""
        try:
            w, h = pygame.display.get_desktop_sizes()[0]
        except (pygame.error, IndexError):
            info = pygame.display.Info()
            w, h = info.current_w or 1440, info.current_h or 810
        return max(1, min(w // CANVAS_W, h // CANVAS_H))

    def auto_scale(self) -> int:
        """The scale picked when none is asked for: one under the largest that fits (room for the
        window's frame and the task bar), at most 3."""
        fit = self.max_scale
        return max(1, min(3, fit - 1 if fit > 2 else fit))

    def set_scale(self, scale: int) -> None:
        """Resize the window to ``scale`` x the canvas (0: :meth:`auto_scale`); in fullscreen it is the
        size the window gets back when leaving it."""
        scale = min(max(1, scale or self.auto_scale()), self.max_scale)
        self.windowed_size = (CANVAS_W * scale, CANVAS_H * scale)
        if self.fullscreen:
            return
        if not self._borderless(False):  # the same window, resized; else a new one
            self.window = self._open(self.windowed_size)
        self._sync()
        self._scaled = None

    # -- geometry -------------------------------------------------------------------------------------
    @property
    def scale(self) -> int:
        w, h = self.window.get_size()
        return max(1, min(w // CANVAS_W, h // CANVAS_H))

    @property
    def offset(self) -> tuple[int, int]:
        w, h = self.window.get_size()
        s = self.scale
        return (w - CANVAS_W * s) // 2, (h - CANVAS_H * s) // 2

    def to_canvas(self, pos) -> tuple[int, int]:
        """Window pixel -> canvas pixel (mouse)."""
        ox, oy = self.offset
        s = self.scale
        return (pos[0] - ox) // s, (pos[1] - oy) // s

    # -- events ---------------------------------------------------------------------------------------
    def handle(self, event) -> bool:
        """Window events (resize, F11). Returns True if used."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return True
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self._sync()
            self._scaled = None
            return True
        return False

    def toggle_fullscreen(self) -> None:
        """Switch in place (same window, so window managers and recorders keep it); re-open the window
        only where the driver cannot toggle.

        On X11, SDL's fullscreen is a request to the window manager, and SDL reports the fullscreen size
        at once whether or not it was honoured -- with no window manager (Xvfb, kiosks) the window keeps
        its size and the picture would be laid out for a window that does not exist. There we make the
        same window borderless and desktop-sized at the top-left instead, which X applies with or without
        a window manager."""
        if not self.fullscreen:
            self.windowed_size = self.window.get_size()
        if pygame.display.get_driver() == "x11" and self._borderless(not self.fullscreen):
            self.fullscreen = not self.fullscreen
        else:
            try:
                ok = pygame.display.toggle_fullscreen()
            except pygame.error:
                ok = 0
            if ok:
                self.fullscreen = not self.fullscreen
            else:
                self.window = self._open(self.windowed_size, not self.fullscreen)
        self._sync()
        self._scaled = None

    def _borderless(self, on: bool) -> bool:
        """Borderless desktop-sized window (``on``) or back to the windowed size; False if unsupported."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # from_display_module is deprecated in favour of Window
                win = pygame.Window.from_display_module()
            if on:
                size = pygame.display.get_desktop_sizes()[0]  # the display at (0, 0)
                win.borderless = True
                win.position = (0, 0)
                win.size = size
            else:
                win.borderless = False
                win.size = self.windowed_size
                win.position = pygame.WINDOWPOS_CENTERED
            pygame.event.pump()  # let SDL see the new size, so the display surface follows it
            return True
        except (AttributeError, pygame.error, IndexError):
            return False

    def _sync(self) -> None:
        """Re-read the window's real surface: a resize, a fullscreen switch or the window manager may
        have replaced or resized it since the last frame (events about it can arrive late or never)."""
        surf = pygame.display.get_surface()
        if surf is not None and (surf is not self.window or surf.get_size() != self._size):
            self.window = surf
            self._scaled = None
        self._size = self.window.get_size()

    # -- output ---------------------------------------------------------------------------------------
    def present(self) -> None:
        self._sync()
        s = self.scale
        size = (CANVAS_W * s, CANVAS_H * s)
        if s == 1 and self.window.get_size() == size:
            self.window.blit(self.canvas, (0, 0))
        else:
            # scale straight into the window (a subsurface), no intermediate copy
            if self._scaled is None or self._scaled.get_size() != size \
                    or self._scaled.get_parent() is not self.window:
                self.window.fill((0, 0, 0))  # letterbox bars
                self._scaled = self.window.subsurface(pygame.Rect(self.offset, size))
            pygame.transform.scale(self.canvas, size, self._scaled)
        pygame.display.flip()

    def screenshot(self, folder: Path | None = None) -> Path:
        """Save the canvas at 2x as ``tilefeel-YYYYmmdd-HHMMSS.png`` (in ``folder`` or the cwd)."""
        folder = Path(folder or os.environ.get("TILEFEEL_SHOTS_DIR", "."))
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = folder / f"tilefeel-{stamp}.png"
        n = 1
        while path.exists():
            n += 1
            path = folder / f"tilefeel-{stamp}-{n}.png"
        big = pygame.transform.scale(self.canvas, (CANVAS_W * 2, CANVAS_H * 2))
        with atomic_output(path, "screenshot", binary=True) as f:  # never half a PNG on a full disk
            pygame.image.save(big, f, path.name)
        return path
