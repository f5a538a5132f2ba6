"""The threat-space search kernel (:mod:`noughts.proving._tss_kernels`), for numba kernels in other
packages: the engine's kernel (:mod:`noughts.agents._engine_kernel`) runs it as its VCF, so the
proof engine and the engine share one threat search. The reference it is held to is
:func:`noughts.proving.threats.threat_win` (``tests/exact/test_threats.py``).
"""

from __future__ import annotations

from noughts.kernels.codes import CUTOFF, FOUND, NOT_FOUND
from noughts.proving._tss_kernels import DEF_BREAKER, DEF_LINES, threat_search, workspace

__all__ = ["CUTOFF", "DEF_BREAKER", "DEF_LINES", "FOUND", "NOT_FOUND", "threat_search", "workspace"]
