"""Long-run checks behind docs/reliability.md: random-input soaks on every level, and kill -9 during saves.

    python tools/stress.py soak [--steps 200000] [--seed 1]   # every level in levels/, random held buttons
    python tools/stress.py kill [--kills 300]                 # SIGKILL processes that keep writing files
    python tools/stress.py merge [--rounds 100] [--games 2]   # games finishing levels on one save at once

``soak`` plays each shipped level with seeded random buttons (each combination held 1-90 steps), restarting
the level when the goal is reached, and checks every step that the player's position and velocity are
finite. It prints the steps run, the steps per second, and the process's resident memory (RSS) after a
warm-up (5 % of the steps) and at the end: growth is what the run leaked.

``kill`` forks a child that writes one kind of file in a loop -- the save, a route, a trace, a recording,
the feel file (the panel's write-back), a screenshot, the controls file (``input.toml``), in turn -- kills it with SIGKILL at a random moment,
then checks that the file is complete (the old one or the new one, never a mixture or a cut file) and that
the next start removes the temp files the kills orphaned.

``merge`` runs games that each finish levels on the same save at once (some the same level): every
completion and every second of the totals must be in the save at the end.
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


def _writer(folder: Path, kind: str, parent: int, ready: int) -> None:
    """A forked child: write one kind of file in a loop, the real way, until killed (or orphaned). After the
    first write it says so on the pipe ``ready``."""
    from engine import FeelConfig
    from game.files.feelfile import save_feel
    from game.files.save import load_progress, save_progress
    from game.files.userfiles import atomic_output, write_atomic
    from game.window.input import Bindings, rebind, save_bindings

    p, _ = load_progress(folder / "progress.json")
    k = 0
    while os.getppid() == parent:  # a writer whose stress run was stopped stops too
        k += 1
        n = k % 400
        if kind == "save":  # the save merges under its lock; "pad" checks it is whole
            p.extra["k"], p.extra["pad"] = k, list(range(n))
            if save_progress(p, folder / "progress.json") is not None:
                os._exit(3)
        elif kind == "feel":  # the panel's write-back keeps the file's layout
            save_feel(folder / "feel.toml", FeelConfig().with_value("jump.height", 10.0 + n))
        elif kind == "screenshot":
            with atomic_output(folder / "shot.png", "screenshot", binary=True) as f:
                f.write(b"%d\n" % n + bytes(range(256)) * n)
        elif kind == "input":  # Options > Controls: input.toml rewritten in place, keeping what the player wrote
            b, _ = rebind(Bindings.defaults(), "keyboard", "jump", LETTERS[n % len(LETTERS)])
            b.deadzone = 0.05 + (n % len(LETTERS)) / 100  # the gamepad table comes last: a cut file would lose it
            save_bindings(b, folder / "input.toml")
        elif kind == "trace":  # the CLI streams a trace, one line a step, into one temp file
            with atomic_output(folder / "trace.txt", "trace") as f:
                f.write(f"{n}\n")
                for i in range(n):
                    f.write(f"{i} right\n")
        else:  # route, recording: text written whole
            write_atomic(folder / f"{kind}.txt", f"{n}\n" + "".join(f"{i} right\n" for i in range(n)), kind)
        if k == 1:
            os.write(ready, b"w")


LETTERS = "abcdefghijklnopqrstuvwxyz"  # keys jump is bound to in turn (not m: mute)
KINDS = ("save", "route", "trace", "recording", "feel", "screenshot", "input")


def _whole(folder: Path, kind: str) -> str | None:
    """None when the file ``kind`` wrote is complete, else what is wrong with it."""
    if kind == "save":
        doc = json.loads((folder / "progress.json").read_text())  # a cut file would not parse
        return None if len(doc["pad"]) == doc["k"] % 400 else f"k={doc['k']} with {len(doc['pad'])} entries"
    if kind == "feel":
        from game.files.feelfile import load_feel
        load_feel(folder / "feel.toml")  # a cut file would not parse (or miss its value)
        return None if "height" in (folder / "feel.toml").read_text() else "no jump.height"
    if kind == "input":
        from game.window.input import key_names, load_bindings
        b, msg = load_bindings(folder / "input.toml")  # a cut file would not parse, or lose its last table
        if msg is not None:
            return msg
        jump, dead = key_names(b)["jump"][0], round((b.deadzone - 0.05) * 100)
        return None if LETTERS.find(jump) == dead else f"jump {jump!r} with deadzone {b.deadzone}"
    if kind == "screenshot":
        data = (folder / "shot.png").read_bytes()
        n = int(data.split(b"\n", 1)[0])
        return None if len(data) == len(b"%d\n" % n) + 256 * n else f"{len(data)} bytes for n={n}"
    lines = (folder / f"{kind}.txt").read_text().splitlines()
    return None if int(lines[0]) == len(lines) - 1 else f"{len(lines) - 1} lines for n={lines[0]}"


def kill(kills: int, seed: int) -> int:
    """SIGKILL writers of every kind at random moments; every file must be whole afterwards."""
    from game.files.save import ORPHAN_AGE, load_progress

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="tilefeel-kill-"))
    counts = {kind: [0, 0] for kind in KINDS}  # kills, whole afterwards
    import game.files.feelfile  # noqa: F401 - imported once here: each forked writer starts at once
    import game.files.save  # noqa: F401
    import game.window.input  # noqa: F401

    for i in range(kills):
        kind = KINDS[i % len(KINDS)]
        ready, done = os.pipe()
        pid = os.fork()
        if pid == 0:  # the writer
            os.close(ready)
            code = 0
            try:
                _writer(folder, kind, os.getppid(), done)
            except BaseException as exc:  # noqa: BLE001 - reported by the parent as the exit code
                print(f"{kind}: {type(exc).__name__}: {exc}", file=sys.stderr)
                code = 4
            os._exit(code)
        os.close(done)
        if not os.read(ready, 1):  # its first write is done: from here on it only writes
            os.close(ready)
            print(f"{kind}: the writer failed before its first write (exit status {os.waitpid(pid, 0)[1]})")
            return 1
        time.sleep(rng.random() * 0.05)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(ready)
        counts[kind][0] += 1
        try:
            wrong = _whole(folder, kind)
        except (ValueError, KeyError, IndexError, OSError, Exception) as exc:  # noqa: BLE001 - any damage
            wrong = f"{type(exc).__name__}: {exc}"
        if wrong:
            print(f"{kind}: not whole after a kill: {wrong}")
        else:
            counts[kind][1] += 1
        if (i + 1) % 100 == 0:
            print(f"  {i + 1} kills, {sum(ok for _n, ok in counts.values())} files whole after them", flush=True)
    orphans = [p for p in folder.iterdir() if p.name.endswith(".tmp")]
    old = time.time() - ORPHAN_AGE - 1
    for tmp in orphans:
        os.utime(tmp, (old, old))
    _, msg = load_progress(folder / "progress.json")
    left = len(list(folder.glob("progress.json.*.tmp")))
    for kind, (n, ok) in counts.items():
        print(f"{kind:11} {n:5} kills mid-write, the file whole after {ok}")
    print(f"{kills} kills: {sum(ok for _n, ok in counts.values())} whole; {len(orphans)} orphaned temp files "
          f"({left} of the save's left after the next start); load message: {msg}")
    return 0 if all(n == ok for n, ok in counts.values()) and left == 0 and msg is None else 1


_CONTENDER = """
import sys
sys.path.insert(0, {root!r})
from pathlib import Path
from game.files.save import load_progress, save_progress
path, who, rounds = Path({path!r}), sys.argv[1], int(sys.argv[2])
p, _ = load_progress(path)
for i in range(rounds):
    p.complete(f"{{who}}{{i % 7}}.tmx" if i % 3 else "shared.tmx", 10.0 + i, i % 4, 0, None)
    t = p.totals or {{"seconds": 0.0, "deaths": 0}}
    p.totals = {{"seconds": t["seconds"] + 1.0, "deaths": t["deaths"] + 1}}
    if save_progress(p, path) is not None:
        sys.exit(3)
"""


def merge(rounds: int, games: int) -> int:
    """``games`` processes finish ``rounds`` levels each on one save at once: no completion may be lost."""
    from game.files.save import load_progress

    folder = Path(tempfile.mkdtemp(prefix="tilefeel-merge-"))
    path = folder / "progress.json"
    code = _CONTENDER.format(root=str(ROOT), path=str(path))
    start = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", code, f"g{g}-", str(rounds)]) for g in range(games)]
    codes = [p.wait() for p in procs]
    seconds = time.perf_counter() - start
    progress, msg = load_progress(path)
    done = sum(r.completions for r in progress.levels.values())
    totals = progress.totals or {}
    print(f"{games} games x {rounds} completions on one save in {seconds:.1f} s: {done} of {games * rounds} "
          f"completions kept; totals {totals}; exit codes {codes}; load message: {msg}")
    ok = (done == games * rounds and totals.get("deaths") == games * rounds and codes == [0] * games
          and msg is None)
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("soak")
    s.add_argument("--steps", type=int, default=200_000)
    s.add_argument("--seed", type=int, default=1)
    k = sub.add_parser("kill")
    k.add_argument("--kills", type=int, default=300)
    k.add_argument("--seed", type=int, default=1)
    m = sub.add_parser("merge")
    m.add_argument("--rounds", type=int, default=100)
    m.add_argument("--games", type=int, default=2)
    args = ap.parse_args(argv)
    if args.what == "soak":
        return soak(args.steps, args.seed)
    if args.what == "merge":
        return merge(args.rounds, args.games)
    return kill(args.kills, args.seed)


if __name__ == "__main__":
    sys.exit(main())
