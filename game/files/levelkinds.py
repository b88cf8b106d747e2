"""What a level holds: its records, the limits, and one table of object kinds (Tiled class -> properties
with type, default, unit, range and meaning -> reader).

``KINDS`` drives the loader's checks and one-line errors (``game/files/levelfile.py``), the list of classes and
properties in ``docs/levels.md`` and the class definitions in ``levels/platformer.tiled-project`` (both
written by ``python tools/make_levels.py``; tests keep them in step). Adding a kind touches this module
only: its record, its reader, its row in ``KINDS`` and the ``LevelData`` list it fills.

A reader turns one object into its record. It gets a view of the object (:class:`Obj`) whose properties
already have their types, ranges and choices checked (a property left out has its default, as Tiled
leaves out a property still at its class default); it checks only what spans properties.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

__all__ = ["CameraZone", "PLAYER_BOX",
    "Limits", "LIMITS", "Area", "PlatformSpec", "EnemySpec", "TurretSpec", "SpringSpec", "CrumbleSpec",
    "BreakableSpec", "VineSpec", "RefillSpec", "LevelData", "Prop", "Kind", "KINDS", "KIND_BY_NAME", "ENEMY_SIZE",
    "DIRECTIONS", "REFILL_SIZE", "refill_box", "docs_section", "tiled_property_types", "MOVES",
]


PLAYER_BOX = (10, 14)  # px, the player's collision box (w, h): the session's, and the linter's standing check


@dataclass(frozen=True)
class Limits:
    """What a map may hold; each is checked before anything is allocated for it (docs/reliability.md)."""

    map_bytes: int = 32 << 20  # bytes, the .tmx file
    tileset_bytes: int = 8 << 20  # bytes, one .tsx file
    map_side: int = 4096  # tiles, the map's width and its height
    map_tiles: int = 1 << 20  # tiles, width x height (e.g. 1024 x 1024 or 4096 x 256)
    map_area: int = 1 << 28  # px^2, the map's width x height in px (e.g. 16384 x 16384 px)
    tile_size: int = 256  # px, the map's tiles (and any tileset's)
    layer_tiles: int = 1 << 22  # tiles in all tile layers together (e.g. 4 layers of 1024 x 1024)
    tileset_tiles: int = 1 << 16  # tiles in one tileset
    group_depth: int = 32  # group layers inside group layers
    objects: int = 10_000  # objects in the map
    margin: float = 1024.0  # px, how far outside the map an object the game uses may reach (a hard limit)
    outside: float = 64.0  # px, how far outside the map an object the game uses may reach before the map
    #                        linter calls it misplaced (a hazard strip below the floor, a platform's edge)
    area_cover: int = 16  # goals, checkpoints, hazards, coins and triggers together cover at most this
    #                       many times the map's area
    platforms: int = 32  # moving platforms (each is stepped and tested by every mover near it: see docs/reliability.md)
    platform_speed: float = 2000.0  # px/s
    platform_wait: float = 3600.0  # s at each end of a platform's route
    path_points: int = 256  # points in a platform's path polyline
    enemies: int = 64  # enemies in the map
    turrets: int = 32  # turrets in the map
    vines: int = 16  # vines in the map
    vine_length: float = 256.0  # px, the longest vine (its work grows with its length: a joint every 8 px)
    refills: int = 256  # refill crystals in the map
    body_side: float = 256.0  # px, the longest side of an enemy, turret or spring
    kind_tiles: int = 10_000  # crumble and breakable tiles placed in the tile layers together


LIMITS = Limits()


# -- records ----------------------------------------------------------------------------------------------

@dataclass
class Area:
    """A rectangle object in map px (top-left ``x, y``). Points are 0-size rects at the point;
    tile objects use their rect with ``y`` at the top. ``gid`` is the pytmx gid of a tile object."""

    x: float
    y: float
    w: float
    h: float
    name: str
    id: int
    props: dict
    gid: int | None = None

    @property
    def bottom_centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2.0, self.y + self.h)


@dataclass
class PlatformSpec:
    """A moving platform: its rect at the start and the top-left positions it travels through."""

    x: float
    y: float
    w: float
    h: float
    name: str
    id: int
    points: list[tuple[float, float]]  # absolute top-left positions along the route, first = start
    speed: float  # px/s
    wait: float  # s at each end
    one_way: bool
    gid: int | None = None


@dataclass(frozen=True)
class EnemySpec:
    """An enemy at the start of the level: its body box and how it moves."""

    id: int
    name: str
    kind: str  # walker | hopper | flyer
    x: float  # px, top-left of the body box
    y: float  # px
    w: float  # px
    h: float  # px
    facing: int  # +1 right, -1 left: the way it starts walking, hopping or looking
    speed: float  # px/s: walking (walker), sideways during a hop (hopper), along the route (flyer)
    hop_height: float  # px, apex of a hop above its take-off (hopper)
    hop_period: float  # s on the ground between two hops (hopper)
    route: tuple[tuple[float, float], ...]  # flyer: top-left positions it patrols (ping-pong), first = start
    wait: float  # s at each end of the route (flyer)


DIRECTIONS = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


@dataclass(frozen=True)
class TurretSpec:
    """A fixed gun firing bullets in a straight line."""

    id: int
    name: str
    x: float  # px, top-left of the turret's box
    y: float  # px
    w: float  # px
    h: float  # px
    direction: str  # left | right | up | down
    period: float  # s between two shots
    speed: float  # px/s, the bullets' speed
    delay: float  # s from the level's start to the first shot

    @property
    def aim(self) -> tuple[int, int]:
        """The unit vector bullets fly along."""
        return DIRECTIONS[self.direction]

    @property
    def muzzle(self) -> tuple[float, float]:
        """Where a bullet starts (px): the middle of the side the turret faces."""
        ax, ay = self.aim
        return (self.x + self.w * (1 + ax) / 2.0, self.y + self.h * (1 + ay) / 2.0)


@dataclass(frozen=True)
class SpringSpec:
    """A spring: a body landing on its top is launched straight up."""

    id: int
    name: str
    x: float  # px, top-left of the spring's box (its top is what is landed on)
    y: float  # px
    w: float  # px
    h: float  # px
    height: float  # px, the apex a launched body reaches above the spring's top


@dataclass(frozen=True)
class CrumbleSpec:
    """Ground that shakes when stood on, falls after ``delay`` and comes back after ``respawn``.
    An object (``cells`` empty) is a block of the game's own; tiles (``cells``) are a run of one tile
    layer's cells on one row, which fall together."""

    id: int  # object id; 0 for tiles
    name: str
    x: float  # px, top-left of the block (tiles: of the run)
    y: float  # px
    w: float  # px
    h: float  # px
    delay: float  # s from the first touch on its top to the fall
    respawn: float  # s from the fall to its return; 0: it never comes back
    one_way: bool  # stood on from above only (tiles: the tile's collision is one_way)
    layer: str = ""  # tiles: the tile layer the cells are in
    cells: tuple[tuple[int, int], ...] = ()  # tiles: (column, row) of each cell


@dataclass(frozen=True)
class BreakableSpec:
    """A block broken by a head bump from below. An object (``cells`` empty) is a block of the game's own;
    a tile is one cell of a tile layer."""

    id: int  # object id; 0 for tiles
    name: str
    x: float  # px, top-left of the block
    y: float  # px
    w: float  # px
    h: float  # px
    coin: bool  # a coin pops out when it breaks
    layer: str = ""  # tiles: the tile layer the cell is in
    cells: tuple[tuple[int, int], ...] = ()  # tiles: ((column, row),)


@dataclass(frozen=True)
class VineSpec:
    """A vine: a rope hanging from a fixed top point."""

    id: int
    name: str
    x: float  # px, the top (anchor) point
    y: float  # px
    length: float  # px, from the top to the free end


class CameraZone(NamedTuple):
    """A camera zone (class ``camera``): while the player's centre is inside, the view stays within the
    rectangle (``bound``) or is held centred on it (``lock``), as Celeste's rooms do."""

    x: float  # px, top-left
    y: float
    w: float  # px
    h: float
    mode: str  # "bound" or "lock"
    name: str
    id: int


@dataclass(frozen=True)
class RefillSpec:
    """A dash refill crystal: touching it gives back the dashes spent; it comes back ``respawn`` s later."""

    id: int
    name: str
    x: float  # px, top-left of its box (a point: the point, its box centred there; see rules/refills.py)
    y: float  # px
    w: float  # px; 0 for a point
    h: float  # px
    respawn: float  # s from its use to its return; 0: not before the player's next respawn


REFILL_SIZE = 12.0  # px, the side of a point refill's box (the crystal's art is 12 x 12 px in a 16 px tile)


def refill_box(spec) -> tuple[float, float, float, float]:
    """``(x, y, w, h)`` px of a refill: its rectangle, or a ``REFILL_SIZE`` square centred on its point."""
    if spec.w <= 0 or spec.h <= 0:
        half = REFILL_SIZE / 2.0
        return spec.x - half, spec.y - half, REFILL_SIZE, REFILL_SIZE
    return spec.x, spec.y, spec.w, spec.h


@dataclass
class LevelData:
    path: Path
    name: str  # file name, e.g. "01_first_steps.tmx"
    title: str
    next: str | None
    tile_size: int
    cols: int
    rows: int
    width: int  # px
    height: int  # px
    grid: Any  # engine.TileGrid
    spawn: tuple[float, float]  # feet point (bottom-centre of the player box)
    goals: list[Area] = field(default_factory=list)
    checkpoints: list[Area] = field(default_factory=list)
    hazards: list[Area] = field(default_factory=list)
    coins: list[Area] = field(default_factory=list)
    triggers: list[Area] = field(default_factory=list)  # props["message"]: optional signpost text
    platforms: list[PlatformSpec] = field(default_factory=list)
    enemies: list[EnemySpec] = field(default_factory=list)
    turrets: list[TurretSpec] = field(default_factory=list)
    springs: list[SpringSpec] = field(default_factory=list)
    crumbles: list[CrumbleSpec] = field(default_factory=list)
    breakables: list[BreakableSpec] = field(default_factory=list)
    vines: list[VineSpec] = field(default_factory=list)
    refills: list[RefillSpec] = field(default_factory=list)
    tmx: Any = None  # pytmx.TiledMap, for rendering
    layer_order: list[str] = field(default_factory=list)  # layer names in drawing order, groups flattened
    warnings: list[str] = field(default_factory=list)  # one line each: what the loader ignored (unknown classes)
    fall_limit: float | None = None  # px: falling this far below the respawn point kills (map property)
    world: str = "dusk"  # the map's ``world`` property: which of WORLDS it is drawn as
    cameras: list[CameraZone] = field(default_factory=list)  # camera zones, in the map's order
    moves: tuple[str, ...] = ()  # the map's ``moves`` property: the moves of MOVES it switches on, in MOVES order


# The moves a level grants the player (its ``moves`` map property, names joined by commas): name -> (the
# feel's switch it turns on, what it does, the window's line the first time the campaign grants it: its
# {action} prompts name the key or pad button in use). The values (speeds, times) stay the feel file's
# [wall] / [dash] tables; a level only switches them on, under any feel (game/rules/moves.py). The campaign
# grants them in order and never takes one back: each level lists every move the ones before it gave.
MOVES: dict[str, tuple[str, str, str]] = {
    "wall_slide": ("wall.slide", "wall slide: hold toward a wall while falling to slide down it slowly",
                   "hold toward a wall as you fall to slide"),
    "wall_jump": ("wall.jump", "wall jump: press Jump in the air beside a wall to kick off it",
                  "{jump} in the air beside a wall: wall jump"),
    "dash": ("dash.enabled", "dash: press Dash to burst the way you hold; landing or a crystal gives it back",
             "{dash} + a direction: dash (landing or a crystal gives it back)"),
}


# The visual worlds a map may choose with its ``world`` property (game/window/render/worlds.py draws them;
# tools/make_art.py paints their backdrops): name -> what it looks like (docs/levels.md).
WORLDS: dict[str, str] = {
    "dusk": "a meadow at dusk: purple sky, setting sun, forested hills; green grass on brown earth",
    "day": "hills by day: blue sky, clouds, bright green hills; fresh grass on warm earth",
    "tower": "inside a tower: brick walls, tall moonlit windows, pillars and shafts of light; moss on stone",
    "night": "a snowy summit at night: moon, stars, white peaks, snowy pines; snow on frozen rock",
}


# -- the table ----------------------------------------------------------------------------------------------

class Prop(NamedTuple):
    name: str
    type: str  # Tiled property type: float, int, bool, string or object (an int property is a float's too)
    default: Any
    unit: str  # "" for none
    lo: float | None  # smallest value (None: no bound)
    hi: float | None  # largest value
    doc: str
    lo_open: bool = False  # True: the value must be above ``lo``
    choices: tuple[str, ...] = ()  # a string property: its allowed values (an enum in Tiled)
    only: tuple[str, ...] = ()  # applies only when the kind's ``selector`` property has one of these values
    tiles: bool = True  # False: objects only (on a tile, something else decides it)
    allowed: str = ""  # the docs' "allowed" column when the range says too little


def _prop(name: str, type: str, default: Any, doc: str, unit: str = "", lo: float | None = None,
          hi: float | None = None, **extra) -> Prop:
    return Prop(name, type, default, unit, lo, hi, doc, **extra)


class Obj(Protocol):
    """What a reader sees of one object (or of a run of tiles, ``shape == "tiles"``)."""

    id: int  # Tiled object id; 0 for tiles
    name: str
    x: float  # px, top-left (a point: the point)
    y: float
    w: float  # px; 0 for a point
    h: float
    shape: str  # "point", "rect" (rectangle or ellipse), "tile" (a tile object) or "tiles" (tile layer cells)
    props: dict  # every property as written in the map, unknown ones too
    layer: str  # "tiles": the tile layer
    cells: tuple  # "tiles": (column, row) of each cell
    collision: str  # "tiles": the tile's collision
    tile_size: int  # px, the map's tiles

    def __getitem__(self, name: str) -> Any: ...  # a table property: its checked value or its default

    def given(self, name: str) -> bool: ...  # the map sets this property

    def fail(self, message: str) -> Exception: ...  # a LevelError naming the file and the object

    def box(self, size: tuple[float, float], anchor: str) -> tuple[float, float, float, float]: ...
    # (x, y, w, h): a rectangle as drawn; a point is a box of ``size`` with its bottom-centre ("feet")
    # or its centre ("centre") on the point

    def route(self, start: tuple[float, float], size: tuple[float, float]) -> list[tuple[float, float]]: ...
    # top-left positions from ``start`` along the 'path' polyline or to start + (dx, dy), checked


class Kind(NamedTuple):
    name: str  # the Tiled class
    field: str  # the LevelData attribute it fills (a list, or the spawn point)
    shapes: frozenset  # "point" and/or "rect" (a rectangle, an ellipse or a tile object)
    colour: str  # Tiled's colour for the class, #aarrggbb
    doc: str  # what it does, one line (docs/levels.md)
    props: tuple[Prop, ...]
    read: Callable[[Obj], Any]  # the record
    notes: str = ""  # more for docs/levels.md, under the kind's property table
    one: bool = False  # exactly one per map
    most: str = ""  # the LIMITS field that caps how many a map may have
    covers: bool = False  # counts towards LIMITS.area_cover (a trigger area)
    side: bool = False  # a body of at most LIMITS.body_side px a side
    selector: str = ""  # the property that ``Prop.only`` refers to
    tiles: str = ""  # also a tileset tile's class: "run" (a row of cells is one record) or "cell"
    tile_collision: tuple[str, ...] = ()  # the collision such a tile must have
    decor: bool = False  # a tile object of this kind is drawn as its tile too (else the game draws it)

    def prop(self, name: str) -> Prop | None:
        return next((p for p in self.props if p.name == name), None)


POINT, RECT = frozenset({"point"}), frozenset({"rect"})
ANY = POINT | RECT
# px: an enemy drawn as a point gets this box, its bottom-centre on the point (the art: assets/README.md)
ENEMY_SIZE = {"walker": (14.0, 12.0), "hopper": (12.0, 12.0), "flyer": (14.0, 10.0)}


def _feet(o: Obj) -> tuple[float, float]:
    return (o.x, o.y) if o.shape == "point" else (o.x + o.w / 2.0, o.y + o.h)


def _area(o: Obj) -> Area:
    return Area(o.x, o.y, o.w, o.h, o.name, o.id, dict(o.props), None)


def _platform(o: Obj) -> PlatformSpec:
    points = o.route((o.x, o.y), (o.w, o.h))
    return PlatformSpec(o.x, o.y, o.w, o.h, o.name, o.id, points, o["speed"], o["wait"], o["one_way"], None)


def _enemy(o: Obj) -> EnemySpec:
    kind = o["kind"]
    x, y, w, h = o.box(ENEMY_SIZE[kind], "feet")
    route: tuple = ()
    if kind == "flyer":
        if o["speed"] <= 0:
            raise o.fail("is a flyer with speed = 0 px/s; a flyer patrols its route, so give it a speed above 0")
        route = tuple(o.route((x, y), (w, h)))
    return EnemySpec(o.id, o.name, kind, x, y, w, h, 1 if o["facing"] == "right" else -1, o["speed"],
                     o["hop_height"], o["hop_period"], route, o["wait"])


def _turret(o: Obj) -> TurretSpec:
    size = float(o.tile_size)
    x, y, w, h = o.box((size, size), "centre")
    return TurretSpec(o.id, o.name, x, y, w, h, o["direction"], o["period"], o["speed"], o["delay"])


def _spring(o: Obj) -> SpringSpec:
    x, y, w, h = o.box((float(o.tile_size), o.tile_size / 2.0), "feet")
    return SpringSpec(o.id, o.name, x, y, w, h, o["height"])


def _crumble(o: Obj) -> CrumbleSpec:
    one_way = o.collision == "one_way" if o.shape == "tiles" else o["one_way"]
    return CrumbleSpec(o.id, o.name, o.x, o.y, o.w, o.h, o["delay"], o["respawn"], one_way, o.layer, o.cells)


def _breakable(o: Obj) -> BreakableSpec:
    return BreakableSpec(o.id, o.name, o.x, o.y, o.w, o.h, o["coin"], o.layer, o.cells)


def _camera(o: Obj) -> CameraZone:
    return CameraZone(o.x, o.y, o.w, o.h, o["mode"], o.name, o.id)


def _vine(o: Obj) -> VineSpec:
    return VineSpec(o.id, o.name, o.x, o.y, o["length"])


def _refill(o: Obj) -> RefillSpec:
    return RefillSpec(o.id, o.name, o.x, o.y, o.w, o.h, o["respawn"])


_ROUTE_NOTES = (
    "either `path` or `dx`/`dy`, not both. One rule for both: a route that goes nowhere (a path whose points "
    f"are all the same, or `dx` = `dy` = 0) is an error. A path has at most {LIMITS.path_points} points, and "
    f"the route stays within the map and its {LIMITS.margin:,.0f} px margin.")


def _route_props(what: str) -> tuple[Prop, ...]:
    only = ("flyer",) if what == "flyer" else ()
    return (
        _prop("path", "object", 0, f"a **polyline** object (pick it with Tiled's object picker): the {what} "
              "travels the polyline's shape starting where it is placed, through each point's offset from the "
              "polyline's first point, then back", only=only),
        _prop("dx", "float", 0.0, f"without `path`: the {what} moves between its start and start + "
              "(`dx`, `dy`)", "px", only=only, allowed="any, within the map and its margin"),
        _prop("dy", "float", 0.0, "see `dx`", "px", only=only, allowed="any, within the map and its margin"),
        _prop("wait", "float", 0.0, "pause at each end of the route", "s", 0.0, LIMITS.platform_wait,
              only=only),
    )


KINDS: tuple[Kind, ...] = (
    Kind("spawn", "spawn", ANY, "#ff3e8948",
         "where the player starts: its feet are centred on the point (a rectangle: its bottom-centre), "
         "standing on the ground below it: a point drawn up to two tiles above the floor, or a little into "
         "it, is settled onto the floor. Exactly one per map.", (), _feet, one=True),
    Kind("goal", "goals", RECT, "#fffee761", "entering it completes the level", (), _area, covers=True),
    Kind("checkpoint", "checkpoints", RECT, "#ff63c74d",
         "touching its **rectangle** (never its column or row) moves the respawn point to its "
         "**bottom-centre**, where the flag's art stands, so sit its bottom edge on the floor (the player is "
         "settled onto the ground within two tiles of it, like the spawn). Where a player may jump over the "
         "flag, draw the rectangle over the whole passage (floor to ceiling). Each flag is taken once per "
         "life. Put flags where every route passes, on ground at least two tiles wide (or against a wall), "
         "with nothing that reaches the spot within 3 s of standing still.", (), _area, covers=True),
    Kind("hazard", "hazards", RECT, "#ffe43b44",
         "touching it kills the player, who respawns at the last checkpoint (or the spawn). A thin hazard "
         "with no tile art under it is drawn as a row of spikes",
         (_prop("hidden", "bool", False, "`true`: draw no spikes for it (the map's art shows the danger)"),),
         _area, covers=True, decor=True),
    Kind("coin", "coins", ANY, "#fffeae34",
         "touching it collects it, once per run (a point coin is picked up by an 8 x 8 px box centred on "
         "it)", (), _area, covers=True),
    Kind("trigger", "triggers", RECT, "#ff2ce8f5",
         "a sensor: reports `enter` and `exit` with its name; a `message` is shown on screen while the "
         "player is inside (signposts)",
         (_prop("message", "string", "", "text shown while the player is inside; empty: none"),),
         _area, covers=True),
    Kind("platform", "platforms", RECT, "#ffc0cbdc",
         "a moving platform: it moves back and forth (ping-pong) along its route from where it is placed, "
         "pausing `wait` seconds at each end",
         (
             _prop("speed", "float", 40.0, "along the route", "px/s", 0.0, LIMITS.platform_speed, lo_open=True),
             *_route_props("platform"),
             _prop("one_way", "bool", False, "`true`: the player can jump up through it and stand on it; "
                   "`false`: solid"),
         ), _platform, most="platforms",
         notes="Give a platform " + _ROUTE_NOTES + " The player rides platforms (carried in the same step), is "
               "pushed by them, and dies if a platform squeezes it against a wall or the floor. Jumping off a "
               "moving platform adds its velocity. Make platforms 8 px tall and a multiple of 16 px wide (the "
               "art's pieces)."),
    Kind("enemy", "enemies", ANY, "#ffb55088",
         "an enemy: landing on it from above kills it and bounces the player; any other touch kills the "
         "player. A point is where its feet stand (a box of its kind's size); a rectangle is its body",
         (
             _prop("kind", "string", "walker", "`walker` walks and turns at walls and ledges (it never walks "
                   "off an edge); `hopper` hops every `hop_period`; `flyer` patrols a route like a platform",
                   choices=("walker", "hopper", "flyer")),
             _prop("facing", "string", "left", "the way it first walks, hops or looks",
                   choices=("left", "right")),
             _prop("speed", "float", 40.0, "walking speed (walker), sideways speed in a hop (hopper, 0: hops "
                   "on the spot) or speed along the route (flyer, above 0)", "px/s", 0.0, 1000.0),
             _prop("hop_height", "float", 40.0, "apex of a hop above where it took off", "px", 0.0, 1024.0,
                   lo_open=True, only=("hopper",)),
             _prop("hop_period", "float", 1.0, "time on the ground between two hops", "s", 0.1, 60.0,
                   only=("hopper",)),
             *_route_props("flyer"),
         ), _enemy, most="enemies", side=True, selector="kind",
         notes="A point enemy's box: walker 14 x 12 px, hopper 12 x 12 px, flyer 14 x 10 px. A property "
               "of another kind (`hop_height` on a walker) is an error. A flyer needs a route: give it "
               + _ROUTE_NOTES),
    Kind("turret", "turrets", ANY, "#ff8b9bb4",
         "a solid gun fixed in place firing bullets in a straight line; bullets die on whatever solid stops "
         "them (tiles, platforms) and kill the player. It fires only while on screen or within a tile of it "
         "(the game's camera), on its own beat. A point is its centre (a one-tile box); a rectangle is its body",
         (
             _prop("direction", "string", "left", "the way it fires", choices=tuple(DIRECTIONS)),
             _prop("period", "float", 2.0, "time between two shots", "s", 0.1, 60.0),
             _prop("speed", "float", 120.0, "the bullets' speed", "px/s", 0.0, 2000.0, lo_open=True),
             _prop("delay", "float", 0.0, "time from the level's start to the first shot (turrets in a row "
                   "can take turns)", "s", 0.0, 60.0),
         ), _turret, most="turrets", side=True),
    Kind("spring", "springs", ANY, "#fff77622",
         "landing on its top launches the player (and enemies) straight up to `height`; it squashes when "
         "used. A point is where it stands (a box one tile wide and half a tile tall); a rectangle is its "
         "body",
         (_prop("height", "float", 64.0, "apex of the launch above the spring's top", "px", 0.0, 4096.0,
                lo_open=True),),
         _spring, side=True),
    Kind("crumble", "crumbles", RECT, "#ffb86f50",
         "ground that shakes when stood on, falls `delay` s later and comes back `respawn` s after that. An "
         "object is a block of its own; a tile with the class `crumble` in the tileset (and collision "
         "`solid` or `one_way`) crumbles wherever it is placed, a row of them together",
         (
             _prop("delay", "float", 0.5, "from the first step on it to its fall", "s", 0.0, 60.0),
             _prop("respawn", "float", 3.0, "from its fall to its return; 0: it never comes back", "s", 0.0,
                   3600.0),
             _prop("one_way", "bool", False, "objects: `true` stands on its top only, like a plank (a tile's "
                   "own collision decides this)", tiles=False),
         ), _crumble, tiles="run", tile_collision=("solid", "one_way")),
    Kind("breakable", "breakables", RECT, "#ffe4a672",
         "a block broken by the player's head bumping it from below. An object is a block of its own; a "
         "tile with the class `breakable` in the tileset (and collision `solid`) is one block per cell",
         (_prop("coin", "bool", False, "`true`: a coin pops out when it breaks"),),
         _breakable, tiles="cell", tile_collision=("solid",)),
    Kind("vine", "vines", POINT, "#ff265c42",
         "a rope of `length` px hanging from the point (its top), swaying, brushed aside by the player",
         (_prop("length", "float", 48.0, "from the top to the free end", "px", 0.0, LIMITS.vine_length,
                lo_open=True),),
         _vine, most="vines"),
    Kind("camera", "cameras", RECT, "#ff5a6988",
         "a camera zone (a room): while the player's centre is inside the rectangle, the view stays within "
         "it (`bound`: it still follows the player, stopping at the zone's edges, as Celeste's rooms do) or "
         "is held centred on it (`lock`: a fixed screen, an arena). The view eases into a zone and out of "
         "it; where zones overlap, the first one in the map's order wins. A side of the zone smaller than "
         "the view (480 x 270 px) centres the view on it along that side. The map's edges still bound the "
         "view (which may look 48 px past the bottom edge, where the ground goes on)",
         (_prop("mode", "string", "bound", "`bound`: keep the view inside; `lock`: hold it centred on the "
                "zone", choices=("bound", "lock")),),
         _camera),
    Kind("refill", "refills", ANY, "#ff8ef0e0",
         "a dash refill crystal: touching it with a dash spent gives the dashes back (`[dash]` in the feel); it "
         "is gone for `respawn` s, drawn dim. With a dash left the player passes through and it stays. A point "
         "is its centre (a 12 x 12 px box); a rectangle is its box",
         (_prop("respawn", "float", 2.5, "from its use to its return; 0: not before the player's next respawn",
                "s", 0.0, 600.0),),
         _refill, most="refills", side=True,
         notes="Every crystal is back when the player respawns. The route finder (`python -m game check`) "
               "knows them: which are gone, and for how long, is part of its state."),
)

KIND_BY_NAME = {k.name: k for k in KINDS}


# -- views of the table: docs/levels.md and the Tiled project ----------------------------------------------

DOCS_BEGIN = "<!-- object kinds: generated from game/files/levelkinds.py by `python tools/make_levels.py` -->"
DOCS_END = "<!-- end of object kinds -->"


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:g}"


def range_text(p: Prop) -> str:
    """A property's allowed values, as the docs say them."""
    if p.allowed:
        return p.allowed
    if p.choices:
        return ", ".join(f"`{c}`" for c in p.choices)
    if p.type == "bool":
        return "`true`, `false`"
    if p.type == "object":
        return "a polyline object"
    if p.lo is None and p.hi is None:
        return "any" if p.type in ("float", "int") else "any text"
    unit = f" {p.unit}" if p.unit else ""
    low = f"above {_number(p.lo)}" if p.lo_open else _number(p.lo)
    return f"{low} to {_number(p.hi)}{unit}" if not p.lo_open else f"{low}, at most {_number(p.hi)}{unit}"


def _shape_text(kind: Kind) -> str:
    words = (["point"] if "point" in kind.shapes else []) + (["rectangle", "tile object"] if "rect" in kind.shapes
                                                             else [])
    text = ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]
    return text + (f"; or `{kind.name}` tiles" if kind.tiles else "")


def _default_text(p: Prop) -> str:
    if p.type == "bool":
        return "`true`" if p.default else "`false`"
    if p.type == "object":
        return "none"
    if p.type == "string":
        return f"`{p.default}`" if p.default else '""'
    return _number(p.default)


def docs_section() -> str:
    """The generated part of docs/levels.md: every class, then each class's properties."""
    out = [DOCS_BEGIN, "", "| class | shape | what it does |", "| --- | --- | --- |"]
    out += [f"| `{k.name}` | {_shape_text(k)} | {k.doc} |" for k in KINDS]
    for k in KINDS:
        if not k.props and not k.notes:
            continue
        out += ["", f"### `{k.name}`", ""]
        if k.props:
            out += ["| property | type | default | allowed | meaning |", "| --- | --- | --- | --- | --- |"]
            for p in k.props:
                ptype = "float (or int)" if p.type == "float" else p.type
                doc = p.doc + (f" ({' and '.join(p.only)} only)" if p.only else "")
                out.append(f"| `{p.name}` | {ptype} | {_default_text(p)} | {range_text(p)} | {doc} |")
        if k.notes:
            out += ["", k.notes]
    out += ["", DOCS_END]
    return "\n".join(out) + "\n"


def _enum_name(kind: Kind, p: Prop) -> str:
    return kind.name.title() + "".join(w.title() for w in p.name.split("_"))


MAP_CLASS, MOVES_ENUM = "level", "LevelMoves"  # the Tiled project's class for a map, and its moves' flags


def tiled_property_types() -> list[dict]:
    """The Tiled project's ``propertyTypes``: a class per kind (its members are the properties with their
    defaults) and an enum per property with choices (a drop-down list in Tiled)."""
    classes, enums = [], []
    for k in KINDS:
        members = []
        for p in k.props:
            value = int(p.default) if p.type == "float" and float(p.default).is_integer() else p.default
            member = {"name": p.name, "type": p.type, "value": value}
            if p.choices:
                member["propertyType"] = _enum_name(k, p)
                enums.append({"name": _enum_name(k, p), "type": "enum", "storageType": "string",
                              "values": list(p.choices), "valuesAsFlags": False})
            members.append(member)
        classes.append({"name": k.name, "type": "class", "color": k.colour, "drawFill": True,
                        "members": members, "useAs": ["object", "tile"] if k.tiles else ["object"]})
    # the map's own class: its `moves` as a set of flags (Tiled stores the ones ticked joined by commas)
    classes.append({"name": MAP_CLASS, "type": "class", "color": "#ffa0a0a4", "drawFill": True, "useAs": ["map"],
                    "members": [{"name": "moves", "type": "string", "value": "", "propertyType": MOVES_ENUM}]})
    enums.append({"name": MOVES_ENUM, "type": "enum", "storageType": "string", "values": list(MOVES),
                  "valuesAsFlags": True})
    return [{"id": i, **t} for i, t in enumerate(classes + enums, start=1)]
