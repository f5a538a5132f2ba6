"""Exact analysis: values, best moves, distances, counts and solved tables.

The solver is noughts' source of truth: the perfect player, hints and the grades of learning
agents all come from it. Every algorithm here has a plain reference over the public position
API (:mod:`noughts.solve.reference`) that the fast paths are tested against.
"""

from noughts.solve.result import WIN, Budget, MoveValue, SolveResult, Value, from_int, to_int

__all__ = ["WIN", "Budget", "MoveValue", "SolveResult", "Value", "from_int", "to_int"]
