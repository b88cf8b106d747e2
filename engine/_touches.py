"""Touches: which actors each actor cares about met this step, and the side it came from.

An actor reports the actors whose ``group`` shares a bit with its ``touches`` mask (bump.lua's filter, as
data): first those its own move ran into (solid actors it landed on or walked into, the actor a bullet's
sweep stopped at), with the side taken from the contact; then those it overlaps after the step, with the
side taken from where both were before the step (``side``). Pairs are per direction: when both care about
each other, each reports the other.
"""

from __future__ import annotations

from .bodies import Touch

_EPS = 1e-6  # px: "at or above" slack for the previous positions
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


def find(actors, near) -> list:
    """Every actor's touches this step, by actor as added. ``near(x, y, w, h)``: the actors that may be
    in a box (a broadphase), in the order added."""
    found = []
    for a in actors:
        mask = a.touches
        if not mask:
            continue
        met = None
        for c in a.contacts:
            o = c.other
            if c.kind == "actor" and mask & o.group and (met is None or o not in met):
                found.append(Touch(a, o, _SIDE[c.normal]))
                met = [o] if met is None else met + [o]
        ax, ay, aw, ah = a.x, a.y, a.w, a.h
        for b in near(ax, ay, aw, ah):
            if mask & b.group and b is not a and ax < b.x + b.w and b.x < ax + aw and ay < b.y + b.h \
                    and b.y < ay + ah and (met is None or b not in met):
                found.append(Touch(a, b, side(a, b)))
    return found
