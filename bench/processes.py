"""Processes for the serving benchmarks (bench/web_tables.py, bench/queue_throughput.py): a
throwaway ``redis-server``, ``oudler worker`` and ``oudler serve`` processes, all on loopback
ports. Not a benchmark itself."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2
import redis

OUDLER = str(Path(sys.executable).parent / "oudler")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait(check: object, proc: subprocess.Popen[bytes], what: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():  # type: ignore[operator]
                return
        except (OSError, redis.ConnectionError, httpx2.TransportError):
            pass
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited with {proc.returncode}")
        if time.monotonic() > deadline:
            raise SystemExit(f"{what} did not start")
        time.sleep(0.1)


@contextmanager
def redis_server() -> Iterator[str]:
    exe = shutil.which("redis-server")
    if exe is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        _wait(lambda: redis.Redis.from_url(url).ping(), proc, "redis-server")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def processes(commands: list[list[str]], ready: list[object], what: str) -> Iterator[None]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    procs = [
        subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        for c in commands
    ]
    try:
        for proc, check in zip(procs, ready, strict=True):
            _wait(check, proc, what)
        yield
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


@contextmanager
def workers(url: str, count: int, lanes: str = "quick,expert") -> Iterator[None]:
    client = redis.Redis.from_url(url)

    def listening() -> bool:
        # every worker marks each of its lanes; the last to start is awaited through the count
        return all(client.exists(f"oudler:{lane}:health-check") for lane in lanes.split(","))

    commands = [[OUDLER, "worker", "--queue", url, "--lanes", lanes] for _ in range(count)]
    with processes(commands, [listening] * count, "oudler worker"):
        time.sleep(3.0)  # the later workers warm up too
        yield


@contextmanager
def web_servers(database_url: str, count: int, *extra: str) -> Iterator[list[str]]:
    ports = [free_port() for _ in range(count)]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    commands = [
        [OUDLER, "serve", "--port", str(p), "--database-url", database_url, *extra] for p in ports
    ]
    checks = [lambda b=b: httpx2.get(b + "/healthz", timeout=5).status_code < 600 for b in bases]
    with processes(commands, list(checks), "oudler serve"):
        yield bases
