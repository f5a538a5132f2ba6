"""Certificates of misère draws: strategies that end at leaves the checker proves itself
(mirrors, pairings, no line, the horizon; :mod:`noughts.proving.strategy_check`).

Each leaf kind's premise, as the checker verifies it, is held to the reference minimax on every
position of the small misère games: wherever the checker accepts a leaf for a player, the
reference says that player at least draws. The certificates ``solve --certificate`` writes for
misère games pass the checker and state the reference's value; changed ones are named at
their first failing position.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from exact_cases import EXTRA_CORNER, EXTRA_SIDE, reference

import noughts
from noughts.core import Outcome, Player, Position
from noughts.core.certificates import CertificateError, read_certificate
from noughts.exact import Value
from noughts.exact.misere_strategy import defence_strategy, leaf_at, mirror_strategy
from noughts.proving.strategy import write_strategies
from noughts.proving.strategy_check import leaf_fails, parse_game
from noughts.solving import check_certificate

SMALL = ["misere(tictactoe)", f"misere({EXTRA_SIDE})", f"misere({EXTRA_CORNER})"]


def _at_least_draws(value: Value, player: Player) -> bool:
    return value.outcome is Outcome.DRAW or value.outcome.winner is player


def _involutions(spec: str) -> list[list[int]]:
    """The board's symmetries that are involutions, the identity left out (the checker's own
    geometry; it decides itself which of them the mirror argument holds for)."""
    board, _, _ = parse_game(str(noughts.game(spec)))
    out = []
    for perm in board.symmetries():
        if any(perm[c] != c for c in range(len(perm))) and all(perm[perm[c]] == c for c in range(len(perm))):
            out.append(list(perm))
    return out


def _text(position: Position) -> str:
    return position.text()


@pytest.mark.parametrize("spec", SMALL[:1])
def test_each_leaf_the_checker_accepts_is_a_draw_for_the_player_on_the_reference(spec: str) -> None:
    """The checker's premises (not the writer's) against the plain minimax, on every position."""
    mirrors = _involutions(spec)
    accepted: Counter[str] = Counter()
    for position, value in reference(spec).items():
        if position.is_terminal():
            continue
        text = _text(position)
        for player in (Player.FIRST, Player.SECOND):
            p = int(player)
            for kind in ("no_line", "horizon"):
                if leaf_fails(str(position.game), text, p, kind) is None:
                    accepted[kind] += 1
                    assert _at_least_draws(value, player), (text, player, kind)
            if position.to_move is not player:
                for perm in mirrors:
                    if leaf_fails(str(position.game), text, p, "mirror", mirror=perm) is None:
                        accepted["mirror"] += 1
                        assert _at_least_draws(value, player), (text, player, perm)
    assert accepted["horizon"] > 0 and accepted["no_line"] > 0
    if spec == "misere(tictactoe)":
        assert accepted["mirror"] > 0  # the centre and the point reflection


@pytest.mark.parametrize("spec", SMALL)
def test_the_writers_leaves_pass_the_checker_and_are_draws_on_the_reference(spec: str) -> None:
    """Every leaf the writer would record (pairings included) is one the checker accepts, and
    the reference agrees; a leaf changed to a wrong kind or wrong pairs is refused."""
    kinds: Counter[str] = Counter()
    refused = 0
    for position, value in reference(spec).items():
        if position.is_terminal():
            continue
        text = _text(position)
        for player in (Player.FIRST, Player.SECOND):
            leaf = leaf_at(position, player)
            if leaf is None:
                continue
            kind, mirror, pairs = leaf
            kinds[kind] += 1
            assert leaf_fails(str(position.game), text, int(player), kind, mirror, pairs) is None
            assert _at_least_draws(value, player), (text, player, kind)
            if kind == "pairing" and pairs:
                # one pair dropped, or its cells doubled up: the premise no longer holds
                if len(pairs) > 0 and leaf_fails(
                    str(position.game), text, int(player), kind, None, pairs[1:]
                ):
                    refused += 1
                doubled = [pairs[0], (pairs[0][0], pairs[0][1])] + pairs[1:]
                assert leaf_fails(str(position.game), text, int(player), kind, None, doubled) is not None
            if kind == "mirror":
                # the other player, or the same player to move, cannot use it
                assert leaf_fails(str(position.game), text, 1 - int(player), kind, mirror) is not None
    assert kinds["pairing"] > 0 and kinds["horizon"] > 0
    assert refused > 0


def test_a_mirror_the_argument_does_not_hold_for_is_refused() -> None:
    # misère tictactoe after x in the centre: o to move, x holds the point reflection's fixed cell
    spec = str(noughts.game("misere(tictactoe)"))
    after = ".../.x./..."
    point = [8 - c for c in range(9)]
    assert leaf_fails(spec, after, 0, "mirror", point) is None
    # a reflection in the middle column fixes a whole line (the column holds no pair c, s(c))
    column = [3 * (c // 3) + 2 - c % 3 for c in range(9)]
    assert "permutation" in str(leaf_fails(spec, after, 0, "mirror", column))
    # not an involution (a rotation), not a permutation, the identity
    rotation = [3 * (c % 3) + 2 - c // 3 for c in range(9)]
    for perm in (rotation, [0] * 9, list(range(9))):
        assert "permutation" in str(leaf_fails(spec, after, 0, "mirror", perm))
    # the premise: x not to move, holding the fixed cell and the images of o's cells only
    assert "premise" in str(leaf_fails(spec, "o../.x./...", 0, "mirror", point))  # x to move
    assert leaf_fails(spec, "o../.x./..x", 1, "mirror", point) is not None  # the other side
    assert leaf_fails(spec, "o../.x./o.x", 0, "mirror", point) is not None  # x to move again
    assert leaf_fails(spec, "ox./.x./.ox", 0, "mirror", point) is None
    # outside misère rules a leaf proves nothing
    assert "misère" in str(leaf_fails(str(noughts.game("tictactoe")), after, 0, "mirror", point))


# -- whole certificates ------------------------------------------------------------------------

MISERE_GAMES = ["misere(tictactoe)", f"misere({EXTRA_SIDE})", f"misere({EXTRA_CORNER})", "misere(mnk(4,4,4))"]


def _certify(spec: str, folder: Path) -> tuple[Path, object]:
    path = folder / "cert"
    result = noughts.solve(spec, certificate=path, value_only=True, max_seconds=None)
    return folder / "cert.json", result


@pytest.mark.parametrize("spec", [*MISERE_GAMES, "misere(mnk(4,4,3))"])
def test_misere_certificates_pass_the_checker_and_state_the_kernels_value(spec: str, tmp_path: Path) -> None:
    path, result = _certify(spec, tmp_path)
    expected = noughts.solve(spec, engine="alpha-beta", value_only=True, max_seconds=None).value
    assert result.value.outcome is expected.outcome  # type: ignore[attr-defined]
    report = check_certificate(path)
    assert report.valid, report.first_failure
    assert report.claim["value"] == expected.outcome.value
    if expected.outcome is Outcome.DRAW:
        assert read_certificate(path).header["version"] == 2
        assert report.details["leaves"] and report.details["leaves_met"] > 0


def _rewrite(path: Path, arrays: dict[str, np.ndarray] | None = None, **header_changes: object) -> None:
    """Change a certificate as someone would who also recomputes its digest."""
    cert = read_certificate(path)
    header = dict(cert.header)
    npz = path.with_suffix(".npz")
    if arrays is not None:
        np.savez_compressed(npz, **arrays)  # type: ignore[arg-type]
        header["sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    header.update(header_changes)
    path.write_text(json.dumps(header))


@pytest.fixture
def tictactoe_draw(tmp_path: Path) -> Path:
    path, _ = _certify("misere(tictactoe)", tmp_path)
    return path


def test_a_wrong_mirror_permutation_is_named_at_its_leaf(tictactoe_draw: Path) -> None:
    arrays = dict(read_certificate(tictactoe_draw).arrays)
    assert "mirrors" in arrays
    arrays["mirrors"] = np.tile(np.arange(9, dtype=arrays["mirrors"].dtype), (len(arrays["mirrors"]), 1))
    _rewrite(tictactoe_draw, arrays)
    report = check_certificate(tictactoe_draw)
    assert not report.valid
    failure = str(report.first_failure)
    assert failure.startswith("the first player at least draws: after b2 (position")
    assert "permutation the mirror argument does not hold for" in failure


def test_a_leaf_whose_premise_fails_is_named(tictactoe_draw: Path) -> None:
    arrays = dict(read_certificate(tictactoe_draw).arrays)
    kinds = arrays["leafkinds1"].copy()
    assert (kinds == 2).any()
    kinds[kinds == 2] = 3  # every pairing leaf claimed to have no line left
    arrays["leafkinds1"] = kinds
    _rewrite(tictactoe_draw, arrays)
    report = check_certificate(tictactoe_draw)
    assert not report.valid and "the second player at least draws" in str(report.first_failure)
    assert "no-line leaf's premise fails" in str(report.first_failure) and "position" in str(
        report.first_failure
    )


def test_changed_pairs_are_named(tictactoe_draw: Path) -> None:
    arrays = dict(read_certificate(tictactoe_draw).arrays)
    pairs = arrays["pairs1"].copy()
    pairs[:, 1] = pairs[:, 0]  # each pair one cell twice
    arrays["pairs1"] = pairs
    _rewrite(tictactoe_draw, arrays)
    report = check_certificate(tictactoe_draw)
    assert not report.valid and "pairing leaf's premise fails" in str(report.first_failure)


def test_a_leaf_taken_out_leaves_a_position_without_a_move(tictactoe_draw: Path) -> None:
    arrays = dict(read_certificate(tictactoe_draw).arrays)
    n = len(arrays["leafkinds1"])
    keep = np.ones(n, dtype=bool)
    keep[np.flatnonzero(arrays["leafkinds1"] == 2)[0]] = False
    for name in ("leafkeys1", "leafkinds1", "leafargs1"):
        arrays[name] = arrays[name][keep]
    _rewrite(tictactoe_draw, arrays)
    report = check_certificate(tictactoe_draw)
    assert not report.valid and "no move is stored for this position" in str(report.first_failure)


def test_versions(tictactoe_draw: Path, tmp_path: Path) -> None:
    # a version 1 file holds no leaves
    _rewrite(tictactoe_draw, version=1)
    with pytest.raises(CertificateError, match="version 1 certificate holds no leaves"):
        check_certificate(tictactoe_draw)
    # version 1 files (no leaves) still load and pass
    other = tmp_path / "old"
    other.mkdir()
    result = noughts.solve(
        "tictactoe", engine="proof", certificate=other / "c", value_only=True, max_seconds=None
    )
    assert result.value.outcome is Outcome.DRAW
    _rewrite(other / "c.json", version=1)
    assert check_certificate(other / "c.json").valid


def test_strategies_from_a_position() -> None:
    game = noughts.game("misere(mnk(4,4,4))")
    # the second player mirrors by the point reflection (no fixed cell on an even board)
    s = mirror_strategy(game.start(), Player.SECOND)
    assert s is not None and len(s.moves) == 0 and s.leaves is not None and list(s.leaves.kinds) == [1]
    assert mirror_strategy(game.start(), Player.FIRST) is None
    position = game.parse("x.../..../..../....")
    assert mirror_strategy(position, Player.SECOND) is not None  # o answers d4
    d = defence_strategy(position, Player.FIRST)
    assert d.leaves is not None and len(d.moves) > 0
    with pytest.raises(noughts.NoughtsError, match="misère"):
        mirror_strategy(noughts.game("tictactoe").start(), Player.FIRST)


def _certify_from_the_command_line(spec: str, path: Path, seconds: int) -> dict[str, object]:
    run = [str(Path(sys.executable).with_name("noughts"))]
    made = subprocess.run(
        [*run, "solve", spec, "--value-only", "--certificate", str(path), "--max-seconds", str(seconds),
         "--max-memory", "8192"],
        capture_output=True,
        text=True,
        timeout=seconds + 600,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert "draw" in made.stdout.lower()
    checked = subprocess.run(
        [*run, "solve", "check", str(path), "--json"], capture_output=True, text=True, timeout=1200
    )
    assert checked.returncode == 0, checked.stderr
    report: dict[str, object] = json.loads(checked.stdout)
    assert report["valid"] and report["claim"] == {
        "strategies": [{"player": "first", "goal": "draw"}, {"player": "second", "goal": "draw"}],
        "value": "draw",
    }
    return report


@pytest.mark.slow
def test_misere_4x5_draw_is_certified_from_the_command_line(tmp_path: Path) -> None:
    report = _certify_from_the_command_line("misere(mnk(4,5,4))", tmp_path / "m45.json", 600)
    assert report["leaves"] == {"mirror": 1, "pairing": 30591, "no_line": 12382, "horizon": 24193}


@pytest.mark.slow
def test_misere_5x5_draw_is_certified_from_the_command_line(tmp_path: Path) -> None:
    """The draw of misère 5x5 (k = 4): the first player's centre and mirror, the second
    player's defence, written by ``noughts solve --certificate`` and accepted by ``solve check``."""
    report = _certify_from_the_command_line("misere(mnk(5,5,4))", tmp_path / "m5.json", 2700)
    leaves = report["leaves"]
    assert isinstance(leaves, dict) and leaves["mirror"] >= 1


@pytest.mark.parametrize(
    ("spec", "position"),
    [
        ("misere(tictactoe)", None),
        (f"misere({EXTRA_SIDE})", None),
        (f"misere({EXTRA_CORNER})", None),
        ("misere(mnk(4,4,4))", None),
        ("misere(mnk(4,5,4))", "x.o../.x.../..o.x/....."),
    ],
)
def test_the_kernel_walk_writes_the_python_walks_strategy(
    spec: str, position: str | None, tmp_path: Path
) -> None:
    """The numba walk against its reference, the Python walk: the same positions, moves and
    leaves (a pairing leaf's pairs may differ: any matching will do), for each side that at
    least draws; and the certificate of the kernel's strategies passes the checker."""
    from noughts.exact.fast import FastSolver

    game = noughts.game(spec)
    start = game.start() if position is None else game.parse(position)
    solver = FastSolver(game)
    value = solver.value(start)
    compared = 0
    for player in (Player.FIRST, Player.SECOND):
        if not _at_least_draws(value, player):
            continue
        python = defence_strategy(start, player, solver=solver, kernel=False)
        kernel = defence_strategy(start, player, solver=solver, kernel=True)
        assert python.leaves is not None and kernel.leaves is not None
        assert np.array_equal(python.words, kernel.words)
        assert np.array_equal(python.moves.astype(np.int64), kernel.moves.astype(np.int64))
        assert np.array_equal(python.leaves.words, kernel.leaves.words)
        assert np.array_equal(python.leaves.kinds, kernel.leaves.kinds)
        assert np.array_equal(python.leaves.pair_count, kernel.leaves.pair_count)
        assert python.positions == kernel.positions
        write_strategies(tmp_path / f"k{int(player)}", [kernel])
        report = check_certificate(tmp_path / f"k{int(player)}.json")
        assert report.valid, report.first_failure
        compared += 1
    assert compared > 0
