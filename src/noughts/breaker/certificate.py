"""Breaker certificates: checking them without trusting the search that wrote them.

A certificate (kind ``"breaker"``) is the defender's strategy with pairing leaves. It is two
files: ``NAME.json``, the header, and ``NAME.npz`` beside it (no pickle), whose SHA-256 the
header holds::

    {"format": "noughts-certificate", "version": 1, "kind": "breaker",
     "game": "mnk(7,7,5)", "position": "......./...",
     "claim": {"rules": "standard", "maker": "first", "breaker": "second",
               "statement": "...", "value": "draw"},
     "root": 1234, "arrays": "NAME.npz", "sha256": "...", "nodes": ..., "search": {...}}

The arrays are a graph of nodes: ``kind[i]`` with ``a[i]``, ``b[i]``:

* 0 ``pairs``: ``cells[a : a + b]`` read as ``b / 2`` pairs: Breaker answers a move on one cell
  of a pair with the other; every line Maker could still complete must hold a pair;
* 1 ``witness`` (standard rules): Breaker has completed a line, the game is over; the cells
  ``cells[a : a + b]`` are kept free (see below);
* 2 ``breaker``: Breaker takes cell ``a``, then node ``b``;
* 3 ``maker``: Maker's move, answered by the branches ``branches[a : a + b]``, each a pair
  (Maker's cell, node);
* 4 ``image``: node ``a`` seen through the board symmetry ``perms[b]`` (cell ``c`` to
  ``perms[b, c]``).

**The rule that makes it short: zones.** The *cells* of a node are the cells it and the nodes
below it name (an image's are the image of its node's). A node is checked in a position where
Maker owns, besides Maker's cells, every free cell outside the node's cells: if the strategy
holds there, it holds wherever Maker has fewer cells, since an extra cell never hurts its owner
and a move outside is a pass the other side answers anywhere (strategy stealing; Beck,
"Combinatorial Games", 2008). So at a Maker node every free cell among the node's cells must
be answered, by the branch that names it, or else by any branch whose cells do not include it
(that branch's check already granted Maker the cell). Images are checked through their
symmetry, which the checker first verifies maps the board's lines onto its lines.

**What is checked** (:func:`check_breaker_certificate`), sharing no code with the search: the
digest; the header and arrays (names, types, sizes, ranges, before anything is trusted); the
board, its cells and its lines, derived here from the spec's geometry (k consecutive cells in
any direction of the grid); the position; every stored symmetry; then every node reached from
the root, in the position the checker derives for it: no line of Maker's complete, each cell a
node names free, each pair two distinct free cells, pairs disjoint, every line without a
Breaker cell holding a pair, each witness leaf a finished game (a Breaker line), each Maker
move answered. The claim follows: Breaker stops Maker (under standard rules: Maker cannot win).
A claimed ``"value": "draw"`` is accepted for standard rules from the empty board with the
first player as Maker, where strategy stealing shows the second player cannot win either. The
first failing node is named by the moves that lead to it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from noughts.core.errors import NoughtsError

__all__ = [
    "FORMAT",
    "KIND",
    "VERSION",
    "BreakerCertificateError",
    "BreakerCheck",
    "check_breaker_certificate",
    "read_header",
]

FORMAT = "noughts-certificate"
VERSION = 1
KIND = "breaker"

PAIRS, WITNESS, BREAKER, MAKER, IMAGE = range(5)
_KIND_NAMES = ("pairs", "witness", "breaker", "maker", "image")


class BreakerCertificateError(NoughtsError):
    """A certificate that cannot be read or whose digest does not match (a failing node is a
    result, :attr:`BreakerCheck.first_failure`, not this error).
    """


@dataclass
class BreakerCheck:
    """What :func:`check_breaker_certificate` found."""

    valid: bool
    game: str
    position: str
    claim: dict[str, Any]
    nodes: int
    checked: int
    first_failure: str | None
    digest: str
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The ``prove check --json`` document of a Breaker certificate."""
        return {
            "kind": KIND,
            "valid": self.valid,
            "game": self.game,
            "position": self.position,
            "claim": self.claim,
            "nodes": self.nodes,
            "checked": self.checked,
            "first_failure": self.first_failure,
            "sha256": self.digest,
            "seconds": round(self.seconds, 3),
        }


# -- the board, from the spec's geometry --------------------------------------------------------


@dataclass
class _Board:
    coords: list[tuple[int, ...]]
    grid: tuple[int, ...]
    k: int
    lines: list[int]  # bit masks

    @property
    def full(self) -> int:
        return (1 << len(self.coords)) - 1

    def name(self, cell: int) -> str:
        coord = self.coords[cell]
        if len(self.grid) == 2:
            col, letters = coord[1] + 1, ""
            while col:
                col, rem = divmod(col - 1, 26)
                letters = chr(97 + rem) + letters
            return f"{letters}{coord[0] + 1}"
        return ",".join(str(x + 1) for x in coord)


GIVEN_LINES = ("affine", "projective", "torus", "hypergraph")
"""Boards given by their lines (:mod:`noughts.core.hypergraphs`)."""


def _board(kind: str, args: list[str]) -> _Board:
    def num(text: str) -> int:
        if not re.fullmatch(r"\d+", text):
            raise BreakerCertificateError(f"the certificate's game has a malformed number {text!r}")
        return int(text)

    coords: list[tuple[int, ...]]
    if kind in GIVEN_LINES:  # lines built by core, checked by the strategy checker's own tests
        from noughts.core.certificates import CertificateError
        from noughts.proving.strategy_check import given_lines_geometry

        try:
            given = given_lines_geometry(f"{kind}({','.join(args)})")
        except CertificateError as e:
            raise BreakerCertificateError(str(e)) from None
        assert given is not None
        masks = [sum(1 << c for c in line) for line in given.lines]
        return _Board(list(given.cells), given.grid, given.k, masks)
    if kind == "mnk" and len(args) == 3:
        m, n, k = (num(a) for a in args)
        grid: tuple[int, ...] = (m, n)
        coords = [(r, c) for r in range(m) for c in range(n)]
    elif kind == "hypercube" and len(args) in (2, 3):
        n, d = num(args[0]), num(args[1])
        k = n
        if len(args) == 3:
            if not args[2].startswith("k="):
                raise BreakerCertificateError(f"the certificate's game has a malformed argument {args[2]!r}")
            k = num(args[2][2:])
        if n**d > 1 << 16:
            raise BreakerCertificateError("the certificate's board is too large to check")
        grid = (n,) * d
        coords = list(itertools.product(range(n), repeat=d))
    elif kind == "shape" and len(args) == 2:
        mask = args[0].strip('"')
        k = num(args[1])
        rows = mask.split("/")
        points = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
        if not points or any(ch not in "#." for row in rows for ch in row):
            raise BreakerCertificateError("the certificate's shape is malformed")
        r0 = min(r for r, _ in points)
        c0 = min(c for _, c in points)
        coords = sorted((r - r0, c - c0) for r, c in points)
        grid = (max(r for r, _ in coords) + 1, max(c for _, c in coords) + 1)
    elif kind == "tictactoe" and not args:
        grid, k = (3, 3), 3
        coords = [(r, c) for r in range(3) for c in range(3)]
    else:
        raise BreakerCertificateError(
            f"the certificate names a board this checker does not know: {kind}({', '.join(args)})"
        )
    if len(coords) > 1 << 16:
        raise BreakerCertificateError("the certificate's board is too large to check")
    index = {c: i for i, c in enumerate(coords)}
    dims = len(grid)
    if k < 1:
        raise BreakerCertificateError("the certificate's board has lines of no cells")
    if k == 1:  # a line of one cell is each cell
        return _Board(coords, grid, k, [1 << i for i in range(len(coords))])
    lines: list[int] = []
    for v in itertools.product((-1, 0, 1), repeat=dims):
        nonzero = [x for x in v if x]
        if not nonzero or nonzero[0] < 0:
            continue  # the zero vector, and one of each pair v, -v
        for start in coords:
            cells = [tuple(s + i * x for s, x in zip(start, v, strict=True)) for i in range(k)]
            if all(c in index for c in cells):
                lines.append(sum(1 << index[c] for c in cells))
    return _Board(coords, grid, k, lines)


def _split_call(text: str) -> tuple[str, list[str]]:
    m = re.fullmatch(r"\s*([a-z_]+)\s*(?:\((.*)\))?\s*", text, flags=re.S)
    if m is None:
        raise BreakerCertificateError(f"the certificate's game {text!r} cannot be read")
    name, inner = m.group(1), m.group(2)
    args: list[str] = []
    if inner:
        depth, cur, quoted = 0, "", False
        for ch in inner:
            if ch == '"':
                quoted = not quoted
            if ch == "," and depth == 0 and not quoted:
                args.append(cur.strip())
                cur = ""
                continue
            depth += (ch == "(") - (ch == ")")
            cur += ch
        args.append(cur.strip())
    return name, args


def _game(spec: str) -> tuple[str, bool, _Board]:
    """(rules, breaker_first, board) of a canonical spec: a board (standard rules),
    ``standard(board)`` or ``maker_breaker(board[, breaker_first=true])``.
    """
    name, args = _split_call(spec)
    if name in ("mnk", "hypercube", "shape", "tictactoe", *GIVEN_LINES):
        return "standard", False, _board(name, args)
    if name == "standard" and len(args) == 1:
        inner, inner_args = _split_call(args[0])
        return "standard", False, _board(inner, inner_args)
    if name == "maker_breaker" and len(args) in (1, 2):
        first = len(args) == 2
        if first and args[1].replace(" ", "") != "breaker_first=true":
            raise BreakerCertificateError(f"the certificate's game {spec!r} cannot be read")
        inner, inner_args = _split_call(args[0])
        return "maker_breaker", first, _board(inner, inner_args)
    raise BreakerCertificateError(
        f"a Breaker certificate is for standard or maker_breaker games, not {spec!r}"
    )


# -- reading ------------------------------------------------------------------------------------


def read_header(path: Path | str) -> tuple[dict[str, Any], Path]:
    """The certificate's header (JSON), checked for its format and kind, and its path."""
    path = Path(path)
    json_path = path if path.suffix == ".json" else path.with_suffix(".json")
    try:
        doc = json.loads(json_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BreakerCertificateError(f"no certificate at {json_path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BreakerCertificateError(f"cannot read the certificate {json_path}: {error}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BreakerCertificateError(f"{json_path} is not a noughts certificate")
    if doc.get("version") != VERSION:
        raise BreakerCertificateError(
            f"{json_path}: certificate version {doc.get('version')!r}, this noughts reads {VERSION}"
        )
    if doc.get("kind") != KIND:
        raise BreakerCertificateError(f"{json_path}: a certificate of kind {doc.get('kind')!r}, not {KIND!r}")
    return doc, json_path


_ARRAYS = {"kind": 1, "a": 1, "b": 1, "cells": 1, "branches": 2, "perms": 2}


def _load(path: Path | str) -> tuple[dict[str, Any], dict[str, np.ndarray], str]:
    doc, json_path = read_header(path)
    for key, kind in (
        ("game", str),
        ("position", str),
        ("claim", dict),
        ("root", int),
        ("arrays", str),
        ("sha256", str),
    ):
        if not isinstance(doc.get(key), kind) or isinstance(doc.get(key), bool):
            raise BreakerCertificateError(
                f"{json_path}: the field {key!r} is missing or not a {kind.__name__}"
            )
    name = doc["arrays"]
    if Path(name).name != name or not name.endswith(".npz"):
        raise BreakerCertificateError(f"{json_path}: the arrays file must be an .npz beside it, not {name!r}")
    npz_path = json_path.parent / name
    try:
        raw = npz_path.read_bytes()
    except OSError as error:
        raise BreakerCertificateError(f"cannot read the certificate's arrays {npz_path}: {error}") from None
    digest = hashlib.sha256(raw).hexdigest()
    if digest != doc["sha256"]:
        raise BreakerCertificateError(
            f"{name} does not match the certificate's digest (sha256 {digest[:16]}..., expected "
            f"{str(doc['sha256'])[:16]}...): the arrays were changed"
        )
    try:
        with np.load(npz_path, allow_pickle=False) as data:
            if set(data.files) != set(_ARRAYS):
                raise BreakerCertificateError(
                    f"{name} holds the arrays {sorted(data.files)}, expected {sorted(_ARRAYS)}"
                )
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError) as error:
        raise BreakerCertificateError(f"cannot read the certificate's arrays {npz_path}: {error}") from None
    for key, ndim in _ARRAYS.items():
        a = arrays[key]
        if a.dtype.kind not in "iu" or a.ndim != ndim:
            raise BreakerCertificateError(f"the certificate's array {key!r} is not a {ndim}-d integer array")
        arrays[key] = a.astype(np.int64)
    n = arrays["kind"].shape[0]
    if arrays["a"].shape != (n,) or arrays["b"].shape != (n,):
        raise BreakerCertificateError("the certificate's node arrays differ in length")
    if arrays["branches"].ndim != 2 or (arrays["branches"].size and arrays["branches"].shape[1] != 2):
        raise BreakerCertificateError("the certificate's branches are not pairs")
    return doc, arrays, digest


# -- checking ------------------------------------------------------------------------------------


class _Fail(Exception):
    def __init__(self, node: int, message: str):
        super().__init__(message)
        self.node = node
        self.message = message


def check_breaker_certificate(path: Path | str) -> BreakerCheck:
    """Check a Breaker certificate (module docstring); a failing node gives ``valid=False`` and
    its name in ``first_failure``. ``BreakerCertificateError`` for a file that cannot be read or
    whose digest does not match.
    """
    start = time.perf_counter()
    doc, arrays, digest = _load(path)
    try:
        return _check(doc, arrays, digest, start)
    except (ValueError, TypeError, IndexError, KeyError, OverflowError) as error:
        raise BreakerCertificateError(
            f"{path}: malformed certificate ({type(error).__name__}: {error})"
        ) from None


def _claimed_position(
    doc: dict[str, Any], rules: str, breaker_first: bool, board: _Board
) -> tuple[int, int, bool, bool] | str:
    """The claim and the position it is about, checked: Maker's cells, Breaker's cells, whether
    Maker is to move and whether the rules are standard; or why the claim cannot hold.
    """
    claim = doc["claim"]
    n_cells = len(board.coords)
    # the claim: who is Maker, under which rules
    claim_rules = claim.get("rules")
    if claim_rules not in ("standard", "maker_breaker"):
        return f"the claim's rules {claim_rules!r} are not standard or maker_breaker"
    if rules == "maker_breaker" and claim_rules != "maker_breaker":
        return f"{doc['game']} is a Maker-Breaker game; the claim's rules are {claim_rules!r}"
    maker_name = claim.get("maker")
    if maker_name not in ("first", "second") or claim.get("breaker") != (
        "second" if maker_name == "first" else "first"
    ):
        return "the claim must name the maker and the breaker as first and second"
    maker_first = maker_name == "first"
    if rules == "maker_breaker" and maker_first == breaker_first:
        return f"in {doc['game']} the maker is the {'second' if breaker_first else 'first'} player"
    standard_rules = claim_rules == "standard"
    # the position: one character per cell, in the order of the cells
    text = doc["position"].strip().lower()
    chars = [ch for ch in text if ch not in "/|-"]
    if len(chars) != n_cells or any(ch not in "xo." for ch in chars):
        return f"the position {doc['position']!r} is not a position of {doc['game']}"
    first_mark = "o" if (rules == "maker_breaker" and breaker_first) else "x"
    second_mark = "x" if first_mark == "o" else "o"
    first = sum(1 << c for c, ch in enumerate(chars) if ch == first_mark)
    second = sum(1 << c for c, ch in enumerate(chars) if ch == second_mark)
    if first.bit_count() - second.bit_count() not in (0, 1):
        return f"the position {doc['position']!r} cannot arise: the players alternate"
    first_to_move = first.bit_count() == second.bit_count()
    maker_cells, breaker_cells = (first, second) if maker_first else (second, first)
    maker_to_move = first_to_move == maker_first
    # the claimed value
    value = claim.get("value")
    if value not in (None, "draw"):
        return f"the claimed value {value!r} is not a draw"
    if value == "draw" and not (rules == "standard" and maker_first and first == 0 and second == 0):
        return (
            "a draw follows from a Breaker strategy only under standard rules, from the empty board, with the "
            "first player as Maker (the second cannot win by strategy stealing)"
        )
    return maker_cells, breaker_cells, maker_to_move, standard_rules


def _symmetries(board: _Board, perms: np.ndarray) -> tuple[list[list[int]], list[list[int]]] | str:
    """The certificate's symmetries as cell lists and their inverses, each checked to be a
    permutation of the cells that maps the board's lines onto its lines; or why not.
    """
    n_cells = len(board.coords)
    # the symmetries must map lines onto lines
    line_set = set(board.lines)
    if perms.size and perms.shape[1] != n_cells:
        return "the certificate's symmetries are not permutations of the board's cells"
    perm_lists: list[list[int]] = []
    for s in range(perms.shape[0]):
        p = [int(x) for x in perms[s]]
        if sorted(p) != list(range(n_cells)):
            return f"symmetry {s} is not a permutation of the cells"
        for line in board.lines:
            if _image_of(line, p) not in line_set:
                return f"symmetry {s} does not map the board's lines onto its lines"
        perm_lists.append(p)
    inverse = [[0] * n_cells for _ in perm_lists]
    for s, p in enumerate(perm_lists):
        for c, v in enumerate(p):
            inverse[s][v] = c
    return perm_lists, inverse


def _image_of(bits: int, p: list[int]) -> int:
    """The cells ``bits`` through the permutation ``p``."""
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << p[low.bit_length() - 1]
        bits ^= low
    return out


@dataclass
class _Graph:
    """A certificate's node graph and, as it is worked out bottom-up, the cells each node names."""

    kind: np.ndarray
    a: np.ndarray
    b: np.ndarray
    cells: np.ndarray
    branches: np.ndarray
    perm_lists: list[list[int]]
    n_cells: int
    node_cells: dict[int, int]

    def names(self, root_node: int) -> int:
        """The cells node ``root_node`` and the nodes below it name (a cycle or a dangling
        reference is a failure).
        """
        kind, a, b, cells, branches = self.kind, self.a, self.b, self.cells, self.branches
        perm_lists, n_cells, node_cells = self.perm_lists, self.n_cells, self.node_cells
        n = kind.shape[0]
        stack = [(root_node, False)]
        on_path: set[int] = set()
        while stack:
            i, expanded = stack.pop()
            if i in node_cells:
                continue
            if not 0 <= i < n:
                raise _Fail(root_node, f"a node refers to node {i}, which does not exist")
            k_i = int(kind[i])
            children: list[int] = []
            if k_i in (BREAKER,):
                children = [int(b[i])]
            elif k_i == MAKER:
                lo, cnt = int(a[i]), int(b[i])
                if not (lo >= 0 and cnt >= 0 and lo + cnt <= branches.shape[0]):
                    raise _Fail(i, "its branches lie outside the branch array")
                children = [int(branches[t, 1]) for t in range(lo, lo + cnt)]
            elif k_i == IMAGE:
                children = [int(a[i])]
                if not 0 <= int(b[i]) < len(perm_lists):
                    raise _Fail(i, f"it names symmetry {int(b[i])}, which the certificate does not hold")
            elif k_i in (PAIRS, WITNESS):
                lo, cnt = int(a[i]), int(b[i])
                if not (lo >= 0 and cnt >= 0 and lo + cnt <= cells.shape[0]):
                    raise _Fail(i, "its cells lie outside the cell array")
            else:
                raise _Fail(i, f"its kind {k_i} is not a node kind")
            if not expanded:
                if i in on_path:
                    raise _Fail(i, "the nodes form a cycle")
                on_path.add(i)
                stack.append((i, True))
                for ch in children:
                    if not 0 <= ch < n:
                        raise _Fail(i, f"it refers to node {ch}, which does not exist")
                    if ch not in node_cells:
                        stack.append((ch, False))
                continue
            on_path.discard(i)
            bits = 0
            if k_i in (PAIRS, WITNESS):
                for t in range(int(a[i]), int(a[i]) + int(b[i])):
                    c = int(cells[t])
                    if not 0 <= c < n_cells:
                        raise _Fail(i, f"it names cell {c}, which is not a cell of the board")
                    bits |= 1 << c
            elif k_i == BREAKER:
                c = int(a[i])
                if not 0 <= c < n_cells:
                    raise _Fail(i, f"Breaker's move {c} is not a cell of the board")
                bits = (1 << c) | node_cells[children[0]]
            elif k_i == MAKER:
                for t in range(int(a[i]), int(a[i]) + int(b[i])):
                    c = int(branches[t, 0])
                    if not 0 <= c < n_cells:
                        raise _Fail(i, f"Maker's move {c} is not a cell of the board")
                    bits |= (1 << c) | node_cells[int(branches[t, 1])]
            else:
                bits = _image_of(node_cells[children[0]], perm_lists[int(b[i])])
            node_cells[i] = bits
        return node_cells[root_node]


def _check(doc: dict[str, Any], arrays: dict[str, np.ndarray], digest: str, start: float) -> BreakerCheck:
    rules, breaker_first, board = _game(doc["game"])
    claim = doc["claim"]
    n_cells = len(board.coords)

    def done(failure: str | None, checked: int) -> BreakerCheck:
        return BreakerCheck(
            failure is None,
            doc["game"],
            doc["position"],
            claim,
            int(arrays["kind"].shape[0]),
            checked,
            failure,
            digest,
            time.perf_counter() - start,
        )

    claimed = _claimed_position(doc, rules, breaker_first, board)
    if isinstance(claimed, str):
        return done(claimed, 0)
    maker_cells, breaker_cells, maker_to_move, standard_rules = claimed
    kind, a, b = arrays["kind"], arrays["a"], arrays["b"]
    cells, branches, perms = arrays["cells"], arrays["branches"], arrays["perms"]
    n = kind.shape[0]
    root = doc["root"]
    if not 0 <= root < n:
        return done(f"the root {root} is not a node", 0)
    # the symmetries must map lines onto lines
    symmetries = _symmetries(board, perms)
    if isinstance(symmetries, str):
        return done(symmetries, 0)
    perm_lists, inverse = symmetries
    image_of = _image_of
    # the cells each node names, bottom-up (a cycle or a dangling reference is a failure)
    graph = _Graph(kind, a, b, cells, branches, perm_lists, n_cells, {})
    node_cells = graph.node_cells
    names = graph.names

    # the positions, top-down: (node, Maker's cells, Breaker's cells, Maker to move, parent entry, move)
    checked = 0
    seen: set[tuple[int, int, int, bool]] = set()
    trail: list[tuple[int, int, str]] = []  # (parent index, node, move text)

    def where(entry: int) -> str:
        moves = []
        while entry >= 0:
            parent, _, move = trail[entry]
            if move:
                moves.append(move)
            entry = parent
        path = ", ".join(reversed(moves)) or "the root"
        return path

    stack: list[tuple[int, int, int, bool, int]] = []
    trail.append((-1, root, ""))
    stack.append((root, maker_cells, breaker_cells, maker_to_move, 0))
    full = board.full
    try:
        while stack:
            i, mk, bk, maker_turn, entry = stack.pop()
            try:
                zone = names(i)
            except _Fail as fail:
                raise _Fail(entry, f"node {fail.node}: {fail.message}") from None
            free = full & ~(mk | bk)
            if zone & ~free:
                raise _Fail(entry, f"node {i} names a cell that is not free here")
            mk_abstract = mk | (free & ~zone)  # Maker owns every free cell the node does not name
            key = (i, mk_abstract, bk, maker_turn)
            if key in seen:
                continue
            seen.add(key)
            checked += 1
            for line in board.lines:
                if line & mk_abstract == line:
                    raise _Fail(entry, f"Maker completes a line here (node {i})")
            k_i = int(kind[i])
            if k_i == PAIRS:
                masks = []
                used = 0
                for t in range(int(a[i]), int(a[i]) + int(b[i]) - 1, 2):
                    c1, c2 = int(cells[t]), int(cells[t + 1])
                    bits = (1 << c1) | (1 << c2)
                    if c1 == c2 or bits & used:
                        raise _Fail(entry, f"node {i}: the pairs are not disjoint pairs of distinct cells")
                    used |= bits
                    masks.append(bits)
                if int(b[i]) % 2:
                    raise _Fail(entry, f"node {i}: an odd number of paired cells")
                for line in board.lines:
                    if line & bk:
                        continue
                    if not any(line & m == m for m in masks):
                        cells_text = "-".join(board.name(c) for c in range(n_cells) if line >> c & 1)
                        raise _Fail(entry, f"node {i}: the line {cells_text} holds no pair")
            elif k_i == WITNESS:
                if not standard_rules:
                    raise _Fail(entry, f"node {i}: a finished game is a leaf only under standard rules")
                if not any(line & bk == line for line in board.lines):
                    raise _Fail(entry, f"node {i}: Breaker has completed no line, the game is not over")
            elif k_i == BREAKER:
                if maker_turn:
                    raise _Fail(entry, f"node {i}: a move of Breaker's where Maker is to move")
                c = int(a[i])
                trail.append((entry, i, f"Breaker {board.name(c)}"))
                stack.append((int(b[i]), mk_abstract, bk | (1 << c), True, len(trail) - 1))
            elif k_i == MAKER:
                if not maker_turn:
                    raise _Fail(entry, f"node {i}: a Maker node where Breaker is to move")
                lo, cnt = int(a[i]), int(b[i])
                rows = [(int(branches[t, 0]), int(branches[t, 1])) for t in range(lo, lo + cnt)]
                direct = {m: child for m, child in rows}
                rest = zone & free
                while rest:
                    low = rest & -rest
                    m = low.bit_length() - 1
                    rest ^= low
                    child = direct.get(m)
                    if child is None:
                        child = next((ch for mm, ch in rows if not node_cells[ch] >> m & 1), None)
                    if child is None:
                        raise _Fail(entry, f"node {i}: Maker's move {board.name(m)} is not answered")
                    trail.append((entry, i, f"Maker {board.name(m)}"))
                    stack.append((child, mk_abstract | low, bk, False, len(trail) - 1))
            else:  # an image: the node it shows, in the position the symmetry maps back
                s = int(b[i])
                inv = inverse[s]
                stack.append((int(a[i]), image_of(mk_abstract, inv), image_of(bk, inv), maker_turn, entry))
    except _Fail as fail:
        return done(f"{where(fail.node)}: {fail.message}", checked)
    return done(None, checked)
