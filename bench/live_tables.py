"""Live tables with friends under load: N tables of four people, each person on the table's
WebSocket (``/api/matches/<id>/live``) and acting at a human pace; the time from a person's
action being sent to its view being pushed to each of the other three (p50 / p95), the action's
round trip, and the CPU of the web process.

    flock /tmp/oudler-bench.lock nice -n 19 .venv/bin/python bench/live_tables.py --tables 250 \\
        [--seconds 60] [--warm 20] [--web 1] [--live] [--database-url URL] [--profile FILE]

Each table is made by one person with three open seats, and three more people sit by the
invitations (each its own cookie, its own kept-alive HTTP/1.1 connection and its own WebSocket,
as four browser tabs). On their turn a person thinks 1 to 3 s and sends the action (the dealer's
right after a deal: next deal). A push is counted for each of the other three people when their
socket brings a view at the action's version or later; pushes and actions in the first
``--warm`` seconds are not counted. The server is ``--web`` real ``oudler serve`` processes (the
tables' people spread over them as a proxy would; ``--live`` joins them with a throwaway
``redis-server``) on a temporary SQLite file (or ``--database-url``); the clients run in this
process on the same machine, and the CPU of each side over the measured window is printed.

The tables come once the web processes have loaded the expert's compiled search (``oudler
serve`` warms it up at its start, which would take CPU from the first tables).

``--profile FILE``: py-spy (``pip install py-spy``) samples the first web process over the
measured window (the thread holding the GIL) and writes the collapsed stacks to FILE; the
functions in the most samples are printed. A rough guide only: with many threads, whoever holds
the GIL when it changes hands is oversampled.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from processes import redis_server, web_servers
from web_tables import Connection, Samples, Usage, choose, pct

THINK = (1.0, 3.0)  # a person's time per decision, seconds
SEATS = ["me", "person", "person", "person"]


class Table:
    """Four people at one table: who sent which version when, and what each has been pushed."""

    def __init__(self, samples: Samples) -> None:
        self.samples = samples
        self.sent: dict[int, tuple[float, int]] = {}  # version -> (sent at, by seat)
        self.seen = [0, 0, 0, 0]  # per seat: the latest version pushed to it
        self.views: list[dict[str, Any]] = [{}, {}, {}, {}]
        self.changed = [asyncio.Event() for _ in range(4)]

    def pushed(self, seat: int, view: dict[str, Any]) -> None:
        now = time.monotonic()
        version = view["version"]
        for v in range(self.seen[seat] + 1, version + 1):
            sent = self.sent.get(v)
            if sent is not None and sent[1] != seat and sent[0] >= self.samples.warm_until:
                self.samples.times[("push", "others")].append(now - sent[0])
        self.seen[seat] = max(self.seen[seat], version)
        self.views[seat] = view
        self.changed[seat].set()


async def listen(url: str, cookie: str, table: Table, seat: int, stop_at: float) -> None:
    async with connect(url, additional_headers={"Cookie": f"oudler_player={cookie}"}) as ws:
        while time.monotonic() < stop_at:
            try:
                message = await asyncio.wait_for(ws.recv(), stop_at - time.monotonic())
            except TimeoutError:
                return
            table.pushed(seat, json.loads(message))


async def act(
    http: Connection, table: Table, seat: int, rng: random.Random, stop_at: float
) -> None:
    samples = table.samples
    while time.monotonic() < stop_at:
        view = table.views[seat]
        mine = view.get("status") == "your_turn"
        dealer_next = view.get("status") == "deal_over" and seat == 0
        if not (mine or dealer_next):
            table.changed[seat].clear()
            try:
                await asyncio.wait_for(
                    table.changed[seat].wait(), max(0.01, stop_at - time.monotonic())
                )
            except TimeoutError:
                return
            continue
        await asyncio.sleep(rng.uniform(*THINK))
        mid, version = view["id"], view["version"]
        if mine:
            path, body = (
                f"/api/matches/{mid}/actions",
                {"version": version, "action": choose(view, rng)},
            )
        else:
            path, body = f"/api/matches/{mid}/next-deal", {"version": version}
        began = time.monotonic()
        table.sent[version + 1] = (began, seat)
        status, answer = await http.request("POST", path, body)
        samples.add("person", "action", began)
        if status != 200:
            samples.errors[str(status)] += 1
            table.sent.pop(version + 1, None)
        if isinstance(answer, dict) and "version" in (answer.get("view") or answer):
            got = answer.get("view") or answer
            if got["version"] > table.views[seat].get("version", -1):
                table.views[seat] = got


async def one_table(bases: list[str], index: int, samples: Samples, stop_at: float) -> None:
    rng = random.Random(index)
    people = []
    for seat in range(4):
        host, port = bases[(index * 4 + seat) % len(bases)].removeprefix("http://").rsplit(":", 1)
        people.append(Connection(host, int(port), samples))
    await people[0].request("GET", "/api/matches")  # the cookie first
    status, view = await people[0].request(
        "POST", "/api/matches", {"deals": 8, "level": "random", "seats": SEATS}
    )
    assert status == 201, view
    for invite in view["invites"]:
        friend = people[invite["seat"]]
        await friend.request("GET", "/api/matches")
        status, _ = await friend.request(
            "POST", "/api/join/" + invite["url"].removeprefix("/join/")
        )
        assert status == 200
    table = Table(samples)
    tasks = []
    for seat, http in enumerate(people):
        ws = f"ws://{http.host}:{http.port}/api/matches/{view['id']}/live"
        tasks.append(asyncio.create_task(listen(ws, http.cookie, table, seat, stop_at)))
        tasks.append(asyncio.create_task(act(http, table, seat, rng, stop_at)))
    try:
        await asyncio.gather(*tasks)
    finally:
        for http in people:
            await http.close()


def web_pid() -> int:
    """The first ``oudler serve`` process this benchmark started."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                cmd = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if int(stat[1]) == os.getpid() and b"serve" in cmd:
                found.append(int(entry.name))
    return min(found)


async def profile(path: str, warm_until: float, seconds: float) -> None:
    """py-spy on the first web process over the measured window (collapsed stacks)."""
    exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    await asyncio.sleep(warm_until - time.monotonic())
    command = [exe, "record", "--pid", str(web_pid()), "--duration", str(int(seconds))]
    command += ["--rate", "200", "--format", "raw", "--gil", "--nonblocking", "--output", path]
    proc = await asyncio.create_subprocess_exec(
        *command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    await proc.wait()


def frame_name(frame: str) -> str:
    """``func (path/to/file.py:12)`` -> ``func (file.py)``."""
    name, _, where = frame.partition(" (")
    return f"{name} ({where.rsplit('/', 1)[-1].split(':')[0].rstrip(')')})" if where else name


def hot_spots(path: str, top: int = 25) -> None:
    """The functions in the most sampled stacks (each counted once a stack), and the leaves."""
    inclusive: Counter[str] = Counter()
    leaves: Counter[str] = Counter()
    total = 0
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        n = int(count)
        frames = [frame_name(f) for f in stack.split(";")]
        total += n
        for f in set(frames):
            inclusive[f] += n
        leaves[frames[-1]] += n
    print(f"profile of the web process: {total} samples ({path})")
    for title, counter in (("in the stack", inclusive), ("on top", leaves)):
        print(f"  {title}:")
        for f, n in counter.most_common(top):
            print(f"    {100 * n / total:5.1f}%  {f}")


async def warmed(bases: list[str], timeout: float = 300) -> None:
    """Until no web process says that its computer players are still warming up."""
    deadline = time.monotonic() + timeout
    for base in bases:
        host, port = base.removeprefix("http://").rsplit(":", 1)
        http = Connection(host, int(port), Samples(0.0))
        try:
            while time.monotonic() < deadline:
                _, answer = await http.request("GET", "/api/computer-players")
                if answer.get("warming") is None:
                    break
                await asyncio.sleep(1.0)
        finally:
            await http.close()


async def run(args: argparse.Namespace, bases: list[str]) -> tuple[Samples, Usage]:
    await warmed(bases)
    start = time.monotonic()
    samples = Samples(start + args.warm)
    stop_at = start + args.warm + args.seconds
    usage = Usage()
    watcher = asyncio.create_task(usage.watch(samples.warm_until, stop_at))
    if args.profile:
        spy = asyncio.create_task(profile(args.profile, samples.warm_until, args.seconds))
    ramp = args.warm / 2
    tasks = []
    for i in range(args.tables):
        await asyncio.sleep(ramp / args.tables)  # tables arrive over the first half of the warm-up
        tasks.append(asyncio.create_task(one_table(bases, i, samples, stop_at)))
    results = await asyncio.gather(*tasks, watcher, return_exceptions=True)
    if args.profile:
        await spy
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        samples.errors[f"tables failed ({type(failed[0]).__name__})"] += len(failed)
    return samples, usage


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warm", type=float, default=20)
    parser.add_argument("--web", type=int, default=1, help="oudler serve processes")
    parser.add_argument("--live", action="store_true", help="join them with redis-server")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--profile", default=None, help="py-spy's stacks of the web process")
    args = parser.parse_args()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        url = args.database_url or f"sqlite:///{folder / 'bench.sqlite3'}"
        extra: list[str] = ["--bot-processes", "0"]
        if args.live or args.web > 1:
            extra += ["--live", stack.enter_context(redis_server())]
        bases = stack.enter_context(web_servers(url, args.web, *extra))
        samples, usage = asyncio.run(run(args, bases))
    seconds = args.seconds
    print(
        f"tables: {args.tables} of four people; web processes {args.web}; measured {seconds:.0f} s"
    )
    print(f"{'what':16} {'count':>7} {'per s':>7} {'p50 ms':>8} {'p95 ms':>8}")
    for (group, what), values in sorted(samples.times.items()):
        print(
            f"{group + ' ' + what:16} {len(values):7d} {len(values) / seconds:7.1f} "
            f"{1000 * statistics.median(values):8.1f} {1000 * pct(values, 95):8.1f}"
        )
    if samples.errors:
        print("errors:", dict(samples.errors))
    cores = {k: v / seconds for k, v in usage.cpu.items() if v > 0}
    print("cores busy: " + ", ".join(f"{k} {v:.2f}" for k, v in cores.items()))
    print("load average (1, 5, 15 min) at start / end: " + " / ".join(
        ", ".join(f"{x:.2f}" for x in load) for load in usage.load))  # fmt: skip
    print(f"({os.cpu_count()} cores)")
    if args.profile:
        hot_spots(args.profile)


if __name__ == "__main__":
    main()
