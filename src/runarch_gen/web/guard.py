"""The server's front door: which hosts, origins and body sizes it accepts.

- **Host** (DNS rebinding): a page of another site that gets its name pointed at 127.0.0.1 still
  sends its own name in ``Host``; only the names this server is bound to (and, for a loopback
  server, ``localhost`` and the loopback addresses) are answered. A server bound to every
  address (``0.0.0.0``) also answers IP addresses — a rebinding attack needs a name.
- **Cross-origin writes**: a request that is not GET/HEAD/OPTIONS is refused when its ``Origin``
  is not this server (scheme, allowed host and this port), or, without ``Origin``, when
  ``Sec-Fetch-Site`` says ``cross-site``.
- **Body size**: a declared ``Content-Length`` over the limit is refused at once; a body sent
  in chunks is counted and cut off at the limit.

Refusals are JSON ``{"error": "..."}`` with status 403, 413 or 400.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["Guard", "allowed_hosts"]

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def allowed_hosts(host: str) -> frozenset[str]:
    """The ``Host`` names a server bound to ``host`` answers."""
    names = {host.lower().strip("[]")}
    if _is_loopback(host) or host in ("0.0.0.0", "::"):
        names.update(LOOPBACK_NAMES)
    return frozenset(names)


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def split_host(value: str) -> tuple[str, int | None]:
    """``("127.0.0.1", 8000)`` from ``127.0.0.1:8000``; IPv6 in brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        host, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = value.partition(":")
    return host, (int(port) if port.isdigit() else None)


class Guard:
    """ASGI middleware applying the checks above before the application sees a request."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: Iterable[str],
        port: int | None = None,
        any_address: bool = False,
        max_body: int = 2_000_000,
    ) -> None:
        self.app = app
        self.port = port
        self.hosts = frozenset(h.lower() for h in hosts)
        self.any_address = any_address
        self.max_body = max_body

    def host_allowed(self, host: str) -> bool:
        return host in self.hosts or (self.any_address and _is_ip(host))

    def same_origin(self, origin: str, scheme: str = "http") -> bool:
        """Whether ``origin`` (scheme://host:port) is this server, served over ``scheme``."""
        try:
            parts = urlsplit(origin)
            port = parts.port
        except ValueError:
            return False
        if parts.scheme != scheme or not self.host_allowed((parts.hostname or "").lower()):
            return False
        if port is None:
            port = 443 if parts.scheme == "https" else 80
        return self.port is None or port == self.port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host, _ = split_host(headers.get("host", ""))
        if not host or not self.host_allowed(host):
            shown = headers.get("host", "")[:80]
            await _refuse(send, 403, f"host {shown!r} is not this server (DNS rebinding guard)")
            return
        if scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            origin = headers.get("origin")
            if origin is not None:
                if not self.same_origin(origin, scope.get("scheme", "http")):
                    await _refuse(send, 403, f"cross-origin request from {origin[:80]!r} refused")
                    return
            elif headers.get("sec-fetch-site") == "cross-site":
                await _refuse(send, 403, "cross-site request refused")
                return
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                await _refuse(send, 400, "bad Content-Length")
                return
            if int(length) > self.max_body:
                await _refuse(send, 413, f"the request body is over {self.max_body:,} bytes")
                return
        await self.app(scope, self._limited(receive), send)

    def _limited(self, receive: Receive) -> Receive:
        seen = 0
        limit = self.max_body

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        return limited


class BodyTooLarge(Exception):
    """A chunked body went over the limit (the application answers 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the request body is over {limit:,} bytes")


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
