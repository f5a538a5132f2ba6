"""Help past the solver's reach at the terminal: ``explain`` and ``hint`` fall back to the
engine's view of every move (the arena's overlay) on boards the solver cannot finish, labelled as
estimates and "proven" only where the engine proved it."""

from __future__ import annotations

import io
import json

import numpy as np
from cli_cases import invoke
from rich.console import Console

import noughts
from noughts.agents.engine import EngineAgent
from noughts.cli.session import PlaySession
from noughts.core import Player
from noughts.review.advice import Advice, advise

GOMOKU = noughts.game("mnk(15,15,5)")


def _after(*moves: str) -> noughts.Position:
    p = GOMOKU.start()
    for m in moves:
        p = p.play(GOMOKU.parse_move(m))
    return p


def test_explains_default_solver_budget_follows_the_width_of_the_position(monkeypatch) -> None:
    """Without --max-seconds the solver gets 60 s, or 5 s past 50 legal moves on a claim game
    (where the engine answers): the budget explain hands to advise, read from the call."""
    from noughts.review import advice as advice_module

    asked: list[float] = []

    def spy(game, position, *, solve_seconds, **options):
        asked.append(solve_seconds)
        raise noughts.core.NoughtsError("spied")

    monkeypatch.setattr(advice_module, "advise", spy)
    for spec, position, budget in (
        ("tictactoe", None, advice_module.SOLVE_SECONDS),
        (str(GOMOKU), _after("h8").text(), advice_module.WIDE_SOLVE_SECONDS),
    ):
        args = ["explain", spec] + (["--position", position] if position else [])
        assert invoke(*args).exit_code == 2
        assert asked.pop() == budget
    assert invoke("explain", str(GOMOKU), "--max-seconds", "7").exit_code == 2 and asked.pop() == 7.0
    assert advice_module.WIDE_SOLVE_SECONDS < advice_module.SOLVE_SECONDS


def test_explain_on_a_big_board_answers_with_the_engines_estimates() -> None:
    p = _after("h8", "h9", "i9")
    r = invoke(
        "explain",
        str(GOMOKU),
        "--position",
        p.text(),
        "--max-seconds",
        "0.3",
        "--engine-seconds",
        "0.3",
        "--json",
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["complete"] is False and "budget" in doc["stopped"]
    assert doc["estimate"] is True and "not a proof" in doc["describe"]
    legal = {GOMOKU.format_move(m) for m in p.legal_moves()}
    assert {m["move"] for m in doc["engine"]} == legal  # every legal move, once
    assert [m["rank"] for m in doc["engine"]] == list(range(1, len(legal) + 1))
    for m in doc["engine"]:  # a W/L label only on a proof; an estimate is a signed value
        assert (m["proven"] is not None) == (m["label"][0] in "WL"), m
    assert doc["best"] and set(doc["best"]) <= legal
    corners = {"a1", "o1", "a15", "o15"}
    assert not set(doc["best"]) & corners

    text = invoke(
        "explain", str(GOMOKU), "--position", p.text(), "--max-seconds", "0.3", "--engine-seconds", "0.3"
    )
    assert text.exit_code == 0, text.output
    assert "the solver stopped" in text.stdout and "engine's estimate" in text.stdout
    assert "best by the engine:" in text.stdout


def test_advice_calls_a_win_the_engine_proves_proven() -> None:
    # x has an open four on row 8 and is to move: the engine proves the win in one (the solver
    # finds it too, so the engine's view is built here as advise builds it when the solver stops)
    p = _after("d8", "d1", "e8", "e1", "f8", "f1", "g8", "a15")
    advice = Advice(GOMOKU, p, None, tuple(EngineAgent(tt=18).move_values(p, 0.3)), "stopped", 0.3)
    assert advice.estimate is False
    assert set(advice.best_moves()) == {"c8", "h8"}
    assert advice.describe() == "x wins (proven by the engine in 1 ply)"
    doc = advice.to_json()
    top = [m for m in doc["engine"] if m["move"] in ("c8", "h8")]
    assert all(m["proven"] == "win" and m["label"] == "W1" for m in top)
    # the solver answers the same position exactly when it finishes: no engine view then
    exact = advise(GOMOKU, p, solve_seconds=30)
    assert exact.exact is not None and exact.engine == ()
    assert set(exact.best_moves()) == {"c8", "h8"}


def test_explain_engine_clock_must_be_positive() -> None:
    r = invoke("explain", str(GOMOKU), "--engine-seconds", "0")
    assert r.exit_code == 2


def test_hint_in_play_answers_on_a_big_board() -> None:
    p = _after("h8", "h9", "i9")
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False, color_system=None)
    script = iter(["hint", "quit"])

    def read_line(prompt: object) -> str:
        return next(script)

    session = PlaySession(
        GOMOKU,
        p,
        {Player.FIRST: None, Player.SECOND: None},
        {Player.FIRST: "human", Player.SECOND: "human"},
        np.random.default_rng(0),
        console,
        read_line=read_line,
    )
    session.hint_seconds = 0.3  # the solver's share: it cannot finish a 15x15 board
    session.hint_engine_seconds = 0.3
    session.run()
    lines = [line for line in out.getvalue().splitlines() if line.startswith("hint")]
    assert len(lines) == 1, out.getvalue()
    line = lines[0]
    assert line.startswith("hint (the engine's, the solver stopped): ")
    assert "estimate" in line and "not a proof" in line
    named = line.split(": ", 1)[1].split(" (", 1)[0].split()
    legal = {GOMOKU.format_move(m) for m in p.legal_moves()}
    assert named and set(named) <= legal
    # the engine's own best, as it ranks them
    best = EngineAgent(tt=18).move_values(p, 0.3)[0]
    assert best.proven is None  # an opening: nothing proven either way


def test_play_hint_seconds_option_is_checked() -> None:
    r = invoke("play", "tictactoe", "--x", "human", "--o", "human", "--hint-seconds", "0", input="quit\n")
    assert r.exit_code == 2
