"""Accounts, password sign-in and server-side sessions (issue 29; docs/accounts.md).

An account owns the player id of the guest it was made from: every match, seat, hint and analysis
keyed by that id is the account's, with nothing copied. A device that signs in acts as that player
id from then on, so seats and live sockets follow the person. The device's own guest matches move
to the account when they do not collide with it (``_merge``).

A session is a row; the cookie holds a random token and the row only its SHA-256, so reading the
database signs nobody in. Failed sign-ins are rows too, so that every web process counts them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import math
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from oudler.tables.games import Conflict, TooManyRequests, Unprocessable, WebError
from oudler.tables.series_rows import EntryRow, ResultRow
from oudler.tables.store import (
    NAME_LENGTH,
    AccountRow,
    MatchRow,
    PlayerRow,
    SeatRow,
    SessionRow,
    SignInFailureRow,
    Store,
    as_utc,
    utcnow,
)

NAME_MIN = 3
PASSWORD_MIN = 8
PASSWORD_MAX = 256  # argon2 takes any length; a bound keeps a request's cost bounded
ATTEMPTS = (10, 600.0)  # at most 10 failed sign-ins per name and per address in 10 minutes
TOKEN_BYTES = 32  # 256 random bits in the cookie
SEEN_EVERY = dt.timedelta(minutes=5)  # "last seen" is written at most that often
SESSION_IDLE = dt.timedelta(days=400)  # a session unused that long is dead (the cookie's age)
BROWSER_LENGTH = 160
# Names that would pass for the site or a computer player (compared by their key, letters only).
RESERVED = frozenset(
    {
        "admin", "administrator", "root", "system", "oudler", "moderator", "mod", "support",
        "staff", "guest", "computer", "bot", "nobody", "anonymous", "aformerplayer", "you",
        "east", "north", "west", "south", "null", "undefined",
    }
)  # fmt: skip
# Besides letters, marks and digits, a name may hold these (never two spaces in a row).
NAME_EXTRA = frozenset(" -_.'")


class BadName(Unprocessable):
    pass


class NameTaken(Conflict):
    pass


class Unauthorized(WebError):
    status = 401


class TooManyAttempts(TooManyRequests):
    """Too many failed sign-ins: ``retry_after`` whole seconds until the next may be tried."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            f"too many failed sign-ins: try again in {retry_after} seconds",
            code="too_many_attempts",
        )
        self.retry_after = retry_after


def name_key(name: str) -> str:
    """What makes two names the same: NFKC, then without case."""
    return unicodedata.normalize("NFKC", name).casefold()


def clean_account_name(text: str) -> str:
    """The name as shown (NFKC, outer spaces dropped), or ``BadName`` with a code."""
    name = unicodedata.normalize("NFKC", text).strip()
    if not NAME_MIN <= len(name) <= NAME_LENGTH:
        raise BadName(f"a name is {NAME_MIN} to {NAME_LENGTH} characters", code="name_length")
    if "  " in name or any(
        ch not in NAME_EXTRA and unicodedata.category(ch)[0] not in "LMN" for ch in name
    ):
        raise BadName(
            "a name holds letters, digits, spaces and - _ . ' only", code="name_characters"
        )
    if "".join(ch for ch in name_key(name) if ch.isalnum()) in RESERVED:
        raise BadName("this name is reserved: choose another", code="name_reserved")
    return name


def check_password(password: str, name: str) -> None:
    """``Unprocessable`` for a password too short, too long or the name itself."""
    if len(password) < PASSWORD_MIN:
        raise Unprocessable(
            f"a password is at least {PASSWORD_MIN} characters", code="password_too_short"
        )
    if len(password) > PASSWORD_MAX:
        raise Unprocessable(
            f"a password is at most {PASSWORD_MAX} characters", code="password_too_long"
        )
    if name_key(password) == name_key(name):
        raise Unprocessable("the password may not be the name", code="password_is_name")


def session_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def place_of(address: str | None) -> str:
    """The address's network only, as stored and shown: /24 of IPv4, /48 of IPv6."""
    ip = _ip(address)
    if ip is None:
        return ""
    bits = 24 if ip.version == 4 else 48
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


def attempt_source(address: str | None) -> str:
    """Whom failed sign-ins are counted against: an IPv4 address, or an IPv6 /64 (what one
    subscriber holds)."""
    ip = _ip(address)
    if ip is None:
        return (address or "unknown")[:64]
    if ip.version == 4:
        return str(ip)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


def _ip(address: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


@dataclass(frozen=True)
class Signed:
    """A signed-in device: its account and session (``session`` is the stored hash)."""

    account: int
    name: str
    player: str
    session: str


@dataclass(frozen=True)
class Device:
    """What a new session records of the device."""

    browser: str
    address: str | None

    @property
    def place(self) -> str:
        return place_of(self.address)


class Accounts:
    """The store side of accounts (``app.state.accounts``)."""

    def __init__(
        self,
        store: Store,
        *,
        attempts: tuple[int, float] = ATTEMPTS,
        hasher: PasswordHasher | None = None,
    ) -> None:
        self.store = store
        self.attempts = attempts
        # argon2id with the library's recommended parameters (RFC 9106's second choice).
        self.hasher = hasher or PasswordHasher()
        self._dummy_hash: str | None = None

    @property
    def _dummy(self) -> str:
        """An unknown name is checked against this, so that it costs what a wrong password
        does (made at the first need: every server start would pay for it)."""
        if self._dummy_hash is None:
            self._dummy_hash = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy_hash

    # ------------------------------------------------------------------ making and signing in

    def create(self, player: str, name: str, password: str, device: Device) -> tuple[Signed, str]:
        """An account made from the guest ``player`` (who keeps every match), signed in on this
        device: the session and its cookie token."""
        shown = clean_account_name(name)
        check_password(password, shown)
        digest = self.hasher.hash(password)
        try:
            with self.store.writing() as s:
                if s.scalar(select(AccountRow.id).where(AccountRow.key == name_key(shown))):
                    raise NameTaken("this name is taken: choose another", code="name_taken")
                if s.scalar(select(AccountRow.id).where(AccountRow.player == player)):
                    raise Conflict(
                        "this browser is signed in already: sign out first",
                        code="already_signed_in",
                    )
                person = s.get(PlayerRow, player)
                if person is None:
                    s.add(PlayerRow(id=player, name=shown))
                    s.flush()  # before the account that refers to it
                else:
                    person.name = shown  # the account's name is the one shown at tables
                row = AccountRow(name=shown, key=name_key(shown), player=player, password=digest)
                s.add(row)
                s.flush()
                token = self._open(s, row.id, device)
                return Signed(row.id, shown, player, session_hash(token)), token
        except IntegrityError:  # made at the same moment by another request
            raise NameTaken("this name is taken: choose another", code="name_taken") from None

    def sign_in(
        self, name: str, password: str, device: Device, guest: str | None
    ) -> tuple[Signed, str]:
        """A new session for the account, or ``bad_credentials`` for an unknown name and a wrong
        password alike: both verify a hash (the dummy one for an unknown name) and record a
        failure. ``guest``: the device's own guest, whose matches move to the account."""
        key = name_key(name)[:96]
        source = attempt_source(device.address)
        self._check_attempts(key, source)
        with self.store.reading() as conn:
            row = conn.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.player, AccountRow.password)
                .where(AccountRow.key == key)
            ).first()  # fmt: skip
        ok = self._verify(self._dummy if row is None else row.password, password)
        if row is None or not ok:
            self._fail(key, source)
            raise Unauthorized("the name or the password is wrong", code="bad_credentials")
        with self.store.writing() as s:
            if self.hasher.check_needs_rehash(row.password):
                s.execute(
                    update(AccountRow)
                    .where(AccountRow.id == row.id)
                    .values(password=self.hasher.hash(password))
                )
            if guest is not None and guest != row.player:
                _merge(s, guest, row.player)
            token = self._open(s, row.id, device)
        return Signed(row.id, row.name, row.player, session_hash(token)), token

    def _verify(self, digest: str, password: str) -> bool:
        try:
            return self.hasher.verify(digest, password)
        except (VerificationError, InvalidHashError):
            return False

    def _open(self, s: Session, account: int, device: Device) -> str:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        s.add(
            SessionRow(
                id=session_hash(token),
                account=account,
                browser=" ".join(device.browser.split())[:BROWSER_LENGTH],
                place=device.place,
            )
        )
        return token

    # ------------------------------------------------------------------ attempt limits

    def _check_attempts(self, key: str, source: str) -> None:
        limit, window = self.attempts
        now = utcnow()
        since = now - dt.timedelta(seconds=window)
        wait = 0.0
        with self.store.reading() as conn:
            for who in (f"name:{key}", f"net:{source}"):
                times = conn.scalars(
                    select(SignInFailureRow.at)
                    .where(SignInFailureRow.who == who, SignInFailureRow.at > since)
                    .order_by(SignInFailureRow.at.desc())
                    .limit(limit)
                ).all()
                if len(times) >= limit:
                    oldest = as_utc(times[limit - 1])
                    assert oldest is not None
                    wait = max(wait, (oldest - since).total_seconds())
        if wait > 0:
            raise TooManyAttempts(max(1, math.ceil(wait)))

    def _fail(self, key: str, source: str) -> None:
        now = utcnow()
        with self.store.writing() as s:
            s.add_all(
                [SignInFailureRow(who=f"name:{key}", at=now),
                 SignInFailureRow(who=f"net:{source}", at=now)]
            )  # fmt: skip
            old = now - dt.timedelta(seconds=self.attempts[1])
            s.execute(delete(SignInFailureRow).where(SignInFailureRow.at <= old))

    # ------------------------------------------------------------------ each request

    def who(self, token: str | None, player: str | None) -> tuple[Signed | None, bool]:
        """The session that ``token`` opens (None: none, or dead), and whether ``player`` (the
        guest cookie's id) belongs to an account: such a cookie names nobody without a session."""
        if token:
            digest = session_hash(token)
            with self.store.reading() as conn:
                row = conn.execute(
                    select(SessionRow.last_seen, AccountRow.id, AccountRow.name, AccountRow.player)
                    .join(AccountRow, AccountRow.id == SessionRow.account)
                    .where(SessionRow.id == digest)
                ).first()
            if row is not None:
                seen = as_utc(row.last_seen)
                now = utcnow()
                if seen is not None and now - seen < SESSION_IDLE:
                    if now - seen > SEEN_EVERY:
                        with self.store.writing() as s:
                            s.execute(
                                update(SessionRow)
                                .where(SessionRow.id == digest)
                                .values(last_seen=now)
                            )
                    return Signed(row.id, row.name, row.player, digest), False
        if player is None:
            return None, False
        with self.store.reading() as conn:
            owned = conn.execute(select(AccountRow.id).where(AccountRow.player == player)).first()
        return None, owned is not None

    # ------------------------------------------------------------------ sessions

    def sign_out(self, session: str) -> None:
        with self.store.writing() as s:
            s.execute(delete(SessionRow).where(SessionRow.id == session))

    def sign_out_everywhere(self, account: int) -> int:
        with self.store.writing() as s:
            result = s.execute(delete(SessionRow).where(SessionRow.account == account))
        return int(getattr(result, "rowcount", 0) or 0)

    def sessions(self, signed: Signed) -> list[dict[str, Any]]:
        """The account's sessions, most recently seen first; this one is marked."""
        with self.store.reading() as conn:
            rows = conn.execute(
                select(SessionRow)
                .where(SessionRow.account == signed.account)
                .order_by(SessionRow.last_seen.desc(), SessionRow.created.desc())
            ).all()
        return [
            {
                "browser": row.browser,
                "place": row.place,
                "created": _iso(row.created),
                "last_seen": _iso(row.last_seen),
                "current": row.id == signed.session,
            }
            for row in rows
        ]

    def change_password(self, signed: Signed, current: str, new: str, address: str | None) -> int:
        """A new password after the current one is given again (a wrong one counts as a failed
        sign-in); every other session of the account ends. The number ended."""
        key = name_key(signed.name)
        source = attempt_source(address)
        self._check_attempts(key, source)
        with self.store.reading() as conn:
            digest = conn.scalar(select(AccountRow.password).where(AccountRow.id == signed.account))
        if digest is None or not self._verify(digest, current):
            self._fail(key, source)
            raise Unauthorized("the current password is wrong", code="bad_credentials")
        check_password(new, signed.name)
        with self.store.writing() as s:
            s.execute(
                update(AccountRow)
                .where(AccountRow.id == signed.account)
                .values(password=self.hasher.hash(new))
            )
            result = s.execute(
                delete(SessionRow).where(
                    SessionRow.account == signed.account, SessionRow.id != signed.session
                )
            )
        return int(getattr(result, "rowcount", 0) or 0)

    def count_sessions(self, account: int) -> int:
        with self.store.reading() as conn:
            n = conn.scalar(
                select(func.count()).select_from(SessionRow).where(SessionRow.account == account)
            )
        return int(n or 0)


def _merge(s: Session, guest: str, player: str) -> None:
    """The device's guest matches become the account's: each match the guest created or sits at,
    unless the account sits at it too (one person holds one seat of a table): those stay the
    guest's, and the device finds them again when it signs out."""
    both = (
        select(SeatRow.match_id)
        .where(SeatRow.player == player)
        .intersect(select(SeatRow.match_id).where(SeatRow.player == guest))
    )
    clash = set(s.scalars(both).all())
    # A series is played once per person: the guest's entries (their matches and results) go
    # to the account, but not one of a series the account played too (docs/duplicate.md).
    played = select(EntryRow.series_id).where(EntryRow.player == player)
    kept = select(EntryRow.match_id).where(EntryRow.player == guest, EntryRow.series_id.in_(played))
    clash |= set(s.scalars(kept).all())
    for rows in (ResultRow, EntryRow):
        s.execute(
            update(rows)
            .where(rows.player == guest, rows.series_id.not_in(played))
            .values(player=player)
        )
    moved = update(MatchRow).where(MatchRow.owner == guest)
    seats = update(SeatRow).where(SeatRow.player == guest)
    if clash:
        moved = moved.where(MatchRow.id.not_in(clash))
        seats = seats.where(SeatRow.match_id.not_in(clash))
    s.execute(moved.values(owner=player))
    s.execute(seats.values(player=player))


def _iso(t: dt.datetime | None) -> str | None:
    t = as_utc(t)
    return None if t is None else t.isoformat()
