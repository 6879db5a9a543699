"""The first expert match starts at once (issue 19): while the expert's compiled search is being
built (the first start after an install), the real server's views of an expert match say so,
with the progress, and the expert and the coach decide with the pure-Python search instead of
waiting for the compiler; once the search is built the views stop saying so and the expert
searches on it.

The warm-up runs in the real warmer process, held at a gate (``warming_support``) so that the
test knows it is under way.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oudler.tables import warming
from oudler.tables.redisqueue import serve_worker
from redis_support import redis_server
from test_web_support import new_match, temporary_database, web_client
from warming_support import GATE_ENV, GATED, HELD_PROGRESS, WEST_FIRST_SEED

View = dict[str, Any]
PYTHON_DECISION = "an expert decision by the pure-Python search"
PYTHON_HINT = "a hint by the pure-Python search"


def step(client: TestClient, v: View) -> View:
    """One computer player's action (asked again while it thinks)."""
    while True:
        r = client.post(f"/api/matches/{v['id']}/step", json={"version": v["version"]})
        assert r.status_code in (200, 202), r.text
        out: View = r.json()
        if r.status_code == 200:
            return out


def look(client: TestClient) -> Any:
    r = client.get("/api/computer-players")
    assert r.status_code == 200
    return r.json()["warming"]


def wait_for(what: Any, limit: float = 240.0) -> None:
    end = time.monotonic() + limit
    while not what():
        assert time.monotonic() < end, "not within the time"
        time.sleep(0.05)


def python_decisions(caplog: pytest.LogCaptureFixture, what: str = PYTHON_DECISION) -> int:
    return sum(what in r.getMessage() for r in caplog.records)


def test_expert_plays_in_python_while_the_compiled_search_is_built_then_on_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    gate = tmp_path / "gate"
    monkeypatch.setenv(GATE_ENV, str(gate))
    caplog.set_level(logging.DEBUG, logger="oudler")
    with temporary_database(tmp_path) as db, web_client(db, warm_kernel=GATED) as client:
        wait_for(lambda: look(client) == {"progress": HELD_PROGRESS})
        assert not warming.compiled_ready()
        v = new_match(client, level="expert", seed=WEST_FIRST_SEED, learning=True)
        assert v["status"] == "computer_turn"
        assert v["warming"] == {"progress": HELD_PROGRESS}

        v = step(client, v)  # West bids, while the compiled search is not built
        assert v["status"] == "your_turn" and len(v["observation"]["bids"]) == 1
        assert v["warming"] == {"progress": HELD_PROGRESS}
        assert python_decisions(caplog) == 1
        # The coach's hint too comes from the pure-Python search meanwhile.
        r = client.post(f"/api/matches/{v['id']}/hint", json={"version": v["version"]})
        assert r.status_code == 200, r.text
        assert r.json()["hint"]["kind"] == "bid"
        assert python_decisions(caplog, PYTHON_HINT) == 1

        # A match of another level never mentions it (its players use no compiled search).
        club = new_match(client, level="club", seed=WEST_FIRST_SEED)
        assert "warming" not in club

        gate.touch()  # the warm-up goes on and ends
        wait_for(lambda: look(client) is None and warming.compiled_ready())
        caplog.clear()
        r = client.post(
            f"/api/matches/{v['id']}/actions", json={"version": v["version"], "action": "pass"}
        )
        assert r.status_code == 200, r.text
        v = r.json()
        assert "warming" not in v and v["status"] == "computer_turn"
        v = step(client, v)  # East bids on the compiled search
        assert "warming" not in v and len(v["observation"]["bids"]) == 3
        assert python_decisions(caplog) == 0
    assert warming.compiled_ready()  # the server stopped: no warmer is followed any more


def test_worker_processes_decide_without_building_the_kernel_while_it_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ``oudler serve`` runs it: the expert thinks in worker processes, started with the
    server and following the warmer. numba's cache for them is an empty directory: the
    decision builds nothing there (the kernel would have been compiled and cached)."""
    gate = tmp_path / "gate"  # never opened
    cache = tmp_path / "numba"
    cache.mkdir()
    monkeypatch.setenv(GATE_ENV, str(gate))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    with (
        temporary_database(tmp_path) as db,
        web_client(db, bot_processes=1, warm_kernel=GATED) as client,
    ):
        v = new_match(client, level="expert", seed=WEST_FIRST_SEED)
        assert "warming" in v
        v = step(client, v)
        assert v["status"] == "your_turn" and len(v["observation"]["bids"]) == 1
        assert look(client) == {"progress": HELD_PROGRESS}
    assert not [p for p in cache.rglob("*") if p.suffix in (".nbi", ".nbc")]


def test_a_redis_worker_tells_the_web_processes_while_it_gets_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``oudler worker`` on a queue: it takes expert jobs at once (with the pure-Python search)
    and says on Redis how far its warm-up is; a web process's expert views say so, and stop
    saying so once the worker has stopped saying it."""
    monkeypatch.setenv(GATE_ENV, str(tmp_path / "gate"))  # never opened
    with redis_server() as url:
        loop = asyncio.new_event_loop()
        stop = asyncio.Event()
        run = loop.create_task(serve_worker(url, ["expert"], stop=stop, warm_up=GATED))
        worker = threading.Thread(target=loop.run_until_complete, args=(run,), daemon=True)
        worker.start()
        try:
            with (
                temporary_database(tmp_path) as db,
                web_client(db, queue_url=url, queue_lanes=("expert",)) as client,
            ):
                wait_for(lambda: look(client) == {"progress": HELD_PROGRESS})
                v = new_match(client, level="expert", seed=WEST_FIRST_SEED)
                v = step(client, v)  # decided by the worker, while it gets ready
                assert v["status"] == "your_turn" and len(v["observation"]["bids"]) == 1
                assert v["warming"] == {"progress": HELD_PROGRESS}
                loop.call_soon_threadsafe(stop.set)
                worker.join(30)
                assert not worker.is_alive()
                wait_for(lambda: look(client) is None, limit=10)
                assert "warming" not in client.get(f"/api/matches/{v['id']}").json()
        finally:
            loop.call_soon_threadsafe(stop.set)
            worker.join(30)
            loop.close()
