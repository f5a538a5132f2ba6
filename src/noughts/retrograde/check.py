"""An independent check of a saved retrograde table: the certificate of its values.

A table that gives every reachable position a value is right exactly when each value obeys the
definition locally (Thompson's retrograde conditions): a finished position has its outcome at
distance 0; a position won in d by its mover has a move to a position won by the mover in d - 1
and none to one won by the mover sooner; a position lost in d has every move going to a position
won by the opponent, the farthest in d - 1; a drawn position has no move to a win for its mover
and some move to a position not won by the opponent. Induction on the true distance shows that
such a table agrees with the game: every forced win is labelled a win at its exact distance (its
winning move reaches a position labelled lost, which forces the label), every forced loss a loss,
so the positions labelled drawn are exactly those from which neither side can force a win.

This module trusts nothing from the solver: it reads the ``.npz`` with NumPy alone, walks the
reachable positions through the public position API, and looks each one up by the game's own
code (:meth:`noughts.core.loopy.FadingGame.code`). It shares no code with
:mod:`noughts.retrograde.analysis` (the model is ``casework/certificate.py``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from noughts.core import Budget, Game, NoughtsError, Position
from noughts.core import game as make_game

__all__ = ["TableCheck", "check_table"]


@dataclass(frozen=True)
class TableCheck:
    """What the check found: ``ok`` and, if not, the first failure (a position and why)."""

    game: str
    positions: int
    ok: bool
    failure: str | None


def _load(path: str | os.PathLike[str]) -> tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    try:
        with np.load(os.fspath(path), allow_pickle=False) as npz:
            spec = str(npz["spec"][()])
            return spec, npz["codes"], npz["outcome"], npz["plies"]
    except (OSError, ValueError, KeyError) as e:
        raise NoughtsError(f"cannot read {os.fspath(path)} as a retrograde table ({e})") from None


def check_table(path: str | os.PathLike[str], budget: Budget | None = None) -> TableCheck:
    """Check the saved table at ``path`` against the rules (see the module docstring)."""
    spec, codes, outcome, plies = _load(path)
    game: Game = make_game(spec)
    if game.loop is None:
        raise NoughtsError(f"{spec} has no retrograde table to check")
    budget = Budget(max_seconds=None, max_memory=None) if budget is None else budget

    def value(p: Position) -> tuple[int, int] | None:
        """(winner: 0 first, 1 second, -1 draw; distance), or None if the table lacks ``p``."""
        code = game.code(p)
        i = int(np.searchsorted(codes, np.uint64(code))) if code < 1 << 64 else len(codes)
        if i >= len(codes) or int(codes[i]) != code:
            return None
        o = int(outcome[i])
        return (0 if o > 0 else 1 if o < 0 else -1), int(plies[i])

    def fail(p: Position, why: str, seen: int) -> TableCheck:
        return TableCheck(spec, seen, False, f"{p.text()!r}: {why}")

    start = game.start()
    seen = {start}
    queue = [start]
    i = 0
    while i < len(queue):
        p = queue[i]
        i += 1
        if not i % 4096:
            budget.check(progress=f"{i:,} positions of {spec} checked")
        v = value(p)
        if v is None:
            return fail(p, "reachable but missing from the table", i)
        winner, d = v
        result = p.outcome()
        if result is not None:
            truth = -1 if result.winner is None else int(result.winner)
            if (winner, d) != (truth, 0):
                return fail(p, f"finished with {result} but the table says {(winner, d)}", i)
            continue
        mover = int(p.to_move)
        kids = []
        for m in p.legal_moves():
            q = p.play(m)
            w = value(q)
            if w is None:
                return fail(q, "reachable but missing from the table", i)
            kids.append(w)
            if q not in seen:
                seen.add(q)
                queue.append(q)
        mine = [dist for who, dist in kids if who == mover]
        theirs = [dist for who, dist in kids if who == 1 - mover]
        if mine:
            expected = (mover, 1 + min(mine))
        elif len(theirs) == len(kids):
            expected = (1 - mover, 1 + max(theirs))
        else:
            expected = (-1, 0)
        if (winner, d) != expected:
            return fail(p, f"the table says {(winner, d)}, its moves give {expected}", i)
    if len(seen) != len(codes):
        return TableCheck(
            spec, len(seen), False, f"the table holds {len(codes):,} positions, {len(seen):,} are reachable"
        )
    return TableCheck(spec, len(seen), True, None)
