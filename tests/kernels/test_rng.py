import numpy as np
from numba import njit

from noughts.kernels.bits import rng_below, rng_next, rng_uniform
from noughts.kernels.rng import SplitMix64


@njit
def rng_draws(seed, count, kind, n):  # type: ignore[no-untyped-def]
    """``count`` draws of the numba stream: kind 0 raw bits, 1 uniform, 2 below(n)."""
    st = np.empty(1, np.uint64)
    st[0] = seed
    out = np.empty(count, np.float64)
    raw = np.empty(count, np.uint64)
    for i in range(count):
        if kind == 0:
            raw[i] = rng_next(st)
        elif kind == 1:
            out[i] = rng_uniform(st)
        else:
            out[i] = rng_below(st, n)
    return raw, out


def test_splitmix_reference_value():
    # the first output of SplitMix64 seeded 0 (Steele, Lea, Flood 2014; also Java's SplittableRandom)
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


def test_kernel_stream_equals_python_stream():
    for seed in (0, 126, 2**63 + 5):
        raw, _ = rng_draws(np.uint64(seed), 50, 0, 0)
        r = SplitMix64(seed)
        assert [int(x) for x in raw] == [r.next() for _ in range(50)]
        _, u = rng_draws(np.uint64(seed), 50, 1, 0)
        r = SplitMix64(seed)
        assert list(u) == [r.uniform() for _ in range(50)]
        _, b = rng_draws(np.uint64(seed), 200, 2, 7)
        r = SplitMix64(seed)
        assert [int(x) for x in b] == [r.below(7) for _ in range(200)]


def test_below_is_roughly_uniform():
    r = SplitMix64(9)
    counts = np.bincount([r.below(9) for _ in range(9000)], minlength=9)
    assert counts.min() > 850 and counts.max() < 1150
