"""The quotients saved beside the package: loaded instead of recomputed, the same as the
construction's, checked as they load, refused when altered; the checker reads them too."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import noughts
from noughts.cgt import notakto_quotient
from noughts.cgt.check import check_quotient, check_sums
from noughts.cgt.saved import (
    FORMAT,
    QUOTIENT_DIR,
    VERSION,
    load_quotient,
    quotient_document,
    read_quotient,
    save_quotient,
    saved_path,
    saved_quotient,
)
from noughts.core import NoughtsError, mnk
from noughts.exact.quotient import board_quotient


@pytest.fixture(scope="module")
def computed():
    return notakto_quotient(mnk(3, 3, 3))


def test_the_shipped_3x3_quotient_is_the_one_the_construction_finds(computed) -> None:
    saved = saved_quotient(mnk(3, 3, 3))
    assert saved is not None
    assert np.array_equal(saved.quotient.monoid.table, computed.quotient.monoid.table)
    assert np.array_equal(saved.quotient.in_p, computed.quotient.in_p)
    assert np.array_equal(saved.quotient.images, computed.quotient.images)
    # (test_quotient.py shows the computed one is Plambeck and Whitehead's)


def test_the_shipped_normal_play_quotient_matches_too() -> None:
    saved = saved_quotient(mnk(3, 3, 3), misere=False)
    assert saved is not None
    fresh = notakto_quotient(mnk(3, 3, 3), misere=False)
    assert np.array_equal(saved.quotient.monoid.table, fresh.quotient.monoid.table)
    assert saved.quotient.p_portion == [0]


def test_the_engine_plays_from_the_saved_quotient() -> None:
    assert board_quotient(mnk(3, 3, 3), True) is saved_quotient(mnk(3, 3, 3), True)


def test_every_shipped_file_loads_and_checks() -> None:
    files = sorted(QUOTIENT_DIR.glob("notakto-*.json"))
    assert files
    for path in files:
        doc = json.loads(path.read_text())
        assert doc["format"] == FORMAT and doc["version"] == VERSION
        board = noughts.board(doc["board"])
        nq = read_quotient(path, board, doc["play"] == "misere")
        assert len(nq.quotient.monoid) == doc["size"]
        assert path == saved_path(board, doc["play"] == "misere")
        if doc["size"] <= 64:  # the full check on the small ones; the large: the sums below
            assert check_quotient(doc).ok, path.name
        sums = check_sums(doc, sums=6, boards=(2, 3), seed=1)
        assert sums.ok, sums.wrong


def test_a_round_trip_through_a_file(tmp_path, computed) -> None:
    path = save_quotient(computed, tmp_path)
    back = read_quotient(path, mnk(3, 3, 3), True)
    assert np.array_equal(back.quotient.monoid.table, computed.quotient.monoid.table)
    assert [back.quotient.name(x) for x in back.quotient.p_portion] == [
        computed.quotient.name(x) for x in computed.quotient.p_portion
    ]
    assert back.empty_boards() == computed.empty_boards()


@pytest.mark.parametrize(
    "change, says",
    [
        (lambda d: d.update(version=VERSION + 1), "version"),
        (lambda d: d.update(format="something else"), "format"),
        (lambda d: d.update(game="notakto(mnk(4,4,3))"), "is of"),
        (lambda d: d["masks"].pop(), "positions"),
        (lambda d: d["elements"][d["images"][-1]].update(p=not d["elements"][d["images"][-1]]["p"]), "wrong"),
        (lambda d: d["action"][1].__setitem__(0, 99), "does not have"),
        (lambda d: d.pop("parent"), "parent"),
    ],
)
def test_an_altered_file_is_refused(computed, change, says: str) -> None:
    doc = copy.deepcopy(quotient_document(computed))
    change(doc)
    with pytest.raises(NoughtsError, match=says):
        load_quotient(doc, mnk(3, 3, 3), True)


def test_the_checker_reads_a_saved_document_with_its_own_table(computed) -> None:
    doc = quotient_document(computed)
    assert "table" not in doc
    report = check_quotient(doc)
    assert report.ok and report.states > 0
    bad = copy.deepcopy(doc)
    x = bad["images"][-1]  # the empty board's element: its product with a generator changed
    bad["action"][x][0] = (bad["action"][x][0] + 1) % len(bad["action"])
    assert not check_quotient(bad).ok


def test_sums_played_out_agree_and_a_flipped_p_is_caught(computed) -> None:
    doc = quotient_document(computed)
    report = check_sums(doc, sums=40, boards=(2, 4), seed=0)
    assert report.ok and report.sums == 40
    bad = copy.deepcopy(doc)
    for e in bad["elements"]:
        e["p"] = not e["p"]
    assert not check_sums(bad, sums=10, seed=0).ok
