"""Accounts over HTTP (issue 29; docs/accounts.md, docs/web-api.md): making an account from the
guest, signing in and out, the account's sessions and its password.

``AccountSessions`` runs on every request after the player cookie is read: a live session cookie
makes the request its account's player id (so seats and sockets follow the person); a guest cookie
whose id an account owns, with no session, names nobody and is replaced by a new guest's.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import segno
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, StrictStr
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from oudler.tables.accounts import Accounts, Device, Signed, TooManyAttempts, Unauthorized
from oudler.tables.device_links import DeviceLinks
from oudler.tables.games import Conflict, Unprocessable
from oudler.tables.personal import export_data
from oudler.tables.store import DatabaseUnavailable
from oudler.web import addresses
from oudler.web.security import PlayerIds

log = logging.getLogger("oudler.web")

SESSION_COOKIE = "oudler_session"
SESSION_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie; the row may end sooner


class Credentials(BaseModel):
    name: StrictStr
    password: StrictStr


class NewName(BaseModel):
    name: StrictStr


class Recheck(BaseModel):
    """The person proves again: the password, or a passkey's answer to
    ``POST /api/account/passkey/challenge`` (exactly one)."""

    password: StrictStr | None = None
    passkey: dict[str, Any] | None = None


class NewPassword(BaseModel):
    password: StrictStr  # the current one
    new_password: StrictStr


class LinkBody(BaseModel):
    """A device link: the typed code, or the link's token (exactly one)."""

    code: StrictStr | None = Field(default=None, max_length=64)
    token: StrictStr | None = Field(default=None, max_length=128)


def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def links_of(request: Request) -> DeviceLinks:
    links: DeviceLinks = request.app.state.device_links
    return links


def signed_of(request: HTTPConnection) -> Signed | None:
    """The request's session, if it comes from a signed-in device."""
    signed: Signed | None = request.scope.get("state", {}).get("account")
    return signed


def account_of(request: HTTPConnection) -> dict[str, Any] | None:
    """``{"name": ...}`` of the signed-in person, None for a guest (``GET /api/me``)."""
    signed = signed_of(request)
    return None if signed is None else {"name": signed.name}


def _signed(request: Request) -> Signed:
    signed = signed_of(request)
    if signed is None:
        raise Unauthorized("sign in first", code="not_signed_in")
    return signed


def _device(request: Request) -> Device:
    return Device(
        browser=request.headers.get("user-agent", ""),
        address=request.client.host if request.client else None,
    )


def _secure(request: Request) -> bool:
    return bool(request.app.state.https) or request.url.scheme == "https"


def _session_cookie(request: Request, response: Response, token: str | None) -> None:
    """Set (or, with None, clear) the session cookie: HttpOnly, SameSite=Lax, Secure on HTTPS."""
    secure = _secure(request)
    if token is None:
        response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax", secure=secure)
    else:
        response.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=SESSION_AGE,
            httponly=True,
            samesite="lax",
            secure=secure,
        )


def _too_many(exc: TooManyAttempts) -> JSONResponse:
    return JSONResponse(
        {"error": exc.message, "code": exc.code},
        status_code=429,
        headers={"Retry-After": str(exc.retry_after)},
    )


def _signing_in(
    request: Request,
    response: Response,
    attempt: Callable[[Device, str | None], tuple[Signed, str]],
) -> Any:
    """Every way of signing in ends here (password, device link): a new session and its cookie,
    the device's former session ended, its own guest matches moved (``Accounts.enter``)."""
    before = signed_of(request)
    # A guest's own matches move to the account; another account's never do.
    guest: str | None = request.state.player if before is None else None
    try:
        signed, token = attempt(_device(request), guest)
    except TooManyAttempts as e:
        return _too_many(e)
    if before is not None:  # the device's former session ends: one session per cookie
        accounts_of(request).sign_out(before.session)
    _session_cookie(request, response, token)
    return {"account": {"name": signed.name}}


def link_addresses(request: Request, path: str) -> tuple[str, list[str]]:
    """A device link's address, as invitations are built (``app.with_links``): on the public URL
    when one is set, else on the address the page was opened at; and when that address opens on
    this machine only, the same link on the machine's network addresses (for a phone)."""
    state = request.app.state
    base = state.public_url or f"{request.url.scheme}://{request.headers.get('host', '')}"
    origin = addresses.origin_of(base)
    instead: list[str] = []
    if origin is not None and addresses.this_machine_only(origin.host):
        instead = [
            addresses.Origin(origin.scheme, host, origin.port).url() + path
            for host in addresses.shared_addresses(state.listen_host)
        ]
    return base + path, instead


def qr_svg(url: str) -> str:
    """The link as a QR code, an SVG ``data:`` URI (drawn here: no script, no other site)."""
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))


def add_account_routes(app: FastAPI) -> None:
    @app.post("/api/account", status_code=201)
    def make_account(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
        if signed_of(request) is not None:
            raise Conflict(
                "this browser is signed in already: sign out first", code="already_signed_in"
            )
        player: str = request.state.player
        signed, token = accounts_of(request).create(
            player, body.name, body.password, _device(request)
        )
        _session_cookie(request, response, token)
        return {"account": {"name": signed.name}}

    @app.post("/api/session", response_model=None)
    def sign_in(request: Request, response: Response, body: Credentials) -> Any:
        def attempt(device: Device, guest: str | None) -> tuple[Signed, str]:
            return accounts_of(request).sign_in(body.name, body.password, device, guest)

        return _signing_in(request, response, attempt)

    @app.post("/api/link-code", status_code=201)
    def link_code(request: Request) -> dict[str, Any]:
        made = links_of(request).create(_signed(request))
        # The token after "#": browsers never send it, so no server or proxy log holds it.
        url, instead = link_addresses(request, f"/link#{made.token}")
        return {
            "id": made.id,
            "code": made.code,
            "url": url,
            "instead": instead,
            "qr": qr_svg(instead[0] if instead else url),
            "expires": made.expires.isoformat(),
        }

    @app.get("/api/link-code/{link}")
    def link_code_state(request: Request, link: int) -> dict[str, Any]:
        return links_of(request).state(_signed(request), link)

    @app.delete("/api/link-code/{link}")
    def cancel_link_code(request: Request, link: int) -> dict[str, Any]:
        links_of(request).cancel(_signed(request), link)
        return {"cancelled": True}

    @app.post("/api/link", response_model=None)
    def link_device(request: Request, response: Response, body: LinkBody) -> Any:
        def attempt(device: Device, guest: str | None) -> tuple[Signed, str]:
            return links_of(request).use(body.code, body.token, device, guest)

        return _signing_in(request, response, attempt)

    @app.delete("/api/session")
    def sign_out(request: Request, response: Response) -> dict[str, Any]:
        signed = signed_of(request)
        if signed is not None:
            accounts_of(request).sign_out(signed.session)
        _session_cookie(request, response, None)
        return {"account": None}

    @app.delete("/api/sessions")
    def sign_out_everywhere(request: Request, response: Response) -> dict[str, Any]:
        ended = accounts_of(request).sign_out_everywhere(_signed(request).account)
        _session_cookie(request, response, None)
        return {"account": None, "ended": ended}

    @app.get("/api/sessions")
    def sessions(request: Request) -> dict[str, Any]:
        return {"sessions": accounts_of(request).sessions(_signed(request))}

    @app.post("/api/account/name")
    def rename(request: Request, body: NewName) -> dict[str, Any]:
        shown = accounts_of(request).rename(_signed(request), body.name)
        return {"name": shown, "account": {"name": shown}}

    @app.post("/api/password", response_model=None)
    def change_password(request: Request, body: NewPassword) -> Any:
        signed = _signed(request)
        address = request.client.host if request.client else None
        try:
            ended = accounts_of(request).change_password(
                signed, body.password, body.new_password, address
            )
        except TooManyAttempts as e:
            return _too_many(e)
        return {"account": {"name": signed.name}, "ended": ended}


def export_filename(name: str | None, day: dt.date) -> tuple[str, str]:
    """``oudler-NAME-DATE.json``: as ASCII for ``filename`` (other characters as ``_``) and in
    full for ``filename*`` (RFC 6266)."""
    full = f"oudler-{name or 'guest'}-{day.isoformat()}.json"
    ascii_name = re.sub(r"[^A-Za-z0-9._-]", "_", full)
    return ascii_name, quote(full, safe="")


def add_data_routes(app: FastAPI) -> None:
    """A person's data (docs/accounts.md, "Your data"): the export, and deleting the account."""

    @app.get("/api/me/export")
    def export(request: Request) -> Response:
        signed = signed_of(request)
        account = None if signed is None else accounts_of(request).profile(signed.account)
        player: str = request.state.player
        data = export_data(request.app.state.tables, player, account)
        name = None if account is None else account["name"]
        plain, full = export_filename(name, dt.datetime.now(dt.UTC).date())
        return Response(
            json.dumps(data, ensure_ascii=False, indent=1),
            media_type="application/json",
            headers={
                "Content-Disposition": (
                    f"attachment; filename=\"{plain}\"; filename*=UTF-8''{full}"
                ),
                "Cache-Control": "no-store",
            },
        )

    @app.delete("/api/account", response_model=None)
    def delete_account(request: Request, response: Response, body: Recheck) -> Any:
        signed = _signed(request)
        accounts = accounts_of(request)
        address = request.client.host if request.client else None
        if (body.password is None) == (body.passkey is None):
            raise Unprocessable(
                "give either the password or a passkey's answer", code="recheck_missing"
            )
        try:
            if body.passkey is not None:
                # Set by ``passkey_routes`` (which imports this module, not the other way).
                request.app.state.confirm_passkey(request, signed, body.passkey, address)
            else:
                assert body.password is not None
                accounts.recheck(signed, body.password, address)
        except TooManyAttempts as e:
            return _too_many(e)
        done = accounts.delete(signed.account)
        if done is not None:
            for match_id in done[1]:
                request.app.state.tables.forget(match_id)
        for info, _ in request.app.state.tables.store.list_matches(signed.player, limit=None):
            request.app.state.tables.forget(info.id)  # its names (a left seat's too) changed
        _session_cookie(request, response, None)
        request.state.fresh_guest = True  # AccountSessions gives the device a new guest id
        return {"account": None, "deleted": len(done[1]) if done else 0}


class AccountSessions:
    """Puts the device's session (``Signed``) in ``scope["state"]["account"]`` and its
    account's player id in ``scope["state"]["player"]``; run inside ``PlayerCookie``. A guest
    cookie whose id an account owns, without a live session (signed out, or everywhere), is
    replaced by a new guest's: that id is the account's, and the device is no longer it."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        accounts: Accounts,
        ids: PlayerIds,
        player_cookie: str,
        cookie_age: int,
        https: bool,
    ) -> None:
        self.app = app
        self.accounts = accounts
        self.ids = ids
        self.player_cookie = player_cookie
        self.cookie_age = cookie_age
        self.https = https

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)  # pages, static files, health: nobody's
            return
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        token = HTTPConnection(scope).cookies.get(SESSION_COOKIE)
        player = state.get("player")
        try:
            signed, owned = await run_in_threadpool(self.accounts.who, token, player)
        except (SQLAlchemyError, DatabaseUnavailable) as e:
            log.error("sessions: the database failed (%s)", type(e).__name__)
            if scope["type"] == "http":
                unavailable = (
                    str(e)
                    if isinstance(e, DatabaseUnavailable)
                    else "the database is unavailable; nothing was changed, try again later"
                )
                await JSONResponse({"error": unavailable}, status_code=503)(scope, receive, send)
                return
            signed, owned = None, True  # a socket of nobody, until the database answers
        headers: list[tuple[bytes, bytes]] = []
        secure = self.https or scope.get("scheme") in ("https", "wss")
        if signed is not None:
            state["player"] = signed.player
            state["account"] = signed
        else:
            state["account"] = None
            if token:  # a dead session: the browser forgets it
                headers.append(_cookie_header(SESSION_COOKIE, "", 0, secure))
            if owned:
                if scope["type"] == "websocket":
                    state.pop("player", None)  # the socket names nobody
                else:
                    new, value = self.ids.issue()
                    state["player"] = new
                    headers.append(
                        _cookie_header(self.player_cookie, value, self.cookie_age, secure)
                    )
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_cookies(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = headers
                if state.pop("fresh_guest", False):  # the account was deleted: a new guest
                    _, value = self.ids.issue()
                    extra = [
                        *headers,
                        _cookie_header(self.player_cookie, value, self.cookie_age, secure),
                    ]
                if extra:
                    message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_cookies)


def _cookie_header(name: str, value: str, age: int, secure: bool) -> tuple[bytes, bytes]:
    """A ``Set-Cookie`` header as Starlette writes it (age 0: the browser drops the cookie)."""
    response = Response()
    response.set_cookie(name, value, max_age=age, httponly=True, samesite="lax", secure=secure)
    key, line = response.raw_headers[-1]
    return key, line
