"""Computer players for the web table, thinking outside the server's event loop.

A bot is built afresh for every decision, seeded from (match seed, deal, seat, action number), and
given only ``Deal.observation(seat)``. So its play depends only on the match and the position, never
on how long the server has been running: a restart does not change its future play, and no bot
memory has to be rebuilt (the observation carries the deal's whole public history).
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import hashlib
import multiprocessing
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from oudler.bots import PLAYER_LEVELS as LEVELS
from oudler.core import Action, Observation
from oudler.web.metrics import Metrics

__all__ = ["LEVELS", "ComputerPlayers", "bot_seed", "poignee_pause", "think"]

T = TypeVar("T")


def bot_seed(match_seed: int, deal_index: int, seat: int, seq: int) -> int:
    """A 63-bit seed for one decision, stable across restarts and Python versions."""
    text = f"oudler-bot:{match_seed}:{deal_index}:{seat}:{seq}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


@functools.cache
def poignee_pause(level: str) -> float:
    """Seconds a level's computer player spends on the poignée question (0 when instant).

    Only a seat with 10+ trumps is asked, so a first card played without the question waits as
    long: otherwise the pause itself would tell the person who holds a long trump suit.
    """
    if level != "expert":
        return 0.0  # the other levels answer in well under a millisecond
    from oudler.bots import make_bot

    bot = make_bot(level, seed=0)
    return float(getattr(bot, "poignee_budget_ms", 0)) / 1000.0


def warm_worker() -> None:
    """A worker process's start: load the expert's compiled kernel (or compile it, on the first
    start after an install) before the first question, not during it."""
    from oudler import kernel

    kernel.warm_up()


def think(level: str, seed: int, seat: int, obs: Observation) -> Action:
    """One decision by a fresh bot (runs in a worker thread or process)."""
    from oudler.bots import make_bot

    bot = make_bot(level, seed=seed)
    bot.begin_deal(seat)
    return bot.act(obs)


def timed_think(level: str, seed: int, seat: int, obs: Observation) -> tuple[Action, float, float]:
    """``think``, with when it began and ended (``time.monotonic``: one clock for every process
    of the machine, so the wait for a worker can be told from the thinking)."""
    began = time.monotonic()
    action = think(level, seed, seat, obs)
    return action, began, time.monotonic()


class ComputerPlayers:
    """Runs ``think`` in a process pool (``processes`` > 0) or in the calling thread.

    The web routes that call it are plain functions that Starlette runs in its thread pool, so
    even in-thread thinking stays off the event loop; a process pool also keeps a long search from
    holding the GIL that the server needs.
    """

    def __init__(
        self, processes: int = 0, timeout: float = 60.0, metrics: Metrics | None = None
    ) -> None:
        self.processes = processes
        self.timeout = timeout
        self.metrics = metrics
        self._pool: cf.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _get_pool(self) -> cf.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # spawn: forking a process that runs threads is unsafe.
                ctx = multiprocessing.get_context("spawn")
                self._pool = cf.ProcessPoolExecutor(
                    self.processes, mp_context=ctx, initializer=warm_worker
                )
            return self._pool

    def decide(self, level: str, seed: int, seat: int, obs: Observation) -> Action:
        asked = time.monotonic()
        if self.metrics is not None:
            self.metrics.decisions_pending.labels(level).inc()
        outcome = "failed"
        try:
            action, began, ended = self._decide(level, seed, seat, obs)
            outcome = "ok"
        except cf.TimeoutError:
            outcome = "timeout"
            raise
        finally:
            if self.metrics is not None:
                self.metrics.decisions_pending.labels(level).dec()
                self.metrics.decisions.labels(level, outcome).inc()
        if self.metrics is not None:
            self.metrics.decision_wait.labels(level).observe(max(0.0, began - asked))
            self.metrics.decision_think.labels(level).observe(ended - began)
        return action

    def _decide(
        self, level: str, seed: int, seat: int, obs: Observation
    ) -> tuple[Action, float, float]:
        if self.processes <= 0:
            return timed_think(level, seed, seat, obs)
        pool = self._get_pool()
        future = pool.submit(timed_think, level, seed, seat, obs)
        try:
            return future.result(timeout=self.timeout)
        except cf.TimeoutError:
            future.cancel()  # still waiting for a worker: it never starts
            raise
        except cf.process.BrokenProcessPool:
            with self._lock:
                self._pool = None  # a worker died: start a fresh pool next time
            raise

    def submit(self, fn: Callable[..., T], *args: Any) -> cf.Future[T]:
        """Run a plain picklable function where decisions run (the coach's hints): in the pool,
        or at once in the calling thread when there is none."""
        if self.processes <= 0:
            done: cf.Future[T] = cf.Future()
            try:
                done.set_result(fn(*args))
            except Exception as e:
                done.set_exception(e)
            return done
        try:
            return self._get_pool().submit(fn, *args)
        except cf.process.BrokenProcessPool:
            with self._lock:
                self._pool = None
            raise

    def health(self) -> str:
        """ "ok", or why the computer players cannot think (``/healthz``); never waits."""
        if self.processes <= 0:
            return "ok"
        try:
            self._get_pool().submit(int)  # refused at once if a worker died and broke the pool
        except cf.process.BrokenProcessPool:
            with self._lock:
                self._pool = None
            return "unavailable (a worker process died; a fresh pool starts on the next move)"
        except RuntimeError as e:  # shut down
            return f"unavailable ({e})"
        return "ok"

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
