"""The 7x7x7 casework (002 §4.2-4.3): plans, counts, kernel against the SciPy reference."""

import random

import numpy as np
import pytest

from noughts.casework import cube7 as C
from noughts.casework.certificate import coverage


def _kernel_failures(name):
    pl = C.plan(name)
    failures = set()
    leaves = 0
    for prefix in C.split_prefixes(pl):
        result = C.settle_chunk((name, prefix))
        nodes = list(C.iter_nodes(pl, prefix))
        leaves += result.leaves
        for i, cell in zip(result.fail_node.tolist(), result.fail_cell.tolist(), strict=True):
            failures.add(nodes[i][0] + (cell,))
    return leaves, failures


def _reference_failures(name):
    pl = C.plan(name)
    leaves = list(C.iter_leaves(pl))
    return len(leaves), {mk for mk, bk in leaves if not C.reference_leaf(pl.board, mk, bk)}


@pytest.mark.parametrize("name", ["mnk4", "mnk4-2", "mnk4-3", "mnk4-edge"])
def test_kernel_matches_reference_on_every_leaf_of_small_analogues(name):
    leaves, failures = _kernel_failures(name)
    ref_leaves, ref_failures = _reference_failures(name)
    assert leaves == ref_leaves == C.count_cases(C.plan(name))
    assert failures == ref_failures


def test_small_analogues_have_both_outcomes():
    # 002 §3: after Breaker's move on c2, every 4x4 opening has a pairing (Figure 2) ...
    assert _reference_failures("mnk4") == (3, set())
    # ... an edge opening by Breaker blocks two lines only: 8 survivors need 16 cells, 14 are free
    assert _reference_failures("mnk4-edge")[1] == {(c,) for c in range(16)}
    n, failures = _reference_failures("mnk4-3")
    assert 0 < len(failures) < n


@pytest.mark.parametrize("name", ["centre", "other"])
def test_kernel_matches_reference_on_sampled_cube7_nodes(name):
    pl = C.plan(name)
    prefixes = C.split_prefixes(pl)
    rng = random.Random(7)
    for prefix in rng.sample(prefixes, 2):
        result = C.settle_chunk((name, prefix))
        nodes = list(C.iter_nodes(pl, prefix))
        assert result.nodes == len(nodes)
        i = rng.randrange(len(nodes))
        maker, breaker = nodes[i]
        taken = set(maker) | set(breaker)
        prio = pl.priority(pl.depth - 1, maker + (-1,), breaker)
        cells = [c for c in range(pl.board.num_cells) if c not in taken]
        for m in rng.sample(cells, 40) + [next(p for p in prio if p not in taken)]:
            reply = next(p for p in prio if p not in taken | {m})
            ok = C.reference_leaf(pl.board, maker + (m,), breaker + (reply,))
            kernel_ok = not any((result.fail_node == i) & (result.fail_cell == m))
            assert ok == kernel_ok


def test_source_claims_about_breakers_moves():
    # §4.2: 7, 7, 7 and 6 new lines, 166 survivors, 335 free cells
    assert C.check_plan_claims(C.plan("centre")) == {
        "new_lines": [[7], [7], [7], [6]],
        "survivors": [[166]],
        "free": [[335]],
    }
    # §4.3: 13 (the centre), 6 and 6 new lines, 168 survivors, 337 free cells
    assert C.check_plan_claims(C.plan("other")) == {
        "new_lines": [[13], [6], [6]],
        "survivors": [[168]],
        "free": [[337]],
    }


def test_case_counts_reproduce_the_source_and_complete_it():
    assert C.count_cases(C.plan("centre-as-published")) == 22_163_142 == 194 * 339 * 337
    assert C.count_cases(C.plan("other-as-published")) == 12_824_370 == 195 * 194 * 339
    assert C.count_cases(C.plan("centre")) == (194 + 27) * 339 * 337
    assert C.count_cases(C.plan("other")) == (195 * 194 + 27 * 27) * 339


def test_the_sources_normalisation_misses_cases_and_the_complete_one_does_not():
    # 27 second moves in {5,6,7}^3 cannot be rotated into "first coordinate <= 4" (§4.2)
    centre = coverage(C.plan("centre-as-published"))
    assert centre["uncovered_count"] == 27
    # first moves strictly opposite in every coordinate cannot both be brought there (§4.3)
    other = coverage(C.plan("other-as-published"))
    assert other["uncovered_count"] == 108 * 27
    assert other["uncovered"][0][1:] == ("Maker 1,1,1 / Breaker 4,4,4", "5,5,5")
    for name in ("centre", "other"):
        assert coverage(C.plan(name))["uncovered_count"] == 0
    # the two classes cover every first move between them
    assert len(coverage(C.plan("centre"))["first"] | coverage(C.plan("other"))["first"]) == 343


def test_node_arrays_and_board_arrays_agree_with_the_board():
    pl = C.plan("other")
    line_cells, ptr, lines_at = C.board_arrays(pl.board_spec)
    assert line_cells.shape == (193, 7)
    assert ptr[-1] == 193 * 7
    centre = pl.board.cell_at((3, 3, 3))
    assert sorted(lines_at[ptr[centre] : ptr[centre + 1]].tolist()) == sorted(pl.board.lines_through[centre])
    prefix = C.split_prefixes(pl)[0]
    arrays = C.node_arrays(pl, prefix)
    assert arrays.maker.shape == (194, 2)
    assert (arrays.breaker[:, 0] == centre).all()
    assert np.isin(arrays.domains, (0, 1)).all()


@pytest.mark.parametrize("name", ["mnk4", "mnk4-2", "mnk4-3", "mnk4-edge"])
def test_count_boards_against_sets_of_leaves(name):
    pl = C.plan(name)
    boards = {(frozenset(mk), frozenset(bk)) for mk, bk in C.iter_leaves(pl)}
    assert C.count_boards(pl) == len(boards)
    # Maker's moves in another order give the same board: fewer boards than cases from 2 rounds
    assert (C.count_boards(pl) < C.count_cases(pl)) == (pl.depth >= 2)
