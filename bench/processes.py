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
def processes(
    commands: list[list[str]], ready: list[object], what: str
) -> Iterator[list[subprocess.Popen[bytes]]]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    procs = [
        subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        for c in commands
    ]
    try:
        for proc, check in zip(procs, ready, strict=True):
            _wait(check, proc, what)
        yield procs
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


@contextmanager
def workers(url: str, count: int, lanes: str = "quick,expert", nice: int = 0) -> Iterator[None]:
    """``count`` ``oudler worker`` processes; ``nice``: at that niceness (e.g. 19 to model
    workers on other machines: they take only the CPU the web process leaves)."""
    client = redis.Redis.from_url(url)

    def listening() -> bool:
        # every worker marks each of its lanes; the last to start is awaited through the count
        return all(client.exists(f"oudler:{lane}:health-check") for lane in lanes.split(","))

    prefix = ["nice", "-n", str(nice)] if nice else []
    commands = [[*prefix, OUDLER, "worker", "--queue", url, "--lanes", lanes] for _ in range(count)]
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


def cpu_seconds(root: int) -> dict[str, float]:
    """CPU time (user + system) used so far by the live processes under ``root``, per kind:
    ``web`` (oudler serve and its worker processes), ``worker`` (oudler worker and its child),
    ``redis``, from /proc (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick

    def kind(pid: int) -> str | None:
        try:
            cmd = (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
        except OSError:
            return None
        if any(b"redis-server" in c for c in cmd):
            return "redis"
        if b"serve" in cmd:
            return "web"
        if b"worker" in cmd:
            return "worker"
        return None

    out: dict[str, float] = {"web": 0.0, "worker": 0.0, "redis": 0.0}
    for pid in used:
        chain, p = [], pid
        while p in parent and p != root and p > 1:
            chain.append(p)
            p = parent[p]
        if p != root or not chain:
            continue
        top = kind(chain[-1])  # the bench's own child: what the process belongs to
        if top is not None:
            out[top] += used[pid]
    return out
