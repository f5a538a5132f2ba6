"""The split solve (noughts.exact.split): the jobs' answers put back together give the
single-process solve's value and moves (distances included where the jobs found them), on
local processes as in this process; its certificates, joined from the workers' strategies,
pass the independent checker; a budget that runs out says how many jobs finished."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import noughts
from noughts.core import LimitExceeded, NoughtsError, Outcome
from noughts.core.values import Value
from noughts.exact.split import JobResult, _combine, _frontier
from noughts.solving import check_certificate, solve_split

GAMES = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "cumulative(tictactoe)",
    "mnk(4,4,3)",
    "hypercube(3,3)",
    "veto(tictactoe)",
]


def _moves(result: noughts.SolveResult) -> list[tuple[object, Value]]:
    return [(mv.move, mv.value) for mv in result.moves]


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("depth", [1, 2])
def test_split_gives_the_single_process_answer(spec: str, depth: int) -> None:
    whole = noughts.solve(spec)
    split = solve_split(spec, workers=1, depth=depth)
    assert split.value == whole.value
    assert _moves(split) == _moves(whole)
    assert split.complete and split.moves_total == len(whole.moves)
    assert split.split is not None and split.split["depth"] == depth
    assert split.split["jobs"] == split.split["jobs_finished"] >= 1


def test_split_from_a_position_and_under_symmetry() -> None:
    game = noughts.game("mnk(4,4,3)")
    position = game.parse("x.../..../..../...o")
    whole = noughts.solve(game, position)
    split = solve_split(game, position, workers=1)
    assert split.value == whole.value and _moves(split) == _moves(whole)
    # the empty 4x4 board has 16 moves in 3 classes under its 8 symmetries: 3 jobs
    assert solve_split(game, workers=1, value_only=True).split["jobs"] == 3  # type: ignore[index]


def test_split_on_local_processes() -> None:
    spec = "mnk(4,4,3)"
    whole = noughts.solve(spec)
    split = solve_split(spec, workers=2, depth=2)
    assert split.split is not None and split.split["backend"] == "processes" and split.split["workers"] == 2
    assert split.value == whole.value and _moves(split) == _moves(whole)


@pytest.mark.parametrize(
    "spec",
    [
        "tictactoe",
        "misere(tictactoe)",
        "maker_breaker(tictactoe)",
        "maker_breaker(tictactoe,breaker_first=true)",
        "hypercube(3,3)",
        'shape("###/#.#/###",3)',
    ],
)
@pytest.mark.parametrize("depth", [1, 2])
def test_split_certificates_pass_the_checker(spec: str, depth: int, tmp_path: Path) -> None:
    result = solve_split(spec, workers=1, depth=depth, certificate=tmp_path / "cert", value_only=True)
    whole = noughts.solve(spec, value_only=True)
    assert result.value.outcome is whole.value.outcome
    assert result.certificate is not None
    report = check_certificate(result.certificate["file"])
    assert report.valid, report.first_failure
    header = json.loads(Path(result.certificate["file"]).read_text())
    assert header["split"]["depth"] == depth
    expected = "draw" if whole.value.outcome is Outcome.DRAW else whole.value.outcome.value
    assert report.claim["value"] == expected


def test_a_tampered_split_certificate_is_rejected(tmp_path: Path) -> None:
    import numpy as np

    result = solve_split("tictactoe", workers=1, certificate=tmp_path / "cert", value_only=True)
    assert result.certificate is not None
    npz = Path(result.certificate["arrays"])
    with np.load(npz) as data:
        arrays = {k: data[k].copy() for k in data.files}
    arrays["moves0"][:] = arrays["moves0"][::-1]  # other moves at the first player's positions
    np.savez(npz, **arrays)
    header_path = Path(result.certificate["file"])
    header = json.loads(header_path.read_text())
    header["sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()  # re-signed: the checker must find it
    header_path.write_text(json.dumps(header))
    report = check_certificate(header_path)
    assert not report.valid and report.first_failure


def test_a_budget_that_runs_out_says_how_many_jobs_finished() -> None:
    with pytest.raises(
        LimitExceeded, match=r"0 of \d+ jobs finished; the position's value is not proved yet"
    ):
        solve_split("mnk(7,7,5)", workers=1, max_seconds=0.2)


def test_one_winning_move_settles_the_value_without_the_other_jobs() -> None:
    # the frontier of a won position: one job proved the mover's win, the others ran out
    game = noughts.game("tictactoe")
    position = game.parse("xx./oo./...")
    root, frontier, _ = _frontier(position, 1, lambda p: p)
    assert len(frontier) == 4  # c1 ends the game: a leaf with its value, not a job
    results = [JobResult(p.text(), None, "", 0, 0.0, "stopped") for p in frontier]
    # the win is settled, not its distance (an unknown move might win as fast)
    assert _combine(root, results) == Value(Outcome.FIRST, None)
    position = game.parse("x../.o./...")
    root, frontier, _ = _frontier(position, 1, lambda p: p)
    results = [JobResult(p.text(), None, "", 0, 0.0, "stopped") for p in frontier]
    results[0] = JobResult(frontier[0].text(), Value(Outcome.DRAW, 7), "alpha-beta", 1, 0.0)
    assert _combine(root, results) is None  # a draw is not settled until every move is known


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"spec": "tictactoe", "depth": 0}, "depth is at least 1"),
        ({"spec": "tictactoe", "engine": "fast"}, "unknown engine"),
        ({"spec": "cumulative(tictactoe)", "certificate": "x"}, "without scores"),
        ({"spec": "veto(tictactoe)", "certificate": "x"}, "claim games"),
        ({"spec": "tictactoe", "engine": "python", "certificate": "x"}, "proof engine"),
        ({"spec": "morris"}, "need not end"),
    ],
)
def test_bad_requests_are_refused(kwargs: dict[str, object], message: str) -> None:
    spec = kwargs.pop("spec")
    with pytest.raises(NoughtsError, match=message):
        solve_split(spec, workers=1, **kwargs)  # type: ignore[arg-type]


def test_cli_workers_json() -> None:
    from typer.testing import CliRunner

    from noughts.cli.app import app

    def invoke(*args: str):  # type: ignore[no-untyped-def]
        return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})

    result = invoke("solve", "mnk(4,4,3)", "--workers", "1", "--split-depth", "2", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    whole = noughts.solve("mnk(4,4,3)").to_json()
    assert (doc["value"], doc["plies"]) == (whole["value"], whole["plies"])
    assert [m["value"] for m in doc["moves"]] == [m["value"] for m in whole["moves"]]
    assert doc["split"] == {
        "depth": 2,
        "jobs": doc["split"]["jobs"],
        "jobs_finished": doc["split"]["jobs"],
        "workers": 1,
        "backend": "in-process",
    }
    text = invoke("solve", "tictactoe", "--workers", "1", "--value-only")
    assert text.exit_code == 0 and "split into 3 jobs 1 plies deep on 1 workers (in-process)" in text.output


def test_a_split_past_the_end_of_every_game_solves_in_one_process() -> None:
    whole = noughts.solve("tictactoe")
    split = solve_split("tictactoe", workers=2, depth=99)
    assert split.value == whole.value and _moves(split) == _moves(whole)
    assert split.split is not None
    assert split.split["jobs"] == 0 and split.split["depth_asked"] == 99
    assert "past the end of every game" in split.split["note"]


def test_a_split_too_deep_for_the_tree_is_clamped(monkeypatch: pytest.MonkeyPatch) -> None:
    from noughts.exact import split as module

    monkeypatch.setattr(module, "MAX_TREE", 100)  # tictactoe: 1 + 9 + 72 fits, + 504 does not
    result = solve_split("tictactoe", workers=1, depth=5, value_only=True)
    assert result.split is not None and result.split["depth"] == 2 and result.split["depth_asked"] == 5
    assert result.value == noughts.solve("tictactoe", value_only=True).value


def test_a_settled_value_stops_the_other_jobs() -> None:
    # mnk(4,4,3) is a first-player win: the first job to come back a win settles it
    whole = noughts.solve("mnk(4,4,3)", value_only=True)
    seen = []
    split = solve_split("mnk(4,4,3)", workers=1, value_only=True, on_value=seen.append)
    assert split.value.outcome is whole.value.outcome and seen == [split.value]
    s = split.split
    assert s is not None and s["jobs_stopped"] >= 1
    assert s["jobs_finished"] + s["jobs_stopped"] == s["jobs"]
    # without value_only every job runs, and the moves are all there
    full = solve_split("mnk(4,4,3)", workers=1)
    assert "jobs_stopped" not in full.split and full.complete  # type: ignore[operator]


def test_the_tree_alone_can_settle_the_value() -> None:
    # x completes a row at once: no job needs to run for the value
    result = solve_split("tictactoe", "xx./oo./...", workers=1, value_only=True)
    assert result.value.outcome is Outcome.FIRST
    assert result.split is not None and result.split["jobs_finished"] == 0
    assert result.split["jobs_stopped"] == result.split["jobs"] >= 1


# -- the proof split at the defender's replies ---------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "wins"), [("hypercube(3,3)", True), ("maker_breaker(mnk(4,4,3))", True), ("tictactoe", False)]
)
def test_a_split_proof_gives_the_engines_answer_and_a_certificate(
    spec: str, wins: bool, tmp_path: Path
) -> None:
    from noughts.core import Player
    from noughts.exact.split import prove_split
    from noughts.proving.proof import WIN, ProofSearch

    g = noughts.game(spec)
    whole = ProofSearch(g, Player.FIRST, WIN).prove(g.start()).proved
    assert whole is wins
    result = prove_split(spec, workers=1, certificate=tmp_path / "cert")
    assert result.proved is wins
    assert result.nodes > 0 and result.tried
    if wins:
        assert result.move is not None and result.certificate is not None
        report = check_certificate(result.certificate["file"])
        assert report.valid, report.first_failure
        assert report.claim["value"] == Outcome.win_for(Player.FIRST).value
        # every reply class of the first move was a job that proved its position
        move, jobs = result.tried[-1]
        assert move == result.move and all(r.proved for r in jobs)
    else:
        assert result.move is None and result.certificate is None
        assert all(any(r.proved is False for r in jobs) for _, jobs in result.tried)


def test_a_split_proof_on_local_processes(tmp_path: Path) -> None:
    from noughts.exact.split import prove_split

    result = prove_split("hypercube(3,3)", workers=2, certificate=tmp_path / "cert")
    assert result.proved and result.workers == 2
    assert result.certificate is not None
    assert check_certificate(result.certificate["file"]).valid


def test_a_reply_s_strategy_is_carried_over_by_an_automorphism() -> None:
    """Qubic's 192 line automorphisms (more than the cube's 48 symmetries) map a class's
    position onto each of its members; the strategy's rows go with them, cell by cell."""
    import numpy as np

    from noughts.core import Player
    from noughts.exact.split import _automorphism, _permute_words, _position_words
    from noughts.proving.proof import WIN, ProofSearch

    g = noughts.game("hypercube(4,3)")
    search = ProofSearch(g, Player.FIRST, WIN)
    perms = np.asarray(search.kernel_view().perms, dtype=np.int64)
    board_syms = int(search.kernel_view().params[search._D.P_BOARD_SYMS])
    assert len(perms) == 192 and board_syms == 48
    source = g.start()
    for m in (0, 1, 5, 22):
        source = source.play(m)
    sigma = perms[100]  # not one of the board's symmetries
    image = g.start()
    for m in (0, 1, 5, 22):
        image = image.play(int(sigma[m]))
    assert image.canonical_key() != source.canonical_key()  # not images under the 48
    found = _automorphism(perms, source, image)
    rows = _position_words(source, 1)[None, :]
    assert np.array_equal(_permute_words(rows, found, 64, 1), _position_words(image, 1)[None, :])


def test_a_split_proof_refuses_what_it_cannot_prove() -> None:
    from noughts.exact.split import prove_split

    with pytest.raises(NoughtsError, match="not a legal move"):
        prove_split("tictactoe", moves=[99])
    with pytest.raises(NoughtsError, match="claim games"):
        prove_split("veto(tictactoe)")
    with pytest.raises(NoughtsError, match="certificates of wins"):
        prove_split("cumulative(tictactoe)", certificate="x")
