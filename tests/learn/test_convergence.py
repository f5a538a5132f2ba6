import numpy as np
import pytest

from noughts.core import NoughtsError
from noughts.learn.convergence import (
    GradeTarget,
    PolicyStable,
    RateWindow,
    _null_reference,
    criterion_from_json,
    null_convergence,
    window_variances,
)


def test_window_state_matches_the_reference():
    """The O(1) state (the kernels' rate_push, through RateWindowState.push) and the plain test
    over the raw outcomes give the same variances at every episode and fire together."""
    rng = np.random.default_rng(1)
    outcomes = rng.choice(3, size=3000, p=[0.3, 0.5, 0.2])
    crit = RateWindow(window=250, delta=1e-12)
    state, reference = crit.new_state(), crit.new_reference()
    v1, vd = window_variances(outcomes, 250)
    for n, o in enumerate(outcomes, start=1):
        assert state.push(int(o), crit.delta) == reference.push(int(o), crit.delta)
        if n >= 250:
            a, b = state.variances()
            assert (a, b) == pytest.approx(reference.variances(), rel=1e-6, abs=1e-18)
            assert reference.variances() == pytest.approx((v1[n - 250], vd[n - 250]), rel=1e-9, abs=1e-18)
        else:
            assert np.isnan(state.variances()[0]) and np.isnan(reference.variances()[0])


def test_first_convergence_matches_the_reference():
    rng = np.random.default_rng(2)
    outcomes = rng.choice(3, size=6000, p=[0.1, 0.8, 0.1])
    crit = RateWindow(window=300, delta=2e-6)
    v1, vd = window_variances(outcomes, 300)
    expected = int(np.argmax((v1 < 2e-6) & (vd < 2e-6))) + 300
    for state in (crit.new_state(), crit.new_reference()):
        fired = next(n for n, o in enumerate(outcomes, start=1) if state.push(int(o), crit.delta))
        assert fired == expected


def test_null_baseline_converges_without_learning():
    # 000 §4.2's test with its own W and delta on outcomes drawn at fixed rates, no learning at all
    n = null_convergence(0.08, 0.9, RateWindow(), seed=126)
    assert n is not None and 20_000 <= n < 1_000_000


def test_null_kernel_matches_reference():
    crit = RateWindow(window=500, delta=1e-6)
    for seed in (1, 2, 3):
        assert null_convergence(0.3, 0.4, crit, seed, 20_000) == _null_reference(0.3, 0.4, crit, seed, 20_000)


def test_criteria_round_trip_and_validate():
    for c in (RateWindow(100, 1e-5), PolicyStable(1000, 100), GradeTarget(0.9, 50)):
        assert criterion_from_json(c.to_json()) == c
    with pytest.raises(NoughtsError):
        RateWindow(1)
    with pytest.raises(NoughtsError):
        GradeTarget(1.5)
    with pytest.raises(NoughtsError):
        PolicyStable(10, 100)
    with pytest.raises(NoughtsError, match="unknown stopping criterion"):
        criterion_from_json({"name": "vibes"})
