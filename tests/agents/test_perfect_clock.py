"""The perfect player under a move time limit: the time its solver engine takes to be built is
the move's time too, so the solver's share is taken from what is left after it."""

from __future__ import annotations

import re
import time

import numpy as np

import noughts
from noughts.agents.perfect import SOLVER_SHARE, PerfectAgent
from noughts.core.budget import Budget


def test_the_solvers_share_is_of_the_time_left_after_the_engine_is_built(monkeypatch):
    g = noughts.game("hypercube(4,3)")
    p = g.start().play(g.parse_move("1,1,1"))  # Qubic is not solved in a fraction of a second
    agent = PerfectAgent()
    build = agent.policy

    def slow_build(game):
        time.sleep(0.4)  # a build that takes 0.4 s of the move's 1 s
        return build(game)

    monkeypatch.setattr(agent, "policy", slow_build)
    decision = agent.decide(p, np.random.default_rng(0), Budget(max_seconds=1.0))
    assert decision.proven is False and decision.move in p.legal_moves()
    given = float(re.search(r"did not finish in ([0-9.]+) s", decision.note).group(1))
    assert given <= SOLVER_SHARE * (1.0 - 0.4) + 1e-9  # not SOLVER_SHARE of the whole second
