"""The one policy: which exact engine answers a position, for everyone who asks.

:data:`POLICY` is a table of :class:`~noughts.exact.engines.EngineRow` (GamesmanOne's solver
table is the model): every exact engine noughts has, each behind the typed
:class:`~noughts.exact.engines.Engine` protocol, with the positions it takes. The rows that take
a position run as a :class:`~noughts.exact.engines.Portfolio`: the instant ones (rules, a solved
table, Notakto's quotient) first and alone, then the searching ones interleaved with doubling
time slices, each resuming with its tables, until one answers. ``noughts.solve`` (:func:`solve`),
:func:`solve_split`, the perfect player, grading, review, hints and explanations and the web
worker's analysis all ask it (:func:`solve`, or :class:`PolicyOracle` where they ask values
position by position), so they answer every position with the same engine and value.

The Breaker prover's row lives here because ``exact`` sits below ``pairing`` in the layers: the
rows are declared once, in this table, above both.

>>> r = solve("mnk(6,6,5)", value_only=True)  # the Breaker prover, beside the alpha-beta kernel
>>> r.value.describe(r.game), r.engine
('draw', 'breaker')
>>> [row.name for row in POLICY]
['quotient', 'alpha-beta', 'breaker', 'misere', 'proof', 'python']
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from noughts.core import Budget, Game, NoughtsError, Position, Rule
from noughts.core.values import MoveValue, SolveResult, Value
from noughts.exact.api import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_SECONDS,
    Steps,
    as_game,
    as_position,
    engine_names,
    rows_for,
    solve_with,
)
from noughts.exact.engines import (
    AlphaBeta,
    BudgetedEngine,
    EngineRow,
    MisereCertifier,
    Portfolio,
    Proof,
    PythonSearch,
    Quotient,
    kernel_supports,
)

__all__ = [
    "BREAKER_WEIGHT",
    "MISERE_WEIGHT",
    "POLICY",
    "Breaker",
    "PolicyOracle",
    "choose_engine",
    "engines_for",
    "solve",
    "solve_split",
]

MISERE_WEIGHT = 3.0
"""How much longer the alpha-beta kernel's slices are than the others' under misère rules (it
gets three quarters of the time beside the proof engine): the kernel's misère pruning (pairings
of a side's lines, mirrors, dead cells; :mod:`noughts.exact._kernels`) answers misère(mnk(5,5,4))
in about a minute, where the proof engine, which has none of it, does not finish in ten
(BENCHMARKS.md, "misère(mnk(5,5,4))")."""


class Breaker(BudgetedEngine):
    """The Breaker prover (:class:`~noughts.breaker.values.BreakerValues`: Breaker
    search with pairing leaves) as an engine: who wins, with the argument; certificates of the
    defender's strategy with pairing leaves.
    """

    name = "breaker"
    certificate: str | None = "breaker"
    distances = False

    def __init__(self, game: Game, budget: Budget):
        from noughts.breaker.values import BreakerValues

        super().__init__(BreakerValues(game, budget))

    @staticmethod
    def supports(game: Game, position: Position) -> bool:
        from noughts.breaker.values import breaker_applies

        return breaker_applies(game, position)

    def argument(self) -> str:
        """How the last value follows from its proofs."""
        return str(self.inner.argument())

    def write_certificate(
        self, position: Position, value: Value, path: str | Path, budget: Budget
    ) -> dict[str, Any]:
        self.inner.budget = budget
        header: dict[str, Any] = self.inner.write_certificate(position, value, path)
        return header


BREAKER_WEIGHT = 4.0
"""How much longer the Breaker prover's slices are than the others' (its first: 2 s). An
interrupted Breaker proof starts again (it keeps finished proofs, not a table of the unfinished
one), so short slices waste it; the draws it proves take 0.03 s (mnk(6,6,5)) to 1.3 s
(mnk(7,7,5)) and are answered in its first slice, after the alpha-beta kernel's first half
second (``bench/policy.py``: with equal slices mnk(7,7,5) took 6.3 times the prover's time)."""


def _misere_weight(game: Game) -> float:
    return MISERE_WEIGHT if game.claim_rule == Rule.MISERE else 1.0


POLICY: tuple[EngineRow, ...] = (
    EngineRow(
        "quotient",
        "Notakto on more than two boards: the board's misère quotient (who wins, not how fast), at once",
        lambda g, b: Quotient(g),
        Quotient.supports,
        instant=True,
    ),
    EngineRow(
        "alpha-beta",
        "claim games: the alpha-beta kernel (the Python search on boards of up to 12 cells, and first,"
        " for 20,000 positions, on up to 16), with"
        f" distances; {MISERE_WEIGHT:g} times the others' slices under misère rules",
        AlphaBeta,
        AlphaBeta.supports,
        weight=_misere_weight,
    ),
    EngineRow(
        "breaker",
        "standard and Maker-Breaker games on lines of 5 cells or more: the Breaker prover (Breaker"
        f" search with pairing leaves), for the draws alpha-beta never finishes; {BREAKER_WEIGHT:g} times the"
        " others' slices",
        Breaker,
        Breaker.supports,
        weight=lambda g: BREAKER_WEIGHT,
        certifies=True,
    ),
    EngineRow(
        "misere",
        "misère claim games, with a certificate: the alpha-beta kernel's value, a draw certified by"
        " strategies that end at leaves the checker proves (mirrors, pairings, the horizon)",
        MisereCertifier,
        MisereCertifier.supports,
        certifies=True,
        certificate_only=True,
    ),
    EngineRow(
        "proof",
        "claim games: the proof engine (df-pn with threats), who wins but not how fast",
        Proof,
        Proof.supports,
        certifies=True,
    ),
    EngineRow(
        "python",
        "every game the kernel does not take: the Python alpha-beta (veto, Notakto, Otrio),"
        " retrograde analysis for games that need not end",
        PythonSearch,
        lambda g, p: not kernel_supports(g),
    ),
)
"""The one policy (module docstring): the rows that take a position run interleaved, in this
order on the first slice; ``misere`` answers only for ``solve --certificate``."""


def engines_for(game: Game, *, table: Any = None, engine: str = "auto") -> Portfolio:
    """The policy's engines for ``game`` as a :class:`~noughts.exact.engines.Portfolio` to keep
    (its tables serve every later question; pass it to :func:`solve` as ``portfolio``).
    """
    return Portfolio(game, rows_for(game, game.start(), POLICY, engine, table, None))


class PolicyOracle:
    """The policy as a plain oracle of values (``value(position) -> Value``), for those who ask
    position by position (the perfect player, grading, review): its engines kept with their
    tables, each question under ``budget`` (None: no time limit, 2 GiB of tables), which the
    caller may replace between questions. ``engine`` names what answered the last one.
    """

    def __init__(self, game: Game, budget: Budget | None = None, *, table: Any = None):
        self.game = game
        self.budget = budget if budget is not None else Budget(max_seconds=None)
        self.portfolio = engines_for(game, table=table)
        self.engine = ""

    @property
    def nodes(self) -> int:
        return self.portfolio.nodes

    def value(self, position: Position) -> Value:
        return self.value_within(position, self.budget)

    def value_within(self, position: Position, budget: Budget) -> Value:
        """The value of ``position`` under ``budget`` (a move's clock) instead of the oracle's."""
        if position.game != self.game:
            raise NoughtsError(f"the position is one of {position.game}, not of {self.game}")
        found, self.engine = self.portfolio.value(position, budget)
        return found


def solve(
    game: Game | str,
    position: Position | str | None = None,
    *,
    budget: Budget | None = None,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    max_cpu_seconds: float | None = None,
    table: Any = None,
    progress: Steps | None = None,
    engine: str = "auto",
    value_only: bool = False,
    certificate: str | Path | None = None,
    anytime: bool = False,
    on_value: Callable[[Value], None] | None = None,
    on_move: Callable[[MoveValue, int, int], None] | None = None,
    portfolio: Portfolio | None = None,
) -> SolveResult:
    """Solve ``position`` (the start by default; a position or its text) of ``game`` (a game or
    a spec) exactly under :data:`POLICY`: value first, then every legal move's value, then the
    principal variation.

    ``engine`` names one engine of the policy (``alpha-beta``: the numba kernel, ``python``:
    the Python alpha-beta, ``proof``: the proof engine, ``breaker``: the Breaker prover);
    ``auto`` runs the rows that apply as a portfolio (:mod:`noughts.exact.engines`), and
    ``table`` (a :class:`~noughts.exact.table.SolvedTable` of this game) answers by look-up.
    The result names the engine that answered the position's value (and, from the Breaker
    prover, its ``argument``). The proof engine and the Breaker prover prove who wins, not in
    how many plies (their values' ``plies`` are None; no principal variation). ``value_only``
    stops after the position's value. ``certificate`` (a path) has a certifying row (the
    Breaker prover, the misère certifier, the proof engine) prove the value and write a
    certificate of it (``noughts solve check`` verifies it).

    ``budget`` bounds the work (or ``max_seconds``, ``max_cpu_seconds`` and ``max_memory``:
    bytes, None for no limit, make one). Over budget, ``LimitExceeded`` says how far it got,
    unless ``anytime`` is set and the value was proved: the result then has ``complete=False``
    and the moves proved so far. ``on_value`` is called with the value as soon as it is proved,
    ``on_move`` with each move's value (its index and the number of moves) as soon as that is.
    ``progress`` (:data:`~noughts.exact.api.Steps`) is told ``(done, total, description)``: the
    positions valued of those to value, the step under way and the nodes searched (the command
    line draws it; the library draws nothing). ``portfolio`` (:func:`engines_for`) keeps engines and their
    tables from one call to the next.
    """
    if budget is None:
        budget = Budget(max_seconds=max_seconds, max_memory=max_memory, max_cpu_seconds=max_cpu_seconds)
    return solve_with(
        POLICY,
        game,
        position,
        budget=budget,
        table=table,
        progress=progress,
        engine=engine,
        value_only=value_only,
        certificate=certificate,
        anytime=anytime,
        on_value=on_value,
        on_move=on_move,
        portfolio=portfolio,
    )


def solve_split(game: Game | str, position: Position | str | None = None, **options: Any) -> SolveResult:
    """:func:`noughts.exact.split.solve_split` under :data:`POLICY`: every job's position (and
    the position itself where a split would reach past the end of every game) is solved by
    :func:`solve`. The options are the split's.

    >>> r = solve_split("tictactoe", workers=1, value_only=True)
    >>> r.value.describe(r.game), r.split["jobs"]
    ('draw', 3)
    """
    from noughts.exact.split import solve_split as split

    engine = options.get("engine", "auto")
    names = engine_names(POLICY)
    if engine != "auto" and engine not in names:
        raise NoughtsError(f"unknown engine {engine!r}: choose auto, {', '.join(names)}")
    return split(game, position, solver=solve, **options)


def choose_engine(game: Game | str, position: Position | str | None = None) -> str:
    """The first engine :data:`POLICY` runs on ``position`` (default: the start)."""
    g = as_game(game)
    p = as_position(g, position)
    for row in POLICY:
        if not row.certificate_only and row.supports(g, p):
            return row.name
    raise NoughtsError(f"no engine of the policy takes {g}")
