"""Checking a certificate of any kind: read it once, then hand it to the checker of its kind.

:data:`CHECKERS` is the one table of kinds. Each entry names, as ``"module:function"``, a checker
that takes a :class:`noughts.core.certificates.Certificate` (already read and validated by
:func:`noughts.core.certificates.read_certificate`) and returns a
:class:`noughts.core.certificates.CheckReport`. A checker shares no code with the search whose
proofs it checks: it re-derives the board, its lines and its symmetries from the spec, and the
rules, itself. Checkers are imported only when a certificate of their kind is checked.

Kinds:

* ``"strategy"``: a player's strategy that reaches a goal (a win, at least a draw, a score)
  whatever the opponent does; written by :mod:`noughts.exact.strategy` from the proof engine's
  proofs, checked by :mod:`noughts.exact.strategy_check`.
* ``"breaker"``: Breaker's strategy with pairing leaves, from :mod:`noughts.pairing` (a layer
  above this one): :func:`noughts.solving.check_certificate` checks every kind, that one with
  :mod:`noughts.pairing.breaker_certificate`, and hands the others to this table.

>>> sorted(CHECKERS)
['strategy']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from noughts.core.certificates import Certificate, CertificateError, CheckReport, read_certificate

__all__ = ["CHECKERS", "check_certificate", "checker_for"]

CHECKERS: dict[str, str] = {
    "strategy": "noughts.exact.strategy_check:check_strategy",
}
"""Certificate kind -> its checker, as ``"module:function"`` (see the module docstring)."""


def checker_for(kind: str) -> Callable[[Certificate], CheckReport]:
    """The checker of certificates of ``kind``; ``CertificateError`` for a kind noughts does not know."""
    target = CHECKERS.get(kind)
    if target is None:
        known = ", ".join(sorted(CHECKERS))
        raise CertificateError(f"unknown certificate kind {kind!r}: this noughts checks {known}")
    module, _, name = target.partition(":")
    function: Callable[[Certificate], CheckReport] = getattr(importlib.import_module(module), name)
    return function


def check_certificate(path: Path | str) -> CheckReport:
    """Read the certificate at ``path`` (its ``.json`` header, or the stem) and check it with
    the checker of its kind. ``CertificateError`` for a file that cannot be read or is
    malformed; a claim that does not hold gives a report with ``valid=False`` and the first
    failing node.
    """
    certificate = read_certificate(path)
    return checker_for(certificate.kind)(certificate)
