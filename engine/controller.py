"""The feel: how a Character turns buttons into motion, one fixed step at a time.

Read top to bottom, like Celeste's Player.cs: presses and timers, jump (or drop-through, or a wall
jump), the dash, running, variable jump and gravity (or the wall slide's cap), corner correction, then
the generic move (Y pass, X pass, slopes, ground snap) and the new ground state. All knobs come from
:class:`~engine.feel.FeelConfig`; windows are whole steps: ``coyote_steps = round(coyote_time * hz)``,
``buffer_steps = round(buffer_time * hz)``.

Exact windows:
- coyote: a jump pressed on any of the first N steps after the last step that ended on the ground
  still jumps;
- buffer: a jump pressed in the air up to M steps before the landing step (or on it) jumps on the step
  after landing.

The moves (each off unless the feel turns it on; with all three off a step does what it always did):
- wall slide (``wall.slide``): falling while pushing into a wall that the box touches (within
  ``SLIDE_REACH`` px) caps the fall at ``wall.slide_speed``; gravity slows a faster fall to it. The grip
  lasts ``grip_steps`` sliding steps, the cap easing back to ``fall.max_speed`` (Celeste); landing, a wall
  jump or a dash renews it. Holding down lets go.
- wall jump (``wall.jump``): a jump in the air (the ground's coyote window spent) with a wall within
  ``wall.jump_reach`` px kicks off it: ``wall.jump_speed`` away, up to ``wall.jump_height``; for
  ``lock_steps`` steps (the jump's own included) horizontal input reads as away from that wall. Wall
  coyote, exact like the ground's: a jump pressed on any of the first K steps after the last step that
  ended within reach of the wall still kicks off it (``K = wall_coyote_steps``; with K = 0, the next step
  only). The jump buffer works as on the ground: a press up to M steps before the step that ends
  within reach (or on it) kicks off on the step after it. ``wall.climb_jump``: a wall jump while pushing
  into the wall goes straight up instead of away (no lock).
- dash (``dash.enabled``): a press (buffered ``dash_buffer_steps``) when a dash is left and the cooldown
  is over dashes in the direction held (8 or 4; none held: the way it faces) at ``dash.speed`` for
  exactly ``dash.time`` (its last step may move only part of a step: the distance is speed x time at any
  rate), with no gravity and no steering; then ``dash.end_speed`` along it. A hit stops the axis it hits
  (a diagonal dash slides along a wall or the floor); stopped on every axis, the dash ends. Jumps pressed
  during a dash are kept by the buffer for after it. Landing (not mid-dash) or ``refill_dash()`` gives
  the dashes back.
Walls are what the X pass stops at (solid tiles, map walls, slope faces, platforms, solid actors), read
by a swept probe: never a one-way tile's or one-way platform's side, never a slope one could walk up.
"""

from __future__ import annotations

import math

from . import _motion
from .bodies import ActorEvent, Buttons, Character
from .tiles import SLOPE, SOLID

__all__ = ["control"]

NEVER = 1 << 30
SLIDE_REACH = 1.0  # px: a wall this close (or touching) counts as pushed into, for the wall slide
_DIAG = math.sqrt(0.5)
_floor, _ceil = math.floor, math.ceil
_PROBE_PAST = 1e-3  # px the wall probe looks past its reach


def _approach(value: float, target: float, amount: float) -> float:
    if value < target:
        value += amount
        return value if value <= target else target  # (min / max spelled out: this runs every step)
    value -= amount
    return value if value >= target else target


def _clamp(v: float, limit: float) -> float:
    return max(-limit, min(limit, v))


def control(ch: Character, buttons: Buttons, feel, d, grid, platforms, events=None) -> tuple[bool, bool, bool]:
    """Advance one Character by one fixed step. ``d`` is ``feel.derived`` (passed in: computed once).

    Returns ``(jumped, landed, dropped)`` for this step (the world collects them into StepResult; a wall
    jump is a jump). The moves' events (``dash``, ``wall_jump``, ``climb_jump``, ``wall_slide``) are
    appended to ``events`` as :class:`ActorEvent` records, when a list is given.
    """
    landed = dropped = False
    dt = d.dt
    run, jump, fall = feel.run, feel.jump, feel.fall
    was_grounded = ch.on_ground
    moves = d.moves
    held = ch.held

    # -- presses and timers ---------------------------------------------------------------------------
    pressed = buttons.jump and not held.jump
    ch.held = buttons
    if pressed:
        ch.since_press = 0
    elif ch.since_press is not None:
        ch.since_press += 1
        if ch.since_press > d.buffer_steps + 1:
            ch.since_press = None
    can_jump = was_grounded or ch.air_steps < d.coyote_steps
    dashing = False
    touch = None
    if moves:
        dashing = ch.dash_left > 0
        touch = _move_timers(ch, buttons, held, feel, d, grid, platforms, was_grounded)
        # -- the dash (before the jump, as in Celeste: a jump pressed with it waits in the buffer) ------
        if not dashing and ch.since_dash is not None and feel.dash.enabled and ch.dash_cooldown == 0 \
                and ch.dashes_spent < feel.dash.count:
            _start_dash(ch, buttons, feel, d, events)
            dashing = True

    # -- jump or drop through (or, in the air near a wall, a wall jump) -------------------------------
    jumped = False
    if ch.since_press is not None and can_jump and not dashing:
        ground = ch.ground
        if buttons.down and was_grounded and ground is not None and ground.one_way:
            ch.drop_left = d.drop_steps
            ch.drop_platform = ground.platform  # ignored until the feet are below its top, however long
            dropped = True
        else:
            ch.vy = -d.takeoff_speed
            if was_grounded and ground is not None and ground.platform is not None:
                p = ground.platform  # lift momentum: inherit the platform's motion, capped
                ch.vx += _clamp(p.vx, feel.platforms.lift_cap_x)
                ch.vy += max(-feel.platforms.lift_cap_y, min(0.0, p.vy))
            ch.jumping = True
            jumped = True
        ch.since_press = None
        ch.air_steps = NEVER
        ch.on_ground = False
        ch.ground = None
    elif moves and ch.since_press is not None and not was_grounded and not dashing and feel.wall.jump \
            and ch.wall_steps < (d.wall_coyote_steps if d.wall_coyote_steps > 1 else 1):
        _wall_jump(ch, buttons, feel, d, events)
        jumped = True
    if dashing:
        return _dash_step(ch, feel, d, grid, platforms, was_grounded)
    airborne = not ch.on_ground

    # -- running --------------------------------------------------------------------------------------
    direction = (1 if buttons.right else 0) - (1 if buttons.left else 0)
    if moves and ch.lock_left > 0:
        direction = ch.lock_dir  # just kicked off a wall: no turning straight back
    if direction:
        ch.facing = direction
    if airborne:
        accel, decel, turn = run.air_accel, run.air_decel, run.air_turn_accel
    else:
        accel, decel, turn = run.ground_accel, run.ground_decel, run.turn_accel
    vx = ch.vx
    if direction == 0:
        vx = _approach(vx, 0.0, decel * dt)
    elif vx * direction < 0.0:
        vx = _approach(vx, direction * run.max_speed, turn * dt)
    elif abs(vx) > run.max_speed:
        vx = _approach(vx, direction * run.max_speed, decel * dt)  # faster than running: ease down
    else:
        vx = _approach(vx, direction * run.max_speed, accel * dt)
    ch.vx = vx

    # -- variable jump and gravity --------------------------------------------------------------------
    vy = ch.vy
    if ch.jumping and not jumped:
        if vy >= 0.0:
            ch.jumping = False
        elif not buttons.jump:
            vy *= jump.release_cut  # released early: cut the rise
            ch.jumping = False
    scale = ch._gravity_scale  # (1 normal, 0 none, negative pulls up: mirrored, the same rules)
    g = d.gravity if vy * scale < 0.0 else d.fall_gravity
    max_fall = fall.max_speed
    if buttons.jump and ch.jumping and abs(vy) < jump.apex_hang_speed:
        g *= jump.apex_hang_gravity
    if buttons.down and vy * scale >= 0.0:
        g *= fall.fast_gravity_multiplier
        max_fall = fall.fast_max_speed
    elif touch is not None and airborne and not jumped and vy * scale >= 0.0:
        max_fall = _slide_cap(ch, direction, touch, feel, d, max_fall, events)
    if scale < 0.0:
        vy_new = min(-max_fall, vy - g * scale * dt) if vy < -max_fall else max(vy + g * scale * dt, -max_fall)
    elif vy > max_fall:
        vy_new = max(max_fall, vy - g * scale * dt)
    else:
        vy_new = vy + g * scale * dt
        if vy_new > max_fall:
            vy_new = max_fall
    dy = (vy + vy_new) * 0.5 * dt  # exact for constant gravity: no Euler shortfall at the apex
    ch.vy = vy_new
    dx = ch.vx * dt

    # -- move -----------------------------------------------------------------------------------------
    drop = ch.drop_left > 0
    skip = ch.drop_platform
    reach = _motion.short_reach(ch, dx, was_grounded, drop)
    if was_grounded and _motion.flat_step(grid, platforms, ch, dx, dy, reach):
        ch.air_steps = 0  # (walking on flat ground: what the passes and the snap below would do)
        ch.jumping = False
    elif not was_grounded and _motion.air_step(grid, platforms, ch, dx, dy, reach):
        if ch.air_steps < NEVER:  # (in open air: likewise, touching nothing)
            ch.air_steps += 1
    else:
        if dy < 0.0 and jump.corner_correction > 0.0:
            _correct_corner(ch, dy, jump.corner_correction, grid, platforms)
        if ch.bounce:
            hit_y, x_before = _motion.move(grid, platforms, ch, dx, dy, drop, skip, d.fall_gravity * scale * dt, vy)
        else:
            hit_y, x_before = _motion.move(grid, platforms, ch, dx, dy, drop, skip)
        if hit_y is not None and hit_y.normal[1] > 0:
            ch.jumping = False  # head bonk ends the jump

        # -- ground snap (walking down slopes) and the new ground state ----------------------------
        # (written out here, not a call to _ground_state: the step of every character runs it)
        if _motion.land(grid, platforms, ch, was_grounded, ch.x - x_before, drop, skip):
            ch.air_steps = 0
            ch.jumping = False
            if not was_grounded:
                landed = True
        elif ch.air_steps < NEVER:
            ch.air_steps += 1
    if skip is not None and (ch.on_ground or ch.y > skip.y):
        ch.drop_platform = None  # wholly below the top dropped through (or standing elsewhere): it counts again
    if ch.drop_left > 0:
        ch.drop_left -= 1
    if ch.on_ground:
        ch.coyote_left = d.coyote_steps
        if moves:
            _grounded(ch)
    else:
        left = d.coyote_steps - ch.air_steps
        ch.coyote_left = left if left > 0 else 0
    if ch.since_press is None:
        ch.buffer_left = 0
    else:
        left = d.buffer_steps + 1 - ch.since_press
        ch.buffer_left = left if left > 0 else 0
    return jumped, landed, dropped


def _ground_state(ch: Character, d, grid, platforms, was_grounded: bool, x_before: float, drop: bool,
                  skip) -> bool:
    """Snap to the ground (walking down slopes), then the new ground state and the timers' views
    (control's own last section, for the dash). Returns whether the character landed this step."""
    landed = False
    if _motion.land(grid, platforms, ch, was_grounded, ch.x - x_before, drop, skip):
        ch.air_steps = 0
        ch.jumping = False
        if not was_grounded:
            landed = True
    elif ch.air_steps < NEVER:
        ch.air_steps += 1
    if skip is not None and (ch.on_ground or ch.y > skip.y):
        ch.drop_platform = None  # wholly below the top dropped through (or standing elsewhere): it counts again
    if ch.drop_left > 0:
        ch.drop_left -= 1
    if ch.on_ground:
        ch.coyote_left = d.coyote_steps
        _grounded(ch)
    else:
        left = d.coyote_steps - ch.air_steps
        ch.coyote_left = left if left > 0 else 0
    if ch.since_press is None:
        ch.buffer_left = 0
    else:
        left = d.buffer_steps + 1 - ch.since_press
        ch.buffer_left = left if left > 0 else 0
    return landed


# -- the moves ---------------------------------------------------------------------------------------
def _grounded(ch: Character) -> None:
    """On the ground at the end of a step: the wall grip renewed, the wall lock over, and, unless in
    the middle of a dash, the dashes given back."""
    ch.grip_used = 0
    ch.lock_left = 0
    if ch.dash_left == 0:
        ch.dashes_spent = 0


def _move_timers(ch: Character, buttons: Buttons, held: Buttons, feel, d, grid, platforms, was_grounded: bool):
    """The moves' presses and timers: the dash press and its buffer, the cooldown and the wall lock,
    and the walls near the box now (where the last step left it): one within ``wall.jump_reach``
    restarts the wall-coyote count (``wall_steps = 0``). Returns ``(side, Contact)`` of a wall the box
    touches (within ``SLIDE_REACH``) for the slide, or None."""
    ch.sliding = 0
    if buttons.dash and not held.dash:
        ch.since_dash = 0
    elif ch.since_dash is not None:
        ch.since_dash += 1
        if ch.since_dash > d.dash_buffer_steps:
            ch.since_dash = None
    if ch.dash_cooldown > 0:
        ch.dash_cooldown -= 1
    if ch.lock_left > 0:
        ch.lock_left -= 1
    wall = feel.wall
    if was_grounded or not (wall.jump or wall.slide):
        ch.wall_steps = NEVER
        return None
    jump_reach = wall.jump_reach if wall.jump else -1.0
    reach = jump_reach if jump_reach > SLIDE_REACH or not wall.slide else SLIDE_REACH
    if _open_beside(ch, reach + _PROBE_PAST, grid, platforms):
        if ch.wall_steps < NEVER:
            ch.wall_steps += 1
        return None
    right = _wall_gap(ch, 1, reach, grid, platforms)
    left = _wall_gap(ch, -1, reach, grid, platforms)
    side = 0
    if right is not None and left is not None:  # a shaft: the wall pushed toward, else the nearer one
        push = (1 if buttons.right else 0) - (1 if buttons.left else 0)
        side = push or (1 if right[0] < left[0] else -1 if left[0] < right[0] else ch.facing)
    elif right is not None or left is not None:
        side = 1 if right is not None else -1
    if side:
        gap, hit = right if side == 1 else left
        if gap <= jump_reach:
            ch.wall_steps, ch.wall_side, ch.wall_hit = 0, side, hit
            return (side, hit) if wall.slide and gap <= SLIDE_REACH else None
        if wall.slide and gap <= SLIDE_REACH:
            if ch.wall_steps < NEVER:
                ch.wall_steps += 1
            return side, hit
    if ch.wall_steps < NEVER:
        ch.wall_steps += 1
    return None


def _open_beside(ch: Character, reach: float, grid, platforms) -> bool:
    """Nothing that could be a wall within ``reach`` px of either side: no solid or slope tile, no map
    wall, no solid body in the band (the usual case in the air; then the probes are skipped)."""
    x0, x1 = ch.x - reach, ch.x + ch.w + reach
    y0, y1 = ch.y, ch.y + ch.h
    if x0 < grid._x_lo or x1 > grid._x_hi:
        return False
    ts, cols, k = grid.tile_size, grid.cols, grid._k
    c0, c1 = max(0, _floor(x0 / ts)), min(cols - 1, _ceil(x1 / ts) - 1)
    r0, r1 = max(0, _floor(y0 / ts)), min(grid.rows - 1, _ceil(y1 / ts) - 1)
    for r in range(r0, r1 + 1):
        row = k[r * cols + c0:r * cols + c1 + 1]
        if SOLID in row or SLOPE in row:
            return False
    for p in platforms:
        if not p.one_way and p.x < x1 and x0 < p.x + p.w and p.y < y1 and y0 < p.y + p.h:
            return False
    return True


def _wall_gap(ch: Character, side: int, reach: float, grid, platforms):
    """``(gap px, Contact)`` of a wall within ``reach`` px on ``side`` (+1 right), or None: a swept probe
    of the X pass (what stops a sideways move is a wall; a slope it would climb is not)."""
    x0, y0 = ch.x, ch.y
    hit = _motion.move_x(grid, platforms, ch, x0 + side * (reach + _PROBE_PAST))  # (a face exactly at reach:
    gap = abs(ch.x - x0)  # a move ending on it only touches it, so the probe goes a hair further)
    ch.x, ch.y = x0, y0
    if hit is None or hit.normal[0] != -side or gap > reach:
        return None
    return gap, hit


def _wall_jump(ch: Character, buttons: Buttons, feel, d, events) -> None:
    """Kick off the wall last near (``wall_side``): away and up, or straight up (a climb jump)."""
    wall, side, hit = feel.wall, ch.wall_side, ch.wall_hit
    push = (1 if buttons.right else 0) - (1 if buttons.left else 0)
    vx0, vy0 = ch.vx, ch.vy
    climb = wall.climb_jump and push == side
    ch.vx = 0.0 if climb else -side * wall.jump_speed
    ch.vy = -d.wall_takeoff_speed
    other = hit.other if hit is not None else None
    if other is not None:  # a moving wall (a platform, a crate): inherit its motion, capped
        ch.vx += _clamp(other.vx, feel.platforms.lift_cap_x)
        ch.vy += max(-feel.platforms.lift_cap_y, min(0.0, other.vy))
    if climb:
        ch.lock_left = 0
    else:
        ch.lock_left, ch.lock_dir = d.lock_steps, -side
        ch.facing = -side
    ch.jumping = True
    ch.since_press = None
    ch.wall_steps = NEVER  # (one kick per wall contact)
    ch.grip_used = 0
    ch.air_steps = NEVER
    if events is not None:
        normal = (-side, 0)
        tile = hit.tile if hit is not None else None
        events.append(ActorEvent("climb_jump" if climb else "wall_jump", ch, normal, tile, other, vx0, vy0))


def _slide_cap(ch: Character, direction: int, touch, feel, d, max_fall: float, events) -> float:
    """Falling while pushing into the wall the box touches (``touch``: its side and Contact): the fall
    cap of the slide (the grip wears off over ``grip_steps``), or ``max_fall`` when not sliding."""
    side, hit = touch
    if direction != side or ch.grip_used >= d.grip_steps:
        return max_fall
    wall = feel.wall
    cap = wall.slide_speed + (max_fall - wall.slide_speed) * (ch.grip_used / d.grip_steps)
    ch.grip_used += 1
    ch.sliding = side
    if events is not None:
        events.append(ActorEvent("wall_slide", ch, (-side, 0), hit.tile, hit.other, ch.vx, ch.vy))
    return cap if cap < max_fall else max_fall


def _start_dash(ch: Character, buttons: Buttons, feel, d, events) -> None:
    """Begin a dash in the direction held (or the way the character faces)."""
    dash = feel.dash
    x = (1 if buttons.right else 0) - (1 if buttons.left else 0)
    y = (1 if buttons.down else 0) - (1 if buttons.up else 0)
    if x and y and not dash.diagonals:
        y = 0  # four directions: a diagonal input dashes sideways
    if not x and not y:
        x = ch.facing
    ux, uy = (x * _DIAG, y * _DIAG) if x and y else (float(x), float(y))
    vx0, vy0 = ch.vx, ch.vy
    vx = ux * dash.speed
    if vx * vx0 > 0.0 and abs(vx0) > abs(vx):
        vx = vx0  # already faster that way: keep it
    ch.vx, ch.vy = vx, uy * dash.speed
    ch.dash_dir = (ux, uy)
    ch.dash_left = d.dash_steps
    ch.dash_cooldown = d.dash_cooldown_steps
    ch.dashes_spent += 1
    ch.since_dash = None
    ch.jumping = False
    ch.lock_left = 0
    ch.grip_used = 0
    ch.sliding = 0
    if x:
        ch.facing = x
    if events is not None:
        events.append(ActorEvent("dash", ch, (x, y), None, None, vx0, vy0))


def _dash_step(ch: Character, feel, d, grid, platforms, was_grounded: bool):
    """One step of a dash: a straight move at the dash's velocity, no gravity, corners slipped round.
    Its last step moves ``dash_last`` of a step at dash speed and the rest at the end speed."""
    dt = d.dt
    ux, uy = ch.dash_dir
    vx, vy = ch.vx, ch.vy
    last = ch.dash_left == 1
    end = feel.dash.end_speed
    if last:
        part = d.dash_last
        ex, ey = ux * end, uy * end
        dx, dy = (vx * part + ex * (1.0 - part)) * dt, (vy * part + ey * (1.0 - part)) * dt
    else:
        dx, dy = vx * dt, vy * dt
    drop = ch.drop_left > 0
    skip = ch.drop_platform
    limit = feel.dash.corner_correction
    if limit > 0.0:
        if dy < 0.0 and dx == 0.0:
            _correct_corner(ch, dy, limit, grid, platforms)
        elif dy > 0.0 and dx == 0.0:
            _correct_floor_corner(ch, dy, limit, grid, platforms, drop, skip)
        elif dx != 0.0 and dy == 0.0:
            _correct_side(ch, dx, limit, grid, platforms, skip)
    ch.contacts = []
    y0 = ch.y
    hit_y = _motion.move_y(grid, platforms, ch, y0 + dy, drop, skip) if dy else None
    if hit_y is not None:
        ch.contacts.append(hit_y)
        uy = 0.0
    x_before = ch.x
    hit_x = None
    if dx:
        grounded = was_grounded or (hit_y is not None and hit_y.normal[1] < 0)
        hit_x = _motion.move_x(grid, platforms, ch, x_before + dx, grounded, skip)
        if hit_x is not None:
            ch.contacts.append(hit_x)
            ux = 0.0
    ch.dash_dir = (ux, uy)
    ch.dash_left -= 1
    if ux == 0.0 and uy == 0.0:
        ch.dash_left = 0  # stopped on every axis: the dash ends here
    if ch.dash_left == 0:
        ch.vx, ch.vy = ux * end, uy * end
    else:
        ch.vx, ch.vy = (vx if ux else 0.0), (vy if uy else 0.0)
    if hit_y is not None and hit_y.normal[1] > 0:
        ch.jumping = False
    landed = _ground_state(ch, d, grid, platforms, was_grounded, x_before, drop, skip)
    return False, landed, False


def _correct_corner(ch: Character, dy: float, limit: float, grid, platforms) -> None:
    """Rising into a ceiling corner by at most ``limit`` px: slide sideways around it.

    The nudge is an ordinary swept sideways move (never through a thin wall), taken only when it is
    free all the way, needs no slope lift and clears the ceiling.
    """
    ceiling = _motion.find_ceiling(grid, platforms, None, ch.x, ch.w, ch.y, ch.y + dy)
    if ceiling == -_motion.INF:
        return
    prefer = 1 if ch.vx > 0 else -1 if ch.vx < 0 else ch.facing
    x0, y0 = ch.x, ch.y
    for shift in range(1, int(limit) + 1):
        for sign in (prefer, -prefer):
            nx = x0 + sign * shift
            if _motion.move_x(grid, platforms, ch, nx) is None and ch.x == nx and ch.y == y0 \
                    and _motion.find_ceiling(grid, platforms, None, nx, ch.w, y0, y0 + dy) == -_motion.INF:
                return
            ch.x, ch.y = x0, y0


def _correct_side(ch: Character, dx: float, limit: float, grid, platforms, skip) -> None:
    """A sideways dash clipping a wall's corner by at most ``limit`` px: shift up (or down) around it.

    The shift is an ordinary swept vertical move; taken only when it is free all the way and the whole
    sideways move is then free (no wall, no slope lift)."""
    x0, y0 = ch.x, ch.y
    if _motion.move_x(grid, platforms, ch, x0 + dx, False, skip) is None and ch.y == y0:
        ch.x = x0
        return
    ch.x, ch.y = x0, y0
    for shift in range(1, int(limit) + 1):
        for sign in (-1, 1):
            ny = y0 + sign * shift
            if _motion.move_y(grid, platforms, ch, ny, False, skip) is None and ch.y == ny \
                    and _motion.move_x(grid, platforms, ch, x0 + dx, False, skip) is None and ch.y == ny:
                ch.x = x0
                return
            ch.x, ch.y = x0, y0


def _correct_floor_corner(ch: Character, dy: float, limit: float, grid, platforms, drop: bool, skip) -> None:
    """A dash straight down clipping a ledge's corner by at most ``limit`` px: slide sideways past it
    (into the gap beside it), when the nudge is free and the whole fall is then free."""
    feet = ch.y + ch.h
    if _motion.find_support(grid, platforms, skip, ch.x, ch.w, feet, feet + dy, drop) is None:
        return
    prefer = ch.facing
    x0, y0 = ch.x, ch.y
    for shift in range(1, int(limit) + 1):
        for sign in (prefer, -prefer):
            nx = x0 + sign * shift
            if _motion.move_x(grid, platforms, ch, nx) is None and ch.x == nx and ch.y == y0 \
                    and _motion.find_support(grid, platforms, skip, nx, ch.w, feet, feet + dy, drop) is None:
                return
            ch.x, ch.y = x0, y0
