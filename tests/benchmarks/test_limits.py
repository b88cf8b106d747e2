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
