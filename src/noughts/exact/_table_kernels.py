"""The numba kernel of :mod:`noughts.exact.table`'s array build, in a module of its own so that
importing the table module (and so ``import noughts``) does not load numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def find_rows(s0: np.ndarray, s1: np.ndarray, q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    """For each query ``(q0[i], q1[i])`` its row in the sorted, distinct ``(s0, s1)``; -1 if
    absent (which a correct DAG never gives).
    """
    out = np.empty(q0.size, dtype=np.int64)
    n = s0.size
    for i in range(q0.size):
        a = q0[i]
        b = q1[i]
        lo = 0
        hi = n
        while lo < hi:
            mid = (lo + hi) >> 1
            if s0[mid] < a or (s0[mid] == a and s1[mid] < b):
                lo = mid + 1
            else:
                hi = mid
        out[i] = lo if lo < n and s0[lo] == a and s1[lo] == b else -1
    return out
