"""Drawing the level's object kinds -- enemies, turrets and their bullets, springs, crumbling ground,
breakable blocks, vines, refill crystals and the hit puff -- from plain state (where, which way, which
pose, how far along).

Nothing here steps anything: the game hands each function the interpolated box and the pose of the thing,
and the time it has been in that pose, and gets it drawn at the camera's rounding (``view.at``). Frames
come from ``assets/objects.png``, laid out by :data:`OBJECT_FRAMES` (``tools/make_art.py`` draws the sheet
from the same table); ``Art`` loads them, with plain stand-ins when the sheet is missing.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import pygame

__all__ = ["OBJECT_FRAMES", "ENEMY_POSES", "Frames", "EnemyLook", "draw_enemy", "draw_turret", "draw_bullet",
           "BULLET_HALO", "BULLET_HALO_R",
           "draw_puff", "draw_spring", "draw_crumble", "draw_breakable", "draw_debris", "draw_vine",
           "crumble_stage", "shake", "stand_in", "SPRING_POSES", "FLASH_TIME", "PUFF_TIME", "DEBRIS_TIME",
           "draw_refill", "REFILL_COLOURS"]

class Frames(NamedTuple):
    x: int  # px, the first frame's top-left in objects.png
    y: int
    w: int  # px, one frame
    h: int
    count: int  # frames, side by side: frame i at (x + i * w, y)
    what: str  # what they show (assets/README.md)


# objects.png, every frame facing right (mirror for left). tools/make_art.py draws the sheet from this table.
OBJECT_FRAMES: dict[str, Frames] = {name: Frames(*spec) for name, spec in {
    "walker_walk": (0, 0, 16, 16, 4, "walker: walk cycle; its 14x12 body box is bottom-centred"),
    "walker_stomped": (64, 0, 16, 16, 1, "walker: flattened by a stomp"),
    "hopper_idle": (0, 16, 16, 16, 1, "hopper: sitting; its 12x12 body box is bottom-centred"),
    "hopper_crouch": (16, 16, 16, 16, 1, "hopper: crouching before a hop"),
    "hopper_jump": (32, 16, 16, 16, 1, "hopper: rising, stretched"),
    "hopper_fall": (48, 16, 16, 16, 1, "hopper: coming down, legs out"),
    "hopper_land": (64, 16, 16, 16, 1, "hopper: squashed on landing"),
    "hopper_stomped": (80, 16, 16, 16, 1, "hopper: flattened by a stomp"),
    "flyer_fly": (0, 32, 16, 16, 4, "flyer: wing flaps (up, middle, down, middle); its 14x10 box is centred"),
    "flyer_stomped": (64, 32, 16, 16, 1, "flyer: stomped, wings drooping"),
    "turret_right": (0, 48, 16, 16, 2, "turret firing right: idle, firing (recoil and muzzle flash)"),
    "turret_left": (32, 48, 16, 16, 2, "turret firing left: idle, firing"),
    "turret_up": (64, 48, 16, 16, 2, "turret firing up: idle, firing"),
    "turret_down": (96, 48, 16, 16, 2, "turret firing down: idle, firing"),
    "bullet": (0, 64, 8, 8, 2, "bullet, centred on its position; two frames of flicker"),
    "puff": (16, 64, 16, 16, 4, "stomp or hit: a flash, then puffs of cloud flying apart; centred"),
    "spring": (0, 80, 16, 16, 3, "spring on the bottom row: rest (pad top at y 8), compressed (y 11), "
                                "extended (y 2)"),
    "crumble": (0, 96, 16, 16, 4, "crumbling block (also tile `crumble`): intact, then three stages of cracks"),
    "crumble_debris": (64, 96, 8, 8, 4, "chunks a crumbling block falls apart into, centred"),
    "crumble_plank": (0, 112, 16, 16, 4, "crumbling one-way plank in the top 8 px (also tile `crumble_plank`): "
                                         "intact, then three stages of cracks"),
    "plank_debris": (64, 112, 8, 8, 4, "splinters of a crumbling plank, centred"),
    "breakable": (0, 128, 16, 16, 2, "breakable block (also tiles `breakable`, `breakable_coin`): plain, "
                                     "hiding a coin (a glint of gold)"),
    "breakable_debris": (32, 128, 8, 8, 4, "pieces of a broken block, centred"),
    "vine": (0, 144, 8, 8, 6, "vine pieces on a rope joint at (4, 4): tuft it hangs from, leaf left, leaf "
                              "right, small leaf left, small leaf right, flowering tip"),
}.items()}
SHEET_SIZE = (128, 152)  # px, objects.png

# Enemy poses: kind -> pose -> (frames name, seconds per frame or 0 for a still frame)
ENEMY_POSES: dict[str, dict[str, tuple[str, float]]] = {
    "walker": {"walk": ("walker_walk", 0.14), "stomped": ("walker_stomped", 0.0)},
    "hopper": {"idle": ("hopper_idle", 0.0), "crouch": ("hopper_crouch", 0.0), "jump": ("hopper_jump", 0.0),
               "fall": ("hopper_fall", 0.0), "land": ("hopper_land", 0.0), "stomped": ("hopper_stomped", 0.0)},
    "flyer": {"fly": ("flyer_fly", 0.08), "stomped": ("flyer_stomped", 0.0)},
}
ENEMY_ANCHOR = {"walker": "feet", "hopper": "feet", "flyer": "centre"}  # where a frame sits on the body box
ENEMY_BOX = {"walker": (14, 12), "hopper": (12, 12), "flyer": (14, 10)}  # px, the box the frames are drawn for
FLASH_TIME = 0.08  # s a turret shows its firing frame after a shot
PUFF_TIME = 0.32  # s the puff lasts (its four frames)
DEBRIS_TIME = 0.9  # s debris stays on screen
DEBRIS_GRAVITY = 700.0  # px/s^2
SPRING_POSES = ("rest", "compressed", "extended")


class EnemyLook(NamedTuple):
    """What an enemy shows this frame."""

    kind: str  # walker | hopper | flyer
    x: float  # px, the body box (interpolated), top-left
    y: float
    w: float
    h: float
    facing: int = -1  # +1 right, -1 left
    pose: str = ""  # one of ENEMY_POSES[kind]; "" = its first (walk, idle, fly)
    t: float = 0.0  # s in the pose: picks the frame of a cycle


def frame(art, name: str, i: int = 0):
    frames = art.objects[name]
    return frames[i % len(frames)]


def blit_frame(surf, img, view, x: float, y: float, anchor: str, flip_x: bool = False, art=None) -> None:
    """Draw ``img`` with its bottom-centre ("feet") or centre ("centre") on map point (x, y)."""
    if flip_x and art is not None:
        img = art.flipped(img)
    sx, sy = view.at(x, y)
    w, h = img.get_size()
    surf.blit(img, (sx - w // 2, sy - (h if anchor == "feet" else h // 2)))


def draw_enemy(surf, art, view, look: EnemyLook) -> None:
    poses = ENEMY_POSES[look.kind]
    name, per_frame = poses.get(look.pose) or next(iter(poses.values()))
    frames = art.objects[name]
    i = int(look.t / per_frame) % len(frames) if per_frame else 0
    img = frames[i]
    bw, bh = ENEMY_BOX[look.kind]
    scale = max(1, round(min(look.w / bw, look.h / bh)))  # a bigger body: the art at a whole multiple
    if scale > 1:
        img = _scaled(img, scale)
    if look.facing < 0:
        img = art.flipped(img)
    anchor = ENEMY_ANCHOR[look.kind]
    y = look.y + look.h if anchor == "feet" else look.y + look.h / 2
    blit_frame(surf, img, view, look.x + look.w / 2, y, anchor)


AIM = {"right": (1, 0), "left": (-1, 0), "up": (0, -1), "down": (0, 1)}
WINDUP = 0.4  # s before a shot that a turret shows it is about to fire: its muzzle glows, growing
WINDUP_GLOW = ((24, 20, 37), (228, 59, 68), (254, 174, 52), (255, 246, 214))  # rim, outer, middle, core


def draw_turret(surf, art, view, x: float, y: float, w: float, h: float, direction: str,
                since_shot: float = -1.0, until_shot: float = -1.0) -> None:
    """A turret's box; ``since_shot``: s since it last fired (the flash shows for FLASH_TIME), < 0: never;
    ``until_shot``: s until its next shot (in the last WINDUP s the muzzle charges up), < 0: unknown."""
    firing = 0.0 <= since_shot < FLASH_TIME
    cx, cy = x + w / 2, y + h / 2
    blit_frame(surf, frame(art, f"turret_{direction}", 1 if firing else 0), view, cx, cy, "centre")
    if 0.0 <= until_shot < WINDUP and not firing:
        k = 1.0 - until_shot / WINDUP  # 0 .. 1 as the shot nears
        ax, ay = AIM.get(direction, (1, 0))
        mx, my = view.at(cx + ax * (w / 2 + 1), cy + ay * (h / 2 + 1))
        r = 1 + round(3 * k)
        blink = int(until_shot * 30) % 2 == 0 or k > 0.7
        for i, colour in enumerate(WINDUP_GLOW):
            if r - i + 1 > 0 and (blink or i < 2):
                pygame.draw.circle(surf, colour, (mx, my), r - i + 1)


BULLET_HALO = (255, 246, 214)  # the bright ring around every bullet: it reads on dark walls and bright sky
BULLET_HALO_R = 5  # px: the ring's radius, a bullet drawn 11 px across (its hit box is smaller, 4 px)


def draw_bullet(surf, art, view, x: float, y: float, t: float = 0.0) -> None:
    """A bullet centred on (x, y) inside a bright outline (at least 6 px across on screen, whatever the
    backdrop); ``t`` (s of flight) flickers it."""
    sx, sy = view.at(x, y)
    pygame.draw.circle(surf, BULLET_HALO, (sx, sy), BULLET_HALO_R, 1 if int(t * 20) % 2 else 2)
    blit_frame(surf, frame(art, "bullet", int(t * 20)), view, x, y, "centre")


def draw_puff(surf, art, view, x: float, y: float, t: float) -> None:
    """The stomp or hit puff centred on (x, y), ``t`` s after it started; nothing once it is over."""
    if 0.0 <= t < PUFF_TIME:
        frames = art.objects["puff"]
        blit_frame(surf, frames[int(t / PUFF_TIME * len(frames))], view, x, y, "centre")


def draw_spring(surf, art, view, x: float, y: float, w: float, h: float, pose: str = "rest") -> None:
    """A spring's box, one spring drawn per 16 px of its width, standing on the box's bottom."""
    img = frame(art, "spring", SPRING_POSES.index(pose))
    fw = img.get_width()
    n = max(1, round(w / fw))
    for k in range(n):
        blit_frame(surf, img, view, x + w * (k + 0.5) / n, y + h, "feet")


def crumble_stage(elapsed: float, delay: float) -> int:
    """The crack stage (0..3) of a crumble ``elapsed`` s after it was first stood on, of ``delay`` s."""
    if elapsed <= 0:
        return 0
    return 3 if delay <= 0 else 1 + min(2, int(elapsed / delay * 3))


def shake(elapsed: float) -> int:
    """A crumble's sideways shake in px while it is about to fall (-1, 0 or 1, 30 times a second)."""
    return 0 if elapsed <= 0 else (0, 1, 0, -1)[int(elapsed * 30) % 4]


def draw_crumble(surf, art, view, x: float, y: float, w: float, h: float, one_way: bool = False,
                 elapsed: float = 0.0, delay: float = 0.5) -> None:
    """A crumble's box, ``elapsed`` s since it was first stood on (0: untouched): cracking and shaking."""
    img = frame(art, "crumble_plank" if one_way else "crumble", crumble_stage(elapsed, delay))
    _tile(surf, img, view, x + shake(elapsed), y, w, h)


def draw_breakable(surf, art, view, x: float, y: float, w: float, h: float, coin: bool = False,
                   bump: float = 0.0) -> None:
    """A breakable block's box, raised ``bump`` px (a head bump that did not break it)."""
    _tile(surf, frame(art, "breakable", 1 if coin else 0), view, x, y - bump, w, h)


def draw_debris(surf, art, view, x: float, y: float, w: float, h: float, what: str, t: float) -> None:
    """The pieces a box of crumble ("crumble"), crumble plank ("plank") or breakable ("breakable") falls
    apart into, ``t`` s after it did: a crumble's drop, a breakable's pop up and out. The same every
    time for the same box and ``t``."""
    if not 0.0 <= t < DEBRIS_TIME:
        return
    frames = art.objects[f"{what}_debris"]
    burst = what == "breakable"
    cells = [(cx, cy) for cy in range(max(1, round(h / 16))) for cx in range(max(1, round(w / 16)))]
    for n, (cx, cy) in enumerate(cells):
        for k, (ox, oy) in enumerate(((4, 4), (12, 4), (4, 12), (12, 12))):
            side = -1 if ox < 8 else 1
            vx = side * ((70 if burst else 14) + 9 * ((n + k) % 3))
            vy = (-230 if oy < 8 else -150) if burst else 20 * (k % 2)
            px = x + cx * 16 + ox + vx * t
            py = y + cy * 16 + oy + vy * t + DEBRIS_GRAVITY * t * t / 2
            blit_frame(surf, frames[(n + k) % len(frames)], view, px, py, "centre")


def draw_vine(surf, art, view, points) -> None:
    """A vine through its rope's joints (map px, the top first): the stem, a leaf on every joint between,
    alternating sides, and the flowering tip."""
    if not points:
        return
    screen = [view.at(px, py) for px, py in points]
    if len(screen) > 1:
        pygame.draw.lines(surf, VINE_DARK, False, screen, 3)
        pygame.draw.lines(surf, VINE_STEM, False, screen, 1)
    parts = art.objects["vine"]
    for i, (px, py) in enumerate(points):
        if i == 0:
            img = parts[0]
        elif i == len(points) - 1:
            img = parts[5]
        else:
            img = parts[(1 if i % 4 in (1, 2) else 3) + (i % 2)]
        blit_frame(surf, img, view, px, py, "centre")


VINE_DARK, VINE_STEM = (25, 60, 62), (62, 137, 72)

# a refill crystal, drawn procedurally (no sheet frames): outline, body, facet, glint (the palette's)
REFILL_COLOURS = ((24, 20, 37), (44, 232, 245), (167, 255, 252), (255, 255, 255))
REFILL_DIM = (90, 105, 136)  # the outline left while it is gone
REFILL_BOB = (1.0, 1.6)  # px up and down, s per bob


def draw_refill(surf, view, x: float, y: float, w: float, h: float, t: float, back: float = 1.0) -> None:
    """A refill crystal centred in its box (map px): a diamond about 12 px tall bobbing gently, with a
    facet and a glint that sweeps across every few seconds. ``back`` 1: it is there; 0..1: it is gone, drawn
    as a dim outline whose lower part fills as its return nears (``back`` of the way there)."""
    sx, sy = view.at(x + w / 2, y + h / 2)
    if back >= 1.0:
        sy += round(REFILL_BOB[0] * math.sin(2 * math.pi * t / REFILL_BOB[1]))
    r = 6  # px, half its height; half its width is 4
    pts = [(sx, sy - r), (sx + 4, sy), (sx, sy + r), (sx - 4, sy)]
    outline, body, facet, glint = REFILL_COLOURS
    if back < 1.0:
        pygame.draw.polygon(surf, REFILL_DIM, pts, 1)
        fill = int(round((2 * r - 2) * max(0.0, back)))
        if fill > 0:  # the crystal grows back from the bottom
            clip = surf.get_clip()
            surf.set_clip(pygame.Rect(sx - 4, sy + r - 1 - fill, 9, fill).clip(clip))
            pygame.draw.polygon(surf, REFILL_DIM, [(sx, sy - r + 2), (sx + 2, sy), (sx, sy + r - 2), (sx - 2, sy)])
            surf.set_clip(clip)
        return
    pygame.draw.polygon(surf, body, pts)
    pygame.draw.polygon(surf, facet, [(sx, sy - r + 1), (sx + 2, sy - 1), (sx, sy), (sx - 2, sy - 1)])
    pygame.draw.polygon(surf, outline, pts, 1)
    sweep = (t % 2.4) / 0.4  # a glint crosses the crystal in 0.4 s every 2.4 s
    if sweep < 1.0:
        gx = sx - 3 + round(6 * sweep)
        surf.fill(glint, (gx, sy - 2, 1, 3))


def _tile(surf, img, view, x: float, y: float, w: float, h: float) -> None:
    """``img`` (16 px cells) repeated over the box, cut at its right and bottom edges."""
    sx, sy = view.at(x, y)
    fw, fh = img.get_size()
    bw, bh = max(1, round(w)), max(1, round(h))
    for oy in range(0, bh, fh):
        for ox in range(0, bw, fw):
            surf.blit(img, (sx + ox, sy + oy), (0, 0, min(fw, bw - ox), min(fh, bh - oy)))


@functools.lru_cache(maxsize=64)
def _scaled(img, scale: int):
    w, h = img.get_size()
    return pygame.transform.scale(img, (w * scale, h * scale))


def stand_in(name: str, w: int, h: int, i: int):
    """A plain frame for ``name`` when objects.png is missing: a box in the kind's colour."""
    colour = next((c for prefix, c in STAND_IN_COLOURS if name.startswith(prefix)), (200, 200, 200))
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    inset = 0 if name.startswith(("crumble", "breakable")) else max(1, w // 8)
    s.fill((24, 20, 37), (inset, inset, w - 2 * inset, h - 2 * inset))
    s.fill(colour, (inset + 1, inset + 1 + (i % 2), w - 2 * inset - 2, h - 2 * inset - 2 - (i % 2)))
    return s


STAND_IN_COLOURS = (("walker", (181, 80, 136)), ("hopper", (62, 137, 72)), ("flyer", (90, 105, 136)),
                    ("turret", (139, 155, 180)), ("bullet", (247, 118, 34)), ("puff", (234, 212, 170)),
                    ("spring", (228, 59, 68)), ("crumble", (228, 166, 114)), ("plank", (234, 212, 170)),
                    ("breakable", (215, 118, 67)), ("vine", (62, 137, 72)))
