"""Invitations reserved for a named account (issue 29; docs/accounts.md, "Seats kept for an
account"): only that account, signed in, sits there by the link; anyone else gets 403
``seat_reserved`` and nothing changes. On a real app and database (SQLite, or PostgreSQL in CI).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from oudler.tables.store import SeatRow
from test_web_accounts import PASSWORD, Device, make, sign_in
from test_web_support import new_match, web_client

FRIENDS = ["me", "person", "computer", "person"]


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with web_client(db) as c:
        # Cheap argon2 parameters: these tests are about seats, not about the hash's cost.
        c.app.state.accounts.hasher = PasswordHasher(  # type: ignore[attr-defined]
            time_cost=1, memory_cost=8 * 1024, parallelism=1
        )
        yield c


def token_of(url: str) -> str:
    return url.removeprefix("/join/")


def accounts(client: TestClient, *names: str) -> list[Device]:
    """A signed-in device for each name (a guest who kept their games under it)."""
    out = []
    for name in names:
        device = Device(client)
        assert make(device, name).status_code == 201
        out.append(device)
    return out


def table(creator: Device, **body: Any) -> dict[str, Any]:
    body.setdefault("seats", FRIENDS)
    with creator.on() as c:
        return new_match(c, **body)


def seat_rows(db: str) -> dict[int, tuple[str | None, str | None]]:
    engine = create_engine(db)
    try:
        with Session(engine) as s:
            return {r.seat: (r.player, r.reserved) for r in s.scalars(select(SeatRow))}
    finally:
        engine.dispose()


def test_a_seat_kept_for_an_account_seats_that_account_only(client: TestClient, db: str) -> None:
    creator, camille, dominique = accounts(client, "Alix", "Camille", "Dominique")
    view = table(creator, reserved={"1": "camille"})  # names compare without case
    assert view["seats"][1] == {
        "seat": 1, "kind": "open", "you": False, "name": None, "reserved": "Camille"
    }  # fmt: skip
    assert "reserved" not in view["seats"][3]
    kept, free = (token_of(i["url"]) for i in view["invites"])
    before = seat_rows(db)

    guest = Device(client)
    shown = guest.call("GET", f"/api/join/{kept}").json()
    assert shown["reserved"] == "Camille" and shown["reserved_for_you"] is False
    assert shown["open"] is True
    for stranger in (guest, dominique):
        r = stranger.call("POST", f"/api/join/{kept}")
        assert r.status_code == 403, r.text
        assert r.json() == {
            "error": "this seat is kept for Camille: sign in as Camille to sit there",
            "code": "seat_reserved",
        }
    assert seat_rows(db) == before  # the refusals changed nothing
    # The seat for anyone still seats anyone.
    assert guest.call("POST", f"/api/join/{free}").status_code == 200

    assert camille.call("GET", f"/api/join/{kept}").json()["reserved_for_you"] is True
    r = camille.call("POST", f"/api/join/{kept}")
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1 and r.json()["status"] != "waiting"
    assert r.json()["seats"][1]["name"] == "Camille" and "reserved" not in r.json()["seats"][1]


def test_the_same_account_on_another_device_sits_there_too(client: TestClient) -> None:
    creator, _ = accounts(client, "Alix", "Camille")
    view = table(creator, reserved={"3": "Camille"})
    kept = token_of(view["invites"][1]["url"])
    elsewhere = Device(client)
    assert elsewhere.call("POST", f"/api/join/{kept}").status_code == 403
    assert sign_in(elsewhere, "Camille", PASSWORD).status_code == 200  # what the page offers
    r = elsewhere.call("POST", f"/api/join/{kept}")
    assert r.status_code == 200 and r.json()["seat"] == 3


@pytest.mark.parametrize(
    ("reserved", "seats", "status", "code"),
    [
        ({"1": "Nobody here"}, FRIENDS, 422, "no_such_account"),
        ({"2": "Camille"}, FRIENDS, 400, "bad_reservation"),  # a computer player's seat
        ({"0": "Camille"}, FRIENDS, 400, "bad_reservation"),  # the creator's own
        ({"east": "Camille"}, FRIENDS, 400, "bad_reservation"),
        ({"1": "Alix"}, FRIENDS, 422, "reserved_for_you"),
        ({"1": "Camille", "3": "CAMILLE"}, FRIENDS, 422, "reserved_twice"),
        ({"1": "Camille"}, None, 400, "bad_reservation"),  # a table for one
    ],
)
def test_a_bad_reservation_is_refused_and_makes_no_table(
    client: TestClient,
    reserved: dict[str, str],
    seats: list[str] | None,
    status: int,
    code: str,
) -> None:
    creator, _ = accounts(client, "Alix", "Camille")
    body: dict[str, Any] = {"deals": 2, "level": "random", "reserved": reserved}
    if seats is not None:
        body["seats"] = seats
    r = creator.call("POST", "/api/matches", json=body)
    assert r.status_code == status, r.text
    assert r.json()["code"] == code and r.json()["error"]
    assert creator.matches() == []


def test_the_creator_keeps_a_seat_in_the_waiting_table_and_gives_it_back(
    client: TestClient, db: str
) -> None:
    creator, _ = accounts(client, "Alix", "Camille")
    view = table(creator)
    mid, token = view["id"], token_of(view["invites"][0]["url"])
    path = f"/api/matches/{mid}/seats/1/reserve"

    r = creator.call("POST", path, json={"name": "Nobody here"})
    assert r.status_code == 422 and r.json()["code"] == "no_such_account"
    r = creator.call("POST", f"/api/matches/{mid}/seats/2/reserve", json={"name": "Camille"})
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"  # a computer player's
    assert seat_rows(db)[1] == (None, None)

    r = creator.call("POST", path, json={"name": "Camille"})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["reserved"] == "Camille"
    r = creator.call("POST", f"/api/matches/{mid}/seats/3/reserve", json={"name": "camille"})
    assert r.status_code == 422 and r.json()["code"] == "reserved_twice"

    guest = Device(client)
    r = guest.call("POST", f"/api/join/{token}")
    assert r.status_code == 403 and r.json()["code"] == "seat_reserved"
    # Somebody else at the table may not change it.
    other = Device(client)
    assert other.call("POST", f"/api/join/{token_of(view['invites'][1]['url'])}").status_code == 200
    r = other.call("DELETE", path)
    assert r.status_code == 403 and r.json()["code"] == "not_creator"

    r = creator.call("DELETE", path)  # un-reserved: the same link seats anyone again
    assert r.status_code == 200 and "reserved" not in r.json()["seats"][1]
    assert guest.call("GET", f"/api/join/{token}").json()["reserved"] is None
    r = guest.call("POST", f"/api/join/{token}")
    assert r.status_code == 200 and r.json()["seat"] == 1
    r = creator.call("POST", path, json={"name": "Camille"})
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"  # taken now


def test_a_seat_kept_for_a_deleted_account_is_open_to_anyone_again(
    client: TestClient, db: str
) -> None:
    creator, camille = accounts(client, "Alix", "Camille")
    view = table(creator, reserved={"1": "Camille"})
    kept = token_of(view["invites"][0]["url"])
    guest = Device(client)
    assert guest.call("POST", f"/api/join/{kept}").status_code == 403
    r = camille.call("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    assert all(reserved is None for _, reserved in seat_rows(db).values())
    assert guest.call("GET", f"/api/join/{kept}").json()["reserved"] is None
    r = guest.call("POST", f"/api/join/{kept}")
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1
