"""Helpers shared by the CLI tests: run the command, and read back what it printed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from typer.testing import CliRunner, Result

import noughts
from noughts.agents import RandomAgent
from noughts.cli.app import app
from noughts.core import Game, Player, Position

# wide and colourless, so the output can be compared line by line with the library's text
ENV = {"COLUMNS": "200", "NO_COLOR": "1", "FORCE_COLOR": None, "TERM": "dumb"}

NOUGHTS = Path(sys.executable).with_name("noughts")


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=input, env=ENV)


def run_script(*args: str, stdin: int | None = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    """Run the installed console script (``.venv/bin/noughts``) as a user would."""
    env = {"PATH": "/usr/bin:/bin", "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    for name in ("XDG_DATA_HOME", "NOUGHTS_PROJECT_STORE"):  # the tests' own store (tests/conftest.py)
        if name in os.environ:
            env[name] = os.environ[name]
    return subprocess.run(
        [str(NOUGHTS), *args], stdin=stdin, capture_output=True, text=True, timeout=120, env=env
    )


_PLAYS = re.compile(r"^(?P<label>.+) plays (?P<move>\S+)$")


@dataclass
class Replay:
    """A game read back from a transcript and replayed with the library."""

    game: Game
    positions: list[Position]
    moves: list[str]

    @property
    def final(self) -> Position:
        return self.positions[-1]


def replay(spec: str, output: str, start: Position | None = None) -> Replay:
    """Replay every 'LABEL plays MOVE' line of ``output`` from the start, checking each LABEL."""
    game = noughts.game(spec)
    positions = [game.start() if start is None else start]
    moves = []
    for line in output.splitlines():
        m = _PLAYS.match(line)
        if m is None:
            continue
        position = positions[-1]
        assert m["label"] == game.player_label(position.to_move), line
        positions.append(position.play(game.parse_move(m["move"])))
        moves.append(m["move"])
    return Replay(game, positions, moves)


def random_moves(game: Game, seed: int) -> list[str]:
    """The moves two random agents sharing one generator seeded with ``seed`` make."""
    rng = np.random.default_rng(seed)
    position, agent, moves = game.start(), RandomAgent(), []
    while not position.is_terminal():
        move = agent.choose(position, rng)
        moves.append(game.format_move(move))
        position = position.play(move)
    return moves


def result_line(game: Game, position: Position) -> str:
    """The last line ``noughts play`` prints for a finished game, built from the library."""
    outcome = position.outcome()
    assert outcome is not None
    text = game.outcome_text(outcome)
    score = position.score()
    if score is not None:
        first, second = (game.player_label(p) for p in Player)
        text += f" (score: {first} {score[0]}, {second} {score[1]})"
    return text
