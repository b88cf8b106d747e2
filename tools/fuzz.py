"""Fuzz every file the game reads: maps, feel files, input scripts, controls files and saves.

    python tools/fuzz.py                      # 500 cases of each kind on 2 worker processes (a few minutes)
    python tools/fuzz.py --kinds maps --cases 2000 --seed 7
    python tools/fuzz.py --kinds saves --cases 20 -v    # print every case's outcome

Each case writes one hostile file -- a mutation of a real one (the shipped levels, the test maps and the
maps written by Tiled, feel.toml and the presets, the shipped replays) or one built from the format's
grammar, sometimes a FIFO, ``/dev/zero``, a folder or a file over the size cap -- and feeds it to the game
the way a player would: the real CLI in-process (maps, scripts, feel files: ``python -m game --headless``;
a fifth of the maps also load their images and draw a frame), ``load_bindings`` plus an ``Input``
(controls), ``load_progress`` then a save and a reload (saves). A case passes when it either works or ends
in the documented one-line error (exit code 2, exactly one stderr line ``error: FILE: ...``, never
"internal error"; a controls file or a save: defaults plus one line naming the file), within
``--time-limit`` seconds of CPU time (ITIMER_PROF, so the verdict does not depend on the machine's load;
a case blocked that long without running or waiting for a CPU fails too) and under ``--memory-mb`` of
address space (RLIMIT_AS). Saves must
also lose nothing: the original bytes survive in the save or in a backup, and unknown fields round-trip.

Prints, per kind: cases, passes (works / one-line error), failures with their seed, the slowest case and
the peak memory (RSS) of a case. ``run_case(kind, seed)`` is what tests/tools/test_fuzz.py samples.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

KINDS = ("maps", "feel", "scripts", "controls", "saves")

# numbers and words that broke (or could break) something: each mutation picks from these
HOSTILE_NUMBERS = ["nan", "NaN", "inf", "-inf", "1e308", "-1e308", "1e309", "1e6", "1e9", "-5", "0", "-0",
                   "0.0001", "99999999999999999999", "9" * 400, "9" * 5000, "", " ", "abc", "1.5", "0x10",
                   "+3", " 7 ", "1_000", "4294967295", "4294967296", "-2147483649", "268435456", "3e-320"]
HOSTILE_TEXT = ["", "\x85", "\u2028", "é", "𝔘", "a" * 10_000, "../../etc/passwd", "x.xml", "x.json", "\t",
                "spawn", "goal", "checkpoint", "hazard", "coin", "trigger", "platform", "Spawn", "chekpoint",
                "plat form", "<", "&amp;", "%s%n", "{}", "\\x00"]
# the kinds of issue 12, their properties and their words (tests/maps/kinds.tmx is a seed map too)
NEW_CLASSES = ["enemy", "turret", "spring", "crumble", "breakable", "vine", "enemmy", "Vine"]
NEW_PROPERTIES = ["kind", "facing", "hop_height", "hop_period", "direction", "period", "delay", "height", "respawn",
                  "coin", "length", "lenght"]
NEW_VALUES = ["walker", "hopper", "flyer", "flier", "left", "right", "up", "down", "sideways"]


@dataclass
class Outcome:
    kind: str
    seed: int
    verdict: str  # "works", "error" (the one-line kind) or "FAIL: why"
    seconds: float
    peak_mb: float
    detail: str = ""

    @property
    def failed(self) -> bool:
        return self.verdict.startswith("FAIL")


# -- shared pieces ---------------------------------------------------------------------------------------------

class Timeout(BaseException):  # not an Exception: the game's own ``except Exception`` must not swallow it
    pass


def _sched_ns() -> int | None:
    """Nanoseconds this process has run plus waited to run (Linux ``/proc/self/schedstat``), or None.
    A process that computes or waits for a busy CPU gains about one second a second; one blocked on
    something (a FIFO, a lock) gains nothing -- whatever the machine's load."""
    try:
        with open("/proc/self/schedstat") as f:
            run, wait = f.read().split()[:2]
        return int(run) + int(wait)
    except (OSError, ValueError):
        return None


class _Limits:
    """A case's time limit that does not depend on the machine's load: ``limit`` s of CPU time
    (ITIMER_PROF, user + system), and a watchdog every ``limit`` s of wall time that stops a case which,
    over that whole window, neither ran nor waited to run (a hang: blocked, not slow). Where the kernel
    does not say (no schedstat), the watchdog stops a case after 10 x ``limit`` s of wall time."""

    def __init__(self, limit: float):
        self.limit, self.why, self.last = limit, "", _sched_ns()
        self.wall_left = 10 if self.last is None else None

    def __enter__(self):
        self.old = signal.signal(signal.SIGPROF, self._cpu), signal.signal(signal.SIGALRM, self._wall)
        signal.setitimer(signal.ITIMER_PROF, self.limit)
        signal.setitimer(signal.ITIMER_REAL, self.limit, self.limit)
        return self

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, self.old[0])
        signal.signal(signal.SIGALRM, self.old[1])
        return False

    def _cpu(self, signum, frame):
        self.why = f"more than {self.limit:g} s of CPU time"
        raise Timeout(self.why)

    def _wall(self, signum, frame):
        if self.wall_left is not None:
            self.wall_left -= 1
            if self.wall_left <= 0:
                self.why = f"no result within {10 * self.limit:g} s"
                raise Timeout(self.why)
            return
        now = _sched_ns()
        moved, self.last = now - self.last, now
        if moved < 0.05 * self.limit * 1e9:  # blocked all along: it will not finish by waiting
            self.why = f"blocked for {self.limit:g} s (neither running nor waiting for a CPU)"
            raise Timeout(self.why)


def _peak_reset() -> None:
    """Reset the kernel's peak-RSS counter so each case reports its own peak (Linux; else a no-op)."""
    with contextlib.suppress(OSError):
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")


def _peak_mb() -> float:
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@contextlib.contextmanager
def captured():
    """stdout as text, and everything written to fd 2 (Python's stderr, logging, C libraries)."""
    out = io.StringIO()
    err_file = tempfile.TemporaryFile(mode="w+b")
    saved, saved_stderr = os.dup(2), sys.stderr
    sys.stderr.flush()
    os.dup2(err_file.fileno(), 2)
    sys.stderr = open(2, "w", closefd=False, encoding="utf-8", errors="backslashreplace")  # e.g. under pytest
    box = {}
    try:
        with contextlib.redirect_stdout(out):
            yield box
    finally:
        sys.stderr.flush()
        sys.stderr = saved_stderr
        os.dup2(saved, 2)
        os.close(saved)
        err_file.seek(0)
        box["out"] = out.getvalue()
        box["err"] = err_file.read().decode("utf-8", "replace")
        err_file.close()


def cli_verdict(argv: list[str], named: Path) -> tuple[str, str]:
    """Run ``python -m game ARGV`` in-process; works (exit 0, JSON, silent stderr) or one-line error."""
    from game.cli import main

    with captured() as box:
        code = main(argv)
    out, err = box["out"], box["err"]
    if code == 0:
        if err:
            return "FAIL: exit 0 but stderr " + repr(err[:200]), err
        if "--headless" in argv:
            json.loads(out.strip().splitlines()[-1])
        return "works", ""
    lines = err.splitlines()
    if code != 2:
        return f"FAIL: exit code {code}", err[:300]
    if len(lines) != 1 or not lines[0].startswith("error: "):
        return f"FAIL: {len(lines)} stderr lines", err[:500]
    if "internal error" in lines[0] or "Traceback" in err:
        return "FAIL: internal error", lines[0][:300]
    if not lines[0].isprintable():
        return "FAIL: the error holds unprintable characters", repr(lines[0][:300])
    if str(named) not in lines[0] and named.name not in lines[0]:
        return "FAIL: the error does not name the file", lines[0][:300]
    return "error", lines[0][:200]


def special(rng: random.Random, path: Path) -> str | None:
    """Sometimes replace the input by something that is not a regular file. Returns what, or None."""
    roll = rng.random()
    if roll > 0.06:
        return None
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    if roll < 0.02 and hasattr(os, "mkfifo"):
        os.mkfifo(path)
        return "fifo"
    if roll < 0.03 and os.path.exists("/dev/zero"):
        path.symlink_to("/dev/zero")
        return "/dev/zero"
    if roll < 0.04:
        path.mkdir()
        return "folder"
    with open(path, "wb") as f:  # sparse: over every cap without filling the disk
        f.truncate(64 << 20)
    return "huge"


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """Byte-level damage: flips, cuts, a Latin-1 or NUL byte, a BOM, CRLF line ends."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(6)
        if op == 0 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif op == 1 and data:
            del data[rng.randrange(len(data)):]
        elif op == 2:
            data[rng.randrange(len(data) + 1):0] = rng.choice([b"\xe9", b"\x00", b"\xff\xfe", b"\x1b[2J"])
        elif op == 3:
            data[0:0] = b"\xef\xbb\xbf"
        elif op == 4:
            data = bytearray(bytes(data).replace(b"\n", b"\r\n"))
        elif data:
            i = rng.randrange(len(data))
            data[i:i] = data[i:i + rng.randint(1, 200)] * rng.randint(2, 50)
    return bytes(data)


# -- maps ------------------------------------------------------------------------------------------------------

def map_seeds(work: Path) -> list[Path]:
    """Copies of the shipped levels and the test maps (their tilesets and art beside them) under ``work``."""
    if not (work / "levels").exists():
        shutil.copytree(ROOT / "levels", work / "levels", ignore=shutil.ignore_patterns("replays"))
        shutil.copytree(ROOT / "assets", work / "assets")
        shutil.copytree(ROOT / "tests" / "maps", work / "maps", ignore=shutil.ignore_patterns("errors"))
    return sorted(p for p in [*work.glob("levels/*.tmx"), *work.glob("maps/*.tmx"), *work.glob("maps/tiled/*.tmx")]
                  if ".fuzz" not in p.name)


def _xml_mutations(rng: random.Random, root, seed_path: Path) -> None:
    import xml.etree.ElementTree as ET

    elements = list(root.iter())
    op = rng.randrange(17)
    el = rng.choice(elements)
    if op <= 3 and el.attrib:  # a hostile value in any attribute (sizes, positions, gids, firstgid...)
        key = rng.choice(list(el.attrib))
        el.set(key, rng.choice(HOSTILE_NUMBERS + HOSTILE_TEXT))
    elif op == 4 and el.attrib:
        del el.attrib[rng.choice(list(el.attrib))]
    elif op == 5 and el is not root:
        for parent in root.iter():
            if el in list(parent):
                parent.remove(el)
                break
    elif op == 6:  # duplicate an object, a layer or a tileset
        parents = [p for p in root.iter() if len(p)]
        parent = rng.choice(parents)
        child = rng.choice(list(parent))
        parent.insert(rng.randrange(len(parent) + 1), child)
    elif op == 7:  # a new object of a random class, shape and properties
        groups = root.findall(".//objectgroup") or [ET.SubElement(root, "objectgroup", name="fuzz")]
        obj = ET.SubElement(rng.choice(groups), "object", id=str(rng.randint(1, 60)),
                            type=rng.choice(HOSTILE_TEXT[10:20] + NEW_CLASSES + ["note", ""]))
        for key in ("x", "y", "width", "height", "rotation", "gid"):
            if rng.random() < 0.6:
                obj.set(key, rng.choice(HOSTILE_NUMBERS + [str(rng.uniform(-100, 2000)) for _ in range(8)]))
        shape = rng.choice(["", "point", "ellipse", "polyline", "polygon", "text"])
        if shape:
            child = ET.SubElement(obj, shape)
            if shape in ("polyline", "polygon"):
                n = rng.choice([0, 1, 2, 3, 300])
                child.set("points", " ".join(f"{rng.choice(HOSTILE_NUMBERS[:12] + ['0', '16', '64'])},"
                                             f"{rng.uniform(-50, 50)}" for _ in range(n)))
        props = ET.SubElement(obj, "properties")
        for _ in range(rng.randint(0, 4)):
            ET.SubElement(props, "property", name=rng.choice(["speed", "dx", "dy", "wait", "path", "one_way",
                                                              "message", "spede", "type", "x"] + NEW_PROPERTIES),
                          type=rng.choice(["int", "float", "bool", "object", "string", "class", "list", "weird"]),
                          value=rng.choice(HOSTILE_NUMBERS + HOSTILE_TEXT[:6] + ["true", "7", "40"] + NEW_VALUES))
    elif op == 8:  # tile data in another encoding, cut, bombed or full of odd gids
        _mutate_data(rng, root)
    elif op == 9:  # a huge or odd map size
        root.set(rng.choice(["width", "height", "tilewidth", "tileheight"]),
                 rng.choice(["100000", "10000", "4097", "1025", "0", "-3", "257", "1", "2"]))
    elif op == 10:  # nest layers in groups; very deep nesting is spliced in as text (see map_case)
        depth = rng.choice([1, 5, 40, 2000, 100_000])
        if depth > 40:
            root.set("fuzz-depth", str(depth))
            return
        group = ET.Element("group", name="g")
        deepest = group
        for _ in range(depth):
            deepest = ET.SubElement(deepest, "group", name="g")
        layers = root.findall("layer")
        if layers:
            root.remove(layers[0])
            deepest.append(layers[0])
        root.append(group)
    elif op == 11:  # a tileset: embedded <-> external, or a source that is missing, JSON, not .tsx
        ts = root.find("tileset")
        if ts is not None:
            if ts.get("source") and rng.random() < 0.5:
                ts.set("source", rng.choice(["nope.tsx", "x.json", "x.xml", "/dev/zero", "..", "maps", ""]))
            else:
                ts.set("firstgid", rng.choice(["0", "-5", "1", "2", "9", "268435455", "x"]))
    elif op == 13:  # issue 24: spacing / margin / declared image sizes pytmx would cut by
        for ts in root.iter("tileset"):
            if rng.random() < 0.5:
                ts.set(rng.choice(["spacing", "margin"]), rng.choice(["-15", "-1", "0", "1", "257", "100000", "x", "2.5"]))
            image = ts.find("image")
            if image is not None and rng.random() < 0.5:
                if rng.random() < 0.3:
                    image.attrib.pop("width", None)
                    image.attrib.pop("height", None)
                else:
                    image.set(rng.choice(["width", "height"]), rng.choice(["4096", "1", "65", "0", "31"]))
    elif op == 14:  # issue 24: fractional (or hostile) offsets on every kind of layer, and image layers
        for layer in root.iter():
            if layer.tag in ("layer", "objectgroup", "imagelayer", "group") and rng.random() < 0.6:
                layer.set(rng.choice(["offsetx", "offsety"]), rng.choice(["-37.5", "0.25", "16.5", "1e3", "nan", "x"]))
        if rng.random() < 0.5:
            il = ET.SubElement(root, "imagelayer", id="77", name="sky", offsetx="-37.5", offsety="2.5")
            ET.SubElement(il, "image", source=rng.choice(["test_tiles.png", "nope.png", ""]))
    elif op == 15:  # issue 24: an empty image collection sharing its firstgid with a tileset (Tiled writes it)
        ts = root.find("tileset")
        if ts is not None:
            empty = ET.Element("tileset", firstgid=ts.get("firstgid", "1"), name="objects", tilewidth="1",
                               tileheight="1", tilecount=rng.choice(["0", "0", "1", "x"]), columns="0")
            root.insert(list(root).index(ts) + rng.choice([0, 1]), empty)
    elif op == 16:  # issue 24: an entity bomb or a DOCTYPE (spliced in as text, see map_case)
        root.set("fuzz-entity", str(rng.choice([1, 30, 1500])))
    else:  # a property on the map, a layer or a tile
        props = el.find("properties")
        if props is None:
            props = ET.SubElement(el, "properties")
        ET.SubElement(props, "property", name=rng.choice(["title", "next", "collision", "slope_left",
                                                          "slope_right", "message"]),
                      type=rng.choice(["string", "int", "float", "bool", "file", "color"]),
                      value=rng.choice(HOSTILE_NUMBERS + HOSTILE_TEXT + ["solid", "one_way", "slope", "soild"]))


def _extreme_but_legal(rng: random.Random, root) -> None:
    """Values at the documented limits, which must load and play: the fastest platform with the longest
    wait and path, a goal as big as the map, a thousand coins, the biggest map."""
    import xml.etree.ElementTree as ET

    width = int(root.get("width", "1")) * int(root.get("tilewidth", "16"))
    height = int(root.get("height", "1")) * int(root.get("tileheight", "16"))
    group = root.find("objectgroup")
    if group is None:
        return
    op = rng.randrange(5)
    if op == 0:
        plat = ET.SubElement(group, "object", id="900", type="platform", x="16", y="16", width="32", height="8")
        route = ET.SubElement(group, "object", id="901", x="16", y="16")
        ET.SubElement(route, "polyline", points=" ".join(f"{rng.uniform(0, width - 48):.1f},{rng.uniform(0, height - 24):.1f}"
                                                         for _ in range(256)))
        props = ET.SubElement(plat, "properties")
        ET.SubElement(props, "property", name="path", type="object", value="901")
        ET.SubElement(props, "property", name="speed", type="float", value="2000")
        ET.SubElement(props, "property", name="wait", type="float", value=rng.choice(["3600", "0"]))
    elif op == 1:
        ET.SubElement(group, "object", id="902", type=rng.choice(["goal", "hazard", "trigger", "checkpoint"]),
                      x="-1024", y="-1024", width=str(width + 2048), height=str(height + 2048))
    elif op == 2:
        for i in range(1000):
            ET.SubElement(group, "object", id=str(1000 + i), type="coin", x=str(rng.uniform(0, width)),
                          y=str(rng.uniform(0, height))).append(ET.Element("point"))
    elif op == 3:
        for obj in group.iter("object"):
            for key in ("x", "y"):
                if obj.get(key) is not None:
                    obj.set(key, str(rng.choice([-1024, 0, width + 1024 - 64, 0.5, 1e-300])))
    elif rng.random() < 0.1:  # the biggest map: 1024 x 1024 tiles of 16 px (a second or two to build)
        import base64
        import zlib

        root.set("width", "1024")
        root.set("height", "1024")
        root.set("tilewidth", "16")
        root.set("tileheight", "16")
        floor = (bytes(4 * 1024 * 1023) + (1).to_bytes(4, "little") * 1024)
        for layer in root.iter("layer"):
            layer.set("width", "1024")
            layer.set("height", "1024")
            data = layer.find("data")
            data.attrib.clear()
            data.attrib.update(encoding="base64", compression="zlib")
            data.text = base64.b64encode(zlib.compress(floor)).decode()


def _mutate_data(rng: random.Random, root) -> None:
    import base64
    import gzip
    import zlib

    data_nodes = root.findall(".//data")
    if not data_nodes:
        return
    data = rng.choice(data_nodes)
    layer_size = 1
    for node in root.iter("layer"):
        if node.find("data") is data:
            w, h = node.get("width", "1"), node.get("height", "1")
            layer_size = int(w) * int(h) if w.isdigit() and h.isdigit() and int(w) * int(h) < 10**7 else 1
    op = rng.randrange(5)
    if op == 0:  # a zlib bomb: 1000 times the layer (at most 256 MB inflated)
        data.attrib.update(encoding="base64", compression="zlib")
        bomb = zlib.compressobj()
        packed = b"".join(bomb.compress(bytes(1 << 20)) for _ in range(min(4 * layer_size * 1000 >> 20, 256)))
        data.text = base64.b64encode(packed + bomb.flush()).decode()
    elif op == 1:
        data.text = (data.text or "")[: rng.randrange(len(data.text or "x") + 1)]
    elif op == 2:
        gids = [rng.choice([0, 1, 2, 3, 0x80000003, 0x40000003, 0x20000001, 2**32 - 1, 9999, 268435455])
                for _ in range(min(layer_size, 1 << 20))]
        raw = b"".join(g.to_bytes(4, "little") for g in gids)
        enc = rng.choice(["csv", "base64", "zlib", "gzip", "zstd", "lzma"])
        if enc == "csv":
            data.attrib.clear()
            data.set("encoding", "csv")
            data.text = ",".join(map(str, gids))
        else:
            data.attrib.clear()
            data.set("encoding", "base64")
            if enc != "base64":
                data.set("compression", enc)
            packed = zlib.compress(raw) if enc == "zlib" else gzip.compress(raw) if enc == "gzip" else raw
            data.text = base64.b64encode(packed).decode()
    elif op == 3:
        data.set("encoding", rng.choice(["", "xml", "base32", "csv", "base64"]))
    else:  # CSV with one bad cell somewhere (the generator's own memory stays small)
        cells = ["1" if rng.random() < 0.5 else "0" for _ in range(max(1, min(layer_size, 1 << 20)))]
        cells[rng.randrange(len(cells))] = rng.choice(["-5", "1.5", "x", "", "4294967296", "9" * 5000])
        data.text = ",".join(cells)


def map_case(rng: random.Random, work: Path, seed: int) -> tuple[list[str], Path, bool]:
    import xml.etree.ElementTree as ET

    seed_path = rng.choice(map_seeds(work))
    path = seed_path.with_name(f"{seed_path.stem}.fuzz{seed}.tmx")
    text = seed_path.read_bytes()
    how = rng.random()
    if how < 0.75:
        root = ET.fromstring(text)
        if rng.random() < 0.3:
            _extreme_but_legal(rng, root)
        for _ in range(rng.choice([0, 1, 1, 1, 2, 3]) if how < 0.6 else rng.randint(1, 4)):
            _xml_mutations(rng, root, seed_path)
        if rng.random() < 0.25:  # damage an external tileset too (a copy the map then uses)
            ts = root.find("tileset")
            if ts is not None and ts.get("source", "").endswith(".tsx") and (path.parent / ts.get("source")).is_file():
                tsx_root = ET.fromstring((path.parent / ts.get("source")).read_bytes())
                for _ in range(rng.randint(1, 3)):
                    _xml_mutations(rng, tsx_root, seed_path)
                tsx = path.with_suffix(".tsx")
                tsx.write_bytes(ET.tostring(tsx_root))
                ts.set("source", tsx.name)
        depth = int(root.attrib.pop("fuzz-depth", 0))
        entity = int(root.attrib.pop("fuzz-entity", 0))
        text = ET.tostring(root)  # (the serializer recurses: deep groups go in as text)
        if depth:
            text = text.replace(b"</map>", b'<group name="g">' * depth + b"</group>" * depth + b"</map>")
        if entity:  # a 1 KB entity expanded ``entity`` times in a property
            text = (b'<!DOCTYPE map [<!ENTITY big "' + b"x" * 1024 + b'">]>\n'
                    + text.replace(b"</map>", b'<properties><property name="title" value="'
                                   + b"&big;" * entity + b'"/></properties></map>'))
    else:
        text = mutate_bytes(rng, text)
    path.write_bytes(text)
    kind = special(rng, path)
    images = kind is None and rng.random() < 0.2
    script = work / "steps.txt"  # about 10 s of play: running, jumps, drops, standing on platforms
    script.write_text("".join(f"{rng.randint(1, 40)} {rng.choice(['right', 'left', 'right+jump', 'left+jump', '-', 'down+jump', 'jump'])}\n"
                              for _ in range(40)))
    return ["--headless", "--level", str(path), "--inputs", str(script)], path, images


def draw_map(path: Path) -> None:
    """Load with images and draw one frame, as the window would."""
    import pygame

    from game.files.levelfile import load_level
    from game.window.render.tilemap import MapRenderer
    from game.rules.session import Session

    if pygame.display.get_surface() is None:
        pygame.display.init()
        pygame.display.set_mode((1, 1))
    level = load_level(path, images=True)
    session = Session(level)
    canvas = pygame.Surface((480, 270))
    MapRenderer(level).draw(canvas, int(session.player.x) - 240, int(session.player.y) - 135, 0.5)


# -- feel files ------------------------------------------------------------------------------------------------

FEEL_SEEDS = [ROOT / "feel.toml", *sorted((ROOT / "presets").glob("*.toml"))]


def feel_case(rng: random.Random, work: Path, seed: int) -> tuple[list[str], Path]:
    path = work / f"feel{seed}.toml"
    text = rng.choice(FEEL_SEEDS).read_text(encoding="utf-8")
    lines = text.splitlines()
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        values = [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith("#")]
        if op <= 2 and values:
            i = rng.choice(values)
            key = lines[i].split("=")[0]
            valid = _valid_value(lines, i, rng)
            if valid is not None and rng.random() < 0.35:  # a designer's edit: any value the engine accepts
                lines[i] = key + "= " + valid
                continue
            lines[i] = key + "= " + rng.choice(
                HOSTILE_NUMBERS[:24] + ["true", '"60"', "[1, 2]", "{a = 1}", "1e400", "0", "-1", "[" * 600 + "]" * 600,
                                        "{ a = " * 300 + "1" + "}" * 300, "2000-01-01"])
        elif op == 3 and values:
            i = rng.choice(values)
            lines[i] = lines[i].replace(lines[i].split("=")[0].strip(), rng.choice(["hieght", "hz", "x", "", "é"]), 1)
        elif op == 4:
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(["[jump]", "[nope]", "[[jump]]", "height = 50",
                                                                     "[physics", "hz = 1000", "=", "a.b.c = 1"]))
        elif op == 5 and lines:
            del lines[rng.randrange(len(lines))]
        elif op == 6:
            lines.insert(0, rng.choice(["\ufeff", "\x00", "# é"]))
        else:
            lines.append(f"[{rng.choice(['physics', 'jump', 'run', 'fall', 'platforms'])}]")
    data = "\n".join(lines).encode()
    if rng.random() < 0.2:
        data = mutate_bytes(rng, data)
    path.write_bytes(data)
    special(rng, path)
    return ["--feel", str(path), "--explain"], path


def _valid_value(lines: list[str], i: int, rng: random.Random) -> str | None:
    """A value within the engine's limits for the knob on line ``i`` (its table from the header above),
    or None when the line is no knob: extreme but valid feels (10 Hz, 4000 px/s dashes, switches)."""
    from engine import knobs

    section = next((ln.strip()[1:-1] for ln in reversed(lines[:i]) if ln.strip().startswith("[")), None)
    found = {name: (t, m) for name, t, _d, m in knobs()}.get(f"{section}.{lines[i].split('=')[0].strip()}")
    if found is None:
        return None
    kind, meta = found
    if kind == "bool":
        return rng.choice(["true", "false"])
    lo, hi = meta["min"], meta["max"]
    value = rng.choice([lo, hi, lo + (hi - lo) * rng.random()])
    return str(int(round(value))) if kind == "int" else repr(float(value))


def feel_extra(path: Path) -> str | None:
    """The F2 panel's save and the hot-reload watcher on the same file: no exception, nothing half-written."""
    from engine import FeelConfig
    from game.files.feelfile import FeelFileError, save_feel
    from game.files.hotreload import FeelWatcher

    watcher = FeelWatcher(path, FeelConfig())
    watcher.reload()
    if watcher.error is not None and "\n" in watcher.error:
        return "the watcher's error is not one line"
    before = path.read_bytes() if path.is_file() else None
    try:
        save_feel(path, FeelConfig().with_value("jump.height", 61.0))
    except FeelFileError as exc:
        if "\n" in str(exc):
            return "save_feel's error is not one line"
        if path.is_file() and path.read_bytes() != before:
            return "a refused save changed the file"
    return None


# -- input scripts ---------------------------------------------------------------------------------------------

def script_case(rng: random.Random, work: Path, seed: int) -> tuple[list[str], Path]:
    path = work / f"script{seed}.txt"
    replays = sorted((ROOT / "levels" / "replays").glob("*.txt"))
    if rng.random() < 0.4:  # a good script: long runs of every button combination
        lines = [f"{rng.randint(1, 400)} " + ("+".join(sorted(rng.sample(['left', 'right', 'up', 'down', 'jump'],
                                                                         rng.randint(1, 3)))) if rng.random() < 0.9 else "-")
                 for _ in range(rng.randint(1, 60))]
    elif rng.random() < 0.3:
        lines = rng.choice(replays).read_text().splitlines()[: rng.randint(1, 60)]
        lines = [line.replace("level ", "level " if rng.random() < 0.7 else "level x", 1) for line in lines]
    else:
        lines = []
        words = ["left", "right", "up", "down", "jump", "-", "jmup", "Jump", "", "\x00", "é", "right++jump",
                 "+", "jump+jump", "\x1b[2J", "a" * 5000]
        for _ in range(rng.randint(0, 40)):
            roll = rng.random()
            if roll < 0.08:
                lines.append("level " + rng.choice(["flat.tmx", "goal.tmx", "../x.tmx", "x.txt", "", "é.tmx",
                                                    "a" * 300 + ".tmx", '"boss#2.tmx"', '"flat.tmx" # x',
                                                    '"unclosed.tmx', '"a/b.tmx"', '"x.tmx" junk',
                                                    '"' + "b" * 100_000 + '#.tmx"']))
            elif roll < 0.15:
                lines.append("# " + rng.choice(HOSTILE_TEXT))
            else:
                count = rng.choice(["1", "30", "0", "-1", "1.5", "9" * 4301, "0" * 50 + "7", "1000001", "x",
                                    str(rng.randint(1, 500))])
                buttons = "+".join(rng.sample(words, rng.randint(1, 3))) if rng.random() < 0.3 else \
                    "+".join(rng.sample(["left", "right", "up", "down", "jump"], rng.randint(1, 2)))
                extra = rng.choice(["", "", " # ok", " jump", "\t"])
                lines.append(f"{count} {buttons}{extra}")
    data = "\n".join(lines).encode()
    if rng.random() < 0.2:
        data = mutate_bytes(rng, data)
    data = _at_most_steps(data, 30_000)
    path.write_bytes(data)
    special(rng, path)
    level = ROOT / "tests" / "maps" / rng.choice(["flat.tmx", "goal.tmx", "platforms.tmx"])
    flag = rng.choice(["--inputs", "--replay"])
    args = ["--headless", flag, str(path)]
    if rng.random() < 0.85:
        args += ["--level", str(level)]
    return args, path


def _at_most_steps(data: bytes, most: int) -> bytes:
    """Cut a script that parses to more than ``most`` steps: a long script is slow, not hung, and the
    time limit is there to catch hangs (the 1,000,000-step cap itself is tested in test_inputscript)."""
    from game.files.inputscript import ScriptError, parse

    try:
        text = data.decode("utf-8-sig")
        steps = len(parse(text).steps)
    except (UnicodeDecodeError, ScriptError):
        return data
    lines = text.splitlines()
    while steps > most and lines:
        lines = lines[: len(lines) // 2]
        steps = len(parse("\n".join(lines)).steps)
    return "\n".join(lines).encode()


# -- controls files --------------------------------------------------------------------------------------------

def _toml_value(rng: random.Random, depth: int = 0) -> str:
    names = ['"space"', '"z"', '"a"', '"b"', '"start"', '"é"', '"\\u0000"', '"f13"', '"return"', '"q"', '""']
    roll = rng.random()
    if roll < 0.4:
        return "[" + ", ".join(rng.sample(names, rng.randint(0, 3))) + "]"
    if roll < 0.55:
        return rng.choice(names)
    if roll < 0.65:
        return rng.choice(["5", "0.4", "nan", "inf", "-1", "true", "9" * 5000, "1e400"])
    if roll < 0.75 and depth < 2:
        return "{ x = " + _toml_value(rng, depth + 1) + " }"
    if roll < 0.8:
        return "[" * 700 + "]" * 700
    return "[" + ", ".join(_toml_value(rng, depth + 1) for _ in range(rng.randint(0, 2))) + "]" if depth < 2 else "[]"


def controls_case(rng: random.Random, work: Path, seed: int) -> Path:
    from game.window.input import ACTIONS

    path = work / f"input{seed}.toml"
    lines = []
    for table in rng.sample(["keyboard", "gamepad", "mouse", "Keyboard"], rng.randint(0, 3)):
        lines.append(rng.choice([f"[{table}]", f"{table} = {_toml_value(rng)}"]))
        if lines[-1].startswith("["):
            for _ in range(rng.randint(0, 5)):
                key = rng.choice(list(ACTIONS) + ["deadzone", "jmup", "\u001b"])
                lines.append(f'"{key}" = {_toml_value(rng)}' if rng.random() < 0.2 else f"{key} = {_toml_value(rng)}")
    data = "\n".join(lines).encode()
    if rng.random() < 0.25:
        data = mutate_bytes(rng, data)
    path.write_bytes(data)
    special(rng, path)
    return path


# -- saves -----------------------------------------------------------------------------------------------------

def save_case(rng: random.Random, work: Path, seed: int) -> Path:
    folder = work / f"save{seed}"
    folder.mkdir()
    path = folder / "progress.json"
    doc: dict = {"version": 1, "unlocked": ["01_first_steps.tmx", "02_planks.tmx"],
                 "levels": {"01_first_steps.tmx": {"best_time": 42.5, "best_coins": 20, "best_deaths": 1,
                                                   "completions": 3}}}
    odd = [True, False, None, -1, 0, 2.5, 1e308, float("nan"), "x", [], {}, [1, [2]], 10**50, "01_first_steps.tmx",
           10**400, -10**400]
    for _ in range(rng.randint(0, 4)):
        op = rng.randrange(8)
        if op == 6:  # issue 24: huge numbers in the profile sections
            doc[rng.choice(["options", "totals"])] = {rng.choice(["music", "effects", "scale", "seconds", "deaths"]):
                                                      rng.choice(odd)}
            continue
        if op == 7:  # issue 24: a large or deep field this version does not know (written back at its size)
            doc["future"] = rng.choice([list(range(rng.choice([10, 60_000]))),
                                        json.loads("[" * 800 + "1" + "]" * 800)])
            continue
        if op == 0:
            doc["version"] = rng.choice([True, 2, "1", 0, None, 1.0, 99, -1])
        elif op == 1:
            doc[rng.choice(["options", "unlocked", "levels", "cloud", ""])] = rng.choice(odd + [{"volume": 0.5}])
        elif op == 2:
            rec = doc.get("levels")
            if isinstance(rec, dict) and rec:
                level = rec[next(iter(rec))]
                if isinstance(level, dict):
                    level[rng.choice(["best_time", "best_coins", "best_deaths", "completions", "ghost"])] = rng.choice(odd)
        elif op == 3 and isinstance(doc.get("unlocked"), list):
            doc["unlocked"].append(rng.choice(odd))
        elif op == 4 and rng.random() < 0.5:
            doc = rng.choice([[doc], "save", 5, None])
            break
        else:
            for i in range(rng.randint(1, 30)):  # orphaned temp files and older backups beside it
                tmp = folder / f"progress.json.{i:04d}.tmp"
                tmp.write_text("{")
                os.utime(tmp, (0, 0))
            (folder / "progress.json.bak").write_text("an older backup")
    text = json.dumps(doc) if rng.random() < 0.9 else "[" * 100_000 + "]" * 100_000
    data = text.encode()
    if rng.random() < 0.25:
        data = mutate_bytes(rng, data)
    path.write_bytes(data)
    special(rng, path)
    return path


def save_verdict(path: Path) -> tuple[str, str]:
    from game.files.save import load_progress, save_progress

    original = path.read_bytes() if path.is_file() and not path.is_symlink() and path.stat().st_size < 2 << 20 else None
    backups_before = {p.name: p.read_bytes() for p in path.parent.glob("progress.json.bak*")}
    progress, msg = load_progress(path)
    if msg is not None and ("\n" in msg or str(path) not in msg or not msg.isprintable()):
        return "FAIL: the message is not one line naming the save", repr(msg)[:300]
    for name, data in backups_before.items():  # an existing backup is never overwritten
        if (path.parent / name).read_bytes() != data:
            return "FAIL: a backup was overwritten", name
    if original is not None:
        kept = path.is_file() and path.read_bytes() == original
        kept = kept or any(p.read_bytes() == original for p in path.parent.glob("progress.json.bak*"))
        if not kept:
            return "FAIL: the original save is gone", msg or ""
    if list(path.parent.glob("progress.json.*.tmp")):
        return "FAIL: orphaned temp files left", ""
    progress.complete("01_first_steps.tmx", 30.0, 5, 0, "02_planks.tmx")
    err = save_progress(progress, path)
    if err is not None:  # e.g. progress.json is a folder or a symlink: one line, the game plays on unsaved
        if "\n" in err or str(path) not in err or not (path.is_dir() or path.is_symlink()):
            return "FAIL: could not save", err
        return "error", err
    again, msg2 = load_progress(path)
    if msg2 is not None or again.to_json() != progress.to_json():
        return "FAIL: a save does not read back the same", repr(msg2)[:200]
    return ("error" if msg else "works"), msg or ""


# -- running ---------------------------------------------------------------------------------------------------

def run_case(kind: str, seed: int, work: Path | None = None, time_limit: float = 20.0) -> Outcome:
    """One case of ``kind`` from ``seed`` (deterministic), in this process. ``work``: a scratch folder
    (a temporary one when None)."""
    if work is None:
        with tempfile.TemporaryDirectory() as tmp:
            return run_case(kind, seed, Path(tmp), time_limit)
    rng = random.Random(f"{kind}:{seed}")
    case_dir = work / f"{kind}{seed}"
    case_dir.mkdir(parents=True, exist_ok=True)
    _peak_reset()
    start = time.perf_counter()
    limits = _Limits(time_limit).__enter__()
    detail = ""
    try:
        if kind == "maps":
            argv, named, images = map_case(rng, work, seed)
            verdict, detail = cli_verdict(argv, named)
            if verdict == "works" and images:
                draw_map(named)
        elif kind == "feel":
            argv, named = feel_case(rng, case_dir, seed)
            verdict, detail = cli_verdict(argv, named)
            if not verdict.startswith("FAIL") and named.is_file() and not named.is_symlink():
                problem = feel_extra(named)
                if problem:
                    verdict = "FAIL: " + problem
        elif kind == "scripts":
            argv, named = script_case(rng, case_dir, seed)
            verdict, detail = cli_verdict(argv, named)
        elif kind == "controls":
            from game.window.input import Input, load_bindings

            named = controls_case(rng, case_dir, seed)
            bindings, msg = load_bindings(named)
            Input(bindings).step_buttons()
            verdict = "works" if msg is None else "error"
            if msg is not None and ("\n" in msg or str(named) not in msg or not msg.isprintable()):
                verdict = "FAIL: the message is not one printable line naming the file"
            detail = msg or ""
        else:
            named = save_case(rng, case_dir, seed)
            verdict, detail = save_verdict(named)
    except Timeout:
        verdict = f"FAIL: {limits.why}"
    except MemoryError:
        verdict = "FAIL: MemoryError (over the memory cap)"
    except BaseException as exc:  # noqa: BLE001 - any escape is a finding
        verdict = f"FAIL: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
    finally:
        limits.__exit__(None, None, None)
    seconds = time.perf_counter() - start
    shutil.rmtree(case_dir, ignore_errors=True)
    for stray in work.rglob("*.fuzz*"):
        with contextlib.suppress(OSError):
            stray.unlink() if not stray.is_dir() or stray.is_symlink() else shutil.rmtree(stray)
    return Outcome(kind, seed, verdict, seconds, _peak_mb(), detail)


def _work(jobs: list[tuple[str, int, float]], log: Path, memory_mb: int) -> None:
    """A worker process: runs ``jobs`` in order, logging each case's start before it runs (so a case that
    kills the process is known) and its outcome after, as JSON lines."""
    if memory_mb:
        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    work = Path(tempfile.mkdtemp(prefix="tilefeel-fuzz-"))
    import game.cli  # noqa: F401 - warm imports so the first case's time is its own
    import game.rules.session  # noqa: F401

    with open(log, "a") as out:
        for kind, seed, limit in jobs:
            out.write(json.dumps({"begin": [kind, seed]}) + "\n")
            out.flush()
            o = run_case(kind, seed, work, limit)
            out.write(json.dumps({"done": [o.kind, o.seed, o.verdict, o.seconds, o.peak_mb, o.detail]}) + "\n")
            out.flush()
    shutil.rmtree(work, ignore_errors=True)


class _Worker:
    """A worker process and what it has done, read from its log; a crashed or stuck worker is replaced."""

    def __init__(self, ctx, jobs, folder: Path, memory_mb: int, n: int):
        self.jobs, self.done, self.current, self.since = list(jobs), 0, None, time.monotonic()
        self.log = folder / f"worker{n}.log"
        self.offset = 0
        self.begun, self.cpu0, self.moved, self.moved_at = None, 0.0, 0.0, 0.0
        self.process = ctx.Process(target=_work, args=(self.jobs, self.log, memory_mb), daemon=True)
        self.process.start()

    def sched(self) -> tuple[float, float] | None:
        """The worker's (CPU s, CPU + run-queue wait s) so far, from /proc/PID/schedstat; None elsewhere."""
        try:
            with open(f"/proc/{self.process.pid}/schedstat") as f:
                run, wait = (int(v) / 1e9 for v in f.read().split()[:2])
            return run, run + wait
        except (OSError, ValueError):
            return None

    def stuck(self) -> bool:
        """Still on one case well past its limit where the case's own timers cannot reach (inside a C call):
        30 s of CPU beyond the limit, or 30 s beyond the limit neither running nor waiting for a CPU.
        Counted in CPU time, so a loaded machine does not make a slow case a failure; where /proc does not
        say, 10 x the limit of wall time."""
        if self.current is None:
            return False
        limit, now, sched = self.jobs[self.done][2], time.monotonic(), self.sched()
        if sched is None:
            return now - self.since > 10 * limit + 30
        if self.begun != self.current:  # a new case: start counting from here
            self.begun, self.cpu0, self.moved, self.moved_at = self.current, sched[0], sched[1], now
        if sched[1] - self.moved > 0.05 * (now - self.moved_at):
            self.moved, self.moved_at = sched[1], now
        return sched[0] - self.cpu0 > limit + 30 or now - self.moved_at > limit + 30

    def read(self) -> list[Outcome]:
        out = []
        if not self.log.exists():
            return out
        with open(self.log) as f:
            f.seek(self.offset)
            for line in f:
                if not line.endswith("\n"):
                    break
                self.offset += len(line.encode())
                entry = json.loads(line)
                if "begin" in entry:
                    self.current, self.since = tuple(entry["begin"]), time.monotonic()
                else:
                    out.append(Outcome(*entry["done"]))
                    self.current, self.done = None, self.done + 1
        return out


def run_all(jobs: list[tuple[str, int, float]], workers: int, memory_mb: int, report) -> list[Outcome]:
    """Run the jobs on ``workers`` processes; a case that kills its worker (a crash, the memory cap) or
    is stuck past its limit where its own timers cannot reach (:meth:`_Worker.stuck`) is a failure, and the
    rest of that worker's jobs go to a fresh worker."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    folder = Path(tempfile.mkdtemp(prefix="tilefeel-fuzz-logs-"))
    shares = [jobs[i::workers] for i in range(workers)]
    running = [_Worker(ctx, share, folder, memory_mb, i) for i, share in enumerate(shares) if share]
    outcomes: list[Outcome] = []
    spawned = len(running)
    while running:
        time.sleep(0.2)
        for w in list(running):
            for o in w.read():
                outcomes.append(o)
                report(o)
            stuck = w.stuck()
            if stuck:
                w.process.kill()
            if w.process.is_alive():
                continue
            w.process.join()
            for o in w.read():
                outcomes.append(o)
                report(o)
            running.remove(w)
            if w.done >= len(w.jobs):
                continue
            kind, seed, _limit = w.jobs[w.done]
            why = "stuck past its time limit" if stuck else f"the worker died (exit code {w.process.exitcode})"
            o = Outcome(kind, seed, f"FAIL: {why}", time.monotonic() - w.since, 0.0)
            outcomes.append(o)
            report(o)
            rest = w.jobs[w.done + 1:]
            if rest:
                running.append(_Worker(ctx, rest, folder, memory_mb, spawned))
                spawned += 1
    shutil.rmtree(folder, ignore_errors=True)
    return outcomes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, from {', '.join(KINDS)}")
    ap.add_argument("--cases", type=int, default=500, help="cases per kind")
    ap.add_argument("--seed", type=int, default=1, help="first case seed; case i uses seed + i")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--time-limit", type=float, default=20.0,
                    help="s of CPU time a case may use (and of wall time it may stay blocked)")
    ap.add_argument("--memory-mb", type=int, default=2048, help="address space cap per worker (MB)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        ap.error(f"unknown kind {sorted(unknown)[0]}")
    jobs = [(k, args.seed + i, args.time_limit) for k in kinds for i in range(args.cases)]
    started = time.perf_counter()

    def report(outcome: Outcome) -> None:
        if args.verbose or outcome.failed:
            print(f"{outcome.kind:8} seed {outcome.seed:6}  {outcome.seconds:6.2f} s  {outcome.verdict}"
                  f"  {outcome.detail[:160]!r}", flush=True)

    outcomes = run_all(jobs, args.jobs, args.memory_mb, report)
    wall = time.perf_counter() - started
    print(f"\n{'kind':8} {'cases':>6} {'works':>6} {'1-line':>6} {'FAIL':>5} {'slowest s':>9} "
          f"{'median s':>8} {'peak MB':>8}")
    failed = 0
    for kind in kinds:
        mine = [o for o in outcomes if o.kind == kind]
        times = sorted(o.seconds for o in mine)
        fails = sum(o.failed for o in mine)
        failed += fails
        print(f"{kind:8} {len(mine):6} {sum(o.verdict == 'works' for o in mine):6} "
              f"{sum(o.verdict == 'error' for o in mine):6} {fails:5} {times[-1]:9.2f} "
              f"{times[len(times) // 2]:8.3f} {max(o.peak_mb for o in mine):8.0f}")
    print(f"{len(outcomes)} cases in {wall:.0f} s on {args.jobs} workers; limit {args.time_limit:g} s of CPU a case, "
          f"memory cap {args.memory_mb} MB; {failed} failures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
