"""Touches: which actors each actor cares about met this step, and the side it came from.

An actor reports the actors whose ``group`` shares a bit with its ``touches`` mask (bump.lua's filter, as
data): first those its own move ran into (solid actors it landed on or walked into, the actor a bullet's
sweep stopped at), with the side taken from the contact; then those it overlaps after the step, with the
side taken from where both were before the step (``side``). Pairs are per direction: when both care about
each other, each reports the other. A crowd's walkers take part like actors added after every actor: an
actor reports the walkers it overlaps after the actors, and walkers that touch a group report the actors
(never other walkers) after every actor has reported (``Crowd._touch``).
"""

from __future__ import annotations

from .bodies import Actor, Touch

_EPS = 1e-6  # px: "at or above" slack for the previous positions
POOL = True  # a toucher (or bullet) whose groups hold few actors tests those directly; False: always the hash
_SIDE = {(0, -1): "top", (0, 1): "bottom", (-1, 0): "left", (1, 0): "right"}  # contact normal -> side of other


def side(a, b) -> str:
    """The side of ``b`` that ``a`` came from, judged from their previous positions: "top" when a's
    previous feet were at or above b's previous top (a stomp), else "bottom", "left", "right", or
    "inside" when they overlapped already."""
    ax, ay, bx, by = a.prev_x, a.prev_y, b.prev_x, b.prev_y
    if ay + a.h <= by + _EPS:
        return "top"
    if ay >= by + b.h - _EPS:
        return "bottom"
    if ax + a.w <= bx + _EPS:
        return "left"
    if ax >= bx + b.w - _EPS:
        return "right"
    return "inside"


def find(touchers, actors, space, few: int, crowds=()) -> list:
    """Every toucher's touches this step, by actor as added, then the crowds' walkers'. ``actors``: the
    world's, as added; ``space``: its SpatialHash (the broadphase; a toucher whose groups hold at most
    ``few`` actors just tests those, wherever they are: a bullet among many enemies tests the player);
    ``crowds``: the world's."""
    found = []
    if len(actors) > few:
        if space.pending:
            space.flush()
        near = space.near
    pools = {}  # touches mask -> the actors in those groups, as added, when at most ``few`` (else None)
    order = None  # actor -> its place in ``actors``, built the first time a toucher meets two or more
    for a in touchers:
        mask = a.touches
        pool = pools.get(mask, False)
        if pool is False:  # (a bullet among many enemies touches only the player: test it alone)
            pool = [b for b in actors if mask & b.group]
            pool = pools[mask] = pool if len(pool) <= few and (POOL or len(actors) <= few) else None
        small = pool is not None
        met = None
        for c in a.contacts:
            o = c.other
            if c.kind == "actor" and mask & o.group and (met is None or o not in met):
                found.append(Touch(a, o, _SIDE[c.normal]))
                met = [o] if met is None else met + [o]
        ax, ay, aw, ah = a.x, a.y, a.w, a.h
        hits = None
        for b in pool if small else near(ax, ay, aw, ah):  # (near: any order, maybe twice, any body)
            if b is not a and isinstance(b, Actor) and mask & b.group and ax < b.x + b.w and b.x < ax + aw \
                    and ay < b.y + b.h and b.y < ay + ah and (met is None or b not in met):
                if hits is None:
                    hits = [b]
                elif b not in hits:
                    hits.append(b)
        if hits is not None:
            if len(hits) > 1 and not small:
                if order is None:
                    order = {o: i for i, o in enumerate(actors)}
                hits.sort(key=order.__getitem__)
            found += [Touch(a, b, side(a, b)) for b in hits]
        for crowd in crowds:
            found += [Touch(a, w, side(a, w)) for w in crowd._in_box(ax, ay, aw, ah, mask)
                      if met is None or w not in met]
    for crowd in crowds:
        found += crowd._touch(actors, space, few)
    return found
