"""The LMS learner of 001: features, critic, LMS rule, determinism, divergence, learning."""

import numpy as np
import pytest

import noughts
from noughts.agents.linear import LinearAgent, LineFeatures, feature_lines, features
from noughts.arena.match import play_match
from noughts.core import NoughtsError, Outcome
from noughts.kernels.rng import SplitMix64
from noughts.learn.linear import (
    Critic,
    ExperimentGenerator,
    Generalizer,
    Hypothesis,
    LMSConfig,
    LMSDiverged,
    PerformanceSystem,
    final_value,
    train_lms,
)

TTT = noughts.game("tictactoe")


def brute_features(position):
    """The six counts by looking at each line's marks as text (independent of bit masks)."""
    board = position.game.board
    marks = position.game.marks(position)
    k = len(board.lines[0])
    x = [1, 0, 0, 0, 0, 0, 0]
    for line in board.lines:
        s = "".join(marks[c] for c in line)
        nx, no = s.count("x"), s.count("o")
        for own, other, base in ((nx, no, 1), (no, nx, 2)):
            if other == 0:
                x[base] += own == 1
                x[base + 2] += own == k - 1
                x[base + 4] += own == k
    return x


@pytest.mark.parametrize("spec", ["tictactoe", "mnk(4,4,4)", "mnk(5,5,3)", "hypercube(3,3)"])
def test_features_match_a_count_by_text_on_random_positions(spec):
    g = noughts.game(spec)
    rng = np.random.default_rng(1)
    for _ in range(30):
        p = g.start()
        for _ in range(int(rng.integers(0, g.board.num_cells))):
            if p.is_terminal():
                break
            moves = p.legal_moves()
            p = p.play(moves[int(rng.integers(len(moves)))])
        assert features(p).tolist() == brute_features(p)


def test_figure_12_counts_diagonals_that_001_leaves_out():
    # 001 Figure 12 gives (x1..x6) = (0, 1, 0, 0, 1, 0) for this board; the anti-diagonal
    # c1-b2-a3 holds two x and an empty cell, so over every line x3 is 1
    p = TTT.parse("o../xxx/xoo")
    assert features(p).tolist() == [1, 0, 1, 1, 0, 1, 0]


def test_001s_row_and_column_features_give_its_figure_12():
    # 001 §3.4, Figure 12: ((x1 = 0, x2 = 1, x3 = 0, x4 = 0, x5 = 1, x6 = 0), +100)
    p = TTT.parse("o../xxx/xoo")
    assert features(p, "rowcol").tolist() == [1, 0, 1, 0, 0, 1, 0]
    assert len(feature_lines(TTT, "rowcol")) == 6  # three rows, three columns
    assert len(feature_lines(noughts.game("mnk(4,4,4)"), "rowcol")) == 8
    # on a cube: the 27 lines along one axis, none of the 22 diagonals
    assert len(feature_lines(noughts.game("hypercube(3,3)"), "rowcol")) == 27
    with pytest.raises(NoughtsError, match="feature set"):
        features(p, "diagonals")


def test_the_random_opponent_and_normalised_lms():
    # against a random o the second player's moves ignore the weights
    h = Hypothesis(TTT, [0, 0, 0, 0, 0, 100, -100])
    ps = PerformanceSystem(h, opponent="random")
    seen = {ps.choose(TTT.parse("xx./oo./..."), SplitMix64(s)) for s in range(40)}
    assert seen == {TTT.parse("xxx/oo./...")}  # x still takes its win
    replies = {ps.choose(TTT.parse("xx./oo./x.."), SplitMix64(s)) for s in range(40)}
    assert len(replies) == 4  # o: any of the four empty cells, not just its win
    # normalised LMS divides each step by |x|^2
    w = np.array([0.5] * 7)
    x = np.array([1.0, 2, 0, 1, 0, 0, 0])
    new = np.array(Generalizer(0.4, normalised=True).update(w, [(x, 10.0)]))
    assert np.allclose(new, w + 0.4 * (10.0 - float(w @ x)) * x / float(x @ x))
    # 001's eta = 0.4 stays finite once normalised
    run = train_lms(TTT, 3000, eta=0.4, features="rowcol", normalised=True, seed=2)
    assert np.all(np.isfinite(run.weights)) and run.diverged_at is None
    with pytest.raises(NoughtsError, match="opponent"):
        LMSConfig(opponent="mirror")


def test_features_refuse_games_without_one_board_of_marks():
    with pytest.raises(NoughtsError, match="claim game"):
        LineFeatures(noughts.game("notakto(boards=2)"))


def test_critic_uses_successor_estimates_and_the_true_final_value():
    config = LMSConfig()
    h = Hypothesis(TTT, [1, 2, 3, 4, 5, 6, 7])
    trace = [TTT.start()]
    for move in (4, 0, 8, 2, 6, 1):  # x b2, o a1, x c3, o c1, x a3, o b1: o wins a1-b1-c1
        trace.append(trace[-1].play(move))
    assert trace[-1].outcome() is Outcome.SECOND
    examples = Critic(config).examples(trace, h)
    assert len(examples) == len(trace)
    for t in range(len(trace) - 1):
        assert examples[t][0] == features(trace[t]).tolist()
        assert examples[t][1] == pytest.approx(h.value(trace[t + 1]))
    assert examples[-1][1] == final_value(Outcome.SECOND, config) == -100


def test_lms_rule_by_hand():
    w = np.array([0.5] * 7)
    x = np.array([1.0, 2, 0, 1, 0, 0, 0])
    v = float(w @ x)  # 2.0
    new = np.array(Generalizer(0.1).update(w, [(x, 10.0)]))
    assert np.allclose(new, w + 0.1 * (10.0 - v) * x)
    # applied in order, each with the weights as updated so far
    twice = Generalizer(0.1).update(w, [(x, 10.0), (x, 10.0)])
    assert np.allclose(twice, new + 0.1 * (10.0 - float(new @ x)) * x)


def test_performance_system_plays_best_for_each_side():
    h = Hypothesis(TTT, [0, 0, 0, 0, 0, 100, -100])
    ps = PerformanceSystem(h)
    rng = SplitMix64(0)
    assert ps.choose(TTT.parse("xx./oo./..."), rng) == TTT.parse("xxx/oo./...")
    assert ps.choose(TTT.parse("xx./oo./x.."), rng) == TTT.parse("xx./ooo/x..")


def test_experiment_generator_opens_with_random_moves():
    gen = ExperimentGenerator(TTT, opening_plies=3)
    p = gen.new_problem(SplitMix64(2))
    assert sum(ch != "." for ch in p.text().replace("/", "")) == 3
    assert ExperimentGenerator(TTT).new_problem(SplitMix64(2)) == TTT.start()


def test_runs_repeat_with_a_seed_and_differ_across_seeds():
    a = train_lms(TTT, 300, eta=0.001, seed=4, checkpoints=[100, 300])
    b = train_lms(TTT, 300, eta=0.001, seed=4, checkpoints=[100, 300])
    c = train_lms(TTT, 300, eta=0.001, seed=5)
    assert a.weights.tolist() == b.weights.tolist() and a.checkpoints == b.checkpoints
    assert a.weights.tolist() != c.weights.tolist()
    assert [cp.games for cp in a.checkpoints] == [100, 300]
    last = a.checkpoints[-1]
    assert (last.wins, last.losses, last.draws) == (a.wins, a.losses, a.draws)
    assert last.weights == tuple(a.weights.tolist())


def test_resuming_from_weights_continues_the_fit():
    a = train_lms(TTT, 50, eta=0.001, seed=4)
    b = train_lms(TTT, 50, eta=0.001, seed=9, weights=a.weights)
    assert b.weights.tolist() != a.weights.tolist()


def test_001_learning_rate_diverges():
    # eta = 0.4 (001 §5) with raw counts: eta * |X|^2 > 2 after the first move, so LMS blows up
    with pytest.raises(LMSDiverged, match="overflowed after"):
        train_lms(TTT, 2000, eta=0.4, seed=1)


def test_bad_options_are_refused():
    with pytest.raises(NoughtsError):
        train_lms(TTT, 10, eta=-1)
    with pytest.raises(NoughtsError):
        train_lms(TTT, 10, epsilon=2)
    with pytest.raises(NoughtsError, match="claim game"):
        train_lms(noughts.game("otrio"), 10)


def test_trained_agent_beats_random_on_3x3():
    # 001's learner with exploration (epsilon 0.1) and a stable eta; a fixed seed, a computed rate
    run = train_lms(TTT, 3000, eta=0.01, epsilon=0.1, seed=1)
    trained = play_match(TTT, run.agent(), "random", games=200, seed=5)
    untrained = play_match(TTT, LinearAgent(TTT, [0.5] * 7), "random", games=200, seed=5)
    assert trained.score > 0.6
    assert trained.score > untrained.score
    # it learned that x lines are good for x and o lines bad
    assert run.weights[5] > 0 > run.weights[6]


def test_runs_on_4x4_with_four_in_a_row():
    g = noughts.game("mnk(4,4,4)")
    run = train_lms(g, 100, eta=0.001, seed=2)
    assert run.games == 100 and np.all(np.isfinite(run.weights))


KERNEL_CASES = [
    ("tictactoe", {"eta": 0.001}),
    ("tictactoe", {"eta": 0.01, "epsilon": 0.1, "opening_plies": 2}),
    ("tictactoe", {"eta": 0.4}),  # diverges: at the same game in both
    ("misere(tictactoe)", {"eta": 0.005, "epsilon": 0.2, "win": 1, "loss": -1}),
    ("mnk(4,4,4)", {"eta": 0.001}),
    ("mnk(5,5,3)", {"eta": 0.0005, "epsilon": 0.05}),
    # 001's own settings and the variants explored against its Table 1
    ("tictactoe", {"eta": 0.4, "features": "rowcol"}),  # diverges too
    ("tictactoe", {"eta": 0.01, "features": "rowcol", "opponent": "random"}),
    ("tictactoe", {"eta": 0.4, "features": "rowcol", "opponent": "random", "normalised": True}),
    ("mnk(4,4,4)", {"eta": 0.3, "normalised": True, "epsilon": 0.1}),
]


@pytest.mark.parametrize(("spec", "options"), KERNEL_CASES)
def test_kernel_equals_reference_bit_for_bit(spec, options):
    g = noughts.game(spec)
    kw = dict(seed=3, checkpoints=[1, 50, 120], stop_on_divergence=True, **options)
    ref = train_lms(g, 120, engine="reference", **kw)
    fast = train_lms(g, 120, engine="kernel", **kw)
    assert fast.weights.tolist() == ref.weights.tolist()  # exactly equal floats
    assert fast.checkpoints == ref.checkpoints
    assert (fast.wins, fast.losses, fast.draws) == (ref.wins, ref.losses, ref.draws)
    assert fast.diverged_at == ref.diverged_at


def test_kernel_is_refused_where_it_does_not_apply():
    with pytest.raises(NoughtsError, match="kernel"):
        train_lms(noughts.game("cumulative(tictactoe)"), 5, engine="kernel")
    run = train_lms(noughts.game("cumulative(tictactoe)"), 20, eta=0.001)  # auto: the reference
    assert run.games == 20


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_checkpoint_resumes_bit_for_bit(engine):
    import json

    from noughts.learn.linear import LinearLearner

    whole = LinearLearner(TTT, seed=8, eta=0.005, epsilon=0.1, engine=engine)
    whole.play_games(300)
    first = LinearLearner(TTT, seed=8, eta=0.005, epsilon=0.1, engine=engine)
    first.play_games(120)
    meta, arrays = first.checkpoint()
    resumed = LinearLearner.from_checkpoint(TTT, json.loads(json.dumps(meta)), arrays)
    resumed.play_games(180)
    assert resumed.weights.tolist() == whole.weights.tolist()
    assert resumed.counts.tolist() == whole.counts.tolist()
    with pytest.raises(NoughtsError):
        LinearLearner.from_checkpoint(TTT, {**meta, "counts": [1, 2, 3]}, arrays)


def test_training_loop_drives_the_linear_learner():
    from noughts.learn.linear import LinearLearner
    from noughts.learn.train import train

    learner = LinearLearner.from_options(TTT, eta="0.001", seed="2")
    result = train(learner, max_episodes=400)
    assert learner.episodes == 400 and result.episodes == 400
    assert sum(result.outcomes.values()) == 400
    with pytest.raises(NoughtsError, match="no option"):
        LinearLearner.from_options(TTT, gamma="1")
    assert LinearLearner.from_options(TTT, alpha="0.002").config.eta == 0.002  # the loop's step size


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_a_traced_run_records_block_envelopes(engine):
    from noughts.learn.linear import LinearLearner

    options = {"eta": 0.01, "features": "rowcol", "opponent": "random", "seed": 5, "engine": engine}
    traced = LinearLearner(TTT, **options)
    doc = traced.play_traced(250, every=50)
    plain = LinearLearner(TTT, **options)
    plain.play_games(250, marks=list(range(1, 251)))
    every_game = np.array([c.weights for c in plain.checkpoints])
    assert doc["games"].tolist() == [50, 100, 150, 200, 250]
    assert doc["weights"].tolist() == every_game[49::50].tolist()
    blocks = every_game.reshape(5, 50, 7)
    assert doc["low"].tolist() == blocks.min(axis=1).tolist()
    assert doc["high"].tolist() == blocks.max(axis=1).tolist()
    assert np.allclose(doc["mean"], blocks.mean(axis=1))
    assert doc["counts"][-1].tolist() == plain.counts.tolist() == traced.counts.tolist()
    assert traced.weights.tolist() == plain.weights.tolist()
    # 001's setting overflows: the trace stops at the last whole block before it
    bad = LinearLearner(TTT, eta=0.4, features="rowcol", seed=1, engine=engine).play_traced(5000, every=100)
    assert bad["diverged_at"] is not None and bad["games"][-1] < bad["diverged_at"]
