"""The perfect player: plays a best move found by the exact solver.

Best means what :mod:`noughts.exact.reference` defines: the best result for the mover, won as
fast as possible or lost as slowly as possible (under scoring rules, the best final score
difference), and among drawn lines the longest. Among equally good moves the agent takes the
first in ``legal_moves()`` order (``tie_break="first"``, the principal variation's move) or a
uniformly random one (``tie_break="random"``, with the ``rng`` it is given).

The engine is made once per game and kept, with its transposition table, for every later move:
games on up to :data:`noughts.exact.api.PYTHON_SEARCH_CELLS` cells use the Python searcher (ready at once),
larger claim games the compiled kernel where it takes them. With a solved ``table`` every move
is a few look-ups.

>>> import noughts, numpy as np
>>> g = noughts.game("tictactoe")
>>> agent = PerfectAgent()
>>> g.format_move(agent.choose(g.parse("xx./oo./..."), np.random.default_rng(0)))
'c1'
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from noughts.agents.base import read_options
from noughts.core import Game, Move, NoughtsError, Position
from noughts.core.budget import Budget
from noughts.exact.api import ValueOracle, make_engine
from noughts.exact.reference import after_move, move_key
from noughts.exact.retro import RetroTable, load_table
from noughts.exact.table import SolvedTable

__all__ = ["PerfectAgent"]

TIE_BREAKS = ("first", "random")


class PerfectAgent:
    """Plays a best move; see the module docstring.

    ``game`` (optional) prepares the engine ahead of the first move; positions of any other
    game get an engine of their own when they come. ``table`` is a
    :class:`~noughts.exact.table.SolvedTable` or :class:`~noughts.exact.retro.RetroTable`, or the
    path of a saved one. In a game that need not end the engine is its retrograde table (built
    on the first move): a winning move wins fastest, so every move makes progress; a drawing
    move never enters a lost position; a losing move delays the loss longest. ``max_memory`` bounds
    each engine's tables (bytes, None for no limit); there is no time limit.
    """

    def __init__(
        self,
        game: Game | None = None,
        tie_break: str = "first",
        table: SolvedTable | RetroTable | str | os.PathLike[str] | None = None,
        *,
        max_memory: int | None = 2 * 1024**3,
    ):
        if tie_break not in TIE_BREAKS:
            raise NoughtsError(f"tie_break is 'first' or 'random', not {tie_break!r}")
        self.tie_break = tie_break
        self.name = "perfect" if tie_break == "first" else f"perfect:tie={tie_break}"
        loaded: SolvedTable | RetroTable | None
        if table is None or isinstance(table, (SolvedTable, RetroTable)):
            loaded = table
        else:
            loaded = load_table(table, game)
        if loaded is not None and game is not None and loaded.game != game:
            raise NoughtsError(f"the table is one of {loaded.game}, not of {game}")
        self.table = loaded
        self.max_memory = max_memory
        self._engines: dict[Game, ValueOracle] = {}
        if game is not None:
            self.engine(game)

    @classmethod
    def from_options(cls, **options: str) -> PerfectAgent:
        """The agent of a spec like ``perfect:tie=random`` or ``perfect:table=FILE``."""
        o = read_options("perfect", options, {"tie": str, "table": str})
        return cls(tie_break=o.get("tie", "first"), table=o.get("table"))

    def engine(self, game: Game) -> ValueOracle:
        """The engine that answers for ``game`` (made on first use, then kept)."""
        if self.table is not None:
            if self.table.game != game:
                raise NoughtsError(f"this perfect player's table is one of {self.table.game}, not of {game}")
            return self.table
        engine = self._engines.get(game)
        if engine is None:
            budget = Budget(max_seconds=None, max_memory=self.max_memory)
            engine = self._engines[game] = make_engine(game, budget)
        return engine

    def best_moves(self, position: Position) -> list[Move]:
        """Every equally good best move of ``position``, in ``legal_moves()`` order."""
        engine = self.engine(position.game)
        mover = position.to_move
        best: list[Move] = []
        top: Any = None
        for move in position.legal_moves():
            key = move_key(after_move(engine.value(position.play(move))), mover)
            if top is None or key > top:
                best, top = [move], key
            elif key == top:
                best.append(move)
        return best

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        best = self.best_moves(position)
        if not best:
            raise NoughtsError("the game is over: there is no move to choose")
        if self.tie_break == "first" or len(best) == 1:
            return best[0]
        return best[int(rng.integers(len(best)))]

    def __repr__(self) -> str:
        return f"PerfectAgent(tie_break={self.tie_break!r})"
