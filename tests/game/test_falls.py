"""Falls in tall levels cost at most one section (issue 19, item 3): from any point of a tall level's
default replay, a player who walks off the route either lands no lower than a few tiles under the last
flag's foot, or dies and respawns at that flag. (Walking off level 8's route at replay step 2400 dropped
the hero 1,680 px, near the floor: the whole climb lost.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Buttons
from game.files.inputscript import parse_script
from game.files.levelfile import load_level
from game.rules.session import Session

ROOT = Path(__file__).resolve().parents[2]
TALL = [p for p in sorted((ROOT / "levels").glob("*.tmx")) if (lv := load_level(p)).rows > lv.cols]
SLACK = 64.0  # px below the respawn point a fall may still end standing (four tiles)
EVERY = 150  # replay steps between two points to walk off from
WALK, SETTLE, GIVE_UP = 40, 30, 900  # steps: walking off, standing still to count as landed, at most


def test_there_is_a_tall_level():
    assert TALL, "the campaign climbs somewhere (level 8)"


@pytest.mark.parametrize("path", TALL, ids=lambda p: p.stem)
def test_a_fall_from_any_point_of_the_replay_costs_at_most_one_section(path):
    level = load_level(path)
    replay = ROOT / "levels" / "replays" / f"{path.stem}.txt"
    s = Session(level)
    points = []
    for i, buttons in enumerate(parse_script(replay.read_text(), replay.name)):
        if i % EVERY == 0 and not s.dead:
            points.append(s.snapshot())
        s.step(buttons)
        if s.completed:
            break
    assert s.completed and len(points) > 10
    p = s.player
    for snap in points:
        for way in (Buttons(left=True), Buttons(right=True)):
            s.restore(snap)
            start, deaths, respawn = s.steps, s.deaths, s.respawn
            still = 0
            while s.steps - start < GIVE_UP and s.deaths == deaths and not s.completed:
                s.step(way if s.steps - start < WALK else Buttons())
                still = still + 1 if p.on_ground and p.vy == 0 else 0
                if still >= SETTLE:
                    break
            where = f"walking {'left' if way.left else 'right'} off the route at step {snap.values[0]}"
            if s.deaths > deaths:  # a kill pit: back at the flag the run was at
                assert s.respawn == respawn, where
                continue
            assert s.completed or still >= SETTLE, f"{where}: still falling after {GIVE_UP} steps"
            drop = p.y + p.h - respawn[1]
            assert drop <= SLACK, f"{where}: lands {drop:.0f} px below the last flag's foot"


def _pit_with(tmp_path, value: str, ptype: str = "float") -> Path:
    src = ROOT / "tests" / "maps"
    text = (src / "pit.tmx").read_text().replace(
        ' <tileset firstgid="1" source="test_tiles.tsx"/>',
        f' <properties>\n  <property name="fall_limit" type="{ptype}" value="{value}"/>\n </properties>\n'
        f' <tileset firstgid="1" source="{src / "test_tiles.tsx"}"/>', 1)
    out = tmp_path / "pit.tmx"
    out.write_text(text)
    return out


def test_falling_past_the_fall_limit_kills_before_the_map_bottom(tmp_path):
    """pit.tmx: the spawn's floor ends in a pit down to the map's bottom edge. With fall_limit 24 px the
    hero dies 24 px under the spawn's floor, long before the bottom; without it, at the bottom."""
    limited, plain = Session(load_level(_pit_with(tmp_path, "24"))), Session(load_level(ROOT / "tests/maps/pit.tmx"))
    assert limited.level.fall_limit == 24.0 and plain.level.fall_limit is None
    for s in (limited, plain):
        while not s.deaths:
            assert s.steps < 300
            s.step(Buttons(right=True))
    assert limited.steps < plain.steps
    assert limited.player.y + limited.player.h <= limited.level.spawn[1] + 24 + 8  # one step's fall at most


@pytest.mark.parametrize(("value", "ptype", "words"), [("-5", "float", "fall_limit = -5 px must be above 0"),
                                                        ("far", "string", "property 'fall_limit' must be a float")])
def test_a_bad_fall_limit_is_one_line_naming_the_property(tmp_path, value, ptype, words):
    from game.files.levelfile import LevelError
    with pytest.raises(LevelError) as info:
        load_level(_pit_with(tmp_path, value, ptype))
    assert words in str(info.value) and "pit.tmx" in str(info.value) and "\n" not in str(info.value)
