"""Passkeys (issue 29; docs/accounts.md, "Passkeys"): adding one, signing in with one, and every
refusal with its code, on a real app and a real database. The authenticator is the software one
of tests/softkey.py; the page's origin is the TestClient's, ``http://testserver``."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, delete, select, update

from oudler.tables.accounts import ATTEMPTS
from oudler.tables.store import (
    AccountRow,
    PasskeyChallengeRow,
    PasskeyRow,
    SessionRow,
    SignInFailureRow,
    Store,
)
from oudler.web.account_routes import SESSION_COOKIE
from softkey import UP, SoftKey, b64
from test_web_accounts import PASSWORD, Device, make, played, rows, sign_in
from test_web_support import web_client

ORIGIN = "http://testserver"


def add_passkey(device: Device, key: SoftKey, name: str = "Phone", **bent: Any) -> Any:
    options = device.call("POST", "/api/passkeys/challenge")
    assert options.status_code == 200, options.text
    answer = key.create(options.json(), bent.pop("origin", ORIGIN), **bent)
    return device.call("POST", "/api/passkeys", json={"name": name, "credential": answer})


def passkey_sign_in(device: Device, key: SoftKey, origin: str = ORIGIN, **bent: Any) -> Any:
    options = device.call("POST", "/api/session/passkey/challenge")
    assert options.status_code == 200, options.text
    answer = key.get(options.json(), origin, **bent)
    return device.call("POST", "/api/session/passkey", json={"credential": answer}), answer


def kept(db: str) -> list[tuple[int, Any]]:
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return [
                (r.sign_count, r.last_used)
                for r in conn.execute(select(PasskeyRow.sign_count, PasskeyRow.last_used))
            ]
    finally:
        engine.dispose()


def unused(db: str) -> int:
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return len(
                conn.scalars(
                    select(PasskeyChallengeRow.id).where(PasskeyChallengeRow.used.is_(None))
                ).all()
            )
    finally:
        engine.dispose()


@pytest.fixture
def person(client: TestClient) -> tuple[Device, SoftKey]:
    """Camille, signed in, with one passkey ("Phone")."""
    device, key = Device(client), SoftKey()
    assert make(device).status_code == 201
    r = add_passkey(device, key)
    assert r.status_code == 201, r.text
    return device, key


def test_a_person_adds_a_passkey_and_signs_in_with_it_on_another_device(
    client: TestClient, db: str
) -> None:
    device, key = Device(client), SoftKey()
    assert make(device).status_code == 201
    options = device.call("POST", "/api/passkeys/challenge").json()
    assert options["rp"]["id"] == "testserver"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["timeout"] == 300_000
    r = device.call(
        "POST",
        "/api/passkeys",
        json={"name": "  My  phone ", "credential": key.create(options, ORIGIN)},
    )
    assert r.status_code == 201, r.text
    added = r.json()["passkey"]
    assert added["name"] == "My phone" and added["last_used"] is None and added["created"]
    listed = device.call("GET", "/api/passkeys").json()["passkeys"]
    assert listed == [added]

    # Another device, a guest who played: a passkey signs it in, and its games move.
    other = Device(client)
    mine = played(other)["id"]
    r, _ = passkey_sign_in(other, key)
    assert r.status_code == 200, r.text
    assert r.json() == {"account": {"name": "Camille"}}
    cookie = r.headers["set-cookie"]
    assert SESSION_COOKIE in cookie and "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    assert other.me()["account"] == {"name": "Camille"}
    assert other.token() not in (None, device.token())
    assert mine in device.matches()
    assert rows(db, SessionRow) == 2
    (used,) = device.call("GET", "/api/passkeys").json()["passkeys"]
    assert used["last_used"] is not None
    assert kept(db)[0][0] == 1


def test_a_passkey_sign_in_ends_the_devices_former_session(
    client: TestClient, person: tuple[Device, SoftKey], db: str
) -> None:
    device, key = person
    before = device.token()
    r, _ = passkey_sign_in(device, key)
    assert r.status_code == 200
    assert device.token() != before  # a new session id: no fixation
    assert rows(db, SessionRow) == 1


REFUSALS = [
    # (what is bent, code, status)
    ({"challenge": b64(b"x" * 32)}, "passkey_challenge_unknown", 401),
    ({"origin": "http://evil.example"}, "passkey_origin", 401),
    ({"origin": "https://testserver"}, "passkey_origin", 401),
    ({"type": "webauthn.create"}, "passkey_invalid", 401),
    ({"count": 0}, "passkey_sign_count", 401),
    ({"rp_id": "evil.example"}, "passkey_invalid", 401),
    ({"flags": UP}, "passkey_invalid", 401),  # the person was not verified
    ({"user": b"someone else"}, "passkey_unknown", 401),
]


@pytest.mark.parametrize(("bent", "code", "status"), REFUSALS)
def test_a_bad_passkey_answer_is_refused_with_its_code_and_changes_nothing(
    client: TestClient,
    person: tuple[Device, SoftKey],
    db: str,
    bent: dict[str, Any],
    code: str,
    status: int,
) -> None:
    _, key = person
    first, _ = passkey_sign_in(Device(client), key)  # the counter is 1 now
    assert first.status_code == 200
    before = kept(db), rows(db, SessionRow), rows(db, SignInFailureRow)
    guest = Device(client)
    origin = bent.pop("origin", ORIGIN)
    r, _ = passkey_sign_in(guest, key, origin, **bent)
    assert r.status_code == status, r.text
    assert r.json()["code"] == code and r.json()["error"]
    assert guest.me()["account"] is None and guest.token() is None
    assert (kept(db), rows(db, SessionRow)) == before[:2]
    assert rows(db, SignInFailureRow) > before[2]  # counted as a failed sign-in
    assert unused(db) == 1  # the refused answer's challenge is left as it was


def test_a_replayed_answer_is_refused(
    client: TestClient, person: tuple[Device, SoftKey], db: str
) -> None:
    _, key = person
    r, answer = passkey_sign_in(Device(client), key)
    assert r.status_code == 200
    sessions = rows(db, SessionRow)
    again = Device(client).call("POST", "/api/session/passkey", json={"credential": answer})
    assert again.status_code == 401 and again.json()["code"] == "passkey_challenge_used"
    assert rows(db, SessionRow) == sessions


def test_an_expired_challenge_is_refused(
    client: TestClient, person: tuple[Device, SoftKey], db: str
) -> None:
    _, key = person
    guest = Device(client)
    options = guest.call("POST", "/api/session/passkey/challenge").json()
    store = Store(db)
    try:
        with store.writing() as s:
            s.execute(
                update(PasskeyChallengeRow).values(
                    expires=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
                )
            )
    finally:
        store.close()
    r = guest.call("POST", "/api/session/passkey", json={"credential": key.get(options, ORIGIN)})
    assert r.status_code == 401 and r.json()["code"] == "passkey_challenge_expired"
    assert guest.me()["account"] is None
    assert kept(db)[0][0] == 0


def test_an_unknown_passkey_and_a_malformed_answer_are_refused(
    client: TestClient, person: tuple[Device, SoftKey]
) -> None:
    stranger = SoftKey()
    guest = Device(client)
    options = guest.call("POST", "/api/session/passkey/challenge").json()
    stranger.create(
        {"rp": {"id": "testserver"}, "user": {"id": b64(b"u")}, "challenge": "AA"}, ORIGIN
    )
    r = guest.call(
        "POST", "/api/session/passkey", json={"credential": stranger.get(options, ORIGIN)}
    )
    assert r.status_code == 401 and r.json()["code"] == "passkey_unknown"
    for bad in ({}, {"id": 1}, {"id": "a", "rawId": "a", "type": "public-key", "response": {}}):
        r = guest.call("POST", "/api/session/passkey", json={"credential": bad})
        assert r.status_code == 422 and r.json()["code"] == "passkey_malformed", r.text
    assert guest.me()["account"] is None


def test_passkey_failures_count_toward_the_attempt_limits(
    client: TestClient, person: tuple[Device, SoftKey]
) -> None:
    _, key = person
    assert passkey_sign_in(Device(client), key)[0].status_code == 200  # the counter is 1 now
    limit, window = ATTEMPTS
    for i in range(limit):
        # from another address each time: the account's name reaches the limit
        far = Device(TestClient(client.app, client=(f"198.51.100.{i + 1}", 4000)))
        r, _ = passkey_sign_in(far, key, count=0)
        assert r.json()["code"] == "passkey_sign_count"
    late = Device(TestClient(client.app, client=("203.0.113.9", 4000)))
    r = sign_in(late)  # the password too waits now
    assert r.status_code == 429 and 0 < int(r.headers["retry-after"]) <= window
    r, _ = passkey_sign_in(late, key)  # and the right passkey
    assert r.status_code == 429 and r.json()["code"] == "too_many_attempts"
    assert late.me()["account"] is None


def test_adding_a_passkey_refuses_bad_answers_and_changes_nothing(
    client: TestClient, person: tuple[Device, SoftKey], db: str
) -> None:
    device, key = person
    guest = Device(client)
    for path in ("/api/passkeys/challenge", "/api/passkeys"):
        r = guest.call("POST", path, json={"name": "x", "credential": {}})
        assert r.status_code == 401 and r.json()["code"] == "not_signed_in"
    r = add_passkey(device, SoftKey(), name="   ")
    assert r.status_code == 422 and r.json()["code"] == "passkey_name"
    r = add_passkey(device, SoftKey(), origin="http://evil.example")
    assert r.status_code == 401 and r.json()["code"] == "passkey_origin"
    r = add_passkey(device, SoftKey(), rp_id="evil.example")
    assert r.status_code == 401 and r.json()["code"] == "passkey_invalid"
    (cred,) = key.kept
    r = add_passkey(device, SoftKey(), cred=cred)
    assert r.status_code == 409 and r.json()["code"] == "passkey_exists"
    # Another account's challenge is not this one's.
    other = Device(client)
    assert make(other, "Dominique").status_code == 201
    theirs = other.call("POST", "/api/passkeys/challenge").json()
    r = device.call(
        "POST", "/api/passkeys", json={"name": "x", "credential": SoftKey().create(theirs, ORIGIN)}
    )
    assert r.status_code == 401 and r.json()["code"] == "passkey_challenge_unknown"
    assert rows(db, PasskeyRow) == 1


def test_a_removed_passkey_signs_nobody_in(
    client: TestClient, person: tuple[Device, SoftKey], db: str
) -> None:
    device, key = person
    (mine,) = device.call("GET", "/api/passkeys").json()["passkeys"]
    other = Device(client)
    assert make(other, "Dominique").status_code == 201
    r = other.call("DELETE", f"/api/passkeys/{mine['id']}")
    assert r.status_code == 404 and r.json()["code"] == "passkey_not_found"
    r = device.call("DELETE", f"/api/passkeys/{mine['id']}")
    assert r.status_code == 200 and r.json() == {"passkeys": []}
    r, _ = passkey_sign_in(Device(client), key)
    assert r.status_code == 401 and r.json()["code"] == "passkey_unknown"


def test_the_relying_party_is_the_public_url(db: str) -> None:
    with web_client(db, public_url="https://tarot.example") as client:
        device, key = Device(client), SoftKey()
        assert make(device).status_code == 201
        options = device.call("POST", "/api/passkeys/challenge").json()
        assert options["rp"]["id"] == "tarot.example"
        r = add_passkey(device, SoftKey())  # made on http://testserver: not the site's page
        assert r.status_code == 401 and r.json()["code"] == "passkey_origin"
        assert add_passkey(device, key, origin="https://tarot.example").status_code == 201
        r, _ = passkey_sign_in(Device(client), key, origin="https://tarot.example")
        assert r.status_code == 200, r.text


def test_passkeys_and_challenges_go_with_their_account(
    client: TestClient, person: tuple[Device, SoftKey], db: str
) -> None:
    device, _ = person
    device.call("POST", "/api/passkeys/challenge")
    assert rows(db, PasskeyRow) == 1 and rows(db, PasskeyChallengeRow) == 2
    store = Store(db)
    try:
        with store.writing() as s:
            s.execute(delete(SessionRow))
            s.execute(delete(AccountRow))
    finally:
        store.close()
    assert rows(db, PasskeyRow) == 0  # ON DELETE CASCADE
    assert rows(db, PasskeyChallengeRow) == 0  # both were this account's ("add")


# ------------------------------------------------------------------ deleting with a passkey


def confirm(device: Device, key: SoftKey, **bent: Any) -> Any:
    options = device.call("POST", "/api/account/passkey/challenge")
    assert options.status_code == 200, options.text
    # The account's passkeys are named: the authenticator needs no discoverable credential.
    assert [c["id"] for c in options.json()["allowCredentials"]] == list(map(b64, key.kept))
    answer = key.get(options.json(), bent.pop("origin", ORIGIN), **bent)
    return device.call("DELETE", "/api/account", json={"passkey": answer}), answer


def test_deleting_the_account_with_a_passkey_given_again(
    client: TestClient, person: tuple[Device, SoftKey], db: str
) -> None:
    device, key = person
    r, answer = confirm(device, key)
    assert r.status_code == 200, r.text
    assert r.json()["account"] is None
    assert rows(db, AccountRow) == 0 and rows(db, PasskeyRow) == 0
    assert device.me()["account"] is None  # a guest again
    # The passkey and its answer open nothing any more.
    replay = device.call("DELETE", "/api/account", json={"passkey": answer})
    assert replay.status_code == 401 and replay.json()["code"] == "not_signed_in"


def test_a_passkey_recheck_refuses_another_accounts_key_a_replay_and_a_wrong_origin(
    client: TestClient, person: tuple[Device, SoftKey], db: str
) -> None:
    device, key = person
    other, other_key = Device(client), SoftKey()
    assert make(other, "Dominique").status_code == 201
    assert add_passkey(other, other_key).status_code == 201
    # Dominique's passkey answering Camille's challenge: not this account's.
    options = device.call("POST", "/api/account/passkey/challenge").json()
    stolen = other_key.get(options, ORIGIN)
    r = device.call("DELETE", "/api/account", json={"passkey": stolen})
    assert r.status_code == 401 and r.json()["code"] == "passkey_unknown"
    # A sign-in challenge does not confirm a deletion, nor an answer made on another page.
    sign_in_options = device.call("POST", "/api/session/passkey/challenge").json()
    r = device.call("DELETE", "/api/account", json={"passkey": key.get(sign_in_options, ORIGIN)})
    assert r.status_code == 401 and r.json()["code"] == "passkey_challenge_unknown"
    r, _ = confirm(device, key, origin="http://evil.example")
    assert r.status_code == 401 and r.json()["code"] == "passkey_origin"
    # Neither or both: 422; nothing was deleted by any of it.
    for body in ({}, {"password": PASSWORD, "passkey": stolen}):
        r = device.call("DELETE", "/api/account", json=body)
        assert r.status_code == 422 and r.json()["code"] == "recheck_missing"
    assert rows(db, AccountRow) == 2 and device.me()["account"] == {"name": "Camille"}


def test_an_account_without_a_passkey_is_asked_for_its_password(client: TestClient) -> None:
    device = Device(client)
    assert make(device).status_code == 201
    r = device.call("POST", "/api/account/passkey/challenge")
    assert r.status_code == 409 and r.json()["code"] == "no_passkey"
