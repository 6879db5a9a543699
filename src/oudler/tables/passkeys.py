"""Passkeys (WebAuthn) of accounts: adding one, signing in with one (issue 29; docs/accounts.md,
"Passkeys"). The cryptography is the ``webauthn`` package's; this module decides which challenge,
origin and credential a response must name, and answers each refusal with a stable code before
the library's own checks run (its errors say why in free text only).

A challenge is a row (its SHA-256), so that any web process checks it: single use, five minutes.
It is used up only by a ceremony that succeeds, in the transaction that stores what that ceremony
gives (the passkey, or the session), so a refusal changes nothing and two responses to one
challenge cannot both pass.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.parse_authentication_credential_json import (
    parse_authentication_credential_json,
)
from webauthn.helpers.parse_authenticator_data import parse_authenticator_data
from webauthn.helpers.parse_client_data_json import parse_client_data_json
from webauthn.helpers.parse_registration_credential_json import (
    parse_registration_credential_json,
)
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    CollectedClientData,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from oudler.tables.accounts import (
    Accounts,
    Device,
    Signed,
    Unauthorized,
    attempt_source,
    session_hash,
)
from oudler.tables.games import Conflict, MatchNotFound, Unprocessable
from oudler.tables.store import (
    PASSKEY_NAME_LENGTH,
    AccountRow,
    PasskeyChallengeRow,
    PasskeyRow,
    as_utc,
    name_key,
    utcnow,
)

CHALLENGE_LIFE = dt.timedelta(minutes=5)
CHALLENGE_KEPT = dt.timedelta(days=1)  # used or expired rows say so this long, then go
CHALLENGE_BYTES = 32
MAX_PASSKEYS = 20  # per account: each is a row and an entry of every "add" ceremony
ADD, SIGN_IN, CONFIRM = "add", "sign_in", "confirm"  # a challenge's ceremony


class PasskeyRefused(Unauthorized):
    """A passkey ceremony's response refused: ``code`` says which check failed."""


@dataclass(frozen=True)
class RelyingParty:
    """Who the passkeys are for: ``id`` is the site's host (a passkey works on that host and
    its subdomains only), ``origin`` the page's scheme, host and port as a browser writes it."""

    id: str
    origin: str
    name: str = "Oudler"


def user_handle(player: str) -> bytes:
    """The account's WebAuthn user handle: the same for every passkey of the account (an
    authenticator then keeps one passkey per account and site), and it says nothing of the
    person or of the player id it is derived from."""
    return hashlib.sha256(b"oudler passkey user\0" + player.encode()).digest()


def _challenge_id(challenge: bytes) -> str:
    return hashlib.sha256(challenge).hexdigest()


def _iso(t: dt.datetime | None) -> str | None:
    t = as_utc(t)
    return None if t is None else t.isoformat()


def clean_passkey_name(text: str) -> str:
    name = " ".join(text.split())
    if not 1 <= len(name) <= PASSKEY_NAME_LENGTH:
        raise Unprocessable(
            f"a passkey's name is 1 to {PASSKEY_NAME_LENGTH} characters", code="passkey_name"
        )
    return name


class Passkeys:
    """The store side of passkeys (``app.state.passkeys``), over the accounts' store."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.store = accounts.store

    # ------------------------------------------------------------------ challenges

    def _new_challenge(self, purpose: str, account: int | None) -> bytes:
        challenge = secrets.token_bytes(CHALLENGE_BYTES)
        now = utcnow()
        with self.store.writing() as s:
            old = PasskeyChallengeRow.expires < now - CHALLENGE_KEPT
            s.execute(delete(PasskeyChallengeRow).where(old))
            s.add(
                PasskeyChallengeRow(
                    id=_challenge_id(challenge),
                    purpose=purpose,
                    account=account,
                    expires=now + CHALLENGE_LIFE,
                )
            )
        return challenge

    def _check_challenge(
        self, client: CollectedClientData, purpose: str, account: int | None
    ) -> str:
        """The challenge the response signed, if it is a live one of this ceremony: its row id."""
        cid = _challenge_id(client.challenge)
        with self.store.reading() as conn:
            row = conn.execute(
                select(
                    PasskeyChallengeRow.purpose,
                    PasskeyChallengeRow.account,
                    PasskeyChallengeRow.expires,
                    PasskeyChallengeRow.used,
                ).where(PasskeyChallengeRow.id == cid)
            ).first()
        if row is None or row.purpose != purpose or row.account != account:
            raise PasskeyRefused(
                "this passkey answer is not to a challenge this server gave",
                code="passkey_challenge_unknown",
            )
        if row.used is not None:
            raise PasskeyRefused(
                "this passkey answer was used already", code="passkey_challenge_used"
            )
        expires = as_utc(row.expires)
        if expires is None or expires <= utcnow():
            raise PasskeyRefused(
                "this passkey challenge expired: try again", code="passkey_challenge_expired"
            )
        return cid

    def _use_challenge(self, s: Any, cid: str) -> None:
        """Use the challenge up, in the ceremony's transaction: another response to it that got
        here first wins, and this one is refused (its transaction rolls back)."""
        result = s.execute(
            update(PasskeyChallengeRow)
            .where(
                PasskeyChallengeRow.id == cid,
                PasskeyChallengeRow.used.is_(None),
                PasskeyChallengeRow.expires > utcnow(),
            )
            .values(used=utcnow())
        )
        if not getattr(result, "rowcount", 0):
            raise PasskeyRefused(
                "this passkey answer was used already", code="passkey_challenge_used"
            )

    @staticmethod
    def _client_data(raw: bytes, kind: str) -> CollectedClientData:
        try:
            client = parse_client_data_json(raw)
        except (WebAuthnException, ValueError, TypeError) as e:
            raise Unprocessable("this is not a passkey's answer", code="passkey_malformed") from e
        if client.type != kind:
            raise PasskeyRefused("this passkey answer is not of this kind", code="passkey_invalid")
        return client

    @staticmethod
    def _check_origin(client: CollectedClientData, rp: RelyingParty) -> None:
        if client.origin != rp.origin or client.cross_origin:
            raise PasskeyRefused(
                "this passkey answer was made on another site's page", code="passkey_origin"
            )

    # ------------------------------------------------------------------ adding a passkey

    def add_options(self, signed: Signed, rp: RelyingParty) -> dict[str, Any]:
        """What the page hands ``navigator.credentials.create`` (JSON form)."""
        with self.store.reading() as conn:
            have = conn.scalars(
                select(PasskeyRow.credential).where(PasskeyRow.account == signed.account)
            ).all()
        if len(have) >= MAX_PASSKEYS:
            raise Conflict(
                f"an account has at most {MAX_PASSKEYS} passkeys: remove one first",
                code="too_many_passkeys",
            )
        options = generate_registration_options(
            rp_id=rp.id,
            rp_name=rp.name,
            user_name=signed.name,
            user_id=user_handle(signed.player),
            user_display_name=signed.name,
            challenge=self._new_challenge(ADD, signed.account),
            timeout=int(CHALLENGE_LIFE.total_seconds() * 1000),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.REQUIRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in have
            ],
        )
        out: dict[str, Any] = json.loads(options_to_json(options))
        return out

    def add(
        self, signed: Signed, name: str, credential: dict[str, Any], rp: RelyingParty
    ) -> dict[str, Any]:
        """Checks the authenticator's answer to an "add" challenge of this account and keeps the
        passkey it made; the passkey as listed."""
        shown = clean_passkey_name(name)
        try:
            parsed = parse_registration_credential_json(credential)
        except (WebAuthnException, ValueError, TypeError) as e:
            raise Unprocessable("this is not a passkey's answer", code="passkey_malformed") from e
        client = self._client_data(parsed.response.client_data_json, "webauthn.create")
        cid = self._check_challenge(client, ADD, signed.account)
        self._check_origin(client, rp)
        try:
            verified = verify_registration_response(
                credential=parsed,
                expected_challenge=client.challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
                require_user_verification=True,
            )
        except (WebAuthnException, ValueError, TypeError) as e:
            raise PasskeyRefused("this passkey could not be checked", code="passkey_invalid") from e
        credential_id = bytes_to_base64url(verified.credential_id)
        exists = Conflict("this passkey is kept already", code="passkey_exists")
        try:
            with self.store.writing() as s:
                if s.scalar(select(PasskeyRow.id).where(PasskeyRow.credential == credential_id)):
                    raise exists
                self._use_challenge(s, cid)
                row = PasskeyRow(
                    credential=credential_id,
                    public_key=verified.credential_public_key,
                    sign_count=verified.sign_count,
                    user_handle=bytes_to_base64url(user_handle(signed.player)),
                    account=signed.account,
                    name=shown,
                    created=utcnow(),
                )
                s.add(row)
                s.flush()
                return _listed(row)
        except IntegrityError:  # added at the same moment by another request
            raise exists from None

    # ------------------------------------------------------------------ the account's passkeys

    def listed(self, signed: Signed) -> list[dict[str, Any]]:
        with self.store.reading() as conn:
            rows = conn.execute(
                select(PasskeyRow.id, PasskeyRow.name, PasskeyRow.created, PasskeyRow.last_used)
                .where(PasskeyRow.account == signed.account)
                .order_by(PasskeyRow.created, PasskeyRow.id)
            ).all()
        return [_listed(row) for row in rows]

    def remove(self, signed: Signed, passkey: int) -> None:
        with self.store.writing() as s:
            result = s.execute(
                delete(PasskeyRow).where(
                    PasskeyRow.id == passkey, PasskeyRow.account == signed.account
                )
            )
            if not getattr(result, "rowcount", 0):
                raise MatchNotFound("no such passkey of this account", code="passkey_not_found")

    def count(self, account: int) -> int:
        with self.store.reading() as conn:
            n = conn.scalar(
                select(func.count()).select_from(PasskeyRow).where(PasskeyRow.account == account)
            )
        return int(n or 0)

    # ------------------------------------------------------------------ signing in

    def sign_in_options(self, rp: RelyingParty) -> dict[str, Any]:
        """What the page hands ``navigator.credentials.get``: no credential named, so the
        authenticator offers the passkeys it keeps for this site (no name to type)."""
        options = generate_authentication_options(
            rp_id=rp.id,
            challenge=self._new_challenge(SIGN_IN, None),
            timeout=int(CHALLENGE_LIFE.total_seconds() * 1000),
            user_verification=UserVerificationRequirement.REQUIRED,
        )
        out: dict[str, Any] = json.loads(options_to_json(options))
        return out

    def sign_in(
        self, credential: dict[str, Any], rp: RelyingParty, device: Device, guest: str | None
    ) -> tuple[Signed, str]:
        """A new session for the passkey's account, as a password sign-in makes (the device's
        guest matches move to it). Every refusal counts as a failed sign-in, against the address
        and, once the passkey is known, its account's name; over the limits, 429 before any
        check."""
        source = attempt_source(device.address)
        attempts = self.accounts._attempt(None, source)  # counted as failed until it succeeds
        parsed, client, cid, row = self._assertion(credential, rp, SIGN_IN, None)
        attempts += self.accounts.attempt(f"name:{name_key(row.name)}")
        verified = self._verified(parsed, client, row, rp)
        with self.store.writing() as s:
            self._spend(s, cid, row, verified)
            token = self.accounts.enter(s, row.account, row.player, row.name, device, guest)
        self.accounts.forgive(attempts)
        return Signed(row.account, row.name, row.player, session_hash(token)), token

    # ------------------------------------------------------------------ confirming a person

    def confirm_options(self, signed: Signed, rp: RelyingParty) -> dict[str, Any]:
        """What the page hands ``navigator.credentials.get`` to confirm that the signed-in
        person is at the device (before deleting the account): the account's passkeys named.
        409 ``no_passkey`` for an account without one."""
        with self.store.reading() as conn:
            have = conn.scalars(
                select(PasskeyRow.credential).where(PasskeyRow.account == signed.account)
            ).all()
        if not have:
            raise Conflict("this account has no passkey: give the password", code="no_passkey")
        options = generate_authentication_options(
            rp_id=rp.id,
            challenge=self._new_challenge(CONFIRM, signed.account),
            timeout=int(CHALLENGE_LIFE.total_seconds() * 1000),
            allow_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in have
            ],
            user_verification=UserVerificationRequirement.REQUIRED,
        )
        out: dict[str, Any] = json.loads(options_to_json(options))
        return out

    def confirm(
        self, signed: Signed, credential: dict[str, Any], rp: RelyingParty, address: str | None
    ) -> None:
        """The signed-in person proved again with one of the account's passkeys, as
        ``Accounts.recheck`` does with the password: a refusal counts as a failed sign-in
        against the account's name and the address (429 likewise), and changes nothing."""
        attempts = self.accounts._attempt(name_key(signed.name), attempt_source(address))
        parsed, client, cid, row = self._assertion(credential, rp, CONFIRM, signed.account)
        if row.account != signed.account:
            raise PasskeyRefused("this passkey is not this account's", code="passkey_unknown")
        verified = self._verified(parsed, client, row, rp)
        with self.store.writing() as s:
            self._spend(s, cid, row, verified)
        self.accounts.forgive(attempts)

    # ------------------------------------------------------------------ an assertion's checks

    def _assertion(
        self, credential: dict[str, Any], rp: RelyingParty, purpose: str, account: int | None
    ) -> tuple[Any, CollectedClientData, str, Any]:
        """An authentication answer parsed, its challenge (a live one of ``purpose``, given to
        ``account``) and origin checked, and its passkey's row with its account's."""
        try:
            parsed = parse_authentication_credential_json(credential)
        except (WebAuthnException, ValueError, TypeError) as e:
            raise Unprocessable("this is not a passkey's answer", code="passkey_malformed") from e
        client = self._client_data(parsed.response.client_data_json, "webauthn.get")
        cid = self._check_challenge(client, purpose, account)
        self._check_origin(client, rp)
        with self.store.reading() as conn:
            row = conn.execute(
                select(
                    PasskeyRow.id,
                    PasskeyRow.public_key,
                    PasskeyRow.sign_count,
                    PasskeyRow.user_handle,
                    AccountRow.id.label("account"),
                    AccountRow.name,
                    AccountRow.player,
                )
                .join(AccountRow, AccountRow.id == PasskeyRow.account)
                .where(PasskeyRow.credential == bytes_to_base64url(parsed.raw_id))
            ).first()
        handle = parsed.response.user_handle
        if row is None or (handle is not None and bytes_to_base64url(handle) != row.user_handle):
            raise PasskeyRefused("this passkey is not one of an account", code="passkey_unknown")
        return parsed, client, cid, row

    @staticmethod
    def _verified(parsed: Any, client: CollectedClientData, row: Any, rp: RelyingParty) -> Any:
        """The answer's signature and counter checked against the passkey's row."""
        try:
            counted = parse_authenticator_data(parsed.response.authenticator_data).sign_count
        except (WebAuthnException, ValueError, TypeError) as e:
            raise Unprocessable("this is not a passkey's answer", code="passkey_malformed") from e
        if (counted or row.sign_count) and counted <= row.sign_count:
            # The authenticator's counter went back: another copy of the key (a clone) signs.
            raise PasskeyRefused(
                "this passkey's counter went back: it may have been copied",
                code="passkey_sign_count",
            )
        try:
            return verify_authentication_response(
                credential=parsed,
                expected_challenge=client.challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
                credential_public_key=row.public_key,
                credential_current_sign_count=row.sign_count,
                require_user_verification=True,
            )
        except (WebAuthnException, ValueError, TypeError) as e:
            raise PasskeyRefused(
                "this passkey's answer could not be checked", code="passkey_invalid"
            ) from e

    def _spend(self, s: Any, cid: str, row: Any, verified: Any) -> None:
        """In the ceremony's transaction: the challenge used up and the counter moved on, both
        only if nobody did it first (then this answer is refused and nothing is written)."""
        self._use_challenge(s, cid)
        moved = s.execute(
            update(PasskeyRow)
            .where(PasskeyRow.id == row.id, PasskeyRow.sign_count == row.sign_count)
            .values(sign_count=verified.new_sign_count, last_used=utcnow())
        )
        if not getattr(moved, "rowcount", 0):  # another sign-in counted in between
            raise PasskeyRefused(
                "this passkey's counter went back: it may have been copied",
                code="passkey_sign_count",
            )


def _listed(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "created": _iso(row.created),
        "last_used": _iso(row.last_used),
    }
