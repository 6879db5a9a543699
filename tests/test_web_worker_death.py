"""A process that dies mid-decision costs a retry, never a lost or doubled action (issue 10).

``test_web_queue`` kills a whole ``oudler worker``; here the processes that think die instead:

- the embedded queue's local expert process (``oudler serve`` without ``--queue``): the step
  finds its decision lost, a fresh pool runs it again;
- an ``oudler worker``'s thinking child process: the worker itself lives on, starts a fresh
  thinking process and runs the job again (arq's retry).

Each time the decision is stored once, and the view equals a fresh replay of the stored log.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from oudler.core import Match
from oudler.tables.jobs import LocalQueue
from redis_support import fresh_replay, oudler_worker, redis_server
from test_web_cancel import (
    CLOSE_SEED,
    expert_match,
    running_on_a_worker,
    step_to_the_end,
    until,
)
from test_web_queue import results
from test_web_support import stored_rows, temporary_database, web_client


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    with temporary_database(tmp_path) as url:
        yield url


def new_children(before: set[int]) -> list[int]:
    """This process's multiprocessing children that were not among ``before`` (other tests
    in this process may have left some)."""
    return [p.pid for p in multiprocessing.active_children() if p.pid and p.pid not in before]


def test_a_local_expert_process_killed_mid_decision_costs_a_retry(db: str) -> None:
    before = {p.pid for p in multiprocessing.active_children() if p.pid}
    with web_client(db, bot_processes=1, step_wait=0.1) as c:
        view = expert_match(c)
        mid = str(view["id"])
        queue = c.app.state.computers.queue  # type: ignore[attr-defined]
        assert isinstance(queue, LocalQueue)
        r = c.post(f"/api/matches/{mid}/step", json={"version": view["version"]})
        assert r.status_code == 202
        asyncio.run(until(lambda: queue.started(f"{mid}:0"), "the decision's start"))
        (thinker,) = new_children(before)  # the pool's one expert process
        os.kill(thinker, signal.SIGKILL)  # mid-decision

        failed: list[Any] = []

        async def reported() -> bool:
            r = c.get("/healthz")
            if r.status_code == 503:
                failed.append(r.json())
            return bool(failed)

        asyncio.run(until(reported, "the health check's report"))
        assert failed[0]["ok"] is False and failed[0]["database"] == "ok"
        assert failed[0]["computer_players"].startswith("unavailable (a worker process died")
        health = c.get("/healthz")  # the check started a fresh pool
        assert health.status_code == 200, health.text
        after = step_to_the_end(c, view)  # the page asks again until the decision is made
        assert len(new_children(before | {thinker})) == 1  # a fresh process thought it again
        assert c.get("/healthz").json()["computer_players"] == "ok"
    assert after["version"] == view["version"] + 1  # type: ignore[operator]
    assert after == fresh_replay(db, mid)
    assert [seq for seq, *_ in stored_rows(db, mid)] == [0]


def _pids() -> list[str]:
    return [p.name for p in Path("/proc").iterdir() if p.name.isdigit()]


def _stat(pid: str | int) -> list[str] | None:
    """/proc/PID/stat's fields after the command's name: state, ppid, ... (None: it ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return stat.rsplit(")", 1)[1].split()


PPID, NICE = 1, 16  # in ``_stat``'s fields


def thinking_process(worker_pid: int) -> int:
    """The ``oudler worker``'s expert lane child (a spawned multiprocessing process). Not its
    warmer, which may still be building the compiled search: that one runs at a lower priority
    (``oudler.tables.warming.NICENESS``) than the worker and its thinking process."""
    worker = _stat(worker_pid)
    assert worker is not None
    deadline = time.monotonic() + 30
    while True:
        # Every child whatever thread made it: /proc/PID/task/TID/children lists a child under
        # the thread that spawned it only.
        children = [p for p in _pids() if (_stat(p) or [None, None])[PPID] == str(worker_pid)]
        thinkers = []
        for pid in children:
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except FileNotFoundError:  # ended meanwhile
                continue
            fields = _stat(pid)
            if (
                b"spawn_main" in cmdline
                and b"resource_tracker" not in cmdline
                and fields is not None
                and fields[NICE] == worker[NICE]
            ):
                thinkers.append(int(pid))
        if len(thinkers) == 1 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert len(thinkers) == 1, children
    return thinkers[0]


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_a_workers_thinking_process_killed_mid_decision_costs_a_retry(db: str) -> None:
    with (
        redis_server() as queue_url,
        oudler_worker(queue_url, lanes="expert") as worker,
        web_client(db, queue_url=queue_url, step_wait=0.1) as c,
    ):
        view = expert_match(c)
        mid = str(view["id"])
        r = c.post(f"/api/matches/{mid}/step", json={"version": view["version"]})
        assert r.status_code == 202
        asyncio.run(until(running_on_a_worker(queue_url, f"{mid}:0"), "the decision's start"))
        thinker = thinking_process(worker.proc.pid)
        os.kill(thinker, signal.SIGKILL)  # mid-decision
        after = step_to_the_end(c, view)
        kept = results(queue_url)[f"{mid}:0"]
        # The worker lives on and thinks the next decisions too (the other computer players'
        # calls before the person's), in a fresh thinking process.
        nxt = after
        while nxt["status"] == "computer_turn":
            nxt = step_to_the_end(c, nxt)
        assert nxt["status"] == "your_turn"
        assert worker.proc.poll() is None
        assert thinking_process(worker.proc.pid) != thinker
        following = results(queue_url)[f"{mid}:1"]
        assert following.success and following.job_try == 1
        client = redis.Redis.from_url(queue_url)
        assert client.zcard("oudler:expert") == 0
        client.close()
    # The computer players' calls before South's (0 if South, seat 0, calls first).
    calls = (4 - Match(2, CLOSE_SEED).current.to_move) % 4
    assert calls >= 2  # the premise of ``following``
    assert kept.success and kept.job_try == 2  # run again, once
    assert after["version"] == view["version"] + 1  # type: ignore[operator]
    assert nxt["version"] == view["version"] + calls  # type: ignore[operator]
    assert nxt == fresh_replay(db, mid)
    assert [seq for seq, *_ in stored_rows(db, mid)] == list(range(calls))
