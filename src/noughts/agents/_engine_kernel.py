"""The engine's search kernel: alpha-beta with a transposition table, killer and history move
ordering, a line-pattern evaluation and a VCF threat search, over line counts (any board size).

**The position** is kept as the number of each player's marks on every line (``cnt[j, p]``)
and the owner of each cell; a claim is judged by :func:`noughts.kernels.counts.claim_counted`
(held to the rules claim by claim) and taken back by
:func:`~noughts.kernels.counts.unclaim_counted`, so a node costs the lines through one cell
whatever the board's size. Beside the counts the kernel keeps, updated with every claim and
restored with every take-back: the evaluation (the sum of every line's pattern value, from the
first player's view), the number of each player's *threat lines* (one empty cell from
complete, untouched by the other side, on rules where completing a line wins), a Zobrist hash
and the aux values of the rule (survivors, scores).

**Line-pattern evaluation.** A line that only one side has marked is worth ``W[a]`` to that side
(``a`` its marks; ``W`` grows geometrically, see :func:`weights`); under misère rules each
side's lines count against it; under Maker-Breaker rules only Maker's live lines count (a live
line with no mark still counts one: the survivors); under cumulative rules the score difference
is added. On mnk boards the lines are the k-windows, so an open four is two windows of four and
a closed four one: the patterns of gomoku programs come out of the window sums.

**Forced moves** (rules where completing a line wins: standard, and Maker's lines under
Maker-Breaker): a side with a threat line wins on its move; a side facing two distinct
completing cells of the other (and none of its own) loses; a side facing one must take it, and
that reply is searched without spending depth (a check extension). These scores are exact.

**VCF** (victory by continuous fours, Allis's threat-space search restricted to the threats
that leave one reply): the attacker plays only moves that make a threat line, the defender only
the cell that stops it (and the attacker answers the defender's counter-fours); the attacker
wins when a move makes two completing cells. Every defender move is forced, so a VCF win is a
proof. It is the proof engine's threat-space search at order 1
(:func:`noughts.proving.threat_kernels.threat_search`), run on this kernel's counts: one threat
search for both engines. It runs at the root (deep) and at the leaves of the alpha-beta
(shallow, with a node cap).

**Move ordering**: the transposition table's move, the two killer moves of the ply, then the
cells by *heat* (what the mover gains by claiming the cell plus what the opponent would gain:
attack and defence), the history table breaking ties; below the root only the ``width`` hottest
cells are searched (a selective search, so a score that is not a forced-move or VCF score is a
heuristic value, not a proof).

**The selective search** (``P[P_SELECT]``: below full width; at full width the search is the
plain alpha-beta its reference holds it to). Beside the heats the kernel keeps, per cell and
side, the number of that side's lines ``k - 2`` short through it (``S[29]``, held to a recount
in the tests; ``S[34]`` counts each side's empty cells on two or more): a cell on two of them may give two completing cells at once (a *three*: an open
four or a four-four next). Where the opponent has such a cell and the mover no completing cell,
every move but the cells on the opponent's short lines (its blocks) and the mover's own fours
loses at once, so only those are generated (threat-based generation, as gomoku engines do). The
moves after the first are searched with a null window and searched again in full where they
beat alpha (principal-variation search); from the fourth move of a node with 3 plies or more
left, quiet moves (no four made, no three's cell taken) are searched a ply shallower (two past
the eighth) and again at full depth where they beat alpha (late-move reductions). A quiet leaf
where the mover has a three to play gets ``P[P_THREE]`` on top of the evaluation.

**Combinations across lines** (``P[P_COMBO]``, the ``combo`` option, off by default; standard
rules, ``k`` at least 4): the kernel also keeps, per side, cell and direction, the lines
``k - 2`` and ``k - 3`` short (``S[30]``, ``S[31]``; the directions ``S[32]`` found from the line
tables by :func:`noughts.kernels.patterns.directions`), so each claim has a class
(four-four, four-three, three-three, four, three: :func:`noughts.kernels.patterns.cell_class`).
A quiet leaf adds ``CW[0]`` of the mover's strongest class less ``CW[1]`` of the other side's
(not where ``P[P_COMBO]`` is 2: the move order only), and the move order adds ``CW[2]`` of the mover's class at the cell and ``CW[3]`` of the other
side's (``S[33]``).

**The clock**: the kernel counts nodes (the alpha-beta's and the leaf VCFs' steps alike) and
stops (``V[ABORT]``) at the node budget its Python driver gives; the driver turns its clock into
budgets from the measured rate.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noughts.kernels.codes import CUMULATIVE, DRAW, MAKER_BREAKER, MISERE, RUNNING, STANDARD
from noughts.kernels.counts import claim_counted, unclaim_counted
from noughts.kernels.patterns import cell_class
from noughts.proving.threat_kernels import CUTOFF, DEF_BREAKER, DEF_LINES, FOUND, threat_search

WIN = 1_000_000
"""The score of a win at ply 0 (a win at ply n scores ``WIN - n``); scores within :data:`MATE`
of it are wins or losses."""
MATE = 10_000
INF = 2 * WIN
SCORE_UNIT = 100_000
"""A point of score under cumulative rules."""

MAXPLY = 128

# P[]: the parameters of a game
(
    P_RULE,
    P_MAKER,
    P_K,
    P_CELLS,
    P_LINES,
    P_WIDTH,
    P_LEAF_VCF,
    P_VCF_CAP,
    P_TT,
    P_SELECT,
    P_THREE,
    P_COMBO,
    P_NDIR,
    P_LMP,
) = range(14)
NUM_P = 14

# V[]: the search state
(V_EV, V_T0, V_T1, V_AUX0, V_AUX1, V_EMPTY, V_NODES, V_MAXNODES, V_ABORT, V_STAMP, V_VNODES, V_BEST,
 V_TTHITS, V_BESTV) = range(14)  # fmt: skip
NUM_V = 14

EXACT, LOWER, UPPER = 0, 1, 2


def weights(k: int) -> np.ndarray:
    """``W[a]``: what a line holding ``a`` marks of one side only is worth to that side:
    ``8**(a-1)`` for ``a`` from 1 to ``k - 1`` (a line one mark nearer completion is worth about
    as much as eight), 0 for an empty line; ``W[k]`` (a completed line) is never evaluated but
    kept above ``W[k-1]``.
    """
    w = np.zeros(k + 2, dtype=np.int64)
    for a in range(1, k + 2):
        w[a] = 8 ** min(a - 1, 6)
    return w


@njit(cache=True, inline="always")
def contrib(rule: int, maker: int, w: np.ndarray, a: int, b: int) -> int:
    """A line's pattern value from the first player's view (``a``, ``b``: the first and the
    second player's marks on it).
    """
    if rule == MAKER_BREAKER:
        mine = a if maker == 0 else b
        theirs = b if maker == 0 else a
        if theirs != 0:
            return 0
        v = w[mine] + 1
        return int(v if maker == 0 else -v)
    v = 0
    if b == 0 and a > 0:
        v = w[a]
    elif a == 0 and b > 0:
        v = -w[b]
    return int(-v if rule == MISERE else v)


@njit(cache=True, inline="always")
def wins_by_lines(rule: int, maker: int, p: int) -> bool:
    """Whether completing a line wins the game for ``p`` at once."""
    return rule == STANDARD or (rule == MAKER_BREAKER and p == maker)


@njit(cache=True, inline="always")
def is_threat(rule: int, maker: int, k: int, a: int, b: int, p: int) -> int:
    """1 if a line with counts ``a``, ``b`` is a threat line of ``p``, else 0."""
    mine = a if p == 0 else b
    theirs = b if p == 0 else a
    if mine == k - 1 and theirs == 0 and wins_by_lines(rule, maker, p):
        return 1
    return 0


@njit(cache=True)
def setup(S: tuple, owner_in: np.ndarray, aux0: int, aux1: int) -> None:  # type: ignore[type-arg]
    """Load a position (``owner_in[c]``: -1 empty, else the owner) into the state ``S``."""
    P, cnt, owner, _through, _nthrough, lcells, zob, w, V, H = S[:10]
    rule, maker, k, cells = P[P_RULE], P[P_MAKER], P[P_K], P[P_CELLS]
    h = np.uint64(0)
    empty = 0
    for c in range(cells):
        owner[c] = owner_in[c]
        if owner_in[c] >= 0:
            h ^= zob[c, owner_in[c]]
        else:
            empty += 1
    ev = 0
    t0 = 0
    t1 = 0
    for j in range(lcells.shape[0]):
        a = 0
        b = 0
        for i in range(k):
            o = owner[lcells[j, i]]
            if o == 0:
                a += 1
            elif o == 1:
                b += 1
        cnt[j, 0] = a
        cnt[j, 1] = b
        ev += contrib(rule, maker, w, a, b)
        t0 += is_threat(rule, maker, k, a, b, 0)
        t1 += is_threat(rule, maker, k, a, b, 1)
    g0, g1, hf, hs = S[21], S[22], S[23], S[24]
    for a in range(k + 1):
        for b in range(k + 1):
            before = contrib(rule, maker, w, a, b)
            g0[a, b] = contrib(rule, maker, w, a + 1, b) - before if a < k else 0
            g1[a, b] = -(contrib(rule, maker, w, a, b + 1) - before) if b < k else 0
    t3 = S[29]
    for c in range(cells):
        hf[c] = 0
        hs[c] = 0
        t3[0, c] = 0
        t3[1, c] = 0
    S[30][:] = 0
    S[31][:] = 0
    for j in range(lcells.shape[0]):
        a = cnt[j, 0]
        b = cnt[j, 1]
        for i in range(k):
            x = lcells[j, i]
            hf[x] += g0[a, b]
            hs[x] += g1[a, b]
            if a == k - 2 and b == 0:
                t3[0, x] += 1
            if b == k - 2 and a == 0:
                t3[1, x] += 1
        if P[P_COMBO] != 0:
            recombine(S, j, 1)
    dbl = S[34]
    dbl[0] = 0
    dbl[1] = 0
    for c in range(cells):
        if owner[c] == -1:
            dbl[0] += 1 if t3[0, c] >= 2 else 0
            dbl[1] += 1 if t3[1, c] >= 2 else 0
    H[0] = h
    V[V_EV] = ev
    V[V_T0] = t0
    V[V_T1] = t1
    V[V_AUX0] = aux0
    V[V_AUX1] = aux1
    V[V_EMPTY] = empty


@njit(cache=True, inline="always")
def recombine(S: tuple, j: int, sign: int) -> None:  # type: ignore[type-arg]
    """Add (``sign`` 1) or take away (-1) line ``j``'s share of the per-direction counts of
    lines ``k - 2`` and ``k - 3`` short (``S[30]``, ``S[31]``; see
    :mod:`noughts.kernels.patterns`). Kept only where ``P[P_COMBO]`` (``k`` at least 4, so an
    empty line is neither).
    """
    P, cnt, lcells, K2, K3, ldir = S[0], S[1], S[5], S[30], S[31], S[32]
    a = cnt[j, 0]
    b = cnt[j, 1]
    k = P[P_K]
    if a != 0 and b != 0:
        return
    p = 0 if b == 0 else 1
    m = a if p == 0 else b
    if m == k - 2:
        for i in range(k):
            K2[p, lcells[j, i], ldir[j, i]] += sign
    elif m == k - 3:
        for i in range(k):
            K3[p, lcells[j, i], ldir[j, i]] += sign


@njit(cache=True, inline="always")
def reheat(S: tuple, j: int, sign: int) -> None:  # type: ignore[type-arg]
    """Add (``sign`` 1) or take away (-1) line ``j``'s share of its cells' heats."""
    P, cnt, owner, lcells, g0, g1, hf, hs = S[0], S[1], S[2], S[5], S[21], S[22], S[23], S[24]
    t3, dbl = S[29], S[34]
    a = cnt[j, 0]
    b = cnt[j, 1]
    k = P[P_K]
    d0 = sign * g0[a, b]
    d1 = sign * g1[a, b]
    e0 = sign if a == k - 2 and b == 0 else 0
    e1 = sign if b == k - 2 and a == 0 else 0
    for i in range(k):
        x = lcells[j, i]
        hf[x] += d0
        hs[x] += d1
        if e0 != 0:
            t3[0, x] += e0
            if owner[x] == -1 and t3[0, x] == (2 if e0 > 0 else 1):  # crossed 2, up or down
                dbl[0] += e0
        if e1 != 0:
            t3[1, x] += e1
            if owner[x] == -1 and t3[1, x] == (2 if e1 > 0 else 1):
                dbl[1] += e1
    if P[P_COMBO] != 0:
        recombine(S, j, sign)


@njit(cache=True, inline="always")
def make(S: tuple, c: int, p: int) -> int:  # type: ignore[type-arg]
    """``p`` claims ``c``: counts, evaluation, threats, heats, hash and aux updated; the result
    code.
    """
    P, cnt, owner, through, nthrough, _lcells, zob, w, V, H = S[:10]
    rule, maker, k = P[P_RULE], P[P_MAKER], P[P_K]
    ev = V[V_EV]
    t0 = V[V_T0]
    t1 = V[V_T1]
    for t in range(nthrough[c]):
        j = through[c, t]
        a = cnt[j, 0]
        b = cnt[j, 1]
        ev -= contrib(rule, maker, w, a, b)
        t0 -= is_threat(rule, maker, k, a, b, 0)
        t1 -= is_threat(rule, maker, k, a, b, 1)
        reheat(S, j, -1)
    empty = V[V_EMPTY] - 1
    res, a0, a1 = claim_counted(
        rule, maker, p, cnt, k, through, nthrough, c, empty == 0, V[V_AUX0], V[V_AUX1]
    )
    for t in range(nthrough[c]):
        j = through[c, t]
        a = cnt[j, 0]
        b = cnt[j, 1]
        ev += contrib(rule, maker, w, a, b)
        t0 += is_threat(rule, maker, k, a, b, 0)
        t1 += is_threat(rule, maker, k, a, b, 1)
        reheat(S, j, 1)
    V[V_EV] = ev
    V[V_T0] = t0
    V[V_T1] = t1
    V[V_AUX0] = a0
    V[V_AUX1] = a1
    V[V_EMPTY] = empty
    owner[c] = p
    t3, dbl = S[29], S[34]
    dbl[0] -= 1 if t3[0, c] >= 2 else 0
    dbl[1] -= 1 if t3[1, c] >= 2 else 0
    H[0] ^= zob[c, p]
    return res


@njit(cache=True, inline="always")
def unmake(S: tuple, c: int, p: int, saved: tuple) -> None:  # type: ignore[type-arg]
    """Take ``p``'s claim of ``c`` back (``saved``: the state values before it)."""
    _P, cnt, owner, through, nthrough, _lcells, zob, _w, V, H = S[:10]
    for t in range(nthrough[c]):
        reheat(S, through[c, t], -1)
    unclaim_counted(p, cnt, through, nthrough, c)
    for t in range(nthrough[c]):
        reheat(S, through[c, t], 1)
    owner[c] = -1
    t3, dbl = S[29], S[34]
    dbl[0] += 1 if t3[0, c] >= 2 else 0
    dbl[1] += 1 if t3[1, c] >= 2 else 0
    H[0] ^= zob[c, p]
    V[V_EV], V[V_T0], V[V_T1], V[V_AUX0], V[V_AUX1], V[V_EMPTY] = saved


@njit(cache=True, inline="always")
def save(V: np.ndarray) -> tuple:  # type: ignore[type-arg]
    return V[V_EV], V[V_T0], V[V_T1], V[V_AUX0], V[V_AUX1], V[V_EMPTY]


@njit(cache=True)
def threat_cells(S: tuple, p: int, out: np.ndarray) -> int:  # type: ignore[type-arg]
    """The distinct cells that complete a threat line of ``p`` (up to 2, in ``out``): how many."""
    P, cnt, owner, _through, _nthrough, lcells = S[:6]
    rule, maker, k = P[P_RULE], P[P_MAKER], P[P_K]
    n = 0
    for j in range(lcells.shape[0]):
        if is_threat(rule, maker, k, cnt[j, 0], cnt[j, 1], p):
            for i in range(k):
                c = lcells[j, i]
                if owner[c] == -1:
                    if n == 0:
                        out[0] = c
                        n = 1
                    elif c != out[0]:
                        out[1] = c
                        return 2
                    break
    return n


@njit(cache=True)
def evaluate(S: tuple, mover: int) -> int:  # type: ignore[type-arg]
    """The static score from ``mover``'s view."""
    P, V = S[0], S[8]
    v = V[V_EV]
    if P[P_RULE] == CUMULATIVE:
        v += SCORE_UNIT * (V[V_AUX0] - V[V_AUX1])
    return int(v if mover == 0 else -v)


@njit(cache=True)
def terminal(res: int, mover: int, ply: int) -> int:
    """A finished game's score from ``mover``'s view (``mover`` made the last claim at ``ply``)."""
    if res == DRAW:
        return 0
    if res == mover:
        return WIN - (ply + 1)
    return -(WIN - (ply + 1))


@njit(cache=True, inline="always")
def heat(S: tuple, c: int, mover: int) -> int:  # type: ignore[type-arg]
    """What claiming ``c`` is worth: five parts of what ``mover`` gains (attack) and four of
    what the opponent would gain there (defence), in evaluation units (the gains are kept per
    cell, ``hf`` for the first player and ``hs`` for the second, updated with every claim).
    """
    hf, hs = S[23], S[24]
    if mover == 0:
        return int(5 * hf[c] + 4 * hs[c])
    return int(5 * hs[c] + 4 * hf[c])


@njit(cache=True)
def can_double(S: tuple, p: int) -> bool:  # type: ignore[type-arg]
    """Whether ``p`` has an empty cell on two or more of its lines ``k - 2`` short (and
    untouched by the other side): a claim there may make two completing cells at once (an open
    four, a four-four), a *three* in gomoku's words. A superset: two such lines may share their
    last empty cell.
    """
    P = S[0]
    if P[P_K] < 4 or not wins_by_lines(P[P_RULE], P[P_MAKER], p):
        return False
    return bool(S[34][p] > 0)  # the empty cells with t3[p] at least 2, kept claim by claim


@njit(cache=True)
def generate(S: tuple, mover: int, ply: int, ttmove: int, width: int) -> tuple:  # type: ignore[type-arg]
    """The moves to search at ``ply``, best first, in ``mbuf[ply]``: the table's move, the
    killers, then the ``width`` hottest cells (history breaking ties); how many, and whether
    the moves were restricted by a threat.

    **Threat-based generation** (selective searches only, ``P[P_SELECT]``): where the
    opponent can make two completing cells with one claim (:func:`can_double`) and the mover
    has no completing cell, every move but those on the opponent's lines ``k - 2`` short (the
    blocks) and those that make a completing cell of the mover's own (a four: the one answer
    that is not a block) loses at once, so only those are generated.
    """
    P, owner, nthrough, t3 = S[0], S[2], S[4], S[29]
    killers, hist, mbuf, sbuf = S[15], S[16], S[17], S[18]
    cells = P[P_CELLS]
    op = 1 - mover
    restrict = P[P_SELECT] != 0 and can_double(S, op)
    own_four = wins_by_lines(P[P_RULE], P[P_MAKER], mover)
    combo = P[P_COMBO] != 0
    K2, K3, CW, ndir = S[30], S[31], S[33], P[P_NDIR]
    n = 0
    for c in range(cells):
        if owner[c] != -1:
            continue
        if restrict and t3[op, c] == 0 and not (own_four and t3[mover, c] > 0):
            continue
        h = heat(S, c, mover)
        if combo:
            h += CW[2, cell_class(K2, K3, mover, c, ndir)] + CW[3, cell_class(K2, K3, op, c, ndir)]
        score = h * 64 + nthrough[c] * 4 + min(hist[mover, c], 3)
        if c == ttmove:
            score += 1 << 60
        elif c == killers[ply, 0] or c == killers[ply, 1]:
            score += 1 << 50
        mbuf[ply, n] = c
        sbuf[ply, n] = score
        n += 1
    m = min(n, width)
    for i in range(m):  # selection of the m best, in order
        bi = i
        for x in range(i + 1, n):
            if sbuf[ply, x] > sbuf[ply, bi]:
                bi = x
        if bi != i:
            mbuf[ply, i], mbuf[ply, bi] = mbuf[ply, bi], mbuf[ply, i]
            sbuf[ply, i], sbuf[ply, bi] = sbuf[ply, bi], sbuf[ply, i]
    return m, restrict


@njit(cache=True)
def leaf_value(S: tuple, mover: int) -> int:  # type: ignore[type-arg]
    """The value of a quiet leaf from ``mover``'s view: the evaluation, plus ``P[P_THREE]``
    in selective searches where the mover can make two completing cells with one claim (a
    three of its own to play, with the move).
    """
    P = S[0]
    v = evaluate(S, mover)
    if P[P_SELECT] != 0 and P[P_THREE] != 0 and can_double(S, mover):
        v += P[P_THREE]
    if P[P_COMBO] == 1:  # 2: the move order only
        v += combo_value(S, mover)
    return v


@njit(cache=True)
def best_classes(S: tuple, mover: int) -> tuple:  # type: ignore[type-arg]
    """The strongest claim class (:mod:`noughts.kernels.patterns`) on the board for ``mover``
    and for the other side.
    """
    P, owner, K2, K3 = S[0], S[2], S[30], S[31]
    ndir = P[P_NDIR]
    mine = 0
    theirs = 0
    for c in range(P[P_CELLS]):
        if owner[c] != -1:
            continue
        x = cell_class(K2, K3, mover, c, ndir)
        if x > mine:
            mine = x
        y = cell_class(K2, K3, 1 - mover, c, ndir)
        if y > theirs:
            theirs = y
    return mine, theirs


@njit(cache=True)
def combo_value(S: tuple, mover: int) -> int:  # type: ignore[type-arg]
    """The combination term of a quiet leaf from ``mover``'s view: ``CW[0, a]`` for the
    strongest claim class ``a`` the mover has to play, less ``CW[1, b]`` for the other side's
    strongest ``b`` (``S[33]``).
    """
    CW = S[33]
    mine, theirs = best_classes(S, mover)
    return int(CW[0, mine] - CW[1, theirs])


@njit(cache=True)
def vcf(S: tuple, me: int, depth: int, cap: int, out: np.ndarray) -> int:  # type: ignore[type-arg]
    """A win for ``me`` (to move, no completing cell of its own) by continuous threats of at
    most ``depth`` attacking moves, within ``cap`` steps: the plies to the win (0: none found);
    ``out[:(plies - 1) // 2]`` the attacking moves. This is the proof engine's threat-space
    search at order 1 (:func:`noughts.proving.threat_kernels.threat_search`: fours only, the
    defender's counter-fours answered), run on the engine's counts and owners, which it
    restores; one threat search serves both engines.

    Its steps count toward the search's node budget (``V[V_NODES]`` against ``V[V_MAXNODES]``)
    as well as ``cap``: at the leaves of a deep iteration the VCF steps are most of the work,
    and a budget that did not see them let a 1 s move run 1.6 s. Stopped by the budget, it
    finds nothing and sets ``V[V_ABORT]``, and the search that called it unwinds.
    """
    P, cnt, owner, through, nthrough, lcells, V = S[0], S[1], S[2], S[3], S[4], S[5], S[8]
    frames, pool, tline, scratch, tres, memo = S[19], S[20], S[25], S[26], S[27], S[28]
    k = P[P_K]
    drule = DEF_BREAKER if P[P_RULE] == MAKER_BREAKER else DEF_LINES
    depth = min(depth, (frames.shape[0] - 3) // 2, out.shape[0] - 1)
    left = V[V_MAXNODES] - V[V_NODES]
    limit = min(cap, left)
    if limit <= 0:
        V[V_ABORT] = 1
        return 0
    st = threat_search(
        lcells, through, nthrough, cnt, owner, k, me, drule, 1, depth, limit, V[V_EMPTY],
        frames, pool, tline, scratch, memo, tres,
    )  # fmt: skip
    V[V_VNODES] += tres[0]
    V[V_NODES] += tres[0]
    if st == CUTOFF and left <= cap:
        V[V_ABORT] = 1
    if st != FOUND:
        return 0
    n = tres[1]  # the line: attacking claims and answers in turn, ending with an attacking claim
    # does its last claim complete a line (a win in n plies) or leave two completing cells (n + 2)?
    op = 1 - me
    for i in range(n - 1):
        c = tline[i]
        owner[c] = me if i % 2 == 0 else op
        for t in range(nthrough[c]):
            cnt[through[c, t], owner[c]] += 1
    last = tline[n - 1]
    completes = False
    for t in range(nthrough[last]):
        j = through[last, t]
        if cnt[j, me] == k - 1 and cnt[j, op] == 0:
            completes = True
    for i in range(n - 2, -1, -1):
        c = tline[i]
        for t in range(nthrough[c]):
            cnt[through[c, t], owner[c]] -= 1
        owner[c] = -1
    attacks = (n + 1) // 2
    for i in range(min(attacks, out.shape[0])):
        out[i] = tline[2 * i]
    return int(n if completes else n + 2)


@njit(cache=True)
def node_enter(S: tuple, F: tuple, ply: int) -> tuple:  # type: ignore[type-arg]
    """Open the node at ``ply`` (its window, depth and mover in the frame arrays ``F``): either
    its value at once (``(True, value)``: the budget ran out, a forced-move score, a leaf, a
    table cut-off) or its moves generated and the frame ready to try them (``(False, 0)``).
    """
    P, V, H = S[0], S[8], S[9]
    tkey, tval, tdep, tflag, tmove = S[10], S[11], S[12], S[13], S[14]
    mbuf = S[17]
    fa, fb, fd, fmover, fn, fi, fbest, fbm, fa0, fslot, fchild, fforced = F[:12]
    V[V_NODES] += 1
    if V[V_NODES] >= V[V_MAXNODES]:
        V[V_ABORT] = 1
    if V[V_ABORT] != 0:
        return True, 0
    mover = fmover[ply]
    depth = fd[ply]
    op = 1 - mover
    if V[V_T0 + mover] > 0:
        return True, WIN - (ply + 1)
    forced = -1
    if V[V_T0 + op] > 0:
        two = np.empty(2, dtype=np.int64)
        if threat_cells(S, op, two) >= 2:
            return True, -(WIN - (ply + 2))
        forced = two[0]
    if ply >= MAXPLY - 1:
        return True, evaluate(S, mover)
    if forced == -1 and depth <= 0:
        if P[P_LEAF_VCF] > 0 and wins_by_lines(P[P_RULE], P[P_MAKER], mover):
            V[V_VNODES] = 0
            line = np.empty(P[P_LEAF_VCF] + 1, dtype=np.int64)
            r = vcf(S, mover, P[P_LEAF_VCF], P[P_VCF_CAP], line)
            if r > 0:
                return True, WIN - (ply + r)
        return True, leaf_value(S, mover)
    size = tkey.shape[0]
    h = H[0]
    slot = int(h & np.uint64(size - 1))
    fslot[ply] = slot
    ttmove = -1
    if P[P_TT] != 0 and tkey[slot] == h:
        V[V_TTHITS] += 1
        ttmove = tmove[slot]
        if tdep[slot] >= depth and forced == -1 and ply > 0:
            v = int(tval[slot])
            if v > WIN - MATE:
                v -= ply
            elif v < -(WIN - MATE):
                v += ply
            f = tflag[slot]
            if f == EXACT or (f == LOWER and v >= fb[ply]) or (f == UPPER and v <= fa[ply]):
                return True, v
    if forced >= 0:
        mbuf[ply, 0] = forced
        fn[ply] = 1
        F[14][ply] = 1
        fchild[ply] = depth  # a forced reply spends no depth
    else:
        n, restricted = generate(S, mover, ply, ttmove, P[P_WIDTH] if ply > 0 else P[P_CELLS])
        fn[ply] = n
        F[14][ply] = 1 if restricted else 0
        fchild[ply] = depth - 1
    fforced[ply] = forced
    fi[ply] = 0
    F[15][ply] = -1  # no move to search again at full depth and width
    fbest[ply] = -INF
    fbm[ply] = -1
    fa0[ply] = fa[ply]
    return False, 0


@njit(cache=True)
def node_store(S: tuple, F: tuple, ply: int) -> None:  # type: ignore[type-arg]
    """Keep a finished node's score and move in the table (wins and losses relative to it)."""
    P, H = S[0], S[9]
    tkey, tval, tdep, tflag, tmove = S[10], S[11], S[12], S[13], S[14]
    _fa, fb, fd, _fmover, _fn, _fi, fbest, fbm, fa0, fslot = F[:10]
    if P[P_TT] == 0:
        return
    best = fbest[ply]
    stored = best
    if stored > WIN - MATE:
        stored += ply
    elif stored < -(WIN - MATE):
        stored -= ply
    slot = fslot[ply]
    tkey[slot] = H[0]
    tval[slot] = stored
    tdep[slot] = fd[ply]
    tmove[slot] = fbm[ply]
    tflag[slot] = UPPER if best <= fa0[ply] else (LOWER if best >= fb[ply] else EXACT)


@njit(cache=True)
def search(S: tuple, depth: int, mover: int, alpha: int, beta: int) -> int:  # type: ignore[type-arg]
    """Fail-soft alpha-beta from ``mover``'s view at the root in the window (``alpha``,
    ``beta``) (see the module docstring), over an explicit stack of frames (one per ply: window,
    depth, mover, moves and the next to try, best so far, the state before the ply's claim); 0
    once aborted.
    """
    P, V, t3 = S[0], S[8], S[29]
    select = P[P_SELECT] != 0
    lmp = P[P_LMP]
    killers, hist, mbuf = S[15], S[16], S[17]
    F = (
        np.zeros(MAXPLY, dtype=np.int64),  # 0 alpha
        np.zeros(MAXPLY, dtype=np.int64),  # 1 beta
        np.zeros(MAXPLY, dtype=np.int64),  # 2 depth
        np.zeros(MAXPLY, dtype=np.int64),  # 3 mover
        np.zeros(MAXPLY, dtype=np.int64),  # 4 moves
        np.zeros(MAXPLY, dtype=np.int64),  # 5 next move
        np.zeros(MAXPLY, dtype=np.int64),  # 6 best score
        np.zeros(MAXPLY, dtype=np.int64),  # 7 best move
        np.zeros(MAXPLY, dtype=np.int64),  # 8 alpha on entry
        np.zeros(MAXPLY, dtype=np.int64),  # 9 table slot
        np.zeros(MAXPLY, dtype=np.int64),  # 10 children's depth
        np.zeros(MAXPLY, dtype=np.int64),  # 11 forced cell
        np.zeros(MAXPLY, dtype=np.int64),  # 12 the move being tried
        np.zeros((MAXPLY, 6), dtype=np.int64),  # 13 the state before it
        np.zeros(MAXPLY, dtype=np.int64),  # 14 1 where the moves were forced or cut by a threat
        np.zeros(MAXPLY, dtype=np.int64),  # 15 the move searched again at full depth and width
        np.zeros(MAXPLY, dtype=np.int64),  # 16 the plies the move being tried was reduced by
        np.zeros(MAXPLY, dtype=np.int64),  # 17 1 where it was tried with a null window
    )
    fa, fb, fd, fmover, fn, fi, fbest, fbm, _fa0, _fslot, fchild, fforced, fcur, fsaved = F[:14]
    fcut, fagain, fred, fnull = F[14], F[15], F[16], F[17]
    fa[0] = alpha
    fb[0] = beta
    fd[0] = depth
    fmover[0] = mover
    ply = 0
    leaf, ret = node_enter(S, F, 0)
    if leaf:
        return int(ret)
    while True:
        # try the next move at ply, or finish the node
        i = fi[ply]
        if i < fn[ply]:
            fi[ply] = i + 1
            c = mbuf[ply, i]
            m = fmover[ply]
            # principal-variation search: the moves after the first with a null window; late
            # quiet moves (no four made, no three blocked) of a free node reduced by a ply
            # (two past the eighth); either searched again in full if it beats alpha
            r = 0
            fnull[ply] = 0
            if select and fagain[ply] != i:
                if i > 0:
                    fnull[ply] = 1
                if (
                    ply > 0
                    and fcut[ply] == 0
                    and fd[ply] >= 3
                    and i >= 3
                    and t3[m, c] == 0
                    and t3[1 - m, c] < 2
                ):
                    r = 1 if i < 8 else 2
            # late-move pruning: past the first ``lmp * depth`` moves of a free node, moves that
            # make no three of the mover's own into a double (an open four, a four-four) and take
            # no such cell of the other side's are not searched at all (a four alone is pruned:
            # in a middle game most hot cells make one)
            if (
                lmp > 0
                and select
                and ply > 0
                and fcut[ply] == 0
                and i >= lmp * fd[ply]
                and t3[m, c] < 2
                and t3[1 - m, c] < 2
            ):
                continue
            fred[ply] = r
            saved = save(V)
            res = make(S, c, m)
            if res == RUNNING:
                for x in range(6):
                    fsaved[ply, x] = saved[x]
                fcur[ply] = c
                q = ply + 1
                fa[q] = -fb[ply]
                fb[q] = -fa[ply]
                if fnull[ply]:
                    fa[q] = -fa[ply] - 1
                fd[q] = fchild[ply] - r
                fmover[q] = 1 - m
                leaf, ret = node_enter(S, F, q)
                if not leaf:
                    ply = q
                    continue
                unmake(S, c, m, saved)
                v = -ret
            else:
                unmake(S, c, m, saved)
                v = terminal(res, m, ply)
                fred[ply] = 0
                fnull[ply] = 0
        else:
            # the node is finished: its value goes to its parent
            node_store(S, F, ply)
            v = fbest[ply]
            if ply == 0:
                return int(v)
            ply -= 1
            c = fcur[ply]
            unmake(S, c, fmover[ply], (fsaved[ply, 0], fsaved[ply, 1], fsaved[ply, 2], fsaved[ply, 3],
                                       fsaved[ply, 4], fsaved[ply, 5]))  # fmt: skip
            v = -v
        # v: the value of the move just tried at ply
        if V[V_ABORT] != 0:
            while ply > 0:  # unwind the claims still on the board
                ply -= 1
                unmake(S, fcur[ply], fmover[ply], (fsaved[ply, 0], fsaved[ply, 1], fsaved[ply, 2],
                                                   fsaved[ply, 3], fsaved[ply, 4], fsaved[ply, 5]))  # fmt: skip
            return 0
        if (fred[ply] > 0 or fnull[ply]) and v > fa[ply] and (fred[ply] > 0 or v < fb[ply]):
            fi[ply] -= 1  # searched again at full depth and width
            fagain[ply] = fi[ply]
            continue
        c = mbuf[ply, fi[ply] - 1]
        if v > fbest[ply]:
            fbest[ply] = v
            fbm[ply] = c
            if ply == 0:
                V[V_BEST] = c
                V[V_BESTV] = v
            if v > fa[ply]:
                fa[ply] = v
                if v >= fb[ply]:
                    if fforced[ply] == -1:
                        if killers[ply, 0] != c:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = c
                        hist[fmover[ply], c] += fd[ply] * fd[ply]
                    fi[ply] = fn[ply]  # a cut-off: no more moves here


@njit(cache=True)
def root(S: tuple, depth: int, mover: int, maxnodes: int) -> int:  # type: ignore[type-arg]
    """One iteration at ``depth``: the score from ``mover``'s view (``V[V_BEST]``: the move;
    ``V[V_ABORT]`` set if the node budget ran out first).
    """
    return root_window(S, depth, mover, maxnodes, -INF, INF)


@njit(cache=True)
def root_window(S: tuple, depth: int, mover: int, maxnodes: int, alpha: int, beta: int) -> int:  # type: ignore[type-arg]
    """:func:`root` searched in the window (``alpha``, ``beta``) (an aspiration window): the
    score is exact inside it, an upper bound at or below ``alpha``, a lower bound at or above
    ``beta`` (fail-soft).
    """
    V = S[8]
    V[V_NODES] = 0
    V[V_MAXNODES] = maxnodes
    V[V_ABORT] = 0
    V[V_BEST] = -1
    two = np.empty(2, dtype=np.int64)
    V[V_VNODES] = 0
    if V[V_T0 + mover] > 0:  # a win now
        threat_cells(S, mover, two)
        V[V_BEST] = two[0]
        return WIN - 1
    if threat_cells(S, 1 - mover, two) >= 2:  # a loss in two: block one anyway
        V[V_BEST] = two[0]
        return -(WIN - 2)
    return search(S, depth, mover, alpha, beta)


@njit(cache=True)
def root_vcf(S: tuple, mover: int, depth: int, cap: int, out: np.ndarray) -> int:  # type: ignore[type-arg]
    """A VCF win for ``mover`` of at most ``depth`` attacking moves within ``cap`` nodes: its
    length in plies (0: none found), the attacking moves in ``out``.
    """
    P, V = S[0], S[8]
    if not wins_by_lines(P[P_RULE], P[P_MAKER], mover):
        return 0
    if V[V_T0 + mover] > 0:  # a win now
        two = np.empty(2, dtype=np.int64)
        threat_cells(S, mover, two)
        out[0] = two[0]
        return 1
    V[V_VNODES] = 0
    V[V_NODES] = 0
    V[V_MAXNODES] = cap + 1  # the cap is this search's budget
    V[V_ABORT] = 0
    r = vcf(S, mover, depth, cap, out)
    V[V_ABORT] = 0
    return r
