"""SpatialHash: a uniform grid of square cells over boxes, the broadphase for actors, platforms and triggers.

Each object is listed in every cell its box meets; a box whose edge lies exactly on a cell boundary counts
in the cells on both sides (so boxes that only touch always share a cell: touch tests need that). Moving an
object whose cells do not change costs a few arithmetic operations; a query costs the cells it covers plus
what is listed there, never the number of objects stored. Results come back in insertion order, so
nothing depends on ``id()`` or set order.

An owner that moves many objects every step (the World moves every actor) may instead put them in
``pending`` (``hash.pending[obj] = None``): their boxes are read again (``obj.x, obj.y, obj.w, obj.h``) at
the next query, so a world nobody queries does not pay for keeping its hash current.

An object spanning more than ``_BIG`` cells is kept aside in a short list every query tests (a level-sized
trigger costs one range test per query instead of thousands of cell entries), and a query covering more
cells than are occupied scans the occupied ranges instead of the empty cells.
"""

from __future__ import annotations

import math
from bisect import insort

from . import _check

__all__ = ["SpatialHash"]

_BIG = 64  # cells: an object spanning more is kept in the always-tested list
_floor, _ceil = math.floor, math.ceil


def _span(rng) -> int:
    """How many cells an inclusive range covers."""
    return (rng[2] - rng[0] + 1) * (rng[3] - rng[1] + 1)


class SpatialHash:
    """Objects in a uniform grid of ``cell`` px squares, looked up by box."""

    __slots__ = ("_big", "_bounds", "_cells", "_keep", "_next", "_order", "_ordered", "_where", "cell", "generation",
                 "mirrored", "pending")

    def __init__(self, cell: float = 64.0):
        self.cell = _check.size("SpatialHash", "cell", cell)  # px, side of a square cell
        # With a power-of-two cell, x / cell is exact: "still in the same cells" is then exactly eight
        # comparisons against the edges of its cells (obj -> (x lo, x hi, x+w lo, x+w hi, same for y)),
        # cheaper than working the cells out again. Other sizes always work them out.
        self._bounds: dict | None = {} if math.frexp(self.cell)[0] == 0.5 else None
        self._cells: dict[tuple[int, int], list] = {}  # (col, row) -> objects, in insertion order
        self._where: dict = {}  # obj -> (c0, r0, c1, r1): its cell range, inclusive (insertion order)
        self._order: dict = {}  # obj -> insertion number (the order results come back in)
        self._big: list = []  # objects spanning more than _BIG cells, in insertion order
        self._next = 0
        self.pending: dict = {}  # objects whose box changed (an ordered set): re-read at the next query
        self.generation = 0  # bumped by every insert, remove and clear: same number, same objects in order
        self._ordered = (0, ())  # (generation, the objects in order then), for ordered()
        self.mirrored: SpatialHash | None = None  # the objects ``_keep`` accepts, in a hash of their own (mirror())
        self._keep = None

    def mirror(self, keep) -> SpatialHash:
        """A second hash of the objects ``keep(obj)`` accepts, kept current with this one (every insert,
        move, remove, clear and flush is passed on, so it holds them in the same cells and order): a query
        there never walks the others -- the world's actors apart from thousands of coins. Made once (from
        what is stored now); later calls return it. Flush this hash before querying that one."""
        if self.mirrored is None:
            if self.pending:
                self.flush()
            m = SpatialHash(self.cell)
            for obj, rng in self._where.items():  # (insertion order)
                if keep(obj):
                    m._insert_range(obj, rng)
            self.mirrored, self._keep = m, keep
        return self.mirrored

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, obj) -> bool:
        return obj in self._where

    def _range(self, x: float, y: float, w: float, h: float) -> tuple[int, int, int, int]:
        """Inclusive cell range of a box; an edge on a boundary reaches into the cell beyond it."""
        cell = self.cell
        return _ceil(x / cell) - 1, _ceil(y / cell) - 1, _floor((x + w) / cell), _floor((y + h) / cell)

    def _checked_range(self, what: str, x, y, w, h) -> tuple[int, int, int, int]:
        for name, v in (("x", x), ("y", y), ("w", w), ("h", h)):
            if not math.isfinite(v) or (name in "wh" and v < 0.0):
                raise ValueError(f"SpatialHash.{what}: {name} must be a finite number of px"
                                 f"{' >= 0' if name in 'wh' else ''}, got {v!r}")
        return self._range(x, y, w, h)

    def insert(self, obj, x: float, y: float, w: float, h: float) -> None:
        """Add ``obj`` with the box (x, y, w, h) px; it comes after everything inserted before it."""
        if obj in self._where:
            raise ValueError(f"SpatialHash.insert: {obj!r} is already in the hash; use move()")
        rng = self._checked_range("insert", x, y, w, h)
        self._insert_range(obj, rng)
        if self.mirrored is not None and self._keep(obj):
            self.mirrored._insert_range(obj, rng)

    def _insert_range(self, obj, rng) -> None:
        self._order[obj] = self._next
        self._next += 1
        self.generation += 1
        self._where[obj] = rng
        if self._bounds is not None:
            self._bounds[obj] = self._edges(rng)
        self._add(obj, rng)

    def move(self, obj, x: float, y: float, w: float, h: float) -> None:
        """Give ``obj`` a new box; cheap when its cells are unchanged (keeps its place in the order)."""
        bounds = self._bounds
        if bounds is not None:
            b = bounds.get(obj)
            if b is not None:
                x0, x1, e0, e1, y0, y1, f0, f1 = b
                if x0 < x <= x1 and e0 <= x + w < e1 and y0 < y <= y1 and f0 <= y + h < f1:
                    return
        cell = self.cell
        try:
            rng = (_ceil(x / cell) - 1, _ceil(y / cell) - 1, _floor((x + w) / cell), _floor((y + h) / cell))
        except (ValueError, OverflowError):  # NaN or inf (a box set by hand)
            raise ValueError(f"SpatialHash.move: {obj!r} has the box {(x, y, w, h)!r}; positions and sizes must "
                             f"be finite px") from None
        old = self._where.get(obj)
        if old == rng:
            return
        if old is None:
            raise ValueError(f"SpatialHash.move: {obj!r} is not in the hash; insert() it first")
        if self.mirrored is not None and obj in self.mirrored._where:
            self.mirrored.move(obj, x, y, w, h)
        self._where[obj] = rng
        if bounds is not None:
            bounds[obj] = self._edges(rng)
        if _span(old) > _BIG or _span(rng) > _BIG:
            self._drop(obj, old)
            self._add(obj, rng)
            return
        # only the cells it leaves and the cells it enters change (a step usually crosses one edge)
        c0, r0, c1, r1 = rng
        cells = self._cells
        for r in range(old[1], old[3] + 1):
            inside = r0 <= r <= r1
            for c in range(old[0], old[2] + 1):
                if not (inside and c0 <= c <= c1):
                    bucket = cells[(c, r)]
                    if len(bucket) == 1:
                        del cells[(c, r)]
                    else:
                        bucket.remove(obj)
        a0, b0, a1, b1 = old
        for r in range(r0, r1 + 1):
            inside = b0 <= r <= b1
            for c in range(c0, c1 + 1):
                if not (inside and a0 <= c <= a1):
                    self._enter(obj, (c, r))

    def remove(self, obj) -> None:
        """Take ``obj`` out."""
        rng = self._where.pop(obj, None)
        if rng is None:
            raise ValueError(f"SpatialHash.remove: {obj!r} is not in the hash")
        self.pending.pop(obj, None)
        self._drop(obj, rng)
        del self._order[obj]
        self.generation += 1
        if self._bounds is not None:
            del self._bounds[obj]
        if self.mirrored is not None and obj in self.mirrored._where:
            self.mirrored.remove(obj)

    def clear(self) -> None:
        self.generation += 1
        self.pending.clear()
        if self._bounds is not None:
            self._bounds.clear()
        self._cells.clear()
        self._where.clear()
        self._order.clear()
        self._big.clear()
        self._next = 0
        if self.mirrored is not None:
            self.mirrored.clear()

    def query(self, x: float, y: float, w: float, h: float) -> list:
        """The objects whose cells meet the box (a broadphase: test the exact overlap yourself), each
        once, in insertion order."""
        if self.pending:
            self.flush()
        try:
            c0, r0, c1, r1 = self._range(x, y, w, h)
        except (ValueError, OverflowError):
            raise ValueError(f"SpatialHash.query: the box {(x, y, w, h)!r} must be finite px") from None
        cells = self._cells
        span = (c1 - c0 + 1) * (r1 - r0 + 1)
        if span > len(cells):  # a huge box: scan the occupied ranges instead of the empty cells
            return [o for o, (a0, b0, a1, b1) in self._where.items()
                    if a0 <= c1 and c0 <= a1 and b0 <= r1 and r0 <= b1]
        if span == 1:
            found = cells.get((c0, r0))
            found = list(found) if found else []
            mixed = False
        else:
            buckets = [b for b in (cells.get((c, r)) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)) if b]
            if len(buckets) > 1:
                found = list(dict.fromkeys(o for b in buckets for o in b))
                mixed = True
            else:
                found = list(buckets[0]) if buckets else []
                mixed = False
        if self._big:
            where = self._where
            for o in self._big:
                a0, b0, a1, b1 = where[o]
                if a0 <= c1 and c0 <= a1 and b0 <= r1 and r0 <= b1:
                    found.append(o)
                    mixed = True
        if mixed and len(found) > 1:
            found.sort(key=self._order.__getitem__)
        return found

    def near(self, x: float, y: float, w: float, h: float):
        """Like :meth:`query`, for callers that collect into a set and want only objects never put in
        ``pending`` (the world's triggers): an iterable that may name an object more than once, in no
        particular order, and must not be kept (it may be a cell's own list). Objects in ``pending`` may
        be listed where they were."""
        cell = self.cell
        c0, r0 = _ceil(x / cell) - 1, _ceil(y / cell) - 1
        c1, r1 = _floor((x + w) / cell), _floor((y + h) / cell)
        cells = self._cells
        if (c1 - c0 + 1) * (r1 - r0 + 1) > len(cells):  # a huge box: the occupied ranges instead
            return [o for o, (a0, b0, a1, b1) in self._where.items()
                    if a0 <= c1 and c0 <= a1 and b0 <= r1 and r0 <= b1]
        if c0 == c1 and r0 == r1:
            found = cells.get((c0, r0), ())
        else:
            found = [o for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) for o in cells.get((c, r), ())]
        if self._big:
            where = self._where
            found = list(found) + [o for o in self._big if where[o][0] <= c1 and c0 <= where[o][2]
                                   and where[o][1] <= r1 and r0 <= where[o][3]]
        return found

    def flush(self) -> None:
        """Re-read the box of every object in ``pending`` (queries do this first)."""
        move, pending = self.move, self.pending
        for obj in pending:  # (move never touches pending; removing an object takes it out of pending)
            move(obj, obj.x, obj.y, obj.w, obj.h)
        pending.clear()

    def objects(self) -> list:
        """Everything stored, in insertion order."""
        return list(self._where)

    def ordered(self) -> tuple:
        """Everything stored, in insertion order, as a tuple (the same tuple until the next insert or
        remove: cheap to keep, e.g. in a snapshot)."""
        if self._ordered[0] != self.generation:
            self._ordered = (self.generation, tuple(self._where))
        return self._ordered[1]

    def cells_of(self, obj) -> tuple[int, int, int, int]:
        """The inclusive cell range ``(c0, r0, c1, r1)`` ``obj`` is listed under (for tests and debugging)."""
        if self.pending:
            self.flush()
        return self._where[obj]

    # -- internals -------------------------------------------------------------------------------------
    def _edges(self, rng) -> tuple[float, ...]:
        """Where a box may be and stay in the cells ``rng``: x in (x lo, x hi], x + w in [lo, hi), same for y."""
        c0, r0, c1, r1 = rng
        cell = self.cell
        return c0 * cell, (c0 + 1) * cell, c1 * cell, (c1 + 1) * cell, r0 * cell, (r0 + 1) * cell, r1 * cell, \
            (r1 + 1) * cell

    def _add(self, obj, rng) -> None:
        c0, r0, c1, r1 = rng
        if _span(rng) > _BIG:
            insort(self._big, obj, key=self._order.__getitem__)
            return
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                self._enter(obj, (c, r))

    def _enter(self, obj, key) -> None:
        """List ``obj`` in one cell, keeping the cell's list in insertion order."""
        bucket = self._cells.get(key)
        if bucket is None:
            self._cells[key] = [obj]
        else:
            order = self._order
            if order[bucket[-1]] < order[obj]:
                bucket.append(obj)
            else:
                insort(bucket, obj, key=order.__getitem__)

    def _drop(self, obj, rng) -> None:
        c0, r0, c1, r1 = rng
        if _span(rng) > _BIG:
            self._big.remove(obj)
            return
        cells = self._cells
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                bucket = cells[(c, r)]
                if len(bucket) == 1:
                    del cells[(c, r)]
                else:
                    bucket.remove(obj)

    def __repr__(self) -> str:
        return f"SpatialHash(cell={self.cell:g}, {len(self._where)} objects, {len(self._cells)} cells)"
