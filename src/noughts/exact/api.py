"""The driver of ``solve`` and the plain oracles' helpers: a position's value, every legal
move's value and the principal variation, from the engines of a policy.

The one ``solve`` is :func:`noughts.solving.solve` (``noughts.solve``), under the one policy
(:data:`noughts.solving.policy.POLICY`, a table of :class:`~noughts.exact.engines.EngineRow`);
this module holds what it drives (:func:`solve_with`) and what every exact oracle shares: the
moves' values, the best moves and the principal variation, defined once with the values and
distances of :mod:`noughts.exact.reference`.

>>> import noughts
>>> r = noughts.solve("tictactoe", "xx./oo./...")
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

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from noughts.core import Game, LimitExceeded, Move, NoughtsError, Outcome, Player, Position
from noughts.core import game as make_game
from noughts.core.budget import AUTO_SECONDS, Budget
from noughts.core.values import MoveValue, SolveResult, Value
from noughts.exact.count import checked_progress
from noughts.exact.engines import (
    PYTHON_SEARCH_CELLS,
    CertifyingEngine,
    Engine,
    EngineRow,
    Portfolio,
    Proof,
    Table,
    kernel_supports,
    proof_supports,
)
from noughts.exact.quotient import quotient_engine
from noughts.exact.reference import after_move, move_key, terminal_value
from noughts.exact.search import Searcher

if TYPE_CHECKING:
    from noughts.proving.pns import ProofResult

__all__ = [
    "DEFAULT_MAX_MEMORY",
    "DEFAULT_MAX_SECONDS",
    "ENGINE_NAMES",
    "PYTHON_SEARCH_CELLS",
    "Steps",
    "ValueOracle",
    "best_moves",
    "engine_name",
    "engine_names",
    "make_engine",
    "move_values",
    "principal_variation",
    "prove",
    "rows_for",
    "solve_with",
    "value_of_best",
]

DEFAULT_MAX_SECONDS = AUTO_SECONDS
"""60 s of wall time, or none where a CPU limit is given alone (:data:`noughts.core.budget.AUTO_SECONDS`)."""
DEFAULT_MAX_MEMORY = 2 * 1024**3


class ValueOracle(Protocol):
    """Anything that gives exact values of positions of one game."""

    def value(self, position: Position) -> Value: ...


Steps = Callable[[int, int, str], None]
"""A solve's progress callback, ``(done, total, description)`` as :data:`noughts.exact.count.Progress`:
``done`` of ``total`` positions valued (the position, then each move), the description the step
under way and the nodes searched so far. The library only reports; the command line draws it
(:func:`noughts.cli.progress.step_bar`)."""


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
    (:class:`~noughts.retrograde.analysis.RetroOracle`). ``quotient=False`` leaves the quotient out (a
    search was asked for by name: ``solve --engine python``).
    """
    by_quotient = quotient_engine(game) if quotient else None
    if by_quotient is not None:
        return by_quotient
    if not game.properties.bounded:
        from noughts.retrograde.analysis import RetroOracle

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
    """What answered: the engine's ``name`` (:class:`~noughts.exact.engines.Engine`), or the
    ``engine`` a plain oracle declares (``python`` where it declares none).
    """
    if isinstance(oracle, Engine):
        return oracle.name
    return str(getattr(oracle, "engine", "python"))


def solve_with(
    policy: Sequence[EngineRow],
    game: Game | str,
    position: Position | str | None = None,
    *,
    budget: Budget,
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
    """The driver of :func:`noughts.solving.solve` (the one ``solve``, whose docstring says what
    each option does) under the rows of ``policy`` (:data:`noughts.solving.policy.POLICY`): value
    first, then every legal move's value, then the principal variation, each position by a
    :class:`~noughts.exact.engines.Portfolio` of the rows that apply. ``portfolio`` (of this
    game, under the same rows) keeps its engines' tables from call to call (the web worker's).
    """
    game = as_game(game)
    position = as_position(game, position)
    started = time.perf_counter()
    rows = rows_for(game, position, policy, engine, table, certificate)
    if position.is_terminal():
        over = terminal_value(position)
        if on_value is not None:
            on_value(over)
        return SolveResult(game, position, over, (), (), 0, time.perf_counter() - started, engine="rules")

    if portfolio is None or portfolio.rows != rows:
        portfolio = Portfolio(game, rows)
    nodes0 = portfolio.nodes
    moves = position.legal_moves()
    view = _Steps(checked_progress(progress), f"solving {game}", len(moves) + 1)

    def watch(nodes: int) -> None:
        view.tick(nodes - nodes0)

    portfolio.watch(watch)
    value: Value | None = None
    value_engine = ""
    argument: str | None = None
    header: dict[str, Any] | None = None
    rated: list[MoveValue] = []
    mover = position.to_move
    pv: tuple[Move, ...] = ()
    try:
        view.describe("the position's value")
        value, value_engine = portfolio.value(position, budget)
        answered = portfolio.engine(portfolio.last or "")
        argument = answered.argument() if isinstance(answered, Argued) else None
        view.advance(portfolio.nodes - nodes0)
        if on_value is not None:
            on_value(value)
        if certificate is not None:
            view.describe("the certificate")
            header = _certify(portfolio, answered, position, value, certificate, budget)
        if not value_only:
            view.describe("the moves")
            _rate_moves(portfolio, budget, position, moves, rated, view, on_move)
            # with distances, the line they give; from the quotient, a line in which the winner
            # keeps the win (the proof engine gives neither)
            if value_engine == "quotient" or (
                value.plies is not None and all(mv.value.plies is not None for mv in rated)
            ):
                view.describe("the principal variation")
                pv = principal_variation(_Bound(answered, budget), position, value)
    except LimitExceeded as e:
        if anytime and value is not None:
            return SolveResult(
                game,
                position,
                value,
                tuple(_ranked(rated, mover)),
                (),
                portfolio.nodes - nodes0,
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
        portfolio.watch(None)
    return SolveResult(
        game,
        position,
        value,
        tuple(_ranked(rated, mover)),
        pv,
        portfolio.nodes - nodes0,
        time.perf_counter() - started,
        engine=value_engine,
        moves_total=len(moves),
        certificate=header,
        argument=argument,
    )


@runtime_checkable
class Argued(Protocol):
    """An engine that says how it proved the value it just gave (the Breaker prover)."""

    def argument(self) -> str: ...


class _Bound:
    """An engine as a plain :class:`ValueOracle` under one budget (for the principal variation)."""

    def __init__(self, engine: Engine, budget: Budget):
        self.engine = engine
        self.budget = budget

    def value(self, position: Position) -> Value:
        found = self.engine.value(position, self.budget)
        if found is None:
            raise AssertionError(f"the {self.engine.name} engine declined a position it had answered")
        return found


def engine_names(policy: Sequence[EngineRow]) -> tuple[str, ...]:
    """The engines ``solve`` takes by name under ``policy`` (besides ``auto``; a table is given
    with ``table=``).
    """
    return tuple(
        dict.fromkeys(
            r.name for r in policy if r.name not in ("quotient", "table") and not r.certificate_only
        )
    )


def rows_for(
    game: Game,
    position: Position,
    policy: Sequence[EngineRow],
    engine: str,
    table: Any,
    certificate: str | Path | None,
) -> tuple[EngineRow, ...]:
    """The rows :func:`solve_with` runs: the table's, the certifying rows, the one engine
    named, or the policy's rows that apply; ``NoughtsError`` for an engine or a request that
    cannot be served, before any work.
    """
    names = engine_names(policy)
    if engine not in ("auto", *names):
        raise NoughtsError(f"unknown engine {engine!r}: choose auto, {', '.join(names)}")
    certifying = tuple(
        r for r in policy if r.certifies and engine in ("auto", r.name) and r.supports(game, position)
    )
    if certificate is not None and not certifying:
        raise NoughtsError(
            f"certificates come from {' or '.join(_where(r) for r in policy if r.certifies)}; not {game} with {engine}"
        )
    if table is not None:
        if getattr(table, "game", None) != game:
            raise NoughtsError(f"the table is one of {getattr(table, 'game', '?')}, not of {game}")
        return (EngineRow("table", "a solved table", lambda g, b: Table(table), instant=True),)
    if certificate is not None:
        # a misère certificate is the misère certifier's (its kernel's value; a win by the proof
        # engine inside it), never a race between it and the proof engine's other kind
        return tuple(r for r in certifying if r.name == "misere") or certifying
    if engine == "auto":
        return tuple(r for r in policy if r.supports(game, position) and not r.certificate_only)
    if engine == "proof" and not proof_supports(game):
        raise NoughtsError(f"the proof engine takes claim games, not {game}")
    if engine == "alpha-beta" and not kernel_supports(game):
        raise NoughtsError(f"the alpha-beta kernel does not take {game}; choose the python or auto engine")
    return tuple(dataclasses.replace(r, supports=_always) for r in policy if r.name == engine)


def _always(game: Game, position: Position) -> bool:
    return True


def _where(row: EngineRow) -> str:
    """The engine of a policy row as the user reads it (``proof``: the proof engine, claim games)."""
    return (
        "the proof engine, which takes claim games"
        if row.name == "proof"
        else f"the {row.name} engine ({row.where.split(':')[0]})"
    )


def _certify(
    portfolio: Portfolio,
    answered: Engine,
    position: Position,
    value: Value,
    certificate: str | Path,
    budget: Budget,
) -> dict[str, Any] | None:
    """Write the certificate of ``value``: the answering engine's own, else the proof engine's."""
    if isinstance(answered, CertifyingEngine):
        header: dict[str, Any] = answered.write_certificate(position, value, certificate, budget)
        return header
    proof = Proof(portfolio.game, budget)
    proof.viewer = position.to_move
    return proof.write_certificate(position, value, certificate, budget)


def _rate_moves(
    portfolio: Portfolio,
    budget: Budget,
    position: Position,
    moves: Sequence[Move],
    rated: list[MoveValue],
    view: _Steps,
    on_move: Callable[[MoveValue, int, int], None] | None,
) -> None:
    """Every move's value, appended to ``rated`` as it is proved (what a budget that runs out
    leaves there is what was proved).
    """
    for i, move in enumerate(moves):
        child = position.play(move)
        child_value = terminal_value(child) if child.is_terminal() else portfolio.value(child, budget)[0]
        mv = MoveValue(move, child_value)
        rated.append(mv)
        view.advance(portfolio.nodes)
        if on_move is not None:
            on_move(mv, i, len(moves))


ENGINE_NAMES = ("alpha-beta", "python", "proof", "table")
"""The engines of this package that ``solve`` takes by name (``table`` only with a table); a
result may also name ``retro`` (the ``python`` row on a game that need not end), ``quotient``,
``breaker`` (the policy's row from above) or ``rules`` (a finished game)."""


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


def prove(
    game: Game | str,
    position: Position | str | None = None,
    player: Player | None = None,
    *,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    max_cpu_seconds: float | None = None,
    progress: Steps | None = None,
) -> ProofResult:
    """Whether ``player`` (default: the side to move) can force a win from ``position`` (the
    start by default), by proof-number search (:mod:`noughts.proving.pns`): a yes/no answer that
    shares no code with the alpha-beta engines, so it checks them independently. Budgets and
    progress as in :func:`solve`.

    >>> prove("hypercube(3,3)").describe()
    'x can force a win'
    """
    from noughts.proving.pns import Prover

    game = as_game(game)
    position = as_position(game, position)
    prover = Prover(
        game,
        position.to_move if player is None else player,
        budget=Budget(max_seconds, max_memory, max_cpu_seconds),
    )
    view = _Steps(checked_progress(progress), f"proof-number search on {game}", 1)
    view.describe("nodes expanded")
    prover.on_progress = lambda p: view.tick(p.nodes)
    return prover.prove(position)


class _Steps:
    """The steps of a solve, reported to a :data:`Steps` callback (nothing where it is None)."""

    def __init__(self, progress: Steps | None, title: str, total: int):
        self.progress = progress
        self.title = title
        self.total = total
        self.nodes = 0
        self.detail = "the moves"
        self._done = 0

    def _report(self) -> None:
        if self.progress is not None:
            self.progress(self._done, self.total, f"{self.title}: {self.detail}, {self.nodes:,} positions")

    def tick(self, nodes: int) -> None:
        self.nodes = nodes
        self._report()

    def advance(self, nodes: int) -> None:
        self._done += 1
        self.tick(nodes)

    def describe(self, detail: str) -> None:
        self.detail = detail
        self._report()
