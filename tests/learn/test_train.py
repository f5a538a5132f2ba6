import json

import numpy as np
import pytest

import noughts
from noughts.agents.saved import load_agent, load_saved
from noughts.core import NoughtsError
from noughts.learn.convergence import GradeTarget, PolicyStable, RateWindow
from noughts.learn.td import TDConfig, TDLearner
from noughts.learn.train import resume, train

GAME = "cumulative(tictactoe)"


def test_rate_window_stops_training_and_reports(tmp_path):
    learner = TDLearner(noughts.game(GAME), TDConfig(init="tcd", seed=126))
    result = train(
        learner, criterion=RateWindow(2000, 1e-6), max_episodes=200_000, checkpoint=tmp_path / "a.json"
    )
    doc = result.to_json()
    assert result.converged and doc["stopped"] == "converged"
    assert 2000 <= doc["episodes"] < 200_000
    for key in ("episodes", "seconds", "episodes_per_second", "converged", "criterion"):
        assert key in doc
    assert doc["criterion"] == {"name": "rate-window", "window": 2000, "delta": 1e-6}
    v1, vd = result.rate_variances
    assert v1 < 1e-6 and vd < 1e-6
    json.dumps(doc)
    assert sum(doc["outcomes"].values()) == doc["episodes"]


def test_resume_repeats_the_uninterrupted_run_bit_for_bit(tmp_path):
    game = noughts.game(GAME)
    path = tmp_path / "r.json"
    first = TDLearner(game, TDConfig(init="random", seed=9, epsilon=0.2))
    train(first, max_episodes=7_000, chunk=1_500, checkpoint=path)
    resumed, rate, criterion = resume(path)
    assert criterion is None and resumed.episodes == 7_000
    train(resumed, rate=rate, max_episodes=15_000, chunk=4_000)
    whole = TDLearner(game, TDConfig(init="random", seed=9, epsilon=0.2))
    whole_rate = RateWindow().new_state()
    train(whole, rate=whole_rate, max_episodes=15_000)
    assert np.array_equal(resumed.v1, whole.v1) and np.array_equal(resumed.v2, whole.v2)
    assert np.array_equal(resumed.rng, whole.rng)
    assert np.array_equal(rate.counts, whole_rate.counts) and np.array_equal(rate.buf, whole_rate.buf)


def test_grade_target_and_policy_stable(tmp_path):
    learner = TDLearner(noughts.game(GAME), TDConfig(init="tcd", seed=1))
    r = train(learner, criterion=GradeTarget(0.8, 5_000), max_episodes=300_000)
    assert r.converged and r.grade is not None and r.grade >= 0.8
    assert r.checks[-1]["grade"] == r.grade and all(c["grade"] < 0.8 for c in r.checks[:-1])
    learner = TDLearner(noughts.game(GAME), TDConfig(init="tcd", seed=1, epsilon=0.0))
    r = train(learner, criterion=PolicyStable(4_000, 2_000), max_episodes=300_000)
    # without exploration the greedy self-play settles on one line and stops changing
    assert r.converged and r.checks[-1]["unchanged_for"] >= 4_000


def test_checkpoint_is_a_playable_saved_agent(tmp_path):
    learner = TDLearner(noughts.game(GAME), TDConfig(init="tcd", seed=3))
    train(learner, max_episodes=2_000, checkpoint=tmp_path / "c.json")
    agent = load_agent(tmp_path / "c.json")
    p = noughts.game(GAME).start()
    assert agent.choose(p, np.random.default_rng(0)) in p.legal_moves()
    meta, _ = load_saved(tmp_path / "c.json")
    assert meta["training"]["episodes"] == 2_000 and meta["training"]["learner"] == "td"


def test_bad_arguments():
    learner = TDLearner(noughts.game("tictactoe"), TDConfig())
    with pytest.raises(NoughtsError):
        train(learner, max_episodes=0)
    with pytest.raises(NoughtsError):
        train(learner, max_seconds=-1)


def test_oracle_grade_grades_every_learner_and_agrees_with_the_fast_grade():
    from noughts.arena.grade import grade
    from noughts.learn.qlearning import QLearner
    from noughts.learn.train import oracle_grade

    game = noughts.game("tictactoe")
    td = TDLearner(game, TDConfig(init="tcd", seed=3))
    train(td, max_episodes=2_000)
    assert oracle_grade(td) == td.policy_grade()
    q = QLearner.from_options(game)
    train(q, max_episodes=2_000)
    assert not hasattr(q, "policy_grade")  # graded through its agent
    g = oracle_grade(q)
    assert 0.0 <= g <= 1.0
    assert g == grade(q.agent(), game, games=0, seed=0).optimal_move_rate
