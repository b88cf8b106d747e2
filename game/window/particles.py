"""Juice: dust puffs, bursts, squash & stretch. Purely visual; the simulation never reads any of it.

``Particles`` is a small pool of square pixels with velocity, gravity, drag and a lifetime, drawn in map
coordinates. ``Squash`` is the player sprite's scale, kicked by jumps and landings and sprung back to 1.
"""

from __future__ import annotations

import math
import random

import pygame

__all__ = ["Particles", "Squash", "DUST", "DEATH", "SPARKLE"]

DUST = ((236, 226, 206), (200, 188, 170), (170, 156, 140))
DEATH = ((255, 92, 92), (255, 168, 92), (255, 240, 210), (120, 40, 70))
SPARKLE = ((255, 240, 140), (255, 214, 92), (255, 255, 255))
PUFF_TIME = 0.28  # s a dust cloud lives


class Particles:
    def __init__(self, seed: int = 7, limit: int = 600):
        self.items: list[list] = []  # [x, y, vx, vy, life, max_life, color, size, gravity, drag]
        self.puffs: list[list] = []  # [x, y, vx, age]: sprite dust clouds (assets/items.png dust frames)
        self.rng = random.Random(seed)
        self.limit = limit

    def emit(self, x, y, n, *, speed=(20, 60), angle=(0, 360), life=(0.25, 0.5), colors=DUST,
             size=(1, 2), gravity=0.0, drag=3.0, spread=(0, 0)):
        r = self.rng
        for _ in range(n):
            a = math.radians(r.uniform(*angle))
            s = r.uniform(*speed)
            lf = r.uniform(*life)
            self.items.append([x + r.uniform(-spread[0], spread[0]), y + r.uniform(-spread[1], spread[1]),
                               math.cos(a) * s, -math.sin(a) * s, lf, lf, r.choice(colors),
                               r.randint(*size), gravity, drag])
        if len(self.items) > self.limit:
            del self.items[: len(self.items) - self.limit]

    # presets --------------------------------------------------------------------------------------
    def run_dust(self, x, y, facing):
        self.emit(x - facing * 3, y - 1, 1, speed=(8, 22), angle=(100, 160) if facing > 0 else (20, 80),
                  life=(0.2, 0.35), gravity=-20)

    def puff(self, x, y, vx=0.0):
        self.puffs.append([x, y, vx, 0.0])

    def jump_dust(self, x, y):
        self.puff(x, y - 3)
        self.emit(x, y - 1, 6, speed=(15, 45), angle=(10, 40), life=(0.2, 0.4), gravity=-10)
        self.emit(x, y - 1, 6, speed=(15, 45), angle=(140, 170), life=(0.2, 0.4), gravity=-10)

    def land_dust(self, x, y, strength=1.0):
        n = int(4 + 6 * strength)
        self.puff(x - 4, y - 3, -30 * strength)
        self.puff(x + 4, y - 3, 30 * strength)
        speed = (20, 40 + 40 * strength)
        self.emit(x, y - 1, n, speed=speed, angle=(0, 20), life=(0.2, 0.45), gravity=-15)
        self.emit(x, y - 1, n, speed=speed, angle=(160, 180), life=(0.2, 0.45), gravity=-15)

    def burst(self, x, y, colors=DEATH, n=28):
        self.emit(x, y, n, speed=(40, 150), life=(0.35, 0.8), colors=colors, size=(1, 3), gravity=260,
                  drag=1.5)

    def sparkle(self, x, y, n=10):
        self.emit(x, y, n, speed=(20, 70), life=(0.25, 0.55), colors=SPARKLE, size=(1, 2), gravity=-30,
                  drag=2.0)

    def ring(self, x, y, colors=SPARKLE, n=20):
        for i in range(n):
            a = 2 * math.pi * i / n
            self.items.append([x, y, math.cos(a) * 70, math.sin(a) * 70, 0.4, 0.4,
                               colors[i % len(colors)], 2, 0.0, 4.0])

    # ----------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        alive = []
        for p in self.items:
            p[4] -= dt
            if p[4] <= 0:
                continue
            k = max(0.0, 1.0 - p[9] * dt)
            p[2] *= k
            p[3] = p[3] * k + p[8] * dt
            p[0] += p[2] * dt
            p[1] += p[3] * dt
            alive.append(p)
        self.items = alive
        for p in self.puffs:
            p[3] += dt
            p[0] += p[2] * dt
            p[2] *= max(0.0, 1.0 - 6.0 * dt)
        self.puffs = [p for p in self.puffs if p[3] < PUFF_TIME]

    def draw(self, surf: pygame.Surface, cam_x: int, cam_y: int, puff_frames=()) -> None:
        if puff_frames:
            n = len(puff_frames)
            for x, y, _vx, age in self.puffs:
                img = puff_frames[min(n - 1, int(age / PUFF_TIME * n))]
                w, h = img.get_size()
                surf.blit(img, (round(x) - cam_x - w // 2, round(y) - cam_y - h // 2))
        fill = surf.fill
        for x, y, _vx, _vy, life, max_life, color, size, _g, _d in self.items:
            s = size if life > max_life * 0.35 else max(1, size - 1)
            fill(color, (round(x - cam_x - s / 2), round(y - cam_y - s / 2), s, s))

    def clear(self) -> None:
        self.items.clear()
        self.puffs.clear()


class Squash:
    """Sprite scale (sx, sy) that springs back to (1, 1). Jump: tall and thin; land: wide and flat."""

    def __init__(self):
        self.sx = self.sy = 1.0
        self.vx = self.vy = 0.0

    def kick(self, sx: float, sy: float) -> None:
        self.sx, self.sy = sx, sy
        self.vx = self.vy = 0.0

    def jump(self):
        self.kick(0.7, 1.35)

    def land(self, strength=1.0):
        s = 0.15 + 0.25 * min(1.0, strength)
        self.kick(1.0 + s, 1.0 - s)

    def update(self, dt: float) -> None:
        # a stiff, slightly under-damped spring
        k, d = 700.0, 22.0
        for axis in ("x", "y"):
            val = getattr(self, "s" + axis)
            vel = getattr(self, "v" + axis)
            vel += (-(val - 1.0) * k - vel * d) * dt
            val += vel * dt
            setattr(self, "s" + axis, val)
            setattr(self, "v" + axis, vel)
