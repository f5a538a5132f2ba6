"""Pairing verification: the structural check and the full search against every reply."""

from __future__ import annotations

import pytest

import noughts
from noughts.core import Outcome, Player
from noughts.pairing.files import pairing_from_grid
from noughts.pairing.matching import find_pairing, pairing_of
from noughts.pairing.verify import check_structure, pairing_move, search_pairing

MB44 = noughts.game("maker_breaker(mnk(4,4,4))")


def test_a_pairing_missing_a_line_fails_the_structure_and_the_search_finds_the_break() -> None:
    # 002 Figure 2 (corner case) without pair 3 (b4, c4): the bottom row holds no pair
    good = pairing_from_grid(MB44, "7 5 1 1/4 5 o 6/4 2 2 6/x 3 3 7")
    pairs = [p for p in good.pairs if set(p) != {13, 14}]
    bad = pairing_of(good.position, Player.SECOND, pairs)
    report = check_structure(bad)
    assert not report.holds
    assert [MB44.board.lines[j] for j in report.uncovered] == [(12, 13, 14, 15)]
    # the agent's fallback (an unpaired cell on the most survivors) happens to rescue it ...
    assert search_pairing(bad, "rule").secures
    # ... but not every fallback choice does: the search returns a game Maker wins
    search = search_pairing(bad, "any")
    assert not search.secures and search.outcome is Outcome.FIRST
    end = bad.position
    for move in search.line:
        end = end.play(move)
    assert end.outcome() is Outcome.FIRST
    assert any(end.state[0] & m == m for m in MB44.board.line_masks)


def test_with_no_pairs_the_rule_alone_loses() -> None:
    empty = pairing_of(MB44.parse("..../..o./..../x..."), Player.SECOND, [])
    report = search_pairing(empty, "rule")
    assert not report.secures and report.value == -1


@pytest.mark.parametrize("fallback", ["rule", "any", "best"])
def test_a_full_pairing_secures_breaker_whatever_the_fallback(fallback: str) -> None:
    pairing = find_pairing(MB44.parse("..x./.o../..../....")).pairing
    assert pairing is not None
    report = search_pairing(pairing, fallback)
    assert report.secures and report.value == 1


def test_standard_rules_claim_is_at_least_a_draw() -> None:
    game = noughts.game("mnk(5,5,5)")
    pairing = find_pairing(game.start()).pairing
    assert pairing is not None
    partner = pairing.partner
    p = game.start()
    for name in ("c3", "a1", "b2", "e5", "d4"):  # x's first five moves (or the next free cell)
        cell = game.parse_move(name)
        if (p.state[0] | p.state[1]) >> cell & 1:
            cell = p.legal_moves()[0]
        p = p.play(cell)
        p = p.play(pairing_move(p, partner, Player.SECOND)[0])
    taken = p.state[0] | p.state[1]
    rest = pairing_of(p, Player.SECOND, [pr for pr in pairing.pairs if not taken & (1 << pr[0] | 1 << pr[1])])
    assert check_structure(rest).holds
    report = search_pairing(rest)
    assert report.claim == 0 and report.secures and report.value >= 0


def test_the_rule_answers_the_partner() -> None:
    pairing = pairing_from_grid(MB44, "7 5 1 1/4 5 o 6/4 2 2 6/x 3 3 7")
    partner = pairing.partner
    q = pairing.position.play(MB44.parse_move("c1"))  # a cell of pair 1 (c1, d1)
    assert pairing_move(q, partner, Player.SECOND) == (MB44.parse_move("d1"), True)
    r = q.play(MB44.parse_move("d1")).play(MB44.parse_move("b4"))  # pair 3 (b4, c4)
    assert pairing_move(r, partner, Player.SECOND) == (MB44.parse_move("c4"), True)


def test_the_fallback_prefers_an_unpaired_cell_on_most_survivors() -> None:
    game = noughts.game("mnk(5,5,5)")
    pairing = find_pairing(game.start()).pairing
    assert pairing is not None
    unpaired = set(range(25)) - {c for p in pairing.pairs for c in p}
    assert len(unpaired) == 1
    p = game.start().play(next(iter(unpaired)))  # x takes the one unpaired cell: nothing to answer
    move, answered = pairing_move(p, pairing.partner, Player.SECOND)
    assert not answered and {move, pairing.partner[move]} in [set(pr) for pr in pairing.pairs]


def test_search_budget() -> None:
    pairing = find_pairing(noughts.game("mnk(5,5,5)").start()).pairing
    assert pairing is not None
    with pytest.raises(noughts.LimitExceeded):
        search_pairing(pairing, max_positions=1000)
