"""``python -m game`` (and the ``tilefeel`` console script): see game/cli.py and docs/headless.md."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from game.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
