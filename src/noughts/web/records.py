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

from typing import Any

from noughts.core import Game, NoughtsError, Outcome, Position
from noughts.record import Record, load_records
from noughts.record.files import records_json
from noughts.web.boards import board_view, move_at_slot, move_info

__all__ = [
    "MAX_RECORD_GAMES",
    "board",
    "game_name",
    "position_document",
    "read_document",
    "record_document",
    "register_names",
    "step",
    "write_document",
]

MAX_RECORD_GAMES = 200
"""The most games one request may read or import (the request's size is bounded too)."""

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


def read_document(text: str) -> dict[str, Any]:
    """Every game of a record (text or JSON) as :func:`record_document`; ``RecordError`` (a
    ``NotationError``) with the line and column when it cannot be read.
    """
    records = load_records(text)
    if not records:
        raise NoughtsError("the record holds no game")
    if len(records) > MAX_RECORD_GAMES:
        raise NoughtsError(f"a record read here holds at most {MAX_RECORD_GAMES} games, not {len(records)}")
    return {"games": [record_document(r) for r in records]}


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
