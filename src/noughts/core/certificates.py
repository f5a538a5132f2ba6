"""Certificate files: a JSON header and a ``.npz`` of arrays beside it, read without trusting them.

Every proof noughts writes (a winner's strategy, a Breaker's strategy with pairing leaves, ...)
is one of these, so one reader validates them all before a checker of their *kind* looks at
what they claim (:func:`noughts.solving.check_certificate` dispatches on the kind, from the one
table of kinds, :data:`noughts.solving.certificates.CERTIFICATE_KINDS`).

**Format** (version 2; version 1 files still load). ``NAME.json`` is an object with at least::

    {"format": "noughts-certificate", "version": 1, "kind": "strategy",
     "game": "hypercube(4,3)", "position": "<the position's text>", "claim": {...},
     "arrays": "NAME.npz", "sha256": "<hex digest of NAME.npz>", ...}

``game`` is the canonical spec, ``position`` the text of the position the claim is about,
``claim`` what is proved (its fields depend on the kind), ``arrays`` the name of the arrays file,
which sits beside the header, and ``sha256`` its digest. The arrays file is a NumPy ``.npz``
(every member a ``.npy`` array of a plain numeric dtype; no pickle).

**Reading** (:func:`read_certificate`) checks, before any array is loaded: the header's fields
and their types, the version, that the arrays file sits beside the header, its digest, and each
member's ``.npy`` header (a plain dtype, a shape whose size is within :data:`MAX_ARRAY_BYTES`);
then it loads the arrays with ``allow_pickle=False``. Anything wrong raises
:class:`CertificateError` (a malformed file; the CLI exits 2), which says what.

>>> import tempfile, pathlib, numpy as np
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> header = write_certificate(d / "c.json", "example", "tictactoe", ".../.../...", {"n": 1},
...                            {"a": np.arange(3)})
>>> read_certificate(d / "c.json").arrays["a"].tolist()
[0, 1, 2]
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from noughts.core.errors import NoughtsError

__all__ = [
    "FORMAT",
    "MAX_ARRAY_BYTES",
    "READABLE",
    "VERSION",
    "Certificate",
    "CertificateError",
    "CheckReport",
    "certificate_paths",
    "read_certificate",
    "write_certificate",
]

FORMAT = "noughts-certificate"
VERSION = 2
READABLE = (1, 2)
"""The versions this noughts reads. Version 2 added leaves to strategy certificates (positions
where a static argument the checker verifies ends the strategy, see
:mod:`noughts.proving.strategy_check`); a version 1 file is read as before.
"""
MAX_ARRAY_BYTES = 8 * 1024**3
"""The most bytes the arrays of one certificate may take once loaded."""

_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_REQUIRED: dict[str, type | tuple[type, ...]] = {
    "format": str,
    "version": int,
    "kind": str,
    "game": str,
    "position": str,
    "claim": dict,
    "arrays": str,
    "sha256": str,
}


class CertificateError(NoughtsError):
    """A certificate that cannot be read: missing, malformed, or not matching its digest."""


@dataclass(frozen=True)
class Certificate:
    """A certificate as read: its header, its arrays, where it is and its arrays' digest."""

    header: dict[str, Any]
    arrays: dict[str, np.ndarray]
    path: Path
    sha256: str

    @property
    def kind(self) -> str:
        return str(self.header["kind"])


@dataclass
class CheckReport:
    """What a checker found: whether the certificate proves its claim, how much it checked,
    and, if not, the first node that fails and why.
    """

    valid: bool
    kind: str
    game: str
    position: str
    claim: dict[str, Any]
    checked: int
    first_failure: str | None
    sha256: str
    seconds: float
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The ``solve check --json`` document."""
        return {
            "valid": self.valid,
            "kind": self.kind,
            "game": self.game,
            "position": self.position,
            "claim": self.claim,
            "checked": self.checked,
            "first_failure": self.first_failure,
            "sha256": self.sha256,
            "seconds": round(self.seconds, 3),
            **self.details,
        }


def certificate_paths(path: Path | str) -> tuple[Path, Path]:
    """The header and arrays files of a certificate named by its ``.json`` file or its stem
    (``qubic`` or ``qubic.json``: ``qubic.json`` and ``qubic.npz``).
    """
    path = Path(path)
    json_path = path if path.suffix == ".json" else path.with_name(path.name + ".json")
    return json_path, json_path.with_suffix(".npz")


def write_certificate(
    path: Path | str,
    kind: str,
    game: str,
    position: str,
    claim: dict[str, Any],
    arrays: dict[str, np.ndarray],
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write ``PATH.json`` (the header) and ``PATH.npz`` (the arrays); returns the header."""
    json_path, npz_path = certificate_paths(path)
    for name, a in arrays.items():
        if not isinstance(a, np.ndarray) or a.dtype.hasobject:
            raise CertificateError(f"the certificate's array {name!r} must be a plain numeric array")
    try:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(npz_path, **arrays)  # type: ignore[arg-type]
        digest = hashlib.sha256(npz_path.read_bytes()).hexdigest()
        header = {
            "format": FORMAT,
            "version": VERSION,
            "kind": kind,
            "game": game,
            "position": position,
            "claim": claim,
            **(extra or {}),
            "arrays": npz_path.name,
            "sha256": digest,
        }
        json_path.write_text(json.dumps(header, indent=2) + "\n")
    except OSError as error:
        raise CertificateError(f"cannot write the certificate {json_path}: {error}") from None
    return header


def read_certificate(path: Path | str) -> Certificate:
    """Read and validate a certificate (see the module docstring); raises
    :class:`CertificateError` for anything malformed.
    """
    json_path, _ = certificate_paths(path)
    try:
        header = json.loads(json_path.read_text())
    except FileNotFoundError:
        raise CertificateError(f"no certificate at {json_path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CertificateError(f"cannot read the certificate {json_path.name}: {error}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise CertificateError(f"{json_path.name} is not a noughts certificate (format {FORMAT!r})")
    for key, kind in _REQUIRED.items():
        if key not in header:
            raise CertificateError(f"{json_path.name}: the field {key!r} is missing")
        if not isinstance(header[key], kind) or isinstance(header[key], bool):
            raise CertificateError(
                f"{json_path.name}: the field {key!r} is not a {getattr(kind, '__name__', kind)}"
            )
    if header["version"] not in READABLE:
        raise CertificateError(
            f"{json_path.name}: certificate version {header['version']}, this noughts reads versions "
            + ", ".join(str(v) for v in READABLE)
        )
    name = header["arrays"]
    if Path(name).name != name or not name.endswith(".npz"):
        raise CertificateError(f"{json_path.name}: the arrays file must be a .npz beside it, not {name!r}")
    if not _HEX64.match(header["sha256"]):
        raise CertificateError(f"{json_path.name}: the sha256 field is not a hex digest")
    npz_path = json_path.parent / name
    try:
        raw = npz_path.read_bytes()
    except OSError as error:
        raise CertificateError(
            f"cannot read the certificate's arrays {name}: {error.strerror or error}"
        ) from None
    digest = hashlib.sha256(raw).hexdigest()
    if digest != header["sha256"]:
        raise CertificateError(
            f"{name} does not match the certificate's digest (sha256 {digest[:16]}..., expected "
            f"{header['sha256'][:16]}...): the arrays were changed"
        )
    _check_members(npz_path)
    try:
        with np.load(npz_path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise CertificateError(f"cannot read the certificate's arrays {name}: {error}") from None
    return Certificate(header, arrays, json_path, digest)


def _check_members(npz_path: Path) -> None:
    """Each member of the ``.npz``: a ``.npy`` with a plain dtype and a bounded size, read
    from its header alone.
    """
    total = 0
    try:
        with zipfile.ZipFile(npz_path) as archive:
            for info in archive.infolist():
                if not info.filename.endswith(".npy"):
                    raise CertificateError(f"{npz_path.name}: {info.filename!r} is not a .npy array")
                with archive.open(info) as member:
                    version = np.lib.format.read_magic(member)
                    if version == (1, 0):
                        shape, _fortran, dtype = np.lib.format.read_array_header_1_0(member)
                    elif version == (2, 0):
                        shape, _fortran, dtype = np.lib.format.read_array_header_2_0(member)
                    else:
                        raise CertificateError(f"{npz_path.name}: {info.filename} has .npy version {version}")
                if dtype.hasobject or dtype.kind not in "biuf":
                    raise CertificateError(
                        f"{npz_path.name}: {info.filename} holds {dtype}, not plain numbers"
                    )
                total += int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
                if total > MAX_ARRAY_BYTES:
                    raise CertificateError(
                        f"{npz_path.name}: the arrays are larger than {MAX_ARRAY_BYTES:,} bytes"
                    )
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise CertificateError(f"{npz_path.name} is not a valid .npz file: {error}") from None


def elapsed_since(start: float) -> float:
    """Seconds since ``start`` (``time.perf_counter``), for checkers' reports."""
    return time.perf_counter() - start
