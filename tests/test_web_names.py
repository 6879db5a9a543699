"""Issue 28, item 8: after a seat changes hands, each action keeps the name of who made it. The
view's ``by`` (calls, contract, shown poignées), the score sheet's rows and the record name the
person who left for their own calls, not whoever sits there now; a computer player that acted
for a person out of time is named as such. Over the HTTP API on a real database."""

from __future__ import annotations

import json
import random
import time

from fastapi.testclient import TestClient

from test_web_friends import other, seated, token_of
from test_web_support import choose_action, engine_match, stored_rows, web_client
from test_web_turns import TWO_AND_TWO, backdate, stand_ins

PEOPLE = ["me", "person", "person", "person"]
LEA = {"kind": "person", "name": "Léa", "now": False}


def named(client: TestClient, name: str) -> TestClient:
    assert client.post("/api/me", json={"name": name}).status_code == 200
    return client


def act(people: dict[int, TestClient], mid: str, rng: random.Random, bid: str | None = None) -> int:
    """The person to move acts (``bid`` in the bidding, else a random legal action): their
    seat."""
    v = people[0].get(f"/api/matches/{mid}").json()
    seat = v["observation"]["to_move"]
    mine = people[seat].get(f"/api/matches/{mid}").json()
    legal = mine["observation"]["legal"]
    action = bid if "bids" in legal and bid is not None else choose_action(mine, rng, eager=0)
    r = people[seat].post(
        f"/api/matches/{mid}/actions", json={"version": mine["version"], "action": action}
    )
    assert r.status_code == 200, r.text
    return int(seat)


def test_a_prise_keeps_the_name_of_the_friend_who_bid_it_after_they_leave(
    client: TestClient, db: str
) -> None:
    named(client, "Anne")
    view, clients = seated(client, seats=PEOPLE, seed=8)
    mid = view["id"]
    people = dict(enumerate(clients))
    named(people[1], "Léa")
    rng = random.Random(8)
    # Everyone passes but Léa (seat 1), who bids Prise: the bidding ends with her contract.
    while people[0].get(f"/api/matches/{mid}").json()["observation"]["phase"] == "bidding":
        seat = people[0].get(f"/api/matches/{mid}").json()["observation"]["to_move"]
        act(people, mid, rng, "prise" if seat == 1 else "pass")
    v = people[0].get(f"/api/matches/{mid}").json()
    assert v["observation"]["declarer"] == 1
    calls = v["by"]["calls"]
    i = v["observation"]["bids"].index("prise")
    assert calls[i] == {"kind": "person", "name": "Léa", "now": True}
    assert v["by"]["declarer"] == calls[i]

    # Mid-deal, Léa leaves; Josette takes her seat by a new link and plays the deal out.
    assert people[1].post(f"/api/matches/{mid}/leave").status_code == 200
    assert stored_rows(db, mid)[-1][1:] == (1, "left", {"name": "Léa"})
    link = client.post(f"/api/matches/{mid}/seats/1/invite").json()["invites"][0]["url"]
    people[1] = named(other(client), "Josette")
    assert people[1].post(f"/api/join/{token_of(link)}").status_code == 200
    v = people[2].get(f"/api/matches/{mid}").json()
    assert v["seats"][1]["name"] == "Josette"
    assert v["by"]["calls"][i] == LEA and v["by"]["declarer"] == LEA
    # The left row is no step: the list of matches counts the version as the view does.
    [line] = people[2].get("/api/matches").json()["matches"]
    assert line["version"] == v["version"]
    while people[0].get(f"/api/matches/{mid}").json()["status"] != "deal_over":
        act(people, mid, rng)

    for seat, p in people.items():
        v = p.get(f"/api/matches/{mid}").json()
        [row] = v["sheet"]
        assert row["declarer"] == 1 and row["by"]["declarer"] == LEA
        assert v["by"]["calls"][i] == LEA and v["by"]["declarer"] == LEA
        assert v["by"] == row["by"]  # the deal's end: the same in both
        # The others sit where they called: their calls are named by who sits there now.
        mine = (seat - v["observation"]["dealer"] - 1) % 4
        assert v["by"]["calls"][mine]["now"] is (seat != 1)
    record = people[1].get(f"/api/matches/{mid}/record").json()
    assert record["deals"][0]["by"]["declarer"] == LEA
    assert record["players"][1] == {"seat": 1, "kind": "person", "name": "Josette"}
    engine_match(db, mid)  # the log replays, its left row included


def test_a_call_made_for_a_person_out_of_time_names_a_computer_player(db: str) -> None:
    with web_client(db) as first:
        view, clients = seated(first, seats=TWO_AND_TWO, turn_time=30, seed=21)
        mid = view["id"]
        named(clients[1], "Léa")
        people = dict(enumerate(clients))
        # Seat 1's call, whenever it is due in the bidding: played for them once out of time.
        v = people[0].get(f"/api/matches/{mid}").json()
        deadline = time.monotonic() + 30
        while v["observation"]["to_move"] != 1:
            assert v["observation"]["phase"] == "bidding" and time.monotonic() < deadline
            if v["status"] in ("your_turn", "person_turn"):
                act(people, mid, random.Random(1), "pass")
            else:
                time.sleep(0.05)  # the server drives the computer players
            v = people[0].get(f"/api/matches/{mid}").json()
        before = len(stored_rows(db, mid))
        cookies = dict(clients[1].cookies)
    backdate(db, mid, 31)
    with web_client(db) as second:
        second.portal.call(second.app.state.tables.stand_in, mid)  # type: ignore[union-attr]
        assert stand_ins(db, mid) == [before]
        v = TestClient(second.app, cookies=cookies).get(f"/api/matches/{mid}").json()
        seat_1 = (1 - v["observation"]["dealer"] - 1) % 4
        assert v["by"]["calls"][seat_1] == {"kind": "stand_in", "level": "random", "now": False}
        # Nothing but words about people: no card in it.
        assert not any(c in json.dumps(v["by"]) for c in ('"T', '"EX"'))
