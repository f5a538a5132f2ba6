"""Solved tables: built right (held to the reference), saved and loaded back, and every bad file
refused with a clear ``TableError``."""

from __future__ import annotations

import io
import pickle
import random
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from exact_cases import EXTRA_CORNER_SIDE, EXTRA_SIDE, deep_positions, game, reference

from noughts import LimitExceeded, NoughtsError
from noughts.exact import Budget, SolvedTable, TableError, build_table, reference_values
from noughts.exact.fast import FastSolver
from noughts.exact.table import FORMAT, VERSION, _checksum, build_table_reference

TABLE_GAMES = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe,breaker_first=true)",
    "cumulative(tictactoe)",
    "veto(tictactoe)",
    "notakto",
]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each table game built once and saved."""
    root = tmp_path_factory.mktemp("tables")
    paths = {}
    for spec in TABLE_GAMES:
        paths[spec] = root / f"{len(paths)}.npz"
        build_table(game(spec)).save(paths[spec])
    return paths


@pytest.mark.parametrize("spec", TABLE_GAMES)
def test_round_trip_holds_every_reachable_position(spec: str, saved: dict[str, Path]) -> None:
    table = SolvedTable.load(saved[spec], game(spec))
    values = reference(spec)
    positions = sorted(values, key=lambda q: q.text())
    assert all(
        table.value(p) == values[p] for p in random.Random(spec).sample(positions, min(len(positions), 8000))
    )
    assert len(table) == len({p.canonical_key() for p in values})  # one entry per symmetry class
    assert game(spec).start() in table


def test_sizes_and_contents(saved: dict[str, Path]) -> None:
    table = SolvedTable.load(saved["tictactoe"])  # the game comes from the file
    assert str(table.game) == "mnk(3,3,3)" and len(table) == 765  # 765 positions up to symmetry
    assert saved["tictactoe"].stat().st_size < 8_000
    with np.load(saved["cumulative(tictactoe)"], allow_pickle=False) as npz:
        assert str(npz["format"]) == FORMAT and int(npz["version"]) == VERSION
        assert str(npz["spec"]) == "cumulative(mnk(3,3,3))"
        assert npz["keys"].dtype == np.uint64 and npz["keys"].shape == (2, len(npz["outcome"]))
        assert npz["outcome"].dtype == np.int8 and npz["plies"].dtype == np.uint16
        assert npz["score"].dtype == np.int16


ARRAY_GAMES = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "maker_breaker(tictactoe,breaker_first=true)",
    "cumulative(tictactoe)",
    EXTRA_SIDE,
    EXTRA_CORNER_SIDE,
    pytest.param("mnk(4,3,3)", marks=pytest.mark.slow),
    pytest.param("misere(mnk(4,3,3))", marks=pytest.mark.slow),
]


def _same_tables(a: SolvedTable, b: SolvedTable) -> None:
    assert a.keys.shape == b.keys.shape and (a.keys == b.keys).all()
    assert (a.outcome == b.outcome).all() and (a.plies == b.plies).all()
    assert (a.score is None) == (b.score is None)
    if a.score is not None and b.score is not None:
        assert (a.score == b.score).all()


@pytest.mark.parametrize("spec", ARRAY_GAMES)
def test_the_array_build_equals_the_reference_build(spec: str) -> None:
    """Claim games are built by the retrograde pass over arrays: the same table, entry for entry,
    as the memoised minimax through the position API."""
    _same_tables(build_table(game(spec)), build_table_reference(game(spec)))


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["mnk(4,4,4)", "maker_breaker(mnk(4,4,4))"])
def test_4x4_table_holds_the_reference_on_samples(spec: str) -> None:
    """The 4x4 table (1,217,977 classes for mnk(4,4,4), built in seconds) against the reference
    on every position reachable from sampled deep positions, and the kernel on the start."""
    g = game(spec)
    table = build_table(g)
    assert table.value(g.start()) == FastSolver(g).value(g.start())
    for start in deep_positions(spec, 8, 4):
        expected = reference_values(g, start)
        wrong = [(p.text(), v, table.value(p)) for p, v in expected.items() if table.value(p) != v]
        assert not wrong, wrong[:3]


def test_tables_need_a_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match="at most 64 cells"):
        build_table(game("mnk(9,9,5)"))
    with pytest.raises(LimitExceeded, match="positions of otrio solved"):
        build_table(game("otrio"), Budget(max_seconds=0.2, max_memory=None))


def test_lookups_outside_the_table(saved: dict[str, Path]) -> None:
    table = SolvedTable.load(saved["tictactoe"])
    with pytest.raises(TableError, match="not of misere"):
        table.value(game("misere(tictactoe)").start())
    # a table missing a class (as if cut short): clear error, not a wrong answer
    p = game("tictactoe").parse("x../.../...")
    row = table.index(p)
    assert row is not None
    keep = np.arange(len(table)) != row
    cut = SolvedTable(table.game, table.keys[:, keep].copy(), table.outcome[keep], table.plies[keep])
    with pytest.raises(TableError, match="not in the table"):
        cut.value(p)
    assert p not in cut


# -- bad files --------------------------------------------------------------------------------------


def _contents(path: Path) -> dict[str, Any]:
    with np.load(path, allow_pickle=False) as npz:
        return {name: npz[name] for name in npz.files}


def _write(path: Path, contents: dict[str, Any], *, fix_checksum: bool = False) -> Path:
    if fix_checksum:
        arrays = {k: contents[k] for k in ("keys", "outcome", "plies", "score") if k in contents}
        contents["checksum"] = np.array(
            _checksum(str(contents["spec"]), VERSION, str(contents["columns"]), arrays)
        )
    with open(path, "wb") as f:
        np.savez(f, **contents)
    return path


def test_garbage_files(tmp_path: Path) -> None:
    text = tmp_path / "text.npz"
    text.write_text("hello, not a table")
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    npy = tmp_path / "array.npz"
    with open(npy, "wb") as f:
        np.save(f, np.arange(3))
    pickled = tmp_path / "dump.npz"
    pickled.write_bytes(pickle.dumps({"format": FORMAT}))
    other_zip = tmp_path / "other.npz"
    with zipfile.ZipFile(other_zip, "w") as z:
        z.writestr("readme.txt", "hi")
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, weights=np.ones(3))
    for path in [text, empty, npy, pickled, other_zip, foreign, tmp_path / "missing.npz"]:
        with pytest.raises(TableError) as e:
            SolvedTable.load(path)
        message = str(e.value)
        assert path.name in message and str(path.parent) not in message  # no server path
        assert "pickle" not in message.lower()  # numpy's advice to unpickle is not passed on
        assert isinstance(e.value, NoughtsError)


def test_truncated_file(tmp_path: Path, saved: dict[str, Path]) -> None:
    data = saved["tictactoe"].read_bytes()
    cut = tmp_path / "cut.npz"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(TableError, match=r"not a noughts solved table.*cut short"):
        SolvedTable.load(cut)


def test_object_arrays_are_not_unpickled(tmp_path: Path, saved: dict[str, Path]) -> None:
    c = _contents(saved["tictactoe"])
    c["outcome"] = np.array([object()] * len(c["outcome"]), dtype=object)
    buf = io.BytesIO()
    np.savez(buf, **c)
    path = tmp_path / "objects.npz"
    path.write_bytes(buf.getvalue())
    with pytest.raises(TableError, match="holds object, not numbers"):
        SolvedTable.load(path)


def test_a_table_of_another_game(saved: dict[str, Path]) -> None:
    with pytest.raises(TableError, match="is a table of mnk\\(3,3,3\\), not of misere"):
        SolvedTable.load(saved["tictactoe"], game("misere(tictactoe)"))


def test_tampered_values_fail_the_checksum(tmp_path: Path, saved: dict[str, Path]) -> None:
    c = _contents(saved["tictactoe"])
    c["outcome"] = c["outcome"].copy()
    c["outcome"][0] = -c["outcome"][0] if c["outcome"][0] else 1
    with pytest.raises(TableError, match="checksum"):
        SolvedTable.load(_write(tmp_path / "t.npz", c))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c.update(format=np.array("something-else")), "format mark"),
        (lambda c: c.update(version=np.array(99)), "format version 99; this noughts reads version 1"),
        (lambda c: c.pop("version"), "format version is missing"),
        (lambda c: c.update(spec=np.array("nonsense(")), "does not name a game"),
        (lambda c: c.update(spec=np.array("notakto")), "key columns"),
        (lambda c: c.update(columns=np.array("a,b")), "key columns"),
        (lambda c: c.pop("plies"), "missing arrays"),
        (lambda c: c.update(extra=np.zeros(2)), "unexpected arrays"),
        (lambda c: c.update(keys=c["keys"].astype(np.int64)), "keys is int64"),
        (lambda c: c.update(keys=c["keys"][:1]), "keys has 1 columns"),
        (lambda c: c.update(outcome=c["outcome"].astype(np.int16)), "outcome is int16"),
        (lambda c: c.update(plies=c["plies"][:-1]), "'plies' does not have one entry per key"),
        (lambda c: c.update(outcome=c["outcome"] * 2), "codes other than"),
        (lambda c: c.update(plies=c["plies"] + 20), "exceeds the longest game"),
        (lambda c: c.update(keys=c["keys"][:, ::-1].copy()), "not sorted"),
        (lambda c: c.update(keys=c["keys"][:, 1:], outcome=c["outcome"][1:], plies=c["plies"][1:]), "start"),
    ],
)
def test_malformed_contents(tmp_path: Path, saved: dict[str, Path], change: Any, message: str) -> None:
    """Each check on its own: the checksum is recomputed so that the file gets that far."""
    c = _contents(saved["tictactoe"])
    change(c)
    path = _write(tmp_path / "m.npz", c, fix_checksum="keys" in c and "spec" in c and "columns" in c)
    with pytest.raises(TableError, match=message):
        SolvedTable.load(path)
