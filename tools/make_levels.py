"""Build the demo's Tiled levels (levels/*.tmx) from readable ASCII layouts.

    python tools/make_levels.py            # writes levels/NN_*.tmx, levels/cover.tsx,
                                           # levels/platformer.tiled-project and the list of object kinds
                                           # in docs/levels.md
    python tools/make_levels.py --check    # exit 1 if a committed file differs from a fresh build

The levels themselves are in ``tools/level_maps.py``: each an ASCII picture of its terrain (often joined
from sections with :func:`hcat` / :func:`vcat`) plus a few lists (sign messages, moving platforms,
enemies, turrets, springs). This module is the builder: it autotiles the ground (grass tops, walls,
corners, ceilings, ramp under-tiles, fill variants), scatters decoration with a fixed seed, and writes
plain Tiled 1.10 XML with CSV layers and external tilesets, so the maps open in Tiled with no warnings and
can be edited there afterwards (but a rebuild overwrites hand edits: change the layout instead, or stop
using the generator for that map).

Legend (one character per 16 px tile)::

    #  ground (autotiled)          /  45 deg slope rising right     \\  45 deg slope rising left
    1 2  shallow slope rising right (0->8, 8->16)    3 4  shallow slope rising left (16->8, 8->0)
    =  one-way plank (autotiled)   B  stone bricks (moss on top)    S  stone block    X  crate
    :  background earth wall       %  background bricks (windows, columns)
    P  spawn (player's feet on this tile's bottom)   G  goal (arch stands on this tile's bottom)
    K  checkpoint                  o  coin            !  signpost
    ^  spikes up (hazard)          v  spikes down (hazard, hanging from the tile above)
    (  spikes on a wall's left side, pointing left    )  spikes on a wall's right side, pointing right
    f  fence                       |  hanging vine (tiles)        T  torch        >  <  arrow signs
    ~  water surface               w  water
    e  walker    h  hopper    y  flyer (enemies: feet on the tile's bottom; a flyer centred in the tile)
    }  {  A  V  turret firing right, left, up, down (centred in the tile)
    s  spring (standing on the tile's bottom)
    *  dash refill crystal (centred in the tile; ``Level.refills``: its respawn delay, s, in meeting order)
    c  crumbling block (tile)      _  crumbling plank (one-way tile); side by side they fall together
    b  breakable block (tile)      $  breakable block with a coin inside
    j  vine (a swaying rope object): a column of j is one vine hanging from the top of the first
    H  hidden passage: air drawn as ground in front of the player (a secret room's cover)
    O  a coin in a hidden passage
    .  or space: air

Lists that go with the characters (signs, enemies, turrets, springs) are in the order the player meets
them: by column then row in a level wider than tall, by row from the bottom up (then column) in a tall
one.

Layers, bottom to top: "sky" and "hills" (parallax image layers), "background" (walls behind
everything), "terrain" (what collides), "props" (decoration the player walks in front of: signposts,
fences, bushes, rocks, torches, spikes), "paths" and "objects" (the game draws its sprites here), and
"foreground" (only what the player passes behind: grass tufts, flowers, vines, water, and the covers of
hidden passages, drawn with the ``cover.tsx`` tileset: the terrain art with no collision).

Moving platforms are listed per level in tile units (see ``Plat``). Objects: spawn (point), goal,
checkpoint, coin, hazard and trigger (rects), platform (rect, 8 px tall) with ``dx``/``dy`` or ``path``
(an object reference to a polyline on the "paths" layer), enemy, turret, spring and vine (points; a
flyer's route like a platform's), crumble and breakable (tiles of the tileset's kinds).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.files.levelkinds import DOCS_BEGIN, DOCS_END, docs_section, tiled_property_types  # noqa: E402

LEVELS = ROOT / "levels"
TS = 16  # tile size, px

# -- tile ids (levels/tileset.tsx, see assets/README.md); gid = id + 1 ------------------------------------
GRASS_TL, GRASS_T, GRASS_TR, PILLAR_T, INNER_TL, INNER_TR = 0, 1, 2, 3, 4, 5
SLOPE_IDS = {"/": 6, "\\": 7, "1": 8, "2": 9, "3": 10, "4": 11}
UNDER_IDS = {"/": 22, "\\": 23, "1": 24, "2": 25, "3": 26, "4": 27}
STRIP_L, STRIP_M, STRIP_R, BLOCK = 12, 13, 14, 15
WALL_L, FILL, WALL_R, PILLAR_M, INNER_BL, INNER_BR = 16, 17, 18, 19, 20, 21
FILL_STONES, FILL_ROOTS, FILL_FOSSIL, FILL_DEEP = 28, 29, 30, 31
CEIL_L, CEIL, CEIL_R, PILLAR_B = 32, 33, 34, 35
PLANK_L, PLANK_M, PLANK_R, PLANK_1 = 36, 37, 38, 39
BRICK, BRICK_MOSS, STONE, CRATE = 40, 41, 42, 43
BG_DIRT_T, BG_DIRT, BG_BRICK, BG_WINDOW, BG_BRICK_T, BG_COLUMN = 44, 45, 46, 47, 81, 82
TUFT_A, TUFT_B, TALL_GRASS, FL_RED, FL_YELLOW, FL_BLUE = 48, 49, 50, 51, 52, 53
ROCK_S, ROCK_B, MUSH_R, MUSH_B, BUSH_S, BUSH_L, BUSH_R = 54, 55, 56, 57, 58, 59, 60
FENCE_L, FENCE_M, FENCE_R, SIGN, VINE_T, VINE_M, VINE_B = 61, 62, 63, 64, 65, 66, 67
SPIKES_UP, SPIKES_DOWN, TORCH, WATER, WATER_FILL = 68, 69, 72, 76, 80
SIGN_RIGHT, SIGN_LEFT = 83, 84
SPIKES_LEFT, SPIKES_RIGHT = 70, 71
CRUMBLE, CRUMBLE_PLANK, BREAKABLE, BREAKABLE_COIN = 85, 86, 87, 88
TILE_COUNT = 96  # tiles in tileset.tsx; the cover tileset (the same image, no collision) starts after them
COVER = TILE_COUNT  # a cover tile's id in the layers: COVER + the terrain tile it looks like

# decoration drawn IN FRONT of the player (the "foreground" layer, above the object layers): low plants,
# vines and water the hero wades through. Everything else (signposts, fences, bushes, rocks, torches,
# spikes...) is a prop the hero walks in front of: the "props" layer, below the object layers.
FOREGROUND = {TUFT_A, TUFT_B, TALL_GRASS, FL_RED, FL_YELLOW, FL_BLUE, VINE_T, VINE_M, VINE_B, WATER, WATER_FILL}
# the ground tiles a hidden passage's cover may show (from cover.tsx), also in the foreground layer
COVERS = {COVER + t for t in range(0, 36) if t not in SLOPE_IDS.values()}

GROUND = set("#")
HIDDEN = set("HO")  # air (and coins) drawn as ground in front of the player
SLOPES = set("/\\1234")
BLOCKS = {"B", "S", "X"}
KIND_TILES = {"c": CRUMBLE, "_": CRUMBLE_PLANK, "b": BREAKABLE, "$": BREAKABLE_COIN}
BG_CHARS = {":", "%"}
ENEMIES = {"e": "walker", "h": "hopper", "y": "flyer"}
TURRETS = {"}": "right", "{": "left", "A": "up", "V": "down"}
# characters that stand in front of whatever background their row has around them
OVERLAY = set("PGKo!^v()f|T><~w=sj*") | SLOPES | BLOCKS | set(KIND_TILES) | set(ENEMIES) | set(TURRETS)


@dataclass
class Plat:
    """A moving platform, in tiles: top-left (x, y), width w; either (dx, dy) or a path of (dx, dy) offsets
    from the start (the first point (0, 0) is added). speed px/s, wait s at each end."""

    x: float
    y: float
    w: int
    speed: float
    dx: float = 0
    dy: float = 0
    path: list[tuple[float, float]] | None = None
    wait: float = 0.0
    one_way: bool = False
    name: str = ""


@dataclass
class Foe:
    """An enemy's settings (the layout's e/h/y says where; its character must match ``kind``). A flyer
    patrols (dx, dy) or a path of (dx, dy) offsets in tiles, like a platform. Unset numbers keep the
    class defaults (docs/levels.md)."""

    kind: str = "walker"
    facing: str = "left"
    speed: float | None = None  # px/s
    hop_height: float | None = None  # px (hopper)
    hop_period: float | None = None  # s (hopper)
    dx: float = 0
    dy: float = 0
    path: list[tuple[float, float]] | None = None
    wait: float = 0.0
    name: str = ""


@dataclass
class Gun:
    """A turret's timing (the layout's } { A V say where and which way)."""

    period: float = 2.0  # s between shots
    speed: float = 120.0  # px/s, the bullets
    delay: float = 0.0  # s before the first shot
    name: str = ""


@dataclass
class Level:
    file: str
    title: str
    next: str | None
    layout: str
    signs: list[str]
    platforms: list[Plat] = field(default_factory=list)
    foes: list[Foe] = field(default_factory=list)  # one per e/h/y in meeting order, or none: all defaults
    guns: list[Gun] = field(default_factory=list)  # one per turret in meeting order, or none: all defaults
    springs: list[float] = field(default_factory=list)  # launch apex in tiles, one per s, or none: 64 px
    music: str | None = None  # the map's `music` property (None: the game's default for its place)
    fall_limit: float | None = None  # px, the map's `fall_limit` property (a tall level's kill pit)
    world: str | None = None  # the map's `world` property (None: level_maps.WORLDS, else dusk)
    refills: list[float] = field(default_factory=list)  # respawn delay in s, one per *, or none: 2.5 s
    moves: str = ""  # the map's `moves` property: the moves the level grants ("wall_slide,wall_jump")
    seed: int = 1
    decor: float = 0.35  # share of free grass tops that get a plant/rock
    route: list[tuple[float, float]] = field(default_factory=list)  # tools/find_replay.py waypoints (tiles)
    routes: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # per preset, when different


# world -> (far backdrop, near backdrop, map background colour, pictures repeat vertically): the image
# layers tools/make_art.py paints for each of game/files/levelkinds.py's WORLDS
WORLD_LAYERS = {
    "dusk": ("bg_far.png", "bg_near.png", "#262b44", False),
    "day": ("bg_day_far.png", "bg_day_near.png", "#124e89", False),
    "tower": ("bg_tower_far.png", "bg_tower_near.png", "#181425", True),
    "night": ("bg_night_far.png", "bg_night_near.png", "#181425", False),
}


def _block(text: str, what: str) -> list[str]:
    rows = text.strip("\n").split("\n")
    if len({len(r) for r in rows}) != 1:
        lengths = sorted({len(r) for r in rows})
        bad = next(i for i, r in enumerate(rows) if len(r) != len(rows[0]))
        raise SystemExit(f"{what}: rows of different lengths {lengths} (row {bad}: {rows[bad]!r})")
    return rows


def hcat(*blocks: str, height: int = 0) -> str:
    """Sections of a layout side by side, left to right; every section's rows must be equally long, and
    the sections equally tall: ``height`` rows, a shorter section getting rows of air on top."""
    parts = [_block(b, f"hcat section {i + 1}") for i, b in enumerate(blocks)]
    parts = [["." * len(p[0])] * (height - len(p)) + p for p in parts]
    if len({len(p) for p in parts}) != 1:
        raise SystemExit(f"hcat: sections of different heights {[len(p) for p in parts]}")
    return "\n".join("".join(p[r] for p in parts) for r in range(len(parts[0])))


def vcat(*blocks: str) -> str:
    """Sections of a layout stacked, top first; every row of every section equally long."""
    parts = [_block(b, f"vcat section {i + 1}") for i, b in enumerate(blocks)]
    if len({len(p[0]) for p in parts}) != 1:
        raise SystemExit(f"vcat: sections of different widths {[len(p[0]) for p in parts]}")
    return "\n".join(r for p in parts for r in p)


# =========================================================================================================
# The builder
# =========================================================================================================
class Grid:
    def __init__(self, text: str):
        rows = [r for r in text.strip("\n").split("\n")]
        self.w = max(len(r) for r in rows)
        self.rows = [r.ljust(self.w, ".").replace(" ", ".") for r in rows]
        self.h = len(self.rows)

    def at(self, c: int, r: int, outside: str = "#") -> str:
        if r < 0:
            return "."
        if c < 0 or c >= self.w or r >= self.h:
            return outside if r < self.h else "."
        return self.rows[r][c]


def _ground(ch: str) -> bool:
    return ch in GROUND or ch in SLOPES or ch in HIDDEN


def build_tiles(level: Level, grid: Grid) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """(background, terrain, decoration) as rows of tile ids (-1 = empty); the decoration holds props,
    foreground plants and the covers of hidden passages (``COVER`` + a terrain id)."""
    rng = random.Random(level.seed)
    W, H = grid.w, grid.h
    bg = [[-1] * W for _ in range(H)]
    terrain = [[-1] * W for _ in range(H)]
    fg = [[-1] * W for _ in range(H)]

    # side edges continue the ground of the edge column (no walls drawn at the map's sides)
    def g(c: int, r: int) -> bool:
        if r >= H:
            return True
        if r < 0:
            return False
        c = min(max(c, 0), W - 1)
        return _ground(grid.rows[r][c])

    # depth below the surface, for fill variety
    for r in range(H):
        for c in range(W):
            ch = grid.rows[r][c]
            if ch in SLOPES:
                terrain[r][c] = SLOPE_IDS[ch]
            elif ch in GROUND or ch in HIDDEN:
                up = grid.at(c, r - 1, ".") if r > 0 else "."
                if up in SLOPES:
                    terrain[r][c] = UNDER_IDS[up]
                    continue
                if r > 0 and r - 1 >= 0 and grid.rows[r - 1][c] in SLOPES:
                    terrain[r][c] = UNDER_IDS[grid.rows[r - 1][c]]
                    continue
                U, D, L, R = g(c, r - 1), g(c, r + 1), g(c - 1, r), g(c + 1, r)
                if not U:
                    if not L and not R:
                        terrain[r][c] = PILLAR_T if D else BLOCK
                    elif not D and L and R:
                        terrain[r][c] = STRIP_M
                    elif not D and not L:
                        terrain[r][c] = STRIP_L
                    elif not D and not R:
                        terrain[r][c] = STRIP_R
                    elif not L:
                        terrain[r][c] = GRASS_TL
                    elif not R:
                        terrain[r][c] = GRASS_TR
                    else:
                        terrain[r][c] = GRASS_T
                elif not D:
                    if not L and not R:
                        terrain[r][c] = PILLAR_B
                    else:
                        terrain[r][c] = CEIL_L if not L else CEIL_R if not R else CEIL
                elif not L and not R:
                    terrain[r][c] = PILLAR_M
                elif not L:
                    terrain[r][c] = WALL_L
                elif not R:
                    terrain[r][c] = WALL_R
                elif not g(c - 1, r - 1):
                    terrain[r][c] = INNER_TL
                elif not g(c + 1, r - 1):
                    terrain[r][c] = INNER_TR
                elif not g(c - 1, r + 1):
                    terrain[r][c] = INNER_BL
                elif not g(c + 1, r + 1):
                    terrain[r][c] = INNER_BR
                else:
                    depth = 0
                    while depth < 6 and g(c, r - depth - 1) and grid.at(c, r - depth - 1) in GROUND | HIDDEN:
                        depth += 1
                    if depth >= 4:
                        terrain[r][c] = FILL_DEEP
                    else:
                        x = rng.random()
                        terrain[r][c] = (FILL_STONES if x < 0.08 else FILL_ROOTS if x < 0.14 and depth <= 2
                                         else FILL_FOSSIL if x < 0.16 and depth >= 2 else FILL)
            elif ch == "=":
                lp, rp = grid.at(c - 1, r, ".") == "=", grid.at(c + 1, r, ".") == "="
                terrain[r][c] = (PLANK_M if lp and rp else PLANK_R if lp else PLANK_L if rp else PLANK_1)
            elif ch == "B":
                terrain[r][c] = BRICK_MOSS if grid.at(c, r - 1, ".") not in BLOCKS | GROUND else BRICK
            elif ch == "S":
                terrain[r][c] = STONE
            elif ch == "X":
                terrain[r][c] = CRATE
            elif ch in KIND_TILES:
                terrain[r][c] = KIND_TILES[ch]
    for r in range(H):  # a hidden passage: its ground look goes in front, nothing collides
        for c in range(W):
            if grid.rows[r][c] in HIDDEN:
                fg[r][c], terrain[r][c] = COVER + terrain[r][c], -1

    # background walls (objects and decoration in front of a wall keep the wall behind them)
    def bg_char(c: int, r: int) -> str:
        ch = grid.rows[r][c]
        if ch in BG_CHARS:
            return ch
        if ch in HIDDEN:
            return ":"
        if ch not in OVERLAY:
            return ""
        found = []
        for step in (-1, 1):
            cc = c + step
            while 0 <= cc < W and grid.rows[r][cc] in OVERLAY:
                cc += step
            near = grid.rows[r][cc] if 0 <= cc < W else ""
            found.append(":" if near in HIDDEN else near)  # a hidden passage has earth behind it
        if found[0] == found[1] and found[0] in BG_CHARS:
            return found[0]
        # a column of overlay chars inside a wall: look up/down too
        up, down = grid.at(c, r - 1, "."), grid.at(c, r + 1, ".")
        if up == down and up in BG_CHARS:
            return up
        return ""

    bgc = [[bg_char(c, r) for c in range(W)] for r in range(H)]
    for r in range(H):
        for c in range(W):
            ch = bgc[r][c]
            if not ch:
                continue
            top = r == 0 or bgc[r - 1][c] != ch and not _ground(grid.rows[r - 1][c])
            if ch == ":":
                bg[r][c] = BG_DIRT_T if top else BG_DIRT
            else:
                if top:
                    bg[r][c] = BG_BRICK_T
                else:
                    x = rng.random()
                    bg[r][c] = BG_WINDOW if x < 0.07 else BG_COLUMN if x < 0.12 else BG_BRICK
            if level.world == "tower":  # the tower's own backdrop (its inner wall, windows, light) shows
                bg[r][c] = -1

    # foreground decoration from the layout
    for r in range(H):
        for c in range(W):
            ch = grid.rows[r][c]
            if ch == "f":
                lf, rf = grid.at(c - 1, r, ".") == "f", grid.at(c + 1, r, ".") == "f"
                fg[r][c] = FENCE_M if lf and rf else FENCE_R if lf else FENCE_L
            elif ch == "|":
                above, below = grid.at(c, r - 1, "."), grid.at(c, r + 1, ".")
                fg[r][c] = VINE_T if above != "|" else VINE_B if below != "|" else VINE_M
            elif ch == "T":
                fg[r][c] = TORCH
            elif ch == "!":
                fg[r][c] = SIGN
            elif ch == ">":
                fg[r][c] = SIGN_RIGHT
            elif ch == "<":
                fg[r][c] = SIGN_LEFT
            elif ch == "^":
                fg[r][c] = SPIKES_UP
            elif ch == "v":
                fg[r][c] = SPIKES_DOWN
            elif ch == "(":
                fg[r][c] = SPIKES_LEFT
            elif ch == ")":
                fg[r][c] = SPIKES_RIGHT
            elif ch == "~":
                fg[r][c] = WATER
            elif ch == "w":
                fg[r][c] = WATER_FILL

    # scattered plants and rocks on free grass tops (fixed seed)
    busy = set("PGK!^f|T><~wsj") | BLOCKS | {"o"} | set(ENEMIES) | set(TURRETS) | set(KIND_TILES)
    c = 0
    for r in range(1, H):
        c = 0
        while c < W:
            if (terrain[r][c] in (GRASS_T, GRASS_TL, GRASS_TR) and grid.rows[r - 1][c] == "."
                    and fg[r - 1][c] < 0 and rng.random() < level.decor):
                near_busy = any(grid.at(c + d, r - 1, ".") in busy for d in (-1, 0, 1))
                if not near_busy:
                    x = rng.random()
                    can_pair = (c + 1 < W and terrain[r][c + 1] in (GRASS_T, GRASS_TR)
                                and grid.rows[r - 1][c + 1] == "." and fg[r - 1][c + 1] < 0)
                    if x < 0.12 and can_pair:
                        fg[r - 1][c], fg[r - 1][c + 1] = BUSH_L, BUSH_R
                        c += 3
                        continue
                    fg[r - 1][c] = rng.choice(
                        [TUFT_A, TUFT_A, TUFT_B, TUFT_B, TALL_GRASS, FL_RED, FL_YELLOW, FL_BLUE,
                         ROCK_S, ROCK_B, MUSH_R, MUSH_B, BUSH_S])
                    c += 2
                    continue
            c += 1
    return bg, terrain, fg


def meeting_order(grid: Grid, cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(column, row) cells in the order the player meets them: left to right in a level wider than tall,
    bottom to top in a tall one."""
    if grid.h > grid.w:
        return sorted(cells, key=lambda cr: (-cr[1], cr[0]))
    return sorted(cells)


def meeting_order_runs(grid: Grid, runs: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    order = {cr: i for i, cr in enumerate(meeting_order(grid, [(c, r) for c, r, _n in runs]))}
    return sorted(runs, key=lambda run: order[run[:2]])


def _settings(level: Level, what: str, cells: list, given: list, default):
    """One setting per placed character (``given`` in meeting order), or the default for all."""
    if given and len(given) != len(cells):
        raise SystemExit(f"{level.file}: {len(cells)} {what} in the layout but {len(given)} settings for them")
    return list(given) if given else [default() for _ in cells]


def _route_props(d: dict, paths: list, dx: float, dy: float, path, cx: float, cy: float) -> None:
    """A route (tiles) as Tiled properties of object ``d``: a polyline on the paths layer from (cx, cy), or
    dx/dy."""
    if path:
        pts = [(0.0, 0.0)] + [(ox * TS, oy * TS) for ox, oy in path]
        poly = dict(name=f"{d['name']} path", type="", x=cx, y=cy, points=pts)
        paths.append(poly)
        d["path_of"] = poly
    else:
        if dx:
            d["props"].append(("dx", "float", dx * TS))
        if dy:
            d["props"].append(("dy", "float", dy * TS))


def _runs(grid: Grid, ch: str, down: bool) -> list[tuple[int, int, int]]:
    """(column, row, length) of each run of ``ch``, along rows (or down columns)."""
    lines = ["".join(row[c] for row in grid.rows) for c in range(grid.w)] if down else grid.rows
    out = []
    for b, line in enumerate(lines):
        a = line.find(ch)
        while a >= 0:
            end = a
            while end < len(line) and line[end] == ch:
                end += 1
            out.append((b, a, end - a) if down else (a, b, end - a))
            a = line.find(ch, end)
    return out


CHECKPOINT_PASSAGE = 8  # tiles: a flag's box reaches this high above its floor, or up to the ceiling below that
SOLID_CHARS = GROUND | SLOPES | BLOCKS | {"c", "b", "$"}


def _passage_top(grid: Grid, c: int, r: int) -> int:
    """The top row of the passage over a flag standing on row ``r``'s bottom: the first row under a ceiling
    above it, at most ``CHECKPOINT_PASSAGE`` rows from its floor (at least the flag's two tiles)."""
    top = r - 1
    while top - 1 >= 0 and r + 1 - (top - 1) <= CHECKPOINT_PASSAGE and grid.at(c, top - 1, ".") not in SOLID_CHARS:
        top -= 1
    return top


def build_objects(level: Level, grid: Grid):
    """(objects, paths) as lists of dicts ready to write; ids assigned later."""
    objs: list[dict] = []
    paths: list[dict] = []
    found: dict[str, list[tuple[int, int]]] = {}
    for c in range(grid.w):
        for r in range(grid.h):
            ch = grid.rows[r][c]
            x, y = c * TS, r * TS
            if ch == "P":
                objs.append(dict(name="start", type="spawn", x=x + 8, y=y + 16, point=True))
            elif ch == "G":
                objs.append(dict(name="goal", type="goal", x=x - 4, y=y - 16, w=24, h=32))
            elif ch in "oO":
                objs.append(dict(name="" if ch == "o" else "hidden", type="coin", x=x + 2, y=y + 2, w=12, h=12))
            elif ch in "K!sj*" or ch in ENEMIES or ch in TURRETS:
                found.setdefault("e" if ch in ENEMIES else "t" if ch in TURRETS else ch, []).append((c, r))
    for i, (c, r) in enumerate(meeting_order(grid, found.get("K", []))):
        top = _passage_top(grid, c, r)  # the flag's box covers the passage above it: jumping over still takes it
        objs.append(dict(name=f"checkpoint {i + 1}", type="checkpoint", x=c * TS, y=top * TS, w=16,
                         h=(r + 1 - top) * TS))
    signs = meeting_order(grid, found.get("!", []))
    if len(signs) != len(level.signs):
        raise SystemExit(f"{level.file}: {len(signs)} signposts in the layout but {len(level.signs)} messages")
    for i, ((c, r), msg) in enumerate(zip(signs, level.signs, strict=True)):
        objs.append(dict(name=f"sign {i + 1}", type="trigger", x=c * TS - 16, y=(r - 1) * TS, w=48, h=32,
                         props=[("message", "string", msg)]))
    # spikes: merge runs into one hazard each; a fair box is the 10 px of the spikes nearest their base
    for ch, down in (("^", False), ("v", False), ("(", True), (")", True)):
        for c, r, n in _runs(grid, ch, down):
            x, y = c * TS, r * TS
            if down:  # on a wall: a column of spikes
                objs.append(dict(name="spikes", type="hazard", x=x + (6 if ch == "(" else 0), y=y + 2, w=10,
                                 h=n * TS - 4))
            else:
                objs.append(dict(name="spikes", type="hazard", x=x + 2, y=y + (6 if ch == "^" else 0),
                                 w=n * TS - 4, h=10))
    for i, p in enumerate(level.platforms):
        d = dict(name=p.name or f"platform {i + 1}", type="platform", x=p.x * TS, y=p.y * TS, w=p.w * TS, h=8,
                 props=[])
        _route_props(d, paths, p.dx, p.dy, p.path, d["x"] + d["w"] / 2, d["y"] + 4)
        d["props"].append(("speed", "float", p.speed))
        if p.wait:
            d["props"].append(("wait", "float", p.wait))
        if p.one_way:
            d["props"].append(("one_way", "bool", "true"))
        objs.append(d)
    objs += _enemies(level, grid, meeting_order(grid, found.get("e", [])), paths)
    guns = meeting_order(grid, found.get("t", []))
    for i, ((c, r), gun) in enumerate(zip(guns, _settings(level, "turrets", guns, level.guns, Gun), strict=True)):
        props = [("direction", "string", TURRETS[grid.rows[r][c]])]
        for name, value, default in (("period", gun.period, 2.0), ("speed", gun.speed, 120.0),
                                     ("delay", gun.delay, 0.0)):
            if value != default:
                props.append((name, "float", value))
        objs.append(dict(name=gun.name or f"turret {i + 1}", type="turret", x=c * TS + 8, y=r * TS + 8,
                         point=True, props=props))
    springs = meeting_order(grid, found.get("s", []))
    for i, ((c, r), height) in enumerate(zip(springs, _settings(level, "springs", springs, level.springs,
                                                                  lambda: 4.0), strict=True)):
        objs.append(dict(name=f"spring {i + 1}", type="spring", x=c * TS + 8, y=r * TS + 16, point=True,
                         props=[("height", "float", height * TS)] if height * TS != 64 else []))
    crystals = meeting_order(grid, found.get("*", []))
    for i, ((c, r), respawn) in enumerate(zip(crystals, _settings(level, "refills", crystals, level.refills,
                                                                  lambda: 2.5), strict=True)):
        objs.append(dict(name=f"crystal {i + 1}", type="refill", x=c * TS + 8, y=r * TS + 8, point=True,
                         props=[("respawn", "float", respawn)] if respawn != 2.5 else []))
    for i, (c, r, n) in enumerate(meeting_order_runs(grid, _runs(grid, "j", True))):
        objs.append(dict(name=f"vine {i + 1}", type="vine", x=c * TS + 8, y=r * TS, point=True,
                         props=[("length", "float", n * TS)] if n * TS != 48 else []))
    return objs, paths


def _enemies(level: Level, grid: Grid, cells: list[tuple[int, int]], paths: list) -> list[dict]:
    out = []
    for i, ((c, r), foe) in enumerate(zip(cells, _settings(level, "enemies", cells, level.foes, Foe), strict=True)):
        kind = ENEMIES[grid.rows[r][c]]
        if foe.kind != kind:
            raise SystemExit(f"{level.file}: enemy {i + 1} at column {c}, row {r} is a {kind} in the layout but "
                             f"a {foe.kind} in its settings")
        name = foe.name or f"{kind} {i + 1}"
        # a flyer floats centred in its tile (its 14 x 10 box's feet 3 px above the tile's bottom)
        feet = r * TS + (13 if kind == "flyer" else 16)
        d = dict(name=name, type="enemy", x=c * TS + 8, y=feet, point=True, props=[("kind", "string", kind)])
        if foe.facing != "left":
            d["props"].append(("facing", "string", foe.facing))
        for prop, value in (("speed", foe.speed), ("hop_height", foe.hop_height), ("hop_period", foe.hop_period)):
            if value is not None:
                d["props"].append((prop, "float", value))
        if kind == "flyer":
            if not (foe.path or foe.dx or foe.dy):
                raise SystemExit(f"{level.file}: flyer {name} needs a route (dx, dy or path)")
            _route_props(d, paths, foe.dx, foe.dy, foe.path, d["x"], feet - 5)
            if foe.wait:
                d["props"].append(("wait", "float", foe.wait))
        out.append(d)
    return out


def _num(v: float) -> str:
    return f"{v:g}"


def _csv(rows: list[list[int]]) -> str:
    lines = [",".join(str(t + 1 if t >= 0 else 0) for t in row) for row in rows]
    return ",\n".join(lines)


# Until the game plays springs (issue 12's gameplay), each spring also gets a ladder of one-way planks up to
# its apex, so every level can be finished and checked now. Set False once springs launch the player.
SPRING_STAND_INS = True


def add_spring_stand_ins(level: Level, grid: Grid) -> None:
    """A one-way plank every other row above each spring, from two rows up to the row of its apex."""
    cells = meeting_order(grid, [(c, r) for r in range(grid.h) for c in range(grid.w) if grid.rows[r][c] == "s"])
    for (c, r), height in zip(cells, _settings(level, "springs", cells, level.springs, lambda: 4.0), strict=True):
        apex = int(r + 0.5 - height)
        for k in range(r - 2, max(apex, 0) - 1, -2):
            if grid.rows[k][c] in BG_CHARS | {"."}:
                grid.rows[k] = grid.rows[k][:c] + "=" + grid.rows[k][c + 1:]


def write_tmx(level: Level) -> str:
    grid = Grid(level.layout)
    if SPRING_STAND_INS:
        add_spring_stand_ins(level, grid)
    bg, terrain, decor = build_tiles(level, grid)
    front = lambda t: t in FOREGROUND or t >= COVER  # noqa: E731
    behind = [[t if not front(t) else -1 for t in row] for row in decor]
    fg = [[t if front(t) else -1 for t in row] for row in decor]
    objs, paths = build_objects(level, grid)
    W, H = grid.w, grid.h
    hpx = H * TS
    # ids: paths first so references are easy to read in Tiled
    next_id = 1
    for p in paths:
        p["id"] = next_id
        next_id += 1
    for o in objs:
        o["id"] = next_id
        next_id += 1
        if "path_of" in o:
            o["props"].insert(0, ("path", "object", o.pop("path_of")["id"]))

    def prop_xml(props, indent):
        if not props:
            return ""
        out = [f"{indent}<properties>"]
        for name, ptype, value in props:
            t = "" if ptype == "string" else f' type="{ptype}"'
            v = value if isinstance(value, str) else _num(value)
            out.append(f"{indent} <property name={quoteattr(name)}{t} value={quoteattr(v)}/>")
        out.append(f"{indent}</properties>")
        return "\n".join(out) + "\n"

    def obj_xml(o):
        attrs = f'id="{o["id"]}"'
        if o.get("name"):
            attrs += f" name={quoteattr(o['name'])}"
        if o.get("type"):
            attrs += f' type="{o["type"]}"'
        attrs += f' x="{_num(o["x"])}" y="{_num(o["y"])}"'
        if "w" in o:
            attrs += f' width="{_num(o["w"])}" height="{_num(o["h"])}"'
        body = prop_xml(o.get("props"), "   ")
        if o.get("point"):
            body += "   <point/>\n"
        if "points" in o:
            pts = " ".join(f"{_num(a)},{_num(b)}" for a, b in o["points"])
            body += f'   <polyline points="{pts}"/>\n'
        if not body:
            return f"  <object {attrs}/>\n"
        return f"  <object {attrs}>\n{body}  </object>\n"

    max_y = max(0, hpx - 270)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    out.append(f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
               f'width="{W}" height="{H}" tilewidth="{TS}" tileheight="{TS}" infinite="0" '
               f'backgroundcolor="{WORLD_LAYERS[level.world or "dusk"][2]}" nextlayerid="9" nextobjectid="{next_id}">\n')
    props = [("title", "string", level.title)]
    if level.next:
        props.append(("next", "file", level.next))
    if level.music:
        props.append(("music", "string", level.music))
    if level.fall_limit:
        props.append(("fall_limit", "float", level.fall_limit))
    world = level.world or "dusk"
    props.append(("world", "string", world))
    if level.moves:
        props.append(("moves", "string", level.moves))
    out.append(prop_xml(props, " "))
    out.append(' <tileset firstgid="1" source="tileset.tsx"/>\n')
    if any(t >= COVER for row in fg for t in row):
        out.append(f' <tileset firstgid="{COVER + 1}" source="cover.tsx"/>\n')
    # parallax backgrounds: the image's bottom meets the view's bottom when the camera is at the map bottom;
    # the tower's pictures repeat up and down (a tall shaft)
    far, near, _colour, tall = WORLD_LAYERS[world]
    rep = ' repeaty="1"' if tall else ""
    out.append(f' <imagelayer id="1" name="sky" offsety="{_num(round(max_y * 0.1))}" parallaxx="0.15" '
               f'parallaxy="{"0.2" if tall else "0.1"}" repeatx="1"{rep}>\n'
               f'  <image source="../assets/{far}" width="480" height="270"/>\n </imagelayer>\n')
    out.append(f' <imagelayer id="2" name="hills" offsety="{_num(round(max_y * 0.3))}" parallaxx="0.45" '
               f'parallaxy="{"0.5" if tall else "0.3"}" repeatx="1"{rep}>\n'
               f'  <image source="../assets/{near}" width="480" height="270"/>\n </imagelayer>\n')
    for lid, name, data in ((3, "background", bg), (4, "terrain", terrain), (8, "props", behind)):
        out.append(f' <layer id="{lid}" name="{name}" width="{W}" height="{H}">\n'
                   f'  <data encoding="csv">\n{_csv(data)}\n</data>\n </layer>\n')
    out.append(' <objectgroup id="5" name="paths" color="#8fd3ff">\n')
    out.extend(obj_xml(p) for p in paths)
    out.append(' </objectgroup>\n')
    out.append(' <objectgroup id="6" name="objects">\n')
    out.extend(obj_xml(o) for o in objs)
    out.append(' </objectgroup>\n')
    out.append(f' <layer id="7" name="foreground" width="{W}" height="{H}">\n'
               f'  <data encoding="csv">\n{_csv(fg)}\n</data>\n </layer>\n')
    out.append('</map>\n')
    return "".join(out)


# =========================================================================================================
# The Tiled project: our object classes, so designers pick them from a list
# =========================================================================================================
# the covers of hidden passages: the terrain art again, with no collision (its tiles have no properties)
COVER_TSX = f"""<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="cover" tilewidth="{TS}" tileheight="{TS}" tilecount="{TILE_COUNT}" columns="16">
 <image source="../assets/tiles.png" width="256" height="96"/>
</tileset>
"""


def project() -> dict:
    """The Tiled project: its classes and enums come from the table of object kinds (game/files/levelkinds.py)."""
    return {
        "automappingRulesFile": "",
        "commands": [],
        "compatibilityVersion": 1100,
        "extensionsPath": "extensions",
        "folders": ["."],
        "properties": [],
        "propertyTypes": tiled_property_types(),
    }


def levels_doc(text: str) -> str:
    """docs/levels.md with its generated list of object kinds replaced by a fresh one."""
    head, rest = text.split(DOCS_BEGIN, 1)
    return head + docs_section() + rest.split(DOCS_END + "\n", 1)[1]


def levels() -> list[Level]:
    """Every level in play order, from tools/level_maps.py (which builds on this module's records)."""
    sys.modules.setdefault("make_levels", sys.modules[__name__])  # run as a script: one module, not two
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    import level_maps

    out = level_maps.levels()
    for lv in out:
        if lv.world is None:
            lv.world = getattr(level_maps, "WORLDS", {}).get(lv.file, "dusk")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    ap.add_argument("--out", type=Path, default=LEVELS, help="output folder (default levels/)")
    args = ap.parse_args(argv)
    files = {lv.file: write_tmx(lv) for lv in levels()}
    files["platformer.tiled-project"] = json.dumps(project(), indent=4) + "\n"
    files["cover.tsx"] = COVER_TSX
    doc = ROOT / "docs" / "levels.md"
    files[doc if args.out == LEVELS else "levels.md"] = levels_doc(doc.read_text(encoding="utf-8"))
    bad = 0
    for name, text in files.items():
        path = args.out / name  # (an absolute name stays itself)
        if args.check:
            if not path.exists() or path.read_text() != text:
                print(f"{path}: differs from a fresh build (run python tools/make_levels.py)")
                bad = 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {path}")
    return bad


if __name__ == "__main__":
    sys.exit(main())
