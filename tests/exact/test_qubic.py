"""Qubic (``hypercube(4,3)``) in the proof engine: the table keyed by the board's 192 line
automorphisms, a proof from a position deep in a game, and its certificate checked by the
independent checker.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import noughts
from noughts.core import Player, Position
from noughts.proving.proof import WIN, ProofSearch
from noughts.proving.strategy import extract_strategy, write_strategies
from noughts.solving import check_certificate

# ten plies of the engine agent's fixed-depth self-play (bench/qubic.py computes the line:
# EngineAgent().search_depth(position, 5) from the start)
LINE = (0, 21, 3, 1, 60, 25, 61, 37, 13, 41)


def _after(moves: tuple[int, ...]) -> Position:
    position = noughts.game("hypercube(4,3)").start()
    for m in moves:
        position = position.play(m)
    return position


def _image(position: Position, perm: np.ndarray) -> Position:
    image = position.game.start()
    # the same moves mapped: the image position, same mover
    for m in _moves_of(position):
        image = image.play(int(perm[m]))
    return image


def _moves_of(position: Position) -> list[int]:
    board = position.game.board
    first = board.cells_in(position.owned(Player.FIRST))
    second = board.cells_in(position.owned(Player.SECOND))
    out: list[int] = []
    for i in range(len(first) + len(second)):
        out.append(first[i // 2] if i % 2 == 0 else second[i // 2])
    return out


def test_positions_alike_under_an_automorphism_share_a_key() -> None:
    game = noughts.game("hypercube(4,3)")
    search = ProofSearch(game, Player.FIRST, WIN)
    geometric = search.game.board.tables.symmetry_perms()
    extra = search.kernel_view().perms[len(geometric) :]
    assert len(geometric) == 48 and len(extra) == 144
    position = _after(LINE[:6])
    keys_by_symmetry = {search.key(_image(position, p)) for p in geometric}
    assert len(keys_by_symmetry) == 1
    images = [_image(position, p) for p in extra]
    # some image is no geometric image of the position, yet the table keys it the same
    geometric_images = {_image(position, p) for p in geometric}
    assert any(im not in geometric_images for im in images)
    assert {search.key(im) for im in images} == keys_by_symmetry
    only_symmetries = ProofSearch(game, Player.FIRST, WIN, automorphisms=False)
    assert len({only_symmetries.key(im) for im in images}) > 1


@pytest.mark.parametrize("automorphisms", [True, False])
def test_a_deep_qubic_position_is_proved_with_a_certificate_the_checker_accepts(
    automorphisms: bool, tmp_path: Path
) -> None:
    game = noughts.game("hypercube(4,3)")
    position = _after(LINE)
    search = ProofSearch(game, Player.FIRST, WIN, automorphisms=automorphisms)
    proof = search.prove(position)
    assert proof.proved and proof.move is not None
    assert position.play(proof.move).to_move is Player.SECOND
    strategy = extract_strategy(search, proof)
    write_strategies(tmp_path / "qubic", [strategy], "first", {"engine": "proof"})
    report = check_certificate(tmp_path / "qubic.json")
    assert report.valid, report.first_failure
    assert report.checked > 0


def test_six_plies_in_the_eager_threat_searches_prove_the_win_at_once(tmp_path: Path) -> None:
    """From 6 plies of the line the searches for a win as :class:`ValueSearches` makes them
    (the eager threat searches, the threat table) prove the first player's win in a few hundred
    nodes, where the engine without them searched millions (BENCHMARKS.md, Qubic); the
    certificate is checked by the independent checker."""
    from noughts.proving.proof import EAGER_WINS

    game = noughts.game("hypercube(4,3)")
    position = _after(LINE[:6])
    search = ProofSearch(game, Player.FIRST, WIN, eager=EAGER_WINS, max_nodes=5_000)
    proof = search.prove(position)
    assert proof.proved and proof.move is not None
    write_strategies(tmp_path / "q6", [extract_strategy(search, proof)], "first", {"engine": "proof"})
    report = check_certificate(tmp_path / "q6.json")
    assert report.valid, report.first_failure


@pytest.mark.slow
def test_four_plies_are_proved_with_a_certificate(tmp_path: Path) -> None:
    """From 4 plies of the line (about 12,000 nodes, 5 CPU seconds with the threats tried
    first; 100,000 nodes and 20 CPU seconds before)."""
    from noughts.proving.proof import EAGER_WINS

    game = noughts.game("hypercube(4,3)")
    search = ProofSearch(game, Player.FIRST, WIN, eager=EAGER_WINS)
    proof = search.prove(_after(LINE[:4]))
    assert proof.proved
    write_strategies(tmp_path / "q4", [extract_strategy(search, proof)], "first", {"engine": "proof"})
    report = check_certificate(tmp_path / "q4.json")
    assert report.valid, report.first_failure


@pytest.mark.slow
def test_maker_breaker_qubic_is_proved_from_the_empty_board(tmp_path: Path) -> None:
    """Issue 12's target: ``noughts solve "maker_breaker(hypercube(4,3))" --certificate F``
    proves Maker's win from the empty board (about 100,000 nodes and a minute of CPU for the
    proof, two more for the certificate), and ``noughts solve check F`` accepts the
    certificate."""
    import json

    from typer.testing import CliRunner

    from noughts.cli.app import app

    env = {"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    cert = tmp_path / "mbq"
    spec = "maker_breaker(hypercube(4,3))"
    args = ["solve", spec, "--certificate", str(cert), "--max-seconds", "1800", "--value-only", "--json"]
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["value"] == "first" and doc["engine"] == "proof"
    checked = CliRunner().invoke(app, ["solve", "check", str(cert) + ".json"], env=env)
    assert checked.exit_code == 0, checked.output
    report = check_certificate(cert.with_suffix(".json"))
    assert report.valid and report.claim["value"] == "first"


def test_threats_tried_first_prove_maker_breaker_qubic_from_four_plies(tmp_path: Path) -> None:
    """Maker-Breaker Qubic after 4 plies of its line (1,1,1 1,1,4 1,4,1 1,2,1): with the threats
    tried first (eager bit 4) the proof takes about a thousand nodes, where the engine before
    it needed 83,187 (BENCHMARKS.md, round 5); the certificate passes the checker."""
    from noughts.proving.proof import EAGER_WINS

    assert EAGER_WINS & 4
    game = noughts.game("maker_breaker(hypercube(4,3))")
    position = game.start()
    for text in ("1,1,1", "1,1,4", "1,4,1", "1,2,1"):
        position = position.play(game.parse_move(text))
    search = ProofSearch(game, Player.FIRST, WIN, eager=EAGER_WINS, max_nodes=10_000)
    proof = search.prove(position)
    assert proof.proved and proof.move is not None
    write_strategies(tmp_path / "mb4", [extract_strategy(search, proof)], "first", {"engine": "proof"})
    report = check_certificate(tmp_path / "mb4.json")
    assert report.valid, report.first_failure
