"""numba kernels of one-step TD self-play over a :class:`~noughts.learn.states.StateSpace`.

:func:`td_run` makes the choices of the plain reference ``noughts.learn.td.td_reference``, with
the same random numbers (``noughts.kernels.rng.SplitMix64``), so the tests demand equal value
tables bit for bit on short runs with the same seed. :func:`rate_push` is 000 §4.2's window
test in constant time per episode; the tests hold it to the plain windowed variance over the
raw outcomes (``noughts.learn.convergence.RateWindowReference``). It is also the learners'
one copy of the test: the Q-learning and LMS kernels call it, and so does
``RateWindowState.push`` for the Python loops.
"""

from __future__ import annotations

import numpy as np

from noughts.kernels.bits import entry, internal, rng_below, rng_uniform
from noughts.kernels.codes import DRAW, FIRST


@internal
def rate_code(result):  # type: ignore[no-untyped-def]
    """The window test's code of a claim's result (:class:`noughts.core.Result`): 0 the first
    player won, 1 a draw, 2 the second player won.
    """
    return 0 if result == FIRST else (1 if result == DRAW else 2)


@entry
def rate_push(outcome, counts, buf, sums, shift, delta):  # type: ignore[no-untyped-def]
    """Feed one outcome code (0 first won, 1 draw, 2 second won) to 000 §4.2's test; whether
    it now holds. ``counts``: first wins, draws, second wins, episodes; ``buf``: the last ``W``
    running win and draw rates (a ring); ``sums``: the sum and the sum of squares of ``rate -
    shift`` for each; ``shift``: the two shifts, renewed with exact sums once every ``W``
    episodes, so rounding cannot build up.
    """
    w = buf.shape[1]
    counts[outcome] += 1
    counts[3] += 1
    n = counts[3]
    p1 = counts[0] / n
    pd = counts[1] / n
    i = (n - 1) % w
    if n > w:
        a = buf[0, i] - shift[0]
        b = buf[1, i] - shift[1]
        sums[0] -= a
        sums[1] -= a * a
        sums[2] -= b
        sums[3] -= b * b
    buf[0, i] = p1
    buf[1, i] = pd
    a = p1 - shift[0]
    b = pd - shift[1]
    sums[0] += a
    sums[1] += a * a
    sums[2] += b
    sums[3] += b * b
    if i == w - 1:
        shift[0] = p1
        shift[1] = pd
        s0 = 0.0
        s1 = 0.0
        s2 = 0.0
        s3 = 0.0
        m = min(n, w)
        for j in range(m):
            a = buf[0, j] - p1
            b = buf[1, j] - pd
            s0 += a
            s1 += a * a
            s2 += b
            s3 += b * b
        sums[0] = s0
        sums[1] = s1
        sums[2] = s2
        sums[3] = s3
    if n < w:
        return False
    v1 = (sums[1] - sums[0] * sums[0] / w) / (w - 1)
    vd = (sums[3] - sums[2] * sums[2] / w) / (w - 1)
    return v1 < delta and vd < delta


@entry
def td_run(  # type: ignore[no-untyped-def]
    nxt,
    outcome_of,
    to_move,
    start,
    v1,
    v2,
    epsilon,
    alpha,
    backward,
    st,
    max_episodes,
    stop_on_rate,
    counts,
    buf,
    sums,
    shift,
    delta,
    record,
    max_len,
):
    """Play up to ``max_episodes`` episodes of epsilon-greedy self-play, updating ``v1``, ``v2``
    in place, feeding every outcome to the 000 §4.2 test (``counts``, ``buf``, ``sums``,
    ``shift``); stop early when ``stop_on_rate`` and the test holds. ``record`` (length
    ``max_episodes`` or 0) receives each episode's outcome code; ``max_len`` bounds a game's
    length. Returns (episodes, converged).
    """
    num_actions = nxt.shape[1]
    path = np.empty(max_len + 1, np.int64)  # positions of one episode: at most max_len moves
    ties = np.empty(num_actions, np.int64)
    for ep in range(max_episodes):
        s = start
        path[0] = s
        length = 1
        while outcome_of[s] < 0:
            v = v1 if to_move[s] == 0 else v2
            u = rng_uniform(st)
            chosen = -1
            if u < epsilon:
                legal = 0
                for a in range(num_actions):
                    if nxt[s, a] >= 0:
                        legal += 1
                k = rng_below(st, legal)
                for a in range(num_actions):
                    if nxt[s, a] >= 0:
                        if k == 0:
                            chosen = nxt[s, a]
                            break
                        k -= 1
            else:
                best = -np.inf
                nt = 0
                for a in range(num_actions):
                    t = nxt[s, a]
                    if t >= 0:
                        x = v[t]
                        if x > best:
                            best = x
                            nt = 0
                            ties[nt] = t
                            nt = 1
                        elif x == best:
                            ties[nt] = t
                            nt += 1
                chosen = ties[rng_below(st, nt)] if nt > 1 else ties[0]
            if not backward:
                v1[s] += alpha * (v1[chosen] - v1[s])
                v2[s] += alpha * (v2[chosen] - v2[s])
            s = chosen
            path[length] = s
            length += 1
        if backward:
            for i in range(length - 2, -1, -1):
                p = path[i]
                q = path[i + 1]
                v1[p] += alpha * (v1[q] - v1[p])
                v2[p] += alpha * (v2[q] - v2[p])
        code = outcome_of[s]
        if record.shape[0] > 0:
            record[ep] = code
        if rate_push(code, counts, buf, sums, shift, delta) and stop_on_rate:
            return ep + 1, True
    return max_episodes, False


@entry
def null_run(p_first, p_draw, st, max_episodes, counts, buf, sums, shift, delta):  # type: ignore[no-untyped-def]
    """Outcomes drawn at fixed rates fed to the 000 §4.2 test: (episodes, converged)."""
    for ep in range(max_episodes):
        u = rng_uniform(st)
        if u < p_first:
            code = 0
        elif u < p_first + p_draw:
            code = 1
        else:
            code = 2
        if rate_push(code, counts, buf, sums, shift, delta):
            return ep + 1, True
    return max_episodes, False


@entry
def greedy_sets(nxt, outcome_of, to_move, v1, v2):  # type: ignore[no-untyped-def]
    """For each state, the bit set of actions whose successor has the mover's greatest value
    (0 at finished positions): the greedy policy, ties included.
    """
    n, num_actions = nxt.shape
    out = np.zeros(n, np.uint64)
    for s in range(n):
        if outcome_of[s] >= 0:
            continue
        v = v1 if to_move[s] == 0 else v2
        best = -np.inf
        bits = np.uint64(0)
        for a in range(num_actions):
            t = nxt[s, a]
            if t >= 0:
                x = v[t]
                if x > best:
                    best = x
                    bits = np.uint64(1) << np.uint64(a)
                elif x == best:
                    bits |= np.uint64(1) << np.uint64(a)
        out[s] = bits
    return out
