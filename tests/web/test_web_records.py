"""The analysis board's API: single steps, boards, records read, written, imported and exported,
reviews (each a thin layer over noughts.record / noughts.review, checked against the library)."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_cases import PATIENCE, client

import noughts
from noughts.exact.api import make_engine, move_values
from noughts.record import Record, read_record
from noughts.store import Store

RECORD = """[Format "noughts-record 1"]
[Game "tictactoe"]
[First "ann"]
[Second "bob"]

1. b2 2. a1 {the only good reply} (2. b1 3. a1 $2) 3. c3 *
"""


def test_a_step_plays_one_move_by_notation_or_by_slot_and_says_who_made_it() -> None:
    g = noughts.game("tictactoe")
    with client() as c:
        by_name = c.post("/api/step", json={"game": "tictactoe", "position": g.start().text(), "move": "B2"})
        assert by_name.status_code == 200, by_name.text
        doc = by_name.json()
        assert doc["move"] == "b2" and doc["label"] == "x" and doc["player"] == "first"
        assert doc["position"] == g.start().play(g.parse_move("b2")).text()
        assert doc["to_move"] == "o" and doc["result"] is None
        assert doc["view"]["last"]["move"] == "b2"
        by_key = c.post("/api/step", json={"game": "tictactoe", "key": 4}).json()
        assert by_key["position"] == doc["position"]
        # veto: the mover of each step is named (the same player vetoes, then the other claims)
        veto = noughts.game("veto(tictactoe)")
        first_step = veto.format_move(veto.start().legal_moves()[0])
        v = c.post("/api/step", json={"game": "veto(tictactoe)", "move": first_step}).json()
        assert v["label"] == veto.player_label(veto.start().to_move)
        after = veto.start().play(veto.parse_move(first_step))
        w = c.post(
            "/api/step",
            json={
                "game": "veto(tictactoe)",
                "position": v["position"],
                "move": veto.format_move(after.legal_moves()[0]),
            },
        ).json()
        assert w["label"] == veto.player_label(after.to_move)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "tictactoe", "position": "x../.../...", "move": "a1"}, "taken"),
        ({"game": "tictactoe", "move": "z9"}, "z9"),
        ({"game": "tictactoe", "move": "a1", "key": 0}, "not both"),
        ({"game": "tictactoe", "position": "xxx/oo./...", "move": "c3"}, "over"),
        ({"game": "nonsense(3)", "move": "a1"}, "nonsense"),
    ],
)
def test_a_bad_step_is_one_clear_400(body: dict[str, object], message: str) -> None:
    with client() as c:
        r = c.post("/api/step", json=body)
        assert r.status_code == 400, r.text
        assert message in r.json()["error"]


def test_a_board_is_drawn_with_the_last_move_marked() -> None:
    g = noughts.game("mnk(9,9,5)")
    p = g.start().play(g.parse_move("e5"))
    with client() as c:
        doc = c.post("/api/board", json={"game": "mnk(9,9,5)", "position": p.text(), "last": "e5"}).json()
        assert doc["to_move"] == "o" and doc["view"]["last"]["move"] == "e5"
        panel = doc["view"]["panels"][0]
        assert panel["columns"][4] == "e" and panel["rows"][4] == "5"
        assert doc["name"] == "9x9, 5 in a row"
        assert c.post("/api/board", json={"game": "tictactoe"}).json()["name"] == "Tic-tac-toe"


def test_records_read_and_write_keep_variations_comments_and_annotations() -> None:
    with client() as c:
        r = c.post("/api/records/read", json={"text": RECORD})
        assert r.status_code == 200, r.text
        (doc,) = r.json()["games"]
        assert doc["first"] == "ann" and doc["name"] == "Tic-tac-toe"
        moves = doc["moves"]
        assert [m["move"] for m in moves] == ["b2", "a1", "c3"]
        assert moves[1]["comment"] == "the only good reply"
        variation = moves[1]["variations"][0]["moves"]
        assert [m["move"] for m in variation] == ["b1", "a1"] and variation[1]["nags"] == [2]
        assert variation[0]["label"] == "o" and variation[0]["ply"] == 2
        assert read_record(doc["text"]) == read_record(RECORD)
        # written back from the page's JSON: the same record
        back = c.post(
            "/api/records/write",
            json={"record": {k: doc[k] for k in ("game", "first", "second", "moves", "tags")}},
        )
        assert back.status_code == 200, back.text
        assert read_record(back.json()["text"]) == read_record(RECORD)
        as_json = c.post(
            "/api/records/write", json={"record": {"game": "tictactoe", "moves": ["b2"]}, "as_json": True}
        )
        assert as_json.json()["text"].lstrip().startswith("{")


def test_a_bad_record_is_a_400_that_says_where() -> None:
    with client() as c:
        r = c.post(
            "/api/records/read",
            json={"text": '[Format "noughts-record 1"]\n[Game "tictactoe"]\n\n1. b2 2. b2 *\n'},
        )
        assert r.status_code == 400
        assert "b2 is illegal" in r.json()["error"] and "line 4" in r.json()["error"]
        w = c.post("/api/records/write", json={"record": {"game": "tictactoe", "moves": ["b2", "b2"]}})
        assert w.status_code == 400 and "move 2" in w.json()["error"]


def test_records_import_into_the_store_and_export_from_it(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    with client(db) as c:
        r = c.post("/api/records/import", json={"text": RECORD + "\n" + RECORD.replace("ann", "cy")})
        assert r.status_code == 200, r.text
        ids = r.json()["ids"]
        assert len(ids) == 2
        listed = {g["id"] for g in c.get("/api/games").json()}
        assert set(ids) <= listed
        text = c.get(f"/api/games/{ids[0]}/record").json()["text"]
        assert read_record(text).moves == read_record(RECORD).moves
        # a game played in the arena exports too, and resumes from the store
        s = c.post("/api/games", json={"game": "tictactoe", "x": "human", "o": "human"}).json()
        c.post(f"/api/games/{s['id']}/move", json={"move": "a1"})
        played = c.get(f"/api/games/{s['id']}/record").json()
        assert [m["move"] for m in played["moves"]] == ["a1"] and played["first"] == "human"
        assert c.get("/api/games/999999/record").status_code == 404
    stored = Store(db).game(ids[1])
    assert stored.first == "cy" and stored.moves == ["b2", "a1", "c3"]


def test_the_review_endpoint_marks_exactly_the_moves_the_solver_says_lose_value() -> None:
    g = noughts.game("tictactoe")
    moves = ["b2", "b1", "a1", "c1", "c3"]
    engine = make_engine(g)
    p = g.start()
    expected = []
    for m in moves:
        rated = move_values(engine, p)
        best = rated[0].value
        played = next(r for r in rated if g.format_move(r.move) == m).value
        expected.append(played != best)
        p = p.play(g.parse_move(m))
    with client() as c:
        r = c.post("/api/review", json={"record": {"game": "tictactoe", "moves": moves}, "max_seconds": 10})
        assert r.status_code == 200, r.text
        doc = r.json()
    assert [m["class"] != "best" for m in doc["moves"]] == expected
    assert any(expected)  # the game holds a slip, so the test could fail
    assert doc["players"]["first"]["accuracy"] is not None and len(doc["positions"]) == len(moves) + 1
    assert doc["complete"] is True


def test_a_review_of_a_bad_record_or_over_the_limit_is_refused() -> None:
    with client() as c:
        r = c.post("/api/review", json={"record": {"game": "tictactoe", "moves": ["b2", "b2"]}})
        assert r.status_code == 400
        r = c.post("/api/review", json={"record": {"game": "tictactoe", "moves": []}, "max_seconds": 1e6})
        assert r.status_code in (400, 422)


def test_record_export_of_a_library_record_matches_the_library() -> None:
    rec = Record("tictactoe", ["b2", "a1"], first="ann")
    with client() as c:
        doc = c.post("/api/records/write", json={"record": rec.to_json()}).json()
    assert doc["text"] == rec.to_text()


def test_a_game_played_at_the_terminal_is_listed_resumed_and_exported_in_the_arena(tmp_path: Path) -> None:
    from noughts.record.store import GameLog

    db = tmp_path / "shared.db"
    g = noughts.game("tictactoe")
    with Store(db) as store:  # what `noughts play --db shared.db` records, move by move
        log = GameLog(store, g, "human", "random")
        log.played(g.parse_move("b2"))
        log.played(g.parse_move("a1"))
    with client(db) as c:
        listed = {s["id"]: s for s in c.get("/api/games").json()}
        assert log.id in listed and listed[log.id]["source"] == "play" and listed[log.id]["plies"] == 2
        s = c.get(f"/api/games/{log.id}").json()
        assert s["moves"] == ["b2", "a1"] and s["movers"] == ["x", "o"] and s["name"] == "Tic-tac-toe"
        watched = c.post(f"/api/games/{log.id}/move", json={"move": "c3", "ply": 2})
        assert watched.status_code == 403, watched.text  # watched by anyone, played by its token's holder
        c.tokens[log.id] = log.token
        resumed = c.post(f"/api/games/{log.id}/move", json={"move": "c3", "ply": 2})
        assert resumed.status_code == 200, resumed.text
        doc = c.get(f"/api/games/{log.id}/record").json()
        assert [m["move"] for m in doc["moves"]] == ["b2", "a1", "c3"]
        assert doc["tags"].get("Source") == "play"
    assert Store(db).game(log.id).moves == ["b2", "a1", "c3"]


def test_the_games_of_a_batch_are_listed_on_request_and_replay_as_records() -> None:
    import time

    with client() as c:
        b = c.post(
            "/api/batches", json={"game": "tictactoe", "x": "random", "o": "random", "games": 3, "seed": 4}
        )
        assert b.status_code == 202, b.text
        deadline = time.monotonic() + PATIENCE
        while (
            c.get(f"/api/batches/{b.json()['id']}").json()["status"] == "running"
            and time.monotonic() < deadline
        ):
            time.sleep(0.05)
        assert all(g["source"] != "match" for g in c.get("/api/games").json())  # not in the main list
        battles = c.get("/api/games?source=match").json()
        assert len(battles) == 3 and {g["source"] for g in battles} == {"match"}
        doc = c.get(f"/api/games/{battles[0]['id']}/record").json()
        assert doc["first"] == "random" and doc["result"] is not None and doc["moves"]
        assert c.get("/api/games?source=nonsense").status_code == 422


def test_the_leaderboard_lists_watched_games_and_rates_unlinked_agents_apart(tmp_path: Path) -> None:
    from noughts.arena.ratings import connected_groups

    db = tmp_path / "lb.db"
    with Store(db) as store:  # two watched games (no match): a-b, and c-d who never met a or b
        for first, second, outcome in (
            ("perfect", "random", "first"),
            ("mcts:sims=200", "minimax:depth=1", "draw"),
        ):
            gid = store.new_game("mnk(4,4,4)", first, second, "web")
            store.finish_game(gid, noughts.Outcome(outcome))
    with client(db) as c:
        board = c.get("/api/leaderboard").json()
    assert board["game"] == "mnk(4,4,4)" and dict(map(tuple, board["games"]))["mnk(4,4,4)"] == 2
    assert board["groups"] == 2
    groups = {r["agent"]: r["group"] for r in board["ratings"]}
    assert groups["perfect"] == groups["random"] != groups["mcts:sims=200"] == groups["minimax:depth=1"]
    # the library's split: a chain of games links agents
    chain = [("a", "b", "first"), ("b", "c", "draw"), ("d", "e", "second")]
    assert [sorted({p for t in g for p in t[:2]}) for g in connected_groups(chain)] == [
        ["a", "b", "c"],
        ["d", "e"],
    ]


def test_the_arena_reviews_every_move_of_a_gomoku_game_past_the_solver() -> None:
    """Issue 29's game: the arena's review grades all 12 moves (the engine's view where the
    solver stops, marked not exact) and its values cover every position of the game."""
    x_moves = ["d2", "c15", "f10", "k2", "j7", "i11"]
    o_moves = ["h8", "i9", "g7", "h10", "j9", "g9"]
    moves = [m for pair in zip(x_moves, o_moves, strict=True) for m in pair]
    with client() as c:
        r = c.post(
            "/api/review", json={"record": {"game": "mnk(15,15,5)", "moves": moves}, "max_seconds": 60}
        )
        assert r.status_code == 200, r.text
        doc = r.json()
    assert doc["complete"] is True and len(doc["moves"]) == 12
    assert all(m["reviewed"] and m["class"] for m in doc["moves"])
    assert any(not m["exact"] for m in doc["moves"])  # graded by the engine, and marked so
    assert len(doc["positions"]) == 13 and all(p.get("value") is not None for p in doc["positions"])
