"""Prometheus metrics (``GET /metrics``): requests and latency per route, the computer players'
decisions per level with their wait and thinking time; read back with prometheus-client's own
parser."""

from __future__ import annotations

import asyncio
import random

import pytest
from prometheus_client.parser import text_string_to_metric_families

from test_web_support import advance, new_match, stored_rows, web_client


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


@pytest.mark.parametrize("processes", [0, 1])
def test_metrics_count_requests_per_route_and_decisions_per_level(db: str, processes: int) -> None:
    with web_client(db, bot_processes=processes) as c:
        view = new_match(c, seed=9, level="club")
        mid = view["id"]
        rng = random.Random(9)
        steps = 0
        for _ in range(30):
            steps += view["status"] == "computer_turn"
            view = advance(c, view, rng)
        c.get(f"/api/matches/{mid}")
        c.get(f"/api/matches/{mid}")
        c.get("/api/matches/nope")
        r = c.get("/metrics")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        got = samples(r.text)
    assert mid not in r.text  # routes are labelled by their template, never by a match id
    view_route = (("method", "GET"), ("route", "/api/matches/{match_id}"))
    assert got[("oudler_http_requests_total", (*view_route, ("status", "200")))] == 2
    assert got[("oudler_http_requests_total", (*view_route, ("status", "404")))] == 1
    assert got[("oudler_http_request_seconds_count", view_route)] == 3
    created = (("method", "POST"), ("route", "/api/matches"), ("status", "201"))
    assert got[("oudler_http_requests_total", created)] == 1
    # One decision per computer action stored (a poignée answer is one of its own).
    decisions = sum(1 for _seq, seat, _kind, _a in stored_rows(db, mid) if seat not in (0, None))
    assert decisions >= steps > 5
    level = (("level", "club"),)
    assert got[("oudler_decisions_total", (("level", "club"), ("outcome", "ok")))] == decisions
    assert got[("oudler_decision_wait_seconds_count", level)] == decisions
    assert got[("oudler_decision_seconds_count", level)] == decisions
    assert got[("oudler_decisions_pending", level)] == 0
    assert got[("oudler_decision_wait_seconds_sum", level)] >= 0


def test_metrics_count_the_coachs_hints_and_analyses(db: str) -> None:
    """A hint computed once and read back once, then the deal's analysis: each counted, with the
    hint's wait and search and the analysis's time; nothing left running."""
    from test_web_coach import WORLDS, wait_analysis

    with web_client(db, coach_worlds=WORLDS) as c:
        view = new_match(c, seed=11, level="random", learning=True)
        mid = view["id"]
        rng = random.Random(11)
        while view["status"] != "your_turn":
            view = advance(c, view, rng)
        for _ in range(2):  # computed, then read back
            r = c.post(f"/api/matches/{mid}/hint", json={"version": view["version"]})
            assert r.status_code == 200, r.text
        while view["status"] not in ("deal_over", "match_over"):
            view = advance(c, view, rng)
        before = samples(c.get("/metrics").text)
        wait_analysis(c, mid, 1)
        got = samples(c.get("/metrics").text)
    assert before[("oudler_hints_total", (("outcome", "ok"),))] == 1
    assert before[("oudler_hints_total", (("outcome", "stored"),))] == 1
    assert before[("oudler_hint_wait_seconds_count", ())] == 1
    assert before[("oudler_hint_seconds_count", ())] == 1
    assert before[("oudler_hint_seconds_sum", ())] > 0
    assert got[("oudler_analyses_total", (("outcome", "done"),))] == 1
    assert got[("oudler_analysis_seconds_count", ())] == 1
    assert got[("oudler_analyses_running", ())] == 0
    assert ("oudler_analyses_total", (("outcome", "failed"),)) not in got


def test_metrics_tell_the_decisions_queued_and_thinking_per_level(db: str) -> None:
    """One local expert process, two expert tables asking at once: one decision thinks, the
    other waits for the process; the quick levels have none."""
    from test_web_cancel import CLOSE_SEED, until

    with web_client(db, bot_processes=1, step_wait=0.1) as c:
        views = [new_match(c, seed=CLOSE_SEED, level="expert") for _ in range(2)]
        for v in views:
            r = c.post(f"/api/matches/{v['id']}/step", json={"version": v["version"]})
            assert r.status_code == 202
        queue = c.app.state.computers.queue  # type: ignore[attr-defined]
        first = f"{views[0]['id']}:0"
        asyncio.run(until(lambda: queue.started(first), "the first decision's start"))
        got = samples(c.get("/metrics").text)
    assert got[("oudler_decisions_thinking", (("level", "expert"),))] == 1
    assert got[("oudler_decisions_queued", (("level", "expert"),))] == 1
    for level in ("random", "novice", "club"):
        assert got[("oudler_decisions_queued", (("level", level),))] == 0
        assert got[("oudler_decisions_thinking", (("level", level),))] == 0
    assert got[("oudler_jobs_queued", (("lane", "expert"),))] == 1
