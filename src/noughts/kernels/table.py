"""The one transposition table of the search kernels: hashing, buckets, replacement, rehash.

A table is two arrays the kernels share the shape of, and payload arrays each search defines:

* ``tt_key[i]``: the key of slot ``i`` (``nkey`` uint64 words: a position's canonical image,
  whatever the search keys by; the keys are compared exactly, the hash only picks the bucket);
* ``tt_rank[i]``: the slot's rank, ``0`` for an empty slot, else what the replacement reads
  (the searched subtree's size, its log, and whether the entry is settled; see below);
* the payload: the search's own arrays indexed by slot (bounds and a best move for alpha-beta;
  proof and disproof numbers, a move and a flag for df-pn; numbers, a status, a zone and a
  certificate id for the Breaker prover). The table never reads them: a search writes its
  payload into the slot :func:`place` gives it.

The slots of a key are a **bucket** of ``ways`` (2 or 4) consecutive slots, picked by
:func:`bucket` (a multiply-xorshift hash of the key's words, the golden ratio's and xxHash's
64-bit odd constants (Collet) as multipliers) among ``mask + 1`` slots (a power of two).
Where the bucket holds no entry for the key, a new entry takes a slot by one of two rules
(a :class:`Replacement`):

* **two tiers** (``scale == 0``, buckets of two; alpha-beta): the first slot keeps the entry
  of the larger searched subtree, the second is always replaced: a new entry at least as large
  as the first moves it to the second slot and takes its place (Breuker, Uiterwijk and van den
  Herik, "Replacement schemes for transposition tables", ICCA Journal 1994: TwoDeep);
* **the least valuable** (``scale >= 1``; df-pn and the Breaker prover): an empty slot, else
  the entry of least value, where a rank ``r`` encodes a work ``r >> 1`` and a settled bit
  ``r & 1``, and a settled entry (a proof, a disproof) is worth ``scale`` times its work plus
  ``bonus``: df-pn counts it double, the Breaker prover keeps it before any open one.

:func:`rehash` moves a table into a larger one with the same rule and says, in ``origin``,
which old slot each new one came from, so the caller moves its payload with one NumPy
indexing per array (:func:`move_payload`). Besides the tables, :func:`set_slot` is the
open-addressed set of keys (linear probing over the same hash) that the strategy and misère
walks use to remember the positions they have seen.

Each search is held to its plain reference in its own tests (``tests/exact``,
``tests/pairing``); ``tests/kernels/test_transposition.py`` holds this module to a dictionary.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from noughts.kernels.bits import GOLDEN, ZERO

__all__ = [
    "HIT",
    "MOVED",
    "NEW",
    "TWO_TIER",
    "Replacement",
    "bucket",
    "find",
    "move_payload",
    "place",
    "place_two_tier",
    "rank_of",
    "rehash",
    "same_key",
    "set_add",
    "set_slot",
    "work_of",
]

_U29 = np.uint64(29)
_U32 = np.uint64(32)
_MIX = np.uint64(0xC2B2AE3D27D4EB4F)


class Replacement(NamedTuple):
    """How a new entry takes a slot of its bucket (the module docstring)."""

    ways: int
    """The slots of a bucket (a power of two)."""
    scale: int
    """0: two tiers (``ways`` 2); else a settled entry's work counts ``scale`` times..."""
    bonus: int
    """... plus ``bonus``."""


TWO_TIER = Replacement(2, 0, 0)
"""Alpha-beta's rule: the first slot for the larger subtree, the second always replaced."""

HIT = 0
""":func:`place`: the bucket held the key; its slot is given (its payload to update)."""
NEW = 1
""":func:`place`: a new entry, its key written (its payload to write)."""
MOVED = 2
""":func:`place` under two tiers: a new entry in the first slot, whose entry (key and rank
moved by the table) now sits in the second: the caller moves its payload there first."""


@njit(cache=True, inline="always")
def bucket(key: np.ndarray, nkey: int, mask: int, ways: int) -> int:
    """The first slot of ``key``'s bucket of ``ways`` slots among ``mask + 1``."""
    if nkey == 2:
        b = key[1]
        h = key[0] * GOLDEN + (b ^ (b >> _U29)) * _MIX
    else:
        h = ZERO
        for i in range(nkey):
            h = (h ^ key[i]) * GOLDEN
            h ^= h >> _U29
        h *= _MIX
    h ^= h >> _U32
    return int(np.intp(h & np.uint64(mask))) & ~1 & ~(ways - 1)


@njit(cache=True, inline="always")
def same_key(tt_key: np.ndarray, i: int, key: np.ndarray, nkey: int) -> bool:
    """Whether slot ``i`` holds ``key`` (its first ``nkey`` words)."""
    for t in range(nkey):  # noqa: SIM110  (a plain loop: numba compiles it without a generator)
        if tt_key[i, t] != key[t]:
            return False
    return True


@njit(cache=True, inline="always")
def find(tt_key: np.ndarray, tt_rank: np.ndarray, key: np.ndarray, nkey: int, mask: int, ways: int) -> int:
    """The slot holding ``key`` (``nkey`` words: a constant where the caller knows it, so numba
    unrolls the comparison), or -1.
    """
    slot = bucket(key, nkey, mask, ways)
    for i in range(slot, slot + ways):
        if tt_rank[i] != 0 and same_key(tt_key, i, key, nkey):
            return i
    return -1


@njit(cache=True, inline="always")
def rank_of(work: int, settled: bool) -> int:
    """The rank of an entry of ``work`` (at least 1) under the least-valuable rule."""
    return (work << 1) | (1 if settled else 0)


@njit(cache=True, inline="always")
def work_of(rank: Any) -> Any:
    """The work a rank of the least-valuable rule encodes (0 for an empty slot)."""
    return np.int64(rank) >> 1


@njit(cache=True, inline="always")
def _value(rank: Any, rule: Replacement) -> Any:
    r = np.int64(rank)
    w = r >> 1
    if r & 1:
        return w * rule.scale + rule.bonus
    return w


@njit(cache=True, inline="always")
def place(
    tt_key: np.ndarray, tt_rank: np.ndarray, key: np.ndarray, mask: int, rule: Replacement, rank: int
) -> tuple[int, int]:
    """The slot for ``key`` and :data:`HIT`, :data:`NEW` or :data:`MOVED`. A new entry's key
    is written and, under two tiers, its rank ``rank`` too (the other rule's caller writes the
    rank, which encodes its payload's state); a found entry's rank is the caller's to update.
    """
    nkey = tt_key.shape[1]
    if rule.scale == 0:
        return place_two_tier(tt_key, tt_rank, key, nkey, mask, rank)
    ways = rule.ways
    slot = bucket(key, nkey, mask, ways)
    target = -1
    worst = np.int64(-1)
    for i in range(slot, slot + ways):
        r = tt_rank[i]
        if r == 0:
            if worst != 0:
                target = i
                worst = np.int64(0)
            continue
        if same_key(tt_key, i, key, nkey):
            return i, HIT
        value = _value(r, rule)
        if worst != 0 and (worst < 0 or value < worst):
            target = i
            worst = value
    for t in range(nkey):
        tt_key[target, t] = key[t]
    return target, NEW


@njit(cache=True, inline="always")
def place_two_tier(
    tt_key: np.ndarray, tt_rank: np.ndarray, key: np.ndarray, nkey: int, mask: int, rank: int
) -> tuple[int, int]:
    """:func:`place` under :data:`TWO_TIER` (what it calls; a search that always keeps two tiers
    calls it directly, with no other rule compiled in).
    """
    slot = bucket(key, nkey, mask, 2)
    for i in range(slot, slot + 2):
        if tt_rank[i] != 0 and same_key(tt_key, i, key, nkey):
            return i, HIT
    target = slot + 1
    state = NEW
    if rank >= tt_rank[slot]:  # the first slot keeps the larger subtree, the second any
        if tt_rank[slot] != 0:
            for t in range(nkey):
                tt_key[slot + 1, t] = tt_key[slot, t]
            tt_rank[slot + 1] = tt_rank[slot]
            state = MOVED
        target = slot
    tt_rank[target] = rank
    for t in range(nkey):
        tt_key[target, t] = key[t]
    return target, state


@njit(cache=True)
def rehash(
    old_key: np.ndarray,
    old_rank: np.ndarray,
    tt_key: np.ndarray,
    tt_rank: np.ndarray,
    origin: np.ndarray,
    rule: Replacement,
) -> int:
    """Store every entry of a table into a larger, empty one (the entries in slot order, as the
    search would store them); ``origin[j]`` gets the old slot of new slot ``j``'s entry. Returns
    the entries written (the larger table's count of stores).
    """
    mask = tt_rank.shape[0] - 1
    stored = 0
    for i in range(old_rank.shape[0]):
        r = old_rank[i]
        if r == 0:
            continue
        j, state = place(tt_key, tt_rank, old_key[i], mask, rule, r)
        if state == MOVED:
            origin[j + 1] = origin[j]
        tt_rank[j] = r
        origin[j] = i
        stored += state != HIT
    return stored


def move_payload(
    tt_rank: np.ndarray, origin: np.ndarray, old: tuple[np.ndarray, ...], new: tuple[np.ndarray, ...]
) -> None:
    """After :func:`rehash`: each new payload array gets its old twin's rows where they went."""
    used = np.flatnonzero(tt_rank)
    source = origin[used]
    for before, after in zip(old, new, strict=True):
        after[used] = before[source]


@njit(cache=True, inline="always")
def set_slot(table: np.ndarray, used: np.ndarray, key: np.ndarray) -> int:
    """The slot of ``key`` in an open-addressed set (``used[i] != 0``: slot ``i`` holds a key),
    or the empty slot it would take; the set must keep an empty slot.
    """
    cap = table.shape[0]
    nkey = table.shape[1]
    i = bucket(key, nkey, cap - 1, 2)
    while used[i] != 0:
        if same_key(table, i, key, nkey):
            return i
        i = (i + 1) & (cap - 1)
    return i


@njit(cache=True, inline="always")
def set_add(table: np.ndarray, used: np.ndarray, key: np.ndarray) -> bool:
    """Add ``key`` to an open-addressed set; True if it was there already."""
    i = set_slot(table, used, key)
    if used[i] != 0:
        return True
    used[i] = 1
    for t in range(table.shape[1]):
        table[i, t] = key[t]
    return False
