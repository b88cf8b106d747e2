"""A small platformer engine: tiles, slopes, one-way and moving platforms, triggers, a feel controller.

Pure Python + numpy; copy this folder into your project. See engine/README.md.
"""

from .bodies import Actor, Buttons, Character, Contact, Ground, Trigger, TriggerEvent
from .feel import ConfigError, Derived, Fall, FeelConfig, Jump, Physics, Platforms, Run, knobs
from .geometry import Rect, lerp, overlaps
from .platforms import Path, Platform
from .tiles import GridError, TileGrid, TileKind
from .timestep import FixedTimestep
from .world import StepResult, World

__all__ = [
    "Actor", "Buttons", "Character", "Contact", "Ground", "Trigger", "TriggerEvent",
    "ConfigError", "Derived", "Fall", "FeelConfig", "Jump", "Physics", "Platforms", "Run", "knobs",
    "Rect", "lerp", "overlaps",
    "Path", "Platform",
    "GridError", "TileGrid", "TileKind",
    "FixedTimestep",
    "StepResult", "World",
]
