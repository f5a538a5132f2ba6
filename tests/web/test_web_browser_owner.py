"""The page's side of ownership: the address bar never carries a game's token, the watch link
is the one to share, a watcher sees "watching", and a finished game says who won."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_cases import browser, live_server, open_page

__all__ = ["browser"]  # the fixture, imported for pytest


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("arena") / "arena.db") as url:
        yield url


def test_the_token_stays_out_of_the_address_bar_and_watchers_watch(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/play")
    page.select_option("#play-preset", "")
    page.fill("#play-spec", "tictactoe")
    page.select_option("#play-x", "human")
    page.select_option("#play-o", "human")
    page.click("#play-start")
    page.wait_for_function("() => /#\\/play\\/\\d+$/.test(location.hash) && window.arena.play.state")
    gid = int(page.evaluate("() => location.hash.split('/')[2]"))
    assert "your move" in page.inner_text("#play-status")
    watch_link = page.get_attribute("#play-links a.watch-link", "href")
    play_link = page.get_attribute("#play-links a.play-link", "href")
    assert watch_link == f"#/play/{gid}"
    token = play_link.rsplit("/", 1)[1]
    assert play_link.endswith(f"#/play/{gid}/{token}") and len(token) >= 24

    watcher = open_page(browser, base + f"/#/play/{gid}")  # a fresh browser context: no token
    watcher.wait_for_function("() => window.arena.play.state")
    assert "watching" in watcher.inner_text("#play-status")
    assert "your move" not in watcher.inner_text("#play-status")
    assert watcher.query_selector("#play-links a.play-link") is None

    player = open_page(browser, base + f"/#/play/{gid}/{token}")  # the play link: the game is theirs
    player.wait_for_function(f"() => location.hash === '#/play/{gid}' && window.arena.play.state")
    assert "your move" in player.inner_text("#play-status")
    for p in (page, watcher, player):
        assert p.errors == []


def test_a_finished_game_says_who_won(browser: Any, base: str) -> None:
    r = httpx.post(
        f"{base}/api/games",
        json={"game": "tictactoe", "x": "human", "o": "human", "position": "xx./oo./..."},
        headers={"X-Noughts-Client": "tests"},
    )
    assert r.status_code == 201, r.text
    s = r.json()
    page = open_page(browser, base + f"/#/play/{s['id']}/{s['token']}")
    page.wait_for_function("() => window.arena.play.state")
    win = next(m for m in s["view"]["moves"] if m["move"] == "c1")
    page.click(f"#play-board button[data-key='{win['key']}']")
    page.wait_for_function("() => window.arena.play.state.over")
    assert "Game over: x won after 1 move" in page.inner_text("#play-status")  # one move from its start
