"""The engine in ~60 lines: a pygame window, an ASCII level, a player, fixed steps, interpolation.

Run:  python examples/minimal.py        (arrows move, Space jumps, Down+Space drops, Esc quits)
Copy engine/ next to this file and it runs in any project.
"""

import sys

import pygame

from engine import Buttons, Character, FixedTimestep, Path, Platform, TileGrid, TileKind, World

LEVEL = """
##############################
#............................#
#............................#
#..................====......#
#............................#
#.......====.............../##
#......................../###.
#....pq........#####....////##
##############################
"""
COLOURS = {TileKind.SOLID: (70, 60, 90), TileKind.ONE_WAY: (150, 110, 60), TileKind.SLOPE: (90, 140, 80)}


def main(max_frames: int | None = None) -> None:
    pygame.init()
    screen = pygame.display.set_mode((480, 144 * 2), pygame.SCALED)
    grid = TileGrid.from_ascii(LEVEL.replace("////", "/###"))
    world = World(grid)
    hero = world.add(Character(32, 100))
    lift = world.add(Platform(160, 112, 32, 8, Path([(160, 112), (160, 48)], speed=40, wait=0.5)))
    clock, timer, frames = FixedTimestep(world), pygame.time.Clock(), 0  # the world's step rate
    while max_frames is None or frames < max_frames:
        frames += 1
        if any(e.type == pygame.QUIT for e in pygame.event.get()):
            break
        keys = pygame.key.get_pressed()
        if keys[pygame.K_ESCAPE]:
            break
        buttons = Buttons(left=keys[pygame.K_LEFT], right=keys[pygame.K_RIGHT], down=keys[pygame.K_DOWN],
                          jump=keys[pygame.K_SPACE] or keys[pygame.K_z])
        for _ in range(clock.advance(timer.tick(144) / 1000)):
            world.step(buttons)
        screen.fill((24, 26, 40))
        ts = grid.tile_size
        for row in range(grid.rows):
            for col in range(grid.cols):
                kind = grid.kind_at(col, row)
                if kind == TileKind.SLOPE:
                    left, right = grid.slope_left[row, col], grid.slope_right[row, col]
                    base = (row + 1) * ts
                    pts = [(col * ts, base), (col * ts, base - left), ((col + 1) * ts, base - right),
                           ((col + 1) * ts, base)]
                    pygame.draw.polygon(screen, COLOURS[kind], pts)
                elif kind:
                    h = 4 if kind == TileKind.ONE_WAY else ts
                    pygame.draw.rect(screen, COLOURS[kind], (col * ts, row * ts, ts, h))
        px, py = lift.interpolated(clock.alpha)
        pygame.draw.rect(screen, (200, 170, 90), (round(px), round(py), lift.w, lift.h))
        hx, hy = hero.interpolated(clock.alpha)  # draw between the last two steps: smooth at any fps
        pygame.draw.rect(screen, (240, 220, 120), (round(hx), round(hy), hero.w, hero.h))
        pygame.display.flip()
    pygame.quit()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else None)
