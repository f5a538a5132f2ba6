"""Game records: read, written and imported by a worker within the arena's record budget, and a
stored game's record.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from noughts.core import LimitExceeded
from noughts.store import StoreError
from noughts.web import records
from noughts.web.arena import Arena
from noughts.web.models import RecordText, RecordWrite
from noughts.web.routes.common import GameId, client_of, since
from noughts.web.sessions import GameNotFound
from noughts.web.workers import Busy

__all__ = ["router"]


def router(arena: Arena) -> APIRouter:
    """``/api/records/read``, ``/write`` and ``/import``, and ``/api/games/{id}/record``."""
    routes = APIRouter()
    limits = arena.limits
    pool = arena.pool

    @routes.post("/api/records/read", tags=["records"])
    def read_records(request: RecordText, http: Request) -> dict[str, Any]:
        """Read a game record (text or JSON): every game with each move's ply, player and
        position (variations too), its text form and the game's name. The games are built in a
        worker, within :attr:`Limits.record_seconds` (422 past it).
        """
        records.check_record_text(request.text, limits)  # size before work: nothing built yet
        return _record_task(http, "read_records", {"text": request.text})

    @routes.post("/api/records/write", tags=["records"])
    def write_record(request: RecordWrite, http: Request) -> dict[str, Any]:
        """Check a record given as JSON and write it: its text (or, ``as_json``, the JSON
        collection) and the record with every move's ply, player and position.
        """
        records.check_record_doc(request.record, limits)  # size before work: nothing built yet
        return _record_task(http, "write_record", {"record": request.record, "as_json": request.as_json})

    @routes.post("/api/records/import", tags=["records"])
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
                client=client_of(http),
                since=since(http),
            )
        except Busy:
            raise
        except LimitExceeded as e:
            raise LimitExceeded(
                f"the record was not read within the arena's {seconds:g} s for one request ({e}); "
                "send fewer or shorter games"
            ) from None
        return result

    @routes.get("/api/games/{game_id}/record", tags=["records"], response_model=None)
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

    return routes
