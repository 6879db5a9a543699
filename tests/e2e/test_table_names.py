"""Issue 28, item 8, in a real Chromium: a friend bids Prise, leaves mid-deal, and another
person takes the seat; the calls, the breakdown and the score sheet still name the friend who
bid, on every page (the newcomer's too), not the newcomer."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import CHROMIUM, Table, person_action

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
    pytest.mark.app_options(computer_pause=0),
]

WORDS = {  # "Léa (East)" and the contract line, in each language
    "en-US": ("Léa (East)", "Josette (East)", "Léa (East) played Prise"),
    "fr-FR": ("Léa (Est)", "Josette (Est)", "Léa (Est) a joué une Prise"),
    "zh-CN": ("Léa（东）", "Josette（东）", "Léa（东）打 "),
}


def post(t: Table, path: str, body: Any = None) -> Any:
    r = t.context.request.post(f"{t.base}{path}", data=body if body is not None else {})
    assert r.ok, r.text()
    return r.json()


def person(open_table: Any, locale: str, name: str, link: str) -> Table:
    t: Table = open_table(locale=locale)
    post(t, "/api/me", {"name": name})
    t.match_id = post(t, f"/api/join/{link.removeprefix('/join/')}")["id"]
    return t


def act(seats: dict[int, Table], bid: str | None = None) -> None:
    """The person to move acts through the API: ``bid`` in the bidding, else as the drivers do."""
    v = seats[0].view()
    mover = seats[v["observation"]["to_move"]]
    mine = mover.view()
    action = bid if bid is not None else person_action(mine)
    body = {"version": mine["version"], "action": action}
    post(mover, f"/api/matches/{mine['id']}/actions", body)


@pytest.mark.parametrize("locale", ["en-US", "fr-FR", "zh-CN"])
def test_the_calls_breakdown_and_sheet_name_who_bid_after_the_seat_changed_hands(
    open_table: Any, locale: str
) -> None:
    me: Table = open_table(locale=locale)
    me.home()
    post(me, "/api/me", {"name": "Anne"})
    seats_body = {"deals": 2, "level": "random", "seats": ["me", "person", "person", "person"]}
    view = post(me, "/api/matches", {**seats_body, "seed": 8})
    me.match_id = view["id"]
    links = {i["seat"]: i["url"] for i in view["invites"]}
    names = {1: "Léa", 2: "Paul", 3: "Zoé"}
    seats = {0: me, **{s: person(open_table, locale, n, links[s]) for s, n in names.items()}}
    while me.view()["observation"]["phase"] == "bidding":
        to_move = me.view()["observation"]["to_move"]
        act(seats, "prise" if to_move == 1 else "pass")
    assert me.view()["observation"]["declarer"] == 1
    # Léa leaves before her discard; Josette comes by a new link and plays the deal out.
    post(seats[1], f"/api/matches/{me.match_id}/leave")
    link = post(me, f"/api/matches/{me.match_id}/seats/1/invite")["invites"][0]["url"]
    seats[1] = person(open_table, locale, "Josette", link)
    lea, josette, contract = WORDS[locale]

    # During the deal: the contract line and the calls, on the creator's page.
    me.page.goto(f"{me.base}/#/match/{me.match_id}")
    me.drawn(me.view()["version"])
    info = me.page.locator("#info")
    calls = [li.text_content() for li in info.locator("ul.inline-list li").all()]
    assert any(c and c.startswith(lea) for c in calls) and not any(josette in c for c in calls)
    assert lea in (me.page.locator('[data-role="contract"]').text_content() or "")

    while me.view()["status"] != "deal_over":
        act(seats)
    for t in (me, seats[1]):
        if t is not me:
            t.page.goto(f"{t.base}/#/match/{t.match_id}")
        t.drawn(t.view()["version"])
        breakdown = t.page.locator('[data-role="breakdown"]')
        breakdown.wait_for()
        assert contract in (breakdown.locator("li").first.text_content() or "")
        review = t.page.locator('[data-role="review"]').text_content() or ""
        assert lea in review and josette not in review.split(lea)[0], review
        sheet = t.page.locator('[data-role="score-sheet"] tbody').text_content() or ""
        assert lea in sheet and josette not in sheet, sheet
        # The seat itself is Josette's now: its column in the sheet says so.
        head = t.page.locator('[data-role="score-sheet"] thead').text_content() or ""
        assert josette in head, head

    # The next deal dealt, the past deal as the history shows it still names Léa for her Prise.
    for t in seats.values():
        v = t.view()
        post(t, f"/api/matches/{t.match_id}/next-deal", {"version": v["version"]})
    me.page.goto(f"{me.base}/#/history/{me.match_id}")
    past = me.page.locator('[data-role="past-match"] [data-role="breakdown"] li').first
    past.wait_for()
    assert contract in (past.text_content() or "")
    review = me.page.locator('[data-role="past-match"] [data-role="review"]').text_content() or ""
    assert lea in review, review
