"""``noughts serve``: the web arena under uvicorn (see :mod:`noughts.web`)."""

from __future__ import annotations

import socket
import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from noughts.core import NoughtsError

__all__ = ["register", "serve"]


def serve(
    host: Annotated[
        str, typer.Option(help="The address to listen on (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="The port (0: any free one).")] = 8000,
    db: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE", help="The SQLite store for game records (default: the per-user data folder)."
        ),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="Open the arena in a browser once it is ready.")
    ] = False,
) -> None:
    """Serve the web arena: play, watch, analyse and study any game in a browser.

    Every game is recorded in the store as it is played, so stopping the server (Ctrl-C) loses
    nothing: reopen unfinished games from the Games page. The JSON API is described at /docs.
    """
    import uvicorn

    from noughts.store import Store
    from noughts.web import create_app

    sock = _bind(host, port)  # first, so a port in use leaves no store open behind it
    store = Store(db)  # None: the per-user store
    app = create_app(store=store)
    bound_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{bound_port}"

    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)

    def announce() -> None:
        while not server.started:
            if server.should_exit:
                return
            threading.Event().wait(0.02)
        typer.echo(f"noughts arena ready at {address}  (records: {store.path}; Ctrl-C stops)")
        if open_browser:
            webbrowser.open(address)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        store.close()


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
        raise NoughtsError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def register(app: typer.Typer) -> None:
    """Add ``noughts serve`` to ``app``."""
    app.command()(serve)
