"""numba kernel of 001's LMS self-play (:mod:`noughts.learn.linear`) on standard and misère boards.

The same four parts as the reference, fused into one loop over bit boards: the experiment
generator (random opening moves), the performance system (best successor by ``W . X``, ties
and exploration from SplitMix64), the critic (successor estimates, the final value) and the
generalizer (LMS, example by example). Claims are judged by
:func:`noughts.kernels.claim.claim_after`. Dot products are summed left to right and the random
numbers are drawn in the reference's order, so a run agrees with the reference bit for bit.
"""

from __future__ import annotations

import numpy as np

from noughts.kernels.bits import ONE, ZERO, cell_bit, entry, internal, popcount, rng_below, rng_uniform
from noughts.kernels.claim import claim_after
from noughts.kernels.codes import RUNNING
from noughts.learn._td_kernels import rate_code, rate_push


@internal
def _features(b0, b1, features, k, out):  # type: ignore[no-untyped-def]
    out[0] = 1.0
    for i in range(1, 7):
        out[i] = 0.0
    for j in range(features.shape[0]):
        m = features[j]
        a = popcount(b0 & m)
        b = popcount(b1 & m)
        if b == 0:
            if a == 1:
                out[1] += 1.0
            if a == k - 1:
                out[3] += 1.0
            if a == k:
                out[5] += 1.0
        if a == 0:
            if b == 1:
                out[2] += 1.0
            if b == k - 1:
                out[4] += 1.0
            if b == k:
                out[6] += 1.0


@internal
def _claim(rule, mover, b0, b1, c, full, lines, through, nthrough):  # type: ignore[no-untyped-def]
    """``mover`` claims cell ``c``: the new boards and the window test's code of the result
    (-1 while the game runs).
    """
    if mover == 0:
        b0 |= cell_bit(c)
        code, _, _ = claim_after(rule, 0, 0, b0, b1, c, (b0 | b1) == full, lines, through, nthrough, 0, 0)
    else:
        b1 |= cell_bit(c)
        code, _, _ = claim_after(rule, 0, 1, b1, b0, c, (b0 | b1) == full, lines, through, nthrough, 0, 0)
    return b0, b1, (-1 if code == RUNNING else rate_code(code))


@internal
def _dot(w, x):  # type: ignore[no-untyped-def]
    s = 0.0
    for i in range(7):
        s += w[i] * x[i]
    return s


@entry
def lms_games(  # type: ignore[no-untyped-def]
    n_games,
    first_game,
    cells,
    rule,
    lines,
    features,
    through,
    nthrough,
    full,
    k,
    w,
    rng,
    eta,
    epsilon,
    opening,
    finals,
    counts,
    marks,
    mark_pos,
    cp_counts,
    cp_w,
    rcounts,
    rbuf,
    rsums,
    rshift,
    delta,
    use_rate,
    stop_on_rate,
    random_second=False,
    normalised=False,
):
    """Play and learn ``n_games`` games (numbered from ``first_game``); returns the number of the
    game whose update overflowed (the weights are then those before it), or 0.

    ``rule``: the claim rule (standard or misère); ``lines``, ``through``, ``nthrough``,
    ``full``: the board's tables (``board.tables``), by which claims are judged; ``features``: the
    masks of the lines the features count over (every line, or rows and columns).

    ``finals``: the final values (win, draw, loss) from x's side; ``counts``: x's (wins, losses,
    draws), updated; ``marks``: sorted game numbers to record at (``mark_pos[0]`` the next one),
    into ``cp_counts`` and ``cp_w``. With ``use_rate`` each outcome is pushed into the 000 §4.2
    window state (``rcounts`` ...); with ``stop_on_rate`` the run stops once it holds.
    ``random_second``: the second player moves uniformly at random (001's variant against a
    random o); ``normalised``: each LMS step is divided by ``|X|^2`` (normalised LMS).

    Returns ``(games played, overflowed game number or 0, whether the rate test held)``.
    """
    feats = np.empty((cells + 1, 7))
    x = np.empty(7)
    legal = np.empty(cells, dtype=np.int64)
    values = np.empty(cells)
    ties = np.empty(cells, dtype=np.int64)
    targets = np.empty(cells + 1)
    neww = np.empty(7)
    for g in range(n_games):
        number = first_game + g
        b0 = ZERO
        b1 = ZERO
        mover = 0
        result = -1  # 0 x won, 1 draw, 2 o won
        for _ in range(opening):
            if result >= 0:
                break
            occupied = b0 | b1
            n = 0
            for c in range(cells):
                if not (occupied >> np.uint64(c)) & ONE:
                    legal[n] = c
                    n += 1
            c = legal[rng_below(rng, n)]
            b0, b1, result = _claim(rule, mover, b0, b1, c, full, lines, through, nthrough)
            mover = 1 - mover
        length = 0
        _features(b0, b1, features, k, feats[0])
        while result < 0:
            occupied = b0 | b1
            n = 0
            for c in range(cells):
                if not (occupied >> np.uint64(c)) & ONE:
                    legal[n] = c
                    n += 1
            chosen = -1
            if (random_second and mover == 1) or (epsilon > 0.0 and rng_uniform(rng) < epsilon):
                chosen = legal[rng_below(rng, n)]
            else:
                for i in range(n):
                    bit = cell_bit(legal[i])
                    if mover == 0:
                        _features(b0 | bit, b1, features, k, x)
                    else:
                        _features(b0, b1 | bit, features, k, x)
                    values[i] = _dot(w, x)
                best = values[0]
                for i in range(1, n):
                    if (mover == 0 and values[i] > best) or (mover == 1 and values[i] < best):
                        best = values[i]
                nt = 0
                for i in range(n):
                    if values[i] == best:
                        ties[nt] = legal[i]
                        nt += 1
                chosen = ties[rng_below(rng, nt)] if nt > 1 else ties[0]
            b0, b1, result = _claim(rule, mover, b0, b1, chosen, full, lines, through, nthrough)
            length += 1
            _features(b0, b1, features, k, feats[length])
            mover = 1 - mover
        # critic: successor estimates with the weights as they stand, the true final value
        for t in range(length):
            targets[t] = _dot(w, feats[t + 1])
        targets[length] = finals[0] if result == 0 else (finals[2] if result == 2 else finals[1])
        # generalizer: LMS, one example at a time
        for i in range(7):
            neww[i] = w[i]
        for t in range(length + 1):
            err = targets[t] - _dot(neww, feats[t])
            if normalised:
                norm = _dot(feats[t], feats[t])
                for i in range(7):
                    neww[i] = neww[i] + eta * err * feats[t, i] / norm
                continue
            for i in range(7):
                neww[i] = neww[i] + eta * err * feats[t, i]
        for i in range(7):
            if not np.isfinite(neww[i]):
                return g, number, False
        for i in range(7):
            w[i] = neww[i]
        if result == 0:
            counts[0] += 1
        elif result == 2:
            counts[1] += 1
        else:
            counts[2] += 1
        while mark_pos[0] < marks.shape[0] and marks[mark_pos[0]] == number:
            j = mark_pos[0]
            cp_counts[j, 0] = counts[0]
            cp_counts[j, 1] = counts[1]
            cp_counts[j, 2] = counts[2]
            for i in range(7):
                cp_w[j, i] = w[i]
            mark_pos[0] = j + 1
        if use_rate and rate_push(result, rcounts, rbuf, rsums, rshift, delta) and stop_on_rate:
            return g + 1, 0, True
    return n_games, 0, False
