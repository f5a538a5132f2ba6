"""The numbered state space now lives in :mod:`noughts.exact.states`, below both ``agents``
and ``learn``; this name stays for code written against earlier versions.
"""

from noughts.exact.states import (
    DEFAULT_MAX_STATES,
    OUTCOME_CODES,
    StateSpace,
    claim_position,
    enumerate_claim,
    enumerate_reference,
    exact_values,
    optimal_action_sets,
    state_space,
    terminal_values,
)

__all__ = [
    "DEFAULT_MAX_STATES",
    "OUTCOME_CODES",
    "StateSpace",
    "claim_position",
    "enumerate_claim",
    "enumerate_reference",
    "exact_values",
    "optimal_action_sets",
    "state_space",
    "terminal_values",
]
