"""numba kernel of Q-learning self-play in which the agents choose with their tiers (003 §5.1).

The episode loop of :mod:`noughts.learn._qlearning_kernels` (the same table, hash, random stream
and backward propagation, 003 §5.2), with the move chosen as 003's agents choose while they
train (``choose_action(training=True)``): reflexes, then the opening book, then epsilon
exploration, then the search tier (:func:`noughts.agents.qsearch.tied_best`, its leaves
blended with the table as it stands) with the learned values breaking its ties. It also marks
every (position, move) pair it updates, so the table's size can be counted as 003 counts it.

Each step mirrors :func:`noughts.learn.hybrid.train_hybrid_reference` draw for draw; the tests
hold the two to the same table bit for bit, and, with the search and the book off, to
:class:`noughts.learn.qlearning.QLearner`.
"""

from __future__ import annotations

import numpy as np

from noughts.agents.qsearch import tied_best
from noughts.kernels.bits import cell_bit, entry, nth_cell, popcount, rng_uniform
from noughts.kernels.claim import completes
from noughts.learn._qlearning_kernels import index_of


@entry
def hybrid_episodes(  # type: ignore[no-untyped-def]
    episodes,
    cells,
    lines,
    through,
    nthrough,
    slots,
    keys,
    q,
    visits,
    count,
    rng,
    eps,
    params,
    flags,
    banned,
    tiers,
    blend,
    search_tables,
    order,
    masks,
    k,
    centre,
    corners,
    book_near,
    centre_list,
    outcomes,
    lengths,
    nodes,
):
    """Play and learn ``episodes`` games; returns how many were played.

    ``lines``, ``through``, ``nthrough``: the board's tables (``board.tables``), by which claims
    are judged (:func:`noughts.kernels.claim.completes`).

    ``params``, ``flags``, ``banned``: as :func:`noughts.learn._qlearning_kernels.run_episodes`
    (alpha, gamma, decay, eps_min, rewards; reflexes, centre ban). ``tiers``: depth, depth rule
    (0 fixed, 1 003's), depth bonus, iron wall (0/1), opening book (0/1), the board's smallest
    side. ``blend``: the leaf blend. ``search_tables``: the uint64 ``through`` for the search;
    ``order``/``masks``/``k``/``centre``/``corners``: the search's tables (see
    :mod:`noughts.agents.qsearch`). ``book_near[c]``: the cells next to ``c``;
    ``centre_list``: the centre cells in order. ``visits[i, a]`` is set to 1 for every pair
    updated.
    """
    alpha, gamma, decay, eps_min = params[0], params[1], params[2], params[3]
    r_win, r_loss, r_draw, bonus = params[4], params[5], params[6], params[7]
    reflexes = flags[0] != 0
    depth, rule, depth_bonus, iron_wall, book, side = (
        tiers[0],
        tiers[1],
        tiers[2],
        tiers[3],
        tiers[4],
        tiers[5],
    )
    full = (np.int64(1) << cells) - 1
    ufull = np.uint64(full)
    hist_s = np.empty(cells, dtype=np.int64)
    hist_a = np.empty(cells, dtype=np.int64)
    legal = np.empty(cells, dtype=np.int64)
    ties = np.empty(cells, dtype=np.int64)
    for e in range(episodes):
        b = np.zeros(2, dtype=np.int64)
        mover = 0
        ply = 0
        result = -1
        epsilon = eps[0]
        while result < 0:
            occupied = b[0] | b[1]
            n = 0
            for c in range(cells):
                if not (occupied >> c) & 1:
                    if ply == 0 and flags[1] != 0 and (banned >> c) & 1:
                        continue
                    legal[n] = c
                    n += 1
            s = index_of(b[0] | (b[1] << cells), slots, keys, count)
            a = -1
            if reflexes:
                for i in range(n):
                    if completes(
                        np.uint64(b[mover]) | cell_bit(legal[i]), legal[i], lines, through, nthrough
                    ):
                        a = legal[i]
                        break
                if a < 0:
                    for i in range(n):
                        if completes(
                            np.uint64(b[1 - mover]) | cell_bit(legal[i]), legal[i], lines, through, nthrough
                        ):
                            a = legal[i]
                            break
            if a < 0 and book != 0 and side >= 4 and mover == 1 and ply <= 2:
                allowed = np.uint64(0)
                for i in range(n):
                    allowed |= np.uint64(1) << np.uint64(legal[i])
                cand = np.uint64(0)
                for j in range(centre_list.shape[0]):
                    if (b[0] >> centre_list[j]) & 1:
                        cand = book_near[centre_list[j]] & allowed
                        break
                if cand == 0:
                    for j in range(centre_list.shape[0]):
                        cand |= (np.uint64(1) << np.uint64(centre_list[j])) & allowed
                nc = popcount(cand)
                if nc == 1:
                    a = nth_cell(cand, 0)
                elif nc > 1:
                    a = nth_cell(cand, int(rng_uniform(rng) * nc))
            if a < 0:
                u = rng_uniform(rng)
                if u < epsilon:
                    a = legal[int(rng_uniform(rng) * n)]
                else:
                    d = 0
                    if depth > 0 or depth_bonus > 0 or rule == 1:
                        extra = depth_bonus if (mover == 1 and side >= 4) else 0
                        base = (9 if side <= 3 else min(depth, n)) if rule == 1 else depth
                        d = base + extra
                    nt = 0
                    if d > 0 and n > 1:
                        allowed = np.uint64(0)
                        for i in range(n):
                            allowed |= np.uint64(1) << np.uint64(legal[i])
                        iron = iron_wall != 0 and mover == 1 and side >= 4
                        best_bits = tied_best(
                            np.uint64(b[mover]), np.uint64(b[1 - mover]), mover, d, allowed, cells, ufull, order,
                            masks, k, centre, corners, iron, search_tables, nthrough, keys, q, slots, blend, nodes,
                        )  # fmt: skip
                        for i in range(n):
                            if (best_bits >> np.uint64(legal[i])) & np.uint64(1):
                                ties[nt] = legal[i]
                                nt += 1
                    else:
                        for i in range(n):
                            ties[i] = legal[i]
                        nt = n
                    best = q[s, ties[0]]
                    for i in range(1, nt):
                        v = q[s, ties[i]]
                        if v > best:
                            best = v
                    m = 0
                    for i in range(nt):
                        if q[s, ties[i]] == best:
                            ties[m] = ties[i]
                            m += 1
                    a = ties[0] if m == 1 else ties[int(rng_uniform(rng) * m)]
            hist_s[ply] = s
            hist_a[ply] = a
            won = completes(np.uint64(b[mover]) | cell_bit(a), a, lines, through, nthrough)
            b[mover] = b[mover] | (np.int64(1) << a)
            ply += 1
            if won:
                result = 0 if mover == 0 else 2
            elif (b[0] | b[1]) == full:
                result = 1
            mover = 1 - mover
        if result == 1:
            r0, r1 = r_draw, r_draw + bonus
        elif result == 0:
            r0, r1 = r_win, r_loss
        else:
            r0, r1 = r_loss, r_win
        dd = 1.0
        for t in range(ply - 1, -1, -1):
            r = r0 if t % 2 == 0 else r1
            s = hist_s[t]
            a = hist_a[t]
            q[s, a] = q[s, a] + alpha * (r * dd - q[s, a])
            visits[s, a] = 1
            dd = dd * gamma
        outcomes[e] = result
        lengths[e] = ply
        nxt = epsilon * decay
        eps[0] = nxt if nxt > eps_min else eps_min
    return episodes
