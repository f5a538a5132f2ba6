"""Hardening: strict Host parsing, and a read timeout that drops half-open and trickling
connections (a live server: the timeout lives in the HTTP protocol, below the app)."""

from __future__ import annotations

import socket
import time

import httpx
import pytest
from fastapi.testclient import TestClient
from web_cases import live_server

from noughts.web import Limits, create_app
from noughts.web.security import LOOPBACK_HOSTS


@pytest.mark.parametrize(
    "host",
    [
        "localhost:8766@evil.example",
        "evil.example#@localhost",
        "localhost:8766/evil",
        "localhost evil",
        "localhost:",
        "localhost:abc",
        "[::1",
        "user@localhost",
        "",
    ],
)
def test_a_host_that_is_not_a_host_is_refused(host: str) -> None:
    c = TestClient(create_app(":memory:", limits=Limits(allowed_hosts=LOOPBACK_HOSTS)))
    r = c.get("/api/presets", headers={"Host": host})
    assert r.status_code in (400, 421), (host, r.status_code)


@pytest.mark.parametrize("host", ["localhost", "localhost:8766", "127.0.0.1:80", "[::1]:8766", "LOCALHOST"])
def test_loopback_hosts_are_served(host: str) -> None:
    c = TestClient(create_app(":memory:", limits=Limits(allowed_hosts=LOOPBACK_HOSTS)))
    assert c.get("/api/presets", headers={"Host": host}).status_code == 200


def _closed(sock: socket.socket) -> bool:
    """Whether the server closed the connection (read until it does, or 30 s pass)."""
    sock.settimeout(30)  # a guard against a hang, not a bound on speed
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except TimeoutError:
        return False
    except OSError:
        return True


def test_half_open_and_trickling_connections_are_dropped() -> None:
    with live_server(read_seconds=0.5) as url:
        port = int(url.rsplit(":", 1)[1])
        half = socket.create_connection(("127.0.0.1", port))
        half.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # headers never finished
        silent = socket.create_connection(("127.0.0.1", port))  # connected, sends nothing
        body = socket.create_connection(("127.0.0.1", port))
        body.sendall(
            b"POST /api/board HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )  # the body never finished
        assert _closed(half) and _closed(silent) and _closed(body)
        trickle = socket.create_connection(("127.0.0.1", port))
        dropped = False
        for ch in b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 200:
            try:
                trickle.sendall(bytes([ch]))
            except OSError:
                dropped = True
                break
            time.sleep(0.05)  # a byte at a time, each well inside the timeout
        assert dropped or _closed(trickle)
        for s in (half, silent, body, trickle):
            s.close()
        with httpx.Client(base_url=url) as c:  # a whole request is answered, and kept alive
            assert c.get("/api/health").status_code == 200
            time.sleep(0.1)
            assert c.get("/api/health").status_code == 200
