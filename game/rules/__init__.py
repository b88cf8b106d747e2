"""Rules: the game itself, headless — one level's session (death, respawn, coins, checkpoints, goal) and its things.
May import: ``game.files`` and ``engine``; never pygame, never ``game.guard`` or ``game.window``.

- ``session``  the game rules over one level: steps the engine world, the player, objects and events
- ``enemies``  walkers, hoppers, flyers and turrets' shots; ``hazards`` springs, saws, turrets, crushers
- ``blocks``   breakable blocks and crumbling planks; ``vines`` ropes the hero climbs
- ``refills``  dash refill crystals: a spent dash given back, the crystal back after its delay
- ``camera``   framing, look-ahead and bounds (pure numbers; the window draws with it)
- ``profile``  the player's options and totals as values (the save file holds them)
"""
