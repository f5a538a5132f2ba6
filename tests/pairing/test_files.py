"""Pairing files (versioned JSON, validated on load), grids as in the figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import noughts
from noughts.core import NoughtsError, Player
from noughts.pairing.files import (
    load_pairing,
    pairing_from_grid,
    pairing_from_json,
    pairing_grid,
    pairing_json,
)
from noughts.pairing.matching import find_pairing

MB44 = noughts.game("maker_breaker(mnk(4,4,4))")


def test_round_trip(tmp_path: Path) -> None:
    pairing = find_pairing(MB44.parse("..../..o./..../x...")).pairing
    assert pairing is not None
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pairing_json(pairing)))
    assert load_pairing(path) == pairing
    assert load_pairing(path, MB44, Player.SECOND) == pairing


def test_grid_round_trip() -> None:
    text = "7 5 1 1/4 5 o 6/4 2 2 6/x 3 3 7"
    pairing = pairing_from_grid(MB44, text)
    drawn = pairing_grid(pairing.position, pairing.pairs).splitlines()[1:]
    again = "/".join(" ".join(row.split()[1:]) for row in drawn)
    assert pairing_from_grid(MB44, again) == pairing


def test_3d_grid_prints_layers() -> None:
    game = noughts.game("hypercube(8,3)")
    pairing = find_pairing(game.start()).pairing
    assert pairing is not None
    text = pairing_grid(game.start(), pairing.pairs)
    assert text.count("layer") == 8
    tokens = text.split()
    assert tokens.count("244") == 2 and "245" not in tokens and "." in tokens  # 512 - 488 = 24 unpaired
    assert tokens.count(".") == 24


BASE = {
    "format": "noughts-pairing",
    "version": 1,
    "game": "maker_breaker(mnk(4,4,4))",
    "position": "..../..o./..../x...",
    "pairs": [[[0, 2], [0, 3]]],
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "not a pairing file"),
        ({"version": 2}, "version 2 is not supported"),
        ({"game": "mnk(4,4"}, "mnk"),
        ({"game": "misere(mnk(4,4,4))"}, "no breaking side"),
        ({"position": "xx../..../..../...."}, "cannot read position"),
        ({"pairs": "a1 b1"}, "'pairs' must be a list"),
        ({"pairs": [[[0, 2]]]}, "pair 1 must be a list of two cells"),
        ({"pairs": [[[0, 2], [0, 9]]]}, "off the board"),
        ({"pairs": [[[0, 2], [0, 1, 1]]]}, "is not a cell"),
        ({"pairs": [[[0, 2], [1, 2]]]}, "already claimed"),
        ({"pairs": [[[0, 2], [0, 3]], [[0, 3], [1, 3]]]}, "pairs 1 and 2 overlap"),
        ({"pairs": [[[0, 2], [0, 2]]]}, "overlap"),
        ({"breaker": "first"}, "Breaker"),
        ({"breaker": "third"}, "'breaker' is 'first' or 'second'"),
    ],
)
def test_bad_files_get_one_clear_message(change: dict[str, object], message: str) -> None:
    with pytest.raises(NoughtsError, match=message):
        pairing_from_json({**BASE, **change})


def test_load_errors(tmp_path: Path) -> None:
    with pytest.raises(NoughtsError, match="cannot read pairing file"):
        load_pairing(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(NoughtsError, match="not valid JSON"):
        load_pairing(bad)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(BASE))
    with pytest.raises(NoughtsError, match="not of mnk"):
        load_pairing(good, noughts.game("mnk(4,4,4)"))
    with pytest.raises(NoughtsError, match="second player's, not the first"):
        pairing_from_json({**BASE, "game": "mnk(4,4,4)", "breaker": "second"}, breaker=Player.FIRST)


def test_bad_grids() -> None:
    with pytest.raises(NoughtsError, match="4 rows of 4"):
        pairing_from_grid(MB44, "1 1/2 2")
    with pytest.raises(NoughtsError, match="exactly two cells; 3"):
        pairing_from_grid(MB44, "1 1 2 2/3 . . ./. . . ./. . . .")
    with pytest.raises(NoughtsError, match="cannot read 'q'"):
        pairing_from_grid(MB44, "q . . ./. . . ./. . . ./. . . .")
