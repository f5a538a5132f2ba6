"""numba's CPU target, set up without the SciPy import it makes only to pick an inner product.

The first kernel call of a process (cached or not) sets up numba's CPU target, which imports
``numba.np.arraymath``; that module asks at import whether SciPy's BLAS is there
(``_HAVE_BLAS = _check_blas()``), importing ``scipy.linalg``: about 0.13 s, a fifth of the
0.6 s floor under any answer a kernel gives (``bench/solve_process.py value-only``). The answer
is read in one place, to choose the inner product of ``np.correlate`` and ``np.convolve``
(BLAS's, or a plain loop that gives the same values). No kernel of noughts uses either.

:func:`skip_blas_probe` imports ``numba.np.arraymath`` with the probe answering "no BLAS" and
puts numba's probe back at once, so everything else that needs BLAS (``np.dot``,
``np.linalg``) still asks for it when it is compiled, and gets it. It does nothing where
SciPy's linear algebra is already loaded (the probe is then free) or the target is already set
up. :mod:`noughts.kernels.bits`, which every kernel of noughts stands on, calls it on import.
"""

from __future__ import annotations

import sys

__all__ = ["skip_blas_probe"]


def skip_blas_probe() -> bool:
    """Import ``numba.np.arraymath`` without its SciPy BLAS probe; True if the probe was skipped."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return False
    import numba.np.linalg as linalg

    probe = linalg.ensure_blas

    def no_blas() -> None:
        raise ImportError("BLAS not probed: noughts' kernels do not use it")

    linalg.ensure_blas = no_blas
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        linalg.ensure_blas = probe
    return True
