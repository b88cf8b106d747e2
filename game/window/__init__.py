"""Window: everything pygame — the app loop, scenes, drawing, input devices, audio, particles, the F2 panel.
May import: ``game.guard``, ``game.rules``, ``game.files`` and ``engine`` (every layer below it).

- ``app``        the main loop: poll input -> fixed steps -> draw with alpha
- ``scenes/``    title, level select, play, pause, options, level complete, ending
- ``render/``    canvas, tile map, sprites, HUD, debug overlay
- ``input``      keyboard and pads -> actions, the bindings file; ``audio`` music and effects
- ``tuning``     the F2 feel panel; ``particles``; ``ui`` text and menu drawing
"""
