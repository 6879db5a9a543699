"""The Origin check of requests that change state (issue 29): a browser names the page that sent
a request in its ``Origin`` header, and a page of another site must not act for the person whose
cookies ride along. One function, ``origin_allowed``: the WebSocket handshake asks it too.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send

from oudler.web.addresses import origin_of, trusted_host

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FOREIGN_ORIGIN = "foreign_origin"


def origin_allowed(
    scope: Scope, public_url: str | None = None, *, https: bool = False, strict_host: bool = False
) -> bool:
    """Whether the request's Origin, when it has one, is the server's own: the public URL's
    when one is configured (then a Host header naming another site, as a DNS rebinding
    attack sends, does not count), else the one the request was made to (its scheme, ``wss``
    counting as https, or https whatever it says when ``https``: a proxy in front serves it so;
    and its Host header). ``strict_host``: without a public URL, that host must also be one a
    DNS name cannot be rebound to (``addresses.trusted_host``; the live socket asks for it). No
    Origin: not a browser's cross-site request (browsers send it on every one that changes
    state, and on every WebSocket handshake)."""
    given = _header(scope, b"origin")
    if given is None:
        return True
    origin = origin_of(given)
    if origin is None:
        return False
    if public_url:
        return origin == origin_of(public_url)
    scheme = "https" if https or scope.get("scheme") in ("https", "wss") else "http"
    own = origin_of(f"{scheme}://{_header(scope, b'host') or ''}")
    if own is None or origin != own:
        return False
    return not strict_host or trusted_host(own.host)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class SameOrigin:
    """Refuses, with 403 ``foreign_origin``, an HTTP request that may change state (any method
    but GET, HEAD and OPTIONS) sent from another site's page."""

    def __init__(self, app: ASGIApp, *, public_url: str | None = None, https: bool = False) -> None:
        self.app = app
        self.public_url = public_url
        self.https = https

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] in SAFE_METHODS
            or origin_allowed(scope, self.public_url, https=self.https)
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
