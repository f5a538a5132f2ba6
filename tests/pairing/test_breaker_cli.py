"""``noughts prove breaker``, ``prove draw`` and ``prove check`` of a Breaker certificate: answers,
JSON, exit statuses (0 proved, 1 no, 2 bad input, 3 budget)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cli"))
from cli_cases import invoke


def test_prove_draw_writes_a_certificate_that_prove_check_accepts(tmp_path: Path) -> None:
    cert = tmp_path / "d444.json"
    result = invoke("prove", "draw", "mnk(4,4,4)", "--certificate", str(cert))
    assert result.exit_code == 0, result.output
    assert "is a draw" in result.stdout and "strategy stealing" in result.stdout
    checked = invoke("prove", "check", str(cert), "--json")
    assert checked.exit_code == 0, checked.output
    doc = json.loads(checked.stdout)
    assert doc["valid"] and doc["kind"] == "breaker" and doc["claim"]["value"] == "draw"
    assert doc["checked"] > 0


def test_prove_breaker_json_and_a_disproof_exits_1() -> None:
    proved = invoke("prove", "breaker", "maker_breaker(mnk(4,4,4))", "--json")
    assert proved.exit_code == 0, proved.output
    doc = json.loads(proved.stdout)
    assert doc["proved"] is True and doc["rules"] == "maker_breaker" and doc["nodes"] > 0
    lost = invoke("prove", "breaker", "maker_breaker(mnk(3,3,3))")
    assert lost.exit_code == 1
    assert "disproved" in lost.stdout


def test_prove_draw_of_a_won_position_exits_1() -> None:
    result = invoke("prove", "draw", "mnk(3,3,3)", "--position", "x.x/.o./o.x", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["draw"] is False


def test_bad_input_exits_2_with_one_line() -> None:
    for args in (
        ("prove", "breaker", "misere(mnk(4,4,4))"),
        ("prove", "breaker", "mnk(3,3,3)", "--breaker", "third"),
        ("prove", "breaker", "mnk(3,3,3)", "--rules", "cumulative"),
        ("prove", "draw", "maker_breaker(mnk(4,4,4))"),
        ("prove", "breaker", "mnk(3,3,3)", "--certificate", "x.txt"),
        ("prove", "breaker", "nosuchgame(3)"),
    ):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output


def test_the_budget_exits_3_and_says_how_far() -> None:
    result = invoke("prove", "draw", "mnk(9,9,5)", "--max-seconds", "0.5", "--json")
    assert result.exit_code == 3, result.output
    doc = json.loads(result.stdout)
    assert doc["proved"] is None and "nodes searched" in doc["error"]


def test_prove_check_names_the_failing_node_of_a_forged_certificate(tmp_path: Path) -> None:
    import hashlib

    import numpy as np

    cert = tmp_path / "mb.json"
    assert invoke("prove", "breaker", "maker_breaker(mnk(4,4,4))", "--certificate", str(cert)).exit_code == 0
    header = json.loads(cert.read_text())
    npz = cert.with_suffix(".npz")
    with np.load(npz) as data:
        arrays = {k: data[k].copy() for k in data.files}
    makers = np.flatnonzero(arrays["kind"] == 3)
    arrays["b"][int(makers[0])] = 0
    np.savez_compressed(npz, **arrays)
    header["sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    cert.write_text(json.dumps(header))
    result = invoke("prove", "check", str(cert))
    assert result.exit_code == 1
    assert "invalid" in result.output and "node 0" in result.output  # the zone shrank: Maker gets every cell
