"""SpatialHash: a uniform grid of square cells over boxes, the broadphase for actors, platforms and triggers.

Each object is listed in every cell its box meets; a box whose edge lies exactly on a cell boundary counts
in the cells on both sides (so boxes that only touch always share a cell: touch tests need that). Moving an
object whose cells do not change costs a few arithmetic operations; a query costs the cells it covers plus
what is listed there, never the number of objects stored. Results come back in insertion order, so
nothing depends on ``id()`` or set order.

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


class SpatialHash:
    """Objects in a uniform grid of ``cell`` px squares, looked up by box."""

    __slots__ = ("_big", "_cells", "_next", "_order", "_where", "cell")

    def __init__(self, cell: float = 64.0):
        self.cell = _check.size("SpatialHash", "cell", cell)  # px, side of a square cell
        self._cells: dict[tuple[int, int], list] = {}  # (col, row) -> objects, in insertion order
        self._where: dict = {}  # obj -> (c0, r0, c1, r1): its cell range, inclusive (insertion order)
        self._order: dict = {}  # obj -> insertion number (the order results come back in)
        self._big: list = []  # objects spanning more than _BIG cells, in insertion order
        self._next = 0

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
        self._order[obj] = self._next
        self._next += 1
        self._where[obj] = rng
        self._add(obj, rng)

    def move(self, obj, x: float, y: float, w: float, h: float) -> None:
        """Give ``obj`` a new box; cheap when its cells are unchanged (keeps its place in the order)."""
        cell = self.cell
        rng = (_ceil(x / cell) - 1, _ceil(y / cell) - 1, _floor((x + w) / cell), _floor((y + h) / cell))
        old = self._where.get(obj)
        if old == rng:
            return
        if old is None:
            raise ValueError(f"SpatialHash.move: {obj!r} is not in the hash; insert() it first")
        self._drop(obj, old)
        self._where[obj] = rng
        self._add(obj, rng)

    def remove(self, obj) -> None:
        """Take ``obj`` out."""
        rng = self._where.pop(obj, None)
        if rng is None:
            raise ValueError(f"SpatialHash.remove: {obj!r} is not in the hash")
        self._drop(obj, rng)
        del self._order[obj]

    def clear(self) -> None:
        self._cells.clear()
        self._where.clear()
        self._order.clear()
        self._big.clear()
        self._next = 0

    def query(self, x: float, y: float, w: float, h: float) -> list:
        """The objects whose cells meet the box (a broadphase: test the exact overlap yourself), each
        once, in insertion order."""
        cell = self.cell
        c0, r0 = _ceil(x / cell) - 1, _ceil(y / cell) - 1
        c1, r1 = _floor((x + w) / cell), _floor((y + h) / cell)
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
        """Like :meth:`query`, for callers that collect into a set: an iterable that may name an object
        more than once, in no particular order, and must not be kept (it may be a cell's own list)."""
        cell = self.cell
        c0, r0 = _ceil(x / cell) - 1, _ceil(y / cell) - 1
        c1, r1 = _floor((x + w) / cell), _floor((y + h) / cell)
        cells = self._cells
        if self._big or (c1 - c0 + 1) * (r1 - r0 + 1) > len(cells):
            return self.query(x, y, w, h)
        if c0 == c1 and r0 == r1:
            return cells.get((c0, r0), ())
        return [o for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) for o in cells.get((c, r), ())]

    def objects(self) -> list:
        """Everything stored, in insertion order."""
        return list(self._where)

    def cells_of(self, obj) -> tuple[int, int, int, int]:
        """The inclusive cell range ``(c0, r0, c1, r1)`` ``obj`` is listed under (for tests and debugging)."""
        return self._where[obj]

    # -- internals -------------------------------------------------------------------------------------
    def _add(self, obj, rng) -> None:
        c0, r0, c1, r1 = rng
        if (c1 - c0 + 1) * (r1 - r0 + 1) > _BIG:
            insort(self._big, obj, key=self._order.__getitem__)
            return
        cells, key = self._cells, self._order.__getitem__
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                bucket = cells.get((c, r))
                if bucket is None:
                    cells[(c, r)] = [obj]
                elif key(bucket[-1]) < key(obj):
                    bucket.append(obj)
                else:
                    insort(bucket, obj, key=key)

    def _drop(self, obj, rng) -> None:
        c0, r0, c1, r1 = rng
        if (c1 - c0 + 1) * (r1 - r0 + 1) > _BIG:
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
