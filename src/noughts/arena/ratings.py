"""Ratings from game results: Bradley-Terry by maximum likelihood, and sequential Elo.

**Bradley-Terry** (Bradley and Terry, Biometrika 39, 1952): agent i beats agent j with
probability ``p_i / (p_i + p_j)``, ``p_i = exp(theta_i)``. A draw counts as half a win for
each side (the usual convention; it gives the same estimates as splitting each draw into one
win and one loss at half weight). :func:`bradley_terry` maximises the log-likelihood with
SciPy (L-BFGS, exact gradient) under a weak Gaussian prior ``theta ~ N(0, prior_sd^2)``, which
keeps the estimate finite when an agent won or lost every game (without it the maximum
likelihood is at infinity); standard errors come from the inverse Hessian at the optimum.
:func:`bradley_terry_mm` is the plain reference, Hunter's MM algorithm ("MM algorithms for
generalized Bradley-Terry models", Annals of Statistics 32, 2004), without the prior; the
tests hold the two to each other. Ratings are reported on the Elo scale
(``400 / ln 10 * theta``), centred on a mean of 0.

**Elo** (:func:`elo`): the sequential update with factor ``k``, in the order games were
played; it depends on that order, which Bradley-Terry does not.

>>> results = [("a", "b", "first")] * 3 + [("b", "a", "draw")]
>>> r = bradley_terry(results)
>>> r.ratings["a"] > r.ratings["b"]
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from noughts.core import NoughtsError

__all__ = ["Ratings", "bradley_terry", "bradley_terry_mm", "connected_groups", "elo", "pair_scores"]

ELO_PER_NAT = 400 / math.log(10)


def _triples(results: Iterable[Any]) -> list[tuple[str, str, str]]:
    out = []
    for r in results:
        if isinstance(r, tuple | list):
            first, second, outcome = r
        else:
            first, second, outcome = r.first, r.second, r.outcome
        outcome = getattr(outcome, "value", outcome)
        if outcome not in ("first", "second", "draw"):
            raise NoughtsError(f"an outcome is 'first', 'second' or 'draw', not {outcome!r}")
        out.append((str(first), str(second), str(outcome)))
    return out


def pair_scores(results: Iterable[Any]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Agents (sorted), the matrix ``W[i, j]``: points i scored against j (win 1, draw 1/2),
    and ``N[i, j]``: games between them. ``results``: (first, second, outcome) triples or
    records with those fields (:class:`noughts.store.GameResult`).
    """
    triples = _triples(results)
    names = sorted({a for a, _, _ in triples} | {b for _, b, _ in triples})
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    w = np.zeros((k, k))
    n = np.zeros((k, k))
    for first, second, outcome in triples:
        i, j = index[first], index[second]
        if i == j:
            continue  # an agent against itself says nothing about its strength
        n[i, j] += 1
        n[j, i] += 1
        if outcome == "first":
            w[i, j] += 1
        elif outcome == "second":
            w[j, i] += 1
        else:
            w[i, j] += 0.5
            w[j, i] += 0.5
    return names, w, n


@dataclass(frozen=True)
class Ratings:
    """Ratings on the Elo scale (mean 0), with standard errors where the method gives them."""

    method: str
    ratings: dict[str, float]
    stderr: dict[str, float] | None
    games: dict[str, int]

    def table(self) -> list[tuple[str, float, float | None, int]]:
        """(agent, rating, standard error, games), best first."""
        order = sorted(self.ratings, key=lambda a: -self.ratings[a])
        return [
            (a, self.ratings[a], None if self.stderr is None else self.stderr[a], self.games[a])
            for a in order
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "ratings": [{"agent": a, "rating": r, "stderr": se, "games": g} for a, r, se, g in self.table()],
        }


def connected_groups(results: Iterable[Any]) -> list[list[tuple[str, str, str]]]:
    """The games split into groups of agents linked by games played (two agents are in one
    group when a chain of games joins them), largest group first, each group's games as
    (first, second, outcome). Ratings from different groups share no scale: an agent that only
    ever played its own group says nothing about the others, so each group is rated apart.
    """
    triples = _triples(results)
    parent: dict[str, str] = {}

    def root(a: str) -> str:
        parent.setdefault(a, a)
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for first, second, _ in triples:
        ra, rb = root(first), root(second)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list[tuple[str, str, str]]] = {}
    for t in triples:
        groups.setdefault(root(t[0]), []).append(t)
    agents = {r: len({a for t in g for a in t[:2]}) for r, g in groups.items()}
    return [groups[r] for r in sorted(groups, key=lambda r: (-agents[r], -len(groups[r]), r))]


def bradley_terry(results: Iterable[Any], *, prior_sd: float = 4.0) -> Ratings:
    """Bradley-Terry ratings by maximum a posteriori with a weak Gaussian prior (see the module
    docstring); ``prior_sd`` in natural-log strength units (4 is about 700 Elo).
    """
    from scipy.optimize import minimize

    names, w, n = pair_scores(results)
    k = len(names)
    if k == 0:
        raise NoughtsError("no games to rate")
    inv_var = 1.0 / prior_sd**2

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        d = theta[:, None] - theta[None, :]
        # log P(i beats j) = -log(1 + exp(-(theta_i - theta_j)))
        ll = -(w * np.logaddexp(0.0, -d)).sum()
        p = 1.0 / (1.0 + np.exp(-d))  # P(i beats j)
        grad = (w - n * p).sum(axis=1)  # d ll / d theta_i, using w_ij + w_ji = n_ij
        value = -ll + 0.5 * inv_var * float(theta @ theta)
        return value, -grad + inv_var * theta

    fit = minimize(
        objective, np.zeros(k), jac=True, method="L-BFGS-B", options={"maxiter": 10_000, "gtol": 1e-10}
    )
    theta = fit.x - fit.x.mean()
    d = theta[:, None] - theta[None, :]
    p = 1.0 / (1.0 + np.exp(-d))
    hess = n * p * (1 - p)
    h = -hess
    np.fill_diagonal(h, hess.sum(axis=1))
    h = h + inv_var * np.eye(k)
    centre = np.eye(k) - 1.0 / k  # the ratings are reported centred: theta - mean(theta)
    cov = centre @ np.linalg.inv(h) @ centre
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    games = {names[i]: int(n[i].sum()) for i in range(k)}
    return Ratings(
        "bradley-terry",
        {names[i]: float(theta[i] * ELO_PER_NAT) for i in range(k)},
        {names[i]: float(se[i] * ELO_PER_NAT) for i in range(k)},
        games,
    )


def bradley_terry_mm(results: Iterable[Any], *, iterations: int = 10_000, tol: float = 1e-12) -> Ratings:
    """The reference: Hunter's MM iteration ``p_i <- W_i / sum_j n_ij / (p_i + p_j)``, no prior.
    Needs every agent to have scored and conceded something (else the maximum is at infinity:
    ``NoughtsError``).
    """
    names, w, n = pair_scores(results)
    k = len(names)
    wins = w.sum(axis=1)
    if k == 0:
        raise NoughtsError("no games to rate")
    if np.any(wins <= 0) or np.any(wins >= n.sum(axis=1)):
        raise NoughtsError("an agent won or lost every point: its maximum-likelihood rating is infinite")
    p = np.ones(k)
    for _ in range(iterations):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = wins / denom
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < tol:
            p = new
            break
        p = new
    theta = np.log(p)
    theta -= theta.mean()
    return Ratings(
        "bradley-terry-mm",
        {names[i]: float(theta[i] * ELO_PER_NAT) for i in range(k)},
        None,
        {names[i]: int(n[i].sum()) for i in range(k)},
    )


def elo(results: Sequence[Any], *, k: float = 16.0, start: float = 0.0) -> Ratings:
    """Sequential Elo: each game moves both ratings by ``k`` times (score - expected score),
    expected score ``1 / (1 + 10^((r_j - r_i) / 400))``; centred on a mean of 0 at the end.
    """
    triples = _triples(results)
    if not triples:
        raise NoughtsError("no games to rate")
    r: dict[str, float] = {}
    games: dict[str, int] = {}
    for first, second, outcome in triples:
        a, b = r.setdefault(first, start), r.setdefault(second, start)
        games[first] = games.get(first, 0) + 1
        games[second] = games.get(second, 0) + 1
        if first == second:
            continue
        expected = 1 / (1 + 10 ** ((b - a) / 400))
        score = 1.0 if outcome == "first" else 0.0 if outcome == "second" else 0.5
        r[first] = a + k * (score - expected)
        r[second] = b - k * (score - expected)
    mean = sum(r.values()) / len(r)
    return Ratings("elo", {a: v - mean for a, v in r.items()}, None, games)
