"""Notation: cell names, move text and position texts, and the errors on everything else."""

from __future__ import annotations

import itertools
import random
import string

import pytest
from core_cases import CONFORMANCE_SPECS, EXTRA_CORNER, HOLES, all_moves, play_text, reachable
from hypothesis import given, settings
from hypothesis import strategies as st

import noughts
from noughts import NotaktoMove, NotationError, Position, Ring, Veto, hypercube, mnk

CELL_BOARDS = [
    "tictactoe",
    "mnk(3,30,3)",
    "mnk(2,60,2)",
    "mnk(1,800,1)",
    "mnk(30,3,3)",
    "hypercube(3,1)",
    "hypercube(4,2)",
    "hypercube(3,3)",
    "hypercube(4,3)",
    "hypercube(3,4)",
    "hypercube(2,6)",
    EXTRA_CORNER,
    HOLES,
]

# -- cells ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", CELL_BOARDS)
def test_every_cell_name_reads_back(spec: str) -> None:
    board = noughts.board(spec)
    names = [board.cell_name(c) for c in range(board.num_cells)]
    assert len(set(names)) == len(names)
    for cell, name in enumerate(names):
        assert board.parse_cell(name) == cell
        assert board.parse_cell(f"  {name.upper()} ") == cell
        if board.dims != 2:
            assert board.parse_cell(f"({name})") == cell


@pytest.mark.parametrize(
    ("spec", "coord", "name"),
    [
        ("tictactoe", (0, 0), "a1"),
        ("tictactoe", (1, 2), "c2"),
        ("mnk(3,30,3)", (0, 25), "z1"),
        ("mnk(3,30,3)", (0, 26), "aa1"),
        ("mnk(3,30,3)", (2, 29), "ad3"),
        ("mnk(1,800,1)", (0, 701), "zz1"),
        ("mnk(1,800,1)", (0, 702), "aaa1"),
        ("mnk(30,3,3)", (29, 2), "c30"),
        ("hypercube(3,3)", (0, 1, 2), "1,2,3"),
        ("hypercube(3,1)", (2,), "3"),
        ("hypercube(3,4)", (2, 2, 2, 2), "3,3,3,3"),
    ],
)
def test_cell_names(spec: str, coord: tuple[int, ...], name: str) -> None:
    board = noughts.board(spec)
    cell = board.cell_at(coord)
    assert cell is not None
    assert board.cell_name(cell) == name
    assert board.parse_cell(name) == cell


@pytest.mark.parametrize(
    ("spec", "text"),
    [
        ("tictactoe", ""),
        ("tictactoe", "   "),
        ("tictactoe", "a"),
        ("tictactoe", "1"),
        ("tictactoe", "a0"),
        ("tictactoe", "a4"),
        ("tictactoe", "d1"),
        ("tictactoe", "b-1"),
        ("tictactoe", "b2b"),
        ("tictactoe", "2b"),
        ("tictactoe", "b 2"),
        ("tictactoe", "b2!"),
        ("tictactoe", "a1,1"),
        ("tictactoe", "1,1,1"),
        ("tictactoe", "_1"),
        ("mnk(3,30,3)", "ae1"),
        ("mnk(3,30,3)", "aa0"),
        ("hypercube(3,3)", "1,1"),
        ("hypercube(3,3)", "1,1,1,1"),
        ("hypercube(3,3)", "0,1,1"),
        ("hypercube(3,3)", "4,1,1"),
        ("hypercube(3,3)", "-1,1,1"),
        ("hypercube(3,3)", "+1,1,1"),
        ("hypercube(3,3)", "a1"),
        ("hypercube(3,3)", "1,,1"),
        ("hypercube(3,3)", "1.0,1,1"),
        ("hypercube(3,3)", "x,y,z"),
        ("hypercube(3,1)", "b1"),
        (HOLES, "b1"),
        (HOLES, "c2"),
    ],
)
def test_junk_cells_raise_notation_error(spec: str, text: str) -> None:
    with pytest.raises(NotationError) as info:
        noughts.board(spec).parse_cell(text)
    assert repr(text) in str(info.value)


@given(text=st.text(max_size=8))
@settings(max_examples=400, deadline=None)
def test_any_text_is_a_flat_cell_or_a_notation_error(text: str) -> None:
    board = mnk(3, 30, 3)
    try:
        cell = board.parse_cell(text)
    except NotationError as e:
        assert str(e)
        return
    assert 0 <= cell < board.num_cells


@given(text=st.text(alphabet=string.digits + string.ascii_letters + ",() -+.", max_size=10))
@settings(max_examples=400, deadline=None)
def test_any_ascii_text_is_a_cube_cell_or_a_notation_error(text: str) -> None:
    board = hypercube(3, 3)
    try:
        cell = board.parse_cell(text)
    except NotationError as e:
        assert str(e)
        return
    assert 0 <= cell < board.num_cells


@pytest.mark.parametrize(
    ("spec", "text"),
    [
        ("hypercube(3,3)", "1,1,²"),  # str.isdigit says yes, int() says no
        ("hypercube(3,3)", "١,١,١"),  # int() would read these Arabic-Indic digits
        ("tictactoe", "2,²"),
        ("tictactoe", "b²"),
        ("veto(hypercube(3,3))", "!1,²,1"),
        ("mnk(1,200,1)", "é1"),  # a letter, but no column: ord('é') - ord('a') would be 136
        ("mnk(1,200,1)", "aé1"),
        ("mnk(3,30,3)", "ª1"),
        ("notakto(boards=2)", "²:a1"),
    ],
)
def test_non_ascii_digits_and_letters_raise_notation_error(spec: str, text: str) -> None:
    with pytest.raises(NotationError):
        noughts.game(spec).parse_move(text)


# -- moves ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "text", "move"),
    [
        ("tictactoe", "b2", 4),
        ("tictactoe", " C3 ", 8),
        ("veto(tictactoe)", "!b2", Veto(4)),
        ("veto(tictactoe)", "veto b2", Veto(4)),
        ("veto(tictactoe)", "pass", Veto(None)),
        ("veto(tictactoe)", "!-", Veto(None)),
        ("veto(tictactoe)", "a1", 0),
        ("veto(hypercube(3,3))", "!2,2,2", Veto(13)),
        ("notakto", "b2", NotaktoMove(0, 4)),
        ("notakto(boards=2)", "2:b2", NotaktoMove(1, 4)),
        ("notakto(boards=3)", "3:c3", NotaktoMove(2, 8)),
        ("otrio", "b2m", Ring(4, 1)),
        ("otrio", "a1 small", Ring(0, 0)),
        ("otrio", "c3:large", Ring(8, 2)),
    ],
)
def test_move_text(spec: str, text: str, move: object) -> None:
    g = noughts.game(spec)
    assert g.parse_move(text) == move
    assert g.parse_move(g.format_move(move)) == move  # type: ignore[arg-type]


def test_move_names() -> None:
    assert noughts.game("veto(tictactoe)").format_move(Veto(4)) == "!b2"
    assert noughts.game("veto(tictactoe)").format_move(Veto(None)) == "pass"
    assert noughts.game("notakto").format_move(NotaktoMove(0, 4)) == "b2"
    assert noughts.game("notakto(boards=2)").format_move(NotaktoMove(1, 4)) == "2:b2"
    assert noughts.game("otrio").format_move(Ring(4, 1)) == "b2m"
    assert noughts.game("hypercube(3,3)").format_move(13) == "2,2,2"


@pytest.mark.parametrize(
    ("spec", "text"),
    [
        ("tictactoe", "pass"),
        ("tictactoe", "!b2"),
        ("tictactoe", "1:b2"),
        ("veto(tictactoe)", "!"),
        ("veto(tictactoe)", "!!b2"),
        ("veto(tictactoe)", "!d4"),
        ("veto(tictactoe)", "veto"),
        ("notakto", "1:b2:c3"),
        ("notakto(boards=2)", "b2"),
        ("notakto(boards=2)", "0:b2"),
        ("notakto(boards=2)", "3:b2"),
        ("notakto(boards=2)", "x:b2"),
        ("notakto(boards=2)", "2:"),
        ("notakto(boards=2)", ":b2"),
        ("otrio", "b2"),
        ("otrio", "b2x"),
        ("otrio", "d2m"),
        ("otrio", "m"),
        ("otrio", ""),
        ("otrio", "b2 huge"),
    ],
)
def test_junk_moves_raise_notation_error(spec: str, text: str) -> None:
    with pytest.raises(NotationError):
        noughts.game(spec).parse_move(text)


@pytest.mark.parametrize("spec", CONFORMANCE_SPECS)
def test_formatting_a_non_move_raises_notation_error(spec: str) -> None:
    g = noughts.game(spec)
    for junk in (-1, g.num_actions, NotaktoMove(99, 0), Ring(9, 9), "b2", None):
        if junk in all_moves(g):
            continue
        with pytest.raises(NotationError):
            g.action(junk)  # type: ignore[arg-type]


_MOVE_ALPHABET = string.ascii_lowercase[:6] + string.digits[:5] + ",:!- sml"


@given(spec=st.sampled_from(CONFORMANCE_SPECS), text=st.text(alphabet=_MOVE_ALPHABET, max_size=8))
@settings(max_examples=400, deadline=None)
def test_any_move_text_is_a_move_or_a_notation_error(spec: str, text: str) -> None:
    g = noughts.game(spec)
    try:
        move = g.parse_move(text)
    except NotationError as e:
        assert str(e)
        return
    assert g.move(g.action(move)) == move


# -- positions ------------------------------------------------------------------------------------


@given(spec=st.sampled_from(CONFORMANCE_SPECS), seed=st.integers(0, 2**32), length=st.integers(0, 40))
@settings(max_examples=300, deadline=None)
def test_reached_positions_read_back(spec: str, seed: int, length: int) -> None:
    g = noughts.game(spec)
    rng = random.Random(seed)
    p = g.start()
    for _ in range(length):
        if p.is_terminal():
            break
        p = p.play(rng.choice(p.legal_moves()))
    q = g.parse(p.text())
    assert q == p and q.to_move == p.to_move and q.outcome() == p.outcome() and q.score() == p.score()
    assert g.parse(p.text().upper()) == p  # case does not matter
    assert g.parse(f"  {p.text()}\n") == p


@pytest.mark.parametrize(
    ("spec", "moves", "text"),
    [
        ("tictactoe", "", ".../.../..."),
        ("tictactoe", "b2 a1 c3", "o../.x./..x"),
        ("mnk(3,4,3)", "d3", "..../..../...x"),
        ("hypercube(3,3)", "2,2,2 1,1,1", "o../.../...|.../.x./...|.../.../..."),
        ("hypercube(2,4)", "1,1,2,2", "../.x|../..||../..|../.."),
        (HOLES, "b2 a1", "o-./-x-/.-."),
        ("maker_breaker(tictactoe,breaker_first=true)", "b2 a1", "x../.o./..."),
        ("veto(tictactoe)", "!b2", ".../.../... !b2"),
        ("veto(tictactoe)", "pass a1", "x../.../... "),
        ("veto(tictactoe)", "pass a1 pass", "x../.../... !-"),
        ("notakto(boards=2)", "2:b2", ".../.../...;.../.x./..."),
        ("otrio", "b2m a1s", "o..,...,.../...,.x.,.../...,...,..."),
    ],
)
def test_position_text(spec: str, moves: str, text: str) -> None:
    g = noughts.game(spec)
    p = play_text(g, moves)
    assert p.text() == text.strip()
    assert g.parse(text) == p


def _malformed() -> list[tuple[str, str, str]]:
    return [
        # shape of the text
        ("tictactoe", "x../...", "found 2 rows separated by '/', expected 3"),
        ("tictactoe", "x../.../.../...", "found 4 rows"),
        ("tictactoe", "x../.../..", "row 3 has 2 cells, expected 3"),
        ("tictactoe", "x.../.../...", "row 1 has 4 cells, expected 3"),
        ("tictactoe", "", "found 1 rows"),
        ("hypercube(3,3)", ".../.../...|.../.../...", "found 2 layers separated by '|', expected 3"),
        ("hypercube(3,3)", "/".join(["..."] * 9), "found 1 layers"),
        ("hypercube(2,4)", "../..|../..|../..|../..", "separated by '||', expected 2"),
        # characters
        ("tictactoe", "xq./.../...", "'q' is not one of 'x', 'o', '.'"),
        ("tictactoe", "x-./.../...", "'-' is not one of"),
        (HOLES, "x../.../...", "'.' stands where the board has no cell (write '-')"),
        ("notakto", "o../.../...", "'o' is not one of 'x', '.'"),
        # mark counts
        ("tictactoe", "oo./.../...", "x has 0 marks and o has 2"),
        ("tictactoe", "xxo/x../...", "x has 3 marks and o has 1"),
        ("maker_breaker(tictactoe,breaker_first=true)", "x../.../...", "o moves first"),
        # unreachable: both players own a line, or the player who did not move last owns one
        ("tictactoe", "xxx/ooo/x..", "no game reaches it"),
        ("tictactoe", "xxx/ooo/...", "no game reaches it"),
        ("tictactoe", "xxx/oo./o..", "no game reaches it"),
        ("misere(tictactoe)", "ooo/xx./xx.", "no game reaches it"),
        # x owns two disjoint lines: no single last move made both
        ("mnk(4,4,3)", "xxx./o.oo/xxx./o.o.", "no game reaches it"),
        ("maker_breaker(tictactoe)", "xxx/oo./o..", "no game reaches it"),
        ("cumulative(tictactoe)", "oo./x../...", "x has 1 marks and o has 2"),
        # veto
        ("veto(tictactoe)", "x../.../... !", "'!' must be followed by a cell or '-'"),
        ("veto(tictactoe)", "x../.../... !a1", "the vetoed cell a1 is taken"),
        ("veto(tictactoe)", "xxx/oo./... !-", "the game is already over, so no veto is pending"),
        ("veto(tictactoe)", "x../.../... !d9", "is not a cell"),
        # notakto
        ("notakto", "x../.../...;.../.../...", "found 2 boards separated by ';', expected 1"),
        ("notakto(boards=2)", "x../.../...", "found 1 boards"),
        ("notakto", "xxx/.../xxx", "no game reaches board 1"),
        ("notakto(boards=2)", ".../.../...;xxx/xxx/xxx", "no game reaches board 2"),
        # otrio
        ("otrio", "x..,...,...", "write 3 rows separated by '/'"),
        ("otrio", "x..,...,.../...,...,.../...,...", "write 3 rows"),
        ("otrio", "x.,...,.../...,...,.../...,...,...", "write 3 rows"),
        ("otrio", "q..,...,.../...,...,.../...,...,...", "'q' is not 'x', 'o' or '.'"),
        ("otrio", "x..,x..,x../x..,...,.../ooo,o..,o..", "x has more than 3 small rings"),
        ("otrio", "xxx,...,.../...,...,.../...,...,...", "x has 3 marks and o has 0"),
        ("otrio", "ooo,x..,x../x..,.x.,.../...,...,...", "no game reaches it"),
    ]


@pytest.mark.parametrize(("spec", "text", "words"), _malformed())
def test_malformed_positions_raise_notation_error(spec: str, text: str, words: str) -> None:
    with pytest.raises(NotationError) as info:
        noughts.game(spec).parse(text)
    message = str(info.value)
    assert words in message
    assert "cannot read" in message or "is not a cell" in message


@pytest.mark.parametrize("spec", ["tictactoe", "veto(tictactoe)", "notakto", "otrio"])
@pytest.mark.parametrize("value", [None, 3, b"x../.../..."])
def test_a_position_must_be_text(spec: str, value: object) -> None:
    with pytest.raises(NotationError, match="a position is text"):
        noughts.game(spec).parse(value)  # type: ignore[arg-type]


_POSITION_ALPHABET = "xo.-/|;!,abc123 "


@given(spec=st.sampled_from(CONFORMANCE_SPECS), text=st.text(alphabet=_POSITION_ALPHABET, max_size=40))
@settings(max_examples=400, deadline=None)
def test_any_position_text_is_a_position_or_a_notation_error(spec: str, text: str) -> None:
    g = noughts.game(spec)
    try:
        p = g.parse(text)
    except NotationError as e:
        assert str(e)
        return
    assert isinstance(p, Position)
    assert g.parse(p.text()) == p


def _all_texts(spec: str) -> list[str]:
    """Every text of the right shape for a 3x3 game: each filling of the cells, and for veto rules
    each pending veto (none, a pass, or an empty cell)."""
    g = noughts.game(spec)
    alphabet = "x." if spec == "notakto" else "xo."
    texts = []
    for chars in itertools.product(alphabet, repeat=9):
        body = "/".join("".join(chars[3 * r : 3 * r + 3]) for r in range(3))
        texts.append(body)
        if spec.startswith("veto"):
            texts.append(f"{body} !-")
            texts.extend(f"{body} !{g.board.cell_name(c)}" for c in range(9) if chars[c] == ".")
    return texts


@pytest.mark.parametrize(
    "spec",
    [
        "tictactoe",
        "misere(tictactoe)",
        "maker_breaker(tictactoe)",
        "maker_breaker(tictactoe,breaker_first=true)",
        "cumulative(tictactoe)",
        "notakto",
        "veto(tictactoe)",
        "veto(maker_breaker(tictactoe))",
    ],
)
def test_parse_accepts_exactly_the_reachable_positions(spec: str) -> None:
    """Over every text of the right shape: parse gives a position exactly when some game reaches
    it, and then the very position (to move, outcome, score) that play reaches."""
    g = noughts.game(spec)
    reached = {p.text(): p for p in reachable(g)}
    accepted = 0
    for text in _all_texts(spec):
        try:
            q = g.parse(text)
        except NotationError:
            assert text.strip() not in reached, f"{text!r} is reachable but refused"
            continue
        accepted += 1
        p = reached.get(q.text())
        assert p is not None, f"{text!r} is accepted but no game reaches it"
        assert (q, q.to_move, q.outcome(), q.score()) == (p, p.to_move, p.outcome(), p.score())
    assert accepted == len(reached)
