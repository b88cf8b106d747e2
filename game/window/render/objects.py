"""Drawing a session's level objects in play -- vines, springs, turrets, crumbles, breakables and their
debris, refill crystals, enemies, bullets and puffs -- with the frames of ``render/kinds.py``, from the session's state.

Times come from the world's step count plus the frame's ``alpha`` (a pose or a crack stage follows the
simulation, also after a snapshot is restored). :class:`BlockTiles` keeps the map's tiles in step with
the crumbling and breakable tiles: a tile that shakes, fell or broke is taken off the map (and drawn here
while it shakes), and put back when it returns.
"""

from __future__ import annotations

from game.rules.hazards import spring_pose
from .kinds import (PUFF_TIME, EnemyLook, draw_breakable, draw_bullet, draw_crumble, draw_debris,
                    draw_enemy, draw_puff, draw_refill, draw_spring, draw_turret, draw_vine)

__all__ = ["BlockTiles", "draw_level_objects", "enemy_pose"]

LAND_STEPS, CROUCH_STEPS = 6, 8  # steps a hopper shows its landing squash, and crouches before a hop


def enemy_pose(kind: str, actor, hop_left: int, hop_steps: int) -> str:
    """The pose an enemy shows: walkers walk, flyers fly; a hopper sits, crouches, rises, falls, lands."""
    if kind != "hopper":
        return "walk" if kind == "walker" else "fly"
    if not actor.on_ground:
        return "jump" if actor.vy < 0 else "fall"
    if hop_left <= CROUCH_STEPS:
        return "crouch"
    return "land" if hop_steps - hop_left < LAND_STEPS else "idle"


def _visible(view, surf, x: float, y: float, w: float, h: float, pad: float = 24.0) -> bool:
    """Whether the box (map px) is within ``pad`` px of the screen."""
    vw, vh = surf.get_size()
    return view.x - w - pad < x < view.x + vw + pad and view.y - h - pad < y < view.y + vh + pad


def draw_level_objects(surf, art, session, alpha: float, view, t: float) -> None:
    """Every level object of ``session`` (drawn before the player: it passes in front of them)."""
    world = session.world
    dt, now = world.dt, world.steps + alpha  # (in steps)
    for rope in session.vines.ropes:
        draw_vine(surf, art, view, rope.interpolated(alpha))

    hz = session.hazards
    for i, body in enumerate(hz.springs):
        if _visible(view, surf, body.x, body.y, body.w, body.h):
            used = hz.used[i]
            draw_spring(surf, art, view, body.x, body.y, body.w, body.h,
                        spring_pose((now - used) * dt if used >= 0 else -1.0))
    for body in hz.turrets:
        if _visible(view, surf, body.x, body.y, body.w, body.h):
            spec = body.data
            since = hz.since_shot(spec, world.steps)
            period = max(1, round(spec.period / dt)) * dt  # (the rules' rhythm, in whole steps)
            until = round(spec.delay / dt) * dt - now * dt if since < 0 else period - since - alpha * dt
            draw_turret(surf, art, view, body.x, body.y, body.w, body.h, spec.direction,
                        since + alpha * dt if since >= 0 else since, until)

    blocks = session.blocks
    for i, spec in enumerate(blocks.crumbles):
        if not _visible(view, surf, spec.x, spec.y, spec.w, spec.h, 64.0):
            continue
        fell, shook = blocks.fell[i], blocks.shook[i]
        if fell >= 0:
            draw_debris(surf, art, view, spec.x, spec.y, spec.w, spec.h, "plank" if spec.one_way else "crumble",
                        (now - fell) * dt)
        elif shook >= 0 or not spec.cells:  # a crumbling tile is drawn here only while it shakes
            draw_crumble(surf, art, view, spec.x, spec.y, spec.w, spec.h, spec.one_way,
                         (now - shook) * dt if shook >= 0 else 0.0, spec.delay)
    for i, spec in enumerate(blocks.breakables):
        broke = blocks.broken[i]
        if not _visible(view, surf, spec.x, spec.y, spec.w, spec.h, 64.0):
            continue
        if broke >= 0:
            draw_debris(surf, art, view, spec.x, spec.y, spec.w, spec.h, "breakable", (now - broke) * dt)
        elif not spec.cells:
            draw_breakable(surf, art, view, spec.x, spec.y, spec.w, spec.h, spec.coin)

    refills = session.refills
    for i, (x, y, w, h) in enumerate(refills.boxes):
        if _visible(view, surf, x, y, w, h):
            back = 1.0
            if not refills.ready(i):
                total = refills.specs[i].respawn
                back = 0.0 if total <= 0 else max(0.0, 1.0 - (refills.back_in(i) - alpha * dt) / total)
                back = min(back, 0.999)
            draw_refill(surf, view, x, y, w, h, t + 0.37 * i, back)

    en = session.enemies
    vw, vh = surf.get_size()
    x0, x1, y0, y1 = view.x - 40, view.x + vw + 24, view.y - 40, view.y + vh + 24  # (inlined _visible)
    for i, e in enumerate(en.all):
        a = e.actor
        if not (en.alive[i] and x0 < a.x < x1 and y0 < a.y < y1):
            continue
        x, y = a.interpolated(alpha)
        kind = e.spec.kind
        pose = enemy_pose(kind, a, en.hop_left[i], en.hop_steps(e.spec)) if kind == "hopper" else ""
        draw_enemy(surf, art, view, EnemyLook(kind, x, y, a.w, a.h, en.facing_of(i), pose, t))
    for b in hz.bullets:
        x, y = b.interpolated(alpha)
        if _visible(view, surf, x, y, b.w, b.h):
            draw_bullet(surf, art, view, x + b.w / 2, y + b.h / 2, (now - b.data[1]) * dt)
    for puff in en.puffs + hz.bursts:
        age = (now - puff.step) * dt
        if age < PUFF_TIME:
            if puff.kind:
                draw_enemy(surf, art, view, EnemyLook(puff.kind, puff.x - puff.w / 2, puff.y - puff.h / 2, puff.w,
                                                      puff.h, puff.facing, "stomped"))
            draw_puff(surf, art, view, puff.x, puff.y, age)


class BlockTiles:
    """The map tiles of the crumbling and breakable tiles, shown only while the block is in place and
    still (a shaking crumble is drawn by :func:`draw_level_objects`, cracking)."""

    def __init__(self, renderer, level):
        self.renderer = renderer
        self.cells = []  # (spec index key, layer, col, row, the tile's gid on the map)
        for key, specs in (("crumble", level.crumbles), ("breakable", level.breakables)):
            for i, spec in enumerate(specs):
                for col, row in spec.cells:
                    self.cells.append(((key, i), spec.layer, col, row, renderer.tile_gid(spec.layer, col, row)))
        self.shown = [True] * len(self.cells)

    def sync(self, blocks) -> None:
        """Take off or put back the tiles whose block changed since the last call."""
        for n, ((key, i), layer, col, row, gid) in enumerate(self.cells):
            want = blocks.crumble_phase(i) == "still" if key == "crumble" else blocks.broken[i] < 0
            if want != self.shown[n]:
                self.renderer.set_tile(layer, col, row, gid if want else 0)
                self.shown[n] = want

