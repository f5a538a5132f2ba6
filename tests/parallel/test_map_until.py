"""map_until: results as they arrive, the rest stopped once the caller has what it needs."""

from __future__ import annotations

import time

import pytest

from noughts.parallel import executor


def slow_square(x: int) -> int:
    """Item 0 answers at once; the others sleep far longer than the test may take."""
    if x != 0:
        time.sleep(120)
    return x * x


def square(x: int) -> int:
    return x * x


@pytest.mark.parametrize("workers", [1, 2])
def test_everything_runs_when_until_never_says_stop(workers: int) -> None:
    seen: list[int] = []
    with executor(workers) as ex:
        out = ex.map_until(square, range(6), lambda i, r: seen.append(i) is not None)
    assert out == [0, 1, 4, 9, 16, 25]
    assert sorted(seen) == list(range(6))


def test_in_process_stops_after_the_item_that_settles_it() -> None:
    with executor(1) as ex:
        out = ex.map_until(square, range(6), lambda i, r: r == 4)
    assert out == [0, 1, 4, None, None, None]


def test_running_workers_are_stopped() -> None:
    """The slow items would sleep 120 s: the map returns once item 0 settles it, and the pool
    is usable again after."""
    with executor(2) as ex:
        out = ex.map_until(slow_square, [1, 0, 2, 3], lambda i, r: i == 1)
        assert out == [None, 0, None, None]
        assert ex.map(square, [3, 4]) == [9, 16]
