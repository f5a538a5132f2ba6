"""Observation planes against the public API: the moves each side made, marks and scores."""

from __future__ import annotations

import random

import numpy as np
import pytest
from envs_cases import ENV_GAMES

import noughts
from noughts.core import NotaktoMove, Player, Position, Ring, Veto
from noughts.envs.observation import ObservationEncoder


def _cell_of(move: object) -> int | None:
    """The board cell a move claims (Otrio: the cube cell of the ring), None for a veto step."""
    if isinstance(move, Veto):
        return None
    if isinstance(move, Ring):
        return 3 * move.cell + move.size
    if isinstance(move, NotaktoMove):
        return move.cell
    assert isinstance(move, int)
    return move


def _grid_point(game: noughts.Game, cell: int) -> tuple[int, ...]:
    return game.board.coords[cell]


def _playthroughs(spec: str, games: int = 6):
    """Random games, yielding each position with who claimed which cell so far."""
    game = noughts.game(spec)
    rng = random.Random(spec)
    for _ in range(games):
        p = game.start()
        owners: dict[int, Player] = {}
        yield p, owners
        while not p.is_terminal():
            move = rng.choice(p.legal_moves())
            cell = _cell_of(move)
            if cell is not None and not isinstance(move, NotaktoMove):
                owners = {**owners, cell: p.to_move}
            p = p.play(move)
            yield p, owners


@pytest.mark.parametrize("spec", [s for s in ENV_GAMES if not s.startswith("notakto")])
def test_own_and_opponent_planes_are_the_cells_each_side_claimed(spec: str) -> None:
    game = noughts.game(spec)
    enc = ObservationEncoder(game)
    own, opp, first = (enc.plane_names.index(n) for n in ("own", "opponent", "is_first"))
    assert enc.shape == (*game.board.grid, enc.num_planes)
    for p, owners in _playthroughs(spec):
        for player in Player:
            obs = enc.encode(p, player)
            assert obs.shape == enc.shape and obs.dtype == np.float32
            for cell in range(game.board.num_cells):
                at = _grid_point(game, cell)
                assert obs[(*at, own)] == (owners.get(cell) == player)
                assert obs[(*at, opp)] == (owners.get(cell) == player.other)
            assert (obs[..., first] == (player is Player.FIRST)).all()
            assert (obs <= enc.high).all() and (obs >= 0).all()
            if "on_board" in enc.plane_names:
                on = obs[..., enc.plane_names.index("on_board")]
                assert on.sum() == game.board.num_cells
            if p.score() is not None:
                s = p.score()
                mine = obs[..., enc.plane_names.index("own_score")]
                theirs = obs[..., enc.plane_names.index("opponent_score")]
                assert (mine == s[player]).all() and (theirs == s[player.other]).all()


@pytest.mark.parametrize("spec", ["veto(tictactoe)", "veto(cumulative(mnk(3,3,3)))"])
def test_veto_planes_follow_the_step(spec: str) -> None:
    game = noughts.game(spec)
    enc = ObservationEncoder(game)
    names = enc.plane_names
    vetoed, step, passed = (names.index(n) for n in ("vetoed", "veto_step", "passed"))
    seen = set()
    for p, _ in _playthroughs(spec, games=10):
        obs = enc.encode(p, p.to_move)
        moves = p.legal_moves()
        at_veto = bool(moves) and isinstance(moves[0], Veto)
        assert (obs[..., step] == at_veto).all()
        text = p.text()
        assert (obs[..., passed] == text.endswith("!-")).all()
        if "!" in text and not text.endswith("!-") and not p.is_terminal():
            cell = game.board.parse_cell(text.rsplit("!", 1)[1])
            assert obs[..., vetoed].sum() == 1 and obs[(*game.board.coords[cell], vetoed)] == 1
            assert cell not in moves
            seen.add("vetoed")
        else:
            assert obs[..., vetoed].sum() == 0
        seen.add((at_veto, text.endswith("!-")))
    assert {"vetoed", (True, False), (False, True)} <= seen


def test_notakto_planes_are_the_marks_and_the_dead_boards() -> None:
    game = noughts.game("notakto(boards=2)")
    enc = ObservationEncoder(game)
    assert enc.plane_names == ("x", "dead", "is_first")
    assert enc.shape == (2, 3, 3, 3)
    n = game.board.num_cells
    for p, _ in _playthroughs("notakto(boards=2)", games=10):
        obs = enc.encode(p, p.to_move)
        marks = game.marks(p)
        for b in range(2):
            for c in range(n):
                assert obs[(b, *game.board.coords[c], 0)] == (marks[b * n + c] == "x")
            live = any(m.board == b for m in p.legal_moves())
            if not p.is_terminal():
                assert (obs[b, ..., 1] == (not live)).all()


def test_a_position_of_another_game_is_refused() -> None:
    enc = ObservationEncoder(noughts.game("tictactoe"))
    other: Position = noughts.game("misere(tictactoe)").start()
    with pytest.raises(noughts.NoughtsError, match="not of mnk"):
        enc.encode(other, Player.FIRST)
