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

The **figure** of a level models a player, not the route's length. Each press or release lands off the
right step by a normal error of standard deviation ``TIMING_SD`` s (1/30 s: 2 steps at 60 Hz, a practised
player's spread; the shifts tried, +-0.1 s, are three of those, so the windows measured cover the model);
an input with window ``earlier .. later`` succeeds with probability
``p = Phi((later + 1/2) / sd) - Phi(-(earlier + 1/2) / sd)`` (sd in steps; an input that does not matter: 1).
A failed input (a death, or a miss that lands further back) costs an attempt at its **section**: the stretch
of the route between the spawn, each checkpoint it reaches and the goal (a death returns the player to the
last checkpoint; a miss is counted the same way, which over-counts misses that cost only a walk back). A
section is cleared in one go with probability ``P = prod(p)`` over its inputs, so it takes ``1 / P``
attempts on average; its **bits** are ``log2(1 / P) = -sum(log2 p)``. The level's figure is
``log2(1 + sum over sections of (2 ** bits - 1))``: log2 of the expected attempts at the whole level, each
death or miss starting one more. It is the hardest section's bits plus less than ``log2(sections)`` for the
rest: 0 for a level where no timing matters, 1 bit for one section a player clears every other try, +1 bit
per doubling of the attempts. A **tight** move has a window of at most ``round(TIGHT_SECONDS * hz)`` steps.
``timing_bits`` keeps the plain sum ``sum(log2(full / window))`` with ``full = 2 x shift + 1`` (uniform
error over the shifts tried, every input of the route), which grows with a level's length. Deterministic:
the same level, feel and route give the same figures on any machine.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from engine import Buttons, FeelConfig

from game.files.levelfile import LevelData
from game.rules.moves import level_feel
from game.rules.session import Session
from .route import Cancelled, distance_field, support_map

__all__ = ["Move", "Section", "Difficulty", "measure", "success", "level_figure", "SHIFT_SECONDS", "TIGHT_SECONDS",
           "TIMING_SD", "FALL_TOLERANCE", "curve_falls", "BUTTONS"]

SHIFT_SECONDS = 0.1  # s each way an input is shifted at most (6 steps at 60 Hz)
TIGHT_SECONDS = 0.05  # s: a move whose window is at most this (3 steps at 60 Hz) is tight
FALL_TOLERANCE = 2.0  # bits a campaign's next level may be easier than the one before (a quarter of the attempts)
TIMING_SD = 1 / 30  # s, the standard deviation of the modelled player's press and release times (2 steps at 60 Hz)
BUTTONS = ("jump", "dash")  # the buttons whose presses are timed (and jump's releases)
FALL_STEPS = 240  # steps a failed shift still in the air is followed, hands off, to see whether the fall kills
_IDLE = Buttons()


class Move(NamedTuple):
    step: int  # the route's step where the input comes (0-based: the first step it is held, or the first not held)
    button: str  # "jump" or "dash"
    kind: str  # "press" or "release"
    earlier: int  # steps it could come earlier and still succeed (at most the shift tried)
    later: int  # steps later
    col: int  # the player's feet tile at that step
    row: int
    section: int = 0  # the stretch of the route it is in: 0 from the spawn to the first checkpoint, 1 after it...
    fail_earlier: str = ""  # what the first shift that failed earlier did: "death", "miss" (no death), "" (none)
    fail_later: str = ""

    @property
    def window(self) -> int:
        return self.earlier + 1 + self.later

    def as_dict(self) -> dict:
        return {"step": self.step, "button": self.button, "kind": self.kind, "earlier": self.earlier,
                "later": self.later, "window": self.window, "col": self.col, "row": self.row,
                "section": self.section, "fail_earlier": self.fail_earlier, "fail_later": self.fail_later}


class Section(NamedTuple):
    """A stretch of the route between the spawn, the checkpoints it reaches and the goal."""

    index: int  # 0 from the spawn, 1 from the first checkpoint reached...
    start: int  # its first step in the route
    end: int  # one past its last step
    bits: float  # log2 of the attempts it takes on average: -sum(log2 p) over its inputs
    inputs: int  # its inputs that matter
    deadly: int  # of those, the ones whose first failing shift kills

    def as_dict(self) -> dict:
        return {"index": self.index, "start": self.start, "end": self.end, "bits": round(self.bits, 2),
                "inputs": self.inputs, "deadly": self.deadly}


class Difficulty(NamedTuple):
    figure: float  # bits: log2 of the expected attempts at the level (see the module's docstring)
    inputs: int  # inputs that matter (a window narrower than the widest measured)
    tight: int  # of those, windows of at most tight_steps
    moves: tuple  # Move per timed input, in route order (the ones that do not matter too)
    shift: int  # steps tried each way
    tight_steps: int
    steps: int  # session steps simulated to measure it (the work done, machine-independent)
    sections: tuple = ()  # Section per stretch between checkpoints, in route order
    timing_bits: float = 0.0  # sum(log2(full / window)) over every input that matters (grows with length)
    sd_steps: float = 2.0  # the modelled timing error's standard deviation, steps

    @property
    def hardest(self) -> Section | None:
        return max(self.sections, key=lambda s: (s.bits, -s.index), default=None)

    @property
    def attempts(self) -> float:
        """The expected attempts at the level: 2 ** figure."""
        return 2.0 ** self.figure

    @property
    def tightest(self) -> Move | None:
        return min(self.moves, key=lambda m: (m.window, m.step), default=None)

    def as_dict(self) -> dict:
        worst = self.tightest
        hardest = self.hardest
        return {"figure": round(self.figure, 2), "attempts": round(self.attempts, 1), "inputs": self.inputs,
                "tight": self.tight, "shift_steps": self.shift, "tight_steps": self.tight_steps,
                "sd_steps": round(self.sd_steps, 3), "steps": self.steps, "timing_bits": round(self.timing_bits, 2),
                "hardest": None if hardest is None else hardest.index,
                "sections": [x.as_dict() for x in self.sections],
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
            tight_seconds: float = TIGHT_SECONDS, stop=None) -> Difficulty:
    """Time every input of ``route`` (Buttons per step that completes ``level`` under ``feel``). ``stop``: a
    callable polled once per input; true raises ``Cancelled`` (game/guard/route.py)."""
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
    section_of: list[int] = []  # per step: the section it is in (checkpoints reached before it)
    reached = 0
    for i, b in enumerate(route):
        tiles.append((int((player.x + player.w / 2) // ts), int((player.y + player.h - 1e-6) // ts)))
        section_of.append(reached)
        rising = player.jumping
        checkpoint = session.checkpoint
        session.step(b)
        if session.checkpoint is not checkpoint and session.checkpoint is not None:
            reached += 1
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
        if stop is not None and stop():
            raise Cancelled
        col, row = tiles[step]
        if start is None:  # no jump began of it, or it never lands before the goal: not timed
            moves.append(Move(step, button, kind, shift, shift, col, row, section_of[step]))
            continue
        counts, fails = {}, {}
        for sign in (-1, 1):
            ok, fails[sign] = 0, ""
            for k in range(1, shift + 1):
                change = _shifted(route, step, button, kind, sign * k)
                if change is None:  # the route's own neighbouring input (or its start) is in the way, not the game
                    ok = shift
                    break
                lo, new = change
                outcome, n = _replay(session, snaps[start], route, start, lo, new, min(lo, jump), where_to + ts,
                                     land + 2 * shift + 2, button == "jump", surface)
                simulated += n
                if outcome != "ok":
                    fails[sign] = outcome
                    break
                ok = k
            counts[sign] = ok
        moves.append(Move(step, button, kind, counts[-1], counts[1], col, row, section_of[step], fails[-1], fails[1]))
    full = 2 * shift + 1
    matter = [m for m in moves if m.window < full]
    timing_bits = float(sum(math.log2(full / m.window) for m in matter))
    tight = sum(m.window <= tight_steps for m in matter)
    sd = TIMING_SD * hz
    bounds = [0] + [i for i in range(1, len(route)) if section_of[i] != section_of[i - 1]] + [len(route)]
    sections = []
    for index in range(len(bounds) - 1):
        mine = [m for m in matter if m.section == index]
        bits = float(-sum(math.log2(success(m, sd)) for m in mine))
        deadly = sum("death" in (m.fail_earlier, m.fail_later) for m in mine)
        sections.append(Section(index, bounds[index], bounds[index + 1], bits, len(mine), deadly))
    return Difficulty(level_figure([x.bits for x in sections]), len(matter), tight, tuple(moves), shift,
                      tight_steps, simulated, tuple(sections), timing_bits, sd)


def success(move: Move, sd: float) -> float:
    """The chance a press or release of ``move`` lands in its window, the player's error normal with
    standard deviation ``sd`` steps."""
    phi = lambda x: 0.5 * (1.0 + math.erf(x / (sd * math.sqrt(2.0))))  # noqa: E731
    return max(phi(move.later + 0.5) - phi(-(move.earlier + 0.5)), 1e-12)


def curve_falls(figures, tolerance: float = FALL_TOLERANCE) -> list[tuple[int, float]]:
    """``(i, bits)`` for each step of a campaign's curve where level ``i + 1`` is more than ``tolerance``
    bits easier than level ``i`` (a level with no figure, None, is not compared)."""
    f = list(figures)
    return [(i, f[i] - f[i + 1]) for i in range(len(f) - 1)
            if f[i] is not None and f[i + 1] is not None and f[i] - f[i + 1] > tolerance + 1e-9]


def level_figure(section_bits) -> float:
    """log2 of the expected attempts at a level whose sections take ``2 ** bits`` attempts each."""
    return math.log2(1.0 + sum(2.0 ** b - 1.0 for b in section_bits))


def _replay(session: Session, snap, route, start, lo, new, after, worst, limit, jumps: bool,
            surface) -> tuple[str, int]:
    """Play the route from ``start`` with steps ``lo ..`` replaced by ``new``; (outcome, steps simulated):
    "ok" when the player does not die and, after a jump begins at ``after`` or later (``jumps``; else from
    ``after`` on), first lands no further from the goal than ``worst`` px within ``limit`` steps (or finishes
    the level); "death" when the player dies first; else "miss"."""
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
            return "death", n
        if session.completed:
            return "ok", n
        if i >= after and (player.jumping and not rising if jumps else not player.on_ground):
            flying = True
        elif flying and player.on_ground:
            return ("ok" if surface() <= worst else "miss"), n
    for _ in range(FALL_STEPS if not player.on_ground else 0):  # still in the air: a fall that kills is a death
        session.step(_IDLE)
        n += 1
        if session.deaths != deaths:
            return "death", n
        if player.on_ground:
            break
    return "miss", n
