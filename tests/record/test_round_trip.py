"""Write, read back, compare: random games of every registered game, with random comments,
annotations, tags and nested variations, through the text form and through JSON.

The games are every registry entry's examples (the ones ``noughts games`` prints), so a rules
family added to the registry is covered here at once.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import noughts
from noughts.cli.views import example_specs
from noughts.core import ENTRIES, Position
from noughts.record import Line, Node, Record, read_record, read_records, write_records

SPECS = sorted(
    {spec for entry in ENTRIES.values() for spec in example_specs(entry)}
    | {
        "notakto(boards=2)",
        "veto(cumulative(mnk(3,3,3)))",
        "hypercube(3,1)",
        'shape("#.#/.#./#.#",2)',
        "maker_breaker(mnk(3,4,3),breaker_first=true)",
    }
)

MAX_PLIES = 40  # games that need not end are cut here

TEXT = st.text(
    st.characters(
        blacklist_categories=("Cs",),
        blacklist_characters="".join(chr(c) for c in [*range(9), 11, 12, *range(14, 32), 127]),
    ),
    max_size=30,
)
ONE_LINE = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20)
TAG_NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True).filter(
    lambda n: n not in ("Format", "Game", "First", "Second", "Result", "Start")
)


def _line(data: st.DataObject, position: Position, depth: int, plies: int) -> tuple[Line, Position]:
    nodes = []
    for _ in range(plies):
        if position.is_terminal():
            break
        moves = position.legal_moves()
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        variations = []
        if depth < 2 and data.draw(st.integers(0, 4)) == 0:
            variation, _ = _line(data, position, depth + 1, data.draw(st.integers(1, 4)))
            if variation.moves:
                variations.append(variation)
        nodes.append(
            Node(
                position.game.format_move(move),
                data.draw(st.none() | TEXT),
                tuple(data.draw(st.lists(st.integers(0, 255), max_size=2))),
                tuple(variations),
            )
        )
        position = position.play(move)
    return Line(tuple(nodes), data.draw(st.none() | TEXT)), position


def _record(data: st.DataObject, spec: str) -> Record:
    game = noughts.game(spec)
    start = game.start()
    if data.draw(st.booleans()):  # a game from a later position
        for _ in range(data.draw(st.integers(0, 3))):
            if start.is_terminal():
                break
            moves = start.legal_moves()
            start = start.play(moves[data.draw(st.integers(0, len(moves) - 1))])
    line, final = _line(data, start, 0, data.draw(st.integers(0, MAX_PLIES)))
    result = final.outcome() if final.is_terminal() else data.draw(st.sampled_from([None, *noughts.Outcome]))
    return Record(
        game,
        line,
        first=data.draw(ONE_LINE.filter(str.strip) | st.just("?")),
        second=data.draw(ONE_LINE.filter(str.strip) | st.just("?")),
        result=result,
        start=start,
        tags=data.draw(st.dictionaries(TAG_NAMES, ONE_LINE, max_size=4)),
    )


@pytest.mark.parametrize("spec", SPECS)
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(data=st.data())
def test_write_read_equal(spec: str, data: st.DataObject) -> None:
    record = _record(data, spec)
    text = record.to_text()
    assert read_record(text) == record
    assert read_record(text).to_text() == text
    doc = json.loads(json.dumps(record.to_json(positions=True)))
    assert Record.from_json(doc) == record
    assert Record.from_json(record.to_json()) == record
    assert [p.text() for p in record.positions()][-1] == record.final.text()


def test_every_registered_rules_family_is_covered() -> None:
    for name in ENTRIES:
        assert any(spec == name or spec.startswith(name + "(") or f"({name}(" in spec for spec in SPECS), name


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(data=st.data())
def test_a_file_of_many_games(data: st.DataObject) -> None:
    specs = data.draw(
        st.lists(
            st.sampled_from(SPECS[:8] + ["tictactoe", "otrio", "veto(tictactoe)"]), min_size=1, max_size=4
        )
    )
    records = [_record(data, spec) for spec in specs]
    assert read_records(write_records(records)) == records
