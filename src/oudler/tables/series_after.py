"""After a duplicate series (docs/duplicate.md, "After the series"): ranked play, the review of a
deal, a person's history of series and the export of a closed series.

- **Ranked play is for signed-in people**: a result is ranked when its player id is owned by an
  account made before the series closed. Only ranked results make the matchpoints, so guests,
  whose names belong to nobody and who may play a series again from another browser, change
  nobody's percentage. A guest who finished sees their own line, unranked, with the rank and
  percentage they would have among the ranked field.
- **A review** shows nothing before the person may see it (``SeriesLink.reviewable``: they
  finished the series, or it closed with no deal of theirs in hand); then each record shown is a
  finished deal, whose every card may be shown (RULES.md §11).
- **The export** of a closed series: every deal each person finished, each decision from its
  seat's own view, in the self-play format (``oudler.bots.decisions``), people named by
  pseudonymous ids unless names are asked for.
"""

from __future__ import annotations

import bisect
import datetime as dt
import hashlib
import hmac
import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from oudler.bots.decisions import FORMAT, deal_line, decision_line
from oudler.coach.analysis import decision_points
from oudler.core.duplicate import Standing, board_percent, series_percent, standings
from oudler.core.parting import first_difference
from oudler.core.records import deal_to_record
from oudler.tables.games import Conflict, Unprocessable
from oudler.tables.series_rows import (
    Entry,
    EntryRow,
    ResultRow,
    SeriesInfo,
    SeriesRow,
    ranked_clause,
)
from oudler.tables.store import AccountRow, shown_name, utcnow

if TYPE_CHECKING:
    from oudler.tables.games import Tables
    from oudler.tables.series_rows import SeriesStore

# ``Series._series``: a series by id (404 for people before it opens)
Find = Callable[..., SeriesInfo]
Sync = Callable[[Entry], Entry]  # ``Series._sync``: an entry as its match has it

FRESH = 5.0  # seconds a process reuses a series' standings before counting them again
HISTORY_MEAN = 30  # the mean percentage is over the person's last 30 ranked series
PAR = "par"  # the export's name for the computer in South


def own_scores(rows: SeriesStore, series_id: str, player: str) -> dict[int, int]:
    """The person's stored board results (board: score)."""
    stmt = select(ResultRow.board, ResultRow.score).where(
        ResultRow.series_id == series_id, ResultRow.player == player
    )
    with rows.store.reading() as conn:
        return {int(b): int(s) for b, s in conn.execute(stmt)}


@dataclass(frozen=True)
class Counted:
    """A series' standings as counted at ``at`` (``time.monotonic``): the ranked lines, each
    ranked player's index in them, and each board's ranked scores in order (to place an
    unranked person's scores among them)."""

    at: float
    ranked: list[Standing]
    index: dict[str, int]
    boards: list[list[int]]


class Rankings:
    """The rankings of the series, counted from their ranked results in one sort a board
    (``core.duplicate.standings``) and kept ``FRESH`` seconds per process: a ranking page, the
    home page's line and the history read them instead of counting 10,000 people again, and
    storing a result counts nothing."""

    def __init__(self, rows: SeriesStore) -> None:
        self.rows = rows
        self._counted: dict[str, Counted] = {}

    def counted(self, series: SeriesInfo, player: str | None = None) -> Counted:
        """The standings; counted again when older than ``FRESH`` seconds, or when ``player``
        is ranked in the series but not in them yet (they just finished)."""
        now = time.monotonic()
        known = self._counted.get(series.id)
        stale = known is None or now - known.at > FRESH
        if not stale and known is not None and player is not None and player not in known.index:
            stale = self.rows.ranked_in(series, player)
        if stale or known is None:
            results = self.rows.scores(series.id, series.closes)
            boards: list[list[int]] = [[] for _ in series.boards]
            for _, board, score, _ in results:
                boards[board].append(score)
            ranked = standings(results, len(series.boards))
            index = {s.player: i for i, s in enumerate(ranked)}
            known = Counted(now, ranked, index, [sorted(b) for b in boards])
            self._counted[series.id] = known
            if len(self._counted) > 64:  # the open series and a few past ones
                del self._counted[min(self._counted, key=lambda k: self._counted[k].at)]
        return known

    def own_line(self, series: SeriesInfo, player: str) -> dict[str, Any] | None:
        """The person's line once they finished the series: ranked, or for a guest (and an
        account made after the close) the unranked line at the place it would take, their
        results placed among the ranked ones and changing nobody's. None before they finish."""
        counted = self.counted(series, player)
        if player in counted.index:
            return self.lines([counted.ranked[counted.index[player]]], player)[0]
        entry = self.rows.entry(series.id, player)
        if entry is None or not entry.finished:
            return None
        mine = own_scores(self.rows, series.id, player)
        percents = []
        for board, score in sorted(mine.items()):
            others = counted.boards[board]
            below = bisect.bisect_left(others, score)
            same = bisect.bisect_right(others, score) - below
            percents.append(board_percent(2 * below + same, len(others) + 1))
        percent = round(series_percent(percents), 2)
        return {
            "rank": 1 + sum(1 for s in counted.ranked if s.percent > percent),
            **shown_name(self.rows.store.player_name(player)),
            "percent": percent,
            "scores": [mine.get(b, 0) for b in range(len(series.boards))],
            "you": True,
            "ranked": False,
        }

    def page(
        self, series: SeriesInfo, player: str | None, offset: int, limit: int
    ) -> tuple[int, list[dict[str, Any]]]:
        """How many are ranked, and the lines from ``offset``: ``limit`` ranked lines with the
        person's own line in its place (after the page when it is further down, before it
        when above)."""
        counted = self.counted(series, player)
        lines = self.lines(counted.ranked[offset : offset + limit], player)
        mine = None if player is None else self.own_line(series, player)
        if mine is not None and not any(line["you"] for line in lines):
            above = [line for line in lines if line["rank"] < mine["rank"]]
            lines = [*above, mine, *lines[len(above) :]]
        return len(counted.ranked), lines

    def lines(self, ranked: list[Standing], player: str | None = None) -> list[dict[str, Any]]:
        names = self.rows.names([s.player for s in ranked])
        return [
            {
                "rank": s.rank,
                **shown_name(names.get(s.player)),
                "percent": s.percent,
                "scores": list(s.scores),
                "you": s.player == player,
                "ranked": True,
            }
            for s in ranked
        ]


class After:
    """Review, history and export of the series of a ``Series`` (``oudler.tables.series``),
    given its ``Tables``, its rows, how it finds a series and how it brings an entry up to
    date."""

    def __init__(
        self, tables: Tables, rows: SeriesStore, find: Find, sync: Sync, rankings: Rankings
    ) -> None:
        self.tables = tables
        self.rows = rows
        self.rankings = rankings
        self._find = find
        self._sync = sync

    # ------------------------------------------------------------------ who may see

    def reviewable(self, series: SeriesInfo, player: str) -> Entry:
        """The person's entry, when they may see others' records and the par: they finished
        the series, or it closed with no deal of theirs in hand. Else 409 ``not_finished``,
        whatever they asked (the same answer for a person who never played it)."""
        entry = self.rows.entry(series.id, player)
        if entry is not None:
            with self.tables.lock(entry.match_id):
                game = self.tables.load(entry.match_id, player)
                if game.series is not None:
                    self.rows.record(game.series, game.match)  # a board stored late
                    if game.series.reviewable(game.match):
                        return self.rows.entry(series.id, player) or entry
        raise Conflict(
            "the others' records are shown once you have finished the series",
            code="not_finished",
        )

    # ------------------------------------------------------------------ review

    def review(self, player: str, series_id: str, number: int) -> dict[str, Any]:
        """``GET /api/series/<id>/review/<deal>``: the person's record of deal ``number`` (from
        1) beside the best other record of it and the par, with where each parts from theirs."""
        series = self._find(series_id)
        entry = self.reviewable(series, player)
        if not 1 <= number <= len(series.boards):
            raise Unprocessable(f"series {series.id} has no deal {number}", None, "no_such_deal")
        board = number - 1
        mine = self._record(entry.match_id, player, board)
        if mine is None:  # closed before they played this deal
            raise Unprocessable(
                "you did not play this deal of the series before it closed", None, "not_played"
            )
        record, observation = mine
        best = self._best_other(series, player, board)
        par = series.par[board]
        scores = own_scores(self.rows, series.id, player)
        return {
            "series": series.id,
            "key": series.key,
            "deal": number,
            "deals": len(series.boards),
            "match": entry.match_id,
            "you": {"score": scores.get(board), "record": record},
            "observation": observation,
            "best": best,
            "parting": None if best is None else first_difference(record, best["record"]),
            "par": {"score": int(par["score"]), "record": par["record"]},
            "par_parting": first_difference(record, par["record"]),
        }

    def _record(
        self, match_id: str, player: str, board: int
    ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """A person's finished record of ``board`` and their observation at its end (None: not
        played to its end)."""
        with self.tables.lock(match_id):
            game = self.tables.load(match_id, player)
            deals = game.match.deals
            if board >= len(deals) or not deals[board].is_over:
                return None
            deal = deals[board]
            return deal_to_record(deal), deal.observation(0).to_dict()

    def _best_other(self, series: SeriesInfo, player: str, board: int) -> dict[str, Any] | None:
        """The best score among the others who played ``board`` (the earliest to start among
        equal scores): their name (an account's; a guest's shows as none) and record only."""
        stmt = (
            select(ResultRow.player, ResultRow.score, EntryRow.match_id, AccountRow.name)
            .join(
                EntryRow,
                (EntryRow.series_id == ResultRow.series_id) & (EntryRow.player == ResultRow.player),
            )
            .outerjoin(AccountRow, ranked_clause(series.closes))
            .where(
                ResultRow.series_id == series.id,
                ResultRow.board == board,
                ResultRow.player != player,
            )
            .order_by(ResultRow.score.desc(), EntryRow.started, ResultRow.player)
            .limit(1)
        )
        with self.rows.store.reading() as conn:
            row = conn.execute(stmt).first()
        if row is None:
            return None
        found = self._record(row.match_id, row.player, board)
        if found is None:  # a stored result is of a finished deal
            return None
        return {"name": row.name, "score": int(row.score), "record": found[0]}

    # ------------------------------------------------------------------ history

    def history(self, player: str) -> dict[str, Any]:
        """``GET /api/series/history``: the person's series, newest first, each with their rank,
        percentage and par difference; the mean of the last 30 ranked results, and the best."""
        stmt = (
            select(EntryRow.series_id, EntryRow.match_id, EntryRow.finished)
            .join(SeriesRow, SeriesRow.id == EntryRow.series_id)
            .where(EntryRow.player == player)
            .order_by(SeriesRow.opens.desc())
        )
        with self.rows.store.reading() as conn:
            entries = [(r[0], r[1], r[2] is not None) for r in conn.execute(stmt)]
        now = utcnow()
        lines = []
        for series_id, match_id, finished in entries:
            series = self.rows.get(series_id)
            assert series is not None
            if not finished:
                synced = self._sync(Entry(series_id, player, match_id, False))
                finished = synced.finished
            lines.append(self._history_line(series, player, match_id, finished, now))
        counted = [line for line in lines if line["percent"] is not None]
        recent = counted[:HISTORY_MEAN]
        best = max(counted, key=lambda line: line["percent"], default=None)
        return {
            "series": lines,
            "mean": round(sum(x["percent"] for x in recent) / len(recent), 2) if recent else None,
            "mean_of": len(recent),
            "best": None if best is None else {"id": best["id"], "percent": best["percent"]},
        }

    def _history_line(
        self, series: SeriesInfo, player: str, match_id: str, finished: bool, now: dt.datetime
    ) -> dict[str, Any]:
        scores = own_scores(self.rows, series.id, player)
        par = series.par_scores
        line: dict[str, Any] = {
            "id": series.id,
            "key": series.key,
            "kind": series.kind,
            "form": series.form,
            "deals": len(series.boards),
            "opens": series.opens.isoformat(),
            "closes": series.closes.isoformat(),
            "closed": now >= series.closes,
            "match": match_id,
            "finished": finished,
            "played": len(scores),
            # The par of a board is shown once the person's board is over.
            "par_diff": sum(s - par[b] for b, s in scores.items()),
            "rank": None,
            "players": None,
            "percent": None,
            "ranked": None,
        }
        if finished:
            mine = self.rankings.own_line(series, player)
            if mine is not None:
                line.update(
                    rank=mine["rank"],
                    players=len(self.rankings.counted(series).ranked),
                    percent=mine["percent"],
                    ranked=mine["ranked"],
                )
        return line

    # ------------------------------------------------------------------ export

    def export_lines(self, series_id: str, names: bool = False) -> Iterator[str]:
        """The JSON lines of a closed series' export (``oudler duplicate export``): a header,
        then one line per deal a person finished (and the par's), each decision from its
        seat's own view. 409 ``series_open`` while the series is open: its deals are still
        being played, and every record would tell them."""
        series = self._find(series_id, public=False)
        if utcnow() < series.closes:
            raise Conflict("a series is exported once it has closed", code="series_open")
        stmt = (
            select(EntryRow.player, EntryRow.match_id, AccountRow.name)
            .outerjoin(AccountRow, AccountRow.player == EntryRow.player)
            .where(EntryRow.series_id == series.id)
            .order_by(EntryRow.started, EntryRow.player)
        )
        with self.rows.store.reading() as conn:
            entries = [(r[0], r[1], r[2]) for r in conn.execute(stmt)]
        return self._lines(series, entries, names)

    def _lines(
        self, series: SeriesInfo, entries: Sequence[tuple[str, str, str | None]], names: bool
    ) -> Iterator[str]:
        secret = self.rows.secret()
        header = {
            "format": FORMAT,
            "level": series.level,
            "series": series.key,
            "form": series.form,
            "deals": len(series.boards),
            "players": len(entries),
        }
        yield json.dumps(header, separators=(",", ":")) + "\n"
        for board, par in enumerate(series.par):
            yield _line(board, PAR, par["record"])
        for player, match_id, name in entries:
            who = (name or None) if names else pseudonym(secret, series.key, player)
            with self.tables.lock(match_id):
                deals = list(self.tables.load(match_id, player).match.deals)
            for board, deal in enumerate(deals):
                if deal.is_over:
                    yield _line(board, who, deal_to_record(deal))

    def export_for(self, player: str, series_id: str) -> Iterator[str]:
        """The export as the closed series' page offers it: to a person who played the series
        and may review it (pseudonymous ids only)."""
        series = self._find(series_id)
        if utcnow() < series.closes:
            raise Conflict("a series is exported once it has closed", code="series_open")
        self.reviewable(series, player)
        return self.export_lines(series.id)


def pseudonym(secret: bytes, key: str, player: str) -> str:
    """A person's id in one series' export: the same on every line of it, unrelated from one
    series to the next and to their player id (HMAC of the server's secret)."""
    text = f"oudler-export:{key}:{player}".encode()
    return "p" + hmac.new(secret, text, hashlib.sha256).hexdigest()[:10]


def _line(board: int, who: str | None, record: dict[str, Any]) -> str:
    points, _deal = decision_points(record, (0, 1, 2, 3))
    # No poignée is ``[]`` in the protocol's notation (the coach's points say None).
    decisions = [decision_line(p.obs, [] if p.played is None else p.played) for p in points]
    line = deal_line(board, record["result"], decisions, player=who)
    return json.dumps(line, separators=(",", ":")) + "\n"


__all__ = ["After", "Rankings", "pseudonym"]
