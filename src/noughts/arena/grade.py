"""The oracle grade: how often an agent's move is optimal, judged by the exact solver.

``grade(agent, game)`` asks the agent for its move in every position reachable from the
start (both sides to move, every non-terminal position, each counted once; not up to symmetry)
and compares it with the exact values of every legal move there. A move is **optimal** when it
keeps the position's value class for the mover: it wins a won position, draws a drawn one, or
(in a lost position) loses, which any move does; under scoring rules it must keep the best
final score difference. With ``strict=True`` it must also keep the distance (win as fast, lose
as slowly as the solver). The **blunders** are the positions where the agent's move loses the
most: a won position thrown to a loss first, then won to drawn and drawn to lost, and under
scoring rules the largest drops of the final score difference; each with the board.

The grade also plays ``games`` games as first and as second against the perfect player (which
breaks ties among best moves at random, so a deterministic agent still meets varied lines)
and reports wins, draws and losses. On a game whose start is a draw, an agent that never
loses is as good as the perfect player; one that loses has a hole, and the blunders show it.

Where the reachable positions are too many, ``sample=N`` grades N distinct positions met in
random games instead (a uniformly random move at each ply, stopped at a uniformly random
ply): an estimate of the rate over the positions random play visits, not over all positions.

Games that need not end are graded the same way: their exact values come from the retrograde
solver, the random games that sample positions stop at ``properties.truncation`` plies, and a
game against the perfect player that reaches it is a draw by the move cap.

>>> from noughts.agents import make_agent
>>> g = grade(make_agent("perfect"), "tictactoe", games=2, seed=0)
>>> g.optimal_move_rate, g.positions, g.as_second.losses
(1.0, 4520, 0)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from noughts.agents import Agent
from noughts.arena.match import as_agent, game_rng, play_game
from noughts.core import Game, NoughtsError, Outcome, Player, Position
from noughts.core import game as make_game
from noughts.core.budget import Budget
from noughts.core.values import Value
from noughts.exact.api import ValueOracle, engine_name
from noughts.exact.estimate import TooManyPositions, refuse_if_more
from noughts.exact.reference import after_move, move_key

__all__ = ["Blunder", "Grade", "SideResult", "grade", "reachable_positions", "sample_positions"]

MAX_POSITIONS = 500_000
"""The most reachable positions ``grade`` enumerates before it asks for ``sample``."""


@dataclass(frozen=True)
class SideResult:
    """Games against the perfect player from one side."""

    games: int
    wins: int
    draws: int
    losses: int

    def to_json(self) -> dict[str, int]:
        return {"games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses}


@dataclass(frozen=True)
class Blunder:
    """A position where the agent's move was not optimal, and how much it cost."""

    position: str
    board: str
    to_move: str
    move: str
    best_moves: tuple[str, ...]
    value: str
    value_after: str
    loss: int

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "board": self.board,
            "to_move": self.to_move,
            "move": self.move,
            "best_moves": list(self.best_moves),
            "value": self.value,
            "value_after_move": self.value_after,
            "loss": self.loss,
        }


@dataclass(frozen=True)
class Grade:
    """An agent's oracle grade on one game; ``to_json`` gives the documented schema."""

    game: str
    agent: str
    positions: int
    optimal: int
    sampled: bool
    strict: bool
    as_first: SideResult
    as_second: SideResult
    blunders: list[Blunder] = field(default_factory=list)
    start_value: str = ""
    seconds: float = 0.0
    engine: str = ""
    """The engine that answered the start's value (:func:`noughts.exact.api.engine_name`)."""

    @property
    def optimal_move_rate(self) -> float:
        """The share of graded positions where the agent's move was optimal."""
        return self.optimal / self.positions if self.positions else 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "agent": self.agent,
            "optimal_move_rate": self.optimal_move_rate,
            "positions": self.positions,
            "optimal_positions": self.optimal,
            "sampled": self.sampled,
            "strict": self.strict,
            "start_value": self.start_value,
            "as_first": self.as_first.to_json(),
            "as_second": self.as_second.to_json(),
            "blunders": [b.to_json() for b in self.blunders],
            "seconds": self.seconds,
        }


def reachable_positions(
    game: Game, limit: int = MAX_POSITIONS, budget: Budget | None = None
) -> list[Position]:
    """Every non-terminal position reachable from the start, in breadth-first order.

    ``TooManyPositions`` past ``limit`` positions, ``LimitExceeded`` over ``budget`` (then grade a
    ``sample``).
    """
    start = game.start()
    seen = {start}
    frontier = [start]
    out: list[Position] = []
    while frontier:
        following = []
        for p in frontier:
            if p.is_terminal():
                continue
            out.append(p)
            if budget is not None and not len(out) % 4096:
                budget.check(progress=f"{len(out):,} positions of {game} listed; grade a sample (--sample N)")
            if len(out) > limit:
                raise TooManyPositions(
                    f"{game} has more than {limit:,} reachable positions: grade a sample (--sample N)"
                )
            for m in p.legal_moves():
                q = p.play(m)
                if q not in seen:
                    seen.add(q)
                    following.append(q)
        frontier = following
    return out


def sample_positions(game: Game, n: int, rng: np.random.Generator) -> list[Position]:
    """``n`` distinct non-terminal positions met in random games (see the module docstring);
    fewer if the game has fewer.
    """
    found: dict[Position, None] = {}
    attempts = 0
    cap = game.properties.move_cap  # a game that need not end is cut at its truncation
    while len(found) < n and attempts < 20 * n + 100:
        attempts += 1
        p = game.start()
        line = [p]
        while not p.is_terminal() and len(line) <= cap:
            moves = p.legal_moves()
            p = p.play(moves[int(rng.integers(len(moves)))])
            if not p.is_terminal():
                line.append(p)
        found.setdefault(line[int(rng.integers(len(line)))], None)
    return list(found)


def _worth(value: Value, mover: Player, scored: bool) -> int:
    """A move's worth for ``mover`` ignoring distance: the score difference (scored), else
    1 win, 0 draw, -1 loss.
    """
    if scored:
        assert value.score is not None
        return value.score if mover is Player.FIRST else -value.score
    if value.outcome is Outcome.DRAW:
        return 0
    return 1 if value.outcome.winner is mover else -1


def grade(
    agent: Agent | str,
    game: Game | str,
    *,
    sample: int | None = None,
    games: int = 20,
    seed: int | None = 0,
    rng: np.random.Generator | None = None,
    strict: bool = False,
    blunders: int = 10,
    oracle: ValueOracle | None = None,
    max_seconds: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Grade:
    """Grade ``agent`` (an agent or an agent spec) on ``game`` (a game or a spec) against the
    exact solver; see the module docstring.

    ``games`` games are played as each side against the perfect player. ``rng`` (or ``seed``)
    drives the agent's random choices, the sample and the games. ``oracle`` is any exact
    engine of the game (a :class:`~noughts.exact.table.SolvedTable` makes grading a sequence of
    look-ups); by default the one policy's engines (:class:`noughts.solving.PolicyOracle`). ``max_seconds`` bounds the
    whole work (``LimitExceeded``). ``progress(done, total)`` is called as positions are graded.
    """
    started = time.perf_counter()
    g = make_game(game) if isinstance(game, str) else game
    agent, agent_name = as_agent(agent)
    if rng is None:
        rng = np.random.default_rng(seed)
    budget = Budget(max_seconds=max_seconds, max_memory=2 * 1024**3)
    if oracle is None:
        from noughts.solving import PolicyOracle

        oracle = PolicyOracle(g, budget)
    scored = g.properties.is_scored
    if strict and not g.start().is_terminal() and oracle.value(g.start()).plies is None:
        raise NoughtsError(
            f"strict grading compares distances, and the {engine_name(oracle)} engine of {g} knows who wins, "
            "not in how many plies; grade without strict"
        )

    if sample is None:
        refuse_if_more(
            g,
            MAX_POSITIONS,
            f"the {MAX_POSITIONS:,} grade lists one by one: grade a sample (--sample N)",
            terminal=False,
        )
        positions = reachable_positions(g, budget=budget)
    else:
        if sample < 1:
            raise NoughtsError(f"the sample has at least one position, not {sample}")
        positions = sample_positions(g, sample, rng)

    optimal = 0
    found: list[tuple[tuple[int, int, int], Blunder]] = []
    for done, p in enumerate(positions, 1):
        if done % 64 == 0:
            budget.check(progress=f"{done - 1:,} of {len(positions):,} positions graded")
        mover = p.to_move
        moves = p.legal_moves()
        rated = {m: after_move(oracle.value(p.play(m))) for m in moves}
        best_key = max(_key(v, mover, scored, strict) for v in rated.values())
        chosen = agent.choose(p, rng)
        if chosen not in rated:
            raise NoughtsError(f"agent {agent_name!r} chose {chosen!r}, not a legal move of {p.text()!r}")
        if _key(rated[chosen], mover, scored, strict) == best_key:
            optimal += 1
        else:
            best_worth = max(_worth(v, mover, scored) for v in rated.values())
            loss = best_worth - _worth(rated[chosen], mover, scored)
            best = max(rated.values(), key=lambda v: move_key(v, mover))
            found.append(
                (
                    (loss, -_distance_gap(rated[chosen], best, mover), -done),
                    Blunder(
                        position=p.text(),
                        board=p.render(),
                        to_move=g.player_label(mover),
                        move=g.format_move(chosen),
                        best_moves=tuple(
                            g.format_move(m)
                            for m in moves
                            if _key(rated[m], mover, scored, strict) == best_key
                        ),
                        value=best.describe(g),
                        value_after=rated[chosen].describe(g),
                        loss=loss,
                    ),
                )
            )
        if progress is not None:
            progress(done, len(positions))
    found.sort(key=lambda item: item[0], reverse=True)

    from noughts.agents.perfect import PerfectAgent

    perfect = PerfectAgent(g, tie_break="random")
    sides = []
    base = int(rng.integers(2**31))
    for side in (Player.FIRST, Player.SECOND):
        w = d = lo = 0
        for i in range(games):
            budget.check(progress=f"{len(positions):,} positions graded; games against the perfect player")
            first, second = (agent, perfect) if side is Player.FIRST else (perfect, agent)
            outcome, _ = play_game(first, second, g.start(), game_rng(base, 2 * i + int(side)))
            if outcome is Outcome.DRAW:
                d += 1
            elif outcome.winner is side:
                w += 1
            else:
                lo += 1
        sides.append(SideResult(games, w, d, lo))
    start_value = oracle.value(g.start()).describe(g)
    return Grade(
        game=str(g),
        agent=agent_name,
        positions=len(positions),
        optimal=optimal,
        sampled=sample is not None,
        strict=strict,
        as_first=sides[0],
        as_second=sides[1],
        blunders=[b for _, b in found[:blunders]],
        start_value=start_value,
        seconds=time.perf_counter() - started,
        engine=engine_name(oracle),
    )


def _key(value: Value, mover: Player, scored: bool, strict: bool) -> tuple[int, ...]:
    if strict:
        return (move_key(value, mover)[0],)
    return (_worth(value, mover, scored),)


def _distance_gap(chosen: Value, best: Value, mover: Player) -> int:
    return move_key(best, mover)[0] - move_key(chosen, mover)[0]
