"""The Redis queue alone: decisions per second with 1 and 2 ``oudler worker`` processes, and the
queue's own latency (submission to the start of the work, and to the result seen by the web side).

    flock /tmp/oudler-bench.lock .venv/bin/python bench/queue_throughput.py \\
        [--level expert] [--decisions 60] [--workers 1 2] [--latency 200]

Decisions: ``--decisions`` positions from random deals (bidding, discard and card decisions
alike), submitted at once as jobs through ``RedisQueue``, the time from the first submission to
the last result; repeated for each worker count. Latency: ``--latency`` no-op jobs (a pause of
0 s) one after another on an idle worker. Only loopback; a throwaway ``redis-server``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time

from oudler.core import Match, Observation
from oudler.tables.computer import ComputerPlayers, bot_seed, lane_of, think
from oudler.tables.jobs import Job
from oudler.tables.redisqueue import RedisQueue
from processes import redis_server, workers


def positions(count: int, seed: int) -> list[tuple[int, Observation]]:
    """``count`` (seat, observation) pairs met along random play of random deals."""
    rng = random.Random(seed)
    out: list[tuple[int, Observation]] = []
    while len(out) < count:
        deal = Match(2, rng.randrange(2**40)).current
        while not deal.is_over and len(out) < count:
            seat = deal.to_move
            obs = deal.observation(seat)
            if rng.random() < 0.3:
                out.append((seat, obs))
            deal.act(think("random", rng.randrange(2**40), seat, obs), seat)
    return out


async def throughput(url: str, level: str, jobs: list[tuple[int, Observation]], tag: str) -> float:
    queue = RedisQueue(url)
    try:
        specs = [
            ComputerPlayers.think_job(f"{tag}:{i}", level, bot_seed(1, 0, seat, i), seat, obs)
            for i, (seat, obs) in enumerate(jobs)
        ]
        began = time.monotonic()
        for job in specs:
            await queue.submit(job)
        for job in specs:
            outcome = await queue.wait(job.id, 600)
            assert outcome is not None and outcome.ok, outcome
        return len(specs) / (time.monotonic() - began)
    finally:
        await queue.close()


async def latency(url: str, count: int, lane: str) -> tuple[list[float], list[float]]:
    queue = RedisQueue(url)
    starts, rounds = [], []
    try:
        for i in range(count):
            job = Job(f"latency:{lane}:{i}", "pause", (0.0,), lane)
            t0 = time.monotonic()
            await queue.submit(job)
            outcome = await queue.wait(job.id, 60)
            rounds.append(time.monotonic() - t0)
            assert outcome is not None and outcome.ok
            starts.append(outcome.wait)
    finally:
        await queue.close()
    return starts, rounds


def ms(values: list[float], q: int) -> float:
    return 1000 * statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--decisions", type=int, default=60)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--latency", type=int, default=200)
    args = parser.parse_args()
    if args.decisions > 2000 or args.latency > 5000 or max(args.workers) > 8:
        raise SystemExit("at most 2000 decisions, 5000 latency jobs and 8 workers")
    jobs = positions(args.decisions, seed=7)
    lane = lane_of(args.level)
    for count in args.workers:
        with redis_server() as url, workers(url, count, lane):
            if count == args.workers[0] and args.latency:
                starts, rounds = asyncio.run(latency(url, args.latency, lane))
                print(
                    f"queue latency ({lane} lane, {args.latency} no-op jobs, one at a time): "
                    f"submit to start p50 {ms(starts, 50):.1f} ms p95 {ms(starts, 95):.1f} ms; "
                    f"submit to result seen p50 {ms(rounds, 50):.1f} ms "
                    f"p95 {ms(rounds, 95):.1f} ms"
                )
            rate = asyncio.run(throughput(url, args.level, jobs, f"w{count}"))
            print(f"{args.level}: {count} worker process(es): {rate:.2f} decisions/s")


if __name__ == "__main__":
    main()
