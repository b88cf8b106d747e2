"""Moving solids: platforms along their paths and solid actors (crates) by their own motion, each carrying
its riders, pushing the actors in its way and squishing those it crushes (the moving-platform rules).

A mover advances in pieces of at most ``PUSH_STEP`` px, one axis at a time, so it cannot jump over an actor
it should push. Everything it moves goes through the ordinary collision-aware passes (``_motion.py``), so a
rider carried into a wall stays at the wall; one left inside a solid mover is squished (pinned for the
step). A solid actor it moves carries its own riders in turn (a stack of crates on a lift), up to
``_DEPTH`` deep. One-way platforms carry and lift, never push or squish.
"""

from __future__ import annotations

import math

from . import _motion
from .bodies import Actor, ActorEvent, Ground
from .geometry import overlaps, place_before

PUSH_STEP = 4.0  # px: the largest piece a mover advances by
_DEPTH = 8  # solids carried by solids: at most this deep
FEW = 24  # actors: up to this many, a broadphase query costs more than testing them all
PLATFORM_CELL = 64.0  # px, the side of the cells ``Step.platforms_in`` files platforms in
_floor = math.floor


class Step:
    """What one world step collects as it goes, handed to the movers."""

    __slots__ = ("_rank", "actors", "boxes", "crates", "events", "grid", "platforms", "pushes", "solids", "space",
                 "squished", "stands")

    def __init__(self, grid, actors, platforms, solids, space):
        self.grid = grid
        self.actors = actors
        self.platforms = platforms
        self.solids = solids  # platforms, then solid actors: what blocks a move
        self.crates = solids is not platforms  # are there solid actors?
        # the solid actors, when few (then ``blockers`` tests each rather than asking the hash), or None
        self.boxes = solids[len(platforms):] if self.crates and len(solids) - len(platforms) <= FEW else None
        self.space = space  # the world's SpatialHash: every body moved here is marked pending in it
        self.squished: list = []  # actors, in the order they were squished
        self.events: list = []  # ActorEvent, in the order they happened
        self.pushes: set | None = None  # (actor, pusher) pairs already reported this step
        self.stands = ()  # a crowd's walkers taking part as actors (in ``actors`` too, not in the hash)
        self._rank = None  # (cell -> indices of the platforms meeting it, huge ones, cell range -> answer), made
        #                    at the first platforms_in

    def near(self, x: float, y: float, w: float, h: float) -> list:
        """The actors whose cells meet the box (a broadphase: test the exact overlap), as added. In a
        world of a few actors, all of them: testing them costs less than the query."""
        if len(self.actors) <= FEW:
            return self.actors
        space = self.space
        if space.mirrored is not None:  # (the actors in a hash of their own: the world has many triggers)
            if space.pending:
                space.flush()
            found = space.mirrored.query(x, y, w, h)
        else:
            found = [o for o in space.query(x, y, w, h) if isinstance(o, Actor)]
        if self.stands:  # (after the actors, as in ``actors``; loosely: callers test exactly)
            found += [s for s in self.stands if s.x <= x + w + 1.0 and x - 1.0 <= s.x + s.w
                      and s.y <= y + h + 1.0 and y - 1.0 <= s.y + s.h]
        return found

    def blockers(self, a, x: float, y: float, w: float, h: float, platforms=None):
        """What blocks a move of actor ``a`` within the box: every platform (or ``platforms``), and the
        solid actors near (less ``a`` itself). Without solid actors, just the platforms."""
        if platforms is None:
            platforms = self.platforms
        if not self.crates:
            return platforms
        space = self.space
        if space.mirrored is not None:
            if space.pending:
                space.flush()
            near = [o for o in space.mirrored.query(x, y, w, h) if o is not a and o.solid]
        else:
            near = [o for o in space.query(x, y, w, h) if o is not a and isinstance(o, Actor) and o.solid]
        return platforms + near if near else platforms

    def platforms_in(self, x: float, y: float, w: float, h: float) -> list:
        """The platforms whose cells meet the box, still in ``platforms`` order (so a tie between two goes
        the same way as over all of them): for a mover that cannot leave the box this step (a bullet, an
        actor's own move), the same answer at the cost of what is near it. Few platforms: all of them.
        The cells are the platforms' own (``PLATFORM_CELL`` px, made at the first call of a step, after
        the platforms moved), not the world's hash, which also lists every trigger and coin."""
        platforms = self.platforms
        if len(platforms) <= FEW:
            return platforms
        if self._rank is None:
            cells, big = {}, []
            for i, p in enumerate(platforms):
                c0, c1 = _floor(p.x / PLATFORM_CELL), _floor((p.x + p.w) / PLATFORM_CELL)
                r0, r1 = _floor(p.y / PLATFORM_CELL), _floor((p.y + p.h) / PLATFORM_CELL)
                if (c1 - c0 + 1) * (r1 - r0 + 1) > 64:  # a huge platform: tested by every query
                    big.append(i)
                    continue
                for r in range(r0, r1 + 1):
                    for c in range(c0, c1 + 1):
                        cells.setdefault((c, r), []).append(i)
            self._rank = (cells, big, {})
        cells, big, answers = self._rank
        c0, c1 = _floor(x / PLATFORM_CELL), _floor((x + w) / PLATFORM_CELL)
        r0, r1 = _floor(y / PLATFORM_CELL), _floor((y + h) / PLATFORM_CELL)
        key = (c0, r0, c1, r1)
        known = answers.get(key)  # (the platforms stay put for the rest of the step: one answer per range)
        if known is not None:
            return known
        if (c1 - c0 + 1) * (r1 - r0 + 1) > len(cells):  # a box wider than all the platforms' cells
            return platforms
        found = set(big)
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                got = cells.get((c, r))
                if got:
                    found.update(got)
        known = answers[key] = [platforms[i] for i in sorted(found)]
        return known

    def around(self, a, dt: float, reach: float = 0.0):
        """``blockers`` for an actor's own step: a box wide enough for anything one step can do (its
        velocity, a jump's take-off, a ground snap or step up, a corner nudge: 4 tiles and its size;
        ``reach``: px more, what a Character's moves may add in a step: a dash, a wall jump). Among more
        than ``FEW`` platforms, only those whose cells meet that box (``platforms_in``)."""
        if not self.crates and len(self.platforms) <= FEW:
            return self.platforms
        pad = (abs(a.vx) + abs(a.vy)) * dt + 4.0 * self.grid.tile_size + a.w + a.h + reach
        box = (a.x - pad, a.y - pad, a.w + 2.0 * pad, a.h + 2.0 * pad)
        boxes = self.boxes
        if boxes is None:
            return self.blockers(a, *box, self.platforms_in(*box))  # (many platforms: only those near)
        # a few solid actors: each tested against the box instead of asking the hash (which lists more,
        # by its cells: none of them within a step's reach), in the hash's order, as a query gives them
        x0, y0, x1, y1 = box[0], box[1], box[0] + box[2], box[1] + box[3]
        near = [o for o in boxes if o is not a and o.solid and o.x <= x1 and x0 <= o.x + o.w and o.y <= y1
                and y0 <= o.y + o.h]
        if len(near) > 1:
            near.sort(key=self.space._order.__getitem__)
        platforms = self.platforms_in(*box)
        return platforms + near if near else platforms


def squish(st: Step, a, other=None) -> None:
    """Crushed (or stuck inside solid geometry): pinned for the rest of the step, reported once."""
    if not a.squished:
        a.squished = True
        st.squished.append(a)
        st.events.append(ActorEvent("squished", a, (0, 0), None, other, a.vx, a.vy))
    a.vx = a.vy = 0.0
    a._clear = None


def move_platform(st: Step, p, dt: float) -> None:
    """Move a platform along the stretch of its path covered this step, corner to corner."""
    x0, y0 = p.x, p.y
    route = p._travel(dt)
    if not route:
        p.vx = p.vy = 0.0
        return
    nx, ny = route[-1]
    p.vx, p.vy = (nx - x0) / dt, (ny - y0) / dt
    if len(route) == 1 and len(st.actors) <= FEW and -PUSH_STEP <= nx - x0 <= PUSH_STEP \
            and -PUSH_STEP <= ny - y0 <= PUSH_STEP:  # one piece (the usual step): _alone and _glide, inline
        lo_x, hi_x = (x0 - 1.0, nx + p.w + 1.0) if x0 <= nx else (nx - 1.0, x0 + p.w + 1.0)
        lo_y, hi_y = (y0 - 1.0, ny + p.h + 1.0) if y0 <= ny else (ny - 1.0, y0 + p.h + 1.0)
        for a in st.actors:
            if a.x <= hi_x and lo_x <= a.x + a.w and a.y <= hi_y and lo_y <= a.y + a.h and not a.squished:
                break
        else:
            if nx != x0:
                p.x = nx
            if ny != y0:
                p.y = ny
            st.space.pending[p] = None
            return
        travel(st, p, route)
    elif _alone(st, p, route):
        _glide(st, p, route)
    else:
        travel(st, p, route)


def _alone(st: Step, p, route) -> bool:
    """Is no actor (or stand-in walker) within a pixel of the box swept along ``route`` from where ``p`` is?
    Then no piece of the move can carry, lift, push or squish anything (``shift`` meets only actors
    touching the box before or after a piece, all inside that sweep)."""
    x0, y0 = p.x, p.y
    if len(route) == 1:
        tx, ty = route[0]
        lo_x, hi_x = (x0, tx) if x0 <= tx else (tx, x0)
        lo_y, hi_y = (y0, ty) if y0 <= ty else (ty, y0)
    else:
        xs, ys = [x0], [y0]
        for tx, ty in route:
            xs.append(tx)
            ys.append(ty)
        lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
    lo_x -= 1.0
    lo_y -= 1.0
    hi_x += p.w + 1.0
    hi_y += p.h + 1.0
    actors = st.actors
    if len(actors) > FEW:
        actors = st.near(lo_x, lo_y, hi_x - lo_x, hi_y - lo_y)
    for a in actors:
        if a.x <= hi_x and lo_x <= a.x + a.w and a.y <= hi_y and lo_y <= a.y + a.h and a is not p \
                and not a.squished:
            return False
    return True


def _glide(st: Step, p, route) -> None:
    """``travel`` for a mover with nothing near (``_alone``): nobody sees its pieces, so it goes straight to
    the route's end (the value its last piece sets)."""
    nx, ny = route[-1]
    if nx != p.x:
        p.x = nx
    if ny != p.y:
        p.y = ny
    st.space.pending[p] = None


def travel(st: Step, p, route, depth: int = 0) -> None:
    """Move a mover through the points of ``route`` in turn, in pieces of at most ``PUSH_STEP`` px (X then
    Y each), carrying and pushing as it goes."""
    px, py = p.x, p.y
    for tx, ty in route:
        span = max(abs(tx - px), abs(ty - py))
        pieces = math.ceil(span / PUSH_STEP) if span > PUSH_STEP else 1
        for k in range(1, pieces + 1):
            sx = tx if k == pieces else px + (tx - px) * k / pieces
            sy = ty if k == pieces else py + (ty - py) * k / pieces
            if sx != p.x:
                shift(st, p, sx, p.y, depth)
            if sy != p.y:
                shift(st, p, p.x, sy, depth)
        px, py = tx, ty
    st.space.pending[p] = None  # (re-read by the hash at its next query)


def follow(st: Step, a, x0: float, y0: float) -> None:
    """A solid actor has moved itself from (x0, y0) to where it is: take it back and move it there again
    as a mover, carrying and pushing (rising: up, then across; otherwise across, then down)."""
    x1, y1 = a.x, a.y
    if (x1, y1) == (x0, y0):
        return
    a.x, a.y = x0, y0
    travel(st, a, [(x0, y1), (x1, y1)] if y1 < y0 else [(x1, y0), (x1, y1)])


def shift(st: Step, p, nx: float, ny: float, depth: int = 0) -> None:
    """Move a platform or solid actor along one axis. Riders (standing on its top now) are carried and
    actors in the way pushed, each by the ordinary collision-aware passes; one still inside a solid mover
    after that is squished. One-way platforms carry and lift, never push or squish."""
    dx, dy = nx - p.x, ny - p.y
    x, y, w, h = p.x, p.y, p.w, p.h
    top, left, right = y, x, x + w
    p.x, p.y = nx, ny
    one_way = p.one_way
    near = st.actors if len(st.actors) <= FEW else \
        st.near(min(x, nx), min(y, ny) - _motion.EPS, w + abs(dx), h + abs(dy) + 2 * _motion.EPS)
    for a in near:
        if a is p or a.squished:
            continue
        feet = a.y + a.h
        if a.vy >= 0.0 and -1e-6 <= feet - top <= 1e-6 and left < a.x + a.w and a.x < right \
                and a.drop_platform is not p and (not a.on_ground or a.ground is None or a.ground.platform is p):
            # a rider: carried the same way, stopped by whatever stops any move
            if dx:
                _push(st, a, True, a.x + dx, False, p, depth)
            else:
                _push(st, a, False, place_before(ny, a.h), False, p, depth)
            g = a.ground
            if g is not None and g.platform is p and not (nx < a.x + a.w and a.x < nx + w
                                                          and -1e-6 <= a.y + a.h - ny <= 1e-6):
                _reground(st, a)  # held back (a wall, a ceiling): the mover went on without it
            if one_way:
                continue
        elif one_way:
            if dy < 0.0 and top + _motion.EPS >= feet > ny and nx < a.x + a.w and a.x < nx + w \
                    and a.drop_platform is not p:
                # a rising one-way top reaching feet that were on or above it: lifts the actor
                if _push(st, a, False, place_before(ny, a.h), False, p, depth) is None:
                    a.vy = min(a.vy, 0.0)
                    a.on_ground, a.ground = True, Ground(p._kind, p, True)
            continue
        elif not overlaps(a.x, a.y, a.w, a.h, nx, ny, w, h):
            continue
        else:
            _pushed(st, a, p, dx, dy)
            if dx > 0.0:
                _push(st, a, True, nx + w, a.on_ground, p, depth)
            elif dx < 0.0:
                _push(st, a, True, place_before(nx, a.w), a.on_ground, p, depth)
            elif dy > 0.0:
                _push(st, a, False, ny + h, False, p, depth)  # one-way floors hold: squish
                a.vy = max(a.vy, 0.0)
            elif _push(st, a, False, place_before(ny, a.h), False, p, depth) is None:
                a.vy = min(a.vy, 0.0)
                a.on_ground, a.ground = True, Ground(p._kind, p, False)
        if overlaps(a.x, a.y, a.w, a.h, nx, ny, w, h):
            squish(st, a, p)


def _reground(st: Step, a) -> None:
    """What a rider left behind by its mover stands on now (the tiles and solids at its feet), or nothing."""
    feet = a.y + a.h
    pad = st.grid.tile_size + a.w
    solids = st.blockers(a, a.x - pad, a.y - pad, a.w + 2.0 * pad, a.h + 2.0 * pad)
    sup = _motion.find_support(st.grid, solids, a.drop_platform, a.x, a.w, feet, feet, False)
    if sup is None:
        a.on_ground, a.ground = False, None
    else:
        a.ground = sup[1]


def _pushed(st: Step, a, p, dx: float, dy: float) -> None:
    if st.pushes is None:
        st.pushes = set()
    if (a, p) not in st.pushes:
        st.pushes.add((a, p))
        normal = (1, 0) if dx > 0.0 else (-1, 0) if dx < 0.0 else (0, 1) if dy > 0.0 else (0, -1)
        st.events.append(ActorEvent("pushed", a, normal, None, p, a.vx, a.vy))


def _push(st: Step, a, across: bool, target: float, can_step: bool, by, depth: int):
    """Move actor ``a`` (carried or pushed by ``by``) toward ``target`` on one axis with the ordinary pass;
    a solid actor then carries its own riders and pushes what is in its way. Returns the pass's Contact."""
    x0, y0 = a.x, a.y
    reach = abs(target - (x0 if across else y0)) + st.grid.tile_size
    solids = st.blockers(a, x0 - reach, y0 - reach, a.w + 2.0 * reach, a.h + 2.0 * reach)
    if across:
        hit = _motion.move_x(st.grid, solids, a, target, can_step, by)
    else:
        hit = _motion.move_y(st.grid, solids, a, target, False, by)
    if a.x != x0 or a.y != y0:
        if a.solid and depth < _DEPTH:
            x1, y1 = a.x, a.y
            a.x, a.y = x0, y0
            travel(st, a, [(x1, y0), (x1, y1)], depth + 1)
        elif a._listed:
            st.space.pending[a] = None
    return hit
