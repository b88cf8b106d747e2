"""The moving things of a level: player, coins, checkpoints, goal, spikes, platforms and their rails.

Everything is drawn at ``lerp(previous, current, alpha)`` and rounded once, by the camera's ``View.at``,
from the same interpolated camera the tiles are drawn with. Purely visual state (animation clocks,
squash) lives in :class:`PlayerLook`.
"""

from __future__ import annotations

import functools
import math
from itertools import pairwise

import pygame

__all__ = ["PlayerLook", "draw_level_things", "draw_player", "platforms_of", "rail_image", "spike_strips",
           "DEATH_ANIM"]

DEATH_ANIM = 0.36  # s, the death frames play once, then the player is hidden until the respawn


def platforms_of(world) -> list:
    return list(getattr(world, "platforms", None) or [])


class PlayerLook:
    """Which animation the player shows and for how long; fed once per frame."""

    STEP_MAX = 12.0  # px: a larger vertical jump is a teleport (respawn), not a step
    STEP_DECAY = 22.0  # 1/s: how fast the sprite catches up with the box after a step

    def __init__(self):
        self.anim = "idle"
        self.t = 0.0
        self.land_t = 0.0
        self.visible = True
        # Step smoothing: where a slope meets a flat block the engine lifts the box onto the block in
        # one step (it never overlaps solids); the sprite eases over that pop instead of jumping.
        self.step_offset = 0.0
        self._last = None  # (x, y, on_ground) seen last frame

    def landed(self) -> None:
        self.land_t = 0.12

    def died(self) -> None:
        self.anim, self.t = "death", 0.0

    def _smooth_steps(self, dt: float, player) -> None:
        last = self._last
        self._last = (player.x, player.y, player.on_ground)
        if last is not None and last[2] and player.on_ground:
            dy, dx = player.y - last[1], abs(player.x - last[0])
            excess = abs(dy) - dx  # more than a 45° slope explains
            if 0.5 < excess and abs(dy) <= self.STEP_MAX:
                self.step_offset -= math.copysign(excess, dy)
        elif last is not None and not player.on_ground:
            self.step_offset = 0.0
        self.step_offset *= math.exp(-dt * self.STEP_DECAY)
        if abs(self.step_offset) < 0.05:
            self.step_offset = 0.0

    def update(self, dt: float, player) -> None:
        self._smooth_steps(dt, player)
        if self.anim == "death":
            self.t += dt
            self.visible = self.t < DEATH_ANIM
            return
        if self.land_t > 0:
            self.land_t -= dt
        if player.on_ground:
            anim = "land" if self.land_t > 0 else ("run" if abs(player.vx) > 12 else "idle")
        else:
            anim = "jump" if player.vy < 0 else "fall"
        if anim != self.anim:
            self.anim, self.t = anim, 0.0
        else:
            self.t += dt * (0.6 + min(1.0, abs(player.vx) / 150) * 0.6 if anim == "run" else 1.0)


def draw_player(surf, art, player, look: PlayerLook, squash, alpha: float, view) -> None:
    if not look.visible:
        return
    x, y = player.interpolated(alpha)
    y += look.step_offset
    frame = art.player_frame(look.anim, look.t)
    if getattr(player, "facing", 1) < 0:
        frame = art.flipped(frame)
    fw, fh = frame.get_size()
    sx, sy = squash.sx, squash.sy
    if abs(sx - 1) > 0.04 or abs(sy - 1) > 0.04:
        frame = pygame.transform.scale(frame, (max(1, round(fw * sx)), max(1, round(fh * sy))))
        fw, fh = frame.get_size()
    feet_x, feet_y = view.at(x + player.w / 2, y + player.h)
    surf.blit(frame, (feet_x - fw // 2, feet_y - fh))


def spike_strips(level, has_tile) -> list:
    """Hazards to draw as a row of spikes: thin rectangles (at most a tile tall) that are not tile
    objects and have no tile drawn where they stand (``has_tile(x, y)``: the map already shows art)."""
    out = []
    for hz in level.hazards:
        if hz.gid or hz.h > level.tile_size or hz.w < 4 or hz.props.get("hidden"):
            continue
        if has_tile(hz.x + hz.w / 2, hz.y + hz.h - 1):
            continue
        out.append(hz)
    return out


def draw_level_things(surf, art, session, alpha: float, view, t: float, reached: set[int],
                      spikes: list = ()) -> None:
    level = session.level
    vw, vh = surf.get_size()

    for hz in spikes:
        x0, y = view.at(hz.x, hz.y + hz.h - 16)
        right = view.at(hz.x + hz.w, 0)[0]
        for x in range(x0, right, 16):
            if -16 < x < vw:
                surf.blit(art.spike, (x, y), (0, 0, min(16, right - x), 16))

    platforms = list(session.platforms.values())  # the moving ones (turrets, springs... are drawn as themselves)
    for platform in platforms:  # every rail first: a platform never passes under another one's rail
        rail = rail_image(platform.path.points, platform.w, platform.h)
        if rail is not None:
            img, (rx, ry) = rail
            x, y = view.at(rx, ry)
            if x < vw and y < vh and x + img.get_width() > 0 and y + img.get_height() > 0:
                surf.blit(img, (x, y))
    for platform in platforms:
        x0, y0 = view.at(*platform.interpolated(alpha))
        w, h = round(platform.w), round(platform.h)
        if x0 > vw or y0 > vh or x0 + w < 0 or y0 + h < 0:
            continue
        _draw_platform(surf, art.platform_one_way if getattr(platform, "one_way", False) else art.platform,
                       x0, y0, w, h)

    for cp in level.checkpoints:
        img = art.flag_up[int(t * 6) % len(art.flag_up)] if cp.id in reached else art.flag_down
        bx, by = view.at(cp.x + cp.w / 2, cp.y + cp.h)
        surf.blit(img, (bx - img.get_width() // 2, by - img.get_height()))

    for goal in level.goals:
        frames = art.goal
        img = frames[int(t * 4) % len(frames)]
        bx, by = view.at(goal.x + goal.w / 2, goal.y + goal.h)
        surf.blit(img, (bx - img.get_width() // 2, by - img.get_height()))

    coin_frames = art.coin
    for coin in level.coins:
        if coin.id in session.collected:
            continue
        mx, my = view.at(coin.x + coin.w / 2, coin.y + coin.h / 2)
        if not (-16 < mx < vw + 16 and -16 < my < vh + 16):
            continue
        phase = t * 2.0 + (coin.x + coin.w / 2) * 0.05
        img = coin_frames[int(phase * 4) % len(coin_frames)]
        bob = round(math.sin(phase * 1.7) * 1.5)
        surf.blit(img, (mx - img.get_width() // 2, my - img.get_height() // 2 + bob))


RAIL_DARK, RAIL_STEEL, RAIL_LIGHT = (24, 20, 37), (90, 105, 136), (139, 155, 180)
RAIL_TIE = 12  # px between the rail's rivets


@functools.lru_cache(maxsize=64)
def _rail(points: tuple, w: float, h: float):
    centres = [(x + w / 2, y + h / 2) for x, y in points]
    xs, ys = [p[0] for p in centres], [p[1] for p in centres]
    x0, y0 = math.floor(min(xs)) - 4, math.floor(min(ys)) - 4
    img = pygame.Surface((math.ceil(max(xs)) - x0 + 5, math.ceil(max(ys)) - y0 + 5), pygame.SRCALPHA)
    local = [(round(x - x0), round(y - y0)) for x, y in centres]
    pygame.draw.lines(img, RAIL_DARK, False, local, 3)
    pygame.draw.lines(img, RAIL_STEEL, False, local, 1)
    for (ax, ay), (bx, by) in pairwise(local):
        n = max(1, round(math.hypot(bx - ax, by - ay) / RAIL_TIE))
        for i in range(1, n):
            img.fill(RAIL_LIGHT, (round(ax + (bx - ax) * i / n), round(ay + (by - ay) * i / n), 1, 1))
    for i, c in enumerate(local):
        end = i in (0, len(local) - 1)
        pygame.draw.circle(img, RAIL_DARK, c, 3 if end else 2)
        pygame.draw.circle(img, RAIL_STEEL, c, 2 if end else 1)
        img.fill(RAIL_LIGHT, (c[0] - 1, c[1] - 1, 1, 1))
    return img, (x0, y0)


def rail_image(points, w: float, h: float):
    """The track a moving platform runs along (through its centre, from end stop to end stop) as
    ``(image, map top-left)``, drawn once per route; None for a platform that does not move."""
    pts = tuple((float(x), float(y)) for x, y in points)
    if len(set(pts)) < 2:
        return None
    return _rail(pts, float(w), float(h))


def _draw_platform(surf, tile: pygame.Surface, x: int, y: int, w: int, h: int) -> None:
    """Tile the platform image along the width; a 3-part sheet (left, middle, right) keeps its caps."""
    tw, th = tile.get_size()
    if tw >= 48 and tw % 3 == 0:  # left | middle | right
        part = tw // 3
        surf.blit(tile, (x, y), (0, 0, part, min(th, h)))
        for xx in range(x + part, x + w - part, part):
            surf.blit(tile, (xx, y), (part, 0, min(part, x + w - part - xx), min(th, h)))
        surf.blit(tile, (x + w - part, y), (2 * part, 0, part, min(th, h)))
    else:
        for xx in range(x, x + w, tw):
            surf.blit(tile, (xx, y), (0, 0, min(tw, x + w - xx), min(th, h)))
    if th < h:
        surf.fill((60, 40, 30), (x + 1, y + th, w - 2, h - th))
