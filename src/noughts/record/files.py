"""Records as files: the text form or JSON, one game or many, told apart by their first character.

A JSON file is one game (:meth:`Record.to_json`) or a collection::

    {"format": "noughts-record", "version": 1, "games": [GAME, GAME, ...]}

Text starts with a tag (``[``), JSON with ``{``: :func:`load_records` reads either.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from noughts.record.model import Record, RecordError, check_version
from noughts.record.names import FORMAT, VERSION
from noughts.record.text import read_records
from noughts.record.writer import write_records

__all__ = ["MAX_FILE_BYTES", "dump_records", "load_records", "read_file", "records_json"]

MAX_FILE_BYTES = 64 * 2**20
"""The largest record file read (a guard against reading something that is not a record)."""


def records_json(records: Iterable[Record], *, positions: bool = False) -> dict[str, Any]:
    """A collection of games as one JSON document (see the module docstring)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "games": [r.to_json(positions=positions) for r in records],
    }


def _from_json(text: str) -> list[Record]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"malformed JSON: {e.msg}", e.lineno, e.colno) from None
    except RecursionError:
        raise RecordError("the JSON nests too deeply to be a record") from None
    if not isinstance(doc, dict):
        raise RecordError(f"a JSON record is an object, not {type(doc).__name__}")
    if "games" not in doc:
        return [Record.from_json(doc)]
    unknown = sorted(set(doc) - {"format", "version", "games"})
    if unknown:
        raise RecordError(
            f"a collection of records holds 'format', 'version' and 'games', not {unknown[0]!r}"
        )
    check_version(doc.get("format"), doc.get("version"))
    games = doc["games"]
    if not isinstance(games, list):
        raise RecordError(f"'games' is a list, not {type(games).__name__}")
    out = []
    for i, game in enumerate(games, 1):
        try:
            out.append(Record.from_json(game))
        except RecordError as e:
            raise RecordError(f"game {i}: {e.message}") from None
    return out


def load_records(text: str) -> list[Record]:
    """The games of a record in either form (JSON if it starts with ``{``, else text)."""
    if not isinstance(text, str):
        raise RecordError(f"a record is text, not {type(text).__name__}")
    if text.lstrip("\ufeff \t\r\n").startswith("{"):
        return _from_json(text)
    return read_records(text)


def dump_records(records: Iterable[Record], *, as_json: bool = False) -> str:
    """Games in the text form, or as one JSON document (a collection) with ``as_json``."""
    if as_json:
        return json.dumps(records_json(records), ensure_ascii=False, indent=1) + "\n"
    return write_records(records)


def read_file(path: str | Path) -> list[Record]:
    """The games of a record file (text or JSON, UTF-8); one ``RecordError`` naming the file
    (its name, not its folder) if it cannot be read.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise RecordError(f"{path.name} is {size:,} bytes; a record file is at most {MAX_FILE_BYTES:,}")
        data = path.read_bytes()
    except IsADirectoryError:
        raise RecordError(f"{path.name} is a folder, not a record file") from None
    except FileNotFoundError:
        raise RecordError(f"there is no file {path.name}") from None
    except OSError as e:
        raise RecordError(f"cannot read {path.name}: {e.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"{path.name} is not UTF-8 text (byte {e.start})") from None
    try:
        return load_records(text)
    except RecordError as e:
        named = RecordError(f"{path.name}: {e}")
        named.line, named.column = e.line, e.column
        raise named from None
