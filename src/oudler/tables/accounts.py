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
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from oudler.tables.games import Conflict, TooManyRequests, Unprocessable, WebError
from oudler.tables.series_rows import EntryRow, ResultRow
from oudler.tables.store import (
    FORMER,
    LEFT,
    NAME_LENGTH,
    AccountRow,
    ActionRow,
    AnalysisRow,
    HintRow,
    MatchRow,
    PlayerRow,
    SeatRow,
    SessionRow,
    SignInFailureRow,
    Store,
    as_utc,
    name_key,
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
        attempt = self._attempt(key, attempt_source(device.address))
        with self.store.reading() as conn:
            row = conn.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.player, AccountRow.password)
                .where(AccountRow.key == key)
            ).first()  # fmt: skip
        ok = self._verify(self._dummy if row is None else row.password, password)
        if row is None or not ok:  # the failure is recorded already
            raise Unauthorized("the name or the password is wrong", code="bad_credentials")
        with self.store.writing() as s:
            s.execute(delete(SignInFailureRow).where(SignInFailureRow.id.in_(attempt)))
            if self.hasher.check_needs_rehash(row.password):
                s.execute(
                    update(AccountRow)
                    .where(AccountRow.id == row.id)
                    .values(password=self.hasher.hash(password))
                )
            token = self.enter(s, row.id, row.player, row.name, device, guest)
        return Signed(row.id, row.name, row.player, session_hash(token)), token

    def enter(
        self, s: Session, account: int, player: str, name: str, device: Device, guest: str | None
    ) -> str:
        """What every sign-in does once the person is known (password, passkey or device link):
        the table name is the account's ``name`` (one set through /api/me before it was refused
        to signed-in people is put right here), the device's own guest matches move to the
        account, and a new session opens; its token."""
        s.execute(update(PlayerRow).where(PlayerRow.id == player).values(name=name))
        if guest is not None and guest != player:
            _merge(s, guest, player)
        return self._open(s, account, device)

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

    def _attempt(self, key: str | None, source: str) -> list[int]:
        """``attempt`` against the name (``key``; None: not known yet, as for a passkey not
        yet looked up) and the address."""
        return self.attempt(*_whos(key, source))

    def attempt(self, *whos: str) -> list[int]:
        """Count the failures against each of ``whos`` ("name:<key>", "net:<source>") and record
        this attempt as one, in one transaction under their locks (``Store.locked``), before
        anything is checked: of requests made at the same moment, at most the limit get past,
        whatever their number (counted first and recorded after the check, each saw the count
        before the others' failures). ``TooManyAttempts`` past the limit; else the ids of the
        rows recorded, which ``forgive`` deletes when the attempt succeeded."""
        limit, window = self.attempts
        now = utcnow()
        since = now - dt.timedelta(seconds=window)
        wait = 0.0
        with self.store.locked(whos) as conn:
            conn.execute(delete(SignInFailureRow).where(SignInFailureRow.at <= since))
            for who in whos:
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
            ids: list[int] = []
            for who in whos:
                made = conn.execute(insert(SignInFailureRow).values(who=who, at=now))
                key_of_row = made.inserted_primary_key
                assert key_of_row is not None
                ids.append(int(key_of_row[0]))
        return ids

    def forgive(self, ids: list[int]) -> None:
        """The attempt succeeded: it no longer counts as a failure."""
        with self.store.writing() as s:
            s.execute(delete(SignInFailureRow).where(SignInFailureRow.id.in_(ids)))

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
            owned = conn.execute(
                select(AccountRow.id, PlayerRow.name)
                .select_from(PlayerRow)
                .outerjoin(AccountRow, AccountRow.player == PlayerRow.id)
                .where(PlayerRow.id == player)
            ).first()
        # A deleted account's id names nobody either: its old guest cookie is a new guest.
        return None, owned is not None and (owned.id is not None or owned.name == FORMER)

    # ------------------------------------------------------------------ sessions

    def alive(self, session: str) -> bool:
        """Whether the session (its hash) still exists: a live socket opened under it asks
        now and then, and closes once it was signed out (everywhere) or its account deleted."""
        with self.store.reading() as conn:
            found = conn.execute(select(SessionRow.id).where(SessionRow.id == session)).first()
        return found is not None

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

    def recheck(self, signed: Signed, password: str, address: str | None) -> None:
        """The signed-in person gives their password again (to change it, to delete the
        account): ``bad_credentials`` if wrong, counted as a failed sign-in (429 likewise)."""
        attempt = self._attempt(name_key(signed.name), attempt_source(address))
        with self.store.reading() as conn:
            digest = conn.scalar(select(AccountRow.password).where(AccountRow.id == signed.account))
        if digest is None or not self._verify(digest, password):
            raise Unauthorized("the current password is wrong", code="bad_credentials")
        self.forgive(attempt)

    def change_password(self, signed: Signed, current: str, new: str, address: str | None) -> int:
        """A new password after the current one is given again (a wrong one counts as a failed
        sign-in); every other session of the account ends. The number ended."""
        self.recheck(signed, current, address)
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

    def rename(self, signed: Signed, name: str) -> str:
        """A new name for the account, under the rules of a new account's (NFKC, 3 to 24
        characters, not reserved, unique without case; its own name in other case is fine),
        which is also the person's name at every table. The name as shown."""
        shown = clean_account_name(name)
        try:
            with self.store.writing() as s:
                other = s.scalar(
                    select(AccountRow.id).where(
                        AccountRow.key == name_key(shown), AccountRow.id != signed.account
                    )
                )
                if other is not None:
                    raise NameTaken("this name is taken: choose another", code="name_taken")
                s.execute(
                    update(AccountRow)
                    .where(AccountRow.id == signed.account)
                    .values(name=shown, key=name_key(shown))
                )
                s.execute(update(PlayerRow).where(PlayerRow.id == signed.player).values(name=shown))
        except IntegrityError:  # taken at the same moment by another request
            raise NameTaken("this name is taken: choose another", code="name_taken") from None
        return shown

    def profile(self, account: int) -> dict[str, Any] | None:
        """What the data export says of the account: its name and when it was made (never the
        password's hash nor a session)."""
        with self.store.reading() as conn:
            row = conn.execute(
                select(AccountRow.name, AccountRow.created).where(AccountRow.id == account)
            ).first()
        return None if row is None else {"name": row.name, "created": _iso(row.created)}

    def delete(self, account: int) -> tuple[str, list[str]] | None:
        """Delete an account whose person was checked already (a password given again, or a
        passkey): its name, password and sessions go, and any table keyed by account with ON
        DELETE CASCADE. The player id stays in the matches others played with it, named
        ``FORMER`` from then on, and names nobody (``who``). The person's own matches that
        nobody else played (``_solo_matches``) go with it. Answers the player id and the
        matches deleted; None if there was no such account."""
        with self.store.writing() as s:
            row = s.get(AccountRow, account)
            if row is None:
                return None
            player, shown = row.player, row.name
            gone = _solo_matches(s, player)
            if gone:
                for table in (HintRow, AnalysisRow, ActionRow, SeatRow):
                    s.execute(delete(table).where(table.match_id.in_(gone)))
                s.execute(delete(MatchRow).where(MatchRow.id.in_(gone)))
            person = s.get(PlayerRow, player)
            names = {shown} | ({person.name} if person is not None and person.name else set())
            _forget_left_names(s, names)
            if person is not None:
                person.name = FORMER
            # A seat kept for the account would wait for a person who can no longer sign in:
            # anyone with its link may sit there again.
            s.execute(update(SeatRow).where(SeatRow.reserved == player).values(reserved=None))
            s.execute(delete(SessionRow).where(SessionRow.account == account))
            s.delete(row)
        return player, gone

    def count_sessions(self, account: int) -> int:
        with self.store.reading() as conn:
            n = conn.scalar(
                select(func.count()).select_from(SessionRow).where(SessionRow.account == account)
            )
        return int(n or 0)


def _whos(key: str | None, source: str) -> list[str]:
    """Whom a failed sign-in counts against: the name (when known) and the address."""
    return [*([f"name:{key}"] if key is not None else []), f"net:{source}"]


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


def _solo_matches(s: Session, player: str) -> list[str]:
    """The matches of ``player`` that nobody else played: created by them, not part of a
    duplicate series (its results rank others), and with no other person seated, ever (a
    ``LEFT`` row says someone sat and left)."""
    others = select(SeatRow.match_id).where(SeatRow.player.is_not(None), SeatRow.player != player)
    left = select(ActionRow.match_id).where(ActionRow.kind == LEFT)
    series = select(EntryRow.match_id)
    return list(
        s.scalars(
            select(MatchRow.id).where(
                MatchRow.owner == player,
                MatchRow.id.not_in(others),
                MatchRow.id.not_in(left),
                MatchRow.id.not_in(series),
            )
        ).all()
    )


def _forget_left_names(s: Session, names: set[str]) -> None:
    """A seat's ``LEFT`` row keeps the name its person had, and not who they were: the rows
    holding one of the deleted person's names say ``FORMER`` instead (docs/accounts.md: a
    guest who left a seat under the very same name is named so too)."""
    rows = s.execute(select(ActionRow.match_id, ActionRow.seq, ActionRow.action).where(
        ActionRow.kind == LEFT
    )).all()  # fmt: skip
    for match_id, seq, action in rows:
        if isinstance(action, dict) and action.get("name") in names:
            s.execute(
                update(ActionRow)
                .where(ActionRow.match_id == match_id, ActionRow.seq == seq)
                .values(action={**action, "name": FORMER})
            )


def _iso(t: dt.datetime | None) -> str | None:
    t = as_utc(t)
    return None if t is None else t.isoformat()
