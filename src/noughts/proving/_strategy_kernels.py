"""Numba kernels that turn a proof into a strategy (:mod:`noughts.proving.strategy` drives them).

:func:`extract` plays out every game a proven strategy allows, from the proof engine's table:
at the player's turn the move that settled the position in the table (or, for a position the
threat search settles, the first claim of its sequence), at the opponent's turn every empty
cell. It records each position where the player's move is not one the checker finds itself (a
claim that completes a line; the block of the opponent's single threat), and stops with
:data:`NEED_PROOF` at a position the table no longer answers (the driver proves it again, and
the table then holds the move). Positions met again are skipped (a set of the table's keys).

:func:`canonical_records` rewrites the records under the certificate's symmetry group: each
position as its least image (the first player's words, then the second's, least in the order
of the words) and the move as a cell of that image.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noughts.kernels.codes import (
    DONE,
    ENTER,
    FOUND,
    LOOP,
    MAKER_BREAKER,
    OWN_STATUS,
    PAUSED,
    RETURN,
    STANDARD,
)
from noughts.kernels.counts import mark_counted, unmark_counted
from noughts.kernels.table import set_add, set_slot
from noughts.proving._dfpn_kernels import (
    P_ATTACKER,
    P_BOARD_SYMS,
    P_K,
    P_MAKER,
    P_RULE,
    P_SYM_STONES,
    P_THREATS,
    claim_result,
    score_difference,
    tt_lookup,
)
from noughts.proving._tss_kernels import DEF_BREAKER, DEF_LINES, threat_search, winning_cells

NEED_PROOF = OWN_STATUS  # DONE and PAUSED: noughts.kernels.codes
GROW_SEEN = OWN_STATUS + 1
GROW_RECORDS = OWN_STATUS + 2
BAD = OWN_STATUS + 3

# why an extraction stopped as BAD (an inconsistent table: a bug)
BAD_THREATS = 1  # the opponent threatens two lines at the player's turn
BAD_ENDS = 2  # a game ends without the player reaching its goal
BAD_TABLE = 3  # the table settles the position against the player


# fields of the state array
X_DEPTH = 0
X_MODE = 1
X_RECORDS = 2
X_SEEN = 3
X_NODES = 4
X_REASON = 5
X_HINT = 6  # a move for the position at the top (from the driver's new proof), or -1
NUM_X = 7

_ONE = np.uint64(1)


@njit(cache=True)
def _reached(prm: np.ndarray, cnt: np.ndarray, end: int, player: int, goal: int) -> bool:
    """Whether a finished game (``end`` from :func:`claim_result`) reaches the player's goal."""
    if end == 3:
        diff = score_difference(prm, cnt)
        if player == 1:
            diff = -diff
        return diff >= goal
    if end == 2:
        return goal <= 0
    return end == player


@njit(cache=True)
def _node_key(
    prm: np.ndarray, own: np.ndarray, perms: np.ndarray, stones: int, key: np.ndarray, img: np.ndarray
) -> int:
    """The proof engine's key of the position in ``own`` (its least image under the symmetries
    while few cells are claimed, the position itself deeper) and the symmetry that gives it.
    """
    cells = own.shape[0]
    w = (cells + 63) // 64
    nk = 2 * w
    nsym = perms.shape[0] if stones <= prm[P_SYM_STONES] else 1
    best = 0
    for s in range(nsym):
        for q in range(nk):
            img[q] = 0
        for c in range(cells):
            o = own[c]
            if o >= 0:
                pc = perms[s, c]
                img[o * w + (pc >> 6)] |= _ONE << np.uint64(pc & 63)
        less = s == 0
        if not less:
            for q in range(nk):
                if img[q] != key[q]:
                    less = img[q] < key[q]
                    break
        if less:
            best = s
            for q in range(nk):
                key[q] = img[q]
    return best


@njit(cache=True)
def load_images(
    prm: np.ndarray,
    own: np.ndarray,
    perms: np.ndarray,
    line_cells: np.ndarray,
    img: np.ndarray,
    key: np.ndarray,
    cnt: np.ndarray,
) -> int:
    """Load the position in ``own`` for the proof engine's search: its image under every
    symmetry into ``img`` (symmetries x words), the cells of each line each player holds into
    ``cnt``, and into ``key`` the table's key (the least image, words compared in order, while
    few cells are claimed; the position itself deeper). Returns the symmetry of the key (the
    first of equal images).
    """
    cells = own.shape[0]
    w = (cells + 63) // 64
    nk = 2 * w
    nsym = perms.shape[0]
    for s in range(nsym):
        for q in range(nk):
            img[s, q] = 0
    stones = 0
    for c in range(cells):
        o = own[c]
        if o >= 0:
            stones += 1
            for s in range(nsym):
                pc = perms[s, c]
                img[s, o * w + (pc >> 6)] |= _ONE << np.uint64(pc & 63)
    for j in range(line_cells.shape[0]):
        a = 0
        b = 0
        for i in range(line_cells.shape[1]):
            o = own[line_cells[j, i]]
            if o == 0:
                a += 1
            elif o == 1:
                b += 1
        cnt[j, 0] = a
        cnt[j, 1] = b
    best = 0
    if stones <= prm[P_SYM_STONES]:
        for s in range(1, nsym):
            for q in range(nk):
                if img[s, q] != img[best, q]:
                    if img[s, q] < img[best, q]:
                        best = s
                    break
    for q in range(nk):
        key[q] = img[best, q]
    return best


@njit(cache=True)
def extract(
    prm: np.ndarray,
    player: int,
    goal: int,
    line_cells: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    perms: np.ndarray,
    inverse: np.ndarray,
    tt_key: np.ndarray,
    tt_pn: np.ndarray,
    tt_dn: np.ndarray,
    tt_move: np.ndarray,
    tt_work: np.ndarray,
    tt_flag: np.ndarray,
    tt_mask: int,
    own: np.ndarray,
    cnt: np.ndarray,
    first_mover: int,
    path: np.ndarray,
    iters: np.ndarray,
    seen: np.ndarray,
    used: np.ndarray,
    rec_words: np.ndarray,
    rec_move: np.ndarray,
    tss_frames: np.ndarray,
    tss_pool: np.ndarray,
    tss_line: np.ndarray,
    tss_scratch: np.ndarray,
    tss_memo: np.ndarray,
    tss_depth: int,
    tss_nodes: int,
    state: np.ndarray,
    limit: int,
) -> int:
    """Play out the strategy from the position in ``own``/``cnt`` (see the module docstring),
    going on from ``state``; at most ``limit`` positions this call.
    """
    k = prm[P_K]
    rule = prm[P_RULE]
    maker = prm[P_MAKER]
    cells = own.shape[0]
    w = (cells + 63) // 64
    nk = 2 * w
    attacker = prm[P_ATTACKER]
    lines_win_player = rule == STANDARD or (rule == MAKER_BREAKER and player == maker)
    lines_win_opponent = rule == STANDARD or (rule == MAKER_BREAKER and player != maker)
    threats_player = (prm[P_THREATS] >> player) & 1
    key = np.zeros(nk, dtype=np.uint64)
    skey = np.zeros(nk, dtype=np.uint64)
    img = np.zeros(nk, dtype=np.uint64)
    look = np.zeros(4, dtype=np.int64)
    two = np.zeros(2, dtype=np.int32)
    tres = np.zeros(2, dtype=np.int64)
    empty = 0
    for c in range(cells):
        if own[c] < 0:
            empty += 1
    d = state[X_DEPTH]
    mode = state[X_MODE]
    nrec = state[X_RECORDS]
    nseen = state[X_SEEN]
    nodes = state[X_NODES]
    stop = nodes + limit
    status = DONE
    while True:
        if mode == RETURN:
            if d == 0:
                status = DONE
                break
            d -= 1
            unmark_counted(own, cnt, through, nthrough, path[d], own[path[d]], -1)
            empty += 1
            mode = LOOP
            continue
        mover = (first_mover + d) & 1
        if mover == player:
            if mode == LOOP:
                mode = RETURN
                continue
            if nodes >= stop:
                status = PAUSED
                break
            if lines_win_player and winning_cells(line_cells, cnt, own, k, player, two) > 0:
                mode = RETURN  # a claim that completes a line: the checker plays it
                continue
            move = -1
            record = True
            if lines_win_opponent:
                nthreat = winning_cells(line_cells, cnt, own, k, 1 - player, two)
                if nthreat >= 2:
                    state[X_REASON] = BAD_THREATS
                    status = BAD
                    break
                if nthreat == 1:
                    move = two[0]  # the block of a single threat: the checker plays it
                    record = False
            stones = cells - empty
            sym = _node_key(prm, own, perms, stones, key, img)
            # positions met before are keyed by the board's symmetries alone (the certificate's
            # group: an image under another automorphism of the table's is not one the checker
            # finds)
            nb = prm[P_BOARD_SYMS]
            if 0 < nb < perms.shape[0]:
                _node_key(prm, own, perms[:nb], stones, skey, img)
            else:
                for q in range(nk):
                    skey[q] = key[q]
            if used[set_slot(seen, used, skey)] != 0:
                mode = RETURN  # met before
                continue
            if 2 * (nseen + 1) > seen.shape[0]:
                status = GROW_SEEN
                break
            if record and nrec >= rec_move.shape[0]:
                status = GROW_RECORDS
                break
            if move < 0:
                hint = state[X_HINT]
                if hint >= 0 and own[hint] < 0:
                    move = hint
                elif tt_lookup(tt_key, tt_pn, tt_dn, tt_move, tt_work, tt_flag, tt_mask, key, look) and (
                    look[0] == 0 or look[1] == 0
                ):
                    proved = look[0] == 0
                    if proved != (player == attacker):
                        state[X_REASON] = BAD_TABLE
                        status = BAD
                        break
                    if look[2] >= 0:
                        m = inverse[sym, look[2]]
                        if own[m] < 0:
                            move = m
                if move < 0 and threats_player and tss_depth > 0:
                    st = threat_search(
                        line_cells,
                        through,
                        nthrough,
                        cnt,
                        own,
                        k,
                        player,
                        DEF_BREAKER if rule == MAKER_BREAKER else DEF_LINES,
                        1,
                        tss_depth,
                        tss_nodes,
                        empty,
                        tss_frames,
                        tss_pool,
                        tss_line,
                        tss_scratch,
                        tss_memo,
                        tres,
                    )
                    if st == FOUND:
                        move = tss_line[0]
                if move < 0:
                    status = NEED_PROOF  # the driver proves this position again, then calls back
                    break
            state[X_HINT] = -1
            set_add(seen, used, skey)
            nseen += 1
            nodes += 1
            if record:
                for q in range(nk):
                    rec_words[nrec, q] = 0
                for c in range(cells):
                    if own[c] >= 0:
                        rec_words[nrec, own[c] * w + (c >> 6)] |= _ONE << np.uint64(c & 63)
                rec_move[nrec] = move
                nrec += 1
            mark_counted(own, cnt, through, nthrough, move, mover, mover)
            empty -= 1
            path[d] = move
            end = claim_result(prm, cnt, through, nthrough, move, mover, empty)
            if end >= 0:
                if not _reached(prm, cnt, end, player, goal):
                    state[X_REASON] = BAD_ENDS
                    status = BAD
                    d += 1
                    break
                unmark_counted(own, cnt, through, nthrough, move, own[move], -1)
                empty += 1
                mode = RETURN
                continue
            d += 1
            mode = ENTER
            continue
        # the opponent's turn: every empty cell
        if mode == ENTER:
            iters[d] = 0
            nodes += 1
        c = iters[d]
        while c < cells and own[c] >= 0:
            c += 1
        if c >= cells:
            mode = RETURN
            continue
        iters[d] = c + 1
        mark_counted(own, cnt, through, nthrough, c, mover, mover)
        empty -= 1
        path[d] = c
        end = claim_result(prm, cnt, through, nthrough, c, mover, empty)
        if end >= 0:
            if not _reached(prm, cnt, end, player, goal):
                state[X_REASON] = BAD_ENDS
                status = BAD
                d += 1
                break
            unmark_counted(own, cnt, through, nthrough, c, own[c], -1)
            empty += 1
            mode = LOOP
            continue
        d += 1
        mode = ENTER
    state[X_DEPTH] = d
    state[X_MODE] = mode
    state[X_RECORDS] = nrec
    state[X_SEEN] = nseen
    state[X_NODES] = nodes
    return status


@njit(cache=True)
def rehash(seen: np.ndarray, used: np.ndarray, bigger: np.ndarray, bigger_used: np.ndarray) -> None:
    for i in range(seen.shape[0]):
        if used[i] != 0:
            set_add(bigger, bigger_used, seen[i])


@njit(cache=True)
def canonical_records(
    words: np.ndarray, moves: np.ndarray, perms: np.ndarray, keys: np.ndarray, out_moves: np.ndarray
) -> None:
    """Each record's least image under ``perms`` (``keys``) and its move in that image."""
    sym = np.zeros(words.shape[0], dtype=np.int64)
    least_images(words, perms, keys, sym)
    for r in range(words.shape[0]):
        out_moves[r] = perms[sym[r], moves[r]]


@njit(cache=True)
def least_images(words: np.ndarray, perms: np.ndarray, keys: np.ndarray, sym: np.ndarray) -> None:
    """Each row's least image under ``perms`` (``keys``, as :func:`canonical_records` keys them)
    and the symmetry that gives it (``sym``).
    """
    n = words.shape[0]
    nk = words.shape[1]
    w = nk // 2
    cells = perms.shape[1]
    img = np.zeros(nk, dtype=np.uint64)
    for r in range(n):
        for s in range(perms.shape[0]):
            for q in range(nk):
                img[q] = 0
            for c in range(cells):
                q0 = c >> 6
                b = _ONE << np.uint64(c & 63)
                for p in range(2):
                    if words[r, p * w + q0] & b:
                        pc = perms[s, c]
                        img[p * w + (pc >> 6)] |= _ONE << np.uint64(pc & 63)
            less = s == 0
            if not less:
                for q in range(nk):
                    if img[q] != keys[r, q]:
                        less = img[q] < keys[r, q]
                        break
            if less:
                for q in range(nk):
                    keys[r, q] = img[q]
                sym[r] = s
