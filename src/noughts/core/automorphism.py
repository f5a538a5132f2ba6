r"""The automorphism group of a board computed from its lines alone, not from its geometry.

A positional game is a hypergraph: points (cells) and winning sets (lines). Its symmetries are
the permutations of the points that map every line onto a line. They are the automorphisms of
the *incidence graph* (one vertex per point, one per line, an edge where a point lies on a
line) that keep points among points, which nauty finds from a coloured graph: points one
colour, lines another (McKay and Piperno, "Practical graph isomorphism, II", J. Symbolic
Computation 60, 2014; through ``pynauty``). nauty answers with generators and the group's
order; :func:`line_group` lists the elements by closing the generators under composition
(breadth first), up to a cap. Where the whole group is larger than the cap, the listed group is
a subgroup (generators added one at a time while the closure stays within the cap): a subgroup
keys positions soundly (it never merges positions the whole group does not), merely less often.

As points determine lines once no two lines are the same set (the hypergraph boards refuse
repeated lines), the group acts faithfully on the points, and the order nauty reports is the
order of the group on the points.

>>> from noughts.core.board import mnk
>>> g = line_group(mnk(3, 3, 3))
>>> g.order, len(g.elements), g.complete
(8, 8, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from noughts.core.common import Cell

__all__ = ["GROUP_CAP", "LineGroup", "close_group", "line_group", "maps_lines_onto_lines"]

GROUP_CAP = 6000
"""The most elements a board's listed symmetry group holds (AG(2,4)'s 5,760 and PG(2,3)'s 5,616
fit); larger groups are represented by a subgroup of at most this many elements."""

Perm = tuple[Cell, ...]


@dataclass(frozen=True)
class LineGroup:
    """A board's line automorphisms: the generators nauty found, the group's order, and its
    elements listed (identity first), all of it when ``complete``, else a subgroup.
    """

    order: int
    generators: tuple[Perm, ...]
    elements: tuple[Perm, ...]
    complete: bool


def _compose(p: Perm, q: Perm) -> Perm:
    """First ``p``, then ``q``: cell c goes to ``q[p[c]]``."""
    return tuple(q[x] for x in p)


def close_group(generators: Sequence[Perm], n: int, cap: int) -> tuple[Perm, ...] | None:
    """Every element of the group the ``generators`` (permutations of ``n`` points) generate,
    the identity first, or None as soon as there are more than ``cap``.

    >>> close_group([(1, 2, 0)], 3, 10)
    ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    >>> close_group([(1, 0, 2), (0, 2, 1)], 3, 5) is None
    True
    """
    identity: Perm = tuple(range(n))
    seen = {identity}
    order = [identity]
    i = 0
    while i < len(order):
        e = order[i]
        i += 1
        for g in generators:
            h = _compose(e, g)
            if h not in seen:
                if len(order) >= cap:
                    return None
                seen.add(h)
                order.append(h)
    return tuple(order)


def _nauty(num_points: int, lines: Sequence[Sequence[Cell]]) -> tuple[list[Perm], int]:
    import pynauty  # imported where used: only boards given by their lines need it

    total = num_points + len(lines)
    adjacency = {num_points + j: list(line) for j, line in enumerate(lines)}
    colouring = [set(range(num_points)), set(range(num_points, total))] if lines else []
    graph = pynauty.Graph(total, adjacency_dict=adjacency, vertex_coloring=colouring)
    gens, size1, size2, _, _ = pynauty.autgrp(graph)
    perms = [tuple(int(x) for x in g[:num_points]) for g in gens]
    identity = tuple(range(num_points))
    perms = [p for p in perms if p != identity]  # a generator that only swaps repeated lines
    return perms, round(size1 * 10**size2)


def line_group(board: object, cap: int = GROUP_CAP) -> LineGroup:
    """The automorphism group of ``board``'s lines (any object with ``num_cells`` and ``lines``),
    its elements listed up to ``cap`` (see the module docstring).
    """
    n: int = board.num_cells  # type: ignore[attr-defined]
    lines: Sequence[Sequence[Cell]] = board.lines  # type: ignore[attr-defined]
    gens, order = _nauty(n, lines)
    elements = close_group(gens, n, cap) if order <= cap else None
    if elements is not None:
        return LineGroup(len(elements), tuple(gens), elements, True)
    kept: list[Perm] = []
    elements = (tuple(range(n)),)
    for g in gens:  # a subgroup: generators added while the closure stays within the cap
        grown = close_group([*kept, g], n, cap)
        if grown is not None:
            kept.append(g)
            elements = grown
    return LineGroup(order, tuple(gens), elements, False)


def maps_lines_onto_lines(perm: Sequence[Cell], lines: Sequence[Sequence[Cell]]) -> bool:
    """Whether ``perm`` maps every line onto a line (the definition, for tests and checks)."""
    as_sets = {frozenset(line) for line in lines}
    return all(frozenset(perm[c] for c in line) in as_sets for line in lines)
