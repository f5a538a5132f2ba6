"""What the solver returns: values with exact distances, per-move values, budgets.

A position's **value** says who wins from it under perfect play (``Outcome.FIRST``,
``SECOND`` or ``DRAW``) and in how many plies the game then ends: the winner wins as fast as
possible and the loser loses as slowly as possible; for a draw, ``plies`` is the length of the
principal variation. Under scoring rules (cumulative) perfect play maximises the final score
difference, ``score`` is that difference (first player's score minus second's), and the
outcome is its sign.

``plies`` is ``None`` when the engine that answered knows who wins but not how fast: the
misère quotient (:mod:`noughts.exact.quotient`) decides Notakto on many boards by algebra, not
by search, so it reports the outcome and the winning moves and leaves the distance unknown
rather than guess it. Such values compare among themselves by outcome only
(:func:`to_int`), and JSON shows ``"plies": null``.

Inside the search a value is one integer from the side to move's point of view (:func:`to_int`,
:func:`from_int`): a win in ``n`` plies is ``WIN - n``, a loss in ``n`` is ``-(WIN - n)``, a draw
``0``; under scoring rules it is the final score difference from the mover's side. Larger is
better for the mover, so negamax can compare values as integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from noughts.core import Game, Move, Outcome, Player, Position

__all__ = ["UNKNOWN_DISTANCE", "WIN", "MoveValue", "SolveResult", "Value", "from_int", "to_int"]

WIN = 1_000_000
"""The integer value of a win in zero plies; a win in n plies is ``WIN - n``."""

UNKNOWN_DISTANCE = WIN // 2
"""How :func:`to_int` ranks a win (or a loss) whose distance is unknown: after every win of
known distance the search can report, before every loss."""


@dataclass(frozen=True)
class Value:
    """Who wins under perfect play, in how many plies, and (scoring rules) the final score
    difference, first minus second. ``plies`` is None where the engine proved who wins but not
    how fast (the proof engine, :mod:`noughts.proving.proof`).
    """

    outcome: Outcome
    plies: int | None
    """Plies to the end under perfect play; None where the engine knows only the outcome."""
    score: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Who wins (``first``/``second``/``draw``), in how many plies (null: unknown), and the score."""
        return {"value": self.outcome.value, "plies": self.plies, "score": self.score}

    def describe(self, game: Game) -> str:
        """E.g. ``x wins in 5``, ``draw``, ``Breaker (o) wins in 8``, ``draw (score 1-1)``, or
        ``x wins`` when the distance is unknown.
        """
        text = game.outcome_text(self.outcome)
        if self.outcome is not Outcome.DRAW and self.score is None and self.plies is not None:
            text += f" in {self.plies}"
        if self.score is not None:
            text += f" (score difference {self.score:+d})"
        return text


def to_int(value: Value, mover: Player) -> int:
    """The search's integer for ``value`` seen by ``mover`` (see the module docstring)."""
    if value.score is not None:
        return value.score if mover is Player.FIRST else -value.score
    if value.outcome is Outcome.DRAW:
        return 0
    good = UNKNOWN_DISTANCE if value.plies is None else WIN - value.plies
    return good if value.outcome.winner is mover else -good


def from_int(v: int, mover: Player, plies: int, scored: bool) -> Value:
    """The value of the search's integer ``v`` seen by ``mover``; ``plies`` is the PV length,
    used for draws and under scoring rules (where ``v`` carries no distance).
    """
    if scored:
        score = v if mover is Player.FIRST else -v
        outcome = Outcome.DRAW if score == 0 else Outcome.FIRST if score > 0 else Outcome.SECOND
        return Value(outcome, plies, score)
    if v == 0:
        return Value(Outcome.DRAW, plies)
    winner = mover if v > 0 else mover.other
    return Value(Outcome.win_for(winner), WIN - abs(v))


@dataclass(frozen=True)
class MoveValue:
    """One legal move and the value of the position it leads to."""

    move: Move
    value: Value


@dataclass(frozen=True)
class SolveResult:
    """The solver's answer for one position: its value, every legal move's value (best first),
    the principal variation, and what the search cost.

    ``engine`` names the engine that answered (``alpha-beta``: the numba kernel, ``python``:
    the Python search, ``proof``: the proof engine, which proves who wins but not in how many
    plies, ``table``: a solved table, ``quotient``: Notakto's misère quotient, ``retro``:
    retrograde analysis, ``rules``: a finished game; see :func:`noughts.exact.api.engine_name`).
    ``complete`` is False where a budget ran out after the value was proved: ``moves`` then
    holds the moves whose values were proved, of ``moves_total``. ``certificate`` is the header
    of the certificate written, if one was. ``argument`` says how the value was proved where the
    engine says (``breaker``: the Breaker proofs, and strategy stealing from the empty board).
    ``split`` describes a solve split into jobs (:mod:`noughts.exact.split`: the depth, the
    jobs, the workers and their backend).

    Where the distances are unknown (``value.plies is None``), the principal variation is a line
    in which the winner keeps the win and the loser plays its first legal move: its length is
    not a distance.
    """

    game: Game
    position: Position
    value: Value
    moves: tuple[MoveValue, ...]
    pv: tuple[Move, ...]
    nodes: int
    seconds: float
    engine: str = "alpha-beta"
    complete: bool = True
    moves_total: int | None = None
    stopped: str | None = None
    certificate: dict[str, Any] | None = None
    argument: str | None = None
    split: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``solve --json`` document (its schema is in the README); the web API serves it too."""
        game = self.game
        doc = {
            "game": str(game),
            "position": self.position.text(),
            "to_move": self.position.to_move.name.lower(),
            **self.value.to_json(),
            "moves": [{**game.move_json(mv.move), **mv.value.to_json()} for mv in self.moves],
            "pv": [game.format_move(m) for m in self.pv],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "engine": self.engine,
            "complete": self.complete,
            "moves_total": len(self.moves) if self.moves_total is None else self.moves_total,
        }
        if self.stopped is not None:
            doc["stopped"] = self.stopped
        if self.argument is not None:
            doc["argument"] = self.argument
        if self.certificate is not None:
            doc["certificate"] = self.certificate
        if self.split is not None:
            doc["split"] = self.split
        return doc
