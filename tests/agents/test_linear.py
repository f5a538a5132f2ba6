"""The LMS linear agent: choices, evaluation, saving and validation."""

import json

import numpy as np
import pytest

import noughts
from noughts.agents.linear import LinearAgent, from_saved
from noughts.core import NoughtsError
from noughts.learn.linear import train_lms

TTT = noughts.game("tictactoe")


def test_first_player_maximises_and_second_minimises():
    agent = LinearAgent(TTT, [0, 0, 0, 0, 0, 100, -100], tie_break="first")
    rng = np.random.default_rng(0)
    assert TTT.format_move(agent.choose(TTT.parse("xx./oo./..."), rng)) == "c1"
    assert TTT.format_move(agent.choose(TTT.parse("xx./oo./x.."), rng)) == "c2"
    assert agent.evaluate(TTT.parse("xxx/oo./...")) == 100


def test_ties_random_or_first():
    flat = LinearAgent(TTT, [1, 0, 0, 0, 0, 0, 0])  # every board worth the same
    seen = {flat.choose(TTT.start(), np.random.default_rng(s)) for s in range(40)}
    assert len(seen) > 3
    first = LinearAgent(TTT, [1, 0, 0, 0, 0, 0, 0], tie_break="first")
    assert {first.choose(TTT.start(), np.random.default_rng(s)) for s in range(10)} == {0}


def roundtrip(agent):
    meta, arrays = agent.to_saved()
    meta = json.loads(json.dumps(meta))  # plain JSON, no pickles
    return from_saved(meta, {k: np.array(v) for k, v in arrays.items()})


def test_saved_agent_round_trips():
    run = train_lms(noughts.game("mnk(4,4,4)"), 30, eta=0.001, seed=3)
    agent = run.agent()
    back = roundtrip(agent)
    assert back.weights.tolist() == agent.weights.tolist()
    assert back.game == agent.game and back.training["games"] == 30
    g = agent.game
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    p = g.start()
    while not p.is_terminal():
        m = agent.choose(p, rng_a)
        assert back.choose(p, rng_b) == m
        p = p.play(m)


def test_the_feature_set_is_saved_with_the_agent():
    run = train_lms(noughts.game("tictactoe"), 200, eta=0.01, features="rowcol", seed=3)
    agent = run.agent()
    assert agent.feature_set == "rowcol" and agent.training["features"] == "rowcol"
    back = roundtrip(agent)
    assert back.feature_set == "rowcol"
    p = noughts.game("tictactoe").parse("o../xxx/xoo")
    assert back.features(p).tolist() == [1, 0, 1, 0, 0, 1, 0]


@pytest.mark.parametrize(
    ("meta", "arrays", "message"),
    [
        ({"game": 3}, {"weights": np.zeros(7)}, "spec string"),
        ({"game": "tictactoe"}, {}, "'weights' array"),
        ({"game": "tictactoe"}, {"weights": np.zeros(6)}, "7 weights"),
        ({"game": "tictactoe"}, {"weights": np.array([np.nan] * 7)}, "finite"),
        ({"game": "tictactoe"}, {"weights": np.array(["a"] * 7)}, "numbers"),
        ({"game": "tictactoe", "tie_break": "best"}, {"weights": np.zeros(7)}, "tie_break"),
        ({"game": "nonsense(("}, {"weights": np.zeros(7)}, "nonsense"),
    ],
)
def test_bad_saved_agents_get_clear_errors(meta, arrays, message):
    with pytest.raises(NoughtsError, match=message):
        from_saved(meta, arrays)


def test_through_the_saved_agent_files(tmp_path):
    saved = pytest.importorskip("noughts.agents.saved")
    agent = LinearAgent(TTT, [1, 2, 3, 4, 5, 6, 7])
    path = tmp_path / "lin.json"
    saved.save_agent(agent, path)
    back = saved.load_agent(path)
    assert isinstance(back, LinearAgent) and back.weights.tolist() == agent.weights.tolist()
