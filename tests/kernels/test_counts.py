"""claim_counted (line counts carried from claim to claim) held to noughts.core, claim by claim.

Random games of small and large boards under every claim rule are replayed in the kernel from
the start's counts: after each claim the result code and the aux values (survivors, scores) are
the reference's (``position.play(cell)``, its outcome, survivors and score); taking the claims
back (unclaim_counted) leaves the counts of the start, and line_counts of any position is the
plain count of each player's cells on each line.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import noughts
from noughts.core import Game, Player, Position, Result, Rule
from noughts.core.tables import split_words
from noughts.kernels.codes import start_aux
from noughts.kernels.counts import claim_counted, line_counts, unclaim_counted

RULES = ["{}", "misere({})", "maker_breaker({})", "maker_breaker({},breaker_first=true)", "cumulative({})"]
BOARDS = ["mnk(3,3,3)", "mnk(4,4,3)", "mnk(9,9,4)", "hypercube(4,3)"]


def _aux(game: Game, p: Position) -> tuple[int, int]:
    if game.claim_rule == Rule.MAKER_BREAKER:
        return game.survivors(p), 0  # type: ignore[attr-defined]
    score = p.score()
    return score if score is not None else (0, 0)


@njit
def _replay(rule, maker, k, cnt, through, nthrough, cells, first, aux0, aux1, cellsn, out):  # type: ignore[no-untyped-def]
    mover = first
    n = cellsn
    for i in range(cells.shape[0]):
        n -= 1
        r, aux0, aux1 = claim_counted(
            rule, maker, mover, cnt, k, through, nthrough, cells[i], n == 0, aux0, aux1
        )
        out[i, 0] = r
        out[i, 1] = aux0
        out[i, 2] = aux1
        mover = 1 - mover
    for i in range(cells.shape[0] - 1, -1, -1):
        mover = 1 - mover
        unclaim_counted(mover, cnt, through, nthrough, cells[i])


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("rules", RULES)
def test_claims_along_random_games(rules: str, board: str) -> None:
    game = noughts.game(rules.format(board))
    t = game.board.tables
    rule, maker = int(game.claim_rule), int(game.maker or 0)  # type: ignore[arg-type]
    rng = np.random.default_rng(3)
    kinds = set()
    for _ in range(20):
        p = game.start()
        cells, expected = [], []
        while not p.is_terminal():
            moves = p.legal_moves()
            m = moves[int(rng.integers(len(moves)))]
            p = p.play(m)
            cells.append(m)
            expected.append((int(Result.of(p.outcome())) if p.is_terminal() else -1, *_aux(game, p)))
        cnt = np.zeros((t.num_lines, 2), dtype=np.int8)
        got = np.zeros((len(cells), 3), dtype=np.int64)
        a0, a1 = _aux(game, game.start())
        assert a0 == (start_aux(rule, t.num_lines) if rule == Rule.MAKER_BREAKER else 0)
        _replay(rule, maker, game.board.k, cnt, t.through, t.nthrough, np.array(cells, dtype=np.int64),
                int(game.start().to_move), a0, a1, t.cells, got)  # fmt: skip
        assert got.tolist() == [list(e) for e in expected]
        assert not cnt.any()  # every claim taken back
        kinds.add(expected[-1][0])
        # the counts of the last position, from its masks, one word and W words
        for words in {None, t.words, t.words + 1}:
            b0, b1 = p.owned(Player.FIRST), p.owned(Player.SECOND)
            if words is None:
                if not t.fits_one_word:
                    continue
                args = (t.line_bits, np.uint64(b0), np.uint64(b1), 1)
            else:
                w = split_words((b0, b1), words)
                args = (split_words(game.board.line_masks, words), w[0], w[1], words)
            line_counts(*args, cnt)
            plain = [[(lm & b0).bit_count(), (lm & b1).bit_count()] for lm in game.board.line_masks]
            assert cnt.tolist() == plain
            cnt[:] = 0
    assert len(kinds) >= 2 or board != "mnk(3,3,3)"  # random play ends every way on 3x3
