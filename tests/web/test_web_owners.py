"""Owners and fair lanes: batches, training runs and their agents belong to whoever started
them; imported and terminal games have tokens; long jobs never starve analysis and play."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_cases import client

from noughts.web.jobs import JobBoard
from noughts.web.limits import Limits
from noughts.web.workers import Busy


def anonymous(app: Any) -> TestClient:
    return TestClient(app, headers={"X-Noughts-Client": "someone-else"})


def _wait(c: Any, path: str, done: Any, seconds: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + seconds  # a guard against a hang, not a bound on speed
    state: dict[str, Any] = c.get(path).json()
    while not done(state) and time.monotonic() < deadline:
        time.sleep(0.05)
        state = c.get(path).json()
    return state


def test_a_batch_is_stopped_only_by_its_owner() -> None:
    with client() as c:
        r = c.post("/api/batches", json={"game": "tictactoe", "x": "random", "o": "random", "games": 10_000})
        assert r.status_code == 202, r.text
        b = r.json()
        assert len(b["token"]) >= 24
        assert "token" not in c.get(f"/api/batches/{b['id']}").json()  # given only when it starts
        other = anonymous(c.app)
        assert other.get(f"/api/batches/{b['id']}").status_code == 200  # anyone may watch
        for headers in ({}, {"X-Job-Token": "guess" + b["token"][5:]}):
            r = other.post(f"/api/batches/{b['id']}/stop", headers=headers)
            assert r.status_code == 403 and "whoever started it" in r.json()["error"]
        assert c.get(f"/api/batches/{b['id']}").json()["status"] == "running"
        r = other.post(f"/api/batches/{b['id']}/stop", params={"token": b["token"]})  # the token is the key
        assert r.status_code == 200
        state = _wait(c, f"/api/batches/{b['id']}", lambda s: s["status"] != "running")
        assert state["status"] == "stopped" and state["played"] < 10_000


def test_a_training_run_is_stopped_and_saved_only_by_its_owner(tmp_path: Any) -> None:
    with client(tmp_path / "t.db", max_training_episodes=10_000_000) as c:
        r = c.post("/api/training", json={"game": "tictactoe", "learner": "td", "episodes": 10_000_000})
        assert r.status_code == 202, r.text
        run = r.json()
        other = anonymous(c.app)
        r = other.post(f"/api/training/{run['id']}/stop")
        assert r.status_code == 403
        assert c.get(f"/api/training/{run['id']}").json()["status"] == "running"
        _wait(c, f"/api/training/{run['id']}", lambda s: s["done"] > 0)
        assert c.post(f"/api/training/{run['id']}/stop").status_code == 200
        state = _wait(c, f"/api/training/{run['id']}", lambda s: s["status"] != "running")
        assert state["status"] == "stopped" and state["done"] > 0  # what it learned is kept
        r = other.post(f"/api/training/{run['id']}/save", json={"name": "stolen"})
        assert r.status_code == 403
        assert "saved:stolen" not in [a["spec"] for a in c.get("/api/agents").json()]
        r = c.post(f"/api/training/{run['id']}/save", json={"name": "mine"})
        assert r.status_code == 200, r.text
        from noughts.store import Store

        assert Store(tmp_path / "t.db").agent("mine").metadata["owner"]  # the owner's token hash


def test_one_client_runs_one_job_at_a_time_and_the_arena_max_jobs() -> None:
    board = JobBoard(Limits(max_jobs=2, jobs_per_client=1))
    board.reserve("a")
    try:
        board.reserve("a")
        raise AssertionError("a second job of one client was allowed")
    except Busy as e:
        assert "one client" in str(e)
    board.reserve("b")
    try:
        board.reserve("c")
        raise AssertionError("a third job was allowed")
    except Busy as e:
        assert "2 jobs" in str(e)
    board.release("a")
    board.reserve("c")


def test_imported_games_belong_to_the_importer() -> None:
    c = client()
    text = '[Format "noughts-record 1"]\n[Game "tictactoe"]\n\n1. b2 *\n'
    r = c.post("/api/records/import", json={"text": text})
    assert r.status_code == 200, r.text
    (gid,) = r.json()["ids"]
    assert str(gid) in r.json()["tokens"]
    other = anonymous(c.app)
    assert other.get(f"/api/games/{gid}").status_code == 200
    for path, body in (("move", {"move": "a1"}), ("seats", {"o": "random"}), ("undo", {})):
        assert other.post(f"/api/games/{gid}/{path}", json=body).status_code == 403, path
    r = c.post(f"/api/games/{gid}/seats", json={"x": "human", "o": "human"})  # the importer has its token
    assert r.status_code == 200, r.text
    r = c.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 1})
    assert r.status_code == 200 and r.json()["moves"] == ["b2", "a1"]


def test_a_game_recorded_without_a_token_is_watched_not_played(tmp_path: Any) -> None:
    from noughts.store import Store

    db = tmp_path / "old.db"
    with Store(db) as store:  # as `noughts games import` records, or a game from before tokens
        gid = store.new_game("tictactoe", "human", "random", "import")
    c = client(db)
    assert c.get(f"/api/games/{gid}").status_code == 200
    r = c.post(f"/api/games/{gid}/move", json={"move": "b2"})
    assert r.status_code == 403 and "without a token" in r.json()["error"]


def test_analysis_is_answered_while_two_jobs_run() -> None:
    with client(workers=2, max_jobs=2, jobs_per_client=2, max_training_episodes=10_000_000) as c:
        jobs = [
            c.post("/api/batches", json={"game": "tictactoe", "x": "random", "o": "random", "games": 10_000}),
            c.post("/api/training", json={"game": "tictactoe", "learner": "td", "episodes": 10_000_000}),
        ]
        assert [r.status_code for r in jobs] == [202, 202], [r.text for r in jobs]
        assert c.get("/api/health").json()["workers"]["busy"]["job"] == 2
        for _ in range(3):
            r = c.post("/api/analyse", json={"game": "tictactoe", "max_seconds": 5})
            assert r.status_code == 200, r.text
            r = c.post("/api/count", json={"game": "tictactoe", "max_seconds": 5})
            assert r.status_code == 200, r.text
        assert c.get("/api/health").json()["workers"]["busy"]["job"] == 2  # the jobs ran throughout
        c.post(f"/api/batches/{jobs[0].json()['id']}/stop")
        c.post(f"/api/training/{jobs[1].json()['id']}/stop")


# -- a training run keeps what it learned --------------------------------------------------------------


def test_a_training_run_writes_checkpoints_that_load_as_its_agent(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from noughts.agents.saved import load_agent
    from noughts.web import work

    monkeypatch.setattr(work, "CHECKPOINT_SECONDS", 0.0)  # a checkpoint after every chunk
    sent: list[dict[str, Any]] = []
    out = tmp_path / "run.json"
    result = work.Worker(2**28).train(
        sent.append, lambda: False, "tictactoe", "qlearning", {}, 1000, 60.0, str(out)
    )
    checkpoints = [p for p in sent if "checkpoint" in p]
    assert len(checkpoints) >= 2 and {p["checkpoint"] for p in checkpoints} == {
        str(tmp_path / "run.checkpoint0.json"),
        str(tmp_path / "run.checkpoint1.json"),
    }  # two slots, in turn
    assert [p["episodes"] for p in checkpoints] == sorted(p["episodes"] for p in checkpoints)
    last = checkpoints[-1]
    agent = load_agent(last["checkpoint"])
    assert agent is not None and result["episodes"] == 1000


class _KilledPool:
    """A pool whose training worker writes a checkpoint, then is killed at its memory cap."""

    def __init__(self, checkpoint: str):
        self.checkpoint = checkpoint

    def run(self, task: str, args: dict[str, Any], **kw: Any) -> Any:
        from noughts.core import LimitExceeded

        kw["on_progress"]({"started": True})
        kw["on_progress"]({"checkpoint": self.checkpoint, "episodes": 700})
        raise LimitExceeded(
            "the work ran out of the memory the arena gives one task (64 MiB) and was stopped"
        )


def test_a_run_killed_at_its_memory_cap_keeps_its_last_checkpoint(tmp_path: Any) -> None:
    import noughts
    from noughts.store import Store
    from noughts.web.training import TrainingJob

    store = Store(":memory:")
    run_id = store.new_run("test", {})
    ckpt = str(tmp_path / "run.checkpoint0.json")
    job = TrainingJob(
        run_id,
        noughts.game("tictactoe"),
        "qlearning",
        {},
        10_000,
        store,
        _KilledPool(ckpt),  # type: ignore[arg-type]
        Limits(),
        tmp_path / "run.json",
    )
    job.start(lambda j: None)
    job.join(30)
    assert job.status == "stopped" and job.done == 700 and str(job.file) == ckpt
    assert "memory" in (job.error or "") and "700 episodes" in (job.error or "")
    assert store.run(run_id).status == "stopped"
