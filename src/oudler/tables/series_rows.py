"""The database rows of duplicate series (docs/duplicate.md): the series, each person's entry,
and one row per board result, from which the ranking is computed by a query.

Kept apart from ``oudler.tables.store`` (same ``Base``, so the migrations' models include them);
the revision that makes these tables is ``0003``.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    and_,
    cast,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from oudler.core.duplicate import Board, BoardMatch, Case, series_bot_seed
from oudler.core.match import Match
from oudler.core.terms import Contract, parse_bid
from oudler.tables.store import (
    AccountRow,
    Base,
    DatabaseUnavailable,
    MatchRow,
    PlayerRow,
    SettingRow,
    Store,
    as_utc,
    utcnow,
)

SERIES_SECRET = "series-secret"


def _unmade() -> ColumnElement[bool]:
    """A claim's row: its par still empty. Compared as text, which SQLite and PostgreSQL's
    ``json`` both keep as it was written (``json`` has no equality of its own)."""
    return cast(SeriesRow.par, String) == "[]"


IMPOSED = "imposed"
FREE = "free"


def parse_contract(name: str) -> Contract:
    bid = parse_bid(name)
    assert bid is not None, "a case's contract is a contract"
    return bid


class SeriesRow(Base):
    """A series: its boards and the par (the computer in South's score on each, and its record),
    both made once when the series is made."""

    __tablename__ = "series"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    key: Mapped[str] = mapped_column(String(40), unique=True)  # e.g. "daily:2026-12-06"
    kind: Mapped[str] = mapped_column(String(8))  # daily, weekly
    form: Mapped[str] = mapped_column(String(8))  # free, imposed
    level: Mapped[str] = mapped_column(String(16))  # the computer players' level
    opens: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    closes: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    # [[dealer, seed], ...]; imposed taker: [[dealer, seed, declarer, contract], ...] (its case)
    boards: Mapped[Any] = mapped_column(JSON)
    # [{"score": int, "record": tarot-deal/1}, ...]; [] while the row is only a claim: a process
    # is making the series (``SeriesStore.claim``), and nobody sees it yet.
    par: Mapped[Any] = mapped_column(JSON)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EntryRow(Base):
    """A person's play of a series: one match, started once."""

    __tablename__ = "series_entries"

    series_id: Mapped[str] = mapped_column(ForeignKey("series.id"), primary_key=True)
    player: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), unique=True)
    started: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class ResultRow(Base):
    """One board's score of one person: written once, when the board is over."""

    __tablename__ = "series_results"
    __table_args__ = (Index("ix_series_results_ranking", "series_id", "board", "score"),)

    series_id: Mapped[str] = mapped_column(ForeignKey("series.id"), primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)  # from 0
    player: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    score: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True)
class SeriesInfo:
    id: str
    key: str
    kind: str
    form: str
    level: str
    opens: dt.datetime
    closes: dt.datetime
    boards: tuple[Board, ...]
    par: tuple[dict[str, Any], ...]
    cases: tuple[Case, ...] | None = None  # the imposed-taker form's: (declarer, contract)
    created: dt.datetime | None = None  # for a claim: when it was claimed

    @classmethod
    def of(cls, row: SeriesRow) -> SeriesInfo:
        opens, closes = as_utc(row.opens), as_utc(row.closes)
        assert opens is not None and closes is not None
        cases = tuple((int(b[2]), parse_contract(b[3])) for b in row.boards if len(b) == 4)
        return cls(
            id=row.id,
            key=row.key,
            kind=row.kind,
            form=row.form,
            level=row.level,
            opens=opens,
            closes=closes,
            boards=tuple((int(b[0]), int(b[1])) for b in row.boards),
            par=tuple(row.par),
            cases=cases if row.form == IMPOSED else None,
            created=as_utc(row.created),
        )

    @property
    def ready(self) -> bool:
        """Made: its boards dealt and its par played (not a claim still being made)."""
        return bool(self.par)

    def case_view(self, board: int) -> dict[str, Any] | None:
        if self.cases is None:
            return None
        declarer, contract = self.cases[board]
        return {"declarer": declarer, "contract": contract.notation}

    @property
    def par_scores(self) -> list[int]:
        return [int(p["score"]) for p in self.par]


@dataclass(frozen=True)
class Entry:
    series_id: str
    player: str
    match_id: str
    finished: bool


@dataclass(frozen=True)
class SeriesLink:
    """What a series match knows of its series (``Game.series``)."""

    series: SeriesInfo
    player: str  # the person in South
    bot_seed: int  # the computer players' seeds come from it (``series_bot_seed``)

    @property
    def imposed(self) -> bool:
        """The imposed-taker form: the calls are the case's, not the players' choice (the
        computer players are told, so they read nothing into them)."""
        return self.series.cases is not None

    def new_match(self) -> Match:
        return BoardMatch(self.series.boards, cases=self.series.cases)

    def closed(self, now: dt.datetime | None = None) -> bool:
        return (now or utcnow()) >= self.series.closes

    def reviewable(self, match: Match) -> bool:
        """The person may see others' records and the par (the ranking, the reviews, the
        coach's analysis): they finished the series, or it closed with no deal of theirs in
        hand (docs/duplicate.md, "After the series")."""
        return match.is_over or (self.closed() and match.current.is_over)

    def view(self, match: Match) -> dict[str, Any]:
        """The series part of the match's view: the par of the boards that are over only (a
        board's par before its end would hint at the cards)."""
        over = sum(1 for d in match.deals if d.is_over)
        return {
            "level": self.series.level,
            "id": self.series.id,
            "kind": self.series.kind,
            "form": self.series.form,
            "deals": len(self.series.boards),
            "closes": self.series.closes.isoformat(),
            "closed": self.closed(),
            "par": self.series.par_scores[:over],
            # The current board's case (public: the contract is public once the bidding is
            # over, and in this form it is over before the first action).
            "case": self.series.case_view(len(match.deals) - 1),
        }


class SeriesStore:
    """The database side of series, on the web table's ``Store``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._secret: bytes | None = None

    def link(self, match_id: str) -> SeriesLink | None:
        """The series of a match (None: a match of no series)."""
        entry = self.entry_of_match(match_id)
        if entry is None:
            return None
        series = self.get(entry.series_id)
        assert series is not None, "an entry's series exists (a foreign key)"
        return SeriesLink(series, entry.player, series_bot_seed(self.secret(), series.key))

    def record(self, link: SeriesLink, match: Match) -> None:
        """Store the results of the match's finished boards that are not stored yet (South's
        score in the sheet), and the entry's end once the last board is over."""
        scores = {
            i: d.result.scores[0]
            for i, d in enumerate(match.deals)
            if d.is_over and d.result is not None
        }
        self.add_results(link.series.id, link.player, scores, match.is_over)

    def secret(self) -> bytes:
        """The server's series secret, made once and shared by every process (like the player
        id key): a series' boards and its computer players' seeds come from it."""
        if self._secret is not None:
            return self._secret
        for _ in range(2):
            with self.store.session() as s:
                row = s.get(SettingRow, SERIES_SECRET)
                if row is not None:
                    self._secret = bytes.fromhex(row.value)
                    return self._secret
            try:
                with self.store.writing() as s:
                    s.add(SettingRow(name=SERIES_SECRET, value=secrets.token_hex(32)))
            except IntegrityError:
                pass  # another process made it first: read theirs
        raise DatabaseUnavailable("the series secret could not be stored")

    def by_key(self, key: str) -> SeriesInfo | None:
        with self.store.session() as s:
            row = s.execute(select(SeriesRow).where(SeriesRow.key == key)).scalar_one_or_none()
            return None if row is None else SeriesInfo.of(row)

    def get(self, series_id: str) -> SeriesInfo | None:
        with self.store.session() as s:
            row = s.get(SeriesRow, series_id)
            return None if row is None else SeriesInfo.of(row)

    def get_ready(self, series_id: str) -> SeriesInfo | None:
        """The series if it is made (a claim still being made is no series yet)."""
        found = self.get(series_id)
        return found if found is not None and found.ready else None

    def claim(self, row: SeriesRow) -> bool:
        """Insert-first: the claim row of a series about to be made (its ``par`` empty). True
        when this insert went in, and this process makes the series (its par is CPU heavy:
        played once); False when the key existed (made, or being made by another process)."""
        assert not row.par, "a claim has no par yet"
        try:
            with self.store.writing() as s:
                s.add(row)
        except IntegrityError:
            return False
        return True

    def fill(self, series_id: str, boards: list[list[Any]], par: list[dict[str, Any]]) -> bool:
        """The claimed series made: its boards and par stored. False when the claim is gone
        (dropped as stale meanwhile: another process makes the series)."""
        stmt = (
            update(SeriesRow)
            .where(SeriesRow.id == series_id, _unmade())
            .values(boards=boards, par=par)
        )
        with self.store.writing() as s:
            return bool(s.execute(stmt).rowcount)  # type: ignore[attr-defined]

    def drop_claim(self, series_id: str, claimed_before: dt.datetime | None = None) -> bool:
        """Delete a claim, never a made series: the claimer's own after a failure, or one
        claimed before ``claimed_before`` by a process that died making it. One statement: a
        claim filled meanwhile no longer matches."""
        stmt = delete(SeriesRow).where(SeriesRow.id == series_id, _unmade())
        if claimed_before is not None:
            stmt = stmt.where(SeriesRow.created < claimed_before)
        with self.store.writing() as s:
            return bool(s.execute(stmt).rowcount)  # type: ignore[attr-defined]

    def open_series(self, now: dt.datetime) -> list[SeriesInfo]:
        stmt = (
            select(SeriesRow)
            .where(SeriesRow.opens <= now, SeriesRow.closes > now)
            .order_by(SeriesRow.opens)
        )
        with self.store.session() as s:
            found = [SeriesInfo.of(r) for r in s.execute(stmt).scalars()]
        return [f for f in found if f.ready]

    def entry(self, series_id: str, player: str) -> Entry | None:
        with self.store.session() as s:
            row = s.get(EntryRow, (series_id, player))
            if row is None:
                return None
            return Entry(row.series_id, row.player, row.match_id, row.finished is not None)

    def entry_of_match(self, match_id: str) -> Entry | None:
        stmt = select(EntryRow).where(EntryRow.match_id == match_id)
        with self.store.session() as s:
            row = s.execute(stmt).scalar_one_or_none()
            if row is None:
                return None
            return Entry(row.series_id, row.player, row.match_id, row.finished is not None)

    def start(self, series: SeriesInfo, player: str, match_id: str, seed: int) -> Entry:
        """The person's match and entry, in one transaction; when the person already has an
        entry (asked twice, even at once), that one."""
        self.store.ensure_player(player)
        try:
            with self.store.writing() as s:
                s.add(
                    MatchRow(
                        id=match_id,
                        owner=player,
                        length=len(series.boards),
                        level=series.level,
                        seed=seed,
                        first_dealer=series.boards[0][0],
                        first_deal_seed=None,
                        learning=False,
                        shared=False,
                    )
                )
                s.flush()  # the match before the entry that refers to it
                s.add(EntryRow(series_id=series.id, player=player, match_id=match_id))
        except IntegrityError:
            pass  # the entry existed: the match above was rolled back with it
        found = self.entry(series.id, player)
        assert found is not None
        return found

    def add_results(
        self, series_id: str, player: str, scores: dict[int, int], finished: bool
    ) -> None:
        """Board results not stored yet (a board's row is written once; a second writer's is
        the same score and is dropped), and the entry's end once every board is over."""
        with self.store.writing() as s:
            have = set(
                s.execute(
                    select(ResultRow.board).where(
                        ResultRow.series_id == series_id, ResultRow.player == player
                    )
                ).scalars()
            )
            for board, score in scores.items():
                if board not in have:
                    s.add(ResultRow(series_id=series_id, board=board, player=player, score=score))
            if finished:
                row = s.get(EntryRow, (series_id, player))
                if row is not None and row.finished is None:
                    row.finished = utcnow()

    def boards_done(self, series_id: str, player: str) -> int:
        """How many of the series' boards the person has finished (their stored results)."""
        stmt = select(func.count()).where(
            ResultRow.series_id == series_id, ResultRow.player == player
        )
        with self.store.session() as s:
            return int(s.execute(stmt).scalar_one())

    def scores(self, series_id: str, closes: dt.datetime) -> list[tuple[str, int, int, bool]]:
        """Every ranked board result of the series, (player, board, score, entry finished):
        what its ranking is computed from (``core.duplicate.standings``), four values a row and
        no name, so that 40,000 rows come in tens of milliseconds. Ranked: the player is an
        account made before the series ``closes`` (docs/duplicate.md, "Ranked play")."""
        stmt = (
            select(ResultRow.player, ResultRow.board, ResultRow.score, EntryRow.finished)
            .join(
                EntryRow,
                (EntryRow.series_id == ResultRow.series_id) & (EntryRow.player == ResultRow.player),
            )
            .join(AccountRow, ranked_clause(closes))
            .where(ResultRow.series_id == series_id)
        )
        with self.store.reading() as conn:
            return [(r[0], int(r[1]), int(r[2]), r[3] is not None) for r in conn.execute(stmt)]

    def ranked_in(self, series: SeriesInfo, player: str) -> bool:
        """Whether ``player``'s results of the series are ranked (an account made before it
        closed)."""
        stmt = select(AccountRow.id).where(
            AccountRow.player == player, AccountRow.created < series.closes
        )
        with self.store.reading() as conn:
            return conn.execute(stmt).first() is not None

    def names(self, players: list[str]) -> dict[str, str | None]:
        """The names of these players (the lines of one ranking page)."""
        out: dict[str, str | None] = {}
        with self.store.reading() as conn:
            for start in range(0, len(players), 500):  # bound the IN list
                part = players[start : start + 500]
                stmt = select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(part))
                out.update((r[0], r[1]) for r in conn.execute(stmt))
        return out


def ranked_clause(closes: dt.datetime) -> Any:
    """A result's player is ranked: owned by an account made before the series closed (an
    account made later does not change a closed ranking)."""
    return and_(AccountRow.player == ResultRow.player, AccountRow.created < closes)
