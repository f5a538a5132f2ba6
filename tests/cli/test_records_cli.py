"""``noughts review``, ``noughts games export`` / ``import`` and ``noughts play --db``."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from cli_cases import invoke, replay, run_script

import noughts
from noughts.core import Outcome, Player
from noughts.record import read_record, read_records
from noughts.review import analysis
from noughts.store import Store

ANNOTATED = """\
[Format "noughts-record 1"]
[Game "tictactoe"]
[Event "lesson 3"]
[First "ann"]
[Second "bob"]
[Result "*"]

{How not to answer the centre.} 1. b2 2. b1 {an edge} $2 (2. a1 {a corner holds}) 3. a1 *
"""


def _worth(value, mover: Player) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    if value.outcome is Outcome.DRAW:
        return (0, 0)
    return (1, -value.plies) if value.outcome.winner is mover else (-1, value.plies)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_review_marks_exactly_the_moves_worse_than_the_best(tmp_path: Path, seed: int) -> None:
    db = str(tmp_path / "games.db")
    played = invoke("play", "tictactoe", "--x", "random", "--o", "random", "--seed", str(seed), "--db", db)
    assert played.exit_code == 0, played.output
    moves = replay("tictactoe", played.stdout).moves
    exported = invoke("games", "export", "1", "--db", db, "--out", str(tmp_path / "g.ntr"))
    assert exported.exit_code == 0, exported.output
    result = invoke("review", str(tmp_path / "g.ntr"), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [m["move"] for m in doc["moves"]] == moves
    game = noughts.game("tictactoe")
    position = game.start()
    for m in doc["moves"]:
        solved = noughts.solve(game, position)  # the solver, here in the test
        mover = position.to_move
        top = max(_worth(mv.value, mover) for mv in solved.moves)
        mine = next(_worth(mv.value, mover) for mv in solved.moves if game.format_move(mv.move) == m["move"])
        assert (m["class"] != "best") == (mine != top)
        assert m["class"] == ("best" if mine == top else "mistake" if mine[0] < top[0] else "inaccuracy")
        position = position.play(game.parse_move(m["move"]))
    assert doc["complete"] and doc["first"] == "random" and doc["result"] == position.outcome().value  # type: ignore[union-attr]


def test_the_review_table(tmp_path: Path) -> None:
    path = tmp_path / "lesson.ntr"
    path.write_text(ANNOTATED)
    result = invoke("review", str(path))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "mnk(3,3,3): ann vs bob, unfinished" in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.strip()[:1].isdigit()}
    assert rows["2"].split()[1:] == [
        "o",
        "(bob)",
        "b1",
        "draw",
        "x",
        "wins",
        "in",
        "5",
        "mistake",
        "a1",
        "c1",
        "a3",
        "c3",
    ]
    assert "best" in rows["1"] and "best" in rows["3"]
    assert "o (bob): accuracy 0.0% (0 of 1 best; 0 inaccuracies, 1 mistake)" in out
    assert "x (ann): accuracy 100.0% (2 of 2 best" in out
    assert "exact values by alpha-beta" in out


def test_review_reads_standard_input_and_chooses_a_game(tmp_path: Path) -> None:
    two = ANNOTATED + "\n" + ANNOTATED.replace("ann", "cat")
    result = invoke("review", "-", "--game", "2", "--json", input=two)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["first"] == "cat"
    result = invoke("review", "-", input=two)
    assert result.exit_code == 2
    assert result.stderr == "noughts: error: - holds 2 games: choose one with --game N (1 to 2)\n"
    result = invoke("review", "-", "--game", "3", input=two)
    assert result.exit_code == 2 and "holds 2 games, not 3" in result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[Format "noughts-record 1"]\n[Game "tictactoe"]\n1. b2 2. b2',
            "bad.ntr: line 3, column 10: move 2: b2 is illegal",
        ),
        ('[Format "noughts-record 1"]\n[Game "mnk(3,3"]', "bad.ntr: line 2, column 7:"),
        ('[Format "noughts-record 7"]\n', "noughts-record 7; this noughts reads version 1"),
        ('{"game": "tictactoe", "moves": ["b2", "zz"]}', "bad.ntr: move 2: cannot read 'zz'"),
        ("", "the record holds no game"),
    ],
)
def test_bad_records_exit_2_with_one_line(tmp_path: Path, text: str, message: str) -> None:
    bad = tmp_path / "bad.ntr"
    bad.write_text(text)
    for command in (("review", str(bad)), ("games", "import", str(bad), "--db", str(tmp_path / "s.db"))):
        result = invoke(*command)
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        assert result.stderr.startswith("noughts: error: ") and result.stderr.count("\n") == 1
        assert message in result.stderr and "Traceback" not in result.stderr
        assert str(tmp_path) not in result.stderr
    assert Store(tmp_path / "s.db").games() == []  # nothing was imported


def test_budget_exhaustion_exits_3_with_what_was_reviewed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.ntr"
    path.write_text(
        noughts.record.Record("tictactoe", ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"]).to_text()
    )
    exact = analysis._exact_children

    def slow(oracle, position, budget):  # type: ignore[no-untyped-def]
        time.sleep(0.02 * len(position.legal_moves()))  # the early, wide positions take longest
        return exact(oracle, position, budget)

    monkeypatch.setattr(analysis, "_exact_children", slow)
    result = invoke("review", str(path), "--max-seconds", "0.5", "--position-seconds", "10")
    assert result.exit_code == 3, result.output
    assert result.stderr.startswith("noughts: stopped after 0.5 s (the time budget); reviewed ")
    rows = [line.split()[0] for line in result.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert rows and rows[-1] == "9" and "1" not in rows  # the end of the game was reviewed first
    assert f"{len(rows)} of 9 moves reviewed" in result.stdout
    result = invoke("review", str(path), "--max-seconds", "0.5", "--position-seconds", "10", "--json")
    assert result.exit_code == 3
    doc = json.loads(result.stdout)
    assert doc["complete"] is False and doc["stopped"].startswith("stopped after 0.5 s")
    assert 0 < doc["reviewed"] < 9 and [m["reviewed"] for m in doc["moves"]][-1] is True


def test_estimates_are_marked_in_the_table(tmp_path: Path) -> None:
    path = tmp_path / "g.ntr"
    path.write_text(noughts.record.Record("veto(mnk(4,4,4))", ["!a1", "b2", "pass"]).to_text())
    # no position of 4x4 under veto rules is solved in a millisecond: every one is estimated
    result = invoke("review", str(path), "--position-seconds", "0.001", "--estimator", "minimax:depth=1")
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert [row[3:6] for row in rows] == [["~even", "~even", "best~"]] * 3
    assert "~ an estimate by minimax:depth=1, not an exact value" in result.stdout
    assert "3 judged from estimates" not in result.stdout  # each player's line says how many
    assert "(2 of 2 best; 0 inaccuracies, 0 mistakes; 2 judged from estimates)" in result.stdout
    result = invoke("review", str(path), "--estimator", "oracle:x=1")
    assert result.exit_code == 2 and "unknown estimator 'oracle'" in result.stderr


def test_export_and_import_round_trip(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    src = tmp_path / "in.ntr"
    src.write_text(ANNOTATED + "\n" + read_record(ANNOTATED).to_text().replace("ann", "dan"))
    result = invoke("games", "import", str(src), "--db", db)
    assert result.exit_code == 0, result.output
    assert result.stdout == "imported 2 games as 1, 2\n"
    exported = invoke("games", "export", "1", "2", "--db", db)
    assert exported.exit_code == 0, exported.output
    assert read_records(exported.stdout) == read_records(src.read_text())
    every = invoke("games", "export", "--all", "--db", db, "--json")
    assert read_records(exported.stdout) == [
        noughts.record.Record.from_json(g) for g in json.loads(every.stdout)["games"]
    ]
    out = tmp_path / "out.ntr"
    result = invoke("games", "export", "--all", "--source", "import", "--db", db, "--out", str(out))
    assert result.exit_code == 0 and result.stderr == f"exported 2 games to {out}\n"
    assert read_records(out.read_text()) == read_records(src.read_text())
    again = invoke("games", "import", str(out), "--db", db, "--json")
    assert json.loads(again.stdout) == {"imported": [3, 4], "games": 2}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("games", "export"), "name the games to export"),
        (("games", "export", "1", "--all"), "name the games to export"),
        (("games", "export", "99"), "there is no game 99"),
        (("games", "export", "1", "--source", "web"), "give --all with them"),
        (("games", "export", "--all", "--status", "done"), "a game's status is 'playing' or 'finished'"),
        (("games", "import", "missing.ntr"), "there is no file missing.ntr"),
    ],
)
def test_export_and_import_refuse_clearly(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    Store(tmp_path / "s.db").close()  # an empty store (a --db that names no file is refused: below)
    result = invoke(*args, "--db", str(tmp_path / "s.db"))
    assert result.exit_code == 2, result.output
    assert message in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize("command", [("games", "export", "1"), ("games", "list"), ("ratings", "tictactoe")])
def test_reading_a_store_that_does_not_exist_is_refused(tmp_path: Path, command: tuple[str, ...]) -> None:
    missing = tmp_path / "typo.db"
    result = invoke(*command, "--db", str(missing))
    assert result.exit_code == 2
    assert result.stderr == (
        f"noughts: error: there is no store at {missing} (a store is made when the first game is recorded in it)\n"
    )
    assert not missing.exists()  # was: an empty store made, and "no games"


def test_play_records_every_move_in_the_store(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    result = invoke(
        "play", "veto(tictactoe)", "--x", "random", "--o", "random", "--seed", "4", "--db", str(db)
    )
    assert result.exit_code == 0 and result.stderr == ""
    (rec,) = Store(db).games()
    assert rec.moves == replay("veto(tictactoe)", result.stdout).moves
    assert (rec.first, rec.second, rec.status, rec.source) == ("random", "random", "finished", "play")
    assert (
        rec.metadata["seed"] == 4 and len(rec.metadata["token"]) == 64
    )  # the token's SHA-256, not the token
    assert set(rec.metadata) == {"seed", "token"}
    # a person: undo takes moves back in the store too; quitting leaves the game to resume
    script = "b2\nundo\na1\nquit\n"
    result = invoke(
        "play", "tictactoe", "--x", "human", "--o", "random", "--seed", "5", "--db", str(db), input=script
    )
    assert result.exit_code == 0, result.output
    rec = Store(db).game(2)
    assert rec.status == "playing" and rec.moves[0] == "a1" and len(rec.moves) == 2
    token = result.stderr.split("#/play/2/")[1].split(";")[0]  # the play link: who holds it may play on
    assert (
        len(token) >= 24
        and Store(db).game(2).metadata["token"] == __import__("hashlib").sha256(token.encode()).hexdigest()
    )
    assert "without the token it is watched only); review it: noughts games export 2 --db" in result.stderr
    # started from a position
    invoke(
        "play", "tictactoe", "--x", "random", "--o", "random", "--position", "x../.o./...", "--db", str(db)
    )
    assert Store(db).game(3).start == "x../.o./..."


def test_play_records_in_the_per_user_store_unless_told_not_to(tmp_path: Path) -> None:
    env_store = Path(__import__("os").environ["XDG_DATA_HOME"]) / "noughts" / "noughts.db"
    before = len(Store(env_store).games(limit=10_000)) if env_store.exists() else 0
    assert run_script("play", "tictactoe", "--x", "random", "--o", "random", "--seed", "1").returncode == 0
    assert len(Store(env_store).games(limit=10_000)) == before + 1
    assert run_script("play", "tictactoe", "--x", "random", "--o", "random", "--no-record").returncode == 0
    assert len(Store(env_store).games(limit=10_000)) == before + 1


def test_review_annotates_a_copy_of_the_record(tmp_path: Path) -> None:
    path = tmp_path / "lesson.ntr"
    path.write_text(ANNOTATED)
    out = tmp_path / "annotated.ntr"
    result = invoke("review", str(path), "--annotate", str(out))
    assert result.exit_code == 0, result.output
    annotated = read_record(out.read_text())
    node = annotated.moves.moves[1]
    assert node.nags == (2,) and "Mistake: x wins in 5 (was draw); best a1, c1, a3, c3." in node.comment
    assert path.read_text() == ANNOTATED  # the record itself is left alone
    as_json = tmp_path / "annotated.json"
    assert invoke("review", str(path), "--annotate", str(as_json), "--json").exit_code == 0
    assert noughts.record.load_records(as_json.read_text()) == [annotated]
    result = invoke("review", str(path), "--annotate", str(tmp_path))
    assert result.exit_code == 2 and "is a folder" in result.stderr
