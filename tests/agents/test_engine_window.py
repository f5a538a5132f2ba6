"""The engine's aspiration windows and late-move pruning, held to the full-window search.

A fail-soft alpha-beta in a window (alpha, beta) gives the full window's score where that score
lies inside, an upper bound at or below alpha where it lies below, a lower bound at or above
beta where it lies above: the driver's re-search rests on exactly this. Late-move pruning cuts
only past ``lmp * depth`` moves of a node, so a limit at or above the width changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
from engine_cases import random_positions

import noughts
from noughts.agents import _engine_kernel as K
from noughts.agents.engine import EngineAgent
from noughts.core import NoughtsError

GOMOKU = noughts.game("mnk(15,15,5)")


def _window_score(agent, p, depth, alpha, beta):
    agent.search_depth(p, 0)  # loads p into the agent's state
    S = agent._states[p.game].S
    score = int(K.root_window(S, depth, int(p.to_move), 1 << 62, alpha, beta))
    assert not S[8][K.V_ABORT]
    return score


@pytest.mark.parametrize("spec", ["mnk(7,7,4)", "hypercube(4,3)"])
def test_a_window_search_is_exact_inside_and_a_bound_outside(spec):
    """At full width (no selective pruning: the killers and history only order the moves, so
    the window changes no move's value)."""
    g = noughts.game(spec)
    cells = g.board.num_cells
    seen = {"inside": 0, "low": 0, "high": 0}
    for p in random_positions(g, 12, np.random.default_rng(7), most=10):
        _, full = EngineAgent(width=cells, leaf_vcf=2, tt=0).search_depth(p, 3)
        if abs(full) > K.WIN - K.MATE:
            continue
        for case, alpha, beta in (
            ("inside", full - 50, full + 50),
            ("low", full + 1, full + 401),  # the true score lies below the window
            ("high", full - 400, full - 1),  # above it
        ):
            score = _window_score(EngineAgent(width=cells, leaf_vcf=2, tt=0), p, 3, alpha, beta)
            if case == "inside":
                assert score == full, (p.text(), alpha, beta)
            elif case == "low":
                assert full <= score <= alpha, (p.text(), alpha, beta, score)
            else:
                assert beta <= score <= full, (p.text(), alpha, beta, score)
            seen[case] += 1
    assert min(seen.values()) >= 3


def test_late_move_pruning_past_the_width_changes_nothing_and_below_it_searches_less():
    plain = EngineAgent(width=6, leaf_vcf=2, tt=0)
    wide = EngineAgent(width=6, leaf_vcf=2, tt=0, lmp=6)  # 6 moves a ply of depth: never past the width
    tight = EngineAgent(width=6, leaf_vcf=2, tt=0, lmp=1)
    nodes = {"plain": 0, "tight": 0}
    for p in random_positions(GOMOKU, 6, np.random.default_rng(9), most=30):
        assert wide.search_depth(p, 3) == plain.search_depth(p, 3)
        nodes["plain"] += int(plain._states[GOMOKU].S[8][K.V_NODES])
        tight.search_depth(p, 3)
        nodes["tight"] += int(tight._states[GOMOKU].S[8][K.V_NODES])
    assert nodes["tight"] < nodes["plain"]


def test_a_forced_win_survives_late_move_pruning():
    """An open three to extend (h8 i8 j8, both ends free): the pruned search still wins."""
    p = GOMOKU.start()
    for x, o in (("h8", "a1"), ("i8", "a3"), ("j8", "a5")):
        p = p.play(GOMOKU.parse_move(x)).play(GOMOKU.parse_move(o))
    move, score = EngineAgent(lmp=1, tt=0).search_depth(p, 3)
    assert score > K.WIN - K.MATE
    assert GOMOKU.format_move(move) in {"g8", "k8"}


def test_the_options_are_checked_and_named():
    assert EngineAgent(lmp=3, aspire=200).name == "engine:lmp=3,aspire=200"
    with pytest.raises(NoughtsError, match="lmp"):
        EngineAgent(lmp=-1)
    with pytest.raises(NoughtsError, match="aspire"):
        EngineAgent(aspire=-5)
