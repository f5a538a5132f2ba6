"""Building the benchmark: positions drawn from varied play, every legal move labelled exactly.

For each game of the plan (:mod:`noughts.dataset.plan`) positions are listed whole (the small
games, breadth first, one per symmetry class) or met in games walked from the start by players
of several strengths (:data:`~noughts.dataset.plan.STYLES`: random, a noisy perfect player
whose value-keeping moves come from the labels just computed, minimax, MCTS), after a few
random opening plies. Each position is kept once per symmetry class
(:meth:`~noughts.core.Position.canonical_key`) and labelled through the solver's public API:
every legal move with the exact value of the position it leads to
(:func:`noughts.exact.api.move_values` over one engine of the game, or
:func:`noughts.solving.solve` with a budget per position for the games where early positions
are hard), the distance in plies where the engine knows it. A position the solver cannot
finish within its budget is skipped and counted. Everything random comes from one seeded
generator per game, so a build is deterministic given its seed (unless the per-position
budget, a wall-clock limit, cuts a different position on a slower machine: the card counts
the skipped ones).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from noughts.core import Game, LimitExceeded, Move, Outcome, Player, Position
from noughts.core import game as make_game
from noughts.core.budget import Budget
from noughts.core.values import Value
from noughts.dataset.plan import STYLES, Plan
from noughts.exact.api import ValueOracle, engine_name, make_engine, move_values
from noughts.exact.reference import after_move

__all__ = ["GameBuild", "Row", "build_game", "worth"]

UNKNOWN = -1
"""``plies`` where the engine proves who wins but not in how many plies (or a draw of a game
that need not end, which has no length)."""

IDLE_GAMES = 400
"""A walk stops after this many games in a row that found no new position (the game's
positions reachable by the walk are exhausted)."""


def worth(value: Value, mover: Player) -> int:
    """A value as ``mover`` sees it: 1 a win, 0 a draw, -1 a loss (the distance aside)."""
    if value.outcome is Outcome.DRAW:
        return 0
    return 1 if value.outcome.winner is mover else -1


@dataclass(frozen=True)
class Row:
    """One labelled position: the benchmark's unit (a row of the Parquet file)."""

    game: str
    position: str
    ply: int
    to_move: int
    source: str
    engine: str
    value: int
    plies: int
    moves: tuple[str, ...]
    move_values: tuple[int, ...]
    move_plies: tuple[int, ...]


@dataclass
class GameBuild:
    """One game's rows and how they were made (the card's entry for the game)."""

    plan: Plan
    rows: list[Row] = field(default_factory=list)
    skipped: int = 0
    games_walked: int = 0
    seconds: float = 0.0
    complete: bool = True
    stopped: str | None = None

    def summary(self) -> dict[str, Any]:
        """The card's entry for this game."""
        sources: dict[str, int] = {}
        engines: dict[str, int] = {}
        values = {"win": 0, "draw": 0, "loss": 0}
        for r in self.rows:
            sources[r.source] = sources.get(r.source, 0) + 1
            engines[r.engine] = engines.get(r.engine, 0) + 1
            values[("loss", "draw", "win")[r.value + 1]] += 1
        return {
            "positions": len(self.rows),
            "moves": sum(len(r.moves) for r in self.rows),
            "target": self.plan.target,
            "how": "every reachable position up to symmetry"
            if self.plan.exhaustive
            else f"walked games, {self.plan.opening} random opening plies, labelled from ply {self.plan.min_ply}",
            "games_walked": self.games_walked,
            "sources": sources,
            "engines": engines,
            "values_for_the_mover": values,
            "skipped_over_budget": self.skipped,
            "per_position_seconds": None if self._shared() else self.plan.per_position,
            "seconds": round(self.seconds, 2),
            "complete": self.complete,
            "stopped": self.stopped,
        }

    def _shared(self) -> bool:
        return shared_engine(self.plan)


def shared_engine(plan: Plan) -> bool:
    """Whether one engine labels every position of the game (else one solve per position,
    each with its own budget).
    """
    return plan.engine == "auto" and plan.min_ply == 0


class _Labeller:
    """The labels of one game's positions, through the solver's public API."""

    def __init__(self, game: Game, plan: Plan, budget: Budget):
        self.game = game
        self.plan = plan
        self.budget = budget
        self.oracle: ValueOracle | None = make_engine(game, budget) if shared_engine(plan) else None
        self.bounded = game.properties.bounded

    def rate(self, position: Position) -> tuple[list[tuple[Move, Value]], str] | None:
        """Every legal move of ``position`` with its value for the mover (:func:`after_move`),
        in ``legal_moves()`` order, and the engine that answered; None over the per-position budget.
        """
        if self.oracle is not None:
            rated = {mv.move: after_move(mv.value) for mv in move_values(self.oracle, position)}
            engine = engine_name(self.oracle)
        else:
            from noughts.solving import solve

            left = self.budget.remaining()
            seconds = self.plan.per_position if left is None else max(0.01, min(self.plan.per_position, left))
            try:
                result = solve(self.game, position, max_seconds=seconds, engine=self.plan.engine)
            except LimitExceeded:
                self.budget.check(progress="")  # the whole build's budget, if that is what ran out
                return None
            rated = {mv.move: after_move(mv.value) for mv in result.moves}
            engine = result.engine
        return [(m, rated[m]) for m in position.legal_moves()], engine

    def row(self, position: Position, ply: int, source: str) -> tuple[Row, list[Move]] | None:
        """The row of ``position`` and its value-keeping moves; None over budget."""
        labelled = self.rate(position)
        if labelled is None:
            return None
        rated, engine = labelled
        mover = position.to_move
        worths = [worth(v, mover) for _, v in rated]
        best = max(worths)
        plies = [self._plies(v) for _, v in rated]
        keep = [m for (m, _), w in zip(rated, worths, strict=True) if w == best]
        # the position's distance: the best move's (fastest win, slowest loss, longest draw)
        ranked = [p for w, p in zip(worths, plies, strict=True) if w == best]
        if UNKNOWN in ranked:
            distance = UNKNOWN
        elif best > 0:
            distance = min(ranked)
        else:
            distance = max(ranked)
        row = Row(
            game=str(self.game),
            position=position.text(),
            ply=ply,
            to_move=int(mover),
            source=source,
            engine=engine,
            value=best,
            plies=distance,
            moves=tuple(self.game.format_move(m) for m, _ in rated),
            move_values=tuple(worths),
            move_plies=tuple(plies),
        )
        return row, keep

    def _plies(self, value: Value) -> int:
        if value.plies is None or (value.outcome is Outcome.DRAW and not self.bounded):
            return UNKNOWN
        return value.plies


def build_game(
    plan: Plan,
    seed: int,
    index: int,
    budget: Budget,
    progress: Callable[[int], None] | None = None,
) -> GameBuild:
    """One game's rows (see the module docstring). ``index`` (the plan's place in the full
    list) and ``seed`` seed its generator; ``budget`` bounds the work: past it the rows so far
    are kept and the build is marked incomplete.
    """
    started = time.perf_counter()
    game = make_game(plan.spec)
    out = GameBuild(plan)
    rng = np.random.default_rng([seed, index])
    try:
        labeller = _Labeller(game, plan, budget)
        if plan.exhaustive:
            _list_all(game, plan, labeller, out, budget, progress)
        else:
            _walk(game, plan, labeller, out, rng, budget, progress)
    except LimitExceeded as e:
        out.complete = False
        out.stopped = str(e)
    out.seconds = time.perf_counter() - started
    return out


def _list_all(
    game: Game,
    plan: Plan,
    labeller: _Labeller,
    out: GameBuild,
    budget: Budget,
    progress: Callable[[int], None] | None,
) -> None:
    start = game.start()
    seen: set[Hashable] = {start.canonical_key()}
    frontier = [start]
    ply = 0
    while frontier and len(out.rows) < plan.target:
        following: list[Position] = []
        for p in frontier:
            if p.is_terminal():
                continue
            budget.check(progress=f"{len(out.rows):,} positions of {game} labelled")
            made = labeller.row(p, ply, "all")
            if made is None:
                out.skipped += 1
            else:
                out.rows.append(made[0])
                if progress is not None:
                    progress(len(out.rows))
                if len(out.rows) >= plan.target:
                    return
            for m in p.legal_moves():
                q = p.play(m)
                key = q.canonical_key()
                if key not in seen:
                    seen.add(key)
                    following.append(q)
        frontier = following
        ply += 1


def _walk(
    game: Game,
    plan: Plan,
    labeller: _Labeller,
    out: GameBuild,
    rng: np.random.Generator,
    budget: Budget,
    progress: Callable[[int], None] | None,
) -> None:
    from noughts.agents import make_agent

    agents = [(spec, make_agent(spec)) for spec in plan.agents]
    seen: set[Hashable] = set()
    keep_moves: dict[Position, list[Move]] = {}
    idle = 0
    while len(out.rows) < plan.target and idle < IDLE_GAMES:
        style = STYLES[out.games_walked % len(STYLES)]
        agent = None
        if style == "agent":
            if agents:
                style, agent = agents[(out.games_walked // len(STYLES)) % len(agents)]
            else:
                style = "random"
        out.games_walked += 1
        found = len(out.rows)
        p = game.start()
        ply = 0
        while not p.is_terminal() and len(out.rows) < plan.target:
            budget.check(progress=f"{len(out.rows):,} positions of {game} labelled")
            if ply >= plan.min_ply:
                key = p.canonical_key()
                if key not in seen:
                    seen.add(key)
                    made = labeller.row(p, ply, style)
                    if made is None:
                        out.skipped += 1
                    else:
                        out.rows.append(made[0])
                        keep_moves[p] = made[1]
                        if progress is not None:
                            progress(len(out.rows))
            p = p.play(_pick(p, ply, plan, style, agent, keep_moves, rng))
            ply += 1
        idle = 0 if len(out.rows) > found else idle + 1


def _pick(
    p: Position,
    ply: int,
    plan: Plan,
    style: str,
    agent: Any,
    keep_moves: dict[Position, list[Move]],
    rng: np.random.Generator,
) -> Move:
    moves = p.legal_moves()
    if ply >= plan.opening:
        if agent is not None:
            chosen: Move = agent.choose(p, rng)
            return chosen
        if style.startswith("noisy:") and rng.random() < float(style.partition(":")[2]):
            best = keep_moves.get(p)
            if best:
                return best[int(rng.integers(len(best)))]
    return moves[int(rng.integers(len(moves)))]
