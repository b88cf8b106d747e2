"""debug_draw describes the world through callbacks, visiting only the tiles in view."""

from engine import Actor, Character, Path, Platform, Rope, RopeConfig, TileGrid, Trigger, World, debug_draw


class Recorder:
    def __init__(self):
        self.calls = []

    def box(self, x, y, w, h, what):
        self.calls.append(("box", what, x, y))

    def polygon(self, points, what):
        self.calls.append(("polygon", what, points[0][0], points[0][1]))

    def line(self, x0, y0, x1, y1, what):
        self.calls.append(("line", what, x0, y0))


def test_debug_draw_reports_tiles_bodies_and_sensors():
    world = World(TileGrid.from_ascii("....\n.=/.\n####"))
    world.add(Character(0, 0))
    world.add(Platform(0, 0, 16, 4, Path([(0, 0)], speed=0), one_way=True))
    world.add(Trigger(0, 0, 8, 8, name="t"))
    world.step()
    rec = Recorder()
    debug_draw(world, rec)
    whats = [c[1] for c in rec.calls]
    assert whats.count("solid") == 4
    assert whats.count("one_way") == 1 and whats.count("slope") == 1
    assert "trigger_active" in whats and "platform_one_way" in whats and "velocity" in whats
    assert any(w in ("actor", "actor_ground") for w in whats)


def test_debug_draw_tells_crates_and_bullets_apart():
    world = World(TileGrid.from_ascii("......\n######"))
    world.add(Actor(0, 0, 16, 16, solid=True))
    world.add(Actor(40, 0, 2, 2, bullet=True, gravity=False))
    rec = Recorder()
    debug_draw(world, rec)
    assert [c[1] for c in rec.calls if c[0] == "box" and c[1] not in ("solid",)] == ["actor_solid", "bullet"]


def test_debug_draw_visits_only_tiles_in_view():
    world = World(TileGrid.from_ascii("#" * 2000 + "\n" + "#" * 2000))
    rec = Recorder()
    debug_draw(world, rec, view=(0, 0, 64, 32))
    tiles = [c for c in rec.calls if c[1] == "solid"]
    assert 8 <= len(tiles) <= 15


def test_debug_draw_describes_a_rope_as_lines_from_the_pin_down():
    world = World(TileGrid.from_ascii("....\n....\n....\n####"))
    world.add(Rope(20, 0, RopeConfig(segments=3, segment_length=10)))
    rec = Recorder()
    debug_draw(world, rec)
    lines = [c[2:] for c in rec.calls if c[1] == "rope"]
    assert lines == [(20.0, 0.0), (20.0, 10.0), (20.0, 20.0)]  # the start of each segment
