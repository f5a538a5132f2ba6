"""The ``pbrain:PATH`` agent: external Gomocup engines as processes, in matches, with every way
an engine can fail reported as a forfeit.
"""

import json
import re

import numpy as np
import pytest
from typer.testing import CliRunner

import noughts
from gomocup_engines import brain_engine, fake_engine
from noughts.agents import make_agent
from noughts.agents.base import AgentForfeit, check_plays, decide
from noughts.agents.pbrain import PbrainAgent
from noughts.arena.match import play_game, play_match
from noughts.cli.app import app
from noughts.core import NoughtsError, Outcome, Player
from noughts.record import Record

GOMOKU = "mnk(9,9,5)"


def test_specs_and_bad_paths(tmp_path):
    exe = fake_engine(tmp_path / "e")
    agent = make_agent(f"pbrain:{exe},seconds=0.5,nodes=1000,grace=0.5")
    assert agent.name == f"pbrain:{exe},nodes=1000,seconds=0.5" and agent.seconds == 0.5
    assert agent.agent.nodes == 1000 and agent.agent.grace == 0.5
    assert make_agent(f"pbrain:path={exe}").path == exe.resolve()
    not_exe = tmp_path / "plain.txt"
    not_exe.write_text("hi")
    for spec, said in [
        ("pbrain:", "pbrain:PATH"),
        (f"pbrain:{tmp_path / 'nope'}", "there is no file"),
        (f"pbrain:{tmp_path}", "there is no file"),
        (f"pbrain:{not_exe}", "not executable"),
        (f"pbrain:{exe},speed=2", "unknown option(s) speed"),
        (f"pbrain:{exe},nodes=many", "whole number"),
        (f"pbrain:{exe},grace=0", "grace"),
        (f"pbrain:{exe},seconds=-1", "seconds"),
    ]:
        with pytest.raises(NoughtsError, match=said.replace("(", r"\(").replace(")", r"\)")):
            make_agent(spec)
    with pytest.raises(NoughtsError, match="freestyle gomoku"):
        check_plays(make_agent(f"pbrain:{exe}"), noughts.game("tictactoe"))


def test_two_pbrain_processes_play_a_match(tmp_path):
    """noughts' own brain (random agent, cheap) on both sides, each a process of its own."""
    a = f"pbrain:{brain_engine(tmp_path / 'a')},seconds=2"
    b = f"pbrain:{brain_engine(tmp_path / 'b')},seconds=2"
    r = play_match(GOMOKU, a, b, games=2, seed=3)
    assert r.games == 2 and not r.to_json()["forfeits"]
    for g in r.played:  # every move legal, every game played to its end
        record = Record(GOMOKU, list(g.moves))
        assert record.result is g.outcome and record.final.is_terminal()
    assert {g.first for g in r.played} == {"A", "B"}


def test_a_fake_engine_through_turn_board_and_restart(tmp_path):
    engine = PbrainAgent(fake_engine(tmp_path, "chatty"), seconds=1)
    game = noughts.game(GOMOKU)
    rng = np.random.default_rng(0)
    with pytest.raises(NoughtsError, match="freestyle gomoku"):
        engine.prepare(noughts.game("tictactoe"))
    engine.prepare(game)  # the process and START before any move's clock
    started = engine._process
    assert started is not None and started.proc.poll() is None
    p = game.start().play(40)
    first = decide(engine, p, rng)  # a fresh board: BOARD
    assert engine._process is started  # the same process
    assert first.move == 0 and "answered 0,0" in first.note and engine.stats.moves == 1
    p2 = p.play(first.move).play(41)
    assert decide(engine, p2, rng).move == 1  # TURN 5,4: the engine saw the stone (41 is row 4, col 5)
    jumped = game.start().play(80).play(10).play(79)  # another game: RESTART, BOARD
    assert decide(engine, jumped, rng).move == 0
    assert decide(engine, game.start(), rng).move == 0  # RESTART, BEGIN
    engine.close()


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("crash", r"crashed waiting for its move .*: it exited with status 3 \(it said: fake engine: boom\)"),
        ("hang", "did not give its move"),
        ("occupied", "a taken cell: an illegal move"),
        ("offboard", "off the board: an illegal move"),
        ("garbage", "answered 'SWAP', not a move x,y"),
        ("refuse", "refused START 9: ERROR fake engine: no such board"),
    ],
)
def test_a_misbehaving_engine_forfeits(tmp_path, mode, said):
    spec = f"pbrain:{fake_engine(tmp_path, mode)},seconds=1,grace=0.5"
    r = play_match(GOMOKU, spec, "random", games=2, seed=1)
    doc = r.to_json()
    assert r.a_losses == 2 and r.a_wins == 0, doc
    assert len(doc["forfeits"]) == 2 and all(
        re.search(said, f["reason"]) and f["reason"].startswith("A forfeits") for f in doc["forfeits"]
    )
    # the engine that moved first forfeits at its second move (the fake misbehaves from there)
    first_a = next(g for g in r.played if g.first == "A")
    assert first_a.outcome is Outcome.SECOND and len(first_a.moves) == (0 if mode == "refuse" else 2)


def test_a_forfeit_ends_the_process_and_the_next_game_starts_afresh(tmp_path):
    engine = PbrainAgent(fake_engine(tmp_path, "crash"), seconds=0.5)
    game = noughts.game(GOMOKU)
    rng = np.random.default_rng(0)
    reasons = []
    outcome, moves = play_game(
        engine, make_agent("random"), game.start(), rng, on_forfeit=lambda p, why: reasons.append((p, why))
    )
    assert outcome is Outcome.SECOND and len(moves) == 2 and reasons[0][0] is Player.FIRST
    assert engine._process is None and engine.stats.forfeits == 1
    assert decide(engine, game.start(), rng).move == 0  # a new process answers again
    with pytest.raises(AgentForfeit):
        decide(engine, game.start().play(0).play(40), rng)
    engine.close()


def test_match_command_reports_forfeits_and_refuses_bad_paths(tmp_path):
    env = {"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb", "XDG_DATA_HOME": str(tmp_path / "data")}
    runner = CliRunner()
    spec = f"pbrain:{fake_engine(tmp_path, 'occupied')},seconds=0.3"
    r = runner.invoke(
        app, ["match", spec, "random", GOMOKU, "--games", "2", "--json", "--no-record"], env=env
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["b_wins"] == 2 and len(doc["forfeits"]) == 2
    text = runner.invoke(app, ["match", spec, "random", GOMOKU, "--games", "1", "--no-record"], env=env)
    assert text.exit_code == 0 and "forfeit" in text.stdout and "taken cell" in text.stdout
    bad = runner.invoke(app, ["match", f"pbrain:{tmp_path / 'nope'}", "random", GOMOKU], env=env)
    assert bad.exit_code == 2 and "there is no file" in bad.output and "Traceback" not in bad.output
