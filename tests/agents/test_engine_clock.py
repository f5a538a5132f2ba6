"""The engine's clock is a node budget: the leaf VCFs' steps count toward it (issue 13's
follow-up: a 1 s move ran 1.6 s on 15x15, the leaf VCFs unseen by the budget)."""

from __future__ import annotations

import pytest

import noughts
from noughts.agents.engine import EngineAgent
from noughts.core import LimitExceeded

GOMOKU = noughts.game("mnk(15,15,5)")


def _closed_threes():
    """x to move with five closed threes (an o at one end) on rows far apart: every three gives
    a four and a forced reply, so the leaf VCF has hundreds of steps to try and no win."""
    n = 15
    rows = [(1, 1), (4, 5), (7, 9), (10, 1), (13, 5)]
    xs = [r * n + c + i for r, c in rows for i in range(3)]
    os_ = [r * n + c - 1 for r, c in rows] + [r * n + 14 for r in (0, 3, 6, 9, 12)]
    os_ += [r * n + 12 for r in (1, 4, 7, 10, 13)]
    p = GOMOKU.start()
    for x, o in zip(xs, os_, strict=True):
        p = p.play(x).play(o)
    return p


def test_the_leaf_vcf_counts_toward_the_node_budget() -> None:
    p = _closed_threes()
    agent = EngineAgent(leaf_vcf=3)
    _, score = agent.search_depth(p, 0)  # no budget: the leaf VCF runs to its own cap
    assert abs(score) < 10_000  # no forced win here, so the VCF tried everything it could
    with pytest.raises(LimitExceeded, match="node budget"):
        agent.search_depth(p, 0, max_nodes=20)  # one alpha-beta node, the rest VCF steps
    # without the leaf VCF the same search is one node, well inside the budget
    EngineAgent(leaf_vcf=0).search_depth(p, 0, max_nodes=20)


def test_a_budgeted_search_that_finishes_gives_the_unbudgeted_answer() -> None:
    p = _closed_threes()
    agent = EngineAgent(tt=0)
    full = agent.search_depth(p, 2)
    assert agent.search_depth(p, 2, max_nodes=10**7) == full


def test_the_root_vcf_still_finds_a_win_after_a_search_ran_out() -> None:
    """The root VCF has a budget of its own: a search stopped by its budget leaves no stop
    behind for the next search."""
    p = _closed_threes()
    agent = EngineAgent(seconds=0.5)
    with pytest.raises(LimitExceeded):
        agent.search_depth(p, 3, max_nodes=50)
    r = agent.analyse(_open_four_position(), 0.5)
    assert r.proven == "win"


def _open_four_position():
    """x to move, an open three on row 8 (h8, i8, j8 with both ends open): a VCF win."""
    p = GOMOKU.start()
    for x, o in ((7 * 15 + 6, 0), (7 * 15 + 7, 14), (7 * 15 + 8, 14 * 15)):
        p = p.play(x).play(o)
    return p


def test_the_root_proof_runs_under_the_clock_as_well_as_a_node_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from noughts.proving import proof

    given = []
    real = proof.ProofSearch

    def spy(*args: object, **kwargs: object) -> object:
        s = real(*args, **kwargs)  # type: ignore[arg-type]
        given.append(s)
        return s

    monkeypatch.setattr(proof, "ProofSearch", spy)
    # o threatens nothing, x has a line two claims short of a threat: the root's df-pn runs
    p = _play_moves(["h8", "a1", "i8", "a15"])
    EngineAgent(seconds=0.4, vcf=0, vct=0, proof=0.5).analyse(p)
    assert given, "the root's df-pn did not run"
    clock = given[0].budget
    assert clock is not None and clock.max_seconds is not None and 0 < clock.max_seconds <= 0.2 + 1e-9
    assert given[0].max_nodes is not None


def _play_moves(moves):
    p = GOMOKU.start()
    for m in moves:
        p = p.play(GOMOKU.parse_move(m))
    return p


def test_a_rate_read_low_is_corrected_and_the_depth_tried_again() -> None:
    """The first iterations are too short to time: a rate read far too low made the next
    iteration run out of its node budget at once, and the move stopped 1 ply deep with most of
    its time unused. Now the iteration is tried again with the rate its run showed."""
    qubic = noughts.game("hypercube(4,3)")
    p = qubic.start().play(0).play(21)
    agent = EngineAgent(vcf=0, vct=0, proof=0)
    agent._rate = 1_000.0  # a rate read low, as a slow first iteration gives
    r = agent.analyse(p, 1.0)
    assert r.depth >= 3 and r.proven is None


def test_the_rate_after_an_abort() -> None:
    from noughts.agents.engine import _rate_after_abort

    assert _rate_after_abort(1_000.0, 50_000, 0.5) == 100_000.0  # timed: the run's own rate
    assert _rate_after_abort(1_000.0, 600, 0.0001) == 60_000.0  # too short to time: at least done / 10 ms
    assert _rate_after_abort(50_000.0, 600, 0.0001) == 200_000.0  # and at least fourfold
