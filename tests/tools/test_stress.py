"""A small sample of tools/stress.py's kill -9 run (the full one: `python tools/stress.py kill --kills 1000`,
figures in docs/reliability.md): every kind of file the game writes is whole after its writer is killed."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("stress", ROOT / "tools" / "stress.py")
stress = sys.modules["stress"] = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(stress)


def test_every_kind_of_write_is_whole_after_kill_9(capsys):
    assert stress.kill(len(stress.KINDS), seed=7) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    for kind in stress.KINDS:
        assert f"{kind:11}     1 kills mid-write, the file whole after 1" in out
