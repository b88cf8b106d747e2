"""FeelConfig: every knob of the controller and the physics, with its unit.

Designers tune these; the controller reads them. Derived values (gravity, take-off speed, windows in
steps) are computed from them in one place: :class:`Derived`.

Each field's metadata carries ``unit``, ``min``, ``max`` and ``doc``; validation, the game's tuning
panel and the docs all read the same table. Switches (unit ``on/off``) are booleans: the moves of
``[wall]`` and ``[dash]`` are off unless a feel turns them on, so an older feel behaves as it always did.

Reference for the moves: Celeste's ``Player.cs`` at its 8 px tiles, scaled to our 16 px tiles (distances
and speeds x2, times as they are): WallSlideStartMax 20 -> ``wall.slide_speed`` 40 px/s, WallSlideTime
1.2 s, WallJumpCheckDist 3 -> ``wall.jump_reach`` 6 px, WallJumpHSpeed 130 -> ``wall.jump_speed`` 260
px/s, WallJumpForceTime 0.16 s -> ``wall.lock_time``, DashSpeed 240 -> ``dash.speed`` 480 px/s,
EndDashSpeed 160 -> ``dash.end_speed`` 320 px/s, DashTime 0.15 s, DashCooldown 0.2 s, the dash button's
0.08 s buffer -> ``dash.buffer_time``.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any

__all__ = ["ConfigError", "Dash", "Derived", "Fall", "FeelConfig", "Jump", "Physics", "Platforms", "Run", "Wall",
           "knobs"]


class ConfigError(ValueError):
    """A feel setting is unknown, of the wrong type or out of range. ``key`` is its dotted name."""

    def __init__(self, key: str, message: str):
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key
        self.reason = message


def _knob(default: float, unit: str, lo: float, hi: float, doc: str):
    return field(default=default, metadata={"unit": unit, "min": lo, "max": hi, "doc": doc})


def _switch(default: bool, doc: str):
    """An on/off knob (a boolean: ``true`` / ``false`` in a feel file)."""
    return field(default=default, metadata={"unit": "on/off", "min": False, "max": True, "doc": doc})


class _Section:
    """Checks every knob on construction, so ``Jump(height=-1)`` fails as loudly as a bad feel file."""

    def __post_init__(self):
        section = type(self).__name__.lower()
        for f in fields(self):
            object.__setattr__(self, f.name, _check(f"{section}.{f.name}", f, getattr(self, f.name)))


@dataclass(frozen=True)
class Physics(_Section):
    hz: int = _knob(60, "Hz", 10, 1000, "fixed simulation steps per second")
    max_frame_time: float = _knob(0.25, "s", 0.02, 1.0, "longest frame time simulated (spiral-of-death guard)")


@dataclass(frozen=True)
class Run(_Section):
    max_speed: float = _knob(150.0, "px/s", 10.0, 1000.0, "top running speed")
    ground_accel: float = _knob(1600.0, "px/s^2", 50.0, 20000.0, "speeding up on the ground")
    ground_decel: float = _knob(2200.0, "px/s^2", 50.0, 20000.0, "slowing down on the ground, no input")
    turn_accel: float = _knob(3600.0, "px/s^2", 50.0, 40000.0, "reversing direction on the ground")
    air_accel: float = _knob(1100.0, "px/s^2", 0.0, 20000.0, "speeding up in the air")
    air_decel: float = _knob(700.0, "px/s^2", 0.0, 20000.0, "slowing down in the air, no input")
    air_turn_accel: float = _knob(1800.0, "px/s^2", 0.0, 40000.0, "reversing direction in the air")


@dataclass(frozen=True)
class Jump(_Section):
    height: float = _knob(48.0, "px", 4.0, 400.0, "apex of a held jump from flat ground")
    time_to_apex: float = _knob(0.40, "s", 0.1, 2.0, "time a held jump takes to reach its apex")
    coyote_time: float = _knob(0.10, "s", 0.0, 0.5, "after leaving a ledge, a jump still counts")
    buffer_time: float = _knob(0.10, "s", 0.0, 0.5, "a jump pressed this early before landing still counts")
    release_cut: float = _knob(0.5, "ratio", 0.0, 1.0, "upward speed kept when jump is released early")
    apex_hang_speed: float = _knob(40.0, "px/s", 0.0, 400.0, "below this vertical speed a held jump hangs")
    apex_hang_gravity: float = _knob(1.0, "ratio", 0.1, 1.0, "gravity multiplier while hanging (1 = off)")
    corner_correction: float = _knob(4.0, "px", 0.0, 8.0, "nudge around a ceiling corner when rising")


@dataclass(frozen=True)
class Fall(_Section):
    gravity_multiplier: float = _knob(1.6, "ratio", 1.0, 5.0, "gravity while falling, relative to rising")
    max_speed: float = _knob(360.0, "px/s", 50.0, 2000.0, "terminal falling speed")
    fast_gravity_multiplier: float = _knob(1.5, "ratio", 1.0, 5.0, "extra gravity while holding down")
    fast_max_speed: float = _knob(480.0, "px/s", 50.0, 3000.0, "terminal speed while holding down")


@dataclass(frozen=True)
class Platforms(_Section):
    drop_through_time: float = _knob(0.20, "s", 0.02, 1.0, "one-way platforms ignored after down+jump")
    lift_cap_x: float = _knob(200.0, "px/s", 0.0, 1000.0, "most horizontal platform speed a jump inherits")
    lift_cap_y: float = _knob(130.0, "px/s", 0.0, 1000.0, "most upward platform speed a jump inherits")


@dataclass(frozen=True)
class Wall(_Section):
    slide: bool = _switch(False, "wall slide: falling while pushing into a wall slows the fall")
    slide_speed: float = _knob(40.0, "px/s", 0.0, 2000.0, "fastest fall while sliding, with a fresh grip")
    slide_time: float = _knob(1.2, "s", 0.02, 60.0, "grip: over this much sliding the cap eases to fall.max_speed")
    jump: bool = _switch(False, "wall jump: a jump in the air near a wall kicks off it")
    jump_reach: float = _knob(6.0, "px", 0.0, 32.0, "a jump this far from a wall still kicks off it")
    coyote_time: float = _knob(0.05, "s", 0.0, 0.5, "after leaving a wall, a jump still kicks off it")
    jump_speed: float = _knob(260.0, "px/s", 0.0, 2000.0, "speed away from the wall at a wall jump")
    jump_height: float = _knob(48.0, "px", 4.0, 400.0, "apex of a held wall jump above where it starts")
    lock_time: float = _knob(0.16, "s", 0.0, 1.0, "after a wall jump, input reads as away from the wall")
    climb_jump: bool = _switch(False, "a wall jump pushing into the wall goes straight up it instead")


@dataclass(frozen=True)
class Dash(_Section):
    enabled: bool = _switch(False, "dash: the dash button bursts in the direction held")
    speed: float = _knob(480.0, "px/s", 50.0, 4000.0, "speed during a dash")
    time: float = _knob(0.15, "s", 0.02, 1.0, "how long a dash lasts (distance = speed x time)")
    end_speed: float = _knob(320.0, "px/s", 0.0, 4000.0, "speed kept along the dash when it ends")
    cooldown: float = _knob(0.2, "s", 0.0, 2.0, "from a dash's start until the next can start")
    count: int = _knob(1, "dashes", 1, 10, "per landing (a refill gives them back too)")
    diagonals: bool = _switch(True, "8 directions; off: 4 (a diagonal input dashes sideways)")
    buffer_time: float = _knob(0.08, "s", 0.0, 0.5, "a dash pressed this early (cooling down) still happens")
    corner_correction: float = _knob(4.0, "px", 0.0, 8.0, "nudge around a corner a dash clips")


_SECTIONS: dict[str, type] = {
    "physics": Physics,
    "run": Run,
    "jump": Jump,
    "fall": Fall,
    "platforms": Platforms,
    "wall": Wall,
    "dash": Dash,
}


@dataclass(frozen=True)
class Derived:
    """Values computed from the knobs; never set directly."""

    dt: float  # s, one fixed step
    gravity: float  # px/s^2 while rising
    fall_gravity: float  # px/s^2 while falling
    takeoff_speed: float  # px/s, upward speed at the start of a jump
    coyote_steps: int  # steps after the last grounded step that a jump still counts
    buffer_steps: int  # steps before landing that a pressed jump is kept
    drop_steps: int  # steps one-way platforms are ignored after a drop
    jump_distance: float  # px, horizontal distance of a held jump at full run (flat ground to flat ground)
    fall_time: float  # s, from the apex back to take-off height
    # the moves (wall slide, wall jump, dash); their values are computed even while the moves are off
    moves: bool = False  # any of wall.slide, wall.jump, dash.enabled is on
    grip_steps: int = 1  # steps of sliding the wall grip lasts (round(wall.slide_time * hz), at least 1)
    wall_coyote_steps: int = 0  # steps after the last step that began near a wall that a wall jump counts
    wall_takeoff_speed: float = 0.0  # px/s, upward speed of a wall jump (sqrt(2 g wall.jump_height))
    wall_time_to_apex: float = 0.0  # s, a held wall jump's rise (take-off speed / rising gravity)
    lock_steps: int = 0  # steps input reads as away from the wall after a wall jump
    dash_steps: int = 0  # steps a dash moves in: ceil(dash.time * hz); the last may be a part step
    dash_last: float = 1.0  # the part (0..1] of its last step a dash moves in, so it lasts dash.time exactly
    dash_distance: float = 0.0  # px, dash.speed * dash.time
    dash_cooldown_steps: int = 0  # steps from a dash's start until the next can start
    dash_buffer_steps: int = 0  # steps before a dash can start that a pressed dash is kept
    reach: float = 0.0  # px, the most a step of the moves can carry a character (dash or wall jump)


@dataclass(frozen=True)
class FeelConfig:
    physics: Physics = field(default_factory=Physics)
    run: Run = field(default_factory=Run)
    jump: Jump = field(default_factory=Jump)
    fall: Fall = field(default_factory=Fall)
    platforms: Platforms = field(default_factory=Platforms)
    wall: Wall = field(default_factory=Wall)
    dash: Dash = field(default_factory=Dash)

    def __post_init__(self):
        for name, section in _SECTIONS.items():
            value = getattr(self, name)
            if not isinstance(value, section):
                raise ConfigError(name, f"expected a {section.__name__}(...) section, got {_describe(value)}")

    # -- loading ---------------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict[str, Any], base: FeelConfig | None = None) -> FeelConfig:
        """Build from ``{"jump": {"height": 56}, ...}``; keys not named keep ``base``'s (or default) values.

        Raises :class:`ConfigError` naming the first unknown, mistyped or out-of-range key.
        """
        base = base or cls()
        if not isinstance(data, dict):
            raise ConfigError("", f"expected a table of sections, got {type(data).__name__}")
        sections = {}
        for name, table in data.items():
            if name not in _SECTIONS:
                raise ConfigError(str(name), f"unknown section{_suggest(str(name), _SECTIONS)}")
            if not isinstance(table, dict):
                raise ConfigError(name, f"expected a table like [{name}], got {_describe(table)}")
            current = getattr(base, name)
            valid = {f.name: f for f in fields(_SECTIONS[name])}
            changes = {}
            for key, value in table.items():
                dotted = f"{name}.{key}"
                if key not in valid:
                    raise ConfigError(dotted, f"unknown key{_suggest(str(key), valid, prefix=name + '.')}")
                changes[key] = _check(dotted, valid[key], value)
            sections[name] = replace(current, **changes)
        return replace(base, **sections)

    def to_dict(self) -> dict[str, dict[str, float | bool]]:
        return {name: {f.name: getattr(getattr(self, name), f.name) for f in fields(sec)}
                for name, sec in _SECTIONS.items()}

    def get(self, dotted: str) -> float:
        section, key = dotted.split(".", 1)
        return getattr(getattr(self, section), key)

    def with_value(self, dotted: str, value: float) -> FeelConfig:
        """A copy with one knob changed (validated)."""
        section, key = dotted.split(".", 1)
        return FeelConfig.from_dict({section: {key: value}}, base=self)

    # -- derived ---------------------------------------------------------------------------------------
    @property
    def derived(self) -> Derived:
        return _derive(self)


def _derive(cfg: FeelConfig) -> Derived:
    hz = cfg.physics.hz
    h, t = cfg.jump.height, cfg.jump.time_to_apex
    gravity = 2.0 * h / (t * t)
    fall_gravity = gravity * cfg.fall.gravity_multiplier
    fall_time = math.sqrt(2.0 * h / fall_gravity)
    wall, dash = cfg.wall, cfg.dash
    wall_takeoff = math.sqrt(2.0 * gravity * wall.jump_height)
    dash_span = dash.time * hz  # in steps, maybe fractional: the last step moves only its part
    dash_steps = max(1, math.ceil(dash_span - 1e-9))
    return Derived(
        dt=1.0 / hz,
        gravity=gravity,
        fall_gravity=fall_gravity,
        takeoff_speed=2.0 * h / t,
        coyote_steps=round(cfg.jump.coyote_time * hz),
        buffer_steps=round(cfg.jump.buffer_time * hz),
        drop_steps=max(1, round(cfg.platforms.drop_through_time * hz)),
        jump_distance=cfg.run.max_speed * (t + fall_time),
        fall_time=fall_time,
        moves=wall.slide or wall.jump or dash.enabled,
        grip_steps=max(1, round(wall.slide_time * hz)),
        wall_coyote_steps=round(wall.coyote_time * hz),
        wall_takeoff_speed=wall_takeoff,
        wall_time_to_apex=wall_takeoff / gravity,
        lock_steps=round(wall.lock_time * hz),
        dash_steps=dash_steps,
        dash_last=min(1.0, dash_span - (dash_steps - 1)),
        dash_distance=dash.speed * dash.time,
        dash_cooldown_steps=round(dash.cooldown * hz),
        dash_buffer_steps=round(dash.buffer_time * hz),
        reach=(max(dash.speed if dash.enabled else 0.0,
                   wall.jump_speed + cfg.platforms.lift_cap_x if wall.jump else 0.0)
               + (wall_takeoff + cfg.platforms.lift_cap_y if wall.jump else 0.0)) / hz,
    )


def knobs() -> list[tuple[str, str, Any, dict]]:
    """Every knob as ``(dotted name, type name, default, metadata)`` in file order; the type name is
    ``"float"``, ``"int"`` (a whole number) or ``"bool"`` (a switch, unit ``on/off``)."""
    out = []
    for name, sec in _SECTIONS.items():
        for f in fields(sec):
            default = f.default if f.default is not MISSING else None
            out.append((f"{name}.{f.name}", _type_name(f), default, dict(f.metadata)))
    return out


def _type_name(f) -> str:
    return "bool" if f.type in (bool, "bool") else "int" if f.type in (int, "int") else "float"


def _check(dotted: str, f, value: Any) -> float | bool:
    meta = f.metadata
    if f.type in (bool, "bool"):
        if not isinstance(value, bool):
            raise ConfigError(dotted, f"expected true or false (on/off), got {_describe(value)}")
        return value
    want_int = f.type in (int, "int")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        kind = "a whole number" if want_int else "a number"
        raise ConfigError(dotted, f"expected {kind} ({meta['unit']}), got {_describe(value)}")
    if want_int and not isinstance(value, int):
        hint = f"; write {int(value)}" if math.isfinite(value) and float(value).is_integer() else ""
        raise ConfigError(dotted, f"expected a whole number ({meta['unit']}), got {value!r}{hint}")
    if not math.isfinite(value) or not (meta["min"] <= value <= meta["max"]):
        raise ConfigError(dotted, f"{value!r} is out of range; allowed {meta['min']}..{meta['max']} "
                                  f"{meta['unit']}")
    return int(value) if want_int else float(value)


def _describe(value: Any) -> str:
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _suggest(word: str, options, prefix: str = "") -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.5)
    if close:
        return f"; did you mean '{prefix}{close[0]}'?"
    return f"; valid: {', '.join(prefix + o for o in options)}"
