"""The demo game built on ``engine/``: Tiled levels, game rules, a route finder and a pygame window.

Four layers, each a folder; imports only go down (a test holds it: tests/game/test_layers.py):

    game/cli.py      python -m game: arguments, headless runs, the one place that opens the window
        |
    window/          pygame: app loop, scenes, drawing, input, audio, the F2 panel
        |
    guard/           the route finder and `check`: can each level be finished under a feel?
        |
    rules/           the game headless: a level's session, enemies, hazards, blocks, vines, refills, camera
        |
    files/           the formats: Tiled levels, level list, feel, input scripts, saves, safe writes
        |
    engine/          physics and the controller (a separate package; never imports game)
"""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep stdout clean: the last line is JSON
