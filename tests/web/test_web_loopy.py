"""The arena on games that need not end: board views with the ages of marks, Morris slides by
two clicks, the overlay from the retrograde solver, and games between agents stopped at the cap."""

from __future__ import annotations

from pathlib import Path

from web_cases import client

import noughts
from noughts.store import Store


def test_a_fading_board_shows_each_marks_plies_left_and_the_leaving_mark() -> None:
    with client() as c:
        s = c.post("/api/games", json={"game": "forget(tictactoe)", "x": "human", "o": "human"}).json()
        for move in ("a1", "c3", "b1", "a2", "c2", "b3"):
            s = c.post(f"/api/games/{s['id']}/move", json={"move": move}).json()
        view = s["view"]
        g = noughts.game("forget(tictactoe)")
        assert view["leaving"] == g.board.parse_cell("a1")
        assert view["lifetimes"][str(g.board.parse_cell("a1"))] == 1
        assert view["lifetimes"][str(g.board.parse_cell("b3"))] == 6
        assert s["position"] == "xx./o.x/.oo a1 c3 b1 a2 c2 b3"


def test_morris_slides_are_clicked_as_a_mark_and_its_target(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    with client(db) as c:
        s = c.post("/api/games", json={"game": "morris", "x": "human", "o": "human"}).json()
        gid = s["id"]
        for move in ("b2", "a1", "c2", "a2", "a3", "c1"):
            s = c.post(f"/api/games/{gid}/move", json={"move": move}).json()
        view = s["view"]
        assert view["phase"] == "moving" and view["in_hand"] == {"x": 0, "o": 0}
        slides = [m for m in view["moves"] if "from" in m]
        assert slides and len(slides) == len(view["moves"])
        g = noughts.game("morris")
        b2, b3 = g.board.parse_cell("b2"), g.board.parse_cell("b3")
        pick = next(m for m in slides if m["from"] == b2 and m["key"] == b3)
        assert pick["move"] == "b2-b3" and pick["cells"] == [[1, 1], [2, 1]]
        bad = c.post(f"/api/games/{gid}/move", json={"key": b3})  # a click alone places: illegal now
        assert bad.status_code == 400 and "every x is placed" in bad.json()["error"]
        s = c.post(f"/api/games/{gid}/move", json={"action": pick["action"], "ply": s["ply"]}).json()
        assert s["moves"][-1] == "b2-b3" and s["view"]["last"]["from"] == b2
        analysis = c.post("/api/analyse", json={"game": "morris", "position": s["position"]}).json()
        assert analysis["solved"]
        assert all("from" in m for m in analysis["evaluation"]["moves"])
    assert Store(db).game(gid).moves[-1] == "b2-b3"


def test_the_overlay_solves_games_that_need_not_end() -> None:
    with client() as c:
        r = c.post("/api/analyse", json={"game": "forget(tictactoe)", "max_seconds": 10}).json()
        assert r["solved"], r
        ev = r["evaluation"]
        assert ev["verdict"] == "win" and ev["describe"] == "x wins in 13"
        assert sorted(ev["best"]) == ["a2", "b1", "b3", "c2"]
        drawn = c.post("/api/analyse", json={"game": "morris(diagonals=false,diagonal_mills=false)"}).json()
        assert drawn["evaluation"]["describe"] == "draw" and drawn["solve"]["plies"] == 0


def test_games_between_agents_stop_at_the_move_cap(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    spec = 'forget(tictactoe,count="plies")'  # no line can ever be made
    cap = noughts.game(spec).properties.truncation
    with client(db) as c:
        s = c.post("/api/games", json={"game": spec, "x": "random", "o": "random"}).json()
        while not s["over"]:
            s = c.post(f"/api/games/{s['id']}/turn", json={"ply": s["ply"]}).json()
        assert s["ply"] == cap and s["outcome"] == "draw" and s["result"] == "draw by the move cap"
        again = c.post(f"/api/games/{s['id']}/turn", json={"ply": s["ply"]})
        assert again.status_code == 400 and "move cap" in again.json()["error"]
    record = Store(db).game(s["id"])
    assert record.status == "finished" and record.outcome == "draw"
    with client(db) as c:  # reopened from the record: still over, by the cap
        back = c.get(f"/api/games/{s['id']}").json()
        assert back["over"] and back["result"] == "draw by the move cap"
