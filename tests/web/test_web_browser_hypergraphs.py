"""Boards given by their lines in Chromium (issue 27): the user's 30-point, 40-line board of
docs/boards.md drawn as points on a circle with its lines, a hovered point lighting every line
through it (picture and list), a game played to a completed line that the picture and the list
highlight; a finite plane keeps its grid and lights the lines through a hovered cell."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
from web_cases import browser, live_server, open_page, state

__all__ = ["browser"]  # the fixture, imported for pytest

RING = [[i, (i + 1) % 30, (i + 3) % 30] for i in range(30)] + [[i, i + 10, i + 20] for i in range(10)]
RING30 = (
    'hypergraph("'
    + " / ".join(" ".join(map(str, line)) for line in RING)
    + '",points="'
    + " ".join(map(str, range(30)))
    + '")'
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("arena") / "arena.db") as url:
        yield url


def _start(page: Any, spec: str) -> int:
    page.select_option("#play-preset", "")
    page.fill("#play-spec", spec)
    page.select_option("#play-x", "human")
    page.select_option("#play-o", "human")
    before = page.evaluate("() => location.hash")
    page.click("#play-start")
    page.wait_for_function(
        "(before) => /#\\/play\\/\\d+/.test(location.hash) && location.hash !== before"
        " && window.arena.play.state && String(window.arena.play.state.id) === location.hash.split('/')[2]",
        arg=before,
    )
    page.wait_for_selector("#play-board .line-list")
    return int(page.evaluate("() => location.hash.split('/')[2]"))


def _centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _lit(page: Any) -> tuple[list[int], list[int], list[int]]:
    """The lines lit in the picture, the lines lit in the list, the points lit."""
    return (
        sorted(
            int(n)
            for n in page.eval_on_selector_all(
                "#play-board polyline.through", "e => e.map(x => x.dataset.line)"
            )
        ),
        sorted(
            int(n)
            for n in page.eval_on_selector_all("#play-board li.through", "e => e.map(x => x.dataset.line)")
        ),
        sorted(
            int(n)
            for n in page.eval_on_selector_all("#play-board button.on-line", "e => e.map(x => x.dataset.key)")
        ),
    )


def test_the_ring_of_30_points_is_drawn_on_a_circle_hovered_and_won(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/play")
    gid = _start(page, RING30)
    assert page.locator("#play-board button.point").count() == 30
    assert page.locator("#play-board polyline").count() == 40
    assert page.locator("#play-board li[data-line]").count() == 40
    centres = [_centre(page, f"#play-board button[data-key='{c}']") for c in range(30)]
    cx = sum(x for x, _ in centres) / 30
    cy = sum(y for _, y in centres) / 30
    radii = [math.hypot(x - cx, y - cy) for x, y in centres]
    assert max(radii) - min(radii) <= 2 and min(radii) > 50, radii  # on one circle
    assert centres[0][1] < cy and abs(centres[0][0] - cx) <= 2  # point 0 at the top
    assert (
        page.inner_text("#play-board button[data-key='14']").strip() == "14"
    )  # an empty point shows its name
    page.hover("#play-board button[data-key='14']")
    through = [j for j, line in enumerate(RING) if 14 in line]
    on = sorted({c for j in through for c in RING[j]})
    assert _lit(page) == (through, through, on)
    page.hover("#play-board .panel-title")
    assert _lit(page) == ([], [], [])
    for ply, cell in enumerate([0, 10, 1, 20, 3], 1):  # x takes the line 0 1 3
        page.click(f"#play-board button[data-key='{cell}']")
        page.wait_for_function(
            "(ply) => window.arena.play.state && window.arena.play.state.ply === ply", arg=ply
        )
    assert state(base, gid)["over"]
    page.wait_for_selector("#play-board polyline.won")
    assert page.eval_on_selector_all("#play-board polyline.won", "e => e.map(x => x.dataset.line)") == ["0"]
    assert page.eval_on_selector_all("#play-board li.won", "e => e.map(x => x.textContent)") == ["0 1 3"]
    assert page.errors == []


def test_a_plane_keeps_its_grid_and_lights_the_lines_through_a_cell(browser: Any, base: str) -> None:
    page = open_page(browser, base + "/#/play")
    _start(page, "affine(3)")
    assert page.locator("#play-board .grid button.cell").count() == 9  # coordinates: a grid
    assert page.locator("#play-board polyline").count() == 0
    assert page.locator("#play-board li[data-line]").count() == 12
    page.hover("#play-board button[data-key='4']")  # b2: q + 1 = 4 lines through every point of AG(2,3)
    lines, listed, points = _lit(page)
    assert len(lines) == 0 and len(listed) == 4 and points == list(range(9))  # they cover the plane
    assert page.errors == []
