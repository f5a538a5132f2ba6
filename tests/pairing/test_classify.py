"""000 §3.1.4 outcome classes, decided by search, and the pairings of 000 Appendix A.2."""

from __future__ import annotations

import pytest

import noughts
from noughts.core import NoughtsError, Outcome, Player
from noughts.exact.classify import all_pairings, appendix_pairings, check_pairing_roles, classify
from noughts.pairing.verify import check_structure, search_pairing

CUMULATIVE = noughts.game("cumulative(tictactoe)")


def test_pairings_of_nine_cells() -> None:
    pairings = list(all_pairings(9))
    assert len(pairings) == 945 == len(set(pairings))  # 9! / (1! 4! 2^4)
    assert all(len({c for p in pr for c in p}) == 8 for pr in pairings)
    assert len(list(all_pairings(4))) == 3


def test_cumulative_tictactoe_is_a_pairing_strategy_draw_not_a_strong_draw() -> None:
    # 000 Theorem 2 claims a strong draw (no single pairing serves both roles). Searching every
    # pairing finds one that does, whatever the free choices: each cell with its mirror image
    # through the centre, the centre unpaired.
    result = classify(CUMULATIVE)
    assert result.value is Outcome.DRAW
    assert result.outcome_class == "pairing-strategy draw"
    assert result.pairings == 945
    assert sum(result.plays_by_outcome.values()) == 362880  # every play fills the board: 9!
    [witness] = result.witnesses
    assert witness.orbit == 1 and witness.both_any
    assert set(witness.pairs) == {(0, 8), (1, 7), (2, 6), (3, 5)}
    assert result.count(lambda o: o.both_best) == 1


def test_the_centre_mirror_pairing_by_itself() -> None:
    roles = check_pairing_roles(CUMULATIVE, ((0, 8), (1, 7), (2, 6), (3, 5)))
    assert roles.first_any and roles.second_any
    # and a pairing that fails the second role: rows paired side by side
    roles = check_pairing_roles(CUMULATIVE, ((0, 1), (3, 4), (6, 7), (2, 5)))
    assert not roles.second_best
    # 000's Player 1 pairing (1-2, 3-6, 4-7, 8-9) serves the first role only, as 000 says
    roles = check_pairing_roles(CUMULATIVE, ((0, 1), (2, 5), (3, 6), (7, 8)))
    assert roles.first_best and not roles.second_best


def _results_following(pairs: dict[int, int], me: Player, fallback: str) -> set[str]:
    """Every outcome of every play in which ``me`` keeps to the pairing (free choices: the
    agent's rule, or any move at all)."""
    from noughts.pairing.verify import pairing_move

    outcomes: set[str] = set()
    seen: set[tuple[int, ...]] = set()

    def walk(p: noughts.Position) -> None:
        if p.state in seen:
            return
        seen.add(p.state)
        if p.is_terminal():
            outcomes.add(p.outcome().value)  # type: ignore[union-attr]
            return
        if p.to_move is me:
            move, answered = pairing_move(p, pairs, me)
            moves = [move] if answered or fallback == "rule" else p.legal_moves()
        else:
            moves = p.legal_moves()
        for m in moves:
            walk(p.play(m))

    walk(CUMULATIVE.start())
    return outcomes


def test_the_centre_mirror_pairing_draws_exactly() -> None:
    # even read strictly ("the result is a draw", not merely "never loses"), the centre mirror
    # serves both roles: as second player every play is drawn whatever the free choices; as
    # first player every play is drawn when the free choice is the agent's rule (the centre)
    mirror = {0: 8, 8: 0, 1: 7, 7: 1, 2: 6, 6: 2, 3: 5, 5: 3}
    assert _results_following(mirror, Player.SECOND, "any") == {"draw"}
    assert _results_following(mirror, Player.FIRST, "rule") == {"draw"}
    assert _results_following(mirror, Player.FIRST, "any") == {"first", "draw"}


def test_appendix_a2_pairings() -> None:
    found = appendix_pairings(CUMULATIVE)
    assert [p.breaker for _, p in found] == [Player.FIRST, Player.SECOND, Player.SECOND, Player.SECOND]
    # Player 1's pairing pairs a cell of every line missing the centre; Player 2's pairings
    # leave lines unpaired (they are not blocking pairings) ...
    assert [check_structure(p).holds for _, p in found] == [True, False, False, False]
    # ... yet each never loses from its position, whatever the free choices
    for _, p in found:
        report = search_pairing(p, "any")
        assert report.secures and report.outcome is Outcome.DRAW


def test_classify_refuses_what_it_cannot_do() -> None:
    with pytest.raises(NoughtsError, match="no breaking side"):
        classify(noughts.game("misere(tictactoe)"))
    with pytest.raises(NoughtsError, match="at most 12 cells"):
        classify(noughts.game("cumulative(mnk(4,4,3))"))


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("mnk(2,2,2)", "first-player trivial win"),  # x's second move always completes a line
        ("mnk(3,3,2)", "first-player forced win without draw possibility"),  # o can win, nobody draws
        ("mnk(3,4,3)", "first-player forced win, draws possible"),
    ],
)
def test_first_player_wins_are_classified_by_their_plays(spec: str, name: str) -> None:
    result = classify(noughts.game(spec))
    assert result.value is Outcome.FIRST and result.outcome_class == name
    plays = result.plays_by_outcome
    assert (plays.get("second", 0) == 0 and plays.get("draw", 0) == 0) == (name.endswith("trivial win"))
    assert (plays.get("draw", 0) > 0) == name.endswith("draws possible")
