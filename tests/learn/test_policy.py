"""Exact play of tabular policies, held to a plain recursion over the position API."""

from fractions import Fraction

import numpy as np
import pytest

import noughts
from noughts.agents.linear import LinearAgent
from noughts.agents.perfect import PerfectAgent
from noughts.core import NoughtsError, Outcome
from noughts.learn.policy import (
    all_moves,
    best_against_random,
    outcome_probabilities,
    outcome_reference,
    perfect_moves,
    successor_value_moves,
    versus,
)
from noughts.learn.states import state_space


def _as_array(dist):
    return np.array([float(dist.get(o, Fraction(0))) for o in (Outcome.FIRST, Outcome.DRAW, Outcome.SECOND)])


def test_random_against_random_is_exact():
    game = noughts.game("tictactoe")
    space = state_space(game)
    r = all_moves(space)
    probs = outcome_probabilities(space, r, r)[space.start]
    ref = outcome_reference(game.start(), lambda p: p.legal_moves(), lambda p: p.legal_moves())
    # the known distribution of uniformly random tic-tac-toe: 737/1260, 8/63, 121/420
    assert ref == {
        Outcome.FIRST: Fraction(737, 1260),
        Outcome.DRAW: Fraction(8, 63),
        Outcome.SECOND: Fraction(121, 420),
    }
    assert np.allclose(probs, _as_array(ref), atol=1e-12)


@pytest.mark.parametrize("spec", ["tictactoe", "cumulative(tictactoe)"])
def test_perfect_against_random_matches_the_reference(spec):
    game = noughts.game(spec)
    space = state_space(game)
    perfect = perfect_moves(space)
    r = all_moves(space)
    agent = PerfectAgent(game, tie_break="random")
    ref_first = outcome_reference(game.start(), agent.best_moves, lambda p: p.legal_moves())
    ref_second = outcome_reference(game.start(), lambda p: p.legal_moves(), agent.best_moves)
    doc = versus(space, perfect, r)
    assert doc["as_first"]["win"] == pytest.approx(float(ref_first.get(Outcome.FIRST, 0)), abs=1e-12)
    assert doc["as_first"]["loss"] == 0 and doc["as_second"]["loss"] == 0
    assert doc["as_second"]["win"] == pytest.approx(float(ref_second.get(Outcome.SECOND, 0)), abs=1e-12)
    # perfect play against itself draws every game (both games are draws)
    assert outcome_probabilities(space, perfect, perfect)[space.start] == pytest.approx([0, 1, 0])


def _best_reference(position, side, memo=None):
    """Expectimax over the position API: the greatest chance ``side`` wins against random."""
    memo = {} if memo is None else memo
    if position in memo:
        return memo[position]
    outcome = position.outcome()
    if outcome is not None:
        value = Fraction(1 if outcome.winner == side else 0)
    else:
        values = [_best_reference(position.play(m), side, memo) for m in position.legal_moves()]
        value = max(values) if position.to_move == side else sum(values, Fraction(0)) / len(values)
    memo[position] = value
    return value


def test_the_ceiling_against_random_and_the_alternated_bound():
    game = noughts.game("tictactoe")
    space = state_space(game)
    first, second = best_against_random(space)
    assert first == pytest.approx(float(_best_reference(game.start(), 0)), abs=1e-12)
    assert second == pytest.approx(float(_best_reference(game.start(), 1)), abs=1e-12)
    # no policy that alternates sides against a random player wins more than 96.7% of games:
    # 003 §9.2's 98.2% "win vs random" on 3x3 can only be a first-player figure
    assert round((first + second) / 2, 3) == 0.967
    assert first > 0.982 > (first + second) / 2


def test_successor_value_moves_are_the_linear_agents_ties():
    game = noughts.game("tictactoe")
    space = state_space(game)
    weights = np.array([0.0, 1.0, -1.0, 3.0, -3.0, 100.0, -100.0])
    agent = LinearAgent(game, weights)
    values = np.array([agent.evaluate(space.position(i)) for i in range(space.size)])
    sets = successor_value_moves(space, values)
    for i in range(0, space.size, 7):
        p = space.position(i)
        if p.is_terminal():
            assert sets[i] == 0
            continue
        rated = [(m, agent.evaluate(p.play(m))) for m in p.legal_moves()]
        best = max(v for _, v in rated) if p.to_move == 0 else min(v for _, v in rated)
        assert int(sets[i]) == sum(1 << game.action(m) for m, v in rated if v == best)


def test_a_policy_without_a_move_is_refused():
    space = state_space(noughts.game("tictactoe"))
    r = all_moves(space)
    with pytest.raises(NoughtsError, match="no move"):
        outcome_probabilities(space, np.zeros_like(r), r)


def test_expected_length_and_any_agent_as_a_policy():
    from noughts.agents.qlearning import QAgent

    game = noughts.game("tictactoe")
    space = state_space(game)
    r = all_moves(space)
    # random tic-tac-toe lasts 7.7 moves on average; the reference: the recursion over positions
    memo = {}

    def mean_length(p):
        if p in memo:
            return memo[p]
        if p.is_terminal():
            return Fraction(0)
        moves = p.legal_moves()
        memo[p] = 1 + sum((mean_length(p.play(m)) for m in moves), Fraction(0)) / len(moves)
        return memo[p]

    from noughts.learn.policy import agent_moves, expected_length

    assert expected_length(space, r, r) == pytest.approx(float(mean_length(game.start())), abs=1e-12)
    searcher = QAgent(game, None, depth=9)
    sets = agent_moves(space, searcher.candidates)
    perfect = perfect_moves(space, strict=False)
    live = space.nonterminal()
    assert np.all((sets[live] & ~perfect[live]) == 0)  # a search to the end keeps every value
