"""Exact analysis: values, best moves, distances, counts and solved tables.

The solver is noughts' source of truth: the perfect player, hints and the grades of learning
agents all come from it. Every algorithm here has a plain reference over the public position
API (:mod:`noughts.exact.reference`) that the fast paths are tested against.

The one ``solve`` is :func:`noughts.solving.solve` (``noughts.solve``): it runs this package's
engines (:mod:`noughts.exact.engines`) and the Breaker prover under one policy. The Python
engines load with the package; solved tables (whose retrograde pass is compiled
with numba) load when first named.
"""

from typing import TYPE_CHECKING, Any

from noughts.core.budget import Budget
from noughts.core.values import WIN, MoveValue, SolveResult, Value, from_int, to_int
from noughts.exact.api import best_moves, make_engine, move_values, principal_variation
from noughts.exact.reference import reference_values
from noughts.exact.search import Searcher

if TYPE_CHECKING:
    from noughts.exact.table import SolvedTable, TableError, build_table

__all__ = ["WIN", "Budget", "MoveValue", "SolveResult", "Value", "from_int", "to_int"]
__all__ += ["Searcher", "SolvedTable", "TableError", "best_moves", "build_table", "make_engine"]
__all__ += ["move_values", "principal_variation", "reference_values"]

_LAZY = {"SolvedTable", "TableError", "build_table"}


def __getattr__(name: str) -> Any:
    if name in ("solve", "solve_split"):
        raise AttributeError(
            f"noughts.exact has no {name}: the one {name} is noughts.solving.{name} (noughts.{name}),"
            " under the one policy of every engine"
        )
    if name not in _LAZY:
        raise AttributeError(f"module 'noughts.exact' has no attribute {name!r}")
    from noughts.exact import table

    value = getattr(table, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | _LAZY)
