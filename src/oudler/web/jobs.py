"""Jobs: work that the web table hands out instead of doing it in a web thread (docs/deploy.md).

A job is a named function (``JOB_FUNCTIONS``: only names listed there run, never a name read from
the queue) with picklable arguments; its value is returned to whoever waits for it. The web process
awaits a job (asyncio) for a while and answers; nothing blocks a thread meanwhile.

A job's id names the work (``match:seq:what``), so submitting an id that is queued, running or done
does nothing: a step asked again, by the same web process or another one, waits for the same job.
The computer players' jobs are deterministic (seeded by the position), so a job that is run twice
(a worker died, a cancelled job was asked again) gives the same value; the stored action log
decides which value is used.

Two lanes: ``quick`` (random, novice and club decide in a millisecond) and ``expert``, each with
its own workers, so an expert never delays a quick table. ``LocalQueue`` is the embedded default:
the quick lane in threads of the web process, the expert lane in its own worker processes (or
threads). ``oudler.web.redisqueue`` is the same on Redis, for workers on any machine.
"""

from __future__ import annotations

import abc
import asyncio
import concurrent.futures as cf
import importlib
import multiprocessing
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

QUICK = "quick"
EXPERT = "expert"
LANES = (QUICK, EXPERT)

JOB_FUNCTIONS: dict[str, str] = {
    "think": "oudler.web.computer:think",
    "pause": "oudler.web.computer:pause",
    "hint": "oudler.web.coaching:compute_hint",
}
"""The functions a job may name, as ``module:attribute`` (add yours with ``register_job``)."""


class UnknownJobError(LookupError):
    pass


def register_job(name: str, target: str) -> None:
    """Let jobs call ``target`` (``"package.module:function"``) under ``name``. Register it in
    the web process and in the workers (import the registering module in both)."""
    module, sep, attr = target.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"a job target is 'module:function', not {target!r}")
    JOB_FUNCTIONS[name] = target


def resolve(name: str) -> Callable[..., Any]:
    target = JOB_FUNCTIONS.get(name)
    if target is None:
        raise UnknownJobError(f"no job function {name!r}")
    module, _, attr = target.partition(":")
    fn: Callable[..., Any] = getattr(importlib.import_module(module), attr)
    return fn


@dataclass(frozen=True)
class Job:
    id: str
    function: str  # a name in JOB_FUNCTIONS
    args: tuple[Any, ...]
    lane: str = QUICK


@dataclass(frozen=True)
class Ran:
    """A job's value, with when it began and ended (wall clock: workers may be other machines)."""

    value: Any
    began: float
    ended: float


def run_job(function: str, args: tuple[Any, ...]) -> Ran:
    """Runs in a worker (thread, local process, or ``oudler worker``)."""
    fn = resolve(function)
    began = time.time()
    value = fn(*args)
    return Ran(value, began, time.time())


@dataclass(frozen=True)
class Outcome:
    """A finished job: its value, or ``error`` (the exception's type name: never its message,
    which might name a card). ``lost``: the job did not finish (its worker died, or it was
    cancelled); submit it again."""

    value: Any = None
    error: str | None = None
    lost: bool = False
    queued: float = 0.0  # when it was submitted (wall clock)
    began: float = 0.0
    ended: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None and not self.lost

    @property
    def wait(self) -> float:
        """Seconds from submission to the start of the work (0 when unknown)."""
        return max(0.0, self.began - self.queued) if self.began else 0.0


class JobQueue(abc.ABC):
    """Where jobs run. Every method is a coroutine of the web process's event loop and returns
    without waiting for a job, except ``wait`` (for at most its timeout)."""

    @abc.abstractmethod
    async def submit(self, job: Job) -> None:
        """Queue the job unless a job of that id is queued, running or done."""

    @abc.abstractmethod
    async def wait(self, job_id: str, timeout: float) -> Outcome | None:
        """The job's outcome, or None if it has not finished within ``timeout`` seconds."""

    @abc.abstractmethod
    async def age(self, job_id: str) -> float | None:
        """Seconds since the job was submitted, None if it is unknown."""

    @abc.abstractmethod
    async def cancel(self, job_id: str) -> None:
        """Drop the job whatever its state: a queued one never starts, a running one's value is
        discarded, a done one is forgotten; submitting it again starts it afresh."""

    @abc.abstractmethod
    async def health(self) -> dict[str, str]:
        """``{"queue": "ok" | why not}``, plus any detail worth showing; never waits long."""

    @abc.abstractmethod
    async def waiting(self) -> dict[str, int]:
        """Jobs queued and not started, per lane (as far as this queue can tell)."""

    @abc.abstractmethod
    async def close(self) -> None: ...


@dataclass
class _Entry:
    future: cf.Future[Ran]
    lane: str
    queued: float


class LocalQueue(JobQueue):
    """The embedded default: the quick lane in threads of this process; the expert lane in
    ``processes`` worker processes (warmed up at start), or in threads of its own when 0."""

    def __init__(self, processes: int = 0, threads: int = 4, keep: int = 4096) -> None:
        self.processes = processes
        self.keep = keep  # finished outcomes remembered (a step asked again finds its job)
        self._quick = cf.ThreadPoolExecutor(threads, thread_name_prefix="oudler-quick")
        self._expert_threads: cf.ThreadPoolExecutor | None = None
        self._pool: cf.ProcessPoolExecutor | None = None
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def _executor(self, lane: str) -> cf.Executor:
        if lane == QUICK:
            return self._quick
        with self._lock:
            if self.processes <= 0:
                if self._expert_threads is None:
                    self._expert_threads = cf.ThreadPoolExecutor(
                        2, thread_name_prefix="oudler-expert"
                    )
                return self._expert_threads
            if self._pool is None:
                from oudler.web.computer import warm_worker

                # spawn: forking a process that runs threads is unsafe.
                self._pool = cf.ProcessPoolExecutor(
                    self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=warm_worker,
                )
            return self._pool

    async def submit(self, job: Job) -> None:
        with self._lock:
            if job.id in self._entries:
                self._entries.move_to_end(job.id)
                return
        try:
            future = self._executor(job.lane).submit(run_job, job.function, job.args)
        except BrokenProcessPool:
            self._reset_pool()
            future = self._executor(job.lane).submit(run_job, job.function, job.args)
        with self._lock:
            self._entries[job.id] = _Entry(future, job.lane, time.time())
            self._trim()

    def _trim(self) -> None:
        while len(self._entries) > self.keep:
            oldest = next(iter(self._entries))
            if not self._entries[oldest].future.done():
                break
            del self._entries[oldest]

    async def wait(self, job_id: str, timeout: float) -> Outcome | None:
        with self._lock:
            entry = self._entries.get(job_id)
        if entry is None:
            raise UnknownJobError(f"job {job_id!r} was not submitted here")
        try:
            ran = await asyncio.wait_for(
                asyncio.shield(asyncio.wrap_future(entry.future)), max(0.0, timeout)
            )
        except TimeoutError:
            return None
        except cf.CancelledError:
            return Outcome(lost=True, queued=entry.queued)
        except BrokenProcessPool:
            self._reset_pool()  # a worker process died: a fresh pool runs the job again
            return Outcome(lost=True, queued=entry.queued)
        except Exception as e:
            now = time.time()
            return Outcome(error=type(e).__name__, queued=entry.queued, began=now, ended=now)
        return Outcome(ran.value, queued=entry.queued, began=ran.began, ended=ran.ended)

    async def age(self, job_id: str) -> float | None:
        with self._lock:
            entry = self._entries.get(job_id)
        return None if entry is None else time.time() - entry.queued

    async def cancel(self, job_id: str) -> None:
        with self._lock:
            entry = self._entries.pop(job_id, None)
        if entry is not None:
            entry.future.cancel()  # a queued job never starts; a running one runs out unused

    def _reset_pool(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
            for job_id in [k for k, e in self._entries.items() if e.lane == EXPERT]:
                if self._entries[job_id].future.done():
                    continue
                del self._entries[job_id]
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def health(self) -> dict[str, str]:
        if self.processes <= 0:
            return {"queue": "ok"}
        try:
            self._executor(EXPERT).submit(int)  # refused at once if a worker process died
        except BrokenProcessPool:
            self._reset_pool()
            return {"queue": "unavailable (a worker process died; a fresh pool starts next)"}
        except RuntimeError as e:  # shut down
            return {"queue": f"unavailable ({e})"}
        return {"queue": "ok"}

    async def waiting(self) -> dict[str, int]:
        with self._lock:
            entries = list(self._entries.values())
        counts = dict.fromkeys(LANES, 0)
        for e in entries:
            if not e.future.running() and not e.future.done():
                counts[e.lane] += 1
        return counts

    async def close(self) -> None:
        await asyncio.to_thread(self.shutdown)

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
            threads, self._expert_threads = self._expert_threads, None
        self._quick.shutdown(wait=True, cancel_futures=True)
        if threads is not None:
            threads.shutdown(wait=True, cancel_futures=True)
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


class SplitQueue(JobQueue):
    """Some lanes on one queue (``routed``: e.g. the expert lane on Redis), the others on
    another (e.g. the quick lane in this process, where a 0.1 ms decision costs less than a
    trip to Redis)."""

    def __init__(self, routed: JobQueue, lanes: set[str], others: JobQueue) -> None:
        self.routed = routed
        self.lanes = lanes
        self.others = others
        self._where: OrderedDict[str, JobQueue] = OrderedDict()

    def _queue(self, job_id: str) -> JobQueue:
        return self._where.get(job_id, self.routed)

    async def submit(self, job: Job) -> None:
        queue = self.routed if job.lane in self.lanes else self.others
        self._where[job.id] = queue
        self._where.move_to_end(job.id)
        while len(self._where) > 100_000:
            self._where.popitem(last=False)
        await queue.submit(job)

    async def wait(self, job_id: str, timeout: float) -> Outcome | None:
        return await self._queue(job_id).wait(job_id, timeout)

    async def age(self, job_id: str) -> float | None:
        return await self._queue(job_id).age(job_id)

    async def cancel(self, job_id: str) -> None:
        await self._queue(job_id).cancel(job_id)

    async def health(self) -> dict[str, str]:
        routed, others = await self.routed.health(), await self.others.health()
        bad = [h["queue"] for h in (routed, others) if h["queue"] != "ok"]
        merged = {**others, **routed}
        merged["queue"] = bad[0] if bad else "ok"
        if "workers" in routed:
            missing = [lane for lane in self.lanes if lane in routed["workers"]]
            merged["workers"] = (
                "ok" if not missing else "none listening on " + ", ".join(sorted(missing))
            )
        return merged

    async def waiting(self) -> dict[str, int]:
        routed, others = await self.routed.waiting(), await self.others.waiting()
        return {lane: (routed if lane in self.lanes else others)[lane] for lane in LANES}

    async def close(self) -> None:
        await self.routed.close()
        await self.others.close()
