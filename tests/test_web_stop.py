"""How a real ``oudler serve`` process stops (issue 28): its computer players' worker processes
end with it, whether it is killed outright (SIGKILL: no cleanup at all) or stopped with Ctrl+C
(SIGINT to the terminal's whole process group), and a clean stop prints no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2
import pytest

from redis_support import OUDLER, free_port

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads /proc")


def _status(pid: int) -> dict[str, str] | None:
    """/proc/PID/status as fields; None once the process has ended (or is a zombie)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)
    return None if fields.get("State", "").startswith("Z") else fields


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, whatever thread of it spawned them."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _status(int(entry.name))
            if fields is not None and fields.get("PPid", "").strip() == str(pid):
                found.append(int(entry.name))
    return found


@contextmanager
def serve(tmp_path: Path, *extra: str) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """A real ``oudler serve`` in a session of its own (as in a terminal), its stderr in a file,
    on the SQLite file ``tmp_path/oudler.sqlite3``; yields once it answers (its address is
    ``proc.args``' port: ``address(proc)``)."""
    port = free_port()
    err = tmp_path / "stderr.txt"
    db = f"sqlite:///{tmp_path / 'oudler.sqlite3'}"
    with err.open("w") as stderr:
        proc = subprocess.Popen(
            [OUDLER, "serve", "--port", str(port), "--database-url", db, *extra],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
                break
            except httpx2.TransportError:
                assert proc.poll() is None, err.read_text()
                assert time.monotonic() < deadline, "oudler serve did not start"
                time.sleep(0.1)
        yield proc, err
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def address(proc: subprocess.Popen[str]) -> str:
    """The base URL of a server ``serve`` started."""
    args = list(proc.args)  # type: ignore[arg-type]
    return f"http://127.0.0.1:{args[args.index('--port') + 1]}"


def worker_processes(server: int, count: int) -> list[int]:
    """The server's ``count`` spawned worker processes (its resource tracker aside), once each
    has started."""
    deadline = time.monotonic() + 120
    while True:
        spawned = [
            pid
            for pid in children(server)
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
        ]
        if len(spawned) >= count or time.monotonic() > deadline:
            return spawned
        time.sleep(0.1)


def until_ended(pids: list[int], seconds: float = 60.0) -> list[int]:
    """Waits for ``pids`` to end; the ones still alive after ``seconds``."""
    deadline = time.monotonic() + seconds
    while (alive := [p for p in pids if _status(p) is not None]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


def test_the_worker_processes_of_a_killed_web_process_end(tmp_path: Path) -> None:
    with serve(tmp_path, "--bot-processes", "2") as (proc, _):
        workers = worker_processes(proc.pid, 2)
        assert len(workers) >= 2
        everyone = children(proc.pid)  # the workers, the resource tracker, maybe the warmer
        proc.send_signal(signal.SIGKILL)  # no cleanup: nobody is left to stop them
        proc.wait(timeout=10)
        assert until_ended(everyone) == []


def test_ctrl_c_stops_the_server_and_its_workers_without_a_traceback(tmp_path: Path) -> None:
    with serve(tmp_path, "--bot-processes", "2") as (proc, err):
        workers = worker_processes(proc.pid, 2)
        assert len(workers) >= 2
        # At once: they may still be starting Python and importing the expert (seconds).
        everyone = children(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl+C in the terminal does
        assert proc.wait(timeout=60) in (0, 130)  # 130: stopped by SIGINT, as shells expect
        assert until_ended(everyone) == []
    log = err.read_text()
    assert "Traceback" not in log and "KeyboardInterrupt" not in log, log
    assert "Finished server process" in log
