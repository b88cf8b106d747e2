"""The F2 tuning panel: edit every feel knob while playing, preview the jump, save back to the file.

For the game loop (everything in 480x270 canvas pixels)::

    from .tuning import TuningPanel
    panel = TuningPanel(feel_path, feel)          # feel_path: the file to save to / reset from
    panel.to_canvas = lambda pos: (pos[0] // scale, pos[1] // scale)   # window -> canvas mouse coords

    for event in pygame.event.get():
        if panel.handle_event(event):             # True: the panel used it; skip your own handling
            continue
        ...
    if (new := panel.changed_feel) is not None:   # an edit / reset since the last read (read clears it)
        session.set_feel(new)                     # keeps position and velocity
    if not panel.paused:
        ... run the fixed steps ...
    panel.update(session.feel, session.world, session.player)   # after stepping; cheap when hidden
    ... draw the game ...
    panel.draw(canvas, camera_offset)             # camera_offset: world px at the canvas's top-left

    panel.visible        # F2 toggles (handled by handle_event even while hidden)
    panel.paused         # True only while visible and paused (P); the game should not step then
    panel.feel           # the panel's current values
    panel.keyboard       # True while visible: the panel takes the arrow keys (play with WASD meanwhile)

    panel.levels = [Path("levels/01_first_steps.tmx"), ...]   # the maps the "levels" strip checks
    panel.playing = Path("levels/04_lifts.tmx")   # the level played: the strip checks it first
    if (where := panel.take_open()) is not None:  # a red level was clicked (or its number key pressed)
        path, route = where                       # open `path` and play `route` (Buttons per step) at once:
        ...                                       # the player then stands where the search got stuck
    panel.close()                                 # when the game ends (stops the background check)

The panel consumes KEYDOWN events of the keys below while visible, never a KEYUP (so an input module that
tracks held keys from events never sees a key stuck down).

Keys while visible: Up/Down select, Left/Right change by one step (Shift x10, Ctrl x0.1), PageUp/PageDown
jump between groups, Backspace puts the selected knob back to the file's value, P pause, Ctrl+S save to
the file, Ctrl+R reset everything to the file, Esc or F2 close, 1..9 the level of that number in the
strip. Mouse: click a row to select it, click or drag its slider, wheel over a value changes it (Shift
x10), wheel over the names scrolls; the Pause, Save and Reset buttons at the bottom; a level in the strip.

The "levels" strip (bottom, left of the derived values) appears after a change of feel: every level is
checked for a route to its goal under the new values in a background process kept alive between changes, the
level being played first (``game/guard/feelguard.py``,
the check of ``python -m game check``: its last route and shipped replays first, then the search): green
finished, red impossible (every reachable state explored), amber unknown (the budget ran out), a pulsing
blue while checking. A red or amber level, clicked, opens where the search got stuck (the furthest point
toward the goal where the player stood) and says why (the obstacle and what the feel lacks, from
``game/guard/why.py``). Once every verdict is in, each finished level's route is timed
(``game/guard/difficulty.py``): a bar under its box shows its difficulty against the hardest level's; the mouse
over a box shows its figure in bits and its tight moves, a click the whole line.

The jump preview (:func:`predict_arcs`) runs the REAL controller forward on ``world.clone()``: the
held-jump arc and the tapped-jump arc from the player's current position and velocity, as if jump were
pressed on the next step, holding the direction the player moves (or faces). With a feel that has the
dash, :func:`predict_dash` adds the flight of a dash pressed on the next step that way (magenta); next to
a wall in the air, the jump arcs are the wall jump the controller would do.
"""

from __future__ import annotations

import copy
import math
import time
from pathlib import Path
from collections.abc import Callable

import pygame

from engine import Buttons, ConfigError, FeelConfig, knobs

from game.files.feelfile import (SECTION_TITLES, FeelFileError, format_value, guide, load_feel,
                       round_to_step, save_feel, wall_jump_arc)
from game.guard.feelguard import LevelGuard
from game.rules.moves import level_feel

__all__ = ["TuningPanel", "dash_buttons", "predict_arcs", "predict_dash"]


# -- the jump preview ------------------------------------------------------------------------------------

def predict_arcs(world, player, feel: FeelConfig | None = None, steps: int = 120,
                 direction: int | None = None) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Predicted flights of a held jump and of a tapped jump (jump held for one step only).

    Runs the real engine on a ``world.clone()`` (with ``feel`` applied if given), pressing jump on the
    next step and holding ``direction`` (-1 left, 0 none, +1 right; default: the sign of the player's
    speed, or its facing when nearly still). Returns two lists of the player's top-left ``(x, y)``: the
    current position first, then one point per step, ending on the step the player lands (or after
    ``steps``). Stepping the real world with ``jump_buttons(i, direction, tap)`` from the same state flies
    exactly these points. The real world is not touched.

    Cost: one clone per call (triggers left out: sensors never move anything); both flights run in that
    clone as two copies of the player, which is exact because actors do not collide with each other.
    """
    if direction is None:
        moving = abs(player.vx) > 1.0
        direction = (1 if player.vx > 0 else -1) if moving else int(getattr(player, "facing", 1))
    sim = world.clone(triggers=False)
    me = _counterpart(world, sim, player)
    if feel is not None:
        sim.set_feel(feel)
    held = getattr(me, "held", None)
    if held is not None and held.jump:  # pretend jump was up last step: the next step is a fresh press
        me.held = held._replace(jump=False)
    twin = copy.copy(me)
    if isinstance(getattr(me, "contacts", None), list):
        twin.contacts = list(me.contacts)
    sim.add(twin)
    flights = [(me, False, [(me.x, me.y)]), (twin, True, [(twin.x, twin.y)])]
    airborne = [not me.on_ground, not me.on_ground]
    done = [False, False]
    for i in range(steps):
        sim.step({body: jump_buttons(i, direction, tap) for body, tap, _pts in flights})
        for k, (body, _tap, points) in enumerate(flights):
            if done[k]:
                continue
            points.append((body.x, body.y))
            if not body.on_ground:
                airborne[k] = True
            elif airborne[k] and i > 0:
                done[k] = True
        if all(done):
            break
    return flights[0][2], flights[1][2]


def predict_dash(world, player, feel: FeelConfig | None = None, steps: int = 120,
                 direction: int | None = None) -> list[tuple[float, float]]:
    """The predicted flight of a dash pressed on the next step, holding ``direction`` (as
    :func:`predict_arcs`; with up held the dash goes up that way too when the player holds up now), then
    no input until it lands (or ``steps``). ``[]`` when the feel has no dash or none is left. Replaying
    :func:`dash_buttons` on the real world flies exactly these points; the real world is not touched."""
    feel = feel or world.feel
    if not feel.dash.enabled or getattr(player, "dashes_spent", 0) >= feel.dash.count:
        return []
    if direction is None:
        moving = abs(player.vx) > 1.0
        direction = (1 if player.vx > 0 else -1) if moving else int(getattr(player, "facing", 1))
    up = bool(getattr(getattr(player, "held", None), "up", False))
    sim = world.clone(triggers=False)
    me = _counterpart(world, sim, player)
    sim.set_feel(feel)
    if me.held.dash:  # pretend dash was up last step: the next step is a fresh press
        me.held = me.held._replace(dash=False)
    points = [(me.x, me.y)]
    airborne = not me.on_ground
    for i in range(steps):
        sim.step({me: dash_buttons(i, direction, up)})
        points.append((me.x, me.y))
        if not me.on_ground:
            airborne = True
        elif airborne and not me.dashing:
            break
        elif i > feel.derived.dash_steps and not me.dashing:
            break  # a ground dash: done when it ends
    return points


def dash_buttons(step: int, direction: int, up: bool = False) -> Buttons:
    """The buttons of step ``step`` (0-based) of a predicted dash: dash and the direction on the first."""
    first = step == 0
    return Buttons(left=first and direction < 0, right=first and direction > 0, up=first and up, dash=first)


def jump_buttons(step: int, direction: int, tap: bool) -> Buttons:
    """The buttons of step ``step`` (0-based) of a predicted jump (tests replay these on the real world)."""
    return Buttons(left=direction < 0, right=direction > 0, jump=(step == 0) or not tap)


def _counterpart(world, clone, player):
    for name in ("actors", "bodies", "characters"):
        mine, theirs = getattr(world, name, None), getattr(clone, name, None)
        if mine is not None and theirs is not None:
            mine, theirs = list(mine), list(theirs)
            for i, obj in enumerate(mine):
                if obj is player:
                    return theirs[i]
    raise PreviewUnavailable("player is not in this world; call world.add(player) first")


class PreviewUnavailable(ValueError):
    """The jump preview cannot run now because the player is out of play (dying, respawning)."""


# -- the panel -------------------------------------------------------------------------------------------

PANEL = pygame.Rect(4, 4, 200, 262)       # the knob list (left side of the 480x270 canvas)
ROW_H = 7                                 # 5 px glyphs + 2 px
LIST_TOP = PANEL.y + 11
COL_NAME = PANEL.x + 8
COL_VALUE_R = PANEL.x + 110               # values are right-aligned here
COL_UNIT = PANEL.x + 114
SLIDER = (PANEL.x + 143, PANEL.x + 191)   # slider track x range
DERIVED = pygame.Rect(480 - 4 - 150, 270 - 4 - 84, 150, 84)   # bottom right: clear of the HUD and the arcs
STATUS = pygame.Rect(PANEL.right + 4, DERIVED.y - 4 - 17, 480 - PANEL.right - 8, 17)
LEVELS = pygame.Rect(PANEL.right + 4, DERIVED.bottom - 26, DERIVED.x - 4 - (PANEL.right + 4), 26)  # the strip
STATUS_SECONDS = 4.0  # a confirmation fades after this; an error stays until the next action

PREVIEW_BUDGET = 0.004  # s; a slower jump preview is refreshed every other frame

BG = (12, 14, 24, 218)
BORDER = (86, 96, 132)
TITLE = (255, 255, 255)
GROUP = (255, 196, 92)
NAME = (196, 202, 220)
VALUE = (255, 255, 255)
CHANGED = (255, 214, 90)
UNIT = (120, 130, 160)
DIM = (150, 158, 182)
SELECT = (58, 82, 150, 235)
TRACK = (58, 64, 90)
FILL = (104, 156, 255)
OUTSIDE = (255, 120, 100)
HELD = (96, 230, 255)
TAPPED = (255, 150, 80)
DASHED = (236, 110, 255)
ERROR = (255, 110, 100)
OK = (130, 230, 140)
FINISHED = (70, 170, 90)
STUCK = (205, 70, 62)
UNKNOWN = (222, 160, 40)
CHECKING = (110, 150, 235)
BUTTON = (40, 46, 72)


def _label(key: str) -> str:
    return key.replace("multiplier", "mult").replace("_", " ")


class TuningPanel:
    def __init__(self, feel_path: str | Path, feel: FeelConfig | None = None, *,
                 base: FeelConfig | None = None):
        self.path = Path(feel_path)
        self.base = base or FeelConfig()
        self.feel = feel or self.base
        self.visible = False
        self._paused = False
        self.keyboard = False
        self.to_canvas: Callable[[tuple[int, int]], tuple[int, int]] = lambda pos: pos
        self._pending: FeelConfig | None = None
        self._saved: FeelConfig | None = None  # written by save(), not yet taken by the game
        self.file_feel = self._read_file() or self.feel
        self.status = ""
        self.status_error = False
        self._status_time = 0
        self.knob_list = [(name, t, meta) for name, t, _default, meta in knobs()]
        self.rows: list[tuple[str, str]] = []  # ("group", section) or ("knob", dotted)
        section = None
        for name, _t, _meta in self.knob_list:
            sec = name.split(".")[0]
            if sec != section:
                self.rows.append(("group", sec))
                section = sec
            self.rows.append(("knob", name))
        self.meta = {name: meta for name, _t, meta in self.knob_list}
        self.types = {name: t for name, t, _meta in self.knob_list}
        first = ("knob", "jump.height")
        self.selected = self.rows.index(first) if first in self.rows else 1
        self.scroll = 0
        self._drag: str | None = None
        self._mouse = (-1, -1)
        self.arcs: tuple[list, list] = ([], [])
        self.dash_arc: list = []  # the predicted dash (when the feel has one), drawn beside the jump arcs
        self._arc_key = None
        self._arc_cost = 0.0
        self._arc_fresh = False
        self._arc_origin = (0.0, 0.0)
        self.preview_note = ""  # why there is no fresh jump preview (words for a player), or ""
        self._player = None
        self._buttons: dict[str, pygame.Rect] = {}
        self.levels: list[Path] = []  # maps the "levels" strip checks after a change of feel (set by the game)
        self.playing: Path | None = None  # the level being played (set by the game): checked first
        self._guard: LevelGuard | None = None
        self._open: tuple | None = None  # (path, route) asked for, not yet taken by the game
        self._level_boxes: list[pygame.Rect] = []

    # -- the game calls these -------------------------------------------------------------------------
    # Where the game may draw without the panel covering it (canvas px): the columns right of the knob
    # list, and above the status line and the derived-values box at the bottom right.
    free_left = PANEL.right + 4
    free_bottom = STATUS.y - 4
    # How far the game should slide its view right while the panel is open so the player (at the view's
    # centre) sits in the middle of the uncovered part, with room for the jump arcs.
    view_shift = (PANEL.right + 480) // 2 - 240

    @property
    def paused(self) -> bool:
        return self.visible and self._paused

    @property
    def changed_feel(self) -> FeelConfig | None:
        """The new values after an edit since the last read, else None. Reading clears it."""
        pending, self._pending = self._pending, None
        return pending

    def toggle(self) -> None:
        self.visible = not self.visible
        self.keyboard = self.visible
        self._drag = None
        self._arc_key = None

    def update(self, feel: FeelConfig, world=None, player=None, level=None) -> None:
        """Sync with the game's current values (e.g. after a hot reload) and refresh the jump preview.
        ``feel`` is the feel file's (what the panel edits and saves); the preview plays it with the moves
        ``level`` grants switched on, as the level does."""
        if feel != self.feel and self._pending is None:
            self.feel = feel  # changed outside the panel (hot reload, preset): adopt it
            self.file_feel = self._read_file() or self.file_feel
            self._feel_changed(feel)
        if self._guard is not None:
            self._guard.poll()
        if not self.visible or world is None or player is None:
            return
        self._player = player
        key = (self.feel, player.x, player.y, player.vx, player.vy, player.on_ground,
               getattr(player, "facing", 1), id(world))
        if key == self._arc_key:
            return
        if self._arc_cost > PREVIEW_BUDGET and self._arc_fresh:
            self._arc_fresh = False  # expensive level: refresh every other frame (drawn shifted meanwhile)
            return
        self._arc_key = key
        t0 = time.perf_counter()
        try:
            preview = level_feel(level, self.feel) if level is not None else self.feel
            arcs = predict_arcs(world, player, preview)
            dash_arc = predict_dash(world, player, preview)
        except PreviewUnavailable:  # dying or respawning: nothing to preview until the player is back
            self.arcs, self.dash_arc = ([], []), []
            self._arc_cost = time.perf_counter() - t0
            self.preview_note = "no jump preview while the player respawns"
            return
        except Exception:  # noqa: BLE001 -- a preview must never take the game down, nor show its guts
            # the last good arcs stay (drawn moved along with the player); say why in words
            self._arc_cost = time.perf_counter() - t0
            self.preview_note = "jump preview failed here: showing the last one"
            return
        self.arcs, self.dash_arc = arcs, dash_arc
        self.preview_note = ""
        self._arc_cost = time.perf_counter() - t0
        self._arc_fresh = True
        self._arc_origin = (player.x, player.y)

    def handle_event(self, event) -> bool:
        """Returns True when the panel used the event (the game should then ignore it)."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F2:
            self.toggle()
            return True
        if not self.visible:
            return False
        if event.type == pygame.KEYDOWN:
            return self._key(event.key, event.mod)
        if event.type == pygame.KEYUP:
            return False  # never swallow a release: the game's input must see every key go up
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            self._mouse = tuple(self.to_canvas(event.pos))
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                return self._click(self._mouse)
            if event.type == pygame.MOUSEMOTION and self._drag:
                self._slide(self._drag, self._mouse[0])
                return True
            if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._drag:
                self._drag = None
                return True
            return PANEL.collidepoint(self._mouse) and event.type != pygame.MOUSEMOTION
        if event.type == pygame.MOUSEWHEEL:
            return self._wheel(event.y)
        return False

    # -- actions --------------------------------------------------------------------------------------
    def selected_knob(self) -> str:
        return self.rows[self.selected][1]

    def nudge(self, dotted: str, steps: float) -> None:
        """Change a knob by ``steps`` edit steps (may be fractional), clamped to its allowed range; a
        switch turns on for a step up (Right, wheel up) and off for a step down."""
        if self.types[dotted] == "bool":
            self.set_value(dotted, steps > 0)
            return
        step = guide(dotted).step
        unit = step * (0.1 if abs(steps) < 1 else 1)
        self.set_value(dotted, round_to_step(self.feel.get(dotted) + steps * step, unit))

    def set_value(self, dotted: str, value: float) -> None:
        meta = self.meta[dotted]
        value = min(max(value, meta["min"]), meta["max"])
        if self.types[dotted] == "bool":
            value = bool(value)
        elif self.types[dotted] == "int":
            value = int(round(value))
        else:
            value = float(format_value(dotted, float(value)))
        if value == self.feel.get(dotted):
            return
        try:
            self._apply(self.feel.with_value(dotted, value))
        except ConfigError as exc:
            self._say(str(exc), error=True)

    def set_paused(self, paused: bool) -> None:
        self._paused = paused

    def save(self) -> bool:
        try:
            written = save_feel(self.path, self.feel, base=self.base)
        except (FeelFileError, OSError) as exc:
            self._say(f"not saved: {exc}", error=True)
            return False
        self.file_feel = self.feel
        self._saved = self.feel
        self._say(f"saved {len(written)} value{'s' * (len(written) != 1)} to {self.path.name}"
                  if written else f"{self.path.name} already up to date")
        return True

    def take_open(self) -> tuple | None:
        """``(level path, route)`` once after a red level was picked in the strip, else None: the game opens
        that level and plays ``route`` (Buttons per step) at once, leaving the player where the search got
        stuck."""
        where, self._open = self._open, None
        return where

    def pick_level(self, i: int) -> None:
        """Level ``i`` of the strip was clicked (or its number key pressed)."""
        if self._guard is None or not 0 <= i < len(self.levels):
            if self.levels:
                self._say("change a value: the levels are checked after each change")
            return
        result, path = self._guard.results[i], self.levels[i]
        if result.stuck:
            self._open = (path, result.route)
            why = f"; {result.why}" if result.why else ""
            self._say(f"{path.name}: opened where the search got stuck (tile {result.col},{result.row}){why}")
        elif result.state == "checking":
            self._say(f"{path.name}: still checking")
        else:
            self._say(result.detail or path.name, error=result.state == "error")

    def close(self) -> None:
        """Stop the background check (the game is ending)."""
        if self._guard is not None:
            self._guard.close()

    def take_saved(self) -> FeelConfig | None:
        """The values the panel last wrote to the file, once (reading clears it), else None. The game
        hands them to ``FeelWatcher.mark_saved`` so its own save is not reloaded as an outside edit."""
        saved, self._saved = self._saved, None
        return saved

    def reset_to_file(self) -> bool:
        try:
            feel = load_feel(self.path, base=self.base)
        except FeelFileError as exc:
            self._say(str(exc), error=True)
            return False
        self.file_feel = feel
        if feel != self.feel:
            self._apply(feel)
        self._say(f"reset to {self.path.name}")
        return True

    def revert_knob(self, dotted: str) -> None:
        self.set_value(dotted, self.file_feel.get(dotted))

    def modified(self, dotted: str) -> bool:
        """True when the value differs from the file (not saved yet)."""
        return self.feel.get(dotted) != self.file_feel.get(dotted)

    # -- input details --------------------------------------------------------------------------------
    def _key(self, key: int, mod: int) -> bool:
        shift, ctrl = mod & pygame.KMOD_SHIFT, mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        if key in (pygame.K_UP, pygame.K_DOWN):
            self._select_step(-1 if key == pygame.K_UP else 1)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            amount = 10 if shift else 0.1 if ctrl else 1
            self.nudge(self.selected_knob(), amount * (1 if key == pygame.K_RIGHT else -1))
        elif key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self._select_group(-1 if key == pygame.K_PAGEUP else 1)
        elif key == pygame.K_BACKSPACE:
            self.revert_knob(self.selected_knob())
        elif key == pygame.K_p and not ctrl:
            self._paused = not self._paused
        elif key == pygame.K_s and ctrl:
            self.save()
        elif key == pygame.K_r and ctrl:
            self.reset_to_file()
        elif key == pygame.K_ESCAPE:
            self.toggle()
        elif pygame.K_1 <= key <= pygame.K_9 and not ctrl:
            self.pick_level(key - pygame.K_1)
        else:
            return False
        return True

    def _select_step(self, delta: int) -> None:
        i = self.selected
        while True:
            i = (i + delta) % len(self.rows)
            if self.rows[i][0] == "knob":
                break
        self.selected = i
        self._keep_visible()

    def _select_group(self, delta: int) -> None:
        starts = [i + 1 for i, (kind, _) in enumerate(self.rows) if kind == "group"]
        current = max(j for j, s in enumerate(starts) if s <= self.selected)
        self.selected = starts[(current + delta) % len(starts)]
        self._keep_visible()

    def _keep_visible(self) -> None:
        first = self.selected - 1 if self.rows[self.selected - 1][0] == "group" else self.selected
        if first < self.scroll:
            self.scroll = first
        elif self.selected >= self.scroll + self._list_rows():
            self.scroll = self.selected - self._list_rows() + 1
        self.scroll = max(0, min(self.scroll, len(self.rows) - self._list_rows()))

    def _list_rows(self) -> int:
        """Rows shown at once (every row fits today; a scrollbar appears if knobs are added)."""
        return min(len(self.rows), (PANEL.bottom - 48 - LIST_TOP) // ROW_H)

    def _row_at(self, pos) -> int | None:
        x, y = pos
        if not (PANEL.x <= x < PANEL.right and LIST_TOP <= y < LIST_TOP + self._list_rows() * ROW_H):
            return None
        i = self.scroll + (y - LIST_TOP) // ROW_H
        return i if 0 <= i < len(self.rows) else None

    def _click(self, pos) -> bool:
        for i, rect in enumerate(self._level_boxes):
            if rect.inflate(2, 2).collidepoint(pos):
                self.pick_level(i)
                return True
        for name, rect in self._buttons.items():
            if rect.collidepoint(pos):
                {"pause": lambda: self.set_paused(not self._paused), "save": self.save,
                 "reset": self.reset_to_file}[name]()
                return True
        i = self._row_at(pos)
        if i is not None and self.rows[i][0] == "knob":
            self.selected = i
            dotted = self.rows[i][1]
            if SLIDER[0] - 3 <= pos[0] <= SLIDER[1] + 3:
                if self.types[dotted] == "bool":  # a switch: a click flips it
                    self.set_value(dotted, not self.feel.get(dotted))
                else:
                    self._drag = dotted
                    self._slide(dotted, pos[0])
            return True
        return PANEL.collidepoint(pos) or DERIVED.collidepoint(pos)

    def _slide(self, dotted: str, x: float) -> None:
        g = guide(dotted)
        t = min(max((x - SLIDER[0]) / (SLIDER[1] - SLIDER[0]), 0.0), 1.0)
        self.set_value(dotted, round_to_step(g.lo + t * (g.hi - g.lo), g.step))

    def _wheel(self, dy: int) -> bool:
        i = self._row_at(self._mouse)
        if i is None:
            return PANEL.collidepoint(self._mouse)
        if self._mouse[0] < COL_VALUE_R - 40 or self.rows[i][0] != "knob":
            self.scroll = max(0, min(self.scroll - dy, len(self.rows) - self._list_rows()))
        else:
            self.selected = i
            shift = pygame.key.get_mods() & pygame.KMOD_SHIFT
            self.nudge(self.rows[i][1], dy * (10 if shift else 1))
        return True

    def _apply(self, feel: FeelConfig) -> None:
        self.feel = feel
        self._pending = feel
        self._feel_changed(feel)
        if self.status_error:
            self.status, self.status_error = "", False

    def _feel_changed(self, feel: FeelConfig) -> None:
        if self.levels:
            if self._guard is None or self._guard.paths != list(self.levels):
                if self._guard is not None:
                    self._guard.close()
                self._guard = LevelGuard(self.levels)
            self._guard.focus = self.playing
            self._guard.feel_changed(feel)

    def _read_file(self) -> FeelConfig | None:
        try:
            return load_feel(self.path, base=self.base)
        except FeelFileError:
            return None

    def _say(self, text: str, error: bool = False) -> None:
        self.status, self.status_error = text, error
        self._status_time = time.monotonic()

    # -- drawing --------------------------------------------------------------------------------------
    def _text(self, surface, text, pos, color, right=False, scale=1):
        img = FONT.render(text, color, scale)
        x, y = pos
        if right:
            x -= img.get_width()
        surface.blit(img, (x, y))
        return img.get_width()

    def draw(self, surface: pygame.Surface, camera_offset: tuple[float, float] = (0, 0)) -> None:
        """Draw the jump preview (in world space) and the panel (in screen space) onto ``surface``."""
        if not self.visible:
            return
        self._draw_arcs(surface, camera_offset)
        self._draw_panel(surface)
        self._draw_derived(surface)
        self._draw_levels(surface)
        self._draw_status(surface)

    def _draw_arcs(self, surface, camera_offset) -> None:
        player = self._player
        if player is None:
            return
        # a preview one frame old (see update) is drawn moved along with the player
        ox = camera_offset[0] - (player.x - self._arc_origin[0])
        oy = camera_offset[1] - (player.y - self._arc_origin[1])
        w, h = player.w, player.h
        for points, color in ((self.dash_arc, DASHED), (self.arcs[1], TAPPED), (self.arcs[0], HELD)):
            if len(points) < 2:
                continue
            feet = [(x + w / 2 - ox, y + h - oy) for x, y in points]
            pygame.draw.lines(surface, color, False, feet, 1)
            for i in range(0, len(feet), 5):  # a dot every 5 steps shows the speed along the arc
                fx, fy = feet[i]
                surface.fill(color, (math.floor(fx) - 1, math.floor(fy) - 1, 3, 3))
            apex = min(range(len(points)), key=lambda i: points[i][1])
            ax, ay = feet[apex]
            pygame.draw.line(surface, color, (round(ax) - 4, round(ay) - 1), (round(ax) + 4, round(ay) - 1))
            lx, ly = points[-1]
            pygame.draw.rect(surface, color, (round(lx - ox), round(ly - oy), round(w), round(h)), 1)

    def _box(self, surface, rect) -> None:
        box = pygame.Surface(rect.size, pygame.SRCALPHA)
        box.fill(BG)
        surface.blit(box, rect.topleft)
        pygame.draw.rect(surface, BORDER, rect, 1)

    def _draw_panel(self, surface) -> None:
        self._box(surface, PANEL)
        x0, y0 = PANEL.x, PANEL.y
        # title bar
        self._text(surface, "FEEL", (x0 + 5, y0 + 3), TITLE)
        unsaved = any(self.modified(n) for n, _t, _m in self.knob_list)
        w = self._text(surface, self.path.name, (x0 + 26, y0 + 3), DIM)
        if unsaved:
            self._text(surface, "edited", (x0 + 26 + w + 6, y0 + 3), CHANGED)
        chip = "PAUSED" if self._paused else "LIVE"
        self._text(surface, chip, (PANEL.right - 5, y0 + 3), OUTSIDE if self._paused else OK, right=True)
        pygame.draw.line(surface, BORDER, (x0 + 1, LIST_TOP - 2), (PANEL.right - 2, LIST_TOP - 2))
        # rows
        visible_rows = self._list_rows()
        for r in range(visible_rows):
            i = self.scroll + r
            y = LIST_TOP + r * ROW_H
            kind, ident = self.rows[i]
            if kind == "group":
                self._text(surface, SECTION_TITLES.get(ident, ident), (x0 + 4, y + 1), GROUP)
                self._text(surface, f"[{ident}]", (PANEL.right - 5, y + 1), UNIT, right=True)
                continue
            if i == self.selected:
                sel = pygame.Surface((PANEL.w - 4, ROW_H), pygame.SRCALPHA)
                sel.fill(SELECT)
                surface.blit(sel, (x0 + 2, y))
                surface.fill(GROUP, (x0 + 2, y, 2, ROW_H))
            self._draw_knob_row(surface, ident, y)
        if len(self.rows) > visible_rows:  # scrollbar (only when knobs outgrow the panel)
            track_h = visible_rows * ROW_H
            bar_h = max(8, track_h * visible_rows // len(self.rows))
            bar_y = LIST_TOP + (track_h - bar_h) * self.scroll // (len(self.rows) - visible_rows)
            surface.fill(TRACK, (PANEL.right - 3, LIST_TOP, 1, track_h))
            surface.fill(DIM, (PANEL.right - 3, bar_y, 1, bar_h))
        # the selected knob: name, file value, limits, what it does
        y = LIST_TOP + visible_rows * ROW_H + 1
        pygame.draw.line(surface, BORDER, (x0 + 1, y), (PANEL.right - 2, y))
        dotted = self.selected_knob()
        g = guide(dotted)
        name, info = self._footer(dotted)
        self._text(surface, name, (x0 + 5, y + 3), VALUE)
        self._text(surface, info, (PANEL.right - 5, y + 3), UNIT, right=True)
        for j, line in enumerate(_wrap(g.what, PANEL.w - 10)[:3]):
            self._text(surface, line, (x0 + 5, y + 10 + j * 7), NAME)
        # buttons
        by = PANEL.bottom - 15
        bx = x0 + 4
        self._buttons = {}
        for key, label in (("pause", "Resume P" if self._paused else "Pause P"),
                           ("save", "Save ^S"), ("reset", "Reset ^R")):
            rect = pygame.Rect(bx, by, FONT.size(label)[0] + 8, 11)
            pygame.draw.rect(surface, BUTTON, rect)
            pygame.draw.rect(surface, BORDER, rect, 1)
            self._text(surface, label, (rect.x + 4, rect.y + 3), VALUE)
            self._buttons[key] = rect
            bx = rect.right + 3
        self._text(surface, "F2 close", (PANEL.right - 5, by + 3), UNIT, right=True)

    def _footer(self, dotted: str) -> tuple[str, str]:
        """The selected knob's name and its file value and limits, as they fit on one line of the panel
        (the file value goes first, then the name is cut)."""
        meta = self.meta[dotted]
        if self.types[dotted] == "bool":  # an on/off switch: no limits to show
            limits = "switch"
            info = f"file {_on_off(self.file_feel.get(dotted))}  {limits}"
        else:
            limits = f"limits {format_value(dotted, meta['min'])}..{format_value(dotted, meta['max'])}"
            info = f"file {format_value(dotted, self.file_feel.get(dotted))}  {limits}"
        if FONT.size(dotted)[0] + 8 + FONT.size(info)[0] > PANEL.w - 10:
            info = limits
        return _fit(dotted, PANEL.w - 10 - FONT.size(info)[0] - 8), info

    def _draw_knob_row(self, surface, dotted: str, y: int) -> None:
        meta, g = self.meta[dotted], guide(dotted)
        value = self.feel.get(dotted)
        changed = self.modified(dotted)
        if self.types[dotted] == "bool":
            self._text(surface, _label(dotted.split(".", 1)[1]), (COL_NAME, y + 1), NAME)
            self._draw_switch_row(surface, value, changed, y)
            return
        text = format_value(dotted, value)
        room = COL_VALUE_R - FONT.size(text)[0] - 6 - COL_NAME  # the name ends before its value starts
        self._text(surface, _fit(_label(dotted.split(".", 1)[1]), room), (COL_NAME, y + 1), NAME)
        w = self._text(surface, text, (COL_VALUE_R, y + 1), CHANGED if changed else VALUE, right=True)
        if changed:  # a dot before the value: differs from the file (not saved yet)
            surface.fill(CHANGED, (COL_VALUE_R - w - 4, y + 3, 2, 2))
        self._text(surface, meta["unit"], (COL_UNIT, y + 1), UNIT)
        # slider over the sensible range (red marker: outside it)
        a, b = SLIDER
        cy = y + 3
        surface.fill(TRACK, (a, cy, b - a + 1, 1))
        t = (value - g.lo) / (g.hi - g.lo) if g.hi > g.lo else 0.0
        inside = 0.0 <= t <= 1.0
        mx = a + round(min(max(t, 0.0), 1.0) * (b - a))
        surface.fill(FILL if inside else OUTSIDE, (a, cy, mx - a + 1, 1))
        surface.fill(VALUE if inside else OUTSIDE, (mx - 1, cy - 2, 3, 5))

    def _draw_switch_row(self, surface, on: bool, changed: bool, y: int) -> None:
        """A switch: "on" / "off" and a two-position toggle where sliders are."""
        w = self._text(surface, _on_off(on), (COL_VALUE_R, y + 1), CHANGED if changed else VALUE if on else DIM,
                       right=True)
        if changed:
            surface.fill(CHANGED, (COL_VALUE_R - w - 4, y + 3, 2, 2))
        a = SLIDER[0]
        track = pygame.Rect(a, y, 13, 6)
        surface.fill(FILL if on else TRACK, track)
        surface.fill(VALUE if on else DIM, (track.right - 5 if on else track.x + 1, y + 1, 4, 4))

    def _draw_derived(self, surface) -> None:
        self._box(surface, DERIVED)
        x0, y0 = DERIVED.x, DERIVED.y
        self._text(surface, "Derived", (x0 + 5, y0 + 3), GROUP)
        d = self.feel.derived
        rows = [
            ("gravity up/down", f"{d.gravity:.0f}/{d.fall_gravity:.0f}", "px/s^2"),
            ("take-off speed", f"{d.takeoff_speed:.0f}", "px/s"),
            ("rise/fall time", f"{self.feel.jump.time_to_apex:.2f}/{d.fall_time:.2f}", "s"),
            ("jump distance", f"{d.jump_distance:.0f}", f"px {d.jump_distance / 16:.1f}t"),
            ("coyote/buffer", f"{d.coyote_steps}/{d.buffer_steps}", "steps"),
            ("drop-through", f"{d.drop_steps}", "steps"),
        ]
        if self.feel.wall.jump:
            arc = wall_jump_arc(self.feel)
            rows.append(("wall jump up/out", f"{arc.rise:.0f}/{arc.push:.0f}", "px"))
        else:
            rows.append(("wall jump", "off", ""))
        if self.feel.dash.enabled:
            rows.append(("dash distance", f"{d.dash_distance:.0f}", f"px {d.dash_distance / 16:.1f}t"))
        else:
            rows.append(("dash", "off", ""))
        for j, (label, value, unit) in enumerate(rows):
            y = y0 + 12 + j * ROW_H
            self._text(surface, label, (x0 + 5, y), NAME)
            self._text(surface, value, (x0 + 105, y), VALUE, right=True)
            self._text(surface, unit, (x0 + 109, y), UNIT)
        y = DERIVED.bottom - 10
        pygame.draw.line(surface, BORDER, (x0 + 1, y - 3), (DERIVED.right - 2, y - 3))
        legend = [("held jump", HELD), ("tapped jump", TAPPED)]
        if self.feel.dash.enabled:
            legend = [("held", HELD), ("tapped", TAPPED), ("dash", DASHED)]
        for k, (label, color) in enumerate(legend):
            lx = x0 + 5 + k * (70 if len(legend) == 2 else 48)
            surface.fill(color, (lx, y + 2, 9, 1))
            surface.fill(color, (lx + 3, y + 1, 3, 3))
            self._text(surface, label, (lx + 13, y), color)

    def _draw_levels(self, surface) -> None:
        """The strip: one numbered box per level, green finished, red impossible, amber unknown, blue checking."""
        self._last_boxes = getattr(self, "_level_boxes", [])
        self._level_boxes = []
        guard = self._guard
        if guard is None:
            return
        self._box(surface, LEVELS)
        x0, y0 = LEVELS.x, LEVELS.y
        results = guard.results
        self._text(surface, "Levels", (x0 + 5, y0 + 3), GROUP)
        impossible = sum(r.state == "impossible" for r in results)
        unknown = sum(r.state == "unknown" for r in results)
        if guard.checking:
            done = sum(r.state != "checking" for r in results)
            summary, color = f"checking {done}/{len(results)}", CHECKING
        elif impossible or unknown or any(r.state == "error" for r in results):
            parts = [f"{impossible} impossible" if impossible else "", f"{unknown} unknown" if unknown else ""]
            summary = ", ".join(x for x in parts if x) or "error"
            color = ERROR if impossible or not unknown else UNKNOWN
        else:
            summary, color = "all finished", OK
        hovered = next((i for i, r in enumerate(self._last_boxes) if r.collidepoint(self._mouse)), None)
        if hovered is not None and hovered < len(results):  # the figure of the level under the mouse
            summary, color = _level_note(hovered, results[hovered]), VALUE
        self._text(surface, summary, (LEVELS.right - 5, y0 + 3), color, right=True)
        n = len(results)
        figures = [r.difficulty for r in results if r.difficulty is not None]
        top = max(figures, default=0.0) or 1.0
        gap = 2
        w = max(6, min(16, (LEVELS.w - 10 - gap * (n - 1)) // max(n, 1)))
        pulse = 0.5 + 0.5 * math.sin(time.monotonic() * 6.0)
        for i, r in enumerate(results):
            rect = pygame.Rect(x0 + 5 + i * (w + gap), y0 + 12, w, 10)
            self._level_boxes.append(rect)
            if r.state == "checking":
                fill = tuple(round(c * (0.35 + 0.25 * pulse)) for c in CHECKING)
                edge = CHECKING
            else:
                fill = {"finished": FINISHED, "impossible": STUCK, "unknown": UNKNOWN,
                        "error": OUTSIDE}.get(r.state, TRACK)
                edge = VALUE if rect.collidepoint(self._mouse) else fill
            surface.fill(fill, rect)
            pygame.draw.rect(surface, edge, rect, 1)
            label = str(i + 1) if i < 9 else "+"
            lw = FONT.size(label)[0]
            self._text(surface, label, (rect.centerx - lw // 2, rect.y + 3), VALUE)
            if r.difficulty is not None:  # a bar under the box: the level's difficulty against the hardest
                surface.fill(VALUE, (rect.x, rect.bottom + 1, max(1, round(rect.w * r.difficulty / top)), 2))
        self._last_boxes = list(self._level_boxes)

    def _draw_status(self, surface) -> None:
        if self.status and not self.status_error and time.monotonic() - self._status_time > STATUS_SECONDS:
            self.status = ""
        if self.status:
            text, color = self.status, ERROR if self.status_error else OK
        else:  # nothing said: why the jump preview is missing or old, if it is
            text, color = self.preview_note, DIM
        if not text:
            return
        lines = _wrap(text, STATUS.w - 10)[:2]
        rect = STATUS.copy()
        if len(lines) == 1:
            rect.h, rect.y = 11, STATUS.bottom - 11
            rect.w = min(rect.w, FONT.size(lines[0])[0] + 10)
            rect.right = STATUS.right
        self._box(surface, rect)
        for j, line in enumerate(lines):
            self._text(surface, line, (rect.x + 5, rect.y + 3 + j * 7), color)


def _fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` px of FONT, ending in '..' when cut."""
    if FONT.size(text)[0] <= width:
        return text
    while text and FONT.size(text + "..")[0] > width:
        text = text[:-1]
    return text.rstrip() + ".."


def _on_off(value) -> str:
    return "on" if value else "off"


def _level_note(i: int, r) -> str:
    """The strip's summary while the mouse is over level ``i``: its verdict and figure."""
    if r.difficulty is not None:
        return f"{i + 1}: {r.difficulty:.1f} bits, {r.tight} tight"
    if r.state == "finished":
        return f"{i + 1}: finished, timing..."
    return f"{i + 1}: {r.state}"


def _wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if FONT.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines or [""]


# -- a tiny pixel font (3x5 capitals, 1 px spacing) ------------------------------------------------------
# Crisp at 480x270 under whole-number scaling, where system fonts blur. Lower case draws as upper case.

class PixelFont:
    """``render(text, color, scale=1) -> Surface`` and ``size(text) -> (w, h)``; glyphs 5 px high."""

    height = 5

    def __init__(self, glyphs: dict[str, str]):
        self._glyphs = {ch: rows.split("|") for ch, rows in glyphs.items()}
        self._cache: dict[tuple, pygame.Surface] = {}

    def _glyph(self, ch: str) -> list[str]:
        return self._glyphs.get(ch.upper(), self._glyphs["?"])

    def size(self, text: str) -> tuple[int, int]:
        if not text:
            return 0, self.height
        return sum(len(self._glyph(ch)[0]) + 1 for ch in text) - 1, self.height

    def render(self, text: str, color, scale: int = 1) -> pygame.Surface:
        key = (text, tuple(color), scale)
        img = self._cache.get(key)
        if img is None:
            w, h = self.size(text)
            img = pygame.Surface((max(1, w), h), pygame.SRCALPHA)
            x = 0
            for ch in text:
                rows = self._glyph(ch)
                for gy, row in enumerate(rows):
                    for gx, bit in enumerate(row):
                        if bit == "#":
                            img.fill(color, (x + gx, gy, 1, 1))
                x += len(rows[0]) + 1
            if scale != 1:
                img = pygame.transform.scale(img, (img.get_width() * scale, img.get_height() * scale))
            if len(self._cache) > 2048:
                self._cache.clear()
            self._cache[key] = img
        return img


_GLYPH_ROWS = {
    "A": ".#.|#.#|###|#.#|#.#", "B": "##.|#.#|##.|#.#|##.", "C": ".##|#..|#..|#..|.##",
    "D": "##.|#.#|#.#|#.#|##.", "E": "###|#..|##.|#..|###", "F": "###|#..|##.|#..|#..",
    "G": ".##|#..|#.#|#.#|.##", "H": "#.#|#.#|###|#.#|#.#", "I": "###|.#.|.#.|.#.|###",
    "J": "..#|..#|..#|#.#|.#.", "K": "#.#|#.#|##.|#.#|#.#", "L": "#..|#..|#..|#..|###",
    "M": "#...#|##.##|#.#.#|#...#|#...#", "N": "#..#|##.#|#.##|#..#|#..#", "O": ".#.|#.#|#.#|#.#|.#.",
    "P": "##.|#.#|##.|#..|#..", "Q": ".#.|#.#|#.#|##.|.##", "R": "##.|#.#|##.|#.#|#.#",
    "S": ".##|#..|.#.|..#|##.", "T": "###|.#.|.#.|.#.|.#.", "U": "#.#|#.#|#.#|#.#|###",
    "V": "#.#|#.#|#.#|#.#|.#.", "W": "#...#|#...#|#.#.#|##.##|#...#", "X": "#.#|#.#|.#.|#.#|#.#",
    "Y": "#.#|#.#|.#.|.#.|.#.", "Z": "###|..#|.#.|#..|###",
    "0": "###|#.#|#.#|#.#|###", "1": ".#.|##.|.#.|.#.|###", "2": "##.|..#|.#.|#..|###",
    "3": "##.|..#|.#.|..#|##.", "4": "#.#|#.#|###|..#|..#", "5": "###|#..|##.|..#|##.",
    "6": ".##|#..|###|#.#|###", "7": "###|..#|.#.|.#.|.#.", "8": "###|#.#|###|#.#|###",
    "9": "###|#.#|###|..#|##.",
    ".": ".|.|.|.|#", ",": "..|..|..|.#|#.", ":": ".|#|.|#|.", ";": "..|.#|..|.#|#.",
    "!": "#|#|#|.|#", "?": "##.|..#|.#.|...|.#.", "-": "...|...|###|...|...", "+": "...|.#.|###|.#.|...",
    "=": "...|###|...|###|...", "/": "..#|..#|.#.|#..|#..", "\\": "#..|#..|.#.|..#|..#",
    "^": ".#.|#.#|...|...|...", "*": "...|#.#|.#.|#.#|...", "(": ".#|#.|#.|#.|.#", ")": "#.|.#|.#|.#|#.",
    "[": "##|#.|#.|#.|##", "]": "##|.#|.#|.#|##", "<": "..#|.#.|#..|.#.|..#", ">": "#..|.#.|..#|.#.|#..",
    "_": "...|...|...|...|###", "%": "#.#|..#|.#.|#..|#.#", "#": "#.#|###|#.#|###|#.#", "|": "#|#|#|#|#",
    "'": "#|#|.|.|.", '"': "#.#|#.#|...|...|...", "~": "....|.#.#|#.#.|....|....", "@": "###|#.#|#.#|#..|.##",
    "&": ".#.|#.#|.#.|#.#|.##", "$": ".##|##.|.#.|.##|##.", " ": "..|..|..|..|..",
}

FONT = PixelFont(_GLYPH_ROWS)
