"""Hostile files for the tests of every loader: damaged, encrypted, unsupported and bomb archives;
and hostile command-line values (paths, numbers, specs, agents, positions, Ray addresses) for the
test that tries them on every option of every command (``tests/cli/test_hostile_options.py``).

Each builder returns the bytes of a zip (or ``.npz``) the way an attacker or a broken disk would
make it: a flipped CRC byte, the encryption flag, compression method 99 (WinZip's AES), a 510 KB
zip that expands to 500 MB, a 1.5 MB ``.npz`` whose one array unpacks to 1.6 GB. The bombs are
real deflate streams (their members do expand that far), built from one compressed block of
zeros repeated, so they take a fraction of a second to make.
"""

from __future__ import annotations

import hashlib
import io
import json
import struct
import zipfile
import zlib
from functools import cache
from pathlib import Path

import numpy as np

__all__ = [
    "HOSTILE_AGENTS",
    "HOSTILE_NUMBERS",
    "HOSTILE_PATHS",
    "HOSTILE_POSITIONS",
    "HOSTILE_RAY",
    "HOSTILE_SPECS",
    "HOSTILE_WORDS",
    "agent_zip",
    "bomb_npz",
    "bomb_zip",
    "encrypted",
    "flip_crc",
    "method_99",
    "saved_agent_with_npz",
    "zip_of",
]

MiB = 1 << 20


def zip_of(members: dict[str, bytes]) -> bytes:
    """A plain deflated zip of ``members``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buffer.getvalue()


def _headers(data: bytes) -> tuple[list[int], list[int]]:
    """Offsets of the local file headers and of the central directory entries."""
    local, central = [], []
    i = 0
    while (i := data.find(b"PK\x03\x04", i)) >= 0:
        local.append(i)
        i += 4
    i = 0
    while (i := data.find(b"PK\x01\x02", i)) >= 0:
        central.append(i)
        i += 4
    return local, central


def flip_crc(data: bytes, member: int = 0) -> bytes:
    """The archive with one byte of a member's CRC-32 flipped (in both of its headers)."""
    out = bytearray(data)
    local, central = _headers(data)
    out[local[member] + 14] ^= 0xFF
    out[central[member] + 16] ^= 0xFF
    return bytes(out)


def encrypted(data: bytes, member: int = 0) -> bytes:
    """The archive with a member's "encrypted" flag (bit 0 of its flags) set."""
    out = bytearray(data)
    local, central = _headers(data)
    out[local[member] + 6] |= 1
    out[central[member] + 8] |= 1
    return bytes(out)


def method_99(data: bytes, member: int = 0) -> bytes:
    """The archive with a member's compression method set to 99 (WinZip AES)."""
    out = bytearray(data)
    local, central = _headers(data)
    struct.pack_into("<H", out, local[member] + 8, 99)
    struct.pack_into("<H", out, central[member] + 10, 99)
    return bytes(out)


@cache
def _zeros_stream(mib: int, prefix: bytes = b"") -> tuple[bytes, int, int]:
    """A raw deflate stream of ``prefix`` then ``mib`` MiB of zeros: (stream, crc32, size)."""
    chunk = b"\0" * MiB
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = c.compress(prefix) + c.flush(zlib.Z_FULL_FLUSH) if prefix else b""
    block = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = block.compress(chunk) + block.flush(zlib.Z_FULL_FLUSH)
    final = zlib.compressobj(9, zlib.DEFLATED, -15).flush()
    crc = zlib.crc32(prefix)
    for _ in range(mib):
        crc = zlib.crc32(chunk, crc)
    return head + body * mib + final, crc, len(prefix) + mib * MiB


def _raw_zip(members: list[tuple[str, bytes, int, int]]) -> bytes:
    """A zip of deflated members given as (name, raw deflate stream, crc32, unpacked size)."""
    out = io.BytesIO()
    central = []
    for name, stream, crc, size in members:
        offset = out.tell()
        encoded = name.encode()
        out.write(
            struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(stream), size, len(encoded), 0)
        )
        out.write(encoded)
        out.write(stream)
        central.append(
            struct.pack(
                "<4s6H3L5H2L",
                b"PK\x01\x02",
                20,
                20,
                0,
                8,
                0,
                0,
                crc,
                len(stream),
                size,
                len(encoded),
                0,
                0,
                0,
                0,
                0,
                offset,
            )
            + encoded
        )
    start = out.tell()
    for entry in central:
        out.write(entry)
    size = out.tell() - start
    out.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(central), len(central), size, start, 0))
    return out.getvalue()


def bomb_zip(name: str = "agent.json", mib: int = 500) -> bytes:
    """A zip of about 510 KB whose one member really expands to ``mib`` MiB (of zeros)."""
    stream, crc, size = _zeros_stream(mib)
    return _raw_zip([(name, stream, crc, size)])


def bomb_npz(mib: int = 1600, name: str = "v1") -> bytes:
    """An ``.npz`` of about 1.5 MB whose one array, float64 of ``mib`` MiB, really unpacks that far."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": (mib * MiB // 8,)}
    )
    stream, crc, size = _zeros_stream(mib, header.getvalue())
    return _raw_zip([(name + ".npy", stream, crc, size)])


def agent_zip(folder: Path) -> bytes:
    """A real saved agent (a TD agent of tic-tac-toe) as the zip the web arena's Download gives."""
    import noughts
    from noughts.agents.saved import save_agent
    from noughts.learn.td import TDConfig, TDLearner

    learner = TDLearner(noughts.game("tictactoe"), TDConfig(seed=1))
    path = save_agent(learner.agent(), folder / "agent.json")
    return zip_of({"agent.json": path.read_bytes(), "agent.npz": path.with_suffix(".npz").read_bytes()})


def saved_agent_with_npz(folder: Path, npz: bytes, game: str = "cumulative(tictactoe)") -> Path:
    """A saved agent's ``.json`` (checksum right) beside the given ``.npz`` bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "agent.npz").write_bytes(npz)
    doc = {
        "format": "noughts-agent",
        "version": 1,
        "kind": "td",
        "game": game,
        "positions": 6046,
        "arrays": "agent.npz",
        "arrays_sha256": hashlib.sha256(npz).hexdigest(),
        "saved_with": "noughts",
    }
    path = folder / "agent.json"
    path.write_text(json.dumps(doc))
    return path


# -- hostile command-line values ---------------------------------------------------------------
# Each is tried on every option (or argument) of its kind; "{tmp}" is a fresh temporary folder.

HOSTILE_NUMBERS = ("-1", "0", "nan", "inf", "-inf", "1e400", "99999999999999999999", "many", "")
"""Numbers: negative, zero, not finite, too large for 64 bits, not numbers."""

HOSTILE_PATHS = (
    "/proc/x.json",  # a folder nobody can write in (os.access says yes to root)
    "{tmp}/nonexistent/x.json",  # a folder that does not exist (some commands make it: never "/...")
    "{tmp}/not-ours.txt",  # a file that is not ours (never a system file: CI runs as root, and a save there succeeds)
    "{tmp}/not-ours.txt/x.json",  # a "folder" that is a file
    "{tmp}",  # a folder where a file is wanted
    "",
)
"""Paths to read or write."""

HOSTILE_SPECS = ("", "foo(3)", "mnk(3,3", "mnk(99999,99999,3)", "hypercube(20,20)", "mnk(3,3,3,3)", "x" * 300)
"""Game specs: empty, unknown, malformed, far too large."""

HOSTILE_AGENTS = (
    "",
    "bogus",
    "minimax:depth=-1",
    "mcts:sims=99999999999999999999",
    "random:seconds=nan",
    "random:seconds=inf",
    "saved:nobody",
    "/etc/passwd",
)
"""Agent specs: unknown, out of range, not finite, a saved agent that does not exist, a file that
is not an agent."""

HOSTILE_POSITIONS = ("", "xxxx", "x" * 2000, "xo./.../...;...")
"""Positions in a game's text form."""

HOSTILE_RAY = ("127.0.0.1:1", "", "nonsense", "ray://256.1.1.1:99999")
"""Ray addresses: nothing listening, empty, not host:port, out of range."""

HOSTILE_WORDS = ("", "bogus", "x" * 300)
"""Any other text option (a name, a source, a method)."""
