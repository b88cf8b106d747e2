"""The list of levels in play order: ``levels/01_*`` first, then each map's ``next`` property.

A level is any map the loader reads: a ``.tmx`` file, or a Tiled JSON map (``.tmj``, or ``.json`` unless
the file says it is something else -- a JSON tileset, template or project, ``"type"`` not ``"map"``).

``$TILEFEEL_LEVELS_DIR`` points the game at another folder (tests, level designers' drafts).
Levels not reached by the chain are *extra* levels (``LevelInfo.extra``): they follow in file-name order,
unlocked from the start, listed apart in level select, so every map in levels/ is playable. Only the
map's ``title``, ``next``, ``music`` and its coins (coin objects, breakable objects and breakable tiles in
CSV layers that hide one) are read here (a cheap look at the map); the full load and its errors happen
when a level is played.

Music: the map property ``music`` names a loop of ``MUSIC_LOOPS`` (the window's ``audio.LOOPS``); without
one, levels take the loops in groups of two in play order (meadow, hills, climb), and the last level of
three or more plays the finale. A bad name is reported in ``LevelInfo.problem`` and the default is played.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from .levelfile import LIMITS
from .levelkinds import MOVES
from .tiledjson import JsonProblem, map_tree, parse_json
from .userfiles import FileProblem, read_bytes, shown

__all__ = ["LevelInfo", "discover", "levels_folder", "LEVELS_DIR", "replay_for", "LEVEL_MUSIC", "MUSIC_LOOPS",
           "MAP_SUFFIXES", "map_files", "level_files"]

LEVELS_DIR = Path(__file__).resolve().parents[2] / "levels"
MUSIC_LOOPS = ("title", "meadow", "hills", "climb", "finale", "ending")  # the loops game/window/audio.py plays
LEVEL_MUSIC = ("meadow", "hills", "climb")  # loops for the levels, two levels each, then the last again
FINALE = "finale"  # the last level's loop (of three or more levels)
MAP_SUFFIXES = (".tmx", ".tmj", ".json")  # what the loader reads as a map (any letter case)


@dataclass
class LevelInfo:
    path: Path
    name: str  # file name
    title: str
    next: str | None
    coins: int  # coins in the level (for "3/12")
    music: str | None = None  # the map's music property, or the loop discover() picked for it
    problem: str | None = None  # one line about a bad music property (the default plays instead)
    extra: bool = False  # not in the campaign's chain (01_*, then each ``next``): unlocked, listed apart
    moves: tuple[str, ...] = ()  # the moves its ``moves`` property grants (the known names; the load checks)

    @property
    def replay(self) -> Path | None:
        return replay_for(self.path)


def replay_for(path: Path) -> Path | None:
    p = path.parent / "replays" / f"{path.stem}.txt"
    return p if p.is_file() else None


def _peek(path: Path) -> LevelInfo | None:
    """A cheap look at one map; never raises: a map this cannot read is listed by its file name, and
    its full load (when played) says what is wrong with it. None: a JSON file that is not a map."""
    try:
        return _look(path)
    except (ValueError, TypeError, OverflowError, RecursionError, MemoryError, JsonProblem):  # firstgid="one", ...
        title = path.stem.replace("_", " ").lstrip("0123456789 ").title() or path.stem
        return LevelInfo(path, path.name, title[:MAX_TITLE], None, 0)


MAX_TITLE = 80  # characters of a map's title the level list shows


def _read_tileset(path: Path) -> dict:
    return parse_json(read_bytes(path, "tileset", LIMITS.tileset_bytes), "tileset")


def _look(path: Path) -> LevelInfo | None:
    title, nxt, coins = path.stem.replace("_", " ").lstrip("0123456789 ").title() or path.stem, None, 0
    music = problem = None
    moves: tuple[str, ...] = ()
    try:  # a FIFO or a huge file among the levels is refused here at once, reported when played
        data = read_bytes(path, "map file", LIMITS.map_bytes)
        if path.suffix.lower() in (".tmj", ".json"):  # a JSON map: read into the same tree the loader makes
            doc = parse_json(data, "map")
            if not _is_map(path, doc):
                return None  # a JSON tileset or template beside the maps: not a level
            root = map_tree(doc, path.parent, _read_tileset)
        else:
            root = ET.fromstring(data)
    except (ET.ParseError, FileProblem, JsonProblem, FileNotFoundError):
        return LevelInfo(path, path.name, title, None, 0)
    props = root.find("properties")
    for prop in (props if props is not None else []):
        name, value = prop.get("name"), prop.get("value", prop.text or "")
        if name == "title" and value:
            title = value if len(value) <= MAX_TITLE else value[:MAX_TITLE - 3] + "..."
        elif name == "next" and value:
            nxt = Path(value).name
        elif name == "moves" and value:
            moves = tuple(m for m in MOVES if m in {w.strip() for w in value.split(",")})
        elif name == "music" and value:
            if value in MUSIC_LOOPS:
                music = value
            else:
                problem = (f"{path}: map property 'music' is {shown(value, 80)}, not a loop "
                           f"({', '.join(MUSIC_LOOPS)}); playing the default")
    for obj in root.iter("object"):
        kind = (obj.get("type") or obj.get("class") or "").lower()
        if kind == "coin" or kind == "breakable" and _has_coin(obj):
            coins += 1
    coins += _coin_tiles(root, path)
    return LevelInfo(path, path.name, title, nxt, coins, music, problem, moves=moves)


def _has_coin(element) -> bool:
    """A breakable object or tile whose ``coin`` property is true."""
    return any(p.get("name") == "coin" and p.get("value") == "true" for p in element.iter("property"))


def _coin_tiles(root, path: Path) -> int:
    """Breakable tiles with a coin placed in the map's CSV tile layers (other encodings are counted when the
    level is loaded and played)."""
    gids = set()
    for ts in root.iter("tileset"):
        first, source = _int(ts.get("firstgid", "1")), ts.get("source")
        if first is None:
            continue
        try:  # (read like the map: a FIFO or a huge file is refused, not waited on)
            tiles = ET.fromstring(read_bytes(path.parent / source, "tileset", LIMITS.tileset_bytes)) \
                if source else ts
        except (ET.ParseError, FileProblem):
            continue
        gids.update(first + _int(t.get("id", "0")) for t in tiles.iter("tile")
                    if (t.get("type") or t.get("class") or "").lower() == "breakable" and _has_coin(t)
                    and _int(t.get("id", "0")) is not None)
    if not gids:
        return 0
    count = 0
    for data in root.iter("data"):
        if data.get("encoding") == "csv" and data.text:
            count += sum(1 for v in data.text.replace("\n", ",").split(",")
                         if _int(v) is not None and _int(v) & 0x0FFFFFFF in gids)  # (bits 28-31: flips)
    return count


def _int(text) -> int | None:
    """A whole number written in ASCII digits (``"²"`` and ``"one"`` are none), of at most 10 digits."""
    text = str(text).strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else None


def levels_folder() -> Path:
    """``$TILEFEEL_LEVELS_DIR``, else the repository's levels/."""
    return Path(os.environ.get("TILEFEEL_LEVELS_DIR") or LEVELS_DIR)


def map_files(folder: Path) -> list[Path]:
    """The files in ``folder`` with a map's suffix (``MAP_SUFFIXES``), by name."""
    try:
        return sorted(p for p in folder.iterdir() if p.suffix.lower() in MAP_SUFFIXES and not p.is_dir())
    except OSError:  # no such folder (or unreadable): no levels
        return []


def _is_map(path: Path, doc) -> bool:
    """Is the parsed JSON file a map? A ``.json`` file that says it is something else (``"type"``: a
    tileset, a template, a project) is not; a ``.tmj`` always is one (its errors come when it is played)."""
    return path.suffix.lower() != ".json" or not isinstance(doc, dict) or doc.get("type", "map") == "map"


def level_files(folder: Path) -> list[Path]:
    """The maps in ``folder`` the level list shows, by file name: the files with a map's suffix
    (``MAP_SUFFIXES``), less the ``.json`` files that say they are not a map. A file that cannot be read
    is a level (its error comes when it is played). ``python -m game check FOLDER`` checks these."""
    out = []
    for path in map_files(folder):
        if path.suffix.lower() == ".json":
            try:
                if not _is_map(path, parse_json(read_bytes(path, "map file", LIMITS.map_bytes), "map")):
                    continue
            except (FileProblem, JsonProblem, FileNotFoundError, ValueError, RecursionError, MemoryError):
                pass
        out.append(path)
    return out


def discover(folder: Path | None = None) -> list[LevelInfo]:
    """Levels in play order from ``folder`` (default: :func:`levels_folder`)."""
    folder = Path(folder or levels_folder())
    peeked = [(p, _peek(p)) for p in level_files(folder)]
    files = [p for p, info in peeked if info is not None]
    infos = {p.name: info for p, info in peeked if info is not None}
    order: list[LevelInfo] = []
    first = next((p.name for p in files if p.name.startswith("01")), files[0].name if files else None)
    name = first
    while name and name in infos and infos[name] not in order:
        order.append(infos[name])
        name = infos[name].next
    for info in infos.values():
        if info not in order:
            info.extra = True
            order.append(info)
    campaign = [info for info in order if not info.extra]
    for i, info in enumerate(order):
        if info.music is None:
            last = len(campaign) >= 3 and i == len(campaign) - 1
            info.music = FINALE if last else LEVEL_MUSIC[min(i // 2, len(LEVEL_MUSIC) - 1)]
    return order
