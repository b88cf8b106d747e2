"""The feel: how a Character turns buttons into motion, one fixed step at a time.

Read top to bottom, like Celeste's Player.cs: presses and timers, jump (or drop-through), running,
variable jump and gravity, corner correction, then the generic move (Y pass, X pass, slopes, ground
snap) and the new ground state. All knobs come from :class:`~engine.feel.FeelConfig`; windows are whole
steps: ``coyote_steps = round(coyote_time * hz)``, ``buffer_steps = round(buffer_time * hz)``.

Exact windows:
- coyote: a jump pressed on any of the first N steps after the last step that ended on the ground
  still jumps;
- buffer: a jump pressed in the air up to M steps before the landing step (or on it) jumps on the step
  after landing.
"""

from __future__ import annotations

from . import _motion
from .bodies import Buttons, Character

__all__ = ["control"]

NEVER = 1 << 30


def _approach(value: float, target: float, amount: float) -> float:
    if value < target:
        value += amount
        return value if value <= target else target  # (min / max spelled out: this runs every step)
    value -= amount
    return value if value >= target else target


def _clamp(v: float, limit: float) -> float:
    return max(-limit, min(limit, v))


def control(ch: Character, buttons: Buttons, feel, d, grid, platforms) -> tuple[bool, bool, bool]:
    """Advance one Character by one fixed step. ``d`` is ``feel.derived`` (passed in: computed once).

    Returns ``(jumped, landed, dropped)`` for this step (the world collects them into StepResult).
    """
    landed = dropped = False
    dt = d.dt
    run, jump, fall = feel.run, feel.jump, feel.fall
    was_grounded = ch.on_ground

    # -- presses and timers ---------------------------------------------------------------------------
    pressed = buttons.jump and not ch.held.jump
    ch.held = buttons
    if pressed:
        ch.since_press = 0
    elif ch.since_press is not None:
        ch.since_press += 1
        if ch.since_press > d.buffer_steps + 1:
            ch.since_press = None
    can_jump = was_grounded or ch.air_steps < d.coyote_steps

    # -- jump or drop through -------------------------------------------------------------------------
    jumped = False
    if ch.since_press is not None and can_jump:
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
    airborne = not ch.on_ground

    # -- running --------------------------------------------------------------------------------------
    direction = (1 if buttons.right else 0) - (1 if buttons.left else 0)
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
    if dy < 0.0 and jump.corner_correction > 0.0:
        _correct_corner(ch, dy, jump.corner_correction, grid, platforms)
    if ch.bounce:
        hit_y, x_before = _motion.move(grid, platforms, ch, dx, dy, drop, skip, d.fall_gravity * scale * dt, vy)
    else:
        hit_y, x_before = _motion.move(grid, platforms, ch, dx, dy, drop, skip)
    if hit_y is not None and hit_y.normal[1] > 0:
        ch.jumping = False  # head bonk ends the jump

    # -- ground snap (walking down slopes) and the new ground state --------------------------------
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
    else:
        left = d.coyote_steps - ch.air_steps
        ch.coyote_left = left if left > 0 else 0
    if ch.since_press is None:
        ch.buffer_left = 0
    else:
        left = d.buffer_steps + 1 - ch.since_press
        ch.buffer_left = left if left > 0 else 0
    return jumped, landed, dropped


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
