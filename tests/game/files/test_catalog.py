"""The level list shows the maps the loader reads: .tmx, .tmj and .json maps (not JSON tilesets), with
their titles, coins and ``next`` chain, whatever the suffix."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from game.files.catalog import discover
from game.files.levelfile import load_level

TILED = Path(__file__).resolve().parents[2] / "maps" / "tiled"


def _folder(tmp_path: Path) -> Path:
    for name in ("ext_csv.tmx", "ext_csv.tmj", "emb_zlib.tmj", "tiles.tsj", "tiles.tsx", "test_tiles.png"):
        shutil.copy(TILED / name, tmp_path / name)
    return tmp_path


def test_json_maps_are_listed_beside_tmx_maps_and_load(tmp_path):
    folder = _folder(tmp_path)
    doc = json.loads((folder / "ext_csv.tmj").read_text())
    doc["properties"] = [{"name": "title", "type": "string", "value": "From JSON"},
                         {"name": "next", "type": "string", "value": "ext_csv.tmx"}]
    (folder / "01_first.json").write_text(json.dumps(doc))
    (folder / "03_upper.TMJ").write_text((folder / "emb_zlib.tmj").read_text())
    levels = discover(folder)
    names = [i.name for i in levels]
    assert names[:2] == ["01_first.json", "ext_csv.tmx"]  # the chain from 01, by its next property
    assert set(names) == {"01_first.json", "ext_csv.tmx", "ext_csv.tmj", "emb_zlib.tmj", "03_upper.TMJ"}
    assert levels[0].title == "From JSON" and not levels[0].extra
    for info in levels:  # every map listed is one the loader reads
        load_level(info.path)


def test_a_json_tileset_or_template_is_not_a_level(tmp_path):
    folder = _folder(tmp_path)
    shutil.copy(folder / "tiles.tsj", folder / "tiles_copy.json")
    (folder / "thing.json").write_text('{"type": "template", "object": {}}')
    names = {i.name for i in discover(folder)}
    assert "tiles_copy.json" not in names and "thing.json" not in names and "tiles.tsj" not in names


def test_a_broken_json_map_is_listed_by_name_and_says_why_when_played(tmp_path):
    folder = _folder(tmp_path)
    (folder / "02_cut.tmj").write_text('{"type": "map", "layers": [')
    info = next(i for i in discover(folder) if i.name == "02_cut.tmj")
    assert info.title == "Cut" and info.coins == 0
