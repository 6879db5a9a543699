"""RQ beside arq, on what chose the queue (docs/deploy.md, "Why arq"): submission-to-start latency
of a no-op job on an idle worker, and what happens to a job whose worker is killed mid-job.

    pip install --no-deps --target /tmp/rqlib rq==2.6.1     # RQ is not a dependency of oudler
    PYTHONPATH=/tmp/rqlib flock /tmp/oudler-bench.lock .venv/bin/python bench/rq_compare.py

Runs an RQ worker (the default forking ``Worker``, and ``SimpleWorker``, which does not fork) on a
throwaway ``redis-server``; loopback only. arq's figures come from bench/queue_throughput.py.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time

import redis
from rq import Queue
from rq.job import Job, JobStatus

from processes import redis_server


def noop() -> float:
    return time.time()


def sleepy(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def start_worker(url: str, kind: str) -> subprocess.Popen[bytes]:
    code = (
        "import sys; sys.path[:0] = sys.argv[3:]; import redis, rq_compare; "
        "from rq import Queue, Worker, SimpleWorker; "
        "conn = redis.Redis.from_url(sys.argv[1]); "
        "cls = SimpleWorker if sys.argv[2] == 'simple' else Worker; "
        "cls([Queue('bench', connection=conn)], connection=conn).work(logging_level='WARNING')"
    )
    here = os.path.dirname(os.path.abspath(__file__))
    return subprocess.Popen([sys.executable, "-c", code, url, kind, here, *sys.path])


def latency(url: str, kind: str, count: int) -> list[float]:
    conn = redis.Redis.from_url(url)
    queue = Queue("bench", connection=conn)
    worker = start_worker(url, kind)
    try:
        time.sleep(3)  # started
        out = []
        for _ in range(count):
            sent = time.time()
            job = queue.enqueue("rq_compare.noop")
            while job.get_status(refresh=True) != JobStatus.FINISHED:
                time.sleep(0.001)
            out.append(job.return_value() - sent)
        return out
    finally:
        worker.terminate()
        worker.wait(timeout=20)


def killed(url: str, kind: str) -> str:
    """Enqueue a 2 s job, SIGKILL its worker mid-job, start another worker: what becomes of it
    within 60 s."""
    conn = redis.Redis.from_url(url)
    queue = Queue("bench", connection=conn)
    first = start_worker(url, kind)
    time.sleep(3)
    job = queue.enqueue("rq_compare.sleepy", 2.0, job_id="killed-" + kind)
    while job.get_status(refresh=True) != JobStatus.STARTED:
        time.sleep(0.005)
    first.send_signal(signal.SIGKILL)  # the worker (a forking one leaves its work horse)
    first.wait()
    second = start_worker(url, kind)
    try:
        began = time.monotonic()
        while time.monotonic() - began < 60:
            status = Job.fetch(job.id, connection=conn).get_status(refresh=True)
            if status in (JobStatus.FINISHED, JobStatus.FAILED):
                return f"{status.value} after {time.monotonic() - began:.0f} s"
            time.sleep(0.5)
        return f"still {status.value} after 60 s"
    finally:
        second.terminate()
        second.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=int, default=100)
    args = parser.parse_args()
    if args.latency > 2000:
        raise SystemExit("at most 2000 jobs")
    for kind in ("fork", "simple"):
        with redis_server() as url:
            values = latency(url, kind, args.latency)
            q = statistics.quantiles(values, n=100, method="inclusive")
            print(
                f"RQ {kind} worker: submit to start p50 {1000 * q[49]:.1f} ms "
                f"p95 {1000 * q[94]:.1f} ms ({args.latency} no-op jobs)"
            )
            print(f"RQ {kind} worker killed mid-job: {killed(url, kind)}")


if __name__ == "__main__":
    main()
