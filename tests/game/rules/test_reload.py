"""F5 (carry_over): the map read again continues the run, and what the player destroyed stays destroyed --
stomped enemies, broken blocks, fallen crumbles -- unless the map file changed that object (issue 19, item
8: in level 6, F5 put stomped walkers back beside the hero, who died twice)."""

from pathlib import Path

from engine import Buttons, FeelConfig, TileKind
from game.files.levelfile import load_level
from game.rules.session import Session, carry_over

MAPS = Path(__file__).resolve().parents[2] / "maps"
NONE = Buttons()


def fresh():
    return load_level(MAPS / "kinds.tmx")


def edited(tmp_path, old: str, new: str):
    """kinds.tmx with one object's line changed, as an editor would save it."""
    text = (MAPS / "kinds.tmx").read_text()
    assert text.count(old) == 1
    out = tmp_path / "kinds.tmx"
    out.write_text(text.replace(old, new).replace('source="', f'source="{MAPS}/'))
    return load_level(out)


def session():
    return Session(fresh(), FeelConfig.from_dict({"jump": {"height": 64}}))


def test_a_stomped_enemy_stays_stomped_and_a_living_one_goes_on_where_it_was():
    s = session()
    goomba = next(i for i, e in enumerate(s.enemies.all) if e.spec.name == "goomba")
    s.enemies.kill(s.enemies.all[goomba].actor, s.world.steps)
    for _ in range(30):
        s.step(NONE)
    others = {e.spec.name: (e.actor.x, e.actor.y, e.actor.vx) for e in s.enemies.living()}
    new = carry_over(s, fresh(), s.feel)
    assert not new.enemies.alive[goomba] and new.enemies.all[goomba].actor not in new.world.actors
    assert {e.spec.name: (e.actor.x, e.actor.y, e.actor.vx) for e in new.enemies.living()} == others
    assert new.world.steps == s.world.steps
    # stepping on: the carried session plays exactly like the old one
    for _ in range(60):
        s.step(NONE)
        new.step(NONE)
    assert [(e.actor.x, e.actor.y) for e in new.enemies.living()] == [(e.actor.x, e.actor.y) for e in s.enemies.living()]


def test_an_enemy_the_map_file_moved_comes_back_where_the_file_puts_it(tmp_path):
    s = session()
    goomba = next(i for i, e in enumerate(s.enemies.all) if e.spec.name == "goomba")
    s.enemies.kill(s.enemies.all[goomba].actor, s.world.steps)
    level = edited(tmp_path, '<object id="3" name="goomba" type="enemy" x="80" y="176">',
                   '<object id="3" name="goomba" type="enemy" x="96" y="176">')
    new = carry_over(s, level, s.feel)
    assert new.enemies.alive[goomba] and new.enemies.all[goomba].actor.x == new.enemies.all[goomba].spec.x


def test_broken_blocks_and_fallen_crumbles_stay_so_and_a_changed_one_is_whole(tmp_path):
    s = session()
    for e in s.enemies.all:
        s.enemies.kill(e.actor, 0)
    ledge = next(i for i, c in enumerate(s.blocks.crumbles) if c.name == "ledge")
    brick = next(i for i, b in enumerate(s.blocks.breakables) if b.name == "brick")
    tile_crumble = next(i for i, c in enumerate(s.blocks.crumbles) if c.cells)
    s.blocks.smash(brick)
    for i in (ledge, tile_crumble):
        s.blocks.shook[i] = s.world.steps
    while s.blocks.crumble_phase(ledge) != "gone" or s.blocks.crumble_phase(tile_crumble) != "gone":
        assert s.world.steps < 200
        s.step(NONE)
    new = carry_over(s, fresh(), s.feel)
    assert new.blocks.crumble_phase(ledge) == new.blocks.crumble_phase(tile_crumble) == "gone"
    assert new.blocks.bodies[ledge] not in new.world.platforms
    assert all(new.world.grid.kind_at(*cell) == TileKind.EMPTY for cell in new.blocks.crumbles[tile_crumble].cells)
    assert new.blocks.broken[brick] >= 0 and new.blocks.bodies[~brick] not in new.world.platforms
    assert new.blocks.back[ledge] == s.blocks.back[ledge]  # and it comes back when it would have
    # the file moved the ledge: that one is whole, where the file says
    level = edited(tmp_path, '<object id="11" name="ledge" type="crumble" x="480" y="112"',
                   '<object id="11" name="ledge" type="crumble" x="464" y="112"')
    moved = carry_over(s, level, s.feel)
    i = next(i for i, c in enumerate(moved.blocks.crumbles) if c.name == "ledge")
    assert moved.blocks.crumble_phase(i) == "still" and moved.blocks.bodies[i] in moved.world.platforms
    assert moved.blocks.crumble_phase(tile_crumble) == "gone" and moved.blocks.broken[brick] >= 0
