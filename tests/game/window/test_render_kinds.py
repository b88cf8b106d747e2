"""Drawing the level object kinds from plain state: each lands where its box says, poses and phases pick
their frames, and a missing sheet still draws."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from game.rules.camera import View
from game.window.render import kinds as K
from game.window.render.sprites import Art


def canvas(w: int = 96, h: int = 96) -> pygame.Surface:
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    s.fill((0, 0, 0, 0))
    return s


def drawn(surf) -> np.ndarray:
    """Which pixels hold something, as [y, x]."""
    return pygame.surfarray.pixels_alpha(surf).T > 0


def bounds(surf) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of what was drawn, exclusive right/bottom."""
    ys, xs = np.nonzero(drawn(surf))
    assert len(xs), "nothing was drawn"
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def pixels(surf) -> np.ndarray:
    return pygame.surfarray.array3d(surf).copy()


ORIGIN = View(0.0, 0.0)


# -- enemies ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, box", [("walker", (30, 40, 14, 12)), ("hopper", (31, 40, 12, 12))])
def test_a_ground_enemy_stands_its_frame_on_the_bottom_of_its_box(art, kind, box):
    s = canvas()
    K.draw_enemy(s, art, ORIGIN, K.EnemyLook(kind, *box))
    x, y, w, h = box
    left, top, right, bottom = bounds(s)
    assert bottom == y + h  # the feet on the box's bottom edge
    assert left >= x + w / 2 - 8 and right <= x + w / 2 + 8 and top >= y + h - 16
    assert drawn(s)[y + h - 1].any()


def test_a_flyer_is_centred_on_its_box(art):
    s = canvas()
    K.draw_enemy(s, art, ORIGIN, K.EnemyLook("flyer", 40, 40, 14, 10, 1, "fly"))
    left, top, right, bottom = bounds(s)
    assert abs((left + right) / 2 - 47) <= 1.5 and abs((top + bottom) / 2 - 45) <= 2.5
    assert 40 - 8 <= left and right <= 47 + 8


def test_facing_mirrors_the_enemy(art):
    right, left = canvas(), canvas()
    K.draw_enemy(right, art, ORIGIN, K.EnemyLook("walker", 41, 40, 14, 12, 1))
    K.draw_enemy(left, art, ORIGIN, K.EnemyLook("walker", 41, 40, 14, 12, -1))
    a, b = pixels(right), pixels(left)
    assert not np.array_equal(a, b)
    assert np.array_equal(a[40:56], b[40:56][::-1])  # the 16 px frame centred on x 48 (columns 40..55)


def test_poses_and_time_pick_the_frames(art):
    def picture(**look):
        s = canvas()
        K.draw_enemy(s, art, ORIGIN, K.EnemyLook(**{"x": 40, "y": 40, "w": 14, "h": 12, **look}))
        return pixels(s)

    walk = [picture(kind="walker", pose="walk", t=t) for t in (0.0, 0.15, 0.3, 0.45, 0.6)]
    assert not np.array_equal(walk[0], walk[1]) and np.array_equal(walk[0], walk[4])  # 4 frames of 0.14 s
    assert not np.array_equal(picture(kind="walker", pose="stomped"), walk[0])
    hops = [picture(kind="hopper", pose=p) for p in K.ENEMY_POSES["hopper"]]
    assert len({h.tobytes() for h in hops}) == len(hops)
    assert np.array_equal(picture(kind="hopper", pose="no such pose"), picture(kind="hopper", pose="idle"))
    flaps = [picture(kind="flyer", t=t) for t in (0.0, 0.09, 0.17)]
    assert len({f.tobytes() for f in flaps}) == 3


def test_a_bigger_enemy_draws_its_art_at_a_whole_multiple(art):
    s = canvas()
    K.draw_enemy(s, art, ORIGIN, K.EnemyLook("walker", 20, 20, 28, 24))
    left, top, right, bottom = bounds(s)
    assert bottom == 44 and right - left > 24 and bottom - top > 16


def test_the_camera_moves_everything_by_the_same_rounded_offset(art):
    here, there = canvas(), canvas()
    K.draw_enemy(here, art, ORIGIN, K.EnemyLook("walker", 30, 40, 14, 12))
    K.draw_enemy(there, art, View(10.4, -5.0), K.EnemyLook("walker", 40.4, 35, 14, 12))
    assert np.array_equal(pixels(here), pixels(there))


# -- turrets, bullets, puffs ------------------------------------------------------------------------------

@pytest.mark.parametrize("direction", ["left", "right", "up", "down"])
def test_a_turret_flashes_right_after_a_shot(art, direction):
    idle, firing, later = canvas(), canvas(), canvas()
    K.draw_turret(idle, art, ORIGIN, 40, 40, 16, 16, direction)
    K.draw_turret(firing, art, ORIGIN, 40, 40, 16, 16, direction, since_shot=0.01)
    K.draw_turret(later, art, ORIGIN, 40, 40, 16, 16, direction, since_shot=K.FLASH_TIME)
    left, top, right, bottom = bounds(idle)
    assert 40 <= left and 40 <= top and right <= 56 and bottom <= 56  # within its box
    assert not np.array_equal(pixels(idle), pixels(firing)) and np.array_equal(pixels(idle), pixels(later))
    # the flash is on the side it fires from
    diff = np.argwhere((pixels(idle) != pixels(firing)).any(axis=2))  # [x, y]
    dx, dy = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}[direction]
    centre = diff.mean(axis=0) - (48, 48)
    assert centre[0] * dx + centre[1] * dy > 3


def test_each_direction_has_its_own_turret(art):
    pictures = []
    for direction in ("left", "right", "up", "down"):
        s = canvas()
        K.draw_turret(s, art, ORIGIN, 40, 40, 16, 16, direction)
        pictures.append(pixels(s).tobytes())
    assert len(set(pictures)) == 4


def test_a_bullet_is_centred_and_flickers(art):
    a, b = canvas(), canvas()
    K.draw_bullet(a, art, ORIGIN, 50, 30, 0.0)
    K.draw_bullet(b, art, ORIGIN, 50, 30, 0.06)
    left, top, right, bottom = bounds(a)
    assert (left + right) / 2 == pytest.approx(50, abs=1) and (top + bottom) / 2 == pytest.approx(30, abs=1)
    assert right - left <= 2 * K.BULLET_HALO_R + 1 and not np.array_equal(pixels(a), pixels(b))


@pytest.mark.parametrize("backdrop", [(20, 18, 34), (40, 60, 90), (200, 220, 240)], ids=["night", "wall", "sky"])
def test_a_bullet_is_at_least_6_px_with_a_bright_outline_on_any_backdrop(art, backdrop):
    """The play-tester saw bullets as ~5 px dots from nowhere: drawn now at least 6 px across, ringed by
    a bright outline that stands out from the darkest and the brightest backdrop."""
    for t in (0.0, 0.06):
        s = pygame.Surface((40, 40))
        s.fill(backdrop)
        K.draw_bullet(s, art, ORIGIN, 20, 20, t)
        px = pygame.surfarray.array3d(s).transpose(1, 0, 2).astype(int)
        changed = np.any(px != backdrop, axis=2)
        ys, xs = np.nonzero(changed)
        assert xs.max() - xs.min() + 1 >= 6 and ys.max() - ys.min() + 1 >= 6
        luma = px @ np.array([299, 587, 114]) // 1000
        row, col = np.nonzero(changed[20])[0], np.nonzero(changed[:, 20])[0]
        ring = [(row.min(), 20), (row.max(), 20), (20, col.min()), (20, col.max())]  # the outermost pixels
        assert all(luma[y, x] >= 230 for x, y in ring), "the outline is bright"
        back = backdrop[0] * 0.299 + backdrop[1] * 0.587 + backdrop[2] * 0.114
        assert all(abs(luma[y, x] - back) >= 15 for x, y in ring), "and differs from the backdrop"


def test_the_puff_plays_once(art):
    seen = []
    for t in (0.0, 0.1, 0.2, 0.3, K.PUFF_TIME, 1.0, -0.1):
        s = canvas()
        K.draw_puff(s, art, ORIGIN, 48, 48, t)
        seen.append(drawn(s).any())
        if seen[-1]:
            left, top, right, bottom = bounds(s)
            assert left >= 40 and right <= 56 and top >= 40 and bottom <= 56
    assert seen == [True, True, True, True, False, False, False]


# -- springs, crumbles, breakables, debris ---------------------------------------------------------------

def test_a_spring_stands_on_its_box_one_per_16_px(art):
    one, two = canvas(), canvas()
    K.draw_spring(one, art, ORIGIN, 40, 56, 16, 8)
    K.draw_spring(two, art, ORIGIN, 40, 56, 32, 8)
    assert bounds(one)[3] == 64 and bounds(one)[0] >= 40 and bounds(one)[2] <= 56
    assert bounds(two)[0] >= 40 and bounds(two)[2] <= 72 and bounds(two)[2] > 62
    tops = []
    for pose in K.SPRING_POSES:
        s = canvas()
        K.draw_spring(s, art, ORIGIN, 40, 56, 16, 8, pose)
        tops.append(bounds(s)[1])
    rest, compressed, extended = tops
    assert extended < rest < compressed  # the pad: up when launching, down when pressed


def test_crumbles_crack_stage_by_stage_then_shake(art):
    assert [K.crumble_stage(e, 0.6) for e in (0.0, 0.05, 0.25, 0.45, 0.6, 5.0)] == [0, 1, 2, 3, 3, 3]
    assert K.crumble_stage(0.1, 0.0) == 3
    assert K.shake(0.0) == 0 and {K.shake(i / 120) for i in range(1, 40)} == {-1, 0, 1}
    pictures = []
    for elapsed in (0.0, 0.05, 0.25, 0.45):
        s = canvas()
        K.draw_crumble(s, art, ORIGIN, 16, 32, 48, 16, elapsed=elapsed, delay=0.6)
        pictures.append(pixels(s).tobytes())
    assert len(set(pictures)) == 4


def test_a_solid_crumble_and_a_breakable_cover_their_box_exactly(art):
    for draw in (lambda s: K.draw_crumble(s, art, ORIGIN, 16, 32, 48, 16),
                 lambda s: K.draw_breakable(s, art, ORIGIN, 16, 32, 48, 16)):
        s = canvas()
        draw(s)
        mask = drawn(s)
        assert mask[32:48, 16:64].all() and mask.sum() == 48 * 16


def test_a_one_way_crumble_is_a_plank_on_top_and_a_bumped_block_rises(art):
    plank = canvas()
    K.draw_crumble(plank, art, ORIGIN, 16, 32, 32, 8, one_way=True)
    assert bounds(plank)[1] == 32 and drawn(plank)[32, 16:48].all() and not drawn(plank)[41:48].any()
    still, bumped, coin = canvas(), canvas(), canvas()
    K.draw_breakable(still, art, ORIGIN, 16, 32, 16, 16)
    K.draw_breakable(bumped, art, ORIGIN, 16, 32, 16, 16, bump=3)
    K.draw_breakable(coin, art, ORIGIN, 16, 32, 16, 16, coin=True)
    assert bounds(bumped) == (16, 29, 32, 45)
    assert not np.array_equal(pixels(still), pixels(coin))


def test_debris_pops_up_from_a_breakable_drops_from_a_crumble_and_is_gone_later(art):
    def cloud(what, t):
        s = canvas(160, 160)
        K.draw_debris(s, art, View(-48, -48), 16, 16, 16, 16, what, t)
        return s

    early_break, early_crumble = bounds(cloud("breakable", 0.15)), bounds(cloud("crumble", 0.15))
    assert early_break[1] < 48 + 16  # above the block's top (on screen at y 64)
    assert early_crumble[1] > 48 + 16 and early_break[2] - early_break[0] > early_crumble[2] - early_crumble[0]
    assert np.array_equal(pixels(cloud("plank", 0.3)), pixels(cloud("plank", 0.3)))
    assert not drawn(cloud("breakable", K.DEBRIS_TIME)).any()


# -- vines -------------------------------------------------------------------------------------------------

def test_a_vine_runs_through_its_joints_with_leaves_and_a_tip(art):
    s = canvas()
    points = [(48, 8), (50, 24), (46, 40), (48, 56), (52, 72)]
    K.draw_vine(s, art, ORIGIN, points)
    mask = drawn(s)
    for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):  # the stem between joints
        mx, my = (ax + bx) // 2, (ay + by) // 2
        assert mask[my, mx - 1 : mx + 2].any()
    left, top, right, bottom = bounds(s)
    assert top <= 8 and bottom >= 72 and right - left <= 16
    tip = pygame.surfarray.array3d(s)[49:56, 69:76]  # the flower (pink) at the last joint
    assert ((tip[..., 0] > 200) & (tip[..., 2] > 100)).any()


def test_an_empty_or_single_point_vine(art):
    s = canvas()
    K.draw_vine(s, art, ORIGIN, [])
    assert not drawn(s).any()
    K.draw_vine(s, art, ORIGIN, [(48, 48)])
    assert drawn(s).any()


# -- without objects.png -------------------------------------------------------------------------------------

def test_every_kind_still_draws_without_its_sheet(art, monkeypatch):
    from game.window.render import sprites

    real = sprites._load
    monkeypatch.setattr(sprites, "_load", lambda name: None if name == "objects.png" else real(name))
    bare = Art()
    for name, f in K.OBJECT_FRAMES.items():
        assert [img.get_size() for img in bare.objects[name]] == [(f.w, f.h)] * f.count
    s = canvas()
    K.draw_enemy(s, bare, ORIGIN, K.EnemyLook("hopper", 30, 40, 12, 12, 1, "jump"))
    K.draw_turret(s, bare, ORIGIN, 60, 10, 16, 16, "down", 0.0)
    K.draw_spring(s, bare, ORIGIN, 10, 80, 16, 8, "compressed")
    K.draw_crumble(s, bare, ORIGIN, 0, 0, 32, 16, elapsed=0.3)
    K.draw_vine(s, bare, ORIGIN, [(80, 40), (82, 60)])
    assert drawn(s)[45, 36] and drawn(s)[18, 68] and drawn(s)[8, 8] and drawn(s)[50, 81]
