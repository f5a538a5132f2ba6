"""Many claim games at once: random playouts and a vectorised step, over numba bitboards.

For standard, misère, Maker-Breaker and cumulative rules on boards of any size (the games
:func:`supports` accepts), a batch of games is two bitboards per game, stepped by the kernels
of :mod:`noughts.envs._batch_kernels`, which apply the rules of :mod:`noughts.core.claim` move
for move: one uint64 per player on boards of up to 64 cells, W words per player beyond (15x15,
7x7x7). :func:`random_playouts` plays boards past 64 cells from each game's line counts. The
tests hold them to the reference (the public ``Position`` API) game by game, with the same
random choices, on one-word boards, on boards past 64 cells and on small boards forced to W
words.

Results are from the first player's view: ``1`` the first player won, ``-1`` the second,
``0`` a draw.

>>> import noughts
>>> from noughts.envs.batch import random_playouts
>>> r = random_playouts(noughts.game("tictactoe"), 100_000, seed=1)
>>> r.results.shape, int(r.lengths.max())
((100000,), 9)
>>> bool(0.58 < (r.results == 1).mean() < 0.59)   # exactly 737/1260 = 0.5849... (see the tests)
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from noughts.core import Game, IllegalMoveError, NoughtsError, Outcome, Result, Rule
from noughts.core import game as make_game
from noughts.core.tables import split_words

__all__ = ["MAX_CELLS", "BatchGame", "PlayoutResults", "random_playouts", "supports"]

MAX_CELLS = 64
"""The largest board of the one-word kernels (one uint64 per player); larger boards get W words
per player (:class:`BatchGame`) or line counts (:func:`random_playouts`)."""

RESULT_OUTCOMES = {1: Outcome.FIRST, -1: Outcome.SECOND, 0: Outcome.DRAW}
"""A result (the first player's view) as an :class:`~noughts.core.Outcome`."""


def supports(game: Game | str) -> bool:
    """Whether the batch kernels play ``game`` (:class:`BatchGame`, :func:`random_playouts`):
    standard, misère, Maker-Breaker or cumulative rules (``game.claim_rule``; not Otrio, whose
    ring quotas are no claim rule, nor veto or Notakto), on a board of any size.
    """
    return make_game(game).claim_rule is not None


class _Tables:
    """The rule code and the board's tables, as the kernels take them.

    ``words``: None for one uint64 per player on a board of at most 64 cells and the board's
    ``tables.words`` beyond; a number forces W-word masks of that many words (at least the
    board needs) on any board.
    """

    def __init__(self, game: Game | str, words: int | None = None):
        g = make_game(game)
        if not supports(g):
            raise NoughtsError(
                f"batched play takes standard, misere, maker_breaker or cumulative rules, not {g}"
            )
        if words is not None and (not isinstance(words, (int, np.integer)) or words < 1):
            raise NoughtsError(f"words must be a whole number >= 1, not {words!r}")
        tables = g.board.tables
        self.game = g
        self.rule = int(g.claim_rule)  # type: ignore[arg-type]  # supports() checked it
        self.ncells = tables.cells
        maker = 0 if g.maker is None else int(g.maker)
        if words is None and tables.fits_one_word:
            self.words: int | None = None
            lines: object = tables.line_bits
            full: object = tables.full_bits
        else:
            self.words = max(int(words or 0), tables.words)
            lines = split_words(g.board.line_masks, self.words)
            full = split_words((g.board.full_mask,), self.words)[0]
        self.board = (maker, lines, tables.through, tables.nthrough, full)
        """What the kernels read of the game (see :mod:`noughts.envs._batch_kernels`)."""
        self.aux0 = tables.num_lines if self.rule == Rule.MAKER_BREAKER else 0


@dataclass(frozen=True)
class PlayoutResults:
    """What :func:`random_playouts` returns: per game its result (1, -1 or 0, from the first
    player's view) and its length in moves.
    """

    results: npt.NDArray[np.int8]
    lengths: npt.NDArray[np.int16]

    def outcome_counts(self) -> dict[Outcome, int]:
        """How many games ended each way."""
        return {o: int((self.results == code).sum()) for code, o in RESULT_OUTCOMES.items()}


def random_playouts(
    game: Game | str,
    n: int,
    *,
    seed: int = 0,
    uniforms: npt.ArrayLike | None = None,
    parallel: bool = False,
) -> PlayoutResults:
    """Play ``n`` games from the start, each move uniform among the legal moves.

    Move ``t`` of game ``g`` takes the ``floor(u * len(moves))``-th legal move in
    ``legal_moves()`` order, with ``u = uniforms[g, t]`` when ``uniforms`` is given (shape
    ``(n, cells)``, values in [0, 1)), else from a SplitMix64 stream of ``seed`` and ``g``.
    With ``parallel`` the games are shared among numba's threads; the results are the same.

    Every claim game is played (standard, misère, Maker-Breaker or cumulative rules), on a
    board of any size: up to 64 cells on one-word bitboards, past 64 (15x15, 7x7x7) from line
    counts (:func:`noughts.kernels.counts.claim_counted`), both numba kernels.
    """
    g = make_game(game)
    if g.board.num_cells > MAX_CELLS and g.claim_rule is not None:
        return _counted_playouts(g, n, seed, uniforms, parallel)
    tables = _Tables(g)
    given = _given(n, tables.ncells, uniforms)
    from noughts.envs import _batch_kernels as K

    codes = np.empty(int(n), dtype=np.int8)
    lengths = np.empty(int(n), dtype=np.int16)
    kernels = K.rule_kernels(tables.rule)
    kernel = kernels.playouts_parallel if parallel else kernels.playouts
    kernel(tables.board, tables.aux0, given, np.uint64(seed % 2**64), codes, lengths)
    return PlayoutResults(_VIEW[codes + 1], lengths)


def _given(n: object, cells: int, uniforms: npt.ArrayLike | None) -> npt.NDArray[np.float64]:
    """The uniforms as the kernels take them (checked), or an empty array for the streams."""
    if not isinstance(n, (int, np.integer)) or n < 0:
        raise NoughtsError(f"the number of games must be a whole number >= 0, not {n!r}")
    if uniforms is None:
        return np.zeros((0, 0), dtype=np.float64)
    given = np.ascontiguousarray(uniforms, dtype=np.float64)
    if given.shape != (n, cells):
        raise NoughtsError(f"uniforms must have shape ({n}, {cells}), not {given.shape}")
    if not ((given >= 0) & (given < 1)).all():
        raise NoughtsError("uniforms must lie in [0, 1)")
    return given


def _counted_playouts(
    game: Game, n: int, seed: int, uniforms: npt.ArrayLike | None, parallel: bool
) -> PlayoutResults:
    """:func:`random_playouts` on a board past 64 cells: the line-count kernels
    (:func:`noughts.envs._batch_kernels._play_counted`), the same choices.
    """
    from noughts.envs import _batch_kernels as K

    tables = game.board.tables
    given = _given(n, tables.cells, uniforms)
    rule = int(game.claim_rule)  # type: ignore[arg-type]  # the caller checked it
    maker = 0 if game.maker is None else int(game.maker)
    board = (maker, game.board.k, tables.through, tables.nthrough, tables.cells, tables.num_lines)
    aux0 = tables.num_lines if rule == Rule.MAKER_BREAKER else 0
    codes = np.empty(int(n), dtype=np.int8)
    lengths = np.empty(int(n), dtype=np.int16)
    kernels = K.rule_kernels(rule)
    kernel = kernels.counted_parallel if parallel else kernels.counted
    kernel(board, aux0, given, np.uint64(seed % 2**64), codes, lengths)
    return PlayoutResults(_VIEW[codes + 1], lengths)


class BatchGame:
    """A batch of games of one claim game, stepped together (a vector environment's core).

    Any claim game (:func:`supports`), on a board of any size: each game is one uint64 per
    player on a board of up to 64 cells, ``W = ceil(cells / 64)`` words per player beyond
    (``words`` forces W-word masks of that many words on a small board too, as the tests do).
    ``bits`` holds the players' cells: shape ``(batch, 2)`` or ``(batch, 2, W)``.

    ``reset(batch)`` starts ``batch`` games; ``legal_mask()`` is a ``(batch, cells)`` boolean
    array; ``step(actions)`` claims ``actions[g]`` in every game still running (finished games
    ignore their action) and raises ``IllegalMoveError`` naming the first game whose action is
    not an empty cell, changing nothing. ``results`` holds 1, -1 or 0 for finished games
    (first player's view) and :attr:`RUNNING` for the others; ``plies`` the moves made.

    >>> import numpy as np, noughts
    >>> b = BatchGame(noughts.game("tictactoe"))
    >>> b.reset(2)
    >>> b.step(np.array([4, 0]))
    >>> b.to_move().tolist(), b.legal_mask()[0].astype(int).tolist()
    ([1, 1], [1, 1, 1, 1, 0, 1, 1, 1, 1])
    >>> big = BatchGame("mnk(15,15,5)")   # 225 cells: four words per player
    >>> big.reset(3)
    >>> big.step([112, 0, 224])
    >>> big.bits.shape, big.legal_mask().sum(axis=1).tolist()
    ((3, 2, 4), [224, 224, 224])
    """

    RUNNING = 2
    """The result of a game that has not ended."""

    def __init__(self, game: Game | str, *, words: int | None = None):
        self._t = _Tables(game, words)
        self.game = self._t.game
        self.reset(0)

    @property
    def num_actions(self) -> int:
        """The number of cells (actions) of each game."""
        return self._t.ncells

    def reset(self, batch: int) -> None:
        """Start ``batch`` new games from the start position."""
        if not isinstance(batch, (int, np.integer)) or batch < 0:
            raise NoughtsError(f"the batch size must be a whole number >= 0, not {batch!r}")
        shape = (batch, 2) if self._t.words is None else (batch, 2, self._t.words)
        self.bits = np.zeros(shape, dtype=np.uint64)
        self.aux = np.zeros((batch, 2), dtype=np.int64)
        self.aux[:, 0] = self._t.aux0
        self.plies = np.zeros(batch, dtype=np.int64)
        self._codes = np.full(batch, Result.RUNNING, dtype=np.int8)  # the kernels' Result codes

    @property
    def results(self) -> npt.NDArray[np.int8]:
        """Each game's result: 1, -1 or 0 (the first player's view) once it is over, else
        :attr:`RUNNING` (a new array).
        """
        return _VIEW[self._codes + 1]

    @property
    def batch(self) -> int:
        """How many games the batch holds."""
        return int(self._codes.shape[0])

    def done(self) -> npt.NDArray[np.bool_]:
        """Which games are over."""
        done: npt.NDArray[np.bool_] = self._codes != Result.RUNNING
        return done

    def to_move(self) -> npt.NDArray[np.int64]:
        """The player to move in each game (0 first, 1 second), by turn order."""
        return self.plies & 1

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``(batch, cells)``: true where the cell is empty in a running game."""
        from noughts.envs import _batch_kernels as K

        out = np.empty((self.batch, self._t.ncells), dtype=bool)
        mask = K.legal_mask if self._t.words is None else K.legal_mask_wide
        mask(self._t.ncells, self.bits, self._codes, out)
        return out

    def step(self, actions: npt.ArrayLike) -> None:
        """Claim ``actions[g]`` (a cell) in every running game ``g``."""
        from noughts.envs import _batch_kernels as K

        a = np.ascontiguousarray(actions, dtype=np.int64)
        if a.shape != (self.batch,):
            raise NoughtsError(f"actions must have shape ({self.batch},), not {a.shape}")
        step = K.rule_kernels(self._t.rule).step
        bad = step(self._t.board, self.bits, self.aux, self.plies, self._codes, a)
        if bad >= 0:
            raise IllegalMoveError(
                f"game {bad}: action {int(a[bad])} is illegal: it is not an empty cell of {self.game.board.spec}"
            )

    def scores(self) -> npt.NDArray[np.int64]:
        """``(batch, 2)``: each side's completed lines so far (cumulative rules only)."""
        if self._t.rule != Rule.CUMULATIVE:
            raise NoughtsError(f"{self.game} keeps no score")
        return self.aux.copy()

    def outcome(self, g: int) -> Outcome | None:
        """Game ``g``'s outcome, or None while it runs."""
        return Result(int(self._codes[g])).outcome()


_VIEW = np.array(
    [BatchGame.RUNNING, *(Result(r).first_view() for r in (Result.FIRST, Result.SECOND, Result.DRAW))],
    np.int8,
)
"""A kernel's :class:`~noughts.core.Result` code ``r`` as the result shown, ``_VIEW[r + 1]``: the
first player's view (1 won, -1 lost, 0 drawn), or :attr:`BatchGame.RUNNING`."""
