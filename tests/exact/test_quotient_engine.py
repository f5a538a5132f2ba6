"""Notakto on many boards from the misère quotient: held to the search wherever it finishes."""

from __future__ import annotations

import numpy as np
import pytest

import noughts
from noughts.agents import RandomAgent
from noughts.agents.perfect import PerfectAgent
from noughts.arena.grade import grade
from noughts.core import NoughtsError, Outcome, Position
from noughts.exact import Searcher, make_engine
from noughts.exact.api import principal_variation
from noughts.exact.quotient import SEARCH_BOARDS, QuotientEngine
from noughts.solving import solve


def _positions(spec: str, count: int, seed: int) -> list[Position]:
    """Positions met in random games, from the start to the end."""
    game = noughts.game(spec)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        p = game.start()
        while not p.is_terminal() and len(out) < count:
            out.append(p)
            p = p.play(RandomAgent().choose(p, rng))
    return out


@pytest.mark.parametrize(
    "spec", ["notakto(boards=2)", "notakto(boards=2,misere=false)", "notakto(mnk(2,3,2),boards=3)"]
)
def test_the_quotient_agrees_with_the_search_on_positions_it_solves(spec: str) -> None:
    game = noughts.game(spec)
    engine, search = QuotientEngine(game), Searcher(game)
    for p in _positions(spec, 300, seed=len(spec)):
        assert engine.value(p).outcome == search.value(p).outcome, p.text()
        winning = [m for m in p.legal_moves() if search.value(p.play(m)).outcome.winner is p.to_move]
        assert engine.winning_moves(p) == winning, p.text()


@pytest.mark.parametrize("boards", [1, 2, 3])
def test_n_empty_boards_match_the_search(boards: int) -> None:
    game = noughts.game(f"notakto(boards={boards})")
    assert QuotientEngine(game).value(game.start()).outcome == Searcher(game).value(game.start()).outcome


@pytest.mark.slow
def test_four_empty_boards_match_the_search() -> None:
    game = noughts.game("notakto(boards=4)")
    assert QuotientEngine(game).value(game.start()).outcome == Searcher(game).value(game.start()).outcome


def test_solve_picks_the_quotient_above_the_search_boards() -> None:
    assert make_engine(noughts.game(f"notakto(boards={SEARCH_BOARDS})")).engine == "python"
    assert make_engine(noughts.game(f"notakto(boards={SEARCH_BOARDS + 1})")).engine == "quotient"
    r = solve("notakto(boards=16)")
    assert r.engine == "quotient"
    assert r.value.outcome is Outcome.SECOND and r.value.plies is None
    assert len(r.moves) == 16 * 9 and all(mv.value.plies is None for mv in r.moves)
    doc = r.to_json()
    assert doc["plies"] is None and doc["engine"] == "quotient" and doc["moves"][0]["plies"] is None
    assert r.value.describe(r.game) == "second player wins"
    # the line: the winner keeps the win to the end
    p = r.position
    for move in r.pv:
        p = p.play(move)
    assert p.is_terminal() and p.outcome() is Outcome.SECOND


def test_the_winning_moves_of_fifteen_boards() -> None:
    r = solve("notakto(boards=15)")
    assert r.value.outcome is Outcome.FIRST
    winners = {r.game.format_move(mv.move) for mv in r.moves if mv.value.outcome is Outcome.FIRST}
    engine = QuotientEngine(r.game)
    assert winners == {r.game.format_move(m) for m in engine.winning_moves(r.game.start())}
    # every move of the winning side keeps a first-player win, every other move loses it
    for mv in r.moves:
        child = r.game.start().play(mv.move)
        assert (engine.value(child).outcome is Outcome.FIRST) == (r.game.format_move(mv.move) in winners)


def test_the_principal_variation_of_unknown_distance_keeps_the_outcome() -> None:
    game = noughts.game("notakto(boards=5)")
    engine = QuotientEngine(game)
    p = game.start()
    line = principal_variation(engine, p)
    for move in line:
        assert engine.value(p).outcome is Outcome.FIRST
        p = p.play(move)
    assert p.outcome() is Outcome.FIRST


def test_the_perfect_player_wins_sixteen_boards_as_second() -> None:
    game = noughts.game("notakto(boards=16)")
    perfect, rng = PerfectAgent(game), np.random.default_rng(5)
    p = game.start()
    while not p.is_terminal():
        agent = RandomAgent() if p.to_move.name == "FIRST" else perfect
        p = p.play(agent.choose(p, rng))
    assert p.outcome() is Outcome.SECOND


def test_strict_grading_needs_distances() -> None:
    with pytest.raises(NoughtsError, match="distance"):
        grade("random", "notakto(boards=3)", strict=True, sample=5, games=0, seed=0)


def test_the_engine_refuses_other_games() -> None:
    with pytest.raises(NoughtsError):
        QuotientEngine(noughts.game("tictactoe"))
    engine = QuotientEngine(noughts.game("notakto(boards=3)"))
    with pytest.raises(NoughtsError):
        engine.value(noughts.game("notakto(boards=4)").start())
