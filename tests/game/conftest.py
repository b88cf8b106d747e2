"""Fixtures for the game's tests: a display for image loading, small Tiled maps drawn as ASCII."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

MAPS = Path(__file__).resolve().parents[1] / "maps"


@pytest.fixture
def load_error():
    """``load_error(path)``: the one-line LevelError loading ``path`` gives (checked to name the file and to
    be one line)."""
    from game.files.levelfile import LevelError, load_level

    def error(path) -> str:
        with pytest.raises(LevelError) as err:
            load_level(path)
        message = str(err.value)
        assert message.startswith(f"{path}: ") and "\n" not in message, message
        return message

    return error


@pytest.fixture(scope="module")
def display():
    """A 1x1 display mode (dummy driver): what images=True loading and convert() need."""
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    yield
    pygame.display.quit()
# one character per 16 px tile: '#' solid, '=' one-way, '.' air; objects: 'P' spawn (feet on the tile's
# bottom), 'G' goal (two tiles tall, standing on the tile's bottom), 'o' coin (a point at the tile's
# centre), '^' hazard (the tile's lower half)
_TILES = {"#": 1, "=": 2}


def ascii_tmx(text: str, platforms: list[str] = ()) -> str:
    """A Tiled 1.10 map from ASCII rows (``platforms``: extra ``<object>`` XML lines, e.g. moving ones)."""
    rows = [r for r in text.strip("\n").split("\n")]
    cols = max(len(r) for r in rows)
    rows = [r.ljust(cols, ".") for r in rows]
    data = ",\n".join(",".join(str(_TILES.get(ch, 0)) for ch in row) for row in rows)
    objects, oid = [], 1
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            x, y = c * 16, r * 16
            if ch == "P":
                objects.append(f'<object id="{oid}" name="start" type="spawn" x="{x + 8}" y="{y + 16}"><point/></object>')
            elif ch == "G":
                objects.append(f'<object id="{oid}" name="exit" type="goal" x="{x}" y="{y - 16}" width="16" height="32"/>')
            elif ch == "o":
                objects.append(f'<object id="{oid}" name="c{oid}" type="coin" x="{x + 8}" y="{y + 8}"><point/></object>')
            elif ch == "^":
                objects.append(f'<object id="{oid}" name="spikes" type="hazard" x="{x}" y="{y + 8}" width="16" height="8"/>')
            else:
                continue
            oid += 1
    for line in platforms:
        objects.append(line.replace("ID", str(oid)))
        oid += 1
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
            f'width="{cols}" height="{len(rows)}" tilewidth="16" tileheight="16" infinite="0" nextlayerid="3" '
            f'nextobjectid="{oid}">\n <tileset firstgid="1" source="test_tiles.tsx"/>\n'
            f' <layer id="1" name="ground" width="{cols}" height="{len(rows)}">\n  <data encoding="csv">\n'
            f'{data}\n</data>\n </layer>\n <objectgroup id="2" name="objects">\n  '
            + "\n  ".join(objects) + "\n </objectgroup>\n</map>\n")


@pytest.fixture
def write_map(tmp_path):
    """``write_map(name, ascii, platforms=())`` -> path of a .tmx in tmp_path (with the test tileset)."""
    for name in ("test_tiles.tsx", "test_tiles.png"):
        shutil.copy(MAPS / name, tmp_path / name)

    def write(name: str, text: str, platforms: list[str] = ()) -> Path:
        path = tmp_path / name
        path.write_text(ascii_tmx(text, platforms), encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="module")
def art():
    """The game's Art (objects.png and the rest), on a 1x1 dummy display."""
    from game.window.render.sprites import Art

    pygame.display.init()
    pygame.display.set_mode((1, 1))
    yield Art()
    pygame.display.quit()
