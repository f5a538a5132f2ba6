"""Erdős-Selfridge: the criterion, danger and potential moves held to exact references, and
the simulations of 002 §6.1."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import noughts
from noughts.core import NoughtsError
from noughts.pairing.potential import (
    danger,
    danger_reference,
    erdos_selfridge,
    plot_simulation,
    potential_move,
    potential_move_reference,
    simulate,
)


def test_criterion() -> None:
    es = erdos_selfridge(noughts.game("hypercube(7,3)"))
    assert (es.total, es.lines, es.holds) == (Fraction(193, 128), 193, False)  # 002 §6.1: 193 x 2^-7
    # a board where the criterion holds: 9 x 9 with 9 in a row, 20 lines of 2^-9
    es = erdos_selfridge(noughts.game("mnk(9,9,9)"))
    assert es.total == Fraction(20, 512) and es.holds
    es = erdos_selfridge(noughts.game("maker_breaker(mnk(2,2,2),breaker_first=true)"))
    assert es.threshold == 1 and es.total == Fraction(6, 4) and not es.holds


@pytest.mark.parametrize(
    "spec", ["maker_breaker(mnk(4,4,4))", "hypercube(3,3)", "maker_breaker(hypercube(4,3))", "mnk(5,5,4)"]
)
def test_fast_danger_and_moves_match_the_reference(spec: str) -> None:
    game = noughts.game(spec)
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(60):
        p = game.start()
        for _ in range(int(rng.integers(0, game.board.num_cells // 2))):
            if p.is_terminal():
                break
            moves = p.legal_moves()
            p = p.play(moves[int(rng.integers(len(moves)))])
        assert danger(p) == danger_reference(p)
        if not p.is_terminal():
            assert potential_move(p) == potential_move_reference(p)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("n", [5, 6, 7])
def test_simulations_of_002_figure_4(n: int) -> None:
    game = noughts.game(f"hypercube({n},3)")
    sim = simulate(game)
    assert sim.winner == "Breaker"
    assert sim.start_danger == erdos_selfridge(game).total
    centre = game.board.cell_at(((n - 1) // 2,) * 3)
    if n % 2:
        assert sim.rounds[0].maker_move == centre  # greedy Maker opens in the centre
    # Erdős-Selfridge: over a round (Breaker's potential move, then Maker's) danger never rises
    d = [r.danger_after_maker for r in sim.rounds]
    assert all(b <= a for a, b in itertools.pairwise(d))
    assert all(
        r.danger_after_breaker is None or r.danger_after_breaker <= r.danger_after_maker for r in sim.rounds
    )
    first = sim.first_below_half
    assert first is not None and d[first - 1] < Fraction(1, 2) <= d[first - 2]
    assert sim.first_below_one is not None and sim.first_below_one <= first


def test_7_cubed_rounds_against_the_source() -> None:
    # 002 §6.1 says D_i first drops below 1/2 after as many as 24 rounds; greedy Maker against
    # potential Breaker (ties to the lowest cell) needs 46, and 43 to 48 under random ties.
    # 24-25 is where D_i first drops below 1.
    sim = simulate(noughts.game("hypercube(7,3)"))
    assert (sim.first_below_half, sim.first_below_one) == (46, 25)
    seen = {
        simulate(noughts.game("hypercube(7,3)"), ties="random", seed=s).first_below_half for s in range(8)
    }
    assert all(h is not None and h > 24 for h in seen)


def test_random_maker_with_centre_opening_and_plot(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = noughts.game("hypercube(5,3)")
    centre = game.board.cell_at((2, 2, 2))
    sim = simulate(game, maker="random", seed=3, opening=centre)
    assert sim.rounds[0].maker_move == centre
    assert sim == simulate(game, maker="random", seed=3, opening=centre)  # seeded: the same game
    path = plot_simulation(sim, tmp_path / "d.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_strategies() -> None:
    with pytest.raises(NoughtsError):
        simulate(noughts.game("tictactoe"), maker="clever")
    with pytest.raises(NoughtsError):
        danger(noughts.game("misere(tictactoe)").start())
