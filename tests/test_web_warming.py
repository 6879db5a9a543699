"""The first expert match starts at once (issue 19): while the expert's compiled search is being
built (the first start after an install), the real server's views of an expert match say so,
with the progress, and the expert decides with its pure-Python search instead of waiting for the
compiler; once the search is built the views stop saying so and the expert searches on it.

The warm-up runs in the real warmer process, held at a gate (``warming_support``) so that the
test knows it is under way.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oudler.tables import warming
from test_web_support import new_match, temporary_database, web_client
from warming_support import GATE_ENV, GATED, HELD_PROGRESS, WEST_FIRST_SEED

View = dict[str, Any]
PYTHON_DECISION = "an expert decision by the pure-Python search"


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


def python_decisions(caplog: pytest.LogCaptureFixture) -> int:
    return sum(PYTHON_DECISION in r.getMessage() for r in caplog.records)


def test_expert_plays_in_python_while_the_compiled_search_is_built_then_on_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    gate = tmp_path / "gate"
    monkeypatch.setenv(GATE_ENV, str(gate))
    caplog.set_level(logging.DEBUG, logger="oudler")
    with temporary_database(tmp_path) as db, web_client(db, warm_kernel=GATED) as client:
        wait_for(lambda: look(client) == {"progress": HELD_PROGRESS})
        assert not warming.compiled_ready()
        v = new_match(client, level="expert", seed=WEST_FIRST_SEED)
        assert v["status"] == "computer_turn"
        assert v["warming"] == {"progress": HELD_PROGRESS}

        v = step(client, v)  # West bids, while the compiled search is not built
        assert v["status"] == "your_turn" and len(v["observation"]["bids"]) == 1
        assert v["warming"] == {"progress": HELD_PROGRESS}
        assert python_decisions(caplog) == 1

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
