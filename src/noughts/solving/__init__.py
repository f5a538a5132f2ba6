"""``noughts solve``: every engine noughts has, under one policy, and every certificate's checker.

:mod:`noughts.solving.policy` holds the one policy (:data:`POLICY`, a table of engine rows over
the typed :class:`~noughts.exact.engines.Engine` protocol, run as a portfolio) and the one
:func:`solve` and :func:`solve_split` (``noughts.solve`` is this :func:`solve`). It sits above
``exact`` and ``pairing`` because the Breaker prover's row (:mod:`noughts.pairing`) is one of its
rows. :func:`check_certificate` checks a certificate of any kind (:data:`CERTIFICATE_KINDS`, the
one table of kinds: :mod:`noughts.solving.certificates`).

>>> r = solve("mnk(6,6,5)", value_only=True)  # the Breaker prover, beside the alpha-beta kernel
>>> r.value.describe(r.game), r.engine
('draw', 'breaker')
"""

from __future__ import annotations

from noughts.solving.certificates import CERTIFICATE_KINDS, check_certificate
from noughts.solving.policy import (
    POLICY,
    PolicyOracle,
    choose_engine,
    engines_for,
    solve,
    solve_split,
)

__all__ = [
    "CERTIFICATE_KINDS",
    "POLICY",
    "PolicyOracle",
    "check_certificate",
    "choose_engine",
    "engines_for",
    "solve",
    "solve_split",
]
