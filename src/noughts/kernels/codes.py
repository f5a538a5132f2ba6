"""The rule and result codes of every claim kernel, as plain ints numba folds into constants.

They are :class:`noughts.core.Rule` and :class:`noughts.core.Result` (declared once, in
:mod:`noughts.core.codes`), read off here so that a kernel can compare with them; nothing else in
noughts assigns a rule or result code. A kernel takes a game's rule from ``game.claim_rule`` and
Maker from ``game.maker``. This module needs no numba: the NumPy counter and the kernels' Python
drivers import it without loading the compiler.

The kernels that run as stack machines in slices (alpha-beta, df-pn, the Breaker prover, the
strategy and misère-defence walks) answer each call with a status: :data:`DONE` or
:data:`PAUSED`, declared here once, and their own reasons to be called again (a table to grow)
numbered from :data:`OWN_STATUS` on; inside, each runs in the modes :data:`ENTER`,
:data:`LOOP` and :data:`RETURN`. The bounded searches they call (a threat search, a cover)
answer :data:`FOUND`, :data:`NOT_FOUND` or :data:`CUTOFF`.

>>> [STANDARD, MISERE, MAKER_BREAKER, CUMULATIVE], [RUNNING, FIRST, SECOND, DRAW]
([0, 1, 2, 3], [-1, 0, 1, 2])
>>> [DONE, PAUSED, OWN_STATUS], [ENTER, LOOP, RETURN], [FOUND, NOT_FOUND, CUTOFF]
([0, 1, 2], [0, 1, 2], [1, 0, -1])
"""

from __future__ import annotations

from noughts.core.codes import Result, Rule

__all__ = [
    "CUMULATIVE",
    "CUTOFF",
    "DONE",
    "DRAW",
    "ENTER",
    "FIRST",
    "FOUND",
    "LOOP",
    "MAKER_BREAKER",
    "MISERE",
    "NOT_FOUND",
    "OWN_STATUS",
    "PAUSED",
    "RETURN",
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

ENTER = 0
"""A stack machine's mode: enter the node on top of the stack (judge it, or set up its moves)."""
LOOP = 1
"""A stack machine's mode: go on with the next move of the node on top of the stack."""
RETURN = 2
"""A stack machine's mode: hand the finished node's answer to its parent."""

FOUND = 1
"""A bounded search's answer (a threat sequence, a cover): found."""
NOT_FOUND = 0
"""A bounded search's answer: there is none (within what it was asked)."""
CUTOFF = -1
"""A bounded search's answer: its limit stopped it before it knew."""


def start_aux(rule: int, lines: int) -> int:
    """A claim's ``aux0`` at the start of a game of ``lines`` lines: the survivors (every line)
    under Maker-Breaker rules, else 0 (``aux1`` starts at 0).
    """
    return lines if rule == MAKER_BREAKER else 0
