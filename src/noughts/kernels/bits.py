"""The bit primitives and the random stream of every numba kernel, each written once.

A mask of cells is a ``uint64`` (cell ``c`` is bit ``c``); a W-word mask is a row of them (see
:mod:`noughts.kernels.masks`, which builds on these).

* :func:`popcount` (the cells of a mask) and :func:`lowest_cell` (the index of its lowest set
  bit) are LLVM's ``ctpop`` and ``cttz``: one instruction on CPUs that have it, LLVM's own
  bit trick on the others;
* :func:`nth_cell`: the ``n``-th set cell (0-based, in increasing order), the choice a random
  move makes among the empty cells, listed as ``Position.legal_moves()`` lists them;
* :func:`cell_bit`: the mask of one cell;
* :func:`rng_next`, :func:`rng_uniform`, :func:`rng_below`: SplitMix64 on a state held in a
  one-element ``uint64`` array, operation for operation the plain reference
  :class:`noughts.kernels.rng.SplitMix64` (the tests hold them to it bit for bit), so a kernel
  makes exactly its reference's random choices; :func:`stream_start` is the start of stream
  ``i`` of a seed.

``popcount`` and ``lowest_cell`` are numba intrinsics: callable from numba code only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit
from numba.core import types
from numba.extending import intrinsic

from noughts.kernels import rng as reference
from noughts.kernels.target import skip_blas_probe

__all__ = [
    "GOLDEN",
    "INTERNAL",
    "ONE",
    "ZERO",
    "cell_bit",
    "entry",
    "internal",
    "lowest_cell",
    "nth_cell",
    "popcount",
    "rng_below",
    "rng_next",
    "rng_uniform",
    "stream_start",
]

skip_blas_probe()  # before any kernel sets up numba's target (noughts.kernels.target says why)

INTERNAL: Any = {"no_cfunc_wrapper": True}
"""The jit options of a function numba code calls and Python never does (an overload's body):
no C wrapper to build, which is a good part of a small function's first compile."""


def internal(fn: Callable[..., Any]) -> Any:
    """``@njit(cache=True)`` for a kernel's internal function, called from numba code only: no
    Python and no C wrapper are built for it (calling it from Python is then an error numba
    does not catch), which saves about a tenth of a kernel's first compile.
    """
    jit: Any = njit
    return jit(cache=True, no_cpython_wrapper=True, **INTERNAL)(fn)


def entry(fn: Callable[..., Any]) -> Any:
    """``@njit(cache=True)`` for a kernel that Python calls: its Python wrapper, no C wrapper."""
    jit: Any = njit
    return jit(cache=True, **INTERNAL)(fn)


ONE = np.uint64(1)
ZERO = np.uint64(0)
GOLDEN = np.uint64(reference.GAMMA)
"""2^64 over the golden ratio: SplitMix64's increment, and the multiplier of a Fibonacci hash."""

_MIX1 = np.uint64(reference.MIX1)
_MIX2 = np.uint64(reference.MIX2)
_STREAM = np.uint64(reference.STREAM)
_S11 = np.uint64(11)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@intrinsic
def _ctpop(typingctx: Any, x: types.Type) -> Any:
    """The number of set bits of an integer (``ctpop``), as an ``intp``."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return context.cast(builder, builder.ctpop(args[0]), sig.args[0], sig.return_type)

    return types.intp(x), codegen


@intrinsic
def _cttz(typingctx: Any, x: types.Type) -> Any:
    """The index of the lowest set bit of a non-zero integer (``cttz``; 64 for zero)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        low = builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
        return context.cast(builder, low, sig.args[0], sig.return_type)

    return types.intp(x), codegen


popcount: Callable[[Any], int] = _ctpop  # type: ignore[assignment]
"""The number of set bits of an integer (one ``ctpop``), as an ``intp``; numba code only."""

lowest_cell: Callable[[Any], int] = _cttz  # type: ignore[assignment]
"""The index of the lowest set bit of a non-zero integer (one ``cttz``); numba code only."""


@njit(cache=True, inline="always")
def nth_cell(x: np.uint64, n: int) -> int:
    """The ``n``-th set cell of mask ``x`` (0-based, lowest first); ``n < popcount(x)``.

    A select by halves without branches: if the low half holds no more than ``n`` cells, the
    cell is in the high half (skip the low half's cells and bits), and so on down to one bit:
    six popcounts, about ten times faster than clearing ``n`` low bits one by one (a random
    playout picks one cell per move this way).
    """
    pos = 0
    for sh in (32, 16, 8, 4, 2, 1):
        c = popcount(x & ((ONE << np.uint64(sh)) - ONE))
        up = n >= c
        n -= c * up
        x >>= np.uint64(sh * up)
        pos += sh * up
    return pos


@njit(cache=True, inline="always")
def cell_bit(c: int) -> np.uint64:
    """The mask of cell ``c``."""
    return ONE << np.uint64(c)


@njit(cache=True, inline="always")
def rng_next(st: np.ndarray) -> np.uint64:
    """The next 64 random bits of the generator whose state is ``st[0]`` (advanced)."""
    s = st[0] + GOLDEN
    st[0] = s
    z = s
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)  # type: ignore[no-any-return]


@njit(cache=True, inline="always")
def rng_uniform(st: np.ndarray) -> float:
    """A float in [0, 1) from the top 53 bits of the next draw."""
    return float(rng_next(st) >> _S11) * reference.TWO_TO_MINUS_53


@njit(cache=True, inline="always")
def rng_below(st: np.ndarray, n: int) -> int:
    """An integer in [0, n) from the top 32 bits of the next draw (multiply and shift; n < 2**32)."""
    return int(np.int64(((rng_next(st) >> _S32) * np.uint64(n)) >> _S32))


@njit(cache=True, inline="always")
def stream_start(seed: np.uint64, i: int) -> np.uint64:
    """The starting state of stream ``i`` of ``seed``: ``seed ^ (i * STREAM)`` (mod 2^64)."""
    return seed ^ (np.uint64(i) * _STREAM)
