import math

import pytest

from noughts.core.errors import NoughtsError
from noughts.parallel import InProcessExecutor, ParallelError, ProcessExecutor, executor


def test_in_process_for_one_worker():
    with executor(1) as ex:
        assert isinstance(ex, InProcessExecutor)
        assert ex.map(abs, [-3, 2, -1], chunksize=2) == [3, 2, 1]


def test_process_pool_keeps_order_across_chunks():
    items = list(range(-50, 50))
    with executor(2) as ex:
        assert isinstance(ex, ProcessExecutor)
        assert ex.workers == 2
        assert ex.map(abs, items, chunksize=7, description="abs") == [abs(i) for i in items]
        assert ex.map(abs, []) == []
        # the pool is reused for a second map
        assert ex.map(math.isqrt, [0, 1, 4, 9, 17]) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("workers", [1, 2])
def test_worker_failure_names_the_item(workers):
    with executor(workers) as ex, pytest.raises(ParallelError, match=r"item 3 \(-1\).*math domain error"):
        ex.map(math.sqrt, [4, 9, 16, -1, 25], chunksize=2, description="roots")
    assert issubclass(ParallelError, NoughtsError)


def test_bad_arguments():
    with pytest.raises(NoughtsError, match="at least 1"):
        executor(0)
    with pytest.raises(NoughtsError, match="empty"):
        executor(2, address=" ")
    with executor(1) as ex, pytest.raises(NoughtsError, match="chunksize"):
        ex.map(abs, [1], chunksize=0)


def test_progress_is_told_to_a_callback_and_nothing_is_drawn(capsys):
    seen = []
    with executor(1) as ex:
        assert ex.map(
            abs, [-1, -2, -3], chunksize=1, description="abs", progress=lambda *p: seen.append(p)
        ) == [
            1,
            2,
            3,
        ]
    assert seen == [(1, 3, "abs"), (2, 3, "abs"), (3, 3, "abs")]
    told = []
    with executor(1, progress=lambda *p: told.append(p)) as ex:  # the executor's own, for every map
        assert ex.map_until(abs, [-4, -5], lambda i, r: r == 4) == [4, None]
    assert told == [(1, 2, "parallel work")]
    assert capsys.readouterr().err == ""


@pytest.mark.slow
def test_ray_local_backend():
    pytest.importorskip("ray")
    with executor(2, address="local") as ex:
        assert ex.name == "ray"
        assert ex.map(abs, range(-20, 0), chunksize=3, description="ray abs") == list(range(20, 0, -1))
        with pytest.raises(ParallelError, match=r"item 1 \(-4\)"):
            ex.map(math.sqrt, [1, -4, 9], chunksize=1)


def test_unpicklable_work_is_a_clear_error():
    with executor(2) as ex, pytest.raises(ParallelError, match="cannot be sent to worker processes"):
        ex.map(lambda x: x + 1, [1, 2, 3])
    # in-process needs no pickling
    with executor(1) as ex:
        assert ex.map(lambda x: x + 1, [1, 2]) == [2, 3]
