"""Loading a big level, and starting the game.

* ``load_s`` / ``load_mb``: a generated 2,000x200 map of 16 px tiles with 3 tile layers (background,
  terrain with slopes and one-way planks, foreground), written to a temporary folder with a copy of the
  shipped tileset. Loading is what opening a level costs: ``load_level`` (images too), the ``Session``
  and the ``MapRenderer``, timed in a fresh process after its imports (``load_cpu_s``: its CPU time,
  what a busy machine cannot inflate); ``load_mb`` is that process's peak resident memory
  (``load_base_mb``: before loading).
* ``startup_s``: from starting ``python -m game`` to its first drawn frame (SDL's dummy drivers; the game
  prints the time of its first frame and quits when ``TILEFEEL_FIRST_FRAME`` is set), with a warm
  bytecode cache, median of several starts; ``startup_cold_s``: the same compiling every module first.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import Figure, pick

ROOT = Path(__file__).resolve().parents[1]
# tiles of levels/tileset.tsx (local ids): grass top, dirt, slopes up / down, planks, bricks, tufts
GRASS, DIRT, UP, DOWN = 17, 31, 6, 7
PLANK = (36, 37, 38)
BRICK = (46, 47)
TUFTS = tuple(range(48, 65))
LOAD_KEYS = ("load_s", "load_cpu_s", "load_mb", "load_base_mb")


def generate(folder: Path, cols: int = 2000, rows: int = 200, seed: int = 7) -> Path:
    """Write ``big.tmx`` (and the tileset and its picture beside it, as in the repository) into
    ``folder``; returns the map's path."""
    rng = random.Random(seed)
    (folder / "levels").mkdir(parents=True, exist_ok=True)
    (folder / "assets").mkdir(exist_ok=True)
    shutil.copy(ROOT / "levels" / "tileset.tsx", folder / "levels" / "tileset.tsx")
    shutil.copy(ROOT / "assets" / "tiles.png", folder / "assets" / "tiles.png")
    back = [[0] * cols for _ in range(rows)]
    ground = [[0] * cols for _ in range(rows)]
    front = [[0] * cols for _ in range(rows)]
    height = rows // 3
    tops = []
    for c in range(cols):
        step = rng.choice((-1, 0, 0, 0, 1)) if 2 < c < cols - 3 else 0
        new = min(rows - 10, max(8, height + step))
        top = rows - new
        for r in range(top, rows):
            ground[r][c] = DIRT + 1
        ground[top][c] = GRASS + 1
        if new > height:  # the ground rises into this column: a slope in the cell before
            ground[top][c - 1] = UP + 1
        elif new < height:
            ground[rows - height][c] = DOWN + 1
            ground[top][c] = DIRT + 1 if top < rows - height else GRASS + 1
        if rng.random() < 0.15:
            front[top - 1][c] = rng.choice(TUFTS) + 1
        height = new
        tops.append(top)
    for _ in range(cols // 6):  # one-way planks above the ground
        c, r = rng.randrange(4, cols - 8), rng.randrange(4, max(5, rows // 2))
        for k in range(rng.randint(3, 7)):
            ground[r][c + k] = PLANK[min(k, 2)] + 1
    for _ in range(cols // 20):  # brick walls in the background
        c0, w = rng.randrange(cols - 12), rng.randint(4, 12)
        r0 = rng.randrange(rows // 3, max(rows // 3 + 1, rows - 40))
        for r in range(r0, min(rows, r0 + rng.randint(4, 20))):
            for c in range(c0, c0 + w):
                back[r][c] = rng.choice(BRICK) + 1

    def layer(lid: int, name: str, data) -> str:
        csv = ",\n".join(",".join(map(str, row)) for row in data)
        return f' <layer id="{lid}" name="{name}" width="{cols}" height="{rows}">\n' \
               f'  <data encoding="csv">\n{csv}\n</data>\n </layer>\n'

    ts = 16
    spawn_x, goal_x = 3 * ts, (cols - 4) * ts
    path = folder / "levels" / "big.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
        f'width="{cols}" height="{rows}" tilewidth="{ts}" tileheight="{ts}" infinite="0" '
        f'backgroundcolor="#262b44" nextlayerid="5" nextobjectid="3">\n'
        ' <tileset firstgid="1" source="tileset.tsx"/>\n'
        + layer(1, "background", back) + layer(2, "terrain", ground)
        + ' <objectgroup id="3" name="objects">\n'
        f'  <object id="1" name="start" type="spawn" x="{spawn_x}" y="{tops[3] * ts}"><point/></object>\n'
        f'  <object id="2" name="goal" type="goal" x="{goal_x}" y="{tops[-4] * ts - 32}" width="16" '
        'height="32"/>\n </objectgroup>\n'
        + layer(4, "foreground", front) + '</map>\n', encoding="utf-8")
    return path


# -- in the child process ------------------------------------------------------------------------------------
def load_child(path: str, profile: bool) -> dict:
    """Import everything, then load the level as the game does; report time and peak memory."""
    import resource

    import pygame

    from game.files.levelfile import load_level
    from game.window.render.sprites import Art
    from game.window.render.tilemap import MapRenderer
    from game.rules.session import Session

    pygame.display.init()
    pygame.display.set_mode((1, 1))
    art = Art()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    def load():
        level = load_level(path, images=True)
        return level, Session(level), MapRenderer(level, art)

    t0, c0 = time.perf_counter(), time.process_time()
    if profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.runcall(load)
        pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
    else:
        load()
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"load_s": seconds, "load_cpu_s": cpu, "load_mb": peak, "load_base_mb": base}


def _python(args: list[str], env: dict, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


def child_env(**extra) -> dict:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    env.update(extra)
    return env


def load_figures(mode: str, profile: bool = False) -> list[Figure]:
    cols, rows = pick(mode, (300, 100), (2000, 200), (2000, 200))
    runs = pick(mode, 1, 1, 3)
    with tempfile.TemporaryDirectory(prefix="tilefeel-bench-") as tmp:
        path = generate(Path(tmp), cols, rows)
        results = []
        for _ in range(runs):
            done = _python(["-c", "import json, sys; from benchmarks.loading import load_child; "
                                  f"print(json.dumps(load_child({str(path)!r}, {profile})))"], child_env())
            if done.returncode != 0:
                why = (done.stderr.strip().splitlines() or ["the loading process failed"])[-1]
                return [Figure(k, None, why) for k in LOAD_KEYS]
            if profile:
                print(done.stderr, file=sys.stderr)
            results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return [Figure(k, statistics.median(r[k] for r in results)) for k in LOAD_KEYS]


def startup_figures(mode: str) -> list[Figure]:
    runs = pick(mode, 1, 3, 7)
    out = []
    with tempfile.TemporaryDirectory(prefix="tilefeel-start-") as tmp:
        tmp = Path(tmp)
        warm = child_env(TILEFEEL_FIRST_FRAME="1", TILEFEEL_DATA_DIR=str(tmp / "data"),
                         TILEFEEL_CONFIG_DIR=str(tmp / "config"), PYTHONPYCACHEPREFIX=str(tmp / "pyc"))
        warm.pop("PYTHONDONTWRITEBYTECODE", None)
        cold = dict(warm, PYTHONPYCACHEPREFIX=str(tmp / "empty"), PYTHONDONTWRITEBYTECODE="1")
        starts = [("startup_s", warm, runs)] + ([] if mode == "smoke" else [("startup_cold_s", cold, (runs + 1) // 2)])
        for key, env, n in starts:
            if key == "startup_s" and mode != "smoke":
                _start_game(env)  # fills the bytecode cache
            times = [_start_game(env) for _ in range(n)]
            if None in times:
                out.append(Figure(key, None, "the game did not report its first frame"))
            else:
                out.append(Figure(key, statistics.median(times)))
    return out


def _start_game(env: dict) -> float | None:
    t0 = time.time()
    done = _python(["-m", "game"], env, timeout=120)
    for line in done.stdout.splitlines():
        if line.startswith("first frame drawn at "):
            return float(line.split()[-1]) - t0
    return None


def run(mode: str) -> list[Figure]:
    return load_figures(mode) + startup_figures(mode)
