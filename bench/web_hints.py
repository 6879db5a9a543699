"""Hint latency through the real HTTP API: ``POST /api/matches/{id}/hint`` timed at every decision
of the person in learning matches, against a fresh server started by the ``oudler serve`` command
itself (its own process: uvicorn, the compiled search warmed up at its start, computer players and
hints in its worker processes) on a temporary SQLite file.

    .venv/bin/python bench/web_hints.py [--deals 4] [--matches 1] [--level club] [--processes 2]

The person follows every hint; each decision's hint is asked twice (the second answer is the stored
one). ``--matches`` matches are played one after the other on the same server (more bids: one a
deal). Prints p50 / p95 / max of the first asks per kind and overall, and of the second asks (ms).
The very first hint, asked as soon as the person's first turn comes on the fresh server (its worker
processes just started), is counted with the others and printed on its own too. ``--embedded``
serves the app from a thread of this process instead (``create_app`` as ``oudler serve`` calls it).
With ``--analysis``, after each deal the Analysis tab's request is polled until the background
analysis is stored, and the time from the end of the deal is printed (the next deal waits).
The issue's target: p95 of the first asks at most 1000 ms. Run under
``flock /tmp/oudler-bench.lock`` on a shared machine and quote ``uptime`` beside the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2

from oudler.tables.coaching import HERE_AFTER
from oudler.web.app import create_app
from oudler.web.background import serve_in_thread


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def analysis_time(client: httpx2.Client, mid: str, deal: int) -> tuple[float, int]:
    """Seconds from the first request for a deal's analysis until it is stored, and how many of
    the person's decisions it judged (forced cards are counted, not listed)."""
    began = time.perf_counter()
    while True:
        r = client.get(f"/api/matches/{mid}/deals/{deal}/analysis")
        assert r.status_code == 200, r.text
        body = r.json()
        if body["status"] == "done":
            return time.perf_counter() - began, len(body["analysis"]["decisions"])
        assert body["status"] == "running", body
        time.sleep(0.2)


def scored(view: dict[str, Any]) -> int:
    """Deals played to a score (void ones, all passed, are dealt again and not counted)."""
    return sum(row["void"] is None for row in view["sheet"])


def line(name: str, xs: list[float]) -> str:
    ms = [x * 1000 for x in xs]
    return (
        f"{name:>8}  n={len(ms):4d}  p50={pct(ms, 0.5):7.0f}  p95={pct(ms, 0.95):7.0f}  "
        f"max={max(ms):7.0f}"
    )


def hint_counts(client: httpx2.Client) -> dict[str, int]:
    """The server's hints so far by where they came from (``oudler_hints_total``: ok, by a
    worker; here, by the web process, no worker having begun it; stored...)."""
    out: dict[str, int] = {}
    for row in client.get("/metrics").text.splitlines():
        if row.startswith("oudler_hints_total{"):
            labels, value = row.rsplit(" ", 1)
            out[labels.split('outcome="')[1].split('"')[0]] = int(float(value))
    return out


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def serve_command(url: str, processes: int, log: bool = False) -> Iterator[str]:
    """``oudler serve`` in a process of its own, as a person starts it; yields its base URL once
    it answers (the time that took is printed). ``log``: its log on this one's standard error."""
    script = Path(sys.executable).parent / "oudler"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "oudler"]
    port = free_port()
    began = time.perf_counter()
    server = subprocess.Popen(
        [*command, "serve", "--port", str(port), "--database-url", url,
         "--bot-processes", str(processes)],
        stdout=subprocess.DEVNULL,
        stderr=None if log else subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"oudler serve ended (exit code {server.returncode})")
            with contextlib.suppress(httpx2.TransportError):
                if httpx2.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            if time.perf_counter() - began > 120:
                raise RuntimeError("oudler serve did not answer within 120 s")
            time.sleep(0.05)
        print(f"oudler serve answered {time.perf_counter() - began:.2f} s after its start")
        yield base
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=4, help="scored deals a match (at most 8)")
    ap.add_argument("--matches", type=int, default=1, help="matches, one after the other")
    ap.add_argument("--level", default="club")
    ap.add_argument("--processes", type=int, default=2, help="worker processes (as serve)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--analysis", action="store_true", help="time each deal's analysis too")
    ap.add_argument("--embedded", action="store_true", help="serve from a thread of this process")
    ap.add_argument("--server-log", action="store_true", help="show oudler serve's log")
    args = ap.parse_args()
    first: dict[str, list[float]] = defaultdict(list)
    again: list[float] = []
    analyses: list[tuple[float, int]] = []
    fresh: tuple[str, float] | None = None
    fresh_from: dict[str, int] = {}
    slow: list[tuple[float, str, bool, int]] = []  # seconds, kind, computed here, worlds
    computed_here = 0
    counts: dict[str, int] = {}
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        url = f"sqlite:///{tmp}/bench.sqlite3"
        if args.embedded:
            # as `oudler serve` creates it: the compiled search built or loaded at start
            app = create_app(url, bot_processes=args.processes, warm_kernel=True)
            base = stack.enter_context(serve_in_thread(app))
        else:
            base = stack.enter_context(serve_command(url, args.processes, args.server_log))
        with httpx2.Client(base_url=base, timeout=120) as client:

            def post(path: str, body: dict[str, Any]) -> Any:
                r = client.post(path, json=body)
                assert r.status_code in (200, 201), r.text
                return r.json()

            length = 4 if args.deals <= 4 else 8
            for m in range(args.matches):
                v = post(
                    "/api/matches",
                    {"deals": length, "level": args.level, "seed": args.seed + m, "learning": True},
                )
                mid = v["id"]
                while v["status"] != "match_over" and scored(v) < args.deals:
                    if v["status"] == "computer_turn":
                        v = post(f"/api/matches/{mid}/step", {"version": v["version"]})
                    elif v["status"] == "deal_over":
                        if args.analysis:
                            analyses.append(analysis_time(client, mid, v["deal_number"]))
                        v = post(f"/api/matches/{mid}/next-deal", {"version": v["version"]})
                    else:
                        began = time.perf_counter()
                        hint = post(f"/api/matches/{mid}/hint", {"version": v["version"]})["hint"]
                        took = time.perf_counter() - began
                        first[hint["kind"]].append(took)
                        here = hint_counts(client).get("here", 0)
                        slow.append((took, hint["kind"], here > computed_here, hint["worlds"]))
                        computed_here = here
                        if fresh is None:
                            fresh = (hint["kind"], took)
                            fresh_from = hint_counts(client)
                        began = time.perf_counter()
                        post(f"/api/matches/{mid}/hint", {"version": v["version"]})
                        again.append(time.perf_counter() - began)
                        v = post(
                            f"/api/matches/{mid}/actions",
                            {"version": v["version"], "action": hint["action"]},
                        )
            counts = hint_counts(client)
    every = [x for xs in first.values() for x in xs]
    print(f"hint latency through HTTP, ms ({args.matches} x {args.deals} deals, {args.level}, "
          f"{args.processes} processes)")  # fmt: skip
    if fresh is not None:
        where = "the web process" if fresh_from.get("here") else "a worker"
        print(f"first hint of the fresh server: {fresh[0]} {fresh[1] * 1000:.0f} ms (by {where})")
    for kind, xs in sorted(first.items()):
        print(line(kind, xs))
    print(line("all", every))
    if fresh is not None and len(first[fresh[0]]) > 1:
        # the same kind without the fresh server's first hint (its workers were starting)
        print(line(fresh[0] + "*", first[fresh[0]][1:]))
    print(line("stored", again))
    print(
        f"hints computed by a worker: {counts.get('ok', 0)}, by the web process (no worker up "
        f"yet, or none had begun it after {HERE_AFTER} s): {counts.get('here', 0)}"
    )
    for took, kind, by_web, worlds in sorted(slow, reverse=True)[:5]:
        where = "the web process" if by_web else "a worker"
        print(f"slow: {kind} {took * 1000:.0f} ms, {worlds} worlds, by {where}")
    for seconds, decisions in analyses:
        print(f"analysis: {decisions:3d} decisions judged, stored after {seconds:5.1f} s")


if __name__ == "__main__":
    main()
