"""Exact counts of positions and games, by dynamic programming over positions.

A game's move sequences form a tree; its positions form a DAG (different move orders reach
the same position). Counting walks the DAG ply by ply, carrying for each distinct position the
number of move sequences (*paths*) that reach it from the start, and stops at finished games
(play stops when the game ends). Every count comes from these path numbers, never from
enumerating games, so mnk(4,4,4)'s ~1.5·10^13 games take seconds. The definitions (see
``docs/counting.md``):

* **positions**: distinct reachable positions, the start and finished ones included, per ply
  and in total; **up to symmetry**: distinct ``canonical_key`` values among them.
* **games**: complete games, i.e. root-to-finish paths (move sequences that end the game), in
  total, by outcome and by length in plies.
* **terminal positions**: distinct finished positions, by outcome.
* **tree nodes**: the nodes of the game tree, i.e. paths from the start to any position (the
  empty path, the root, included): the sum of the path numbers of all positions.
* **games up to symmetry**, two definitions:

  (a) *orbits*: classes of complete games (move sequences) under the board's symmetry group
  acting on every move at once. By Burnside's lemma their number is the average, over the
  group elements g, of the number of complete games fixed by g, and a game is fixed by g iff
  every one of its moves is fixed by g, so each term is a count over the DAG restricted to
  the moves g fixes. 3x3 tic-tac-toe: 31,896 = 255,168 / 8 (no complete game is fixed by a
  symmetry other than the identity).

  (b) *quotient paths*: complete paths in the quotient DAG whose nodes are positions up to
  symmetry, with one edge from a class to each class among its children (children that are
  symmetric images of each other are merged). This is the tree you draw when at each move
  you list only the moves that give different positions up to symmetry. 3x3 tic-tac-toe:
  26,830, the figure usually quoted as "games up to symmetry".

Two implementations do the same work: a reference over the public position API (every game)
and NumPy kernels for the claim games (:mod:`noughts.exact._count_kernels`); the tests hold
the kernels to the reference.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from noughts.core import Game, LimitExceeded, Outcome, Position, Result, require_bounded
from noughts.core import game as make_game
from noughts.core.budget import Budget
from noughts.exact import _count_kernels as kernels

__all__ = ["CountResult", "Progress", "count", "fixed_action_sets"]

Method = Literal["auto", "reference", "fast"]

Progress: TypeAlias = Callable[[int, int, str], None]
"""A progress callback: ``(steps done, steps in all, what was just done)``. The counters call
it once per ply (the steps are plies, in all the longest game plus one); the CLI draws it as a
progress bar."""
CHECK_EVERY = 2048
"""Moves the reference plays between two budget checks (a few hundredths of a second)."""

OUTCOME_KEYS = ("first", "second", "draw")
_OUTCOME_KEY = {Outcome.FIRST: "first", Outcome.SECOND: "second", Outcome.DRAW: "draw"}
_CODE_KEY = {kernels.FIRST: "first", kernels.SECOND: "second", kernels.DRAW: "draw"}


@dataclass(frozen=True)
class CountResult:
    """Exact counts for one game (see the module docstring for each definition).

    Lists by ply are indexed by the number of plies (index 0: the start);
    ``games_by_length`` maps each length in plies that occurs to its number of games (in JSON
    the lengths are strings, as JSON keys must be).
    ``games_up_to_symmetry_orbits`` is None where noughts does not know the game's symmetry
    group as an action on moves; the symmetry fields are None when counted with
    ``symmetry=False``. ``method`` says which implementation counted (``reference`` or
    ``fast``). ``to_json()`` gives the document ``noughts count --json`` prints.
    """

    game: str
    positions: int
    positions_by_ply: list[int]
    positions_up_to_symmetry: int | None
    positions_up_to_symmetry_by_ply: list[int] | None
    terminal_positions_up_to_symmetry: int | None
    games: int | None
    games_by_outcome: dict[str, int]
    games_by_length: dict[int, int]
    terminal_positions: int
    terminal_positions_by_outcome: dict[str, int]
    tree_nodes: int | None
    games_up_to_symmetry_orbits: int | None
    games_up_to_symmetry_quotient: int | None
    symmetry_group_order: int | None
    method: str
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The counts as a JSON-ready dict with stable keys (the field names)."""
        return {
            "game": self.game,
            "positions": self.positions,
            "positions_by_ply": list(self.positions_by_ply),
            "positions_up_to_symmetry": self.positions_up_to_symmetry,
            "positions_up_to_symmetry_by_ply": (
                None
                if self.positions_up_to_symmetry_by_ply is None
                else list(self.positions_up_to_symmetry_by_ply)
            ),
            "terminal_positions_up_to_symmetry": self.terminal_positions_up_to_symmetry,
            "games": self.games,
            "games_by_outcome": dict(self.games_by_outcome),
            "games_by_length": {str(k): v for k, v in self.games_by_length.items()},
            "terminal_positions": self.terminal_positions,
            "terminal_positions_by_outcome": dict(self.terminal_positions_by_outcome),
            "tree_nodes": self.tree_nodes,
            "games_up_to_symmetry_orbits": self.games_up_to_symmetry_orbits,
            "games_up_to_symmetry_quotient": self.games_up_to_symmetry_quotient,
            "symmetry_group_order": self.symmetry_group_order,
            "method": self.method,
            "seconds": round(self.seconds, 6),
        }


def count(
    game: str | Game,
    *,
    budget: Budget | None = None,
    symmetry: bool = True,
    progress: Progress | None = None,
    method: Method = "auto",
) -> CountResult:
    """Count ``game``'s positions and games exactly (see the module docstring).

    ``budget`` (default :class:`Budget`'s limits) is checked between plies; over it,
    ``LimitExceeded`` says how far the count got. ``symmetry=False`` skips the counts up to
    symmetry. ``progress`` is called after each ply (see :data:`Progress`). ``method``: ``fast`` (the kernels;
    claim games on at most 64 cells only), ``reference`` (the plain DP over positions) or
    ``auto`` (fast where it applies).

    >>> r = count("tictactoe")
    >>> r.positions, r.positions_up_to_symmetry, r.games, r.terminal_positions, r.tree_nodes
    (5478, 765, 255168, 958, 549946)
    >>> r.games_by_outcome
    {'first': 131184, 'second': 77904, 'draw': 46080}
    >>> r.games_up_to_symmetry_quotient, r.games_up_to_symmetry_orbits
    (26830, 31896)
    """
    g = make_game(game)
    budget = Budget() if budget is None else budget
    progress = checked_progress(progress)
    started = time.perf_counter()
    if not g.properties.bounded:  # positions repeat: count the state graph instead
        return count_states(g, budget=budget, symmetry=symmetry, progress=progress, method=method)
    fast = kernels.supports(g)
    if method == "fast" and not fast:
        raise ValueError(
            f"the fast counter handles standard, misere, maker_breaker and cumulative games, not {g}"
        )
    if method == "reference" or (method == "auto" and not fast):
        fields = _count_reference(g, budget, symmetry, progress)
        name = "reference"
    elif method in ("auto", "fast"):
        fields = _count_fast(g, budget, symmetry, progress)
        name = "fast"
    else:
        raise ValueError(f"method must be 'auto', 'reference' or 'fast', not {method!r}")
    return CountResult(game=str(g), method=name, seconds=time.perf_counter() - started, **fields)


# -- shared pieces -------------------------------------------------------------------------------


@dataclass
class _Tally:
    """What the forward pass accumulates, ply by ply."""

    positions_by_ply: list[int] = field(default_factory=list)
    games_by_length: list[int] = field(default_factory=list)
    games_by_outcome: Counter[str] = field(default_factory=Counter)
    terminal_by_outcome: Counter[str] = field(default_factory=Counter)
    tree_nodes: int = 0

    def fields(self) -> dict[str, Any]:
        return {
            "positions": sum(self.positions_by_ply),
            "positions_by_ply": self.positions_by_ply,
            "games": sum(self.games_by_length),
            "games_by_outcome": {k: self.games_by_outcome[k] for k in OUTCOME_KEYS},
            "games_by_length": {n: g for n, g in enumerate(self.games_by_length) if g},
            "terminal_positions": sum(self.terminal_by_outcome.values()),
            "terminal_positions_by_outcome": {k: self.terminal_by_outcome[k] for k in OUTCOME_KEYS},
            "tree_nodes": self.tree_nodes,
        }


def _symmetry_fields(
    classes_by_ply: list[int] | None,
    terminal_classes: int | None,
    quotient_games: int | None,
    orbits: int | None,
    order: int | None,
) -> dict[str, Any]:
    return {
        "positions_up_to_symmetry": None if classes_by_ply is None else sum(classes_by_ply),
        "positions_up_to_symmetry_by_ply": classes_by_ply,
        "terminal_positions_up_to_symmetry": terminal_classes,
        "games_up_to_symmetry_quotient": quotient_games,
        "games_up_to_symmetry_orbits": orbits,
        "symmetry_group_order": order,
    }


class Plies:
    """Reports finished plies to a :data:`Progress` callback (or to nobody)."""

    def __init__(self, progress: Progress | None, total: int):
        self.progress = progress
        self.total = total
        self.done = 0

    def step(self, description: str) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total, description)

    def describe(self, description: str) -> None:
        """Say what is being done, without advancing."""
        if self.progress is not None:
            self.progress(self.done, self.total, description)


def checked_progress(progress: object) -> Progress | None:
    """``progress`` if it is a callback (or None); a clear ``TypeError`` otherwise."""
    if progress is not None and not callable(progress):
        raise TypeError(
            f"progress is a callback (done, total, description) or None, not {type(progress).__name__}"
        )
    return progress


def fixed_action_sets(game: Game) -> tuple[int, dict[frozenset[int], int]] | None:
    """The board's symmetry group acting on ``game``'s moves, for Burnside's lemma: its order
    and, for each set of actions that some group elements fix exactly, how many elements do
    (:meth:`noughts.core.Game.fixed_action_sets`). None for a game whose move symmetries
    noughts does not know.
    """
    return game.fixed_action_sets()


def _burnside(
    order: int,
    sets: dict[frozenset[int], int],
    all_actions: frozenset[int],
    total: int,
    fixed: Callable[[frozenset[int]], int],
) -> int:
    acc = 0
    for actions, weight in sets.items():
        acc += weight * (total if actions >= all_actions else fixed(actions))
    orbits, rest = divmod(acc, order)
    assert rest == 0, "Burnside's sum is not a multiple of the group order"
    return orbits


# -- the reference: a DP over Position values ---------------------------------------------------


def reference_levels(
    game: Game, budget: Budget, allowed: frozenset[int] | None = None, what: str = "counted"
) -> Iterator[dict[Position, int]]:
    """Yield, ply by ply, each reachable position with the number of paths reaching it (moves
    restricted to the actions in ``allowed`` when given). The plain reference over the public
    position API: every game that ends, slowly.
    """
    require_bounded(game, "counting by levels of plies")
    level = {game.start(): 1}
    ply = 0
    seen = 1
    while level:
        yield level
        nxt: dict[Position, int] = {}
        since = 0
        for done, (pos, paths) in enumerate(level.items(), 1):
            for move in pos.legal_moves():
                if allowed is not None and game.action(move) not in allowed:
                    continue
                child = pos.play(move)
                nxt[child] = nxt.get(child, 0) + paths
                since += 1
            if since >= CHECK_EVERY:  # inside the ply too: one ply of a large game takes minutes
                since = 0
                budget.check(
                    memory=400 * (seen + len(nxt)),
                    progress=f"{what} {ply} plies and {seen:,} positions of {game}; ply {ply + 1} had "
                    f"{len(nxt):,} positions from {done:,} of the {len(level):,} before it",
                )
        ply += 1
        seen += len(nxt)
        budget.check(memory=400 * seen, progress=f"{what} {ply} plies and {seen:,} positions of {game}")
        level = nxt


def _count_reference(game: Game, budget: Budget, symmetry: bool, progress: Progress | None) -> dict[str, Any]:
    tally = _Tally()
    all_positions: set[Position] = set()
    plies = Plies(progress, require_bounded(game, "counting by levels of plies") + 1)
    for ply, level in enumerate(reference_levels(game, budget)):
        plies.step(f"ply {ply}: {len(level):,} positions")
        tally.positions_by_ply.append(len(level))
        all_positions.update(level)
        games_here = 0
        for pos, paths in level.items():
            tally.tree_nodes += paths
            outcome = pos.outcome()
            if outcome is not None:
                key = _OUTCOME_KEY[outcome]
                games_here += paths
                tally.games_by_outcome[key] += paths
                tally.terminal_by_outcome[key] += 1
        tally.games_by_length.append(games_here)
    fields = tally.fields()
    fields["positions"] = len(all_positions)  # the same unless a position occurs at two plies
    if not symmetry:
        return fields | _symmetry_fields(None, None, None, None, None)
    classes_by_ply, terminal_classes, quotient = _quotient_reference(game, budget)
    orbits = None
    group = fixed_action_sets(game)
    if group is not None:
        order, sets = group
        all_actions = frozenset(range(game.num_actions))

        def fixed(actions: frozenset[int]) -> int:
            return sum(
                paths
                for level in reference_levels(game, budget, actions, "counted games fixed by a symmetry:")
                for pos, paths in level.items()
                if pos.is_terminal()
            )

        orbits = _burnside(order, sets, all_actions, fields["games"], fixed)
    group_order = group[0] if group else None
    return fields | _symmetry_fields(classes_by_ply, terminal_classes, quotient, orbits, group_order)


def _quotient_reference(game: Game, budget: Budget) -> tuple[list[int], int, int]:
    """Positions up to symmetry per ply, finished ones, and complete paths in the quotient DAG."""
    start = game.start()
    level: dict[Hashable, tuple[Position, int]] = {start.canonical_key(): (start, 1)}
    classes_by_ply = []
    games = 0
    terminal = 0
    seen = 0
    expanded = 0
    while level:
        classes_by_ply.append(len(level))
        seen += len(level)
        nxt: dict[Hashable, tuple[Position, int]] = {}
        for rep, q in level.values():
            if rep.is_terminal():
                games += q
                terminal += 1
                continue
            children: dict[Hashable, Position] = {}
            for move in rep.legal_moves():
                child = rep.play(move)
                children.setdefault(child.canonical_key(), child)
            for key, child in children.items():
                old = nxt.get(key)
                nxt[key] = (child, q) if old is None else (old[0], old[1] + q)
            expanded += len(children)
            if expanded >= CHECK_EVERY:
                expanded = 0
                budget.check(
                    memory=400 * (seen + len(nxt)),
                    progress=f"counted {len(classes_by_ply)} plies up to symmetry of {game} "
                    f"({len(nxt):,} classes into the next)",
                )
        budget.check(
            memory=400 * seen, progress=f"counted {len(classes_by_ply)} plies up to symmetry of {game}"
        )
        level = nxt
    return classes_by_ply, terminal, games


# -- the fast path: claim games as NumPy bit-mask arrays ------------------------------------------


def _count_fast(game: Game, budget: Budget, symmetry: bool, progress: Progress | None) -> dict[str, Any]:
    dag = kernels.ClaimDag(game)
    tally = _Tally()
    plies = Plies(progress, require_bounded(game, "counting by levels of plies") + 1)
    pace = _Pace()
    for level in dag.levels():
        pace.done(level, game.board.num_cells)
        _tally_level(tally, level)
        plies.step(f"ply {level.ply}: {len(level):,} positions")
        done = f"counted {level.ply} plies and {sum(tally.positions_by_ply):,} positions of {game}"
        budget.check(memory=_fast_memory(level, game.board.num_cells), progress=done)
        pace.check(budget, done)
    fields = tally.fields()
    if not symmetry:
        return fields | _symmetry_fields(None, None, None, None, None)
    classes_by_ply = []
    terminal_classes = 0
    quotient = 0
    for level in dag.quotient_levels():
        classes_by_ply.append(len(level))
        finished = level.outcome != kernels.RUNNING
        terminal_classes += int(finished.sum())
        quotient += kernels.exact_sum(level.paths[finished])
        budget.check(
            memory=_fast_memory(level, game.board.num_cells),
            progress=f"counted {level.ply} plies up to symmetry of {game}",
        )
    order, sets = fixed_action_sets(game) or (0, {})
    all_cells = frozenset(range(game.board.num_cells))

    def fixed(cells: frozenset[int]) -> int:
        total = 0
        for level in dag.levels(cells=sorted(cells)):
            total += kernels.exact_sum(level.paths[level.outcome != kernels.RUNNING])
            budget.check(progress=f"counted games fixed by a symmetry of {game} to ply {level.ply}")
        return total

    orbits = _burnside(order, sets, all_cells, fields["games"], fixed)
    return fields | _symmetry_fields(classes_by_ply, terminal_classes, quotient, orbits, order)


class _Pace:
    """How fast the kernels expand a ply (seconds per child), to refuse a ply that cannot end in
    time before starting it: one ply is one vectorised call that cannot stop halfway.
    """

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.children = 0
        self.per_child = 0.0

    def done(self, level: kernels.Level, cells: int) -> None:
        now = time.perf_counter()
        if self.children >= 100_000:  # smaller plies cost mostly the calls, not the children
            self.per_child = (now - self.last) / self.children
        self.children = int((level.outcome == kernels.RUNNING).sum()) * (cells - level.ply)
        self.last = now

    def check(self, budget: Budget, progress: str) -> None:
        left = budget.remaining()
        predicted = self.per_child * self.children
        if left is not None and self.per_child and predicted > left + 1.0:
            raise LimitExceeded(
                f"stopped with {left:.1f} s of the time budget left: the next ply would take about "
                f"{predicted:.0f} s; {progress}"
            )
        self.last = time.perf_counter()


def _fast_memory(level: kernels.Level, cells: int) -> int:
    """Bytes for ``level`` and the children it is about to have (about 48 bytes each, with the
    sort's temporaries).
    """
    running = int((level.outcome == kernels.RUNNING).sum())
    return level.nbytes + 48 * running * (cells - level.ply)


def _tally_level(tally: _Tally, level: kernels.Level) -> None:
    tally.positions_by_ply.append(len(level))
    tally.tree_nodes += kernels.exact_sum(level.paths)
    games_here = 0
    for code, key in _CODE_KEY.items():
        mask = level.outcome == code
        n = int(mask.sum())
        if n:
            paths = kernels.exact_sum(level.paths[mask])
            tally.terminal_by_outcome[key] += n
            tally.games_by_outcome[key] += paths
            games_here += paths
    tally.games_by_length.append(games_here)


def count_states(
    game: Game | str,
    *,
    budget: Budget | None = None,
    symmetry: bool = True,
    progress: Progress | None = None,
    method: str = "auto",
) -> CountResult:
    """``noughts.count`` for a game that need not end: its reachable positions (the states of
    the graph; ``positions_by_ply`` counts them by their distance from the start), those up to
    symmetry, and the finished ones by outcome. Games and game-tree nodes are infinitely many:
    those fields are None.
    """
    import numpy as np

    from noughts.retrograde.analysis import canonical_codes, sorted_unique, state_graph

    g = make_game(game)
    started = time.perf_counter()
    classes: int | None = None
    terminal_classes: int | None = None
    bar = Plies(progress, 2)

    def tick(stage: str, done: int) -> None:
        bar.describe(f"{stage} the states of {g}: {done:,}")

    graph = state_graph(g, budget=budget, method=method, progress=tick)
    bar.step(f"{graph.size:,} states of {g}; their classes under symmetry")
    if symmetry and graph.codes is not None:
        canon = canonical_codes(g, graph.codes)
        classes = int(sorted_unique(canon).size)
        terminal_classes = int(sorted_unique(canon[graph.outcome >= 0]).size)
    elif symmetry and graph.positions is not None:
        keys = [p.canonical_key() for p in graph.positions]
        classes = len(set(keys))
        terminal_classes = len({k for k, o in zip(keys, graph.outcome, strict=True) if o >= 0})
    bar.step("counted")
    names = {int(Result.FIRST): "first", int(Result.SECOND): "second", int(Result.DRAW): "draw"}
    by_outcome = dict.fromkeys(OUTCOME_KEYS, 0)
    for code, k in zip(*np.unique(graph.outcome[graph.outcome >= 0], return_counts=True), strict=True):
        by_outcome[names[int(code)]] = int(k)
    return CountResult(
        game=str(g),
        positions=graph.size,
        positions_by_ply=graph.positions_by_depth(),
        positions_up_to_symmetry=classes,
        positions_up_to_symmetry_by_ply=None,
        terminal_positions_up_to_symmetry=terminal_classes,
        games=None,
        games_by_outcome={},
        games_by_length={},
        terminal_positions=int((graph.outcome >= 0).sum()),
        terminal_positions_by_outcome=by_outcome,
        tree_nodes=None,
        games_up_to_symmetry_orbits=None,
        games_up_to_symmetry_quotient=None,
        symmetry_group_order=g.symmetry_count if symmetry else None,
        method=graph.method,
        seconds=time.perf_counter() - started,
    )
