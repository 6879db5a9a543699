"""Many tables at once, with clients that behave like the page: the person's action round trip and
a view's latency (p50 / p95) at N concurrent tables, with or without expert tables beside them.

    flock /tmp/oudler-bench.lock .venv/bin/python bench/web_tables.py --tables 100 --level random \\
        [--expert-tables 10] [--queue --workers 2] [--web 1] [--seconds 60] [--database-url URL]

Each table is one player (its own cookie) playing matches in a loop on loopback: while a computer
player is to act it waits the page's pace (700 ms) and asks ``step`` (again at once after a 202,
as the page does); on its own turn the person thinks 1.5 to 2.5 s, sends the action (the round trip
measured) and fetches the view (measured). Requests in the first ``--warm`` seconds are not
counted. The server is real ``oudler serve`` processes (``--web``) on a temporary SQLite file (or
``--database-url``), thinking in local worker processes, or with ``--queue`` on a throwaway
``redis-server`` and ``--workers`` ``oudler worker`` processes. The clients run in this process
(one asyncio loop), on the same machine: their own CPU use is part of what is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2

from processes import redis_server, web_servers, workers

PACE = 0.7  # the page's default pace, seconds
THINK = (1.5, 2.5)  # the person's time per decision, seconds


def choose(view: dict[str, Any], rng: random.Random) -> Any:
    legal = view["observation"]["legal"]
    if "bids" in legal:
        return rng.choice(legal["bids"])
    if "discard" in legal:
        d = legal["discard"]
        trumps = [c for c in d["allowed"] if c.startswith("T")]
        plain = [c for c in d["allowed"] if not c.startswith("T")]
        n = d["forced_trumps"]
        return rng.sample(trumps, n) + rng.sample(plain, d["count"] - n)
    if "chelem" in legal:
        return False
    if "poignee" in legal:
        return []
    return rng.choice(legal["cards"])


class Samples:
    def __init__(self, warm_until: float) -> None:
        self.warm_until = warm_until
        self.times: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)

    def add(self, group: str, what: str, began: float) -> None:
        if began >= self.warm_until:
            self.times[(group, what)].append(time.monotonic() - began)


async def table(
    base: str, group: str, level: str, seed: int, stop_at: float, samples: Samples
) -> None:
    rng = random.Random(seed)
    async with httpx2.AsyncClient(base_url=base, timeout=180) as http:

        async def post(path: str, body: dict[str, Any]) -> httpx2.Response:
            return await http.post(path, json=body)

        view: dict[str, Any] | None = None
        while time.monotonic() < stop_at:
            try:
                if view is None or view["status"] == "match_over":
                    r = await post("/api/matches", {"deals": 2, "level": level})
                    if r.status_code == 429:  # new-match limit: play on the last one's view
                        samples.errors[f"{group}:429"] += 1
                        await asyncio.sleep(5)
                        continue
                    view = r.json()
                    continue
                mid, version = view["id"], view["version"]
                if view["status"] == "computer_turn":
                    await asyncio.sleep(PACE)
                    began = time.monotonic()
                    r = await post(f"/api/matches/{mid}/step", {"version": version})
                    while r.status_code == 202:
                        r = await post(f"/api/matches/{mid}/step", {"version": version})
                    samples.add(group, "step", began)
                else:
                    await asyncio.sleep(rng.uniform(*THINK))
                    began = time.monotonic()
                    if view["status"] == "deal_over":
                        r = await post(f"/api/matches/{mid}/next-deal", {"version": version})
                    else:
                        body = {"version": version, "action": choose(view, rng)}
                        r = await post(f"/api/matches/{mid}/actions", body)
                    samples.add(group, "action", began)
                    began = time.monotonic()
                    g = await http.get(f"/api/matches/{mid}")
                    samples.add(group, "view", began)
                    if g.status_code != 200:
                        samples.errors[f"{group}:view {g.status_code}"] += 1
                if r.status_code == 200:
                    view = r.json()
                else:
                    samples.errors[f"{group}:{r.status_code}"] += 1
                    body = r.json()
                    view = body.get("view", view)
                    if r.status_code >= 500:
                        await asyncio.sleep(1)
            except httpx2.TransportError as e:
                samples.errors[f"{group}:{type(e).__name__}"] += 1
                await asyncio.sleep(1)


def decision_times(bases: list[str]) -> dict[str, tuple[int, float, float]]:
    """Per level, from the servers' /metrics: decisions, mean wait in the queue, mean think."""
    from prometheus_client.parser import text_string_to_metric_families

    sums: dict[tuple[str, str], float] = defaultdict(float)
    for base in bases:
        text = httpx2.get(base + "/metrics", timeout=30).text
        for family in text_string_to_metric_families(text):
            for s in family.samples:
                if s.name.startswith(("oudler_decision_wait_seconds_", "oudler_decision_seconds_")):
                    sums[(s.name, s.labels["level"])] += s.value
    out = {}
    for (name, level), count in sums.items():
        if name == "oudler_decision_wait_seconds_count" and count:
            wait = sums[("oudler_decision_wait_seconds_sum", level)] / count
            think = sums[("oudler_decision_seconds_sum", level)] / count
            out[level] = (int(count), wait, think)
    return out


async def run(args: argparse.Namespace, bases: list[str]) -> Samples:
    start = time.monotonic()
    ramp = min(10.0, args.warm / 2)
    samples = Samples(start + args.warm)
    stop_at = start + args.warm + args.seconds
    groups = [("quick", args.level)] * args.tables + [("expert", "expert")] * args.expert_tables
    rng = random.Random(2026)
    tasks = []
    for i, (group, level) in enumerate(groups):
        await asyncio.sleep(ramp / max(1, len(groups)))  # tables arrive over the ramp
        base = bases[i % len(bases)]
        tasks.append(asyncio.create_task(table(base, group, level, rng.randrange(2**32), stop_at,
                                               samples)))  # fmt: skip
    await asyncio.gather(*tasks)
    return samples


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else 0


def report(samples: Samples, args: argparse.Namespace, seconds: float) -> None:
    print(
        f"tables: {args.tables} {args.level} + {args.expert_tables} expert; web processes "
        f"{args.web}; "
        f"{f'queue ({args.queue_lanes}), {args.workers} workers' if args.queue else 'embedded'}"
        f"; measured {seconds:.0f} s"
    )
    print(f"{'group':8} {'what':7} {'count':>6} {'per s':>6} {'p50 ms':>8} {'p95 ms':>8}")
    for (group, what), values in sorted(samples.times.items()):
        print(
            f"{group:8} {what:7} {len(values):6d} {len(values) / seconds:6.1f} "
            f"{1000 * statistics.median(values):8.1f} {1000 * pct(values, 95):8.1f}"
        )
    if samples.errors:
        print("errors:", dict(samples.errors))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--level", default="random", choices=["random", "novice", "club"])
    parser.add_argument("--expert-tables", type=int, default=0)
    parser.add_argument("--web", type=int, default=1, help="oudler serve processes")
    parser.add_argument("--queue", action="store_true", help="Redis queue and oudler workers")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--queue-lanes", default="quick,expert", help="with --queue")
    parser.add_argument("--bot-processes", type=int, default=2, help="without --queue")
    parser.add_argument("--seconds", type=float, default=60, help="measured, after --warm")
    parser.add_argument("--warm", type=float, default=15)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    if not 0 < args.seconds <= 600 or args.tables + args.expert_tables > 1000:
        raise SystemExit("at most 600 s and 1000 tables")
    with ExitStack() as stack:
        db = args.database_url
        if db is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            db = f"sqlite:///{folder / 'bench.sqlite3'}"
        extra = ["--bot-processes", str(args.bot_processes)]
        if args.queue:
            url = stack.enter_context(redis_server())
            stack.enter_context(workers(url, args.workers))
            extra = ["--queue", url, "--queue-lanes", args.queue_lanes]
        bases = stack.enter_context(web_servers(db, args.web, *extra))
        samples = asyncio.run(run(args, bases))
        decisions = decision_times(bases)
    report(samples, args, args.seconds)
    for level, (count, wait, think) in sorted(decisions.items()):
        print(
            f"decisions {level}: {count}, mean wait in the queue {1000 * wait:.1f} ms, "
            f"mean think {1000 * think:.1f} ms"
        )


if __name__ == "__main__":
    main()
