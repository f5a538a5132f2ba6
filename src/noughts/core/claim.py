"""Claim games: players alternately claim empty cells of one board.

The four outcome rules differ only in how a claim ends the game, so they share one engine
(:class:`ClaimGame`) and each overrides two small hooks: ``_after_claim`` (incremental, after
one move) and ``_judge`` (from scratch, for parsed positions).

* standard: the first to own a whole line wins; a full board is a draw.
* ``misere``: the first to own a whole line loses; a full board is a draw (004 §4.2).
* ``maker_breaker``: Maker wins by owning a line; Breaker wins once every line holds a Breaker
  cell (no *survivor* is left); no draws (002 §2.3).
* ``cumulative``: play until the board is full; each player scores the lines they own; the
  higher score wins, equal scores draw (000 §2.1, §3.1.2).

State of a position: ``(first_bits, second_bits)``, one bit mask of claimed cells per player.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator
from typing import Any

from noughts.core.board import Board
from noughts.core.codes import Rule
from noughts.core.common import Cell, Move, Outcome, Player
from noughts.core.errors import IllegalMoveError, NotationError
from noughts.core.game import Game, GameProperties, Position
from noughts.core.text import format_grid, parse_grid, render_grid

__all__ = [
    "ClaimGame",
    "CumulativeGame",
    "MakerBreakerGame",
    "MisereGame",
    "StandardGame",
    "outcome_by_score",
]

_FIRST, _SECOND = Player.FIRST, Player.SECOND


class ClaimGame(Game):
    """Shared engine of the claim games; see the module docstring."""

    rules_name = "standard"
    has_draws = True
    is_scored = False
    claim_rule: Rule | None = Rule.STANDARD
    cell_moves = True
    line_rule: Rule | None = Rule.STANDARD
    key_columns = ("first_bits", "second_bits")

    def __init__(self, board: Board):
        self.board = board
        self.spec = self._make_spec()
        self.num_actions = board.num_cells
        self.properties = GameProperties(
            zero_sum=True,
            has_draws=self.has_draws,
            is_scored=self.is_scored,
            max_length=board.num_cells,
        )
        self._cell_bits = tuple((c, 1 << c) for c in range(board.num_cells))
        self._marks = self._player_marks()

    def _make_spec(self) -> str:
        return f"{self.rules_name}({self.board.spec})"

    def player_label(self, player: Player) -> str:
        return self._marks[player]

    def _player_marks(self) -> tuple[str, str]:
        """The mark each player draws, FIRST's then SECOND's."""
        return ("x", "o")

    # -- rules hooks ----------------------------------------------------------------------------

    def _initial_aux(self) -> Any:
        return None

    def _after_claim(
        self, mover: Player, cell: Cell, mine: int, theirs: int, full: bool, aux: Any
    ) -> tuple[Outcome | None, Any]:
        """Outcome (or None) and new aux after ``mover`` claimed ``cell``; ``mine`` includes it."""
        raise NotImplementedError

    def _judge(self, bits: tuple[int, int]) -> tuple[Outcome | None, Any]:
        """Outcome (or None) and aux of any position, computed from scratch."""
        raise NotImplementedError

    def _has_line(self, bits: int) -> bool:
        return any(bits & m == m for m in self.board.line_masks)

    # -- protocol -------------------------------------------------------------------------------

    def cell_owners(self, position: Position) -> list[int]:
        """Per cell, the index of the player who claimed it (0 first, 1 second), -1 where it is
        empty: what the search kernels' drivers load a position from.
        """
        owners = [-1] * self.board.num_cells
        for player in (Player.FIRST, Player.SECOND):
            bits = self.owned(position, player)
            while bits:
                low = bits & -bits
                owners[low.bit_length() - 1] = int(player)
                bits ^= low
        return owners

    def claim_aux(self, position: Position) -> tuple[int, int]:
        """The two aux values the claim kernels judge the next claim with beside the masks
        (:func:`noughts.kernels.claim.claim_after`'s ``aux0``, ``aux1``): the survivors under
        Maker-Breaker rules (and 0), the two scores under cumulative rules, ``(0, 0)`` otherwise.
        """
        score = position.score()
        return (0, 0) if score is None else score

    def owned(self, position: Position, player: Player) -> int:
        return position.state[player]  # type: ignore[no-any-return]

    def cell_masks(self, position: Position) -> tuple[int, int]:
        return position.state

    def occupied(self, position: Position) -> int:
        state = position.state
        return state[0] | state[1]  # type: ignore[no-any-return]

    def start(self) -> Position:
        return Position(self, (0, 0), _FIRST, None, self._initial_aux())

    def legal_moves(self, position: Position) -> list[Move]:
        if position._outcome is not None:
            return []
        state = position.state
        return self.board.cells_in(self.board.full_mask & ~(state[0] | state[1]))  # type: ignore[return-value]

    def play(self, position: Position, move: Move) -> Position:
        if position._outcome is not None:
            raise IllegalMoveError(
                f"{self._name_of(move)} is illegal: the game is over ({position._outcome})"
            )
        if type(move) is not int or not 0 <= move < self.num_actions:
            raise IllegalMoveError(f"{move!r} is not a cell of {self.board.spec}")
        return self._claim(position, move)

    def _claim(self, position: Position, cell: Cell) -> Position:
        bit = 1 << cell
        b0, b1 = position.state
        if (b0 | b1) & bit:
            owner = self._marks[0] if b0 & bit else self._marks[1]
            raise IllegalMoveError(f"{self._cell_label(cell)} is illegal: the cell is taken by {owner}")
        mover = position.to_move
        full = (b0 | b1 | bit) == self.board.full_mask
        if mover is _FIRST:
            b0 |= bit
            outcome, aux = self._after_claim(mover, cell, b0, b1, full, position._aux)
        else:
            b1 |= bit
            outcome, aux = self._after_claim(mover, cell, b1, b0, full, position._aux)
        return Position(self, (b0, b1), mover.other, outcome, aux)

    def _cell_label(self, cell: Cell) -> str:
        """A claimed cell as people write the move that claims it."""
        return self.format_move(cell)

    def _name_of(self, move: object) -> str:
        try:
            return self.format_move(move)  # type: ignore[arg-type]
        except Exception:
            return repr(move)

    # -- symmetry -------------------------------------------------------------------------------

    def canonical_key(self, position: Position) -> Hashable:
        b0, b1 = position.state[0], position.state[1]
        t = self.board.transform_mask
        return min((t(b0, p), t(b1, p)) for p in self.symmetries) + position.state[2:]

    def symmetric_images(self, position: Position) -> Iterator[Position]:
        t = self.board.transform_mask
        b0, b1 = position.state[0], position.state[1]
        for p in self.symmetries:
            state = (t(b0, p), t(b1, p)) + position.state[2:]
            yield Position(self, state, position.to_move, position._outcome, position._aux)

    def fixed_action_sets(self) -> tuple[int, dict[frozenset[int], int]] | None:
        """A symmetry moves the claim of cell ``c`` to the claim of ``perm[c]`` (Otrio too: its
        action is the cube cell of the ring).
        """
        perms = self.symmetries
        return len(perms), dict(fixed_cell_sets(self.board.num_cells, perms))

    def key_words(self, key: Hashable) -> tuple[int, ...]:
        return (key[0], key[1])  # type: ignore[index]

    @property
    def key_word_bits(self) -> int:
        return self.board.num_cells

    # -- text -----------------------------------------------------------------------------------

    def marks(self, position: Position) -> list[str]:
        b0, b1 = position.state[0], position.state[1]
        m0, m1 = self._marks
        return [m0 if b0 & b else m1 if b1 & b else "." for _, b in self._cell_bits]

    def format_position(self, position: Position) -> str:
        return format_grid(self.board, self.marks(position))

    def parse(self, text: str) -> Position:
        if not isinstance(text, str):
            raise NotationError(f"a position is text, not {type(text).__name__}")
        chars = parse_grid(self.board, text, "xo.")
        return self._from_marks(chars, text)

    def _from_marks(self, chars: list[str], text: str) -> Position:
        m0, m1 = self._marks
        b0 = sum(1 << c for c, ch in enumerate(chars) if ch == m0)
        b1 = sum(1 << c for c, ch in enumerate(chars) if ch == m1)
        n0, n1 = b0.bit_count(), b1.bit_count()
        if n0 - n1 not in (0, 1):
            raise NotationError(
                f"cannot read position {text!r}: {m0} has {n0} marks and {m1} has {n1}, but players "
                f"alternate and {m0} moves first, so {m0} has as many marks as {m1} or one more"
            )
        to_move = _FIRST if n0 == n1 else _SECOND
        outcome, aux = self._judge((b0, b1))
        if outcome is not None and n0 + n1 > 0:
            self._check_reachable((b0, b1), to_move.other, text)
        return Position(self, (b0, b1), to_move, outcome, aux)

    def _check_reachable(self, bits: tuple[int, int], last: Player, text: str) -> None:
        """A finished position is reachable only if some last move could have finished it."""
        mine = bits[last]
        b = mine
        while b:
            low = b & -b
            b ^= low
            before = (bits[0] & ~low, bits[1]) if last is _FIRST else (bits[0], bits[1] & ~low)
            if self._judge(before)[0] is None:
                return
        raise NotationError(
            f"cannot read position {text!r}: no game reaches it (the game would have ended before the last move)"
        )

    def render(self, position: Position) -> str:
        lines = render_grid(self.board, self.marks(position))
        return "\n".join(lines + self._status_lines(position))

    def _status_lines(self, position: Position) -> list[str]:
        return []

    def format_move(self, move: Move) -> str:
        if type(move) is not int or not 0 <= move < self.num_actions:
            raise NotationError(f"{move!r} is not a cell of {self.board.spec}")
        return self.board.cell_name(move)

    def parse_move(self, text: str) -> Move:
        return self.board.parse_cell(text)

    def notation_help(self) -> str:
        cell = self.format_move(self._example_cell())
        if self.board.names is not None:
            return f"a point's name, e.g. {cell}"
        if self.board.dims == 2:
            return f"a column letter and a row number (row 1 at the top), e.g. {cell}"
        return f"1-based coordinates separated by commas, e.g. {cell}"

    def action(self, move: Move) -> int:
        if type(move) is not int or not 0 <= move < self.num_actions:
            raise NotationError(f"{move!r} is not a move of {self.spec}")
        return move

    def move(self, action: int) -> Move:
        return self._check_action(action)


class StandardGame(ClaimGame):
    """Standard rules: the first to own a whole line wins; a full board is a draw."""

    def _make_spec(self) -> str:
        return self.board.spec

    def _after_claim(
        self, mover: Player, cell: Cell, mine: int, theirs: int, full: bool, aux: Any
    ) -> tuple[Outcome | None, Any]:
        for m in self.board.masks_through[cell]:
            if mine & m == m:
                return (Outcome.FIRST if mover is _FIRST else Outcome.SECOND), None
        return (Outcome.DRAW if full else None), None

    def _judge(self, bits: tuple[int, int]) -> tuple[Outcome | None, Any]:
        w0, w1 = self._has_line(bits[0]), self._has_line(bits[1])
        if w0 and w1:
            return Outcome.DRAW, None  # both lines: unreachable, rejected by _check_reachable
        if w0:
            return Outcome.FIRST, None
        if w1:
            return Outcome.SECOND, None
        full = (bits[0] | bits[1]) == self.board.full_mask
        return (Outcome.DRAW if full else None), None


class MisereGame(ClaimGame):
    """Misère rules: the first to own a whole line loses; a full board is a draw (004 §4.2)."""

    rules_name = "misere"
    claim_rule = Rule.MISERE
    line_rule = Rule.MISERE

    def _after_claim(
        self, mover: Player, cell: Cell, mine: int, theirs: int, full: bool, aux: Any
    ) -> tuple[Outcome | None, Any]:
        for m in self.board.masks_through[cell]:
            if mine & m == m:
                return (Outcome.SECOND if mover is _FIRST else Outcome.FIRST), None
        return (Outcome.DRAW if full else None), None

    def _judge(self, bits: tuple[int, int]) -> tuple[Outcome | None, Any]:
        w0, w1 = self._has_line(bits[0]), self._has_line(bits[1])
        if w0 and w1:
            return Outcome.DRAW, None
        if w0:
            return Outcome.SECOND, None
        if w1:
            return Outcome.FIRST, None
        full = (bits[0] | bits[1]) == self.board.full_mask
        return (Outcome.DRAW if full else None), None


class MakerBreakerGame(ClaimGame):
    """Maker-Breaker rules (002 §2.3): Maker draws ``x`` and wins by owning a whole line;
    Breaker draws ``o`` and wins once no line can still be completed by Maker (every line holds
    a Breaker cell). Maker moves first unless ``breaker_first``. There are no draws.

    The aux value of a position is the number of *survivors*: lines Breaker has not touched.
    """

    rules_name = "maker_breaker"
    has_draws = False
    claim_rule = Rule.MAKER_BREAKER
    line_rule = Rule.MAKER_BREAKER
    maker: Player

    def __init__(self, board: Board, breaker_first: bool = False):
        self.breaker_first = breaker_first
        self.maker = _SECOND if breaker_first else _FIRST
        self.breaker = self.maker.other
        super().__init__(board)

    def _make_spec(self) -> str:
        extra = ",breaker_first=true" if self.breaker_first else ""
        return f"maker_breaker({self.board.spec}{extra})"

    def _player_marks(self) -> tuple[str, str]:
        return ("o", "x") if self.breaker_first else ("x", "o")

    def player_label(self, player: Player) -> str:
        role = "Maker" if player is self.maker else "Breaker"
        return f"{role} ({self._marks[player]})"

    def _initial_aux(self) -> Any:
        return len(self.board.lines)

    def claim_aux(self, position: Position) -> tuple[int, int]:
        return self.survivors(position), 0

    def survivors(self, position: Position) -> int:
        """The lines Breaker has not touched yet (Maker could still complete them)."""
        return position._aux  # type: ignore[no-any-return]

    def _after_claim(
        self, mover: Player, cell: Cell, mine: int, theirs: int, full: bool, aux: Any
    ) -> tuple[Outcome | None, Any]:
        if mover is self.maker:
            for m in self.board.masks_through[cell]:
                if mine & m == m:
                    return Outcome.win_for(mover), aux
            return None, aux
        before = mine & ~(1 << cell)
        survivors = aux - sum(1 for m in self.board.masks_through[cell] if not before & m)
        return (Outcome.win_for(mover) if survivors == 0 else None), survivors

    def _judge(self, bits: tuple[int, int]) -> tuple[Outcome | None, Any]:
        maker_bits, breaker_bits = bits[self.maker], bits[self.breaker]
        survivors = sum(1 for m in self.board.line_masks if not breaker_bits & m)
        if self._has_line(maker_bits):
            return Outcome.win_for(self.maker), survivors
        if survivors == 0:
            return Outcome.win_for(self.breaker), survivors
        return None, survivors

    def _status_lines(self, position: Position) -> list[str]:
        return [f"Maker x, Breaker o; lines Breaker has not touched: {position._aux}"]


class CumulativeGame(ClaimGame):
    """Cumulative rules (000 §2.1, §3.1.2): play until the board is full; each player scores
    the number of lines they own completely; the higher score wins, equal scores draw.

    The aux value of a position is the running score ``(first, second)``.
    """

    rules_name = "cumulative"
    is_scored = True
    claim_rule = Rule.CUMULATIVE
    line_rule = Rule.CUMULATIVE

    def _initial_aux(self) -> Any:
        return (0, 0)

    def _after_claim(
        self, mover: Player, cell: Cell, mine: int, theirs: int, full: bool, aux: Any
    ) -> tuple[Outcome | None, Any]:
        gained = 0
        for m in self.board.masks_through[cell]:
            if mine & m == m:
                gained += 1
        if gained:
            aux = (aux[0] + gained, aux[1]) if mover is _FIRST else (aux[0], aux[1] + gained)
        return (outcome_by_score(aux) if full else None), aux

    def _judge(self, bits: tuple[int, int]) -> tuple[Outcome | None, Any]:
        s0, s1 = (sum(1 for m in self.board.line_masks if b & m == m) for b in bits)
        scores = (s0, s1)
        full = (bits[0] | bits[1]) == self.board.full_mask
        return (outcome_by_score(scores) if full else None), scores

    def score(self, position: Position) -> tuple[int, int] | None:
        return position._aux  # type: ignore[no-any-return]

    def _status_lines(self, position: Position) -> list[str]:
        s0, s1 = position._aux
        return [f"score: x {s0}, o {s1}"]


def outcome_by_score(scores: tuple[int, int]) -> Outcome:
    """The outcome of a finished game with these (first, second) scores: the higher wins."""
    if scores[0] > scores[1]:
        return Outcome.FIRST
    if scores[1] > scores[0]:
        return Outcome.SECOND
    return Outcome.DRAW


def fixed_cell_sets(cells: int, perms: tuple[tuple[int, ...], ...]) -> Counter[frozenset[int]]:
    """For each set of cells that some of ``perms`` fix exactly, how many of them do."""
    return Counter(frozenset(c for c in range(cells) if p[c] == c) for p in perms)
