"""Scenes: title (with attract mode), level select, play, pause, level complete; a fading switcher.

Each scene is a small class with ``update(dt, actions)`` and ``draw(canvas)``; optional
``handle_event(event) -> bool`` gets raw events first (developer keys, the tuning panel).
"""

from .base import Scene, SceneManager

__all__ = ["Scene", "SceneManager"]
