"""``noughts serve``: it prints its address when ready, and a busy port is one clear error."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import httpx
from web_cases import NOUGHTS, ServerProcess, free_port


def test_serve_prints_its_address_and_serves_the_page_and_api(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "s.db", free_port())
    line = server.start()
    try:
        assert line.startswith(f"noughts arena ready at {server.url}")
        assert "noughts arena" in httpx.get(server.url + "/").text
        assert httpx.get(server.url + "/api/health").json()["ok"] is True
    finally:
        server.kill()
    assert (tmp_path / "s.db").exists()


def test_a_port_in_use_is_one_line_and_exit_status_2(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        done = subprocess.run(
            [str(NOUGHTS), "serve", "--port", str(port), "--db", str(tmp_path / "x.db")],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"noughts: error: cannot listen on 127.0.0.1:{port}: the port is in use (another server?); choose"
        " another with --port N (make run PORT=N), or --port 0 for any free one"
    ]


def test_the_listening_socket_says_it_is_tcp_so_answers_are_not_delayed() -> None:
    # asyncio sets TCP_NODELAY only on sockets whose protocol is IPPROTO_TCP; with protocol 0
    # every answer on a kept-alive connection waited ~40 ms for a delayed ACK (bench/web.py)
    from noughts.cli.serve import _bind

    sock = _bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()


def test_serving_beyond_loopback_warns_in_one_line_and_loopback_refuses_other_hosts(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            str(NOUGHTS),
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            "--db",
            str(tmp_path / "w.db"),
            "--no-open",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        warning = proc.stderr.readline()
        assert warning.startswith("noughts: warning: serving on 0.0.0.0, beyond this machine")
        assert warning.count("\n") == 1
    finally:
        proc.kill()
        proc.wait(10)
    server = ServerProcess(tmp_path / "l.db", free_port())  # loopback: loopback names only
    server.start()
    try:
        assert httpx.get(server.url + "/api/health").status_code == 200
        r = httpx.get(server.url + "/api/health", headers={"host": "attacker.example"})
        assert r.status_code == 421 and "127.0.0.1" in r.json()["error"]
    finally:
        server.kill()
