"""Files: the formats the game reads and writes (Tiled levels, the level list, feel, input scripts, saves).
May import: ``engine`` only (and the standard library); never pygame, never another layer of ``game``.

- ``levelfile``   Tiled .tmx/.tsx -> LevelData (engine TileGrid + object areas), one-line LevelError
- ``levelkinds``  what a level holds: its records, its limits and the one table of object kinds
- ``catalog``     the levels folder in play order (each map's title, next, music, coins)
- ``inputscript`` the ``COUNT BUTTONS`` input-script format (headless runs, recordings, replays)
- ``feelfile``    feel.toml -> FeelConfig, and the comment-keeping write-back
- ``hotreload``   watches the feel file and adopts good edits
- ``save``        progress.json: unlocked levels, best times, options, totals
- ``userfiles``   safe reads (size caps, no FIFOs) and atomic writes; FileProblem, CliError
"""
