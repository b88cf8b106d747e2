"""A Tiled map in a World in 40 lines: pytmx reads levels/05_the_climb.tmx, TileGrid.from_gids builds the grid
from its terrain layer, its objects become platforms, triggers and the spawn. Run: python examples/tiled_map.py"""
import sys
from pathlib import Path as File

import pytmx  # (the game-side reader; the engine itself never imports it)

from engine import Character, Path, Platform, TileGrid, TileKind, Trigger, World

KINDS = {"solid": TileKind.SOLID, "one_way": TileKind.ONE_WAY}


def load(tmx=File(__file__).parent.parent / "levels" / "05_the_climb.tmx"):
    tmx, kinds = pytmx.TiledMap(str(tmx), allow_duplicate_names=True), {}  # (no images; a spring has a "height")
    for gid, props in tmx.tile_properties.items():  # kinds: pytmx's tile id -> TileKind or slope heights
        what = props.get("collision")  # (pytmx ids: a flipped tile gets its own)
        kinds[gid] = (props["slope_left"], props["slope_right"]) if what == "slope" else KINDS.get(what, 0)
    world, hero = World(TileGrid.from_gids(tmx.get_layer_by_name("terrain").data, kinds, tmx.tilewidth)), None
    for o in tmx.objects:
        p = o.properties
        if o.type == "platform":
            if "path" in p:  # a polyline drawn in Tiled: the same shape, from the platform's corner
                line = tmx.get_object_by_id(p["path"]).points
                points = [(o.x + q.x - line[0].x, o.y + q.y - line[0].y) for q in line]
            else:
                points = [(o.x, o.y), (o.x + p.get("dx", 0.0), o.y + p.get("dy", 0.0))]
            path = Path(points, p["speed"], wait=p.get("wait", 0.0))
            world.add(Platform(o.x, o.y, o.width, o.height, path, one_way=p.get("one_way", False), name=o.name))
        elif o.type == "spawn":
            hero = world.add(Character(o.x - 5, o.y - 14))
        elif o.type and o.width:  # coins, checkpoints, signs, the goal: sensors the game gives a meaning
            world.add(Trigger(o.x, o.y, o.width, o.height, o.name or "", data=o.type))
    return world, hero


if __name__ == "__main__":
    world, hero = load(*sys.argv[1:])
    for _ in range(120):
        world.step()
    print(f"{len(world.platforms)} platforms, {len(world.triggers)} triggers; the hero at ({hero.x:.0f}, {hero.y:.0f})")
