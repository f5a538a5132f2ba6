"""Size before work: specs are sized from their numbers and refused before any board is built;
the cache of built games ignores spaces and is bounded; record bodies are checked from their text."""

from __future__ import annotations

from typing import Any

import pytest
from web_cases import client

from noughts.core.board import Board
from noughts.web.limits import Limits
from noughts.web.specs import GAMES, GameCache, check_game

BIG = "misere(mnk( 64,64,5 ))"


def no_building(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a board was built")

    monkeypatch.setattr(Board, "__init__", refuse)


def test_every_spec_endpoint_refuses_a_big_board_without_building_it(monkeypatch: pytest.MonkeyPatch) -> None:
    c = client()
    held = len(GAMES)
    no_building(monkeypatch)
    asks = [
        c.get("/api/game-info", params={"spec": BIG}),
        c.get("/api/agents", params={"game": BIG}),
        c.get("/api/leaderboard", params={"game": BIG}),
        c.post("/api/games", json={"game": BIG, "x": "human", "o": "random"}),
        c.post("/api/analyse", json={"game": BIG}),
        c.post("/api/count", json={"game": BIG}),
        c.post("/api/estimate", json={"game": BIG, "depth": 1}),
        c.post("/api/evaluate", json={"game": BIG}),
        c.post("/api/suggest", json={"game": BIG, "agent": "random"}),
        c.post("/api/board", json={"game": BIG}),
        c.post("/api/step", json={"game": BIG, "move": "a1"}),
        c.post("/api/batches", json={"game": BIG, "x": "random", "o": "random", "games": 1}),
        c.post("/api/training", json={"game": BIG, "learner": "qlearning", "episodes": 1000}),
    ]
    for r in asks:
        assert r.status_code == 400, (r.request.url, r.text)
        assert "4096 cells" in r.json()["error"] and "at most 1024" in r.json()["error"]
    assert len(GAMES) == held  # nothing kept for refused specs


def test_too_many_lines_is_refused_before_building(monkeypatch: pytest.MonkeyPatch) -> None:
    c = client()
    no_building(monkeypatch)
    r = c.get("/api/game-info", params={"spec": "hypercube(2,8,k=2)"})
    assert r.status_code == 400 and "32,640 lines" in r.json()["error"]


def test_spaces_make_no_new_entries_and_equal_games_share_one() -> None:
    cache = GameCache()
    a = cache.get("mnk(3,3,3)")
    assert cache.get(" mnk( 3, 3 ,3 ) ") is a
    assert cache.get("tictactoe") is a
    assert len(cache) == 1
    assert cache.get("mnk(4,4,4)") is not a and len(cache) == 2


def test_the_cache_is_bounded_by_the_boards_it_holds() -> None:
    cache = GameCache(weight=300)
    for n in range(4, 12):
        cache.get(f"mnk({n},{n},3)")
        assert cache.held <= 300 or len(cache) == 1
    assert len(cache) < 8
    assert cache.held == sum(g.board.num_cells + len(g.board.lines) for g in cache.games())


def test_check_game_serves_what_the_limits_allow() -> None:
    limits = Limits(max_cells=16)
    assert str(check_game("mnk(4,4,4)", limits)) == "mnk(4,4,4)"
    with pytest.raises(Exception, match="25 cells"):
        check_game("mnk(5,5,4)", limits)


def _record_text(spec: str, games: int, moves: str = "1. a1 *") -> str:
    head = '[Format "noughts-record 1"]\n'
    return head + "".join(f'[Game "{spec}"]\n\n{moves}\n' for _ in range(games))


def test_record_bodies_are_checked_from_their_text_before_any_game_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    c = client()
    no_building(monkeypatch)
    cases = [
        (_record_text("hypercube(3,7)", 40), "2187 cells"),  # the 57.8 s body
        (_record_text("mnk(32,32,5)", 10), "cells and lines in all"),
        (_record_text("tictactoe", 201), "at most 200 games"),
        (_record_text("mnk(30,30,5)", 1, " ".join(["a1 b1"] * 10_001) + " *"), "20,000 moves"),
        (_record_text("mnk(30,30,5)", 3, " ".join(["a1 b1"] * 400) + " *"), "cells in all"),
    ]
    for text, words in cases:
        for url in ("/api/records/read", "/api/records/import"):
            r = c.post(url, json={"text": text})
            assert r.status_code == 400, (url, words, r.text)
            assert words in r.json()["error"], (words, r.json())
    doc = {"game": "hypercube(3,7)", "moves": ["1,1,1"]}
    assert c.post("/api/records/write", json={"record": doc}).status_code == 400
    assert c.post("/api/review", json={"record": doc}).status_code == 400


def test_a_record_within_the_limits_is_read_and_imported() -> None:
    c = client()
    text = _record_text("mnk(4,4,3)", 3, "1. a1 2. b2 (2. c3 3. d4) 3. c1 *")
    r = c.post("/api/records/read", json={"text": text})
    assert r.status_code == 200, r.text
    assert len(r.json()["games"]) == 3
    r = c.post("/api/records/import", json={"text": text})
    assert r.status_code == 200 and len(r.json()["ids"]) == 3


def test_records_are_built_in_a_worker_not_in_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading, importing, writing and reviewing a record build its games in a worker (the
    server's process builds no board: it is refused here) and answer as before."""
    c = client()
    no_building(monkeypatch)
    text = _record_text("mnk(4,4,3)", 3, "1. a1 2. b2 (2. c3 3. d4) 3. c1 *")
    r = c.post("/api/records/read", json={"text": text})
    assert r.status_code == 200, r.text
    games = r.json()["games"]
    assert [len(g["moves"]) for g in games] == [3, 3, 3]
    assert games[0]["moves"][1]["variations"], games[0]["moves"][1]
    r = c.post("/api/records/import", json={"text": text})
    assert r.status_code == 200, r.text
    ids = r.json()["ids"]
    assert len(ids) == 3 and set(r.json()["tokens"]) == {str(i) for i in ids}
    listed = c.get("/api/games").json()
    listed = listed.get("games", listed) if isinstance(listed, dict) else listed
    assert {g["id"] for g in listed} >= set(ids)
    doc = {"game": "tictactoe", "moves": ["b2", "a1", "c3"]}
    w = c.post("/api/records/write", json={"record": doc})
    assert w.status_code == 200 and w.json()["text"].count("b2") == 1, w.text
    bad = c.post("/api/records/write", json={"record": {"game": "tictactoe", "moves": ["b2", "b2"]}})
    assert bad.status_code == 400 and "b2" in bad.json()["error"], bad.text
    rv = c.post("/api/review", json={"record": doc, "max_seconds": 10})
    assert rv.status_code == 200 and len(rv.json()["moves"]) == 3, rv.text


def test_a_record_over_its_budget_is_refused_with_422_and_nothing_is_stored() -> None:
    """A record whose reading outlasts :attr:`Limits.record_seconds` is refused with one 422
    that says so, and an import stores none of its games; given the default budget the same
    body is read and imported whole."""
    text = _record_text("mnk(4,4,3)", 5, "1. a1 2. b2 3. c1 *")
    tight = client(record_seconds=1e-9)
    for url in ("/api/records/read", "/api/records/import"):
        r = tight.post(url, json={"text": text})
        assert r.status_code == 422, (url, r.text)
        assert "was not read within the arena's" in r.json()["error"], r.json()
        assert "send fewer or shorter games" in r.json()["error"]
    listed = tight.get("/api/games").json()
    listed = listed.get("games", listed) if isinstance(listed, dict) else listed
    assert listed == []
    roomy = client()
    assert len(roomy.post("/api/records/read", json={"text": text}).json()["games"]) == 5
    assert len(roomy.post("/api/records/import", json={"text": text}).json()["ids"]) == 5
