"""The arena on a fresh machine, in a real headless Chromium: ``noughts serve`` on an empty numba
cache warms its kernels up, says so in the terminal and on the page, and the first move of each
big preset against its default opponent is answered (not killed at its budget while a kernel
compiles). Nothing here depends on the machine's speed: the test waits for events (the
terminal's line, the page's state) with bounds that only stop a hang (``PATIENCE``).
"""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_cases import NOUGHTS, PATIENCE, browser, free_port, open_page

__all__ = ["browser"]  # the fixture, imported for pytest

PRESETS = (
    ("mnk(15,15,5)", "engine"),  # Gomoku 15x15
    ("hypercube(7,3)", "engine"),  # 7x7x7
    ("hypercube(4,3)", "perfect"),  # 4x4x4
)


class ColdServer:
    """``noughts serve`` with ``NUMBA_CACHE_DIR`` an empty folder; its output read as it comes."""

    def __init__(self, tmp: Path, empty_cache: bool = True):
        env = {**os.environ, "PYTHONWARNINGS": "ignore"}
        if empty_cache:
            (tmp / "numba").mkdir()
            env["NUMBA_CACHE_DIR"] = str(tmp / "numba")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.lines: list[str] = []
        self.warm = threading.Event()
        self.proc = subprocess.Popen(
            [
                str(NOUGHTS),
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(tmp / "a.db"),
                "--no-open",
                "--no-access-log",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith("noughts: warm:"):
                self.warm.set()
        self.warm.set()  # it ended: the test's checks say how

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def play_first_move(page: Any, spec: str, opponent: str) -> dict[str, Any]:
    """Start ``spec`` from the page as x against its preset's default opponent, play the first
    free cell, and wait (on the page's own state) for the opponent's reply."""
    page.goto(page.url.split("#")[0] + "#/play")
    page.select_option("#play-preset", spec)
    page.wait_for_function("(o) => document.querySelector('#play-o').value === o", arg=opponent)
    page.select_option("#play-x", "human")
    page.click("#play-start")
    page.wait_for_function(
        "() => /#\\/play\\/\\d+/.test(location.hash)"
    )  # the id; the token stays out of the address bar
    page.wait_for_function("() => window.arena.play.state && window.arena.play.state.turn === 'human'")
    free = page.evaluate("() => window.arena.play.state.view.moves[0].key")
    page.click(f"#play-board button[data-key='{free}']")
    page.wait_for_function(
        "() => { const s = window.arena.play.state; return s && (s.ply >= 2 || s.error || s.over); }",
        timeout=PATIENCE * 1000,
    )
    return dict(page.evaluate("() => window.arena.play.state"))


def check_first_moves(page: Any, url: str) -> None:
    for spec, opponent in PRESETS:
        s = play_first_move(page, spec, opponent)
        assert s["ply"] == 2 and not s.get("error"), s
        assert s["decision"]["by"] == opponent, s["decision"]
    health = httpx.get(url + "/api/health", timeout=30).json()
    assert health["workers"]["killed"]["time"] == 0, health["workers"]  # no worker killed at its budget
    compiled = health["workers"]["compiled_in_tasks"]
    assert compiled["compiles"] == 0, compiled  # none compiled in a task (``kernels`` names them)


@pytest.mark.slow
def test_a_cold_serve_warms_up_then_answers_each_big_presets_first_move(browser: Any, tmp_path: Path) -> None:
    """The issue's test: an empty numba cache, serve, wait for it to say it is warm, then the
    first move of 15x15, 7x7x7 and 4x4x4 against each default opponent (minutes of CPU: every
    kernel compiles)."""
    server = ColdServer(tmp_path)
    try:
        assert server.warm.wait(PATIENCE), server.lines
        assert any(line.startswith(f"noughts arena ready at {server.url}") for line in server.lines), (
            server.lines
        )
        assert any("warming up (0 of " in line for line in server.lines), server.lines  # progress shown
        warm = [line for line in server.lines if line.startswith("noughts: warm:")]
        assert warm and "not warmed" not in warm[0], server.lines
        page = open_page(browser, server.url + "/#/play")
        page.wait_for_selector("body[data-warm='1']", timeout=PATIENCE * 1000)
        assert page.locator("#warmup").is_hidden()
        check_first_moves(page, server.url)
        assert page.errors == []
    finally:
        server.stop()


def test_a_move_asked_during_the_warm_up_waits_for_it_and_the_page_shows_the_progress(
    browser: Any, tmp_path: Path
) -> None:
    """The cheaper version (the numba cache of the tests, usually warm): the page shows the
    warm-up's progress while it runs, a move asked at once is queued, not killed, and answered."""
    server = ColdServer(tmp_path, empty_cache=False)
    try:
        while not any("ready at" in line for line in server.lines):
            assert server.proc.poll() is None, server.lines
            threading.Event().wait(0.05)
        page = open_page(browser, server.url + "/#/play")
        s = play_first_move(page, "hypercube(4,3)", "perfect")  # asked at once, whatever the warm-up's state
        assert s["ply"] == 2 and not s.get("error"), s
        assert server.warm.wait(PATIENCE), server.lines
        assert any(line.startswith("noughts: warm:") for line in server.lines), server.lines
        page.wait_for_selector("body[data-warm='1']", timeout=PATIENCE * 1000)
        health = httpx.get(server.url + "/api/health", timeout=30).json()
        assert health["workers"]["warmup"]["ready"] and health["workers"]["warmup"]["errors"] == []
        assert health["workers"]["killed"]["time"] == 0
        assert page.errors == []
    finally:
        server.stop()
