"""claim_after (numba) and claim_after_many (NumPy) held to noughts.core.claim, claim by claim.

Every claim from every reachable running position of the 3x3 and 3x4 games under each rule
(standard, misère, Maker-Breaker with Maker or Breaker first, cumulative), and claims from
positions sampled along random games of 4x4 and of a board over 64 cells: the reference is
``position.play(cell)`` with its ``outcome()``, survivors and score; the kernels get the
position before the claim and its aux. Each twin runs with one-word masks (boards of at most 64
cells) and with W-word masks, W forced to 1 and to 2 on the small boards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt
import pytest
from numba import njit

import noughts
from noughts.core import Game, Position, Result
from noughts.core.tables import split_words
from noughts.kernels.claim import claim_after
from noughts.kernels.claim_numpy import claim_after_many
from noughts.kernels.codes import start_aux

RULES = ["{}", "misere({})", "maker_breaker({})", "maker_breaker({},breaker_first=true)", "cumulative({})"]
SMALL = ["mnk(3,3,3)", "mnk(4,3,3)"]


@dataclass
class Claims:
    """One claim per row: the position before it, the claim, and what the reference says."""

    mover: npt.NDArray[np.int64]
    mine: list[int]  # the mover's cells, the claimed cell included
    theirs: list[int]
    cell: npt.NDArray[np.int64]
    full: npt.NDArray[np.bool_]
    aux0: npt.NDArray[np.int64]
    aux1: npt.NDArray[np.int64]
    result: npt.NDArray[np.int64]
    new0: npt.NDArray[np.int64]
    new1: npt.NDArray[np.int64]


def _aux(game: Game, p: Position) -> tuple[int, int]:
    if game.claim_rule == noughts.core.Rule.MAKER_BREAKER:
        return game.survivors(p), 0  # type: ignore[attr-defined]
    score = p.score()
    return score if score is not None else (0, 0)


class _Rows:
    """The claims collected so far."""

    def __init__(self, game: Game):
        self.game = game
        self.full = game.board.full_mask
        self.rows: list[tuple[int, int, int, int, bool, int, int, int, int, int]] = []

    def add(self, p: Position, aux: tuple[int, int], cell: int, child: Position) -> None:
        mover = p.to_move
        mine, theirs = child.owned(mover), child.owned(mover.other)
        n0, n1 = _aux(self.game, child)
        code = int(Result.of(child.outcome()))
        self.rows.append((int(mover), mine, theirs, cell, (mine | theirs) == self.full, *aux, code, n0, n1))

    def claims(self) -> Claims:
        cols = list(zip(*self.rows, strict=True))
        ints = [np.array(cols[i], dtype=np.int64) for i in (0, 3, 5, 6, 7, 8, 9)]
        mover, cell, aux0, aux1, result, new0, new1 = ints
        return Claims(
            mover, list(cols[1]), list(cols[2]), cell, np.array(cols[4]), aux0, aux1, result, new0, new1
        )


@cache
def _reachable(spec: str) -> Claims:
    """Every claim from every reachable running position (one play per claim)."""
    game = noughts.game(spec)
    rows = _Rows(game)
    seen = {game.start()}
    level = [game.start()]
    while level:
        nxt = []
        for p in level:
            aux = _aux(game, p)
            for m in p.legal_moves():
                c = p.play(m)
                rows.add(p, aux, m, c)
                if c not in seen and not c.is_terminal():
                    seen.add(c)
                    nxt.append(c)
        level = nxt
    return rows.claims()


@cache
def _sampled(spec: str, games: int, seed: int) -> Claims:
    """Up to three claims from each position along ``games`` random games."""
    game = noughts.game(spec)
    rows = _Rows(game)
    rng = np.random.default_rng(seed)
    for _ in range(games):
        p = game.start()
        while not p.is_terminal():
            moves = p.legal_moves()
            aux = _aux(game, p)
            for i in rng.choice(len(moves), min(3, len(moves)), replace=False):
                rows.add(p, aux, moves[int(i)], p.play(moves[int(i)]))
            p = p.play(moves[int(rng.integers(len(moves)))])
    return rows.claims()


def _split(masks: list[int], words: int) -> npt.NDArray[np.uint64]:
    """``split_words`` for many masks (rows of ``words`` words), vectorised a word at a time."""
    out = np.zeros((len(masks), words), dtype=np.uint64)
    rest = list(masks)
    for i in range(words):
        out[:, i] = [m & 0xFFFFFFFFFFFFFFFF for m in rest]
        rest = [m >> 64 for m in rest]
    return out


@njit
def _judge(rule, maker, c, mine, theirs, lines, through, nthrough, out):  # type: ignore[no-untyped-def]
    """claim_after on each row (numba compiles it once per mask representation)."""
    for i in range(c.shape[0]):
        r, a0, a1 = claim_after(
            rule, maker, c[i, 0], mine[i], theirs[i], c[i, 1], c[i, 2] != 0, lines, through, nthrough,
            c[i, 3], c[i, 4],
        )  # fmt: skip
        out[i, 0] = r
        out[i, 1] = a0
        out[i, 2] = a1


def _check(game: Game, claims: Claims, words: int | None) -> None:
    """Both twins on ``claims`` with one-word masks (``words`` None) or ``words`` words."""
    t = game.board.tables
    rule, maker = int(game.claim_rule), int(game.maker or 0)  # type: ignore[arg-type]
    if words is None:
        lines = t.line_bits
        mine = np.array(claims.mine, dtype=np.uint64)
        theirs = np.array(claims.theirs, dtype=np.uint64)
    else:
        lines = split_words(game.board.line_masks, words)
        mine, theirs = _split(claims.mine, words), _split(claims.theirs, words)
    expected = np.stack([claims.result, claims.new0, claims.new1], axis=1)
    c = np.stack([claims.mover, claims.cell, claims.full, claims.aux0, claims.aux1], axis=1)
    got = np.zeros_like(expected)
    _judge(rule, maker, c, mine, theirs, lines, t.through, t.nthrough, got)
    bad = np.flatnonzero((got != expected).any(axis=1))
    assert bad.size == 0, f"numba, row {bad[:1]}: got {got[bad[:1]]}, expected {expected[bad[:1]]}"
    # the NumPy twin: one call per (mover, cell), the claims of every position at once
    for mover in (0, 1):
        for cell in range(game.board.num_cells):
            rows = np.flatnonzero((claims.mover == mover) & (claims.cell == cell))
            if rows.size == 0:
                continue
            result, a0, a1 = claim_after_many(
                rule, maker, mover, mine[rows], theirs[rows], cell, claims.full[rows], lines,
                t.through, t.nthrough, claims.aux0[rows], claims.aux1[rows],
            )  # fmt: skip
            assert np.array_equal(result, claims.result[rows]), (mover, cell)
            assert np.array_equal(a0, claims.new0[rows]) and np.array_equal(a1, claims.new1[rows]), (
                mover,
                cell,
            )


@pytest.mark.parametrize("board", SMALL)
@pytest.mark.parametrize("rules", RULES)
def test_every_claim_of_the_small_games(rules: str, board: str) -> None:
    spec = rules.format(board)
    game = noughts.game(spec)
    claims = _reachable(spec)
    for words in (None, 1, 2):
        _check(game, claims, words)
    # every kind of result occurs (no rule is checked on running positions alone)
    kinds = set(claims.result.tolist())
    assert {-1, 0, 1} <= kinds and (2 in kinds) == game.properties.has_draws


@pytest.mark.parametrize("rules", RULES)
def test_claims_sampled_from_4x4(rules: str) -> None:
    spec = rules.format("mnk(4,4,4)")
    game = noughts.game(spec)
    claims = _sampled(spec, 150, 4)
    for words in (None, 2):
        _check(game, claims, words)


@pytest.mark.parametrize("rules", RULES)
def test_claims_sampled_from_a_board_over_64_cells(rules: str) -> None:
    spec = rules.format("mnk(9,9,4)")
    game = noughts.game(spec)
    assert game.board.tables.words == 2
    claims = _sampled(spec, 12, 9)
    assert (claims.result != -1).any()
    for words in (2, 3):
        _check(game, claims, words)


def test_start_aux() -> None:
    for spec in ("tictactoe", "maker_breaker(tictactoe)", "cumulative(tictactoe)"):
        game = noughts.game(spec)
        assert start_aux(int(game.claim_rule), len(game.board.lines)) == _aux(game, game.start())[0]  # type: ignore[arg-type]
