"""The bigamy corollary of Hall's theorem (002 §5, Proposition 5.1).

Beck, *Ramsey Games*, Theorem 1.4 (Beck's "bigamy corollary"): if every set ``G`` of survivors
satisfies

    |union of the free cells of G|  >=  2 |G|,                                   (2)

then Breaker wins by a pairing strategy. Condition (2) is exactly Hall's condition for the
bipartite graph of 002 §3 (each survivor twice), so it holds if and only if
:func:`noughts.pairing.matching.find_pairing` finds a pairing; this module checks it subset by
subset, for small hypergraphs, and serves as the brute-force reference the tests hold the
matching to.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from noughts.core import LimitExceeded
from noughts.pairing.hypergraph import Residual

__all__ = ["MAX_BIGAMY_EDGES", "BigamyReport", "check_bigamy"]

MAX_BIGAMY_EDGES = 24
"""The most survivors :func:`check_bigamy` enumerates subsets of (2^24 subsets)."""


@dataclass(frozen=True)
class BigamyReport:
    """Result of checking (2) on every non-empty set of survivors.

    ``holds``: (2) holds for all of them. ``worst``: a set (survivor line indices) with the
    least slack ``|N(G)| - 2|G|`` (the first violator when ``holds`` is false), ``slack`` that
    least slack, ``tight``: how many sets meet (2) with equality; ``subsets``: how many sets
    were checked.
    """

    holds: bool
    worst: tuple[int, ...]
    slack: int
    tight: int
    subsets: int


def check_bigamy(res: Residual, max_edges: int = MAX_BIGAMY_EDGES) -> BigamyReport:
    """Check condition (2) of 002 Proposition 5.1 on every non-empty set of survivors.

    >>> import noughts
    >>> from noughts.pairing.hypergraph import residual
    >>> rep = check_bigamy(residual(noughts.game("maker_breaker(mnk(4,4,4))").parse("x.../..o./..../....")))
    >>> rep.holds, rep.subsets
    (True, 127)
    """
    m = len(res.edges)
    if m > max_edges:
        raise LimitExceeded(
            f"{m} survivors have 2^{m} sets: too many to check one by one (at most {max_edges} survivors)"
        )
    if m == 0:
        return BigamyReport(True, (), 0, 0, 0)
    index = {c: j for j, c in enumerate(res.free_cells)}
    words = max(1, (len(res.free_cells) + 63) // 64)
    masks = np.zeros((m, words), dtype=np.uint64)
    for i, edge in enumerate(res.edges):
        for c in edge:
            j = index[c]
            masks[i, j // 64] |= np.uint64(1) << np.uint64(j % 64)
    # unions of every subset by dynamic programming over the subset's lowest bit
    size = 1 << m
    unions = np.zeros((size, words), dtype=np.uint64)
    for i in range(m):
        block = 1 << i
        unions[block : 2 * block] = unions[:block] | masks[i]
    covered = np.bitwise_count(unions).sum(axis=1).astype(np.int64)
    counts = np.bitwise_count(np.arange(size, dtype=np.uint64)).astype(np.int64)
    slack = covered[1:] - 2 * counts[1:]
    worst_index = int(np.argmin(slack)) + 1
    least = int(slack[worst_index - 1])
    worst = tuple(res.survivors[i] for i in range(m) if worst_index >> i & 1)
    return BigamyReport(least >= 0, worst, least, int((slack == 0).sum()), size - 1)
