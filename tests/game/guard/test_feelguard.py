"""The feel guard: levels checked in a background process after a change of feel, results polled without
blocking; a newer change cancels the check under way."""

from __future__ import annotations

import time

from engine import FeelConfig
from game.guard.feelguard import DEBOUNCE, LevelGuard
from game.files.levelfile import load_level
from game.rules.session import Session

STEP = "\n".join(["#######", "#.....#", "#...G.#", "#..####", "#P.####", "#######"])  # a two-tile step


def wait_for(guard: LevelGuard, seconds: float = 600.0) -> None:  # a generous cap for a loaded machine
    end = time.monotonic() + seconds
    while guard.checking and time.monotonic() < end:
        guard.poll()
        time.sleep(0.05)
    assert not guard.checking, [r.state for r in guard.results]


def test_levels_are_checked_in_the_background_after_a_change_of_feel(write_map, tmp_path):
    step = write_map("step.tmx", STEP)
    broken = tmp_path / "broken.tmx"
    broken.write_text("<map")
    guard = LevelGuard([step, broken])
    assert [r.state for r in guard.results] == ["idle", "idle"]
    low = FeelConfig().with_value("jump.height", 24.0)  # cannot climb two tiles
    t0 = time.monotonic()
    guard.feel_changed(low, now=t0)
    assert guard.checking and guard.poll(now=t0) is False  # nothing starts before the pause is over
    guard.poll(now=t0 + DEBOUNCE)
    wait_for(guard)
    stuck, error = guard.results
    assert stuck.state == "impossible" and "every reachable state explored" in stuck.detail
    assert (stuck.col, stuck.row) == (2, 4)
    assert stuck.why == "the jump from tile 2,4 to 3,2 needs 32 px of height; this feel reaches 24 px"
    assert stuck.why in stuck.detail and stuck.difficulty is None
    replay = Session(load_level(step), low)  # the route leads to where the search got stuck
    for b in stuck.route:
        replay.step(b)
    assert not replay.completed and int((replay.player.x + 5) // 16) == stuck.col
    assert error.state == "error" and "broken.tmx" in error.detail
    guard.close()


def test_a_newer_change_cancels_the_check_under_way(write_map):
    step = write_map("step.tmx", STEP)
    guard = LevelGuard([step], persistent=False)  # the throw-away process: terminated by the next change
    t0 = time.monotonic()
    guard.feel_changed(FeelConfig().with_value("jump.height", 24.0), now=t0)
    guard.poll(now=t0 + guard.debounce)  # started
    first = guard._proc
    guard.feel_changed(FeelConfig(), now=t0 + guard.debounce)
    assert guard._proc is None and guard.results[0].state == "checking"
    guard.poll(now=t0 + 2 * guard.debounce)
    wait_for(guard)
    finished = guard.results[0]  # the default jump climbs it; the cancelled check's answer never shows
    assert finished.state == "finished" and "finished, route" in finished.detail
    first.join(timeout=5)
    assert not first.is_alive()
    guard.close()


def test_the_kept_alive_process_checks_each_new_feel_drops_the_one_replaced_and_rereads_a_changed_map(write_map):
    import os

    path = write_map("step.tmx", STEP)
    guard = LevelGuard([path], budget=300, difficulty=False)  # a small budget: no long search to exhaust
    t0 = time.monotonic()
    guard.feel_changed(FeelConfig().with_value("jump.height", 24.0), now=t0)  # cannot climb the 2 tiles
    guard.poll(now=t0 + DEBOUNCE)  # started
    worker = guard._proc
    guard.feel_changed(FeelConfig().with_value("jump.height", 40.0), now=t0 + DEBOUNCE)  # replaced at once
    assert guard._proc is worker and guard.results[0].state == "checking"
    guard.poll(now=t0 + 2 * DEBOUNCE)
    wait_for(guard)
    assert guard.results[0].state == "finished"  # 40 px climbs it; the dropped check's answer never shows
    write_map("step.tmx", "\n".join(["#######", "#...G.#", "#..####", "#..####", "#P.####", "#######"]))  # 3 tiles
    os.utime(path, ns=(time.time_ns() + 10**9,) * 2)  # a different mtime even on a coarse clock
    guard.feel_changed(FeelConfig().with_value("jump.height", 41.0), now=t0 + 3 * DEBOUNCE)
    guard.poll(now=t0 + 4 * DEBOUNCE)
    wait_for(guard)
    assert guard.results[0].stuck and "budget of 300" in guard.results[0].detail  # the map was read again
    assert guard._proc is worker and worker.is_alive() and guard.started == 1  # one process for all three
    guard.close()
    assert not worker.is_alive()


def test_a_dead_worker_is_reported_and_the_next_change_starts_another(write_map):
    guard = LevelGuard([write_map("step.tmx", STEP)], budget=300, difficulty=False)
    guard.feel_changed(FeelConfig(), now=0.0)
    guard.poll(now=DEBOUNCE)
    wait_for(guard)
    guard._proc.kill()
    guard._proc.join(timeout=5)
    guard.feel_changed(FeelConfig().with_value("fall.max_speed", 400.0), now=10.0)
    guard.poll(now=10.0 + DEBOUNCE)
    wait_for(guard)
    assert guard.results[0].state == "finished" and guard.started == 2
    guard.close()


def test_the_checks_go_in_the_order_asked_and_a_stop_sends_nothing_more(write_map):
    from game.guard.feelguard import DONE, check_all
    from game.guard.route import Cancelled

    class Out(list):
        put = list.append

    paths = [str(write_map(f"step{i}.tmx", STEP)) for i in range(3)]
    out, known = Out(), {}
    check_all(7, FeelConfig(), paths, None, out, known, difficulty=False, order=[2, 0, 1])
    assert [(g, i) for g, i, _r in out] == [(7, 2), (7, 0), (7, 1), (7, DONE)]
    assert set(known) == set(paths)  # each route that finished, for the next feel
    out, calls = Out(), []

    def stop():  # the answer is no longer wanted once the first level is in
        calls.append(1)
        return len(out) >= 1

    try:
        check_all(8, FeelConfig(), paths, None, out, {}, difficulty=False, stop=stop)
    except Cancelled:
        pass
    else:
        raise AssertionError("a stop() that says so raises Cancelled")
    assert [i for _g, i, _r in out] == [0] and calls


def test_a_search_asked_to_stop_raises_cancelled_and_gives_no_verdict(write_map):
    import pytest

    from game.guard.route import Cancelled, find_routes

    level = load_level(write_map("step.tmx", STEP))
    with pytest.raises(Cancelled):
        find_routes(level, FeelConfig().with_value("jump.height", 24.0), stop=lambda: True)


def test_the_same_feel_again_is_not_checked_again(write_map):
    guard = LevelGuard([write_map("step.tmx", STEP)])
    guard.feel_changed(FeelConfig(), now=0.0)
    due = guard._due
    guard.feel_changed(FeelConfig(), now=5.0)
    assert guard._due == due
    guard.close()


def test_no_background_processes_means_an_error_per_level_not_a_crash(write_map, monkeypatch):
    import multiprocessing

    def refuse(*_args, **_kw):
        raise OSError("processes are not supported")

    monkeypatch.setattr(multiprocessing, "get_context", refuse)
    guard = LevelGuard([write_map("step.tmx", STEP)])
    guard.feel_changed(FeelConfig(), now=0.0)
    guard.poll(now=DEBOUNCE)
    assert not guard.checking and guard.results[0].state == "error"
    assert "processes are not supported" in guard.results[0].detail


def test_the_route_of_the_last_feel_is_replayed_first_and_a_budget_spent_is_unknown(write_map):
    long = write_map("long.tmx", "\n".join([
        "....................",
        "..................G.",
        "...............#####",
        "P.........###.......",
        "####################",
    ]))
    guard = LevelGuard([long])
    guard.feel_changed(FeelConfig(), now=0.0)
    guard.poll(now=DEBOUNCE)
    wait_for(guard)
    first = guard.results[0]
    assert first.state == "finished" and "found in" in first.detail and first.route
    guard.feel_changed(FeelConfig().with_value("fall.max_speed", 400.0), now=10.0)  # a harmless change
    guard.poll(now=10.0 + DEBOUNCE)
    wait_for(guard)
    assert guard.results[0].state == "finished" and "its route replayed" in guard.results[0].detail
    end = time.monotonic() + 600  # after the verdicts, each finished route's difficulty comes in
    while guard.results[0].difficulty is None and time.monotonic() < end:
        guard.poll()
        time.sleep(0.05)
    assert guard.results[0].difficulty is not None and "bits" in guard.results[0].detail
    guard.close()
    tiny = LevelGuard([long], budget=3)  # no known route, three states: the search cannot tell
    tiny.feel_changed(FeelConfig(), now=0.0)
    tiny.poll(now=DEBOUNCE)
    wait_for(tiny)
    assert tiny.results[0].state == "unknown" and "budget of 3 states" in tiny.results[0].detail
    tiny.close()


def test_the_level_in_focus_is_checked_first_and_the_others_in_order(tmp_path):
    paths = [tmp_path / f"{n}.tmx" for n in "abc"]
    guard = LevelGuard(paths)
    assert guard._order() == [0, 1, 2]
    guard.focus = paths[2]
    assert guard._order() == [2, 0, 1]
    guard.focus = tmp_path / "elsewhere.tmx"  # a level not in the strip (a map opened by path): no change
    assert guard._order() == [0, 1, 2]
