"""Blocks that change: crumbling ground and breakable blocks, as runtime tile edits or still platforms.

- ``crumble``: when the player stands on it, it shakes; ``delay`` s later it falls (a ``crumble`` event):
  its tiles are set empty with ``grid.set_tile`` (an object crumble is a still engine ``Platform``, taken
  out of the world). ``respawn`` s after the fall it comes back, but never into an actor: while any actor
  overlaps its box it waits, and returns on the first step that box is clear. ``respawn`` 0 keeps it
  gone, until the player's next respawn. Only the player sets it off (enemies walk on it safely).
- ``breakable``: the player's head bumping it from below (a ``ceiling`` event on its tile or platform)
  breaks it for good (a ``break`` event); one with ``coin`` gives a coin (a ``coin`` event, counted in
  the level's coins).
- When the player respawns, every fallen or shaking crumble comes back (as soon as its box is clear);
  broken blocks stay broken, like coins taken.
"""

from __future__ import annotations

from engine import Actor, Platform, TileKind

__all__ = ["Blocks"]


class Blocks:
    """The level's crumbles and breakables in one world; :meth:`state` is what a step changes."""

    def __init__(self, world, level):
        self.world = world
        grid = world.grid
        self.crumbles = list(level.crumbles)
        self.breakables = list(level.breakables)
        # objects are still platforms; tiles are cells of the grid, remembered as they were
        self.bodies: dict[int, Platform] = {}  # index in crumbles (>= 0) or ~index in breakables -> platform
        self._by_body: dict[Platform, int] = {}
        self._cells: dict[tuple[int, int], int] = {}  # (col, row) -> the same key
        self._kinds: dict[tuple[int, int], TileKind] = {}
        for key, spec in [(i, c) for i, c in enumerate(self.crumbles)] + \
                         [(~i, b) for i, b in enumerate(self.breakables)]:
            if spec.cells:
                for cell in spec.cells:
                    self._cells[cell] = key
                    self._kinds[cell] = grid.kind_at(*cell)
            else:
                body = world.add(Platform(spec.x, spec.y, spec.w, spec.h, one_way=getattr(spec, "one_way", False),
                                          name=spec.name, data=spec))
                self.bodies[key] = body
                self._by_body[body] = key
        n = len(self.crumbles)
        self.shook = [-1] * n  # world step it was first stood on (-1: not shaking)
        self.fell = [-1] * n  # world step it fell (-1: in place)
        self.back = [-1] * n  # world step from which it comes back once clear (-1: never)
        self.broken = [-1] * len(self.breakables)  # world step it broke (-1: whole)
        self.coins = 0  # coins the broken blocks gave

    # -- each step ------------------------------------------------------------------------------------
    def after_step(self, result, player) -> tuple[list, list]:
        """Crumbles shake, fall and come back; head bumps break blocks. Returns (crumbles that fell,
        breakables that broke) as specs, in order."""
        step = self.world.steps
        broke = []
        if player is not None:
            for ev in result.events:
                if ev.actor is player and ev.kind == "ceiling":
                    key = self._by_body.get(ev.other) if ev.other is not None else self._cells.get(ev.tile)
                    if key is not None and key < 0 and self.broken[~key] < 0:
                        broke.append(self.smash(~key))
            i = self._stood_on(player)
            if i is not None and self.shook[i] < 0 and self.fell[i] < 0:
                self.shook[i] = step
        fell = []
        dt = self.world.dt
        for i, spec in enumerate(self.crumbles):
            if self.fell[i] < 0:
                if self.shook[i] >= 0 and step - self.shook[i] >= round(spec.delay / dt):
                    self._remove(i, self.crumbles)
                    self.fell[i] = step
                    self.back[i] = step + round(spec.respawn / dt) if spec.respawn > 0 else -1
                    fell.append(spec)
            elif 0 <= self.back[i] <= step and self._clear(spec):
                self._restore(i, self.crumbles)
                self.shook[i] = self.fell[i] = self.back[i] = -1
        return fell, broke

    def smash(self, i: int):
        """Break breakable ``i`` now (its coin counted); returns its spec."""
        spec = self.breakables[i]
        self._remove(i, self.breakables)
        self.broken[i] = self.world.steps
        self.coins += spec.coin
        return spec

    def _stood_on(self, player) -> int | None:
        """The crumble the player stands on (its first, left to right), or None."""
        ground = player.ground
        if not player.on_ground or ground is None:
            return None
        if ground.platform is not None:
            key = self._by_body.get(ground.platform)
            return key if key is not None and key >= 0 else None
        ts = self.world.grid.tile_size
        row = int((player.y + player.h + 0.5) // ts)
        for col in range(int(player.x // ts), int((player.x + player.w - 1e-6) // ts) + 1):
            key = self._cells.get((col, row))
            if key is not None and key >= 0:
                return key
        return None

    def _clear(self, spec) -> bool:
        return not any(isinstance(o, Actor) for o in self.world.query_rect(spec.x, spec.y, spec.w, spec.h))

    def _remove(self, i: int, specs: list) -> None:
        key = i if specs is self.crumbles else ~i
        body = self.bodies.get(key)
        if body is not None:
            self.world.remove(body)
        for col, row in specs[i].cells:
            self.world.grid.set_tile(col, row, TileKind.EMPTY)

    def _restore(self, i: int, specs: list) -> None:
        key = i if specs is self.crumbles else ~i
        body = self.bodies.get(key)
        if body is not None:
            self.world.add(body)
        for cell in specs[i].cells:
            self.world.grid.set_tile(*cell, self._kinds[cell])

    def carry(self, old: Blocks) -> None:
        """F5: continue ``old``'s blocks (the same run on the map read again, at the same world step): a block
        the map file did not change (an equal spec) stays broken, fallen or shaking; a new or changed one
        is whole."""
        crumbles = {spec: j for j, spec in enumerate(old.crumbles)}
        for i, spec in enumerate(self.crumbles):
            j = crumbles.get(spec)
            if j is not None:
                self.shook[i], self.fell[i], self.back[i] = old.shook[j], old.fell[j], old.back[j]
                if self.fell[i] >= 0:
                    self._remove(i, self.crumbles)
        broken = {spec: j for j, spec in enumerate(old.breakables)}
        for i, spec in enumerate(self.breakables):
            j = broken.get(spec)
            if j is not None and old.broken[j] >= 0:
                self._remove(i, self.breakables)
                self.broken[i] = old.broken[j]
                self.coins += spec.coin

    def reset(self) -> None:
        """The player respawned: fallen crumbles come back (once clear), shaking ones stop."""
        step = self.world.steps
        for i in range(len(self.crumbles)):
            self.shook[i] = -1 if self.fell[i] < 0 else self.shook[i]
            if self.fell[i] >= 0:
                self.back[i] = step

    # -- what is where --------------------------------------------------------------------------------
    def crumble_phase(self, i: int) -> str:
        """"still", "shaking" or "gone"."""
        return "gone" if self.fell[i] >= 0 else "shaking" if self.shook[i] >= 0 else "still"

    # -- snapshots ------------------------------------------------------------------------------------
    def state(self) -> tuple:
        return tuple(self.shook), tuple(self.fell), tuple(self.back), tuple(self.broken), self.coins

    def set_state(self, state: tuple) -> None:
        shook, fell, back, broken, self.coins = state
        self.shook, self.fell, self.back, self.broken = list(shook), list(fell), list(back), list(broken)
