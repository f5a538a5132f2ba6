"""An external Gomocup engine as a noughts agent: ``pbrain:PATH[,seconds=S,...]``.

The engine (any program that speaks the Gomocup protocol, :mod:`noughts.agents.gomocup`: Rapfi,
Yixin, Embryo, ``pbrain-noughts`` itself) runs as a separate process, started in its own folder
(engines read their configuration from their working directory: Rapfi its ``config.toml``), told
the board (``START``), the rule (freestyle, ``INFO rule 0``) and its clock (``INFO timeout_turn``,
``timeout_match``, ``time_left``), then asked for each move (``BEGIN``, ``TURN x,y``, or
``BOARD`` where the game did not follow from its last move).

**Timing.** The move time is ``seconds`` (the time limit every agent spec takes; default
:data:`DEFAULT_SECONDS`), or less where the caller's budget ends sooner. A move answered after its
time but within ``grace`` more seconds counts as an *overrun* (:attr:`PbrainAgent.stats`, and the
move's note); an engine that has not answered by then is killed.

**Forfeits.** An engine that crashes, hangs, answers something that is not a move, or plays off
the board or on a taken cell loses the game: the agent raises
:class:`~noughts.agents.base.AgentForfeit` saying what happened, which matches score as a loss
for it (no traceback), and the next game starts a fresh process.

Options: ``match=S`` a match clock of S seconds a game (``timeout_match``; 0, the default, is
none), ``nodes=N`` a node limit a move (``INFO max_node``, read by Rapfi and Yixin-Board
engines), ``memory=MB`` (``INFO max_memory``; default: the engine's own), ``grace=S`` (default
1 s), ``start=S`` the time to answer ``START`` (default 60 s: engines load models and tables
there, and ``pbrain-noughts`` compiles its kernels on a first run).
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from noughts.agents.base import AgentForfeit, Decision, read_options
from noughts.agents.gomocup import Answer, cell_of, check_gomoku, move_commands, read_answer, start_commands
from noughts.core import Game, Move, NoughtsError, Position
from noughts.core.budget import Budget

if TYPE_CHECKING:
    import numpy as np

__all__ = ["DEFAULT_SECONDS", "PbrainAgent", "PbrainStats", "from_options"]

DEFAULT_SECONDS = 1.0
"""A move's time when the spec gives no ``seconds``."""

SETTLE = 0.02
"""The least time between an engine's answer and the next command to it. Rapfi's main loop
reads the next command on its own thread and drops it (``ERROR Unknown command: x,y`` for the
``TURN``'s argument, then no answer) when it arrives before the search thread has marked the
search finished, just after writing the move: a manager as fast as a pipe loses that race."""


@dataclass
class PbrainStats:
    """What the engine did in this agent's games: moves answered, overruns (answered after the
    move's time, within the grace), the slowest answer and forfeits by kind.
    """

    moves: int = 0
    overruns: int = 0
    slowest: float = 0.0
    forfeits: int = 0
    last_forfeit: str = ""


class _Process:
    """The engine's process: lines in, lines out through a reader thread (so a read can time out),
    the last lines of its standard error kept for a crash report.
    """

    def __init__(self, path: Path):
        self.proc = subprocess.Popen(
            [str(path)],
            cwd=str(path.parent),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            start_new_session=True,  # its own process group: a kill takes its children too
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: collections.deque[str] = collections.deque(maxlen=8)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        threading.Thread(target=_pump, args=(self.proc.stdout, self.lines.put, True), daemon=True).start()
        self.error_pump = threading.Thread(
            target=_pump, args=(self.proc.stderr, self.errors.append, False), daemon=True
        )
        self.error_pump.start()
        self.finalizer = weakref.finalize(self, _kill, self.proc)
        self.answered = 0.0

    def settle(self) -> None:
        """Wait until :data:`SETTLE` has passed since the engine's last answer."""
        wait = self.answered + SETTLE - time.perf_counter()
        if wait > 0:
            time.sleep(wait)

    def send(self, lines: list[str]) -> None:
        assert self.proc.stdin is not None
        self.settle()
        try:
            self.proc.stdin.write("".join(line + "\n" for line in lines))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass  # a dead engine: the read that follows reports it

    def read(self, deadline: float) -> str | None:
        """The next line, or None at the end of the output; ``TimeoutError`` at ``deadline``."""
        timeout = deadline - time.perf_counter()
        if timeout <= 0:
            raise TimeoutError
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None
        self.answered = time.perf_counter()
        return line

    def ended(self) -> str:
        """How the process ended, with its last error lines."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=1.0)
        code = self.proc.poll()
        if code is not None:  # its last words: the pump reads them until the pipe closes
            self.error_pump.join(timeout=1.0)
        said = " | ".join(e.strip() for e in self.errors if e.strip())
        status = "is still running" if code is None else f"exited with status {code}"
        return status + (f" (it said: {said})" if said else "")

    def close(self, grace: float = 0.5) -> None:
        if self.proc.poll() is None and grace > 0:
            self.send(["END"])
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=grace)
        self.finalizer()


def _pump(stream: IO[str], sink: Any, mark_end: bool) -> None:
    with contextlib.suppress(ValueError, OSError):
        for line in stream:
            sink(line.rstrip("\r\n"))
    if mark_end:
        sink(None)


def _kill(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=2.0)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


class PbrainAgent:
    """An external Gomocup engine (see the module docstring). ``path``: the engine's executable;
    ``seconds``: a move's time when no budget is given.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        seconds: float = DEFAULT_SECONDS,
        match: float = 0.0,
        nodes: int = 0,
        memory: int = 0,
        grace: float = 1.0,
        start: float = 60.0,
    ):
        given = str(path).strip()
        if not given:
            raise NoughtsError("write a Gomocup engine as pbrain:PATH (the engine's executable)")
        exe = Path(given).expanduser()
        if not exe.is_file():
            raise NoughtsError(f"pbrain: there is no file {given!r} (give the engine's executable)")
        if not os.access(exe, os.X_OK):
            raise NoughtsError(f"pbrain: {given!r} is not executable (chmod +x it)")
        for what, value in (("seconds", seconds), ("grace", grace), ("start", start)):
            if not 0 < value < 1e6:
                raise NoughtsError(f"pbrain option {what} is a number of seconds above 0, not {value}")
        if not 0 <= match < 1e7:
            raise NoughtsError(f"pbrain option match is a number of seconds (0: no match clock), not {match}")
        if nodes < 0 or memory < 0:
            raise NoughtsError("pbrain options nodes and memory are 0 (none) or more")
        self.path = exe.resolve()
        self.seconds, self.match, self.nodes, self.memory = float(seconds), float(match), nodes, memory
        self.grace, self.start_seconds = float(grace), float(start)
        parts = [f"pbrain:{given}"]
        parts += [f"{k}={v:g}" for k, v in (("match", match), ("nodes", nodes), ("memory", memory)) if v]
        self.name = ",".join(parts)
        self.stats = PbrainStats()
        self.about = ""
        self._process: _Process | None = None
        self._game: Game | None = None
        self._known: Position | None = None  # the engine's board: after its own last move
        self._turn_ms: int | None = None
        self._used = 0.0  # the match clock's time used in this game

    def __repr__(self) -> str:
        return f"PbrainAgent({self.name!r})"

    def check_game(self, game: Game) -> None:
        """``NoughtsError`` unless the protocol can carry ``game`` (freestyle gomoku)."""
        check_gomoku(game)

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        return self.decide(position, rng).move

    def decide(self, position: Position, rng: np.random.Generator, budget: Budget | None = None) -> Decision:
        """The engine's move in ``position`` within ``budget``'s time (else ``seconds``)."""
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to choose")
        check_gomoku(position.game)
        left = None if budget is None else budget.remaining()
        seconds = self.seconds if left is None else max(0.001, left)
        try:
            return self._move(position, seconds)
        except AgentForfeit as e:
            self.stats.forfeits += 1
            self.stats.last_forfeit = str(e)
            self.close(grace=0.0)  # no END to a hung or broken engine: a kill
            raise

    def prepare(self, game: Game) -> None:
        """Start the engine and set up ``game``'s board now (``START``, its settings), so that no
        move's clock includes the engine's start; a no-op when it is already set up for it.
        """
        check_gomoku(game)
        if self._process is None or self._game != game:
            try:
                self._begin(game)
            except AgentForfeit:
                self.close(grace=0.0)
                raise

    def close(self, grace: float = 0.5) -> None:
        """End the engine's process (``END``, ``grace`` seconds to exit, then a kill); the next
        move starts a new one.
        """
        if self._process is not None:
            self._process.close(grace)
        self._process = None
        self._game = None
        self._known = None

    # -- one move ------------------------------------------------------------------------------

    def _move(self, position: Position, seconds: float) -> Decision:
        game = position.game
        fresh = self._process is None or self._game != game or _extends(self._known, position) is None
        if self._process is None or self._game != game:
            self._begin(game)
        elif fresh:
            self._used = 0.0  # another game on the same board: RESTART (in move_commands)
        process = self._process
        assert process is not None
        info = self._clock_lines(seconds)
        ask = move_commands(self._known, position)
        if ask and ask[0] == "RESTART":
            process.send(["RESTART"])
            self._expect_ok("RESTART", time.perf_counter() + self.start_seconds)
            ask = ask[1:]
        process.settle()  # not on the engine's clock
        started = time.perf_counter()
        process.send(info + ask)
        deadline = started + seconds + self.grace
        notes: list[str] = []
        while True:
            answer = self._read(deadline, f"its move ({seconds:.3g} s and {self.grace:g} s of grace)", notes)
            if answer.kind == "move":
                break
            if answer.kind in ("error", "unknown"):
                notes.append(answer.text)
            if answer.kind == "other":
                raise AgentForfeit(f"{self.name} answered {answer.text[:80]!r}, not a move x,y")
        took = time.perf_counter() - started
        self._used += took
        move = self._check_move(position, answer)
        self.stats.moves += 1
        self.stats.slowest = max(self.stats.slowest, took)
        note = f"answered {answer.text} in {took:.3f} s"
        if took > seconds:
            self.stats.overruns += 1
            note += f", over its {seconds:.3g} s"
        self._known = position.play(move)
        return Decision(move, None, note, took)

    def _begin(self, game: Game) -> None:
        self.close()
        self._process = _Process(self.path)
        self._game = game
        self._known = None
        self._turn_ms = None
        self._used = 0.0
        settings = {"rule": 0, "game_type": 1}
        if self.match:
            settings["timeout_match"] = round(self.match * 1000)
        if self.memory:
            settings["max_memory"] = self.memory * 1024 * 1024
        if self.nodes:
            settings["max_node"] = self.nodes
        lines = start_commands(game, settings)
        self._process.send(lines[:1])
        self._expect_ok(lines[0], time.perf_counter() + self.start_seconds)
        self._process.send(lines[1:])

    def _clock_lines(self, seconds: float) -> list[str]:
        lines = []
        turn = max(1, round(seconds * 1000))
        if turn != self._turn_ms:
            lines.append(f"INFO timeout_turn {turn}")
            self._turn_ms = turn
        if self.match:
            left = self.match - self._used
            if left <= 0:
                raise AgentForfeit(f"{self.name} lost on time: its match clock of {self.match:g} s ran out")
            lines.append(f"INFO time_left {round(left * 1000)}")
        return lines

    def _expect_ok(self, command: str, deadline: float) -> None:
        notes: list[str] = []
        while True:
            answer = self._read(deadline, f"an answer to {command}", notes)
            if answer.kind == "ok":
                return
            if answer.kind in ("error", "unknown"):
                raise AgentForfeit(f"{self.name} refused {command}: {answer.text}")

    def _read(self, deadline: float, waiting: str, notes: list[str]) -> Answer:
        process = self._process
        assert process is not None
        try:
            line = process.read(deadline)
        except TimeoutError:
            said = f" (it said: {' | '.join(notes)})" if notes else ""
            raise AgentForfeit(f"{self.name} did not give {waiting} and was killed{said}") from None
        if line is None:
            raise AgentForfeit(f"{self.name} crashed waiting for {waiting}: it {process.ended()}")
        answer = read_answer(line)
        if answer.kind == "about":
            self.about = answer.text
        return answer

    def _check_move(self, position: Position, answer: Answer) -> Move:
        assert answer.xy is not None
        game = position.game
        cell = cell_of(game, *answer.xy)
        if cell is None:
            raise AgentForfeit(f"{self.name} played {answer.text}, off the board: an illegal move")
        if position.occupied() >> cell & 1:
            raise AgentForfeit(
                f"{self.name} played {answer.text} ({game.format_move(cell)}), a taken cell: an illegal move"
            )
        return cell


def _extends(known: Position | None, position: Position) -> Position | None:
    """``known`` if the engine's board leads to ``position`` by the opponent's moves only (a
    ``TURN`` or the empty start), else None.
    """
    if known is None:
        return None
    me = position.to_move
    if known.owned(me) != position.owned(me) or known.owned(me.other) & ~position.owned(me.other):
        return None
    return known


def from_options(**options: str) -> PbrainAgent:
    """The agent of a spec ``pbrain:PATH,match=S,nodes=N,memory=MB,grace=S,start=S`` (``seconds``
    is every agent's option, read by :func:`~noughts.agents.base.make_agent`).
    """
    types = {"path": str, "match": float, "nodes": int, "memory": int, "grace": float, "start": float}
    o: dict[str, Any] = read_options("pbrain", options, types)
    path = o.pop("path", "")
    return PbrainAgent(path, **o)
