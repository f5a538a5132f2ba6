"""Otrio (004 §3.2) for two players, as the claim game it is underneath.

Each of the 9 cells of a 3x3 board has three slots, one per ring size (small, medium,
large); each player owns three rings of each size. A player wins with three own rings of one
size in a line, all three sizes of own rings in one cell, or own rings small-medium-large in
order along a line. Taking the ring size as a third coordinate, these 24 + 9 + 16 = 49 wins
are exactly the 49 lines of the 3x3x3 cube (002 Lemma 2.1), so Otrio is standard 3x3x3
tic-tac-toe in which each player may claim at most three cells of each size layer. If all
18 rings are placed without a win, the game is a draw.

Moves are :class:`Ring` values; the integer action of ``Ring(cell, size)`` is ``3*cell+size``,
which is also the cube cell of that slot (coordinates row, column, size).
"""

from __future__ import annotations

from typing import Any

from noughts.core.board import hypercube, mnk
from noughts.core.claim import StandardGame
from noughts.core.codes import Rule
from noughts.core.common import Cell, Move, Outcome, Player, Ring
from noughts.core.errors import IllegalMoveError, NotationError
from noughts.core.game import GameProperties, Layout, Position

__all__ = ["OtrioGame"]

SIZES = ("small", "medium", "large")
_SIZE_LETTERS = "sml"
RINGS_PER_SIZE = 3


class OtrioGame(StandardGame):
    """Two-player Otrio; see the module docstring."""

    cell_moves = False  # a move is a ring: a cell and a size
    claim_rule = None  # the ring quotas are no claim rule: the claim kernels do not play Otrio
    line_rule = Rule.STANDARD  # a line of the cube wins

    def __init__(self) -> None:
        super().__init__(hypercube(3, 3))
        self.spec = "otrio"
        self.plane = mnk(3, 3, 3)
        self.layout = Layout(plane=self.plane, slots=SIZES)
        self.properties = GameProperties(zero_sum=True, has_draws=True, is_scored=False, max_length=18)
        self._layers = tuple(sum(1 << (3 * c + s) for c in range(9)) for s in range(3))
        # symmetries of the cube that keep the size axis (the quotas are per size): 16 of 48
        layer_set = set(self._layers)
        t = self.board.transform_mask
        self._symmetries = tuple(
            p for p in self.board.symmetries if {t(m, p) for m in self._layers} == layer_set
        )

    @property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        return self._symmetries

    def _make_spec(self) -> str:
        return "otrio"

    def _after_claim(
        self, mover: Player, cell: Cell, mine: int, theirs: int, full: bool, aux: Any
    ) -> tuple[Outcome | None, Any]:
        outcome, _ = super()._after_claim(mover, cell, mine, theirs, full, aux)
        if outcome is None and (mine | theirs).bit_count() == 18:
            outcome = Outcome.DRAW
        return outcome, None

    def _judge(self, bits: tuple[int, int]) -> tuple[Outcome | None, Any]:
        outcome, _ = super()._judge(bits)
        if outcome is None and (bits[0] | bits[1]).bit_count() == 18:
            outcome = Outcome.DRAW
        return outcome, None

    def legal_moves(self, position: Position) -> list[Move]:
        if position._outcome is not None:
            return []
        b0, b1 = position.state
        mine = b0 if position.to_move is Player.FIRST else b1
        occupied = b0 | b1
        sizes_left = [(mine & layer).bit_count() < RINGS_PER_SIZE for layer in self._layers]
        return [Ring(s // 3, s % 3) for s in range(27) if sizes_left[s % 3] and not occupied >> s & 1]

    def play(self, position: Position, move: Move) -> Position:
        if not isinstance(move, Ring) or not (0 <= move.cell < 9 and 0 <= move.size < 3):
            raise IllegalMoveError(f"{move!r} is not an Otrio move; moves are Ring(cell 0-8, size 0-2)")
        if position._outcome is not None:
            raise IllegalMoveError(
                f"{self.format_move(move)} is illegal: the game is over ({position._outcome})"
            )
        mine = position.state[position.to_move]
        if (mine & self._layers[move.size]).bit_count() >= RINGS_PER_SIZE:
            raise IllegalMoveError(
                f"{self.format_move(move)} is illegal: {self._marks[position.to_move]} has no "
                f"{SIZES[move.size]} ring left"
            )
        return self._claim(position, 3 * move.cell + move.size)

    @property
    def symmetry_count(self) -> int:
        return len(self._symmetries)

    def notation_help(self) -> str:
        return "a cell and a ring size s, m or l, e.g. b2m (a medium ring on b2)"

    def _cell_label(self, cell: Cell) -> str:
        return self.format_move(Ring(cell // 3, cell % 3))

    def rings_left(self, position: Position, player: Player) -> tuple[int, int, int]:
        """How many rings of each size ``player`` still holds."""
        mine = position.state[player]
        small, medium, large = (RINGS_PER_SIZE - (mine & layer).bit_count() for layer in self._layers)
        return small, medium, large

    def pieces_left(self, position: Position, player: Player) -> tuple[int, ...] | None:
        return self.rings_left(position, player)

    def claimable(self, position: Position, player: Player) -> int:
        """The empty slots of the ring sizes ``player`` still holds."""
        mine = position.state[player]
        cells: int = self.board.full_mask & ~(position.state[0] | position.state[1])
        for layer in self._layers:
            if (mine & layer).bit_count() >= RINGS_PER_SIZE:
                cells &= ~layer
        return cells

    # -- text -----------------------------------------------------------------------------------

    def format_position(self, position: Position) -> str:
        chars = self.marks(position)
        cells = ["".join(chars[3 * c : 3 * c + 3]) for c in range(9)]
        return "/".join(",".join(cells[3 * r : 3 * r + 3]) for r in range(3))

    def parse(self, text: str) -> Position:
        if not isinstance(text, str):
            raise NotationError(f"a position is text, not {type(text).__name__}")
        rows = text.strip().lower().split("/")
        cells = [cell for row in rows for cell in row.split(",")]
        if len(rows) != 3 or any(len(r.split(",")) != 3 for r in rows) or any(len(c) != 3 for c in cells):
            raise NotationError(
                f"cannot read Otrio position {text!r}: write 3 rows separated by '/', each of 3 cells "
                "separated by ',', each cell its small, medium and large slot, e.g. 'x..,...,.../...,.o.,.../...,...,...'"
            )
        chars = [ch for cell in cells for ch in cell]
        bad = next((ch for ch in chars if ch not in "xo."), None)
        if bad is not None:
            raise NotationError(f"cannot read Otrio position {text!r}: {bad!r} is not 'x', 'o' or '.'")
        for mark in self._marks:
            for s in range(3):
                if sum(1 for i in range(s, 27, 3) if chars[i] == mark) > RINGS_PER_SIZE:
                    raise NotationError(
                        f"cannot read Otrio position {text!r}: {mark} has more than 3 {SIZES[s]} rings"
                    )
        return self._from_marks(chars, text)

    def render(self, position: Position) -> str:
        chars = self.marks(position)
        lines = ["   a   b   c"]
        for r in range(3):
            lines.append(
                f"{r + 1}  "
                + " ".join("".join(chars[3 * (3 * r + c) : 3 * (3 * r + c) + 3]) for c in range(3))
            )
        left = [self.rings_left(position, p) for p in Player]
        lines.append("each cell shows its small, medium, large slot")
        for p, rem in zip(Player, left, strict=True):
            lines.append(
                f"{self._marks[p]} holds: " + ", ".join(f"{n} {SIZES[s]}" for s, n in enumerate(rem))
            )
        return "\n".join(lines)

    def move_json(self, move: Move) -> dict[str, Any]:
        if not isinstance(move, Ring):
            raise NotationError(f"{move!r} is not an Otrio move")
        return {
            "move": self.format_move(move),
            "cells": [list(self.plane.coords[move.cell])],
            "size": SIZES[move.size],
        }

    def format_move(self, move: Move) -> str:
        if not isinstance(move, Ring) or not (0 <= move.cell < 9 and 0 <= move.size < 3):
            raise NotationError(f"{move!r} is not an Otrio move")
        return self.plane.cell_name(move.cell) + _SIZE_LETTERS[move.size]

    def parse_move(self, text: str) -> Move:
        s = text.strip().lower().replace(":", "").replace(" ", "")
        for s_index, word in enumerate(SIZES):
            if s.endswith(word):
                s = s[: -len(word)] + _SIZE_LETTERS[s_index]
        if len(s) < 3 or s[-1] not in _SIZE_LETTERS:
            raise NotationError(
                f"cannot read {text!r} as an Otrio move: write a cell and a ring size s, m or l, e.g. 'b2m'"
            )
        return Ring(self.plane.parse_cell(s[:-1]), _SIZE_LETTERS.index(s[-1]))

    def action(self, move: Move) -> int:
        if not isinstance(move, Ring) or not (0 <= move.cell < 9 and 0 <= move.size < 3):
            raise NotationError(f"{move!r} is not an Otrio move")
        return 3 * move.cell + move.size

    def move(self, action: int) -> Move:
        a = self._check_action(action)
        return Ring(a // 3, a % 3)
