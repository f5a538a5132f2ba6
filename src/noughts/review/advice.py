"""Help on any board: the exact solver's answer where it finishes in its budget, else the
engine's view of every move under a clock.

:func:`advise` is what the terminal's ``hint`` (in ``noughts play``) and ``noughts explain`` ask:
first the exact solver (:func:`noughts.solving.solve`) within ``solve_seconds``; where it stops
on its budget and the game is a claim game, the engine's view of every legal move
(:meth:`noughts.agents.engine.EngineAgent.move_values`, the arena's overlay) within
``engine_seconds``. Every engine value is an estimate except where the engine proved it (its
``proven`` is ``"win"`` or ``"loss"``); :class:`Advice` keeps which is which.

>>> import noughts
>>> a = advise(noughts.game("tictactoe"), None, solve_seconds=10)
>>> a.exact is not None, a.engine
(True, ())
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from noughts.core import Game, LimitExceeded, NoughtsError, Position

if TYPE_CHECKING:
    from noughts.agents.engine import EngineAgent, EngineResult
    from noughts.core.values import SolveResult
    from noughts.exact.api import Steps

__all__ = ["DEFAULT_ENGINE_SECONDS", "Advice", "advise", "default_solve_seconds", "engine_results_json"]

DEFAULT_ENGINE_SECONDS = 1.5
"""The engine's clock where the solver stops: about the arena's overlay time."""

SOLVE_SECONDS = 60.0
"""The solver's default budget (``explain``'s ``--max-seconds``)."""

WIDE_MOVES = 50
"""Past this many legal moves a claim position is, in practice, past the solver's reach (8x8 and
larger boards, 4x4x4, 7x7x7): its default budget is :data:`WIDE_SOLVE_SECONDS`, so that the
engine's view comes after seconds, not a minute. Review's ``auto`` estimator draws its line here
too (``review/estimators.py``)."""

WIDE_SOLVE_SECONDS = 5.0
"""The solver's default budget on a wide claim position (see :data:`WIDE_MOVES`)."""


def default_solve_seconds(game: Game, position: Position | str | None) -> float:
    """The solver's default budget for :func:`advise` on ``position``: :data:`SOLVE_SECONDS`, or
    :data:`WIDE_SOLVE_SECONDS` on a claim game's position with more than :data:`WIDE_MOVES`
    legal moves, where the engine's view is the likely answer.

    >>> import noughts
    >>> default_solve_seconds(noughts.game("tictactoe"), None)
    60.0
    >>> default_solve_seconds(noughts.game("mnk(15,15,5)"), None)
    5.0
    """
    p = game.parse(position) if isinstance(position, str) else (position or game.start())
    if game.claim_rule is not None and len(p.legal_moves()) > WIDE_MOVES:
        return WIDE_SOLVE_SECONDS
    return SOLVE_SECONDS


@dataclass(frozen=True)
class Advice:
    """What is known of a position's moves: the solver's result (``exact``), or, where the solver
    stopped (``stopped`` says why), the engine's view of every move, best first (``engine``,
    each an :class:`~noughts.agents.engine.EngineResult`: ``proven`` set only on a proof).
    """

    game: Game
    position: Position
    exact: SolveResult | None
    engine: tuple[EngineResult, ...]
    stopped: str | None
    engine_seconds: float

    @property
    def estimate(self) -> bool:
        """True when the answer is the engine's and its best move is not proven."""
        return self.exact is None and (not self.engine or self.engine[0].proven is None)

    def best_moves(self) -> list[str]:
        """The best moves in notation: the solver's best value, else the engine's top label."""
        if self.exact is not None:
            moves = self.exact.moves
            return [self.game.format_move(m.move) for m in moves if moves and m.value == moves[0].value]
        if not self.engine:
            return []
        top = self.engine[0].label()
        return [self.game.format_move(r.move) for r in self.engine if r.label() == top]

    def describe(self) -> str:
        """The answer in words for the mover, saying whether it is proven or the engine's estimate."""
        if self.exact is not None:
            return f"{self.exact.value.describe(self.game)} with perfect play"
        mover = self.game.player_label(self.position.to_move)
        if not self.engine:
            return "no moves"
        best = self.engine[0]
        if best.proven == "win":
            return f"{mover} wins (proven by the engine{_in_plies(best.plies)})"
        if all(r.proven == "loss" for r in self.engine):
            return f"{mover} loses (every move proven lost by the engine)"
        text = f"the engine's estimate {best.label()} for {mover} (-1 lost, +1 won), not a proof"
        losses = sum(1 for r in self.engine if r.proven == "loss")
        if losses:
            text += f"; {losses} {'move is a proven loss' if losses == 1 else 'moves are proven losses'}"
        return text

    def to_json(self) -> dict[str, Any]:
        """The solver's document where it finished; else the engine's view (``"estimate"``)."""
        if self.exact is not None:
            return dict(self.exact.to_json())
        return {
            "game": str(self.game),
            "position": self.position.text(),
            "complete": False,
            "stopped": self.stopped,
            "engine": engine_results_json(self.game, self.engine),
            "estimate": self.estimate,
            "best": self.best_moves(),
            "describe": self.describe(),
            "seconds": self.engine_seconds,
        }


def _in_plies(plies: int | None) -> str:
    return "" if plies is None else f" in {plies} {'ply' if plies == 1 else 'plies'}"


def engine_results_json(
    game: Game, results: tuple[EngineResult, ...] | list[EngineResult]
) -> list[dict[str, Any]]:
    """Each engine result as a document: move, value (-1 to 1 for the mover), label, proven, plies, rank."""
    return [
        {
            "move": game.format_move(r.move),
            "value": round(r.value, 3),
            "label": r.label(),
            "proven": r.proven,
            "plies": r.plies,
            "rank": rank,
        }
        for rank, r in enumerate(results, 1)
    ]


def advise(
    game: Game,
    position: Position | str | None,
    *,
    solve_seconds: float | None,
    engine_seconds: float = DEFAULT_ENGINE_SECONDS,
    max_memory: int | None = None,
    max_cpu_seconds: float | None = None,
    table: Any = None,
    progress: Steps | None = None,
    engine: EngineAgent | None = None,
) -> Advice:
    """The solver's answer within ``solve_seconds`` (and ``max_memory`` bytes, ``max_cpu_seconds``),
    else, on a claim game, the engine's view within ``engine_seconds`` (see the module
    docstring). ``engine``: an engine to reuse (its table warm between calls). The solver's
    ``LimitExceeded`` is raised again where the engine cannot help (not a claim game, or the
    game is over). ``progress``: the solve's (:data:`noughts.exact.api.Steps`).
    """
    from noughts.solving import solve

    if not engine_seconds > 0:
        raise NoughtsError(f"the engine's clock is a number of seconds above 0, not {engine_seconds}")
    p = game.parse(position) if isinstance(position, str) else (position or game.start())
    options: dict[str, Any] = {"max_seconds": solve_seconds, "table": table, "progress": progress}
    if max_memory is not None:
        options["max_memory"] = max_memory
    if max_cpu_seconds is not None:
        options["max_cpu_seconds"] = max_cpu_seconds
    try:
        result = solve(game, p, **options)
    except LimitExceeded as error:
        if game.claim_rule is None or p.is_terminal():
            raise
        from noughts.agents.engine import VIEW_TABLE, EngineAgent

        agent = engine or EngineAgent(tt=VIEW_TABLE)
        started = time.perf_counter()
        results = agent.move_values(p, engine_seconds)
        return Advice(game, p, None, tuple(results), str(error), time.perf_counter() - started)
    return Advice(game, p, result, (), None, 0.0)
