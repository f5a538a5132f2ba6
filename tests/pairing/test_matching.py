"""The SciPy matching held to the plain references (Kuhn's augmenting paths, Hall subset by
subset) on many positions of small games; residual hypergraphs; breaking sides."""

from __future__ import annotations

import numpy as np
import pytest

import noughts
from noughts.core import NoughtsError, Player, Position
from noughts.pairing.bigamy import check_bigamy
from noughts.pairing.hypergraph import residual
from noughts.pairing.matching import find_pairing, reference_matching_size
from noughts.pairing.verify import check_structure


def random_positions(spec: str, count: int, seed: int, max_moves: int) -> list[Position]:
    game = noughts.game(spec)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        p = game.start()
        for _ in range(int(rng.integers(0, max_moves + 1))):
            if p.is_terminal():
                break
            moves = p.legal_moves()
            p = p.play(moves[int(rng.integers(len(moves)))])
        out.append(p)
    return out


CASES = [
    # spec, positions, most random moves, whether both answers (pairing / none) must turn up
    ("maker_breaker(mnk(4,4,4))", 300, 10, True),
    ("mnk(5,5,5)", 200, 10, True),
    ("tictactoe", 200, 6, True),
    ("mnk(6,6,5)", 100, 20, True),
    ("cumulative(mnk(6,6,6))", 60, 34, True),
    ("mnk(5,5,4)", 150, 12, False),  # never a pairing: the matchings are still compared
    ("maker_breaker(hypercube(3,3))", 60, 14, False),
]


@pytest.mark.parametrize(("spec", "count", "depth", "both"), CASES)
def test_scipy_matches_the_references(spec: str, count: int, depth: int, both: bool) -> None:
    seen = {True: 0, False: 0}
    for position in random_positions(spec, count, seed=len(spec), max_moves=depth):
        res = residual(position)
        result = find_pairing(res)
        # Hopcroft-Karp and Kuhn agree on the size of a maximum matching
        assert result.matched == reference_matching_size(res)
        assert result.exists == (result.matched == 2 * len(res.survivors))
        # and the brute-force Hall check (the bigamy condition) agrees on existence
        if len(res.survivors) <= 16:
            assert check_bigamy(res).holds == result.exists
        if result.exists:
            assert result.pairing is not None
            assert check_structure(result.pairing).holds
            for line, pair in zip(res.survivors, result.line_pairs, strict=True):
                assert set(pair) <= set(position.game.board.lines[line])  # each line's own pair
        else:
            union = {c for j in result.deficient_lines for c in position.game.board.lines[j]}
            union &= set(res.free_cells)
            assert set(result.deficient_cells) == union
            assert len(union) < 2 * len(result.deficient_lines)
            assert set(result.deficient_lines) <= set(res.survivors)
        seen[result.exists] += 1
    assert seen[False]
    assert bool(seen[True]) == both


def test_residual_survivors_and_free_cells() -> None:
    game = noughts.game("maker_breaker(mnk(4,4,4))")
    p = game.parse("x.../..o./..../....")
    res = residual(p)
    assert res.breaker is Player.SECOND
    assert len(res.survivors) == 7 and len(res.free_cells) == 14
    o = game.board.cell_at((1, 2))
    assert all(o not in game.board.lines[j] for j in res.survivors)
    assert res.incidence.shape == (7, 14) and res.incidence.sum() == sum(len(e) for e in res.edges)


def test_standard_rules_break_for_either_player() -> None:
    p = noughts.game("tictactoe").parse(".../.x./...")
    assert residual(p).breaker is Player.SECOND  # the default
    first = residual(p, Player.FIRST)
    assert len(first.survivors) == 4  # the lines missing the centre


def test_maker_breaker_breaker_is_fixed() -> None:
    game = noughts.game("maker_breaker(tictactoe,breaker_first=true)")
    assert residual(game.start()).breaker is Player.FIRST
    with pytest.raises(NoughtsError, match="Breaker"):
        residual(game.start(), Player.SECOND)


@pytest.mark.parametrize("spec", ["misere(tictactoe)", "veto(tictactoe)", "notakto", "otrio"])
def test_rules_without_a_breaking_side_are_refused(spec: str) -> None:
    game = noughts.game(spec)
    with pytest.raises(NoughtsError, match="no breaking side"):
        find_pairing(game.start())


def test_a_survivor_with_one_free_cell_is_its_own_violator() -> None:
    game = noughts.game("maker_breaker(tictactoe)")
    p = game.parse("xx./o../...")
    result = find_pairing(p)
    assert not result.exists
    top = next(j for j, line in enumerate(game.board.lines) if set(line) == {0, 1, 2})
    assert result.deficient_lines == (top,) and result.deficient_cells == (2,)


def test_bigamy_on_002_figure_2_positions() -> None:
    # 002 §5: for the three Figure 2 openings, (2) holds for every set; the set of all seven
    # survivors meets it with equality (14 cells = 2 x 7)
    game = noughts.game("maker_breaker(mnk(4,4,4))")
    for text in ("..../..o./..../x...", "..../..o./x.../....", "..../..o./.x../...."):
        res = residual(game.parse(text))
        report = check_bigamy(res)
        assert report.holds and report.slack == 0 and report.subsets == 127
        union = set().union(*map(set, res.edges))
        assert len(union) == 2 * len(res.edges)  # the all-seven set is tight
        assert max(len(game.board.lines_through[c]) for c in range(16)) == 3


def test_bigamy_finds_the_violator_when_there_is_one() -> None:
    res = residual(noughts.game("mnk(4,4,4)").start())
    report = check_bigamy(res)
    assert not report.holds and report.slack < 0
    union = {c for j in report.worst for c in res.board.lines[j]}
    assert len(union) - 2 * len(report.worst) == report.slack


def test_bigamy_refuses_large_hypergraphs() -> None:
    with pytest.raises(noughts.LimitExceeded):
        check_bigamy(residual(noughts.game("hypercube(4,3)").start()))
