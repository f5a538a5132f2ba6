"""Numba kernel of threat-space search (:mod:`noughts.proving.threats` is the reference).

The search is the reference's AND/OR search over the attacker's threats (fours, and threes at
order 2) and the defender's answers, written as a loop over an explicit stack so it runs inside
the proof engine's kernel (:mod:`noughts.proving._dfpn_kernels`) at every node. It reads the
position as the proof engine keeps it: ``own[c]`` (-1 empty, else the owner 0/1) and
``cnt[j, p]`` (player p's cells on line j), both updated claim by claim and restored before it
returns, so one compiled version serves every board (one word or many: no masks here).

Where the reference tries every empty cell as the defender's answer, the kernel lists only
those that do not lose at once (the reference's module docstring says why every other answer
loses): after a four, its last cell; after a three, the cells after which no double-four cell
is left, and the defender's counter-fours. The tests hold the two to the same answers.

**Transpositions** (the dependency-based search of Allis 1994, §5.2). A threat that does not
use the cells of an earlier one can be played before or after it: a sequence of ``n``
independent threats reaches one position in ``n!`` orders, and a search over sequences looks
at each of them (from 9 plies of a strong Qubic line, the table cut the positions the
threat searches looked at fourfold: BENCHMARKS.md).
Allis's search keeps each combination of threats once (a threat depends on the earlier
threats whose cells it needs; independent ones are combined, not ordered). The kernel gets
the same effect from a table of the positions it has refuted, keyed by a Zobrist hash
(Zobrist 1970) of the claims on its stack: within one search a position is searched once,
whatever the order of the threats that reached it. Only failures are kept. This is exact: at
an attacker node below the root the result depends on the position alone (the defender's
fours all run through its last answer, the attacker has no winning cell, and the threats
still allowed are the depth less the attacker's claims on the stack), and a failure found
with ``d`` threats allowed holds for any ``d' <= d``. A hash collision could only report a
failure that is not one (a threat win missed: the proof engine then searches the node as any
other), never a win; a win found is always a line of claims that the tests replay. Positions with
fewer than two of the attacker's threats on the stack (one order only) are not kept.

Status codes: :data:`FOUND` (a win by threats; its principal line is in ``pv``),
:data:`NOT_FOUND` (no win within the order and depth), :data:`CUTOFF` (the node limit stopped it:
no answer).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noughts.kernels.codes import CUTOFF, FOUND, NOT_FOUND
from noughts.kernels.counts import mark_counted, unmark_counted

# workspace: fields of a frame (int32 rows of ``frames``)
W_KIND = 0  # 0 attacker to move, 1 defender to answer
W_START = 1  # its candidates: pool[start : start + n]
W_N = 2
W_IDX = 3  # the candidate being searched
W_DEPTH = 4  # the attacker's threats still allowed
NUM_W = 5

# the defender's rules
DEF_LINES = 0  # standard: the defender wins by completing a line of its own
DEF_BREAKER = 1  # Maker-Breaker: the defender wins once every line holds one of its cells


MEMO_SLOTS = 1 << 13
"""Slots of the table of refuted positions (:func:`workspace`'s ``memo``); a power of two."""


def workspace(
    cells: int, max_depth: int, memo_slots: int = MEMO_SLOTS
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Arrays a search of at most ``max_depth`` threats needs: frames, the candidate pool, the
    principal line (and, in its second half, the claims on the stack), two per-cell scratch
    rows (stamps, counts) and the table of refuted positions (``memo``, uint64): ``memo[0]``
    counts the searches run with it (an entry of an earlier search is stale), ``memo[1 + 2c +
    p]`` is the Zobrist key of player p holding cell c (SplitMix64 from a fixed seed), then
    ``memo_slots`` slots of two words: the position's hash, and ``search << 16 | threats
    allowed`` when it was refuted. With ``memo_slots=0`` nothing is kept (every order of the
    threats is searched, as before the table: for comparisons).
    """
    from noughts.kernels.rng import SplitMix64

    if memo_slots < 0 or memo_slots & (memo_slots - 1):
        raise ValueError(f"memo_slots is 0 (no table) or a power of two, not {memo_slots}")
    frames = 2 * max_depth + 3
    memo = np.zeros(1 + 2 * cells + 2 * memo_slots, dtype=np.uint64)
    stream = SplitMix64(0x7155)
    memo[1 : 1 + 2 * cells] = [stream.next() for _ in range(2 * cells)]
    return (
        np.zeros((frames, NUM_W), dtype=np.int32),
        np.zeros(frames * (cells + 1) + 8, dtype=np.int32),
        np.zeros(2 * (frames + 2), dtype=np.int32),
        np.zeros((2, cells + 1), dtype=np.int32),
        memo,
    )


@njit(cache=True, inline="always")
def _stack_hash(memo: np.ndarray, frames: np.ndarray, pv: np.ndarray, t: int, a: int) -> np.uint64:
    """The Zobrist hash of the claims on the stack below frame t (the position relative to the
    search's root).
    """
    h = np.uint64(0)
    for u in range(t):
        p = a if frames[u, W_KIND] == 0 else 1 - a
        h ^= memo[1 + 2 * pv[u] + p]
    return h


@njit(cache=True, inline="always")
def _memo_slot(memo: np.ndarray, cells: int, h: np.uint64) -> int:
    base = 1 + 2 * cells
    nslots = (memo.shape[0] - base) // 2
    return base + 2 * int(np.int64(h >> np.uint64(1)) & (nslots - 1))


@njit(cache=True, inline="always")
def _empty_of(line_cells: np.ndarray, own: np.ndarray, j: int, skip: int) -> int:
    """The first empty cell of line j other than ``skip`` (-1 if none)."""
    for i in range(line_cells.shape[1]):
        c = line_cells[j, i]
        if own[c] < 0 and c != skip:
            return int(c)
    return -1


@njit(cache=True)
def winning_cells(
    line_cells: np.ndarray, cnt: np.ndarray, own: np.ndarray, k: int, p: int, out: np.ndarray
) -> int:
    """Up to two distinct empty cells whose claim completes a line of player p (no cell of the
    other): writes them to ``out[0:2]``, returns how many there are (capped at 2).
    """
    n = 0
    for j in range(cnt.shape[0]):
        if cnt[j, p] == k - 1 and cnt[j, 1 - p] == 0:
            c = _empty_of(line_cells, own, j, -1)
            if n == 0:
                out[0] = c
                n = 1
            elif c != out[0]:
                out[1] = c
                return 2
    return n


@njit(cache=True, inline="always")
def wins_through(
    line_cells: np.ndarray,
    cnt: np.ndarray,
    own: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    k: int,
    p: int,
    c: int,
    out: np.ndarray,
) -> int:
    """Like :func:`winning_cells`, on the lines through cell c only (where a claim of c can
    have made new ones).
    """
    n = 0
    for q in range(nthrough[c]):
        j = through[c, q]
        if cnt[j, p] == k - 1 and cnt[j, 1 - p] == 0:
            for r in range(k):
                e = line_cells[j, r]
                if own[e] < 0:
                    if n == 0:
                        out[0] = e
                        n = 1
                    elif e != out[0]:
                        out[1] = e
                        return 2
                    break
    return n


@njit(cache=True)
def breaker_winning_cells(
    line_cells: np.ndarray,
    cnt: np.ndarray,
    own: np.ndarray,
    breaker: int,
    max_through: int,
    tally: np.ndarray,
    out: np.ndarray,
) -> int:
    """Maker-Breaker: up to two empty cells whose claim leaves no line without a Breaker cell
    (each must lie on every surviving line); returns how many (capped at 2).
    """
    nsurv = 0
    first = -1
    for j in range(cnt.shape[0]):
        if cnt[j, breaker] == 0:
            nsurv += 1
            if first < 0:
                first = j
    if nsurv == 0 or nsurv > max_through:
        return 0
    k = line_cells.shape[1]
    for i in range(k):
        tally[line_cells[first, i]] = 0
    for j in range(cnt.shape[0]):
        if cnt[j, breaker] == 0:
            for i in range(k):
                tally[line_cells[j, i]] += 1
    n = 0
    for i in range(k):
        c = line_cells[first, i]
        if own[c] < 0 and tally[c] == nsurv:
            out[n] = c
            n += 1
            if n == 2:
                return 2
    return n


@njit(cache=True)
def is_double_four(
    line_cells: np.ndarray,
    cnt: np.ndarray,
    own: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    k: int,
    a: int,
    h: int,
    avoid: int,
) -> bool:
    """Whether the attacker's claim of empty cell ``h`` would leave two winning cells, counting
    only lines without cell ``avoid`` (-1: all lines): two lines through h with k-2 attacker
    cells and no defender cell whose other empty cells differ.
    """
    other = -1
    for t in range(nthrough[h]):
        j = through[h, t]
        if cnt[j, a] == k - 2 and cnt[j, 1 - a] == 0:
            hit = False
            for i in range(k):
                if line_cells[j, i] == avoid:
                    hit = True
            if hit:
                continue
            c = _empty_of(line_cells, own, j, h)
            if other < 0:
                other = c
            elif c != other:
                return True
    return False


@njit(cache=True)
def has_double_four_cell(
    line_cells: np.ndarray,
    cnt: np.ndarray,
    own: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    k: int,
    a: int,
) -> bool:
    """Whether the attacker has a double-four cell anywhere."""
    for j in range(cnt.shape[0]):
        if cnt[j, a] == k - 2 and cnt[j, 1 - a] == 0:
            for i in range(k):
                c = line_cells[j, i]
                if own[c] < 0 and is_double_four(line_cells, cnt, own, through, nthrough, k, a, c, -1):
                    return True
    return False


@njit(cache=True)
def _push_empties(
    line_cells: np.ndarray,
    cnt: np.ndarray,
    own: np.ndarray,
    k: int,
    p: int,
    level: int,
    pool: np.ndarray,
    top: int,
    mark: np.ndarray,
    stamp: int,
) -> int:
    """Append to ``pool[top:]`` the empty cells (once each) of the lines with ``level`` cells of
    player p and none of the other; returns the new top.
    """
    for j in range(cnt.shape[0]):
        if cnt[j, p] == level and cnt[j, 1 - p] == 0:
            for i in range(k):
                c = line_cells[j, i]
                if own[c] < 0 and mark[c] != stamp:
                    mark[c] = stamp
                    pool[top] = c
                    top += 1
    return top


@njit(cache=True)
def _defender_answers(
    line_cells: np.ndarray,
    cnt: np.ndarray,
    own: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    k: int,
    a: int,
    counter_fours: bool,
    pool: np.ndarray,
    top: int,
    mark: np.ndarray,
    stamp: int,
    hs: np.ndarray,
) -> int:
    """After the attacker's three: the defender's answers that do not lose at once, appended
    to ``pool[top:]`` (the cells after which no double-four cell is left, then its
    counter-fours); returns the new top. ``hs`` is scratch for the double-four cells.
    """
    d = 1 - a
    nh = 0
    for j in range(cnt.shape[0]):
        if cnt[j, a] == k - 2 and cnt[j, d] == 0:
            for i in range(k):
                c = line_cells[j, i]
                if own[c] < 0 and mark[c] != stamp:
                    mark[c] = stamp
                    if is_double_four(line_cells, cnt, own, through, nthrough, k, a, c, -1):
                        hs[nh] = c
                        nh += 1
    stamp += 1
    start = top
    for x in range(nh):
        h = hs[x]
        for t in range(nthrough[h]):
            j = through[h, t]
            if cnt[j, a] != k - 2 or cnt[j, d] != 0:
                continue
            for i in range(k):
                c = line_cells[j, i]
                if own[c] >= 0 or mark[c] == stamp:
                    continue
                mark[c] = stamp
                stops = True
                for y in range(nh):
                    if hs[y] != c and is_double_four(line_cells, cnt, own, through, nthrough, k, a, hs[y], c):
                        stops = False
                        break
                if stops:
                    pool[top] = c
                    top += 1
    if counter_fours:
        for j in range(cnt.shape[0]):
            if cnt[j, d] == k - 2 and cnt[j, a] == 0:
                for i in range(k):
                    c = line_cells[j, i]
                    if own[c] < 0:
                        seen = False
                        for q in range(start, top):
                            if pool[q] == c:
                                seen = True
                                break
                        if not seen:
                            pool[top] = c
                            top += 1
    return top


@njit(cache=True)
def threat_search(
    line_cells: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    cnt: np.ndarray,
    own: np.ndarray,
    k: int,
    a: int,
    defender_rule: int,
    max_order: int,
    max_depth: int,
    node_limit: int,
    nempty: int,
    frames: np.ndarray,
    pool: np.ndarray,
    line: np.ndarray,
    scratch: np.ndarray,
    memo: np.ndarray,
    result: np.ndarray,
) -> int:
    """Search for a win by threats of attacker ``a`` (who moves now) from the position in
    ``own``/``cnt`` (restored on return). Returns FOUND, NOT_FOUND or CUTOFF; ``result`` gets
    ``[nodes, principal line length]`` and ``line`` the principal line: the attacker's claims
    and the defender's answers in turn, ending with the claim that completes the attacker's
    line, or with a double four (a claim that leaves two winning cells).

    Invariant of the stack: every frame below the top one holds its claim (``pv[t]``, the
    attacker's in an attacker frame, the defender's in a defender frame); a frame takes its
    claim back as soon as its child frame hands up a result.
    """
    d = 1 - a
    mark = scratch[0]
    tally = scratch[1]
    pv = line[line.shape[0] // 2 :]  # the claims on the stack (the line is in the first half)
    max_through = through.shape[1]
    two = np.zeros(2, dtype=np.int32)
    counter = defender_rule == DEF_LINES
    stamp = 1
    for c in range(mark.shape[0]):
        mark[c] = 0
    cells = own.shape[0]
    memo[0] += np.uint64(1)
    gen = memo[0] << np.uint64(16)
    use_memo = memo.shape[0] > 1 + 2 * cells
    nodes = 0
    linelen = 0
    status = NOT_FOUND
    t = 0
    top = 0
    frames[0, W_KIND] = 0
    frames[0, W_DEPTH] = max_depth
    frames[0, W_START] = 0
    frames[0, W_N] = -1  # not generated yet
    frames[0, W_IDX] = 0
    ret = -1  # what the child frame just handed up: 1 the attacker won, 0 it failed; -1 none
    while True:
        r = -1  # this frame's result, once it has one
        if frames[t, W_KIND] == 0:
            # -- the attacker to move: one threat that wins suffices -----------------------------
            idx = 0
            if frames[t, W_N] < 0:
                nodes += 1
                if nodes > node_limit:
                    status = CUTOFF
                    break
                # only the root can hold a winning cell of the attacker: deeper, its last threat
                # made at most one, and the defender's answer took it (or it was a three)
                if t == 0 and winning_cells(line_cells, cnt, own, k, a, two) > 0:
                    if _principal(frames, t):
                        for u in range(t):
                            line[u] = pv[u]
                        line[t] = two[0]
                        linelen = t + 1
                    r = 1
                elif (
                    use_memo
                    and t >= 4
                    and _refuted(memo, cells, _stack_hash(memo, frames, pv, t, a), gen, frames[t, W_DEPTH])
                ):
                    r = 0
                else:
                    if counter and t == 0:
                        nblock = winning_cells(line_cells, cnt, own, k, d, two)
                    elif counter:
                        # the defender's fours: none before its answer (the attacker blocked any),
                        # so only on the lines through the answer
                        nblock = wins_through(line_cells, cnt, own, through, nthrough, k, d, pv[t - 1], two)
                    else:
                        nblock = breaker_winning_cells(line_cells, cnt, own, d, max_through, tally, two)
                    depth = frames[t, W_DEPTH]
                    if nblock >= 2 or depth == 0 or nempty == 0:
                        r = 0
                    else:
                        start = top
                        if nblock == 1:
                            pool[top] = two[0]
                            top += 1
                        else:
                            stamp += 1
                            top = _push_empties(line_cells, cnt, own, k, a, k - 2, pool, top, mark, stamp)
                            # a double four wins at once: search it first
                            for q in range(start, top):
                                if is_double_four(line_cells, cnt, own, through, nthrough, k, a, pool[q], -1):
                                    x = pool[start]
                                    pool[start] = pool[q]
                                    pool[q] = x
                                    break
                            if max_order >= 2 and depth >= 2:
                                # threes: cells of lines with k-3 attacker cells (the marks keep fours out)
                                top = _push_empties(line_cells, cnt, own, k, a, k - 3, pool, top, mark, stamp)
                        frames[t, W_START] = start
                        frames[t, W_N] = top - start
            else:
                unmark_counted(own, cnt, through, nthrough, pv[t], a, -1)
                nempty += 1
                if ret == 1:
                    r = 1
                else:
                    idx = frames[t, W_IDX] + 1
            if r < 0:
                start = frames[t, W_START]
                n = frames[t, W_N]
                opened = False
                while idx < n:
                    g = pool[start + idx]
                    mark_counted(own, cnt, through, nthrough, g, a, a)
                    nempty -= 1
                    nw = 0
                    for q in range(nthrough[g]):
                        j = through[g, q]
                        if cnt[j, a] == k - 1 and cnt[j, d] == 0:
                            c = _empty_of(line_cells, own, j, -1)
                            if nw == 0:
                                two[0] = c
                                nw = 1
                            elif c != two[0]:
                                nw = 2
                                break
                    nxt = start + n
                    answers = -1
                    if nw >= 2:
                        answers = 0  # a double four: no answer holds
                    elif nw == 1:
                        pool[nxt] = two[0]
                        answers = 1
                    elif (
                        max_order >= 2
                        and frames[t, W_DEPTH] >= 2
                        and has_double_four_cell(line_cells, cnt, own, through, nthrough, k, a)
                    ):
                        stamp += 1
                        end = _defender_answers(
                            line_cells,
                            cnt,
                            own,
                            through,
                            nthrough,
                            k,
                            a,
                            counter,
                            pool,
                            nxt,
                            mark,
                            stamp,
                            tally,
                        )
                        stamp += 1
                        answers = end - nxt
                    if answers < 0:  # not a threat
                        unmark_counted(own, cnt, through, nthrough, g, a, -1)
                        nempty += 1
                        idx += 1
                        continue
                    pv[t] = g
                    frames[t, W_IDX] = idx
                    u = t + 1
                    frames[u, W_KIND] = 1
                    frames[u, W_START] = nxt
                    frames[u, W_N] = answers
                    frames[u, W_IDX] = -1
                    frames[u, W_DEPTH] = frames[t, W_DEPTH] - 1
                    top = nxt + answers
                    t = u
                    ret = -1
                    opened = True
                    break
                if opened:
                    continue
                r = 0
        else:
            # -- the defender answers a threat: every answer must lose ---------------------------
            start = frames[t, W_START]
            n = frames[t, W_N]
            idx = frames[t, W_IDX]
            if idx < 0:
                nodes += 1
                if nodes > node_limit:
                    status = CUTOFF
                    break
                if n == 0 and _principal(frames, t):
                    for u in range(t):
                        line[u] = pv[u]
                    linelen = t  # ends with the double four
            else:
                unmark_counted(own, cnt, through, nthrough, pv[t], d, -1)
                nempty += 1
                if ret == 0:
                    r = 0
            opened = False
            while r < 0:
                idx += 1
                if idx >= n:
                    r = 1  # every answer lost
                    break
                c = pool[start + idx]
                mark_counted(own, cnt, through, nthrough, c, d, d)
                nempty -= 1
                lost = nempty == 0  # a full board: a draw
                if not lost and defender_rule == DEF_BREAKER:
                    lost = True  # Breaker wins if its claim left no line without a Breaker cell
                    for j in range(cnt.shape[0]):
                        if cnt[j, d] == 0:
                            lost = False
                            break
                elif not lost:
                    for q in range(nthrough[c]):
                        if cnt[through[c, q], d] == k:
                            lost = True
                            break
                if lost:
                    unmark_counted(own, cnt, through, nthrough, c, d, -1)
                    nempty += 1
                    r = 0
                    break
                pv[t] = c
                frames[t, W_IDX] = idx
                u = t + 1
                frames[u, W_KIND] = 0
                frames[u, W_DEPTH] = frames[t, W_DEPTH]
                frames[u, W_N] = -1
                frames[u, W_IDX] = 0
                frames[u, W_START] = start + n
                top = start + n
                t = u
                ret = -1
                opened = True
                break
            if opened:
                continue
        # the frame has its result r: hand it up
        if use_memo and r == 0 and t >= 4 and frames[t, W_KIND] == 0:
            h = _stack_hash(memo, frames, pv, t, a)
            slot = _memo_slot(memo, cells, h)
            memo[slot] = h
            memo[slot + 1] = gen | np.uint64(min(frames[t, W_DEPTH], 0xFFFF))
        top = frames[t, W_START]
        if t == 0:
            status = FOUND if r == 1 else NOT_FOUND
            break
        t -= 1
        ret = r
    # a cutoff leaves claims on the stack: take them back
    for u in range(t - 1, -1, -1):
        if frames[u, W_KIND] == 0:
            unmark_counted(own, cnt, through, nthrough, pv[u], a, -1)
        else:
            unmark_counted(own, cnt, through, nthrough, pv[u], d, -1)
    result[0] = nodes
    result[1] = linelen if status == FOUND else 0
    return status


@njit(cache=True, inline="always")
def _refuted(memo: np.ndarray, cells: int, h: np.uint64, gen: np.uint64, depth: int) -> bool:
    """Whether this search refuted the position of hash h with at least ``depth`` threats allowed."""
    slot = _memo_slot(memo, cells, h)
    word = memo[slot + 1]
    return (
        memo[slot] == h
        and (word & ~np.uint64(0xFFFF)) == gen
        and int(np.int64(word & np.uint64(0xFFFF))) >= depth
    )


@njit(cache=True, inline="always")
def _principal(frames: np.ndarray, t: int) -> bool:
    """Whether frame t lies on the principal line: every defender frame below it is at its
    first answer.
    """
    for u in range(t):  # noqa: SIM110 (a loop numba compiles)
        if frames[u, W_KIND] == 1 and frames[u, W_IDX] != 0:
            return False
    return True
