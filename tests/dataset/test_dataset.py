"""The solver-labelled benchmark: labels held to independent references, grades, files, CLI.

Every label checked here is recomputed by code that shares nothing with the engines that made
it: ``exact/reference``'s plain memoised minimax (no pruning, no symmetry, no tables) on the
bounded games, and ``retrograde/analysis``'s plain value iteration over the position API on forget,
whose labels came from the retrograde kernels.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

import noughts
from noughts.agents import make_agent
from noughts.cli.app import app
from noughts.core import Outcome
from noughts.core.budget import Budget
from noughts.dataset import DatasetError, Plan, build, choose_games, grade_dataset, load
from noughts.dataset.build import UNKNOWN, build_game, worth
from noughts.dataset.files import card_path, sha256, write
from noughts.exact.reference import after_move, reference_values
from noughts.retrograde.analysis import reference_graph, value_of
from noughts.retrograde.analysis import reference_values as retro_values

GAMES = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "notakto",
    "forget(tictactoe)",
    "mnk(4,4,4)",
    "hypercube(3,3)",
    "notakto(boards=3)",
]
MOST_MOVES = {"hypercube(3,3)": 14}
"""Rows with at most this many legal moves are checked (10 elsewhere): on the cube wins come fast."""
SCALE = 0.01  # tic-tac-toe 100 positions, mnk(4,4,4) 300, forget 200 ...


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ds") / "small.parquet"
    card = build(out, games=GAMES, seed=0, scale=SCALE, max_seconds=None)
    assert card["complete"], card
    return out


def _check_bounded(rows: list, spec: str, limit: int) -> int:
    """Each row's labels against the reference minimax searched from that very position."""
    game = noughts.game(spec)
    checked = 0
    most = MOST_MOVES.get(spec, 10)  # the reference is plain: small subtrees only
    eligible = [r for r in rows if len(r.moves) <= most]
    step = max(1, len(eligible) // limit)
    for row in eligible[::step]:
        position = game.parse(row.position)
        values = reference_values(game, position)
        mover = position.to_move
        moves = position.legal_moves()
        assert list(row.moves) == [game.format_move(m) for m in moves]
        for m, got, got_plies in zip(moves, row.move_values, row.move_plies, strict=True):
            truth = after_move(values[position.play(m)])
            assert got == worth(truth, mover), (spec, row.position, game.format_move(m))
            if got_plies != UNKNOWN:
                assert got_plies == truth.plies, (spec, row.position, game.format_move(m))
        assert row.value == worth(values[position], mover)
        assert row.to_move == int(mover)
        checked += 1
        if checked >= limit:
            break
    return checked


@pytest.mark.parametrize(
    "spec",
    [
        "mnk(3,3,3)",
        "misere(mnk(3,3,3))",
        "maker_breaker(mnk(3,3,3))",
        "notakto",
        "mnk(4,4,4)",
        "hypercube(3,3)",
        "notakto(boards=3)",
    ],
)
def test_labels_agree_with_the_reference_minimax(built: Path, spec: str) -> None:
    data = load(built)
    rows = data.rows(spec)
    assert rows
    assert _check_bounded(rows, spec, 25) >= 3


def test_forget_labels_agree_with_plain_value_iteration(built: Path) -> None:
    data = load(built)
    game = noughts.game("forget(tictactoe)")
    graph = reference_graph(game, budget=Budget(max_seconds=None))
    winner, dist = retro_values(graph)
    rows = data.rows(str(game))
    assert len(rows) >= 100
    for row in rows[::3]:
        position = game.parse(row.position)
        mover = position.to_move
        for m, got, got_plies in zip(position.legal_moves(), row.move_values, row.move_plies, strict=True):
            s = graph.index(position.play(m))
            truth = value_of(int(winner[s]), int(dist[s]))
            assert got == worth(truth, mover), (row.position, game.format_move(m))
            if truth.outcome is Outcome.DRAW:
                assert got_plies == UNKNOWN
            else:
                assert got_plies == truth.plies + 1


def test_rows_are_one_per_symmetry_class_and_counted_in_the_card(built: Path) -> None:
    data = load(built)
    card = data.card
    assert set(card["games"]) == {str(noughts.game(g)) for g in GAMES}
    keys = set()
    for row in data.rows():
        key = (row.game, noughts.game(row.game).parse(row.position).canonical_key())
        assert key not in keys
        keys.add(key)
    for spec, entry in card["games"].items():
        assert entry["positions"] == len(data.rows(spec)) > 0
    # the listed games hold all of a BFS's first classes; tic-tac-toe's start is a draw
    first = data.rows("mnk(3,3,3)")[0]
    assert (
        first.ply == 0
        and first.value == 0
        and first.moves == ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
    )
    assert set(first.move_values) == {0}


def test_perfect_grades_one_and_random_below(built: Path) -> None:
    data = load(built)
    perfect = grade_dataset(
        make_agent("perfect"),
        "perfect",
        data,
        games=["mnk(3,3,3)", "misere(mnk(3,3,3))", "notakto", "forget(mnk(3,3,3))"],
    )
    assert perfect.rate == 1.0 and perfect.positions > 300
    assert all(g.blunders == 0 for g in perfect.games)
    rand = grade_dataset(make_agent("random"), "random", data, seed=1)
    assert rand.positions == len(data)
    assert rand.rate < 0.9
    assert sum(g.won_thrown + g.drawn_lost for g in rand.games) == rand.positions - rand.optimal > 0


def test_sample_and_a_callable_agent(built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "firstmove.py").write_text("def first(position):\n    return position.legal_moves()[0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from noughts.dataset.agents import grading_agent

    agent, name = grading_agent("firstmove:first")
    data = load(built)
    assert grade_dataset(agent, name, data, games=["mnk(3,3,3)"], sample=40, seed=3).positions == 40
    g = grade_dataset(agent, name, data, games=["mnk(3,3,3)"])
    # the first legal move is optimal exactly where the labels say so
    rows = data.rows("mnk(3,3,3)")
    assert g.positions == len(rows)
    assert g.optimal == sum(1 for r in rows if r.move_values[0] == r.value) < len(rows)


def test_the_critical_grade(built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A position is critical when some legal move changes its value: counted from the labels
    here, held to the grade's counts; ``critical=True`` grades those positions only.
    """
    (tmp_path / "firstmove2.py").write_text("def first(position):\n    return position.legal_moves()[0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from noughts.dataset.agents import grading_agent

    agent, name = grading_agent("firstmove2:first")
    data = load(built)
    for spec in ("mnk(3,3,3)", "mnk(4,4,4)", "notakto(boards=3)"):
        rows = data.rows(spec)
        hard = [r for r in rows if len(set(r.move_values) | {r.value}) > 1]
        assert 0 < len(hard) < len(rows)  # the lost positions and the ones nothing can spoil are not
        g = grade_dataset(agent, name, data, games=[spec]).games[0]
        assert g.critical == len(hard)
        assert g.critical_optimal == sum(1 for r in hard if r.move_values[0] == r.value)
        # every non-critical position is graded optimal, whatever the agent plays
        assert g.optimal - g.critical_optimal == len(rows) - len(hard)
        only = grade_dataset(agent, name, data, games=[spec], critical=True)
        assert only.positions == only.critical == len(hard) and only.optimal == g.critical_optimal
        assert only.to_json()["critical_only"] is True
    perfect = grade_dataset(make_agent("perfect"), "perfect", data, games=["mnk(3,3,3)"], critical=True)
    assert perfect.to_json()["critical_rate"] == 1.0 and perfect.positions > 50
    rand = grade_dataset(make_agent("random"), "random", data, games=["mnk(4,4,4)"], seed=2)
    doc = rand.to_json()
    assert doc["critical_rate"] < doc["optimal_move_rate"]  # random play spoils the critical ones
    low, high = doc["critical_interval95"]
    assert low <= doc["critical_rate"] <= high


def test_the_card_and_its_checksum(built: Path, tmp_path: Path) -> None:
    card = json.loads(card_path(built).read_text())
    assert card["sha256"] == sha256(built)
    assert card["format"] == "noughts-dataset" and card["noughts_version"] == noughts.__version__
    assert card["rows"] == len(load(built))
    # a byte changed in the data: refused by the checksum
    copy = tmp_path / "x.parquet"
    raw = bytearray(built.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    copy.write_bytes(bytes(raw))
    card_path(copy).write_text(json.dumps({**card, "data": "x.parquet"}))
    with pytest.raises(DatasetError, match="checksum"):
        load(copy)
    # the damaged file with a card that matches it: refused as Parquet
    card_path(copy).write_text(json.dumps({**card, "data": "x.parquet", "sha256": sha256(copy)}))
    with pytest.raises(DatasetError):
        load(copy)
    # garbage, no card, a foreign card
    junk = tmp_path / "junk.parquet"
    junk.write_bytes(b"not parquet at all")
    with pytest.raises(DatasetError, match="no card"):
        load(junk)
    card_path(junk).write_text(json.dumps({**card, "data": "junk.parquet", "sha256": sha256(junk)}))
    with pytest.raises(DatasetError, match="not a readable Parquet"):
        load(junk)
    card_path(junk).write_text("[1, 2]")
    with pytest.raises(DatasetError, match="not a noughts dataset card"):
        load(junk)
    with pytest.raises(DatasetError, match="no dataset"):
        load(tmp_path / "missing.parquet")


def test_round_trip_and_a_row_that_lies(built: Path, tmp_path: Path) -> None:
    data = load(built)
    rows = data.rows()
    again = tmp_path / "again.parquet"
    card = write(
        rows, again, {k: v for k, v in data.card.items() if k not in ("sha256", "bytes", "data", "rows")}
    )
    assert load(again).rows() == rows
    assert card["sha256"] == sha256(again)
    bad = rows[0].__class__(**{**rows[0].__dict__, "value": 1 if rows[0].value != 1 else -1})
    write([bad, *rows[1:]], again, data.card)
    with pytest.raises(DatasetError, match="row 0"):
        load(again)


def test_deterministic_given_the_seed(tmp_path: Path) -> None:
    plan = Plan("mnk(4,4,4)", 60, opening=2)
    a = build_game(plan, 5, 5, Budget(max_seconds=None))
    b = build_game(plan, 5, 5, Budget(max_seconds=None))
    c = build_game(plan, 6, 5, Budget(max_seconds=None))
    assert a.rows == b.rows and len(a.rows) == 60
    assert a.rows != c.rows
    assert {r.source for r in a.rows} >= {"random", "noisy:0.5"}


def test_the_budget_stops_the_build_and_says_so(tmp_path: Path) -> None:
    budget = Budget(max_seconds=1e-9)  # spent at its first check
    stopped = build_game(Plan("mnk(4,4,4)", 50, opening=2), 0, 5, budget)
    assert not stopped.complete and stopped.stopped and len(stopped.rows) < 50
    with pytest.raises(noughts.NoughtsError, match="no plan"):
        choose_games(["mnk(7,7,5)"])


def test_the_cli(built: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    runner = CliRunner()
    out = tmp_path / "cli.parquet"
    r = runner.invoke(
        app,
        [
            "dataset",
            "build",
            "--out",
            str(out),
            "--games",
            "tictactoe,misere(tictactoe)",
            "--scale",
            "0.02",
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    card = json.loads(r.stdout)
    assert card["rows"] == 400 and card["command"].startswith("noughts dataset build")
    r = runner.invoke(app, ["dataset", "grade", "random", "--data", str(out), "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["positions"] == 400 and 0 < doc["optimal_move_rate"] < 1
    r = runner.invoke(
        app, ["dataset", "grade", "minimax:depth=9", "--data", str(out), "--games", "tictactoe"]
    )
    assert r.exit_code == 0 and "1.0000" in r.stdout, r.output
    r = runner.invoke(app, ["dataset", "grade", "random", "--data", str(out), "--critical", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["critical_only"] and doc["positions"] == doc["critical"] < 400
    assert all(g["critical"] == g["positions"] for g in doc["games"])
    for args, what in (
        (["dataset", "grade", "random", "--data", str(tmp_path / "none.parquet")], "no dataset"),
        (["dataset", "grade", "nosuch", "--data", str(out)], "unknown agent"),
        (["dataset", "grade", "nosuchmodule.x:f", "--data", str(out)], "cannot import"),
        (["dataset", "grade", "random", "--data", str(out), "--games", "mnk(4,4,4)"], "no game"),
        (["dataset", "build", "--out", str(tmp_path / "x.parquet"), "--games", "mnk(9,9,5)"], "no plan"),
        (["dataset", "build", "--out", str(tmp_path / "x.csv"), "--games", "tictactoe"], ".parquet"),
    ):
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        assert r.stderr.startswith("noughts: error:") and what in r.stderr and "Traceback" not in r.output, (
            r.stderr
        )
    out.write_bytes(out.read_bytes()[:-10])
    r = runner.invoke(app, ["dataset", "grade", "random", "--data", str(out)])
    assert r.exit_code == 2 and "checksum" in r.stderr


def test_the_cli_build_over_budget_writes_what_it_has(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    out = tmp_path / "b.parquet"
    r = CliRunner().invoke(
        app, ["dataset", "build", "--out", str(out), "--games", "mnk(4,4,4)", "--max-seconds", "0.001"]
    )
    assert r.exit_code == 3, r.output
    assert os.path.exists(out) and json.loads(card_path(out).read_text())["complete"] is False
    assert load(out).card["games"]["mnk(4,4,4)"]["stopped"]
