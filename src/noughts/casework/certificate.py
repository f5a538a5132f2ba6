"""Certificates of the 7x7x7 proof: writing them, and checking them without trusting the search.

**Format** (version 1). ``NAME.json`` is the claim: the theorem, for each opening class its
plan (Breaker's moves, Maker's canonical domains), node and case counts, failures, the name of
the arrays file and its SHA-256 digest. ``NAME.npz`` (no pickle) holds, per class, the number
of nodes in each chunk and two delta streams: for each node the line copies whose cell changed
against the previous node of its chunk (the node's matching), and for the one leaf where Maker
takes Breaker's intended last cell ``f0``, the changes against the previous such leaf (a chunk
starts both from nothing). Copy ``2l``/``2l+1`` is line ``l`` of ``hypercube(7,3)`` taken twice (002 §3).

**Regenerating a case's pairing.** Node matching M (replay the deltas). For a leaf where Maker
takes cell m: if m is unmatched, M itself; otherwise shift M along the alternating path from m
to an unmatched cell found by breadth-first search from the unmatched cells in cell order
(each copy on the path moves to the next cell). The ``f0`` leaf: its own stored matching
(replay its stream).

**Checking** (:func:`check_casework`, kind ``"casework"`` of :mod:`noughts.solving.certificates`) trusts nothing of the search:

1. the digest of the arrays file;
2. the case set, recomputed here by its own enumeration of the plan, and the symmetry
   normalisation: every Maker move at every stage is mapped into the plan's canonical domain
   by a symmetry that fixes Breaker's cells and maps the earlier Maker moves to a canonical
   history with the same Breaker replies (so the cases cover every game);
3. every case: the node matching is checked as a pairing of the node's residual hypergraph
   (each surviving line, i.e. one without a Breaker cell, gets two distinct free cells on it,
   no cell twice); each leaf's shift path is checked edge by edge (each copy moves to a free
   cell on its line, the path's cells are distinct, it ends at an unmatched cell), which makes
   the shifted matching a pairing of the leaf; the ``f0`` leaf's matching is checked in full.

A failure names the case (Maker's and Breaker's moves in the source's 1-based coordinates).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from noughts.casework.certificate_file import FORMAT, VERSION, CertificateError, case_name, write_certificate
from noughts.core.board import Board

__all__ = [
    "FORMAT",
    "VERSION",
    "CertificateError",
    "CheckResult",
    "case_name",
    "check_casework",
    "coverage",
    "write_certificate",
]

# -- the case set, recomputed -----------------------------------------------------------------


def _enumerate(pl: Any, stop: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Canonical histories of ``stop`` rounds: plain loops over the plan's domains and lists."""
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), ())]
    n = pl.board.num_cells
    for level in range(stop):
        nxt = []
        for maker, breaker in out:
            taken = set(maker) | set(breaker)
            dom = pl.domain(level, maker)
            for m in range(n) if dom is None else sorted(dom):
                if m in taken:
                    continue
                reply = [p for p in pl.priority(level, maker + (m,), breaker) if p not in taken and p != m]
                if not reply:
                    raise CertificateError(
                        f"plan {pl.name}: Breaker has no prescribed free cell after Maker's {maker + (m,)}"
                    )
                nxt.append((maker + (m,), breaker + (reply[0],)))
        out = nxt
    return out


def coverage(pl: Any) -> dict[str, Any]:
    """Check the plan's symmetry normalisation (see the module docstring, step 2).

    Returns ``{"first": cells covered by level 0, "uncovered": [(level, history, cell), ...]}``
    (at most 20 uncovered examples, and ``uncovered_count``).
    """
    board: Board = pl.board
    syms = np.array(board.symmetries, dtype=np.int64)
    n = board.num_cells
    uncovered: list[tuple[int, str, str]] = []
    count = 0
    first: set[int] = set()
    for level in range(pl.depth):
        histories = _enumerate(pl, level)
        index = {mk: bk for mk, bk in histories}
        for maker, breaker in histories:
            taken = set(maker) | set(breaker)
            if pl.domain(level, maker) is None:
                continue  # every free cell is a case: nothing to normalise
            covered = np.zeros(n, dtype=bool)
            for g in syms:
                if any(g[b] != b for b in breaker):
                    continue
                image = tuple(int(g[m]) for m in maker)
                if index.get(image) != breaker:
                    continue
                dom = pl.domain(level, image)
                image_taken = set(image) | set(breaker)
                ok = np.array([c in dom and c not in image_taken for c in range(n)])
                covered |= ok[g]  # cell m is covered if g(m) is canonical
            if level == 0:
                first |= set(np.flatnonzero(covered).tolist())
                continue
            for m in range(n):
                if m not in taken and not covered[m]:
                    count += 1
                    if len(uncovered) < 20:
                        uncovered.append((level, case_name(board, maker, breaker), board.cell_name(m)))
    return {"first": first, "uncovered": uncovered, "uncovered_count": count}


# -- checking the pairings --------------------------------------------------------------------


@njit(cache=True)
def _mark_alive(
    alive: np.ndarray, breaker_row: np.ndarray, extra: int, ptr: np.ndarray, lines_at: np.ndarray
) -> None:  # pragma: no cover - numba
    """``alive[l]`` = 1 for the lines through none of Breaker's cells: ``breaker_row`` (-1 pads) and ``extra``."""
    alive[:] = 1
    for j in range(breaker_row.shape[0]):
        b = breaker_row[j]
        if b >= 0:
            for t in range(ptr[b], ptr[b + 1]):
                alive[lines_at[t]] = 0
    for t in range(ptr[extra], ptr[extra + 1]):
        alive[lines_at[t]] = 0


@njit(cache=True)
def _is_pairing(
    mate: np.ndarray, owner: np.ndarray, alive: np.ndarray, free: np.ndarray, on_line: np.ndarray
) -> bool:  # pragma: no cover - numba
    """Whether copies ``2l``, ``2l+1`` of each alive line ``l`` sit on two distinct free cells of
    that line, no cell used twice (``mate[copy]`` = its cell); fills ``owner[cell]`` = its copy.
    """
    n_cells = free.shape[0]
    owner[:] = -1
    for ln in range(alive.shape[0]):
        if alive[ln] == 0:
            continue
        for c in range(2 * ln, 2 * ln + 2):
            v = mate[c]
            if v < 0 or v >= n_cells or free[v] == 0 or on_line[ln, v] == 0 or owner[v] >= 0:
                return False
            owner[v] = c
    return True


@njit(cache=True)
def _on_line(line_cells: np.ndarray, n_cells: int) -> np.ndarray:  # pragma: no cover - numba
    """``on_line[line, cell]``: 1 where the cell lies on the line."""
    n_lines = line_cells.shape[0]
    on_line = np.zeros((n_lines, n_cells), np.uint8)
    for ln in range(n_lines):
        for i in range(line_cells.shape[1]):
            on_line[ln, line_cells[ln, i]] = 1
    return on_line


@njit(cache=True)
def _free_at_node(
    free: np.ndarray, maker: np.ndarray, breaker: np.ndarray
) -> None:  # pragma: no cover - numba
    """``free``: 1 on every cell neither side has taken at the node (``maker``, ``breaker``: its
    moves, -1 padded).
    """
    free[:] = 1
    for j in range(maker.shape[0]):
        if maker[j] >= 0:
            free[maker[j]] = 0
    for j in range(breaker.shape[0]):
        if breaker[j] >= 0:
            free[breaker[j]] = 0


@njit(cache=True)
def _shift_parents(
    parent: np.ndarray,
    queue: np.ndarray,
    free: np.ndarray,
    owner: np.ndarray,
    mate: np.ndarray,
    alive: np.ndarray,
    ptr: np.ndarray,
    lines_at: np.ndarray,
) -> None:  # pragma: no cover - numba
    """Breadth-first search from the unmatched free cells over the surviving lines' copies:
    ``parent[v]`` the cell the copy on ``v`` moves to (-1 a root, -2 not reached).
    """
    parent[:] = -2
    head = 0
    tail = 0
    for v in range(free.shape[0]):
        if free[v] == 1 and owner[v] < 0:
            parent[v] = -1
            queue[tail] = v
            tail += 1
    while head < tail:
        u = queue[head]
        head += 1
        for t in range(ptr[u], ptr[u + 1]):
            ln = lines_at[t]
            if alive[ln] == 0:
                continue
            for c in range(2 * ln, 2 * ln + 2):
                v = mate[c]
                if v != u and parent[v] == -2:
                    parent[v] = u
                    queue[tail] = v
                    tail += 1


@njit(cache=True)
def _shift_path_ok(
    m: int,
    parent: np.ndarray,
    owner: np.ndarray,
    free: np.ndarray,
    on_line: np.ndarray,
    used: np.ndarray,
    stamp: int,
) -> bool:  # pragma: no cover - numba
    """Whether the shift path from ``m`` holds: each copy on it moves to a free cell on its own
    line, no cell twice (``used`` marked with ``stamp``).
    """
    used[m] = stamp
    v = m
    if parent[m] == -2:
        return False
    while owner[v] >= 0:
        c = owner[v]
        u = parent[v]
        if u < 0 or free[u] == 0 or on_line[c >> 1, u] == 0 or used[u] == stamp:
            return False
        used[u] = stamp
        v = u
    return True


@njit(cache=True)
def _verify(
    line_cells: np.ndarray,
    ptr: np.ndarray,
    lines_at: np.ndarray,
    n_cells: int,
    maker: np.ndarray,
    breaker: np.ndarray,
    prio: np.ndarray,
    domain_id: np.ndarray,
    domains: np.ndarray,
    chunk_start: np.ndarray,
    d1_len: np.ndarray,
    d1_copy: np.ndarray,
    d1_cell: np.ndarray,
    d2_len: np.ndarray,
    d2_copy: np.ndarray,
    d2_cell: np.ndarray,
    result: np.ndarray,
) -> None:  # pragma: no cover - numba (tests also run it as plain Python through .py_func)
    """Check every case of a class; ``result`` gets [leaves verified, failing node, cell, reason].

    Reasons: 1 the node's matching is not a pairing, 2 a leaf's shift path fails, 3 the f0
    leaf's matching is not a pairing, 4 Breaker's list has no free cell, 5 the stream is short.
    """
    n_lines = line_cells.shape[0]
    on_line = _on_line(line_cells, n_cells)
    mate = np.full(2 * n_lines, -1, np.int64)
    mate2 = np.full(2 * n_lines, -1, np.int64)
    owner = np.full(n_cells, -1, np.int64)
    owner2 = np.full(n_cells, -1, np.int64)
    free = np.zeros(n_cells, np.uint8)
    alive = np.zeros(n_lines, np.uint8)
    parent = np.full(n_cells, -1, np.int64)
    used = np.zeros(n_cells, np.int64)
    queue = np.zeros(n_cells, np.int64)
    p1 = 0
    p2 = 0
    stamp = 0
    verified = 0
    for i in range(maker.shape[0]):
        if chunk_start[i] == 1:
            mate[:] = -1
            mate2[:] = -1
        # the node: Maker's and Breaker's moves, Breaker's intended last cell f0
        _free_at_node(free, maker[i], breaker[i])
        f0 = -1
        f0_at = -1
        for j in range(prio.shape[1]):
            if prio[i, j] >= 0 and free[prio[i, j]] == 1:
                f0 = prio[i, j]
                f0_at = j
                break
        if f0 < 0:
            result[1] = i
            result[2] = -1
            result[3] = 4
            result[0] = verified
            return
        free[f0] = 0
        _mark_alive(alive, breaker[i], f0, ptr, lines_at)
        # replay the node's delta
        if p1 + d1_len[i] > d1_copy.shape[0]:
            result[1] = i
            result[2] = -1
            result[3] = 5
            result[0] = verified
            return
        for t in range(p1, p1 + d1_len[i]):
            mate[d1_copy[t]] = d1_cell[t]
        p1 += d1_len[i]
        # 1: the node's matching pairs every surviving line with two free cells on it
        if not _is_pairing(mate, owner, alive, free, on_line):  # name the node's first leaf
            result[1] = i
            result[2] = -1
            for m in range(n_cells):
                if free[m] == 1 and domains[domain_id[i], m] == 1:
                    result[2] = m
                    break
            result[3] = 1
            result[0] = verified
            return
        # 2: breadth-first search from the unmatched free cells; parent[v] = the cell that the
        # copy on v moves to
        _shift_parents(parent, queue, free, owner, mate, alive, ptr, lines_at)
        dom = domain_id[i]
        for m in range(n_cells):
            if free[m] == 0 or domains[dom, m] == 0:
                continue
            # check the shift path from m: each copy moves to a free cell on its line, distinct
            stamp += 1
            if not _shift_path_ok(m, parent, owner, free, on_line, used, stamp):
                result[1] = i
                result[2] = m
                result[3] = 2
                result[0] = verified
                return
            verified += 1
        # 3: the leaf where Maker takes f0 (if f0 is in Maker's domain)
        if domains[dom, f0] == 1:
            f1 = -1
            for j in range(f0_at + 1, prio.shape[1]):
                if prio[i, j] >= 0 and free[prio[i, j]] == 1:
                    f1 = prio[i, j]
                    break
            if p2 + d2_len[i] > d2_copy.shape[0]:
                result[1] = i
                result[2] = f0
                result[3] = 5
                result[0] = verified
                return
            for t in range(p2, p2 + d2_len[i]):
                mate2[d2_copy[t]] = d2_cell[t]
            p2 += d2_len[i]
            bad = f1 < 0
            if not bad:
                _mark_alive(alive, breaker[i], f1, ptr, lines_at)
                free[f1] = 0  # f0 stays taken (by Maker now)
                bad = not _is_pairing(mate2, owner2, alive, free, on_line)
            if bad:
                result[1] = i
                result[2] = f0
                result[3] = 3 if f1 >= 0 else 4
                result[0] = verified
                return
            verified += 1
        else:
            p2 += d2_len[i]
    result[0] = verified
    result[1] = -1


_REASONS = {
    1: "the stored pairing is not a pairing of its residual hypergraph (checked at its node)",
    2: "no valid pairing: the regenerated pairing (a shift along an alternating path) fails",
    3: "the stored pairing is not a pairing of its residual hypergraph",
    4: "Breaker's prescribed move has no free cell",
    5: "the arrays end before this case",
}


@dataclass
class CheckResult:
    """What :func:`check_casework` found."""

    valid: bool
    cases: dict[str, int]
    verified: int
    first_failure: str | None
    digest: str
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The ``prove check --json`` document."""
        return {
            "valid": self.valid,
            "cases": self.cases,
            "verified": self.verified,
            "first_failure": self.first_failure,
            "sha256": self.digest,
            "seconds": round(self.seconds, 3),
        }


def _load(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray], str]:
    path = Path(path)
    json_path = path if path.suffix == ".json" else path.with_suffix(".json")
    try:
        doc = json.loads(json_path.read_text())
    except FileNotFoundError:
        raise CertificateError(f"no certificate at {json_path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CertificateError(f"cannot read the certificate {json_path}: {error}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CertificateError(f"{json_path} is not a noughts casework certificate")
    if doc.get("version") != VERSION:
        raise CertificateError(
            f"{json_path}: certificate version {doc.get('version')!r}, this noughts reads {VERSION}"
        )
    for key in ("arrays", "sha256", "classes"):
        if key not in doc:
            raise CertificateError(f"{json_path}: the field {key!r} is missing")
    npz_path = json_path.parent / str(doc["arrays"])
    if Path(str(doc["arrays"])).name != str(doc["arrays"]):
        raise CertificateError(f"{json_path}: the arrays file must sit beside it, not at {doc['arrays']!r}")
    try:
        raw = npz_path.read_bytes()
    except OSError as error:
        raise CertificateError(f"cannot read the certificate's arrays {npz_path}: {error}") from None
    digest = hashlib.sha256(raw).hexdigest()
    if digest != doc["sha256"]:
        raise CertificateError(
            f"{npz_path.name} does not match the certificate's digest (sha256 {digest[:16]}..., "
            f"expected {str(doc['sha256'])[:16]}...): the arrays were changed"
        )
    try:
        with np.load(npz_path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError) as error:
        raise CertificateError(f"cannot read the certificate's arrays {npz_path}: {error}") from None
    return doc, arrays, digest


def _node_arrays(pl: Any, nodes: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> tuple[np.ndarray, ...]:
    d = pl.depth - 1
    n = pl.board.num_cells
    maker = np.full((len(nodes), max(d, 1)), -1, np.int64)
    breaker = np.full((len(nodes), max(d, 1)), -1, np.int64)
    prios = []
    dom_ids = np.zeros(len(nodes), np.int64)
    rows: list[np.ndarray] = []
    seen: dict[Any, int] = {}
    for i, (mk, bk) in enumerate(nodes):
        maker[i, : len(mk)] = mk
        breaker[i, : len(bk)] = bk
        prios.append(pl.priority(d, mk + (-1,), bk))
        dom = pl.domain(d, mk)
        if dom not in seen:
            row = np.zeros(n, np.uint8)
            row[list(range(n)) if dom is None else sorted(dom)] = 1
            seen[dom] = len(rows)
            rows.append(row)
        dom_ids[i] = seen[dom]
    prio = np.full((len(nodes), max((len(p) for p in prios), default=1)), -1, np.int64)
    for i, p in enumerate(prios):
        prio[i, : len(p)] = p
    domains = np.stack(rows) if rows else np.ones((1, n), np.uint8)
    return maker, breaker, prio, dom_ids, domains


def _board_arrays(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The board's lines as an array, and the lines through each cell as CSR (the checker's own)."""
    line_cells = np.array(board.lines, np.int64)
    counts = [len(t) for t in board.lines_through]
    ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    lines_at = np.array([j for t in board.lines_through for j in t], np.int64)
    return line_cells, ptr, lines_at


def _fetch(arrays: dict[str, np.ndarray], key: str) -> np.ndarray:
    if key not in arrays:
        raise CertificateError(f"the certificate's arrays lack {key!r}")
    return arrays[key]


def check_casework(path: Path, *, fast: bool = True) -> CheckResult:
    """Check a certificate (see the module docstring); ``fast=False`` runs the checker in plain Python.

    Raises :class:`CertificateError` for a file that cannot be read or whose digest does not
    match; a case that fails gives ``valid=False`` and its name in ``first_failure``.
    """
    import time

    start = time.perf_counter()
    doc, arrays, digest = _load(path)
    try:
        return _check(doc, arrays, digest, fast, start)
    except (ValueError, TypeError, IndexError, KeyError, AttributeError) as error:
        raise CertificateError(f"{path}: malformed certificate ({type(error).__name__}: {error})") from None


def _check(
    doc: dict[str, Any], arrays: dict[str, np.ndarray], digest: str, fast: bool, start: float
) -> CheckResult:
    from noughts.casework.cube7 import known_plan, plan

    classes = doc["classes"]
    if not isinstance(classes, list) or not classes:
        raise CertificateError("the certificate names no opening classes")
    verify: Any = _verify if fast else _verify.py_func
    cases: dict[str, int] = {}
    verified = 0
    first_cells: set[int] = set()
    board: Board | None = None
    for entry in classes:
        name = entry.get("plan") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not known_plan(name):
            raise CertificateError(f"the certificate names an unknown plan {name!r}")
        pl = plan(name)
        if entry.get("description") != json.loads(json.dumps(pl.describe())):
            raise CertificateError(
                f"class {name}: the certificate's plan differs from the source's prescription"
            )
        board = pl.board
        cov = coverage(pl)
        first_cells |= cov["first"]
        if cov["uncovered_count"]:
            _, hist, cell = cov["uncovered"][0]
            return _done(
                False,
                cases,
                verified,
                f"{name}: Maker's move {cell} after {hist} is not covered by the normalisation",
                digest,
                start,
            )
        nodes = _enumerate(pl, pl.depth - 1)
        maker, breaker, prio, dom_ids, domains = _node_arrays(pl, nodes)
        chunk_nodes = _fetch(arrays, f"{name}__chunk_nodes").astype(np.int64)
        if chunk_nodes.ndim != 1 or chunk_nodes.sum() != len(nodes) or (chunk_nodes < 1).any():
            return _done(
                False,
                cases,
                verified,
                f"{name}: the certificate's nodes do not match the recomputed case set ({len(nodes)} nodes)",
                digest,
                start,
            )
        chunk_start = np.zeros(len(nodes), np.uint8)
        chunk_start[np.concatenate(([0], np.cumsum(chunk_nodes)[:-1]))] = 1
        d1_len = _fetch(arrays, f"{name}__d1_len").astype(np.int64)
        d2_len = _fetch(arrays, f"{name}__d2_len").astype(np.int64)
        if d1_len.shape != (len(nodes),) or d2_len.shape != (len(nodes),):
            return _done(
                False,
                cases,
                verified,
                f"{name}: the delta streams do not have one entry per node",
                digest,
                start,
            )
        line_cells, ptr, lines_at = _board_arrays(pl.board)
        streams = {}
        for key in ("d1_copy", "d1_cell", "d2_copy", "d2_cell"):
            values = _fetch(arrays, f"{name}__{key}")
            if values.ndim != 1 or values.dtype.kind not in "iu":
                raise CertificateError(f"the certificate's array {name}__{key} is not a list of integers")
            streams[key] = values.astype(np.int64)
        for key, bound in (("d1_copy", 2 * len(pl.board.lines)), ("d2_copy", 2 * len(pl.board.lines))):
            if len(streams[key]) and (streams[key].min() < 0 or streams[key].max() >= bound):
                return _done(
                    False,
                    cases,
                    verified,
                    f"{name}: {key} names a line copy that does not exist",
                    digest,
                    start,
                )
        if (d1_len < 0).any() or (d2_len < 0).any():
            return _done(
                False, cases, verified, f"{name}: a delta stream has a negative length", digest, start
            )
        result = np.zeros(4, np.int64)
        verify(
            line_cells,
            ptr,
            lines_at,
            pl.board.num_cells,
            maker,
            breaker,
            prio,
            dom_ids,
            domains,
            chunk_start,
            d1_len,
            streams["d1_copy"],
            streams["d1_cell"],
            d2_len,
            streams["d2_copy"],
            streams["d2_cell"],
            result,
        )
        verified += int(result[0])
        if result[1] >= 0:
            i, cell, reason = int(result[1]), int(result[2]), int(result[3])
            mk, bk = nodes[i]
            if cell >= 0:
                mk = mk + (cell,)
                bk = bk + tuple(p for p in prio[i] if p >= 0 and p not in mk + bk)[:1]
            failure = f"{name} case {case_name(pl.board, mk, bk)}: {_REASONS[reason]}"
            claimed = entry.get("failures", 0) if isinstance(entry.get("failures"), int) else 0
            if claimed and reason in (1, 2, 3, 4):
                failure = f"the casework has {claimed:,} failing cases (as the certificate says); the first: {failure}"
            return _done(False, cases, verified, failure, digest, start)
        n_cases = int(((domains[dom_ids] == 1) & _free_mask(maker, breaker, pl.board.num_cells)).sum())
        cases[name] = n_cases
        claimed_cases = entry.get("cases")
        if not isinstance(claimed_cases, int) or claimed_cases != n_cases or int(result[0]) != n_cases:
            return _done(
                False,
                cases,
                verified,
                f"{name}: the certificate claims {entry.get('cases')} cases, the case set has {n_cases}",
                digest,
                start,
            )
    assert board is not None
    if len(first_cells) != board.num_cells:
        missing = sorted(set(range(board.num_cells)) - first_cells)
        return _done(
            False,
            cases,
            verified,
            f"Maker's first move {board.cell_name(missing[0])} is in no opening class",
            digest,
            start,
        )
    return _done(True, cases, verified, None, digest, start)


def _free_mask(maker: np.ndarray, breaker: np.ndarray, n: int) -> np.ndarray:
    free = np.ones((maker.shape[0], n), bool)
    rows = np.arange(maker.shape[0])
    for arr in (maker, breaker):
        for j in range(arr.shape[1]):
            ok = arr[:, j] >= 0
            free[rows[ok], arr[ok, j]] = False
    return free


def _done(
    valid: bool, cases: dict[str, int], verified: int, failure: str | None, digest: str, start: float
) -> CheckResult:
    import time

    return CheckResult(valid, cases, verified, failure, digest, time.perf_counter() - start)
