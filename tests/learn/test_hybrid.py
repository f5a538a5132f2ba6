"""The hybrid learner (003 §5.1): the kernel held to the reference loop, and to QLearner without tiers."""

import numpy as np
import pytest

import noughts
from noughts.core import NoughtsError
from noughts.learn.hybrid import HybridLearner, SearchConfig, train_hybrid_reference
from noughts.learn.qlearning import QConfig, QLearner

PAPER_REWARDS = {"win": 100.0, "loss": -50.0, "draw": 0.0, "defender_bonus": 50.0}

CASES = [
    ("tictactoe", QConfig(reflexes=True), SearchConfig(depth=2), 60),
    ("tictactoe", QConfig(reflexes=True, centre_ban=True, **PAPER_REWARDS), SearchConfig(depth=4, depth_rule="003"), 40),
    ("mnk(4,4,3)", QConfig(reflexes=True, epsilon=0.5, **PAPER_REWARDS),
     SearchConfig(depth=2, depth_rule="003", depth_bonus=1, iron_wall=True, leaf_blend=0.1, opening_book=True), 25),
    ("mnk(4,4,3)", QConfig(reflexes=False, epsilon=0.3), SearchConfig(depth=1, leaf_blend=0.1), 25),
]  # fmt: skip


@pytest.mark.parametrize(("spec", "config", "search", "episodes"), CASES)
def test_kernel_equals_the_reference_loop(spec, config, search, episodes):
    game = noughts.game(spec)
    q, order, visited, stats, epsilon = train_hybrid_reference(game, episodes, config, search, seed=11)
    learner = HybridLearner(game, config, search, seed=11)
    fast = learner.train(episodes, chunk=7)
    assert fast.outcomes.tolist() == stats.outcomes.tolist()
    assert fast.lengths.tolist() == stats.lengths.tolist()
    table = learner.table
    assert table.keys.tolist() == order
    assert table.q.tolist() == [q[k] for k in order]  # exactly equal floats
    assert learner.visited_pairs() == len(visited)
    assert learner.epsilon == epsilon


def test_without_tiers_it_is_the_plain_q_learner():
    game = noughts.game("tictactoe")
    config = QConfig(reflexes=True, **PAPER_REWARDS)
    hybrid = HybridLearner(game, config, SearchConfig(), seed=5)
    plain = QLearner(game, config, seed=5)
    hybrid.train(700)
    plain.train(700)
    assert hybrid.table.keys.tolist() == plain.table.keys.tolist()
    assert hybrid.table.q.tolist() == plain.table.q.tolist()
    assert hybrid.stats.outcomes.tolist() == plain.stats.outcomes.tolist()


def test_visited_pairs_count_entries_whose_value_is_zero():
    game = noughts.game("tictactoe")
    learner = HybridLearner(game, QConfig(reflexes=True), SearchConfig(depth=2), seed=3)
    learner.train(300)
    nonzero = int(np.count_nonzero(learner.table.q))
    assert learner.visited_pairs() > nonzero  # draws are worth 0: their pairs are in the table all the same
    agent = learner.agent(reflexes=True, depth=2)
    assert agent.options()["depth"] == 2 and agent.training["visited_pairs"] == learner.visited_pairs()


def test_bad_configurations_are_refused():
    with pytest.raises(NoughtsError, match="depth_rule"):
        SearchConfig(depth_rule="deeper")
    with pytest.raises(NoughtsError, match="standard"):
        HybridLearner(noughts.game("misere(tictactoe)"))
