"""The strategy writer merges positions by no symmetry the certificate is not keyed by.

hypercube(2,6) has 2^6·6! = 46,080 symmetries, more than ``strategy.MAX_GROUP``: its
certificates are keyed by no symmetry, while the proof engine keys its table by the first 192.
Before the writer took the certificate's group, it skipped x's 63 other first moves as images
of the first and the checker found no move stored for them ("invalid").
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from cli_cases import invoke

import noughts
from noughts.proving.strategy import MAX_GROUP, certificate_group, dedup_rows


def test_a_board_past_the_cap_is_certified_without_symmetry_and_checks(tmp_path: Path) -> None:
    game = noughts.game("misere(hypercube(2,6))")  # every pair of cells is a line: the second player wins
    assert game.board.symmetry_count > MAX_GROUP and certificate_group(game) is None
    cert = tmp_path / "m26"
    r = invoke("solve", str(game), "--engine", "proof", "--certificate", str(cert))
    assert r.exit_code == 0 and "o wins" in r.output, r.output
    header = json.loads(cert.with_suffix(".json").read_text())
    assert header["symmetry"] == "none"
    assert header["stored_moves"] == [64]  # o's answer to each of x's 64 first moves, none merged
    checked = invoke("solve", "check", str(cert.with_suffix(".json")))
    assert checked.exit_code == 0 and "valid: misere(hypercube(2,6))" in checked.output, checked.output


def test_dedup_rows_keeps_the_prefix_inside_the_group() -> None:
    board = noughts.board("mnk(3,3,3)")
    perms = np.array(board.symmetries, dtype=np.int64)
    assert dedup_rows(perms, perms) == 8
    assert dedup_rows(perms, perms[:1]) == 1
    assert dedup_rows(perms, None) == 1
    assert dedup_rows(perms, perms[[0, 1, 2]]) == 3  # the first three rows, then one outside
