"""Round-robin tournaments: every pair of agents plays a match, then everyone is rated.

Each pair plays ``games`` games with sides swapped every game; pair (i, j) draws its seed
from ``numpy.random.SeedSequence([seed, i, j])``, so a tournament repeats exactly with the same
seed. The standings list points (win 1, draw 1/2), and the ratings are Bradley-Terry on the
Elo scale (:func:`noughts.arena.ratings.bradley_terry`), with sequential Elo beside them.

>>> t = play_tournament("tictactoe", ["perfect", "random", "minimax:depth=1"], games=2, seed=0)
>>> [row["losses"] for row in t.standings() if row["agent"] == "perfect"]
[0]
"""

from __future__ import annotations

import itertools
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from noughts.arena.match import CONFIDENCE, MatchResult, MatchRun, play_chunk
from noughts.arena.ratings import Ratings, bradley_terry, elo
from noughts.core import Game, NoughtsError
from noughts.core import game as make_game

if TYPE_CHECKING:
    from noughts.store import Store

__all__ = ["TournamentResult", "pair_seed", "play_tournament"]


def pair_seed(seed: int, i: int, j: int) -> int:
    """The seed of the match between agents ``i`` and ``j`` of a tournament seeded ``seed``."""
    return int(np.random.SeedSequence([seed, i, j]).generate_state(1)[0])


@dataclass
class TournamentResult:
    """Every match of a round robin, its standings and ratings; ``to_json`` gives the schema."""

    spec: str
    agents: list[str]
    games: int
    seed: int
    matches: list[MatchResult] = field(default_factory=list)
    tournament_id: int | None = None
    seconds: float = 0.0

    def results(self) -> list[tuple[str, str, str]]:
        """Every game as (first, second, outcome), the input of ratings."""
        out: list[tuple[str, str, str]] = []
        for m in self.matches:
            names = {"A": m.agent_a, "B": m.agent_b}
            out.extend((names[g.first], names[g.second], g.outcome.value) for g in m.played)
        return out

    def ratings(self) -> Ratings:
        return bradley_terry(self.results())

    def standings(self) -> list[dict[str, Any]]:
        """Per agent: games, wins, draws, losses, points, score rate, BT and Elo ratings."""
        rows: dict[str, dict[str, Any]] = {
            a: {"agent": a, "games": 0, "wins": 0, "draws": 0, "losses": 0} for a in self.agents
        }
        for first, second, outcome in self.results():
            for me, side in ((first, "first"), (second, "second")):
                row = rows[me]
                row["games"] += 1
                if outcome == "draw":
                    row["draws"] += 1
                elif outcome == side:
                    row["wins"] += 1
                else:
                    row["losses"] += 1
        bt = self.ratings()
        seq = elo(self.results())
        out = []
        for row in rows.values():
            points = row["wins"] + row["draws"] / 2
            out.append(
                row
                | {
                    "points": points,
                    "score": points / row["games"] if row["games"] else None,
                    "rating": bt.ratings.get(row["agent"]),
                    "rating_stderr": (bt.stderr or {}).get(row["agent"]),
                    "elo": seq.ratings.get(row["agent"]),
                }
            )
        out.sort(key=lambda r: (-(r["rating"] or 0.0), -r["points"], r["agent"]))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.spec,
            "agents": list(self.agents),
            "games_per_pair": self.games,
            "seed": self.seed,
            "standings": self.standings(),
            "matches": [
                {
                    "a": m.agent_a,
                    "b": m.agent_b,
                    "a_wins": m.a_wins,
                    "draws": m.draws,
                    "b_wins": m.a_losses,
                    "a_score": m.score,
                    "seed": m.seed,
                    "match_id": m.match_id,
                }
                for m in self.matches
            ],
            "tournament_id": self.tournament_id,
            "seconds": self.seconds,
        }


def play_tournament(
    game: Game | str,
    agents: Sequence[str],
    *,
    games: int = 20,
    seed: int | None = None,
    store: Store | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = 1,
) -> TournamentResult:
    """Every pair of ``agents`` (agent specs, at least two, all different) plays ``games``
    games; see the module docstring. ``progress(done, total)`` counts games. ``workers``
    other than 1 plays every pair's games through one :func:`noughts.parallel.executor`.
    """
    agents = [a.strip() for a in agents]
    if len(agents) < 2:
        raise NoughtsError("a tournament needs at least two agents")
    if len(set(agents)) != len(agents):
        raise NoughtsError("each agent may enter a tournament once (give them different specs)")
    if games < 1:
        raise NoughtsError(f"each pair plays at least one game, not {games}")
    g = make_game(game) if isinstance(game, str) else game
    if seed is None:
        seed = secrets.randbelow(2**31)
    result = TournamentResult(str(g), agents, games, seed)
    if store is not None:
        result.tournament_id = store.new_tournament(str(g), agents, {"games": games, "seed": seed})
    pairs = list(itertools.combinations(range(len(agents)), 2))
    total = len(pairs) * games
    started = time.perf_counter()
    done = [0]

    def tick(*_: int) -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], total)

    runs = [
        MatchRun(
            g,
            agents[i],
            agents[j],
            games,
            True,
            pair_seed(seed, i, j),
            None,
            store,
            tick,
            CONFIDENCE,
            result.tournament_id,
        )
        for i, j in pairs
    ]
    if workers == 1:
        for run in runs:
            run.play_here()
    else:
        from noughts.parallel import executor

        with executor(workers=workers) as ex:
            size = max(1, -(-total // (4 * ex.workers)))
            size = min(size, games)
            tagged = [(n, job) for n, run in enumerate(runs) for job in run.jobs(size)]
            chunks = ex.map(
                play_chunk, [job for _, job in tagged], description=f"tournament on {g}", chunksize=1
            )
            for (n, _), chunk in zip(tagged, chunks, strict=True):
                for played in chunk:
                    runs[n].record(played)
    result.matches = [run.finish() for run in runs]
    result.seconds = time.perf_counter() - started
    return result
