"""The reference minimax: what a value is, checked on hand-made positions and on its own
consistency (every value is the best move's value one ply further, symmetric images agree)."""

from __future__ import annotations

import random

import pytest
from exact_cases import game, reference

import noughts
from noughts import Outcome, Player
from noughts.exact import WIN, Value, reference_values, to_int
from noughts.exact.reference import after_move, move_key, terminal_value

FIRST, SECOND, DRAW = Outcome.FIRST, Outcome.SECOND, Outcome.DRAW


def test_tictactoe_counts_and_start() -> None:
    values = reference("tictactoe")
    assert len(values) == 5478  # every reachable position (004 §4.1 counts 5,478)
    assert values[game("tictactoe").start()] == Value(DRAW, 9)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("xx./oo./...", Value(FIRST, 1)),  # x to move completes the top row
        ("xx./oo./..x", Value(SECOND, 1)),  # o to move completes the middle row first
        ("xo./.x./...", Value(FIRST, 4)),  # o must block c3; x then forks (a2 or b1...) and wins
        ("xo./.../...", Value(FIRST, 5)),  # o's edge reply to a corner loses
        ("x../.o./...", Value(DRAW, 7)),  # a draw fills the board: 7 plies left
        ("xxx/oo./...", Value(FIRST, 0)),  # finished
        ("xox/xoo/oxx", Value(DRAW, 0)),
    ],
)
def test_distances_by_hand(text: str, expected: Value) -> None:
    assert reference("tictactoe")[game("tictactoe").parse(text)] == expected


def test_fastest_win_and_slowest_loss() -> None:
    """The winner takes the fastest win, the loser the slowest loss."""
    values = reference("tictactoe")
    g = game("tictactoe")
    p = g.parse("xo./.x./...")  # o to move, lost: blocking c3 loses in 4, anything else in 2
    children = {g.format_move(m): values[p.play(m)] for m in p.legal_moves()}
    assert children["c3"] == Value(FIRST, 3)
    assert all(v == Value(FIRST, 1) for m, v in children.items() if m != "c3")
    assert values[p] == Value(FIRST, 4)
    q = g.parse("xx./o../o..")  # x to move: c1 wins now, a fork would win later
    assert values[q] == Value(FIRST, 1)


@pytest.mark.parametrize(
    "spec", ["tictactoe", "maker_breaker(tictactoe,breaker_first=true)", "cumulative(tictactoe)"]
)
def test_every_value_is_its_best_move_one_ply_on(spec: str) -> None:
    """The definition, restated: a running position's value is the best of its moves' values
    (worth first, then the longest line), each one ply further; a finished one is its outcome."""
    values = reference(spec)
    for p, v in values.items():
        if p.is_terminal():
            assert v == terminal_value(p)
            continue
        mover = p.to_move
        rated = [after_move(values[p.play(m)]) for m in p.legal_moves()]
        assert v == max(rated, key=lambda r: move_key(r, mover))
        if not p.game.properties.is_scored and v.outcome is not DRAW:
            assert abs(to_int(v, mover)) == WIN - v.plies


@pytest.mark.parametrize("spec", ["tictactoe", "veto(tictactoe)", "notakto", "cumulative(tictactoe)"])
def test_values_and_lengths_agree_on_symmetric_images(spec: str) -> None:
    """Values, distances and draw lengths are properties of the symmetry class (what lets the
    search and the solved tables store one entry per class)."""
    values = reference(spec)
    g = game(spec)
    positions = sorted(values, key=lambda q: q.text())
    for p in random.Random(spec).sample(positions, min(len(positions), 4000)):
        v = values[p]
        for image in g.symmetric_images(p):
            assert values[image] == v, (p.text(), image.text())


def test_veto_players_move_twice_in_a_row() -> None:
    """Under veto rules a player claims and then vetoes: the reference needs no alternation."""
    g = game("veto(tictactoe)")
    p = g.start().play(noughts.Veto(None)).play(4)  # o passes, x claims b2
    assert p.to_move is Player.FIRST  # x now vetoes o's next claim
    v = reference("veto(tictactoe)")
    assert v[g.start()] == Value(DRAW, 18)


def test_veto_draw_lengths_prefer_the_full_board() -> None:
    """A drawn veto game can stop one ply early (the only empty cell vetoed); the longest line
    of best moves counts."""
    g = game("veto(tictactoe)")
    p = g.parse("xox/xoo/ox.")  # o's veto step before x claims the last cell
    values = reference("veto(tictactoe)")
    stall, let_play = p.play(noughts.Veto(8)), p.play(noughts.Veto(None))
    assert stall.is_terminal() and values[stall] == Value(DRAW, 0)
    assert values[let_play] == Value(DRAW, 1)  # x claims c3: a full board, no line
    assert values[p] == Value(DRAW, 2)


def test_cumulative_values_carry_the_score() -> None:
    values = reference("cumulative(tictactoe)")
    g = game("cumulative(tictactoe)")
    assert values[g.start()] == Value(DRAW, 9, 0)
    p = g.parse("xxx/oo./oxo")  # x to claim the last cell, one line up
    assert p.score() == (1, 0) and values[p] == Value(FIRST, 1, 1)
    q = g.parse("xxx/oo./...")  # o to move, a line down, but o can take one back
    assert values[q] == Value(DRAW, 4, 0)


def test_start_argument_and_wrong_game() -> None:
    g = game("tictactoe")
    p = g.parse("xo./.../...")
    sub = reference_values(g, p)
    assert p in sub and g.start() not in sub
    assert all(sub[q] == reference("tictactoe")[q] for q in sub)
    with pytest.raises(ValueError, match="belongs to"):
        reference_values(game("misere(tictactoe)"), p)
    with pytest.raises(ValueError, match="has not ended"):
        terminal_value(g.start())
