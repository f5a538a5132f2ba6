"""The multi-word kernel: :mod:`noughts.exact._kernels`' search over bitboards of W words.

The same search, function for function (see the docstring of :mod:`noughts.exact._kernels` for
the values, the table, the pruning and the move order), for boards of more than 64 cells: a
player's cells are ``W`` uint64 words (cell ``c`` is bit ``c % 64`` of word ``c // 64``), so
every mask (the players' cells, a line, the empty cells, the threats, the moves left to order)
is a row of ``W`` words, and the table's key is ``2W`` words. What differs from the one-word
kernel:

* the canonical key is computed from the symmetries' permutations, cell by occupied cell
  (the one-word kernel ORs per-byte lookup tables, which would take ``W * 256 * W`` words per
  byte position here), and the least image is the least in the order of the words;
* masks that a node needs briefly live in ``tmp`` (a few rows of W words), the moves still to
  order in ``bits[d, 2]``;
* the table's best move is an int16 (boards of up to 4096 cells).

On boards of at most 64 cells it gives the same values as the one-word kernel (the tests run
both on every position of the small games, the wide one with W = 1 and W = 2); there the
one-word kernel is faster (measured in ``bench/solve_targets.py --wide``), so it stays the
default.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noughts.exact._kernels import (
    CUMULATIVE,
    DONE,
    ENTER,
    EXACT,
    F_ALPHA,
    F_BEST,
    F_BETA,
    F_BMOVE,
    F_CUR,
    F_IDX,
    F_KEYED,
    F_NMOV,
    F_NODES0,
    F_PTS,
    INF,
    MAKER_BREAKER,
    MISERE,
    NEXT,
    P_CELLS,
    P_K,
    P_LINES,
    P_MAKER,
    P_ROOT_EMPTY,
    P_ROOT_MOVER,
    P_RULE,
    P_SYMS,
    P_TT_MASK,
    P_TT_MIN_EMPTY,
    PAUSED,
    RETURN,
    S_DEPTH,
    S_MODE,
    S_NODES,
    S_RET,
    S_STORES,
    SEARCH,
    STANDARD,
    from_node,
    lowest_cell,
    popcount,
    to_node,
)
from noughts.exact.result import WIN

P_WORDS = 5  # the one-word kernel's P_BYTES: here the words per mask

# rows of the per-node scratch masks (tmp[row, :W])
T_EMPTY = 0
T_A = 1
T_B = 2
T_C = 3
T_SEEN = 4
T_IMG = 5  # the image of a position under one symmetry (2W words)
NUM_TMP = 6
"""Rows of ``tmp``, each of 2W words (the first W used but in T_IMG)."""

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_U6 = np.uint64(6)
_U63 = np.uint64(63)
_GOLD = np.uint64(0x9E3779B97F4A7C15)
_MIX = np.uint64(0xC2B2AE3D27D4EB4F)
_U29 = np.uint64(29)
_U32 = np.uint64(32)


# -- masks of W words ------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def has(x: np.ndarray, c: int) -> bool:
    return bool((x[c >> 6] >> np.uint64(c & 63)) & _ONE != _ZERO)


@njit(cache=True, inline="always")
def setbit(x: np.ndarray, c: int) -> None:
    x[c >> 6] |= _ONE << np.uint64(c & 63)


@njit(cache=True, inline="always")
def clearbit(x: np.ndarray, c: int) -> None:
    x[c >> 6] &= ~(_ONE << np.uint64(c & 63))


@njit(cache=True, inline="always")
def wpopcount(x: np.ndarray, w: int) -> int:
    n = 0
    for i in range(w):
        if x[i] != _ZERO:
            n += popcount(x[i])
    return n


@njit(cache=True, inline="always")
def wany(x: np.ndarray, w: int) -> bool:
    for i in range(w):  # noqa: SIM110  (a plain loop: numba compiles it without a generator)
        if x[i] != _ZERO:
            return True
    return False


@njit(cache=True, inline="always")
def wlowest(x: np.ndarray, w: int) -> int:
    """The lowest cell of a mask, -1 if it is empty."""
    for i in range(w):
        if x[i] != _ZERO:
            return 64 * i + lowest_cell(x[i])
    return -1


@njit(cache=True)
def canonical(
    me: np.ndarray, op: np.ndarray, perms: np.ndarray, nsym: int, w: int, key: np.ndarray, img: np.ndarray
) -> None:
    """Write into ``key[:2w]`` the least image (me', op') of a position under the symmetries
    whose permutations are ``perms[:nsym]`` (least in the order of the words, me' first).
    """
    for s in range(nsym):
        for i in range(2 * w):
            img[i] = _ZERO
        for i in range(w):
            x = me[i]
            while x != _ZERO:
                c = perms[s, 64 * i + lowest_cell(x)]
                img[c >> 6] |= _ONE << np.uint64(c & 63)
                x &= x - _ONE
            x = op[i]
            while x != _ZERO:
                c = perms[s, 64 * i + lowest_cell(x)]
                img[w + (c >> 6)] |= _ONE << np.uint64(c & 63)
                x &= x - _ONE
        less = s == 0
        if not less:
            for i in range(2 * w):
                if img[i] != key[i]:
                    less = img[i] < key[i]
                    break
        if less:
            for i in range(2 * w):
                key[i] = img[i]


@njit(cache=True, inline="always")
def bucket(key: np.ndarray, nkey: int, mask: int) -> int:
    h = _ZERO
    for i in range(nkey):
        h = (h ^ key[i]) * _GOLD
        h ^= h >> _U29
    h *= _MIX
    h ^= h >> _U32
    return int(np.intp(h & np.uint64(mask))) & ~1


@njit(cache=True, inline="always")
def _same_key(tt_key: np.ndarray, i: int, key: np.ndarray, nkey: int) -> bool:
    for t in range(nkey):  # noqa: SIM110  (a plain loop: numba compiles it without a generator)
        if tt_key[i, t] != key[t]:
            return False
    return True


@njit(cache=True)
def tt_store(
    tt_key: np.ndarray,
    tt_val: np.ndarray,
    tt_move: np.ndarray,
    tt_work: np.ndarray,
    mask: int,
    key: np.ndarray,
    lo: int,
    hi: int,
    move: int,
    work: int,
) -> int:
    """Store bounds ``lo <= value <= hi`` (node-relative) for ``key``; returns 1 if a new entry
    was written, 0 if an entry for the key was narrowed (as the one-word kernel's).
    """
    nkey = tt_key.shape[1]
    slot = bucket(key, nkey, mask)
    for i in range(slot, slot + 2):
        if tt_work[i] != 0 and _same_key(tt_key, i, key, nkey):
            tt_val[i, 0] = max(tt_val[i, 0], lo)
            tt_val[i, 1] = min(tt_val[i, 1], hi)
            if move >= 0:
                tt_move[i] = move
            if work > tt_work[i]:
                tt_work[i] = work
            return 0
    target = slot + 1
    if work >= tt_work[slot]:  # the first slot keeps the larger subtree, the second any
        if tt_work[slot] != 0:
            for t in range(nkey):
                tt_key[slot + 1, t] = tt_key[slot, t]
            tt_val[slot + 1, 0] = tt_val[slot, 0]
            tt_val[slot + 1, 1] = tt_val[slot, 1]
            tt_move[slot + 1] = tt_move[slot]
            tt_work[slot + 1] = tt_work[slot]
        target = slot
    for t in range(nkey):
        tt_key[target, t] = key[t]
    tt_val[target, 0] = lo
    tt_val[target, 1] = hi
    tt_move[target] = move
    tt_work[target] = work
    return 1


@njit(cache=True)
def tt_rehash(
    old_key: np.ndarray,
    old_val: np.ndarray,
    old_move: np.ndarray,
    old_work: np.ndarray,
    tt_key: np.ndarray,
    tt_val: np.ndarray,
    tt_move: np.ndarray,
    tt_work: np.ndarray,
) -> int:
    """Move every entry of a table into a larger, empty one; returns the entries written."""
    mask = tt_work.shape[0] - 1
    stored = 0
    for i in range(old_work.shape[0]):
        if old_work[i] != 0:
            stored += tt_store(
                tt_key,
                tt_val,
                tt_move,
                tt_work,
                mask,
                old_key[i],
                old_val[i, 0],
                old_val[i, 1],
                old_move[i],
                old_work[i],
            )
    return stored


@njit(cache=True)
def count_lines(prm: np.ndarray, lines: np.ndarray, b0: np.ndarray, b1: np.ndarray, cnt: np.ndarray) -> None:
    """Fill ``cnt[j, p]``: player p's cells on line j."""
    w = prm[P_WORDS]
    for j in range(prm[P_LINES]):
        a = 0
        b = 0
        for i in range(w):
            a += popcount(lines[j, i] & b0[i])
            b += popcount(lines[j, i] & b1[i])
        cnt[j, 0] = a
        cnt[j, 1] = b


@njit(cache=True)
def _paired(
    lines: np.ndarray,
    cnt: np.ndarray,
    nlines: int,
    k: int,
    side: int,
    empty: np.ndarray,
    w: int,
    ncells: int,
    seen: np.ndarray,
    scratch: np.ndarray,
) -> bool:
    """Whether every line ``side`` can still complete gets two empty cells of its own (see the
    one-word kernel's ``_paired``). ``scratch`` holds at least ``ncells + 6 * nlines + 3``
    integers, ``seen`` W words.
    """
    owner = scratch[:ncells]
    base = ncells
    n = 0
    for j in range(nlines):
        if cnt[j, 1 - side] != 0:
            continue
        if k - cnt[j, side] < 2:
            return False  # a line one move from complete
        scratch[base + n] = j
        scratch[base + n + 1] = j
        n += 2
    if n > wpopcount(empty, w):
        return False
    stack_copy = scratch[base + n : base + 2 * n + 1]
    stack_cell = scratch[base + 2 * n + 1 : base + 3 * n + 2]
    for i in range(w):
        x = empty[i]
        while x != _ZERO:
            owner[64 * i + lowest_cell(x)] = -1
            x &= x - _ONE
    for copy in range(n):
        stack_copy[0] = copy
        depth = 0
        for i in range(w):
            seen[i] = _ZERO
        found = False
        while depth >= 0:
            j = scratch[base + stack_copy[depth]]
            c = -1
            for i in range(w):
                cand = lines[j, i] & empty[i] & ~seen[i]
                if cand != _ZERO:
                    c = 64 * i + lowest_cell(cand)
                    break
            if c < 0:
                depth -= 1
                continue
            setbit(seen, c)
            stack_cell[depth] = c
            if owner[c] < 0:  # a free cell: shift the cells along the path
                for level in range(depth, -1, -1):
                    owner[stack_cell[level]] = stack_copy[level]
                found = True
                break
            depth += 1
            stack_copy[depth] = owner[c]
        if not found:
            return False
    return True


@njit(cache=True)
def _evaluate(
    prm: np.ndarray,
    lines: np.ndarray,
    cnt: np.ndarray,
    me: np.ndarray,
    op: np.ndarray,
    mover: int,
    d: int,
    e: int,
    full: np.ndarray,
    tmp: np.ndarray,
    scratch: np.ndarray,
    allowed: np.ndarray,
) -> tuple[int, int, int, int, int]:
    """What the rules say about a node before any move is searched (the one-word kernel's
    ``_evaluate``): ``(kind, value, lb, ub, init)``, and for SEARCH the moves worth searching
    written into ``allowed``.
    """
    rule = prm[P_RULE]
    k = prm[P_K]
    nlines = prm[P_LINES]
    w = prm[P_WORDS]
    ncells = prm[P_CELLS]
    other = 1 - mover
    empty = tmp[T_EMPTY]
    seen = tmp[T_SEEN]
    for i in range(w):
        empty[i] = full[i] & ~(me[i] | op[i])
    if rule == STANDARD:
        thr_o = tmp[T_A]
        live = tmp[T_B]
        for i in range(w):
            thr_o[i] = _ZERO
            live[i] = _ZERO
        win_m = False
        max_m = -1
        max_o = -1
        live_m = 0
        live_o = 0
        for j in range(nlines):
            a = cnt[j, mover]
            b = cnt[j, other]
            if a == 0 or b == 0:
                for i in range(w):
                    live[i] |= lines[j, i]
            if b == 0:
                live_m += 1
                if a > max_m:
                    max_m = a
                if a == k - 1:
                    win_m = True
                    break
            if a == 0:
                live_o += 1
                if b > max_o:
                    max_o = b
                if b == k - 1:
                    for i in range(w):
                        thr_o[i] |= lines[j, i] & ~op[i]
        if win_m:
            return EXACT, WIN - (d + 1), 0, 0, 0
        if e == 0:
            return EXACT, 0, 0, 0, 0
        nthr = wpopcount(thr_o, w)
        if nthr >= 2:
            return EXACT, -(WIN - (d + 2)), 0, 0, 0
        ub = 0
        if max_m >= 0:
            t = 2 * (k - max_m) - 1
            if t <= e:
                ub = WIN - (d + t)
        lb = 0
        if max_o >= 0:
            t = 2 * (k - max_o)
            if t <= e:
                lb = -(WIN - (d + t))
        if (
            ub > 0
            and 2 * live_m <= e
            and _paired(lines, cnt, nlines, k, mover, empty, w, ncells, seen, scratch)
        ):
            ub = 0
        if (
            lb < 0
            and nthr == 0
            and 2 * live_o <= e
            and _paired(lines, cnt, nlines, k, other, empty, w, ncells, seen, scratch)
        ):
            lb = 0
        if lb == ub:
            return EXACT, lb, 0, 0, 0
        if nthr == 1:
            for i in range(w):
                allowed[i] = thr_o[i]
            return SEARCH, 0, lb, ub, (-(WIN - (d + 2)) if e >= 2 else -INF)
        for i in range(w):
            allowed[i] = empty[i] & live[i]
        return SEARCH, 0, lb, ub, -INF
    if rule == MISERE:
        poison = tmp[T_A]
        for i in range(w):
            poison[i] = _ZERO
        live_m = False
        live_o = False
        for j in range(nlines):
            a = cnt[j, mover]
            b = cnt[j, other]
            if b == 0:
                live_m = True
                if a == k - 1:
                    for i in range(w):
                        poison[i] |= lines[j, i] & ~me[i]
            if a == 0:
                live_o = True
        if e == 0:
            return EXACT, 0, 0, 0, 0
        some_poison = False
        for i in range(w):
            allowed[i] = empty[i] & ~poison[i]
            if allowed[i] != empty[i]:
                some_poison = True
        if not wany(allowed, w):
            return EXACT, -(WIN - (d + 1)), 0, 0, 0
        if e == 1:
            return EXACT, 0, 0, 0, 0
        lb = -(WIN - (d + 3)) if live_m and e >= 3 else 0
        ub = WIN - (d + 2) if live_o else 0
        return SEARCH, 0, lb, ub, (-(WIN - (d + 1)) if some_poison else -INF)
    if rule == MAKER_BREAKER:
        maker = prm[P_MAKER]
        breaker = 1 - maker
        maker_bits = me if mover == maker else op
        thr = tmp[T_A]
        hit = tmp[T_B]
        alive = tmp[T_C]
        for i in range(w):
            thr[i] = _ZERO
            hit[i] = full[i]
            alive[i] = _ZERO
        nsurv = 0
        max_a = -1
        for j in range(nlines):
            if cnt[j, breaker] != 0:
                continue
            nsurv += 1
            a = cnt[j, maker]
            if a > max_a:
                max_a = a
            if a == k - 1:
                for i in range(w):
                    thr[i] |= lines[j, i] & ~maker_bits[i]
            for i in range(w):
                hit[i] &= lines[j, i]
                alive[i] |= lines[j, i]
        for i in range(w):
            hit[i] &= empty[i]
        latest = WIN - (d + e)  # Breaker's win when the board is full, at the latest
        if mover == maker:
            if nsurv == 0:  # Breaker has already won (only at a root given so)
                return EXACT, -(WIN - d), 0, 0, 0
            if wany(thr, w):
                return EXACT, WIN - (d + 1), 0, 0, 0
            nhit = wpopcount(hit, w)
            if nhit >= 2:
                return EXACT, -(WIN - (d + 2)), 0, 0, 0
            t = 2 * (k - max_a) - 1
            ub = WIN - (d + t) if t <= e else -latest
            if ub > -latest and _paired(lines, cnt, nlines, k, maker, empty, w, ncells, seen, scratch):
                ub = -latest
            if nhit == 1:
                for i in range(w):
                    allowed[i] = hit[i]
                return SEARCH, 0, -(WIN - (d + 2)), ub, (-(WIN - (d + 2)) if e >= 2 else -INF)
            for i in range(w):
                allowed[i] = empty[i] & alive[i]
            return SEARCH, 0, -(WIN - (d + 4)), ub, -INF
        if nsurv == 0:
            return EXACT, WIN - d, 0, 0, 0
        if wany(hit, w):
            return EXACT, WIN - (d + 1), 0, 0, 0
        nthr = wpopcount(thr, w)
        if nthr >= 2:
            return EXACT, -(WIN - (d + 2)), 0, 0, 0
        t = 2 * (k - max_a)
        lb = -(WIN - (d + t)) if t <= e else latest
        if lb < latest and _paired(lines, cnt, nlines, k, maker, empty, w, ncells, seen, scratch):
            lb = latest
        ub = WIN - (d + 3)
        if lb == ub:
            return EXACT, lb, 0, 0, 0
        if nthr == 1:
            for i in range(w):
                allowed[i] = thr[i]
            return SEARCH, 0, lb, ub, (-(WIN - (d + 2)) if e >= 2 else -INF)
        for i in range(w):
            allowed[i] = empty[i] & alive[i]
        return SEARCH, 0, lb, ub, -INF
    # cumulative
    if e == 0:
        return EXACT, 0, 0, 0, 0
    live = tmp[T_A]
    for i in range(w):
        live[i] = _ZERO
    live_m = 0
    live_o = 0
    for j in range(nlines):
        a = cnt[j, mover]
        b = cnt[j, other]
        if b == 0 and a < k:
            live_m += 1
            for i in range(w):
                live[i] |= lines[j, i]
        if a == 0 and b < k:
            live_o += 1
            for i in range(w):
                live[i] |= lines[j, i]
    ub = (
        0 if live_m > 0 and _paired(lines, cnt, nlines, k, mover, empty, w, ncells, seen, scratch) else live_m
    )
    lb = (
        0
        if live_o > 0 and _paired(lines, cnt, nlines, k, other, empty, w, ncells, seen, scratch)
        else -live_o
    )
    for i in range(w):
        allowed[i] = empty[i] & live[i]
    return SEARCH, 0, lb, ub, -INF


@njit(cache=True)
def _order(
    prm: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    cnt: np.ndarray,
    weights: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    n: int,
    cells: np.ndarray,
    mover: int,
) -> int:
    """Append ``cells`` to ``moves[n:]``, best score first (ties: lower cell first); returns the
    new number of moves.
    """
    role = 1 if prm[P_RULE] == MAKER_BREAKER and mover != prm[P_MAKER] else 0
    first = n
    for word in range(prm[P_WORDS]):
        x = cells[word]
        while x != _ZERO:
            c = 64 * word + lowest_cell(x)
            x &= x - _ONE
            s = 0
            for t in range(nthrough[c]):
                j = through[c, t]
                s += weights[role, cnt[j, mover], cnt[j, 1 - mover]]
            i = n
            while i > first and scores[i - 1] < s:
                scores[i] = scores[i - 1]
                moves[i] = moves[i - 1]
                i -= 1
            scores[i] = s
            moves[i] = c
            n += 1
    return n


@njit(cache=True)
def search(
    prm: np.ndarray,
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    perms: np.ndarray,
    weights: np.ndarray,
    tt_key: np.ndarray,
    tt_val: np.ndarray,
    tt_move: np.ndarray,
    tt_work: np.ndarray,
    bits: np.ndarray,
    keys: np.ndarray,
    stack: np.ndarray,
    moves: np.ndarray,
    cnt: np.ndarray,
    stats: np.ndarray,
    scratch: np.ndarray,
    full: np.ndarray,
    tmp: np.ndarray,
    limit: int,
) -> int:
    """Run the search set up in ``bits[0]``, ``stack[0]`` (window) and ``stats`` for at most
    ``limit`` more nodes, as the one-word kernel's ``search``. ``bits[d]`` holds three masks of
    W words (the mover's cells, the opponent's, the moves still to order), ``keys[d]`` a key of
    2W words.
    """
    rule = prm[P_RULE]
    nsym = prm[P_SYMS]
    w = prm[P_WORDS]
    nkey = 2 * w
    mask = prm[P_TT_MASK]
    root_mover = prm[P_ROOT_MOVER]
    root_empty = prm[P_ROOT_EMPTY]
    tt_min = prm[P_TT_MIN_EMPTY]
    k = prm[P_K]
    img = tmp[T_IMG]

    d = stats[S_DEPTH]
    mode = stats[S_MODE]
    ret = stats[S_RET]
    nodes = stats[S_NODES]
    stores = stats[S_STORES]
    stop = nodes + limit

    while True:
        if mode == ENTER:
            if nodes >= stop:
                stats[S_DEPTH] = d
                stats[S_MODE] = mode
                stats[S_RET] = ret
                stats[S_NODES] = nodes
                stats[S_STORES] = stores
                return PAUSED
            nodes += 1
            me = bits[d, 0]
            op = bits[d, 1]
            alpha = stack[d, F_ALPHA]
            beta = stack[d, F_BETA]
            e = root_empty - d
            mover = (root_mover + d) & 1
            allowed = bits[d, 2]
            kind, v, lb, ub, init = _evaluate(
                prm, lines, cnt, me, op, mover, d, e, full, tmp, scratch, allowed
            )
            if kind == EXACT:
                ret = v
                mode = RETURN
                continue
            if ub <= alpha or lb == ub:
                ret = ub
                mode = RETURN
                continue
            if lb >= beta:
                ret = lb
                mode = RETURN
                continue
            best_move = -1
            keyed = 0
            if e >= tt_min:
                keyed = 1
                key = keys[d]
                canonical(me, op, perms, nsym, w, key, img)
                slot = bucket(key, nkey, mask)
                for i in range(slot, slot + 2):
                    if tt_work[i] != 0 and _same_key(tt_key, i, key, nkey):
                        lo = max(from_node(tt_val[i, 0], d, rule), lb)
                        hi = min(from_node(tt_val[i, 1], d, rule), ub)
                        best_move = tt_move[i]
                        if lo >= beta or lo == hi:
                            ret = lo
                            mode = RETURN
                        elif hi <= alpha:
                            ret = hi
                            mode = RETURN
                        break
                if mode == RETURN:
                    continue
            stack[d, F_KEYED] = keyed
            stack[d, F_NODES0] = nodes
            # the table's best move first; the others (left in bits[d, 2]) are scored only if
            # it does not cut off
            if best_move >= 0 and has(allowed, best_move):
                moves[d, 0] = best_move
                n = 1
                clearbit(allowed, best_move)
            else:
                n = _order(prm, through, nthrough, cnt, weights, moves[d], scratch, 0, allowed, mover)
                for i in range(w):
                    allowed[i] = _ZERO
            stack[d, F_IDX] = 0
            stack[d, F_NMOV] = n
            stack[d, F_BEST] = init
            stack[d, F_BMOVE] = -1
            mode = NEXT
        elif mode == NEXT:
            best = stack[d, F_BEST]
            beta = stack[d, F_BETA]
            idx = stack[d, F_IDX]
            rest = bits[d, 2]
            if idx == stack[d, F_NMOV] and best < beta and wany(rest, w):
                mover = (root_mover + d) & 1
                stack[d, F_NMOV] = _order(
                    prm, through, nthrough, cnt, weights, moves[d], scratch, idx, rest, mover
                )
                for i in range(w):
                    rest[i] = _ZERO
            if best >= beta or idx == stack[d, F_NMOV]:
                bm = stack[d, F_BMOVE]
                if stack[d, F_KEYED] != 0:
                    alpha = stack[d, F_ALPHA]
                    lo = -INF
                    hi = INF
                    if best <= alpha:
                        hi = best
                    elif best >= beta:
                        lo = best
                    else:
                        lo = best
                        hi = best
                    lo = to_node(lo, d, rule)
                    hi = to_node(hi, d, rule)
                    work = 1
                    span = nodes - stack[d, F_NODES0]
                    while span > 0 and work < 255:
                        span >>= 1
                        work += 1
                    stores += tt_store(tt_key, tt_val, tt_move, tt_work, mask, keys[d], lo, hi, bm, work)
                ret = best
                mode = RETURN
                continue
            c = moves[d, idx]
            stack[d, F_IDX] = idx + 1
            stack[d, F_CUR] = c
            mover = (root_mover + d) & 1
            p = 0
            if rule == CUMULATIVE:
                for t in range(nthrough[c]):
                    j = through[c, t]
                    if cnt[j, mover] == k - 1 and cnt[j, 1 - mover] == 0:
                        p += 1
            stack[d, F_PTS] = p
            for t in range(nthrough[c]):
                cnt[through[c, t], mover] += 1
            for i in range(w):
                bits[d + 1, 0, i] = bits[d, 1, i]
                bits[d + 1, 1, i] = bits[d, 0, i]
            setbit(bits[d + 1, 1], c)
            alpha = max(stack[d, F_ALPHA], best)
            stack[d + 1, F_ALPHA] = p - beta
            stack[d + 1, F_BETA] = p - alpha
            d += 1
            mode = ENTER
        else:
            if d == 0:
                stats[S_DEPTH] = 0
                stats[S_MODE] = mode
                stats[S_RET] = ret
                stats[S_NODES] = nodes
                stats[S_STORES] = stores
                return DONE
            d -= 1
            c = stack[d, F_CUR]
            mover = (root_mover + d) & 1
            for t in range(nthrough[c]):
                cnt[through[c, t], mover] -= 1
            v = stack[d, F_PTS] - ret
            if v > stack[d, F_BEST]:
                stack[d, F_BEST] = v
                stack[d, F_BMOVE] = c
            mode = NEXT
