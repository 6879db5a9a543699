"""The web table's HTTP API (docs/web-api.md), through real HTTP on a real database.

Set ``OUDLER_TEST_DATABASE_URL`` to a PostgreSQL URL to run the same tests against PostgreSQL.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, update

from oudler.core import Action, Observation, Phase
from oudler.core import cards as C
from oudler.core.records import deal_to_record, replay_record
from oudler.tables.computer import ComputerPlayers
from oudler.tables.games import Tables
from oudler.tables.jobs import Job, LocalQueue, register_job
from oudler.tables.store import ActionRow
from oudler.web.app import create_app
from test_web_support import (
    advance,
    engine_match,
    engine_sheet,
    new_match,
    steps_stored,
    stored_rows,
    web_client,
)

VIEW_KEYS = {
    "id", "version", "length", "level", "seat", "deal_number", "seed", "status", "totals",
    "sheet", "observation", "reasons", "winners", "learning", "undo",
}  # fmt: skip


View = dict[str, Any]


def check_status(view: View) -> None:
    """The status agrees with the observation it comes with."""
    obs = view["observation"]
    status = view["status"]
    scored = [row for row in view["sheet"] if row["void"] is None]
    if status == "your_turn":
        assert obs["to_move"] == 0 and obs["legal"] and obs["phase"] != "done"
    elif status == "computer_turn":
        assert obs["to_move"] in (1, 2, 3) and obs["legal"] == {}
    elif status == "deal_over":
        assert obs["phase"] == "done" and obs["result"] is not None
        assert view["seed"] == view["sheet"][-1]["seed"] and view["winners"] is None
        assert len(scored) < view["length"]
    else:
        assert status == "match_over"
        assert obs["phase"] == "done" and len(scored) == view["length"]
        assert view["winners"]
    if obs["phase"] != "done":
        assert view["seed"] is None  # a deal's seed would reveal every hand


def drive(
    client: TestClient,
    view: View,
    rng: random.Random,
    until: Callable[[View], bool],
    limit: int = 2000,
) -> View:
    for _ in range(limit):
        if until(view):
            return view
        view = advance(client, view, rng)
    raise AssertionError("the wanted position never came")


def play_to_end(client: TestClient, view: View, rng: random.Random) -> View:
    return drive(client, view, rng, lambda v: v["status"] == "match_over")


# ------------------------------------------------------------------------------ creating


def test_new_match_answers_201_with_the_documented_view_and_a_player_cookie(
    client: TestClient,
) -> None:
    r = client.post("/api/matches", json={"deals": 4, "level": "random", "seed": 77})
    assert r.status_code == 201
    assert "oudler_player=" in r.headers["set-cookie"]
    assert "httponly" in r.headers["set-cookie"].lower()
    view = r.json()
    assert set(view) == VIEW_KEYS
    assert view["version"] == 0 and view["seat"] == 0 and view["length"] == 4
    assert view["level"] == "random" and view["deal_number"] == 1
    assert view["totals"] == [0, 0, 0, 0]
    assert view["observation"]["seat"] == 0
    assert len(view["observation"]["hand"]) == 18
    check_status(view)


@pytest.mark.parametrize(
    "body",
    [
        {"deals": 3, "level": "random"},
        {"deals": 2, "level": "grandmaster"},
        {"deals": "2", "level": "random"},
        {"level": "random"},
        {"deals": 2, "level": "random", "seed": -1},
        {"deals": 2, "level": "random", "seed": 2**63},
    ],
)
def test_a_malformed_new_match_is_a_400(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/api/matches", json=body)
    assert r.status_code == 400
    assert r.json()["error"]
    assert client.get("/api/matches").json()["matches"] == []


# ------------------------------------------------------------------------------ a whole match


def test_a_whole_match_played_through_the_api_agrees_with_the_engine(
    db: str, client: TestClient
) -> None:
    rng = random.Random(2024)
    view = new_match(client, deals=2, seed=31337)
    seen_statuses = set()
    while True:
        check_status(view)
        seen_statuses.add(view["status"])
        engine = engine_match(db, view["id"])
        deal = engine.current
        # The view is the engine's observation for seat 0, and the sheet the engine's results.
        assert view["observation"] == deal.observation(0).to_dict()
        assert view["sheet"] == engine_sheet(engine)
        assert view["totals"] == engine.totals
        assert view["deal_number"] == len(engine.deals)
        assert view["version"] == steps_stored(db, view["id"])
        if view["status"] == "your_turn" and deal.phase is Phase.PLAY:
            hand = set(view["observation"]["hand"])
            assert set(view["reasons"]) == hand - set(view["observation"]["legal"]["cards"])
            for name, reason in view["reasons"].items():
                assert reason == deal.why_card_illegal(C.parse_card(name), 0)
        elif view["status"] == "your_turn" and deal.phase is Phase.DISCARD:
            allowed = set(view["observation"]["legal"]["discard"]["allowed"])
            assert set(view["reasons"]) == set(view["observation"]["hand"]) - allowed
        else:
            assert view["reasons"] == {}
        if view["status"] == "match_over":
            break
        view = advance(client, view, rng)
    assert seen_statuses == {"your_turn", "computer_turn", "deal_over", "match_over"}
    assert view["winners"] == engine.winners()
    # Finished: nothing more may be done.
    mid, version = view["id"], view["version"]
    r = client.post(f"/api/matches/{mid}/next-deal", json={"version": version})
    assert r.status_code == 422 and "over" in r.json()["error"]
    assert r.json()["code"] == "match_over" and r.json()["view"]["status"] == "match_over"
    assert client.post(f"/api/matches/{mid}/step", json={"version": version}).status_code == 409


# ------------------------------------------------------------------------------ errors


def snapshot(db: str, client: TestClient, mid: str) -> tuple[Any, View]:
    r = client.get(f"/api/matches/{mid}")
    assert r.status_code == 200
    return stored_rows(db, mid), r.json()


def your_card_with_illegal_cards(view: View) -> bool:
    return (
        view["status"] == "your_turn"
        and view["observation"]["phase"] == "play"
        and bool(view["reasons"])
    )


def test_bad_requests_get_clear_errors_and_change_nothing(db: str, client: TestClient) -> None:
    rng = random.Random(5)
    view = new_match(client, deals=8, seed=99)
    view = drive(client, view, rng, your_card_with_illegal_cards)
    mid, version = view["id"], view["version"]
    before = snapshot(db, client, mid)
    url = f"/api/matches/{mid}/actions"
    illegal = sorted(view["reasons"])[0]
    hand = set(view["observation"]["hand"])
    not_held = next(c for c in C.CARD_NAMES if c not in hand)

    def post(path: str, **kwargs: Any) -> httpx2.Response:
        r: httpx2.Response = client.post(path, **kwargs)
        assert snapshot(db, client, mid) == before, f"{kwargs} changed the match"
        return r

    cases: list[tuple[str, dict[str, Any], int, str]] = [
        (url, {"content": b"{not json", "headers": {"content-type": "application/json"}}, 400,
         "not valid JSON"),
        (url, {"json": {"action": illegal}}, 400, "version"),
        (url, {"json": {"version": str(version), "action": illegal}}, 400, "version"),
        (url, {"json": {"version": version}}, 400, "action"),
        (url, {"json": {"version": version, "action": "ZZ"}}, 400, "unknown card"),
        (url, {"json": {"version": version, "action": 12}}, 400, "card"),
        (url, {"json": {"version": version, "action": ["T21"]}}, 400, "card"),
        (url, {"json": {"version": version - 1, "action": illegal}}, 409, "out of date"),
        (url, {"json": {"version": version + 3, "action": illegal}}, 409, "out of date"),
        (url, {"json": {"version": version, "action": illegal}}, 422, view["reasons"][illegal]),
        (url, {"json": {"version": version, "action": not_held}}, 422, "you do not hold"),
        (f"/api/matches/{mid}/step", {"json": {"version": version}}, 409, "no computer player"),
        (f"/api/matches/{mid}/next-deal", {"json": {"version": version}}, 409, "not over"),
        (f"/api/matches/{mid}/step", {"json": {}}, 400, "version"),
    ]  # fmt: skip
    for path, kwargs, status, words in cases:
        r = post(path, **kwargs)
        assert r.status_code == status, (kwargs, r.text)
        body = r.json()
        assert words in body["error"], (kwargs, body["error"])
        if words == "you do not hold":
            assert body["code"] == "card_not_held"  # the engine's stable code
        if words == "not over":
            assert body["code"] == "out_of_turn"  # docs/web-api.md: 409, as out of turn
        if status == 409:
            assert body["view"] == before[1]  # a stale page gets the current table
        if words == "out of date":
            assert body["code"] == "stale_version"  # the page says it in its language
    # Lower case and spaces are read as in notation.md: a legal card in any case is accepted.
    card = view["observation"]["legal"]["cards"][0]
    r = client.post(url, json={"version": version, "action": f" {card.lower()} "})
    assert r.status_code == 200, r.text
    assert stored_rows(db, mid)[-1][3] == card  # stored in canonical form


def test_acting_on_a_computer_players_turn_is_a_409_and_changes_nothing(
    db: str, client: TestClient
) -> None:
    rng = random.Random(8)
    view = new_match(client, seed=4)
    view = drive(client, view, rng, lambda v: v["status"] == "computer_turn")
    before = snapshot(db, client, view["id"])
    r = client.post(
        f"/api/matches/{view['id']}/actions", json={"version": view["version"], "action": "pass"}
    )
    assert r.status_code == 409 and "not your turn" in r.json()["error"]
    assert r.json()["view"] == before[1]
    assert snapshot(db, client, view["id"]) == before


def test_an_illegal_discard_is_a_422_and_every_card_that_may_not_go_says_why(
    db: str, client: TestClient
) -> None:
    rng = random.Random(11)
    # Bid garde at once when it is still possible, until the person has a discard to make.
    for seed in range(200):
        view = new_match(client, seed=seed)
        while view["status"] in ("computer_turn", "your_turn") and view["observation"]["phase"] in (
            "bidding",
            "discard",
        ):
            legal = view["observation"]["legal"]
            if view["status"] == "your_turn" and "discard" in legal:
                break
            if view["status"] == "your_turn":
                bid = "garde" if "garde" in legal["bids"] else "pass"
                view = client.post(
                    f"/api/matches/{view['id']}/actions",
                    json={"version": view["version"], "action": bid},
                ).json()
            else:
                view = advance(client, view, rng)
        if view["status"] == "your_turn" and "discard" in view["observation"]["legal"]:
            break
    else:
        pytest.fail("the person never came to discard")
    hand = view["observation"]["hand"]
    assert len(hand) == 24
    allowed = view["observation"]["legal"]["discard"]["allowed"]
    reasons = view["reasons"]
    assert set(reasons) == set(hand) - set(allowed)
    for card, reason in reasons.items():
        c = C.parse_card(card)
        if c in (C.PETIT, C.MONDE, C.EXCUSE):
            assert "oudler" in reason
        elif C.is_trump(c):
            assert "trump" in reason
        else:
            assert "King" in reason
    before = snapshot(db, client, view["id"])
    king_or_oudler = next(c for c in reasons if c[-1] == "K" or c in ("T1", "T21", "EX"))
    legal_six = [c for c in allowed if not c.startswith("T")][:5]
    r = client.post(
        f"/api/matches/{view['id']}/actions",
        json={"version": view["version"], "action": [*legal_six, king_or_oudler]},
    )
    assert r.status_code == 422 and r.json()["error"] == reasons[king_or_oudler]
    assert snapshot(db, client, view["id"]) == before


# ------------------------------------------------------------------------------ players


def test_another_players_match_answers_404(db: str, client: TestClient) -> None:
    view = new_match(client)
    mid = view["id"]
    with TestClient(client.app) as stranger:  # a browser with its own cookie
        for r in (
            stranger.get(f"/api/matches/{mid}"),
            stranger.get(f"/api/matches/{mid}/record"),
            stranger.post(f"/api/matches/{mid}/actions", json={"version": 0, "action": "pass"}),
            stranger.post(f"/api/matches/{mid}/step", json={"version": 0}),
            stranger.post(f"/api/matches/{mid}/next-deal", json={"version": 0}),
            stranger.post("/api/matches", json={"deals": 2, "level": "random",
                                                "replay_of": {"match": mid, "deal": 1}}),
        ):  # fmt: skip
            assert r.status_code == 404, r.text
            assert "no match" in r.json()["error"]
        assert stranger.get("/api/matches").json() == {"matches": []}
        # A forged cookie that is not the owner's changes nothing either.
        stranger.cookies.set("oudler_player", "x" * 24)
        assert stranger.get(f"/api/matches/{mid}").status_code == 404
    assert client.get("/api/matches/0123456789ab").status_code == 404
    assert client.get(f"/api/matches/{mid}").json()["version"] == 0
    assert len(stored_rows(db, mid)) == 0


def test_the_list_shows_the_players_matches_newest_first(client: TestClient) -> None:
    first = new_match(client, seed=1)
    second = new_match(client, deals=4, level="random", seed=2)
    matches = client.get("/api/matches").json()["matches"]
    assert [m["id"] for m in matches] == [second["id"], first["id"]]
    assert matches[0]["length"] == 4 and matches[0]["level"] == "random"
    # The seed of a match in play would tell every hand to come.
    assert all(m["finished"] is None and m["seed"] is None for m in matches)
    last = play_to_end(client, first, random.Random(3))
    done = {m["id"]: m for m in client.get("/api/matches").json()["matches"]}[first["id"]]
    assert done["finished"] is not None
    assert done["totals"] == last["totals"] and done["seed"] == 1
    assert done["version"] == last["version"]


# ------------------------------------------------------------------------------ nothing lost


def test_a_new_server_on_the_same_database_resumes_the_match_exactly(db: str) -> None:
    """Restart the server every few requests: the views are the same, and so is the whole match
    (the computer players' future play does not depend on the restarts)."""
    rng = random.Random(77)
    with web_client(db) as c:
        straight = play_to_end(c, new_match(c, seed=555), rng)
        player = c.cookies["oudler_player"]

    rng = random.Random(77)
    with web_client(db) as c:
        c.cookies.set("oudler_player", player)
        view = new_match(c, seed=555)
    restarts = 0
    while view["status"] != "match_over":
        with web_client(db) as c:  # a fresh app: nothing in memory
            c.cookies.set("oudler_player", player)
            assert c.get(f"/api/matches/{view['id']}").json() == view
            for _ in range(37):
                if view["status"] == "match_over":
                    break
                view = advance(c, view, rng)
        restarts += 1
    assert restarts > 3
    assert view["sheet"] == straight["sheet"] and view["totals"] == straight["totals"]
    strip = [(seat, kind, action) for _, seat, kind, action in stored_rows(db, straight["id"])]
    assert [(s, k, a) for _, s, k, a in stored_rows(db, view["id"])] == strip


def test_concurrent_requests_on_one_match_are_serialised(db: str, client: TestClient) -> None:
    view = new_match(client, seed=12)
    view = drive(client, view, random.Random(1), lambda v: v["status"] == "computer_turn")
    mid, version = view["id"], view["version"]
    barrier = threading.Barrier(4)
    answers: list[int] = []

    def step() -> None:
        barrier.wait()
        r = client.post(f"/api/matches/{mid}/step", json={"version": version})
        answers.append(r.status_code)

    threads = [threading.Thread(target=step) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409, 409, 409]
    assert steps_stored(db, mid) == version + 1


# ------------------------------------------------------------------------------ records, replays


def test_the_record_holds_the_finished_deals_only(db: str, client: TestClient) -> None:
    rng = random.Random(21)
    view = new_match(client, deals=2, seed=2)
    mid = view["id"]

    def check_record() -> dict[str, Any]:
        r = client.get(f"/api/matches/{mid}/record")
        assert r.status_code == 200
        assert "attachment" in r.headers["content-disposition"]
        record: dict[str, Any] = r.json()
        engine = engine_match(db, mid)
        assert record["format"] == "tarot-match/1"
        assert record["deals"] == [deal_to_record(d) for d in engine.deals if d.is_over]
        assert record["totals"] == engine.totals
        return record

    check_record()
    view = drive(client, view, rng, lambda v: v["status"] == "deal_over")
    view = advance(client, view, rng)  # the next deal is in play: it is left out
    assert view["observation"]["phase"] != "done"
    assert len(check_record()["deals"]) == len(view["sheet"])
    view = play_to_end(client, view, rng)
    record = check_record()
    assert len(record["deals"]) == len(view["sheet"])
    assert record["totals"] == view["totals"]
    outcome = replay_record(record)
    assert outcome.ok, outcome.to_dict()


def test_replay_of_deals_the_same_deal_again_for_the_same_seats(
    db: str, client: TestClient
) -> None:
    rng = random.Random(4)
    view = new_match(client, seed=8)
    mid = view["id"]
    # A deal still in play may not be replayed: its hidden cards would show in the new match.
    if view["status"] != "deal_over":
        r = client.post(
            "/api/matches",
            json={"deals": 2, "level": "random", "replay_of": {"match": mid, "deal": 1}},
        )
        assert r.status_code == 422
    view = drive(client, view, rng, lambda v: v["status"] == "deal_over")
    original = view["sheet"][0]
    dealt = view["observation"]["review"]["hands"][0]
    replay = new_match(client, deals=4, replay_of={"match": mid, "deal": 1})
    assert replay["id"] != mid and replay["length"] == 4
    assert replay["observation"]["dealer"] == original["dealer"]
    if replay["observation"]["phase"] == "bidding":
        assert replay["observation"]["hand"] == dealt
    first = engine_match(db, replay["id"]).deals[0]
    assert (first.seed, first.dealer) == (original["seed"], original["dealer"])
    r = client.post(
        "/api/matches",
        json={"deals": 2, "level": "random", "replay_of": {"match": mid, "deal": 9}},
    )
    assert r.status_code == 400


def test_a_deal_played_again_on_its_own_is_a_one_deal_game_that_ends_with_it(
    db: str, client: TestClient
) -> None:
    rng = random.Random(5)
    view = drive(client, new_match(client, seed=8), rng, lambda v: v["status"] == "deal_over")
    original = view["sheet"][-1]
    # One deal only with replay_of: a new game is 2, 4 or 8 deals.
    r = client.post("/api/matches", json={"deals": 1, "level": "random"})
    assert r.status_code == 400 and "replay_of" in r.json()["error"]
    replay_of = {"match": view["id"], "deal": original["deal"]}
    again = new_match(client, deals=1, replay_of=replay_of)
    assert again["length"] == 1 and again["deal_number"] == 1
    first = engine_match_single(db, again["id"])
    assert (first.seed, first.dealer) == (original["seed"], original["dealer"])
    # Played to its end, the game is over at once: no second deal, nothing left unfinished.
    again = drive(client, again, rng, lambda v: v["status"] in ("deal_over", "match_over"))
    assert again["status"] == "match_over" and again["winners"]
    assert again["totals"] == again["observation"]["result"]["scores"]
    r = client.post(f"/api/matches/{again['id']}/next-deal", json={"version": again["version"]})
    assert r.status_code == 422
    listed = {m["id"]: m for m in client.get("/api/matches").json()["matches"]}
    assert listed[again["id"]]["finished"] is not None and listed[again["id"]]["length"] == 1
    # The record of the single deal replays to the same totals.
    outcome = replay_record(client.get(f"/api/matches/{again['id']}/record").json())
    assert outcome.ok and outcome.result["totals"] == again["totals"]


def engine_match_single(database_url: str, match_id: str) -> Any:
    """The first deal of a stored game, rebuilt from its row and the engine."""
    from oudler.core import Deal
    from oudler.tables.store import Store

    store = Store(database_url)
    try:
        info = store.get_match(match_id)
        assert info is not None and info.first_deal_seed is not None
        return Deal.from_seed(info.first_deal_seed, info.first_dealer or 0)
    finally:
        store.close()


# ------------------------------------------------------------------------------ computer players


def test_computer_players_in_worker_processes_play_as_in_threads(db: str) -> None:
    rng = random.Random(6)
    with web_client(db) as c:
        threaded = drive(c, new_match(c, seed=606), rng, lambda v: v["status"] == "deal_over")
    rng = random.Random(6)
    with web_client(db, bot_processes=1) as c:
        pooled = drive(c, new_match(c, seed=606), rng, lambda v: v["status"] == "deal_over")
    rows = [r[1:] for r in stored_rows(db, threaded["id"])]
    assert rows and rows == [r[1:] for r in stored_rows(db, pooled["id"])]


# ------------------------------------------------------------------------------ pages


def test_pages_and_static_files_are_served_from_the_static_folder(tmp_path: Path, db: str) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>table</title>")
    (static / "rules.html").write_text("<!doctype html><title>rules</title>")
    (static / "app.js").write_text("console.log('hi')")
    with web_client(db, static_dir=static) as c:
        r = c.get("/")
        assert r.status_code == 200 and "<title>table</title>" in r.text
        assert r.headers["content-type"].startswith("text/html")
        assert "<title>rules</title>" in c.get("/rules").text
        assert c.get("/static/app.js").text == "console.log('hi')"
        assert c.get("/static/nothing.js").status_code == 404
        assert c.get("/api/nowhere").json() == {"error": "Not Found"}


# ------------------------------------------------------------------------------ oudler serve


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_oudler_serve_prints_its_address_and_serves_the_api(db: str) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "oudler"), "serve", "--port", str(port),
         "--database-url", db, "--bot-processes", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert f"http://localhost:{port}/" in first
        deadline = time.monotonic() + 30
        while True:
            try:
                with httpx2.Client(base_url=f"http://127.0.0.1:{port}") as http:
                    r = http.post("/api/matches", json={"deals": 2, "level": "random"})
                    assert r.status_code == 201
                    assert http.get("/api/matches").json()["matches"][0]["id"] == r.json()["id"]
                break
            except httpx2.ConnectError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


FAULTY_CALLS = [0]


def faulty_think(level: str, seed: int, seat: int, obs: Observation) -> Action:
    """A computer player with a bug: every other decision raises, the others are illegal."""
    FAULTY_CALLS[0] += 1
    if FAULTY_CALLS[0] % 2:
        raise RuntimeError(f"bot bug, holding {C.format_cards(obs.hand)}")
    return C.cards_of(C.ALL_CARDS & ~obs.hand)[0]  # a card it does not hold


class FaultyQueue(LocalQueue):
    """The embedded job queue, running ``faulty_think`` for every decision."""

    async def submit(self, job: Job) -> None:
        if job.function == "think":
            job = Job(job.id, "faulty-think", job.args, job.lane)
        await super().submit(job)


def test_a_faulty_computer_player_is_replaced_by_a_legal_action_and_logged_without_cards(
    db: str, client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    tables: Tables = client.app.state.tables  # type: ignore[attr-defined]
    register_job("faulty-think", "test_web_api:faulty_think")
    tables.computers = ComputerPlayers(queue=FaultyQueue())
    FAULTY_CALLS[0] = 0
    rng = random.Random(3)
    view = play_to_end(client, new_match(client, seed=17), rng)
    calls = FAULTY_CALLS[0]
    assert calls > 50
    engine = engine_match(db, view["id"])
    assert view["sheet"] == engine_sheet(engine)
    failures = [r.getMessage() for r in caplog.records if "stands in" in r.getMessage()]
    assert len(failures) == calls
    assert any("RuntimeError" in m for m in failures)
    assert any("CardNotHeldError" in m for m in failures)  # an IllegalCardError
    from test_web_leak import card_tokens

    assert not any(card_tokens(r.getMessage()) for r in caplog.records)


def test_stored_actions_that_do_not_replay_give_a_500_that_names_no_card(db: str) -> None:
    with web_client(db) as c:
        view = new_match(c, seed=3)
        view = drive(c, view, random.Random(2), lambda v: v["observation"]["phase"] == "play")
        player = c.cookies["oudler_player"]
    engine = create_engine(db)
    with engine.begin() as conn:  # the database changed by hand: a bid becomes a card
        conn.execute(
            update(ActionRow)
            .where(ActionRow.match_id == view["id"], ActionRow.seq == 0)
            .values(action="T21")
        )
    engine.dispose()
    with TestClient(create_app(db), raise_server_exceptions=False) as c:
        c.cookies.set("oudler_player", player)
        r = c.get(f"/api/matches/{view['id']}")
    assert r.status_code == 500
    assert "do not replay" in r.json()["error"]
    assert "T21" not in r.text
