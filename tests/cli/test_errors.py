"""Bad input anywhere: one clear line on stderr, exit status 2, never a traceback."""

from collections.abc import Callable

import pytest
from cli_cases import invoke, run_script

import noughts
from noughts.agents import make_agent


def _message(make: Callable[[], object]) -> str:
    """The message the library gives for this bad input."""
    with pytest.raises(noughts.NoughtsError) as error:
        make()
    return str(error.value)


BAD = [
    (["show", "foo(3)"], lambda: noughts.game("foo(3)")),
    (["show", "mnk(3,3"], lambda: noughts.game("mnk(3,3")),
    (["show", "mnk(0,3,3)"], lambda: noughts.game("mnk(0,3,3)")),
    (["show", "hypercube(3,20)"], lambda: noughts.game("hypercube(3,20)")),
    (["show", "veto(otrio)", "--json"], lambda: noughts.game("veto(otrio)")),
    (["play", "nosuchgame", "--x", "random", "--o", "random"], lambda: noughts.game("nosuchgame")),
    (["play", "tictactoe", "--position", "xxxx"], lambda: noughts.game("tictactoe").parse("xxxx")),
    (
        ["play", "tictactoe", "--position", "xx./.../..."],
        lambda: noughts.game("tictactoe").parse("xx./.../..."),
    ),
    (["play", "otrio", "--position", "x../.../..."], lambda: noughts.game("otrio").parse("x../.../...")),
    (["play", "tictactoe", "--x", "bogus"], lambda: make_agent("bogus")),
    (["play", "tictactoe", "--o", "random:depth=3"], lambda: make_agent("random:depth=3")),
    (["play", "tictactoe", "--o", "random:depth"], lambda: make_agent("random:depth")),
]


@pytest.mark.parametrize(("args", "make"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_line_and_status_2(args: list[str], make: Callable[[], object]) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == "" or "to move" not in result.stdout
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    message = _message(make)
    assert result.stderr == f"noughts: error: {message}\n"
    # one line, plus the caret under the spec that SpecError adds where it knows the place
    first, *rest = result.stderr.splitlines()
    assert first.startswith("noughts: error: ")
    assert len(rest) in (0, 2)
    if rest:
        assert rest[1].strip() == "^"


def test_spec_error_points_at_the_problem() -> None:
    result = invoke("show", "misere(mnk(3,3,3),x)")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[1] == "  misere(mnk(3,3,3),x)"
    assert lines[2].index("^") == 2  # under 'misere', the call that got too many arguments


@pytest.mark.parametrize(
    "args",
    [
        ["show", "foo"],
        ["play", "tictactoe", "--position", "nonsense"],
        ["play", "tictactoe", "--x", "alphazero"],
    ],
)
def test_console_script_bad_input(args: list[str]) -> None:
    proc = run_script(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("noughts: error: ")
    assert "Traceback" not in proc.stderr


def test_usage_errors_exit_2_too() -> None:
    assert invoke("play").exit_code == 2  # no SPEC
    assert invoke("play", "tictactoe", "--seed", "many").exit_code == 2
    assert invoke("play", "tictactoe", "--delay", "-1").exit_code == 2
