"""The quotients held to the truth: the published 3x3 quotient, and sums searched by the plain
reference (memoised search over multisets of boards, straight from the rules)."""

from __future__ import annotations

import itertools
import random

import pytest

import noughts
from noughts.cgt import (
    GameSet,
    QuotientStopped,
    match_presentation,
    misere_quotient,
    notakto_positions,
    notakto_quotient,
    presented_size_bound,
)
from noughts.cgt.monoid import parse_word
from noughts.cgt.reference import SumReference, grundy_values
from noughts.core import Budget, mnk

# Plambeck and Whitehead, "The Secrets of Notakto" (2013): the misère quotient of the 3x3 board.
PUBLISHED_NAMES = "abcd"
PUBLISHED_RELATIONS = [
    ("a^2", "1"),
    ("b^3", "b"),
    ("b^2c", "c"),
    ("c^3", "ac^2"),
    ("b^2d", "d"),
    ("cd", "ad"),
    ("d^2", "c^2"),
]
PUBLISHED_P = ["a", "b^2", "bc", "c^2"]


@pytest.fixture(scope="module")
def tictactoe():
    return notakto_quotient(mnk(3, 3, 3))


def test_the_3x3_quotient_has_18_elements_and_4_p_types(tictactoe) -> None:
    q = tictactoe.quotient
    assert len(q.monoid) == 18
    assert len(q.p_portion) == 4
    assert q.monoid.check_laws(q.generators) is None


def test_the_3x3_quotient_is_the_published_one(tictactoe) -> None:
    """A surjective homomorphism from the published bipartite monoid onto ours exists, and the
    published presentation has at most 18 elements: so the two are isomorphic."""
    q = tictactoe.quotient
    maps = match_presentation(q.monoid, q.in_p, PUBLISHED_NAMES, PUBLISHED_RELATIONS, PUBLISHED_P)
    assert maps, "no assignment of a, b, c, d satisfies the published relations and P-portion"
    bound = presented_size_bound(
        [(parse_word(u, "abcd"), parse_word(v, "abcd")) for u, v in PUBLISHED_RELATIONS]
    )
    assert bound == len(q.monoid) == 18
    # the empty board is the published c (two empty boards, c^2, are a second-player win)
    for assignment in maps:
        assert q.images[-1] == assignment[PUBLISHED_NAMES.index("c")]


def test_a_wrong_presentation_is_not_matched(tictactoe) -> None:
    q = tictactoe.quotient
    wrong = [r for r in PUBLISHED_RELATIONS if r != ("d^2", "c^2")] + [("d^2", "1")]
    assert not match_presentation(q.monoid, q.in_p, PUBLISHED_NAMES, wrong, PUBLISHED_P)
    assert not match_presentation(q.monoid, q.in_p, PUBLISHED_NAMES, PUBLISHED_RELATIONS, ["a", "b^2", "bc"])


def _brute(board_spec: str, misere: bool, size: int, sample: int | None = None) -> int:
    """Check every multiset of at most ``size`` single-board positions (or a seeded sample of
    ``sample`` of the largest size) against the reference; returns how many were checked."""
    board = noughts.board(board_spec)
    nq = notakto_quotient(board, misere)
    q, ps = nq.quotient, nq.positions
    ref = SumReference(board, misere)
    games = range(len(ps))
    checked = 0
    for k in range(size + 1):
        words = list(itertools.combinations_with_replacement(games, k))
        if sample is not None and k == size:
            words = random.Random(k).sample(words, min(sample, len(words)))
        for w in words:
            truth = ref.next_player_wins(int(ps.masks[j]) for j in w)
            assert q.is_p(q.element(w)) is not truth, [ps.text(j) for j in w]
            checked += 1
    return checked


def test_every_sum_of_at_most_three_3x3_boards() -> None:
    assert _brute("mnk(3,3,3)", True, 3) == 1 + 46 + 1081 + 17296


def test_sums_of_four_3x3_boards_sampled() -> None:
    _brute("mnk(3,3,3)", True, 4, sample=100)


@pytest.mark.slow
def test_sums_of_four_and_five_3x3_boards_sampled() -> None:
    _brute("mnk(3,3,3)", True, 5, sample=3000)


def test_normal_play_sums_and_grundy_values() -> None:
    """The normal-play quotient is the group of Sprague-Grundy values: elements correspond to
    values, and every sum of at most three boards agrees with the reference."""
    board = mnk(3, 3, 3)
    nq = notakto_quotient(board, misere=False)
    q, ps = nq.quotient, nq.positions
    grundy = grundy_values(board)
    by_element: dict[int, int] = {}
    for j in range(len(ps)):
        g = grundy[int(ps.masks[j])]
        assert by_element.setdefault(int(q.images[j]), g) == g
    assert len(set(by_element.values())) == len(by_element)  # one value per element
    assert len(q.monoid) == 1 << max(grundy.values()).bit_length()  # the group the values span
    assert q.p_portion == [0]
    _brute("mnk(3,3,3)", False, 3)


@pytest.mark.parametrize(
    "spec", ["mnk(2,2,2)", "mnk(2,3,2)", "mnk(3,3,2)", "mnk(1,5,3)", "mnk(1,6,3)", "mnk(2,3,3)"]
)
@pytest.mark.parametrize("misere", [True, False])
def test_small_boards_against_the_reference(spec: str, misere: bool) -> None:
    _brute(spec, misere, 3)


def test_nim_heaps() -> None:
    """Misère nim with heaps of 1, 2 and 3: <a, b | a^2 = 1, b^3 = b>, 6 elements (the heap of 1
    is a, of 2 is b, of 3 is ab); P-portion {a, b^2}."""
    nim = GameSet.from_options([[-1], [-1, 0], [-1, 0, 1]])
    q = misere_quotient(nim)
    assert len(q.monoid) == 6
    assert match_presentation(q.monoid, q.in_p, "ab", [("a^2", "1"), ("b^3", "b")], ["a", "b^2"])


def test_a_budget_stops_the_construction_with_the_figures_reached() -> None:
    ps = notakto_positions(mnk(4, 4, 3))
    with pytest.raises(QuotientStopped) as stop:
        misere_quotient(ps, budget=Budget(max_seconds=0.0))
    reached = stop.value.reached
    assert reached["reason"] == "budget"
    assert reached["positions"] == 1433
    assert 0 <= reached["positions_placed"] < 1433
    assert "the time budget" in str(stop.value)


def test_progress_is_reported() -> None:
    seen = []
    notakto_quotient(mnk(3, 3, 3), progress=lambda done, total, size: seen.append((done, total, size)))
    assert seen[-1] == (46, 46, 18)
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen)


def test_empty_boards_for_every_n(tictactoe) -> None:
    empty = tictactoe.empty_boards()
    assert (empty.index, empty.period) == (2, 2)
    assert [empty.winner(n) for n in range(1, 9)] == ["first", "second"] * 4
    ref = SumReference(mnk(3, 3, 3))
    for n in range(1, 4):
        assert empty.winner(n) == ("first" if ref.next_player_wins([0] * n) else "second")


@pytest.mark.slow
def test_four_and_five_empty_boards_by_the_reference(tictactoe) -> None:
    ref = SumReference(mnk(3, 3, 3))
    for n in (4, 5):
        assert tictactoe.empty_boards().winner(n) == ("first" if ref.next_player_wins([0] * n) else "second")
