"""Sprite sheets from assets/ cut into frames, with drawn-in-code stand-ins when a sheet is missing.

Frame layouts follow assets/README.md. Every frame list holds right-facing frames; ``flipped`` caches the
left-facing copies.
"""

from __future__ import annotations

from pathlib import Path

import pygame

__all__ = ["Art", "ASSETS"]

ASSETS = Path(__file__).resolve().parents[3] / "assets"

# player.png: one row per animation, frames of PLAYER_FRAME px; (row, frame count, seconds per frame)
PLAYER_FRAME = (16, 20)
PLAYER_ANIMS = {"idle": (0, 4, 0.18), "run": (1, 8, 0.07), "jump": (2, 2, 0.1), "fall": (3, 2, 0.1),
                "land": (4, 2, 0.06), "death": (5, 4, 0.09), "skid": (6, 1, 0.1), "takeoff": (7, 1, 0.05),
                "wall": (8, 2, 0.12), "dash": (9, 2, 0.05), "walljump": (10, 1, 0.1)}
ONCE = ("jump", "land", "death", "takeoff", "walljump")  # played once, holding the last frame
SCARF = (247, 118, 34)  # the scarf band's colour in player.png: the trailing tail is knotted at its left end
# items.png (128x64): row y=0: six 16x16 coin frames; y=16: 16x32 flags (down, then up frames) and two
# 32x32 goal frames at x=64; y=48: 16x16 spikes.
ITEM = 16


def _load(name: str) -> pygame.Surface | None:
    path = ASSETS / name
    if not path.exists():
        return None
    try:
        img = pygame.image.load(str(path))
    except pygame.error:
        return None
    return img.convert_alpha() if pygame.display.get_surface() else img


def _cut(sheet: pygame.Surface, x: int, y: int, w: int, h: int) -> pygame.Surface:
    out = pygame.Surface((w, h), pygame.SRCALPHA)
    out.blit(sheet, (0, 0), (x, y, w, h))
    return out


class Art:
    def __init__(self):
        self.player = self._player()
        self.scarf_knots = {id(f): _knot(f) for frames, _ in self.player.values() for f in frames}
        self.coin = self._coin()
        self.flag_down, self.flag_up = self._flags()  # flag_up: frames (waving)
        self.goal = self._goal()
        self.spike = self._spike()
        self.dust = self._dust()
        self.platform, self.platform_one_way = self._platforms()
        self.objects = self._objects()  # level object frames by name (render/kinds.py OBJECT_FRAMES)
        self.bg_far = _load("bg_far.png")
        self.bg_near = _load("bg_near.png")
        self._backdrops: dict[str, tuple] = {}
        self._flip: dict[int, pygame.Surface] = {}

    def backdrop(self, world: str) -> tuple:
        """(far, near) pictures of a world's default backdrop (render/worlds.py), loaded once; dusk's (or
        None) when the world's are missing."""
        from .worlds import BACKDROPS

        pair = self._backdrops.get(world)
        if pair is None:
            far, near = BACKDROPS.get(world, BACKDROPS["dusk"])
            pair = (_load(far) or self.bg_far, _load(near) or self.bg_near)
            self._backdrops[world] = pair
        return pair

    def scarf_knot(self, frame: pygame.Surface) -> tuple[int, int] | None:
        """Where the scarf's tail starts on a right-facing player frame (px from its top-left), or None
        (no scarf: the death burst)."""
        return self.scarf_knots.get(id(frame))

    def flipped(self, surf: pygame.Surface) -> pygame.Surface:
        key = id(surf)
        out = self._flip.get(key)
        if out is None:
            out = self._flip[key] = pygame.transform.flip(surf, True, False)
        return out

    def player_frame(self, anim: str, t: float) -> pygame.Surface:
        frames, dur = self.player.get(anim) or self.player["idle"]
        if anim in ONCE:
            i = min(int(t / dur), len(frames) - 1)
        else:
            i = int(t / dur) % len(frames)
        return frames[i]

    # -- loading with stand-ins -----------------------------------------------------------------------
    def _player(self) -> dict[str, tuple[list[pygame.Surface], float]]:
        sheet = _load("player.png")
        fw, fh = PLAYER_FRAME
        out = {}
        for anim, (row, count, dur) in PLAYER_ANIMS.items():
            if sheet and sheet.get_height() >= (row + 1) * fh and sheet.get_width() >= count * fw:
                out[anim] = ([_cut(sheet, i * fw, row * fh, fw, fh) for i in range(count)], dur)
            else:
                out[anim] = ([_stand_in_player(anim, i) for i in range(count)], dur)
        return out

    def _items(self):
        return _load("items.png")

    def _coin(self) -> list[pygame.Surface]:
        sheet = self._items()
        if sheet:
            return [_cut(sheet, i * ITEM, 0, ITEM, ITEM) for i in range(min(6, sheet.get_width() // ITEM))]
        frames = []
        for w in (6, 5, 3, 1, 3, 5):
            s = pygame.Surface((ITEM, ITEM), pygame.SRCALPHA)
            r = pygame.Rect(0, 0, max(1, w), 8)
            r.center = (8, 8)
            pygame.draw.ellipse(s, (255, 214, 92), r)
            if w > 2:
                pygame.draw.ellipse(s, (190, 120, 40), r, 1)
                s.fill((255, 250, 200), (r.x + 1, r.y + 2, 1, 2))
            frames.append(s)
        return frames

    def _flags(self):
        sheet = self._items()
        if sheet and sheet.get_height() >= 3 * ITEM:
            return (_cut(sheet, 0, ITEM, ITEM, 2 * ITEM),
                    [_cut(sheet, i * ITEM, ITEM, ITEM, 2 * ITEM) for i in (1, 2, 3)])
        out = []
        for up in (False, True):
            s = pygame.Surface((ITEM, ITEM), pygame.SRCALPHA)
            s.fill((120, 100, 90), (3, 1, 2, 15))
            col = (120, 230, 120) if up else (160, 150, 150)
            top = 2 if up else 9
            pygame.draw.polygon(s, col, [(5, top), (13, top + 2), (5, top + 5)])
            out.append(s)
        return out[0], [out[1]]

    def _goal(self) -> list[pygame.Surface]:
        sheet = self._items()
        if sheet and sheet.get_height() >= 3 * ITEM and sheet.get_width() >= 8 * ITEM:
            return [_cut(sheet, (4 + 2 * i) * ITEM, ITEM, 2 * ITEM, 2 * ITEM) for i in range(2)]
        frames = []
        for i in range(2):
            s = pygame.Surface((ITEM, ITEM * 2), pygame.SRCALPHA)
            s.fill((220, 220, 235), (2, 1, 2, 31))
            pygame.draw.polygon(s, (255, 214, 92) if i == 0 else (255, 180, 70),
                                [(4, 2), (14, 5 + i), (4, 9)])
            frames.append(s)
        return frames

    def _dust(self) -> list[pygame.Surface]:
        """Dust puff frames (grow, then fade): items.png (64, 48), 8x8, four frames."""
        sheet = self._items()
        if sheet and sheet.get_width() >= 96 and sheet.get_height() >= 56:
            return [_cut(sheet, 64 + 8 * i, 48, 8, 8) for i in range(4)]
        return []

    def _spike(self) -> pygame.Surface:
        sheet = self._items()
        if sheet and sheet.get_height() >= 4 * ITEM:
            return _cut(sheet, 0, 3 * ITEM, ITEM, ITEM)
        s = pygame.Surface((ITEM, ITEM), pygame.SRCALPHA)
        for x0 in (0, 8):
            pygame.draw.polygon(s, (210, 215, 230), [(x0, 15), (x0 + 4, 7), (x0 + 8, 15)])
            pygame.draw.line(s, (120, 120, 150), (x0 + 4, 8), (x0 + 7, 15))
        return s

    def _platforms(self) -> tuple[pygame.Surface, pygame.Surface]:
        """platform.png: 48 px wide (left | middle | right caps of 16 px); the top 8-px row is the solid
        platform, the next one the one-way platform."""
        sheet = _load("platform.png")
        if sheet and sheet.get_width() >= 48 and sheet.get_height() >= 16:
            return _cut(sheet, 0, 0, 48, 8), _cut(sheet, 0, 8, 48, 8)
        tile = self._platform_tile()
        return tile, tile

    def _objects(self) -> dict[str, list[pygame.Surface]]:
        """objects.png cut by the table in render/kinds.py; a missing or short sheet gets plain boxes."""
        from .kinds import OBJECT_FRAMES, SHEET_SIZE, stand_in

        sheet = _load("objects.png")
        whole = sheet is not None and sheet.get_width() >= SHEET_SIZE[0] and sheet.get_height() >= SHEET_SIZE[1]
        out = {name: [_cut(sheet, f.x + i * f.w, f.y, f.w, f.h) if whole else stand_in(name, f.w, f.h, i)
                      for i in range(f.count)] for name, f in OBJECT_FRAMES.items()}
        for name, frames in out.items():  # threats get a light rim: they read on a night sky and a dark wall
            if name.startswith(RIMMED):
                out[name] = [rimmed(f) for f in frames]
        return out

    def _platform_tile(self) -> pygame.Surface:
        s = pygame.Surface((16, 8), pygame.SRCALPHA)
        s.fill((150, 96, 60))
        s.fill((196, 136, 84), (0, 0, 16, 2))
        s.fill((96, 60, 40), (0, 6, 16, 2))
        s.fill((90, 56, 36), (7, 2, 1, 4))
        return s


RIMMED = ("walker", "hopper", "flyer", "turret")  # object frames drawn with a light rim
RIM = (255, 246, 214, 120)  # the rim: a pale cream, half see-through


def rimmed(img: pygame.Surface) -> pygame.Surface:
    """A copy of ``img`` with every clear pixel next to an opaque one (side by side, inside the frame)
    painted in RIM: a 1 px halo around the silhouette."""
    out = img.copy()
    try:
        import numpy as np

        alpha = pygame.surfarray.array_alpha(img) > 0
    except (ValueError, pygame.error, ImportError):
        return out
    near = np.zeros_like(alpha)
    near[1:, :] |= alpha[:-1, :]
    near[:-1, :] |= alpha[1:, :]
    near[:, 1:] |= alpha[:, :-1]
    near[:, :-1] |= alpha[:, 1:]
    for x, y in zip(*np.nonzero(near & ~alpha), strict=True):
        out.set_at((int(x), int(y)), RIM)
    return out


def _knot(frame: pygame.Surface) -> tuple[int, int] | None:
    """The left end of the scarf band: its leftmost pixel of the scarf colour, one px further left."""
    w, h = frame.get_size()
    for x in range(w):
        for y in range(h):
            c = frame.get_at((x, y))
            if c.a and (c.r, c.g, c.b) == SCARF:
                return x - 1, y
    return None


def _stand_in_player(anim: str, i: int) -> pygame.Surface:
    """A little round hero drawn with rectangles: body, eye, feet that move with the run cycle."""
    s = pygame.Surface(PLAYER_FRAME, pygame.SRCALPHA)
    body = (92, 196, 255)
    dark = (40, 90, 160)
    bob = 1 if (anim == "idle" and i % 2) or (anim == "run" and i % 3 == 1) else 0
    pygame.draw.rect(s, dark, (3, 3 + bob, 10, 11 - bob), border_radius=3)
    pygame.draw.rect(s, body, (4, 4 + bob, 8, 9 - bob), border_radius=2)
    s.fill((255, 255, 255), (9, 6 + bob, 2, 3))
    s.fill((20, 20, 40), (10, 7 + bob, 1, 2))
    if anim != "death":
        s.fill(SCARF, (4, 12 + bob, 8, 1))
    if anim == "run":
        step = (0, 2, 3, 2, 0, -1, -2, -1)[i % 8]
        s.fill(dark, (4 + step // 2, 14, 3, 2))
        s.fill(dark, (9 - step // 2, 14, 3, 2))
    else:
        s.fill(dark, (4, 14, 3, 2))
        s.fill(dark, (9, 14, 3, 2))
    return s
