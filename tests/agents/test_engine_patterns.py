"""The engine's combination of threats across lines (``kernels/patterns.py``): directions found
from the line tables alone agree with the board's geometry, the per-direction counts kept claim
by claim equal a recount, the kernel's claim classes equal the plain classification, and the
leaf adds exactly the combination terms of the classes."""

from __future__ import annotations

import numpy as np
import pytest
from engine_cases import random_positions

import noughts
from noughts.agents import _engine_kernel as K
from noughts.agents.engine import COMBO_WEIGHTS, EngineAgent
from noughts.core import NoughtsError
from noughts.kernels import patterns as PT


def _direction(board, line):
    a, b = board.coords[line[0]], board.coords[line[1]]
    return tuple(y - x for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("spec", ["mnk(15,15,5)", "mnk(7,9,4)", "hypercube(4,3)"])
def test_directions_from_the_line_tables_agree_with_the_geometry(spec):
    """Two lines through a cell get one direction index there exactly where they are collinear
    (the same step between their cells)."""
    board = noughts.game(spec).board
    t = board.tables
    ldir, ndir = PT.directions(t.line_cells, t.through, t.nthrough)
    most = 0
    for c in range(board.num_cells):
        js = [int(t.through[c, i]) for i in range(int(t.nthrough[c]))]
        index = {j: int(ldir[j, list(t.line_cells[j]).index(c)]) for j in js}
        for a in js:
            for b in js:
                same = _direction(board, board.lines[a]) == _direction(board, board.lines[b])
                assert (index[a] == index[b]) == same, (spec, c, a, b)
        most = max(most, len(set(index.values())))
    assert ndir == most == {"mnk(15,15,5)": 4, "mnk(7,9,4)": 4, "hypercube(4,3)": 7}[spec]


@pytest.mark.parametrize("spec", ["mnk(15,15,5)", "mnk(9,9,5)", "hypercube(4,3)"])
def test_direction_counts_kept_claim_by_claim_equal_a_recount_and_classes_agree(spec):
    g = noughts.game(spec)
    agent = EngineAgent(width=6, leaf_vcf=0, tt=0, combo=100)
    classes = set()
    for p in random_positions(g, 6, np.random.default_rng(7), most=50):
        agent.search_depth(p, 2)  # loads p; every claim of the search is taken back
        S = agent._states[g].S
        assert S[0][K.P_COMBO] == 1
        ndir = int(S[0][K.P_NDIR])
        owner = np.array(g.cell_owners(p), dtype=np.int64)
        K2, K3 = PT.recount(S[5], owner, g.board.k, S[32], ndir)
        assert np.array_equal(S[30], K2) and np.array_equal(S[31], K3), (spec, p.text())
        for side in (0, 1):
            for c in np.flatnonzero(owner == -1):
                got = PT.cell_class(S[30], S[31], side, int(c), ndir)
                assert got == PT.class_reference(list(K2[side, c]), list(K3[side, c]))
                classes.add(got)
    assert len(classes) >= 3  # the positions are not all quiet


def _classes_after(g, xs, os_):
    p = g.start()
    for x, o in zip(xs, os_, strict=True):
        p = p.play(x).play(o)
    agent = EngineAgent(width=6, leaf_vcf=0, tt=0, combo=100)
    agent.search_depth(p, 0)
    S = agent._states[g].S
    ndir = int(S[0][K.P_NDIR])
    return lambda side, c: PT.cell_class(S[30], S[31], side, c, ndir)


def test_the_classes_of_built_gomoku_shapes():
    """On 15x15, X (first) with an open row three (7,7) (7,8) (7,9) and a column two (4,6)
    (5,6): (7,6) makes an open four (four-four class), (6,6) a column three; with the row's
    right end blocked by O at (7,10), (7,6) makes a four and a three (four-three); with X also
    at (6,4) (6,5), (6,6) makes a row three and a column three (three-three)."""
    g = noughts.game("mnk(15,15,5)")
    at = g.board.cell_at
    xs = [at((7, 7)), at((7, 8)), at((7, 9)), at((4, 6)), at((5, 6))]
    far = [at((0, 0)), at((0, 14)), at((14, 0)), at((14, 14)), at((0, 7))]
    cls = _classes_after(g, xs, far)
    assert cls(0, at((7, 6))) == PT.FOUR_FOUR
    assert cls(0, at((7, 10))) == PT.FOUR_FOUR
    assert cls(0, at((6, 6))) == PT.THREE
    assert cls(1, at((7, 6))) == PT.NONE
    cls = _classes_after(g, xs, [*far[:4], at((7, 10))])
    assert cls(0, at((7, 6))) == PT.FOUR_THREE
    cls = _classes_after(g, [*xs, at((6, 4)), at((6, 5))], [*far, at((1, 1)), at((1, 13))])
    assert cls(0, at((6, 6))) == PT.THREE_THREE


def test_the_leaf_adds_the_combination_terms():
    g = noughts.game("mnk(15,15,5)")
    agent = EngineAgent(width=8, leaf_vcf=0, tt=0, three=0, combo=100)
    seen = 0
    for p in random_positions(g, 30, np.random.default_rng(8), most=40):
        agent.search_depth(p, 0)
        S = agent._states[g].S
        me = int(p.to_move)
        ndir = int(S[0][K.P_NDIR])
        empty = [c for c in range(g.board.num_cells) if S[2][c] == -1]
        mine = max(PT.cell_class(S[30], S[31], me, c, ndir) for c in empty)
        theirs = max(PT.cell_class(S[30], S[31], 1 - me, c, ndir) for c in empty)
        extra = int(K.leaf_value(S, me)) - int(K.evaluate(S, me))
        assert extra == COMBO_WEIGHTS[0][mine] - COMBO_WEIGHTS[1][theirs]
        seen += extra != 0
    assert seen >= 3


def test_combo_is_off_by_default_and_refused_out_of_range():
    g = noughts.game("mnk(15,15,5)")
    agent = EngineAgent(width=8, leaf_vcf=0, tt=0)
    agent.search_depth(g.start(), 0)
    assert agent._states[g].S[0][K.P_COMBO] == 0
    with pytest.raises(NoughtsError, match="combo"):
        EngineAgent(combo=-1001)


def test_a_negative_combo_orders_moves_but_leaves_the_leaf_alone():
    g = noughts.game("mnk(15,15,5)")
    agent = EngineAgent(width=8, leaf_vcf=0, tt=0, three=0, combo=-100)
    for p in random_positions(g, 10, np.random.default_rng(9), most=40):
        agent.search_depth(p, 0)
        S = agent._states[g].S
        assert S[0][K.P_COMBO] == 2 and S[33][2, PT.FOUR_FOUR] == COMBO_WEIGHTS[2][PT.FOUR_FOUR]
        assert int(K.leaf_value(S, int(p.to_move))) == int(K.evaluate(S, int(p.to_move)))
