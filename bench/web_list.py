"""``GET /api/matches`` on a large database: the old query (steps counted over the whole actions
table, then joined) against the current one (each of the player's matches counted through the
primary key).

    .venv/bin/python bench/web_list.py [--actions 80000]

Fills a temporary SQLite file with 500 players, one match per 80 actions and ``--actions`` action
rows, then times one player's list both ways (median of 30, ms).
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import tempfile
import time
from typing import Any

from sqlalchemy import func, insert, or_, select

from oudler.tables.store import ActionRow, MatchRow, PlayerRow, Store


def old_list(store: Store, owner: str) -> list[Any]:
    counts = (
        select(ActionRow.match_id, func.count().label("n"))
        .where(or_(ActionRow.kind != "poignee", ActionRow.seat == 0))
        .group_by(ActionRow.match_id)
        .subquery()
    )
    stmt = (
        select(MatchRow, func.coalesce(counts.c.n, 0))
        .outerjoin(counts, counts.c.match_id == MatchRow.id)
        .where(MatchRow.owner == owner)
        .order_by(MatchRow.created.desc(), MatchRow.id)
        .limit(200)
    )
    with store.session() as s:
        return list(s.execute(stmt).all())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=80_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        store = Store(f"sqlite:///{d}/list.sqlite3")
        store.create_schema()
        now = dt.datetime.now(dt.UTC)
        matches = max(1, args.actions // 80)
        with store.engine.begin() as c:
            c.execute(insert(PlayerRow), [{"id": f"p{i:020d}", "created": now} for i in range(500)])
            c.execute(
                insert(MatchRow),
                [
                    {"id": f"m{i}", "owner": f"p{i % 500:020d}", "length": 2, "level": "random",
                     "seed": i, "created": now}
                    for i in range(matches)
                ],
            )  # fmt: skip
            c.execute(
                insert(ActionRow),
                [
                    {"match_id": f"m{i // 80}", "seq": i % 80, "seat": 1, "kind": "card",
                     "action": "H1", "created": now}
                    for i in range(args.actions)
                ],
            )  # fmt: skip
        owner = f"p{7:020d}"
        for name, run in (
            ("old: counted over all actions", lambda: old_list(store, owner)),
            ("now: per match, primary key", lambda: store.list_matches(owner)),
        ):
            times = []
            for _ in range(30):
                t0 = time.perf_counter()
                run()
                times.append((time.perf_counter() - t0) * 1000)
            print(f"{name}: median {statistics.median(times):.2f} ms ({args.actions} actions)")
        store.close()


if __name__ == "__main__":
    main()
