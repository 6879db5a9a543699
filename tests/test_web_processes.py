"""Several ``oudler serve`` processes over one database serve the same matches (issue 10).

Real processes on loopback ports, on a temporary SQLite file or on a fresh schema of
``OUDLER_TEST_DATABASE_URL`` (PostgreSQL). One client alternates between them for a whole match:
no answer is a 409, and every view is the same from both processes and equal to a fresh replay of
the stored actions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx2
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from oudler.web.computer import ComputerPlayers
from oudler.web.games import Tables
from oudler.web.store import MatchRow, Store
from redis_support import oudler_serve as serve_process
from test_web_support import choose_action


@contextmanager
def oudler_serve(db: str, *extra: str) -> Iterator[str]:
    """A real ``oudler serve`` process on a free loopback port; yields its base URL."""
    with serve_process(db, *extra) as (base, _):
        yield base


def fresh_replay(db: str, match_id: str) -> dict[str, Any]:
    """The match's view as a new server would build it: straight from the stored actions."""
    store = Store(db)
    try:
        with Session(create_engine(db)) as s:
            owner = s.scalars(select(MatchRow.owner).where(MatchRow.id == match_id)).one()
        return Tables(store, ComputerPlayers()).view(owner, match_id)
    finally:
        store.close()


def test_two_server_processes_serve_one_match_alternately_with_the_same_views(db: str) -> None:
    rng = random.Random(2026)
    with ExitStack() as stack:
        bases = [stack.enter_context(oudler_serve(db)) for _ in range(2)]
        # One cookie jar for both: cookies do not depend on the port, as for one site behind a
        # load balancer. The player id signed by one process is accepted by the other.
        http = stack.enter_context(httpx2.Client(timeout=60))
        r = http.post(bases[0] + "/api/matches", json={"deals": 2, "level": "random"})
        assert r.status_code == 201, r.text
        view = r.json()
        mid = view["id"]
        requests = 0
        while view["status"] != "match_over":
            base = bases[requests % 2]
            version, status = view["version"], view["status"]
            if status == "computer_turn":
                r = http.post(f"{base}/api/matches/{mid}/step", json={"version": version})
            elif status == "deal_over":
                r = http.post(f"{base}/api/matches/{mid}/next-deal", json={"version": version})
            else:
                body = {"version": version, "action": choose_action(view, rng)}
                r = http.post(f"{base}/api/matches/{mid}/actions", json=body)
            assert r.status_code == 200, r.text
            view = r.json()
            assert view["version"] == version + 1
            requests += 1
            replayed = fresh_replay(db, mid)
            assert view == replayed
            for other in bases:
                assert http.get(f"{other}/api/matches/{mid}").json() == replayed
        assert requests > 100
        lists = [http.get(f"{b}/api/matches").json()["matches"] for b in bases]
        assert lists[0] == lists[1] and lists[0][0]["version"] == view["version"]
