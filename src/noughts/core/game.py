"""The game protocol: a :class:`Game` (board + rules) and its immutable :class:`Position`.

A position is a value: ``play(move)`` returns a new position, equality and hashing compare the
game and the rules' state. All rule logic lives in the game object; a position only carries
its state and forwards to the game, so every rules set shares one ``Position`` type.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from noughts.core.board import Board
from noughts.core.codes import Rule
from noughts.core.common import Action, Move, Outcome, Player
from noughts.core.errors import NotationError, NoughtsError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "TRUNCATION",
    "FadingMarks",
    "Game",
    "GameProperties",
    "Layout",
    "MovingPieces",
    "Position",
    "require_bounded",
]

TRUNCATION = 200
"""Plies after which environments and matches stop a game that has not ended, for rules under
which a game need not end (:attr:`GameProperties.truncation`)."""


@dataclass(frozen=True)
class GameProperties:
    """What a rules set is, so algorithms can check it and refuse clearly.

    ``zero_sum``: one player's gain is the other's loss. ``has_draws``: a game can end drawn.
    ``is_scored``: finished games also carry a score per player (cumulative rules).
    ``max_length``: the most moves any game can last, or None where a game need not end (rules
    that move or remove marks: :mod:`noughts.core.loopy`); :attr:`bounded` says which.
    ``same_marks``: both players draw the same mark (Notakto).
    ``truncation``: for games that need not end, the plies after which environments (Gymnasium's
    ``truncated=True``) and matches (a draw by the move cap) stop a game that is still running;
    None for bounded games, which always end by themselves.

    Algorithms that walk a game to its end (alpha-beta, proof-number search, the level-by-level
    counting DAG, the learners' state spaces) check :attr:`bounded` and refuse the others with a
    clear message (:meth:`require_bounded`); the retrograde solver (:mod:`noughts.retrograde.analysis`)
    takes both.
    """

    zero_sum: bool
    has_draws: bool
    is_scored: bool
    max_length: int | None
    same_marks: bool = False
    truncation: int | None = None

    @property
    def bounded(self) -> bool:
        """Whether every game ends within :attr:`max_length` moves."""
        return self.max_length is not None

    @property
    def move_cap(self) -> int:
        """The most plies a game is played for: ``max_length`` for bounded games, else
        ``truncation``.
        """
        cap = self.max_length if self.max_length is not None else self.truncation
        assert cap is not None, "a game that need not end declares its truncation"
        return cap


def require_bounded(game: Game, what: str) -> int:
    """``game.properties.max_length``, or ``NoughtsError`` saying that ``what`` (e.g.
    "alpha-beta search") needs a game that ends, where a game of ``game`` need not end.
    """
    length = game.properties.max_length
    if length is None:
        raise NoughtsError(
            f"{what} needs a game that ends, and a game of {game} need not end (marks move or "
            "vanish, so positions repeat); solve it by retrograde analysis instead "
            "(noughts solve, noughts.retrograde.analysis)"
        )
    return length


@dataclass(frozen=True)
class Layout:
    """How a game's cells are laid out, for pictures (the web's panels) and feature planes.

    ``boards``: the number of separate copies of ``game.board`` a position holds, each with its
    own marks (Notakto), or None where the game is played on the one board. ``plane`` and
    ``slots``: games whose cells are slots in the cells of a flat plane (Otrio: each cell of the
    3x3 ``plane`` holds a small, a medium and a large ring, the names in ``slots``); cell
    ``len(slots) * p + s`` of ``game.board`` is slot ``s`` of the plane's cell ``p``. None and
    ``()`` elsewhere, where each cell of ``game.board`` is drawn as itself.
    """

    boards: int | None = None
    plane: Board | None = None
    slots: tuple[str, ...] = ()


@dataclass(frozen=True)
class FadingMarks:
    """The loop of a game whose marks leave the board (``forget``, ``vanishing``): each mark leaves
    at the end of the ``lifetime``-th ply after the one that placed it; a line is judged before
    the oldest mark leaves (``judge_before``) or after it has. A position's code: the mover in
    bit 0, then the marks oldest first, ``cells.bit_length()`` bits each (cell + 1, 0 for none).
    """

    lifetime: int
    judge_before: bool


@dataclass(frozen=True)
class MovingPieces:
    """The loop of a game whose pieces move once all are placed (``morris``): ``pieces`` each,
    slid to ``adjacent`` cells; only the lines ``line_indices`` (into ``board.lines``) win, judged
    before the move ends (``judge_before``) or after; a player with no move passes
    (``passes_when_blocked``) or loses. A position's code: the mover in bit 0, then each player's
    cells as a mask of ``cells`` bits.
    """

    pieces: int
    judge_before: bool
    passes_when_blocked: bool
    line_indices: tuple[int, ...]
    adjacent: tuple[tuple[int, ...], ...]


class Position:
    """An immutable, hashable game position. Create positions with ``game.start()``,
    ``game.parse(text)`` or ``position.play(move)``, never directly.
    """

    __slots__ = ("_aux", "_hash", "_outcome", "game", "state", "to_move")

    game: Game
    state: tuple[Any, ...]
    to_move: Player
    _outcome: Outcome | None
    _aux: Any  # rules-specific derived data (running scores, survivors, live boards)
    _hash: int | None

    def __init__(
        self, game: Game, state: tuple[Any, ...], to_move: Player, outcome: Outcome | None, aux: Any = None
    ):
        _SET_GAME(self, game)
        _SET_STATE(self, state)
        _SET_TO_MOVE(self, to_move)
        _SET_OUTCOME(self, outcome)
        _SET_AUX(self, aux)
        _SET_HASH(self, None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("positions are immutable: play(move) returns a new position")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("positions are immutable")

    # -- play ---------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move the side to move may make, in a fixed order (empty once the game ends)."""
        return self.game.legal_moves(self)

    def play(self, move: Move) -> Position:
        """The position after ``move``; raises ``IllegalMoveError`` saying why if it is illegal."""
        return self.game.play(self, move)

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """How the game ended (``Outcome.FIRST``, ``SECOND`` or ``DRAW``), or None while it runs."""
        return self._outcome

    def score(self) -> tuple[int, int] | None:
        """(first, second) scores under scoring rules, else None."""
        return self.game.score(self)

    def owned(self, player: Player) -> int:
        """The cells ``player`` holds, as a bit mask over the board's cells (cell c is bit c)."""
        return self.game.owned(self, player)

    def occupied(self) -> int:
        """The cells either player holds, as a bit mask."""
        return self.game.occupied(self)

    def cell_masks(self) -> tuple[int, int]:
        """``(owned(FIRST), owned(SECOND))`` in one call, for loops that read both."""
        return self.game.cell_masks(self)

    # -- learning interface -------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The legal moves as integer actions in ``[0, game.num_actions)``."""
        action = self.game.action
        return [action(m) for m in self.legal_moves()]

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A boolean array of length ``game.num_actions``, true at each legal action."""
        import numpy as np  # imported where used: ``import noughts`` stays light

        mask = np.zeros(self.game.num_actions, dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    def play_action(self, action: Action) -> Position:
        """``play`` for an integer action."""
        return self.play(self.game.move(action))

    # -- symmetry and text --------------------------------------------------------------------

    def canonical_key(self) -> Hashable:
        """A key equal for this position and every image of it under the game's symmetries."""
        return self.game.canonical_key(self)

    def text(self) -> str:
        """The compact text form that ``game.parse`` reads back (see the README)."""
        return self.game.format_position(self)

    def render(self) -> str:
        """A multi-line picture of the board with coordinates, for people."""
        return self.game.render(self)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Position({str(self.game)!r}, {self.text()!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.state == other.state
            and self.to_move == other.to_move
            and self.game == other.game
        )

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash((self.game, self.state, self.to_move))
            _SET_HASH(self, h)
        return h

    def __copy__(self) -> Position:
        return self  # an immutable value is its own copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self

    def __reduce__(self) -> Any:
        raise TypeError("positions are not pickled; save position.text() and game.parse() it")


# slot setters, for building positions without the immutability guard of __setattr__
_SET_GAME, _SET_STATE, _SET_TO_MOVE, _SET_OUTCOME, _SET_AUX, _SET_HASH = (
    Position.__dict__[name].__set__ for name in ("game", "state", "to_move", "_outcome", "_aux", "_hash")
)


class Game(ABC):
    """A game: a board and rules, made from a spec by :func:`noughts.game`.

    ``str(game)`` is the canonical spec. Subclasses implement one rules family each.
    """

    board: Board
    spec: str
    properties: GameProperties
    num_actions: int
    claim_rule: Rule | None = None
    """The claim kernels' code for these rules (:mod:`noughts.core.codes`), or None where a turn
    is more than claiming one empty cell of one board (veto, Notakto, Otrio): a capability the
    game declares, so no algorithm dispatches on the game's class."""
    maker: Player | None = None
    """Maker's player under Maker-Breaker rules (with or without a veto step), None elsewhere."""
    line_rule: Rule | None = None
    """What owning a whole line does, for every game whose turns end in claiming cells: the
    ``claim_rule`` of a claim game, the claims' rule under a veto step, ``Rule.STANDARD`` for
    Otrio (a line wins, under ring quotas); None where lines decide otherwise (Notakto)."""
    has_veto_step: bool = False
    """Whether each turn opens with a veto step (veto rules; see :meth:`is_veto_step`)."""
    layout: Layout = Layout()
    """How the cells are laid out for pictures and feature planes (:class:`Layout`)."""
    board_sum: bool = False
    """Whether the game is a disjunctive sum of ``boards`` copies of one board's impartial game,
    every move on one of them (Notakto): what :mod:`noughts.cgt`'s quotients decide. Such a game
    has ``boards`` and ``misere`` (whoever makes the last move loses, or wins)."""
    cell_moves: bool = False
    """Whether every move marks one cell and its action is that cell's index into
    :meth:`marks` (claim games, Notakto, the fading games); False where a move is more (Otrio's
    rings, veto steps, Morris slides)."""
    loop: FadingMarks | MovingPieces | None = None
    """How a game that need not end repeats its positions (:mod:`noughts.core.loopy`): marks that
    fade (:class:`FadingMarks`) or pieces that move (:class:`MovingPieces`); None for the games
    that end. The retrograde solver's kernels, the observations and the web read this, never the
    game's class."""
    code_bits: int | None = None
    """The most bits :meth:`code` takes (positions numbered as integers: the retrograde solver's
    state codes), or None where the game numbers no positions."""

    # -- the protocol every rules family implements ---------------------------------------------

    @abstractmethod
    def start(self) -> Position:
        """The position before the first move."""

    @abstractmethod
    def legal_moves(self, position: Position) -> list[Move]: ...

    @abstractmethod
    def play(self, position: Position, move: Move) -> Position: ...

    def score(self, position: Position) -> tuple[int, int] | None:
        return None

    # -- typed access to a position: code outside core never reads ``Position.state`` ------------

    def owned(self, position: Position, player: Player) -> int:
        """The cells ``player`` holds in ``position``, as a bit mask over ``board``'s cells."""
        raise NoughtsError(f"in {self.spec} no cell belongs to one player")

    def occupied(self, position: Position) -> int:
        """The cells either player holds, as a bit mask."""
        return self.owned(position, Player.FIRST) | self.owned(position, Player.SECOND)

    def cell_masks(self, position: Position) -> tuple[int, int]:
        """``(owned(FIRST), owned(SECOND))`` in one call."""
        return self.owned(position, Player.FIRST), self.owned(position, Player.SECOND)

    def completed_lines(self, position: Position, player: Player) -> tuple[int, ...]:
        """The indices (into ``board.lines``) of the lines ``player`` holds whole."""
        mine = self.owned(position, player)
        return tuple(j for j, m in enumerate(self.board.line_masks) if mine & m == m)

    def claimable(self, position: Position, player: Player) -> int:
        """The cells ``player`` could claim on their turn, as a bit mask: the empty cells, less
        those the rules forbid them (Otrio: ring sizes they have used up; veto rules: the
        forbidden cell).
        """
        return self.board.full_mask & ~self.occupied(position)

    def pieces_left(self, position: Position, player: Player) -> tuple[int, ...] | None:
        """How many pieces of each slot kind (``layout.slots``) ``player`` still holds, for games
        with a limited supply (Otrio's rings); None where the supply is unlimited.
        """
        return None

    # veto rules (``has_veto_step``); other games answer as games without a veto step

    def is_veto_step(self, position: Position) -> bool:
        """Whether the next move is a veto (or a pass) rather than a claim."""
        return False

    def forbidden_cell(self, position: Position) -> int | None:
        """The cell the claimer may not take this turn (None at a veto step, after a pass, or
        in games without vetoes).
        """
        return None

    def claimer(self, position: Position) -> Player:
        """Who claims next (at a veto step, the veto is made by the other player)."""
        return position.to_move

    def inner_position(self, position: Position) -> Position:
        """The claim-game position of the same marks, the veto step forgotten (the position
        itself in games without vetoes).
        """
        return position

    # games that need not end (``loop``, ``code_bits``)

    def code(self, position: Position) -> int:
        """``position`` as one integer of at most :attr:`code_bits` bits (see :attr:`loop`)."""
        raise NoughtsError(f"{self} numbers no positions with codes")

    def from_code(self, code: int) -> Position:
        """The position whose :meth:`code` is ``code``."""
        raise NoughtsError(f"{self} numbers no positions with codes")

    def lifetimes(self, position: Position) -> dict[int, int]:
        """For each mark on the board, the plies it has left, the coming one included (marks
        that fade: :class:`FadingMarks`).
        """
        raise NoughtsError(f"in {self.spec} no mark leaves the board")

    def leaving(self, position: Position) -> int | None:
        """The mark that leaves at the end of the next move, or None (marks that fade)."""
        raise NoughtsError(f"in {self.spec} no mark leaves the board")

    def in_hand(self, position: Position, player: Player) -> int:
        """The marks ``player`` has still to place (pieces that move: :class:`MovingPieces`)."""
        raise NoughtsError(f"in {self.spec} no mark is held in hand")

    def phase(self, position: Position) -> str:
        """``placing`` while the player to move has marks to place, else ``moving``."""
        raise NoughtsError(f"in {self.spec} no mark is held in hand")

    # games of several boards (``layout.boards``)

    def board_marks(self, position: Position) -> tuple[int, ...]:
        """Each board's marks as bit masks, board by board (games of several boards)."""
        raise NoughtsError(f"{self.spec} is played on one board with its own marks per player")

    def live_boards(self, position: Position) -> tuple[int, ...]:
        """The indices of the boards still in play (games of several boards)."""
        raise NoughtsError(f"{self.spec} is played on one board with its own marks per player")

    # -- symmetry acting on moves, and compact keys ------------------------------------------------

    def fixed_action_sets(self) -> tuple[int, dict[frozenset[int], int]] | None:
        """The symmetry group acting on the game's actions, for Burnside's lemma: its order and,
        for each set of actions that some group elements fix exactly, how many elements do.
        None for a game whose move symmetries noughts does not know.
        """
        return None

    key_columns: tuple[str, ...] | None = None
    """The names of the integers :meth:`key_words` packs a canonical key into (solved tables
    store them as 64-bit words), or None where no compact form is defined."""

    def key_words(self, key: Hashable) -> tuple[int, ...]:
        """``canonical_key()``'s value as non-negative integers, one per ``key_columns``."""
        raise NoughtsError(f"no compact key is defined for {self.spec}")

    @property
    def key_word_bits(self) -> int:
        """The most bits any of :meth:`key_words`' integers needs."""
        raise NoughtsError(f"no compact key is defined for {self.spec}")

    @abstractmethod
    def canonical_key(self, position: Position) -> Hashable: ...

    @abstractmethod
    def symmetric_images(self, position: Position) -> Iterator[Position]:
        """Images of ``position`` under the symmetry group (for multi-board games, under a
        generating set of it): enough to check that ``canonical_key`` is invariant.
        """

    @abstractmethod
    def format_position(self, position: Position) -> str: ...

    @abstractmethod
    def parse(self, text: str) -> Position:
        """Read a position's text form; raise ``NotationError`` saying what is wrong."""

    @abstractmethod
    def format_move(self, move: Move) -> str:
        """A move in people's notation (see the README)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Read a move in people's notation; raise ``NotationError`` if it cannot be read."""

    def move_json(self, move: Move) -> dict[str, Any]:
        """A move for JSON output: its notation and the cells it marks as 0-based coordinate
        lists (row 0 at the top); rules with more to a move add fields (``board``, ``size``,
        ``veto``).
        """
        return {"move": self.format_move(move), "cells": [list(self.board.coords[self._move_cell(move)])]}

    def _move_cell(self, move: Move) -> int:
        return int(move)  # type: ignore[arg-type]

    @abstractmethod
    def action(self, move: Move) -> Action:
        """The integer action of a move."""

    @abstractmethod
    def move(self, action: Action) -> Move:
        """The move of an integer action."""

    @abstractmethod
    def render(self, position: Position) -> str: ...

    def marks(self, position: Position) -> Sequence[str]:
        """Per cell of ``board`` (for multi-board games, of every board in turn): its mark."""
        raise NotImplementedError

    def player_label(self, player: Player) -> str:
        """How people call ``player`` in this game: its mark, or its role where rules have roles."""
        return ("x", "o")[player]

    def outcome_text(self, outcome: Outcome) -> str:
        """An outcome in this game's words, e.g. ``x wins`` or ``Breaker (o) wins``."""
        winner = outcome.winner
        return "draw" if winner is None else f"{self.player_label(winner)} wins"

    @property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The board's symmetry group as cell permutations."""
        return self.board.symmetries

    @property
    def symmetry_count(self) -> int:
        """The order of the symmetry group (of one board, for multi-board games)."""
        return self.board.symmetry_count

    @abstractmethod
    def notation_help(self) -> str:
        """One line telling people how to write moves in this game, with examples."""

    def _example_cell(self) -> int:
        """The centre cell (or the cell nearest it), for examples."""
        cell = self.board.cell_at(tuple((g - 1) // 2 for g in self.board.grid))
        return 0 if cell is None else cell

    # -- shared helpers -------------------------------------------------------------------------

    def read_move(self, position: Position, text: str) -> Move:
        """Read a move typed by a person and check it is legal here; raise a clear error."""
        move = self.parse_move(text)
        self.check_move(position, move)
        return move

    def check_move(self, position: Position, move: Move) -> None:
        """Raise ``IllegalMoveError`` (naming the move and why) unless ``move`` is legal."""
        self.play(position, move)  # play is the one place that knows why a move is illegal

    def _check_action(self, action: object) -> int:
        if type(action) is int:
            whole = True
        else:  # NumPy integers too; NumPy is imported only when one can be here
            import numpy as np

            whole = isinstance(action, (int, np.integer)) and not isinstance(action, bool)
        if not whole or not 0 <= action < self.num_actions:  # type: ignore[operator]
            raise NotationError(f"action {action!r} is not in [0, {self.num_actions})")
        return int(action)  # type: ignore[call-overload, no-any-return]

    def __str__(self) -> str:
        return self.spec

    def __repr__(self) -> str:
        return f"noughts.game({self.spec!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(("Game", self.spec))
