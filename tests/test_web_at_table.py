"""At a table with friends (issue 18, "At the table"): hints only where the creator allowed them,
no undo, every person's own analysis, and everyone's names in the record; over the HTTP API on a
real database, the server driving its computer players."""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi.testclient import TestClient

from oudler.core.records import replay_record
from test_web_friends import other, seated, views_at_one_version
from test_web_support import choose_action, new_match, web_client

View = dict[str, Any]
TWO = ["me", "person", "computer", "computer"]
WORLDS = 6  # the coach's worlds per decision: quick and reproducible


def post(client: TestClient, mid: str, what: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/matches/{mid}/{what}", json=body)


def play_deal(
    people: list[TestClient], seats: list[int], mid: str, rng: random.Random, on_turn: Any
) -> list[View]:
    """Play the deal in progress to its end, each person acting at their own turn; before each
    person's action ``on_turn(mover_index, views)`` is called."""
    while True:
        views = views_at_one_version(people, mid)
        if views[0]["status"] in ("deal_over", "match_over"):
            return views
        mover = seats.index(views[0]["observation"]["to_move"])
        on_turn(mover, views)
        v = views[mover]
        r = post(
            people[mover],
            mid,
            "actions",
            {"version": v["version"], "action": choose_action(v, rng)},
        )
        assert r.status_code == 200, r.text


def test_hints_are_for_a_table_with_friends_whose_creator_allowed_them(db: str) -> None:
    with web_client(db, computer_pause=0, coach_worlds=WORLDS) as client:
        # A table for one has learning mode instead: the choice is refused there.
        r = client.post("/api/matches", json={"deals": 2, "level": "random", "hints": True})
        assert r.status_code == 400 and "learning mode" in r.json()["error"]
        assert client.get("/api/matches").json() == {"matches": []}

        view, people = seated(client, seats=TWO, seed=5, hints=True)
        mid = view["id"]
        seats = [0, 1]
        for v in views_at_one_version(people, mid):
            assert (v["hints"], v["learning"], v["undo"]) == (True, True, False)
        asked: dict[int, set[int]] = {0: set(), 1: set()}
        rng = random.Random(5)

        def on_turn(mover: int, views: list[View]) -> None:
            v = views[mover]
            waiting = people[1 - mover]
            # Only the person whose decision it is may ask, about their own decision.
            r = post(waiting, mid, "hint", {"version": v["version"]})
            assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
            assert r.json()["view"]["seat"] == seats[1 - mover]
            if rng.random() < 0.3:
                r = post(people[mover], mid, "hint", {"version": v["version"]})
                assert r.status_code == 200, r.text
                hint = r.json()["hint"]
                # The hint is one of this person's own legal choices.
                if hint["kind"] == "play":
                    assert hint["best"] in v["observation"]["legal"]["cards"]
                asked[seats[mover]].add(r.json()["seq"])
            # No undo at a table with several people, whoever asks.
            for c in people:
                r = post(c, mid, "undo", {"version": v["version"]})
                assert r.status_code == 422 and r.json()["code"] == "undo_with_people"

        play_deal(people, seats, mid, rng, on_turn)
        assert asked[0] and asked[1], "each person asked a hint at least once"
        # Nobody turns the creator's choice, either way.
        for c in people:
            for on in (True, False):
                r = post(c, mid, "learning", {"learning": on})
                assert r.status_code == 422 and r.json()["code"] == "learning_one_person"
        assert all(v["hints"] for v in views_at_one_version(people, mid))

        # Each person's record lists the hints of their own decisions only.
        for seat, c in zip(seats, people, strict=True):
            record = c.get(f"/api/matches/{mid}/record").json()
            assert {h["seq"] for h in record["coach"]["hints"]} == asked[seat]
            assert replay_record(record).kind == "ok"

        # The analysis of the finished deal judges each person's decisions, for every page.
        answers = []
        for c in people:
            for _ in range(600):
                a = c.get(f"/api/matches/{mid}/deals/1/analysis").json()
                if a["status"] == "done":
                    break
                assert a["status"] == "running", a
                time.sleep(0.1)
            answers.append(a["analysis"])
        assert answers[0] == answers[1]
        assert set(answers[0]["total_loss"]) == {"0", "1"}
        assert {d["seat"] for d in answers[0]["decisions"]} <= {0, 1}
        assert {d["seat"] for d in answers[0]["decisions"]} == {0, 1}


def test_without_the_creators_leave_a_table_with_friends_has_no_coach_and_no_undo(
    db: str,
) -> None:
    with web_client(db, computer_pause=0, coach_worlds=WORLDS) as client:
        view, people = seated(client, seats=TWO, seed=8)
        mid = view["id"]
        views = views_at_one_version(people, mid)
        for v in views:
            assert (v["hints"], v["learning"], v["undo"]) == (False, False, False)
        mover = [v["status"] for v in views].index("your_turn")
        version = views[mover]["version"]
        r = post(people[mover], mid, "hint", {"version": version})
        assert r.status_code == 422 and r.json()["code"] == "learning_off"
        r = post(people[mover], mid, "undo", {"version": version})
        assert r.status_code == 422 and r.json()["code"] == "undo_with_people"
        r = people[mover].get(f"/api/matches/{mid}/deals/1/analysis")
        assert r.status_code == 422 and r.json()["code"] == "learning_off"
        # Refusals change nothing.
        assert [v["version"] for v in views_at_one_version(people, mid)] == [version] * 2


def test_the_record_names_everyone_at_the_table(db: str) -> None:
    with web_client(db, computer_pause=0) as client:
        client.post("/api/me", json={"name": "Marc"})
        view = new_match(client, seats=["me", "person", "computer", "person"], level="club")
        mid = view["id"]
        friends = []
        for invite, name in zip(view["invites"], ("Léa", None), strict=True):
            friend = other(client)
            if name:
                friend.post("/api/me", json={"name": name})
            friend.post(f"/api/join/{invite['url'].removeprefix('/join/')}")
            friends.append(friend)
        expected = [
            {"seat": 0, "kind": "person", "name": "Marc"},
            {"seat": 1, "kind": "person", "name": "Léa"},
            {"seat": 2, "kind": "computer", "level": "club", "name": "Josette"},
            {"seat": 3, "kind": "person", "name": None},
        ]
        for c in (client, *friends):
            assert c.get(f"/api/matches/{mid}/record").json()["players"] == expected

        # A table for one: the person (with their name) and the three computer players.
        alone = new_match(client, level="expert")
        players = client.get(f"/api/matches/{alone['id']}/record").json()["players"]
        assert players == [
            {"seat": 0, "kind": "person", "name": "Marc"},
            {"seat": 1, "kind": "computer", "level": "expert", "name": "Hélène"},
            {"seat": 2, "kind": "computer", "level": "expert", "name": "Octave"},
            {"seat": 3, "kind": "computer", "level": "expert", "name": "Bertrand"},
        ]


def test_the_records_computer_names_are_the_pages_english_ones() -> None:
    """The record names the computer players as the page does in English (js/i18n.js)."""
    from pathlib import Path

    from oudler.tables.view import COMPUTER_NAMES

    source = Path(__file__).parents[1] / "src/oudler/web/static/js/i18n.js"
    english = source.read_text().split("const zh", 1)[0]
    for level, names in COMPUTER_NAMES.items():
        for seat, name in enumerate(names, start=1):
            assert f'"bot.{level}.{seat}": "{name}",' in english, (level, seat)
