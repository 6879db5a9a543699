"""No answer of the web table ever shows the person a card they may not see at that moment.

Random matches are played through the real API (random legal actions from the view, plus illegal,
stale and mistimed requests now and then). After every answer the match is rebuilt here from the
stored actions through the engine, what seat 0 may know is computed from the engine's state (not
from ``observation``), and every card named anywhere in the answer, in notation or in words, must be
among those cards. Seeds are checked too: a deal's seed, and the match's, would reveal every hand.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from oudler.core import Deal, Match
from oudler.core import cards as C
from oudler.core.deal import POIGNEE_SIZES
from oudler.core.duplicate import BoardMatch, series_bot_seed
from oudler.core.records import deal_to_record
from oudler.tables.presence import PHRASES
from oudler.tables.series import LEVEL_ENV
from oudler.tables.series_rows import SeriesStore
from oudler.tables.store import ActionRow, Store
from oudler.web.app import create_app
from oudler.web.background import serve_in_thread
from softkey import SoftKey
from test_web_support import advance, choose_action, new_match, temporary_database, web_client

_RANK_WORDS = {"jack": "J", "cavalier": "C", "queen": "Q", "king": "K"}
_SUIT_WORDS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
_NOTATION = re.compile(
    r"(?<![A-Za-z0-9])(T(?:1\d|2[01]|[1-9])|EX|[SHDC](?:10|[1-9JCQK]))(?![A-Za-z0-9])"
)
_WORDS = re.compile(
    r"\bthe (10|[1-9]|jack|cavalier|queen|king) of (spades|hearts|diamonds|clubs)\b"
    r"|\bthe (Petit|Excuse)\b(?! au bout)",  # "the petit au bout" names a bonus, not a card
    re.IGNORECASE,
)
_TRUMP_WORDS = re.compile(r"\btrump (1\d|2[01]|[1-9])\b", re.IGNORECASE)  # the coach's words


def card_tokens(text: str) -> set[int]:
    """Every card a text names: in notation (``T14``, ``HK``) or in words ("the king of hearts")."""
    found = {C.parse_card(m) for m in _NOTATION.findall(text)}
    for rank, suit, special in _WORDS.findall(text):
        if special:
            found.add(C.PETIT if special.lower() == "petit" else C.EXCUSE)
        else:
            found.add(C.parse_card(_SUIT_WORDS[suit.lower()] + _RANK_WORDS.get(rank.lower(), rank)))
    found |= {C.parse_card(f"T{n}") for n in _TRUMP_WORDS.findall(text)}
    return found


# The test's own clients (httpx and under it httpcore, the websockets client) log the random
# invitation tokens, session cookies and handshake keys they send and receive, and the
# handshake's random keys are logged on the server's side too: base64 that may read as a card
# ("...-SC_...", "D4+X6F3...").
_CLIENT_LOGGERS = ("httpx", "httpcore", "websockets.client")
_RANDOM_HEADER = re.compile(r"[<>] Sec-WebSocket-(?:Key|Accept): ")


def assert_no_card_logged(records: list[logging.LogRecord]) -> None:
    """No line logged while the test played names a card, but for the random lines above."""
    for record in records:
        text = record.getMessage()
        if record.name.startswith(_CLIENT_LOGGERS) or _RANDOM_HEADER.match(text):
            continue
        assert not card_tokens(text), text


def strings_and_ints(value: Any) -> Iterator[str | int]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings_and_ints(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_and_ints(v)
    elif isinstance(value, (str, int)) and not isinstance(value, bool):
        yield value


def seat0_may_know(deal: Deal) -> int:
    return seat_may_know(deal, 0)


def seat_may_know(deal: Deal, seat: int) -> int:
    """What the person at ``seat`` may know of this deal now (RULES.md §11), from the engine's
    state: their own cards as dealt, every card played, the dog when shown, trumps forced into
    the discard, poignées shown, a petit sec hand; everything once the deal is over."""
    if deal.is_over:
        return C.ALL_CARDS
    known = deal.dealt[seat] | C.mask_of(deal.play_log) | (deal.discard & C.TRUMPS)
    if deal.contract is not None and deal.contract.dog_shown:
        known |= deal.dog  # turned face up for everyone (and the declarer's own discard in it)
    for shown in deal.poignees.values():
        known |= shown
    return known


class Replica:
    """The match rebuilt from the stored actions, kept up to date incrementally."""

    def __init__(self, engine: Engine, match_id: str, length: int, seed: int) -> None:
        self.engine = engine
        self.match_id = match_id
        self.match = Match(length, seed)
        self.applied = 0
        self.standing: list[tuple[int, int | None, Any]] = []  # the current deal's, not undone

    def update(self) -> Match:
        with Session(self.engine) as s:
            rows = s.scalars(
                select(ActionRow)
                .where(ActionRow.match_id == self.match_id, ActionRow.seq >= self.applied)
                .order_by(ActionRow.seq)
            ).all()
            for r in rows:
                if r.kind == "next_deal":
                    self.match.next_deal()
                    self.standing = []
                elif r.kind in ("ready", "left"):  # a breakdown closed, a seat left: no card
                    pass
                elif r.kind == "undo":
                    # What the person may know is what the table now shows: the deal rebuilt
                    # without the actions taken back.
                    self.standing = [a for a in self.standing if a[0] < r.action["seq"]]
                    old = self.match.current
                    assert old.seed is not None
                    self.match.deals[-1] = Deal.from_seed(old.seed, old.dealer)
                    for _seq, seat, action in self.standing:
                        self.match.current.apply(action, seat)
                else:
                    self.match.current.apply(r.action, r.seat)
                    self.standing.append((r.seq, r.seat, r.action))
                self.applied += 1
        return self.match


class Checker:
    def __init__(self, replica: Replica, match_seed: int, seat: int = 0) -> None:
        self.replica = replica
        self.match_seed = match_seed
        self.seat = seat  # the seat of the person who receives the answers
        self.answers = 0

    def check(self, r: httpx2.Response, sent: Any = None) -> Any:
        return self.check_body(r.json(), str(r.url), sent)

    def check_body(self, body: Any, where: str, sent: Any = None) -> Any:
        """Every card named in ``body`` (an answer, or a pushed message) may be known to the
        seat now; no seed that would show the hands of the deal or match in play."""
        match = self.replica.update()
        deal = match.current
        allowed = seat_may_know(deal, self.seat)
        # A card the request itself named may be echoed in its error ("you do not hold T21").
        echo = set().union(*(card_tokens(s) for s in strings_and_ints(sent) if isinstance(s, str)))
        for item in strings_and_ints(body):
            if isinstance(item, str):
                leaked = {c for c in card_tokens(item) if not allowed >> c & 1} - echo
                assert not leaked, f"{C.format_cards(leaked)} leaked in {item!r} ({where})"
            else:
                if not deal.is_over:
                    assert item != deal.seed, f"the seed of the deal in play leaked ({where})"
                if not match.is_over:
                    assert item != self.match_seed, f"the match seed leaked ({where})"
        self.answers += 1
        return body


def coach_requests(client: TestClient, checker: Checker, view: Any, rng: random.Random) -> Any:
    """Learning mode: hints now and then, an undo now and then (its answer is the new view),
    each finished deal's analysis; every answer checked. Returns the view to go on from."""
    base = f"/api/matches/{view['id']}"
    if view["status"] == "your_turn" and rng.random() < 0.3:
        r = client.post(f"{base}/hint", json={"version": view["version"]})
        assert r.status_code == 200, r.text
        checker.check(r)
    if view["undo"] and rng.random() < 0.1:
        r = client.post(f"{base}/undo", json={"version": view["version"]})
        assert r.status_code == 200, r.text
        return checker.check(r)
    if view["status"] in ("deal_over", "match_over"):
        while True:
            r = client.get(f"{base}/deals/{view['deal_number']}/analysis")
            assert r.status_code == 200, r.text
            if checker.check(r)["status"] == "done":
                break
            time.sleep(0.05)
        checker.check(client.get(f"{base}/record"))
    return view


def play_one(
    client: TestClient,
    db: Engine,
    level: str,
    seed: int,
    rng: random.Random,
    learning: bool = False,
) -> int:
    view = new_match(client, deals=2, level=level, seed=seed, learning=learning)
    mid = view["id"]
    checker = Checker(Replica(db, mid, 2, seed), seed)
    eager = rng.random()
    base = f"/api/matches/{mid}"
    while view["status"] != "match_over":
        if learning:
            view = coach_requests(client, checker, view, rng)
        version, status = view["version"], view["status"]
        roll = rng.random()
        # Now and then a request the page would not send, or one it sends rarely.
        if roll < 0.03:
            sent = {"version": version - 1, "action": "pass"}
            r = client.post(f"{base}/actions", json=sent)
            assert r.status_code == 409
            checker.check(r, sent)
        elif roll < 0.06:
            for path in (base, "/api/matches"):
                checker.check(client.get(path))
            record = client.get(f"{base}/record").json()
            finished = [d for d in checker.replica.update().deals if d.is_over]
            assert record["deals"] == [deal_to_record(d) for d in finished]
            # The history counts finished deals only; a past deal is shown once it is over,
            # exactly as the engine's observation of its end, and the deal in play not at all.
            checker.check(client.get("/api/history"))
            for n, d in enumerate(checker.replica.update().deals, start=1):
                r = client.get(f"{base}/deals/{n}")
                if d.is_over:
                    assert r.json()["observation"] == d.observation(0).to_dict()
                else:
                    assert r.status_code == 422
                    checker.check(r)
        elif roll < 0.15 and status == "your_turn" and view["reasons"]:
            card = rng.choice(sorted(view["reasons"]))
            sent = {"version": version, "action": card}
            r = client.post(f"{base}/actions", json=sent)
            assert r.status_code in (400, 422)
            checker.check(r, sent)
        elif roll < 0.18 and status == "your_turn" and view["observation"]["phase"] == "play":
            hand = set(view["observation"]["hand"])
            sent = {"version": version, "action": rng.choice([c for c in C.CARD_NAMES
                                                               if c not in hand])}  # fmt: skip
            r = client.post(f"{base}/actions", json=sent)
            assert r.status_code == 422
            checker.check(r, sent)
        elif roll < 0.2 and status == "computer_turn":
            sent = {"version": version, "action": "T21"}
            r = client.post(f"{base}/actions", json=sent)
            assert r.status_code == 409
            checker.check(r, sent)
        # The request that moves the match on.
        if status == "computer_turn":
            r = client.post(f"{base}/step", json={"version": version})
            while r.status_code == 202:  # still thinking: the page asks again
                checker.check(r)
                r = client.post(f"{base}/step", json={"version": version})
        elif status == "deal_over":
            r = client.post(f"{base}/next-deal", json={"version": version})
        else:
            sent = {"version": version, "action": choose_action(view, rng, eager)}
            r = client.post(f"{base}/actions", json=sent)
        assert r.status_code == 200, r.text
        view = checker.check(r)
    if learning:
        coach_requests(client, checker, view, rng)
    return checker.answers


@pytest.fixture
def db_url(tmp_path: Path) -> Iterator[str]:
    with temporary_database(tmp_path) as url:
        yield url


# Random computer players, in four batches so that test workers share them; one batch each of
# the rule-based levels (their poignées and chelems differ from random ones).
@pytest.mark.parametrize(
    ("level", "batch", "matches"),
    [("random", 0, 4), ("random", 1, 4), ("random", 2, 4), ("random", 3, 4),
     ("novice", 0, 2), ("club", 0, 2)],
)  # fmt: skip
def test_no_answer_shows_a_card_the_person_may_not_see(
    db_url: str, level: str, batch: int, matches: int, caplog: pytest.LogCaptureFixture
) -> None:
    module = "random_bot" if level == "random" else level
    if importlib.util.find_spec(f"oudler.bots.{module}") is None:
        pytest.skip(f"the {level} computer player is not in the tree yet")
    caplog.set_level(logging.DEBUG)
    rng = random.Random(f"leak-{level}-{batch}")
    engine = create_engine(db_url)
    answers = 0
    try:
        with web_client(db_url) as client:
            for _ in range(matches):
                answers += play_one(client, engine, level, rng.randrange(2**40), rng)
    finally:
        engine.dispose()
    assert answers > matches * 100
    # Nor does any log line name a card.
    assert_no_card_logged(caplog.records)


def test_no_answer_of_the_coach_shows_a_card_the_person_may_not_see(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Learning mode: hints, undos and analyses, checked like every other answer."""
    caplog.set_level(logging.DEBUG)
    rng = random.Random("leak-coach")
    engine = create_engine(db_url)
    answers = 0
    try:
        with web_client(db_url, coach_worlds=4) as client:
            for _ in range(2):
                answers += play_one(client, engine, "random", rng.randrange(2**40), rng, True)
    finally:
        engine.dispose()
    assert answers > 200
    assert_no_card_logged(caplog.records)


def test_the_oracle_spots_a_hidden_card() -> None:
    """The check above can fail: a card of another hand is not among what seat 0 may know."""
    deal = Deal.from_seed(123, 3)
    known = seat0_may_know(deal)
    assert known == deal.dealt[0]
    other = C.cards_of(deal.dealt[1])[0]
    assert card_tokens(f"you must follow {C.CARD_NAMES[other]}") == {other}
    assert card_tokens("the king of hearts and the Excuse, T14 beats T12") == {
        C.parse_card("HK"),
        C.EXCUSE,
        C.parse_card("T14"),
        C.parse_card("T12"),
    }
    assert card_tokens("2026-11-30T12:30:00 a1b2c3 garde_sans expert") == set()
    assert card_tokens("Trump 21 is the only legal choice.") == {C.parse_card("T21")}


def play_shared(
    client: TestClient, db: Engine, people: int, seed: int, rng: random.Random, hints: bool = False
) -> int:
    """A match at a table of ``people`` people (and computer players in the other seats), each
    person's answers checked against what their own seat may know: the invitation, joining,
    their views, refused actions for others' seats, stale requests, lists, records, history, and
    a person leaving mid-deal and sitting again by the creator's new link (a turn time is set, so
    the views carry the turn's deadline); with ``hints`` (the creator's choice), hints asked by
    the person to act and refused to the others, each finished deal's analysis, and the coach's
    part of each person's record."""
    seats = ["me", *["person"] * (people - 1), *["computer"] * (4 - people)]
    extra = {"hints": True} if hints else {}
    view = new_match(
        client, deals=2, level="random", seed=seed, seats=seats, turn_time=120, **extra
    )
    came_back = False
    mid = view["id"]
    replica = Replica(db, mid, 2, seed)
    checkers = {0: Checker(replica, seed, 0)}
    clients = {0: client}
    for invite in view["invites"]:
        friend = TestClient(client.app)
        seat = invite["seat"]
        checkers[seat] = Checker(replica, seed, seat)
        token = invite["url"].removeprefix("/join/")
        checkers[seat].check(friend.get(f"/api/join/{token}"))
        checkers[seat].check(friend.post(f"/api/join/{token}"))
        clients[seat] = friend
    base = f"/api/matches/{mid}"
    views = {s: checkers[s].check(c.get(base)) for s, c in clients.items()}
    while views[0]["status"] != "match_over":
        version = views[0]["version"]
        status = views[0]["status"]
        to_move = views[0]["observation"]["to_move"]
        if not came_back and version >= 10 and people > 1:
            came_back = True
            leaver = people - 1
            assert checkers[leaver].check(clients[leaver].post(f"{base}/leave"))["seat"] == leaver
            checkers[0].check(clients[0].get(base))  # the waiting table
            r = clients[0].post(f"{base}/seats/{leaver}/invite")
            # The link's token is random (it may look like a card: "...-SC_..."): left out.
            link = r.json()["invites"][0]["url"].removeprefix("/join/")
            checkers[0].check_body({k: v for k, v in r.json().items() if k != "invites"}, "invite")
            checkers[leaver].check(clients[leaver].get(f"/api/join/{link}"))
            assert (
                checkers[leaver].check(clients[leaver].post(f"/api/join/{link}"))["seat"] == leaver
            )
            views = {s: checkers[s].check(c.get(base)) for s, c in clients.items()}
            continue
        for seat, c in clients.items():
            roll = rng.random()
            if roll < 0.05:
                for path in (base, "/api/matches", "/api/history"):
                    checkers[seat].check(c.get(path))
                # The record holds the finished deals only (every card shown at their end).
                finished = [d for d in replica.update().deals if d.is_over]
                record = c.get(f"{base}/record").json()
                # Beside each deal, who made its calls (``by``: names, no card).
                deals = [{k: v for k, v in d.items() if k != "by"} for d in record["deals"]]
                assert deals == [deal_to_record(d) for d in finished]
                # Hints asked at other seats would tell of their cards: each gets their own
                # (those of a finished deal name its cards, all shown at its end).
                coach = record.get("coach") or {"hints": []}
                now = [h for h in coach["hints"] if h["deal"] == len(replica.update().deals)]
                checkers[seat].check_body(now, f"{base}/record")
            elif hints and status in ("your_turn", "person_turn") and roll < 0.3:
                r = c.post(f"{base}/hint", json={"version": version})
                assert r.status_code == (200 if seat == to_move else 409), r.text
                checkers[seat].check(r)
            elif roll < 0.15 and seat != to_move and status in ("your_turn", "person_turn"):
                # Acting for another seat: refused with the asker's own view.
                sent = {"version": version, "action": rng.choice(C.CARD_NAMES)}
                r = c.post(f"{base}/actions", json=sent)
                assert r.status_code in (409, 400), r.text
                checkers[seat].check(r, sent)
            elif roll < 0.2:
                r = c.post(f"{base}/step", json={"version": version - 1})
                assert r.status_code == 409
                checkers[seat].check(r)
        if status == "computer_turn":
            # The server drives the computer players; now and then a page asks as well (the
            # same step, or a conflict once it is stored).
            asker = rng.choice(sorted(clients))
            if rng.random() < 0.3:
                r = clients[asker].post(f"{base}/step", json={"version": version})
                assert r.status_code in (200, 202, 409), r.text
                checkers[asker].check(r)
            deadline = time.monotonic() + 30
            while checkers[asker].check(clients[asker].get(base))["version"] == version:
                assert time.monotonic() < deadline, "the computer player was not driven"
                time.sleep(0.01)
            views = {s: checkers[s].check(c.get(base)) for s, c in clients.items()}
            continue
        if status == "deal_over":
            if hints:
                for seat, c in clients.items():
                    while True:
                        r = c.get(f"{base}/deals/{views[0]['deal_number']}/analysis")
                        assert r.status_code == 200, r.text
                        if checkers[seat].check(r)["status"] == "done":
                            break
                        time.sleep(0.05)
            asker = rng.choice(sorted(clients))
            r = clients[asker].post(f"{base}/next-deal", json={"version": version})
        else:
            asker = to_move
            sent = {"version": version, "action": choose_action(views[asker], rng)}
            r = clients[asker].post(f"{base}/actions", json=sent)
        assert r.status_code == 200, r.text
        checkers[asker].check(r)
        views = {s: checkers[s].check(c.get(base)) for s, c in clients.items()}
    return sum(c.answers for c in checkers.values())


@pytest.mark.parametrize(("people", "hints"), [(2, False), (3, True), (4, True)])
def test_no_answer_at_a_table_of_several_people_shows_a_card_its_person_may_not_see(
    db_url: str, people: int, hints: bool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    rng = random.Random(f"leak-shared-{people}")
    engine = create_engine(db_url)
    try:
        with web_client(db_url, computer_pause=0, coach_worlds=4) as client:
            answers = play_shared(client, engine, people, rng.randrange(2**40), rng, hints)
    finally:
        engine.dispose()
    assert answers > 150 * people
    # Nor does any line the server logs.
    assert_no_card_logged(caplog.records)


def test_the_log_check_passes_only_the_random_handshake_and_client_lines() -> None:
    def record(name: str, text: str) -> logging.LogRecord:
        return logging.LogRecord(name, logging.DEBUG, __file__, 1, text, None, None)

    assert_no_card_logged(
        [
            record("websockets.client", "> Sec-WebSocket-Key: D4+X6F3NGdI6PcKVGS8miQ=="),
            record("websockets.server", "> Sec-WebSocket-Accept: D4+X6F3NGdI6PcKVGS8miQ="),
            record("httpx", "set-cookie: oudler=ab-SC_cd"),
        ]
    )
    for name, text in [
        ("websockets.server", '< TEXT \'{"hand": ["D4"]}\' [15 bytes]'),
        ("oudler.web", "seat 2 played the king of hearts"),
        ("uvicorn.error", "> Sec-WebSocket-Protocol: T21"),
    ]:
        with pytest.raises(AssertionError):
            assert_no_card_logged([record(name, text)])


def test_the_oracle_of_each_seat_spots_another_seats_card() -> None:
    deal = Deal.from_seed(321, 0)
    for seat in range(4):
        assert seat_may_know(deal, seat) == deal.dealt[seat]
        assert not seat_may_know(deal, seat) & deal.dealt[(seat + 1) % 4]


def play_shared_live(
    base: str,
    db: Engine,
    people: int,
    seed: int,
    rng: random.Random,
    tabs: int = 1,
    accounts: bool = False,
) -> int:
    """A match at a table of ``people`` people over a real server, each listening on the live
    socket (``tabs`` sockets each, as pages open in several tabs: the server builds a person's
    view once for all of them): every pushed message is checked against what its person's seat
    may know, before anything else happens at the table that could end the deal. With
    ``accounts``, each person keeps their games in an account once seated, and seat 1's person
    signs in on a second device too, which asks and listens as that seat; so does a device where
    the last seat's person signs in with a passkey."""
    from websockets.sync.client import connect

    seats = ["me", *["person"] * (people - 1), *["computer"] * (4 - people)]
    clients = {0: httpx2.Client(base_url=base, timeout=30)}
    body = {"deals": 2, "level": "random", "seed": seed, "seats": seats}
    view = clients[0].post("/api/matches", json=body).json()
    mid = view["id"]
    replica = Replica(db, mid, 2, seed)
    checkers = {0: Checker(replica, seed, 0)}
    for invite in view["invites"]:
        friend = httpx2.Client(base_url=base, timeout=30)
        checkers[invite["seat"]] = Checker(replica, seed, invite["seat"])
        checkers[invite["seat"]].check(friend.post(f"/api/join/{invite['url'][6:]}"))
        clients[invite["seat"]] = friend
    devices = list(clients.items())
    if accounts:
        secret = {"password": "a leak test password"}
        for seat, c in clients.items():
            made = c.post("/api/account", json={"name": f"Seat {seat}", **secret})
            assert made.status_code == 201, made.text
        twin = httpx2.Client(base_url=base, timeout=30)
        signed = twin.post("/api/session", json={"name": "Seat 1", **secret})
        assert signed.status_code == 200, signed.text
        devices.append((1, twin))
        # The last person adds a passkey, and a device of theirs signs in with it.
        seat, key = max(clients), SoftKey()
        options = clients[seat].post("/api/passkeys/challenge").json()
        added = clients[seat].post(
            "/api/passkeys", json={"name": "Phone", "credential": key.create(options, base)}
        )
        assert added.status_code == 201, added.text
        phone = httpx2.Client(base_url=base, timeout=30)
        options = phone.post("/api/session/passkey/challenge").json()
        signed = phone.post("/api/session/passkey", json={"credential": key.get(options, base)})
        assert signed.status_code == 200, signed.text
        devices.append((seat, phone))
    # As the page listens: presence and phrases between the views, every message checked.
    url = base.replace("http://", "ws://") + f"/api/matches/{mid}/live?events=1"
    with ExitStack() as stack:
        sockets = [
            (
                seat,
                stack.enter_context(
                    connect(
                        url,
                        additional_headers={
                            "Cookie": "; ".join(f"{k}={v}" for k, v in c.cookies.items())
                        },
                    )
                ),
            )
            for _ in range(tabs)
            for seat, c in devices
        ]
        last = [-1] * len(sockets)
        events: Counter[str] = Counter()

        def drain(version: int) -> dict[int, Any]:
            """Each socket's messages up to ``version``, checked as they come."""
            out = {}
            for i, (seat, ws) in enumerate(sockets):
                while last[i] < version:
                    msg = json.loads(ws.recv(timeout=30))
                    checkers[seat].check_body(msg, f"live socket {i} of seat {seat}")
                    if "event" in msg:
                        events[msg["event"]] += 1
                        continue
                    assert msg["seat"] == seat
                    last[i] = msg["version"]
                    out[seat] = msg
            return out

        def drain_ready(ready: list[int]) -> None:
            """Each socket's messages until the view that says ``ready`` closed theirs."""
            for i, (seat, ws) in enumerate(sockets):
                while True:
                    msg = json.loads(ws.recv(timeout=30))
                    checkers[seat].check_body(msg, f"live socket {i} of seat {seat}")
                    if "event" in msg:
                        events[msg["event"]] += 1
                    elif (msg.get("next_deal") or {}).get("ready") == ready:
                        break

        current = drain(0)
        while True:
            views = {s: checkers[s].check(c.get(f"/api/matches/{mid}")) for s, c in clients.items()}
            for s, c in devices[len(clients) :]:
                checkers[s].check(c.get(f"/api/matches/{mid}"))
            version = max(v["version"] for v in views.values())
            drain(version)
            v = views[0]
            if v["version"] != version or v["status"] == "computer_turn":
                time.sleep(0.01)  # the server drives the computer players
                continue
            if v["status"] == "match_over":
                break
            if rng.random() < 0.05:
                said = clients[rng.choice(sorted(clients))].post(
                    f"/api/matches/{mid}/phrase", json={"phrase": rng.choice(PHRASES)}
                )
                assert said.status_code in (200, 429), said.text
            if v["status"] == "deal_over":
                # Each person closes the breakdown; the last one starts the next deal. The views
                # pushed meanwhile (who closed theirs) are read as they come: they show the
                # finished deal's cards, which the next deal makes secret again.
                order = rng.sample(sorted(clients), len(clients))
                for seat in order[:-1]:
                    r = clients[seat].post(
                        f"/api/matches/{mid}/next-deal", json={"version": version}
                    )
                    assert r.status_code == 200, r.text
                    drain_ready(r.json()["next_deal"]["ready"])
                r = clients[order[-1]].post(
                    f"/api/matches/{mid}/next-deal", json={"version": version}
                )
            else:
                mover = v["observation"]["to_move"]
                sent = {"version": version, "action": choose_action(views[mover], rng)}
                r = clients[mover].post(f"/api/matches/{mid}/actions", json=sent)
            assert r.status_code == 200, r.text
            current = drain(r.json()["version"])
        assert current is not None
        assert events["presence"] >= people and events["phrase"] > 0, events
    for _, c in devices:
        c.close()
    return sum(c.answers for c in checkers.values())


@pytest.mark.parametrize("people", [2, 3, 4])
def test_no_pushed_message_shows_a_card_its_person_may_not_see(
    db_url: str, people: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    rng = random.Random(f"leak-live-{people}")
    engine = create_engine(db_url)
    try:
        with serve_in_thread(create_app(db_url, computer_pause=0)) as base:
            answers = play_shared_live(base, engine, people, rng.randrange(2**40), rng)
    finally:
        engine.dispose()
    assert answers > 150 * people
    # Nor does any line the server logs.
    assert_no_card_logged(caplog.records)


def test_no_pushed_message_shows_a_card_its_person_may_not_see_in_any_of_their_tabs(
    db_url: str,
) -> None:
    """Four people with two sockets each on one web process: the views built once a change for
    all of a person's sockets go to that person's sockets only."""
    rng = random.Random("leak-live-tabs")
    engine = create_engine(db_url)
    try:
        with serve_in_thread(create_app(db_url, computer_pause=0)) as base:
            answers = play_shared_live(base, engine, 4, rng.randrange(2**40), rng, tabs=2)
    finally:
        engine.dispose()
    assert answers > 150 * 4 * 2


def first_deal_asks_a_poignee(seed: int) -> bool:
    """Whether the first deal of a match of ``seed`` gives a seat enough trumps (the Excuse
    counted) to be asked about a poignée."""
    deal = Match(2, seed).current
    return any(deal.poignee_cards(s).bit_count() >= POIGNEE_SIZES[0] for s in range(4))


def quiet_action(view: dict[str, Any]) -> Any:
    """The first seat to speak takes, the others pass; no chelem, no poignée; the first legal
    card (a first trick is reached on every deal)."""
    legal = view["observation"]["legal"]
    if "bids" in legal:
        return "prise" if "prise" in legal["bids"] else "pass"
    if "chelem" in legal:
        return False
    if "poignee" in legal:
        return []
    return choose_action(view, random.Random(0))


def test_a_declined_poignee_looks_to_every_other_person_like_no_question(db_url: str) -> None:
    """RULES.md §11 at a table of four people (issue 28, item 3): between the moment a seat is
    to play its first card and that card, the others see the same thing, over HTTP and over the
    live socket, whether that seat was asked about a poignée and declined or never asked: the
    same view (version and turn deadline included) and one pushed view, the card's."""
    from websockets.sync.client import connect

    seed = next(s for s in range(5000) if first_deal_asks_a_poignee(s))
    with serve_in_thread(create_app(db_url, computer_pause=0)) as base, ExitStack() as stack:
        clients = {0: stack.enter_context(httpx2.Client(base_url=base, timeout=30))}
        body = {"deals": 2, "level": "random", "seed": seed, "seats": ["me", *["person"] * 3]}
        view = clients[0].post("/api/matches", json={**body, "turn_time": 120}).json()
        mid = view["id"]
        for invite in view["invites"]:
            friend = stack.enter_context(httpx2.Client(base_url=base, timeout=30))
            assert friend.post(f"/api/join/{invite['url'][6:]}").status_code == 200
            clients[invite["seat"]] = friend
        url = base.replace("http://", "ws://") + f"/api/matches/{mid}/live?events=1"
        sockets = {
            seat: stack.enter_context(
                connect(
                    url,
                    additional_headers={"Cookie": f"oudler_player={c.cookies['oudler_player']}"},
                )
            )
            for seat, c in clients.items()
        }
        seen = dict.fromkeys(clients, -1)

        def get(seat: int) -> dict[str, Any]:
            r = clients[seat].get(f"/api/matches/{mid}")
            assert r.status_code == 200, r.text
            out: dict[str, Any] = r.json()
            return out

        def drain(seat: int, version: int) -> list[dict[str, Any]]:
            """The views pushed to ``seat`` until one of ``version`` (presence events aside)."""
            out = []
            while seen[seat] < version:
                msg = json.loads(sockets[seat].recv(timeout=30))
                if "event" not in msg:
                    seen[seat] = msg["version"]
                    out.append(msg)
            return out

        signatures: dict[bool, dict[int, list[Any]]] = {}  # asked -> seat -> what others saw
        played = 0
        while played < 4:
            views = {s: get(s) for s in clients}
            mover = views[0]["observation"]["to_move"]
            assert views[0]["status"] in ("your_turn", "person_turn"), views[0]["status"]
            if views[mover]["observation"]["phase"] not in ("play", "poignee"):
                r = clients[mover].post(
                    f"/api/matches/{mid}/actions",
                    json={"version": views[0]["version"], "action": quiet_action(views[mover])},
                )
                assert r.status_code == 200, r.text
                continue
            others = [s for s in clients if s != mover]
            for s in others:
                drain(s, views[s]["version"])
            asked = views[mover]["observation"]["phase"] == "poignee"
            if asked:
                sent = {"version": views[mover]["version"], "action": []}
                r = clients[mover].post(f"/api/matches/{mid}/actions", json=sent)
                assert r.status_code == 200, r.text
            between = {s: get(s) for s in others}
            pushed_between = {s: drain(s, between[s]["version"]) for s in others}
            card = quiet_action(get(mover))
            sent = {"version": get(mover)["version"], "action": card}
            r = clients[mover].post(f"/api/matches/{mid}/actions", json=sent)
            assert r.status_code == 200, r.text
            after = r.json()["version"]
            played += 1
            signatures.setdefault(asked, {})[mover] = [
                (
                    between[s] == views[s],
                    len(pushed_between[s]) + len(drain(s, after)),
                    after - views[s]["version"],
                )
                for s in others
            ]
    assert set(signatures) == {True, False}, "a seat asked, a seat not, in the first trick"
    never = next(iter(signatures[False].values()))
    assert never == [(True, 1, 1)] * 3
    for seat, seen_by_others in signatures[True].items():
        assert seen_by_others == never, f"the others could tell that seat {seat} was asked"


def test_no_answer_or_pushed_message_leaks_to_people_signed_in_even_on_two_devices(
    db_url: str,
) -> None:
    """Issue 29: four people who kept their games in accounts, one of them signed in on a second
    device as well: each device asks and listens as its person's seat, and sees that seat only."""
    rng = random.Random("leak-live-accounts")
    engine = create_engine(db_url)
    try:
        with serve_in_thread(create_app(db_url, computer_pause=0)) as base:
            answers = play_shared_live(base, engine, 4, rng.randrange(2**40), rng, accounts=True)
    finally:
        engine.dispose()
    assert answers > 150 * 4


# ------------------------------------------------------------------------------ duplicate series


class SeriesReplica(Replica):
    """A series match rebuilt from its stored actions: its deals are the series' boards."""

    def __init__(
        self, engine: Engine, match_id: str, boards: list[tuple[int, int]], cases: Any = None
    ) -> None:
        super().__init__(engine, match_id, 2, 0)
        self.match = BoardMatch(boards, cases=cases)


@pytest.mark.parametrize("kind", ["daily", "weekly"])
def test_no_answer_of_a_series_shows_a_hidden_card_a_seed_or_anothers_result(
    db_url: str, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """Before the person finished: no card they may not see, not the series' secret nor its
    computer players' seed, no par record, no other player's result or number. The weekly
    series too, whose boards start from their imposed cases."""
    monkeypatch.setenv(LEVEL_ENV, "club")
    engine = create_engine(db_url)
    rng = random.Random("leak-series")
    try:
        with web_client(db_url) as first:
            while not (
                listed := [
                    s for s in first.get("/api/series").json()["series"] if s["kind"] == kind
                ]
            ):
                time.sleep(0.1)  # made in the server's background
            (line,) = listed
            sid = line["id"]
            # Someone else finishes the series first: their results are in the database.
            mid = first.post(f"/api/series/{sid}/play").json()["match"]
            view = first.get(f"/api/matches/{mid}").json()
            while view["status"] != "match_over":
                view = advance(first, view, rng)
            rows = SeriesStore(Store(db_url))
            series = rows.get(sid)
            assert series is not None
            secret = rows.secret()
            bots = series_bot_seed(secret, series.key)
            rows.store.close()

            person = TestClient(first.app)
            mid = person.post(f"/api/series/{sid}/play").json()["match"]
            replica = SeriesReplica(engine, mid, list(series.boards), series.cases)
            checker = Checker(replica, bots)
            texts: list[str] = []

            def check(r: httpx2.Response, sent: Any = None) -> Any:
                texts.append(r.text)
                return checker.check(r, sent)

            view = check(person.get(f"/api/matches/{mid}"))
            while view["status"] != "match_over":
                listing = check(person.get("/api/series"))
                (mine,) = [s for s in listing["series"] if s["id"] == sid]
                assert mine["played"] and not mine["finished"]
                assert not {"rank", "percent", "players"} & set(mine)
                r = person.get(f"/api/series/{sid}/ranking")
                assert r.status_code == 409
                check(r)
                # Nor a review, the coach's analysis or the export (docs/duplicate.md).
                for path in (
                    f"/api/series/{sid}/review/1",
                    f"/api/matches/{mid}/deals/1/analysis",
                    f"/api/series/{sid}/export",
                ):
                    r = person.get(path)
                    assert r.status_code in (409, 422), (path, r.text)
                    check(r)
                over = sum(1 for d in checker.replica.update().deals if d.is_over)
                assert view["series"]["par"] == series.par_scores[:over]
                if view["status"] == "your_turn":
                    sent = {"version": view["version"], "action": choose_action(view, rng)}
                    r = person.post(f"/api/matches/{mid}/actions", json=sent)
                    assert r.status_code == 200, r.text
                    view = check(r, sent)
                else:
                    view = advance(person, view, rng)
                    texts.append(json.dumps(view))
                    checker.check_body(view, "advance")
            ranking = person.get(f"/api/series/{sid}/ranking").json()
            # Both guests: unranked, so the person sees their own line only (ranked play is
            # for signed-in people).
            assert [r["ranked"] for r in ranking["rows"]] == [False]
            assert len(ranking["par_records"]) == len(series.boards)
    finally:
        engine.dispose()
    assert checker.answers > 300
    for text in texts:
        assert secret.hex() not in text
        assert "par_records" not in text and '"record"' not in text
        assert str(bots) not in text
