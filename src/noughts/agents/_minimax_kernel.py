"""The minimax agent's search kernel: the Python search of :mod:`noughts.agents.minimax`, move for
move and score for score, in numba, over line counts (any board size).

**The position** is kept as the number of each player's marks on every line (``cnt[j, p]``) and
the owner of each cell; a claim is judged by :func:`noughts.kernels.counts.claim_counted` (held
to the rules claim by claim) and taken back by :func:`~noughts.kernels.counts.unclaim_counted`,
so a node costs the lines through one cell whatever the board's size.

**The evaluation is kept up to date**, not recomputed: beside the counts the kernel keeps, per
player, the lines it alone holds with ``k - 1`` and with ``k - 2`` marks, the number of its lines
completed by each empty cell (``thr[p, c]``) and the number of distinct such cells, and its
centre and corner cells; and for each cell the *busy* lines through it (``busy[c]``), those
holding at least ``max(1, k - 3)`` marks: on a line with fewer (and ``k >= 4``) one more mark
changes no term, so a cell with no busy line is worth what its centre and corner flags say. A claim removes the terms of the lines through its cell, changes their
counts and adds their terms back (a take-back the same), so a leaf's evaluation, the reference's
:func:`~noughts.agents.minimax.evaluate` walk over every line, is a few additions here. The
leaves below a node one ply from the horizon are not even claimed: each one's score is read off
the terms of the lines through its cell (none at all for a cell with no busy line, when
``k >= 4``), which is what claiming, evaluating and taking back would give.

**The search** is the reference's fail-soft negamax (``MinimaxAgent._search``) with an explicit
stack: the same move order (completing cells, blocking cells, then the geometry's order; misère
games and ``order=false`` in cell order, which is ``legal_moves()``'s), the same window, the same
cut-offs and the same node count. It runs in slices: :func:`run` stops after ``limit`` nodes with
its whole state in the arrays and goes on where it stopped when called again, so the Python
driver looks at the clock between slices.

**The table** keeps what the reference's dictionary keeps: for a searched position and its
remaining depth, the best score (wins and losses counted from the position) and whether it is
exact, a lower or an upper bound, consulted only at the same remaining depth. It is an array with
open addressing (a short run of slots from the hashed index) keyed by two independent 64-bit
Zobrist hashes of the position and the depth; an entry is lost only when its whole run is full
(``V[LOST]`` counts them). While nothing is lost the table holds what the dictionary holds, so
the bounds the search returns, not only its exact scores, are the reference's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from noughts.kernels.codes import (
    CUMULATIVE,
    DRAW,
    ENTER,
    LOOP,
    MAKER_BREAKER,
    MISERE,
    RETURN,
    RUNNING,
    STANDARD,
)
from noughts.kernels.counts import claim_counted, unclaim_counted

WIN = 10**9
SCORE_UNIT = 10**6
INF = 2 * WIN
CENTRE, CORNER = 50, 10
OWN1, OWN2 = 10, 4
OPP1, OPP2 = 8000, 400

PROBES = 16
"""Slots of the table tried from a position's index before an entry is given up."""

# P: parameters
P_RULE, P_MAKER, P_K, P_CELLS, P_ORDER, P_TT, NUM_P = range(7)

# V: the position's running terms and the search's control
(
    N1,  # 0, 1: lines with k-1 marks of one player only
    N1b,
    N2,  # 2, 3: lines with k-2 marks of one player only (at least one)
    N2b,
    NC,  # 4, 5: distinct cells completing one of the player's lines
    NCb,
    CEN,  # 6, 7: centre cells owned
    CENb,
    COR,  # 8, 9: corner cells owned
    CORb,
    AUX0,  # survivors (Maker-Breaker) or the first player's score (cumulative)
    AUX1,
    EMPTY,
    NODES,
    SP,
    PHASE,
    RET,
    PLY0,
    LOST,
    STORED,
    ROOT_CELL,  # the claim that leads from the position held to the search's first frame
    ROOT_MOVER,
    SAV0_ROOT,  # the aux values before it
    SAV1_ROOT,
    NUM_V,
) = range(25)

# per-frame scalars of the explicit stack
F_MOVER, F_RES, F_DEP, F_ALPHA, F_BETA, F_ALPHA0, F_BEST, F_N, F_IDX, F_SAV0, F_SAV1, NUM_F = range(12)

START = RETURN + 1  # the phases: ENTER, LOOP, RETURN (noughts.kernels.codes), and the root's claim


@njit(cache=True, inline="always")
def _line_terms(j: Any, sign: Any, k: Any, cnt: Any, owner: Any, line_cells: Any, thr: Any, V: Any) -> Any:
    """Add (``sign`` 1) or remove (-1) line ``j``'s terms as its counts and cells are now."""
    a0 = cnt[j, 0]
    a1 = cnt[j, 1]
    if a1 == 0 and a0 > 0:
        p = 0
        a = a0
    elif a0 == 0 and a1 > 0:
        p = 1
        a = a1
    else:
        return
    if a == k - 1:
        V[N1 + p] += sign
        for i in range(k):
            e = line_cells[j, i]
            if owner[e] < 0:
                t = thr[p, e] + sign
                thr[p, e] = t
                if sign > 0 and t == 1:
                    V[NC + p] += 1
                elif sign < 0 and t == 0:
                    V[NC + p] -= 1
                break
    elif a == k - 2:
        V[N2 + p] += sign


@njit(cache=True)
def play(
    P: Any,
    cnt: Any,
    owner: Any,
    thr: Any,
    busy: Any,
    V: Any,
    H: Any,
    through: Any,
    nthrough: Any,
    line_cells: Any,
    centre: Any,
    corner: Any,
    zob: Any,
    cell: Any,
    mover: Any,
) -> Any:
    """``mover`` claims ``cell``: the counts, the terms, the hashes and the aux values follow;
    returns the claim's result code.
    """
    k = P[P_K]
    tau = max(1, k - 3)
    for t in range(nthrough[cell]):
        j = through[cell, t]
        _line_terms(j, -1, k, cnt, owner, line_cells, thr, V)
        if cnt[j, 0] + cnt[j, 1] == tau - 1:  # the line becomes busy
            for i in range(k):
                busy[line_cells[j, i]] += 1
    owner[cell] = mover
    V[EMPTY] -= 1
    res, a0, a1 = claim_counted(
        P[P_RULE], P[P_MAKER], mover, cnt, k, through, nthrough, cell, V[EMPTY] == 0, V[AUX0], V[AUX1]
    )
    V[AUX0] = a0
    V[AUX1] = a1
    for t in range(nthrough[cell]):
        _line_terms(through[cell, t], 1, k, cnt, owner, line_cells, thr, V)
    V[CEN + mover] += centre[cell]
    V[COR + mover] += corner[cell]
    H[0] ^= zob[cell, mover, 0]
    H[1] ^= zob[cell, mover, 1]
    return res


@njit(cache=True)
def unplay(
    P: Any,
    cnt: Any,
    owner: Any,
    thr: Any,
    busy: Any,
    V: Any,
    H: Any,
    through: Any,
    nthrough: Any,
    line_cells: Any,
    centre: Any,
    corner: Any,
    zob: Any,
    cell: Any,
    mover: Any,
    aux0: Any,
    aux1: Any,
) -> Any:
    """Take ``mover``'s claim of ``cell`` back (``aux0``, ``aux1``: the values before it)."""
    k = P[P_K]
    tau = max(1, k - 3)
    for t in range(nthrough[cell]):
        _line_terms(through[cell, t], -1, k, cnt, owner, line_cells, thr, V)
    unclaim_counted(mover, cnt, through, nthrough, cell)
    owner[cell] = -1
    V[EMPTY] += 1
    for t in range(nthrough[cell]):
        j = through[cell, t]
        _line_terms(j, 1, k, cnt, owner, line_cells, thr, V)
        if cnt[j, 0] + cnt[j, 1] == tau - 1:  # the line is busy no more
            for i in range(k):
                busy[line_cells[j, i]] -= 1
    V[AUX0] = aux0
    V[AUX1] = aux1
    V[CEN + mover] -= centre[cell]
    V[COR + mover] -= corner[cell]
    H[0] ^= zob[cell, mover, 0]
    H[1] ^= zob[cell, mover, 1]


@njit(cache=True)
def setup(
    P: Any,
    cnt: Any,
    owner: Any,
    thr: Any,
    busy: Any,
    V: Any,
    H: Any,
    through: Any,
    nthrough: Any,
    line_cells: Any,
    centre: Any,
    corner: Any,
    zob: Any,
    start: Any,
    aux0: Any,
    aux1: Any,
) -> Any:
    """Load a position given as ``start`` (each cell's owner, -1 empty) and its aux values."""
    cnt[:, :] = 0
    owner[:] = -1
    thr[:, :] = 0
    busy[:] = 0
    for i in range(NODES):
        V[i] = 0
    V[EMPTY] = owner.shape[0]
    H[0] = 0
    H[1] = 0
    for c in range(owner.shape[0]):
        p = start[c]
        if p >= 0:
            play(P, cnt, owner, thr, busy, V, H, through, nthrough, line_cells, centre, corner, zob, c, p)
    V[AUX0] = aux0
    V[AUX1] = aux1


@njit(cache=True, inline="always")
def _score(
    rule: Any,
    maker: Any,
    me: Any,
    ply: Any,
    own1: Any,
    own2: Any,
    opp1: Any,
    opp2: Any,
    opp_cells: Any,
    centre: Any,
    corner: Any,
    diff: Any,
) -> Any:
    """The evaluation of a position for ``me`` to move from its terms: ``own1``, ``own2`` (and
    ``opp1``, ``opp2``) the mover's (the opponent's) lines with k-1 and k-2 marks, ``opp_cells``
    the opponent's distinct completing cells, ``centre`` and ``corner`` the mover's cells less
    the opponent's, ``diff`` the first player's score less the second's (cumulative rules).
    """
    if rule == STANDARD or rule == MAKER_BREAKER:  # noqa: SIM109  (numba: plain comparisons)
        i_make = rule == STANDARD or maker == me
        they_make = rule == STANDARD or maker != me
        if i_make and own1 > 0:
            return WIN - (ply + 1)
        if they_make and opp_cells >= 2:
            return -(WIN - (ply + 2))
    score = 0
    if rule == STANDARD:
        score = OWN1 * own1 + OWN2 * own2 - OPP1 * opp1 - OPP2 * opp2
    elif rule == MISERE:
        return -(OWN1 * own1 + OWN2 * own2) + OWN1 * opp1 + OWN2 * opp2
    elif rule == MAKER_BREAKER:
        score = OWN1 * own1 + OWN2 * own2 if maker == me else -(OPP1 * opp1 + OPP2 * opp2)
    else:
        score = 1000 * (diff if me == 0 else -diff)
        score += OWN1 * (own1 - opp1) + OWN2 * (own2 - opp2)
    return score + CENTRE * centre + CORNER * corner


@njit(cache=True)
def evaluate(P: Any, V: Any, me: Any, ply: Any) -> Any:
    """:func:`noughts.agents.minimax.evaluate` of the position held, for ``me`` to move at ``ply``."""
    op = 1 - me
    return _score(
        P[P_RULE], P[P_MAKER], me, ply, V[N1 + me], V[N2 + me], V[N1 + op], V[N2 + op], V[NC + op],
        V[CEN + me] - V[CEN + op], V[COR + me] - V[COR + op], V[AUX0] - V[AUX1],
    )  # fmt: skip


@njit(cache=True, inline="always")
def _leaf(
    P: Any,
    cnt: Any,
    owner: Any,
    thr: Any,
    busy: Any,
    V: Any,
    through: Any,
    nthrough: Any,
    line_cells: Any,
    centre: Any,
    corner: Any,
    me: Any,
    c: Any,
    ply: Any,
    fresh: Any,
) -> Any:
    """The score of the leaf after ``me`` claims ``c`` (standard and misère rules), for the side
    to move there: what claiming, evaluating and taking back would give, read off the terms of
    the lines through ``c`` without changing anything. ``fresh``: scratch room for new cells.
    """
    rule = P[P_RULE]
    op = 1 - me
    if thr[me, c] > 0:  # the claim completes a line of the mover's
        return WIN - ply if rule == MISERE else -(WIN - ply)
    if V[EMPTY] == 1:
        return 0  # a draw: the board is full
    k = P[P_K]
    n1m = V[N1 + me]
    n2m = V[N2 + me]
    n1o = V[N1 + op]
    n2o = V[N2 + op]
    nf = 0
    # a line with at most k - 4 marks changes no term with one more (k >= 4: see ``busy``)
    for t in range(nthrough[c] if busy[c] > 0 or k < 4 else 0):
        j = through[c, t]
        a = cnt[j, me]
        b = cnt[j, op]
        if b == 0:
            if a == k - 2 and a > 0:
                n2m -= 1
            a += 1
            if a == k - 1:
                n1m += 1
                for i in range(k):
                    e = line_cells[j, i]
                    if owner[e] < 0 and e != c:
                        if thr[me, e] == 0:
                            seen = False
                            for f in range(nf):
                                if fresh[f] == e:
                                    seen = True
                                    break
                            if not seen:
                                fresh[nf] = e
                                nf += 1
                        break
            elif a == k - 2:
                n2m += 1
        elif a == 0:
            if b == k - 1:
                n1o -= 1
            elif b == k - 2:
                n2o -= 1
    cells_me = V[NC + me] + nf  # the claimed cell completed none of the mover's lines
    return _score(
        rule, P[P_MAKER], op, ply, n1o, n2o, n1m, n2m, cells_me,
        V[CEN + op] - V[CEN + me] - centre[c], V[COR + op] - V[COR + me] - corner[c], 0,
    )  # fmt: skip


@njit(cache=True, inline="always")
def _terminal(P: Any, V: Any, me: Any, res: Any, ply: Any) -> Any:
    if P[P_RULE] == CUMULATIVE:
        diff = V[AUX0] - V[AUX1]
        return SCORE_UNIT * (diff if me == 0 else -diff)
    if res == DRAW:
        return 0
    return WIN - ply if res == me else -(WIN - ply)


@njit(cache=True, inline="always")
def _generate(P: Any, owner: Any, thr: Any, V: Any, order: Any, me: Any, row: Any) -> Any:
    """The moves of the position held, in the reference's order, into ``row``; their number."""
    cells = P[P_CELLS]
    n = 0
    if P[P_ORDER] == 0 or P[P_RULE] == MISERE:
        for c in range(cells):
            if owner[c] < 0:
                row[n] = c
                n += 1
        return n
    op = 1 - me
    if V[N1 + me] > 0:
        for i in range(cells):
            c = order[i]
            if owner[c] < 0 and thr[me, c] > 0:
                row[n] = c
                n += 1
    if V[N1 + op] > 0:
        for i in range(cells):
            c = order[i]
            if owner[c] < 0 and thr[op, c] > 0 and thr[me, c] == 0:
                row[n] = c
                n += 1
    for i in range(cells):
        c = order[i]
        if owner[c] < 0 and thr[me, c] == 0 and thr[op, c] == 0:
            row[n] = c
            n += 1
    return n


@njit(cache=True, inline="always")
def _to_table(v: Any, ply: Any) -> Any:
    if v > WIN // 2:
        return v + ply
    if v < -WIN // 2:
        return v - ply
    return v


@njit(cache=True, inline="always")
def _from_table(v: Any, ply: Any) -> Any:
    if v > WIN // 2:
        return v - ply
    if v < -WIN // 2:
        return v + ply
    return v


@njit(cache=True)
def run(
    P: Any,
    cnt: Any,
    owner: Any,
    thr: Any,
    busy: Any,
    V: Any,
    H: Any,
    through: Any,
    nthrough: Any,
    line_cells: Any,
    centre: Any,
    corner: Any,
    zob: Any,
    order: Any,
    zdep: Any,
    tka: Any,
    tkb: Any,
    tval: Any,
    tkind: Any,
    F: Any,
    moves: Any,
    limit: Any,
) -> Any:
    """Search on from where the last slice stopped, at most ``limit`` nodes; 1 when the search
    is finished (its score in ``V[RET]``, the position held as it was before), 0 when the slice
    ran out. A search starts at ``V[PHASE] = START``: the claim of ``V[ROOT_CELL]`` by
    ``V[ROOT_MOVER]`` leads to its first frame (``F[0]``: mover, depth, window), which is taken
    back at the end.
    """
    sp = V[SP]
    phase = V[PHASE]
    ret = V[RET]
    mask = tka.shape[0] - 1
    steps = 0
    fresh = np.empty(through.shape[1] + 1, dtype=np.int64)
    pre = np.empty((2, 2), dtype=np.int64)
    if phase == START:
        V[SAV0_ROOT] = V[AUX0]
        V[SAV1_ROOT] = V[AUX1]
        F[0, F_RES] = play(
            P, cnt, owner, thr, busy, V, H, through, nthrough, line_cells, centre, corner, zob,
            V[ROOT_CELL], V[ROOT_MOVER],
        )  # fmt: skip
        phase = ENTER
    while True:
        if phase == ENTER:
            if steps >= limit:
                V[SP] = sp
                V[PHASE] = phase
                V[RET] = ret
                return 0
            steps += 1
            V[NODES] += 1
            ply = V[PLY0] + sp
            me = F[sp, F_MOVER]
            res = F[sp, F_RES]
            dep = F[sp, F_DEP]
            if res != RUNNING:
                ret = _terminal(P, V, me, res, ply)
                phase = RETURN
                continue
            if dep == 0:
                ret = evaluate(P, V, me, ply)
                phase = RETURN
                continue
            if P[P_TT]:
                ka = H[0] ^ zdep[dep, 0]
                kb = H[1] ^ zdep[dep, 1]
                at = np.int64(ka & np.uint64(mask))
                hit = False
                for i in range(PROBES):
                    s = (at + i) & mask
                    kind = tkind[s]
                    if kind == 0:
                        break
                    if tka[s] == ka and tkb[s] == kb:
                        v = _from_table(tval[s], ply)
                        kind -= 2  # stored as kind + 2: 1 upper bound, 2 exact, 3 lower bound
                        if (
                            kind == 0
                            or (kind > 0 and v >= F[sp, F_BETA])
                            or (kind < 0 and v <= F[sp, F_ALPHA])
                        ):
                            ret = v
                            hit = True
                        break
                if hit:
                    phase = RETURN
                    continue
            F[sp, F_ALPHA0] = F[sp, F_ALPHA]
            F[sp, F_BEST] = -INF
            F[sp, F_N] = _generate(P, owner, thr, V, order, me, moves[sp])
            F[sp, F_IDX] = 0
            phase = LOOP
        elif phase == LOOP:
            i = F[sp, F_IDX]
            if F[sp, F_DEP] == 1 and (P[P_RULE] == STANDARD or P[P_RULE] == MISERE):
                # the children are leaves: score them in place (the same nodes, the same order)
                me = F[sp, F_MOVER]
                op = 1 - me
                ply = V[PLY0] + sp + 1
                n = F[sp, F_N]
                best = F[sp, F_BEST]
                alpha = F[sp, F_ALPHA]
                beta = F[sp, F_BETA]
                quiet = P[P_K] >= 4 and V[EMPTY] > 1
                if quiet:  # a cell whose lines hold no mark: its leaf differs by centre and corner only
                    for a in range(2):
                        for b in range(2):
                            pre[a, b] = -_score(
                                P[P_RULE], P[P_MAKER], op, ply, V[N1 + op], V[N2 + op], V[N1 + me], V[N2 + me],
                                V[NC + me], V[CEN + op] - V[CEN + me] - a, V[COR + op] - V[COR + me] - b, 0,
                            )  # fmt: skip
                first = i
                end = n if n - i <= limit - steps else i + (limit - steps)
                cut = False
                while i < end:
                    c = moves[sp, i]
                    i += 1
                    if quiet and busy[c] == 0:
                        v = pre[centre[c], corner[c]]
                    else:
                        v = -_leaf(P, cnt, owner, thr, busy, V, through, nthrough, line_cells, centre, corner, me,
                                   c, ply, fresh)  # fmt: skip
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                cut = True
                                break
                steps += i - first
                V[NODES] += i - first
                F[sp, F_BEST] = best
                F[sp, F_ALPHA] = alpha
                if not cut and i < n:  # the slice ran out
                    F[sp, F_IDX] = i
                    V[SP] = sp
                    V[PHASE] = phase
                    V[RET] = ret
                    return 0
                i = n
                F[sp, F_IDX] = n
            if i < F[sp, F_N]:
                c = moves[sp, i]
                me = F[sp, F_MOVER]
                F[sp, F_SAV0] = V[AUX0]
                F[sp, F_SAV1] = V[AUX1]
                r = play(
                    P, cnt, owner, thr, busy, V, H, through, nthrough, line_cells, centre, corner, zob, c, me
                )
                sp += 1
                F[sp, F_MOVER] = 1 - me
                F[sp, F_RES] = r
                F[sp, F_DEP] = F[sp - 1, F_DEP] - 1
                F[sp, F_ALPHA] = -F[sp - 1, F_BETA]
                F[sp, F_BETA] = -F[sp - 1, F_ALPHA]
                phase = ENTER
            else:
                best = F[sp, F_BEST]
                if P[P_TT]:
                    dep = F[sp, F_DEP]
                    ply = V[PLY0] + sp
                    if best <= F[sp, F_ALPHA0]:
                        kind = 1
                    elif best >= F[sp, F_BETA]:
                        kind = 3
                    else:
                        kind = 2
                    ka = H[0] ^ zdep[dep, 0]
                    kb = H[1] ^ zdep[dep, 1]
                    at = np.int64(ka & np.uint64(mask))
                    slot = np.int64(-1)
                    for i in range(PROBES):
                        s = (at + i) & mask
                        if tkind[s] == 0:
                            slot = s
                            V[STORED] += 1
                            break
                        if tka[s] == ka and tkb[s] == kb:
                            slot = s
                            break
                    if slot < 0:
                        slot = at
                        V[LOST] += 1
                    tka[slot] = ka
                    tkb[slot] = kb
                    tval[slot] = _to_table(best, ply)
                    tkind[slot] = kind
                ret = best
                phase = RETURN
        else:  # RETURN: ret is the score of frame sp, from its mover's view
            if sp == 0:
                unplay(
                    P, cnt, owner, thr, busy, V, H, through, nthrough, line_cells, centre, corner, zob,
                    V[ROOT_CELL], V[ROOT_MOVER], V[SAV0_ROOT], V[SAV1_ROOT],
                )  # fmt: skip
                V[SP] = 0
                V[PHASE] = START
                V[RET] = ret
                return 1
            sp -= 1
            i = F[sp, F_IDX]
            unplay(
                P, cnt, owner, thr, busy, V, H, through, nthrough, line_cells, centre, corner, zob,
                moves[sp, i], F[sp, F_MOVER], F[sp, F_SAV0], F[sp, F_SAV1],
            )  # fmt: skip
            v = -ret
            F[sp, F_IDX] = i + 1
            if v > F[sp, F_BEST]:
                F[sp, F_BEST] = v
                if v > F[sp, F_ALPHA]:
                    F[sp, F_ALPHA] = v
                    if v >= F[sp, F_BETA]:
                        F[sp, F_IDX] = F[sp, F_N]  # cut off
            phase = LOOP
