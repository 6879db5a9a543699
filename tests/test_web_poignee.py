"""RULES.md §11 at the web table: being asked about a poignée proves 10+ trumps (the Excuse
counted), so the person must not learn that a computer player was asked, even when it declined.

Through the real API on a real database: a computer player's answer and its first card are one
``step`` and one version (docs/web-api.md, "Versions and stale requests"), so the views the person
sees have the same form whether or not a question happened; the stored rows replay exactly after a
restart; and a step that fails between the answer and the card changes nothing.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select

from oudler.core import Match, Phase
from oudler.core.deal import POIGNEE_SIZES
from oudler.tables.computer import ComputerPlayers
from oudler.tables.games import Tables
from oudler.tables.jobs import Job, LocalQueue, Outcome
from oudler.tables.store import ActionRow
from test_web_support import (
    advance,
    engine_match,
    new_match,
    stored_rows,
    web_client,
)

View = dict[str, Any]
Row = tuple[int, int | None, str, Any]
LEVEL = "random"  # declines half its poignées and shows the others
COMPUTERS = (1, 2, 3)


def seeds_with_poignee_hand(seats: tuple[int, ...], limit: int = 3000) -> Iterator[int]:
    """Match seeds whose first deal gives one of ``seats`` enough trumps (the Excuse counted) to
    be asked about a poignée, as the engine counts them."""
    for seed in range(limit):
        deal = Match(2, seed).current
        if not deal.is_over and any(
            deal.poignee_cards(s).bit_count() >= POIGNEE_SIZES[0] for s in seats
        ):
            yield seed


@dataclass
class Played:
    """The first deal of a match, as the person saw it: every view answered, and how many rows
    were stored after each."""

    seed: int
    views: list[View]
    rows_after: list[int]
    rows: list[Row]


def play_first_deal(client: TestClient, db: str, seed: int) -> Played:
    """A match of ``seed`` played as the page would, to the end of its first deal; the person's
    choices come from ``random.Random(seed)``."""
    rng = random.Random(seed)
    view = new_match(client, deals=2, level=LEVEL, seed=seed)
    views, rows_after = [view], [0]
    engine = create_engine(db)
    try:
        while view["status"] not in ("deal_over", "match_over"):
            view = advance(client, view, rng)  # asserts the version moved on by exactly one
            views.append(view)
            with engine.connect() as conn:
                count = select(func.count()).where(ActionRow.match_id == view["id"])
                rows_after.append(conn.execute(count).scalar_one())
    finally:
        engine.dispose()
    played = Played(seed, views, rows_after, stored_rows(db, view["id"]))
    check_views_are_the_engines(played)
    return played


def check_views_are_the_engines(played: Played) -> None:
    """Each view is the engine's observation after every row stored so far: nothing is stored
    that a later step would reveal, nothing is shown that is not stored."""
    match = Match(2, played.seed)
    applied = 0
    for view, n in zip(played.views, played.rows_after, strict=True):
        for _seq, seat, kind, action in played.rows[applied:n]:
            assert kind != "next_deal"
            match.current.apply(action, seat)
        applied = n
        assert view["observation"] == match.current.observation(0).to_dict()


def find_deal(
    client: TestClient, db: str, seats: tuple[int, ...], wanted: Callable[[list[Row]], bool]
) -> Played:
    for seed in itertools.islice(seeds_with_poignee_hand(seats), 20):
        played = play_first_deal(client, db, seed)
        if wanted(played.rows):
            return played
    raise AssertionError("no seeded match gives the wanted poignée question")


def computer_poignees(rows: list[Row]) -> list[Row]:
    return [r for r in rows if r[2] == "poignee" and r[1] != 0]


def declined(rows: list[Row]) -> bool:
    return any(r[3] == [] for r in computer_poignees(rows))


def shown(rows: list[Row]) -> bool:
    return any(r[3] for r in computer_poignees(rows))


def public_actions(obs: dict[str, Any]) -> int:
    """How many public actions the observation shows: calls, the discard (Prise, Garde), the
    chelem announcement and cards played. A poignée answer is deliberately not among them."""
    n = len(obs["bids"]) + (obs["chelem"] is not None)
    if obs["contract"] in ("prise", "garde") and obs["phase"] not in ("bidding", "discard"):
        n += 1
    n += 4 * len(obs["tricks"])
    if obs["phase"] != "done":  # the last trick stays on the table once it is in ``tricks``
        n += len(obs["trick"]["cards"])
    return n


def check_form(played: Played) -> None:
    """The views have the same form as in a deal where no computer player is asked."""
    views = played.views
    for view in views:
        obs = view["observation"]
        if obs["phase"] == "poignee":  # only the person's own question is seen
            assert obs["to_move"] == 0 and view["status"] == "your_turn"
            assert "poignee" in obs["legal"]
        if view["status"] == "computer_turn":
            assert obs["to_move"] in (1, 2, 3) and obs["legal"] == {} and view["reasons"] == {}
    for before, after in itertools.pairwise(views):
        assert after["version"] == before["version"] + 1
        if before["status"] == "computer_turn":
            # Every step shows exactly one new public action by the seat that was to move.
            b, a = before["observation"], after["observation"]
            assert public_actions(a) == public_actions(b) + 1, (b, a)
            if b["phase"] == "play" and a["phase"] == "play":
                last = a["trick"] if a["trick"]["cards"] else a["tricks"][-1]
                assert (last["leader"] + len(last["cards"]) - 1) % 4 == b["to_move"]


def merged_steps(played: Played) -> list[int]:
    """The indices of the answers whose step stored two rows."""
    n = played.rows_after
    return [i for i in range(1, len(n)) if n[i] - n[i - 1] == 2]


def check_merged_step(played: Played) -> None:
    """Each computer poignée answer was stored with the same seat's first card, in one step, and
    the person saw only the card."""
    asked = computer_poignees(played.rows)
    merged = merged_steps(played)
    assert asked and len(merged) == len(asked)
    assert {b - a for a, b in itertools.pairwise(played.rows_after)} == {1, 2}
    for i, (seq, seat, _kind, answer) in zip(merged, asked, strict=True):
        assert played.rows_after[i] == seq + 2
        assert played.rows[seq + 1][1:3] == (seat, "card")
        before, after = played.views[i - 1]["observation"], played.views[i]["observation"]
        assert played.views[i - 1]["status"] == "computer_turn"
        assert before["phase"] == "play" and before["to_move"] == seat
        assert (str(seat) in after["poignees"]) == bool(answer)
        if answer:  # a shown poignée is public: it is in the view, from that step on
            assert after["poignees"][str(seat)] == answer


# ------------------------------------------------------------------------------ the form


@pytest.mark.parametrize("wanted", [declined, shown], ids=["computer-declines", "computer-shows"])
def test_a_computer_players_poignee_answer_and_first_card_are_one_step_and_one_version(
    db: str, wanted: Callable[[list[Row]], bool]
) -> None:
    with web_client(db) as client:
        played = find_deal(client, db, COMPUTERS, wanted)
        check_merged_step(played)
        check_form(played)
        # The list of matches counts versions the same way.
        summary = {m["id"]: m for m in client.get("/api/matches").json()["matches"]}
        assert summary[played.views[0]["id"]]["version"] == played.views[-1]["version"]
    # One step per computer player's action that the person sees: poignée answers add none.
    steps = sum(v["status"] == "computer_turn" for v in played.views[:-1])
    computer_rows = sum(1 for r in played.rows if r[1] not in (0, None))
    assert steps == computer_rows - len(computer_poignees(played.rows)) > 0


def test_the_persons_own_poignee_question_is_shown_and_is_a_step(db: str) -> None:
    with web_client(db) as client:
        played = find_deal(
            client, db, (0,), lambda rows: any(r[2] == "poignee" and r[1] == 0 for r in rows)
        )
    check_form(played)
    asked = [i for i, v in enumerate(played.views) if v["observation"]["phase"] == "poignee"]
    assert len(asked) == 1
    i = asked[0]
    question, answer = played.views[i], played.views[i + 1]
    assert question["status"] == "your_turn"
    assert question["observation"]["legal"]["poignee"]["sizes"]
    assert answer["observation"]["phase"] == "play" and answer["observation"]["to_move"] == 0
    assert played.rows_after[i + 1] - played.rows_after[i] == 1
    assert played.rows[played.rows_after[i]][1:3] == (0, "poignee")


def test_the_check_of_form_sees_a_poignee_answer_taken_as_a_step_of_its_own(db: str) -> None:
    """check_form can fail: the views a server would give if a computer player's poignée answer
    were a step of its own (the same table again, one version later) are caught."""
    with web_client(db) as client:
        played = play_first_deal(client, db, seed=1)
    check_form(played)
    i = next(
        i
        for i, v in enumerate(played.views)
        if v["status"] == "computer_turn" and v["observation"]["phase"] == "play"
    )
    answer = {**played.views[i], "version": played.views[i]["version"] + 1}
    later = [{**v, "version": v["version"] + 1} for v in played.views[i + 1 :]]
    leaky = Played(played.seed, [*played.views[: i + 1], answer, *later], [], played.rows)
    with pytest.raises(AssertionError):
        check_form(leaky)


# ------------------------------------------------------------------------------ nothing lost


def test_a_restart_around_the_merged_step_replays_the_stored_rows_exactly(db: str) -> None:
    with web_client(db) as client:
        straight = find_deal(client, db, COMPUTERS, declined)
        player = client.cookies["oudler_player"]
    # Restart before the merged step and right after it.
    restart_before = {j for i in merged_steps(straight) for j in (i, i + 1)}
    rng = random.Random(straight.seed)
    views: list[View] = []
    restarts = 0
    while not views or views[-1]["status"] not in ("deal_over", "match_over"):
        with web_client(db) as client:  # a fresh app: nothing in memory
            client.cookies.set("oudler_player", player)
            if not views:
                views.append(new_match(client, deals=2, level=LEVEL, seed=straight.seed))
            else:
                restarts += 1
                # Replayed from the stored rows: the same table and the same version.
                assert client.get(f"/api/matches/{views[0]['id']}").json() == views[-1]
            while views[-1]["status"] not in ("deal_over", "match_over"):
                views.append(advance(client, views[-1], rng))
                if len(views) in restart_before:
                    break
    assert restarts >= 2
    # The computer players' play does not depend on the restarts.
    assert [without_id(v) for v in views] == [without_id(v) for v in straight.views]
    assert [r[1:] for r in stored_rows(db, views[0]["id"])] == [r[1:] for r in straight.rows]


def without_id(view: View) -> View:
    return {k: v for k, v in view.items() if k != "id"}


class SlowAfterPoignee(LocalQueue):
    """A job queue on which the card decided just after a poignée answer is not done in time
    once: the step gives up on it (cancels it) and answers 503."""

    def __init__(self) -> None:
        super().__init__()
        self.poignee_jobs: set[str] = set()
        self.stuck: str | None = None
        self.cancelled: list[str] = []

    async def submit(self, job: Job) -> None:
        if job.function == "think" and job.args[3].phase is Phase.POIGNEE:
            self.poignee_jobs.add(job.id)
        await super().submit(job)

    async def wait(self, job_id: str, timeout: float) -> Outcome | None:
        match_id, seq = job_id.split(":")[:2]
        if self.stuck is None and f"{match_id}:{int(seq) - 1}" in self.poignee_jobs:
            self.stuck = job_id
            return None
        return await super().wait(job_id, timeout)

    async def cancel(self, job_id: str) -> None:
        self.cancelled.append(job_id)
        await super().cancel(job_id)


def test_a_step_that_fails_between_the_poignee_answer_and_the_card_changes_nothing(
    db: str,
) -> None:
    with web_client(db) as client:
        straight = find_deal(client, db, COMPUTERS, declined)
        tables: Tables = client.app.state.tables  # type: ignore[attr-defined]
        slow = SlowAfterPoignee()
        # Any decision not done when the step stops waiting is past its time: cancelled, 503.
        tables.computers = ComputerPlayers(queue=slow, timeout=0.0)
        rng = random.Random(straight.seed)
        view = new_match(client, deals=2, level=LEVEL, seed=straight.seed)
        mid = view["id"]
        views = [view]
        while view["status"] not in ("deal_over", "match_over"):
            if view["status"] == "computer_turn":
                rows = stored_rows(db, mid)
                r = client.post(f"/api/matches/{mid}/step", json={"version": view["version"]})
                if r.status_code == 503:
                    assert "too long" in r.json()["error"]
                    assert stored_rows(db, mid) == rows
                    assert client.get(f"/api/matches/{mid}").json() == view
                    continue  # the page tries again
                assert r.status_code == 200, r.text
                view = r.json()
            else:
                view = advance(client, view, rng)
            views.append(view)
    assert slow.stuck is not None and slow.cancelled == [slow.stuck]
    assert [without_id(v) for v in views] == [without_id(v) for v in straight.views]
    assert [r[1:] for r in stored_rows(db, mid)] == [r[1:] for r in straight.rows]


class Recording(LocalQueue):
    """The embedded job queue, recording every job submitted (with when: wall clock, as a job's
    outcome says when it began) and every outcome awaited."""

    def __init__(self) -> None:
        super().__init__()
        self.jobs: list[Job] = []
        self.submitted: dict[str, float] = {}
        self.outcomes: dict[str, Outcome] = {}

    async def submit(self, job: Job) -> None:
        self.jobs.append(job)
        self.submitted.setdefault(job.id, time.time())
        await super().submit(job)

    async def wait(self, job_id: str, timeout: float) -> Outcome | None:
        outcome = await super().wait(job_id, timeout)
        if outcome is not None and outcome.ok:
            self.outcomes[job_id] = outcome
        return outcome


# In the first deal of match seed 47 a contract is played, at both levels below, and one computer
# player holds 10+ trumps: it is asked the question, and the two others play a first card without.
ASKED_SEED = 47


@pytest.mark.parametrize("level", ["expert", "random"])
def test_a_first_card_waits_as_long_after_a_pause_as_after_the_poignee_question(
    db: str, level: str
) -> None:
    """RULES.md §11 through timing: the expert thinks about a poignée for up to
    ``poignee_pause``, and may answer in milliseconds (its search stops once its choice is
    clear). So a computer player's first card comes after its answer to the question, or after
    a pause job standing for it, queued on the same lane (a busy queue delays both alike); and
    either way the first card is asked for no sooner than ``poignee_pause`` after that job
    began. The pause job itself is answered at once: the web side waits, and the worker's lane
    takes the next decision meanwhile. Every level does the same (the other levels' pause is
    0 s): the number of jobs and queue waits is the same either way."""
    from oudler.bots.expert import ExpertBot
    from oudler.tables.computer import lane_of, poignee_pause

    assert poignee_pause("expert") == ExpertBot(seed=0).poignee_budget_ms / 1000 > 0
    assert all(poignee_pause(level) == 0 for level in ("random", "novice", "club"))

    rng = random.Random(ASKED_SEED)
    queue = Recording()
    with web_client(db) as client:
        client.app.state.tables.computers = ComputerPlayers(queue=queue)  # type: ignore[attr-defined]
        view = new_match(client, deals=2, level=level, seed=ASKED_SEED)
        while not view["observation"]["tricks"] and view["status"] not in (
            "deal_over",
            "match_over",
        ):
            view = advance(client, view, rng)
        match = engine_match(db, view["id"])
    deal = match.current
    assert deal.contract is not None
    asked = deal.poignee_asked & set(COMPUTERS)
    assert len(asked) == 1  # the seed's premise: both branches below are taken
    pauses = [job for job in queue.jobs if job.function == "pause"]
    assert [job.args for job in pauses] == [(0.0,)] * (3 - len(asked))
    assert {job.lane for job in queue.jobs} == {lane_of(level)}
    pause = poignee_pause(level)
    for job in pauses:  # answered at once: no lane held for the pause
        outcome = queue.outcomes[job.id]
        assert outcome.ended - outcome.began < 0.1
    # Each computer player's first card comes right after its pause or its poignée question,
    # and no sooner than the question's time after it began.
    for seat in COMPUTERS:
        i = next(
            i
            for i, job in enumerate(queue.jobs)
            if job.function == "think" and job.args[2] == seat and job.args[3].phase is Phase.PLAY
        )
        card, before = queue.jobs[i], queue.jobs[i - 1]
        if seat in asked:
            assert before.function == "think" and before.args[3].phase is Phase.POIGNEE
        else:
            assert before.function == "pause" and before.id.endswith(":pause")
        # 10 ms for the wall clock against the event loop's monotonic one
        began = queue.outcomes[before.id].began
        assert queue.submitted[card.id] >= began + pause - 0.01


def test_the_rest_of_the_poignee_pause_is_counted_from_the_jobs_start() -> None:
    """``poignee_rest``: the same end for the question and for its pause, from when the job
    began on the worker, whatever the answer cost; asked again later (after a 202), the same
    end; nothing once the answer took longer than the pause."""
    from oudler.tables.computer import poignee_pause, poignee_rest

    pause = poignee_pause("expert")
    began = 1_000.0
    quick = Outcome("pass", queued=began - 0.2, began=began, ended=began + 0.002)
    idle = Outcome(None, queued=began - 0.2, began=began, ended=began + 0.0001)
    slow = Outcome("pass", queued=began - 0.2, began=began, ended=began + pause + 0.1)
    for outcome in (quick, idle):
        assert poignee_rest("expert", outcome, now=outcome.ended) == pytest.approx(
            began + pause - outcome.ended
        )
        assert poignee_rest("expert", outcome, now=began + 0.3) == pytest.approx(pause - 0.3)
        assert poignee_rest("expert", outcome, now=began + pause + 1) == 0
    assert poignee_rest("expert", slow, now=slow.ended) == 0
    assert poignee_rest("random", quick, now=quick.ended) == 0
