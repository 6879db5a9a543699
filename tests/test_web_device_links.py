"""Linking a device (issue 29; docs/accounts.md, "Link a device"): a signed-in device asks for a
one-time code and link, and a new device signs in with either, on a real app and a real database
(a temporary SQLite file, or a fresh schema of ``OUDLER_TEST_DATABASE_URL`` in CI).
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, select, text

from oudler.tables.accounts import ATTEMPTS, session_hash
from oudler.tables.device_links import ALPHABET, LIFE, digest
from oudler.tables.store import AccountRow, DeviceLinkRow, SessionRow, SignInFailureRow, utcnow
from test_web_accounts import Device, make, played, rows
from test_web_support import web_client

Json = dict[str, Any]


def ask(device: Device) -> Json:
    r = device.call("POST", "/api/link-code")
    assert r.status_code == 201, r.text
    out: Json = r.json()
    return out


def link(device: Device, **body: str) -> Any:
    return device.call("POST", "/api/link", json=body)


def token_of(answer: Json) -> str:
    return str(answer["url"]).split("#", 1)[1]


def link_rows(db: str) -> list[Any]:
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return list(conn.execute(select(DeviceLinkRow)).all())
    finally:
        engine.dispose()


@pytest.fixture
def person(client: TestClient) -> Device:
    """A signed-in device (an account made from its guest, with a match played)."""
    device = Device(client)
    played(device)
    assert make(device).status_code == 201
    return device


def test_a_code_signs_a_new_device_in_once_and_only_hashes_are_stored(
    client: TestClient, person: Device, db: str
) -> None:
    answer = ask(person)
    assert set(answer) == {"id", "code", "url", "instead", "qr", "expires"}
    code = answer["code"]
    assert len(code) == 11 and code[5] == "-"
    assert all(ch in ALPHABET for ch in code.replace("-", ""))
    token = token_of(answer)
    assert answer["url"] == f"http://testserver/link#{token}"
    assert len(token) >= 43  # 256 bits in base64url
    assert answer["qr"].startswith("data:image/svg+xml")
    assert "<svg" in unquote(answer["qr"])
    expires = dt.datetime.fromisoformat(answer["expires"])
    assert dt.timedelta(minutes=9) < expires - utcnow() <= LIFE

    (row,) = link_rows(db)
    assert row.code == digest(code.replace("-", "")) and row.token == digest(token)
    assert code not in (row.code, row.token) and token not in (row.code, row.token)
    assert row.used is None

    new = Device(client)
    own = played(new, seed=8)  # the new device's own guest match
    before = rows(db, SessionRow)
    r = link(new, code=code.lower().replace("-", " "))  # as a person may type it
    assert r.status_code == 200, r.text
    assert r.json() == {"account": {"name": "Camille"}}
    cookie = r.headers["set-cookie"]
    assert "oudler_session" in cookie and "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    assert new.me()["account"] == {"name": "Camille"}
    assert rows(db, SessionRow) == before + 1
    assert new.token() != person.token()
    # The device's own guest match moved to the account, as at a password sign-in.
    assert own["id"] in person.matches() and sorted(new.matches()) == sorted(person.matches())
    (row,) = link_rows(db)
    assert row.used is not None

    # The device that asked sees it used.
    state = person.call("GET", f"/api/link-code/{answer['id']}").json()
    assert state["state"] == "used" and state["used"]

    # Single use: the code again, and the link, are refused and change nothing.
    third = Device(client)
    for body in ({"code": code}, {"token": token}):
        r = link(third, **body)
        assert r.status_code == 410, r.text
        assert r.json()["code"] == "link_used"
        assert third.me()["account"] is None
    assert rows(db, SessionRow) == before + 1


def test_the_link_signs_in_with_its_token_and_a_replay_is_refused(
    client: TestClient, person: Device, db: str
) -> None:
    token = token_of(ask(person))
    new = Device(client)
    r = link(new, token=token)
    assert r.status_code == 200, r.text
    assert new.me()["account"] == {"name": "Camille"}
    first = new.token()
    r = link(new, token=token)  # the same device replays it
    assert r.status_code == 410 and r.json()["code"] == "link_used"
    assert new.token() == first  # still the session it had: nothing changed
    assert new.me()["account"] == {"name": "Camille"}


def test_an_expired_code_is_refused(client: TestClient, person: Device, db: str) -> None:
    links = client.app.state.device_links  # type: ignore[attr-defined]
    answer = ask(person)
    sessions = rows(db, SessionRow)
    links.now = lambda: utcnow() + LIFE + dt.timedelta(seconds=1)
    try:
        new = Device(client)
        for body in ({"code": answer["code"]}, {"token": token_of(answer)}):
            r = link(new, **body)
            assert r.status_code == 410, r.text
            assert r.json()["code"] == "link_expired"
        assert new.me()["account"] is None
        assert person.call("GET", f"/api/link-code/{answer['id']}").json()["state"] == "expired"
    finally:
        links.now = utcnow
    assert rows(db, SessionRow) == sessions
    (row,) = link_rows(db)
    assert row.used is None
    # Just before the end it still works.
    links.now = lambda: utcnow() + LIFE - dt.timedelta(seconds=5)
    try:
        assert link(Device(client), code=answer["code"]).status_code == 200
    finally:
        links.now = utcnow


@pytest.mark.parametrize(
    "body",
    [
        {"code": "ABCDE-FGHJK"},  # well formed, never given
        {"code": "12345"},  # too short
        {"code": "UUUUU-UUUUU"},  # U is no symbol of the alphabet
        {"token": "x" * 43},
    ],
)
def test_a_wrong_code_or_token_is_unknown_and_changes_nothing(
    client: TestClient, person: Device, db: str, body: Json
) -> None:
    ask(person)
    new = Device(client)
    sessions = rows(db, SessionRow)
    r = link(new, **body)
    assert r.status_code == 404, r.text
    assert r.json() == {
        "error": "this code or link is not known: check it, or ask for a new one",
        "code": "link_unknown",
    }
    assert "oudler_session" not in r.headers.get("set-cookie", "")
    assert new.me()["account"] is None
    assert rows(db, SessionRow) == sessions
    (row,) = link_rows(db)
    assert row.used is None  # the real code is still good


def test_neither_or_both_is_refused(client: TestClient, person: Device) -> None:
    answer = ask(person)
    new = Device(client)
    for body in ({}, {"code": answer["code"], "token": token_of(answer)}):
        r = link(new, **body)
        assert r.status_code == 422 and r.json()["code"] == "link_missing", r.text
    assert new.me()["account"] is None
    assert link(new, code=answer["code"]).status_code == 200  # not spent by those


def test_wrong_codes_count_against_the_address_then_429_even_for_the_right_one(
    client: TestClient, person: Device, db: str
) -> None:
    answer = ask(person)
    limit, window = ATTEMPTS
    guesser = Device(client)
    for i in range(limit):
        r = link(guesser, code=f"{i:05d}-00000")
        assert r.status_code == 404, r.text
    assert rows(db, SignInFailureRow) == limit  # per address only: no name was given
    r = link(guesser, code=answer["code"])
    assert r.status_code == 429, r.text
    assert r.json()["code"] == "too_many_attempts"
    assert 0 < int(r.headers["retry-after"]) <= window
    assert guesser.me()["account"] is None
    (row,) = link_rows(db)
    assert row.used is None  # the limit came before the code was looked at
    # The password sign-in from that address shares the limit (one counter per address).
    r = guesser.call("POST", "/api/session", json={"name": "Camille", "password": "x" * 8})
    assert r.status_code == 429
    # Another address is heard.
    elsewhere = Device(TestClient(client.app, client=("192.0.2.77", 4000)))
    assert link(elsewhere, code=answer["code"]).status_code == 200


def test_the_device_that_asked_cancels_its_code(
    client: TestClient, person: Device, db: str
) -> None:
    answer = ask(person)
    state = person.call("GET", f"/api/link-code/{answer['id']}").json()
    assert state["state"] == "waiting" and state["used"] is None
    r = person.call("DELETE", f"/api/link-code/{answer['id']}")
    assert r.status_code == 200 and r.json() == {"cancelled": True}
    assert link_rows(db) == []
    new = Device(client)
    assert link(new, code=answer["code"]).json()["code"] == "link_unknown"
    assert link(new, token=token_of(answer)).json()["code"] == "link_unknown"
    assert new.me()["account"] is None
    r = person.call("DELETE", f"/api/link-code/{answer['id']}")
    assert r.status_code == 404 and r.json()["code"] == "link_unknown"


def test_a_used_code_cannot_be_cancelled_and_another_device_cannot_see_it(
    client: TestClient, person: Device
) -> None:
    answer = ask(person)
    new = Device(client)
    assert link(new, code=answer["code"]).status_code == 200
    r = person.call("DELETE", f"/api/link-code/{answer['id']}")
    assert r.status_code == 410 and r.json()["code"] == "link_used"
    # The linked device is the same account, but did not ask for this code.
    r = new.call("GET", f"/api/link-code/{answer['id']}")
    assert r.status_code == 404 and r.json()["code"] == "link_unknown"


def test_a_new_code_ends_the_devices_former_one(client: TestClient, person: Device) -> None:
    first, second = ask(person), ask(person)
    assert first["code"] != second["code"]
    new = Device(client)
    assert link(new, code=first["code"]).json()["code"] == "link_unknown"
    assert link(new, code=second["code"]).status_code == 200


def test_a_signed_out_device_cannot_ask_for_a_code(
    client: TestClient, person: Device, db: str
) -> None:
    guest = Device(client)
    for method, path in (("POST", "/api/link-code"), ("GET", "/api/link-code/1")):
        r = guest.call(method, path)
        assert r.status_code == 401 and r.json()["code"] == "not_signed_in", r.text
    assert link_rows(db) == []
    # Signing out ends the codes the device asked for (they go with the session).
    answer = ask(person)
    assert person.call("DELETE", "/api/session").status_code == 200
    assert link_rows(db) == []
    assert link(Device(client), code=answer["code"]).json()["code"] == "link_unknown"


def test_the_rows_go_with_the_account(client: TestClient, person: Device, db: str) -> None:
    """Deleting an account (a later slice) takes its codes along: both keys cascade."""
    ask(person)
    engine = create_engine(db)
    try:
        keys = {fk["referred_table"]: fk for fk in inspect(engine).get_foreign_keys("device_links")}
        assert keys["accounts"]["options"].get("ondelete") == "CASCADE"
        assert keys["sessions"]["options"].get("ondelete") == "CASCADE"
        with engine.begin() as conn:
            if engine.dialect.name == "sqlite":
                conn.execute(text("PRAGMA foreign_keys=ON"))
            account = conn.scalar(select(AccountRow.id))
            # As the deletion will: the sessions, then the account (no link row is named).
            conn.execute(text("DELETE FROM sessions WHERE account = :id"), {"id": account})
            conn.execute(text("DELETE FROM accounts WHERE id = :id"), {"id": account})
    finally:
        engine.dispose()
    assert link_rows(db) == []


def test_the_link_is_on_the_public_url(db: str) -> None:
    with web_client(db, public_url="https://tarot.example") as client:
        device = Device(client)
        assert make(device).status_code == 201
        r = device.call("POST", "/api/link-code", headers={"origin": "https://tarot.example"})
        assert r.status_code == 201, r.text
        answer = r.json()
        assert answer["url"].startswith("https://tarot.example/link#")
        assert answer["instead"] == []
        assert session_hash(token_of(answer)) == link_rows(db)[0].token


def test_the_link_page_signs_nobody_in_on_its_own(client: TestClient, person: Device) -> None:
    answer = ask(person)
    new = Device(client)
    r = new.call("GET", "/link")  # what a link preview fetches (the token after # never goes)
    assert r.status_code == 200 and "link.js" in r.text
    assert "oudler_session" not in r.headers.get("set-cookie", "")
    assert new.me()["account"] is None
    state = person.call("GET", f"/api/link-code/{answer['id']}").json()
    assert state["state"] == "waiting"


def test_a_foreign_page_cannot_use_a_code(client: TestClient, person: Device) -> None:
    answer = ask(person)
    new = Device(client)
    r = new.call(
        "POST",
        "/api/link",
        json={"code": answer["code"]},
        headers={"origin": "http://evil.example"},
    )
    assert r.status_code == 403 and r.json()["code"] == "foreign_origin"
    assert new.me()["account"] is None
    assert link(new, code=answer["code"]).status_code == 200  # not spent by the refusal


def test_a_link_from_this_machine_only_is_also_given_on_the_network_addresses(db: str) -> None:
    """Opened at 127.0.0.1 with the server on every address: a phone needs the network ones."""
    from oudler.web.addresses import shared_addresses

    with web_client(db, listen_host="0.0.0.0") as client:
        device = Device(client)
        assert make(device).status_code == 201
        r = device.call("POST", "/api/link-code", headers={"host": "127.0.0.1:8000"})
        assert r.status_code == 201, r.text
        answer = r.json()
        token = token_of(answer)
        assert answer["url"] == f"http://127.0.0.1:8000/link#{token}"
        assert answer["instead"] == [
            f"http://{a if ':' not in a else f'[{a}]'}:8000/link#{token}"
            for a in shared_addresses("0.0.0.0")
        ]
