"""Hand-made scenarios for each rules family, written in people's notation."""

from __future__ import annotations

import pytest
from core_cases import play_text, reachable

import noughts
from noughts import IllegalMoveError, NotaktoMove, Outcome, Player, Ring, Veto
from noughts.core import Game

FIRST, SECOND, DRAW = Outcome.FIRST, Outcome.SECOND, Outcome.DRAW


def _outcomes(g: Game) -> set[Outcome]:
    return {p.outcome() for p in reachable(g) if p.is_terminal()}  # type: ignore[misc]


# -- standard -------------------------------------------------------------------------------------


def test_standard_first_line_wins() -> None:
    g = noughts.game("tictactoe")
    p = play_text(g, "a1 a2 b1 b2")
    assert not p.is_terminal()
    p = p.play(g.parse_move("c1"))
    assert p.outcome() is FIRST and p.legal_moves() == []
    assert g.outcome_text(FIRST) == "x wins"
    assert play_text(g, "a1 a2 b1 b2 c3 c2").outcome() is SECOND


def test_standard_full_board_draws() -> None:
    g = noughts.game("tictactoe")
    p = play_text(g, "a1 b2 c3 b1 b3 a3 c1 c2 a2")
    assert p.text() == "xox/xoo/oxx"
    assert p.outcome() is DRAW and str(DRAW) == "draw"
    assert _outcomes(g) == {FIRST, SECOND, DRAW}


# -- misère ---------------------------------------------------------------------------------------


def test_misere_completing_a_line_loses() -> None:
    g = noughts.game("misere(tictactoe)")
    p = play_text(g, "a1 a2 b1 b2")
    assert play_text(g, "a1 a2 b1 b2 c1").outcome() is SECOND  # x made a line: o wins
    assert play_text(g, "a1 a2 b1 b2 c3 c2").outcome() is FIRST  # o made a line: x wins
    assert not p.is_terminal()


def test_misere_full_board_draws() -> None:
    g = noughts.game("misere(tictactoe)")
    assert play_text(g, "a1 b2 c3 b1 b3 a3 c1 c2 a2").outcome() is DRAW
    assert g.properties.has_draws


# -- Maker-Breaker --------------------------------------------------------------------------------


def test_maker_wins_on_a_line() -> None:
    g = noughts.game("maker_breaker(tictactoe)")
    assert g.player_label(Player.FIRST) == "Maker (x)"
    assert g.player_label(Player.SECOND) == "Breaker (o)"
    assert play_text(g, "a1 a2 b1 b2 c1").outcome() is FIRST


def test_breaker_wins_once_every_line_holds_an_o() -> None:
    g = noughts.game("maker_breaker(tictactoe)")
    p = play_text(g, "a2 b2 b1 a1 b3")
    assert not p.is_terminal()  # rows 3 and column c have no o yet
    assert "lines Breaker has not touched: 2" in p.render()
    p = p.play(g.parse_move("c3"))
    assert p.outcome() is SECOND
    assert p.text() == "ox./xo./.xo"  # three cells still empty: Breaker need not fill the board
    assert g.outcome_text(SECOND) == "Breaker (o) wins"


def test_breaker_first_flips_who_moves_first_and_the_marks() -> None:
    g = noughts.game("maker_breaker(tictactoe,breaker_first=true)")
    assert g.player_label(Player.FIRST) == "Breaker (o)"
    assert g.player_label(Player.SECOND) == "Maker (x)"
    p = play_text(g, "b2")
    assert p.text() == ".../.o./..." and p.to_move is Player.SECOND
    # Maker (second) makes row 1 while Breaker plays elsewhere
    assert play_text(g, "b2 a1 c3 b1 a3 c1").outcome() is SECOND
    # Breaker (first) touches every line: b2, a1 and c3 do
    assert play_text(g, "b2 a2 a1 b1 c3").outcome() is FIRST


@pytest.mark.parametrize("spec", ["maker_breaker(tictactoe)", "maker_breaker(tictactoe,breaker_first=true)"])
def test_maker_breaker_has_no_draws(spec: str) -> None:
    g = noughts.game(spec)
    assert not g.properties.has_draws
    assert _outcomes(g) == {FIRST, SECOND}


def test_maker_breaker_on_a_board_with_a_lone_cell() -> None:
    """A cell on no line: Breaker's win comes from the lines alone, not from the cells."""
    g = noughts.game('maker_breaker(shape("##.#",2))')  # one line, a1-b1, and the lone cell d1
    assert play_text(g, "d1 a1").outcome() is SECOND


# -- cumulative -----------------------------------------------------------------------------------


def test_cumulative_runs_to_a_full_board_and_scores_accumulate() -> None:
    g = noughts.game("cumulative(tictactoe)")
    p = play_text(g, "a1 a2 b1 b2 c1")
    assert not p.is_terminal() and p.score() == (1, 0)  # x's row does not end the game
    p = p.play(g.parse_move("c2"))
    assert not p.is_terminal() and p.score() == (1, 1)
    p = play_text(g, "a1 a2 b1 b2 c1 c2 a3 b3 c3")
    assert p.is_terminal() and p.text() == "xxx/ooo/xox"
    assert p.score() == (1, 1) and p.outcome() is DRAW
    assert "score: x 1, o 1" in p.render()


def test_cumulative_two_lines_in_one_move_count_twice() -> None:
    g = noughts.game("cumulative(mnk(4,4,3))")
    before = play_text(g, "b1 d4 c1 c3 a2 d1 a3 b4")
    assert before.score() == (0, 0)
    after = before.play(g.parse_move("a1"))  # row a1-b1-c1 and column a1-a2-a3 at once
    assert after.score() == (2, 0)
    assert not after.is_terminal()
    assert g.parse(after.text()).score() == (2, 0)


def test_cumulative_winner_by_score() -> None:
    g = noughts.game("cumulative(tictactoe)")
    p = play_text(g, "a1 a2 b1 b2 c1 b3 c2 c3 a3")
    assert p.text() == "xxx/oox/xoo" and p.score() == (1, 0) and p.outcome() is FIRST
    assert g.parse("xxx/oox/xoo").outcome() is FIRST
    assert g.parse("xxx/oox/oox").score() == (2, 0)  # row 1 and column c
    assert g.properties.is_scored and noughts.game("tictactoe").start().score() is None


# -- veto -----------------------------------------------------------------------------------------


def test_veto_then_claim() -> None:
    g = noughts.game("veto(tictactoe)")
    p = g.start()
    assert p.to_move is Player.SECOND  # o may forbid a cell for x's first claim
    assert p.legal_moves() == [Veto(c) for c in range(9)] + [Veto(None)]
    p = p.play(Veto(4))
    assert p.to_move is Player.FIRST and p.text() == ".../.../... !b2"
    assert 4 not in p.legal_moves() and len(p.legal_moves()) == 8
    with pytest.raises(IllegalMoveError, match="b2 is illegal: the opponent vetoed it this turn"):
        p.play(4)
    p = p.play(0)
    assert p.to_move is Player.FIRST  # x now vetoes for o's claim
    assert p.text() == "x../.../..."
    assert Veto(0) not in p.legal_moves()  # a taken cell cannot be vetoed
    with pytest.raises(IllegalMoveError, match="!a1 is illegal: the cell is already taken"):
        p.play(Veto(0))


def test_veto_steps_must_alternate() -> None:
    g = noughts.game("veto(tictactoe)")
    with pytest.raises(IllegalMoveError, match="b2 is illegal: it is o's veto step"):
        g.start().play(4)
    with pytest.raises(IllegalMoveError, match="!c3 is illegal: the veto step is over; claim a cell"):
        g.start().play(Veto(None)).play(Veto(8))


def test_veto_pass_forbids_nothing() -> None:
    g = noughts.game("veto(tictactoe)")
    p = g.start().play(g.parse_move("pass"))
    assert p.text() == ".../.../... !-"
    assert p.legal_moves() == list(range(9))


# x: a1 b1 a2 c3, o: b2 a3 c2 b3; x is to claim the last empty cell, c1, which completes row 1
_LAST_CELL = "pass a1 pass b2 pass b1 pass a3 pass a2 pass c2 pass c3 pass b3"


@pytest.mark.parametrize(
    ("spec", "stalled", "passed"),
    [
        ("veto(tictactoe)", DRAW, FIRST),
        ("veto(misere(tictactoe))", DRAW, SECOND),
        ("veto(maker_breaker(tictactoe))", SECOND, FIRST),  # Breaker wins the stalled game
        ("veto(cumulative(tictactoe))", DRAW, FIRST),  # by score: 0-0 when stalled, 1-0 after c1
    ],
)
def test_vetoing_the_only_empty_cell_ends_the_game(spec: str, stalled: Outcome, passed: Outcome) -> None:
    g = noughts.game(spec)
    p = play_text(g, _LAST_CELL)
    assert not p.is_terminal() and p.to_move is Player.SECOND
    assert p.legal_moves() == [Veto(2), Veto(None)]
    q = p.play(Veto(2))
    assert q.outcome() is stalled and q.legal_moves() == []
    assert q.text() == "xx./xoo/oox !c1"
    assert g.parse(q.text()).outcome() is stalled
    r = p.play(Veto(None)).play(2)
    assert r.outcome() is passed


def test_veto_stalled_cumulative_is_judged_by_score() -> None:
    g = noughts.game("veto(cumulative(tictactoe))")
    # x owns row 1; c3 is left, and o forbids it
    p = play_text(g, "pass a1 pass b2 pass b1 pass c2 pass c1 pass a3 pass a2 pass b3 !c3")
    assert p.text() == "xxx/xoo/oo. !c3"
    assert p.score() == (1, 0) and p.outcome() is FIRST


def test_veto_game_length() -> None:
    g = noughts.game("veto(tictactoe)")
    assert g.num_actions == 19 and g.properties.max_length == 18
    assert len(_LAST_CELL.split()) + 2 == 18


def test_veto_maker_breaker_declares_no_draws() -> None:
    g = noughts.game("veto(maker_breaker(tictactoe))")
    assert _outcomes(g) == {FIRST, SECOND}  # a full board is decided; a stalled one is Breaker's
    assert not g.properties.has_draws
    assert noughts.game("veto(misere(tictactoe))").properties.has_draws


# -- Notakto --------------------------------------------------------------------------------------


def test_notakto_killing_the_last_board_loses() -> None:
    g = noughts.game("notakto")
    p = play_text(g, "a1 b1")
    assert p.text() == "xx./.../..."  # both players draw x
    assert play_text(g, "a1 b1 c1").outcome() is SECOND
    assert play_text(g, "a1 b1 b2 c1").outcome() is FIRST
    assert g.player_label(Player.FIRST) == "first player"


def test_notakto_dead_boards_refuse_moves() -> None:
    g = noughts.game("notakto(boards=2)")
    p = play_text(g, "1:a1 1:b1 1:c1")  # the first player kills board 1; board 2 lives on
    assert not p.is_terminal() and p.to_move is Player.SECOND
    assert all(m.board == 1 for m in p.legal_moves())  # type: ignore[union-attr]
    assert len(p.legal_moves()) == 9
    with pytest.raises(IllegalMoveError, match="1:b2 is illegal: board 1 is dead"):
        p.play(NotaktoMove(0, 4))
    assert "board 1 (dead)" in p.render()
    # now who kills board 2 loses: the second player does here
    assert play_text(g, "1:a1 1:b1 1:c1 2:a1 2:b1 2:c1").outcome() is FIRST


def test_notakto_has_no_draws() -> None:
    g = noughts.game("notakto")
    assert not g.properties.has_draws and g.properties.same_marks
    assert _outcomes(g) == {FIRST, SECOND}


# -- Otrio ----------------------------------------------------------------------------------------


def test_otrio_ring_quota() -> None:
    g = noughts.game("otrio")
    p = play_text(g, "a1s b2m c1s b2s b3s a3m")  # x has placed its three small rings
    assert not p.is_terminal() and p.to_move is Player.FIRST
    assert all(m.size != 0 for m in p.legal_moves())  # type: ignore[union-attr]
    with pytest.raises(IllegalMoveError, match="a3s is illegal: x has no small ring left"):
        p.play(Ring(6, 0))
    assert "x holds: 0 small, 3 medium, 3 large" in p.render()
    assert "o holds: 2 small, 1 medium, 3 large" in p.render()


@pytest.mark.parametrize(
    "moves",
    [
        "a1s b2s a1m b2m a1l",  # all three sizes in one cell
        "a1s a2s b2m a3s c3l",  # small-medium-large along a diagonal
        "a1l a2l b2m a3l c3s",  # and large-medium-small
        "a1s a2m b1s b2m c1s",  # three small in a row
        "a1s c2s b1m c2m c1l",  # small-medium-large along a row
    ],
)
def test_otrio_wins(moves: str) -> None:
    g = noughts.game("otrio")
    assert not play_text(g, moves.rsplit(" ", 1)[0]).is_terminal()
    assert play_text(g, moves).outcome() is FIRST


def test_otrio_unordered_sizes_do_not_win() -> None:
    g = noughts.game("otrio")
    assert not play_text(g, "a1s a2s b2l a3s c3m").is_terminal()  # small-large-medium


def test_otrio_draw_after_18_rings() -> None:
    g = noughts.game("otrio")
    moves = "b1l b1s b3l c2m b2s a2s c1l b3s b3m b2l b1m a3m a2m c3m c2s a2l a3s a1l"
    assert len(moves.split()) == 18
    before = play_text(g, moves.rsplit(" ", 1)[0])
    assert not before.is_terminal()
    p = play_text(g, moves)
    assert p.outcome() is DRAW and p.legal_moves() == []
    assert p.text() == "..o,oxx,..x/oxo,x.o,xo./xo.,oxx,.o."
    assert g.parse(p.text()).outcome() is DRAW
    assert g.properties.max_length == 18


def test_otrio_taken_slot_is_an_illegal_move() -> None:
    g = noughts.game("otrio")
    with pytest.raises(IllegalMoveError, match="b2m is illegal: the cell is taken by x"):
        play_text(g, "b2m").play(Ring(4, 1))


# -- the errors people see ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "moves", "move", "message"),
    [
        ("tictactoe", "b2", 4, "b2 is illegal: the cell is taken by x"),
        ("tictactoe", "b2 a1", 0, "a1 is illegal: the cell is taken by o"),
        ("maker_breaker(tictactoe,breaker_first=true)", "b2", 4, "b2 is illegal: the cell is taken by o"),
        ("tictactoe", "a1 a2 b1 b2 c1", 8, "c3 is illegal: the game is over (first player wins)"),
        ("misere(tictactoe)", "a1 a2 b1 b2 c1", 8, "c3 is illegal: the game is over (second player wins)"),
        ("hypercube(3,3)", "2,2,2", 13, "2,2,2 is illegal: the cell is taken by x"),
        ("notakto", "b2", NotaktoMove(0, 4), "b2 is illegal: the cell is taken"),
        ("notakto", "a1 b1 c1", NotaktoMove(0, 4), "b2 is illegal: the game is over (second player wins)"),
        ("veto(tictactoe)", "!b2", 4, "b2 is illegal: the opponent vetoed it this turn"),
        ("otrio", "a1s a2s a1m a2m a1l", Ring(4, 0), "b2s is illegal: the game is over (first player wins)"),
        ("otrio", "b2m", Ring(4, 1), "b2m is illegal: the cell is taken by x"),
        ("otrio", "b2m a1s b3l", Ring(0, 0), "a1s is illegal: the cell is taken by o"),
    ],
)
def test_illegal_move_messages_name_the_move_and_the_reason(
    spec: str, moves: str, move: object, message: str
) -> None:
    g = noughts.game(spec)
    p = play_text(g, moves)
    with pytest.raises(IllegalMoveError) as info:
        p.play(move)  # type: ignore[arg-type]
    assert str(info.value) == message
    assert isinstance(info.value, ValueError) and isinstance(info.value, noughts.NoughtsError)


def test_read_move_checks_legality() -> None:
    g = noughts.game("tictactoe")
    p = play_text(g, "b2")
    assert g.read_move(p, "a1") == 0
    with pytest.raises(IllegalMoveError, match="b2 is illegal: the cell is taken by x"):
        g.read_move(p, "b2")
    g.check_move(p, 0)
    with pytest.raises(IllegalMoveError, match="b2 is illegal: the cell is taken by x"):
        g.check_move(p, 4)
    with pytest.raises(noughts.NotationError):
        g.read_move(p, "z9")
    over = play_text(g, "a1 a2 b1 b2 c1")
    with pytest.raises(IllegalMoveError, match="c3 is illegal: the game is over"):
        g.read_move(over, "c3")


def test_claim_aux_is_what_the_claim_kernels_judge_with():
    """``claim_aux``: survivors under Maker-Breaker rules, the scores under cumulative rules,
    (0, 0) otherwise; the three kernel drivers (MCTS, minimax, engine) start from it."""
    import noughts

    mb = noughts.game("maker_breaker(mnk(4,4,3))")
    p = mb.start()
    assert mb.claim_aux(p) == (len(mb.board.lines), 0)
    p = p.play(0).play(5)  # Breaker's mark in the middle kills every line through it
    assert mb.claim_aux(p) == (mb.survivors(p), 0) and mb.survivors(p) < len(mb.board.lines)
    cu = noughts.game("cumulative(mnk(3,3,3))")
    q = cu.parse("xxx/oo./...")
    assert cu.claim_aux(q) == q.score() == (1, 0)
    st = noughts.game("misere(mnk(3,3,3))")
    assert st.claim_aux(st.parse("xo./.x./...")) == (0, 0)


def test_cell_owners_names_each_cells_claimer():
    """``cell_owners``: 0 / 1 for the player who claimed a cell, -1 where it is empty, on one
    word and past 64 cells."""
    import noughts

    g = noughts.game("tictactoe")
    assert g.cell_owners(g.parse("xo./.x./..o")) == [0, 1, -1, -1, 0, -1, -1, -1, 1]
    big = noughts.game("mnk(15,15,5)")
    p = big.start().play(224).play(0).play(112)
    owners = big.cell_owners(p)
    assert (owners[224], owners[0], owners[112]) == (0, 1, 0) and owners.count(-1) == 222
