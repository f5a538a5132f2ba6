"""The record format: what it reads, what it writes, and every way a record can be wrong."""

from __future__ import annotations

import json

import pytest

import noughts
from noughts.core import Outcome
from noughts.record import (
    Line,
    Node,
    Record,
    RecordError,
    load_records,
    read_record,
    read_records,
    write_records,
)
from noughts.record.files import dump_records, read_file

EXAMPLE = """\
[Format "noughts-record 1"]
[Game "tictactoe"]
[Event "club night"]
[Date "2025-03-14"]
[First "ann"]
[Second "perfect"]
[Result "draw"]
[TimeControl "none"]

{A quiet game.} 1. b2 2. a1 {the only good reply}
(2. b1 3. a1 {x threatens c1 and a3} $1 (3. c3 4. a1)) 3. c3 4. c1 5. a3 6. a2 7. b1 8. b3 9. c2
"""


def test_reading_the_example() -> None:
    r = read_record(EXAMPLE)
    assert r.game == noughts.game("tictactoe")
    assert (r.first, r.second, r.result) == ("ann", "perfect", Outcome.DRAW)
    assert r.tags == {"Event": "club night", "Date": "2025-03-14", "TimeControl": "none"}
    assert r.moves.comment == "A quiet game."
    main = r.moves.moves
    assert [n.move for n in main] == ["b2", "a1", "c3", "c1", "a3", "a2", "b1", "b3", "c2"]
    assert main[1].comment == "the only good reply"
    (variation,) = main[1].variations
    assert [n.move for n in variation.moves] == ["b1", "a1"]
    assert variation.moves[1].nags == (1,)
    assert variation.moves[1].comment == "x threatens c1 and a3"
    assert [n.move for n in variation.moves[1].variations[0].moves] == ["c3", "a1"]
    assert r.final.is_terminal() and r.final.outcome() is Outcome.DRAW
    assert r.positions()[-1] == r.final and len(r.positions()) == 10


def test_writing_is_canonical_and_reads_back() -> None:
    r = read_record(EXAMPLE)
    text = r.to_text()
    assert text.startswith('[Format "noughts-record 1"]\n[Game "mnk(3,3,3)"]\n[Event "club night"]\n')
    assert '[Result "draw"]' in text
    assert all(len(line) <= 79 for line in text.splitlines())
    assert read_record(text) == r
    assert read_record(text).to_text() == text  # writing is a fixed point


def test_moves_are_kept_in_canonical_notation() -> None:
    r = read_record('[Format "noughts-record 1"]\n[Game "tictactoe"]\n1. B2 2. a1')
    assert [n.move for n in r.moves.moves] == ["b2", "a1"]
    assert Record("hypercube(3,3)", ["2,2,2", " 1,1,1 "]).moves.moves[1].move == "1,1,1"


def test_numbers_are_optional_and_checked() -> None:
    head = '[Format "noughts-record 1"]\n[Game "tictactoe"]\n'
    assert read_record(head + "b2 a1 c3").plies == 3
    assert read_record(head + "1. b2 2... a1 c3").plies == 3
    with pytest.raises(RecordError, match=r"line 3, column 7: the move here is number 2, not 3"):
        read_record(head + "1. b2 3. a1")


def test_a_file_of_many_games() -> None:
    second = '[Game "notakto(boards=2)"]\n[Result "*"]\n\n1. 1:b2 2. 2:a1\n'
    records = read_records(EXAMPLE + "\n" + second)
    assert [str(r.game) for r in records] == ["mnk(3,3,3)", str(noughts.game("notakto(boards=2)"))]
    assert records[1].result is None and records[1].first == "?"
    assert read_records(write_records(records)) == records
    with pytest.raises(RecordError, match="holds 2 games, not one"):
        read_record(EXAMPLE + second)


def test_start_position_and_tags_with_quotes() -> None:
    spec = 'shape("###./####/###.",3)'
    r = Record(spec, ["b2"], start="xo.-/o..x/x..-", tags={"Event": 'the "odd" one \\ here'})
    text = r.to_text()
    assert '[Game "shape(\\"###./####/###.\\",3)"]' in text
    assert '[Start "xo.-/o..x/x..-"]' in text
    back = read_record(text)
    assert back == r and back.tags["Event"] == 'the "odd" one \\ here'
    assert back.start_position.text() == "xo.-/o..x/x..-"


def test_comments_keep_braces_backslashes_and_lines() -> None:
    comment = "a } brace, a \\ backslash,\nand a second line"
    r = Record("tictactoe", Line((Node("b2", comment=comment), Node("a1")), comment="{before}"))
    back = read_record(r.to_text())
    assert back.moves.moves[0].comment == comment
    assert back.moves.comment == "{before}"
    assert back == r


def test_the_result_must_agree_with_the_moves() -> None:
    won = ["a1", "a2", "b1", "b2", "c1"]  # x completes the top row
    assert Record("tictactoe", won).result is Outcome.FIRST  # filled in from the final position
    with pytest.raises(RecordError, match=r"the result is 'draw'.*x wins"):
        Record("tictactoe", won, result="draw")
    head = '[Format "noughts-record 1"]\n[Game "tictactoe"]\n'
    with pytest.raises(RecordError, match=r"line 3, column 9: the result is '\*' but the moves end the game"):
        read_record(head + '[Result "*"]\n' + " ".join(won))
    # a game may end before its position is over (resignation, adjudication)
    assert read_record(head + '[Result "second"]\n1. a1').result is Outcome.SECOND


def test_a_json_record_is_an_object() -> None:
    with pytest.raises(RecordError, match="a record is a JSON object, not list"):
        Record.from_json([])


def test_json_round_trip_and_positions() -> None:
    r = read_record(EXAMPLE)
    doc = r.to_json(positions=True)
    assert doc["start_position"] == ".../.../..."
    first = doc["moves"][0]
    assert (first["ply"], first["player"], first["label"], first["position"]) == (
        1,
        "first",
        "x",
        ".../.x./...",
    )
    inner = doc["moves"][1]["variations"][0]["moves"][1]
    assert (inner["ply"], inner["player"], inner["position"]) == (3, "first", "xo./.x./...")
    assert Record.from_json(json.loads(json.dumps(doc))) == r
    assert Record.from_json(r.to_json()) == r
    doc["moves"][0]["position"] = "x../.../..."
    with pytest.raises(RecordError, match="move 1 \\(b2\\): 'position' is"):
        Record.from_json(doc)


def test_json_files_and_collections() -> None:
    records = [read_record(EXAMPLE), Record("otrio", ["b2m", "b2s"])]
    text = dump_records(records, as_json=True)
    assert json.loads(text)["format"] == "noughts-record"
    assert load_records(text) == records
    assert load_records(json.dumps(records[1].to_json())) == records[1:]
    assert load_records(dump_records(records)) == records


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ('{"format": "noughts-record", "version": 1, "games": {}}', "'games' is a list"),
        ('{"game": "tictactoe", "moves": ["b2"], "colour": 1}', "unknown key 'colour'"),
        ('{"moves": ["b2"]}', "'game' is missing"),
        (
            '{"format": "noughts-record", "version": 9, "game": "tictactoe"}',
            "noughts-record 9; this noughts reads version 1",
        ),
        ('{"format": "pgn", "version": 1, "game": "tictactoe"}', "not a noughts record"),
        ('{"game": "tictactoe", "moves": [{"move": "b2", "nags": [300]}]}', "from 0 to 255"),
        ('{"game": "tictactoe", "moves": ["b2", "b2"]}', "move 2: b2 is illegal"),
        ('{"game": "tictactoe", "result": "x"}', "a result is 'first'"),
        (
            '{"games": [{"game": "tictactoe"}, {"game": "nope"}], "format": "noughts-record", "version": 1}',
            "game 2:",
        ),
        ('{"game": "tictactoe", "tags": {"bad name": "x"}}', "a tag's name"),
        ('{"game": "tictactoe", "tags": {"Event": "two\\nlines"}}', "one line of text"),
        ('{"game": "tictactoe", "tags": {"Result": "draw"}}', "Result is a field of the record"),
        ('{"game": "tictactoe", "moves": [{"move": "b2", "variations": [[]]}]}', "has no moves"),
        ('{"game": ', "malformed JSON"),
        ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "nests too deeply"),
        (
            '{"game": "tictactoe", "moves": '
            + '[{"move": "b2", "variations": [' * 70
            + '["a1"]'
            + "]}]" * 70
            + "}",
            "nest more than 64 deep",
        ),
    ],
)
def test_bad_json_records(doc: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        load_records(doc)


HEAD = '[Format "noughts-record 1"]\n[Game "tictactoe"]\n'


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("", 1, 1, "holds no game"),
        ("1. b2", 1, 1, "a game starts with its tags"),
        ('[Game "tictactoe"]\n1. b2', 1, 1, "a record starts with its format"),
        (
            '[Format "noughts-record 2"]\n[Game "tictactoe"]',
            1,
            9,
            "noughts-record 2; this noughts reads version 1",
        ),
        ('[Format "pgn 1"]\n[Game "tictactoe"]', 1, 9, "not a noughts record"),
        ('[Format "noughts-record 1"]\n[Event "x"]', 1, 1, "a game names its game"),
        ('[Format "noughts-record 1"]\n[Game "mnk(3,3)"]', 2, 7, "mnk"),
        ('[Format "noughts-record 1"]\n[Game "tictactoe"]\n[Start "xxx/..."]', 3, 8, "cannot read position"),
        ('[Format "noughts-record 1"]\n[Game tictactoe]', 2, 7, "its value is a quoted string"),
        ('[Format "noughts-record 1"]\n[Game "tictactoe"', 2, 18, "a ] closes it"),
        ('[Format "noughts-record 1"]\n[1. "x"]', 2, 2, "a tag is [Name"),
        ('[Format "noughts-record 1"]\n[Game "tic\ntactoe"]', 2, 7, "runs to the end of its line"),
        (HEAD + '[Game "tictactoe"]', 3, 2, "given twice"),
        (HEAD + '[Result "won"]', 3, 9, "a result is first, second, draw or *"),
        (HEAD + '[9bad "x"]', 3, 2, "a tag's name"),
        (HEAD + '[Bad-name "x"]', 3, 2, "a tag's name"),
        (HEAD + '[Event "a\tb"]', 3, 8, "one line of text"),
        (HEAD + "1. b2 2. b2", 3, 10, "move 2: b2 is illegal: the cell is taken by x"),
        (HEAD + "1. b2 2. zz", 3, 10, "move 2: cannot read 'zz'"),
        (HEAD + "1. b2\n  2. a1 3. d4", 4, 12, "move 3: 'd4' is not a cell"),
        (HEAD + "a1 a2 b1 b2 c1 c2", 3, 16, "move 6 (c2) comes after the end of the game (x wins)"),
        (HEAD + "1.b2", 3, 1, "write the move number apart from the move"),
        (HEAD + "1. b2 2.", 3, 7, "move number 2. has no move after it"),
        (HEAD + "1. b2 2. 3. a1", 3, 10, "two move numbers in a row"),
        (HEAD + "1. b2 {open", 3, 7, "a comment opened here is never closed"),
        (HEAD + "1. b2 }", 3, 7, "a } closes no comment"),
        (HEAD + "1. b2 )", 3, 7, "a ) closes no variation"),
        (HEAD + "1. b2 (1. a1", 3, 13, "a variation is not closed"),
        (HEAD + "( 1. b2 )", 3, 1, "a variation ( ... ) follows the move it replaces"),
        (HEAD + "1. b2 ()", 3, 7, "a variation holds at least one move"),
        (HEAD + "1. b2 (1. b2 2. b2)", 3, 17, "move 2: b2 is illegal"),
        (HEAD + "$1 1. b2", 3, 1, "an annotation ($1) follows the move"),
        (HEAD + "1. b2 $300", 3, 7, "is no annotation"),
        (HEAD + '1. b2 "x"', 3, 7, "unexpected string among the moves"),
        (HEAD + "1. b2 ]", 3, 7, "unexpected ] among the moves"),
        (HEAD + "1. b2" + " (1. a1" * 70 + ")" * 70, 3, 7 + 64 * 7, "nest more than 64 deep"),
    ],
)
def test_bad_text_records_say_where(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_records(text)
    e = caught.value
    assert (e.line, e.column) == (line, column), str(e)
    assert message in str(e)
    assert str(e).startswith(f"line {line}, column {column}: ")
    assert "\n" not in str(e)


def test_read_file_names_the_file_not_its_folder(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "games.ntr"
    bad.write_text(HEAD + "1. b2 2. b2")
    with pytest.raises(RecordError) as caught:
        read_file(bad)
    assert str(caught.value).startswith("games.ntr: line 3, column 10: move 2")
    assert (caught.value.line, caught.value.column) == (3, 10)
    assert str(tmp_path) not in str(caught.value)
    (tmp_path / "latin1.ntr").write_bytes(b'[Event "caf\xe9"]')
    with pytest.raises(RecordError, match=r"latin1\.ntr is not UTF-8"):
        read_file(tmp_path / "latin1.ntr")
    with pytest.raises(RecordError, match=r"there is no file missing\.ntr"):
        read_file(tmp_path / "missing.ntr")
    with pytest.raises(RecordError, match="is a folder"):
        read_file(tmp_path)
    good = tmp_path / "good.ntr"
    good.write_text("\ufeff" + EXAMPLE)  # a byte-order mark is fine
    assert read_file(good) == [read_record(EXAMPLE)]


def test_the_moves_end_with_the_result() -> None:
    text = read_record(EXAMPLE).to_text()
    assert text.rstrip().endswith("9. c2 1/2-1/2")
    assert read_record(HEAD + "1. b2 2. a1 0-1").result is Outcome.SECOND  # no Result tag: the marker says
    assert read_record(HEAD + '[Result "second"]\n1. b2 0-1').result is Outcome.SECOND
    unfinished = Record("tictactoe").to_text()
    assert unfinished.endswith('[Result "*"]\n\n*\n')
    # a game without moves, then another: the marker ends the first
    records = read_records(unfinished + unfinished)
    assert len(records) == 2 and all(r.plies == 0 for r in records)


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (HEAD + '[Result "draw"]\n1. b2 1-0', 4, 7, "the moves end with 1-0 but the Result tag says 'draw'"),
        (HEAD + "a1 a2 b1 b2 c1 *", 3, 16, "the result is '*' but the moves end the game: x wins"),
        (HEAD + "1. b2 * 2. a1", 3, 9, "a game ends at its result"),
        (HEAD + "1. b2 (1. a1 *)", 3, 14, "a variation is not closed"),
        (
            HEAD + '\n[Format "noughts-record 1"]\n[Game "tictactoe"]',
            4,
            2,
            "given twice in one game (a game's moves end",
        ),
    ],
)
def test_bad_results_say_where(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_records(text)
    assert (caught.value.line, caught.value.column) == (line, column), str(caught.value)
    assert message in str(caught.value)
