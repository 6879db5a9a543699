"""Hardening of the web table's HTTP layer (issue 10): a request body limit, security headers and
signed player ids.

``Hardening`` is a plain ASGI middleware (outermost, so that it covers every answer, errors and
static files included). ``PlayerIds`` signs the ids that the server issues: a cookie the server
did not issue (forged, or planted in someone's browser to fix their session) is replaced.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from oudler.web.addresses import loopback, origin_of

MAX_BODY = 64 * 1024  # the largest real request (a discard) is under 100 bytes

# The page loads its scripts and styles from /static only: no inline script, no eval, no frames.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000")


class Hardening:
    """Refuses bodies over ``max_body`` bytes with a JSON 413 before the app sees them, and adds
    the security headers to every answer (``Cache-Control: no-store`` on the API's, since views
    hold the person's hand). ``https``: the site is served over HTTPS (adds HSTS)."""

    def __init__(self, app: ASGIApp, *, max_body: int = MAX_BODY, https: bool = False) -> None:
        self.app = app
        self.max_body = max_body
        self.https = https

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope["path"].startswith("/api/")
        https = self.https or scope.get("scheme") == "https"
        # Over plain HTTP at a network address (friends on a home network) Chrome ignores COOP
        # and logs an error in the page's console for each answer: sent where it counts only.
        isolate = https or _loopback_host(scope)

        async def send_hardened(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                headers += [
                    h
                    for h in SECURITY_HEADERS
                    if h[0] not in names and (isolate or h[0] != b"cross-origin-opener-policy")
                ]
                if api and b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                if https:
                    headers.append(HSTS)
                message = {**message, "headers": headers}
            await send(message)

        declared = _content_length(scope)
        if declared is not None and declared > self.max_body:
            await self._too_large(send_hardened)
            return
        # Read the whole body first (it is small): a chunked body has no length to check.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([], message, receive), send_hardened)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._too_large(send_hardened)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([body], None, receive), send_hardened)

    async def _too_large(self, send: Send) -> None:
        # The body is not read, let alone echoed back.
        payload = json.dumps(
            {
                "error": f"the request body is too large (at most {self.max_body} bytes)",
                "code": "body_too_large",
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})


def _loopback_host(scope: Scope) -> bool:
    for name, value in scope.get("headers", []):
        if name == b"host":
            origin = origin_of("http://" + value.decode("latin-1"))
            return origin is not None and loopback(origin.host)
    return False


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _replay(first: list[Message], pending: Message | None, receive: Receive) -> Receive:
    """A ``receive`` that gives the buffered messages, then the live ones (e.g. disconnect)."""
    queue = [*first, *([pending] if pending is not None else [])]

    async def replayed() -> Message:
        if queue:
            return queue.pop(0)
        return await receive()

    return replayed


# ---------------------------------------------------------------------------------- player ids

_RAW_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
_SIGNED = re.compile(r"([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{43})")


class PlayerIds:
    """Player ids issued by the server, carried in the cookie as ``ID.SIGNATURE`` (HMAC-SHA256
    under the server's key, shared by every process on the database)."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("the player id signing key must be at least 16 bytes")
        self._key = key

    def _signature(self, player: str) -> str:
        mac = hmac.new(self._key, b"oudler-player:" + player.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    def issue(self) -> tuple[str, str]:
        """A new player id and its cookie value."""
        player = secrets.token_urlsafe(18)
        return player, self.cookie(player)

    def cookie(self, player: str) -> str:
        return f"{player}.{self._signature(player)}"

    def verify(self, cookie: str | None) -> str | None:
        """The player id that ``cookie`` carries, if the server issued it; else None."""
        m = _SIGNED.fullmatch(cookie or "")
        if m is None or not hmac.compare_digest(m.group(2), self._signature(m.group(1))):
            return None
        return m.group(1)


def legacy_id(cookie: str | None) -> str | None:
    """An unsigned id from before ids were signed (it is honoured only if the database knew it
    before the signing key was made: see ``Store.legacy_player``)."""
    return cookie if cookie is not None and _RAW_ID.fullmatch(cookie) else None


def parse_key(text: str) -> bytes:
    """A key given in configuration: any string of at least 16 bytes (e.g. 32 random bytes in
    hex or base64)."""
    return text.strip().encode()
