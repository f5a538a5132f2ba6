"""The perfect player: never loses where its side does not lose, draws against itself, breaks
ties as asked, and plays from a solved table the same moves as from the search."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from exact_cases import THREE_BY_THREE  # tests/exact, on pytest's pythonpath

import noughts
from noughts import NoughtsError, Outcome, Player, Position
from noughts.agents import Agent, RandomAgent, agent_names, make_agent
from noughts.agents.perfect import PerfectAgent
from noughts.exact import TableError, build_table
from noughts.solving import solve


def play(game: noughts.Game, first: Agent, second: Agent, seed: int) -> Position:
    rng = np.random.default_rng(seed)
    p = game.start()
    while not p.is_terminal():
        agent = first if p.to_move is Player.FIRST else second
        p = p.play(agent.choose(p, rng))
    return p


@pytest.mark.parametrize("spec", THREE_BY_THREE)
def test_never_does_worse_than_the_value_against_random(spec: str) -> None:
    """From either seat, the perfect player's result is never worse than the start's value for
    its side (in tic-tac-toe: it never loses), over many seeded games."""
    g = noughts.game(spec)
    start_value = solve(g).value.outcome
    perfect, rand = PerfectAgent(g), RandomAgent()
    wins = 0
    for seed in range(30):
        for seat in Player:
            first, second = (perfect, rand) if seat is Player.FIRST else (rand, perfect)
            outcome = play(g, first, second, seed).outcome()
            assert outcome is not None
            if start_value is Outcome.win_for(seat):
                assert outcome is Outcome.win_for(seat), (spec, seed, seat)
            elif start_value is Outcome.DRAW:
                assert outcome is not Outcome.win_for(seat.other), (spec, seed, seat)
            else:  # a lost seat: the perfect player still wins whenever random errs enough
                wins += outcome is Outcome.win_for(seat)
    if start_value is not Outcome.DRAW:
        assert wins > 0  # random players err


@pytest.mark.parametrize("tie", ["first", "random"])
def test_draws_against_itself(tie: str) -> None:
    g = noughts.game("tictactoe")
    agent = PerfectAgent(tie_break=tie)
    for seed in range(20):
        assert play(g, agent, agent, seed).outcome() is Outcome.DRAW


def test_takes_the_fastest_win_and_blocks() -> None:
    g = noughts.game("tictactoe")
    agent, rng = PerfectAgent(), np.random.default_rng(0)
    assert g.format_move(agent.choose(g.parse("xx./oo./..."), rng)) == "c1"  # win now
    assert g.format_move(agent.choose(g.parse("xx./o../..."), rng)) == "c1"  # o must block


def test_tie_breaks() -> None:
    g = noughts.game("tictactoe")
    first, rand = PerfectAgent(tie_break="first"), PerfectAgent(tie_break="random")
    start = g.start()
    best = first.best_moves(start)
    assert best == start.legal_moves()  # every first move draws
    assert first.choose(start, np.random.default_rng(1)) == best[0] == solve(g).pv[0]
    chosen = {rand.choose(start, np.random.default_rng(seed)) for seed in range(40)}
    assert len(chosen) > 3 and chosen <= set(best)
    # the same seed, the same choice
    assert rand.choose(start, np.random.default_rng(5)) == rand.choose(start, np.random.default_rng(5))


def test_plays_from_a_table(tmp_path: Path) -> None:
    g = noughts.game("veto(tictactoe)")
    path = tmp_path / "veto.npz"
    build_table(g).save(path)
    by_table, by_search = PerfectAgent(table=str(path)), PerfectAgent(g)
    for seed in range(10):
        rng = np.random.default_rng(seed)
        p = g.start()
        while not p.is_terminal():
            move = by_table.choose(p, rng)
            assert move == by_search.choose(p, rng)
            p = p.play(move)
    with pytest.raises(NoughtsError, match="table is one of"):
        by_table.choose(noughts.game("tictactoe").start(), np.random.default_rng(0))


def test_make_agent_names() -> None:
    assert "perfect" in agent_names()
    assert make_agent("perfect").name == "perfect"
    assert make_agent("perfect:tie=random").name == "perfect:tie=random"
    with pytest.raises(NoughtsError, match=r"unknown option.* depth for agent perfect: it takes tie, table"):
        make_agent("perfect:depth=3")
    with pytest.raises(NoughtsError, match=r"unknown option.* x for agent random: it takes seconds"):
        make_agent("random:x=1")
    with pytest.raises(NoughtsError, match="tie_break"):
        make_agent("perfect:tie=sometimes")
    with pytest.raises(TableError):
        make_agent("perfect:table=/no/such/file.npz")
    assert isinstance(make_agent("perfect"), Agent)


def test_finished_positions_have_no_move() -> None:
    with pytest.raises(NoughtsError, match="game is over"):
        PerfectAgent().choose(noughts.game("tictactoe").parse("xxx/oo./..."), np.random.default_rng(0))


def test_one_engine_per_game_kept() -> None:
    g = noughts.game("tictactoe")
    agent = PerfectAgent(g)
    engine = agent.engine(g)
    play(g, agent, agent, 0)
    assert agent.engine(g) is engine
    made = engine.portfolio.made.values()  # type: ignore[attr-defined]
    assert [e.name for e in made] == ["python"]  # 3x3: the policy's Python search, no compile step
