"""The file of a 7x7x7 certificate: its format's name and version, the error for a bad file,
and the writer the casework (:mod:`noughts.casework.cube7`) calls. The checker
(:mod:`noughts.casework.certificate`) reads the same format and shares nothing else with the
search.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from noughts.core.board import Board
from noughts.core.errors import NoughtsError

__all__ = ["FORMAT", "VERSION", "CertificateError", "case_name", "write_certificate"]

FORMAT = "noughts-maker-breaker-casework"
VERSION = 1


class CertificateError(NoughtsError):
    """A certificate that cannot be read, does not match its digest, or fails a case."""


def case_name(board: Board, maker: Sequence[int], breaker: Sequence[int]) -> str:
    """A case in people's terms: ``Maker 4,4,4 ... / Breaker 2,2,2 ...`` (1-based cells)."""
    m = " ".join(board.cell_name(c) for c in maker)
    b = " ".join(board.cell_name(c) for c in breaker if c >= 0)
    return f"Maker {m} / Breaker {b}"


# -- writing ----------------------------------------------------------------------------------


def write_certificate(path: Path, claim: dict[str, Any], arrays: dict[str, np.ndarray]) -> str:
    """Write ``PATH.json`` (``claim`` plus the digest) and ``PATH.npz``; return the digest."""
    path = Path(path)
    json_path = path.with_suffix(".json")
    npz_path = path.with_suffix(".npz")
    try:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(npz_path, **arrays)  # type: ignore[arg-type]
        digest = hashlib.sha256(npz_path.read_bytes()).hexdigest()
        doc = {"format": FORMAT, "version": VERSION, **claim, "arrays": npz_path.name, "sha256": digest}
        json_path.write_text(json.dumps(doc, indent=2) + "\n")
    except OSError as error:
        raise CertificateError(f"cannot write the certificate {json_path}: {error}") from None
    return digest
