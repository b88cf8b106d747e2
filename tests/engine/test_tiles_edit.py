"""Tiles changed at run time (grid.set_tile, grid.fill_tiles): every cache follows (checked against a grid
built from scratch after random edits), the public arrays stay read-only, version / changes_since say what
changed, and a World reacts at its next step: an actor whose floor went falls, one inside a new solid is
moved out the shortest way (up first on a tie) or squished. Snapshots and clones keep tile edits too."""

from __future__ import annotations

import copy
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.tiles
from engine import Actor, Buttons, Character, GridError, Rope, RopeConfig, TileGrid, TileKind, World
from engine._motion import box_free

SETTINGS = settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "60")), deadline=None,
                    derandomize=not os.environ.get("HYPOTHESIS_EXAMPLES"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
E, S, OW, L = TileKind.EMPTY, TileKind.SOLID, TileKind.ONE_WAY, TileKind.SLOPE


def caches(grid: TileGrid) -> dict:
    """Everything the grid derives from its tiles."""
    return {
        "kinds": grid.kinds.tolist(), "left": grid.slope_left.tolist(), "right": grid.slope_right.tolist(),
        "_k": list(grid._k), "_sl": dict(grid._sl), "_sr": dict(grid._sr), "_wall_l": dict(grid._wall_l),
        "_wall_r": dict(grid._wall_r), "_ramp_l": bytes(grid._ramp_l), "_ramp_r": bytes(grid._ramp_r),
        "_slope_rows": list(grid._slope_rows), "_slope_count": list(grid._slope_count), "digest": grid.digest(),
    }


def rebuilt(grid: TileGrid) -> TileGrid:
    return TileGrid(np.array(grid.kinds), grid.tile_size, np.array(grid.slope_left), np.array(grid.slope_right),
                    grid.edges)


# -- the grid ------------------------------------------------------------------------------------------------

def test_set_tile_writes_through_and_counts():
    grid = TileGrid.from_ascii("....\n####")
    assert grid.version == 0
    assert grid.set_tile(1, 0, S) is True
    assert grid.kinds[0, 1] == S and grid.kind_at(1, 0) == S and grid.version == 1
    assert grid.set_tile(1, 0, S) is False and grid.version == 1  # no change: no edit
    assert grid.set_tile(2, 0, L, left=0, right=8) is True
    assert (grid.slope_left[0, 2], grid.slope_right[0, 2]) == (0.0, 8.0)
    assert grid.surface_y(2, 0, 40.0) == pytest.approx(16 - 4)
    assert grid.set_tile(2, 0, E) and grid.slope_right[0, 2] == 0.0  # heights cleared with the slope
    assert grid.changes_since(0) == [(1, 0), (2, 0), (2, 0)]
    assert grid.changes_since(2) == [(2, 0)] and grid.changes_since(3) == []
    assert caches(grid) == caches(rebuilt(grid))


def test_fill_tiles():
    grid = TileGrid.from_ascii("......\n......\n######")
    assert grid.fill_tiles(1, 0, 3, 2, S) == 6
    assert grid.kinds.tolist() == [[0, 1, 1, 1, 0, 0], [0, 1, 1, 1, 0, 0], [1] * 6]
    assert grid.fill_tiles(0, 2, 6, 1, S) == 0 and grid.fill_tiles(0, 0, 0, 5, S) == 0
    assert grid.fill_tiles(3, 1, 3, 1, L, 16, 0) == 3
    assert caches(grid) == caches(rebuilt(grid))


def test_the_public_arrays_cannot_be_made_writable():
    grid = TileGrid.from_ascii("..\n##")
    for arr in (grid.kinds, grid.slope_left, grid.slope_right):
        with pytest.raises(ValueError):
            arr[0, 0] = 1
        with pytest.raises(ValueError):
            arr.setflags(write=True)
        with pytest.raises(ValueError):
            arr.base.setflags(write=True)
    assert grid.kinds[0, 0] == 0


def test_changes_since_forgets_long_ago(monkeypatch):
    monkeypatch.setattr(engine.tiles, "_LOG_LIMIT", 8)
    grid = TileGrid.from_ascii("." * 20)
    for c in range(20):
        grid.set_tile(c, 0, S)
    assert grid.version == 20
    assert grid.changes_since(19) == [(19, 0)]
    assert grid.changes_since(0) is None  # too long ago: redraw everything
    assert grid.changes_since(21) is None  # from the future (another grid's count)


@pytest.mark.parametrize("call, message", [
    (lambda g: g.set_tile(4, 0, S), "set_tile: col 4 is off the map"),
    (lambda g: g.set_tile(0, -1, S), "set_tile: row -1 is off the map"),
    (lambda g: g.set_tile(0.5, 0, S), "set_tile: col must be a whole number"),
    (lambda g: g.set_tile(0, 0, 7), "set_tile: unknown kind 7"),
    (lambda g: g.set_tile(0, 0, L), "set_tile: a slope needs left="),
    (lambda g: g.set_tile(0, 0, L, 0, 17), "set_tile: right must be a height in px within 0..16"),
    (lambda g: g.set_tile(0, 0, L, float("nan"), 1), "set_tile: left must be a height"),
    (lambda g: g.set_tile(0, 0, S, 4, 4), "set_tile: left / right are slope heights; a SOLID tile takes none"),
    (lambda g: g.fill_tiles(2, 0, 3, 1, S), "fill_tiles: col 4 is off the map"),
    (lambda g: g.fill_tiles(0, 0, -1, 1, S), "fill_tiles: cols must be a whole number of tiles >= 0"),
])
def test_bad_edits_are_one_line_errors_and_change_nothing(call, message):
    grid = TileGrid.from_ascii("....\n####")
    before = caches(grid)
    with pytest.raises(GridError, match=message) as e:
        call(grid)
    assert "\n" not in str(e.value)
    assert caches(grid) == before and grid.version == 0


def test_copies_are_independent():
    grid = TileGrid.from_ascii("....\n####")
    twin = grid.copy()
    twin.set_tile(0, 0, L, 0, 16)
    assert grid.kind_at(0, 0) == E and twin.kind_at(0, 0) == L
    assert copy.deepcopy(grid).kinds.tolist() == grid.kinds.tolist()
    assert caches(twin) == caches(rebuilt(twin))
    with pytest.raises(ValueError):
        twin.kinds.setflags(write=True)


TILE = st.sampled_from("....##=/\\pqdb")
EDIT = st.one_of(st.tuples(st.just(E)), st.tuples(st.just(S)), st.tuples(st.just(OW)),
                 st.tuples(st.just(L), st.sampled_from([0.0, 4.0, 8.0, 16.0]), st.sampled_from([0.0, 8.0, 16.0])))


@SETTINGS
@given(st.data())
def test_every_cache_matches_a_grid_built_from_scratch_after_random_edits(data):
    rows, cols = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 8))
    grid = TileGrid.from_ascii("\n".join("".join(data.draw(st.lists(TILE, min_size=cols, max_size=cols)))
                                         for _ in range(rows)))
    for _ in range(data.draw(st.integers(1, 25))):
        c, r = data.draw(st.integers(0, cols - 1)), data.draw(st.integers(0, rows - 1))
        kind, *heights = data.draw(EDIT)
        if data.draw(st.booleans()):
            grid.set_tile(c, r, kind, *heights)
        else:
            grid.fill_tiles(c, r, data.draw(st.integers(0, cols - c)), data.draw(st.integers(0, rows - r)),
                            kind, *heights)
        assert caches(grid) == caches(rebuilt(grid))


# -- the world -----------------------------------------------------------------------------------------------

def test_an_actor_whose_floor_is_removed_falls_at_the_next_step():
    world = World(TileGrid.from_ascii("......\n......\n######\n......\n######"))
    crate = world.add(Actor(34, 22, 10, 10))
    hero = world.add(Character(2, 18))
    for _ in range(3):
        world.step()
    assert crate.on_ground and crate.y == 22 and hero.on_ground
    world.grid.fill_tiles(2, 2, 1, 1, E)  # the tile under the crate
    world.grid.set_tile(0, 2, E)  # and the hero's
    world.step()
    assert crate.y > 22 and not crate.on_ground
    assert hero.y > 18
    for _ in range(40):
        world.step()
    assert crate.on_ground and crate.y == 64 - 10 and hero.y == 64 - 14


def test_a_head_bump_breaks_a_block_as_the_readme_shows():
    world = World(TileGrid.from_ascii("......\n......\n..#...\n......\n......\n######"))
    hero = world.add(Character(35, 66))
    broken = []
    for i in range(60):
        world.step(Buttons(jump=i < 20))
        if any(c.normal == (0, 1) and c.kind == "solid" for c in hero.contacts):  # its head hit a ceiling
            tile = world.tile_at(hero.x + hero.w / 2, hero.y - 1)  # the tile just above it
            if tile.kind == TileKind.SOLID:
                world.grid.set_tile(tile.col, tile.row, TileKind.EMPTY)
                broken.append((tile.col, tile.row))
    assert broken == [(2, 2)]
    assert world.grid.kind_at(2, 2) == E and hero.on_ground


def test_a_character_whose_floor_vanishes_still_has_coyote_time():
    world = World(TileGrid.from_ascii("......\n......\n######"))
    hero = world.add(Character(2, 18))
    world.step()
    world.grid.set_tile(0, 2, E)
    world.step()
    assert not hero.on_ground
    assert hero in world.step(Buttons(jump=True)).jumped


def test_a_solid_placed_over_an_actor_pushes_it_out_the_shortest_way():
    world = World(TileGrid.from_ascii("........\n........\n........\n########"))
    low = world.add(Actor(16, 30, 10, 10, gravity=False))  # its bottom 8 px in row 2, all of it over col 1
    side = world.add(Actor(58, 30, 10, 10, gravity=False))  # 6 px into col 3 from its right side, 8 px from above
    world.step()
    world.grid.set_tile(1, 2, S)
    world.grid.set_tile(3, 2, S)
    result = world.step()
    assert result.squished == []
    assert (low.x, low.y) == (16.0, 22.0)  # up 8 px (left would be 10)
    assert (side.x, side.y) == (64.0, 30.0)  # right 6 px beats up 8 px


def test_up_first_on_a_tie():
    world = World(TileGrid.from_ascii("........\n........\n........\n########"))
    a = world.add(Actor(28, 28, 8, 8, gravity=False))  # 4 px into the tile at (1, 2) from above and from the right
    b = world.add(Actor(80, 24, 8, 16, gravity=False))  # 8 px into (5, 2) from above, 8 px from its left edge
    world.step()
    world.grid.set_tile(1, 2, S)
    world.grid.set_tile(5, 2, S)
    assert world.step().squished == []
    assert (a.x, a.y) == (28.0, 24.0)
    assert (b.x, b.y) == (80.0, 16.0)


def test_a_solid_placed_where_there_is_no_way_out_squishes():
    world = World(TileGrid.from_ascii("#####\n#...#\n#####"))
    a = world.add(Actor(20, 18, 10, 12, gravity=False))
    world.step()
    world.grid.fill_tiles(1, 1, 3, 1, S)
    result = world.step()
    assert result.squished == [a] and a.squished
    assert (a.x, a.y) == (20.0, 18.0)  # pinned where it was


def test_a_slope_placed_under_the_feet_lifts_the_actor_onto_it():
    world = World(TileGrid.from_ascii("......\n......\n######"))
    a = world.add(Actor(36, 18, 8, 14))
    world.step()
    assert a.y == 18.0
    world.grid.set_tile(2, 1, L, 0, 16)  # rising right across 32..48: the surface at the feet (x 40) is 8 px up
    world.step()
    assert a.y + a.h == pytest.approx(32 - 8)
    assert a.on_ground and a.ground.kind == "slope"


@SETTINGS
@given(st.data())
def test_random_edits_under_random_actors_never_leave_one_inside(data):
    rows, cols = data.draw(st.integers(3, 6)), data.draw(st.integers(3, 8))
    lines = ["".join(data.draw(st.lists(TILE, min_size=cols, max_size=cols))) for _ in range(rows)]
    world = World(TileGrid.from_ascii("\n".join(lines + ["#" * cols])))
    for i in range(data.draw(st.integers(1, 4))):
        x, y = data.draw(st.integers(0, cols * 16 - 8)), data.draw(st.integers(0, rows * 16 - 8))
        body = Character(x, y, name=f"c{i}") if data.draw(st.booleans()) else \
            Actor(x, y, data.draw(st.sampled_from([4, 8, 12, 20])), data.draw(st.sampled_from([4, 8, 14, 30])))
        world.add(body)
    for _ in range(data.draw(st.integers(1, 12))):
        for _ in range(data.draw(st.integers(0, 3))):
            c, r = data.draw(st.integers(0, cols - 1)), data.draw(st.integers(0, rows - 1))
            kind, *heights = data.draw(EDIT)
            world.grid.set_tile(c, r, kind, *heights)
        result = world.step(Buttons(left=data.draw(st.booleans()), right=data.draw(st.booleans()),
                                    jump=data.draw(st.booleans())))
        for a in world.actors:
            if a not in result.squished:
                assert box_free(world.grid, world.platforms, a.x, a.y, a.w, a.h), a


def test_snapshots_bring_edited_tiles_back():
    world = World(TileGrid.from_ascii("......\n......\n######"))
    hero = world.add(Character(2, 18))
    world.step()
    world.grid.set_tile(3, 1, S)
    snap = world.snapshot()
    world.grid.set_tile(0, 2, E)
    world.grid.set_tile(3, 1, E)
    world.grid.set_tile(5, 0, L, 0, 8)
    later = [world.step(Buttons(right=True)) for _ in range(5)]
    assert hero.y > 18
    end = world.snapshot()
    end_hash = world.state_hash()
    world.restore(snap)
    assert world.grid.kinds.tolist() == [[0] * 6, [0, 0, 0, 1, 0, 0], [1] * 6]
    assert caches(world.grid) == caches(rebuilt(world.grid))
    again = [world.step(Buttons(right=True)) for _ in range(5)]
    assert hero.y == 18 and [r.step for r in again] == [r.step for r in later]
    world.restore(end)  # forward again
    assert world.state_hash() == end_hash
    assert world.grid.kind_at(5, 0) == L


def test_a_snapshot_taken_before_a_step_keeps_the_pending_check():
    world = World(TileGrid.from_ascii("......\n......\n######"))
    a = world.add(Actor(20, 22, 10, 10, gravity=False))
    world.step()
    world.grid.set_tile(1, 1, S)  # on top of it; the world sees it at the next step
    snap = world.snapshot()
    world.step()
    moved = (a.x, a.y, world.state_hash())
    world.restore(snap)
    world.step()
    assert (a.x, a.y, world.state_hash()) == moved


def test_clones_get_their_own_grid():
    world = World(TileGrid.from_ascii("......\n######"))
    world.add(Actor(2, 2, 8, 8))
    twin = world.clone()
    twin.grid.set_tile(0, 1, E)
    assert world.grid.kind_at(0, 1) == S
    for _ in range(30):
        world.step()
        twin.step()
    assert world.actors[0].on_ground and not twin.actors[0].on_ground


def test_a_rope_lying_on_a_removed_floor_falls():
    world = World(TileGrid.from_ascii("......\n......\n######\n......\n######"))
    rope = world.add(Rope(40, 0, RopeConfig(segments=8, segment_length=8)))
    for _ in range(60):
        world.step()
    assert max(y for _x, y in rope.points) < 32
    world.grid.fill_tiles(0, 2, 6, 1, E)
    for _ in range(60):
        world.step()
    assert max(y for _x, y in rope.points) > 48


def test_state_hash_follows_the_tiles():
    one, two = (World(TileGrid.from_ascii("....\n####")) for _ in range(2))
    one.grid.set_tile(0, 0, S)
    one.grid.set_tile(0, 0, E)  # back as it was
    assert one.state_hash() == two.state_hash()
    one.grid.set_tile(1, 0, OW)
    assert one.state_hash() != two.state_hash()
    assert one.grid.digest() == rebuilt(one.grid).digest()
