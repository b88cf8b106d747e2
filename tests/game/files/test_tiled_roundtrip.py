"""The shipped levels open in the real Tiled and survive a save from it (skipped without Tiled:
`apt-get install tiled` gives Tiled 1.8, which writes object classes as `type`)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from game.files.levelfile import load_level

ROOT = Path(__file__).resolve().parents[3]
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))
TILED = shutil.which("tiled")

pytestmark = pytest.mark.skipif(TILED is None, reason="Tiled is not installed (apt-get install tiled)")


def _tiled(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=os.environ.get("TMPDIR", "/tmp"))
    return subprocess.run([TILED, *args], env=env, capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize("path", LEVELS, ids=[p.stem for p in LEVELS])
def test_tiled_opens_and_resaves_the_level_and_it_still_loads_the_same(path, tmp_path):
    # Tiled re-saves next to the tileset and images so relative paths keep working.
    work = tmp_path / "levels"
    shutil.copytree(ROOT / "levels", work, ignore=shutil.ignore_patterns("replays"))
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    out = work / f"resaved_{path.name}"
    done = _tiled("--export-map", "tmx", str(work / path.name), str(out))
    noise = [line for line in (done.stdout + done.stderr).splitlines()
             if line.strip() and not line.startswith("QStandardPaths")]
    assert done.returncode == 0 and not noise, noise
    original, resaved = load_level(path), load_level(out)
    assert (resaved.grid.kinds == original.grid.kinds).all()
    assert resaved.spawn == original.spawn
    assert [(p.points, p.speed, p.one_way) for p in resaved.platforms] == \
        [(p.points, p.speed, p.one_way) for p in original.platforms]
    assert len(resaved.coins) == len(original.coins)
    assert [t.props.get("message") for t in resaved.triggers] == \
        [t.props.get("message") for t in original.triggers]
