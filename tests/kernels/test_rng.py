import numpy as np

from noughts.kernels.rng import SplitMix64
from noughts.learn._td_kernels import rng_draws


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
