"""``solve``: the value of a position, of every legal move, and the principal variation.

One entry point over three engines, which all answer ``value(position) -> Value`` (see
:class:`ValueOracle`): the numba kernel (:mod:`noughts.exact.fast`) for the claim games it
takes, the Python alpha-beta (:class:`noughts.exact.search.Searcher`) for everything else, or a
solved table (:class:`noughts.exact.table.SolvedTable`) when one is given. Values, distances,
the order of moves and the principal variation are defined once, in
:mod:`noughts.exact.reference`.

>>> import noughts
>>> r = solve("tictactoe", "xx./oo./...")
>>> r.value.describe(r.game)
'x wins in 1'
>>> [(r.game.format_move(m.move), m.value.describe(r.game)) for m in r.moves]
[('c1', 'x wins in 0'), ('c2', 'draw'), ('a3', 'o wins in 1'), ('b3', 'o wins in 1'), ('c3', 'o wins in 1')]
>>> [r.game.format_move(m) for m in r.pv]
['c1']

A move's value is the value of the position it leads to: after c1 the game is over (won in
0 plies); after c2 o must block a3 and draws.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from noughts.core import Game, LimitExceeded, Move, NoughtsError, Outcome, Player, Position, Rule
from noughts.core import game as make_game
from noughts.core.budget import AUTO_SECONDS, Budget
from noughts.exact.quotient import quotient_engine
from noughts.exact.reference import after_move, move_key, terminal_value
from noughts.exact.result import MoveValue, SolveResult, Value
from noughts.exact.search import Searcher

if TYPE_CHECKING:
    from noughts.exact.pns import ProofResult

__all__ = [
    "DEFAULT_MAX_MEMORY",
    "DEFAULT_MAX_SECONDS",
    "ENGINE_POLICY",
    "PYTHON_SEARCH_CELLS",
    "EngineRule",
    "ValueOracle",
    "best_moves",
    "choose_engine",
    "engine_name",
    "make_engine",
    "move_values",
    "principal_variation",
    "prove",
    "solve",
    "value_of_best",
]

DEFAULT_MAX_SECONDS = AUTO_SECONDS
"""60 s of wall time, or none where a CPU limit is given alone (:data:`noughts.core.budget.AUTO_SECONDS`)."""
DEFAULT_MAX_MEMORY = 2 * 1024**3


class ValueOracle(Protocol):
    """Anything that gives exact values of positions of one game."""

    def value(self, position: Position) -> Value: ...


PYTHON_SEARCH_CELLS = 12
"""Boards up to this many cells are searched in Python: the searcher answers in milliseconds,
and loading the compiled kernel would cost more than the search."""


def make_engine(
    game: Game, budget: Budget | None = None, *, prefer_fast: bool | None = None, quotient: bool = True
) -> ValueOracle:
    """The best exact solver for ``game``: for Notakto on more than
    :data:`~noughts.exact.quotient.SEARCH_BOARDS` boards the board's misère quotient
    (:class:`~noughts.exact.quotient.QuotientEngine`: outcomes and winning moves, distances
    unknown), else the numba kernel where it takes the game, else the Python
    :class:`~noughts.exact.search.Searcher`. ``prefer_fast`` forces the choice between the two
    searches; by default the kernel serves boards of more than :data:`PYTHON_SEARCH_CELLS` cells.
    A game that need not end is solved whole by retrograde analysis on the first question
    (:class:`~noughts.exact.retro.RetroOracle`). ``quotient=False`` leaves the quotient out (a
    search was asked for by name: ``solve --engine python``).
    """
    by_quotient = quotient_engine(game) if quotient else None
    if by_quotient is not None:
        return by_quotient
    if not game.properties.bounded:
        from noughts.exact.retro import RetroOracle

        return RetroOracle(game, budget)
    if prefer_fast is None:
        prefer_fast = game.board.num_cells > PYTHON_SEARCH_CELLS
    if prefer_fast:
        try:
            from noughts.exact import fast
        except ImportError:  # the kernel is optional: the searcher solves every game
            pass
        else:
            if fast.supports(game):
                solver: ValueOracle = fast.FastSolver(game, budget)
                return solver
    return Searcher(game, budget)


def move_values(oracle: ValueOracle, position: Position) -> list[MoveValue]:
    """Every legal move with the value of the position it leads to, best first for the side to
    move (ties keep the ``legal_moves()`` order; see :func:`noughts.exact.reference.move_key`).
    """
    mover = position.to_move
    rated = [MoveValue(m, oracle.value(position.play(m))) for m in position.legal_moves()]
    rated.sort(key=lambda mv: move_key(after_move(mv.value), mover), reverse=True)  # stable
    return rated


def best_moves(oracle: ValueOracle, position: Position) -> list[Move]:
    """The moves that keep the position's value, in ``legal_moves()`` order (the first one is
    the principal variation's).
    """
    rated = move_values(oracle, position)
    if not rated:
        return []
    mover = position.to_move
    top = move_key(after_move(rated[0].value), mover)
    return [mv.move for mv in rated if move_key(after_move(mv.value), mover) == top]


def value_of_best(game: Game, best: Value) -> Value:
    """The value of a position from the value its best move leads to: one ply further; a draw
    in a game that need not end has no length (plies 0).
    """
    if best.outcome is Outcome.DRAW and not game.properties.bounded:
        return Value(Outcome.DRAW, 0, best.score)
    return after_move(best)


def principal_variation(
    oracle: ValueOracle, position: Position, value: Value | None = None
) -> tuple[Move, ...]:
    """The line both sides play from ``position`` when each plays the first best move in
    ``legal_moves()`` order, to the end of the game. Its length is the value's ``plies``.

    Where the distance is unknown (``value.plies is None``) the line is one in which each move
    keeps the outcome: the winner's first winning move, the loser's first legal move.
    In a game that need not end, a drawn line never ends: it follows the first move that keeps
    the draw and stops when a position comes back (the line then repeats).
    """
    if value is None:
        value = oracle.value(position)
    if value.plies is None:
        return _outcome_line(oracle, position, value)
    line: list[Move] = []
    if value.outcome is Outcome.DRAW and not position.game.properties.bounded:
        seen = {position}
        while not position.is_terminal():
            move = next(
                m for m in position.legal_moves() if oracle.value(position.play(m)).outcome is Outcome.DRAW
            )
            line.append(move)
            position = position.play(move)
            if position in seen:
                break
            seen.add(position)
        return tuple(line)
    if value.plies is None:
        raise ValueError("a principal variation needs the value's distance (the proof engine gives none)")
    while not position.is_terminal():
        assert value.plies is not None
        target = Value(value.outcome, value.plies - 1, value.score)
        for move in position.legal_moves():
            child = position.play(move)
            if oracle.value(child) == target:
                line.append(move)
                position, value = child, target
                break
        else:
            raise AssertionError(f"no move of {position.text()!r} keeps its value {value}")
    return tuple(line)


def _outcome_line(oracle: ValueOracle, position: Position, value: Value) -> tuple[Move, ...]:
    line: list[Move] = []
    while not position.is_terminal():
        for move in position.legal_moves():
            child = position.play(move)
            child_value = oracle.value(child)
            if child_value.outcome is value.outcome:
                line.append(move)
                position, value = child, child_value
                break
        else:
            raise AssertionError(f"no move of {position.text()!r} keeps its outcome {value.outcome}")
    return tuple(line)


def engine_name(oracle: object) -> str:
    """What answered: ``python`` (the Python alpha-beta), ``alpha-beta`` (the numba kernel),
    ``table`` (a solved table), ``quotient`` (a misère quotient), ``retro`` (retrograde analysis
    of a game that need not end) or ``proof`` (the proof engine), from the engine's ``engine``
    attribute.
    """
    return str(getattr(oracle, "engine", "python"))


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
    policy: tuple[EngineRule, ...] | None = None,
) -> SolveResult:
    """Solve ``position`` (the start by default; a position or its text) of ``game`` (a game or
    a spec) exactly: value first, then every legal move's value, then the principal variation.

    ``engine`` picks the engine (``alpha-beta``: the numba kernel, ``python``: the Python
    alpha-beta, ``proof``: the proof engine); ``auto`` follows :data:`ENGINE_POLICY`, and
    ``table`` (a :class:`~noughts.exact.table.SolvedTable` of this game) answers by look-up.
    The result names the engine that answered the position's value. The proof engine proves
    who wins, not in how many plies (its values' ``plies`` are None, it gives no principal
    variation). ``value_only`` stops after the position's value. ``certificate`` (a path) has
    the proof engine prove the value and write a certificate of it (:mod:`noughts.exact.strategy`;
    ``noughts solve check`` verifies it).

    ``max_seconds``, ``max_cpu_seconds`` and ``max_memory`` (bytes; None for no limit) bound
    the work. Over budget, ``LimitExceeded`` says how far it got, unless ``anytime`` is set and
    the value was proved: the result then has ``complete=False`` and the moves proved so far.
    ``on_value`` is called with the value as soon as it is proved, ``on_move`` with each move's
    value (its index and the number of moves) as soon as that is. With ``progress``, work longer
    than a second shows a progress bar on stderr.

    ``policy`` replaces :data:`ENGINE_POLICY` (rows with a ``make`` bring engines from above this
    package: :func:`noughts.solving.solve` adds the Breaker prover's row this way). With
    ``certificate`` and ``engine="auto"``, the rows that ``certify`` answer.
    """
    game = as_game(game)
    position = as_position(game, position)
    started = time.perf_counter()
    budget = Budget(max_seconds=max_seconds, max_memory=max_memory, max_cpu_seconds=max_cpu_seconds)
    rules = _rules_for(
        game, position, ENGINE_POLICY if policy is None else policy, engine, table, certificate
    )
    if position.is_terminal():
        over = terminal_value(position)
        if on_value is not None:
            on_value(over)
        return SolveResult(game, position, over, (), (), 0, time.perf_counter() - started, engine="rules")

    engines = _Engines(game, budget, position.to_move, rules, table)
    moves = position.legal_moves()
    view = _ProgressView(progress, f"solving {game}", len(moves) + 1)
    engines.attach(view)
    value: Value | None = None
    value_engine = ""
    argument: str | None = None
    header: dict[str, Any] | None = None
    rated: list[MoveValue] = []
    mover = position.to_move
    pv: tuple[Move, ...] = ()
    try:
        view.describe("the position's value")
        value, value_engine = engines.value(position)
        argument = _argument(engines.exact(value_engine))
        view.advance(engines.nodes)
        if on_value is not None:
            on_value(value)
        if certificate is not None:
            view.describe("the certificate")
            header = _certify(engines, value_engine, position, value, certificate, budget)
        if not value_only:
            view.describe("the moves")
            _rate_moves(engines, position, moves, rated, view, on_move)
            # with distances, the line they give; from the quotient, a line in which the winner
            # keeps the win (the proof engine gives neither)
            if value_engine == "quotient" or (
                value.plies is not None and all(mv.value.plies is not None for mv in rated)
            ):
                view.describe("the principal variation")
                pv = principal_variation(engines.exact(value_engine), position, value)
    except LimitExceeded as e:
        if anytime and value is not None:
            return SolveResult(
                game,
                position,
                value,
                tuple(_ranked(rated, mover)),
                (),
                engines.nodes,
                time.perf_counter() - started,
                engine=value_engine,
                complete=False,
                moves_total=len(moves),
                stopped=str(e),
                certificate=header,
                argument=argument,
            )
        if value is None:
            what = "the position's value is not proved yet"
        else:
            what = f"{len(rated)} of {len(moves)} moves of the position solved"
        raise LimitExceeded(f"{e}; {what}") from None
    finally:
        view.close()
        engines.attach(None)
    return SolveResult(
        game,
        position,
        value,
        tuple(_ranked(rated, mover)),
        pv,
        engines.nodes,
        time.perf_counter() - started,
        engine=value_engine,
        moves_total=len(moves),
        certificate=header,
        argument=argument,
    )


def _rules_for(
    game: Game,
    position: Position,
    policy: tuple[EngineRule, ...],
    engine: str,
    table: Any,
    certificate: str | Path | None,
) -> tuple[EngineRule, ...]:
    """The rows :func:`solve` asks, in order: the table's, the certifying rows, the one engine
    named, or the policy's rows that apply; ``NoughtsError`` for an engine or a request that
    cannot be served, before any work.
    """
    names = _engine_names(policy)
    if engine not in ("auto", *names):
        raise NoughtsError(f"unknown engine {engine!r}: choose auto, {', '.join(names)}")
    certifying = tuple(
        r for r in policy if r.certifies and (engine in ("auto", r.name)) and r.applies(game, position)
    )
    if certificate is not None and not certifying:
        raise NoughtsError(
            f"certificates come from {' or '.join(_where(r) for r in policy if r.certifies)}; not {game} with {engine}"
        )
    if table is not None:
        if getattr(table, "game", None) != game:
            raise NoughtsError(f"the table is one of {getattr(table, 'game', '?')}, not of {game}")
        rules: tuple[EngineRule, ...] = (EngineRule("table", "a solved table", lambda g, p: True),)
    elif certificate is not None:
        rules = certifying
    elif engine == "proof":
        if not proof_supports(game):
            raise NoughtsError(f"the proof engine takes claim games, not {game}")
        rules = tuple(r for r in policy if r.name == "proof")
    elif engine == "auto":
        rules = tuple(r for r in policy if r.applies(game, position) and not r.certificate_only)
    else:
        if engine == "alpha-beta" and not _kernel_supports(game):
            raise NoughtsError(
                f"the alpha-beta kernel does not take {game}; choose the python or auto engine"
            )
        rules = tuple(EngineRule(r.name, r.where, r.applies, make=r.make) for r in policy if r.name == engine)
    return rules


def _certify(
    engines: _Engines,
    value_engine: str,
    position: Position,
    value: Value,
    certificate: str | Path,
    budget: Budget,
) -> dict[str, Any] | None:
    """Write the certificate of ``value``: the answering engine's own (a row's ``make``), else
    the proof engine's strategies; the certificate's header.
    """
    made = engines.exact(value_engine)
    if hasattr(made, "write_certificate"):  # an engine of its own certificates (a row's make)
        header: dict[str, Any] | None = made.write_certificate(position, value, certificate)
        return header
    return _write_certificate(
        engines.proof_searches(), position, position.to_move, value, certificate, budget
    )


def _rate_moves(
    engines: _Engines,
    position: Position,
    moves: Sequence[Move],
    rated: list[MoveValue],
    view: _ProgressView,
    on_move: Callable[[MoveValue, int, int], None] | None,
) -> None:
    """Every move's value, appended to ``rated`` as it is proved (what a budget that runs out
    leaves there is what was proved).
    """
    for i, move in enumerate(moves):
        child = position.play(move)
        child_value = terminal_value(child) if child.is_terminal() else engines.value(child)[0]
        mv = MoveValue(move, child_value)
        rated.append(mv)
        view.advance(engines.nodes)
        if on_move is not None:
            on_move(mv, i, len(moves))


# -- the engines ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class EngineRule:
    """One row of :data:`ENGINE_POLICY`: the engine ``name`` answers where ``applies`` holds;
    with a ``trial`` (seconds) it gets only that long on a position before the next row that
    applies takes it over, and with a ``share`` at most that share of the budget left (both: the
    smaller). An engine whose ``value`` returns None declines the position: the next row takes it.
    With ``trial_once``, a trial that runs out on the first position of a solve is not given on
    the positions asked after it (its moves, which are seldom easier).

    ``make(game, budget)`` builds the row's engine (rows of engines this package does not know:
    a policy given to :func:`solve` from a package above); ``certifies``: the engine proves the
    values it gives with a certificate (``solve --certificate``). ``share_for(game)``, where it
    gives a number, is the share of the budget left that the row gets on that game instead of
    its trial and share.
    """

    name: str
    where: str
    applies: Callable[[Game, Position], bool]
    trial: float | None = None
    share: float | None = None
    make: Callable[[Game, Budget], Any] | None = None
    certifies: bool = False
    trial_once: bool = False
    share_for: Callable[[Game], float | None] | None = None
    certificate_only: bool = False
    """The row answers only for ``solve --certificate`` (never in the automatic choice, and it
    is not an engine ``solve`` takes by name)."""


ALPHA_BETA_TRIAL = 0.5
"""Seconds the alpha-beta kernel gets on a position before the proof engine takes it over.
The kernel answers every game of ``bench/solve_targets.py`` well within this (and gives exact
distances); the positions it does not finish in this time are the proof engine's
(BENCHMARKS.md, "The proof engine")."""


TRIAL_LOAD_NODES = 1024
"""A trial that ran out after no more nodes than this spent its time loading the kernel (the
first slices are this small), and is given again."""


def _kernel_supports(game: Game) -> bool:
    try:
        from noughts.exact import fast
    except ImportError:  # the kernels are optional: the Python search solves every game
        return False
    return fast.supports(game)


def proof_supports(game: Game) -> bool:
    """Whether the proof engine takes ``game`` (claim games: standard, misère, Maker-Breaker,
    cumulative).
    """
    return game.claim_rule is not None


MISERE_SHARE = 0.75
"""The share of the budget left that the alpha-beta kernel gets on a misère position (instead of
its :data:`ALPHA_BETA_TRIAL`) before the proof engine takes it over: the kernel's misère pruning
(pairings of a side's lines, mirrors, dead cells; :mod:`noughts.exact._kernels`) answers
misère(mnk(5,5,4)) in about a minute, where the proof engine, which has none of it, does not
finish in ten (BENCHMARKS.md, "misère(mnk(5,5,4))")."""


def _misere_share(game: Game) -> float | None:
    return MISERE_SHARE if game.claim_rule == Rule.MISERE else None


ENGINE_POLICY: tuple[EngineRule, ...] = (
    EngineRule(
        "quotient",
        "Notakto on more than two boards: the board's misère quotient (who wins, not how fast)",
        lambda g, p: quotient_engine(g) is not None,
    ),
    EngineRule(
        "alpha-beta",
        f"claim games: the alpha-beta kernel, {ALPHA_BETA_TRIAL:g} s a position where the proof engine can follow"
        f" ({MISERE_SHARE:g} of the budget left under misère rules)",
        lambda g, p: _kernel_supports(g),
        trial=ALPHA_BETA_TRIAL,
        share_for=_misere_share,
    ),
    EngineRule(
        "misere",
        "misère claim games, with a certificate: the alpha-beta kernel's value, a draw certified by"
        " strategies that end at leaves the checker proves (mirrors, pairings, the horizon)",
        lambda g, p: g.claim_rule == Rule.MISERE and _kernel_supports(g),
        make=lambda g, budget: MisereCertifier(g, budget),
        certifies=True,
        certificate_only=True,
    ),
    EngineRule(
        "proof",
        "claim games the kernel did not finish: the proof engine (df-pn with threats)",
        lambda g, p: proof_supports(g) and _kernel_supports(g),
        certifies=True,
    ),
    EngineRule(
        "python",
        "every other game: the Python alpha-beta (veto, Notakto, Otrio), retrograde analysis for games that"
        " need not end",
        lambda g, p: True,
    ),
)
"""The automatic choice of engine among this package's engines: the rows that apply, in order; a
row with a trial hands a position it did not finish in time to the next. The policy of
``noughts solve`` (:data:`noughts.solving.SOLVE_POLICY`) is this one with the Breaker prover's
row added, from the layer above."""

ENGINE_NAMES = ("alpha-beta", "python", "proof", "table")
"""The engines ``solve`` takes by name (``table`` only with a table); a result may also name
``retro`` (the ``python`` row on a game that need not end) or ``rules`` (a finished game)."""


def _engine_names(policy: tuple[EngineRule, ...]) -> tuple[str, ...]:
    """The engines ``solve`` takes by name under ``policy`` (besides ``auto``; a table is given
    with ``table=``).
    """
    return tuple(
        dict.fromkeys(
            r.name for r in policy if r.name not in ("quotient", "table") and not r.certificate_only
        )
    )


def choose_engine(
    game: Game, position: Position | None = None, policy: tuple[EngineRule, ...] | None = None
) -> str:
    """The first engine ``policy`` (default :data:`ENGINE_POLICY`) tries on ``position`` (default:
    the start).
    """
    if position is None:
        position = game.start()
    for rule in ENGINE_POLICY if policy is None else policy:
        if rule.applies(game, position):
            return rule.name
    raise AssertionError("the last rule of the policy applies to every game")


class _Engines:
    """The engines of one solve, made when first needed, tried in the policy's order."""

    def __init__(self, game: Game, budget: Budget, viewer: Player, rules: tuple[EngineRule, ...], table: Any):
        self.game = game
        self.budget = budget
        self.viewer = viewer
        self.rules = rules
        self.table = table
        self._made: dict[str, Any] = {}
        self._view: _ProgressView | None = None
        self._asked = 0
        self._spent: set[str] = set()  # rows with trial_once whose trial ran out on the first position

    @property
    def nodes(self) -> int:
        return sum(_nodes(e) for e in self._made.values())

    def attach(self, view: _ProgressView | None) -> None:
        self._view = view
        for engine in self._made.values():
            _attach(engine, view)

    def _engine(self, name: str) -> Any:
        made = self._made.get(name)
        if made is None:
            make = next((r.make for r in self.rules if r.name == name and r.make is not None), None)
            if make is not None:
                made = make(self.game, self.budget)
            elif name == "table":
                made = self.table
            elif name == "python":  # the search itself, also where the quotient would answer
                made = make_engine(self.game, self.budget, prefer_fast=False, quotient=False)
            elif name == "quotient":
                made = quotient_engine(self.game)
            elif name == "alpha-beta":
                made = make_engine(self.game, self.budget)
            else:
                from noughts.exact.proof import ValueSearches

                made = ValueSearches(self.game, self.budget)
            self._made[name] = made
            _attach(made, self._view)
        return made

    def exact(self, name: str) -> ValueOracle:
        """The engine ``name`` as an oracle of exact values (distances included)."""
        if name == "retro":  # what the python row made for a game that need not end
            name = "python"
        engine: ValueOracle = self._engine(
            "alpha-beta" if name == "python" and "alpha-beta" in self._made else name
        )
        if hasattr(engine, "budget"):
            engine.budget = self.budget
        return engine

    def proof_searches(self) -> Any:
        return self._engine("proof")

    def value(self, position: Position) -> tuple[Value, str]:
        """The value of ``position`` and the engine that found it."""
        first = self._asked == 0
        self._asked += 1
        for i, rule in enumerate(self.rules):
            if rule.name in self._spent and i < len(self.rules) - 1:
                continue
            engine = self._engine(rule.name)
            if rule.name == "proof":
                return _proof_value(engine, position, self.viewer), rule.name
            last = i == len(self.rules) - 1
            limited = rule.trial is not None or rule.share is not None
            if not limited or last or not hasattr(engine, "budget"):
                if hasattr(engine, "budget"):
                    engine.budget = self.budget
                found = engine.value(position)
                if found is None and not last:
                    continue  # the engine declined the position
                return found, _engine_name(rule.name, engine)
            # a trial whose time went to loading (or, on a new machine, compiling) the kernel
            # rather than searching is given again, once: the trial measures search
            for attempt in range(2):
                engine.budget = Budget(
                    max_seconds=_trial_seconds(rule, self.budget, self.game),
                    max_memory=self.budget.max_memory,
                )
                before = _nodes(engine)
                try:
                    found = engine.value(position)
                    if found is None:
                        break  # declined: the next row
                    return found, _engine_name(rule.name, engine)
                except LimitExceeded:
                    self.budget.check(0, "")  # the whole budget, if that is what ran out
                    if attempt == 1 or _nodes(engine) - before > TRIAL_LOAD_NODES:
                        if first and rule.trial_once:
                            self._spent.add(rule.name)
                        break
                finally:
                    engine.budget = self.budget
        raise AssertionError("the last engine of the policy answers")


class MisereCertifier:
    """The certifying engine of misère games (``solve --certificate``): the alpha-beta kernel
    gives the value; a draw (each side's strategy to at least draw) is written by
    :mod:`noughts.exact.misere_strategy` (a mirror's strategy where one settles it, else the
    defence played out with the kernel's answers, ending at leaves the checker proves); a win
    by the proof engine, as for every other game.
    """

    engine = "misere"
    """The name solve results give it (its values are the alpha-beta kernel's)."""

    def __init__(self, game: Game, budget: Budget):
        from noughts.exact.fast import FastSolver

        self.game = game
        self.budget = budget
        self.solver = FastSolver(game, budget)
        self.progress: Callable[[int], None] | None = None
        """Called with the kernel's node count now and then (``solve`` draws it)."""

    @property
    def nodes(self) -> int:
        return self.solver.nodes

    def value(self, position: Position) -> Value:
        self.solver.budget = self.budget
        self.solver.progress = self.progress
        return self.solver.value(position)

    def write_certificate(self, position: Position, value: Value, path: str | Path) -> dict[str, Any]:
        from noughts.exact.misere_strategy import defence_strategy, mirror_strategy
        from noughts.exact.strategy import certificate_record

        if value.outcome is not Outcome.DRAW:
            from noughts.exact.proof import ValueSearches

            searches = ValueSearches(self.game, self.budget)
            return _write_certificate(searches, position, position.to_move, value, path, self.budget)
        self.solver.budget = self.budget
        self.solver.progress = self.progress
        shown = self.progress
        tick = None if shown is None else (lambda _: shown(self.solver.nodes))
        strategies = []
        for player in (Player.FIRST, Player.SECOND):
            strategy = mirror_strategy(position, player)
            if strategy is None:
                strategy = defence_strategy(position, player, self.budget, tick, solver=self.solver)
            strategies.append(strategy)
        return certificate_record(path, strategies, "draw", {"engine": "alpha-beta"})


def _argument(engine: object) -> str | None:
    """How ``engine`` proved the value it just gave, where it says (its ``argument()``)."""
    says = getattr(engine, "argument", None)
    return str(says()) if callable(says) else None


def _where(rule: EngineRule) -> str:
    """The engine of a policy row as the user reads it (``proof``: the proof engine, claim games)."""
    return (
        "the proof engine, which takes claim games"
        if rule.name == "proof"
        else f"the {rule.name} engine ({rule.where.split(':')[0]})"
    )


def _trial_seconds(rule: EngineRule, budget: Budget, game: Game) -> float | None:
    """The seconds a row with a trial or a share gets on one position of ``game``, of ``budget``'s."""
    left = budget.remaining()
    special = None if rule.share_for is None else rule.share_for(game)
    if special is not None:
        return None if left is None else special * left
    limits = [
        t
        for t in (rule.trial, None if left is None or rule.share is None else rule.share * left)
        if t is not None
    ]
    if left is not None:
        limits.append(left)
    return min(limits) if limits else None


def _engine_name(name: str, engine: Any) -> str:
    """The name of what answered for the policy's row ``name`` (the python row may have made a
    quotient or retrograde engine).
    """
    return str(getattr(engine, "engine", name))


def _ranked(rated: list[MoveValue], mover: Player) -> list[MoveValue]:
    """Moves best first for ``mover`` (ties in ``legal_moves()`` order): by
    :func:`~noughts.exact.reference.move_key` where every distance is known, else by outcome
    (and score) alone (the proof engine gives no distances).
    """
    if all(mv.value.plies is not None for mv in rated):
        return sorted(rated, key=lambda mv: move_key(after_move(mv.value), mover), reverse=True)

    def rank(mv: MoveValue) -> tuple[int, int]:
        v = mv.value
        if v.score is not None:
            return (0, v.score if mover is Player.FIRST else -v.score)
        if v.outcome is Outcome.DRAW:
            return (0, 0)
        return (1 if v.outcome.winner is mover else -1, 0)

    return sorted(rated, key=rank, reverse=True)


def _proof_value(searches: Any, position: Position, viewer: Player) -> Value:
    """A position's value by the proof engine, asked from ``viewer``'s side (so the position
    and its children share tables).
    """
    game = position.game
    if game.properties.is_scored:
        return searches.value(position)  # type: ignore[no-any-return]
    from noughts.exact.proof import DRAW, WIN

    if searches.proves(position, viewer, WIN):
        return Value(Outcome.win_for(viewer), None)
    if game.properties.has_draws and searches.proves(position, viewer, DRAW):
        return Value(Outcome.DRAW, None)
    return Value(Outcome.win_for(viewer.other), None)


def _write_certificate(
    searches: Any, position: Position, viewer: Player, value: Value, path: str | Path, budget: Budget
) -> dict[str, Any]:
    """The certificate of ``value`` from the searches that proved it (see :mod:`noughts.exact.strategy`)."""
    from noughts.exact.proof import DRAW, WIN
    from noughts.exact.strategy import certificate_record, extract_strategy

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


# -- helpers ------------------------------------------------------------------------------------------


def as_game(game: Game | str) -> Game:
    """``game``, or the game its spec names."""
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        return make_game(game)
    raise NoughtsError(f"a game is a spec string or a Game, not {type(game).__name__}")


def as_position(game: Game, position: Position | str | None) -> Position:
    """``position`` (the start where None, parsed where text), refused where it is another game's."""
    if position is None:
        return game.start()
    if isinstance(position, str):
        return game.parse(position)
    if isinstance(position, Position):
        if position.game != game:
            raise NoughtsError(f"the position is one of {position.game}, not of {game}")
        return position
    raise NoughtsError(f"a position is a Position or its text, not {type(position).__name__}")


def _nodes(oracle: object) -> int:
    return int(getattr(oracle, "nodes", 0))


def _attach(oracle: object, view: _ProgressView | None) -> None:
    """Let the engine report its node count to ``view`` while it searches."""
    if isinstance(oracle, Searcher):
        oracle.on_progress = None if view is None else (lambda s: view.tick(s.nodes))
    elif hasattr(oracle, "progress") and not callable(getattr(type(oracle), "progress", None)):
        oracle.progress = None if view is None else view.tick


def prove(
    game: Game | str,
    position: Position | str | None = None,
    player: Player | None = None,
    *,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    max_cpu_seconds: float | None = None,
    progress: bool = False,
) -> ProofResult:
    """Whether ``player`` (default: the side to move) can force a win from ``position`` (the
    start by default), by proof-number search (:mod:`noughts.exact.pns`): a yes/no answer that
    shares no code with the alpha-beta engines, so it checks them independently. Budgets and
    progress as in :func:`solve`.

    >>> prove("hypercube(3,3)").describe()
    'x can force a win'
    """
    from noughts.exact.pns import Prover

    game = as_game(game)
    position = as_position(game, position)
    prover = Prover(
        game,
        position.to_move if player is None else player,
        budget=Budget(max_seconds, max_memory, max_cpu_seconds),
    )
    view = _ProgressView(progress, f"proof-number search on {game}", 1)
    view.describe("nodes expanded")
    prover.on_progress = lambda p: view.tick(p.nodes)
    try:
        return prover.prove(position)
    finally:
        view.close()


class _ProgressView:
    """A Rich progress bar on stderr that appears only once the work has taken a second."""

    DELAY = 1.0

    def __init__(self, enabled: bool, title: str, total: int):
        self.enabled = enabled
        self.title = title
        self.total = total
        self.started = time.perf_counter()
        self.nodes = 0
        self.detail = "the moves"
        self._bar: Any = None
        self._task: Any = None
        self._done = 0

    def _show(self) -> None:
        if self._bar is None:
            if not self.enabled or time.perf_counter() - self.started < self.DELAY:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.completed}/{task.total}"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self.title, total=self.total)
        self._bar.update(
            self._task,
            completed=self._done,
            description=f"{self.title}: {self.detail}, {self.nodes:,} positions",
        )

    def tick(self, nodes: int) -> None:
        self.nodes = nodes
        self._show()

    def advance(self, nodes: int) -> None:
        self._done += 1
        self.tick(nodes)

    def describe(self, detail: str) -> None:
        self.detail = detail
        self._show()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
