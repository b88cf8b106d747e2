"""Crumbling ground and breakable blocks, as tiles (tests/maps/kinds.tmx) and as objects."""

from pathlib import Path

from engine import Buttons, FeelConfig, TileKind
from game.files.levelfile import load_level
from game.rules.session import Session

MAPS = Path(__file__).resolve().parents[2] / "maps"
NONE, JUMP = Buttons(), Buttons(jump=True)


def kinds():
    """kinds.tmx with a jump high enough to bump the blocks 64 px over the floor, its enemies gone."""
    s = Session(load_level(MAPS / "kinds.tmx"), FeelConfig.from_dict({"jump": {"height": 64}}))
    for e in s.enemies.all:
        s.enemies.kill(e.actor, 0)
    return s


def crumble_at(s, col, row):
    return next(i for i, c in enumerate(s.blocks.crumbles) if (col, row) in c.cells)


def stand(s, x, feet):
    """Put the player standing with its feet at ``feet`` and let it settle one step."""
    p = s.player
    p.teleport(x, feet - p.h)
    s.step(NONE)
    assert p.on_ground and p.y + p.h == feet


def test_a_crumble_run_shakes_when_stood_on_falls_after_its_delay_and_comes_back_after_respawn():
    s = kinds()
    grid, i = s.world.grid, crumble_at(s, 20, 8)
    stand(s, 330, 128)  # the one-way run of four, delay 0.25 s, respawn 3 s
    assert s.blocks.crumble_phase(i) == "shaking"
    start = s.blocks.shook[i]
    events = []
    while s.blocks.crumble_phase(i) == "shaking":
        events += s.step(NONE)
    assert s.world.steps - start == 15  # 0.25 s at 60 Hz
    assert [e.type for e in events].count("crumble") == 1
    assert all(grid.kind_at(c, 8) == TileKind.EMPTY for c in range(20, 24))
    gone = s.world.steps
    stand(s, 100, 176)  # out of the way (of the springs and the gun below)
    while s.blocks.crumble_phase(i) == "gone":
        s.step(NONE)
    assert s.world.steps - gone == 180 and s.deaths == 0  # 3 s
    assert all(grid.kind_at(c, 8) == TileKind.ONE_WAY for c in range(20, 24))


def test_a_crumble_waits_until_no_actor_is_where_it_comes_back():
    s = kinds()
    i = crumble_at(s, 20, 8)
    stand(s, 330, 128)
    while s.blocks.crumble_phase(i) != "gone":
        s.step(NONE)
    p = s.player
    back = s.blocks.back[i]
    while s.world.steps < back + 30:  # the player hangs inside the block's box past its time
        p.teleport(340, 120)
        s.step(NONE)
        assert s.blocks.crumble_phase(i) == "gone"
    p.teleport(100, 150)
    s.step(NONE)
    assert s.blocks.crumble_phase(i) == "still"


def test_an_object_crumble_is_a_platform_that_leaves_the_world_and_comes_back():
    s = kinds()
    i = next(i for i, c in enumerate(s.blocks.crumbles) if c.name == "ledge")
    body = s.blocks.bodies[i]
    stand(s, 490, 112)
    events = []
    while body in s.world.platforms:
        events += s.step(NONE)
    assert ("crumble", "ledge") in [(e.type, e.name) for e in events]
    for _ in range(200):
        s.step(NONE)
    assert body in s.world.platforms


def test_a_head_bump_breaks_a_block_from_below_only_and_a_coin_pops_out():
    s = kinds()
    grid = s.world.grid
    stand(s, 179, 96)  # on top of the coin block (11, 6): nothing breaks
    for _ in range(30):
        s.step(NONE)
    assert grid.kind_at(11, 6) == TileKind.SOLID and s.coins == 0
    stand(s, 179, 176)  # under it, then jump
    events = []
    for _ in range(40):
        events += s.step(JUMP)
    assert grid.kind_at(11, 6) == TileKind.EMPTY and grid.kind_at(10, 6) == TileKind.SOLID
    assert [e.type for e in events if e.type in ("break", "coin")] == ["break", "coin"]
    assert s.coins == 1 == s.blocks.coins and s.coins_total == 2
    assert [e.type for e in s.events].count("break") == 1


def test_breakable_objects_break_and_stay_broken_after_a_death():
    s = kinds()
    i = next(i for i, b in enumerate(s.blocks.breakables) if b.name == "brick")
    body = s.blocks.bodies[~i]
    stand(s, 243, 176)
    for _ in range(40):
        s.step(JUMP)
    assert body not in s.world.platforms and s.blocks.broken[i] > 0 and s.coins == 1
    s._die("test", [])
    while s.dead:
        s.step(NONE)
    assert body not in s.world.platforms and s.coins == 1


def test_each_session_breaks_its_own_copy_of_the_tiles():
    level = load_level(MAPS / "kinds.tmx")
    s = Session(level, FeelConfig.from_dict({"jump": {"height": 64}}))
    stand(s, 179, 176)
    for _ in range(40):
        s.step(JUMP)
    assert s.world.grid.kind_at(11, 6) == TileKind.EMPTY
    assert level.grid.kind_at(11, 6) == Session(level).world.grid.kind_at(11, 6) == TileKind.SOLID


def test_a_reload_f5_keeps_the_blocks_broken_and_their_coins():
    from game.rules.session import carry_over

    s = kinds()
    stand(s, 179, 176)
    for _ in range(40):
        s.step(JUMP)
    assert s.coins == 1
    new = carry_over(s, load_level(MAPS / "kinds.tmx"), s.feel)
    assert new.coins == 1 and new.world.grid.kind_at(11, 6) == TileKind.EMPTY
    assert new.world.grid.kind_at(10, 6) == TileKind.SOLID


def test_a_crumble_that_never_comes_back_is_back_after_the_players_death():
    s = kinds()
    i = crumble_at(s, 24, 8)  # a solid crumble with respawn 0
    stand(s, 387, 128)
    while s.blocks.crumble_phase(i) != "gone":
        s.step(NONE)
    stand(s, 100, 176)
    for _ in range(400):
        s.step(NONE)
    assert s.blocks.crumble_phase(i) == "gone"  # respawn 0: it stays down...
    s._die("test", [])
    while s.dead:
        s.step(NONE)
    s.step(NONE)
    assert s.blocks.crumble_phase(i) == "still" and s.world.grid.kind_at(24, 8) == TileKind.SOLID  # ...until then
