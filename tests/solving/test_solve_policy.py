"""``noughts.solving``: the solve policy with the Breaker prover's row, held to the exact engines.

The Breaker engine's values are compared with the exact reference engines on positions of the
small games (it takes any standard or Maker-Breaker game, though the policy gives it only long
lines); the policy picks it where it applies and nowhere else; a value it proves names the engine
and the argument; its certificates are checked by the independent checker through ``solve
check``'s entry, which names the first failing node of a forged file.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import numpy as np
import pytest

import noughts
from noughts.breaker.values import MIN_LINE, BreakerValues, breaker_applies
from noughts.core import Budget, LimitExceeded, NoughtsError, Outcome, Player
from noughts.core.certificates import CertificateError
from noughts.exact import make_engine
from noughts.solving import POLICY, check_certificate, choose_engine, solve


def _sample(game: noughts.Game, games: int, seed: int) -> list[noughts.Position]:
    """The unfinished positions of ``games`` random games, each once."""
    rng = random.Random(seed)
    seen: dict[noughts.Position, None] = {}
    for _ in range(games):
        p = game.start()
        while not p.is_terminal():
            seen.setdefault(p)
            p = p.play(rng.choice(p.legal_moves()))
    return list(seen)


@pytest.mark.parametrize(
    ("spec", "games"),
    [
        ("tictactoe", 12),
        ("maker_breaker(tictactoe)", 12),
        ("maker_breaker(tictactoe,breaker_first=true)", 6),
        ("mnk(4,3,3)", 8),
        ("mnk(4,4,4)", 4),
        ("mnk(5,2,5)", 4),
        ("maker_breaker(mnk(4,4,4))", 3),
    ],
)
def test_breaker_values_agree_with_the_exact_engine(spec: str, games: int) -> None:
    game = noughts.game(spec)
    exact, breaker = make_engine(game), BreakerValues(game)
    positions = _sample(game, games, seed=len(spec))
    assert len(positions) > games  # more than the starts
    for p in positions:
        assert breaker.value(p).outcome is exact.value(p).outcome, p.text()
        assert breaker.value(p).plies is None  # who wins, not how fast
    assert breaker.nodes > 0


def test_symmetric_positions_are_proved_once() -> None:
    game = noughts.game("tictactoe")
    breaker = BreakerValues(game)
    corners = [game.start().play(game.parse_move(name)) for name in ("a1", "c1", "a3", "c3")]
    values = {breaker.value(p) for p in corners}
    assert values == {breaker.value(corners[0])}
    assert len(breaker._known) == 1


def _rows(spec: str) -> list[str]:
    game = noughts.game(spec)
    return [r.name for r in POLICY if r.supports(game, game.start()) and not r.certificate_only]


def test_the_policy_puts_the_breaker_row_where_lines_are_long() -> None:
    names = [r.name for r in POLICY]
    assert names[:3] == ["quotient", "alpha-beta", "breaker"]
    for spec in ("mnk(6,6,5)", "mnk(7,7,5)", "maker_breaker(mnk(6,6,5))", "mnk(5,5,5)"):
        assert _rows(spec)[:3] == ["alpha-beta", "breaker", "proof"], spec
    for spec in ("tictactoe", "mnk(5,5,4)", "mnk(7,6,4)", "hypercube(4,3)", "misere(mnk(6,6,5))"):
        assert "breaker" not in _rows(spec), spec
        assert choose_engine(noughts.game(spec)) == "alpha-beta"
    assert choose_engine(noughts.game("veto(mnk(5,5,5))")) == "python"
    assert not breaker_applies(noughts.game("mnk(6,6,4)"))
    assert all(len(line) >= MIN_LINE for line in noughts.game("mnk(6,6,5)").board.lines)


def test_mnk_6_6_5_is_a_draw_by_the_breaker_engine_with_its_argument() -> None:
    r = solve("mnk(6,6,5)", value_only=True)
    assert r.value.outcome is Outcome.DRAW and r.value.plies is None
    assert r.engine == "breaker"
    assert r.argument is not None and "strategy stealing" in r.argument
    doc = r.to_json()
    assert doc["engine"] == "breaker" and "strategy stealing" in doc["argument"] and doc["value"] == "draw"


def test_maker_breaker_6_6_5_is_a_breaker_win() -> None:
    r = solve("maker_breaker(mnk(6,6,5))", value_only=True)
    assert r.engine == "breaker" and r.value.outcome.winner is Player.SECOND


def test_the_alpha_beta_kernel_keeps_what_it_answers_within_its_trial() -> None:
    r = solve("mnk(5,5,5)", value_only=True)
    assert r.engine == "alpha-beta" and r.value.outcome is Outcome.DRAW and r.value.plies == 25


def test_every_move_of_mnk_5_5_5_is_a_draw_as_the_alpha_beta_kernel_says() -> None:
    r = solve("mnk(5,5,5)", max_seconds=120, engine="breaker")
    assert r.engine == "breaker" and r.complete and len(r.moves) == 25
    assert {mv.value.outcome for mv in r.moves} == {Outcome.DRAW}
    # one move checked by the kernel (a few seconds; the rest by symmetry of the argument)
    centre = r.game.start().play(r.game.parse_move("c3"))
    assert make_engine(r.game).value(centre).outcome is Outcome.DRAW


def test_a_won_position_is_a_win_for_the_right_side() -> None:
    # x has four in a row with both ends open: x wins whoever moves
    won = "....../.xxxx./....../oo..../o...../......"
    r = solve("mnk(6,6,5)", won, value_only=True, engine="breaker")
    assert r.engine == "breaker" and r.value.outcome.winner is Player.FIRST
    assert solve("mnk(6,6,5)", won, value_only=True).engine == "alpha-beta"  # at once, with its distance


def test_the_exact_engines_answer_where_the_breaker_does_not() -> None:
    """Where lines are short the Breaker row does not run: the kernel answers, with its distance
    (on 4x4 the Python search's trial answers first, exact.engines.PYTHON_TRIAL_CELLS)."""
    r = solve("mnk(4,4,4)", value_only=True)
    assert r.value.outcome is Outcome.DRAW and r.engine == "python" and r.value.plies == 16
    r = solve("hypercube(3,3)", value_only=True)
    assert r.value.outcome is Outcome.FIRST and r.engine == "alpha-beta" and r.value.plies is not None


def test_the_engine_can_be_named_and_budgets_hold() -> None:
    r = solve("tictactoe", engine="breaker", value_only=True)
    assert r.engine == "breaker" and r.value.outcome is Outcome.DRAW
    with pytest.raises(NoughtsError, match="unknown engine"):
        solve("tictactoe", engine="nonesuch")
    with pytest.raises(LimitExceeded, match="not proved yet"):
        solve("mnk(8,8,5)", engine="breaker", value_only=True, max_seconds=0.5)
    with pytest.raises(NoughtsError, match="takes standard and maker_breaker"):
        BreakerValues(noughts.game("misere(tictactoe)"), Budget())


# -- certificates -----------------------------------------------------------------------------------


def _reseal(json_path: Path, change: object) -> None:
    header = json.loads(json_path.read_text())
    npz = json_path.with_name(header["arrays"])
    with np.load(npz) as data:
        arrays = {k: data[k].copy() for k in data.files}
    change(arrays)  # type: ignore[operator]
    np.savez_compressed(npz, **arrays)
    header["sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    json_path.write_text(json.dumps(header))


def test_a_draw_certificate_from_solve_is_checked_and_a_forgery_named(tmp_path: Path) -> None:
    path = tmp_path / "d665.json"
    r = solve("mnk(6,6,5)", value_only=True, certificate=path)
    assert r.engine == "breaker" and r.certificate is not None and r.certificate["kind"] == "breaker"
    report = check_certificate(path)
    assert report.valid and report.kind == "breaker" and report.claim["value"] == "draw"
    assert report.checked > 0 and "draw" in report.details["proves"]

    def drop_an_answer(arrays: dict[str, np.ndarray]) -> None:
        makers = np.flatnonzero(arrays["kind"] == 3)
        arrays["b"][int(makers[0])] = 0

    _reseal(path, drop_an_answer)
    forged = check_certificate(path)
    assert not forged.valid and forged.first_failure is not None and "node" in forged.first_failure
    path.with_suffix(".npz").write_bytes(b"not a zip")
    with pytest.raises(CertificateError, match="digest"):
        check_certificate(path)


def test_a_draw_from_a_position_writes_both_sides_certificates(tmp_path: Path) -> None:
    path = tmp_path / "mid"
    r = solve("mnk(5,5,5)", "...../..x../...../...../.....", value_only=True, certificate=path)
    assert r.value.outcome is Outcome.DRAW and r.certificate is not None
    files = [Path(f["file"]) for f in r.certificate["files"]]
    assert len(files) == 2
    reports = [check_certificate(f) for f in files]
    assert all(rep.valid for rep in reports)
    assert {rep.claim["maker"] for rep in reports} == {"first", "second"}


def test_a_maker_win_has_no_breaker_certificate(tmp_path: Path) -> None:
    with pytest.raises(NoughtsError, match="without a defender's strategy"):
        solve("mnk(6,6,5)", "....../.xxxx./....../oo..../o...../......", certificate=tmp_path / "w")


def test_other_kinds_still_go_to_their_checkers(tmp_path: Path) -> None:
    path = tmp_path / "ttt.json"
    solve("tictactoe", value_only=True, engine="proof", certificate=path)
    report = check_certificate(path)
    assert report.valid and report.kind == "strategy"


@pytest.mark.slow
def test_mnk_7_7_5_is_a_draw_through_solve_with_a_checked_certificate(tmp_path: Path) -> None:
    path = tmp_path / "d775.json"
    r = solve("mnk(7,7,5)", value_only=True, certificate=path, max_seconds=600)
    assert r.engine == "breaker" and r.value.outcome is Outcome.DRAW
    assert r.argument is not None and "strategy stealing" in r.argument
    report = check_certificate(path)
    assert report.valid and report.claim["value"] == "draw" and report.checked > 1000
