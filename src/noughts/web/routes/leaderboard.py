"""The leaderboard: Bradley-Terry ratings of the agents from the recorded games between them."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from noughts.web.arena import Arena
from noughts.web.sessions import check_game

__all__ = ["router"]


def router(arena: Arena) -> APIRouter:
    """``/api/leaderboard``."""
    routes = APIRouter()
    limits = arena.limits

    @routes.get("/api/leaderboard", tags=["leaderboard"])
    def leaderboard(
        game: str | None = Query(
            default=None, max_length=200, description="A game spec (default: the most played)."
        ),
    ) -> dict[str, Any]:
        """Bradley-Terry ratings (Elo scale) of the agents from every recorded finished game
        between agents (batches, matches, tournaments, watched games) of one game, with each
        agent's wins, draws and losses. Agents that are not linked by games played are rated
        in separate ``group``s (1 the largest): their ratings share no scale.
        """
        from noughts.arena.ratings import bradley_terry, connected_groups

        played = arena.store.finished_counts(without="human")
        spec = (
            str(check_game(game, limits))
            if game
            else (max(played, key=lambda k: played[k]) if played else None)
        )
        out: dict[str, Any] = {
            "game": spec,
            "games": sorted(played.items(), key=lambda kv: -kv[1]),
            "ratings": [],
        }
        if spec is None:
            return out
        results = [r for r in arena.store.match_results(spec=spec) if "human" not in (r.first, r.second)]
        if not results:
            return out
        tally: dict[str, list[int]] = {}
        for r in results:
            for who, won in ((r.first, "first"), (r.second, "second")):
                t = tally.setdefault(who, [0, 0, 0])
                t[0 if r.outcome == won else 1 if r.outcome == "draw" else 2] += 1
        for group, games_of in enumerate(connected_groups(results), 1):
            ratings = bradley_terry(games_of)
            out["ratings"].extend(
                {
                    "agent": a,
                    "group": group,
                    "rating": round(v, 1),
                    "stderr": None if se is None else round(se, 1),
                    "games": n,
                    "wins": tally[a][0],
                    "draws": tally[a][1],
                    "losses": tally[a][2],
                }
                for a, v, se, n in ratings.table()
            )
        out["groups"] = max((r["group"] for r in out["ratings"]), default=0)
        return out

    return routes
