"""The coach at the web table, in learning mode (docs/web-api.md, "Learning mode").

- **Hints**: the coach's choice for the person's decision at hand, from the person's own
  observation only (``compute_hint``: a plain picklable function, run as a job on the computer
  players' queue, in its expert lane). A hint is computed once per decision (the match's action
  number: the job's id) and stored; asking again, or after a reload, reads it back, and the same
  position met again after an undo gets the hint given there (same position, same advice; its
  worlds are seeded from the position too). The stored hints are the record of their use.
- **Analyses**: after a deal, each of the person's decisions judged by the coach, computed in the
  background (one decision at a time, in a low-priority worker process) and stored per deal. A
  decision the person asked a hint for is judged with that hint's stored figures (one position,
  one set of figures: following the hint never costs).
- The learning switch itself (its routes: ``oudler.web.coach_routes``). Undo lives with the
  other actions (``Tables.undo``): it is one of them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from starlette.concurrency import run_in_threadpool

from oudler.coach import Advice
from oudler.coach.analysis import Point, decision_points, judge, summary
from oudler.coach.engine import position_key
from oudler.core import Observation
from oudler.core import cards as C
from oudler.tables.computer import ComputerPlayers, DecisionTimeout
from oudler.tables.games import Conflict, Game, Tables, Unavailable, Unprocessable, learner_seat
from oudler.tables.jobs import EXPERT, Job, Outcome, warm_worker
from oudler.tables.lifeline import spawn_context, tie_to_parent

log = logging.getLogger("oudler.web")

HINT_WORLDS = 1024
"""Sampled worlds per hint: a fixed amount of work, so the same position gets the same hint
whatever the load (bench/coach_agreement.py measures how often it agrees with a search 20 times
deeper)..."""
HINT_BUDGET_MS = 750
"""... unless this much wall time passes first, on a busy machine: with the worker's overhead,
under the 1 s a person should wait (bench/web_hints.py)."""
PYTHON_BUDGET_MS = 300
"""The cap of a hint by the pure-Python search (while the compiled one is built, or in the web
process, below): it never searches its 1024 worlds, so it always spends its cap; a web process
just started is slow at the rest (the first hint of a fresh server took 1.06 s at 450 ms)."""
HERE_AFTER = 0.25
"""A hint job not begun in a worker after this many seconds (its worker processes are still
starting on a fresh server, or busy with other searches) is computed in the web process
instead, by the pure-Python search within ``PYTHON_BUDGET_MS`` (the compiled one would have to
be built or loaded there first): with the wait, under the 1 s a person should wait. One such
hint at a time per web process; others wait for their worker."""
ANALYSIS_BUDGET_MS = 700
"""Search per decision of an after-deal analysis (about 25 decisions: some 20 s per deal)."""
ANALYSIS_NICE = 10
"""Analyses run in a worker at this lower priority, so that they never slow the table down."""


def coach_seed(match_seed: int, what: str, deal_number: int, seq: int = 0) -> int:
    """A 63-bit seed for one hint or analysis: stable, and unrelated to how the cards were dealt."""
    text = f"oudler-coach:{what}:{match_seed}:{deal_number}:{seq}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def web_action(kind: str, action: Any) -> Any:
    """The coach's action as the person would send it to ``/actions`` (no poignée is ``[]``)."""
    if kind == "poignee" and action is None:
        return []
    return action


HINT_JOB = "hint"
"""The name of ``compute_hint`` among the queue's job functions (``oudler.tables.jobs``)."""


def compute_hint(
    obs: Observation,
    seed: int,
    budget_ms: int | None,
    worlds: int | None,
    cancelled: Callable[[], bool] | None = None,
    kernel: bool | None = None,
) -> dict[str, Any]:
    """The hint for the seat of ``obs`` (the person's own observation, nothing else): stored as
    it is, so plain JSON. The one function through which every hint is computed. ``worlds``
    sampled worlds, fewer if ``budget_ms`` of wall time passes first (None: no cap); without
    ``worlds``, ``budget_ms`` of search. ``cancelled``: the job's cancellation signal (the
    search stops once it is true). Each option carries its value's standard error ``se``, the
    standard error of its difference from the choice ``diff_se``, ``close`` when it is about
    equal to the choice, and its ``worlds`` (docs/web-api.md). ``kernel``: False for the
    pure-Python search (None: the compiled one once it is ready here)."""
    from oudler.coach import advise
    from oudler.tables.warming import compiled_ready

    ready = compiled_ready() if kernel is None else kernel
    if not ready:
        log.debug("a hint by the pure-Python search (the compiled one is not ready)")
        if budget_ms is not None:
            budget_ms = min(budget_ms, PYTHON_BUDGET_MS)
    advice = advise(
        obs,
        seed=seed,
        budget_ms=budget_ms or HINT_BUDGET_MS,
        worlds=worlds,
        cancelled=cancelled,
        cap_ms=budget_ms if worlds is not None else None,
        # While the compiled kernel is being built (the first start after an install), the
        # same search in pure Python, within the cap, rather than a hint that waits for the
        # compiler (as the computer players do, ``computer.think``).
        kernel=ready,
    )
    return hint_payload(advice)


def hint_payload(advice: Advice) -> dict[str, Any]:
    """A hint as stored and sent: plain JSON. ``stats`` and ``extra`` (what was measured after
    each option) let the deal's analysis judge this decision with the hint's own figures."""
    return {
        "kind": advice.kind,
        "best": advice.best,
        "action": web_action(advice.kind, advice.best),
        "options": advice.option_dicts(),
        "reason": advice.reason.texts(),
        "reason_code": advice.reason.to_dict(),
        "worlds": advice.worlds,
        "stats": [{k: round(v, 4) for k, v in s.items()} for s in advice.stats],
        "extra": {k: round(v, 4) for k, v in advice.extra.items()},
    }


def analyse_point(
    point: Point,
    seed: int,
    budget_ms: int,
    worlds: int | None,
    hint: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """One of the person's decisions judged, with the cards they held then (None if forced).
    ``hint``: the hint given for this position, whose figures the judgement then reuses."""
    d = judge(point, seed=seed, budget_ms=budget_ms, worlds=worlds, hint=hint)
    if d is None:
        return None
    d["hand"] = [C.CARD_NAMES[c] for c in C.iter_cards(point.obs.hand)]
    return d


def warm_analysis_worker(parent: int) -> None:
    tie_to_parent(parent)
    os.nice(ANALYSIS_NICE)
    warm_worker()


@dataclass
class Progress:
    done: int = 0
    total: int = 0
    failed: bool = False


class Coach:
    """Hints and analyses of the matches in learning mode (``app.state.coach``)."""

    def __init__(
        self,
        tables: Tables,
        computers: ComputerPlayers,
        *,
        hint_worlds: int = HINT_WORLDS,
        hint_budget_ms: int = HINT_BUDGET_MS,
        analysis_budget_ms: int = ANALYSIS_BUDGET_MS,
        worlds: int | None = None,
        analysis_processes: int = 0,
        here_after: float | None = HERE_AFTER,
    ) -> None:
        """``hint_worlds`` per hint, capped by ``hint_budget_ms``. ``worlds``: an exact number of
        sampled worlds per decision, uncapped, instead (reproducible whatever the load; for
        tests). ``analysis_processes`` > 0: analyses think in that many
        low-priority worker processes; 0: in a background thread of the server.
        ``here_after``: seconds after which a hint job not begun in a worker is computed in this
        process by the pure-Python search (``HERE_AFTER``), as it is at once while the queue
        has no worker up yet; None: never (never with ``worlds`` either, whose hints must not
        depend on where they were computed)."""
        self.tables = tables
        self.store = tables.store
        self.computers = computers
        self.hint_worlds = hint_worlds
        self.hint_budget_ms = hint_budget_ms
        self.analysis_budget_ms = analysis_budget_ms
        self.worlds = worlds
        self.analysis_processes = analysis_processes
        self.here_after = None if worlds is not None else here_after
        # The hint computed in this process meanwhile (job id -> its future), one at a time.
        self._computing: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._here_runner = cf.ThreadPoolExecutor(1, thread_name_prefix="oudler-hint-here")
        self._jobs: dict[tuple[str, int], Progress] = {}
        self._lock = threading.Lock()
        self._runner = cf.ThreadPoolExecutor(1, thread_name_prefix="oudler-analysis")
        self._pool: cf.ProcessPoolExecutor | None = None
        self._closed = False

    # ------------------------------------------------------------------ learning switch

    def set_learning(self, player: str, match_id: str, on: bool) -> dict[str, Any]:
        tables = self.tables
        with tables.lock(match_id):
            game = tables._load(match_id, player)
            seat = tables.seat(game, player)
            if game.series is not None:
                raise Unprocessable(
                    "a series is played without the coach: the same help for everyone, none",
                    game.view(seat),
                    "series_match",
                )
            # At a table with people the creator chose hints or not for everyone, once.
            if learner_seat(game.info) is None:
                raise Unprocessable(
                    "learning mode is for a table with one person; at a table with friends "
                    "hints are chosen when it is made",
                    game.view(seat),
                    "learning_one_person",
                )
            self.store.set_learning(match_id, on)
            game.info = replace(game.info, learning=on)
            return game.view(seat)

    def _learning_game(self, player: str, match_id: str) -> Game:
        """The match, checked to be in learning mode. Call with its lock held."""
        game = self.tables._load(match_id, player)
        if not game.info.learning:
            raise Unprocessable(
                "the coach is part of learning mode: turn learning on first",
                game.view(self.tables.seat(game, player)),
                "learning_off",
            )
        return game

    def _analysable_game(self, player: str, match_id: str) -> Game:
        """The match, checked to be one whose deals the coach analyses: in learning mode, or
        a series match once its person may review it (the series finished, or closed for
        them: docs/duplicate.md), never before. Call with its lock held."""
        game = self.tables._load(match_id, player)
        link = game.series
        if link is None:
            return self._learning_game(player, match_id)
        if not link.reviewable(game.match):
            raise Conflict(
                "the coach analyses a series' deals once you have finished the series",
                game.view(self.tables.seat(game, player)),
                "not_finished",
            )
        return game

    # ------------------------------------------------------------------ hints

    async def hint(self, player: str, match_id: str, version: int) -> dict[str, Any]:
        """The coach's advice for the person's decision at hand: computed once per decision, as
        a job on the computer players' queue (expert lane; ``oudler worker`` processes too), and
        stored. No thread waits for it, and no lock is held meanwhile: the table goes on."""
        plan = await run_in_threadpool(self._plan_hint, player, match_id, version)
        metrics = self.computers.metrics
        if isinstance(plan, dict):
            if metrics is not None:
                metrics.hints.labels("stored").inc()
            return plan
        job, seq, number, position = plan
        where = "ok"  # computed by a worker ("here": in this process)
        try:
            outcome, where = await self._outcome(job)
        except DecisionTimeout:
            outcome = None
        if outcome is None:
            # Given up on: its search stops, and asking again starts it afresh.
            await self.computers.queue.cancel(job.id)
            if metrics is not None:
                metrics.hints.labels("timeout").inc()
            raise Unavailable("the coach took too long; try again")
        if metrics is not None:
            metrics.hints.labels(where if outcome.ok else "failed").inc()
            if outcome.ok:
                metrics.hint_wait.observe(outcome.wait)
                metrics.hint_think.observe(max(0.0, outcome.ended - outcome.began))
        if not outcome.ok:
            log.error("match %s: a hint failed (%s)", match_id, outcome.error or "lost")
            raise Unavailable("the coach could not think about this decision; try again")
        stored = await run_in_threadpool(
            self.store.add_hint, match_id, seq, number, outcome.value, position
        )
        return {"version": version, "seq": seq, "hint": stored}

    async def _outcome(self, job: Job) -> tuple[Outcome | None, str]:
        """The hint job's outcome and where it was computed: ``ok``, by a worker; ``here``, in
        this process (``_here``), at once while no worker is up yet (a fresh server: its
        processes still starting), or when no worker has begun the job after ``here_after``
        seconds (they are busy). One job per decision (its id): requests asked at once wait for
        the same job, or the same search here."""
        computers = self.computers
        if self.here_after is None:
            return await computers.run(job, computers.timeout), "ok"
        here = self._computing
        if job.id in here or (not here and computers.queue.ready(EXPERT) is False):
            return await self._here(job), "here"
        first = min(self.here_after, computers.timeout)
        outcome = await computers.run(job, first)
        if outcome is not None:
            return outcome, "ok"
        state = (await computers.queue.states([job.id])).get(job.id)
        # One hint here at a time: the web process has requests to answer.
        if state == "queued" and (job.id in here or not here):
            await computers.queue.cancel(job.id)  # a queued job never starts
            return await self._here(job), "here"
        return await computers.run(job, computers.timeout - first), "ok"

    async def _here(self, job: Job) -> Outcome:
        """The hint computed in this process by the pure-Python search (the compiled one would
        have to be built or loaded here first), within ``PYTHON_BUDGET_MS``."""
        future = self._computing.get(job.id)
        if future is None:
            obs, seed, _budget, worlds = job.args
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(
                self._here_runner, compute_hint, obs, seed, PYTHON_BUDGET_MS, worlds, None, False
            )
            self._computing[job.id] = future
            future.add_done_callback(lambda _f: self._computing.pop(job.id, None))
            log.info("hint %s: no worker free or up; the pure-Python search answers here", job.id)
        began = time.time()
        try:
            value = await asyncio.shield(future)
        except Exception as e:
            now = time.time()
            return Outcome(error=type(e).__name__, queued=began, began=now, ended=now)
        return Outcome(value, queued=began, began=began, ended=time.time())

    def _plan_hint(
        self, player: str, match_id: str, version: int
    ) -> dict[str, Any] | tuple[Job, int, int, str]:
        """The stored hint's answer, or the job that computes it (its seq, deal number and
        position key)."""
        tables = self.tables
        with tables.lock(match_id):
            game = self._learning_game(player, match_id)
            seat = tables.seat(game, player)
            tables._check_version(game, version, seat)
            deal = game.match.current
            if deal.is_over or deal.to_move != seat:
                raise Conflict(
                    "there is no decision of yours to advise on now",
                    game.view(seat),
                    "not_your_turn",
                )
            seq = game.seq
            number = len(game.match.deals)
            stored = self.store.hint(match_id, seq)
            if stored is not None:
                return {"version": version, "seq": seq, "hint": stored}
            obs = deal.observation(seat)  # the person's own view, and nothing else
            position = position_key(obs)
            stored = self.store.position_hint(match_id, position)
            if stored is not None:
                # the position was advised before an undo: the same advice, asked again here
                stored = self.store.add_hint(match_id, seq, number, stored, position)
                return {"version": version, "seq": seq, "hint": stored}
            # The worlds come from the deal's seed and the position (``rng_for``), not from the
            # action number: recomputed, the same position gets the same hint.
            seed = coach_seed(game.info.seed, "hint", number)
            if self.worlds is not None:
                args: tuple[Any, ...] = (obs, seed, None, self.worlds)
            else:
                args = (obs, seed, self.hint_budget_ms, self.hint_worlds)
            job = Job(f"{match_id}:{seq}:hint", HINT_JOB, args, EXPERT)
            return job, seq, number, position

    # ------------------------------------------------------------------ analyses

    def analysis(self, player: str, match_id: str, number: int) -> dict[str, Any]:
        """Deal ``number``'s analysis: stored, being computed (with its progress), or started
        now in the background."""
        tables = self.tables
        with tables.lock(match_id):
            game = self._analysable_game(player, match_id)
            seat = tables.seat(game, player)
            deals = game.match.deals
            if not 1 <= number <= len(deals):
                raise Unprocessable(f"match {match_id} has no deal {number}", None, "no_such_deal")
            deal = deals[number - 1]
            if not deal.is_over:
                raise Unprocessable(
                    "a deal is analysed once it is over", game.view(seat), "deal_in_play"
                )
            key = (match_id, number)
            with self._lock:
                job = self._jobs.get(key)
                if job is not None:
                    if job.failed:
                        del self._jobs[key]  # the next request starts it again
                    return self._progress(number, job)
                stored = self.store.analysis(match_id, number)
                if stored is not None:
                    return {"deal": number, "status": "done", "analysis": stored}
                from oudler.core.records import deal_to_record

                job = Progress()
                self._jobs[key] = job
                record = deal_to_record(deal)
                seed = coach_seed(game.info.seed, "analysis", number)
                if self.computers.metrics is not None:
                    self.computers.metrics.analyses_running.inc()
                # At a table with people, one analysis of the deal judges every person's
                # decisions (the deal is over: every card in it is shown to all); each page
                # shows its own person's.
                seats = sorted(game.info.people) if game.info.shared else [seat]
                self._runner.submit(self._analyse, key, record, seed, job, seats)
                return self._progress(number, job)

    @staticmethod
    def _progress(number: int, job: Progress) -> dict[str, Any]:
        status = "failed" if job.failed else "running"
        return {"deal": number, "status": status, "done": job.done, "total": job.total}

    def _analysis_pool(self) -> cf.ProcessPoolExecutor:
        if self._pool is None:
            ctx = spawn_context()
            self._pool = cf.ProcessPoolExecutor(
                self.analysis_processes,
                mp_context=ctx,
                initializer=warm_analysis_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def _counted(self, outcome: str | None, began: float) -> None:
        """An analysis ended (``done``, ``failed``, or None: the server stopped first): counted
        before its answer changes, so a client that sees it done sees it counted."""
        metrics = self.computers.metrics
        if metrics is None:
            return
        metrics.analyses_running.dec()
        if outcome is not None:
            metrics.analyses.labels(outcome).inc()
        if outcome == "done":
            metrics.analysis_seconds.observe(time.perf_counter() - began)

    def _analyse(
        self,
        key: tuple[str, int],
        record: dict[str, Any],
        seed: int,
        job: Progress,
        seats: list[int],
    ) -> None:
        """Runs in the background thread: judge each decision of the people at ``seats``, then
        store the whole."""
        match_id, number = key
        began = time.perf_counter()
        try:
            points, deal = decision_points(record, seats)
            job.total = len(points)
            decisions = []
            for point in points:
                if self._closed:
                    self._counted(None, began)
                    return
                # A decision the person asked a hint for is judged with that hint's figures:
                # one position, one set of figures, and following the hint costs nothing.
                hint = self.store.position_hint(match_id, position_key(point.obs))
                args = (point, seed, self.analysis_budget_ms, self.worlds, hint)
                if self.analysis_processes > 0:
                    d = self._analysis_pool().submit(analyse_point, *args).result()
                else:
                    d = analyse_point(*args)
                job.done += 1
                if d is not None:
                    decisions.append(d)
            self.store.add_analysis(match_id, number, summary(record, deal, seats, decisions))
        except Exception as e:
            # Only the error's type: its message might name a card.
            log.error(
                "match %s: the analysis of deal %d failed (%s)", match_id, number, type(e).__name__
            )
            self._counted("failed", began)
            job.failed = True
            return
        self._counted("done", began)
        with self._lock:
            self._jobs.pop(key, None)

    def close(self) -> None:
        self._closed = True
        self._here_runner.shutdown(wait=True, cancel_futures=True)
        self._runner.shutdown(wait=True, cancel_futures=True)
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
