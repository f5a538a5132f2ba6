"""Numba kernel of the Breaker prover (:mod:`noughts.pairing.breaker` is its Python face).

The same question and the same zones as the reference (:mod:`noughts.pairing.breaker_reference`,
whose docstring says why a zone keeps a proof valid), searched best-first: depth-first
proof-number search (df-pn; Nagai 2002, with the 1 + epsilon trick of Pawlewicz and Lew 2006),
over an explicit stack so that the search runs in slices and the driver checks the budget
between them (the model of :mod:`noughts.exact._kernels`). Breaker's nodes are OR nodes, Maker's
AND nodes; proof = Breaker wins the question.

At each new node, before any child (exact, each settles the node):

* the game is over: Maker completed a line (disproved), or under standard rules Breaker did
  (proved; the zone keeps a witness cell of each line Maker could still complete), or no line
  is left to Maker, or the board is full (proved);
* the side to move completes a line at once (a line missing one cell of its own, none of the
  other's): Maker to move (disproved), Breaker to move under standard rules (proved);
* Breaker has a pairing (the block search of :mod:`noughts.pairing._cover_kernels`: pairs may
  serve several overlapping lines): proved, the zone is the pairs' cells.

Children: every free cell, one per orbit of the position's stabiliser in the board's symmetry
group (the symmetries that map Maker's cells and Breaker's cells onto themselves); at Breaker's
nodes the cells on no line either side could still complete are left out (such a move is a pass,
and a pass is never better than a claim). Zones prune: at a Maker node a proved child's zone
``Z`` answers every Maker move outside ``Z`` (and outside each image of ``Z`` under the
stabiliser); at a Breaker node a disproved child's zone refutes every Breaker move outside it.
A node's own zone is the union of its settled children's zones and moves, closed under the
stabiliser (so a certificate's covering can be checked without the symmetry).

Masks of cells are rows of ``W`` uint64 words (cell ``c`` is bit ``c % 64`` of word
``c // 64``); the lowest cell comes from :mod:`noughts.kernels.bits`. The
transposition table (:mod:`noughts.kernels.table`) is keyed by the exact position (both sides'
masks), in buckets of four, replacing the least-worked unsolved entry; a proved entry keeps the id of
its node in the proof store, which the driver turns into a certificate.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noughts.kernels.bits import lowest_cell
from noughts.kernels.codes import DONE, ENTER, LOOP, OWN_STATUS, PAUSED, RETURN, STANDARD
from noughts.kernels.counts import mark_counted, unmark_counted
from noughts.kernels.table import HIT, Replacement, find, place, rank_of
from noughts.pairing._cover_kernels import FOUND, find_cover

__all__ = ["search"]

INF = 1 << 40

# status of a search call: DONE, PAUSED (noughts.kernels.codes), or
FULL = OWN_STATUS  # the proof store or the stack needs more room: grow and call again

# results
OPEN = 0
PROVED = 1
DISPROVED = 2
COVERED = 3  # a child answered (or refuted) by a sibling's zone


# modes of the stack machine

# parameter array
P_K = 0
P_CELLS = 1
P_LINES = 2
P_WORDS = 3
P_RULE = 4
P_SYMS = 5
P_TT_MASK = 6
P_STEP_CAP = 7
P_RECORD = 8  # 1: keep the proof store
P_MAX_DEPTH = 9
P_EPS_NUM = 10  # the 1 + epsilon trick: thresholds times (EPS_NUM / EPS_DEN)
P_EPS_DEN = 11
P_AND_NUM = 12
P_AND_DEN = 13
NUM_P = 14

# stats array
S_NODES = 0  # nodes entered
S_DEPTH = 1  # the stack's depth (the machine's state)
S_MODE = 2
S_RESULT = 3  # the root's result when DONE
S_PAIRINGS = 4  # pairing searches run
S_PAIRED = 5  # pairing searches that found one
S_TT_STORES = 6
S_STORE_NODES = 7  # proof store: nodes used
S_STORE_CELLS = 8
S_STORE_BRANCHES = 9
S_MAX_DEPTH = 10
S_COVERED = 11  # children settled by a sibling's zone
S_ROOT_PN = 12
S_ROOT_DN = 13
S_ROOT_CERT = 14
S_STEPS = 15  # augmenting paths spent by the pairing searches
S_RET_PN = 16
S_RET_DN = 17
S_RET_STATUS = 18
S_RET_CERT = 19
S_CAPPED = 20  # pairing searches stopped by the step cap
NUM_S = 21

# proof store kinds
K_PAIRS = 0
K_WITNESS = 1
K_BREAKER = 2
K_MAKER = 3
K_IMAGE = 4  # node ``a`` seen through symmetry ``b``


@njit(cache=True, inline="always")
def _has(x: np.ndarray, c: int) -> bool:  # pragma: no cover - numba
    has: bool = (x[c >> 6] >> np.uint64(c & 63)) & np.uint64(1) != np.uint64(0)
    return has


@njit(cache=True, inline="always")
def _set(x: np.ndarray, c: int) -> None:  # pragma: no cover
    x[c >> 6] |= np.uint64(1) << np.uint64(c & 63)


@njit(cache=True, inline="always")
def _clear(x: np.ndarray, c: int) -> None:  # pragma: no cover
    x[c >> 6] &= ~(np.uint64(1) << np.uint64(c & 63))


@njit(cache=True)
def _image(perm: np.ndarray, x: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """``out`` = the image of the cells of ``x`` under the permutation ``perm``."""
    for i in range(out.shape[0]):
        out[i] = np.uint64(0)
    for i in range(x.shape[0]):
        w = x[i]
        while w != np.uint64(0):
            c = 64 * i + lowest_cell(w)
            w &= w - np.uint64(1)
            v = perm[c]
            out[v >> 6] |= np.uint64(1) << np.uint64(v & 63)


TABLE = Replacement(4, 1, INF)
"""The table of :mod:`noughts.kernels.table`: buckets of four, a new entry replacing the least
worked one, a settled one (proved, disproved, covered) only when all four are settled. Its rank
is column 4 of ``tt_int`` (the other columns: pn, dn, status, cert; 5 the side to move, 6 the
work)."""


@njit(cache=True, inline="always")
def _probe_key(tt_key: np.ndarray, m: np.ndarray, b: np.ndarray) -> np.ndarray:  # pragma: no cover
    """The position's key (Maker's words, then Breaker's) in the row after the table's last
    slot, which the driver allocates as the kernel's key buffer.
    """
    key: np.ndarray = tt_key[tt_key.shape[0] - 1]
    w = m.shape[0]
    for t in range(w):
        key[t] = m[t]
        key[w + t] = b[t]
    return key


@njit(cache=True)
def _tt_find(
    tt_key: np.ndarray, tt_int: np.ndarray, mask: int, m: np.ndarray, b: np.ndarray, side: int
) -> int:  # pragma: no cover
    """The slot holding the position, or -1.

    The side to move follows from the cells in one search (play alternates from one root); it
    is kept and compared all the same.
    """
    i = find(tt_key, tt_int[:, 4], _probe_key(tt_key, m, b), tt_key.shape[1], mask, TABLE.ways)
    if i >= 0 and tt_int[i, 5] != side:
        return -1
    return i


@njit(cache=True)
def _tt_store(
    tt_key: np.ndarray,
    tt_int: np.ndarray,
    tt_zone: np.ndarray,
    mask: int,
    m: np.ndarray,
    b: np.ndarray,
    side: int,
    pn: int,
    dn: int,
    status: int,
    zone: np.ndarray,
    cert: int,
    work: int,
) -> int:  # pragma: no cover
    """Store a node's numbers; returns 1 if a new slot was taken. Columns of ``tt_int``: pn, dn,
    status, cert, rank, side, work.
    """
    w = m.shape[0]
    i, state = place(tt_key, tt_int[:, 4], _probe_key(tt_key, m, b), mask, TABLE, 0)
    if state == HIT and tt_int[i, 5] == side and tt_int[i, 2] != OPEN and status == OPEN:
        return 0  # never overwrite a settled entry with numbers
    tt_int[i, 0] = pn
    tt_int[i, 1] = dn
    tt_int[i, 2] = status
    tt_int[i, 3] = cert
    tt_int[i, 5] = side
    if work > tt_int[i, 6]:  # (a new entry keeps the larger work of the one it replaced, as before)
        tt_int[i, 6] = work
    tt_int[i, 4] = rank_of(tt_int[i, 6] + 1, status != OPEN)
    if status != OPEN:
        for t in range(w):
            tt_zone[i, t] = zone[t]
    return 0 if state == HIT else 1


@njit(cache=True)
def _witness(
    prm: np.ndarray,
    line_cells: np.ndarray,
    cnt: np.ndarray,
    own: np.ndarray,
    side: int,
    out: np.ndarray,
) -> None:  # pragma: no cover
    """OR into ``out`` the lowest free cell of each line ``side`` (1 Maker, 2 Breaker) could
    still complete (none of the other side's cells) that ``out`` does not already meet.
    """
    k = prm[P_K]
    other = 3 - side
    for j in range(prm[P_LINES]):
        if cnt[j, other - 1] != 0:
            continue
        met = False
        first = -1
        for i in range(k):
            c = line_cells[j, i]
            if own[c] == 0:
                if _has(out, c):
                    met = True
                    break
                if first < 0 or c < first:
                    first = c
        if not met and first >= 0:
            _set(out, first)


@njit(cache=True)
def _play(
    c: int,
    side: int,
    own: np.ndarray,
    cnt: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    m: np.ndarray,
    b: np.ndarray,
) -> None:  # pragma: no cover
    mark_counted(own, cnt, through, nthrough, c, side - 1, side)
    if side == 1:
        _set(m, c)
    else:
        _set(b, c)


@njit(cache=True)
def _unplay(
    c: int,
    own: np.ndarray,
    cnt: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    m: np.ndarray,
    b: np.ndarray,
) -> None:  # pragma: no cover
    side = own[c]
    unmark_counted(own, cnt, through, nthrough, c, side - 1, 0)
    if side == 1:
        _clear(m, c)
    else:
        _clear(b, c)


@njit(cache=True)
def search(
    prm: np.ndarray,
    line_cells: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    perms: np.ndarray,
    cover: tuple,  # type: ignore[type-arg]
    own: np.ndarray,
    cnt: np.ndarray,
    mk: np.ndarray,
    bk: np.ndarray,
    moves: np.ndarray,
    f_int: np.ndarray,
    f_zone: np.ndarray,
    f_open: np.ndarray,
    f_stab: np.ndarray,
    ch_cell: np.ndarray,
    ch_int: np.ndarray,
    tt_key: np.ndarray,
    tt_int: np.ndarray,
    tt_zone: np.ndarray,
    st_int: np.ndarray,
    st_cells: np.ndarray,
    st_branch: np.ndarray,
    scratch: np.ndarray,
    img: np.ndarray,
    score: np.ndarray,
    seg_through: np.ndarray,
    seg_pos: np.ndarray,
    seg_nthrough: np.ndarray,
    stats: np.ndarray,
    budget_nodes: int,
) -> int:  # pragma: no cover - numba
    """Run the df-pn machine for at most ``budget_nodes`` node entries (see the module docstring).

    State lives in the arrays (so a call goes on where the last stopped): ``own`` (per cell: 0
    free, 1 Maker, 2 Breaker), ``cnt`` (per line: Maker's and Breaker's cells), ``mk``/``bk``
    (the masks, one row), ``moves[d]`` (the move into depth ``d``), the frames ``f_int[d]``
    (kind, thresholds, selected child, child count, stabiliser size, ...), ``f_zone[d]``,
    ``f_open[d]``, ``f_stab[d]``, the children ``ch_cell[d, i]`` and ``ch_int[d, i]`` (pn, dn,
    status, proof-store id). Returns DONE (``stats[S_RESULT]``), PAUSED or FULL.
    """
    (
        seg_cells,
        seg_len,
        seg_window,
        comp_ptr,
        comp_parts_ptr,
        comp_parts,
        cw,
        cd_seg,
        cd_lo,
        cd_hi,
        cd_live,
        c_mate_copy,
        c_mate_cell,
        c_snap_copy,
        c_snap_cell,
        c_par,
        c_seen,
        c_queue,
        c_order,
        c_level,
        c_conflict,
        c_stats,
        c_free,
        c_live,
    ) = cover
    k = prm[P_K]
    n_cells = prm[P_CELLS]
    n_lines = prm[P_LINES]
    w = prm[P_WORDS]
    rules = prm[P_RULE]
    n_syms = prm[P_SYMS]
    tt_mask = prm[P_TT_MASK]
    record = prm[P_RECORD] == 1
    max_depth = prm[P_MAX_DEPTH]
    eps_num = prm[P_EPS_NUM]
    eps_den = prm[P_EPS_DEN]
    zone = scratch[0]
    tmp = scratch[1]
    tmp2 = scratch[2]
    d = stats[S_DEPTH]
    mode = stats[S_MODE]
    entered = 0
    # frame columns of f_int
    # 0 kind (0 AND: Maker to move, 1 OR), 1 thpn, 2 thdn, 3 selected child, 4 children,
    # 5 stabiliser size, 6 pn, 7 dn, 8 work (nodes entered below), 9 nodes at entry,
    # 10 result status, 11 result cert
    room = n_cells * (n_syms + 1) + 8  # the most one step of the machine stores
    while True:
        if record and (
            st_int.shape[0] - stats[S_STORE_NODES] < 2 * room
            or st_cells.shape[0] - stats[S_STORE_CELLS] < room
            or st_branch.shape[0] - stats[S_STORE_BRANCHES] < room
        ):
            stats[S_DEPTH] = d
            stats[S_MODE] = mode
            return FULL
        if mode == ENTER:
            # ---------------------------------------------------------------- a new node at depth d
            if entered >= budget_nodes:
                stats[S_DEPTH] = d
                stats[S_MODE] = mode
                return PAUSED
            entered += 1
            stats[S_NODES] += 1
            if d > stats[S_MAX_DEPTH]:
                stats[S_MAX_DEPTH] = d
            kind = f_int[d, 0]
            side = 2 if kind == 1 else 1  # who moves here: OR node = Breaker
            f_int[d, 9] = stats[S_NODES]
            slot = _tt_find(tt_key, tt_int, tt_mask, mk[0], bk[0], side)
            seen_before = slot >= 0
            if seen_before:
                st = tt_int[slot, 2]
                if st != OPEN:
                    for t in range(w):
                        zone[t] = tt_zone[slot, t]
                    f_int[d, 6] = 0 if st == PROVED else INF
                    f_int[d, 7] = INF if st == PROVED else 0
                    f_int[d, 10] = st
                    f_int[d, 11] = tt_int[slot, 3]
                    for t in range(w):
                        f_zone[d, t] = zone[t]
                    mode = RETURN
                    continue
                if tt_int[slot, 0] >= f_int[d, 1] or tt_int[slot, 1] >= f_int[d, 2]:
                    f_int[d, 6] = tt_int[slot, 0]
                    f_int[d, 7] = tt_int[slot, 1]
                    f_int[d, 10] = OPEN
                    f_int[d, 11] = -1
                    mode = RETURN
                    continue
            # -- the static rules (once per position: an entry in the table means they failed)
            result = OPEN
            cert = -1
            if not seen_before:
                for t in range(w):
                    zone[t] = np.uint64(0)
                last = moves[d]
                maker_done = False
                breaker_done = False
                if last >= 0:
                    for t in range(nthrough[last]):
                        j = through[last, t]
                        if cnt[j, 0] == k:
                            maker_done = True
                        if cnt[j, 1] == k:
                            breaker_done = True
                else:
                    for j in range(n_lines):
                        if cnt[j, 0] == k:
                            maker_done = True
                        if cnt[j, 1] == k:
                            breaker_done = True
                if maker_done:
                    result = DISPROVED
                    if rules == STANDARD:
                        _witness(prm, line_cells, cnt, own, 2, zone)
                elif breaker_done and rules == STANDARD:
                    result = PROVED
                    _witness(prm, line_cells, cnt, own, 1, zone)
                    if record:
                        cert = _store_cells(st_int, st_cells, stats, K_WITNESS, zone, w)
                if result == OPEN:
                    live = 0
                    nfree = 0
                    four_m = -1
                    four_b = -1
                    for j in range(n_lines):
                        if cnt[j, 1] == 0:
                            live += 1
                            if cnt[j, 0] == k - 1 and four_m < 0:
                                for i in range(k):
                                    if own[line_cells[j, i]] == 0:
                                        four_m = line_cells[j, i]
                        if rules == STANDARD and cnt[j, 0] == 0 and cnt[j, 1] == k - 1 and four_b < 0:
                            for i in range(k):
                                if own[line_cells[j, i]] == 0:
                                    four_b = line_cells[j, i]
                    for c in range(n_cells):
                        if own[c] == 0:
                            nfree += 1
                    if live == 0 or nfree == 0:
                        result = PROVED
                        if record:
                            cert = _store_cells(st_int, st_cells, stats, K_PAIRS, zone, w)
                    elif kind == 0 and four_m >= 0:
                        result = DISPROVED
                        _set(zone, four_m)
                        if rules == STANDARD:
                            mark_counted(own, cnt, through, nthrough, four_m, 0, 1)
                            _witness(prm, line_cells, cnt, own, 2, zone)
                            unmark_counted(own, cnt, through, nthrough, four_m, 0, 0)
                    elif kind == 1 and four_b >= 0:
                        # Breaker completes a line: its move, then a witness of each line Maker
                        # could still complete
                        result = PROVED
                        for t in range(w):
                            tmp2[t] = np.uint64(0)
                        mark_counted(own, cnt, through, nthrough, four_b, 1, 2)
                        _witness(prm, line_cells, cnt, own, 1, tmp2)
                        unmark_counted(own, cnt, through, nthrough, four_b, 1, 0)
                        if record:
                            leaf = _store_cells(st_int, st_cells, stats, K_WITNESS, tmp2, w)
                            cert = _store_breaker(st_int, stats, four_b, leaf)
                        for t in range(w):
                            zone[t] = tmp2[t]
                        _set(zone, four_b)
                    elif kind == 0 or d == 0:
                        # -- a pairing? (at Maker's nodes: at Breaker's, the reply's node asks)
                        for c in range(n_cells):
                            c_free[c] = 1 if own[c] == 0 else 0
                        for j in range(n_lines):
                            c_live[j] = 1 if cnt[j, 1] == 0 else 0
                        stats[S_PAIRINGS] += 1
                        got = find_cover(
                            seg_cells,
                            seg_len,
                            seg_window,
                            k,
                            c_free,
                            c_live,
                            comp_ptr,
                            comp_parts_ptr,
                            comp_parts,
                            prm[P_STEP_CAP],
                            cw,
                            cd_seg,
                            cd_lo,
                            cd_hi,
                            cd_live,
                            c_mate_copy,
                            c_mate_cell,
                            c_snap_copy,
                            c_snap_cell,
                            c_par,
                            c_seen,
                            c_queue,
                            c_order,
                            c_level,
                            c_conflict,
                            c_stats,
                        )
                        stats[S_STEPS] += c_stats[0]
                        if got < 0:
                            stats[S_CAPPED] += 1
                        if got == FOUND:
                            stats[S_PAIRED] += 1
                            result = PROVED
                            base = stats[S_STORE_CELLS]
                            npairs = 0
                            for dd in range(c_stats[1]):
                                if cd_live[dd] == 1:
                                    a = c_mate_copy[2 * dd]
                                    bb = c_mate_copy[2 * dd + 1]
                                    _set(zone, a)
                                    _set(zone, bb)
                                    if record:
                                        st_cells[base + 2 * npairs] = a
                                        st_cells[base + 2 * npairs + 1] = bb
                                    npairs += 1
                            if record:
                                i = stats[S_STORE_NODES]
                                st_int[i, 0] = K_PAIRS
                                st_int[i, 1] = base
                                st_int[i, 2] = 2 * npairs
                                stats[S_STORE_NODES] = i + 1
                                stats[S_STORE_CELLS] = base + 2 * npairs
                                cert = i
            if result != OPEN:
                f_int[d, 6] = 0 if result == PROVED else INF
                f_int[d, 7] = INF if result == PROVED else 0
                f_int[d, 10] = result
                f_int[d, 11] = cert
                for t in range(w):
                    f_zone[d, t] = zone[t]
                stats[S_TT_STORES] += _tt_store(
                    tt_key,
                    tt_int,
                    tt_zone,
                    tt_mask,
                    mk[0],
                    bk[0],
                    side,
                    f_int[d, 6],
                    f_int[d, 7],
                    result,
                    zone,
                    cert,
                    1,
                )
                mode = RETURN
                continue
            if d + 1 >= max_depth:
                stats[S_DEPTH] = d
                stats[S_MODE] = mode
                return FULL
            # -- the children: one per orbit of the stabiliser
            nst = 0
            for s in range(n_syms):
                ok = True
                for c in range(n_cells):
                    o = own[c]
                    if o != 0 and own[perms[s, c]] != o:
                        ok = False
                        break
                if ok:
                    f_stab[d, nst] = s
                    nst += 1
            f_int[d, 5] = nst
            n = 0
            for c in range(n_cells):
                if own[c] != 0:
                    continue
                rep = True
                for t in range(nst):
                    if perms[f_stab[d, t], c] < c:
                        rep = False
                        break
                if not rep:
                    continue
                if kind == 1:  # Breaker: a cell on no line either side could complete is a pass
                    useful = False
                    for t in range(nthrough[c]):
                        j = through[c, t]
                        if cnt[j, 1] == 0 or (rules == STANDARD and cnt[j, 0] == 0):
                            useful = True
                            break
                    if not useful:
                        continue
                # move order: the lines through the cell, weighted by how full they are
                sc = 0
                for t in range(nthrough[c]):
                    j = through[c, t]
                    if cnt[j, 1] == 0:
                        sc += 1 << (2 * cnt[j, 0])
                    if rules == STANDARD and cnt[j, 0] == 0:
                        sc += 1 << (2 * cnt[j, 1])
                ch_cell[d, n] = c
                score[d, n] = sc
                n += 1
            # a Maker line one move from complete must be blocked at once: its cell first
            if kind == 1:
                for j in range(n_lines):
                    if cnt[j, 1] == 0 and cnt[j, 0] == k - 1:
                        for i in range(k):
                            c = line_cells[j, i]
                            if own[c] == 0:
                                for t in range(n):
                                    if ch_cell[d, t] == c:
                                        score[d, t] += 1 << 40
            # sort by score, best first (insertion sort; ties: lower cell first)
            for i in range(1, n):
                c = ch_cell[d, i]
                sc = score[d, i]
                t = i
                while t > 0 and score[d, t - 1] < sc:
                    ch_cell[d, t] = ch_cell[d, t - 1]
                    score[d, t] = score[d, t - 1]
                    t -= 1
                ch_cell[d, t] = c
                score[d, t] = sc
            f_int[d, 4] = n
            for t in range(w):
                f_zone[d, t] = np.uint64(0)
                f_open[d, t] = np.uint64(0)
            for t in range(n_cells):
                if own[t] == 0:
                    _set(f_open[d], t)
            f_int[d, 10] = OPEN
            f_int[d, 11] = -1
            # the children's numbers from the table; a settled child is absorbed at once. A new
            # Breaker reply starts with a proof number that grows with the cells its position
            # lacks for a pairing (each run of live lines needs a pair per k - 1 of its lines)
            mover = 1 if kind == 0 else 2
            settled = False
            need = 0
            nfree = 0
            if kind == 1:
                for sg in range(seg_len.shape[0]):
                    need += _seg_need(sg, -1, cnt, seg_window, seg_len, k)
                for t in range(n_cells):
                    if own[t] == 0:
                        nfree += 1
            for i in range(n):
                c = ch_cell[d, i]
                ch_int[d, i, 0] = 1
                if kind == 1:
                    nb = need
                    for t in range(seg_nthrough[c]):
                        sg = seg_through[c, t]
                        nb += _seg_need(sg, seg_pos[c, t], cnt, seg_window, seg_len, k)
                        nb -= _seg_need(sg, -1, cnt, seg_window, seg_len, k)
                    short = 2 * nb - (nfree - 1)
                    if short > 0:
                        ch_int[d, i, 0] = 1 + short
                ch_int[d, i, 1] = 1
                ch_int[d, i, 2] = OPEN
                ch_int[d, i, 3] = -1
                if mover == 1:
                    _set(mk[0], c)
                else:
                    _set(bk[0], c)
                slot = _tt_find(tt_key, tt_int, tt_mask, mk[0], bk[0], 3 - mover)
                if mover == 1:
                    _clear(mk[0], c)
                else:
                    _clear(bk[0], c)
                if slot >= 0:
                    ch_int[d, i, 0] = tt_int[slot, 0]
                    ch_int[d, i, 1] = tt_int[slot, 1]
                    st = tt_int[slot, 2]
                    if st != OPEN and ch_int[d, i, 2] == OPEN:
                        for t in range(w):
                            zone[t] = tt_zone[slot, t]
                        f_int[d, 3] = i
                        if _absorb(
                            prm,
                            d,
                            i,
                            st,
                            zone,
                            tt_int[slot, 3],
                            c,
                            f_int,
                            f_zone,
                            f_open,
                            f_stab,
                            ch_cell,
                            ch_int,
                            perms,
                            st_int,
                            stats,
                            tmp,
                            tt_key,
                            tt_int,
                            tt_zone,
                            mk[0],
                            bk[0],
                        ):
                            settled = True
                            break
            mode = RETURN if settled else LOOP
            continue

        if mode == LOOP:
            # ---------------------------------------------------------------- numbers, then a child
            kind = f_int[d, 0]
            n = f_int[d, 4]
            pn = 0 if kind == 0 else INF
            dn = INF if kind == 0 else 0
            best = -1
            best_v = INF + 1
            second_v = INF + 1
            for i in range(n):
                if ch_int[d, i, 2] != OPEN:
                    continue
                cp = ch_int[d, i, 0]
                cdn = ch_int[d, i, 1]
                if kind == 0:
                    pn = min(INF, pn + cp)
                    dn = min(dn, cdn)
                    v = cdn
                else:
                    pn = min(pn, cp)
                    dn = min(INF, dn + cdn)
                    v = cp
                if v < best_v:
                    second_v = best_v
                    best_v = v
                    best = i
                elif v < second_v:
                    second_v = v
            side = 1 if kind == 0 else 2
            if best < 0:
                # every child settled: AND proved (all answered), OR disproved (all refuted)
                result = PROVED if kind == 0 else DISPROVED
                cert = -1
                if kind == 0 and record:
                    cert = _store_maker(
                        prm, st_int, st_branch, stats, d, ch_cell, ch_int, f_int, f_stab, perms
                    )
                f_int[d, 6] = 0 if result == PROVED else INF
                f_int[d, 7] = INF if result == PROVED else 0
                f_int[d, 10] = result
                f_int[d, 11] = cert
                stats[S_TT_STORES] += _tt_store(
                    tt_key,
                    tt_int,
                    tt_zone,
                    tt_mask,
                    mk[0],
                    bk[0],
                    side,
                    f_int[d, 6],
                    f_int[d, 7],
                    result,
                    f_zone[d],
                    cert,
                    stats[S_NODES] - f_int[d, 9] + 1,
                )
                mode = RETURN
                continue
            f_int[d, 6] = pn
            f_int[d, 7] = dn
            if pn >= f_int[d, 1] or dn >= f_int[d, 2]:
                stats[S_TT_STORES] += _tt_store(
                    tt_key,
                    tt_int,
                    tt_zone,
                    tt_mask,
                    mk[0],
                    bk[0],
                    side,
                    pn,
                    dn,
                    OPEN,
                    f_zone[d],
                    -1,
                    stats[S_NODES] - f_int[d, 9] + 1,
                )
                f_int[d, 10] = OPEN
                f_int[d, 11] = -1
                mode = RETURN
                continue
            # thresholds of the selected child (1 + epsilon)
            cp = ch_int[d, best, 0]
            cdn = ch_int[d, best, 1]
            big = second_v if second_v < INF else INF
            if big < INF:
                if kind == 0:  # Maker's node: stay with one move longer (its zone may answer the rest)
                    big = min(INF, (big * prm[P_AND_NUM] + prm[P_AND_DEN] - 1) // prm[P_AND_DEN])
                else:
                    big = min(INF, (big * eps_num + eps_den - 1) // eps_den)
            if kind == 1:  # OR: the child's pn may rise to the second best
                thpn = min(f_int[d, 1], big + 1)
                thdn = min(INF, f_int[d, 2] - dn + cdn)
            else:
                thdn = min(f_int[d, 2], big + 1)
                thpn = min(INF, f_int[d, 1] - pn + cp)
            f_int[d, 3] = best
            c = ch_cell[d, best]
            _play(c, 1 if kind == 0 else 2, own, cnt, through, nthrough, mk[0], bk[0])
            moves[d + 1] = c
            f_int[d + 1, 0] = 1 - kind
            f_int[d + 1, 1] = thpn
            f_int[d + 1, 2] = thdn
            d += 1
            mode = ENTER
            continue

        # -------------------------------------------------------------------- RETURN from depth d
        if d == 0:
            stats[S_ROOT_PN] = f_int[0, 6]
            stats[S_ROOT_DN] = f_int[0, 7]
            stats[S_RESULT] = f_int[0, 10]
            stats[S_ROOT_CERT] = f_int[0, 11]
            stats[S_DEPTH] = 0
            stats[S_MODE] = ENTER
            return DONE
        cpn = f_int[d, 6]
        cdn = f_int[d, 7]
        cst = f_int[d, 10]
        ccert = f_int[d, 11]
        for t in range(w):
            zone[t] = f_zone[d, t]
        c = moves[d]
        _unplay(c, own, cnt, through, nthrough, mk[0], bk[0])
        d -= 1
        kind = f_int[d, 0]
        i = f_int[d, 3]
        ch_int[d, i, 0] = cpn
        ch_int[d, i, 1] = cdn
        if cst == OPEN:
            mode = LOOP
            continue
        if _absorb(
            prm,
            d,
            i,
            cst,
            zone,
            ccert,
            c,
            f_int,
            f_zone,
            f_open,
            f_stab,
            ch_cell,
            ch_int,
            perms,
            st_int,
            stats,
            tmp,
            tt_key,
            tt_int,
            tt_zone,
            mk[0],
            bk[0],
        ):
            mode = RETURN
        else:
            mode = LOOP


@njit(cache=True)
def _seg_need(
    s: int, pb: int, cnt: np.ndarray, seg_window: np.ndarray, seg_len: np.ndarray, k: int
) -> int:  # pragma: no cover
    """The fewest pairs segment ``s``'s live lines need (a pair serves at most ``k - 1`` windows of
    a run), with the cell at position ``pb`` taken by Breaker (-1: none).
    """
    need = 0
    run = 0
    for x in range(seg_len[s] - k + 1):
        j = seg_window[s, x]
        live = j >= 0 and cnt[j, 1] == 0 and not (x <= pb < x + k)
        if live:
            run += 1
        elif run > 0:
            need += (run + k - 2) // (k - 1)
            run = 0
    if run > 0:
        need += (run + k - 2) // (k - 1)
    return need


@njit(cache=True)
def _absorb(
    prm: np.ndarray,
    d: int,
    i: int,
    cst: int,
    zone: np.ndarray,
    ccert: int,
    c: int,
    f_int: np.ndarray,
    f_zone: np.ndarray,
    f_open: np.ndarray,
    f_stab: np.ndarray,
    ch_cell: np.ndarray,
    ch_int: np.ndarray,
    perms: np.ndarray,
    st_int: np.ndarray,
    stats: np.ndarray,
    tmp: np.ndarray,
    tt_key: np.ndarray,
    tt_int: np.ndarray,
    tt_zone: np.ndarray,
    mk: np.ndarray,
    bk: np.ndarray,
) -> bool:  # pragma: no cover - numba
    """Child ``i`` (move ``c``) of the node at depth ``d`` is settled (``cst``, its ``zone``,
    its proof-store id): update the node; True if that settles the node (stored in the table).
    """
    w = prm[P_WORDS]
    kind = f_int[d, 0]
    ch_int[d, i, 2] = cst
    ch_int[d, i, 3] = ccert
    if (kind == 0 and cst == DISPROVED) or (kind == 1 and cst == PROVED):
        # Maker's winning move, or Breaker's answer: the node is settled by this child
        for t in range(w):
            f_zone[d, t] = zone[t]
        _set(f_zone[d], c)
        cert = -1
        if kind == 1 and prm[P_RECORD] == 1:
            cert = _store_breaker(st_int, stats, c, ccert)
        f_int[d, 6] = 0 if cst == PROVED else INF
        f_int[d, 7] = INF if cst == PROVED else 0
        f_int[d, 10] = cst
        f_int[d, 11] = cert
        side = 1 if kind == 0 else 2
        stats[S_TT_STORES] += _tt_store(
            tt_key,
            tt_int,
            tt_zone,
            prm[P_TT_MASK],
            mk,
            bk,
            side,
            f_int[d, 6],
            f_int[d, 7],
            cst,
            f_zone[d],
            cert,
            stats[S_NODES] - f_int[d, 9] + 1,
        )
        return True
    # a child answered (AND) or refuted (OR): its zone settles the siblings outside it; the
    # node's zone grows by the child's zone and move, closed under the stabiliser
    nst = f_int[d, 5]
    _set(zone, c)
    for s in range(nst):
        _image(perms[f_stab[d, s]], zone, tmp)
        for t in range(w):
            f_zone[d, t] |= tmp[t]
    _clear(zone, c)
    for s in range(nst):
        _image(perms[f_stab[d, s]], zone, tmp)
        for t in range(w):
            f_open[d, t] &= tmp[t]
    for j in range(f_int[d, 4]):
        if ch_int[d, j, 2] == OPEN and not _has(f_open[d], ch_cell[d, j]):
            ch_int[d, j, 2] = COVERED
            stats[S_COVERED] += 1
    return False


@njit(cache=True)
def _store_cells(
    st_int: np.ndarray, st_cells: np.ndarray, stats: np.ndarray, kind: int, x: np.ndarray, w: int
) -> int:  # pragma: no cover
    """A leaf listing the cells of ``x`` (a witness leaf; an empty pairing for ``K_PAIRS``)."""
    base = stats[S_STORE_CELLS]
    n = 0
    if kind == K_WITNESS:
        for i in range(w):
            v = x[i]
            while v != np.uint64(0):
                st_cells[base + n] = 64 * i + lowest_cell(v)
                v &= v - np.uint64(1)
                n += 1
    at: int = stats[S_STORE_NODES]
    st_int[at, 0] = kind
    st_int[at, 1] = base
    st_int[at, 2] = n
    stats[S_STORE_NODES] = at + 1
    stats[S_STORE_CELLS] = base + n
    return at


@njit(cache=True)
def _store_breaker(st_int: np.ndarray, stats: np.ndarray, cell: int, child: int) -> int:  # pragma: no cover
    i: int = stats[S_STORE_NODES]
    st_int[i, 0] = K_BREAKER
    st_int[i, 1] = cell
    st_int[i, 2] = child
    stats[S_STORE_NODES] = i + 1
    return i


@njit(cache=True)
def _store_maker(
    prm: np.ndarray,
    st_int: np.ndarray,
    st_branch: np.ndarray,
    stats: np.ndarray,
    d: int,
    ch_cell: np.ndarray,
    ch_int: np.ndarray,
    f_int: np.ndarray,
    f_stab: np.ndarray,
    perms: np.ndarray,
) -> int:  # pragma: no cover
    """Maker's node: a branch for each child answered directly, and one for each of its images
    under the stabiliser (an image node: the child seen through the symmetry), exactly the
    answers whose zones settled the node's other moves.
    """
    base = stats[S_STORE_BRANCHES]
    nb = 0
    nst = f_int[d, 5]
    for i in range(f_int[d, 4]):
        if ch_int[d, i, 2] != PROVED:
            continue
        c = ch_cell[d, i]
        child = ch_int[d, i, 3]
        for s in range(nst):
            g = f_stab[d, s]
            img = perms[g, c]  # (an image may repeat a move: its zone answers other moves)
            node = child
            if g != 0:
                node = stats[S_STORE_NODES]
                st_int[node, 0] = K_IMAGE
                st_int[node, 1] = child
                st_int[node, 2] = g
                stats[S_STORE_NODES] = node + 1
            st_branch[base + nb, 0] = img
            st_branch[base + nb, 1] = node
            nb += 1
    at: int = stats[S_STORE_NODES]
    st_int[at, 0] = K_MAKER
    st_int[at, 1] = base
    st_int[at, 2] = nb
    stats[S_STORE_NODES] = at + 1
    stats[S_STORE_BRANCHES] = base + nb
    return at
