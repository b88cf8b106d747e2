"""Snapshots: a cheap copy of a World's whole simulation state, put back in place (rewind, rollback, search).

``World.snapshot()`` / ``World.restore(snap)`` are thin wrappers over :func:`take` and :func:`put`.
A snapshot holds plain values only: for every body, the values of the slots listed below; for the world,
which bodies it holds and which (trigger, actor) pairs overlap. Restoring writes those values back into
the same objects, so references held elsewhere (the game's ``player``) stay valid, and stepping after a
restore is bit-identical to never having left.

Every class lists its state in ``STATE``, in one place: ``copied`` slots are saved and put back (values
that are immutable, or ``lists`` copied shallowly); ``kept`` slots are configuration or identity a step
never changes (a platform's path, a body's name and data) and are left as they are. A crowd keeps its
arrays and its walkers' rows (``Crowd._state``). A test
(tests/engine/test_snapshot.py) fails when a class gains a slot, or the World an attribute, that is in
neither list, so a new field cannot be forgotten. A subclass the table does not name (a game's own
``Actor`` subclass) has its own slots copied as they are (so they should hold immutable values).
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from .bodies import Actor, Character, Trigger
from .crowd import _Stand
from .platforms import Platform
from .ropes import Rope

__all__ = ["STATE", "WORLD_STATE", "Slots", "Snapshot", "take", "put"]


class Slots(NamedTuple):
    copied: tuple[str, ...] = ()  # saved and restored as they are (immutable values)
    lists: tuple[str, ...] = ()  # saved and restored as shallow copies (lists of immutable records)
    kept: tuple[str, ...] = ()  # configuration / identity / derived: never touched by a snapshot


STATE: dict[type, Slots] = {
    Actor: Slots(copied=("x", "y", "w", "h", "vx", "vy", "prev_x", "prev_y", "on_ground", "ground",
                         "squished", "_gravity_scale", "snap", "drop_platform", "_clear", "solid", "bullet",
                         "bounce", "group", "touches", "_hold", "pushable", "friction"),
                 lists=("contacts",),
                 kept=("name", "data", "_world", "_run")),  # (_run: a cache checked against the box and tiles)
    Character: Slots(copied=("facing", "held", "air_steps", "since_press", "drop_left", "jumping",
                             "coyote_left", "buffer_left", "_feel", "control", "wall_steps", "wall_side", "wall_hit",
                             "grip_used", "lock_left", "lock_dir", "dash_left", "dash_dir", "dash_cooldown",
                             "dashes_spent", "since_dash", "sliding"),
                     kept=("_feel_cache",)),
    _Stand: Slots(kept=("walker",)),  # a walker standing in for one step: never in a snapshot (its crowd is)
    Platform: Slots(copied=("x", "y", "w", "h", "prev_x", "prev_y", "vx", "vy", "one_way", "_target", "_dir",
                            "_wait_left", "_from", "_base", "_steps", "_leg_dt", "_at", "_seen"),
                    kept=("path", "name", "data")),
    Trigger: Slots(copied=("_box",), kept=("name", "data", "_senses")),
    # particles are copied as arrays (see _rope_state); the set a rope is in is membership
    Rope: Slots(copied=("_pos", "_prev", "_pin", "_follow", "_dt"), lists=("_kicks", "_holds"),
                kept=("_config", "_set", "name", "data")),
}

# The World's own attributes: membership and overlaps are state; the rest is configuration (kept by a
# restore: a snapshot never changes the feel) or an index rebuilt from the triggers.
WORLD_STATE = Slots(copied=("steps",), lists=("actors", "platforms", "triggers", "_inside", "_members", "ropes",
                                               "crowds"),
                    kept=("_rope_set", "_st", "grid", "feel", "_derived", "_hash", "_sensor_order", "_sensed",
                          "_trigger_moves", "_tiles_grid", "_tiles_seen", "_grid_tables", "_crates", "_rest", "_runs"))


class _Layout(NamedTuple):
    get: attrgetter  # obj -> tuple of values, in ``names`` order
    names: tuple[str, ...]
    lists: frozenset[str]
    has_dict: bool  # instances also carry a __dict__ (a subclass without __slots__): copied shallowly


_layouts: dict[type, _Layout] = {}


def _layout(cls: type) -> _Layout:
    """The slots a snapshot copies for ``cls``: the STATE entries of its classes, base first."""
    found = _layouts.get(cls)
    if found is not None:
        return found
    names: list[str] = []
    lists: list[str] = []
    for klass in reversed(cls.__mro__):
        entry = STATE.get(klass)
        if entry is None:  # a class the table does not know: its own slots, as they are
            own = klass.__dict__.get("__slots__", ())
            entry = Slots(copied=(own,) if isinstance(own, str) else tuple(own))
        names += [n for n in entry.copied + entry.lists if n not in names and not n.startswith("__")]
        lists += entry.lists
    names_t = tuple(names)
    get = attrgetter(*names_t) if len(names_t) > 1 else (lambda o, g=attrgetter(*names_t): (g(o),))
    found = _Layout(get, names_t, frozenset(lists), "__dict__" in dir(cls))
    _layouts[cls] = found
    return found


def _capture(obj):
    layout = _layout(type(obj))
    values = layout.get(obj)
    if layout.lists:
        values = tuple(tuple(v) if n in layout.lists else v for n, v in zip(layout.names, values, strict=True))
    if layout.has_dict:
        return values, dict(obj.__dict__)
    return values


def _apply(obj, state) -> None:
    layout = _layout(type(obj))
    if layout.has_dict:
        state, attrs = state
        obj.__dict__.clear()
        obj.__dict__.update(attrs)
    lists = layout.lists
    for name, value in zip(layout.names, state, strict=True):
        setattr(obj, name, list(value) if lists and name in lists else value)


class Snapshot:
    """A World's simulation state at one step (opaque; see :func:`take`). Valid for its own world only."""

    __slots__ = ("world", "steps", "actors", "platforms", "triggers", "inside", "bodies", "boxes", "extra",
                 "ropes", "order", "tiles", "crowds", "rope_memory")

    def __init__(self, world, steps, actors, platforms, triggers, inside, bodies, boxes, extra, ropes=(),
                 order=(), tiles=None, crowds=(), rope_memory=(False, False)):
        self.world = world
        self.steps = steps
        self.actors, self.platforms, self.triggers = actors, platforms, triggers
        self.inside = inside  # frozenset of (trigger, actor)
        self.bodies = bodies  # ((obj, values), ...) for actors and platforms
        self.boxes = boxes  # each trigger's box, in ``triggers`` order
        self.extra = extra  # ((obj, values), ...) for bodies held outside the world
        self.ropes = ropes  # ((rope, pos, prev, pin, follow, kicks, dt, holds, still, rests), ...) in rope order
        self.order = order  # (generation, bodies) of the world's spatial hash: its members in its order
        self.tiles = tiles  # (grid, its edited tiles): set_tile edits are state too
        self.crowds = crowds  # ((crowd, its state: Crowd._state()), ...) in the world's crowd order
        # had the tiles changed since the ropes' last step; may the next step be skipped (bools)
        self.rope_memory = rope_memory


def take(world, extra=()) -> Snapshot:
    """Capture ``world``'s state, plus that of ``extra`` bodies kept outside it (e.g. a dead player that
    will be added again)."""
    world._sync_tiles()  # tiles edited since the last step: their actors' checks are in the state taken
    actors, platforms, triggers = tuple(world.actors), tuple(world.platforms), tuple(world.triggers)
    bodies = tuple((o, _capture(o)) for o in actors + platforms)
    boxes = tuple(t._box for t in triggers)
    held = tuple((o, _capture(o)) for o in extra if not any(o is a for a in actors))
    ropes = tuple((r, r._pos.copy(), r._prev.copy(), r._pin, r._follow, tuple(r._kicks), r._dt, tuple(r._holds),
                   r._still, r._rests, r._frozen) for r in world.ropes)
    crowds = tuple((c, c._state()) for c in world.crowds)
    return Snapshot(world, world.steps, actors, platforms, triggers, frozenset(world._inside), bodies, boxes,
                    held, ropes, (world._hash.generation, world._hash.ordered()),
                    (world.grid, world.grid._edit_state()), crowds, world._rope_set._memory(world.grid))


def put(world, snap: Snapshot) -> None:
    """Write ``snap`` back into ``world`` (and into the extra bodies it holds)."""
    if snap.world is not world:
        raise ValueError("this snapshot was taken from another World; restore it into the world it came from")
    world.steps = snap.steps
    grid, tiles = snap.tiles
    tiles_back = False  # tiles edited since the snapshot put back as they were
    if grid is world.grid:  # (a grid swapped in since is configuration: left as it is)
        version = grid.version
        grid._restore_edits(tiles)
        world._tiles_grid, world._tiles_seen = grid, grid.version
        tiles_back = grid.version != version
    if snap.triggers != tuple(world.triggers):
        world.triggers[:] = snap.triggers
        world._sensor_order = None  # membership changed: renumber the triggers
    for a in world.actors:
        if a._world is world:
            a._world = None  # (set again below for the actors the snapshot holds)
    for a in snap.actors:
        a._world = world
    world.actors[:] = snap.actors
    world.platforms[:] = snap.platforms
    world._inside = set(snap.inside)
    world._members = set(snap.actors + snap.platforms + snap.triggers)
    for obj, values in snap.bodies:
        _apply(obj, values)
    for obj, values in snap.extra:
        _apply(obj, values)
    if tiles_back:
        for a in world.actors:
            a._run = None  # (a runway read from the tiles as they were before the restore: looked for again)
    moved = False
    for t, box in zip(snap.triggers, snap.boxes, strict=True):
        if t._box is not box:
            t._box = box
            moved = True
    if moved:
        Trigger.moves += 1  # every world holding these triggers re-indexes them
    _put_hash(world, snap)
    _put_ropes(world._rope_set, snap.ropes)
    changed, quiet = snap.rope_memory
    # (a grid swapped in since: the next step runs in full)
    world._rope_set._put_memory(world.grid, (changed, quiet and grid is world.grid))
    for crowd in world.crowds:
        if not any(crowd is c for c, _ in snap.crowds):
            crowd._world = None  # added after the snapshot
    world.crowds[:] = [c for c, _ in snap.crowds]
    for crowd, state in snap.crowds:
        crowd._world = world
        crowd._put_state(state)


def _put_hash(world, snap: Snapshot) -> None:
    """The spatial hash (derived state) brought up to date: the restored bodies are re-read at the next
    query (and the triggers at the next trigger pass: Trigger.moves), or, when its members or their order
    changed since the snapshot, it is rebuilt in the snapshot's order."""
    space = world._hash
    generation, order = snap.order
    if space.generation == generation:
        pending = space.pending
        for obj, _values in snap.bodies:
            pending[obj] = None
        for t in snap.triggers:
            pending[t] = None
        return
    space.clear()
    for obj in order:
        space.insert(obj, obj.x, obj.y, obj.w, obj.h)
    world._trigger_moves = Trigger.moves


def _put_ropes(rope_set, saved) -> None:
    """Rope membership, then each rope's particles written into its arrays in place (they are views into
    the set's arrays while it holds the rope)."""
    members = tuple(r[0] for r in saved)
    if tuple(rope_set.ropes) != members:
        for rope in rope_set.ropes:
            if not any(rope is m for m in members):  # added after the snapshot: out again, with its own arrays
                rope._pos, rope._prev = rope._pos.copy(), rope._prev.copy()
                rope._set = None
        rope_set.ropes[:] = members
        for rope in members:
            rope._set = rope_set
        rope_set._stale = True
    for rope, pos, prev, pin, follow, kicks, dt, holds, still, rests, frozen in saved:
        if rope._follow is not follow:
            rope_set._stale = True
        rope._holds = list(holds)
        rope._pos[:] = pos
        rope._prev[:] = prev
        rope._pin, rope._follow, rope._kicks, rope._dt = pin, follow, list(kicks), dt
        rope._still, rope._rests, rope._frozen = still, rests, frozen
    if saved:
        rope_set._pins_moved = True
