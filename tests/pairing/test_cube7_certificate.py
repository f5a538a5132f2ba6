"""Certificates of the casework: written, checked independently, tampering caught."""

import hashlib
import json

import numpy as np
import pytest

from noughts.casework.certificate import CertificateError, check_casework
from noughts.casework.cube7 import prove


@pytest.fixture(scope="module")
def small_cert(tmp_path_factory):
    out = tmp_path_factory.mktemp("cert") / "small.json"
    result = prove(("mnk4", "mnk4-2"), workers=1, out=str(out), progress=False)
    assert result.failures == 0
    assert result.cases == {"mnk4": 3, "mnk4-2": 224}
    return out


def _rewrite(src, dst, change, fix_digest):
    doc = json.loads(src.read_text())
    with np.load(src.with_suffix(".npz")) as data:
        arrays = {k: data[k].copy() for k in data.files}
    change(doc, arrays)
    npz = dst.with_suffix(".npz")
    np.savez_compressed(npz, **arrays)
    doc["arrays"] = npz.name
    if fix_digest:
        doc["sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    dst.write_text(json.dumps(doc))
    return dst


@pytest.mark.parametrize("fast", [True, False])
def test_a_valid_certificate_checks(small_cert, fast):
    result = check_casework(small_cert, fast=fast)
    assert result.valid, result.first_failure
    assert result.cases == {"mnk4": 3, "mnk4-2": 224}
    assert result.verified == 227
    assert result.to_json()["first_failure"] is None


def test_digest_mismatch_is_refused(small_cert, tmp_path):
    def change(doc, arrays):
        arrays["mnk4-2__d1_cell"][5] ^= 1

    bad = _rewrite(small_cert, tmp_path / "bad.json", change, fix_digest=False)
    with pytest.raises(CertificateError, match="does not match the certificate's digest"):
        check_casework(bad)


def test_a_wrong_pair_is_found_and_its_case_named(small_cert, tmp_path):
    def change(doc, arrays):
        # move the first stored cell of the 4x4 node to a cell off its line
        cells = arrays["mnk4__d1_cell"]
        cells[0] = (cells[0] + 5) % 16

    bad = _rewrite(small_cert, tmp_path / "wrong.json", change, fix_digest=True)
    for fast in (True, False):
        result = check_casework(bad, fast=fast)
        assert not result.valid
        assert result.first_failure.startswith("mnk4 case Maker ")
        assert "not a pairing" in result.first_failure


def test_a_wrong_pair_in_the_f0_leaf_is_found(small_cert, tmp_path):
    def change(doc, arrays):
        # the f0 leaf's own stream (Maker takes Breaker's intended cell): move its first cell
        cells = arrays["mnk4-2__d2_cell"]
        cells[0] = (cells[0] + 5) % 16

    bad = _rewrite(small_cert, tmp_path / "f0.json", change, fix_digest=True)
    for fast in (True, False):
        result = check_casework(bad, fast=fast)
        assert not result.valid
        assert result.first_failure.startswith("mnk4-2 case Maker ")
        assert result.first_failure.endswith("the stored pairing is not a pairing of its residual hypergraph")


def test_a_dropped_pair_is_found(small_cert, tmp_path):
    def change(doc, arrays):
        lens = arrays["mnk4-2__d1_len"]
        i = int(np.flatnonzero(lens)[-1])
        lens[i] -= 1
        start = int(lens[:i].sum()) + int(lens[i])
        for key in ("mnk4-2__d1_copy", "mnk4-2__d1_cell"):
            arrays[key] = np.delete(arrays[key], start)

    result = check_casework(_rewrite(small_cert, tmp_path / "drop.json", change, fix_digest=True))
    assert not result.valid
    assert result.first_failure.startswith("mnk4-2 case Maker ")


def test_claimed_counts_must_match_the_recomputed_case_set(small_cert, tmp_path):
    def change(doc, arrays):
        doc["classes"][1]["cases"] += 1

    result = check_casework(_rewrite(small_cert, tmp_path / "count.json", change, fix_digest=True))
    assert not result.valid
    assert "claims 225 cases, the case set has 224" in result.first_failure


def test_failing_casework_is_recorded_and_checked_invalid(tmp_path):
    out = tmp_path / "edge.json"
    result = prove(("mnk4-edge",), workers=1, out=str(out), progress=False)
    assert result.failures == 16 and result.class_failures == {"mnk4-edge": 16}
    assert result.failure_examples[0].startswith("mnk4-edge case Maker a1 / Breaker b1")
    check = check_casework(out)
    assert not check.valid
    assert "16 failing cases" in check.first_failure


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "cannot read the certificate"),
        ('{"format": "other"}', "not a noughts casework certificate"),
        ('{"format": "noughts-maker-breaker-casework", "version": 99}', "version 99"),
        ('{"format": "noughts-maker-breaker-casework", "version": 1}', "field 'arrays' is missing"),
    ],
)
def test_malformed_certificates(tmp_path, content, message):
    path = tmp_path / "c.json"
    path.write_text(content)
    with pytest.raises(CertificateError, match=message):
        check_casework(path)
    with pytest.raises(CertificateError, match="no certificate at"):
        check_casework(tmp_path / "missing.json")


@pytest.mark.slow
def test_the_whole_7x7x7_proof_and_its_certificate(tmp_path):
    out = tmp_path / "cube7.json"
    result = prove(workers=2, out=str(out), progress=False)
    assert result.failures == 0
    assert result.cases == {"centre": 25_247_703, "other": 13_071_501}
    assert result.source_cases == {"centre": 22_163_142, "other": 12_824_370}
    check = check_casework(out)
    assert check.valid, check.first_failure
    assert check.verified == 25_247_703 + 13_071_501


def test_out_of_range_indices_are_refused_not_trusted(small_cert, tmp_path):
    def change(doc, arrays):
        arrays["mnk4-2__d1_copy"][3] = 10_000

    result = check_casework(_rewrite(small_cert, tmp_path / "range.json", change, fix_digest=True))
    assert not result.valid
    assert "line copy that does not exist" in result.first_failure

    def change2(doc, arrays):
        arrays["mnk4__chunk_nodes"] = arrays["mnk4__chunk_nodes"].reshape(1, 1)

    result = check_casework(_rewrite(small_cert, tmp_path / "shape.json", change2, fix_digest=True))
    assert not result.valid

    def change3(doc, arrays):
        doc["classes"][0]["cases"] = "three"

    result = check_casework(_rewrite(small_cert, tmp_path / "str.json", change3, fix_digest=True))
    assert not result.valid
    assert "claims three cases" in result.first_failure
