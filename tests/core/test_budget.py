"""The one budget object: its default wall limit, and a CPU limit given alone."""

from __future__ import annotations

import time

import pytest

from noughts.core import LimitExceeded
from noughts.core.budget import AUTO_SECONDS, WALL_SECONDS, Budget


def test_a_budget_made_without_limits_has_the_default_wall_limit() -> None:
    assert Budget().max_seconds == WALL_SECONDS
    assert Budget(max_memory=None).max_seconds == WALL_SECONDS


def test_a_cpu_limit_alone_has_no_wall_limit() -> None:
    b = Budget(max_cpu_seconds=600)
    assert b.max_seconds is None
    # a budget whose wall clock would have run out long ago still runs on CPU time
    b.started -= 2 * WALL_SECONDS
    b.check()
    assert not b.expired()
    assert b.remaining() == pytest.approx(600 - b.cpu_elapsed(), abs=1)


def test_an_explicit_wall_limit_stays_beside_a_cpu_limit() -> None:
    assert Budget(max_seconds=60.0, max_cpu_seconds=600).max_seconds == 60.0
    assert Budget(max_seconds=None, max_cpu_seconds=600).max_seconds is None
    b = Budget(max_seconds=5, max_cpu_seconds=600)
    b.started -= 10
    with pytest.raises(LimitExceeded, match="after 5 s"):
        b.check()


def test_the_default_still_stops_work_without_a_cpu_limit() -> None:
    b = Budget()
    b.started = time.perf_counter() - WALL_SECONDS - 1
    with pytest.raises(LimitExceeded, match="the time budget"):
        b.check()


def test_auto_seconds_is_known_by_identity_not_value() -> None:
    assert AUTO_SECONDS == WALL_SECONDS
    assert Budget(max_seconds=AUTO_SECONDS, max_cpu_seconds=1).max_seconds is None
    assert Budget(max_seconds=float(WALL_SECONDS), max_cpu_seconds=1).max_seconds == WALL_SECONDS


def test_solve_with_a_cpu_limit_alone_has_no_wall_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's solve passes its default through: a CPU budget alone is not cut at 60 s."""
    from noughts.solving import policy as api

    made: list[Budget] = []
    real = api.Budget

    def spy(*args: object, **kwargs: object) -> Budget:
        b = real(*args, **kwargs)  # type: ignore[arg-type]
        made.append(b)
        return b

    monkeypatch.setattr(api, "Budget", spy)
    api.solve("tictactoe", max_cpu_seconds=100, value_only=True)
    second = len(made)
    api.solve("tictactoe", value_only=True)
    assert made[0].max_seconds is None and made[0].max_cpu_seconds == 100
    assert made[second].max_seconds == WALL_SECONDS
