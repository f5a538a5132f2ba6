"""One game at the terminal: people type moves, agents choose theirs, the board is drawn each turn.

The rules are the library's: moves are read with ``game.parse_move`` and played with
``position.play`` (whose ``IllegalMoveError`` says why a move is refused), agents come from
``noughts.agents.make_agent``. The session only keeps the positions played so far, for ``undo``.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from rich.text import Text

from noughts.agents import Agent
from noughts.agents.base import decide
from noughts.cli import HUMAN
from noughts.cli.views import styled_board, styled_line
from noughts.core import Game, NoughtsError, Player, Position

if TYPE_CHECKING:
    import numpy as np
    from rich.console import Console

    from noughts.record.store import GameLog

__all__ = ["COMMANDS", "HUMAN", "PlaySession"]

COMMANDS = {
    "moves": "list the legal moves",
    "hint": "ask the solver for the best moves here (past its reach, the engine's estimate)",
    "undo": "take back your last move (and the reply to it)",
    "help": "show this help",
    "quit": "stop the game (end of input does the same)",
}


class PlaySession:
    """A game between two players, each a person (``None``) or an agent.

    ``names`` are the player specs as given on the command line (``human``, ``random``, ...),
    used to introduce the players and to print the command that resumes an unfinished game.
    ``read_line`` reads one line typed by a person (it raises ``EOFError`` at the end of input).
    ``log``, when given, records every move, take-back and the result in the store as they happen.
    """

    def __init__(
        self,
        game: Game,
        position: Position,
        players: Mapping[Player, Agent | None],
        names: Mapping[Player, str],
        rng: np.random.Generator,
        console: Console,
        delay: float = 0.0,
        read_line: Callable[[Text], str] | None = None,
        log: GameLog | None = None,
    ):
        self.game = game
        self.history = [position]
        self.players = players
        self.names = names
        self.rng = rng
        self.console = console
        self.delay = delay
        self.read_line = read_line or self._read_from_stdin
        self.hint_seconds = 10.0
        self.hint_engine_seconds = 1.5
        self.log = log

    @property
    def position(self) -> Position:
        return self.history[-1]

    def label(self, player: Player) -> Text:
        return styled_line(self.game.player_label(player))

    # -- the game loop ------------------------------------------------------------------------------

    def run(self) -> Position:
        """Play until the game ends or a person quits (two agents alone stop at the move cap of
        a game that need not end, ``properties.truncation`` plies); return the last position.
        """
        say = self.console.print
        if any(agent is None for agent in self.players.values()):
            say(f"moves: {self.game.notation_help()}", highlight=False)
            say("commands: " + ", ".join(COMMANDS), highlight=False)
        cap = self.game.properties.truncation
        robots = all(agent is not None for agent in self.players.values())
        try:
            while not self.position.is_terminal():
                if robots and cap is not None and len(self.history) > cap:
                    say()
                    say(styled_board(self.position))
                    say(
                        f"stopped after {cap} moves: a draw by the move cap ({self.game} need not end)",
                        style="bold",
                    )
                    return self.position
                say()
                say(styled_board(self.position))
                agent = self.players[self.position.to_move]
                if agent is None:
                    if not self._human_turn():
                        self._stop()
                        return self.position
                else:
                    self._agent_turn(agent)
        except KeyboardInterrupt:  # Ctrl-C: say how to go on, then let the command end with status 130
            say()
            self._stop()
            raise
        self._finish()
        return self.position

    def _agent_turn(self, agent: Agent) -> None:
        position = self.position
        decision = decide(agent, position, self.rng)
        move = decision.move
        text = self.game.format_move(move)  # before play: a move the agent got wrong still has a name
        self.history.append(position.play(move))
        if self.log is not None:
            self.log.played(move)
        self.console.print(Text.assemble(self.label(position.to_move), f" plays {text}"))
        if decision.proven is False and decision.note:
            self.console.print(f"  ({decision.note})", style="dim", highlight=False)
        if self.delay > 0:
            time.sleep(self.delay)

    def _human_turn(self) -> bool:
        """Read lines until a move is played (True) or the person quits (False)."""
        prompt = Text.assemble(self.label(self.position.to_move), " to move > ")
        while True:
            try:
                line = self.read_line(prompt).strip()
            except EOFError:
                self.console.print()
                return False
            command = line.lower()
            if not command:
                continue
            if command in ("quit", "exit"):
                return False
            if command in ("help", "?"):
                self._help()
            elif command == "hint":
                self._hint()
            elif command == "moves":
                moves = [self.game.format_move(m) for m in self.position.legal_moves()]
                self.console.print("legal moves: " + " ".join(moves), highlight=False)
            elif command == "undo":
                if self._undo():
                    return True
            else:
                try:
                    move = self.game.parse_move(line)
                    self.history.append(self.position.play(move))
                except NoughtsError as error:  # NotationError or IllegalMoveError: say why, ask again
                    self.console.print(Text(str(error).replace("\n", " "), style="red"))
                    continue
                if self.log is not None:
                    self.log.played(move)
                return True

    def _hint(self) -> None:
        from noughts.review.advice import advise  # the solver loads only when a hint is asked for

        try:
            advice = advise(
                self.game,
                self.position,
                solve_seconds=self.hint_seconds,
                engine_seconds=self.hint_engine_seconds,
            )
        except NoughtsError as error:  # over budget where the engine cannot help: say so and play on
            self.console.print(Text(f"no hint: {error}", style="red"))
            return
        moves = " ".join(advice.best_moves())
        if advice.exact is None:
            self.console.print(
                styled_line(f"hint (the engine's, the solver stopped): {moves} ({advice.describe()})"),
                highlight=False,
            )
            return
        self.console.print(styled_line(f"hint: {moves} ({advice.describe()})"), highlight=False)

    def _undo(self) -> bool:
        """Go back to the last earlier position where a person was to move."""
        for i in range(len(self.history) - 2, -1, -1):
            if self.players[self.history[i].to_move] is None:
                taken = len(self.history) - 1 - i
                del self.history[i + 1 :]
                if self.log is not None:
                    self.log.undone(taken)
                self.console.print(f"took back {taken} move{'s' if taken != 1 else ''}", highlight=False)
                return True
        self.console.print("nothing to undo", highlight=False)
        return False

    def _help(self) -> None:
        say = self.console.print
        say(f"type a move: {self.game.notation_help()}", highlight=False)
        for name, what in COMMANDS.items():
            say(f"  {name:<6} {what}", highlight=False)

    # -- the end --------------------------------------------------------------------------------

    def _finish(self) -> None:
        position = self.position
        outcome = position.outcome()
        assert outcome is not None
        if self.log is not None and len(self.history) > 1:  # a start already over was finished when logged
            self.log.finished(outcome)
        self.console.print()
        self.console.print(styled_board(position))
        result = self.game.outcome_text(outcome)
        score = position.score()
        if score is not None:
            first, second = (self.game.player_label(p) for p in Player)
            result += f" (score: {first} {score[0]}, {second} {score[1]})"
        self.console.print(styled_line(result), style="bold")

    def _stop(self) -> None:
        position = self.position
        resume = [
            "noughts",
            "play",
            str(self.game),
            "--x",
            self.names[Player.FIRST],
            "--o",
            self.names[Player.SECOND],
            "--position",
            position.text(),
        ]
        self.console.print("game stopped; to go on from here:", highlight=False)
        self.console.print("  " + shlex.join(resume), highlight=False, soft_wrap=True)

    def _read_from_stdin(self, prompt: Text) -> str:
        line = self.console.input(prompt)
        if not sys.stdin.isatty():  # a script or a pipe: show what was read, so the log reads like a session
            self.console.print(line, highlight=False)
        return line
