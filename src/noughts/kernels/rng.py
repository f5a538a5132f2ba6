"""The one random stream of noughts' kernels: SplitMix64, the plain Python reference.

A search or a training run must repeat bit for bit from its seed, and a numba kernel must make
exactly the choices its Python reference makes, so both draw from this one generator (Steele,
Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014) rather than from
NumPy's or numba's global streams: the reference from :class:`SplitMix64` here, the kernels
from :func:`noughts.kernels.bits.rng_next` and its two companions, which the tests hold to it
bit for bit. Its whole state is one unsigned 64-bit integer, which a checkpoint stores; each
computation seeds its own, so nothing is shared between threads.

>>> r = SplitMix64(126)
>>> [r.below(9) for _ in range(5)]
[6, 5, 0, 2, 1]
>>> 0.0 <= r.uniform() < 1.0
True
"""

from __future__ import annotations

__all__ = ["GAMMA", "MASK64", "MIX1", "MIX2", "STREAM", "TWO_TO_MINUS_53", "SplitMix64", "derive_seed"]

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
"""The golden-ratio increment of the state."""
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
"""The two multipliers of the output mix (Stafford's variant 13)."""
STREAM = 0xD1B54A32D192ED03
"""Spreads a stream number over the state: stream ``i`` of a seed starts from ``seed ^ (i * STREAM)``."""
TWO_TO_MINUS_53 = 1.0 / 9007199254740992.0


def derive_seed(seed: int, stream: int) -> int:
    """A second, independent starting state from a user's seed (e.g. for random initial values)."""
    r = SplitMix64((seed ^ (stream * STREAM)) & MASK64)
    return r.next()


class SplitMix64:
    """SplitMix64: ``next()`` 64 random bits, ``uniform()`` in [0, 1), ``below(n)`` in [0, n)."""

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        return z ^ (z >> 31)

    def uniform(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next() >> 11) * TWO_TO_MINUS_53

    def below(self, n: int) -> int:
        """An integer in [0, n) (Lemire's multiply-shift on the top 32 bits; n < 2**32)."""
        return ((self.next() >> 32) * n) >> 32
