"""The arena's neural panel (web/neural.py, static/neural.js): a training run's grades over time,
a checkpoint's priors and values beside the exact values, playing against it.

A tiny network (width 8, one block, untrained weights) is enough: what is checked is that the
page and the API show what the network and the solver say, not that the network is good.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from web_cases import browser, client, live_server, open_page

import noughts
from noughts.store import Store

__all__ = ["browser"]  # the fixture, imported for pytest

pytest.importorskip("jax")
pytest.importorskip("mctx")

GAME = "mnk(3,3,3)"
POSITION = "x../.o./..."


def _arena(tmp: Path) -> tuple[Path, list[dict[str, float]]]:
    """A store with one az run (a checkpoint and its grade CSV), a tabular agent and a dqn
    checkpoint registered; returns the store's path and the run's CSV rows.
    """
    from noughts.neural.checkpoint import Checkpoint, init_params, save_checkpoint
    from noughts.neural.model import Model
    from noughts.neural.net import NetConfig
    from noughts.neural.run import GradeRow

    game = noughts.game(GAME)
    net = NetConfig(8, 1)
    params = init_params(net, Model(game, net).env, 0)
    out = tmp / "az.json"
    save_checkpoint(Checkpoint("az", game, net, params), out)
    save_checkpoint(Checkpoint("dqn", game, net, params), tmp / "dqn.json")
    rows = []
    for i, (rate, games) in enumerate(((0.61, 640), (0.83, 1280), (0.97, 1920)), 1):
        row = {f.name: 0.0 for f in fields(GradeRow)}
        row.update(iteration=10 * i, games=games, seconds=5.0 * i, optimal_move_rate=rate, positions=4520,
                   blunders=round(4520 * (1 - rate)), first_draws=20, second_draws=20, random_rate=0.5765)  # fmt: skip
        rows.append(row)
    with (tmp / "az.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=[f.name for f in fields(GradeRow)])
        w.writeheader()
        w.writerows(rows)
    db = tmp / "arena.db"
    with Store(db) as store:
        run_id = store.new_run("train az", {"game": GAME, "learner": "az"}, out)
        store.set_run_status(run_id, "finished")
        store.new_run("train td", {"game": GAME}, tmp / "td.json")
        store.register_agent("tiny", "az", path=out, spec=GAME)
        store.register_agent("tinyq", "dqn", path=tmp / "dqn.json", spec=GAME)
        store.register_agent("table", "qlearning", path=tmp / "q.json", spec=GAME)
    return db, rows


@pytest.fixture(scope="module")
def arena_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, float]]]:
    return _arena(tmp_path_factory.mktemp("neural-arena"))


def _exact(c: Any, position: str) -> dict[str, str]:
    r = c.post("/api/analyse", json={"game": GAME, "position": position, "max_seconds": 10})
    assert r.status_code == 200 and r.json()["solved"], r.text
    return {m["move"]: m["verdict"] for m in r.json()["evaluation"]["moves"]}


def test_runs_and_their_grades_over_time(arena_db: tuple[Path, list[dict[str, float]]]) -> None:
    db, rows = arena_db
    with client(db) as c:
        doc = c.get("/api/neural/runs").json()
        assert [r["learner"] for r in doc["runs"]] == ["az"]  # the td run is not a neural one
        run = doc["runs"][0]
        assert run["game"] == GAME and run["status"] == "finished" and run["grades"] == 3
        assert run["last"]["optimal_move_rate"] == 0.97 and run["best"]["games"] == 1920
        assert sorted(a["name"] for a in doc["agents"]) == ["tiny", "tinyq"]  # not the tabular one
        one = c.get(f"/api/neural/runs/{run['id']}").json()
        assert [p["optimal_move_rate"] for p in one["curve"]] == [r["optimal_move_rate"] for r in rows]
        assert [p["games"] for p in one["curve"]] == [640, 1280, 1920]
        for bad, says in ((run["id"] + 1, "not a neural training run"), (999, "no run 999")):  # td; none
            r = c.get(f"/api/neural/runs/{bad}")
            assert r.status_code == 400 and says in r.json()["error"], r.text


def test_a_network_beside_the_truth(arena_db: tuple[Path, list[dict[str, float]]]) -> None:
    from noughts.neural.agents import NeuralAgent
    from noughts.neural.checkpoint import load_checkpoint

    db, _ = arena_db
    game = noughts.game(GAME)
    position = game.parse(POSITION)
    legal = [game.format_move(m) for m in position.legal_moves()]
    with client(db) as c:
        exact = _exact(c, POSITION)
        r = c.post("/api/neural/explain", json={"agent": "saved:tiny", "game": GAME, "position": POSITION})
        assert r.status_code == 200, r.text
        doc = r.json()
        net = doc["network"]
        assert [m["move"] for m in net["moves"]] == legal
        priors = {m["move"]: m["prior"] for m in net["moves"]}
        assert sum(priors.values()) == pytest.approx(1.0, abs=1e-3)
        assert priors[net["move"]] == max(priors.values())  # sims 0: the network's own choice
        # the JAX network's priors: the same, and the move one of its best (symmetric cells tie)
        heavy = NeuralAgent(load_checkpoint(Path(db).with_name("az.json")), 0).explain(position)
        assert np.allclose([m["prior"] for m in heavy["moves"]], list(priors.values()), atol=2e-4)
        assert priors[net["move"]] >= max(m["prior"] for m in heavy["moves"]) - 2e-4
        assert doc["exact"]["solved"]
        assert {m["move"]: m["verdict"] for m in doc["exact"]["evaluation"]["moves"]} == exact
        assert {m["move"] for m in doc["board"]["moves"]} == set(legal)
        q = c.post(
            "/api/neural/explain", json={"agent": "saved:tinyq", "game": GAME, "position": POSITION}
        ).json()
        values = [m["q"] for m in q["network"]["moves"]]
        assert all(-1 <= v <= 1 for v in values) and q["network"]["value"] == pytest.approx(
            max(values), abs=1e-3
        )


def test_a_checkpoint_plays_in_a_seat(arena_db: tuple[Path, list[dict[str, float]]]) -> None:
    """saved:NAME of an az checkpoint plays its network's move in the arena's workers (in NumPy:
    JAX does not start under the workers' memory cap), the same move as the JAX agent's.
    """
    from noughts.neural.agents import NeuralAgent
    from noughts.neural.checkpoint import load_checkpoint

    db, _ = arena_db
    game = noughts.game(GAME)
    jax_agent = NeuralAgent(load_checkpoint(Path(db).with_name("az.json")), 0)
    with client(db) as c:
        r = c.post("/api/games", json={"game": GAME, "x": "saved:tiny", "o": "human"})
        assert r.status_code == 201, r.text
        doc = r.json()
        if doc["ply"] == 0:
            doc = c.post(f"/api/games/{doc['id']}/turn", json={"ply": 0}).json()
        assert doc["ply"] == 1 and not doc["error"], doc
        priors = {m["move"]: m["prior"] for m in jax_agent.explain(game.start())["moves"]}
        assert priors[doc["moves"][0]] >= max(priors.values()) - 2e-4  # a best move of the JAX network


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"agent": "az:/etc/passwd"}, "saved checkpoint"),
        ({"agent": "saved:table"}, "not a network"),
        ({"agent": "saved:nobody"}, "no saved agent"),
        ({"agent": "saved:tiny", "game": "mnk(4,4,4)"}, "trained on"),
        ({"agent": "saved:tiny", "position": "xxx/oo./..."}, "over"),
    ],
)
def test_bad_requests_get_one_clear_message(
    arena_db: tuple[Path, list[dict[str, float]]], body: dict[str, Any], says: str
) -> None:
    db, _ = arena_db
    with client(db) as c:
        r = c.post("/api/neural/explain", json={"game": GAME, **body})
    assert r.status_code == 400, r.text
    assert says in r.json()["error"]


@pytest.fixture(scope="module")
def base(arena_db: tuple[Path, list[dict[str, float]]]) -> Iterator[str]:
    with live_server(arena_db[0]) as url:
        yield url


def test_the_neural_page(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/neural")
    page.wait_for_selector("#nn-runs tr[data-run]")
    page.click("#nn-runs tr[data-run]")
    page.wait_for_function("() => document.getElementById('nn-curve').dataset.points === '3'")
    assert "97.0%" in page.inner_text("#nn-curve-note")
    page.select_option("#nn-agent", "saved:tiny")
    assert page.input_value("#nn-game") == GAME
    page.fill("#nn-position", POSITION)
    page.click("#nn-explain")
    page.wait_for_selector("#nn-maps[data-ready='1']", timeout=120_000)
    exact = _exact(httpx.Client(base_url=base, timeout=60), POSITION)
    net_cells = page.locator("#nn-maps .nn-cell.net")
    assert net_cells.count() == len(exact)
    shown = {page.locator("#nn-maps .nn-cell.exact").nth(i).get_attribute("data-move"):
             page.locator("#nn-maps .nn-cell.exact").nth(i).get_attribute("data-verdict")
             for i in range(len(exact))}  # fmt: skip
    assert shown == exact
    assert page.locator("#nn-maps .nn-cell.chosen").count() == 1
    page.click("#nn-play")
    page.wait_for_function(
        "() => location.hash === '#/play' && document.getElementById('play-o').value === 'saved:tiny'"
    )
    assert page.input_value("#play-spec") == GAME
    assert page.errors == []
