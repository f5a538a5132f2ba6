"""A read timeout for every request: its headers and body arrive within a few seconds, or the
connection is dropped.

uvicorn's ``timeout_keep_alive`` closes a connection left idle *after* an answer, and any byte
received restarts it; nothing bounds the time a client takes to send a request. So a client
may open hundreds of connections, send half a request line on each and hold them (a
"slowloris": each costs the server a socket and a protocol object, and the process's file
descriptors run out). :func:`timed_protocol` gives uvicorn's own h11 protocol one more timer:
armed when a connection opens and again after each answer, cancelled only when a request has
been received whole (its headers and its body: h11 says the client's side of the exchange is
done), and closing the connection when it fires. Trickling bytes does not restart it. The work
a request asks for is not covered: it has its own budget (:mod:`noughts.web.workers`).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["READ_SECONDS", "timed_protocol"]

READ_SECONDS = 10.0
"""The default time a client has to send one whole request (headers and body)."""

_RECEIVED = (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR)


class _TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the read timer of the module docstring."""

    read_seconds = READ_SECONDS
    dropped = 0
    """Connections dropped by the timer since the process started (for the benchmark and tests)."""

    _read_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self._read_timer = self.loop.call_later(self.read_seconds, self._expired)

    def _disarm(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _expired(self) -> None:
        self._read_timer = None
        if self.conn.their_state in _RECEIVED or self.transport.is_closing():
            return
        type(self).dropped += 1
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state in _RECEIVED:
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state not in _RECEIVED:  # waiting for the next request (kept alive)
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def timed_protocol(seconds: float = READ_SECONDS) -> Any:
    """Uvicorn's h11 protocol class with a read timeout of ``seconds`` per request (pass it as
    ``uvicorn.Config(http=...)``).
    """
    return type("TimedH11Protocol", (_TimedH11Protocol,), {"read_seconds": float(seconds), "dropped": 0})
