"""``solve`` (and the engine it picks) held to the reference: values, every move's value, the order
of the moves and the principal variation."""

from __future__ import annotations

import random
import sys

import pytest
from exact_cases import SMALL_GAMES, game, reference

import noughts
from noughts import LimitExceeded, NoughtsError, Outcome
from noughts.core import Move, Position
from noughts.exact import Searcher, SolveResult, Value, build_table, make_engine
from noughts.exact.api import prove
from noughts.exact.reference import after_move, move_key
from noughts.solving import solve


def _reference_answer(
    values: dict[Position, Value], p: Position
) -> tuple[list[tuple[Move, Value]], list[Move]]:
    """Every move's value, best first (stable), and the principal variation, from the reference."""
    mover = p.to_move
    rated = [(m, values[p.play(m)]) for m in p.legal_moves()]
    rated.sort(key=lambda mv: move_key(after_move(mv[1]), mover), reverse=True)
    pv: list[Move] = []
    q, v = p, values[p]
    while not q.is_terminal():
        target = Value(v.outcome, v.plies - 1, v.score)
        move = next(m for m in q.legal_moves() if values[q.play(m)] == target)
        pv.append(move)
        q, v = q.play(move), target
    return rated, pv


def _check(result: SolveResult, values: dict[Position, Value]) -> None:
    p = result.position
    rated, pv = _reference_answer(values, p)
    assert result.value == values[p]
    assert [(mv.move, mv.value) for mv in result.moves] == rated
    assert list(result.pv) == pv
    assert len(result.pv) == result.value.plies


@pytest.mark.parametrize("spec", SMALL_GAMES)
def test_solve_matches_the_reference(spec: str) -> None:
    values = reference(spec)
    g = game(spec)
    positions = [g.start()] + random.Random(spec).sample(sorted(values, key=lambda q: q.text()), 25)
    for p in positions:
        _check(solve(g, p), values)


@pytest.mark.parametrize("spec", [s for s in SMALL_GAMES if "veto" not in s and "notakto" not in s])
def test_the_engine_solve_uses_on_every_position(spec: str) -> None:
    """The engine ``solve`` picks (the numba kernel for these claim games, once it is there)
    answers every reachable position as the reference does."""
    values = reference(spec)
    engine = make_engine(game(spec))
    wrong = [p.text() for p, v in values.items() if engine.value(p) != v]
    assert not wrong, f"{type(engine).__name__}: {len(wrong)} positions differ, e.g. {wrong[:3]}"


def test_inputs_are_specs_texts_or_objects() -> None:
    a = solve("tictactoe", "x../.o./...")
    b = solve(noughts.game("tictactoe"), noughts.game("tictactoe").parse("x../.o./..."))
    assert a.value == b.value == Value(Outcome.DRAW, 7)
    assert a.moves == b.moves and a.pv == b.pv
    assert str(a.game) == "mnk(3,3,3)" and a.position.text() == "x../.o./..."
    assert a.seconds >= 0 and a.nodes >= 0


def test_bad_inputs_are_clear_errors() -> None:
    with pytest.raises(NoughtsError):
        solve("no_such_game")
    with pytest.raises(NoughtsError):
        solve("tictactoe", "xxxx")
    with pytest.raises(NoughtsError, match="not of"):
        solve("tictactoe", noughts.game("misere(tictactoe)").start())
    with pytest.raises(NoughtsError, match="a game is"):
        solve(42)  # type: ignore[arg-type]


def test_prove_reads_its_inputs_as_solve_does() -> None:
    assert prove("tictactoe", "x../.o./...").proved is False
    assert prove(noughts.game("mnk(4,3,3)")).proved is True
    with pytest.raises(NoughtsError, match="not of"):
        prove("tictactoe", noughts.game("misere(tictactoe)").start())
    with pytest.raises(NoughtsError, match="a game is"):
        prove(42)  # type: ignore[arg-type]


def test_finished_position() -> None:
    r = solve("tictactoe", "xxx/oo./...")
    assert r.value == Value(Outcome.FIRST, 0) and r.moves == () and r.pv == ()


def test_budget_stops_cleanly() -> None:
    with pytest.raises(LimitExceeded, match=r"the position's value is not proved yet"):
        solve("veto(mnk(4,4,4))", max_seconds=0.05)
    with pytest.raises(LimitExceeded, match="memory"):
        solve("veto(mnk(4,4,4))", max_memory=10_000)


def test_answers_from_a_table_match_the_search() -> None:
    g = game("veto(tictactoe)")
    table = build_table(g)
    for text in ["", "x../.o./...", "x../.o./... !c3", "xo./.x./..."]:
        p = g.parse(text) if text else g.start()
        by_table, by_search = solve(g, p, table=table), solve(g, p)
        assert (by_table.value, by_table.moves, by_table.pv) == (
            by_search.value,
            by_search.moves,
            by_search.pv,
        )
        assert by_table.nodes == 0
    with pytest.raises(NoughtsError, match="table is one of"):
        solve("tictactoe", table=table)


def test_the_searcher_stands_in_when_the_kernel_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import noughts.exact

    monkeypatch.delattr(noughts.exact, "fast", raising=False)
    monkeypatch.setitem(sys.modules, "noughts.exact.fast", None)  # import fails
    assert isinstance(make_engine(game("tictactoe")), Searcher)
    _check(solve("tictactoe", "x../.o./..."), reference("tictactoe"))


def test_progress_is_reported_not_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    """The library tells a callback ``(done, total, description)``: the positions valued (the
    position, then each move) of all, the step and the nodes; it draws nothing itself."""
    steps: list[tuple[int, int, str]] = []
    result = solve("veto(tictactoe)", progress=lambda *step: steps.append(step))
    assert result.value.outcome is Outcome.DRAW
    total = 1 + len(result.moves)
    assert {t for _, t, _ in steps} == {total}
    done = [d for d, _, _ in steps]
    assert done == sorted(done) and done[-1] == total
    assert all(text.startswith("solving veto(mnk(3,3,3)): ") for _, _, text in steps)
    assert any("the moves" in text for _, _, text in steps)
    assert capsys.readouterr().err == ""
    with pytest.raises(TypeError, match="callback"):
        solve("tictactoe", progress=True)  # type: ignore[arg-type]


def test_the_command_line_draws_a_long_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    import rich.console

    from noughts.cli import progress as bars

    screen = io.StringIO()
    real = rich.console.Console
    monkeypatch.setattr(
        rich.console, "Console", lambda **kw: real(file=screen, force_terminal=True, width=100)
    )
    with bars.delayed_bar(True, "solving tictactoe") as show:
        solve("tictactoe", progress=show)  # quick: no bar
    assert screen.getvalue() == ""
    monkeypatch.setattr(bars, "DELAY", 0.0)  # as if the work had taken a second already
    with bars.delayed_bar(True, "solving veto") as show:
        result = solve("veto(tictactoe)", progress=show)
    assert result.value.outcome is Outcome.DRAW
    assert "solving veto(mnk(3,3,3))" in screen.getvalue()
