"""Actors meeting, in about 170 lines: walkers to stomp, a pushable crate to shove and stand on, blocks to
break with your head, a turret's bullets, a vine to swing on. Everything a hit means is read from the step's
results as data (engine/docs/actors.md: events, touches, solid and pushable crates, bullets; engine/docs/ropes.md:
holding a rope; engine/docs/queries.md: sweep); the game decides what it does.

Run:  python examples/actors.py   (arrows move, Space jumps, walk into the crate to push it, jump to the vine
and hold Up to grab it: Left / Right swing, Up / Down climb, Space lets go; Esc quits)
"""

import sys

import pygame

from engine import Actor, Buttons, Character, FixedTimestep, Rope, RopeConfig, TileGrid, TileKind, World

LEVEL = """
########################################
#....................V.................#
#......................................#
#......................................#
#T.....................................#
#.........................W............#
#......BBBB.............######.........#
#......................................#
#......................................#
#P..........W...C.........#.........W..#
########################################
"""
HERO, ENEMY, SHOT = 1, 2, 4  # touch groups (bits)
WALK, SHOT_SPEED, PERIOD = 40.0, 240.0, 90  # px/s, px/s, steps between shots
COLOURS = {TileKind.SOLID: (70, 60, 90), TileKind.ONE_WAY: (150, 110, 60), TileKind.SLOPE: (90, 140, 80)}


class Game:
    """The level's bodies and the rules that give the step's events their meaning."""

    def __init__(self):
        rows = LEVEL.strip("\n").split("\n")
        marks = {(c, r): ch for r, line in enumerate(rows) for c, ch in enumerate(line) if ch in "PWCTVB"}
        grid = TileGrid.from_ascii("\n".join(line.replace("B", "#") for line in rows).translate(
            str.maketrans("PWCTV", ".....")))
        self.world, ts = World(grid), grid.tile_size
        self.breakable = {at for at, ch in marks.items() if ch == "B"}
        spot = {ch: (c * ts, r * ts) for (c, r), ch in marks.items()}
        self.start = (spot["P"][0] + 3, spot["P"][1] + 2)
        self.hero = self.world.add(Character(*self.start, group=HERO, touches=ENEMY | SHOT))
        self.walkers = [self.world.add(Actor(c * ts + 2, r * ts + 4, 12, 12, group=ENEMY, name="walker"))
                        for (c, r), ch in marks.items() if ch == "W"]
        for walker in self.walkers:
            walker.vx = WALK
        self.crate = self.world.add(Actor(*spot["C"], 16, 16, solid=True, pushable=True, name="crate"))
        self.turret = (spot["T"][0] + ts, spot["T"][1] + ts // 2)  # the muzzle: right of the turret's tile
        self.vine = self.world.add(Rope(spot["V"][0] + ts / 2, ts, RopeConfig(segments=11)))
        self.bullets: list[Actor] = []
        self.broken = self.stomps = self.deaths = self.stopped = self.safe = self.swings = 0  # safe: steps unhurt

    def step(self, buttons: Buttons) -> None:
        world, hero = self.world, self.hero
        if world.steps % PERIOD == 0:  # the turret fires right
            shot = world.add(Actor(*self.turret, 3, 3, bullet=True, gravity=False, group=SHOT, name="shot"))
            shot.vx = SHOT_SPEED
            self.bullets.append(shot)
        self.grab(buttons)
        result = world.step(buttons)  # (walking into the pushable crate pushes it: the engine does that)
        for e in result.events:
            if e.actor is hero and e.kind == "ceiling" and e.tile in self.breakable:
                world.grid.set_tile(*e.tile, TileKind.EMPTY)  # a head bump breaks the block
                self.breakable.discard(e.tile)
                self.broken += 1
            elif e.actor in self.bullets and e.kind in ("wall", "ceiling", "landed"):
                self.stopped += 1  # a bullet dies on whatever solid it hits
                self.drop(e.actor)
        for walker in self.walkers:
            patrol(world, walker)
        self.safe = max(0, self.safe - 1)
        for t in result.touches:  # the hero touches enemies and shots
            if t.other in self.walkers and t.side == "top":
                self.walkers.remove(t.other)  # landed on it from above: a stomp
                world.remove(t.other)
                hero.vy = -0.8 * world.feel.derived.takeoff_speed
                self.stomps += 1
            elif (t.other in self.walkers or t.other in self.bullets) and not self.safe:
                self.die()
                break
        if hero in result.squished or hero.y > world.grid.height:
            self.die()

    def grab(self, buttons: Buttons) -> None:
        """Up grabs the vine where the hero's hands touch it; a jump press lets go, with a hop."""
        hero, vine = self.hero, self.vine
        if hero.holding is vine:
            if buttons.jump and not hero.held.jump:
                vine.release(hero)  # it flies on with the swing's velocity
                hero.vy = min(hero.vy, -0.6 * self.world.feel.derived.takeoff_speed)
            return
        i = vine.nearest(hero.x + hero.w / 2, hero.y)
        x, y = vine.points[i]
        if buttons.up and i and hero.x <= x <= hero.x + hero.w and hero.y - 4 <= y <= hero.y + hero.h:
            vine.attach(hero, i)
            self.swings += 1

    def drop(self, shot: Actor) -> None:
        self.bullets.remove(shot)
        self.world.remove(shot)

    def die(self) -> None:
        self.deaths += 1
        self.safe = 120  # two seconds to get away from what killed it
        self.hero.teleport(*self.start)


def patrol(world: World, walker: Actor) -> None:
    """Walk on, turning round at a wall (or a crate) and where the ground ends: never off an edge."""
    if walker.wall is not None:
        walker.vx = walker.wall.normal[0] * WALK  # away from what stopped it (its vx is 0 now)
    elif walker.on_ground:
        ahead = walker.x + walker.w + 1.0 if walker.vx > 0 else walker.x - 2.0
        feet = walker.y + walker.h
        # a dry run down from just past its leading foot, a width (+2 px) deep: a 45-degree ramp falls away
        # that far within a width, so it walks down hills and turns only where the ground really ends
        if world.sweep((ahead, feet - 1.0, 1.0, 1.0), 0.0, walker.w + 2.0) is None:
            walker.vx = -walker.vx


def draw(screen, game: Game, alpha: float) -> None:
    grid, ts = game.world.grid, game.world.grid.tile_size
    screen.fill((24, 26, 40))
    for row in range(grid.rows):
        for col in range(grid.cols):
            kind = grid.kind_at(col, row)
            if kind:
                colour = (150, 90, 70) if (col, row) in game.breakable else COLOURS[kind]
                pygame.draw.rect(screen, colour, (col * ts, row * ts, ts, ts if kind != TileKind.ONE_WAY else 4))
    pygame.draw.rect(screen, (120, 120, 130), (game.turret[0] - ts, game.turret[1] - 6, ts, 12))
    pygame.draw.lines(screen, (80, 170, 70), False, game.vine.interpolated(alpha), 2)
    for body, colour in [(game.crate, (160, 120, 60)), (game.hero, (240, 220, 120))] + \
            [(w, (220, 80, 80)) for w in game.walkers] + [(b, (255, 240, 160)) for b in game.bullets]:
        x, y = body.interpolated(alpha)
        pygame.draw.rect(screen, colour, (round(x), round(y), round(body.w), round(body.h)))


def main(max_frames: int | None = None) -> None:
    pygame.init()
    game = Game()
    screen = pygame.display.set_mode((game.world.grid.width, game.world.grid.height), pygame.SCALED)
    clock, timer, frames = FixedTimestep(game.world), pygame.time.Clock(), 0
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
            game.step(buttons)
        draw(screen, game, clock.alpha)
        pygame.display.set_caption(f"broken {game.broken}  stomps {game.stomps}  swings {game.swings}  "
                                   f"deaths {game.deaths}")
        pygame.display.flip()
    pygame.quit()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else None)
