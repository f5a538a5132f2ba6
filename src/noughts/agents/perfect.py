"""The perfect player: plays a best move found by the exact solver.

Best means what :mod:`noughts.exact.reference` defines: the best result for the mover, won as
fast as possible or lost as slowly as possible (under scoring rules, the best final score
difference), and among drawn lines the longest. Among equally good moves the agent takes the
first in ``legal_moves()`` order (``tie_break="first"``, the principal variation's move) or a
uniformly random one (``tie_break="random"``, with the ``rng`` it is given).

The engines are those of the one policy (:class:`noughts.solving.PolicyOracle`, so the player
answers every position with the engine and value ``noughts.solve`` gives it), made once per game
and kept, with their tables, for every later move: games on up to
:data:`noughts.exact.engines.PYTHON_SEARCH_CELLS` cells use the Python searcher (ready at once),
larger claim games the compiled kernel, interleaved with the provers past its horizon (whose
values say who wins, not how fast: a winning move there wins, not necessarily fastest). With a
solved ``table`` every move is a few look-ups.

**Under a clock** (``perfect:seconds=S``, or a budget given to :meth:`PerfectAgent.decide`) the
solver gets half the time; if it does not finish, the agent plays its **fallback**'s move in the
time left and says so: the :class:`~noughts.agents.base.Decision` is ``proven=False`` with a
note ("not proven: ..."). The fallback is a hook (default
:func:`noughts.agents.fallback.clocked_move`, MCTS or minimax under the clock), so a game is
never left without a move.

>>> import noughts, numpy as np
>>> g = noughts.game("tictactoe")
>>> agent = PerfectAgent()
>>> g.format_move(agent.choose(g.parse("xx./oo./..."), np.random.default_rng(0)))
'c1'
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from noughts.agents.base import Decision, read_options
from noughts.core import Game, LimitExceeded, Move, NoughtsError, Position
from noughts.core.budget import Budget
from noughts.core.values import Value
from noughts.exact.api import ValueOracle
from noughts.exact.reference import after_move, move_key
from noughts.exact.table import SolvedTable, load_table
from noughts.retrograde.analysis import RetroTable
from noughts.solving import PolicyOracle

__all__ = ["SOLVER_SHARE", "Fallback", "PerfectAgent"]

TIE_BREAKS = ("first", "random")

SOLVER_SHARE = 0.5
"""The share of a move's time limit the solver may take before the fallback plays."""

Fallback = Callable[[Position, np.random.Generator, Budget], Decision]
"""A move under a clock: ``fallback(position, rng, budget) -> Decision``."""


def _default_fallback(position: Position, rng: np.random.Generator, budget: Budget) -> Decision:
    from noughts.agents.fallback import clocked_move

    return clocked_move(position, rng, budget)


class PerfectAgent:
    """Plays a best move; see the module docstring.

    ``game`` (optional) prepares the engine ahead of the first move; positions of any other
    game get an engine of their own when they come. ``table`` is a
    :class:`~noughts.exact.table.SolvedTable` or :class:`~noughts.retrograde.analysis.RetroTable`, or the
    path of a saved one. In a game that need not end the engine is its retrograde table (built
    on the first move): a winning move wins fastest, so every move makes progress; a drawing
    move never enters a lost position; a losing move delays the loss longest. ``max_memory``
    bounds each engine's tables (bytes, None for no limit). :meth:`choose` has no time limit;
    :meth:`decide` with a budget does (see the module docstring), and ``fallback`` is what it
    plays when the solver runs out of time.
    """

    def __init__(
        self,
        game: Game | None = None,
        tie_break: str = "first",
        table: SolvedTable | RetroTable | str | os.PathLike[str] | None = None,
        *,
        max_memory: int | None = 2 * 1024**3,
        fallback: Fallback | None = None,
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
        self.fallback: Fallback = fallback or _default_fallback
        self._engines: dict[Game, PolicyOracle] = {}
        if game is not None:
            self.engine(game)

    @classmethod
    def from_options(cls, **options: str) -> PerfectAgent:
        """The agent of a spec like ``perfect:tie=random`` or ``perfect:table=FILE``."""
        o = read_options("perfect", options, {"tie": str, "table": str})
        return cls(tie_break=o.get("tie", "first"), table=o.get("table"))

    def engine(self, game: Game) -> ValueOracle:
        """The engine that answers for ``game`` (made on first use, then kept): the table, or
        the one policy's engines (:class:`~noughts.solving.PolicyOracle`).
        """
        if self.table is not None:
            if self.table.game != game:
                raise NoughtsError(f"this perfect player's table is one of {self.table.game}, not of {game}")
            return self.table
        return self.policy(game)

    def policy(self, game: Game) -> PolicyOracle:
        """The policy's engines of ``game`` (made on first use, then kept with their tables)."""
        engine = self._engines.get(game)
        if engine is None:
            budget = Budget(max_seconds=None, max_memory=self.max_memory)
            engine = self._engines[game] = PolicyOracle(game, budget)
        return engine

    def best_moves(self, position: Position) -> list[Move]:
        """Every equally good best move of ``position``, in ``legal_moves()`` order."""
        return self._best(position, self.engine(position.game).value)

    def _best(self, position: Position, value: Callable[[Position], Value]) -> list[Move]:
        mover = position.to_move
        best: list[Move] = []
        top: Any = None
        for move in position.legal_moves():
            key = move_key(after_move(value(position.play(move))), mover)
            if top is None or key > top:
                best, top = [move], key
            elif key == top:
                best.append(move)
        return best

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        return self._choose(position, rng, self.engine(position.game).value)

    def _choose(
        self, position: Position, rng: np.random.Generator, value: Callable[[Position], Value]
    ) -> Move:
        best = self._best(position, value)
        if not best:
            raise NoughtsError("the game is over: there is no move to choose")
        if self.tie_break == "first" or len(best) == 1:
            return best[0]
        return best[int(rng.integers(len(best)))]

    def decide(self, position: Position, rng: np.random.Generator, budget: Budget | None = None) -> Decision:
        """A best move, proven; or, when ``budget`` has a time limit and the solver does not
        finish within :data:`SOLVER_SHARE` of it, the fallback's move in the time left, not proven.
        """
        started = time.perf_counter()
        left = None if budget is None else budget.remaining()
        if left is None or self.table is not None:
            return Decision(self.choose(position, rng), True, "", time.perf_counter() - started)
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to choose")
        engine = self.policy(position.game)  # built once per game: its time is the move's too
        left = max(0.0, budget.remaining() or 0.0)  # type: ignore[union-attr]  # a time limit, checked above
        solver_seconds = SOLVER_SHARE * left
        clock = Budget(max_seconds=solver_seconds, max_memory=self.max_memory)
        try:
            move = self._choose(position, rng, lambda p: engine.value_within(p, clock))
            return Decision(move, True, "", time.perf_counter() - started)
        except LimitExceeded:
            pass
        rest = Budget(max_seconds=max(0.0, budget.remaining() or 0.0), max_memory=None)  # type: ignore[union-attr]
        decision = self.fallback(position, rng, rest)
        note = f"not proven: the solver did not finish in {solver_seconds:.3g} s; {decision.note or 'the fallback'}'s move"
        return Decision(decision.move, False, note, time.perf_counter() - started)

    def __repr__(self) -> str:
        return f"PerfectAgent(tie_break={self.tie_break!r})"
