"""Drawing: the window and its pixel-perfect canvas, the tile map, sprites, HUD and debug overlay.

Nothing here steps the simulation or parses files other than images; scenes hand it what to draw.
"""

from .canvas import CANVAS_H, CANVAS_W, Screen

__all__ = ["CANVAS_W", "CANVAS_H", "Screen"]
