"""Archives read as hostile input (noughts.core.archive): every damaged, encrypted, unsupported
or oversized archive is one clear ArchiveError, decided before anything is unpacked.
"""

from __future__ import annotations

import io
import resource
import zipfile
from pathlib import Path

import numpy as np
import pytest

from hostile import bomb_npz, bomb_zip, encrypted, flip_crc, method_99, saved_agent_with_npz, zip_of
from noughts.agents.saved import load_agent
from noughts.core import NoughtsError
from noughts.core.archive import ArchiveError, check_zip, open_zip, read_member, read_npz


def npz(**arrays: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    return buffer.getvalue()


def read_all(data: bytes, max_bytes: int = 10 * 2**20) -> dict[str, bytes]:
    z = open_zip(data, what="up.zip")
    with z:
        return {
            i.filename: read_member(z, i, what="up.zip")
            for i in check_zip(z, what="up.zip", max_bytes=max_bytes)
        }


def test_a_good_npz_reads_back_and_its_headers_are_seen_before_its_data() -> None:
    seen = {}
    data = npz(v=np.arange(6, dtype=np.int16).reshape(2, 3), w=np.ones(4))
    out = read_npz(data, what="a.npz", max_bytes=2**20, check=seen.update)
    assert out["v"].tolist() == [[0, 1, 2], [3, 4, 5]] and out["w"].dtype == np.float64
    assert {k: (str(h.dtype), h.shape) for k, h in seen.items()} == {
        "v": ("int16", (2, 3)),
        "w": ("float64", (4,)),
    }


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (flip_crc, "damaged"),
        (encrypted, "encrypted"),
        (method_99, "compression method 99"),
    ],
)
def test_damaged_encrypted_and_unsupported_archives_are_refused(damage, words: str) -> None:
    good = zip_of({"agent.json": b'{"a": 1}' * 100, "agent.npz": b"x" * 1000})
    assert read_all(good)["agent.json"].startswith(b'{"a"')
    with pytest.raises(ArchiveError, match=words) as e:
        read_all(damage(good))
    assert "up.zip" in str(e.value)
    with pytest.raises(ArchiveError, match=words):
        read_npz(damage(npz(v=np.arange(1000))), what="v.npz", max_bytes=2**20)


def test_a_zip_bomb_is_refused_from_its_directory_without_unpacking(monkeypatch: pytest.MonkeyPatch) -> None:
    data = bomb_zip()  # 510 KB, expands to 500 MiB
    assert len(data) < 600_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    opened: list[str] = []
    real_open = zipfile.ZipFile.open

    def watched(self: zipfile.ZipFile, name: object, *args: object, **kwargs: object) -> object:
        opened.append(getattr(name, "filename", str(name)))
        return real_open(self, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(zipfile.ZipFile, "open", watched)
    with pytest.raises(ArchiveError, match="unpacks to 524,288,000 bytes"):
        read_all(data)
    assert opened == []  # decided from the directory alone: no member was opened, none decompressed
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # KiB: nothing unpacked


def test_an_npz_bomb_is_refused_from_its_headers() -> None:
    data = bomb_npz(mib=64)  # the 1.6 GB one is in the CLI and web tests
    with pytest.raises(ArchiveError, match="unpacks to"):
        read_npz(data, what="v.npz", max_bytes=2**20)
    checked = []

    def small(headers):
        checked.append(headers["v1"].shape)
        raise NoughtsError("v1 is far larger than this game needs")

    with pytest.raises(ArchiveError, match=r"v\.npz: v1 is far larger"):
        read_npz(data, what="v.npz", max_bytes=2**30, check=small)
    assert checked == [(64 * 2**20 // 8,)]


def test_a_member_that_lies_about_its_size_is_refused() -> None:
    data = bytearray(zip_of({"a.json": b"z" * 5000}))
    # declare 10 bytes where 5000 are: reading stops at 10 and the CRC does not match
    for sig, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        i = data.find(sig)
        data[i + offset : i + offset + 4] = (10).to_bytes(4, "little")
    with pytest.raises(ArchiveError, match="damaged"):
        read_all(bytes(data))


@pytest.mark.parametrize(
    "content",
    [b"just some text\n", b"", b"\x93NUMPY not really", b"PK\x03\x04 truncated"],
)
def test_things_that_are_not_archives(content: bytes) -> None:
    with pytest.raises(ArchiveError, match="not a zip archive"):
        read_npz(content, what="t.npz", max_bytes=2**20)


def test_object_arrays_and_odd_members_are_refused() -> None:
    buffer = io.BytesIO()
    np.savez(buffer, v=np.array([object()], dtype=object))
    with pytest.raises(ArchiveError, match="holds object, not numbers"):
        read_npz(buffer.getvalue(), what="o.npz", max_bytes=2**20)
    with pytest.raises(ArchiveError, match="not an array"):
        read_npz(zip_of({"readme.txt": b"hi"}), what="r.npz", max_bytes=2**20)
    with pytest.raises(ArchiveError, match="not a plain file name"):
        read_all(zip_of({"../../etc/passwd": b"x"}))


def test_a_saved_agent_whose_npz_unpacks_to_16_gb_is_refused_before_loading(tmp_path: Path) -> None:
    path = saved_agent_with_npz(tmp_path / "a", bomb_npz())  # 1.5 MB, one array of 1.6 GB
    assert (tmp_path / "a" / "agent.npz").stat().st_size < 2_000_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(NoughtsError) as e:
        load_agent(path)
    message = str(e.value)
    assert "agent.npz unpacks to 1,677,721,728 bytes" in message and "it can need" in message
    assert str(tmp_path) not in message
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # KiB
