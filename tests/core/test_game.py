"""The game protocol's value types: positions, players and outcomes."""

from __future__ import annotations

import copy
import pickle

import pytest
from core_cases import play_text

import noughts
from noughts import Outcome, Player, Position


def test_positions_are_immutable_values() -> None:
    g = noughts.game("tictactoe")
    p = play_text(g, "b2 a1")
    with pytest.raises(AttributeError, match="immutable"):
        p.to_move = Player.SECOND  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del p.state
    assert play_text(g, "b2 a1") == p and hash(play_text(g, "b2 a1")) == hash(p)
    assert play_text(g, "a1 b2") != p  # same marks, other owners
    assert len({p, play_text(g, "b2 a1"), g.start()}) == 2


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy])
def test_positions_copy_to_themselves(how: object) -> None:
    p = play_text(noughts.game("tictactoe"), "b2")
    assert how(p) is p  # type: ignore[operator]
    assert how({"positions": [p]}) == {"positions": [p]}  # type: ignore[operator]


def test_positions_of_different_games_differ() -> None:
    a = noughts.game("tictactoe").start().play(4)
    b = noughts.game("misere(tictactoe)").start().play(4)
    assert a.state == b.state and a != b
    assert a != a.text()


def test_positions_are_not_pickled() -> None:
    p = noughts.game("tictactoe").start()
    with pytest.raises(TypeError, match=r"save position\.text"):
        pickle.dumps(p)


def test_position_repr_and_render() -> None:
    p = play_text(noughts.game("tictactoe"), "b2")
    assert repr(p) == "Position('mnk(3,3,3)', '.../.x./...')"
    assert str(p) == p.render()
    assert p.render().splitlines() == ["  a b c", "1 . . .", "2 . x .", "3 . . ."]
    assert isinstance(p, Position)


def test_play_action_is_play_of_the_move() -> None:
    g = noughts.game("veto(tictactoe)")
    p = g.start()
    for m in p.legal_moves():
        assert p.play_action(g.action(m)) == p.play(m)


def test_players_and_outcomes() -> None:
    assert Player.FIRST.other is Player.SECOND and Player.SECOND.other is Player.FIRST
    assert str(Player.FIRST) == "first"
    assert Outcome.win_for(Player.SECOND) is Outcome.SECOND
    assert Outcome.FIRST.winner is Player.FIRST and Outcome.DRAW.winner is None
    assert str(Outcome.SECOND) == "second player wins" and str(Outcome.DRAW) == "draw"
    assert [o.value for o in Outcome] == ["first", "second", "draw"]
