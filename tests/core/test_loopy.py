"""The rules under which marks vanish or move (noughts.core.loopy), move by move.

The conformance check (test_conformance.py) holds every spec to the protocol; here each rule
the module docstring states is played out on a small example, so a wrong rule fails by name.
"""

from __future__ import annotations

import random

import pytest
from core_cases import play_text

import noughts
from noughts import IllegalMoveError, NotationError, Outcome, Player, SpecError
from noughts.core import FadingGame, MorrisGame, Slide


def fading(spec: str) -> FadingGame:
    g = noughts.game(spec)
    assert isinstance(g, FadingGame)
    return g


def morris(spec: str = "morris") -> MorrisGame:
    g = noughts.game(spec)
    assert isinstance(g, MorrisGame)
    return g


def cells(g: noughts.Game, text: str) -> set[int]:
    return {g.board.parse_cell(w) for w in text.split()}


def held(p: noughts.Position, player: Player) -> set[int]:
    return set(p.game.board.cells_in(p.owned(player)))


# -- forget and vanishing ---------------------------------------------------------------------------


def test_own_reading_keeps_three_marks_and_removes_the_oldest_after_the_move() -> None:
    g = fading("forget(tictactoe)")
    assert g.lifetime == 6
    p = play_text(g, "a1 c3 b1 a2 c2 b3")  # x a1 b1 c2, o c3 a2 b3: nobody has a line
    assert p.outcome() is None
    assert held(p, Player.FIRST) == cells(g, "a1 b1 c2")
    assert g.leaving(p) == g.board.parse_cell("a1")  # x's oldest leaves after x's next move
    assert g.order(p, Player.FIRST) == tuple(g.board.parse_cell(c) for c in ("a1", "b1", "c2"))
    with pytest.raises(IllegalMoveError, match="taken"):
        p.play(g.board.parse_cell("a1"))  # the leaving mark still stands while x chooses
    q = p.play(g.board.parse_cell("a3"))
    assert held(q, Player.FIRST) == cells(g, "b1 c2 a3")  # a1 left after the move
    assert held(q, Player.SECOND) == cells(g, "c3 a2 b3")
    assert q.text() == ".x./o.x/xoo c3 b1 a2 c2 b3 a3"
    assert g.order(q)[0] == g.board.parse_cell("c3")  # o's first mark is now the oldest
    assert g.parse(q.text()) == q


def test_judge_after_does_not_count_the_leaving_mark_and_before_does() -> None:
    # x's marks a1 b1 ... then x completes a1-b1-c1 with c1 while a1 is the mark that leaves
    moves = "a1 a3 b1 b3 a2 c2 c1"
    after = play_text(fading("vanishing(tictactoe)"), moves)
    assert after.outcome() is None, "a1 left as c1 was placed: no line after the removal"
    assert after.text().startswith(".xx/")
    before = play_text(fading('vanishing(tictactoe,judge="before")'), moves)
    assert before.outcome() is Outcome.FIRST, "the line a1 b1 c1 is judged before a1 leaves"
    assert before.text() == "xxx/x.o/oo. a1 a3 b1 b3 a2 c2 c1"  # the game ended: nothing left
    assert before.game.completed_lines(before, Player.FIRST)


def test_vanishing_is_forget_counted_in_own_turns() -> None:
    rng = random.Random(7)
    f, v = fading("forget(tictactoe,turns=2)"), fading("vanishing(tictactoe,keep=2)")
    assert f.lifetime == v.lifetime == 4
    for _ in range(20):
        p, q = f.start(), v.start()
        for _ in range(40):
            if p.is_terminal():
                break
            assert p.legal_moves() == q.legal_moves()
            m = rng.choice(p.legal_moves())
            p, q = p.play(m), q.play(m)
            assert p.text() == q.text() and p.outcome() == q.outcome()


def test_plies_reading_of_three_turns_never_gives_three_marks() -> None:
    g = fading('forget(tictactoe,count="plies")')
    assert g.lifetime == 3
    rng = random.Random(3)
    for _ in range(30):
        p = g.start()
        for _ in range(60):
            mover = p.to_move
            p = p.play(rng.choice(p.legal_moves()))
            assert len(held(p, mover)) <= 2 and len(held(p, mover.other)) <= 1
            assert p.outcome() is None
    p = play_text(g, "a1 b2 c3")
    assert g.lifetimes(p) == {0: 1, 4: 2, 8: 3}  # a1 leaves at the end of o's coming move
    q = p.play(g.board.parse_cell("a3"))
    assert held(q, Player.FIRST) == cells(g, "c3") and held(q, Player.SECOND) == cells(g, "b2 a3")


def test_marks_that_outlive_the_board_make_the_plain_game() -> None:
    g = fading("forget(tictactoe,turns=5)")
    assert g.properties.bounded and g.properties.max_length == 9
    p = play_text(g, "a3 a1 c2 b2 a2 c1 c3 b3 b1")
    assert p.outcome() is Outcome.DRAW and not p.legal_moves()
    q = play_text(noughts.game("tictactoe"), "a3 a1 c2 b2 a2 c1 c3 b3 b1")
    assert q.outcome() is Outcome.DRAW


def test_unbounded_games_say_so() -> None:
    for spec in ("forget(tictactoe)", "vanishing(mnk(4,4,4),keep=4)", "morris"):
        props = noughts.game(spec).properties
        assert not props.bounded and props.max_length is None
        assert props.truncation == noughts.core.TRUNCATION and props.move_cap == props.truncation


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("x../.o./..x a1 b2", "list every mark"),
        ("x../.o./..x a1 b2 b2 c3", "list every mark"),
        ("x../.o./..x a1 c3 b2", "alternate"),
        ("o../.x./... a1 b2", "no game"),  # o's mark is the oldest, but o moves second
        ("xxx/oo./..o a1 a2 b1 b2 c1 c3", "no game"),  # o moved after x's win
        ("x../.o./..x a1 b2 zz9", "not a cell"),
    ],
)
def test_bad_fading_texts_are_refused(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        fading("forget(tictactoe)").parse(text)


# -- morris -----------------------------------------------------------------------------------------


def names(g: MorrisGame, cell: str) -> set[str]:
    return {g.board.cell_name(c) for c in g.neighbours(g.board.parse_cell(cell))}


def test_the_traditional_board_and_its_variants() -> None:
    g = morris()
    assert names(g, "a1") == {"b1", "a2", "b2"}
    assert names(g, "b1") == {"a1", "c1", "b2"}
    assert names(g, "b2") == {"a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"}
    murray = morris("morris(diagonals=false)")
    assert names(murray, "a1") == {"b1", "a2"} and names(murray, "b2") == {"b1", "a2", "c2", "b3"}
    assert len(murray.line_indices) == 8, "diagonal mills still count"
    plain = morris("morris(diagonals=false,diagonal_mills=false)")
    assert len(plain.line_indices) == 6
    holes = morris("morris(jump=true)")
    assert len(names(holes, "a1")) == 8
    assert g.num_actions == 9 + 2 * 16 and murray.num_actions == 9 + 2 * 12


def test_placing_then_sliding() -> None:
    g = morris()
    p = play_text(g, "b2 a1 c2 a2 a3 c1")
    assert g.phase(p) == "moving" and g.in_hand(p, Player.FIRST) == 0
    assert p.text() == "o.o/oxx/x.. x"
    with pytest.raises(IllegalMoveError, match="every x is placed"):
        p.play(g.board.parse_cell("b3"))
    with pytest.raises(IllegalMoveError, match="holds no x"):
        p.play(g.parse_move("a1-b1"))
    with pytest.raises(IllegalMoveError, match="taken"):
        p.play(g.parse_move("b2-c1"))
    move = g.parse_move("b2-b3")
    assert move == Slide(4, 7) and g.format_move(move) == "b2-b3"
    q = play_text(g, "b2 a1 c2 a2 a3 c1 b2-b3 a1-b1")
    assert q.outcome() is None
    r = q.play(g.parse_move("c2-c3"))
    assert r.outcome() is Outcome.FIRST  # a3 b3 c3
    assert r.text() == ".oo/o../xxx o"
    with pytest.raises(NotationError, match="not adjacent"):
        g.parse_move("a1-c3")
    r = play_text(g, "a1 b2")
    with pytest.raises(IllegalMoveError, match="marks to place"):
        r.play(Slide(0, 1))


def test_judge_before_counts_the_old_cell_of_a_sliding_mark() -> None:
    moves = "a1 b2 b1 c3 a3 a2"  # x a1 b1 a3; sliding b1 -> c1 lands on the row a1 b1 c1
    after = play_text(morris(), moves + " b1-c1")
    assert after.outcome() is None
    before = play_text(morris('morris(judge="before")'), moves + " b1-c1")
    assert before.outcome() is Outcome.FIRST
    assert before.text() == "xxx/oo./x.o o"  # the mark shows on both cells: the game ended as it landed
    assert before.game.parse(before.text()) == before


def test_a_blocked_player_loses_or_passes() -> None:
    # o to move with every o mark hemmed in: o a1 b1 a2, x b2 c1 a3; empty c2 b3 c3 (no
    # diagonals: no x line either, and o's marks have no way out)
    loses = morris("morris(diagonals=false,diagonal_mills=false)").parse("oox/ox./x.. o")
    assert loses.outcome() is Outcome.FIRST and not loses.legal_moves()
    passes = morris('morris(diagonals=false,diagonal_mills=false,blocked="passes")')
    with pytest.raises(NotationError, match="passes"):
        passes.parse("oox/ox./x.. o")
    p = passes.parse("oox/ox./x.. x")
    assert p.outcome() is None and p.to_move is Player.FIRST


@pytest.mark.parametrize(
    "text",
    ["xo./.x./o.. z", "xxx/oo./... x", "xo./.xo/xo.", "xxx/ooo/... x", "xo./.x./o.. o"],
)
def test_bad_morris_texts_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        morris().parse(text)


# -- specs ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "canonical"),
    [
        ("forget(tictactoe)", "forget(mnk(3,3,3))"),
        ("forget(tictactoe,count=plies)", 'forget(mnk(3,3,3),count="plies")'),
        ("forget(mnk(3,3,3),3,'own','before')", 'forget(mnk(3,3,3),judge="before")'),
        ("vanishing(tictactoe,keep=3)", "vanishing(mnk(3,3,3))"),
        ("morris(tictactoe)", "morris"),
        ("morris(pieces=3,diagonals=true,judge=after)", "morris"),
        ('morris(mnk(4,4,4),pieces=4,blocked="passes")', 'morris(mnk(4,4,4),pieces=4,blocked="passes")'),
    ],
)
def test_specs(spec: str, canonical: str) -> None:
    g = noughts.game(spec)
    assert str(g) == canonical and noughts.game(canonical) == g


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("forget(tictactoe,count=rounds)", "one of 'own', 'plies'"),
        ("forget(tictactoe,judge=1)", "judge must be one of"),
        ("forget(tictactoe,turns=0)", "at least 1"),
        ("vanishing(keep=2)", "needs its argument 'board'"),
        ("morris(pieces=5)", "no empty cell"),
        ("morris(blocked=draws)", "'loses', 'passes'"),
    ],
)
def test_bad_specs(spec: str, why: str) -> None:
    with pytest.raises(SpecError, match=why):
        noughts.game(spec)


def test_codes_number_positions_one_to_one() -> None:
    rng = random.Random(11)
    for spec in ("forget(tictactoe)", 'forget(tictactoe,judge="before")', "morris", 'morris(judge="before")'):
        g = noughts.game(spec)
        assert isinstance(g, (FadingGame, MorrisGame))
        seen: dict[int, noughts.Position] = {}
        for _ in range(20):
            p = g.start()
            for _ in range(30):
                code = g.code(p)
                assert code < 1 << g.code_bits
                assert seen.setdefault(code, p) == p
                back = g.from_code(code)
                assert back == p and back.outcome() == p.outcome()
                if p.is_terminal():
                    break
                p = p.play(rng.choice(p.legal_moves()))
