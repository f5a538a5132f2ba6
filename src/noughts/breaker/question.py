"""The question a Breaker proof answers, read off a game and a position.

One side, *Maker*, tries to complete a line; the other, *Breaker*, only has to stop it. Two
sets of rules give the question its meaning:

* ``maker_breaker``: Breaker's own lines do not count. Under ``maker_breaker(...)`` games this
  is the game itself (Breaker wins iff Maker never completes a line); on a standard board it is
  the stronger question "can the breaking side stop every line of the other without ever
  using its own?" (002 §2.4, Observation 2).
* ``standard``: the game's own rules: whoever completes a line first ends the game. Breaker
  wins the question iff Maker never completes a line first: the first player (as Maker) cannot
  win. Breaker may use threats of its own, which Maker has to answer.

For a standard game the breaking side is the second player unless asked otherwise, as in
:mod:`noughts.pairing.hypergraph`. Misère, cumulative, veto, Notakto and Otrio rules have no
such question (a clear ``NoughtsError``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from noughts.core import Game, MakerBreakerGame, NoughtsError, Player, Position, Rule
from noughts.core.board import Board

__all__ = ["RULES", "BreakerQuestion", "as_rules_game", "question"]

Rules = Literal["maker_breaker", "standard"]
RULES: tuple[str, ...] = ("maker_breaker", "standard")


@dataclass(frozen=True)
class BreakerQuestion:
    """Whether ``breaker`` can stop ``maker`` from completing a line of ``board`` from this position.

    ``maker_cells``/``breaker_cells``: the sides' cells (bit masks); ``maker_to_move``: whose
    turn it is; ``rules``: see the module docstring.
    """

    game: Game
    position: Position
    board: Board
    maker: Player
    breaker: Player
    rules: str
    maker_cells: int
    breaker_cells: int
    maker_to_move: bool

    def describe(self) -> str:
        """The question in words."""
        maker = self.game.player_label(self.maker)
        breaker = self.game.player_label(self.breaker)
        if self.rules == "standard":
            return f"can {breaker} stop {maker} from completing a line first ({self.game}'s own rules)?"
        return (
            f"can {breaker} stop {maker} from ever completing a line (Maker-Breaker rules on {self.board})?"
        )


def question(
    game: Game, position: Position | None = None, *, breaker: Player | None = None, rules: str | None = None
) -> BreakerQuestion:
    """The Breaker question of ``game`` at ``position`` (the start by default).

    ``breaker``: the breaking side of a standard game (default: the second player); under
    ``maker_breaker(...)`` it must be Breaker. ``rules``: ``maker_breaker`` or ``standard``
    (default: the game's own).
    """
    if position is None:
        position = game.start()
    if rules is not None and rules not in RULES:
        raise NoughtsError(f"rules is maker_breaker or standard, not {rules!r}")
    if game.claim_rule is Rule.MAKER_BREAKER and game.maker is not None:
        if breaker is not None and breaker is game.maker:
            raise NoughtsError(
                f"in {game} the breaking side is Breaker, the {game.maker.other.name.lower()} player"
            )
        if rules == "standard":
            raise NoughtsError(
                f"{game} is played under Maker-Breaker rules; it has no standard-rules question"
            )
        maker = game.maker
        chosen = "maker_breaker"
    elif game.claim_rule is Rule.STANDARD:
        maker = (Player.SECOND if breaker is None else breaker).other
        chosen = rules or "standard"
    else:
        raise NoughtsError(
            f"{game} has no Breaker question: the Breaker prover takes standard and maker_breaker games on one board"
        )
    if position.is_terminal():
        raise NoughtsError(f"the position {position.text()!r} is finished: there is nothing to prove")
    return BreakerQuestion(
        game=game,
        position=position,
        board=game.board,
        maker=maker,
        breaker=maker.other,
        rules=chosen,
        maker_cells=position.owned(maker),
        breaker_cells=position.owned(maker.other),
        maker_to_move=position.to_move is maker,
    )


def as_rules_game(q: BreakerQuestion) -> Position:
    """The question's position in a game played by its rules, with Maker and Breaker as they are
    (a ``maker_breaker`` question on a standard board becomes a ``maker_breaker(...)`` game,
    with ``breaker_first=true`` where Breaker is the first player). The cells are replayed in
    turn; where Breaker has touched every line before the last of them, the game ends there, a
    position Breaker has won.
    """
    if q.rules == "standard" or q.game.claim_rule is Rule.MAKER_BREAKER:
        return q.position
    mb = MakerBreakerGame(q.board, breaker_first=q.breaker is Player.FIRST)
    board = q.board
    first = board.cells_in(q.position.owned(Player.FIRST))
    second = board.cells_in(q.position.owned(Player.SECOND))
    position = mb.start()
    for i in range(len(first) + len(second)):
        if position.is_terminal():
            break
        position = position.play(first[i // 2] if i % 2 == 0 else second[i // 2])
    return position
