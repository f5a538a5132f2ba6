"""numba helpers shared by the learn kernels: the splitmix64 generator and bit-board tests.

The generator mirrors :class:`noughts.kernels.rng.SplitMix64` operation for operation (the plain
reference every kernel is held to bit for bit); the bit-board helpers work on ``int64`` boards
of up to 63 cells whose winning lines are given as masks. The generator's functions are inlined
into their callers by numba (``inline="always"``), so sharing them costs the kernels nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S11 = np.uint64(11)
S32 = np.uint64(32)
TWO_TO_MINUS_53 = 1.0 / 9007199254740992.0


@njit(cache=True, inline="always")
def rng_next(st):  # type: ignore[no-untyped-def]
    """The next 64 random bits of the generator whose state is ``st[0]`` (advanced)."""
    s = st[0] + GAMMA
    st[0] = s
    z = s
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@njit(cache=True, inline="always")
def rng_uniform(st):  # type: ignore[no-untyped-def]
    """A float in [0, 1) from the top 53 bits of the next draw."""
    return float(rng_next(st) >> S11) * TWO_TO_MINUS_53


@njit(cache=True, inline="always")
def rng_below(st, n):  # type: ignore[no-untyped-def]
    """An integer in [0, n) from the top 32 bits of the next draw (multiply and shift)."""
    return np.int64(((rng_next(st) >> S32) * np.uint64(n)) >> S32)


@njit(cache=True)
def popcount(x):  # type: ignore[no-untyped-def]
    """The number of set bits of ``x`` (as a uint64)."""
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def completes(bits, cell, through, nthrough):  # type: ignore[no-untyped-def]
    """Whether claiming ``cell`` on top of ``bits`` fills a line: ``through[cell, :nthrough[cell]]``
    are the masks of the lines through ``cell``.
    """
    b = bits | (np.int64(1) << cell)
    for t in range(nthrough[cell]):
        m = through[cell, t]
        if b & m == m:
            return True
    return False
