"""Duplicate series (docs/duplicate.md): made once, played once per person, ranked by matchpoints.

A series' boards and its computer players' seeds come from the server's secret (``SeriesStore``
keeps it in the settings table). South is the person; East, North and West are computer players
of the series' level, a fixed-work one: a wall-time budget searches more worlds on an idle
machine than on a busy one, so two tables that agree so far could get different decisions. Each
decision is seeded from (series, board, seat, actions so far in the board), so tables that
agree so far get identical decisions. The par is the same level in South against the same
opponents, played when the series is made.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import secrets
import threading
import time
from typing import Any

from oudler.bots import make_bot, parse_level
from oudler.core.deal import Deal
from oudler.core.duplicate import (
    Board,
    Standing,
    series_boards,
    series_bot_seed,
    standings,
)
from oudler.core.records import deal_to_record
from oudler.tables.computer import bot_seed
from oudler.tables.games import NEW_SEED, Conflict, MatchNotFound, Tables
from oudler.tables.series_rows import Entry, SeriesInfo, SeriesRow, SeriesStore
from oudler.tables.store import PERSON

log = logging.getLogger("oudler.series")

DEFAULT_LEVEL = "expert@w100"
"""The computer players of a series: the expert searching a fixed 100 worlds per decision, so
that its play is the same whatever the machine's load (and about as strong as at the table)."""
LEVEL_ENV = "OUDLER_SERIES_LEVEL"  # another reproducible level (tests use a cheap one)
KINDS = {"daily": (4, dt.timedelta(days=1))}  # kind: (boards, open for)
FREE = "free"
PAGE = 50  # lines of a ranking page
FRESH = 5.0  # seconds a process reuses a series' standings before counting them again


def series_level() -> str:
    """The level of new series: ``OUDLER_SERIES_LEVEL`` or the default; it must decide the same
    way every time from its seed (a fixed-work expert, or a level that does not search)."""
    level = os.environ.get(LEVEL_ENV) or DEFAULT_LEVEL
    spec = parse_level(level)
    if spec.level.startswith("expert") and "@w" not in level:
        raise ValueError(f"a series needs a fixed-work level such as expert@w100, not {level!r}")
    return level


def daily_key(day: dt.date) -> str:
    return f"daily:{day.isoformat()}"


def play_par(boards: list[Board], level: str, bots: int) -> list[dict[str, Any]]:
    """The par: each board played by ``level`` in every seat, seeded as the series' tables are
    (``Game.seed_index``: actions so far in the board), South's score and the deal's record."""
    out: list[dict[str, Any]] = []
    for index, (dealer, seed) in enumerate(boards):
        deal = Deal.from_seed(seed, dealer)
        actions = 0
        while not deal.is_over:
            seat = deal.to_move
            # As ``computer.think`` decides at the tables (without its pause, which only hides
            # from a person how long a poignée question took).
            bot = make_bot(level, seed=bot_seed(bots, index, seat, actions))
            bot.begin_deal(seat)
            deal.act(bot.act(deal.observation(seat)), seat)
            actions += 1
        assert deal.result is not None
        out.append({"score": deal.result.scores[PERSON], "record": deal_to_record(deal)})
    return out


class Series:
    """The series of the web table (``app.state.series``), on its ``Tables``."""

    def __init__(self, tables: Tables, level: str | None = None) -> None:
        self.tables = tables
        self.rows: SeriesStore = tables.series
        self.level = level or series_level()
        self._making = threading.Lock()  # one process makes a series once, not per request
        self._soon: set[str] = set()  # keys being made in the background
        # series id -> (when counted, standings, each player's index): a ranking page reads
        # these instead of counting 10,000 people's matchpoints again (docs/duplicate.md).
        self._counted: dict[str, tuple[float, list[Standing], dict[str, int]]] = {}

    # ------------------------------------------------------------------ making

    def make(self, kind: str = "daily", day: dt.date | None = None) -> SeriesInfo:
        """The series of ``kind`` for ``day`` (UTC), made if it does not exist yet. Made once
        even by several processes at once: the row's key is unique, and a process that loses
        the race reads the winner's row."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind of series {kind!r}; this version makes daily ones")
        day = day or dt.datetime.now(dt.UTC).date()
        key = daily_key(day)
        found = self.rows.by_key(key)
        if found is not None:
            return found
        with self._making:
            found = self.rows.by_key(key)
            if found is not None:
                return found
            count, length = KINDS[kind]
            secret = self.rows.secret()
            boards = series_boards(secret, key, count)
            par = play_par(boards, self.level, series_bot_seed(secret, key))
            opens = dt.datetime.combine(day, dt.time(), dt.UTC)
            row = SeriesRow(
                id=secrets.token_hex(6),
                key=key,
                kind=kind,
                form=FREE,
                level=self.level,
                opens=opens,
                closes=opens + length,
                boards=[list(b) for b in boards],
                par=par,
            )
            made = self.rows.insert(row)
            log.info("series %s (%s) ready", made.id, made.key)
            return made

    def make_soon(self, day: dt.date) -> bool:
        """The day's series, made in a thread of its own if it does not exist yet (its par costs
        seconds of a core: no request waits for it). True while it is being made."""
        key = daily_key(day)
        if self.rows.by_key(key) is not None:
            return False
        with self._making:
            if key in self._soon:
                return True
            self._soon.add(key)
        threading.Thread(
            target=self._make_quietly, args=(day,), name="oudler-series", daemon=True
        ).start()
        return True

    def _make_quietly(self, day: dt.date) -> None:
        try:
            self.make("daily", day)
        except Exception:
            log.exception("the daily series of %s could not be made", day)
        finally:
            with self._making:
                self._soon.discard(daily_key(day))

    # ------------------------------------------------------------------ a person's play

    def _series(self, series_id: str, public: bool = True) -> SeriesInfo:
        """The series; for people (``public``) only once it has opened: before, its id tells
        nothing, as if it did not exist."""
        found = self.rows.get(series_id) if len(series_id) <= 32 else None
        if found is None or (public and dt.datetime.now(dt.UTC) < found.opens):
            raise MatchNotFound(f"no series {series_id!r}", code="no_such_series")
        return found

    def _sync(self, entry: Entry) -> Entry:
        """The entry's board results as its match has them: a process stopped between storing
        a board's last card and its result loses nothing."""
        with self.tables.lock(entry.match_id):
            game = self.tables.load(entry.match_id, entry.player)
            if game.series is not None:
                self.rows.record(game.series, game.match)
        return self.rows.entry(entry.series_id, entry.player) or entry

    def listing(self, player: str, now: dt.datetime | None = None) -> dict[str, Any]:
        """``GET /api/series``: the open series, and how this person stands in each (their
        rank only once they finished: nothing of a series is shown before)."""
        now = now or dt.datetime.now(dt.UTC)
        preparing = self.make_soon(now.date())
        out = []
        for s in self.rows.open_series(now):
            entry = self.rows.entry(s.id, player)
            line: dict[str, Any] = {
                "id": s.id,
                "kind": s.kind,
                "form": s.form,
                "deals": len(s.boards),
                "closes": s.closes.isoformat(),
                "played": entry is not None,
                "finished": entry is not None and entry.finished,
                "match": None if entry is None else entry.match_id,
            }
            if entry is not None and entry.finished:
                ranked, mine = self._standings(s, player)
                line.update(percent=mine.percent, rank=mine.rank, players=len(ranked))
            out.append(line)
        return {"series": out, "preparing": preparing}

    def play(self, player: str, series_id: str) -> dict[str, Any]:
        """``POST /api/series/<id>/play``: the person's match of the series, started once."""
        series = self._series(series_id)
        entry = self.rows.entry(series.id, player)
        if entry is None:
            if dt.datetime.now(dt.UTC) >= series.closes:
                raise Conflict("this series has closed", code="series_closed")
            match_id = secrets.token_hex(6)
            # The match's own seed is never used for its deals or its computer players.
            entry = self.rows.start(series, player, match_id, secrets.randbelow(NEW_SEED))
            log.info("series %s: match %s started", series.id, entry.match_id)
        return {"match": entry.match_id}

    def ranking(
        self, player: str, series_id: str, offset: int = 0, limit: int = PAGE
    ) -> dict[str, Any]:
        """``GET /api/series/<id>/ranking``: for a person who finished the series only. One
        page of ``limit`` lines from ``offset`` (0: the top), and the person's own line
        wherever it is; ``players`` says how many are ranked."""
        series = self._series(series_id)
        entry = self.rows.entry(series.id, player)
        if entry is not None and not entry.finished:
            entry = self._sync(entry)
        if entry is None or not entry.finished:
            raise Conflict(
                "the ranking is shown once you have finished the series", code="not_finished"
            )
        ranked, mine = self._standings(series, player)
        offset, limit = max(0, offset), max(1, min(limit, 200))
        page = ranked[offset : offset + limit]
        if mine not in page:
            page = [*page, mine]
        return {
            "id": series.id,
            "key": series.key,
            "players": len(ranked),
            "offset": offset,
            "rows": self._lines(page, player),
            "par": series.par_scores,
            "par_records": [p["record"] for p in series.par],
        }

    def results(self, series_id: str) -> dict[str, Any]:
        """The ranking as ``oudler duplicate results`` prints it (every line, no person's own)."""
        series = self._series(series_id, public=False)
        return {
            "id": series.id,
            "key": series.key,
            "rows": self._lines(standings(self.rows.scores(series.id), len(series.boards))),
            "par": series.par_scores,
        }

    def _standings(self, series: SeriesInfo, player: str) -> tuple[list[Standing], Standing]:
        """The series' standings and this person's line (they finished it). Counted again when
        older than ``FRESH`` seconds, or when the person is not in them yet (they just finished):
        so one person's page costs a lookup, and storing a result costs no recount."""
        now = time.monotonic()
        counted = self._counted.get(series.id)
        if counted is None or now - counted[0] > FRESH or player not in counted[2]:
            ranked = standings(self.rows.scores(series.id), len(series.boards))
            counted = (now, ranked, {s.player: i for i, s in enumerate(ranked)})
            self._counted[series.id] = counted
            if len(self._counted) > 64:  # the open series and a few past ones
                oldest = min(self._counted, key=lambda k: self._counted[k][0])
                del self._counted[oldest]
        _, ranked, index = counted
        return ranked, ranked[index[player]]

    def _lines(self, lines: list[Standing], player: str | None = None) -> list[dict[str, Any]]:
        names = self.rows.names([s.player for s in lines])
        return [
            {
                "rank": s.rank,
                "name": names.get(s.player),
                "percent": s.percent,
                "scores": list(s.scores),
                "you": s.player == player,
            }
            for s in lines
        ]
