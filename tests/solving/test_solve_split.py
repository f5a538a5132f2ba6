"""The one split solve, under the one policy: its jobs have the Breaker prover's row; ``exact``
has no second ``solve`` or ``solve_split`` that could disagree with it."""

from __future__ import annotations

import pytest

import noughts
import noughts.exact
from noughts.core import NoughtsError, Outcome
from noughts.solving import solve, solve_split


def test_the_split_solve_proves_a_draw_with_the_breaker_row() -> None:
    r = solve_split("mnk(6,6,5)", workers=1, value_only=True, engine="breaker", max_seconds=60)
    assert r.value.outcome is Outcome.DRAW and r.engine == "breaker"
    assert r.split is not None and r.split["jobs_finished"] == r.split["jobs"] >= 2


def test_there_is_one_solve_and_one_solve_split() -> None:
    assert noughts.solve is solve
    for name in ("solve", "solve_split"):
        with pytest.raises(AttributeError, match=f"the one {name} is noughts.solving.{name}"):
            getattr(noughts.exact, name)
    with pytest.raises(NoughtsError, match="unknown engine 'nope'"):
        solve_split("mnk(6,6,5)", workers=1, engine="nope")
