"""Jobs: work that the web table hands out instead of doing it in a web thread (docs/deploy.md).

A job is a named function (``JOB_FUNCTIONS``: only names listed there run, never a name read from
the queue) with picklable arguments; its value is returned to whoever waits for it. The web process
awaits a job (asyncio) for a while and answers; nothing blocks a thread meanwhile.

A job's id names the work (``match:seq:what``), so submitting an id that is queued, running or done
does nothing: a step asked again, by the same web process or another one, waits for the same job.
The computer players' jobs are deterministic (seeded by the position), so a job that is run twice
(a worker died, a cancelled job was asked again) gives the same value; the stored action log
decides which value is used.

A cancelled job that is already running is told to stop (``CANCELLABLE`` functions get a
``cancelled`` callable and the expert's search asks it between batches of worlds), so that its
worker is free for the next job instead of finishing a search whose value nobody will use. In
worker processes the signal is a byte of shared memory per job (``CancelFlags``), in threads an
event.

Two lanes: ``quick`` (random, novice and club decide in a millisecond) and ``expert``, each with
its own workers, so an expert never delays a quick table. ``LocalQueue`` is the embedded default:
the quick lane in threads of the web process, the expert lane in its own worker processes (or
threads). ``oudler.tables.redisqueue`` is the same on Redis, for workers on any machine.
"""

from __future__ import annotations

import abc
import asyncio
import concurrent.futures as cf
import importlib
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from oudler.tables.lifeline import spawn_context, tie_to_parent
from oudler.tables.warming import Warmer, follow, unfollow

QUICK = "quick"
EXPERT = "expert"
LANES = (QUICK, EXPERT)

JOB_FUNCTIONS: dict[str, str] = {
    "think": "oudler.tables.computer:think",
    "pause": "oudler.tables.computer:pause",
    "hint": "oudler.tables.coaching:compute_hint",
}
"""The functions a job may name, as ``module:attribute`` (add yours with ``register_job``)."""

CANCELLABLE: set[str] = {"think", "pause", "hint"}
"""Job functions that take a ``cancelled`` keyword: a callable that turns true once their job is
cancelled, after which they may end early by raising any exception."""

log = logging.getLogger("oudler.jobs")

Check = Callable[[], bool]


class UnknownJobError(LookupError):
    pass


class JobStopped(Exception):
    """A job that ended early because it was cancelled while it ran (its value was not wanted)."""


def register_job(name: str, target: str, *, cancellable: bool = False) -> None:
    """Let jobs call ``target`` (``"package.module:function"``) under ``name``. Register it in
    the web process and in the workers (import the registering module in both). ``cancellable``:
    the function takes a ``cancelled`` keyword (see ``CANCELLABLE``)."""
    module, sep, attr = target.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"a job target is 'module:function', not {target!r}")
    JOB_FUNCTIONS[name] = target
    if cancellable:
        CANCELLABLE.add(name)
    else:
        CANCELLABLE.discard(name)


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


def run_job(function: str, args: tuple[Any, ...], cancelled: Check | None = None) -> Ran:
    """Runs in a worker (thread, local process, or ``oudler worker``). ``cancelled``: turns true
    when the job is cancelled; a ``CANCELLABLE`` function is given it, and whatever it raises
    once it is true ends the job as ``JobStopped``."""
    fn = resolve(function)
    began = time.time()
    if cancelled is None or function not in CANCELLABLE:
        value = fn(*args)
    else:
        try:
            value = fn(*args, cancelled=cancelled)
        except Exception:
            if cancelled():
                raise JobStopped(function) from None
            raise
    return Ran(value, began, time.time())


# In a worker process: the pool's cancellation flags (``CancelFlags.array``), set at its start.
_FLAGS: Any = None


def init_worker_flags(flags: Any) -> None:
    """A worker process's start (its pool's initializer calls it): the flags it will read."""
    global _FLAGS
    _FLAGS = flags


def run_flagged(function: str, args: tuple[Any, ...], slot: int) -> Ran:
    """``run_job`` in a worker process, cancelled through the pool's flag ``slot``."""
    flags = _FLAGS
    flags[2 * slot + 1] = 1  # started: the parent can tell a running job from a queued one
    return run_job(function, args, lambda: flags[2 * slot] != 0)


class CancelFlags:
    """Cancellation flags shared with a pool's worker processes, two bytes per job that may run
    there (cancelled, started): reading one costs the search a memory load, no system call. Give
    ``array`` to the processes at their start (``init_worker_flags``)."""

    def __init__(self, size: int = 4096) -> None:
        self.array: Any = multiprocessing.get_context("spawn").RawArray("b", 2 * size)
        self._free = list(range(size - 1, -1, -1))
        self._owner: dict[int, cf.Future[Ran]] = {}
        self._lock = threading.Lock()

    def take(self) -> int | None:
        """A free slot, or None when every one is taken (the job then runs to its end)."""
        with self._lock:
            if not self._free:
                return None
            slot = self._free.pop()
            self.array[2 * slot] = self.array[2 * slot + 1] = 0
            return slot

    def own(self, slot: int, future: cf.Future[Ran]) -> None:
        with self._lock:
            self._owner[slot] = future
        future.add_done_callback(lambda _f: self.release(slot))

    def release(self, slot: int) -> None:
        with self._lock:
            self._owner.pop(slot, None)
            self.array[2 * slot] = self.array[2 * slot + 1] = 0
            self._free.append(slot)

    def cancel(self, slot: int, future: cf.Future[Ran]) -> None:
        # Under the lock, and only while ``future`` still owns the slot: never another job's.
        with self._lock:
            if self._owner.get(slot) is future and not future.done():
                self.array[2 * slot] = 1

    def started(self, slot: int) -> bool:
        return bool(self.array[2 * slot + 1])


@dataclass(frozen=True)
class Running:
    """A job handed to an executor: its future, how to tell it to stop, whether it began."""

    future: cf.Future[Ran]
    stop: Callable[[], None]
    started: Check


def start_job(
    executor: cf.Executor, function: str, args: tuple[Any, ...], flags: CancelFlags | None
) -> Running:
    """Submit a job to ``executor``: a thread pool (``flags`` None: an event tells the job to
    stop) or a process pool started with ``flags`` (a flag in shared memory does)."""
    if flags is None:
        event = threading.Event()
        thread_future = executor.submit(run_job, function, args, event.is_set)
        return Running(
            thread_future, event.set, lambda: thread_future.running() or thread_future.done()
        )
    slot = flags.take()
    if slot is None:
        future = executor.submit(run_job, function, args)
        return Running(future, lambda: None, lambda: future.running() or future.done())
    try:
        future = executor.submit(run_flagged, function, args, slot)
    except BaseException:
        flags.release(slot)
        raise
    flags.own(slot, future)
    return Running(
        future, lambda: flags.cancel(slot, future), lambda: future.done() or flags.started(slot)
    )


def log_stopped(job_id: str, future: cf.Future[Ran]) -> None:
    """Say how a job cancelled while it ran ended (once it has)."""

    def ended(f: cf.Future[Ran]) -> None:
        stopped = not f.cancelled() and isinstance(f.exception(), JobStopped)
        if stopped:
            log.info("job %s stopped on its cancellation", job_id)
        else:
            log.info("job %s ran to its end after its cancellation; its value is dropped", job_id)

    future.add_done_callback(ended)


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
        """Drop the job whatever its state: a queued one never starts, a running one is told to
        stop (a ``CANCELLABLE`` function ends early) and its value is discarded, a done one is
        forgotten; submitting it again starts it afresh."""

    @abc.abstractmethod
    async def states(self, job_ids: list[str]) -> dict[str, str | None]:
        """Each job's state: ``queued``, ``running``, ``done``, or None when unknown here."""

    @abc.abstractmethod
    async def health(self) -> dict[str, str]:
        """``{"queue": "ok" | why not}``, plus any detail worth showing; never waits long."""

    @abc.abstractmethod
    async def waiting(self) -> dict[str, int]:
        """Jobs queued and not started, per lane (as far as this queue can tell)."""

    @abc.abstractmethod
    async def close(self) -> None: ...

    async def start(self) -> None:
        """Get ready before the first job (the server's start); nothing by default."""
        return None

    def ready(self, lane: str) -> bool | None:
        """Whether a worker of ``lane`` is known to be up and able to begin a job now (False:
        none is yet, e.g. its processes are still starting); None when this queue cannot tell."""
        return None

    def warming(self) -> float | None:
        """The share of the expert's compiled search built so far while it is being built for
        this queue's workers (``oudler.tables.warming``); None when ready, or not known here."""
        return None

    async def refresh_warming(self) -> None:
        """Read afresh what ``warming`` tells, where that costs a look elsewhere (Redis)."""
        return None


@dataclass
class _Entry:
    running: Running
    lane: str
    queued: float
    executor: cf.Executor | None = None  # where it runs (a broken pool is reset only once)

    @property
    def future(self) -> cf.Future[Ran]:
        return self.running.future


class LocalQueue(JobQueue):
    """The embedded default: the quick lane in threads of this process; the expert lane in
    ``processes`` worker processes (warmed up at start), or in threads of its own when 0.

    ``warm``: at ``start``, build the expert's compiled search in a process of its own and
    start the worker processes, which think in pure Python until it is ready
    (``oudler.tables.warming``; a string names the warm-up function instead of the kernel's, for
    tests); without it each worker process loads or builds the kernel when it starts, before
    its first job."""

    def __init__(
        self, processes: int = 0, threads: int = 4, keep: int = 4096, warm: bool | str = False
    ) -> None:
        self.processes = processes
        self.warm = warm
        self._warmer: Warmer | None = None
        self.keep = keep  # finished outcomes remembered (a step asked again finds its job)
        self._quick = cf.ThreadPoolExecutor(threads, thread_name_prefix="oudler-quick")
        self._expert_threads: cf.ThreadPoolExecutor | None = None
        self._pool: cf.ProcessPoolExecutor | None = None
        self._flags = CancelFlags() if processes > 0 else None
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()
        # Set once a worker process of the expert lane has finished a job (its start included):
        # until then a job submitted there waits for a process to start (seconds, on a busy
        # machine: Python, numpy and the expert's modules imported).
        self._expert_up = threading.Event()

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
                # spawn: forking a process that runs threads is unsafe.
                self._pool = cf.ProcessPoolExecutor(
                    self.processes,
                    mp_context=spawn_context(),
                    initializer=_start_local_worker,
                    initargs=(
                        os.getpid(),
                        self._flags.array if self._flags else None,
                        self._warmer.state if self._warmer else None,
                    ),
                )
            return self._pool

    async def start(self) -> None:
        if not self.warm or self._warmer is not None:
            return
        self._warmer = Warmer(self.warm) if isinstance(self.warm, str) else Warmer()
        self._warmer.start()
        if self.processes <= 0:
            follow(self._warmer.state)  # the expert's threads think in this process
            return
        # The worker processes start now rather than at the first expert decision: a process
        # is spawned for each job submitted while none is idle.
        pool = self._executor(EXPERT)
        for _ in range(self.processes):
            pool.submit(int).add_done_callback(self._worker_up)

    def _worker_up(self, future: cf.Future[Any]) -> None:
        """A job of the expert pool ended: run by a worker process, unless the pool broke."""
        if not future.cancelled() and not isinstance(future.exception(), BrokenProcessPool):
            self._expert_up.set()

    def ready(self, lane: str) -> bool | None:
        if lane == QUICK or self.processes <= 0:
            return True  # threads of this process
        return self._expert_up.is_set()

    def warming(self) -> float | None:
        return None if self._warmer is None else self._warmer.progress()

    def _start(self, job: Job) -> tuple[Running, cf.Executor]:
        executor = self._executor(job.lane)
        flags = self._flags if executor is self._pool else None
        running = start_job(executor, job.function, job.args, flags)
        if executor is self._pool:
            running.future.add_done_callback(self._worker_up)
        return running, executor

    async def submit(self, job: Job) -> None:
        with self._lock:
            if job.id in self._entries:
                self._entries.move_to_end(job.id)
                return
        try:
            running, executor = self._start(job)
        except BrokenProcessPool:
            self._reset_pool()
            running, executor = self._start(job)
        with self._lock:
            self._entries[job.id] = _Entry(running, job.lane, time.time(), executor)
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
            # A worker process died: a fresh pool runs the job again. Only the pool that broke
            # is dropped: the health check may already have started a fresh one.
            self._reset_pool(entry.executor)
            return Outcome(lost=True, queued=entry.queued)
        except Exception as e:
            now = time.time()
            return Outcome(error=type(e).__name__, queued=entry.queued, began=now, ended=now)
        return Outcome(ran.value, queued=entry.queued, began=ran.began, ended=ran.ended)

    async def age(self, job_id: str) -> float | None:
        with self._lock:
            entry = self._entries.get(job_id)
        return None if entry is None else time.time() - entry.queued

    async def started(self, job_id: str) -> bool:
        """Whether the job has begun (in a worker process: told by the process itself)."""
        with self._lock:
            entry = self._entries.get(job_id)
        return entry is not None and entry.running.started()

    async def states(self, job_ids: list[str]) -> dict[str, str | None]:
        with self._lock:
            entries = {job_id: self._entries.get(job_id) for job_id in job_ids}
        out: dict[str, str | None] = {}
        for job_id, e in entries.items():
            if e is None:
                out[job_id] = None
            elif e.future.done():
                out[job_id] = "done"
            else:
                out[job_id] = "running" if e.running.started() else "queued"
        return out

    async def cancel(self, job_id: str) -> None:
        with self._lock:
            entry = self._entries.pop(job_id, None)
        # A queued job never starts; a running one is told to stop (the expert's search looks
        # between batches of worlds) and its value is never used.
        if entry is not None and not entry.future.cancel() and not entry.future.done():
            entry.running.stop()
            log_stopped(job_id, entry.future)

    def _reset_pool(self, broken: cf.Executor | None = None) -> None:
        """Drop the process pool (``broken``: only if it is still the current one)."""
        with self._lock:
            if broken is not None and broken is not self._pool:
                return
            pool, self._pool = self._pool, None
            self._expert_up.clear()  # the next pool's processes start afresh
            for job_id in [k for k, e in self._entries.items() if e.lane == EXPERT]:
                if self._entries[job_id].future.done():
                    continue
                del self._entries[job_id]
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def health(self) -> dict[str, str]:
        if self.processes <= 0:
            return {"queue": "ok"}
        executor = self._executor(EXPERT)
        try:
            executor.submit(int)  # refused at once if a worker process died
        except BrokenProcessPool:
            self._reset_pool(executor)
            return {"queue": "unavailable (a worker process died; a fresh pool starts next)"}
        except RuntimeError as e:  # shut down
            return {"queue": f"unavailable ({e})"}
        return {"queue": "ok"}

    async def waiting(self) -> dict[str, int]:
        with self._lock:
            entries = list(self._entries.values())
        counts = dict.fromkeys(LANES, 0)
        for e in entries:
            if not e.running.started():
                counts[e.lane] += 1
        return counts

    async def close(self) -> None:
        await asyncio.to_thread(self.shutdown)

    def shutdown(self) -> None:
        """Stop: queued jobs never start, running ones are told to stop, and their workers end."""
        with self._lock:
            pool, self._pool = self._pool, None
            threads, self._expert_threads = self._expert_threads, None
            entries = list(self._entries.items())
        for job_id, entry in entries:
            # Nobody will read their values: do not make the server's stop wait for a search.
            if not entry.future.cancel() and not entry.future.done():
                entry.running.stop()
                log_stopped(job_id, entry.future)
        if self._warmer is not None:
            self._warmer.stop()
            if self.processes <= 0:
                unfollow()
        self._quick.shutdown(wait=True, cancel_futures=True)
        if threads is not None:
            threads.shutdown(wait=True, cancel_futures=True)
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def warm_worker() -> None:
    """A worker process's start: load the expert's compiled kernel (or compile it, on the first
    start after an install) before the first question, not during it."""
    from oudler import kernel

    kernel.warm_up()
    preload_jobs()


def preload_jobs() -> None:
    """Import the expert lane's job functions and what they import (the coach, the tables'
    coaching module) at a worker's start: on the first hint of a fresh server they cost about a
    second."""
    for name in ("think", "hint"):
        resolve(name)


def _start_local_worker(parent: int, flags: Any, warm_state: Any) -> None:
    """A worker process's start: tied to the web process (``lifeline``), its cancellation flags,
    then the kernel: loaded or built now (before its first job), or, with a warmer's state, once
    the warmer has built it."""
    tie_to_parent(parent)
    if flags is not None:
        init_worker_flags(flags)
    if warm_state is None:
        warm_worker()
    else:
        follow(warm_state)
        preload_jobs()


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

    async def states(self, job_ids: list[str]) -> dict[str, str | None]:
        routed = [j for j in job_ids if self._queue(j) is self.routed]
        others = [j for j in job_ids if self._queue(j) is not self.routed]
        return {**await self.routed.states(routed), **await self.others.states(others)}

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

    async def start(self) -> None:
        await self.routed.start()
        await self.others.start()

    def warming(self) -> float | None:
        return (self.routed if EXPERT in self.lanes else self.others).warming()

    def ready(self, lane: str) -> bool | None:
        return (self.routed if lane in self.lanes else self.others).ready(lane)

    async def refresh_warming(self) -> None:
        await (self.routed if EXPERT in self.lanes else self.others).refresh_warming()

    async def waiting(self) -> dict[str, int]:
        routed, others = await self.routed.waiting(), await self.others.waiting()
        return {lane: (routed if lane in self.lanes else others)[lane] for lane in LANES}

    async def close(self) -> None:
        await self.routed.close()
        await self.others.close()
