"""The games the arena serves: every spec sized before any board is built, built games shared.

Every endpoint that takes a spec passes it through :func:`check_game`. The spec is read and its
size computed from its numbers (:func:`noughts.core.size.spec_size`); a board over
:attr:`Limits.max_cells` cells or :attr:`Limits.max_lines` lines is refused then, in
microseconds, with nothing built and nothing kept. A spec that passes is built once and kept in
:data:`GAMES`, a cache keyed by the spec as parsed (:func:`noughts.core.size.spec_key`: spaces
make no new entries) whose entries are the canonical games (``tictactoe`` and ``mnk(3,3,3)``
share one), bounded by the cells and lines of the boards it holds, least recently used first
out. Games are values, so one object per game is shared by every request.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import noughts
from noughts.core import Game, NoughtsError
from noughts.core.size import SpecSize, spec_key, spec_size
from noughts.web.limits import Limits

__all__ = ["GAMES", "GameCache", "check_game", "check_size"]


class GameCache:
    """Built games by spec key, at most ``weight`` cells and lines of boards held in all."""

    def __init__(self, weight: int = 60_000, aliases: int = 1024):
        self.weight = weight
        self.max_aliases = aliases
        self._aliases: OrderedDict[str, str] = OrderedDict()  # spec key -> canonical spec
        self._games: OrderedDict[str, tuple[Game, int]] = OrderedDict()  # canonical -> game, weight
        self._held = 0
        self._lock = threading.Lock()

    @property
    def held(self) -> int:
        """The cells and lines of the boards held now."""
        return self._held

    def __len__(self) -> int:
        return len(self._games)

    def games(self) -> list[Game]:
        """The games held, least recently used first."""
        with self._lock:
            return [game for game, _ in self._games.values()]

    def get(self, spec: str) -> Game:
        """The game ``spec`` names, built at most once while it stays in the cache."""
        key = spec_key(spec)
        with self._lock:
            canonical = self._aliases.get(key)
            if canonical is not None and canonical in self._games:
                self._aliases.move_to_end(key)
                self._games.move_to_end(canonical)
                return self._games[canonical][0]
        game = noughts.game(key)
        canonical = str(game)
        board = game.board
        weight = board.num_cells + len(board.lines)
        with self._lock:
            held = self._games.get(canonical)
            if held is not None:
                game = held[0]
                self._games.move_to_end(canonical)
            else:
                self._games[canonical] = (game, weight)
                self._held += weight
            self._aliases[key] = canonical
            self._aliases.move_to_end(key)
            while len(self._aliases) > self.max_aliases:
                self._aliases.popitem(last=False)
            while self._held > self.weight and len(self._games) > 1:
                _, (_, w) = self._games.popitem(last=False)
                self._held -= w
        return game

    def clear(self) -> None:
        """Forget every game (tests)."""
        with self._lock:
            self._aliases.clear()
            self._games.clear()
            self._held = 0


GAMES = GameCache()
"""The arena's built games (every arena of the process shares them: games are values)."""


def check_size(spec: str, limits: Limits) -> SpecSize | None:
    """The size of ``spec`` if the arena serves it; ``NoughtsError`` (``SpecError`` for a spec
    that cannot be read) if its board is over the limits. Builds nothing.
    """
    size = spec_size(spec)
    if size is None:
        return None
    name = " ".join(spec.split())
    if size.cells > limits.max_cells:
        raise NoughtsError(
            f"{name} has {size.cells} cells; the arena serves boards of at most {limits.max_cells}"
        )
    if size.lines > limits.max_lines:
        raise NoughtsError(
            f"{name} has {size.lines:,} lines; the arena serves boards of at most {limits.max_lines:,}"
        )
    return size


def check_game(spec: str, limits: Limits) -> Game:
    """The game a spec names, if the arena serves it (see the module docstring)."""
    check_size(spec, limits)
    game = GAMES.get(spec)
    if game.board.num_cells > limits.max_cells:  # a spec the sizing could not read, built cheaply
        raise NoughtsError(
            f"{game} has {game.board.num_cells} cells; the arena serves boards of at most {limits.max_cells}"
        )
    return game
