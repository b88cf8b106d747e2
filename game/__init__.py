"""The demo game built on ``engine/``: Tiled levels, game rules, a headless CLI and a pygame window.

Rooms of the house:
- ``levelfile``   Tiled .tmx/.tsx -> LevelData (engine TileGrid + object areas), one-line LevelError
- ``levelkinds``  what a level holds: its records, its limits and the one table of object kinds
- ``session``     the game rules over one level (death, respawn, coins, checkpoints, goal)
- ``inputscript`` the ``COUNT BUTTONS`` input-script format (headless runs, recordings, replays)
- ``cli``         ``python -m game`` argument handling and the headless runner
"""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep stdout clean: the last line is JSON
