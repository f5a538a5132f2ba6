import numpy as np
import pytest

import noughts
from noughts.core import NoughtsError
from noughts.exact.states import state_space
from noughts.learn.evaluation import (
    EVALUATIONS,
    bounds,
    cell_weights,
    evaluation_table,
    initial_values,
    paper_cell_weights,
    tcd,
    terminal_values,
    wtcd,
    wtcd_paper,
)


@pytest.mark.parametrize("spec", ["cumulative(tictactoe)", "tictactoe", "mnk(3,4,3)"])
@pytest.mark.parametrize("name", sorted(EVALUATIONS))
def test_vectorised_tables_match_the_reference_functions(spec, name):
    space = state_space(noughts.game(spec))
    if name == "wtcd-paper" and spec == "mnk(3,4,3)":  # 000's weights name the cells of 3x3 only
        with pytest.raises(NoughtsError, match="3x3"):
            evaluation_table(space, name)
        return
    table = evaluation_table(space, name)
    f = EVALUATIONS[name]
    step = 1 if space.size < 7000 else 101
    for i in range(0, space.size, step):
        assert table[i] == pytest.approx(f(space.position(i)), abs=1e-12)


def test_tcd_by_hand():
    g = noughts.game("cumulative(tictactoe)")
    assert tcd(g.start()) == 0
    # x in the centre: all 8 lines still open for x, o can use only the 4 lines avoiding the centre
    assert tcd(g.parse(".../.x./...")) == 8 - 4
    # WTCD weights: half the lines through a cell (centre 2, corner 1.5, edge 1)
    assert cell_weights(g) == (1.5, 1, 1.5, 1, 2, 1, 1.5, 1, 1.5)
    assert wtcd(g.start()) == 0


def test_the_papers_tcd_bounds_are_wrong():
    # 000 §3.2.4 normalises TCD by "theoretical bounds 4 (best) and -2 (worst)" as (d - 1) / 3
    space = state_space(noughts.game("cumulative(tictactoe)"))
    lo, hi = bounds(space, "tcd")
    assert (lo, hi) != (-2, 4)
    assert lo < -2 and hi > 4
    d = evaluation_table(space, "tcd")[space.nonterminal()]
    assert np.abs((d - 1) / 3).max() > 1  # the paper's map leaves [-1, 1]


@pytest.mark.parametrize("init", ["tcd", "wtcd", "2sla"])
def test_scaled_initial_values(init):
    space = state_space(noughts.game("cumulative(tictactoe)"))
    v1, v2 = initial_values(space, init)
    live = space.nonterminal()
    assert np.abs(v1).max() <= 1 and np.isclose(np.abs(v1[live]).max(), 1.0)
    assert np.array_equal(v2[live], -v1[live])
    if init != "2sla":  # the look-ahead sees the first move coming
        assert v1[space.start] == 0  # the neutral position stays neutral
    pay = terminal_values(space)
    assert np.array_equal(v1[~live], pay[~live]) and np.array_equal(v2[~live], -pay[~live])


def test_random_initial_values_are_seeded_and_independent():
    space = state_space(noughts.game("cumulative(tictactoe)"))
    a1, a2 = initial_values(space, "random", seed=3)
    b1, _ = initial_values(space, "random", seed=3)
    c1, _ = initial_values(space, "random", seed=4)
    live = space.nonterminal()
    assert np.array_equal(a1, b1) and not np.array_equal(a1, c1)
    assert not np.array_equal(a1[live], -a2[live])
    assert -1 <= a1[live].min() < -0.9 and 0.9 < a1[live].max() < 1
    zero1, _ = initial_values(space, "zero")
    assert not zero1[live].any()


def test_bad_initialisations_are_refused():
    space = state_space(noughts.game("tictactoe"))
    with pytest.raises(NoughtsError, match="unknown initialisation"):
        initial_values(space, "bogus")
    with pytest.raises(NoughtsError, match="claim game"):
        tcd(noughts.game("veto(tictactoe)").start())


def _authors_tcd(position):
    """The authors' ``tcd`` (cumulative_tictactoe_core.py), transcribed: lines with no o minus
    lines with no x, from x's side whoever moves, then ``(raw + 2) / 6 * 2 - 1``.
    """
    x, o = position.owned(0), position.owned(1)
    masks = position.game.board.line_masks
    no_o = sum(1 for m in masks if not o & m)
    no_x = sum(1 for m in masks if not x & m)
    return (no_o - no_x - (-2)) / (4 - (-2)) * 2 - 1


def test_the_paper_tcd_table_is_the_authors_map_on_every_reachable_position():
    game = noughts.game("cumulative(tictactoe)")
    space = state_space(game)
    v1, v2 = initial_values(space, "tcd-paper", seed=5)
    pay = terminal_values(space)
    for i in range(space.size):
        p = space.position(i)
        if p.is_terminal():
            assert v1[i] == pay[i] and v2[i] == -pay[i]
        else:
            assert v1[i] == pytest.approx(_authors_tcd(p), abs=1e-15)
            assert v1[i] == pytest.approx((tcd(p) - 1) / 3, abs=1e-15)
            assert v2[i] == -v1[i]
    live = space.nonterminal()
    # the map's consequences: the empty board starts at -1/3 and values leave [-1, 1]
    assert v1[space.start] == pytest.approx(-1 / 3)
    assert v1[live].max() == pytest.approx(4 / 3) and v1[live].min() == pytest.approx(-4 / 3)


def test_the_paper_wtcd_weights_and_scaling():
    game = noughts.game("cumulative(tictactoe)")
    # 000 §3.2.6 as printed: centre 2, edges 1.5, corners 1 (the corner is on more lines than an edge)
    assert paper_cell_weights(game) == (1, 1.5, 1, 1.5, 2, 1.5, 1, 1.5, 1)
    assert cell_weights(game) != paper_cell_weights(game)
    space = state_space(game)
    live = space.nonterminal()
    raw = evaluation_table(space, "wtcd-paper")
    lo, hi = raw[live].min(), raw[live].max()
    v1, v2 = initial_values(space, "wtcd-paper")
    assert v1[live].min() == pytest.approx(-1) and v1[live].max() == pytest.approx(1)
    assert np.allclose(v1[live], (2 * raw[live] - (hi + lo)) / (hi - lo))
    assert np.array_equal(v2[live], -v1[live])
    p = game.parse("x../.o./...")
    # lines open to x: those avoiding the centre (4), open to o: those avoiding a1 (5)
    assert wtcd_paper(p) == pytest.approx(
        sum(sum(paper_cell_weights(game)[c] for c in line) for line in game.board.lines if 4 not in line)
        - sum(sum(paper_cell_weights(game)[c] for c in line) for line in game.board.lines if 0 not in line)
    )
    with pytest.raises(NoughtsError, match="3x3"):
        paper_cell_weights(noughts.game("mnk(4,4,4)"))
