"""The shipped levels (levels/*.tmx): they load, have what a level needs, chain together, open cleanly in
Tiled (project classes and property types match), and each one's replay (levels/replays/) completes it."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from game.files.feelfile import load_feel
from game.files.inputscript import parse, parse_script
from game.files.levelfile import OBJECT_CLASSES, load_level
from game.rules.session import Session

ROOT = Path(__file__).resolve().parents[2]
LEVELS = ROOT / "levels"
FILES = sorted(LEVELS.glob("*.tmx"))
PROJECT = LEVELS / "platformer.tiled-project"


PRESETS = sorted((ROOT / "presets").glob("*.toml"))
SCREEN = (640, 360)  # px: a screen, for a level's length and the spacing of its checkpoints
# each new kind of object, as a level's list (from level 3 on the layout teaches it, not a sign)
KINDS = ("enemies", "breakables", "turrets", "springs", "crumbles")
TEXT_LEVELS = FILES[:2]  # the levels with signposts: the controls, once


def replay_of(path: Path, preset: Path | None = None) -> Path:
    """The level's replay: ``STEM.txt``; under a preset its own ``STEM.PRESET.txt`` where one is shipped."""
    if preset is not None:
        own = LEVELS / "replays" / f"{path.stem}.{preset.stem}.txt"
        if own.is_file():
            return own
    return LEVELS / "replays" / f"{path.stem}.txt"


@pytest.fixture(scope="module")
def loaded():
    return {p.name: load_level(p) for p in FILES}


def test_there_are_at_least_eight_levels_in_play_order():
    assert len(FILES) >= 8
    assert all(p.name[:2].isdigit() for p in FILES), [p.name for p in FILES]
    assert FILES[0].name.startswith("01")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_level_has_what_a_level_needs(path, loaded):
    lv = loaded[path.name]
    assert lv.title and lv.title != path.stem, "set the map property 'title'"
    assert lv.goals, "needs a goal"
    assert lv.checkpoints, "needs at least one checkpoint"
    assert len(lv.coins) >= 20
    signs = [t for t in lv.triggers if t.props.get("message")]
    # the first two levels teach the controls on signposts; from level 3 on, the layout teaches (issue 19)
    if path in TEXT_LEVELS:
        assert signs, "needs signposts (trigger objects with a 'message')"
    else:
        assert not signs, f"from level 3 on the layout teaches, not signs: {[t.props['message'] for t in signs]}"
    long = [m for t in signs if len(m := t.props["message"]) > 40 or len(m.split()) > 7]
    assert not long, f"signs teach in a few words: {long}"
    # at least eight screens wide or tall, even counting a screen as 640 x 360 px (the canvas shows 480 x 270)
    assert lv.width >= 8 * SCREEN[0] or lv.height >= 8 * SCREEN[1], (lv.cols, lv.rows)
    # spawn inside the map, above ground
    sx, sy = lv.spawn
    assert 0 <= sx < lv.width and 0 < sy <= lv.height


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_level_has_parallax_backgrounds_and_decoration_layers(path):
    root = ET.parse(path).getroot()
    assert root.get("backgroundcolor")
    images = root.findall("imagelayer")
    assert any(float(il.get("parallaxx", "1")) < 1 for il in images), "needs a parallax image layer"
    for il in images:
        src = il.find("image").get("source")
        assert (path.parent / src).is_file(), src
    tile_layers = [layer.get("name") for layer in root.iter("layer")]
    assert len(tile_layers) >= 3, tile_layers  # background, terrain, foreground


@pytest.fixture(scope="module")
def make_levels():
    spec = importlib.util.spec_from_file_location("make_levels", ROOT / "tools" / "make_levels.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while the file runs
    try:
        spec.loader.exec_module(mod)
    finally:
        del sys.modules[spec.name]
    return mod


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_only_true_foreground_is_drawn_over_the_player(path, make_levels):
    """The game draws its sprites where the first object layer sits: tile layers above it cover the hero.
    Those may hold only what the hero passes behind (grass tufts, flowers, vines, water, and the cover of a
    hidden passage, drawn from cover.tsx over cells with no terrain); signposts, fences, bushes and rocks
    stand behind the hero, in a layer below the objects."""
    gen = make_levels
    root = ET.parse(path).getroot()
    over, under = set(), set()
    seen_objects = False
    cells = {}
    for node in root:
        if node.tag == "objectgroup":
            seen_objects = True
        elif node.tag == "layer":
            cells[node.get("name")] = [int(v) - 1 for v in node.find("data").text.replace("\n", "").split(",")]
            ids = {t for t in cells[node.get("name")] if t >= 0}
            (over if seen_objects else under).update(ids)
    allowed = gen.FOREGROUND | gen.COVERS
    assert over <= allowed, f"props drawn over the player: tile ids {sorted(over - allowed)}"
    assert (gen.SIGN in under) == (path in TEXT_LEVELS)  # signposts (the first two levels) stand behind the hero
    covered = [i for i, t in enumerate(cells["foreground"]) if t in gen.COVERS]
    assert all(cells["terrain"][i] < 0 for i in covered), "a cover hides a passage: nothing collides under it"


def test_next_chain_visits_every_level(loaded):
    names = [p.name for p in FILES]
    seen = []
    name = names[0]
    while name:
        assert name in loaded, f"'next' points to {name}, which is not in levels/"
        assert name not in seen, f"'next' loops back to {name}"
        seen.append(name)
        name = loaded[name].next
    assert seen == names, "the next chain should visit every level in file-name order"


def _project_types() -> dict[str, dict[str, str]]:
    data = json.loads(PROJECT.read_text())
    out = {}
    enums = {t["name"] for t in data["propertyTypes"] if t["type"] == "enum"}
    for t in data["propertyTypes"]:
        if t["type"] == "enum" or t["useAs"] == ["map"]:  # the map's own class (its moves)
            continue
        assert t["type"] == "class" and "object" in t["useAs"], t["name"]
        assert all(m["propertyType"] in enums for m in t["members"] if "propertyType" in m), t["name"]
        out[t["name"]] = {m["name"]: m["type"] for m in t["members"]}
    return out


def test_tiled_project_defines_every_object_class():
    types = _project_types()
    assert set(OBJECT_CLASSES) <= set(types)
    assert types["trigger"] == {"message": "string"}
    assert types["platform"]["path"] == "object"
    assert types["platform"]["one_way"] == "bool"
    assert types["platform"]["speed"] == "float"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_objects_match_the_project_classes(path):
    """What Tiled would warn about: unknown classes, property types that differ from the class's member,
    object references to missing objects."""
    types = _project_types()
    root = ET.parse(path).getroot()
    ids = {int(o.get("id")) for o in root.iter("object")}
    for obj in root.iter("object"):
        cls = obj.get("type") or obj.get("class") or ""
        if not cls:
            continue
        assert cls in types, f"object {obj.get('id')}: class {cls!r} is not in the project"
        for prop in obj.findall("properties/property"):
            name, ptype = prop.get("name"), prop.get("type", "string")
            assert name in types[cls], f"object {obj.get('id')}: {cls} has no member {name!r}"
            assert ptype == types[cls][name], f"object {obj.get('id')}: {name} is {ptype}, class says " \
                                              f"{types[cls][name]}"
            if ptype == "object":
                assert int(prop.get("value")) in ids


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_replay_completes_the_level(path, loaded):
    replay = replay_of(path)
    assert replay.is_file(), f"no replay {replay}; make one with tools/find_replay.py"
    steps = parse_script(replay.read_text(), str(replay))
    level = loaded[path.name]
    session = Session(level)
    tall = level.rows > level.cols  # a climb: the route runs up, and passes a flag by height
    p = session.player
    lo = hi = p.y if tall else p.x
    for buttons in steps:
        session.step(buttons)
        lo = min(lo, p.y if tall else p.x)
        hi = max(hi, p.y + p.h if tall else p.x + p.w)
        if session.completed:
            break
    assert session.completed, f"{replay.name} ends at {session.player.x:.0f},{session.player.y:.0f}"
    assert session.coins >= len(level.coins) // 2  # attract mode: it plays for coins too
    # the level's length in play: the route finder's run stands in for a good player's
    assert 45 <= session.time <= 120, f"{replay.name} finishes in {session.time:.0f} s"
    passed = {cp.name for cp in level.checkpoints
              if ((lo < cp.y and cp.y + cp.h < hi) if tall else (lo < cp.x and cp.x + cp.w < hi))}
    reached = {e.name for e in session.events if e.type == "checkpoint"}
    assert passed <= reached, f"{replay.name} passes flags {sorted(passed - reached)} without reaching them"


def headless_replay(replay: Path, *extra: str) -> dict:
    proc = subprocess.run([sys.executable, "-m", "game", "--headless", "--replay", str(replay), *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("level", sorted({FILES[0], FILES[len(FILES) // 2], FILES[-1]}), ids=lambda p: p.stem)
def test_the_headless_cli_completes_the_level_with_its_replay(level):
    """The replay's ``level NAME`` header picks the level: no --level needed. (Three levels through the
    CLI; every level's replay is played in process above, by the same Session the CLI steps.)"""
    assert parse(replay_of(level).read_text()).level == level.name
    result = headless_replay(replay_of(level))
    assert result["completed"] is True, f"{level.name}: {result['player']}"
    assert result["level"] == level.name
    assert result["events"][-1]["type"] == "goal" and result["events"][-1]["step"] == result["steps"]


# (level stem, preset stem) whose replay is not re-found yet after the level was re-laid out: a strict xfail,
# so the test says so the day the replay lands (none now)
PRESET_PENDING: set[tuple[str, str]] = set()


def _preset_cases():
    return [pytest.param(lv, pr, id=f"{lv.stem}-{pr.stem}",
                         marks=[pytest.mark.xfail(strict=True, reason="replay not re-found yet")]
                         if (lv.stem, pr.stem) in PRESET_PENDING else [])
            for lv in FILES for pr in PRESETS]


@pytest.mark.parametrize(("level", "preset"), _preset_cases())
def test_every_preset_completes_every_level(level, preset):
    """The level's replay, or the preset's own where one does not fit all, under the preset's feel (in
    process; the next test plays one per preset through the real CLI with --feel)."""
    replay = replay_of(level, preset)
    assert parse(replay.read_text()).level == level.name
    session = Session(load_level(level), load_feel(preset))
    for buttons in parse_script(replay.read_text(), replay.name):
        session.step(buttons)
        if session.completed:
            break
    assert session.completed, f"{replay.name} under {preset.stem} ends at {session.player.x:.0f},{session.player.y:.0f}"


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.stem)
def test_a_preset_replay_completes_its_level_through_the_cli_with_feel(preset):
    """Through ``--headless --replay ROUTE --feel PRESET``: a preset's own replay where it has one."""
    own = sorted((LEVELS / "replays").glob(f"*.{preset.stem}.txt"))
    replay = own[0] if own else replay_of(FILES[0], preset)
    result = headless_replay(replay, "--feel", str(preset.relative_to(ROOT)))
    assert result["completed"] is True, f"{replay.name} under {preset.stem}: {result['player']}"
    assert result["level"] == parse(replay.read_text()).level


OWN_REPLAYS = sorted((LEVELS / "replays").glob("*.*.txt"))


def test_preset_replays_are_named_for_a_shipped_level_and_a_preset():
    stems, presets = {p.stem for p in FILES}, {p.stem for p in PRESETS}
    for own in OWN_REPLAYS:
        stem, preset = own.name[:-len(".txt")].rsplit(".", 1)
        assert stem in stems and preset in presets, own.name


def _needed_sample() -> list[Path]:
    """One own replay per level, the preset turning with the level (each a full replay that fails: the
    suite's costliest check, so a sample; ``ALL_PRESET_REPLAYS=1`` checks every one)."""
    if os.environ.get("ALL_PRESET_REPLAYS"):
        return OWN_REPLAYS
    picked = []
    for i, level in enumerate(FILES):
        own = [p for p in OWN_REPLAYS if p.name.startswith(f"{level.stem}.")]
        if own:
            picked.append(own[i % len(own)])
    return picked


@pytest.mark.parametrize("own", _needed_sample(), ids=lambda p: p.stem)
def test_preset_replays_are_needed_where_the_level_replay_fails_under_the_preset(own):
    """``STEM.PRESET.txt`` only where the level's own replay fails under that preset (tools/find_replay.py
    --presets removes the others)."""
    presets = {p.stem: p for p in PRESETS}
    stem, preset = own.name[:-len(".txt")].rsplit(".", 1)
    level = load_level(LEVELS / f"{stem}.tmx")
    session = Session(level, load_feel(presets[preset]))
    for buttons in parse_script(replay_of(LEVELS / f"{stem}.tmx").read_text(), stem):
        if session.completed:
            break
        session.step(buttons)
    assert not session.completed, f"{own.name} is not needed: {stem}.txt completes the level under {preset}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_level_hides_a_secret(path, loaded, make_levels):
    """At least a few coins lie behind a cover (a hidden passage), out of sight until the player walks in."""
    lv = loaded[path.name]
    root = ET.parse(path).getroot()
    fg = next(layer for layer in root.iter("layer") if layer.get("name") == "foreground")
    cells = [int(v) - 1 for v in fg.find("data").text.replace("\n", "").split(",")]
    ts = lv.tile_size
    hidden = [c for c in lv.coins
              if cells[int((c.y + c.h / 2) // ts) * lv.cols + int((c.x + c.w / 2) // ts)] in make_levels.COVERS]
    assert len(hidden) >= 3, f"{len(hidden)} coins behind covers"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_secret_has_a_hint_in_sight(path, loaded, make_levels):
    """A secret is signalled by what the player can see (issue 19, item 7): each patch of cover that hides
    coins has, within two tiles of it, a coin left in plain sight (the lone coin at a hill's wall) or a
    brick to bump (the way into a room)."""
    lv = loaded[path.name]
    root = ET.parse(path).getroot()
    fg = next(layer for layer in root.iter("layer") if layer.get("name") == "foreground")
    cells = [int(v) - 1 for v in fg.find("data").text.replace("\n", "").split(",")]
    ts = lv.tile_size
    cover = {(i % lv.cols, i // lv.cols) for i, t in enumerate(cells) if t in make_levels.COVERS}

    def cell(box):
        return int((box.x + box.w / 2) // ts), int((box.y + box.h / 2) // ts)

    hints = [cell(c) for c in lv.coins if c.name != "hidden"] + [cell(b) for b in lv.breakables]
    patches = []
    for start in sorted(cover):  # patches of cover cells touching side by side or corner to corner
        if any(start in p for p in patches):
            continue
        patch, todo = set(), [start]
        while todo:
            c, r = todo.pop()
            if (c, r) in patch or (c, r) not in cover:
                continue
            patch.add((c, r))
            todo += [(c + dc, r + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)]
        patches.append(patch)
    secrets = [p for p in patches if any(cell(c) in p for c in lv.coins if c.name == "hidden")]
    assert secrets, "no secret"
    for patch in secrets:
        near = [h for h in hints if any(abs(h[0] - c) <= 2 and abs(h[1] - r) <= 2 for c, r in patch)]
        assert near, f"the secret at {min(patch)} (column, row) has no coin or brick in sight beside it"


def along(level) -> tuple:
    """(position of a box along the way the level runs, the level's screen length in that direction): x in a
    level wider than tall, the height climbed in a tall one."""
    if level.rows > level.cols:
        return (lambda x, y, w=0, h=0: level.height - (y + h)), SCREEN[1]
    return (lambda x, y, w=0, h=0: x), SCREEN[0]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_checkpoints_are_never_more_than_three_screens_apart(path, loaded):
    lv = loaded[path.name]
    at, screen = along(lv)
    stops = sorted([at(*lv.spawn)] + [at(c.x, c.y, c.w, c.h) for c in lv.checkpoints]
                   + [at(g.x, g.y, g.w, g.h) for g in lv.goals])
    gaps = [b - a for a, b in zip(stops, stops[1:], strict=False)]
    assert max(gaps) <= 3 * screen, f"{max(gaps) / screen:.1f} screens without a checkpoint"


def test_every_sign_teaches_something_once(loaded):
    messages = [t.props["message"] for p in FILES for t in loaded[p.name].triggers if t.props.get("message")]
    assert len(messages) == len(set(messages)), sorted(m for m in messages if messages.count(m) > 1)


def test_each_new_kind_comes_in_its_own_level_after_the_first_two(loaded):
    """Play order brings in one idea at a time, and from level 3 on the layout teaches it, not a sign: the
    first level with each kind of object is past the two sign levels, and kinds come in together only where
    the levels pair them on purpose (springs with the turrets)."""
    firsts = {kind: next(p.stem for p in FILES if getattr(loaded[p.name], kind)) for kind in KINDS}
    assert firsts == {"enemies": "03_hills", "breakables": "06_critters", "turrets": "07_gauntlet",
                      "springs": "07_gauntlet", "crumbles": "08_crumbling_heights"}


def _uses(lv) -> set[str]:
    used = {e.kind for e in lv.enemies} | {k for k in KINDS if getattr(lv, k)}
    used |= {k for k in ("vines", "platforms", "hazards") if getattr(lv, k)}
    return used


@pytest.mark.parametrize(("stem", "kinds"), [
    ("06_critters", {"walker", "hopper", "flyer", "breakables"}),
    ("07_gauntlet", {"turrets", "springs"}),
    ("08_crumbling_heights", {"crumbles", "vines"}),
])
def test_a_level_that_teaches_a_kind_uses_it(stem, kinds, loaded):
    assert kinds <= _uses(loaded[f"{stem}.tmx"])


def test_the_campaign_grants_each_move_once_and_never_takes_it_back(loaded):
    """Issue 25: the tower (level 8) grants the wall slide and wall jump, the summit (level 9) the dash, and a
    move once learned stays for the levels after it (file order is the campaign's, see above)."""
    granted: tuple[str, ...] = ()
    first = {}
    for p in FILES:
        moves = loaded[p.name].moves
        assert set(granted) <= set(moves), f"{p.name} takes back {set(granted) - set(moves)}"
        for m in moves:
            first.setdefault(m, p.stem)
        granted = moves
    assert first == {"wall_slide": "08_crumbling_heights", "wall_jump": "08_crumbling_heights",
                     "dash": "09_the_summit"}
    for p in FILES:  # a crystal gives dashes back: only where there is a dash
        assert not loaded[p.name].refills or "dash" in loaded[p.name].moves, p.name


def test_the_last_level_combines_everything(loaded):
    everything = set().union(*(_uses(loaded[p.name]) for p in FILES))
    assert _uses(loaded[FILES[-1].name]) == everything
    directions = {t.direction for p in FILES for t in loaded[p.name].turrets}
    assert directions == {"left", "right", "up", "down"}


def test_the_builder_writes_refill_crystals_and_the_moves_property(make_levels, tmp_path):
    """A `*` in a layout is a refill crystal (its respawn from ``Level.refills``), ``Level.moves`` the map's
    `moves` property: the map loads with both."""
    gen = make_levels
    layout = "\n".join(["." * 12] * 4 + ["..P..*..*.G."] + ["#" * 12] * 2)
    level = gen.Level("zz_built.tmx", "Built", None, layout, signs=[], refills=[2.5, 0.0], moves="dash")
    folder = tmp_path / "levels"
    folder.mkdir()
    (tmp_path / "assets").symlink_to(ROOT / "assets")  # the tileset's picture and the backdrops
    for tsx in ("tileset.tsx", "cover.tsx"):  # the tilesets it names, beside it
        (folder / tsx).write_text((LEVELS / tsx).read_text())
    path = folder / "zz_built.tmx"
    path.write_text(gen.write_tmx(level))
    built = load_level(path, goal=True)
    assert built.moves == ("dash",)
    assert [(r.x, r.y, r.respawn) for r in built.refills] == [(88, 72, 2.5), (136, 72, 0.0)]
