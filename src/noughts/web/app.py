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

import math
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Message, Receive, Scope, Send

import noughts
from noughts.core import LimitExceeded, NoughtsError
from noughts.store import Store
from noughts.web.arena import Arena
from noughts.web.limits import Limits
from noughts.web.models import ErrorMessage
from noughts.web.presets import BUILT_IN, PRESETS, STATIC
from noughts.web.records import register_names
from noughts.web.routes import analysis, batches, board, leaderboard, neural, play, records, site, training
from noughts.web.security import Guard
from noughts.web.sessions import GameNotFound, NotOwner, StaleGame
from noughts.web.workers import Busy, WorkerFailed

__all__ = ["BUILT_IN", "PRESETS", "ROUTERS", "STATIC", "Arena", "create_app"]

ROUTERS = (site, play, analysis, board, records, batches, training, leaderboard, neural)
"""The API by area: each module's ``router(arena)`` is an ``APIRouter`` of its endpoints
(:mod:`noughts.web.routes`); :func:`create_app` includes them in this order. An area of its
own is one more module here."""


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
    for area in ROUTERS:
        app.include_router(area.router(arena))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
