"""world.sweep: the first thing a box would hit moving along a segment, without moving anything."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Actor, Character, Path, Platform, Rect, SweepHit, TileGrid, World
from engine._motion import box_free, move_x, move_y

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "60")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

YARD = """
..........
..........
.....#....
....../...
##########
"""


def yard():
    w = World(TileGrid.from_ascii(YARD))
    hero = w.add(Character(10, 50))
    crate = w.add(Actor(40, 48, 16, 16, solid=True, name="crate"))
    foe = w.add(Actor(100, 56, 8, 8, group=2, name="foe"))
    return w, hero, crate, foe


def test_a_sweep_reports_the_first_hit_and_moves_nothing():
    w, hero, crate, foe = yard()
    before = w.state_hash()
    hit = w.sweep(hero, 100, 0)
    assert hit == SweepHit(0.2, 30.0, 50.0, (-1.0, 0.0), "actor", None, crate)
    assert w.sweep((0, 0, 8, 8), 0, 200) == SweepHit(0.28, 0.0, 56.0, (0.0, -1.0), "solid", (0, 4), None)
    assert w.state_hash() == before and hero.x == 10 and crate.x == 40


def test_touches_picks_the_groups_whose_actors_count_and_ignore_skips_bodies():
    w, hero, crate, foe = yard()
    w.remove(crate)
    w.grid.set_tile(6, 3, 0)
    box = (64, 56, 8, 8)
    assert w.sweep(box, 100, 0).kind == "solid"  # the foe is not solid: passed through to the wall ...
    hit = w.sweep(box, 100, 0, touches=2)
    assert hit.other is foe and hit.kind == "actor" and hit.x == 92.0  # ... unless its group is asked for
    w.add(crate)
    assert w.sweep(hero, 200, 0, ignore=crate).x == 150.0  # past the crate, to the wall
    assert w.sweep(Rect(64, 56, 8, 8), 100, 0, touches=2, ignore=[foe]).kind == "solid"


def test_slopes_one_way_tops_platforms_and_walls():
    w = World(TileGrid.from_ascii("..........\n....==....\n...../....\n##########"))
    lift = w.add(Platform(0, 0, 16, 8, Path([(0, 0)], 0)))
    slope = w.sweep((82, 20, 8, 8), 0, 40)
    assert slope.kind == "slope" and slope.tile == (5, 2) and slope.normal[1] < 0 and slope.normal[0] < 0
    assert w.sweep((66, 0, 8, 8), 0, 40).kind == "one_way"  # a one-way top, going down
    assert w.sweep((66, 30, 8, 8), 0, -40) is None or w.sweep((66, 30, 8, 8), 0, -40).kind != "one_way"
    assert w.sweep((40, 0, 8, 8), -60, 0).other is lift
    assert w.sweep((140, 0, 8, 8), 60, 0) == SweepHit(pytest.approx(12 / 60), 152.0, 0.0, (-1.0, 0.0), "solid")


def test_what_the_box_starts_inside_is_not_a_hit_and_zero_motion_hits_nothing():
    w, hero, crate, foe = yard()
    assert w.sweep((44, 50, 4, 4), 0, 0) is None
    inside = w.sweep((44, 50, 4, 4), -30, 0)  # inside the crate: leaving it is free
    assert inside is None or inside.other is not crate


def test_bad_arguments_say_what_is_wrong():
    w, hero, crate, foe = yard()
    with pytest.raises(TypeError, match="box must be an Actor, a Rect"):
        w.sweep("hero", 1, 0)
    with pytest.raises(ValueError, match="dx"):
        w.sweep(hero, float("nan"), 0)
    with pytest.raises(ValueError, match="w"):
        w.sweep((0, 0, 0, 4), 1, 0)


@SETTINGS
@given(st.lists(st.sampled_from("....#"), min_size=60, max_size=60), st.floats(0, 150), st.floats(0, 60),
       st.sampled_from([4.0, 8.0, 13.0]), st.floats(-300, 300), st.booleans())
def test_an_axis_sweep_stops_where_the_move_would(cells, x, y, size, d, across):
    # against solid tiles and a crate, a sweep along one axis ends where the ordinary pass stops the box
    rows = ["".join(cells[r * 10:(r + 1) * 10]) for r in range(6)]
    w = World(TileGrid.from_ascii("\n".join(rows)))
    crate = w.add(Actor(60, 40, 16, 16, solid=True))
    probe = Actor(x, y, size, size)
    solids = [crate]
    if not box_free(w.grid, solids, x, y, size, size) or not d:
        return
    hit = w.sweep((x, y, size, size), d if across else 0.0, 0.0 if across else d)
    if across:
        move_x(w.grid, solids, probe, x + d)
    else:
        move_y(w.grid, solids, probe, y + d, False)
    if hit is None:
        assert (probe.x, probe.y) == ((x + d, y) if across else (x, y + d))
    else:
        assert (hit.x, hit.y) == pytest.approx((probe.x, probe.y), abs=1e-5)
        assert box_free(w.grid, solids, hit.x, hit.y, size, size)
        assert 0.0 <= hit.fraction <= 1.0


def test_walkers_and_ropes_are_never_hit_even_with_every_group_touched():
    # (engine/docs/queries.md: "walkers of crowds and ropes are never hit")
    from engine import Crowd, Rope, RopeConfig

    w = World(TileGrid.from_ascii("..........\n..........\n..........\n##########"))
    crowd = w.add(Crowd())
    crowd.add(80, 34, 8, 14, speed=0.0, group=2)
    w.add(Rope(60, 0, RopeConfig(segments=6, segment_length=6)))
    w.step()
    hit = w.sweep((0, 36, 8, 8), 200, 0, touches=~0 & ((1 << 64) - 1))
    assert hit.kind == "solid" and hit.other is None and hit.x == 152.0  # through both, to the map wall
