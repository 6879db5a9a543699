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

import httpx2

from redis_support import oudler_serve as serve_process
from redis_support import play_alternately


@contextmanager
def oudler_serve(db: str, *extra: str) -> Iterator[str]:
    """A real ``oudler serve`` process on a free loopback port; yields its base URL."""
    with serve_process(db, *extra) as (base, _):
        yield base


def test_two_server_processes_serve_one_match_alternately_with_the_same_views(db: str) -> None:
    rng = random.Random(2026)
    with ExitStack() as stack:
        bases = [stack.enter_context(oudler_serve(db)) for _ in range(2)]
        # One cookie jar for both: cookies do not depend on the port, as for one site behind a
        # load balancer. The player id signed by one process is accepted by the other.
        http = stack.enter_context(httpx2.Client(timeout=60))
        r = http.post(bases[0] + "/api/matches", json={"deals": 2, "level": "random"})
        assert r.status_code == 201, r.text
        view, requests = play_alternately(http, bases, r.json(), db, rng)
        assert requests > 100
        lists = [http.get(f"{b}/api/matches").json()["matches"] for b in bases]
        assert lists[0] == lists[1] and lists[0][0]["version"] == view["version"]
