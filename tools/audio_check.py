"""Record what the game's mixer plays over each level's default replay and report peak, clipped samples
and loudness per level.

    PYTHONPATH=. python tools/audio_check.py                      # every level's default replay
    PYTHONPATH=. python tools/audio_check.py 08_crumbling_heights --volumes 1 1
    PYTHONPATH=. python tools/audio_check.py --script my.txt --level levels/08_crumbling_heights.tmx
    PYTHONPATH=. python tools/audio_check.py --script levels/replays/07_gauntlet.celeste.txt --feel presets/celeste.toml

Each level plays in the real app in a child process, with SDL's disk audio driver (``SDL_AUDIODRIVER=disk``,
the mixer's output written to a raw file: 44.1 kHz, signed 16-bit, stereo) and the dummy video driver.
The disk driver runs in real time, so a level takes as long as its replay (about a minute). The profile
is a fresh one in a temporary folder (default volumes unless ``--volumes MUSIC EFFECTS``, each 0..1).

Per level: seconds recorded, peak (dBFS), clipped samples (|s| >= 32767, counted per channel sample),
integrated loudness of the whole recording and the loudest 400 ms (LUFS-like, see
``game.window.audio.loudness``). Exit code 1 when any sample clipped, 2 on a bad argument.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
FULL = 32767
TAIL = 1.5  # s recorded after the replay ends (or 3 s after the level is completed: the fanfare)


def default_replays() -> list[Path]:
    return sorted(p for p in (ROOT / "levels" / "replays").glob("*.txt") if p.name.count(".") == 1)


def measure(raw: np.ndarray, sr: int = 44100) -> dict:
    """Figures for interleaved stereo s16 samples."""
    from game.window.audio import loudness

    x = raw.astype(np.int32)
    peak = int(np.abs(x).max()) if len(x) else 0
    mono = x.reshape(-1, 2).mean(axis=1) / FULL if len(x) >= 2 else np.zeros(1)
    return {
        "seconds": round(len(x) / 2 / sr, 2),
        "peak": peak,
        "peak_dbfs": round(20 * math.log10(max(peak, 1) / FULL), 2),
        "clipped": int(np.count_nonzero(np.abs(x) >= FULL)),
        "loudness": round(loudness(mono, sr, window=None), 1),
        "loudest_400ms": round(loudness(mono, sr, window=0.4), 1) if len(mono) > 0.4 * sr else None,
    }


def record(level: Path | None, script: Path, out_raw: Path, *, volumes=None, seconds: float | None = None,
           data_dir: Path | None = None, feel: Path | str | None = None) -> None:
    """Play ``script`` in the real app in a child process, the mixer recorded to ``out_raw``."""
    env = dict(os.environ, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(out_raw), SDL_VIDEODRIVER="dummy",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryDirectory() as tmp:
        env["TILEFEEL_DATA_DIR"] = str(data_dir or tmp)
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--script", str(script)]
        if level is not None:
            cmd += ["--level", str(level)]
        if feel is not None:
            cmd += ["--feel", str(feel)]
        if volumes is not None:
            cmd += ["--volumes", *map(str, volumes)]
        if seconds is not None:
            cmd += ["--seconds", str(seconds)]
        done = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{script}: the game stopped with code {done.returncode}: "
                               f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}")


def _child(args) -> int:
    """In the child: the app with the replay, frames until it is over (or --seconds), then close."""
    import pygame

    from game.cli import build_parser
    from game.window.app import App
    from game.window.audio import pre_init
    from game.window.scenes.play import PlayScene

    argv = ["--replay", args.script] + (["--level", args.level] if args.level else []) + \
        (["--feel", args.feel] if args.feel else [])
    app = App(build_parser().parse_args(argv))
    pre_init()
    code = app.start()
    if code is not None:
        return code
    if args.volumes:
        app.audio.set_volumes(music=args.volumes[0], effects=args.volumes[1])
    start = pygame.time.get_ticks()
    end = None
    while app.running:
        app.frame()
        now = (pygame.time.get_ticks() - start) / 1000.0
        scene = app.scenes.current
        if end is None:
            if not isinstance(scene, PlayScene):
                end = now + 3.0  # level complete: let the fanfare ring
            elif scene.replay is not None and scene.replay_i >= len(scene.replay):
                end = now + TAIL
        if args.seconds is not None and now >= args.seconds:
            break
        if end is not None and now >= end:
            break
    return app.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("levels", nargs="*", help="level names (e.g. 08_crumbling_heights); default: all")
    ap.add_argument("--script", help="an input script to play instead of the default replays")
    ap.add_argument("--level", help="the level --script plays (default: the one its header names)")
    ap.add_argument("--feel", help="the feel file the game plays under (a preset's replay: its preset)")
    ap.add_argument("--volumes", nargs=2, type=float, metavar=("MUSIC", "EFFECTS"))
    ap.add_argument("--seconds", type=float, help="stop recording after this many seconds")
    ap.add_argument("--keep", help="keep the raw recordings in this folder")
    ap.add_argument("--json", action="store_true", help="one JSON object per level instead of a table")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return _child(args)
    if args.volumes and not all(0.0 <= v <= 1.0 for v in args.volumes):
        print("error: --volumes: each volume is 0..1", file=sys.stderr)
        return 2
    if args.script:
        jobs = [(Path(args.script).stem, Path(args.level) if args.level else None, Path(args.script))]
    else:
        replays = {p.stem: p for p in default_replays()}
        names = [Path(n).stem if n.endswith(".tmx") else n for n in args.levels] or list(replays)  # (a map's path too)
        unknown = [n for n in names if n not in replays]
        if unknown:
            print(f"error: no default replay for {', '.join(unknown)}; known: {', '.join(replays)}",
                  file=sys.stderr)
            return 2
        jobs = [(n, None, replays[n]) for n in names]
    keep = Path(args.keep) if args.keep else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    worst = 0
    if not args.json:
        print(f"{'level':24} {'seconds':>8} {'peak':>6} {'dBFS':>7} {'clipped':>8} {'LUFS':>6} {'max400ms':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, level, script in jobs:
            raw_path = (keep or Path(tmp)) / f"{name}.raw"
            try:
                record(level, script, raw_path, volumes=args.volumes, seconds=args.seconds, feel=args.feel)
            except RuntimeError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            m = measure(np.fromfile(raw_path, "<i2"))
            worst = max(worst, m["clipped"])
            if args.json:
                print(json.dumps({"level": name, **m}), flush=True)
            else:
                print(f"{name:24} {m['seconds']:8.1f} {m['peak']:6d} {m['peak_dbfs']:7.2f} {m['clipped']:8d} "
                      f"{m['loudness']:6.1f} {m['loudest_400ms'] or float('nan'):8.1f}", flush=True)
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main())
