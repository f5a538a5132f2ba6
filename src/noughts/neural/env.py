"""The claim games as a batched JAX environment, written from the board's tables.

A batch of games is a :class:`State` of arrays, one row per game: each cell's owner (``1`` the
first player, ``-1`` the second, ``0`` empty), whose turn it is, whether the game is over and who
won, and under Maker-Breaker rules the *survivors* (lines Breaker has not touched). :func:`step`
claims one cell in every game at once by the rules of :mod:`noughts.core.claim`, reading only
the lines through the claimed cell (``board.tables.through``, ``line_cells``):

* standard: the mover wins by owning a whole line; a full board is a draw;
* misère: the mover loses by owning a whole line; a full board is a draw;
* Maker-Breaker: Maker wins by owning a line; Breaker wins once every line holds a Breaker
  cell (no survivor left); no draws;
* Notakto (:mod:`noughts.core.notakto`): ``boards`` copies of the board side by side (cell
  ``b * n + c``, the action of ``NotaktoMove(b, c)``), one mark for both players; a board dies
  with a whole line of marks (or full) and no one plays on it; whoever kills the last live board
  loses (wins with ``misere=false``). ``survivors`` counts the live boards.

Every game of the batch is stepped; a game that is over stays as it is (so a search may step
past the end, as mctx does). The arrays and the rule are plain JAX, so :func:`step` runs under
``jit`` and ``vmap`` and inside ``mctx``'s search. ``tests/neural/test_env.py`` holds it to the
``Position`` API on every transition of tic-tac-toe under each rule, and on random games of
bigger boards (4x4, 5x5, the 3x3x3 cube).

The network reads a batch from the mover's side (:func:`observation`): per cell, whether the
mover owns it, the opponent owns it, it is empty, and whether the mover is the first player
(which matters where the players differ: Maker and Breaker, and the parity of a full board).
In Notakto the first two are: the cell is marked, the cell is on a dead board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from noughts.core import Game, NoughtsError, Outcome, Position, Rule

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["FEATURES", "Env", "State", "supports"]

FEATURES = 4
"""Per-cell input features of :func:`Env.observation`."""

_SUPPORTED = (Rule.STANDARD, Rule.MISERE, Rule.MAKER_BREAKER)


def supports(game: Game) -> bool:
    """Whether the JAX environment plays ``game``: standard, misère or Maker-Breaker claim rules
    on any board, or Notakto on any number of copies of any board (not cumulative scores, veto
    steps or Otrio).
    """
    if getattr(game, "board", None) is None or not game.cell_moves:
        return False
    return game.claim_rule in _SUPPORTED or _is_notakto(game)


def _is_notakto(game: Game) -> bool:
    """Notakto's capabilities: both players draw the same mark, on boards that die (``live_boards``)."""
    return game.properties.same_marks and hasattr(game, "live_boards") and hasattr(game, "board_marks")


class State(NamedTuple):
    """A batch of games (see the module docstring); every array has the batch as its first axis."""

    cells: jax.Array  # (B, C) int8: 1 first player, -1 second, 0 empty
    to_move: jax.Array  # (B,) int32: 0 first, 1 second
    done: jax.Array  # (B,) bool
    winner: jax.Array  # (B,) int8: 1 first won, -1 second won, 0 draw or running
    survivors: jax.Array  # (B,) int32: Maker-Breaker's untouched lines, Notakto's live boards


class Env:
    """The batched environment of one claim game (see the module docstring)."""

    def __init__(self, game: Game):
        if not supports(game):
            raise NoughtsError(
                f"the neural learners play standard, misère and Maker-Breaker claim games and Notakto; not {game}"
            )
        self.game = game
        board = game.board
        tables = board.tables
        self.notakto = _is_notakto(game)
        # Notakto: ``boards`` copies of the board side by side (cell b * n + c, line b * L + j)
        self.boards = int(getattr(game, "boards", 1)) if self.notakto else 1
        self.misere = bool(getattr(game, "misere", True))
        n, lines = board.num_cells, len(board.lines)
        self.board_cells = n
        self.num_cells = n * self.boards
        self.num_lines = lines * self.boards
        self.k = board.k
        self.rule = Rule.MISERE if self.notakto else Rule(game.claim_rule)  # type: ignore[arg-type]
        maker = game.maker
        self.maker = int(maker) if maker is not None else 0
        offsets = np.arange(self.boards)
        line_cells = np.asarray(tables.line_cells)[None] + (offsets * n)[:, None, None]
        self.line_cells = jnp.asarray(line_cells.reshape(self.num_lines, self.k))  # (L, k)
        one = np.asarray(tables.through)
        valid = np.tile(one >= 0, (self.boards, 1))
        through = (np.where(one >= 0, one, 0)[None] + (offsets * lines)[:, None, None]).reshape(
            self.num_cells, -1
        )
        self.through_valid = jnp.asarray(valid)  # (C, T)
        self.through = jnp.asarray(through)
        self.cell_board = jnp.asarray(np.repeat(offsets, n))  # (C,): the board of each cell

    # -- states --------------------------------------------------------------------------------

    def init(self, batch: int) -> State:
        """``batch`` games at the start."""
        return State(
            cells=jnp.zeros((batch, self.num_cells), jnp.int8),
            to_move=jnp.zeros((batch,), jnp.int32),
            done=jnp.zeros((batch,), bool),
            winner=jnp.zeros((batch,), jnp.int8),
            survivors=jnp.full((batch,), self.boards if self.notakto else self.num_lines, jnp.int32),
        )

    def encode(self, positions: Sequence[Position]) -> State:
        """The batch of these positions of the game (read through the ``Position`` API)."""
        n = len(positions)
        cells = np.zeros((n, self.num_cells), np.int8)
        to_move = np.zeros(n, np.int32)
        done = np.zeros(n, bool)
        winner = np.zeros(n, np.int8)
        survivors = np.full(n, self.boards if self.notakto else self.num_lines, np.int32)
        game: Any = self.game  # a claim game (cell_owners, claim_aux) or Notakto (board_marks, live_boards)
        for i, p in enumerate(positions):
            if self.notakto:
                marks = game.board_marks(p)
                cells[i] = [
                    (marks[c // self.board_cells] >> (c % self.board_cells)) & 1
                    for c in range(self.num_cells)
                ]
                survivors[i] = len(game.live_boards(p))
            else:
                owners = np.asarray(game.cell_owners(p))
                cells[i] = np.where(owners == 0, 1, np.where(owners == 1, -1, 0))
            to_move[i] = int(p.to_move)
            outcome = p.outcome()
            done[i] = outcome is not None
            winner[i] = (
                0 if outcome is None or outcome is Outcome.DRAW else (1 if outcome is Outcome.FIRST else -1)
            )
            if self.rule is Rule.MAKER_BREAKER:
                survivors[i] = game.claim_aux(p)[0]
        return State(
            jnp.asarray(cells),
            jnp.asarray(to_move),
            jnp.asarray(done),
            jnp.asarray(winner),
            jnp.asarray(survivors),
        )

    # -- the rules -------------------------------------------------------------------------------

    def legal(self, state: State) -> jax.Array:
        """(B, C) bool: the cells each game's mover may claim (none once the game is over; in
        Notakto none of a dead board).
        """
        legal = (state.cells == 0) & ~state.done[:, None]
        if self.notakto:
            legal = legal & ~self.dead_boards(state.cells)[:, self.cell_board]
        return legal

    def dead_boards(self, cells: jax.Array) -> jax.Array:
        """(B, boards) bool: Notakto's dead boards (a whole line of marks, or full)."""
        lines = jnp.all(cells[:, self.line_cells] != 0, axis=-1).reshape(cells.shape[0], self.boards, -1)
        full = jnp.all(cells.reshape(cells.shape[0], self.boards, -1) != 0, axis=-1)
        return jnp.any(lines, axis=-1) | full

    def step(self, state: State, action: jax.Array) -> State:
        """Every game of the batch after its mover claims ``action`` (B,) (see the module docstring).

        A game that is over, or an action on a claimed cell, leaves the game as it is: callers
        (the search) may step anything; :func:`legal` says what a real move is.
        """
        rows = jnp.arange(state.cells.shape[0])
        if self.notakto:
            return self._step_notakto(state, action, rows)
        sign = (1 - 2 * state.to_move).astype(jnp.int8)  # the mover's mark
        ok = ~state.done & (state.cells[rows, action] == 0)
        cells = state.cells.at[rows, action].set(jnp.where(ok, sign, state.cells[rows, action]))
        lines = self.through[action]  # (B, T)
        valid = self.through_valid[action]  # (B, T)
        marks = cells[rows[:, None, None], self.line_cells[lines]]  # (B, T, k)
        owns_line = jnp.any(valid & jnp.all(marks == sign[:, None, None], axis=-1), axis=-1)
        full = jnp.all(cells != 0, axis=-1)
        mover_wins = jnp.where(sign > 0, 1, -1).astype(jnp.int8)
        survivors = state.survivors
        if self.rule is Rule.STANDARD:
            over = owns_line | full
            winner = jnp.where(owns_line, mover_wins, 0)
        elif self.rule is Rule.MISERE:
            over = owns_line | full
            winner = jnp.where(owns_line, -mover_wins, 0)
        else:  # Maker-Breaker
            is_maker = state.to_move == self.maker
            before = state.cells[rows[:, None, None], self.line_cells[lines]]  # the lines before the claim
            untouched = valid & ~jnp.any(before == sign[:, None, None], axis=-1)
            survivors = jnp.where(
                ok & ~is_maker, survivors - jnp.sum(untouched, axis=-1).astype(jnp.int32), survivors
            )
            maker_won = is_maker & owns_line
            breaker_won = ~is_maker & (survivors == 0)
            over = maker_won | breaker_won
            winner = jnp.where(over, mover_wins, 0)
        winner = winner.astype(jnp.int8)
        return State(
            cells=cells,
            to_move=jnp.where(ok, 1 - state.to_move, state.to_move),
            done=state.done | (ok & over),
            winner=jnp.where(ok & over, winner, state.winner),
            survivors=jnp.where(ok, survivors, state.survivors),
        )

    def _step_notakto(self, state: State, action: jax.Array, rows: jax.Array) -> State:
        """Notakto: the claim kills its board if it completes a line of marks (or fills the
        board); whoever kills the last live board loses (wins, with ``misere=false``).
        """
        ok = ~state.done & (state.cells[rows, action] == 0)
        ok = ok & ~self.dead_boards(state.cells)[rows, self.cell_board[action]]
        cells = state.cells.at[rows, action].set(jnp.where(ok, 1, state.cells[rows, action]).astype(jnp.int8))
        lines = self.through[action]
        valid = self.through_valid[action]
        marks = cells[rows[:, None, None], self.line_cells[lines]]
        killed = jnp.any(valid & jnp.all(marks != 0, axis=-1), axis=-1)
        board = self.cell_board[action]
        board_cells = cells.reshape(cells.shape[0], self.boards, -1)[rows, board]
        killed = ok & (killed | jnp.all(board_cells != 0, axis=-1))
        live = state.survivors - killed.astype(jnp.int32)
        over = ok & (live == 0)
        mover_wins = jnp.where(state.to_move == 0, 1, -1).astype(jnp.int8)
        winner = jnp.where(over, -mover_wins if self.misere else mover_wins, state.winner).astype(jnp.int8)
        return State(
            cells=cells,
            to_move=jnp.where(ok, 1 - state.to_move, state.to_move),
            done=state.done | over,
            winner=winner,
            survivors=live,
        )

    def reward(self, before: State, after: State) -> jax.Array:
        """(B,) float: +1 if the move from ``before`` to ``after`` won the game for its mover, -1 if
        it lost it, 0 otherwise (also for games that were over already).
        """
        ended = after.done & ~before.done
        sign = (1 - 2 * before.to_move).astype(jnp.float32)
        return jnp.where(ended, after.winner.astype(jnp.float32) * sign, 0.0)

    def observation(self, state: State) -> jax.Array:
        """(B, C, FEATURES) float32: each cell from the mover's side (see the module docstring)."""
        sign = (1 - 2 * state.to_move).astype(jnp.int8)[:, None]
        first = jnp.broadcast_to((state.to_move == 0)[:, None], state.cells.shape)
        if self.notakto:  # one mark for both: marked, on a dead board, empty, first to move
            dead = self.dead_boards(state.cells)[:, self.cell_board]
            return jnp.stack([state.cells != 0, dead, state.cells == 0, first], axis=-1).astype(jnp.float32)
        return jnp.stack(
            [state.cells == sign, state.cells == -sign, state.cells == 0, first], axis=-1
        ).astype(jnp.float32)

    def outcome(self, state: State, i: int) -> Outcome | None:
        """Game ``i``'s outcome as the core names it (None while it runs)."""
        if not bool(state.done[i]):
            return None
        w = int(state.winner[i])
        return Outcome.DRAW if w == 0 else (Outcome.FIRST if w == 1 else Outcome.SECOND)

    def tables(self) -> dict[str, Any]:
        """The arrays the network reads the board through (:mod:`noughts.neural.net`)."""
        return {"line_cells": self.line_cells, "through": self.through, "through_valid": self.through_valid}


def value_for(winner: jax.Array, player: jax.Array) -> jax.Array:
    """The final result (``winner``: 1, -1, 0) from ``player``'s side (0 first, 1 second)."""
    return winner.astype(jnp.float32) * (1 - 2 * player).astype(jnp.float32)
