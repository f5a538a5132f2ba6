"""Notakto (004 §4.4): both players draw ``x`` on any live board of several copies of a board.

A board is *dead* once it holds a whole line of ``x`` (or, on boards that can fill up without
one, once it is full); no one may play on a dead board. Whoever kills the last live board
loses (misère play, the game of 004 and of Plambeck and Whitehead). With ``misere=False``
(spec ``notakto(misere=false)``) whoever kills the last live board wins instead: the
normal-play game, whose theory is Sprague-Grundy's. There are no draws.

State: one bit mask of ``x`` cells per board. Moves are :class:`NotaktoMove` values; the
action of ``NotaktoMove(b, c)`` is ``b * cells + c``. Text form: the boards' text forms
separated by ``;``. People write moves as ``b2`` on one board and ``2:b2`` (board 2) on more.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable, Iterator
from typing import Any

from noughts.core.board import Board
from noughts.core.claim import fixed_cell_sets
from noughts.core.common import Move, NotaktoMove, Outcome, Player
from noughts.core.errors import IllegalMoveError, NotationError
from noughts.core.game import Game, GameProperties, Layout, Position
from noughts.core.text import format_grid, parse_grid, render_grid

__all__ = ["MAX_BOARDS", "NotaktoGame"]

MAX_BOARDS = 16
_DEAD = -1  # a dead board in canonical keys: every dead board is alike


class NotaktoGame(Game):
    """Notakto on ``boards`` copies of ``board``; see the module docstring."""

    cell_moves = True
    board_sum = True

    def __init__(self, board: Board, boards: int = 1, misere: bool = True):
        self.board = board
        self.boards = boards
        self.misere = misere
        """Whoever kills the last live board loses (True) or wins (False)."""
        default = board.spec == "mnk(3,3,3)"
        args = (
            ([] if default else [board.spec])
            + ([] if boards == 1 else [f"boards={boards}"])
            + ([] if misere else ["misere=false"])
        )
        self.spec = f"notakto({','.join(args)})" if args else "notakto"
        n = board.num_cells
        self.num_actions = boards * n
        longest = board.num_cells  # a board dies at the latest when it is full
        self.properties = GameProperties(
            zero_sum=True, has_draws=False, is_scored=False, max_length=boards * longest, same_marks=True
        )
        self.layout = Layout(boards=boards)
        self.key_columns = ("to_move",) + tuple(f"board{b + 1}" for b in range(boards))

    def player_label(self, player: Player) -> str:
        return f"{player} player"

    def is_dead(self, bits: int) -> bool:
        """Whether a board with these marks is dead (holds a line, or is full)."""
        return bits == self.board.full_mask or any(bits & m == m for m in self.board.line_masks)

    # -- typed access -----------------------------------------------------------------------------

    def board_marks(self, position: Position) -> tuple[int, ...]:
        """Each board's ``x`` cells, as bit masks, board by board."""
        return position.state

    def live_boards(self, position: Position) -> tuple[int, ...]:
        """The indices of the boards still in play."""
        return tuple(b for b, bits in enumerate(position.state) if not self.is_dead(bits))

    # -- protocol -------------------------------------------------------------------------------

    def start(self) -> Position:
        return Position(self, (0,) * self.boards, Player.FIRST, None, self.boards)

    def legal_moves(self, position: Position) -> list[Move]:
        if position._outcome is not None:
            return []
        n = self.board.num_cells
        moves: list[Move] = []
        for b, bits in enumerate(position.state):
            if not self.is_dead(bits):
                moves.extend(NotaktoMove(b, c) for c in range(n) if not bits >> c & 1)
        return moves

    def play(self, position: Position, move: Move) -> Position:
        if not isinstance(move, NotaktoMove):
            raise IllegalMoveError(f"{move!r} is not a Notakto move; moves are NotaktoMove(board, cell)")
        if position._outcome is not None:
            raise IllegalMoveError(f"{self._name(move)} is illegal: the game is over ({position._outcome})")
        b, c = move.board, move.cell
        if not (type(b) is int and 0 <= b < self.boards and type(c) is int and 0 <= c < self.board.num_cells):
            raise IllegalMoveError(f"{move!r} is not a cell of {self.spec}")
        bits = position.state[b]
        if self.is_dead(bits):
            raise IllegalMoveError(f"{self.format_move(move)} is illegal: board {b + 1} is dead")
        if bits >> c & 1:
            raise IllegalMoveError(f"{self.format_move(move)} is illegal: the cell is taken")
        bits |= 1 << c
        state = position.state[:b] + (bits,) + position.state[b + 1 :]
        live = position._aux
        if any(bits & m == m for m in self.board.masks_through[c]) or bits == self.board.full_mask:
            live -= 1
        killer = position.to_move  # the player who killed the last board, if this move did
        outcome = None if live else Outcome.win_for(killer.other if self.misere else killer)
        return Position(self, state, position.to_move.other, outcome, live)

    def _name(self, move: object) -> str:
        try:
            return self.format_move(move)  # type: ignore[arg-type]
        except Exception:
            return repr(move)

    # -- symmetry -------------------------------------------------------------------------------

    def board_key(self, bits: int) -> int:
        """One board's part of :meth:`canonical_key`: its least image under the board's
        symmetries, or -1 for every dead board alike.
        """
        if self.is_dead(bits):
            return _DEAD
        t = self.board.transform_mask
        return min(t(bits, p) for p in self.symmetries)

    def canonical_key(self, position: Position) -> Hashable:
        """Boards are interchangeable and dead boards all alike: the side to move (which dead
        boards no longer show) and the sorted per-board keys.
        """
        return (position.to_move, *sorted(self.board_key(bits) for bits in position.state))

    def symmetric_images(self, position: Position) -> Iterator[Position]:
        """Each board under each of its symmetries, and each swap of two boards."""
        t = self.board.transform_mask
        state = position.state
        for b in range(self.boards):
            for p in self.symmetries:
                img = state[:b] + (t(state[b], p),) + state[b + 1 :]
                yield Position(self, img, position.to_move, position._outcome, position._aux)
        for i, j in itertools.combinations(range(self.boards), 2):
            swapped = list(state)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            yield Position(self, tuple(swapped), position.to_move, position._outcome, position._aux)

    def fixed_action_sets(self) -> tuple[int, dict[frozenset[int], int]] | None:
        """The group is every board's symmetry group independently together with every
        permutation of the boards (G wr S_boards): a permutation sigma of the boards and a
        symmetry g_b per board fix action (b, c) iff sigma(b) = b and g_b(c) = c.
        """
        n = self.board.num_cells
        boards = self.boards
        fixed_cells = fixed_cell_sets(n, self.symmetries)
        order_g = sum(fixed_cells.values())
        order = order_g**boards * math.factorial(boards)
        sets: Counter[frozenset[int]] = Counter()
        choices = list(fixed_cells.items())
        for size in range(boards + 1):
            # permutations of the boards fixing exactly a given set of `size` boards
            perms_fixing = _derangements(boards - size) * order_g ** (boards - size)
            for fixed_boards in itertools.combinations(range(boards), size):
                for picks in itertools.product(choices, repeat=size):
                    actions = frozenset(
                        b * n + c for b, (cells, _) in zip(fixed_boards, picks, strict=True) for c in cells
                    )
                    weight = perms_fixing * math.prod(k for _, k in picks)
                    sets[actions] += weight
        assert sum(sets.values()) == order
        return order, dict(sets)

    def key_words(self, key: Hashable) -> tuple[int, ...]:
        """The side to move, then each board's key plus one (0 for a dead board)."""
        return (int(key[0]),) + tuple(k + 1 for k in key[1:])  # type: ignore[index]

    @property
    def key_word_bits(self) -> int:
        return self.board.num_cells + 1

    # -- text -----------------------------------------------------------------------------------

    def _chars(self, bits: int) -> list[str]:
        return ["x" if bits >> c & 1 else "." for c in range(self.board.num_cells)]

    def marks(self, position: Position) -> list[str]:
        return [ch for bits in position.state for ch in self._chars(bits)]

    def format_position(self, position: Position) -> str:
        return ";".join(format_grid(self.board, self._chars(bits)) for bits in position.state)

    def parse(self, text: str) -> Position:
        if not isinstance(text, str):
            raise NotationError(f"a position is text, not {type(text).__name__}")
        parts = text.strip().split(";")
        if len(parts) != self.boards:
            raise NotationError(
                f"cannot read position {text!r}: found {len(parts)} boards separated by ';', expected {self.boards}"
            )
        state = []
        for part in parts:
            chars = parse_grid(self.board, part, "x.")
            state.append(sum(1 << c for c, ch in enumerate(chars) if ch == "x"))
        # a dead board was killed by its last move, so removing some cell must revive it
        for b, bits in enumerate(state):
            if self.is_dead(bits) and not any(
                not self.is_dead(bits & ~(1 << c)) for c in range(self.board.num_cells) if bits >> c & 1
            ):
                raise NotationError(f"cannot read position {text!r}: no game reaches board {b + 1}")
        total = sum(bits.bit_count() for bits in state)
        live = sum(1 for bits in state if not self.is_dead(bits))
        to_move = Player.FIRST if total % 2 == 0 else Player.SECOND
        outcome = None if live else Outcome.win_for(to_move if self.misere else to_move.other)
        return Position(self, tuple(state), to_move, outcome, live)

    def render(self, position: Position) -> str:
        blocks = []
        for b, bits in enumerate(position.state):
            body = render_grid(self.board, self._chars(bits))
            title = f"board {b + 1}" + (" (dead)" if self.is_dead(bits) else "")
            w = max(len(line) for line in body + [title])
            blocks.append([title.ljust(w)] + [line.ljust(w) for line in body])
        height = max(len(b) for b in blocks)
        lines = []
        for i in range(0, len(blocks), 4):
            group = blocks[i : i + 4]
            for j in range(height):
                lines.append("   ".join(b[j] if j < len(b) else " " * len(b[0]) for b in group).rstrip())
        return "\n".join(lines)

    def notation_help(self) -> str:
        cell = self.board.cell_name(self._example_cell())
        if self.boards == 1:
            return f"a cell, e.g. {cell}"
        return f"a board number, ':' and a cell, e.g. 2:{cell} (board 2, cell {cell})"

    def move_json(self, move: Move) -> dict[str, Any]:
        if not isinstance(move, NotaktoMove):
            raise NotationError(f"{move!r} is not a Notakto move")
        return {
            "move": self.format_move(move),
            "cells": [list(self.board.coords[move.cell])],
            "board": move.board,
        }

    def format_move(self, move: Move) -> str:
        if not isinstance(move, NotaktoMove):
            raise NotationError(f"{move!r} is not a Notakto move")
        cell = self.board.cell_name(move.cell)
        return cell if self.boards == 1 else f"{move.board + 1}:{cell}"

    def parse_move(self, text: str) -> Move:
        s = text.strip().lower()
        board_text, sep, cell_text = s.partition(":")
        if not sep:
            if self.boards != 1:
                raise NotationError(
                    f"cannot read {text!r}: name the board too, e.g. '2:b2' (boards 1-{self.boards})"
                )
            return NotaktoMove(0, self.board.parse_cell(s))
        if not (board_text.isascii() and board_text.isdigit()) or not 1 <= int(board_text) <= self.boards:
            raise NotationError(f"cannot read {text!r}: the board number must be 1-{self.boards}")
        return NotaktoMove(int(board_text) - 1, self.board.parse_cell(cell_text))

    def action(self, move: Move) -> int:
        if not isinstance(move, NotaktoMove) or not (
            0 <= move.board < self.boards and 0 <= move.cell < self.board.num_cells
        ):
            raise NotationError(f"{move!r} is not a move of {self.spec}")
        return move.board * self.board.num_cells + move.cell

    def move(self, action: int) -> Move:
        a = self._check_action(action)
        return NotaktoMove(*divmod(a, self.board.num_cells))


def _derangements(m: int) -> int:
    d = [1, 0]
    for i in range(2, m + 1):
        d.append((i - 1) * (d[-1] + d[-2]))
    return d[m]
