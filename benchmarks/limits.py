"""A map at every documented object limit at once (``game.files.levelkinds.LIMITS``), stepped headless:
``python -m benchmarks.limits [--steps 300]``. Prints the median ms per step for the whole map and for
each kind alone (the same map with only that kind's objects), beside the target of 4 ms per step.

The map: 256 x 64 tiles of 16 px, rock below row 40 and floors; the limits' turrets firing along rows,
their vines (the longest allowed, ``LIMITS.vine_length``, many lying on the floors and in the rock), enemies
walking the floors, platforms on 256-point routes, and coins to the object limit."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COLS, ROWS, TILE = 256, 64, 16
TARGET_MS = 4.0
PLURAL = {"enemy": "enemies"}


def limit_map(kinds: set[str], seed: int = 3) -> str:
    from game.files.levelkinds import LIMITS

    rng = random.Random(seed)
    rows = []
    for r in range(ROWS):
        if r >= 40 or r in (0, ROWS - 1):
            rows.append([1] * COLS)
        elif r % 8 == 7:
            rows.append([1 if c % 32 < 26 else 0 for c in range(COLS)])
        else:
            rows.append([1] + [0] * (COLS - 2) + [1])
    data = ",\n".join(",".join(map(str, row)) for row in rows)
    objs, oid = [], 1

    def add(xml: str) -> None:
        nonlocal oid
        objs.append(xml.replace("ID", str(oid), 1))
        oid += 1

    add('<object id="ID" type="spawn" x="40" y="112"><point/></object>')
    add(f'<object id="ID" type="goal" x="{COLS * TILE - 48}" y="80" width="16" height="32"/>')
    if "turret" in kinds:
        for i in range(LIMITS.turrets):
            x, y = 32 + (i % 32) * 120, 24 + (i // 32) * 128 + 40
            add(f'<object id="ID" type="turret" x="{x}" y="{y}"><properties><property name="direction" '
                f'value="{"left" if i % 2 else "right"}"/><property name="period" type="float" value="0.1"/>'
                '<property name="speed" type="float" value="60"/></properties><point/></object>')
    if "vine" in kinds:
        for i in range(LIMITS.vines):
            x, y = 24 + i * 15.5, 20 + (i % 5) * 120
            add(f'<object id="ID" type="vine" x="{x}" y="{y}"><properties><property name="length" type="float" '
                f'value="{LIMITS.vine_length:g}"/></properties><point/></object>')
    if "enemy" in kinds:
        for i in range(LIMITS.enemies):
            kind = ("walker", "hopper", "flyer")[i % 3]
            x, y = 24 + (i * 37) % (COLS * TILE - 64), 112 + ((i // 3) % 4) * 128
            route = '<property name="dx" type="float" value="64"/>' if kind == "flyer" else ""
            add(f'<object id="ID" type="enemy" x="{x}" y="{y - (40 if kind == "flyer" else 0)}"><properties>'
                f'<property name="kind" value="{kind}"/>{route}</properties><point/></object>')
    if "platform" in kinds:
        for i in range(LIMITS.platforms):
            x, y = 32 + (i % 64) * 60, 60 + (i // 64) * 128
            pts = " ".join(f"{rng.uniform(0, 200):.1f},{rng.uniform(0, 60):.1f}" for _ in range(LIMITS.path_points))
            add(f'<object id="ID" type="platform" x="{x}" y="{y}" width="32" height="8"><properties>'
                f'<property name="path" type="object" value="{oid + 1}"/><property name="speed" type="float" '
                'value="200"/></properties></object>')
            add(f'<object id="ID" x="{x}" y="{y}"><polyline points="{pts}"/></object>')
    if "refill" in kinds:
        for i in range(LIMITS.refills):
            x, y = 40 + (i % 64) * 63, 88 + (i // 64) * 128
            add(f'<object id="ID" type="refill" x="{x}" y="{y}"><point/></object>')
    if "coin" in kinds:
        while oid <= LIMITS.objects:
            add(f'<object id="ID" type="coin" x="{rng.uniform(16, COLS * TILE - 16):.1f}" '
                f'y="{rng.uniform(16, 600):.1f}"><point/></object>')
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{COLS}"
 height="{ROWS}" tilewidth="{TILE}" tileheight="{TILE}" infinite="0" nextlayerid="3" nextobjectid="{oid}">
 <tileset firstgid="1" source="test_tiles.tsx"/>
 <layer id="1" name="ground" width="{COLS}" height="{ROWS}"><data encoding="csv">
{data}
</data></layer>
 <objectgroup id="2" name="objects">
{chr(10).join(objs)}
 </objectgroup>
</map>
"""


def work(session) -> dict:
    """What a step of ``session`` simulates: vines awake / asleep / frozen (far from the view), bullets in
    flight, turrets that may fire (on screen or a tile from it), turrets. The tests of the limits map hold
    these to bounds."""
    from game.rules.session import TURRET_WAKE

    cam = session.camera
    vines = session.vines.ropes
    return {"vines awake": sum(not r.asleep and not r.frozen for r in vines),
            "vines asleep": sum(r.asleep and not r.frozen for r in vines), "vines frozen": sum(r.frozen for r in vines),
            "bullets": len(session.hazards.bullets),
            "turrets awake": sum(cam.sees(t.x, t.y, t.w, t.h, TURRET_WAKE) for t in session.hazards.turrets),
            "turrets": len(session.hazards.turrets)}


def session_on(kinds: set[str], folder: Path):
    from game.files.levelfile import load_level
    from game.rules.session import Session

    path = folder / f"limits_{'_'.join(sorted(kinds)) or 'none'}.tmx"
    path.write_text(limit_map(kinds))
    return Session(load_level(path))


def measure(kinds: set[str], steps: int, warmup: int, folder: Path, baseline: bool = True) -> list[tuple]:
    """``[(median, 95th percentile) CPU ms per step, work]`` of the map holding ``kinds``, the player walking
    right, after ``warmup`` steps (the first bullets in flight, the vines settling); and with ``baseline``
    (and vines in the map) the same for the map whose vines never sleep, stepped in turn with it, a step
    each, so a change in the machine's load weighs on both alike (measured one after the other, the
    second came out up to 25 % slower or faster on the shared machine, whichever it was). CPU time
    (``time.process_time``), so a loaded machine inflates it less than wall time."""
    from engine import Buttons
    from game.rules import vines

    saved = vines.SLEEP_SPEED
    sessions = []
    try:
        for sleep in (True, False) if baseline and "vine" in kinds else (True,):
            vines.SLEEP_SPEED = saved if sleep else 0.0
            sessions.append(session_on(kinds, folder))
    finally:
        vines.SLEEP_SPEED = saved
    held = Buttons(right=True)
    for _ in range(warmup):
        for session in sessions:
            session.step(held)
    times = [[] for _ in sessions]
    for i in range(steps):
        for k in range(len(sessions)) if i % 2 else reversed(range(len(sessions))):
            t = time.process_time()
            sessions[k].step(held)
            times[k].append((time.process_time() - t) * 1000)
    out = []
    for session, ms in zip(sessions, times, strict=True):
        ms.sort()
        out.append((statistics.median(ms), ms[int(0.95 * (len(ms) - 1))], work(session)))
    return out


def main(argv: list[str] | None = None) -> int:
    import shutil

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=120)
    ap.add_argument("--warmup", type=int, default=300, help="steps before measuring (vines settle in 2-5 s)")
    ap.add_argument("--kinds", default="", help="comma-separated kinds to measure alone (default: each)")
    args = ap.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="tilefeel-limits-"))
    for name in ("test_tiles.tsx", "test_tiles.png"):
        shutil.copy(ROOT / "tests" / "maps" / name, folder / name)
    every = {"turret", "vine", "enemy", "platform", "refill", "coin"}
    alone = [k for k in args.kinds.split(",") if k and k != "none"] if args.kinds else sorted(every)
    print(f"CPU ms per step (median / p95) after {args.warmup} steps; target <= {TARGET_MS:g} ms for every limit "
          f"at once. Baseline: the same map with vines that never sleep, stepped in turn with it.")
    print(f"{'map':24} {'median':>8} {'p95':>8} {'baseline':>9} {'ratio':>6}   work in the last step")
    ok = True
    maps = [("nothing but the tiles", set())] + [(f"{PLURAL.get(k, k + 's')} at the limit", {k}) for k in alone]
    for label, kinds in maps + [("every limit at once", every)]:
        runs = measure(kinds, args.steps, args.warmup, folder)
        med, p95, done = runs[0]
        base = runs[-1][0]
        shown = ", ".join(f"{k} {v}" for k, v in done.items() if v)
        print(f"{label:24} {med:8.2f} {p95:8.2f} {base:9.2f} {base / max(med, 1e-9):5.1f}x   {shown}", flush=True)
        if kinds == every:
            ok = med <= TARGET_MS
    return 0 if ok else 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    sys.exit(main())
