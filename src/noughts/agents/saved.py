"""Saved agents: versioned JSON metadata with an ``.npz`` of arrays beside it; never a pickle.

A saved agent is two files::

    agents/td.json   {"format": "noughts-agent", "version": 1, "kind": "td",
                      "game": "cumulative(mnk(3,3,3))", "arrays": "td.npz",
                      "arrays_sha256": "...", "saved_with": "noughts 0.1.0", ...}
    agents/td.npz    the arrays (NumPy's zip of .npy files), loaded with allow_pickle=False

Every key of the JSON other than the envelope (``format``, ``version``, ``arrays``,
``arrays_sha256``, ``saved_with``) is the agent's own metadata, given back to its kind's
loader. ``kind`` names a module of :data:`KINDS`; loading calls
``noughts.agents.<kind>:from_saved(meta, arrays)``, which validates what it is given.

The contract for an agent that can be saved: a ``to_saved()`` method returning
``(meta, arrays)`` — ``meta`` a JSON-able dict with at least ``kind`` and ``game`` (the
canonical spec), ``arrays`` a dict of NumPy arrays of numbers — and a module-level
``from_saved(meta, arrays)`` in ``noughts.agents.<kind>`` that rebuilds it or raises
``NoughtsError``. Add the kind to :data:`KINDS`.

Loading treats the files as hostile: sizes are bounded before anything is read, the JSON must
be an object with the right types, the array file must be a plain name in the same folder, its
SHA-256 must match, object arrays are refused, and any failure is one ``NoughtsError`` naming
the file and the problem.

:func:`load_arena_zip` imports the "RL Battle Arena" snapshots of 003 §7.3 (a zip of
``agent1.json``, ``agent2.json`` and ``config.json`` with string-keyed Q-tables) into validated
plain data, for the Q-learning agent to build on.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.core import Game, NoughtsError
from noughts.core.archive import check_zip, open_zip, read_member, read_npz
from noughts.core.registry import game as game_from_spec

__all__ = [
    "FORMAT",
    "KINDS",
    "VERSION",
    "ArenaAgent",
    "ArenaSnapshot",
    "SavedAgentError",
    "copy_saved",
    "load_agent",
    "load_arena_zip",
    "load_saved",
    "save_agent",
    "saved_game",
]

FORMAT = "noughts-agent"
VERSION = 1
KINDS: dict[str, str] = {
    "td": "noughts.agents.td",
    "qlearning": "noughts.agents.qlearning",
    "linear": "noughts.agents.linear",
    "az": "noughts.neural.agents",  # the neural learners' checkpoints (the [neural] extra)
    "dqn": "noughts.neural.agents",
}
"""Agent kinds that can be saved, and the module whose ``from_saved`` loads each."""

ENVELOPE = ("format", "version", "arrays", "arrays_sha256", "saved_with")
MAX_JSON_BYTES = 16 * 2**20
MAX_ARRAY_BYTES = 2 * 2**30
_NAME = re.compile(r"^[A-Za-z0-9_.\-]+\.npz$")


class SavedAgentError(NoughtsError, ValueError):
    """A saved agent that cannot be loaded: the message names the file and what is wrong."""


def saved_game(meta: Mapping[str, Any], agent: str) -> Game:
    """The game a saved ``agent``'s metadata names under ``'game'`` (its spec string), read;
    ``NoughtsError`` if it names none. Every kind's ``from_saved`` starts here.
    """
    spec = meta.get("game")
    if not isinstance(spec, str):
        raise NoughtsError(f"a saved {agent} names its game as a spec string under 'game'")
    return game_from_spec(spec)


def _version() -> str:
    try:
        from importlib.metadata import version

        return f"noughts {version('noughts')}"
    except Exception:
        return "noughts"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def save_agent(agent: Any, path: str | os.PathLike[str], **extra: Any) -> Path:
    """Save ``agent`` (anything with ``to_saved()``) as ``path`` (``.json``) plus an ``.npz`` of
    the same stem beside it; ``extra`` keys join the metadata. Both files are written to temporary
    names and renamed, so a crash never leaves half a file. Returns the JSON path.
    """
    to_saved = getattr(agent, "to_saved", None)
    if to_saved is None:
        raise NoughtsError(f"{type(agent).__name__} agents cannot be saved (they have no to_saved())")
    meta, arrays = to_saved()
    return save_parts(meta, arrays, path, **extra)


def save_parts(
    meta: dict[str, Any], arrays: dict[str, npt.NDArray[Any]], path: str | os.PathLike[str], **extra: Any
) -> Path:
    """:func:`save_agent` from the ``(meta, arrays)`` pair itself."""
    json_path = Path(path)
    if json_path.suffix != ".json":
        raise NoughtsError(f"a saved agent's file name ends in .json, not {json_path.name!r}")
    meta = {**meta, **extra}
    for key in ("kind", "game"):
        if not isinstance(meta.get(key), str):
            raise NoughtsError(f"an agent's saved metadata needs a string {key!r}")
    if meta["kind"] not in KINDS:
        raise NoughtsError(f"unknown agent kind {meta['kind']!r}; known: {', '.join(KINDS)}")
    clash = [k for k in ENVELOPE if k in meta]
    if clash:
        raise NoughtsError(f"an agent's metadata may not use the reserved keys {', '.join(clash)}")
    for name, a in arrays.items():
        if not isinstance(a, np.ndarray) or a.dtype.hasobject:
            raise NoughtsError(f"saved array {name!r} must be a NumPy array of numbers")
    json_path.parent.mkdir(parents=True, exist_ok=True)
    npz_path = json_path.with_suffix(".npz")
    fd, tmp_npz = tempfile.mkstemp(dir=json_path.parent, prefix=".tmp-", suffix=".npz")
    os.close(fd)
    try:
        with open(tmp_npz, "wb") as f:
            np.savez_compressed(f, **arrays)  # type: ignore[arg-type]
        digest = _sha256(Path(tmp_npz))
        doc = {
            "format": FORMAT,
            "version": VERSION,
            **meta,
            "arrays": npz_path.name,
            "arrays_sha256": digest,
            "saved_with": _version(),
        }
        text = json.dumps(doc, indent=2, allow_nan=False)
        fd, tmp_json = tempfile.mkstemp(dir=json_path.parent, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            f.write(text + "\n")
        os.replace(tmp_npz, npz_path)
        os.replace(tmp_json, json_path)
    except ValueError as e:  # NaN or infinity in the metadata
        raise NoughtsError(f"cannot save agent to {json_path}: {e}") from None
    finally:
        for tmp in (tmp_npz,):
            if os.path.exists(tmp):
                os.unlink(tmp)
    return json_path


def copy_saved(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Path:
    """Copy a saved agent (its ``.json`` and ``.npz``) to ``target`` (a ``.json`` path), checking
    the source's envelope and checksum first; the copy names its own ``.npz``. Returns ``target``.
    """
    src, dst = Path(source), Path(target)
    if dst.suffix != ".json":
        raise NoughtsError(f"a saved agent's file name ends in .json, not {dst.name!r}")
    try:
        doc = json.loads(src.read_text(encoding="utf-8"))
        npz = (src.parent / str(doc["arrays"])).read_bytes()
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SavedAgentError(f"cannot copy agent {src.name}: {e}") from None
    if (
        not isinstance(doc, dict)
        or doc.get("format") != FORMAT
        or hashlib.sha256(npz).hexdigest() != doc.get("arrays_sha256")
    ):
        raise SavedAgentError(f"cannot copy agent {src.name}: it is not an intact noughts agent")
    dst.parent.mkdir(parents=True, exist_ok=True)
    npz_path = dst.with_suffix(".npz")
    doc["arrays"] = npz_path.name
    for path, data in ((npz_path, npz), (dst, (json.dumps(doc, indent=2) + "\n").encode())):
        fd, tmp = tempfile.mkstemp(dir=dst.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    return dst


def load_saved(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """The validated ``(meta, arrays)`` of a saved agent (envelope checked, kind not yet loaded).

    The ``.npz`` is read by :func:`noughts.core.archive.read_npz`: its directory and every
    array's header are checked (sizes, dtypes, shapes against what the agent's game can need,
    see :func:`array_budget`) before anything is unpacked. Messages name the files by their
    names only, never by their folder.
    """
    json_path = Path(path)

    def bad(why: str) -> SavedAgentError:
        return SavedAgentError(f"cannot load agent {json_path.name}: {why}")

    try:
        size = json_path.stat().st_size
    except OSError as e:
        raise bad(e.strerror or "cannot read the file") from None
    if not json_path.is_file():
        raise bad("not a file")
    if size > MAX_JSON_BYTES:
        raise bad(f"the JSON is {size:,} bytes, more than the {MAX_JSON_BYTES:,} a saved agent may have")
    try:
        doc = json.loads(json_path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        raise bad("not a noughts agent (not a text file: a saved agent is a .json file)") from None
    except json.JSONDecodeError as e:
        raise bad(f"not valid JSON ({e})") from None
    except RecursionError:
        raise bad("the JSON is nested too deeply") from None
    except OSError as e:
        raise bad(e.strerror or "cannot read the file") from None
    if not isinstance(doc, dict):
        raise bad("the JSON is not an object")
    if doc.get("format") != FORMAT:
        raise bad(f"not a noughts agent (its 'format' is {doc.get('format')!r}, expected {FORMAT!r})")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise bad("'version' is not an integer")
    if version != VERSION:
        raise bad(f"saved in format version {version}; this noughts reads version {VERSION}")
    kind = doc.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise bad(f"unknown agent kind {kind!r}; known: {', '.join(KINDS)}")
    if not isinstance(doc.get("game"), str):
        raise bad("'game' is not a spec string")
    try:
        game = game_from_spec(doc["game"])
    except NoughtsError as e:
        raise bad(f"its game does not name a game ({e})") from None
    name = doc.get("arrays")
    if not isinstance(name, str) or not _NAME.match(name) or name in (".npz", "..npz"):
        raise bad("'arrays' must name an .npz file in the same folder (a plain file name)")
    npz_path = json_path.parent / name
    try:
        npz_size = npz_path.stat().st_size
    except OSError:
        raise bad(f"its arrays file {name} is missing") from None
    if npz_size > MAX_ARRAY_BYTES:
        raise bad(f"its arrays file is {npz_size:,} bytes, more than {MAX_ARRAY_BYTES:,}")
    digest = doc.get("arrays_sha256")
    if not isinstance(digest, str) or _sha256(npz_path) != digest:
        raise bad(f"its arrays file {name} does not match the checksum in the JSON (changed or corrupt)")
    meta = {k: v for k, v in doc.items() if k not in ENVELOPE}
    limit = min(MAX_ARRAY_BYTES, array_budget(meta, game))
    try:
        arrays = read_npz(npz_path, what=name, max_bytes=limit)
    except NoughtsError as e:
        raise bad(str(e)) from None
    return meta, arrays


NEURAL_ARRAY_BYTES = 256 * 2**20
"""The most bytes a neural checkpoint's arrays (weights and optimiser state) may unpack to."""

MAX_POSITIONS = 20_000_000
"""The most positions a tabular agent may have numbered (the learners' own largest limit)."""


def array_budget(meta: Mapping[str, Any], game: Game) -> int:
    """The most bytes the arrays of a saved agent of ``game`` can need, from the game alone:
    a value per action and per player for each position it can have (at most 3^actions, and
    :data:`MAX_POSITIONS`), the convergence window of its training, and 1 MiB to spare. A file
    that unpacks to more is refused before it is unpacked.
    """
    if meta.get("kind") in ("az", "dqn"):  # a network's weights do not grow with the game
        return NEURAL_ARRAY_BYTES
    positions = min(3 ** min(game.num_actions, 40), MAX_POSITIONS)
    training = meta.get("training")
    window = training.get("window") if isinstance(training, dict) else None
    window = window if isinstance(window, int) and not isinstance(window, bool) and 0 < window < 10**8 else 0
    return int(positions * (8 * game.num_actions + 32) + 16 * window + 2**20)


def load_agent(path: str | os.PathLike[str]) -> Any:
    """The agent saved at ``path`` (its ``.json``), validated; ``NoughtsError`` saying what is
    wrong otherwise. A ``.zip`` path is read as an arena snapshot (:func:`load_arena_zip`) and
    handed to the Q-learning agent's ``from_arena`` when that exists.
    """
    p = Path(path)
    if p.suffix == ".zip":
        snapshot = load_arena_zip(p)
        module = importlib.import_module(KINDS["qlearning"])
        from_arena = getattr(module, "from_arena", None)
        if from_arena is None:
            raise SavedAgentError(
                f"cannot load {p}: this noughts cannot build a Q-agent from an arena snapshot"
            )
        return from_arena(snapshot)
    meta, arrays = load_saved(p)
    module = importlib.import_module(KINDS[meta["kind"]])
    try:
        return module.from_saved(meta, arrays)
    except NoughtsError as e:
        raise SavedAgentError(f"cannot load agent {p.name}: {e}") from None


# -- the arena's zip snapshots (003 §7.3) ------------------------------------------------------------

MAX_ZIP_MEMBER_BYTES = 256 * 2**20
_ARENA_KEY = re.compile(r"^\s*\[\s*\[([-0-9,\s]*)\]\s*,\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*\]\s*$")


@dataclass(frozen=True)
class ArenaAgent:
    """One agent of an arena snapshot: its Q-table and its parameters and record.

    ``q`` maps ``(board, (row, col))`` to a value; ``board`` is the tuple of cell marks row by row
    as the arena stores them (0 empty, 1 and 2 or 1 and -1 the players, as the file has them).
    """

    q: dict[tuple[tuple[int, ...], tuple[int, int]], float]
    params: dict[str, float]
    record: dict[str, int]


@dataclass(frozen=True)
class ArenaSnapshot:
    """A validated arena snapshot: board size, line length, both agents and the configuration."""

    grid_size: int
    win_length: int
    agents: tuple[ArenaAgent, ...]
    config: dict[str, Any]


def load_arena_zip(path: str | os.PathLike[str]) -> ArenaSnapshot:
    """Read a 003 §7.3 snapshot (``agent1.json``, ``agent2.json``, ``config.json`` in a zip),
    checking every key and value; ``NoughtsError`` naming the problem otherwise.
    """
    p = Path(path)

    def bad(why: str) -> SavedAgentError:
        return SavedAgentError(f"cannot import arena snapshot {p.name}: {why}")

    try:
        z = open_zip(p, what=p.name)
        with z:
            members = check_zip(z, what=p.name, max_bytes=3 * MAX_ZIP_MEMBER_BYTES)
            names = {info.filename: info for info in members}
            raws: dict[str, bytes] = {}
            for member in ("agent1.json", "agent2.json", "config.json"):
                info = names.get(member)
                if info is None:
                    raise bad(f"it has no {member}")
                if info.file_size > MAX_ZIP_MEMBER_BYTES:
                    raise bad(
                        f"{member} unpacks to {info.file_size:,} bytes, more than {MAX_ZIP_MEMBER_BYTES:,}"
                    )
                raws[member] = read_member(z, info, what=p.name)
    except SavedAgentError:
        raise
    except NoughtsError as e:
        raise bad(str(e)) from None
    docs: dict[str, Any] = {}
    for member, raw in raws.items():
        try:
            docs[member] = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise bad(f"{member} is not valid JSON ({e})") from None
        except RecursionError:
            raise bad(f"{member} is nested too deeply") from None
    config = docs["config.json"]
    if not isinstance(config, dict):
        raise bad("config.json is not an object")
    grid, k = config.get("grid_size"), config.get("win_length")
    if (
        not isinstance(grid, int)
        or not isinstance(k, int)
        or not _is_int(grid)
        or not _is_int(k)
        or not 1 <= k <= grid <= 32
    ):
        raise bad(
            "config.json needs integers grid_size and win_length with 1 <= win_length <= grid_size <= 32"
        )
    agents = tuple(_arena_agent(docs[m], m, grid, bad) for m in ("agent1.json", "agent2.json"))
    return ArenaSnapshot(grid, k, agents, config)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _arena_agent(doc: Any, member: str, grid: int, bad: Any) -> ArenaAgent:
    if not isinstance(doc, dict):
        raise bad(f"{member} is not an object")
    table = doc.get("q_table")
    if not isinstance(table, dict):
        raise bad(f"{member} has no q_table object")
    q: dict[tuple[tuple[int, ...], tuple[int, int]], float] = {}
    cells = grid * grid
    for key, value in table.items():
        m = _ARENA_KEY.match(key)
        if m is None:
            raise bad(f"{member}: q_table key {key[:60]!r} is not '[[cells...], [row, col]]'")
        board = tuple(int(t) for t in m.group(1).split(",") if t.strip())
        row, col = int(m.group(2)), int(m.group(3))
        if len(board) != cells or any(c not in (-1, 0, 1, 2) for c in board):
            raise bad(f"{member}: q_table key {key[:60]!r} is not a {grid}x{grid} board of marks")
        if not (0 <= row < grid and 0 <= col < grid) or board[row * grid + col] != 0:
            raise bad(f"{member}: q_table key {key[:60]!r} names a move off the board or on a taken cell")
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not np.isfinite(value):
            raise bad(f"{member}: the value of {key[:60]!r} is not a finite number")
        q[(board, (row, col))] = float(value)
    params: dict[str, float] = {}
    for name in ("epsilon", "lr", "gamma"):
        v = doc.get(name)
        if v is not None:
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not np.isfinite(v):
                raise bad(f"{member}: {name} is not a finite number")
            params[name] = float(v)
    record: dict[str, int] = {}
    for name in ("wins", "losses", "draws"):
        v = doc.get(name)
        if v is not None:
            if not _is_int(v) or v < 0:
                raise bad(f"{member}: {name} is not a non-negative integer")
            record[name] = v
    return ArenaAgent(q, params, record)
