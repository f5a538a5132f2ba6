"""The engine's view on positions the solver does not finish (issue 13): ``/api/evaluate`` and
the overlay that draws it, in a real headless Chromium, on 15x15, 4x4x4 and 7x7x7 and on a
phone-sized screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from web_cases import browser, client, live_server, open_page

import noughts
from noughts.web.boards import EDGE, GRADES

__all__ = ["browser"]  # the fixture, imported for pytest

LABEL = re.compile(r"^(W|L)\d+$|^[+-][01]\.\d\d$")
"""What a label may be: a proven win or loss with its plies, or a normalised score."""


def test_every_move_valued_labelled_and_graded_for_the_mover() -> None:
    g = noughts.game("mnk(15,15,5)")
    p = g.start()
    for m in ["h8", "h9", "i8", "i9", "j8"]:  # x's open three, o to move
        p = p.play(g.parse_move(m))
    with client() as c:
        data = c.post("/api/evaluate", json={"game": str(g), "position": p.text(), "max_seconds": 1}).json()
    moves = data["moves"]
    assert {m["move"] for m in moves} == {g.format_move(m) for m in p.legal_moves()}
    assert [m["rank"] for m in moves] == list(range(1, len(moves) + 1))
    assert [m["value"] for m in moves] == sorted((m["value"] for m in moves), reverse=True)
    assert sorted(m["move"] for m in moves[:2]) == ["g8", "k8"]  # the blocks lead
    for m in moves:
        assert LABEL.match(m["label"]), m
        assert -1 <= m["value"] <= 1
        if m["proven"] is not None:
            assert m["grade"] == m["proven"] and m["label"] == f"{m['proven'][0].upper()}{m['plies']}"
            assert m["value"] == (1 if m["proven"] == "win" else -1)
        else:
            expected = "good" if m["value"] >= EDGE else "bad" if m["value"] <= -EDGE else "even"
            assert m["grade"] == expected and m["label"] == f"{m['value']:+.2f}"
    # every other move lets x make an open four: a proven loss, said in words
    assert all(m["label"] == "L4" and m["describe"] == "a proven loss in 4 plies" for m in moves[2:])
    assert data["engine"] == "engine" and data["estimate"] is True and data["proven"] == len(moves) - 2
    assert "not a proof); 218 moves are proven losses" in data["describe"] and data["best"][0] in ("g8", "k8")
    assert [x["grade"] for x in data["grades"]] == [grade for grade, _ in GRADES]


def test_proofs_are_said_in_words_and_bad_requests_are_refused() -> None:
    g = noughts.game("mnk(9,9,5)")
    p = g.start()
    for m in ["a1", "e5", "a3", "e4", "a5", "e3", "a7", "e2"]:  # o's open four in column e: x cannot stop it
        p = p.play(g.parse_move(m))
    with client() as c:
        data = c.post("/api/evaluate", json={"game": str(g), "position": p.text()}).json()
        assert {m["label"] for m in data["moves"]} == {"L2"} and {m["grade"] for m in data["moves"]} == {
            "loss"
        }
        assert data["describe"] == "x loses: every move is a proven loss (the longest in 2 plies)"
        over = c.post("/api/evaluate", json={"game": "tictactoe", "position": "xxx/oo./..."})
        veto = c.post("/api/evaluate", json={"game": "notakto(boards=2)"})
        slow = c.post("/api/evaluate", json={"game": "mnk(15,15,5)", "max_seconds": 30})
        extra = c.post("/api/evaluate", json={"game": "mnk(15,15,5)", "depth": 3})
    assert over.status_code == 400 and "game is over" in over.json()["error"]
    assert veto.status_code == 400 and "claim games" in veto.json()["error"]
    assert slow.status_code == 400 and "max_seconds is at most" in slow.json()["error"]
    assert extra.status_code == 422
    g2 = noughts.game("mnk(15,15,5)")
    q = g2.start()
    for m in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a15"]:  # x has an open four: wins now
        q = q.play(g2.parse_move(m))
    with client() as c:
        data = c.post("/api/evaluate", json={"game": str(g2), "position": q.text()}).json()
    assert data["moves"][0]["label"] == "W1" and data["moves"][0]["grade"] == "win"
    assert data["describe"] == f"x wins: {data['moves'][0]['move']} is a proven win in 1 ply"


# -- in the browser ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("arena") / "arena.db") as url:
        yield url


def _start(page: Any, spec: str, moves: list[str]) -> None:
    page.select_option("#play-preset", "")
    page.fill("#play-spec", spec)
    page.select_option("#play-x", "human")
    page.select_option("#play-o", "human")
    page.click("#play-start")
    page.wait_for_function("() => window.arena.play.state && window.arena.play.state.turn === 'human'")
    for i, move in enumerate(moves, 1):
        page.fill("#play-move", move)
        page.press("#play-move", "Enter")
        page.wait_for_function("([n]) => window.arena.play.state.ply === n", arg=[i])


def _overlay(page: Any) -> dict[str, Any]:
    page.select_option("#play-budget", "0.5")
    page.check("#play-eval")
    page.wait_for_selector("#play-eval-legend:not([hidden])", timeout=60000)
    page.wait_for_selector("#play-board .cell .val")
    return dict(
        page.evaluate(
            """() => {
                const cells = [...document.querySelectorAll('#play-board .cell.legal')];
                const graded = cells.filter((c) => [...c.classList].some((k) => k.startsWith('g-')));
                const vals = [...document.querySelectorAll('#play-board .cell .val')];
                const board = document.getElementById('play-board').getBoundingClientRect();
                return {legal: cells.length, graded: graded.length,
                        labels: vals.map((v) => v.textContent),
                        labelled: vals.map((v) => v.parentElement.dataset.key),
                        legend: document.getElementById('play-eval-legend').textContent,
                        note: document.getElementById('play-eval-note').textContent,
                        scroll: document.documentElement.scrollWidth, width: window.innerWidth,
                        right: board.right};
            }"""
        )
    )


@pytest.mark.parametrize(("width", "height"), [(1280, 860), (390, 844)])
def test_15x15_shows_the_engines_view_readably(browser: Any, base: str, width: int, height: int) -> None:
    page = open_page(browser, base + "/#/play")
    page.set_viewport_size({"width": width, "height": height})
    _start(page, "mnk(15,15,5)", ["h8", "h9", "i8", "i9", "j8"])
    o = _overlay(page)
    assert "not solved within 0.5 s" in o["note"] and "The engine's view instead" in o["note"]
    assert (
        "not a proof); 218 moves are proven losses" in o["note"]
        and "labels on its best moves (up to 5)" in o["note"]
    )
    assert o["legal"] == o["graded"] == 220  # every legal cell has a grade's colour
    assert len(o["labels"]) == 2 and all(re.match(r"^[+-][01]\.\d\d$|^[WL]\d+$", t) for t in o["labels"])
    g = noughts.game("mnk(15,15,5)")
    blocks = {str(g.action(g.parse_move(m))) for m in ("g8", "k8")}
    assert blocks == set(o["labelled"])  # the two blocks are the labelled best (the rest: proven losses)
    for word in (
        "proven win",
        "better (estimate)",
        "about even (estimate)",
        "worse (estimate)",
        "proven loss",
    ):
        assert word in o["legend"]
    lost = page.locator("#play-board button[data-key='0']")  # a1: a proven loss in 4, coloured, unlabelled
    assert "g-loss" in (lost.get_attribute("class") or "") and lost.inner_text() == ""
    assert "a proven loss in 4 plies" in (lost.get_attribute("title") or "")
    assert o["scroll"] <= o["width"]  # the page fits the screen
    assert page.errors == []


@pytest.mark.parametrize("spec", ["hypercube(4,3)", "hypercube(7,3)"])
def test_cubes_show_the_engines_view(browser: Any, base: str, spec: str) -> None:
    page = open_page(browser, base + "/#/play")
    _start(page, spec, ["2,2,2"])
    o = _overlay(page)
    cells = noughts.game(spec).board.num_cells
    assert o["legal"] == o["graded"] == cells - 1
    if cells > 64:
        assert 1 <= len(o["labels"]) <= 5
    else:
        assert len(o["labels"]) == cells - 1  # a small board labels every move
    assert all(LABEL.match(t) for t in o["labels"]), o["labels"]
    assert page.errors == []


def test_the_analysis_board_shows_the_engines_view_where_the_solver_stops(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/analyse?game=mnk(15,15,5)&moves=h8%20h9%20i8%20i9%20j8")
    page.wait_for_function(
        "() => { const a = window.arena.analysis.state; return a.root && a.shown === a.current && a.current.move === 'j8'; }"
    )
    page.select_option("#an-budget", "0.5")
    page.click("#an-solve")
    page.wait_for_selector("#an-eval-legend:not([hidden])", timeout=60000)
    verdict = page.inner_text("#an-verdict")
    assert verdict.startswith("Not solved. The engine's view: the engine's best for o is"), verdict
    rows = page.locator("#an-moves tr").all_inner_texts()
    assert len(rows) == 11 and any("a proven loss in 4 plies" in r for r in rows)  # a header and ten moves
    assert {r.split()[0] for r in rows[1:3]} == {"g8", "k8"}
    assert page.locator("#an-board .cell.legal[class*='g-']").count() == 220
    assert page.locator("#an-board .cell .val").count() == 2
    assert page.errors == []
