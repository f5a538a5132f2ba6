"""Shared helpers of the web arena's tests: clients, live servers, a browser."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from noughts.store import Store
from noughts.web import Limits, create_app
from noughts.web.timeouts import timed_protocol

CHROMIUM = os.environ.get("NOUGHTS_CHROMIUM", "/usr/bin/chromium")
PATIENCE = 900.0
"""Seconds a test waits for work a loaded machine may finish late (a job, a training run, a
first compile): a bound against hanging forever, never a check of speed."""
NOUGHTS = Path(sys.executable).with_name("noughts")


class OwnerClient(TestClient):
    """A test client that sends the arena's client header and, for every game it started, the
    game's token (as the page does); ``tokens`` maps game ids to them. Tests of the rules
    themselves (tokens, headers) use ``anonymous()`` or send their own headers.
    """

    def __init__(self, app: Any, **kwargs: Any):
        super().__init__(app, headers={"X-Noughts-Client": "tests"}, **kwargs)
        self.tokens: dict[int, str] = {}
        self.job_tokens: dict[tuple[str, int], str] = {}
        """The tokens of the batches and training runs this client started."""

    def request(self, method: str, url: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        path = str(url)
        parts = path.split("?")[0].strip("/").split("/")
        if len(parts) >= 3 and parts[:2] == ["api", "games"] and parts[2].isdigit():
            token = self.tokens.get(int(parts[2]))
            headers = dict(kwargs.pop("headers", None) or {})
            if token is not None and "X-Game-Token" not in headers:
                headers["X-Game-Token"] = token
            kwargs["headers"] = headers
        if (
            len(parts) >= 3
            and parts[0] == "api"
            and parts[1] in ("batches", "training")
            and parts[2].isdigit()
        ):
            token = self.job_tokens.get((parts[1], int(parts[2])))
            headers = dict(kwargs.pop("headers", None) or {})
            if token is not None and "X-Job-Token" not in headers:
                headers["X-Job-Token"] = token
            kwargs["headers"] = headers
        response = super().request(method, url, **kwargs)
        if method.upper() == "POST" and path.rstrip("/") == "/api/games" and response.status_code == 201:
            data = response.json()
            self.tokens[int(data["id"])] = data["token"]
        if (
            method.upper() == "POST"
            and path.rstrip("/") == "/api/records/import"
            and response.status_code == 200
        ):
            self.tokens.update({int(k): v for k, v in response.json().get("tokens", {}).items()})
        if (
            method.upper() == "POST"
            and path.rstrip("/") in ("/api/batches", "/api/training")
            and response.status_code == 202
        ):
            data = response.json()
            self.job_tokens[(path.strip("/").split("/")[1], int(data["id"]))] = data["token"]
        return response


def client(db: str | Path = ":memory:", **limits: Any) -> OwnerClient:
    """A test client of a fresh arena (use as a context manager)."""
    return OwnerClient(create_app(db, limits=Limits(**limits)))


def best_move(c: TestClient | httpx.Client, spec: str, position: str) -> str:
    """The first best move of a position, from the arena's own solver endpoint."""
    r = c.post("/api/analyse", json={"game": spec, "position": position, "max_seconds": 10})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["solved"], data
    return str(data["evaluation"]["best"][0])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def live_server(db: str | Path = ":memory:", store: Store | None = None, **limits: Any) -> Iterator[str]:
    """An arena served by uvicorn in a thread of this process, on a free loopback port."""
    app = create_app(db, store=store, limits=Limits(**limits))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP_NODELAY
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        backlog=2048,
        http=timed_protocol(app.state.arena.limits.read_seconds),  # as `noughts serve`
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the arena did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


class ServerProcess:
    """``noughts serve`` as a separate process, which a test can kill outright."""

    def __init__(self, db: Path, port: int, *options: str):
        self.db = db
        self.port = port
        self.options = options
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> str:
        self.proc = subprocess.Popen(
            [
                str(NOUGHTS),
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                "--no-open",
                "--no-access-log",
            ]
            + list(self.options),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # the server prints its address once it is ready
        assert f"ready at {self.url}" in line, line
        return line

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium (Debian's, at ``/usr/bin/chromium``; ``.ci/run`` installs it)."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield b
        finally:
            b.close()


def open_page(browser: Any, url: str) -> Any:
    """A page of the arena, loaded, with console errors collected in ``page.errors``."""
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


def state(base: str, game_id: int) -> dict[str, Any]:
    """A game's state through the API (for checking what the page shows)."""
    r = httpx.get(f"{base}/api/games/{game_id}", timeout=30)
    assert r.status_code == 200, r.text
    return dict(r.json())
