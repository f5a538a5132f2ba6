"""The checker of strategy certificates, written to trust nothing of the search it checks.

A ``"strategy"`` certificate (:mod:`noughts.core.certificates` has the file format) claims that
a *player* reaches a *goal* from a position whatever the opponent does, and holds the player's
move at each position its strategy reaches:

* header ``claim``: ``{"strategies": [S0, S1], "value": V}`` with one or two strategies, each
  ``{"player": "first"|"second", "goal": "win"|"draw"}`` (``"draw"``: at least a draw), or
  under cumulative rules ``{"player": ..., "score": t}`` (the player's completed lines minus
  the opponent's, at the end, at least t); ``value`` (optional) is what they prove together:
  ``"first"`` or ``"second"`` (that player's win), ``"draw"`` (both at least draw), or
  ``{"score": s}`` (the first player ends s lines ahead: first at least s, second at least
  -s); ``symmetry``: ``"board"`` (positions are keyed by their least image under the board's
  symmetry group) or ``"none"``;
* arrays ``keys0``, ``moves0`` (and ``keys1``, ``moves1``) for each strategy: ``keys`` is
  uint64, one row of ``2W`` words per position (the least image of the first player's cells,
  then of the second's, ``W`` words each, cell c at bit c % 64 of word c // 64; "least"
  compares the words in order; rows sorted that way, no repeats); ``moves`` the player's move
  at that position, a cell of the least image.

**What is checked.** From the position, every game the strategy allows is played out: at the
player's turn its move (at a position where it completes a line and wins at once no move is
stored, and where the opponent threatens to complete a line in exactly one cell the player
blocks it: the checker plays these itself), at the opponent's turn every empty cell. Each game
must end reaching the goal. A position met again (or a symmetric image of one) is not checked
twice. The first failure is named: the moves leading to it, the position, and what is wrong.

**Leaves** (format version 2). A strategy to at least draw a misère game may end before the
game does, at a *leaf*: a position whose premise the checker verifies with its own code and
which it then explores no further. Arrays ``leafkeys{i}`` (rows as ``keys``, sorted, no
repeats: the least images of the leaf positions), ``leafkinds{i}`` (a code of
:data:`LEAF_KINDS` each), ``leafargs{i}`` (two integers each: a mirror leaf's row of
``mirrors``; a pairing leaf's first row of ``pairs{i}`` and its number of pairs), ``pairs{i}``
(rows of two cells) and ``mirrors`` (rows of cell permutations, shared by the strategies); the
cells they name are cells of the least image. A leaf is looked up at every position of the walk
(the player's turn or the opponent's), before the position's move. Under misère rules a player
at least draws exactly when it does not complete a line first (the game ends at the first
completed line, and with a full board a draw), so each premise below shows that the player P
(of the strategy) never completes a line first, whatever the opponent O does from the leaf on:

* ``mirror`` (1): a permutation s of the cells, verified (:func:`_mirrors`) to map lines onto
  lines, to be an involution, and such that every line through one of its fixed cells F holds a
  cell c outside F with s(c) on the line too; at the leaf O is to move and P holds exactly F and
  the images of O's cells. P answers each O move c with s(c): s(c) is empty (the empty cells are
  mapped onto themselves, as F and P's and O's cells are: s(O) = P - F and s(P - F) = O) and is
  not c (c is not in F, which P holds), so the premise holds again at O's next turn. Suppose P
  completes a line L. If L met F, it would hold a pair c, s(c) outside F, both P's; but P holds
  a cell outside F only where O holds its image, so O would hold s(c) and c: impossible. So L
  misses F, and every cell of L is the image of a cell of O's: s(L), a line, is O's, and O
  claimed each of its cells no later than P claimed the image (s(L) = L is impossible: L would
  be both players'). The last of them O claimed a move before P completed L, or earlier: O
  completed s(L) first and lost.
* ``pairing`` (2): disjoint pairs of empty cells, verified so that every line P could still
  complete (no O cell on it) holds both cells of some pair. P never holds both cells of a pair
  if it plays thus: when O has just claimed a cell of an intact pair (both cells empty before),
  the other cell; else an empty cell in no pair or whose partner O holds, if there is one; else
  a cell of an intact pair, whose partner P then *avoids*. A cell is avoided only after P found
  no cell of the middle kind, and no such cell appears afterwards (O's claims into intact pairs
  are answered at once, and no claim makes one); so when P next chooses freely, O's last claim
  was the avoided cell (the only empty cell neither in an intact pair nor of the middle kind),
  and P never has to claim an avoided cell. So P completes none of those lines, and the others
  hold an O cell.
* ``no_line`` (3): every line holds an O cell; P completes none.
* ``horizon`` (4): every line without an O cell lacks more of P's cells than the claims P still
  makes before the board is full (half the empty cells, rounded up if P is to move).

A leaf in a strategy that is not one to at least draw a misère game, a leaf of an unknown kind,
or a leaf whose premise fails at the position where the walk meets it, is a failure named at
that position, as a wrong move is. Version 1 files hold no leaves and are checked as before.

**What it shares with the search: nothing** but the file reader. It reads the spec string
itself and builds the board from the geometry (cells in row-major order; a line is ``k`` cells
``c, c+v, ..., c+(k-1)v`` for a direction ``v`` in ``{-1,0,1}^d``; the symmetries are the
signed permutations of the axes that map the cells onto themselves, each checked to map lines
onto lines), reads the position's text, and plays the rules (standard, misère, Maker-Breaker,
cumulative) with its own code.
"""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numba import njit

from noughts.core.certificates import Certificate, CertificateError, CheckReport

__all__ = ["LEAF_KINDS", "Geometry", "check_strategy", "given_lines_geometry", "leaf_fails", "parse_game"]

MAX_GROUP = 4096
"""Boards whose symmetry group is larger are keyed without symmetry (``"symmetry": "none"``)."""

# rules
STANDARD, MISERE, MAKER_BREAKER, CUMULATIVE = 0, 1, 2, 3

# why a check failed
REASONS = {
    1: "no move is stored for this position",
    2: "the stored move is not an empty cell",
    3: "the player's move ends the game without reaching the goal",
    4: "the opponent's move ends the game without the player reaching the goal",
    5: "the opponent threatens to complete two lines at once",
    6: "the game is over here without the player reaching the goal",
    7: "the mirror leaf's premise fails: the player must not be to move and must hold the mirror's "
    "fixed cells and the image of each of the opponent's cells, and nothing else",
    8: "the mirror leaf names a permutation the mirror argument does not hold for",
    9: "the pairing leaf's premise fails: its pairs must be disjoint pairs of empty cells, each "
    "pair on one line, with a pair on every line the player could still complete",
    10: "the no-line leaf's premise fails: the player can still complete a line",
    11: "the horizon leaf's premise fails: the player could complete a line before the board is full",
    12: "a leaf of an unknown kind, or a leaf in a strategy that is not one to at least draw a misère game",
}

# leaf kinds
MIRROR_LEAF, PAIRING_LEAF, NO_LINE_LEAF, HORIZON_LEAF = 1, 2, 3, 4
LEAF_KINDS = {
    "mirror": MIRROR_LEAF,
    "pairing": PAIRING_LEAF,
    "no_line": NO_LINE_LEAF,
    "horizon": HORIZON_LEAF,
}


# -- the game, read from its spec ---------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """A board as the checker builds it: grid, cells (coordinates in row-major order), lines."""

    grid: tuple[int, ...]
    cells: tuple[tuple[int, ...], ...]
    k: int
    lines: tuple[tuple[int, ...], ...]
    group: tuple[tuple[int, ...], ...] | None = None
    """A board given by its lines: the automorphisms its builder computed from them (each
    checked here to map lines onto lines before use); None: the grid's signed permutations."""

    def symmetries(self) -> list[tuple[int, ...]]:
        """The signed permutations of the axes that map the cells onto themselves and the lines
        onto the lines, as cell permutations (identity first, no repeats); for a board given by
        its lines, its ``group``, each element checked to map lines onto lines.
        """
        if self.group is not None:
            return _checked_group(self.group, self.lines, len(self.cells))
        index = {c: i for i, c in enumerate(self.cells)}
        d = len(self.grid)
        line_set = {frozenset(line) for line in self.lines}
        found: list[tuple[int, ...]] = []
        seen: set[tuple[int, ...]] = set()
        for order in itertools.permutations(range(d)):
            if any(self.grid[a] != self.grid[b] for a, b in zip(range(d), order, strict=True)):
                continue
            for flips in itertools.product((False, True), repeat=d):
                perm = []
                for c in self.cells:
                    image = tuple(
                        self.grid[a] - 1 - c[order[a]] if flips[a] else c[order[a]] for a in range(d)
                    )
                    if image not in index:
                        break
                    perm.append(index[image])
                else:
                    p = tuple(perm)
                    if p in seen:
                        continue
                    if all(frozenset(p[c] for c in line) in line_set for line in self.lines):
                        seen.add(p)
                        found.append(p)
        identity = tuple(range(len(self.cells)))
        found.sort(key=lambda p: p != identity)
        return found


def _geometry(grid: tuple[int, ...], cells: list[tuple[int, ...]], k: int) -> Geometry:
    cellset = set(cells)
    index = {c: i for i, c in enumerate(cells)}
    d = len(grid)
    lines = []
    for v in itertools.product((-1, 0, 1), repeat=d):
        nonzero = [x for x in v if x]
        if not nonzero or nonzero[0] < 0:
            continue
        for c in cells:
            points = [tuple(c[a] + i * v[a] for a in range(d)) for i in range(k)]
            if all(p in cellset for p in points):
                lines.append(tuple(index[p] for p in points))
    if k == 1:
        lines = [(i,) for i in range(len(cells))]
    return Geometry(grid, tuple(cells), k, tuple(lines))


def _checked_group(
    group: tuple[tuple[int, ...], ...], lines: tuple[tuple[int, ...], ...], n: int
) -> list[tuple[int, ...]]:
    line_set = {frozenset(line) for line in lines}
    identity = tuple(range(n))
    out = []
    for p in dict.fromkeys(group):
        if sorted(p) != list(identity) or not all(
            frozenset(p[c] for c in line) in line_set for line in lines
        ):
            raise CertificateError("a symmetry of the board does not map its lines onto lines")
        out.append(p)
    out.sort(key=lambda p: p != identity)
    return out


def _torus_lines(m: int, n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """The torus's lines, built here: k cells along a direction, wrapping; each set once."""
    seen: set[frozenset[int]] = set()
    out = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r, c in itertools.product(range(m), range(n)):
            line = tuple(((r + i * dr) % m) * n + (c + i * dc) % n for i in range(k))
            if len(set(line)) == k and frozenset(line) not in seen:
                seen.add(frozenset(line))
                out.append(line)
    return tuple(out)


def _plane_ok(lines: tuple[tuple[int, ...], ...], points: int, size: int, count: int) -> bool:
    """The axioms of a finite plane of the given numbers: every line of ``size`` points, ``count``
    lines, and every two points on exactly one line.
    """
    if len(lines) != count or any(len(set(line)) != size for line in lines):
        return False
    pairs: dict[tuple[int, int], int] = {}
    for line in lines:
        for a, b in itertools.combinations(sorted(line), 2):
            pairs[a, b] = pairs.get((a, b), 0) + 1
    return len(pairs) == points * (points - 1) // 2 and set(pairs.values()) == {1}


def given_lines_geometry(spec: str) -> Geometry | None:
    """A board given by its lines (affine, projective, torus, hypergraph): its lines from the
    builder, but checked here (a plane's axioms; a torus's lines built again), or None for others.
    """
    name = spec.partition("(")[0]
    if name not in ("affine", "projective", "torus", "hypergraph"):
        return None
    from noughts.core.errors import NoughtsError
    from noughts.core.registry import board as build_board

    try:
        made = build_board(spec)
    except NoughtsError as e:
        raise CertificateError(f"cannot build the board {spec!r}: {e}") from None
    if not made.given_lines or made.spec != spec:
        raise CertificateError(f"{spec!r} is not a canonical spec of a board given by its lines")
    lines, n = made.lines, made.num_cells
    if name == "torus":
        m_, n_, k_ = made.grid[0], made.grid[1], made.k
        ok = lines == _torus_lines(m_, n_, k_)
    elif name == "affine":
        q = made.k
        ok = n == q * q and _plane_ok(lines, n, q, q * q + q)
    elif name == "projective":
        q = made.k - 1
        ok = n == q * q + q + 1 and _plane_ok(lines, n, q + 1, n)
    else:
        ok = all(len(set(line)) == made.k for line in lines) and len({frozenset(x) for x in lines}) == len(
            lines
        )
    if not ok:
        raise CertificateError(f"the lines built for {spec!r} are not those the spec names")
    group = made.symmetries[: made.line_group.subgroup_size(MAX_GROUP)]  # as the certifier keys
    return Geometry(made.grid, made.coords, made.k, lines, group=group)


_BOARD = re.compile(
    r'^(?:mnk\((\d+),(\d+),(\d+)\)|hypercube\((\d+),(\d+)(?:,k=(\d+))?\)|shape\("([#./]+)",(\d+)\))$'
)


@lru_cache(maxsize=16)
def parse_board(spec: str) -> Geometry:
    """The board of a canonical board spec: ``mnk(m,n,k)``, ``hypercube(n,d)``,
    ``hypercube(n,d,k=K)`` or ``shape("rows",k)``.
    """
    given = given_lines_geometry(spec)
    if given is not None:
        return given
    m = _BOARD.match(spec)
    if m is None:
        raise CertificateError(f"the strategy checker does not know the board {spec!r}")
    if m.group(1):
        rows, cols, k = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if rows * cols > 4096:
            raise CertificateError(f"{spec} is too large")
        return _geometry((rows, cols), [(r, c) for r in range(rows) for c in range(cols)], k)
    if m.group(4):
        n, d = int(m.group(4)), int(m.group(5))
        k = int(m.group(6)) if m.group(6) else n
        if d > 12 or n**d > 4096:
            raise CertificateError(f"{spec} is too large")
        return _geometry((n,) * d, list(itertools.product(range(n), repeat=d)), k)
    rows_text = m.group(7).split("/")
    if len({len(r) for r in rows_text}) != 1:
        raise CertificateError(f"{spec}: the shape's rows differ in length")
    cells: list[tuple[int, ...]] = [
        (r, c) for r, row in enumerate(rows_text) for c, ch in enumerate(row) if ch == "#"
    ]
    return _geometry((len(rows_text), len(rows_text[0])), cells, int(m.group(8)))


def parse_game(spec: str) -> tuple[Geometry, int, int]:
    """``(board, rule, maker)`` of a canonical claim-game spec (``maker``: Maker's player index
    under Maker-Breaker rules, else 0).
    """
    s = spec.replace(" ", "")
    for name, rule in (("misere", MISERE), ("cumulative", CUMULATIVE), ("maker_breaker", MAKER_BREAKER)):
        if s.startswith(name + "(") and s.endswith(")"):
            inner = s[len(name) + 1 : -1]
            maker = 0
            if rule == MAKER_BREAKER and inner.endswith(",breaker_first=true"):
                inner = inner[: -len(",breaker_first=true")]
                maker = 1
            return parse_board(inner), rule, maker
    return parse_board(s), STANDARD, 0


def parse_position(board: Geometry, text: str, marks: tuple[str, str]) -> np.ndarray:
    """The owner of each cell (-1 empty) from a position's text: the grid points in row-major
    order, ``-`` where the board has no cell, separators ``/`` and ``|`` between rows and layers.
    """
    chars = [ch for ch in text.strip().lower() if ch not in "/|"]
    points = list(itertools.product(*(range(g) for g in board.grid)))
    if len(chars) != len(points):
        raise CertificateError(f"the position {text!r} does not fit the board")
    cellset = {c: i for i, c in enumerate(board.cells)}
    own = np.full(len(board.cells), -1, dtype=np.int8)
    for point, ch in zip(points, chars, strict=True):
        if point not in cellset:
            if ch != "-":
                raise CertificateError(f"the position {text!r} has a mark where the board has no cell")
            continue
        if ch == marks[0]:
            own[cellset[point]] = 0
        elif ch == marks[1]:
            own[cellset[point]] = 1
        elif ch != ".":
            raise CertificateError(f"the position {text!r} has an unknown mark {ch!r}")
    n0, n1 = int((own == 0).sum()), int((own == 1).sum())
    if n0 - n1 not in (0, 1):
        raise CertificateError(f"the position {text!r} cannot be reached: the players alternate")
    return own


# -- the walk --------------------------------------------------------------------------------------


@njit(cache=True)
def _claim_ends(
    rule: int,
    maker: int,
    k: int,
    cnt: np.ndarray,
    lines_of: np.ndarray,
    nlines_of: np.ndarray,
    c: int,
    x: int,
    empty: int,
) -> int:
    """After player x claimed cell c (already counted): -1 the game goes on, else the winner
    (0 or 1), 2 a draw, 3 the end of a cumulative game (the score decides).
    """
    if rule == CUMULATIVE:
        return 3 if empty == 0 else -1
    if rule == MAKER_BREAKER and x != maker:
        # Breaker's lines win nothing; Breaker wins once every line holds a Breaker cell
        for j in range(cnt.shape[0]):
            if cnt[j, x] == 0:
                return -1
        return x
    for t in range(nlines_of[c]):
        if cnt[lines_of[c, t], x] == k:
            if rule == MISERE:
                return 1 - x
            return x
    if rule == MAKER_BREAKER:
        return -1
    return 2 if empty == 0 else -1


@njit(cache=True)
def _reached(rule: int, k: int, cnt: np.ndarray, end: int, player: int, goal: int) -> bool:
    """Whether a game that ended so reaches the player's goal (``goal``: 1 a win, 0 at least a
    draw; cumulative: the least score difference).
    """
    if end == 3:
        diff = 0
        for j in range(cnt.shape[0]):
            if cnt[j, player] == k:
                diff += 1
            elif cnt[j, 1 - player] == k:
                diff -= 1
        return diff >= goal
    if end == 2:
        return goal <= 0
    return end == player


@njit(cache=True)
def _winning_cells(
    line_cells: np.ndarray, cnt: np.ndarray, own: np.ndarray, k: int, p: int, out: np.ndarray
) -> int:
    """Empty cells (up to two distinct) that complete a line of player p."""
    n = 0
    for j in range(line_cells.shape[0]):
        if cnt[j, p] == k - 1 and cnt[j, 1 - p] == 0:
            for i in range(k):
                c = line_cells[j, i]
                if own[c] < 0:
                    if n == 0 or out[0] != c:
                        out[n] = c
                        n += 1
                    break
            if n == 2:
                return 2
    return n


@njit(cache=True)
def _find(keys: np.ndarray, key: np.ndarray) -> int:
    """The row of ``keys`` (sorted) equal to ``key``, or -1."""
    lo = 0
    hi = keys.shape[0] - 1
    nk = keys.shape[1]
    while lo <= hi:
        mid = (lo + hi) // 2
        cmp = 0
        for q in range(nk):
            if keys[mid, q] != key[q]:
                cmp = -1 if keys[mid, q] < key[q] else 1
                break
        if cmp == 0:
            return int(mid)
        if cmp < 0:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@njit(cache=True)
def _seen_or_add(table: np.ndarray, used: np.ndarray, key: np.ndarray) -> bool:
    """Open addressing over ``key``'s words: True if it was there already, else adds it."""
    cap = table.shape[0]
    nk = table.shape[1]
    h = np.uint64(1469598103934665603)
    for q in range(nk):
        h = (h ^ key[q]) * np.uint64(1099511628211)
        h ^= h >> np.uint64(31)
    i = np.intp(h & np.uint64(cap - 1))
    while used[i] != 0:
        same = True
        for q in range(nk):
            if table[i, q] != key[q]:
                same = False
                break
        if same:
            return True
        i = np.intp((i + 1) & (cap - 1))
    used[i] = 1
    for q in range(nk):
        table[i, q] = key[q]
    return False


@njit(cache=True)
def _put(
    own: np.ndarray, cnt: np.ndarray, lines_of: np.ndarray, nlines_of: np.ndarray, c: int, x: int
) -> None:
    own[c] = x
    for t in range(nlines_of[c]):
        cnt[lines_of[c, t], x] += 1


@njit(cache=True)
def _take(own: np.ndarray, cnt: np.ndarray, lines_of: np.ndarray, nlines_of: np.ndarray, c: int) -> None:
    x = own[c]
    own[c] = -1
    for t in range(nlines_of[c]):
        cnt[lines_of[c, t], x] -= 1


@njit(cache=True)
def _least(img: np.ndarray, d: int, nsym: int, nk: int, key: np.ndarray) -> int:
    """``key`` := the least of the images ``img[d]`` (the position's key); returns its symmetry."""
    best = 0
    for s in range(nsym):
        less = s == 0
        if not less:
            for q in range(nk):
                if img[d, s, q] != key[q]:
                    less = img[d, s, q] < key[q]
                    break
        if less:
            best = s
            for q in range(nk):
                key[q] = img[d, s, q]
    return best


@njit(cache=True)
def _leaf_fails(
    row: int,
    leafkinds: np.ndarray,
    leafargs: np.ndarray,
    pairs: np.ndarray,
    mirrors: np.ndarray,
    mirror_ok: np.ndarray,
    rule: int,
    goal: int,
    player: int,
    mover: int,
    k: int,
    line_cells: np.ndarray,
    own: np.ndarray,
    perm: np.ndarray,
    canon: np.ndarray,
    mark: np.ndarray,
) -> int:
    """0 if leaf ``row``'s premise holds at the position ``own`` (whose key it is: its image
    under ``perm``, in which the leaf's cells are named), else the reason it fails (see the
    module docstring for each kind and why it proves the player at least draws).
    """
    if rule != MISERE or goal != 0:
        return 12
    cells = own.shape[0]
    opponent = 1 - player
    for c in range(cells):
        canon[perm[c]] = own[c]
    kind = leafkinds[row]
    a = leafargs[row, 0]
    b = leafargs[row, 1]
    if kind == MIRROR_LEAF:
        if a < 0 or a >= mirrors.shape[0] or mirror_ok[a] == 0:
            return 8
        if mover == player:
            return 7
        for c in range(cells):
            t = mirrors[a, c]
            o = canon[c]
            if t == c:
                if o != player:
                    return 7
            elif o == opponent:
                if canon[t] != player:
                    return 7
            elif o == player and canon[t] != opponent:
                return 7
        return 0
    if kind == PAIRING_LEAF:
        if a < 0 or b < 0 or a + b > pairs.shape[0]:
            return 9
        for c in range(cells):
            mark[c] = 0
        for i in range(a, a + b):
            for q in range(2):
                c = pairs[i, q]
                if c < 0 or c >= cells or canon[c] >= 0 or mark[c] != 0:
                    return 9
                mark[c] = 1
        for j in range(line_cells.shape[0]):
            blocked = False
            for i in range(k):
                if canon[line_cells[j, i]] == opponent:
                    blocked = True
                    break
            if blocked:
                continue
            covered = False
            for i in range(a, a + b):
                inside = 0
                for t in range(k):
                    c = line_cells[j, t]
                    if c == pairs[i, 0] or c == pairs[i, 1]:
                        inside += 1
                if inside == 2:
                    covered = True
                    break
            if not covered:
                return 9
        return 0
    if kind == NO_LINE_LEAF or kind == HORIZON_LEAF:  # noqa: SIM109 (numba compiles this plainly)
        empty = 0
        for c in range(cells):
            if canon[c] < 0:
                empty += 1
        # the player's claims still to come, the board filling up
        moves = (empty + 1) // 2 if mover == player else empty // 2
        for j in range(line_cells.shape[0]):
            held = 0
            blocked = False
            for i in range(k):
                o = canon[line_cells[j, i]]
                if o == opponent:
                    blocked = True
                    break
                if o == player:
                    held += 1
            if blocked:
                continue
            if kind == NO_LINE_LEAF:
                return 10
            if k - held <= moves:
                return 11
        return 0
    return 12


ENTER, RESUME, RETURN = 0, 1, 2


@njit(cache=True)
def walk(
    rule: int,
    maker: int,
    k: int,
    player: int,
    goal: int,
    line_cells: np.ndarray,
    lines_of: np.ndarray,
    nlines_of: np.ndarray,
    perms: np.ndarray,
    inverse: np.ndarray,
    own: np.ndarray,
    keys: np.ndarray,
    moves: np.ndarray,
    leafkeys: np.ndarray,
    leafkinds: np.ndarray,
    leafargs: np.ndarray,
    pairs: np.ndarray,
    mirrors: np.ndarray,
    mirror_ok: np.ndarray,
    seen: np.ndarray,
    used: np.ndarray,
    path: np.ndarray,
    result: np.ndarray,
) -> None:
    """Play out every game the strategy allows from ``own`` (see the module docstring), ending
    at the strategy's leaves (``leafkeys`` sorted like ``keys``; an empty array: none), whose
    premises it verifies (:func:`_leaf_fails`).
    ``result`` gets ``[status, positions checked, failure depth, reason, lookups, leaves]``: status 1
    valid, 0 failed (``path[:depth]`` the moves to the failing position, which ``own`` then
    holds), 2 the memo table is full (call again with a larger one).
    """
    cells = own.shape[0]
    nsym = perms.shape[0]
    w = (cells + 63) // 64
    nk = 2 * w
    nlines = line_cells.shape[0]
    lines_win_player = rule == STANDARD or (rule == MAKER_BREAKER and player == maker)
    lines_win_opponent = rule == STANDARD or (rule == MAKER_BREAKER and player != maker)
    cnt = np.zeros((nlines, 2), dtype=np.int64)
    empty = 0
    n0 = 0
    for c in range(cells):
        if own[c] < 0:
            empty += 1
        elif own[c] == 0:
            n0 += 1
    for j in range(nlines):
        for i in range(k):
            o = own[line_cells[j, i]]
            if o >= 0:
                cnt[j, o] += 1
    first_mover = 0 if 2 * n0 == cells - empty else 1
    depth_max = empty + 2
    img = np.zeros((depth_max, nsym, nk), dtype=np.uint64)
    for s in range(nsym):
        for c in range(cells):
            if own[c] >= 0:
                pc = perms[s, c]
                img[0, s, own[c] * w + pc // 64] |= np.uint64(1) << np.uint64(pc % 64)
    iters = np.zeros(depth_max, dtype=np.int64)  # an opponent's node: the next cell to try
    key = np.zeros(nk, dtype=np.uint64)
    two = np.zeros(2, dtype=np.int64)
    checked = 0
    lookups = 0
    leaves = 0
    inserted = 0  # positions in the memo table (it holds at most half its rows)
    nleaves = leafkeys.shape[0]
    canon = np.zeros(cells, dtype=np.int64)
    mark = np.zeros(cells, dtype=np.int64)
    d = 0
    mode = ENTER
    status = 1
    reason = 0
    while True:
        if mode == RETURN:
            if d == 0:
                break
            d -= 1
            _take(own, cnt, lines_of, nlines_of, path[d])
            empty += 1
            mode = RESUME
            continue
        mover = (first_mover + d) & 1
        if mover == player:
            if mode == RESUME:
                mode = RETURN  # its one move is checked
                continue
            checked += 1
            # -- the player's move ----------------------------------------------------------
            if lines_win_player and _winning_cells(line_cells, cnt, own, k, player, two) > 0:
                mode = RETURN  # it completes a line now: won
                continue
            move = -1
            if lines_win_opponent:
                nthreat = _winning_cells(line_cells, cnt, own, k, 1 - player, two)
                if nthreat >= 2:
                    status = 0
                    reason = 5
                    break
                if nthreat == 1:
                    move = two[0]  # the only move that does not lose at once
            # the position's key (its least image) and the symmetry that gives it
            best = _least(img, d, nsym, nk, key)
            if 2 * (inserted + 1) > seen.shape[0]:
                status = 2
                break
            if _seen_or_add(seen, used, key):
                mode = RETURN  # met before (or a symmetric image of it): checked there
                continue
            inserted += 1
            if nleaves > 0 and _find(leafkeys, key) >= 0:
                leaves += 1
                reason = _leaf_fails(
                    _find(leafkeys, key), leafkinds, leafargs, pairs, mirrors, mirror_ok, rule, goal,
                    player, mover, k, line_cells, own, perms[best], canon, mark,
                )  # fmt: skip
                if reason != 0:
                    status = 0
                    break
                mode = RETURN  # a leaf: its argument stands for the rest of the game
                continue
            if move < 0:
                lookups += 1
                row = _find(keys, key)
                if row < 0:
                    status = 0
                    reason = 1
                    break
                move = inverse[best, moves[row]]
                if own[move] >= 0:
                    status = 0
                    reason = 2
                    break
            _put(own, cnt, lines_of, nlines_of, move, mover)
            empty -= 1
            path[d] = move
            end = _claim_ends(rule, maker, k, cnt, lines_of, nlines_of, move, mover, empty)
            if end >= 0:
                if not _reached(rule, k, cnt, end, player, goal):
                    status = 0
                    reason = 3
                    d += 1
                    break
                _take(own, cnt, lines_of, nlines_of, move)
                empty += 1
                mode = RETURN
                continue
            for s in range(nsym):
                pc = perms[s, move]
                for q in range(nk):
                    img[d + 1, s, q] = img[d, s, q]
                img[d + 1, s, mover * w + pc // 64] |= np.uint64(1) << np.uint64(pc % 64)
            d += 1
            mode = ENTER
            continue
        # -- the opponent's turn: every empty cell in turn ------------------------------------
        if mode == ENTER:
            checked += 1
            iters[d] = 0
            if nleaves > 0:
                best = _least(img, d, nsym, nk, key)
                row = _find(leafkeys, key)
                if row >= 0:
                    if 2 * (inserted + 1) > seen.shape[0]:
                        status = 2
                        break
                    if not _seen_or_add(seen, used, key):
                        inserted += 1
                        leaves += 1
                        reason = _leaf_fails(
                            row, leafkinds, leafargs, pairs, mirrors, mirror_ok, rule, goal,
                            player, mover, k, line_cells, own, perms[best], canon, mark,
                        )  # fmt: skip
                        if reason != 0:
                            status = 0
                            break
                    mode = RETURN
                    continue
        c = iters[d]
        while c < cells and own[c] >= 0:
            c += 1
        if c >= cells:
            mode = RETURN
            continue
        iters[d] = c + 1
        _put(own, cnt, lines_of, nlines_of, c, mover)
        empty -= 1
        path[d] = c
        end = _claim_ends(rule, maker, k, cnt, lines_of, nlines_of, c, mover, empty)
        if end >= 0:
            if not _reached(rule, k, cnt, end, player, goal):
                status = 0
                reason = 4
                d += 1
                break
            _take(own, cnt, lines_of, nlines_of, c)
            empty += 1
            mode = RESUME
            continue
        for s in range(nsym):
            pc = perms[s, c]
            for q in range(nk):
                img[d + 1, s, q] = img[d, s, q]
            img[d + 1, s, mover * w + pc // 64] |= np.uint64(1) << np.uint64(pc % 64)
        d += 1
        mode = ENTER
    result[0] = status
    result[1] = checked
    result[2] = d
    result[3] = reason
    result[4] = lookups
    result[5] = leaves


# -- the certificate -----------------------------------------------------------------------------


def _strategy_claim(part: Any, rule: int) -> tuple[int, int, str]:
    """``(player, goal, words)`` of one strategy's claim."""
    if not isinstance(part, dict):
        raise CertificateError("each strategy's claim is an object")
    player = {"first": 0, "second": 1}.get(part.get("player"))  # type: ignore[arg-type]
    if player is None:
        raise CertificateError("a strategy's claim names no player (first or second)")
    if rule == CUMULATIVE:
        score = part.get("score")
        if not isinstance(score, int) or isinstance(score, bool):
            raise CertificateError("a cumulative strategy's claim needs an integer 'score'")
        return player, score, f"the {part['player']} player ends at least {score:+d} lines ahead"
    goal = {"win": 1, "draw": 0}.get(part.get("goal"))  # type: ignore[arg-type]
    if goal is None:
        raise CertificateError("a strategy's goal is 'win' or 'draw'")
    return player, goal, f"the {part['player']} player {'wins' if goal == 1 else 'at least draws'}"


def _value_follows(value: Any, parts: list[tuple[int, int, str]], rule: int) -> bool:
    """Whether the strategies' goals together prove the stated value."""
    goals = {player: goal for player, goal, _ in parts}
    if rule == CUMULATIVE:
        if not isinstance(value, dict) or not isinstance(value.get("score"), int):
            return False
        v = value["score"]
        return bool(goals.get(0) == v and goals.get(1) == -v)
    if value in ("first", "second"):
        return goals.get(0 if value == "first" else 1) == 1
    if value == "draw":
        return goals.get(0) == 0 and goals.get(1) == 0
    return False


def _position_text(board: Geometry, own: np.ndarray, marks: tuple[str, str]) -> str:
    index = {c: i for i, c in enumerate(board.cells)}
    grid = board.grid

    def rec(prefix: tuple[int, ...]) -> str:
        axis = len(prefix)
        if axis == len(grid) - 1:
            out = []
            for i in range(grid[axis]):
                cell = index.get(prefix + (i,))
                out.append("-" if cell is None else "." if own[cell] < 0 else marks[own[cell]])
            return "".join(out)
        depth = len(grid) - 1 - axis
        sep = "/" if depth == 1 else "|" * (depth - 1)
        return sep.join(rec(prefix + (i,)) for i in range(grid[axis]))

    return rec(())


def check_strategy(certificate: Certificate) -> CheckReport:
    """Check a ``"strategy"`` certificate (see the module docstring): every strategy it holds,
    and that together they prove the value it states.
    """
    started = time.perf_counter()
    header = certificate.header
    board, rule, maker = parse_game(header["game"])
    marks = ("o", "x") if rule == MAKER_BREAKER and maker == 1 else ("x", "o")
    claim = header["claim"]
    strategies = claim.get("strategies")
    if not isinstance(strategies, list) or not 1 <= len(strategies) <= 2:
        raise CertificateError("the claim lists one or two strategies")
    parts = [_strategy_claim(part, rule) for part in strategies]
    if "value" in claim and not _value_follows(claim["value"], parts, rule):
        raise CertificateError(f"the strategies listed do not prove the value {claim['value']!r}")
    own = parse_position(board, header["position"], marks)
    symmetry = header.get("symmetry")
    if symmetry == "board":
        group = board.symmetries()
    elif symmetry == "none":
        group = [tuple(range(len(board.cells)))]
    else:
        raise CertificateError("the header's 'symmetry' is 'board' or 'none'")
    arrays = certificate.arrays
    leaf_names = [n for n in arrays if n == "mirrors" or n.startswith(("leaf", "pairs"))]
    if leaf_names and header["version"] < 2:
        raise CertificateError(f"a version 1 certificate holds no leaves, but this one has {leaf_names[0]!r}")
    mirrors, mirror_ok = _mirrors(board, arrays.get("mirrors"))
    checked = 0
    stored = 0
    lookups = 0
    leaves_stored: dict[str, int] = {}
    leaves_met = 0
    failure = None
    for index, (player, goal, words) in enumerate(parts):
        keys = arrays.get(f"keys{index}")
        moves = arrays.get(f"moves{index}")
        if keys is None or moves is None:
            raise CertificateError(f"strategy {index} needs the arrays 'keys{index}' and 'moves{index}'")
        stored += len(keys)
        leaves = _leaves(board, arrays, index)
        for name, code in LEAF_KINDS.items():
            n = int((leaves[1] == code).sum())
            if n:
                leaves_stored[name] = leaves_stored.get(name, 0) + n
        done, failed, looked, met = _check_one(
            board, rule, maker, marks, own, group, player, goal, keys, moves, leaves, mirrors, mirror_ok
        )
        checked += done
        lookups += looked
        leaves_met += met
        if failed is not None:
            failure = f"{words}: {failed}"
            break
    words = "; ".join(w for _, _, w in parts)
    return CheckReport(
        valid=failure is None,
        kind="strategy",
        game=header["game"],
        position=header["position"],
        claim=claim,
        checked=checked,
        first_failure=failure,
        sha256=certificate.sha256,
        seconds=time.perf_counter() - started,
        details={
            "proves": words,
            "stored_moves": stored,
            "lookups": lookups,
            **({"leaves": leaves_stored, "leaves_met": leaves_met} if leaves_stored else {}),
        },
    )


def _check_one(
    board: Geometry,
    rule: int,
    maker: int,
    marks: tuple[str, str],
    root: np.ndarray,
    group: list[tuple[int, ...]],
    player: int,
    goal: int,
    keys: np.ndarray,
    moves: np.ndarray,
    leaves: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    mirrors: np.ndarray,
    mirror_ok: np.ndarray,
) -> tuple[int, str | None, int, int]:
    """Check one strategy: ``(positions checked, the first failure or None, moves looked up,
    leaves met)``.
    """
    cells = len(board.cells)
    w = (cells + 63) // 64
    if keys.dtype != np.uint64 or keys.ndim != 2 or keys.shape[1] != 2 * w:
        raise CertificateError(f"a strategy's keys must be uint64 rows of {2 * w} words")
    if moves.dtype.kind not in "iu" or moves.shape != (keys.shape[0],):
        raise CertificateError("a strategy's moves must hold one integer per row of its keys")
    if len(moves) and (int(moves.min()) < 0 or int(moves.max()) >= cells):
        raise CertificateError("a strategy's moves name a cell the board does not have")
    _sorted_rows(keys, "a strategy's keys")
    over = _finished(board, rule, maker, root)
    if over is not None:
        if _reached_here(board, rule, root, over, player, goal):
            return 1, None, 0, 0
        return 1, f"the position itself: {REASONS[6]}", 0, 0
    line_cells = np.array(board.lines, dtype=np.int64).reshape(len(board.lines), board.k)
    counts = np.zeros(cells, dtype=np.int64)
    for line in board.lines:
        for c in line:
            counts[c] += 1
    lines_of = np.full((cells, max(1, int(counts.max()))), -1, dtype=np.int64)
    fill = np.zeros(cells, dtype=np.int64)
    for j, line in enumerate(board.lines):
        for c in line:
            lines_of[c, fill[c]] = j
            fill[c] += 1
    perms = np.array(group, dtype=np.int64)
    inverse = np.argsort(perms, axis=1)
    # the memo table holds the player's positions and the leaves met: about the stored rows
    size = 1 << 16
    while size < 4 * (len(keys) + len(leaves[0])):
        size *= 2
    while True:
        seen = np.zeros((size, 2 * w), dtype=np.uint64)
        used = np.zeros(size, dtype=np.uint8)
        path = np.zeros(cells + 2, dtype=np.int64)
        result = np.zeros(6, dtype=np.int64)
        work = root.copy()
        walk(
            rule,
            maker,
            board.k,
            player,
            goal,
            line_cells,
            lines_of,
            counts,
            perms,
            inverse,
            work,
            np.ascontiguousarray(keys),
            moves.astype(np.int64),
            *leaves,
            mirrors,
            mirror_ok,
            seen,
            used,
            path,
            result,
        )
        if result[0] != 2:
            break
        size *= 4
    if result[0] == 1:
        return int(result[1]), None, int(result[4]), int(result[5])
    depth = int(result[2])
    names = [_cell_name(board, int(c)) for c in path[:depth]]
    where = "after " + " ".join(names) if names else "at the position itself"
    failed = f"{where} (position {_position_text(board, work, marks)}): {REASONS[int(result[3])]}"
    return int(result[1]), failed, int(result[4]), int(result[5])


def leaf_fails(
    spec: str,
    position: str,
    player: int,
    kind: str,
    mirror: list[int] | None = None,
    pairs: list[tuple[int, int]] | None = None,
) -> str | None:
    """The checker's verdict on one leaf, as it checks the leaves of a certificate: None if the
    premise of a leaf of ``kind`` (a key of :data:`LEAF_KINDS`) holds for ``player`` (0 the
    first, 1 the second) at ``position`` (its text) of the game ``spec``, else why it fails.
    A mirror leaf names its ``mirror`` (a cell permutation), a pairing leaf its ``pairs``.
    """
    board, rule, maker = parse_game(spec)
    marks = ("o", "x") if rule == MAKER_BREAKER and maker == 1 else ("x", "o")
    own = parse_position(board, position, marks).astype(np.int64)
    cells = len(board.cells)
    mirrors, mirror_ok = _mirrors(board, np.array([mirror if mirror is not None else list(range(cells))]))
    pair_rows = np.array(pairs if pairs else [], dtype=np.int64).reshape(-1, 2)
    n0 = int((own == 0).sum())
    mover = 0 if 2 * n0 == int((own >= 0).sum()) else 1
    line_cells = np.array(board.lines, dtype=np.int64).reshape(len(board.lines), board.k)
    code = _leaf_fails(
        0,
        np.array([LEAF_KINDS.get(kind, 0)], dtype=np.int64),
        np.array([[0, len(pair_rows)]], dtype=np.int64),
        pair_rows,
        mirrors,
        mirror_ok,
        rule,
        0,
        player,
        mover,
        board.k,
        line_cells,
        own,
        np.arange(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
    )
    return None if code == 0 else REASONS[code]


def _sorted_rows(keys: np.ndarray, what: str) -> None:
    if len(keys) > 1:
        diff = keys[1:] != keys[:-1]
        first = diff.argmax(axis=1)
        rows = np.arange(len(keys) - 1)
        if not diff.any(axis=1).all() or not (keys[1:][rows, first] > keys[:-1][rows, first]).all():
            raise CertificateError(f"{what} must be sorted, without repeats")


def _leaves(
    board: Geometry, arrays: dict[str, np.ndarray], index: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Strategy ``index``'s leaves as the walk takes them: ``(keys, kinds, args, pairs)``, empty
    where the file has none; their shapes and types checked (their premises are the walk's).
    """
    cells = len(board.cells)
    w = (cells + 63) // 64
    names = [f"leafkeys{index}", f"leafkinds{index}", f"leafargs{index}"]
    present = [n in arrays for n in names]
    if not any(present):
        if f"pairs{index}" in arrays:
            raise CertificateError(f"strategy {index} has pairs but no leaves")
        return (
            np.zeros((0, 2 * w), dtype=np.uint64),
            np.zeros(0, dtype=np.int64),
            np.zeros((0, 2), dtype=np.int64),
            np.zeros((0, 2), dtype=np.int64),
        )
    if not all(present):
        raise CertificateError(f"strategy {index}'s leaves need the arrays {', '.join(names)}")
    keys, kinds, args = (arrays[n] for n in names)
    if keys.dtype != np.uint64 or keys.ndim != 2 or keys.shape[1] != 2 * w:
        raise CertificateError(f"a strategy's leaf keys must be uint64 rows of {2 * w} words")
    n = keys.shape[0]
    if kinds.dtype.kind not in "iu" or kinds.shape != (n,):
        raise CertificateError("a strategy's leaf kinds must hold one integer per leaf")
    if args.dtype.kind not in "iu" or args.shape != (n, 2):
        raise CertificateError("a strategy's leaf arguments must be integer rows of two, one per leaf")
    pairs = arrays.get(f"pairs{index}", np.zeros((0, 2), dtype=np.int64))
    if pairs.dtype.kind not in "iu" or pairs.ndim != 2 or pairs.shape[1] != 2:
        raise CertificateError("a strategy's pairs must be integer rows of two cells")
    _sorted_rows(keys, "a strategy's leaf keys")
    return (
        np.ascontiguousarray(keys),
        kinds.astype(np.int64),
        args.astype(np.int64),
        pairs.astype(np.int64),
    )


def _mirrors(board: Geometry, perms: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The certificate's mirrors (cell permutations) and, for each, whether the mirror argument
    holds for it (1) or not (0): a permutation of the cells that is an involution, maps lines
    onto lines, and every line through one of its fixed cells holds a cell c outside them whose
    image is on the line too. A leaf naming a mirror that fails is a failing node.
    """
    cells = len(board.cells)
    if perms is None:
        return np.zeros((0, cells), dtype=np.int64), np.zeros(0, dtype=np.uint8)
    if perms.dtype.kind not in "iu" or perms.ndim != 2 or perms.shape[1] != cells:
        raise CertificateError(f"the mirrors must be integer rows of {cells} cells")
    line_set = {frozenset(line) for line in board.lines}
    ok = np.zeros(len(perms), dtype=np.uint8)
    for m, row in enumerate(perms.tolist()):
        if sorted(row) != list(range(cells)):
            continue  # not a permutation of the cells
        if any(row[row[c]] != c for c in range(cells)):
            continue  # not an involution
        if any(frozenset(row[c] for c in line) not in line_set for line in board.lines):
            continue  # a line's image is not a line
        fixed = {c for c in range(cells) if row[c] == c}
        if any(
            fixed & set(line) and not any(c not in fixed and row[c] in line for c in line)
            for line in board.lines
        ):
            continue
        ok[m] = 1
    safe = np.where((perms >= 0) & (perms < cells), perms, 0).astype(np.int64)
    return np.ascontiguousarray(safe), ok


def _finished(board: Geometry, rule: int, maker: int, own: np.ndarray) -> int | None:
    """Whether the game is over in ``own``: None if not, else the result code.

    The winner (0, 1), 2 a draw, 3 the end of a cumulative game. (A position read from text:
    the last claim is not known, so a completed line decides as the rules say for whoever owns
    it.)
    """
    full = bool((own >= 0).all())
    if rule == CUMULATIVE:
        return 3 if full else None
    for line in board.lines:
        owners = {int(own[c]) for c in line}
        if len(owners) == 1 and -1 not in owners:
            x = owners.pop()
            if rule == MISERE:
                return 1 - x
            if rule == MAKER_BREAKER and x != maker:
                continue
            return x
    if rule == MAKER_BREAKER:
        breaker = 1 - maker
        if all(any(own[c] == breaker for c in line) for line in board.lines):
            return breaker
        return None
    return 2 if full else None


def _reached_here(board: Geometry, rule: int, own: np.ndarray, over: int, player: int, goal: int) -> bool:
    if over == 3:
        diff = 0
        for line in board.lines:
            owners = {int(own[c]) for c in line}
            if owners == {player}:
                diff += 1
            elif owners == {1 - player}:
                diff -= 1
        return diff >= goal
    if over == 2:
        return goal <= 0
    return over == player


def _cell_name(board: Geometry, cell: int) -> str:
    """A cell as people write it: ``b2`` on flat boards (column letters, row 1 at the top),
    ``2,2,2`` (1-based) on others.
    """
    coord = board.cells[cell]
    if len(board.grid) == 2:
        col = coord[1] + 1
        name = ""
        while col:
            col, rem = divmod(col - 1, 26)
            name = chr(ord("a") + rem) + name
        return f"{name}{coord[0] + 1}"
    return ",".join(str(x + 1) for x in coord)
