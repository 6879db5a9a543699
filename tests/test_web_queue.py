"""Computer players on the Redis queue (issue 10): real ``redis-server``, ``oudler worker`` and
``oudler serve`` processes on loopback ports, on SQLite or on ``OUDLER_TEST_DATABASE_URL``
(PostgreSQL).

- Two web processes and two workers serve one match alternately to its end, every view equal to
  a fresh replay of the stored log.
- A worker killed (SIGKILL) mid-decision costs a retry on another worker, never a lost or doubled
  action.
- A web process killed mid-step: the page asks the other one, which waits for the same job; the
  action is stored once.
- What crosses the queue: each job carries one seat's observation, exactly what the engine lets
  that seat see, and the worker's answer is an action.
"""

from __future__ import annotations

import pickle
import random
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2
import pytest
import redis
from arq.jobs import deserialize_result
from sqlalchemy import create_engine

from oudler.core import Match, Observation
from oudler.tables.jobs import Ran
from redis_support import (
    fresh_replay,
    move,
    oudler_serve,
    oudler_worker,
    play_alternately,
    redis_server,
)
from test_web_leak import play_one
from test_web_support import (
    advance,
    engine_match,
    new_match,
    stored_rows,
    temporary_database,
    web_client,
)

View = dict[str, Any]


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    with temporary_database(tmp_path) as url:
        yield url


@pytest.fixture
def queue_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


def results(url: str) -> dict[str, Any]:
    """Every job result kept on the queue (arq's records: args, value, tries), by job id."""
    client = redis.Redis.from_url(url)
    try:
        out = {}
        for key in client.scan_iter("arq:result:*"):
            raw = client.get(key)
            assert raw is not None
            out[key.decode().removeprefix("arq:result:")] = deserialize_result(raw)
        return out
    finally:
        client.close()


def in_progress(url: str) -> list[str]:
    client = redis.Redis.from_url(url)
    try:
        prefix = "arq:in-progress:"
        return [k.decode().removeprefix(prefix) for k in client.keys(prefix + "*")]
    finally:
        client.close()


def test_two_web_processes_and_two_workers_serve_one_match_alternately(
    db: str, queue_url: str
) -> None:
    rng = random.Random(10)
    with ExitStack() as stack:
        for _ in range(2):
            stack.enter_context(oudler_worker(queue_url))
        bases = [stack.enter_context(oudler_serve(db, "--queue", queue_url))[0] for _ in range(2)]
        http = stack.enter_context(httpx2.Client(timeout=60))
        health = http.get(bases[0] + "/healthz")
        assert health.status_code == 200
        assert health.json() == {
            "ok": True, "database": "ok", "computer_players": "ok", "workers": "ok"
        }  # fmt: skip
        r = http.post(bases[0] + "/api/matches", json={"deals": 2, "level": "club"})
        assert r.status_code == 201, r.text
        view, requests = play_alternately(http, bases, r.json(), db, rng)
        mid = view["id"]
        metrics = http.get(bases[0] + "/metrics").text
    assert requests > 100
    # Every computer player's decision was a job on the queue, run once, by a worker.
    done = results(queue_url)
    rows = stored_rows(db, mid)
    decisions = [f"{mid}:{seq}" for seq, seat, _kind, _a in rows if seat not in (0, None)]
    assert set(decisions) <= set(done)
    assert all(done[d].success and done[d].job_try == 1 for d in decisions)
    assert 'oudler_decision_wait_seconds_count{level="club"}' in metrics
    assert 'oudler_jobs_queued{lane="quick"} 0.0' in metrics


def first_job_in_progress(url: str, timeout: float = 60) -> str:
    """The id of the first job a worker runs, once it has begun (its try counted)."""
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + timeout
    try:
        while not (running := in_progress(url)) or not client.exists("arq:retry:" + running[0]):
            assert time.monotonic() < deadline, "no job started"
            time.sleep(0.002)
    finally:
        client.close()
    return running[0]


def start_step(http: httpx2.Client, base: str, view: View) -> tuple[threading.Thread, list[Any]]:
    """A step request in a thread (the page waiting for it); its answer, or error, in the list."""
    answer: list[Any] = []

    def ask() -> None:
        try:
            answer.append(move(http, base, view, random.Random(0)))
        except httpx2.TransportError as e:
            answer.append(e)

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread, answer


def test_a_worker_killed_mid_decision_costs_a_retry_never_a_lost_or_doubled_action(
    db: str, queue_url: str
) -> None:
    with ExitStack() as stack:
        # A short job timeout: a dead worker's job is run again 12 s after it started.
        first = stack.enter_context(oudler_worker(queue_url, "--job-timeout", "2"))
        base, _ = stack.enter_context(oudler_serve(db, "--queue", queue_url))
        http = stack.enter_context(httpx2.Client(timeout=60))
        seed = next(s for s in range(100) if Match(2, s).current.to_move != 0)
        view = http.post(
            base + "/api/matches", json={"deals": 2, "level": "expert", "seed": seed}
        ).json()
        assert view["status"] == "computer_turn"
        thread, answer = start_step(http, base, view)
        job_id = first_job_in_progress(queue_url)
        first.kill()  # mid-decision
        assert not results(queue_url)
        second = stack.enter_context(oudler_worker(queue_url, "--job-timeout", "2"))
        thread.join(timeout=90)
        assert answer and not isinstance(answer[0], Exception)
        r = answer[0]
        assert r.status_code == 200, r.text
        assert r.json()["version"] == view["version"] + 1
        assert r.json() == fresh_replay(db, view["id"])
        assert second.proc.poll() is None
    result = results(queue_url)[job_id]
    assert result.success and result.job_try == 2  # run again, once
    rows = stored_rows(db, view["id"])
    assert [(seq, seat) for seq, seat, _k, _a in rows] == [(0, view["observation"]["to_move"])]


def test_a_web_process_killed_mid_step_loses_nothing_and_doubles_nothing(
    db: str, queue_url: str
) -> None:
    with ExitStack() as stack:
        stack.enter_context(oudler_worker(queue_url))
        (doomed, doomed_proc), (other, _) = (
            stack.enter_context(oudler_serve(db, "--queue", queue_url)) for _ in range(2)
        )
        http = stack.enter_context(httpx2.Client(timeout=60))
        seed = next(s for s in range(100) if Match(2, s).current.to_move != 0)
        r = http.post(doomed + "/api/matches", json={"deals": 2, "level": "expert", "seed": seed})
        view = r.json()
        thread, answer = start_step(http, doomed, view)
        job_id = first_job_in_progress(queue_url)
        doomed_proc.kill()  # while its step awaits the decision
        thread.join(timeout=30)
        assert answer and isinstance(answer[0], httpx2.TransportError)
        # The page asks again, through the other process: it waits for the same job.
        r = move(http, other, view, random.Random(0))
        assert r.status_code == 200, r.text
        after = r.json()
        assert after["version"] == view["version"] + 1
        assert after == fresh_replay(db, view["id"])
        # Asking for that step again is stale: nothing is stored twice.
        again = http.post(f"{other}/api/matches/{view['id']}/step", json={"version": 0})
        assert again.status_code == 409 and again.json()["view"] == after
    result = results(queue_url)[job_id]
    assert result.success and result.job_try == 1  # one job, run once, used once
    assert len(stored_rows(db, view["id"])) == 1


def test_a_job_carries_one_seats_observation_and_brings_back_an_action(
    db: str, queue_url: str
) -> None:
    """What crosses the queue: every decision job's arguments are (level, seed, seat, the
    observation the engine gives that seat at that point of the stored log), nothing else; its
    value is that seat's action. The views the browser gets through the queue are checked for
    hidden cards by ``test_web_leak`` (run with ``--queue``) below."""
    rng = random.Random(11)
    with ExitStack() as stack:
        stack.enter_context(oudler_worker(queue_url))
        base, _ = stack.enter_context(oudler_serve(db, "--queue", queue_url))
        http = stack.enter_context(httpx2.Client(timeout=60))
        view = http.post(base + "/api/matches", json={"deals": 2, "level": "novice"}).json()
        while view["status"] != "match_over":
            r = move(http, base, view, rng)
            assert r.status_code == 200, r.text
            view = r.json()
    rows = stored_rows(db, view["id"])
    jobs = results(queue_url)
    decisions = 0
    for job_id, result in jobs.items():
        mid, seq, *what = job_id.split(":")
        assert mid == view["id"]
        function, args = result.args
        if what == ["pause"]:
            assert function == "pause" and args == (0.0,)
            continue
        assert function == "think" and len(args) == 4
        level, _seed, seat, obs = args
        assert level == "novice" and isinstance(obs, Observation)
        match = engine_match(db, mid, upto=int(seq))  # the stored log up to the job's position
        assert obs == match.current.observation(seat)
        assert isinstance(result.result, Ran)
        assert rows[int(seq)][1] == seat  # the action stored at that position is the seat's
        decisions += 1
        # Nothing in the job but the arguments above: its pickled form holds no other object.
        assert pickle.loads(pickle.dumps(args)) == args
    assert decisions == sum(1 for _s, seat, _k, _a in rows if seat not in (0, None))


def test_no_answer_through_the_queue_shows_a_card_the_person_may_not_see(
    db: str, queue_url: str
) -> None:
    """test_web_leak's random matches, with the computer players on the queue."""
    rng = random.Random("leak-queue")
    engine = create_engine(db)
    answers = 0
    try:
        with oudler_worker(queue_url), web_client(db, queue_url=queue_url) as client:
            assert client.get("/healthz").json()["workers"] == "ok"
            for level in ("random", "club"):
                answers += play_one(client, engine, level, rng.randrange(2**40), rng)
    finally:
        engine.dispose()
    assert answers > 200


def test_a_timed_out_decision_is_cancelled_on_the_queue_and_asked_afresh(
    db: str, queue_url: str
) -> None:
    """No expert worker yet: the step answers 202 while the decision waits, 503 once it is past
    its time, and then the job is gone from Redis (it would never start). With a worker, asking
    again submits it afresh and the action is stored once."""
    client = redis.Redis.from_url(queue_url)
    seed = next(s for s in range(100) if Match(2, s).current.to_move != 0)
    with web_client(db, queue_url=queue_url, step_wait=0.3, decision_timeout=1.0) as c:
        view = c.post("/api/matches", json={"deals": 2, "level": "expert", "seed": seed}).json()
        mid, version = view["id"], view["version"]
        r = c.post(f"/api/matches/{mid}/step", json={"version": version})
        assert r.status_code == 202 and r.json() == view
        job_id = f"{mid}:0"
        assert client.zrange("oudler:expert", 0, -1) == [job_id.encode()]
        assert client.exists("arq:job:" + job_id)
        time.sleep(1.0)
        r = c.post(f"/api/matches/{mid}/step", json={"version": version})
        assert r.status_code == 503 and "too long" in r.json()["error"]
        assert client.zcard("oudler:expert") == 0 and not client.exists("arq:job:" + job_id)
        assert stored_rows(db, mid) == []
        assert c.get(f"/api/matches/{mid}").json() == view
        c.app.state.computers.timeout = 60.0  # type: ignore[attr-defined]  # time to think
        with oudler_worker(queue_url, lanes="expert"):
            r = c.post(f"/api/matches/{mid}/step", json={"version": version})
            while r.status_code == 202:
                r = c.post(f"/api/matches/{mid}/step", json={"version": version})
            assert r.status_code == 200, r.text
        metrics = c.get("/metrics").text
    client.close()
    assert len(stored_rows(db, mid)) == 1
    assert results(queue_url)[job_id].job_try == 1  # the cancelled job never ran
    assert 'oudler_decisions_total{level="expert",outcome="timeout"} 1.0' in metrics
    assert 'oudler_decisions_total{level="expert",outcome="ok"} 1.0' in metrics


def test_a_thinking_expert_holds_no_thread_and_no_lock(db: str, queue_url: str) -> None:
    """While a step awaits an expert decision that cannot start (no expert worker), the same
    match's view, another match's view and a quick table's steps are all answered: nothing
    waits behind it. (How fast is measured in bench/web_tables.py, not here.)"""
    seed = next(s for s in range(100) if Match(2, s).current.to_move != 0)
    with oudler_worker(queue_url, lanes="quick"), ExitStack() as stack:
        base, _ = stack.enter_context(oudler_serve(db, "--queue", queue_url))
        http = stack.enter_context(httpx2.Client(timeout=60))
        expert = http.post(
            base + "/api/matches", json={"deals": 2, "level": "expert", "seed": seed}
        ).json()
        quick = http.post(base + "/api/matches", json={"deals": 2, "level": "random"}).json()
        waiting = [start_step(http, base, expert) for _ in range(3)]  # one long poll each
        for _ in range(3):
            assert http.get(f"{base}/api/matches/{expert['id']}").json() == expert
            assert http.get(f"{base}/api/matches/{quick['id']}").status_code == 200
        rng = random.Random(1)
        for _ in range(20):
            r = move(http, base, quick, rng)
            assert r.status_code == 200, r.text
            quick = r.json()
        assert all(thread.is_alive() and not answer for thread, answer in waiting)
        assert http.get(base + "/healthz").json()["workers"] == "none listening on expert"
        metrics = http.get(base + "/metrics").text
        assert 'oudler_jobs_queued{lane="expert"} 1.0' in metrics
        assert 'oudler_decisions_queued{level="expert"} 1.0' in metrics
        assert 'oudler_decisions_thinking{level="expert"} 0.0' in metrics
        assert 'oudler_decisions_queued{level="random"} 0.0' in metrics
    for thread, _answer in waiting:
        thread.join(timeout=30)


def test_oudler_worker_refuses_a_bad_queue_url_and_says_when_redis_is_unreachable() -> None:
    import subprocess

    from redis_support import OUDLER, free_port

    def worker(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [OUDLER, "worker", *args], capture_output=True, text=True, timeout=120
        )

    bad = worker("--queue", "http://127.0.0.1:6379/0")
    assert bad.returncode == 2 and "not a Redis URL" in bad.stderr
    lanes = worker("--queue", "redis://127.0.0.1:6379/0", "--lanes", "slow")
    assert lanes.returncode == 2 and "lanes are quick and expert" in lanes.stderr
    port = free_port()  # nothing listens there
    gone = worker("--queue", f"redis://127.0.0.1:{port}/0", "--lanes", "quick")
    assert gone.returncode == 1
    assert f"cannot reach the queue at redis://127.0.0.1:{port}/0" in gone.stderr


def test_with_queue_lanes_expert_the_quick_levels_think_in_the_web_process(
    db: str, queue_url: str
) -> None:
    """``--queue-lanes expert``: random, novice and club never go to Redis (no worker listens
    for them here, and none is needed); the expert still does."""
    client = redis.Redis.from_url(queue_url)
    rng = random.Random(4)
    seed = next(s for s in range(100) if Match(2, s).current.to_move != 0)
    with (
        oudler_worker(queue_url, lanes="expert"),
        web_client(db, queue_url=queue_url, queue_lanes=("expert",)) as c,
    ):
        assert c.get("/healthz").json()["workers"] == "ok"  # the quick lane needs none
        view = new_match(c, level="club")
        for _ in range(40):
            view = advance(c, view, rng)
        assert not results(queue_url) and client.zcard("oudler:quick") == 0
        expert = new_match(c, level="expert", seed=seed)
        advance(c, expert, rng)
        assert list(results(queue_url)) == [f"{expert['id']}:0"]
    client.close()


def test_healthz_fails_while_redis_does_not_answer_and_recovers(db: str) -> None:
    """``/healthz`` checks that the queue answers: 503 naming the computer players while
    Redis is down, 200 again once a Redis answers on that address."""
    from redis_support import free_port

    port = free_port()
    with web_client(db, queue_url=f"redis://127.0.0.1:{port}/0") as c:
        r = c.get("/healthz")
        assert r.status_code == 503
        body = r.json()
        assert body["ok"] is False and body["database"] == "ok"
        assert body["computer_players"].startswith("unavailable")
        with redis_server(port=port):
            r = c.get("/healthz")
            assert r.status_code == 200, r.text
            assert r.json()["workers"] == "none listening on quick, expert"
