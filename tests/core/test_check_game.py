"""noughts.testing.check_game on games written outside noughts: the docs' example passes,
broken games fail with the promise they break, and games that need not end are checked too."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import noughts
from noughts.core import (
    Game,
    GameProperties,
    IllegalMoveError,
    NotationError,
    NoughtsError,
    Outcome,
    Player,
    Position,
    StandardGame,
    mnk,
)
from noughts.testing import ConformanceError, check_game

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "python-api.md"


def _readme_example(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Run the docs' user-defined game (the block after the check_game marker) as a module."""
    text = EXAMPLE.read_text()
    marker = text.index("<!-- check_game example")
    block = re.search(r"```python\n(.*?)```", text[marker:], re.S)
    assert block is not None
    module = types.ModuleType("readme_example")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec(compile(block.group(1), str(EXAMPLE), "exec"), module.__dict__)
    return module.__dict__


def test_the_readme_game_passes_and_is_solved(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    example = _readme_example(monkeypatch)
    games, finished, positions = (int(x) for x in capsys.readouterr().out.split())
    assert games == finished == 8 and positions > 8
    wild = example["WildTicTacToe"]()
    report = check_game(wild, games=20, seed=3)
    assert report.finished == 20 and report.keys <= report.positions
    # the engines take it as it is: the search's value of the start, held to the reference
    from noughts.exact.reference import reference_values

    result = noughts.solve(wild)
    assert result.value.outcome is Outcome.FIRST
    assert reference_values(wild)[wild.start()] == result.value


class _UnsymmetricKey(StandardGame):
    """A bug: the canonical key is the raw marks, so symmetric images get different keys."""

    def canonical_key(self, position: Position) -> Any:
        return position.cell_masks()


class _ForgetsTurn(StandardGame):
    """A bug: the text form loses whose turn it is (every position reads back with x to move)."""

    def parse(self, text: str) -> Position:
        p = super().parse(text)
        return Position(self, p.cell_masks(), Player.FIRST, p.outcome())


class _CrashesOnJunk(StandardGame):
    """A bug: junk makes play raise TypeError instead of IllegalMoveError."""

    def play(self, position: Position, move: Any) -> Position:
        if move is None:
            raise TypeError("None")
        return super().play(position, move)


class _TwiceListed(StandardGame):
    """A bug: legal_moves lists the first cell twice."""

    def legal_moves(self, position: Position) -> list[Any]:
        moves = super().legal_moves(position)
        return moves[:1] + moves if moves else moves


@pytest.mark.parametrize(
    ("cls", "promise"),
    [
        (_UnsymmetricKey, "another canonical key"),
        (_ForgetsTurn, "differs from the one its text reads back to"),
        (_CrashesOnJunk, "raised TypeError, not IllegalMoveError"),
        (_TwiceListed, "lists a move twice"),
    ],
)
def test_broken_games_fail_naming_the_promise(cls: type[Game], promise: str) -> None:
    broken = cls(mnk(3, 3, 3))  # type: ignore[call-arg]
    with pytest.raises(ConformanceError, match=promise) as info:
        check_game(broken)
    assert isinstance(info.value, NoughtsError) and isinstance(info.value, AssertionError)
    assert "mnk(3,3,3)" in str(info.value)


class Walk(Game):
    """A game that need not end: a token on the cells 0..4 starts on 2; each move steps it one
    cell left or right; the first player wins when it reaches 0, the second at 4. Positions
    repeat, so a game can go on for ever.
    """

    def __init__(self) -> None:
        self.board = mnk(1, 5, 5)
        self.spec = "walk"
        self.num_actions = 2  # move and action 0 steps left, 1 steps right
        self.properties = GameProperties(zero_sum=True, has_draws=False, is_scored=False, max_length=0)
        self._identity = (tuple(range(5)),)

    @property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        return self._identity

    @property
    def symmetry_count(self) -> int:
        return 1

    def _at(self, cell: int, to_move: Player) -> Position:
        outcome = Outcome.FIRST if cell == 0 else Outcome.SECOND if cell == 4 else None
        return Position(self, (cell,), to_move, outcome)

    def start(self) -> Position:
        return self._at(2, Player.FIRST)

    def legal_moves(self, position: Position) -> list[Any]:
        return [] if position.is_terminal() else [0, 1]

    def play(self, position: Position, move: Any) -> Position:
        if type(move) is not int or move not in self.legal_moves(position):
            raise IllegalMoveError(f"{move!r} is no step here")
        return self._at(position.state[0] + 2 * move - 1, position.to_move.other)

    def canonical_key(self, position: Position) -> Any:
        return (position.state[0], position.to_move)

    def symmetric_images(self, position: Position) -> Any:
        yield position

    def format_position(self, position: Position) -> str:
        return f"{position.state[0]} {'x' if position.to_move is Player.FIRST else 'o'}"

    def parse(self, text: str) -> Position:
        cell, _, mover = text.partition(" ")
        return self._at(int(cell), Player.FIRST if mover == "x" else Player.SECOND)

    def format_move(self, move: Any) -> str:
        return ("left", "right")[move]

    def parse_move(self, text: str) -> Any:
        return ("left", "right").index(text)

    def action(self, move: Any) -> int:
        return int(move)

    def move(self, action: Any) -> Any:
        return self._check_action(action)

    def render(self, position: Position) -> str:
        return "".join("o" if c == position.state[0] else "." for c in range(5))

    def notation_help(self) -> str:
        return "left or right"


def test_games_that_need_not_end_are_checked_up_to_a_cap() -> None:
    report = check_game(Walk(), games=40, max_plies=6)
    assert report.max_plies == 6
    assert 0 < report.finished < report.games  # some walks end within 6 steps, some do not
    assert report.positions <= 40 * 7
    default = check_game(Walk(), games=5)
    assert default.max_plies == 200  # no max_length: the loopy default cap


class _WalkBeyondItsLength(Walk):
    """A bug for a bounded game: it says no game lasts longer than 2 plies."""

    def __init__(self) -> None:
        super().__init__()
        self.properties = GameProperties(zero_sum=True, has_draws=False, is_scored=False, max_length=2)


def test_a_game_longer_than_its_max_length_fails() -> None:
    with pytest.raises(ConformanceError, match="beyond max_length 2"):
        check_game(_WalkBeyondItsLength(), games=20)


def test_check_game_refuses_what_is_no_game() -> None:
    with pytest.raises(ConformanceError, match="takes a noughts Game"):
        check_game("tictactoe")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="games >= 1"):
        check_game(noughts.game("tictactoe"), games=0)
    with pytest.raises(NotationError):
        Walk().move(5)
