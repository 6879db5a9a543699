"""Prometheus metrics of one web process (``GET /metrics``): requests and their latency per route,
and the computer players' decisions per level, with how long each waited in the queue and how
long it thought, and the jobs queued per lane; the coach's hints (with their wait and search) and
after-deal analyses.

Each app has its own registry (tests build many apps in one process); each server process is
scraped on its own, so no shared multi-process state is needed. The HTTP side is counted by
``oudler.web.request_metrics``.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

# Seconds: a random-level step takes a millisecond, an expert one a few seconds.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
# An analysis judges every decision of a deal: some 20 s at the default budget.
ANALYSIS_BUCKETS = (1, 2.5, 5, 10, 20, 30, 60, 120, 300)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "oudler_http_requests",
            "HTTP requests answered, by route and status",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "oudler_http_request_seconds",
            "Time to answer an HTTP request, by route",
            ["method", "route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.decisions = Counter(
            "oudler_decisions",
            "Computer players' decisions, by level and outcome (ok, failed, timeout)",
            ["level", "outcome"],
            registry=self.registry,
        )
        self.decision_wait = Histogram(
            "oudler_decision_wait_seconds",
            "Time a decision waited for a free worker before thinking began, by level",
            ["level"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.decision_think = Histogram(
            "oudler_decision_seconds",
            "Time a computer player thought about one decision, by level",
            ["level"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.decisions_pending = Gauge(
            "oudler_decisions_pending",
            "Decisions this process awaits (queued or thinking), by level",
            ["level"],
            registry=self.registry,
        )
        self.decisions_queued = Gauge(
            "oudler_decisions_queued",
            "Decisions asked for by this process that wait for a worker, by level (read from "
            "the queue at each scrape)",
            ["level"],
            registry=self.registry,
        )
        self.decisions_thinking = Gauge(
            "oudler_decisions_thinking",
            "Decisions asked for by this process that a worker is thinking about, by level",
            ["level"],
            registry=self.registry,
        )
        self.jobs_queued = Gauge(
            "oudler_jobs_queued",
            "Jobs queued and not started, by lane (quick, expert), as the queue tells",
            ["lane"],
            registry=self.registry,
        )

        self.hints = Counter(
            "oudler_hints",
            "Coach hints asked for, by outcome (ok: computed by a worker, here: by the web "
            "process, no worker having begun it; stored: read back, failed, timeout)",
            ["outcome"],
            registry=self.registry,
        )
        self.hint_wait = Histogram(
            "oudler_hint_wait_seconds",
            "Time a hint waited in the expert lane before its search began",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.hint_think = Histogram(
            "oudler_hint_seconds",
            "Time the coach searched for one hint",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.analyses = Counter(
            "oudler_analyses",
            "After-deal analyses finished, by outcome (done, failed)",
            ["outcome"],
            registry=self.registry,
        )
        self.analysis_seconds = Histogram(
            "oudler_analysis_seconds",
            "Time to analyse one deal (every decision of the person's)",
            buckets=ANALYSIS_BUCKETS,
            registry=self.registry,
        )
        self.analyses_running = Gauge(
            "oudler_analyses_running",
            "Analyses started by this process and not finished (one runs at a time)",
            registry=self.registry,
        )

    def exposition(self) -> bytes:
        return generate_latest(self.registry)
