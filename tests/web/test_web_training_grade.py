"""Training charts that fill: every learner's oracle grade on a schedule of episodes, and at the
end of every run (issue 14)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from web_cases import PATIENCE, client

import noughts
from noughts.web.work import GRADE_POINTS


def _wait(c: Any, run_id: int) -> dict[str, Any]:
    deadline = time.monotonic() + PATIENCE
    while True:
        run = c.get(f"/api/training/{run_id}").json()
        if run["status"] != "running" or time.monotonic() > deadline:
            return dict(run)
        time.sleep(0.05)


@pytest.mark.parametrize("learner", ["td", "qlearning", "linear"])
def test_every_learner_is_graded_on_a_schedule_of_episodes_and_at_the_end(learner: str) -> None:
    episodes = 3000
    with client() as c:
        r = c.post("/api/training", json={"game": "tictactoe", "learner": learner, "episodes": episodes})
        assert r.status_code == 202, r.text
        run = _wait(c, r.json()["id"])
    assert run["status"] == "finished", run
    points = run["series"]
    graded = [p["episodes"] for p in points if p["grade"] is not None]
    assert points[-1]["grade"] is not None and points[-1]["episodes"] == episodes  # the end
    chunk = max(100, min(5000, episodes // 60))
    every = max(chunk, episodes // GRADE_POINTS)
    # one grade in each stretch of `every` episodes: the schedule counts episodes, not seconds
    assert len(graded) == len({e // every for e in graded}) >= episodes // every
    assert all(0.0 <= p["grade"] <= 1.0 for p in points if p["grade"] is not None)


def test_a_run_of_one_chunk_still_has_its_grade() -> None:
    with client() as c:
        r = c.post("/api/training", json={"game": "tictactoe", "learner": "qlearning", "episodes": 100})
        run = _wait(c, r.json()["id"])
    assert run["status"] == "finished"
    assert len(run["series"]) == 1 and run["series"][0]["grade"] is not None
    assert noughts.game("tictactoe")  # the game the grade is of
