"""The workers' warm-up loads every kernel a move or an analysis needs (a fresh interpreter, so
that nothing else in the test session has loaded them first)."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json
import noughts.web.warmup
from noughts.agents import _engine_kernel, _minimax_kernel
from noughts.pairing import _breaker_kernels
loaded = {
    "minimax": len(_minimax_kernel.run.signatures),
    "engine": len(_engine_kernel.root.signatures),
    "breaker": len(_breaker_kernels.search.signatures),
}
print(json.dumps(loaded))
"""


def test_the_warm_up_loads_the_minimax_kernel() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=600, check=True
    )
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded["minimax"] >= 1, loaded
    assert loaded["engine"] >= 1, loaded
    assert loaded["breaker"] >= 1, loaded  # the analysis of long lines (solve's Breaker row)
