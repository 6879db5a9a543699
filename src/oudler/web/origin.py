"""The Origin check of requests that change state (issue 29): a browser names the page that sent
a request in its ``Origin`` header, and a page of another site must not act for the person whose
cookies ride along. One function, ``origin_allowed``, so that the WebSocket handshake can share it.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443}
FOREIGN_ORIGIN = "foreign_origin"


def normal_origin(url: str) -> str | None:
    """``scheme://host[:port]`` of ``url``, lower-case and without the scheme's default port;
    None when it is no http(s) origin (e.g. the "null" of a sandboxed frame)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:  # IPv6
        host = f"[{host}]"
    if port is None or port == DEFAULT_PORTS[parts.scheme]:
        return f"{parts.scheme}://{host}"
    return f"{parts.scheme}://{host}:{port}"


def own_origin(scope: Scope) -> str | None:
    """The server's origin as this request was made: its scheme (``wss`` counts as https) and
    its Host header."""
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme"))
    host = _header(scope, b"host")
    if host is None:
        return None
    return normal_origin(f"{scheme}://{host}")


def origin_allowed(scope: Scope, public_url: str | None = None) -> bool:
    """Whether the request's Origin, when it has one, is the server's own: the public URL's
    when one is configured (then a Host header naming another site, as a DNS rebinding
    attack sends, does not count), else the one the request was made to. No Origin: not a
    browser's cross-site request (browsers send it on every one that changes state)."""
    given = _header(scope, b"origin")
    if given is None:
        return True
    allowed = normal_origin(public_url) if public_url else own_origin(scope)
    return allowed is not None and normal_origin(given) == allowed


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class SameOrigin:
    """Refuses, with 403 ``foreign_origin``, an HTTP request that may change state (any method
    but GET, HEAD and OPTIONS) sent from another site's page."""

    def __init__(self, app: ASGIApp, *, public_url: str | None = None) -> None:
        self.app = app
        self.public_url = public_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] in SAFE_METHODS
            or origin_allowed(scope, self.public_url)
        ):
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {
                "error": "this request came from another site's page, and was refused",
                "code": FOREIGN_ORIGIN,
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
