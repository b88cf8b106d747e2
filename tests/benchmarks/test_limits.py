"""The map at every documented object limit (benchmarks/limits.py) does bounded work a step: only the
turrets on screen fire (and so only their bullets fly), and vines lying still sleep. Counts, never time:
the time is benchmarks/limits.py's figure (docs/reliability.md)."""

import shutil

import pytest

from benchmarks.limits import ROOT, session_on, work
from engine import Buttons
from game.files.levelkinds import LIMITS


@pytest.fixture
def folder(tmp_path):
    for name in ("test_tiles.tsx", "test_tiles.png"):
        shutil.copy(ROOT / "tests" / "maps" / name, tmp_path / name)
    return tmp_path


def test_only_the_turrets_in_view_fire_so_bullets_are_bounded_by_the_view(folder):
    session = session_on({"turret"}, folder)
    assert len(session.hazards.turrets) == LIMITS.turrets
    most = 0
    for _ in range(150):
        session.step(Buttons(right=True))
        done = work(session)
        assert done["turrets awake"] <= 16  # on screen or a tile from it: a dozen, never all of them
        most = max(most, done["bullets"])
    assert 0 < most <= 16 * 10  # (each fires every 0.1 s; its bullets leave the view within a second)


def test_the_vines_lying_on_the_floors_fall_asleep(folder):
    session = session_on({"vine"}, folder)
    assert len(session.vines.ropes) == LIMITS.vines
    for _ in range(300):
        session.step(Buttons())  # nobody brushing them
    done = work(session)
    assert done["vines asleep"] >= LIMITS.vines // 4, done  # skipped by the step (engine/docs/ropes.md)


def test_every_limit_at_once_does_bounded_work_a_step(folder):
    """The whole map (but the coins: cheap, and slow to load): the turrets that fire are those in view,
    bullets in flight are bounded by the view (they die on the next turret or wall, or a view's width
    beyond it), and a vine is at most ``LIMITS.vine_length`` px: 33 joints (docs/reliability.md has the
    time this costs)."""
    session = session_on({"turret", "vine", "enemy", "platform", "refill"}, folder)
    level = session.level
    assert (len(level.vines), len(level.enemies), len(level.turrets), len(level.platforms), len(level.refills)) \
        == (LIMITS.vines, LIMITS.enemies, LIMITS.turrets, LIMITS.platforms, LIMITS.refills)
    assert max(len(r.points) for r in session.vines.ropes) == int(LIMITS.vine_length / 8) + 1
    for _ in range(60):
        session.step(Buttons(right=True))
        done = work(session)
        assert done["turrets awake"] <= 16 and done["bullets"] <= 16 * 10, done
