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
from collections.abc import Callable
from typing import Any

from oudler.bots import make_bot, parse_level
from oudler.core.deal import Deal
from oudler.core.duplicate import (
    Board,
    Case,
    board_candidates,
    imposed_deal,
    series_boards,
    series_bot_seed,
)
from oudler.core.records import deal_to_record
from oudler.tables.computer import bot_seed
from oudler.tables.games import NEW_SEED, Conflict, MatchNotFound, Tables
from oudler.tables.series_after import After, Rankings
from oudler.tables.series_rows import (
    FREE,
    IMPOSED,
    Entry,
    SeriesInfo,
    SeriesRow,
    SeriesStore,
)
from oudler.tables.store import PERSON

log = logging.getLogger("oudler.series")

DEFAULT_LEVEL = "expert@w100"
"""The computer players of a series: the expert searching a fixed 100 worlds per decision, so
that its play is the same whatever the machine's load (and about as strong as at the table)."""
LEVEL_ENV = "OUDLER_SERIES_LEVEL"  # another reproducible level (tests use a cheap one)
# kind: (boards, open for, form). A weekly series opens on Monday 00:00 UTC.
KINDS = {
    "daily": (4, dt.timedelta(days=1), FREE),
    "weekly": (8, dt.timedelta(days=7), IMPOSED),
}
CLAIM_STALE = dt.timedelta(minutes=15)
"""A claim older than this was left by a process that died making its series (a weekly par at
the real level takes about a minute of a core): another process may take it over."""
CLAIM_POLL = 0.2  # seconds between a waiting process's looks at another's claim
PAGE = 50  # lines of a ranking page


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


def series_key(kind: str, day: dt.date) -> tuple[str, dt.date]:
    """The key of the series of ``kind`` that ``day`` (UTC) falls in, and its first day: the
    day itself, or for a weekly series the Monday of that week."""
    if kind == "weekly":
        monday = day - dt.timedelta(days=day.weekday())
        return f"weekly:{monday.isoformat()}", monday
    return daily_key(day), day


class SeriesStopped(Exception):
    """The server stops: a series being made is left (its claim dropped: another makes it)."""


Stopped = Callable[[], bool]


def _decide(
    deal: Deal, level: str, seed: int, seat: int, calls_imposed: bool, stopped: Stopped | None
) -> None:
    # As ``computer.think`` decides at the tables (without the poignée pause the tables add,
    # which only hides from a person how long a poignée question took).
    if stopped is not None and stopped():
        raise SeriesStopped("the server stops")
    bot = make_bot(level, seed=seed, calls_imposed=calls_imposed)
    bot.begin_deal(seat)
    deal.act(bot.act(deal.observation(seat)), seat)


def expert_case(
    board: Board, index: int, level: str, bots: int, stopped: Stopped | None = None
) -> Case | None:
    """The case of an imposed-taker board: the contract that four players of ``level`` bid to
    on it (seeded as the board's decisions at the tables), or None when all four pass."""
    dealer, seed = board
    deal = Deal.from_seed(seed, dealer)
    for call in range(4):
        seat = deal.to_move
        _decide(deal, level, bot_seed(bots, index, seat, call), seat, False, stopped)
    if deal.declarer is None or deal.contract is None:
        return None
    return deal.declarer, deal.contract


def imposed_boards(
    secret: bytes, key: str, count: int, level: str, bots: int, stopped: Stopped | None = None
) -> tuple[list[Board], list[Case]]:
    """The boards of an imposed-taker series and their cases: a candidate board where all four
    pass is replaced by the next one (``board_candidates``: the same for every process)."""
    boards: list[Board] = []
    cases: list[Case] = []
    for board in board_candidates(secret, key):
        case = expert_case(board, len(boards), level, bots, stopped)
        if case is None:
            continue
        boards.append(board)
        cases.append(case)
        if len(boards) == count:
            break
    return boards, cases


def play_par(
    boards: list[Board],
    level: str,
    bots: int,
    cases: list[Case] | None = None,
    stopped: Stopped | None = None,
) -> list[dict[str, Any]]:
    """The par: each board played by ``level`` in every seat, seeded as the series' tables are
    (``Game.seed_index``: actions so far in the board, counted after an imposed case's calls),
    South's score and the deal's record. With ``cases``, each board starts from its case."""
    out: list[dict[str, Any]] = []
    for index, board in enumerate(boards):
        if cases is None:
            deal = Deal.from_seed(board[1], board[0])
        else:
            deal = imposed_deal(board, cases[index])
        actions = 0
        while not deal.is_over:
            seat = deal.to_move
            seed = bot_seed(bots, index, seat, actions)
            _decide(deal, level, seed, seat, cases is not None, stopped)
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
        self._making_soon = threading.Lock()  # guards ``_soon``
        self._soon: set[str] = set()  # keys being made in the background
        self._stop = threading.Event()
        # standings counted once per FRESH seconds, read by every page (docs/duplicate.md)
        self.rankings = Rankings(self.rows)
        # review, history and export (``oudler.tables.series_after``)
        self.after = After(tables, self.rows, self._series, self._sync, self.rankings)

    def stop(self) -> None:
        """The server stops: a series being made in its background is left, not finished
        (minutes of a core at the real level) after the database is closed."""
        self._stop.set()

    # ------------------------------------------------------------------ making

    def make(self, kind: str = "daily", day: dt.date | None = None) -> SeriesInfo:
        """The series of ``kind`` that ``day`` (UTC) falls in, made if it does not exist yet.

        Made once, its par played once, even by several processes at once (two workers at
        midnight): the first to insert the key's row, a claim, makes it; the others wait for
        that row to be filled and read it. A claim left by a process that died while making
        it is taken over once it is ``CLAIM_STALE``."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind of series {kind!r}: daily or weekly")
        key, first = series_key(kind, day or dt.datetime.now(dt.UTC).date())
        with self._making:
            while True:
                found = self.rows.by_key(key)
                if found is not None and found.ready:
                    return found
                if found is None:
                    made = self._claim_and_make(kind, key, first)
                    if made is not None:
                        return made
                    continue  # another process claimed it first, or dropped ours
                assert found.created is not None
                stale = dt.datetime.now(dt.UTC) - CLAIM_STALE
                if found.created < stale and self.rows.drop_claim(found.id, stale):
                    log.warning("series %s: a stale claim dropped; made again", key)
                    continue
                if self._stop.wait(CLAIM_POLL):
                    raise SeriesStopped("the server stops")

    def _claim_and_make(self, kind: str, key: str, first: dt.date) -> SeriesInfo | None:
        """Claim ``key``; if the claim went in, deal the boards, play the par and fill the row.
        None when another process holds the key."""
        count, length, form = KINDS[kind]
        opens = dt.datetime.combine(first, dt.time(), dt.UTC)
        claim = SeriesRow(
            id=secrets.token_hex(6),
            key=key,
            kind=kind,
            form=form,
            level=self.level,
            opens=opens,
            closes=opens + length,
            boards=[],
            par=[],
            created=dt.datetime.now(dt.UTC),
        )
        series_id = claim.id
        if not self.rows.claim(claim):
            return None
        log.info("series %s (%s): dealing its boards and playing the par", series_id, key)
        try:
            secret = self.rows.secret()
            bots = series_bot_seed(secret, key)
            if form == IMPOSED:
                stopped = self._stop.is_set
                boards, cases = imposed_boards(secret, key, count, self.level, bots, stopped)
                par = play_par(boards, self.level, bots, cases, stopped)
                stored = [
                    [d, s, dc, c.notation] for (d, s), (dc, c) in zip(boards, cases, strict=True)
                ]
            else:
                boards = series_boards(secret, key, count)
                par = play_par(boards, self.level, bots, stopped=self._stop.is_set)
                stored = [[d, s] for d, s in boards]
            filled = self.rows.fill(series_id, stored, par)
        except BaseException:
            self.rows.drop_claim(series_id)  # others may make it
            raise
        if not filled:
            return None
        made = self.rows.get(series_id)
        assert made is not None and made.ready
        log.info("series %s (%s) ready", made.id, made.key)
        return made

    def make_soon(self, day: dt.date) -> bool:
        """The day's series and the week's, made in a thread of its own if they do not exist
        yet (their par costs seconds of a core: no request waits for it). True while the day's
        is being made."""
        wanted = []
        for kind in KINDS:
            found = self.rows.by_key(series_key(kind, day)[0])
            if found is None or not found.ready:
                wanted.append(kind)
        if not wanted:
            return False
        with self._making_soon:
            todo = [k for k in wanted if series_key(k, day)[0] not in self._soon]
            self._soon.update(series_key(k, day)[0] for k in todo)
        if todo:
            threading.Thread(
                target=self._make_quietly, args=(todo, day), name="oudler-series", daemon=True
            ).start()
        return "daily" in wanted

    def _make_quietly(self, kinds: list[str], day: dt.date) -> None:
        # One after the other, the day's first: it is the one people wait for.
        for kind in kinds:
            try:
                self.make(kind, day)
            except SeriesStopped:
                log.info("the %s series of %s: left as the server stops", kind, day)
                return
            except Exception:
                log.exception("the %s series of %s could not be made", kind, day)
            finally:
                with self._making_soon:
                    self._soon.discard(series_key(kind, day)[0])

    # ------------------------------------------------------------------ a person's play

    def _series(self, series_id: str, public: bool = True) -> SeriesInfo:
        """The series; for people (``public``) only once it has opened: before, its id tells
        nothing, as if it did not exist."""
        found = self.rows.get_ready(series_id) if len(series_id) <= 32 else None
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
        # The deals of the day first, then the week's.
        for s in sorted(self.rows.open_series(now), key=lambda s: list(KINDS).index(s.kind)):
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
                # The home page's "in progress: 2 of 4" (the person's own boards only).
                "done": 0 if entry is None else self.rows.boards_done(s.id, player),
            }
            if entry is not None and entry.finished:
                mine = self.rankings.own_line(s, player)
                if mine is not None:
                    ranked = len(self.rankings.counted(s).ranked)
                    line.update(percent=mine["percent"], rank=mine["rank"], players=ranked)
                    line["ranked"] = mine["ranked"]
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
        self.after.reviewable(series, player)  # finished, or closed for them: else not_finished
        offset, limit = max(0, offset), max(1, min(limit, 200))
        players, rows = self.rankings.page(series, player, offset, limit)
        return {
            "id": series.id,
            "key": series.key,
            "kind": series.kind,
            "form": series.form,
            "closes": series.closes.isoformat(),
            "closed": dt.datetime.now(dt.UTC) >= series.closes,
            "players": players,
            "offset": offset,
            "rows": rows,
            "par": series.par_scores,
            "par_records": [p["record"] for p in series.par],
        }

    def results(self, series_id: str) -> dict[str, Any]:
        """The ranking as ``oudler duplicate results`` prints it (every line, no person's own)."""
        series = self._series(series_id, public=False)
        return {
            "id": series.id,
            "key": series.key,
            "rows": self.rankings.lines(self.rankings.counted(series).ranked),
            "par": series.par_scores,
        }
