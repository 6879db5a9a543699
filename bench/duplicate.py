"""What a duplicate series costs (issue 30; docs/duplicate.md): the CPU to make one (its boards
and its par, played by the series' level), storing a board's result, and the ranking of a series
that many people played.

    .venv/bin/python bench/duplicate.py --database-url postgresql+psycopg://... \
        [--people 10000] [--level expert@w100] [--rankings 60] [--stores 300]

1. ``Series.make`` of a new day's series with ``--level`` (process CPU seconds and wall time);
2. ``--people`` finished entries with a result on every board, stored in bulk (players, matches,
   entries, results: what that many people playing the series leave behind), scores drawn
   around the par as South's scores are: a multiple of 3 when South is the declarer, of -1 when
   a defender, with ties;
3. a board's result stored (``SeriesStore.add_results``, as when a person's board ends), timed
   ``--stores`` times for people without one;
4. a ranking page as a person who finished asks for it (``Rankings.page``: 50 lines and their
   own, with the names), timed ``--rankings`` times warm (the standings counted less than
   ``FRESH`` seconds ago, as nearly every page finds them) and cold (counted again: the query of
   the ranked results and ``core.duplicate.standings``), and the query alone. The person's
   entry check before it (``After.reviewable``: their match loaded) is a view's cost, not
   the ranking's, and is left out: the bench's matches have no actions to load.

The default database is a temporary SQLite file; the issue's figure is on PostgreSQL.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from oudler.tables.computer import ComputerPlayers
from oudler.tables.games import Tables
from oudler.tables.series import Series
from oudler.tables.series_rows import EntryRow, ResultRow, SeriesInfo
from oudler.tables.store import AccountRow, MatchRow, PlayerRow, Store, utcnow


def figures(label: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"{label:<46} median {statistics.median(ms):9.3f} ms   p95 {p95:9.3f} ms   (n={len(ms)})")


def timed(action: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    action()
    return (time.perf_counter() - t0) * 1000


def score_near(par: int, rng: random.Random) -> int:
    """A South score: the declarer's is three times a defender's, in steps of ten points."""
    base = max(-150, min(150, round(rng.gauss(par / 3 if par else 0, 45) / 10) * 10))
    return 3 * base if rng.random() < 0.25 else -base


def fill(tables: Tables, series: SeriesInfo, people: int, rng: random.Random) -> list[str]:
    """``people`` finished entries of ``series`` with every board's result, in bulk."""
    now = utcnow()
    boards = len(series.boards)
    ids = [f"bench-{secrets.token_hex(8)}" for _ in range(people)]
    par = series.par_scores
    chunk = 2000
    for start in range(0, people, chunk):
        part = ids[start : start + chunk]
        with tables.store.writing() as s:
            s.execute(
                insert(PlayerRow),
                [{"id": p, "created": now, "name": f"P{start + i}"} for i, p in enumerate(part)],
            )
            # Accounts made before the series closed: ranked (docs/duplicate.md, "Ranked play").
            s.execute(
                insert(AccountRow),
                [{"name": p, "key": p, "player": p, "password": "-", "created": now} for p in part],
            )
            s.execute(
                insert(MatchRow),
                [
                    {
                        "id": p[-16:],
                        "owner": p,
                        "length": boards,
                        "level": series.level,
                        "seed": rng.randrange(1 << 40),
                        "first_dealer": series.boards[0][0],
                        "created": now,
                        "finished": now,
                    }
                    for p in part
                ],
            )
            s.execute(
                insert(EntryRow),
                [
                    {
                        "series_id": series.id,
                        "player": p,
                        "match_id": p[-16:],
                        "started": now,
                        "finished": now,
                    }
                    for p in part
                ],
            )
            s.execute(
                insert(ResultRow),
                [
                    {
                        "series_id": series.id,
                        "board": b,
                        "player": p,
                        "score": score_near(par[b], rng),
                    }
                    for p in part
                    for b in range(boards)
                ],
            )
    return ids


def run(url: str, people: int, level: str, rankings: int, stores: int) -> None:
    rng = random.Random(30)
    store = Store(url)
    store.create_schema()
    tables = Tables(store, ComputerPlayers())
    try:
        # A past day no other run of this bench used on this database (its series is open to read).
        day = dt.date(1990, 1, 1) + dt.timedelta(days=rng.randrange(10000))
        while tables.series.by_key(f"daily:{day.isoformat()}") is not None:
            day += dt.timedelta(days=1)
        series_of = Series(tables, level)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        made = series_of.make("daily", day)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        print(
            f"make a {len(made.boards)}-deal series at {level}: "
            f"{cpu:.1f} s of CPU, {wall:.1f} s wall ({cpu / len(made.boards):.1f} s a deal)"
        )
        t0 = time.perf_counter()
        ids = fill(tables, made, people, rng)
        print(f"{people} people's results stored in bulk in {time.perf_counter() - t0:.1f} s")

        # A board's result, as a person's board ends: people with an entry and no result yet.
        extra = fill(tables, made, stores, rng)
        with tables.store.writing() as s:
            s.query(ResultRow).filter(ResultRow.player.in_(extra)).delete()
        figures(
            "store a board's result (add_results)",
            [
                timed(lambda p=p: tables.series.add_results(made.id, p, {0: 30}, False))
                for p in extra
            ],
        )
        # A ranking page as a person who finished reads it.
        rankings_of = series_of.rankings
        asked = [ids[rng.randrange(people)] for _ in range(rankings)]
        rankings_of.page(made, asked[0], 0, 50)  # counted once, as a running server has them
        figures(
            f"ranking page of {people} people, warm",
            [timed(lambda p=p: rankings_of.page(made, p, 0, 50)) for p in asked],
        )

        def cold(p: str) -> None:
            rankings_of._counted.clear()
            rankings_of.page(made, p, 0, 50)

        n = max(5, rankings // 4)
        figures(
            f"ranking page of {people} people, cold",
            [timed(lambda p=p: cold(p)) for p in asked[:n]],
        )
        raw = [timed(lambda: tables.series.scores(made.id, made.closes)) for _ in range(n)]
        figures("  of which the query (SeriesStore.scores)", raw)
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--people", type=int, default=10_000)
    parser.add_argument("--level", default="expert@w100")
    parser.add_argument("--rankings", type=int, default=60)
    parser.add_argument("--stores", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        run(url, args.people, args.level, args.rankings, args.stores)


if __name__ == "__main__":
    main()
