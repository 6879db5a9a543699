"""Many tables at once, with clients that behave like the page: the person's action round trip and
a view's latency (p50 / p95) at N concurrent tables, with or without expert tables beside them.

    flock /tmp/oudler-bench.lock .venv/bin/python bench/web_tables.py --tables 100 --level random \\
        [--expert-tables 10] [--queue --workers 2 [--nice-workers 19]] [--web 1] [--seconds 60] \\
        [--views each|none] [--database-url URL]

Each table is one player (its own cookie, its own kept-alive HTTP/1.1 connection, as a browser
tab) playing matches in a loop on loopback: while a computer player is to act it waits the page's
pace (700 ms) and asks ``step`` (again at once after a 202, as the page does); on its own turn the
person thinks 1.5 to 2.5 s and sends the action (the round trip measured). With ``--views each``
(the default) it then fetches the view (measured), which the page itself does not (it takes the
view from the action's answer, and fetches one only when a match is opened): a view latency under
the same load, at the price of one request more per person action. Requests in the first
``--warm`` seconds are not counted. The server is real ``oudler serve`` processes (``--web``,
tables spread over them as a proxy would) on a temporary SQLite file (or ``--database-url``),
thinking in local worker processes, or with ``--queue`` on a throwaway ``redis-server`` and
``--workers`` ``oudler worker`` processes. The clients run in this process (one asyncio loop, a
small hand-written HTTP client), on the same machine: the CPU each side used over the measured
window (from /proc) is printed per request, with the load average at its start and end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2

from processes import cpu_seconds, redis_server, web_servers, workers

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
        self.requests = 0  # every request sent after the warm-up, 202s and creations included

    def add(self, group: str, what: str, began: float) -> None:
        if began >= self.warm_until:
            self.times[(group, what)].append(time.monotonic() - began)


class Closed(Exception):
    """The server closed the kept-alive connection before answering (its idle timeout)."""


class Connection:
    """One table's HTTP/1.1 connection, kept alive as a browser keeps its own: requests one at a
    time, the player cookie kept. Hand-written on asyncio streams so that the clients' own CPU,
    which shares the machine with the server, stays small (a JSON body with Content-Length is
    all the API answers)."""

    def __init__(self, host: str, port: int, samples: Samples) -> None:
        self.host, self.port = host, port
        self.samples = samples
        self.cookie = ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        if time.monotonic() >= self.samples.warm_until:
            self.samples.requests += 1
        payload = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Length: {len(payload)}\r\n"
            + ("Content-Type: application/json\r\n" if body is not None else "")
            + (f"Cookie: oudler_player={self.cookie}\r\n" if self.cookie else "")
            + "\r\n"
        ).encode()
        for attempt in range(2):
            reused = self.reader is not None and not self.reader.at_eof()
            if not reused:
                await self.close()
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            assert self.reader is not None and self.writer is not None
            try:
                self.writer.write(head + payload)
                return await self._answer(self.reader)
            except (Closed, ConnectionResetError, BrokenPipeError):
                # As a browser does: a kept-alive connection closed before any answer byte is
                # opened afresh and the request sent again (the server never saw it).
                await self.close()
                if not reused or attempt:
                    raise
        raise AssertionError("unreachable")

    async def _answer(self, reader: asyncio.StreamReader) -> tuple[int, Any]:
        try:
            raw = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as e:
            if not e.partial:
                raise Closed() from None
            raise
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length, close = 0, False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie" and value.strip().startswith("oudler_player="):
                self.cookie = value.strip().split(";", 1)[0].split("=", 1)[1]
            elif name == "connection" and value.strip().lower() == "close":
                close = True
        data = await reader.readexactly(length)
        if close:
            await self.close()
        return status, json.loads(data) if data else None


async def table(
    base: str, group: str, level: str, seed: int, stop_at: float, samples: Samples, views: str
) -> None:
    rng = random.Random(seed)
    host, port = base.removeprefix("http://").rsplit(":", 1)
    http = Connection(host, int(port), samples)
    view: dict[str, Any] | None = None
    try:
        while time.monotonic() < stop_at:
            try:
                if view is None or view["status"] == "match_over":
                    status, body = await http.request(
                        "POST", "/api/matches", {"deals": 2, "level": level}
                    )
                    if status == 429:  # new-match limit: play on the last one's view
                        samples.errors[f"{group}:429"] += 1
                        await asyncio.sleep(5)
                        continue
                    view = body
                    continue
                mid, version = view["id"], view["version"]
                if view["status"] == "computer_turn":
                    await asyncio.sleep(PACE)
                    began = time.monotonic()
                    step = f"/api/matches/{mid}/step"
                    status, body = await http.request("POST", step, {"version": version})
                    while status == 202:
                        status, body = await http.request("POST", step, {"version": version})
                    samples.add(group, "step", began)
                else:
                    await asyncio.sleep(rng.uniform(*THINK))
                    began = time.monotonic()
                    if view["status"] == "deal_over":
                        path, sent = f"/api/matches/{mid}/next-deal", {"version": version}
                    else:
                        path = f"/api/matches/{mid}/actions"
                        sent = {"version": version, "action": choose(view, rng)}
                    status, body = await http.request("POST", path, sent)
                    samples.add(group, "action", began)
                    if views == "each":
                        began = time.monotonic()
                        got, _ = await http.request("GET", f"/api/matches/{mid}")
                        samples.add(group, "view", began)
                        if got != 200:
                            samples.errors[f"{group}:view {got}"] += 1
                if status == 200:
                    view = body
                else:
                    samples.errors[f"{group}:{status}"] += 1
                    view = body.get("view", view)
                    if status >= 500:
                        await asyncio.sleep(1)
            except (OSError, asyncio.IncompleteReadError, Closed) as e:
                samples.errors[f"{group}:{type(e).__name__}"] += 1
                await asyncio.sleep(1)
    finally:
        await http.close()


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


class Usage:
    """CPU used by each side over the measured window, and the load average at its ends."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.load: list[tuple[float, float, float]] = []

    def snapshot(self, sign: float) -> None:
        now = cpu_seconds(os.getpid())
        now["clients"] = time.process_time()
        for k, v in now.items():
            self.cpu[k] = self.cpu.get(k, 0.0) + sign * v
        self.load.append(os.getloadavg())

    async def watch(self, warm_until: float, stop_at: float) -> None:
        await asyncio.sleep(warm_until - time.monotonic())
        self.snapshot(-1)
        await asyncio.sleep(stop_at - time.monotonic())
        self.snapshot(+1)


async def run(args: argparse.Namespace, bases: list[str]) -> tuple[Samples, Usage]:
    start = time.monotonic()
    ramp = min(10.0, args.warm / 2)
    samples = Samples(start + args.warm)
    stop_at = start + args.warm + args.seconds
    usage = Usage()
    watcher = asyncio.create_task(usage.watch(samples.warm_until, stop_at))
    groups = [("quick", args.level)] * args.tables + [("expert", "expert")] * args.expert_tables
    rng = random.Random(2026)
    tasks = []
    for i, (group, level) in enumerate(groups):
        await asyncio.sleep(ramp / max(1, len(groups)))  # tables arrive over the ramp
        base = bases[i % len(bases)]
        seed = rng.randrange(2**32)
        tasks.append(
            asyncio.create_task(table(base, group, level, seed, stop_at, samples, args.views))
        )
    await asyncio.gather(*tasks, watcher)
    return samples, usage


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else 0


def report(samples: Samples, usage: Usage, args: argparse.Namespace, seconds: float) -> None:
    queue = f"queue ({args.queue_lanes}), {args.workers} workers" if args.queue else "embedded"
    if args.queue and args.nice_workers:
        queue += f" at nice {args.nice_workers}"
    print(
        f"tables: {args.tables} {args.level} + {args.expert_tables} expert; web processes "
        f"{args.web}; {queue}; views {args.views}; measured {seconds:.0f} s"
    )
    print(f"{'group':8} {'what':7} {'count':>6} {'per s':>6} {'p50 ms':>8} {'p95 ms':>8}")
    for (group, what), values in sorted(samples.times.items()):
        print(
            f"{group:8} {what:7} {len(values):6d} {len(values) / seconds:6.1f} "
            f"{1000 * statistics.median(values):8.1f} {1000 * pct(values, 95):8.1f}"
        )
    if samples.errors:
        print("errors:", dict(samples.errors))
    n = max(1, samples.requests)
    cores = {k: v / seconds for k, v in usage.cpu.items() if v > 0}
    print(
        f"requests: {samples.requests} ({samples.requests / seconds:.0f}/s); CPU per request: "
        + ", ".join(f"{k} {1000 * v / n:.2f} ms" for k, v in usage.cpu.items() if v > 0)
    )
    print(
        "cores busy: "
        + ", ".join(f"{k} {v:.2f}" for k, v in cores.items())
        + f" (total {sum(cores.values()):.2f} of {os.cpu_count()})"
    )
    print("load average (1, 5, 15 min) at start / end: " + " / ".join(
        ", ".join(f"{x:.2f}" for x in load) for load in usage.load))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--level", default="random", choices=["random", "novice", "club"])
    parser.add_argument("--expert-tables", type=int, default=0)
    parser.add_argument("--web", type=int, default=1, help="oudler serve processes")
    parser.add_argument("--queue", action="store_true", help="Redis queue and oudler workers")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--nice-workers", type=int, default=0, help="run the workers at this niceness (e.g. 19)"
    )
    parser.add_argument(
        "--views",
        default="each",
        choices=["each", "none"],
        help="each: a view fetch after every person action (more than the page, which takes the "
        "view from the action's answer); none: the page's own sequence",
    )
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
            stack.enter_context(workers(url, args.workers, nice=args.nice_workers))
            extra = ["--queue", url, "--queue-lanes", args.queue_lanes]
        bases = stack.enter_context(web_servers(db, args.web, *extra))
        samples, usage = asyncio.run(run(args, bases))
        decisions = decision_times(bases)
    report(samples, usage, args, args.seconds)
    for level, (count, wait, think) in sorted(decisions.items()):
        print(
            f"decisions {level}: {count}, mean wait in the queue {1000 * wait:.1f} ms, "
            f"mean think {1000 * think:.1f} ms"
        )


if __name__ == "__main__":
    main()
