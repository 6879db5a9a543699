"""Hardening of the web table (issue 10): body and header limits, security headers, signed player
ids, the new-match limit, connection timeouts and database failures, on a real database and (for
the connection tests) a real uvicorn on a loopback port."""

from __future__ import annotations

import datetime as dt
import json
import random
import socket
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, event, select
from sqlalchemy.orm import Session

from oudler.tables.store import PlayerRow, SettingRow, list_statement
from oudler.web.app import create_app
from oudler.web.background import serve_in_thread
from oudler.web.security import CONTENT_SECURITY_POLICY, MAX_BODY, PlayerIds
from test_web_support import (
    PG_ENV,
    advance,
    choose_action,
    new_match,
    steps_stored,
    web_client,
)


def bidding_view(client: TestClient) -> dict[str, Any]:
    view = new_match(client, seed=3)
    rng = random.Random(3)
    while "bids" not in view["observation"]["legal"]:
        view = advance(client, view, rng)
    return view


# ------------------------------------------------------------------------------ request size


def test_a_body_over_the_limit_is_a_json_413_and_changes_nothing(
    db: str, client: TestClient
) -> None:
    view = bidding_view(client)
    mid, version = view["id"], view["version"]
    huge = {"version": version, "action": "x" * (10 * 1024 * 1024)}
    r = client.post(f"/api/matches/{mid}/actions", json=huge)
    assert r.status_code == 413
    assert r.json() == {
        "error": f"the request body is too large (at most {MAX_BODY} bytes)",
        "code": "body_too_large",
    }
    assert len(r.content) < 200  # the bid is not echoed back
    # A chunked body (no Content-Length) is counted as it arrives.
    chunks = (b'{"version": 1, "action": "' + b"x" * 8192 for _ in range(20))
    r = client.post(f"/api/matches/{mid}/actions", content=chunks)
    assert r.status_code == 413
    assert steps_stored(db, mid) == version
    assert client.get(f"/api/matches/{mid}").json() == view


def test_a_long_bad_bid_under_the_limit_is_not_echoed_back(client: TestClient) -> None:
    view = bidding_view(client)
    bid = "y" * 50_000
    r = client.post(
        f"/api/matches/{view['id']}/actions", json={"version": view["version"], "action": bid}
    )
    assert r.status_code == 400
    error = r.json()["error"]
    assert error.startswith("unknown bid 'yyyy") and len(error) <= 300
    assert client.get(f"/api/matches/{view['id']}").json() == view


# ------------------------------------------------------------------------------ headers


def test_every_answer_has_the_security_headers_and_api_answers_are_not_stored(
    client: TestClient,
) -> None:
    mid = new_match(client)["id"]
    answers = {
        "page": client.get("/"),
        "static": client.get("/static/js/app.js"),
        "view": client.get(f"/api/matches/{mid}"),
        "list": client.get("/api/matches"),
        "error": client.post(f"/api/matches/{mid}/step", json={"version": "x"}),
        "unknown": client.get("/nothing-here"),
    }
    for name, r in answers.items():
        h = r.headers
        assert h["content-security-policy"] == CONTENT_SECURITY_POLICY, name
        assert "script-src 'self'" in h["content-security-policy"]
        assert "unsafe-inline" not in h["content-security-policy"]
        assert "frame-ancestors 'none'" in h["content-security-policy"]
        assert h["x-content-type-options"] == "nosniff", name
        assert h["x-frame-options"] == "DENY", name
        assert h["referrer-policy"] == "same-origin", name
        assert "strict-transport-security" not in h  # plain HTTP
    for name in ("view", "list", "error"):
        assert answers[name].headers["cache-control"] == "no-store", name
    assert answers["page"].headers["cache-control"] == "no-cache"


def test_the_cookie_is_secure_over_https_only(db: str) -> None:
    with web_client(db) as c:
        c.get("/")
        assert "secure" not in c.get("/").headers.get("set-cookie", "x").lower()
        first = TestClient(c.app).get("/").headers["set-cookie"].lower()
        assert "httponly" in first and "samesite=lax" in first and "secure" not in first
    with TestClient(create_app(db), base_url="https://table.example") as c:
        r = c.get("/")
        assert "; secure" in r.headers["set-cookie"].lower()
        assert r.headers["strict-transport-security"].startswith("max-age=")
    with TestClient(create_app(db, https=True)) as c:  # behind a proxy that speaks HTTPS
        r = c.get("/")
        assert "; secure" in r.headers["set-cookie"].lower()


# ------------------------------------------------------------------------------ player ids


def cookie_of(r: httpx2.Response) -> str | None:
    header = r.headers.get("set-cookie")
    if header is None:
        return None
    return header.split(";")[0].split("=", 1)[1]


def test_a_forged_or_planted_player_id_is_replaced(db: str) -> None:
    with web_client(db) as c:
        mine = cookie_of(c.get("/"))
        assert mine is not None and "." in mine
        mid = new_match(c)["id"]
        player = mine.split(".")[0]
        assert c.get(f"/api/matches/{mid}").status_code == 200  # kept: no new cookie
        forgeries = [
            player,  # the bare id, as the server used to take it
            "A" * 24,  # any well-formed id
            player + "." + "B" * 43,  # a wrong signature
            PlayerIds(b"another server's key").cookie(player),
        ]
        for forged in forgeries:
            other = TestClient(c.app)
            other.cookies.set("oudler_player", forged)
            r = other.get(f"/api/matches/{mid}")
            assert r.status_code == 404, forged
            issued = cookie_of(r)
            assert issued is not None and issued != forged and not issued.startswith(player)
        # The same id signed by another process on the database is accepted.
        with web_client(db) as again:
            again.cookies.set("oudler_player", mine)
            r = again.get(f"/api/matches/{mid}")
            assert r.status_code == 200 and cookie_of(r) is None


def test_an_unsigned_id_from_before_signing_keeps_its_matches(db: str) -> None:
    """Browsers of an older server carry a bare id: it is kept (and signed) if the database knew
    it before the signing key was made, so nobody loses their matches on upgrade."""
    with web_client(db) as c:
        mid = new_match(c)["id"]
        player = c.cookies["oudler_player"].split(".")[0]
    engine = create_engine(db)
    with Session(engine) as s, s.begin():  # as if the key was made after this player
        key = s.get(SettingRow, "player-id-key")
        row = s.get(PlayerRow, player)
        assert key is not None and row is not None
        key.created = row.created + dt.timedelta(seconds=1)
        signing_key = key.value
    engine.dispose()
    with web_client(db) as c:
        c.cookies.set("oudler_player", player)
        r = c.get(f"/api/matches/{mid}")
        assert r.status_code == 200
        assert cookie_of(r) == PlayerIds(signing_key.encode()).cookie(player)


def test_the_signing_key_is_kept_in_the_database_or_configured(db: str) -> None:
    with web_client(db) as c:
        issued = cookie_of(c.get("/"))
    engine = create_engine(db)
    with Session(engine) as s:
        key = s.scalars(select(SettingRow.value).where(SettingRow.name == "player-id-key")).one()
    engine.dispose()
    assert issued is not None and PlayerIds(key.encode()).verify(issued) == issued.split(".")[0]
    configured = "a configured key, long enough"
    with web_client(db, secret_key=configured) as c:
        issued = cookie_of(c.get("/"))
    assert issued is not None and PlayerIds(configured.encode()).verify(issued) is not None


# ------------------------------------------------------------------------------ new matches


def test_new_matches_per_player_are_limited_with_a_json_429(db: str) -> None:
    with web_client(db, new_match_limit=(3, 600)) as c:
        for _ in range(3):
            new_match(c)
        r = c.post("/api/matches", json={"deals": 2, "level": "random"})
        assert r.status_code == 429
        assert "at most 3 new matches every 10 minutes" in r.json()["error"]
        assert len(c.get("/api/matches").json()["matches"]) == 3
        other = TestClient(c.app)  # another player is not held back
        assert other.post("/api/matches", json={"deals": 2, "level": "random"}).status_code == 201


# ------------------------------------------------------------------------------ connections


def connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def closed_within(sock: socket.socket, seconds: float) -> bytes | None:
    """What the server sent before closing the connection, or None if it is still open."""
    sock.settimeout(seconds)
    got = b""
    try:
        while chunk := sock.recv(4096):
            got += chunk
    except TimeoutError:
        return None
    return got


def test_slow_or_idle_connections_are_closed(db: str) -> None:
    with serve_in_thread(create_app(db), header_timeout=0.5, timeout_keep_alive=1) as base:
        silent = connect(base)
        dripping = connect(base)
        dripping.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of the headers
        t0 = time.monotonic()
        assert closed_within(silent, 5) == b""
        assert closed_within(dripping, 5) == b""
        assert time.monotonic() - t0 < 4
        # A keep-alive connection left idle after its answer is closed too.
        kept = connect(base)
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = closed_within(kept, 5)
        assert answer is not None and answer.startswith(b"HTTP/1.1 200")
        # Headers that never end are cut off at the size limit.
        big = connect(base)
        big.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"p" * 40_000 + b"\r\n")
        answer = closed_within(big, 5)
        assert answer is not None and answer.startswith(b"HTTP/1.1 431")
        for s in (silent, dripping, kept, big):
            s.close()
        # The server still serves.
        assert httpx2.get(base + "/healthz").json()["ok"] is True


def read_until_closed(sock: socket.socket) -> bytes:
    """What the server sent; a reset after it (the server closed with the body still unread)
    ends the reading too."""
    sock.settimeout(10)
    got = b""
    try:
        while chunk := sock.recv(4096):
            got += chunk
    except ConnectionResetError:
        pass
    return got


def test_a_large_body_sent_with_its_headers_is_413_not_431(db: str) -> None:
    """A client that writes the headers and a 2 MB body in one go: uvicorn reads them together,
    and the header counter used to count the body's bytes (answering 431, headers too large)."""
    body = b'{"deals": 2, "level": "' + b"r" * (2 * 1024 * 1024) + b'"}'
    head = (
        b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    )
    with serve_in_thread(create_app(db)) as base:
        for declared in (True, False):
            sock = connect(base)
            if declared:
                sock.sendall(head + body)
            else:  # chunked: no length to refuse it by, counted as it arrives
                chunked = head.replace(
                    b"Content-Length: %d" % len(body), b"Transfer-Encoding: chunked"
                )
                sock.sendall(chunked + b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n")
            answer = read_until_closed(sock)
            sock.close()
            assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
            payload = json.loads(answer.split(b"\r\n\r\n", 1)[1])
            assert payload["code"] == "body_too_large"
        # Headers alone over the limit are still 431, a body or not after them.
        sock = connect(base)
        pad = b"X-Pad: " + b"p" * 40_000
        sock.sendall(head.replace(b"Host: x", b"Host: x\r\n" + pad) + body[:1000])
        assert read_until_closed(sock).startswith(b"HTTP/1.1 431")
        sock.close()
        # Nothing was created, and the server still serves.
        with httpx2.Client(base_url=base) as c:
            assert c.get("/api/matches").json() == {"matches": []}


# ------------------------------------------------------------------------------ database failures


@pytest.mark.skipif(bool(__import__("os").environ.get(PG_ENV)), reason="SQLite only")
def test_a_database_that_refuses_writes_answers_json_503_changes_nothing_and_recovers(
    db: str,
) -> None:
    """SQLite refusing every write (``PRAGMA query_only``: its read-only error, which root cannot
    bypass as it would a read-only file), then accepting them again: as a full disk that gets
    space again (checked by hand on a 512 KiB tmpfs, see docs/deploy.md)."""
    refuse = [False]
    with web_client(db) as c:
        engine = c.app.state.store.engine

        @event.listens_for(engine, "checkout")
        def _read_only(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute(f"PRAGMA query_only = {'ON' if refuse[0] else 'OFF'}")
            cur.close()

        rng = random.Random(5)
        view = new_match(c, seed=5)
        mid = view["id"]
        for _ in range(3):
            view = advance(c, view, rng)
        refuse[0] = True
        failures = 0
        for _ in range(40):
            body = {"version": view["version"]}
            if view["status"] == "your_turn":
                body["action"] = choose_action(view, rng)
                r = c.post(f"/api/matches/{mid}/actions", json=body)
            else:
                r = c.post(f"/api/matches/{mid}/step", json=body)
            if r.status_code == 200:
                view = r.json()
                continue
            assert r.status_code == 503, r.text
            assert r.json() == {
                "error": "the database is unavailable; nothing was changed, try again later"
            }
            failures += 1
            assert c.get(f"/api/matches/{mid}").json() == view  # nothing changed
            assert steps_stored(db, mid) == view["version"]
        assert failures > 30
        r = c.post("/api/matches", json={"deals": 2, "level": "random"})
        assert r.status_code == 503 and len(c.get("/api/matches").json()["matches"]) == 1
        refuse[0] = False  # writable again
        for _ in range(5):
            view = advance(c, view, rng)
        assert steps_stored(db, mid) == view["version"]


@pytest.mark.skipif(bool(__import__("os").environ.get(PG_ENV)), reason="SQLite only")
def test_a_sqlite_file_removed_while_serving_is_a_clear_503_not_a_silent_loss(
    tmp_path: Path,
) -> None:
    path = tmp_path / "gone.sqlite3"
    with web_client(f"sqlite:///{path}") as c:
        view = new_match(c, seed=8)
        view = advance(c, view, random.Random(8))
        path.unlink()
        r = c.post(f"/api/matches/{view['id']}/step", json={"version": view["version"]})
        assert r.status_code == 503
        assert "was removed or replaced while the server was running" in r.json()["error"]
        assert c.get(f"/api/matches/{view['id']}").status_code == 503
        health = c.get("/healthz")
        assert health.status_code == 503 and health.json()["database"].startswith("unavailable")


def test_healthz_reports_the_database_and_the_computer_players(db: str) -> None:
    with web_client(db, bot_processes=1) as c:
        r = c.get("/healthz")
        assert r.status_code == 200
        assert r.json() == {"ok": True, "database": "ok", "computer_players": "ok"}


def test_the_list_of_matches_reads_only_the_players_own_actions(db: str) -> None:
    """``GET /api/matches`` counts each match's steps through the primary key (match_id, seq),
    not over the whole actions table."""
    with web_client(db) as c:
        mine = [new_match(c, seed=s) for s in range(2)]
        rng = random.Random(4)
        view = mine[0]
        for _ in range(6):
            view = advance(c, view, rng)
        other = TestClient(c.app)
        theirs = new_match(other)
        advance(other, theirs, rng)
        listed = c.get("/api/matches").json()["matches"]
        assert {m["id"]: m["version"] for m in listed} == {view["id"]: 6, mine[1]["id"]: 0}
    engine = create_engine(db)
    stmt = list_statement("someone", 200).compile(engine, compile_kwargs={"literal_binds": True})
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            plan = " | ".join(
                str(r[-1]) for r in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {stmt}")
            )
            assert "SCAN actions" not in plan, plan
            assert "SEARCH actions USING" in plan and "(match_id=?" in plan, plan
        else:
            conn.exec_driver_sql("SET enable_seqscan = off")  # tiny tables: plan as if large
            plan = " | ".join(r[0] for r in conn.exec_driver_sql(f"EXPLAIN {stmt}"))
            assert "Seq Scan on actions" not in plan, plan
    engine.dispose()
