"""The benchmark on disk: a Parquet file of rows and a JSON card beside it.

``X.parquet`` holds one row per labelled position (the columns of
:class:`~noughts.dataset.build.Row`); ``X.json``, the card, says how it was made (the exact
command, the seed, noughts' version and commit, the games' plans and counts) and carries the
SHA-256 of the Parquet file. :func:`load` trusts nothing: the card's format and version, the
checksum, the file's schema and every column's range are checked, and any fault is one
:class:`DatasetError` (bad input, exit 2 in the CLI). Parquet needs pyarrow (the ``dataset``
extra), imported here only.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from noughts.core import NoughtsError
from noughts.dataset.build import Row

__all__ = ["FORMAT", "SCHEMA", "VERSION", "Dataset", "DatasetError", "card_path", "load", "sha256", "write"]

FORMAT = "noughts-dataset"
VERSION = 1
MAX_CARD_BYTES = 4 * 2**20
"""A card is a few kilobytes; anything past this is not one."""

SCHEMA: dict[str, str] = {
    "game": "the game's canonical spec, e.g. misere(mnk(4,4,4))",
    "position": "the position's text (game.parse reads it back)",
    "ply": "moves played to reach it in the walk that met it (breadth-first depth for listed games)",
    "to_move": "0 the first player moves, 1 the second",
    "source": "what met it: all (listed whole), random, noisy:P, or an agent spec",
    "engine": "the solver's engine that labelled it (alpha-beta, python, proof, quotient, retro)",
    "value": "the position's exact value for the mover: 1 win, 0 draw, -1 loss",
    "plies": "plies to the end with best play (-1 unknown: the engine proves who wins, not when)",
    "moves": "every legal move, in the game's notation, in legal_moves() order",
    "move_values": "each move's exact value for the mover (1, 0, -1); a move is optimal when it equals value",
    "move_plies": "plies to the end after each move, the move included (-1 unknown)",
}


class DatasetError(NoughtsError):
    """A dataset file or card that cannot be used (missing, damaged, tampered, foreign)."""


def card_path(data: Path) -> Path:
    """The card beside a data file: ``X.parquet`` -> ``X.json``."""
    return data.with_suffix(".json")


def sha256(path: Path) -> str:
    """The SHA-256 of a file, hex."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _arrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise DatasetError(
            "the dataset is stored as Parquet, which needs pyarrow: pip install 'noughts[dataset]'"
        ) from None
    return pa, pq


def _schema(pa: Any) -> Any:
    return pa.schema(
        [
            ("game", pa.string()),
            ("position", pa.string()),
            ("ply", pa.int32()),
            ("to_move", pa.int8()),
            ("source", pa.string()),
            ("engine", pa.string()),
            ("value", pa.int8()),
            ("plies", pa.int32()),
            ("moves", pa.list_(pa.string())),
            ("move_values", pa.list_(pa.int8())),
            ("move_plies", pa.list_(pa.int32())),
        ]
    )


def write(rows: list[Row], data: Path, card: dict[str, Any]) -> dict[str, Any]:
    """Write ``rows`` to ``data`` (Parquet) and ``card`` (with the file's checksum and size
    added) beside it; returns the card as written. Both go to a temporary name first.
    """
    pa, pq = _arrow()
    columns: dict[str, list[Any]] = {name: [] for name in SCHEMA}
    for r in rows:
        for name in SCHEMA:
            value = getattr(r, name)
            columns[name].append(list(value) if isinstance(value, tuple) else value)
    table = pa.Table.from_pydict(columns, schema=_schema(pa))
    data.parent.mkdir(parents=True, exist_ok=True)
    partial = data.with_name(data.name + ".partial")
    pq.write_table(table, partial, compression="zstd", write_page_checksum=True)
    os.replace(partial, data)
    card = {
        **card,
        "data": data.name,
        "rows": len(rows),
        "bytes": data.stat().st_size,
        "sha256": sha256(data),
    }
    target = card_path(data)
    partial = target.with_name(target.name + ".partial")
    partial.write_text(json.dumps(card, indent=2) + "\n")
    os.replace(partial, target)
    return card


@dataclass(frozen=True)
class Dataset:
    """A loaded, checked dataset: its card and its columns (plain Python lists)."""

    path: Path
    card: dict[str, Any]
    columns: dict[str, list[Any]]

    def __len__(self) -> int:
        return len(self.columns["game"])

    def games(self) -> list[str]:
        """The games it holds, in the card's order."""
        return list(self.card.get("games", {}))

    def rows(self, game: str | None = None) -> list[Row]:
        """Its rows (of one game), as :class:`Row`."""
        c = self.columns
        return [
            Row(*[_cell(c, name, i) for name in SCHEMA])
            for i in range(len(self))
            if game is None or c["game"][i] == game
        ]


def load(data: Path | str) -> Dataset:
    """Read and check a dataset (see the module docstring); :class:`DatasetError` if it cannot be used."""
    data = Path(data)
    if not data.is_file():
        raise DatasetError(f"no dataset at {data} (build one: noughts dataset build --out {data})")
    card = _read_card(data)
    if card.get("data") != data.name:
        raise DatasetError(f"the card {card_path(data)} describes {card.get('data')!r}, not {data.name}")
    actual = sha256(data)
    if actual != card.get("sha256"):
        raise DatasetError(
            f"{data} does not match its card's checksum (sha256 {actual[:16]}..., the card says "
            f"{str(card.get('sha256'))[:16]}...): the file was changed or damaged; build it again"
        )
    pa, pq = _arrow()
    try:
        table = pq.read_table(data, page_checksum_verification=True)
    except (OSError, ValueError, pa.ArrowException) as e:
        raise DatasetError(
            f"{data} is not a readable Parquet file ({str(e).splitlines()[0][:200]})"
        ) from None
    if table.schema != _schema(pa):
        raise DatasetError(f"{data} does not have the columns of a noughts dataset (format v{VERSION})")
    columns = {name: table.column(name).to_pylist() for name in SCHEMA}
    _check_columns(data, card, columns)
    return Dataset(data, card, columns)


def _read_card(data: Path) -> dict[str, Any]:
    path = card_path(data)
    if not path.is_file():
        raise DatasetError(f"{data} has no card beside it ({path.name}): its checksum cannot be checked")
    if path.stat().st_size > MAX_CARD_BYTES:
        raise DatasetError(f"{path} is too large to be a dataset card")
    try:
        card = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise DatasetError(f"the card {path} is not readable JSON ({e})") from None
    if not isinstance(card, dict) or card.get("format") != FORMAT:
        raise DatasetError(f"{path} is not a noughts dataset card")
    if card.get("version") != VERSION:
        raise DatasetError(
            f"{path} is a dataset of format version {card.get('version')!r}; this noughts reads {VERSION}"
        )
    if not isinstance(card.get("games"), dict) or not isinstance(card.get("sha256"), str):
        raise DatasetError(f"{path} lacks its games or its checksum")
    return card


def _check_columns(data: Path, card: dict[str, Any], c: dict[str, list[Any]]) -> None:
    n = len(c["game"])
    if n != card.get("rows"):
        raise DatasetError(f"{data} has {n:,} rows; its card says {card.get('rows')!r}")
    games = set(card["games"])
    for i in range(n):
        moves, values, plies = c["moves"][i], c["move_values"][i], c["move_plies"][i]
        if (
            c["game"][i] not in games
            or any(v is None for v in (c["position"][i], c["value"][i], moves, values, plies))
            or not moves
            or not (len(moves) == len(values) == len(plies))
            or c["value"][i] not in (-1, 0, 1)
            or max(values) != c["value"][i]
            or min(values) < -1
        ):
            raise DatasetError(
                f"{data}: row {i} is not a labelled position (damaged or not a noughts dataset)"
            )


def _cell(columns: dict[str, list[Any]], name: str, i: int) -> Any:
    """Row ``i``'s value of column ``name`` (the move columns as tuples)."""
    return tuple(columns[name][i]) if name.startswith("move") else columns[name][i]
