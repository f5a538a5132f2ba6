"""``noughts brain`` under a scripted Gomocup manager: a process driven through whole games and
every command, each answer checked for its form and its legality (never for its time).
"""

import queue
import re
import subprocess
import threading

import pytest
from typer.testing import CliRunner

import noughts
from gomocup_engines import brain_command
from noughts.agents.gomocup import cell_of, xy_of
from noughts.cli.app import app

MOVE = re.compile(r"^(\d+),(\d+)$")


class Manager:
    """A Gomocup manager in a few lines: sends commands, reads answers (MESSAGE and DEBUG lines
    skipped), keeps the game to check every move the brain plays.
    """

    def __init__(self, agent="random"):
        command, env = brain_command(agent)
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, bufsize=1
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.game = None
        self.position = None

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, *lines):
        self.proc.stdin.write("".join(f"{line}\r\n" for line in lines))  # managers end lines CR LF
        self.proc.stdin.flush()

    def answer(self, timeout=120):
        while True:
            line = self.lines.get(timeout=timeout)
            assert line is not None, "the brain exited"
            if not line.startswith(("MESSAGE", "DEBUG")):
                return line

    def ask(self, *lines):
        self.send(*lines)
        return self.answer()

    def start(self, width, height=None):
        answer = self.ask(f"START {width}" if height is None else f"RECTSTART {width},{height}")
        assert answer == "OK"
        self.game = noughts.game(f"mnk({height or width},{width},5)")
        self.position = self.game.start()

    def brain_move(self, answer):
        m = MOVE.match(answer)
        assert m, f"not a move: {answer!r}"
        cell = cell_of(self.game, int(m.group(1)), int(m.group(2)))
        assert cell is not None and cell in self.position.legal_moves(), f"illegal move {answer}"
        self.position = self.position.play(cell)
        return cell

    def turn(self, cell):
        self.position = self.position.play(cell)
        x, y = xy_of(self.game, cell)
        return self.ask(f"TURN {x},{y}")

    def close(self):
        if self.proc.poll() is None:
            self.send("END")
            assert self.proc.wait(timeout=30) == 0
        self.proc.stdout.close()
        self.proc.stdin.close()


def play_out(manager, brain_first, rng_seed=0):
    """A whole game: the manager plays the lowest-numbered cells of a shuffled order."""
    import numpy as np

    order = list(np.random.default_rng(rng_seed).permutation(manager.game.board.num_cells))
    if brain_first:
        manager.brain_move(manager.ask("BEGIN"))
    brain_moves = 0
    while not manager.position.is_terminal():
        cell = next(int(c) for c in order if int(c) in manager.position.legal_moves())
        manager.position = manager.position.play(cell)
        if manager.position.is_terminal():
            break
        x, y = xy_of(manager.game, cell)
        manager.brain_move(manager.ask(f"TURN {x},{y}"))
        brain_moves += 1
    return brain_moves


def test_a_scripted_manager_drives_every_command():
    m = Manager("random")
    try:
        about = m.ask("ABOUT")
        assert re.match(r'^name="noughts", version="[^"]+", author="[^"]+", rules="freestyle', about)
        m.start(15)
        for line in (
            "INFO timeout_turn 200",
            "INFO timeout_match 60000",
            "INFO time_left 60000",
            "INFO max_memory 83886080",
            "INFO game_type 1",
            "INFO rule 0",
            "INFO folder /tmp",
        ):
            m.send(line)  # INFO has no answer: the next answer is the move's
        assert play_out(m, brain_first=True) > 0
        assert m.position.outcome() is not None
        # RESTART, then a whole position (BOARD), the brain second to move
        assert m.ask("RESTART") == "OK"
        m.position = m.game.start()
        for cell in (112, 113, 127):
            m.position = m.position.play(cell)
        fields = [f"{','.join(map(str, xy_of(m.game, c)))},{2 if c != 113 else 1}" for c in (112, 113, 127)]
        m.send("BOARD", *fields)
        reply = m.brain_move(m.ask("DONE"))
        # TAKEBACK the brain's move, then play a move there ourselves
        x, y = xy_of(m.game, reply)
        assert m.ask(f"TAKEBACK {x},{y}") == "OK"
        m.position = m.game.start().play(112).play(113).play(127)
        m.position = m.position.play(reply)
        m.brain_move(m.ask(f"TURN {x},{y}"))
        # a rectangular board, 20 wide and 10 high
        m.start(20, 10)
        m.brain_move(m.turn(m.game.board.cell_at((9, 19))))
        # refusals
        assert m.ask("START 4").startswith("ERROR")
        assert m.ask("RECTSTART 40,10").startswith("ERROR")
        m.start(15)
        assert m.ask("BEGIN") and m.ask("BEGIN").startswith("ERROR")  # not an empty board
        assert m.ask("TURN 15,15").startswith("ERROR")
        assert m.ask("SWAP2BOARD").startswith("UNKNOWN")
        m.send("BOARD", "1,1,3")
        assert m.ask("DONE").startswith("ERROR field 3")
        assert m.ask("INFO rule 4").startswith("ERROR unsupported rule 4 (renju)")
        assert m.ask("RESTART").startswith("ERROR unsupported rule")
        assert m.ask("INFO rule 1").startswith("ERROR unsupported rule 1 (exactly five")
    finally:
        m.close()
    assert m.proc.returncode == 0  # END: the brain exits at once


def test_the_engine_plays_whole_games_on_a_short_clock():
    """The default agent (the engine) under a 300 ms turn and a match clock, both colours."""
    m = Manager("engine")
    try:
        m.start(15)
        m.send("INFO timeout_turn 300", "INFO timeout_match 20000", "INFO time_left 20000", "INFO rule 0")
        for brain_first in (True, False):
            assert m.ask("RESTART") == "OK"
            m.position = m.game.start()
            play_out(m, brain_first, rng_seed=int(brain_first))
            assert m.position.outcome() is not None
    finally:
        m.close()


def test_bad_agent_is_one_line_and_status_2():
    r = CliRunner().invoke(app, ["brain", "--agent", "nope"])
    assert r.exit_code == 2 and "unknown agent 'nope'" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(app, ["brain", "--agent", "mcts:sims=lots"])
    assert r.exit_code == 2 and "whole number" in r.output


@pytest.mark.parametrize("line", ["ABOUT", "END"])
def test_brain_in_process(line):
    r = CliRunner().invoke(app, ["brain", "--agent", "random"], input=f"{line}\n")
    assert r.exit_code == 0
    assert (r.stdout.startswith('name="noughts"')) == (line == "ABOUT")


def test_the_pbrain_noughts_executable():
    """The console script's entry point (pyproject's pbrain-noughts), run as a process."""
    import subprocess
    import sys

    _, env = brain_command()
    run = [sys.executable, "-c", "from noughts.cli.brain import main; main()"]
    done = subprocess.run(run, input="ABOUT\nEND\n", capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith('name="noughts"')
    bad = subprocess.run([*run, "--agent", "nope"], capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 2 and bad.stderr.strip().startswith(
        "pbrain-noughts: error: unknown agent 'nope'"
    )
    assert len(bad.stderr.strip().splitlines()) == 1
