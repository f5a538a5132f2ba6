"""The Gomocup (piskvork) protocol, both sides, with no I/O: what a brain answers, what a manager
sends, the coordinates and the rules.

The protocol (Petr Laštovička's "Gomoku AI protocol", https://plastovicka.github.io/protocl2en.htm,
the one every gomoku manager and GUI speaks: piskvork, Yixin-Board, the Gomocup manager) is one
command a line on the brain's standard input and one answer a line on its output:

==========================  =========================================================================
``START n``                 a new n x n board; the brain answers ``OK`` (or ``ERROR why``)
``RECTSTART w,h``           a new board w wide and h high; ``OK`` or ``ERROR``
``RESTART``                 the same board, emptied; ``OK``
``BEGIN``                   the brain plays the first move on the empty board: ``x,y``
``TURN x,y``                the opponent played x,y; the brain answers its move ``x,y``
``BOARD``                   then lines ``x,y,field`` (1: the brain's stone, 2: the opponent's,
                            3: a stone of a continuous game's earlier win) and ``DONE``: a whole
                            position, the brain to move; it answers its move ``x,y``
``TAKEBACK x,y``            take the stone at x,y back (the last move); ``OK``
``INFO key value``          a setting (no answer): ``timeout_turn`` ms (0: play at once),
                            ``timeout_match`` ms (0: no limit), ``time_left`` ms, ``max_memory``
                            bytes (0: no limit), ``rule`` (a bit mask: 1 exactly five, 2 continuous
                            game, 4 renju, 8 caro; 0 is freestyle, five or more wins),
                            ``game_type``, ``folder``, ``evaluate x,y``
``END``                     the brain exits (no answer)
``ABOUT``                   ``name="...", version="...", author="...", ...``
==========================  =========================================================================

Coordinates count from 0: ``x`` is the column, ``y`` the row (row 0 at the top), so the cell
``x,y`` is noughts' cell at row ``y``, column ``x`` of ``mnk(h, w, 5)``. A brain answers a command
it does not know with ``UNKNOWN why`` and one it cannot follow with ``ERROR why``; ``MESSAGE``
and ``DEBUG`` lines are free text for people.

**Rules.** Freestyle (``INFO rule 0``: five *or more* in a row wins) is noughts' standard game on
``mnk(h, w, 5)``: its lines are every 5-cell segment, so an overline holds a five. Exactly five
(``rule 1``, standard gomoku), continuous games (2), renju (4) and caro (8) have no rules in
noughts yet; :data:`RULES` maps the codes noughts plays, and the rest are refused by name.

:class:`BrainSession` is the brain's side (``noughts brain`` and ``pbrain-noughts`` are a loop over
it); :func:`start_commands`, :func:`move_commands` and :func:`read_answer` are the manager's
(the ``pbrain:PATH`` agent, :mod:`noughts.agents.pbrain`). Neither reads or writes anything: the
caller moves the lines.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from noughts.core import Game, Move, NoughtsError, Player, Position, Rule
from noughts.core import game as make_game

if TYPE_CHECKING:
    import numpy as np

    from noughts.agents.base import Agent

__all__ = [
    "ABOUT",
    "FREESTYLE",
    "MAX_SIZE",
    "MIN_SIZE",
    "RULES",
    "AgentThinker",
    "Answer",
    "BrainSession",
    "Clock",
    "Thinker",
    "board_game",
    "cell_of",
    "check_gomoku",
    "format_xy",
    "move_commands",
    "parse_xy",
    "read_answer",
    "rule_name",
    "start_commands",
    "xy_of",
]

FREESTYLE = 0
"""``INFO rule 0``: five or more in a row wins."""

RULES: dict[int, str] = {FREESTYLE: "freestyle"}
"""The ``INFO rule`` codes noughts plays, with their names."""

_RULE_BITS = ((1, "exactly five in a row"), (2, "continuous game"), (4, "renju"), (8, "caro"))

MIN_SIZE = 5
MAX_SIZE = 32
"""The board sides a brain accepts (Gomocup plays 15 and 20; Rapfi takes up to 32)."""

ABOUT = (
    'name="noughts", version="{version}", author="the noughts developers", rules="freestyle (INFO rule 0)"'
)
"""The ``ABOUT`` answer; the rules named are the ones :data:`RULES` plays."""

_XY = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
_FIELD = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


def rule_name(rule: int) -> str:
    """What an ``INFO rule`` code means, in words.

    >>> rule_name(0), rule_name(1), rule_name(5)
    ('freestyle', 'exactly five in a row', 'exactly five in a row + renju')
    """
    if rule == FREESTYLE:
        return "freestyle"
    named = [name for bit, name in _RULE_BITS if rule & bit]
    unknown = rule & ~15
    return " + ".join(named + ([f"unknown bits {unknown}"] if unknown or rule < 0 else []))


def board_game(width: int, height: int, rule: int = FREESTYLE) -> Game:
    """Noughts' game for a Gomocup board ``width`` x ``height`` under ``rule``; ``NoughtsError``
    saying why for a size or rule noughts does not play.

    >>> str(board_game(15, 15)), str(board_game(20, 10))
    ('mnk(15,15,5)', 'mnk(10,20,5)')
    """
    for what, side in (("width", width), ("height", height)):
        if not MIN_SIZE <= side <= MAX_SIZE:
            raise NoughtsError(
                f"unsupported board {what} {side}: noughts plays sides from {MIN_SIZE} to {MAX_SIZE}"
            )
    if rule not in RULES:
        raise NoughtsError(
            f"unsupported rule {rule} ({rule_name(rule)}): noughts plays "
            + ", ".join(f"{name} (rule {code})" for code, name in RULES.items())
        )
    return make_game(f"mnk({height},{width},5)")


def check_gomoku(game: Game) -> tuple[int, int]:
    """``(width, height)`` of a game the protocol can carry (freestyle: standard rules, five in a
    row, a flat board from 5 to 32 a side); ``NoughtsError`` saying why not.
    """
    board = game.board
    if (
        game.claim_rule is not Rule.STANDARD
        or board.kind != "mnk"
        or board.k != 5
        or str(game) != board.spec
        or not all(MIN_SIZE <= side <= MAX_SIZE for side in board.grid)
    ):
        raise NoughtsError(
            f"a Gomocup engine plays freestyle gomoku, mnk(m,n,5) with standard rules and sides from "
            f"{MIN_SIZE} to {MAX_SIZE}, not {game}"
        )
    height, width = board.grid
    return width, height


def cell_of(game: Game, x: int, y: int) -> int | None:
    """Noughts' cell at column ``x``, row ``y`` (None if off the board)."""
    return game.board.cell_at((y, x))


def xy_of(game: Game, cell: int) -> tuple[int, int]:
    """The protocol's ``(x, y)`` of a cell."""
    row, col = game.board.coords[cell]
    return col, row


def format_xy(game: Game, cell: int) -> str:
    """A cell as the protocol writes it: ``x,y``.

    >>> g = board_game(15, 15)
    >>> format_xy(g, g.parse_move("h8")), g.format_move(cell_of(g, 7, 7))
    ('7,7', 'h8')
    """
    x, y = xy_of(game, cell)
    return f"{x},{y}"


def parse_xy(text: str) -> tuple[int, int] | None:
    """``(x, y)`` from ``x,y`` (spaces allowed), or None if the text is not two numbers."""
    m = _XY.match(text)
    return None if m is None else (int(m.group(1)), int(m.group(2)))


def _stones_position(game: Game, first: list[int], second: list[int]) -> Position:
    """The position with ``first``'s and ``second``'s stones, played alternately (the order of a
    claim game's moves does not change its position); ``NoughtsError`` if no alternating game
    reaches it.
    """
    if len(first) - len(second) not in (0, 1):
        raise NoughtsError(
            f"the stones cannot come from alternating moves: {len(first)} of the player who moved first"
            f" and {len(second)} of the other"
        )
    position = game.start()
    for i in range(len(first) + len(second)):
        if position.is_terminal():
            raise NoughtsError("the position on the board is already over (a five is on it)")
        position = position.play(first[i // 2] if i % 2 == 0 else second[i // 2])
    return position


# -- the brain's side ---------------------------------------------------------------------------


class Thinker(Protocol):
    """What a brain plays with: ``prepare(game)`` once a board is set (load, compile, warm up),
    ``think(position, seconds)`` a legal move within about ``seconds``.
    """

    name: str

    def prepare(self, game: Game) -> None: ...

    def think(self, position: Position, seconds: float) -> Move: ...


class AgentThinker:
    """A noughts agent as a brain's player: each move is :func:`~noughts.agents.base.decide` with
    a budget of the seconds the brain's clock gives it. ``prepare`` plays short moves on a board
    of the game (the empty board, and four plies from a position where the mover has two in a
    row, which sends the engine's root to its proof searches) so that no real move pays for
    loading (or compiling) the agent's kernels.
    """

    def __init__(self, agent: Agent, rng: np.random.Generator):
        self.agent = agent
        self.rng = rng
        self.name = str(getattr(agent, "name", type(agent).__name__))
        self._prepared: set[Game] = set()

    def prepare(self, game: Game) -> None:
        if game in self._prepared:
            return
        self.think(game.start(), 0.05)
        width, height = check_gomoku(game)
        row, col = height // 2, width // 2 - 1

        def at(x: int, y: int) -> int:
            cell = cell_of(game, x, y)
            assert cell is not None  # sides of 5 and more
            return cell

        mine, theirs = [at(col, row), at(col + 1, row)], [at(0, 0), at(width - 1, height - 1)]
        position = _stones_position(game, mine, theirs)
        for _ in range(4):  # and a few plies on from there, each search path met once
            if position.is_terminal():
                break
            position = position.play(self.think(position, 0.1))
        self._prepared.add(game)

    def think(self, position: Position, seconds: float) -> Move:
        from noughts.agents.base import decide
        from noughts.core.budget import Budget

        return decide(self.agent, position, self.rng, Budget(max_seconds=seconds, max_memory=None)).move


@dataclass
class Clock:
    """A brain's time, from the manager's ``INFO`` lines (milliseconds as the protocol gives
    them), and the share of it one move may take (:meth:`move_seconds`).

    ``turn_ms``: ``timeout_turn`` (0: play at once); ``match_ms``: ``timeout_match`` (0: no
    limit); ``left_ms``: ``time_left`` (None until the manager says). With a match clock a move
    takes at most ``left / SPREAD`` (a share of what is left, so the clock never runs out however
    long the game), and always at most ``USE`` of ``timeout_turn`` less ``MARGIN`` seconds for
    the pipe, the process and the search's last slice.
    """

    turn_ms: int = 5_000
    match_ms: int = 0
    left_ms: int | None = None

    USE = 0.8
    MARGIN = 0.05
    SPREAD = 20
    FAST = 0.05
    """The time a move takes when ``timeout_turn`` is 0 (play as fast as possible)."""

    def move_seconds(self) -> float:
        """The seconds the next move may think (at least a millisecond)."""
        seconds = self.turn_ms / 1000 * self.USE - self.MARGIN if self.turn_ms > 0 else self.FAST
        if self.match_ms > 0:
            left = self.match_ms if self.left_ms is None else self.left_ms
            seconds = min(seconds, left / 1000 / self.SPREAD - self.MARGIN)
        return max(seconds, 0.001)


@dataclass
class BrainSession:
    """One brain's protocol state: the board, the position, the settings. :meth:`handle` takes
    one line from the manager and gives back the lines to answer (none for ``INFO``); moves come
    from ``thinker``. After ``END``, :attr:`ended` is true and the caller exits.
    """

    thinker: Thinker
    version: str = "0"
    clock: Clock = field(default_factory=Clock)
    now: Callable[[], float] = time.perf_counter
    game: Game | None = None
    position: Position | None = None
    rule: int = FREESTYLE
    settings: dict[str, str] = field(default_factory=dict)
    ended: bool = False
    _board_lines: list[str] | None = None
    _size: tuple[int, int] | None = None

    def handle(self, line: str) -> list[str]:
        """The answer lines to one line from the manager."""
        text = line.strip()
        if self._board_lines is not None:  # inside BOARD ... DONE
            if text.upper() == "DONE":
                stones, self._board_lines = self._board_lines, None
                return self._guard(lambda: self._board(stones))
            if text:
                self._board_lines.append(text)
            return []
        if not text:
            return []
        command, _, rest = text.partition(" ")
        command = command.upper()
        rest = rest.strip()
        handler = {
            "START": self._start,
            "RECTSTART": self._rectstart,
            "RESTART": self._restart,
            "BEGIN": self._begin,
            "TURN": self._turn,
            "TAKEBACK": self._takeback,
            "INFO": self._info,
            "ABOUT": self._about,
            "END": self._end,
        }.get(command)
        if command == "BOARD":
            self._board_lines = []  # read to DONE (with no board, refused there)
            return []
        if handler is None:
            return [f"UNKNOWN command {command} is not supported"]
        return self._guard(lambda: handler(rest))

    @staticmethod
    def _guard(step: Callable[[], list[str]]) -> list[str]:
        try:
            return step()
        except NoughtsError as e:
            return [f"ERROR {_one_line(str(e))}"]

    # -- the board -----------------------------------------------------------------------------

    def _new_board(self, width: int, height: int) -> list[str]:
        self.game = None
        self.position = None
        self._size = (width, height)
        game = board_game(width, height, FREESTYLE)  # the size first: the rule is checked per move
        self.thinker.prepare(game)
        self.game = game
        self.position = game.start()
        return ["OK"]

    def _start(self, rest: str) -> list[str]:
        if not rest.isdigit():
            raise NoughtsError(f"START takes the board's size, a number, not {rest!r}")
        return self._new_board(int(rest), int(rest))

    def _rectstart(self, rest: str) -> list[str]:
        xy = parse_xy(rest)
        if xy is None:
            raise NoughtsError(f"RECTSTART takes width,height, not {rest!r}")
        return self._new_board(*xy)

    def _ready(self) -> tuple[Game, Position]:
        if self.game is None or self.position is None:
            raise NoughtsError("no board: send START or RECTSTART first")
        if self.rule not in RULES:
            raise NoughtsError(
                f"unsupported rule {self.rule} ({rule_name(self.rule)}): noughts plays freestyle (rule 0)"
            )
        return self.game, self.position

    def _restart(self, rest: str) -> list[str]:
        game, _ = self._ready()
        self.position = game.start()
        return ["OK"]

    def _cell(self, game: Game, text: str) -> int:
        xy = parse_xy(text)
        if xy is None:
            raise NoughtsError(f"cannot read {text!r} as a move: write x,y")
        cell = cell_of(game, *xy)
        if cell is None:
            width, height = self._size or (0, 0)
            raise NoughtsError(f"{xy[0]},{xy[1]} is off the {width}x{height} board")
        return cell

    # -- moves ---------------------------------------------------------------------------------

    def _reply(self, game: Game, position: Position) -> list[str]:
        outcome = position.outcome()
        if outcome is not None:
            self.position = position
            raise NoughtsError(f"the game is over ({game.outcome_text(outcome)}): no move to play")
        seconds = self.clock.move_seconds()
        started = self.now()
        move = self.thinker.think(position, seconds)
        if self.clock.match_ms > 0 and self.clock.left_ms is not None:
            self.clock.left_ms = max(0, self.clock.left_ms - round((self.now() - started) * 1000))
        if not isinstance(move, int) or move not in position.legal_moves():
            raise NoughtsError(f"{self.thinker.name} chose {move!r}, not a free cell")
        self.position = position.play(move)
        return [format_xy(game, move)]

    def _begin(self, rest: str) -> list[str]:
        game, position = self._ready()
        if position.occupied():
            raise NoughtsError("BEGIN is for the empty board; this one has stones (send RESTART first)")
        return self._reply(game, position)

    def _turn(self, rest: str) -> list[str]:
        game, position = self._ready()
        cell = self._cell(game, rest)
        if position.occupied() >> cell & 1:
            raise NoughtsError(f"{rest.strip()} is already taken")
        if position.is_terminal():
            raise NoughtsError("the game is over: no move can follow")
        return self._reply(game, position.play(cell))

    def _board(self, lines: list[str]) -> list[str]:
        game, _ = self._ready()
        mine: list[int] = []
        theirs: list[int] = []
        seen: set[int] = set()
        for text in lines:
            m = _FIELD.match(text)
            if m is None:
                raise NoughtsError(f"cannot read the BOARD line {text!r}: write x,y,field")
            x, y, kind = (int(g) for g in m.groups())
            cell = cell_of(game, x, y)
            if cell is None:
                raise NoughtsError(f"the BOARD line {text!r} is off the board")
            if kind == 3:
                raise NoughtsError(
                    "field 3 (a stone of a continuous game) is not supported: noughts plays freestyle"
                )
            if kind not in (1, 2):
                raise NoughtsError(
                    f"the BOARD line {text!r} has field {kind}: 1 is the brain's stone, 2 the opponent's"
                )
            if cell in seen:
                raise NoughtsError(f"the BOARD lists {x},{y} twice")
            seen.add(cell)
            (mine if kind == 1 else theirs).append(cell)
        # the brain is to move: it moved first if it has as many stones as the opponent
        first, second = (mine, theirs) if len(mine) == len(theirs) else (theirs, mine)
        if len(theirs) - len(mine) not in (0, 1):
            raise NoughtsError(
                f"the BOARD has {len(mine)} stones of the brain and {len(theirs)} of the opponent: "
                "with the brain to move it has as many as the opponent or one fewer"
            )
        return self._reply(game, _stones_position(game, first, second))

    def _takeback(self, rest: str) -> list[str]:
        game, position = self._ready()
        cell = self._cell(game, rest)
        last = position.to_move.other if not position.is_terminal() else _last_mover(position)
        if not position.owned(last) >> cell & 1:
            raise NoughtsError(f"{rest.strip()} is not a stone of the player who moved last")
        owners = [position.owned(Player.FIRST), position.owned(Player.SECOND)]
        owners[last] &= ~(1 << cell)
        self.position = _stones_position(game, _cells(owners[0]), _cells(owners[1]))
        return ["OK"]

    # -- settings ------------------------------------------------------------------------------

    def _info(self, rest: str) -> list[str]:
        key, _, value = rest.partition(" ")
        key, value = key.lower(), value.strip()
        self.settings[key] = value
        number = int(value) if re.fullmatch(r"-?\d+", value) else None
        if key in ("timeout_turn", "timeout_match", "time_left", "max_memory", "rule", "game_type"):
            if number is None:
                raise NoughtsError(f"INFO {key} takes a whole number, not {value!r}")
            if key == "timeout_turn":
                self.clock.turn_ms = max(0, number)
            elif key == "timeout_match":
                self.clock.match_ms = max(0, number)
            elif key == "time_left":
                self.clock.left_ms = max(0, number)
            elif key == "rule":
                self.rule = number
                if number not in RULES:
                    raise NoughtsError(
                        f"unsupported rule {number} ({rule_name(number)}): noughts plays freestyle (rule 0)"
                    )
        return []  # folder, evaluate, max_memory, game_type and unknown keys: noted, nothing to do

    def _about(self, rest: str) -> list[str]:
        return [ABOUT.format(version=self.version)]

    def _end(self, rest: str) -> list[str]:
        self.ended = True
        return []


def _last_mover(position: Position) -> Player:
    n0, n1 = (position.owned(p).bit_count() for p in (Player.FIRST, Player.SECOND))
    return Player.FIRST if n0 > n1 else Player.SECOND


def _cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _one_line(text: str) -> str:
    return " ".join(text.split())


# -- the manager's side -------------------------------------------------------------------------


def start_commands(game: Game, settings: dict[str, int]) -> list[str]:
    """The lines that set a brain up for ``game``: ``START n`` (``RECTSTART w,h`` for a board
    that is not square), then an ``INFO key value`` line for each of ``settings`` (the brain
    answers the first with ``OK``, the others with nothing).

    >>> start_commands(board_game(15, 15), {"rule": 0, "timeout_turn": 1000})
    ['START 15', 'INFO rule 0', 'INFO timeout_turn 1000']
    """
    width, height = check_gomoku(game)
    first = f"START {width}" if width == height else f"RECTSTART {width},{height}"
    return [first] + [f"INFO {key} {value}" for key, value in settings.items()]


def move_commands(known: Position | None, position: Position) -> list[str]:
    """The lines that ask a brain whose board is ``known`` (the position after its own last move,
    None: a fresh board) for its move in ``position``: ``BEGIN`` on an empty board, ``TURN x,y``
    when the opponent has played one stone since, else (another game, a jump) ``BOARD`` with
    every stone and ``DONE``, after ``RESTART`` where the brain's board has stones (the brain
    answers that ``OK`` first).

    >>> g = board_game(15, 15)
    >>> p = g.start().play(cell_of(g, 7, 7))
    >>> move_commands(p, p.play(cell_of(g, 8, 7)))
    ['TURN 8,7']
    >>> move_commands(None, p)
    ['BOARD', '7,7,2', 'DONE']
    """
    game = position.game
    me = position.to_move
    restart = ["RESTART"] if known is not None and known.occupied() else []
    if not position.occupied():
        return restart + ["BEGIN"]
    if known is not None and known.game == game and known.owned(me) == position.owned(me):
        new = position.owned(me.other) & ~known.owned(me.other)
        if new and new & (new - 1) == 0 and known.owned(me.other) & ~position.owned(me.other) == 0:
            return [f"TURN {format_xy(game, new.bit_length() - 1)}"]
    lines = restart + ["BOARD"]
    firsts, seconds = _cells(position.owned(Player.FIRST)), _cells(position.owned(Player.SECOND))
    for i in range(len(firsts) + len(seconds)):  # in an order of play: first, second, first ...
        cell, owner = (firsts[i // 2], Player.FIRST) if i % 2 == 0 else (seconds[i // 2], Player.SECOND)
        lines.append(f"{format_xy(game, cell)},{1 if owner is me else 2}")
    return lines + ["DONE"]


@dataclass(frozen=True)
class Answer:
    """One line a brain wrote, read: ``kind`` is ``move`` (``xy`` set), ``ok``, ``error``,
    ``unknown``, ``message`` (MESSAGE and DEBUG: free text a manager shows and skips), ``about``,
    or ``other`` (nothing the protocol has: ``SWAP``, two moves, garbage); ``text`` is the line.
    """

    kind: str
    text: str
    xy: tuple[int, int] | None = None


def read_answer(line: str) -> Answer:
    """A brain's output line, read (see :class:`Answer`).

    >>> read_answer("7,8"), read_answer("OK").kind, read_answer("ERROR bad size").kind
    (Answer(kind='move', text='7,8', xy=(7, 8)), 'ok', 'error')
    >>> read_answer("MESSAGE depth 3").kind, read_answer("7,8 8,8").kind
    ('message', 'other')
    """
    text = line.strip()
    xy = parse_xy(text)
    if xy is not None:
        return Answer("move", text, xy)
    word = text.split(" ", 1)[0].upper()
    if word == "OK":
        return Answer("ok", text)
    if word == "ERROR":
        return Answer("error", text)
    if word == "UNKNOWN":
        return Answer("unknown", text)
    if text.startswith("name="):
        return Answer("about", text)
    if word in ("MESSAGE", "DEBUG") or not text:
        return Answer("message", text)
    return Answer("other", text)
