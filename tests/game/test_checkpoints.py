"""Checkpoints a player can trust, on every shipped level (issue 19, item 2): each respawn point stands on
firm ground at least two tiles wide (or against a wall), and a player respawned there who stands still for
3 s and then jumps once does not die, under the default feel and every preset. (Level 5's first flag over
a pit's lip and level 2's third between planks respawned the hero in the air: a death a second, forever.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Buttons, TileKind
from game.files.feelfile import load_feel
from game.files.levelfile import load_level
from game.rules.session import DEATH_STEPS, Session

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "levels").glob("*.tmx"))
PRESETS = sorted((ROOT / "presets").glob("*.toml"))
IDLE_S = 3.0  # s standing still after the respawn
JUMP_STEPS, AFTER_STEPS = 20, 90  # a held jump, then time to come down
STANDABLE = (TileKind.SOLID, TileKind.ONE_WAY, TileKind.SLOPE)


def respawn_at(session: Session, cp) -> None:
    """Kill the player with ``cp`` as the respawn checkpoint and step through to the respawn."""
    session.checkpoint, session.respawn = cp, cp.bottom_centre
    session._die("", [])
    for _ in range(DEATH_STEPS + 1):
        session.step(Buttons())
    assert not session.dead


def firm_cells(level) -> set[tuple[int, int]]:
    """Cells that stay: crumbling and breakable blocks do not count as ground to respawn on."""
    ts = level.tile_size
    gone = set()
    for spec in [*level.crumbles, *level.breakables]:
        for c in range(int(spec.x // ts), int((spec.x + spec.w - 1) // ts) + 1):
            for r in range(int(spec.y // ts), int((spec.y + spec.h - 1) // ts) + 1):
                gone.add((c, r))
    return gone


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_respawn_point_stands_on_firm_ground_two_tiles_wide_or_against_a_wall(path):
    level = load_level(path)
    grid, ts = level.grid, level.tile_size
    gone = firm_cells(level)

    def ground(c, r):
        return 0 <= c < grid.cols and 0 <= r < grid.rows and (c, r) not in gone \
            and grid.kind_at(c, r) in STANDABLE

    def wall(c, r):
        return 0 <= c < grid.cols and 0 <= r < grid.rows and grid.kind_at(c, r) == TileKind.SOLID

    for cp in level.checkpoints:
        s = Session(level)
        respawn_at(s, cp)
        p = s.player
        assert p.on_ground, f"{cp.name} at x {cp.x:.0f}: the hero respawns in the air"
        col, row = int((p.x + p.w / 2) // ts), int((p.y + p.h + 1) // ts)
        assert ground(col, row), f"{cp.name} at x {cp.x:.0f}: no firm tile under the respawn point"
        width = 1
        for step in (-1, 1):
            c = col + step
            while ground(c, row) and width < 2:
                width, c = width + 1, c + step
        beside = wall(col - 1, row - 1) or wall(col + 1, row - 1)
        assert width >= 2 or beside, f"{cp.name} at x {cp.x:.0f}: a one-tile perch with no wall beside it"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_respawn_at_any_checkpoint_survives_3_s_of_standing_still_and_a_jump(path):
    level = load_level(path)
    for preset in (None, *PRESETS):
        feel = load_feel(preset) if preset else None
        for cp in level.checkpoints:
            s = Session(level, feel)
            respawn_at(s, cp)
            where = f"{cp.name} (x {cp.x:.0f}) under {preset.stem if preset else 'the default feel'}"
            for _ in range(round(IDLE_S * s.feel.physics.hz)):
                s.step(Buttons())
                assert s.deaths == 1, f"{where}: killed standing still at step {s.steps}"
            for i in range(JUMP_STEPS + AFTER_STEPS):
                s.step(Buttons(jump=i < JUMP_STEPS))
                assert s.deaths == 1, f"{where}: killed by a jump on the spot"
            assert s.player.on_ground, f"{where}: a jump on the spot does not land back"
