"""The job queue on Redis (or Valkey), with arq: ``oudler serve --queue redis://...`` submits the
computer players' jobs there and ``oudler worker --queue redis://...`` processes run them, on any
machine (docs/deploy.md, "Computer players on a queue", says why arq).

A job is arq's job ``run(function, args)`` under our job id, in the lane's arq queue
(``oudler:quick``, ``oudler:expert``). arq gives what the web table needs:

- an enqueue is idempotent by job id (refused while the job is queued, running or its result
  kept), so any web process may submit a step's job again;
- execution is pessimistic: a job leaves the queue only when it is done; while a worker runs it, a
  key with a time to live marks it, and if the worker dies the key expires and another worker runs
  it again (``max_tries`` in all);
- a job may be aborted: a queued one never starts, a running one is cancelled (its coroutine;
  the worker then tells the search itself to stop, see ``_run``);
- it is asyncio throughout: the web process awaits results on its event loop.

Workers only think: they get a seat's observation and give back an action. They never see the
database or a deal. Payloads are pickled (arq's default): Redis must be reachable by the web
processes and workers only, as a database is.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import logging
import os
import signal
import time
import uuid
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from arq.connections import ArqRedis, RedisSettings, create_pool
from arq.constants import (
    abort_jobs_ss,
    health_check_key_suffix,
    in_progress_key_prefix,
    job_key_prefix,
    result_key_prefix,
    retry_key_prefix,
)
from arq.jobs import Job as ArqJob
from arq.jobs import JobResult
from arq.worker import Retry, Worker, func
from redis.exceptions import WatchError

from oudler.tables.jobs import (
    EXPERT,
    LANES,
    QUICK,
    CancelFlags,
    Job,
    JobQueue,
    JobStopped,
    Outcome,
    Ran,
    Running,
    init_worker_flags,
    start_job,
)
from oudler.tables.lifeline import spawn_context, tie_to_parent
from oudler.tables.warming import WARM_UP, Warmer, follow

log = logging.getLogger("oudler.worker")

QUEUE_PREFIX = "oudler:"
KEEP_RESULT = 600.0  # seconds a job's result is kept: a step asked again finds it
JOB_TIMEOUT = 30.0  # seconds one job may run on a worker; a dead worker's job is retried 10 s later
MAX_TRIES = 3
POLL_DELAY = 0.005  # seconds between a worker's looks at its queue (arq polls)
HEALTH_INTERVAL = 5.0  # seconds between a worker's "I am here" marks
# Quick jobs a worker takes from one look at its queue (they still run one at a time, in the
# lane's one thread): a quick decision takes far less than a look at Redis.
QUICK_BATCH = 16
# Workers still building the expert's compiled search: ids in a sorted set (score: until when the
# word holds), progress in a hash; a web process reads them at most once a second.
WARMING = QUEUE_PREFIX + "warming"
WARMING_PROGRESS = QUEUE_PREFIX + "warming:progress"
WARMING_EVERY = 0.5  # seconds between a building worker's words
WARMING_HOLDS = 5.0  # seconds a word holds (a worker that died stops being counted)
WARMING_LOOK = 1.0  # seconds between a web process's looks


def queue_name(lane: str) -> str:
    return QUEUE_PREFIX + lane


def settings_of(url: str) -> RedisSettings:
    try:
        settings = RedisSettings.from_dsn(url)
    except (RuntimeError, ValueError) as e:
        raise ValueError(f"not a Redis URL (redis://host:port/db): {url!r} ({e})") from None
    settings.conn_timeout = 2
    settings.conn_retries = 1
    return settings


class RedisQueue(JobQueue):
    """The web process's side: submit, await, cancel. Connects lazily, on the event loop that
    first uses it (the server's)."""

    def __init__(self, url: str) -> None:
        self.settings = settings_of(url)
        self._redis: ArqRedis | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lanes: dict[str, str] = {}  # job id -> its lane, for jobs submitted here
        self._warming: float | None = None
        self._warming_read = -WARMING_LOOK

    async def _conn(self) -> ArqRedis:
        loop = asyncio.get_running_loop()
        if self._redis is None or self._loop is not loop:
            self._redis = await create_pool(self.settings)
            self._loop = loop
        return self._redis

    async def submit(self, job: Job) -> None:
        redis = await self._conn()
        self._lanes[job.id] = job.lane
        if len(self._lanes) > 100_000:
            self._lanes.clear()  # only a hint for ``cancel``; it looks in every lane without it
        # None when a job of that id is queued, running or done: that one will do.
        await redis.enqueue_job(
            "run", job.function, job.args, _job_id=job.id, _queue_name=queue_name(job.lane)
        )

    async def wait(self, job_id: str, timeout: float) -> Outcome | None:
        redis = await self._conn()
        deadline = time.monotonic() + max(0.0, timeout)
        delay = 0.002
        job = ArqJob(job_id, redis)
        while True:
            result = await job.result_info()
            if result is not None:
                return _outcome(result)
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            await asyncio.sleep(min(delay, left))
            delay = min(delay * 1.5, 0.05)

    async def age(self, job_id: str) -> float | None:
        redis = await self._conn()
        info = await ArqJob(job_id, redis).info()
        if info is None:
            return None
        return max(0.0, time.time() - info.enqueue_time.timestamp())

    async def cancel(self, job_id: str) -> None:
        redis = await self._conn()
        lanes = [self._lanes[job_id]] if job_id in self._lanes else list(LANES)
        marker = in_progress_key_prefix + job_id
        async with redis.pipeline(transaction=True) as tr:
            while True:
                # Watched: a worker that takes the job meanwhile makes this try again, and
                # then it is running, so its search is told to stop.
                await tr.watch(marker)
                running = await tr.exists(marker)
                tr.multi()  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
                if running:  # its worker cancels it (arq reads this set as it polls)
                    tr.zadd(abort_jobs_ss, {job_id: int(time.time() * 1000)})
                else:  # never abort the job submitted afresh under this id
                    tr.zrem(abort_jobs_ss, job_id)
                # A queued or finished one is gone: submitting it again starts it afresh.
                for lane in lanes:
                    tr.zrem(queue_name(lane), job_id)
                tr.delete(job_key_prefix + job_id, result_key_prefix + job_id)
                tr.delete(retry_key_prefix + job_id)
                try:
                    await tr.execute()
                    return
                except WatchError:
                    continue

    async def states(self, job_ids: list[str]) -> dict[str, str | None]:
        if not job_ids:
            return {}
        redis = await self._conn()
        async with redis.pipeline(transaction=False) as pipe:
            for job_id in job_ids:
                pipe.exists(result_key_prefix + job_id)
                pipe.exists(in_progress_key_prefix + job_id)
                pipe.exists(job_key_prefix + job_id)
            found = await pipe.execute()
        out: dict[str, str | None] = {}
        for i, job_id in enumerate(job_ids):
            done, running, known = found[3 * i : 3 * i + 3]
            out[job_id] = "done" if done else "running" if running else "queued" if known else None
        return out

    async def health(self) -> dict[str, str]:
        try:
            redis = await self._conn()
            await asyncio.wait_for(redis.ping(), 2)
            alive = [
                bool(await redis.exists(queue_name(lane) + health_check_key_suffix))
                for lane in LANES
            ]
        except (OSError, TimeoutError, ConnectionError) as e:
            return {"queue": f"unavailable ({type(e).__name__})"}
        except Exception as e:  # redis-py's own errors
            return {"queue": f"unavailable ({type(e).__name__})"}
        missing = [lane for lane, ok in zip(LANES, alive, strict=True) if not ok]
        workers = "ok" if not missing else "none listening on " + ", ".join(missing)
        return {"queue": "ok", "workers": workers}

    async def waiting(self) -> dict[str, int]:
        redis = await self._conn()
        return {lane: int(await redis.zcard(queue_name(lane))) for lane in LANES}

    def warming(self) -> float | None:
        """The least progress of the workers still building the compiled search, as last read
        (``refresh_warming``)."""
        return self._warming

    async def refresh_warming(self) -> None:
        now = time.monotonic()
        if now - self._warming_read < WARMING_LOOK:
            return
        self._warming_read = now
        try:
            redis = await self._conn()
            ids = await redis.zrangebyscore(WARMING, time.time(), "+inf")
            shares: list[Any] = await redis.hmget(WARMING_PROGRESS, ids) if ids else []  # type: ignore[misc]
        except Exception as e:  # the queue's own health check tells; the table plays on
            log.warning("reading the workers' warm-up: %s", type(e).__name__)
            return
        known = [float(x) for x in shares if x is not None]
        self._warming = min(known) if known else None

    async def close(self) -> None:
        redis, self._redis = self._redis, None
        if redis is not None and self._loop is asyncio.get_running_loop():
            await redis.aclose()


def _outcome(result: JobResult) -> Outcome:
    queued = result.enqueue_time.timestamp()
    value = result.result
    if result.success and isinstance(value, Ran):
        return Outcome(value.value, queued=queued, began=value.began, ended=value.ended)
    if isinstance(value, asyncio.CancelledError) or type(value).__name__ == "JobExecutionFailed":
        # Aborted, expired or retried too often (its workers died): not the bot's fault.
        return Outcome(lost=True, queued=queued)
    began, ended = result.start_time.timestamp(), result.finish_time.timestamp()
    return Outcome(error=type(value).__name__, queued=queued, began=began, ended=ended)


# ---------------------------------------------------------------------------------- the worker


STOPPED = "stopped on its cancellation"
RAN_OUT = "ran to its end after its cancellation"


async def _run(ctx: dict[str, Any], function: str, args: tuple[Any, ...]) -> Ran:
    """arq's job: the named function, in this lane's executor (the event loop stays free to
    poll and to hear an abort)."""
    lane: Lane = ctx["lane"]
    try:
        running = lane.start(function, tuple(args))
    except BrokenProcessPool:  # its thinking process died between two jobs
        lane.restart()
        raise Retry(defer=0) from None
    future = asyncio.wrap_future(running.future)
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        # Aborted, or past its time: tell the search to stop (it looks between batches of
        # worlds), and keep the lane's place until it has, so that a worker never thinks about
        # two decisions of a lane at once. The abort's record says how it ended.
        running.stop()
        await asyncio.wait([future])
        if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
            lane.restart()  # it died meanwhile: the lane's next job must not find it broken
        stopped = not future.cancelled() and isinstance(future.exception(), JobStopped)
        how = STOPPED if stopped else RAN_OUT
        log.info("job %s %s", ctx.get("job_id"), how)
        raise asyncio.CancelledError(how) from None
    except BrokenProcessPool:
        lane.restart()  # the thinking process died: a fresh one, and this job again
        raise Retry(defer=0) from None


class Lane:
    """Where a worker runs one lane's jobs: the quick lane in a thread, the expert lane in a
    child process of its own, so that a long search never holds the interpreter lock that the
    worker's event loop needs for the quick lane. The child follows ``warm_state``: it thinks in
    pure Python until the worker's warmer has built the compiled search (without it, it loads
    or builds the kernel before its first job)."""

    def __init__(self, name: str, warm_state: Any = None) -> None:
        self.name = name
        self.warm_state = warm_state
        # The thinking process's cancellation flags (a thread is told through an event).
        self.flags = None if name == QUICK else CancelFlags(64)
        self.executor: cf.Executor = self._start()

    def _start(self) -> cf.Executor:
        if self.flags is None:
            return cf.ThreadPoolExecutor(1, thread_name_prefix="oudler-quick")
        pool = cf.ProcessPoolExecutor(
            1,
            mp_context=spawn_context(),
            initializer=_start_thinker,
            initargs=(os.getpid(), self.flags.array, self.warm_state),
        )
        pool.submit(int).result()  # started (and, without a warmer, warmed up)
        return pool

    def start(self, function: str, args: tuple[Any, ...]) -> Running:
        return start_job(self.executor, function, args, self.flags)

    def restart(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = self._start()

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def _start_thinker(parent: int, flags: Any, warm_state: Any) -> None:
    """A lane's thinking process: follow the warmer (or warm the kernel up now), and end with
    the worker even when the worker is killed outright (its answer could not be delivered)."""
    from oudler.tables.jobs import warm_worker

    tie_to_parent(parent)
    init_worker_flags(flags)
    if warm_state is None:
        warm_worker()
    else:
        follow(warm_state)


async def _say_warming(redis: ArqRedis, me: str, share: float) -> None:
    async with redis.pipeline(transaction=True) as tr:
        tr.zadd(WARMING, {me: time.time() + WARMING_HOLDS})
        tr.hset(WARMING_PROGRESS, me, str(share))
        await tr.execute()


async def _tell_warming(redis: ArqRedis, me: str, warmer: Warmer) -> None:
    """While ``warmer`` builds: say so on Redis every ``WARMING_EVERY`` seconds, with its
    progress, for the web processes' "getting ready" message."""
    try:
        while (share := warmer.progress()) is not None:
            try:
                await _say_warming(redis, me, share)
            except Exception as e:
                log.warning("telling the warm-up: %s", type(e).__name__)
            await asyncio.sleep(WARMING_EVERY)
    finally:
        with contextlib.suppress(Exception):
            async with redis.pipeline(transaction=True) as tr:
                tr.zrem(WARMING, me)
                tr.hdel(WARMING_PROGRESS, me)
                # words of workers that died meanwhile
                tr.zremrangebyscore(WARMING, "-inf", time.time())
                await tr.execute()
        await redis.aclose()


async def serve_worker(
    url: str,
    lanes: Sequence[str] = LANES,
    *,
    job_timeout: float = JOB_TIMEOUT,
    max_tries: int = MAX_TRIES,
    poll_delay: float = POLL_DELAY,
    stop: asyncio.Event | None = None,
    warm_up: str = WARM_UP,
) -> None:
    """Take jobs of ``lanes`` from the queue at ``url`` until ``stop`` is set (or SIGTERM /
    SIGINT). Each lane runs its jobs one at a time in a thread of its own. ``warm_up``: what
    builds the expert's compiled search at the start (``oudler.tables.warming``; the kernel's
    warm-up, or another for tests)."""
    settings = settings_of(url)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread
            loop.add_signal_handler(sig, stop.set)
    workers = []
    warmer = None
    if EXPERT in lanes:
        # Built once, in a process of its own; the expert lane plays meanwhile.
        warmer = Warmer(warm_up)
        warmer.start()
    started = [Lane(name, warmer.state if warmer and name == EXPERT else None) for name in lanes]
    telling = None
    if warmer is not None:
        # Said once before the worker listens, so that it is never seen listening and not
        # getting ready while it is.
        me = uuid.uuid4().hex
        told = await create_pool(settings)
        await _say_warming(told, me, warmer.progress() or 0.0)
        telling = asyncio.create_task(_tell_warming(told, me, warmer))
    for lane in started:
        workers.append(
            Worker(
                functions=[func(_run, name="run", timeout=job_timeout, max_tries=max_tries)],
                redis_settings=settings,
                queue_name=queue_name(lane.name),
                max_jobs=QUICK_BATCH if lane.name == QUICK else 1,
                poll_delay=poll_delay,
                keep_result=KEEP_RESULT,
                allow_abort_jobs=True,
                health_check_interval=HEALTH_INTERVAL,
                handle_signals=False,
                ctx={"lane": lane},
                log_results=False,
            )
        )
    tasks = [asyncio.create_task(w.async_run()) for w in workers]
    stopping = asyncio.create_task(stop.wait())
    try:
        done, _ = await asyncio.wait([*tasks, stopping], return_when=asyncio.FIRST_COMPLETED)
        for t in done:
            if t is not stopping and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]
    finally:
        stopping.cancel()
        if telling is not None:
            telling.cancel()
            await asyncio.gather(telling, return_exceptions=True)
        if warmer is not None:
            warmer.stop()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for w in workers:
            try:
                await w.close()
            except Exception as e:
                log.warning("closing a worker: %s", type(e).__name__)
        for lane in started:
            lane.close()
