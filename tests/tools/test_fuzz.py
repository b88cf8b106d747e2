"""A seeded sample of tools/fuzz.py (the full run: `python tools/fuzz.py`, figures in docs/reliability.md):
hostile maps, feel files, input scripts, controls files and saves each work or end in the one-line error."""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("fuzz", ROOT / "tools" / "fuzz.py")
fuzz = sys.modules["fuzz"] = importlib.util.module_from_spec(SPEC)  # dataclasses look their module up
SPEC.loader.exec_module(fuzz)

SAMPLE = 8  # cases per kind here; the full run does 500+


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@pytest.mark.skipif(os.name != "posix", reason="the fuzz harness uses SIGALRM and /proc")
@pytest.mark.parametrize("kind", fuzz.KINDS)
@pytest.mark.parametrize("seed", range(1000, 1000 + SAMPLE))
def test_a_fuzzed_file_works_or_is_one_line(kind, seed, work):
    outcome = fuzz.run_case(kind, seed, work, time_limit=30)
    assert not outcome.failed, f"{kind} seed {seed}: {outcome.verdict} {outcome.detail!r}"
    assert outcome.verdict in ("works", "error")


def test_the_sample_sees_both_outcomes_for_each_kind(work):
    seen = {kind: {fuzz.run_case(kind, seed, work).verdict for seed in range(2000, 2012)} for kind in fuzz.KINDS}
    assert all(verdicts == {"works", "error"} for verdicts in seen.values()), seen
