"""Long-run checks behind docs/reliability.md: random-input soaks on every level, and kill -9 during saves.

    python tools/stress.py soak [--steps 200000] [--seed 1]   # every level in levels/, random held buttons
    python tools/stress.py kill [--kills 300]                 # SIGKILL a process that keeps saving

``soak`` plays each shipped level with seeded random buttons (each combination held 1-90 steps), restarting
the level when the goal is reached, and checks every step that the player's position and velocity are
finite. It prints the steps run, the steps per second, and the process's resident memory (RSS) after a
warm-up (5 % of the steps) and at the end: growth is what the run leaked.

``kill`` starts a child that saves progress in a loop (version k unlocks k levels), kills it with SIGKILL
at a random moment, then checks that progress.json is a complete save (the old one or the new one, never a
mixture or a cut file) and that the next start removes the temp files the kills orphaned.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

COMBOS = ["-", "right", "left", "right+jump", "left+jump", "jump", "down", "down+jump", "up"]


def rss_kb() -> int:
    """Resident memory now, KB (Linux /proc; elsewhere the peak so far)."""
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def soak(steps: int, seed: int) -> int:
    from engine import Buttons
    from game.files.levelfile import load_level
    from game.rules.session import Session

    rng = random.Random(seed)
    buttons = {c: Buttons(**{n: n in c.split("+") for n in ("left", "right", "up", "down", "jump")})
               for c in COMBOS}
    print(f"{'level':22} {'steps':>8} {'goals':>5} {'deaths':>6} {'steps/s':>8} {'RSS after 5%':>12} "
          f"{'RSS at end':>11} {'growth':>8}")
    bad = 0
    for path in sorted((ROOT / "levels").glob("*.tmx")):
        level = load_level(path)
        session = Session(level)
        goals = deaths = 0
        warm = rss_kb()
        start = time.perf_counter()
        held, left = buttons["-"], 0
        for i in range(steps):
            if left == 0:
                held, left = buttons[rng.choice(COMBOS)], rng.randint(1, 90)
            left -= 1
            session.step(held)
            p = session.player
            if not all(math.isfinite(v) for v in (p.x, p.y, p.vx, p.vy)):
                print(f"{path.name}: step {i}: non-finite player state {p!r}")
                bad += 1
                break
            if session.completed:
                goals += 1
                deaths += session.deaths
                session = Session(level)
            if i == steps // 20:
                warm = rss_kb()
        seconds = time.perf_counter() - start
        end = rss_kb()
        deaths += session.deaths
        print(f"{path.name:22} {steps:8} {goals:5} {deaths:6} {steps / seconds:8.0f} {warm / 1024:9.1f} MB "
              f"{end / 1024:8.1f} MB {(end - warm) / 1024:+6.1f} MB")
    return 1 if bad else 0


_CHILD = """
import sys
sys.path.insert(0, {root!r})
from pathlib import Path
from game.files.save import Progress, save_progress
path = Path({path!r})
k = 0
while True:
    k += 1
    p = Progress(unlocked={{f"level{{i:05d}}.tmx" for i in range(k % 400)}})
    p.extra["k"] = k
    if save_progress(p, path) is not None:
        sys.exit(3)
    if k == 1:
        print("saving", flush=True)
"""


def kill(kills: int, seed: int) -> int:
    from game.files.save import ORPHAN_AGE, load_progress

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="tilefeel-kill-"))
    path = folder / "progress.json"
    child_code = _CHILD.format(root=str(ROOT), path=str(path))
    complete = orphans_seen = 0
    for _ in range(kills):
        child = subprocess.Popen([sys.executable, "-c", child_code], stdout=subprocess.PIPE)
        child.stdout.readline()  # its first save is done: from here on it only saves
        time.sleep(rng.random() * 0.05)
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        doc = json.loads(path.read_text())  # a cut or mixed file would not parse, or not add up
        if len(doc["unlocked"]) != doc["k"] % 400:
            print(f"incomplete save after a kill: k={doc['k']} with {len(doc['unlocked'])} levels")
            return 1
        complete += 1
    orphans = list(folder.glob("progress.json.*.tmp"))
    orphans_seen = len(orphans)
    old = time.time() - ORPHAN_AGE - 1
    for tmp in orphans:
        os.utime(tmp, (old, old))
    _, msg = load_progress(path)
    left = len(list(folder.glob("progress.json.*.tmp")))
    print(f"{kills} kills mid-save: the save was complete after {complete} of them; "
          f"{orphans_seen} orphaned temp files, {left} left after the next start; load message: {msg}")
    return 0 if complete == kills and left == 0 and msg is None else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("soak")
    s.add_argument("--steps", type=int, default=200_000)
    s.add_argument("--seed", type=int, default=1)
    k = sub.add_parser("kill")
    k.add_argument("--kills", type=int, default=300)
    k.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.what == "soak":
        return soak(args.steps, args.seed)
    return kill(args.kills, args.seed)


if __name__ == "__main__":
    sys.exit(main())
