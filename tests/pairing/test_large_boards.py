"""Boards past the playing limit: built for their hypergraph only (issue 12)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cli"))
from cli_cases import invoke

import noughts
from noughts.core.board import MAX_CELLS, hypergraph_boards
from noughts.core.errors import SpecError
from noughts.core.registry import hypergraph
from noughts.pairing.matching import find_pairing


def test_play_keeps_the_limit_and_the_hypergraph_path_lifts_it() -> None:
    with pytest.raises(SpecError, match=f"at most {MAX_CELLS}"):
        noughts.game("hypercube(10,4)")
    game = hypergraph("hypercube(10,4)")
    assert game.board.num_cells == 10_000
    assert len(game.board.lines) == (12**4 - 10**4) // 2  # 002 Lemma 2.1
    # the lifted limit holds inside the block only
    with hypergraph_boards():
        assert noughts.game("mnk(65,65,65)").board.num_cells == 4225
    with pytest.raises(SpecError):
        noughts.game("mnk(65,65,65)")


def test_a_pairing_past_the_limit() -> None:
    game = hypergraph("mnk(65,65,65)")  # 132 lines on 4225 cells
    result = find_pairing(game.start())
    assert result.exists and len(result.pairing.pairs) == 132


def test_pairing_find_cli_past_the_limit() -> None:
    result = invoke("pairing", "find", "mnk(65,65,65)", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["exists"] is True and doc["survivors"] == 132 and doc["free_cells"] == 4225
    assert invoke("play", "mnk(65,65,65)").exit_code == 2


@pytest.mark.slow
def test_hypercube_10_4_and_11_4() -> None:
    # 10^4: 5,368 lines need 10,736 cells of 10,000; 11^4: 6,960 lines fit in 14,641 cells
    no = find_pairing(hypergraph("hypercube(10,4)").start())
    assert not no.exists and len(no.deficient_lines) * 2 > len(no.deficient_cells)
    yes = find_pairing(hypergraph("hypercube(11,4)").start())
    assert yes.exists and len(yes.pairing.pairs) == 6960


def test_the_breaker_prover_takes_boards_past_the_playing_limit_under_a_budget() -> None:
    """10,000 cells: each node costs tens of milliseconds, so the driver shrinks its slices and
    the budget stops the search (or, under load, its setup) with how far it got."""
    from noughts.breaker.prover import prove_breaker
    from noughts.core import Budget, LimitExceeded

    with pytest.raises(LimitExceeded, match=r"nodes searched|its tables alone"):
        prove_breaker("maker_breaker(hypercube(10,4))", budget=Budget(max_seconds=3))
