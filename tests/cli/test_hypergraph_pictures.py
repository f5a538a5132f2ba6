"""Pictures of boards given by their lines at the terminal (issue 27): points without
coordinates stand on a circle in their order (the arena draws the same), the lines are listed
under the picture with the claimed points' marks, and a completed line is marked (and coloured
by ``noughts play``/``show``); boards with coordinates keep their grid."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

from cli_cases import invoke

import noughts
from noughts.cli.views import styled_board
from noughts.core.hypergraphs import user_files
from noughts.core.text import render_line_list

FANO = 'hypergraph("a b c / a d e / a f g / b d f / b e g / c d g / c e f")'
RING = [[i, (i + 1) % 30, (i + 3) % 30] for i in range(30)] + [[i, i + 10, i + 20] for i in range(10)]


def _ring_file(tmp_path: Path) -> str:
    path = tmp_path / "ring30.json"
    path.write_text(json.dumps({"points": list(range(30)), "lines": RING}))
    return f'hypergraph(file="{path}")'


def _labels(picture: list[str]) -> dict[str, tuple[int, int]]:
    """Each label of a circle picture and where it starts (row, column)."""
    return {m.group(): (r, m.start()) for r, line in enumerate(picture) for m in re.finditer(r"\S+", line)}


def test_the_ring_of_30_points_stands_on_a_circle_in_order(tmp_path: Path) -> None:
    with user_files():  # as the command line reads it
        game = noughts.game(_ring_file(tmp_path))
    text = game.start().render().split("\n")
    split = next(i for i, line in enumerate(text) if line.startswith("lines:"))
    picture, listed = text[:split], text[split:]
    at = _labels(picture)
    assert sorted(at, key=int) == [str(i) for i in range(30)]  # every point once, by its name
    cx = sum(c for _, c in at.values()) / 30
    cy = sum(r for r, _ in at.values()) / 30
    angles = [math.atan2(at[str(i)][1] - cx, 2 * (cy - at[str(i)][0])) % (2 * math.pi) for i in range(30)]
    assert at["0"][0] == 0 and min(angles[0], 2 * math.pi - angles[0]) < 0.2  # the first at the top
    assert all(a < b for a, b in itertools.pairwise(angles[1:])), angles  # then clockwise
    distances = [math.hypot(c - cx, 2 * (r - cy)) for r, c in at.values()]  # rows count double
    assert max(distances) < 1.5 * min(distances), distances  # round, not a grid
    assert (
        listed[0].startswith("lines: 0 1 3") and sum(len(re.findall(r"\d+ \d+ \d+", s)) for s in listed) == 40
    )


def test_a_completed_line_is_marked_in_the_list_and_coloured() -> None:
    game = noughts.game(FANO)
    position = game.start()
    for name in ["a", "d", "b", "e", "c"]:
        position = position.play(game.parse_move(name))
    text = position.render()
    assert "*a=x b=x c=x*" in text and "a=x d=o e=o" in text and text.count("*") == 2
    styled = styled_board(position)
    won = [s for s in styled.spans if styled.plain[s.start : s.end] == "*a=x b=x c=x*"]
    assert won and str(won[0].style) == "bold green"
    board = game.board
    assert (
        render_line_list(board, ["."] * 7)[0]
        == "lines: a b c   a d e   a f g   b d f   b e g   c d g   c e f"
    )


def test_show_and_play_draw_the_circle(tmp_path: Path) -> None:
    r = invoke("show", _ring_file(tmp_path))
    assert r.exit_code == 0, r.output
    assert "lines: 0 1 3" in r.output and "automorphisms" in r.output
    played = invoke("play", FANO, "--x", "human", "--o", "human", "--no-record", input="a\nd\nb\ne\nc\n")
    assert played.exit_code == 0, played.output
    assert "*a=x b=x c=x*" in played.output and "x wins" in played.output


def test_boards_with_coordinates_keep_their_grid() -> None:
    text = noughts.game("affine(3)").start().render()
    assert "lines:" not in text and text.split("\n")[0].split() == ["a", "b", "c"]
    placed = noughts.game('hypergraph("a b c / c d e", at="0,0 0,1 0,2 1,2 2,2")').start().render()
    assert "lines:" not in placed and placed.split("\n")[0].split() == ["a", "b", "c"]


def test_the_ring_of_the_docs_plays_solves_and_has_no_pairing(tmp_path: Path) -> None:
    """docs/boards.md's 30 points and 40 lines from a JSON file: played by two agents to the end
    at the terminal, solved (x wins in 9 plies), and no pairing (Hall fails on four lines)."""
    spec = _ring_file(tmp_path)
    played = invoke("play", spec, "--x", "random", "--o", "random", "--no-record")
    assert played.exit_code == 0, played.output
    assert "lines: " in played.output and re.search(r"x wins|o wins|draw", played.output)
    solved = invoke("solve", spec, "--value-only", "--max-seconds", "120")
    assert solved.exit_code == 0 and "x wins in 9 plies" in solved.output, solved.output
    pairing = invoke("pairing", "find", spec)
    assert pairing.exit_code == 1 and "no pairing strategy" in pairing.output, pairing.output
