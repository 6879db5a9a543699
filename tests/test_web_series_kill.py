"""A web process killed mid-series loses nothing (issue 30): a signed-in person plays the deals of
the day on a real ``oudler serve``, which is killed outright (SIGKILL) in the middle of the
second deal; a new server on the same database carries the match on from the same version, and
the finished series ranks every board as played."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest

from oudler.tables.series import LEVEL_ENV
from test_web_stop import address, serve
from test_web_support import advance

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads /proc")


def daily(client: httpx2.Client) -> dict[str, Any]:
    deadline = time.monotonic() + 300
    while True:
        lines = [s for s in client.get("/api/series").json()["series"] if s["kind"] == "daily"]
        if lines:
            return dict(lines[0])
        assert time.monotonic() < deadline, "the deals of the day were never made"
        time.sleep(0.2)


def test_a_series_played_across_a_killed_web_process_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LEVEL_ENV, "club")  # the par played by a cheap level: it is not the point
    rng = random.Random(30)
    with serve(tmp_path, "--bot-processes", "0") as (proc, _):
        person = httpx2.Client(base_url=address(proc), timeout=60)
        made = person.post("/api/account", json={"name": "Camille", "password": "a long secret!"})
        assert made.status_code == 201, made.text
        line = daily(person)
        mid = person.post(f"/api/series/{line['id']}/play").json()["match"]
        view = person.get(f"/api/matches/{mid}").json()
        while not view["sheet"] or view["status"] == "deal_over":  # the first deal over
            view = advance(person, view, rng)
        for _ in range(12):  # into the second deal
            view = advance(person, view, rng)
        before = view
        os.killpg(proc.pid, signal.SIGKILL)  # no cleanup at all
        proc.wait(timeout=10)
    with serve(tmp_path, "--bot-processes", "0") as (proc, _):
        again = httpx2.Client(base_url=address(proc), timeout=60, cookies=person.cookies)
        assert again.get("/api/me").json()["account"] == {"name": "Camille"}  # the session too
        view = again.get(f"/api/matches/{mid}").json()
        assert (view["version"], view["sheet"]) == (before["version"], before["sheet"])
        assert view["observation"] == before["observation"]
        assert again.post(f"/api/series/{line['id']}/play").json()["match"] == mid  # no restart
        while view["status"] != "match_over":
            view = advance(again, view, rng)
        ranking = again.get(f"/api/series/{line['id']}/ranking").json()
        (mine,) = [r for r in ranking["rows"] if r["you"]]
        assert mine["ranked"] and mine["scores"] == [row["scores"][0] for row in view["sheet"]]
        listed = daily(again)
        assert listed["finished"] and listed["done"] == 4 and listed["rank"] == 1
