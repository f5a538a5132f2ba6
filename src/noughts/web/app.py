"""The web arena: a FastAPI app over the library, and the page that uses its JSON API.

:func:`create_app` builds the app around one store (every game the arena plays is recorded
there as it is played) and one set of kept solver engines. The API is described by its OpenAPI
schema at ``/openapi.json`` (browsable at ``/docs``); the page at ``/`` uses nothing else, so a
script can do anything the page does. Errors are answered as ``{"error": "..."}`` with a 4xx
status: 400 for bad input (a spec, a move, an agent), 404 for an unknown id, 409 for a move
sent against a game that has moved on, 413 for a request over the size limit, 422 for a
request that does not match the schema or work over its budget, 429 when the arena is busy.
"""

from __future__ import annotations

import math
import secrets
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from fastapi import FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Message, Receive, Scope, Send

import noughts
from noughts.agents import Agent, make_agent
from noughts.core import Game, LimitExceeded, NoughtsError, Player, Position
from noughts.core.budget import Budget
from noughts.store import Store
from noughts.web.boards import board_view, evaluation_json, move_info
from noughts.web.engines import AgentPool, EngineCache
from noughts.web.jobs import BatchJob, Busy, JobBoard
from noughts.web.limits import Limits
from noughts.web.models import (
    AgentInfo,
    AnalyseRequest,
    Analysis,
    BatchRequest,
    BatchState,
    CountRequest,
    ErrorMessage,
    EstimateRequest,
    GameInfo,
    GameState,
    GameSummary,
    MoveRequest,
    NewGame,
    Preset,
    SaveRequest,
    Suggestion,
    SuggestRequest,
    TrainingRequest,
    TurnRequest,
    UndoRequest,
)
from noughts.web.sessions import GameNotFound, GameService, StaleGame, check_game
from noughts.web.training import AgentFiles, TrainingJob, check_name, learners

__all__ = ["PRESETS", "Arena", "create_app"]

ESTIMATE_WORK = 20_000
"""The most positions (legal moves to the power of the depth) one estimate may search."""

GameId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="A game's id (from its record).")]
BatchId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="A batch's id (its match's id).")]

STATIC = Path(__file__).parent / "static"

PRESETS: tuple[tuple[str, str, str], ...] = (
    ("tictactoe", "Tic-tac-toe", "3x3, three in a row; a draw with perfect play"),
    ("mnk(4,4,4)", "4x4", "four in a row on 4x4 (004 §2.3); a draw"),
    ("hypercube(3,3)", "3x3x3", "the cube (002, 004 §3.1); the first player wins at once"),
    ("hypercube(4,3)", "4x4x4", "Qubic, the 4^3 cube (002)"),
    ("maker_breaker(hypercube(7,3))", "7x7x7 Maker-Breaker", "Breaker wins by a pairing (002)"),
    ("hypercube(7,3)", "7x7x7", "the 7^3 cube, 193 lines (002)"),
    ("misere(tictactoe)", "Misère", "three in a row loses (004 §4.2)"),
    ("maker_breaker(tictactoe)", "Maker-Breaker", "Maker needs a line, Breaker one mark in each"),
    ("cumulative(tictactoe)", "Cumulative", "fill the board, most lines wins (000)"),
    ("veto(tictactoe)", "Veto", "forbid one cell before each claim (004 §4.3)"),
    ("notakto", "Notakto", "both play x; completing a line loses (004 §4.4)"),
    ("notakto(boards=2)", "Notakto, 2 boards", "the last live board's killer loses"),
    ("notakto(boards=3)", "Notakto, 3 boards", ""),
    ("otrio", "Otrio", "rings of three sizes (004 §3.2)"),
    ('shape("###./####/###.",3)', "3x3 + side square", "an extra square beside an edge (004 §2.2)"),
    ('shape("####/###./###.",3)', "3x3 + corner-side square", "beside a corner square (004 §2.2)"),
    ('shape("###./###./###./...#",3)', "3x3 + diagonal square", "diagonally off a corner (004 §2.2)"),
    ("forget(tictactoe)", "Tic-Tac-Toe Forget", "a mark leaves after three of its owner's turns (004 ch. 6)"),
    (
        'forget(tictactoe,count="plies")',
        "Forget (plies)",
        "a mark leaves after three plies: no line is possible",
    ),
    ("vanishing(tictactoe)", "Vanishing marks", "three marks each; a fourth removes your oldest"),
    ("morris", "Three Men's Morris", "place three, then slide along the lines (diagonals too)"),
    ("morris(diagonals=false)", "Three Men's Morris (Murray)", "no moves along the diagonals (Murray 1913)"),
    (
        "morris(diagonals=false,diagonal_mills=false)",
        "Three Men's Morris, no diagonals",
        "rows and columns only",
    ),
)
"""The games of the sources, for the game picker: spec, name, note."""


class Arena:
    """Everything one app serves from: the store, limits, kept engines, agents, games, jobs."""

    def __init__(self, store: Store, limits: Limits, owns_store: bool):
        self.store = store
        self.limits = limits
        self.owns_store = owns_store
        self.engines = EngineCache(limits)
        self.agents = AgentPool(self.engines, limits, self._saved_agent)
        self.games = GameService(store, self.agents, limits)
        self.jobs = JobBoard(limits)
        self.started = time.time()
        self.features: list[str] = ["train", "leaderboard"]
        """Pages beyond play, watch and analyse that this arena serves."""
        if store.path == ":memory:":
            self._tmp = tempfile.TemporaryDirectory(prefix="noughts-agents-")
            folder = Path(self._tmp.name)
        else:
            folder = Path(store.path).resolve().parent / "agents"
        self.agent_files = AgentFiles(store, folder)

    def _saved_agent(self, name: str) -> Agent:
        record = self.store.agent(name)
        if not record.path:
            raise NoughtsError(f"the saved agent {name!r} has no file to load")
        return make_agent(record.path)

    def close(self) -> None:
        """Stop the jobs and close the store if the arena opened it."""
        self.jobs.stop_all()
        if self.owns_store:
            self.store.close()


# -- errors ---------------------------------------------------------------------------------------------

_STATUS: tuple[tuple[type[NoughtsError], int], ...] = (
    (GameNotFound, 404),
    (StaleGame, 409),
    (Busy, 429),
    (LimitExceeded, 422),
    (NoughtsError, 400),
)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _noughts_error(request: Request, exc: Exception) -> JSONResponse:
    status = next(code for kind, code in _STATUS if isinstance(exc, kind))
    return _error(status, str(exc))


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
        (400, "bad input: a spec, position, move or agent that cannot be used"),
        (404, "no such game or batch"),
        (422, "a request that does not match the schema, or work over its budget"),
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
    owns = store is None
    arena = Arena(store if store is not None else Store(db), limits, owns)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        arena.jobs.stop_all()  # the store stays open: everything in it is already committed

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
    app.add_middleware(BodyLimit, limit=limits.max_request_bytes)
    app.add_middleware(ServerTiming)
    _routes(app, arena)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _solve_seconds(limits: Limits, asked: float | None) -> float:
    if asked is None:
        return limits.default_solve_seconds
    if asked > limits.max_solve_seconds:
        raise NoughtsError(f"max_seconds is at most {limits.max_solve_seconds:g} in the arena, not {asked:g}")
    return asked


def _position(game: Game, text: str | None) -> Position:
    """The position a request names by its text; the start when it names none."""
    return game.parse(text) if text else game.start()


def _routes(app: FastAPI, arena: Arena) -> None:
    limits = arena.limits
    games = arena.games

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/health", tags=["arena"])
    def health() -> dict[str, Any]:
        """Whether the arena is up, its version, and what it keeps."""
        return {
            "ok": True,
            "version": noughts.__version__,
            "store": arena.store.path if arena.store.path == ":memory:" else Path(arena.store.path).name,
            "engines": len(arena.engines),
            "uptime": round(time.time() - arena.started, 1),
            "limits": {k: getattr(limits, k) for k in limits.__dataclass_fields__},
            "features": arena.features,
        }

    @app.get("/api/presets", tags=["games"], response_model=list[Preset])
    def presets() -> list[dict[str, str]]:
        """The games of the sources, ready to pick (any other spec works too)."""
        return [{"spec": s, "name": n, "note": t} for s, n, t in PRESETS]

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
    def agents() -> list[dict[str, Any]]:
        """The players a seat can hold: a person, the built-in agents, and saved agents."""
        out: list[dict[str, Any]] = [
            {"spec": "human", "name": "Human", "note": "you, at the board"},
            {"spec": "perfect", "name": "Perfect", "note": "the exact solver's first best move"},
            {"spec": "perfect:tie=random", "name": "Perfect (random ties)", "note": "a random best move"},
            {"spec": "random", "name": "Random", "note": "a uniformly random legal move"},
        ]
        out += [
            {"spec": f"minimax:depth={d}", "name": f"Minimax depth {d}", "note": "depth-limited search"}
            for d in (2, 4)
        ]
        out += [
            {"spec": f"mcts:sims={n}", "name": f"MCTS {n}", "note": "Monte Carlo tree search"}
            for n in (200, 2000)
        ]
        out += [
            {"spec": f"engine:seconds={t:g}", "name": f"Engine {t:g} s", "note": "alpha-beta with threat search"}
            for t in (0.5, 2)
        ]
        for record in arena.store.agents():
            game = f" for {record.spec}" if record.spec else ""
            out.append(
                {
                    "spec": f"saved:{record.name}",
                    "name": record.name,
                    "note": f"{record.kind}{game}",
                    "saved": True,
                }
            )
        return out

    # -- games ------------------------------------------------------------------------------------

    @app.post("/api/games", tags=["play"], response_model=GameState, status_code=201)
    def new_game(request: NewGame) -> dict[str, Any]:
        """Start a game (recorded at once); x moves first. Seats hold ``human`` or an agent."""
        return games.create(request.game, request.x, request.o, request.position).state()

    @app.get("/api/games", tags=["play"], response_model=list[GameSummary])
    def list_games(
        status: str | None = Query(default=None, pattern="^(playing|finished)$"),
        limit: int = Query(default=50, ge=1, le=500),
        offset: int = Query(default=0, ge=0, le=10**9),
    ) -> list[dict[str, Any]]:
        """The arena's recorded games, most recently played first (``playing``: unfinished)."""
        return games.summaries(status, limit, offset)

    @app.get("/api/games/{game_id}", tags=["play"], response_model=GameState)
    def get_game(game_id: GameId) -> dict[str, Any]:
        """A game as played so far (reopened from the store if the server restarted)."""
        return games.get(game_id).state()

    @app.post("/api/games/{game_id}/move", tags=["play"], response_model=GameState)
    def play_move(game_id: GameId, request: MoveRequest) -> dict[str, Any]:
        """A person's move, in notation (``b2``) or as an integer action."""
        return games.play(game_id, request.move, request.action, request.ply, request.key).state()

    @app.post("/api/games/{game_id}/turn", tags=["play"], response_model=GameState)
    def agent_turn(game_id: GameId, request: TurnRequest | None = None) -> dict[str, Any]:
        """The agent whose turn it is makes its move (watching two agents: call it again)."""
        live, _ = games.turn(game_id, None if request is None else request.ply)
        return live.state()

    @app.post("/api/games/{game_id}/undo", tags=["play"], response_model=GameState)
    def undo(game_id: GameId, request: UndoRequest | None = None) -> dict[str, Any]:
        """Take back moves: by default back to the person's last turn."""
        return games.undo(game_id, None if request is None else request.plies).state()

    # -- analysis ---------------------------------------------------------------------------------

    @app.post("/api/analyse", tags=["analysis"], response_model=Analysis)
    def analyse(request: AnalyseRequest) -> dict[str, Any]:
        """Solve a position exactly within a time budget: its value, every move's value and
        distance, the principal variation (the ``solve --json`` document), and the per-cell
        view of the evaluation overlay. Over budget: ``solved`` is false and ``reason`` says why.
        """
        game = check_game(request.game, limits)
        position = _position(game, request.position)
        seconds = _solve_seconds(limits, request.max_seconds)
        try:
            result = arena.engines.analyse(game, position, seconds)
        except LimitExceeded as e:
            return {"solved": False, "reason": str(e)}
        return {"solved": True, "solve": result.to_json(), "evaluation": evaluation_json(result)}

    @app.post("/api/count", tags=["analysis"])
    def count(request: CountRequest) -> dict[str, Any]:
        """Count a game exactly (positions, games by outcome and length, terminal positions,
        tree nodes, counts up to symmetry) within a time budget.
        """
        game = check_game(request.game, limits)
        seconds = _solve_seconds(limits, request.max_seconds)
        result = noughts.count(game, budget=Budget(max_seconds=seconds, max_memory=512 * 2**20))
        return {"game": str(game), **result.to_json()}

    @app.post("/api/estimate", tags=["analysis"])
    def estimate(request: EstimateRequest) -> dict[str, Any]:
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
        from noughts.agents.minimax import MinimaxAgent

        started = time.perf_counter()
        rated = MinimaxAgent(request.depth).move_scores(position)
        moves = [{**move_info(game, m), "score": int(v)} for m, v in rated.items()]
        moves.sort(key=lambda m: -m["score"])
        return {
            "agent": f"minimax:depth={request.depth}",
            "moves": moves,
            "seconds": time.perf_counter() - started,
        }

    @app.post("/api/suggest", tags=["analysis"], response_model=Suggestion)
    def suggest(request: SuggestRequest) -> dict[str, Any]:
        """The move an agent would play in a position (a hint where the solver cannot help)."""
        game = check_game(request.game, limits)
        position = _position(game, request.position)
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to suggest")
        spec = arena.agents.check(request.agent)
        rng = np.random.default_rng(request.seed)
        started = time.perf_counter()
        move = arena.agents.choose(spec, position, rng)
        return {"agent": spec, "move": move_info(game, move), "seconds": time.perf_counter() - started}

    # -- batches ----------------------------------------------------------------------------------

    @app.post("/api/batches", tags=["watch"], response_model=BatchState, status_code=202)
    def new_batch(request: BatchRequest) -> dict[str, Any]:
        """Play a batch of games between two agents in the background (poll its state)."""
        game = check_game(request.game, limits)
        x, o = arena.agents.check(request.x), arena.agents.check(request.o)
        if "human" in (x, o):
            raise NoughtsError("a batch is played by two agents; choose an agent for each seat")
        if request.games > limits.max_batch_games:
            raise NoughtsError(f"a batch has at most {limits.max_batch_games:,} games, not {request.games:,}")
        arena.jobs.reserve()
        try:
            seed = request.seed if request.seed is not None else secrets.randbits(63)
            match_id = arena.store.new_match(
                str(game), x, o, {"games": request.games, "seed": seed, "source": "web"}
            )
            job = BatchJob(match_id, game, x, o, request.games, seed, arena.agents, arena.store)
        except BaseException:
            arena.jobs.release()
            raise
        arena.jobs.start(job)
        return job.state()

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
    def stop_batch(batch_id: BatchId) -> dict[str, Any]:
        """Stop a batch now; the games it finished stay recorded (the one in play is dropped)."""
        job = _batch(batch_id)
        job.stop()
        return job.state()

    # -- training ---------------------------------------------------------------------------------

    @app.get("/api/learners", tags=["train"])
    def list_learners() -> list[dict[str, str]]:
        """The learners a training run can use, and their options."""
        return learners()

    @app.post("/api/training", tags=["train"], status_code=202)
    def new_training(request: TrainingRequest) -> dict[str, Any]:
        """Train a learner by self-play in the background; poll its state for the charts."""
        game = check_game(request.game, limits)
        if request.learner not in learners_kinds():
            raise NoughtsError(f"unknown learner {request.learner!r}; known: {', '.join(learners_kinds())}")
        if request.episodes > limits.max_training_episodes:
            raise NoughtsError(
                f"a run has at most {limits.max_training_episodes:,} episodes in the arena, not {request.episodes:,}"
            )
        arena.jobs.reserve()
        try:
            config = {
                "game": str(game),
                "learner": request.learner,
                "options": request.options,
                "episodes": request.episodes,
                "source": "web",
            }
            run_id = arena.store.new_run(f"web {request.learner} on {game}", config)
            try:
                job = TrainingJob(
                    run_id, game, request.learner, dict(request.options), request.episodes, arena.store
                )
            except NoughtsError:
                arena.store.set_run_status(run_id, "failed")
                raise
        except BaseException:
            arena.jobs.release()
            raise
        arena.jobs.start(job)
        return job.state()

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
    def stop_training(run_id: BatchId) -> dict[str, Any]:
        """Stop a run after the chunk of episodes in hand (its agent can then be saved)."""
        job = _run(run_id)
        job.stop()
        return {k: v for k, v in job.state().items() if k != "series"}

    @app.post("/api/training/{run_id}/save", tags=["train"])
    def save_training(run_id: BatchId, request: SaveRequest) -> dict[str, Any]:
        """Save a finished or stopped run's agent to the registry as ``saved:NAME``."""
        job = _run(run_id)
        if job.status == "running":
            raise NoughtsError("the run is still training: stop it or wait for it to finish, then save")
        if job.status == "failed":
            raise NoughtsError(f"the run failed ({job.error}); there is no agent to save")
        check_name(request.name)
        saved = arena.agent_files.save(
            request.name, job.learner.agent(), job.game, {"run": job.id, "episodes": job.done}
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
        """Add a saved agent from a zip of its .json and .npz (as Download gives), validated on load."""
        data = await request.body()
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(arena.agent_files.upload, check_name(name), data)

    # -- leaderboard ------------------------------------------------------------------------------

    @app.get("/api/leaderboard", tags=["leaderboard"])
    def leaderboard(
        game: str | None = Query(
            default=None, max_length=200, description="A game spec (default: the most played)."
        ),
    ) -> dict[str, Any]:
        """Bradley-Terry ratings (Elo scale) of the agents from every recorded finished game
        between agents (batches, matches, tournaments, watched games) of one game, with each
        agent's wins, draws and losses.
        """
        from noughts.arena.ratings import bradley_terry

        played: dict[str, int] = {}
        for m in arena.store.matches(limit=10_000):
            played[m.spec] = played.get(m.spec, 0) + m.games
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
        ratings = bradley_terry(results)
        out["ratings"] = [
            {
                "agent": a,
                "rating": round(v, 1),
                "stderr": None if se is None else round(se, 1),
                "games": n,
                "wins": tally[a][0],
                "draws": tally[a][1],
                "losses": tally[a][2],
            }
            for a, v, se, n in ratings.table()
        ]
        return out


def learners_kinds() -> list[str]:
    """The learner kinds of :data:`noughts.learn.train.LEARNERS`."""
    from noughts.learn.train import LEARNERS

    return list(LEARNERS)
