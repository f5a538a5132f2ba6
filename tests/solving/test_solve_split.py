"""The split solve under ``noughts solve``'s policy: its jobs have the Breaker prover's row."""

from __future__ import annotations

import pytest

from noughts.core import NoughtsError, Outcome
from noughts.exact.split import solve_split as exact_split
from noughts.solving import solve_split


def test_the_split_solve_proves_a_draw_with_the_breaker_row() -> None:
    r = solve_split("mnk(6,6,5)", workers=1, value_only=True, engine="breaker", max_seconds=60)
    assert r.value.outcome is Outcome.DRAW and r.engine == "breaker"
    assert r.split is not None and r.split["jobs_finished"] == r.split["jobs"] >= 2


def test_exact_split_alone_has_no_breaker_engine() -> None:
    with pytest.raises(NoughtsError, match="unknown engine"):
        exact_split("mnk(6,6,5)", workers=1, engine="breaker")
    with pytest.raises(NoughtsError, match="unknown engine 'nope'"):
        solve_split("mnk(6,6,5)", workers=1, engine="nope")
