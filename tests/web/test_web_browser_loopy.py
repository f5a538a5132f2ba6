"""The page on games that need not end, in headless Chromium: the mark that leaves next, each
mark's plies left, and a Morris slide played by two clicks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from web_cases import browser, live_server, open_page, state

import noughts

__all__ = ["browser"]  # the fixture, imported for pytest


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("arena") / "arena.db") as url:
        yield url


def start(page: Any, spec: str) -> int:
    page.select_option("#play-preset", "")
    page.fill("#play-spec", spec)
    page.select_option("#play-x", "human")
    page.select_option("#play-o", "human")
    page.click("#play-start")
    page.wait_for_function("() => /#\\/play\\/\\d+/.test(location.hash)")
    return int(page.evaluate("() => location.hash.split('/')[2]"))


def click(page: Any, key: int, ply: int) -> None:
    page.click(f"#play-board button[data-key='{key}']")
    page.wait_for_function("([ply]) => window.arena.play.state.ply >= ply", arg=[ply])


def test_the_leaving_mark_and_the_plies_left(browser: Any, base: str) -> None:
    g = noughts.game("forget(tictactoe)")
    page = open_page(browser, base + "/#/play")
    start(page, "forget(tictactoe)")
    for ply, name in enumerate(("a1", "c3", "b1", "a2", "c2", "b3"), start=1):
        click(page, g.board.parse_cell(name), ply)
    a1 = page.locator(f"#play-board button[data-key='{g.board.parse_cell('a1')}']")
    assert "leaving" in (a1.get_attribute("class") or "")
    assert a1.locator(".age").inner_text() == "1"
    assert page.locator("#play-board .age").count() == 6
    assert "a1 leaves after this move" in page.inner_text("#play-extra")
    assert page.errors == []


def test_a_morris_slide_is_two_clicks(browser: Any, base: str) -> None:
    g = noughts.game("morris")
    page = open_page(browser, base + "/#/play")
    gid = start(page, "morris")
    for ply, name in enumerate(("b2", "a1", "c2", "a2", "a3", "c1"), start=1):
        click(page, g.board.parse_cell(name), ply)
    b2, b3 = g.board.parse_cell("b2"), g.board.parse_cell("b3")
    page.click(f"#play-board button[data-key='{b2}']")  # pick up the centre mark
    assert "selected" in (page.locator(f"#play-board button[data-key='{b2}']").get_attribute("class") or "")
    assert "legal" in (page.locator(f"#play-board button[data-key='{b3}']").get_attribute("class") or "")
    click(page, b3, 7)
    s = state(base, gid)
    assert s["moves"][-1] == "b2-b3" and s["ply"] == 7
    assert page.errors == []
