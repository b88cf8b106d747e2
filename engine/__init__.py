"""A small platformer engine: tiles, slopes, one-way and moving platforms, crowds, ropes, triggers, a feel controller.

Pure Python + numpy; copy this folder into your project. See engine/README.md and engine/docs/.
"""

from .bodies import UNGROUPED, Actor, ActorEvent, Buttons, Character, Contact, Ground, Touch, Trigger, TriggerEvent
from .crowd import Crowd, Walker, walk
from .debug import DebugDraw, debug_draw
from .feel import ConfigError, Derived, Fall, FeelConfig, Jump, Physics, Platforms, Run, knobs
from .geometry import Rect, lerp, overlaps
from ._snapshot import Snapshot
from .platforms import Path, Platform
from .queries import RayHit, Tile
from .ropes import Rope, RopeConfig
from .sweep import SweepHit
from .tiles import AsciiMap, Edges, GridError, TileGrid, TileKind
from .timestep import FixedTimestep
from .world import StepResult, World

__all__ = [
    "Actor",
    "ActorEvent",
    "AsciiMap",
    "Buttons",
    "Character",
    "ConfigError",
    "Contact",
    "Crowd",
    "DebugDraw",
    "Derived",
    "Edges",
    "Fall",
    "FeelConfig",
    "FixedTimestep",
    "GridError",
    "Ground",
    "Jump",
    "Path",
    "Physics",
    "Platform",
    "Platforms",
    "RayHit",
    "Rect",
    "Rope",
    "RopeConfig",
    "Run",
    "Snapshot",
    "StepResult",
    "SweepHit",
    "TileGrid",
    "TileKind",
    "Tile",
    "Touch",
    "Trigger",
    "TriggerEvent",
    "UNGROUPED",
    "Walker",
    "World",
    "debug_draw",
    "knobs",
    "lerp",
    "overlaps",
    "walk",
]
