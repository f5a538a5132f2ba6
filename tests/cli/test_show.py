import dataclasses
import json
import re

import pytest
from cli_cases import invoke
from typer.testing import CliRunner

import noughts
from noughts.cli.app import app
from noughts.cli.views import rules_summary

JSON_KEYS = {"game", "cells", "lines", "max_lines_through_cell", "symmetries", "actions", "properties"}


def _field(output: str, name: str) -> str:
    m = re.search(rf"^{re.escape(name)}\s{{2,}}(.+)$", output, re.MULTILINE)
    assert m is not None, f"no {name!r} line in\n{output}"
    return m[1].strip()


def _library_figures(spec: str) -> dict[str, int]:
    game = noughts.game(spec)
    return {
        "cells": game.board.num_cells,
        "lines": len(game.board.lines),
        "max_lines_through_cell": game.board.max_lines_through_cell,
        "symmetries": len(game.symmetries),
        "actions": game.num_actions,
    }


# the published figures: 7^3 has ((7+2)^3 - 7^3)/2 = 193 lines (002 Lemma 2.1), 13 through its
# centre (Lemma 2.2: (3^3 - 1)/2), and the 2^3 * 3! = 48 symmetries of the cube
PUBLISHED = {
    "hypercube(7,3)": {
        "cells": 343,
        "lines": 193,
        "max_lines_through_cell": 13,
        "symmetries": 48,
        "actions": 343,
    },
    "tictactoe": {"cells": 9, "lines": 8, "max_lines_through_cell": 4, "symmetries": 8, "actions": 9},
}


@pytest.mark.parametrize("spec", sorted(PUBLISHED))
def test_show_json_figures_match_library_and_published(spec: str) -> None:
    result = invoke("show", spec, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= JSON_KEYS
    figures = {key: data[key] for key in PUBLISHED[spec]}
    assert figures == _library_figures(spec)
    assert figures == PUBLISHED[spec]
    game = noughts.game(spec)
    assert data["game"] == str(game)
    assert data["properties"] == dataclasses.asdict(game.properties)
    assert data["start"] == game.start().text()


@pytest.mark.parametrize("spec", sorted(PUBLISHED))
def test_show_text_figures_and_empty_board(spec: str) -> None:
    result = invoke("show", spec)
    assert result.exit_code == 0, result.output
    out = result.stdout
    names = {
        "cells": "cells",
        "lines": "winning lines",
        "max_lines_through_cell": "most lines through one cell",
        "symmetries": "symmetries",
        "actions": "actions",
    }
    shown = {key: int(_field(out, label)) for key, label in names.items()}
    assert shown == _library_figures(spec) == PUBLISHED[spec]
    game = noughts.game(spec)
    assert _field(out, "game") == str(game)
    assert game.start().render() in out
    assert "zero sum: yes" in _field(out, "properties")
    assert f"max length: {game.properties.max_length}" in _field(out, "properties")


@pytest.mark.parametrize(
    ("spec", "example", "words"),
    [
        ("tictactoe", "b2", "a column letter and a row number"),
        ("hypercube(3,3)", "2,2,2", "1-based coordinates"),
        ("hypercube(7,3)", "4,4,4", "1-based coordinates"),
        ("notakto(boards=2)", "2:b2", "board number"),
        ("notakto", "b2", "a cell"),
        ("otrio", "b2m", "ring size"),
        ("veto(tictactoe)", "!b2", "veto step"),
    ],
)
def test_show_move_notation_examples_are_readable_moves(spec: str, example: str, words: str) -> None:
    result = invoke("show", spec)
    assert result.exit_code == 0, result.output
    notation = _field(result.stdout, "moves")
    assert words in notation
    game = noughts.game(spec)
    examples = re.findall(r"e\.g\. (\S+?)[,;)]?(?=\s|$)", notation)
    assert example in examples
    for text in examples:  # every example the note gives is a move of this game
        game.format_move(game.parse_move(text))


def test_show_veto_names_pass_and_inner_rules() -> None:
    result = invoke("show", "veto(misere(mnk(4,4,4)))")
    notation = _field(result.stdout, "moves")
    assert notation.endswith("or pass")
    assert noughts.game("veto(tictactoe)").parse_move("pass") == noughts.Veto(None)
    rules = _field(result.stdout, "rules")
    assert rules.startswith("veto:") and "misere:" in rules


@pytest.mark.parametrize(
    ("spec", "players"),
    [
        ("tictactoe", "x then o"),
        ("maker_breaker(tictactoe,breaker_first=true)", "Breaker (o) then Maker (x)"),
        ("notakto(boards=2)", "first player then second player (both draw the same mark)"),
    ],
)
def test_show_players_in_turn_order(spec: str, players: str) -> None:
    result = invoke("show", spec)
    assert _field(result.stdout, "players") == players
    game = noughts.game(spec)
    assert players.startswith(game.player_label(noughts.Player.FIRST))


def test_show_accepts_any_spelling_and_prints_canonical_spec() -> None:
    result = invoke("show", "misere( mnk(3, 3, 3) )", "--json")
    assert json.loads(result.stdout)["game"] == "misere(mnk(3,3,3))"


def test_show_json_is_not_wrapped_on_a_narrow_terminal() -> None:
    result = CliRunner().invoke(app, ["show", "veto(misere(mnk(4,4,4)))", "--json"], env={"COLUMNS": "30"})
    data = json.loads(result.stdout)
    assert data["rules"] == rules_summary(noughts.game("veto(misere(mnk(4,4,4)))"))
