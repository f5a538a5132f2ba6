from __future__ import annotations

import itertools

import numpy as np
import pytest

from noughts.cgt import Monoid, NotaktoPositions, notakto_positions, presented_size_bound
from noughts.cgt.monoid import parse_word, presentation, reduce_bipartite
from noughts.cgt.positions import ZERO
from noughts.core import NoughtsError, mnk


def test_cyclic_monoids() -> None:
    m = Monoid.cyclic(3, 4)
    assert len(m) == 7
    assert m.index_period(1) == (3, 4)
    assert [m.power(1, k) for k in range(12)] == [0, 1, 2, 3, 4, 5, 6, 3, 4, 5, 6, 3]
    assert m.check_laws([1]) is None


def test_laws_are_checked() -> None:
    bad = np.array([[0, 1], [1, 0]])
    assert Monoid(bad).check_laws([1]) is None  # Z/2
    not_identity = Monoid(np.array([[1, 1], [1, 1]]))
    assert "identity" in not_identity.check_laws([1])
    with pytest.raises(NoughtsError):
        Monoid(np.array([[0, 2], [2, 0]]))


def test_reduction_merges_exactly_the_indistinguishable() -> None:
    # Z/4 with P = {1, 3}: x and x+2 are told apart by nothing, so two classes remain
    m = Monoid(np.add.outer(np.arange(4), np.arange(4)) % 4)
    labels = reduce_bipartite(m.table[:, [1]], np.array([False, True, False, True]))
    assert labels.tolist() == [0, 1, 0, 1]
    # with P = {1} every element is told apart
    labels = reduce_bipartite(m.table[:, [1]], np.array([False, True, False, False]))
    assert labels.tolist() == [0, 1, 2, 3]


def test_a_presentation_rewrites_every_word_to_the_least_one() -> None:
    """The relations hold, and rewriting with them (larger side to smaller) takes every word
    to its element's least word: so they present the monoid."""
    m = Monoid(np.array(_product_table()))
    pres = presentation(m, [3, 1])
    k = len(pres.generators)

    def value(word: tuple[int, ...]) -> int:
        e = 0
        for g, exp in zip(pres.generators, word, strict=True):
            for _ in range(exp):
                e = int(m.table[e, g])
        return e

    for u, v in pres.relations:
        assert value(u) == value(v)
        assert (sum(v), v) < (sum(u), u)
    for word in itertools.product(range(6), repeat=k):
        w = tuple(word)
        changed = True
        while changed:
            changed = False
            for u, v in pres.relations:
                if all(a >= b for a, b in zip(w, u, strict=True)):
                    w = tuple(a - b + c for a, b, c in zip(w, u, v, strict=True))
                    changed = True
        assert w == pres.words[value(tuple(word))]
    assert presented_size_bound(pres.relations) == len(m)


def _product_table() -> list[list[int]]:
    """C(1,2) x C(2,1): elements (i, j) with i in 0..2, j in 0..2, coded 3i + j."""
    a, b = Monoid.cyclic(1, 2), Monoid.cyclic(2, 1)
    return [
        [3 * int(a.table[i1, i2]) + int(b.table[j1, j2]) for i2 in range(3) for j2 in range(3)]
        for i1 in range(3)
        for j1 in range(3)
    ]


def test_words_are_read() -> None:
    assert parse_word("b^2c", "abcd") == (0, 2, 1, 0)
    assert parse_word("a c^2", "abcd") == (1, 0, 2, 0)
    assert parse_word("1", "ab") == (0, 0)
    with pytest.raises(NoughtsError):
        parse_word("e", "abcd")


def test_positions_are_every_live_board_up_to_symmetry() -> None:
    """Counted independently: every mask of the board, dead or live, by brute force."""
    board = mnk(3, 3, 3)
    from noughts.core import NotaktoGame

    g = NotaktoGame(board)
    keys = {min(board.transform_mask(m, p) for p in g.symmetries) for m in range(1 << 9) if not g.is_dead(m)}
    ps = notakto_positions(board)
    assert isinstance(ps, NotaktoPositions)
    assert sorted(int(m) for m in ps.masks) == sorted(keys)
    assert len(ps) == 46
    for j in range(len(ps)):  # options come first, and are the boards one x more makes
        mask = int(ps.masks[j])
        expected = set()
        for c in range(9):
            if not mask >> c & 1:
                child = mask | 1 << c
                expected.add(ZERO if g.is_dead(child) else ps.index_of(child))
        assert set(ps.options(j).tolist()) == expected
        assert all(o < j for o in ps.options(j))
    assert ps.heights[-1] == 7  # six x's without a line, then the seventh kills the board


@pytest.mark.parametrize("spec, count", [("mnk(4,4,3)", 1433), ("mnk(4,4,4)", 4961)])
def test_positions_of_4x4_boards(spec: str, count: int) -> None:
    from noughts import board

    b = board(spec)
    from noughts.core import NotaktoGame

    g = NotaktoGame(b)
    keys = {min(b.transform_mask(m, p) for p in g.symmetries) for m in range(1 << 16) if not g.is_dead(m)}
    assert len(keys) == count
    assert len(notakto_positions(b)) == count
