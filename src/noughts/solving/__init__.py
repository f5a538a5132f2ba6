"""``noughts solve``: every engine noughts has, under one policy, and every certificate's checker.

:mod:`noughts.exact.api` holds the exact engines (the alpha-beta kernel, the Python search, the
proof engine, solved tables, misère quotients) and their policy. The Breaker prover
(:mod:`noughts.pairing`) sits above ``exact`` in the layers, so ``exact`` cannot call it; this
package, above both, composes them: :data:`SOLVE_POLICY` is ``exact``'s policy with the Breaker
prover's row after the alpha-beta kernel's trial where lines are long (it proves the draws of
mnk(6,6,5) and mnk(7,7,5) in hundredths of a second to a second or two, where alpha-beta never
finishes), with a share of the budget, after which the proof engine takes the position over.
Where the alpha-beta kernel answers within its trial (mnk(5,5,5)), it still answers, with the
distance.
:func:`solve` is :func:`noughts.exact.api.solve` under this policy (``noughts.solve`` and the
``solve`` command call it); :func:`check_certificate` checks a certificate of any kind
(:data:`CERTIFICATE_KINDS`, the one table of kinds: :mod:`noughts.solving.certificates`).

>>> r = solve("mnk(6,6,5)", value_only=True)  # the alpha-beta kernel's trial, then the prover
>>> r.value.describe(r.game), r.engine
('draw', 'breaker')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from noughts.core import Budget, Game, Position
from noughts.exact.api import DEFAULT_MAX_MEMORY, DEFAULT_MAX_SECONDS, ENGINE_POLICY, EngineRule
from noughts.exact.api import solve as exact_solve
from noughts.exact.result import MoveValue, SolveResult, Value
from noughts.solving.certificates import CERTIFICATE_KINDS, check_certificate

__all__ = [
    "BREAKER_SHARE",
    "CERTIFICATE_KINDS",
    "SOLVE_POLICY",
    "check_certificate",
    "choose_engine",
    "solve",
    "solve_split",
]

BREAKER_SHARE = 0.5
"""The share of the budget left that the Breaker prover gets on a position before the exact
engines take it over (a Maker win it does not disprove in that time is theirs to find)."""


def _breaker_applies(game: Game, position: Position) -> bool:
    from noughts.pairing.breaker_values import breaker_applies

    return breaker_applies(game, position)


def _make_breaker(game: Game, budget: Budget) -> Any:
    from noughts.pairing.breaker_values import BreakerValues

    return BreakerValues(game, budget)


BREAKER_ROW = EngineRule(
    "breaker",
    "standard and Maker-Breaker games on lines of 5 cells or more: the Breaker prover (Breaker search"
    f" with pairing leaves), {BREAKER_SHARE:g} of the budget left, then the engines below",
    _breaker_applies,
    share=BREAKER_SHARE,
    make=_make_breaker,
    certifies=True,
)

SOLVE_POLICY: tuple[EngineRule, ...] = (
    *(r for r in ENGINE_POLICY if r.name == "quotient"),
    *(dataclasses.replace(r, trial_once=True) for r in ENGINE_POLICY if r.name == "alpha-beta"),
    BREAKER_ROW,
    *(r for r in ENGINE_POLICY if r.name not in ("quotient", "alpha-beta")),
)
"""The automatic choice of ``noughts solve``: :data:`noughts.exact.api.ENGINE_POLICY` with the
Breaker prover's row after the alpha-beta kernel's trial (so every position the kernel answered
before, it answers still, with its distance) and before the proof engine. Where the kernel's
trial runs out on the position asked, its moves skip the trial (``trial_once``): on mnk(6,6,5)
half a second for each of 36 moves that the prover answers in milliseconds."""


def solve(
    game: Game | str,
    position: Position | str | None = None,
    *,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    max_cpu_seconds: float | None = None,
    table: Any = None,
    progress: bool = False,
    engine: str = "auto",
    value_only: bool = False,
    certificate: str | Path | None = None,
    anytime: bool = False,
    on_value: Callable[[Value], None] | None = None,
    on_move: Callable[[MoveValue, int, int], None] | None = None,
    policy: tuple[EngineRule, ...] = SOLVE_POLICY,
) -> SolveResult:
    """Solve ``position`` of ``game`` exactly under :data:`SOLVE_POLICY`: the options, the result
    and the budgets are those of :func:`noughts.exact.api.solve` (``engine="breaker"`` names the
    Breaker prover). A value the Breaker prover proved names the engine ``"breaker"`` and says
    its argument (``result.argument``); its certificate (``certificate=PATH``) is the defender's
    strategy with pairing leaves.
    """
    return exact_solve(
        game,
        position,
        max_seconds=max_seconds,
        max_memory=max_memory,
        max_cpu_seconds=max_cpu_seconds,
        table=table,
        progress=progress,
        engine=engine,
        value_only=value_only,
        certificate=certificate,
        anytime=anytime,
        on_value=on_value,
        on_move=on_move,
        policy=policy,
    )


def solve_split(game: Game | str, position: Position | str | None = None, **options: Any) -> SolveResult:
    """:func:`noughts.exact.split.solve_split` under :data:`SOLVE_POLICY`: every job's position
    (and the position itself where a split would reach past the end of every game) is solved
    by :func:`solve`, the Breaker prover's row included. The options are ``solve_split``'s.

    >>> r = solve_split("tictactoe", workers=1, value_only=True)
    >>> r.value.describe(r.game), r.split["jobs"]
    ('draw', 3)
    """
    from noughts.core import NoughtsError
    from noughts.exact.split import solve_split as split

    engine = options.get("engine", "auto")
    names = tuple(dict.fromkeys(r.name for r in SOLVE_POLICY if r.name not in ("quotient", "table")))
    if engine != "auto" and engine not in names:
        raise NoughtsError(f"unknown engine {engine!r}: choose auto, {', '.join(names)}")
    return split(game, position, solver=solve, **options)


def choose_engine(game: Game, position: Position | None = None) -> str:
    """The first engine :data:`SOLVE_POLICY` tries on ``position`` (default: the start; the
    alpha-beta kernel's trial comes before the Breaker prover's row).
    """
    from noughts.exact.api import choose_engine as choose

    return choose(game, position, SOLVE_POLICY)
