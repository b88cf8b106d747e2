"""Write the test maps in tests/maps/tiled/ with the real Tiled (``tiled --export-map``), so the loader is
tested on files Tiled itself wrote, not on our idea of them.

    python tools/make_tiled_test_maps.py            # needs `tiled` (Debian: apt-get install tiled)
    python tools/make_tiled_test_maps.py --out DIR  # somewhere else (the tests do this to compare)

For each map a source .tmx is written to a temporary folder (tile data in the encoding wanted: Tiled keeps
a map's layer format when it saves) and Tiled exports it, with ``--embed-tilesets`` for the embedded
variants. Runs headless (``QT_QPA_PLATFORM=offscreen``). The maps:

* ``ext_csv``, ``ext_zlib``: external .tsx tileset; CSV, base64+zlib.
* ``emb_csv``, ``emb_base64``, ``emb_zlib``, ``emb_gzip``: the same map with the tileset embedded.
* ``emb_collection``, ``ext_collection``: the same layout drawn with a collection-of-images tileset.
  All eight have the same collision and objects, so they must play identically.
  Their tilesets carry collision-editor shapes and an animation (pytmx's embedded-tileset quirks).
* ``zstd``: base64+zstd tile data, which the game refuses in one line.
* ``third_party``: shaped like a map made for another game -- 32 px tiles, embedded tileset without our
  properties, no spawn, layers and objects of its own classes, every property type, group and image
  layers, ellipses, polygons, text, tint and parallax. Must give the documented one-line "has no spawn".
* ``third_party_spawned``: the same as a designer adapts it -- a spawn and a goal added, and its classes 'Trigger' and
  'Enemy' (which the game reports as a misspelt 'trigger' and 'enemy') renamed 'Region' and 'Monster': it
  loads and plays (nothing collides).
"""

from __future__ import annotations

import argparse
import base64
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "maps" / "tiled"
FLIP_H = 0x80000000

COLS, ROWS = 24, 10
# local tile ids of test_tiles.png: 0 solid, 1 one_way, 2 slope 0/16, 3 slope 16/0, 4 slope 0/8,
# 5 slope 8/16, 6 decoration, 7 coin (class coin)
TILE_PROPS = {
    0: [("collision", "string", "solid")],
    1: [("collision", "string", "one_way")],
    2: [("collision", "string", "slope"), ("slope_left", "int", "0"), ("slope_right", "int", "16")],
    3: [("collision", "string", "slope"), ("slope_left", "int", "16"), ("slope_right", "int", "0")],
    4: [("collision", "string", "slope"), ("slope_left", "int", "0"), ("slope_right", "int", "8")],
    5: [("collision", "string", "slope"), ("slope_left", "int", "8"), ("slope_right", "int", "16")],
    6: [],
    7: [],
}
NAMES = ["solid", "one_way", "slope_up", "slope_down", "slope_low", "slope_high", "flower", "coin"]


def ground() -> list[int]:
    """The collision layer, gids with firstgid 1: floor, walls, a plateau between shallow slopes (the
    far side flipped horizontally), a one-way shelf."""
    g = [[0] * COLS for _ in range(ROWS)]
    for c in range(COLS):
        g[ROWS - 1][c] = 1
    for r in range(ROWS - 1):
        g[r][0] = g[r][COLS - 1] = 1
    g[8][8], g[8][9] = 5, 6  # rising: 0/8 then 8/16
    for c in range(10, 14):
        g[8][c] = 1
    g[8][14], g[8][15] = 6 | FLIP_H, 5 | FLIP_H  # falling: the same tiles flipped
    for c in range(3, 7):
        g[5][c] = 2
    return [v for row in g for v in row]


def deco() -> list[int]:
    d = [0] * (COLS * ROWS)
    d[8 * COLS + 2] = d[8 * COLS + 18] = 7
    return d


def data_xml(gids: list[int], fmt: str, cols: int = COLS) -> str:
    if fmt == "csv":
        rows = [",".join(map(str, gids[r * cols:(r + 1) * cols])) for r in range(len(gids) // cols)]
        return '<data encoding="csv">\n' + ",\n".join(rows) + "\n</data>"
    raw = b"".join(v.to_bytes(4, "little") for v in gids)
    if fmt == "zlib":
        raw = zlib.compress(raw)
    elif fmt == "gzip":
        raw = gzip.compress(raw, mtime=0)
    elif fmt == "zstd":
        raw = subprocess.run(["zstd", "-q", "-c"], input=raw, capture_output=True, check=True).stdout
    comp = "" if fmt == "base64" else f' compression="{fmt}"'
    return f'<data encoding="base64"{comp}>{base64.b64encode(raw).decode()}</data>'


def _props(items) -> str:
    if not items:
        return ""
    inner = "".join(f'<property name="{n}"' + ("" if t == "string" else f' type="{t}"') + f' value="{v}"/>'
                    for n, t, v in items)
    return f"<properties>{inner}</properties>"


def _tile_extras(local: int) -> str:
    """Collision-editor shapes on the solid tile, an animation on the flower, a class on the coin."""
    if local == 0:
        return ('<objectgroup draworder="index" id="2"><object id="1" x="0" y="0" width="16" '
                'height="16"/></objectgroup>')
    if local == 6:
        return '<animation><frame tileid="6" duration="200"/><frame tileid="7" duration="200"/></animation>'
    return ""


def image_tileset(name: str) -> str:
    tiles = "".join(f'<tile id="{i}"' + (' type="coin"' if i == 7 else "") + f">{_props(p)}{_tile_extras(i)}"
                    "</tile>" for i, p in TILE_PROPS.items() if p or _tile_extras(i) or i == 7)
    return (f'<tileset version="1.8" tiledversion="1.8.2" name="{name}" tilewidth="16" tileheight="16" '
            f'tilecount="8" columns="4"><image source="test_tiles.png" width="64" height="32"/>{tiles}</tileset>')


def collection_tileset(name: str) -> str:
    tiles = "".join(f'<tile id="{i}"' + (' type="coin"' if i == 7 else "") + f">{_props(p)}"
                    f'<image width="16" height="16" source="img/{NAMES[i]}.png"/>{_tile_extras(i)}</tile>'
                    for i, p in TILE_PROPS.items())
    big = '<tile id="8"><image width="32" height="48" source="img/tree.png"/></tile>'
    return (f'<tileset version="1.8" tiledversion="1.8.2" name="{name}" tilewidth="32" tileheight="48" '
            f'tilecount="9" columns="0"><grid orientation="orthogonal" width="1" height="1"/>{tiles}{big}'
            "</tileset>")


def objects(collection: bool) -> str:
    tree = ('<object id="12" name="tree" x="300" y="144" width="32" height="48" gid="9"/>'
            if collection else "")
    return f"""<objectgroup id="3" name="objects">
 <object id="1" name="start" type="spawn" x="24" y="144"><point/></object>
 <object id="2" name="c1" type="coin" x="60" y="136"><point/></object>
 <object id="3" name="c2" x="176" y="128" width="16" height="16" gid="8"/>
 <object id="4" name="cp" type="checkpoint" x="200" y="96" width="16" height="32"/>
 <object id="5" name="sign" type="trigger" x="100" y="100" width="32" height="44">
  <properties><property name="message" value="Slopes ahead"/></properties></object>
 <object id="6" name="lift" type="platform" x="40" y="40" width="32" height="8">
  <properties><property name="path" type="object" value="7"/><property name="speed" type="float" value="30"/>
   <property name="wait" type="float" value="0.5"/></properties></object>
 <object id="7" name="route" x="40" y="40"><polyline points="0,0 64,0 64,-16"/></object>
 <object id="8" name="plank" type="platform" x="260" y="60" width="32" height="8">
  <properties><property name="dx" type="int" value="48"/><property name="one_way" type="bool" value="true"/>
   <property name="speed" type="float" value="20"/></properties></object>
 <object id="9" name="exit" type="goal" x="320" y="96" width="16" height="48"/>
 <object id="10" name="spikes" type="hazard" x="340" y="136" width="16" height="8"/>
 <object id="11" name="remember" type="note" x="150" y="20" width="40" height="20"><ellipse/></object>
 {tree}
</objectgroup>"""


def game_map(tileset: str, fmt: str, collection: bool) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="{COLS}"
 height="{ROWS}" tilewidth="16" tileheight="16" infinite="0" backgroundcolor="#336699" nextlayerid="4"
 nextobjectid="13">
 <properties><property name="title" value="Made by Tiled"/></properties>
 {tileset}
 <layer id="1" name="ground" width="{COLS}" height="{ROWS}">{data_xml(ground(), fmt)}</layer>
 <layer id="2" name="deco" width="{COLS}" height="{ROWS}">{data_xml(deco(), fmt)}</layer>
 {objects(collection)}
</map>
"""


def third_party(spawn: bool) -> str:
    cols, rows = 40, 15
    gids = [0] * (cols * rows)
    for c in range(cols):
        gids[(rows - 1) * cols + c] = 1
        gids[(rows - 2) * cols + c] = 2 if c % 7 else 3
    bg = [4 if (r + c) % 9 == 0 else 0 for r in range(rows) for c in range(cols)]
    spawn_xml = ('<object id="20" name="hero" type="spawn" x="64" y="416"><point/></object>\n  '
                 '<object id="21" name="exit" type="goal" x="1216" y="352" width="32" height="64"/>') if spawn else ""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="left-up" width="{cols}"
 height="{rows}" tilewidth="32" tileheight="32" infinite="0" backgroundcolor="#ff203040" nextlayerid="9"
 nextobjectid="21">
 <properties>
  <property name="ambient" type="color" value="#ff8090a0"/><property name="difficulty" type="int" value="3"/>
  <property name="gravity" type="float" value="9.81"/><property name="indoors" type="bool" value="false"/>
  <property name="music" type="file" value="music/cave.ogg"/><property name="author" value="Someone Else"/>
 </properties>
 <tileset firstgid="1" name="cave" tilewidth="32" tileheight="32" spacing="0" margin="0" tilecount="8"
  columns="4"><image source="cave32.png" width="128" height="64"/>
  <tile id="0" type="Ground"><properties><property name="Solid" type="bool" value="true"/></properties>
   <objectgroup draworder="index" id="2"><object id="1" x="0" y="0" width="32" height="32"/></objectgroup></tile>
  <tile id="1"><properties><property name="friction" type="float" value="0.4"/></properties></tile>
  <tile id="2"><animation><frame tileid="2" duration="100"/><frame tileid="3" duration="100"/></animation></tile>
 </tileset>
 <imagelayer id="1" name="Sky" parallaxx="0.2" parallaxy="0.5"><image source="cave32.png" width="128"
  height="64"/></imagelayer>
 <group id="2" name="Background" tintcolor="#a0c0ff">
  <layer id="3" name="Far rocks" width="{cols}" height="{rows}" opacity="0.6" parallaxx="0.5">
   <properties><property name="depth" type="int" value="-2"/></properties>
   {data_xml(bg, "zlib", cols)}</layer>
 </group>
 <layer id="4" name="Tiles" width="{cols}" height="{rows}">{data_xml(gids, "csv", cols)}</layer>
 <objectgroup id="5" name="Entities" color="#ff0000">
  <object id="1" name="Bat" type="{'Monster' if spawn else 'Enemy'}" x="300" y="200" width="32" height="32">
   <properties><property name="hp" type="int" value="3"/><property name="path" type="object" value="2"/>
    <property name="tint" type="color" value="#ff00ff00"/></properties></object>
  <object id="2" name="bat route" x="300" y="200"><polyline points="0,0 96,0 96,64"/></object>
  <object id="3" name="Door" type="door" x="1200" y="384" width="32" height="64">
   <properties><property name="target" type="file" value="level2.tmx"/><property name="locked" type="bool" value="true"/></properties></object>
  <object id="4" name="Villager" type="npc" x="500" y="416"><point/></object>
  <object id="5" type="{'Region' if spawn else 'Trigger'}" x="600" y="300" width="80" height="120"><ellipse/></object>
  <object id="6" name="Rock" x="700" y="416" gid="1"/>
  <object id="7" name="zone" type="Water" x="800" y="380"><polygon points="0,0 64,0 80,36 -10,36"/></object>
  <object id="8" name="label" x="100" y="40" width="200" height="24"><text wrap="1">Welcome, traveller</text></object>
  {spawn_xml}
 </objectgroup>
 <objectgroup id="6" name="Collision" visible="0">
  <object id="9" x="0" y="416" width="1280" height="64"/>
 </objectgroup>
</map>
"""


def images(folder: Path) -> None:
    """The art the maps use: test_tiles.png, one 16 px PNG per collection tile, a tree, a 32 px tileset."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    shutil.copy(ROOT / "tests" / "maps" / "test_tiles.png", folder / "test_tiles.png")
    sheet = pygame.image.load(str(folder / "test_tiles.png"))
    (folder / "img").mkdir(exist_ok=True)
    for i, name in enumerate(NAMES):
        pygame.image.save(sheet.subsurface(((i % 4) * 16, (i // 4) * 16, 16, 16)), str(folder / "img" / f"{name}.png"))
    tree = pygame.Surface((32, 48), pygame.SRCALPHA)
    pygame.draw.rect(tree, (110, 70, 40), (13, 28, 6, 20))
    pygame.draw.circle(tree, (40, 140, 60), (16, 16), 15)
    pygame.image.save(tree, str(folder / "img" / "tree.png"))
    cave = pygame.Surface((128, 64))
    for i in range(8):
        cave.fill((40 + 20 * i, 60 + 10 * i, 80), ((i % 4) * 32, (i // 4) * 32, 32, 32))
    pygame.image.save(cave, str(folder / "cave32.png"))


def sources(folder: Path) -> dict[str, tuple[str, bool]]:
    """``name -> (source map text, embed tilesets when exporting)``; writes the external tilesets."""
    (folder / "tiles.tsx").write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + image_tileset("tiles"))
    (folder / "collection.tsx").write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                                           + collection_tileset("collection"))
    ext = '<tileset firstgid="1" source="tiles.tsx"/>'
    ext_coll = '<tileset firstgid="1" source="collection.tsx"/>'
    out = {
        "ext_csv": (game_map(ext, "csv", False), False),
        "ext_zlib": (game_map(ext, "zlib", False), False),
        "emb_csv": (game_map(ext, "csv", False), True),
        "emb_base64": (game_map(ext, "base64", False), True),
        "emb_zlib": (game_map(ext, "zlib", False), True),
        "emb_gzip": (game_map(ext, "gzip", False), True),
        "ext_collection": (game_map(ext_coll, "csv", True), False),
        "emb_collection": (game_map(ext_coll, "zlib", True), True),
        "zstd": (game_map(ext, "zstd", False), True),
        "third_party": (third_party(False), False),
        "third_party_spawned": (third_party(True), False),
    }
    return out


def build(out: Path) -> list[Path]:
    """Export every map with Tiled into ``out`` (with the images and external tilesets they use)."""
    tiled = shutil.which("tiled")
    if tiled is None:
        raise SystemExit("tiled not found; install it (Debian/Ubuntu: apt-get install tiled)")
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp)
        images(src)
        for name, (text, embed) in sources(src).items():
            (src / f"{name}.tmx").write_text(text)
            # exported beside the sources so the image paths Tiled writes stay relative to the same files
            exported = src / f"{name}.export.tmx"
            args = [tiled, *(["--embed-tilesets"] if embed else []), "--export-map", "tmx",
                    str(src / f"{name}.tmx"), str(exported)]
            done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=60)
            if done.returncode != 0 or not exported.is_file():
                raise SystemExit(f"tiled failed on {name}: {done.stderr.strip()}")
            shutil.copy(exported, out / f"{name}.tmx")
            written.append(out / f"{name}.tmx")
        for tsx in ("tiles.tsx", "collection.tsx"):  # as Tiled writes them
            subprocess.run([tiled, "--export-tileset", "tsx", str(src / tsx), str(src / f"x_{tsx}")], env=env,
                           capture_output=True, timeout=60, check=True)
            shutil.copy(src / f"x_{tsx}", out / tsx)
        for png in ("test_tiles.png", "cave32.png"):
            shutil.copy(src / png, out / png)
        shutil.copytree(src / "img", out / "img", dirs_exist_ok=True)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    for path in build(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
