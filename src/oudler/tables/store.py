"""The web table's database: players, matches and an append-only log of actions.

A match's state is never stored as such: it is rebuilt by replaying its actions through the engine
(``oudler.tables.games``). Rows are only ever inserted, apart from a match's ``finished`` and
``totals`` columns, which are set in the same transaction as the action that ends the match, and
its ``learning`` switch, which the person turns on and off (``oudler.tables.coaching``).

A match's ``version`` (what the browser sees) counts steps, not rows: a computer player's poignée
decision is stored as its own row, in the same transaction as the first card it plays, and is not
counted (``counts_in_version``). Being asked about a poignée proves 10+ trumps (RULES.md §11).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import secrets
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ColumnElement,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    Select,
    String,
    UniqueConstraint,
    and_,
    bindparam,
    create_engine,
    event,
    false,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

PLAYER_KEY = "player-id-key"
# SQLite connections of one process: one per request thread (Starlette runs up to 40), so that
# no request waits for a connection; they cost a file handle each.
SQLITE_POOL = 40
PERSON = 0  # the creator's seat; at a table for one person, seats 1-3 are computer players
SOLO_PEOPLE = frozenset({PERSON})
POIGNEE = "poignee"
READY = "ready"  # a person closed a finished deal's breakdown (a table with people): no step
# A person's seat was vacated (they left, or the creator freed it), ``{"name": ...}`` the name
# they had: the seat's actions before it were theirs (``Game.left``). No step.
LEFT = "left"
NOT_STEPS = (READY, LEFT)
OPEN = ""  # a seat kept for a person who has not sat yet (``MatchInfo.players``)
NAME_LENGTH = 24  # characters of a person's name
PASSKEY_NAME_LENGTH = 40  # characters of a passkey's name ("Phone", "Work laptop")


def name_key(name: str) -> str:
    """What makes two account names the same: NFKC, then without case."""
    return unicodedata.normalize("NFKC", name).casefold()


# The name of a deleted account's player id (docs/accounts.md, "Your data"): a neutral marker
# that each page says in its language ("a former player"). A control character, so that no
# chosen name (``clean_name``, ``clean_account_name``) can ever be it.
FORMER = "\x1fformer"


def shown_name(name: str | None) -> dict[str, Any]:
    """A person's name as the API gives it: ``{"name": ...}``, or for a deleted account's
    ``{"name": None, "former": True}`` (the page words it)."""
    if name == FORMER:
        return {"name": None, "former": True}
    return {"name": name}


def counts_in_version(seat: int | None, kind: str, people: frozenset[int] = SOLO_PEOPLE) -> bool:
    """Whether a stored row is a step of its own in the match's version. A poignée answer is
    not, unless nobody else can see the version: a computer player's belongs to the step that
    plays its first card, and so does a person's at a table with people (the others see the
    same version, and the same turn deadline, whether or not that seat was asked). Its SQL twin
    is in ``list_statement``. ``people``: the seats whose answer is a step of its own
    (``poignee_steps``). A person's ``READY`` (they closed the breakdown of a finished deal)
    is no step either: nothing of the match changes until the next deal; nor is a ``LEFT``."""
    return kind not in NOT_STEPS and (kind != POIGNEE or seat in people)


def poignee_steps(shared: bool) -> frozenset[int]:
    """The seats whose poignée answer moves the version on: the person of a table for one
    (nobody else is there to learn of it), nobody at a table with people."""
    return frozenset() if shared else SOLO_PEOPLE


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def as_utc(t: dt.datetime | None) -> dt.datetime | None:
    """A stored time, which SQLite gives back without its zone (every stored time is UTC)."""
    if t is None or t.tzinfo is not None:
        return t
    return t.replace(tzinfo=dt.UTC)


class Base(DeclarativeBase):
    pass


class PlayerRow(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The name a person chose, shown to the others at a table with friends (no accounts).
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH), default=None)


class SettingRow(Base):
    """Values shared by every server process on the database, such as the player id key."""

    __tablename__ = "settings"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchRow(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    length: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(16))
    seed: Mapped[int] = mapped_column(BigInteger)
    # "Replay this deal": the first deal's dealer and seed, when they do not come from ``seed``.
    first_dealer: Mapped[int | None] = mapped_column(Integer, default=None)
    first_deal_seed: Mapped[int | None] = mapped_column(BigInteger, default=None)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # The final totals, kept so that the list of matches needs no replay.
    totals: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    # Learning mode (hints, undo, analysis).
    learning: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # A table with its own seats (``SeatRow``): people beside the creator, or seats kept open.
    # False: the creator at seat 0 and computer players at 1-3, with no seat rows.
    shared: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Seconds a person of a shared table has for each action before a computer player of the
    # table's level acts for them (that once); None: no limit.
    turn_time: Mapped[int | None] = mapped_column(Integer, default=None)


class SeatRow(Base):
    """A seat of a shared table (``MatchRow.shared``): who sits there (a person's player id), or
    a computer player, or nobody yet (open: ``invite`` is the hash of the token that seats a
    person). A person holds at most one seat of a table."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("match_id", "player"),)

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None, index=True)
    computer: Mapped[bool] = mapped_column(Boolean, default=False)
    # SHA-256 of the invitation's token (hex): the token itself is never stored.
    invite: Mapped[str | None] = mapped_column(String(64), unique=True, default=None)
    joined: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # An open seat kept for an account (its player id): only that account, signed in, sits
    # there by the invitation. None: anyone with the link.
    reserved: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)


class HintRow(Base):
    """A hint asked for, once per decision: the decision is the match's action number ``seq``
    (the stored actions before it), so asking twice or reloading reads this row back. The same
    position met again after an undo (``position``: ``coach.position_key`` of the person's
    observation) is answered with the hint given there, stored again at its new ``seq``."""

    __tablename__ = "hints"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal: Mapped[int] = mapped_column(Integer)  # deal number, from 1
    hint: Mapped[Any] = mapped_column(JSON)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    position: Mapped[str | None] = mapped_column(String(32), default=None)


class AnalysisRow(Base):
    """The coach's analysis of the person's decisions in one finished deal."""

    __tablename__ = "analyses"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)  # deal number, from 1
    analysis: Mapped[Any] = mapped_column(JSON)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ActionRow(Base):
    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0, 1, 2... per match
    seat: Mapped[int | None] = mapped_column(Integer)  # None for "next deal"
    kind: Mapped[str] = mapped_column(String(16))  # bid, discard, chelem, poignee, card, next_deal
    action: Mapped[Any] = mapped_column(JSON)  # in notation (spec/notation.md)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Taken by a computer player for a person whose turn time ran out (``Tables.stand_in``).
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


# ---------------------------------------------------------------------------------- accounts
# (issue 29; the logic is ``oudler.tables.accounts``, the choices docs/accounts.md)


class AccountRow(Base):
    """A person's account. It owns the player id of the guest it was made from (``player``): the
    matches, seats, hints and analyses keyed by that id are the account's, nothing copied."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))  # as the person wrote it
    key: Mapped[str] = mapped_column(String(96), unique=True)  # NFKC, casefolded: unique
    player: Mapped[str] = mapped_column(ForeignKey("players.id"), unique=True)
    password: Mapped[str] = mapped_column(String(256))  # argon2id, in PHC form
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SessionRow(Base):
    """A signed-in device. ``id`` is the SHA-256 (hex) of the cookie's token, never the token."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    browser: Mapped[str] = mapped_column(String(160), default="")  # user agent, trimmed
    place: Mapped[str] = mapped_column(String(64), default="")  # the address's network only


class SignInFailureRow(Base):
    """A failed sign-in, counted per account name (``who`` = "name:" + key) and per address
    (``who`` = "net:" + network), in the database so that every web process shares them."""

    __tablename__ = "sign_in_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    who: Mapped[str] = mapped_column(String(112), index=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) of an account: its public key, never a secret. Goes with
    its account (ON DELETE CASCADE)."""

    __tablename__ = "passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    credential: Mapped[str] = mapped_column(String(1400), unique=True)  # its id, base64url
    public_key: Mapped[bytes] = mapped_column(LargeBinary)  # COSE, as the authenticator gave it
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)  # an unsigned 32-bit counter
    user_handle: Mapped[str] = mapped_column(String(88))  # base64url, the same per account
    account: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(PASSKEY_NAME_LENGTH))
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PasskeyChallengeRow(Base):
    """A WebAuthn challenge handed out: ``id`` is the SHA-256 (hex) of its bytes. Single use
    (``used``), short-lived (``expires``); rows, so that any web process can check them."""

    __tablename__ = "passkey_challenges"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(8))  # "add" or "sign_in"
    account: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True
    )  # whose passkey is being added
    expires: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    used: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class DeviceLinkRow(Base):
    """A one-time "link a device" code and its link (docs/accounts.md, "Link a device"): only the
    SHA-256 (hex) of each is stored. Ends with the account, and with the session that asked for
    it (a device signed out can no longer vouch for a new one)."""

    __tablename__ = "device_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    session: Mapped[str] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(64), unique=True)  # SHA-256 of the typed code
    token: Mapped[str] = mapped_column(String(64), unique=True)  # SHA-256 of the link's token
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    used: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Statements:
    """The statements of every request, built once: building one (columns, operators,
    functions) cost several times what running it does, up to 130 us of a 180 us read."""

    _last = (
        select(func.max(ActionRow.seq))
        .where(ActionRow.match_id == bindparam("match_id"))
        .scalar_subquery()
        .label("last_seq")
    )
    state = select(MatchRow.__table__, _last).where(MatchRow.id == bindparam("match_id"))
    actions = (
        select(
            ActionRow.seq,
            ActionRow.seat,
            ActionRow.kind,
            ActionRow.action,
            ActionRow.created,
            ActionRow.stand_in,
        )
        .where(ActionRow.match_id == bindparam("match_id"), ActionRow.seq >= bindparam("start"))
        .order_by(ActionRow.seq)
    )
    seats = (
        select(
            SeatRow.seat,
            SeatRow.player,
            SeatRow.computer,
            SeatRow.joined,
            SeatRow.invite.is_not(None).label("invited"),  # never the hash itself
            PlayerRow.name,
            SeatRow.reserved,
            AccountRow.name.label("reserved_name"),
        )
        .outerjoin(PlayerRow, PlayerRow.id == SeatRow.player)
        .outerjoin(AccountRow, AccountRow.player == SeatRow.reserved)
        .where(SeatRow.match_id == bindparam("match_id"))
        .order_by(SeatRow.seat)
    )
    ends = (
        select(ActionRow.match_id, func.max(ActionRow.seq) + 1)
        .where(ActionRow.match_id.in_(bindparam("match_ids", expanding=True)))
        .group_by(ActionRow.match_id)
    )
    insert_actions = insert(ActionRow)
    finish = (
        update(MatchRow)
        .where(MatchRow.id == bindparam("match_id"))
        .values(finished=bindparam("finished"), totals=bindparam("totals"))
    )


@dataclass(frozen=True)
class MatchInfo:
    """A match row, detached from its session."""

    id: str
    owner: str
    length: int
    level: str
    seed: int
    first_dealer: int | None
    first_deal_seed: int | None
    created: dt.datetime
    finished: dt.datetime | None
    totals: list[int] | None
    learning: bool = False
    # Who sits where: a person's player id, None for a computer player, ``OPEN`` for a seat
    # kept for a person not yet seated. None: the creator at seat 0, computer players at 1-3.
    seats: tuple[str | None, ...] | None = None
    names: tuple[str | None, ...] = (None, None, None, None)  # the people's chosen names
    turn_time: int | None = None  # seconds per action of a person (``MatchRow.turn_time``)
    # When each seat was taken (None: never, or a computer player from the start). An open
    # seat with a time is one a person left.
    joined: tuple[dt.datetime | None, ...] = (None, None, None, None)
    invited: frozenset[int] = frozenset()  # seats with a working invitation link
    # Per seat, the player id of the account an open seat is kept for, and that account's name.
    reserved: tuple[str | None, ...] = (None, None, None, None)
    reserved_names: tuple[str | None, ...] = (None, None, None, None)

    @property
    def players(self) -> tuple[str | None, ...]:
        """Per seat: the player id of the person there, None for a computer player, ``OPEN``."""
        return self.seats if self.seats is not None else (self.owner, None, None, None)

    @property
    def shared(self) -> bool:
        return self.seats is not None

    def seat_of(self, player: str) -> int | None:
        """The seat where ``player`` sits (None if they do not sit at this table)."""
        for seat, who in enumerate(self.players):
            if who == player:
                return seat
        return None

    @property
    def people(self) -> frozenset[int]:
        """The seats of people (open ones included: a person will sit there)."""
        return frozenset(s for s, who in enumerate(self.players) if who is not None)

    @property
    def full(self) -> bool:
        """Every seat taken: the table may start."""
        return OPEN not in self.players

    @property
    def started(self) -> dt.datetime | None:
        """When the last seat was taken (the table started, or went on after a seat was
        filled again): None for a table for one or one still waiting."""
        times = [t for t in self.joined if t is not None]
        return max(times) if self.shared and self.full and times else None

    @property
    def left(self) -> frozenset[int]:
        """Open seats that a person left, for which the creator has not chosen yet (a new
        invitation, or a computer player)."""
        return frozenset(
            s
            for s, who in enumerate(self.players)
            if who == OPEN and self.joined[s] is not None and s not in self.invited
        )

    @classmethod
    def of_columns(cls, row: Any, seats: Sequence[Any] | None = None) -> MatchInfo:
        """From a row of the ``matches`` table, read without the ORM (``Store.match_state``) or
        with it."""
        return cls(
            id=row.id,
            owner=row.owner,
            length=row.length,
            level=row.level,
            seed=row.seed,
            first_dealer=row.first_dealer,
            first_deal_seed=row.first_deal_seed,
            created=row.created,
            finished=row.finished,
            totals=None if row.totals is None else list(row.totals),
            learning=bool(row.learning),
            seats=None if seats is None else seats_of(seats),
            names=names_of(seats),
            turn_time=getattr(row, "turn_time", None),
            joined=joined_of(seats),
            invited=frozenset(r.seat for r in seats or () if getattr(r, "invited", False)),
            reserved=by_seat(seats, "reserved"),
            reserved_names=by_seat(seats, "reserved_name"),
        )

    @classmethod
    def of(cls, row: MatchRow, seats: Sequence[Any] | None = None) -> MatchInfo:
        """From an ORM row (its attributes have the columns' names)."""
        return cls.of_columns(row, seats)


def names_of(rows: Sequence[Any] | None) -> tuple[str | None, ...]:
    """The names of the people seated, by seat, from seat rows read with them."""
    out: list[str | None] = [None] * 4
    for row in rows or ():
        out[row.seat] = getattr(row, "name", None) if row.player else None
    return tuple(out)


def by_seat(rows: Sequence[Any] | None, column: str) -> tuple[Any, ...]:
    """A column of the seat rows, by seat (None where the rows were read without it)."""
    out: list[Any] = [None] * 4
    for row in rows or ():
        out[row.seat] = getattr(row, column, None)
    return tuple(out)


def joined_of(rows: Sequence[Any] | None) -> tuple[dt.datetime | None, ...]:
    """When each seat was taken, by seat, from seat rows read with their ``joined`` column (UTC:
    SQLite gives naive times back)."""
    out: list[dt.datetime | None] = [None] * 4
    for row in rows or ():
        t = getattr(row, "joined", None)
        out[row.seat] = as_utc(t)
    return tuple(out)


def seats_of(rows: Sequence[Any]) -> tuple[str | None, ...]:
    """``MatchInfo.seats`` from a shared table's seat rows (seat, player, computer)."""
    out: list[str | None] = [OPEN] * 4
    for row in rows:
        out[row.seat] = None if row.computer else (row.player or OPEN)
    return tuple(out)


@dataclass(frozen=True)
class StoredAction:
    seq: int
    seat: int | None
    kind: str
    action: Any
    created: dt.datetime | None = None  # when it was stored (UTC), for the turn clock
    stand_in: bool = False  # taken by a computer player for a person out of time


class DuplicateActionError(Exception):
    """Another writer stored an action with the same sequence number first."""


@dataclass
class _Append:
    """One call of ``Store.append_actions``, waiting to be committed (alone or in a batch)."""

    match_id: str
    seq: int
    rows: list[tuple[int | None, str, Any]]
    finished_totals: Sequence[int] | None
    stand_in: bool = False
    done: bool = False
    error: BaseException | None = None
    created: dt.datetime | None = None  # the rows' time, once inserted


def _append_error(append: _Append, error: BaseException) -> BaseException:
    """What the caller of ``append_actions`` is told: a key collision means another writer
    stored that action first."""
    from sqlalchemy.exc import IntegrityError

    if isinstance(error, IntegrityError):
        duplicate = DuplicateActionError(
            f"action {append.seq} of match {append.match_id} already exists"
        )
        duplicate.__cause__ = error
        return duplicate
    return error


def make_engine(database_url: str) -> Engine:
    # SQL parameters and result rows hold actions, and a discard is secret: keep them out of logs
    # and error messages, even when the root logger is set to DEBUG.
    sql_log = logging.getLogger("sqlalchemy.engine")
    if sql_log.level == logging.NOTSET:
        sql_log.setLevel(logging.WARNING)
    if database_url.startswith("sqlite"):
        in_memory = database_url in ("sqlite://", "sqlite:///:memory:") or "mode=memory" in (
            database_url
        )
        pool: dict[str, Any] = (
            {"poolclass": StaticPool}
            if in_memory
            else {"pool_size": SQLITE_POOL, "max_overflow": 10}
        )
        engine = create_engine(
            database_url,
            # Requests run in a thread pool; each connection is used by one thread at a time.
            connect_args={"check_same_thread": False, "timeout": 30},
            hide_parameters=True,
            **pool,
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            if not in_memory:
                _wal(cur)
            # A commit is on disk before the answer is sent.
            cur.execute("PRAGMA synchronous=FULL")
            cur.close()

        return engine
    return create_engine(database_url, pool_pre_ping=True, hide_parameters=True)


def _wal(cur: Any, tries: int = 100) -> None:
    """Put a SQLite file in WAL mode. Changing the mode needs the whole file, and SQLite
    answers "database is locked" at once, without its busy timeout, when another process's
    connection holds it meanwhile (processes started together on a new file): look again a
    little later. A file in WAL mode already needs no change."""
    for attempt in range(tries):
        try:
            if cur.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                return
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or attempt == tries - 1:
                raise
            time.sleep(0.05)


class DatabaseUnavailable(Exception):
    """The database cannot be used safely (answered 503; nothing was changed)."""


def sqlite_file(database_url: str) -> Path | None:
    """The file of a SQLite database URL (None for another database or one in memory)."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    if url.query.get("mode") == "memory" or url.database.startswith("file:"):
        return None
    return Path(url.database).absolute()


def update_open_seat(
    s: Session, match_id: str, seat: int, *also: ColumnElement[bool], **values: Any
) -> bool:
    """Set ``values`` on the seat if it is still open (no person, no computer player) and meets
    ``also``, in one conditional update, so that of two writers racing for it one wins: whether
    this one did."""
    done = s.execute(
        update(SeatRow)
        .where(
            SeatRow.match_id == match_id,
            SeatRow.seat == seat,
            SeatRow.player.is_(None),
            SeatRow.computer == false(),
            *also,
        )
        .values(**values)
    )
    return bool(done.rowcount == 1)  # type: ignore[attr-defined]


def list_statement(owner: str, limit: int | None) -> Select[MatchRow, int]:
    # Counted per match, through the primary key (match_id, seq): only the player's own
    # matches' rows are read, however large the actions table grows.
    steps = (
        select(func.count())
        .where(
            ActionRow.match_id == MatchRow.id,
            ActionRow.kind.not_in(NOT_STEPS),
            or_(
                ActionRow.kind != POIGNEE,
                and_(MatchRow.shared == false(), ActionRow.seat == PERSON),
            ),
        )
        .correlate(MatchRow)
        .scalar_subquery()
    )
    seated = select(SeatRow.match_id).where(SeatRow.player == owner)
    stmt = (
        select(MatchRow, steps)
        .where(or_(MatchRow.owner == owner, MatchRow.id.in_(seated)))
        .order_by(MatchRow.created.desc(), MatchRow.id)
        .limit(limit)
    )
    return stmt


class Store:
    """Every database access of the web table."""

    def __init__(self, database_url: str) -> None:
        self.engine = make_engine(database_url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._file = sqlite_file(database_url)
        self._file_id: tuple[int, int] | None = None
        # SQLite takes one writer at a time. Without this lock the process's request threads
        # collide in SQLite's busy handler, which sleeps 1, 2, 5, 10, 15, 20, 25... ms between
        # tries: under load a write waited tens of milliseconds for a lock held for one.
        self._write_lock = (
            threading.Lock() if make_url(database_url).get_backend_name() == "sqlite" else None
        )
        self._pending: list[_Append] = []  # appends waiting for the next SQLite commit
        self._pending_lock = threading.Lock()

    def create_schema(self) -> None:
        """Bring the database to this release's schema: apply the migrations
        (``oudler.tables.migrate``; under a lock, so that processes may start together)."""
        from oudler.tables import migrate

        migrate.upgrade(self.engine)
        if self._file is not None:
            st = self._file.stat()
            self._file_id = (st.st_dev, st.st_ino)

    def close(self) -> None:
        self.engine.dispose()

    def session(self) -> Session:
        self._check_file()
        return self._sessions()

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """A write transaction, committed on leaving (rolled back on an exception). On SQLite the
        process's writers take turns here (see ``_write_lock``); other processes on the same
        file still meet SQLite's own lock."""
        with self._write_lock or nullcontext(), self.session() as s, s.begin():
            yield s

    def _check_file(self) -> None:
        """A SQLite file deleted or replaced while serving would go on taking writes through the
        open connections, into a file nobody will ever read: refuse instead."""
        if self._file_id is None or self._file is None:
            return
        try:
            st = self._file.stat()
        except FileNotFoundError:
            st = None
        if st is None or (st.st_dev, st.st_ino) != self._file_id:
            raise DatabaseUnavailable(
                f"the database file {self._file} was removed or replaced while the server was "
                "running; restore it and restart the server"
            )

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection for a read, without the ORM: a request's reads take a few statements,
        and an ORM session around each cost about 7 times the statement itself (SQLite)."""
        self._check_file()
        with self.engine.connect() as conn:
            yield conn

    @contextmanager
    def locked(self, keys: Sequence[str]) -> Iterator[Connection]:
        """A write transaction that holds a lock on each of ``keys`` from its first statement
        to its commit, in every process on the database: a count read in it cannot change
        before its writes are committed. PostgreSQL: a transaction-scoped advisory lock per
        key (taken in one order, so two such transactions never wait for each other in a
        circle). SQLite: ``BEGIN IMMEDIATE``, the database's write lock, at once (a deferred
        transaction would read first and take it only at its first write)."""
        self._check_file()
        if self._write_lock is not None:
            with self._write_lock, self.engine.connect() as conn:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                try:
                    yield conn
                except BaseException:
                    conn.rollback()
                    raise
                conn.commit()
            return
        with self.engine.begin() as conn:
            for key in sorted(set(keys)):
                number = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], signed=True)
                conn.execute(select(func.pg_advisory_xact_lock(number)))
            yield conn

    def ping(self) -> None:
        """Raises if the database cannot be reached (``/healthz``)."""
        with self.session() as s:
            s.execute(select(1))

    # ------------------------------------------------------------------ settings

    def player_key(self) -> tuple[str, dt.datetime]:
        """The key that signs player ids, made once and shared by every process on the
        database, and when it was made."""
        from sqlalchemy.exc import IntegrityError

        for _ in range(2):
            with self.session() as s:
                row = s.get(SettingRow, PLAYER_KEY)
                if row is not None:
                    return row.value, row.created
            try:
                with self.writing() as s:
                    s.add(
                        SettingRow(name=PLAYER_KEY, value=secrets.token_hex(32), created=utcnow())
                    )
            except IntegrityError:
                pass  # another process made it first: read theirs
        raise DatabaseUnavailable("the player id key could not be stored")

    def legacy_player(self, player_id: str, before: dt.datetime) -> bool:
        """Whether an unsigned player id was in the database before ids were signed."""
        stmt = select(PlayerRow.id).where(PlayerRow.id == player_id, PlayerRow.created < before)
        with self.session() as s:
            return s.execute(stmt).first() is not None

    # ------------------------------------------------------------------ players

    def player_name(self, player_id: str) -> str | None:
        with self.reading() as conn:
            row = conn.execute(select(PlayerRow.name).where(PlayerRow.id == player_id)).first()
        return None if row is None else row.name

    def set_player_name(self, player_id: str, name: str) -> None:
        with self.writing() as s:
            row = s.get(PlayerRow, player_id)
            if row is None:
                s.add(PlayerRow(id=player_id, name=name))
            else:
                row.name = name

    def ensure_player(self, player_id: str) -> None:
        with self.writing() as s:
            if s.get(PlayerRow, player_id) is None:
                s.add(PlayerRow(id=player_id))

    # ------------------------------------------------------------------ matches

    def create_match(
        self,
        *,
        match_id: str,
        owner: str,
        length: int,
        level: str,
        seed: int,
        first_dealer: int | None = None,
        first_deal_seed: int | None = None,
        learning: bool = False,
        seats: Sequence[str | None] | None = None,
        invites: dict[int, str] | None = None,
        turn_time: int | None = None,
        reserved: dict[int, str] | None = None,
    ) -> MatchInfo:
        """``seats`` (a shared table): per seat a person's player id, None for a computer player
        or ``OPEN``; ``invites``: the hash of each open seat's invitation token; ``reserved``:
        the player id of the account each of some open seats is kept for."""
        with self.writing() as s:
            if s.get(PlayerRow, owner) is None:
                s.add(PlayerRow(id=owner))
                s.flush()
            row = MatchRow(
                id=match_id,
                owner=owner,
                length=length,
                level=level,
                seed=seed,
                first_dealer=first_dealer,
                first_deal_seed=first_deal_seed,
                created=utcnow(),
                learning=learning,
                shared=seats is not None,
                turn_time=turn_time,
            )
            s.add(row)
            s.flush()
            if seats is None:
                return MatchInfo.of(row)
            rows = [
                SeatRow(
                    match_id=match_id,
                    seat=seat,
                    player=who or None,
                    computer=who is None,
                    invite=(invites or {}).get(seat),
                    joined=utcnow() if who else None,
                    reserved=(reserved or {}).get(seat),
                )
                for seat, who in enumerate(seats)
            ]
            s.add_all(rows)
            s.flush()
            return MatchInfo.of(row, rows)

    def invite(self, invite_hash: str) -> tuple[str, int] | None:
        """The (match, seat) an invitation is for, or None for an unknown one."""
        stmt = select(SeatRow.match_id, SeatRow.seat).where(SeatRow.invite == invite_hash)
        with self.reading() as conn:
            row = conn.execute(stmt).first()
        return None if row is None else (row.match_id, row.seat)

    def account_player(self, name: str) -> tuple[str, str] | None:
        """The player id and the name of the account called ``name`` (compared by
        ``name_key``), or None."""
        stmt = select(AccountRow.player, AccountRow.name).where(AccountRow.key == name_key(name))
        with self.reading() as conn:
            row = conn.execute(stmt).first()
        return None if row is None else (row.player, row.name)

    def take_seat(self, match_id: str, seat: int, player: str) -> str:
        """Seat ``player`` at an open seat: ``"seated"``, or why not: ``"taken"`` (someone, or
        a computer player, sat first), ``"already_seated"`` (they hold another seat there),
        ``"reserved"`` (the seat is kept for another account). One conditional update: of two
        people racing for a seat, one sits."""
        from sqlalchemy.exc import IntegrityError

        try:
            with self.writing() as s:
                if s.get(PlayerRow, player) is None:
                    s.add(PlayerRow(id=player))
                    s.flush()
                there = s.execute(
                    select(SeatRow.seat).where(
                        SeatRow.match_id == match_id, SeatRow.player == player
                    )
                ).first()
                if there is not None:
                    return "already_seated"
                kept = s.execute(
                    select(SeatRow.reserved).where(
                        SeatRow.match_id == match_id, SeatRow.seat == seat
                    )
                ).first()
                if kept is not None and kept.reserved not in (None, player):
                    return "reserved"
                # The reservation is in the update's condition too: one changed meanwhile (by
                # another process) leaves the seat open.
                seated = update_open_seat(
                    s,
                    match_id,
                    seat,
                    or_(SeatRow.reserved.is_(None), SeatRow.reserved == player),
                    player=player,
                    joined=utcnow(),
                )
                return "seated" if seated else "taken"
        except IntegrityError:  # the same person sat at another seat at the same moment
            return "already_seated"

    def seat_computer(self, match_id: str, seat: int) -> bool:
        """Give an open seat to a computer player; False if it is no longer open."""
        with self.writing() as s:
            return update_open_seat(s, match_id, seat, computer=True, joined=utcnow())

    def leave_seat(
        self, match_id: str, seat: int, player: str, seq: int | None = None, name: str | None = None
    ) -> bool:
        """The person at ``seat`` leaves: the seat is open again, without an invitation until
        the creator makes one (its ``joined`` time stays: ``MatchInfo.left``). False if they
        no longer sat there. With ``seq`` (the end of the match's log), a ``LEFT`` row holding
        their ``name`` is stored as that action in the same transaction, so that the seat's
        earlier actions stay theirs; ``DuplicateActionError`` (and nothing changed) if the log
        is no longer there."""
        from sqlalchemy.exc import IntegrityError

        try:
            with self.writing() as s:
                done = s.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.match_id == match_id,
                        SeatRow.seat == seat,
                        SeatRow.player == player,
                    )
                    .values(player=None, invite=None, reserved=None)
                )
                if done.rowcount != 1:  # type: ignore[attr-defined]
                    return False
                if seq is not None:
                    row = {"seat": seat, "kind": LEFT, "action": {"name": name}}
                    s.execute(
                        Statements.insert_actions,
                        [{"match_id": match_id, "seq": seq, "created": utcnow(), **row}],
                    )
                return True
        except IntegrityError:  # another process stored action ``seq`` first
            raise DuplicateActionError(f"action {seq} of match {match_id} already exists") from None

    def reinvite(self, match_id: str, seat: int, invite_hash: str) -> bool:
        """A new invitation (its token's hash) for a seat still open; the previous one, if any,
        no longer seats anyone. False if the seat is not open."""
        with self.writing() as s:
            return update_open_seat(s, match_id, seat, invite=invite_hash)

    def reserve_seat(self, match_id: str, seat: int, player: str | None) -> bool:
        """Keep an open seat for the account whose player id is ``player`` (None: for anyone
        with the link again). False if the seat is not open."""
        with self.writing() as s:
            return update_open_seat(s, match_id, seat, reserved=player)

    def matches_created_since(self, owner: str, since: dt.datetime) -> int:
        stmt = select(func.count()).where(MatchRow.owner == owner, MatchRow.created >= since)
        with self.session() as s:
            return int(s.execute(stmt).scalar_one())

    def get_match(self, match_id: str) -> MatchInfo | None:
        info, _ = self.match_state(match_id)
        return info

    def match_state(self, match_id: str) -> tuple[MatchInfo | None, int]:
        """The match's row (None if there is no such match) and how many actions it has stored,
        in one statement: what every request reads to know that its copy of the match is
        current (see ``action_count``)."""
        with self.reading() as conn:
            row = conn.execute(Statements.state, {"match_id": match_id}).first()
            if row is None:
                return None, 0
            # A shared table's seats change as people sit: read with the row, every time.
            seats = (
                conn.execute(Statements.seats, {"match_id": match_id}).all() if row.shared else None
            )
        return MatchInfo.of_columns(row, seats), 0 if row.last_seq is None else row.last_seq + 1

    def list_matches(self, owner: str, limit: int | None = 200) -> list[tuple[MatchInfo, int]]:
        """The matches the player created or sits at, newest first, each with its version
        (``counts_in_version``); every one with ``limit`` None."""
        stmt = list_statement(owner, limit)
        with self.session() as s:
            found = s.execute(stmt).all()
            shared = [row.id for row, _ in found if row.shared]
            seats: dict[str, list[Any]] = {m: [] for m in shared}
            if shared:
                rows = s.execute(
                    select(
                        SeatRow.match_id,
                        SeatRow.seat,
                        SeatRow.player,
                        SeatRow.computer,
                        SeatRow.joined,
                        PlayerRow.name,
                    )
                    .outerjoin(PlayerRow, PlayerRow.id == SeatRow.player)
                    .where(SeatRow.match_id.in_(shared))
                    .order_by(SeatRow.match_id, SeatRow.seat)
                ).all()
                for r in rows:
                    seats[r.match_id].append(r)
            return [(MatchInfo.of(row, seats.get(row.id)), int(n)) for row, n in found]

    # ------------------------------------------------------------------ actions

    def actions(self, match_id: str, start: int = 0) -> list[StoredAction]:
        """The match's stored actions from sequence number ``start`` on, in order."""
        with self.reading() as conn:
            rows = conn.execute(Statements.actions, {"match_id": match_id, "start": start})
            return [
                StoredAction(seq, seat, kind, action, as_utc(created), bool(stand_in))
                for seq, seat, kind, action, created, stand_in in rows.all()
            ]

    def action_count(self, match_id: str) -> int:
        """How many actions the match has stored (sequence numbers run 0, 1, 2... without gaps):
        one lookup at the end of the primary key's index, whatever the match's length."""
        stmt = select(func.coalesce(func.max(ActionRow.seq) + 1, 0)).where(
            ActionRow.match_id == match_id
        )
        with self.reading() as conn:
            return int(conn.execute(stmt).scalar_one())

    def append_actions(
        self,
        match_id: str,
        seq: int,
        actions: Sequence[tuple[int | None, str, Any]],
        *,
        finished_totals: Sequence[int] | None = None,
        stand_in: bool = False,
    ) -> dt.datetime:
        """Store ``(seat, kind, action)`` rows numbered from ``seq`` in one transaction, committed
        before returning (answers the time stored with them): all of them or none.
        ``finished_totals`` marks the match finished in the same transaction; ``stand_in``
        marks the rows as taken by a computer player for a person out of time.
        ``DuplicateActionError`` if the match's log is no longer at ``seq`` (another writer was
        first).

        On SQLite the appends that the process's request threads make at the same moment are
        committed together (``_commit_appends``): one transaction and one sync to disk for all,
        each still all-or-nothing and answered only once it is on disk."""
        append = _Append(match_id, seq, list(actions), finished_totals, stand_in)
        if self._write_lock is None:  # PostgreSQL takes concurrent writers: one transaction each
            self._append_alone(append)
        else:
            with self._pending_lock:
                self._pending.append(append)
            with self._write_lock:
                if not append.done:  # not committed by another thread meanwhile: commit all
                    with self._pending_lock:
                        batch, self._pending = self._pending, []
                    try:
                        self._commit_appends(batch)
                    finally:
                        for a in batch:  # none may wait unanswered, whatever happened
                            if not a.done:
                                a.error = a.error or RuntimeError("the append was not committed")
                                a.done = True
        if append.error is not None:
            raise append.error
        assert append.created is not None
        return append.created

    def _append_alone(self, append: _Append) -> None:
        try:
            with self.session() as s, s.begin():
                self._insert(s.connection(), [append])
        except BaseException as e:
            append.error = _append_error(append, e)
        append.done = True

    def _commit_appends(self, batch: list[_Append]) -> None:
        """Commit a batch of appends in one SQLite transaction (with the process's write lock
        held). ``BEGIN IMMEDIATE`` takes SQLite's write lock first, so that the log's ends read
        next are current even with other processes on the file: an append whose match moved on
        gets its ``DuplicateActionError`` and is left out, the others are stored. If the
        transaction fails as a whole (disk full...), each append is tried on its own, so that
        one cannot fail another."""
        try:
            self._check_file()
            with self.engine.connect() as conn:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                ids = sorted({a.match_id for a in batch})
                ends = dict(conn.execute(Statements.ends, {"match_ids": ids}).all())
                kept = []
                for append in batch:
                    end = ends.get(append.match_id, 0)
                    if end != append.seq:
                        append.error = DuplicateActionError(
                            f"match {append.match_id} has {end} actions, not {append.seq}"
                        )
                        append.done = True
                        continue
                    ends[append.match_id] = end + len(append.rows)
                    kept.append(append)
                if kept:
                    self._insert(conn, kept)
                conn.commit()
        except BaseException as e:
            todo = [a for a in batch if not a.done]
            if len(todo) == 1:
                todo[0].error, todo[0].done = _append_error(todo[0], e), True
            else:
                for append in todo:
                    self._commit_appends([append])
            return
        for append in kept:
            append.done = True

    @staticmethod
    def _insert(conn: Connection, appends: list[_Append]) -> None:
        now = utcnow()
        rows = [
            {
                "match_id": a.match_id,
                "seq": a.seq + i,
                "seat": seat,
                "kind": kind,
                "action": action,
                "created": now,
                "stand_in": a.stand_in,
            }
            for a in appends
            for i, (seat, kind, action) in enumerate(a.rows)
        ]
        conn.execute(Statements.insert_actions, rows)
        for a in appends:
            a.created = now
            if a.finished_totals is not None:
                totals = list(a.finished_totals)
                conn.execute(
                    Statements.finish, {"match_id": a.match_id, "finished": now, "totals": totals}
                )

    # ------------------------------------------------------------------ the coach

    def set_learning(self, match_id: str, on: bool) -> None:
        with self.writing() as s:
            s.execute(update(MatchRow).where(MatchRow.id == match_id).values(learning=on))

    def hint(self, match_id: str, seq: int) -> Any:
        """The stored hint for the decision before action ``seq``, or None."""
        with self.session() as s:
            row = s.get(HintRow, (match_id, seq))
            return None if row is None else row.hint

    def position_hint(self, match_id: str, position: str) -> Any:
        """The first hint stored for this position of the match (see ``HintRow``), or None."""
        stmt = (
            select(HintRow.hint)
            .where(HintRow.match_id == match_id, HintRow.position == position)
            .order_by(HintRow.seq)
            .limit(1)
        )
        with self.session() as s:
            return s.scalars(stmt).first()

    def add_hint(
        self, match_id: str, seq: int, deal: int, hint: Any, position: str | None = None
    ) -> Any:
        """Store a hint; if another request stored one for this decision first, that one stands
        and is returned."""
        from sqlalchemy.exc import IntegrityError

        try:
            with self.writing() as s:
                row = HintRow(
                    match_id=match_id,
                    seq=seq,
                    deal=deal,
                    hint=hint,
                    created=utcnow(),
                    position=position,
                )
                s.add(row)
        except IntegrityError:
            stored = self.hint(match_id, seq)
            if stored is None:
                raise
            return stored
        return hint

    def hints(self, match_id: str) -> list[tuple[int, int, Any]]:
        """(seq, deal, hint) of every hint asked in the match, in order."""
        stmt = select(HintRow).where(HintRow.match_id == match_id).order_by(HintRow.seq)
        with self.session() as s:
            return [(r.seq, r.deal, r.hint) for r in s.scalars(stmt).all()]

    def analysis(self, match_id: str, deal: int) -> Any:
        with self.session() as s:
            row = s.get(AnalysisRow, (match_id, deal))
            return None if row is None else row.analysis

    def add_analysis(self, match_id: str, deal: int, analysis: Any) -> None:
        """Store a deal's analysis (a second one for the same deal is dropped: the first
        stands)."""
        from sqlalchemy.exc import IntegrityError

        try:
            with self.writing() as s:
                s.add(
                    AnalysisRow(match_id=match_id, deal=deal, analysis=analysis, created=utcnow())
                )
        except IntegrityError:
            pass
