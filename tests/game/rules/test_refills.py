"""Refill crystals (game/rules/refills.py, the `refill` kind): touching one with a dash spent gives the dash
back and it is gone until `respawn` s later, to the step; with a dash left it stays; a respawn brings every
crystal back; snapshots keep it; the loader and the linter check it; the route finder uses it."""

from __future__ import annotations

import pytest

from engine import Buttons, FeelConfig
from game.files.feelfile import load_feel
from game.files.levelfile import lint_level, load_level
from game.files.levelkinds import KIND_BY_NAME, REFILL_SIZE
from game.guard.route import Search, find_routes
from game.rules.session import CONTRACT_EVENTS, DEATH_STEPS, Session

from pathlib import Path

MOVES = Path(__file__).resolve().parents[2] / "maps" / "moves"
DASH = load_feel(MOVES / "moves.toml").with_value("wall.jump", False).with_value("wall.slide", False)
FLOOR = "\n".join(["." * 20] * 3 + ["P" + "." * 18 + "G", "#" * 20])


def crystal(x, y, respawn=None, w=None, h=None, name="crystal") -> str:
    props = (f'<properties><property name="respawn" type="float" value="{respawn}"/></properties>'
             if respawn is not None else "")
    if w is None:
        return f'<object id="ID" name="{name}" type="refill" x="{x}" y="{y}">{props}<point/></object>'
    return f'<object id="ID" name="{name}" type="refill" x="{x}" y="{y}" width="{w}" height="{h}">{props}</object>'


def level_with(write_map, *objects, text=FLOOR):
    return load_level(write_map("refill.tmx", text, list(objects)))


def put(s: Session, x: float, y: float, spent: int) -> None:
    """The player's box at (x, y), still, in the air with ``spent`` dashes used."""
    p = s.player
    p.teleport(x, y)
    p.dashes_spent = spent


def test_the_kind_is_in_the_table_with_a_validated_delay():
    kind = KIND_BY_NAME["refill"]
    (respawn,) = kind.props
    assert (respawn.name, respawn.default, respawn.unit, respawn.lo, respawn.hi) == ("respawn", 2.5, "s", 0.0, 600.0)
    assert "refill" in CONTRACT_EVENTS


def test_a_point_is_a_box_centred_on_it_and_a_rectangle_is_its_box(write_map):
    lv = level_with(write_map, crystal(100, 20), crystal(150, 10, w=16, h=24, name="big"))
    point, rect = lv.refills
    s = Session(lv, DASH)
    assert s.refills.boxes[0] == (100 - REFILL_SIZE / 2, 20 - REFILL_SIZE / 2, REFILL_SIZE, REFILL_SIZE)
    assert s.refills.boxes[1] == (150, 10, 16, 24) and (rect.name, rect.respawn) == ("big", 2.5)
    assert (point.w, point.h, point.respawn) == (0, 0, 2.5)


def test_touching_it_with_a_dash_spent_gives_it_back_and_it_returns_to_the_step(write_map):
    lv = level_with(write_map, crystal(100, 20, respawn=0.5))
    s = Session(lv, DASH)
    put(s, 95, 15, spent=1)
    events = s.step(Buttons())
    assert [e.type for e in events if e.type == "refill"] == ["refill"] and events[0].name == "crystal"
    assert s.player.dashes_spent == 0 and not s.refills.ready(0)
    used = s.world.steps
    back = round(0.5 * DASH.physics.hz)
    assert s.refills.back_in(0) == pytest.approx(back / DASH.physics.hz)
    while s.world.steps < used + back - 1:
        put(s, 95, 15, spent=1)  # still in it, a dash spent: nothing while it is gone
        assert all(e.type != "refill" for e in s.step(Buttons()))
        assert s.player.dashes_spent == 1
    put(s, 95, 15, spent=1)
    assert [e.type for e in s.step(Buttons()) if e.type == "refill"] == ["refill"]  # back on the step, used again
    assert s.world.steps == used + back and s.player.dashes_spent == 0
    assert [e for e in s.events if e.type == "refill"][-1].step == s.steps  # a contract event (JSON)


def test_with_a_dash_left_the_player_passes_through_and_it_stays(write_map):
    s = Session(level_with(write_map, crystal(100, 20)), DASH)
    put(s, 95, 15, spent=0)
    assert all(e.type != "refill" for e in s.step(Buttons()))
    assert s.refills.ready(0)


def test_a_dash_through_it_is_given_back_in_flight(write_map):
    """Integration: a ground dash to the right spends the dash; the crystal on its way gives it back before
    the dash ends, so a second dash is possible in the air."""
    s = Session(level_with(write_map, crystal(56, 56)), DASH)  # three tiles ahead, at the player's height
    for _ in range(5):
        s.step(Buttons())
    kinds = [e.type for e in s.step(Buttons(right=True, dash=True))]
    assert "dash" in kinds and s.player.dashes_spent == 1
    for _ in range(DASH.derived.dash_steps):
        kinds += [e.type for e in s.step(Buttons(right=True))]
    assert "refill" in kinds and not s.refills.ready(0)


def test_respawn_zero_stays_gone_until_the_player_respawns_and_a_respawn_brings_it_back(write_map):
    pit = "\n".join(["." * 12] * 3 + ["P" + "." * 10 + "G", "####....####"])
    s = Session(level_with(write_map, crystal(100, 20, respawn=0), text=pit), DASH)
    put(s, 95, 15, spent=1)
    s.step(Buttons())
    assert not s.refills.ready(0) and s.refills.back_in(0) == float("inf")
    for _ in range(600):
        s.step(Buttons())
        if s.dead:
            break
    assert s.dead and not s.refills.ready(0)  # fell into the pit
    for _ in range(DEATH_STEPS + 1):
        s.step(Buttons())
    assert not s.dead and s.refills.ready(0)


def test_a_snapshot_keeps_which_crystals_are_gone(write_map):
    s = Session(level_with(write_map, crystal(100, 20)), DASH)
    snap = s.snapshot()
    put(s, 95, 15, spent=1)
    s.step(Buttons())
    gone = s.snapshot()
    s.restore(snap)
    assert s.refills.ready(0)
    s.restore(gone)
    assert not s.refills.ready(0)


@pytest.mark.parametrize("value", ["-1", "601", "nan"])
def test_a_bad_respawn_is_one_line_naming_the_object(write_map, load_error, value):
    path = write_map("bad.tmx", FLOOR, [crystal(100, 20).replace(
        "<point/>", f'<properties><property name="respawn" type="float" value="{value}"/></properties><point/>')])
    message = load_error(path)
    assert "refill" in message and "respawn" in message


def test_the_linter_finds_a_crystal_inside_solid_ground(write_map):
    path = write_map("buried.tmx", FLOOR, [crystal(40, 72)])  # the middle of the floor row
    errors, _ = lint_level(path)
    assert any("(refill)" in e and "inside solid ground" in e for e in errors), errors
    assert lint_level(write_map("fine.tmx", FLOOR, [crystal(40, 40)])) == ([], [])


def test_the_route_finder_dashes_again_after_a_crystal(write_map):
    """A 19-tile gap: one dash does not cross it from the ground; a crystal half way gives the second."""
    gap = "\n".join(["." * 25] * 3 + ["P" + "." * 21 + "G.", "##" + "." * 19 + "###"])
    lv = load_level(write_map("chain.tmx", gap, [crystal(10 * 16 + 8, 2 * 16 + 8)]))
    report = find_routes(lv, DASH, max_states=2000, seconds=None, grains=(8.0,))
    assert report.finished
    s = Session(lv, DASH)
    kinds = [e.type for b in report.route for e in s.step(b)]
    assert s.completed and kinds.count("refill") == 1 and kinds.count("dash") >= 2


def test_the_search_key_holds_the_crystals(write_map):
    search = Search(level_with(write_map, crystal(100, 20)), DASH)
    there = search._key()
    search.session.refills.used[0] = search.session.world.steps
    assert search._key() != there
    assert len(Search(level_with(write_map), FeelConfig())._key()) < len(there)
