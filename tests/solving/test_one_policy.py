"""One policy: ``noughts.solve``, the perfect player, grading, review and the web worker's
analysis ask the same positions and get the same engine and the same value from each, under
every rules set (standard, misère, Maker-Breaker, cumulative, veto, Notakto on one board and
on sixteen, a game that need not end) and past the alpha-beta kernel's horizon (mnk(6,6,5):
the Breaker prover). Each asks through its own entry point; none is handed the others' engine.
"""

from __future__ import annotations

import numpy as np
import pytest

import noughts
from noughts.agents.perfect import PerfectAgent
from noughts.arena.grade import grade
from noughts.review import review
from noughts.review.analysis import POLICY_LABELS
from noughts.web.work import Worker

SMALL = [
    ("tictactoe", "python"),
    ("misere(tictactoe)", "python"),
    ("maker_breaker(tictactoe)", "python"),
    ("cumulative(tictactoe)", "python"),
    ("veto(tictactoe)", "python"),
    ("notakto", "python"),
    ("notakto(boards=16)", "quotient"),
    ("forget(tictactoe,turns=2)", "retro"),
    ("mnk(4,4,4)", "python"),  # the Python search's trial answers it (exact.engines.PYTHON_TRIAL_CELLS)
    ("hypercube(3,3)", "alpha-beta"),
]
"""Games every consumer can ask in a test's time, with the engine the policy gives their start."""

PAST_THE_HORIZON = [
    ("mnk(6,6,5)", "breaker"),
    ("maker_breaker(mnk(6,6,5))", "breaker"),
]
"""Positions the alpha-beta kernel does not finish in minutes: the Breaker prover answers."""


def _consumers(spec: str, *, review_too: bool) -> dict[str, tuple[str, str]]:
    """(engine, value) of the start of ``spec`` from each consumer."""
    g = noughts.game(spec)
    start = g.start()
    r = noughts.solve(g, value_only=True, max_seconds=None)
    found = {"solve": (r.engine, r.value.describe(g))}

    oracle = PerfectAgent().policy(g)
    value = oracle.value(start)
    found["perfect"] = (oracle.engine, value.describe(g))

    web = Worker(2**30).analyse(spec, None, 600.0)
    assert web["solved"], web
    doc = web["solve"]
    found["web"] = (doc["engine"], noughts.solve(g, value_only=True).value.describe(g))
    assert doc["value"] == r.to_json()["value"] and doc.get("plies") == r.to_json().get("plies")

    if review_too:
        marked = grade("random", g, sample=1, games=0, rng=np.random.default_rng(0))
        found["grade"] = (marked.engine, marked.start_value)
        rv = review(g, [], estimator=None, position_seconds=None)  # the start, from its moves' values
        v = rv.values[0]
        assert v is not None and v.is_exact
        assert v.outcome is r.value.outcome
        if g.properties.bounded and r.value.plies is not None:  # a loopy game's draw has no length
            assert v.plies == r.value.plies
        named = {label: name for name, label in POLICY_LABELS.items()}.get(rv.engine or "", rv.engine)
        found["review"] = (
            str(named),
            found["solve"][1],
        )  # its value: the outcome and distance asserted above
    return found


@pytest.mark.parametrize(("spec", "engine"), SMALL)
def test_every_consumer_gets_the_same_engine_and_value(spec: str, engine: str) -> None:
    found = _consumers(spec, review_too=True)
    assert found["solve"][0] == engine, found
    assert len(set(found.values())) == 1, found


@pytest.mark.parametrize(("spec", "engine"), PAST_THE_HORIZON)
def test_past_the_alpha_beta_horizon_every_consumer_gets_the_breaker_prover(spec: str, engine: str) -> None:
    found = _consumers(spec, review_too=False)
    assert found["solve"][0] == engine, found
    assert len(set(found.values())) == 1, found
