"""Bodies: Actor (a moving box), Character (an actor the controller drives), Trigger (a sensor).

Moving platforms live in ``platforms.py``. Records here are plain data; the world moves them.
"""

from __future__ import annotations

import numbers
from dataclasses import replace
from typing import Any, NamedTuple

from . import _check
from .geometry import Rect

__all__ = ["Actor", "ActorEvent", "Buttons", "Character", "Contact", "Ground", "Touch", "Trigger", "TriggerEvent"]



UNGROUPED = 1 << 63  # the group of a body given none: the top bit, left out of the groups a game names from 1 up

class _ButtonFields(NamedTuple):
    left: bool = False
    right: bool = False
    up: bool = False
    down: bool = False
    jump: bool = False
    dash: bool = False


class Buttons(_ButtonFields):
    """Buttons held during one step (booleans). A *press* is a step held after a step not held.
    ``dash`` does something only when the feel turns the dash on (``[dash] enabled``)."""

    __slots__ = ()

    def __new__(cls, left=False, right=False, up=False, down=False, jump=False, dash=False):
        if not (left.__class__ is right.__class__ is up.__class__ is down.__class__ is jump.__class__
                is dash.__class__ is bool):
            left, right, up, down, jump, dash = (
                _check.flag("Buttons", name, v) for name, v in
                zip(_ButtonFields._fields, (left, right, up, down, jump, dash), strict=True))
        return super().__new__(cls, left, right, up, down, jump, dash)


NO_BUTTONS = Buttons()


class Ground(NamedTuple):
    """What an actor stands on (``actor.ground``): ``kind`` is "solid", "slope", "one_way", "platform" or
    "actor" (a solid actor: a crate)."""

    kind: str
    platform: Any = None  # the Platform (or solid Actor) when kind is "platform" (or "actor")
    one_way: bool = False  # True when dropping through would work (one-way tile or platform only)


class Contact(NamedTuple):
    """What an actor's own move touched in the last step (``actor.contacts``, Y pass first): ``normal``
    points away from what was hit, e.g. (0, -1) for a floor, (-1, 0) for a wall on the right.

    ``vx, vy`` are the actor's velocity (px/s) when it hit, before the hit stopped (or bounced) it: a wall
    zeroes ``vx``, ``contact.vx`` still says how fast it was going."""

    normal: tuple[int, int]
    kind: str  # "solid", "slope", "one_way", "platform", "actor" (a solid actor)
    other: Any = None  # the Platform or solid Actor hit, or None
    tile: tuple[int, int] | None = None  # (col, row) of the tile hit, or None (a body, a wall edge of the map)
    vx: float = 0.0  # px/s, before the hit
    vy: float = 0.0  # px/s, before the hit


class ActorEvent(NamedTuple):
    """Something that happened to an actor this step (``StepResult.events``), in the order it happened.

    ``kind``: "landed" (on the ground after a step off it), "wall", "ceiling" (its own move was stopped:
    every step it presses on), "pushed" (moved by a platform or a solid actor in its way; once per pusher
    and step), "squished" (crushed, or found inside solid geometry with no way out), "hit" (a bullet
    stopped at an actor or walker it touches: ``other``; walls, ceilings and floors are only solids).
    ``normal`` points away from what was hit (for "pushed": the way it was pushed); ``tile`` is the
    ``(col, row)`` hit or None; ``other`` the Platform or Actor, or None; ``vx, vy`` the actor's velocity
    (px/s) just before."""

    kind: str
    actor: Any
    normal: tuple[int, int]
    tile: tuple[int, int] | None = None
    other: Any = None
    vx: float = 0.0
    vy: float = 0.0


class Touch(NamedTuple):
    """``actor`` overlaps ``other`` after this step (or, for a bullet, its sweep reached it), and
    ``actor.touches`` includes ``other.group`` (``StepResult.touches``).

    ``side`` is the side of ``other`` that ``actor`` came from, judged from their previous positions:
    "top" when actor's previous feet were at or above other's previous top (a stomp), else "bottom",
    "left", "right", or "inside" when they already overlapped before this step."""

    actor: Any
    other: Any
    side: str


class Actor:
    """An axis-aligned box that moves and collides. ``x, y`` is the top-left corner (px).

    ``gravity_scale``: times the feel's gravity (1 normal, 0 none, negative pulls up); ``gravity=False`` is
    the same as ``gravity_scale=0`` (an on/off alias). ``snap``: while grounded, follows the ground down
    slopes and small steps instead of flying off them (the same rule as a Character). ``data``: anything
    of yours (an enemy's kind, hit points); the engine never reads it.
    ``solid``: other actors stand on it, ride it and are blocked by it, and it carries, pushes and
    squishes them when it moves (a crate: the moving-platform rules). ``pushable`` (solid only): an actor
    walking into its side pushes it along, both at ``1 - friction`` times the pusher's speed (0..1).
    ``bullet``: moves by a swept box along its path (never passing anything thin, however fast) and stops
    at the first actor it touches. ``bounce``: restitution 0..1 of what it hits: 0 slides, 1 mirrors.
    ``group`` / ``touches``: bit masks: the groups it is in, and the groups whose actors it reports
    touching (``StepResult.touches``); 0 touches nothing. A body not given a group is in ``UNGROUPED``
    (the top bit, 1 << 63), so the groups you name from 1 up (``PLAYER = 1``) hold only what you put in them.
    """

    __slots__ = (
        "_clear",
        "_gravity_scale",
        "_hold",
        "_run",
        "_world",
        "bounce",
        "bullet",
        "contacts",
        "data",
        "drop_platform",
        "friction",
        "ground",
        "group",
        "h",
        "name",
        "on_ground",
        "prev_x",
        "prev_y",
        "pushable",
        "snap",
        "solid",
        "squished",
        "touches",
        "vx",
        "vy",
        "w",
        "x",
        "y",
    )
    one_way = False  # a solid actor is solid on every side (read where platforms are: see _motion.py)
    _kind = "actor"  # what Ground / Contact call it when it is solid
    _listed = True  # in its world's spatial hash (a crowd's walker standing in as an actor is not)

    def __init__(self, x: float, y: float, w: float, h: float, *, gravity_scale: float | None = None,
                 gravity: bool | None = None, name: str = "", snap: bool = True, data: Any = None,
                 solid: bool = False, bullet: bool = False, bounce: float = 0.0, group: int = UNGROUPED,
                 touches: int = 0, pushable: bool = False, friction: float = 0.0):
        owner = type(self).__name__
        self.x, self.y = _check.number(owner, "x", x), _check.number(owner, "y", y)
        self.w, self.h = _check.size(owner, "w", w), _check.size(owner, "h", h)
        self.vx = 0.0  # px/s
        self.vy = 0.0  # px/s, positive is down
        self.prev_x, self.prev_y = self.x, self.y
        self.on_ground = False
        self.ground: Ground | None = None
        self.contacts: list[Contact] = []  # what the last step's own move touched (Y pass first)
        self._gravity_scale = _scale(owner, gravity_scale, gravity)
        self.data = data
        self.snap = _check.flag(owner, "snap", snap)
        self.solid = _check.flag(owner, "solid", solid)
        self.bullet = _check.flag(owner, "bullet", bullet)
        if self.solid and self.bullet:
            raise ValueError(f"{owner}: an actor is solid or a bullet, not both (a bullet never carries riders)")
        self.bounce = _check.ratio(owner, "bounce", bounce)  # 0 slides along what it hits, 1 mirrors
        self.pushable = _check.flag(owner, "pushable", pushable)  # an actor walking into it pushes it along
        if self.pushable and not self.solid:
            raise ValueError(f"{owner}: a pushable actor is a solid one (a crate): Actor(..., solid=True, "
                             f"pushable=True)")
        self.friction = _check.ratio(owner, "friction", friction)  # 0: pushed at the pusher's speed .. 1: stuck
        self.group = _check.mask(owner, "group", group)  # bits: the groups this actor is in
        self.touches = _check.mask(owner, "touches", touches)  # bits: the groups it reports touching
        self.squished = False  # crushed this step (also listed in StepResult.squished)
        self.drop_platform = None  # the one-way Platform a Character is dropping through, until below its top
        self.name = _check.text(owner, "name", name)
        self._clear = None  # (x, y, w, h) the engine last saw free of solids; anything else is checked
        self._world = None  # the World that last added it (teleport re-indexes it there at once)
        self._hold = None  # the Rope it holds (rope.attach), or None
        self._run = None  # a cache, not state: the flat stretch it walks on (see _runway.py)

    @property
    def gravity_scale(self) -> float:
        """Times the feel's gravity: 1 normal, 0 none (floats), 2 twice as heavy, negative pulls up."""
        return self._gravity_scale

    @gravity_scale.setter
    def gravity_scale(self, value: float) -> None:
        self._gravity_scale = _scale(type(self).__name__, value, None)

    @property
    def gravity(self) -> bool:
        """On/off view of ``gravity_scale``: True unless it is 0; setting it makes the scale 1 or 0."""
        return self._gravity_scale != 0.0

    @gravity.setter
    def gravity(self, on: bool) -> None:
        self._gravity_scale = _scale(type(self).__name__, None, on)

    @property
    def rect(self) -> Rect:
        return Rect(self.x, self.y, self.w, self.h)

    @property
    def holding(self):
        """The Rope this actor holds (``rope.attach``), or None."""
        return self._hold

    @property
    def feet(self) -> tuple[float, float]:
        """Bottom-centre of the box."""
        return self.x + self.w / 2, self.y + self.h

    @property
    def wall(self) -> Contact | None:
        """The wall (or solid side) the last step's own move ran into, or None: ``wall.normal[0]`` points
        away from it and ``wall.vx`` is the speed before it stopped the actor (turn round:
        ``a.vx = -a.wall.vx``)."""
        for c in self.contacts:
            if c.normal[0]:
                return c
        return None

    @property
    def ceiling(self) -> Contact | None:
        """The ceiling the last step's own move bumped into, or None (``ceiling.tile``: which block)."""
        for c in self.contacts:
            if c.normal[1] > 0:
                return c
        return None

    @property
    def floor(self) -> Contact | None:
        """The floor the last step's own move came down on, or None (``floor.vy``: how fast it fell)."""
        for c in self.contacts:
            if c.normal[1] < 0:
                return c
        return None

    def interpolated(self, alpha: float) -> tuple[float, float]:
        """Position to draw: lerp(previous, current, alpha)."""
        return self.prev_x + (self.x - self.prev_x) * alpha, self.prev_y + (self.y - self.prev_y) * alpha

    def teleport(self, x: float, y: float) -> None:
        """Put the actor somewhere without interpolation smear, at rest. Inside solid geometry, the next
        step moves it to the nearest free spot (or reports it squished)."""
        owner = f"{type(self).__name__}.teleport"
        self.x = self.prev_x = _check.number(owner, "x", x)
        self.y = self.prev_y = _check.number(owner, "y", y)
        self.vx = self.vy = 0.0
        self.on_ground = False
        self.ground = None
        self.squished = False
        self.drop_platform = None
        if self._hold is not None:
            self._hold.release(self)  # (put somewhere else: it lets go)
            self.vx = self.vy = 0.0
        world = self._world
        if world is not None:
            world._hash.move(self, self.x, self.y, self.w, self.h)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name or ''} x={self.x:.3f} y={self.y:.3f} w={self.w:g} h={self.h:g})"


class Character(Actor):
    """An actor driven by the feel controller (``controller.py``). Timers count in steps.

    ``feel``: this character's own FeelConfig (run, jump, fall, windows), or None for the world's. Its
    ``physics`` section is ignored: every body steps at the world's rate. ``control``: set it False to
    switch the controller off and drive the move yourself (a dash, a cutscene): it then moves like a
    plain Actor by its ``vx`` / ``vy`` (gravity and collisions as ever); True hands it back.
    """

    __slots__ = (
        "_feel",
        "_feel_cache",
        "air_steps",
        "buffer_left",
        "control",
        "coyote_left",
        "dash_cooldown",
        "dash_dir",
        "dash_left",
        "dashes_spent",
        "drop_left",
        "facing",
        "grip_used",
        "held",
        "jumping",
        "lock_dir",
        "lock_left",
        "since_dash",
        "since_press",
        "sliding",
        "wall_hit",
        "wall_side",
        "wall_steps",
    )

    def __init__(self, x: float, y: float, w: float = 10, h: float = 14, *, name: str = "player",
                 snap: bool = True, feel=None, gravity_scale: float = 1.0, data: Any = None, group: int = UNGROUPED,
                 touches: int = 0):
        super().__init__(x, y, w, h, name=name, snap=snap, gravity_scale=gravity_scale, data=data, group=group,
                         touches=touches)
        self._feel_cache = None  # (own feel, world physics, the two merged, its Derived)
        self.feel = feel
        self.facing = 1  # +1 right, -1 left
        self.held = NO_BUTTONS  # buttons held last step (to detect presses)
        # False: the controller rests and the game drives the move (vx, vy, as for a plain Actor: gravity
        # and the collision passes still apply); ``held`` still follows the buttons
        self.control = True
        self.reset_timers()

    @property
    def feel(self):
        """This character's own FeelConfig, or None (it uses the world's)."""
        return self._feel

    @feel.setter
    def feel(self, feel) -> None:
        from .feel import FeelConfig  # (feel.py is plain data; imported here to keep bodies.py first)

        if feel is not None and not isinstance(feel, FeelConfig):
            raise TypeError(f"{type(self).__name__}: feel must be a FeelConfig (or None for the world's), "
                            f"got {type(feel).__name__}; e.g. FeelConfig.from_dict({{'jump': {{'height': 32}}}})")
        self._feel = feel

    def _own_feel(self, physics):
        """(feel, derived) of this character's own feel at the world's step rate (``physics``), cached."""
        cache = self._feel_cache
        if cache is None or cache[0] is not self._feel or cache[1] is not physics:
            merged = replace(self._feel, physics=physics)
            cache = self._feel_cache = (self._feel, physics, merged, merged.derived)
        return cache[2], cache[3]

    def reset_timers(self) -> None:
        self.air_steps = 1 << 30  # steps since the last step that ended on the ground
        self.since_press = None  # steps since an unused jump press, or None
        self.drop_left = 0  # steps one-way platforms are still ignored
        self.jumping = False  # rising from a jump (releasing jump may still cut it)
        # The moves (wall slide, wall jump, dash; see controller.py), all in steps:
        self.wall_steps = 1 << 30  # 0 when the last step ended in the air within reach of a wall; counts up after
        self.wall_side = 0  # that wall's side: +1 right, -1 left (0: none yet)
        self.wall_hit = None  # that wall as a Contact (normal, kind, tile / other), or None
        self.grip_used = 0  # steps of wall grip used since the last landing (or wall jump, or dash)
        self.lock_left = 0  # steps horizontal input still reads as lock_dir (after a wall jump)
        self.lock_dir = 0  # +1 / -1: away from the wall jumped off
        self.dash_left = 0  # steps of the current dash left (0: not dashing)
        self.dash_dir = (0.0, 0.0)  # the dash's unit direction; an axis stopped by a hit becomes 0
        self.dash_cooldown = 0  # steps until the next dash may start
        self.dashes_spent = 0  # dashes used since the last landing (or refill_dash)
        self.since_dash = None  # steps since an unused dash press, or None
        # Read-only views for HUDs and traces, refreshed every step by the controller:
        self.coyote_left = 0  # steps in which a jump press still counts as from the ground
        self.buffer_left = 0  # steps a buffered press stays alive
        self.sliding = 0  # wall sliding this step: the wall's side (+1 right, -1 left), else 0

    @property
    def dashing(self) -> bool:
        """In the middle of a dash (no gravity, no steering)."""
        return self.dash_left > 0

    def refill_dash(self) -> bool:
        """Give back every dash spent (a refill crystal). Returns True when one had been spent (the
        crystal is used up), False when the character already had them all."""
        spent = self.dashes_spent > 0
        self.dashes_spent = 0
        return spent

    def reset(self) -> None:
        """Clear velocity and timers (for respawning); keeps position, and ``held`` (input memory: a jump
        still held from before is not a new press)."""
        self.vx = self.vy = 0.0
        self.drop_platform = None
        self.reset_timers()

    def teleport(self, x: float, y: float) -> None:
        super().teleport(x, y)
        self.reset()


def _scale(owner: str, scale, gravity) -> float:
    """``gravity_scale`` from the constructor's two spellings (``gravity`` is the old on/off flag)."""
    if gravity is not None:
        if scale is not None:
            raise ValueError(f"{owner}: give gravity_scale only (gravity=True/False is its on/off alias)")
        if isinstance(gravity, numbers.Real) and not isinstance(gravity, bool) \
                and not (isinstance(gravity, numbers.Integral) and gravity in (0, 1)):
            raise TypeError(f"{owner}: gravity must be True or False (on / off), got {gravity!r}; for a strength "
                            f"write gravity_scale={gravity!r} (1 normal, 0 none, negative pulls up)")
        return 1.0 if _check.flag(owner, "gravity", gravity) else 0.0
    if scale is None:
        return 1.0
    return _check.number(owner, "gravity_scale", scale, unit="times gravity (1 normal, 0 none, negative up)")


ALL_GROUPS = (1 << 64) - 1  # a mask with every group bit


class Trigger:
    """An axis-aligned sensor: reports enter / stay / exit, never pushes. A 0-size trigger is a point.

    Moving or resizing a trigger (setting x, y, w or h) is seen by every world it is in. ``senses``: bit
    mask of the actor groups it reports (default every group); actors in no trigger's groups (a crowd of
    enemies beside the player's coins and checkpoints) cost the trigger pass nothing.
    """

    __slots__ = ("_box", "_senses", "data", "name")
    moves = 0  # bumped whenever any trigger's box changes: worlds then rebuild their sensor index
    masks = 0  # bumped whenever any trigger's ``senses`` changes: worlds then gather the groups sensed again
    _FIELDS = ("x", "y", "w", "h")

    def __init__(self, x: float, y: float, w: float, h: float, name: str = "", data: Any = None, *,
                 senses: int = ALL_GROUPS):
        self._box = tuple(self._valid(i, v) for i, v in enumerate((x, y, w, h)))
        self.name = _check.text("Trigger", "name", name)
        self._senses = _check.mask("Trigger", "senses", senses)  # bits: the actor groups it reports
        self.data = data
        Trigger.moves += 1

    def _valid(self, i: int, value) -> float:
        name = self._FIELDS[i]
        if i < 2:
            return _check.number("Trigger", name, value)
        return _check.size("Trigger", name, value, zero=True)

    def _replace(self, i: int, value: float) -> None:
        box = list(self._box)
        box[i] = self._valid(i, value)
        self._box = tuple(box)
        Trigger.moves += 1

    x = property(lambda self: self._box[0], lambda self, v: self._replace(0, v))
    y = property(lambda self: self._box[1], lambda self, v: self._replace(1, v))
    w = property(lambda self: self._box[2], lambda self, v: self._replace(2, v))
    h = property(lambda self: self._box[3], lambda self, v: self._replace(3, v))

    @property
    def senses(self) -> int:
        """Bit mask of the actor groups this trigger reports."""
        return self._senses

    @senses.setter
    def senses(self, mask: int) -> None:
        self._senses = _check.mask("Trigger", "senses", mask)
        Trigger.masks += 1

    @property
    def rect(self) -> Rect:
        return Rect(self.x, self.y, self.w, self.h)

    def __repr__(self) -> str:
        return f"Trigger({self.name!r} x={self.x:g} y={self.y:g} w={self.w:g} h={self.h:g})"


class TriggerEvent(NamedTuple):
    kind: str  # "enter", "stay" or "exit"
    trigger: Trigger
    actor: Actor
