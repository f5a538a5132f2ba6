"""The numba walk behind :func:`noughts.exact.misere_strategy.defence_strategy` on boards of at
most 64 cells (a side's cells one uint64): the same walk as the module's Python one (its
reference, which the tests hold it to), resumable: it returns to its driver to ask the
alpha-beta kernel whether the opponent wins after a move (:data:`NEED_TEST`), to have an array
grown, or after a slice of positions (the driver checks the budget).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noughts.kernels.bits import popcount
from noughts.kernels.claim import completes
from noughts.kernels.codes import DONE, ENTER, LOOP, OWN_STATUS, PAUSED, RETURN
from noughts.kernels.table import set_add

NEED_TEST = OWN_STATUS  # DONE and PAUSED: noughts.kernels.codes
GROW_SEEN = OWN_STATUS + 1
GROW_RECORDS = OWN_STATUS + 2
GROW_LEAVES = OWN_STATUS + 3
GROW_PAIRS = OWN_STATUS + 4
BAD = OWN_STATUS + 5

MIRROR, PAIRING, NO_LINE, HORIZON = 1, 2, 3, 4

# modes of the node at the top: ENTER and RETURN (noughts.kernels.codes), and
CHOOSE = LOOP  # the player's node: choose its move
OPPONENT = RETURN + 1  # the opponent's node: its next reply

# fields of the state array
S_DEPTH = 0
S_MODE = 1
S_RECORDS = 2
S_LEAVES = 3
S_PAIRS = 4
S_SEEN = 5
S_POSITIONS = 6
S_TEST_CELL = 7  # the move asked about (NEED_TEST)
S_ANSWER = 8  # the driver's answer: 1 the opponent cannot win after it, 0 it can
NUM_S = 9

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True)
def _image(perm: np.ndarray, x: np.uint64) -> np.uint64:
    out = _ZERO
    c = 0
    while x != _ZERO:
        if x & _ONE:
            out |= _ONE << np.uint64(perm[c])
        x >>= _ONE
        c += 1
    return out


@njit(cache=True)
def _mirror_of(mperms: np.ndarray, mfixed: np.ndarray, mine: np.uint64, theirs: np.uint64) -> int:
    for m in range(mperms.shape[0]):
        if np.uint64(mfixed[m]) | _image(mperms[m], theirs) == mine:
            return m
    return -1


@njit(cache=True)
def _horizon(lines: np.ndarray, k: int, cells: int, mine: np.uint64, theirs: np.uint64, to_move: bool) -> int:
    empty = cells - popcount(mine | theirs)
    moves = (empty + 1) // 2 if to_move else empty // 2
    live = 0
    far = True
    for j in range(lines.shape[0]):
        if lines[j] & theirs == _ZERO:
            live += 1
            if k - popcount(lines[j] & mine) <= moves:
                far = False
    if live == 0:
        return NO_LINE
    return HORIZON if far else 0


@njit(cache=True)
def _pairing(
    lines: np.ndarray,
    cells: int,
    mine: np.uint64,
    theirs: np.uint64,
    owner: np.ndarray,
    copies: np.ndarray,
    queue: np.ndarray,
    came: np.ndarray,
    via: np.ndarray,
) -> int:
    """The number of copies matched (two per line ``mine`` could still complete, each to an
    empty cell of its line, the cells distinct: ``owner[c]`` the copy holding cell c), or -1
    if there is no such matching (augmenting paths, breadth first).
    """
    empty = ~(mine | theirs)
    if cells < 64:
        empty &= (_ONE << np.uint64(cells)) - _ONE
    n = 0
    free = popcount(empty)
    for j in range(lines.shape[0]):
        if lines[j] & theirs == _ZERO:
            if popcount(lines[j] & empty) < 2:
                return -1
            copies[n] = j
            copies[n + 1] = j
            n += 2
            if n > free:
                return -1
    for c in range(cells):
        owner[c] = -1
    for i in range(n):
        # breadth first from copy i over copies, through the cells they could take
        head = 0
        tail = 1
        queue[0] = i
        seen = _ZERO
        found = -1
        while head < tail and found < 0:
            q = queue[head]
            head += 1
            cand = lines[copies[q]] & empty & ~seen
            while cand != _ZERO:
                low = cand & (~cand + _ONE)
                cand ^= low
                c = popcount(low - _ONE)
                seen |= low
                came[c] = q
                if owner[c] < 0:
                    found = c
                    break
                queue[tail] = owner[c]
                tail += 1
        if found < 0:
            return -1
        # shift the cells along the path back to copy i
        c = found
        while True:
            q = came[c]
            prev = via[q] if q != i else -1
            owner[c] = q
            if q == i:
                break
            c = prev
        # via[q]: the cell copy q holds (for the next paths)
        for c2 in range(cells):
            if owner[c2] >= 0:
                via[owner[c2]] = c2
    return n


@njit(cache=True)
def _key(perms: np.ndarray, b0: np.uint64, b1: np.uint64, out: np.ndarray) -> None:
    best0 = b0
    best1 = b1
    for s in range(perms.shape[0]):
        i0 = _image(perms[s], b0)
        i1 = _image(perms[s], b1)
        if i0 < best0 or (i0 == best0 and i1 < best1):
            best0 = i0
            best1 = i1
    out[0] = best0
    out[1] = best1


@njit(cache=True)
def rehash(table: np.ndarray, used: np.ndarray, bigger: np.ndarray, bigger_used: np.ndarray) -> None:
    for i in range(table.shape[0]):
        if used[i]:
            set_add(bigger, bigger_used, table[i])


@njit(cache=True)
def defend(
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    k: int,
    cells: int,
    perms: np.ndarray,
    mperms: np.ndarray,
    mfixed: np.ndarray,
    player: int,
    mover0: int,
    b0s: np.ndarray,
    b1s: np.ndarray,
    iters: np.ndarray,
    table: np.ndarray,
    used: np.ndarray,
    rec_words: np.ndarray,
    rec_moves: np.ndarray,
    leaf_words: np.ndarray,
    leaf_kinds: np.ndarray,
    leaf_mirror: np.ndarray,
    leaf_pairs: np.ndarray,
    pairs: np.ndarray,
    scratch: np.ndarray,
    state: np.ndarray,
    slice_positions: int,
) -> int:
    """Play out the player's strategy (see :mod:`noughts.exact.misere_strategy`) from
    ``b0s[0], b1s[0]`` (``mover0`` to move), resuming where ``state`` says; returns a status.
    ``leaf_pairs`` holds each leaf's first row of ``pairs`` and its number of pairs.
    """
    full = (_ONE << np.uint64(cells)) - _ONE if cells < 64 else ~_ZERO
    nlines = lines.shape[0]
    owner = scratch[0:cells]
    copies = scratch[cells : cells + 2 * nlines]
    queue = scratch[cells + 2 * nlines : cells + 4 * nlines + 1]
    came = scratch[cells + 4 * nlines + 1 : 2 * cells + 4 * nlines + 1]
    via = scratch[2 * cells + 4 * nlines + 1 : 2 * cells + 6 * nlines + 1]
    key = np.zeros(2, dtype=np.uint64)
    d = state[S_DEPTH]
    mode = state[S_MODE]
    done = 0
    while True:
        if mode == RETURN:
            if d == 0:
                state[S_DEPTH] = 0
                state[S_MODE] = RETURN
                return DONE
            d -= 1
            mover = (mover0 + d) & 1
            mode = RETURN if mover == player else OPPONENT  # the player's node has its one child
            continue
        b0 = np.uint64(b0s[d])
        b1 = np.uint64(b1s[d])
        mover = (mover0 + d) & 1
        mine = b0 if player == 0 else b1
        theirs = b1 if player == 0 else b0
        if mode == ENTER:
            # room for what this node may record, asked before anything is done
            if 2 * (state[S_SEEN] + 1) > table.shape[0]:
                state[S_DEPTH] = d
                state[S_MODE] = ENTER
                return GROW_SEEN
            if state[S_RECORDS] + 1 > rec_moves.shape[0]:
                state[S_DEPTH] = d
                state[S_MODE] = ENTER
                return GROW_RECORDS
            if state[S_LEAVES] + 1 > leaf_kinds.shape[0]:
                state[S_DEPTH] = d
                state[S_MODE] = ENTER
                return GROW_LEAVES
            if state[S_PAIRS] + nlines > pairs.shape[0]:
                state[S_DEPTH] = d
                state[S_MODE] = ENTER
                return GROW_PAIRS
            if done >= slice_positions:
                state[S_DEPTH] = d
                state[S_MODE] = ENTER
                return PAUSED
            done += 1
            state[S_POSITIONS] += 1
            _key(perms, b0, b1, key)
            if set_add(table, used, key):
                mode = RETURN
                continue
            state[S_SEEN] += 1
            to_move = mover == player
            kind = 0
            m = -1
            if not to_move:
                m = _mirror_of(mperms, mfixed, mine, theirs)
                if m >= 0:
                    kind = MIRROR
            if kind == 0:
                kind = _horizon(lines, k, cells, mine, theirs, to_move)
            npairs = 0
            if kind == 0:
                npairs = _pairing(lines, cells, mine, theirs, owner, copies, queue, came, via)
                if npairs >= 0:
                    kind = PAIRING
            if kind != 0:
                r = state[S_LEAVES]
                leaf_words[r, 0] = b0
                leaf_words[r, 1] = b1
                leaf_kinds[r] = kind
                leaf_mirror[r] = m
                leaf_pairs[r, 0] = state[S_PAIRS]
                leaf_pairs[r, 1] = 0
                if kind == PAIRING:
                    # the copies' cells, two per line: a pair
                    for i in range(0, npairs, 2):
                        a = -1
                        b = -1
                        for c in range(cells):
                            if owner[c] == i:
                                a = c
                            elif owner[c] == i + 1:
                                b = c
                        pairs[state[S_PAIRS], 0] = min(a, b)
                        pairs[state[S_PAIRS], 1] = max(a, b)
                        state[S_PAIRS] += 1
                    leaf_pairs[r, 1] = npairs // 2
                state[S_LEAVES] += 1
                mode = RETURN
                continue
            if to_move:
                iters[d] = -1  # the choice's phases: leaves first, then the kernel's answers
                mode = CHOOSE
            else:
                iters[d] = 0
                mode = OPPONENT
            continue
        if mode == CHOOSE:
            occupied = b0 | b1
            empty = cells - popcount(occupied)
            move = -1
            if iters[d] == -1:
                # a move after which a mirror or the horizon settles it, then one after which a
                # pairing does
                for c in range(cells):
                    if occupied >> np.uint64(c) & _ONE or completes(
                        mine | (_ONE << np.uint64(c)), c, lines, through, nthrough
                    ):
                        continue
                    after = mine | (_ONE << np.uint64(c))
                    if _mirror_of(mperms, mfixed, after, theirs) >= 0 or _horizon(
                        lines, k, cells, after, theirs, False
                    ):
                        move = c
                        break
                if move < 0:
                    for c in range(cells):
                        if occupied >> np.uint64(c) & _ONE or completes(
                            mine | (_ONE << np.uint64(c)), c, lines, through, nthrough
                        ):
                            continue
                        after = mine | (_ONE << np.uint64(c))
                        if _pairing(lines, cells, after, theirs, owner, copies, queue, came, via) >= 0:
                            move = c
                            break
                if move < 0:
                    iters[d] = 0
            if move < 0:
                # the kernel's answers, cell by cell (an answer comes back in S_ANSWER)
                c = iters[d]
                if c >= 1000:
                    c -= 1000  # asked about c: the answer is in
                    if state[S_ANSWER] == 1:
                        move = c
                    else:
                        c += 1
                if move < 0:
                    while c < cells and (
                        occupied >> np.uint64(c) & _ONE
                        or completes(mine | (_ONE << np.uint64(c)), c, lines, through, nthrough)
                    ):
                        c += 1
                    if c >= cells:
                        state[S_DEPTH] = d
                        return BAD
                    if empty == 1:
                        move = c
                    else:
                        iters[d] = 1000 + c
                        state[S_TEST_CELL] = c
                        state[S_DEPTH] = d
                        state[S_MODE] = CHOOSE
                        return NEED_TEST
            r = state[S_RECORDS]
            rec_words[r, 0] = b0
            rec_words[r, 1] = b1
            rec_moves[r] = move
            state[S_RECORDS] += 1
            bit = _ONE << np.uint64(move)
            n0 = b0 | bit if player == 0 else b0
            n1 = b1 | bit if player == 1 else b1
            if n0 | n1 == full:
                mode = RETURN
                continue
            b0s[d + 1] = n0
            b1s[d + 1] = n1
            d += 1
            mode = ENTER
            continue
        # the opponent's turn: every empty cell in turn
        c = iters[d]
        occupied = b0 | b1
        while c < cells and occupied >> np.uint64(c) & _ONE:
            c += 1
        if c >= cells:
            mode = RETURN
            continue
        iters[d] = c + 1
        if completes(theirs | (_ONE << np.uint64(c)), c, lines, through, nthrough):
            continue  # the opponent completes a line: the player wins
        bit = _ONE << np.uint64(c)
        n0 = b0 | bit if player == 1 else b0
        n1 = b1 | bit if player == 0 else b1
        if n0 | n1 == full:
            continue  # a draw
        b0s[d + 1] = n0
        b1s[d + 1] = n1
        d += 1
        mode = ENTER
