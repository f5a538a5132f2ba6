"""The arena's own endpoints: the page, the health check, the presets, a game's facts and the
agents a seat can hold.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse

import noughts
from noughts.core import Player
from noughts.web.arena import Arena
from noughts.web.boards import board_view
from noughts.web.models import AgentInfo, GameInfo, Preset
from noughts.web.presets import BUILT_IN, PRESETS, STATIC
from noughts.web.routes.common import position_of
from noughts.web.sessions import check_game

__all__ = ["router"]


def router(arena: Arena) -> APIRouter:
    """The page, ``/api/health``, ``/api/presets``, ``/api/game-info`` and ``/api/agents``."""
    routes = APIRouter()
    limits = arena.limits
    pool = arena.pool

    @routes.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @routes.get("/api/health", tags=["arena"])
    async def health() -> dict[str, Any]:
        """Whether the arena is up, its version, its workers, and its limits (answered on the
        server's event loop, never behind the work).
        """
        return {
            "ok": True,
            "version": noughts.__version__,
            "store": arena.store.path if arena.store.path == ":memory:" else Path(arena.store.path).name,
            "workers": pool.stats() | {"pids": None},
            "uptime": round(time.time() - arena.started, 1),
            "limits": {k: getattr(limits, k) for k in limits.__dataclass_fields__},
            "features": arena.features,
        }

    @routes.get("/api/presets", tags=["games"], response_model=list[Preset])
    def presets() -> list[dict[str, str]]:
        """The games of the sources, ready to pick (any other spec works too), each with the
        opponent that answers it well within a move's time limit.
        """
        return [{"spec": s, "name": n, "note": t, "opponent": o} for s, n, t, o in PRESETS]

    @routes.get("/api/game-info", tags=["games"], response_model=GameInfo)
    def game_info(
        spec: str = Query(min_length=1, max_length=200, description="A game spec."),
        position: str | None = Query(default=None, max_length=4000, description="A position's text."),
    ) -> dict[str, Any]:
        """A game's facts (rules, cells, lines, symmetries, notation) and the board of a position
        (the empty board by default).
        """
        from noughts.core.registry import rules_summary

        game = check_game(spec, limits)
        start = position_of(game, position)
        return {
            "game": str(game),
            "rules": rules_summary(game),
            "cells": game.board.num_cells,
            "lines": len(game.board.lines),
            "symmetries": game.symmetry_count,
            "players": [game.player_label(p) for p in Player],
            "notation": game.notation_help(),
            "start": game.start().text(),
            "position": start.text(),
            "to_move": None if start.is_terminal() else game.player_label(start.to_move),
            "result": None if start.outcome() is None else game.outcome_text(start.outcome()),  # type: ignore[arg-type]
            "view": board_view(game, start),
        }

    @routes.get("/api/agents", tags=["agents"], response_model=list[AgentInfo])
    def agents(
        game: str | None = Query(
            default=None, max_length=200, description="Only the agents that can play this game."
        ),
    ) -> list[dict[str, Any]]:
        """The players a seat can hold: a person, the built-in agents, and saved agents; with
        ``game``, only those that can play it (a saved agent plays the game it was trained on).
        """
        seconds = f"{limits.default_agent_seconds:g} s a move"
        notes = {
            "perfect": (
                "Perfect",
                f"the exact solver's best move; its fallback's when the solver cannot finish in {seconds}",
            ),
            "perfect:tie=random": ("Perfect (random ties)", "a random best move"),
            "random": ("Random", "a uniformly random legal move"),
            "pairing": ("Pairing", "Breaker's pairing strategy (002 §3)"),
            "engine": ("Engine", f"alpha-beta with threat search on any board, {seconds}"),
            "qlearning:reflexes=true,depth=2": ("003 hybrid", "reflexes and a 2-ply search (003)"),
        }
        out: list[dict[str, Any]] = [{"spec": "human", "name": "Human", "note": "you, at the board"}]
        for spec in BUILT_IN:
            name, _, option = spec.partition(":")
            if spec in notes:
                title, note = notes[spec]
            elif name == "minimax":
                title, note = f"Minimax depth {option.split('=')[1]}", f"depth-limited search, {seconds}"
            else:
                title, note = f"MCTS {option.split('=')[1]}", f"Monte Carlo tree search, {seconds}"
            out.append({"spec": spec, "name": title, "note": note})
        for record in arena.store.agents():
            on = f" for {record.spec}" if record.spec else ""
            out.append(
                {
                    "spec": f"saved:{record.name}",
                    "name": record.name,
                    "note": f"{record.kind}{on}",
                    "saved": True,
                }
            )
        if game is None:
            return out
        chosen = check_game(game, limits)
        return [a for a in out if arena.agents.playable(a["spec"], chosen) is None]

    return routes
