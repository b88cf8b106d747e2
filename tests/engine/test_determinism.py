"""Same grid, feel and inputs give bit-identical states; state_hash sees every difference."""

from engine import Actor, Buttons, Character, Path, Platform, TileGrid, Trigger, World

LEVEL = """
........................................
........................................
..............====......................
.........................#..............
..................\\.......#......../####
.........p q.......\\.....=====..../#####
########################################
"""


def build():
    world = World(TileGrid.from_ascii(LEVEL))
    hero = world.add(Character(16, 40))
    world.add(Platform(200, 60, 32, 8, Path([(200, 60), (260, 40)], speed=30, wait=0.2)))
    world.add(Platform(300, 70, 32, 8, Path([(300, 70), (300, 30), (340, 30)], speed=45, mode="loop"),
                       one_way=True))
    world.add(Trigger(100, 0, 40, 200, name="zone"))
    return world, hero


def script(n, seed=7):
    state = seed
    out = []
    for _ in range(n):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(Buttons(left=bool(state & 1) and not state & 2, right=bool(state & 2),
                           down=(state >> 3) % 11 == 0, jump=bool(state & 16)))
    return out


def test_same_inputs_same_state_hash_every_step():
    a, _ = build()
    b, _ = build()
    for buttons in script(900):
        a.step(buttons)
        b.step(buttons)
        assert a.state_hash() == b.state_hash()


def test_state_hash_changes_when_state_differs():
    a, _hero_a = build()
    b, hero_b = build()
    assert a.state_hash() == b.state_hash()
    hero_b.x += 1e-9
    assert a.state_hash() != b.state_hash()
    b, _ = build()
    a.step(Buttons(right=True))
    b.step(Buttons(left=True))
    assert a.state_hash() != b.state_hash()


def test_clone_runs_independently_and_identically():
    world, hero = build()
    for buttons in script(200):
        world.step(buttons)
    copy = world.clone()
    assert copy.state_hash() == world.state_hash()
    for buttons in script(300, seed=3):
        world.step(buttons)
        copy.step(buttons)
    assert copy.state_hash() == world.state_hash()
    copy.step(Buttons(jump=True))
    assert copy.actors[0] is not hero
    assert copy.steps == world.steps + 1


# -- regressions from the adversarial pass (issue 8) ----------------------------------------------
def test_state_hash_blind_spots():
    g = TileGrid.from_ascii("........\n........\n########")

    def make(tx, gravity=True):
        w = World(g)
        w.add(Trigger(tx, 0, 8, 8))
        w.add(Actor(40, 2, 8, 8, gravity=gravity))
        return w

    assert make(0).state_hash() != make(40).state_hash()  # the trigger box
    assert make(0, True).state_hash() != make(0, False).state_hash()  # the gravity flag


def _mutations():
    """(name, function(world, hero, rock, lift, lift2, zone)) changing one thing the next step reads."""
    from engine import Ground

    return [
        ("actor x", lambda w, h, r, p, q, t: setattr(r, "x", r.x + 0.5)),
        ("actor vx", lambda w, h, r, p, q, t: setattr(r, "vx", 3.0)),
        ("actor size", lambda w, h, r, p, q, t: setattr(r, "h", r.h - 1)),
        ("actor gravity", lambda w, h, r, p, q, t: setattr(r, "gravity", False)),
        ("actor snap", lambda w, h, r, p, q, t: setattr(r, "snap", False)),
        ("actor solid", lambda w, h, r, p, q, t: setattr(r, "solid", True)),
        ("actor bullet", lambda w, h, r, p, q, t: setattr(r, "bullet", True)),
        ("actor bounce", lambda w, h, r, p, q, t: setattr(r, "bounce", 0.5)),
        ("actor group", lambda w, h, r, p, q, t: setattr(r, "group", 2)),
        ("actor touches", lambda w, h, r, p, q, t: setattr(r, "touches", 1)),
        ("on_ground", lambda w, h, r, p, q, t: setattr(h, "on_ground", not h.on_ground)),
        ("ground kind", lambda w, h, r, p, q, t: setattr(h, "ground", Ground("one_way", None, True))),
        ("ground one_way", lambda w, h, r, p, q, t: setattr(h, "ground", h.ground._replace(one_way=True))),
        ("character timer", lambda w, h, r, p, q, t: setattr(h, "air_steps", 3)),
        ("character held", lambda w, h, r, p, q, t: setattr(h, "held", Buttons(jump=True))),
        ("character drop", lambda w, h, r, p, q, t: setattr(h, "drop_left", 2)),
        ("dropping through", lambda w, h, r, p, q, t: setattr(h, "drop_platform", p)),
        ("platform size", lambda w, h, r, p, q, t: setattr(p, "w", p.w + 1)),
        ("platform one_way", lambda w, h, r, p, q, t: setattr(p, "one_way", True)),
        ("platform speed", lambda w, h, r, p, q, t: setattr(p.path, "speed", 99.0)),
        ("platform points", lambda w, h, r, p, q, t: p.path.points.__setitem__(1, (250.0, 40.0))),
        ("platform wait", lambda w, h, r, p, q, t: setattr(p.path, "wait", 1.0)),
        ("trigger box", lambda w, h, r, p, q, t: setattr(t, "w", t.w + 1)),
        ("trigger membership", lambda w, h, r, p, q, t: w._inside.symmetric_difference_update({(t, r)})),
        ("step count", lambda w, h, r, p, q, t: setattr(w, "steps", w.steps + 1)),
        ("feel", lambda w, h, r, p, q, t: w.set_feel(w.feel.with_value("run.max_speed", 151.0))),
        ("actor order", lambda w, h, r, p, q, t: w.actors.reverse()),
    ]


def test_mutating_anything_the_next_step_reads_changes_the_hash():
    from engine import Ground

    def build_all():
        world, hero = build()
        rock = world.add(Actor(60, 10, 6, 6))
        for buttons in script(30) + [Buttons()] * 60:
            world.step(buttons)
        lift, lift2 = world.platforms
        return world, hero, rock, lift, lift2, world.triggers[0]

    base = build_all()
    assert base[1].on_ground and base[5] in [t for t in base[0].triggers]
    reference = base[0].state_hash()
    for name, mutate in _mutations():
        args = build_all()
        assert args[0].state_hash() == reference
        mutate(*args)
        assert args[0].state_hash() != reference, f"state_hash misses: {name}"
    # which platform an actor stands on (same kind of ground, another platform)
    hashes = set()
    for i in range(2):
        world, hero, *_ = build_all()
        hero.ground = Ground("platform", world.platforms[i], False)
        hashes.add(world.state_hash())
    assert len(hashes) == 2
    # which solid actor an actor stands on (two crates, the same kind of ground)
    hashes = set()
    for i in range(2):
        world, hero, rock, *_ = build_all()
        crates = [world.add(Actor(100 + 30 * k, 20, 16, 16, solid=True)) for k in range(2)]
        hero.ground = Ground("actor", crates[i], False)
        hashes.add(world.state_hash())
    assert len(hashes) == 2
