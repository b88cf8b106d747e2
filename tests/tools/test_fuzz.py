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


LOADED = """
import os, sys, time
sys.path.insert(0, {tools!r})
import fuzz
os.sched_setaffinity(0, {{0}})
hogs = []
for _ in range(3):  # three busy processes on the same CPU: the case gets about a quarter of it
    pid = os.fork()
    if pid == 0:
        os.sched_setaffinity(0, {{0}})
        while True:
            pass
    hogs.append(pid)
start, wall = time.process_time(), time.monotonic()
try:
    with fuzz._Limits(0.4):
        while time.process_time() - start < 0.3:  # 0.3 s of CPU: within the limit, however long it takes
            pass
    verdict = "ok"
except fuzz.Timeout as exc:
    verdict = str(exc)
for pid in hogs:
    os.kill(pid, 9)
print(verdict, time.monotonic() - wall)
"""


@pytest.mark.skipif(not Path("/proc/self/schedstat").exists() or not hasattr(os, "sched_setaffinity"),
                    reason="the load-proof limit reads Linux's schedstat")
def test_a_case_slowed_by_a_loaded_machine_is_not_a_timeout():
    import subprocess

    out = subprocess.run([sys.executable, "-c", LOADED.format(tools=str(ROOT / "tools"))], capture_output=True,
                         text=True, timeout=60).stdout.split()
    assert out[0] == "ok", out
    assert float(out[1]) > 0.4  # it did take longer than the limit in wall time


@pytest.mark.skipif(not Path("/proc/self/schedstat").exists(), reason="the watchdog reads Linux's schedstat")
def test_a_case_over_its_cpu_time_or_blocked_fails():
    import time

    with pytest.raises(fuzz.Timeout, match="CPU time"), fuzz._Limits(0.2):
        while True:
            pass
    with pytest.raises(fuzz.Timeout, match="blocked"), fuzz._Limits(0.2):
        time.sleep(5)  # neither running nor wanting to: what a FIFO with no writer looks like
