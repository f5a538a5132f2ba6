"""Rules under which marks vanish or move, so that a game need not end (004 Chapter 6).

Three rules families, each a game of the registry. None of them is bounded: positions repeat,
and a game can go on for ever (``properties.max_length`` is None, see
:class:`~noughts.core.game.GameProperties`). The retrograde solver
(:mod:`noughts.retrograde.analysis`) solves them; a game that neither side can force to a win is a draw.

**forget(B, turns=3, count="own", judge="after")**: 004's "Tic-Tac-Toe Forget": "each marker
disappears after it is on the board for three turns". Players alternately mark an empty cell.
A mark disappears once it has been on the board for ``turns`` full turns after the turn in
which it was placed, at the end of the last of them (right after that turn's move):

* ``count="own"`` (the default) counts its owner's turns: a mark placed on its owner's turn t
  leaves at the end of the owner's turn t + ``turns``, so after each of their own moves a player
  holds at most ``turns`` marks, and places a new one while the oldest is still on the board;
* ``count="plies"`` counts the turns of both players (plies): a mark placed at ply p leaves at
  the end of ply p + ``turns``.

The own reading is the default because it is the game 004 describes: its author looks for
"every possible arrangement of three X's and three O's", and a win that needs "two markers
surrounding one of the loser's markers, and the loser's marker must disappear this turn, while
the winner's two markers cannot disappear this turn". Under the plies reading with
``turns=3`` a player holds at most two marks after their own move (a mark lives through three
plies, and a player moves every second ply), so no line of three can ever be completed on
tic-tac-toe: the game is a draw by its rules alone, not the game the author played for months.

**vanishing(B, keep=3, judge="after")**: each player keeps at most ``keep`` marks; placing one
more removes that player's oldest. The mark placed on a player's turn t is their oldest when
they place their ``keep``-th next mark, on turn t + ``keep``: so ``vanishing(B, keep=k)`` is
the same game as ``forget(B, turns=k)`` with its own reading (the same positions, moves and
outcomes; the tests check that their solved tables agree state by state).

In both, a mark that leaves during a turn leaves *after* that turn's move: its cell is still
occupied when the mover chooses a cell. When the line is judged:

* ``judge="after"`` (the default): after the removal. The mover wins if the marks they hold
  once the leaving mark is gone include a whole line; a mark that leaves does not count.
* ``judge="before"``: before the removal. The mover wins if their marks, the leaving mark
  still among them, include a whole line; the game then ends at once and nothing more leaves
  (the final position shows the line, and one mark more than a running position holds).

If the player to move has no empty cell, the game is drawn; that happens only when marks live
at least as many plies as the board has cells, and then no mark ever leaves: such a game is the
plain game of its board (bounded, ``max_length`` the number of cells).

State of a position: ``(first_bits, second_bits, order)``, the cells each player holds (bit
masks) and ``order``, the cells of all marks on the board, oldest first. One mark is placed per
ply and the oldest leaves first, so the owners alternate along ``order`` and the newest is the
last mover's. Text form: the grid, then the cells of ``order`` separated by spaces, oldest
first: ``x../.o./..x a1 b2 c3`` (o to move; a1 leaves first).

**morris(B=tictactoe, pieces=3, diagonals=true, diagonal_mills=true, jump=false,
judge="after", blocked="loses")**: Three Men's Morris and its relatives. Players alternately
place a mark on an empty cell until each has placed ``pieces``; from then on a turn moves one
own mark to an *adjacent* empty cell (a :class:`~noughts.core.common.Slide`, written
``a1-b2``). The board's winning lines are the lines drawn on a Morris board: two cells are
adjacent when they stand next to each other on one of them, along a row or column, and with
``diagonals=true`` also along a diagonal line. On tic-tac-toe that is the traditional Three
Men's Morris board, the eight lines drawn through nine points (a corner is adjacent to two edge
cells and the centre, an edge cell to two corners and the centre, the centre to all); with
``diagonals=false``, the moves of Murray's "three men's morris" (corner to edge, edge to centre
or corner: no move along a diagonal). Three in a row along a diagonal line wins unless
``diagonal_mills=false`` (with ``diagonals=false`` too: a board with no diagonals at all). With
``jump=true`` a mark may move to any empty cell (Murray's "nine holes"). A line is judged after
every move:

* ``judge="after"`` (the default): after the moved mark has left its cell, which then does not
  count;
* ``judge="before"``: as it lands, its old cell still counting (a mark slid along a line
  completes it if the two other cells of the line are the mover's, its old cell among them);
  the game then ends at once, the mark still shown on both cells.

A player who cannot move loses (``blocked="loses"``, as in Nine Men's Morris), or passes and
the other player moves again (``blocked="passes"``; if neither can move the game is drawn).
The board must keep at least one empty cell (``2 * pieces < cells``). State: ``(first_bits,
second_bits)``; the phase follows from the number of marks each player holds. Text form: the
grid, and in the moving phase `` x`` or `` o`` for the player to move: ``xo./.x./o.. x``.
Actions: placements ``[0, cells)``, then one action per directed pair of adjacent cells.

Typed access (code outside ``core`` never reads ``position.state``): ``owned(player)`` on every
position; :meth:`FadingGame.order`, :meth:`FadingGame.lifetimes` and
:meth:`FadingGame.leaving` (the ages of marks and which leaves next); :meth:`MorrisGame.phase`,
:meth:`MorrisGame.in_hand` and :meth:`MorrisGame.neighbours`. Each game also numbers its
positions with integers (:meth:`FadingGame.code`, :meth:`MorrisGame.code`; ``from_code``
reverses it) for the retrograde solver's tables.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator
from typing import Any

from noughts.core.board import Board, mnk
from noughts.core.codes import Rule
from noughts.core.common import Cell, Move, Outcome, Player, Slide
from noughts.core.errors import IllegalMoveError, NotationError, SpecError
from noughts.core.game import TRUNCATION, FadingMarks, Game, GameProperties, MovingPieces, Position
from noughts.core.spec import format_value
from noughts.core.text import format_grid, parse_grid, render_grid

__all__ = ["BLOCKED", "COUNTS", "JUDGES", "FadingGame", "ForgetGame", "MorrisGame", "VanishingGame"]

JUDGES = ("after", "before")
"""When a line is judged: after the move's removal (the default) or before it."""

COUNTS = ("own", "plies")
"""How ``forget`` counts turns: its owner's turns (the default) or plies of the game."""

BLOCKED = ("loses", "passes")
"""What happens in ``morris`` to a player who cannot move."""

_FIRST, _SECOND = Player.FIRST, Player.SECOND
_MARKS = ("x", "o")


def _choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise SpecError(f"{name} must be one of {', '.join(repr(c) for c in choices)}, not {value!r}")
    return value


def _line_through(board: Board, bits: int, cell: Cell) -> bool:
    return any(bits & m == m for m in board.masks_through[cell])


def _has_line(board: Board, bits: int) -> bool:
    return any(bits & m == m for m in board.line_masks)


class _LoopyGame(Game):
    """What the three families share: two marks, cells as people's notation, x's and o's."""

    board: Board
    line_rule = Rule.STANDARD  # a whole line of one's own marks wins (judged as ``judge`` says)

    def player_label(self, player: Player) -> str:
        return _MARKS[player]

    def owned(self, position: Position, player: Player) -> int:
        return position.state[player]  # type: ignore[no-any-return]

    def marks(self, position: Position) -> list[str]:
        b0, b1 = position.state[0], position.state[1]
        return ["x" if b0 >> c & 1 else "o" if b1 >> c & 1 else "." for c in range(self.board.num_cells)]

    def _name(self, move: object) -> str:
        try:
            return self.format_move(move)  # type: ignore[arg-type]
        except Exception:
            return repr(move)

    def _grid(self, text: str) -> tuple[list[str], list[str]]:
        """The grid's characters and the words after it."""
        if not isinstance(text, str):
            raise NotationError(f"a position is text, not {type(text).__name__}")
        words = text.strip().lower().split()
        if not words:
            raise NotationError("cannot read an empty position")
        return parse_grid(self.board, words[0], "xo."), words[1:]

    def _over(self, position: Position, move: Move) -> None:
        if position._outcome is not None:
            raise IllegalMoveError(f"{self._name(move)} is illegal: the game is over ({position._outcome})")


# -- forget and vanishing ---------------------------------------------------------------------------


class FadingGame(_LoopyGame):
    """The shared engine of ``forget`` and ``vanishing``: every mark leaves the board at the end of
    the ``lifetime``-th ply after the one in which it was placed (see the module docstring).
    """

    cell_moves = True

    def __init__(self, board: Board, lifetime: int, judge: str):
        self.board = board
        self.lifetime = lifetime
        self.judge = _choice("judge", judge, JUDGES)
        n = board.num_cells
        self.num_actions = n
        bounded = lifetime >= n  # the board fills before the first mark could leave
        self.properties = GameProperties(
            zero_sum=True,
            has_draws=True,
            is_scored=False,
            max_length=n if bounded else None,
            truncation=None if bounded else TRUNCATION,
        )
        self._width = n.bit_length()  # bits per cell in a code (cells 1..n, 0 for none)
        self.code_bits = 1 + self._width * (min(lifetime, n) + 1)
        """The most bits a position's :meth:`code` takes."""
        self.loop = FadingMarks(lifetime, self.judge == "before")

    # -- typed access ------------------------------------------------------------------------------

    def order(self, position: Position, player: Player | None = None) -> tuple[Cell, ...]:
        """The cells of ``player``'s marks (of all marks with None), oldest first."""
        seq: tuple[Cell, ...] = position.state[2]
        if player is None:
            return seq
        bits = position.state[player]
        return tuple(c for c in seq if bits >> c & 1)

    def lifetimes(self, position: Position) -> dict[Cell, int]:
        """For each mark on the board, the plies it has left, the coming one included: a mark
        with 1 leaves at the end of the next move (if the game goes on).
        """
        seq: tuple[Cell, ...] = position.state[2]
        m = len(seq)
        return {c: self.lifetime - m + i + 1 for i, c in enumerate(seq)}

    def leaving(self, position: Position) -> Cell | None:
        """The mark that leaves the board at the end of the next move, or None (none does yet,
        or the game is over).
        """
        if position._outcome is not None:
            return None
        seq: tuple[Cell, ...] = position.state[2]
        return seq[0] if len(seq) == self.lifetime else None

    # -- protocol ------------------------------------------------------------------------------------

    def start(self) -> Position:
        return Position(self, (0, 0, ()), _FIRST, None)

    def legal_moves(self, position: Position) -> list[Move]:
        if position._outcome is not None:
            return []
        b0, b1 = position.state[0], position.state[1]
        return self.board.cells_in(self.board.full_mask & ~(b0 | b1))  # type: ignore[return-value]

    def play(self, position: Position, move: Move) -> Position:
        self._over(position, move)
        if type(move) is not int or not 0 <= move < self.num_actions:
            raise IllegalMoveError(f"{move!r} is not a cell of {self.board.spec}")
        b0, b1, seq = position.state
        bit = 1 << move
        if (b0 | b1) & bit:
            owner = "x" if b0 & bit else "o"
            raise IllegalMoveError(f"{self.format_move(move)} is illegal: the cell is taken by {owner}")
        mover = position.to_move
        bits = [b0, b1]
        bits[mover] |= bit
        seq = seq + (move,)
        leaving = len(seq) > self.lifetime
        if self.judge == "before" and _line_through(self.board, bits[mover], move):
            return Position(self, (bits[0], bits[1], seq), mover.other, Outcome.win_for(mover))
        if leaving:
            old = seq[0]
            seq = seq[1:]
            bits[0] &= ~(1 << old)
            bits[1] &= ~(1 << old)
        outcome = None
        if _line_through(self.board, bits[mover], move):
            outcome = Outcome.win_for(mover)
        elif (bits[0] | bits[1]) == self.board.full_mask:
            outcome = Outcome.DRAW
        return Position(self, (bits[0], bits[1], seq), mover.other, outcome)

    # -- symmetry ------------------------------------------------------------------------------------

    def canonical_key(self, position: Position) -> Hashable:
        seq = position.state[2]
        return (int(position.to_move), min(tuple(p[c] for c in seq) for p in self.symmetries))

    def symmetric_images(self, position: Position) -> Iterator[Position]:
        b0, b1, seq = position.state
        t = self.board.transform_mask
        for p in self.symmetries:
            state = (t(b0, p), t(b1, p), tuple(p[c] for c in seq))
            yield Position(self, state, position.to_move, position._outcome)

    # -- codes for the retrograde solver -------------------------------------------------------------

    def code(self, position: Position) -> int:
        """The position as one integer (at most :attr:`code_bits` bits): bit 0 the player to move,
        then each mark of ``order``, oldest first, as its cell + 1 in ``n.bit_length()`` bits
        (``n`` cells).
        """
        out = int(position.to_move)
        shift = 1
        for c in position.state[2]:
            out |= (c + 1) << shift
            shift += self._width
        return out

    def from_code(self, code: int) -> Position:
        """The position whose :meth:`code` is ``code`` (its outcome judged from scratch)."""
        to_move = Player(code & 1)
        code >>= 1
        mask = (1 << self._width) - 1
        seq: list[Cell] = []
        while code:
            seq.append((code & mask) - 1)
            code >>= self._width
        return self._judged(tuple(seq), to_move)

    def _judged(self, seq: tuple[Cell, ...], to_move: Player) -> Position:
        """A position from its order and mover, its outcome judged from scratch (the newest
        mark is the last mover's; a line can only be theirs).
        """
        bits = [0, 0]
        owner = to_move.other
        for c in reversed(seq):
            bits[owner] |= 1 << c
            owner = owner.other
        last = to_move.other
        outcome = None
        if _has_line(self.board, bits[last]):
            outcome = Outcome.win_for(last)
        elif (bits[0] | bits[1]) == self.board.full_mask:
            outcome = Outcome.DRAW
        return Position(self, (bits[0], bits[1], seq), to_move, outcome)

    # -- text ----------------------------------------------------------------------------------------

    def format_position(self, position: Position) -> str:
        grid = format_grid(self.board, self.marks(position))
        names = " ".join(self.board.cell_name(c) for c in position.state[2])
        return f"{grid} {names}" if names else grid

    def parse(self, text: str) -> Position:
        chars, words = self._grid(text)
        seq = tuple(self.board.parse_cell(w) for w in words)
        occupied = {c for c, ch in enumerate(chars) if ch != "."}
        if len(set(seq)) != len(seq) or set(seq) != occupied:
            raise NotationError(
                f"cannot read position {text!r}: after the grid, list every mark's cell once, oldest "
                "first (e.g. 'x../.o./..x a1 b2 c3')"
            )
        if not seq:
            return self.start()
        last = Player.FIRST if chars[seq[-1]] == "x" else Player.SECOND
        owner = last
        for c in reversed(seq):
            if chars[c] != _MARKS[owner]:
                raise NotationError(
                    f"cannot read position {text!r}: the players place marks in turn, so the owners "
                    "alternate along the order of the marks"
                )
            owner = owner.other
        position = self._judged(seq, last.other)
        if not self._reachable(position):
            raise NotationError(f"cannot read position {text!r}: no game of {self.spec} reaches it")
        return position

    def _reachable(self, target: Position) -> bool:
        """Whether some game reaches ``target``: the marks of its order placed in turn from the
        start, after one earlier mark of the first player's that has since left where the
        oldest mark is the second player's (fewer marks than that history would hold were never
        on the board: removing marks makes no line, so this history is enough).
        """
        seq: tuple[Cell, ...] = target.state[2]
        oldest_first_players = target.state[0] >> seq[0] & 1
        before: list[tuple[Cell, ...]] = [()]
        if not oldest_first_players:
            before = [(e,) for e in range(self.board.num_cells) if e not in seq]
        for prefix in before:
            p = self.start()
            try:
                for c in prefix + seq:
                    if p._outcome is not None:
                        raise IllegalMoveError("over")
                    p = self.play(p, c)
            except IllegalMoveError:
                continue
            if p == target and p._outcome == target._outcome:
                return True
        return False

    def render(self, position: Position) -> str:
        lines = render_grid(self.board, self.marks(position))
        seq = position.state[2]
        if seq:
            lines.append("oldest first: " + " ".join(self.board.cell_name(c) for c in seq))
        leaving = self.leaving(position)
        if leaving is not None:
            lines.append(f"leaves after the next move: {self.board.cell_name(leaving)}")
        return "\n".join(lines)

    def notation_help(self) -> str:
        cell = self.board.cell_name(self._example_cell())
        if self.board.names is not None:
            return f"a point's name, e.g. {cell}"
        if self.board.dims == 2:
            return f"a column letter and a row number (row 1 at the top), e.g. {cell}"
        return f"1-based coordinates separated by commas, e.g. {cell}"

    def format_move(self, move: Move) -> str:
        if type(move) is not int or not 0 <= move < self.num_actions:
            raise NotationError(f"{move!r} is not a cell of {self.board.spec}")
        return self.board.cell_name(move)

    def parse_move(self, text: str) -> Move:
        return self.board.parse_cell(text)

    def action(self, move: Move) -> int:
        if type(move) is not int or not 0 <= move < self.num_actions:
            raise NotationError(f"{move!r} is not a move of {self.spec}")
        return move

    def move(self, action: int) -> Move:
        return self._check_action(action)


class ForgetGame(FadingGame):
    """``forget(B, turns, count, judge)``: 004's Tic-Tac-Toe Forget (see the module docstring)."""

    def __init__(self, board: Board, turns: int = 3, count: str = "own", judge: str = "after"):
        self.turns = turns
        self.count = _choice("count", count, COUNTS)
        super().__init__(board, 2 * turns if count == "own" else turns, judge)
        args = [board.spec]
        if turns != 3:
            args.append(f"turns={turns}")
        if count != "own":
            args.append(f"count={format_value(count)}")
        if judge != "after":
            args.append(f"judge={format_value(judge)}")
        self.spec = f"forget({','.join(args)})"


class VanishingGame(FadingGame):
    """``vanishing(B, keep, judge)``: at most ``keep`` marks each (see the module docstring)."""

    def __init__(self, board: Board, keep: int = 3, judge: str = "after"):
        self.keep = keep
        super().__init__(board, 2 * keep, judge)
        args = [board.spec]
        if keep != 3:
            args.append(f"keep={keep}")
        if judge != "after":
            args.append(f"judge={format_value(judge)}")
        self.spec = f"vanishing({','.join(args)})"


# -- morris ---------------------------------------------------------------------------------------------


def _diagonal(board: Board, line: tuple[Cell, ...]) -> bool:
    """Whether a line runs diagonally (its direction changes more than one coordinate)."""
    a, b = board.coords[line[0]], board.coords[line[1]]
    return sum(x != y for x, y in zip(a, b, strict=True)) > 1


def adjacency(
    board: Board, lines: tuple[tuple[Cell, ...], ...], jump: bool = False
) -> tuple[tuple[Cell, ...], ...]:
    """For each cell, the cells next to it on one of ``lines`` (every other cell with
    ``jump``), in increasing order.
    """
    n = board.num_cells
    if jump:
        return tuple(tuple(v for v in range(n) if v != u) for u in range(n))
    near: list[set[Cell]] = [set() for _ in range(n)]
    for line in lines:
        for u, v in itertools.pairwise(line):
            near[u].add(v)
            near[v].add(u)
    return tuple(tuple(sorted(s)) for s in near)


class MorrisGame(_LoopyGame):
    """``morris(B, pieces, diagonals, diagonal_mills, jump, judge, blocked)``: place, then slide
    (see the module docstring).
    """

    def __init__(
        self,
        board: Board | None = None,
        pieces: int = 3,
        diagonals: bool = True,
        diagonal_mills: bool = True,
        jump: bool = False,
        judge: str = "after",
        blocked: str = "loses",
    ):
        self.board = mnk(3, 3, 3) if board is None else board
        n = self.board.num_cells
        if 2 * pieces >= n:
            raise SpecError(
                f"morris: {pieces} pieces each leave no empty cell on {self.board.spec} ({n} cells); "
                f"at most {(n - 1) // 2}"
            )
        self.pieces = pieces
        self.diagonals = diagonals
        self.diagonal_mills = diagonal_mills
        self.jump = jump
        self.judge = _choice("judge", judge, JUDGES)
        self.blocked = _choice("blocked", blocked, BLOCKED)
        self.line_indices = tuple(
            j for j, line in enumerate(self.board.lines) if diagonal_mills or not _diagonal(self.board, line)
        )
        """The lines that win (indices into ``board.lines``): all, or with
        ``diagonal_mills=false`` those along rows and columns only."""
        if not self.line_indices:
            raise SpecError(f"morris: {self.board.spec} has no line along a row or column")
        self.line_masks = tuple(self.board.line_masks[j] for j in self.line_indices)
        in_play = set(self.line_indices)
        self._through = tuple(
            tuple(self.board.line_masks[j] for j in js if j in in_play) for js in self.board.lines_through
        )
        drawn = tuple(line for line in self.board.lines if diagonals or not _diagonal(self.board, line))
        self.adjacent = adjacency(self.board, drawn, jump)
        self.steps: tuple[tuple[Cell, Cell], ...] = tuple((u, v) for u in range(n) for v in self.adjacent[u])
        """The directed pairs of adjacent cells, in the order of their actions."""
        self._step_action = {s: n + i for i, s in enumerate(self.steps)}
        self.num_actions = n + len(self.steps)
        self.properties = GameProperties(
            zero_sum=True, has_draws=True, is_scored=False, max_length=None, truncation=TRUNCATION
        )
        self.code_bits = 1 + 2 * n
        self.loop = MovingPieces(
            pieces, self.judge == "before", self.blocked == "passes", self.line_indices, self.adjacent
        )
        args = [] if self.board.spec == "mnk(3,3,3)" else [self.board.spec]
        if pieces != 3:
            args.append(f"pieces={pieces}")
        if not diagonals:
            args.append("diagonals=false")
        if not diagonal_mills:
            args.append("diagonal_mills=false")
        if jump:
            args.append("jump=true")
        if judge != "after":
            args.append(f"judge={format_value(judge)}")
        if blocked != "loses":
            args.append(f"blocked={format_value(blocked)}")
        self.spec = f"morris({','.join(args)})" if args else "morris"

    def _line_through(self, bits: int, cell: Cell) -> bool:
        return any(bits & m == m for m in self._through[cell])

    def _has_line(self, bits: int) -> bool:
        return any(bits & m == m for m in self.line_masks)

    def completed_lines(self, position: Position, player: Player) -> tuple[int, ...]:
        mine = position.state[player]
        return tuple(
            j for j in self.line_indices if mine & self.board.line_masks[j] == self.board.line_masks[j]
        )

    # -- typed access ------------------------------------------------------------------------------

    def in_hand(self, position: Position, player: Player) -> int:
        """The marks ``player`` has still to place."""
        return max(0, self.pieces - int(position.state[player]).bit_count())

    def phase(self, position: Position) -> str:
        """``placing`` while the player to move has marks to place, else ``moving``."""
        return "placing" if self.in_hand(position, position.to_move) else "moving"

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells adjacent to ``cell`` (where a mark on it may move)."""
        return self.adjacent[cell]

    # -- protocol ------------------------------------------------------------------------------------

    def start(self) -> Position:
        return Position(self, (0, 0), _FIRST, None)

    def _moves(self, b0: int, b1: int, mover: Player) -> list[Move]:
        mine = b0 if mover is _FIRST else b1
        empty = self.board.full_mask & ~(b0 | b1)
        if mine.bit_count() < self.pieces:
            return self.board.cells_in(empty)  # type: ignore[return-value]
        return [Slide(u, v) for u, v in self.steps if mine >> u & 1 and empty >> v & 1]

    def legal_moves(self, position: Position) -> list[Move]:
        if position._outcome is not None:
            return []
        b0, b1 = position.state
        return self._moves(b0, b1, position.to_move)

    def play(self, position: Position, move: Move) -> Position:
        self._over(position, move)
        b0, b1 = position.state
        mover = position.to_move
        bits = [b0, b1]
        mine = bits[mover]
        n = self.board.num_cells
        placing = mine.bit_count() < self.pieces
        if isinstance(move, Slide):
            u, v = move.origin, move.target
            if (u, v) not in self._step_action:
                raise IllegalMoveError(f"{move!r} is not a move between adjacent cells of {self.spec}")
            if placing:
                raise IllegalMoveError(
                    f"{self.format_move(move)} is illegal: {_MARKS[mover]} has marks to place first"
                )
            if not mine >> u & 1:
                raise IllegalMoveError(
                    f"{self.format_move(move)} is illegal: {self.board.cell_name(u)} holds no {_MARKS[mover]}"
                )
            if (b0 | b1) >> v & 1:
                raise IllegalMoveError(
                    f"{self.format_move(move)} is illegal: {self.board.cell_name(v)} is taken"
                )
            landed = mine | (1 << v)
            if self.judge == "before" and self._line_through(landed, v):
                bits[mover] = landed
                return Position(self, (bits[0], bits[1]), mover.other, Outcome.win_for(mover))
            bits[mover] = landed & ~(1 << u)
            target = v
        else:
            if type(move) is not int or not 0 <= move < n:
                raise IllegalMoveError(f"{move!r} is not a move of {self.spec}")
            if not placing:
                raise IllegalMoveError(
                    f"{self.format_move(move)} is illegal: every {_MARKS[mover]} is placed; move one "
                    f"to an adjacent empty cell (e.g. {self._example_slide()})"
                )
            if (b0 | b1) >> move & 1:
                raise IllegalMoveError(f"{self.format_move(move)} is illegal: the cell is taken")
            bits[mover] = mine | (1 << move)
            target = move
        state = (bits[0], bits[1])
        if self._line_through(bits[mover], target):
            return Position(self, state, mover.other, Outcome.win_for(mover))
        return self._after(state, mover.other)

    def _after(self, state: tuple[int, int], to_move: Player) -> Position:
        """The position with ``to_move`` to move and no line on the board: the blocked rule
        decides a player who cannot move.
        """
        if self._moves(state[0], state[1], to_move):
            return Position(self, state, to_move, None)
        if self.blocked == "loses":
            return Position(self, state, to_move, Outcome.win_for(to_move.other))
        if self._moves(state[0], state[1], to_move.other):
            return Position(self, state, to_move.other, None)
        return Position(self, state, to_move, Outcome.DRAW)

    def _example_slide(self) -> str:
        u, v = self.steps[0]
        return f"{self.board.cell_name(u)}-{self.board.cell_name(v)}"

    # -- symmetry ------------------------------------------------------------------------------------

    def canonical_key(self, position: Position) -> Hashable:
        b0, b1 = position.state
        t = self.board.transform_mask
        return (int(position.to_move), min((t(b0, p), t(b1, p)) for p in self.symmetries))

    def symmetric_images(self, position: Position) -> Iterator[Position]:
        b0, b1 = position.state
        t = self.board.transform_mask
        for p in self.symmetries:
            yield Position(self, (t(b0, p), t(b1, p)), position.to_move, position._outcome)

    # -- codes -----------------------------------------------------------------------------------------

    def code(self, position: Position) -> int:
        """The position as one integer: bit 0 the player to move, then the first player's cells
        (bits 1 to n) and the second player's (bits n+1 to 2n), ``n`` cells.
        """
        b0: int = position.state[0]
        b1: int = position.state[1]
        return int(position.to_move) | b0 << 1 | b1 << (1 + self.board.num_cells)

    def from_code(self, code: int) -> Position:
        """The position whose :meth:`code` is ``code`` (its outcome judged from scratch)."""
        n = self.board.num_cells
        full = self.board.full_mask
        return self._judged((code >> 1) & full, (code >> (1 + n)) & full, Player(code & 1))

    def _judged(self, b0: int, b1: int, to_move: Player) -> Position:
        bits = (b0, b1)
        last = to_move.other
        if self._has_line(bits[last]):
            return Position(self, bits, to_move, Outcome.win_for(last))
        if self._moves(b0, b1, to_move):
            return Position(self, bits, to_move, None)
        if self.blocked == "loses":
            return Position(self, bits, to_move, Outcome.win_for(last))
        return Position(self, bits, to_move, Outcome.DRAW)

    # -- text ----------------------------------------------------------------------------------------

    def format_position(self, position: Position) -> str:
        grid = format_grid(self.board, self.marks(position))
        if self._mover_from_counts(*position.state) is not None:
            return grid
        return f"{grid} {_MARKS[position.to_move]}"

    def _mover_from_counts(self, b0: int, b1: int) -> Player | None:
        """The player to move where the numbers of marks say it (the placing phase), else None."""
        n0, n1 = b0.bit_count(), b1.bit_count()
        if n0 >= self.pieces and n1 >= self.pieces:
            return None
        return _FIRST if n0 == n1 else _SECOND

    def parse(self, text: str) -> Position:
        chars, words = self._grid(text)
        b0 = sum(1 << c for c, ch in enumerate(chars) if ch == "x")
        b1 = sum(1 << c for c, ch in enumerate(chars) if ch == "o")
        n0, n1 = b0.bit_count(), b1.bit_count()
        if len(words) > 1 or (words and words[0] not in _MARKS):
            raise NotationError(
                f"cannot read position {text!r}: after the grid comes at most 'x' or 'o', the player to move"
            )
        told = None if not words else Player(_MARKS.index(words[0]))
        counted = self._mover_from_counts(b0, b1)
        extra = self.judge == "before" and max(n0, n1) == self.pieces + 1 and min(n0, n1) == self.pieces
        if extra:
            counted = _FIRST if n1 > n0 else _SECOND  # a game won as the mark landed: the winner moved last
        elif not (n0 - n1 in (0, 1) and n0 <= self.pieces and n1 <= self.pieces):
            raise NotationError(
                f"cannot read position {text!r}: x has {n0} marks and o {n1}, but each places {self.pieces} "
                "in turn, x first"
            )
        if counted is not None and told is not None and told is not counted:
            raise NotationError(
                f"cannot read position {text!r}: the numbers of marks say {_MARKS[counted]} moves"
            )
        to_move = counted if counted is not None else told
        if to_move is None:
            raise NotationError(
                f"cannot read position {text!r}: every mark is placed, so write who moves after the grid, "
                "e.g. 'xo./.x./o.. x'"
            )
        position = self._judged(b0, b1, to_move)
        if (
            self.blocked == "passes"
            and not self._has_line((b0, b1)[to_move.other])  # a finished game has no turn to pass
            and not self._moves(b0, b1, to_move)
            and self._moves(b0, b1, to_move.other)
        ):
            raise NotationError(
                f"cannot read position {text!r}: {_MARKS[to_move]} cannot move, so the turn passes: "
                f"write {_MARKS[to_move.other]} to move"
            )
        if extra and position._outcome is None:
            raise NotationError(f"cannot read position {text!r}: {_MARKS[to_move.other]} has a mark too many")
        if self._has_line((b0, b1)[to_move]) or not self._reachable(position):
            raise NotationError(f"cannot read position {text!r}: no game of {self.spec} reaches it")
        return position

    def _reachable(self, target: Position) -> bool:
        """For a position won by a line, whether some move from a running position made it (a
        position with no line is reached by placing its marks in turn and sliding as needed;
        the parse checks the counts).
        """
        outcome = target._outcome
        if outcome is None or outcome is Outcome.DRAW:
            return True
        winner = outcome.winner
        assert winner is not None
        if not self._has_line(target.state[winner]):
            return True  # a blocked player's loss: any running position with that board
        for before in self._unmoves(target, winner):
            b0, b1 = before.state
            counted = self._mover_from_counts(b0, b1)
            if self._has_line(b0) or self._has_line(b1) or counted not in (None, winner):
                continue
            if before._outcome is None:
                for m in before.legal_moves():
                    if self.play(before, m) == target:
                        return True
        return False

    def _unmoves(self, target: Position, mover: Player) -> Iterator[Position]:
        """Candidate positions before ``mover``'s last move (each still to be checked)."""
        b0, b1 = target.state
        bits = [b0, b1]
        mine = bits[mover]
        empty = self.board.full_mask & ~(b0 | b1)
        for c in self.board.cells_in(mine):
            take = list(bits)
            take[mover] = mine & ~(1 << c)
            if mine.bit_count() <= self.pieces:
                yield Position(self, (take[0], take[1]), mover, None)  # a placement on c
                for u in self.adjacent[c]:  # a slide u -> c
                    if empty >> u & 1:
                        back = list(take)
                        back[mover] |= 1 << u
                        yield Position(self, (back[0], back[1]), mover, None)
            else:  # judge="before": the slid mark still shows on its old cell
                yield Position(self, (take[0], take[1]), mover, None)

    def render(self, position: Position) -> str:
        lines = render_grid(self.board, self.marks(position))
        if position._outcome is None:
            hand = [f"{_MARKS[p]} {self.in_hand(position, p)}" for p in Player if self.in_hand(position, p)]
            lines.append(
                f"{self.phase(position)}; to place: {', '.join(hand)}"
                if hand
                else "moving: slide a mark to an adjacent empty cell"
            )
        return "\n".join(lines)

    def notation_help(self) -> str:
        cell = self.board.cell_name(self._example_cell())
        return f"place on a cell, e.g. {cell}; once all are placed, slide a mark: {self._example_slide()}"

    def move_json(self, move: Move) -> dict[str, Any]:
        if isinstance(move, Slide):
            coords = self.board.coords
            return {
                "move": self.format_move(move),
                "cells": [list(coords[move.origin]), list(coords[move.target])],
                "from": list(coords[move.origin]),
            }
        return super().move_json(move)

    def format_move(self, move: Move) -> str:
        if isinstance(move, Slide):
            if move not in self._slides():
                raise NotationError(f"{move!r} is not a move between adjacent cells of {self.spec}")
            return f"{self.board.cell_name(move.origin)}-{self.board.cell_name(move.target)}"
        if type(move) is not int or not 0 <= move < self.board.num_cells:
            raise NotationError(f"{move!r} is not a move of {self.spec}")
        return self.board.cell_name(move)

    def _slides(self) -> set[Slide]:
        cached: set[Slide] | None = self.__dict__.get("_slide_set")
        if cached is None:
            cached = {Slide(u, v) for u, v in self.steps}
            self.__dict__["_slide_set"] = cached
        return cached

    def parse_move(self, text: str) -> Move:
        s = text.strip().lower()
        if "-" in s:
            a, _, b = s.partition("-")
            move = Slide(self.board.parse_cell(a), self.board.parse_cell(b))
            if move not in self._slides():
                raise NotationError(f"cannot read {text!r}: {a.strip()} and {b.strip()} are not adjacent")
            return move
        return self.board.parse_cell(s)

    def action(self, move: Move) -> int:
        if isinstance(move, Slide):
            a = self._step_action.get((move.origin, move.target))
            if a is None:
                raise NotationError(f"{move!r} is not a move of {self.spec}")
            return a
        if type(move) is not int or not 0 <= move < self.board.num_cells:
            raise NotationError(f"{move!r} is not a move of {self.spec}")
        return move

    def move(self, action: int) -> Move:
        a = self._check_action(action)
        n = self.board.num_cells
        if a < n:
            return a
        return Slide(*self.steps[a - n])
