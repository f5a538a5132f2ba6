import numpy as np
import pytest

import noughts
from noughts.core import NoughtsError
from noughts.kernels.rng import SplitMix64
from noughts.learn._td_kernels import td_run
from noughts.learn.convergence import RateWindow
from noughts.learn.td import TDConfig, TDLearner, td_reference


@pytest.mark.parametrize(
    "spec, init, update, epsilon, alpha",
    [
        ("cumulative(tictactoe)", "random", "backward", 0.2, 0.3),
        ("cumulative(tictactoe)", "2sla", "online", 0.05, 0.5),
        ("tictactoe", "tcd", "online", 0.3, 0.1),
        ("misere(tictactoe)", "zero", "backward", 0.1, 0.5),
        ("maker_breaker(tictactoe)", "wtcd", "backward", 0.5, 1.0),
    ],
)
def test_kernel_equals_reference_bit_for_bit(spec, init, update, epsilon, alpha):
    game = noughts.game(spec)
    config = TDConfig(epsilon=epsilon, alpha=alpha, init=init, update=update, seed=11)
    learner = TDLearner(game, config)
    sp = learner.space
    positions = [sp.position(i) for i in range(sp.size)]
    d1 = dict(zip(positions, learner.v1.tolist(), strict=True))
    d2 = dict(zip(positions, learner.v2.tolist(), strict=True))
    crit = RateWindow(40, 1e-4)
    ref_rate, rate = crit.new_reference(), crit.new_state()
    outcomes, fired_ref = td_reference(sp, d1, d2, config, SplitMix64(11), 400, ref_rate, crit.delta)
    record = np.zeros(400, np.int8)
    done, fired = td_run(
        sp.next, sp.outcome, sp.to_move, sp.start, learner.v1, learner.v2, epsilon, alpha,
        update == "backward", learner.rng, 400, True, rate.counts, rate.buf, rate.sums, rate.shift,
        crit.delta, record, game.properties.max_length + 2,
    )  # fmt: skip
    assert (done, fired) == (len(outcomes), fired_ref)
    assert record[:done].tolist() == outcomes
    assert [d1[p] for p in positions] == learner.v1.tolist()  # exact equality, not approx
    assert [d2[p] for p in positions] == learner.v2.tolist()
    assert rate.variances() == pytest.approx(ref_rate.variances(), rel=1e-9, abs=1e-15)
    assert len(set(outcomes)) > 1


def test_runs_repeat_and_seeds_matter():
    game = noughts.game("cumulative(tictactoe)")
    tables = []
    for seed in (5, 5, 6):
        learner = TDLearner(game, TDConfig(seed=seed, init="random"))
        learner.play(3000, RateWindow().new_state(), 1e-8, False)
        tables.append(learner.v1.copy())
    assert np.array_equal(tables[0], tables[1]) and not np.array_equal(tables[0], tables[2])


def test_learning_reaches_the_draw_and_a_good_grade():
    # 000 Theorem 2: cumulative tic-tac-toe is a draw; greedy self-play should learn to draw
    game = noughts.game("cumulative(tictactoe)")
    learner = TDLearner(game, TDConfig(epsilon=0.05, alpha=0.5, init="tcd", seed=126))
    learner.play(150_000, RateWindow().new_state(), 1e-8, False)
    assert learner.policy_grade() > 0.85
    start = learner.space.start
    v = learner.v1[learner.space.next[start][learner.space.next[start] >= 0]]
    assert abs(v.max()) < 0.2  # the first player's best opening is worth about a draw


def test_values_stay_in_range_and_terminals_fixed():
    game = noughts.game("tictactoe")
    learner = TDLearner(game, TDConfig(init="random", alpha=1.0, epsilon=0.5, seed=2))
    before1, before2 = learner.v1.copy(), learner.v2.copy()
    learner.play(5000, RateWindow().new_state(), 1e-8, False)
    done = ~learner.space.nonterminal()
    assert np.array_equal(learner.v1[done], before1[done]) and np.array_equal(learner.v2[done], before2[done])
    assert np.abs(learner.v1).max() <= 1 and np.abs(learner.v2).max() <= 1


def test_bad_configs_are_refused():
    with pytest.raises(NoughtsError, match="epsilon"):
        TDConfig(epsilon=1.5)
    with pytest.raises(NoughtsError, match="alpha"):
        TDConfig(alpha=0)
    with pytest.raises(NoughtsError, match="update"):
        TDConfig(update="sideways")
    with pytest.raises(NoughtsError, match="takes no option"):
        TDLearner.from_options(noughts.game("tictactoe"), gamma=0.9)
    with pytest.raises(NoughtsError, match="not a float"):
        TDLearner.from_options(noughts.game("tictactoe"), epsilon="lots")


def test_fast_grade_is_the_arena_grade():
    # TDLearner.policy_grade computes over the whole state space what noughts.arena.grade
    # measures position by position (its random tie-breaks make it an estimate of the same mean)
    from noughts.arena.grade import grade

    game = noughts.game("cumulative(tictactoe)")
    learner = TDLearner(game, TDConfig(init="tcd", seed=126))
    learner.play(60_000, RateWindow().new_state(), 1e-8, False)
    fast = learner.policy_grade()
    arena = grade(learner.agent(), game, games=0, seed=0)
    assert arena.positions == int(learner.space.nonterminal().sum())
    assert abs(arena.optimal_move_rate - fast) < 0.01
    assert learner.policy_grade(strict=True) <= fast
    zero = TDLearner(game, TDConfig(init="zero", seed=1))  # all ties: the grade is the share of optimal moves
    from noughts.exact.states import optimal_action_sets

    opt = optimal_action_sets(zero.space)[zero.space.nonterminal()]
    legal = (zero.space.next >= 0)[zero.space.nonterminal()].sum(axis=1)
    share = np.mean([bin(int(o)).count("1") / n for o, n in zip(opt, legal, strict=True)])
    assert zero.policy_grade() == pytest.approx(share)


@pytest.mark.parametrize("update", ["backward", "online"])
def test_symmetric_starts_keep_one_table_the_negative_of_the_other(update):
    # with V2 = -V1 at the start (zero, TCD, WTCD, 2SLA), both tables get the same update
    # negated, so 000's "two value tables" stay one table: V2 == -V1 exactly, always
    game = noughts.game("cumulative(tictactoe)")
    learner = TDLearner(game, TDConfig(init="tcd", update=update, seed=4, epsilon=0.2))
    learner.play(20_000, RateWindow().new_state(), 1e-8, False)
    assert np.array_equal(learner.v2, -learner.v1)
    rnd = TDLearner(game, TDConfig(init="random", update=update, seed=4, epsilon=0.2))
    rnd.play(20_000, RateWindow().new_state(), 1e-8, False)
    assert not np.array_equal(rnd.v2, -rnd.v1)
