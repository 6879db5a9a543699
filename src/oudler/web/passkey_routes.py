"""Passkeys over HTTP (issue 29; docs/accounts.md, "Passkeys"): a signed-in person adds, lists and
removes their passkeys; anybody signs in with one. The relying party is the site's public address
(``--public-url``), else the address the request was made to, which the Origin check
(``web/origin.py``) has already matched to the page that sent it.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request, Response
from pydantic import BaseModel, StrictStr

from oudler.tables.accounts import Signed, TooManyAttempts
from oudler.tables.games import BadRequest
from oudler.tables.passkeys import Passkeys, RelyingParty
from oudler.web.account_routes import (
    _device,
    _session_cookie,
    _signed,
    _too_many,
    accounts_of,
    signed_of,
)
from oudler.web.addresses import origin_of


class NewPasskey(BaseModel):
    name: StrictStr
    credential: dict[str, Any]  # the PublicKeyCredential, in its JSON form


class PasskeyAnswer(BaseModel):
    credential: dict[str, Any]


def passkeys_of(request: Request) -> Passkeys:
    passkeys: Passkeys = request.app.state.passkeys
    return passkeys


def relying_party(request: Request) -> RelyingParty:
    """The site the passkeys are for: the public URL's host and origin when one is configured,
    else the request's own (its Host header, and https when uvicorn saw it or ``--behind-https``
    says a proxy serves it so), as ``origin.origin_allowed`` computes the server's origin."""
    public: str | None = request.app.state.public_url
    if public:
        origin = origin_of(public)
    else:
        https = request.app.state.https or request.scope.get("scheme") in ("https", "wss")
        origin = origin_of(f"{'https' if https else 'http'}://{request.headers.get('host', '')}")
    if origin is None:
        raise BadRequest("this request names no address of the site", code="passkey_no_address")
    return RelyingParty(id=origin.host, origin=origin.url())


def add_passkey_routes(app: FastAPI) -> None:
    def confirm(
        request: Request, signed: Signed, credential: dict[str, Any], address: str | None
    ) -> None:
        passkeys_of(request).confirm(signed, credential, relying_party(request), address)

    app.state.confirm_passkey = confirm  # DELETE /api/account's passkey check

    @app.post("/api/passkeys/challenge")
    def add_options(request: Request) -> dict[str, Any]:
        return passkeys_of(request).add_options(_signed(request), relying_party(request))

    @app.post("/api/passkeys", status_code=201)
    def add(request: Request, body: NewPasskey) -> dict[str, Any]:
        added = passkeys_of(request).add(
            _signed(request), body.name, body.credential, relying_party(request)
        )
        return {"passkey": added}

    @app.get("/api/passkeys")
    def listed(request: Request) -> dict[str, Any]:
        return {"passkeys": passkeys_of(request).listed(_signed(request))}

    @app.delete("/api/passkeys/{passkey}")
    def remove(request: Request, passkey: int) -> dict[str, Any]:
        signed = _signed(request)
        passkeys_of(request).remove(signed, passkey)
        return {"passkeys": passkeys_of(request).listed(signed)}

    @app.post("/api/account/passkey/challenge")
    def confirm_options(request: Request) -> dict[str, Any]:
        """To give a passkey again before deleting the account (``DELETE /api/account``)."""
        return passkeys_of(request).confirm_options(_signed(request), relying_party(request))

    @app.post("/api/session/passkey/challenge")
    def sign_in_options(request: Request) -> dict[str, Any]:
        return passkeys_of(request).sign_in_options(relying_party(request))

    @app.post("/api/session/passkey", response_model=None)
    def sign_in(request: Request, response: Response, body: PasskeyAnswer) -> Any:
        before = signed_of(request)
        # As a password sign-in: a guest's own matches move to the account, a session ends.
        guest: str | None = request.state.player if before is None else None
        try:
            signed, token = passkeys_of(request).sign_in(
                body.credential, relying_party(request), _device(request), guest
            )
        except TooManyAttempts as e:
            return _too_many(e)
        if before is not None:
            accounts_of(request).sign_out(before.session)
        _session_cookie(request, response, token)
        return {"account": {"name": signed.name}}
