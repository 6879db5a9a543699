"""A person's data (issue 29; docs/accounts.md, "Your data"): "Export my data" and "Delete my
account", through the real app on a real database (a temporary SQLite file, or a fresh schema of
``OUDLER_TEST_DATABASE_URL``)."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from oudler.core import Deal
from oudler.core import cards as C
from oudler.core.records import read_seat_record, replay_record
from oudler.tables.store import FORMER, ActionRow, MatchRow, PlayerRow
from oudler.web.account_routes import SESSION_COOKIE
from test_web_accounts import PASSWORD, Device, make, played, rows, sign_in
from test_web_leak import card_tokens
from test_web_support import advance, choose_action, engine_match, new_match

PLAYER_COOKIE = "oudler_player"


def seen_by(deal: Deal, seat: int) -> int:
    """What ``seat`` saw of ``deal`` while it was played, from the engine's state (not from the
    observation): its own hand, every card played, the dog turned face up, its own discard, the
    trumps forced into a discard, the poignées shown, a petit sec hand. Not the review."""
    seen = deal.dealt[seat] | C.mask_of(deal.play_log) | (deal.discard & C.TRUMPS)
    if deal.contract is not None and deal.contract.dog_shown:
        seen |= deal.dog
        if deal.declarer == seat:
            seen |= deal.discard
    for shown in deal.poignees.values():
        seen |= shown
    if deal.petit_sec_seat is not None:
        seen |= deal.dealt[deal.petit_sec_seat]
    return seen


def table_for_two(owner: Device, friend: Device) -> str:
    """A table of the two people (seats 0 and 1) and two computer players."""
    with owner.on() as c:
        table = new_match(c, seats=["me", "person", "computer", "computer"])
    token = table["invites"][0]["url"].removeprefix("/join/")
    r = friend.call("POST", f"/api/join/{token}")
    assert r.status_code == 200, r.text
    return str(table["id"])


def play_table(devices: list[Device], match_id: str, moves: int, seed: int = 1) -> None:
    """The people of a table play ``moves`` requests, each when it is theirs to make."""
    rng = random.Random(seed)
    for _ in range(moves):
        views = [d.call("GET", f"/api/matches/{match_id}").json() for d in devices]
        status = views[0]["status"]
        if status == "match_over":
            return
        if status == "computer_turn":
            r = devices[0].call(
                "POST", f"/api/matches/{match_id}/step", json={"version": views[0]["version"]}
            )
        elif status == "deal_over":
            for d, v in zip(devices, views, strict=True):
                d.call("POST", f"/api/matches/{match_id}/next-deal", json={"version": v["version"]})
            continue
        else:
            who = next(i for i, v in enumerate(views) if v["status"] == "your_turn")
            v = views[who]
            r = devices[who].call(
                "POST",
                f"/api/matches/{match_id}/actions",
                json={"version": v["version"], "action": choose_action(v, rng)},
            )
        # 409: the table moved on meanwhile (its computer players play in the background).
        assert r.status_code in (200, 202, 409), r.text
    settle(devices[0], match_id)


def settle(device: Device, match_id: str) -> None:
    """Until no computer player is to act: the table's own driver plays them in the background,
    so a record read while one still acts could be a card short of the stored log read next."""
    deadline = time.monotonic() + 30
    while device.call("GET", f"/api/matches/{match_id}").json()["status"] == "computer_turn":
        assert time.monotonic() < deadline, "the table's computer players did not act"
        time.sleep(0.02)


def export(device: Device) -> dict[str, Any]:
    r = device.call("GET", "/api/me/export")
    assert r.status_code == 200, r.text
    disposition = r.headers["content-disposition"]
    assert disposition.startswith("attachment;")
    assert re.search(r'filename="oudler-[A-Za-z0-9_.-]+-\d{4}-\d\d-\d\d\.json"', disposition)
    data: dict[str, Any] = json.loads(r.content)
    return data


# ------------------------------------------------------------------------------ export


def test_the_export_holds_every_match_as_records_of_the_persons_own_view(
    client: TestClient, db: str
) -> None:
    person, friend = Device(client), Device(client)
    finished = played(person, actions=1, seed=11)
    rng = random.Random(11)
    with person.on() as c:
        while finished["status"] != "match_over":  # to the end of its two deals
            finished = advance(c, finished, rng)
    in_play = played(person, actions=4, seed=12)
    assert make(person).status_code == 201
    table = table_for_two(friend, person)  # the person sits at seat 1 of a friend's table
    play_table([friend, person], table, moves=60)

    data = export(person)
    assert data["format"] == "oudler-export/1"
    assert data["account"]["name"] == "Camille" and data["account"]["created"]
    assert set(data["account"]) == {"name", "created"}  # no hash, no session
    text = json.dumps(data)
    assert "argon2" not in text and (person.token() or "?") not in text
    ids = [m["id"] for m in data["matches"]]
    assert sorted(ids) == sorted([finished["id"], in_play["id"], table])
    assert sorted(ids) == sorted(person.matches())

    deals = 0
    for m in data["matches"]:
        match = engine_match(db, m["id"])
        seat = m["seat"]
        assert seat == (1 if m["id"] == table else 0)
        assert len(m["deals"]) == len(match.deals)
        for record, deal in zip(m["deals"], match.deals, strict=True):
            read = read_seat_record(record)  # parses back
            assert read.seat == seat and read.hand == deal.dealt[seat]
            assert read.play == tuple(deal.play_log)
            named = card_tokens(json.dumps(record))
            unseen = C.mask_of(named) & ~seen_by(deal, seat)
            assert not unseen, (m["id"], C.format_cards(unseen))
            assert "seed" not in record
            deals += 1
        # Nothing else of the match names a card it did not show either (hints, analyses).
        rest = {k: v for k, v in m.items() if k != "deals"}
        everything = 0
        for deal in match.deals:
            everything |= seen_by(deal, seat)
        assert not C.mask_of(card_tokens(json.dumps(rest))) & ~everything
    assert deals >= 4


def test_a_guest_exports_their_own_data_too(client: TestClient) -> None:
    guest, other = Device(client), Device(client)
    mine = played(guest, seed=2)
    played(other, seed=3)
    data = export(guest)
    assert data["account"] is None
    assert [m["id"] for m in data["matches"]] == [mine["id"]]
    r = guest.call("GET", "/api/me/export")
    assert "oudler-guest-" in r.headers["content-disposition"]


# ------------------------------------------------------------------------------ delete


def test_deleting_an_account_needs_the_password_and_changes_nothing_without_it(
    client: TestClient, db: str
) -> None:
    person = Device(client)
    played(person)
    assert make(person).status_code == 201
    guest = Device(client)
    assert guest.call("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 401
    r = person.call("DELETE", "/api/account", json={"password": "wrong password!"})
    assert r.status_code == 401 and r.json()["code"] == "bad_credentials"
    missing = person.call("DELETE", "/api/account", json={})
    assert missing.status_code == 422 and missing.json()["code"] == "recheck_missing"
    assert person.me()["account"] == {"name": "Camille"}
    assert rows(db, MatchRow) == 1


def test_a_deleted_account_leaves_the_others_matches_whole_as_a_former_player(
    client: TestClient, db: str
) -> None:
    person, friend = Device(client), Device(client)
    solo = played(person, seed=6)
    assert make(person).status_code == 201
    old_session = person.token()
    old_guest = person.jar.get(PLAYER_COOKIE)
    friends_own = played(friend, seed=7)
    assert make(friend, "Dominique").status_code == 201
    table = table_for_two(friend, person)
    play_table([friend, person], table, moves=120)
    before = friend.call("GET", f"/api/matches/{table}").json()
    assert before["seats"][1]["name"] == "Camille"
    before_record = friend.call("GET", f"/api/matches/{table}/record").json()
    actions_before = len(engine_match(db, table).deals)

    r = person.call("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    assert r.json() == {"account": None, "deleted": 1}  # the solo match went with it
    # The deleting device is a fresh guest: no account, no name, no match.
    assert person.me() == {"name": None, "account": None}
    assert person.matches() == []
    assert person.jar.get(PLAYER_COOKIE) != old_guest

    # Its old session cookie is dead, and so is the guest cookie the account was made from.
    for cookies in ({SESSION_COOKIE: old_session}, {PLAYER_COOKIE: old_guest}):
        stale = Device(client)
        stale.jar.update(cookies)
        assert stale.me()["account"] is None
        assert stale.matches() == []
        assert stale.call("GET", f"/api/matches/{table}").status_code == 404

    # The name is free, and signing in with it is the usual refusal.
    refused = sign_in(Device(client))
    unknown = sign_in(Device(client), name="Nobody Here")
    assert refused.status_code == unknown.status_code == 401
    assert refused.json() == unknown.json()
    assert make(Device(client), "camille").status_code == 201

    # The friend's matches and history are whole; the person is "a former player".
    assert sorted(friend.matches()) == sorted([table, friends_own["id"]])
    after = friend.call("GET", f"/api/matches/{table}").json()
    assert after["seats"][1] == {"seat": 1, "kind": "person", "you": False, "name": None,
                                 "former": True}  # fmt: skip

    def scores(view: dict[str, Any]) -> list[Any]:
        return [{k: v for k, v in row.items() if k != "by"} for row in view["sheet"]]

    assert scores(after)[: len(before["sheet"])] == scores(before)
    calls = [*after["by"]["calls"], *(c for row in after["sheet"] for c in row["by"]["calls"])]
    assert {"kind": "person", "name": None, "former": True, "now": True} in calls
    assert "Camille" not in json.dumps(after)
    record = friend.call("GET", f"/api/matches/{table}/record").json()

    def deals(record: dict[str, Any]) -> list[Any]:
        return [{k: v for k, v in d.items() if k != "by"} for d in record["deals"]]

    assert deals(record)[: len(before_record["deals"])] == deals(before_record)
    assert record["deals"] and replay_record(record).ok  # the record replays
    assert record["players"][1] == {"seat": 1, "kind": "person", "name": None, "former": True}
    assert len(engine_match(db, table).deals) == actions_before  # replays from the log
    assert friend.call("GET", "/api/history").status_code == 200
    if after["sheet"]:
        review = friend.call("GET", f"/api/matches/{table}/deals/1")
        assert review.status_code == 200, review.text
    assert friend.call("GET", f"/api/matches/{friends_own['id']}").status_code == 200
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            assert conn.scalar(select(MatchRow.id).where(MatchRow.id == solo["id"])) is None
            names = conn.scalars(select(PlayerRow.name)).all()
            assert "Camille" not in names and FORMER in names
    finally:
        engine.dispose()


def test_a_seat_the_deleted_person_left_names_them_a_former_player(
    client: TestClient, db: str
) -> None:
    person, friend = Device(client), Device(client)
    assert make(person).status_code == 201
    table = table_for_two(friend, person)
    play_table([friend, person], table, moves=6)
    assert person.call("POST", f"/api/matches/{table}/leave").status_code == 200
    assert person.call("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 200
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            left = conn.scalars(select(ActionRow.action).where(ActionRow.kind == "left")).all()
    finally:
        engine.dispose()
    assert left == [{"name": FORMER}]
    assert rows(db, MatchRow) == 1  # the friend's table stays
    view = friend.call("GET", f"/api/matches/{table}").json()
    assert view["seats"][1]["kind"] == "open"
