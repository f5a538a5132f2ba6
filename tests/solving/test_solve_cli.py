"""``noughts solve`` on the boards the Breaker prover answers: the value, the engine and the
argument in the JSON, a certificate that ``solve check`` accepts, a forged one named (exit 1)."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cli"))
from cli_cases import invoke


def test_solve_says_draw_names_the_engine_and_the_argument() -> None:
    result = invoke("solve", "mnk(6,6,5)", "--value-only", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["value"] == "draw" and doc["engine"] == "breaker" and doc["complete"]
    assert "strategy stealing" in doc["argument"]
    shown = invoke("solve", "maker_breaker(mnk(6,6,5))", "--value-only")
    assert shown.exit_code == 0, shown.output
    assert "Breaker prover" in shown.stdout and "how:" in shown.stdout


def test_solve_certificate_and_solve_check(tmp_path: Path) -> None:
    cert = tmp_path / "d665.json"
    made = invoke("solve", "mnk(6,6,5)", "--value-only", "--certificate", str(cert))
    assert made.exit_code == 0, made.output
    assert "certificate:" in made.stdout
    checked = invoke("solve", "check", str(cert), "--json")
    assert checked.exit_code == 0, checked.output
    doc = json.loads(checked.stdout)
    assert doc["valid"] and doc["kind"] == "breaker" and doc["claim"]["value"] == "draw"
    header = json.loads(cert.read_text())
    npz = cert.with_suffix(".npz")
    with np.load(npz) as data:
        arrays = {k: data[k].copy() for k in data.files}
    leaves = np.flatnonzero((arrays["kind"] == 0) & (arrays["b"] > 0))
    lo = int(arrays["a"][int(leaves[0])])
    arrays["cells"][lo + 1] = arrays["cells"][lo]  # a pair of one cell twice
    np.savez_compressed(npz, **arrays)
    header["sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    cert.write_text(json.dumps(header))
    forged = invoke("solve", "check", str(cert))
    assert forged.exit_code == 1
    assert "invalid" in forged.stdout and "node" in forged.stdout
