"""The page's layout on a desktop and on a phone (issue 28's player's view): 7x7x7's layers in a
grid, Otrio's labels over their cells, a 15x15 board whole on a 390 px phone, the Start button
and the games table's links on the phone's screen, the move box emptied by a played move, and
the leaderboard's loading text. Each is a box or a text in Chromium, never a time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from web_cases import PATIENCE, browser, live_server

__all__ = ["browser"]  # the fixture, imported for pytest

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("arena") / "arena.db") as url:
        yield url


def _page(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(PATIENCE * 1000)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


def _start(page: Any, spec: str) -> None:
    before = page.evaluate("() => window.arena.play.state ? window.arena.play.state.id : null")
    page.select_option("#play-preset", "")
    page.fill("#play-spec", spec)
    page.select_option("#play-x", "human")
    page.select_option("#play-o", "human")
    page.click("#play-start")
    page.wait_for_function(  # a new game (its state names the canonical spec, not what was typed)
        "(before) => window.arena.play.state && window.arena.play.state.id !== before", arg=before
    )
    page.wait_for_selector("#play-board .panel")


def _boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return page.eval_on_selector_all(
        selector,
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return {x: r.x, y: r.y, w: r.width, h: r.height, right: r.right, bottom: r.bottom}; })",
    )


def test_7x7x7_lays_its_layers_out_in_a_grid_on_a_desktop(browser: Any, base: str) -> None:
    page = _page(browser, base + "/#/play", DESKTOP)
    _start(page, "hypercube(7,3)")
    panels = _boxes(page, "#play-board .panel")
    assert len(panels) == 7
    columns = {round(p["x"]) for p in panels}
    rows = {round(p["y"]) for p in panels}
    assert len(columns) >= 3, panels  # not one column of seven
    assert len(rows) <= 3, panels
    board = _boxes(page, "#play-board")[0]
    assert all(p["right"] <= board["right"] + 1 and p["right"] <= DESKTOP["width"] for p in panels), panels
    assert page.errors == []


def test_otrio_labels_stand_over_and_beside_their_cells(browser: Any, base: str) -> None:
    page = _page(browser, base + "/#/play", DESKTOP)
    _start(page, "otrio")
    cells = _boxes(page, "#play-board .grid > .cell")
    columns = _boxes(page, "#play-board .col-labels .axis")
    rows = _boxes(page, "#play-board .row-labels .axis")
    assert len(cells) == 9 and len(columns) == 3 and len(rows) == 3
    for i, label in enumerate(columns):  # each column's label centred over its cells
        cell = cells[i]
        assert abs((label["x"] + label["w"] / 2) - (cell["x"] + cell["w"] / 2)) <= 3, (label, cell)
        assert label["bottom"] <= cell["y"] + 1
    for i, label in enumerate(rows):  # each row's label level with its cells
        cell = cells[3 * i]
        assert abs((label["y"] + label["h"] / 2) - (cell["y"] + cell["h"] / 2)) <= 3, (label, cell)
        assert label["right"] <= cell["x"] + 1
    assert page.errors == []


def test_a_phone_shows_the_whole_15x15_board_the_start_button_and_the_games_links(
    browser: Any, base: str
) -> None:
    page = _page(browser, base + "/#/play", PHONE)
    start = _boxes(page, "#play-start")[0]
    assert start["bottom"] <= PHONE["height"], start  # on the first screen, before other cards
    setup = _boxes(page, "#page-play .card.setup")[0]
    others = _boxes(page, "#page-play .side .card:not(.setup):not([hidden])")
    assert all(setup["y"] < card["y"] for card in others), (setup, others)
    _start(page, "mnk(15,15,5)")
    width = page.eval_on_selector("#play-board", "e => [e.scrollWidth, e.clientWidth]")
    assert width[0] <= width[1], width  # nothing hidden inside the board's box
    cells = _boxes(page, "#play-board .cell")
    assert len(cells) == 225
    assert max(c["right"] for c in cells) <= PHONE["width"], max(c["right"] for c in cells)
    labels = page.eval_on_selector_all("#play-board .col-labels .axis", "els => els.map(e => e.textContent)")
    assert labels[-1] == "o"
    page.goto(base + "/#/games")
    page.wait_for_selector("#games-table a")
    links = _boxes(page, "#games-table a")
    assert links and all(a["x"] >= 0 and a["right"] <= PHONE["width"] for a in links), links
    assert page.errors == []


def test_a_played_move_leaves_the_move_box(browser: Any, base: str) -> None:
    page = _page(browser, base + "/#/play", DESKTOP)
    _start(page, "tictactoe")
    page.fill("#play-move", "b2")
    page.press("#play-move", "Enter")
    page.wait_for_function("() => window.arena.play.state.ply === 1")
    assert page.input_value("#play-move") == ""
    assert page.text_content("#toast") == ""
    page.fill("#play-move", "b2")  # taken: refused (a toast says why), and kept to correct
    page.press("#play-move", "Enter")
    page.wait_for_function("() => document.getElementById('toast').textContent.length > 0")
    assert page.input_value("#play-move") == "b2"
    assert page.evaluate("() => window.arena.play.state.ply") == 1
    assert page.errors == []


def test_the_leaderboard_says_it_is_loading_until_its_answer_comes(browser: Any, base: str) -> None:
    page = _page(browser, base + "/#/play", DESKTOP)
    held: list[Any] = []
    page.route("**/api/leaderboard*", lambda route: held.append(route))
    page.goto(base + "/#/leaderboard")
    page.wait_for_function("() => document.getElementById('lb-note').textContent.startsWith('Loading')")
    assert page.get_attribute("#page-leaderboard", "aria-busy") == "true"
    while not held:  # the request is held here until the loading text has been seen
        page.wait_for_timeout(20)
    held[0].continue_()  # then no more holding (unroute first would let the held one go itself)
    page.unroute("**/api/leaderboard*")
    page.wait_for_function("() => !document.getElementById('lb-note').textContent.startsWith('Loading')")
    assert page.get_attribute("#page-leaderboard", "aria-busy") is None
    assert page.errors == []
