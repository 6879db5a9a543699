"""What accounts cost (issue 29; docs/accounts.md): a password sign-in, slow on purpose (argon2id
with argon2-cffi's recommended parameters: 64 MiB, 3 passes, 4 lanes), and what the session lookup
adds to each request of a signed-in person, against a guest's (whose request checks instead that
no account owns its player id).

    .venv/bin/python bench/accounts.py [--database-url URL] [--sign-ins 30] [--views 400]

Over HTTP through the real app in-process (Starlette's TestClient, no network): ``POST
/api/session`` timed ``--sign-ins`` times (median, p95); then ``GET /api/matches/{id}`` of the
same match, as the guest who made it and, after "keep my games", signed in (median, p95), and
``Accounts.who`` alone for both. The default database is a temporary SQLite file.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from oudler.web.account_routes import SESSION_COOKIE
from oudler.web.app import create_app


def timings(action: Callable[[], Any], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        action()
        out.append((time.perf_counter() - t0) * 1000)
    return sorted(out)


def figures(label: str, ms: list[float]) -> tuple[float, float]:
    median = statistics.median(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"{label:<44} median {median:8.3f} ms   p95 {p95:8.3f} ms   (n={len(ms)})")
    return median, p95


def ok(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    return r.json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--sign-ins", type=int, default=30)
    parser.add_argument("--views", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        with TestClient(create_app(url)) as client:
            run(client, args.sign_ins, args.views)


def run(client: TestClient, sign_ins: int, views: int) -> None:
    credentials = {"name": "Bench", "password": "a long enough secret"}
    ok(client.post("/api/account", json=credentials), 201)
    guest = TestClient(client.app)  # a guest on another device, with a match of its own
    paths = {}
    for who, device in (("signed", client), ("guest", guest)):
        body = {"deals": 2, "level": "random", "seed": 1}
        paths[who] = f"/api/matches/{ok(device.post('/api/matches', json=body), 201)['id']}"
        ok(device.get(paths[who]))  # in the cache: every view below reads its version only
    # Taken in turns, so that the machine's other load weighs on both alike.
    guest_views: list[float] = []
    signed_views: list[float] = []
    for _ in range(views):
        guest_views += timings(lambda: ok(guest.get(paths["guest"])), 1)
        signed_views += timings(lambda: ok(client.get(paths["signed"])), 1)
    guest_views.sort()
    signed_views.sort()
    guest_player = guest.cookies.get("oudler_player")

    other = TestClient(client.app)  # another device, signing in again and again
    sign_in_times = timings(lambda: ok(other.post("/api/session", json=credentials)), sign_ins)

    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    token = client.cookies.get(SESSION_COOKIE)
    stranger = (guest_player or "x").split(".")[0]
    who_signed = timings(lambda: accounts.who(token, None), views)
    who_guest = timings(lambda: accounts.who(None, stranger), views)

    print(f"database: {client.app.state.store.engine.url.get_backend_name()}")  # type: ignore[attr-defined]
    figures("POST /api/session (argon2id verify)", sign_in_times)
    g, _ = figures("GET /api/matches/{id} as a guest", guest_views)
    s, _ = figures("GET /api/matches/{id} signed in", signed_views)
    print(f"{'  the session lookup adds (median)':<44} {s - g:+8.3f} ms")
    figures("Accounts.who, a session's token", who_signed)
    figures("Accounts.who, a guest's id (no session)", who_guest)


if __name__ == "__main__":
    main()
