"""The SQLite store: game records move by move, matches, tournaments, saved agents, runs.

One file (WAL mode): the project's (``.noughts/noughts.db`` in the nearest folder, from the
current one up, that has a ``.noughts`` folder; ``make run`` makes one in a clone) or else the
per-user one (:func:`default_path`), as :func:`store_path` chooses; or any path (``--db``).
Records are written when they happen: :meth:`Store.append_move` commits each move, so a
process that dies mid-game loses nothing already played, and :meth:`Store.game` reopens the
game where it stopped. The store knows nothing of the rules: games, agents and moves are
strings (specs, agent specs, moves in notation), outcomes are ``first``, ``second`` or
``draw`` (``noughts.Outcome`` values are accepted too).

The schema is versioned in a ``meta`` table; a file written by a newer noughts, or a file that
is not a noughts store, is refused with a :class:`StoreError` that says so.

One connection serves all threads, each call under a lock, so a web server's worker threads
can share one :class:`Store`; separate processes may open the same file (SQLite's own locking,
with a busy timeout, orders their writes).
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from noughts.core.errors import NoughtsError

__all__ = [
    "SCHEMA_VERSION",
    "AgentRecord",
    "GameRecord",
    "GameResult",
    "MatchRecord",
    "RunRecord",
    "Store",
    "StoreError",
    "default_path",
    "project_path",
    "store_path",
]

SCHEMA_VERSION = 1
"""The schema this noughts writes; files with a larger version are refused."""

APPLICATION = "noughts"
OUTCOMES = ("first", "second", "draw")
STATUSES = ("playing", "finished")

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    spec TEXT NOT NULL,
    agents TEXT NOT NULL,
    settings TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    spec TEXT NOT NULL,
    agent_a TEXT NOT NULL,
    agent_b TEXT NOT NULL,
    settings TEXT NOT NULL,
    tournament_id INTEGER REFERENCES tournaments(id),
    created TEXT NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    spec TEXT NOT NULL,
    first TEXT NOT NULL,
    second TEXT NOT NULL,
    start TEXT,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished')),
    outcome TEXT CHECK (outcome IN ('first', 'second', 'draw')),
    source TEXT NOT NULL,
    match_id INTEGER REFERENCES matches(id),
    metadata TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE INDEX games_by_status ON games (status, updated);
CREATE INDEX games_by_match ON games (match_id);
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE agents (
    name TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    path TEXT,
    spec TEXT,
    metadata TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    path TEXT,
    status TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
"""


class StoreError(NoughtsError):
    """A store that cannot be opened or used as asked (the message says why)."""


def default_path() -> Path:
    """The per-user store: ``$XDG_DATA_HOME/noughts/noughts.db`` (``~/.local/share`` when
    unset) on Linux, ``~/Library/Application Support/noughts`` on macOS, ``%LOCALAPPDATA%``
    on Windows.
    """
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "noughts" / "noughts.db"


PROJECT_FOLDER = ".noughts"
"""The folder that gives a project its own store (``PROJECT_FOLDER/noughts.db``)."""

NO_PROJECT_ENV = "NOUGHTS_PROJECT_STORE"
"""Set to ``0`` to ignore project stores (the per-user store is then the default; the tests do)."""


def project_path(start: str | os.PathLike[str] | None = None) -> Path | None:
    """The project's store: ``.noughts/noughts.db`` in the nearest folder, from ``start`` (the
    current folder) up, that holds a ``.noughts`` folder; None if there is none (or the
    environment variable :data:`NO_PROJECT_ENV` is ``0``).
    """
    if os.environ.get(NO_PROJECT_ENV, "").strip() == "0":
        return None
    try:
        here = Path(start if start is not None else Path.cwd()).resolve()
    except OSError:  # the current folder was removed
        return None
    for folder in (here, *here.parents):
        if (folder / PROJECT_FOLDER).is_dir():
            return folder / PROJECT_FOLDER / "noughts.db"
    return None


def store_path() -> Path:
    """The store used when none is named: the project's (:func:`project_path`), else the
    per-user one (:func:`default_path`).
    """
    return project_path() or default_path()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _outcome_text(outcome: object) -> str:
    text = getattr(outcome, "value", outcome)
    if text not in OUTCOMES:
        raise StoreError(f"an outcome is 'first', 'second' or 'draw', not {outcome!r}")
    return str(text)


def _dump(obj: object, what: str) -> str:
    if obj is None:
        obj = {}
    if not isinstance(obj, dict):
        raise StoreError(f"{what} must be a JSON object (a dict), not {type(obj).__name__}")
    try:
        return json.dumps(obj, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise StoreError(f"{what} cannot be written as JSON: {e}") from None


@dataclass(frozen=True)
class GameRecord:
    """A recorded game: who played, the moves so far (in notation), and how it ended."""

    id: int
    spec: str
    first: str
    second: str
    status: str
    outcome: str | None
    source: str
    moves: list[str]
    start: str | None
    match_id: int | None
    metadata: dict[str, Any]
    created: str
    updated: str

    @property
    def plies(self) -> int:
        """Moves played so far."""
        return len(self.moves)

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        return {
            "id": self.id,
            "spec": self.spec,
            "first": self.first,
            "second": self.second,
            "status": self.status,
            "outcome": self.outcome,
            "source": self.source,
            "moves": list(self.moves),
            "start": self.start,
            "match_id": self.match_id,
            "metadata": dict(self.metadata),
            "created": self.created,
            "updated": self.updated,
        }


@dataclass(frozen=True)
class GameResult:
    """One finished game as ratings see it: who played first, who second, and the outcome."""

    first: str
    second: str
    outcome: str


@dataclass(frozen=True)
class MatchRecord:
    """A match between two agents on one game, and its settings (games, swap, seed, ...)."""

    id: int
    spec: str
    agent_a: str
    agent_b: str
    settings: dict[str, Any]
    tournament_id: int | None
    created: str
    games: int = 0


@dataclass(frozen=True)
class AgentRecord:
    """A saved agent in the registry: its name, kind, file, game and metadata."""

    name: str
    kind: str
    path: str | None
    spec: str | None
    metadata: dict[str, Any]
    created: str


@dataclass(frozen=True)
class RunRecord:
    """An experiment or training run: its configuration, output folder and status."""

    id: int
    name: str
    config: dict[str, Any]
    path: str | None
    status: str
    created: str
    updated: str


class Store:
    """The SQLite store; see the module docstring. ``path``: a file (made with its folder if
    missing), ``":memory:"`` for a throwaway store, or None for :func:`store_path` (the
    project's store, else the per-user one).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None):
        if path is None:
            path = store_path()
        self.path = str(path)
        if self.path != ":memory:":
            target = Path(self.path)
            if target.is_dir():
                raise StoreError(f"{target} is a folder, not a store file")
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(f"cannot make the folder for the store {target}: {e.strerror}") from None
        self._lock = threading.RLock()
        try:
            self._conn = sqlite3.connect(
                self.path, timeout=30.0, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the store {self.path}: {e}") from None
        self._conn.row_factory = sqlite3.Row
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._open_schema()
        except sqlite3.DatabaseError as e:
            self._conn.close()
            raise StoreError(f"{self.path} is not a noughts store: {e}") from None
        except StoreError:
            self._conn.close()
            raise

    # -- plumbing ---------------------------------------------------------------------------------

    def _open_schema(self) -> None:
        with self._write() as c:
            tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables:
                for statement in filter(str.strip, _SCHEMA.split(";")):
                    c.execute(statement)
                c.execute("INSERT INTO meta VALUES ('application', ?)", (APPLICATION,))
                c.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
                c.execute("INSERT INTO meta VALUES ('created', ?)", (_now(),))
                return
            if "meta" not in tables:
                raise StoreError(f"{self.path} is an SQLite file but not a noughts store (no meta table)")
            meta = dict(c.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("application") != APPLICATION:
            raise StoreError(f"{self.path} is an SQLite file but not a noughts store")
        try:
            version = int(meta.get("schema_version", ""))
        except ValueError:
            raise StoreError(f"{self.path}: unknown schema version {meta.get('schema_version')!r}") from None
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer noughts (schema {version}); this one reads "
                f"schema {SCHEMA_VERSION} and older: upgrade noughts"
            )
        if version < 1:
            raise StoreError(f"{self.path}: unknown schema version {version}")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (``BEGIN IMMEDIATE``), committed on success."""
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise StoreError(f"cannot write to the store {self.path}: {e}") from None
            try:
                yield conn
            except sqlite3.Error as e:
                conn.execute("ROLLBACK")
                raise StoreError(f"cannot write to the store {self.path}: {e}") from None
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            try:
                conn.execute("COMMIT")
            except sqlite3.Error as e:
                raise StoreError(f"cannot write to the store {self.path}: {e}") from None

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return self._conn.execute(sql, tuple(args)).fetchall()
            except sqlite3.Error as e:
                raise StoreError(f"cannot read the store {self.path}: {e}") from None

    def close(self) -> None:
        """Close the connection (everything is already committed)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.path!r})"

    @property
    def schema_version(self) -> int:
        """The schema version of the open file."""
        return int(self._read("SELECT value FROM meta WHERE key = 'schema_version'")[0][0])

    # -- games ------------------------------------------------------------------------------------

    def new_game(
        self,
        spec: str,
        first: str,
        second: str,
        source: str = "play",
        *,
        start: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> int:
        """Record a game that begins now; returns its id. ``start`` is the starting position's
        text when the game does not start from the empty board.
        """
        now = _now()
        with self._write() as c:
            cur = c.execute(
                "INSERT INTO games (spec, first, second, start, status, outcome, source, match_id, metadata,"
                " created, updated) VALUES (?, ?, ?, ?, 'playing', NULL, ?, NULL, ?, ?, ?)",
                (spec, first, second, start, source, _dump(metadata, "metadata"), now, now),
            )
            return int(cur.lastrowid or 0)

    def set_players(self, game_id: int, first: str, second: str) -> None:
        """Change who plays a game (a seat taken over or handed to an agent), committed at once."""
        with self._write() as c:
            self._status(c, game_id)  # StoreError if there is no such game
            c.execute(
                "UPDATE games SET first = ?, second = ?, updated = ? WHERE id = ?",
                (first, second, _now(), game_id),
            )

    def _status(self, c: sqlite3.Connection, game_id: int) -> str:
        row = c.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no game {game_id}")
        return str(row[0])

    def append_move(self, game_id: int, move: str) -> int:
        """Record the next move of a game in play (committed at once); returns its ply (1-based)."""
        if not isinstance(move, str) or not move:
            raise StoreError(f"a move is recorded as its notation, a non-empty string, not {move!r}")
        now = _now()
        with self._write() as c:
            if self._status(c, game_id) != "playing":
                raise StoreError(f"game {game_id} is finished: no more moves can be recorded")
            ply = int(c.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)).fetchone()[0]) + 1
            c.execute("INSERT INTO moves VALUES (?, ?, ?, ?)", (game_id, ply, move, now))
            c.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
            return ply

    def undo_move(self, game_id: int) -> str:
        """Take back the last move of a game in play; returns it."""
        with self._write() as c:
            if self._status(c, game_id) != "playing":
                raise StoreError(f"game {game_id} is finished: its moves cannot be taken back")
            row = c.execute(
                "SELECT ply, move FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT 1", (game_id,)
            ).fetchone()
            if row is None:
                raise StoreError(f"game {game_id} has no move to take back")
            c.execute("DELETE FROM moves WHERE game_id = ? AND ply = ?", (game_id, row[0]))
            c.execute("UPDATE games SET updated = ? WHERE id = ?", (_now(), game_id))
            return str(row[1])

    def finish_game(self, game_id: int, outcome: object) -> None:
        """Mark a game finished with ``outcome`` (``first``, ``second``, ``draw``)."""
        text = _outcome_text(outcome)
        with self._write() as c:
            if self._status(c, game_id) != "playing":
                raise StoreError(f"game {game_id} is already finished")
            c.execute(
                "UPDATE games SET status = 'finished', outcome = ?, updated = ? WHERE id = ?",
                (text, _now(), game_id),
            )

    def game(self, game_id: int) -> GameRecord:
        """A game's record with its moves; ``StoreError`` if there is none."""
        rows = self._read("SELECT * FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(f"there is no game {game_id}")
        return self._records(rows)[0]

    def games(
        self,
        status: str | None = None,
        *,
        spec: str | None = None,
        source: str | tuple[str, ...] | None = None,
        match_id: int | None = None,
        limit: int = 100,
        offset: int = 0,
        player: str | None = None,
    ) -> list[GameRecord]:
        """Games, most recently updated first, filtered by status, spec, source (one, or any
        of a tuple), match or player (either side's name).
        """
        if status is not None and status not in STATUSES:
            raise StoreError(f"a game's status is 'playing' or 'finished', not {status!r}")
        where, args = _filters(status=status, spec=spec, source=source, match_id=match_id)
        if player is not None:
            where += (" AND" if where else " WHERE") + " (first = ? OR second = ?)"
            args += [player, player]
        rows = self._read(
            f"SELECT * FROM games{where} ORDER BY updated DESC, id DESC LIMIT ? OFFSET ?",
            [*args, max(0, int(limit)), max(0, int(offset))],
        )
        return self._records(rows)

    def _records(self, rows: list[sqlite3.Row]) -> list[GameRecord]:
        if not rows:
            return []
        ids = [int(r["id"]) for r in rows]
        moves: dict[int, list[str]] = {i: [] for i in ids}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for m in self._read(
                f"SELECT game_id, move FROM moves WHERE game_id IN ({marks}) ORDER BY game_id, ply", chunk
            ):
                moves[int(m[0])].append(str(m[1]))
        return [
            GameRecord(
                id=int(r["id"]),
                spec=r["spec"],
                first=r["first"],
                second=r["second"],
                status=r["status"],
                outcome=r["outcome"],
                source=r["source"],
                moves=moves[int(r["id"])],
                start=r["start"],
                match_id=r["match_id"],
                metadata=json.loads(r["metadata"]),
                created=r["created"],
                updated=r["updated"],
            )
            for r in rows
        ]

    def import_game(
        self,
        spec: str,
        first: str,
        second: str,
        moves: Sequence[str] = (),
        *,
        outcome: object = None,
        start: str | None = None,
        source: str = "import",
        metadata: dict[str, Any] | None = None,
    ) -> int:
        """Record a whole game at once (one transaction): finished with ``outcome``, or still in
        play (resumable) when ``outcome`` is None. Returns its id.
        """
        text = None if outcome is None else _outcome_text(outcome)
        for move in moves:
            if not isinstance(move, str) or not move:
                raise StoreError(f"a move is recorded as its notation, a non-empty string, not {move!r}")
        now = _now()
        with self._write() as c:
            cur = c.execute(
                "INSERT INTO games (spec, first, second, start, status, outcome, source, match_id, metadata,"
                " created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)",
                (
                    spec,
                    first,
                    second,
                    start,
                    "playing" if text is None else "finished",
                    text,
                    source,
                    _dump(metadata, "metadata"),
                    now,
                    now,
                ),
            )
            game_id = int(cur.lastrowid or 0)
            c.executemany(
                "INSERT INTO moves VALUES (?, ?, ?, ?)",
                [(game_id, ply, m, now) for ply, m in enumerate(moves, 1)],
            )
            return game_id

    def iter_games(
        self,
        status: str | None = None,
        *,
        spec: str | None = None,
        source: str | None = None,
        chunk: int = 500,
    ) -> Iterator[GameRecord]:
        """Every game (filtered by status, spec or source), oldest first, read ``chunk`` at a time."""
        if status is not None and status not in STATUSES:
            raise StoreError(f"a game's status is 'playing' or 'finished', not {status!r}")
        where, args = _filters(status=status, spec=spec, source=source)
        after = 0
        while True:
            clause = (where + " AND" if where else " WHERE") + " id > ?"
            rows = self._read(
                f"SELECT * FROM games{clause} ORDER BY id LIMIT ?", [*args, after, max(1, int(chunk))]
            )
            if not rows:
                return
            yield from self._records(rows)
            after = int(rows[-1]["id"])

    def delete_game(self, game_id: int) -> None:
        """Remove a game and its moves."""
        with self._write() as c:
            self._status(c, game_id)
            c.execute("DELETE FROM games WHERE id = ?", (game_id,))

    # -- matches and tournaments -------------------------------------------------------------------

    def new_tournament(self, spec: str, agents: Sequence[str], settings: dict[str, Any] | None = None) -> int:
        """Record a tournament among ``agents`` on game ``spec``; returns its id."""
        with self._write() as c:
            cur = c.execute(
                "INSERT INTO tournaments (spec, agents, settings, created) VALUES (?, ?, ?, ?)",
                (spec, json.dumps(list(agents)), _dump(settings, "settings"), _now()),
            )
            return int(cur.lastrowid or 0)

    def new_match(
        self,
        spec: str,
        agent_a: str,
        agent_b: str,
        settings: dict[str, Any] | None = None,
        *,
        tournament_id: int | None = None,
    ) -> int:
        """Record a match between two agents on game ``spec``; returns its id."""
        with self._write() as c:
            if (
                tournament_id is not None
                and not c.execute("SELECT 1 FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
            ):
                raise StoreError(f"there is no tournament {tournament_id}")
            cur = c.execute(
                "INSERT INTO matches (spec, agent_a, agent_b, settings, tournament_id, created)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (spec, agent_a, agent_b, _dump(settings, "settings"), tournament_id, _now()),
            )
            return int(cur.lastrowid or 0)

    def record_match_game(
        self,
        match_id: int,
        first: str,
        second: str,
        outcome: object,
        moves: Sequence[str] = (),
        *,
        start: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> int:
        """Record one finished game of a match, with its moves, in one transaction."""
        text = _outcome_text(outcome)
        now = _now()
        with self._write() as c:
            row = c.execute("SELECT spec FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise StoreError(f"there is no match {match_id}")
            cur = c.execute(
                "INSERT INTO games (spec, first, second, start, status, outcome, source, match_id, metadata,"
                " created, updated) VALUES (?, ?, ?, ?, 'finished', ?, 'match', ?, ?, ?, ?)",
                (row[0], first, second, start, text, match_id, _dump(metadata, "metadata"), now, now),
            )
            game_id = int(cur.lastrowid or 0)
            c.executemany(
                "INSERT INTO moves VALUES (?, ?, ?, ?)",
                [(game_id, ply, str(m), now) for ply, m in enumerate(moves, 1)],
            )
            return game_id

    def match(self, match_id: int) -> MatchRecord:
        """A match's record, with the number of its games recorded."""
        rows = self._read(
            "SELECT m.*, (SELECT COUNT(*) FROM games g WHERE g.match_id = m.id) AS n FROM matches m"
            " WHERE m.id = ?",
            (match_id,),
        )
        if not rows:
            raise StoreError(f"there is no match {match_id}")
        return _match(rows[0])

    def matches(
        self, *, spec: str | None = None, tournament_id: int | None = None, limit: int = 100
    ) -> list[MatchRecord]:
        """Matches, newest first."""
        where, args = _filters(spec=spec, tournament_id=tournament_id, prefix="m.")
        rows = self._read(
            "SELECT m.*, (SELECT COUNT(*) FROM games g WHERE g.match_id = m.id) AS n FROM matches m"
            f"{where} ORDER BY m.id DESC LIMIT ?",
            [*args, max(0, int(limit))],
        )
        return [_match(r) for r in rows]

    def game_counts(self, *, status: str | None = "finished", source: str | None = None) -> dict[str, int]:
        """How many games of each game spec are recorded (finished ones by default), most first."""
        where, args = _filters(status=status, source=source)
        rows = self._read(
            f"SELECT spec, COUNT(*) AS n FROM games{where} GROUP BY spec ORDER BY n DESC, spec", args
        )
        return {str(r[0]): int(r[1]) for r in rows}

    def finished_counts(self, *, without: str | None = None) -> dict[str, int]:
        """Finished games by game spec (``without``: leaving out games in which that player,
        e.g. ``human``, held a seat).
        """
        where, args = "status = 'finished'", []
        if without is not None:
            where += " AND first != ? AND second != ?"
            args = [without, without]
        rows = self._read(f"SELECT spec, COUNT(*) FROM games WHERE {where} GROUP BY spec", args)
        return {str(r[0]): int(r[1]) for r in rows}

    def match_results(
        self,
        match_id: int | None = None,
        *,
        tournament_id: int | None = None,
        spec: str | None = None,
        source: str | None = None,
    ) -> list[GameResult]:
        """Finished games as (first, second, outcome), the input of ratings: of one match, of
        one tournament's matches, or of every finished game (of a game ``spec``, a ``source``).
        """
        clauses = ["g.status = 'finished'"]
        args: list[Any] = []
        if match_id is not None:
            clauses.append("g.match_id = ?")
            args.append(match_id)
        if tournament_id is not None:
            clauses.append("g.match_id IN (SELECT id FROM matches WHERE tournament_id = ?)")
            args.append(tournament_id)
        if spec is not None:
            clauses.append("g.spec = ?")
            args.append(spec)
        if source is not None:
            clauses.append("g.source = ?")
            args.append(source)
        rows = self._read(
            f"SELECT g.first, g.second, g.outcome FROM games g WHERE {' AND '.join(clauses)} ORDER BY g.id",
            args,
        )
        return [GameResult(r[0], r[1], r[2]) for r in rows]

    # -- saved agents -----------------------------------------------------------------------------

    def register_agent(
        self,
        name: str,
        kind: str,
        *,
        path: str | os.PathLike[str] | None = None,
        spec: str | None = None,
        metadata: dict[str, Any] | None = None,
        replace: bool = False,
    ) -> AgentRecord:
        """Add a saved agent to the registry (``replace`` to overwrite one of the same name)."""
        if not isinstance(name, str) or not name.strip():
            raise StoreError("an agent's name is a non-empty string")
        meta = _dump(metadata, "metadata")
        now = _now()
        with self._write() as c:
            exists = c.execute("SELECT 1 FROM agents WHERE name = ?", (name,)).fetchone()
            if exists and not replace:
                raise StoreError(f"there is already an agent named {name!r}")
            c.execute(
                "INSERT OR REPLACE INTO agents VALUES (?, ?, ?, ?, ?, ?)",
                (name, kind, None if path is None else str(path), spec, meta, now),
            )
        return AgentRecord(name, kind, None if path is None else str(path), spec, json.loads(meta), now)

    def agent(self, name: str) -> AgentRecord:
        """One registered agent; ``StoreError`` if there is none of that name."""
        rows = self._read("SELECT * FROM agents WHERE name = ?", (name,))
        if not rows:
            raise StoreError(f"there is no agent named {name!r} in the registry")
        return _agent(rows[0])

    def agents(self, *, spec: str | None = None, kind: str | None = None) -> list[AgentRecord]:
        """Registered agents, by name."""
        where, args = _filters(spec=spec, kind=kind)
        return [_agent(r) for r in self._read(f"SELECT * FROM agents{where} ORDER BY name", args)]

    def remove_agent(self, name: str) -> None:
        """Remove an agent from the registry (its files are left alone)."""
        with self._write() as c:
            if c.execute("DELETE FROM agents WHERE name = ?", (name,)).rowcount == 0:
                raise StoreError(f"there is no agent named {name!r} in the registry")

    # -- experiment runs --------------------------------------------------------------------------

    def new_run(self, name: str, config: dict[str, Any], path: str | os.PathLike[str] | None = None) -> int:
        """Record an experiment or training run that starts now; returns its id."""
        now = _now()
        with self._write() as c:
            cur = c.execute(
                "INSERT INTO runs (name, config, path, status, created, updated) VALUES (?, ?, ?, 'running', ?, ?)",
                (name, _dump(config, "config"), None if path is None else str(path), now, now),
            )
            return int(cur.lastrowid or 0)

    def set_run_status(self, run_id: int, status: str) -> None:
        """Set a run's status (e.g. ``finished``, ``stopped``, ``failed``)."""
        with self._write() as c:
            if (
                c.execute(
                    "UPDATE runs SET status = ?, updated = ? WHERE id = ?", (status, _now(), run_id)
                ).rowcount
                == 0
            ):
                raise StoreError(f"there is no run {run_id}")

    def run(self, run_id: int) -> RunRecord:
        """One run's record."""
        rows = self._read("SELECT * FROM runs WHERE id = ?", (run_id,))
        if not rows:
            raise StoreError(f"there is no run {run_id}")
        return _run(rows[0])

    def runs(self, *, name: str | None = None, limit: int = 100) -> list[RunRecord]:
        """Runs, newest first."""
        where, args = _filters(name=name)
        return [
            _run(r)
            for r in self._read(
                f"SELECT * FROM runs{where} ORDER BY id DESC LIMIT ?", [*args, max(0, int(limit))]
            )
        ]


def _filters(prefix: str = "", **values: Any) -> tuple[str, list[Any]]:
    """A WHERE clause: each column equal to its value, or one of them (a tuple); None: any."""
    clauses: list[str] = []
    args: list[Any] = []
    for column, value in values.items():
        if isinstance(value, tuple):
            clauses.append(f"{prefix}{column} IN ({','.join('?' * len(value))})" if value else "0")
            args.extend(value)
        elif value is not None:
            clauses.append(f"{prefix}{column} = ?")
            args.append(value)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), args


def _match(r: sqlite3.Row) -> MatchRecord:
    return MatchRecord(
        id=int(r["id"]),
        spec=r["spec"],
        agent_a=r["agent_a"],
        agent_b=r["agent_b"],
        settings=json.loads(r["settings"]),
        tournament_id=r["tournament_id"],
        created=r["created"],
        games=int(r["n"]),
    )


def _agent(r: sqlite3.Row) -> AgentRecord:
    return AgentRecord(r["name"], r["kind"], r["path"], r["spec"], json.loads(r["metadata"]), r["created"])


def _run(r: sqlite3.Row) -> RunRecord:
    return RunRecord(
        int(r["id"]), r["name"], json.loads(r["config"]), r["path"], r["status"], r["created"], r["updated"]
    )
