"""Gomocup engines for the tests, as executables in a folder: ``noughts brain`` behind a script,
and a tiny fake engine that plays legal moves, or misbehaves on purpose.
"""

import os
import stat
import sys
from pathlib import Path

import noughts

SRC = str(Path(noughts.__file__).resolve().parent.parent)

FAKE = r"""
import sys, time
MODE = {mode!r}
width = height = 15
taken = set()
turns = 0

def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()

def free():
    for y in range(height):
        for x in range(width):
            if (x, y) not in taken:
                return x, y

def move(last):
    global turns
    turns += 1
    if MODE == "crash" and turns >= 2:
        sys.stderr.write("fake engine: boom\n")
        sys.stderr.flush()
        sys.exit(3)
    if MODE == "hang" and turns >= 2:
        time.sleep(3600)
    if MODE == "occupied" and last is not None:
        say("%d,%d" % last)  # the opponent's own stone
        return
    if MODE == "garbage" and turns >= 2:
        say("SWAP")
        return
    if MODE == "offboard" and turns >= 2:
        say("%d,%d" % (width, 0))
        return
    if MODE == "chatty":
        say("MESSAGE thinking hard")
        say("DEBUG depth 1")
    x, y = free()
    taken.add((x, y))
    say("%d,%d" % (x, y))

board = None
for line in sys.stdin:
    words = line.strip().replace(",", " ").split()
    if not words:
        continue
    command = words[0].upper()
    if board is not None:
        if command == "DONE":
            taken = set(board)
            board = None
            move(None)
        else:
            board.append((int(words[0]), int(words[1])))
    elif command == "START":
        if MODE == "refuse":
            say("ERROR fake engine: no such board")
            continue
        width = height = int(words[1])
        taken = set()
        say("OK")
    elif command == "RECTSTART":
        width, height = int(words[1]), int(words[2])
        taken = set()
        say("OK")
    elif command == "RESTART":
        taken = set()
        say("OK")
    elif command == "BEGIN":
        move(None)
    elif command == "TURN":
        last = (int(words[1]), int(words[2]))
        taken.add(last)
        move(last)
    elif command == "BOARD":
        board = []
    elif command == "ABOUT":
        say('name="fake", version="1"')
    elif command == "END":
        break
"""


def _executable(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def fake_engine(folder: Path, mode: str = "legal") -> Path:
    """A fake engine's executable: ``legal`` plays the first free cell; ``crash`` exits on its
    second move, ``hang`` sleeps on it, ``occupied`` answers the opponent's own stone,
    ``offboard`` plays off the board, ``garbage`` answers SWAP, ``refuse`` answers START with ERROR, ``chatty`` sends
    MESSAGE and DEBUG lines before each move.
    """
    folder.mkdir(parents=True, exist_ok=True)
    return _executable(folder / f"pbrain-fake-{mode}", f"#!{sys.executable}\n" + FAKE.format(mode=mode))


def brain_engine(folder: Path, agent: str = "random") -> Path:
    """``noughts brain --agent AGENT`` (this tree's code) as one executable file."""
    folder.mkdir(parents=True, exist_ok=True)
    script = (
        "#!/bin/sh\n"
        f"PYTHONPATH={SRC}${{PYTHONPATH:+:$PYTHONPATH}}\nexport PYTHONPATH\n"
        f'exec "{sys.executable}" -m noughts.cli.brain --agent "{agent}" --seed 1\n'
    )
    return _executable(folder / "pbrain-noughts", script)


def brain_command(agent: str = "random") -> tuple[list[str], dict[str, str]]:
    """The command line and environment that run ``noughts brain`` from this tree."""
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return [sys.executable, "-m", "noughts.cli.brain", "--agent", agent, "--seed", "1"], env
