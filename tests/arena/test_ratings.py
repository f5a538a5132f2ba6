import math

import numpy as np
import pytest

from noughts.arena.ratings import ELO_PER_NAT, bradley_terry, bradley_terry_mm, elo, pair_scores
from noughts.core import NoughtsError
from noughts.store import GameResult


def _synthetic(strengths, games, rng, draw=0.0):
    names = list(strengths)
    out = []
    for _ in range(games):
        i, j = rng.choice(len(names), 2, replace=False)
        a, b = names[i], names[j]
        if rng.random() < draw:
            out.append((a, b, "draw"))
            continue
        p = 1 / (1 + math.exp(-(strengths[a] - strengths[b])))
        out.append((a, b, "first" if rng.random() < p else "second"))
    return out


def test_recovers_known_strengths():
    truth = {"a": 1.0, "b": 0.0, "c": -0.5, "d": 0.7}
    results = _synthetic(truth, 20000, np.random.default_rng(0))
    r = bradley_terry(results)
    mean = np.mean(list(truth.values()))
    for name, theta in truth.items():
        expected = (theta - mean) * ELO_PER_NAT
        assert abs(r.ratings[name] - expected) < 4 * r.stderr[name]
        assert r.stderr[name] < 15
    assert [row[0] for row in r.table()] == ["a", "d", "b", "c"]


def test_scipy_fit_matches_the_mm_reference():
    results = _synthetic({"x": 0.3, "y": -0.2, "z": 0.0}, 3000, np.random.default_rng(1), draw=0.2)
    fit = bradley_terry(results, prior_sd=1e6)  # a vanishing prior: plain maximum likelihood
    mm = bradley_terry_mm(results)
    for name in fit.ratings:
        assert fit.ratings[name] == pytest.approx(mm.ratings[name], abs=0.05)


def test_prior_keeps_a_perfect_record_finite():
    results = [("a", "b", "first")] * 10 + [("b", "a", "second")] * 10
    r = bradley_terry(results)
    assert math.isfinite(r.ratings["a"]) and r.ratings["a"] > 300
    with pytest.raises(NoughtsError, match="infinite"):
        bradley_terry_mm(results)


def test_pair_scores_and_records():
    names, w, n = pair_scores([GameResult("a", "b", "draw"), ("b", "a", "first"), ("a", "a", "first")])
    assert names == ["a", "b"]
    assert w.tolist() == [[0, 0.5], [1.5, 0]] and n.tolist() == [[0, 2], [2, 0]]
    with pytest.raises(NoughtsError):
        pair_scores([("a", "b", "win")])


def test_elo_moves_toward_the_winner():
    r = elo([("a", "b", "first")] * 5, k=16)
    assert r.ratings["a"] > 0 > r.ratings["b"]
    assert r.ratings["a"] == pytest.approx(-r.ratings["b"])
    first = elo([("a", "b", "first")], k=16)
    assert first.ratings["a"] == pytest.approx(8.0)  # 16 * (1 - 1/2); the mean stays 0
