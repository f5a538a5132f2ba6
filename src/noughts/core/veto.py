"""Veto rules (004 §4.3) over any claim game.

Each turn has two steps. First the opponent of the player about to claim may forbid one empty
cell, or pass (a :class:`Veto` move; ``Veto(None)`` passes). Then the mover claims an empty
cell other than the forbidden one (a plain cell move). If the only empty cell is forbidden,
the game stops there and is judged as at the end of a full board: a draw under standard and
misère rules, by score under cumulative rules, a Breaker win under Maker-Breaker rules.

State: the inner claim game's ``(first_bits, second_bits)`` and the pending veto: ``None``
while the veto step is due, ``-1`` after a pass, or the forbidden cell.

Text form: the inner text form, followed during the claim step by `` !cell`` (the forbidden
cell) or `` !-`` (a pass). Actions: claims ``[0, n)``, vetoes ``n + cell``, pass ``2n``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

from noughts.core.claim import ClaimGame, fixed_cell_sets, outcome_by_score
from noughts.core.codes import Rule
from noughts.core.common import Move, Outcome, Player, Veto
from noughts.core.errors import IllegalMoveError, NotationError
from noughts.core.game import Game, GameProperties, Position

__all__ = ["VetoGame"]

_PASS = -1


class VetoGame(Game):
    """Veto rules wrapped around a claim game; see the module docstring."""

    has_veto_step = True

    def __init__(self, inner: ClaimGame):
        self.inner = inner
        self.line_rule = inner.claim_rule
        self.maker = inner.maker
        self.board = inner.board
        self.spec = f"veto({inner.spec})"
        n = self.board.num_cells
        self.num_actions = 2 * n + 1
        self.properties = GameProperties(
            zero_sum=True,
            has_draws=inner.properties.has_draws,  # a stalled game is judged like a full board
            is_scored=inner.properties.is_scored,
            max_length=2 * n,
        )

    def player_label(self, player: Player) -> str:
        return self.inner.player_label(player)

    # -- the end of a stalled game ----------------------------------------------------------------

    def _stalled_outcome(self, position: Position) -> Outcome:
        rule = self.inner.claim_rule
        if rule is Rule.CUMULATIVE:
            return outcome_by_score(position._aux)
        if rule is Rule.MAKER_BREAKER:
            assert self.maker is not None
            return Outcome.win_for(self.maker.other)
        return Outcome.DRAW

    # -- typed access -----------------------------------------------------------------------------

    def owned(self, position: Position, player: Player) -> int:
        return position.state[player]  # type: ignore[no-any-return]

    def cell_masks(self, position: Position) -> tuple[int, int]:
        return position.state[0], position.state[1]

    def occupied(self, position: Position) -> int:
        state = position.state
        return state[0] | state[1]  # type: ignore[no-any-return]

    def veto_state(self, position: Position) -> tuple[int, int, int | None]:
        """``(first's cells, second's cells, pending)`` in one call, for searches: ``pending`` is
        None at a veto step, -1 after a pass, else the forbidden cell (the parts of a running
        position's :meth:`canonical_key` before symmetry).
        """
        return position.state

    def claimable(self, position: Position, player: Player) -> int:
        veto = self.forbidden_cell(position)
        empty: int = self.board.full_mask & ~(position.state[0] | position.state[1])
        return empty if veto is None else empty & ~(1 << veto)

    def is_veto_step(self, position: Position) -> bool:
        """Whether the next move is a veto (or a pass) rather than a claim."""
        return position._outcome is None and position.state[2] is None

    def forbidden_cell(self, position: Position) -> int | None:
        """The cell the claimer may not take this turn (None at a veto step or after a pass)."""
        veto = position.state[2]
        return None if veto is None or veto == _PASS else veto

    def claimer(self, position: Position) -> Player:
        """Who claims next (at a veto step, the veto is made by the other player)."""
        return self._claimer(position.state)

    def inner_position(self, position: Position) -> Position:
        """The claim-game position of the same marks (the veto step forgotten)."""
        return self._inner_position(position)

    def _inner_position(self, position: Position) -> Position:
        s = position.state
        return Position(self.inner, (s[0], s[1]), self._claimer(s), position._outcome, position._aux)

    @staticmethod
    def _claimer(state: tuple[int, int, int | None]) -> Player:
        return Player.FIRST if state[0].bit_count() == state[1].bit_count() else Player.SECOND

    # -- protocol -------------------------------------------------------------------------------

    def start(self) -> Position:
        inner = self.inner.start()
        return Position(self, (0, 0, None), Player.SECOND, None, inner._aux)

    def legal_moves(self, position: Position) -> list[Move]:
        if position._outcome is not None:
            return []
        b0, b1, veto = position.state
        occupied = b0 | b1
        empty = [c for c in range(self.board.num_cells) if not occupied >> c & 1]
        moves: list[Move]
        if veto is None:
            moves = [Veto(c) for c in empty]
            moves.append(Veto(None))
        else:
            moves = [c for c in empty if c != veto]
        return moves

    def play(self, position: Position, move: Move) -> Position:
        if position._outcome is not None:
            raise IllegalMoveError(f"{self._name(move)} is illegal: the game is over ({position._outcome})")
        b0, b1, veto = position.state
        if veto is None:
            if not isinstance(move, Veto):
                raise IllegalMoveError(
                    f"{self._name(move)} is illegal: it is {self.player_label(position.to_move)}'s veto step; "
                    "forbid a cell (e.g. '!b2') or pass ('pass')"
                )
            if move.cell is None:
                return Position(self, (b0, b1, _PASS), position.to_move.other, None, position._aux)
            cell = move.cell
            if type(cell) is not int or not 0 <= cell < self.board.num_cells:
                raise IllegalMoveError(f"{move!r} does not name a cell of {self.board.spec}")
            if (b0 | b1) >> cell & 1:
                raise IllegalMoveError(f"{self.format_move(move)} is illegal: the cell is already taken")
            occupied = b0 | b1 | (1 << cell)
            after = Position(self, (b0, b1, cell), position.to_move.other, None, position._aux)
            if occupied == self.board.full_mask:  # the only empty cell is forbidden
                return Position(
                    self, (b0, b1, cell), position.to_move.other, self._stalled_outcome(after), position._aux
                )
            return after
        if isinstance(move, Veto):
            raise IllegalMoveError(
                f"{self.format_move(move)} is illegal: the veto step is over; claim a cell"
            )
        if move == veto:
            raise IllegalMoveError(f"{self.format_move(move)} is illegal: the opponent vetoed it this turn")
        after = self.inner.play(self._inner_position(position), move)
        s = after.state
        return Position(self, (s[0], s[1], None), position.to_move, after._outcome, after._aux)

    def _name(self, move: object) -> str:
        try:
            return self.format_move(move)  # type: ignore[arg-type]
        except Exception:
            return repr(move)

    def score(self, position: Position) -> tuple[int, int] | None:
        return self.inner.score(self._inner_position(position))

    # -- symmetry -------------------------------------------------------------------------------

    def canonical_key(self, position: Position) -> Hashable:
        b0, b1, veto = position.state
        t = self.board.transform_mask
        return min(
            (t(b0, p), t(b1, p), veto if veto is None or veto < 0 else p[veto]) for p in self.symmetries
        )

    def symmetric_images(self, position: Position) -> Iterator[Position]:
        b0, b1, veto = position.state
        t = self.board.transform_mask
        for p in self.symmetries:
            v = veto if veto is None or veto < 0 else p[veto]
            yield Position(self, (t(b0, p), t(b1, p), v), position.to_move, position._outcome, position._aux)

    def fixed_action_sets(self) -> tuple[int, dict[frozenset[int], int]] | None:
        """A symmetry moves claims and vetoes of a cell alike and fixes the pass."""
        n = self.board.num_cells
        perms = self.symmetries
        cells = fixed_cell_sets(n, perms)
        return len(perms), {frozenset(s) | {n + c for c in s} | {2 * n}: k for s, k in cells.items()}

    key_columns = ("first_bits", "second_bits", "veto")

    def key_words(self, key: Hashable) -> tuple[int, ...]:
        """The veto word: 0 at a veto step, 1 after a pass, ``cell + 2`` for a forbidden cell."""
        veto = key[2]  # type: ignore[index]
        return (key[0], key[1], 0 if veto is None else veto + 2)  # type: ignore[index]

    @property
    def key_word_bits(self) -> int:
        n = self.board.num_cells
        return max(n, (n + 1).bit_length())

    # -- text -----------------------------------------------------------------------------------

    def marks(self, position: Position) -> list[str]:
        return self.inner.marks(self._inner_position(position))

    def format_position(self, position: Position) -> str:
        text = self.inner.format_position(self._inner_position(position))
        veto = position.state[2]
        if veto is None:
            return text
        return f"{text} !{'-' if veto == _PASS else self.board.cell_name(veto)}"

    def parse(self, text: str) -> Position:
        if not isinstance(text, str):
            raise NotationError(f"a position is text, not {type(text).__name__}")
        body, _, tail = text.strip().partition("!")
        inner = self.inner.parse(body)
        s = inner.state
        if not tail:
            if text.strip().endswith("!"):
                raise NotationError(f"cannot read position {text!r}: '!' must be followed by a cell or '-'")
            return Position(self, (s[0], s[1], None), inner.to_move.other, inner._outcome, inner._aux)
        if inner._outcome is not None:
            raise NotationError(
                f"cannot read position {text!r}: the game is already over, so no veto is pending"
            )
        tail = tail.strip()
        if tail == "-":
            return Position(self, (s[0], s[1], _PASS), inner.to_move, None, inner._aux)
        cell = self.board.parse_cell(tail)
        if (s[0] | s[1]) >> cell & 1:
            raise NotationError(f"cannot read position {text!r}: the vetoed cell {tail} is taken")
        after = Position(self, (s[0], s[1], cell), inner.to_move, None, inner._aux)
        if (s[0] | s[1] | (1 << cell)) == self.board.full_mask:
            return Position(self, after.state, inner.to_move, self._stalled_outcome(after), inner._aux)
        return after

    def render(self, position: Position) -> str:
        text = self.inner.render(self._inner_position(position))
        veto = position.state[2]
        if position._outcome is not None:
            step = ""
        elif veto is None:
            step = f"veto step: {self.inner._marks[position.to_move]} may forbid one empty cell or pass"
        elif veto == _PASS:
            step = "no cell is forbidden this turn"
        else:
            step = f"forbidden this turn: {self.board.cell_name(veto)}"
        return text + ("\n" + step if step else "")

    def notation_help(self) -> str:
        cell = self.board.cell_name(self._example_cell())
        return f"claim a cell, e.g. {cell}; at a veto step forbid one, e.g. !{cell}, or pass"

    def move_json(self, move: Move) -> dict[str, Any]:
        if isinstance(move, Veto):
            cells = [] if move.cell is None else [list(self.board.coords[move.cell])]
            return {"move": self.format_move(move), "cells": cells, "veto": True}
        return self.inner.move_json(move)

    def format_move(self, move: Move) -> str:
        if isinstance(move, Veto):
            return "pass" if move.cell is None else "!" + self.inner.format_move(move.cell)
        return self.inner.format_move(move)

    def parse_move(self, text: str) -> Move:
        s = text.strip().lower()
        if s in ("pass", "!-", "-", "veto pass", "!pass"):
            return Veto(None)
        for prefix in ("!", "veto "):
            if s.startswith(prefix):
                return Veto(self.board.parse_cell(s[len(prefix) :]))
        return self.inner.parse_move(s)

    def action(self, move: Move) -> int:
        n = self.board.num_cells
        if isinstance(move, Veto):
            if move.cell is None:
                return 2 * n
            return n + self.inner.action(move.cell)
        return self.inner.action(move)

    def move(self, action: int) -> Move:
        a = self._check_action(action)
        n = self.board.num_cells
        if a < n:
            return a
        return Veto(None) if a == 2 * n else Veto(a - n)
