"""Issue 29, the command-line half: the bad inputs a new user met, each refused with one line and
status 2 before any work (nothing lost, no traceback); the quickstart's breakages; games list;
the store a command uses; one voice in the output; Ctrl-C at a safe point.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_cases import NOUGHTS, invoke

import noughts
from noughts.store import Store

PROC = Path("/proc")


def _one_line_2(r: object) -> str:
    assert r.exit_code == 2, r.output  # type: ignore[attr-defined]
    assert ("Traceback" not in r.output and r.exception is None) or isinstance(r.exception, SystemExit)  # type: ignore[attr-defined]
    assert r.stdout == "", r.stdout  # type: ignore[attr-defined]  # nothing printed before the error
    lines = r.stderr.splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1 and lines[0].startswith("noughts: error: "), r.stderr  # type: ignore[attr-defined]
    return str(lines[0])


def _closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- the 14 bad inputs ---------------------------------------------------------------------------


@pytest.mark.skipif(not PROC.is_dir(), reason="needs /proc (Linux)")
def test_train_out_in_proc_is_refused_before_training(monkeypatch: pytest.MonkeyPatch) -> None:
    import noughts.learn.train

    trained: list[object] = []
    monkeypatch.setattr(noughts.learn.train, "train", lambda *a, **k: trained.append(a))
    line = _one_line_2(invoke("train", "td", "tictactoe", "--out", "/proc/x.json", "--no-record"))
    assert "--out /proc/x.json: cannot write in /proc" in line  # was: trained, then a traceback
    assert trained == []  # no training ran


@pytest.mark.skipif(not PROC.is_dir(), reason="needs /proc (Linux)")
def test_experiment_out_in_proc_is_refused() -> None:
    line = _one_line_2(invoke("experiment", "cumulative-td", "--quick", "--out", "/proc/x", "--no-record"))
    assert "--out /proc/x: cannot make the folder /proc/x" in line


def test_play_db_in_a_missing_folder_makes_no_folder(tmp_path: Path) -> None:
    db = tmp_path / "nonexistent" / "x.db"
    line = _one_line_2(invoke("play", "tictactoe", "--x", "random", "--o", "random", "--db", str(db)))
    assert "there is no folder" in line and "mkdir -p" in line
    assert not db.parent.exists()  # was: the folder and an empty store, in silence


def test_a_number_past_its_bound_is_refused() -> None:
    line = _one_line_2(invoke("match", "random", "random", "tictactoe", "--games", "99999999999999999999"))
    assert "'--games'" in line and "at most 10,000,000" in line  # was: ran until killed
    for value in ("nan", "inf", "1e400"):
        line = _one_line_2(invoke("play", "tictactoe", "--x", "random", "--delay", value, "--no-record"))
        assert "'--delay'" in line
    line = _one_line_2(invoke("solve", "tictactoe", "--max-memory", "99999999999999999999"))
    assert "'--max-memory'" in line
    line = _one_line_2(
        invoke("match", "mcts:sims=99999999999999999999", "random", "tictactoe", "--no-record")
    )
    assert "mcts option sims is at most" in line


def test_an_unreachable_ray_address_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    port = _closed_port()
    try:
        import ray
    except ImportError:
        ray = None
    entered: list[object] = []
    if ray is not None:  # ray.init is where the retrying loop lives: it must not be entered
        monkeypatch.setattr(ray, "init", lambda *a, **k: entered.append(k))
    r = invoke("solve", "mnk(4,4,3)", "--ray", f"127.0.0.1:{port}", "--max-seconds", "20")
    line = _one_line_2(r)
    if ray is None:
        assert "needs Ray" in line
    else:
        assert f"cannot reach Ray at '127.0.0.1:{port}'" in line  # was: still trying at 120 s
        assert entered == []
    assert "not host:port" in _one_line_2(invoke("solve", "tictactoe", "--ray", "nonsense"))


def test_the_engine_asked_for_is_the_engine_that_answers() -> None:
    r = invoke("solve", "notakto(boards=3)", "--engine", "python", "--value-only", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["engine"] == "python" and doc["plies"] is not None  # was: answered by the quotient
    auto = json.loads(invoke("solve", "notakto(boards=3)", "--value-only", "--json").stdout)
    assert auto["engine"] == "quotient" and auto["value"] == doc["value"]  # two engines, one answer


def test_solve_check_of_a_file_that_is_not_a_certificate(tmp_path: Path) -> None:
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n")
    for command in ("solve", "prove"):
        line = _one_line_2(invoke(command, "check", str(passwd)))
        assert f"{passwd} is not a noughts certificate" in line and "passwd.json" not in line
        assert "is a folder" in _one_line_2(invoke(command, "check", str(tmp_path)))
        line = _one_line_2(invoke(command, "check", str(tmp_path / "none")))
        assert "there is no file" in line


def test_no_header_before_an_error(tmp_path: Path) -> None:
    not_a_store = tmp_path / "notes.db"
    not_a_store.write_text("my notes\n")
    line = _one_line_2(invoke("play", "tictactoe", "--x", "random", "--db", str(not_a_store)))
    assert "is not a noughts store" in line  # was: the game's header, then the error
    line = _one_line_2(invoke("play", "otrio", "--x", "pairing", "--o", "random", "--no-record"))
    assert "no breaking side" in line  # was: the header and the board, then the error
    if PROC.is_dir():
        line = _one_line_2(invoke("prove", "draw", "tictactoe", "--certificate", "/proc/d.json"))
        assert "--certificate" in line  # was: "proved: ..." then a failure to write


@pytest.mark.slow
def test_ctrl_c_while_the_server_warms_up_prints_no_traceback(tmp_path: Path) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "XDG_DATA_HOME": str(tmp_path),
        "NOUGHTS_PROJECT_STORE": "0",
        "TERM": "dumb",
    }
    if "PYTHONPATH" in os.environ:  # the tree under test, where it is not the installed one
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    proc = subprocess.Popen(
        [str(NOUGHTS), "serve", "--port", "0", "--db", str(tmp_path / "s.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(1.5)  # the workers' forkserver is loading the kernels
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    out, _ = proc.communicate(timeout=60)
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out


# -- the quickstart ------------------------------------------------------------------------------


def test_games_list_shows_the_ids_that_export_takes(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    Store(db).close()  # a fresh, empty store
    r = invoke("games", "list", "--db", db)
    assert r.exit_code == 0 and "no games yet" in r.stdout and f"store: {db}" in r.stdout
    for seed in ("1", "2"):
        assert (
            invoke(
                "play", "tictactoe", "--x", "random", "--o", "perfect", "--seed", seed, "--db", db
            ).exit_code
            == 0
        )
    assert (
        invoke(
            "match", "random", "minimax:depth=1", "misere(tictactoe)", "--games", "2", "--db", db
        ).exit_code
        == 0
    )
    doc = json.loads(invoke("games", "list", "--db", db, "--json").stdout)
    assert doc["store"] == db and not doc["more"]
    games = doc["games"]
    assert [g["id"] for g in games] == [4, 3, 2, 1]  # newest first
    with Store(db) as store:
        for g in games:
            rec = store.game(g["id"])
            assert (g["spec"], g["first"], g["second"], g["plies"]) == (
                rec.spec,
                rec.first,
                rec.second,
                rec.plies,
            )
            outcome = noughts.game(rec.spec).outcome_text(noughts.Outcome(rec.outcome))
            assert g["result"] == outcome
    # filters: the spec in any spelling, a player on either side, a limit
    only = json.loads(invoke("games", "list", "--db", db, "--json", "--spec", "tictactoe").stdout)
    assert {g["id"] for g in only["games"]} == {1, 2}
    only = json.loads(invoke("games", "list", "--db", db, "--json", "--player", "minimax:depth=1").stdout)
    assert {g["id"] for g in only["games"]} == {3, 4}
    only = json.loads(invoke("games", "list", "--db", db, "--json", "--limit", "1").stdout)
    assert [g["id"] for g in only["games"]] == [4] and only["more"]
    text = invoke("games", "list", "--db", db).stdout
    assert re.search(r"^\s*1\s+mnk\(3,3,3\)\s+random vs perfect\s", text, re.M), text
    assert "misere(mnk(3,3,3))" in text and "4 games, the newest first" in text
    bad = invoke("games", "list", "--db", db, "--spec", "foo(3)")
    assert bad.exit_code == 2 and bad.stderr.startswith("noughts: error: unknown game or board 'foo'")


def test_a_missing_game_id_says_how_to_find_one(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    Store(db).close()  # a fresh store, as after 'make run'
    line = _one_line_2(invoke("games", "export", "12", "--out", str(tmp_path / "g.ntr"), "--db", db))
    assert "there is no game 12" in line and "'noughts games list'" in line


def test_train_out_makes_a_missing_folder(tmp_path: Path) -> None:
    out = tmp_path / "agents" / "q.json"
    r = invoke("train", "qlearning", "tictactoe", "--out", str(out), "--no-record", "--episodes", "200")
    assert r.exit_code == 0, r.output  # was: "there is no folder agents"
    assert out.exists() and out.with_suffix(".npz").exists()
    assert "episodes        200 (200 this run)" in r.stdout


# -- the store a command uses ----------------------------------------------------------------------


def test_a_project_folder_has_its_own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from noughts.store import default_path, project_path, store_path

    project = tmp_path / "clone"
    (project / ".noughts").mkdir(parents=True)
    inside = project / "src" / "deep"
    inside.mkdir(parents=True)
    monkeypatch.delenv("NOUGHTS_PROJECT_STORE", raising=False)
    assert project_path(inside) == project / ".noughts" / "noughts.db"
    assert project_path(tmp_path) is None
    monkeypatch.chdir(inside)
    assert store_path() == project / ".noughts" / "noughts.db"
    r = invoke("games", "list")
    assert f"store: {project / '.noughts' / 'noughts.db'} (the project's store)" in r.stdout
    monkeypatch.setenv("NOUGHTS_PROJECT_STORE", "0")  # as the tests run: the per-user store
    assert project_path(inside) is None and store_path() == default_path()
    assert "(the per-user store)" in invoke("games", "list").stdout


# -- one voice ------------------------------------------------------------------------------------


def test_count_json_prints_a_document_when_its_budget_stops_it() -> None:
    r = invoke("count", "otrio", "--max-seconds", "1", "--json")
    assert r.exit_code == 3, r.output
    doc = json.loads(r.stdout)  # was: nothing on stdout
    assert doc["game"] == "otrio" and doc["complete"] is False and "stopped" in doc["stopped"]


def test_every_json_prints_a_document_when_a_budget_stops_the_work() -> None:
    r = invoke("explain", "otrio", "--max-seconds", "0.5", "--json")
    assert r.exit_code == 3, r.output
    doc = json.loads(r.stdout)  # one document, then the one line on stderr
    assert doc["complete"] is False and doc["stopped"] in r.stderr


def test_train_prints_labelled_rows_not_a_python_dict(tmp_path: Path) -> None:
    r = invoke(
        "train", "td", "tictactoe", "--out", str(tmp_path / "t.json"), "--no-record", "--episodes", "100"
    )
    assert r.exit_code == 0, r.output
    assert "{" not in r.stdout and "'" not in r.stdout  # was: td {'epsilon': 0.05, ...}
    assert re.search(r"settings\s+epsilon 0.05, alpha 0.5, init zero, update backward, seed 0", r.stdout)
    assert re.search(r"criterion\s+rate-window: window 20,000, delta 1e-08", r.stdout)
    r = invoke(
        "train", "td", "tictactoe", "--out", str(tmp_path / "n.json"), "--no-record", "--episodes", "100",
        "--criterion", "none",
    )  # fmt: skip
    assert re.search(r"criterion\s+100 episodes", r.stdout), r.stdout


def test_solve_labels_its_columns() -> None:
    lines = invoke("solve", "tictactoe", "--position", "xx./.o./o..").stdout.splitlines()
    assert lines[0] == "mnk(3,3,3): x wins in 1 ply"  # not "1 plies"
    assert lines[1].split()[:4] == ["move", "for", "x", "result"] and "(plies counting the move)" in lines[1]
    assert lines[2].split()[:2] == ["c1", "win"]


def test_plurals() -> None:
    r = invoke("match", "random", "random", "tictactoe", "--games", "1", "--no-record", "--seed", "1")
    assert ", 1 game, seed 1" in r.stdout, r.stdout  # was: "1 games"
    game = noughts.game("veto(tictactoe)")
    with pytest.raises(noughts.NoughtsError, match="it is o's veto step"):  # was: "second's veto step"
        game.start().play(game.parse_move("b2"))


def test_games_never_cuts_a_spec_at_80_columns() -> None:
    from typer.testing import CliRunner

    from noughts.cli.app import app
    from noughts.cli.views import example_specs

    text = CliRunner().invoke(app, ["games"], env={"COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"}).stdout
    assert max(len(line) for line in text.splitlines()) <= 80
    tokens = set(text.split())
    for entry in noughts.core.ENTRIES.values():
        for spec in example_specs(entry):
            assert spec in tokens, spec  # whole, on one line


# -- Ctrl-C at a safe point -----------------------------------------------------------------------


def test_ctrl_c_in_train_stops_after_the_chunk_and_saves(tmp_path: Path) -> None:
    from noughts.learn.qlearning import QLearner
    from noughts.learn.train import resume, train

    learner = QLearner.from_options(noughts.game("tictactoe"), seed=3)
    out = tmp_path / "q.json"
    result = train(
        learner,
        max_episodes=10**9,
        checkpoint=out,
        interruptible=True,
        on_chunk=lambda episodes: signal.raise_signal(signal.SIGINT),  # Ctrl-C during the first chunk
    )
    assert result.stopped == "interrupted" and not result.converged
    assert 0 < result.episodes < 10**9
    again, rate, _ = resume(out)  # saved whole: the state and the rates agree
    assert again.episodes == result.episodes and int(rate.counts[3]) == result.episodes


def test_a_second_ctrl_c_raises_at_once() -> None:
    from noughts.core.interrupt import deferred_interrupt

    with pytest.raises(KeyboardInterrupt), deferred_interrupt() as stop:
        signal.raise_signal(signal.SIGINT)
        assert stop.requested
        signal.raise_signal(signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler or sys.platform == "win32"
