"""Pacing of the shipped levels (issue 19, items 4 and 5), measured on each level's default replay (the route
finder's run, which stands in for a good player's):

* **No waiting.** An *idle step* is a step in which the player does nothing that moves the hero: no button
  is held, or what is held leaves the hero where it was (its box within ``STILL`` px of the step before: a
  run into a wall). Riding a lift with hands off counts as idle -- that is the wait a player feels. An
  *idle stretch* is a run of consecutive idle steps; one of ``WAIT`` seconds or more is a *wait*. A level's
  replay may hold no wait, except one per level listed in ``MARKED`` (with the reason, and the columns of
  the map where it happens) where the wait is the challenge: the lift is in view and its timing readable.
* **Death costs seconds.** From the spawn or a flag to the next flag (or the goal) the replay takes at most
  ``DEATH_COST`` seconds, so a death replays at most that much (issue 19, item 2).
* **Threats everywhere after the tutorial.** From level 3 on every level has at least ``THREAT_FLOOR``
  moving threats (enemies: walkers, hoppers, flyers; and turrets); each kind comes back in a later level
  after the one that brings it in, and the last level has every kind. Every enemy the hero comes near
  in the replay was in view for ``SEEN`` seconds first (turrets: tests/game/test_threats.py).

(Before this: level 4's replay stood 3.9 s and 3.5 s at its canyon's one escalator, level 5's 4.4 s and then
3.4 s aboard its slow lift, level 8's 2.8 s at its lift; levels 3, 4, 5 and 8 had nothing that moves
against the hero.)"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest

from engine import Buttons, FeelConfig
from game.files.inputscript import parse_script
from game.files.levelfile import load_level
from game.rules.camera import VIEW_H, VIEW_W
from game.rules.session import Session

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "levels").glob("*.tmx"))

WAIT = 2.0  # s: an idle stretch this long is a wait
STILL = 0.25  # px: a hero whose box moved less than this in a step (both axes) is standing still
# the one wait a level may keep, where waiting is the challenge: stem -> (first column, last column, why)
MARKED: dict[str, tuple[int, int, str]] = {}
THREAT_FLOOR = 4  # moving threats (enemies + turrets) in every level from level 3 on
KINDS = ("walker", "hopper", "flyer", "turret")
NEAR = 32.0  # px between the hero's box and an enemy's: close enough that it could hit within a moment
DEATH_COST = 20.0  # s of the replay at most from the spawn or a flag to the next flag or the goal
# stretches known to cost more, each with the reason (the test fails once one is fixed: take it off)
LONG_STRETCHES: dict[str, str] = {}  # (none today: level 2's pit no longer draws the route down for coins)
# a level re-laid out whose replays are not re-recorded yet: a strict xfail, so the test says so the day it lands
PENDING: dict[str, str] = {}
SEEN = 0.25  # s an enemy must have been in view before the hero comes that near: a reaction time
HZ = FeelConfig().physics.hz  # steps per second of the default feel, the replays'


def _pending(paths):
    return [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=PENDING[p.stem])) if p.stem in PENDING
            else p for p in paths]


class Stretch(NamedTuple):
    """Consecutive idle steps of a replay: the first step's index, how many, and the hero's tile column."""

    start: int
    steps: int
    column: int


def idle_stretches(level, steps: list[Buttons], feel=None, watch=None) -> list[Stretch]:
    """Play ``steps`` from the level's start (to the goal at most); its idle stretches (see the module's
    docstring), longest first. ``watch(session, events)`` is called after every step with its events."""
    s = Session(level, feel)
    out, run, start, column = [], 0, 0, 0
    for i, buttons in enumerate(steps):
        p = s.player
        x, y = p.x, p.y
        events = s.step(buttons)
        if watch is not None:
            watch(s, events)
        idle = not any(buttons) or (abs(p.x - x) < STILL and abs(p.y - y) < STILL)
        if idle:
            if run == 0:
                start, column = i, int((p.x + p.w / 2) // level.tile_size)
            run += 1
        if (not idle or s.completed) and run:
            out.append(Stretch(start, run, column))
            run = 0
        if s.completed:
            break
    if run:
        out.append(Stretch(start, run, column))
    return sorted(out, key=lambda r: -r.steps)


@cache
def _played(path: Path):
    """The default replay played once for this module: the level, its idle stretches, per enemy the steps
    it had been in view when the hero first came ``NEAR`` it (and that step), and the step rate."""
    level = load_level(path)
    replay = ROOT / "levels" / "replays" / f"{path.stem}.txt"
    in_view, first_near, last, moved = {}, {}, [], {}

    def watch(s, events):
        last[:] = [s]
        for e in events:  # each move's uses: the steps, and the hero's box at the first
            if e.type in ("wall_jump", "dash"):
                p = s.player
                moved.setdefault(e.type, ([], (p.x, p.y, p.w, p.h)))[0].append(s.steps)
        cam, p = s.camera, s.player
        for e in s.enemies.living():
            a = e.actor
            key = e.spec.name or e.spec.id
            seen = a.x < cam.x + VIEW_W and a.x + a.w > cam.x and a.y < cam.y + VIEW_H and a.y + a.h > cam.y
            in_view[key] = in_view.get(key, 0) + 1 if seen else 0
            gap = max(a.x - (p.x + p.w), p.x - (a.x + a.w), a.y - (p.y + p.h), p.y - (a.y + a.h))
            if gap < NEAR and key not in first_near:
                first_near[key] = (in_view[key], s.steps)

    stretches = idle_stretches(level, parse_script(replay.read_text(), replay.name), watch=watch)
    session = last[0]
    flags = [e.step for e in session.events if e.type == "checkpoint"]
    return level, stretches, first_near, HZ, [0, *flags, session.steps], moved


def test_an_idle_stretch_is_no_input_or_input_that_moves_nothing():
    """On level 1's flat start: standing still 2.5 s is one wait; running, then a short rest, is none; running
    into the map's left edge (the hero does not move) is idle too."""
    level = load_level(FILES[0])
    hz = HZ
    rest = [Buttons()] * int(2.5 * hz)
    stretches = idle_stretches(level, rest)
    assert [r.steps for r in stretches] == [len(rest)]
    stretches = idle_stretches(level, [Buttons(right=True)] * 30 + [Buttons()] * 60 + [Buttons(right=True)] * 30)
    assert max(r.steps for r in stretches) < WAIT * hz
    stretches = idle_stretches(level, [Buttons(left=True)] * int(3 * hz))
    assert stretches[0].steps >= 2.5 * hz  # pressed against the edge: no move, so idle after a few steps


@pytest.mark.parametrize("path", _pending(FILES), ids=lambda p: p.stem)
def test_the_default_replay_never_waits_except_where_the_wait_is_marked(path):
    level, stretches, _, hz, _, _ = _played(path)
    waits = [r for r in stretches if r.steps >= WAIT * hz]
    marked = MARKED.get(path.stem)
    allowed = 1 if marked else 0
    where = ", ".join(f"{r.steps / hz:.1f} s at step {r.start} (column {r.column})" for r in waits)
    assert len(waits) <= allowed, f"{path.stem}: waits of {WAIT:g} s or more: {where}"
    if marked and waits:
        lo, hi, _why = marked
        assert lo <= waits[0].column <= hi, f"{path.stem}: the wait is not the marked one: {where}"


def test_marked_waits_name_a_shipped_level_and_say_why():
    stems = {p.stem for p in FILES}
    for stem, (lo, hi, why) in MARKED.items():
        assert stem in stems and lo <= hi and len(why.split()) >= 4, stem


def _threats(level) -> list[str]:
    return [e.kind for e in level.enemies] + ["turret"] * len(level.turrets)


@pytest.mark.parametrize("path", _pending(FILES[2:]), ids=lambda p: p.stem)
def test_every_level_after_the_tutorial_has_moving_threats(path):
    threats = _threats(load_level(path))
    assert len(threats) >= THREAT_FLOOR, f"{path.stem}: {len(threats)} moving threats"


def test_each_kind_of_threat_comes_back_after_its_first_level_and_the_last_level_has_them_all():
    uses = [set(_threats(load_level(p))) for p in FILES]
    for kind in KINDS:
        levels = [i for i, used in enumerate(uses) if kind in used]
        assert levels, f"no level has a {kind}"
        # brought in by one level, met again in a later one at least (remixed with its own ideas)
        assert len(levels) >= 2, f"{kind}: only in level {levels[0] + 1}: reuse and remix it"
        assert kind in uses[-1], f"the last level has no {kind}"


@pytest.mark.parametrize("path", [p for p in FILES if load_level(p).enemies], ids=lambda p: p.stem)
def test_every_enemy_the_hero_comes_near_was_in_view_first(path):
    level, _, first_near, hz, _, _ = _played(path)
    assert first_near, f"{path.stem}: the replay meets none of its enemies"
    late = {name: f"in view {steps / hz:.2f} s before step {at}" for name, (steps, at) in first_near.items()
            if steps < SEEN * hz}
    assert not late, f"{path.stem}: enemies that come near out of the blue: {late}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_death_costs_at_most_twenty_seconds_of_the_replay(path):
    _, _, _, hz, stops, _ = _played(path)
    worst = max(b - a for a, b in zip(stops, stops[1:], strict=False)) / hz
    if path.stem in LONG_STRETCHES:
        assert worst > DEATH_COST, f"{path.stem} is within {DEATH_COST:g} s now: take it off LONG_STRETCHES"
    else:
        assert worst <= DEATH_COST, f"{path.stem}: {worst:.1f} s of the replay between two flags"


SAFE_REACH = 4  # tiles: no hazard this near the hero where the replay first uses a move the level brings in


def _first_grants() -> dict[str, Path]:
    """Each move (with an event: wall jump, dash) -> the campaign level that first grants it."""
    out: dict[str, Path] = {}
    for p in FILES:
        for move in load_level(p).moves:
            out.setdefault(move, p)
    return {m: p for m, p in out.items() if m in ("wall_jump", "dash")}


@pytest.mark.parametrize(("move", "path"), sorted(_first_grants().items()), ids=lambda v: getattr(v, "stem", v))
def test_a_new_move_is_first_used_in_a_safe_room_before_the_first_flag(move, path):
    """Issue 25: a move is taught by layout where a miss costs nothing, then used for real. The default replay
    (a good player's run) first uses it before the level's first flag, with no hazard within SAFE_REACH tiles
    (a floor below, no spikes), and uses it again later."""
    level, _, _, _, stops, moved = _played(path)
    assert move in moved, f"{path.stem} grants {move} but its replay never uses it"
    steps, (x, y, w, h) = moved[move]
    assert steps[0] < stops[1], f"{path.stem}: the replay first uses {move} at step {steps[0]}, after the first flag"
    assert steps[-1] > stops[1], f"{path.stem}: {move} is taught but not used after the first flag"
    reach = SAFE_REACH * level.tile_size
    near = [a.name for a in level.hazards if a.x < x + w + reach and x - reach < a.x + a.w
            and a.y < y + h + reach and y - reach < a.y + a.h]
    assert not near, f"{path.stem}: {move} first used beside hazards {near}"
