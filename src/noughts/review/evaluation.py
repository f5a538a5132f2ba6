"""What a review says about a position: an exact value, or an estimate labelled with its engine.

An :class:`Evaluation` is absolute (who wins, not who is to move) and carries:

* ``source``: ``exact`` (the solver, or a solved table) or ``estimate`` (an engine's guess);
* ``outcome``: who wins under perfect play (exact), or the result an estimator has *proven*
  (a minimax search that sees a forced win inside its horizon, an MCTS solver's proof), else
  None;
* ``plies``: how many plies the game then lasts, or None where it is not known (a proof
  without distances, an engine that does not count them, a solved quotient);
* ``score``: under scoring rules, the final score difference (first minus second);
* ``eval``: one number in [-1, 1] from the first player's side, for graphs: 1 a first-player
  win, -1 a second-player win, 0 a draw (scoring rules: the sign of the score difference); an
  estimate that proves nothing lies strictly between -1 and 1;
* ``by``: ``exact``, or the estimator's label (``minimax:depth=2``).

Moves are ranked for the player who makes them by :func:`rank`: first the result (win, draw,
loss; scoring rules: the sign of the final score difference), then, within a result, a faster
win or a slower loss (scoring rules: the larger margin). The length of a draw does not count,
and a distance that is not known ranks equal to any other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from noughts.core import Game, Outcome, Player

__all__ = ["ESTIMATE", "EXACT", "Evaluation", "Rank", "rank"]

EXACT = "exact"
ESTIMATE = "estimate"

_SIGN = {Outcome.FIRST: 1.0, Outcome.SECOND: -1.0, Outcome.DRAW: 0.0}


@dataclass(frozen=True)
class Evaluation:
    """A position's value (exact) or an engine's estimate of it; see the module docstring."""

    source: str
    outcome: Outcome | None
    plies: int | None
    score: int | None
    eval: float
    by: str

    @staticmethod
    def exact(value: Any) -> Evaluation:
        """From the solver's :class:`~noughts.core.values.Value` (``plies`` may be None)."""
        outcome: Outcome = value.outcome
        score = getattr(value, "score", None)
        sign = _SIGN[outcome] if score is None else float((score > 0) - (score < 0))
        return Evaluation(EXACT, outcome, getattr(value, "plies", None), score, sign, EXACT)

    @staticmethod
    def estimate(
        eval: float, by: str, *, outcome: Outcome | None = None, plies: int | None = None
    ) -> Evaluation:
        """An estimator's view: ``eval`` in [-1, 1] from the first player's side, and a result it
        proved, if any (its ``eval`` is then that result's: 1, 0 or -1).
        """
        if outcome is not None:
            eval = _SIGN[outcome]
        elif not math.isfinite(eval):
            raise ValueError(f"an estimate is a finite number, not {eval!r}")
        else:
            eval = max(-0.99, min(0.99, float(eval)))
        return Evaluation(ESTIMATE, outcome, plies, None, eval, by)

    @property
    def is_exact(self) -> bool:
        return self.source == EXACT

    def for_player(self, player: Player) -> float:
        """``eval`` from ``player``'s side."""
        return self.eval if player is Player.FIRST else -self.eval

    def after_move(self) -> Evaluation:
        """The value of the position before a move whose child has this value (one ply more)."""
        plies = None if self.plies is None else self.plies + 1
        return Evaluation(self.source, self.outcome, plies, self.score, self.eval, self.by)

    def text(self, game: Game) -> str:
        """As people read it: ``x wins in 5``, ``draw``, ``x wins`` (distance not known, or the
        game is over), ``x wins by 2`` (scoring rules: the final score difference); an estimate
        that proves nothing: ``x +0.42`` (the side it favours and by how much on [-1, 1]) or
        ``even``.
        """
        if self.outcome is None:
            if abs(self.eval) < 0.005:
                return "even"
            leader = Player.FIRST if self.eval > 0 else Player.SECOND
            return f"{game.player_label(leader)} +{abs(self.eval):.2f}"
        text = game.outcome_text(self.outcome)
        if self.score is not None:
            return text if self.score == 0 else f"{text} by {abs(self.score)}"
        if self.outcome is not Outcome.DRAW and self.plies:  # a finished game: no "in 0"
            text += f" in {self.plies}"
        return text

    def describe(self, game: Game) -> str:
        """:meth:`text`, and for an estimate the engine that made it."""
        text = self.text(game)
        return text if self.is_exact else f"{text} (estimate by {self.by})"

    def to_json(self, game: Game) -> dict[str, Any]:
        """``source``, ``by``, ``value`` (``first``/``second``/``draw`` or null), ``plies``,
        ``score``, ``eval`` and ``text`` (:meth:`text`).
        """
        return {
            "source": self.source,
            "by": self.by,
            "value": None if self.outcome is None else self.outcome.value,
            "plies": self.plies,
            "score": self.score,
            "eval": round(self.eval, 4),
            "text": self.text(game),
        }


@dataclass(frozen=True)
class Rank:
    """How good a move's result is for its mover: ``result`` 1 win, 0 draw, -1 loss (None: not
    proven, estimates only), ``margin`` larger is better within a result (None: not known).
    """

    result: int | None
    margin: float | None


def rank(child: Evaluation, mover: Player) -> Rank:
    """The rank of a move, for ``mover``, whose resulting position is worth ``child``."""
    if child.score is not None:
        mine = child.score if mover is Player.FIRST else -child.score
        return Rank((mine > 0) - (mine < 0), float(mine))
    if child.outcome is None:
        return Rank(None, child.for_player(mover))
    winner = child.outcome.winner
    if winner is None:
        return Rank(0, 0.0)
    if child.plies is None:
        return Rank(1 if winner is mover else -1, None)
    return Rank(1, -float(child.plies)) if winner is mover else Rank(-1, float(child.plies))
