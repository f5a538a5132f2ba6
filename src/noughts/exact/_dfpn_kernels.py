"""Numba kernel of the proof engine: depth-first proof-number search with threats at its nodes.

:mod:`noughts.exact.proof` is its Python face; :mod:`noughts.exact.pns` is the plain df-pn the
tests hold it to. The search answers one question about a claim game (standard, misère,
Maker-Breaker or cumulative rules): can the *attacker* reach its *goal* (``prm[P_GOAL]``: a
win, or at least a draw; under cumulative rules a final score difference of at least the goal)
whatever the defender does? Positions where the attacker moves are OR nodes, the others AND
nodes. A node's proof number (``pn``) bounds the leaves still to prove for a proof, its
disproof number (``dn``) those for a disproof; ``pn = 0`` is a proof, ``dn = 0`` a disproof.

**The search** is Nagai's df-pn (PhD thesis, Tokyo 2002): a node is searched until its proof
number reaches a threshold or its disproof number another, the child with the smallest number
is searched next with thresholds that send the search back up as soon as a sibling becomes the
better choice, and the 1 + epsilon trick of Pawlewicz and Lew (Computers and Games 2006) widens
the child's threshold by a quarter against thrashing. It runs as a loop over an explicit stack
held in arrays, so it stops after a number of nodes and goes on where it stopped when called
again (the driver checks the budget between the slices) and needs no recursion.

**The position** is kept as the threat search keeps it (:mod:`noughts.exact._tss_kernels`):
``own[c]`` (the owner of each cell, -1 empty) and ``cnt[j, p]`` (player p's cells on line j),
changed claim by claim along the path. Rules, threats and move lists read these, so the kernel
has one compiled version for every board, one word or many.

**The transposition table** is keyed by the position's least image under the board's
symmetries (up to ``prm[P_SYMS]`` of them; on boards of at most 64 cells the rows of ``perms``
after the first ``prm[P_BOARD_SYMS]`` are the board's other line automorphisms: Qubic has 192): ``img[t, s]`` holds the image of the position at
depth t under symmetry s as ``2W`` words (the first player's cells, then the second's), so a
child's key is the least of ``img[t, s]`` with one bit added, per symmetry: a few operations
instead of mapping every cell. Children with the same key (symmetric moves) are searched once.
Entries sit in buckets of four; a new entry replaces the least valuable one (settled entries,
proofs and disproofs, count double their searched subtrees): the table of
:mod:`noughts.kernels.table`, whose rank (``tt_work``) is the work and the settled bit. Each entry keeps the
node's numbers, the move that settled it (the proving child of a proven OR node, the
disproving child of a disproven AND node) and how it was settled.

**Threats at the nodes** (standard rules for either side, Maker in Maker-Breaker): where the
side to move can win by threats (:func:`noughts.exact._tss_kernels.threat_search`), the node
is settled at once. Otherwise the search asks what the *other* side could win by fours if the
mover passed (a null move): a move that does not answer that threat sequence leaves it
standing, so each child is checked by replaying the sequence against it (:func:`replay`: every
answer forced, the defender's counter-fours checked), and the children where it still wins are
settled without search: only moves that answer the pending threat are searched. A side with an
immediate win takes it, one whose opponent has two wins loses, and one whose opponent has one
must block it (only that move is searched). Cells on no line either side can still complete
are not searched under standard and cumulative rules, nor cells on no line Breaker has left
untouched in Maker-Breaker: claiming one is worth a pass, and claiming a cell is never worse
than passing there (an extra cell never hurts its owner: Beck 2008).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noughts.exact._tss_kernels import (
    DEF_BREAKER,
    DEF_LINES,
    breaker_winning_cells,
    threat_search,
    winning_cells,
    wins_through,
)
from noughts.kernels.codes import (
    CUMULATIVE,
    CUTOFF,
    DONE,
    ENTER,
    FOUND,
    LOOP,
    MAKER_BREAKER,
    MISERE,
    OWN_STATUS,
    PAUSED,
    RETURN,
    STANDARD,
)
from noughts.kernels.counts import mark_counted, unmark_counted
from noughts.kernels.table import HIT, Replacement, find, place, rank_of, work_of

# rules: noughts.core.Rule, as the ints of noughts.kernels.codes (CUMULATIVE, MAKER_BREAKER,
# MISERE, STANDARD are imported above)

INF = (1 << 31) - 1
"""The proof number of a disproven node (and the disproof number of a proven one)."""

# kernel status: DONE, PAUSED (noughts.kernels.codes), or
GROW = OWN_STATUS  # the child pool is full: the driver enlarges it and calls again
GROW_TABLE = OWN_STATUS + 1  # more entries were written than the table holds: the driver enlarges it

# modes of the stack machine

# parameters
P_RULE = 0
P_K = 1
P_CELLS = 2
P_LINES = 3
P_SYMS = 4
P_WORDS = 5
P_ATTACKER = 6
P_GOAL = 7
P_MAKER = 8
P_TT_MASK = 9
P_TSS_ORDER = 10  # 0: no threat search at the nodes
P_TSS_DEPTH = 11
P_TSS_NODES = 12
P_NULL_MOVE = 13  # 1: the null-move threat check of the children
P_THREATS = 14  # bit p: player p's lines win (threats apply to p)
P_ROOT_EMPTY = 15
P_ROOT_MOVER = 16
P_SYM_STONES = 17  # positions with at most this many claimed cells are keyed under symmetry
P_EAGER = 18  # bit 1: threat search for each child where the attacker moves; bit 2: for each attacker move, whether it threatens (its initial numbers); bit 4: a move that threatens starts at proof number 1
P_TT_GROW = 19  # 1: the table may still grow (the kernel stops with GROW_TABLE once it is full)
P_BOARD_SYMS = 20  # perms' first rows that are board symmetries (the rest: other automorphisms)
NUM_PARAMS = 21

# statistics and the saved state of the machine
S_NODES = 0
S_DEPTH = 1
S_MODE = 2
S_TOP = 3  # the child pool's first free slot
S_STORES = 4  # new table entries written
S_TSS = 5  # threat searches run
S_TSS_WON = 6  # nodes settled by a threat search
S_REPLAY_WON = 7  # children settled by a replayed threat sequence
S_PN = 8  # the root's numbers when done
S_DN = 9
S_LOOPS = 10  # passes over a node's children
S_TSS_NODES = 11  # positions the threat searches looked at
S_TSS_CUT = 12  # threat searches stopped by their node limit
NUM_STATS = 13

# fields of a frame
F_THPN = 0
F_THDN = 1
F_BASE = 2  # the children: pool[base : base + n]
F_N = 3
F_BEST = 4  # the child being searched
F_NODES0 = 5
F_PN = 6
F_DN = 7
F_FORCED = 8
F_NO_NULL = 9  # 1: the null-move threat search here found nothing (so the child's mover has no win by fours)
NUM_FIELDS = 10

# how a table entry was settled (tt_flag)
FL_SEARCHED = 1  # expanded: its threat searches were run and found nothing
FL_THREATS = 2  # settled by a threat search at the node
FL_REPLAY = 3  # settled by replaying its parent's null-move threat sequence
FL_RULE = 4  # settled by the rules (an immediate win, two threats, a bound)

_ONE = np.uint64(1)


# -- the table (noughts.kernels.table; the payload is this search's) ------------------------------


TABLE = Replacement(4, 2, 0)
"""Buckets of four; a new entry replaces the least valuable one, a settled entry (a proof or a
disproof) counting double its work."""

WORK_CAP = 0x7FFFFFFF
"""The most work an entry records (its rank, work and settled bit, fits the uint32 ``tt_work``)."""


@njit(cache=True)
def tt_store(
    tt_key: np.ndarray,
    tt_pn: np.ndarray,
    tt_dn: np.ndarray,
    tt_move: np.ndarray,
    tt_work: np.ndarray,
    tt_flag: np.ndarray,
    mask: int,
    key: np.ndarray,
    pn: int,
    dn: int,
    move: int,
    work: int,
    flag: int,
) -> int:
    """Store a node's numbers; returns 1 if a new entry was written (0: one was updated).
    ``tt_work`` is the table's rank (:func:`noughts.kernels.table.rank_of`).
    """
    i, state = place(tt_key, tt_work, key, mask, TABLE, 0)
    settled = pn == 0 or dn == 0
    work = min(work, WORK_CAP)
    if state == HIT:
        tt_pn[i] = pn
        tt_dn[i] = dn
        if move >= 0 or settled:
            tt_move[i] = move
        tt_work[i] = rank_of(max(work_of(tt_work[i]), work), settled)
        if flag != FL_SEARCHED or tt_flag[i] == 0:
            tt_flag[i] = flag
        return 0
    tt_pn[i] = pn
    tt_dn[i] = dn
    tt_move[i] = move
    tt_work[i] = rank_of(max(1, work), settled)
    tt_flag[i] = flag
    return 1


@njit(cache=True)
def tt_lookup(
    tt_key: np.ndarray,
    tt_pn: np.ndarray,
    tt_dn: np.ndarray,
    tt_move: np.ndarray,
    tt_work: np.ndarray,
    tt_flag: np.ndarray,
    mask: int,
    key: np.ndarray,
    out: np.ndarray,
) -> bool:
    """``out`` gets ``[pn, dn, move, flag]`` of ``key``'s entry; False if there is none."""
    i = find(tt_key, tt_work, key, tt_key.shape[1], mask, TABLE.ways)
    if i < 0:
        return False
    out[0] = tt_pn[i]
    out[1] = tt_dn[i]
    out[2] = tt_move[i]
    out[3] = tt_flag[i]
    return True


# -- the position --------------------------------------------------------------------------------


@njit(cache=True)
def claim_result(
    prm: np.ndarray, cnt: np.ndarray, through: np.ndarray, nthrough: np.ndarray, c: int, x: int, nempty: int
) -> int:
    """The game after player x claimed cell c (``cnt`` already counts it; ``nempty`` empty cells
    left): -1 running, else the winner (0, 1) or 2 for a draw. Cumulative rules: -1 until the
    board is full, then 3 (the score decides: :func:`score_difference`).
    """
    rule = prm[P_RULE]
    k = prm[P_K]
    if rule == CUMULATIVE:
        return 3 if nempty == 0 else -1
    if rule == MAKER_BREAKER and x != prm[P_MAKER]:
        for j in range(cnt.shape[0]):
            if cnt[j, x] == 0:
                return -1
        return x  # Breaker touched the last line Maker could complete
    for t in range(nthrough[c]):
        if cnt[through[c, t], x] == k:
            if rule == MISERE:
                return 1 - x
            return x
    if nempty == 0:
        return 2
    return -1


@njit(cache=True)
def score_difference(prm: np.ndarray, cnt: np.ndarray) -> int:
    """Cumulative rules: the first player's completed lines minus the second's."""
    k = prm[P_K]
    s = 0
    for j in range(cnt.shape[0]):
        if cnt[j, 0] == k:
            s += 1
        elif cnt[j, 1] == k:
            s -= 1
    return s


@njit(cache=True, inline="always")
def _settles(prm: np.ndarray, winner: int) -> int:
    """Whether a finished game with ``winner`` (0, 1, 2 a draw) reaches the attacker's goal:
    1 a proof, 0 a disproof.
    """
    a = prm[P_ATTACKER]
    r = 0 if winner == 2 else (1 if winner == a else -1)
    return 1 if r >= prm[P_GOAL] else 0


@njit(cache=True)
def _final(prm: np.ndarray, cnt: np.ndarray, result: int) -> int:
    """1 (proof) or 0 (disproof) for a finished game (``result`` from :func:`claim_result`)."""
    if result == 3:
        diff = score_difference(prm, cnt)
        if prm[P_ATTACKER] == 1:
            diff = -diff
        return 1 if diff >= prm[P_GOAL] else 0
    return _settles(prm, result)


@njit(cache=True)
def _bound(prm: np.ndarray, cnt: np.ndarray) -> int:
    """What the lines still open settle at once: 1 a proof, 0 a disproof, -1 nothing."""
    rule = prm[P_RULE]
    k = prm[P_K]
    a = prm[P_ATTACKER]
    d = 1 - a
    goal = prm[P_GOAL]
    live_a = 0  # lines the attacker could still complete (no defender cell)
    live_d = 0
    done_a = 0  # lines completed (cumulative rules)
    done_d = 0
    for j in range(cnt.shape[0]):
        ca = cnt[j, a]
        cd = cnt[j, d]
        if ca == k:
            done_a += 1
        elif cd == k:
            done_d += 1
        else:
            if cd == 0:
                live_a += 1
            if ca == 0:
                live_d += 1
    if rule == STANDARD:
        if goal >= 1 and live_a == 0:
            return 0  # the attacker can complete no line
        if goal <= 0 and live_d == 0:
            return 1  # the defender can complete none
    elif rule == MISERE:
        # the attacker wins when the defender completes a line, loses when it completes one
        if goal >= 1 and live_d == 0:
            return 0
        if goal <= 0 and live_a == 0:
            return 1
    elif rule == CUMULATIVE:
        if done_a + live_a - done_d < goal:
            return 0
        if done_a - done_d - live_d >= goal:
            return 1
    return -1


@njit(cache=True)
def _wins_at_once(
    prm: np.ndarray,
    line_cells: np.ndarray,
    cnt: np.ndarray,
    own: np.ndarray,
    p: int,
    max_through: int,
    tally: np.ndarray,
    out: np.ndarray,
) -> int:
    """The cells (up to two) whose claim would win for player p at once; 0 where p wins no
    game by one claim (misère, cumulative).
    """
    rule = prm[P_RULE]
    if rule == STANDARD or (rule == MAKER_BREAKER and p == prm[P_MAKER]):
        return winning_cells(line_cells, cnt, own, prm[P_K], p, out)
    if rule == MAKER_BREAKER:
        return breaker_winning_cells(line_cells, cnt, own, p, max_through, tally, out)
    return 0


@njit(cache=True)
def replay(
    prm: np.ndarray,
    line_cells: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    cnt: np.ndarray,
    own: np.ndarray,
    y: int,
    seq: np.ndarray,
    n: int,
    moved: int,
    nempty: int,
    undo: np.ndarray,
    tally: np.ndarray,
) -> bool:
    """Whether player y still wins by the fours of ``seq[:n]`` (its claims and the forced
    answers in turn, as :func:`threat_search` wrote them from the parent position, where y
    had no winning cell and the other side none either) now that the other side has claimed
    ``moved``. Every answer is forced; the other side's counter-fours (only ever on lines
    through its own new cells) must be blocked by y's next claim; a claim that threatens
    nothing, or an answer other than the forced one, ends the replay without a win. The
    position in ``own``/``cnt`` is restored on return.
    """
    k = prm[P_K]
    x = 1 - y
    two = np.zeros(2, dtype=np.int32)
    nu = 0
    won = False
    i = 0
    breaker = prm[P_RULE] == MAKER_BREAKER
    if breaker:
        nx = breaker_winning_cells(line_cells, cnt, own, x, through.shape[1], tally, two)
    else:
        nx = wins_through(line_cells, cnt, own, through, nthrough, k, x, moved, two)
    while nx < 2 and i < n:
        g = seq[i]
        if own[g] >= 0 or (nx == 1 and two[0] != g):
            break
        # a claim that completes y's line wins (the line's last claim)
        for q in range(nthrough[g]):
            j = through[g, q]
            if cnt[j, y] == k - 1 and cnt[j, x] == 0:
                won = True
                break
        if won:
            break
        mark_counted(own, cnt, through, nthrough, g, y, y)
        undo[nu] = g
        nu += 1
        nempty -= 1
        nw = wins_through(line_cells, cnt, own, through, nthrough, k, y, g, two)
        if nw >= 2:
            won = True
            break
        if nw == 0 or i + 1 >= n or seq[i + 1] != two[0]:
            break
        c = two[0]
        mark_counted(own, cnt, through, nthrough, c, x, x)
        undo[nu] = c
        nu += 1
        nempty -= 1
        if claim_result(prm, cnt, through, nthrough, c, x, nempty) >= 0:
            break  # the answer finished the game (the other side won, or a draw)
        if breaker:
            nx = breaker_winning_cells(line_cells, cnt, own, x, through.shape[1], tally, two)
        else:
            nx = wins_through(line_cells, cnt, own, through, nthrough, k, x, c, two)
        i += 2
    for u in range(nu - 1, -1, -1):
        c = undo[u]
        unmark_counted(own, cnt, through, nthrough, c, own[c], -1)
    return won


@njit(cache=True)
def _eager_win(
    prm: np.ndarray,
    line_cells: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    cnt: np.ndarray,
    own: np.ndarray,
    y: int,
    nempty: int,
    tss_frames: np.ndarray,
    tss_pool: np.ndarray,
    tss_line: np.ndarray,
    tss_scratch: np.ndarray,
    tss_memo: np.ndarray,
    tres: np.ndarray,
    stats: np.ndarray,
) -> bool:
    """Whether y, to move, wins by threats (a threat search of the node's own kind)."""
    stats[S_TSS] += 1
    st = threat_search(
        line_cells,
        through,
        nthrough,
        cnt,
        own,
        prm[P_K],
        y,
        DEF_BREAKER if prm[P_RULE] == MAKER_BREAKER else DEF_LINES,
        prm[P_TSS_ORDER],
        prm[P_TSS_DEPTH],
        prm[P_TSS_NODES],
        nempty,
        tss_frames,
        tss_pool,
        tss_line,
        tss_scratch,
        tss_memo,
        tres,
    )
    stats[S_TSS_NODES] += tres[0]
    if st == CUTOFF:
        stats[S_TSS_CUT] += 1
    if st == FOUND:
        stats[S_TSS_WON] += 1
        return True
    return False


# -- the search ------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _cap(x: int) -> int:
    return INF - 1 if x >= INF else x


@njit(cache=True)
def _child_key(
    img: np.ndarray, t: int, perms: np.ndarray, nsym: int, w: int, c: int, x: int, key: np.ndarray
) -> int:
    """The key of the position at depth t after player x claims c: the least over the
    symmetries of ``img[t, s]`` with the image of c added to x's words. Returns the symmetry
    that gives it (the table keeps moves in the key's coordinates: ``perms[s, move]``).
    """
    nk = 2 * w
    best = 0
    for s in range(nsym):
        pc = perms[s, c]
        xq = x * w + (pc >> 6)
        xb = _ONE << np.uint64(pc & 63)
        less = s == 0
        if not less:
            for q in range(nk):
                v = img[t, s, q]
                if q == xq:
                    v |= xb
                if v != key[q]:
                    less = v < key[q]
                    break
        if less:
            best = s
            for q in range(nk):
                key[q] = img[t, s, q]
            key[xq] |= xb
    return best


@njit(cache=True)
def _score(
    cnt: np.ndarray, through: np.ndarray, nthrough: np.ndarray, weights: np.ndarray, c: int, x: int
) -> int:
    s = 0
    for t in range(nthrough[c]):
        j = through[c, t]
        s += weights[cnt[j, x], cnt[j, 1 - x]]
    return s


@njit(cache=True)
def dfpn(
    prm: np.ndarray,
    line_cells: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    perms: np.ndarray,
    weights: np.ndarray,
    tt_key: np.ndarray,
    tt_pn: np.ndarray,
    tt_dn: np.ndarray,
    tt_move: np.ndarray,
    tt_work: np.ndarray,
    tt_flag: np.ndarray,
    img: np.ndarray,
    keys: np.ndarray,
    frames: np.ndarray,
    pool_move: np.ndarray,
    pool_key: np.ndarray,
    pool_pn: np.ndarray,
    pool_dn: np.ndarray,
    pool_sym: np.ndarray,
    node_sym: np.ndarray,
    own: np.ndarray,
    cnt: np.ndarray,
    tss_frames: np.ndarray,
    tss_pool: np.ndarray,
    tss_line: np.ndarray,
    tss_scratch: np.ndarray,
    tss_memo: np.ndarray,
    seq: np.ndarray,
    stats: np.ndarray,
    limit: int,
) -> int:
    """Run the search set up at depth 0 (``own``, ``cnt``, ``img[0]``, ``keys[0]``, ``frames[0]``
    thresholds, ``stats``) for at most ``limit`` more nodes. Returns DONE (the root's numbers
    are in ``stats[S_PN]``, ``stats[S_DN]``), PAUSED (call again to go on) or GROW (enlarge the
    child pool, then call again).
    """
    k = prm[P_K]
    mask = prm[P_TT_MASK]
    nsym = prm[P_SYMS]
    w = prm[P_WORDS]
    nk = 2 * w
    attacker = prm[P_ATTACKER]
    root_empty = prm[P_ROOT_EMPTY]
    root_mover = prm[P_ROOT_MOVER]
    tss_order = prm[P_TSS_ORDER]
    cells = prm[P_CELLS]
    tally = tss_scratch[1]
    mark = np.zeros(cells, dtype=np.int64)  # the move list's stamps (the threat search has its own)
    stamp = 0
    two = np.zeros(2, dtype=np.int32)
    look = np.zeros(4, dtype=np.int64)
    tres = np.zeros(2, dtype=np.int64)
    undo = np.zeros(2 * cells + 4, dtype=np.int32)

    t = stats[S_DEPTH]
    mode = stats[S_MODE]
    top = stats[S_TOP]
    nodes = stats[S_NODES]
    stores = stats[S_STORES]
    stop = nodes + limit
    ret_pn = 0
    ret_dn = 0
    status = DONE
    while True:
        if mode == ENTER:
            if nodes >= stop:
                status = PAUSED
                break
            if top + cells + 1 > pool_move.shape[0]:
                status = GROW
                break
            if prm[P_TT_GROW] != 0 and stores > tt_work.shape[0]:
                status = GROW_TABLE  # at a node boundary, so the search does not depend on the slices
                break
            nodes += 1
            x = (root_mover + t) & 1
            y = 1 - x
            is_or = x == attacker
            nempty = root_empty - t
            key = keys[t]
            settled = -1  # 1 proof, 0 disproof
            smove = -1
            sflag = FL_RULE
            searched = False
            from_table = False
            if tt_lookup(tt_key, tt_pn, tt_dn, tt_move, tt_work, tt_flag, mask, key, look):
                if look[0] == 0 or look[1] == 0:
                    from_table = True
                    settled = 1 if look[0] == 0 else 0
                    smove = look[2]
                    sflag = look[3]
                else:
                    searched = look[3] == FL_SEARCHED
            forced = -1
            if settled < 0:
                settled = _bound(prm, cnt)
            if settled < 0:
                # the rules: an immediate win, the opponent's threats
                nwin = _wins_at_once(prm, line_cells, cnt, own, x, through.shape[1], tally, two)
                if nwin > 0:
                    settled = 1 if is_or else 0
                    smove = two[0]
                else:
                    nlose = _wins_at_once(prm, line_cells, cnt, own, y, through.shape[1], tally, two)
                    if nlose >= 2:
                        settled = 0 if is_or else 1
                    elif nlose == 1:
                        forced = two[0]
            # the parent's null move asked what x wins by fours with the parent's mover passing;
            # if nothing, x wins nothing by fours here either (the opponent's extra cell never
            # helps x's fours)
            skip = tss_order == 1 and t > 0 and frames[t - 1, F_NO_NULL] == 1
            if settled < 0 and tss_order > 0 and not searched and not skip and (prm[P_THREATS] >> x) & 1:
                stats[S_TSS] += 1
                st = threat_search(
                    line_cells,
                    through,
                    nthrough,
                    cnt,
                    own,
                    k,
                    x,
                    DEF_BREAKER if prm[P_RULE] == MAKER_BREAKER else DEF_LINES,
                    tss_order,
                    prm[P_TSS_DEPTH],
                    prm[P_TSS_NODES],
                    nempty,
                    tss_frames,
                    tss_pool,
                    tss_line,
                    tss_scratch,
                    tss_memo,
                    tres,
                )
                stats[S_TSS_NODES] += tres[0]
                if st == CUTOFF:
                    stats[S_TSS_CUT] += 1
                if st == FOUND:
                    stats[S_TSS_WON] += 1
                    settled = 1 if is_or else 0
                    smove = tss_line[0]
                    sflag = FL_THREATS
            if settled >= 0:
                pn = 0 if settled == 1 else INF
                dn = INF if settled == 1 else 0
                if smove >= 0 and not from_table:
                    smove = perms[node_sym[t], smove]  # a move found here: into the key's coordinates
                stores += tt_store(
                    tt_key, tt_pn, tt_dn, tt_move, tt_work, tt_flag, mask, key, pn, dn, smove, 1, sflag
                )
                ret_pn = pn
                ret_dn = dn
                mode = RETURN
                continue
            # -- the children ------------------------------------------------------------------
            base = top
            n = 0
            if forced >= 0:
                pool_move[base] = forced
                n = 1
            else:
                rule = prm[P_RULE]
                stamp += 1
                if rule == MISERE:
                    for c in range(cells):
                        if own[c] < 0:
                            pool_move[base + n] = c
                            n += 1
                else:
                    for j in range(cnt.shape[0]):
                        if rule == MAKER_BREAKER:
                            live = cnt[j, 1 - prm[P_MAKER]] == 0
                        else:
                            live = (cnt[j, 0] == 0 or cnt[j, 1] == 0) and cnt[j, 0] < k and cnt[j, 1] < k
                        if live:
                            for r in range(k):
                                c = line_cells[j, r]
                                if own[c] < 0 and mark[c] != stamp:
                                    mark[c] = stamp
                                    pool_move[base + n] = c
                                    n += 1
                # best first by the ordering score (insertion sort; pool_pn holds the scores)
                for i in range(n):
                    c = pool_move[base + i]
                    sc = _score(cnt, through, nthrough, weights, c, x)
                    q = i
                    while q > 0 and pool_pn[base + q - 1] < sc:
                        pool_pn[base + q] = pool_pn[base + q - 1]
                        pool_move[base + q] = pool_move[base + q - 1]
                        q -= 1
                    pool_pn[base + q] = sc
                    pool_move[base + q] = c
            if n == 0:
                # no cell on a line anyone can complete: the result is fixed now
                # a draw, or the final score (Maker-Breaker never gets here)
                settled = _final(prm, cnt, 3) if prm[P_RULE] == CUMULATIVE else _settles(prm, 2)
                pn = 0 if settled == 1 else INF
                dn = INF if settled == 1 else 0
                stores += tt_store(
                    tt_key, tt_pn, tt_dn, tt_move, tt_work, tt_flag, mask, key, pn, dn, -1, 1, FL_RULE
                )
                ret_pn = pn
                ret_dn = dn
                mode = RETURN
                continue
            # the null move: what the other side wins by fours if the mover passes
            nseq = 0
            no_null = 0
            if (
                forced < 0
                and not searched
                and prm[P_NULL_MOVE] != 0
                and tss_order > 0
                and (prm[P_THREATS] >> y) & 1
                and n > 1
            ):
                stats[S_TSS] += 1
                st = threat_search(
                    line_cells,
                    through,
                    nthrough,
                    cnt,
                    own,
                    k,
                    y,
                    DEF_BREAKER if prm[P_RULE] == MAKER_BREAKER else DEF_LINES,
                    1,
                    prm[P_TSS_DEPTH],
                    prm[P_TSS_NODES],
                    nempty,
                    tss_frames,
                    tss_pool,
                    tss_line,
                    tss_scratch,
                    tss_memo,
                    tres,
                )
                stats[S_TSS_NODES] += tres[0]
                if st == CUTOFF:
                    stats[S_TSS_CUT] += 1
                if st == FOUND:
                    nseq = tres[1]
                    for i in range(nseq):
                        seq[i] = tss_line[i]
                elif st == 0:
                    no_null = 1
            kept = 0
            # the children's keys: under symmetry while few cells are claimed (where symmetric
            # positions are many and cheap to merge), the position itself deeper down
            child_stones = cells - nempty + 1
            csyms = nsym if child_stones <= prm[P_SYM_STONES] else 1
            for i in range(n):
                c = pool_move[base + i]
                ck = pool_key[base + kept]
                pool_sym[base + kept] = _child_key(img, t, perms, csyms, w, c, x, ck)
                dup = False
                for q in range(kept if csyms > 1 else 0):
                    same = True
                    for z in range(nk):
                        if pool_key[base + q, z] != ck[z]:
                            same = False
                            break
                    if same:
                        dup = True
                        break
                if dup:
                    continue
                pool_move[base + kept] = c
                mark_counted(own, cnt, through, nthrough, c, x, x)
                res = claim_result(prm, cnt, through, nthrough, c, x, nempty - 1)
                cpn = 1
                cdn = 1
                if res >= 0:
                    fin = _final(prm, cnt, res)
                    cpn = 0 if fin == 1 else INF
                    cdn = INF if fin == 1 else 0
                elif tt_lookup(tt_key, tt_pn, tt_dn, tt_move, tt_work, tt_flag, mask, ck, look):
                    cpn = look[0]
                    cdn = look[1]
                else:
                    if nseq > 0 and replay(
                        prm, line_cells, through, nthrough, cnt, own, y, seq, nseq, c, nempty - 1, undo, tally
                    ):
                        stats[S_REPLAY_WON] += 1
                        # y wins from the child: a proof where y attacks, else a disproof
                        cpn = 0 if y == attacker else INF
                        cdn = INF if y == attacker else 0
                        stores += tt_store(
                            tt_key,
                            tt_pn,
                            tt_dn,
                            tt_move,
                            tt_work,
                            tt_flag,
                            mask,
                            ck,
                            cpn,
                            cdn,
                            perms[pool_sym[base + kept], seq[0]],
                            1,
                            FL_REPLAY,
                        )
                    elif (
                        prm[P_EAGER] & 1
                        and y == attacker
                        and no_null == 0
                        and tss_order > 0
                        and (prm[P_THREATS] >> y) & 1
                        and _eager_win(
                            prm,
                            line_cells,
                            through,
                            nthrough,
                            cnt,
                            own,
                            y,
                            nempty - 1,
                            tss_frames,
                            tss_pool,
                            tss_line,
                            tss_scratch,
                            tss_memo,
                            tres,
                            stats,
                        )
                    ):
                        cpn = 0
                        cdn = INF
                        stores += tt_store(
                            tt_key,
                            tt_pn,
                            tt_dn,
                            tt_move,
                            tt_work,
                            tt_flag,
                            mask,
                            ck,
                            0,
                            INF,
                            perms[pool_sym[base + kept], tss_line[0]],
                            1,
                            FL_THREATS,
                        )
                    else:
                        # initial numbers: a move that threatens to win has one answer
                        replies = n - 1
                        if prm[P_EAGER] & 2 and is_or and tss_order > 0 and (prm[P_THREATS] >> x) & 1:
                            # the attacker's quiet move: does it threaten a win by fours (the
                            # defender must answer it, in the few cells of the sequence)?
                            stats[S_TSS] += 1
                            st = threat_search(
                                line_cells,
                                through,
                                nthrough,
                                cnt,
                                own,
                                k,
                                x,
                                DEF_BREAKER if prm[P_RULE] == MAKER_BREAKER else DEF_LINES,
                                1,
                                prm[P_TSS_DEPTH],
                                prm[P_TSS_NODES],
                                nempty - 1,
                                tss_frames,
                                tss_pool,
                                tss_line,
                                tss_scratch,
                                tss_memo,
                                tres,
                            )
                            stats[S_TSS_NODES] += tres[0]
                            if st == CUTOFF:
                                stats[S_TSS_CUT] += 1
                            if st != FOUND:
                                replies = 2 * replies
                            elif prm[P_EAGER] & 4:
                                replies = 1  # as good as a four: the threat is what df-pn tries first
                            else:
                                replies = max(1, min(replies, tres[1]))
                        if (prm[P_THREATS] >> x) & 1:
                            for q in range(nthrough[c]):
                                j = through[c, q]
                                if cnt[j, x] == k - 1 and cnt[j, y] == 0:
                                    replies = 1
                                    break
                        if replies < 1:
                            replies = 1
                        if is_or:
                            cpn = replies
                        else:
                            cdn = replies
                unmark_counted(own, cnt, through, nthrough, c, x, -1)
                pool_pn[base + kept] = cpn
                pool_dn[base + kept] = cdn
                kept += 1
                if (is_or and cpn == 0) or (not is_or and cdn == 0):
                    break
            n = kept
            top = base + n
            frames[t, F_BASE] = base
            frames[t, F_N] = n
            frames[t, F_NODES0] = nodes
            frames[t, F_FORCED] = 1 if forced >= 0 else 0
            frames[t, F_NO_NULL] = no_null
            mode = LOOP
        elif mode == LOOP:
            stats[S_LOOPS] += 1
            x = (root_mover + t) & 1
            is_or = x == attacker
            base = frames[t, F_BASE]
            n = frames[t, F_N]
            # the node's numbers from its children (refreshed from the table)
            best = -1
            b1 = INF + 1
            b2 = INF + 1
            total = 0
            settled_child = -1
            # (the children's numbers are those read when the node was expanded, and those the
            # searched children handed back; a transposition that changed a sibling's entry
            # since is seen when the node is next expanded)
            for i in range(n):
                cpn = pool_pn[base + i]
                cdn = pool_dn[base + i]
                if is_or:
                    mine = cpn
                    other = cdn
                else:
                    mine = cdn
                    other = cpn
                if mine == 0:
                    settled_child = i
                if mine < b1:
                    b2 = b1
                    b1 = mine
                    best = i
                elif mine < b2:
                    b2 = mine
                if other >= INF:
                    total = INF
                elif total < INF:
                    total = _cap(total + other)
            if b1 > INF:
                b1 = INF
            # for an OR node (pn, dn) = (b1, total); for an AND node (total, b1)
            if is_or:
                pn = b1
                dn = total
                th_mine = frames[t, F_THPN]
                th_other = frames[t, F_THDN]
            else:
                pn = total
                dn = b1
                th_mine = frames[t, F_THDN]
                th_other = frames[t, F_THPN]
            if pn == 0 or dn == 0 or pn >= frames[t, F_THPN] or dn >= frames[t, F_THDN]:
                move = -1
                if settled_child >= 0:
                    move = perms[node_sym[t], pool_move[base + settled_child]]
                work = nodes - frames[t, F_NODES0] + 1
                stores += tt_store(
                    tt_key,
                    tt_pn,
                    tt_dn,
                    tt_move,
                    tt_work,
                    tt_flag,
                    mask,
                    keys[t],
                    pn,
                    dn,
                    move,
                    work,
                    FL_SEARCHED,
                )
                frames[t, F_PN] = pn
                frames[t, F_DN] = dn
                top = base
                ret_pn = pn
                ret_dn = dn
                mode = RETURN
                continue
            # the child to search, and its thresholds (1 + epsilon)
            if b2 > INF:
                b2 = INF
            c_mine = min(th_mine, b2 + b2 // 4 + 1)
            c_other_cur = pool_dn[base + best] if is_or else pool_pn[base + best]
            c_other = th_other - total + c_other_cur
            if c_other > INF:
                c_other = INF
            if is_or:
                frames[t + 1, F_THPN] = c_mine
                frames[t + 1, F_THDN] = c_other
            else:
                frames[t + 1, F_THDN] = c_mine
                frames[t + 1, F_THPN] = c_other
            frames[t, F_BEST] = best
            c = pool_move[base + best]
            # claim it: the position, the images, the key
            mark_counted(own, cnt, through, nthrough, c, x, x)
            # the images the child's children need
            gsyms = nsym if cells - (root_empty - t) + 2 <= prm[P_SYM_STONES] else 1
            for s in range(gsyms):
                pc = perms[s, c]
                for q in range(nk):
                    img[t + 1, s, q] = img[t, s, q]
                img[t + 1, s, x * w + (pc >> 6)] |= _ONE << np.uint64(pc & 63)
            for q in range(nk):
                keys[t + 1, q] = pool_key[base + best, q]
            node_sym[t + 1] = pool_sym[base + best]
            t += 1
            mode = ENTER
        else:
            # RETURN: hand (ret_pn, ret_dn) to the parent
            if t == 0:
                stats[S_PN] = ret_pn
                stats[S_DN] = ret_dn
                status = DONE
                mode = ENTER
                break
            t -= 1
            x = (root_mover + t) & 1
            base = frames[t, F_BASE]
            best = frames[t, F_BEST]
            unmark_counted(own, cnt, through, nthrough, pool_move[base + best], x, -1)
            pool_pn[base + best] = ret_pn
            pool_dn[base + best] = ret_dn
            top = base + frames[t, F_N]
            mode = LOOP
    stats[S_DEPTH] = t
    stats[S_MODE] = mode
    stats[S_TOP] = top
    stats[S_NODES] = nodes
    stats[S_STORES] = stores
    return status
