"""What the command line shows: facts about a game, move notation, and boards drawn with Rich.

Everything here is presentation over library calls; no rule of any game is decided here.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from rich.text import Text

from noughts.core import Board, Game, Player, Position
from noughts.core.registry import Entry, rules_summary

__all__ = [
    "EXAMPLES",
    "MARK_STYLES",
    "example_specs",
    "game_facts",
    "params_parts",
    "params_text",
    "rules_summary",
    "styled_board",
    "styled_line",
]

MARK_STYLES = {"x": "bold cyan", "o": "bold magenta"}
"""How the two marks are drawn on a terminal (Rich styles)."""

EXAMPLES: dict[str, tuple[str, ...]] = {
    "mnk": ("mnk(4,4,4)", "mnk(15,15,5)"),
    "tictactoe": ("tictactoe",),
    "hypercube": ("hypercube(4,3)", "hypercube(7,3)", "hypercube(5,2,k=4)"),
    "shape": ('shape("###./####/###.",3)',),
    "affine": ("affine(3)", "affine(4)"),
    "projective": ("projective(2)", "projective(3)"),
    "torus": ("torus(4,4,4)", "torus(5,5,4)"),
    "hypergraph": ('hypergraph("a,b,c/c,d,e/e,f,a")',),
    "standard": ("standard(mnk(4,4,4))",),
    "misere": ("misere(tictactoe)",),
    "maker_breaker": ("maker_breaker(mnk(4,4,4))", "maker_breaker(tictactoe,breaker_first=true)"),
    "cumulative": ("cumulative(tictactoe)",),
    "veto": ("veto(tictactoe)", "veto(misere(mnk(4,4,4)))"),
    "notakto": ("notakto", "notakto(boards=3)", "notakto(boards=2,misere=false)"),
    "otrio": ("otrio",),
    "forget": ("forget(tictactoe)", 'forget(tictactoe,count="plies")', 'forget(tictactoe,judge="before")'),
    "vanishing": ("vanishing(tictactoe)", "vanishing(mnk(4,4,4),keep=4)"),
    "morris": (
        "morris",
        "morris(diagonals=false)",
        "morris(jump=true)",
        'morris(mnk(4,4,4),pieces=4,blocked="passes")',
    ),
}
"""Example specs for ``noughts games``; the tests build every one of them."""


def example_specs(entry: Entry) -> tuple[str, ...]:
    """Examples of a registry entry: the curated ones, else the bare name when it needs nothing."""
    if entry.name in EXAMPLES:
        return EXAMPLES[entry.name]
    return (entry.name,) if not any(p.required for p in entry.params) else ()


def params_text(entry: Entry) -> str:
    """An entry's parameters as people read them, e.g. ``m (≥1)`` or ``boards=1 (1..16)``."""
    return ", ".join(params_parts(entry)) or "none"


def params_parts(entry: Entry) -> list[str]:
    """Each parameter of :func:`params_text` on its own."""
    parts = []
    for p in entry.params:
        if p.required:
            text = p.name
        else:
            default = p.default() if callable(p.default) else p.default
            text = f"{p.name} optional" if default is None else f"{p.name}={_spec_word(default)}"
        bounds = ""
        if p.minimum is not None:
            bounds = f"{p.minimum}..{p.maximum}" if p.maximum is not None else f"≥{p.minimum}"
        kind = {
            "int": bounds,
            "str": "quoted",
            "claim": "a board or claim game",
            "choice": " or ".join(p.choices),
        }.get(p.kind, p.kind)
        parts.append(f"{text} ({kind})" if kind and kind != p.name else text)
    return parts


def _spec_word(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def game_facts(game: Game) -> dict[str, Any]:
    """The figures ``noughts show`` prints, under the keys of its ``--json`` document."""
    board = game.board
    return {
        "game": str(game),
        "rules": rules_summary(game),
        "board": str(board),
        "cells": board.num_cells,
        "lines": len(board.lines),
        "max_lines_through_cell": board.max_lines_through_cell,
        "symmetries": game.symmetry_count,
        "actions": game.num_actions,
        "properties": dataclasses.asdict(game.properties),
        "players": [game.player_label(p) for p in Player],
        "notation": game.notation_help(),
        "start": game.start().text(),
        **_given_lines(board),
    }


def _given_lines(board: Board) -> dict[str, Any]:
    """A board given by its lines (planes, tori, a user's): the lines by their cells' names and
    the order of the whole automorphism group (the listed symmetries may be a subgroup).
    """
    if not board.given_lines:
        return {}
    return {
        "automorphisms": board.line_group.order,
        "line_list": [" ".join(board.cell_name(c) for c in line) for line in board.lines],
    }


# -- drawing --------------------------------------------------------------------------------------

_ROW = re.compile(r"^\s*\d+ ")  # a row of a board picture starts with its row number
_HEADER = re.compile(r"^\s*[a-z]{1,3}(\s+[a-z]{1,3})*\s*$")  # column letters only


def styled_line(line: str) -> Text:
    """A line of prose (a status, a player's name) with the marks x and o coloured where they stand alone."""
    text = Text(line)
    for mark, style in MARK_STYLES.items():
        text.highlight_regex(rf"(?<![A-Za-z]){mark}(?![A-Za-z])", style)
    return text


def _picture_line(line: str) -> Text:
    if _ROW.match(line):  # a row of cells: colour every mark, dim the row numbers and the empty cells
        text = Text(line)
        text.highlight_regex(r"\d+|\.", "dim")
        for mark, style in MARK_STYLES.items():
            text.highlight_regex(mark, style)
        return text
    if _HEADER.match(line):  # column letters
        return Text(line, style="dim")
    return styled_line(line)


def styled_board(position: Position) -> Text:
    """``position.render()`` with the marks coloured and the coordinates dimmed (points on a
    circle: the marks coloured, a completed line in the list of lines highlighted).
    """
    board = getattr(position.game, "board", None)
    if board is not None and not board.placed:
        return Text("\n").join(_circle_line(line) for line in position.render().split("\n"))
    return Text("\n").join(_picture_line(line) for line in position.render().split("\n"))


def _circle_line(line: str) -> Text:
    text = Text(line)
    text.highlight_regex(r"^lines:", "dim")
    for mark, style in MARK_STYLES.items():
        text.highlight_regex(rf"(?<![A-Za-z0-9_]){mark}(?![A-Za-z0-9_])", style)
    text.highlight_regex(r"\*[^*]+\*", "bold green")
    return text
