"""The Breaker prover: the df-pn kernel held to the plain reference on every position of the small
games, the classical results computed, certificates written and checked, budgets honoured."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

import noughts
from noughts.breaker.certificate import check_breaker_certificate
from noughts.breaker.prover import BreakerProver, prove_breaker, prove_draw
from noughts.breaker.question import question
from noughts.breaker.reference import reference_prove
from noughts.core import Budget, LimitExceeded, NoughtsError, Player, Position


def _kernel(position: Position, *, breaker: Player | None = None, rules: str | None = None) -> bool:
    """The kernel's answer, with a small table (these tests build thousands of provers)."""
    prover = BreakerProver(
        question(position.game, position, breaker=breaker, rules=rules), record=False, tt_entries=1 << 12
    )
    return prover.run() == prover.K.PROVED


def _positions(game: noughts.Game, depth: int) -> list[Position]:
    """Every position reached in at most ``depth`` moves that is not finished."""
    level = [game.start()]
    seen = {game.start()}
    for _ in range(depth):
        following = []
        for p in level:
            for m in p.legal_moves():
                q = p.play(m)
                if q not in seen and not q.is_terminal():
                    seen.add(q)
                    following.append(q)
        level = following
    return sorted(seen, key=lambda p: p.text())


SLOW = pytest.mark.slow


@pytest.mark.parametrize(
    ("spec", "depth", "rules"),
    [
        ("maker_breaker(mnk(3,3,3))", 9, None),
        ("mnk(3,3,3)", 9, None),
        pytest.param("mnk(3,3,3)", 9, "maker_breaker", marks=SLOW),
        pytest.param("maker_breaker(mnk(3,3,3),breaker_first=true)", 9, None, marks=SLOW),
        ("maker_breaker(mnk(4,4,4))", 1, None),
        ("mnk(4,4,4)", 1, None),
        ("maker_breaker(mnk(4,3,3))", 1, None),
        pytest.param("maker_breaker(mnk(4,4,4))", 2, None, marks=SLOW),
        pytest.param("mnk(4,4,4)", 2, None, marks=SLOW),
        pytest.param("maker_breaker(mnk(4,4,3))", 2, None, marks=SLOW),
        pytest.param("maker_breaker(mnk(4,3,3))", 3, None, marks=SLOW),
        pytest.param("mnk(4,3,3)", 3, None, marks=SLOW),
    ],
)
def test_the_kernel_agrees_with_the_reference_on_every_position(
    spec: str, depth: int, rules: str | None
) -> None:
    """Every unfinished position within ``depth`` moves (all of them for 3x3): the same answer."""
    game = noughts.game(spec)
    answers = set()
    for position in _positions(game, depth):
        q = question(game, position, rules=rules)
        reference = reference_prove(q).proved
        assert _kernel(position, rules=rules) == reference, position.text()
        answers.add(reference)
    if game.board.num_cells == 9:
        assert answers == {True, False}  # both answers occur: the comparison can fail either way


@pytest.mark.parametrize(("spec", "depth"), [("mnk(3,3,3)", 3), pytest.param("mnk(4,3,3)", 3, marks=SLOW)])
def test_both_breaking_sides_of_a_standard_game_agree_with_the_reference(spec: str, depth: int) -> None:
    game = noughts.game(spec)
    for position in _positions(game, depth):
        for breaker in (Player.FIRST, Player.SECOND):
            q = question(game, position, breaker=breaker)
            assert _kernel(position, breaker=breaker) == reference_prove(q).proved, (position.text(), breaker)


@pytest.mark.parametrize(
    ("spec", "proved", "value"),
    [
        ("maker_breaker(mnk(3,3,3))", False, None),  # Maker takes the centre and wins
        ("mnk(3,3,3)", True, "draw"),
        ("maker_breaker(mnk(4,4,4))", True, None),  # Breaker wins 4x4 k=4 (a pairing after one move each)
        ("mnk(4,4,4)", True, "draw"),
        ("maker_breaker(mnk(4,4,3))", False, None),
        ("mnk(4,4,3)", False, None),  # the first player wins
        ("mnk(5,5,5)", True, "draw"),  # a pairing from the empty board
    ],
)
def test_the_classical_small_results(spec: str, proved: bool, value: str | None, tmp_path: Path) -> None:
    result = prove_breaker(spec, certificate=str(tmp_path / "cert"))
    assert result.proved is proved
    assert result.value == value
    game = noughts.game(spec)
    if game.board.num_cells <= 16:
        assert reference_prove(question(game)).proved is proved
    if proved:
        check = check_breaker_certificate(tmp_path / "cert.json")
        assert check.valid, check.first_failure
        assert check.claim["value"] == value
    else:
        assert result.certificate is None


def test_mnk_6_6_5_is_a_draw_with_a_checked_certificate(tmp_path: Path) -> None:
    """Breaker (second) stops the first player on 6x6 k=5 (the pairings appear after one move each);
    strategy stealing makes it a draw. The certificate passes the independent checker."""
    result = prove_draw("mnk(6,6,5)", certificate=str(tmp_path / "d665"))
    assert result.draw
    assert "strategy stealing" in result.argument
    check = check_breaker_certificate(tmp_path / "d665.json")
    assert check.valid, check.first_failure
    assert check.claim["value"] == "draw"


def test_maker_breaker_rules_on_a_standard_board_are_the_stronger_question() -> None:
    # mnk(4,4,3): the first player wins both ways; 4x4 k=4: Breaker stops Maker both ways
    assert prove_breaker("mnk(4,4,4)", rules="maker_breaker").value == "draw"
    stronger = prove_breaker("mnk(4,4,3)", rules="maker_breaker")
    assert stronger.proved is False


def test_prove_draw_from_a_position_needs_both_sides() -> None:
    game = noughts.game("mnk(4,4,4)")
    position = game.parse("..../.x../..o./....")
    result = prove_draw(game, position)
    assert result.draw
    assert len(result.parts) == 2
    assert {p.question.breaker for p in result.parts} == {Player.FIRST, Player.SECOND}
    # where one side wins, not a draw: x to move with two open threats on 3x3
    ttt = noughts.game("mnk(3,3,3)")
    lost = prove_draw(ttt, ttt.parse("x.x/.o./o.x"))
    assert not lost.draw


def test_questions_without_meaning_are_refused() -> None:
    with pytest.raises(NoughtsError, match="no Breaker question"):
        prove_breaker("misere(mnk(4,4,4))")
    with pytest.raises(NoughtsError, match="standard"):
        prove_breaker("maker_breaker(mnk(4,4,4))", rules="standard")
    with pytest.raises(NoughtsError, match="finished"):
        prove_breaker("mnk(3,3,3)", "xxx/oo./...")
    with pytest.raises(NoughtsError, match="first' or 'second"):
        prove_breaker("mnk(3,3,3)", breaker="third")
    with pytest.raises(NoughtsError, match="a draw is a result of standard games"):
        prove_draw("maker_breaker(mnk(4,4,4))")


def test_the_budget_stops_the_search_between_slices_and_says_how_far() -> None:
    q = question(noughts.game("mnk(8,8,5)"))
    BreakerProver(q, record=False, tt_entries=1 << 12)  # loads the kernels outside the budget
    prover = BreakerProver(q, budget=Budget(max_seconds=0.5), record=False, tt_entries=1 << 12)
    with pytest.raises(LimitExceeded, match="nodes searched"):
        prover.run(slice_nodes=200)
    seen = []
    prover = BreakerProver(
        q, progress=seen.append, record=False, tt_entries=1 << 12, budget=Budget(max_seconds=0.3)
    )
    with pytest.raises(LimitExceeded):
        prover.run(slice_nodes=200)
    assert seen and seen[-1].nodes >= 200
    with pytest.raises(LimitExceeded, match="before the search"):
        BreakerProver(q, budget=Budget(max_memory=1000))


# -- certificates ---------------------------------------------------------------------------------


def _tamper(json_path: Path, change: object) -> None:
    """Change the arrays with ``change(arrays)`` and re-seal the digest (a forged but consistent file)."""
    import hashlib

    header = json.loads(json_path.read_text())
    npz = json_path.with_name(header["arrays"])
    with np.load(npz) as data:
        arrays = {k: data[k].copy() for k in data.files}
    change(arrays)  # type: ignore[operator]
    np.savez_compressed(npz, **arrays)  # type: ignore[arg-type]
    header["sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    json_path.write_text(json.dumps(header))


@pytest.fixture
def cert_444(tmp_path: Path) -> Path:
    result = prove_breaker("maker_breaker(mnk(4,4,4))", certificate=str(tmp_path / "c444"))
    assert result.proved and result.certificate is not None
    return Path(result.certificate)


def test_a_certificate_passes_and_a_forged_pairing_is_named(cert_444: Path) -> None:
    assert check_breaker_certificate(cert_444).valid

    def break_a_pair(arrays: dict[str, np.ndarray]) -> None:
        leaves = np.flatnonzero((arrays["kind"] == 0) & (arrays["b"] > 0))
        i = int(leaves[0])
        lo = int(arrays["a"][i])
        arrays["cells"][lo + 1] = arrays["cells"][lo]  # a pair of one cell twice

    _tamper(cert_444, break_a_pair)
    check = check_breaker_certificate(cert_444)
    assert not check.valid
    assert check.first_failure is not None and "node" in check.first_failure


def test_a_certificate_whose_maker_move_goes_unanswered_fails(cert_444: Path) -> None:
    def drop_branches(arrays: dict[str, np.ndarray]) -> None:
        makers = np.flatnonzero(arrays["kind"] == 3)
        arrays["b"][int(makers[0])] = 0  # a Maker node that answers nothing

    _tamper(cert_444, drop_branches)
    check = check_breaker_certificate(cert_444)
    assert not check.valid
    assert check.first_failure is not None


def test_a_certificate_cannot_claim_more_than_it_shows(cert_444: Path) -> None:
    header = json.loads(cert_444.read_text())
    header["claim"]["value"] = "draw"  # a Maker-Breaker game has no draw claim
    cert_444.write_text(json.dumps(header))
    check = check_breaker_certificate(cert_444)
    assert not check.valid
    header["claim"]["value"] = None
    header["game"] = "maker_breaker(mnk(4,4,3))"  # the same strategy does not stop lines of 3
    cert_444.write_text(json.dumps(header))
    assert not check_breaker_certificate(cert_444).valid


def test_a_changed_file_or_a_bad_header_is_an_error(cert_444: Path) -> None:
    from noughts.breaker.certificate import BreakerCertificateError

    npz = cert_444.with_suffix(".npz")
    npz.write_bytes(npz.read_bytes()[:-10] + b"0123456789")
    with pytest.raises(BreakerCertificateError):
        check_breaker_certificate(cert_444)
    cert_444.write_text("{}")
    with pytest.raises(BreakerCertificateError, match="not a noughts certificate"):
        check_breaker_certificate(cert_444)


def test_images_through_symmetries_are_checked(tmp_path: Path) -> None:
    """A proof that uses the board's symmetries stores images; the checker verifies each symmetry
    maps lines onto lines, so a permutation that does not is refused."""
    result = prove_breaker("mnk(4,4,4)", certificate=str(tmp_path / "s"))
    path = Path(result.certificate or "")
    with np.load(path.with_suffix(".npz")) as data:
        has_images = bool(np.any(data["kind"] == 4)) and data["perms"].shape[0] > 0
    if not has_images:
        pytest.skip("this proof stores no image")  # pragma: no cover

    def swap_two_cells(arrays: dict[str, np.ndarray]) -> None:
        p = arrays["perms"][0]
        p[0], p[1] = p[1], p[0]

    _tamper(path, swap_two_cells)
    check = check_breaker_certificate(path)
    assert not check.valid and "symmetry" in (check.first_failure or "")


def test_every_small_proof_yields_a_certificate_the_checker_accepts(tmp_path: Path) -> None:
    """Every proved position of 3x3 and 4x3 (both rules) gives a certificate that passes."""
    for spec, rules in itertools.product(("mnk(3,3,3)", "mnk(4,3,3)"), (None, "maker_breaker")):
        game = noughts.game(spec)
        for i, position in enumerate(_positions(game, 2)):
            result = prove_breaker(game, position, rules=rules, certificate=str(tmp_path / f"c{i}"))
            if result.proved:
                check = check_breaker_certificate(tmp_path / f"c{i}.json")
                assert check.valid, (spec, rules, position.text(), check.first_failure)


@pytest.mark.slow
def test_mnk_7_7_5_is_a_draw_with_a_checked_certificate(tmp_path: Path) -> None:
    """The 7x7 k=5 game is a draw (Hsu et al., TCS 815, 2020): a Breaker proof with pairing
    leaves for the second player, strategy stealing for the first; checked independently."""
    result = prove_draw("mnk(7,7,5)", certificate=str(tmp_path / "d775"))
    assert result.draw
    check = check_breaker_certificate(tmp_path / "d775.json")
    assert check.valid, check.first_failure


@pytest.mark.slow
def test_the_split_over_processes_gives_the_same_answer_and_a_checked_certificate(tmp_path: Path) -> None:
    result = prove_breaker("mnk(4,4,4)", certificate=str(tmp_path / "par"), workers=2)
    assert result.proved and result.value == "draw"
    assert result.workers == 2 and result.subproofs
    assert check_breaker_certificate(tmp_path / "par.json").valid
