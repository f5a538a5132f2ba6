"""Records and the store: every stored game exports to a record, every record imports as a
stored game, and a game played at the terminal is recorded move by move (:class:`GameLog`).

The store keeps a game's main line in its moves table (what the web arena and ratings read);
what a record holds beyond it (its tags, comments, annotations, variations) goes into the
game's metadata under ``"record"``::

    {"record": {"version": 1, "tags": {"Event": ...}, "moves": LINE}}

where ``LINE`` is :meth:`~noughts.record.model.Line.to_json` (present only when there is
something beyond the bare moves). On export the store's moves are the main line (a game
imported unfinished may have been played on since); the stored tree is laid over them as far
as they agree, and where they part the stored continuation becomes a variation of the move now
played. A game with no ``record`` metadata (one played here) gets its tags from the store:
``Date`` and ``Time`` (UTC) from when it was created, ``Source`` (``play``, ``web``, ``match``),
``Match`` and ``Round`` for a match's games, ``Seed`` where the players drew from a seeded
generator (once the game is finished: a seed published while the game runs tells an opponent
every move a seeded agent will make).

A game played at the terminal gets an unguessable token (:attr:`GameLog.token`; only its
SHA-256 is stored, as the web arena does for its games): the arena lets anyone watch the game
and only the token's holder play on in it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from noughts.core import Game, Move, NoughtsError, Outcome, Position
from noughts.core import game as make_game
from noughts.record.model import Line, Node, Record, RecordError

if TYPE_CHECKING:
    from noughts.store import GameRecord, Store

__all__ = [
    "GameLog",
    "export_games",
    "from_store",
    "import_records",
    "store_row",
    "store_row_in",
    "to_store",
    "token_hash",
]

METADATA_VERSION = 1


def _bare(line: Line) -> bool:
    return (
        all(n.comment is None and not n.nags and not n.variations for n in line.moves)
        and line.comment is None
    )


def _merge(moves: Sequence[str], tree: Line | None) -> Line:
    """The store's main line with the stored tree laid over it (see the module docstring)."""
    if tree is None:
        return Line(tuple(Node(m) for m in moves))
    old = tree.moves
    nodes: list[Node] = []
    for i, move in enumerate(moves):
        if i < len(old) and old[i].move == move:
            nodes.append(old[i])
            continue
        if i < len(old):  # the game went another way here: keep the stored line as a variation
            nodes.append(Node(move, variations=(Line(old[i:]),)))
        else:
            nodes.append(Node(move))
        nodes.extend(Node(m) for m in moves[i + 1 :])
        break
    return Line(tuple(nodes), tree.comment)


def _derived_tags(rec: GameRecord) -> dict[str, str]:
    tags: dict[str, str] = {}
    if len(rec.created) >= 19:
        tags["Date"] = rec.created[:10]
        tags["Time"] = rec.created[11:19]
    tags["Source"] = rec.source
    if rec.match_id is not None:
        tags["Match"] = str(rec.match_id)
        index = rec.metadata.get("index")
        if type(index) is int:
            tags["Round"] = str(index + 1)
    seed = rec.metadata.get("seed")
    if type(seed) is int and rec.status == "finished":
        tags["Seed"] = str(seed)
    return tags


def from_store(rec: GameRecord) -> Record:
    """The record of a stored game (see the module docstring); ``RecordError`` naming the game
    if what is stored does not make a game.
    """
    try:
        game = make_game(rec.spec)
        stored = rec.metadata.get("record")
        if isinstance(stored, dict):
            tags = stored.get("tags", {})
            tree = Line.from_json(stored["moves"]) if stored.get("moves") is not None else None
        else:
            tags, tree = _derived_tags(rec), None
        return Record(
            game,
            _merge(rec.moves, tree),
            first=rec.first,
            second=rec.second,
            result=None if rec.outcome is None else Outcome(rec.outcome),
            start=rec.start,  # type: ignore[arg-type]
            tags=tags,
        )
    except NoughtsError as e:
        raise RecordError(f"game {rec.id} of the store does not make a record: {e}") from None


def token_hash(token: str) -> str:
    """What the store keeps of a game's token (its SHA-256, hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


def store_row(record: Record) -> dict[str, Any]:
    """What :func:`to_store` records of ``record``: the arguments of :meth:`Store.import_game`
    (plain data: text, lists, a JSON-able dict), so that a record read in one process (a web
    worker) can be stored by another without building its game again.
    """
    meta: dict[str, Any] = {"version": METADATA_VERSION, "tags": dict(record.tags)}
    if not _bare(record.moves):
        meta["moves"] = record.moves.to_json()
    return {
        "spec": str(record.game),
        "first": record.first,
        "second": record.second,
        "moves": [n.move for n in record.moves.moves],
        "outcome": None if record.result is None else record.result.value,
        "start": None if record.start is None else record.start.text(),
        "metadata": {"record": meta},
    }


def store_row_in(
    store: Store, row: dict[str, Any], *, source: str = "import", token: str | None = None
) -> int:
    """Record one :func:`store_row` in ``store`` (one transaction); its id. ``token``: the
    game's token (its hash is stored), for whoever may play on.
    """
    metadata = dict(row["metadata"]) | ({} if token is None else {"token": token_hash(token)})
    return store.import_game(
        row["spec"],
        row["first"],
        row["second"],
        row["moves"],
        outcome=row["outcome"],
        start=row["start"],
        source=source,
        metadata=metadata,
    )


def to_store(store: Store, record: Record, *, source: str = "import", token: str | None = None) -> int:
    """Record ``record`` in ``store`` as one game (finished if it has a result, else in play and
    resumable); its id. ``token``: the game's token (its hash is stored), for whoever may play on.
    """
    return store_row_in(store, store_row(record), source=source, token=token)


def export_games(
    store: Store,
    ids: Iterable[int] | None = None,
    *,
    status: str | None = None,
    spec: str | None = None,
    source: str | None = None,
) -> Iterator[Record]:
    """The records of the games ``ids`` (in that order), or of every game (oldest first,
    filtered by ``status``, ``spec``, ``source``).
    """
    if ids is not None:
        for gid in ids:
            yield from_store(store.game(gid))
        return
    for rec in store.iter_games(status, spec=spec, source=source):
        yield from_store(rec)


def import_records(store: Store, records: Iterable[Record], *, source: str = "import") -> list[int]:
    """Record every game in ``store``; their ids."""
    return [to_store(store, r, source=source) for r in records]


class GameLog:
    """A game recorded in ``store`` as it is played: each move committed when it is made, so a
    game stopped at any point can be resumed (the web arena's Games) and reviewed.
    ``first``/``second`` are the players as named to the command (``human``, an agent spec).
    """

    def __init__(
        self,
        store: Store,
        game: Game,
        first: str,
        second: str,
        start: Position | None = None,
        *,
        source: str = "play",
        metadata: dict[str, Any] | None = None,
    ):
        self.store = store
        self.game = game
        self.token = secrets.token_urlsafe(24)
        """The game's token: who holds it may play on in the web arena (see the module docstring)."""
        start_text = None if start is None or start == game.start() else start.text()
        metadata = (metadata or {}) | {"token": token_hash(self.token)}
        self.id = store.new_game(str(game), first, second, source, start=start_text, metadata=metadata)
        if start is not None and start.is_terminal():
            outcome = start.outcome()
            store.finish_game(self.id, outcome)

    def played(self, move: Move) -> None:
        """Record the next move."""
        self.store.append_move(self.id, self.game.format_move(move))

    def undone(self, count: int = 1) -> None:
        """Take back the last ``count`` moves."""
        for _ in range(count):
            self.store.undo_move(self.id)

    def finished(self, outcome: Outcome) -> None:
        """Mark the game finished."""
        self.store.finish_game(self.id, outcome)
