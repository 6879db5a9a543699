"""Leaving a table with friends (issue 18): a person leaves, their seat opens and the table
waits; the creator either waits for someone (a new invitation link for the seat) or gives the
seat to a computer player. Stale and illegal requests get clear errors and change nothing. Over
the HTTP API on a real database."""

from __future__ import annotations

import random
import time

from fastapi.testclient import TestClient

from test_web_friends import other, seated, token_of
from test_web_support import choose_action, engine_match, stored_rows, web_client
from test_web_turns import TWO_AND_TWO, play_until_turn_of

THREE = ["me", "person", "person", "computer"]


def left_at(client: TestClient, who: TestClient, mid: str) -> int:
    """``who`` leaves the table; the seat they left."""
    r = who.post(f"/api/matches/{mid}/leave")
    assert r.status_code == 200, r.text
    assert r.json()["left"] == mid
    seat: int = r.json()["seat"]
    return seat


def test_a_person_who_leaves_frees_the_seat_and_the_table_waits(client: TestClient) -> None:
    view, people = seated(client, seats=THREE, seed=3)
    mid = view["id"]
    play_until_turn_of(people, mid, 1, random.Random(3))
    before = people[0].get(f"/api/matches/{mid}").json()
    assert left_at(client, people[2], mid) == 2
    # They no longer sit there: the table is not theirs to see or act at.
    assert people[2].get(f"/api/matches/{mid}").status_code == 404
    assert people[2].get("/api/matches").json() == {"matches": []}
    now = people[0].get(f"/api/matches/{mid}").json()
    assert now["status"] == "waiting" and now["left"] == [2]
    assert now["seats"][2]["kind"] == "open"
    assert now["version"] == before["version"]  # nothing of the deal changed
    assert now["observation"]["hand"] == before["observation"]["hand"]
    # Nobody acts while the table waits, not even the person whose turn it is.
    v = people[1].get(f"/api/matches/{mid}").json()
    body = {"version": v["version"], "action": choose_action(v, random.Random(1))}
    r = people[1].post(f"/api/matches/{mid}/actions", json=body)
    assert r.status_code == 409 and r.json()["code"] == "table_not_full"


def test_the_creator_waits_a_new_link_seats_a_person_and_the_deal_goes_on(
    client: TestClient, db: str
) -> None:
    view, people = seated(client, seats=THREE, seed=4)
    mid = view["id"]
    old_links = {i["seat"]: token_of(i["url"]) for i in view["invites"]}
    play_until_turn_of(people, mid, 1, random.Random(4))
    hand = people[2].get(f"/api/matches/{mid}").json()["observation"]["hand"]
    rows = len(stored_rows(db, mid))
    left_at(client, people[2], mid)
    # The link they came by no longer seats anyone.
    assert people[2].post(f"/api/join/{old_links[2]}").status_code == 404
    r = client.post(f"/api/matches/{mid}/seats/2/invite")
    assert r.status_code == 200, r.text
    [invite] = r.json()["invites"]
    assert invite["seat"] == 2 and token_of(invite["url"]) != old_links[2]
    assert r.json()["status"] == "waiting" and r.json()["left"] == []  # chosen: waiting
    # The person comes back by the new link (anyone with it could): the same seat, same hand.
    back = people[2].post(f"/api/join/{token_of(invite['url'])}")
    assert back.status_code == 200, back.text
    assert back.json()["seat"] == 2 and back.json()["observation"]["hand"] == hand
    assert back.json()["status"] != "waiting" and back.json()["left"] == []
    # Nothing of the deal was stored: only the seat's change of hands (issue 28, item 8).
    assert [r[2] for r in stored_rows(db, mid)[rows:]] == ["left"]
    v = play_until_turn_of(people, mid, 2, random.Random(5))
    body = {"version": v["version"], "action": choose_action(v, random.Random(6))}
    assert people[2].post(f"/api/matches/{mid}/actions", json=body).status_code == 200
    engine_match(db, mid)


def test_the_creator_gives_the_seat_to_a_computer_player_which_plays_on(
    client: TestClient, db: str
) -> None:
    view, people = seated(client, seats=TWO_AND_TWO, seed=6)
    mid = view["id"]
    play_until_turn_of(people, mid, 1, random.Random(6))  # seat 1 is to act
    left_at(client, people[1], mid)
    rows = len(stored_rows(db, mid))
    r = client.post(f"/api/matches/{mid}/seats/1/computer")
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["kind"] == "computer" and r.json()["left"] == []
    # The server drives the new computer player: seat 1's turn is played without anyone.
    deadline = time.monotonic() + 30
    while not any(seat == 1 for _, seat, _, _ in stored_rows(db, mid)[rows:]):
        assert time.monotonic() < deadline, "the computer player never acted for seat 1"
        time.sleep(0.05)
    engine_match(db, mid)


# ------------------------------------------------------------------------------ refusals


def test_the_creator_cannot_leave_and_nothing_changes(client: TestClient) -> None:
    view, _ = seated(client, seats=THREE)
    r = client.post(f"/api/matches/{view['id']}/leave")
    assert r.status_code == 422 and r.json()["code"] == "creator_stays"
    assert r.json()["view"]["seats"][0]["you"] and r.json()["view"]["status"] != "waiting"
    solo = client.post("/api/matches", json={"deals": 2, "level": "random"}).json()
    r = client.post(f"/api/matches/{solo['id']}/leave")
    assert r.status_code == 422 and r.json()["code"] == "creator_stays"


def test_leaving_twice_or_a_table_one_does_not_sit_at_is_not_found(client: TestClient) -> None:
    view, people = seated(client, seats=THREE)
    mid = view["id"]
    left_at(client, people[1], mid)
    again = people[1].post(f"/api/matches/{mid}/leave")
    assert again.status_code == 404
    stranger = other(client)
    assert stranger.post(f"/api/matches/{mid}/leave").status_code == 404
    assert stranger.post("/api/matches/000000000000/leave").status_code == 404
    now = client.get(f"/api/matches/{mid}").json()
    assert now["left"] == [1] and now["seats"][2]["kind"] == "person"


def test_only_the_creator_invites_or_seats_a_computer_and_only_at_an_open_seat(
    client: TestClient,
) -> None:
    view, people = seated(client, seats=THREE)
    mid = view["id"]
    r = people[1].post(f"/api/matches/{mid}/seats/2/invite")
    assert r.status_code == 403 and r.json()["code"] == "not_creator"
    for seat in (0, 1, 3):  # the creator, a person, a computer player
        r = client.post(f"/api/matches/{mid}/seats/{seat}/invite")
        assert r.status_code == 409 and r.json()["code"] == "seat_taken", seat
        assert "invites" not in r.json()["view"]
    for seat in (-1, 4):
        assert client.post(f"/api/matches/{mid}/seats/{seat}/invite").status_code == 409
    left_at(client, people[2], mid)
    r = people[1].post(f"/api/matches/{mid}/seats/2/computer")
    assert r.status_code == 403 and r.json()["code"] == "not_creator"
    assert client.get(f"/api/matches/{mid}").json()["seats"][2]["kind"] == "open"
    # A stale choice: the seat was given to a computer player, then a link is asked for it.
    assert client.post(f"/api/matches/{mid}/seats/2/computer").status_code == 200
    r = client.post(f"/api/matches/{mid}/seats/2/invite")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"


def test_a_new_link_replaces_the_one_before(client: TestClient) -> None:
    view, people = seated(client, seats=THREE)
    mid = view["id"]
    left_at(client, people[2], mid)
    first = client.post(f"/api/matches/{mid}/seats/2/invite").json()["invites"][0]["url"]
    second = client.post(f"/api/matches/{mid}/seats/2/invite").json()["invites"][0]["url"]
    friend = other(client)
    r = friend.post(f"/api/join/{token_of(first)}")
    assert r.status_code == 404 and r.json()["code"] == "no_such_invite"
    assert friend.post(f"/api/join/{token_of(second)}").status_code == 200


def test_a_seat_left_while_its_clock_runs_stops_the_clock(client: TestClient) -> None:
    view, people = seated(client, seats=THREE, turn_time=30, seed=7)
    mid = view["id"]
    v = play_until_turn_of(people, mid, 2, random.Random(7))
    assert v["turn"]["seat"] == 2
    left_at(client, people[2], mid)
    assert client.get(f"/api/matches/{mid}").json()["turn"] is None


# ------------------------------------------------------------------------- a seat left for good


def test_the_creator_frees_the_seat_of_a_person_away_for_a_while_and_a_new_link_seats_them(
    db: str,
) -> None:
    """A friend sat, then lost their cookie (another browser, a closed private window): their
    seat is theirs no more than anyone's. Once they have had no page open on the table for
    ``free_after`` seconds, the creator may free the seat as if they had left, and give it a
    new link (or a computer player); before that, and for anyone else, it is refused and
    nothing changes (issue 28, item 2)."""
    with web_client(db, free_after=0.5) as client:
        view, people = seated(client, seats=THREE, seed=8)
        mid = view["id"]
        free = f"/api/matches/{mid}/seats/2/free"
        hand = people[2].get(f"/api/matches/{mid}").json()["observation"]["hand"]
        with people[2].websocket_connect(f"/api/matches/{mid}/live") as ws:
            ws.receive_json()  # their page is open: they are here
            r = client.post(free)
            assert r.status_code == 409 and r.json()["code"] == "seat_in_use", r.text
            assert r.json()["view"]["seats"][2]["kind"] == "person"
        r = people[1].post(free)
        assert r.status_code == 403 and r.json()["code"] == "not_creator"
        for seat in (0, 3, 4):  # the creator's own, a computer player's, no seat
            r = client.post(f"/api/matches/{mid}/seats/{seat}/free")
            assert r.status_code == 409 and r.json()["code"] == "seat_not_taken", seat
        # Their page closed: refused until they have been away for ``free_after`` seconds.
        deadline = time.monotonic() + 60  # a bound, so that a seat counted for ever fails
        while (r := client.post(free)).status_code == 409:
            assert r.json()["code"] == "seat_in_use", r.text
            assert time.monotonic() < deadline, "the closed page still counts as there"
            assert people[2].get(f"/api/matches/{mid}").status_code == 200  # still theirs
            time.sleep(0.05)
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "waiting" and r.json()["left"] == [2]
        assert people[2].get(f"/api/matches/{mid}").status_code == 404
        again = client.post(free)
        assert again.status_code == 409 and again.json()["code"] == "seat_not_taken"
        # A new link: the same person in a new browser sits again, with the same hand.
        link = client.post(f"/api/matches/{mid}/seats/2/invite").json()["invites"][0]["url"]
        back = other(client).post(f"/api/join/{token_of(link)}")
        assert back.status_code == 200, back.text
        assert back.json()["seat"] == 2 and back.json()["observation"]["hand"] == hand
