"""The server's front door: hosts, origins, body sizes, how many requests at once, and errors
that are always JSON.

The middleware, outermost first (:func:`middleware` lists them for :func:`.app.create_app`):

- :class:`JsonErrors`: any answer of status 400 or more that is not JSON already (a framework's
  plain-text 400, 404, 405, 500) is given as ``{"error": "one line"}``, the shape every route
  uses, which is the command line's one line without its ``runarch-gen: error:`` prefix.
- :class:`Limit`: at most ``max_requests`` requests in progress; more get 503 at once.
- **Host** (DNS rebinding): Starlette's ``TrustedHostMiddleware`` answers only the names this
  server is bound to (and, for a loopback server, ``localhost`` and the loopback addresses).
  A server bound to every address (``0.0.0.0``) also answers IP addresses, which no rebinding
  attack can use (:class:`IpHosts` sends those past the name check).
- :class:`Guard`: cross-site requests. A request that is not GET/HEAD/OPTIONS is refused when
  its ``Origin`` is not this server, or, without ``Origin``, when ``Sec-Fetch-Site`` says
  another site sent it. A GET under ``/api/`` (every one of them computes something) is refused
  the same way, so that no other page can make this server work: only this server's pages
  (``same-origin``), a typed address or bookmark (``none``) and clients that send no such
  header (curl, scripts) are answered. Then the body: a declared ``Content-Length`` over the
  limit is refused at once; a body sent in chunks is counted and cut off at the limit.
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BodyTooLarge", "Guard", "JsonErrors", "Limit", "allowed_hosts", "middleware"]

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
_LENGTH = re.compile(r"[0-9]{1,18}", re.ASCII)
_PORT = re.compile(r"[0-9]{1,5}", re.ASCII)


def allowed_hosts(host: str) -> frozenset[str]:
    """The ``Host`` names a server bound to ``host`` answers."""
    names = {host.lower().strip("[]")}
    if _is_loopback(host) or host in ("0.0.0.0", "::"):
        names.update(LOOPBACK_NAMES)
    return frozenset(names)


def _trusted_patterns(hosts: Iterable[str]) -> list[str]:
    # TrustedHostMiddleware compares the Host without its port, IPv6 literals in brackets.
    return sorted({f"[{h}]" if ":" in h else h for h in hosts})


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
    """``("127.0.0.1", 8000)`` from ``127.0.0.1:8000``; IPv6 in brackets; ASCII digits only.

    >>> split_host("[::1]:8000"), split_host("localhost:²")
    (('::1', 8000), ('localhost', None))
    """
    value = value.strip().lower()
    if value.startswith("["):
        host, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = value.partition(":")
    return host, (int(port) if _PORT.fullmatch(port) else None)


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


async def refuse(send: Send, status: int, message: str) -> None:
    """Answer ``{"error": message}`` with ``status``."""
    body = json.dumps({"error": " ".join(message.split())}).encode("utf-8")
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


class JsonErrors:
    """Give every error answer that is not JSON as ``{"error": "its text"}``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: Message | None = None
        parts: list[bytes] = []

        async def sending(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start":
                headers = {k.lower(): v for k, v in message.get("headers", [])}
                media = headers.get(b"content-type", b"").split(b";")[0].strip()
                if message["status"] >= 400 and media != b"application/json":
                    held = message
                    return
            elif held is not None and message["type"] == "http.response.body":
                parts.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                text = b"".join(parts).decode("utf-8", "replace")[:300] or "error"
                await refuse(send, held["status"], text.strip().rstrip(".").lower())
                return
            await send(message)

        await self.app(scope, receive, sending)


class Limit:
    """At most ``max_requests`` requests in progress at once; beyond, 503 at once (JSON)."""

    def __init__(self, app: ASGIApp, *, max_requests: int = 100) -> None:
        self.app = app
        self.max_requests = max_requests
        self.running = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.running >= self.max_requests:
            await refuse(send, 503, "the server is busy: too many requests at once, try again")
            return
        self.running += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.running -= 1


class IpHosts:
    """For a server bound to every address: requests whose ``Host`` is an IP address go
    straight to ``app``; named hosts go through ``checked`` (the name check)."""

    def __init__(self, checked: ASGIApp, app: ASGIApp) -> None:
        self.checked = checked
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host, _ = split_host(_headers(scope).get("host", ""))
            if host and _is_ip(host):
                await self.app(scope, receive, send)
                return
        await self.checked(scope, receive, send)


def _host_check(app: ASGIApp, *, hosts: Iterable[str], any_address: bool) -> ASGIApp:
    checked = TrustedHostMiddleware(app, allowed_hosts=_trusted_patterns(hosts), www_redirect=False)
    return IpHosts(checked, app) if any_address else checked


class Guard:
    """Cross-site requests and body size, as the module's docstring says."""

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

    def cross_site(self, scope: Scope, headers: dict[str, str]) -> str | None:
        """Why the request comes from another site, or ``None``."""
        method = scope["method"]
        if method in ("HEAD", "OPTIONS"):
            return None
        if method == "GET" and not scope["path"].startswith("/api/"):
            return None  # pages and their files: any site may link here
        origin = headers.get("origin")
        if origin is not None and origin != "null":
            if not self.same_origin(origin, scope.get("scheme", "http")):
                return f"cross-origin request from {origin[:80]!r} refused"
            return None
        site = headers.get("sec-fetch-site")
        if site in ("cross-site", "same-site") or (origin == "null" and site != "same-origin"):
            return "cross-site request refused"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        why = self.cross_site(scope, headers)
        if why is not None:
            await refuse(send, 403, why)
            return
        length = headers.get("content-length")
        if length is not None:
            if not _LENGTH.fullmatch(length.strip()):
                await refuse(send, 400, "bad Content-Length")
                return
            if int(length) > self.max_body:
                await refuse(send, 413, f"the request body is over {self.max_body:,} bytes")
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


def middleware(host: str, port: int, *, max_body: int, max_requests: int) -> list[Middleware]:
    """The front door of a server bound to ``host``:``port``, outermost first."""
    any_address = host in ("0.0.0.0", "::")
    hosts = allowed_hosts(host)
    return [
        Middleware(JsonErrors),
        Middleware(Limit, max_requests=max_requests),
        Middleware(_host_check, hosts=hosts, any_address=any_address),
        Middleware(Guard, hosts=hosts, port=port, any_address=any_address, max_body=max_body),
    ]
