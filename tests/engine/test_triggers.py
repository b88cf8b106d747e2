"""Triggers: sensors reporting enter / stay / exit per actor, in a deterministic order (triggers in the
order added, then actors in the order added), with no physical response. Points are 0-size triggers."""

from __future__ import annotations

import pytest

from engine import Actor, Buttons, Character, TileGrid, Trigger, TriggerEvent, World

DT = 1 / 60


def room() -> TileGrid:
    return TileGrid.from_ascii("\n".join(["." * 40] * 15 + ["#" * 40]))


def kinds(events, trigger=None, actor=None) -> list[str]:
    return [e.kind for e in events
            if (trigger is None or e.trigger is trigger) and (actor is None or e.actor is actor)]


def floater(world: World, x, y, vx=0.0, vy=0.0, w=10, h=10) -> Actor:
    a = world.add(Actor(x, y, w, h, gravity=False))
    a.vx, a.vy = vx, vy
    return a


def test_enter_then_stay_every_step_then_exit_once():
    w = World(room())
    w.add(Trigger(100, 50, 20, 20, name="zone"))
    floater(w, 80, 55, vx=60.0)  # 1 px per step; box x..x+10 overlaps 100..120 while 90 < x < 120
    history = []
    for _ in range(60):
        r = w.step()
        history.append(kinds(r.triggers))
    flat = [h[0] if h else "-" for h in history]
    assert all(len(h) <= 1 for h in history)
    # x after step n is 80 + n: inside (strictly) from x = 91 (step 11) to x = 119 (step 39)
    assert flat[:10] == ["-"] * 10
    assert flat[10] == "enter"
    assert flat[11:39] == ["stay"] * 28
    assert flat[39] == "exit"
    assert flat[40:] == ["-"] * 20


def test_touching_a_trigger_edge_is_not_inside():
    w = World(room())
    w.add(Trigger(100, 50, 20, 20))
    floater(w, 90, 50)  # right edge on the trigger's left edge
    floater(w, 120, 50)  # left edge on its right edge
    floater(w, 100, 40)  # bottom on its top
    floater(w, 100, 70)  # top on its bottom
    for _ in range(5):
        assert w.step().triggers == []


def test_event_records_name_the_trigger_and_the_actor():
    w = World(room())
    data = {"message": "hello"}
    t = w.add(Trigger(0, 0, 50, 50, name="sign", data=data))
    a = floater(w, 10, 10)
    r = w.step()
    assert r.triggers == [TriggerEvent("enter", t, a)]
    e = r.triggers[0]
    assert e.trigger.name == "sign" and e.trigger.data is data and e.actor is a


def test_order_is_triggers_as_added_then_actors_as_added():
    w = World(room())
    t1 = w.add(Trigger(0, 0, 200, 200, name="b-second-alphabetically"))
    t2 = w.add(Trigger(0, 0, 200, 200, name="a-first-alphabetically"))
    a1 = floater(w, 150, 10)
    a2 = floater(w, 10, 10)
    a3 = floater(w, 500, 10)  # never inside
    r = w.step()
    assert [(e.kind, e.trigger, e.actor) for e in r.triggers] == [
        ("enter", t1, a1), ("enter", t1, a2), ("enter", t2, a1), ("enter", t2, a2)]
    r = w.step()
    assert [(e.kind, e.trigger, e.actor) for e in r.triggers] == [
        ("stay", t1, a1), ("stay", t1, a2), ("stay", t2, a1), ("stay", t2, a2)]
    a1.vx = 60 * 100  # leaves both triggers next step
    r = w.step()
    assert [(e.kind, e.trigger, e.actor) for e in r.triggers] == [
        ("exit", t1, a1), ("stay", t1, a2), ("exit", t2, a1), ("stay", t2, a2)]
    assert all(e.actor is not a3 for e in r.triggers)


def test_order_is_the_same_on_every_run():
    def run():
        w = World(room())
        [w.add(Trigger(40 * i, 100, 30, 40, name=f"t{i}")) for i in range(6)]
        w.add(Character(5, 100))
        floater(w, 230, 110, vx=-90.0)
        log = []
        for n in range(200):
            r = w.step(Buttons(right=True, jump=n % 50 == 0))
            log.extend((n, e.kind, e.trigger.name, e.actor.name or "rock") for e in r.triggers)
        return log
    first = run()
    assert len(first) > 50
    assert first == run()


def test_a_trigger_has_no_physical_effect():
    def run(with_triggers: bool):
        w = World(room())
        hero = w.add(Character(20, 150))
        if with_triggers:
            w.add(Trigger(0, 0, 640, 256, name="everything"))
            w.add(Trigger(60, 200, 40, 40, name="box"))
            w.add(Trigger(100, 239, 0, 0, name="point"))
        trace = []
        for n in range(150):
            w.step(Buttons(right=n < 100, jump=20 <= n < 40))
            trace.append((hero.x, hero.y, hero.vx, hero.vy, hero.on_ground))
        return trace
    assert run(True) == run(False)


def test_a_falling_actor_passes_straight_through_a_trigger():
    w = World(room())
    w.add(Trigger(0, 100, 200, 10))
    a = w.add(Actor(50, 50, 10, 10))
    seen = []
    for _ in range(60):
        r = w.step()
        seen += kinds(r.triggers)
        assert not a.on_ground or a.y + a.h == 240.0
    assert seen[0] == "enter" and seen[-1] == "exit"
    assert seen[1:-1] == ["stay"] * (len(seen) - 2)
    assert a.y + a.h == 240.0 and a.on_ground


def test_a_fast_actor_that_jumps_over_a_trigger_in_one_step_does_not_report_it():
    # triggers test where actors are at the end of the step (documented: sensors, not sweeps)
    w = World(room())
    w.add(Trigger(100, 50, 4, 4))
    floater(w, 80, 50, vx=60 * 40)
    assert w.step().triggers == []


# -- point triggers ------------------------------------------------------------------------------------
def test_point_trigger_fires_when_strictly_inside_the_box():
    w = World(room())
    w.add(Trigger(105, 55, 0, 0, name="coin"))
    floater(w, 90, 50, vx=60.0)  # x 90..100 -> point at x=105 is inside while 95 < x < 105
    log = []
    for n in range(1, 25):
        r = w.step()
        log.append((n, kinds(r.triggers)))
    entered = [n for n, k in log if k == ["enter"]]
    exited = [n for n, k in log if k == ["exit"]]
    assert entered == [6]  # x = 96
    assert exited == [15]  # x = 105: the point is on the box's left edge, outside
    assert all(k == ["stay"] for n, k in log if 6 < n < 15)


def test_point_trigger_on_the_box_edge_does_not_fire():
    w = World(room())
    w.add(Trigger(100, 55, 0, 0))  # on a's right edge
    w.add(Trigger(95, 50, 0, 0))  # on a's top edge
    w.add(Trigger(90, 60, 0, 0))  # on a's bottom-left corner
    floater(w, 90, 50)
    for _ in range(3):
        assert w.step().triggers == []


# -- membership changes -----------------------------------------------------------------------------
def test_removed_actor_reports_nothing_more_and_re_enters_when_added_back():
    w = World(room())
    w.add(Trigger(0, 0, 100, 100))
    a = floater(w, 10, 10)
    assert kinds(w.step().triggers) == ["enter"]
    w.remove(a)
    assert w.step().triggers == []
    w.add(a)
    assert kinds(w.step().triggers) == ["enter"]


def test_removed_trigger_reports_nothing_more():
    w = World(room())
    t = w.add(Trigger(0, 0, 100, 100))
    floater(w, 10, 10)
    w.step()
    w.remove(t)
    for _ in range(3):
        assert w.step().triggers == []


def test_trigger_added_around_an_actor_enters_on_the_next_step():
    w = World(room())
    a = floater(w, 10, 10)
    w.step()
    t = w.add(Trigger(0, 0, 100, 100))
    r = w.step()
    assert r.triggers == [TriggerEvent("enter", t, a)]


def test_a_clone_keeps_who_is_inside():
    w = World(room())
    w.add(Trigger(0, 0, 100, 100, name="zone"))
    floater(w, 10, 10, vx=60 * 3)
    w.step()
    copy = w.clone()
    for _ in range(40):
        r1, r2 = w.step(), copy.step()
        assert [(e.kind, e.trigger.name) for e in r1.triggers] == [(e.kind, e.trigger.name) for e in r2.triggers]
        assert "enter" not in kinds(r1.triggers)
    assert w.state_hash() == copy.state_hash()


@pytest.mark.parametrize("n", [1, 3])
def test_triggers_count_events_per_actor(n):
    w = World(room())
    w.add(Trigger(0, 0, 400, 400))
    actors = [floater(w, 20 * i, 10) for i in range(n)]
    r = w.step()
    assert [e.actor for e in r.triggers] == actors
    assert kinds(r.triggers) == ["enter"] * n


def test_moving_a_trigger_is_seen_by_the_world():
    from engine import Buttons, Character, TileGrid, Trigger, World

    world = World(TileGrid.from_ascii("." * 40 + "\n" + "#" * 40))
    hero = world.add(Character(8, 2))
    gate = world.add(Trigger(300, 0, 16, 16, name="gate"))
    world.step(Buttons())
    assert world.inside(gate) == []
    gate.x = hero.x  # moved onto the hero: the broadphase index must follow
    events = world.step(Buttons()).triggers
    assert [(e.kind, e.trigger.name) for e in events] == [("enter", "gate")]
    assert world.inside(gate) == [hero]


def test_many_triggers_far_away_produce_no_events():
    from engine import Buttons, Character, TileGrid, Trigger, World

    world = World(TileGrid.from_ascii("." * 400 + "\n" + "#" * 400))
    world.add(Character(8, 2))
    for i in range(300):
        world.add(Trigger(200 + i * 20, 0, 8, 8, name=f"t{i}"))
    for _ in range(10):
        assert world.step(Buttons()).triggers == []


# -- regressions from the adversarial pass (issue 8) ----------------------------------------------
@pytest.mark.parametrize("args,word", [((0, 0, -10, -10), "w"), ((0, 0, float("nan"), 5), "w"),
                                       ((float("inf"), 0, 5, 5), "x"), ((0, 0, 5, -1), "h"),
                                       (("0", 0, 5, 5), "x")])
def test_trigger_no_validation(args, word):
    with pytest.raises((ValueError, TypeError), match=rf"\b{word}\b"):
        Trigger(*args)
    t = Trigger(0, 0, 5, 5)
    with pytest.raises(ValueError, match=r"\bw\b"):
        t.w = float("nan")
    assert t.w == 5


def test_big_actor_trigger_broadphase():
    # a huge actor near one tiny trigger: the broadphase keeps it out of the cells (it would cover a
    # million 64 px cells, which once took 400 ms a step) and still finds the triggers it overlaps
    w = World(room())
    t = w.add(Trigger(0, 0, 1, 1))
    big = floater(w, 10, 10, w=64000, h=64000)
    r = w.step()
    assert len(w._hash._cells) <= 4  # the trigger's cells only: the actor is tested by range
    assert kinds(r.triggers) == []
    assert big.x == 10
    t.x, t.y = 5000, 5000
    assert kinds(w.step().triggers) == ["enter"]


def test_a_trigger_reports_only_the_groups_it_senses():
    w = World(room())
    coin = w.add(Trigger(100, 50, 20, 20, name="coin", senses=1))
    zone = w.add(Trigger(100, 50, 20, 20, name="zone"))  # every group (the default)
    hero = floater(w, 80, 55, vx=60.0)
    hero.group = 1  # (a body given no group is UNGROUPED: in none of the groups a game names)
    enemy = w.add(Actor(80, 55, 10, 10, gravity=False, group=2))
    enemy.vx = 60.0
    seen = []
    for _ in range(60):
        seen += w.step().triggers
    assert kinds(seen, coin, hero)[0] == "enter" and kinds(seen, coin, enemy) == []
    assert kinds(seen, zone, enemy)[0] == "enter" and w.inside(coin) == []
    coin.senses = 3  # now enemies too: the enemy (inside again) is reported from the next step
    enemy.teleport(105, 55)
    assert kinds(w.step().triggers, coin, enemy) == ["enter"]
    with pytest.raises(ValueError, match="senses"):
        Trigger(0, 0, 1, 1, senses=-1)
