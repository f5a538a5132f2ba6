"""Every kind of certificate noughts writes, in one table, checked by one :func:`check_certificate`.

A certificate is a file that proves a claim; each kind has a checker that shares no code with
the search that wrote it (it re-derives the board, its lines and the rules from the spec).
:data:`CERTIFICATE_KINDS` is the one table: for each kind, how a file declares it (the file's
``format`` field and, in the container of :mod:`noughts.core.certificates`, its ``kind``), what
its checker counts, and the checker itself, as ``"module:function"`` (imported only when a file
of that kind is checked). :func:`identify` reads the declared fields, never a substring of the
file; :func:`check_certificate` checks any kind and returns one
:class:`noughts.core.certificates.CheckReport` (valid or not, what it proves, how much was
checked, and the first failure named). This package sits above ``exact`` and ``pairing``, so
every checker is visible here. ``noughts solve check FILE`` and ``noughts prove check FILE``
are one command over it (:mod:`noughts.cli.certify`).

Kinds (``file``: which file carries the declaration):

* ``strategy`` (``.json`` + ``.npz``, container ``kind: "strategy"``): a player's strategy that
  reaches a goal whatever the opponent does, written by the proof engine
  (:mod:`noughts.proving.strategy`) and, for misère draws, by the defence walk with leaves the
  checker proves (mirrors, pairings, no line left); checked by :mod:`noughts.proving.strategy_check`.
* ``breaker`` (container ``kind: "breaker"``): Breaker's strategy with pairing leaves, from the
  Breaker prover; checked by :mod:`noughts.breaker.certificate`.
* ``casework`` (``.json`` + ``.npz``, ``format: "noughts-maker-breaker-casework"``): a
  Maker-Breaker casework proof (002's 7x7x7 plan, or a computed one), every case's pairing;
  checked by :mod:`noughts.casework.certificate`.
* ``retrograde`` (``.npz``, member ``format: "noughts-retrograde-table"``): the value and
  distance of every reachable position of a game that need not end; checked against Thompson's
  local conditions by :mod:`noughts.retrograde.check`.

>>> [k.name for k in CERTIFICATE_KINDS]
['strategy', 'breaker', 'casework', 'retrograde']
"""

from __future__ import annotations

import hashlib
import importlib
import json
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from noughts.core import Budget
from noughts.core.certificates import FORMAT as CONTAINER
from noughts.core.certificates import CertificateError, CheckReport, read_certificate

__all__ = ["CERTIFICATE_KINDS", "MAX_HEADER_BYTES", "CertificateKind", "check_certificate", "identify"]

MAX_HEADER_BYTES = 64 * 2**20
"""The largest JSON header read (a certificate's header is a few kilobytes; its arrays sit beside it)."""


@dataclass(frozen=True)
class CertificateKind:
    """One row of :data:`CERTIFICATE_KINDS`: a kind of certificate and how it is checked."""

    name: str
    """The kind's name (the report's ``kind``)."""
    file: str
    """``"json"``: a JSON header (with arrays beside it); ``"npz"``: a NumPy archive."""
    format: str
    """The ``format`` field the file declares."""
    declared_kind: str | None
    """In the one container format, the header's ``kind`` field; None for a format of its own."""
    counts: str
    """What the checker counts in ``checked``: positions, nodes, cases."""
    checker: str
    """``"module:function"``: ``function(path, budget) -> CheckReport``."""
    description: str

    def load_checker(self) -> Callable[[Path, Budget | None], CheckReport]:
        module, _, name = self.checker.partition(":")
        function: Callable[[Path, Budget | None], CheckReport] = getattr(
            importlib.import_module(module), name
        )
        return function


CERTIFICATE_KINDS: tuple[CertificateKind, ...] = (
    CertificateKind(
        "strategy",
        "json",
        CONTAINER,
        "strategy",
        "positions",
        f"{__name__}:_check_strategy",
        "a player's strategy to a goal (a win, at least a draw, a score); misère draws end at leaves "
        "the checker proves",
    ),
    CertificateKind(
        "breaker",
        "json",
        CONTAINER,
        "breaker",
        "nodes",
        f"{__name__}:_check_breaker",
        "Breaker's strategy with pairing leaves (the Breaker prover)",
    ),
    CertificateKind(
        "casework",
        "json",
        "noughts-maker-breaker-casework",
        None,
        "cases",
        f"{__name__}:_check_casework",
        "a Maker-Breaker casework proof: Breaker's plan, then a pairing in every case",
    ),
    CertificateKind(
        "retrograde",
        "npz",
        "noughts-retrograde-table",
        None,
        "positions",
        f"{__name__}:_check_retrograde",
        "a retrograde table: the value and distance of every reachable position of a game that need not end",
    ),
)
"""Every certificate kind: how a file declares it and what checks it (see the module docstring)."""


def _kinds() -> str:
    return ", ".join(k.name for k in CERTIFICATE_KINDS)


def _not_a_certificate(path: Path, why: str) -> CertificateError:
    return CertificateError(
        f"{path} is not a noughts certificate ({why}); this noughts checks {_kinds()} certificates"
    )


def _declared_json(path: Path) -> tuple[str, str | None]:
    """The ``format`` and ``kind`` a JSON header declares."""
    try:
        if path.stat().st_size > MAX_HEADER_BYTES:
            raise _not_a_certificate(path, f"larger than a header's {MAX_HEADER_BYTES:,} bytes")
        doc = json.loads(path.read_bytes())
    except OSError as error:
        raise CertificateError(f"cannot read {path}: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise _not_a_certificate(path, "not a JSON header") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("format"), str):
        raise _not_a_certificate(path, "no 'format' field")
    kind = doc.get("kind")
    return doc["format"], kind if isinstance(kind, str) else None


def _declared_npz(path: Path) -> str:
    """The ``format`` member of a NumPy archive (read with ``allow_pickle=False``)."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            if "format" not in data.files:
                raise _not_a_certificate(
                    path, "an archive without a 'format' member; name a certificate by its .json header"
                )
            mark = data["format"]
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise _not_a_certificate(path, f"not a readable .npz archive: {error}") from None
    if mark.dtype.kind not in "US" or mark.ndim != 0:
        raise _not_a_certificate(path, "its 'format' member is not a string")
    value = mark[()]
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _file_of(path: Path | str) -> Path:
    """The file to read: ``path`` itself where it is a file, else its ``.json`` header (a
    certificate may be named by its stem).
    """
    path = Path(path)
    if path.is_file():
        return path
    written_by = "'noughts solve --certificate FILE' writes FILE.json and FILE.npz; check FILE.json"
    if path.is_dir():
        raise CertificateError(f"{path} is a folder, not a certificate ({written_by})")
    header = path if path.suffix == ".json" else path.with_name(path.name + ".json")
    if not header.is_file():
        also = "" if header == path else f" (nor {header})"
        raise CertificateError(f"there is no file {path}{also}: {written_by}")
    return header


def identify(path: Path | str) -> tuple[CertificateKind, Path]:
    """The kind of the certificate at ``path`` and the file that declares it, from the file's
    declared ``format`` (and ``kind``) field. ``CertificateError`` (one line saying what the
    file is not) for anything else: a missing file, a file that is not JSON or NumPy, a JSON of
    another kind.
    """
    file = _file_of(path)
    with file.open("rb") as f:
        magic = f.read(4)
    if magic == b"PK\x03\x04":
        declared, kind = _declared_npz(file), None
        kinds = [k for k in CERTIFICATE_KINDS if k.file == "npz" and k.format == declared]
    else:
        declared, kind = _declared_json(file)
        kinds = [
            k
            for k in CERTIFICATE_KINDS
            if k.file == "json" and k.format == declared and k.declared_kind in (None, kind)
        ]
    if not kinds and declared == CONTAINER:
        raise CertificateError(f"{file}: unknown certificate kind {kind!r}: this noughts checks {_kinds()}")
    if not kinds:
        what = f"format {declared!r}" + (f" kind {kind!r}" if kind is not None else "")
        raise _not_a_certificate(file, f"it declares {what}")
    return kinds[0], file


def check_certificate(path: Path | str, budget: Budget | None = None) -> CheckReport:
    """Check the certificate at ``path`` (a ``.json`` header, its stem, or a ``.npz`` table)
    with the checker of its kind. ``CertificateError`` (or the kind's own ``NoughtsError``) for a
    file that cannot be read or is malformed; a claim that does not hold gives a report with
    ``valid=False`` and the first failure named. ``budget`` bounds the checkers that walk a
    whole game (the retrograde table's).
    """
    kind, file = identify(path)
    return kind.load_checker()(file, budget)


# -- the checkers, each over its kind's own independent module --------------------------------


def _check_strategy(path: Path, budget: Budget | None) -> CheckReport:
    from noughts.proving.strategy_check import check_strategy

    return check_strategy(read_certificate(path))


def _check_breaker(path: Path, budget: Budget | None) -> CheckReport:
    read_certificate(path)  # the container: digest and arrays, before the checker
    from noughts.breaker.certificate import check_breaker_certificate

    found = check_breaker_certificate(path)
    claim = found.claim if isinstance(found.claim, dict) else {}
    proves = str(claim.get("statement", "Breaker stops Maker"))
    if claim.get("value") == "draw":
        proves += " (a draw)"
    return CheckReport(
        valid=found.valid,
        kind="breaker",
        game=found.game,
        position=found.position,
        claim=claim,
        checked=found.checked,
        first_failure=found.first_failure,
        sha256=found.digest,
        seconds=found.seconds,
        details={"proves": proves, "nodes": found.nodes},
    )


def _check_casework(path: Path, budget: Budget | None) -> CheckReport:
    from noughts.casework.certificate import check_casework

    found = check_casework(path)
    doc = json.loads(path.read_text())
    board = str(doc.get("board", ""))
    theorem = str(doc.get("theorem", f"casework on {board}"))
    return CheckReport(
        valid=found.valid,
        kind="casework",
        game=board,
        position=_start_text(board),
        claim={"theorem": theorem, "board": board},
        checked=found.verified,
        first_failure=found.first_failure,
        sha256=found.digest,
        seconds=found.seconds,
        details={"proves": theorem, "cases": found.cases, "verified": found.verified},
    )


def _check_retrograde(path: Path, budget: Budget | None) -> CheckReport:
    from noughts.retrograde.check import check_table

    started = time.perf_counter()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    found = check_table(path, budget)
    proves = "the value and distance of every reachable position"
    return CheckReport(
        valid=found.ok,
        kind="retrograde",
        game=found.game,
        position=_start_text(found.game),
        claim={"statement": proves},
        checked=found.positions,
        first_failure=found.failure,
        sha256=digest,
        seconds=time.perf_counter() - started,
        details={"proves": proves},
    )


def _start_text(spec: str) -> str:
    """The text of the start of the game (or board) ``spec``; the spec itself if it names none."""
    from noughts.core import NoughtsError, game

    try:
        return game(spec).start().text()
    except NoughtsError:
        return spec
