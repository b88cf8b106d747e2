"""TileGrid: solid, one-way and slope tiles over numpy arrays.

The numpy arrays (``kinds``, ``slope_left``, ``slope_right``) are the public, read-only truth. The hot
path reads flat Python lists built from them once: indexing a list costs a fraction of a numpy scalar
access, and every query touches only the tiles a box covers, never the whole map.
"""

from __future__ import annotations

import hashlib
import math
from enum import IntEnum
from typing import NamedTuple

import numpy as np

from . import _check

__all__ = ["Edges", "GridError", "TileGrid", "TileKind"]


class TileKind(IntEnum):
    EMPTY = 0
    SOLID = 1
    ONE_WAY = 2
    SLOPE = 3


class GridError(ValueError):
    """The tile data is malformed; the message names the row/column and how to fix it."""


EMPTY, SOLID, ONE_WAY, SLOPE = 0, 1, 2, 3


class _EdgeFields(NamedTuple):
    left: bool = True
    right: bool = True
    top: bool = False
    bottom: bool = False


class Edges(_EdgeFields):
    """What lies beyond each side of the map: True = a solid wall, False = open (empty space).

    The default, ``Edges()``, walls the left and right sides and leaves the top and bottom open: nothing
    walks off the side of the world, and what falling out of the bottom means is the game's call.
    """

    __slots__ = ()

    def __new__(cls, left=True, right=True, top=False, bottom=False):
        return super().__new__(cls, *(_check.flag("Edges", name, v) for name, v in
                                      zip(_EdgeFields._fields, (left, right, top, bottom), strict=True)))

# ASCII legend for TileGrid.from_ascii: char -> (kind, slope_left, slope_right) as fractions of a tile.
ASCII_LEGEND: dict[str, tuple[int, float, float]] = {
    ".": (EMPTY, 0, 0),
    " ": (EMPTY, 0, 0),
    "#": (SOLID, 0, 0),
    "=": (ONE_WAY, 0, 0),
    "/": (SLOPE, 0.0, 1.0),  # 45°, rising to the right
    "\\": (SLOPE, 1.0, 0.0),  # 45°, rising to the left
    "p": (SLOPE, 0.0, 0.5),  # shallow pair rising right: p then q
    "q": (SLOPE, 0.5, 1.0),
    "d": (SLOPE, 1.0, 0.5),  # shallow pair rising left: d then b
    "b": (SLOPE, 0.5, 0.0),
}


class TileGrid:
    """A rectangular map of tiles, ``rows`` x ``cols``, each ``tile_size`` px square.

    ``kinds[row, col]`` is a :class:`TileKind`. For SLOPE tiles, ``slope_left`` / ``slope_right`` give
    the surface height in px above the tile's bottom edge at its left / right edge (0..tile_size).
    Outside the map there are no tiles (``kind_at`` says EMPTY); ``edges`` says which sides are walls.
    """

    def __init__(self, kinds, tile_size: int = 16, slope_left=None, slope_right=None, edges: Edges | None = None):
        if isinstance(tile_size, bool) or not isinstance(tile_size, (int, np.integer)) or tile_size <= 0:
            raise GridError(f"tile_size must be a positive whole number of px, got {tile_size!r}")
        try:
            raw = np.asarray(kinds)
            k = raw.astype(np.int64)
        except (TypeError, ValueError):
            raise GridError("kinds must be a 2-D array of tile kinds (rows x cols) of whole numbers") from None
        if raw.dtype.kind not in "iub":
            fractional = np.argwhere(~np.isfinite(raw.astype(np.float64)) | (raw != k)) \
                if raw.dtype.kind == "f" else np.argwhere(np.ones(raw.shape, bool))
            if len(fractional):
                r, c = (int(v) for v in fractional[0])
                raise GridError(f"tile at row {r}, col {c} has kind {raw[r, c].item()!r}, not a whole number; "
                                f"use 0 empty, 1 solid, 2 one-way or 3 slope")
        if k.ndim != 2 or k.shape[0] == 0 or k.shape[1] == 0:
            raise GridError(f"kinds must be a non-empty 2-D array (rows x cols), got shape {k.shape}")
        bad = np.argwhere((k < 0) | (k > SLOPE))
        if len(bad):
            r, c = (int(v) for v in bad[0])
            raise GridError(f"tile at row {r}, col {c} has unknown kind {int(k[r, c])}; "
                            f"use 0 empty, 1 solid, 2 one-way or 3 slope")
        ts = int(tile_size)
        rows, cols = k.shape
        sl = self._heights(slope_left, k.shape, "slope_left")
        sr = self._heights(slope_right, k.shape, "slope_right")
        for r, c in np.argwhere(k == SLOPE):
            r, c = int(r), int(c)
            for name, arr in (("slope_left", sl), ("slope_right", sr)):
                v = arr[r, c]
                if not math.isfinite(v):
                    raise GridError(f"slope tile at row {r}, col {c} has no {name}; give its surface height "
                                    f"in px (0..{ts}) above the tile's bottom edge")
                if not 0 <= v <= ts:
                    raise GridError(f"slope tile at row {r}, col {c}: {name} {v:g} is outside 0..{ts} px")
        sl = np.where(k == SLOPE, sl, 0.0)
        sr = np.where(k == SLOPE, sr, 0.0)

        self.tile_size = ts
        self.rows, self.cols = int(rows), int(cols)
        self.width, self.height = self.cols * ts, self.rows * ts
        self.kinds = k.astype(np.uint8)
        self.slope_left = sl
        self.slope_right = sr
        for arr in (self.kinds, self.slope_left, self.slope_right):
            arr.setflags(write=False)
        if edges is None:
            edges = Edges()
        elif not isinstance(edges, Edges):
            raise GridError(f"edges must be Edges(left=..., right=..., top=..., bottom=...), got {edges!r}")
        self.edges = edges
        # Hot-path bounds: a box must stay within these (the walls); open sides are infinitely far.
        self._x_lo = 0.0 if edges.left else -math.inf
        self._x_hi = float(self.width) if edges.right else math.inf
        self._y_lo = 0.0 if edges.top else -math.inf
        self._y_hi = float(self.height) if edges.bottom else math.inf
        self._digest = None
        # Hot-path mirrors: flat row-major lists.
        self._k = [int(v) for v in self.kinds.ravel()]
        self._sl = [float(v) for v in sl.ravel()]
        self._sr = [float(v) for v in sr.ravel()]
        self._slope_rows = [bool(v) for v in (k == SLOPE).any(axis=1)]  # rows holding any slope tile
        self._build_joins()

    @staticmethod
    def _heights(values, shape, name):
        if values is None:
            return np.full(shape, np.nan)
        try:
            arr = np.array(values, dtype=np.float64)
        except (TypeError, ValueError):
            raise GridError(f"{name} must be a 2-D array of numbers shaped like kinds") from None
        if arr.shape != shape:
            raise GridError(f"{name} has shape {arr.shape} but kinds has shape {shape}; give one height per tile")
        return arr

    def _build_joins(self) -> None:
        """Precompute where slopes meet their neighbours.

        ``_wall_l[i]`` / ``_wall_r[i]``: for a slope tile, the (low, high) heights above the tile's bottom
        of the vertical face on its left / right edge (where the neighbour's surface is lower than the
        slope's edge), or None. ``_ramp_l[i]`` / ``_ramp_r[i]``: a solid tile whose left / right neighbour
        is a slope reaching the solid's top: walking up that slope steps onto the solid.
        """
        ts, cols, n = self.tile_size, self.cols, self.rows * self.cols
        k, sl, sr = self._k, self._sl, self._sr
        self._wall_l = [None] * n
        self._wall_r = [None] * n
        self._ramp_l = [False] * n
        self._ramp_r = [False] * n

        def edge_height(i: int, side_right: bool) -> float:
            kind = k[i]
            if kind == SOLID:
                return float(ts)
            if kind == SLOPE:
                return sr[i] if side_right else sl[i]
            return 0.0

        for i in range(n):
            _r, c = divmod(i, cols)
            kind = k[i]
            if kind == SLOPE:
                left_n = edge_height(i - 1, True) if c > 0 else 0.0
                right_n = edge_height(i + 1, False) if c < cols - 1 else 0.0
                if sl[i] > left_n:
                    self._wall_l[i] = (left_n, sl[i])
                if sr[i] > right_n:
                    self._wall_r[i] = (right_n, sr[i])
            elif kind == SOLID:
                if c > 0 and k[i - 1] == SLOPE and sr[i - 1] >= ts:
                    self._ramp_l[i] = True
                if c < cols - 1 and k[i + 1] == SLOPE and sl[i + 1] >= ts:
                    self._ramp_r[i] = True

    # -- construction helpers --------------------------------------------------------------------------
    @classmethod
    def from_ascii(cls, text: str, tile_size: int = 16, legend: dict | None = None,
                   edges: Edges | None = None) -> TileGrid:
        """Build a grid from ASCII art, one character per tile.

        Default legend: ``.``/space empty, ``#`` solid, ``=`` one-way, ``/`` and ``\\`` 45° slopes,
        ``pq`` a shallow pair rising right (0->8, 8->16 on 16 px tiles), ``db`` rising left.
        ``legend`` maps extra characters to a kind (``TileKind.SOLID``) or, for slopes,
        ``(TileKind.SLOPE, left_fraction, right_fraction)`` of a tile.
        Leading/trailing blank lines are dropped; short lines are padded with empty tiles.
        """
        if not isinstance(text, str):
            raise GridError(f"from_ascii needs the map as a string, got {type(text).__name__}")
        table = dict(ASCII_LEGEND)
        if legend:
            if not isinstance(legend, dict):
                raise GridError(f"legend must be a dict of character -> kind, got {type(legend).__name__}")
            table.update({ch: _legend_entry(ch, entry) for ch, entry in legend.items()})
        lines = text.split("\n")
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            raise GridError("ASCII map is empty; draw at least one row of tiles")
        width = max(len(line) for line in lines)
        kinds = np.zeros((len(lines), width), dtype=np.int64)
        left = np.zeros((len(lines), width))
        right = np.zeros((len(lines), width))
        for r, line in enumerate(lines):
            for c, ch in enumerate(line):
                if ch not in table:
                    raise GridError(f"ASCII map row {r}, col {c}: unknown character {ch!r}; "
                                    f"known: {''.join(sorted(table))!r} (or pass legend=)")
                kind, lf, rf = table[ch]
                kinds[r, c] = kind
                left[r, c] = lf * tile_size
                right[r, c] = rf * tile_size
        return cls(kinds, tile_size, left, right, edges)

    # -- queries ---------------------------------------------------------------------------------------
    def kind_at(self, col: int, row: int) -> TileKind:
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return TileKind(self._k[row * self.cols + col])
        return TileKind.EMPTY

    def surface_y(self, col: int, row: int, x: float) -> float:
        """World y of the slope surface of tile (col, row) at world x (clamped to the tile)."""
        i = row * self.cols + col
        if self.kind_at(col, row) != TileKind.SLOPE:
            raise GridError(f"tile at row {row}, col {col} is not a slope")
        ts = self.tile_size
        u = min(max(x - col * ts, 0.0), float(ts))
        return (row + 1) * ts - (self._sl[i] + (self._sr[i] - self._sl[i]) * u / ts)

    def solid_overlaps(self, x: float, y: float, w: float, h: float) -> bool:
        """True if the box strictly overlaps any SOLID tile or reaches past a wall edge (touching does not
        count)."""
        if x < self._x_lo or x + w > self._x_hi or y < self._y_lo or y + h > self._y_hi:
            return True
        ts, cols, k = self.tile_size, self.cols, self._k
        c0, c1 = max(0, math.floor(x / ts)), min(self.cols - 1, math.ceil((x + w) / ts) - 1)
        r0, r1 = max(0, math.floor(y / ts)), min(self.rows - 1, math.ceil((y + h) / ts) - 1)
        for r in range(r0, r1 + 1):
            base = r * cols
            for c in range(c0, c1 + 1):
                if k[base + c] == SOLID:
                    return True
        return False

    def tiles_in(self, x: float, y: float, w: float, h: float):
        """Yield ``(col, row, kind)`` for the non-empty tiles the box strictly overlaps."""
        ts, cols, k = self.tile_size, self.cols, self._k
        c0, c1 = max(0, math.floor(x / ts)), min(self.cols - 1, math.ceil((x + w) / ts) - 1)
        r0, r1 = max(0, math.floor(y / ts)), min(self.rows - 1, math.ceil((y + h) / ts) - 1)
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                kind = k[r * cols + c]
                if kind:
                    yield c, r, TileKind(kind)

    def digest(self) -> bytes:
        """A digest of everything in the grid (tiles, slope heights, tile size, edges); for state hashes."""
        if self._digest is None:
            h = hashlib.sha256(repr((self.tile_size, self.kinds.shape, tuple(self.edges))).encode())
            for arr in (self.kinds, self.slope_left, self.slope_right):
                h.update(np.ascontiguousarray(arr).tobytes())
            self._digest = h.digest()
        return self._digest

    def __deepcopy__(self, memo):
        return self  # immutable: clones of a world share it

    def __repr__(self) -> str:
        return f"TileGrid({self.rows} rows x {self.cols} cols, {self.tile_size} px tiles)"


def _legend_entry(ch, entry) -> tuple[int, float, float]:
    """A legend value as ``(kind, left_fraction, right_fraction)``: a bare kind is a flat tile."""
    if not isinstance(ch, str) or len(ch) != 1:
        raise GridError(f"legend keys must be single characters, got {ch!r}")
    if isinstance(entry, (tuple, list)):
        if len(entry) != 3:
            raise GridError(f"legend {ch!r}: expected (kind, left_fraction, right_fraction), got {entry!r}")
        kind, lf, rf = entry
    else:
        kind, lf, rf = entry, 0.0, 0.0
    if isinstance(kind, bool) or not isinstance(kind, (int, np.integer)) or not EMPTY <= kind <= SLOPE:
        raise GridError(f"legend {ch!r}: unknown kind {kind!r}; use TileKind.EMPTY, SOLID, ONE_WAY or SLOPE")
    if kind == SLOPE and not isinstance(entry, (tuple, list)):
        raise GridError(f"legend {ch!r}: a slope needs its surface heights, e.g. "
                        f"(TileKind.SLOPE, 0.0, 0.5) for fractions of a tile at its left and right edges")
    for name, f in (("left_fraction", lf), ("right_fraction", rf)):
        if isinstance(f, bool) or not isinstance(f, (int, float, np.number)) or not 0.0 <= f <= 1.0:
            raise GridError(f"legend {ch!r}: {name} must be a number in 0..1 (a fraction of a tile), got {f!r}")
    return int(kind), float(lf), float(rf)
