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

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from oudler.core.duplicate import Board, BoardMatch, series_bot_seed
from oudler.core.match import Match
from oudler.tables.store import (
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
    boards: Mapped[Any] = mapped_column(JSON)  # [[dealer, seed], ...]
    par: Mapped[Any] = mapped_column(JSON)  # [{"score": int, "record": tarot-deal/1}, ...]
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

    @classmethod
    def of(cls, row: SeriesRow) -> SeriesInfo:
        opens, closes = as_utc(row.opens), as_utc(row.closes)
        assert opens is not None and closes is not None
        return cls(
            id=row.id,
            key=row.key,
            kind=row.kind,
            form=row.form,
            level=row.level,
            opens=opens,
            closes=closes,
            boards=tuple((int(d), int(s)) for d, s in row.boards),
            par=tuple(row.par),
        )

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

    def new_match(self) -> Match:
        return BoardMatch(self.series.boards)

    def closed(self, now: dt.datetime | None = None) -> bool:
        return (now or utcnow()) >= self.series.closes

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

    def insert(self, row: SeriesRow) -> SeriesInfo:
        """Store a new series, or, when another process stored the same key first, read
        theirs: one row per key whoever makes it."""
        key = row.key
        try:
            with self.store.writing() as s:
                s.add(row)
        except IntegrityError:
            pass
        found = self.by_key(key)
        assert found is not None, "a series just inserted, by us or another process"
        return found

    def open_series(self, now: dt.datetime) -> list[SeriesInfo]:
        stmt = (
            select(SeriesRow)
            .where(SeriesRow.opens <= now, SeriesRow.closes > now)
            .order_by(SeriesRow.opens)
        )
        with self.store.session() as s:
            return [SeriesInfo.of(r) for r in s.execute(stmt).scalars()]

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

    def scores(self, series_id: str) -> list[tuple[str, int, int, bool]]:
        """Every board result of the series, (player, board, score, entry finished): what its
        ranking is computed from (``core.duplicate.standings``), four integers a row and no
        name, so that 40,000 rows come in tens of milliseconds."""
        stmt = (
            select(ResultRow.player, ResultRow.board, ResultRow.score, EntryRow.finished)
            .join(
                EntryRow,
                (EntryRow.series_id == ResultRow.series_id) & (EntryRow.player == ResultRow.player),
            )
            .where(ResultRow.series_id == series_id)
        )
        with self.store.reading() as conn:
            return [(r[0], int(r[1]), int(r[2]), r[3] is not None) for r in conn.execute(stmt)]

    def names(self, players: list[str]) -> dict[str, str | None]:
        """The table names of these players (the lines of one ranking page)."""
        out: dict[str, str | None] = {}
        with self.store.reading() as conn:
            for start in range(0, len(players), 500):  # bound the IN list
                part = players[start : start + 500]
                stmt = select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(part))
                out.update((r[0], r[1]) for r in conn.execute(stmt))
        return out

    def results(self, series_id: str) -> list[tuple[str, str | None, bool, int, int, int, int]]:
        """Every board result of the series with its matchpoints, computed by the database:
        (player, name, entry finished, board, score, matchpoints, players on the board).
        Matchpoints: 2 per score beaten and 1 per tie = 2(rank - 1) + (ties - 1)."""
        part = (ResultRow.board,)
        lower = func.rank().over(partition_by=part, order_by=ResultRow.score)
        same = func.count().over(partition_by=(ResultRow.board, ResultRow.score))
        players = func.count().over(partition_by=part)
        stmt = (
            select(
                ResultRow.player,
                PlayerRow.name,
                EntryRow.finished,
                ResultRow.board,
                ResultRow.score,
                (2 * (lower - 1) + same - 1).label("points"),
                players.label("players"),
            )
            .join(PlayerRow, PlayerRow.id == ResultRow.player)
            .join(
                EntryRow,
                (EntryRow.series_id == ResultRow.series_id) & (EntryRow.player == ResultRow.player),
            )
            .where(ResultRow.series_id == series_id)
        )
        with self.store.reading() as conn:
            return [
                (r[0], r[1], r[2] is not None, int(r[3]), int(r[4]), int(r[5]), int(r[6]))
                for r in conn.execute(stmt)
            ]


__all__ = [
    "Entry",
    "EntryRow",
    "ResultRow",
    "SeriesInfo",
    "SeriesLink",
    "SeriesRow",
    "SeriesStore",
]
