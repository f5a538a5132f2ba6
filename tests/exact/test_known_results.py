"""Known results, computed and compared with the published figures (issue 3, item 8).

Each test names its source. Values are from the start unless a move is named; ``solve`` uses the
numba kernel where it takes the game and the Python searcher elsewhere, and the small games are
also checked with the reference minimax, which trusts nothing.
"""

from __future__ import annotations

import pytest
from exact_cases import EXTRA_CORNER, EXTRA_CORNER_SIDE, EXTRA_SIDE, game, reference

from noughts import Outcome
from noughts.exact import Searcher
from noughts.solving import solve

FIRST, SECOND, DRAW = Outcome.FIRST, Outcome.SECOND, Outcome.DRAW


def _first_moves(spec: str) -> dict[str, Outcome]:
    result = solve(spec)
    return {result.game.format_move(mv.move): mv.value.outcome for mv in result.moves}


def test_tictactoe_is_a_draw_and_every_first_move_draws() -> None:
    """004 §2.1 and §4.1: the second player can always force a tie; no first move loses."""
    assert solve("tictactoe").value.outcome is DRAW
    assert reference("tictactoe")[game("tictactoe").start()].outcome is DRAW
    assert set(_first_moves("tictactoe").values()) == {DRAW}


def test_misere_is_a_draw_and_only_the_centre_does_not_lose() -> None:
    """004 §4.2: misère 3x3 is a draw; of the nine first moves eight lose (S positions) and
    only the middle square draws."""
    assert solve("misere(tictactoe)").value.outcome is DRAW
    moves = _first_moves("misere(tictactoe)")
    assert moves.pop("b2") is DRAW
    assert set(moves.values()) == {SECOND} and len(moves) == 8
    assert reference("misere(tictactoe)")[game("misere(tictactoe)").start()].outcome is DRAW


def test_cumulative_3x3_is_a_draw() -> None:
    """000 Theorem 2: cumulative 3x3 is a draw (with perfect play the scores end equal)."""
    value = solve("cumulative(tictactoe)").value
    assert value.outcome is DRAW and value.score == 0
    assert reference("cumulative(tictactoe)")[game("cumulative(tictactoe)").start()].score == 0


def test_3x3x3_is_a_first_player_win() -> None:
    """004 §3.1 (and Chapter 5): on 3x3x3 the first player wins, starting in the centre."""
    result = solve("hypercube(3,3)")
    assert result.value.outcome is FIRST
    assert result.game.format_move(result.pv[0]) == "2,2,2"
    assert Searcher(game("hypercube(3,3)")).value(game("hypercube(3,3)").start()) == result.value


def test_notakto_one_board_first_player_wins() -> None:
    """004 §4.4: Notakto on one board is a first-player win, the centre the winning move."""
    result = solve("notakto")
    assert result.value.outcome is FIRST
    assert [game("notakto").format_move(m.move) for m in result.moves if m.value.outcome is FIRST] == ["b2"]
    assert reference("notakto")[game("notakto").start()].outcome is FIRST


def test_notakto_two_boards_second_player_wins() -> None:
    """004 §4.4: Notakto on two boards is a second-player win."""
    assert solve("notakto(boards=2)").value.outcome is SECOND


@pytest.mark.slow
def test_notakto_two_boards_by_the_reference() -> None:
    assert reference("notakto(boards=2)")[game("notakto(boards=2)").start()].outcome is SECOND


def test_4x4_is_a_draw() -> None:
    """mnk(4,4,4) is a draw (004 §2.4 finds no winning strategy; 002 §3.1 its hypergraph)."""
    result = solve("mnk(4,4,4)")
    assert result.value.outcome is DRAW
    assert set(mv.value.outcome for mv in result.moves) == {DRAW}


@pytest.mark.slow
def test_4x4_is_a_draw_by_the_python_searcher() -> None:
    assert Searcher(game("mnk(4,4,4)")).value(game("mnk(4,4,4)").start()).outcome is DRAW


@pytest.mark.parametrize(
    ("spec", "expected", "why"),
    [
        (EXTRA_SIDE, FIRST, "Figure 2-3: a square beside an edge square, a first-player win"),
        (
            EXTRA_CORNER_SIDE,
            FIRST,
            "Figure 2-4: a square beside a corner, in line with a row, a first-player win",
        ),
        (EXTRA_CORNER, DRAW, "Figure 2-5: a square diagonally off a corner, still a draw"),
    ],
)
def test_added_square_boards(spec: str, expected: Outcome, why: str) -> None:
    """004 §2.2 and Chapter 5: the three 3x3 boards with one square added."""
    assert solve(spec).value.outcome is expected, why
    assert reference(spec)[game(spec).start()].outcome is expected, why


def test_added_square_winning_first_moves() -> None:
    """004 §2.2: on the board with a square beside an edge the first player's winning move is in
    the row of the added square (Figure 2-3); beside a corner, it is 'the square in the first
    row and third column' (c1, Figure 2-4). Chapter 5 sums up: 'the first player's best first
    move was to play in the same row, column, or diagonal as the added square'.

    The solver agrees and is more precise: beside an edge (d2) only the centre b2, on the row
    b2-c2-d2, wins. Beside a corner (d1) c1, c2 and b3, all on lines through d1, win, but so
    does the centre b2, which is on no line through d1 (each in 7 plies)."""
    for spec, winners in [(EXTRA_SIDE, {"b2"}), (EXTRA_CORNER_SIDE, {"b2", "c1", "c2", "b3"})]:
        moves = _first_moves(spec)
        assert {m for m, outcome in moves.items() if outcome is FIRST} == winners, spec
        assert set(moves.values()) == {FIRST, DRAW}  # no first move loses
    assert solve(EXTRA_CORNER_SIDE).value.plies == 7


def test_veto_tictactoe_is_a_draw() -> None:
    """004 §4.3: veto tic-tac-toe's start is an S position (the second player can force a tie)."""
    assert solve("veto(tictactoe)").value.outcome is DRAW


def test_maker_breaker_3x3() -> None:
    """Maker-Breaker on 3x3: whoever moves first wins. Maker first takes the centre and forks;
    Breaker first takes the centre and then touches every line."""
    assert solve("maker_breaker(tictactoe)").value.outcome is FIRST
    result = solve("maker_breaker(tictactoe,breaker_first=true)")
    assert result.value.outcome is FIRST  # the first player here is Breaker
    assert result.game.format_move(result.pv[0]) == "b2"
