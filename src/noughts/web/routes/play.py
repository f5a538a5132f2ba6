"""Playing: start a game, move, let the agent move, undo, change seats, list and watch games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request

from noughts.web.arena import Arena
from noughts.web.models import (
    GameState,
    GameSummary,
    MoveRequest,
    NewGame,
    SeatsRequest,
    TurnRequest,
    UndoRequest,
)
from noughts.web.routes.common import GameId, TokenHeader, TokenQuery, client_of, since, token_of

__all__ = ["router"]


def router(arena: Arena) -> APIRouter:
    """The games: ``/api/games`` and each game's move, turn, undo and seats."""
    routes = APIRouter()
    games = arena.games

    @routes.post("/api/games", tags=["play"], response_model=GameState, status_code=201)
    def new_game(request: NewGame) -> dict[str, Any]:
        """Start a game (recorded at once); x moves first. Seats hold ``human`` or an agent that
        can play the game. The answer carries the game's ``token``, given only here: send it
        (``X-Game-Token``, or ``?token=``) with every change to the game.
        """
        live, token = games.create(request.game, request.x, request.o, request.position)
        return live.state() | {"token": token}

    @routes.get("/api/games", tags=["play"], response_model=list[GameSummary])
    def list_games(
        status: str | None = Query(default=None, pattern="^(playing|finished)$"),
        limit: int = Query(default=50, ge=1, le=500),
        offset: int = Query(default=0, ge=0, le=10**9),
        source: str | None = Query(
            default=None,
            pattern="^(web|play|import|web-import|match)$",
            description="Only the games of one source (``match``: the games of batches and matches, "
            "not listed otherwise).",
        ),
    ) -> list[dict[str, Any]]:
        """The arena's recorded games, most recently played first (``playing``: unfinished):
        played here, at the terminal and imported; with ``source``, only those of one source.
        """
        return games.summaries(status, limit, offset, source)

    @routes.get("/api/games/{game_id}", tags=["play"], response_model=GameState)
    def get_game(game_id: GameId) -> dict[str, Any]:
        """A game as played so far (reopened from the store if the server restarted); anyone
        may watch it.
        """
        return games.get(game_id).state()

    @routes.post("/api/games/{game_id}/move", tags=["play"], response_model=GameState)
    def play_move(
        game_id: GameId, request: MoveRequest, token: TokenHeader = None, token_q: TokenQuery = None
    ) -> dict[str, Any]:
        """A person's move, in notation (``b2``) or as an integer action (needs the token)."""
        return games.play(
            game_id, request.move, request.action, request.ply, request.key, token_of(token, token_q)
        ).state()

    @routes.post("/api/games/{game_id}/turn", tags=["play"], response_model=GameState)
    def agent_turn(
        game_id: GameId,
        http: Request,
        request: TurnRequest | None = None,
        token: TokenHeader = None,
        token_q: TokenQuery = None,
    ) -> dict[str, Any]:
        """The agent whose turn it is makes its move, within its move time limit (watching two
        agents: call it again). ``decision`` in the answer says whether the move is proven best.
        If the agent fails, the answer is the error and the game stays as it was (and says so
        in ``error``): undo, change the seat, or ask again.
        """
        live, _ = games.turn(
            game_id,
            None if request is None else request.ply,
            token_of(token, token_q),
            client_of(http),
            since(http),
        )
        return live.state()

    @routes.post("/api/games/{game_id}/undo", tags=["play"], response_model=GameState)
    def undo(
        game_id: GameId,
        request: UndoRequest | None = None,
        token: TokenHeader = None,
        token_q: TokenQuery = None,
    ) -> dict[str, Any]:
        """Take back moves: by default back to the person's last turn."""
        return games.undo(
            game_id, None if request is None else request.plies, token_of(token, token_q)
        ).state()

    @routes.post("/api/games/{game_id}/seats", tags=["play"], response_model=GameState)
    def seats(
        game_id: GameId, request: SeatsRequest, token: TokenHeader = None, token_q: TokenQuery = None
    ) -> dict[str, Any]:
        """Change who plays x or o at any time: take over a seat (``human``) or hand it to an
        agent that can play the game.
        """
        return games.seats(game_id, request.x, request.o, token_of(token, token_q)).state()

    return routes
