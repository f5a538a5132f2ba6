"""The engines on boards given by their lines: each kernel told exactly the symmetries it holds.

A board given by its lines lists its symmetries cut back to a subgroup (AG(2,3): 48 of the first
64; the 4x4 torus: 8), and the alpha-beta kernel and the Breaker prover were told the number
asked for: they read past the table's rows (a segmentation fault on a 100-point ring; garbage
keys, silently, on the planes). These tests hold each kernel's count to its table.
"""

from __future__ import annotations

import pytest

import noughts
from noughts.core import Budget, Outcome
from noughts.exact import _kernels as FK
from noughts.exact.fast import FastSolver
from noughts.exact.proof import prove_value
from noughts.pairing.breaker_search import BreakerProver
from noughts.pairing.breaker_setup import question

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
