"""Accounts, password sign-in and server-side sessions (issue 29; docs/accounts.md): every answer
of the API, on a real app and a real database (a temporary SQLite file, or a fresh schema of
``OUDLER_TEST_DATABASE_URL``: CI runs this file on PostgreSQL too).

A "device" is a cookie jar of its own on the one client, so that several devices speak to the
same running app.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx2 as httpx
import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select

from oudler.tables.accounts import ATTEMPTS, session_hash
from oudler.tables.store import AccountRow, MatchRow, SessionRow, SignInFailureRow
from oudler.web.account_routes import SESSION_COOKIE
from oudler.web.app import create_app
from oudler.web.background import serve_in_thread
from oudler.web.origin import origin_allowed
from test_web_support import advance, new_match, web_client

PASSWORD = "correct horse battery"
ORIGIN = "http://testserver"  # the TestClient's own origin


class Device:
    """One browser: its own cookies, on the shared client."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jar = httpx.Cookies()

    @contextmanager
    def on(self) -> Iterator[TestClient]:
        saved = self.client.cookies
        self.client.cookies = self.jar
        try:
            yield self.client
        finally:
            self.jar = self.client.cookies
            self.client.cookies = saved

    def call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        with self.on() as c:
            return c.request(method, path, **kwargs)

    def me(self) -> dict[str, Any]:
        r = self.call("GET", "/api/me")
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def matches(self) -> list[str]:
        return [m["id"] for m in self.call("GET", "/api/matches").json()["matches"]]

    def token(self) -> str | None:
        return self.jar.get(SESSION_COOKIE)


def rows(db: str, model: Any) -> int:
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return int(conn.scalar(select(func.count()).select_from(model)) or 0)
    finally:
        engine.dispose()


def make(device: Device, name: str = "Camille", password: str = PASSWORD) -> httpx.Response:
    return device.call("POST", "/api/account", json={"name": name, "password": password})


def sign_in(device: Device, name: str = "Camille", password: str = PASSWORD) -> httpx.Response:
    return device.call("POST", "/api/session", json={"name": name, "password": password})


def played(device: Device, actions: int = 3, seed: int = 5) -> dict[str, Any]:
    """A new match with a few of the person's actions played."""
    rng = random.Random(seed)
    with device.on() as c:
        view = new_match(c, seed=seed)
        done = 0
        while done < actions:
            if view["status"] not in ("computer_turn", "deal_over"):
                done += 1
            view = advance(c, view, rng)
    return view


# ------------------------------------------------------------------------------ keep my games


def test_a_guest_keeps_their_games_and_finds_them_on_another_device(client: TestClient) -> None:
    guest, other = Device(client), Device(client)
    view = played(guest)
    assert guest.me()["account"] is None
    r = make(guest)
    assert r.status_code == 201, r.text
    assert r.json() == {"account": {"name": "Camille"}}
    cookie = r.headers["set-cookie"]
    assert SESSION_COOKIE in cookie and "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    assert guest.me() == {"name": "Camille", "account": {"name": "Camille"}}
    assert guest.matches() == [view["id"]]  # the same player id: nothing moved or copied

    assert other.matches() == []
    r = sign_in(other, "camille")  # names compare without case
    assert r.status_code == 200, r.text
    assert r.json() == {"account": {"name": "Camille"}}
    assert other.me()["account"] == {"name": "Camille"}
    assert other.matches() == [view["id"]]
    there = other.call("GET", f"/api/matches/{view['id']}").json()
    assert there["version"] == view["version"]
    with other.on() as c:  # and plays on from there
        after = advance(c, there, random.Random(9))
    assert after["version"] == view["version"] + 1


def test_signing_in_moves_the_devices_own_guest_matches_to_the_account(
    client: TestClient, db: str
) -> None:
    first, second = Device(client), Device(client)
    kept = played(first, seed=3)
    assert make(first).status_code == 201
    own = played(second, seed=4)  # the second device's guest match, before it signs in
    assert sign_in(second).status_code == 200
    assert sorted(second.matches()) == sorted([kept["id"], own["id"]])
    assert sorted(first.matches()) == sorted([kept["id"], own["id"]])
    assert rows(db, MatchRow) == 2  # moved, not copied


def test_a_table_where_the_guest_and_the_account_both_sit_stays_the_guests(
    client: TestClient,
) -> None:
    """One person holds one seat of a table: the guest's seat there is not moved to the account
    (it would seat the account twice); the device finds it again once signed out."""
    owner, device = Device(client), Device(client)
    assert make(owner).status_code == 201
    with owner.on() as c:
        table = new_match(c, seats=["me", "person", "computer", "computer"])
    token = table["invites"][0]["url"].removeprefix("/join/")
    joined = device.call("POST", f"/api/join/{token}")
    assert joined.status_code == 200, joined.text
    solo = played(device, seed=8)  # and a match of the guest's own, which does move
    assert sorted(device.matches()) == sorted([table["id"], solo["id"]])
    assert sign_in(device).status_code == 200
    assert sorted(device.matches()) == sorted([table["id"], solo["id"]])
    assert device.call("GET", f"/api/matches/{table['id']}").json()["seat"] == 0  # as the account
    assert device.call("DELETE", "/api/session").status_code == 200
    assert device.matches() == [table["id"]]  # the guest again, at their own seat
    assert device.call("GET", f"/api/matches/{table['id']}").json()["seat"] == 1
    assert sorted(owner.matches()) == sorted([table["id"], solo["id"]])


def test_a_signed_in_device_cannot_make_another_account(client: TestClient) -> None:
    device = Device(client)
    assert make(device).status_code == 201
    r = make(device, "Dominique")
    assert r.status_code == 409 and r.json()["code"] == "already_signed_in"


# ------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("name", "password", "status", "code"),
    [
        ("Al", PASSWORD, 422, "name_length"),
        ("A" * 25, PASSWORD, 422, "name_length"),
        ("Camille!", PASSWORD, 422, "name_characters"),
        ("Ca  mille", PASSWORD, 422, "name_characters"),
        ("Admin", PASSWORD, 422, "name_reserved"),
        ("A former player", PASSWORD, 422, "name_reserved"),
        ("Dominique", "short", 422, "password_too_short"),
        ("Dominique", "x" * 257, 422, "password_too_long"),
        ("Dominique", "DOMINIQUE", 422, "password_is_name"),
        ("camille", PASSWORD, 409, "name_taken"),
        ("ＣＡＭＩＬＬＥ", PASSWORD, 409, "name_taken"),  # fullwidth: the same after NFKC
    ],
)
def test_a_bad_name_or_password_is_refused_with_its_code_and_changes_nothing(
    client: TestClient, db: str, name: str, password: str, status: int, code: str
) -> None:
    assert make(Device(client)).status_code == 201
    device = Device(client)
    before = device.me()
    r = make(device, name, password)
    assert r.status_code == status, r.text
    assert r.json()["code"] == code and r.json()["error"]
    assert SESSION_COOKIE not in r.headers.get("set-cookie", "")
    assert device.me() == before
    assert rows(db, AccountRow) == 1 and rows(db, SessionRow) == 1


# ------------------------------------------------------------------------------ signing in


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(
    client: TestClient, db: str
) -> None:
    assert make(Device(client)).status_code == 201
    device = Device(client)
    wrong = sign_in(device, "Camille", "not the password")
    unknown = sign_in(device, "Nobody here", PASSWORD)
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {
            "error": "the name or the password is wrong",
            "code": "bad_credentials",
        }
    )
    for r in (wrong, unknown):
        assert SESSION_COOKIE not in r.headers.get("set-cookie", "")
    # Both paths counted a failure, against the name and against the address.
    assert rows(db, SignInFailureRow) == 4
    assert device.me()["account"] is None


def test_ten_failures_for_a_name_then_429_with_retry_after_even_from_elsewhere(
    client: TestClient,
) -> None:
    assert make(Device(client)).status_code == 201
    limit, window = ATTEMPTS
    for i in range(limit):
        # from a different address each time: only the name's counter reaches the limit
        far = Device(TestClient(client.app, client=(f"198.51.100.{i + 1}", 4000)))
        assert sign_in(far, "Camille", "wrong password").status_code == 401
    late = Device(TestClient(client.app, client=("203.0.113.9", 4000)))
    r = sign_in(late, "Camille", PASSWORD)  # even the right password waits
    assert r.status_code == 429, r.text
    assert r.json()["code"] == "too_many_attempts"
    assert 0 < int(r.headers["retry-after"]) <= window
    assert late.me()["account"] is None
    # The limit is the name's: another name from that address is still heard.
    assert sign_in(late, "Someone else", PASSWORD).status_code == 401


def test_ten_failures_from_an_address_then_429_for_any_name(client: TestClient) -> None:
    assert make(Device(client)).status_code == 201
    limit, window = ATTEMPTS
    device = Device(client)
    for i in range(limit):
        assert sign_in(device, f"Guess {i}", "wrong password").status_code == 401
    r = sign_in(device, "Camille", PASSWORD)
    assert r.status_code == 429 and r.json()["code"] == "too_many_attempts"
    assert 0 < int(r.headers["retry-after"]) <= window
    # The name itself is not blocked for another address.
    elsewhere = Device(TestClient(client.app, client=("192.0.2.44", 4000)))
    assert sign_in(elsewhere, "Camille", PASSWORD).status_code == 200


def test_signing_in_issues_a_new_session_and_a_planted_one_counts_for_nothing(
    client: TestClient, db: str
) -> None:
    maker = Device(client)
    assert make(maker).status_code == 201
    device = Device(client)
    device.jar.set(
        SESSION_COOKIE, "planted-by-someone-else-0123456789abcdef", domain="testserver.local"
    )
    assert device.me()["account"] is None
    assert sign_in(device).status_code == 200
    first = device.token()
    assert first and first != "planted-by-someone-else-0123456789abcdef"
    assert sign_in(device).status_code == 200  # again: yet another session
    second = device.token()
    assert second and second != first
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            ids = set(conn.scalars(select(SessionRow.id)))
    finally:
        engine.dispose()
    assert session_hash(second) in ids and session_hash(first) not in ids  # the old one ended
    assert first not in ids and second not in ids  # only hashes are stored
    stale = Device(client)
    stale.jar.set(SESSION_COOKIE, first, domain="testserver.local")
    assert stale.me()["account"] is None


def test_a_password_is_rehashed_when_the_parameters_change(client: TestClient, db: str) -> None:
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    default = accounts.hasher
    accounts.hasher = PasswordHasher(time_cost=1, memory_cost=8 * 1024, parallelism=1)
    try:
        assert make(Device(client)).status_code == 201
    finally:
        accounts.hasher = default
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            before = conn.scalar(select(AccountRow.password))
        assert before is not None and "m=8192,t=1,p=1" in before
        assert sign_in(Device(client)).status_code == 200
        with engine.connect() as conn:
            after = conn.scalar(select(AccountRow.password))
    finally:
        engine.dispose()
    assert (
        after is not None
        and after.startswith("$argon2id$")
        and not default.check_needs_rehash(after)
    )


# ------------------------------------------------------------------------------ sessions


def test_signing_out_makes_the_device_a_new_guest(client: TestClient) -> None:
    device = Device(client)
    view = played(device)
    assert make(device).status_code == 201
    token = device.token()
    r = device.call("DELETE", "/api/session")
    assert r.status_code == 200 and r.json() == {"account": None}
    assert device.token() is None
    # The guest cookie's id is the account's now: without a session it names nobody.
    assert device.me()["account"] is None
    assert device.matches() == []
    old = Device(client)
    old.jar.set(SESSION_COOKIE, token or "", domain="testserver.local")
    assert old.me()["account"] is None
    assert sign_in(device).status_code == 200
    assert device.matches() == [view["id"]]


def test_sign_out_everywhere_makes_every_device_a_guest(client: TestClient) -> None:
    a, b, c = Device(client), Device(client), Device(client)
    assert make(a).status_code == 201
    assert sign_in(b).status_code == 200 and sign_in(c).status_code == 200
    r = b.call("DELETE", "/api/sessions")
    assert r.status_code == 200 and r.json() == {"account": None, "ended": 3}
    for device in (a, b, c):
        assert device.me()["account"] is None
    guest = Device(client)
    r = guest.call("DELETE", "/api/sessions")
    assert r.status_code == 401 and r.json()["code"] == "not_signed_in"


def test_the_sessions_list_marks_this_one(client: TestClient) -> None:
    a = Device(client)
    assert make(a).status_code == 201
    b = Device(TestClient(client.app, client=("203.0.113.77", 4000)))
    r = b.call("POST", "/api/session", json={"name": "Camille", "password": PASSWORD},
               headers={"user-agent": "Mozilla/5.0   (Phone)"})  # fmt: skip
    assert r.status_code == 200
    listed = b.call("GET", "/api/sessions").json()["sessions"]
    assert len(listed) == 2
    mine = [s for s in listed if s["current"]]
    assert len(mine) == 1
    assert mine[0]["browser"] == "Mozilla/5.0 (Phone)"
    assert mine[0]["place"] == "203.0.113.0/24"  # the network only, never the address
    assert mine[0]["last_seen"] and mine[0]["created"]
    assert set(listed[0]) == {"browser", "place", "created", "last_seen", "current"}
    r = Device(client).call("GET", "/api/sessions")
    assert r.status_code == 401 and r.json()["code"] == "not_signed_in"


def test_a_password_change_signs_out_the_other_sessions(client: TestClient) -> None:
    a, b = Device(client), Device(client)
    assert make(a).status_code == 201
    assert sign_in(b).status_code == 200
    new = "a new and longer secret"
    r = a.call("POST", "/api/password", json={"password": "wrong password", "new_password": new})
    assert r.status_code == 401 and r.json()["code"] == "bad_credentials"
    r = a.call("POST", "/api/password", json={"password": PASSWORD, "new_password": "short"})
    assert r.status_code == 422 and r.json()["code"] == "password_too_short"
    assert b.me()["account"] == {"name": "Camille"}  # the refusals changed nothing
    r = a.call("POST", "/api/password", json={"password": PASSWORD, "new_password": new})
    assert r.status_code == 200 and r.json() == {"account": {"name": "Camille"}, "ended": 1}
    assert a.me()["account"] == {"name": "Camille"}
    assert b.me()["account"] is None
    assert sign_in(Device(client)).status_code == 401
    assert sign_in(Device(client), password=new).status_code == 200


# ------------------------------------------------------------------------------ Origin


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "https://testserver"])
def test_a_foreign_origin_is_refused_and_changes_nothing(
    client: TestClient, db: str, origin: str
) -> None:
    a = Device(client)
    assert make(a).status_code == 201
    foreign = {"origin": origin}
    device = Device(client)
    r = device.call(
        "POST", "/api/session", json={"name": "Camille", "password": PASSWORD}, headers=foreign
    )
    assert r.status_code == 403 and r.json()["code"] == "foreign_origin"
    assert device.me()["account"] is None
    r = a.call("DELETE", "/api/sessions", headers=foreign)
    assert r.status_code == 403 and r.json()["code"] == "foreign_origin"
    r = a.call("POST", "/api/matches", json={"deals": 2, "level": "random"}, headers=foreign)
    assert r.status_code == 403 and r.json()["code"] == "foreign_origin"
    assert a.me()["account"] == {"name": "Camille"} and rows(db, MatchRow) == 0
    # The page's own origin is welcome.
    r = a.call("DELETE", "/api/sessions", headers={"origin": ORIGIN})
    assert r.status_code == 200


def test_the_session_cookie_is_secure_behind_https(db: str) -> None:
    with web_client(db, https=True) as client:
        r = make(Device(client))
        assert r.status_code == 201, r.text
        cookie = [c for c in r.headers.get_list("set-cookie") if c.startswith(SESSION_COOKIE)]
        assert len(cookie) == 1 and "Secure" in cookie[0] and "HttpOnly" in cookie[0]


def scope(origin: str | None, host: str, scheme: str = "http") -> dict[str, Any]:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    return {"type": "http", "scheme": scheme, "headers": headers}


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "public", "allowed"),
    [
        (None, "tarot.example", "http", None, True),  # no Origin: not a cross-site browser
        ("http://tarot.example", "tarot.example", "http", None, True),
        ("http://TAROT.example:80", "tarot.example", "http", None, True),  # default port
        ("https://tarot.example", "tarot.example", "http", None, False),  # another scheme
        ("http://tarot.example:8001", "tarot.example:8000", "http", None, False),
        ("http://[::1]:8000", "[::1]:8000", "http", None, True),
        ("https://tarot.example", "tarot.example", "wss", None, True),  # a socket's handshake
        ("null", "tarot.example", "http", None, False),
        # With a public URL, only its origin: a rebound DNS name matching Host is not enough.
        ("http://evil.example", "evil.example", "http", "https://tarot.example/", False),
        ("https://tarot.example", "10.0.0.5:8000", "http", "https://tarot.example/", True),
    ],
)
def test_the_origin_check(
    origin: str | None, host: str, scheme: str, public: str | None, allowed: bool
) -> None:
    assert origin_allowed(scope(origin, host, scheme), public) is allowed


def test_sign_ins_at_the_same_moment_never_overshoot_the_limit(db: str) -> None:
    """Wrong passwords fired together, through two web apps on one database (two processes as
    far as the database can tell: each its own engine and locks): at most ``limit`` of them are
    heard, the others get 429; before the fix each request checked the count before any of
    them recorded its failure, and most were heard."""
    limit, _ = ATTEMPTS
    cheap = PasswordHasher(time_cost=1, memory_cost=8 * 1024, parallelism=1)
    apps = [create_app(db), create_app(db)]
    for app in apps:
        app.state.accounts.hasher = cheap
    with serve_in_thread(apps[0]) as first, serve_in_thread(apps[1]) as second:
        with httpx.Client(base_url=first) as c:
            body = {"name": "Camille", "password": PASSWORD}
            assert c.post("/api/account", json=body).status_code == 201
        clients = [httpx.Client(base_url=(first, second)[i % 2]) for i in range(3 * limit)]
        answers: list[int] = []
        gate = threading.Barrier(len(clients))

        def guess(c: httpx.Client) -> None:
            gate.wait()
            r = c.post("/api/session", json={"name": "Camille", "password": "wrong password"})
            answers.append(r.status_code)

        threads = [threading.Thread(target=guess, args=(c,)) for c in clients]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for c in clients:
            c.close()
    assert len(answers) == 3 * limit and set(answers) <= {401, 429}, answers
    assert answers.count(401) == limit, sorted(answers)
    assert rows(db, SignInFailureRow) == 2 * limit  # per name and per address, each counted once


# ------------------------------------------------------------------------------ the name


def test_a_signed_in_persons_table_name_is_the_account_name(client: TestClient) -> None:
    device, friend = Device(client), Device(client)
    assert device.call("POST", "/api/me", json={"name": "Cam"}).status_code == 200  # a guest may
    assert make(device).status_code == 201
    assert device.me()["name"] == "Camille"
    r = device.call("POST", "/api/me", json={"name": "Somebody else"})
    assert r.status_code == 409, r.text
    assert r.json()["code"] == "name_is_account" and "/api/account/name" in r.json()["error"]
    assert device.me() == {"name": "Camille", "account": {"name": "Camille"}}
    # Others at a table see the account's name.
    with device.on() as c:
        table = new_match(c, seats=["me", "person", "computer", "computer"])
    token = table["invites"][0]["url"].removeprefix("/join/")
    assert friend.call("POST", f"/api/join/{token}").json()["seats"][0]["name"] == "Camille"


def test_renaming_the_account_renames_the_person_everywhere(client: TestClient) -> None:
    device, elsewhere, friend = Device(client), Device(client), Device(client)
    assert make(device).status_code == 201
    assert sign_in(elsewhere).status_code == 200
    with device.on() as c:
        table = new_match(c, seats=["me", "person", "computer", "computer"])
    token = table["invites"][0]["url"].removeprefix("/join/")
    assert friend.call("POST", f"/api/join/{token}").status_code == 200

    r = device.call("POST", "/api/account/name", json={"name": "  Camille Dupont "})
    assert r.status_code == 200, r.text
    assert r.json() == {"name": "Camille Dupont", "account": {"name": "Camille Dupont"}}
    assert elsewhere.me() == {"name": "Camille Dupont", "account": {"name": "Camille Dupont"}}
    assert friend.call("GET", f"/api/matches/{table['id']}").json()["seats"][0]["name"] == (
        "Camille Dupont"
    )
    assert sign_in(Device(client), "camille dupont").status_code == 200
    assert sign_in(Device(client), "Camille").status_code == 401  # the old name is free
    # Its own name in another case is no clash.
    r = device.call("POST", "/api/account/name", json={"name": "CAMILLE DUPONT"})
    assert r.status_code == 200 and r.json()["name"] == "CAMILLE DUPONT"


@pytest.mark.parametrize(
    ("name", "status", "code"),
    [
        ("Al", 422, "name_length"),
        ("Camille!", 422, "name_characters"),
        ("Admin", 422, "name_reserved"),
        ("dominique", 409, "name_taken"),
        ("ＤＯＭＩＮＩＱＵＥ", 409, "name_taken"),
    ],
)
def test_a_bad_new_name_is_refused_and_changes_nothing(
    client: TestClient, name: str, status: int, code: str
) -> None:
    device = Device(client)
    assert make(Device(client), "Dominique").status_code == 201
    assert make(device).status_code == 201
    r = device.call("POST", "/api/account/name", json={"name": name})
    assert r.status_code == status, r.text
    assert r.json()["code"] == code and r.json()["error"]
    assert device.me() == {"name": "Camille", "account": {"name": "Camille"}}
    assert sign_in(Device(client), "Camille").status_code == 200


def test_a_guest_has_no_account_to_rename(client: TestClient) -> None:
    r = Device(client).call("POST", "/api/account/name", json={"name": "Camille"})
    assert r.status_code == 401 and r.json()["code"] == "not_signed_in"
