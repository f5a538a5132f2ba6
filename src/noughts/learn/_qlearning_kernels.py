"""numba kernels of tabular Q-learning (:mod:`noughts.learn.qlearning`) on claim boards.

Positions are bit boards ``(first, second)`` keyed as ``first | second << cells`` (boards of up
to 32 cells); each key gets an integer *position index* the first time it is visited (an
open-addressing hash table maps keys to indices), and ``q[index, cell]`` holds Q(s, a). Claims
are judged by :func:`noughts.kernels.claim.claim_after`. The random numbers come from the same
SplitMix64 stream as the reference loop, so the two agree bit for bit (the tests hold them to it).
"""

from __future__ import annotations

import numpy as np

from noughts.kernels.bits import GOLDEN, ONE, cell_bit, entry, internal, rng_uniform
from noughts.kernels.claim import claim_after, completes
from noughts.kernels.codes import RUNNING
from noughts.learn._td_kernels import rate_code, rate_push


@internal
def _slot(key, slots, keys):  # type: ignore[no-untyped-def]
    mask = slots.shape[0] - 1
    h = (np.uint64(key) * GOLDEN) >> np.uint64(33)
    i = np.int64(h) & mask
    while True:
        j = slots[i]
        if j < 0 or keys[j] == key:
            return i
        i = (i + 1) & mask


@internal
def index_of(key, slots, keys, count):  # type: ignore[no-untyped-def]
    """The index of ``key`` (adding it as index ``count[0]`` if new)."""
    i = _slot(key, slots, keys)
    j = slots[i]
    if j < 0:
        j = count[0]
        slots[i] = j
        keys[j] = key
        count[0] = j + 1
    return j


@entry
def rehash(keys, count, size):  # type: ignore[no-untyped-def]
    """A fresh slot array of ``size`` (a power of two) for the first ``count`` keys."""
    slots = np.full(size, -1, dtype=np.int64)
    for j in range(count):
        slots[_slot(keys[j], slots, keys)] = j
    return slots


@entry
def run_episodes(  # type: ignore[no-untyped-def]
    episodes,
    cells,
    rule,
    lines,
    through,
    nthrough,
    full,
    slots,
    keys,
    q,
    count,
    rng,
    eps,
    params,
    flags,
    banned,
    outcomes,
    lengths,
    rcounts,
    rbuf,
    rsums,
    rshift,
    delta,
    use_rate,
    stop_on_rate,
):
    """Play and learn ``episodes`` games of self-play; see :mod:`noughts.learn.qlearning`.

    ``rule``: the claim rule (standard or misère); ``lines``, ``through``, ``nthrough``,
    ``full``: the board's tables (``board.tables``).

    ``params``: alpha, gamma, epsilon_decay, epsilon_min, win, loss, draw, defender_bonus.
    ``flags``: reflexes (0/1), centre_ban (0/1). ``banned``: bit mask of cells banned on the
    first move. ``eps[0]`` is the current epsilon (updated). ``outcomes``/``lengths`` receive
    each episode's outcome code (0 first won, 1 draw, 2 second won) and length in plies.
    With ``use_rate`` each outcome is pushed into the 000 §4.2 window state (``rcounts`` ...,
    see :class:`noughts.learn.convergence.RateWindowState`); with ``stop_on_rate`` the run stops
    after the episode on which that test first holds. Returns (episodes played, whether it held).
    """
    alpha, gamma, decay, eps_min = params[0], params[1], params[2], params[3]
    r_win, r_loss, r_draw, bonus = params[4], params[5], params[6], params[7]
    reflexes = flags[0] != 0
    hist_s = np.empty(cells, dtype=np.int64)
    hist_a = np.empty(cells, dtype=np.int64)
    legal = np.empty(cells, dtype=np.int64)
    ties = np.empty(cells, dtype=np.int64)
    for e in range(episodes):
        b = np.zeros(2, dtype=np.uint64)
        mover = 0
        ply = 0
        result = -1
        epsilon = eps[0]
        while result < 0:
            occupied = b[0] | b[1]
            n = 0
            for c in range(cells):
                if not (occupied >> np.uint64(c)) & ONE:
                    if ply == 0 and flags[1] != 0 and (banned >> c) & 1:
                        continue
                    legal[n] = c
                    n += 1
            s = index_of(np.int64(b[0] | (b[1] << np.uint64(cells))), slots, keys, count)
            a = -1
            if reflexes:
                for i in range(n):
                    if completes(b[mover] | cell_bit(legal[i]), legal[i], lines, through, nthrough):
                        a = legal[i]
                        break
                if a < 0:
                    for i in range(n):
                        if completes(b[1 - mover] | cell_bit(legal[i]), legal[i], lines, through, nthrough):
                            a = legal[i]
                            break
            if a < 0:
                u = rng_uniform(rng)
                if u < epsilon:
                    a = legal[int(rng_uniform(rng) * n)]
                else:
                    best = q[s, legal[0]]
                    for i in range(1, n):
                        v = q[s, legal[i]]
                        if v > best:
                            best = v
                    nt = 0
                    for i in range(n):
                        if q[s, legal[i]] == best:
                            ties[nt] = legal[i]
                            nt += 1
                    a = ties[0] if nt == 1 else ties[int(rng_uniform(rng) * nt)]
            hist_s[ply] = s
            hist_a[ply] = a
            mine = b[mover] | cell_bit(a)
            theirs = b[1 - mover]
            code, _, _ = claim_after(
                rule, 0, mover, mine, theirs, a, (mine | theirs) == full, lines, through, nthrough, 0, 0
            )
            b[mover] = mine
            ply += 1
            if code != RUNNING:
                result = rate_code(code)
            mover = 1 - mover
        # backward propagation (003 §5.2): Q += alpha (gamma^(T-t) R_p - Q)
        if result == 1:
            r0, r1 = r_draw, r_draw + bonus
        elif result == 0:
            r0, r1 = r_win, r_loss
        else:
            r0, r1 = r_loss, r_win
        d = 1.0
        for t in range(ply - 1, -1, -1):
            r = r0 if t % 2 == 0 else r1
            s = hist_s[t]
            a = hist_a[t]
            q[s, a] = q[s, a] + alpha * (r * d - q[s, a])
            d = d * gamma
        outcomes[e] = result
        lengths[e] = ply
        nxt = epsilon * decay
        eps[0] = nxt if nxt > eps_min else eps_min
        if use_rate and rate_push(result, rcounts, rbuf, rsums, rshift, delta) and stop_on_rate:
            return e + 1, True
    return episodes, False
