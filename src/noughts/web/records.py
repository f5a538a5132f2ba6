"""The analysis board's side of the API: game records and single steps, a few lines over
:mod:`noughts.record` (reading, writing, the store) and the game's own rules.

The page keeps a game as a tree of moves (the main line and its variations) and asks the
server only to read a record (``read``), to write one (``write``), to play one move from a
position (``step``: the move's notation, who made it, the position after it and its board), and
to review the main line (the worker task ``review``, in :mod:`noughts.web.work`). Nothing here
decides a rule: moves are read and played by the game, records checked by
:class:`noughts.record.Record`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from noughts.core import Game, NoughtsError, Outcome, Position
from noughts.core.budget import Budget
from noughts.record import Record, load_records
from noughts.record.files import records_json
from noughts.web.boards import board_view, move_at_slot, move_info
from noughts.web.limits import Limits
from noughts.web.specs import check_size

__all__ = [
    "MAX_RECORD_BOARDS",
    "MAX_RECORD_CELLS",
    "MAX_RECORD_GAMES",
    "MAX_RECORD_PLIES",
    "RecordSize",
    "board",
    "check_record_doc",
    "check_record_text",
    "game_name",
    "import_rows",
    "position_document",
    "read_document",
    "record_document",
    "register_names",
    "step",
    "write_document",
]

MAX_RECORD_GAMES = 200
"""The most games one request may read or import (the request's size is bounded too)."""

MAX_RECORD_PLIES = 20_000
"""The most moves (variations included) one request's records may hold in all."""

MAX_RECORD_BOARDS = 40_000
"""The most cells and lines of the games' boards, summed over the games of one request (each
game's board is built once: 40 games of 7x7x7, or 8 of a 32x32 board)."""

MAX_RECORD_CELLS = 2_000_000
"""The most cells of all the positions one request's records go through (each game's cells
times its moves and one), which bounds the positions written in the answer."""

NAMES: dict[str, str] = {}
"""Canonical spec to the human name of the game (filled by :func:`register_names`)."""


def register_names(presets: tuple[tuple[str, ...], ...]) -> None:
    """Learn the human names of the preset games (canonical spec to name)."""
    import noughts

    for spec, name, *_ in presets:
        try:
            NAMES[str(noughts.game(spec))] = name
        except NoughtsError:  # pragma: no cover - the presets are games
            continue


def game_name(game: Game) -> str:
    """The game's human name: the preset's (``Tic-tac-toe``), else one made from its board
    (``9x9, 5 in a row``; ``7^3, 7 in a row``) for plain claiming games, else its spec.
    """
    spec = str(game)
    if spec in NAMES:
        return NAMES[spec]
    board = game.board
    if spec.startswith(("mnk(", "hypercube(")):
        grid = board.grid
        if len(set(grid)) == 1 and len(grid) > 2:
            shape = f"{grid[0]}^{len(grid)}"
        else:
            shape = "x".join(str(g) for g in grid)
        return f"{shape}, {board.k} in a row"
    return spec


def record_document(record: Record) -> dict[str, Any]:
    """A record for the page: its JSON with every move's ply, player and position (variations
    too), its text form, and the game's human name.
    """
    return record.to_json(positions=True) | {
        "text": record.to_text(),
        "name": game_name(record.game),
        "result_text": record.result_text,
    }


def read_document(text: str, budget: Budget | None = None) -> dict[str, Any]:
    """Every game of a record (text or JSON) as :func:`record_document`; ``RecordError`` (a
    ``NotationError``) with the line and column when it cannot be read. ``budget`` is checked
    after the games are read and after each game's document (a worker task's budget:
    :meth:`noughts.web.work.Worker.read_records`).
    """
    records = _read(text, budget)
    games = []
    for r in records:
        games.append(record_document(r))
        if budget is not None:
            budget.check(progress=f"{len(games)} of {len(records)} games written")
    return {"games": games}


def import_rows(text: str, budget: Budget | None = None) -> list[dict[str, Any]]:
    """Every game of a record, read and checked, as the rows the store keeps
    (:func:`noughts.record.store.store_row`: plain data, no game to build again), for the
    server to store with each game's token; ``budget`` as in :func:`read_document`.
    """
    from noughts.record.store import store_row

    records = _read(text, budget)
    rows = []
    for r in records:
        rows.append(store_row(r))
        if budget is not None:
            budget.check(progress=f"{len(rows)} of {len(records)} games read")
    return rows


def _read(text: str, budget: Budget | None) -> list[Record]:
    records = load_records(text)
    if not records:
        raise NoughtsError("the record holds no game")
    if len(records) > MAX_RECORD_GAMES:
        raise NoughtsError(f"a record read here holds at most {MAX_RECORD_GAMES} games, not {len(records)}")
    if budget is not None:
        budget.check(progress=f"{len(records)} games read")
    return records


def write_document(doc: dict[str, Any], as_json: bool = False) -> dict[str, Any]:
    """The record ``doc`` (:meth:`Record.to_json`'s form) checked and written: its text (or the
    JSON collection with ``as_json``) and :func:`record_document`.
    """
    record = Record.from_json(doc)
    out = record_document(record)
    if as_json:
        import json

        out["text"] = json.dumps(records_json([record]), ensure_ascii=False, indent=1) + "\n"
    return out


def step(game: Game, position: Position, move: str | None, key: int | None) -> dict[str, Any]:
    """Play one move (notation, or a board slot's key) from ``position``: the move's canonical
    notation, who made it (``player``, ``label``), and the position after it with its board.
    """
    if position.is_terminal():
        outcome = position.outcome()
        assert outcome is not None
        raise NoughtsError(f"the game is over ({game.outcome_text(outcome)}): there is no move to play")
    if (move is None) == (key is None):
        raise NoughtsError("a step is one move: send 'move' (notation) or 'key' (a board slot), not both")
    chosen = game.parse_move(move) if move is not None else move_at_slot(game, position, int(key))  # type: ignore[arg-type]
    after = position.play(chosen)
    mover = position.to_move
    return {
        "move": game.format_move(chosen),
        "player": mover.name.lower(),
        "label": game.player_label(mover),
        **position_document(game, after),
        "view": {**board_view(game, after), "last": move_info(game, chosen)},
    }


def board(game: Game, position: Position, last: str | None = None) -> dict[str, Any]:
    """A position for the analysis board: its text, who is to move, its result, the game's
    human name, and its board (with ``last``, the move that led there, marked).
    """
    view = board_view(game, position)
    if last:
        view["last"] = move_info(game, game.parse_move(last))
    return {"game": str(game), "name": game_name(game), **position_document(game, position), "view": view}


def position_document(game: Game, position: Position) -> dict[str, Any]:
    """A position's text, who is to move and its result (None while the game runs)."""
    outcome: Outcome | None = position.outcome()
    return {
        "position": position.text(),
        "to_move": None if outcome is not None else game.player_label(position.to_move),
        "outcome": None if outcome is None else outcome.value,
        "result": None if outcome is None else game.outcome_text(outcome),
    }


# -- size before work ----------------------------------------------------------------------------

_COMMENT = re.compile(r"\{(?:[^}\\]|\\.)*\}", re.DOTALL)
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\\n]|\\.)*)"\s*\]')
_NOT_A_MOVE = re.compile(r"\d{1,9}\.+|\$\d+|1-0|0-1|1/2-1/2|\*")


class RecordSize:
    """What a record's text holds, read from the text alone: each game's spec and moves (an
    upper bound: every word that is not a move number, an annotation or a result).
    """

    def __init__(self, games: list[tuple[str | None, int]]):
        self.games = games

    @property
    def plies(self) -> int:
        """Moves over every game, variations included."""
        return sum(n for _, n in self.games)


def _plies_json(line: Any, depth: int = 0) -> int:
    moves = line.get("moves", []) if isinstance(line, dict) else line
    if not isinstance(moves, list) or depth > 64:
        return 0
    total = 0
    for node in moves:
        total += 1
        if isinstance(node, dict) and isinstance(node.get("variations"), list):
            total += sum(_plies_json(v, depth + 1) for v in node["variations"])
    return total


def _scan_json(text: str) -> RecordSize:
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return RecordSize([])  # the reader says what is wrong with it, before building anything
    return _scan_doc(doc)


def _scan_doc(doc: Any) -> RecordSize:
    games = doc.get("games", [doc]) if isinstance(doc, dict) else []
    if not isinstance(games, list):
        return RecordSize([])
    return RecordSize(
        [
            (g.get("game") if isinstance(g.get("game"), str) else None, _plies_json(g))
            for g in games
            if isinstance(g, dict)
        ]
    )


def _scan_text(text: str) -> RecordSize:
    text = _COMMENT.sub(" ", text)
    games: list[tuple[str | None, int]] = []
    words = 0
    last = 0
    for m in _TAG.finditer(text):
        between = text[last : m.start()]
        words += sum(1 for w in re.split(r"[\s()\[\]]+", between) if w and not _NOT_A_MOVE.fullmatch(w))
        last = m.end()
        if m.group(1) == "Game":
            if games:
                games[-1] = (games[-1][0], games[-1][1] + words)
            words = 0
            games.append((m.group(2).replace('\\"', '"').replace("\\\\", "\\"), 0))
    words += sum(1 for w in re.split(r"[\s()\[\]]+", text[last:]) if w and not _NOT_A_MOVE.fullmatch(w))
    if games:
        games[-1] = (games[-1][0], games[-1][1] + words)
    return RecordSize(games)


def check_record_doc(doc: Any, limits: Limits) -> RecordSize:
    """:func:`check_record_text` for a record given as JSON (a game, or a collection)."""
    return _check(_scan_doc(doc), limits)


def check_record_text(text: str, limits: Limits) -> RecordSize:
    """Check a record's text (or JSON) before any of its games is built: at most
    :data:`MAX_RECORD_GAMES` games and :data:`MAX_RECORD_PLIES` moves, each game's board within
    the arena's limits (sized from its spec: :func:`noughts.web.specs.check_size`), and the
    boards' cells and lines, and the cells of every position, within :data:`MAX_RECORD_BOARDS`
    and :data:`MAX_RECORD_CELLS`. So reading a record costs at most what these allow, whatever
    the body holds. ``NoughtsError`` saying which limit otherwise.
    """
    is_json = text.lstrip("\ufeff \t\r\n").startswith("{")
    return _check(_scan_json(text) if is_json else _scan_text(text), limits)


def _check(size: RecordSize, limits: Limits) -> RecordSize:
    if len(size.games) > MAX_RECORD_GAMES:
        raise NoughtsError(
            f"a record read here holds at most {MAX_RECORD_GAMES} games, not {len(size.games)}"
        )
    if size.plies > MAX_RECORD_PLIES:
        raise NoughtsError(
            f"a record read here holds at most {MAX_RECORD_PLIES:,} moves in all, not {size.plies:,}"
        )
    boards = cells = 0
    for spec, plies in size.games:
        if spec is None:
            continue
        game_size = check_size(spec, limits)
        if game_size is None:
            continue  # the reader refuses it, before building
        boards += game_size.slots + game_size.lines
        cells += game_size.slots * (plies + 1)
    if boards > MAX_RECORD_BOARDS:
        raise NoughtsError(
            f"the games of this record have {boards:,} cells and lines in all; a request may hold "
            f"at most {MAX_RECORD_BOARDS:,} (send fewer games, or games on smaller boards)"
        )
    if cells > MAX_RECORD_CELLS:
        raise NoughtsError(
            f"the positions of this record have {cells:,} cells in all; a request may hold at most "
            f"{MAX_RECORD_CELLS:,} (send fewer or shorter games)"
        )
    return size
