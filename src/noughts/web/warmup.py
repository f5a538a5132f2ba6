"""Importing this module loads the compiled kernels the arena's workers use (the exact solver in
one word and in several, MCTS in one word and in several, the minimax search, the engine, the
counting arrays, the Breaker prover), so that the process the workers are forked from (:mod:`noughts.web.workers`)
has them in memory and every worker starts warm: a move or an analysis never waits for numba.
It is imported only there; ``tests/web/test_web_warmup.py`` checks what it loads.
"""

from __future__ import annotations

import contextlib

import numpy as np

import noughts
from noughts.core import LimitExceeded
from noughts.core.budget import Budget


def _warm() -> None:
    from noughts.agents.mcts import MCTSAgent
    from noughts.exact import fast

    for spec in ("mnk(4,4,3)", "hypercube(5,3)"):  # one word, several words
        game = noughts.game(spec)
        solver = fast.FastSolver(game, Budget(max_seconds=0.2, max_memory=2**24))
        with contextlib.suppress(LimitExceeded):
            solver.value(game.start())
    for spec in ("mnk(4,4,3)", "mnk(9,9,5)"):  # one word, several words
        MCTSAgent(16).choose(noughts.game(spec).start(), np.random.default_rng(0))
    from noughts.agents.minimax import MinimaxAgent

    # the minimax kernel (one compiled search for every claim game; its first move cost 2-5 s)
    MinimaxAgent(2).choose(noughts.game("mnk(4,4,3)").start(), np.random.default_rng(0))
    from noughts.agents.engine import EngineAgent

    EngineAgent(0.01).choose(noughts.game("mnk(4,4,3)").start(), np.random.default_rng(0))
    EngineAgent(0.01).move_values(noughts.game("mnk(4,4,3)").start(), 0.01)  # the overlay's view
    noughts.count("mnk(3,3,3)", symmetry=False)
    from noughts.pairing.breaker import prove_breaker

    # the Breaker prover: the analysis of games on long lines has noughts solve's Breaker row
    prove_breaker("mnk(5,2,5)", budget=Budget(max_seconds=1, max_memory=2**26))


try:
    with contextlib.suppress(ImportError):  # numba missing: the workers run the Python paths
        _warm()
except KeyboardInterrupt:  # Ctrl-C while the server starts: the forkserver ends without a traceback
    raise SystemExit(130) from None
