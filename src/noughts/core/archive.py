"""Zip and ``.npz`` archives read as hostile input: checked from their headers before anything
is unpacked.

Saved agents, solved tables and the web arena's uploads are zip archives (an ``.npz`` is a zip
of ``.npy`` files). A file from elsewhere may be damaged, encrypted, compressed by a method
Python cannot read, or built to expand to far more than it weighs (a "zip bomb"). Everything
here decides from the archive's central directory and the ``.npy`` headers alone, before any
member is decompressed:

* the number of members, their names (plain names, no folders), the encryption flag, the
  compression method (stored or deflated only) and the unpacked sizes the directory declares,
  against the caller's limits;
* for an ``.npz``, each array's dtype (numbers only, never Python objects) and shape, read from
  the first bytes of its member, against what the caller expects (``check``), and the declared
  size against the size the header implies.

Only then are the members read, and a member is never read past the size it declares; a damaged
member (a CRC mismatch, a broken deflate stream, a size that lies) is refused. Every refusal is
one :class:`ArchiveError` naming the file by ``what`` (a file name the caller chose, never a
server path).

>>> import io, numpy as np
>>> buf = io.BytesIO()
>>> np.savez_compressed(buf, v=np.zeros(3))
>>> read_npz(buf.getvalue(), what="v.npz", max_bytes=1024)["v"].tolist()
[0.0, 0.0, 0.0]
>>> read_npz(buf.getvalue(), what="v.npz", max_bytes=16)
Traceback (most recent call last):
...
noughts.core.archive.ArchiveError: v.npz unpacks to 152 bytes, more than the 16 it can need
"""

from __future__ import annotations

import io
import math
import os
import zipfile
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.core.errors import NoughtsError

__all__ = ["ArchiveError", "ArrayHeader", "check_zip", "open_zip", "read_member", "read_npz"]

METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}
"""The compression methods read (others, such as 99, WinZip's AES, are refused)."""

MAX_MEMBERS = 64
"""The most members an archive may have unless the caller allows more."""

MAX_RATIO = 2000.0
"""The most a member may expand (unpacked bytes over packed bytes, past its first 64 KiB):
deflate's own limit is about 1032, so more than this means a crafted archive."""

Source = str | os.PathLike[str] | bytes


class ArchiveError(NoughtsError, ValueError):
    """An archive that cannot be read safely: the message names it and says why."""


@dataclass(frozen=True)
class ArrayHeader:
    """An ``.npy`` member's header: its dtype and shape, and the bytes of its data."""

    name: str
    dtype: np.dtype[Any]
    shape: tuple[int, ...]

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * self.dtype.itemsize


def _open(source: Source, what: str) -> zipfile.ZipFile:
    try:
        if isinstance(source, bytes):
            return zipfile.ZipFile(io.BytesIO(source))
        return zipfile.ZipFile(source)
    except FileNotFoundError:
        raise ArchiveError(f"{what} does not exist") from None
    except IsADirectoryError:
        raise ArchiveError(f"{what} is a folder, not a file") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError):
        raise ArchiveError(f"{what} is not a zip archive (an .npz is one), or it is cut short") from None
    except OSError as e:
        raise ArchiveError(f"cannot read {what}: {e.strerror or 'input/output error'}") from None


def check_zip(
    archive: zipfile.ZipFile,
    *,
    what: str,
    max_bytes: int,
    max_members: int = MAX_MEMBERS,
) -> list[zipfile.ZipInfo]:
    """The members of an open archive, after checking its directory: at most ``max_members``
    members with plain names, none encrypted, each stored or deflated, at most ``max_bytes``
    unpacked in all and none expanding past :data:`MAX_RATIO`. ``ArchiveError`` otherwise.
    """
    members = archive.infolist()
    if len(members) > max_members:
        raise ArchiveError(f"{what} holds {len(members):,} files; at most {max_members} are expected")
    total = 0
    for info in members:
        name = info.filename
        if not name or "/" in name or "\\" in name or name.startswith(".") or "\x00" in name:
            raise ArchiveError(f"{what} holds {name[:60]!r}, which is not a plain file name")
        if info.flag_bits & 0x1:
            raise ArchiveError(f"{what} is encrypted ({name[:60]}); noughts reads only unencrypted archives")
        if info.compress_type not in METHODS:
            raise ArchiveError(
                f"{what} uses compression method {info.compress_type} for {name[:60]}; "
                "noughts reads stored and deflated members only"
            )
        if info.file_size < 0 or info.compress_size < 0:
            raise ArchiveError(f"{what} declares a negative size for {name[:60]}")
        if info.file_size > 65536 and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise ArchiveError(
                f"{what}: {name[:60]} would expand {info.file_size / max(info.compress_size, 1):,.0f} times "
                "(a crafted archive); refused"
            )
        total += info.file_size
    if total > max_bytes:
        raise ArchiveError(f"{what} unpacks to {total:,} bytes, more than the {max_bytes:,} it can need")
    return members


def _damaged(what: str, name: str) -> ArchiveError:
    return ArchiveError(f"{what} is damaged: {name[:60]} does not unpack to what its header says")


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, *, what: str) -> bytes:
    """A member's bytes (checked by :func:`check_zip` first), never more than it declares;
    ``ArchiveError`` if it is damaged.
    """
    try:
        with archive.open(info) as f:
            data = f.read(info.file_size + 1)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError, RuntimeError):
        raise _damaged(what, info.filename) from None
    if len(data) != info.file_size:
        raise _damaged(what, info.filename)
    return data


def _header(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, what: str, kinds: str
) -> tuple[ArrayHeader, int]:
    """An ``.npy`` member's header and the header's length in bytes, read from its first bytes."""
    name = info.filename[: -len(".npy")]
    try:
        with archive.open(info) as f:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, _, dtype = np.lib.format.read_array_header_1_0(f)
            elif version == (2, 0):
                shape, _, dtype = np.lib.format.read_array_header_2_0(f)
            else:
                raise ArchiveError(f"{what}: array {name[:40]!r} has .npy version {version}, not 1.0 or 2.0")
            offset = f.tell()
    except ArchiveError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError):
        raise _damaged(what, info.filename) from None
    except (ValueError, SyntaxError, TypeError):
        raise ArchiveError(
            f"{what}: array {name[:40]!r} does not start with a readable .npy header"
        ) from None
    dtype = np.dtype(dtype)
    if dtype.hasobject or dtype.kind not in kinds or dtype.fields is not None:
        raise ArchiveError(f"{what}: array {name[:40]!r} holds {dtype}, not numbers")
    if not isinstance(shape, tuple) or any(not isinstance(n, int) or n < 0 for n in shape):
        raise ArchiveError(f"{what}: array {name[:40]!r} has an unreadable shape")
    header = ArrayHeader(name, dtype, tuple(shape))
    if offset + header.nbytes != info.file_size:
        raise ArchiveError(
            f"{what}: array {name[:40]!r} ({dtype}, shape {tuple(shape)}) does not match its size in the archive"
        )
    return header, offset


def read_npz(
    source: Source | zipfile.ZipFile,
    *,
    what: str,
    max_bytes: int,
    check: Callable[[Mapping[str, ArrayHeader]], None] | None = None,
    kinds: str = "biuf",
    max_members: int = MAX_MEMBERS,
) -> dict[str, npt.NDArray[Any]]:
    """The arrays of an ``.npz`` (a path, its bytes or an open archive), read safely.

    The directory is checked (:func:`check_zip`), then every member's ``.npy`` header: dtypes of
    the ``kinds`` given (``b`` bool, ``i``/``u`` integers, ``f`` floats, ``U`` text), shapes
    consistent with the sizes. ``check(headers)`` sees every header (by array name) before any
    data is read and raises (a :class:`NoughtsError`) if the shapes are not what the caller
    needs. Then the arrays are read. ``ArchiveError`` names ``what`` and the problem.
    """
    archive = source if isinstance(source, zipfile.ZipFile) else _open(source, what)
    try:
        members = check_zip(archive, what=what, max_bytes=max_bytes, max_members=max_members)
        headers: dict[str, tuple[ArrayHeader, zipfile.ZipInfo]] = {}
        for info in members:
            if not info.filename.endswith(".npy"):
                raise ArchiveError(f"{what} holds {info.filename[:60]!r}, not an array (.npy)")
            header, _ = _header(archive, info, what, kinds)
            headers[header.name] = (header, info)
        if check is not None:
            try:
                check({name: h for name, (h, _) in headers.items()})
            except ArchiveError:
                raise
            except NoughtsError as e:
                raise ArchiveError(f"{what}: {e}") from None
        out: dict[str, npt.NDArray[Any]] = {}
        for name, (_, info) in headers.items():
            out[name] = _read_array(archive, info, what)
        return out
    finally:
        if not isinstance(source, zipfile.ZipFile):
            archive.close()


def _read_array(archive: zipfile.ZipFile, info: zipfile.ZipInfo, what: str) -> npt.NDArray[Any]:
    try:
        with archive.open(info) as f:
            array = np.lib.format.read_array(f, allow_pickle=False)
            if f.read(1):
                raise _damaged(what, info.filename)
    except ArchiveError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError, RuntimeError):
        raise _damaged(what, info.filename) from None
    result: npt.NDArray[Any] = array
    return result


def open_zip(source: Source, *, what: str) -> zipfile.ZipFile:
    """An archive opened for :func:`check_zip` and :func:`read_member` (close it after)."""
    return _open(source, what)
