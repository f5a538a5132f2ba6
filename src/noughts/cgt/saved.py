"""Notakto quotients saved as versioned JSON beside the package, and loaded instead of recomputed.

A quotient found once (:func:`noughts.cgt.notakto_quotient`) is a small certificate: its
multiplication table, its P-portion and each single-board position's element. The files in
``noughts/cgt/quotients/`` hold the quotients noughts ships (``notakto-<board>-<play>.json``,
e.g. ``notakto-mnk-3-3-3-misere.json``); :func:`saved_quotient` loads one in milliseconds, so
``noughts solve`` and the perfect player stop recomputing the 3x3 quotient at each start and
can play boards whose quotient takes minutes to build. ``noughts quotient SPEC --rebuild --save
DIR`` computes a quotient from the rules and writes the file again.

**The document** (``format`` :data:`FORMAT`, ``version`` :data:`VERSION`): the readable
description of ``quotient --json`` (presentation, P-portion, N empty boards), without its full
table, plus

* ``generator_elements``: the generators' elements; ``action[x][i]``: element ``x`` times
  generator ``i`` (``size x generators`` numbers instead of ``size^2``);
* ``parent[x] = [y, i]``: ``x = y`` times generator ``i`` (``x`` found from ``y`` by a search
  from the identity), so the whole table follows from ``action`` column by column;
* ``masks[j]``, ``images[j]``: each single-board position up to symmetry (its canonical ``x``
  mask, bit ``c`` for cell ``c``) and its element.

A file is checked as it is loaded: the format and version, that its positions are exactly the
board's (listed again from the rules), that the table is a commutative monoid the generators
make, and that every single board obeys the local rule (a position is P alone exactly when
none of its options is). :func:`noughts.cgt.check.check_quotient` checks it fully, with code of
its own.

>>> import noughts
>>> q = saved_quotient(noughts.board("mnk(3,3,3)"), misere=True)
>>> len(q.quotient.monoid), [q.quotient.name(x) for x in q.quotient.p_portion]
(18, ['d^2', 'a', 'b^2', 'bd'])
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.cgt.monoid import Monoid
from noughts.cgt.notakto import NotaktoQuotient, one_board_spec
from noughts.cgt.positions import ZERO, notakto_positions
from noughts.cgt.quotient import Quotient
from noughts.core import Board, NoughtsError

__all__ = [
    "FORMAT",
    "QUOTIENT_DIR",
    "VERSION",
    "expand_table",
    "load_quotient",
    "quotient_document",
    "read_quotient",
    "save_quotient",
    "saved_path",
    "saved_quotient",
]

FORMAT = "noughts-notakto-quotient"
"""The ``format`` field of a saved quotient."""

VERSION = 1
"""The ``version`` field this code writes and reads."""

QUOTIENT_DIR = Path(__file__).parent / "quotients"
"""Where the shipped quotients lie (package data)."""

IntArray = npt.NDArray[np.int64]


def file_name(board: Board, misere: bool = True) -> str:
    """E.g. ``notakto-mnk-3-3-3-misere.json`` (the board's spec with its punctuation as dashes)."""
    name = "-".join(part for part in re.split(r"[^A-Za-z0-9]+", board.spec) if part)
    return f"notakto-{name}-{'misere' if misere else 'normal'}.json"


def saved_path(board: Board, misere: bool = True, directory: Path | None = None) -> Path:
    """The file of ``board``'s quotient in ``directory`` (default :data:`QUOTIENT_DIR`)."""
    return (QUOTIENT_DIR if directory is None else directory) / file_name(board, misere)


def _parents(action: IntArray) -> IntArray:
    """``[y, i]`` with ``x = y * generator i`` for every element ``x`` (the identity: ``[-1, -1]``),
    by a breadth-first search from the identity; raises if some element is not reached.
    """
    n, gens = action.shape
    parent = np.full((n, 2), -1, dtype=np.int64)
    seen = np.zeros(n, dtype=bool)
    seen[0] = True
    frontier = [0]
    while frontier:
        nxt = []
        for y in frontier:
            for i in range(gens):
                x = int(action[y, i])
                if not seen[x]:
                    seen[x] = True
                    parent[x] = (y, i)
                    nxt.append(x)
        frontier = nxt
    if not seen.all():
        raise NoughtsError(f"the generators make {int(seen.sum())} of the {n} elements")
    return parent


def expand_table(action: IntArray, parent: IntArray) -> npt.NDArray[np.int32]:
    """The full table from the generators' action and each element's parent: ``x * y`` is
    ``(x * parent(y)) * generator``, column by column in the order the parents were found.
    """
    n = len(action)
    table = np.zeros((n, n), dtype=np.int64)
    table[:, 0] = np.arange(n)
    done = np.zeros(n, dtype=bool)
    done[0] = True
    order = sorted(range(1, n), key=lambda x: _depth(parent, x))
    for y in order:
        p, i = int(parent[y, 0]), int(parent[y, 1])
        if not done[p]:
            raise NoughtsError("the parents do not lead back to the identity")
        table[:, y] = action[table[:, p], i]
        done[y] = True
    return table.astype(np.int32)


def _depth(parent: IntArray, x: int) -> int:
    d = 0
    while x != 0:
        x = int(parent[x, 0])
        d += 1
        if d > len(parent):
            raise NoughtsError("the parents form a cycle")
    return d


def quotient_document(nq: NotaktoQuotient) -> dict[str, Any]:
    """The saved form of ``nq`` (see the module docstring)."""
    q = nq.quotient
    doc = nq.to_json(positions=False)
    del doc["table"]
    gens = [int(g) for g in q.presentation.generators]
    action = np.asarray(q.monoid.table)[:, gens].astype(np.int64)
    doc = {
        "format": FORMAT,
        "version": VERSION,
        **doc,
        "generator_elements": gens,
        "action": action.tolist(),
        "parent": _parents(action).tolist(),
        "masks": [int(m) for m in nq.positions.masks],
        "images": [int(x) for x in q.images],
    }
    return doc


def save_quotient(nq: NotaktoQuotient, directory: Path | None = None) -> Path:
    """Write ``nq`` as :func:`saved_path` in ``directory`` (default :data:`QUOTIENT_DIR`)."""
    path = saved_path(nq.board, nq.misere, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(quotient_document(nq), separators=(",", ":"))
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text + "\n")
    tmp.replace(path)
    return path


def load_quotient(doc: dict[str, Any], board: Board, misere: bool) -> NotaktoQuotient:
    """The quotient of a saved document, checked as the module docstring says; a document of
    another format, version, board or play, or one that fails a check, raises
    :class:`~noughts.core.NoughtsError` saying why.
    """
    if doc.get("format") != FORMAT:
        raise NoughtsError(f"not a saved Notakto quotient (format {doc.get('format')!r}, not {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise NoughtsError(
            f"a saved quotient of version {doc.get('version')!r}; this noughts reads {VERSION}"
        )
    want = one_board_spec(board, misere)
    if doc.get("game") != want:
        raise NoughtsError(f"the saved quotient is of {doc.get('game')!r}, not {want!r}")
    try:
        action = np.array(doc["action"], dtype=np.int64)
        parent = np.array(doc["parent"], dtype=np.int64)
        in_p = np.array([bool(e["p"]) for e in doc["elements"]], dtype=bool)
        masks = np.array(doc["masks"], dtype=np.uint64)
        images = np.array(doc["images"], dtype=np.int64)
    except (KeyError, TypeError, ValueError) as e:
        raise NoughtsError(f"a saved quotient lacks or garbles a field: {e}") from None
    n = len(in_p)
    if action.ndim != 2 or action.shape[0] != n or parent.shape != (n, 2) or n == 0:
        raise NoughtsError("a saved quotient's action and parents are not one row per element")
    if (action.size and (action.min() < 0 or action.max() >= n)) or images.min() < 0 or images.max() >= n:
        raise NoughtsError("a saved quotient names elements it does not have")
    table = expand_table(action, parent)
    monoid = Monoid(table)
    positions = notakto_positions(board)
    order = np.argsort(masks)
    if len(masks) != len(positions) or not np.array_equal(masks[order], np.sort(positions.masks)):
        raise NoughtsError(
            f"the saved quotient's {len(masks):,} positions are not the {len(positions):,} of {board.spec}"
        )
    at = np.searchsorted(masks[order], positions.masks)
    ours = images[order[at]]  # aligned with the positions' numbering
    gens = [int(g) for g in doc.get("generator_elements", [])]
    if monoid.check_laws(gens) is not None or len(monoid.generated(np.unique(ours))) != n:
        raise NoughtsError("a saved quotient's table is not a commutative monoid its positions generate")
    for j in range(len(positions)):  # the local rule on single boards
        opts = positions.options(j)
        opt_p = [bool(in_p[0 if o == ZERO else ours[o]]) for o in opts]
        if bool(in_p[ours[j]]) == any(opt_p):
            raise NoughtsError(f"the saved quotient gets the single board {positions.text(j)} wrong")
    q = Quotient(
        positions,
        monoid,
        in_p,
        ours,
        misere,
        float(doc.get("seconds", 0.0)),
        int(doc.get("expansions", 0)),
        int(doc.get("candidates", 0)),
    )
    return NotaktoQuotient(board, misere, positions, q)


def read_quotient(path: Path, board: Board, misere: bool) -> NotaktoQuotient:
    """:func:`load_quotient` of the file ``path``."""
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise NoughtsError(f"cannot read the saved quotient {path}: {e}") from None
    if not isinstance(doc, dict):
        raise NoughtsError(f"{path} is not a saved quotient")
    return load_quotient(doc, board, misere)


@lru_cache(maxsize=16)
def saved_quotient(board: Board, misere: bool = True) -> NotaktoQuotient | None:
    """The shipped quotient of ``board`` (loaded once per process), or None if noughts ships
    none.
    """
    path = saved_path(board, misere)
    if not path.is_file():
        return None
    return read_quotient(path, board, misere)
