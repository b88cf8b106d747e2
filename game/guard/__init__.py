"""Guard: can every level still be finished under a feel? The route finder and the checks built on it.
May import: ``game.rules``, ``game.files`` and ``engine``; never pygame, never ``game.window``.

- ``route``      searches a level's session over short held-input moves for the goal and the coins
- ``check``      ``python -m game check``: levels x feel -> verdicts, routes, text / JSON
- ``why``        an unfinished level's obstacle: the nearest unreached surface, and what the feel lacks
- ``difficulty`` how precisely each jump of a route must come: windows, tight moves, a figure per level
- ``plot``       the difficulty curve as a PNG (zlib + struct, no pygame)
- ``feelguard``  the same in the background for the window's F2 panel
"""
