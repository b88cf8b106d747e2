"""The feel file: read, validate, explain and write back the TOML file that holds every feel knob.

A feel file is a TOML document whose tables are the sections of :class:`engine.FeelConfig`
(``[physics]``, ``[run]``, ``[jump]``, ``[fall]``, ``[platforms]``, ``[wall]``, ``[dash]``); switches are
``true`` / ``false``. A file that names only some keys
overrides only those; the rest keep the ``base`` values (the engine defaults unless told otherwise).

Every problem is one :class:`FeelFileError` whose text is ONE line naming the file and the key or line::

    feel.toml: line 7: jump.hieght: unknown key; did you mean 'jump.height'?
    feel.toml: line 9: jump.height: 900.0 is out of range; allowed 4.0..400.0 px
    feel.toml: line 3: TOML syntax error: Invalid value (column 10)

Public API::

    load_feel(path, base=None) -> FeelConfig          # raises FeelFileError
    parse_feel(text, source="<feel>", base=None) -> FeelConfig
    explain(feel) -> str                               # derived values as a text table (--explain)
    save_feel(path, feel, base=None) -> list[str]      # write back with tomlkit, keeping comments/layout
    default_feel_text() -> str                         # a complete, commented feel file (feel.toml)
    GUIDE[dotted] -> Guide(lo, hi, step, what)          # sensible range, edit step and a longer meaning
    DEFAULT_FEEL_PATH                                  # <repo>/feel.toml

``python -m game.files.feelfile FILE`` checks a file and prints its derived values (exit code 2 on error).
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from engine import ConfigError, FeelConfig, knobs

from .userfiles import FileProblem, decode_text, parse_toml, read_bytes, read_text, write_atomic

__all__ = [
    "DEFAULT_FEEL_PATH", "FeelFileError", "GUIDE", "Guide", "SECTION_TITLES",
    "default_feel_text", "explain", "format_value", "load_feel", "parse_feel", "round_to_step", "save_feel",
]

DEFAULT_FEEL_PATH = Path(__file__).resolve().parents[2] / "feel.toml"


class FeelFileError(Exception):
    """One-line, user-facing problem with a feel file (names the file and the key or line)."""


@dataclass(frozen=True)
class Guide:
    """Designer-facing facts about one knob: a sensible range (slider ends), the edit step, what it does."""

    lo: float
    hi: float
    step: float
    what: str


SECTION_TITLES = {
    "physics": "Simulation",
    "run": "Running",
    "jump": "Jumping",
    "fall": "Falling",
    "platforms": "One-way and moving platforms",
    "wall": "Walls: slide and wall jump (off unless switched on)",
    "dash": "Dash (off unless switched on)",
}

# Sensible ranges are narrower than the engine's validity ranges (knobs() min/max): they are where a
# playable feel lives, and they are the ends of the panel's sliders.
GUIDE: dict[str, Guide] = {
    "physics.hz": Guide(30, 240, 1, "Steps per second. Higher is smoother and costs more CPU; "
                        "time-based knobs keep their meaning."),
    "physics.max_frame_time": Guide(0.05, 0.5, 0.01, "A frame slower than this runs in slow motion "
                                    "instead of taking ever more steps (spiral-of-death guard)."),
    "run.max_speed": Guide(60, 300, 5, "Top running speed. Sets the pace of the whole game and, with the "
                           "jump, how far a running jump carries."),
    "run.ground_accel": Guide(200, 6000, 50, "How fast you reach top speed on the ground. High = snappy, "
                              "low = slippery start."),
    "run.ground_decel": Guide(200, 8000, 50, "How fast you stop on the ground when you let go. Low = ice."),
    "run.turn_accel": Guide(200, 10000, 100, "How fast you reverse on the ground. High = crisp turns, "
                            "low = skid."),
    "run.air_accel": Guide(0, 6000, 50, "Air control when pushing a direction. 0 = committed jumps."),
    "run.air_decel": Guide(0, 4000, 50, "Air drag with no input. 0 = keep all momentum in the air."),
    "run.air_turn_accel": Guide(0, 8000, 50, "How fast you can reverse in mid-air."),
    "jump.height": Guide(16, 128, 1, "Apex of a full (held) jump above take-off. 48 px = 3 tiles."),
    "jump.time_to_apex": Guide(0.2, 0.7, 0.01, "Time a held jump takes to reach its apex. With the "
                               "height this sets gravity: short = snappy, long = floaty."),
    "jump.coyote_time": Guide(0, 0.2, 0.01, "Grace period after running off a ledge in which a jump "
                              "still works. Forgiving without feeling wrong at 0.06-0.12 s."),
    "jump.buffer_time": Guide(0, 0.2, 0.01, "A jump pressed this long before landing still happens on "
                              "landing."),
    "jump.release_cut": Guide(0, 1, 0.05, "Share of upward speed kept when jump is released early. "
                              "Low = strong short hops, 1 = no variable height."),
    "jump.apex_hang_speed": Guide(0, 120, 5, "Near the apex (vertical speed below this) a held jump "
                                  "hangs with reduced gravity. Needs apex_hang_gravity < 1."),
    "jump.apex_hang_gravity": Guide(0.3, 1, 0.05, "Gravity multiplier while hanging at the apex. "
                                    "1 = no hang, 0.5 = a floaty peak that helps aiming."),
    "jump.corner_correction": Guide(0, 8, 1, "Clipping a ceiling corner by up to this many px nudges you "
                                    "around it instead of stopping the jump."),
    "fall.gravity_multiplier": Guide(1, 3, 0.05, "Gravity on the way down relative to the way up. "
                                     "Above 1 gives a weighty, less floaty arc."),
    "fall.max_speed": Guide(150, 800, 10, "Terminal falling speed. Low = parachute, high = rock."),
    "fall.fast_gravity_multiplier": Guide(1, 3, 0.05, "Extra gravity while holding down in the air "
                                          "(fast fall)."),
    "fall.fast_max_speed": Guide(200, 1000, 10, "Terminal speed while fast falling."),
    "platforms.drop_through_time": Guide(0.05, 0.5, 0.01, "After down+jump, one-way platforms are "
                                         "ignored this long so you fall clear of them."),
    "platforms.lift_cap_x": Guide(0, 400, 10, "Most horizontal platform speed a jump inherits."),
    "platforms.lift_cap_y": Guide(0, 300, 10, "Most upward platform speed a jump inherits "
                                  "(jumping off a rising lift goes higher)."),
    # the moves: switches have no range (Guide(False, True, 1, ...)); Celeste's values are the defaults
    "wall.slide": Guide(False, True, 1, "Wall slide: falling while pushing into a wall slows the fall to "
                        "slide speed. Celeste, Super Meat Boy."),
    "wall.slide_speed": Guide(0, 160, 5, "Fastest fall down a wall with a fresh grip. 0 = you stick; "
                              "Celeste: 40 px/s at our scale."),
    "wall.slide_time": Guide(0.1, 5, 0.1, "How long the grip lasts: over this much sliding the cap eases "
                             "back to a normal fall. Landing renews it. Long = grip for ever."),
    "wall.jump": Guide(False, True, 1, "Wall jump: jump in the air near a wall to kick off it, away and "
                       "up. Needs jump_reach, jump_speed, jump_height."),
    "wall.jump_reach": Guide(0, 16, 1, "How far from a wall a jump still kicks off it. A few px "
                             "forgives a jump pressed just after leaving the wall."),
    "wall.coyote_time": Guide(0, 0.2, 0.01, "After drifting out of reach of a wall, a jump still kicks "
                              "off it for this long (like coyote time at a ledge)."),
    "wall.jump_speed": Guide(100, 500, 10, "Speed away from the wall at a wall jump. Above run speed it "
                             "eases down in the air (air decel)."),
    "wall.jump_height": Guide(16, 128, 1, "Rise of a held wall jump. Equal to jump height: a wall jump "
                              "climbs as high as a jump from the ground."),
    "wall.lock_time": Guide(0, 0.4, 0.01, "After a wall jump, left/right reads as away from the wall this "
                            "long: no turning straight back. 0 = free at once."),
    "wall.climb_jump": Guide(False, True, 1, "Pushing into the wall, a wall jump goes straight up it "
                             "instead of away: climbs any wall (no stamina)."),
    "dash.enabled": Guide(False, True, 1, "Dash: the dash button bursts in the direction held (none: the "
                          "way you face), no gravity while it lasts."),
    "dash.speed": Guide(200, 1200, 10, "Speed during a dash. Distance = speed x time (72 px = 4.5 tiles "
                        "at the defaults)."),
    "dash.time": Guide(0.05, 0.4, 0.01, "How long a dash lasts. Exact at any step rate: the last step "
                       "moves only its part."),
    "dash.end_speed": Guide(0, 600, 10, "Speed kept along the dash when it ends. 0 = a dead stop; above "
                            "run speed it eases down."),
    "dash.cooldown": Guide(0, 1, 0.01, "From one dash's start until the next can start."),
    "dash.count": Guide(1, 3, 1, "Dashes before you must land again (or touch a refill)."),
    "dash.diagonals": Guide(False, True, 1, "Eight directions. Off: four (a diagonal input dashes "
                            "sideways)."),
    "dash.buffer_time": Guide(0, 0.2, 0.01, "A dash pressed this early, while it cannot start yet, "
                              "still happens."),
    "dash.corner_correction": Guide(0, 8, 1, "A dash clipping a corner by up to this many px slides "
                                    "round it instead of stopping."),
}


def guide(dotted: str) -> Guide:
    """The guide for a knob; knobs added to the engine later get a fallback built from their metadata."""
    if dotted in GUIDE:
        return GUIDE[dotted]
    kind, meta = next((t, m) for name, t, _d, m in knobs() if name == dotted)
    if kind == "bool":
        return Guide(False, True, 1, meta.get("doc", ""))
    span = float(meta["max"]) - float(meta["min"])
    step = 10 ** math.floor(math.log10(span / 100)) if span > 0 else 1
    return Guide(meta["min"], meta["max"], step, meta.get("doc", ""))


# -- loading -----------------------------------------------------------------------------------------------

MAX_FEEL_BYTES = 1 << 20  # a feel file is read only up to this size


def read_feel_text(path: str | Path) -> str:
    """The text of a feel file (a regular UTF-8 file, BOM allowed, at most ``MAX_FEEL_BYTES``)."""
    try:
        return read_text(path, "feel file", MAX_FEEL_BYTES)
    except FileProblem as exc:
        if exc.missing:
            raise FeelFileError(f"{path}: no such feel file (the default one is {DEFAULT_FEEL_PATH.name} "
                                f"at the repository root)") from None
        raise FeelFileError(str(exc)) from None


def load_feel(path: str | Path, base: FeelConfig | None = None) -> FeelConfig:
    """Read and validate a feel file; keys it does not name keep ``base``'s values (default: engine)."""
    return parse_feel(read_feel_text(path), source=str(path), base=base)


def parse_feel(text: str, source: str = "<feel>", base: FeelConfig | None = None) -> FeelConfig:
    """Validate TOML text into a FeelConfig; errors are one line starting with ``source``."""
    try:
        data = parse_toml(text, source)
    except FileProblem as exc:
        raise FeelFileError(str(exc)) from None
    _check_root(data, text, source)
    _check_huge(data, text, source)
    try:
        return FeelConfig.from_dict(data, base=base)
    except ConfigError as exc:
        line = _line_of(text, exc.key)
        where = f"line {line}: " if line else ""
        raise FeelFileError(f"{source}: {where}{_with_range(exc)}") from None


def _check_root(data: dict, text: str, source: str) -> None:
    """Catch a knob written outside its table (``height = 56`` above ``[jump]``) with a precise hint."""
    sections = {name.split(".")[0] for name, *_ in knobs()}
    for key, value in data.items():
        if key in sections:
            continue
        homes = [name for name, *_ in knobs() if name.split(".", 1)[1] == key]
        if homes and not isinstance(value, dict):
            line = _line_of(text, key)
            where = f"line {line}: " if line else ""
            raise FeelFileError(f"{source}: {where}{key}: a knob outside any table; "
                                f"did you mean '{homes[0]}' (put it under [{homes[0].split('.')[0]}])?")


def _check_huge(data: dict, text: str, source: str) -> None:
    """A whole number of hundreds of digits would overflow the engine's float range check: say so here."""
    meta = {name: m for name, _t, _d, m in knobs()}
    for section, table in data.items():
        for key, value in (table.items() if isinstance(table, dict) else ()):
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
                dotted = f"{section}.{key}"
                line = _line_of(text, dotted)
                where = f"line {line}: " if line else ""
                allowed = f"; allowed {meta[dotted]['min']}..{meta[dotted]['max']} {meta[dotted]['unit']}" \
                    if dotted in meta else ""
                digits = str(value)[:20] + "..."  # it has over 15 digits
                raise FeelFileError(f"{source}: {where}{dotted}: {digits} is far too large{allowed}")


def _with_range(exc: ConfigError) -> str:
    """Type errors name the allowed range too, so one message says everything needed to fix the value."""
    text = str(exc)
    meta = {name: m for name, _t, _d, m in knobs()}.get(exc.key)
    if meta and exc.reason.startswith("expected") and "allowed" not in text and meta["unit"] != "on/off":
        text += f"; allowed {meta['min']}..{meta['max']} {meta['unit']}"
    return text


_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_\-\"' .]+?)\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"' .]+?)\s*=")


def _line_of(text: str, dotted: str) -> int | None:
    """1-based line where ``dotted`` (``section`` or ``section.key``) is written, best effort."""
    if not dotted:
        return None
    want = dotted.split(".")
    table: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        m = _HEADER.match(line)
        if m and not line.lstrip().startswith("[["):
            table = [p.strip().strip("\"'") for p in m.group(1).split(".")]
            if table == want:
                return number
            continue
        m = _KEY.match(line)
        if m:
            key = [p.strip().strip("\"'") for p in m.group(1).split(".")]
            full = table + key
            if full == want or full[: len(want)] == want:
                return number
    return None


# -- explaining --------------------------------------------------------------------------------------------

_EXPLAIN_ROWS = [
    # (label, attribute, unit, how)
    ("step (dt)", "dt", "s", "1 / physics.hz"),
    ("gravity, rising", "gravity", "px/s^2", "2 * jump.height / jump.time_to_apex^2"),
    ("gravity, falling", "fall_gravity", "px/s^2", "gravity * fall.gravity_multiplier"),
    ("take-off speed", "takeoff_speed", "px/s", "2 * jump.height / jump.time_to_apex"),
    ("fall time, apex to ground", "fall_time", "s", "sqrt(2 * jump.height / falling gravity)"),
    ("jump distance at full run", "jump_distance", "px", "run.max_speed * (time_to_apex + fall time)"),
    ("coyote window", "coyote_steps", "steps", "round(jump.coyote_time * hz)"),
    ("jump buffer window", "buffer_steps", "steps", "round(jump.buffer_time * hz)"),
    ("drop-through", "drop_steps", "steps", "max(1, round(platforms.drop_through_time * hz))"),
]


def _number(value) -> str:
    if isinstance(value, int):
        return str(value)
    return f"{value:.1f}" if abs(value) >= 10 else f"{value:.3f}"


def derived_rows(feel: FeelConfig) -> list[tuple[str, str, str, str]]:
    """``(label, value text, unit, how it is computed)`` for every derived value (panel and --explain).

    The moves' rows are there while a move is off too (what turning it on would give), marked "(off)".
    """
    d = feel.derived
    rows = []
    for label, attr, unit, how in _EXPLAIN_ROWS:
        value = getattr(d, attr)
        rows.append((label, f"{value:.5f}" if attr == "dt" else _number(value), unit, how))
    tiles = d.jump_distance / 16.0
    rows.append(("jump distance in 16 px tiles", f"{tiles:.1f}", "tiles", "jump distance / 16"))
    rows.append(("jump height in 16 px tiles", f"{feel.jump.height / 16.0:.2f}", "tiles", "jump.height / 16"))
    off = " (off)"
    wall, dash = feel.wall, feel.dash
    w_off = "" if wall.jump else off
    arc = wall_jump_arc(feel)
    rows += [
        ("wall-jump take-off speed" + w_off, _number(d.wall_takeoff_speed), "px/s",
         "sqrt(2 * rising gravity * wall.jump_height)"),
        ("wall-jump rise" + w_off, f"{arc.rise:.1f}", "px", "a held wall jump, simulated"),
        ("wall-jump rise in tiles" + w_off, f"{arc.rise / 16.0:.2f}", "tiles", "rise / 16"),
        ("wall-jump time to apex" + w_off, f"{arc.apex_time:.3f}", "s", "a held wall jump, simulated"),
        ("wall-jump push at the apex" + w_off, f"{arc.push:.1f}", "px",
         "off the wall at the apex, holding away, simulated"),
        ("wall-jump push in tiles" + w_off, f"{arc.push / 16.0:.2f}", "tiles", "push / 16"),
        ("wall coyote window" + w_off, str(d.wall_coyote_steps), "steps", "round(wall.coyote_time * hz)"),
        ("wall-jump input lock" + w_off, str(d.lock_steps), "steps", "round(wall.lock_time * hz)"),
        ("wall grip" + ("" if wall.slide else off), str(d.grip_steps), "steps",
         "max(1, round(wall.slide_time * hz))"),
    ]
    x_off = "" if dash.enabled else off
    rows += [
        ("dash distance" + x_off, _number(d.dash_distance), "px", "dash.speed * dash.time"),
        ("dash distance in tiles" + x_off, f"{d.dash_distance / 16.0:.2f}", "tiles", "dash distance / 16"),
        ("dash steps" + x_off, str(d.dash_steps), "steps", "ceil(dash.time * hz); the last moves "
         f"{d.dash_last:.2f} of a step"),
        ("dash cooldown" + x_off, str(d.dash_cooldown_steps), "steps", "round(dash.cooldown * hz)"),
        ("dash buffer" + x_off, str(d.dash_buffer_steps), "steps", "round(dash.buffer_time * hz)"),
    ]
    return rows


class WallJumpArc(NamedTuple):
    rise: float  # px, apex above where the wall jump started
    push: float  # px, off the wall at the apex
    apex_time: float  # s, from the jump to the apex


_arcs: dict = {}


def wall_jump_arc(feel: FeelConfig) -> WallJumpArc:
    """A held wall jump off a tall wall, holding away from it, run on the real controller (cached)."""
    found = _arcs.get(feel)
    if found is not None:
        return found
    from engine import Buttons, Character, TileGrid, World

    tall = 1 + int((feel.wall.jump_height + 64) // 16) * 2
    grid = TileGrid.from_ascii("\n".join("#" + "." * 60 for _ in range(tall)))
    world = World(grid, FeelConfig.from_dict({"wall": {"jump": True}}, base=feel))
    hero = world.add(Character(16.0, (tall - 2) * 16.0))
    x0, y0 = hero.x, hero.y
    top, at = y0, 0
    away = Buttons(right=True, jump=True)
    for step in range(1, 4 * feel.physics.hz):
        world.step(away)
        if hero.y < top:
            top, at, push = hero.y, step, hero.x - x0
        elif hero.vy > 0.0:
            break
    arc = WallJumpArc(y0 - top, push if at else 0.0, at / feel.physics.hz)
    if len(_arcs) > 64:
        _arcs.clear()
    _arcs[feel] = arc
    return arc


def explain(feel: FeelConfig) -> str:
    """The derived values as an aligned text table (what ``python -m game --feel FILE --explain`` prints)."""
    rows = [("derived value", "value", "unit", "from")] + derived_rows(feel)
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for i, (label, value, unit, how) in enumerate(rows):
        lines.append(f"{label:<{widths[0]}}  {value:>{widths[1]}}  {unit:<{widths[2]}}  {how}".rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


# -- writing -----------------------------------------------------------------------------------------------

def format_value(dotted: str, value: float | bool) -> str:
    """Shortest faithful text for a knob value (no float noise like 0.30000000000000004); a switch is
    ``true`` / ``false``, as TOML spells it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = f"{value:.6g}"
    if "e" in text or "." not in text:
        text = repr(float(round(value, 6)))
    return text


def round_to_step(value: float, step: float) -> float:
    """Round to the edit step's precision (keeps files free of float noise)."""
    decimals = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    return round(round(value / step) * step, decimals + 2)


def _toml_value(dotted: str, value: float):
    import tomlkit

    types = {name: t for name, t, _d, _m in knobs()}
    if types.get(dotted) == "bool":
        return tomlkit.boolean("true" if value else "false")
    if types.get(dotted) == "int":
        return tomlkit.integer(int(value))
    return tomlkit.item(float(format_value(dotted, float(value))))


def save_feel(path: str | Path, feel: FeelConfig, base: FeelConfig | None = None) -> list[str]:
    """Write ``feel`` back into the file at ``path``, keeping its comments, order and layout (tomlkit).

    Only knobs whose value differs from what the file currently means are touched. A knob the file does
    not name is added (to its table, created at the end if missing) only when its value differs from
    ``base`` (the defaults) -- so partial preset files stay partial. A value's trailing comment keeps its
    column when the value's width changes. Returns the dotted names written. A missing file is created.
    Raises FeelFileError if the current file is not valid (fix it first, or it would be overwritten) or
    cannot be written (the file is then left as it was: the write is whole or nothing).
    """
    import tomlkit
    from tomlkit.items import Table

    path = Path(path)
    base = base or FeelConfig()
    try:
        data = read_bytes(path, "feel file", MAX_FEEL_BYTES)
        text = decode_text(data, path, "feel file")
    except FileProblem as exc:
        if not exc.missing:  # e.g. not UTF-8: writing our values would lose what the file holds
            raise FeelFileError(f"{exc}; fix it before saving") from None
        data, text = b"", ""
    current = parse_feel(text, source=str(path), base=base)
    bom = "\ufeff" if data.startswith(b"\xef\xbb\xbf") else ""  # kept as the file had it
    try:
        doc = tomlkit.parse(text)
    except Exception as exc:  # noqa: BLE001 - tomlkit refusing what tomllib read: one line, file kept
        raise FeelFileError(f"{path}: cannot rewrite the file keeping its layout ({exc}); fix it before "
                            "saving") from None
    written = []
    for dotted, _type, _default, _meta in knobs():
        section, key = dotted.split(".", 1)
        new, old = feel.get(dotted), current.get(dotted)
        table = doc.get(section)
        present = isinstance(table, dict) and key in table
        if present:
            if new == old:
                continue
            _replace_keep_column(table, key, _toml_value(dotted, new))
        else:
            if new == base.get(dotted):
                continue
            if table is None:
                table = tomlkit.table()
                doc.add(section, table)
            elif not isinstance(table, Table):
                raise FeelFileError(f"{path}: [{section}] is not a plain table; cannot write {dotted}")
            table.add(key, _toml_value(dotted, new))
        written.append(dotted)
    if written or not path.exists():
        try:
            write_atomic(path, bom + tomlkit.dumps(doc), "feel file")
        except FileProblem as exc:
            raise FeelFileError(str(exc)) from None
    return written


def _replace_keep_column(table, key: str, item) -> None:
    old = _item(table, key)
    old_text = old.as_string()
    trivia = getattr(old, "trivia", None)
    table[key] = item
    new = _item(table, key)
    if trivia is not None and trivia.comment:
        pad = len(trivia.comment_ws) + len(old_text) - len(new.as_string())
        new.trivia.comment_ws = " " * max(1, pad)
        new.trivia.comment = trivia.comment


def _item(table, key: str):
    """The tomlkit item of ``key`` (``table[key]`` gives a plain ``bool`` for a boolean). A Table has
    ``item()`` from tomlkit 0.13 on; before that its Container (``table.value``) has it."""
    item = getattr(table, "item", None) or getattr(getattr(table, "value", None), "item", None)
    return item(key) if item is not None else table[key]


# -- the default file --------------------------------------------------------------------------------------

def default_feel_text(feel: FeelConfig | None = None) -> str:
    """A complete feel file with every knob, its unit, meaning and sensible range in comments."""
    feel = feel or FeelConfig()
    lines = [
        "# feel.toml -- every knob of the player controller and the physics.",
        "#",
        "# Units: px (pixels, 16 px = one tile), s (seconds), px/s, px/s^2; y grows downward.",
        "# A file may name only some keys; the others keep their defaults. Edit while the game runs:",
        "# saving applies within a second (F5 forces it); F2 opens the tuning panel, which writes back here.",
        "# Check a file and see what it implies:  python -m game --feel FILE --explain",
        "# Each comment: unit, meaning, [sensible range]; the engine rejects values outside its hard limits.",
    ]
    by_section: dict[str, list] = {}
    for dotted, _t, _d, meta in knobs():
        by_section.setdefault(dotted.split(".")[0], []).append((dotted, meta))
    for section, items in by_section.items():
        title = f"# -- {SECTION_TITLES.get(section, section)} "
        lines += ["", title + "-" * max(4, 100 - len(title)), f"[{section}]"]
        key_w = max(len(d.split(".", 1)[1]) for d, _ in items)
        val_w = max(len(format_value(d, feel.get(d))) for d, _ in items)
        for dotted, meta in items:
            key = dotted.split(".", 1)[1]
            g = guide(dotted)
            value = format_value(dotted, feel.get(dotted))
            span = "[true/false]" if meta["unit"] == "on/off" else \
                f"[{format_value(dotted, g.lo)}..{format_value(dotted, g.hi)}]"
            lines.append(f"{key:<{key_w}} = {value:<{val_w}}  # {meta['unit']}, {meta['doc']} {span}")
    return "\n".join(lines) + "\n"


# -- command line --------------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print("usage: python -m game.files.feelfile FILE   (check a feel file and print its derived values)\n"
              "       python -m game.files.feelfile --default   (print a complete default feel file)")
        return 0
    if args[0] == "--default":
        sys.stdout.write(default_feel_text())
        return 0
    try:
        feel = load_feel(args[0])
    except FeelFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(explain(feel))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
