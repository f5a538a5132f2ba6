import numpy as np
import pytest

import noughts
from noughts.agents.td import TDAgent
from noughts.core import NoughtsError
from noughts.exact.states import state_space
from noughts.learn.evaluation import initial_values


def _agent(spec="cumulative(tictactoe)", init="tcd"):
    game = noughts.game(spec)
    space = state_space(game)
    v1, v2 = initial_values(space, init)
    return game, TDAgent(game, space, v1, v2)


def test_greedy_on_the_movers_table():
    game, agent = _agent()
    # with TCD values the centre opening (8 - 4 open lines) is the unique best first move
    assert agent.choose(game.start(), np.random.default_rng(0)) == 4
    # second player: o's table is -V1, so o prefers the reply that leaves x fewest open lines
    p = game.start().play(4)
    values = dict(agent.move_values(p))
    best = max(values.values())
    assert agent.choose(p, np.random.default_rng(1)) in [m for m, v in values.items() if v == best]
    assert agent.evaluate(game.start()) == 0


def test_random_tie_breaking_uses_every_tied_move():
    game, agent = _agent(init="zero")
    seen = {agent.choose(game.start(), np.random.default_rng(s)) for s in range(60)}
    assert seen == set(range(9))


def test_refuses_other_games_and_finished_positions():
    game, agent = _agent()
    with pytest.raises(NoughtsError, match="trained on"):
        agent.choose(noughts.game("tictactoe").start(), np.random.default_rng(0))
    done = game.parse("xox/xox/oxo")
    with pytest.raises(NoughtsError, match="over"):
        agent.choose(done, np.random.default_rng(0))
