"""Linking a device (issue 29; docs/accounts.md, "Link a device"): a signed-in device asks for a
one-time code and link; typing the code, or confirming the link, on a new device signs that device
in to the account, as a password sign-in does (``Accounts.enter``).

The code is short enough to type (10 symbols of Crockford's base 32, about 50 bits): the attempt
limits per address make guessing it hopeless. The link carries a token of 256 random bits. Both are
single use and live 10 minutes; the database holds only their SHA-256, so reading it signs nobody
in. A code or link ends with the session that asked for it and with its account (ON DELETE
CASCADE).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from oudler.tables.accounts import Accounts, Device, Signed, attempt_source, session_hash
from oudler.tables.games import Unprocessable, WebError
from oudler.tables.store import AccountRow, DeviceLinkRow, as_utc, utcnow

# Crockford's base 32: digits and capitals without I, L, O and U, so that nothing reads as
# something else; a typed I or L is read as 1 and an O as 0.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 10  # 50 bits, shown as two groups of five
TOKEN_BYTES = 32  # 256 random bits in the link
LIFE = dt.timedelta(minutes=10)
# Spent and expired rows are kept a day, so that a late or replayed try is told so (then unknown).
KEPT = dt.timedelta(days=1)
_READ_AS = str.maketrans({"I": "1", "L": "1", "O": "0"})
_SEPARATORS = frozenset(" -_.\t")


class LinkUnknown(WebError):
    status = 404


class LinkSpent(WebError):
    status = 410


def unknown() -> LinkUnknown:
    return LinkUnknown(
        "this code or link is not known: check it, or ask for a new one", code="link_unknown"
    )


def used() -> LinkSpent:
    return LinkSpent("this code or link was used already: ask for a new one", code="link_used")


def expired() -> LinkSpent:
    return LinkSpent("this code or link has expired: ask for a new one", code="link_expired")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def normal_code(text: str) -> str | None:
    """The code as stored (hashed): capitals, no separators, I and L read as 1, O as 0; None
    when it cannot be a code (then it is unknown, and counts as a failed try)."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKC", text) if ch not in _SEPARATORS)
    code = plain.upper().translate(_READ_AS)
    if len(code) != CODE_LENGTH or any(ch not in ALPHABET for ch in code):
        return None
    return code


def grouped(code: str) -> str:
    """As shown: two groups of five, easier to read out and to type."""
    half = CODE_LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


@dataclass(frozen=True)
class NewLink:
    id: int
    code: str  # grouped
    token: str
    expires: dt.datetime


class DeviceLinks:
    """The store side of device links (``app.state.device_links``). ``now``: the clock, for
    tests."""

    def __init__(self, accounts: Accounts, *, now: Callable[[], dt.datetime] = utcnow) -> None:
        self.accounts = accounts
        self.store = accounts.store
        self.now = now

    def create(self, signed: Signed) -> NewLink:
        """A new code and link for the signed-in device; the device's former ones that were not
        used end (one live code per device)."""
        now = self.now()
        for _ in range(3):  # a new code equal to a kept one: 2^-50, drawn again
            code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
            token = secrets.token_urlsafe(TOKEN_BYTES)
            try:
                with self.store.writing() as s:
                    s.execute(delete(DeviceLinkRow).where(DeviceLinkRow.expires < now - KEPT))
                    s.execute(
                        delete(DeviceLinkRow).where(
                            DeviceLinkRow.session == signed.session, DeviceLinkRow.used.is_(None)
                        )
                    )
                    row = DeviceLinkRow(
                        account=signed.account,
                        session=signed.session,
                        code=digest(code),
                        token=digest(token),
                        created=now,
                        expires=now + LIFE,
                    )
                    s.add(row)
                    s.flush()
                    return NewLink(row.id, grouped(code), token, now + LIFE)
            except IntegrityError:
                continue
        raise RuntimeError("no new device code could be stored")

    def state(self, signed: Signed, link: int) -> dict[str, Any]:
        """``{"id", "expires", "used", "state"}`` of a code this device asked for; ``state`` is
        "waiting", "used" or "expired"."""
        with self.store.reading() as conn:
            row = conn.execute(
                select(DeviceLinkRow.id, DeviceLinkRow.expires, DeviceLinkRow.used).where(
                    DeviceLinkRow.id == link, DeviceLinkRow.session == signed.session
                )
            ).first()
        if row is None:
            raise unknown()
        at, ends = as_utc(row.used), as_utc(row.expires)
        assert ends is not None
        state = "used" if at is not None else "expired" if ends <= self.now() else "waiting"
        return {
            "id": row.id,
            "expires": ends.isoformat(),
            "used": None if at is None else at.isoformat(),
            "state": state,
        }

    def cancel(self, signed: Signed, link: int) -> None:
        """Ends a code this device asked for and nobody used (expired or not)."""
        with self.store.writing() as s:
            row = s.execute(
                select(DeviceLinkRow.used).where(
                    DeviceLinkRow.id == link, DeviceLinkRow.session == signed.session
                )
            ).first()
            if row is None:
                raise unknown()
            if row.used is not None:
                raise used()
            s.execute(delete(DeviceLinkRow).where(DeviceLinkRow.id == link))

    def use(
        self, code: str | None, token: str | None, device: Device, guest: str | None
    ) -> tuple[Signed, str]:
        """Signs this device in with a code or a link's token: a new session and its cookie
        token, as a password sign-in. A refusal (unknown, used, expired) counts as a failed
        sign-in from the address and changes nothing else; ``TooManyAttempts`` past the
        limit, before anything is looked up."""
        if (code is None) == (token is None):
            raise Unprocessable("give either the code or the link's token", code="link_missing")
        # Counted as a failed sign-in from the address until it succeeds.
        attempts = self.accounts.attempt(f"net:{attempt_source(device.address)}")
        if code is not None:
            typed = normal_code(code)
            wanted = None if typed is None else digest(typed)
            column = DeviceLinkRow.code
        else:
            wanted = digest(token or "")
            column = DeviceLinkRow.token
        refusal: WebError | None = unknown()
        if wanted is not None:
            now = self.now()
            with self.store.writing() as s:
                row = s.execute(
                    select(
                        DeviceLinkRow.id,
                        DeviceLinkRow.account,
                        DeviceLinkRow.expires,
                        DeviceLinkRow.used,
                    ).where(column == wanted)
                ).first()
                ends = None if row is None else as_utc(row.expires)
                if row is None or ends is None:
                    refusal = unknown()
                elif row.used is not None:
                    refusal = used()
                elif ends <= now:
                    refusal = expired()
                else:
                    # Spent here, in the sign-in's own transaction: of two tries at once, one
                    # finds it unused.
                    spent = s.execute(
                        update(DeviceLinkRow)
                        .where(DeviceLinkRow.id == row.id, DeviceLinkRow.used.is_(None))
                        .values(used=now)
                    )
                    if getattr(spent, "rowcount", 0) == 1:
                        person = s.execute(
                            select(AccountRow.id, AccountRow.name, AccountRow.player)
                            .where(AccountRow.id == row.account)
                        ).one()  # fmt: skip
                        opened = self.accounts.enter(
                            s, person.id, person.player, person.name, device, guest
                        )
                        signed = Signed(person.id, person.name, person.player, session_hash(opened))
                        refusal = None
                    else:
                        refusal = used()
            if refusal is None:
                self.accounts.forgive(attempts)
                return signed, opened
        assert refusal is not None
        raise refusal
