"""What keeps the arena safe to leave running: one ASGI middleware in front of everything.

* **Host allowlist** (:attr:`Limits.allowed_hosts`, set by ``noughts serve`` on a loopback
  address): a request naming any other host is refused (421), so a web page elsewhere cannot
  reach the arena by pointing a name of its own at 127.0.0.1 (DNS rebinding). The header is
  read strictly: a name or an address and perhaps a port, nothing else
  (``localhost:8766@evil.example`` is no host).
* **No cross-site writes**: a request that changes anything (POST, PUT, PATCH, DELETE) must
  send a JSON body (``Content-Type: application/json``) or the header ``X-Noughts-Client``.
  A form on another site can send neither without the browser asking first (a CORS
  preflight, which the arena does not grant), so no other site can move, undo or upload.
  Refused: 415.
* **Headers on every answer**: a Content-Security-Policy that lets the page load only its own
  files (no inline script, no frames), ``X-Frame-Options: DENY``, ``X-Content-Type-Options:
  nosniff``, ``Referrer-Policy: no-referrer``. The API documentation pages (``/docs``,
  ``/redoc``) load FastAPI's viewer from a CDN and keep the other headers only.
* **Access log**: one line per request on the ``noughts.web.access`` logger (client, method,
  path without its query, which may carry a game's token, status, milliseconds).
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CLIENT_HEADER", "CSP", "LOOPBACK_HOSTS", "Guard", "access_log"]

CLIENT_HEADER = "x-noughts-client"
"""The header that marks a state-changing request without a JSON body as the arena's own."""

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Host names a loopback-bound arena answers."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

DOCS = ("/docs", "/redoc")

access_log = logging.getLogger("noughts.web.access")

_WRITES = ("POST", "PUT", "PATCH", "DELETE")


_HOST = re.compile(
    r"(?:\[(?P<v6>[0-9a-f:.]+)\]|(?P<name>[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?))(?::[0-9]{1,5})?"
)
"""A Host header as RFC 9110 §7.2 has it: a name (or an IPv4 address), or an IPv6 address in
brackets, then perhaps a port; nothing else (no user info, no path, no spaces)."""


def _host(value: bytes) -> str | None:
    """The host a Host header names, or None when the header is not a host (and a port)."""
    m = _HOST.fullmatch(value.decode("latin-1").strip().lower())
    if m is None:
        return None
    return m.group("v6") or m.group("name")


class Guard:
    """The middleware of the module docstring."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] | None = None):
        self.app = app
        self.allowed = None if allowed_hosts is None else {h.lower() for h in allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        scope.setdefault("state", {})["arrived"] = time.monotonic()  # a task's clock starts here
        headers = dict(scope.get("headers") or [])
        path: str = scope.get("path", "")
        status = [0]
        client = scope.get("client") or ("-", 0)

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
                extra = [
                    (b"x-frame-options", b"DENY"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                ]
                if not path.startswith(DOCS):
                    extra.append((b"content-security-policy", CSP.encode()))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        try:
            refusal = self._refusal(scope, headers)
            if refusal is not None:
                await refusal(scope, receive, guarded)
            else:
                await self.app(scope, receive, guarded)
        finally:
            access_log.info(
                "%s %s %s %d %.1fms",
                client[0],
                scope.get("method", "-"),
                path,
                status[0],
                (time.perf_counter() - started) * 1000,
            )

    def _refusal(self, scope: Scope, headers: dict[bytes, bytes]) -> Any:
        given = headers.get(b"host")
        if given is not None and _host(given) is None:
            return JSONResponse({"error": "the request's Host is not a host name and port"}, status_code=400)
        if self.allowed is not None:
            host = _host(given or b"")
            if host not in self.allowed:
                return JSONResponse(
                    {"error": f"this arena answers requests for {', '.join(sorted(self.allowed))} only"},
                    status_code=421,
                )
        if scope.get("method") in _WRITES:
            kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
            if kind != b"application/json" and CLIENT_HEADER.encode() not in headers:
                return JSONResponse(
                    {
                        "error": "a request that changes something sends a JSON body (Content-Type: "
                        "application/json) or the header X-Noughts-Client; this one sent neither"
                    },
                    status_code=415,
                )
        return None
