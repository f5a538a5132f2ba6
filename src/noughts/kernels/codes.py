"""The rule and result codes of every claim kernel, as plain ints numba folds into constants.

They are :class:`noughts.core.Rule` and :class:`noughts.core.Result` (declared once, in
:mod:`noughts.core.codes`), read off here so that a kernel can compare with them; nothing else in
noughts assigns a rule or result code. A kernel takes a game's rule from ``game.claim_rule`` and
Maker from ``game.maker``. This module needs no numba: the NumPy counter and the kernels' Python
drivers import it without loading the compiler.

The kernels that run as stack machines in slices (alpha-beta, df-pn, the Breaker prover, the
strategy and misère-defence walks) answer each call with a status: :data:`DONE` or
:data:`PAUSED`, declared here once, and their own reasons to be called again (a table to grow)
numbered from :data:`OWN_STATUS` on.

>>> [STANDARD, MISERE, MAKER_BREAKER, CUMULATIVE], [RUNNING, FIRST, SECOND, DRAW]
([0, 1, 2, 3], [-1, 0, 1, 2])
>>> [DONE, PAUSED, OWN_STATUS]
[0, 1, 2]
"""

from __future__ import annotations

from noughts.core.codes import Result, Rule

__all__ = [
    "CUMULATIVE",
    "DONE",
    "DRAW",
    "FIRST",
    "MAKER_BREAKER",
    "MISERE",
    "OWN_STATUS",
    "PAUSED",
    "RUNNING",
    "SECOND",
    "STANDARD",
    "start_aux",
]

STANDARD = int(Rule.STANDARD)
MISERE = int(Rule.MISERE)
MAKER_BREAKER = int(Rule.MAKER_BREAKER)
CUMULATIVE = int(Rule.CUMULATIVE)

RUNNING = int(Result.RUNNING)
FIRST = int(Result.FIRST)
SECOND = int(Result.SECOND)
DRAW = int(Result.DRAW)

DONE = 0
"""A stack-machine kernel's call status: the search finished (its answer is in its state)."""
PAUSED = 1
"""A stack-machine kernel's call status: its slice of work ran out; call again to go on."""
OWN_STATUS = 2
"""The first status a kernel numbers its own reasons from (a pool or table to grow, ...)."""


def start_aux(rule: int, lines: int) -> int:
    """A claim's ``aux0`` at the start of a game of ``lines`` lines: the survivors (every line)
    under Maker-Breaker rules, else 0 (``aux1`` starts at 0).
    """
    return lines if rule == MAKER_BREAKER else 0
