"""How many positions a game has, at least: a lower bound in well under a second, to refuse
hopeless work at once.

Tabular learning, grading every position and solved tables need every reachable position;
counting them exactly can take minutes (Otrio's run to billions). :func:`positions_at_least`
answers the only question a refusal needs, "are there more than N?", from random games:

At each ply, the positions random play reaches are draws from some distribution ``q`` over the
positions of that ply. Two of ``m`` independent draws coincide with probability ``s = sum q_i^2``,
and ``s >= 1 / N`` for any distribution over ``N`` positions (the uniform one repeats least),
so few coincidences among many draws mean many positions: with ``c`` coinciding pairs among
``m`` draws, ``s`` is at most ``lambda / C(m, 2)`` where ``lambda`` is the upper confidence bound
``c + 1 + z sqrt(c + 1) + z^2`` of the pairs' mean (``z`` the normal quantile of ``1 - alpha``; the
pair count is close to Poisson, and this bound is looser than Poisson's), so the ply has at least
``C(m, 2) / lambda`` positions, except with probability about ``alpha``; and at least as many as
it showed distinct draws. Without a single coincidence the bound is exact rather than
approximate: no repeat among ``m`` draws has probability at most ``exp(-m (m - 1) / (2 N))`` (it
is largest for the uniform distribution), so then ``N >= m (m - 1) / (2 ln(1 / alpha))``. Summed over the plies, that is a lower bound on the positions
(non-terminal ones, or all) that holds with probability about ``1 - plies * checks * alpha``
(a union bound over every ply and every time the sample grows). Random play favours some
positions, which only adds coincidences and lowers the bound: work refused on it is work that
would have failed.

>>> import noughts
>>> e = positions_at_least(noughts.game("tictactoe"), 10**6, seed=0)
>>> e.more, e.lower_bound <= 5478
(False, True)
>>> positions_at_least(noughts.game("otrio"), 1_000_000, seed=0, seconds=30).more  # stops once proved
True
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from noughts.core import Game, LimitExceeded, Position, require_bounded

__all__ = ["ALPHA", "PositionBound", "TooManyPositions", "positions_at_least", "refuse_if_more"]

ALPHA = 1e-5
"""The chance, per ply and per check, that a ply has fewer positions than its bound claims."""

Z = NormalDist().inv_cdf(1 - ALPHA)
LOG_ALPHA = math.log(1 / ALPHA)


class TooManyPositions(LimitExceeded):
    """Work that needs every position of a game that has far too many: refused at once."""


@dataclass(frozen=True)
class PositionBound:
    """The outcome of :func:`positions_at_least`: ``lower_bound`` positions at least (with
    probability ``confidence``), ``more`` whether that exceeds the number asked about; ``games``
    random games were played in ``seconds`` (wall-clock).
    """

    lower_bound: int
    more: bool
    games: int
    seconds: float
    confidence: float


def positions_at_least(
    game: Game,
    limit: int,
    *,
    seconds: float = 2.0,
    terminal: bool = True,
    seed: int | None = 0,
) -> PositionBound:
    """Whether ``game`` has more than ``limit`` reachable positions (``terminal=False``: more
    than ``limit`` unfinished ones), decided from random games in about ``seconds`` of CPU time
    at most (so a busy machine changes how long it takes, not the answer; see
    the module docstring). Stops as soon as the bound passes ``limit``, or when every ply's draws
    repeat and no ply can be much larger than its number of draws squared (then the positions are
    few: the answer is no, and the work that needs them can start).
    """
    started = time.perf_counter()
    cpu = time.process_time()
    rng = np.random.default_rng(seed)
    start = game.start()
    plies = require_bounded(game, "estimating a state space from random games") + 1
    draws: list[dict[Position, int]] = [{} for _ in range(plies)]
    counts = [0] * plies
    games = 0
    checks = 0
    target = 256
    bound = 0
    while True:
        while games < target:
            p = start
            ply = 0
            while True:
                if terminal or not p.is_terminal():
                    seen = draws[ply]
                    seen[p] = seen.get(p, 0) + 1
                    counts[ply] += 1
                if p.is_terminal():
                    break
                moves = p.legal_moves()
                p = p.play(moves[int(rng.integers(len(moves)))])
                ply += 1
            games += 1
        checks += 1
        bound = 0
        # every ply repeats itself and none can be much larger than its draws squared: few positions
        crowded = sum(c * c // 2 for c in counts) < limit
        for ply in range(plies):
            m, distinct = counts[ply], len(draws[ply])
            if m == 0:
                continue
            pairs = sum(n * (n - 1) // 2 for n in draws[ply].values())
            top = LOG_ALPHA if pairs == 0 else pairs + 1 + Z * math.sqrt(pairs + 1) + Z * Z
            bound += max(distinct, int(m * (m - 1) / 2 / top))
            if distinct == m and m > 1:
                crowded = False
        elapsed = time.process_time() - cpu
        if bound > limit or crowded or elapsed >= seconds:
            break
        rate = games / max(elapsed, 1e-9)
        target = int(min(1.25 * games, games + rate * (seconds - elapsed)))
        if target <= games:
            break
    confidence = max(0.0, 1.0 - plies * checks * ALPHA)
    return PositionBound(bound, bound > limit, games, time.perf_counter() - started, confidence)


def refuse_if_more(game: Game, limit: int, what: str, *, terminal: bool = True, seconds: float = 2.0) -> None:
    """Raise :class:`TooManyPositions` at once if ``game`` certainly has more than ``limit`` positions
    (see :func:`positions_at_least`); ``what`` ends the message: what the limit is, and what to do,
    e.g. "the 5,000,000 a table of values may hold".
    """
    if game.properties.max_length is None:
        # a game that need not end is listed by retrograde enumeration, which checks its own
        # budget; random games that may never end cannot bound its size
        return
    found = positions_at_least(game, limit, seconds=seconds, terminal=terminal)
    if found.more:
        kind = "" if terminal else "unfinished "
        raise TooManyPositions(
            f"{game} has more than {found.lower_bound:,} reachable {kind}positions (estimated from "
            f"{found.games:,} random games in {found.seconds:.2f} s; wrong with probability below "
            f"{1 - found.confidence:.0e}), more than {what}"
        )
