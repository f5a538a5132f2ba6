"""Every exact engine behind one typed protocol, and the portfolio that runs them.

An :class:`Engine` says what it is (``name``, the ``certificate`` kind it writes where it
writes one, whether its values carry ``distances``), which positions it takes
(``supports(game, position)``), answers one position under a :class:`~noughts.core.budget.Budget`
(``value(position, budget)``: the value, None where it declines the position, or
``LimitExceeded`` when the budget runs out), counts its ``nodes`` and reports them to a
``progress`` callback. An engine keeps its tables between questions, so a question asked again
after its budget ran out resumes from what the engine learnt (the alpha-beta kernel's and the
proof engine's transposition tables, the Breaker prover's proofs). The models are python-chess's
``chess/engine.py`` (one protocol, one ``Limit``) and GamesmanOne's solver table (every solver
behind one table of functions).

The engines of this package are adapters over the searches they wrap (:class:`Rules`,
:class:`Table`, :class:`Quotient`, :class:`AlphaBeta`, :class:`PythonSearch`, :class:`Proof`,
:class:`MisereCertifier`); the Breaker prover's lives with the policy, above ``pairing``
(:mod:`noughts.solving.policy`).

:class:`Portfolio` runs the engines that apply to a position **interleaved with doubling time
slices** (0.5 s each, then 1, 2, 4 ... s; a row may weigh its slices), each resuming where it
stopped, until one answers or the budget runs out: the time it takes is at most about the best
engine's time times the number of engines that run beside it (plus a slice), never a fixed trial
and a hand-over that leaves the position to a slower engine for good. Engines that answer at
once (rules, tables, quotients) are asked first and alone. The engine that answered a position
goes first on the next one (the moves of a position are seldom easier for another engine).

>>> import noughts
>>> from noughts.core import Budget
>>> g = noughts.game("tictactoe")
>>> p = Portfolio(g, (EngineRow("python", "every game", PythonSearch),))
>>> v, name = p.value(g.parse("xx./oo./..."), Budget(max_seconds=None))
>>> v.describe(g), name
('x wins in 1', 'python')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from noughts.core import Game, LimitExceeded, Outcome, Player, Position, Rule
from noughts.core.budget import Budget
from noughts.core.values import Value
from noughts.exact.reference import terminal_value

__all__ = [
    "FIRST_SLICE",
    "LOAD_NODES",
    "MEMORY_LIMIT",
    "PYTHON_SEARCH_CELLS",
    "PYTHON_TRIAL_CELLS",
    "PYTHON_TRIAL_NODES",
    "AlphaBeta",
    "BudgetedEngine",
    "CertifyingEngine",
    "Engine",
    "EngineRow",
    "MisereCertifier",
    "Portfolio",
    "Progress",
    "Proof",
    "PythonSearch",
    "Quotient",
    "Rules",
    "Table",
    "kernel_supports",
    "proof_supports",
    "write_proof_certificate",
]

Progress = Callable[[int], None]
"""Called with an engine's node count now and then, while it searches."""

FIRST_SLICE = 0.5
"""Seconds of an engine's first slice on a position (then twice as long each turn). As long as
the alpha-beta kernel's old trial, so every position the kernel answered within its trial it
still answers, with its distance."""

PYTHON_SEARCH_CELLS = 12
"""Boards up to this many cells are searched in Python: the searcher answers in milliseconds,
and loading the compiled kernel would cost more than the search."""

PYTHON_TRIAL_CELLS = 16
"""Boards of more than :data:`PYTHON_SEARCH_CELLS` and up to this many cells are searched in
Python first, for at most :data:`PYTHON_TRIAL_NODES` positions in all, and by the kernel only
if that does not answer: mnk(4,4,4) and its positions take the Python search a few hundred
positions (its pairing bounds), where the kernel's first use on a machine compiles it for
seconds (the first ``noughts solve "mnk(4,4,4)"`` on an empty numba cache: BENCHMARKS.md,
"Start-up and compiling")."""

PYTHON_TRIAL_NODES = 20_000
"""The most positions the Python search's trial takes (about a tenth of a second) before the
kernel is used instead, for good."""

LOAD_NODES = 1024
"""A first slice that searched no more nodes than this spent its time loading (on a new machine,
compiling) the engine's kernel rather than searching, and is given again at once."""


@runtime_checkable
class Engine(Protocol):
    """One exact engine of one game (see the module docstring)."""

    name: str
    """What a result names as the engine that answered: ``alpha-beta``, ``python``, ``proof``,
    ``breaker``, ``quotient``, ``retro``, ``table``, ``rules``, ``misere``."""
    certificate: str | None
    """The kind of certificate it writes of its values (:mod:`noughts.solving.certificates`), or None."""
    distances: bool
    """Whether its values carry the distance (``plies``) to the end of the game."""
    instant: bool
    """Whether it answers at once (a look-up): asked alone, before any engine that searches."""
    progress: Progress | None

    @property
    def nodes(self) -> int: ...

    def value(self, position: Position, budget: Budget) -> Value | None: ...


@runtime_checkable
class CertifyingEngine(Engine, Protocol):
    """An engine that writes a certificate of the value it just gave."""

    def write_certificate(
        self, position: Position, value: Value, path: str | Path, budget: Budget
    ) -> dict[str, Any]: ...


EngineFactory = Callable[[Game, Budget], Engine]
"""Builds a row's engine of a game; the budget bounds the tables it allocates at once."""


@dataclass(frozen=True)
class EngineRow:
    """One row of a policy: the engine ``name`` (``make(game)`` builds it) answers where
    ``supports(game, position)`` holds. ``weight(game)`` multiplies its time slices (the
    alpha-beta kernel's under misère rules: its misère pruning answers where the proof engine
    has none); ``certificate_only``: the row answers only where a certificate is asked for;
    ``instant``: its engine looks values up rather than searching.
    """

    name: str
    where: str
    make: EngineFactory
    supports: Callable[[Game, Position], bool] = lambda g, p: True
    weight: Callable[[Game], float] = lambda g: 1.0
    certifies: bool = False
    certificate_only: bool = False
    instant: bool = False
    """The engine answers at once (a look-up): it is asked alone, before the engines that search
    are made (making one allocates its tables)."""


class Portfolio:
    """The engines of ``rows`` for one game, made when first needed and kept (with their
    tables) for every later position; :meth:`value` runs those that apply interleaved (module
    docstring). ``progress`` is told the nodes of all its engines as they search.
    """

    def __init__(self, game: Game, rows: Sequence[EngineRow], progress: Progress | None = None):
        self.game = game
        self.rows = tuple(rows)
        self.made: dict[str, Engine] = {}
        self.progress = progress
        self.last: str | None = None
        """The row that answered the last position."""
        self.answered = ""
        """The engine (its ``name``) that answered the last position."""

    @property
    def nodes(self) -> int:
        return sum(e.nodes for e in self.made.values())

    def watch(self, progress: Progress | None) -> None:
        """Tell ``progress`` this portfolio's node count as its engines search."""
        self.progress = progress
        for engine in self.made.values():
            engine.progress = self._tick if progress is not None else None

    def _tick(self, _nodes: int) -> None:
        if self.progress is not None:
            self.progress(self.nodes)

    def engine(self, name: str, budget: Budget | None = None) -> Engine:
        """The engine of the row ``name`` (made on first use, its tables within ``budget``'s memory)."""
        made = self.made.get(name)
        if made is None:
            row = next(r for r in self.rows if r.name == name)
            made = self.made[name] = row.make(self.game, budget or Budget(max_seconds=None))
            made.progress = self._tick if self.progress is not None else None
        return made

    def applying(self, position: Position) -> list[EngineRow]:
        """The rows that take ``position``, in the policy's order, the last answering row first."""
        rows = [r for r in self.rows if r.supports(self.game, position)]
        if self.last is not None:
            rows.sort(key=lambda r: r.name != self.last)  # stable: the others keep their order
        return rows

    def value(self, position: Position, budget: Budget) -> tuple[Value, str]:
        """The value of ``position`` and the name of the engine that gave it; ``LimitExceeded``
        when ``budget`` runs out first (``NoughtsError`` where no row takes the position).
        """
        if position.is_terminal():
            self.answered = "rules"
            return terminal_value(position), "rules"
        rows = self.applying(position)
        if not rows:
            from noughts.core import NoughtsError

            raise NoughtsError(f"no engine of the policy takes {self.game}")
        searching: list[EngineRow] = []
        for row in rows:
            if row.instant:
                engine = self.engine(row.name, budget)
                found = engine.value(position, budget)
                if found is not None:
                    return self._answer(row, engine, found)
            else:
                searching.append(row)
        if not searching:
            from noughts.core import NoughtsError

            raise NoughtsError(f"no engine of the policy answers this position of {self.game}")
        return self._interleave(position, searching, budget)

    def _answer(self, row: EngineRow, engine: Engine, found: Value) -> tuple[Value, str]:
        self.last = row.name
        self.answered = engine.name
        return found, engine.name

    def _interleave(self, position: Position, rows: list[EngineRow], budget: Budget) -> tuple[Value, str]:
        """Doubling slices, round robin, until one answers (the module docstring)."""
        slices = {r.name: FIRST_SLICE * r.weight(self.game) for r in rows}
        loading = {r.name for r in rows}
        live = list(rows)
        full: LimitExceeded | None = None
        while live:
            for row in list(live):
                engine = self.engine(row.name, budget)
                alone = len(live) == 1
                seconds = None if alone else slices[row.name]
                before = engine.nodes
                try:
                    found = engine.value(position, _slice(budget, seconds))
                except LimitExceeded as stopped:
                    _whole(budget, stopped)  # the whole budget, if that is what ran out
                    if alone:
                        raise
                    if MEMORY_LIMIT in str(stopped):  # its tables are full: it cannot go on
                        live.remove(row)
                        full = stopped
                        continue
                    if row.name in loading and engine.nodes - before <= LOAD_NODES:
                        loading.discard(row.name)  # its time went to loading the kernel: again
                        continue
                    loading.discard(row.name)
                    slices[row.name] *= 2
                    continue
                if found is None:
                    live.remove(row)  # declined: the others go on
                    continue
                return self._answer(row, engine, found)
        if full is not None:
            raise full
        from noughts.core import NoughtsError

        raise NoughtsError(f"every engine of the policy declined this position of {self.game}")


MEMORY_LIMIT = "(the memory budget)"
"""How :meth:`~noughts.core.budget.Budget.check` says the memory ran out: an engine whose tables
are full leaves the portfolio (more time would not help it)."""


def _whole(budget: Budget, stopped: LimitExceeded) -> None:
    """``LimitExceeded`` where ``budget`` itself has run out, saying how far the engine got."""
    try:
        budget.check(0, "")
    except LimitExceeded as whole:
        _, _, progress = str(stopped).partition("; ")
        raise LimitExceeded(f"{whole}; {progress}" if progress else str(whole)) from None


def _slice(budget: Budget, seconds: float | None) -> Budget:
    """``budget``, or a slice of ``seconds`` of it (never past its own limits)."""
    if seconds is None:
        return budget
    left = budget.remaining()
    return Budget(
        max_seconds=seconds if left is None else min(seconds, left),
        max_memory=budget.max_memory,
    )


# -- the engines of this package ----------------------------------------------------------------


def kernel_supports(game: Game) -> bool:
    """Whether the alpha-beta kernel takes ``game`` (the kernels are optional)."""
    try:
        from noughts.exact import fast
    except ImportError:  # pragma: no cover - the kernels are optional: the Python search solves every game
        return False
    return fast.supports(game)


def proof_supports(game: Game) -> bool:
    """Whether the proof engine takes ``game`` (claim games: standard, misère, Maker-Breaker,
    cumulative).
    """
    return game.claim_rule is not None


class _Instant:
    """The shared parts of the engines that look values up (no search, no nodes)."""

    certificate: str | None = None
    distances = True
    instant = True

    def __init__(self) -> None:
        self.progress: Progress | None = None
        self.nodes = 0


class Rules(_Instant):
    """A finished position's value, by the rules."""

    name = "rules"

    def __init__(self, game: Game):
        super().__init__()
        self.game = game

    @staticmethod
    def supports(game: Game, position: Position) -> bool:
        return position.is_terminal()

    def value(self, position: Position, budget: Budget) -> Value | None:
        return terminal_value(position) if position.is_terminal() else None


class Table(_Instant):
    """A solved table's look-up (:class:`~noughts.exact.table.SolvedTable`, or a retrograde
    :class:`~noughts.retrograde.analysis.RetroTable`).
    """

    name = "table"

    def __init__(self, table: Any):
        super().__init__()
        self.table = table

    def value(self, position: Position, budget: Budget) -> Value | None:
        found: Value = self.table.value(position)
        return found


class Quotient(_Instant):
    """Notakto on many boards by the board's misère quotient (who wins, not how fast)."""

    name = "quotient"
    distances = False

    def __init__(self, game: Game):
        super().__init__()
        self.game = game
        self.inner: Any = None

    @staticmethod
    def supports(game: Game, position: Position) -> bool:
        from noughts.exact.quotient import quotient_engine

        return quotient_engine(game) is not None

    def value(self, position: Position, budget: Budget) -> Value | None:
        if self.inner is None:
            from noughts.exact.quotient import quotient_engine

            self.inner = quotient_engine(self.game)
            if self.inner is None:
                return None
        found: Value = self.inner.value(position)
        return found


class BudgetedEngine:
    """An engine over a search that reads its limits from a ``budget`` attribute: each question
    gives it the question's budget (the adapter owns the search, so no caller swaps it).
    """

    name: str = ""
    certificate: str | None = None
    distances: bool = True
    instant: bool = False

    def __init__(self, inner: Any):
        self.inner = inner
        self._progress: Progress | None = None

    @property
    def nodes(self) -> int:
        return int(self.inner.nodes)

    @property
    def progress(self) -> Progress | None:
        return self._progress

    @progress.setter
    def progress(self, callback: Progress | None) -> None:
        self._progress = callback
        self._watch(callback)

    def _watch(self, callback: Progress | None) -> None:
        self.inner.progress = callback

    def value(self, position: Position, budget: Budget) -> Value | None:
        self.inner.budget = budget
        found: Value = self.inner.value(position)
        return found

    def oracle(self) -> Any:
        """The wrapped search, as a plain oracle of values (its last budget kept)."""
        return self.inner


class AlphaBeta(BudgetedEngine):
    """The alpha-beta search of a bounded game: the numba kernel (:class:`~noughts.exact.fast.FastSolver`)
    on boards of more than :data:`~noughts.exact.api.PYTHON_SEARCH_CELLS` cells that it takes,
    else the Python search (``name`` says which answered: ``alpha-beta`` or ``python``). On
    boards of up to :data:`PYTHON_TRIAL_CELLS` cells the Python search tries first, for
    :data:`PYTHON_TRIAL_NODES` positions in all; past them the kernel takes over for good (so a
    game the Python search settles at once never compiles the kernel).
    """

    trying = False
    """Whether the Python search is on its trial (the kernel comes after it)."""

    def __init__(self, game: Game, budget: Budget, *, prefer_fast: bool | None = None):
        from noughts.exact.search import Searcher

        fast_ok = (
            game.board.num_cells > PYTHON_SEARCH_CELLS if prefer_fast is None else prefer_fast
        ) and kernel_supports(game)
        self.game = game
        self.trying = fast_ok and prefer_fast is None and game.board.num_cells <= PYTHON_TRIAL_CELLS
        if fast_ok and not self.trying:
            from noughts.exact.fast import FastSolver

            inner: Any = FastSolver(game, budget)
        else:
            inner = Searcher(game, budget)
            if self.trying:
                inner.max_nodes = PYTHON_TRIAL_NODES
        super().__init__(inner)
        self.name = str(inner.engine)

    def value(self, position: Position, budget: Budget) -> Value | None:
        if not self.trying:
            return super().value(position, budget)
        from noughts.exact.search import NodesExceeded

        try:
            return super().value(position, budget)
        except NodesExceeded:
            from noughts.exact.fast import FastSolver

            self.trying = False
            self._tried = int(self.inner.nodes)
            self.inner = FastSolver(self.game, budget)
            self.name = str(self.inner.engine)
            self._watch(self._progress)
            return super().value(position, budget)

    @property
    def nodes(self) -> int:
        return int(self.inner.nodes) + self._tried

    _tried = 0
    """The positions the Python search's trial searched before the kernel took over."""

    def _watch(self, callback: Progress | None) -> None:
        from noughts.exact.search import Searcher

        if isinstance(self.inner, Searcher):
            self.inner.on_progress = None if callback is None else (lambda s: callback(s.nodes))
        else:
            self.inner.progress = callback

    @staticmethod
    def supports(game: Game, position: Position) -> bool:
        return kernel_supports(game)


class PythonSearch(AlphaBeta):
    """The Python alpha-beta on every bounded game; retrograde analysis of a game that need not
    end (``name`` ``retro``: the whole table built on the first question).
    """

    def __init__(self, game: Game, budget: Budget):
        if game.properties.bounded:
            super().__init__(game, budget, prefer_fast=False)
        else:
            from noughts.retrograde.analysis import RetroOracle

            BudgetedEngine.__init__(self, RetroOracle(game, budget))
            self.name = "retro"

    @staticmethod
    def supports(game: Game, position: Position) -> bool:
        return True


class Proof(BudgetedEngine):
    """The proof engine (df-pn with threats, :class:`~noughts.proving.proof.ValueSearches`):
    who wins, not in how many plies. Its questions are asked from one side (the first position's
    mover), so a position and its moves share tables.
    """

    name = "proof"
    certificate: str | None = "strategy"
    distances = False

    def __init__(self, game: Game, budget: Budget):
        from noughts.proving.proof import ValueSearches

        super().__init__(ValueSearches(game, budget))
        self.viewer: Player | None = None

    @staticmethod
    def supports(game: Game, position: Position) -> bool:
        return proof_supports(game) and kernel_supports(game)

    def value(self, position: Position, budget: Budget) -> Value | None:
        from noughts.proving.proof import DRAW, WIN

        searches = self.inner
        searches.budget = budget
        game = position.game
        if game.properties.is_scored:
            found: Value = searches.value(position)
            return found
        if self.viewer is None:
            self.viewer = position.to_move
        viewer = self.viewer
        if searches.proves(position, viewer, WIN):
            return Value(Outcome.win_for(viewer), None)
        if game.properties.has_draws and searches.proves(position, viewer, DRAW):
            return Value(Outcome.DRAW, None)
        return Value(Outcome.win_for(viewer.other), None)

    def write_certificate(
        self, position: Position, value: Value, path: str | Path, budget: Budget
    ) -> dict[str, Any]:
        """The proof engine's strategies of ``value`` (:mod:`noughts.proving.strategy`)."""
        self.inner.budget = budget
        viewer = self.viewer if self.viewer is not None else position.to_move
        return write_proof_certificate(self.inner, position, viewer, value, path, budget)


class MisereCertifier(BudgetedEngine):
    """The certifying engine of misère games (``solve --certificate``): the alpha-beta kernel
    gives the value; a draw (each side's strategy to at least draw) is written by
    :mod:`noughts.exact.misere_strategy` (a mirror's strategy where one settles it, else the
    defence played out with the kernel's answers, ending at leaves the checker proves); a win
    by the proof engine, as for every other game.
    """

    name = "misere"
    certificate: str | None = "strategy"

    def __init__(self, game: Game, budget: Budget):
        from noughts.exact.fast import FastSolver

        super().__init__(FastSolver(game, budget))
        self.game = game

    @staticmethod
    def supports(game: Game, position: Position) -> bool:
        return game.claim_rule == Rule.MISERE and kernel_supports(game)

    def write_certificate(
        self, position: Position, value: Value, path: str | Path, budget: Budget
    ) -> dict[str, Any]:
        from noughts.exact.misere_strategy import defence_strategy, mirror_strategy
        from noughts.proving.strategy import certificate_record

        if value.outcome is not Outcome.DRAW:
            proof = Proof(self.game, budget)
            proof.viewer = position.to_move
            return proof.write_certificate(position, value, path, budget)
        solver = self.inner
        solver.budget = budget
        shown = self.progress
        tick = None if shown is None else (lambda _: shown(solver.nodes))
        strategies = []
        for player in (Player.FIRST, Player.SECOND):
            strategy = mirror_strategy(position, player)
            if strategy is None:
                strategy = defence_strategy(position, player, budget, tick, solver=solver)
            strategies.append(strategy)
        return certificate_record(path, strategies, "draw", {"engine": "alpha-beta"})


def write_proof_certificate(
    searches: Any, position: Position, viewer: Player, value: Value, path: str | Path, budget: Budget
) -> dict[str, Any]:
    """The certificate of ``value`` from the proof engine's searches that proved it (``searches``:
    a :class:`~noughts.proving.proof.ValueSearches`; see :mod:`noughts.proving.strategy`).
    """
    from noughts.proving.proof import DRAW, WIN
    from noughts.proving.strategy import certificate_record, extract_strategy

    game = position.game
    if game.properties.is_scored:
        s = value.score
        assert s is not None
        parts = [
            searches.search(Player.FIRST, s),  # first reaches s: its strategy
            searches.search(Player.FIRST, s + 1),  # first does not reach s + 1: second's strategy
        ]
        claim_value: Any = {"score": s}
    elif value.outcome is Outcome.DRAW:
        parts = [searches.search(viewer, DRAW), searches.search(viewer, WIN)]
        claim_value = "draw"
    elif value.outcome.winner is viewer:
        parts = [searches.search(viewer, WIN)]
        claim_value = value.outcome.value
    else:
        parts = (
            [searches.search(viewer, DRAW)] if game.properties.has_draws else [searches.search(viewer, WIN)]
        )
        claim_value = value.outcome.value
    strategies = [extract_strategy(search, search.prove(position), budget) for search in parts]
    strategies.sort(key=lambda st: int(st.player))

    return certificate_record(path, strategies, claim_value, {"engine": "proof"})
