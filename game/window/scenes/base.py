"""Scene base class and the manager that switches scenes with a fade through black."""

from __future__ import annotations

import pygame

__all__ = ["Scene", "SceneManager", "FADE_TIME"]

FADE_TIME = 0.22  # s out, and again in


class Scene:
    music: str | None = None  # the loop to play while this scene is current (None: keep what plays)
    ducked = False  # True: the music is lowered (pause)

    def __init__(self, app):
        self.app = app

    def enter(self) -> None:
        """Called when the scene becomes current (again)."""

    def leave(self) -> None:
        """Called when another scene replaces it."""

    def handle_event(self, event) -> bool:
        return False

    def update(self, dt: float, actions: list[str]) -> None:
        pass

    def draw(self, canvas: pygame.Surface) -> None:
        pass


class SceneManager:
    def __init__(self, scene: Scene | None = None):
        self.current = scene
        self._next: Scene | None = None
        self._fade = 0.0  # 0 clear .. 1 black
        self._dir = 0  # +1 fading out, -1 fading in
        self._shade: pygame.Surface | None = None
        if scene:
            scene.enter()

    @property
    def busy(self) -> bool:
        return self._dir != 0

    def switch(self, scene: Scene, fade: bool = True) -> None:
        if not fade or self.current is None:
            if self.current is not None:
                self.current.leave()
            self.current = scene
            scene.enter()
            self._dir, self._fade, self._next = 0, 0.0, None
            return
        self._next = scene
        self._dir = 1

    def handle_event(self, event) -> bool:
        return self.current.handle_event(event) if self.current and not self.busy else False

    def update(self, dt: float, actions: list[str]) -> None:
        if self._dir > 0:
            self._fade = min(1.0, self._fade + dt / FADE_TIME)
            if self._fade >= 1.0:
                self.current.leave()
                self.current, self._next = self._next, None
                self.current.enter()
                self._dir = -1
            actions = []
        elif self._dir < 0:
            self._fade = max(0.0, self._fade - dt / FADE_TIME)
            if self._fade <= 0:
                self._dir = 0
        if self.current is not None:
            self.current.update(dt, actions)

    def draw(self, canvas: pygame.Surface) -> None:
        if self.current is not None:
            self.current.draw(canvas)
        if self._fade > 0:
            if self._shade is None or self._shade.get_size() != canvas.get_size():
                self._shade = pygame.Surface(canvas.get_size())
                self._shade.fill((12, 8, 20))
            self._shade.set_alpha(round(255 * self._fade))
            canvas.blit(self._shade, (0, 0))
