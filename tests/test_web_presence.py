"""At a table with people (issue 18): who is connected, live, and the fixed phrases people send
each other; over real uvicorn servers and WebSocket clients, in one process and across web
processes joined by Redis, one of them killed."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx2
import pytest
from websockets.sync.client import ClientConnection, connect

from oudler.tables.presence import PHRASES, RedisHub
from redis_support import oudler_serve, redis_server
from test_web_live import WAIT, person, served, table

Message = dict[str, Any]


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    with ExitStack() as s:
        yield s


def listen(
    stack: ExitStack, base: str, who: httpx2.Client, match_id: str, events: bool = True
) -> ClientConnection:
    """The table's live socket as the page opens it (``?events=1``: presence and phrases too)."""
    url = base.replace("http://", "ws://") + f"/api/matches/{match_id}/live"
    if events:
        url += "?events=1"
    cookie = who.cookies.get("oudler_player")
    ws = connect(url, additional_headers={"Cookie": f"oudler_player={cookie}"}, open_timeout=WAIT)
    return stack.enter_context(ws)


def next_event(ws: ClientConnection, kind: str, timeout: float = WAIT) -> Message:
    """The socket's next event of ``kind``, past any views."""
    deadline = time.monotonic() + timeout
    while True:
        message: Message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message.get("event") == kind:
            return message


def presence_until(ws: ClientConnection, connected: list[int], timeout: float = WAIT) -> None:
    """Presence events until the connected seats are ``connected`` (changes close together may
    come as one)."""
    deadline = time.monotonic() + timeout
    while next_event(ws, "presence", deadline - time.monotonic())["connected"] != connected:
        pass


def say(who: httpx2.Client, match_id: str, phrase: str) -> httpx2.Response:
    return who.post(f"/api/matches/{match_id}/phrase", json={"phrase": phrase})


def test_each_person_sees_who_is_connected_live(db: str, stack: ExitStack) -> None:
    with served(db) as base:
        view, people = table(base, ["me", "person", "person", "computer"], seed=3)
        mid = view["id"]
        mine = listen(stack, base, people[0], mid)
        assert "version" in json.loads(mine.recv(timeout=WAIT))  # the view comes first
        presence_until(mine, [0])
        # A socket that did not ask for events counts as connected, and gets views only.
        theirs = listen(stack, base, people[1], mid, events=False)
        presence_until(mine, [0, 1])
        # Two pages of one person: connected until both are closed.
        second = listen(stack, base, people[1], mid)
        presence_until(second, [0, 1])
        theirs.close()
        third = listen(stack, base, people[2], mid)
        presence_until(third, [0, 1, 2])
        second.close()
        presence_until(mine, [0, 2])
        presence_until(third, [0, 2])
        assert say(people[0], mid, "hello").status_code == 200
        # The socket without events never got anything but views.
        message = json.loads(listen(stack, base, people[1], mid, events=False).recv(timeout=WAIT))
        assert "event" not in message and message["seat"] == 1


def test_a_phrase_is_pushed_to_everyone_at_the_table(db: str, stack: ExitStack) -> None:
    with served(db, phrase_limit=(3, 600.0)) as base:
        view, people = table(base, ["me", "person", "computer", "person"], seed=4)
        mid = view["id"]
        sockets = {seat: listen(stack, base, c, mid) for seat, c in people.items()}
        for ws in sockets.values():
            presence_until(ws, [0, 1, 3])
        r = say(people[3], mid, "well_played")
        assert r.status_code == 200 and r.json() == {"seat": 3, "phrase": "well_played"}
        for ws in sockets.values():
            assert next_event(ws, "phrase") == {
                "event": "phrase",
                "seat": 3,
                "phrase": "well_played",
            }
        # Fixed phrases only, from people seated at a table with people, a few at a time.
        for bad in ("Well played!", "WELL_PLAYED", ""):
            r = say(people[0], mid, bad)
            assert r.status_code == 400 and r.json()["code"] == "unknown_phrase"
            assert all(p in r.json()["error"] for p in PHRASES)
        r = people[0].post(f"/api/matches/{mid}/phrase", json={"phrase": 3})
        assert r.status_code == 400
        assert say(person(base), mid, "bravo").status_code == 404
        alone = people[0].post("/api/matches", json={"deals": 2, "level": "random"}).json()
        r = say(people[0], alone["id"], "bravo")
        assert r.status_code == 422 and r.json()["code"] == "table_for_one"
        assert say(people[0], mid, "bravo").status_code == 200
        assert say(people[0], mid, "thanks").status_code == 200
        assert say(people[0], mid, "oops").status_code == 200
        r = say(people[0], mid, "sorry")
        assert r.status_code == 429 and r.json()["code"] == "too_many_phrases"
        assert say(people[1], mid, "sorry").status_code == 200  # a limit per person
        # In the order said, and the refused ones never pushed.
        said = [next_event(sockets[1], "phrase") for _ in range(4)]
        assert [(m["seat"], m["phrase"]) for m in said] == [
            (0, "bravo"),
            (0, "thanks"),
            (0, "oops"),
            (1, "sorry"),
        ]


def test_presence_and_phrases_across_web_processes_and_a_killed_one(
    db: str, stack: ExitStack
) -> None:
    """Two web processes joined by Redis: each person sees who is connected through the other
    process and the phrases said there; a killed process's people show as gone once its
    heartbeat is missed (no goodbye from it)."""
    ttl = 1.5
    other = {"presence_ttl": ttl, "computer_pause": 0}  # the web process to be killed
    with (
        redis_server() as url,
        served(db, live_url=url, presence_ttl=ttl) as one,
        oudler_serve(db, app={**other, "live_url": url}) as (two, server),
    ):
        view, people = table(one, ["me", "person", "computer", "computer"], seed=5)
        mid = view["id"]
        friend = httpx2.Client(base_url=two, cookies=people[1].cookies, timeout=30)
        mine = listen(stack, one, people[0], mid)
        presence_until(mine, [0])
        theirs = listen(stack, two, friend, mid)
        presence_until(mine, [0, 1])
        presence_until(theirs, [0, 1])
        # A phrase said through either process reaches both.
        assert say(friend, mid, "good_luck").status_code == 200
        for ws in (mine, theirs):
            assert next_event(ws, "phrase")["phrase"] == "good_luck"
        assert say(people[0], mid, "thanks").status_code == 200
        assert next_event(theirs, "phrase") == {
            "event": "phrase",
            "seat": 0,
            "phrase": "thanks",
        }
        # Closed cleanly: gone at once (the process says so).
        theirs.close()
        presence_until(mine, [0])
        theirs = listen(stack, two, friend, mid)
        presence_until(mine, [0, 1])
        # Killed: nobody says goodbye; the heartbeat stops and the seat expires.
        server.kill()
        presence_until(mine, [0], timeout=10 * ttl)
        friend.close()


def test_over_redis_how_long_a_seat_has_been_away_is_known_to_every_web_process() -> None:
    """Issue 28, item 2: the creator may free the seat of a person away for a while, whichever
    web process they ask. A seat's last socket closed on one process: another process, which
    never saw it, knows when (and that a seat connected there is not away at all)."""
    with redis_server() as url:
        one, two = RedisHub(url), RedisHub(url)
        try:
            one.join("m1", 1)
            assert two.absent_for("m1", 1, 0.0) == 0.0  # connected through the other process
            before = time.time()
            one.leave("m1", 1)
            after = time.time()
            seen = two.last_seen("m1", 1)
            assert seen is not None and before <= seen <= after
            assert two.last_seen("m1", 2) is None  # never seen: since they sat, or the start
            away = two.absent_for("m1", 1, 0.0)
            assert 0.0 <= away <= time.time() - before
        finally:
            one._redis.close()
            two._redis.close()
