"""Helpers for the tests on real processes (no tests here): a ``redis-server`` on a free loopback
port, real ``oudler worker`` and ``oudler serve`` processes, and one match played alternately
through several web processes, each view checked against a fresh replay.

Without ``redis-server`` the tests skip with a clear message, except under ``CI=true``, where they
must run (``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
import redis
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from oudler.tables.computer import ComputerPlayers
from oudler.tables.games import Tables
from oudler.tables.store import MatchRow, Store
from test_web_support import choose_action

View = dict[str, Any]

OUDLER = str(Path(sys.executable).parent / "oudler")
READY_TIMEOUT = 120.0  # a worker builds (at a low priority) or loads the search kernel on its start


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def redis_server(port: int | None = None) -> Iterator[str]:
    """A throwaway Redis on a loopback port (a free one by default), nothing saved to disk;
    yields its URL."""
    exe = shutil.which("redis-server")
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is not installed (.ci/run installs the Debian package)")
        pytest.skip("redis-server is not installed: apt-get install redis-server to run these")
    port = port or free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--daemonize", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                assert proc.poll() is None, "redis-server exited"
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
        client.close()
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class Process:
    def __init__(self, proc: subprocess.Popen[str], name: str) -> None:
        self.proc = proc
        self.name = name

    def kill(self) -> None:
        """SIGKILL: no cleanup at all, as when a machine fails."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def workers_warming(url: str) -> bool:
    """Whether a worker says it is still building the expert's compiled search."""
    client = redis.Redis.from_url(url)
    try:
        return bool(client.zcount("oudler:warming", time.time(), "+inf"))
    finally:
        client.close()


def worker_listening(url: str, lane: str) -> bool:
    """Whether a worker of ``lane`` marked itself alive on the queue."""
    client = redis.Redis.from_url(url)
    try:
        return bool(client.exists(f"oudler:{lane}:health-check"))
    finally:
        client.close()


@contextmanager
def oudler_worker(url: str, *extra: str, lanes: str = "quick,expert") -> Iterator[Process]:
    """A real ``oudler worker`` process; yields once it listens on its lanes and its expert's
    compiled search is ready (as a long-running worker's is)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [OUDLER, "worker", "--queue", url, "--lanes", lanes, *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    worker = Process(proc, "worker")
    try:
        deadline = time.monotonic() + READY_TIMEOUT
        while not all(worker_listening(url, lane) for lane in lanes.split(",")) or (
            "expert" in lanes and workers_warming(url)
        ):
            if proc.poll() is not None:
                assert proc.stderr is not None
                raise AssertionError(f"oudler worker exited: {proc.stderr.read()}")
            assert time.monotonic() < deadline, "oudler worker did not start"
            time.sleep(0.1)
        yield worker
    finally:
        worker.stop()


# A web process served as ``oudler serve`` serves it, but from ``create_app`` options the
# command does not take (as JSON: argv[3]).
SERVE_APP = """
import json, sys, uvicorn
from oudler.web.app import create_app
from oudler.web.serving import uvicorn_config
app = create_app(sys.argv[1], **json.loads(sys.argv[3]))
config = uvicorn_config(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
uvicorn.Server(config).run()
"""


@contextmanager
def oudler_serve(
    db: str, *extra: str, app: dict[str, Any] | None = None
) -> Iterator[tuple[str, Process]]:
    """A real ``oudler serve`` process on a free loopback port, ``extra`` its options; yields its
    base URL. ``app``: instead, a web process serving ``create_app(db, bot_processes=0, **app)``,
    for options the command does not take (``presence_ttl``, ``computer_pause``; and no warm-up
    of the expert's compiled search, which ``oudler serve`` always starts)."""
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if app is None:
        argv = [OUDLER, "serve", "--port", str(port), "--database-url", db, "--bot-processes", "0",
                *extra]  # fmt: skip
    else:
        assert not extra, "extra is the command's options; app the create_app ones"
        argv = [sys.executable, "-c", SERVE_APP, db, str(port),
                json.dumps({"bot_processes": 0, **app})]  # fmt: skip
    proc = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env
    )
    server = Process(proc, "serve")
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx2.get(base + "/healthz", timeout=5)
                break
            except httpx2.TransportError:
                if proc.poll() is not None:
                    assert proc.stderr is not None
                    raise AssertionError(f"oudler serve exited: {proc.stderr.read()}") from None
                assert time.monotonic() < deadline, "oudler serve did not start"
                time.sleep(0.1)
        yield base, server
    finally:
        server.stop()


def fresh_replay(db: str, match_id: str) -> View:
    """The match's view as a new server would build it: straight from the stored actions."""
    store = Store(db)
    engine = create_engine(db)
    try:
        with Session(engine) as s:
            owner = s.scalars(select(MatchRow.owner).where(MatchRow.id == match_id)).one()
        return Tables(store, ComputerPlayers()).view(owner, match_id)
    finally:
        engine.dispose()
        store.close()


def move(http: httpx2.Client, base: str, view: View, rng: random.Random) -> httpx2.Response:
    """The request that moves the match on, as the page sends it (a 202 is asked again)."""
    mid, version, status = view["id"], view["version"], view["status"]
    if status == "computer_turn":
        r = http.post(f"{base}/api/matches/{mid}/step", json={"version": version})
        while r.status_code == 202:
            assert r.json()["version"] == version
            r = http.post(f"{base}/api/matches/{mid}/step", json={"version": version})
        return r
    if status == "deal_over":
        return http.post(f"{base}/api/matches/{mid}/next-deal", json={"version": version})
    body = {"version": version, "action": choose_action(view, rng)}
    return http.post(f"{base}/api/matches/{mid}/actions", json=body)


def play_alternately(
    http: httpx2.Client, bases: list[str], view: View, db: str, rng: random.Random
) -> tuple[View, int]:
    """Plays the match of ``view`` to its end, each request to the next web process in turn:
    every answer is a 200 (never a 409: no process serves a stale copy) one version on, equal
    to a fresh replay of the stored log, and every process then shows that same view. Returns
    the last view and the number of requests."""
    mid = view["id"]
    requests = 0
    while view["status"] != "match_over":
        version = view["version"]
        r = move(http, bases[requests % len(bases)], view, rng)
        assert r.status_code == 200, r.text
        view = r.json()
        assert view["version"] == version + 1
        requests += 1
        replayed = fresh_replay(db, mid)
        assert view == replayed
        for other in bases:
            assert http.get(f"{other}/api/matches/{mid}").json() == replayed
    return view, requests
