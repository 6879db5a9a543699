"""What serving several web processes from one database costs: a view of a match, served from the
process's cache after checking the stored version (one index lookup), or replayed from the stored
actions every time (no cache).

    .venv/bin/python bench/web_cache.py [--database-url URL] [--repeat 200]

Plays one match of each length (random level) to its end, then times ``Tables.view`` of it both
ways (in-process, no HTTP), printing the median and p95 in milliseconds. The default database is
a temporary SQLite file; pass a PostgreSQL URL to measure there (the tables are created in it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from oudler.tables.computer import ComputerPlayers
from oudler.tables.games import Tables
from oudler.tables.store import Store


def choose(view: dict[str, Any], rng: random.Random) -> Any:
    legal = view["observation"]["legal"]
    if "bids" in legal:
        return legal["bids"][-1] if rng.random() < 0.5 else "pass"
    if "discard" in legal:
        d = legal["discard"]
        trumps = [c for c in d["allowed"] if c.startswith("T")]
        plain = [c for c in d["allowed"] if not c.startswith("T")]
        return rng.sample(trumps, d["forced_trumps"]) + rng.sample(
            plain, d["count"] - d["forced_trumps"]
        )
    if "chelem" in legal:
        return False
    if "poignee" in legal:
        return []
    return rng.choice(legal["cards"])


def advance(tables: Tables, player: str, view: dict[str, Any], rng: random.Random) -> Any:
    mid, version = view["id"], view["version"]
    if view["status"] == "computer_turn":
        return tables.step(player, mid, version)
    if view["status"] == "deal_over":
        return tables.next_deal(player, mid, version)
    return tables.act(player, mid, version, choose(view, rng))


def timed(tables: Tables, player: str, mid: str, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        tables.view(player, mid)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        store = Store(url)
        store.create_schema()
        cached = Tables(store, ComputerPlayers())
        uncached = Tables(store, ComputerPlayers(), cache_size=0)
        rng = random.Random(10)
        print(f"database: {url.split('://')[0]}; view time in ms, median / p95 of {args.repeat}")
        print(f"{'deals':>5} {'actions':>7}  {'checked cache':>15}  {'replay':>15}")
        for deals in (2, 4, 8):
            player = f"bench-player-{deals}-{rng.randrange(10**9)}"
            view = cached.create(player, deals=deals, level="random", seed=deals)
            mid = view["id"]
            while view["status"] != "match_over":
                view = advance(cached, player, view, rng)
            n = store.action_count(mid)
            c50, c95 = timed(cached, player, mid, args.repeat)
            u50, u95 = timed(uncached, player, mid, args.repeat)
            print(f"{deals:>5} {n:>7}  {c50:6.3f} / {c95:6.3f}  {u50:6.3f} / {u95:6.3f}")
        store.close()


if __name__ == "__main__":
    main()
