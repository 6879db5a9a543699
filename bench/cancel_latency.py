"""How soon a worker is free after its running expert search is cancelled.

    flock /tmp/oudler-bench.lock .venv/bin/python bench/cancel_latency.py [--repeat 20]

Each round: a coach search with a 60 s budget (a strong hand's first bid: no early pass) starts
on the expert lane's only worker; once it runs, it is cancelled and a no-op job (a pause of 0 s)
is submitted behind it. The figure is the time from the cancel to the start of the no-op job:
the search noticing its signal (between batches of worlds), ending, and the worker taking the
next job. Embedded (``LocalQueue`` with one worker process) and on Redis (one ``oudler worker
--lanes expert``; arq's abort is polled every 5 ms). Before cancellation stopped the search, this
was the rest of the search's budget.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from oudler.core import Match
from oudler.core import cards as C
from oudler.tables.coaching import HINT_JOB
from oudler.tables.jobs import EXPERT, Job, JobQueue, LocalQueue
from oudler.tables.redisqueue import RedisQueue
from processes import redis_server, workers

BUDGET_MS = 60_000


def strong_bid_seed() -> int:
    for seed in range(1000):
        deal = Match(2, seed).current
        hand = deal.observation(deal.to_move).hand
        if (hand & (C.TRUMPS | C.EXCUSE_BIT)).bit_count() >= 9 and (
            hand & C.OUDLERS
        ).bit_count() >= 2:
            return seed
    raise SystemExit("no strong hand found")


async def rounds(queue: JobQueue, started: object, repeat: int, tag: str) -> list[float]:
    deal = Match(2, strong_bid_seed()).current
    obs = deal.observation(deal.to_move)
    out = []
    for i in range(repeat):
        long = Job(f"{tag}:{i}:hint", HINT_JOB, (obs, i, BUDGET_MS, None), EXPERT)
        await queue.submit(long)
        deadline = time.monotonic() + 120
        while not await started(long.id):  # type: ignore[operator]
            assert time.monotonic() < deadline, "the search did not start"
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.2)  # well into the search
        t0 = time.time()
        await queue.cancel(long.id)
        nop = Job(f"{tag}:{i}:pause", "pause", (0.0,), EXPERT)
        await queue.submit(nop)
        outcome = await queue.wait(nop.id, 120)
        assert outcome is not None and outcome.ok, outcome
        out.append(outcome.began - t0)
    return out


def report(name: str, values: list[float]) -> None:
    q = statistics.quantiles(values, n=20, method="inclusive")
    print(
        f"{name}: cancel to the next job's start, median {1000 * statistics.median(values):.1f} ms,"
        f" p95 {1000 * q[18]:.1f} ms, max {1000 * max(values):.1f} ms ({len(values)} rounds)"
    )


async def embedded(repeat: int) -> list[float]:
    queue = LocalQueue(processes=1)
    try:
        return await rounds(queue, queue.started, repeat, "local")
    finally:
        queue.shutdown()


async def on_redis(url: str, repeat: int) -> list[float]:
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(url)
    queue = RedisQueue(url)

    async def started(job_id: str) -> bool:
        return bool(await client.exists(f"arq:in-progress:{job_id}", f"arq:retry:{job_id}") == 2)

    try:
        return await rounds(queue, started, repeat, "redis")
    finally:
        await queue.close()
        await client.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    report("embedded (1 worker process)", asyncio.run(embedded(args.repeat)))
    with redis_server() as url, workers(url, 1, lanes="expert"):
        report("Redis (1 oudler worker)", asyncio.run(on_redis(url, args.repeat)))


if __name__ == "__main__":
    main()
