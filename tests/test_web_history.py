"""The person's own play across matches (issue 11): ``GET /api/history`` and the review of a past
deal, ``GET /api/matches/{id}/deals/{n}``, through real HTTP on a real database, checked against
the matches rebuilt here by the engine from the stored actions."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from oudler.core import Match
from test_web_support import advance, engine_match, new_match, web_client

View = dict[str, Any]


def play(client: TestClient, view: View, rng: random.Random, until: Any) -> View:
    for _ in range(3000):
        if until(view):
            return view
        view = advance(client, view, rng)
    raise AssertionError("the wanted position never came")


def expected(matches: list[Match]) -> dict[str, Any]:
    """The history computed here from the engine's matches (oldest first)."""
    names = ("prise", "garde", "garde_sans", "garde_contre")
    contracts = {c: {"taken": 0, "made": 0} for c in names}
    scores, pab, poignees = [], {"won": 0, "lost": 0}, {"10": 0, "13": 0, "15": 0}
    for m in matches:
        for d in m.scored_deals:
            r = d.result
            assert r is not None and r.contract is not None
            scores.append(r.scores[0])
            side = "declarer" if r.declarer == 0 else "defence"
            if r.declarer == 0:
                contracts[r.contract.notation]["taken"] += 1
                contracts[r.contract.notation]["made"] += bool(r.won)
            if r.petit_au_bout:
                pab["won" if r.petit_au_bout == side else "lost"] += 1
            if d.poignees.get(0):
                poignees[str(d.poignees[0].bit_count())] += 1
    finished = [m for m in matches if m.is_over]
    return {
        "matches": {
            "played": len(finished),
            "won": sum(0 in m.winners() for m in finished),
            "in_play": len(matches) - len(finished),
            "practice": 0,
        },
        "contracts": contracts,
        "scores": scores,
        "petit_au_bout": pab,
        "poignees": poignees,
    }


def test_history_after_two_finished_matches_and_one_in_play(db: str, client: TestClient) -> None:
    rng = random.Random(11)
    ids = []
    for seed in (21, 22):
        view = new_match(client, seed=seed)
        play(client, view, rng, lambda v: v["status"] == "match_over")
        ids.append(view["id"])
    # A third match stopped in the middle of its first deal: none of it counts yet.
    third = new_match(client, seed=23)
    third = play(client, third, rng, lambda v: len(v["observation"]["tricks"]) >= 3 or v["sheet"])
    ids.append(third["id"])

    h = client.get("/api/history").json()
    want = expected([engine_match(db, i) for i in ids])
    assert h["matches"] == want["matches"]
    assert h["contracts"] == want["contracts"]
    assert [d["score"] for d in h["deals"]] == want["scores"]
    assert h["petit_au_bout"] == want["petit_au_bout"]
    assert h["poignees"] == want["poignees"]
    assert [m["id"] for m in h["list"]] == ids[::-1]
    assert h["list"][1]["won"] == (0 in engine_match(db, ids[1]).winners())
    # Each scored deal names its match and deal, numbered 1, 2... without void deals.
    first = [d for d in h["deals"] if d["match"] == ids[0]]
    assert [d["scored"] for d in first] == [1, 2]

    # Someone else (another cookie) has a history of their own: empty.
    with web_client(db) as other:
        theirs = other.get("/api/history").json()
        assert theirs["matches"]["played"] == 0 and theirs["deals"] == []
        assert other.get(f"/api/matches/{ids[0]}/deals/1").status_code == 404


def test_a_past_deal_is_reviewed_as_the_table_showed_it_at_its_end(
    db: str, client: TestClient
) -> None:
    rng = random.Random(3)
    view = new_match(client, seed=31)
    view = play(client, view, rng, lambda v: v["status"] == "deal_over")
    done = view["deal_number"]
    view = advance(client, view, rng)  # the next deal, now in play
    match = engine_match(db, view["id"])
    for n in range(1, done + 1):
        r = client.get(f"/api/matches/{view['id']}/deals/{n}")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["observation"] == match.deals[n - 1].observation(0).to_dict()
        assert body["observation"]["review"] is not None
    # The deal in play is not shown; a deal that does not exist is a clear error.
    r = client.get(f"/api/matches/{view['id']}/deals/{done + 1}")
    assert r.status_code == 422 and "still in play" in r.json()["error"]
    assert client.get(f"/api/matches/{view['id']}/deals/{done + 5}").status_code == 400
    assert client.get(f"/api/matches/{view['id']}/deals/x").status_code == 400
