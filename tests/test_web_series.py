"""Duplicate series (issue 30; docs/duplicate.md): matchpoints, boards made once, computer players
that decide the same at every table, and the API's answers and refusals.

On a temporary SQLite file, or on a fresh schema of ``OUDLER_TEST_DATABASE_URL`` (PostgreSQL).
The computer players are ``club`` here (the mechanics are the same at every reproducible level;
the real level, ``expert@w100``, costs minutes a series).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import logging
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select, update

from oudler.core import Deal, bid_name
from oudler.core.deal import imposed_calls
from oudler.core.duplicate import (
    BoardMatch,
    board_candidates,
    board_percent,
    matchpoints,
    percents,
    points_by_score,
    series_boards,
    series_bot_seed,
    series_percent,
    standings,
)
from oudler.tables.computer import ComputerPlayers, bot_seed, poignee_pause, think
from oudler.tables.games import NEXT_DEAL, PHASE_KIND, Tables, notation_of_last
from oudler.tables.series import (
    CLAIM_STALE,
    LEVEL_ENV,
    Series,
    SeriesStopped,
    imposed_boards,
)
from oudler.tables.series_rows import SeriesRow, SeriesStore
from oudler.tables.store import AccountRow, PlayerRow, Store
from test_web_support import advance, stored_rows, web_client

LEVEL = "club"

# ------------------------------------------------------------------------------ matchpoints


def test_matchpoints_of_a_worked_example() -> None:
    # docs/duplicate.md: five players on one board.
    scores = [84, 84, -60, 150, -60]
    assert matchpoints(scores) == [5, 5, 1, 8, 1]
    assert percents(scores) == [62.5, 62.5, 12.5, 100.0, 12.5]
    assert series_percent([62.5, 37.5, 100.0, 0.0]) == 50.0
    assert board_percent(0, 1) == 50.0  # alone on a board


@pytest.mark.parametrize("seed", range(40))
def test_matchpoints_sum_to_n_times_n_minus_one(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 30)
    scores = [rng.choice([-150, -60, 0, 25, 84, 150]) for _ in range(n)]
    points = matchpoints(scores)
    assert sum(points) == n * (n - 1)
    assert all(0 <= p <= 2 * (n - 1) for p in points)
    # A higher score never gets fewer matchpoints.
    for (s, p), (t, q) in itertools.combinations(zip(scores, points, strict=True), 2):
        assert (s > t) <= (p > q) and (s == t) == (p == q)


def test_matchpoints_by_score_are_the_pairwise_definition() -> None:
    # points_by_score counts in one sort; the rule (docs/duplicate.md) compares every pair.
    for seed in range(60):
        rng = random.Random(seed)
        scores = [
            rng.choice([-180, -60, -30, 0, 30, 84, 150, 252]) for _ in range(rng.randint(1, 40))
        ]
        table = points_by_score(scores)
        pairwise = [
            sum(2 if s > o else 1 if s == o else 0 for j, o in enumerate(scores) if j != i)
            for i, s in enumerate(scores)
        ]
        assert [table[s] for s in scores] == pairwise


def test_standings_rank_finished_entries_and_count_every_result() -> None:
    results = [
        # (player, board, score, entry finished)
        ("ann", 0, 84, True),
        ("ann", 1, -60, True),
        ("bob", 0, 84, True),
        ("bob", 1, -60, True),
        ("cid", 0, -60, True),
        ("cid", 1, 150, True),
        ("dan", 0, 150, False),  # unfinished: beats everyone on board 0, is not ranked
    ]
    ranked = standings(results, 2)
    assert [s.player for s in ranked] == ["cid", "ann", "bob"]
    # cid: board 0 beats nobody of 4 (0 %), board 1 beats ann and bob (100 %).
    assert ranked[0].percent == 50.0 and ranked[0].scores == (-60, 150)
    # ann and bob tie everywhere: board 0 beats cid and ties each other (3 of 6: 50 %), board 1
    # ties each other (1 of 4: 25 %); the same percentage, the same rank.
    assert ranked[1].percent == ranked[2].percent == 37.5
    assert [s.rank for s in ranked] == [1, 2, 2]


# ------------------------------------------------------------------------------ boards


def test_boards_come_from_the_secret_and_the_key_and_are_never_a_petit_sec() -> None:
    a = series_boards(b"secret", "daily:2026-12-06", 40)
    assert a == series_boards(b"secret", "daily:2026-12-06", 40)
    assert a != series_boards(b"secret", "daily:2026-12-07", 40)
    assert a != series_boards(b"other", "daily:2026-12-06", 40)
    assert all(Deal.from_seed(seed, dealer).void is None for dealer, seed in a)
    assert series_bot_seed(b"secret", "k") != series_bot_seed(b"secret", "l")


def test_a_board_where_all_pass_scores_zero_and_counts() -> None:
    boards = series_boards(b"s", "k", 2)
    match = BoardMatch(boards)
    deal = match.current
    for _ in range(4):
        deal.apply("pass", deal.to_move)
    assert deal.is_over and deal.void == "all_pass"
    assert match.totals == [0, 0, 0, 0] and len(match.scored_deals) == 1
    assert match.next_deal().seed == boards[1][1]  # the next board, not a deal again


def test_a_fixed_work_expert_pauses_at_a_first_card_as_the_expert_does() -> None:
    # The computer players of a series: a first card without the poignée question waits as long
    # as the question takes (``think`` pads a fixed-work answer to it), or the wait would tell.
    assert poignee_pause("expert@w100") == poignee_pause("expert") > 0


# ------------------------------------------------------------------------------ made once


def test_a_series_is_made_once_by_two_processes_at_once(db: str, monkeypatch: Any) -> None:
    Store(db).create_schema()
    makers = []
    for _ in range(2):  # two stores: two processes' engines and locks
        makers.append(Series(Tables(Store(db), ComputerPlayers()), level=LEVEL))
    start = threading.Barrier(2)
    made: list[str] = []

    def make(series: Series) -> None:
        start.wait()
        made.append(series.make("daily", dt.date(2026, 12, 6)).id)

    threads = [threading.Thread(target=make, args=(s,)) for s in makers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 2 and made[0] == made[1]
    engine = create_engine(db)
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(SeriesRow)).scalar() == 1
    engine.dispose()
    for s in makers:
        s.tables.store.close()


# ------------------------------------------------------------------------------ playing


@pytest.fixture
def client(db: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv(LEVEL_ENV, LEVEL)
    with web_client(db) as c:
        yield c


def other(client: TestClient) -> TestClient:
    """Another person (another browser) on the same server."""
    c = TestClient(client.app)
    c.get("/api/me")
    return c


def listed(client: TestClient, kind: str) -> dict[str, Any]:
    """The open series of ``kind`` as the list shows it, once the server's background has made
    it (until the day's is made, the list says that it is preparing it)."""
    for _ in range(600):
        r = client.get("/api/series")
        assert r.status_code == 200, r.text
        lines = [s for s in r.json()["series"] if s["kind"] == kind]
        if lines:
            (line,) = lines
            return line
        if kind == "daily":
            assert r.json()["preparing"] is True
        time.sleep(0.1)
    raise AssertionError(f"the {kind} series was not made")


def daily(client: TestClient) -> dict[str, Any]:
    """The day's series as the list shows it, once it is made."""
    return listed(client, "daily")


def weekly(client: TestClient) -> dict[str, Any]:
    """The week's series as the list shows it, once it is made."""
    return listed(client, "weekly")


def play_through(
    client: TestClient, series_id: str, choose: Any = None, seed: int = 0
) -> dict[str, Any]:
    """The person plays the whole series: their actions from ``choose(view)`` or at random."""
    rng = random.Random(seed)
    r = client.post(f"/api/series/{series_id}/play")
    assert r.status_code == 200, r.text
    view = client.get(f"/api/matches/{r.json()['match']}").json()
    while view["status"] != "match_over":
        if view["status"] == "your_turn" and choose is not None:
            action = choose(view)
            r = client.post(
                f"/api/matches/{view['id']}/actions",
                json={"version": view["version"], "action": action},
            )
            assert r.status_code == 200, r.text
            view = r.json()
        else:
            view = advance(client, view, rng)
    return view


def test_the_same_actions_meet_the_same_computer_decisions(client: TestClient, db: str) -> None:
    line = daily(client)
    assert line["played"] is False and line["deals"] == 4 and line["done"] == 0
    first = play_through(client, line["id"], seed=7)
    second = play_through(other(client), line["id"], seed=7)
    # Both people's actions came from the same random numbers; so did every computer player's.
    assert stored_rows(db, first["id"]) == stored_rows(db, second["id"])
    assert first["totals"] == second["totals"]


@pytest.mark.parametrize("level", [LEVEL, "expert@w100"])
def test_a_person_who_plays_as_the_par_scores_the_par(
    db: str, monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    """South playing what the computer in South played meets the same opponents' decisions:
    the par is played with the tables' own seeds. At the real level too (its decisions go
    through the job queue's expert lane, as at the table)."""
    monkeypatch.setenv(LEVEL_ENV, level)
    with web_client(db) as client:
        play_as_the_par(client, db, level, daily(client))


def test_the_par_of_an_imposed_board_is_south_against_the_same_opponents_from_its_case(
    client: TestClient, db: str
) -> None:
    """The weekly par: the computer in South plays each board from its case, against the same
    three opponents, who are told the calls were imposed (as at the tables)."""
    play_as_the_par(client, db, LEVEL, weekly(client))


def play_as_the_par(client: TestClient, db: str, level: str, line: dict[str, Any]) -> None:
    store = Store(db)
    rows = SeriesStore(store)
    series = rows.get(line["id"])
    assert series is not None
    bots = series_bot_seed(rows.secret(), series.key)
    store.close()

    def as_the_par(view: dict[str, Any]) -> Any:
        stored = stored_rows(db, view["id"])
        match = BoardMatch(series.boards, cases=series.cases)
        in_board = 0
        for _seq, seat, kind, action in stored:
            if kind == NEXT_DEAL:
                match.next_deal()
                in_board = 0
            else:
                match.current.apply(action, seat)
                in_board += 1
        deal = match.current
        board = len(match.deals) - 1
        kind = PHASE_KIND[deal.phase]
        seed = bot_seed(bots, board, 0, in_board)
        deal.act(think(level, seed, 0, deal.observation(0), series.cases is not None), 0)
        return notation_of_last(deal, kind, 0)

    end = play_through(client, line["id"], choose=as_the_par)
    scores = [row["scores"][0] for row in end["sheet"]]
    assert scores == series.par_scores
    assert end["series"]["par"] == series.par_scores  # every board over: its par shown


def test_play_twice_gives_the_same_match_and_the_view_says_series(client: TestClient) -> None:
    line = daily(client)
    one = client.post(f"/api/series/{line['id']}/play").json()
    assert client.post(f"/api/series/{line['id']}/play").json() == one
    view = client.get(f"/api/matches/{one['match']}").json()
    assert view["series"]["id"] == line["id"] and view["series"]["deals"] == 4
    assert view["series"]["par"] == []  # no board over yet: no par shown
    assert view["learning"] is False and view["undo"] is False
    line = daily(client)
    assert line["played"] is True and line["finished"] is False and line["match"] == one["match"]
    assert line["done"] == 0
    # No coach, no undo, no deal played again in a series.
    r = client.post(f"/api/matches/{one['match']}/learning", json={"learning": True})
    assert r.status_code == 422 and r.json()["code"] == "series_match"
    r = client.post(f"/api/matches/{one['match']}/undo", json={"version": view["version"]})
    assert r.status_code == 422 and r.json()["code"] == "learning_off"


def test_refusals_have_codes_and_change_nothing(client: TestClient, db: str) -> None:
    r = client.get("/api/series/nosuchseries/ranking")
    assert r.status_code == 404 and r.json()["code"] == "no_such_series"
    r = client.post("/api/series/nosuchseries/play")
    assert r.status_code == 404 and r.json()["code"] == "no_such_series"
    # Tomorrow's series, made ahead: nobody may start it or ask about it before it opens.
    tomorrow = client.app.state.series.make(
        "daily", dt.datetime.now(dt.UTC).date() + dt.timedelta(1)
    )
    for r in (
        client.post(f"/api/series/{tomorrow.id}/play"),
        client.get(f"/api/series/{tomorrow.id}/ranking"),
    ):
        assert r.status_code == 404 and r.json()["code"] == "no_such_series"
    line = daily(client)
    assert tomorrow.id not in [s["id"] for s in client.get("/api/series").json()["series"]]
    r = client.get(f"/api/series/{line['id']}/ranking")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    match = client.post(f"/api/series/{line['id']}/play").json()["match"]
    r = client.get(f"/api/series/{line['id']}/ranking")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    assert set(r.json()) <= {"error", "code", "view"} and "rows" not in r.text

    # After the close: no start, and no next deal (the deal in hand may be finished).
    engine = create_engine(db)
    with engine.begin() as conn:
        conn.execute(update(SeriesRow).values(closes=dt.datetime.now(dt.UTC)))
    engine.dispose()
    late = other(client)
    r = late.post(f"/api/series/{line['id']}/play")
    assert r.status_code == 409 and r.json()["code"] == "series_closed"
    assert late.get("/api/matches").json() == {"matches": []}
    # A series' close never moves; here it did, so the match cached with its series is dropped.
    client.app.state.tables.forget(match)
    view = client.get(f"/api/matches/{match}").json()
    rng = random.Random(1)
    while view["status"] != "deal_over":
        view = advance(client, view, rng)
    r = client.post(f"/api/matches/{match}/next-deal", json={"version": view["version"]})
    assert r.status_code == 422 and r.json()["code"] == "series_closed"
    assert client.get(f"/api/matches/{match}").json()["version"] == view["version"]


def test_the_ranking_after_finishing(client: TestClient) -> None:
    # Ranked play is for signed-in people (docs/duplicate.md; guests: test_web_series_after).
    line = daily(client)
    account = {"password": "correct horse battery"}
    client.post("/api/account", json={"name": "Alice", **account})
    bob = other(client)
    bob.post("/api/account", json={"name": "Bob", **account})
    carol = other(client)  # starts, plays one board, never finishes
    carol.post("/api/account", json={"name": "Carol", **account})
    play_through(client, line["id"], seed=1)
    r = client.get(f"/api/series/{line['id']}/ranking")
    assert r.status_code == 200, r.text
    alone = r.json()
    assert [row["name"] for row in alone["rows"]] == ["Alice"]
    assert alone["rows"][0]["you"] and alone["rows"][0]["percent"] == 50.0

    mid = carol.post(f"/api/series/{line['id']}/play").json()["match"]
    view = carol.get(f"/api/matches/{mid}").json()
    rng = random.Random(3)
    while view["status"] != "deal_over":
        view = advance(carol, view, rng)
    carol_first = view["sheet"][0]["scores"][0]
    # The list tells her how far she is (the home page's "in progress: 1 of 4"), nothing more.
    mid_way = daily(carol)
    assert (mid_way["played"], mid_way["finished"], mid_way["done"]) == (True, False, 1)
    assert "rank" not in mid_way and "players" not in mid_way
    end = play_through(bob, line["id"], seed=2)
    ranking = bob.get(f"/api/series/{line['id']}/ranking").json()
    assert sorted(r["name"] for r in ranking["rows"]) == ["Alice", "Bob"]  # Carol unfinished
    mine = [r for r in ranking["rows"] if r["you"]]
    assert len(mine) == 1 and mine[0]["name"] == "Bob"
    assert mine[0]["scores"] == [row["scores"][0] for row in end["sheet"]]
    assert len(ranking["par"]) == 4 and len(ranking["par_records"]) == 4
    # The percentages are the matchpoints of every board's results, Carol's first board too.
    alice = next(r for r in ranking["rows"] if r["name"] == "Alice")
    bob_line = mine[0]
    for person, others in ((alice, [bob_line]), (bob_line, [alice])):
        boards = []
        for b in range(4):
            scores = [person["scores"][b]] + [o["scores"][b] for o in others]
            if b == 0:
                scores.append(carol_first)
            boards.append(percents(scores)[0])
        assert person["percent"] == round(series_percent(boards), 2)
    assert ranking["rows"][0]["rank"] == 1
    line = daily(bob)
    assert line["finished"] and line["players"] == 2 and line["rank"] == mine[0]["rank"]
    assert line["done"] == 4
    assert line["percent"] == mine[0]["percent"]


# ------------------------------------------------------------------------------ the imposed taker


def test_a_weekly_board_where_all_four_pass_is_replaced_by_the_next_seed() -> None:
    key, secret = "weekly:2026-11-30", b"test-secret"
    bots = series_bot_seed(secret, key)
    boards, cases = imposed_boards(secret, key, 8, LEVEL, bots)
    # By hand: the candidates in order, each board's bidding by four players of the level
    # (seeded as the board it would be); a candidate where all four pass is skipped.
    expected: list[tuple[Any, Any]] = []
    skipped = 0
    for board in board_candidates(secret, key):
        deal = Deal.from_seed(board[1], board[0])
        for call in range(4):
            seat = deal.to_move
            deal.act(
                think(
                    LEVEL, bot_seed(bots, len(expected), seat, call), seat, deal.observation(seat)
                )
            )
        if deal.void == "all_pass":
            skipped += 1
            continue
        expected.append((board, (deal.declarer, deal.contract)))
        if len(expected) == 8:
            break
    assert skipped > 0  # this key's candidates include an all-pass deal
    assert list(zip(boards, cases, strict=True)) == expected
    assert imposed_boards(secret, key, 8, LEVEL, bots) == (boards, cases)  # the same every time


def test_the_weekly_series_starts_each_deal_from_its_case(client: TestClient, db: str) -> None:
    line = weekly(client)
    assert (line["form"], line["deals"]) == ("imposed", 8)
    series = client.app.state.series.rows.get(line["id"])
    monday = dt.datetime.now(dt.UTC).date() - dt.timedelta(dt.datetime.now(dt.UTC).weekday())
    assert series.key == f"weekly:{monday.isoformat()}"
    assert series.opens == dt.datetime.combine(monday, dt.time(), dt.UTC)
    assert series.closes - series.opens == dt.timedelta(days=7)
    assert series.cases is not None and len(series.cases) == 8
    match = client.post(f"/api/series/{line['id']}/play").json()["match"]
    view = client.get(f"/api/matches/{match}").json()
    rng = random.Random(5)
    starts = []
    while view["status"] != "match_over":
        board = view["deal_number"] - 1
        if not starts or starts[-1][0] != board:
            starts.append((board, view))
        view = advance(client, view, rng)
    assert [b for b, _ in starts] == list(range(8))
    roles = set()
    for board, start in starts:
        declarer, contract = series.cases[board]
        obs = start["observation"]
        # The case, shown before the first action: the bidding is not played.
        assert start["series"]["case"] == {"declarer": declarer, "contract": contract.notation}
        assert (obs["declarer"], obs["contract"]) == (declarer, contract.notation)
        assert obs["bids"] == [
            bid_name(b) for b in imposed_calls(obs["dealer"], declarer, contract)
        ]
        assert obs["phase"] == ("discard" if contract.dog_shown else "chelem")
        # The person plays as the case says: the declarer acts first, or a computer does.
        south = declarer == 0
        roles.add(south)
        assert start["status"] == ("your_turn" if south else "computer_turn")
    # Nothing of the bidding is stored: every board's first stored action is the declarer's.
    rows = stored_rows(db, match)
    assert not [r for r in rows if r[2] == "bid"]
    assert len(view["sheet"]) == 8 and all(r["contract"] for r in view["sheet"])
    # Matchpoints compare the people who played the same cases: the ranking has the par.
    ranking = client.get(f"/api/series/{line['id']}/ranking").json()
    assert ranking["par"] == series.par_scores and len(ranking["rows"]) == 1
    for record, (declarer, contract) in zip(ranking["par_records"], series.cases, strict=True):
        assert record["bids"] == [
            bid_name(b) for b in imposed_calls(record["dealer"], declarer, contract)
        ]


def test_a_series_claimed_at_once_by_two_processes_plays_its_par_once(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Two workers at midnight: the first insert of the key's row (a claim) makes the series;
    the other waits for it to be filled and reads it. The par, CPU heavy, is played once."""
    Store(db).create_schema()
    makers = [Series(Tables(Store(db), ComputerPlayers()), level=LEVEL) for _ in range(2)]
    start = threading.Barrier(2)
    made: list[Any] = []

    def make(series: Series) -> None:
        start.wait()
        made.append(series.make("weekly", dt.date(2026, 12, 9)))

    with caplog.at_level(logging.INFO, logger="oudler.series"):
        threads = [threading.Thread(target=make, args=(s,)) for s in makers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    plays = [r for r in caplog.records if "playing the par" in r.getMessage()]
    assert len(plays) == 1
    assert len(made) == 2 and made[0] == made[1] and made[0].ready
    assert made[0].key == "weekly:2026-12-07"  # the Monday of that week
    engine = create_engine(db)
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(SeriesRow)).scalar() == 1
    engine.dispose()
    for s in makers:
        s.tables.store.close()


def test_a_claim_left_by_a_process_that_died_is_taken_over(db: str) -> None:
    store = Store(db)
    store.create_schema()
    series = Series(Tables(store, ComputerPlayers()), level=LEVEL)
    day = dt.date(2026, 12, 6)
    claim = SeriesRow(
        id="deadclaim",
        key="daily:2026-12-06",
        kind="daily",
        form="free",
        level=LEVEL,
        opens=dt.datetime(2026, 12, 6, tzinfo=dt.UTC),
        closes=dt.datetime(2026, 12, 7, tzinfo=dt.UTC),
        boards=[],
        par=[],
        created=dt.datetime.now(dt.UTC) - CLAIM_STALE - dt.timedelta(minutes=1),
    )
    assert series.rows.claim(claim)
    assert series.rows.get_ready("deadclaim") is None  # a claim is no series for anyone
    made = series.make("daily", day)
    assert made.id != "deadclaim" and made.ready and len(made.boards) == 4
    # A fresh claim is waited for, never dropped, and a made series is never dropped.
    assert not series.rows.drop_claim(made.id)
    store.close()


def test_a_series_being_made_is_left_when_the_server_stops(db: str) -> None:
    """A server stopping does not go on playing a par (minutes of a core at the real level)
    after its database is closed: the making stops at its next decision, and its claim is
    dropped, so that another process makes the series."""
    store = Store(db)
    store.create_schema()
    series = Series(Tables(store, ComputerPlayers()), level=LEVEL)
    series.stop()
    with pytest.raises(SeriesStopped):
        series.make("weekly", dt.date(2026, 12, 9))
    assert series.rows.by_key("weekly:2026-12-07") is None
    store.close()


def accounts_of(store: Store, players: list[str]) -> None:
    """Accounts for these player ids, as if each had signed up (their results are ranked)."""
    with store.writing() as s:
        s.add_all([PlayerRow(id=p, name=p) for p in players])
        s.flush()  # the players first: each account points at one
        s.add_all([AccountRow(name=p, key=p, player=p, password="never signs in") for p in players])


def test_a_ranking_page_holds_the_top_lines_and_your_own(client: TestClient) -> None:
    line = daily(client)
    client.post("/api/account", json={"name": "Alice", "password": "correct horse battery"})
    play_through(client, line["id"], seed=1)
    mine = client.get(f"/api/series/{line['id']}/ranking").json()["rows"][0]["scores"]
    series = client.app.state.series  # type: ignore[attr-defined]
    info = series.rows.get(line["id"])
    # Twelve people who scored more than this person on every board, stored as their boards
    # end, and a guest who scored more still: unranked, so on nobody's page.
    better = [f"better-{i:02d}" for i in range(12)]
    accounts_of(series.rows.store, better)
    for i, player in enumerate([*better, "a-guest"]):
        series.rows.start(info, player, f"m-{player}", i)
        series.rows.add_results(info.id, player, {b: mine[b] + 10 + i for b in range(4)}, True)
    series.rankings._counted.clear()  # as another process would, count them now
    page = client.get(f"/api/series/{line['id']}/ranking", params={"limit": 5}).json()
    assert page["players"] == 13 and page["offset"] == 0
    ranks = [r["rank"] for r in page["rows"]]
    assert ranks == [1, 2, 3, 4, 5, 13]  # the top five, then the person's own line
    assert page["rows"][0]["name"] == "better-11"
    assert page["rows"][-1]["you"] and page["rows"][-1]["percent"] == 0.0
    assert [r["you"] for r in page["rows"][:5]] == [False] * 5
    further = client.get(f"/api/series/{line['id']}/ranking", params={"offset": 10, "limit": 5})
    assert [r["rank"] for r in further.json()["rows"]] == [11, 12, 13]
    for bad in ({"limit": 0}, {"offset": -1}, {"limit": "many"}):
        r = client.get(f"/api/series/{line['id']}/ranking", params=bad)
        assert r.status_code == 400, r.text


def test_a_guests_line_is_placed_among_the_ranked_and_moves_nobody(client: TestClient) -> None:
    line = daily(client)
    play_through(client, line["id"], seed=1)  # a guest: unranked
    series = client.app.state.series  # type: ignore[attr-defined]
    info = series.rows.get(line["id"])
    own = client.get(f"/api/series/{line['id']}/ranking").json()["rows"]
    assert len(own) == 1 and own[0]["ranked"] is False and own[0]["rank"] == 1
    scores = own[0]["scores"]
    # Two ranked people: one above the guest on every board, one below.
    accounts_of(series.rows.store, ["above", "below"])
    for i, (player, step) in enumerate((("above", 5), ("below", -5))):
        series.rows.start(info, player, f"m-{player}", i)
        series.rows.add_results(info.id, player, {b: scores[b] + step for b in range(4)}, True)
    series.rankings._counted.clear()
    rows = client.get(f"/api/series/{line['id']}/ranking").json()["rows"]
    assert [(r["name"], r["rank"], r["ranked"]) for r in rows] == [
        ("above", 1, True), (None, 2, False), ("below", 2, True)
    ]  # fmt: skip
    # Among the ranked only, each beat the other's result: 100 and 0, the guest changes neither.
    assert (rows[0]["percent"], rows[2]["percent"]) == (100.0, 0.0)
    assert rows[1]["percent"] == 50.0  # beat one, beaten by one, on every board
    listed = daily(client)
    assert (listed["rank"], listed["players"], listed["ranked"]) == (2, 2, False)


# ------------------------------------------------------------------------------ the command line


def test_the_command_line_makes_a_series_once_and_prints_its_ranking(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from oudler.cli import app

    monkeypatch.setenv(LEVEL_ENV, LEVEL)
    runner = CliRunner()
    made = runner.invoke(app, ["duplicate", "make", "--date", "2026-12-06", "--database-url", db])
    assert made.exit_code == 0, made.output
    again = runner.invoke(app, ["duplicate", "make", "--date", "2026-12-06", "--database-url", db])
    assert again.output == made.output  # the same series, not a second one
    series_id = made.output.split()[1]
    out = runner.invoke(app, ["duplicate", "results", series_id, "--json", "--database-url", db])
    assert out.exit_code == 0, out.output
    results = json.loads(out.output)
    assert results["key"] == "daily:2026-12-06" and results["rows"] == []
    assert len(results["par"]) == 4
    week = runner.invoke(
        app, ["duplicate", "make", "--weekly", "--date", "2026-12-09", "--database-url", db]
    )
    assert week.exit_code == 0, week.output
    assert "(weekly:2026-12-07): 8 deals, closes 2026-12-14T00:00:00+00:00" in week.output
    bad = runner.invoke(app, ["duplicate", "make", "--date", "2026-13-01", "--database-url", db])
    assert bad.exit_code == 1 and "not a date" in bad.output
    none = runner.invoke(app, ["duplicate", "results", "nope", "--database-url", db])
    assert none.exit_code == 1 and "no series" in none.output
