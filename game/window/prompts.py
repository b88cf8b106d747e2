"""Button prompts that follow the device in use: the keys of the keyboard, or the pad's buttons, once the
player last pressed one (``Input.device``), named from the bindings in force (a rebound key shows).

``say(app, text)`` rewrites a prompt: ``{jump}``, ``{left}``, ``{down}``... (any action) become that
action's key or button, ``{move}`` the movement keys or the D-pad, ``{cancel}`` what leaves a menu (Esc,
or the pad's B); and the default keys a sign or a hint names in words (``Arrows``, ``Space``, ``Esc``,
``Enter``) follow the device and the bindings too, so a level's signs ("Arrows: run. Space: jump") read
right with a pad in hand. Keys are written in square
brackets, pad buttons in round ones: ``[Space]`` / ``(A)``; ``ui.text`` draws them as key caps and pad
buttons.
"""

from __future__ import annotations

import re

import pygame

__all__ = ["device", "button", "move", "say"]

PAD_NAMES = {"dpleft": "D-pad left", "dpright": "D-pad right", "dpup": "D-pad up", "dpdown": "D-pad down",
             "leftshoulder": "LB", "rightshoulder": "RB", "leftstick": "L3", "rightstick": "R3"}
# words the signs and hints use for the default keys -> the action they stand for
WORDS = {"Arrows": "move", "Space": "jump", "Esc": "cancel", "Enter": "confirm"}
KEY_NAMES = {"return": "Enter", "escape": "Esc", "space": "Space", "left": "Left", "right": "Right", "up": "Up",
             "down": "Down"}  # pygame's key names -> the prompt's
_TOKEN = re.compile(r"\{(\w+)\}|\b(" + "|".join(WORDS) + r")\b")


def device(app) -> str:
    """``"gamepad"`` when the player last pressed a pad button, else ``"keyboard"``."""
    return getattr(getattr(app, "input", None), "device", "keyboard") or "keyboard"


def _bindings(app):
    return getattr(getattr(app, "input", None), "bindings", None)


def pad_name(button_name: str) -> str:
    return PAD_NAMES.get(button_name, button_name.upper() if len(button_name) == 1 else button_name.capitalize())


def _key_name(code: int) -> str:
    raw = pygame.key.name(code)
    return KEY_NAMES.get(raw, raw.capitalize())


def button(app, action: str, *, brackets: bool = True) -> str:
    """The first key (or pad button, on the pad) bound to ``action``, as a prompt shows it."""
    b = _bindings(app)
    pad = device(app) == "gamepad"
    if b is None:
        name = {"jump": "Space", "back": "Esc", "pause": "Esc", "confirm": "Enter"}.get(action, action.capitalize())
    elif pad:
        names = b.pad.get(action, [])
        name = pad_name(names[0]) if names else "-"
    else:
        codes = b.keys.get(action, [])
        name = _key_name(codes[0]) if codes else "-"
    if not brackets:
        return name
    return f"({name})" if pad else f"[{name}]"


def move(app) -> str:
    """The movement prompt: the D-pad on a pad, else the arrow keys (or whatever left/right are bound to)."""
    if device(app) == "gamepad":
        b = _bindings(app)
        left = b.pad.get("left", []) if b is not None else ["dpleft"]
        return "(D-pad)" if left and left[0] == "dpleft" else f"{button(app, 'left')}/{button(app, 'right')}"
    left, right = button(app, "left", brackets=False), button(app, "right", brackets=False)
    if (left, right) == ("Left", "Right"):
        return "[Arrows]"
    return f"[{left}]/[{right}]"


def say(app, text: str) -> str:
    """``text`` with its prompts for the device in use (see the module docstring)."""
    def one(m: re.Match) -> str:
        action = m.group(1) or WORDS[m.group(2)]
        if action == "move":
            return move(app)
        if action == "cancel":  # leaving a menu: the pause key (Esc) on the keyboard, Back (B) on a pad
            action = "back" if device(app) == "gamepad" else "pause"
        return button(app, action)
    return _TOKEN.sub(one, text)
