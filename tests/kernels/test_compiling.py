"""``compile_watch`` counts numba's compiles, not calls of compiled code; the CLI's notice says
so before the wait and after it."""

from __future__ import annotations

import numba
import pytest

from noughts.cli.progress import compile_notice
from noughts.kernels.compiling import compile_watch


def _fresh_kernel() -> numba.core.registry.CPUDispatcher:
    @numba.njit  # not cached: its first call compiles, in this process
    def add_one(x: int) -> int:
        return x + 1

    return add_one


def test_a_compile_is_seen_once_and_a_compiled_call_is_not() -> None:
    kernel = _fresh_kernel()
    started: list[int] = []
    with compile_watch(lambda: started.append(1)) as watch:
        assert kernel(1) == 2
        assert kernel(2) == 3  # the same signature: no second compile
    assert watch.compiles == 1 and watch.seconds > 0
    assert started == [1]
    with compile_watch() as again:
        assert kernel(3) == 4
    assert (again.compiles, again.seconds) == (0, 0.0)


def test_the_notice_comes_before_the_compile_and_its_time_after(capsys: pytest.CaptureFixture[str]) -> None:
    kernel = _fresh_kernel()
    with compile_notice():
        print("before")
        kernel(1)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("noughts: compiling the kernels for this machine")
    assert err[1].startswith("noughts: compiling took ") and "(1 kernel, cached now)" in err[1]
    with compile_notice():
        kernel(2)
    assert capsys.readouterr().err == ""  # nothing compiled, nothing said
