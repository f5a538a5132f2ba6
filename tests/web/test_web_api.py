"""The arena's JSON API through the ASGI test client."""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
import pytest
from web_cases import PATIENCE, best_move, client

import noughts
from noughts.store import Store
from noughts.web.app import PRESETS, STATIC

# -- playing -------------------------------------------------------------------------------------------


def test_a_full_game_against_the_perfect_player_is_a_draw_and_is_recorded(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    with client(db) as c:
        r = c.post("/api/games", json={"game": "tictactoe", "x": "human", "o": "perfect"})
        assert r.status_code == 201
        s = r.json()
        gid = s["id"]
        assert s["turn"] == "human" and s["to_move"] == "x" and s["ply"] == 0
        while not s["over"]:
            if s["turn"] == "human":
                move = best_move(c, "tictactoe", s["position"])
                s = c.post(f"/api/games/{gid}/move", json={"move": move, "ply": s["ply"]}).json()
            else:
                s = c.post(f"/api/games/{gid}/turn", json={"ply": s["ply"]}).json()
        assert s["outcome"] == "draw" and s["result"] == "draw" and s["ply"] == 9
        moves = s["moves"]
    record = Store(db).game(gid)
    assert record.status == "finished" and record.outcome == "draw"
    assert record.moves == moves and record.first == "human" and record.second == "perfect"
    # the recorded moves replay to the final position
    g = noughts.game("tictactoe")
    p = g.start()
    for m in moves:
        p = p.play(g.parse_move(m))
    assert p.text() == s["position"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_perfect_player_moving_first_never_loses_to_random_moves(seed: int) -> None:
    rng = np.random.default_rng(seed)
    with client() as c:
        s = c.post("/api/games", json={"game": "tictactoe", "x": "perfect", "o": "human"}).json()
        while not s["over"]:
            if s["turn"] == "perfect":
                s = c.post(f"/api/games/{s['id']}/turn").json()
            else:
                legal = s["view"]["moves"]
                pick = legal[int(rng.integers(len(legal)))]
                s = c.post(f"/api/games/{s['id']}/move", json={"action": pick["action"]}).json()
        assert s["outcome"] in ("first", "draw")


def test_an_illegal_move_is_refused_with_a_reason_and_changes_nothing() -> None:
    with client() as c:
        s = c.post("/api/games", json={"game": "tictactoe", "x": "human", "o": "human"}).json()
        gid = s["id"]
        c.post(f"/api/games/{gid}/move", json={"move": "b2"})
        for body, words in (
            ({"move": "b2"}, "b2 is illegal: the cell is taken by x"),
            ({"key": 4}, "b2 is illegal: the cell is taken by x"),
            ({"move": "z9"}, "z9"),
            ({}, "send one of"),
            ({"move": "a1", "action": 0}, "send one of"),
        ):
            r = c.post(f"/api/games/{gid}/move", json=body)
            assert r.status_code == 400, body
            assert words in r.json()["error"]
        assert c.get(f"/api/games/{gid}").json()["moves"] == ["b2"]


def test_moves_out_of_turn_and_against_a_stale_state_are_refused() -> None:
    with client() as c:
        s = c.post("/api/games", json={"game": "tictactoe", "x": "perfect", "o": "human"}).json()
        gid = s["id"]
        r = c.post(f"/api/games/{gid}/move", json={"move": "a1"})
        assert r.status_code == 400 and "perfect's turn" in r.json()["error"]
        s = c.post(f"/api/games/{gid}/turn", json={"ply": 0}).json()
        assert s["ply"] == 1
        r = c.post(f"/api/games/{gid}/turn", json={"ply": 1})
        assert r.status_code == 400 and "person's turn" in r.json()["error"]
        r = c.post(f"/api/games/{gid}/move", json={"move": "c3", "ply": 0})  # another tab's stale view
        assert r.status_code == 409 and "changed since" in r.json()["error"]
        assert c.get(f"/api/games/{gid}").json()["ply"] == 1


def test_undo_goes_back_to_the_persons_turn_and_the_record_follows(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    with client(db) as c:
        s = c.post("/api/games", json={"game": "tictactoe", "x": "human", "o": "perfect"}).json()
        gid = s["id"]
        for _ in range(2):
            s = c.post(f"/api/games/{gid}/move", json={"key": s["view"]["moves"][0]["key"]}).json()
            s = c.post(f"/api/games/{gid}/turn").json()
        assert s["ply"] == 4
        s = c.post(f"/api/games/{gid}/undo").json()
        assert s["ply"] == 2 and s["turn"] == "human"
        s = c.post(f"/api/games/{gid}/undo", json={"plies": 1}).json()
        assert s["ply"] == 1 and s["turn"] == "perfect"
        assert c.post(f"/api/games/{gid}/undo", json={"plies": 5}).status_code == 400
    assert Store(db).game(gid).moves == s["moves"]


def test_restarting_the_server_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    with client(db) as c:
        s = c.post("/api/games", json={"game": "notakto(boards=2)", "x": "human", "o": "random"}).json()
        gid = s["id"]
        s = c.post(f"/api/games/{gid}/move", json={"move": "1:b2"}).json()
        s = c.post(f"/api/games/{gid}/turn").json()
        before = s
        token = c.tokens[gid]
    with client(db) as c:  # a new app on the same file: nothing in memory
        r = c.post(f"/api/games/{gid}/move", json={"action": 0})
        assert r.status_code == 403  # the game is its owner's: the token is in the record too
        c.tokens[gid] = token
        listed = c.get("/api/games", params={"status": "playing"}).json()
        assert [g["id"] for g in listed] == [gid] and listed[0]["plies"] == 2
        s = c.get(f"/api/games/{gid}").json()
        assert s["moves"] == before["moves"] and s["position"] == before["position"]
        assert s["turn"] == "human"
        s = c.post(f"/api/games/{gid}/move", json={"action": s["view"]["moves"][0]["action"]}).json()
        assert s["ply"] == 3


def test_a_game_can_start_from_a_position_and_ends_at_once_if_it_is_over() -> None:
    with client() as c:
        s = c.post("/api/games", json={"game": "tictactoe", "position": "xx./oo./...", "o": "human"}).json()
        assert s["start"] == "xx./oo./..." and s["to_move"] == "x"
        s = c.post(f"/api/games/{s['id']}/move", json={"move": "c1"}).json()
        assert s["over"] and s["outcome"] == "first" and s["result"] == "x wins"
        assert s["view"]["highlight"] == [0, 1, 2]  # the winning line
        s = c.post("/api/games", json={"game": "tictactoe", "position": "xxx/oo./..."}).json()
        assert s["over"] and s["outcome"] == "first"


# -- the special boards -------------------------------------------------------------------------------


def test_notakto_otrio_and_veto_moves_by_board_slot() -> None:
    with client() as c:
        s = c.post("/api/games", json={"game": "notakto(boards=3)", "x": "human", "o": "human"}).json()
        assert len(s["view"]["panels"]) == 3 and s["view"]["layout"] == "boards"
        s = c.post(f"/api/games/{s['id']}/move", json={"key": 9 + 4}).json()  # board 2, b2
        assert s["moves"] == ["2:b2"]
        assert s["view"]["panels"][1]["cells"][1][1]["slots"][0]["mark"] == "x"

        s = c.post("/api/games", json={"game": "otrio", "x": "human", "o": "human"}).json()
        cell = s["view"]["panels"][0]["cells"][1][1]
        assert [slot["size"] for slot in cell["slots"]] == ["small", "medium", "large"]
        s = c.post(f"/api/games/{s['id']}/move", json={"key": cell["slots"][2]["key"]}).json()
        assert s["moves"] == ["b2l"] and s["view"]["rings_left"]["x"]["large"] == 2

        s = c.post("/api/games", json={"game": "veto(tictactoe)", "x": "human", "o": "human"}).json()
        assert s["view"]["step"] == {"kind": "veto", "forbidden": None} and s["to_move"] == "o"
        s = c.post(f"/api/games/{s['id']}/move", json={"key": 4}).json()  # o forbids b2
        assert s["moves"] == ["!b2"] and s["view"]["step"] == {"kind": "claim", "forbidden": 4}
        r = c.post(f"/api/games/{s['id']}/move", json={"key": 4})
        assert r.status_code == 400 and "vetoed" in r.json()["error"]
        s = c.post(f"/api/games/{s['id']}/move", json={"key": 0}).json()
        s = c.post(f"/api/games/{s['id']}/move", json={"move": "pass"}).json()
        assert s["moves"] == ["!b2", "a1", "pass"]


@pytest.mark.parametrize(
    ("spec", "layout", "panels", "holes"),
    [
        ("tictactoe", "grid", 1, 0),
        ("hypercube(3,3)", "layers", 3, 0),
        ("hypercube(3,4)", "layers", 9, 0),
        ("hypercube(7,3)", "layers", 7, 0),
        ('shape("###./####/###.",3)', "grid", 1, 2),
        ('shape("#.#/.#./#.#",2)', "grid", 1, 4),
        ("notakto(boards=2)", "boards", 2, 0),
        ("otrio", "rings", 1, 0),
    ],
)
def test_every_board_is_drawn_with_one_slot_per_action(
    spec: str, layout: str, panels: int, holes: int
) -> None:
    g = noughts.game(spec)
    with client() as c:
        info = c.get("/api/game-info", params={"spec": spec}).json()
    view = info["view"]
    assert view["layout"] == layout and len(view["panels"]) == panels
    cells = [cell for p in view["panels"] for row in p["cells"] for cell in row]
    assert sum(cell is None for cell in cells) == holes
    keys = sorted(slot["key"] for cell in cells if cell for slot in cell["slots"])
    assert keys == list(range(g.num_actions))  # every action has exactly one slot
    assert sorted(m["action"] for m in view["moves"]) == sorted(g.start().legal_actions())


# -- analysis -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "position"),
    [
        ("tictactoe", "x../.o./..."),
        ("misere(tictactoe)", None),
        ("notakto(boards=2)", None),
        ("cumulative(tictactoe)", "x../.o./..."),
    ],
)
def test_analysis_is_the_solvers_answer(spec: str, position: str | None) -> None:
    with client(
        max_solve_seconds=60
    ) as c:  # room for a first compile on a loaded machine (a bound, not a speed check)
        data = c.post("/api/analyse", json={"game": spec, "position": position, "max_seconds": 60}).json()
    assert data["solved"], data
    expected = noughts.solve(spec, position).to_json()
    for key in ("game", "position", "value", "plies", "score", "moves", "pv"):
        assert data["solve"][key] == expected[key]
    mover = expected["to_move"]
    for shown, solved in zip(data["evaluation"]["moves"], expected["moves"], strict=True):
        assert shown["move"] == solved["move"] and shown["plies"] == solved["plies"] + 1
        winner = {"first": "first", "second": "second"}.get(solved["value"])
        assert shown["verdict"] == ("draw" if winner is None else "win" if winner == mover else "loss")
    assert data["evaluation"]["best"][0] == expected["pv"][0]


def test_analysis_over_its_budget_says_so_and_budgets_are_bounded() -> None:
    with client() as c:
        data = c.post("/api/analyse", json={"game": "veto(mnk(4,4,4))", "max_seconds": 0.2}).json()
        assert data == {"solved": False, "reason": data["reason"], "solve": None, "evaluation": None}
        assert "not solved within 0.2 s" in data["reason"]
        r = c.post("/api/analyse", json={"game": "tictactoe", "max_seconds": 30})
        assert r.status_code == 400 and "at most 10" in r.json()["error"]


def test_the_engine_is_kept_between_requests_in_its_worker() -> None:
    with client() as c:
        position = None
        first = c.post(
            "/api/analyse", json={"game": "mnk(5,4,4)", "position": position, "max_seconds": 10}
        ).json()
        assert first["solved"] and first["solve"]["nodes"] > 10_000
        again = c.post(
            "/api/analyse", json={"game": "mnk(5,4,4)", "position": position, "max_seconds": 10}
        ).json()
        # the same worker (it kept the game's engine) answers from its table at once
        assert again["solve"]["value"] == first["solve"]["value"] and again["solve"]["nodes"] < 1000


def test_count_is_the_counters_answer() -> None:
    with client() as c:
        data = c.post("/api/count", json={"game": "tictactoe"}).json()
    expected = noughts.count("tictactoe").to_json()
    for key in ("positions", "positions_up_to_symmetry", "games", "games_by_outcome", "tree_nodes"):
        assert data[key] == expected[key]


def test_suggest_asks_the_named_agent() -> None:
    with client() as c:
        data = c.post(
            "/api/suggest", json={"game": "tictactoe", "position": "xx./oo./...", "agent": "perfect"}
        ).json()
        assert data["move"]["move"] == "c1" and data["agent"] == "perfect"
        r = c.post("/api/suggest", json={"game": "tictactoe", "position": "xxx/oo./..."})
        assert r.status_code == 400 and "over" in r.json()["error"]


# -- batches ------------------------------------------------------------------------------------------


def _wait(c, batch_id: int) -> dict:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + PATIENCE
    while True:
        b = c.get(f"/api/batches/{batch_id}").json()
        if b["status"] != "running" or time.monotonic() > deadline:
            return b  # type: ignore[no-any-return]
        time.sleep(0.05)


def test_a_batch_plays_and_records_every_game(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    with client(db) as c:
        b = c.post(
            "/api/batches",
            json={"game": "tictactoe", "x": "perfect", "o": "perfect:tie=random", "games": 12, "seed": 5},
        ).json()
        b = _wait(c, b["id"])
        assert b["status"] == "finished" and b["played"] == 12 and b["draw"] == 12
        r = c.post(
            "/api/batches", json={"game": "tictactoe", "x": "random", "o": "random", "games": 30, "seed": 5}
        )
        b2 = _wait(c, r.json()["id"])
        assert b2["first"] + b2["second"] + b2["draw"] == 30
    store = Store(db)
    results = store.match_results(b2["id"])
    assert len(results) == 30
    assert sum(r.outcome == "first" for r in results) == b2["first"]
    assert store.match(b["id"]).games == 12


def test_jobs_over_the_limit_are_refused_and_batches_can_be_stopped() -> None:
    with client(max_jobs=1) as c:
        b = c.post(
            "/api/batches", json={"game": "tictactoe", "x": "random", "o": "random", "games": 10000}
        ).json()
        r = c.post("/api/batches", json={"game": "tictactoe", "x": "random", "o": "random", "games": 5})
        assert r.status_code == 429 and "limit" in r.json()["error"]
        c.post(f"/api/batches/{b['id']}/stop")
        b = _wait(c, b["id"])
        assert b["status"] == "stopped" and b["played"] < 10000
        r = c.post("/api/batches", json={"game": "tictactoe", "x": "human", "o": "random", "games": 5})
        assert r.status_code == 400 and "two agents" in r.json()["error"]


# -- errors and limits --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "words"),
    [
        ("post", "/api/games", {"game": "tictactoe("}, 400, "cannot read the game spec"),
        ("post", "/api/games", {"game": "chess"}, 400, "unknown game or board 'chess'"),
        ("post", "/api/games", {"game": "mnk(40,40,5)"}, 400, "at most 1024"),
        ("post", "/api/games", {"game": "tictactoe", "x": "/etc/passwd.json"}, 400, "names a file"),
        ("post", "/api/games", {"game": "tictactoe", "x": "perfect:table=t.npz"}, 400, "takes no table="),
        ("post", "/api/games", {"game": "tictactoe", "x": "deep_blue"}, 400, "unknown agent 'deep_blue'"),
        (
            "post",
            "/api/games",
            {"game": "tictactoe", "x": "saved:nobody"},
            400,
            "no saved agent named 'nobody'",
        ),
        ("post", "/api/games", {"game": "tictactoe", "x": "minimax:depth=99"}, 400, "allows 1 to 6"),
        ("post", "/api/games", {"game": "tictactoe", "position": "xxxx"}, 400, "cannot read"),
        ("post", "/api/games", {"game": 3}, 422, "game: Input should be a valid string"),
        ("post", "/api/games", {"game": "tictactoe", "colour": "red"}, 422, "colour"),
        ("get", "/api/games/12345", None, 404, "there is no game 12345"),
        ("get", "/api/games/abc", None, 422, "game_id"),
        ("get", "/api/batches/7", None, 404, "there is no batch 7"),
        ("get", "/api/nowhere", None, 404, "/docs"),
        ("get", "/api/game-info?spec=otrio(3)", None, 400, "otrio takes at most 0 arguments"),
    ],
)
def test_bad_requests_get_one_clear_json_error(
    method: str, path: str, body: object, status: int, words: str
) -> None:
    with client() as c:
        r = c.request(method.upper(), path, json=body)
    assert r.status_code == status, r.text
    assert list(r.json()) == ["error"] and words in r.json()["error"]


def test_requests_over_the_size_limit_are_refused_before_reading() -> None:
    with client(max_request_bytes=2000) as c:
        r = c.post("/api/games", json={"game": "tictactoe", "position": "x" * 3000})
        assert r.status_code == 413 and "2,000 bytes" in r.json()["error"]
        r = c.post("/api/games", content=b"{" * 3000, headers={"content-type": "application/json"})
        assert r.status_code == 413


# -- the page uses the API and nothing else -----------------------------------------------------------


def test_the_page_calls_only_documented_endpoints_and_loads_nothing_remote() -> None:
    with client() as c:
        schema = c.get("/openapi.json").json()
        page = c.get("/")
        assert page.status_code == 200 and "noughts arena" in page.text
        for asset in ("/static/app.js", "/static/style.css"):
            assert c.get(asset).status_code == 200
    paths = [re.sub(r"\{[^}]+\}", "{}", p) for p in schema["paths"]]
    script = (STATIC / "app.js").read_text()
    used = set(re.findall(r"[`\"](/api/[a-z\-/]*)", script))
    assert used, "the page calls the API"
    for call in used:
        call = call.rstrip("/")
        assert any(p == call or p.startswith(call + "/") for p in paths), call
    for name in ("index.html", "app.js", "style.css"):
        text = (STATIC / name).read_text()
        assert not re.search(r"(src|href)=\"https?://", text) and 'import("http' not in text


def test_presets_cover_the_sources_games_and_all_build() -> None:
    specs = [s for s, _, _, _ in PRESETS]
    for needed in (
        "tictactoe",
        "mnk(4,4,4)",
        "hypercube(3,3)",
        "misere(tictactoe)",
        "cumulative(tictactoe)",
        "veto(tictactoe)",
        "notakto",
        "notakto(boards=2)",
        "notakto(boards=3)",
        "otrio",
    ):
        assert needed in specs
    assert any("hypercube(7,3)" in s for s in specs) and any("maker_breaker" in s for s in specs)
    assert sum(s.startswith("shape(") for s in specs) == 3
    with client() as c:
        for spec in specs:
            assert c.get("/api/game-info", params={"spec": spec}).status_code == 200, spec


# -- training, saved agents, leaderboard ----------------------------------------------------------


def _wait_run(c, run_id: int) -> dict:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + PATIENCE
    while True:
        run = c.get(f"/api/training/{run_id}").json()
        if run["status"] != "running" or time.monotonic() > deadline:
            return run  # type: ignore[no-any-return]
        time.sleep(0.05)


def test_training_reports_a_series_and_its_agent_can_be_saved_played_downloaded_and_uploaded(
    tmp_path: Path,
) -> None:
    import io
    import zipfile

    db = tmp_path / "t.db"
    with client(db) as c:
        r = c.post(
            "/api/training",
            json={"game": "tictactoe", "learner": "td", "episodes": 6000, "options": {"alpha": "0.5"}},
        )
        assert r.status_code == 202, r.text
        run = _wait_run(c, r.json()["id"])
        assert run["status"] == "finished" and run["done"] == 6000
        points = run["series"]
        assert points[-1]["episodes"] == 6000 and len(points) >= 2
        for p in points:
            assert abs(p["first"] + p["draw"] + p["second"] - 1) < 1e-9
        grades = [p["grade"] for p in points if p["grade"] is not None]
        assert grades and all(0 <= g <= 1 for g in grades)

        saved = c.post(f"/api/training/{run['id']}/save", json={"name": "td-ttt"}).json()
        assert saved["spec"] == "saved:td-ttt" and saved["game"] == "mnk(3,3,3)"
        assert "saved:td-ttt" in [a["spec"] for a in c.get("/api/agents").json()]
        r = c.post(f"/api/training/{run['id']}/save", json={"name": "td-ttt"})
        assert r.status_code == 400 and "already" in r.json()["error"]
        s = c.post("/api/games", json={"game": "tictactoe", "x": "saved:td-ttt", "o": "human"}).json()
        s = c.post(f"/api/games/{s['id']}/turn").json()
        assert s["ply"] == 1

        data = c.get("/api/agents/td-ttt/download").content
        names = sorted(zipfile.ZipFile(io.BytesIO(data)).namelist())
        assert names == ["td-ttt.json", "td-ttt.npz"]
        r = c.post(
            "/api/agents/upload",
            params={"name": "copy"},
            content=data,
            headers={"content-type": "application/zip"},
        )
        assert r.status_code == 200 and r.json()["spec"] == "saved:copy", r.text
        assert (tmp_path / "agents" / "copy.json").exists()

        def zipped(files: dict[str, bytes]) -> bytes:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w") as z:
                for name, content in files.items():
                    z.writestr(name, content)
            return buffer.getvalue()

        original = zipfile.ZipFile(io.BytesIO(data))
        js, npz = original.read("td-ttt.json"), original.read("td-ttt.npz")
        for body, words in (
            (b"not a zip", "not a zip"),
            (zipped({"td-ttt.json": js, "td-ttt.npz": npz, "extra.txt": b"x"}), "at most 2"),
            (zipped({"td-ttt.json": js, "other.json": js}), "one agent"),
            (zipped({"td-ttt.json": js, "td-ttt.npz": npz[:-10] + b"0123456789"}), "td-ttt"),
            (zipped({"../td-ttt.json": js, "td-ttt.npz": npz}), "plain file name"),
        ):
            r = c.post("/api/agents/upload", params={"name": "bad"}, content=body)
            assert r.status_code == 400 and words in r.json()["error"], r.text
        assert "saved:bad" not in [a["spec"] for a in c.get("/api/agents").json()]
        r = c.post("/api/training", json={"game": "tictactoe", "learner": "td", "options": {"colour": "red"}})
        assert r.status_code == 400 and "takes no option 'colour'" in r.json()["error"]
    assert Store(db).run(run["id"]).status == "finished"


def test_a_training_run_can_be_stopped() -> None:
    with client(max_training_episodes=10_000_000) as c:
        learner = c.get("/api/learners").json()[0]["kind"]  # whichever learners this noughts has
        r = c.post("/api/training", json={"game": "tictactoe", "learner": learner, "episodes": 10_000_000})
        assert r.status_code == 202, r.text
        run = r.json()
        deadline = time.monotonic() + PATIENCE
        while c.get(f"/api/training/{run['id']}").json()["done"] == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        c.post(f"/api/training/{run['id']}/stop")
        run = _wait_run(c, run["id"])
        assert run["status"] == "stopped" and 0 < run["done"] < 10_000_000


def test_the_leaderboard_rates_recorded_games_between_agents() -> None:
    with client() as c:
        for x, o in (("perfect", "random"), ("random", "perfect"), ("perfect", "perfect:tie=random")):
            b = c.post(
                "/api/batches", json={"game": "tictactoe", "x": x, "o": o, "games": 20, "seed": 3}
            ).json()
            _wait(c, b["id"])
        board = c.get("/api/leaderboard").json()
    assert board["game"] == "mnk(3,3,3)"
    rows = {r["agent"]: r for r in board["ratings"]}
    assert set(rows) == {"perfect", "random", "perfect:tie=random"}
    assert rows["perfect"]["rating"] > rows["random"]["rating"]
    assert rows["perfect"]["losses"] == 0 and rows["random"]["games"] == 40
    assert sum(r["wins"] for r in rows.values()) == sum(r["losses"] for r in rows.values())


def test_two_servers_on_one_store_cannot_fork_a_game(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    with client(db) as a, client(db) as b:
        gid = a.post("/api/games", json={"game": "tictactoe", "x": "human", "o": "human"}).json()["id"]
        b.tokens[gid] = a.tokens[gid]
        assert b.get(f"/api/games/{gid}").json()["ply"] == 0  # b now holds the game too
        a.post(f"/api/games/{gid}/move", json={"move": "b2"})
        r = b.post(f"/api/games/{gid}/move", json={"move": "a1"})  # b's copy is one move behind
        assert r.status_code == 409 and "changed elsewhere" in r.json()["error"]
        assert b.get(f"/api/games/{gid}").json()["moves"] == ["b2"]  # reloaded from the record
    assert Store(db).game(gid).moves == ["b2"]


def test_the_estimate_is_the_minimax_agents_own_score_of_each_move() -> None:
    from noughts.agents import make_agent

    g = noughts.game("hypercube(7,3)")
    with client() as c:
        data = c.post("/api/estimate", json={"game": "hypercube(7,3)", "depth": 1}).json()
        r = c.post("/api/estimate", json={"game": "tictactoe", "position": "xxx/oo./..."})
        assert r.status_code == 400 and "over" in r.json()["error"]
    expected = make_agent("minimax:depth=1").move_scores(g.start())  # type: ignore[attr-defined]
    assert {m["move"]: m["score"] for m in data["moves"]} == {
        g.format_move(m): v for m, v in expected.items()
    }
    assert data["moves"][0]["move"] == "4,4,4"  # the centre, on the most lines, scores highest
    assert [m["score"] for m in data["moves"]] == sorted((m["score"] for m in data["moves"]), reverse=True)


def test_notakto_on_many_boards_is_answered_by_the_quotient() -> None:
    """The arena's perfect player and overlay go through solve's engine: on more than two boards
    of Notakto that is the misère quotient, which knows who wins but not how fast."""
    with client() as c:
        data = c.post("/api/analyse", json={"game": "notakto(boards=4)"}).json()
        assert data["solved"] and data["solve"]["engine"] == "quotient"
        assert data["solve"]["value"] == "second" and data["solve"]["plies"] is None
        assert data["evaluation"]["distances"] is False
        assert all(m["plies"] is None and m["verdict"] == "loss" for m in data["evaluation"]["moves"])
        s = c.post("/api/games", json={"game": "notakto(boards=5)", "x": "perfect", "o": "human"}).json()
        s = c.post(f"/api/games/{s['id']}/turn").json()
        after = noughts.game("notakto(boards=5)").parse(s["position"])
        assert noughts.solve(after.game, after).value.outcome is noughts.Outcome.FIRST  # it kept the win


def test_analysis_of_long_lines_has_the_breaker_row_and_stops_at_its_budget() -> None:
    """mnk(6,6,5): alpha-beta does not finish in seconds; the Breaker prover (a row of the one
    policy) proves the draw in its slices, as ``noughts solve`` does. Given time enough (the
    worker's analysis, in this process), the draw is the Breaker's; through the arena with a
    budget too small for either, it stops and says so (no wall-clock bound either way).
    """
    from noughts.web.work import Worker

    data = Worker(2**30).analyse("mnk(6,6,5)", None, 600.0)
    assert data["solved"], data
    assert data["solve"]["value"] == "draw" and data["solve"]["engine"] == "breaker"
    assert data["evaluation"]["verdict"] == "draw"
    with client() as c:
        short = c.post("/api/analyse", json={"game": "mnk(6,6,5)", "max_seconds": 0.01}).json()
    # alpha-beta's share stops it at once; the Breaker's floor (0.05 s) proves the draw on most
    # machines, and where it cannot, the answer says that both stopped at the budget
    if short["solved"]:
        assert short["solve"]["engine"] == "breaker" and short["solve"]["value"] == "draw", short
    else:
        assert "not solved within 0.01 s" in short["reason"], short
