import sqlite3
import subprocess
import sys
import threading

import pytest

from noughts import Outcome
from noughts.store import SCHEMA_VERSION, Store, StoreError, default_path


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "noughts.db")
    yield s
    s.close()


def test_game_round_trip(store):
    gid = store.new_game("tictactoe", "human", "perfect", source="web", metadata={"seed": 3})
    assert [store.append_move(gid, m) for m in ("b2", "a1", "c3")] == [1, 2, 3]
    assert store.undo_move(gid) == "c3"
    rec = store.game(gid)
    assert (rec.spec, rec.first, rec.second, rec.source) == ("tictactoe", "human", "perfect", "web")
    assert rec.moves == ["b2", "a1"] and rec.status == "playing" and rec.outcome is None
    assert rec.metadata == {"seed": 3}
    store.finish_game(gid, Outcome.DRAW)
    rec = store.game(gid)
    assert rec.status == "finished" and rec.outcome == "draw"
    assert rec.to_json()["moves"] == ["b2", "a1"]
    with pytest.raises(StoreError, match="finished"):
        store.append_move(gid, "c1")
    with pytest.raises(StoreError, match="finished"):
        store.undo_move(gid)


def test_moves_with_commas_and_listing(store):
    a = store.new_game("hypercube(3,3)", "x", "y")
    b = store.new_game("tictactoe", "x", "y")
    store.append_move(a, "2,2,2")
    store.append_move(a, "1,1,1")
    store.finish_game(b, "first")
    assert [g.id for g in store.games()] == [b, a]  # b was updated last
    assert [g.id for g in store.games("playing")] == [a]
    assert store.games("playing")[0].moves == ["2,2,2", "1,1,1"]
    assert [g.id for g in store.games(spec="tictactoe")] == [b]
    assert len(store.games(limit=1)) == 1


def test_bad_input(store):
    with pytest.raises(StoreError, match="no game 99"):
        store.game(99)
    gid = store.new_game("tictactoe", "a", "b")
    with pytest.raises(StoreError, match="no move to take back"):
        store.undo_move(gid)
    with pytest.raises(StoreError, match="outcome"):
        store.finish_game(gid, "win")
    with pytest.raises(StoreError, match="status"):
        store.games("done")
    with pytest.raises(StoreError, match="JSON"):
        store.new_game("tictactoe", "a", "b", metadata={"x": object()})


def test_crash_safety(tmp_path):
    """A process that dies mid-game (no close, no finish) loses no move already recorded."""
    path = tmp_path / "crash.db"
    code = (
        "import os, sys\n"
        "from noughts.store import Store\n"
        f"s = Store({str(path)!r})\n"
        "g = s.new_game('tictactoe', 'human', 'perfect', source='web')\n"
        "for m in ('b2', 'a1', 'c1'):\n"
        "    s.append_move(g, m)\n"
        "os._exit(0)\n"  # no close, no cleanup: as if killed
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    with Store(path) as s:
        (game,) = s.games("playing")
        assert game.moves == ["b2", "a1", "c1"]
        assert s.append_move(game.id, "a3") == 4  # resume where it stopped
        s.finish_game(game.id, "draw")
    with Store(path) as s:
        assert s.game(game.id).moves == ["b2", "a1", "c1", "a3"]
        assert s.game(game.id).status == "finished"


def test_wal_and_schema_version(tmp_path):
    path = tmp_path / "v.db"
    with Store(path) as s:
        assert s.schema_version == SCHEMA_VERSION
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer noughts"):
        Store(path)


def test_refuses_foreign_files(tmp_path):
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not a noughts store"):
        Store(other)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="not a noughts store"):
        Store(junk)
    with pytest.raises(StoreError, match="folder"):
        Store(tmp_path)


def test_matches_and_results(store):
    t = store.new_tournament("tictactoe", ["a", "b"], {"games": 2})
    m = store.new_match("tictactoe", "a", "b", {"games": 2, "swap": True}, tournament_id=t)
    store.record_match_game(m, "a", "b", "first", ["b2", "a1", "c1"])
    store.record_match_game(m, "b", "a", Outcome.DRAW)
    rec = store.match(m)
    assert (rec.agent_a, rec.agent_b, rec.games, rec.settings["swap"]) == ("a", "b", 2, True)
    results = store.match_results(m)
    assert [(r.first, r.second, r.outcome) for r in results] == [("a", "b", "first"), ("b", "a", "draw")]
    assert store.match_results(tournament_id=t) == results
    assert store.games(match_id=m)[-1].moves == ["b2", "a1", "c1"]
    assert [x.id for x in store.matches(tournament_id=t)] == [m]
    with pytest.raises(StoreError, match="no match"):
        store.record_match_game(m + 1, "a", "b", "draw")
    with pytest.raises(StoreError, match="no tournament"):
        store.new_match("tictactoe", "a", "b", tournament_id=t + 1)


def test_agent_registry_and_runs(store):
    store.register_agent("td-1", "td", path="agents/td.json", spec="tictactoe", metadata={"episodes": 10})
    with pytest.raises(StoreError, match="already"):
        store.register_agent("td-1", "td")
    store.register_agent("td-1", "td", path="agents/td2.json", replace=True)
    store.register_agent("q", "qlearning", spec="mnk(4,4,4)")
    assert [a.name for a in store.agents()] == ["q", "td-1"]
    assert store.agent("td-1").path == "agents/td2.json"
    assert [a.name for a in store.agents(kind="qlearning")] == ["q"]
    store.remove_agent("q")
    with pytest.raises(StoreError, match="no agent"):
        store.agent("q")
    r = store.new_run("cumulative-td", {"seeds": [1, 2]}, path="runs/x")
    store.set_run_status(r, "finished")
    run = store.run(r)
    assert (run.name, run.config, run.status) == ("cumulative-td", {"seeds": [1, 2]}, "finished")
    assert [x.id for x in store.runs(name="cumulative-td")] == [r]


def test_threads_share_a_store(store):
    ids = [store.new_game("tictactoe", "a", "b") for _ in range(8)]

    def play(gid):
        for m in ("a1", "b1", "c1", "a2", "b2"):
            store.append_move(gid, m)

    threads = [threading.Thread(target=play, args=(g,)) for g in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(store.game(g).moves == ["a1", "b1", "c1", "a2", "b2"] for g in ids)


def test_default_path(monkeypatch, tmp_path):
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
        assert default_path() == tmp_path / "noughts" / "noughts.db"
    assert default_path().name == "noughts.db"


def test_a_store_that_cannot_be_written_fails_clearly(tmp_path):
    store = Store(tmp_path / "ro.db")
    store._conn.execute("PRAGMA query_only = ON")  # this connection may now only read
    with pytest.raises(StoreError, match="cannot write"):
        store.new_game("tictactoe", "a", "b")
    assert store.games() == []  # the failed write left nothing behind
    store.close()


def test_games_filter_by_one_source_or_any_of_several(tmp_path):
    from noughts.store import Store

    store = Store(tmp_path / "s.db")
    ids = {
        src: store.new_game("tictactoe", "a", "b", source=src) for src in ("web", "play", "match", "import")
    }
    assert [g.id for g in store.games(source="play")] == [ids["play"]]
    several = {g.id for g in store.games(source=("web", "play", "import"))}
    assert several == {ids["web"], ids["play"], ids["import"]}
    assert store.games(source=()) == []
