"""``noughts serve``: the web arena under uvicorn (see :mod:`noughts.web`)."""

from __future__ import annotations

import errno
import ipaddress
import logging
import socket
import sys
import threading
import webbrowser
from typing import Annotated, Any

import typer

from noughts.cli.stores import DbOpt
from noughts.core import NoughtsError

__all__ = ["register", "serve"]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(
    host: Annotated[
        str, typer.Option(help="The address to listen on (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="The port (0: any free one).")] = 8000,
    db: DbOpt = None,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="Open the arena in a browser once it is ready.")
    ] = False,
    workers: Annotated[
        int,
        typer.Option(min=1, max=64, help="Worker processes for the heavy work (solves, moves, training)."),
    ] = 3,
    max_memory: Annotated[
        int,
        typer.Option(
            "--max-memory",
            metavar="MIB",
            min=256,
            help="The ceiling on the server's memory, workers included.",
        ),
    ] = 1536,
    per_client: Annotated[
        int, typer.Option("--per-client", min=1, help="Tasks one client address may have running at once.")
    ] = 8,
    access_log: Annotated[
        bool, typer.Option("--access-log/--no-access-log", help="Print one line per request on stderr.")
    ] = True,
) -> None:
    """Serve the web arena: play, watch, analyse and study any game in a browser.

    Every game is recorded in the store as it is played, so stopping the server (Ctrl-C) loses
    nothing: reopen unfinished games from the Games page. The JSON API is described at /docs.
    On a loopback address the arena answers only requests for loopback names; on any other
    address anyone who can reach the port can watch games and start their own (changing a game
    needs its token), and a warning says so.
    """
    import uvicorn

    from noughts.store import Store
    from noughts.web import Limits, create_app
    from noughts.web.security import LOOPBACK_HOSTS

    sock = _bind(host, port)  # first, so a port in use leaves no store open behind it
    store = Store(db)  # None: the per-user store
    loopback = _is_loopback(host)
    limits = Limits(
        workers=workers,
        max_memory=max_memory * 2**20,
        per_client=per_client,
        allowed_hosts=LOOPBACK_HOSTS if loopback else None,
    )
    if not loopback:
        typer.echo(
            f"noughts: warning: serving on {host}, beyond this machine: anyone who can reach the port can use the"
            " arena (no login; each game is changed only with its token)",
            err=True,
        )
    if access_log:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        log = logging.getLogger("noughts.web.access")
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
    app = create_app(store=store, limits=limits)
    bound_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{bound_port}"

    from noughts.web.timeouts import timed_protocol

    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=3,
        http=timed_protocol(limits.read_seconds),  # a request arrives whole within its time, or is dropped
    )
    server = uvicorn.Server(config)

    def announce() -> None:
        while not server.started:
            if server.should_exit:
                return
            threading.Event().wait(0.02)
        typer.echo(f"noughts arena ready at {address}  (records: {store.path}; Ctrl-C stops)")
        if open_browser:
            webbrowser.open(address)
        _show_warm_up(app.state.arena.pool, server)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        store.close()


def _show_warm_up(pool: Any, server: Any) -> None:
    """Say in the terminal how the kernels' warm-up goes (one line a kernel), and when every
    kernel is ready: ``noughts: warm: ...`` (the page shows the same progress).
    """
    warm = pool.warm
    if warm is None:
        return
    shown: tuple[int, str] = (-1, "")
    while not server.should_exit:
        done, total, current = warm.done, warm.total, warm.current
        if warm.finished.is_set():
            status = warm.status()
            problems = f"; not warmed: {'; '.join(status['errors'])}" if status["errors"] else ""
            typer.echo(
                f"noughts: warm: {status['done']} of {status['total']} kernels ready in {status['seconds']:g} s"
                f" ({status['compile_seconds']:g} s of it compiling, the rest loading from numba's cache){problems}"
            )
            return
        if total and current and (done, current) != shown:
            shown = (done, current)
            typer.echo(
                f"noughts: {warm.text()}: {current} (a move asked now waits; its clock has not started)"
            )
        threading.Event().wait(0.25)


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket, so a port in use is one clear error (and port 0 gets a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say they are TCP,
    # and without it every answer on a kept-alive connection waits ~40 ms for a delayed ACK
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise NoughtsError(
                f"cannot listen on {host}:{port}: the port is in use (another server?); choose another"
                " with --port N (make run PORT=N), or --port 0 for any free one"
            ) from None
        raise NoughtsError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def register(app: typer.Typer) -> None:
    """Add ``noughts serve`` to ``app``."""
    app.command()(serve)
