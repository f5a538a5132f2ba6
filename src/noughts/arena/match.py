"""Games and matches between agents, with side swapping, seeds and confidence intervals.

A match is ``games`` games of one game between agents A and B. With ``swap`` they take turns
to move first (A first in games 0, 2, 4, ...), so the first-move advantage cancels out of the
score. Game ``i`` draws its randomness from ``numpy.random.default_rng([seed, i])``: a match
repeats exactly with the same seed, whatever order (or process) its games are played in.

In a game that need not end, a game still running after the game's ``properties.truncation``
plies is stopped there and scored a draw (see :func:`play_game`).

The score of A counts a win 1, a draw 1/2, a loss 0. Its confidence interval is Student's t
interval over the per-game scores (SciPy); each outcome rate gets a Wilson score interval
(``scipy.stats.binomtest(...).proportion_ci(method="wilson")``). The Elo difference implied by
a score rate s is ``400 log10(s / (1 - s))``, and its interval is the score interval mapped the
same way (infinite at a score of 0 or 1).

>>> import noughts
>>> r = play_match("tictactoe", "perfect", "random", games=4, seed=1)
>>> r.a_losses, r.games
(0, 4)
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from noughts.agents import Agent, make_agent
from noughts.agents.base import AgentForfeit
from noughts.core import Game, IllegalMoveError, Move, NoughtsError, Outcome, Player, Position
from noughts.core import game as make_game

if TYPE_CHECKING:
    from noughts.store import Store

__all__ = [
    "GamePlayed",
    "MatchResult",
    "close_agents",
    "game_rng",
    "play_game",
    "play_match",
    "score_interval",
    "wilson_interval",
]

CONFIDENCE = 0.95


@dataclass(frozen=True)
class GamePlayed:
    """One finished game of a match: ``first`` and ``second`` are ``"A"`` or ``"B"`` (which agent
    moved first), the outcome, and the moves in notation; ``forfeit``: why the loser forfeited
    (an engine that crashed, hung or played an illegal move), or None.
    """

    index: int
    first: str
    second: str
    outcome: Outcome
    moves: tuple[str, ...]
    forfeit: str | None = None


def game_rng(seed: int, index: int) -> np.random.Generator:
    """The random generator of game ``index`` of a match or tournament seeded ``seed``."""
    return np.random.default_rng([seed, index])


def play_game(
    first: Agent,
    second: Agent,
    start: Position,
    rng: np.random.Generator,
    on_move: Callable[[Position, Move], None] | None = None,
    max_plies: int | None = None,
    on_forfeit: Callable[[Player, str], None] | None = None,
) -> tuple[Outcome, list[Move]]:
    """Play ``first`` (the player who moves first) against ``second`` from ``start`` to the end.

    An agent that answers an illegal move raises ``IllegalMoveError`` naming the agent. A game
    that need not end (marks vanish or move) is stopped after ``max_plies`` moves (default: the
    game's ``properties.truncation``) and scored a draw by the move cap, the value of a game
    that goes on for ever. An agent that raises :class:`~noughts.agents.base.AgentForfeit` (an
    external engine that crashed, hung or played an illegal move) loses the game there;
    ``on_forfeit(player, reason)`` hears of it.
    """
    position = start
    moves: list[Move] = []
    players = {Player.FIRST: first, Player.SECOND: second}
    cap = start.game.properties.truncation if max_plies is None else max_plies
    while not position.is_terminal():
        if cap is not None and len(moves) >= cap:
            return Outcome.DRAW, moves
        agent = players[position.to_move]
        try:
            move = agent.choose(position, rng)
        except AgentForfeit as e:
            if on_forfeit is not None:
                on_forfeit(position.to_move, str(e))
            return Outcome.win_for(position.to_move.other), moves
        try:
            following = position.play(move)
        except IllegalMoveError as e:
            raise IllegalMoveError(
                f"agent {getattr(agent, 'name', agent)!r} played an illegal move: {e}"
            ) from None
        if on_move is not None:
            on_move(position, move)
        moves.append(move)
        position = following
    outcome = position.outcome()
    assert outcome is not None
    return outcome, moves


def wilson_interval(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (SciPy); (0, 1) with no trials."""
    if trials == 0:
        return (0.0, 1.0)
    from scipy.stats import binomtest

    ci = binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def score_interval(wins: int, draws: int, losses: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Student's t interval of the mean per-game score (win 1, draw 1/2, loss 0), clipped to
    [0, 1]; with no spread (every game the same result) the Wilson interval of the decisive
    count is used instead, so a perfect score still gets an honest interval below 1.
    """
    n = wins + draws + losses
    if n == 0:
        return (0.0, 1.0)
    mean = (wins + draws / 2) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / max(1, n - 1)
    if n < 2 or var == 0:
        return wilson_interval(round(mean * n), n, confidence) if draws in (0, n) else (mean, mean)
    from scipy.stats import t

    half = float(t.ppf(0.5 + confidence / 2, n - 1)) * math.sqrt(var / n)
    return (max(0.0, mean - half), min(1.0, mean + half))


def elo_from_score(s: float) -> float:
    """The Elo difference a score rate ``s`` implies (±inf at 0 and 1)."""
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return 400 * math.log10(s / (1 - s))


@dataclass
class MatchResult:
    """What a match produced, from A's side; ``to_json`` gives the documented schema."""

    spec: str
    agent_a: str
    agent_b: str
    seed: int
    swap: bool
    played: list[GamePlayed] = field(default_factory=list)
    seconds: float = 0.0
    match_id: int | None = None
    confidence: float = CONFIDENCE

    def _tally(self, side: Player | None = None) -> tuple[int, int, int]:
        w = d = lo = 0
        for g in self.played:
            a_side = Player.FIRST if g.first == "A" else Player.SECOND
            if side is not None and a_side is not side:
                continue
            if g.outcome is Outcome.DRAW:
                d += 1
            elif g.outcome.winner is a_side:
                w += 1
            else:
                lo += 1
        return w, d, lo

    @property
    def games(self) -> int:
        return len(self.played)

    @property
    def a_wins(self) -> int:
        return self._tally()[0]

    @property
    def draws(self) -> int:
        return self._tally()[1]

    @property
    def a_losses(self) -> int:
        return self._tally()[2]

    @property
    def score(self) -> float:
        """A's score rate: (wins + draws / 2) / games."""
        w, d, lo = self._tally()
        n = w + d + lo
        return (w + d / 2) / n if n else 0.5

    def to_json(self) -> dict[str, Any]:
        """The match as JSON (the schema of ``noughts match --json``, documented in ``docs/agents.md``)."""
        w, d, lo = self._tally()
        n = w + d + lo
        low, high = score_interval(w, d, lo, self.confidence)

        def rates(wins: int, draws: int, losses: int) -> dict[str, Any]:
            total = wins + draws + losses
            return {
                "games": total,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "win_rate_ci": list(wilson_interval(wins, total, self.confidence)),
                "draw_rate_ci": list(wilson_interval(draws, total, self.confidence)),
                "loss_rate_ci": list(wilson_interval(losses, total, self.confidence)),
            }

        return {
            "game": self.spec,
            "a": self.agent_a,
            "b": self.agent_b,
            "games": n,
            "swap": self.swap,
            "seed": self.seed,
            "confidence": self.confidence,
            "a_wins": w,
            "draws": d,
            "b_wins": lo,
            "a_score": self.score if n else None,
            "a_score_ci": [low, high],
            "elo_difference": _finite(elo_from_score(self.score)) if n else None,
            "elo_difference_ci": [_finite(elo_from_score(low)), _finite(elo_from_score(high))],
            "a_as_first": rates(*self._tally(Player.FIRST)),
            "a_as_second": rates(*self._tally(Player.SECOND)),
            "outcomes_by_side": {
                "first": sum(g.outcome is Outcome.FIRST for g in self.played),
                "second": sum(g.outcome is Outcome.SECOND for g in self.played),
                "draw": sum(g.outcome is Outcome.DRAW for g in self.played),
            },
            "forfeits": [{"game": g.index, "reason": g.forfeit} for g in self.played if g.forfeit],
            "match_id": self.match_id,
            "seconds": self.seconds,
        }


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def as_agent(agent: Agent | str) -> tuple[Agent, str]:
    """An agent and its name: a spec is built with ``make_agent`` and named by itself."""
    if isinstance(agent, str):
        return make_agent(agent), agent.strip()
    return agent, str(getattr(agent, "name", type(agent).__name__))


def play_chunk(job: tuple[str, str, str, int, bool, Sequence[int], str | None]) -> list[GamePlayed]:
    """Play the games ``indices`` of a match between agent specs (for the parallel executor)."""
    spec, a_spec, b_spec, seed, swap, indices, start = job
    game = make_game(spec)
    a, b = make_agent(a_spec), make_agent(b_spec)
    begin = game.start() if start is None else game.parse(start)
    played = [_one(game, a, b, seed, swap, i, begin) for i in indices]
    close_agents(a, b)
    return played


def close_agents(*agents: Agent) -> None:
    """End what agents hold (a pbrain engine's process): each one's ``close()``, if it has one."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if callable(close):
            close()


def _one(game: Game, a: Agent, b: Agent, seed: int, swap: bool, index: int, start: Position) -> GamePlayed:
    a_first = not swap or index % 2 == 0
    first, second = (a, b) if a_first else (b, a)
    forfeits: list[str] = []
    names = ("A", "B") if a_first else ("B", "A")

    def forfeit(player: Player, reason: str) -> None:
        forfeits.append(f"{names[player]} forfeits: {reason}")

    outcome, moves = play_game(first, second, start, game_rng(seed, index), on_forfeit=forfeit)
    return GamePlayed(
        index,
        names[0],
        names[1],
        outcome,
        tuple(game.format_move(m) for m in moves),
        forfeits[0] if forfeits else None,
    )


def play_match(
    game: Game | str,
    agent_a: Agent | str,
    agent_b: Agent | str,
    *,
    games: int = 100,
    swap: bool = True,
    seed: int | None = None,
    start: Position | str | None = None,
    store: Store | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = 1,
    confidence: float = CONFIDENCE,
    tournament_id: int | None = None,
) -> MatchResult:
    """Play ``games`` games between A and B; see the module docstring.

    Agents are agent specs (``minimax:depth=3``, ``mcts:sims=2000``, ``random``, a saved
    ``x.json``) or agent objects. ``seed`` (default: a fresh one, kept in the result) makes the
    match repeatable. With ``store`` every game is recorded, as it finishes, under a new match.
    ``progress(done, total)`` is called after each game. ``workers`` other than 1 plays the
    games through :func:`noughts.parallel.executor` (local processes; agents given as specs
    only, else in this process), in chunks; the result is the same as in one process.
    """
    run = MatchRun(
        game, agent_a, agent_b, games, swap, seed, start, store, progress, confidence, tournament_id
    )
    parallel = workers != 1 and isinstance(agent_a, str) and isinstance(agent_b, str)
    if not parallel:
        run.play_here()
    else:
        from noughts.parallel import executor

        with executor(workers=workers) as ex:
            jobs = run.jobs(max(1, -(-games // (4 * ex.workers))))
            description = f"{run.result.agent_a} vs {run.result.agent_b}"
            for played_chunk in ex.map(play_chunk, jobs, description=description, chunksize=1):
                for played in played_chunk:
                    run.record(played)
    return run.finish()


class MatchRun:
    """One match being played: its agents, its result so far, and where its games go."""

    def __init__(
        self,
        game: Game | str,
        agent_a: Agent | str,
        agent_b: Agent | str,
        games: int,
        swap: bool,
        seed: int | None,
        start: Position | str | None,
        store: Store | None,
        progress: Callable[[int, int], None] | None,
        confidence: float,
        tournament_id: int | None,
    ):
        if games < 1:
            raise NoughtsError(f"a match has at least one game, not {games}")
        self.game = make_game(game) if isinstance(game, str) else game
        self.a, a_name = as_agent(agent_a)
        self.b, b_name = as_agent(agent_b)
        self.specs = (agent_a, agent_b)
        self.seed = secrets.randbelow(2**31) if seed is None else seed
        g = self.game
        self.begin = g.start() if start is None else g.parse(start) if isinstance(start, str) else start
        self.start_text = None if start is None else self.begin.text()
        self.games, self.swap, self.store, self.progress = games, swap, store, progress
        self.result = MatchResult(str(g), a_name, b_name, self.seed, swap, confidence=confidence)
        if store is not None:
            self.result.match_id = store.new_match(
                str(g),
                a_name,
                b_name,
                {"games": games, "swap": swap, "seed": self.seed, "start": self.start_text},
                tournament_id=tournament_id,
            )
        self.names = {"A": a_name, "B": b_name}
        self.started = time.perf_counter()

    def jobs(self, size: int) -> list[tuple[str, str, str, int, bool, Sequence[int], str | None]]:
        """The match's games in chunks of ``size``, as jobs for :func:`play_chunk`."""
        a, b = self.specs
        assert isinstance(a, str) and isinstance(b, str)
        return [
            (str(self.game), a, b, self.seed, self.swap, range(s, min(self.games, s + size)), self.start_text)
            for s in range(0, self.games, size)
        ]

    def play_here(self) -> None:
        """Play and record every game of the match in this process."""
        for i in range(self.games):
            self.record(_one(self.game, self.a, self.b, self.seed, self.swap, i, self.begin))

    def record(self, played: GamePlayed) -> None:
        result = self.result
        result.played.append(played)
        if self.store is not None and result.match_id is not None:
            self.store.record_match_game(
                result.match_id,
                self.names[played.first],
                self.names[played.second],
                played.outcome,
                played.moves,
                start=self.start_text,
                metadata={"index": played.index, "seed": self.seed}
                | ({"forfeit": played.forfeit} if played.forfeit else {}),
            )
        if self.progress is not None:
            self.progress(len(result.played), self.games)

    def finish(self) -> MatchResult:
        close_agents(self.a, self.b)
        result = self.result
        result.played.sort(key=lambda p: p.index)
        result.seconds = time.perf_counter() - self.started
        return result
