"""Keyboard and gamepad input: held buttons for the fixed steps, menu actions for the scenes.

Two views of the same devices:

* ``step_buttons()`` gives the ``engine.Buttons`` for ONE fixed step. Presses are **latched**: a button
  pressed since the last step counts as held for the next step even if it was released again within the
  same frame, so a quick tap between two steps is never lost.
* ``actions`` lists this frame's menu actions in order: ``up down left right confirm back pause``, plus
  ``pad_removed`` when a gamepad is unplugged (the play scene pauses on it). Every press counts: two
  presses of Down within one frame are two ``down`` actions.

Bindings: defaults below, overridable from ``input.toml`` in the config folder (``$TILEFEEL_CONFIG_DIR``,
else ``%APPDATA%\\tilefeel`` on Windows, else ``$XDG_CONFIG_HOME/tilefeel`` or ``~/.config/tilefeel``)::

    [keyboard]            # key names as pygame spells them: "left", "a", "space", "return", "escape", "f1"
    jump = ["space", "z", "k", "up"]
    dash = ["x", "left shift", "j"]   # (the dash does something when the feel turns it on: [dash])
    [gamepad]             # SDL game-controller buttons: a b x y back start leftshoulder rightshoulder
    jump = ["a", "b"]     # dpup dpdown dpleft dpright leftstick rightstick
    dash = ["x", "rightshoulder"]
    deadzone = 0.4        # left stick, 0..1

A table names only what it changes. A bad file (not UTF-8, not TOML, a wrong type, an unknown name, larger
than ``MAX_CONTROLS_BYTES``, not a regular file) is reported in one line and the defaults are used; an
action given an empty list (``jump = []``) would be unusable, so it keeps its default, with a warning.
Gamepads: SDL game controllers (standard layout) with hot-plug; other joysticks fall back to button 0 =
jump, 1 = back, 2 = dash, 7 = start, first hat / first two axes = move.
"""

from __future__ import annotations

import os
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pygame

try:
    from engine import Buttons
except ImportError:  # the engine not landed yet: same shape
    from collections import namedtuple
    Buttons = namedtuple("Buttons", "left right up down jump dash", defaults=(False,) * 6)

try:
    from pygame._sdl2 import controller as _controller
except ImportError:  # pragma: no cover - very old pygame
    _controller = None

from game.files.userfiles import (FileProblem, decode_text, parse_toml, printable, read_text, read_when_settled, shown,
                                   write_atomic)

__all__ = ["Input", "init_devices", "Bindings", "BindingsError", "load_bindings", "save_bindings", "rebind",
           "config_path", "STEP_BUTTONS", "ACTIONS", "MAX_CONTROLS_BYTES", "RESERVED_KEYS"]

MAX_CONTROLS_BYTES = 64 << 10  # the controls file is read only up to this size

STEP_BUTTONS = ("left", "right", "up", "down", "jump", "dash")
ACTIONS = ("left", "right", "up", "down", "jump", "dash", "confirm", "back", "pause")

DEFAULT_KEYS = {
    "left": ["left", "a"], "right": ["right", "d"], "up": ["up", "w"], "down": ["down", "s"],
    "jump": ["space", "z", "k"], "dash": ["x", "left shift", "j"], "confirm": ["return", "enter"],
    "back": ["backspace"], "pause": ["escape", "p"],
}
DEFAULT_PAD = {
    "left": ["dpleft"], "right": ["dpright"], "up": ["dpup"], "down": ["dpdown"],
    "jump": ["a"], "dash": ["x"], "confirm": ["a"], "back": ["b"], "pause": ["start"],
}
PAD_BUTTONS = {
    "a": "CONTROLLER_BUTTON_A", "b": "CONTROLLER_BUTTON_B", "x": "CONTROLLER_BUTTON_X",
    "y": "CONTROLLER_BUTTON_Y", "back": "CONTROLLER_BUTTON_BACK", "guide": "CONTROLLER_BUTTON_GUIDE",
    "start": "CONTROLLER_BUTTON_START", "leftstick": "CONTROLLER_BUTTON_LEFTSTICK",
    "rightstick": "CONTROLLER_BUTTON_RIGHTSTICK", "leftshoulder": "CONTROLLER_BUTTON_LEFTSHOULDER",
    "rightshoulder": "CONTROLLER_BUTTON_RIGHTSHOULDER", "dpup": "CONTROLLER_BUTTON_DPAD_UP",
    "dpdown": "CONTROLLER_BUTTON_DPAD_DOWN", "dpleft": "CONTROLLER_BUTTON_DPAD_LEFT",
    "dpright": "CONTROLLER_BUTTON_DPAD_RIGHT",
}
JOY_FALLBACK = {0: "a", 1: "b", 2: "x", 3: "y", 6: "back", 7: "start"}
_KEY_ALIASES = {"enter": "return", "esc": "escape", "spacebar": "space"}
_MENU_FROM = {"jump": "confirm", "pause": "pause", "back": "back", "confirm": "confirm",
              "left": "left", "right": "right", "up": "up", "down": "down"}


# keys the game keeps for itself (developer keys, fullscreen, mute): never given to an action
RESERVED_KEYS = {"f2": "the feel panel", "f3": "the debug overlay", "f5": "reloading the feel",
                 "f11": "fullscreen", "f12": "screenshots", "m": "mute"}
# a key may serve one play action and one menu action (pad A: jump and confirm), never two of one group
GROUPS = ({"left", "right", "up", "down", "jump", "dash", "pause"}, {"confirm", "back"})  # (every action in one)


class BindingsError(ValueError):
    """A problem with the bindings file; str() is one line naming the file and the key."""


def config_path() -> Path:
    env = os.environ.get("TILEFEEL_CONFIG_DIR")
    if env:
        return Path(env) / "input.toml"
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
    else:
        base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "tilefeel" / "input.toml"


@dataclass
class Bindings:
    keys: dict[str, list[int]] = field(default_factory=dict)  # action -> key codes
    pad: dict[str, list[str]] = field(default_factory=dict)  # action -> controller button names
    deadzone: float = 0.4

    @classmethod
    def defaults(cls) -> Bindings:
        return cls.from_dict({})

    @classmethod
    def from_dict(cls, data: dict, source: str = "bindings", notes: list[str] | None = None) -> Bindings:
        """Bindings from a parsed controls file. Raises :class:`BindingsError` (one line) for a bad
        value; an action given an empty list keeps its default and is named in ``notes``."""
        unknown = set(data) - {"keyboard", "gamepad"}
        if unknown:
            raise BindingsError(f"{source}: unknown table [{shown(sorted(unknown)[0])[1:-1]}]; "
                                "use [keyboard] or [gamepad]")
        notes = [] if notes is None else notes
        kb = dict(DEFAULT_KEYS)
        kb.update(_names(data.get("keyboard", {}), source, "keyboard", notes))
        pad_table = data.get("gamepad", {})
        if not isinstance(pad_table, dict):
            raise BindingsError(f"{source}: gamepad must be a table ([gamepad]), not {shown(pad_table)}")
        pad_table = dict(pad_table)
        deadzone = pad_table.pop("deadzone", 0.4)
        if isinstance(deadzone, bool) or not isinstance(deadzone, (int, float)) or not 0 <= deadzone < 1:
            raise BindingsError(f"{source}: gamepad.deadzone must be a number from 0 to below 1, "
                                f"got {shown(deadzone)}")
        pad = dict(DEFAULT_PAD)
        pad.update(_names(pad_table, source, "gamepad", notes))
        keys = {}
        for action, names in kb.items():
            codes = []
            for name in names:
                n = _KEY_ALIASES.get(name.lower(), name.lower())
                try:
                    with warnings.catch_warnings():  # "pygame.init() has not been called": still fine
                        warnings.simplefilter("ignore")
                        codes.append(pygame.key.key_code(n))
                except ValueError:
                    raise BindingsError(f"{source}: keyboard.{action}: unknown key {shown(name)} (use pygame "
                                        "key names like 'space', 'left', 'a', 'return')") from None
            keys[action] = codes
        for action, names in pad.items():
            for name in names:
                if name.lower() not in PAD_BUTTONS:
                    raise BindingsError(f"{source}: gamepad.{action}: unknown button {shown(name)}; valid: "
                                        f"{', '.join(PAD_BUTTONS)}")
            pad[action] = [n.lower() for n in names]
        return cls(keys=keys, pad=pad, deadzone=float(deadzone))


def _names(table, source: str, where: str, notes: list[str]) -> dict[str, list[str]]:
    if not isinstance(table, dict):
        raise BindingsError(f"{source}: {where} must be a table ([{where}]), not {shown(table)}")
    out = {}
    for action, value in table.items():
        if action not in ACTIONS:
            raise BindingsError(f"{source}: unknown action {where}.{shown(action)[1:-1]}; valid: "
                                f"{', '.join(ACTIONS)}")
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise BindingsError(f"{source}: {where}.{action} must be a name or a list of names, "
                                f"not {shown(value)}")
        if not value:  # the action could never be used: keep its default
            notes.append(f"{where}.{action}")
            continue
        out[action] = value
    return out


def load_bindings(path: Path | None = None) -> tuple[Bindings, str | None]:
    """Bindings from ``path`` (default: :func:`config_path`). Missing file: defaults, no message.
    A bad file: defaults plus a one-line message; an empty action list: that action's default plus a
    one-line warning. Never raises."""
    path = Path(path) if path else config_path()
    bindings, msg = _load_bindings(path)
    return bindings, (printable(" ".join(msg.split())) if msg else None)


def _load_bindings(path: Path) -> tuple[Bindings, str | None]:
    try:
        raw = read_when_settled(path, "controls file", MAX_CONTROLS_BYTES)  # never half a rewrite
        data = parse_toml(decode_text(raw, path, "controls file"), str(path))
    except FileProblem as exc:
        if exc.missing:
            return Bindings.defaults(), None
        return Bindings.defaults(), f"{exc}; using default controls"
    notes: list[str] = []
    try:
        bindings = Bindings.from_dict(data, str(path), notes)
    except BindingsError as exc:
        return Bindings.defaults(), f"{exc}; using default controls"
    if not notes:
        return bindings, None
    them = "it" if len(notes) == 1 else "them"
    return bindings, (f"{path}: {' and '.join(notes)} {'is an empty list' if len(notes) == 1 else 'are empty lists'}"
                      f" (that could never be pressed); keeping the default for {them}")


def key_names(bindings: Bindings) -> dict[str, list[str]]:
    """The keyboard bindings as key names (as ``input.toml`` spells them)."""
    return {a: [pygame.key.name(c) for c in codes] for a, codes in bindings.keys.items()}


def rebind(bindings: Bindings, device: str, action: str, name: str) -> tuple[Bindings, str]:
    """``bindings`` with ``name`` (a key name for ``device="keyboard"``, a pad button for ``"gamepad"``) as
    the first binding of ``action``. An action of the same group that had it gets ``action``'s old first
    binding instead (a swap). Returns ``(new bindings, what happened in words)``; raises BindingsError
    (one line, for the player) when refused: a reserved key, or a swap that would leave an action with
    nothing to press."""
    if device == "keyboard" and name in RESERVED_KEYS:
        raise BindingsError(f"{name.upper()} is kept for {RESERVED_KEYS[name]}; choose another key")
    if device == "gamepad" and name == "guide":
        raise BindingsError("the guide button belongs to the system; choose another button")
    table = key_names(bindings) if device == "keyboard" else {a: list(v) for a, v in bindings.pad.items()}
    mine = table[action]
    old = mine[0] if mine else None
    group = next(g for g in GROUPS if action in g)
    swapped = []
    for other in ACTIONS:
        if other == action or other not in group or name not in table[other]:
            continue
        repl = [old if x == name else x for x in table[other]] if old and old not in table[other] \
            else [x for x in table[other] if x != name]
        if not repl:
            raise BindingsError(f"{_shown_name(name)} is {_label(other)}'s only {_what(device)}; "
                                f"give {_label(other)} another one first")
        table[other] = repl
        swapped.append(other)
    table[action] = [name] + [x for x in mine[1:] if x != name]
    data = {"keyboard": table, "gamepad": {k: v for k, v in bindings.pad.items()}} if device == "keyboard" \
        else {"keyboard": key_names(bindings), "gamepad": table}
    data["gamepad"]["deadzone"] = bindings.deadzone
    new = Bindings.from_dict(data)
    said = f"{_label(action)}: {_shown_name(name)}"
    if swapped:
        said += f" (swapped with {', '.join(_label(o) for o in swapped)}: now {_shown_name(old)})"
    return new, said


_LABELS = {"left": "Move left", "right": "Move right", "up": "Up", "down": "Down / drop", "jump": "Jump",
           "dash": "Dash", "pause": "Pause", "confirm": "Confirm", "back": "Back"}


def _label(action: str) -> str:
    return _LABELS.get(action, action)


def _what(device: str) -> str:
    return "key" if device == "keyboard" else "button"


def _shown_name(name: str | None) -> str:
    return (name or "-").upper() if len(name or "-") <= 2 else (name or "-").capitalize()


def save_bindings(bindings: Bindings, path: Path | None = None) -> Path:
    """Write ``bindings`` to ``input.toml`` (default :func:`config_path`) atomically, keeping the file's
    comments and layout (tomlkit): an action back at its default is taken out of the file, the others
    are written as lists of names. Raises FileProblem (one line) when it cannot."""
    import tomlkit

    path = Path(path) if path else config_path()
    try:
        doc = tomlkit.parse(read_text(path, "controls file", MAX_CONTROLS_BYTES))
    except FileProblem as exc:
        if not exc.missing:
            raise
        doc = tomlkit.document()
        doc.add(tomlkit.comment("tilefeel controls, written by Options > Controls (edit freely; see README)"))
    except Exception as exc:  # noqa: BLE001 - tomlkit's parse errors: the file is not TOML
        raise FileProblem(f"{path}: not valid TOML ({' '.join(str(exc).split())}); not overwritten") from None
    for table_name, now, default in (("keyboard", key_names(bindings), DEFAULT_KEYS),
                                     ("gamepad", bindings.pad, DEFAULT_PAD)):
        table = doc.get(table_name)
        if table is None or not hasattr(table, "keys"):
            table = tomlkit.table()
        base = Bindings.defaults()
        base_names = key_names(base) if table_name == "keyboard" else base.pad
        for action in ACTIONS:
            if now.get(action) == base_names.get(action):
                if action in table:
                    del table[action]
            else:
                table[action] = list(now.get(action, default.get(action, [])))
        if table_name == "gamepad" and bindings.deadzone != 0.4:
            table["deadzone"] = bindings.deadzone
        if table_name not in doc and len(table):
            doc[table_name] = table
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, tomlkit.dumps(doc), "controls file")
    return path


def init_devices() -> None:
    """Start the joystick and game-controller subsystems: pads already plugged in then arrive as
    JOYDEVICEADDED / CONTROLLERDEVICEADDED events like hot-plugged ones."""
    try:
        pygame.joystick.init()
        if _controller is not None and not _controller.get_init():
            _controller.init()
    except pygame.error:  # no joystick support in this SDL build: keyboard only
        pass


class _Pad:
    """One connected gamepad: its held buttons (by controller name) and stick."""

    def __init__(self, device, is_controller: bool):
        self.device = device
        self.is_controller = is_controller
        self.buttons: set[str] = set()
        self.axis = [0.0, 0.0]
        self.hat = (0, 0)
        self.name = getattr(device, "name", "gamepad")


class Input:
    def __init__(self, bindings: Bindings | None = None):
        self.bindings = bindings or Bindings.defaults()
        self.keys_down: set[int] = set()
        self.pads: dict[int, _Pad] = {}  # instance id -> pad
        self.actions: list[str] = []
        self._latched: set[str] = set()
        self._masked: set[str] = set()  # held buttons ignored until released (see clear)
        self._stick_dirs: dict[int, set[str]] = {}
        self._key_index = self._index_keys()
        self.device = "keyboard"  # what the player last pressed: "keyboard" or "gamepad" (for prompts)

    def set_bindings(self, bindings: Bindings) -> None:
        """Use new bindings from now on (Options > Controls)."""
        self.bindings = bindings
        self._key_index = self._index_keys()

    def _index_keys(self) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        for action, codes in self.bindings.keys.items():
            for code in codes:
                out.setdefault(code, []).append(action)
        return out

    # -- frame ----------------------------------------------------------------------------------------
    def begin_frame(self) -> None:
        """Call once per frame before feeding events: forgets last frame's menu actions."""
        self.actions = []

    def handle(self, event) -> None:
        t = event.type
        if t == pygame.KEYDOWN:
            if event.key not in self.keys_down:
                self.keys_down.add(event.key)
                self.device = "keyboard"
                self._press(self._key_index.get(event.key, ()))
            else:  # key repeat (pygame.key.set_repeat): menus scroll, the simulation sees nothing new
                self._menu(a for a in self._key_index.get(event.key, ())
                           if a in ("up", "down", "left", "right"))
        elif t == pygame.KEYUP:
            self.keys_down.discard(event.key)
        elif t in (pygame.WINDOWFOCUSLOST,):
            self.keys_down.clear()
        elif _controller and t == pygame.CONTROLLERDEVICEADDED:
            self._add_controller(event.device_index)
        elif t in (pygame.CONTROLLERDEVICEREMOVED, pygame.JOYDEVICEREMOVED):
            if self.pads.pop(getattr(event, "instance_id", -1), None) is not None:
                self.actions.append("pad_removed")
        elif t == pygame.JOYDEVICEADDED:
            self._add_joystick(event.device_index)
        elif t in (pygame.CONTROLLERBUTTONDOWN, pygame.CONTROLLERBUTTONUP):
            pad = self.pads.get(event.instance_id)
            if pad and pad.is_controller:
                name = _button_name(event.button)
                self._pad_button(pad, name, t == pygame.CONTROLLERBUTTONDOWN)
        elif t == pygame.CONTROLLERAXISMOTION:
            pad = self.pads.get(event.instance_id)
            if pad and pad.is_controller and event.axis in (pygame.CONTROLLER_AXIS_LEFTX,
                                                              pygame.CONTROLLER_AXIS_LEFTY):
                pad.axis[0 if event.axis == pygame.CONTROLLER_AXIS_LEFTX else 1] = event.value / 32767
                self._stick(pad)
        elif t in (pygame.JOYBUTTONDOWN, pygame.JOYBUTTONUP):
            pad = self.pads.get(event.instance_id)
            if pad and not pad.is_controller and event.button in JOY_FALLBACK:
                self._pad_button(pad, JOY_FALLBACK[event.button], t == pygame.JOYBUTTONDOWN)
        elif t == pygame.JOYHATMOTION:
            pad = self.pads.get(event.instance_id)
            if pad and not pad.is_controller and event.hat == 0:
                old = pad.hat
                pad.hat = event.value
                for name, (i, sign) in (("dpleft", (0, -1)), ("dpright", (0, 1)), ("dpdown", (1, -1)),
                                        ("dpup", (1, 1))):
                    was, now = old[i] == sign, pad.hat[i] == sign
                    if was != now:
                        self._pad_button(pad, name, now)
        elif t == pygame.JOYAXISMOTION:
            pad = self.pads.get(event.instance_id)
            if pad and not pad.is_controller and event.axis in (0, 1):
                pad.axis[event.axis] = event.value
                self._stick(pad)

    # -- queries --------------------------------------------------------------------------------------
    def held(self, action: str) -> bool:
        if any(code in self.keys_down for code in self.bindings.keys.get(action, ())):
            return True
        names = self.bindings.pad.get(action, ())
        for pad in self.pads.values():
            if any(n in pad.buttons for n in names) or action in self._stick_dirs.get(id(pad), ()):
                return True
        return False

    def peek_buttons(self) -> Buttons:
        """What the next step would see, without consuming latched presses."""
        held = {b: self.held(b) for b in STEP_BUTTONS}
        if self._masked:
            self._masked = {b for b in self._masked if held[b]}
            for b in self._masked:
                held[b] = False
        return Buttons(**{b: held[b] or b in self._latched for b in STEP_BUTTONS})

    def step_buttons(self) -> Buttons:
        """The buttons for one fixed step: held now, or pressed since the previous step (latched)."""
        buttons = self.peek_buttons()
        self._latched.clear()
        return buttons

    def clear(self) -> None:
        """Forget latched presses and ignore buttons held right now until they are released: the
        Space that confirmed a menu must not also jump when play starts."""
        self._latched.clear()
        self._masked = {b for b in STEP_BUTTONS if self.held(b)}

    @property
    def pad_names(self) -> list[str]:
        return [p.name for p in self.pads.values()]

    # -- internals ------------------------------------------------------------------------------------
    def _press(self, actions) -> None:
        actions = list(actions)
        for a in actions:
            if a in STEP_BUTTONS:
                self._latched.add(a)
        self._menu(actions)

    def _menu(self, actions) -> None:
        """One press: its menu actions, each once (a pad's A is jump and confirm: one confirm). Two
        presses in one frame count twice."""
        said = []
        for a in actions:
            m = _MENU_FROM.get(a)
            if m and m not in said:
                said.append(m)
        self.actions.extend(said)

    def _pad_button(self, pad: _Pad, name: str, down: bool) -> None:
        if down:
            pad.buttons.add(name)
            self.device = "gamepad"
            self._press(a for a, names in self.bindings.pad.items() if name in names)
        else:
            pad.buttons.discard(name)

    def _stick(self, pad: _Pad) -> None:
        dz = self.bindings.deadzone
        x, y = pad.axis
        now = set()
        if x < -dz:
            now.add("left")
        if x > dz:
            now.add("right")
        if y < -dz:
            now.add("up")
        if y > dz:
            now.add("down")
        old = self._stick_dirs.get(id(pad), set())
        self._stick_dirs[id(pad)] = now
        if now - old:
            self.device = "gamepad"
        self._press(now - old)

    def _add_controller(self, index: int) -> None:
        try:
            if not _controller.get_init():
                _controller.init()
            dev = _controller.Controller(index)
            jid = dev.as_joystick().get_instance_id()
        except Exception:  # a pad that will not open is not worth a crash
            return
        self.pads[jid] = _Pad(dev, True)

    def _add_joystick(self, index: int) -> None:
        try:
            if _controller and _controller.is_controller(index):
                return  # handled by CONTROLLERDEVICEADDED
            dev = pygame.joystick.Joystick(index)
            jid = dev.get_instance_id()
        except Exception:
            return
        if jid not in self.pads:
            self.pads[jid] = _Pad(dev, False)


_BUTTON_NAMES: dict[int, str] = {}


def _button_name(code: int) -> str:
    if not _BUTTON_NAMES:
        for name, const in PAD_BUTTONS.items():
            _BUTTON_NAMES[getattr(pygame, const)] = name
    return _BUTTON_NAMES.get(code, "")
