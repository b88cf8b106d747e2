"""Tile grid: built from arrays or ASCII art, clear errors naming the row/col, queries cost only the
tiles a box touches (never the map size)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from engine import Buttons, Character, GridError, TileGrid, TileKind, World


# -- construction ------------------------------------------------------------------------------------
def test_grid_from_kind_array_has_size_and_kinds():
    kinds = [[0, 0, 1],
             [2, 3, 1]]
    left = [[0, 0, 0], [0, 0, 0]]
    right = [[0, 0, 0], [0, 16, 0]]
    g = TileGrid(kinds, tile_size=16, slope_left=left, slope_right=right)
    assert (g.rows, g.cols, g.tile_size) == (2, 3, 16)
    assert (g.width, g.height) == (48, 32)
    assert g.kind_at(2, 0) is TileKind.SOLID
    assert g.kind_at(0, 1) is TileKind.ONE_WAY
    assert g.kind_at(1, 1) is TileKind.SLOPE
    assert g.kind_at(0, 0) is TileKind.EMPTY


def test_grid_accepts_a_numpy_array_and_keeps_read_only_arrays():
    kinds = np.array([[1, 0], [1, 1]], dtype=np.int32)
    g = TileGrid(kinds, tile_size=8)
    assert g.kinds.shape == (2, 2)
    assert g.kinds.tolist() == [[1, 0], [1, 1]]
    with pytest.raises(ValueError):
        g.kinds[0, 0] = 0  # immutable: worlds share it
    kinds[0, 1] = 1  # the caller's array is copied, not aliased
    assert g.kind_at(1, 0) is TileKind.EMPTY


def test_outside_the_map_is_empty():
    g = TileGrid.from_ascii("##\n##")
    for col, row in [(-1, 0), (0, -1), (2, 0), (0, 2), (100, 100), (-100, -100)]:
        assert g.kind_at(col, row) is TileKind.EMPTY


def test_from_ascii_legend():
    g = TileGrid.from_ascii("""
.#=/\\
pqdb
""")
    assert (g.rows, g.cols) == (2, 5)
    expect = [[0, 1, 2, 3, 3], [3, 3, 3, 3, 0]]
    assert g.kinds.tolist() == expect
    ts = 16
    # '/' rises to the right 0 -> 16, '\\' rises to the left 16 -> 0
    assert (g.slope_left[0, 3], g.slope_right[0, 3]) == (0, ts)
    assert (g.slope_left[0, 4], g.slope_right[0, 4]) == (ts, 0)
    # shallow pairs: p q = 0->8, 8->16 ; d b = 16->8, 8->0
    assert (g.slope_left[1, 0], g.slope_right[1, 0]) == (0, 8)
    assert (g.slope_left[1, 1], g.slope_right[1, 1]) == (8, 16)
    assert (g.slope_left[1, 2], g.slope_right[1, 2]) == (16, 8)
    assert (g.slope_left[1, 3], g.slope_right[1, 3]) == (8, 0)


def test_from_ascii_pads_short_lines_and_drops_blank_edges():
    g = TileGrid.from_ascii("\n\n#\n###\n\n")
    assert (g.rows, g.cols) == (2, 3)
    assert g.kinds.tolist() == [[1, 0, 0], [1, 1, 1]]


def test_from_ascii_custom_legend_and_tile_size():
    g = TileGrid.from_ascii("sX", tile_size=8, legend={"s": (3, 0.25, 0.75), "X": (1, 0, 0)})
    assert g.kind_at(0, 0) is TileKind.SLOPE
    assert (g.slope_left[0, 0], g.slope_right[0, 0]) == (2, 6)
    assert g.kind_at(1, 0) is TileKind.SOLID
    assert g.width == 16


def test_surface_y_interpolates_across_the_slope_in_world_coordinates():
    g = TileGrid.from_ascii("""
....
./p.
""")
    # '/' at col 1 row 1: bottom y = 32; left edge height 0, right edge 16
    assert g.surface_y(1, 1, 16.0) == 32.0
    assert g.surface_y(1, 1, 24.0) == 24.0
    assert g.surface_y(1, 1, 32.0) == 16.0
    # clamped to the tile
    assert g.surface_y(1, 1, 0.0) == 32.0
    assert g.surface_y(1, 1, 100.0) == 16.0
    # 'p' at col 2: 0 -> 8
    assert g.surface_y(2, 1, 32.0) == 32.0
    assert g.surface_y(2, 1, 40.0) == 28.0
    assert g.surface_y(2, 1, 48.0) == 24.0


def test_solid_overlaps_is_strict():
    g = TileGrid.from_ascii("""
...
.#.
...
""")
    # the solid covers x 16..32, y 16..32
    assert g.solid_overlaps(16, 16, 16, 16)
    assert g.solid_overlaps(31.9, 31.9, 5, 5)
    assert not g.solid_overlaps(0, 0, 16, 16)  # touches the corner
    assert not g.solid_overlaps(0, 16, 16, 16)  # touches the left side
    assert not g.solid_overlaps(32, 16, 16, 16)  # touches the right side
    assert not g.solid_overlaps(16, 0, 16, 16)  # touches the top
    assert not g.solid_overlaps(16, 32, 16, 16)  # touches the bottom
    assert g.solid_overlaps(15.999, 16, 1, 1)  # a sliver inside


def test_tiles_in_lists_the_non_empty_tiles_strictly_overlapped():
    g = TileGrid.from_ascii("""
#=.
/..
""")
    assert sorted(g.tiles_in(0, 0, 32, 32)) == [(0, 0, TileKind.SOLID), (0, 1, TileKind.SLOPE),
                                                 (1, 0, TileKind.ONE_WAY)]
    assert list(g.tiles_in(16, 16, 16, 16)) == []
    assert list(g.tiles_in(32, 0, 16, 16)) == []  # touches only


# -- errors name the row/col and the fix -------------------------------------------------------------
def _row_col(message: str) -> tuple[int, int]:
    m = re.search(r"row (\d+), col (\d+)", message)
    assert m, f"error does not name the row/col: {message!r}"
    return int(m.group(1)), int(m.group(2))


def test_unknown_kind_names_row_and_col():
    kinds = [[0, 0, 0], [0, 0, 7]]
    with pytest.raises(GridError) as e:
        TileGrid(kinds)
    assert _row_col(str(e.value)) == (1, 2)
    assert "7" in str(e.value)


def test_negative_kind_names_row_and_col():
    with pytest.raises(GridError) as e:
        TileGrid([[0, -1]])
    assert _row_col(str(e.value)) == (0, 1)


def test_slope_without_heights_names_row_and_col():
    with pytest.raises(GridError) as e:
        TileGrid([[0, 0], [3, 0]])
    assert _row_col(str(e.value)) == (1, 0)
    assert "slope_left" in str(e.value)


def test_slope_height_out_of_range_names_row_col_and_range():
    left = np.zeros((2, 3))
    right = np.zeros((2, 3))
    right[0, 1] = 17
    with pytest.raises(GridError) as e:
        TileGrid([[0, 3, 0], [1, 1, 1]], 16, left, right)
    msg = str(e.value)
    assert _row_col(msg) == (0, 1)
    assert "slope_right" in msg and "0..16" in msg
    left[0, 1] = -1
    right[0, 1] = 4
    with pytest.raises(GridError) as e:
        TileGrid([[0, 3, 0], [1, 1, 1]], 16, left, right)
    assert _row_col(str(e.value)) == (0, 1)
    assert "slope_left" in str(e.value)


def test_slope_height_nan_names_row_and_col():
    left = np.zeros((1, 2))
    right = np.array([[0.0, np.nan]])
    with pytest.raises(GridError) as e:
        TileGrid([[0, 3]], 16, left, right)
    assert _row_col(str(e.value)) == (0, 1)


def test_unknown_ascii_character_names_row_col_and_character():
    with pytest.raises(GridError) as e:
        TileGrid.from_ascii("""
....
..#.
.#?#
""")
    msg = str(e.value)
    assert _row_col(msg) == (2, 2)
    assert "'?'" in msg
    assert "legend" in msg  # says how to fix it


@pytest.mark.parametrize("bad", [[], [[]], [1, 2, 3], [[[1]]]])
def test_bad_shapes_are_grid_errors_naming_the_shape(bad):
    with pytest.raises(GridError) as e:
        TileGrid(bad)
    assert "2-D" in str(e.value)


def test_non_numeric_kinds_are_grid_errors():
    with pytest.raises(GridError) as e:
        TileGrid([["a", "b"]])
    assert "kinds" in str(e.value)


def test_heights_shape_mismatch_is_a_grid_error():
    with pytest.raises(GridError) as e:
        TileGrid([[3, 0]], 16, np.zeros((1, 3)), np.zeros((1, 2)))
    assert "slope_left" in str(e.value) and "shape" in str(e.value)


@pytest.mark.parametrize("ts", [0, -16, 1.5, True, "16"])
def test_bad_tile_size_is_a_grid_error(ts):
    with pytest.raises(GridError) as e:
        TileGrid([[1]], tile_size=ts)
    assert "tile_size" in str(e.value)


def test_empty_ascii_map_is_a_grid_error():
    with pytest.raises(GridError) as e:
        TileGrid.from_ascii("\n   \n\n")
    assert "empty" in str(e.value)


def test_grid_error_is_a_value_error_with_a_single_line():
    with pytest.raises(ValueError) as e:
        TileGrid([[9]])
    assert "\n" not in str(e.value)


# -- queries touch only the tiles a box covers ------------------------------------------------------
class CountingList(list):
    """A list that counts element reads (the grid's hot-path tile list; a slice reads its elements)."""

    reads = 0

    def __getitem__(self, i):
        got = list.__getitem__(self, i)
        CountingList.reads += len(got) if isinstance(i, slice) else 1
        return got


class CountingDict(dict):
    """The same for the slope heights (dicts over the slope tiles)."""

    def __getitem__(self, i):
        CountingList.reads += 1
        return dict.__getitem__(self, i)


def _instrument(grid: TileGrid) -> None:
    grid._k = CountingList(grid._k)
    grid._sl = CountingDict(grid._sl)
    grid._sr = CountingDict(grid._sr)


def _map(rows: int, cols: int) -> TileGrid:
    """A floor on row 5 with a slope and a one-way near the left, and empty space elsewhere."""
    k = np.zeros((rows, cols), dtype=np.int64)
    sl = np.zeros((rows, cols))
    sr = np.zeros((rows, cols))
    k[5, :] = 1
    k[4, 6] = 3
    sr[4, 6] = 16
    k[4, 7] = 1
    k[2, 3] = 2
    return TileGrid(k, 16, sl, sr)


def _reads(grid: TileGrid, action) -> int:
    _instrument(grid)
    CountingList.reads = 0
    action(grid)
    return CountingList.reads


def _queries(g: TileGrid) -> None:
    for x in (0.0, 7.5, 40.0, 90.25):
        g.solid_overlaps(x, 60.0, 10, 14)
        list(g.tiles_in(x, 20.0, 30, 70))
        g.kind_at(int(x // 16), 4)
    g.surface_y(6, 4, 100.0)


def _walk(g: TileGrid) -> None:
    w = World(g)
    hero = w.add(Character(20, 80 - 14 - 10))
    for i in range(90):
        w.step(Buttons(right=i < 60, jump=i in (30, 31, 32), left=i >= 60))
    assert hero.on_ground


@pytest.mark.parametrize("action", [_queries, _walk], ids=["queries", "world-steps"])
def test_tile_reads_do_not_depend_on_map_size(action):
    small = _reads(_map(8, 12), action)
    wide = _reads(_map(8, 10000), action)
    tall = _reads(_map(3000, 12), action)
    assert small > 0
    assert wide == small
    assert tall == small


def test_a_box_query_reads_about_the_tiles_it_covers():
    g = _map(8, 10000)
    reads = _reads(g, lambda g: g.solid_overlaps(5000.0, 0.0, 10, 14))  # 2 cols x 1 row: all empty
    assert reads == 2
    reads = _reads(g, lambda g: list(g.tiles_in(5000.0, 0.0, 40, 40)))  # x 312.5..315 tiles: 3 cols x 3 rows
    assert reads == 9


# -- map edges ---------------------------------------------------------------------------------------
def _walker_world(edges=None, cols=12):
    g = TileGrid.from_ascii("\n".join(["." * cols] * 4 + ["#" * cols]), edges=edges)
    return g, World(g)


def test_default_edges_wall_the_sides_and_leave_top_and_bottom_open():
    from engine import Edges

    g = TileGrid.from_ascii("....\n####")
    assert g.edges == Edges() == Edges(left=True, right=True, top=False, bottom=False)
    assert g.solid_overlaps(-0.5, 0, 4, 4) and g.solid_overlaps(g.width - 3.5, 0, 4, 4)
    assert not g.solid_overlaps(0, 0, 4, 4) and not g.solid_overlaps(g.width - 4, 0, 4, 4)  # touching
    assert not g.solid_overlaps(10, -50, 4, 4)  # above the map: open
    assert not g.solid_overlaps(10, g.height + 5, 4, 4)  # below the map: open
    assert g.kind_at(-1, 0) is TileKind.EMPTY  # edges are not tiles


@pytest.mark.parametrize("direction", [1, -1])
@pytest.mark.parametrize("speed", [150.0, 6000.0, 60000.0])
def test_the_side_edges_stop_walkers_and_fast_bodies(direction, speed):
    from engine import Actor

    g, w = _walker_world()
    hero = w.add(Character(90, 50))
    assert w.settle(hero)
    rock = w.add(Actor(60, 10, 6, 6, gravity=False))
    rock.vx = direction * speed
    for _ in range(120):
        w.step(Buttons(right=direction > 0, left=direction < 0))
        for a in (hero, rock):
            assert 0.0 <= a.x and a.x + a.w <= g.width, a
    assert (hero.x == 0.0) if direction < 0 else (hero.x + hero.w == g.width)
    assert hero.vx == 0.0 and hero.contacts[-1].normal == (direction * -1, 0)
    assert hero.on_ground


def test_open_edges_let_bodies_leave_and_a_bottom_wall_is_a_floor():
    from engine import Actor, Edges

    g, w = _walker_world(Edges(left=False, right=False))
    a = w.add(Actor(150, 10, 6, 6))
    a.vx = 300.0
    for _ in range(60):
        w.step()
    assert a.x > g.width and a.y > g.height  # off the side, falling forever

    g = TileGrid.from_ascii("....\n....", edges=Edges(top=True, bottom=True))
    w = World(g)
    a = w.add(Actor(20, 10, 6, 6))
    for _ in range(60):
        w.step()
    assert a.y + a.h == g.height and a.on_ground and a.ground.kind == "solid"
    a.vy = -2000.0
    w.step()
    assert a.y == 0.0 and a.contacts[0].normal == (0, 1)


def test_an_actor_placed_past_a_side_wall_is_brought_back_in():
    from engine import Actor

    g, w = _walker_world()
    a = w.add(Actor(-4, 20, 10, 10, gravity=False))
    b = w.add(Actor(g.width - 7, 20, 10, 10, gravity=False))
    r = w.step()
    assert r.squished == []
    assert a.x == 0.0 and b.x + b.w == g.width


# -- from_gids and from_ascii_marked ------------------------------------------------------------------------


def test_from_gids_maps_tile_ids_to_kinds_and_slope_heights_stripping_flip_bits():
    h, v = 0x80000000, 0x40000000
    rows = [[0, 1, 2, 9], [7, 7 | h, 8, 1 | h | v]]
    g = TileGrid.from_gids(rows, {1: TileKind.SOLID, 2: TileKind.ONE_WAY, 7: (0, 16), 8: (TileKind.SLOPE, 4, 8)})
    assert g.kinds.tolist() == [[0, 1, 2, 0], [3, 3, 3, 1]]  # 9 is not named: empty; a flipped solid is solid
    assert (g.slope_left[1, :3].tolist(), g.slope_right[1, :3].tolist()) == ([0, 16, 4], [16, 0, 8])  # mirrored
    signed = np.array(rows, np.int64).astype(np.uint32).astype(np.int32)  # ids read as signed 32-bit numbers
    assert (TileGrid.from_gids(signed, {1: 1, 2: 2, 7: (0, 16), 8: (4, 8)}).kinds == g.kinds).all()
    assert TileGrid.from_gids([[5]], {5: TileKind.SOLID}, tile_size=8).tile_size == 8


def test_from_gids_says_what_is_wrong():
    cases = [
        (([[1 | 0x40000000]], {1: (0, 16)}), "row 0, col 0 is slope id 1 flipped vertically"),
        (([[1]], {1: TileKind.SLOPE}), "slope without heights"),
        (([[1]], {1: (0, 17)}), "right height 17"),
        (([[1]], {0: TileKind.SOLID}), "not a tile id"),
        (([[1]], {1: "rock"}), "use TileKind"),
        (([[1.5]], {1: 1}), "whole-number tile ids"),
        (([1, 2], {1: 1}), "2-D"),
        (([[1]], [1]), "mapping"),
    ]
    for args, message in cases:
        with pytest.raises(GridError, match=message):
            TileGrid.from_gids(*args)


def test_from_ascii_marked_returns_the_markers_positions_and_leaves_them_empty():
    text = """
    P...C.
    ##..##
    """.replace("    ", "")
    grid, marks = TileGrid.from_ascii_marked(text, "PCW")
    assert marks == {"P": [(0, 0)], "C": [(4, 0)], "W": []}
    assert grid.kinds.tolist() == TileGrid.from_ascii("......\n##..##").kinds.tolist()
    assert TileGrid.from_ascii_marked(text, True).marks == {"C": [(4, 0)], "P": [(0, 0)]}
    with pytest.raises(GridError, match="unknown character 'C'"):
        TileGrid.from_ascii_marked(text, "P")
    with pytest.raises(GridError, match="markers must be a string"):
        TileGrid.from_ascii_marked(text, 3)


def test_a_box_wholly_off_an_open_side_overlaps_no_tile_however_far():
    # found by the crowd equivalence run: a box far left of the map read a row slice that wrapped round
    # to the next rows' tiles (x = -320, 20 px wide: "inside" the floor two rows down)
    from engine import Edges

    g = TileGrid.from_ascii("...\n...\n...\n###", tile_size=8, edges=Edges(False, False, False, False))
    for i in range(800):
        x = -400.0 + i * 0.5
        for y in (-8.0, 0.0, 16.0, 20.0, 24.0, 30.0):
            box = (x, y, 20.0, 6.0)
            inside = x + 20.0 > 0.0 and y + 6.0 > 24.0 and y < 32.0
            assert g.solid_overlaps(*box) == inside, box
            assert g.solid_overlaps(g.width - 20.0 - x, y, 20.0, 6.0) == inside, box  # the right side too


def test_an_actor_far_off_an_open_side_is_not_squished_when_every_actor_is_checked():
    # found by the crowd equivalence run: a crate stuck inside a wall is checked every step, and so is
    # every actor with it; one flying off the open left side was squished at x = -320 by a wrapped read
    from engine import Actor, Edges

    g = TileGrid.from_ascii(".......###\n" * 3 + "#" * 10, tile_size=8, edges=Edges(False, False, True, False))
    w = World(g)
    crate = w.add(Actor(64.0, 8.0, 8.0, 8.0, solid=True))  # in the middle of a block: squished every step
    a = w.add(Actor(0.0, 16.0, 20.0, 6.0, gravity_scale=0.0))
    a.vx = -300.0
    for _ in range(120):
        result = w.step()
        assert crate in result.squished and a not in result.squished and a.vx == -300.0, (w.steps, a.x)
    assert a.x == -600.0
