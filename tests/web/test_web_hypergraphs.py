"""Boards given by their lines in the web arena: served like any board, a bad hypergraph and
``file=`` (a spec from the network never names files on the server) refused with a 4xx."""

from __future__ import annotations

import pytest
from web_cases import client

FANO = 'hypergraph("a b c / a d e / a f g / b d f / b e g / c d g / c e f")'


@pytest.mark.parametrize("spec", ["affine(3)", "projective(2)", "torus(4,4,4)", FANO])
def test_game_info_and_a_game(spec: str) -> None:
    c = client()
    info = c.get("/api/game-info", params={"spec": spec})
    assert info.status_code == 200, info.text
    made = c.post("/api/games", json={"game": spec, "x": "random", "o": "random"})
    assert made.status_code == 201, made.text
    names = [cell["name"] for row in made.json()["view"]["panels"][0]["cells"] for cell in row if cell]
    if spec == FANO:
        assert names == list("abcdefg")  # a point is shown and typed by its name


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ('hypergraph(file="/etc/hostname")', "command line only"),
        ('hypergraph("a b / b a")', "same points"),
        ('hypergraph("a b / c c")', "appears twice"),
        ('hypergraph("a b / c d", points="a b c")', "names the point 'd'"),
        ("affine(6)", "not a prime power"),
        ('hypergraph("a b / / c d")', "line 2 is empty"),
        ('hypergraph("a b c / c d")', "every line must have the same number of points"),
        ('hypergraph("a b", points="a b a")', "listed twice in points="),
        ('hypergraph("a b", at="0,0 0,0")', "the same coordinates"),
        ("affine(128)", ""),  # 16,384 points: refused by the size check or the constructor
    ],
)
def test_bad_hypergraphs_are_refused(spec: str, message: str) -> None:
    r = client().get("/api/game-info", params={"spec": spec})
    assert r.status_code == 400 and message in r.json()["error"], r.text


def test_the_ring_of_the_docs_is_served_as_points_with_its_lines() -> None:
    """docs/boards.md's 30 points and 40 lines: its spec (500 characters, the lines written out)
    is taken, and the view draws points on a circle with every line."""
    from test_web_browser_hypergraphs import RING, RING30

    assert len(RING30) > 200  # past the API's old limit on a spec
    c = client()
    made = c.post("/api/games", json={"game": RING30, "x": "human", "o": "human"})
    assert made.status_code == 201, made.text
    view = made.json()["view"]
    assert view["layout"] == "points" and view["lines"] == RING and view["won_lines"] == []
    spots = [(cell["x"], cell["y"]) for row in view["panels"][0]["cells"] for cell in row if cell]
    assert len(spots) == 30 and all(abs((x - 0.5) ** 2 + (y - 0.5) ** 2 - 0.25) < 1e-3 for x, y in spots)
