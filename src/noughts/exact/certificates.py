"""The exact layer's certificates: a strategy (kind ``"strategy"``), read and checked.

Every kind of certificate, this one included, is a row of the one table,
:data:`noughts.solving.certificates.CERTIFICATE_KINDS`, and :func:`noughts.solving.check_certificate`
checks any of them; that is the entry to use. This module keeps the name the README's example
imports (``from noughts.exact.certificates import check_certificate``) for the strategy kind, the
one this layer writes, with the same report; it goes once the example names the one entry.
"""

from __future__ import annotations

from pathlib import Path

from noughts.core.certificates import CertificateError, CheckReport, read_certificate

__all__ = ["check_certificate"]


def check_certificate(path: Path | str) -> CheckReport:
    """Read the strategy certificate at ``path`` (its ``.json`` header, or the stem) and check it
    with :func:`noughts.exact.strategy_check.check_strategy`; ``CertificateError`` for a file
    that cannot be read, is malformed or is of another kind (checked by
    :func:`noughts.solving.check_certificate`).
    """
    certificate = read_certificate(path)
    if certificate.kind != "strategy":
        raise CertificateError(
            f"a {certificate.kind!r} certificate: noughts.solving.check_certificate checks every kind"
        )
    from noughts.exact.strategy_check import check_strategy

    return check_strategy(certificate)
