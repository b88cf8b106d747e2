"""Guard: can every level still be finished under a feel? The route finder and the checks built on it.
May import: ``game.rules``, ``game.files`` and ``engine``; never pygame, never ``game.window``.

- ``route``      searches a level's session over short held-input moves for the goal and the coins
- ``check``      ``python -m game check``: levels x feel -> verdicts, routes, text / JSON
- ``feelguard``  the same in the background for the window's F2 panel
"""
