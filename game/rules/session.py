"""The game rules over one level: a player, its deaths and respawns, checkpoints, coins, signposts, goal.

Used by the headless CLI and by the windowed game alike, so both play the same game. ``Session.step``
takes one step's buttons and returns what happened as :class:`GameEvent` records; the game plays
sounds and particles from them, the CLI writes them as JSON.

Rules (one fixed step each call):
- The player is a ``PLAYER_W`` x ``PLAYER_H`` engine Character, feet centred on the spawn point.
- Death: touching a ``hazard``, touching an enemy other than by landing on it, a turret's bullet, being
  squished by a moving platform, the top of the box going below the map's bottom edge, or (in a map with
  the ``fall_limit`` property, a tall level) the feet falling more than that below the respawn point, so
  a fall costs at most the section since the last checkpoint. The player is
  then removed from the world and frozen for ``DEATH_STEPS`` steps (inputs ignored, platforms keep
  moving); on the next step it reappears standing at the respawn
  point with zero velocity (that step also ignores inputs) -- 21 steps after the death step.
- Respawn point: the bottom-centre of the last checkpoint reached, else the spawn point. A checkpoint is
  reached by touching its own rectangle (never its column or row: a level draws the rectangle over the
  whole passage where a player may jump over the flag, the flag's art standing at its bottom); reaching
  one that is not the current one moves the respawn point there (a ``checkpoint`` event). Each flag
  fires at most once per life: standing in two overlapping flags, or walking back and forth through
  them, moves the respawn point once each until the next death.
- Coins are collected once each; a collected coin stays collected after a death.
- The level objects live in their own modules, each a "part" with ``after_step`` rules, ``state()`` /
  ``set_state()`` for snapshots and ``reset()`` on a respawn: ``enemies.py`` (stomps and hits),
  ``hazards.py`` (turrets, bullets, springs), ``blocks.py`` (crumble, breakable), ``vines.py``,
  ``refills.py`` (dash refill crystals: a ``refill`` event when one gives the dashes back). On a
  respawn what the player destroyed stays destroyed (stomped enemies, broken blocks, their coins) and
  what moves starts over (living enemies at their start, no bullets, fallen crumbles back).
- The view: the session keeps the camera the window draws with (``camera``: ``VIEW_W`` x ``VIEW_H`` px,
  default tuning, the map's camera zones), updated once a step from the player like the window's,
  snapped to the player at the start and on a respawn, so headless runs and replays see what a player
  sees. A turret fires only while its box is on screen or within ``TURRET_WAKE`` px of it: every bullet
  comes from a gun the player could see; a bullet more than ``BULLET_REACH`` px beyond the view is gone.
- Entering the goal completes the level on that step; later ``step`` calls do nothing.
- The feel in force is the one given with the moves the level grants switched on (its ``moves`` map
  property; ``moves.py``): ``feel`` is that one, ``given_feel`` the one given (the feel file's).
- The moves (when the feel turns them on) return extra events for sound and particles: ``wall_jump``
  (a wall or climb jump; then no ``jump``), ``dash`` (a dash starts) and ``wall_slide`` (every step the
  player slides down a wall: the window paces its scrape).
- When several things happen in one step they are handled in this order: stomps, springs, crumbles,
  breaks (with their coins), refills, checkpoints, coins, trigger enter/exit, goal, death (``hit`` first when an
  enemy or a bullet did it; a goal reached on the step a hazard is touched wins).
- ``time`` is the level time in seconds: each step adds the step length (1 / ``physics.hz``) of the feel
  in force for that step, so retuning ``physics.hz`` mid-run keeps the clock and the best time honest.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, NamedTuple

from engine import Buttons, Character, FeelConfig, Path, Platform, Trigger, World

from .blocks import Blocks
from .camera import VIEW_H, VIEW_W, Camera
from .enemies import ENEMY, HERO, SHOT, Enemies
from .hazards import Hazards
from .moves import level_feel
from .refills import Refills
from .vines import Vines
from game.files.levelfile import COIN_POINT_SIZE, Area, LevelData
from game.files.levelkinds import PLAYER_BOX

__all__ = ["PLAYER_W", "PLAYER_H", "DEATH_STEPS", "CONTRACT_EVENTS", "EXTRA_EVENTS", "GameEvent", "Session",
           "SessionSnapshot", "carry_over"]

PLAYER_W, PLAYER_H = PLAYER_BOX  # px, the player's collision box (the map linter checks spawns with it)
DEATH_STEPS = 20  # steps the player stays dead (frozen, hidden) before the respawn step
CONTRACT_EVENTS = ("enter", "exit", "checkpoint", "coin", "death", "goal",  # in Session.events and JSON
                   "stomp", "hit", "spring", "crumble", "break", "refill")
EXTRA_EVENTS = ("jump", "land", "respawn",  # returned by step() for sound and particles only
                "wall_jump", "dash", "wall_slide")
# the engine's move events (ActorEvent.kind) -> the extra event a step returns (a climb jump is a wall jump)
_MOVES = {"wall_jump": "wall_jump", "climb_jump": "wall_jump", "dash": "dash", "wall_slide": "wall_slide"}

TURRET_WAKE = 16.0  # px beyond the view's edge within which a turret still fires (a tile)
BULLET_REACH = float(VIEW_W)  # px beyond the view's edge past which a bullet in flight is gone (a view's width)
VINE_WAKE: float | None = 64.0  # px beyond the view's edge within which a vine's reach keeps it moving (None: all)

_NO_BUTTONS = Buttons()


@dataclass(frozen=True)
class GameEvent:
    step: int  # the step it happened in, numbered from 1
    type: str  # one of CONTRACT_EVENTS or EXTRA_EVENTS
    name: str  # the object's name ("" if none)

    def as_dict(self) -> dict:
        return {"step": self.step, "type": self.type, "name": self.name}


class SessionSnapshot(NamedTuple):
    """A Session's whole state at one step (``Session.snapshot``); restore it into the same session."""

    session: Any  # the Session it belongs to
    world: Any  # engine Snapshot (the player included, in or out of the world)
    values: tuple  # Session.STATE.copied, in order
    collected: frozenset
    events: tuple
    inside: tuple
    taken: frozenset  # checkpoint ids reached in this life
    parts: tuple  # each level-object part's state(), in Session.parts order
    camera: tuple  # Camera.state()


class Session:
    """One play-through of one level. Read ``player`` afresh each frame (it may be out of the world
    while ``dead``)."""

    def __init__(self, level: LevelData, feel: FeelConfig | None = None):
        self.level = level
        self.given_feel = feel or FeelConfig()  # the feel file's (the F2 panel edits and saves this one)
        self.feel = level_feel(level, self.given_feel)  # in force: with the moves the level grants on
        # crumbling and breaking blocks edit the tiles: each session edits its own copy of the level's grid
        grid = level.grid.copy() if level.crumbles or level.breakables else level.grid
        self.world = World(grid, feel=self.feel)
        self.platforms: dict[int, Platform] = {}  # PlatformSpec id -> engine Platform
        for spec in level.platforms:
            path = Path(spec.points, speed=spec.speed, mode="ping-pong", wait=spec.wait)
            self.platforms[spec.id] = self.world.add(
                Platform(spec.x, spec.y, spec.w, spec.h, path, one_way=spec.one_way, name=spec.name,
                         data=spec))
        sx, sy = level.spawn
        self.player: Character = self.world.add(
            Character(sx - PLAYER_W / 2.0, sy - PLAYER_H, PLAYER_W, PLAYER_H, name="player", group=HERO,
                      touches=ENEMY | SHOT))
        self.world.settle(self.player)  # a spawn drawn a little into or above the floor still stands
        self.camera = Camera(VIEW_W, VIEW_H, level.width, level.height, zones=level.cameras)
        self._snap_camera()
        self.enemies = Enemies(self.world, level)
        self.hazards = Hazards(self.world, level)
        self.blocks = Blocks(self.world, level)
        self.vines = Vines(self.world, level)
        self.refills = Refills(self.world, level)
        # the level objects, each with state(), set_state() and reset() (on a respawn)
        self.parts = (self.enemies, self.hazards, self.blocks, self.vines, self.refills)
        # Trigger order is event order within a step (see the module docstring).
        for kind, areas in (("checkpoint", level.checkpoints), ("coin", level.coins),
                            ("trigger", level.triggers), ("goal", level.goals), ("hazard", level.hazards)):
            for area in areas:
                x, y, w, h = area.x, area.y, area.w, area.h
                if w <= 0 or h <= 0:  # a point coin: a small pickup box centred on the point
                    x, y = x - COIN_POINT_SIZE / 2.0, y - COIN_POINT_SIZE / 2.0
                    w = h = COIN_POINT_SIZE
                self.world.add(Trigger(x, y, w, h, name=area.name, data=(kind, area), senses=HERO))

        self._moves = self.feel.derived.moves  # a move's events are looked for only when the feel has one on
        self.steps = 0
        self._clock = (0.0, 0)  # (s before the current step rate, steps since): exact steps / hz at one rate
        self.deaths = 0
        self.coins = 0
        self.completed = False
        self.dead = False
        self.invincible = False  # assist: hazards, enemies and bullets do no harm (a pit or a squish still kill)
        self.collected: set[int] = set()  # coin Area ids
        self.respawn: tuple[float, float] = level.spawn
        self.checkpoint: Area | None = None  # the checkpoint the respawn point is at
        self.message: str | None = None  # signpost text while the player is inside a trigger with one
        self.events: list[GameEvent] = []  # contract events so far
        self._inside: list[Area] = []  # trigger areas the player is in, in entry order
        self._taken: set[int] = set()  # checkpoint Area ids reached in this life (each fires once a life)
        self._dead_left = 0

    # -- stepping --------------------------------------------------------------------------------------
    def step(self, buttons: Buttons) -> list[GameEvent]:
        """Advance one fixed step; returns this step's events (contract events and extras)."""
        if self.completed:
            return []
        self.steps += 1
        self._clock = (self._clock[0], self._clock[1] + 1)
        out: list[GameEvent] = []
        p = self.player
        cam = self.camera
        wake = VINE_WAKE
        self.vines.before_step(None if self.dead else p, buttons,
                               None if wake is None else lambda x, y, w, h: cam.sees(x, y, w, h, wake))
        if self.dead:
            p.held = buttons  # the buttons keep being read: a jump held through a death is no new press
            if self._dead_left > 0:
                self._dead_left -= 1
                self.world.step(_NO_BUTTONS)
                return out
            self._respawn(out)
            result = self.world.step(_NO_BUTTONS)  # the respawn step: standing still, whatever is held
            p.held = buttons
        else:
            result = self.world.step(buttons)
        moved = self._moves and [_MOVES[e.kind] for e in result.events if e.actor is p and e.kind in _MOVES]
        if any(c is p for c in result.jumped) and not (moved and "wall_jump" in moved):
            out.append(self._event("jump", ""))
        if moved:
            out.extend(self._event(kind, "") for kind in moved)
        if any(c is p for c in result.landed):
            out.append(self._event("land", ""))

        goal = killer = None
        if not self.dead:
            stomped, hitter = self.enemies.meet(result.touches, p, self.world.steps)
            out.extend(self._event("stomp", name) for name in stomped)
            if hitter is not None:
                killer = hitter
        self.enemies.after_step(result, self.world.steps)
        if not self.dead:
            self.camera.update(1.0 / self.feel.physics.hz, p.x + p.w / 2, p.y + p.h / 2, p.vx, p.vy, p.on_ground)
        cam = self.camera
        sprung, shot = self.hazards.after_step(result, None if self.dead else p,
                                               lambda t: cam.sees(t.x, t.y, t.w, t.h, TURRET_WAKE),
                                               lambda b: cam.sees(b.x, b.y, b.w, b.h, BULLET_REACH))
        out.extend(self._event("spring", name) for name in sprung)
        killer = killer or shot
        fell, broke = self.blocks.after_step(result, None if self.dead else p)
        out.extend(self._event("crumble", c.name) for c in fell)
        for block in broke:
            out.append(self._event("break", block.name))
            if block.coin:
                out.append(self._event("coin", block.name))
        if broke:
            self._count_coins()
        out.extend(self._event("refill", r.name) for r in self.refills.after_step(None if self.dead else p))
        for ev in result.triggers:
            if ev.actor is not p:
                continue
            kind, area = ev.trigger.data
            if kind == "trigger":
                if ev.kind == "enter":
                    self._inside.append(area)
                    out.append(self._event("enter", area.name))
                elif ev.kind == "exit":
                    self._inside = [a for a in self._inside if a is not area]
                    out.append(self._event("exit", area.name))
            elif ev.kind == "exit":
                continue
            elif kind == "checkpoint":
                if area.id not in self._taken and self.checkpoint is not area:
                    self._taken.add(area.id)
                    self.checkpoint = area
                    self.respawn = area.bottom_centre
                    out.append(self._event("checkpoint", area.name))
            elif kind == "coin":
                if area.id not in self.collected:
                    self.collected.add(area.id)
                    self._count_coins()
                    out.append(self._event("coin", area.name))
            elif kind == "goal":
                goal = goal or area
            elif kind == "hazard":
                killer = killer or area
        self._update_message()

        if goal is not None:
            self.completed = True
            out.append(self._event("goal", goal.name))
        elif killer is not None and not self.invincible:
            if not isinstance(killer, Area):  # an enemy or a bullet: what hit the player
                out.append(self._event("hit", killer.name))
            self._die(killer.name, out)
        elif any(a is p for a in result.squished) or p.y > self.level.height or self._fell_too_far():
            self._die("", out)
        self.events.extend(e for e in out if e.type in CONTRACT_EVENTS)
        return out

    def _snap_camera(self) -> None:
        p = self.player
        self.camera.snap(p.x + p.w / 2, p.y + p.h / 2)

    def _fell_too_far(self) -> bool:
        """A tall level's pit: the feet more than the map's ``fall_limit`` below the respawn point."""
        limit = self.level.fall_limit
        p = self.player
        return limit is not None and not self.dead and p.y + p.h > self.respawn[1] + limit

    def _count_coins(self) -> None:
        self.coins = len(self.collected) + self.blocks.coins

    @property
    def coins_total(self) -> int:
        """Coins the level holds: its coin objects and the breakable blocks hiding one."""
        return len(self.level.coins) + sum(1 for b in self.level.breakables if b.coin)

    def _event(self, kind: str, name: str) -> GameEvent:
        return GameEvent(self.steps, kind, name or "")

    def _update_message(self) -> None:
        self.message = None
        for area in reversed(self._inside):
            text = area.props.get("message")
            if text:
                self.message = str(text)
                break

    def _die(self, name: str, out: list[GameEvent]) -> None:
        self.deaths += 1
        out.append(self._event("death", name))
        for area in self._inside:  # leaving the world leaves every trigger
            out.append(self._event("exit", area.name))
        self._inside = []
        self.message = None
        p = self.player
        p.teleport(p.x, p.y)  # frozen where it died: no velocity, no interpolation smear
        self.world.remove(p)
        self.dead = True
        self._dead_left = DEATH_STEPS

    def _respawn(self, out: list[GameEvent]) -> None:
        rx, ry = self.respawn
        p = self.player
        p.teleport(rx - p.w / 2.0, ry - p.h)
        self.world.add(p)
        self.world.settle(p)  # a checkpoint drawn a little into or above the floor still gives a standing start
        self._snap_camera()
        for part in self.parts:
            part.reset()
        self._taken = set()  # a new life: every flag may be taken again
        self.dead = False
        out.append(self._event("respawn", self.checkpoint.name if self.checkpoint else ""))

    # -- snapshots ------------------------------------------------------------------------------------------
    # The rules' own state, listed in one place (tests/game/rules/test_session.py checks every attribute is named):
    # plain values copied as they are, containers copied, and what a step never changes (kept).
    STATE_COPIED = ("steps", "deaths", "coins", "completed", "dead", "respawn", "checkpoint", "message",
                    "_dead_left", "_clock", "invincible")
    STATE_CONTAINERS = ("collected", "events", "_inside", "_taken")
    STATE_KEPT = ("level", "given_feel", "feel", "world", "platforms", "player", "parts", "enemies", "hazards",
                  "blocks", "vines", "refills", "camera", "_moves")  # (snapshotted apart)
    _get_state = attrgetter(*STATE_COPIED)

    def snapshot(self) -> SessionSnapshot:
        """Everything a step can change: the world (with the player, even while dead), coins taken,
        checkpoint, deaths, timers, events. Cheap; restore with :meth:`restore`."""
        return SessionSnapshot(self, self.world.snapshot(extra=(self.player,)), self._get_state(self),
                               frozenset(self.collected), tuple(self.events), tuple(self._inside),
                               frozenset(self._taken),
                               tuple(part.state() for part in self.parts), self.camera.state())

    def restore(self, snap: SessionSnapshot) -> None:
        """Put this session back to ``snap``: stepping on is identical to never having left."""
        if snap.session is not self:
            raise ValueError("this snapshot was taken from another Session; restore it into its own session")
        self.world.restore(snap.world)
        for name, value in zip(self.STATE_COPIED, snap.values, strict=True):
            setattr(self, name, value)
        self.collected = set(snap.collected)
        self.events = list(snap.events)
        self._inside = list(snap.inside)
        self._taken = set(snap.taken)
        for part, state in zip(self.parts, snap.parts, strict=True):
            part.set_state(state)
        self.camera.set_state(snap.camera)

    # -- tuning and reporting --------------------------------------------------------------------------
    @property
    def time(self) -> float:
        """Seconds of level time so far: steps at each step rate, divided by that rate."""
        before, steps = self._clock
        return before + steps / self.feel.physics.hz

    @time.setter
    def time(self, seconds: float) -> None:  # carrying a run over to a reloaded level (F5)
        self._clock = (seconds, 0)

    def set_feel(self, feel: FeelConfig) -> None:
        """Hot reload: keep positions, velocities, timers and the level time."""
        self._clock = (self.time, 0)
        self.given_feel = feel
        self.feel = feel = level_feel(self.level, feel)  # the level's moves stay on
        self._moves = feel.derived.moves
        self.world.set_feel(feel)

    def state_hash(self) -> str:
        """Digest of the engine state plus the game state (dead player, coins, respawn point...)."""
        h = hashlib.sha256(self.world.state_hash().encode())
        p = self.player
        h.update(struct.pack("<6d", p.x, p.y, p.vx, p.vy, *self.respawn))
        h.update(struct.pack("<4q3?", self.steps, self.deaths, self._dead_left,
                             self.checkpoint.id if self.checkpoint else -1,
                             self.completed, self.dead, p.on_ground))
        h.update(repr(sorted(self.collected)).encode())
        h.update(repr([a.id for a in self._inside]).encode())
        h.update(repr(sorted(self._taken)).encode())
        h.update(struct.pack("<2d", self.camera.x, self.camera.y))
        h.update(repr([part.state() for part in self.parts]).encode())
        return h.hexdigest()

    def summary(self) -> dict:
        """The JSON object of the headless contract (docs/headless.md)."""
        p = self.player
        return {
            "level": self.level.name,
            "steps": self.steps,
            "completed": self.completed,
            "deaths": self.deaths,
            "coins": self.coins,
            "player": {"x": float(p.x), "y": float(p.y), "w": float(p.w), "h": float(p.h),
                       "vx": float(p.vx), "vy": float(p.vy), "on_ground": bool(p.on_ground)},
            "events": [e.as_dict() for e in self.events],
            "state_hash": self.state_hash(),
        }


def carry_over(old: Session, level: LevelData, feel: FeelConfig) -> Session:
    """A new Session on ``level`` (the map read again, F5) that continues ``old``'s run: steps, world step
    (turrets keep their rhythm), deaths, level time, collected coins and the respawn checkpoint (matched by
    object id; ones the new map no longer has are dropped), the player's position, velocity and facing,
    and what the player destroyed -- stomped enemies, broken blocks (and their coins), fallen or shaking
    crumbles -- unless the map file changed that object (its record differs: moved, resized, retuned),
    which then starts as the map places it. Living enemies the file did not change go on where they were.
    A player who was dead comes back at the respawn point."""
    new = Session(level, feel)
    new.steps, new.deaths, new.time = old.steps, old.deaths, old.time
    new.world.steps = old.world.steps  # the parts' step stamps (falls, shakes, routes, shots) carry over as they are
    coin_ids = {c.id for c in level.coins}
    new.collected = {i for i in old.collected if i in coin_ids}
    new.camera.set_state(old.camera.state())  # the view goes on where it was
    new.enemies.carry(old.enemies)
    new.blocks.carry(old.blocks)
    new._count_coins()
    if old.checkpoint is not None:
        cp = next((c for c in level.checkpoints if c.id == old.checkpoint.id), None)
        if cp is not None:
            new.checkpoint, new.respawn = cp, cp.bottom_centre
    p, q = new.player, old.player
    if old.dead:
        rx, ry = new.respawn
        p.teleport(rx - p.w / 2.0, ry - p.h)
    else:
        p.teleport(q.x, q.y)  # also no interpolation smear
        p.vx, p.vy = q.vx, q.vy
    p.facing = q.facing
    return new
