"""Records and the store: export, import, and the round trip between them."""

from __future__ import annotations

import numpy as np
import pytest

import noughts
from noughts.arena.match import play_match
from noughts.core import Outcome
from noughts.record import Line, Node, Record, RecordError, read_record
from noughts.record.store import GameLog, export_games, from_store, import_records, to_store
from noughts.store import Store

ANNOTATED = """\
[Format "noughts-record 1"]
[Game "tictactoe"]
[Event "lesson 3"]
[Date "2025-03-14"]
[First "ann"]
[Second "bob"]
[Result "*"]
[Annotator "teacher"]

{How not to answer a corner.} 1. a1 2. b1 {a mistake} $2 (2. b2 {the only move}) 3. b2 *
"""


@pytest.fixture
def store() -> Store:
    return Store(":memory:")


def test_import_then_export_gives_the_record_back(store: Store) -> None:
    records = [
        read_record(ANNOTATED),
        Record("otrio", ["b2m", "a1s", "c3l"], first="x", second="y", result="second"),
        Record("veto(tictactoe)", ["!a1", "b2"], start=None, tags={"Seed": "7"}),
        Record("tictactoe", ["c3"], start="x../.o./..."),
    ]
    ids = import_records(store, records)
    assert [from_store(store.game(i)) for i in ids] == records
    assert list(export_games(store, ids)) == records
    assert list(export_games(store)) == records  # every game, oldest first
    # the main line is in the store's moves, the rest in the metadata
    rec = store.game(ids[0])
    assert rec.moves == ["a1", "b1", "b2"] and rec.status == "playing" and rec.source == "import"
    assert store.game(ids[1]).status == "finished" and store.game(ids[1]).outcome == "second"
    assert rec.metadata["record"]["tags"]["Annotator"] == "teacher"
    assert "moves" not in store.game(ids[1]).metadata["record"]  # nothing beyond the bare moves


def test_a_game_played_on_after_import_keeps_its_annotations(store: Store) -> None:
    (gid,) = import_records(store, [read_record(ANNOTATED)])
    store.append_move(gid, "c3")  # the game goes on (the web arena resumes it)
    store.finish_game(gid, "first")
    r = from_store(store.game(gid))
    assert [n.move for n in r.moves.moves] == ["a1", "b1", "b2", "c3"]
    assert r.moves.moves[1].comment == "a mistake" and r.moves.moves[1].nags == (2,)
    assert r.result is Outcome.FIRST
    # taken back and played differently: the stored line becomes a variation of the new move
    (gid,) = import_records(store, [read_record(ANNOTATED)])
    store.undo_move(gid)
    store.undo_move(gid)
    store.append_move(gid, "b2")
    r = from_store(store.game(gid))
    assert [n.move for n in r.moves.moves] == ["a1", "b2"]
    (kept,) = r.moves.moves[1].variations
    assert [n.move for n in kept.moves] == ["b1", "b2"] and kept.moves[0].comment == "a mistake"
    assert r.moves.comment == "How not to answer a corner."


def test_games_played_here_get_their_tags_from_the_store(store: Store) -> None:
    game = noughts.game("tictactoe")
    log = GameLog(store, game, "human", "perfect", metadata={"seed": 5})
    for move in ("b2", "a1", "c3"):
        log.played(game.parse_move(move))
    log.undone(1)
    r = from_store(store.game(log.id))
    assert [n.move for n in r.moves.moves] == ["b2", "a1"]
    assert (r.first, r.second, r.result) == ("human", "perfect", None)
    assert r.tags["Source"] == "play" and "Seed" not in r.tags  # the seed tells the agent's moves: not yet
    assert r.tags["Date"] == store.game(log.id).created[:10]
    log.finished(Outcome.DRAW)
    assert from_store(store.game(log.id)).tags["Seed"] == "5"  # published once the game is over
    result = play_match(game, "random", "minimax:depth=1", games=2, seed=3, store=store)
    match_games = store.games(match_id=result.match_id)
    for rec in match_games:
        exported = from_store(rec)
        assert exported.tags["Match"] == str(result.match_id)
        assert exported.tags["Round"] in ("1", "2") and exported.tags["Seed"] == "3"
        assert exported.result is Outcome(rec.outcome)
        assert exported.final.is_terminal()


def test_a_game_log_finishes_and_a_finished_start_is_finished_at_once(store: Store) -> None:
    game = noughts.game("tictactoe")
    log = GameLog(store, game, "a", "b", game.parse("xxx/oo./..."))
    assert store.game(log.id).status == "finished" and store.game(log.id).start == "xxx/oo./..."
    log = GameLog(store, game, "a", "b")
    position = game.start()
    rng = np.random.default_rng(0)
    while not position.is_terminal():
        move = position.legal_moves()[int(rng.integers(len(position.legal_moves())))]
        log.played(move)
        position = position.play(move)
    log.finished(position.outcome())  # type: ignore[arg-type]
    assert from_store(store.game(log.id)).final == position


def test_a_stored_game_that_makes_no_record_is_named(store: Store) -> None:
    gid = store.import_game("tictactoe", "a", "b", ["b2", "b2"])
    with pytest.raises(
        RecordError, match=f"game {gid} of the store does not make a record: move 2: b2 is illegal"
    ):
        from_store(store.game(gid))
    gid = store.import_game("tictactoe", "a", "b", ["b2"], metadata={"record": {"moves": {"colour": 1}}})
    with pytest.raises(RecordError, match="unknown key 'colour'"):
        from_store(store.game(gid))


def test_iter_games_filters_and_pages(store: Store) -> None:
    ids = [
        store.import_game("tictactoe", "a", "b", ["b2"], outcome=None if i % 2 else "draw") for i in range(7)
    ]
    assert [g.id for g in store.iter_games(chunk=2)] == ids
    assert [g.id for g in store.iter_games("finished", chunk=3)] == ids[0::2]
    assert [g.id for g in store.iter_games(source="web")] == []
    assert to_store(store, Record("tictactoe", Line((Node("b2", comment="hi"),)))) == ids[-1] + 1
