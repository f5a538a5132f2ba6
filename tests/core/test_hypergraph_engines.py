"""The engines on boards given by their lines: each kernel told exactly the symmetries it holds.

A board given by its lines lists its symmetries cut back to a subgroup (AG(2,3): 48 of the first
64; the 4x4 torus: 8), and the alpha-beta kernel and the Breaker prover were told the number
asked for: they read past the table's rows (a segmentation fault on a 100-point ring; garbage
keys, silently, on the planes). These tests hold each kernel's count to its table.
"""

from __future__ import annotations

import random

import pytest

import noughts
from noughts.breaker.cover import exact_pairing, find_cover_pairing, is_pairing
from noughts.breaker.question import question
from noughts.breaker.reference import reference_prove
from noughts.breaker.search import BreakerProver
from noughts.core import Budget, Outcome, Player
from noughts.exact import _kernels as FK
from noughts.exact.fast import FastSolver
from noughts.proving.proof import prove_value

RING100 = 'hypergraph("' + " / ".join(f"{i} {(i + 1) % 100} {(i + 3) % 100}" for i in range(100)) + '")'


@pytest.mark.parametrize("spec", ["affine(3)", "torus(4,4,4)", "projective(3)", RING100])
def test_the_alpha_beta_kernel_is_told_the_rows_it_has(spec: str) -> None:
    solver = FastSolver(noughts.game(spec))
    board = noughts.board(spec)
    assert len(board.symmetries) > len(solver._symtab)  # cut back to a subgroup: the case at issue
    assert solver._prm[FK.P_SYMS] == len(solver._symtab)


@pytest.mark.parametrize("spec", ["maker_breaker(affine(3))", "maker_breaker(torus(4,4,3))"])
def test_the_breaker_prover_is_told_the_rows_it_has(spec: str) -> None:
    prover = BreakerProver(question(noughts.game(spec)), record=False, tt_entries=1 << 10)
    assert prover.prm[prover.K.P_SYMS] == len(prover.perms) < len(noughts.board(spec).symmetries)


def test_a_ring_of_100_points_is_solved_by_both_engines() -> None:
    """Before the fix: a segmentation fault in the first slice (the multi-word kernel). The
    alpha-beta kernel and the proof engine (keyed by its own rows) agree: x wins."""
    game = noughts.game(RING100)
    solver = FastSolver(game, budget=Budget(max_seconds=600))
    value = solver.value(game.start())
    assert value.outcome is Outcome.FIRST and value.plies is not None and value.plies >= 5
    assert prove_value(game).outcome is Outcome.FIRST


def test_the_planes_keep_their_published_values() -> None:
    """Carroll and Dougherty 2004: x wins AG(2,3) and PG(2,2), the torus 4x4 (k = 4) is a draw."""
    for spec, winner in [("affine(3)", "x"), ("projective(2)", "x"), ("torus(4,4,4)", None)]:
        game = noughts.game(spec)
        value = FastSolver(game).value(game.start())
        assert (
            (value.outcome.winner is None)
            if winner is None
            else game.player_label(value.outcome.winner) == winner
        )


# -- the Breaker prover on a torus with k below a side (issue 27) ------------------------------------
# Two lines of one row of torus(5,5,4) share 3 cells, though each is a segment of its own: the
# cover search's blocks are then single lines (002's matching: two cells of its own per line),
# sound whatever the overlaps, and `_seg_need`'s per-segment count only orders the search.
# Positions from random play where the plain reference settles quickly, both answers.
TORUS_CASES = [
    ("x..../..xxo/..oo./x..o./x....", True),
    ("x.xx./.o.../...xo/o..x./o.o..", True),
    ("o..../..o.x/..xxx/..x.o/o..o.", True),
    ("...xx/.o.../.o..o/..x../.o..x", False),
    ("x.oo./.oxo./...x./...../xxxo.", False),
]


@pytest.mark.parametrize(("text", "breaker_wins"), TORUS_CASES)
def test_the_breaker_prover_on_a_torus_with_k_below_a_side_agrees_with_the_reference(
    text: str, breaker_wins: bool
) -> None:
    game = noughts.game("torus(5,5,4)")
    position = game.parse(text)
    q = question(game, position, breaker=Player.FIRST)
    assert reference_prove(q, max_nodes=50_000).proved is breaker_wins
    prover = BreakerProver(q, record=False, tt_entries=1 << 12)
    assert (prover.run() == prover.K.PROVED) is breaker_wins


def test_cover_pairings_on_a_torus_are_pairings() -> None:
    """Every pairing the block search returns on torus(6,6,5) (lines of one row share up to 4
    cells) is one: each live line holds both cells of a pair, the pairs disjoint (it may miss a
    pairing where one pair would serve two overlapping lines; it never returns a wrong one).
    Breaker (o) plays greedily, on the cell that kills most live lines, so that pairings occur."""
    game = noughts.game("maker_breaker(torus(6,6,5))")
    board = game.board
    rng = random.Random(3)
    found = 0
    for _ in range(30):
        position = game.start()
        for _ in range(rng.randrange(6, 24)):
            if position.is_terminal():
                break
            moves = position.legal_moves()
            if position.to_move is Player.SECOND:
                o = position.owned(Player.SECOND)
                live = {c: sum(1 for mask in board.masks_through[c] if not mask & o) for c in moves}
                most = max(live.values())
                position = position.play(rng.choice([c for c in moves if live[c] == most]))
            else:
                position = position.play(rng.choice(moves))
        if position.is_terminal():
            continue
        maker, breaker = position.owned(Player.FIRST), position.owned(Player.SECOND)
        pairs = find_cover_pairing(position)
        if pairs is not None:
            found += 1
            assert is_pairing(board, maker, breaker, pairs), position.text()
            assert exact_pairing(board, maker, breaker) is not None  # the reference agrees one exists
    assert found >= 1  # the check ran on a real pairing
