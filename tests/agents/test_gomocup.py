"""The Gomocup protocol's library (no processes): coordinates, rules, the brain's state machine
with a scripted thinker, its clock, and the manager's commands.
"""

import numpy as np
import pytest

import noughts
from noughts.agents.base import RandomAgent
from noughts.agents.gomocup import (
    AgentThinker,
    BrainSession,
    Clock,
    board_game,
    cell_of,
    check_gomoku,
    format_xy,
    move_commands,
    parse_xy,
    read_answer,
    rule_name,
    start_commands,
    xy_of,
)
from noughts.core import NoughtsError, Player


class Scripted:
    """A thinker that plays the lowest free cell and remembers what it was asked."""

    name = "scripted"

    def __init__(self):
        self.prepared = []
        self.asked = []

    def prepare(self, game):
        self.prepared.append(str(game))

    def think(self, position, seconds):
        self.asked.append((position, seconds))
        return min(position.legal_moves())


def session(**clock):
    return BrainSession(Scripted(), version="9", clock=Clock(**clock))


def test_coordinates_are_column_then_row_on_every_board():
    g = board_game(20, 10)  # 20 wide, 10 high: mnk(10 rows, 20 columns)
    assert str(g) == "mnk(10,20,5)" and check_gomoku(g) == (20, 10)
    for cell in range(g.board.num_cells):
        x, y = xy_of(g, cell)
        assert 0 <= x < 20 and 0 <= y < 10 and cell_of(g, x, y) == cell
    assert cell_of(g, 20, 0) is None and cell_of(g, 0, 10) is None and cell_of(g, -1, 0) is None
    # x is the column letter, y the row number (both from 0; rows from the top, as noughts names them)
    assert g.format_move(cell_of(g, 2, 5)) == "c6" and format_xy(g, g.parse_move("t10")) == "19,9"


def test_rules_and_sizes():
    assert rule_name(0) == "freestyle" and rule_name(4) == "renju" and "caro" in rule_name(8)
    for bad in ((4, 15, 0), (15, 33, 0), (15, 15, 1), (15, 15, 4), (15, 15, 2)):
        with pytest.raises(NoughtsError):
            board_game(*bad)
    for game in ("tictactoe", "misere(mnk(15,15,5))", "mnk(15,15,6)", "hypercube(5,2)", "mnk(40,40,5)"):
        with pytest.raises(NoughtsError, match="freestyle gomoku"):
            check_gomoku(noughts.game(game))


def test_parse_xy_and_answers():
    assert parse_xy(" 3 , 14 ") == (3, 14) and parse_xy("3,") is None and parse_xy("a,b") is None
    assert [
        read_answer(t).kind
        for t in ("7,7", "OK", "ok", "ERROR x", "UNKNOWN y", "MESSAGE hi", "DEBUG", 'name="x"')
    ] == [
        "move",
        "ok",
        "ok",
        "error",
        "unknown",
        "message",
        "message",
        "about",
    ]
    assert read_answer("SWAP").kind == "other" and read_answer("1,2 3,4").kind == "other"


def test_a_game_through_the_session():
    s = session(turn_ms=1000)
    assert s.handle("ABOUT")[0].startswith('name="noughts", version="9"')
    assert s.handle("START 15") == ["OK"] and s.thinker.prepared == ["mnk(15,15,5)"]
    assert s.handle("INFO timeout_turn 2000") == [] and s.clock.turn_ms == 2000
    assert s.handle("begin") == ["0,0"]  # commands in any case; the lowest free cell
    assert s.handle("TURN 7,7") == ["1,0"]
    position, seconds = s.thinker.asked[-1]
    assert position.owned(Player.SECOND) == 1 << cell_of(s.game, 7, 7)  # the opponent's stone, seen
    assert 0 < seconds <= 2.0
    assert s.handle("TAKEBACK 1,0") == ["OK"] and s.handle("TAKEBACK 7,7") == ["OK"]
    assert s.position.occupied() == 1 << cell_of(s.game, 0, 0)
    assert s.handle("TURN 1,0") == ["2,0"]
    assert s.handle("RESTART") == ["OK"] and not s.position.occupied()
    s.handle("END")
    assert s.ended


def test_board_sets_the_position_and_the_side():
    s = session()
    s.handle("START 15")
    assert s.handle("BOARD") == [] and s.handle("7,7,2") == [] and s.handle("8,8,1") == []
    assert s.handle("9,9,2") == []
    answer = s.handle("DONE")
    position, _ = s.thinker.asked[-1]
    # the opponent has one stone more: it moved first, the brain is the second player
    assert position.to_move is Player.SECOND and answer == ["0,0"]
    assert position.owned(Player.FIRST) == (1 << cell_of(s.game, 7, 7)) | (1 << cell_of(s.game, 9, 9))
    # as many stones each: the brain moved first
    s.handle("BOARD")
    for line in ("7,7,1", "8,8,2", "DONE"):
        out = s.handle(line)
    assert s.thinker.asked[-1][0].to_move is Player.FIRST and out == ["0,0"]


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        (["BOARD", "7,7,3", "DONE"], "field 3"),
        (["BOARD", "7,7,1", "8,8,1", "DONE"], "one fewer"),
        (["BOARD", "7,7,1", "7,7,2", "DONE"], "twice"),
        (["BOARD", "99,7,1", "DONE"], "off the board"),
        (["BOARD", "7;7;1", "DONE"], "x,y,field"),
        (["TURN 7,7", "TURN 7,7"], "already taken"),
        (["TURN 15,0"], "off the 15x15 board"),
        (["TURN seven"], "write x,y"),
        (["BEGIN", "BEGIN"], "empty board"),
        (["TAKEBACK 3,3"], "not a stone"),
        (["INFO timeout_turn soon"], "whole number"),
        (["INFO rule 4"], "renju"),
        (["INFO rule 1", "BEGIN"], "exactly five"),
    ],
)
def test_what_the_brain_refuses(lines, said):
    s = session()
    s.handle("START 15")
    out = [a for line in lines for a in s.handle(line)]
    assert out[-1].startswith("ERROR") and said in out[-1], out


def test_before_start_and_unknown():
    s = session()
    assert s.handle("BEGIN")[0].startswith("ERROR no board")
    assert s.handle("START 4")[0].startswith("ERROR unsupported board width 4")
    assert s.handle("RECTSTART 20") == ["ERROR RECTSTART takes width,height, not '20'"]
    assert s.handle("SWAP2BOARD")[0].startswith("UNKNOWN")
    assert s.handle("") == [] and s.handle("INFO folder /tmp/x") == [] and s.settings["folder"] == "/tmp/x"
    assert s.handle("RECTSTART 20,10") == ["OK"] and s.handle("TURN 19,9") == ["0,0"]


def test_a_finished_game_is_not_played_on():
    s = session()
    s.handle("START 15")
    s.handle("BOARD")
    for x in range(4):  # the opponent's four on row 5, the brain's stones elsewhere
        s.handle(f"{x},5,2")
        s.handle(f"{x},9,1")
    s.handle("DONE")
    assert s.handle("TURN 4,5")[0].startswith("ERROR the game is over")


def test_the_clock_gives_a_move_its_share():
    assert Clock(turn_ms=1000).move_seconds() == pytest.approx(0.75)
    assert Clock(turn_ms=0).move_seconds() == Clock.FAST  # 0: play at once
    # a match clock: a twentieth of what is left, never above the turn's share
    assert Clock(turn_ms=5000, match_ms=60_000, left_ms=10_000).move_seconds() == pytest.approx(0.45)
    assert Clock(turn_ms=1000, match_ms=600_000).move_seconds() == pytest.approx(0.75)
    assert Clock(turn_ms=1000, match_ms=60_000, left_ms=0).move_seconds() == 0.001
    for turn in (1, 50, 300, 1000, 30_000):
        for left in (None, 0, 500, 10_000):
            c = Clock(turn_ms=turn, match_ms=100_000, left_ms=left)
            assert 0 < c.move_seconds() <= max(turn / 1000, 0.001)


def test_the_session_spends_the_match_clock():
    now = iter(float(t) for t in range(100))
    s = BrainSession(Scripted(), clock=Clock(turn_ms=5000), now=lambda: next(now))
    s.handle("START 15")
    for line in ("INFO timeout_match 100000", "INFO time_left 50000"):
        s.handle(line)
    s.handle("BEGIN")  # the fake clock says the move took 1 s
    assert s.clock.left_ms == 49_000
    assert s.thinker.asked[-1][1] == pytest.approx(50 / Clock.SPREAD - Clock.MARGIN)


def test_manager_commands():
    g = board_game(15, 15)
    assert start_commands(board_game(20, 10), {"rule": 0}) == ["RECTSTART 20,10", "INFO rule 0"]
    empty = g.start()
    assert move_commands(None, empty) == ["BEGIN"]
    p = empty.play(cell_of(g, 7, 7)).play(cell_of(g, 8, 8))
    assert move_commands(p, empty) == ["RESTART", "BEGIN"]
    q = p.play(cell_of(g, 6, 6))
    assert move_commands(p, q) == ["TURN 6,6"]
    # the brain (second player) never saw these stones: the whole board, its own stones as 1
    assert move_commands(None, q) == ["BOARD", "6,6,2", "8,8,1", "7,7,2", "DONE"]  # first, second, first
    r = q.play(cell_of(g, 0, 0)).play(cell_of(g, 1, 1))
    assert move_commands(p, r)[:2] == ["RESTART", "BOARD"] and move_commands(p, r)[-1] == "DONE"


def test_agent_thinker_plays_legal_moves():
    thinker = AgentThinker(RandomAgent(), np.random.default_rng(0))
    g = board_game(9, 9)
    thinker.prepare(g)
    position = g.start()
    while not position.is_terminal():
        position = position.play(thinker.think(position, 0.01))
    assert position.outcome() is not None
