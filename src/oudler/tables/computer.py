"""Computer players for the web table, thinking on a job queue (``oudler.tables.jobs``), never in a
web thread.

A bot is built afresh for every decision, seeded from (match seed, deal, seat, action number), and
given only ``Deal.observation(seat)``. So its play depends only on the match and the position, never
on how long the server has been running: a restart does not change its future play, and no bot
memory has to be rebuilt (the observation carries the deal's whole public history).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable

from oudler.bots import PLAYER_LEVELS as LEVELS
from oudler.core import Action, Observation
from oudler.tables.jobs import EXPERT, QUICK, Job, JobQueue, LocalQueue, Outcome
from oudler.tables.metrics import Metrics

log = logging.getLogger("oudler.computer")

__all__ = [
    "LEVELS",
    "ComputerPlayers",
    "DecisionTimeout",
    "bot_seed",
    "lane_of",
    "pause",
    "poignee_pause",
    "poignee_rest",
    "think",
]

LOST_PAUSE = 0.05  # seconds before a lost job is submitted again
ASKED_KEPT = 100_000  # decisions remembered for the queued and thinking gauges


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
    from oudler.bots import make_bot, parse_level

    spec = parse_level(level)
    if spec.level != "expert":
        return 0.0  # the other levels answer in well under a millisecond
    # Every expert pauses as long as the wall-time one's budget for the question, and
    # ``think`` pads an answer that came sooner (a fixed-work search, an early stop) to as long.
    bot = make_bot(spec.level, seed=0)
    return float(getattr(bot, "poignee_budget_ms", 0)) / 1000.0


PYTHON_EXPERT = "expert-v1"
"""The expert's search in pure Python, which stands in while the compiled kernel is built: in
duplicate deals it scored within a few points a deal of the kernel's expert (docs/arena.md)."""


def think(
    level: str,
    seed: int,
    seat: int,
    obs: Observation,
    calls_imposed: bool = False,
    cancelled: Callable[[], bool] | None = None,
) -> Action:
    """One decision by a fresh bot (a job: runs in a worker thread or process, or on another
    machine). It is given the seat's observation only. ``calls_imposed``: the deal's calls are
    an imposed-taker case, not the players' (``make_bot``). ``cancelled``: the job's
    cancellation signal; the expert's search asks it between batches of worlds and stops once
    it is true."""
    from oudler.bots import make_bot
    from oudler.tables.warming import compiled_ready

    if level == "expert" and not compiled_ready():
        # The compiled kernel is still being built (the first start after an install): the
        # same search in pure Python decides now, rather than the compiler keeping the table
        # waiting for half a minute (oudler.tables.warming).
        level = PYTHON_EXPERT
        log.debug("an expert decision by the pure-Python search (the compiled one is not ready)")
    bot = make_bot(level, seed=seed, calls_imposed=calls_imposed, cancelled=cancelled)
    bot.begin_deal(seat)
    # An answer to the poignée question may come in milliseconds (a fixed-work search, or one
    # that stops early: the expert's default). The web side waits out the rest of
    # ``poignee_pause`` after it (``poignee_rest``), not the worker, whose lane stays free.
    return bot.act(obs)


def poignee_rest(level: str, outcome: Outcome, now: float | None = None) -> float:
    """Seconds still to wait, from ``now`` (wall clock), after the outcome of a poignée question
    or of the pause job that stands for it before a first card without the question: until
    ``poignee_pause(level)`` after the job began. The same rule for both, from the worker's
    clock for both, so that the step takes as long either way (RULES.md §11: the wait must not
    tell that 10+ trumps are held), whatever the answer cost; asked again after a 202, the
    same outcome gives the same end."""
    now = time.time() if now is None else now
    began = outcome.began or outcome.ended or now
    return max(0.0, began + poignee_pause(level) - now)


PAUSE_STEP = 0.01  # seconds between a pause's looks at its cancellation signal


class PauseCancelled(Exception):
    """A pause job told to stop before its time."""


def pause(seconds: float, cancelled: Callable[[], bool] | None = None) -> None:
    """A job that waits ``seconds`` on its lane (the tables' stand-in for the poignée question
    waits 0 s: ``ComputerPlayers.pause_job``). Ends early (``PauseCancelled``) once
    ``cancelled`` is true."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if cancelled is not None and cancelled():
            raise PauseCancelled(f"{left:.2f} s before its end")
        time.sleep(min(left, PAUSE_STEP))


def lane_of(level: str) -> str:
    return EXPERT if level.startswith("expert") else QUICK


class DecisionTimeout(Exception):
    """A decision not made in time; it was cancelled (asking again submits it afresh)."""


class ComputerPlayers:
    """The computer players' side of the web process: builds their jobs and runs them on a
    ``JobQueue`` (the embedded ``LocalQueue``, or Redis), never waiting in a thread.

    ``timeout``: seconds after which a decision still not made is cancelled (the step answers
    503); ``wait`` in ``run`` is how long one request waits for it (the step then answers 202).
    """

    def __init__(
        self,
        processes: int = 0,
        timeout: float = 60.0,
        metrics: Metrics | None = None,
        queue: JobQueue | None = None,
        warm: bool | str = False,
    ) -> None:
        self.timeout = timeout
        self.metrics = metrics
        self.queue: JobQueue = queue if queue is not None else LocalQueue(processes, warm=warm)
        # Decisions asked for and not yet collected (job id -> level), for the metrics: a page
        # that stopped asking leaves its job behind, dropped once the queue says it is done.
        self._asked: OrderedDict[str, str] = OrderedDict()

    @staticmethod
    def think_job(
        job_id: str, level: str, seed: int, seat: int, obs: Observation, calls_imposed: bool = False
    ) -> Job:
        """One decision: the seat's observation only, never the deal."""
        args = (level, seed, seat, obs, True) if calls_imposed else (level, seed, seat, obs)
        return Job(job_id, "think", args, lane_of(level))

    @staticmethod
    def pause_job(job_id: str, level: str) -> Job:
        """The job that stands for the poignée question before a first card without it: queued
        on the question's lane, so that it waits there as the question would, and answered at
        once (the web side then waits ``poignee_rest``, as after the question)."""
        return Job(job_id, "pause", (0.0,), lane_of(level))

    async def run(self, job: Job, wait: float, level: str | None = None) -> Outcome | None:
        """Submit ``job`` (nothing happens if it is already queued, running or done) and await
        its outcome for up to ``wait`` seconds; None if it is not done by then. A job lost with
        its worker is submitted again. ``level``: counted in the metrics as that level's
        decision. Raises ``DecisionTimeout`` (after cancelling it) once the job is older than
        ``timeout``."""
        deadline = time.monotonic() + wait
        while True:
            await self.queue.submit(job)
            if level is not None and self.metrics is not None:
                self._asked[job.id] = level
                while len(self._asked) > ASKED_KEPT:
                    self._asked.popitem(last=False)
                self.metrics.decisions_pending.labels(level).inc()
            try:
                outcome = await self.queue.wait(job.id, deadline - time.monotonic())
            finally:
                if level is not None and self.metrics is not None:
                    self.metrics.decisions_pending.labels(level).dec()
            if outcome is None:
                age = await self.queue.age(job.id)
                if age is not None and age > self.timeout:
                    await self.queue.cancel(job.id)
                    self._asked.pop(job.id, None)
                    self._count(level, "timeout")
                    raise DecisionTimeout(f"job {job.id} took more than {self.timeout:g} s")
                return None
            if outcome.lost:
                await self.queue.cancel(job.id)  # forget it, so that it is submitted afresh
                if time.monotonic() + LOST_PAUSE >= deadline:
                    return None
                await asyncio.sleep(LOST_PAUSE)
                continue
            if level is not None and self.metrics is not None:
                self._asked.pop(job.id, None)
                self._count(level, "ok" if outcome.ok else "failed")
                self.metrics.decision_wait.labels(level).observe(outcome.wait)
                if outcome.began:
                    self.metrics.decision_think.labels(level).observe(outcome.ended - outcome.began)
            return outcome

    def _count(self, level: str | None, outcome: str) -> None:
        if level is not None and self.metrics is not None:
            self.metrics.decisions.labels(level, outcome).inc()

    async def observe(self) -> None:
        """Set the per-level gauges of decisions queued and thinking, from the queue (at each
        scrape of ``/metrics``)."""
        if self.metrics is None:
            return
        states = await self.queue.states(list(self._asked))
        counts = {state: dict.fromkeys(LEVELS, 0) for state in ("queued", "running")}
        for job_id, state in states.items():
            level = self._asked.get(job_id)
            if level is None:
                continue
            if state in counts:
                counts[state][level] = counts[state].get(level, 0) + 1
            else:
                self._asked.pop(job_id, None)  # done, or forgotten: nobody waits for it here
        for level, n in counts["queued"].items():
            self.metrics.decisions_queued.labels(level).set(n)
        for level, n in counts["running"].items():
            self.metrics.decisions_thinking.labels(level).set(n)

    async def health(self) -> dict[str, str]:
        return await self.queue.health()

    async def start(self) -> None:
        await self.queue.start()

    async def refresh_warming(self) -> None:
        await self.queue.refresh_warming()

    def warming(self) -> float | None:
        """While the expert's compiled search is being built: the share built so far (the
        expert meanwhile decides with its pure-Python search); None once it is ready."""
        return self.queue.warming()

    async def close(self) -> None:
        await self.queue.close()
