"""Turn time at tables with friends (issue 18): a person who does not act within the table's
turn time is played for, that once, by a computer player of the table's level; the deadline is
read from the stored log, so any web process (a fresh one too) acts on it, and two processes
whose clocks ring together store one action, never two. Real servers, a real database, real
time (the issue's own test waits out a 30 s turn) and a real Redis between two web processes."""

from __future__ import annotations

import datetime as dt
import random
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from oudler.tables.games import Tables
from oudler.tables.store import ActionRow, SeatRow
from redis_support import redis_server
from test_web_friends import play_to_deal_over, seated
from test_web_leak import first_deal_asks_a_poignee, quiet_action
from test_web_live import pushed, served, socket, table
from test_web_support import choose_action, engine_match, new_match, stored_rows, web_client

View = dict[str, Any]
TWO_AND_TWO = ["me", "person", "computer", "computer"]


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    """Closes the test's sockets at its end."""
    with ExitStack() as s:
        yield s


def when(iso: str) -> dt.datetime:
    return dt.datetime.fromisoformat(iso)


def stand_ins(db: str, match_id: str) -> list[int]:
    """The sequence numbers of the actions stored as taken for a person out of time."""
    engine = create_engine(db)
    try:
        with Session(engine) as s:
            rows = s.scalars(
                select(ActionRow.seq)
                .where(ActionRow.match_id == match_id, ActionRow.stand_in)
                .order_by(ActionRow.seq)
            )
            return list(rows)
    finally:
        engine.dispose()


def backdate(db: str, match_id: str, seconds: float) -> None:
    """Move the match's stored times (its actions, its seats taken) back: as if that long had
    passed since (the clock reads only these)."""
    engine = create_engine(db)
    back = dt.timedelta(seconds=seconds)
    try:
        with Session(engine) as s, s.begin():
            for action in s.scalars(select(ActionRow).where(ActionRow.match_id == match_id)):
                action.created -= back
            for seat in s.scalars(select(SeatRow).where(SeatRow.match_id == match_id)):
                if seat.joined is not None:
                    seat.joined -= back
    finally:
        engine.dispose()


def play_until_turn_of(people: list[TestClient], mid: str, seat: int, rng: random.Random) -> View:
    """Act for every person but ``seat`` (the computer players are driven by the server) until
    ``seat`` is to act; its view then."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the table never came to that seat"
        views = [p.get(f"/api/matches/{mid}").json() for p in people]
        mover = views[0]["observation"]["to_move"]
        if views[0]["status"] == "deal_over":
            body = {"version": views[0]["version"]}
            for p in people:  # each closes their breakdown; the last one deals
                assert p.post(f"/api/matches/{mid}/next-deal", json=body).status_code == 200
        elif views[0]["status"] in ("your_turn", "person_turn") and mover == seat:
            return views[seat]
        elif views[0]["status"] in ("your_turn", "person_turn"):
            v = views[mover]
            body = {"version": v["version"], "action": choose_action(v, rng)}
            r = people[mover].post(f"/api/matches/{mid}/actions", json=body)
            assert r.status_code in (200, 409), r.text  # 409: a computer player was quicker
        else:
            time.sleep(0.05)


# ------------------------------------------------------------------------------ the setting


@pytest.mark.parametrize("turn_time", [0, 10, 45, 600, -30])
def test_a_turn_time_other_than_30_60_or_120_seconds_is_refused(
    client: TestClient, turn_time: int
) -> None:
    body = {"deals": 2, "level": "random", "seats": TWO_AND_TWO, "turn_time": turn_time}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 400 and r.json()["code"] == "bad_turn_time"
    assert client.get("/api/matches").json() == {"matches": []}


def test_a_table_for_one_has_no_turn_time(client: TestClient) -> None:
    r = client.post("/api/matches", json={"deals": 2, "level": "random", "turn_time": 30})
    assert r.status_code == 400 and r.json()["code"] == "bad_turn_time"
    assert "turn" not in new_match(client) and "turn_time" not in new_match(client)


def test_every_seated_person_sees_the_same_deadline_for_the_person_to_act(
    client: TestClient,
) -> None:
    view, people = seated(client, seats=["me", "person", "person", "computer"], turn_time=60)
    assert view["turn_time"] == 60 and view["turn"] is None  # waiting for friends: no clock
    mid = view["id"]
    views = [p.get(f"/api/matches/{mid}").json() for p in people]
    assert {v["turn_time"] for v in views} == {60}
    if views[0]["status"] == "computer_turn":
        assert all(v["turn"] is None for v in views)  # nobody's clock runs for a computer
        play_until_turn_of(people, mid, 0, random.Random(2))
        views = [p.get(f"/api/matches/{mid}").json() for p in people]
    mover = views[0]["observation"]["to_move"]
    turns = [v["turn"] for v in views]
    seen = [(v["version"], v["status"], v["observation"]["phase"], v["turn"]) for v in views]
    assert turns[0] == turns[1] == turns[2] and turns[0] is not None, seen
    assert turns[0]["seat"] == mover
    left = (when(turns[0]["deadline"]) - dt.datetime.now(dt.UTC)).total_seconds()
    assert 50 < left <= 60


def test_without_a_turn_time_a_table_with_friends_waits_for_ever(client: TestClient) -> None:
    view, people = seated(client, seats=TWO_AND_TWO)
    assert view["turn_time"] is None
    v = play_until_turn_of(people, view["id"], 1, random.Random(3))
    assert v["turn"] is None


# ------------------------------------------------------------------------------ out of time


def test_a_fresh_web_process_acts_at_once_for_a_person_whose_time_ran_out(db: str) -> None:
    """The deadline comes from the stored log: a process that never saw the turn (the one that
    stored it is gone) acts for the person as soon as anyone loads the table."""
    rng = random.Random(5)
    with web_client(db) as first:
        view, people = seated(first, seats=TWO_AND_TWO, turn_time=30, seed=5)
        mid = view["id"]
        v = play_until_turn_of(people, mid, 1, rng)
        before = len(stored_rows(db, mid))
        cookies = [dict(p.cookies) for p in people]
    backdate(db, mid, 31)
    with web_client(db) as second:
        friend = TestClient(second.app, cookies=cookies[0])
        assert friend.get(f"/api/matches/{mid}").json()["turn"]["seat"] == 1
        deadline = time.monotonic() + 30
        while len(stored_rows(db, mid)) == before:
            assert time.monotonic() < deadline, "nobody acted for the absent person"
            time.sleep(0.05)
        rows = stored_rows(db, mid)
        assert rows[before][1] == 1  # the absent person's seat, played for
        now = friend.get(f"/api/matches/{mid}").json()
        assert now["version"] > v["version"]
        engine_match(db, mid)  # the log replays
        # Marked as played for them, in the log and on every screen: the absent person's says
        # what was decided for them, the others' which seat was played for.
        assert stand_ins(db, mid) == [before]
        kind = rows[before][2]
        assert now["stood_in"] == {"seats": [1], "mine": None}
        absent = TestClient(second.app, cookies=cookies[1])
        mine = absent.get(f"/api/matches/{mid}").json()
        assert mine["stood_in"] == {"seats": [1], "mine": kind}
        # Back in time, their own action is theirs: the mark on their screen goes, the seat's
        # stays for the deal.
        v = play_until_turn_of([friend, absent], mid, 1, rng)
        body = {"version": v["version"], "action": choose_action(v, rng)}
        r = absent.post(f"/api/matches/{mid}/actions", json=body)
        assert r.status_code == 200, r.text
        if r.json()["deal_number"] == now["deal_number"] and r.json()["status"] != "deal_over":
            assert r.json()["stood_in"] == {"seats": [1], "mine": None}
        assert stand_ins(db, mid) == [before]


def test_two_web_processes_whose_clocks_ring_together_store_one_action(db: str) -> None:
    """Both processes ask a computer player to act for the absent person at the same moment, five
    times over: each time exactly one action is stored for that seat, and the log replays."""
    rng = random.Random(8)
    with web_client(db) as one, web_client(db) as two:
        view, people = seated(one, seats=TWO_AND_TWO, turn_time=30, seed=8)
        mid = view["id"]
        tables = [one.app.state.tables, two.app.state.tables]
        for round_ in range(5):
            v = play_until_turn_of(people, mid, 1, rng)
            before = stored_rows(db, mid)
            backdate(db, mid, 31)
            for t in tables:
                t.forget(mid)  # the stored times moved: read them again

            def stand_in(t: Tables, client: TestClient) -> None:
                assert client.portal is not None
                client.portal.call(t.stand_in, mid)

            racers = [
                threading.Thread(target=stand_in, args=(t, c))
                for t, c in zip(tables, (one, two), strict=True)
            ]
            for r in racers:
                r.start()
            for r in racers:
                r.join(timeout=60)
            after = stored_rows(db, mid)
            new = after[len(before) :]
            assert new and new[0][1] == 1, f"round {round_}: nobody acted for seat 1"
            # Only seat 1's one action, then the computer players (seats 2, 3) or seat 0.
            assert [seat for _, seat, _, _ in new].count(1) == 1, f"round {round_}: {new}"
            fresh = people[0].get(f"/api/matches/{mid}").json()
            assert fresh["version"] >= v["version"] + 1
        engine_match(db, mid)


def test_a_person_who_acts_in_time_is_not_played_for(client: TestClient, db: str) -> None:
    view, people = seated(client, seats=TWO_AND_TWO, turn_time=30, seed=9)
    mid = view["id"]
    v = play_until_turn_of(people, mid, 1, random.Random(9))
    before = len(stored_rows(db, mid))
    client.portal.call(client.app.state.tables.stand_in, mid)  # type: ignore[union-attr]
    assert len(stored_rows(db, mid)) == before  # 30 s are not over: nothing done
    body = {"version": v["version"], "action": choose_action(v, random.Random(1))}
    assert people[1].post(f"/api/matches/{mid}/actions", json=body).status_code == 200


# ------------------------------------------------------------------------------ the test


def test_a_silent_person_is_played_for_after_30_seconds_and_the_other_is_never_stuck(
    db: str, stack: ExitStack
) -> None:
    """Two people and two computer players, turn time 30 s, over two web processes joined by
    Redis; the person at seat 1 (their page open on the second process) stays silent. After
    their countdown a computer player acts for them, once; the person at seat 0 plays on
    throughout; then the silent person comes back and acts on their next turn as usual."""
    rng = random.Random(21)
    with redis_server() as url, served(db, live_url=url) as one, served(db, live_url=url) as two:
        view, people = table(one, TWO_AND_TWO, seed=21, turn_time=30)
        mid = view["id"]
        silent = httpx2.Client(base_url=two, cookies=people[1].cookies, timeout=30)
        ws = socket(stack, one, people[0], mid)
        theirs = socket(stack, two, silent, mid)
        played_for = False
        v = pushed(ws)
        while True:
            if v["status"] == "your_turn":
                body = {"version": v["version"], "action": choose_action(v, rng)}
                r = people[0].post(f"/api/matches/{mid}/actions", json=body)
                assert r.status_code in (200, 409), r.text
            elif v["status"] == "deal_over":
                body = {"version": v["version"]}
                r = people[0].post(f"/api/matches/{mid}/next-deal", json=body)
                assert r.status_code in (200, 409), r.text
            elif v["status"] == "person_turn":
                assert v["turn"]["seat"] == 1
                deadline = when(v["turn"]["deadline"])
                if played_for:
                    break  # their next turn: they come back
                # Their own screen counts down to the same deadline.
                mine = silent.get(f"/api/matches/{mid}").json()
                assert mine["status"] == "your_turn" and mine["turn"] == v["turn"]
                rows = len(stored_rows(db, mid))
                v = pushed(ws, timeout=90)
                assert dt.datetime.now(dt.UTC) >= deadline  # not before the countdown's end
                new = stored_rows(db, mid)[rows:]
                assert new[0][1] == 1 and [s for _, s, _, _ in new].count(1) == 1
                played_for = True
                continue
            v = pushed(ws, timeout=60)
        # The silent person is back: their action is theirs, taken as usual.
        mine = silent.get(f"/api/matches/{mid}").json()
        body = {"version": mine["version"], "action": choose_action(mine, rng)}
        r = silent.post(f"/api/matches/{mid}/actions", json=body)
        assert r.status_code == 200, r.text
        assert r.json()["version"] == mine["version"] + 1
        # Both processes pushed the silent person's screen along (the socket on the second).
        last = pushed(theirs)
        while last["version"] < r.json()["version"]:
            last = pushed(theirs)
        engine_match(db, mid)
        silent.close()


def test_out_of_time_on_a_poignee_question_the_answer_and_the_first_card_are_one_step(
    db: str,
) -> None:
    """A person asked about a poignée who runs out of time: the computer player acting for them
    answers and plays their first card in one step, one version, as for a seat never asked
    (RULES.md §11: the others must not learn that the seat was asked)."""
    seed = next(s for s in range(5000) if first_deal_asks_a_poignee(s))
    four = ["me", "person", "person", "person"]
    with web_client(db) as first:
        view, people = seated(first, seats=four, turn_time=30, seed=seed)
        mid = view["id"]
        while True:
            views = [p.get(f"/api/matches/{mid}").json() for p in people]
            mover = views[0]["observation"]["to_move"]
            mine = views[mover]
            if mine["observation"]["phase"] == "poignee":
                break
            body = {"version": mine["version"], "action": quiet_action(mine)}
            r = people[mover].post(f"/api/matches/{mid}/actions", json=body)
            assert r.status_code == 200, r.text
        cookies = dict(people[(mover + 1) % 4].cookies)
    before = len(stored_rows(db, mid))
    backdate(db, mid, 31)
    with web_client(db) as second:  # a process that reads the deadline from the log
        second.portal.call(second.app.state.tables.stand_in, mid)  # type: ignore[union-attr]
        new = stored_rows(db, mid)[before:]
        assert [(seat, kind) for _, seat, kind, _ in new] == [(mover, "poignee"), (mover, "card")]
        assert stand_ins(db, mid) == [before, before + 1]
        now = TestClient(second.app, cookies=cookies).get(f"/api/matches/{mid}").json()
        assert now["version"] == views[0]["version"] + 1
        assert now["stood_in"]["seats"] == [mover]
    engine_match(db, mid)  # the log replays


def test_a_person_who_takes_a_seat_played_for_is_not_told_their_time_ran_out(db: str) -> None:
    """Issue 28, item 7: the person at seat 1 runs out of time and is played for, then leaves;
    whoever takes the seat by the creator's new link was never out of time: their screen does
    not say so (the seat's mark, public, stays for the deal)."""
    rng = random.Random(5)
    with web_client(db) as first:
        view, people = seated(first, seats=TWO_AND_TWO, turn_time=30, seed=5)
        mid = view["id"]
        play_until_turn_of(people, mid, 1, rng)
        before = len(stored_rows(db, mid))
        cookies = [dict(p.cookies) for p in people]
    backdate(db, mid, 31)
    with web_client(db) as second:
        second.portal.call(second.app.state.tables.stand_in, mid)  # type: ignore[union-attr]
        assert stand_ins(db, mid) == [before]
        creator = TestClient(second.app, cookies=cookies[0])
        absent = TestClient(second.app, cookies=cookies[1])
        played_for = absent.get(f"/api/matches/{mid}").json()
        assert played_for["stood_in"]["mine"] is not None  # it was theirs
        assert absent.post(f"/api/matches/{mid}/leave").status_code == 200
        link = creator.post(f"/api/matches/{mid}/seats/1/invite").json()["invites"][0]["url"]
        newcomer = TestClient(second.app)
        r = newcomer.post(f"/api/join/{link.removeprefix('/join/')}")
        assert r.status_code == 200, r.text
        assert r.json()["deal_number"] == played_for["deal_number"]
        assert r.json()["stood_in"] == {"seats": [1], "mine": None}
        assert newcomer.get(f"/api/matches/{mid}").json()["stood_in"]["mine"] is None


def test_when_the_turn_time_runs_out_the_next_deal_starts_without_those_still_reading(
    db: str,
) -> None:
    """Issue 28, item 17: at a table with a turn time, the next deal does not wait for ever
    for a person who never closes the breakdown: the turn time after the deal's end, it starts
    (read from the stored log, by whichever web process loads the table)."""
    with web_client(db) as first:
        view, people = seated(first, seats=TWO_AND_TWO, turn_time=30, seed=15)
        mid = view["id"]
        play_to_deal_over({0: people[0], 1: people[1]}, mid, random.Random(15))
        v = people[0].get(f"/api/matches/{mid}").json()
        at = when(v["next_deal"]["deadline"])
        assert 20 < (at - dt.datetime.now(dt.UTC)).total_seconds() <= 30
        r = people[0].post(f"/api/matches/{mid}/next-deal", json={"version": v["version"]})
        assert r.status_code == 200 and r.json()["next_deal"]["ready"] == [0]
        assert r.json()["next_deal"]["deadline"] == v["next_deal"]["deadline"]  # no new clock
        cookies = dict(people[1].cookies)
    backdate(db, mid, 31)
    with web_client(db) as second:
        second.portal.call(second.app.state.tables.stand_in, mid)  # type: ignore[union-attr]
        now = TestClient(second.app, cookies=cookies).get(f"/api/matches/{mid}").json()
        assert now["deal_number"] == 2 and now["version"] == v["version"] + 1
    assert [kind for _, _, kind, _ in stored_rows(db, mid)[-2:]] == ["ready", "next_deal"]
    engine_match(db, mid)
