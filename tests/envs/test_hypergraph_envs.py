"""Boards given by their lines in the learning environments, the records and the review (issue
27): Gymnasium's and PettingZoo's own checkers pass; a board of points without coordinates is
observed over its points (one axis), a plane over its grid; a game on the Fano plane written as
a record reads back the same and is reviewed move by move against the solver."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import noughts
from noughts.core import Outcome, Player
from noughts.envs.aec import env as aec_env
from noughts.envs.gym_env import make_env
from noughts.envs.observation import ObservationEncoder
from noughts.record import Record, read_record, write_records

FANO = 'hypergraph("a b c / a d e / a f g / b d f / b e g / c d g / c e f")'
SPECS = [FANO, "affine(3)", "maker_breaker(torus(4,4,3))", f"misere({FANO})"]


@pytest.mark.parametrize("spec", SPECS)
def test_the_libraries_checkers_pass(spec: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(make_env(spec, side="random"), skip_render_check=True)
        api_test(aec_env(spec), num_cycles=100)


def test_points_without_coordinates_are_observed_over_the_points() -> None:
    game = noughts.game(FANO)
    encoder = ObservationEncoder(game)
    assert encoder.shape == (7, 3) and encoder.plane_names == ("own", "opponent", "is_first")
    position = game.start()
    for name in ["c", "f", "g"]:
        position = position.play(game.parse_move(name))
    seen = encoder.encode(position, Player.SECOND)  # o holds f
    assert np.flatnonzero(seen[:, 0]).tolist() == [5] and np.flatnonzero(seen[:, 1]).tolist() == [2, 6]
    assert ObservationEncoder(noughts.game("affine(3)")).shape == (3, 3, 3)  # coordinates: the grid
    placed = noughts.game('hypergraph("a b / b c", at="0,0 0,1 1,1")')
    assert ObservationEncoder(placed).shape == (2, 2, 4)  # a grid with a hole: on_board


def test_a_fano_record_reads_back_and_is_reviewed(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from noughts.cli.app import app

    record = Record(FANO, ["a", "d", "b", "e", "c"], first="ann", second="bob")
    assert record.result is Outcome.FIRST
    text = write_records([record])
    again = read_record(text)
    assert again == record and str(again.game) == FANO
    path = tmp_path / "fano.txt"
    path.write_text(text)
    r = CliRunner().invoke(app, ["review", str(path), "--json"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    moves = doc["moves"]
    assert [m["move"] for m in moves] == ["a", "d", "b", "e", "c"]
    assert all(m["before"]["value"] == "first" and m["exact"] for m in moves)  # PG(2,2): x wins
    assert moves[0]["best"] == list("abcdefg")  # its group moves every point to every other
    assert moves[3]["class"] != "best" and moves[3]["best"] == ["c"]  # o had to block a b c
    assert moves[3]["after"]["text"] == "x wins in 1"
