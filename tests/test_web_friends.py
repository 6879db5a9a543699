"""Tables with friends (issue 18): seats for several people, invitations, joining, and each
person's view built from their own seat only; on a real database over the HTTP API."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, text
from sqlalchemy.orm import Session

from oudler.core import Deal
from oudler.core import cards as C
from oudler.tables.games import invite_hash
from oudler.tables.store import SeatRow, Store
from oudler.web.app import create_app
from oudler.web.background import serve_in_thread
from test_web_support import (
    choose_action,
    drop_later_tables,
    engine_match,
    new_match,
    schema_differences,
    stored_rows,
    web_client,
)

FRIENDS = ["me", "person", "computer", "person"]


def other(client: TestClient) -> TestClient:
    """Another person (another browser: no cookie yet) on the same server."""
    return TestClient(client.app)


def token_of(url: str) -> str:
    assert url.startswith("/join/")
    return url.removeprefix("/join/")


def seated(client: TestClient, **body: Any) -> tuple[dict[str, Any], list[TestClient]]:
    """A table with ``seats`` (default ``FRIENDS``) whose open seats are all taken by new
    people: the creator's view, and the people's clients by seat (the creator's included)."""
    body.setdefault("seats", FRIENDS)
    view = new_match(client, **body)
    people = {0: client}
    for invite in view["invites"]:
        friend = other(client)
        r = friend.post(f"/api/join/{token_of(invite['url'])}")
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == invite["seat"]
        people[invite["seat"]] = friend
    return view, [people[s] for s in sorted(people)]


# ------------------------------------------------------------------------------ creating


def test_a_table_for_one_has_no_seats_and_no_invitations(client: TestClient) -> None:
    view = new_match(client, seed=1)
    assert "seats" not in view and "invites" not in view
    assert view["seat"] == 0 and view["status"] in ("your_turn", "computer_turn")
    same = new_match(client, seed=1, seats=["me", "computer", "computer", "computer"])
    assert "invites" not in same and same["observation"] == view["observation"]


@pytest.mark.parametrize(
    "seats",
    [
        ["me", "person", "computer"],
        ["person", "me", "computer", "computer"],
        ["me", "me", "computer", "computer"],
        ["me", "friend", "computer", "computer"],
        ["me", "person", "computer", "person", "person"],
    ],
)
def test_malformed_seats_are_refused_and_create_nothing(
    client: TestClient, seats: list[str]
) -> None:
    r = client.post("/api/matches", json={"deals": 2, "level": "random", "seats": seats})
    assert r.status_code == 400
    assert '"me" first' in r.json()["error"]
    assert client.get("/api/matches").json() == {"matches": []}


def test_learning_and_replays_are_for_one_person(client: TestClient) -> None:
    for extra in ({"learning": True}, {"replay_of": {"match": "x", "deal": 1}, "deals": 1}):
        body = {"deals": 2, "level": "random", "seats": FRIENDS, **extra}
        r = client.post("/api/matches", json=body)
        assert r.status_code == 400, r.text
    assert client.get("/api/matches").json() == {"matches": []}


def test_each_open_seat_gets_an_invitation_whose_token_is_stored_hashed(
    db: str, client: TestClient
) -> None:
    view = new_match(client, seats=FRIENDS)
    assert view["status"] == "waiting"
    assert [i["seat"] for i in view["invites"]] == [1, 3]
    tokens = [token_of(i["url"]) for i in view["invites"]]
    assert len(set(tokens)) == 2 and all(len(t) >= 32 for t in tokens)
    assert view["seats"] == [
        {"seat": 0, "kind": "person", "you": True, "name": None},
        {"seat": 1, "kind": "open", "you": False, "name": None},
        {"seat": 2, "kind": "computer", "you": False, "name": None},
        {"seat": 3, "kind": "open", "you": False, "name": None},
    ]
    engine = create_engine(db)
    with Session(engine) as s:
        stored = {r.seat: r.invite for r in s.scalars(select(SeatRow)).all()}
    engine.dispose()
    assert stored == {0: None, 1: invite_hash(tokens[0]), 2: None, 3: invite_hash(tokens[1])}
    # The creator's view is theirs only, and the invitations are given once, at creation.
    again = client.get(f"/api/matches/{view['id']}").json()
    assert "invites" not in again and again["observation"] == view["observation"]


# ------------------------------------------------------------------------------ joining


def test_joining_by_invitation_seats_the_person_and_the_table_starts_when_full(
    client: TestClient,
) -> None:
    view = new_match(client, seats=FRIENDS, seed=7)
    mid = view["id"]
    first, second = (token_of(i["url"]) for i in view["invites"])
    friend = other(client)
    # Before sitting: the table, the seat and who is there; no cards, no player ids.
    shown = friend.get(f"/api/join/{first}").json()
    assert shown == {
        "match": mid,
        "seat": 1,
        "length": 2,
        "level": "random",
        "seats": [
            {"seat": 0, "kind": "person", "you": False, "name": None},
            {"seat": 1, "kind": "open", "you": False, "name": None},
            {"seat": 2, "kind": "computer", "you": False, "name": None},
            {"seat": 3, "kind": "open", "you": False, "name": None},
        ],
        "open": True,
        "yours": False,
        "started": False,
        "turn_time": None,
        "reserved": None,  # kept for nobody in particular (test_web_reserved.py)
        "reserved_for_you": False,
    }
    (line,) = client.get("/api/matches").json()["matches"]
    assert line["waiting"] is True  # the list says the table waits for friends
    assert friend.get(f"/api/matches/{mid}").status_code == 404  # not seated yet
    joined = friend.post(f"/api/join/{first}").json()
    assert joined["seat"] == 1 and joined["status"] == "waiting"
    assert joined["observation"]["seat"] == 1
    assert joined["observation"]["hand"] != view["observation"]["hand"]
    assert friend.post(f"/api/join/{first}").json() == joined  # sitting again: the same seat
    assert friend.get(f"/api/join/{first}").json()["yours"] is True
    # Until every seat is taken nobody plays.
    r = client.post(f"/api/matches/{mid}/actions", json={"version": 0, "action": "pass"})
    assert r.status_code == 409 and r.json()["code"] == "table_not_full"
    third = other(client)
    started = third.post(f"/api/join/{second}").json()
    assert started["seat"] == 3 and started["status"] != "waiting"
    kinds = [s["kind"] for s in client.get(f"/api/matches/{mid}").json()["seats"]]
    assert kinds == ["person", "person", "computer", "person"]
    # Each of them finds the table in their list, at their seat.
    for seat, c in ((0, client), (1, friend), (3, third)):
        (line,) = c.get("/api/matches").json()["matches"]
        assert line["id"] == mid and line["seat"] == seat and line["waiting"] is False


def test_a_wrong_token_a_taken_seat_and_a_second_seat_are_refused(client: TestClient) -> None:
    view = new_match(client, seats=["me", "person", "person", "computer"])
    first, second = (token_of(i["url"]) for i in view["invites"])
    friend, late = other(client), other(client)
    for bad in ("x" * 32, first[:-1] + ("A" if first[-1] != "A" else "B"), "short"):
        for method in ("get", "post"):
            r = getattr(friend, method)(f"/api/join/{bad}")
            assert r.status_code == 404 and r.json()["code"] == "no_such_invite"
    assert friend.post(f"/api/join/{first}").status_code == 200
    r = late.post(f"/api/join/{first}")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    assert late.get(f"/api/matches/{view['id']}").status_code == 404
    # One seat per person at a table, the creator's included.
    for c in (friend, client):
        r = c.post(f"/api/join/{second}")
        assert r.status_code == 409 and r.json()["code"] == "already_seated"
    assert late.post(f"/api/join/{second}").json()["seat"] == 2


def test_the_creator_may_give_an_open_seat_to_a_computer_player(client: TestClient) -> None:
    view = new_match(client, seats=["me", "person", "person", "computer"], seed=3)
    mid = view["id"]
    first, second = (token_of(i["url"]) for i in view["invites"])
    friend = other(client)
    friend.post(f"/api/join/{first}")
    r = friend.post(f"/api/matches/{mid}/seats/2/computer")
    assert r.status_code == 403 and r.json()["code"] == "not_creator"
    r = client.post(f"/api/matches/{mid}/seats/1/computer")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    filled = client.post(f"/api/matches/{mid}/seats/2/computer").json()
    assert [s["kind"] for s in filled["seats"]] == ["person", "person", "computer", "computer"]
    assert filled["status"] in ("your_turn", "computer_turn", "person_turn")
    r = other(client).post(f"/api/join/{second}")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    assert other(client).post(f"/api/matches/{mid}/seats/2/computer").status_code == 404


def test_two_people_racing_for_a_seat_one_sits(db: str) -> None:
    with serve_in_thread(create_app(db)) as base:
        creator = httpx2.Client(base_url=base)
        body = {"deals": 2, "level": "random", "seats": ["me", "person", "computer", "computer"]}
        view = creator.post("/api/matches", json=body).json()
        token = token_of(view["invites"][0]["url"])
        racers = [httpx2.Client(base_url=base) for _ in range(6)]
        for c in racers:
            c.get("/api/matches")  # each has its player cookie first
        answers: list[int] = []
        gate = threading.Barrier(len(racers))

        def race(c: httpx2.Client) -> None:
            gate.wait()
            answers.append(c.post(f"/api/join/{token}").status_code)

        threads = [threading.Thread(target=race, args=(c,)) for c in racers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == [200, 409, 409, 409, 409, 409]
        sitting = [c for c in racers if c.get(f"/api/matches/{view['id']}").status_code == 200]
        assert len(sitting) == 1
        for c in [creator, *racers]:
            c.close()


# ------------------------------------------------------------------------------ playing


def test_three_people_play_a_match_each_from_their_own_seat_and_nobody_acts_for_another(
    db: str,
) -> None:
    with web_client(db, computer_pause=0) as client:
        play_three(db, client)


def views_at_one_version(people: list[TestClient], mid: str) -> list[dict[str, Any]]:
    """Each person's view, read while the table stands still (not between two of the computer
    player's actions, which the server drives)."""
    for _ in range(500):
        views = [c.get(f"/api/matches/{mid}").json() for c in people]
        if len({v["version"] for v in views}) == 1 and views[0]["status"] != "computer_turn":
            return views
        time.sleep(0.01)
    raise AssertionError("the table did not come to rest")


def play_three(db: str, client: TestClient) -> None:
    view, people = seated(client, seed=11)
    mid = view["id"]
    stranger = other(client)
    rng = random.Random(11)
    deals_seen = 1
    while True:
        views = views_at_one_version(people, mid)
        match = engine_match(db, mid)
        for seat, v in zip((0, 1, 3), views, strict=True):
            assert v["seat"] == seat
            assert v["observation"] == match.current.observation(seat).to_dict()
        assert stranger.get(f"/api/matches/{mid}").status_code == 404
        v = views[0]
        if v["status"] == "match_over" or (deals_seen > 1 and v["status"] == "deal_over"):
            break
        version = v["version"]
        to_move = v["observation"]["to_move"]
        if v["status"] == "deal_over":
            # Each person closes their breakdown; the last one starts the next deal.
            for c in rng.sample(people, 3):
                r = c.post(f"/api/matches/{mid}/next-deal", json={"version": version})
                assert r.status_code == 200, r.text
            assert r.json()["deal_number"] == v["deal_number"] + 1
            deals_seen += 1
        else:
            mover = {0: 0, 1: 1, 3: 2}[to_move]
            statuses = [w["status"] for w in views]
            assert statuses[mover] == "your_turn"
            assert all(s == "person_turn" for i, s in enumerate(statuses) if i != mover)
            action = choose_action(views[mover], rng)
            for i, c in enumerate(people):
                if i != mover:  # nobody acts for a seat not theirs, nor steps for a person
                    body = {"version": version, "action": action}
                    r = c.post(f"/api/matches/{mid}/actions", json=body)
                    assert r.status_code == 409 and r.json()["view"]["seat"] == views[i]["seat"]
                    r = c.post(f"/api/matches/{mid}/step", json={"version": version})
                    assert r.status_code == 409
            r = stranger.post(
                f"/api/matches/{mid}/actions", json={"version": version, "action": action}
            )
            assert r.status_code == 404
            r = people[mover].post(
                f"/api/matches/{mid}/actions", json={"version": version, "action": action}
            )
        assert r.status_code == 200, r.text
    # The record and the review are everyone's, the history counts each at their own seat.
    for seat, c in zip((0, 1, 3), people, strict=True):
        assert c.get(f"/api/matches/{mid}/record").status_code == 200
        review = c.get(f"/api/matches/{mid}/deals/1").json()
        assert review["observation"]["seat"] == seat
        history = c.get("/api/history").json()
        (line,) = [d for d in history["deals"] if d["deal"] == 1]
        assert line["score"] == engine_match(db, mid).deals[0].result.scores[seat]
    # Learning mode is for a table with one person.
    r = client.post(f"/api/matches/{mid}/learning", json={"learning": True})
    assert r.status_code == 422 and r.json()["code"] == "learning_one_person"


def test_a_database_from_before_shared_tables_gets_the_column_and_keeps_its_matches(
    db: str,
) -> None:
    with web_client(db) as c:
        old = new_match(c, seed=5)
        cookie = c.cookies.get("oudler_player")
    engine = create_engine(db)
    with engine.begin() as conn:  # as an older release made it
        drop_later_tables(conn)  # before migrations
        conn.execute(text("DROP TABLE seats"))
        conn.execute(text("ALTER TABLE matches DROP COLUMN shared"))
        conn.execute(text("ALTER TABLE players DROP COLUMN name"))
        conn.execute(text("ALTER TABLE actions DROP COLUMN stand_in"))
    engine.dispose()
    with web_client(db) as c:
        c.cookies.set("oudler_player", str(cookie))
        v = c.get(f"/api/matches/{old['id']}").json()
        assert v["observation"] == old["observation"] and "seats" not in v
        assert len(new_match(c, seats=FRIENDS)["invites"]) == 2
    store = Store(db)
    store.create_schema()  # again: nothing to add, no error
    assert schema_differences(db) == []  # the migrated schema is the models'
    store.close()


def test_the_invitation_page_is_served_for_any_token(client: TestClient) -> None:
    # The page itself holds no table: it asks /api/join/<token>, which checks the token.
    for token in ("x" * 32, "anything"):
        r = client.get(f"/join/{token}")
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        assert '<script type="module" src="/static/js/join.js">' in r.text
    assert client.get("/static/js/join.js").status_code == 200


def test_a_person_chooses_a_name_that_the_others_see(client: TestClient) -> None:
    view = new_match(client, seats=["me", "person", "computer", "computer"])
    token = token_of(view["invites"][0]["url"])
    friend = other(client)
    assert friend.get("/api/me").json() == {"name": None, "account": None}
    for bad in ("", "   ", "x" * 25, "a\u0000b", "a\u202eb"):
        r = friend.post("/api/me", json={"name": bad})
        assert r.status_code == 400, bad
    assert friend.get("/api/me").json() == {"name": None, "account": None}
    named = friend.post("/api/me", json={"name": "  Léa   Dubois "}).json()
    assert named == {"name": "Léa Dubois", "account": None}
    friend.post(f"/api/join/{token}")
    client.post("/api/me", json={"name": "Marc"})
    seats = client.get(f"/api/matches/{view['id']}").json()["seats"]
    assert [(s["kind"], s["name"]) for s in seats] == [
        ("person", "Marc"),
        ("person", "Léa Dubois"),
        ("computer", None),
        ("computer", None),
    ]
    shown = other(client).get(f"/api/join/{token}").json()["seats"]
    assert shown[1]["name"] == "Léa Dubois"


def play_to_deal_over(people: dict[int, TestClient], mid: str, rng: random.Random) -> None:
    """Every person acts on their turns (the server drives the computer players) until the
    deal is over."""
    any_one = next(iter(people.values()))
    while (v := any_one.get(f"/api/matches/{mid}").json())["status"] != "deal_over":
        if v["status"] in ("your_turn", "person_turn"):
            mover = v["observation"]["to_move"]
            mine = people[mover].get(f"/api/matches/{mid}").json()
            body = {"version": mine["version"], "action": choose_action(mine, rng)}
            r = people[mover].post(f"/api/matches/{mid}/actions", json=body)
            assert r.status_code in (200, 409), r.text  # 409: a computer player was quicker
        else:
            time.sleep(0.02)  # the server drives the computer players


def test_each_person_closes_their_own_breakdown_and_the_last_one_starts_the_next_deal(
    client: TestClient, db: str
) -> None:
    """Issue 28, item 17: one person's "Next deal" closes their breakdown only; the others
    still read theirs (the table, its version and its deal unchanged for them) until each has
    closed theirs, and the last one's starts the next deal."""
    view, three = seated(client, seats=["me", "person", "computer", "person"], seed=14)
    people = {0: three[0], 1: three[1], 3: three[2]}
    mid = view["id"]
    play_to_deal_over(people, mid, random.Random(14))
    before = {s: p.get(f"/api/matches/{mid}").json() for s, p in people.items()}
    version = before[0]["version"]
    assert all(v["next_deal"] == {"ready": [], "deadline": None} for v in before.values())
    rows = len(stored_rows(db, mid))
    for closing, ready in ((1, [1]), (1, [1]), (0, [0, 1])):  # twice: once is enough
        r = people[closing].post(f"/api/matches/{mid}/next-deal", json={"version": version})
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "deal_over" and r.json()["next_deal"]["ready"] == ready
        for s, p in people.items():
            now = p.get(f"/api/matches/{mid}").json()
            assert now["status"] == "deal_over" and now["version"] == version
            assert now["observation"] == before[s]["observation"]  # their breakdown stands
            assert now["next_deal"]["ready"] == ready
    assert len(stored_rows(db, mid)) == rows + 2  # who closed theirs is kept
    r = people[3].post(f"/api/matches/{mid}/next-deal", json={"version": version})
    assert r.status_code == 200, r.text
    assert r.json()["deal_number"] == 2 and r.json()["version"] == version + 1
    assert r.json()["next_deal"] is None
    assert engine_match(db, mid).current is not None  # the log replays
    summary = {m["id"]: m for m in client.get("/api/matches").json()["matches"]}
    assert summary[mid]["version"] == version + 1  # the list counts steps the same way


def test_a_friend_who_replays_a_deal_holds_their_own_hand_from_it(
    client: TestClient, db: str
) -> None:
    """Issue 28, item 9: a friend who sat West plays the deal again at a table for one (South
    there): they get West's hand, and every hand goes round the table as it was."""
    view, two = seated(client, seats=["me", "computer", "computer", "person"], seed=12)
    people = {0: two[0], 3: two[1]}
    mid = view["id"]
    play_to_deal_over(people, mid, random.Random(12))
    played = engine_match(db, mid).deals[0]
    body = {"deals": 1, "level": "random", "replay_of": {"match": mid, "deal": 1}}
    r = people[3].post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    replay = r.json()
    assert replay["seat"] == 0
    dealt = Deal.from_seed(played.seed, replay["observation"]["dealer"])
    assert set(replay["observation"]["hand"]) == {
        C.CARD_NAMES[c] for c in C.iter_cards(played.dealt[3])
    }
    assert [dealt.dealt[(s - 3) % 4] for s in range(4)] == list(played.dealt)
    assert dealt.dog == played.dog
    # From South's own seat the replay is the deal as it was.
    r = people[0].post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["observation"]["dealer"] == played.dealer
