"""The reference solver: a plain memoised minimax over the public position API.

Small and obviously right, and deliberately trusting nothing: it uses only ``legal_moves``,
``play``, ``is_terminal``, ``outcome`` and ``score``, keys its memo by the position itself (not
by the canonical key, so a wrong symmetry cannot hide a wrong value), and searches every move
(no pruning). The fast engines (:mod:`noughts.exact.search`, the numba kernel, solved tables)
are tested against it on every reachable position of the small games.

What a value is (the definition every engine shares; see :mod:`noughts.core.values`):

* A finished position is worth its outcome in 0 plies (under scoring rules, with its final
  score difference, first minus second).
* Otherwise the side to move picks the move that is best for it, comparing the values the
  moves lead to with one ply added: a win beats a draw beats a loss; a faster win beats a
  slower one and a slower loss a faster one (:func:`noughts.core.values.to_int`); under
  scoring rules a larger final score difference for the mover is better, whatever the length.
* Among moves of equal worth, the **longest** line counts: ``plies`` of a draw (or of a scored
  value) is the length of the longest game in which both sides only ever play best moves. This
  makes ``plies`` a property of the position, equal on symmetric images, so solved tables can
  store it once per symmetry class. (It matters only where drawn games can end at different
  lengths, as under veto rules, where a game stops early when the only empty cell is vetoed;
  for a win or a loss the distance decides already.)
* The **principal variation** starts with the first move in ``legal_moves()`` order among the
  moves of equal worth and equal length (:func:`move_key`), and so on to the end of the game;
  its length is the value's ``plies``.

Veto rules need nothing special: the vetoer is the side to move at a veto step, and its
objective, like every mover's, is its own result.

The reference stays a plain recursion, one call per ply, and is bounded instead: it follows
games of at most :data:`MAX_PLIES` plies, which Python's default recursion limit (1,000 frames)
holds with room to spare for its callers, and refuses deeper ones with ``LimitExceeded``. It
never changes the recursion limit (the engines run on explicit stacks and take every game).
"""

from __future__ import annotations

from noughts.core import Game, LimitExceeded, Player, Position
from noughts.core.values import Value, to_int

__all__ = ["MAX_PLIES", "after_move", "move_key", "reference_values", "terminal_value"]

MAX_PLIES = 400
"""The longest line of play :func:`reference_values` follows (its recursion depth)."""


def terminal_value(position: Position) -> Value:
    """The value of a finished position: its outcome in 0 plies (and its score difference)."""
    outcome = position.outcome()
    if outcome is None:
        raise ValueError(f"position {position.text()!r} has not ended")
    score = position.score()
    if position.game.properties.is_scored:
        if score is None:
            raise ValueError(f"{position.game} is scored but position {position.text()!r} has no score")
        return Value(outcome, 0, score[0] - score[1])
    return Value(outcome, 0)


def after_move(child: Value) -> Value:
    """The value of a move as its mover sees it: the value of the position it leads to, one
    ply further away (an unknown distance stays unknown).
    """
    return Value(child.outcome, None if child.plies is None else child.plies + 1, child.score)


def move_key(value: Value, mover: Player) -> tuple[int, int]:
    """How good a move worth ``value`` (:func:`after_move`) is for ``mover``: larger is better.

    The worth (:func:`noughts.core.values.to_int`, which ranks faster wins and slower losses
    first), then the length of the line (longest first; an unknown length counts as -1, so
    moves of unknown distance tie and keep their order).
    """
    return (to_int(value, mover), -1 if value.plies is None else value.plies)


def reference_values(game: Game, start: Position | None = None) -> dict[Position, Value]:
    """The exact value of every position reachable from ``start`` (the game's start by default).

    A memoised depth-first minimax over every move; the memo is keyed by the position itself.
    """
    if start is None:
        start = game.start()
    elif start.game != game:
        raise ValueError(f"the position belongs to {start.game}, not {game}")
    memo: dict[Position, Value] = {}

    def value(position: Position, depth: int) -> Value:
        known = memo.get(position)
        if known is not None:
            return known
        if position.is_terminal():
            result = terminal_value(position)
        else:
            if depth >= MAX_PLIES:
                raise LimitExceeded(
                    f"the reference follows lines of at most {MAX_PLIES} plies; a line of {game} "
                    f"from {start.text()!r} runs longer (use noughts.solve, whose engines take any length)"
                )
            mover = position.to_move
            best: Value | None = None
            best_key = (0, 0)
            for move in position.legal_moves():
                candidate = after_move(value(position.play(move), depth + 1))
                key = move_key(candidate, mover)
                if best is None or key > best_key:
                    best, best_key = candidate, key
            if best is None:
                raise ValueError(f"position {position.text()!r} has not ended but has no legal move")
            result = best
        memo[position] = result
        return result

    value(start, 0)
    return memo
