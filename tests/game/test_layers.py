"""game/ is four layers, each a folder, and imports only go down: files <- rules <- guard <- window <- cli.

Every import statement is read (module level and inside functions, absolute and relative), so a lazy
import cannot hide an upward arrow; and each headless layer is imported in a fresh interpreter to prove
that pygame never comes along, directly or through another module.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "game"
ORDER = ("files", "rules", "guard", "window")  # lowest first; the top (cli, __main__, __init__) is above all
HEADLESS = ("files", "rules", "guard")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, text: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module) for every import in the file (or in ``text`` as if it were that file);
    ``from X import a`` also yields ``X.a`` (it may be a module)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    source_text = path.read_text(encoding="utf-8") if text is None else text
    for node in ast.walk(ast.parse(source_text)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found.append((node.lineno, source))
            found += [(node.lineno, f"{source}.{alias.name}") for alias in node.names]
    return found


def _layer(module: str) -> int | None:
    """The rank of a game module's layer (0 = files ... 3 = window, 4 = the top), None outside game."""
    parts = module.split(".")
    if parts[0] != "game" or parts == ["game"]:  # (the package itself loads before any of its modules)
        return None
    if len(parts) > 1 and parts[1] in ORDER:
        return ORDER.index(parts[1])
    return len(ORDER)


def _home(path: Path) -> int:
    """The rank of the layer a file of game/ lives in (``game/__init__.py`` is the top)."""
    return _layer(_module_name(path)) if path.parent != GAME else len(ORDER)


MODULES = sorted(GAME.rglob("*.py"))


def test_every_module_of_game_lives_in_a_layer_or_is_the_cli():
    loose = sorted(p.name for p in GAME.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "cli.py"]
    assert sorted(p.name for p in GAME.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(ORDER)


def _upward(path: Path, text: str | None = None) -> list[str]:
    mine = _home(path)
    return [f"line {line}: {target}" for line, target in _imports(path, text)
            if _layer(target) is not None and _layer(target) > mine]


def _pygame(path: Path, text: str | None = None) -> list[str]:
    return [f"line {line}: {target}" for line, target in _imports(path, text) if target.split(".")[0] == "pygame"]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_only_go_down(path):
    upward = _upward(path)
    rank = _home(path)
    assert not upward, f"{path.relative_to(ROOT)} ({(ORDER + ('top',))[rank]}) imports a layer above it: {upward}"


@pytest.mark.parametrize("path", [p for p in MODULES if _home(p) < ORDER.index("window")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_headless_layers_never_name_pygame(path):
    named = _pygame(path)
    assert not named, f"{path.relative_to(ROOT)} imports pygame: {named}"


def test_headless_layers_load_without_pygame():
    """Importing every module of files, rules and guard brings neither pygame nor game.window along."""
    names = [_module_name(p) for p in MODULES if _home(p) < ORDER.index("window")]
    code = ("import importlib, sys\n"
            f"for name in {names!r}:\n"
            "    importlib.import_module(name)\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'pygame' or m.startswith('game.window'))\n"
            "print(','.join(bad))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"loaded with the headless layers: {out.stdout.strip()}"


def test_every_layer_says_what_it_is_and_what_it_may_import():
    for layer in ORDER:
        doc = ast.get_docstring(ast.parse((GAME / layer / "__init__.py").read_text(encoding="utf-8")))
        first, second = doc.splitlines()[:2]
        assert first.lower().startswith(layer), first
        assert second.startswith("May import:"), second


def test_the_checker_catches_upward_and_pygame_imports():
    """The checker itself, on made-up sources placed in the layers: lazy, relative and absolute imports."""
    rules = GAME / "rules" / "made_up.py"
    source = ("import engine\nfrom ..files import levelfile\n"
              "def f():\n    from ..window import audio\n    import pygame.mixer\n    from game import cli\n")
    assert _upward(rules, source) == ["line 4: game.window", "line 4: game.window.audio", "line 6: game.cli"]
    assert _pygame(rules, source) == ["line 5: pygame.mixer"]
    files = GAME / "files" / "made_up.py"
    assert _upward(files, "from ..rules.session import Session\n") == [
        "line 1: game.rules.session", "line 1: game.rules.session.Session"]
    window = GAME / "window" / "scenes" / "made_up.py"
    assert _upward(window, "from ...guard import check\nfrom ..render import hud\nimport pygame\n") == []
    assert _upward(window, "from ... import cli\n") == ["line 1: game.cli"]
