"""Difficulty, measured: how precisely each input of a route must come, by re-simulating it shifted in time.

    d = measure(level, feel, route)      # route: Buttons per step that finishes the level
    d.figure                             # bits: the level's difficulty (see below)
    d.tight, d.inputs                    # moves with a window of at most TIGHT_SECONDS; inputs that matter
    d.moves                              # one Move per jump press, jump release and dash press

**An input that matters** is a press of jump (or dash) or a release of jump in the route. Each is shifted
``k = 1, 2, ...`` steps earlier and later (up to ``round(SHIFT_SECONDS * hz)`` each way) and the route is
replayed from a snapshot before the change, the rest of its buttons as written. A shift **succeeds** when the
player does not die and lands, after the move's own jump (for a press: a jump that begins at or after the
shifted press; for a release: the jump its hold made), no further from the goal than the route's landing plus
one tile (the distance is the search's distance field, px), by the route's landing step plus twice the shift;
or finishes the level on the way. A press that starts no jump in the route (nor within the jump buffer), or
whose jump never lands before the goal, is not timed. Counting stops at the first shift that fails each way:
``earlier`` and ``later`` are the shifts that succeed, the **window** ``earlier + 1 + later`` steps. A shift
that would run into the route's neighbouring press or hold (or before its first step) is not tried, and that
side counts as open: the route, not the game, is what bounds it there. An input whose every shift succeeds
does not matter. The measure is of the route found: a jittery searched route has more tight moves than a
clean one over the same map.

The **figure** of a level is ``sum(log2(full / window))`` over its inputs, with ``full = 2 x shift + 1``
(the widest window measured): the number of bits of timing a player needs. A player whose presses land
anywhere within +-SHIFT_SECONDS of the right step, evenly, finishes the route with probability
``2 ** -figure`` (inputs taken as independent). A 1-step window at 60 Hz with the default 6-step shift is
3.7 bits; a 7-step window 0.9. A **tight** move has a window of at most ``round(TIGHT_SECONDS * hz)`` steps.
Deterministic: the same level, feel and route give the same figures on any machine.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from engine import Buttons, FeelConfig

from game.files.levelfile import LevelData
from game.rules.moves import level_feel
from game.rules.session import Session
from .route import distance_field, support_map

__all__ = ["Move", "Difficulty", "measure", "SHIFT_SECONDS", "TIGHT_SECONDS", "BUTTONS"]

SHIFT_SECONDS = 0.1  # s each way an input is shifted at most (6 steps at 60 Hz)
TIGHT_SECONDS = 0.05  # s: a move whose window is at most this (3 steps at 60 Hz) is tight
BUTTONS = ("jump", "dash")  # the buttons whose presses are timed (and jump's releases)


class Move(NamedTuple):
    step: int  # the route's step where the input comes (0-based: the first step it is held, or the first not held)
    button: str  # "jump" or "dash"
    kind: str  # "press" or "release"
    earlier: int  # steps it could come earlier and still succeed (at most the shift tried)
    later: int  # steps later
    col: int  # the player's feet tile at that step
    row: int

    @property
    def window(self) -> int:
        return self.earlier + 1 + self.later

    def as_dict(self) -> dict:
        return {"step": self.step, "button": self.button, "kind": self.kind, "earlier": self.earlier,
                "later": self.later, "window": self.window, "col": self.col, "row": self.row}


class Difficulty(NamedTuple):
    figure: float  # bits (see the module's docstring)
    inputs: int  # inputs that matter (a window narrower than the widest measured)
    tight: int  # of those, windows of at most tight_steps
    moves: tuple  # Move per timed input, in route order (the ones that do not matter too)
    shift: int  # steps tried each way
    tight_steps: int
    steps: int  # session steps simulated to measure it (the work done, machine-independent)

    @property
    def tightest(self) -> Move | None:
        return min(self.moves, key=lambda m: (m.window, m.step), default=None)

    def as_dict(self) -> dict:
        worst = self.tightest
        return {"figure": round(self.figure, 2), "inputs": self.inputs, "tight": self.tight,
                "shift_steps": self.shift, "tight_steps": self.tight_steps, "steps": self.steps,
                "tightest": None if worst is None else worst.as_dict(),
                "moves": [m.as_dict() for m in self.moves if m.window < 2 * self.shift + 1]}


def _events(route: tuple) -> list[tuple[int, str, str]]:
    """(step, button, kind) of every timed input, in route order."""
    out = []
    for button in BUTTONS:
        before = False
        for i, b in enumerate(route):
            now = getattr(b, button)
            if now and not before:
                out.append((i, button, "press"))
            elif before and not now and button == "jump":
                out.append((i, button, "release"))
            before = now
    out.sort()
    return out


def _shifted(route: tuple, step: int, button: str, kind: str, k: int) -> tuple[int, list] | None:
    """(first step changed, new buttons for the changed steps) for the input at ``step`` moved by ``k`` steps
    (negative: earlier), or None when the shift would run into the neighbouring press or hold."""
    n = len(route)
    held = lambda i: 0 <= i < n and getattr(route[i], button)  # noqa: E731
    on = kind == "press"  # a press turns the button on at `step`; a release turns it off there
    if k < 0:  # the change comes -k steps sooner: steps step+k .. step-1 take the new value
        lo, hi, value = step + k, step, on
        if lo < 0:
            return None
        if on and held(lo - 1):  # would merge with the hold before
            return None
        if not on and any(not held(i) for i in range(lo, hi)):
            return None
    else:  # later: steps step .. step+k-1 keep the old value
        lo, hi, value = step, step + k, not on
        if hi > n:
            return None
        if on and any(not held(i) for i in range(lo, hi + 1)):  # the press must still be a press after
            return None
        if not on and held(hi):  # would merge with the next press
            return None
    return lo, [route[i]._replace(**{button: value}) for i in range(lo, hi)]


def measure(level: LevelData, feel: FeelConfig, route: tuple, *, shift_seconds: float = SHIFT_SECONDS,
            tight_seconds: float = TIGHT_SECONDS) -> Difficulty:
    """Time every input of ``route`` (Buttons per step that completes ``level`` under ``feel``)."""
    feel = level_feel(level, feel)
    hz = feel.physics.hz
    shift = max(1, round(shift_seconds * hz))
    tight_steps = max(1, round(tight_seconds * hz))
    route = tuple(route)
    events = _events(route)
    ts = level.tile_size
    field = distance_field(level.grid, [(g.x, g.y, g.w, g.h) for g in level.goals],
                           support=support_map(level, feel)).tolist()
    rows, cols = level.rows, level.cols
    session = Session(level, feel)
    player = session.player

    def surface() -> float | None:
        """Where the player stands, as its distance to the goal (px, the search's field); None in the air."""
        if not player.on_ground:
            return None
        r = min(max(int((player.y + player.h / 2) // ts), 0), rows - 1)
        c = min(max(int((player.x + player.w / 2) // ts), 0), cols - 1)
        return min(field[rr][cc] for rr in range(max(r - 1, 0), min(r + 2, rows))
                   for cc in range(max(c - 1, 0), min(c + 2, cols)))

    # the route as written (a first pass): per step (after it) the surface stood on (None in the air), whether
    # a jump began, the feet tile before it
    stood: list = []
    began: list[bool] = []
    tiles: list = []
    completed_at = None
    for i, b in enumerate(route):
        tiles.append((int((player.x + player.w / 2) // ts), int((player.y + player.h - 1e-6) // ts)))
        rising = player.jumping
        session.step(b)
        stood.append(surface())
        began.append(player.jumping and not rising)
        if session.completed:
            completed_at = i
            break
    if completed_at is None:
        raise ValueError(f"{level.name}: the route does not finish the level; difficulty is measured on a route "
                         f"that does")
    route = route[:completed_at + 1]
    reach = feel.derived.buffer_steps + 1  # steps after a press within which its jump begins (or never)
    plans = []  # (step, button, kind, start, jump, landing surface, landing step) or None: the input changes nothing
    for step, button, kind in (e for e in events if e[0] <= completed_at):
        if kind == "release":  # the jump of this hold: the last one begun since its press
            press = next(i for i in range(step - 1, -1, -1) if i == 0 or not getattr(route[i - 1], button))
            jump = next((i for i in range(step - 1, press - 1, -1) if began[i]), None)
        elif button == "jump":
            jump = next((i for i in range(step, min(step + reach, completed_at + 1)) if began[i]), None)
        else:  # a dash: judged by the first landing after it
            jump = step
        land = None if jump is None else next((i for i in range(jump + 1, completed_at + 1)
                                              if stood[i] is not None and stood[i - 1] is None), None)
        if land is None:
            plans.append((step, button, kind, None, None, None, None))
            continue
        start = max(0, min(step - shift, jump))
        plans.append((step, button, kind, start, jump, stood[land], land))
    # a second pass for the snapshots the replays start from
    session = Session(level, feel)
    player = session.player
    wanted = {p[3] for p in plans if p[3] is not None}
    snaps: dict[int, object] = {}
    for i, b in enumerate(route):
        if i in wanted:
            snaps[i] = session.snapshot()
        session.step(b)
    simulated = 2 * len(route)

    moves = []
    for step, button, kind, start, jump, where_to, land in plans:
        col, row = tiles[step]
        if start is None:  # no jump began of it, or it never lands before the goal: not timed
            moves.append(Move(step, button, kind, shift, shift, col, row))
            continue
        counts = {}
        for sign in (-1, 1):
            ok = 0
            for k in range(1, shift + 1):
                change = _shifted(route, step, button, kind, sign * k)
                if change is None:  # the route's own neighbouring input (or its start) is in the way, not the game
                    ok = shift
                    break
                lo, new = change
                good, n = _replay(session, snaps[start], route, start, lo, new, min(lo, jump), where_to + ts,
                                  land + 2 * shift + 2, button == "jump", surface)
                simulated += n
                if not good:
                    break
                ok = k
            counts[sign] = ok
        moves.append(Move(step, button, kind, counts[-1], counts[1], col, row))
    full = 2 * shift + 1
    matter = [m for m in moves if m.window < full]
    figure = float(sum(math.log2(full / m.window) for m in matter))
    tight = sum(m.window <= tight_steps for m in matter)
    return Difficulty(figure, len(matter), tight, tuple(moves), shift, tight_steps, simulated)


def _replay(session: Session, snap, route, start, lo, new, after, worst, limit, jumps: bool,
            surface) -> tuple[bool, int]:
    """Play the route from ``start`` with steps ``lo ..`` replaced by ``new``; (success, steps simulated):
    success when the player does not die and, after a jump begins at ``after`` or later (``jumps``; else
    from ``after`` on), first lands no further from the goal than ``worst`` px within ``limit`` steps (or
    finishes the level)."""
    session.restore(snap)
    player = session.player
    deaths = session.deaths
    flying = False
    n = 0
    for i in range(start, limit):
        b = new[i - lo] if lo <= i < lo + len(new) else (route[i] if i < len(route) else Buttons())
        rising = player.jumping
        session.step(b)
        n += 1
        if session.deaths != deaths:
            return False, n
        if session.completed:
            return True, n
        if i >= after and (player.jumping and not rising if jumps else not player.on_ground):
            flying = True
        elif flying and player.on_ground:
            return surface() <= worst, n
    return False, n
