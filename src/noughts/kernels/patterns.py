"""Threat patterns across lines: what one claim makes, by direction, on any board of lines.

Gomoku programs classify what a stone makes in each of its four directions (a four, an open
three, ...) and then combine the directions: two fours (*four-four*), a four and a three
(*four-three*) or two threes (*three-three*) make a double threat, which usually wins. This
module is that method over noughts' line tables, so it works on every board (m,n,k and n^d):

* **Directions without geometry** (:func:`directions`): at a cell, two of its lines point the
  same way when they share another cell (collinear windows of a line of cells), and the
  relation is closed transitively (the windows ``c-4..c`` and ``c..c+4`` share only ``c`` but
  are joined through ``c-3..c+1``). Each line gets, at each of its cells, the index of its
  direction there (``ldir[j, i]``). On Qubic every line is its own direction.
* **Per-direction counts** kept claim by claim by the engine's kernel: ``K2[p, x, d]``, how
  many of ``p``'s lines ``k - 2`` short (no mark of the other side) pass through ``x`` in
  direction ``d`` (claiming ``x`` makes a four there), and ``K3[p, x, d]``, the lines
  ``k - 3`` short (claiming ``x`` makes a three; two or more of them in one direction are an
  open or split three, one that can become two different fours). :func:`recount` is the plain
  count from scratch the kernel's incremental counts are held to.
* **The combination of a cell** (:func:`cell_class`): over the directions, the fours and
  threes a claim at ``x`` makes: ``FOUR_FOUR`` (two fours, or an open four: two lines ``k - 2``
  short in one direction), ``FOUR_THREE``, ``THREE_THREE``, ``FOUR``, ``THREE`` or ``NONE``.
  :func:`class_reference` is the same classification written out in plain Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NONE, THREE, FOUR, THREE_THREE, FOUR_THREE, FOUR_FOUR = range(6)
"""The classes of a claim, weakest first."""

CLASS_NAMES = ("none", "three", "four", "three-three", "four-three", "four-four")


def directions(line_cells: np.ndarray, through: np.ndarray, nthrough: np.ndarray) -> tuple[np.ndarray, int]:
    """``(ldir, ndir)``: ``ldir[j, i]`` the index of line ``j``'s direction at its ``i``-th cell
    (lines through one cell that share another cell, closed transitively, have one index);
    ``ndir`` the most directions at any cell.
    """
    lines, k = line_cells.shape
    ldir = np.zeros((lines, k), dtype=np.int8)
    ndir = 1
    sets = [frozenset(int(x) for x in row) for row in line_cells]
    for c in range(len(nthrough)):
        js = [int(through[c, t]) for t in range(int(nthrough[c]))]
        parent = list(range(len(js)))

        def find(a: int, parent: list[int] = parent) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        for a in range(len(js)):
            for b in range(a + 1, len(js)):
                if len(sets[js[a]] & sets[js[b]]) >= 2:
                    parent[find(a)] = find(b)
        roots: dict[int, int] = {}
        for a, j in enumerate(js):
            d = roots.setdefault(find(a), len(roots))
            i = int(np.flatnonzero(line_cells[j] == c)[0])
            ldir[j, i] = d
        ndir = max(ndir, len(roots))
    return ldir, ndir


def recount(
    line_cells: np.ndarray, owner: np.ndarray, k: int, ldir: np.ndarray, ndir: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(K2, K3)`` counted from scratch over every line (``owner[c]``: -1 empty, else the
    owner): per side, cell and direction, the side's lines ``k - 2`` and ``k - 3`` short with
    no mark of the other side through the cell (occupied cells included, as the kernel keeps
    them).
    """
    cells = len(owner)
    K2 = np.zeros((2, cells, ndir), dtype=np.int32)
    K3 = np.zeros((2, cells, ndir), dtype=np.int32)
    for j, row in enumerate(line_cells):
        marks = [sum(1 for x in row if owner[x] == p) for p in (0, 1)]
        for p in (0, 1):
            if marks[1 - p] != 0:
                continue
            for i, x in enumerate(row):
                if marks[p] == k - 2:
                    K2[p, x, ldir[j, i]] += 1
                if k >= 4 and marks[p] == k - 3:
                    K3[p, x, ldir[j, i]] += 1
    return K2, K3


def class_reference(fours_by_dir: list[int], threes_by_dir: list[int]) -> int:
    """The class of a claim (plain Python): per direction its lines ``k - 2`` short (each a
    four once claimed) and ``k - 3`` short (two or more: a three once claimed).
    """
    fours = sum(1 for f in fours_by_dir if f > 0)
    open_four = any(f >= 2 for f in fours_by_dir)
    threes = sum(1 for f, t in zip(fours_by_dir, threes_by_dir, strict=True) if f == 0 and t >= 2)
    if fours >= 2 or open_four:
        return FOUR_FOUR
    if fours == 1 and threes >= 1:
        return FOUR_THREE
    if threes >= 2:
        return THREE_THREE
    if fours == 1:
        return FOUR
    if threes == 1:
        return THREE
    return NONE


@njit(cache=True, inline="always")
def cell_class(K2: np.ndarray, K3: np.ndarray, p: int, x: int, ndir: int) -> int:
    """The class of ``p``'s claim of ``x`` (see the module docstring), from the kept counts."""
    fours = 0
    threes = 0
    open_four = False
    for d in range(ndir):
        f = K2[p, x, d]
        if f > 0:
            fours += 1
            if f >= 2:
                open_four = True
        elif K3[p, x, d] >= 2:
            threes += 1
    if fours >= 2 or open_four:
        return FOUR_FOUR
    if fours == 1 and threes >= 1:
        return FOUR_THREE
    if threes >= 2:
        return THREE_THREE
    if fours == 1:
        return FOUR
    if threes == 1:
        return THREE
    return NONE
