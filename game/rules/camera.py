"""A platformer camera: dead zone, look-ahead, smoothing, clamped to the map, whole-pixel output.

Updated once per fixed step with the player's centre and velocity (so it is as deterministic as the
simulation) and drawn at ``view(alpha)``: a :class:`View` holding the interpolated top-left. Rounding
happens there and only there: tile layers are drawn at ``view.origin`` and every sprite at
``view.at(world_x, world_y)``, both from the same interpolated camera, so a body moving with the camera
keeps a steady screen pixel (rounding the body and the camera separately makes it buzz by 1 px).

* Horizontal: the target is the player's centre plus a look-ahead that eases toward the running
  direction, plus a lead that cancels the smoothing's lag (an exponential follow trails a body moving at
  v by about v / follow_x, which would eat the look-ahead); the camera only moves once that target
  leaves a dead zone around the view's centre. The look-ahead is kept when the player stops, so the view
  does not swing back.
* Vertical: while standing, the camera settles so the ground sits a little below the middle (platform
  snapping; the ground at ~58 % of the view's height, so more of what is ahead and below shows than
  sky); in the air it only follows when the player leaves a tall dead zone, looks down while falling
  below the ground it last stood on (a drop or a shaft; not the way down of a hop) and up while rising
  fast (a shaft shows the ledge above before the player reaches it).
* Below the map: the view may reach ``below`` px past the map's bottom edge (the window draws the bottom
  row of tiles on down), so a level whose floor is near the bottom still frames it at ~58 %, showing
  what is ahead instead of sky. The top, left and right edges bound the view (``sky`` opens the top).
* Camera zones (the map's ``camera`` rectangles, :class:`~game.files.levelkinds.CameraZone`): while the
  player's centre is inside one, the view's goal is kept inside it (``bound``) or on its centre
  (``lock``); the view eases there with the usual follow, so entering a room glides instead of cutting.
  A respawn or a level start inside a zone snaps straight to where the zone wants the view.
* ``shake(px)``: a short decaying jolt (deaths).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["Camera", "CameraTuning", "View", "snap", "VIEW_W", "VIEW_H"]

VIEW_W, VIEW_H = 480, 270  # px, the view the game shows (the window's canvas); the rules' camera uses it too


_HALF = 0.5 + 1 / 4096  # a hair past a half: a difference hovering at x.5 (float noise) rounds one way


def snap(v: float) -> int:
    """Round to the nearest whole pixel, halves up: unlike ``round`` (halves to even) it commutes with
    whole-pixel shifts, ``snap(v + n) == snap(v) + n``, so sprites and tiles round alike. The rounding
    point sits 1/4096 px below the half, so a body moving with the camera at a steady half-pixel offset
    (the difference wobbling by 1e-9 around x.5) keeps one pixel instead of flickering."""
    return math.floor(v + _HALF)


class View(NamedTuple):
    """Where the camera is for one drawn frame: its interpolated (and shaken) top-left in map px."""

    x: float
    y: float

    @property
    def origin(self) -> tuple[int, int]:
        """The whole-pixel top-left the tile layers are drawn at: a map point (mx, my) on whole pixels
        lands on screen at (mx - origin x, my - origin y), the same pixel ``at`` gives it."""
        return -snap(-self.x), -snap(-self.y)

    def at(self, wx: float, wy: float) -> tuple[int, int]:
        """The screen pixel of map point (wx, wy), rounded once from the difference."""
        return snap(wx - self.x), snap(wy - self.y)

    def shifted(self, dx: int) -> View:
        """The view moved ``dx`` whole px left (the F2 panel slides the picture right)."""
        return View(self.x - dx, self.y)


@dataclass(frozen=True)
class CameraTuning:
    dead_w: float = 24.0  # px, horizontal dead zone around the view centre
    dead_up: float = 40.0  # px above the centre the player may rise in the air before the camera follows
    dead_down: float = 24.0  # px below the centre the player may fall before the camera follows
    look_ahead: float = 64.0  # px ahead of the player in the running direction
    look_full_speed: float = 120.0  # px/s at which the whole look-ahead applies (less when walking)
    look_speed: float = 2.5  # 1/s, how fast the look-ahead turns around
    lead_speed: float = 4.0  # 1/s, how fast the lag compensation follows a change of running speed
    follow_x: float = 7.0  # 1/s, smoothing toward the target (higher = stiffer)
    ease_x: float = 15.0  # 1/s, how fast the camera's own speed follows (starts and stops without a jolt)
    follow_y: float = 5.0  # 1/s
    ground_bias: float = 14.0  # px: while standing, the player sits this far below the view centre (feet at ~58 %)
    fall_look: float = 48.0  # px looked ahead downward at full falling speed
    fall_speed: float = 300.0  # px/s at which fall_look is reached
    fall_below: float = 20.0  # px below the last ground stood on before falling looks down (a hop does not)
    rise_look: float = 24.0  # px looked ahead upward while rising fast (shafts: see the ledge coming)
    sky: float = 0.0  # px the view may rise above the map's top edge (open sky; the title's demo uses it)
    below: float = 48.0  # px the view may reach below the map's bottom edge (the floor framed at ~58 %)


class Camera:
    def __init__(self, view_w: int, view_h: int, map_w: int, map_h: int, tuning: CameraTuning | None = None,
                 zones=()):
        """``zones``: camera zones (records with x, y, w, h and mode ``"bound"`` or ``"lock"``), first wins."""
        self.view_w, self.view_h = view_w, view_h
        self.map_w, self.map_h = map_w, map_h
        self.t = tuning or CameraTuning()
        self.zones = tuple(zones)
        self.x = self.y = 0.0  # top-left of the view, map px
        self.prev_x = self.prev_y = 0.0
        self.look = 0.0  # px, the look-ahead now
        self.lead = 0.0  # px, the lag compensation now
        self.step_x = 0.0  # px the view moved right in the last step
        self.ground_y = 0.0  # px, the player's centre when it last stood (falling past it looks down)
        self._shake = 0.0
        self._shake_t = 0.0

    # -- movement -------------------------------------------------------------------------------------
    def snap(self, cx: float, cy: float) -> None:
        """Jump straight to the player (level start, respawn): no smoothing, no smear."""
        self.look = self.lead = self.step_x = 0.0
        self.ground_y = cy
        x, y = self._in_zone(cx, cy, cx - self.view_w / 2, cy - self.view_h / 2 - self.t.ground_bias)
        self.x, self.y = self._clamp(x, y)
        self.prev_x, self.prev_y = self.x, self.y

    def update(self, dt: float, cx: float, cy: float, vx: float = 0.0, vy: float = 0.0,
               on_ground: bool = True) -> None:
        """One fixed step toward the player whose box centre is (cx, cy) moving at (vx, vy) px/s."""
        t = self.t
        self.prev_x, self.prev_y = self.x, self.y
        kx = 1.0 - math.exp(-t.follow_x * dt)
        if abs(vx) > 20:
            want = math.copysign(t.look_ahead, vx) * min(1.0, abs(vx) / t.look_full_speed)
            self.look += (want - self.look) * min(1.0, dt * t.look_speed)
        # the follow below trails a body moving at vx by vx*dt/kx in the steady state: lead by that much
        self.lead += (vx * dt / kx - self.lead) * (1.0 - math.exp(-t.lead_speed * dt))
        focus_x = cx + self.look + self.lead
        mid_x = self.x + self.view_w / 2
        goal_x = mid_x
        if focus_x > mid_x + t.dead_w / 2:
            goal_x = focus_x - t.dead_w / 2
        elif focus_x < mid_x - t.dead_w / 2:
            goal_x = focus_x + t.dead_w / 2

        mid_y = self.y + self.view_h / 2
        if on_ground:
            self.ground_y = cy
            goal_y = cy - t.ground_bias
        else:
            goal_y = mid_y
            if cy < mid_y - t.dead_up:
                goal_y = cy + t.dead_up
            elif cy > mid_y + t.dead_down:
                goal_y = cy - t.dead_down
            if vy > 0 and cy > self.ground_y + t.fall_below:  # a drop, not the way down of a hop
                goal_y += t.fall_look * min(1.0, vy / t.fall_speed)
            elif vy < 0:
                goal_y -= t.rise_look * min(1.0, -vy / t.fall_speed)
        if self.zones:  # a zone holds the goal (the view's centre) inside it: the follow eases the view there
            zx, zy = self._in_zone(cx, cy, goal_x - self.view_w / 2, goal_y - self.view_h / 2)
            goal_x, goal_y = zx + self.view_w / 2, zy + self.view_h / 2
        ky = 1.0 - math.exp(-(t.follow_y * (2.5 if vy > t.fall_speed * 0.8 else 1.0)) * dt)
        # the step is eased too (a first-order follow would start and stop dead at the dead zone's edge)
        self.step_x += ((goal_x - mid_x) * kx - self.step_x) * (1.0 - math.exp(-t.ease_x * dt))
        nx = self.x + self.step_x
        ny = self.y + (goal_y - mid_y) * ky
        self.x, self.y = self._clamp(nx, ny)
        self.step_x = self.x - self.prev_x  # held by the map's edge: the camera's speed is what it moved
        if self._shake_t > 0:
            self._shake_t = max(0.0, self._shake_t - dt)

    STATE = ("x", "y", "prev_x", "prev_y", "look", "lead", "step_x", "ground_y")  # what a step changes (shake aside)

    def state(self) -> tuple:
        return tuple(getattr(self, name) for name in self.STATE)

    def set_state(self, state: tuple) -> None:
        for name, value in zip(self.STATE, state, strict=True):
            setattr(self, name, value)

    def sees(self, x: float, y: float, w: float, h: float, margin: float = 0.0) -> bool:
        """Whether the box (x, y, w, h) overlaps the view grown by ``margin`` px on every side."""
        return (x < self.x + self.view_w + margin and x + w > self.x - margin
                and y < self.y + self.view_h + margin and y + h > self.y - margin)

    def resize_map(self, map_w: int, map_h: int) -> None:
        """The map changed size (F5 reload): keep the view where it is, clamped to the new map."""
        self.map_w, self.map_h = map_w, map_h
        self.x, self.y = self._clamp(self.x, self.y)
        self.prev_x, self.prev_y = self._clamp(self.prev_x, self.prev_y)

    def shake(self, amount: float, duration: float = 0.3) -> None:
        self._shake, self._shake_t = amount, duration
        self._shake_len = duration

    def zone_at(self, cx: float, cy: float):
        """The camera zone the point (the player's centre) is in, or None (the first listed wins)."""
        for z in self.zones:
            if z.x <= cx < z.x + z.w and z.y <= cy < z.y + z.h:
                return z
        return None

    def _in_zone(self, cx: float, cy: float, x: float, y: float) -> tuple[float, float]:
        """The view's top-left (x, y) as the zone around (cx, cy) wants it: unchanged outside zones."""
        z = self.zone_at(cx, cy)
        if z is None:
            return x, y
        vw, vh = self.view_w, self.view_h
        if z.mode == "lock" or z.w <= vw:
            x = z.x + (z.w - vw) / 2
        else:
            x = min(max(x, z.x), z.x + z.w - vw)
        if z.mode == "lock" or z.h <= vh:
            y = z.y + (z.h - vh) / 2
        else:
            y = min(max(y, z.y), z.y + z.h - vh)
        return x, y

    def _clamp(self, x: float, y: float) -> tuple[float, float]:
        if self.map_w <= self.view_w:
            x = (self.map_w - self.view_w) / 2
        else:
            x = min(max(x, 0.0), self.map_w - self.view_w)
        if self.map_h <= self.view_h:
            y = (self.map_h - self.view_h) / 2
        else:
            y = min(max(y, -self.t.sky), self.map_h - self.view_h + self.t.below)
        return x, y

    # -- drawing --------------------------------------------------------------------------------------
    def view(self, alpha: float = 1.0) -> View:
        """The view for drawing: interpolated between the last two steps and shaken; see :class:`View`
        for the one place it is rounded."""
        x = self.prev_x + (self.x - self.prev_x) * alpha
        y = self.prev_y + (self.y - self.prev_y) * alpha
        if self._shake_t > 0:
            k = self._shake * (self._shake_t / self._shake_len)
            phase = self._shake_t * 90.0
            x += math.sin(phase) * k
            y += math.cos(phase * 1.3) * k
        return View(x, y)
