"""Tabular Q-learning (003 §2.3, §5): the numba kernel against the reference, bit for bit."""

import json

import numpy as np
import pytest

import noughts
from noughts.agents.qlearning import centre_cells
from noughts.core import LimitExceeded, NoughtsError
from noughts.learn.qlearning import QConfig, QLearner, train_reference

CASES = [
    ("tictactoe", {}),
    ("tictactoe", {"reflexes": True}),
    ("tictactoe", {"centre_ban": True, "defender_bonus": 0.5, "win": 100, "loss": -50}),
    ("misere(mnk(3,3,3))", {"epsilon_decay": 0.99}),
    ("mnk(4,4,3)", {"reflexes": True, "centre_ban": True, "gamma": 0.9}),
    ("mnk(5,5,3)", {"epsilon": 0.3, "epsilon_decay": 1.0}),
]


@pytest.mark.parametrize(("spec", "options"), CASES)
def test_kernel_equals_reference_bit_for_bit(spec, options):
    g = noughts.game(spec)
    config = QConfig(**options)
    q, order, stats, eps = train_reference(g, 250, config, seed=11)
    learner = QLearner(g, config, seed=11)
    learner.train(250, chunk=37)  # chunks, growth and rehashing must not change anything
    table = learner.table
    assert [int(k) for k in table.keys] == order  # the same positions, in first-visit order
    for i, key in enumerate(order):
        assert table.q[i].tolist() == q[key]  # exactly equal floats
    assert learner.stats.outcomes.tolist() == stats.outcomes.tolist()
    assert learner.stats.lengths.tolist() == stats.lengths.tolist()
    assert learner.epsilon == eps


def test_runs_repeat_and_seeds_matter():
    g = noughts.game("tictactoe")
    a, b, c = QLearner(g, seed=1), QLearner(g, seed=1), QLearner(g, seed=2)
    for learner in (a, b, c):
        learner.train(300)
    assert np.array_equal(a.table.q, b.table.q)
    assert a.table.size != c.table.size or not np.array_equal(a.table.q, c.table.q)


def test_training_in_pieces_equals_one_run():
    g = noughts.game("tictactoe")
    whole, pieces = QLearner(g, seed=3), QLearner(g, seed=3)
    whole.train(400)
    pieces.train(150)
    pieces.train(250)
    assert np.array_equal(whole.table.q, pieces.table.q)
    assert whole.epsilon == pieces.epsilon


def test_backward_propagation_by_hand():
    # greedy from an all-zero table with epsilon 0 and one episode: every move of the winner gets
    # alpha * gamma^(T-t) * win, every move of the loser alpha * gamma^(T-t) * loss
    g = noughts.game("tictactoe")
    config = QConfig(alpha=0.5, gamma=0.9, epsilon=0.0, epsilon_min=0.0)
    q, order, stats, _ = train_reference(g, 1, config, seed=0)
    length = int(stats.lengths[0])
    position, moves = g.start(), []
    for key in order:
        row = q[key]
        (move,) = [a for a, v in enumerate(row) if v != 0.0]
        moves.append((key, move))
    assert len(moves) == length
    outcome = int(stats.outcomes[0])
    for t, (key, move) in enumerate(moves):
        if outcome == 1:
            expected = 0.0
        else:
            winner_moved = (t % 2 == 0) == (outcome == 0)
            expected = 0.5 * 0.9 ** (length - 1 - t) * (1.0 if winner_moved else -1.0)
        assert q[key][move] == pytest.approx(expected)
        position = position.play(move)
    assert position.is_terminal()


def test_epsilon_decays_to_its_floor():
    g = noughts.game("tictactoe")
    learner = QLearner(g, seed=0, epsilon=1.0, epsilon_decay=0.9, epsilon_min=0.05)
    learner.train(10)
    assert learner.epsilon == pytest.approx(max(0.05, 0.9**10))
    learner.train(100)
    assert learner.epsilon == 0.05


def test_centre_ban_is_off_by_default_and_only_changes_the_first_move():
    g = noughts.game("tictactoe")
    assert not QConfig().centre_ban
    free = QLearner(g, seed=0)
    free.train(3000)
    banned = QLearner(g, seed=0, centre_ban=True)
    banned.train(3000)
    start = 0
    assert free.table.q[start, 4] != 0.0  # the centre was tried and valued when allowed
    assert banned.table.q[start, 4] == 0.0  # never played on the first move when banned
    # later in the game the centre stays legal under the ban
    centre = 1 << 4
    later = [k for k in banned.table.keys if k != 0]
    cells = g.board.num_cells
    assert any((int(k) & centre) or ((int(k) >> cells) & centre) for k in later)
    assert centre_cells(g) == [4]
    assert centre_cells(noughts.game("mnk(4,4,3)")) == [5, 6, 9, 10]


def test_table_limit_is_a_clear_error():
    learner = QLearner(noughts.game("mnk(4,4,3)"), seed=0, max_states=100)
    with pytest.raises(LimitExceeded, match="max_states"):
        learner.train(1000)


def test_games_it_does_not_take():
    for spec in ("cumulative(tictactoe)", "otrio", "mnk(6,6,4)"):
        with pytest.raises(NoughtsError):
            QLearner(noughts.game(spec))
    with pytest.raises(NoughtsError):
        QConfig(alpha=0)
    with pytest.raises(NoughtsError):
        QConfig(gamma=1.5)


def test_checkpoint_resumes_bit_for_bit():
    g = noughts.game("mnk(4,4,3)")
    whole = QLearner(g, seed=5, reflexes=True)
    whole.train(700)
    first = QLearner(g, seed=5, reflexes=True)
    first.train(300)
    meta, arrays = first.checkpoint()
    resumed = QLearner.from_checkpoint(g, json.loads(json.dumps(meta)), arrays)
    resumed.train(400)
    assert resumed.episodes == whole.episodes == 700
    assert np.array_equal(resumed.table.keys, whole.table.keys)
    assert np.array_equal(resumed.table.q, whole.table.q)
    assert resumed.epsilon == whole.epsilon
    with pytest.raises(NoughtsError):
        QLearner.from_checkpoint(g, {**meta, "rng_state": "x"}, arrays)


def test_training_loop_drives_it_with_the_window_test():
    from noughts.learn.convergence import RateWindow
    from noughts.learn.train import train

    g = noughts.game("tictactoe")
    learner = QLearner.from_options(g, seed="3", alpha="0.5", reflexes="true")
    assert learner.config.reflexes and learner.config.alpha == 0.5
    result = train(learner, criterion=RateWindow(window=50, delta=1.0), max_episodes=5000)
    # delta = 1 holds as soon as the window is full: the run stops at episode 50 exactly
    assert result.converged and learner.episodes == 50
    with pytest.raises(NoughtsError, match="no option"):
        QLearner.from_options(g, speed="2")
