"""Swept motion for bullets: a box moved along the straight segment of its step, stopped by the first thing
the segment meets, however thin or fast.

An ordinary move is a Y pass then an X pass, so a diagonal move tests an L-shaped path and a small fast box
can cut the corner of something lying across its real path. A bullet instead finds the earliest time
``t`` (0..1 along this step's segment) at which its box first meets, in one pass over everything near the
segment:
- a solid tile (a box), a slope tile (the region under its surface: the box's corner is enough), the top of
  a one-way tile (crossed downward from at or above it), a wall edge of the map;
- a solid platform or solid actor (a box), the top of a one-way platform — all where they are now (bullets
  move after every other body);
- an actor it touches (``bullet.touches & other.group``), moving from its previous to its current position
  this step: their relative motion is swept, so a bullet crossing the path of a moving target meets it.
A wall or floor answers with the actor's ``bounce`` (0 slides along it for the rest of the step, 1
mirrors), up to ``_PASSES`` times a step; an actor touched stops the bullet there (the game decides what
the hit does). Tiles are gathered chunk by chunk along the segment (a tile at a time), so a long shot
costs what it passes, not the area of its bounding box.
"""

from __future__ import annotations

import math

from . import _motion
from .bodies import Contact, Ground
from .geometry import place_before
from .tiles import ONE_WAY, SLOPE, SOLID

__all__ = ["fly", "targets"]

INF = math.inf
_PASSES = 4  # hits answered per step (slide or bounce); after that the bullet stops where it is
_X, _Y, _SURFACE = 0, 1, 2  # the axis along which a hit happened (the surface: a slope's own normal)
_GRAZE = 1e-9  # px: a box this close to a slope's surface line grazes it (float rounding, not a hit)
_TOUCHING = 1e-5  # px: a target this close is touching already (a bullet stops a hair before what it hits)


def _span(lo: float, size: float, d: float, olo: float, osize: float):
    """The open interval of times at which [lo, lo + size] moving by ``d`` strictly overlaps
    [olo, olo + osize] on one axis: (enter, leave), or None if never."""
    if d > 0.0:
        return (olo - (lo + size)) / d, (olo + osize - lo) / d
    if d < 0.0:
        return (olo + osize - lo) / d, (olo - (lo + size)) / d
    if lo < olo + osize and olo < lo + size:
        return -INF, INF
    return None


def _box_time(x, y, w, h, dx, dy, ox, oy, ow, oh):
    """When the box moving by (dx, dy) first meets the box (ox, oy, ow, oh): ``(t, axis)`` with t in
    [0, 1], or None (also None when they already overlap at t = 0: nothing to stop at)."""
    sx = _span(x, w, dx, ox, ow)
    if sx is None:
        return None
    sy = _span(y, h, dy, oy, oh)
    if sy is None:
        return None
    t0 = sx[0] if sx[0] > sy[0] else sy[0]
    t1 = sx[1] if sx[1] < sy[1] else sy[1]
    if t0 >= t1 or t0 > 1.0 or t0 < 0.0:
        return None
    return t0, (_X if sx[0] > sy[0] else _Y)


def _slope_time(grid, i: int, c: int, r: int, x, y, w, h, dx, dy):
    """When the box first meets the solid part of slope tile ``i`` (the region under its surface), by
    separating axes: x, y and the surface's normal. ``(t, axis)`` or None."""
    ts = grid.tile_size
    left, bottom = c * ts, (r + 1) * ts
    hl, hr = grid._sl[i], grid._sr[i]
    top = bottom - (hl if hl > hr else hr)
    sx = _span(x, w, dx, left, ts)
    sy = _span(y, h, dy, top, bottom - top)
    if sx is None or sy is None:
        return None
    # Projections onto the surface's (unnormalised) normal n = (-s, -1): the tile spans from its lowest
    # bottom corner up to the surface line; the box from its corner nearest the surface.
    s = (hr - hl) / ts
    surface = -s * left - (bottom - hl)
    lowest = surface - (hl if hl > hr else hr)
    a, b = -s * x, -s * (x + w)
    near, far = (a if a > b else b) - y, (a if a < b else b) - (y + h)  # highest, lowest projection
    dn = -s * dx - dy
    if abs(dn) <= 1e-12 * (abs(dx) + abs(dy)):
        dn = 0.0  # moving along the surface: rounding must not turn a graze into a hit
    sn = _span(far, near - far, dn, lowest, surface - _GRAZE - lowest)
    if sn is None:
        return None
    enter = max(sx[0], sy[0], sn[0])
    leave = min(sx[1], sy[1], sn[1])
    if enter >= leave or enter > 1.0 or enter < 0.0:
        return None
    if sn[0] >= sx[0] and sn[0] >= sy[0]:
        return enter, _SURFACE
    return enter, (_X if sx[0] > sy[0] else _Y)


def _first_hit(grid, solids, targets, x, y, w, h, dx, dy):
    """The earliest thing the box meets moving by (dx, dy) this pass: ``(t, axis, kind, other, tile)``
    (``other``: a body, or a target ``(actor, tdx, tdy)`` moving by (tdx, tdy)), or None."""
    best = None
    bt = INF
    # -- wall edges of the map ----------------------------------------------------------------------------
    if dx < 0.0 and x + dx < grid._x_lo:
        bt, best = max(0.0, (grid._x_lo - x) / dx), (_X, "solid", None, None, grid._x_lo)
    elif dx > 0.0 and x + w + dx > grid._x_hi:
        bt, best = max(0.0, (grid._x_hi - x - w) / dx), (_X, "solid", None, None, grid._x_hi)
    if dy < 0.0 and y + dy < grid._y_lo:
        t = max(0.0, (grid._y_lo - y) / dy)
        if t <= bt:
            bt, best = t, (_Y, "solid", None, None, grid._y_lo)
    elif dy > 0.0 and y + h + dy > grid._y_hi:
        t = max(0.0, (grid._y_hi - y - h) / dy)
        if t <= bt:
            bt, best = t, (_Y, "solid", None, None, grid._y_hi)
    # -- tiles, chunk by chunk along the segment -----------------------------------------------------------
    ts, cols, rows, k = grid.tile_size, grid.cols, grid.rows, grid._k
    chunks = max(1, math.ceil(max(abs(dx), abs(dy)) / ts))
    seen = set()
    for n in range(chunks):
        t_lo, t_hi = n / chunks, (n + 1) / chunks
        if t_lo > bt:
            break
        xa, xb = x + dx * t_lo, x + dx * t_hi
        ya, yb = y + dy * t_lo, y + dy * t_hi
        c0 = max(0, math.floor(min(xa, xb) / ts))
        c1 = min(cols - 1, math.ceil((max(xa, xb) + w) / ts) - 1)
        r0 = max(0, math.floor(min(ya, yb) / ts))
        r1 = min(rows - 1, math.ceil((max(ya, yb) + h) / ts) - 1)
        for r in range(r0, r1 + 1):
            base = r * cols
            for c in range(c0, c1 + 1):
                i = base + c
                kind = k[i]
                if not kind or i in seen:
                    continue
                seen.add(i)
                if kind == SOLID:
                    hit = _box_time(x, y, w, h, dx, dy, c * ts, r * ts, ts, ts)
                    name, top = "solid", r * ts
                elif kind == SLOPE:
                    if grid._sl[i] <= _GRAZE and grid._sr[i] <= _GRAZE:
                        continue  # (a flat slope at its bottom: nothing under its surface, as for raycast)
                    hit = _slope_time(grid, i, c, r, x, y, w, h, dx, dy)
                    name, top = "slope", (r + 1) * ts - max(grid._sl[i], grid._sr[i])
                elif kind == ONE_WAY:
                    hit = _top_time(x, y, w, h, dx, dy, c * ts, r * ts, ts)
                    name, top = "one_way", r * ts
                else:
                    continue
                if hit is not None and hit[0] < bt:
                    bt, best = hit[0], (hit[1], name, None, (c, r),
                                        _face(hit[1], dx, dy, c * ts, top, ts, (r + 1) * ts - top))
    # -- platforms and solid actors, where they are now ------------------------------------------------------
    for p in solids:
        if p.one_way:
            hit = _top_time(x, y, w, h, dx, dy, p.x, p.y, p.w)
        else:
            hit = _box_time(x, y, w, h, dx, dy, p.x, p.y, p.w, p.h)
        if hit is not None and hit[0] < bt:
            bt, best = hit[0], (hit[1], p._kind, p, None, _face(hit[1], dx, dy, p.x, p.y, p.w, p.h))
    # -- actors it touches: their relative motion over the step ------------------------------------------------
    for b, bdx, bdy, bx, by in targets:
        hit = _box_time(x, y, w, h, dx - bdx, dy - bdy, bx, by, b.w, b.h)
        if hit is not None and hit[0] < bt:
            bt, best = hit[0], (hit[1], None, b, None, None)  # (kind None: a target, not a solid actor)
    return None if best is None else (bt,) + best


def _face(axis: int, dx: float, dy: float, ox: float, oy: float, ow: float, oh: float):
    """The coordinate of the face of box (ox, oy, ow, oh) met moving by (dx, dy) along ``axis``, or None
    (a slope's surface)."""
    if axis == _X:
        return ox if dx > 0.0 else ox + ow
    if axis == _Y:
        return oy if dy > 0.0 else oy + oh
    return None


def _top_time(x, y, w, h, dx, dy, ox, top, ow):
    """When the box's bottom, moving down from at or above ``top``, crosses it within [ox, ox + ow]:
    ``(t, _Y)`` or None (a one-way top)."""
    feet = y + h
    if dy <= 0.0 or feet > top + _motion.EPS or feet + dy < top:
        return None
    t = max(0.0, (top - feet) / dy)
    if t > 1.0:
        return None
    xt = x + dx * t
    return (t, _Y) if xt < ox + ow and ox < xt + w else None


def targets(near, b, dx: float, dy: float, reach: float, fast=(), rank=None) -> list:
    """The non-solid actors bullet ``b`` may touch this step: in its ``touches`` groups, near its path and
    not already touching it, as ``(actor, dx, dy, x0, y0)`` (their motion this step). ``near(x, y, w, h)``:
    the actors that may be in a box, found where they are now; ``reach``: px, how far a target may have
    moved this step and still be found that way; ``fast``: the bodies that moved further, tested wherever
    they are (``rank``: the sort key putting them in step order among the others)."""
    x, y, w, h, mask = b.x, b.y, b.w, b.h, b.touches
    found = []
    bodies = near(min(x, x + dx) - reach, min(y, y + dy) - reach, w + abs(dx) + 2.0 * reach,
                  h + abs(dy) + 2.0 * reach)
    if fast:
        have = set(map(id, bodies))
        extra = [o for o in fast if id(o) not in have]
        if extra:
            bodies = sorted(bodies + extra, key=rank)
    for o in bodies:
        if not mask & o.group or o is b or o.solid:
            continue
        ox, oy, e = o.prev_x, o.prev_y, _TOUCHING
        if x <= ox + o.w + e and ox <= x + w + e and y <= oy + o.h + e and oy <= y + h + e:
            continue  # touching already: the game had its hit (left there, the bullet flies on through)
        found.append((o, o.x - ox, o.y - oy, ox, oy))
    return found


def fly(grid, solids, targets, a, dx: float, dy: float, rest: float):
    """Move bullet ``a`` by (dx, dy) this step, swept (see the module docstring).

    ``targets``: the actors it may touch, as ``(actor, dx, dy, x0, y0)``: their motion this step and where
    it started (none already touching the bullet). ``rest``: px/s, a rebound slower than this off a floor
    (off a ceiling when ``rest`` < 0: gravity pulling up) slides instead. Records ``a.contacts``,
    ``on_ground`` and ``ground``; returns ``(actor, normal)`` for the actor touched (the bullet stops
    there), or None.
    """
    a.contacts = []
    contacts = a.contacts
    w, h = a.w, a.h
    grounded = None  # the floor Contact it came to slide along, or None
    elapsed = 0.0  # fraction of the step gone by
    for _ in range(_PASSES):
        if not dx and not dy and not targets:
            break  # (a bullet at rest still meets the targets moving onto it)
        x, y = a.x, a.y
        left = 1.0 - elapsed
        now = [(b, bdx * left, bdy * left, bx + bdx * elapsed, by + bdy * elapsed) for b, bdx, bdy, bx, by in targets]
        hit = _first_hit(grid, solids, now, x, y, w, h, dx, dy)
        if hit is None:
            a.x, a.y = x + dx, y + dy
            break
        t, axis, kind, other, tile, face = hit
        length = math.hypot(dx, dy)
        back = max(0.0, t - _motion.EPS / length) if length else t  # a hair early: never one ulp inside
        nx, ny = x + dx * back, y + dy * back
        if kind is None:  # an actor it touches: it stops there
            _b, bdx, bdy, _bx, _by = next(m for m in now if m[0] is other)
            normal = _normal(axis, dx - bdx, dy - bdy)
            a.x, a.y = nx, ny
            contacts.append(Contact(normal, "actor", other, None, a.vx, a.vy))
            a.on_ground, a.ground = False, None
            return other, normal
        normal = _normal(axis, dx, dy)
        # Moving straight at a face: put it exactly against it (touching, not overlapping). Moving at an
        # angle, the hair-early point on the segment: snapping one axis forward would leave the line the
        # segment was found free along (a box grazing a slope or a corner would dip into it).
        if axis == _X and not dy:
            nx = place_before(face, w) if dx > 0.0 else face
        elif axis == _Y and not dx:
            ny = place_before(face, h) if dy > 0.0 else face
        if not _motion.box_free(grid, solids, nx, ny, w, h) and _motion.box_free(grid, solids, x, y, w, h):
            nx, ny = x, y  # (rounding put it inside: barely moving into a face) the hit is where it was
        a.x, a.y = nx, ny
        contact = Contact(normal, kind, other, tile, a.vx, a.vy)
        contacts.append(contact)
        n = _surface_normal(grid, tile) if axis == _SURFACE else normal
        slide = _answer(a, n, rest)
        if normal[1] < 0:
            grounded = contact if slide else None
        dx, dy = _along(dx * (1.0 - t), dy * (1.0 - t), n, a.bounce, slide)
        elapsed += t * left
    a.on_ground = grounded is not None
    a.ground = None if grounded is None else Ground(grounded.kind, grounded.other, grounded.kind == "one_way"
                                                    or bool(grounded.other is not None and grounded.other.one_way))
    return None


def _normal(axis: int, dx: float, dy: float) -> tuple[int, int]:
    """The contact normal (pointing back at the mover) for a hit along ``axis`` moving by (dx, dy); a
    slope's surface is a floor, like for any actor."""
    if axis == _X:
        return (-1, 0) if dx > 0.0 else (1, 0)
    if axis == _Y:
        return (0, -1) if dy > 0.0 else (0, 1)
    return (0, -1)


def _surface_normal(grid, tile) -> tuple[float, float]:
    """The unit normal of a slope tile's surface, pointing out of it (upward)."""
    col, row = tile
    i = row * grid.cols + col
    s = (grid._sr[i] - grid._sl[i]) / grid.tile_size
    norm = math.hypot(s, 1.0)
    return -s / norm, -1.0 / norm


def _answer(a, n, rest: float) -> bool:
    """Answer a hit on a surface of unit normal ``n``: bounce back ``a.bounce`` of the speed into it, or
    slide along it (no bounce, or a rebound off a floor slower than ``rest`` px/s). Returns True for a
    slide."""
    e = a.bounce
    if not 0.0 <= e <= 1.0:
        raise ValueError(f"{a!r}: bounce must be between 0 and 1, got {e!r}")
    into = a.vx * n[0] + a.vy * n[1]
    if into >= 0.0:
        return True  # (moving along or away already)
    slide = e == 0.0 or (n[1] * rest < 0.0 and -e * into < abs(rest))  # (rest < 0: gravity pulls up)
    k = 1.0 if slide else 1.0 + e
    a.vx -= k * into * n[0]
    a.vy -= k * into * n[1]
    return slide


def _along(dx: float, dy: float, n, e: float, slide: bool) -> tuple[float, float]:
    """The rest of the step's displacement after the hit, answered the way the velocity was."""
    into = dx * n[0] + dy * n[1]
    if into >= 0.0:
        return dx, dy
    k = 1.0 if slide else 1.0 + e
    return dx - k * into * n[0], dy - k * into * n[1]
