"""After a duplicate series (issue 30; docs/duplicate.md, "After the series"): ranked play for
signed-in people, the review of a deal (gating, the best other record, where the records part,
the coach's analysis), a person's history of series, the series closed for someone in the middle
of it, and the export of a closed series.

On a temporary SQLite file, or on a fresh schema of ``OUDLER_TEST_DATABASE_URL`` (PostgreSQL).
The computer players are ``club`` (the mechanics are those of every reproducible level).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, update
from sqlalchemy.orm import Session

from oudler.bots.decisions import FORMAT
from oudler.core import Deal
from oudler.core.duplicate import percents, series_percent
from oudler.core.parting import first_difference
from oudler.core.records import Replayer, deal_from_record, deal_to_record
from oudler.tables.series import LEVEL_ENV
from oudler.tables.series_rows import EntryRow, ResultRow, SeriesRow
from oudler.tables.store import AccountRow, MatchRow, PlayerRow
from test_web_series import daily, play_through
from test_web_support import advance, web_client

LEVEL = "club"
PASSWORD = "correct horse battery"
WORLDS = 4  # the coach's analysis in tests: a few worlds per decision


@pytest.fixture
def client(db: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv(LEVEL_ENV, LEVEL)
    with web_client(db, coach_worlds=WORLDS) as c:
        yield c


def person(client: TestClient, name: str | None = None) -> TestClient:
    """Another browser on the same server; signed in with an account of ``name`` if given (a
    guest otherwise)."""
    c = TestClient(client.app)
    c.get("/api/me")
    if name is not None:
        r = c.post("/api/account", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
    return c


def close_series(db: str, series_id: str) -> None:
    """The series' close moved to now (a test cannot wait a day); the web table's cached
    matches keep their series' old close, so the caller forgets them."""
    engine = create_engine(db)
    with engine.begin() as conn:
        conn.execute(
            update(SeriesRow)
            .where(SeriesRow.id == series_id)
            .values(closes=dt.datetime.now(dt.UTC))
        )
    engine.dispose()


def forget_all(client: TestClient) -> None:
    tables = client.app.state.tables
    for match_id in list(tables._cache):
        tables.forget(match_id)


def own_records(c: TestClient, match_id: str) -> list[dict[str, Any]]:
    r = c.get(f"/api/matches/{match_id}/record")
    assert r.status_code == 200, r.text
    deals: list[dict[str, Any]] = r.json()["deals"]
    for d in deals:
        d.pop("by", None)
    return deals


# ------------------------------------------------------------------------------ ranked play


def test_only_signed_in_people_are_ranked_a_guest_sees_an_unranked_line(
    client: TestClient,
) -> None:
    line = daily(client)
    alice = person(client, "Alice")
    bob = person(client, "Bobby")
    guest = person(client)
    guest.post("/api/me", json={"name": "Mallory"})  # a chosen name belongs to nobody
    a_end = play_through(alice, line["id"], seed=1)
    b_end = play_through(bob, line["id"], seed=2)
    g_end = play_through(guest, line["id"], seed=3)
    scores = {
        who: [row["scores"][0] for row in end["sheet"]]
        for who, end in (("Alice", a_end), ("Bobby", b_end), ("guest", g_end))
    }

    ranking = alice.get(f"/api/series/{line['id']}/ranking").json()
    assert sorted(r["name"] for r in ranking["rows"]) == ["Alice", "Bobby"]
    assert all(r["ranked"] for r in ranking["rows"])
    # The guest's scores make nobody's matchpoints: Alice's percentage is against Bob only.
    alice_row = next(r for r in ranking["rows"] if r["you"])
    expected = series_percent(
        [percents([scores["Alice"][b], scores["Bobby"][b]])[0] for b in range(4)]
    )
    assert alice_row["percent"] == round(expected, 2)

    # The guest sees their own line, unranked, at the place it would take.
    seen = guest.get(f"/api/series/{line['id']}/ranking").json()
    mine = [r for r in seen["rows"] if r["you"]]
    assert len(mine) == 1 and mine[0]["ranked"] is False and mine[0]["name"] == "Mallory"
    would = series_percent(
        [
            percents([scores["guest"][b], scores["Alice"][b], scores["Bobby"][b]])[0]
            for b in range(4)
        ]
    )
    assert mine[0]["percent"] == round(would, 2)
    ranked = [r for r in seen["rows"] if r["ranked"]]
    assert mine[0]["rank"] == 1 + sum(r["percent"] > mine[0]["percent"] for r in ranked)
    assert [r["percent"] for r in seen["rows"]] == sorted(
        (r["percent"] for r in seen["rows"]), reverse=True
    )
    listed = daily(guest)
    assert listed["ranked"] is False and listed["players"] == 2
    assert daily(alice)["ranked"] is True


def test_a_guest_who_signs_in_brings_their_series_entry(client: TestClient) -> None:
    line = daily(client)
    person(client, "Camille").delete("/api/session")  # the account exists, signed out
    guest = person(client)
    match = guest.post(f"/api/series/{line['id']}/play").json()["match"]
    view = guest.get(f"/api/matches/{match}").json()
    rng = random.Random(4)
    while view["status"] != "deal_over":  # one deal as a guest (the match is cached so)
        view = advance(guest, view, rng)
    r = guest.post("/api/session", json={"name": "Camille", "password": PASSWORD})
    assert r.status_code == 200, r.text
    # One play per person: the account has the guest's entry, and starting answers its match.
    assert guest.post(f"/api/series/{line['id']}/play").json() == {"match": match}
    assert daily(guest)["played"] is True
    # The rest played as the account: its results are the account's, ranked.
    play_through(guest, line["id"], seed=4)
    listed = daily(guest)
    assert listed["finished"] is True and listed["ranked"] is True and listed["players"] == 1
    (row,) = guest.get(f"/api/series/{line['id']}/ranking").json()["rows"]
    assert row["name"] == "Camille" and row["you"] and row["ranked"]


# ------------------------------------------------------------------------------ the review


def test_the_review_is_refused_until_the_person_finished(client: TestClient) -> None:
    line = daily(client)
    sid = line["id"]
    alice = person(client, "Alice")
    play_through(alice, sid, seed=1)
    bob = person(client, "Bobby")
    r = bob.get(f"/api/series/{sid}/review/1")  # never played it
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    match = bob.post(f"/api/series/{sid}/play").json()["match"]
    view = bob.get(f"/api/matches/{match}").json()
    rng = random.Random(5)
    while view["status"] != "deal_over":
        view = advance(bob, view, rng)
    # A deal over, the series not finished: no review, no analysis, no ranking, nothing of Alice.
    for path in (
        f"/api/series/{sid}/review/1",
        f"/api/series/{sid}/review/2",
        f"/api/series/{sid}/ranking",
        f"/api/series/{sid}/export",
    ):
        r = bob.get(path)
        assert r.status_code == 409, (path, r.text)
        assert r.json()["code"] in {"not_finished", "series_open"}
        assert set(r.json()) <= {"error", "code", "view"} and "hands" not in r.text
    r = bob.get(f"/api/matches/{match}/deals/1/analysis")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    # Bad input: a deal the series does not have, a series that does not exist.
    r = alice.get(f"/api/series/{sid}/review/5")
    assert r.status_code == 422 and r.json()["code"] == "no_such_deal"
    r = alice.get("/api/series/nosuchseries/review/1")
    assert r.status_code == 404 and r.json()["code"] == "no_such_series"


def test_the_review_shows_the_best_other_record_and_where_they_part(client: TestClient) -> None:
    line = daily(client)
    sid = line["id"]
    people = {name: person(client, name) for name in ("Alice", "Bobby", "Carla")}
    ends = {name: play_through(c, sid, seed=i) for i, (name, c) in enumerate(people.items())}
    records = {name: own_records(people[name], ends[name]["id"]) for name in people}
    alice = people["Alice"]
    for number in range(1, 5):
        board = number - 1
        r = alice.get(f"/api/series/{sid}/review/{number}")
        assert r.status_code == 200, r.text
        review = r.json()
        mine = records["Alice"][board]
        assert review["you"]["record"] == mine
        assert review["you"]["score"] == mine["result"]["scores"][0]
        # The best other: the highest score on this board among Bobby and Carla.
        others = {n: records[n][board]["result"]["scores"][0] for n in ("Bobby", "Carla")}
        top = max(others.values())
        best = review["best"]
        assert best["score"] == top and others[best["name"]] == top
        assert best["record"] == records[best["name"]][board]
        assert set(best) == {"name", "score", "record"}  # nothing else of that person
        # The par: the series' own record and score.
        ranking = alice.get(f"/api/series/{sid}/ranking").json()
        assert review["par"]["record"] == ranking["par_records"][board]
        assert review["par"]["score"] == ranking["par"][board]
        for other, parting in (
            (best["record"], review["parting"]),
            (review["par"]["record"], review["par_parting"]),
        ):
            check_parting(mine, other, parting)


def check_parting(mine: dict[str, Any], other: dict[str, Any], parting: Any) -> None:
    """The records are the same up to the parting's action, and differ at it; the computer
    players decide the same wherever the tables agree, so it is the person's decision."""
    if parting is None:
        assert mine == other
        return
    index = parting["index"]
    assert parting["seat"] == 0
    before = deal_from_record(mine, upto=index), deal_from_record(other, upto=index)
    assert before[0].observation(0).to_dict() == before[1].observation(0).to_dict()
    assert deal_to_record(before[0]) == deal_to_record(before[1])
    after = deal_from_record(mine, upto=index + 1), deal_from_record(other, upto=index + 1)
    assert deal_to_record(after[0]) != deal_to_record(after[1])
    assert parting["yours"] != parting["theirs"]


def test_first_difference_of_hand_made_records() -> None:
    deal = Deal.from_seed(11, 0)
    for _ in range(4):
        deal.apply("pass", deal.to_move)
    passed = deal_to_record(deal)
    assert first_difference(passed, passed) is None
    taken = dict(passed, bids=["prise", "pass", "pass", "pass"])
    taken.pop("result")
    diff = first_difference(passed, taken)
    assert diff is not None
    assert diff == {
        "index": 0,
        "kind": "bid",
        "seat": 1,
        "yours": "pass",
        "theirs": "prise",
        "trick": None,
    }
    with pytest.raises(ValueError):
        first_difference(passed, deal_to_record(Deal.from_seed(12, 0)))


def test_the_coachs_analysis_of_a_series_deal_once_finished(client: TestClient) -> None:
    line = daily(client)
    alice = person(client, "Alice")
    end = play_through(alice, line["id"], seed=1)
    path = f"/api/matches/{end['id']}/deals/1/analysis"
    answer = alice.get(path).json()
    for _ in range(600):
        if answer["status"] != "running":
            break
        answer = alice.get(path).json()
    assert answer["status"] == "done", answer
    analysis = answer["analysis"]
    assert {d["seat"] for d in analysis["decisions"]} <= {0}  # the person's decisions only
    assert analysis["scores"] == end["sheet"][0]["scores"]


# ------------------------------------------------------------------------------ closed for you


def test_a_series_closed_in_the_middle_keeps_the_finished_deals(
    client: TestClient, db: str
) -> None:
    line = daily(client)
    sid = line["id"]
    alice = person(client, "Alice")
    play_through(alice, sid, seed=1)
    bob = person(client, "Bobby")
    match = bob.post(f"/api/series/{sid}/play").json()["match"]
    view = bob.get(f"/api/matches/{match}").json()
    rng = random.Random(2)
    while view["status"] != "deal_over":
        view = advance(bob, view, rng)
    view = advance(bob, view, rng)  # the second deal dealt, then the series closes
    bob_first = bob.get(f"/api/matches/{match}").json()["sheet"][0]["scores"][0]
    close_series(db, sid)
    forget_all(client)
    view = bob.get(f"/api/matches/{match}").json()
    assert view["series"]["closed"] is True
    # A deal in hand: still nothing of the others.
    r = bob.get(f"/api/series/{sid}/ranking")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    while view["status"] != "deal_over":
        view = advance(bob, view, rng)
    r = bob.post(f"/api/matches/{match}/next-deal", json={"version": view["version"]})
    assert r.status_code == 422 and r.json()["code"] == "series_closed"
    # Closed for Bob: the ranking and the reviews of the deals he finished, not of the others.
    ranking = bob.get(f"/api/series/{sid}/ranking").json()
    assert [r["name"] for r in ranking["rows"]] == ["Alice"]  # Bob is not ranked: unfinished
    assert bob.get(f"/api/series/{sid}/review/2").status_code == 200
    r = bob.get(f"/api/series/{sid}/review/3")
    assert r.status_code == 422 and r.json()["code"] == "not_played"
    # His finished deals still count for Alice: her matchpoints on boards 1 and 2 are against
    # his scores, alone (50 %) on the others.
    bob_scores = [row["scores"][0] for row in view["sheet"]]
    assert len(bob_scores) == 2 and bob_scores[0] == bob_first
    (alice_row,) = alice.get(f"/api/series/{sid}/ranking").json()["rows"]
    a = alice_row["scores"]
    expected = [percents([a[0], bob_scores[0]])[0], percents([a[1], bob_scores[1]])[0], 50, 50]
    assert alice_row["percent"] == round(series_percent(expected), 2)
    history = bob.get("/api/series/history").json()["series"]
    assert history[0]["id"] == sid and history[0]["closed"] is True
    assert history[0]["finished"] is False and history[0]["played"] == 2
    assert history[0]["percent"] is None and history[0]["rank"] is None


# ------------------------------------------------------------------------------ history


def fabricate(db: str, players: dict[str, str | None], scores: list[dict[str, int]]) -> list[str]:
    """Closed one-board series straight into the database, oldest first: the ``players`` (id:
    account name, None for a guest) with the scores of each series; the par scores 0."""
    engine = create_engine(db)
    now = dt.datetime.now(dt.UTC)
    ids = []
    with Session(engine) as s:
        for who, name in players.items():
            if s.get(PlayerRow, who) is None:
                s.add(PlayerRow(id=who, name=name))
                s.flush()  # the player before its account: PostgreSQL checks the key at once
            if name is not None:
                # made before every series closed: ranked in each
                made = now - dt.timedelta(days=100)
                s.add(
                    AccountRow(name=name, key=name.lower(), player=who, password="x", created=made)
                )
        s.flush()
        for i, board_scores in enumerate(scores):
            opens = now - dt.timedelta(days=len(scores) - i + 1)
            sid = secrets.token_hex(6)
            ids.append(sid)
            s.add(
                SeriesRow(
                    id=sid,
                    key=f"test:{sid}",
                    kind="daily",
                    form="free",
                    level=LEVEL,
                    opens=opens,
                    closes=opens + dt.timedelta(days=1),
                    boards=[[0, 5]],
                    par=[{"score": 0, "record": {}}],
                )
            )
            s.flush()
            for who, score in board_scores.items():
                mid = secrets.token_hex(6)
                s.add(
                    MatchRow(
                        id=mid,
                        owner=who,
                        length=1,
                        level=LEVEL,
                        seed=1,
                        first_dealer=0,
                        first_deal_seed=None,
                        learning=False,
                        shared=False,
                    )
                )
                s.flush()
                s.add(EntryRow(series_id=sid, player=who, match_id=mid, finished=opens))
                s.add(ResultRow(series_id=sid, board=0, player=who, score=score))
        s.commit()
    engine.dispose()
    return ids


def test_the_history_rank_percentage_par_difference_mean_of_the_last_30_and_best(
    client: TestClient, db: str
) -> None:
    # The page's own route, for a person with no series: an empty history.
    me = person(client)
    assert me.get("/api/series/history").json() == {
        "series": [],
        "mean": None,
        "mean_of": 0,
        "best": None,
    }
    players = {"rival": "Rival", "other": "Other", "guest": None}
    # 32 series: the rival scores 10, the other 20; a guest -1000 (unranked).
    scores = [{"rival": 10, "other": 20, "guest": -1000} for _ in range(32)]
    ids = fabricate(db, players, scores)
    history = client.app.state.series.after.history("rival")
    lines = history["series"]
    assert [x["id"] for x in lines] == ids[::-1]  # newest first
    for x in lines:
        # Rival 10 against Other 20 (the guest counts for nobody): beaten, 0 %; rank 2 of 2.
        assert (x["rank"], x["players"], x["percent"], x["ranked"]) == (2, 2, 0.0, True)
        assert x["par_diff"] == 10 and x["closed"] and x["finished"]
    assert history["mean"] == 0.0 and history["mean_of"] == 30
    # Different results: the mean is of the newest 30 only, the best over all.
    ids2 = fabricate(
        db,
        {"p1": "Pone", "p2": "Ptwo"},
        [{"p1": s, "p2": 0} for s in [50, -5] + [0] * 29 + [10, -10]],
    )
    out = client.app.state.series.after.history("p1")
    assert len(out["series"]) == 33
    by_id = {x["id"]: x for x in out["series"]}
    assert by_id[ids2[0]]["percent"] == 100.0 and by_id[ids2[0]]["par_diff"] == 50
    assert by_id[ids2[1]]["percent"] == 0.0 and by_id[ids2[1]]["rank"] == 2
    newest = [x["percent"] for x in out["series"]][:30]
    assert out["mean"] == round(sum(newest) / 30, 2) == round((100 + 0 + 28 * 50) / 30, 2)
    assert out["best"] == {"id": ids2[31], "percent": 100.0}


def test_the_history_of_played_series_matches_their_rankings(client: TestClient) -> None:
    line = daily(client)
    alice = person(client, "Alice")
    bob = person(client, "Bobby")
    a_end = play_through(alice, line["id"], seed=1)
    play_through(bob, line["id"], seed=2)
    history = alice.get("/api/series/history").json()
    (x,) = history["series"]
    ranking = alice.get(f"/api/series/{line['id']}/ranking").json()
    mine = next(r for r in ranking["rows"] if r["you"])
    assert (x["rank"], x["percent"], x["players"]) == (mine["rank"], mine["percent"], 2)
    par = ranking["par"]
    assert x["par_diff"] == sum(row["scores"][0] for row in a_end["sheet"]) - sum(par)
    assert history["mean"] == mine["percent"] and history["best"]["id"] == line["id"]


# ------------------------------------------------------------------------------ export


def test_the_export_of_a_closed_series_holds_each_seats_own_view_only(
    client: TestClient, db: str
) -> None:
    from typer.testing import CliRunner

    from oudler.cli import app

    line = daily(client)
    sid = line["id"]
    alice = person(client, "Alice")
    bob = person(client)
    a_end = play_through(alice, sid, seed=1)
    b_end = play_through(bob, sid, seed=2)
    runner = CliRunner()
    r = alice.get(f"/api/series/{sid}/export")
    assert r.status_code == 409 and r.json()["code"] == "series_open"
    out = runner.invoke(app, ["duplicate", "export", sid, "--database-url", db])
    assert out.exit_code == 1 and "once it has closed" in out.output

    close_series(db, sid)
    forget_all(client)
    stranger = person(client)
    r = stranger.get(f"/api/series/{sid}/export")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    r = alice.get(f"/api/series/{sid}/export")
    assert r.status_code == 200, r.text
    assert "attachment" in r.headers["content-disposition"]
    lines = [json.loads(x) for x in r.text.splitlines()]
    header, deals = lines[0], lines[1:]
    assert header["format"] == FORMAT and header["players"] == 2 and header["deals"] == 4
    assert "seed" not in header
    records = {
        "Alice": own_records(alice, a_end["id"]),
        "guest": own_records(bob, b_end["id"]),
    }
    who = sorted({d["player"] for d in deals} - {"par"})
    assert len(who) == 2 and all(w.startswith("p") for w in who)  # pseudonyms, not names
    assert "Alice" not in r.text
    par = alice.get(f"/api/series/{sid}/ranking").json()["par_records"]
    by_player: dict[str, list[dict[str, Any]]] = {}
    for d in deals:
        by_player.setdefault(d["player"], []).append(d)
    assert [d["deal"] for d in by_player["par"]] == [0, 1, 2, 3]
    matched = 0
    for lines_of in by_player.values():
        for d in lines_of:
            candidates = (
                [par[d["deal"]]]
                if d["player"] == "par"
                else [recs[d["deal"]] for recs in records.values()]
            )
            record = next(c for c in candidates if c["result"] == d["result"] and same(c, d))
            matched += 1
            assert_own_views(record, d)
    assert matched == 12
    # The command line: the same lines, names when asked (a guest has none).
    cli = runner.invoke(app, ["duplicate", "export", sid, "--names", "--database-url", db])
    assert cli.exit_code == 0, cli.output
    named = {json.loads(x).get("player") for x in cli.output.splitlines()[1:]}
    assert named == {"par", "Alice", None}


def same(record: dict[str, Any], line: dict[str, Any]) -> bool:
    """The line is of this record: the same actions in the same order."""
    try:
        assert_own_views(record, line)
    except AssertionError:
        return False
    return True


def assert_own_views(record: dict[str, Any], line: dict[str, Any]) -> None:
    """Every decision of the line is the record's next one, and its observation is exactly what
    the engine lets that seat see then (no other hand, no unseen dog or discard)."""
    decisions = line["decisions"]
    k = 0
    replayer = Replayer(record)
    while True:
        d = replayer.deal
        seat = None if d.is_over else d.to_move
        obs = d.observation(seat).to_dict() if seat is not None else None
        step = replayer.step()
        if step is None:
            break
        if seat is None or step.seat != seat:
            continue
        assert k < len(decisions)
        got = decisions[k]
        assert got["seat"] == seat and got["observation"] == obs
        assert got["score"] == record["result"]["scores"][seat]
        k += 1
    assert k == len(decisions)
