"""Screenshots of every page of the web arena, for the README: ``docs/screenshots/*.png``.

Run from the repository root: ``.venv/bin/python docs/screenshots.py`` (needs Chromium at
``/usr/bin/chromium``, or set ``NOUGHTS_CHROMIUM``). It serves a fresh arena on a throwaway
store, plays into each page through the page itself, and saves one PNG per page.
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from noughts.web import create_app

OUT = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = os.environ.get("NOUGHTS_CHROMIUM", "/usr/bin/chromium")


def serve(db: Path) -> tuple[str, uvicorn.Server, threading.Thread]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP_NODELAY
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    server = uvicorn.Server(uvicorn.Config(create_app(db), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{sock.getsockname()[1]}", server, thread


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        base, server, thread = serve(Path(tmp) / "arena.db")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = browser.new_page(viewport={"width": 1360, "height": 900})
            page.set_default_timeout(120_000)  # a busy machine can be slow

            def ready(url: str) -> None:
                page.goto(url)
                page.wait_for_selector("body[data-ready='1']")

            def start(spec: str, x: str = "human", o: str = "perfect") -> None:
                page.select_option("#play-preset", "")
                page.fill("#play-spec", spec)
                page.select_option("#play-x", x)
                page.select_option("#play-o", o)
                page.click("#play-start")
                page.wait_for_function(
                    "() => window.arena.play.state && window.arena.play.state.turn === 'human'"
                )

            def shot(name: str, full: bool = False) -> None:
                page.wait_for_timeout(300)
                page.screenshot(path=str(OUT / f"{name}.png"), full_page=full)
                print(OUT / f"{name}.png")

            # play: tic-tac-toe against the perfect player, with the evaluation overlay
            ready(base + "/#/play")
            start("tictactoe")
            page.click("#play-board button[data-key='0']")
            page.wait_for_function("() => window.arena.play.state.ply === 2")
            page.check("#play-eval")
            page.wait_for_selector("#play-board .val")
            shot("play")
            # the engine's view where the solver runs out of budget: 15x15, x's open three
            start("mnk(15,15,5)", "human", "human")
            for ply, move in enumerate(["h8", "h9", "i8", "i9", "j8"], 1):
                page.fill("#play-move", move)
                page.press("#play-move", "Enter")
                page.wait_for_function(f"() => window.arena.play.state.ply === {ply}")
            page.select_option("#play-budget", "0.5")
            page.check("#play-eval")
            page.wait_for_selector("#play-eval-legend:not([hidden])")
            shot("play-engine-15x15")
            page.uncheck("#play-eval")
            page.select_option("#play-budget", "2")
            # the special boards
            for spec, name, key in (
                ("hypercube(3,3)", "play-3x3x3", 13),
                ("notakto(boards=3)", "play-notakto", 4),
                ("otrio", "play-otrio", None),
                ("veto(tictactoe)", "play-veto", None),
            ):
                start(spec, "human", "random")
                if key is not None:
                    page.click(f"#play-board button[data-key='{key}']")
                    page.wait_for_function("() => window.arena.play.state.ply === 2")
                if spec == "otrio":
                    page.fill("#play-move", "b2l")
                    page.press("#play-move", "Enter")
                    page.wait_for_function("() => window.arena.play.state.ply === 2")
                shot(name)
            # watch and a batch
            ready(base + "/#/watch")
            page.fill("#watch-spec", "mnk(4,4,4)")
            page.select_option("#watch-x", "perfect")
            page.select_option("#watch-o", "perfect:tie=random")
            page.eval_on_selector(
                "#watch-speed", "el => { el.value = 0; el.dispatchEvent(new Event('input')); }"
            )
            page.click("#watch-start")
            page.wait_for_function(
                "() => window.arena.watch.state && window.arena.watch.state.over", timeout=120000
            )
            page.fill("#watch-spec", "tictactoe")
            page.select_option("#watch-o", "random")
            page.fill("#batch-games", "200")
            page.click("#batch-start")
            page.wait_for_function(
                "() => /finished/.test(document.querySelector('#batch-text').textContent)", timeout=120000
            )
            shot("watch")
            # analyse
            ready(base + "/#/analyse")
            page.select_option("#an-preset", "misere(tictactoe)")
            page.fill("#an-position", ".../.x./...")
            page.click("#an-run")
            page.wait_for_selector("#an-board .val")
            page.click("#an-count")
            page.wait_for_selector("#an-counts td:has-text('complete games')")
            shot("analyse")
            # the analysis board: a game reviewed, with a variation
            page.goto("about:blank")
            ready(base + "/#/analyse?game=tictactoe&moves=b2+b1+a1+c1+c3&ply=5")
            page.wait_for_function(
                "() => window.arena.analysis.state.root && window.arena.analysis.state.mainLine().length === 5"
            )
            page.click("#an-tree .mv[data-ply='2']")
            page.wait_for_function(
                "() => window.arena.analysis.state.path().length === 2 && window.arena.analysis.state.shown === window.arena.analysis.state.current"
            )
            page.click("#an-board button[aria-label^='a3']")
            page.wait_for_selector("#an-tree .variation .mv")
            page.click("#an-tree .mv[data-ply='4']")
            page.click("#an-review")
            page.wait_for_selector("#an-graph circle.g-point")
            shot("review")
            # a 15x15 board on a phone
            phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
            phone.set_default_timeout(120_000)
            phone.goto(base + "/#/analyse?game=mnk(15,15,5)&moves=h8+g7+i9+j10+g9+h9+i8&ply=7")
            phone.wait_for_selector("body[data-ready='1']")
            phone.wait_for_function(
                "() => window.arena.analysis.state.root && window.arena.analysis.state.path().length === 7 && window.arena.analysis.state.shown === window.arena.analysis.state.current"
            )
            phone.wait_for_timeout(500)
            phone.screenshot(path=str(OUT / "phone-15x15.png"))
            print(OUT / "phone-15x15.png")
            phone.select_option("#an-budget", "0.5")
            phone.click("#an-solve")
            phone.wait_for_selector("#an-eval-legend:not([hidden])")
            phone.evaluate("window.scrollTo(0, 0)")
            phone.wait_for_timeout(300)
            phone.screenshot(path=str(OUT / "phone-engine-15x15.png"))
            print(OUT / "phone-engine-15x15.png")
            phone.close()
            # train
            ready(base + "/#/train")
            page.fill("#train-episodes", "60000")
            page.click("#train-start")
            page.wait_for_function(
                "() => /finished/.test(document.querySelector('#train-status').textContent)", timeout=180000
            )
            page.fill("#train-name", "q-tictactoe")
            page.click("#train-save button")
            page.wait_for_selector("#train-download:not([hidden])")
            shot("train", full=True)
            # leaderboard: a few batches between agents first
            for x, o in (
                ("perfect", "random"),
                ("saved:q-tictactoe", "random"),
                ("perfect", "saved:q-tictactoe"),
            ):
                page.request.post(
                    f"{base}/api/batches", data={"game": "tictactoe", "x": x, "o": o, "games": 100, "seed": 1}
                )
                while page.request.get(f"{base}/api/batches").json()[0]["status"] == "running":
                    time.sleep(0.2)
            ready(base + "/#/leaderboard")
            page.wait_for_selector("#lb-table td")
            shot("leaderboard")
            ready(base + "/#/games")
            page.wait_for_selector("#games-table td")
            shot("games")
            browser.close()
        server.should_exit = True
        thread.join(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
