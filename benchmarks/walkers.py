"""N walkers on a 120x68 map of 8 px tiles with slopes and one-way platforms, turning at walls and ledges.

The scene is plain data (:func:`scene`): the grid and where each walker starts and which way it goes,
so every contender steps the same thing:

* ``per_actor``: the engine's per-actor path, one ``engine.Actor`` each in a ``World``; after every step
  the engine's walking rule (``engine.walk``) turns walkers that hit a wall or reached a ledge.
* ``BATCH`` (:func:`batch`): the engine's ``Crowd``, the same walkers moved as one numpy batch inside
  ``World.step``, position for position what ``per_actor`` gives.
* ``handloop`` (:func:`handloop`): what a user would write by hand, Celeste-style: integer pixel steps
  with remainders, tiles looked up by index, slopes as solid blocks, one-way planks as floors from above,
  turning at walls and ledges. The honest baseline for the per-actor path.
* ``naive``: the move-and-slide of shared/reference/003 (move X, test every solid tile, resolve; the same
  for Y), every tile a box, turning at walls only (a straw man: kept for the old figures).
* ``crates`` (:func:`crates`): the batch with crates (solid actors) resting among the walkers and a lift
  running up and down a gap in a floor: walkers near them this step leave the batch.
* ``arcade_walkers`` / ``pymunk_walkers``: the same map as wall boxes in those libraries.
"""

from __future__ import annotations

import os
import random
from typing import NamedTuple

from engine import Actor, Crowd, FeelConfig, Path, Platform, TileGrid, TileKind, World, walk

from .common import Figure, interleaved, missing, per_call, pick

TILE = 8  # px
COLS, ROWS = 120, 68
SIZE = (6.0, 7.0)  # px, a walker's box
SPEED = 40.0  # px/s


class Scene(NamedTuple):
    grid: TileGrid
    starts: list  # (x, y, direction) per walker: top-left px standing on the ground, direction +1 / -1
    feel: FeelConfig


def walker_map(seed: int = 11, cols: int = COLS, rows: int = ROWS) -> str:
    """ASCII for the map: a walled box with floors every 8 rows made of solid runs, one-way planks and
    gaps (ledges); hills of 45-degree and shallow slopes on the solid runs."""
    rng = random.Random(seed)
    grid = [["."] * cols for _ in range(rows)]
    for c in range(cols):
        grid[0][c] = grid[rows - 1][c] = grid[rows - 2][c] = "#"
    for r in range(rows):
        grid[r][0] = grid[r][cols - 1] = "#"
    for floor in range(9, rows - 2, 8):
        c = 1
        while c < cols - 1:
            run = rng.randint(8, 26)
            kind = "=" if rng.random() < 0.3 else "#"
            for k in range(c, min(cols - 1, c + run)):
                grid[floor][k] = kind
                if kind == "#":
                    grid[floor + 1][k] = "#"
            if kind == "#" and run >= 12:  # a hill on top: ramp up, plateau, ramp down
                k = c + rng.randint(1, run - 11)
                shape = rng.choice(["/##\\", "pq###db"])
                for i, ch in enumerate(shape):
                    if k + i < cols - 1:
                        grid[floor - 1][k + i] = ch
            c += run + rng.randint(2, 5)
    return "\n".join("".join(row) for row in grid)


def scene(n: int, seed: int = 5) -> Scene:
    """``n`` walkers spread over the floors of the map, each standing on the ground."""
    grid = TileGrid.from_ascii(walker_map(), tile_size=TILE)
    rng = random.Random(seed)
    world = World(grid)
    spots = [(c, r) for r in range(1, ROWS - 2) for c in range(1, COLS - 1)
             if grid.kind_at(c, r) == TileKind.EMPTY and grid.kind_at(c, r + 1) in (TileKind.SOLID, TileKind.ONE_WAY)]
    starts = []
    while len(starts) < n:
        c, r = rng.choice(spots)
        probe = world.add(Actor(c * TILE + 1, (r + 1) * TILE - SIZE[1] - 0.5, *SIZE))
        if world.settle(probe):
            starts.append((probe.x, probe.y, rng.choice((-1, 1))))
        world.remove(probe)
    return Scene(grid, starts, FeelConfig())


# -- the per-actor path and the batch ----------------------------------------------------------------------
def turn(world, actors: list, dirs: list, speed: float = SPEED) -> None:
    """The walking rule after a world step, for each actor (``engine.walk``): turn round at a wall or
    where the ground ends ahead, then walk on at ``speed``. ``dirs`` holds each actor's direction."""
    for i, a in enumerate(actors):
        dirs[i] = walk(world, a, dirs[i], speed)


def per_actor(sc: Scene):
    """A World of plain actors and the walking rule; returns the step function."""
    world = World(sc.grid, sc.feel)
    actors = [world.add(Actor(x, y, *SIZE)) for x, y, _ in sc.starts]
    dirs = [d for _, _, d in sc.starts]
    for a, d in zip(actors, dirs, strict=True):
        a.vx = d * SPEED

    def step():
        world.step()
        turn(world, actors, dirs)

    return step


def batch(sc: Scene):
    """The same walkers as one ``Crowd`` in a World (the batch applies the walking rule itself); returns
    the step function."""
    world = World(sc.grid, sc.feel)
    crowd = world.add(Crowd())
    for x, y, d in sc.starts:
        crowd.add(x, y, *SIZE, speed=SPEED, direction=d)
    return world.step


BATCH = batch  # scene -> step function: what fills actors_100_ms, actors_1000_ms and actors_10000_ms


def crates(sc: Scene, n_crates: int = 6, seed: int = 3):
    """``batch`` with ``n_crates`` 8 px crates (solid actors) standing on solid floors among the walkers and
    one lift (a platform) riding up and down a gap in a floor, level with the floor at its top; returns the
    step function."""
    world = World(sc.grid, sc.feel)
    grid, rng = sc.grid, random.Random(seed)
    floors = range(9, ROWS - 2, 8)
    spots = [(c, f) for f in floors for c in range(2, COLS - 2)
             if all(grid.kind_at(c + i, f) == TileKind.SOLID and grid.kind_at(c + i, f - 1) == TileKind.EMPTY
                    for i in (-1, 0, 1))]
    for c, f in rng.sample(spots, n_crates):
        crate = world.add(Actor(c * TILE, (f - 1) * TILE, TILE, TILE, solid=True, name="crate"))
        assert world.settle(crate)
    gaps = [(c, f) for f in floors[1:-1] for c in range(2, COLS - 4)
            if grid.kind_at(c - 1, f) != TileKind.EMPTY
            and all(grid.kind_at(c + i, f) == TileKind.EMPTY for i in (0, 1))
            and all(grid.kind_at(c + i, r) == TileKind.EMPTY for i in (0, 1) for r in range(f, f + 8))]
    c, f = gaps[len(gaps) // 2]
    top, bottom = f * TILE, (f + 6) * TILE
    world.add(Platform(c * TILE, top, 2 * TILE, 4, Path([(c * TILE, top), (c * TILE, bottom)], speed=30, wait=0.5),
                       name="lift"))
    crowd = world.add(Crowd())
    for x, y, d in sc.starts:
        crowd.add(x, y, *SIZE, speed=SPEED, direction=d)
    return world.step


# -- the hand-written loop -----------------------------------------------------------------------------------
def handloop(sc: Scene):
    """Celeste-style walkers written by hand: integer positions plus sub-pixel remainders, moved a pixel at a
    time (X, then Y) and tested against the tiles by index; slopes are solid blocks, one-way planks are
    floors for feet coming down onto them; a walker turns at a wall and where there is no floor just ahead
    of its leading foot. Returns the step function."""
    grid = sc.grid
    ts, cols = grid.tile_size, grid.cols
    kinds = [int(k) for k in grid.kinds.ravel()]
    wall = [k in (TileKind.SOLID, TileKind.SLOPE) for k in kinds]  # blocks every way
    floor = [k != TileKind.EMPTY for k in kinds]  # holds feet coming down
    w, h = int(SIZE[0]), int(SIZE[1])
    d = sc.feel.derived
    dt, g, top = d.dt, d.fall_gravity, sc.feel.fall.max_speed
    # per walker: [x, y, remainder x, remainder y, vy, direction, grounded]
    bodies = []
    for x0, y0, dr in sc.starts:
        x, y = round(x0), round(y0 + h) - h
        while any(wall[r * cols + c] for r in range(y // ts, (y + h - 1) // ts + 1)
                  for c in range(x // ts, (x + w - 1) // ts + 1)):
            y = (y + h - 1) // ts * ts - h  # standing in a slope tile: on top of it (slopes are blocks here)
        bodies.append([x, y, 0.0, 0.0, 0.0, dr, False])
    step_x = SPEED * dt

    def step():
        for b in bodies:
            x, y, rx, ry, vy, dr, grounded = b
            # X: whole pixels of the remainder, one at a time, stopped by the column ahead
            rx += dr * step_x
            move = round(rx)
            rx -= move
            r0, r1 = y // ts, (y + h - 1) // ts
            while move:
                sign = 1 if move > 0 else -1
                c = (x + w) // ts if sign > 0 else (x - 1) // ts
                if any(wall[r * cols + c] for r in range(r0, r1 + 1)):
                    dr, rx = -dr, 0.0  # a wall: turn round
                    break
                x += sign
                move -= sign
            # Y: gravity, then whole pixels down onto a floor (or up into a ceiling)
            vy = min(vy + g * dt, top)
            ry += vy * dt
            move = round(ry)
            ry -= move
            grounded = False
            c0, c1 = x // ts, (x + w - 1) // ts
            while move:
                if move > 0:
                    base = (y + h) // ts * cols if (y + h) % ts == 0 else -1
                    if base >= 0 and any(floor[base + c] for c in range(c0, c1 + 1)):
                        vy, ry, grounded = 0.0, 0.0, True
                        break
                    y += 1
                    move -= 1
                else:
                    base = (y - 1) // ts * cols
                    if any(wall[base + c] for c in range(c0, c1 + 1)):
                        vy, ry = 0.0, 0.0
                        break
                    y -= 1
                    move += 1
            if not grounded and (y + h) % ts == 0:  # resting on a floor with less than a pixel to fall
                base = (y + h) // ts * cols
                grounded = any(floor[base + c] for c in range(c0, c1 + 1))
                if grounded:
                    vy, ry = 0.0, 0.0
            # a ledge: no floor under the point just ahead of the leading foot
            if grounded:
                c = (x + w) // ts if dr > 0 else (x - 1) // ts
                if not floor[(y + h) // ts * cols + c]:
                    dr, rx = -dr, 0.0
            b[0], b[1], b[2], b[3], b[4], b[5], b[6] = x, y, rx, ry, vy, dr, grounded

    step.bodies = bodies
    return step


# -- the naive loop (shared/reference/003) -----------------------------------------------------------------
def naive(sc: Scene):
    """Move-and-slide against a list of every non-empty tile as a box (X, then Y), turning at walls."""
    ts = sc.grid.tile_size
    solids = [(c * ts, r * ts, ts, ts) for r in range(sc.grid.rows) for c in range(sc.grid.cols)
              if sc.grid.kind_at(c, r) != TileKind.EMPTY]
    w, h = SIZE
    bodies = [[x, y, d * SPEED, 0.0] for x, y, d in sc.starts]
    d = sc.feel.derived
    dt, g, top = d.dt, d.fall_gravity, sc.feel.fall.max_speed

    def step():
        for b in bodies:
            x, y, vx, vy = b
            x += vx * dt
            for sx, sy, sw, sh in solids:
                if x < sx + sw and x + w > sx and y < sy + sh and y + h > sy:
                    x = sx - w if vx > 0 else sx + sw
                    vx = -vx
                    break
            vy = min(vy + g * dt, top)
            y += vy * dt
            for sx, sy, sw, sh in solids:
                if x < sx + sw and x + w > sx and y < sy + sh and y + h > sy:
                    y = sy - h if vy > 0 else sy + sh
                    vy = 0.0
                    break
            b[0], b[1], b[2], b[3] = x, y, vx, vy

    return step


# -- other libraries -------------------------------------------------------------------------------------
def _boxes(sc: Scene):
    ts = sc.grid.tile_size
    return [(c * ts, r * ts) for r in range(sc.grid.rows) for c in range(sc.grid.cols)
            if sc.grid.kind_at(c, r) != TileKind.EMPTY]


def arcade_walkers(sc: Scene):
    """arcade's PhysicsEnginePlatformer, one per sprite, walls in a spatial-hash SpriteList (y up)."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade

    ts = sc.grid.tile_size
    height = sc.grid.rows * ts
    walls = arcade.SpriteList(use_spatial_hash=True)
    for x, y in _boxes(sc):
        wall = arcade.SpriteSolidColor(ts, ts, color=arcade.color.GRAY)
        wall.left, wall.bottom = x, height - y - ts
        walls.append(wall)
    hz = sc.feel.physics.hz
    gravity = sc.feel.derived.fall_gravity / hz / hz  # px per frame per frame
    engines = []
    for x, y, d in sc.starts:
        sprite = arcade.SpriteSolidColor(int(SIZE[0]), int(SIZE[1]), color=arcade.color.RED)
        sprite.left, sprite.bottom = x, height - y - SIZE[1]
        sprite.change_x = d * SPEED / hz
        engines.append(arcade.PhysicsEnginePlatformer(sprite, walls=walls, gravity_constant=gravity))

    def step():
        for engine in engines:
            sprite = engine.player_sprite
            want = sprite.change_x
            x0 = sprite.center_x
            engine.update()
            if abs(sprite.center_x - x0) < abs(want) * 0.5:  # blocked: turn round
                want = -want
            sprite.change_x = want

    return step


def pymunk_walkers(sc: Scene):
    """pymunk: a static box per tile, a dynamic box per walker (no rotation, walkers pass through each
    other like engine actors do), velocity set each step, turning when blocked."""
    import pymunk

    ts = sc.grid.tile_size
    space = pymunk.Space()
    space.gravity = (0.0, sc.feel.derived.fall_gravity)
    static = space.static_body
    for x, y in _boxes(sc):
        box = pymunk.Poly(static, [(x, y), (x + ts, y), (x + ts, y + ts), (x, y + ts)])
        box.friction = 0.0
        space.add(box)
    walkers = []
    no_self = pymunk.ShapeFilter(group=1)
    for x, y, d in sc.starts:
        body = pymunk.Body(1.0, float("inf"))
        body.position = (x + SIZE[0] / 2, y + SIZE[1] / 2)
        shape = pymunk.Poly.create_box(body, SIZE)
        shape.friction = 0.0
        shape.filter = no_self
        space.add(body, shape)
        walkers.append([body, d, 0.0])
    dt = sc.feel.derived.dt

    def step():
        for w in walkers:
            body = w[0]
            body.velocity = (w[1] * SPEED, body.velocity.y)
            w[2] = body.position.x
        space.step(dt)
        for w in walkers:
            if abs(w[0].position.x - w[2]) < SPEED * dt * 0.5:  # blocked: turn round
                w[1] = -w[1]

    return step


# -- the part ------------------------------------------------------------------------------------------------
def warm(step, steps: int):
    for _ in range(steps):
        step()
    return step


def run(mode: str) -> list[Figure]:
    n100, n1000 = pick(mode, (10, 40), (100, 1000), (100, 1000))
    calls, rounds = pick(mode, (2, 2), (20, 5), (60, 9))
    big, small = scene(n1000), scene(n100)
    n10000 = pick(mode, 400, 10000, 10000)
    steps = {"actors_100_ms": warm(BATCH(small), 30), "actors_1000_ms": warm(BATCH(big), 30),
             "actors_10000_ms": warm(BATCH(scene(n10000)), 30),
             "actors_1000_per_actor_ms": warm(per_actor(big), 30),
             "actors_100_per_actor_ms": warm(per_actor(small), 30),
             "crowd_crate_1000_ms": warm(crates(big), 30), "handloop_1000_ms": warm(handloop(big), 30)}
    # (alternating rounds: the machine's load falls on the batch and the per-actor path alike)
    cpu: dict[str, float] = {}
    out = [Figure(key, t * 1e3) for key, t in interleaved(steps, calls, rounds, cpu).items()]
    out += [Figure(key.replace("_ms", "_cpu_ms"), t * 1e3) for key, t in cpu.items()]
    simple = warm(naive(big), 1)
    out.append(Figure("naive_1000_ms", per_call(simple, pick(mode, 1, 1, 3)) * 1e3))
    out.extend(_library("arcade", lambda: arcade_walkers(small), "arcade_100_ms", calls, rounds))
    out.extend(_library("pymunk", lambda: pymunk_walkers(big), "pymunk_1000_ms", calls, rounds))
    return out


def _library(name: str, build, key: str, calls: int, rounds: int) -> list[Figure]:
    try:
        step = build()
    except ImportError:
        return [Figure(key, None, missing(name))]
    warm(step, 30)
    return [Figure(key, interleaved({name: step}, calls, rounds)[name] * 1e3)]
