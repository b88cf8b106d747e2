"""Hazards and launchers: turrets and their bullets, and springs.

- A ``turret`` is a solid block (an engine ``Platform`` that never moves: stood on, walked into). It fires
  on the level clock: the first shot ``delay`` s after the start, then every ``period`` s, so a turret's
  rhythm never depends on the player's deaths. A bullet is an engine swept bullet (``Actor(bullet=True)``,
  no gravity, group ``SHOT``, ``touches=HERO``) flying at ``speed`` px/s from the middle of the side the
  turret faces: it dies on whatever solid stops it (tiles, platforms, the map's side walls) or once it is
  out of the map, and kills the player it reaches (even between two steps: the sweep stops at it). The
  session also takes away a bullet that has flown ``BULLET_REACH`` px beyond the view (nobody sees it, and
  it flies straight on, away: bullets in flight stay bounded by what the view can see).
- A ``spring`` is a solid block too. A body landing on its top (a ``landed`` event on it: the player or an
  enemy) is launched straight up to ``height`` px above the spring's top: take-off speed
  ``sqrt(2 * g * height)`` with the rising gravity that body has (its own feel's, times its
  ``gravity_scale``). The player's launch is not a jump: releasing jump does not cut it.
"""

from __future__ import annotations

import math

from engine import Actor, Platform

from .enemies import HERO, SHOT, Puff, launch

__all__ = ["BULLET", "Hazards", "rise_gravity", "spring_pose"]

BULLET = 4.0  # px, a bullet's square box
MARGIN = 64.0  # px beyond the map's edges a bullet flies before it is gone
SQUASH, STRETCH = 0.08, 0.3  # s a used spring shows its compressed, then its extended pose


def rise_gravity(world, body) -> float:
    """px/s^2 pulling ``body`` down while it rises: the feel's rising gravity (a Character's own feel if
    it has one) times the body's ``gravity_scale``."""
    d = world._derived
    if getattr(body, "feel", None) is not None:
        d = body._own_feel(world.feel.physics)[1]
    return d.gravity * body.gravity_scale


def spring_pose(seconds_since_use: float) -> str:
    """What a spring shows ``seconds_since_use`` s after it launched something (< 0: never used)."""
    if 0.0 <= seconds_since_use < SQUASH:
        return "compressed"
    if SQUASH <= seconds_since_use < STRETCH:
        return "extended"
    return "rest"


class Hazards:
    """The level's turrets, their bullets in flight, and its springs."""

    def __init__(self, world, level):
        self.world = world
        self.turrets = [world.add(Platform(t.x, t.y, t.w, t.h, name=t.name, data=t)) for t in level.turrets]
        self.springs = [world.add(Platform(s.x, s.y, s.w, s.h, name=s.name, data=s)) for s in level.springs]
        self._spring_index = {p: i for i, p in enumerate(self.springs)}
        self.bullets: list[Actor] = []  # in flight, oldest first
        self.used = [-1] * len(self.springs)  # world step each spring last launched something (-1: never)
        self.bursts: tuple[Puff, ...] = ()  # bullets that hit something, for their puff

    # -- each step ------------------------------------------------------------------------------------
    def after_step(self, result, player, awake=None, near=None) -> tuple[list[str], Actor | None]:
        """Bullets that hit something die; so do those ``near(bullet)`` says are far away (the session:
        ``BULLET_REACH`` px beyond the view; None: none), quietly; springs launch what landed on them; the
        turrets whose turn it is fire, if ``awake(turret body)`` (the session: on screen or a tile from
        it; None: all). Returns (names of the springs that launched the player, the bullet that hit it
        or None)."""
        world = self.world
        step = world.steps
        gone = set()
        sprung = []
        for ev in result.events:
            a = ev.actor
            if a.bullet:
                if ev.kind in ("wall", "ceiling", "landed"):
                    gone.add(a)
            elif ev.kind == "landed" and ev.other in self._spring_index:
                i = self._spring_index[ev.other]
                spec = ev.other.data
                launch(a, math.sqrt(2.0 * rise_gravity(world, a) * spec.height))
                self.used[i] = step
                if a is player:
                    sprung.append(spec.name)
        hit = None
        for t in result.touches:
            if t.actor.bullet and t.other is player or t.actor is player and t.other.bullet:
                shot = t.actor if t.actor.bullet else t.other
                gone.add(shot)
                hit = hit or shot
        w, h = world.grid.width, world.grid.height
        for b in self.bullets:
            if not (-MARGIN < b.x < w + MARGIN and -MARGIN < b.y < h + MARGIN):
                gone.add(b)
        far = [b for b in self.bullets if b not in gone and not near(b)] if near is not None else ()
        if gone:
            self.bursts = tuple(p for p in self.bursts if step - p.step < 60) + tuple(
                Puff(step, b.x + b.w / 2, b.y + b.h / 2) for b in self.bullets if b in gone)
        if far:  # (no puff: nobody sees it)
            gone.update(far)
        if gone:
            for b in gone:
                world.remove(b)
            self.bullets = [b for b in self.bullets if b not in gone]
        for turret in self.turrets:
            if self.fires(turret.data, step) and (awake is None or awake(turret)):
                self._fire(turret.data, step)
        return sprung, hit

    def fires(self, spec, step: int) -> bool:
        """Whether the turret fires after world step ``step`` (its bullet flies from the next one)."""
        dt = self.world.dt
        first, period = round(spec.delay / dt), max(1, round(spec.period / dt))
        return step - 1 >= first and (step - 1 - first) % period == 0

    def since_shot(self, spec, step: int) -> float:
        """s since the turret last fired, at world step ``step`` (< 0: not yet)."""
        dt = self.world.dt
        first, period = round(spec.delay / dt), max(1, round(spec.period / dt))
        if step - 1 < first:
            return -1.0
        return ((step - 1 - first) % period) * dt

    def _fire(self, spec, step: int) -> None:
        (mx, my), (ax, ay) = spec.muzzle, spec.aim
        half = BULLET / 2.0
        b = Actor(mx - half + ax * half, my - half + ay * half, BULLET, BULLET, bullet=True, gravity_scale=0.0,
                  group=SHOT, touches=HERO, name=spec.name, data=(spec, step))
        b.vx, b.vy = ax * spec.speed, ay * spec.speed
        self.bullets.append(self.world.add(b))

    def reset(self) -> None:
        """The player respawned: bullets in flight are gone (the turrets keep their rhythm)."""
        for b in self.bullets:
            self.world.remove(b)
        self.bullets = []

    # -- snapshots ------------------------------------------------------------------------------------
    def state(self) -> tuple:
        return tuple(self.bullets), tuple(self.used), self.bursts

    def set_state(self, state: tuple) -> None:
        bullets, used, self.bursts = state
        self.bullets, self.used = list(bullets), list(used)
