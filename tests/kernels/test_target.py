"""numba's target is set up without SciPy's linear algebra (``noughts.kernels.target``), and
everything that needs BLAS still gets it."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """
import json, sys
import numpy as np
from noughts.core.registry import game
from noughts.exact.fast import FastSolver
g = game("tictactoe")
value = FastSolver(g).value(g.start())
skipped = "scipy.linalg" not in sys.modules  # a kernel ran, and the probe did not load it
import numba
@numba.njit
def both(a, b):
    return np.dot(a, b), np.correlate(a, b)
a = np.array([1.0, 2.0, 3.0]); b = np.array([0.5, -1.0, 2.0])
dot, corr = both(a, b)
print(json.dumps({"value": value.outcome.value, "skipped": skipped, "linalg": "scipy.linalg" in sys.modules,
                  "dot": float(dot), "numpy_dot": float(np.dot(a, b)),
                  "corr": corr.tolist(), "numpy_corr": np.correlate(a, b).tolist()}))
"""


def test_a_kernel_runs_without_scipy_linalg_and_blas_still_serves_np_dot() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True, timeout=300
    )
    doc = json.loads(out.stdout.strip().splitlines()[-1])
    assert doc["value"] == "draw"
    assert doc["skipped"] is True
    # np.dot compiled later still asked for BLAS (numba's probe was put back) and got it
    assert doc["linalg"] is True
    assert doc["dot"] == doc["numpy_dot"]
    # np.correlate took numba's plain inner product: the same values as NumPy's
    assert doc["corr"] == doc["numpy_corr"]
