"""A hint that no worker can begin is computed by the web process (issue 19: the first hint of a
fresh server waited 9.7 s for its worker processes to start): at once while the expert lane has
no worker process up yet, or when no worker has begun its job after ``HERE_AFTER`` seconds.

The real server; its expert lane kept busy by two long jobs, or its worker processes not yet
started. The compiled search is held at a gate (``warming_support``) or never asked for, so every
search here is the pure-Python one and the tests never build the kernel. Nothing here times
anything: what is checked is where each hint was computed (the metrics), that no worker ran its
job, and the hint itself.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oudler.tables.coaching import HERE_AFTER, Coach
from oudler.tables.jobs import EXPERT, QUICK, Job, LocalQueue
from test_web_metrics import samples
from test_web_support import new_match, temporary_database, web_client
from warming_support import GATE_ENV, GATED

View = dict[str, Any]


def hints_counted(client: TestClient) -> dict[str, float]:
    got = samples(client.get("/metrics").text)
    return {
        dict(labels)["outcome"]: value
        for (name, labels), value in got.items()
        if name == "oudler_hints_total"
    }


def to_person(client: TestClient, v: View) -> View:
    """The computer players act until it is the person's turn."""
    while v["status"] == "computer_turn":
        r = client.post(f"/api/matches/{v['id']}/step", json={"version": v["version"]})
        assert r.status_code in (200, 202), r.text
        if r.status_code == 200:
            v = r.json()
    assert v["status"] == "your_turn", v["status"]
    return v


def check_hint(v: View, hint: dict[str, Any]) -> None:
    """A real hint for the decision at hand: a legal choice, the best of the values shown."""
    assert hint["kind"] == "bid"
    assert hint["best"] in v["observation"]["legal"]["bids"]
    values = [o["value"] for o in hint["options"]]
    assert values[0] == max(values) and hint["worlds"] >= 8
    assert set(hint["reason"]) == {"en", "zh", "fr"}


def test_a_hint_no_worker_has_begun_is_computed_by_the_web_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = tmp_path / "gate"  # never opened: the compiled search stays unbuilt
    monkeypatch.setenv(GATE_ENV, str(gate))
    with temporary_database(tmp_path) as db, web_client(db, warm_kernel=GATED) as client:
        app: Any = client.app
        coach: Coach = app.state.coach
        queue = app.state.computers.queue
        assert isinstance(queue, LocalQueue) and coach.here_after == HERE_AFTER
        # The expert lane's two workers busy (as while a fresh server's processes start).
        busy = [Job(f"busy:{i}", "pause", (120.0,), EXPERT) for i in range(2)]
        for job in busy:
            asyncio.run(queue.submit(job))
        v = to_person(client, new_match(client, level="club", learning=True, seed=3))
        r = client.post(f"/api/matches/{v['id']}/hint", json={"version": v["version"]})
        assert r.status_code == 200, r.text
        here = r.json()
        check_hint(v, here["hint"])
        assert hints_counted(client).get("here") == 1.0
        assert "ok" not in hints_counted(client)
        # The queued job was cancelled before any worker began it: it never ran.
        job_id = f"{v['id']}:{here['seq']}:hint"
        assert asyncio.run(queue.states([job_id])) == {job_id: None}
        assert asyncio.run(queue.waiting())[EXPERT] == 0
        # Asked again, the stored hint: the same advice.
        again = client.post(f"/api/matches/{v['id']}/hint", json={"version": v["version"]})
        assert again.json()["hint"] == here["hint"]

        # The lane free again: a hint is computed by a worker.
        for job in busy:
            asyncio.run(queue.cancel(job.id))
        v = to_person(client, new_match(client, level="club", learning=True, seed=4))
        r = client.post(f"/api/matches/{v['id']}/hint", json={"version": v["version"]})
        assert r.status_code == 200, r.text
        check_hint(v, r.json()["hint"])
        assert hints_counted(client) == {"here": 1.0, "ok": 1.0, "stored": 1.0}


def test_hints_of_a_fixed_number_of_worlds_always_wait_for_their_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a fixed number of worlds (reproducible answers, for tests) a hint never falls back:
    the pure-Python search here would give other numbers than the worker's."""
    monkeypatch.setenv(GATE_ENV, str(tmp_path / "gate"))
    with (
        temporary_database(tmp_path) as db,
        web_client(db, warm_kernel=GATED, coach_worlds=8) as client,
    ):
        app: Any = client.app
        assert app.state.coach.here_after is None
        queue = app.state.computers.queue
        for i in range(2):  # both workers busy for a while (well past HERE_AFTER)
            asyncio.run(queue.submit(Job(f"busy:{i}", "pause", (1.5,), EXPERT)))
        v = to_person(client, new_match(client, level="club", learning=True, seed=3))
        r = client.post(f"/api/matches/{v['id']}/hint", json={"version": v["version"]})
        assert r.status_code == 200, r.text
        check_hint(v, r.json()["hint"])
        assert hints_counted(client) == {"ok": 1.0}


def test_a_hint_on_a_server_whose_worker_processes_are_not_up_is_answered_here_at_once(
    tmp_path: Path,
) -> None:
    """The expert lane's worker process starts with its first job (no warm-up asked here): the
    first hint does not wait for it, and no job is submitted for it."""
    with temporary_database(tmp_path) as db, web_client(db, bot_processes=1) as client:
        app: Any = client.app
        queue = app.state.computers.queue
        assert queue.ready(EXPERT) is False
        v = to_person(client, new_match(client, level="club", learning=True, seed=3))
        r = client.post(f"/api/matches/{v['id']}/hint", json={"version": v["version"]})
        assert r.status_code == 200, r.text
        check_hint(v, r.json()["hint"])
        assert hints_counted(client) == {"here": 1.0}
        job_id = f"{v['id']}:{r.json()['seq']}:hint"
        assert asyncio.run(queue.states([job_id])) == {job_id: None}  # never submitted
        assert queue.ready(EXPERT) is False  # and no worker process started for it


def test_the_expert_lane_is_ready_once_a_worker_process_is_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(GATE_ENV, str(tmp_path / "gate"))
    assert LocalQueue(processes=0).ready(EXPERT) is True  # threads of this process
    queue = LocalQueue(processes=1, warm=GATED)
    try:
        assert queue.ready(QUICK) is True and queue.ready(EXPERT) is False
        asyncio.run(queue.start())  # the worker process starts now, not at the first job
        end = time.monotonic() + 240
        while not queue.ready(EXPERT):
            assert time.monotonic() < end, "the worker process never came up"
            time.sleep(0.05)
        assert queue._pool is not None and len(queue._pool._processes) == 1
    finally:
        queue.shutdown()
