"""The one transposition table (noughts.kernels.table) held to a dictionary.

Each search that uses it is held to its plain reference in its own tests (``tests/exact``,
``tests/pairing``); here the table itself: what is stored is found, nothing else is, the
replacement keeps what its rule says, and a rehash loses nothing.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from noughts.kernels.table import (
    HIT,
    MOVED,
    NEW,
    TWO_TIER,
    Replacement,
    bucket,
    find,
    move_payload,
    place,
    rank_of,
    rehash,
    set_add,
    work_of,
)

LEAST = Replacement(4, 2, 0)
KEEP_SETTLED = Replacement(4, 1, 1 << 40)


@njit(cache=True)
def _store_all(tt_key, tt_rank, tt_val, keys, ranks, rule):  # type: ignore[no-untyped-def]
    """Store ``keys[i]`` with payload ``i`` and rank ``ranks[i]``; the states of the stores."""
    mask = tt_rank.shape[0] - 1
    states = np.zeros(keys.shape[0], dtype=np.int64)
    for n in range(keys.shape[0]):
        i, state = place(tt_key, tt_rank, keys[n], mask, rule, ranks[n])
        if state == MOVED:
            tt_val[i + 1] = tt_val[i]
        if rule.scale != 0 or state == HIT:
            tt_rank[i] = max(tt_rank[i], ranks[n]) if state == HIT else ranks[n]
        tt_val[i] = n
        states[n] = state
    return states


@njit(cache=True)
def _find_all(tt_key, tt_rank, keys, ways):  # type: ignore[no-untyped-def]
    out = np.zeros(keys.shape[0], dtype=np.int64)
    mask = tt_rank.shape[0] - 1
    for n in range(keys.shape[0]):
        out[n] = find(tt_key, tt_rank, keys[n], keys.shape[1], mask, ways)
    return out


def _keys(n: int, words: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, 1 << 62, size=(n, words), dtype=np.int64).astype(np.uint64)
    return np.unique(keys, axis=0)


@pytest.mark.parametrize("rule", [TWO_TIER, LEAST, KEEP_SETTLED])
@pytest.mark.parametrize("words", [2, 3])
def test_a_roomy_table_finds_what_was_stored_and_nothing_else(rule: Replacement, words: int) -> None:
    keys = _keys(300, words, seed=words)
    stored, absent = keys[:200], keys[200:]
    entries = 1 << 14  # no bucket overflows at this load (checked below)
    tt_key = np.zeros((entries, words), dtype=np.uint64)
    tt_rank = np.zeros(entries, dtype=np.int64)
    tt_val = np.full(entries, -1, dtype=np.int64)
    ranks = np.arange(1, len(stored) + 1, dtype=np.int64) * 2
    states = _store_all(tt_key, tt_rank, tt_val, stored, ranks, rule)
    assert set(states.tolist()) <= {NEW, MOVED}
    slots = _find_all(tt_key, tt_rank, stored, rule.ways)
    reference = {bytes(k): n for n, k in enumerate(stored)}
    assert {bytes(stored[n]): int(tt_val[s]) for n, s in enumerate(slots)} == reference
    assert (_find_all(tt_key, tt_rank, absent, rule.ways) == -1).all()
    # storing a key again hits its entry
    again = _store_all(tt_key, tt_rank, tt_val, stored[:10], ranks[:10], rule)
    assert (again == HIT).all()


def _reference(keys: np.ndarray, ranks: np.ndarray, entries: int, rule: Replacement) -> list:
    """The table after the stores, by the module docstring's rules in plain Python: a list of
    (key, rank, payload) or None per slot. Ranks of repeated keys are not merged (the keys are
    distinct)."""
    slots: list = [None] * entries
    for n, (key, rank) in enumerate(zip(keys, ranks, strict=True)):
        first = bucket(key, len(key), entries - 1, rule.ways)
        ways = range(first, first + rule.ways)
        entry = (bytes(key), int(rank), n)
        if rule.scale == 0:
            if slots[first] is None or rank >= slots[first][1]:
                if slots[first] is not None:
                    slots[first + 1] = slots[first]
                slots[first] = entry
            else:
                slots[first + 1] = entry
            continue
        empty = [i for i in ways if slots[i] is None]
        if empty:
            slots[empty[0]] = entry
            continue

        def value(i: int) -> int:
            r = slots[i][1]
            return (r >> 1) * rule.scale + rule.bonus if r & 1 else r >> 1

        slots[min(ways, key=value)] = entry
    return slots


@pytest.mark.parametrize("rule", [TWO_TIER, LEAST, KEEP_SETTLED])
def test_replacement_follows_its_rule_store_by_store(rule: Replacement) -> None:
    """Hundreds of keys into a table of 16 slots: every bucket overflows again and again, and
    the table ends as the plain rules say, slot by slot."""
    keys = _keys(400, 2, seed=9)
    entries = 16
    rng = np.random.default_rng(4)
    ranks = rng.integers(1, 40, size=len(keys)) * 2 + rng.integers(0, 2, size=len(keys))
    tt_key = np.zeros((entries, 2), dtype=np.uint64)
    tt_rank = np.zeros(entries, dtype=np.int64)
    tt_val = np.full(entries, -1, dtype=np.int64)
    _store_all(tt_key, tt_rank, tt_val, keys, ranks, rule)
    got = [
        (bytes(tt_key[i]), int(tt_rank[i]), int(tt_val[i])) if tt_rank[i] else None for i in range(entries)
    ]
    assert got == _reference(keys, ranks, entries, rule)


def test_the_least_valuable_entry_goes_and_settled_ones_are_kept() -> None:
    entries = 4  # one bucket
    tt_key = np.zeros((entries, 2), dtype=np.uint64)
    tt_rank = np.zeros(entries, dtype=np.int64)
    tt_val = np.full(entries, -1, dtype=np.int64)
    keys = _keys(6, 2, seed=11)
    # works 5 (settled), 3, 9, 4: under KEEP_SETTLED the open entry of work 3 goes first,
    # then the one of work 4; under LEAST (settled counts double: 10) likewise
    ranks = np.array([rank_of(5, True), rank_of(3, False), rank_of(9, False), rank_of(4, False)])
    for rule in (LEAST, KEEP_SETTLED):
        tt_rank[:] = 0
        _store_all(tt_key, tt_rank, tt_val, keys[:4], ranks, rule)
        _store_all(tt_key, tt_rank, tt_val, keys[4:5], np.array([rank_of(1, False)]), rule)
        assert sorted(work_of(r) for r in tt_rank) == [1, 4, 5, 9]
        _store_all(tt_key, tt_rank, tt_val, keys[5:6], np.array([rank_of(2, False)]), rule)
        assert sorted(work_of(r) for r in tt_rank) == [2, 4, 5, 9]
    # a settled entry of work 5 is worth 10 under LEAST: an open one of work 12 outlasts it
    tt_rank[:] = 0
    ranks = np.array([rank_of(5, True), rank_of(12, False), rank_of(11, False), rank_of(13, False)])
    _store_all(tt_key, tt_rank, tt_val, keys[:4], ranks, LEAST)
    _store_all(tt_key, tt_rank, tt_val, keys[4:5], np.array([rank_of(1, False)]), LEAST)
    assert find(tt_key, tt_rank, keys[0], 2, entries - 1, 4) == -1
    tt_rank[:] = 0
    _store_all(tt_key, tt_rank, tt_val, keys[:4], ranks, KEEP_SETTLED)
    _store_all(tt_key, tt_rank, tt_val, keys[4:5], np.array([rank_of(1, False)]), KEEP_SETTLED)
    assert find(tt_key, tt_rank, keys[0], 2, entries - 1, 4) >= 0


@pytest.mark.parametrize("rule", [TWO_TIER, LEAST])
def test_a_rehash_keeps_every_entry_and_its_payload(rule: Replacement) -> None:
    keys = _keys(60, 2, seed=5)
    small = 64
    tt_key = np.zeros((small, 2), dtype=np.uint64)
    tt_rank = np.zeros(small, dtype=np.int64)
    tt_val = np.full(small, -1, dtype=np.int64)
    _store_all(tt_key, tt_rank, tt_val, keys, np.arange(1, 61, dtype=np.int64), rule)
    kept = {bytes(tt_key[i]): int(tt_val[i]) for i in np.flatnonzero(tt_rank)}
    big = 1 << 12
    new_key = np.zeros((big, 2), dtype=np.uint64)
    new_rank = np.zeros(big, dtype=np.int64)
    new_val = np.full(big, -1, dtype=np.int64)
    origin = np.zeros(big, dtype=np.int64)
    assert rehash(tt_key, tt_rank, new_key, new_rank, origin, rule) == len(kept)
    move_payload(new_rank, origin, (tt_val,), (new_val,))
    assert {bytes(new_key[i]): int(new_val[i]) for i in np.flatnonzero(new_rank)} == kept


@njit(cache=True)
def _add_all(table, used, keys):  # type: ignore[no-untyped-def]
    out = np.zeros(keys.shape[0], dtype=np.bool_)
    for n in range(keys.shape[0]):
        out[n] = set_add(table, used, keys[n])
    return out


def test_the_set_answers_as_a_python_set() -> None:
    rng = np.random.default_rng(1)
    keys = rng.integers(0, 40, size=(300, 2)).astype(np.uint64)  # many repeats
    table = np.zeros((1024, 2), dtype=np.uint64)
    used = np.zeros(1024, dtype=np.uint8)
    seen: set[bytes] = set()
    expected = []
    for k in keys:
        expected.append(bytes(k) in seen)
        seen.add(bytes(k))
    assert _add_all(table, used, keys).tolist() == expected
    assert int(used.sum()) == len(seen)
