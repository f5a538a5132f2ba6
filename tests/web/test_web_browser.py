"""The arena's page in a real headless Chromium (Debian's, driven by Playwright for Python)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_cases import PATIENCE, ServerProcess, browser, free_port, live_server, open_page, state

__all__ = ["browser"]  # the fixture, imported for pytest


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("arena") / "arena.db", max_training_episodes=10_000_000) as url:
        yield url


def start_game(page: Any, spec: str, x: str = "human", o: str = "perfect") -> int:
    page.select_option("#play-preset", "")
    page.fill("#play-spec", spec)
    page.select_option("#play-x", x)
    page.select_option("#play-o", o)
    before = page.evaluate("() => location.hash")
    page.click("#play-start")
    page.wait_for_function(
        "(before) => /#\\/play\\/\\d+/.test(location.hash) && location.hash !== before"
        " && window.arena.play.state && String(window.arena.play.state.id) === location.hash.split('/')[2]",
        arg=before,
    )
    return int(page.evaluate("() => location.hash.split('/')[2]"))


def wait_turn(page: Any, base: str, game_id: int, ply: int, timeout: float | None = None) -> dict[str, Any]:
    """Wait until the page shows game ``game_id`` at ``ply`` moves or more and the person's turn
    (or the end); ``timeout`` in seconds (Playwright's default otherwise).
    """
    page.wait_for_function(
        "([ply]) => { const s = window.arena.play.state; return s && s.ply >= ply && (s.over || s.turn === 'human'); }",
        arg=[ply],
        **({} if timeout is None else {"timeout": timeout * 1000}),
    )
    return state(base, game_id)


def test_a_full_game_against_the_perfect_player_ends_in_a_draw(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/play")
    gid = start_game(page, "tictactoe")
    s = wait_turn(page, base, gid, 0)
    while not s["over"]:
        analysis = httpx.post(
            f"{base}/api/analyse", json={"game": s["game"], "position": s["position"]}
        ).json()
        best = next(
            m for m in analysis["evaluation"]["moves"] if m["move"] == analysis["evaluation"]["best"][0]
        )
        page.click(f"#play-board button[data-key='{best['key']}']")
        s = wait_turn(page, base, gid, s["ply"] + 2 if s["ply"] < 8 else 9)
    assert s["outcome"] == "draw"
    assert re.search(r"Game over: draw", page.inner_text("#play-status"))
    assert (
        page.locator("#play-board .cell.m-x").count() == 5
        and page.locator("#play-board .cell.m-o").count() == 4
    )
    assert page.errors == []


def test_an_illegal_click_is_refused_with_a_message(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/play")
    gid = start_game(page, "tictactoe", "human", "human")
    page.click("#play-board button[data-key='4']")
    wait_turn(page, base, gid, 1)
    page.click("#play-board button[data-key='4']")  # taken
    page.wait_for_selector("#toast.show")
    assert "b2 is illegal: the cell is taken by x" in page.inner_text("#toast")
    assert state(base, gid)["moves"] == ["b2"]


def test_keyboard_play_arrows_enter_and_typed_cells(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/play")
    gid = start_game(page, "tictactoe", "human", "human")
    page.focus("#play-board button[data-key='0']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # b2
    wait_turn(page, base, gid, 1)
    page.click("body")
    page.keyboard.type("c3")  # typing a cell name goes to the move box
    page.keyboard.press("Enter")
    wait_turn(page, base, gid, 2)
    page.keyboard.press("Escape")  # leave the move box (focus goes back to the board)
    page.keyboard.press("u")  # undo: back one ply (two people, so the last person's turn)
    wait_turn(page, base, gid, 1)
    page.wait_for_function("() => window.arena.play.state.ply === 1")
    assert state(base, gid)["moves"] == ["b2"]


@pytest.mark.parametrize(
    ("spec", "selector", "key", "move"),
    [
        ("notakto(boards=2)", "#play-board .cell", 9 + 4, "2:b2"),
        ("hypercube(3,3)", "#play-board .cell", 13, "2,2,2"),
        ("otrio", "#play-board .ring", 3 * 4 + 1, "b2m"),
    ],
)
def test_special_boards_render_and_accept_moves(
    browser: Any, base: str, spec: str, selector: str, key: int, move: str
) -> None:
    page = open_page(browser, base + "/#/play")
    gid = start_game(page, spec, "human", "random")
    assert page.locator(selector).count() == {"otrio": 27}.get(spec, 18 if "notakto" in spec else 27)
    target = page.locator(f"#play-board button[data-key='{key}']")
    if spec == "otrio":  # a ring's own band, outside the smaller ring drawn over its middle
        box = target.bounding_box()
        target.click(position={"x": 5, "y": box["height"] / 2})
    else:
        target.click()
    s = wait_turn(page, base, gid, 2)
    assert s["moves"][0] == move
    assert "m-x" in (page.get_attribute(f"#play-board button[data-key='{key}']", "class") or "")
    assert page.errors == []


def test_the_evaluation_overlay_colours_every_empty_cell(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/play")
    start_game(page, "tictactoe", "human", "human")
    page.check("#play-eval")
    page.wait_for_selector("#play-board .cell .val")
    assert page.locator("#play-board .cell.v-draw").count() == 9  # every first move draws
    assert "draw" in page.inner_text("#play-eval-note")


def test_watch_two_agents_and_a_batch_with_a_live_result_bar(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/watch")
    page.fill("#watch-spec", "tictactoe")
    page.select_option("#watch-x", "perfect")
    page.select_option("#watch-o", "perfect:tie=random")
    page.eval_on_selector("#watch-speed", "el => { el.value = 0; el.dispatchEvent(new Event('input')); }")
    page.click("#watch-start")
    page.wait_for_function("() => window.arena.watch.state && window.arena.watch.state.over", timeout=30000)
    assert "Game over: draw" in page.inner_text("#watch-status")
    page.fill("#batch-games", "20")
    page.click("#batch-start")
    page.wait_for_function(
        "() => /20 of 20 games \\(finished/.test(document.querySelector('#batch-text').textContent)",
        timeout=60000,
    )
    assert "draw 20" in page.inner_text("#batch-bar")


def test_kill_the_server_mid_game_restart_it_and_resume(browser: Any, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "arena.db", free_port())
    server.start()
    try:
        page = open_page(browser, server.url + "/#/play")
        gid = start_game(page, "tictactoe", "human", "perfect")
        page.click("#play-board button[data-key='4']")
        wait_turn(page, server.url, gid, 2)
        server.kill()  # no shutdown: SIGKILL mid-game
        server.start()
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_function("() => window.arena.play.state && window.arena.play.state.ply === 2")
        marks = page.locator("#play-board .cell.m-x, #play-board .cell.m-o").count()
        assert marks == 2
        free = page.evaluate("() => window.arena.play.state.view.moves[0].key")
        page.click(f"#play-board button[data-key='{free}']")
        s = wait_turn(page, server.url, gid, 4)
        assert s["ply"] == 4 and s["moves"][0] == "b2"
    finally:
        server.kill()


def test_the_training_page_shows_a_chart_that_moves(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/train")
    page.fill("#train-spec", "tictactoe")
    page.fill("#train-episodes", "10000000")  # the first learner offered, for long enough to watch
    page.click("#train-start")
    page.wait_for_function(
        "() => /[1-9][\\d,]* of 10,000,000 episodes/.test(document.querySelector('#train-status').textContent)"
    )
    first = page.evaluate("() => document.querySelector('#chart-results').toDataURL()")
    shown = page.inner_text("#train-status")
    page.wait_for_function(
        "([before]) => document.querySelector('#train-status').textContent !== before", arg=[shown]
    )
    page.wait_for_timeout(500)
    second = page.evaluate("() => document.querySelector('#chart-results').toDataURL()")
    assert first != second  # the chart redraws with new points
    page.click("#train-stop")
    page.wait_for_function("() => /stopped/.test(document.querySelector('#train-status').textContent)")
    page.fill("#train-name", "browser-q")
    page.click("#train-save button")
    page.wait_for_selector("#train-download:not([hidden])")
    assert page.locator("#play-o option[value='saved:browser-q']").count() == 1  # a seat can hold it now


def test_analyse_a_position_from_the_game_in_play(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/play")
    gid = start_game(page, "tictactoe", "human", "human")
    page.click("#play-board button[data-key='0']")
    wait_turn(page, base, gid, 1)
    page.click("#play-analyse")
    page.wait_for_selector("#an-board .val")
    # the whole game is on the analysis board (issue 14), at its last move
    assert page.evaluate("() => window.arena.analysis.state.current.position") == "x../.../..."
    assert page.evaluate("() => window.arena.analysis.state.path().map((n) => n.move)") == ["a1"]
    expected = httpx.post(f"{base}/api/analyse", json={"game": "tictactoe", "position": "x../.../..."}).json()
    assert (
        page.inner_text("#an-verdict")
        == "With perfect play: draw"
        == "With perfect play: " + expected["evaluation"]["describe"]
    )
    assert page.inner_text("#an-pv") == " ".join(expected["solve"]["pv"])
    assert page.locator("#an-moves tr").count() == 1 + 8  # a header and every legal move


def test_an_unsolved_game_gets_the_engines_view_in_the_overlay(browser: Any, base: str) -> None:
    """Where the solver runs out of budget the overlay shows the engine's view: graded colours,
    labels that are proofs or normalised scores (never the engine's internal numbers), on the
    best few moves only on this 343-cell board."""
    page = open_page(browser, base + "/#/play")
    page.select_option("#play-budget", "0.5")
    start_game(page, "hypercube(7,3)", "human", "human")
    page.check("#play-eval")
    page.wait_for_selector("#play-board .cell .val", timeout=60000)
    note = page.inner_text("#play-eval-note")
    assert "The engine's view instead" in note and "within" in note and "0.5 s" in note, note
    assert "an estimate, not a proof" in note
    labels = page.locator("#play-board .cell .val").all_inner_texts()
    assert 1 <= len(labels) <= 5 and all(re.match(r"^[+-][01]\.\d\d$|^[WL]\d+$", t) for t in labels), labels
    assert page.locator("#play-board .cell.legal[class*='g-']").count() == 343
    assert page.errors == []


# -- issue 11: opponents that answer in time, seats that change, games that cannot die ----------------


def test_4x4x4_with_the_default_opponent_answers_and_says_whether_proven(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/play")
    page.select_option("#play-preset", "hypercube(4,3)")
    page.wait_for_function(
        "() => document.querySelector('#play-o').value === 'perfect'"
    )  # its default opponent
    page.select_option("#play-x", "human")
    page.click("#play-start")
    page.wait_for_function(
        "() => /#\\/play\\/\\d+$/.test(location.hash)"
    )  # the game (its token stays in the browser)
    gid = int(page.evaluate("() => location.hash.split('/')[2]"))
    for move in range(3):
        free = page.evaluate("() => window.arena.play.state.view.moves[0].key")
        page.click(f"#play-board button[data-key='{free}']")
        # a generous wait (a bound against hanging, not a check of speed): the agent's clock is
        # the pool's to enforce (its worker is killed past it); a move killed so would show as
        # the game's error, not as a decision by the perfect player
        s = wait_turn(page, base, gid, 2 * (move + 1), timeout=PATIENCE)
        decision = s["decision"]
        assert decision["by"] == "perfect" and not s.get("error"), str(s)
        shown = page.inner_text("#play-decision")
        assert f"perfect played {decision['move']}" in shown
        assert ("(proven best)" in shown) if decision["proven"] else ("(not proven:" in shown)
    # change a seat mid-game: o goes to the random player, and it answers the next move
    page.wait_for_selector("#seats-card:not([hidden])")
    page.select_option("#seat-o", "random")
    page.click("#seats-change")
    page.wait_for_function("() => window.arena.play.state.o === 'random'")
    free = page.evaluate("() => window.arena.play.state.view.moves[0].key")
    page.click(f"#play-board button[data-key='{free}']")
    s = wait_turn(page, base, gid, 8)
    assert (
        s["o"] == "random"
        and s["decision"]["by"] == "random"
        and "random played" in page.inner_text("#play-decision")
    )
    assert page.errors == []


def test_a_game_whose_agent_fails_stays_playable(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/play")
    # an agent whose search cannot stop itself and cannot answer within half a second (minimax,
    # MCTS and the engine stop their own searches at the limit)
    page.evaluate("() => window.arena.play.start('mnk(5,5,4)', 'human', 'qlearning:depth=10,seconds=0.5')")
    page.wait_for_function("() => window.arena.play.state && window.arena.play.state.turn === 'human'")
    gid = page.evaluate("() => window.arena.play.state.id")
    page.click("#play-board button[data-key='0']")  # a1
    page.wait_for_selector("#play-error:not([hidden])", timeout=30000)
    assert "could not move" in page.inner_text("#play-error") and "Try again" in page.inner_text(
        "#play-error"
    )
    s = state(base, gid)
    assert s["ply"] == 1 and s["error"]  # nothing lost, the failure recorded
    # undo works
    page.click("#play-undo")
    page.wait_for_function("() => window.arena.play.state.ply === 0")
    page.click("#play-board button[data-key='0']")
    page.wait_for_selector("#play-error:not([hidden])", timeout=30000)
    # hand the seat to an agent that answers in time: the game goes on
    page.select_option("#seat-o", "minimax:depth=1")
    page.click("#seats-change")
    s = wait_turn(page, base, gid, 2)
    assert s["o"] == "minimax:depth=1" and s["ply"] == 2 and s["error"] is None
    assert page.locator("#play-error").is_hidden()
    assert page.errors == []


def test_rows_and_columns_are_labelled_as_moves_are_typed(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/play")
    start_game(page, "hypercube(3,3)", "human", "human")
    panel = page.locator("#play-board .panel").nth(1)
    assert panel.locator(".panel-title").inner_text() == "layer 2"
    assert panel.locator(".col-labels .axis").all_inner_texts() == ["1", "2", "3"]
    assert panel.locator(".row-labels .axis").all_inner_texts() == ["1", "2", "3"]
    page.fill("#play-move", "2,1,3")  # layer 2, row 1, column 3: where the labels say
    page.click("#play-form button")
    page.wait_for_function("() => window.arena.play.state.ply === 1")
    cell = panel.locator(".grid > *").nth(2)  # row 1, column 3 of layer 2
    assert "m-x" in (cell.get_attribute("class") or "")
    start_game(page, "tictactoe", "human", "human")
    assert page.locator("#play-board .col-labels .axis").all_inner_texts() == ["a", "b", "c"]
