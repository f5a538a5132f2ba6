"""The web arena: a FastAPI app over the library, and the page that uses its JSON API.

:func:`create_app` builds the app around one store (every game the arena plays is recorded
there as it is played) and one pool of worker processes (:mod:`noughts.web.workers`) that does
all the heavy work (solves, counts, analyses, agents' moves, batches, training), each task
within its budget, so the server itself only routes requests and keeps answering. The API is
described by its OpenAPI schema at ``/openapi.json`` (browsable at ``/docs``); the page at
``/`` uses nothing else, so a script can do anything the page does. Errors are answered as
``{"error": "..."}`` with a 4xx status: 400 for bad input (a spec, a move, an agent, a file),
403 for a change to a game without its token, 404 for an unknown id, 409 for a move sent
against a game that has moved on, 413 for a request over the size limit, 415 for a change
sent without a JSON body or the arena's header, 421 for a host the arena does not serve, 422
for a request that does not match the schema or work over its budget, 429 (with
``Retry-After``) when the arena, or this client's share of it, is busy. See
:mod:`noughts.web.security` for the rules every request passes first.
"""

from __future__ import annotations

import contextlib
import math
import secrets
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Message, Receive, Scope, Send

import noughts
from noughts.core import Game, LimitExceeded, NoughtsError, Player, Position
from noughts.core.size import spec_key
from noughts.store import Store, StoreError
from noughts.web import records
from noughts.web.boards import board_view
from noughts.web.engines import AgentCatalogue, SavedRecord
from noughts.web.jobs import BatchJob, JobBoard
from noughts.web.limits import Limits
from noughts.web.models import (
    AgentInfo,
    AnalyseRequest,
    Analysis,
    BatchRequest,
    BatchState,
    BoardRequest,
    CountRequest,
    ErrorMessage,
    EstimateRequest,
    EvaluateRequest,
    GameInfo,
    GameState,
    GameSummary,
    MoveRequest,
    NewGame,
    Preset,
    RecordText,
    RecordWrite,
    ReviewRequest,
    SaveRequest,
    SeatsRequest,
    StartedBatch,
    StepRequest,
    Suggestion,
    SuggestRequest,
    TrainingRequest,
    TurnRequest,
    UndoRequest,
)
from noughts.web.neural import register_neural
from noughts.web.records import register_names
from noughts.web.security import Guard
from noughts.web.sessions import GameNotFound, GameService, NotOwner, StaleGame, check_game
from noughts.web.training import AgentFiles, TrainingJob, check_name, learners, wait_started
from noughts.web.workers import Busy, WorkerFailed, WorkerPool

__all__ = ["PRESETS", "Arena", "create_app"]

BUILT_IN = [
    "perfect",
    "perfect:tie=random",
    "random",
    "minimax:depth=1",
    "minimax:depth=2",
    "minimax:depth=4",
    "mcts:sims=200",
    "mcts:sims=2000",
    "engine",
    "pairing",
    "qlearning:reflexes=true,depth=2",
]
"""The built-in agents the page offers (``GET /api/agents``), in its order."""

ESTIMATE_WORK = 20_000
"""The most positions (legal moves to the power of the depth) one estimate may search."""

EVALUATE_SECONDS = 1.0
"""The engine's time for the overlay's view of a position when the request gives none."""

GameId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="A game's id (from its record).")]
BatchId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="A batch's id (its match's id).")]

STATIC = Path(__file__).parent / "static"

PRESETS: tuple[tuple[str, str, str, str], ...] = (
    ("tictactoe", "Tic-tac-toe", "3x3, three in a row; a draw with perfect play", "perfect"),
    ("mnk(4,4,4)", "4x4", "four in a row on 4x4 (004 §2.3); a draw", "perfect"),
    (
        "mnk(15,15,5)",
        "Gomoku 15x15",
        "five in a row on 15x15 (free-style: six or more counts too)",
        "engine",
    ),
    ("hypercube(3,3)", "3x3x3", "the cube (002, 004 §3.1); the first player wins at once", "perfect"),
    ("hypercube(4,3)", "4x4x4", "Qubic, the 4^3 cube (002)", "perfect"),
    ("maker_breaker(hypercube(7,3))", "7x7x7 Maker-Breaker", "Breaker wins by a pairing (002)", "pairing"),
    ("hypercube(7,3)", "7x7x7", "the 7^3 cube, 193 lines (002)", "engine"),
    ("misere(tictactoe)", "Misère", "three in a row loses (004 §4.2)", "perfect"),
    ("maker_breaker(tictactoe)", "Maker-Breaker", "Maker needs a line, Breaker one mark in each", "perfect"),
    ("cumulative(tictactoe)", "Cumulative", "fill the board, most lines wins (000)", "perfect"),
    ("veto(tictactoe)", "Veto", "forbid one cell before each claim (004 §4.3)", "perfect"),
    ("notakto", "Notakto", "both play x; completing a line loses (004 §4.4)", "perfect"),
    ("notakto(boards=2)", "Notakto, 2 boards", "the last live board's killer loses", "perfect"),
    ("notakto(boards=3)", "Notakto, 3 boards", "", "perfect"),
    ("otrio", "Otrio", "rings of three sizes (004 §3.2)", "perfect"),
    (
        'shape("###./####/###.",3)',
        "3x3 + side square",
        "an extra square beside an edge (004 §2.2)",
        "perfect",
    ),
    ('shape("####/###./###.",3)', "3x3 + corner-side square", "beside a corner square (004 §2.2)", "perfect"),
    (
        'shape("###./###./###./...#",3)',
        "3x3 + diagonal square",
        "diagonally off a corner (004 §2.2)",
        "perfect",
    ),
    (
        "forget(tictactoe)",
        "Tic-Tac-Toe Forget",
        "a mark leaves after three of its owner's turns (004 ch. 6)",
        "perfect",
    ),
    (
        'forget(tictactoe,count="plies")',
        "Forget (plies)",
        "a mark leaves after three plies: no line is possible",
        "perfect",
    ),
    ("vanishing(tictactoe)", "Vanishing marks", "three marks each; a fourth removes your oldest", "perfect"),
    ("morris", "Three Men's Morris", "place three, then slide along the lines (diagonals too)", "perfect"),
    (
        "morris(diagonals=false)",
        "Three Men's Morris (Murray)",
        "no moves along the diagonals (Murray 1913)",
        "perfect",
    ),
    (
        "morris(diagonals=false,diagonal_mills=false)",
        "Three Men's Morris, no diagonals",
        "rows and columns only",
        "perfect",
    ),
)
"""The games of the sources, for the game picker: spec, name, note, and the default opponent:
the perfect player where it answers (proven, or its fallback's move within the time limit), a
pairing where Breaker has one, the engine (alpha-beta with threat search and proofs under the
move's clock) on the big boards, where the perfect player would only ever fall back to it.
"""


class Arena:
    """Everything one app serves from: the store, limits, the worker pool, agents, games, jobs."""

    def __init__(self, store: Store, limits: Limits, owns_store: bool):
        self.store = store
        self.limits = limits
        self.owns_store = owns_store
        self.pool = WorkerPool(limits)
        self.agents = AgentCatalogue(limits, self._saved_record)
        self.games = GameService(store, self.agents, self.pool, limits)
        self.jobs = JobBoard(limits)
        self.started = time.time()
        self.features: list[str] = ["train", "leaderboard"]
        """Pages beyond play, watch and analyse that this arena serves."""
        if store.path == ":memory:":
            self._tmp = tempfile.TemporaryDirectory(prefix="noughts-agents-")
            folder = Path(self._tmp.name)
        else:
            folder = Path(store.path).resolve().parent / "agents"
        folder.mkdir(parents=True, exist_ok=True)
        self.agent_files = AgentFiles(store, folder, self.pool, limits)

    def _saved_record(self, name: str) -> SavedRecord:
        try:
            record = self.store.agent(name)
        except StoreError:
            raise NoughtsError(f"there is no saved agent named {name!r} (see the agents list)") from None
        if not record.path:
            raise NoughtsError(f"the saved agent {name!r} has no file to load")
        return SavedRecord(str(record.path), record.kind, record.spec)

    def close(self) -> None:
        """Stop the jobs and the workers; close the store if the arena opened it."""
        self.jobs.stop_all()
        self.pool.close()
        if self.owns_store:
            self.store.close()


# -- errors ---------------------------------------------------------------------------------------------

_STATUS: tuple[tuple[type[NoughtsError], int], ...] = (
    (GameNotFound, 404),
    (NotOwner, 403),
    (StaleGame, 409),
    (Busy, 429),
    (LimitExceeded, 422),
    (NoughtsError, 400),
)


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _noughts_error(request: Request, exc: Exception) -> JSONResponse:
    status = next(code for kind, code in _STATUS if isinstance(exc, kind))
    headers = None
    if isinstance(exc, Busy):
        headers = {"Retry-After": str(max(1, math.ceil(exc.retry_after)))}
    return _error(status, str(exc), headers)


def _worker_failed(request: Request, exc: Exception) -> JSONResponse:
    return _error(500, f"the arena failed at this request (a bug): {exc}")


def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg", "invalid")))
    return _error(422, "invalid request: " + "; ".join(parts))


def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
    if exc.status_code == 404 and detail == "Not Found":
        detail = f"there is no {request.url.path} here; the API is described at /docs"
    return JSONResponse({"error": detail}, status_code=exc.status_code, headers=getattr(exc, "headers", None))


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, before any endpoint reads them."""

    def __init__(self, app: Any, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Any, receive: Any, send: Any) -> None:
        response = _error(413, f"the request is over the arena's limit of {self.limit:,} bytes")
        await response(scope, receive, send)


class ServerTiming:
    """Add ``Server-Timing: app;dur=MS`` to every answer: the time from the request reaching the
    app to its answer starting (for benchmarks, which separate it from time spent queueing).
    """

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                ms = (time.perf_counter() - started) * 1000
                message["headers"] = [
                    *message.get("headers", []),
                    (b"server-timing", f"app;dur={ms:.3f}".encode()),
                ]
            await send(message)

        await self.app(scope, receive, timed)


# -- the app --------------------------------------------------------------------------------------------

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorMessage, "description": text}
    for code, text in (
        (400, "bad input: a spec, position, move, agent or file that cannot be used"),
        (403, "a change to a game without its token"),
        (404, "no such game or batch"),
        (415, "a change sent without a JSON body or the X-Noughts-Client header"),
        (422, "a request that does not match the schema, or work over its budget"),
        (429, "the arena (or this client's share of it) is busy; see Retry-After"),
    )
}


def create_app(
    db: str | Path | None = None,
    *,
    store: Store | None = None,
    limits: Limits | None = None,
) -> FastAPI:
    """The arena as an ASGI app. Records go to ``store``, else to the SQLite file ``db``, else
    to the per-user default store (:func:`noughts.store.default_path`); ``":memory:"`` keeps
    nothing.
    """
    limits = limits or Limits()
    register_names(PRESETS)
    owns = store is None
    arena = Arena(store if store is not None else Store(db), limits, owns)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        arena.pool.start()
        arena.agents.warm(BUILT_IN)  # before serving: no request waits on a first import
        yield
        arena.jobs.stop_all()  # the store stays open: everything in it is already committed
        arena.pool.close()

    app = FastAPI(
        title="noughts arena",
        version=noughts.__version__,
        summary="Play, watch, analyse and study the tic-tac-toe family of games.",
        lifespan=lifespan,
        responses=ERRORS,
    )
    app.state.arena = arena
    app.add_exception_handler(NoughtsError, _noughts_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(WorkerFailed, _worker_failed)
    app.add_middleware(BodyLimit, limit=limits.max_request_bytes)
    app.add_middleware(ServerTiming)
    app.add_middleware(Guard, allowed_hosts=limits.allowed_hosts)
    _routes(app, arena)
    register_neural(app, arena)  # the neural panel (web/neural.py)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _review_seconds(limits: Limits, asked: float | None) -> float:
    if asked is None:
        return limits.default_review_seconds
    if asked > limits.max_review_seconds:
        raise NoughtsError(
            f"max_seconds is at most {limits.max_review_seconds:g} for a review, not {asked:g}"
        )
    return asked


def _solve_seconds(limits: Limits, asked: float | None) -> float:
    if asked is None:
        return limits.default_solve_seconds
    if asked > limits.max_solve_seconds:
        raise NoughtsError(f"max_seconds is at most {limits.max_solve_seconds:g} in the arena, not {asked:g}")
    return asked


def _position(game: Game, text: str | None) -> Position:
    """The position a request names by its text; the start when it names none."""
    return game.parse(text) if text else game.start()


def _since(request: Request) -> float | None:
    """When the request arrived (set by :class:`noughts.web.security.Guard`)."""
    arrived = getattr(request.state, "arrived", None)
    return float(arrived) if arrived is not None else None


def _client(request: Request) -> str:
    """Who asks: the client's address (each address has its share of the workers)."""
    return request.client.host if request.client is not None else "local"


TokenHeader = Annotated[
    str | None,
    Header(alias="X-Game-Token", max_length=200, description="The game's token, as given when it started."),
]
TokenQuery = Annotated[
    str | None, Query(alias="token", max_length=200, description="The game's token (or send X-Game-Token).")
]


def _token(header: str | None, query: str | None) -> str | None:
    return header or query


# -- owners of jobs (batches, training runs): a token each, as games have --------------------------------

JobTokenHeader = Annotated[
    str | None,
    Header(alias="X-Job-Token", max_length=200, description="The job's token, as given when it started."),
]
JobTokenQuery = Annotated[
    str | None, Query(alias="token", max_length=200, description="The job's token (or send X-Job-Token).")
]


def _routes(app: FastAPI, arena: Arena) -> None:
    limits = arena.limits
    games = arena.games
    pool = arena.pool

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/health", tags=["arena"])
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

    @app.get("/api/presets", tags=["games"], response_model=list[Preset])
    def presets() -> list[dict[str, str]]:
        """The games of the sources, ready to pick (any other spec works too), each with the
        opponent that answers it well within a move's time limit.
        """
        return [{"spec": s, "name": n, "note": t, "opponent": o} for s, n, t, o in PRESETS]

    @app.get("/api/game-info", tags=["games"], response_model=GameInfo)
    def game_info(
        spec: str = Query(min_length=1, max_length=200, description="A game spec."),
        position: str | None = Query(default=None, max_length=4000, description="A position's text."),
    ) -> dict[str, Any]:
        """A game's facts (rules, cells, lines, symmetries, notation) and the board of a position
        (the empty board by default).
        """
        from noughts.core.registry import rules_summary

        game = check_game(spec, limits)
        start = _position(game, position)
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

    @app.get("/api/agents", tags=["agents"], response_model=list[AgentInfo])
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

    # -- games ------------------------------------------------------------------------------------

    @app.post("/api/games", tags=["play"], response_model=GameState, status_code=201)
    def new_game(request: NewGame) -> dict[str, Any]:
        """Start a game (recorded at once); x moves first. Seats hold ``human`` or an agent that
        can play the game. The answer carries the game's ``token``, given only here: send it
        (``X-Game-Token``, or ``?token=``) with every change to the game.
        """
        live, token = games.create(request.game, request.x, request.o, request.position)
        return live.state() | {"token": token}

    @app.get("/api/games", tags=["play"], response_model=list[GameSummary])
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

    @app.get("/api/games/{game_id}", tags=["play"], response_model=GameState)
    def get_game(game_id: GameId) -> dict[str, Any]:
        """A game as played so far (reopened from the store if the server restarted); anyone
        may watch it.
        """
        return games.get(game_id).state()

    @app.post("/api/games/{game_id}/move", tags=["play"], response_model=GameState)
    def play_move(
        game_id: GameId, request: MoveRequest, token: TokenHeader = None, token_q: TokenQuery = None
    ) -> dict[str, Any]:
        """A person's move, in notation (``b2``) or as an integer action (needs the token)."""
        return games.play(
            game_id, request.move, request.action, request.ply, request.key, _token(token, token_q)
        ).state()

    @app.post("/api/games/{game_id}/turn", tags=["play"], response_model=GameState)
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
            _token(token, token_q),
            _client(http),
            _since(http),
        )
        return live.state()

    @app.post("/api/games/{game_id}/undo", tags=["play"], response_model=GameState)
    def undo(
        game_id: GameId,
        request: UndoRequest | None = None,
        token: TokenHeader = None,
        token_q: TokenQuery = None,
    ) -> dict[str, Any]:
        """Take back moves: by default back to the person's last turn."""
        return games.undo(game_id, None if request is None else request.plies, _token(token, token_q)).state()

    @app.post("/api/games/{game_id}/seats", tags=["play"], response_model=GameState)
    def seats(
        game_id: GameId, request: SeatsRequest, token: TokenHeader = None, token_q: TokenQuery = None
    ) -> dict[str, Any]:
        """Change who plays x or o at any time: take over a seat (``human``) or hand it to an
        agent that can play the game.
        """
        return games.seats(game_id, request.x, request.o, _token(token, token_q)).state()

    # -- analysis ---------------------------------------------------------------------------------

    @app.post("/api/analyse", tags=["analysis"], response_model=Analysis)
    def analyse(request: AnalyseRequest, http: Request) -> dict[str, Any]:
        """Solve a position exactly within a time budget: its value, every move's value and
        distance, the principal variation (the ``solve --json`` document), and the per-cell
        view of the evaluation overlay. Over budget: ``solved`` is false and ``reason`` says why.
        """
        game = check_game(request.game, limits)
        position = _position(game, request.position)
        seconds = _solve_seconds(limits, request.max_seconds)
        try:
            result: dict[str, Any] = pool.run(
                "analyse",
                {"game": str(game), "position": position.text(), "seconds": seconds},
                seconds=seconds,
                client=_client(http),
                game=str(game),
                since=_since(http),
            )
        except LimitExceeded as e:
            return {"solved": False, "reason": str(e)}
        return result

    @app.post("/api/count", tags=["analysis"])
    def count(request: CountRequest, http: Request) -> dict[str, Any]:
        """Count a game exactly (positions, games by outcome and length, terminal positions,
        tree nodes, counts up to symmetry) within a time budget and a worker's memory.
        """
        game = check_game(request.game, limits)
        seconds = _solve_seconds(limits, request.max_seconds)
        result: dict[str, Any] = pool.run(
            "count",
            {"game": str(game), "seconds": seconds},
            seconds=seconds,
            client=_client(http),
            since=_since(http),
        )
        return result

    @app.post("/api/estimate", tags=["analysis"])
    def estimate(request: EstimateRequest, http: Request) -> dict[str, Any]:
        """The minimax agent's own score of every legal move, for the overlay where the solver
        runs out of budget: a heuristic for the side to move (larger is better), not a value.
        """
        game = check_game(request.game, limits)
        position = _position(game, request.position)
        if position.is_terminal():
            raise NoughtsError("the game is over: there are no moves to estimate")
        width = len(position.legal_moves())
        if width**request.depth > ESTIMATE_WORK:
            raise LimitExceeded(
                f"an estimate at depth {request.depth} over {width} moves is too much work for the arena; "
                f"ask for depth {max(1, int(math.log(ESTIMATE_WORK, width)))}"
            )
        result: dict[str, Any] = pool.run(
            "estimate",
            {"game": str(game), "position": position.text(), "depth": request.depth},
            seconds=limits.max_solve_seconds,
            client=_client(http),
            since=_since(http),
        )
        return result

    @app.post("/api/evaluate", tags=["analysis"])
    def evaluate(request: EvaluateRequest, http: Request) -> dict[str, Any]:
        """The engine's view of every legal move of a claim game, for the overlay where the
        solver runs out of budget: per move a value from -1 (lost) to 1 (won) for the side to
        move, a label (``W7``/``L12`` where the engine has a proof, ``+0.42`` an estimate), a
        grade (win, good, even, bad, loss) and its rank; within ``max_seconds`` (default 1 s).
        """
        game = check_game(request.game, limits)
        position = _position(game, request.position)
        if position.is_terminal():
            raise NoughtsError("the game is over: there are no moves to evaluate")
        if game.claim_rule is None:
            raise NoughtsError(
                f"the engine values the moves of claim games; a turn of {game} is more than a claim"
            )
        seconds = (
            EVALUATE_SECONDS if request.max_seconds is None else _solve_seconds(limits, request.max_seconds)
        )
        result: dict[str, Any] = pool.run(
            "evaluate",
            {"game": str(game), "position": position.text(), "seconds": seconds},
            seconds=seconds,
            client=_client(http),
            game=str(game),
            since=_since(http),
        )
        return result

    @app.post("/api/suggest", tags=["analysis"], response_model=Suggestion)
    def suggest(request: SuggestRequest, http: Request) -> dict[str, Any]:
        """The move an agent would play in a position, within its move time limit (a hint
        where the solver cannot help); ``proven`` and ``note`` as in a game's ``decision``.
        """
        game = check_game(request.game, limits)
        position = _position(game, request.position)
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to suggest")
        spec = arena.agents.check(request.agent)
        why = arena.agents.playable(spec, game)
        if why is not None:
            raise NoughtsError(f"{spec} cannot play {game}: {why}")
        if spec == "human":
            raise NoughtsError("a human's moves are made by the person at the board")
        resolved = arena.agents.resolve(spec)
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        decision: dict[str, Any] = pool.run(
            "move",
            {
                "game": str(game),
                "position": position.text(),
                "agent": resolved.spec,
                "seed": seed,
                "seconds": resolved.seconds,
            },
            seconds=resolved.seconds,
            client=_client(http),
            lane="play",
            game=str(game),
            startup=limits.load_seconds,
            since=_since(http),
        )
        return {
            "agent": spec,
            "move": decision["info"],
            "seconds": decision["seconds"],
            "proven": decision["proven"],
            "note": decision["note"],
        }

    # -- the analysis board: positions, steps, records, reviews ------------------------------------

    @app.post("/api/board", tags=["analysis"])
    def board(request: BoardRequest) -> dict[str, Any]:
        """A position's board, who is to move, its result and the game's name (``last``: the
        move that led there, marked on the board).
        """
        game = check_game(request.game, limits)
        return records.board(game, _position(game, request.position), request.last)

    @app.post("/api/step", tags=["analysis"])
    def step(request: StepRequest) -> dict[str, Any]:
        """Play one move from a position (``move`` in notation, or a board slot's ``key``): the
        move's notation, who made it, and the position after it with its board. Nothing is
        recorded: the analysis board keeps its own tree.
        """
        game = check_game(request.game, limits)
        return records.step(game, _position(game, request.position), request.move, request.key)

    _record_routes(app, arena)

    @app.post("/api/review", tags=["analysis"])
    def review(request: ReviewRequest, http: Request) -> dict[str, Any]:
        """Review a record's main line against the solver within ``max_seconds`` (the arena's
        default otherwise): every position's value, every move classed best, inaccuracy or
        mistake, each side's accuracy (the ``noughts review --json`` document). Run out of
        time, it says so (``complete`` false) and keeps what it reviewed.
        """
        size = records.check_record_doc(request.record, limits)  # size before work: nothing built
        seconds = _review_seconds(limits, request.max_seconds)
        spec = None
        with contextlib.suppress(NoughtsError):  # only which worker: one that knows the game
            spec = spec_key(size.games[0][0]) if size.games and size.games[0][0] else None
        result: dict[str, Any] = pool.run(
            "review",
            {"record": request.record, "seconds": seconds},  # the worker builds the record
            seconds=seconds,
            client=_client(http),
            game=spec,
            since=_since(http),
        )
        return result

    _batch_routes(app, arena)
    _training_routes(app, arena)

    # -- leaderboard ------------------------------------------------------------------------------

    @app.get("/api/leaderboard", tags=["leaderboard"])
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


def _record_routes(app: FastAPI, arena: Arena) -> None:
    """Game records: read, written and imported by a worker within the arena's record budget,
    and a stored game's record.
    """
    limits = arena.limits
    pool = arena.pool

    @app.post("/api/records/read", tags=["records"])
    def read_records(request: RecordText, http: Request) -> dict[str, Any]:
        """Read a game record (text or JSON): every game with each move's ply, player and
        position (variations too), its text form and the game's name. The games are built in a
        worker, within :attr:`Limits.record_seconds` (422 past it).
        """
        records.check_record_text(request.text, limits)  # size before work: nothing built yet
        return _record_task(http, "read_records", {"text": request.text})

    @app.post("/api/records/write", tags=["records"])
    def write_record(request: RecordWrite, http: Request) -> dict[str, Any]:
        """Check a record given as JSON and write it: its text (or, ``as_json``, the JSON
        collection) and the record with every move's ply, player and position.
        """
        records.check_record_doc(request.record, limits)  # size before work: nothing built yet
        return _record_task(http, "write_record", {"record": request.record, "as_json": request.as_json})

    @app.post("/api/records/import", tags=["records"])
    def import_records(request: RecordText, http: Request) -> dict[str, Any]:
        """Keep the games of a record in the store (they show on the Games page; unfinished ones
        can be resumed): their ids, and each game's token (``tokens``, by id, given only here:
        playing on in a game needs it). A worker reads and checks the games (within
        :attr:`Limits.record_seconds`); nothing is stored unless every game was read.
        """
        from noughts.record.store import store_row_in

        records.check_record_text(request.text, limits)  # size before work: nothing built yet
        rows = _record_task(http, "import_records", {"text": request.text})["rows"]
        tokens = [secrets.token_urlsafe(24) for _ in rows]  # the importer's, as a new game's
        ids = [
            store_row_in(arena.store, row, source="web-import", token=t)
            for row, t in zip(rows, tokens, strict=True)
        ]
        return {"ids": ids, "tokens": {str(i): t for i, t in zip(ids, tokens, strict=True)}}

    def _record_task(http: Request, task: str, args: dict[str, Any]) -> dict[str, Any]:
        """A record task in a worker within :attr:`Limits.record_seconds`; past it one 422 that
        says so (the work stopped, nothing kept).
        """
        seconds = limits.record_seconds
        try:
            result: dict[str, Any] = pool.run(
                task,
                args | {"seconds": seconds, "names": dict(records.NAMES)},
                seconds=seconds,
                client=_client(http),
                since=_since(http),
            )
        except Busy:
            raise
        except LimitExceeded as e:
            raise LimitExceeded(
                f"the record was not read within the arena's {seconds:g} s for one request ({e}); "
                "send fewer or shorter games"
            ) from None
        return result

    @app.get("/api/games/{game_id}/record", tags=["records"], response_model=None)
    def game_record(
        game_id: GameId,
        download: bool = Query(default=False, description="The text form, as a file to save."),
    ) -> Any:
        """A stored game's record (any game: played, watched, imported): its JSON with every
        move's position, and its text; ``download``: the text as a file.
        """
        from noughts.record.store import from_store

        try:
            stored = arena.store.game(game_id)
        except StoreError:
            raise GameNotFound(f"there is no game {game_id}") from None
        record = from_store(stored)
        if download:
            return Response(
                record.to_text(),
                media_type="text/plain; charset=utf-8",
                headers={"Content-Disposition": f'attachment; filename="game-{game_id}.ntr"'},
            )
        return records.record_document(record)


def _batch_routes(app: FastAPI, arena: Arena) -> None:
    """The batches: games between two agents played in the background, owned by who started them."""
    limits = arena.limits
    pool = arena.pool

    @app.post("/api/batches", tags=["watch"], response_model=StartedBatch, status_code=202)
    def new_batch(request: BatchRequest, http: Request) -> dict[str, Any]:
        """Play a batch of games between two agents in the background (poll its state). The
        answer carries the batch's ``token``, given only here: stopping it needs it
        (``X-Job-Token``, or ``?token=``).
        """
        game = check_game(request.game, limits)
        x, o = arena.agents.check(request.x), arena.agents.check(request.o)
        if "human" in (x, o):
            raise NoughtsError("a batch is played by two agents; choose an agent for each seat")
        for spec in (x, o):
            why = arena.agents.playable(spec, game)
            if why is not None:
                raise NoughtsError(f"{spec} cannot play {game}: {why}")
        if request.games > limits.max_batch_games:
            raise NoughtsError(f"a batch has at most {limits.max_batch_games:,} games, not {request.games:,}")
        client = _client(http)
        arena.jobs.reserve(client)
        try:
            seed = request.seed if request.seed is not None else secrets.randbits(63)
            match_id = arena.store.new_match(
                str(game), x, o, {"games": request.games, "seed": seed, "source": "web"}
            )
            job = BatchJob(match_id, game, x, o, request.games, seed, arena.agents, pool, arena.store, limits)
            token = job.claim(client)
        except BaseException:
            arena.jobs.release(client)
            raise
        arena.jobs.start(job)
        return job.state() | {"token": token}

    @app.get("/api/batches", tags=["watch"], response_model=list[BatchState])
    def list_batches() -> list[dict[str, Any]]:
        """The batches this server has run since it started, newest first."""
        return [job.state() for job in arena.jobs.all("batch")]  # type: ignore[attr-defined]

    def _batch(batch_id: int) -> BatchJob:
        job = arena.jobs.get("batch", batch_id)
        if not isinstance(job, BatchJob):
            raise GameNotFound(f"there is no batch {batch_id} running or run since the server started")
        return job

    @app.get("/api/batches/{batch_id}", tags=["watch"], response_model=BatchState)
    def get_batch(batch_id: BatchId) -> dict[str, Any]:
        """A batch's progress and results so far."""
        return _batch(batch_id).state()

    @app.post("/api/batches/{batch_id}/stop", tags=["watch"], response_model=BatchState)
    def stop_batch(
        batch_id: BatchId, token: JobTokenHeader = None, token_q: JobTokenQuery = None
    ) -> dict[str, Any]:
        """Stop a batch now (needs its token); the games it finished stay recorded (the one in
        play is dropped).
        """
        job = _batch(batch_id)
        job.check_owner(_token(token, token_q))
        job.stop()
        return job.state()


def _training_routes(app: FastAPI, arena: Arena) -> None:
    """Training runs in the background, owned by who started them, and their saved agents."""
    limits = arena.limits
    pool = arena.pool

    @app.get("/api/learners", tags=["train"])
    def list_learners() -> list[dict[str, str]]:
        """The learners a training run can use, and their options."""
        return learners()

    @app.post("/api/training", tags=["train"], status_code=202)
    def new_training(request: TrainingRequest, http: Request) -> dict[str, Any]:
        """Train a learner by self-play in the background, in a worker; poll its state for the
        charts. Bad options and games too large for the learner are refused in the answer. The
        answer carries the run's ``token``, given only here: stopping the run and saving its
        agent need it (``X-Job-Token``, or ``?token=``).
        """
        game = check_game(request.game, limits)
        if request.learner not in learners_kinds():
            raise NoughtsError(f"unknown learner {request.learner!r}; known: {', '.join(learners_kinds())}")
        if request.episodes > limits.max_training_episodes:
            raise NoughtsError(
                f"a run has at most {limits.max_training_episodes:,} episodes in the arena, not {request.episodes:,}"
            )
        client = _client(http)
        arena.jobs.reserve(client)
        try:
            config = {
                "game": str(game),
                "learner": request.learner,
                "options": request.options,
                "episodes": request.episodes,
                "source": "web",
            }
            run_id = arena.store.new_run(f"web {request.learner} on {game}", config)
            out = arena.agent_files.folder / "runs" / f"run-{run_id}.json"
            job = TrainingJob(
                run_id,
                game,
                request.learner,
                dict(request.options),
                request.episodes,
                arena.store,
                pool,
                limits,
                out,
            )
            token = job.claim(client)
        except BaseException:
            arena.jobs.release(client)
            raise
        arena.jobs.start(job)
        wait_started(job)
        return job.state() | {"token": token}

    def _run(run_id: int) -> TrainingJob:
        job = arena.jobs.get("training", run_id)
        if not isinstance(job, TrainingJob):
            raise GameNotFound(f"there is no training run {run_id} running or run since the server started")
        return job

    @app.get("/api/training", tags=["train"])
    def list_training() -> list[dict[str, Any]]:
        """The runs this server has trained since it started, newest first (without series)."""
        return [{k: v for k, v in job.state().items() if k != "series"} for job in arena.jobs.all("training")]  # type: ignore[attr-defined]

    @app.get("/api/training/{run_id}", tags=["train"])
    def get_training(run_id: BatchId) -> dict[str, Any]:
        """A run's progress and its series of points for the charts."""
        return _run(run_id).state()

    @app.post("/api/training/{run_id}/stop", tags=["train"])
    def stop_training(
        run_id: BatchId, token: JobTokenHeader = None, token_q: JobTokenQuery = None
    ) -> dict[str, Any]:
        """Stop a run after the chunk of episodes in hand (needs its token; its agent can then
        be saved).
        """
        job = _run(run_id)
        job.check_owner(_token(token, token_q))
        job.stop()
        return {k: v for k, v in job.state().items() if k != "series"}

    @app.post("/api/training/{run_id}/save", tags=["train"])
    def save_training(
        run_id: BatchId, request: SaveRequest, token: JobTokenHeader = None, token_q: JobTokenQuery = None
    ) -> dict[str, Any]:
        """Save a finished or stopped run's agent to the registry as ``saved:NAME`` (needs the
        run's token; the agent keeps its owner's token hash).
        """
        job = _run(run_id)
        job.check_owner(_token(token, token_q))
        if job.status == "running":
            raise NoughtsError("the run is still training: stop it or wait for it to finish, then save")
        if job.status == "failed" or job.file is None:
            raise NoughtsError(f"the run failed ({job.error}); there is no agent to save")
        check_name(request.name)
        saved = arena.agent_files.register(
            request.name, job.file, {"run": job.id, "episodes": job.done, "owner": job.owner}
        )
        job.saved = request.name
        return saved

    @app.get(
        "/api/agents/{name}/download",
        tags=["agents"],
        response_class=Response,
        responses={200: {"content": {"application/zip": {}}, "description": "the agent's .json and .npz"}},
    )
    def download_agent(name: str = PathParam(min_length=1, max_length=40)) -> Response:
        """A saved agent's files (its JSON and .npz) as one zip."""
        data = arena.agent_files.zip_of(check_name(name))
        return Response(
            data,
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="{name}.zip"'},
        )

    @app.post(
        "/api/agents/upload",
        tags=["agents"],
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
            }
        },
    )
    async def upload_agent(
        request: Request, name: str = Query(min_length=1, max_length=40)
    ) -> dict[str, Any]:
        """Add a saved agent from a zip of its .json and .npz (as Download gives; send the
        header X-Noughts-Client). The zip is checked from its directory before anything is
        unpacked, then the agent is loaded and validated in a worker.
        """
        data = await request.body()
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(arena.agent_files.upload, check_name(name), data, _client(request))


def learners_kinds() -> list[str]:
    """The learner kinds of :data:`noughts.learn.train.LEARNERS`."""
    from noughts.learn.train import LEARNERS

    return list(LEARNERS)
