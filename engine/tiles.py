"""TileGrid: solid, one-way and slope tiles over numpy arrays, changeable one tile at a time.

The numpy arrays (``kinds``, ``slope_left``, ``slope_right``) are the public, read-only truth: they cannot
be made writable (their memory is a read-only buffer); ``set_tile`` and ``fill_tiles`` write through to
them. The hot path reads flat Python lists mirroring them: indexing a list costs a fraction of a numpy
scalar access, and every query touches only the tiles a box covers, never the whole map. An edit updates
the arrays, the lists, the slope joins of the tile and its two neighbours, the rows holding slopes and the
digest, in constant time; ``version`` counts edited tiles and ``changes_since`` says which.
"""

from __future__ import annotations

import hashlib
import math
from enum import IntEnum
from typing import NamedTuple

import numpy as np

from . import _check

__all__ = ["AsciiMap", "Edges", "GridError", "TileGrid", "TileKind"]

# Tiled's flip flags in the top bits of a tile id (a gid): horizontal, vertical, diagonal (and hexagonal 120°)
FLIP_H, FLIP_V, FLIP_D, FLIP_HEX = 0x80000000, 0x40000000, 0x20000000, 0x10000000
_GID_BITS = 0x0FFFFFFF


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
            k = raw.astype(np.int64, copy=False)
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
        slopes = np.flatnonzero(k == SLOPE)  # flat indices of the slope tiles (usually few)
        left, right = (self._heights(v, k.shape, name, slopes)
                       for name, v in (("slope_left", slope_left), ("slope_right", slope_right)))
        bad = ~np.isfinite(left) | ~np.isfinite(right) | (left < 0) | (left > ts) | (right < 0) | (right > ts)
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            r, c = divmod(int(slopes[first]), cols)
            for name, v in (("slope_left", left[first]), ("slope_right", right[first])):
                if not math.isfinite(v):
                    raise GridError(f"slope tile at row {r}, col {c} has no {name}; give its surface height "
                                    f"in px (0..{ts}) above the tile's bottom edge")
                if not 0 <= v <= ts:
                    raise GridError(f"slope tile at row {r}, col {c}: {name} {v:g} is outside 0..{ts} px")

        self.tile_size = ts
        self.rows, self.cols = int(rows), int(cols)
        self.width, self.height = self.cols * ts, self.rows * ts
        self._kinds_rw, self.kinds = _shared(k.shape, np.uint8)
        self._kinds_rw[...] = k
        self._left_rw, self.slope_left = _shared(k.shape, np.float64)
        self._right_rw, self.slope_right = _shared(k.shape, np.float64)
        self._left_rw.ravel()[slopes] = left
        self._right_rw.ravel()[slopes] = right
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
        self.version = 0  # tiles edited so far (set_tile / fill_tiles): a renderer redraws when it changes
        self._log: list[int] = []  # flat index of each edit since version _log_start
        self._log_start = 0
        self._original: dict[int, tuple[int, float, float]] = {}  # each edited tile as built (for snapshots)
        self._edits: dict[int, tuple[int, float, float]] = {}  # each edited tile as it is now
        self._frozen = (0, {})  # (version, a copy of _edits then): what snapshots at that version share
        # Hot-path mirrors: the kinds as a flat row-major list; the slope heights (read only at slope tiles)
        # as dicts by flat index, so a map of mostly air and rock costs a pointer a tile
        self._k = self.kinds.ravel().tolist()
        self._sl = dict(zip(slopes.tolist(), left.tolist(), strict=True))
        self._sr = dict(zip(slopes.tolist(), right.tolist(), strict=True))
        self._slope_count = np.bincount(slopes // cols, minlength=rows).tolist()  # slope tiles in each row
        self._slope_rows = [v > 0 for v in self._slope_count]  # rows holding any slope tile
        self._air = None  # built by _air_runs when first asked for
        self._build_joins(slopes, left, right)

    def _air_runs(self) -> list[int]:
        """Per flat index, how many EMPTY tiles run from that tile rightward in its row (0: not EMPTY), so
        "columns c0..c1 of row r are air" is one read: ``air[r * cols + c0] > c1 - c0``. Kept up to date
        by every edit once built."""
        if self._air is None:
            cols = self.cols
            at = np.arange(cols)
            nxt = np.where(self.kinds != EMPTY, at, cols)  # each tile's column where it is not air
            nxt = np.minimum.accumulate(nxt[:, ::-1], axis=1)[:, ::-1]  # the first one at or right of each
            self._air = (nxt - at).ravel().tolist()
        return self._air

    def _edit_air(self, i: int, kind: int) -> None:
        """The air runs ending at tile ``i`` after it became (or stopped being) EMPTY."""
        air, k = self._air, self._k
        start = i - i % self.cols
        run = 0
        if kind == EMPTY:
            run = 1 + (air[i + 1] if i + 1 < start + self.cols else 0)
        air[i] = run
        j = i - 1
        while j >= start and k[j] == EMPTY:
            run += 1
            air[j] = run
            j -= 1

    @staticmethod
    def _heights(values, shape, name, slopes) -> np.ndarray:
        """The heights at the slope tiles (flat indices ``slopes``): NaN where none were given."""
        if values is None:
            return np.full(len(slopes), np.nan)
        try:
            arr = np.asarray(values, dtype=np.float64)
        except (TypeError, ValueError):
            raise GridError(f"{name} must be a 2-D array of numbers shaped like kinds") from None
        if arr.shape != shape:
            raise GridError(f"{name} has shape {arr.shape} but kinds has shape {shape}; give one height per tile")
        return arr.ravel()[slopes]

    def _build_joins(self, slopes, left, right) -> None:
        """Precompute where slopes meet their neighbours (numpy over the slope tiles; ``_join`` is the same
        for one tile).

        ``_wall_l[i]`` / ``_wall_r[i]`` (dicts over the slope tiles): the (low, high) heights above the
        tile's bottom of the vertical face on its left / right edge (where the neighbour's surface is lower
        than the slope's edge), or None. ``_ramp_l[i]`` / ``_ramp_r[i]``: a solid tile whose left / right
        neighbour is a slope reaching the solid's top: walking up that slope steps onto the solid.
        """
        ts, cols, n = self.tile_size, self.cols, self.rows * self.cols
        self._wall_l = dict.fromkeys(slopes.tolist())
        self._wall_r = dict.fromkeys(slopes.tolist())
        self._ramp_l = bytearray(n)  # (0 / 1: a byte a tile)
        self._ramp_r = bytearray(n)
        if not len(slopes):
            return
        kinds = self._kinds_rw.ravel()
        col = slopes % cols
        for faces, ramps, mine, other, has, step in (
                (self._wall_l, self._ramp_r, left, self._right_rw.ravel(), col > 0, -1),
                (self._wall_r, self._ramp_l, right, self._left_rw.ravel(), col < cols - 1, 1)):
            j = np.where(has, slopes + step, slopes)  # the neighbour on that side (itself at the map's edge)
            solid = has & (kinds[j] == SOLID)
            theirs = np.where(solid, float(ts), np.where(has, other[j], 0.0))  # its height at the shared edge
            face = np.flatnonzero(mine > theirs)
            for i, low, high in zip(slopes[face].tolist(), theirs[face].tolist(), mine[face].tolist(), strict=True):
                faces[i] = (low, high)
            for i in j[solid & (mine >= ts)].tolist():  # a solid beside the slope's high edge: a ramp top
                ramps[i] = 1

    def _edge_height(self, i: int, right_side: bool) -> float:
        kind = self._k[i]
        if kind == SOLID:
            return float(self.tile_size)
        if kind == SLOPE:
            return self._sr[i] if right_side else self._sl[i]
        return 0.0

    def _join(self, i: int) -> None:
        """Recompute tile ``i``'s slope faces and ramps from it and its left / right neighbours."""
        c = i % self.cols
        k, ts, last = self._k, self.tile_size, self.cols - 1
        self._ramp_l[i] = self._ramp_r[i] = 0
        kind = k[i]
        if kind != SLOPE:
            self._wall_l.pop(i, None)
            self._wall_r.pop(i, None)
        if kind == SLOPE:
            self._wall_l[i] = self._wall_r[i] = None
            left_n = self._edge_height(i - 1, True) if c > 0 else 0.0
            right_n = self._edge_height(i + 1, False) if c < last else 0.0
            if self._sl[i] > left_n:
                self._wall_l[i] = (left_n, self._sl[i])
            if self._sr[i] > right_n:
                self._wall_r[i] = (right_n, self._sr[i])
        elif kind == SOLID:
            if c > 0 and k[i - 1] == SLOPE and self._sr[i - 1] >= ts:
                self._ramp_l[i] = 1
            if c < last and k[i + 1] == SLOPE and self._sl[i + 1] >= ts:
                self._ramp_r[i] = 1

    # -- editing ---------------------------------------------------------------------------------------
    def set_tile(self, col: int, row: int, kind, left: float | None = None, right: float | None = None) -> bool:
        """Make tile (col, row) a ``kind`` (a TileKind); a SLOPE needs ``left`` and ``right``, its surface
        height (px, 0..tile size) at its left and right edges. Returns True if the tile changed.

        Constant time: the arrays, the hot-path lists, the slope joins of the tile and its neighbours and
        the digest follow; ``version`` goes up by one. A World notices at its next step (actors left
        inside a new solid are moved out or squished; one whose floor went falls).
        """
        col, row, kind, left, right = self._valid_edit("set_tile", col, row, kind, left, right)
        return self._put(row * self.cols + col, kind, left, right)

    def fill_tiles(self, col: int, row: int, cols: int, rows: int, kind, left: float | None = None,
                   right: float | None = None) -> int:
        """Set every tile of the rectangle ``cols`` x ``rows`` tiles from (col, row) like ``set_tile``
        (the rectangle must lie on the map). Returns how many tiles changed."""
        for name, v in (("cols", cols), ("rows", rows)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise GridError(f"fill_tiles: {name} must be a whole number of tiles >= 0, got {v!r}")
        if cols == 0 or rows == 0:
            return 0
        col, row, kind, left, right = self._valid_edit("fill_tiles", col, row, kind, left, right)
        self._on_map("fill_tiles", col + int(cols) - 1, row + int(rows) - 1)
        changed = 0
        for r in range(row, row + int(rows)):
            base = r * self.cols
            for c in range(col, col + int(cols)):
                changed += self._put(base + c, kind, left, right)
        return changed

    def _on_map(self, what: str, col, row) -> None:
        for name, v, size in (("col", col, self.cols), ("row", row, self.rows)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise GridError(f"{what}: {name} must be a whole number, got {v!r}")
            if not 0 <= v < size:
                raise GridError(f"{what}: {name} {int(v)} is off the map (0..{size - 1}); the map is "
                                f"{self.cols} cols x {self.rows} rows")

    def _valid_edit(self, what: str, col, row, kind, left, right):
        self._on_map(what, col, row)
        if isinstance(kind, bool) or not isinstance(kind, (int, np.integer)) or not EMPTY <= kind <= SLOPE:
            raise GridError(f"{what}: unknown kind {kind!r}; use TileKind.EMPTY, SOLID, ONE_WAY or SLOPE")
        kind = int(kind)
        ts = self.tile_size
        if kind == SLOPE:
            heights = []
            for name, v in (("left", left), ("right", right)):
                if v is None:
                    raise GridError(f"{what}: a slope needs {name}=, its surface height in px (0..{ts}) at its "
                                    f"{name} edge")
                if isinstance(v, bool) or not isinstance(v, (int, float, np.number)) or not math.isfinite(v) \
                        or not 0 <= v <= ts:
                    raise GridError(f"{what}: {name} must be a height in px within 0..{ts}, got {v!r}")
                heights.append(float(v))
            left, right = heights
        elif left is not None or right is not None:
            raise GridError(f"{what}: left / right are slope heights; a {TileKind(kind).name} tile takes none")
        else:
            left = right = 0.0
        return int(col), int(row), kind, left, right

    def _put(self, i: int, kind: int, left: float, right: float) -> bool:
        k, sl, sr = self._k, self._sl, self._sr
        was = k[i]
        if was == kind and sl.get(i, 0.0) == left and sr.get(i, 0.0) == right:
            return False
        if i not in self._original:
            self._original[i] = (was, sl.get(i, 0.0), sr.get(i, 0.0))
        self._edits[i] = (kind, left, right)
        row, col = divmod(i, self.cols)
        self._kinds_rw[row, col] = kind
        self._left_rw[row, col] = left
        self._right_rw[row, col] = right
        k[i] = kind
        if kind == SLOPE:
            sl[i], sr[i] = left, right
        else:
            sl.pop(i, None)
            sr.pop(i, None)
        if (was == SLOPE) != (kind == SLOPE):
            self._slope_count[row] += 1 if kind == SLOPE else -1
            self._slope_rows[row] = self._slope_count[row] > 0
        if self._air is not None and (was == EMPTY) != (kind == EMPTY):
            self._edit_air(i, kind)
        for j in (i - 1, i, i + 1):
            if 0 <= j - row * self.cols < self.cols:
                self._join(j)
        self._digest = None
        self.version += 1
        log = self._log
        log.append(i)
        if len(log) > _LOG_LIMIT:  # forget the oldest half: a reader that far behind redraws everything
            drop = len(log) // 2
            del log[:drop]
            self._log_start += drop
        return True

    def _edit_state(self):
        """(version, {flat index: (kind, left, right)}) of every tile edited so far: what a World snapshot
        keeps (one copy per version, shared by the snapshots taken at it)."""
        if self._frozen[0] != self.version:
            self._frozen = (self.version, dict(self._edits))
        return self._frozen

    def _restore_edits(self, state) -> None:
        """Put every edited tile back as it was in ``state`` (from ``_edit_state``); tiles edited since
        return to how the grid was built. Each tile that changes counts as an edit (``version``)."""
        version, edits = state
        if version == self.version:
            return
        for i in list(self._edits.keys() | edits.keys()):
            kind, left, right = edits.get(i) or self._original[i]
            self._put(i, kind, left, right)

    def changes_since(self, version: int) -> list[tuple[int, int]] | None:
        """The tiles ``(col, row)`` edited after ``version`` (oldest first, a tile edited twice twice), or
        None when that is too long ago to remember (then treat every tile as changed)."""
        if version < self._log_start or version > self.version:
            return None
        cols = self.cols
        return [(i % cols, i // cols) for i in self._log[version - self._log_start:]]

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
        lines = _trimmed(text)
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

    @classmethod
    def from_gids(cls, rows, kinds, tile_size: int = 16, edges: Edges | None = None) -> TileGrid:
        """Build a grid from a 2-D array of tile ids (a Tiled layer's gids, any map format's numbers).

        ``kinds`` maps an id to a ``TileKind`` (``TileKind.SOLID``), or for a slope to its surface heights in
        px at its left and right edges: ``(left, right)`` or ``(TileKind.SLOPE, left, right)``. Ids it does
        not name (0, decoration) are EMPTY. Tiled's flip flags (the top four bits) are stripped before the
        lookup; a slope flipped horizontally has its heights swapped; a slope flipped vertically or
        diagonally is an error (slopes here are floors). Ids given as signed 32-bit numbers work too.
        """
        try:
            raw = np.asarray(rows)
            if raw.dtype.kind not in "iu" and raw.size:
                raise ValueError
            ids = raw.astype(np.int64) & 0xFFFFFFFF  # (a signed 32-bit id with the flip bits is negative)
        except (TypeError, ValueError, OverflowError):
            raise GridError("from_gids: rows must be a 2-D array of whole-number tile ids (rows x cols)") from None
        if ids.ndim != 2 or ids.shape[0] == 0 or ids.shape[1] == 0:
            raise GridError(f"from_gids: rows must be a non-empty 2-D array (rows x cols), got shape {ids.shape}")
        if not hasattr(kinds, "items"):
            raise GridError(f"from_gids: kinds must be a mapping of tile id -> TileKind or (left, right) slope "
                            f"heights, got {type(kinds).__name__}")
        ts = int(tile_size) if isinstance(tile_size, (int, np.integer)) and not isinstance(tile_size, bool) else 0
        if ts <= 0:
            raise GridError(f"tile_size must be a positive whole number of px, got {tile_size!r}")
        table = {}
        for gid, entry in kinds.items():
            if isinstance(gid, bool) or not isinstance(gid, (int, np.integer)) or not 0 < gid <= _GID_BITS:
                raise GridError(f"from_gids: kinds key {gid!r} is not a tile id (a whole number 1..{_GID_BITS})")
            table[int(gid)] = _gid_entry(gid, entry, ts)
        base = ids & _GID_BITS
        flips = ids & ~_GID_BITS
        k = np.zeros(ids.shape, np.int64)
        left, right = np.zeros(ids.shape), np.zeros(ids.shape)
        for gid in np.unique(base).tolist():
            entry = table.get(gid)
            if entry is None:
                continue
            at = base == gid
            kind, lh, rh = entry
            k[at] = kind
            if kind == SLOPE:
                flipped = at & ((flips & (FLIP_V | FLIP_D)) != 0)
                if flipped.any():
                    r, c = (int(v) for v in np.argwhere(flipped)[0])
                    raise GridError(f"from_gids: tile at row {r}, col {c} is slope id {gid} flipped vertically or "
                                    f"diagonally; slopes are floors here: flip it horizontally only")
                mirrored = at & ((flips & FLIP_H) != 0)
                left[at], right[at] = lh, rh
                left[mirrored], right[mirrored] = rh, lh
        return cls(k, ts, left, right, edges)

    @classmethod
    def from_ascii_marked(cls, text: str, markers, tile_size: int = 16, legend: dict | None = None,
                          edges: Edges | None = None) -> AsciiMap:
        """``from_ascii``, with marker characters (a spawn, an enemy, a crate) left as empty tiles and their
        positions returned: an ``AsciiMap(grid, marks)``, ``marks`` mapping each marker character to its
        ``[(col, row), ...]`` in reading order. ``markers``: the characters (a string), or True for every
        character the legend does not know."""
        if not isinstance(text, str):
            raise GridError(f"from_ascii needs the map as a string, got {type(text).__name__}")
        if markers is True:
            table = dict(ASCII_LEGEND)
            if legend:
                table.update(legend)
            markers = "".join(sorted({ch for ch in text if ch not in table and ch != "\n"}))
        elif not isinstance(markers, str):
            raise GridError(f"markers must be a string of marker characters (or True), got {markers!r}")
        if "\n" in markers:
            raise GridError("markers cannot include a newline")
        lines = _trimmed(text)
        marks: dict[str, list[tuple[int, int]]] = {ch: [] for ch in markers}
        for r, line in enumerate(lines):
            for c, ch in enumerate(line):
                if ch in marks:
                    marks[ch].append((c, r))
        plain = "\n".join(line.translate({ord(ch): "." for ch in markers}) for line in lines)
        return AsciiMap(cls.from_ascii(plain, tile_size, legend, edges), marks)

    # -- queries ---------------------------------------------------------------------------------------
    def kind_at(self, col: int, row: int) -> TileKind:
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return TileKind(self._k[row * self.cols + col])
        return TileKind.EMPTY

    def surface_y(self, col: int, row: int, x: float) -> float:
        """World y of the slope surface of tile (col, row) at world x (clamped to the tile)."""
        if self.kind_at(col, row) != TileKind.SLOPE:
            raise GridError(f"tile at row {row}, col {col} is not a slope")
        i = row * self.cols + col
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
        if c0 > c1:  # wholly off an open side: no tile (the row slice below must not wrap round)
            return False
        for r in range(r0, r1 + 1):
            base = r * cols
            if SOLID in k[base + c0:base + c1 + 1]:
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

    def copy(self) -> TileGrid:
        """An independent grid with the same tiles and edges (edits to one do not show in the other)."""
        twin = TileGrid.__new__(TileGrid)
        twin.__dict__.update(self.__dict__)
        for private, public in (("_kinds_rw", "kinds"), ("_left_rw", "slope_left"), ("_right_rw", "slope_right")):
            mine = getattr(self, private)
            arrays = _shared(mine.shape, mine.dtype)
            arrays[0][...] = mine
            setattr(twin, private, arrays[0])
            setattr(twin, public, arrays[1])
        for name in ("_k", "_sl", "_sr", "_slope_count", "_slope_rows", "_wall_l", "_wall_r", "_log", "_original",
                     "_edits"):
            setattr(twin, name, getattr(self, name).copy())
        twin._ramp_l, twin._ramp_r = bytearray(self._ramp_l), bytearray(self._ramp_r)
        if self._air is not None:
            twin._air = self._air.copy()
        return twin

    def __deepcopy__(self, memo):
        return self.copy()

    def __repr__(self) -> str:
        return f"TileGrid({self.rows} rows x {self.cols} cols, {self.tile_size} px tiles)"


class AsciiMap(NamedTuple):
    """``TileGrid.from_ascii_marked``'s answer: the grid, and where each marker character was."""

    grid: TileGrid
    marks: dict  # marker character -> [(col, row), ...] in reading order (rows top to bottom)


def _trimmed(text: str) -> list[str]:
    """The lines of an ASCII map without the blank lines before and after it."""
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _gid_entry(gid, entry, ts: int) -> tuple[int, float, float]:
    """A ``from_gids`` kinds value as ``(kind, left_px, right_px)``."""
    if isinstance(entry, (tuple, list)):
        if len(entry) == 3:
            kind, lh, rh = entry
            if kind != SLOPE:
                raise GridError(f"from_gids: kinds[{gid}] = {entry!r}: a 3-tuple is (TileKind.SLOPE, left, right)")
        elif len(entry) == 2:
            lh, rh = entry
        else:
            raise GridError(f"from_gids: kinds[{gid}] = {entry!r}: give a TileKind or slope heights (left, right) px")
        for name, v in (("left", lh), ("right", rh)):
            if isinstance(v, bool) or not isinstance(v, (int, float, np.number)) or not 0 <= v <= ts:
                raise GridError(f"from_gids: kinds[{gid}]: slope {name} height {v!r} is not a number of px in 0..{ts}")
        return SLOPE, float(lh), float(rh)
    if isinstance(entry, bool) or not isinstance(entry, (int, np.integer)) or not EMPTY <= entry <= SLOPE:
        raise GridError(f"from_gids: kinds[{gid}] = {entry!r}: use TileKind.EMPTY, SOLID, ONE_WAY, or (left, right) "
                        f"heights for a slope")
    if entry == SLOPE:
        raise GridError(f"from_gids: kinds[{gid}] is a slope without heights; give (left, right) px, e.g. (0, {ts})")
    return int(entry), 0.0, 0.0


_LOG_LIMIT = 1 << 16  # edits remembered for changes_since


def _shared(shape, dtype) -> tuple[np.ndarray, np.ndarray]:
    """A private writable array of zeros and a public view of the same memory that cannot be made
    writable (its buffer is read-only: ``setflags(write=True)`` raises)."""
    dtype = np.dtype(dtype)
    buf = bytearray(int(np.prod(shape)) * dtype.itemsize)
    private = np.frombuffer(buf, dtype=dtype).reshape(shape)
    public = np.frombuffer(memoryview(buf).toreadonly(), dtype=dtype).reshape(shape)
    return private, public


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
