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
from typing import TYPE_CHECKING, Any, Protocol

from noughts.core import Game, LimitExceeded, Move, NoughtsError, Outcome, Player, Position
from noughts.core import game as make_game
from noughts.core.budget import Budget
from noughts.exact.reference import after_move, move_key, terminal_value
from noughts.exact.result import MoveValue, SolveResult, Value
from noughts.exact.search import Searcher

if TYPE_CHECKING:
    from noughts.exact.pns import ProofResult

__all__ = [
    "DEFAULT_MAX_MEMORY",
    "DEFAULT_MAX_SECONDS",
    "PYTHON_SEARCH_CELLS",
    "ValueOracle",
    "best_moves",
    "make_engine",
    "move_values",
    "principal_variation",
    "prove",
    "solve",
    "value_of_best",
]

DEFAULT_MAX_SECONDS = 60.0
DEFAULT_MAX_MEMORY = 2 * 1024**3


class ValueOracle(Protocol):
    """Anything that gives exact values of positions of one game."""

    def value(self, position: Position) -> Value: ...


PYTHON_SEARCH_CELLS = 12
"""Boards up to this many cells are searched in Python: the searcher answers in milliseconds,
and loading the compiled kernel would cost more than the search."""


def make_engine(game: Game, budget: Budget | None = None, *, prefer_fast: bool | None = None) -> ValueOracle:
    """The best exact solver for ``game``: the numba kernel where it takes the game, else the
    Python :class:`~noughts.exact.search.Searcher`. ``prefer_fast`` forces the choice; by
    default the kernel serves boards of more than :data:`PYTHON_SEARCH_CELLS` cells. A game that
    need not end is solved whole by retrograde analysis on the first question
    (:class:`~noughts.exact.retro.RetroOracle`).
    """
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

    In a game that need not end, a drawn line never ends: it follows the first move that keeps
    the draw and stops when a position comes back (the line then repeats).
    """
    if value is None:
        value = oracle.value(position)
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
    while not position.is_terminal():
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


def solve(
    game: Game | str,
    position: Position | str | None = None,
    *,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    max_cpu_seconds: float | None = None,
    table: Any = None,
    progress: bool = False,
) -> SolveResult:
    """Solve ``position`` (the start by default; a position or its text) of ``game`` (a game or
    a spec) exactly.

    Returns the position's value, every legal move's value (the value of the position it leads
    to, best first for the side to move) and the principal variation. ``max_seconds`` and
    ``max_memory`` (bytes; None for no limit) and ``max_cpu_seconds`` (CPU time of this process)
    bound the work: over budget, ``LimitExceeded``
    says how far it got. With ``table`` (a :class:`~noughts.exact.table.SolvedTable` of this
    game) the answer is looked up instead of searched. With ``progress``, work longer than a
    second shows a progress bar on stderr.
    """
    game = _as_game(game)
    position = _as_position(game, position)
    started = time.perf_counter()
    if table is not None:
        if getattr(table, "game", None) != game:
            raise NoughtsError(f"the table is one of {getattr(table, 'game', '?')}, not of {game}")
        oracle: ValueOracle = table
        budget = None
    else:
        budget = Budget(max_seconds=max_seconds, max_memory=max_memory, max_cpu_seconds=max_cpu_seconds)
        oracle = make_engine(game, budget)

    if position.is_terminal():
        value = terminal_value(position)
        return SolveResult(game, position, value, (), (), 0, time.perf_counter() - started)

    moves = position.legal_moves()
    view = _ProgressView(progress, f"solving {game}", len(moves) + 1)
    _attach(oracle, view)
    done = 0
    try:
        rated = []
        for move in moves:
            rated.append(MoveValue(move, oracle.value(position.play(move))))
            done += 1
            view.advance(_nodes(oracle))
        mover = position.to_move
        rated.sort(key=lambda mv: move_key(after_move(mv.value), mover), reverse=True)
        value = value_of_best(game, rated[0].value)
        view.describe("the principal variation")
        pv = principal_variation(oracle, position, value)
    except LimitExceeded as e:
        raise LimitExceeded(f"{e}; {done} of {len(moves)} moves of the position solved") from None
    finally:
        view.close()
        _attach(oracle, None)
    return SolveResult(game, position, value, tuple(rated), pv, _nodes(oracle), time.perf_counter() - started)


# -- helpers ------------------------------------------------------------------------------------------


def _as_game(game: Game | str) -> Game:
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        return make_game(game)
    raise NoughtsError(f"a game is a spec string or a Game, not {type(game).__name__}")


def _as_position(game: Game, position: Position | str | None) -> Position:
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

    game = _as_game(game)
    position = _as_position(game, position)
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
