"""numba kernel of the Q-agent's search tier (003 §2.4, §2.5, §6.1, §A.1), on bit boards.

The reference is :meth:`noughts.agents.qlearning.QAgent.root_scores`, a plain minimax with
alpha-beta over the position API that gives every root move its exact depth-limited score. The
kernel needs only the set of root moves whose score is the greatest (the tier keeps them and
lets the learned values break the tie), and finds it exactly with less work:

* children are tried centre first (003 §6.2's ordering) and a move that wins at once is taken
  first: a win now scores ``WIN + depth``, more than any later win or any heuristic value, so
  the node's value is known without looking further (exact, not a heuristic cut);
* the first root move gets an exact score; every later one is searched with the window
  ``(nextafter(best, -inf), +inf)``: alpha-beta returns the exact value of a move that reaches
  ``best`` and a bound below ``best`` for one that does not, so the tied set is exactly the
  reference's, while losing moves are cut early.

Leaves are scored by 003 §A.1's heuristic from the searching player's side, in the reference's
order of operations (so the floats agree to the last bit), plus, with ``blend > 0``, 003 §6.1's
``blend * Q_avg``: the mean learned value of the leaf's legal moves when the searching player is
to move there (its own values; 0 where it is the opponent's turn or the leaf was never visited).

Learned values are found through an open-addressing table of position keys
(``first | second << cells``), probed as :mod:`noughts.learn._qlearning_kernels` probes its own
(the same hash), so a training run and a frozen agent read the same entries.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noughts.kernels.bits import GOLDEN, popcount

WIN = 1_000_000.0
_ONE = np.uint64(1)
_GAMMA = GOLDEN
_S33 = np.uint64(33)


@njit(cache=True)
def probe(key, slots, keys):  # type: ignore[no-untyped-def]
    """The slot of ``key`` in an open-addressing table (``slots`` a power-of-two array of
    indices into ``keys``, -1 where empty): where it is, or the empty slot where it would go.
    """
    mask = slots.shape[0] - 1
    i = np.int64((np.uint64(key) * _GAMMA) >> _S33) & mask
    while True:
        j = slots[i]
        if j < 0 or keys[j] == key:
            return i
        i = (i + 1) & mask


@njit(cache=True)
def build_slots(keys, count, size):  # type: ignore[no-untyped-def]
    """A slot array of ``size`` (a power of two, more than ``count``) for ``keys[:count]``."""
    slots = np.full(size, -1, dtype=np.int64)
    for j in range(count):
        slots[probe(keys[j], slots, keys)] = j
    return slots


@njit(cache=True)
def find(key, slots, keys):  # type: ignore[no-untyped-def]
    """The index of ``key`` in the table, or -1."""
    if slots.shape[0] == 0:
        return -1
    return slots[probe(key, slots, keys)]


@njit(cache=True, inline="always")
def _wins(bits, cell, through, nthrough):  # type: ignore[no-untyped-def]
    b = bits | (_ONE << np.uint64(cell))
    for t in range(nthrough[cell]):
        m = through[cell, t]
        if b & m == m:
            return True
    return False


@njit(cache=True)
def heuristic(mine, theirs, masks, k, centre, corners, iron):  # type: ignore[no-untyped-def]
    """003 §A.1 from ``mine``'s side (the reference's arithmetic, in its order)."""
    attack = 0.0
    defence = 0.0
    for j in range(masks.shape[0]):
        m = masks[j]
        a = np.int64(popcount(mine & m))  # signed: popcount's count is unsigned in numba
        b = np.int64(popcount(theirs & m))
        if b == 0:
            if a == k:
                attack += 10_000
            elif a == k - 1:
                attack += 10
            elif a == k - 2 and a > 0:
                attack += 4
        elif a == 0:
            if b == k - 1:
                defence -= 8_000
            elif b == k - 2 and b > 0:
                defence -= 400
    c = np.int64(popcount(mine & centre)) - np.int64(popcount(theirs & centre))
    co = np.int64(popcount(mine & corners))
    score = 50.0 * c + 10.0 * co
    if iron:
        score += 0.2 * attack + 2.0 * defence
        if theirs & centre:
            score -= 200.0
    else:
        score += attack + defence
    return score


@njit(cache=True)
def _leaf(bme, bop, me, my_turn, cells, full, masks, k, centre, corners, iron, keys, q, slots, blend):  # type: ignore[no-untyped-def]
    h = heuristic(bme, bop, masks, k, centre, corners, iron)
    if blend > 0.0 and my_turn:
        b0 = bme if me == 0 else bop
        b1 = bop if me == 0 else bme
        j = find(np.int64(b0 | (b1 << np.uint64(cells))), slots, keys)
        if j >= 0:
            occ = bme | bop
            s = 0.0
            n = 0
            for c in range(cells):
                if ((occ >> np.uint64(c)) & _ONE) == 0:
                    s += q[j, c]
                    n += 1
            return h + blend * (s / n)
    return h


@njit(cache=True)
def _value(  # type: ignore[no-untyped-def]
    bme, bop, me, my_turn, depth, alpha, beta, cells, full, order, masks, k, centre, corners, iron,
    through, nthrough, keys, q, slots, blend, nodes,
):  # fmt: skip
    """The depth-limited minimax value of a position with ``depth`` plies left, from ``me``'s
    side; ``my_turn`` (1 or 0): whether ``me`` moves. Fail-soft alpha-beta: exact inside the
    window, a bound beyond it. Integer flags, not literal booleans: numba specialises literal
    arguments of a recursive function and then cannot link the recursion.
    """
    nodes[0] += 1
    if depth <= 0:
        return _leaf(
            bme, bop, me, my_turn == 1, cells, full, masks, k, centre, corners, iron, keys, q, slots, blend
        )
    occ = bme | bop
    mover = bme if my_turn == 1 else bop
    for c in range(cells):  # a win now is the best the mover can do
        if ((occ >> np.uint64(c)) & _ONE) == 0 and _wins(mover, c, through, nthrough):
            return (WIN + depth - 1) if my_turn == 1 else -(WIN + depth - 1)
    best = -np.inf if my_turn == 1 else np.inf
    other = 1 - my_turn
    for i in range(cells):
        c = order[i]
        bit = _ONE << np.uint64(c)
        if (occ & bit) != 0:
            continue
        if (occ | bit) == full:
            v = 0.0
        else:
            nme = bme | bit if my_turn == 1 else bme
            nop = bop if my_turn == 1 else bop | bit
            v = _value(nme, nop, me, other, depth - 1, alpha, beta, cells, full, order, masks, k, centre,
                       corners, iron, through, nthrough, keys, q, slots, blend, nodes)  # fmt: skip
        if my_turn == 1:
            if v > best:
                best = v
            if v > alpha:
                alpha = v
        else:
            if v < best:
                best = v
            if v < beta:
                beta = v
        if beta <= alpha:
            break
    return best


@njit(cache=True)
def tied_best(  # type: ignore[no-untyped-def]
    bme, bop, me, depth, allowed, cells, full, order, masks, k, centre, corners, iron,
    through, nthrough, keys, q, slots, blend, nodes,
):  # fmt: skip
    """The bit mask of the moves in ``allowed`` whose depth-limited minimax score (``depth``
    plies, ``me`` to move) is the greatest: exactly the moves the reference ties.
    """
    occ = bme | bop
    best = -np.inf
    out = np.uint64(0)
    for i in range(cells):
        c = order[i]
        bit = _ONE << np.uint64(c)
        if (occ & bit) != 0 or (allowed & bit) == 0:
            continue
        if _wins(bme, c, through, nthrough):
            v = WIN + depth - 1
        elif (occ | bit) == full:
            v = 0.0
        else:
            alpha = -np.inf if best == -np.inf else np.nextafter(best, -np.inf)
            opponent = me - me  # 0: the opponent moves next (a variable, not a literal; see _value)
            v = _value(bme | bit, bop, me, opponent, depth - 1, alpha, np.inf, cells, full, order, masks, k, centre,
                       corners, iron, through, nthrough, keys, q, slots, blend, nodes)  # fmt: skip
        if v > best:
            best = v
            out = bit
        elif v == best:
            out |= bit
    return out
