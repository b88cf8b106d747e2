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

__all__ = ["PlayerLook", "Scarf", "draw_level_things", "draw_player", "platforms_of", "rail_image", "spike_strips",
           "DEATH_ANIM"]

DEATH_ANIM = 0.36  # s, the death frames play once, then the player is hidden until the respawn


def platforms_of(world) -> list:
    return list(getattr(world, "platforms", None) or [])


class Scarf:
    """The hero's scarf tail: a few points hanging from the knot, each following the one before at a
    fixed length with inertia and a little gravity, so it trails behind a run, streams up in a fall and
    droops at rest (drawn each frame; purely visual)."""

    POINTS = 4
    LINK = 2.5  # px between points
    GRAVITY = 150.0  # px/s^2
    DRAG = 9.0  # 1/s: how fast a point's own motion dies out (the air holds it back: it streams behind)
    TELEPORT = 24.0  # px: a knot that jumps further (a respawn) puts the scarf back at rest

    def __init__(self):
        self.points: list[list[float]] | None = None
        self.prev: list[list[float]] = []

    def reset(self) -> None:
        self.points = None

    def update(self, knot: tuple[float, float], facing: int, dt: float, t: float = 0.0) -> list[tuple]:
        """Move the tail for a frame of ``dt`` s with its knot at map point ``knot``; returns the points."""
        kx, ky = knot
        pts = self.points
        if pts is None or math.hypot(pts[0][0] - kx, pts[0][1] - ky) > self.TELEPORT:
            pts = [[kx - facing * self.LINK * i, ky + i * 0.8] for i in range(self.POINTS)]
            self.prev = [p[:] for p in pts]
        dt = min(dt, 1 / 30)
        keep = math.exp(-self.DRAG * dt)
        moved = math.hypot(pts[0][0] - kx, pts[0][1] - ky) / max(dt, 1e-6)  # px/s the knot travels
        pts[0] = [kx, ky]
        for i in range(1, len(pts)):
            p, q = pts[i], self.prev[i]
            vx, vy = (p[0] - q[0]) * keep, (p[1] - q[1]) * keep
            self.prev[i] = p[:]
            flutter = math.sin(t * 22.0 + i * 1.7) * min(1.0, moved / 160.0) * 0.6  # px: it ripples at speed
            p[0] += vx - facing * 4.0 * dt  # a breath of wind behind the hero: at rest it hangs back a little
            p[1] += vy + self.GRAVITY * dt * dt + flutter * (i / len(pts))
            ax, ay = pts[i - 1]
            dx, dy = p[0] - ax, p[1] - ay
            d = math.hypot(dx, dy) or 1e-6
            p[0], p[1] = ax + dx / d * self.LINK, ay + dy / d * self.LINK
        self.points = pts
        self.prev[0] = pts[0][:]
        return [tuple(p) for p in pts]


SCARF_DARK, SCARF_LIT, SCARF_SHADE = (24, 20, 37), (247, 118, 34), (190, 74, 47)
GHOST_EVERY = 0.03  # s between a dash's afterimages
GHOST_LIFE = 0.18  # s an afterimage takes to fade out


class PlayerLook:
    """Which animation the player shows and for how long; fed once per frame. Also the purely visual
    bits that follow it: the scarf's tail and a dash's afterimages."""

    STEP_MAX = 12.0  # px: a larger vertical jump is a teleport (respawn), not a step
    STEP_DECAY = 22.0  # 1/s: how fast the sprite catches up with the box after a step
    TAKEOFF = 0.05  # s the crouch of a take-off shows (anticipation)
    SKID_SPEED = 40.0  # px/s: moving this fast against the way the hero faces, on the ground, is a skid

    def __init__(self):
        self.anim = "idle"
        self.t = 0.0
        self.land_t = 0.0
        self.takeoff_t = 0.0
        self.face: int | None = None  # the way the frame faces when the pose decides it (a wall), else None
        self.visible = True
        self.frame_dt = 0.0  # s, the last frame (the scarf moves by it)
        self.clock = 0.0  # s, for the scarf's ripple
        self.scarf = Scarf()
        self.ghosts: list[list] = []  # [map x, map y, image, age]: a dash's afterimages
        self.ghost_t = 0.0
        # Step smoothing: where a slope meets a flat block the engine lifts the box onto the block in
        # one step (it never overlaps solids); the sprite eases over that pop instead of jumping.
        self.step_offset = 0.0
        self._last = None  # (x, y, on_ground) seen last frame

    def landed(self) -> None:
        self.land_t = 0.12

    def took_off(self) -> None:
        self.takeoff_t = self.TAKEOFF

    def died(self) -> None:
        self.anim, self.t = "death", 0.0
        self.ghosts.clear()

    def respawned(self) -> None:
        self.visible = True
        self.anim, self.t = "idle", 0.0
        self.scarf.reset()
        self.ghosts.clear()

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

    def pose(self, player) -> tuple[str, int | None]:
        """(animation, the way it must face or None) for the player's state now."""
        facing = getattr(player, "facing", 1) or 1
        if getattr(player, "dashing", False):
            return "dash", None
        if not player.on_ground:
            side = getattr(player, "sliding", 0)
            if side:
                return "wall", side  # the frames have the wall on their right
            if getattr(player, "lock_left", 0) > 0 and player.vy < 0:
                return "walljump", getattr(player, "lock_dir", 0) or None  # kicking away from the wall
            if self.takeoff_t > 0:
                return "takeoff", None
            return ("jump" if player.vy < 0 else "fall"), None
        if self.land_t > 0:
            return "land", None
        if player.vx * facing < -self.SKID_SPEED:
            return "skid", None
        return ("run" if abs(player.vx) > 12 else "idle"), None

    def update(self, dt: float, player) -> None:
        self._smooth_steps(dt, player)
        self.frame_dt = dt
        self.clock += dt
        for g in self.ghosts:
            g[3] += dt
        self.ghosts = [g for g in self.ghosts if g[3] < GHOST_LIFE]
        self.ghost_t += dt
        if self.anim == "death":
            self.t += dt
            self.visible = self.t < DEATH_ANIM
            return
        if self.land_t > 0:
            self.land_t -= dt
        if self.takeoff_t > 0:
            self.takeoff_t -= dt
        anim, self.face = self.pose(player)
        if anim != self.anim:
            self.anim, self.t = anim, 0.0
        else:
            self.t += dt * (0.6 + min(1.0, abs(player.vx) / 150) * 0.6 if anim == "run" else 1.0)


def _ghost(art, frame):
    """A dash afterimage of ``frame``: the hero's shape in a cold blue (cached per frame)."""
    cache = art.__dict__.setdefault("_ghosts", {})
    img = cache.get(id(frame))
    if img is None:
        img = frame.copy()
        img.fill((40, 40, 40, 0), special_flags=pygame.BLEND_RGB_MULT)
        img.fill((44, 180, 245, 0), special_flags=pygame.BLEND_RGB_ADD)
        cache[id(frame)] = img
    return img


def draw_player(surf, art, player, look: PlayerLook, squash, alpha: float, view) -> None:
    if not look.visible:
        return
    x, y = player.interpolated(alpha)
    y += look.step_offset
    frame = art.player_frame(look.anim, look.t)
    facing = look.face or getattr(player, "facing", 1) or 1
    right_frame = frame
    if facing < 0:
        frame = art.flipped(frame)
    fw, fh = frame.get_size()
    sx, sy = squash.sx, squash.sy
    scaled = abs(sx - 1) > 0.04 or abs(sy - 1) > 0.04
    if scaled:
        frame = pygame.transform.scale(frame, (max(1, round(fw * sx)), max(1, round(fh * sy))))
    dw, dh = frame.get_size()
    feet_mx, feet_my = x + player.w / 2, y + player.h
    # a dash leaves afterimages behind, fading
    if look.anim == "dash" and look.ghost_t >= GHOST_EVERY:
        look.ghost_t = 0.0
        look.ghosts.append([feet_mx, feet_my, art.flipped(right_frame) if facing < 0 else right_frame, 0.0])
    for gx, gy, img, age in look.ghosts:
        ghost = _ghost(art, img)
        ghost.set_alpha(round(170 * (1.0 - age / GHOST_LIFE)))
        gsx, gsy = view.at(gx, gy)
        surf.blit(ghost, (gsx - img.get_width() // 2, gsy - img.get_height()))
    feet_x, feet_y = view.at(feet_mx, feet_my)
    left, top = feet_x - dw // 2, feet_y - dh
    knot = art.scarf_knot(right_frame) if hasattr(art, "scarf_knot") else None
    if knot is not None:  # the scarf's tail, behind the body: from the knot, in map px
        kx = knot[0] if facing > 0 else fw - 1 - knot[0]
        mx = feet_mx - fw / 2 * sx + (kx + 0.5) * (dw / fw)
        my = feet_my - dh + (knot[1] + 0.5) * (dh / fh)
        pts = look.scarf.update((mx, my), facing, look.frame_dt, look.clock)
        screen = [view.at(px, py) for px, py in pts]
        pygame.draw.lines(surf, SCARF_DARK, False, screen, 4)
        pygame.draw.lines(surf, SCARF_SHADE, False, screen, 2)
        pygame.draw.lines(surf, SCARF_LIT, False, screen[:-1], 1)
    surf.blit(frame, (left, top))


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
