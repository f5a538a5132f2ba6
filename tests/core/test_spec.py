"""The spec grammar and the registry: round trips of generated specs, and clear errors on junk."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import noughts
from noughts import Board, Game, SpecError
from noughts.core import ENTRIES
from noughts.core.spec import Call, format_value, parse_spec

# -- generating valid specs -----------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """A spec as a person might write it, and the canonical string noughts should give back."""

    text: str
    canonical: str


_SPACES = st.sampled_from(["", "", "", " ", "  ", "\t", "\n", " \n\t"])


@st.composite
def _call(draw: st.DrawFn, name: str, positional: list[str], keyword: list[tuple[str, str]]) -> str:
    """``name(args)`` with random spacing, the keyword args in any order after the positional ones."""
    keyword = draw(st.permutations(keyword)) if keyword else []
    args = positional + [f"{draw(_SPACES)}{k}{draw(_SPACES)}={draw(_SPACES)}{v}" for k, v in keyword]
    if not args and draw(st.booleans()):
        return f"{draw(_SPACES)}{name}{draw(_SPACES)}"
    body = ",".join(f"{draw(_SPACES)}{a}{draw(_SPACES)}" for a in args)
    return f"{draw(_SPACES)}{name}{draw(_SPACES)}({body}){draw(_SPACES)}"


def _keyword_or_positional(
    draw: st.DrawFn, names: list[str], values: list[str]
) -> tuple[list[str], list[tuple[str, str]]]:
    cut = draw(st.integers(0, len(names)))
    return values[:cut], list(zip(names[cut:], values[cut:], strict=True))


def _has_line(cells: set[tuple[int, int]], k: int) -> bool:
    for (r, c), (dr, dc) in itertools.product(cells, [(0, 1), (1, 0), (1, 1), (1, -1)]):
        if all((r + i * dr, c + i * dc) in cells for i in range(k)):
            return True
    return False


@st.composite
def mnk_specs(draw: st.DrawFn) -> Spec:
    m, n = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    k = draw(st.integers(1, max(m, n)))
    pos, kw = _keyword_or_positional(draw, ["m", "n", "k"], [str(m), str(n), str(k)])
    return Spec(draw(_call("mnk", pos, kw)), f"mnk({m},{n},{k})")


@st.composite
def tictactoe_specs(draw: st.DrawFn) -> Spec:
    return Spec(draw(_call("tictactoe", [], [])), "mnk(3,3,3)")


@st.composite
def hypercube_specs(draw: st.DrawFn) -> Spec:
    n = draw(st.integers(1, 4))
    d = draw(st.integers(1, 3))
    k = draw(st.none() | st.integers(1, n))
    names, values = ["n", "d"], [str(n), str(d)]
    if k is not None:
        names.append("k")
        values.append(str(k))
    pos, kw = _keyword_or_positional(draw, names, values)
    canonical = f"hypercube({n},{d})" if k in (None, n) else f"hypercube({n},{d},k={k})"
    return Spec(draw(_call("hypercube", pos, kw)), canonical)


@st.composite
def shape_specs(draw: st.DrawFn) -> Spec:
    height, width = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    rows = [draw(st.lists(st.booleans(), min_size=width, max_size=width)) for _ in range(height)]
    # make the mask tight: a cell in the first and last row and column
    rows[0][draw(st.integers(0, width - 1))] = True
    rows[-1][draw(st.integers(0, width - 1))] = True
    rows[draw(st.integers(0, height - 1))][0] = True
    rows[draw(st.integers(0, height - 1))][-1] = True
    cells = {(r, c) for r in range(height) for c in range(width) if rows[r][c]}
    k = draw(st.integers(1, 3).filter(lambda k: _has_line(cells, k)))
    tight = "/".join("".join("#" if x else "." for x in row) for row in rows)
    # pad with empty border rows and columns, and spaces, which noughts trims
    top, bottom, left, right = (draw(st.integers(0, 1)) for _ in range(4))
    padded = ["." * (left + width + right)] * top
    padded += ["." * left + "".join("#" if x else "." for x in row) + "." * right for row in rows]
    padded += ["." * (left + width + right)] * bottom
    mask = "/".join(padded)
    if draw(st.booleans()):
        mask = " ".join(mask)
    quote = draw(st.sampled_from(['"', "'"]))
    pos, kw = _keyword_or_positional(draw, ["mask", "k"], [f"{quote}{mask}{quote}", str(k)])
    return Spec(draw(_call("shape", pos, kw)), f'shape("{tight}",{k})')


small_boards = st.one_of(mnk_specs(), tictactoe_specs(), hypercube_specs(), shape_specs())


@st.composite
def claim_specs(draw: st.DrawFn) -> Spec:
    board = draw(small_boards)
    rules = draw(st.sampled_from(["", "standard", "misere", "maker_breaker", "cumulative"]))
    if rules == "":
        return board
    if rules == "standard":
        pos, kw = _keyword_or_positional(draw, ["board"], [board.text])
        return Spec(draw(_call("standard", pos, kw)), board.canonical)
    if rules == "maker_breaker":
        flag = draw(st.sampled_from([None, "true", "false"]))
        names, values = ["board"], [board.text]
        if flag is not None:
            names.append("breaker_first")
            values.append(flag)
        pos, kw = _keyword_or_positional(draw, names, values)
        extra = ",breaker_first=true" if flag == "true" else ""
        return Spec(draw(_call(rules, pos, kw)), f"maker_breaker({board.canonical}{extra})")
    pos, kw = _keyword_or_positional(draw, ["board"], [board.text])
    return Spec(draw(_call(rules, pos, kw)), f"{rules}({board.canonical})")


@st.composite
def veto_specs(draw: st.DrawFn) -> Spec:
    inner = draw(claim_specs())
    pos, kw = _keyword_or_positional(draw, ["game"], [inner.text])
    return Spec(draw(_call("veto", pos, kw)), f"veto({inner.canonical})")


@st.composite
def notakto_specs(draw: st.DrawFn) -> Spec:
    board = draw(st.none() | small_boards)
    boards = draw(st.none() | st.integers(1, 4))
    names, values = [], []
    if board is not None:
        names.append("board")
        values.append(board.text)
    if boards is not None:
        names.append("boards")
        values.append(str(boards))
    pos, kw = _keyword_or_positional(draw, names, values)
    if board is None:  # boards alone must be a keyword: positionally it would be the board
        pos, kw = [], list(zip(names, values, strict=True))
    args = []
    if board is not None and board.canonical != "mnk(3,3,3)":
        args.append(board.canonical)
    if boards not in (None, 1):
        args.append(f"boards={boards}")
    canonical = f"notakto({','.join(args)})" if args else "notakto"
    return Spec(draw(_call("notakto", pos, kw)), canonical)


@st.composite
def otrio_specs(draw: st.DrawFn) -> Spec:
    return Spec(draw(_call("otrio", [], [])), "otrio")


game_specs = st.one_of(claim_specs(), veto_specs(), notakto_specs(), otrio_specs())


# -- round trips ----------------------------------------------------------------------------------


@given(spec=game_specs)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_specs_round_trip(spec: Spec) -> None:
    g = noughts.game(spec.text)
    assert isinstance(g, Game)
    assert str(g) == spec.canonical
    again = noughts.game(str(g))
    assert again == g and hash(again) == hash(g)
    assert str(again) == str(g), "the canonical spec is not a fixed point"


@given(spec=small_boards)
@settings(max_examples=200, deadline=None)
def test_generated_board_specs_round_trip(spec: Spec) -> None:
    b = noughts.board(spec.text)
    assert isinstance(b, Board)
    assert b.spec == str(b) == spec.canonical
    assert noughts.board(b.spec) == b
    assert noughts.board(f"misere({spec.text})") == b
    assert noughts.game(spec.text).board == b


def test_canonical_forms() -> None:
    cases = {
        "tictactoe": "mnk(3,3,3)",
        " tictactoe ( ) ": "mnk(3,3,3)",
        "standard(tictactoe)": "mnk(3,3,3)",
        "standard(board=mnk(k=3, n=3, m=3))": "mnk(3,3,3)",
        "mnk(03,3,3)": "mnk(3,3,3)",
        "hypercube(3,3,k=3)": "hypercube(3,3)",
        "hypercube(n=4,d=2,k=3)": "hypercube(4,2,k=3)",
        "shape('..../.##./....', 2)": 'shape("##",2)',
        "maker_breaker(tictactoe, false)": "maker_breaker(mnk(3,3,3))",
        "maker_breaker(tictactoe, true)": "maker_breaker(mnk(3,3,3),breaker_first=true)",
        "veto(game=misere(tictactoe))": "veto(misere(mnk(3,3,3)))",
        "veto(standard(tictactoe))": "veto(mnk(3,3,3))",
        "notakto()": "notakto",
        "notakto(tictactoe, 1)": "notakto",
        "notakto(boards=2)": "notakto(boards=2)",
        "notakto(mnk(4,4,4),2)": "notakto(mnk(4,4,4),boards=2)",
        "notakto(hypercube(3,2))": "notakto(hypercube(3,2))",
        "otrio()": "otrio",
    }
    for text, canonical in cases.items():
        assert str(noughts.game(text)) == canonical, text


def test_game_accepts_games_and_boards() -> None:
    g = noughts.game("misere(tictactoe)")
    assert noughts.game(g) is g
    assert noughts.game(noughts.mnk(3, 3, 3)) == noughts.game("tictactoe")
    assert noughts.board("misere(mnk(4,4,4))") == noughts.mnk(4, 4, 4)
    assert noughts.board("otrio") == noughts.hypercube(3, 3)
    assert noughts.board("notakto(boards=2)") == noughts.mnk(3, 3, 3)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_required_parameters_are_required(name: str) -> None:
    """Leaving out a required argument names it; the optional ones may all be left out."""
    params = ENTRIES[name].params
    required = [p for p in params if p.required]
    if name == "hypergraph":  # the lines, or file= with them: one of the two is needed
        with pytest.raises(SpecError, match="hypergraph: no lines"):
            noughts.board(name)
        return
    if not required:
        assert isinstance(noughts.game(name), Game) if ENTRIES[name].makes == "game" else noughts.board(name)
        return
    with pytest.raises(SpecError, match=f"{name} needs its argument {required[0].name!r}"):
        noughts.game(f"{name}()")


def test_parse_spec_tree() -> None:
    text = ' a ( 1 , -2 , 3.5 , "x\\"y" , b(c) , k = d ) '
    call = parse_spec(text)
    assert call.name == "a" and call.column == 1
    assert call.args[:4] == (1, -2, 3.5, 'x"y')
    assert call.args[4] == Call("b", (Call("c", column=text.index("c)")),), (), text.index("b("))
    assert call.kwargs == (("k", Call("d", column=text.index("d "))),)
    assert format_value(True) == "true"
    assert format_value('a"b\\') == '"a\\"b\\\\"'
    assert format_value(3) == "3"


# -- errors ---------------------------------------------------------------------------------------


def _game_or_spec_error(text: object) -> None:
    """A spec gives a game, or a SpecError with a message; never another exception."""
    try:
        g = noughts.game(text)  # type: ignore[arg-type]
    except SpecError as e:
        assert str(e).strip()
        assert e.message.strip()
        if e.column is not None:
            assert e.text == text
            assert 0 <= e.column <= len(text)  # type: ignore[arg-type]
        return
    assert isinstance(g, Game)


_PUNCTUATION = ["(", ")", ",", "=", " ", '"', "'"]
_VALUES = ["3", "0", "-1", "2.5", '"##"', "'#.'", "k", "true", "x", "boards"]
_TOKENS = st.sampled_from([*ENTRIES, *_PUNCTUATION, *_VALUES])
_SPEC_ALPHABET = "abcdeikmnoprstuvxy_(),= \"'#./-01234"


@given(text=st.text(max_size=60))
@settings(max_examples=300, deadline=None)
def test_random_text_is_a_game_or_a_spec_error(text: str) -> None:
    _game_or_spec_error(text)


@given(text=st.lists(_TOKENS, max_size=12).map("".join))
@settings(max_examples=400, deadline=None)
def test_token_soup_is_a_game_or_a_spec_error(text: str) -> None:
    _game_or_spec_error(text)


@given(spec=game_specs, data=st.data())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_truncated_and_mutated_specs_are_a_game_or_a_spec_error(spec: Spec, data: st.DataObject) -> None:
    text = spec.canonical
    cut = data.draw(st.integers(0, len(text)))
    _game_or_spec_error(text[:cut])
    i = data.draw(st.integers(0, len(text)))
    ch = data.draw(st.sampled_from(_SPEC_ALPHABET))
    _game_or_spec_error(text[:i] + ch + text[i:])  # insert
    _game_or_spec_error(text[:i] + ch + text[i + 1 :])  # replace
    _game_or_spec_error(text[:i] + text[i + 1 :])  # delete


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "mnk",
        "mnk()",
        "mnk(3,3)",
        "mnk(3,3,3,3)",
        "tictactoe(3)",
        "otrio(1)",
        "veto()",
        "veto(tictactoe, tictactoe)",
        "notakto(tictactoe, 2, 3)",
        "foo",
        "Tictactoe",
        "mnk(x=3,n=3,k=3)",
        "mnk(3,3,k=3,n=3)",
        "mnk(m=3,3,3)",
        "mnk(m=3,m=3,k=3)",
        "mnk(3,3,3.0)",
        "mnk(3,3,'3')",
        "mnk(3,3,true)",
        "mnk(3,3,tictactoe)",
        "maker_breaker(tictactoe,breaker_first=1)",
        "maker_breaker(tictactoe,breaker_first='true')",
        "maker_breaker(tictactoe,yes)",
        "misere(3)",
        "misere('mnk(3,3,3)')",
        "misere(misere(tictactoe))",
        "misere(otrio)",
        "misere(notakto)",
        "veto(veto(tictactoe))",
        "veto(notakto)",
        "veto(otrio)",
        "veto(3)",
        "notakto(misere(tictactoe))",
        "notakto(boards=0)",
        "notakto(boards=17)",
        "notakto(boards=2.0)",
        "shape(3,3)",
        "shape('###')",
        "shape('',1)",
        "shape('...',1)",
        "shape('#.#',2)",
        "shape('#x#',1)",
        "shape('##/#',1)",
        "shape('###',4)",
        "mnk(3,3,4)",
        "mnk(0,3,3)",
        "mnk(-3,3,3)",
        "mnk(3,3,0)",
        "mnk(3,3,-1)",
        "hypercube(0,3)",
        "hypercube(3,0)",
        "hypercube(3,-2)",
        "hypercube(3,3,k=4)",
        "hypercube(3,3,k=0)",
        "hypercube(9,9)",
        "hypercube(2,13)",
        "hypercube(3,100)",
        "hypercube(1000000000,1000000000)",
        "mnk(100,100,3)",
        "mnk(99999999999999999999,2,2)",
        "mnk(3,3,3",
        "mnk(3,3,3))",
        "mnk(3,,3)",
        "mnk(,3,3)",
        "mnk(3,3,3,)",
        "mnk 3 3 3",
        "mnk(3 3 3)",
        "mnk(3;3;3)",
        "mnk[3,3,3]",
        "mnk(3,3,3)x",
        "(3,3,3)",
        "=",
        "mnk(=3)",
        "mnk(m=)",
        "shape('###",
        'shape("###',
        "3",
        "-",
        "x" * 2001,
        "mnk(3,3,3)\x00",
        "mnk(３,3,3)",  # fullwidth digits: numbers are ASCII
        "mnk(٣,3,3)",
    ],
)
def test_junk_specs_raise_spec_error(text: str) -> None:
    with pytest.raises(SpecError) as info:
        noughts.game(text)
    assert str(info.value).strip() and info.value.message.strip()
    with pytest.raises(SpecError):
        noughts.board(text)


@pytest.mark.parametrize("value", [None, 3, 3.0, b"tictactoe", ["tictactoe"]])
def test_a_spec_must_be_text(value: object) -> None:
    with pytest.raises(SpecError, match="a game spec is a string"):
        noughts.game(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("mnk(3,3,3", 9, "expected ')', found the end"),
        ("mnk(3,3,3   ", 9, "expected ')', found the end"),
        ("mnk(3,,3)", 6, "unexpected ','"),
        ("mnk(3;3,3)", 5, "unexpected ';'"),
        ("mnk(3,3,3)x", 10, "unexpected 'x' after the end"),
        ("  mnk(3,3,3) )", 13, "unexpected ')' after the end"),
        ('shape("##,3)', 6, "an unclosed string"),
        ("mnk(m=3,m=3,k=3)", 8, "argument 'm' is given twice"),
        ("foo(3)", 0, "unknown game or board 'foo'"),
        ("misere( foo )", 8, "unknown game or board 'foo'"),
        ("misere(mnk(3,3,9))", 7, "k = 9 is larger than the board (3 x 3)"),
        ("veto(misere(hypercube(3,3,k=5)))", 12, "k = 5 is larger than the side of the board (3)"),
        (
            "veto(notakto)",
            5,
            "veto: game must be a board or a standard, misere, maker_breaker or cumulative game",
        ),
        ("veto(otrio)", 5, "not otrio"),
        ("misere(misere(tictactoe))", 7, "misere: board must be a board such as mnk(3,3,3), not the game"),
        ("maker_breaker(tictactoe,breaker_first=yes)", 38, "must be true or false, not 'yes'"),
        ("mnk(3,3,3,3)", 0, "mnk takes at most 3 arguments (m, n, k), got 4"),
        ("misere(tictactoe(1))", 7, "tictactoe takes at most 0 arguments (none), got 1"),
        ("misere(mnk(3,3))", 7, "mnk needs its argument 'k'"),
        ("mnk(3,3,q=3)", 0, "mnk has no argument 'q'; its arguments are k, m, n"),
        ("mnk(m=3,3,3)", 8, "a positional argument cannot follow a key=value argument"),
        ("notakto(boards=17)", 0, "notakto: boards must be at most 16, not 17"),
        ("mnk(0,3,3)", 0, "mnk: m must be at least 1, not 0"),
        ('cumulative(shape("",3))', 11, "has no cells"),
    ],
)
def test_errors_point_at_the_right_column(text: str, column: int, words: str) -> None:
    with pytest.raises(SpecError) as info:
        noughts.game(text)
    e = info.value
    assert words in e.message
    assert (e.text, e.column) == (text, column)
    # the message shows the spec and a caret under the column
    assert str(e).splitlines()[-2:] == [f"  {text}", "  " + " " * column + "^"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "the game spec is empty"),
        ("x" * 2001, "2001 characters long; at most 2000"),
        ("hypercube(9,9)", "at most 4096"),
        ("mnk(100,100,3)", "10000 cells"),
        ("hypercube(2,12)", "too large"),
        ("shape('#.#',2)", "no line of 2 cells fits on this board"),
        ("shape('#x#',1)", "unexpected 'x'"),
    ],
)
def test_error_messages(text: str, words: str) -> None:
    with pytest.raises(SpecError, match=None) as info:
        noughts.game(text)
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("a(" * 500 + "b" + ")" * 500, 64),
        ("a(" * 999 + "b", 64),
        ("a(" * 32 + "b", 64),
        ("veto(" * 40 + "tictactoe" + ")" * 40, 160),
    ],
)
def test_deep_nesting_is_a_spec_error(text: str, column: int) -> None:
    """A recursive-descent parser must not run out of stack on junk under the length limit; the
    error points at the 33rd level."""
    with pytest.raises(SpecError) as info:
        noughts.game(text)
    assert info.value.message == "the game spec nests more than 32 levels deep"
    assert info.value.column == column


def test_32_levels_parse() -> None:
    with pytest.raises(SpecError, match="unknown game or board 'a'") as info:
        noughts.game("a(" * 31 + "b" + ")" * 31)
    assert info.value.column == 0
