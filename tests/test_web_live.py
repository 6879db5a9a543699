"""Live tables (issue 18): every seated person gets each change of their own view pushed over the
WebSocket ``/api/matches/{id}/live``, whichever web process stored it, and the server drives
the computer players of tables with people. Real uvicorn servers, real WebSocket clients, a real
database, and a real Redis between two web processes."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx2
import pytest
from sqlalchemy import event
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from oudler.core import Match
from oudler.web.account_routes import SESSION_COOKIE
from oudler.web.app import create_app
from oudler.web.background import serve_in_thread
from redis_support import redis_server
from test_web_support import choose_action, engine_match, stored_rows

View = dict[str, Any]
WAIT = 20.0  # seconds a pushed view may take on a loaded test machine (the target is 0.2 s)


def person(base: str) -> httpx2.Client:
    """A browser: its own cookie, given on its first request."""
    c = httpx2.Client(base_url=base, timeout=30)
    assert c.get("/api/matches").status_code == 200
    return c


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    """Closes the test's sockets at its end."""
    with ExitStack() as s:
        yield s


def socket(
    stack: ExitStack, base: str, who: httpx2.Client, match_id: str, **headers: str
) -> ClientConnection:
    url = base.replace("http://", "ws://") + f"/api/matches/{match_id}/live"
    cookie = who.cookies.get("oudler_player")
    extra = {"Cookie": f"oudler_player={cookie}"} if cookie else {}
    ws = connect(url, additional_headers={**extra, **headers}, open_timeout=WAIT)
    return stack.enter_context(ws)


def pushed(ws: ClientConnection, timeout: float = WAIT) -> View:
    message = ws.recv(timeout=timeout)
    view: View = json.loads(message)
    return view


def until(
    ws: ClientConnection, version: int, seen: list[View] | None = None, last: View | None = None
) -> View:
    """The socket's messages until one at ``version`` or later (announcements that come close
    together may be merged: a socket may skip a version, never the latest); returns that one,
    or ``last`` (the latest already read) if it is there already."""
    if last is not None and last["version"] >= version:
        return last
    while True:
        view = pushed(ws)
        if seen is not None:
            seen.append(view)
        if view["version"] >= version:
            return view


def table(
    base: str, seats: list[str], seed: int, **extra: Any
) -> tuple[View, dict[int, httpx2.Client]]:
    """A table whose open seats are taken: the creator's first view and each person's client."""
    creator = person(base)
    body = {"deals": 2, "level": "random", "seed": seed, "seats": seats, **extra}
    view = creator.post("/api/matches", json=body).json()
    people = {0: creator}
    for invite in view["invites"]:
        friend = person(base)
        assert friend.post(f"/api/join/{invite['url'].removeprefix('/join/')}").status_code == 200
        people[invite["seat"]] = friend
    return view, people


def match_at(db: str, match_id: str, version: int, people: set[int]) -> Match:
    """The match as it stood at ``version``, from the stored rows (a computer player's poignée
    row belongs to its card's step)."""
    rows = stored_rows(db, match_id)
    upto, steps = 0, 0
    for i, (_seq, seat, kind, _action) in enumerate(rows):
        if kind == "poignee" and seat not in people:
            continue
        if steps == version:
            break
        steps += 1
        upto = i + 1
    return engine_match(db, match_id, upto)


@contextmanager
def served(db: str, **options: Any) -> Iterator[str]:
    options.setdefault("computer_pause", 0.0)
    with serve_in_thread(create_app(db, **options)) as base:
        yield base


# ------------------------------------------------------------------------------ pushing views


def test_each_person_gets_every_change_of_their_own_view_pushed(db: str, stack: ExitStack) -> None:
    """Two people and two computer players: each socket gets the view GET would answer its
    person, after each change, in order, built from their own seat; the computer players act
    without anyone asking."""
    with served(db) as base:
        view, people = table(base, ["me", "computer", "person", "computer"], seed=21)
        mid = view["id"]
        sockets = {seat: socket(stack, base, c, mid) for seat, c in people.items()}
        last = {seat: pushed(ws) for seat, ws in sockets.items()}
        for seat, v in last.items():
            assert v == people[seat].get(f"/api/matches/{mid}").json()
            assert v["seat"] == seat
        rng = random.Random(21)
        while True:
            now = {seat: c.get(f"/api/matches/{mid}").json() for seat, c in people.items()}
            version = max(v["version"] for v in now.values())
            for seat, ws in sockets.items():
                seen: list[View] = []
                new = until(ws, version, seen) if last[seat]["version"] < version else last[seat]
                for v in seen:  # every message: the view of its seat at its version, in order
                    assert v["version"] > last[seat]["version"]
                    at = match_at(db, mid, v["version"], set(people))
                    assert v["observation"] == at.current.observation(seat).to_dict()
                    assert v["seat"] == seat
                    last[seat] = v
                last[seat] = new
            state = now[0]
            if state["version"] != version or state["status"] == "computer_turn":
                time.sleep(0.02)  # the server drives the computer players: nobody asks
                continue
            if state["status"] in ("deal_over", "match_over"):
                break
            mover = state["observation"]["to_move"]
            v = now[mover]
            body = {"version": v["version"], "action": choose_action(v, rng)}
            r = people[mover].post(f"/api/matches/{mid}/actions", json=body)
            assert r.status_code == 200, r.text
        # The last pushed view is the current one, for each.
        for seat, c in people.items():
            assert last[seat] == c.get(f"/api/matches/{mid}").json()
        for ws in sockets.values():
            ws.close()


def test_the_socket_tells_only_a_seated_person_of_this_site(db: str, stack: ExitStack) -> None:
    with served(db) as base:
        view, people = table(base, ["me", "person", "computer", "computer"], seed=3)
        mid = view["id"]
        stranger = person(base)
        nobody = httpx2.Client(base_url=base)  # no cookie at all
        forged = httpx2.Client(base_url=base)
        forged.cookies.set("oudler_player", "A" * 22 + "." + "B" * 43)
        cases = [
            (stranger, {}, 4404),
            (nobody, {}, 4401),
            (forged, {}, 4401),
            (people[0], {"Origin": "https://evil.example"}, 4403),
        ]
        for who, headers, code in cases:
            ws = socket(stack, base, who, mid, **headers)
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=WAIT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == code
        ws = socket(stack, base, people[1], "nosuchmatch")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=WAIT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
        # The page's own origin is welcome.
        ws = socket(stack, base, people[1], mid, Origin=base)
        assert pushed(ws)["seat"] == 1
        ws.close()


def test_a_table_waiting_for_a_friend_pushes_each_seat_taken_and_its_start(
    db: str, stack: ExitStack
) -> None:
    with served(db) as base:
        creator = person(base)
        body = {
            "deals": 2,
            "level": "random",
            "seed": 5,
            "seats": ["me", "person", "person", "computer"],
        }
        view = creator.post("/api/matches", json=body).json()
        mid = view["id"]
        ws = socket(stack, base, creator, mid)
        assert [s["kind"] for s in pushed(ws)["seats"]] == ["person", "open", "open", "computer"]
        first = view["invites"][0]["url"].removeprefix("/join/")
        person(base).post(f"/api/join/{first}")
        now = pushed(ws)
        assert [s["kind"] for s in now["seats"]] == ["person", "person", "open", "computer"]
        assert now["status"] == "waiting"
        creator.post(f"/api/matches/{mid}/seats/2/computer")
        started = pushed(ws)
        assert [s["kind"] for s in started["seats"]] == ["person", "person", "computer", "computer"]
        assert started["status"] != "waiting"
        ws.close()


def test_a_dropped_connection_catches_up_from_the_log(db: str, stack: ExitStack) -> None:
    with served(db) as base:
        view, people = table(base, ["me", "person", "person", "person"], seed=8)
        mid = view["id"]
        ws = socket(stack, base, people[2], mid)
        before = pushed(ws)
        ws.close()
        rng = random.Random(8)
        v = people[0].get(f"/api/matches/{mid}").json()
        for _ in range(5):  # the bidding: each person in turn, while seat 2's socket is down
            mover = v["observation"]["to_move"]
            mine = people[mover].get(f"/api/matches/{mid}").json()
            body = {"version": mine["version"], "action": choose_action(mine, rng)}
            v = people[mover].post(f"/api/matches/{mid}/actions", json=body).json()
            if v["status"] not in ("your_turn", "person_turn"):
                break
        again = socket(stack, base, people[2], mid)
        caught_up = pushed(again)
        assert caught_up["version"] > before["version"]
        assert caught_up == people[2].get(f"/api/matches/{mid}").json()
        again.close()


def test_at_a_table_with_people_the_server_drives_the_computer_players(
    db: str, stack: ExitStack
) -> None:
    """Nobody asks for a step: once the person acts, the computer players act until it is a
    person's turn again (and a page that asks anyway gets a conflict or the same step)."""
    with served(db) as base:
        view, people = table(base, ["me", "computer", "computer", "person"], seed=13)
        mid = view["id"]
        rng = random.Random(13)
        deadline = time.monotonic() + 60
        acted = 0
        while acted < 12 and time.monotonic() < deadline:
            views = {s: c.get(f"/api/matches/{mid}").json() for s, c in people.items()}
            turn = [s for s, v in views.items() if v["status"] == "your_turn"]
            if turn:
                v = views[turn[0]]
                body = {"version": v["version"], "action": choose_action(v, rng)}
                assert (
                    people[turn[0]].post(f"/api/matches/{mid}/actions", json=body).status_code
                    == 200
                )
                acted += 1
            elif views[0]["status"] in ("deal_over", "match_over"):
                break
            else:
                assert views[0]["status"] == "computer_turn"
                time.sleep(0.05)
        rows = stored_rows(db, mid)
        assert acted >= 4 and any(seat in (1, 2) for _s, seat, _k, _a in rows)
        assert time.monotonic() < deadline


@pytest.mark.parametrize("bus", ["embedded", "redis"])
def test_a_change_is_read_once_and_each_view_built_once_for_all_the_sockets_of_a_match(
    db: str, stack: ExitStack, bus: str
) -> None:
    """Four people with two tabs each: after an action every socket gets its own person's view
    (both tabs the same one), built without reading the match again on the embedded bus (the
    action's request brought it up to date), and with one read for all eight sockets when other
    processes may have changed it too (Redis), not one read a socket."""
    redis_url = stack.enter_context(redis_server()) if bus == "redis" else None
    app = create_app(db, computer_pause=0.0, live_url=redis_url)
    reads: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "last_seq" in statement:  # the match's row and the end of its log (``match_state``)
            reads.append(statement)

    event.listen(app.state.store.engine, "before_cursor_execute", count)
    with serve_in_thread(app) as base:
        view, people = table(base, ["me", "person", "person", "person"], seed=89)
        mid = view["id"]
        tabs = [(seat, socket(stack, base, c, mid)) for _ in range(2) for seat, c in people.items()]
        first = [pushed(ws) for _, ws in tabs]
        assert [v["seat"] for v in first] == [seat for seat, _ in tabs]
        rng = random.Random(89)
        for _ in range(4):
            quiet = len(reads)
            while True:  # until the process has stopped reading (the sockets' first views)
                time.sleep(0.5)
                if len(reads) == quiet:
                    break
                quiet = len(reads)
            now = people[0].get(f"/api/matches/{mid}").json()
            mover = now["observation"]["to_move"]
            mine = people[mover].get(f"/api/matches/{mid}").json()
            body = {"version": mine["version"], "action": choose_action(mine, rng)}
            before = len(reads)
            r = people[mover].post(f"/api/matches/{mid}/actions", json=body)
            assert r.status_code == 200, r.text
            got = [until(ws, mine["version"] + 1) for _, ws in tabs]
            for (seat, _), v in zip(tabs, got, strict=True):
                assert v == people[seat].get(f"/api/matches/{mid}").json()
            assert got[:4] == got[4:]  # each person's two tabs: the same view
            # The action's own read (its request), one for all the sockets' views with Redis;
            # the GETs just made read it too, one each.
            assert len(reads) - before == 1 + (bus == "redis") + len(tabs)
        for _, ws in tabs:
            ws.close()


# ------------------------------------------------------------------------------ two web processes


def test_a_change_stored_through_one_web_process_is_pushed_by_the_other(
    db: str, stack: ExitStack
) -> None:
    """Two web processes on one database, their live tables joined by Redis pub/sub: a person
    listening on one gets the change another person made through the other."""
    with redis_server() as url, served(db, live_url=url) as one, served(db, live_url=url) as two:
        view, people = table(one, ["me", "person", "computer", "computer"], seed=34)
        mid = view["id"]
        # The second person talks to the other process, with the same cookie.
        friend = httpx2.Client(base_url=two, cookies=people[1].cookies, timeout=30)
        ws = socket(stack, one, people[0], mid)
        mine = pushed(ws)
        rng = random.Random(34)
        latencies = []
        while mine["status"] not in ("deal_over", "match_over") and len(latencies) < 6:
            v = friend.get(f"/api/matches/{mid}").json()
            mine = until(ws, v["version"], last=mine)  # this process's socket caught up
            if v["status"] == "your_turn":
                body = {"version": v["version"], "action": choose_action(v, rng)}
                t0 = time.monotonic()
                assert friend.post(f"/api/matches/{mid}/actions", json=body).status_code == 200
                mine = until(ws, v["version"] + 1)
                latencies.append(time.monotonic() - t0)
            elif mine["status"] == "your_turn":
                body = {"version": mine["version"], "action": choose_action(mine, rng)}
                assert people[0].post(f"/api/matches/{mid}/actions", json=body).status_code == 200
                mine = until(ws, mine["version"] + 1)
            else:
                time.sleep(0.02)  # a computer player, driven by one of the processes
        assert latencies, "the friend never had a turn"
        deadline = time.monotonic() + WAIT
        while mine != (now := people[0].get(f"/api/matches/{mid}").json()):
            assert time.monotonic() < deadline
            mine = until(ws, now["version"], last=mine)
        ws.close()
        friend.close()


def test_a_web_process_that_stops_mid_deal_leaves_the_table_to_the_other(
    db: str, stack: ExitStack
) -> None:
    """The process that stored the action before a computer player's turn drives it; stopped
    before it does (its pause is long), the other process, where a person listens or loads the
    table, drives it instead."""
    with redis_server() as url, served(db, live_url=url) as two:
        with served(db, live_url=url, computer_pause=30.0) as one:
            view, people = table(one, ["me", "computer", "person", "computer"], seed=55)
            mid = view["id"]
            friend = httpx2.Client(base_url=two, cookies=people[2].cookies, timeout=30)
            ws = socket(stack, two, friend, mid)
            rng = random.Random(55)
            # Act through the first process until a computer player is to act after it.
            while True:
                v = people[0].get(f"/api/matches/{mid}").json()
                if v["status"] == "computer_turn":
                    break
                mover = v["observation"]["to_move"]
                who = people[0] if mover == 0 else people[2]
                mine = who.get(f"/api/matches/{mid}").json()
                body = {"version": mine["version"], "action": choose_action(mine, rng)}
                assert who.post(f"/api/matches/{mid}/actions", json=body).status_code == 200
            stuck = v["version"]
        # The first process is gone, its driver with it (waiting out its 30 s pause).
        assert friend.get(f"/api/matches/{mid}").status_code == 200
        moved = until(ws, stuck + 1)
        assert moved["version"] > stuck
        friend.close()


# ------------------------------------------------------------------------------ signed-in sockets


def test_a_signed_in_socket_closes_once_its_session_is_signed_out_everywhere(
    db: str, stack: ExitStack
) -> None:
    app = create_app(db, computer_pause=0.0)
    app.state.session_check = 0.2  # the server looks every 15 s; here, at once
    with serve_in_thread(app) as base:
        phone = person(base)
        made = phone.post("/api/account", json={"name": "Camille", "password": "a long secret!"})
        assert made.status_code == 201, made.text
        mid = phone.post("/api/matches", json={"deals": 2, "level": "random", "seed": 4}).json()
        url = base.replace("http://", "ws://") + f"/api/matches/{mid['id']}/live"
        jar = "; ".join(f"{k}={phone.cookies.get(k)}" for k in ("oudler_player", SESSION_COOKIE))
        ws = stack.enter_context(connect(url, additional_headers={"Cookie": jar}))
        assert pushed(ws)["id"] == mid["id"]
        time.sleep(0.6)  # looked at its session: alive, so still open
        # The same account on a laptop signs out everywhere: the phone's socket ends.
        laptop = person(base)
        signed = laptop.post("/api/session", json={"name": "Camille", "password": "a long secret!"})
        assert signed.status_code == 200, signed.text
        assert laptop.delete("/api/sessions").status_code == 200
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=WAIT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
